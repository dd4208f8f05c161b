"""Tournaments (docs/tournaments.md): arenas and cups, entering them, their tables, and your next race.

The tournaments page and one tournament's page (rules, table, podium), a saved player's private tournament,
entering, withdrawing, pausing and berserk, and `tournament_race`: the event that sends a player to the room of
their next tournament race.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from freecell_arena.protocol.wire import Message, Request, RequestId, Seed, VariantId, visible_name

TournamentKindName = Literal["arena", "cup"]


TournamentEntryRule = Literal["public", "link", "bots"]


TournamentPhaseName = Literal["upcoming", "running", "finished"]


TournamentEntryState = Literal["active", "paused", "withdrawn"]


TournamentId = Annotated[str, Field(max_length=64, description="A tournament's id (`get_tournaments` lists them).")]


TOURNAMENT_NAME_MAX_LENGTH = 60


def _tournament_name(text: str) -> str:
    return visible_name(text, TOURNAMENT_NAME_MAX_LENGTH)


TournamentName = Annotated[
    str,
    AfterValidator(_tournament_name),
    Field(min_length=1, max_length=4 * TOURNAMENT_NAME_MAX_LENGTH,
          description="1-60 characters once trimmed and NFC-normalized; no control or invisible characters."),
]  # fmt: skip


class TournamentsRequest(Request):
    """The tournaments page: upcoming (with their start), running, and recently finished ones."""

    type: Literal["get_tournaments"] = "get_tournaments"
    id: RequestId = None
    bots: bool | None = Field(default=None, description="Only bots-only events (true), only humans' (false), or both.")
    player_id: str | None = Field(default=None, max_length=64, description="Only the tournaments this player entered.")


class TournamentRequest(Request):
    """One tournament: its rules, the table (the top, and the rows around `around`), the podium once over."""

    type: Literal["get_tournament"] = "get_tournament"
    id: RequestId = None
    tournament_id: TournamentId
    around: str | None = Field(default=None, max_length=64, description="A player whose neighbours to include.")


class CreateTournamentRequest(Request):
    """A saved player's private tournament for friends: entered by its link (the reply's `link_code`)."""

    type: Literal["create_tournament"] = "create_tournament"
    id: RequestId = None
    kind: TournamentKindName = "arena"
    name: TournamentName
    variant: VariantId = "freecell"
    starts_in_s: int = Field(default=300, ge=0, le=7 * 86_400, description="Seconds from now to the start.")
    duration_min: int = Field(default=30, ge=5, le=180, description="Arena: how long races are formed.")
    rounds: int = Field(default=3, ge=1, le=12, description="Cup: how many deals.")
    round_interval_s: int = Field(default=600, ge=60, le=3600, description="Cup: from one round's start to the next.")
    time_limit_s: int = Field(default=300, ge=30, le=3600, description="Each race's time limit.")
    race_size: int = Field(default=4, ge=2, le=6, description="Arena: players in a race.")
    berserk: bool = True
    ranked: bool = Field(default=False, description="Rated races (never on a chosen deal: `seed` makes it casual).")
    cap: int = Field(default=50, ge=2, le=200, description="Most entrants, first come first served.")
    seed: Seed | None = Field(default=None, description="Every race on this deal (never rated).")


class EnterTournamentRequest(Request):
    """Enter a tournament before its entry closes (an arena's late-entry cutoff, a cup's start)."""

    type: Literal["enter_tournament"] = "enter_tournament"
    id: RequestId = None
    tournament_id: TournamentId
    link_code: str | None = Field(default=None, max_length=64, description="A link-entry tournament's code.")


class WithdrawTournamentRequest(Request):
    """Leave the tournament for good (your points stay in the table; you are not paired again)."""

    type: Literal["withdraw_tournament"] = "withdraw_tournament"
    id: RequestId = None
    tournament_id: TournamentId


class PauseTournamentRequest(Request):
    """Pause (not paired until you come back) or come back (`paused` false)."""

    type: Literal["pause_tournament"] = "pause_tournament"
    id: RequestId = None
    tournament_id: TournamentId
    paused: bool = True


class BerserkRequest(Request):
    """In an arena race's countdown: half the time limit, a bonus point if you solve it within it."""

    type: Literal["berserk"] = "berserk"
    id: RequestId = None
    tournament_id: TournamentId


class TournamentSummary(Message):
    """A tournament as the tournaments page lists it."""

    tournament_id: str
    name: str
    kind: TournamentKindName
    variant: VariantId
    phase: TournamentPhaseName
    entry: TournamentEntryRule = Field(description="Who may enter: anyone, anyone with the link, bots only.")
    starts_at: datetime
    ends_at: datetime = Field(description="Arena: no race is formed after it; cup: its last round's time limit.")
    entrants: int
    cap: int
    ranked: bool
    private: bool


class TournamentSettings(Message):
    """A tournament's rules (docs/tournaments.md): what each race is, and when entry closes."""

    time_limit_s: int
    race_size: int = Field(description="Arena: players in a race.")
    berserk: bool = Field(description="Arena: berserk is offered in each race's countdown.")
    duration_s: int
    late_entry_s: int = Field(description="Arena: entry closes this long after the start.")
    rounds: int = Field(description="Cup: its deals, one a round.")
    round_interval_s: int
    heat_size: int = Field(description="Cup: most players in one heat of a round.")
    chosen_deal: bool = Field(description="Every race on one deal its creator chose (never rated).")


class TournamentStanding(Message):
    """One line of a tournament's table; the tie rule is docs/tournaments.md's."""

    rank: int
    player_id: str
    name: str
    points: int = Field(description="Arena: points; cup: deals solved.")
    races: int
    wins: int
    solved: int
    moves: int = Field(description="Total moves of the races solved.")
    time_ms: int = Field(description="Total time of the races solved.")
    on_streak: bool = Field(description="Arena: the next race scores double.")
    status: TournamentEntryState
    recent: list[int] = Field(description="The points of the last races, oldest first (cup: 1 or 0 per round).")
    paused_why: Literal["chosen", "no_move"] | None = Field(
        default=None,
        description="Why a `paused` entrant is: `chosen` (they paused), `no_move` (an arena's: no move in their "
        "last race, so no next race until they come back); null unless paused.",
    )


class TournamentListMessage(Message):
    """The tournaments page: upcoming ones by their start, running ones, and the latest finished."""

    type: Literal["tournaments"] = "tournaments"
    id: RequestId = None
    upcoming: list[TournamentSummary]
    running: list[TournamentSummary]
    finished: list[TournamentSummary]


class TournamentMessage(Message):
    """A tournament as its page shows it. `deals` and `nonce` (a cup's) are revealed once it is over."""

    type: Literal["tournament"] = "tournament"
    id: RequestId = None
    tournament: TournamentSummary
    rules: TournamentSettings
    standings: list[TournamentStanding]
    me: TournamentStanding | None = None
    entered: bool = False
    current_race: str | None = Field(default=None, description="The code of your race that runs or counts down.")
    commitment: str | None = Field(default=None, description="A cup's: its deals' hash, published before it opens.")
    deals: list[Seed] | None = Field(default=None, description="A cup's deals, revealed once it is over.")
    nonce: str | None = Field(default=None, description="With `deals`: what the commitment hashed them with.")
    link_code: str | None = Field(default=None, description="Only to its creator: the private link's code.")
    round: int | None = Field(default=None, description="Cup: rounds dealt so far.")


class TournamentEntryMessage(Message):
    """The reply to entering, withdrawing, pausing or berserking: where you stand now."""

    type: Literal["tournament_entry"] = "tournament_entry"
    id: RequestId = None
    tournament_id: str
    status: TournamentEntryState
    berserk: bool = False
    link_code: str | None = None


class TournamentRaceMessage(Message):
    """Your next tournament race is formed (sent to you alone): its room counts down to `starts_at`."""

    type: Literal["tournament_race"] = "tournament_race"
    tournament_id: str
    code: str
    starts_at: datetime
    round: int
    berserk_allowed: bool
