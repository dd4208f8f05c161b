"""Moderation (docs/moderation.md): players' reports, and the moderators' queue, evidence, actions and log.

A player reports another and follows what became of it (never how); a renamed player chooses a new name. The
`mod_...` requests are for moderators only (anyone else is refused `not_allowed`): the open reports by player, the
evidence the server computes about one, an action on them, the mod log, and a search for players.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field

from freecell_arena.protocol.profiles import RatingPoint
from freecell_arena.protocol.vocabulary import Outcome
from freecell_arena.protocol.wire import MAX_SAFE_INTEGER, Limit, Message, PlayerName, Request, RequestId

ReportReasonName = Literal["help", "name", "other"]


ModActionName = Literal["mark", "ban", "rename", "void", "lift", "dismiss"]


PlayerId = Annotated[str, Field(min_length=1, max_length=64)]


class ReportRequest(Request):
    """Report a player (saved players only): `help` (playing with help, or a program playing as a person), an
    offensive `name`, or `other`. Only moderators ever read `text`."""

    type: Literal["report"] = "report"
    id: RequestId = None
    player_id: PlayerId
    reason: ReportReasonName
    text: str = Field(default="", max_length=500)
    game_id: str | None = Field(default=None, max_length=64, description="The game it is about, if one.")


class MyReportsRequest(Request):
    """Your reports and what became of them (received, acted on, closed), never how."""

    type: Literal["get_my_reports"] = "get_my_reports"
    id: RequestId = None


class ChooseNameRequest(Request):
    """A new name, after a moderator replaced yours (`name_replaced`)."""

    type: Literal["choose_name"] = "choose_name"
    id: RequestId = None
    name: PlayerName


class ModQueueRequest(Request):
    """Moderators: the open reports, by player."""

    type: Literal["mod_queue"] = "mod_queue"
    id: RequestId = None


class ModEvidenceRequest(Request):
    """Moderators: what the server computes about a player (worked out when asked; solving may take seconds)."""

    type: Literal["mod_evidence"] = "mod_evidence"
    id: RequestId = None
    player_id: PlayerId


class ModActionRequest(Request):
    """Moderators: act on a player. `reason` is required (the mod log keeps it); `public_reason` is what a banned
    player is told; `void` names a `game_id`, `lift` the mod log number of a sanction in force."""

    type: Literal["mod_action"] = "mod_action"
    id: RequestId = None
    action: ModActionName
    player_id: PlayerId
    reason: str = Field(min_length=3, max_length=500)
    public_reason: str = Field(default="", max_length=200)
    game_id: str | None = Field(default=None, max_length=64)
    lifts: int | None = Field(default=None, ge=1, le=MAX_SAFE_INTEGER)


class ModLogRequest(Request):
    """Moderators: the mod log, newest first (`before`: older than that number; `player_id`: one player's)."""

    type: Literal["mod_log"] = "mod_log"
    id: RequestId = None
    before: int | None = Field(default=None, ge=1, le=MAX_SAFE_INTEGER)
    player_id: PlayerId | None = None
    limit: Limit = 50


class ModSearchRequest(Request):
    """Moderators: players by id, claimed name or the start of a name."""

    type: Literal["mod_search"] = "mod_search"
    id: RequestId = None
    query: str = Field(min_length=1, max_length=64)


class ReportReceivedMessage(Message):
    type: Literal["report_received"] = "report_received"
    id: RequestId = None
    report_id: str


class MyReport(Message):
    report_id: str
    player_id: str
    name: str
    reason: ReportReasonName
    at: datetime
    status: Literal["received", "acted_on", "closed"] = Field(
        description="Received; acted on by a moderator (what they did is not said); or closed without action.")


class MyReportsMessage(Message):
    type: Literal["my_reports"] = "my_reports"
    id: RequestId = None
    reports: list[MyReport]


class NameReplacedMessage(Message):
    """A moderator replaced your name with `name`: choose another (`choose_name`)."""

    type: Literal["name_replaced"] = "name_replaced"
    id: RequestId = None
    name: str


class NameChosenMessage(Message):
    type: Literal["name_chosen"] = "name_chosen"
    id: RequestId = None
    name: str


class ModPlayer(Message):
    player_id: str
    name: str
    bot: bool
    saved: bool
    moderator: bool
    created_at: datetime


class ModReport(Message):
    report_id: str
    reporter_id: str | None = Field(description="Null for the server's own report of a suspicious win.")
    reporter_role: Literal["server", "opponent", "player"] = Field(
        description="Who reported: the server itself; the target's opponent (raced them in the race of the game "
                    "the report names, or in any race when it names none); another player.")
    source: Literal["player", "auto"]
    reason: ReportReasonName
    text: str
    game_id: str | None
    at: datetime
    status: Literal["open", "acted", "dismissed"]


class ModSanction(Message):
    action_id: int
    kind: Literal["mark", "ban", "rename", "void"]
    game_id: str | None = Field(description="The game a void names (open its replay).")
    reason: str = Field(description="Why, as the mod log keeps it.")
    public_reason: str
    at: datetime


class ModQueueEntry(Message):
    player: ModPlayer
    reports: list[ModReport]
    in_force: list[ModSanction]


class ModQueueMessage(Message):
    type: Literal["mod_queue"] = "mod_queue"
    id: RequestId = None
    players: list[ModQueueEntry]


class ModGame(Message):
    """One ranked game as evidence: its think times, the fair-play screen's figures, the solver's line beside it."""

    game_id: str
    variant: str
    daily_day: date | None
    outcome: Outcome
    moves: int
    time_ms: int
    board: str | None
    flagged: str | None
    think_ms: list[int] = Field(description="Milliseconds before each move (the first: from the deal).")
    ms_per_move: int = Field(description="The screen's figure: time over moves (its floor: `floor_ms_per_move`).")
    floor_ms_per_move: int
    regularity: float | None = Field(description="How much think times vary (their coefficient of variation): a "
                                                 "person's vary widely (often above 0.6), a program's pacing little.")
    solver_agreement: float | None = Field(description="Share of the moves that follow the solver's line in order.")
    par: int | None
    regularity_words: str = Field(description="`regularity` in words (\"varies as a person's\", \"steady as a "
                                              "program's\", ...).")
    solver_words: str = Field(description="`solver_agreement` in words (\"its own way\", ...).")
    unusual: list[Literal["regularity", "solver_line"]] = Field(description="The signals of this game that stand "
                                                                            "out.")


class ModMeaning(Message):
    """What a signal of the evidence means, and which of its values are unusual, in a moderator's words."""

    signal: str
    meaning: str


class ModRating(Message):
    variant: str
    ladder: Literal["humans", "bots"]
    rating: int
    races: int
    history: list[RatingPoint]


class ModToken(Message):
    """One of the player's session or bot tokens, as evidence: how old, last used when, revoked or not (a ban revokes
    them all). Never its secret nor its hash: a moderator has no use for naming it."""

    kind: Literal["session", "bot"]
    created_at: datetime
    last_used_at: datetime | None
    revoked: bool


class ModEvidenceMessage(Message):
    type: Literal["mod_evidence"] = "mod_evidence"
    id: RequestId = None
    player: ModPlayer
    saved_at: datetime | None
    tokens: list[ModToken] = Field(description="The player's tokens, oldest first (an unsaved player has none).")
    games: list[ModGame]
    summary: str = Field(description="What was measured over the games, in one sentence, whatever stands out.")
    suspicion: list[str] = Field(description="What stands out in the signals, in words (empty: nothing does).")
    meanings: list[ModMeaning] = Field(description="What each signal means and which values are unusual.")
    ratings: list[ModRating]
    reports: list[ModReport]
    in_force: list[ModSanction]


class ModLogEntry(Message):
    action_id: int
    at: datetime
    moderator_id: str | None = Field(description="Null: the operator, from the command line.")
    moderator: str
    action: Literal["grant", "revoke", "mark", "ban", "rename", "void", "lift", "dismiss"]
    player_id: str
    name: str = Field(description="The name the player went by when the action was taken (a rename's: the name it "
                                  "replaced).")
    game_id: str | None
    lifts: int | None
    reason: str
    public_reason: str


class ModLogMessage(Message):
    type: Literal["mod_log"] = "mod_log"
    id: RequestId = None
    entries: list[ModLogEntry]


class ModLoggedMessage(Message):
    """Moderators with the console open (they asked for `mod_queue` on this connection): an action the mod log
    gained, from any console, any process or the command line. The queue and the log are stale: ask again."""

    type: Literal["mod_logged"] = "mod_logged"
    entry: ModLogEntry


class ModActionMessage(Message):
    type: Literal["mod_action"] = "mod_action"
    id: RequestId = None
    entry: ModLogEntry


class ModSearchMessage(Message):
    type: Literal["mod_search"] = "mod_search"
    id: RequestId = None
    players: list[ModPlayer]
