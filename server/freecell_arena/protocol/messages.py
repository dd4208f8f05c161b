"""The wire contract: every message a client or the server may send, as pydantic models.

This module is the single source of truth. `docs/schema/protocol.json` and the message table in
`docs/protocol.md` are generated from it (`python -m freecell_arena.protocol.generate`); a test fails when they drift.

Frames are JSON text. Every message has `type`; a request may carry `id` (string or integer), echoed in its
reply. Every error is an `ErrorMessage` with a stable snake_case `code` (listed in `ErrorCode`).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime
from enum import IntEnum, StrEnum
from typing import Annotated, Any, Literal, NotRequired

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    TypeAdapter,
    ValidationInfo,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict  # pydantic reads TypedDicts from typing only on Python >= 3.12

from freecell_arena.engine import VARIANTS
from freecell_arena.protocol.vocabulary import MemberRole, Outcome, PlayerStatus, RoomStatus

PROTOCOL_VERSION = 4
"""4: seeds travel as decimal strings, requests are strict (exact JSON types), `welcome` announces the limits.
3: room events (`member_joined`, ...) instead of the whole room to everyone. 2: `move_accepted` carries `changes`."""

MAX_SAFE_INTEGER = 2**53 - 1
"""I-JSON (RFC 7493): no integer on the wire outside +-(2^53 - 1), the integers every JSON parser holds exactly
(a JavaScript number's). Seeds, which run to 2^63 - 1, travel as decimal strings instead (`Seed`)."""

SafeInt = Annotated[int, Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]

RequestId = Annotated[
    str | SafeInt | None,
    Field(description="Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply."),
]

VariantId = Annotated[
    str,
    Field(
        json_schema_extra={"enum": list(VARIANTS)},
        description="A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.",
    ),
]

SEED_TEXT = re.compile(r"(0|[1-9][0-9]{0,18})")
"""A seed's decimal text: digits, no sign, no leading zero, at most 19 digits (seeds run to 2^63 - 1)."""
SEED_SCHEMA_TEXT = {"type": "string", "pattern": f"^{SEED_TEXT.pattern}$"}
SEED_DESCRIPTION = (
    "A deal's seed as a decimal string (`\"7654041082873553397\"`): seeds run to 2^63 - 1, beyond what a JSON "
    "number holds exactly in JavaScript. The deal number, in `freecell`."
)


def _seed_from_wire(value: object, info: ValidationInfo) -> object:
    """A seed from a frame: its decimal text, or (what protocol 3 clients sent) a JSON integer within I-JSON's range.
    (The server's own values, validated in Python, are ints of any size a seed may have.)"""
    if isinstance(value, str):
        if SEED_TEXT.fullmatch(value) is None:
            raise PydanticCustomError("seed_text", "a seed is a decimal string of digits, like \"42\"")
        return int(value)
    if info.mode == "json" and type(value) is int and value > MAX_SAFE_INTEGER:
        raise PydanticCustomError(
            "seed_unsafe", "a seed above 2^53 - 1 travels as a decimal string (a JSON number that large loses digits)"
        )
    return value


Seed = Annotated[
    int,
    BeforeValidator(_seed_from_wire),
    Field(ge=0),
    PlainSerializer(str, return_type=str, when_used="json"),
    WithJsonSchema(
        {
            "description": SEED_DESCRIPTION + " A JSON integer up to 2^53 - 1 is accepted too.",
            "oneOf": [SEED_SCHEMA_TEXT, {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER}],
        },
        mode="validation",
    ),
    WithJsonSchema({"description": SEED_DESCRIPTION, **SEED_SCHEMA_TEXT}, mode="serialization"),
]
"""A seed: an `int` in Python, a decimal string on the wire (every server frame; a request may also send a JSON
integer within +-(2^53 - 1), as protocol 3 clients did)."""


class ErrorCode(StrEnum):
    """Stable error codes. Programs switch on these; the message beside them is for people."""

    invalid_json = "invalid_json"
    invalid_message = "invalid_message"
    unknown_type = "unknown_type"
    message_too_large = "message_too_large"
    rate_limited = "rate_limited"
    hello_required = "hello_required"
    already_greeted = "already_greeted"
    unknown_token = "unknown_token"
    unknown_variant = "unknown_variant"
    bad_seed = "bad_seed"
    unknown_room = "unknown_room"
    room_full = "room_full"
    room_started = "room_started"
    already_in_room = "already_in_room"
    not_in_room = "not_in_room"
    not_host = "not_host"
    not_enough_players = "not_enough_players"
    no_game = "no_game"
    not_your_game = "not_your_game"
    game_not_running = "game_not_running"
    bad_notation = "bad_notation"
    illegal_move = "illegal_move"
    undo_not_allowed = "undo_not_allowed"
    unknown_game = "unknown_game"
    replay_not_available = "replay_not_available"
    storage_failed = "storage_failed"
    internal_error = "internal_error"
    shutting_down = "shutting_down"
    unranked_options = "unranked_options"
    bad_cursor = "bad_cursor"
    unknown_player = "unknown_player"
    not_on_board = "not_on_board"
    unknown_daily = "unknown_daily"
    unknown_seed = "unknown_seed"
    daily_not_ready = "daily_not_ready"
    game_in_progress = "game_in_progress"
    not_found = "not_found"
    method_not_allowed = "method_not_allowed"
    not_ready = "not_ready"
    race_not_over = "race_not_over"
    passkey_refused = "passkey_refused"
    revoked_token = "revoked_token"
    name_taken = "name_taken"
    not_saved = "not_saved"
    not_yours = "not_yours"
    last_passkey = "last_passkey"
    unknown_tournament = "unknown_tournament"
    already_entered = "already_entered"
    not_entered = "not_entered"
    tournament_full = "tournament_full"
    entry_closed = "entry_closed"
    bots_only = "bots_only"
    humans_only = "humans_only"
    tournament_over = "tournament_over"
    berserk_refused = "berserk_refused"
    not_allowed = "not_allowed"
    banned = "banned"
    already_reported = "already_reported"
    no_hints = "no_hints"


class Message(BaseModel):
    """Base of every message: unknown fields are refused so typos surface as errors. A server message always
    carries every field, defaults included: its schema says so (`specs.WireSchema`)."""

    model_config = ConfigDict(extra="forbid")


STRICT = ConfigDict(extra="forbid", strict=True)
"""What a client sends is strict: each field exactly its JSON type (`true` is no number, `1.0` no index, `"2"` no
count, `"yes"` no boolean), so every client means the same thing by the same frame. (HTTP's query strings are
text: `net/http_api.py` reads them laxly, on purpose.)"""


class Request(Message):
    """A client's request (strict: `STRICT`)."""

    model_config = STRICT


# ---------------------------------------------------------------- the board (what `player_view` builds)

Card = Annotated[
    str,
    Field(
        pattern="^[A2-9TJQK][CDHS]$",
        description="A card: rank (`A`, `2`-`9`, `T`, `J`, `Q`, `K`) then suit (`C`, `D`, `H`, `S`); `TD` is the ten "
        "of diamonds.",
    ),
]
Slot = Annotated[Card | None, Field(description="A card, or null: face down (Cell Eleven) or an empty cell.")]
Column = Annotated[list[Slot], Field(description="A column, deepest card first; face-down cards are null.")]


class FoundationView(TypedDict):
    """One foundation, in the variant's slot order (suit by suit: C, D, H, S, copies side by side)."""

    suit: Literal["C", "D", "H", "S"]
    cards: Annotated[int, Field(ge=0, description="Cards on it (Three Deck: up to 39, three laps of A-K).")]
    top: Annotated[Card | None, Field(description="Its top card; null while empty.")]


class PlayerView(TypedDict):
    """A player's whole board: what `race_started`, `daily_started` and `game_state` carry as `game.view`."""

    variant: VariantId
    tableau: Annotated[list[Column], Field(description="The columns, left to right.")]
    cells: Annotated[list[Slot], Field(description="The free cells, left to right; null = empty.")]
    foundations: list[FoundationView]
    cards_on_foundations: Annotated[int, Field(ge=0)]


ColumnIndex = Annotated[str, Field(pattern="^(0|[1-9][0-9]?)$", description="A column's 0-based index, as text.")]


class ViewChanges(TypedDict):
    """What one action changed in the player view, as it is now: put each part into the view you hold, in order
    (`freecell_arena.engine.view.apply_view_changes`). `cells` and `foundations` are there only when changed."""

    tableau: Annotated[
        dict[ColumnIndex, Column], Field(description="Each changed column (by its index as text), whole.")
    ]
    cells: NotRequired[list[Slot]]
    foundations: NotRequired[list[FoundationView]]
    cards_on_foundations: Annotated[int, Field(ge=0)]


StructuredMove = TypedDict(
    "StructuredMove",
    {
        "from": Literal["tableau", "cell"],
        "from_index": Annotated[int, Field(ge=0)],
        "to": Literal["tableau", "cell", "foundation"],
        "to_index": Annotated[int, Field(ge=0)],
        "count": Annotated[int, Field(ge=1)],
    },
)
StructuredMove.__doc__ = "A move as applied: every index filled in (the cell or foundation actually chosen)."


# ---------------------------------------------------------------- shared shapes


class MoveJson(Message):
    """The structured form of a move. Indices are 0-based; `to_index` null = the first cell/foundation that fits
    (required for a column). A malformed one is refused as `bad_notation`, like unreadable text."""

    from_: Literal["tableau", "cell"] = Field(alias="from")
    from_index: int = Field(ge=0, le=MAX_SAFE_INTEGER)
    to: Literal["tableau", "cell", "foundation"]
    to_index: int | None = Field(default=None, ge=0, le=MAX_SAFE_INTEGER)
    count: int = Field(default=1, ge=1, le=MAX_SAFE_INTEGER)

    model_config = ConfigDict(**STRICT, populate_by_name=True)


class PlayedMove(Message):
    """A move as the server applied it: its notation in the variant and its structured form."""

    notation: str
    move: StructuredMove


class RoomOptions(Message):
    """What the host chose for the room. `undo_allowed` null = the variant's default."""

    model_config = STRICT

    autoplay: bool = Field(default=True, description="Safe cards go to the foundations on their own.")
    undo_allowed: bool | None = None
    max_players: int = Field(default=16, ge=1, le=64)
    time_limit_s: int | None = Field(default=None, ge=5, le=86_400, description="Race ends after this long.")
    ranking: Literal["moves", "speed"] = Field(
        default="moves", description="Winners ordered by moves then time, or (speed) by time then moves."
    )
    countdown_s: float = Field(default=3.0, ge=0, le=30)
    ranked: bool | None = Field(
        default=None,
        description="Winners go on the deal's leaderboard. Null: ranked when autoplay is on and undo is the "
        "variant's rule (the room then shows true or false); true with other options is refused.",
    )




class Progress(Message):
    """What a room may see of one player's game: counts only, never moves or cards."""

    player_id: str
    name: str
    status: PlayerStatus
    cards_on_foundations: int
    moves: int
    time_ms: int | None = Field(description="Playing time so far, or final time once done.")


class RoomMember(Message):
    """A member of a room; `connected` is false while their connection is down."""

    player_id: str
    name: str
    bot: bool
    role: MemberRole
    connected: bool


class SeriesScore(Message):
    """One player's wins so far in a race-again series."""

    player_id: str
    name: str
    wins: int


class SeriesView(Message):
    """A race-again series: which race of it this room is, and the wins per player of the races before it (and of
    this one, once it is over)."""

    race: int = Field(ge=1)
    tally: list[SeriesScore]


class RoomView(Message):
    """A room as everyone in it sees it. `seed` stays null for Cell Eleven until the race is over, and always for a
    cup's heat (the cup reveals its deals once over)."""

    code: str
    variant: VariantId
    seed: Seed | None
    host_id: str
    options: RoomOptions
    status: RoomStatus
    members: list[RoomMember]
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    progress: list[Progress] = Field(default_factory=list)
    host_chose_deal: bool = Field(
        default=False, description="The host picked the deal (a seed or deal number): the host may know it."
    )
    next_code: str | None = Field(default=None, description="After `race_again`: the series' next room.")
    series: SeriesView | None = Field(default=None, description="The race-again series this room belongs to.")
    quick: bool = Field(default=False, description="A public quick-race room: it starts by itself.")


class GameView(Message):
    """One player's own game: the full player view (face-down cards are null)."""

    game_id: str
    room_code: str | None
    variant: VariantId
    seed: Seed | None
    autoplay: bool
    undo_allowed: bool
    started_at: datetime
    status: PlayerStatus
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    actions: list[str] = Field(description="Every accepted action of this game, in notation or `undo`.")
    view: PlayerView
    daily: date | None = Field(default=None, description="The day, when this is a daily challenge game.")


class Standing(Message):
    """One row of the final standings; equal results share a rank."""

    rank: int
    player_id: str
    name: str
    game_id: str
    outcome: Outcome
    moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int


# ---------------------------------------------------------------- client -> server


NAME_MAX_LENGTH = 32
REFUSED_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories no name may hold: controls (NUL, ANSI escapes), format characters (bidi overrides like
U+202E, zero-width joiners and spaces), surrogates, private use, unassigned, line and paragraph separators."""


def _visible_name(text: str, most: int) -> str:
    """A name as everyone will see it: NFC, trimmed, visible characters only, 1 to `most` characters."""
    name = unicodedata.normalize("NFC", text).strip()
    for character in name:
        if unicodedata.category(character) in REFUSED_IN_NAMES:
            raise ValueError(f"names may not hold control or invisible characters (U+{ord(character):04X})")
    if not 1 <= len(name) <= most:
        raise ValueError(f"a name has 1 to {most} visible characters")
    return name


def _player_name(text: str) -> str:
    return _visible_name(text, NAME_MAX_LENGTH)


PlayerName = Annotated[
    str,
    AfterValidator(_player_name),
    Field(min_length=1, max_length=4 * NAME_MAX_LENGTH,
          description="1-32 characters once trimmed and NFC-normalized; no control or invisible characters."),
]  # fmt: skip


class HelloRequest(Request):
    """First message of every connection. With `token`, resume that identity (and its running game)."""

    type: Literal["hello"] = "hello"
    id: RequestId = None
    name: PlayerName
    token: str | None = Field(default=None, max_length=128)
    bot: bool = False


class CreateRoomRequest(Request):
    """Create a room and become its host. No `seed`/`deal`: a fresh random seed. `deal` is a deal number."""

    type: Literal["create_room"] = "create_room"
    id: RequestId = None
    variant: VariantId
    seed: Seed | None = None
    deal: Annotated[Seed, Field(ge=1)] | None = None
    options: RoomOptions = Field(default_factory=RoomOptions)


class JoinRoomRequest(Request):
    """Join a room by its code, as a player (lobby only) or as a spectator (any time)."""

    type: Literal["join_room"] = "join_room"
    id: RequestId = None
    code: str = Field(min_length=1, max_length=32)
    spectator: bool = False


class LeaveRoomRequest(Request):
    """Leave the room; leaving during a race resigns the game."""

    type: Literal["leave_room"] = "leave_room"
    id: RequestId = None


class StartRaceRequest(Request):
    """Host only: start the countdown; every player gets the same deal at the same instant."""

    type: Literal["start_race"] = "start_race"
    id: RequestId = None


class MoveRequest(Request):
    """A move in the variant's text notation (`"3a"`, `"t3-c1"`) or the structured form."""

    type: Literal["move"] = "move"
    id: RequestId = None
    game_id: str | None = None
    move: str | MoveJson


class UndoRequest(Request):
    """Take back your last move and the autoplay after it (costs a move; room option)."""

    type: Literal["undo"] = "undo"
    id: RequestId = None
    game_id: str | None = None


class ResignRequest(Request):
    """Give up your game; it ranks by cards on foundations."""

    type: Literal["resign"] = "resign"
    id: RequestId = None
    game_id: str | None = None


class StateRequest(Request):
    """Ask again for the full state: your room and your current game."""

    type: Literal["get_state"] = "get_state"
    id: RequestId = None


class ReplayRequest(Request):
    """A game's seed and move list: anyone's once its race is over, your own any time (not in Cell Eleven, a daily
    before its day closes or a cup's heat before the cup is over: their seeds are secret until then)."""

    type: Literal["get_replay"] = "get_replay"
    id: RequestId = None
    game_id: str


PAGE_LIMIT = 100
"""Most rows one leaderboard, season or history page returns."""

Limit = Annotated[int, Field(ge=1, le=PAGE_LIMIT, description=f"Rows per page (1..{PAGE_LIMIT}).")]
Cursor = Annotated[
    str | None, Field(default=None, max_length=256, description="`next_cursor` of the previous page, unchanged.")
]
Around = Annotated[
    str | None,
    Field(
        default=None,
        max_length=64,
        description="A player id: that player's row with the rows just above and below it (`limit` in all).",
    ),
]


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


class HintRequest(Request):
    """The next move of a plan for your running game, and the moves that finish it when it is decided (auto-finish).
    Only in practice and casual play (an unranked room): refused with `no_hints` in a ranked race or a daily."""

    type: Literal["get_hint"] = "get_hint"
    id: RequestId = None
    game_id: str = Field(max_length=64)


class DailyRequest(Request):
    """A variant's daily deals: the commitments, and the seeds of closed days (commit-reveal)."""

    type: Literal["get_daily"] = "get_daily"
    id: RequestId = None
    variant: VariantId
    day: date | None = Field(default=None, description="One day; default: tomorrow (if prepared), today, yesterday.")


class RaceAgainRequest(Request):
    """After `race_over`: open the series' next room (same options, a fresh server-drawn deal) or, when a member
    opened it already, join it. Everyone of the finished room is invited (`series_invite`)."""

    type: Literal["race_again"] = "race_again"
    id: RequestId = None


class QuickRaceRequest(Request):
    """Join the variant's public room that is filling (one is opened when none is); it starts by itself, ranked,
    on a server-drawn deal."""

    type: Literal["quick_race"] = "quick_race"
    id: RequestId = None
    variant: VariantId


class QuickRacesRequest(Request):
    """The quick races filling now, per variant (the landing page's "who is waiting"), and the server's offer of a
    bot to race when nobody comes."""

    type: Literal["get_quick_races"] = "get_quick_races"
    id: RequestId = None


class RaceBotRequest(Request):
    """In a quick race's lobby where you wait alone: the server's own bot (a client of this protocol, on the bots'
    ladder) joins it, and the race starts by itself as with any second player."""

    type: Literal["race_bot"] = "race_bot"
    id: RequestId = None


class PlayDailyRequest(Request):
    """Play today's daily deal: your first game of it is ranked, later ones are not. The clock starts now."""

    type: Literal["play_daily"] = "play_daily"
    id: RequestId = None
    variant: VariantId


# ---------------------------------------------------------------- accounts (docs/accounts.md)

PasskeyCeremony = Literal["save", "sign_in"]
BASE64URL = {"type": "string", "pattern": "^[A-Za-z0-9_-]*$"}
Credential = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "description": "What the browser's `PublicKeyCredential.toJSON()` gives (WebAuthn Level 3: "
            "RegistrationResponseJSON for save, AuthenticationResponseJSON for sign_in; binary fields base64url). "
            "Passed to the server's WebAuthn verification as it is.",
            "properties": {
                "id": BASE64URL,
                "rawId": BASE64URL,
                "type": {"const": "public-key"},
                "response": {"type": "object", "additionalProperties": True},
                "authenticatorAttachment": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "clientExtensionResults": {"type": "object", "additionalProperties": True},
            },
            "required": ["id", "rawId", "type", "response"],
            "additionalProperties": True,
        }
    ),
]
CeremonyOptions = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "description": "WebAuthn Level 3 PublicKeyCredentialCreationOptionsJSON (save) or "
            "PublicKeyCredentialRequestOptionsJSON (sign_in), binary fields base64url.",
            "properties": {
                "challenge": BASE64URL,
                "timeout": {"type": "integer", "minimum": 0},
                "rp": {"type": "object", "additionalProperties": True},
                "rpId": {"type": "string"},
                "user": {"type": "object", "additionalProperties": True},
                "pubKeyCredParams": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
                "allowCredentials": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
                "excludeCredentials": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
                "userVerification": {"type": "string"},
                "authenticatorSelection": {"type": "object", "additionalProperties": True},
                "attestation": {"type": "string"},
            },
            "required": ["challenge"],
            "additionalProperties": True,
        }
    ),
]


class PasskeyBeginRequest(Request):
    """Begin a passkey ceremony: `save` this player with a new passkey (after hello), or `sign_in` (before or
    after hello) to become the player a passkey belongs to."""

    type: Literal["passkey_begin"] = "passkey_begin"
    id: RequestId = None
    ceremony: PasskeyCeremony


class PasskeyFinishRequest(Request):
    """The browser's answer to `passkey_options`. `label` names the new passkey (save) or session (sign_in)."""

    type: Literal["passkey_finish"] = "passkey_finish"
    id: RequestId = None
    ceremony: PasskeyCeremony
    credential: Credential
    label: str = Field(default="", max_length=100)


class AccountRequest(Request):
    """Your account page: name, passkeys, sessions, bots."""

    type: Literal["get_account"] = "get_account"
    id: RequestId = None


class RenamePasskeyRequest(Request):
    """Rename one of your passkeys ("Laptop", "Phone"): how the account page lists it."""

    type: Literal["rename_passkey"] = "rename_passkey"
    id: RequestId = None
    credential_id: str = Field(max_length=1400)
    name: str = Field(max_length=64)


class RemovePasskeyRequest(Request):
    """Remove one of your passkeys (never the last: add another first)."""

    type: Literal["remove_passkey"] = "remove_passkey"
    id: RequestId = None
    credential_id: str = Field(max_length=1400)


class RevokeTokenRequest(Request):
    """Revoke one of your sessions or one of your bots' tokens (`token_id` as the account lists it): its
    connections close, on every server process."""

    type: Literal["revoke_token"] = "revoke_token"
    id: RequestId = None
    token_id: str = Field(max_length=64)


class SignOutRequest(Request):
    """End this browser's session, or (`everywhere`) every session of yours, this one included."""

    type: Literal["sign_out"] = "sign_out"
    id: RequestId = None
    everywhere: bool = False


class CreateBotRequest(Request):
    """A bot account of yours: its name is claimed like yours; its API token comes once, in `bot_token`."""

    type: Literal["create_bot"] = "create_bot"
    id: RequestId = None
    name: PlayerName
    description: str = Field(default="", max_length=500)


class NewBotTokenRequest(Request):
    """Another API token for one of your bots (the others stay valid until revoked)."""

    type: Literal["new_bot_token"] = "new_bot_token"
    id: RequestId = None
    bot_id: str = Field(max_length=64)
# ---------------------------------------------------------------- ratings, streaks, players, review (issue 23)


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



# ---------------------------------------------------------------- tournaments (docs/tournaments.md)

TournamentKindName = Literal["arena", "cup"]
TournamentEntryRule = Literal["public", "link", "bots"]
TournamentPhaseName = Literal["upcoming", "running", "finished"]
TournamentEntryState = Literal["active", "paused", "withdrawn"]
TournamentId = Annotated[str, Field(max_length=64, description="A tournament's id (`get_tournaments` lists them).")]
TOURNAMENT_NAME_MAX_LENGTH = 60


def _tournament_name(text: str) -> str:
    return _visible_name(text, TOURNAMENT_NAME_MAX_LENGTH)


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
# ---------------------------------------------------------------- moderation (docs/moderation.md)

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


ClientMessage = Annotated[
    HelloRequest
    | CreateRoomRequest
    | JoinRoomRequest
    | LeaveRoomRequest
    | StartRaceRequest
    | MoveRequest
    | UndoRequest
    | ResignRequest
    | StateRequest
    | ReplayRequest
    | LeaderboardRequest
    | SeasonRequest
    | HistoryRequest
    | DailyRequest
    | PlayDailyRequest
    | RaceAgainRequest
    | QuickRaceRequest
    | PasskeyBeginRequest
    | PasskeyFinishRequest
    | AccountRequest
    | RenamePasskeyRequest
    | RemovePasskeyRequest
    | RevokeTokenRequest
    | SignOutRequest
    | CreateBotRequest
    | NewBotTokenRequest
    | RatingsRequest
    | PlayerRequest
    | StreakRequest
    | ReviewRequest
    | ShareRequest
    | TournamentsRequest
    | TournamentRequest
    | CreateTournamentRequest
    | EnterTournamentRequest
    | WithdrawTournamentRequest
    | PauseTournamentRequest
    | BerserkRequest
    | ReportRequest
    | MyReportsRequest
    | ChooseNameRequest
    | ModQueueRequest
    | ModEvidenceRequest
    | ModActionRequest
    | ModLogRequest
    | ModSearchRequest
    | HintRequest
    | QuickRacesRequest
    | RaceBotRequest,
    Field(discriminator="type"),
]


# ---------------------------------------------------------------- server -> client


class ConnectionLimits(Message):
    """What one connection lives within, as this server is configured (the defaults are below): a client paces
    itself by these rather than by guesses. Every limit a client can meet is here or in `CloseCode`."""

    max_message_bytes: int = Field(
        default=16_384, description="A larger frame (UTF-8 bytes) is dropped, answered `message_too_large`."
    )
    max_frame_bytes: int = Field(
        default=65_536,
        description="A frame larger than this closes the connection (close code 1009) with no error frame.",
    )
    rate_per_s: float = Field(
        default=30.0, description="Messages a second, sustained; past it a message is dropped, answered `rate_limited`."
    )
    burst: int = Field(default=60, description="Messages that may come at once, above the sustained rate.")
    ping_interval_s: float = Field(
        default=20.0, description="The server sends a websocket ping this often (websocket libraries answer it)."
    )
    ping_timeout_s: float = Field(
        default=20.0, description="A ping not answered within this long closes the connection (1011)."
    )
    hello_timeout_s: float = Field(default=10.0, description="A connection without `hello` by then is closed (1008).")
    idle_timeout_s: float = Field(
        default=600.0, description="A connection that sends no message for this long is closed (1008)."
    )


FRAME_SIZE_FACTOR = 4
"""Frames up to this many times `max_message_bytes` are read and answered `message_too_large`; larger ones close
the connection (websockets' `max_size`), so nobody makes the server read megabytes to refuse them."""
DEFAULT_LIMITS = ConnectionLimits()
"""The defaults of the settings (`freecell_arena.settings`): the one place these numbers are written."""


class QuickRaceSizes(Message):
    """How a quick race (`quick_race`) fills and starts, as this server is configured."""

    min_players: int = Field(default=2, description="Its countdown starts once this many players are in.")
    max_players: int = Field(default=8, description="A full quick race starts at once.")
    countdown_s: float = Field(default=10.0, description="The countdown once `min_players` are in.")


DEFAULT_QUICK_RACE = QuickRaceSizes()


class CloseCode(IntEnum):
    """Why the server closes a connection (the websocket close code); `CLOSE_CODES` says what each means."""

    going_away = 1001
    policy_violation = 1008
    message_too_big = 1009
    internal_error = 1011
    replaced = 4000
    revoked = 4001
    banned = 4002


CLOSE_CODES: dict[CloseCode, str] = {
    CloseCode.going_away: "The server is shutting down or restarting: reconnect with backoff and say `hello` with "
    "your token (your game goes on).",
    CloseCode.policy_violation: "No `hello` within `hello_timeout_s`, no message for `idle_timeout_s`, or too many "
    "connections from one address (the close reason says which).",
    CloseCode.message_too_big: "A frame larger than `max_frame_bytes` (no `error` frame comes first).",
    CloseCode.internal_error: "The keepalive ping was not answered within `ping_timeout_s`.",
    CloseCode.replaced: "The same identity said `hello` on another connection: this one is replaced (do not "
    "reconnect on your own: the other connection plays now).",
    CloseCode.revoked: "The token this connection said `hello` with was revoked (signed out, or on the account "
    "page): it will not work again.",
    CloseCode.banned: "A moderator banned this player (the close reason and the refused `hello`'s `banned` error "
    "give the public reason): do not reconnect.",
}
"""Every close code the server sends. A client that stops reading while frames pile up past the server's outbox
limit is cut off without a close frame (the client sees 1006)."""


class WelcomeMessage(Message):
    """Reply to hello. Keep `token`: it is the only way back to this identity (the server keeps only its hash).
    `limits` and `quick_race` say how this server is configured."""

    type: Literal["welcome"] = "welcome"
    id: RequestId = None
    player_id: str
    name: str
    token: str
    protocol: Literal[4] = 4  # PROTOCOL_VERSION (a Literal needs the number itself)
    resumed: bool
    limits: ConnectionLimits = DEFAULT_LIMITS
    quick_race: QuickRaceSizes = DEFAULT_QUICK_RACE


class ErrorMessage(Message):
    """Every refusal. `reason` carries the engine's own code for `illegal_move`."""

    type: Literal["error"] = "error"
    id: RequestId = None
    code: ErrorCode
    message: str
    reason: str | None = None


class RoomMessage(Message):
    """The room's full state: the reply to create/join and an event whenever membership or status changes."""

    type: Literal["room"] = "room"
    id: RequestId = None
    room: RoomView


class LeftRoomMessage(Message):
    """Reply to `leave_room`."""

    type: Literal["left_room"] = "left_room"
    id: RequestId = None
    code: str


class MemberJoinedMessage(Message):
    """To the others in the room: someone joined (the whole room goes only to the one who joined)."""

    type: Literal["member_joined"] = "member_joined"
    code: str
    member: RoomMember


class MemberLeftMessage(Message):
    """To the others in the room: someone left; `host_id` names the host now (it moves when the host leaves)."""

    type: Literal["member_left"] = "member_left"
    code: str
    player_id: str
    host_id: str


class MemberConnectionMessage(Message):
    """To the others in the room: a member's connection went down or came back."""

    type: Literal["member_connection"] = "member_connection"
    code: str
    player_id: str
    connected: bool


class CountdownMessage(Message):
    """The race starts at `starts_at` (server time) for everyone."""

    type: Literal["countdown"] = "countdown"
    id: RequestId = None
    code: str
    starts_at: datetime
    seconds: float


class RaceStartedMessage(Message):
    """Your copy of the deal. Every player's game starts at the same server instant."""

    type: Literal["race_started"] = "race_started"
    code: str
    game: GameView


class MoveAcceptedMessage(Message):
    """Sent only once the move is durable. `autoplay` lists the moves the server made after it (not counted).
    `changes` is what the action changed in your player view; the whole view comes with `race_started`,
    `daily_started` and `game_state` (`get_state` any time)."""

    type: Literal["move_accepted"] = "move_accepted"
    id: RequestId = None
    game_id: str
    index: int = Field(description="0-based index of this action in the game's action log.")
    action: str = Field(description="The action as stored: the move's notation, or `undo`.")
    move: PlayedMove | None = Field(description="The concrete move; null for an undo.")
    autoplay: list[PlayedMove]
    undone: list[PlayedMove] = Field(default_factory=list, description="For `undo`: the moves taken back.")
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    status: PlayerStatus
    only_undo_left: bool = Field(
        default=False,
        description="No legal move is left, but an undo can still rescue the game: undo (it costs a move) or "
        "resign. A game with no legal move ends as `stuck` only when undo cannot help.",
    )
    changes: ViewChanges = Field(
        description="The parts of your player view this action changed (its move, autoplay, or what an undo took "
        "back), as they are now: `tableau` maps each changed column's index (a string) to the whole column, "
        "deepest card first, face-down cards null; `cells` and `foundations` are the whole row, present only "
        "when changed; `cards_on_foundations` is always there. Put them into your last view in the order they "
        "come (`freecell_arena.engine.view.apply_view_changes`)."
    )


class GameOverMessage(Message):
    """Your game ended: won, resigned, stuck (no legal move is left), or timeout (the race's time limit, or the
    close of a daily's day)."""

    type: Literal["game_over"] = "game_over"
    id: RequestId = None
    game_id: str
    outcome: Outcome
    message: str
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int


class SeriesInviteMessage(Message):
    """To the members of a finished room: the series' next room is open (`race_again` or `join_room` joins it)."""

    type: Literal["series_invite"] = "series_invite"
    code: str = Field(description="The finished room.")
    next_code: str
    by: str = Field(description="The name of who opened it.")


class QuickRaceView(Message):
    variant: VariantId
    code: str | None = Field(description="The room filling now (null: none; `quick_race` opens one).")
    players: int = Field(description="Players waiting in it.")
    starts_at: datetime | None = Field(description="When its countdown ends (null: waiting for players).")


class QuickRacesMessage(Message):
    type: Literal["quick_races"] = "quick_races"
    id: RequestId = None
    races: list[QuickRaceView]
    bot_after_s: float | None = Field(description="A player waiting alone this long is offered a bot (`race_bot`); "
                                      "null: this server has no house bot.")


class RaceBotMessage(Message):
    """The house bot is on its way to your quick race (it joins like any player: `member_joined`)."""

    type: Literal["race_bot"] = "race_bot"
    id: RequestId = None
    code: str
    name: str


class ProgressMessage(Message):
    """One player's progress, to the others in the room (the player has it in its reply). Counts only."""

    type: Literal["progress"] = "progress"
    code: str
    progress: Progress


class RaceOverMessage(Message):
    """Final standings. `seed` is now public for every variant; replays are available (a cup's heat: `seed` null,
    replays closed, until the cup is over). Sent again after `game_state` to a member of the finished room (a
    resumed `welcome`, `get_state`)."""

    type: Literal["race_over"] = "race_over"
    code: str
    seed: Seed | None
    standings: list[Standing]


class GameStateMessage(Message):
    """Your full state: sent after a resumed `welcome` and in reply to `get_state`."""

    type: Literal["game_state"] = "game_state"
    id: RequestId = None
    room: RoomView | None
    game: GameView | None


class ReplayMessage(Message):
    """A game's seed and action log; `final_view` is its last board (face-down cards null); `start_view` and
    `steps` let a viewer step through it without rules of its own."""

    type: Literal["replay"] = "replay"
    id: RequestId = None
    game_id: str
    player_id: str
    variant: VariantId
    seed: Seed
    autoplay: bool
    actions: list[str]
    outcome: Outcome | None
    final_view: PlayerView
    start_view: PlayerView = Field(description="The opening board, after the deal's autoplay (face-down cards null).")
    steps: list[ViewChanges] = Field(
        description="Per action, what it changed in the view, as its `move_accepted` `changes` did: `start_view` "
        "with the first n steps put in is the board after n actions (`freecell_arena.engine.view.replay_steps`).",
    )


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


class HintMessage(Message):
    """A hint, worked out from what you see (never from a face-down card). Play its moves like any other: each is
    counted."""

    type: Literal["hint"] = "hint"
    id: RequestId = None
    game_id: str
    move: str | None = Field(description="The next move in the generic notation (`t3-c1`, `c2-f`, `t1-t4x3`); null "
                             "when the game is won or provably lost.")
    finish: list[str] = Field(description="The moves that win by sending cards home alone, in order (empty: the "
                              "game is not decided yet).")


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



class PasskeyOptionsMessage(Message):
    """Reply to `passkey_begin`: `options` for `PublicKeyCredential.parseCreationOptionsFromJSON` (save) or
    `parseRequestOptionsFromJSON` (sign_in), then `navigator.credentials.create`/`get`. Expires in 5 minutes."""

    type: Literal["passkey_options"] = "passkey_options"
    id: RequestId = None
    ceremony: PasskeyCeremony
    options: CeremonyOptions


class SignedInMessage(Message):
    """Reply to a `sign_in` `passkey_finish`: a session of the passkey's player. Keep `token` and say hello
    with it (on this connection if it has not said hello yet, else on a new one); it is shown once."""

    type: Literal["signed_in"] = "signed_in"
    id: RequestId = None
    player_id: str
    name: str
    token: str


class PasskeyView(Message):
    """One of your passkeys: its credential id (base64url), your name for it, and when it was added and used."""

    credential_id: str
    name: str
    transports: list[str]
    created_at: datetime
    last_used_at: datetime | None


class TokenView(Message):
    """A session or a bot's API token, never its secret: `token_id` names it to `revoke_token`."""

    token_id: str
    label: str
    created_at: datetime
    last_used_at: datetime | None
    revoked: bool
    current: bool = Field(default=False, description="The session this connection said hello with.")


class BotView(Message):
    """One of your bot accounts: a player of its own (`player_id`), and its API tokens (never their secrets)."""

    player_id: str
    name: str
    description: str
    created_at: datetime
    tokens: list[TokenView]


class AccountMessage(Message):
    """Your account: `saved` once you hold a passkey (your name is then claimed: `name`)."""

    type: Literal["account"] = "account"
    id: RequestId = None
    player_id: str
    name: str
    saved: bool
    passkeys: list[PasskeyView]
    sessions: list[TokenView]
    bots: list[BotView]
    moderator: bool = Field(default=False, description="A moderator: the client offers the console (/mod).")


class BotTokenMessage(Message):
    """A bot's new API token: shown this once (the server keeps only its hash). Give it to the bot
    (`freecell-arena-bot --token-file`); a hello with it is that bot, on the bots' boards."""

    type: Literal["bot_token"] = "bot_token"
    id: RequestId = None
    bot_id: str
    name: str
    token: str


class SignedOutMessage(Message):
    """Reply to `sign_out`: the session(s) are revoked and their connections close; forget the token."""

    type: Literal["signed_out"] = "signed_out"
    id: RequestId = None
    everywhere: bool
    sessions: int = Field(description="How many sessions were revoked.")
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
    notice: str | None = Field(default=None, description="A moderator's public notice (marked as playing with "
                                                          "help: results count with the programs').")


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


# ---------------------------------------------------------------- moderation replies (docs/moderation.md)


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
    source: Literal["player", "auto"]
    reason: ReportReasonName
    text: str
    game_id: str | None
    at: datetime
    status: Literal["open", "acted", "dismissed"]


class ModSanction(Message):
    action_id: int
    kind: Literal["mark", "ban", "rename", "void"]
    game_id: str | None
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


class ModRating(Message):
    variant: str
    ladder: Literal["humans", "bots"]
    rating: int
    races: int
    history: list[RatingPoint]


class ModEvidenceMessage(Message):
    type: Literal["mod_evidence"] = "mod_evidence"
    id: RequestId = None
    player: ModPlayer
    saved_at: datetime | None
    tokens: list[TokenView]
    games: list[ModGame]
    suspicion: list[str] = Field(description="What the signals say, in words (empty: nothing unusual).")
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
    name: str
    game_id: str | None
    lifts: int | None
    reason: str
    public_reason: str


class ModLogMessage(Message):
    type: Literal["mod_log"] = "mod_log"
    id: RequestId = None
    entries: list[ModLogEntry]


class ModActionMessage(Message):
    type: Literal["mod_action"] = "mod_action"
    id: RequestId = None
    entry: ModLogEntry


class ModSearchMessage(Message):
    type: Literal["mod_search"] = "mod_search"
    id: RequestId = None
    players: list[ModPlayer]


ServerMessage = Annotated[
    WelcomeMessage
    | ErrorMessage
    | RoomMessage
    | LeftRoomMessage
    | MemberJoinedMessage
    | MemberLeftMessage
    | MemberConnectionMessage
    | CountdownMessage
    | RaceStartedMessage
    | MoveAcceptedMessage
    | GameOverMessage
    | ProgressMessage
    | RaceOverMessage
    | GameStateMessage
    | ReplayMessage
    | LeaderboardMessage
    | SeasonMessage
    | HistoryMessage
    | DailyMessage
    | DailyStartedMessage
    | SeriesInviteMessage
    | PasskeyOptionsMessage
    | SignedInMessage
    | AccountMessage
    | BotTokenMessage
    | SignedOutMessage
    | RaceRatingsMessage
    | RatingsMessage
    | StreakMessage
    | PlayerMessage
    | ReviewMessage
    | ShareMessage
    | TournamentListMessage
    | TournamentMessage
    | TournamentEntryMessage
    | TournamentRaceMessage
    | ReportReceivedMessage
    | MyReportsMessage
    | NameReplacedMessage
    | NameChosenMessage
    | ModQueueMessage
    | ModEvidenceMessage
    | ModLogMessage
    | ModActionMessage
    | ModSearchMessage
    | HintMessage
    | QuickRacesMessage
    | RaceBotMessage,
    Field(discriminator="type"),
]

CLIENT_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
SERVER_MESSAGES: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def encode(message: Message) -> str:
    """The JSON text of a server message (aliases on, so `MoveJson.from_` is spelled `from`)."""
    return message.model_dump_json(by_alias=True)
