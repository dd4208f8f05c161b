"""Identifiers and secrets: player ids, game ids, secret tokens (kept only hashed), room codes, seeds."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

# No 0/O, 1/I/L, U: a code read aloud or copied by hand survives. 30^8 ~ 6.6e11 codes.
ROOM_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
ROOM_CODE_LENGTH = 8


def new_id(prefix: str) -> str:
    """64 random bits: a player's, a tournament's, a report's id, which says nothing of when it was made."""
    return f"{prefix}_{secrets.token_hex(8)}"


def new_ordered_id(prefix: str, now: datetime) -> str:
    """A game's or a room's id: `now` to the millisecond (12 hex digits), then 64 random bits (16 more), so ids
    sort by when they were made. The tables that grow by the game and the room (moves by game and index, games,
    rooms, their members) then take a new row near the end of their key, where the live ones are: with random
    ids each live game's moves land somewhere in the whole history, and a move's row costs more the longer the
    history is (`python bench/moves_btree.py --history 60000`: 11.0 us a row against 15.7 over 6 million stored
    moves; about equal on an empty table). A game's start is no secret (its `started_at` is in every view of it)."""
    return f"{prefix}_{max(0, int(now.timestamp() * 1000)):012x}{secrets.token_hex(8)}"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """SHA-256 hex: the token is 256 random bits, so a fast hash is enough and lookups stay indexable."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_room_code() -> str:
    """One draw of the system's randomness for the whole code (as uniform as a choice per letter, at an eighth
    of the calls: 3 us a code, not 11)."""
    return room_code_of(secrets.randbelow(len(ROOM_CODE_ALPHABET) ** ROOM_CODE_LENGTH))


def room_code_of(number: int) -> str:
    """The code whose letters are `number`'s digits in base 30, the lowest first (below 30^8: one code each)."""
    letters = []
    for _ in range(ROOM_CODE_LENGTH):
        number, digit = divmod(number, len(ROOM_CODE_ALPHABET))
        letters.append(ROOM_CODE_ALPHABET[digit])
    return "".join(letters)


def normalize_room_code(code: str) -> str:
    return code.strip().upper().replace("-", "")


def random_seed(low: int, high: int) -> int:
    return low + secrets.randbelow(high - low + 1)
