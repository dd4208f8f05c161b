"""The sanctions in force as the derived numbers' SQL reads them (`freecell_arena.core.moderation.sanctions`).

Small indexed reads, shared by the rating ledger (who counts in a race being rated), the leaderboard claim (a
marked player's win goes to the bots' side), the rating sweep and the moderation store. Also the lock that puts a
variant's ratings in one order: a race being rated and a sanction recomputing the variant's ratings take it, so
one always sees the other's rows (PostgreSQL; SQLite's writers are one at a time already).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from freecell_arena.core.moderation.sanctions import Act
from freecell_arena.core.records.sanctioned import Sanctions
from freecell_arena.store.models import Game, ModAction, Sanction, table_of

sanctions = table_of(Sanction)
mod_log = table_of(ModAction)
games = table_of(Game)


async def log_head(connection: AsyncConnection) -> int:
    """The mod log's last action id (0: none): a rating counted before it may count the wrong players."""
    return int((await connection.execute(select(func.max(mod_log.c.id)))).scalar_one_or_none() or 0)


async def marked_among(connection: AsyncConnection, player_ids: Collection[str]) -> frozenset[str]:
    if not player_ids:
        return frozenset()
    query = select(sanctions.c.player_id).where(sanctions.c.player_id.in_(sorted(player_ids)),
                                                sanctions.c.kind == Act.MARK.value)  # fmt: skip
    return frozenset((await connection.execute(query)).scalars())


async def voided_in_rooms(connection: AsyncConnection, room_ids: Collection[str]) -> dict[str, set[str]]:
    """The players whose game in each room is void."""
    if not room_ids:
        return {}
    query = (
        select(games.c.room_id, games.c.player_id)
        .join(sanctions, sanctions.c.game_id == games.c.id)
        .where(games.c.room_id.in_(sorted(room_ids)), sanctions.c.kind == Act.VOID.value)
    )
    found: dict[str, set[str]] = defaultdict(set)
    for room_id, player_id in await connection.execute(query):
        found[room_id].add(player_id)
    return found


async def sanctions_in_force(connection: AsyncConnection) -> Sanctions:
    """Every mark and void in force (the audit's and a recomputation's view: a few rows per sanctioned player)."""
    query = select(sanctions.c.player_id, sanctions.c.kind, sanctions.c.game_id).where(
        sanctions.c.kind.in_([Act.MARK.value, Act.VOID.value]))  # fmt: skip
    rows = (await connection.execute(query)).all()
    return Sanctions(frozenset(row.player_id for row in rows if row.kind == Act.MARK.value),
                     frozenset(row.game_id for row in rows if row.kind == Act.VOID.value and row.game_id))  # fmt: skip


async def lock_ratings(connection: AsyncConnection, variants: Collection[str]) -> None:
    """Hold the variants' ratings until the transaction ends (PostgreSQL advisory locks, in one order)."""
    if connection.dialect.name != "postgresql":
        return
    for variant in sorted(variants):
        await connection.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                                 {"key": f"freecell-arena ratings {variant}"})  # fmt: skip


async def voided_races(connection: AsyncConnection) -> dict[str, set[str]]:
    """Every room with a void game in it, and whose (the audit rates those races without them)."""
    query = (
        select(games.c.room_id, games.c.player_id)
        .join(sanctions, sanctions.c.game_id == games.c.id)
        .where(sanctions.c.kind == Act.VOID.value, games.c.room_id.is_not(None))
    )
    found: dict[str, set[str]] = defaultdict(set)
    for room_id, player_id in await connection.execute(query):
        found[room_id].add(player_id)
    return found
