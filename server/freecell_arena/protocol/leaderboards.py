"""The daily challenge and the tables of results (docs/leaderboards.md): leaderboards, seasons, histories.

A day's deal is committed before it opens and revealed when it closes (`DailyDeal`); `play_daily` starts a game
of it. The boards rank won games of one deal (`daily` or `deal`), a season sums a variant's closed days, and a
history lists a player's finished games; each comes a page at a time (`wire.Limit`, `Cursor`, `Around`).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from freecell_arena.protocol.board import GameView
from freecell_arena.protocol.vocabulary import Outcome
from freecell_arena.protocol.wire import Around, Cursor, Limit, Message, Request, RequestId, Seed, VariantId


class LeaderboardRequest(Request):
    """A board: the top `limit` entries, the next page with `cursor`, or the entries `around` a player."""

    type: Literal["get_leaderboard"] = "get_leaderboard"
    id: RequestId = None
    variant: VariantId
    board: Literal["daily", "deal"]
    day: date | None = Field(default=None, description="daily: the UTC day (default: today).")
    seed: Seed | None = Field(default=None, description="deal: the seed (the deal number in freecell).")
    bots: bool = Field(default=False, description="The bots' board; bots never appear on the humans' one.")
    limit: Limit = 50
    cursor: Cursor = None
    around: Around = None


SEASON_DAYS = (7, 30)


def _season_days(days: int) -> int:
    if days not in SEASON_DAYS:
        raise ValueError(f"a season covers {' or '.join(map(str, SEASON_DAYS))} days")
    return days


SeasonDays = Annotated[
    int, AfterValidator(_season_days), Field(json_schema_extra={"enum": list(SEASON_DAYS)}, description="7 or 30.")
]


class SeasonRequest(Request):
    """The season table of a variant's dailies over the last 7 or 30 closed days."""

    type: Literal["get_season"] = "get_season"
    id: RequestId = None
    variant: VariantId
    days: SeasonDays = 7
    bots: bool = False
    limit: Limit = 50
    cursor: Cursor = None
    around: Around = None


class HistoryRequest(Request):
    """A player's finished games, newest first (default: yours)."""

    type: Literal["get_history"] = "get_history"
    id: RequestId = None
    player_id: str | None = Field(default=None, max_length=64)
    limit: Limit = 20
    cursor: Cursor = None


class DailyRequest(Request):
    """A variant's daily deals: the commitments, and the seeds of closed days (commit-reveal)."""

    type: Literal["get_daily"] = "get_daily"
    id: RequestId = None
    variant: VariantId
    day: date | None = Field(default=None, description="One day; default: tomorrow (if prepared), today, yesterday.")


class PlayDailyRequest(Request):
    """Play today's daily deal: your first game of it is ranked, later ones are not. The clock starts now."""

    type: Literal["play_daily"] = "play_daily"
    id: RequestId = None
    variant: VariantId


class LeaderboardRow(Message):
    """One entry of a board: a player's best won game of the deal. Equal results share a rank."""

    rank: int
    player_id: str
    name: str
    player_moves: int
    time_ms: int
    finished_at: datetime = Field(description="Server instant of the winning move (the last tie-break).")
    game_id: str
    claimed: bool = Field(default=False, description="The name is a saved player's (or a bot account's): theirs.")


class LeaderboardMessage(Message):
    """A page of a board (order: moves, then time, then the finish instant). `next_cursor` null = last page."""

    type: Literal["leaderboard"] = "leaderboard"
    id: RequestId = None
    variant: VariantId
    board: Literal["daily", "deal"]
    day: date | None
    seed: Seed | None = Field(description="deal boards: the seed; daily boards: null until the day closes.")
    bots: bool
    par: int | None = Field(description="daily: the solver's move count for the deal.")
    total: int = Field(description="Entries on the board.")
    entries: list[LeaderboardRow]
    next_cursor: str | None


class SeasonStanding(Message):
    """A player's season: days won, moves over par summed over those days, and the average final rank."""

    rank: int
    player_id: str
    name: str
    wins: int
    moves_over_par: int
    average_rank: float
    claimed: bool = Field(default=False, description="The name is a saved player's (or a bot account's): theirs.")


class SeasonMessage(Message):
    """A page of a season table: by wins (more first), then moves over par, then average rank."""

    type: Literal["season"] = "season"
    id: RequestId = None
    variant: VariantId
    days: int
    bots: bool
    through: date | None = Field(description="The last closed day counted (null: no day closed yet).")
    total: int
    standings: list[SeasonStanding]
    next_cursor: str | None


class HistoryGame(Message):
    """One finished game. `seed` is null while it is secret (a daily before its day closes, a Cell Eleven race
    still running, a cup's heat before the cup is over)."""

    game_id: str
    variant: VariantId
    board: Literal["daily", "deal"] | None = Field(description="The board it counts on; null when unranked.")
    day: date | None
    seed: Seed | None
    ranked: bool
    outcome: Outcome
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    started_at: datetime
    finished_at: datetime
    room_code: str | None = Field(default=None, description="The race's room (null for a daily game).")
    place: int | None = Field(default=None, description="Your place in the race's standings, once it is over.")
    players: int | None = Field(default=None, description="How many players the race's standings hold.")
    rating_delta: int | None = Field(default=None, description="Your rating's change in this race (null: unrated).")


class HistoryMessage(Message):
    """A page of a player's finished games, newest first."""

    type: Literal["history"] = "history"
    id: RequestId = None
    player_id: str
    name: str
    bot: bool
    claimed: bool = Field(default=False, description="The name is a saved player's (or a bot account's): theirs.")
    games: list[HistoryGame]
    next_cursor: str | None


class DailyDeal(Message):
    """A daily deal as the public sees it. `commitment` = SHA-256 of
    `freecell-arena/daily/v1|variant|day|seed|nonce`, published before the day opens; `seed`, `nonce` and
    the solver's `solution` (player moves, autoplay on) are revealed when it closes."""

    variant: VariantId
    day: date
    status: Literal["upcoming", "open", "closed"]
    opens_at: datetime
    closes_at: datetime
    commitment: str
    par: int | None = Field(description="Known from the day's opening.")
    seed: Seed | None
    nonce: str | None
    solution: list[str] | None
    rules_version: str


class DailyMessage(Message):
    """A variant's daily deals, newest first."""

    type: Literal["daily"] = "daily"
    id: RequestId = None
    variant: VariantId
    deals: list[DailyDeal]


class DailyStartedMessage(Message):
    """Your game of today's deal. `ranked` is false after your first attempt (finished or not), and for a player
    made after the day's deal opened; `unranked_reason` says which."""

    type: Literal["daily_started"] = "daily_started"
    id: RequestId = None
    variant: VariantId
    day: date
    ranked: bool
    par: int
    closes_at: datetime = Field(description="Games still running then end as `timeout`.")
    game: GameView
    unranked_reason: Literal["new_player", "played_before"] | None = Field(
        default=None,
        description="Why this game is practice (null when ranked): `new_player`, the player was made after today's "
        "deal opened (new players rank from tomorrow); `played_before`, the player's first attempt today was "
        "the ranked one.",
    )
