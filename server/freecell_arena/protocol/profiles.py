"""What is said of players and their finished games (issue 23): ratings, streaks, the player page, review, share.

A rated race's changes (`race_ratings`) and the rating board, a daily streak with its month's calendar, a player's
page per variant, a finished race or closed daily beside the solver's par (`get_review`), and the spoiler-free
text to share after a game.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field, model_validator

from freecell_arena.protocol.board import PlayerView, ViewChanges
from freecell_arena.protocol.vocabulary import Outcome
from freecell_arena.protocol.wire import Around, Limit, Message, Request, RequestId, Seed, VariantId


class RatingsRequest(Request):
    """A variant's "Rating" board: the top `limit` players of one ladder and, with `around`, that player's rows."""

    type: Literal["get_ratings"] = "get_ratings"
    id: RequestId = None
    variant: VariantId
    bots: bool = Field(default=False, description="The bots' ladder; bots are never rated among the humans.")
    limit: Limit = 20
    around: Around = None


class PlayerRequest(Request):
    """A player's page: per variant their games, wins, bests, rating with its history, and daily streaks."""

    type: Literal["get_player"] = "get_player"
    id: RequestId = None
    player_id: str | None = Field(default=None, max_length=64, description="Default: you.")


class StreakRequest(Request):
    """A player's daily streak in one variant, and a month's calendar (won / played / missed)."""

    type: Literal["get_streak"] = "get_streak"
    id: RequestId = None
    variant: VariantId
    player_id: str | None = Field(default=None, max_length=64, description="Default: you.")
    month: str | None = Field(
        default=None, pattern=r"^(19|20)[0-9]{2}-(0[1-9]|1[0-2])$", description="YYYY-MM (default: this month)."
    )


class ReviewRequest(Request):
    """A finished race (`code`) or a closed daily (`variant` and `day`) beside par: refused with `race_not_over`
    while the race runs or the day is open (par is a full solution)."""

    type: Literal["get_review"] = "get_review"
    id: RequestId = None
    code: str | None = Field(default=None, max_length=32)
    variant: VariantId | None = Field(default=None, max_length=32)
    day: date | None = None

    @model_validator(mode="after")
    def _one_subject(self) -> ReviewRequest:
        daily = [self.variant is not None, self.day is not None]
        if (self.code is not None) == any(daily) or any(daily) != all(daily):
            raise ValueError("give a race's `code`, or a daily's `variant` and `day`")
        return self


class ShareRequest(Request):
    """The spoiler-free text to share after a finished game (a daily attempt or a race): counts, never the deal."""

    type: Literal["get_share"] = "get_share"
    id: RequestId = None
    game_id: str = Field(max_length=64)
    origin: str | None = Field(default=None, max_length=200, pattern=r"^https?://[^/\s?#]+$",
                               description="The site's origin the link starts with (default: the server's).")


class RatingView(Message):
    """A rating as shown: one number (1500 for a new player), marked provisional while still uncertain."""

    rating: int
    provisional: bool
    races: int


class RatingChangeView(Message):
    player_id: str
    ladder: Literal["humans", "bots"]
    before: RatingView
    after: RatingView
    delta: int = Field(description="after - before, as shown beside the standings (+12 / -8).")


class RaceRatingsMessage(Message):
    """Sent to the room right after `race_over` of a rated race: each player's change and new rating (again to
    a member back in the finished room, after its `race_over`)."""

    type: Literal["race_ratings"] = "race_ratings"
    code: str
    variant: VariantId
    changes: list[RatingChangeView]


class RatingRowView(Message):
    position: int
    player_id: str
    name: str
    rating: RatingView


class RatingsMessage(Message):
    """A "Rating" board page, ranked by the conservative estimate (a lucky first win does not top it)."""

    type: Literal["ratings"] = "ratings"
    id: RequestId = None
    variant: VariantId
    bots: bool
    top: list[RatingRowView]
    around: list[RatingRowView] = Field(description="The requested player's rows (empty: not rated).")


class RatingPoint(Message):
    at: datetime
    rating: int
    delta: int
    code: str | None = Field(description="The rated race's room (null when that room is gone).")


class CalendarDay(Message):
    day: date
    mark: Literal["won", "played", "missed", "ahead", "none"] = Field(
        description="`won` a ranked attempt; `played` a game of the day's deal, none of them a ranked win (practice "
        "counts); `missed` a closed day the player could have played ranked; `ahead` not closed yet; `none` nothing "
        "to play for this player that day (no deal was dealt, or the player was made that day or later).",
    )


class StreakMessage(Message):
    """Consecutive UTC days with a won ranked daily (today still counts until it closes), and a month."""

    type: Literal["streak"] = "streak"
    id: RequestId = None
    variant: VariantId
    player_id: str
    today: date
    current: int
    best: int
    month: str
    days: list[CalendarDay]
    today_unranked_reason: Literal["new_player", "played_before"] | None = Field(
        default=None,
        description="Why this player's next game of today's deal would be practice (as `daily_started` would say), "
        "so a page can say it before the game starts; null: it would be ranked.",
    )


class PlayerVariant(Message):
    variant: VariantId
    games: int
    won: int
    win_percent: float
    best_moves: int | None
    average_moves: float | None
    average_over_par: float | None = Field(description="Ranked daily wins: moves beyond the day's par, on average.")
    best_time_ms: int | None
    rating: RatingView | None
    history: list[RatingPoint] = Field(description="The last rating changes, oldest first (for the chart).")
    streak: int
    best_streak: int


class PlayerMessage(Message):
    type: Literal["player"] = "player"
    id: RequestId = None
    player_id: str
    name: str
    bot: bool
    variants: list[PlayerVariant]
    notice: str | None = Field(default=None, description="A moderator's public notice: marked as playing with "
                                                          "help (results count with the programs'), and how many "
                                                          "games were voided (counted nowhere, `variants` included).")


class ReviewRow(Message):
    player_id: str
    name: str
    game_id: str
    outcome: Outcome
    moves: int
    time_ms: int
    over_par: int | None = Field(description="Moves beyond par for a win (negative: shorter than the solver's).")


class ReviewMessage(Message):
    """A finished race beside par: `line` is the solver's solution (player moves, autoplay on), for the replay."""

    type: Literal["review"] = "review"
    id: RequestId = None
    code: str | None = Field(description="The race's room (null for a daily).")
    day: date | None = Field(description="The daily's day (null for a race).")
    variant: VariantId
    seed: Seed
    par_status: Literal["solved", "unsolvable", "unknown"]
    par: int | None
    line: list[str]
    start_view: PlayerView = Field(description="The opening board (as a replay's), for the solver's line.")
    steps: list[ViewChanges] = Field(description="Per action of `line`, what it changed (as a replay's steps).")
    results: list[ReviewRow]


class ShareMessage(Message):
    type: Literal["share"] = "share"
    id: RequestId = None
    game_id: str
    text: str
    url: str
