"""Identifiers and secrets: player ids, game ids, secret tokens (kept only hashed), room codes, seeds."""

from __future__ import annotations

import hashlib
import secrets

# No 0/O, 1/I/L, U: a code read aloud or copied by hand survives. 31^8 ~ 8.5e11 codes.
ROOM_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
ROOM_CODE_LENGTH = 8


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(8)}"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """SHA-256 hex: the token is 256 random bits, so a fast hash is enough and lookups stay indexable."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


def normalize_room_code(code: str) -> str:
    return code.strip().upper().replace("-", "")


def random_seed(low: int, high: int) -> int:
    return low + secrets.randbelow(high - low + 1)
