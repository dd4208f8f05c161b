"""Saved players, claimed names and bot accounts as records: what the adapter writes for each account step.

- Saving a player (its first passkey, `save_player`): the account, the claim on the player's name, and a
  session for the token the browser already holds, so that "sign out everywhere" ends that browser too.
- Claiming a name (`claim_name`): refused when another player holds it or a look-alike (`core.accounts.names`); the
  store's unique keys make the final word, so two processes cannot both succeed.
- A bot account (`new_bot`): a player of its own, marked bot by the server, its name claimed, and an API token
  shown once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from freecell_arena.core.accounts.account_ports import (
    AccessTokenRecord,
    AccountChange,
    AccountRecord,
    BotAccountRecord,
    NameClaimRecord,
    PasskeyRecord,
    PasskeyRemovedRecord,
    PasskeyRenamedRecord,
    TokenKind,
    TokenRevokedRecord,
    TokensRevokedRecord,
    passkey_name,
)
from freecell_arena.core.accounts.names import key_hashes
from freecell_arena.core.accounts.tokens import IssuedToken, issue_token
from freecell_arena.core.identity import hash_token, new_id, new_token
from freecell_arena.core.ports.records import PlayerRecord

BOT_DESCRIPTION_MAX_LENGTH = 500
FIRST_SESSION_LABEL = "the browser that saved this player"


class AccountRefusal(StrEnum):
    NAME_TAKEN = "name_taken"
    NOT_SAVED = "not_saved"
    NOT_YOURS = "not_yours"
    LAST_PASSKEY = "last_passkey"


class AccountRefused(Exception):
    def __init__(self, reason: AccountRefusal, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def check_name_free(name: str, player_id: str, holder: str | None) -> None:
    """Refuse `name` for `player_id` when `holder` (the store's `name_holder(key_hashes(name))`) is another."""
    if holder is not None and holder != player_id:
        raise AccountRefused(AccountRefusal.NAME_TAKEN, f"the name {name!r} (or one that looks like it) is taken")


def claim_name(player_id: str, name: str, holder: str | None, now: datetime) -> NameClaimRecord:
    check_name_free(name, player_id, holder)
    return NameClaimRecord(player_id, name, key_hashes(name), now)


def save_player(
    player: PlayerRecord,
    passkey: PasskeyRecord,
    *,
    account: AccountRecord | None,
    user_handle: str,
    holder: str | None,
    now: datetime,
) -> list[AccountChange]:
    """The records of a verified registration: the passkey, and for a first one the account, the name claim and
    a session for the token the player already has (`players.token_hash`)."""
    if account is not None:
        return [passkey]
    claim = claim_name(player.player_id, player.display_name, holder, now)
    session = AccessTokenRecord(player.token_hash, player.player_id, TokenKind.SESSION, FIRST_SESSION_LABEL, now)
    return [AccountRecord(player.player_id, user_handle, now), claim, passkey, session]


def new_session(account: AccountRecord | None, player_id: str, label: str, now: datetime) -> IssuedToken:
    """A session token for a browser that just signed in with a passkey of `player_id`."""
    if account is None:
        raise AccountRefused(AccountRefusal.NOT_SAVED, "this player is not saved with a passkey")
    return issue_token(TokenKind.SESSION, player_id, label, now)


@dataclass(frozen=True, slots=True)
class NewBot:
    player_id: str
    token: IssuedToken
    changes: list[AccountChange]


def new_bot(owner: AccountRecord | None, name: str, description: str, holder: str | None, now: datetime) -> NewBot:
    """A bot account of `owner`'s: its player (bot by the server's word), its claimed name, its first token.

    The bot's `players.token_hash` is the hash of a secret nobody keeps: a bot signs in only with its API
    token, which can be revoked."""
    if owner is None:
        raise AccountRefused(AccountRefusal.NOT_SAVED, "save your player with a passkey before creating bots")
    bot_id = new_id("p")
    player = PlayerRecord(bot_id, name, hash_token(new_token()), True, now)
    claim = claim_name(bot_id, name, holder, now)
    bot = BotAccountRecord(bot_id, owner.player_id, description.strip()[:BOT_DESCRIPTION_MAX_LENGTH], now)
    token = issue_token(TokenKind.BOT, bot_id, f"bot {name}", now)
    return NewBot(bot_id, token, [player, claim, bot, token.record])


# ------------------------------------------------------------------ the account page


def _own_passkey(player_id: str, credential_id: str, passkeys: Sequence[PasskeyRecord]) -> PasskeyRecord:
    for passkey in passkeys:
        if passkey.credential_id == credential_id and passkey.player_id == player_id:
            return passkey
    raise AccountRefused(AccountRefusal.NOT_YOURS, "no such passkey of yours")


def rename_passkey(
    player_id: str, credential_id: str, name: str, passkeys: Sequence[PasskeyRecord]
) -> PasskeyRenamedRecord:
    """`passkeys` are the player's (the store's `passkeys_of`)."""
    _own_passkey(player_id, credential_id, passkeys)
    return PasskeyRenamedRecord(credential_id, player_id, passkey_name(name))


def remove_passkey(player_id: str, credential_id: str, passkeys: Sequence[PasskeyRecord]) -> PasskeyRemovedRecord:
    """Refused for the last one: a saved player without a passkey could never sign in on another browser again
    (add the new passkey first, then remove the old)."""
    _own_passkey(player_id, credential_id, passkeys)
    if len(passkeys) == 1:
        raise AccountRefused(AccountRefusal.LAST_PASSKEY, "add another passkey before removing your last one")
    return PasskeyRemovedRecord(credential_id, player_id)


@dataclass(frozen=True, slots=True)
class Revocation:
    """What to write, and the token hashes it revokes: the adapter closes their connections, on every process."""

    record: TokenRevokedRecord | TokensRevokedRecord
    token_hashes: list[str]


def revoke_token(owner_id: str, token: AccessTokenRecord | None, bot_owner: str | None, now: datetime) -> Revocation:
    """Revoke a session of `owner_id`'s, or a token of a bot `owner_id` owns (`bot_owner` is the owner of the
    token's player when that player is a bot account)."""
    if token is None or token.revoked_at is not None or owner_id not in (token.player_id, bot_owner):
        raise AccountRefused(AccountRefusal.NOT_YOURS, "no such valid token of yours")
    return Revocation(TokenRevokedRecord(token.token_hash, token.player_id, now), [token.token_hash])


def sign_out_everywhere(
    player_id: str, keep: str | None, sessions: Sequence[AccessTokenRecord], now: datetime
) -> Revocation:
    """Revoke every valid session of the player's but `keep` (the hash of the one in use; None: this one too)."""
    revoked = [s.token_hash for s in sessions if s.revoked_at is None and s.token_hash != keep]
    return Revocation(TokensRevokedRecord(player_id, TokenKind.SESSION, now, keep), revoked)


def bot_token(owner_id: str, bot: BotAccountRecord | None, now: datetime) -> IssuedToken:
    """Another API token for a bot `owner_id` owns (shown once; the old ones stay valid until revoked)."""
    if bot is None or bot.owner_id != owner_id:
        raise AccountRefused(AccountRefusal.NOT_YOURS, "no such bot of yours")
    return issue_token(TokenKind.BOT, bot.player_id, "bot token", now)
