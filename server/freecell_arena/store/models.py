"""The schema: SQLAlchemy 2 typed declarative models. Alembic's migrations are checked against this metadata.

A game is `(variant, seed, actions)`: `games` holds the deal and the result, `moves` the player's actions.
Boards are never stored; they are rebuilt by replay.

Every foreign key column has an index that leads with it (migration 0010): deleting a row (`freecell-arena prune`)
makes both databases look for the rows that still refer to it, and without one each look is a scan of the table.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from freecell_arena.store.types import UtcDateTime

# Every constraint and index gets a predictable name, so later migrations can drop or alter it by name on
# both backends (SQLite has no names of its own to discover).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_N_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID_LENGTH = 64  # ids are `prefix_<16 or 28 hex>` (freecell_arena.core.identity); token hashes are 64 hex digits
FLAG_LENGTH = 200
BOARD_LENGTH = 96  # board keys are `variant/daily/2026-11-22/humans` or `variant/deal/<seed>/bots`


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UtcDateTime(), date: Date()}


def table_of(model: type[Base]) -> Table:
    """A model's Table, typed as one (SQLAlchemy types `__table__` as any FromClause), for Core statements."""
    table = model.__table__
    assert isinstance(table, Table), model
    return table


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
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)  # the foreign key's checks (prune)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    seed_chosen: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    seq: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    version: Mapped[str] = mapped_column(String(16), server_default=text("''"))
    """The room's version (`freecell_arena.core.ports.records.RoomVersion`): every membership or status change is
    written
    only over the version it was built on (compare-and-set), so two processes can never both start a race or
    both take the last seat; `seq` numbers the versions."""
    series: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """A race-again series' room: the tally before it (`freecell_arena.core.records.series_tally`)."""
    next_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The series' next room (compare-and-set over the pointer a process knew): two members pressing at once get
    one room."""
    quick: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    """A public quick-race room (`freecell_arena.core.competition.quick_race`)."""
    seed_sealed_until: Mapped[datetime | None]
    """A cup's heat: its seed leaves the server only from then (the cup's end; `core.competition.tournaments`)."""

    __table_args__ = (
        # Finished rooms by their finish: the rating sweep's window (`freecell_arena.core.competition.rating_recovery`).
        Index(
            "ix_rooms_finished",
            "finished_at",
            "id",
            postgresql_where=text("status = 'finished'"),
            sqlite_where=text("status = 'finished'"),
        ),
    )


class QuickRoom(Base):
    """Each variant's filling quick-race room: moved only over the code a process knew (compare-and-set), so the
    processes of a cluster fill one room a variant."""

    __tablename__ = "quick_rooms"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(16))


class RoomMember(Base):
    """Who is in a room now (players and spectators): a lobby or countdown outlives the process that held it."""

    __tablename__ = "room_members"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(16))
    joined_at: Mapped[datetime]


class Game(Base):
    """One player's copy of a deal; the result columns stay NULL until the game ends.

    `board` names the leaderboard a win of a ranked game counts on; `daily_day` marks a daily challenge game.
    A player's best win per board is kept in `leaderboard_entries`, written in the result's transaction.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    room_id: Mapped[str | None] = mapped_column(ForeignKey("rooms.id"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
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
    board: Mapped[str | None] = mapped_column(String(BOARD_LENGTH))
    daily_day: Mapped[date | None]
    flagged: Mapped[str | None] = mapped_column(String(FLAG_LENGTH))
    """Why a human's ranked win is implausible (freecell_arena.core.records.fair_play); NULL for every other game."""

    __table_args__ = (
        # A reconnecting player's unfinished games: partial, so it stays as small as the live games.
        Index(
            "ix_games_player_id_unfinished",
            "player_id",
            postgresql_where=text("outcome IS NULL"),
            sqlite_where=text("outcome IS NULL"),
        ),
        # A player's history, newest first (keyset paging on finished_at, id).
        Index(
            "ix_games_player_history",
            "player_id",
            "finished_at",
            "id",
            postgresql_where=text("outcome IS NOT NULL"),
            sqlite_where=text("outcome IS NOT NULL"),
        ),
        # Every finished game by its finish (keyset paging on finished_at, id): the export streams them in this
        # order, a date range an index range (`freecell_arena.store.exports`).
        Index(
            "ix_games_finished",
            "finished_at",
            "id",
            postgresql_where=text("outcome IS NOT NULL"),
            sqlite_where=text("outcome IS NOT NULL"),
        ),
        # Ranked games by the board they count on: whether a deal was ever dealt (a leaderboard query for a seed
        # nobody was dealt says so rather than showing an empty board). Partial: unranked games have no board.
        Index(
            "ix_games_board",
            "board",
            postgresql_where=text("board IS NOT NULL"),
            sqlite_where=text("board IS NOT NULL"),
        ),
        # One ranked attempt per player per daily, whatever process serves them. (SQLite spells the predicate
        # `ranked = 1`, as SQLAlchemy writes the query's `ranked == True`, so its planner sees the index applies.)
        Index(
            "uq_games_daily_attempt",
            "player_id",
            "variant",
            "daily_day",
            unique=True,
            postgresql_where=text("ranked AND daily_day IS NOT NULL"),
            sqlite_where=text("ranked = 1 AND daily_day IS NOT NULL"),
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


class LeaderboardEntry(Base):
    """A player's best won ranked game on a board (one row per board and player).

    `score` = player moves << 36 | time_ms (`freecell_arena.core.records.leaderboard.score`): the board's order is
    (score, finished_at), and the index `ix_leaderboard_entries_order` serves top N, cursors and neighbours.
    """

    __tablename__ = "leaderboard_entries"

    board: Mapped[str] = mapped_column(String(BOARD_LENGTH), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    player_moves: Mapped[int] = mapped_column(Integer)
    time_ms: Mapped[int] = mapped_column(BigInteger)
    finished_at: Mapped[datetime]
    score: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_leaderboard_entries_order", "board", "score", "finished_at", "player_id"),)


class LeaderboardCount(Base):
    """How many entries of a board have `score >> LEVEL_SHIFTS[level] == bucket`: what makes a rank cost
    a
    bounded number of index reads (`freecell_arena.core.records.leaderboard`). Maintained in the entries'
    transaction."""

    __tablename__ = "leaderboard_counts"

    board: Mapped[str] = mapped_column(String(BOARD_LENGTH), primary_key=True)
    level: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    bucket: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    entries: Mapped[int] = mapped_column(Integer)


class Daily(Base):
    """A day's deal of a variant: written once (insert-if-absent), so every process plays the same deal.

    `seed` and `nonce` stay server-side until the day closes; `commitment` is public from the start.
    `finalized_at` is set when the day's final ranks and season tables are materialised.
    """

    __tablename__ = "dailies"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    day: Mapped[date] = mapped_column(primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    candidate: Mapped[int] = mapped_column(Integer)
    nonce: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    par: Mapped[int] = mapped_column(Integer)
    solution: Mapped[str] = mapped_column(Text)
    rules_version: Mapped[str] = mapped_column(String(32))
    prepared_at: Mapped[datetime]
    finalized_at: Mapped[datetime | None]


class DailyRank(Base):
    """A closed day's final board, materialised once (the season tables are built from it)."""

    __tablename__ = "daily_ranks"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    bots: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    day: Mapped[date] = mapped_column(primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    rank: Mapped[int] = mapped_column(Integer)
    player_moves: Mapped[int] = mapped_column(Integer)
    time_ms: Mapped[int] = mapped_column(BigInteger)
    moves_over_par: Mapped[int] = mapped_column(Integer)


class SeasonStanding(Base):
    """A season table (7 or 30 days through `through_day`), materialised when `through_day` closed.

    Only the newest table per (variant, bots, days) is kept. Pages read `ix_season_standings_position`.
    """

    __tablename__ = "season_standings"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    bots: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    days: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    through_day: Mapped[date] = mapped_column(primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    position: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    moves_over_par: Mapped[int] = mapped_column(Integer)
    rank_sum: Mapped[int] = mapped_column(Integer)
    average_rank: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        Index("ix_season_standings_position", "variant", "bots", "days", "through_day", "position", unique=True),
    )


class ServerSecret(Base):
    """Secrets the server generates once and every process must share (the daily secret when not set)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime]


class PlayerRating(Base):
    """A player's current rating on one ladder of one variant (`freecell_arena.core.records.ratings`).

    `races` is the row's version: a race's change is written only where `races` is still what it was computed
    from, so concurrent races of one player cannot both start from the same rating. `ordinal` = mu - 3 sigma,
    the board's order (`ix_ratings_board`).
    """

    __tablename__ = "ratings"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    ladder: Mapped[str] = mapped_column(String(8), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    races: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime]

    __table_args__ = (Index("ix_ratings_board", "variant", "ladder", "ordinal", "player_id"),)


class RatingChange(Base):
    """One player's rating change from one race, before and after, numbered (`id`) in the order applied.

    Unique per (room, player, ladder): a race is rated once, whichever process tries. The audit recomputes every
    rating by replaying these in `id` order from the rooms' stored results.
    """

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer(), "sqlite"), primary_key=True,
                                    autoincrement=True)  # fmt: skip
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    variant: Mapped[str] = mapped_column(String(32))
    ladder: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    races: Mapped[int] = mapped_column(Integer)
    """The player's rated races on this ladder after this one."""
    at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("room_id", "player_id", "ladder"),
        Index("ix_rating_changes_history", "player_id", "variant", "ladder", "id"),
    )



# --- accounts (migration 0006; freecell_arena.core.accounts.account_ports)
# ------------------------------------------------

CREDENTIAL_ID_LENGTH = 1400  # WebAuthn allows credential ids up to 1023 bytes: 1364 characters of base64url
NAME_LENGTH = 100


class Account(Base):
    """A saved player (one who holds a passkey). `user_handle` is the WebAuthn user id (random, base64url)."""

    __tablename__ = "accounts"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    user_handle: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]


class ClaimedName(Base):
    """A name taken for good (a saved player's or a bot's): the name as shown. Its keys are in `name_keys`."""

    __tablename__ = "claimed_names"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    claimed_at: Mapped[datetime]


class NameKey(Base):
    """The SHA-256 of each key of a claimed name (freecell_arena.core.accounts.names): the primary key is what makes a
    name, and its look-alikes, one player's, whatever process writes first."""

    __tablename__ = "name_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("claimed_names.player_id"), index=True)


class Passkey(Base):
    """A WebAuthn credential. `sign_count` is written only over the count it was read at (compare-and-set)."""

    __tablename__ = "passkeys"

    credential_id: Mapped[str] = mapped_column(String(CREDENTIAL_ID_LENGTH), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("accounts.player_id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger)  # an unsigned 32-bit counter
    transports: Mapped[str] = mapped_column(String(200))  # comma-separated, as the browser reported them
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime]
    last_used_at: Mapped[datetime | None]


class AccessToken(Base):
    """A session or bot API token: only its SHA-256. Revoked tokens stay (revoked_at set) so a revoked token
    is told apart from an unknown one."""

    __tablename__ = "access_tokens"

    token_hash: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    label: Mapped[str] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime]
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]


class BotAccount(Base):
    """A bot account: its own player (players.bot true), owned by a saved player."""

    __tablename__ = "bot_accounts"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("accounts.player_id"), index=True)
    description: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime]


class WebauthnChallenge(Base):
    """A challenge waiting for its answer: taken (deleted) by the answer, whichever process gets it."""

    __tablename__ = "webauthn_challenges"

    challenge: Mapped[str] = mapped_column(String(64), primary_key=True)
    ceremony: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    expires_at: Mapped[datetime] = mapped_column(index=True)
    user_handle: Mapped[str | None] = mapped_column(String(64))


class DealPar(Base):
    """A deal's par (`freecell_arena.core.records.review`): the solver's line as player actions, space-separated; stored
    once settled (solved or proved unsolvable), insert-if-absent."""

    __tablename__ = "deal_pars"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    rules_version: Mapped[str] = mapped_column(String(32), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    line: Mapped[str] = mapped_column(Text)
    solved_at: Mapped[datetime]


class Tournament(Base):
    """A tournament (core/competition/tournaments): its rules as created, and the counters processes move by
    compare-and-set: `entrants` (the cap holds across processes), `wave` (a pairing or a round start happens
    once), `standings_seq` (the stored table, the figure the audit recomputes)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(8))
    variant: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    starts_at: Mapped[datetime] = mapped_column(index=True)
    ends_at: Mapped[datetime]
    created_at: Mapped[datetime]
    created_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    schedule_key: Mapped[str | None] = mapped_column(String(200), unique=True, nullable=True)
    """The operator's occurrence (`core.competition.tournaments.schedule`): created ahead once, by any process."""
    link_code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    entrants: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    wave: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    standings_seq: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    standings: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    final: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    reveal: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class TournamentEntry(Base):
    __tablename__ = "tournament_entries"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    name: Mapped[str] = mapped_column(String(100))
    bot: Mapped[bool] = mapped_column(Boolean)
    entered_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16))
    status_at: Mapped[datetime | None]
    version: Mapped[int] = mapped_column(Integer, server_default=text("1"))
    """Moved by the entrant's changes of status, one at a time (migration 0015)."""


class TournamentRace(Base):
    """A tournament's race: an ordinary room, the wave (pairing or round) and heat it belongs to."""

    __tablename__ = "tournament_races"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    code: Mapped[str] = mapped_column(String(16))
    wave: Mapped[int] = mapped_column(Integer)
    heat: Mapped[int] = mapped_column(Integer)
    formed_at: Mapped[datetime]


class TournamentBerserk(Base):
    __tablename__ = "tournament_berserks"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    at: Mapped[datetime]
# --- moderation (migration 0014; freecell_arena.core.moderation, docs/moderation.md)
# ------------------------------------------------

REASON_LENGTH = 500
REPORT_TEXT_LENGTH = 500


class Moderator(Base):
    """A saved player the operator made a moderator (`freecell-arena mod grant`); revoking deletes the row. Every
    moderator request is checked against this table, on every process, when it is made."""

    __tablename__ = "moderators"

    player_id: Mapped[str] = mapped_column(ForeignKey("accounts.player_id"), primary_key=True)
    granted_at: Mapped[datetime]


class Report(Base):
    """A player's report of another (or the server's own, `source` 'auto', with no reporter). One open report per
    reporter and target (`uq_reports_open`); `address` is kept for the per-address limit and never shown."""

    __tablename__ = "reports"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    reporter_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    target_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str] = mapped_column(String(16))
    note: Mapped[str] = mapped_column(String(REPORT_TEXT_LENGTH))
    """What the reporter wrote: moderators see it, nobody else."""
    source: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    address: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16))
    closed_at: Mapped[datetime | None]
    closed_by: Mapped[int | None] = mapped_column(BigInteger)
    """The mod log entry that acted on (or dismissed) the report."""

    __table_args__ = (
        Index("uq_reports_open", "reporter_id", "target_id", unique=True,
              postgresql_where=text("status = 'open'"), sqlite_where=text("status = 'open'")),
        Index("ix_reports_queue", "status", "target_id", "created_at"),
        Index("ix_reports_reporter", "reporter_id", "created_at"),
        Index("ix_reports_target", "target_id"),  # `prune`'s and a player delete's foreign key check
        Index("ix_reports_address", "address", "created_at"),
    )  # fmt: skip


class ModAction(Base):
    """The mod log: every moderator's (or the operator's) action, who, when, what and why. Append-only: the
    database refuses an UPDATE or DELETE of a row (triggers of migration 0014). The `sanctions` table and every
    derived number (boards, ratings, streaks) follow from it; `freecell-arena audit` replays it."""

    __tablename__ = "mod_log"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer(), "sqlite"), primary_key=True,
                                    autoincrement=True)  # fmt: skip
    at: Mapped[datetime]
    moderator_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    """NULL: the operator, from the command line."""
    action: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    game_id: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    lifts: Mapped[int | None] = mapped_column(BigInteger)
    """The action a lift undoes."""
    reason: Mapped[str] = mapped_column(String(REASON_LENGTH))
    public_reason: Mapped[str] = mapped_column(String(200))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)


class Sanction(Base):
    """A sanction in force: the mod log's action that set it; a lift deletes the row (the log keeps both)."""

    __tablename__ = "sanctions"

    action_id: Mapped[int] = mapped_column(ForeignKey("mod_log.id"), primary_key=True, autoincrement=False)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), index=True)
    public_reason: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime]


class RetiredName(Base):
    """The keys of a name a moderator replaced: never claimable again (`freecell_arena.core.accounts.names`)."""

    __tablename__ = "retired_names"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    action_id: Mapped[int] = mapped_column(ForeignKey("mod_log.id"), index=True)
