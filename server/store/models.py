"""The schema: SQLAlchemy 2 typed declarative models. Alembic's migrations are checked against this metadata.

A game is `(variant, seed, actions)`: `games` holds the deal and the result, `moves` the player's actions.
Boards are never stored; they are rebuilt by replay.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Index, Integer, MetaData, String, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from server.store.types import UtcDateTime

# Every constraint and index gets a predictable name, so later migrations can drop or alter it by name on
# both backends (SQLite has no names of its own to discover).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_N_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID_LENGTH = 64  # ids are `prefix_<16 hex>` (server.core.identity); token hashes are 64 hex digits


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UtcDateTime()}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    display_name: Mapped[str] = mapped_column(String(100))
    # unique: a login looks the player up by the hash of their token (the unique index serves it)
    token_hash: Mapped[str] = mapped_column(String(ID_LENGTH), unique=True)
    bot: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime]


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)  # joining by code: the unique index serves it
    variant: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(BigInteger)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]


class Game(Base):
    """One player's copy of a deal; the result columns stay NULL until the game ends.

    The result lives in the same row so that the coming leaderboard index
    (variant, seed, ranked, outcome, player_moves, time_ms, finished_at) is one index on one table.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    room_id: Mapped[str | None] = mapped_column(ForeignKey("rooms.id"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    variant: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(BigInteger)
    rules_version: Mapped[str] = mapped_column(String(32))
    autoplay: Mapped[bool] = mapped_column(Boolean)
    undo_allowed: Mapped[bool] = mapped_column(Boolean)
    ranked: Mapped[bool] = mapped_column(Boolean)
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    outcome: Mapped[str | None] = mapped_column(String(16))
    player_moves: Mapped[int | None] = mapped_column(Integer)
    single_card_moves: Mapped[int | None] = mapped_column(Integer)
    cards_on_foundations: Mapped[int | None] = mapped_column(Integer)
    time_ms: Mapped[int | None] = mapped_column(BigInteger)

    __table_args__ = (
        # A reconnecting player's unfinished games: partial, so it stays as small as the live games.
        Index(
            "ix_games_player_id_unfinished",
            "player_id",
            postgresql_where=text("outcome IS NULL"),
            sqlite_where=text("outcome IS NULL"),
        ),
    )


class Move(Base):
    """One accepted player action. The primary key (game_id, index) makes a stale writer's insert fail
    instead of forking the game, and serves reading a game's moves in order."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column("index", Integer, primary_key=True)
    notation: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime]


metadata = Base.metadata
