"""Every refusal: the `error` message and its stable codes.

Every error the server sends is an `ErrorMessage` with a snake_case `code` from `ErrorCode`: programs switch on the
code, people read `message`. Which request may get which code is `contract.py`'s table; `docs/protocol.md` lists
them with their HTTP status.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from freecell_arena.protocol.wire import Message, RequestId


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


class ErrorMessage(Message):
    """Every refusal. `reason` carries the engine's own code for `illegal_move`, and `revoked_token` for a `banned`
    hello whose session the ban ended (a saved player signs in with their passkey again once it is lifted)."""

    type: Literal["error"] = "error"
    id: RequestId = None
    code: ErrorCode
    message: str
    reason: str | None = None
