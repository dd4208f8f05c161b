"""Session and bot API tokens: random, shown once, stored hashed, checked in constant time, revocable.

A token is 256 random bits behind a short prefix that names its kind (`fcs_` a session, `fcb_` a bot): a token
pasted into the wrong place, or found in a public repository, says what it is. The store keeps only its SHA-256
(`freecell_arena.core.identity.hash_token`: the secret is random, so a fast hash is enough and a lookup stays an
index read). The lookup compares hashes in the database, which tells an attacker nothing about the secret; the
found row's hash is compared again here with `hmac.compare_digest`, so no code path compares secrets or their
hashes with an early exit.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from freecell_arena.core.accounts.account_ports import AccessTokenRecord, TokenKind, TokenSeenRecord
from freecell_arena.core.identity import hash_token

TOKEN_PREFIXES: dict[TokenKind, str] = {TokenKind.SESSION: "fcs_", TokenKind.BOT: "fcb_"}
LABEL_MAX_LENGTH = 100
SEEN_RESOLUTION_S = 300.0
"""`last_used_at` is rewritten at most this often per token (a hello per reconnect would be a write each)."""


class TokenRefusal(StrEnum):
    UNKNOWN = "unknown_token"
    REVOKED = "revoked_token"
    WRONG_KIND = "wrong_token_kind"


class TokenRefused(Exception):
    """A token that signs nobody in; `reason` is stable, `message` is for the person holding the token. A revoked
    token names its player (`player_id`): a ban revokes a saved player's tokens, and their hello says the ban."""

    def __init__(self, reason: TokenRefusal, message: str, player_id: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.player_id = player_id


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A new token: `secret` goes to its holder once and is never stored; `record` goes to the store."""

    secret: str
    record: AccessTokenRecord


def issue_token(kind: TokenKind, player_id: str, label: str, now: datetime) -> IssuedToken:
    secret = TOKEN_PREFIXES[kind] + secrets.token_urlsafe(32)
    record = AccessTokenRecord(hash_token(secret), player_id, kind, label[:LABEL_MAX_LENGTH], now)
    return IssuedToken(secret, record)


def token_kind(secret: str) -> TokenKind | None:
    """The kind a secret's prefix names; None for a player's original token (no prefix, `players.token_hash`)."""
    for kind, prefix in TOKEN_PREFIXES.items():
        if secret.startswith(prefix):
            return kind
    return None


def token_matches(secret: str, token_hash: str) -> bool:
    """Whether `secret` hashes to `token_hash`, compared in constant time."""
    return hmac.compare_digest(hash_token(secret).encode(), token_hash.encode())


def check_token(secret: str, found: AccessTokenRecord | None, kind: TokenKind) -> AccessTokenRecord:
    """The stored token `secret` opens (`found`: the store's row for `hash_token(secret)`), or `TokenRefused`."""
    if found is None or not token_matches(secret, found.token_hash):
        raise TokenRefused(TokenRefusal.UNKNOWN, "this token is not known here: sign in again")
    if found.revoked_at is not None:
        raise TokenRefused(TokenRefusal.REVOKED, "this token was revoked: sign in again", found.player_id)
    if found.kind != kind:
        raise TokenRefused(TokenRefusal.WRONG_KIND, f"this is a {found.kind} token, not a {kind} token")
    return found


def seen(record: AccessTokenRecord, now: datetime) -> TokenSeenRecord | None:
    """The record that moves `last_used_at` to now, unless it was moved less than `SEEN_RESOLUTION_S` ago."""
    last = record.last_used_at
    if last is not None and (now - last).total_seconds() < SEEN_RESOLUTION_S:
        return None
    return TokenSeenRecord(record.token_hash, now)
