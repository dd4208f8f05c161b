"""Tokens (shown once, stored hashed, compared in constant time, revocable), the attempt limiter, and the
relying party derived from FREECELL_ARENA_PUBLIC_URL."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from account_support import T0, ManualClock
from pydantic import ValidationError

from freecell_arena.core.accounts.account_ports import TokenKind
from freecell_arena.core.accounts.attempts import AttemptLimiter
from freecell_arena.core.accounts.relying_party import relying_party
from freecell_arena.core.accounts.steps import AccountRefusal, AccountRefused, revoke_token
from freecell_arena.core.accounts.tokens import (
    SEEN_RESOLUTION_S,
    TokenRefusal,
    TokenRefused,
    check_token,
    issue_token,
    seen,
    token_kind,
    token_matches,
)
from freecell_arena.core.identity import hash_token
from freecell_arena.settings import Settings

# ------------------------------------------------------------------ tokens


def test_a_token_is_random_prefixed_and_stored_only_hashed() -> None:
    first = issue_token(TokenKind.SESSION, "p_1", "Phone", T0)
    second = issue_token(TokenKind.SESSION, "p_1", "Phone", T0)
    assert first.secret != second.secret
    assert first.secret.startswith("fcs_") and len(first.secret) == 4 + 43  # 256 bits of base64url
    assert first.record.token_hash == hash_token(first.secret)
    assert first.secret not in repr(first.record)
    assert token_kind(issue_token(TokenKind.BOT, "p_2", "bot", T0).secret) is TokenKind.BOT
    assert token_kind("an-original-player-token") is None


def test_token_matches_only_its_own_hash() -> None:
    issued = issue_token(TokenKind.BOT, "p_1", "bot", T0)
    assert token_matches(issued.secret, issued.record.token_hash)
    assert not token_matches(issued.secret + "x", issued.record.token_hash)
    assert not token_matches(issued.secret, "0" * 64)


def test_check_token_refuses_unknown_revoked_and_wrong_kind() -> None:
    issued = issue_token(TokenKind.SESSION, "p_1", "Phone", T0)
    assert check_token(issued.secret, issued.record, TokenKind.SESSION) is issued.record
    cases = [
        (None, TokenKind.SESSION, TokenRefusal.UNKNOWN),
        (replace(issued.record, token_hash="0" * 64), TokenKind.SESSION, TokenRefusal.UNKNOWN),  # not its row
        (replace(issued.record, revoked_at=T0), TokenKind.SESSION, TokenRefusal.REVOKED),
        (issued.record, TokenKind.BOT, TokenRefusal.WRONG_KIND),
    ]
    for found, kind, reason in cases:
        with pytest.raises(TokenRefused) as refused:
            check_token(issued.secret, found, kind)
        assert refused.value.reason is reason


def test_only_the_owner_revokes_and_only_once() -> None:
    record = issue_token(TokenKind.SESSION, "p_1", "Phone", T0).record
    assert revoke_token("p_1", record, None, T0).token_hashes == [record.token_hash]
    bot = issue_token(TokenKind.BOT, "p_bot", "bot", T0).record
    assert revoke_token("p_1", bot, "p_1", T0).token_hashes == [bot.token_hash]  # a bot of p_1's
    for owner, token, bot_owner in [("p_2", record, None), ("p_1", replace(record, revoked_at=T0), None),
                                    ("p_2", bot, "p_1"), ("p_1", None, None)]:  # fmt: skip
        with pytest.raises(AccountRefused) as refused:
            revoke_token(owner, token, bot_owner, T0)
        assert refused.value.reason is AccountRefusal.NOT_YOURS


def test_last_seen_is_written_at_most_every_few_minutes() -> None:
    record = issue_token(TokenKind.SESSION, "p_1", "Phone", T0).record
    assert seen(record, T0) is not None
    recently = replace(record, last_used_at=T0)
    assert seen(recently, T0 + timedelta(seconds=SEEN_RESOLUTION_S - 1)) is None
    assert seen(recently, T0 + timedelta(seconds=SEEN_RESOLUTION_S)) is not None


# ------------------------------------------------------------------ attempts


def test_the_limiter_allows_a_burst_then_the_rate_per_key() -> None:
    clock = ManualClock()
    limiter = AttemptLimiter(clock, per_minute=6, burst=2)
    assert [limiter.allow("a"), limiter.allow("a"), limiter.allow("a")] == [True, True, False]
    assert limiter.allow("b")
    assert limiter.retry_after("a") == timedelta(seconds=10)
    clock.advance(9)
    assert not limiter.allow("a")
    clock.advance(1)
    assert limiter.allow("a")
    clock.advance(60)
    limiter.sweep()
    assert len(limiter) == 0
    with pytest.raises(ValueError):
        AttemptLimiter(clock, per_minute=0, burst=1)


# ------------------------------------------------------------------ the relying party


@pytest.mark.parametrize(
    ("url", "rp_id", "origin"),
    [
        (None, "localhost", "http://localhost:8765"),
        ("https://arena.example.org", "arena.example.org", "https://arena.example.org"),
        ("https://arena.example.org:8443/", "arena.example.org", "https://arena.example.org:8443"),
        ("http://localhost:9000", "localhost", "http://localhost:9000"),
        ("http://127.0.0.1:8765", "localhost", "http://localhost:8765"),
    ],
)
def test_the_relying_party_comes_from_the_public_url(url: str | None, rp_id: str, origin: str) -> None:
    rp = relying_party(url, 8765)
    assert (rp.rp_id, rp.origins) == (rp_id, (origin,))


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://arena.example.org", "only on localhost"),
        ("https://192.0.2.7", "IP address"),
        ("https://[2001:db8::1]", "IP address"),
        ("https://arena.example.org/play", "no path"),
        ("ftp://arena.example.org", "http(s)://"),
        ("arena.example.org", "http(s)://"),
    ],
)
def test_a_public_url_passkeys_cannot_use_is_refused_with_the_reason(url: str, says: str) -> None:
    with pytest.raises(ValueError, match=says if says != "http(s)://" else r"http\(s\)://"):
        relying_party(url, 8765)
    with pytest.raises(ValidationError):
        Settings(public_url=url)


def test_settings_default_to_localhost_on_the_port_listened_on() -> None:
    assert Settings().process.public_url is None
    assert Settings(port=9001).process.relying_party().origins == ("http://localhost:9001",)
    assert Settings(port=0).process.relying_party(bound_port=41234).origins == ("http://localhost:41234",)
    assert Settings(public_url="https://arena.example.org/").process.public_url == "https://arena.example.org"
