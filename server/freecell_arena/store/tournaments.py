"""Tournaments' SQL: a tournament read back whole (entries, races, results, berserks), the lists of the
tournaments page, a player's finished tournaments, and what the audit recomputes.

Every figure a tournament shows is computed from these reads (`core.records.tournaments.scoring`): the
stored table (`tournaments.standings`) is only what was computed then, and the audit checks it against them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from freecell_arena.core.moderation.sanctions import Act
from freecell_arena.core.ports.reads import RaceResult
from freecell_arena.core.ports.records import PlayerRecord, TournamentRecord
from freecell_arena.core.records.sanctioned import Sanctions
from freecell_arena.core.records.tournaments.scoring import Entrant, StandingRow, StoredRace
from freecell_arena.core.records.tournaments.state import StoredTournament, TournamentSnapshot
from freecell_arena.core.records.tournaments.state import table_of as standings_of
from freecell_arena.store.models import (
    Game,
    Player,
    Room,
    RoomMember,
    Sanction,
    Tournament,
    TournamentBerserk,
    TournamentEntry,
    TournamentRace,
    table_of,
)
from freecell_arena.store.ratings import race_result, race_results

tournaments = table_of(Tournament)
entries = table_of(TournamentEntry)
races = table_of(TournamentRace)
berserks = table_of(TournamentBerserk)
rooms = table_of(Room)
games = table_of(Game)
members = table_of(RoomMember)
players = table_of(Player)
sanctions = table_of(Sanction)

LIST_LIMIT = 30
LIVE_ROOMS = ("lobby", "countdown", "running")
"""A player seated in a room in one of these is not free (a finished or closed room holds nobody)."""


def _stored(row: Any) -> StoredTournament:
    record = TournamentRecord(
        tournament_id=row.id, name=row.name, kind=row.kind, variant=row.variant, rules=dict(row.rules),
        starts_at=row.starts_at, ends_at=row.ends_at, created_at=row.created_at, created_by=row.created_by,
        schedule_key=row.schedule_key, link_code=row.link_code, commitment=row.commitment,
    )  # fmt: skip
    table = tuple(StandingRow.from_json(item) for item in row.standings or ())
    return StoredTournament(record, row.entrants, row.wave, row.standings_seq, table, bool(row.final), row.reveal)


class TournamentStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def get(self, tournament_id: str) -> StoredTournament | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(tournaments).where(tournaments.c.id == tournament_id))).first()
        return _stored(row) if row is not None else None

    async def snapshot(self, tournament_id: str) -> TournamentSnapshot | None:
        """The tournament, its entries, its races with their results and berserks, and the sanctions in force on
        them, in one read transaction."""
        async with self.engine.connect() as connection:
            return await snapshot_in(connection, tournament_id)

    async def listing(self, now: datetime, bots: bool | None) -> tuple[list[StoredTournament], ...]:
        """(upcoming soonest first, running, finished latest first): the tournaments page."""
        kinds: list[ColumnElement[bool]] = [tournaments.c.link_code.is_(None)]
        if bots is not None:
            entry = func.coalesce(tournaments.c.rules["entry"].as_string(), "public")
            kinds.append(entry == "bots" if bots else entry != "bots")
        async with self.engine.connect() as connection:
            upcoming = (await connection.execute(select(tournaments).where(
                *kinds, tournaments.c.starts_at > now).order_by(tournaments.c.starts_at).limit(LIST_LIMIT))).all()
            running = (await connection.execute(select(tournaments).where(
                *kinds, tournaments.c.starts_at <= now, tournaments.c.final.is_(False))
                .order_by(tournaments.c.starts_at).limit(LIST_LIMIT))).all()
            finished = (await connection.execute(select(tournaments).where(*kinds, tournaments.c.final.is_(True))
                .order_by(tournaments.c.ends_at.desc()).limit(LIST_LIMIT))).all()  # fmt: skip
        return [_stored(row) for row in upcoming], [_stored(row) for row in running], [_stored(row) for row in finished]

    async def live(self, now: datetime, lead_until: datetime) -> list[StoredTournament]:
        """Tournaments a director tends: not over, starting before `lead_until` (a cup's first round is seated
        a little ahead)."""
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(tournaments).where(
                tournaments.c.final.is_(False), tournaments.c.starts_at <= lead_until)
                .order_by(tournaments.c.starts_at))).all()  # fmt: skip
        return [_stored(row) for row in rows]

    async def entered(self, player_id: str, limit: int = 20) -> list[StoredTournament]:
        """The tournaments a player entered, latest first (their page)."""
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(tournaments).join(entries, entries.c.tournament_id ==
                tournaments.c.id).where(entries.c.player_id == player_id).order_by(tournaments.c.starts_at.desc())
                .limit(limit))).all()  # fmt: skip
        return [_stored(row) for row in rows]

    async def created_since(self, player_id: str, since: datetime) -> int:
        """How many tournaments a player created since `since` (the per-player limit of private ones)."""
        async with self.engine.connect() as connection:
            count = await connection.scalar(select(func.count()).select_from(tournaments).where(
                tournaments.c.created_by == player_id, tournaments.c.created_at >= since))  # fmt: skip
        return int(count or 0)

    async def with_standings(self, after: str = "", limit: int = 100) -> list[str]:
        """Ids of tournaments with a stored table, in id order after `after` (the audit's keyset pages)."""
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(tournaments.c.id).where(
                tournaments.c.standings_seq > 0, tournaments.c.id > after).order_by(tournaments.c.id)
                .limit(limit))).all()  # fmt: skip
        return [row.id for row in rows]

    async def players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        """The identities of entrants (a process pairing them must know them)."""
        if not player_ids:
            return []
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(players).where(players.c.id.in_(list(player_ids))))).all()
        return [PlayerRecord(row.id, row.display_name, row.token_hash, row.bot, row.created_at) for row in rows]

    async def overdue_rooms(self, tournament_id: str, before: datetime) -> list[str]:
        """Codes of the tournament's races still live in the store though their time ran out before `before`:
        their keeper died, and a live process must finish them (nobody's points are lost)."""
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(rooms.c.code).join(races, races.c.room_id == rooms.c.id).where(
                races.c.tournament_id == tournament_id, rooms.c.status.in_(("countdown", "running")),
                or_(rooms.c.started_at.is_(None), and_(rooms.c.started_at < before))))).all()  # fmt: skip
        return [row.code for row in rows]


async def snapshot_in(connection: AsyncConnection, tournament_id: str, *,
                      for_update: bool = False) -> TournamentSnapshot | None:  # fmt: skip
    """`TournamentStore.snapshot` on a connection (`for_update`: the tournament's row locked, where the database
    locks rows, for a transaction that stores its table)."""
    query = select(tournaments).where(tournaments.c.id == tournament_id)
    row = (await connection.execute(query.with_for_update() if for_update else query)).first()
    if row is None:
        return None
    entry_rows = (await connection.execute(
        select(entries).where(entries.c.tournament_id == tournament_id))).all()  # fmt: skip
    race_rows = (await connection.execute(
        select(races.c.room_id, races.c.code, races.c.wave, races.c.heat, races.c.formed_at, rooms.c.status,
               rooms.c.started_at, rooms.c.finished_at)
        .join(rooms, rooms.c.id == races.c.room_id)
        .where(races.c.tournament_id == tournament_id))).all()  # fmt: skip
    game_rows = (await connection.execute(
        race_results().join(races, races.c.room_id == games.c.room_id)
        .where(races.c.tournament_id == tournament_id))).all()  # fmt: skip
    member_rows = (await connection.execute(
        select(members.c.room_id, members.c.player_id).join(races, races.c.room_id == members.c.room_id)
        .where(races.c.tournament_id == tournament_id, members.c.role == "player"))).all()  # fmt: skip
    berserk_rows = (await connection.execute(
        select(berserks).where(berserks.c.tournament_id == tournament_id))).all()  # fmt: skip
    entered = and_(entries.c.player_id == members.c.player_id, entries.c.tournament_id == tournament_id)
    in_live_rooms = frozenset((await connection.execute(
        select(members.c.player_id).join(entries, entered).join(rooms, rooms.c.id == members.c.room_id)
        .where(members.c.role == "player", rooms.c.status.in_(LIVE_ROOMS)))).scalars())  # fmt: skip
    held = (await connection.execute(
        select(sanctions.c.player_id, sanctions.c.kind).join(entries, and_(
            entries.c.player_id == sanctions.c.player_id, entries.c.tournament_id == tournament_id))
        .where(sanctions.c.kind.in_([Act.MARK.value, Act.BAN.value])))).all()  # fmt: skip
    void = frozenset((await connection.execute(
        select(sanctions.c.game_id).join(games, games.c.id == sanctions.c.game_id)
        .join(races, races.c.room_id == games.c.room_id)
        .where(races.c.tournament_id == tournament_id, sanctions.c.kind == Act.VOID.value))).scalars())  # fmt: skip
    results: dict[str, list[RaceResult]] = defaultdict(list)
    seated: dict[str, set[str]] = defaultdict(set)
    for game in game_rows:
        results[game.room_id].append(race_result(game))
        seated[game.room_id].add(game.player_id)
    for member in member_rows:
        seated[member.room_id].add(member.player_id)
    started = {race.room_id: race.started_at for race in race_rows}
    berserked: dict[str, set[str]] = defaultdict(set)
    for berserk in berserk_rows:
        begun = started.get(berserk.room_id)
        if begun is None or berserk.at <= begun:  # chosen before the race began
            berserked[berserk.room_id].add(berserk.player_id)
    stored_races = tuple(
        StoredRace(race.room_id, race.code, race.wave, race.heat, race.formed_at,
                   race.status in ("finished", "closed"), tuple(sorted(results[race.room_id],
                                                                       key=lambda result: result.player_id)),
                   frozenset(berserked[race.room_id]), tuple(sorted(seated[race.room_id])), race.finished_at)
        for race in race_rows)  # fmt: skip
    entrants = {entry.player_id: Entrant(entry.player_id, entry.name, entry.bot, entry.entered_at, entry.status,
                                         entry.status_at) for entry in entry_rows}  # fmt: skip
    marked = frozenset(item.player_id for item in held if item.kind == Act.MARK.value)
    banned = frozenset(item.player_id for item in held if item.kind == Act.BAN.value)
    return TournamentSnapshot(_stored(row), entrants, stored_races, Sanctions(marked, void), banned, in_live_rooms)


async def derive_standings(connection: AsyncConnection, player_id: str) -> None:
    """The stored tables of every tournament the player entered, made again with the sanctions in force now (a
    moderator's action, in its transaction: `store.moderation.DERIVED_AGAIN`). Each moves its `standings_seq` on,
    changed or not: a director that read the tournament before this commits (a table about to be stored final
    without the sanction, say) is refused and reads it again."""
    tournament_ids = (await connection.execute(
        select(tournaments.c.id).join(entries, entries.c.tournament_id == tournaments.c.id)
        .where(entries.c.player_id == player_id, tournaments.c.standings_seq > 0)
        .order_by(tournaments.c.id))).scalars().all()  # fmt: skip
    for tournament_id in tournament_ids:
        snapshot = await snapshot_in(connection, tournament_id, for_update=True)
        if snapshot is None:
            continue
        table = [row.to_json() for row in standings_of(snapshot)]
        stored = snapshot.stored
        await connection.execute(update(tournaments).where(
            tournaments.c.id == tournament_id, tournaments.c.standings_seq == stored.standings_seq)
            .values(standings=table, standings_seq=stored.standings_seq + 1))  # fmt: skip
