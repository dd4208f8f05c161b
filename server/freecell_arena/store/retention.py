"""What may leave the database (`freecell-arena prune`): rows nothing a player sees or the audit checks depends on.

- Passkey challenges past their expiry (nobody answered; a running server sweeps them every minute too).
- Access tokens revoked long ago: a revoked token is kept so that its `hello` says `revoked_token`; once gone it
  says `unknown_token`, refused just the same.
- Unsaved players gone for good: an identity older than the cutoff with no account, no bot account, no claimed
  name, no token, no passkey challenge, no ranked game ever and no game started since the cutoff, together with
  their (unranked) games and those games' moves, their room memberships and the rooms that were theirs alone
  (finished or closed, before the cutoff, hosted by them, no other member or player, in no series and not a
  variant's quick room). Whoever shares anything with another player stays. Their token, if it ever comes back,
  is an unknown token: the browser and the SDK start a new identity.

Never a ranked game, its result or its moves, a rating, a leaderboard entry or a daily rank: the ranked-game test
excludes their players, and the foreign keys would refuse the delete besides. Players go in batches, each batch
in one transaction that checks the conditions again as it deletes: a player who came back meanwhile (a new
game) stays, and a batch a server raced (a foreign key refused) is left whole for the next run.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Text, and_, cast, delete, exists, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from freecell_arena.store.engine import WRITE_OPTION
from freecell_arena.store.models import (
    AccessToken,
    Account,
    BotAccount,
    ClaimedName,
    Game,
    Move,
    Player,
    QuickRoom,
    Room,
    RoomMember,
    WebauthnChallenge,
    table_of,
)

players = table_of(Player)
games = table_of(Game)
moves = table_of(Move)
rooms = table_of(Room)
members = table_of(RoomMember)
quick_rooms = table_of(QuickRoom)
tokens = table_of(AccessToken)
challenges = table_of(WebauthnChallenge)
accounts = table_of(Account)
bot_accounts = table_of(BotAccount)
claimed = table_of(ClaimedName)
DONE_STATUSES = ("finished", "closed")
"""A room in one of these is never brought back into a server's memory."""


@dataclass(frozen=True, slots=True)
class Retention:
    """What is kept: an unsaved player idle this long with no ranked game goes; a token revoked this long ago goes."""

    now: datetime
    unsaved_idle: timedelta
    revoked_kept: timedelta

    @property
    def unsaved_cutoff(self) -> datetime:
        return self.now - self.unsaved_idle


@dataclass(slots=True)
class Pruned:
    """How many rows went (or, in a dry run, would go), by kind."""

    challenges: int = 0
    tokens: int = 0
    players: int = 0
    games: int = 0
    moves: int = 0
    rooms: int = 0
    memberships: int = 0
    skipped_batches: list[str] = field(default_factory=list)

    def add(self, other: Pruned) -> None:
        for kind in fields(self):
            if kind.name != "skipped_batches":
                setattr(self, kind.name, getattr(self, kind.name) + getattr(other, kind.name))


def _alone(room: Any, player_id: Any, cutoff: datetime) -> Any:
    """`room` (an alias of `rooms`) was this player's alone, is done with, and may go with them."""
    others_in_it = members.alias("others_in_it")
    others_played = games.alias("others_played")
    return and_(
        room.c.host_id == player_id,
        room.c.status.in_(DONE_STATUSES),
        room.c.created_at < cutoff,
        room.c.next_code.is_(None),
        or_(room.c.series.is_(None), cast(room.c.series, Text) == "null"),
        ~exists().where(quick_rooms.c.code == room.c.code),
        # its host is the player: anyone else in it is someone else (compared with the room's own column, so that
        # these look no further out than the room)
        ~exists().where(others_in_it.c.room_id == room.c.id, others_in_it.c.player_id != room.c.host_id),
        ~exists().where(others_played.c.room_id == room.c.id, others_played.c.player_id != room.c.host_id),
    )


def _gone_for_good(retention: Retention) -> Any:
    """The conditions on `players` of an unsaved player who may go (see the module's docstring). Each is an index
    lookup by the player's id; a room of theirs is found by its host, a membership or a game."""
    mine, cutoff = players.c.id, retention.unsaved_cutoff
    hosted, joined, played = rooms.alias("hosted"), rooms.alias("joined"), rooms.alias("played")
    return and_(
        players.c.created_at < cutoff,
        ~exists().where(accounts.c.player_id == mine),
        ~exists().where(bot_accounts.c.player_id == mine),
        ~exists().where(claimed.c.player_id == mine),
        ~exists().where(tokens.c.player_id == mine),
        ~exists().where(challenges.c.player_id == mine, challenges.c.expires_at >= retention.now),
        ~exists().where(games.c.player_id == mine, or_(games.c.ranked.is_(True), games.c.started_at >= cutoff)),
        ~exists().where(hosted.c.host_id == mine, ~_alone(hosted, mine, cutoff)),
        ~exists().where(members.c.player_id == mine, joined.c.id == members.c.room_id, ~_alone(joined, mine, cutoff)),
        ~exists().where(games.c.player_id == mine, played.c.id == games.c.room_id, ~_alone(played, mine, cutoff)),
    )


class RetentionStore:
    def __init__(self, engine: AsyncEngine, batch: int = 500) -> None:
        self.engine = engine
        self.batch = batch

    async def prune(self, retention: Retention, *, dry_run: bool) -> Pruned:
        """Delete (or, dry, count) what may go, in batches; what went, by kind."""
        pruned = Pruned()
        expired = challenges.c.expires_at < retention.now
        revoked = tokens.c.revoked_at < retention.now - retention.revoked_kept
        async with self._transaction(dry_run) as connection:
            pruned.challenges = await _count_or_delete(connection, challenges, expired, dry_run)
            pruned.tokens = await _count_or_delete(connection, tokens, revoked, dry_run)
        after = ""
        while True:
            async with self.engine.connect() as connection:
                found = list((await connection.execute(
                    select(players.c.id).where(players.c.id > after, _gone_for_good(retention))
                    .order_by(players.c.id).limit(self.batch))).scalars())  # fmt: skip
            if not found:
                return pruned
            try:
                async with self._transaction(dry_run) as connection:
                    pruned.add(await _players(connection, found, retention, dry_run))
            except IntegrityError:  # a server wrote for one of them meanwhile: the next run sees it as it is now
                pruned.skipped_batches.append(f"{found[0]}..{found[-1]}")
            after = found[-1]

    @contextlib.asynccontextmanager
    async def _transaction(self, dry_run: bool) -> AsyncIterator[AsyncConnection]:
        """One transaction; a writing one (SQLite: BEGIN IMMEDIATE, so it waits for the server's writer, not
        fails on it) unless it only counts."""
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: not dry_run})
            async with connection.begin():
                yield connection


async def _count_or_delete(connection: AsyncConnection, table: Any, where: Any, dry_run: bool) -> int:
    if dry_run:
        return int((await connection.execute(select(func.count()).select_from(table).where(where))).scalar_one())
    return int((await connection.execute(delete(table).where(where))).rowcount)


async def _players(connection: AsyncConnection, candidates: Sequence[str], retention: Retention,
                   dry_run: bool) -> Pruned:  # fmt: skip
    """One batch: the players still gone for good (checked again, in the transaction), then what is theirs,
    children before parents: moves, games, memberships, rooms, players."""
    still = list((await connection.execute(select(players.c.id).where(players.c.id.in_(candidates),
                                                                      _gone_for_good(retention)))).scalars())
    if not still:
        return Pruned()
    their_games = select(games.c.id).where(games.c.player_id.in_(still))
    return Pruned(
        moves=await _count_or_delete(connection, moves, moves.c.game_id.in_(their_games), dry_run),
        games=await _count_or_delete(connection, games, games.c.player_id.in_(still), dry_run),
        memberships=await _count_or_delete(connection, members, members.c.player_id.in_(still), dry_run),
        rooms=await _count_or_delete(connection, rooms, rooms.c.host_id.in_(still), dry_run),
        players=await _count_or_delete(connection, players, players.c.id.in_(still), dry_run),
    )
