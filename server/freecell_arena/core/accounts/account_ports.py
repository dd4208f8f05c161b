"""The boundary between accounts (saved players, claimed names, passkeys, tokens, bot accounts) and storage.

As in `freecell_arena.core.ports.records`, core describes what must become durable as plain records and reads plain
records back; `freecell_arena.store.accounts.AccountSqlStore` implements `AccountStore` on SQLAlchemy. Kept apart
from `ports.Store` so the game path (moves, the group-commit writer) does not grow: account changes are rare,
each is its own small transaction, and most must be refused as a whole when one row conflicts (a name taken by
another process a moment earlier).

Everything here is shared between processes through the database: a challenge issued by one process can be
answered on another, a token revoked on one is refused by all (closing the connections it holds elsewhere is
the adapter's part: see docs/accounts.md).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from freecell_arena.core.ports.records import PlayerRecord

PASSKEY_NAME_MAX_LENGTH = 64


def passkey_name(name: str) -> str:
    """A passkey's name as the player gives it ("Laptop", "Phone"): trimmed, cut to 64, never empty."""
    return name.strip()[:PASSKEY_NAME_MAX_LENGTH] or "Passkey"


class TokenKind(StrEnum):
    """What a secret token stands for: a signed-in browser (session) or a bot account's API access."""

    SESSION = "session"
    BOT = "bot"


class Ceremony(StrEnum):
    """The two WebAuthn ceremonies: create a passkey (registration), use one (authentication)."""

    REGISTRATION = "registration"
    AUTHENTICATION = "authentication"


class Conflict(StrEnum):
    """Why the store refused a batch of account changes (`AccountConflict`)."""

    NAME_TAKEN = "name_taken"
    """One of the name's keys is held by another player (look-alikes included)."""
    CREDENTIAL_TAKEN = "credential_taken"
    """That credential id is already registered."""
    SIGN_COUNT_CHANGED = "sign_count_changed"
    """The passkey was used meanwhile (another process, or a cloned authenticator): the count moved."""
    NOT_FOUND = "not_found"
    """The row to change is not there, or is not the player's (a passkey, a token, an account)."""
    ALREADY_SAVED = "already_saved"
    """The player already has an account."""
    DUPLICATE = "duplicate"
    """A row with that key is there already (a player id, a token hash, a challenge: random, so a bug)."""


class AccountConflict(Exception):
    """A batch of account changes the store refused as a whole: nothing of it was written."""

    def __init__(self, conflict: Conflict, message: str) -> None:
        super().__init__(message)
        self.conflict = conflict


@dataclass(frozen=True, slots=True)
class AccountRecord:
    """A saved player: one who holds at least one passkey. `user_handle` is the WebAuthn user id (32 random
    bytes, base64url), never the player id, which boards show: the handle is what an authenticator stores."""

    player_id: str
    user_handle: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NameClaimRecord:
    """A name taken for good (a saved player's or a bot's). Replaces the player's previous claim, if any.

    `key_hashes` are `freecell_arena.core.accounts.names.key_hashes(name)`: the store keeps them unique, so no other
    player can hold the name or a look-alike."""

    player_id: str
    name: str
    key_hashes: frozenset[str]
    at: datetime


@dataclass(frozen=True, slots=True)
class PasskeyRecord:
    """A WebAuthn credential of a saved player. `credential_id` is base64url; `public_key` the COSE key."""

    credential_id: str
    player_id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]
    name: str
    created_at: datetime
    last_used_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PasskeyUsedRecord:
    """A successful sign-in: the new sign count, written only over `previous_sign_count` (compare-and-set), so
    two uses of one count, on two processes or by a clone, cannot both pass."""

    credential_id: str
    previous_sign_count: int
    sign_count: int
    at: datetime


@dataclass(frozen=True, slots=True)
class PasskeyRenamedRecord:
    credential_id: str
    player_id: str
    name: str


@dataclass(frozen=True, slots=True)
class PasskeyRemovedRecord:
    credential_id: str
    player_id: str


@dataclass(frozen=True, slots=True)
class AccessTokenRecord:
    """A token as stored: only the SHA-256 of the secret. `label` says where it is used ("Firefox on a
    laptop", a bot token's note). `revoked_at` set: refused everywhere from then on."""

    token_hash: str
    player_id: str
    kind: TokenKind
    label: str
    created_at: datetime
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class TokenSeenRecord:
    """A token was used (a hello): the account page shows when each session was last seen."""

    token_hash: str
    at: datetime


@dataclass(frozen=True, slots=True)
class TokenRevokedRecord:
    """Revoke one token of the player's (refused unless it is theirs and still valid)."""

    token_hash: str
    player_id: str
    at: datetime


@dataclass(frozen=True, slots=True)
class TokensRevokedRecord:
    """Sign out everywhere: revoke every valid token of this kind of the player's but `keep` (the one in use)."""

    player_id: str
    kind: TokenKind
    at: datetime
    keep: str | None = None


@dataclass(frozen=True, slots=True)
class BotAccountRecord:
    """A bot account: its own player (`players.bot` true, written in the same batch), owned by a saved player.
    Its name is claimed like any saved name."""

    player_id: str
    owner_id: str
    description: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A WebAuthn challenge (base64url) waiting for its answer: single use (taken, never read), expiring.

    `player_id` is who began the ceremony: the registering player, or the player a sign-in must be for; None
    for a sign-in where the passkey says who it is (a discoverable credential)."""

    challenge: str
    ceremony: Ceremony
    player_id: str | None
    expires_at: datetime
    user_handle: str | None = None
    """For a registration: the WebAuthn user id the options carried. The response does not repeat it, and a
    first passkey's account must get the handle its authenticator stored."""


AccountChange = (
    PlayerRecord
    | AccountRecord
    | NameClaimRecord
    | PasskeyRecord
    | PasskeyUsedRecord
    | PasskeyRenamedRecord
    | PasskeyRemovedRecord
    | AccessTokenRecord
    | TokenSeenRecord
    | TokenRevokedRecord
    | TokensRevokedRecord
    | BotAccountRecord
    | ChallengeRecord
)


class AccountStore(Protocol):
    """Durable accounts as core sees them. Implemented by `freecell_arena.store.accounts.AccountSqlStore`."""

    async def write_accounts(self, changes: Sequence[AccountChange]) -> None:
        """Make `changes` durable in one transaction, in order; raise `AccountConflict` (nothing written)
        when one is refused."""

    async def take_challenge(self, challenge: str) -> ChallengeRecord | None:
        """Remove the challenge and return it: of two processes taking one challenge, one gets it."""

    async def forget_expired_challenges(self, now: datetime) -> int:
        """Delete the challenges that expired before `now` (nobody answered); how many."""

    async def account(self, player_id: str) -> AccountRecord | None: ...

    async def account_by_user_handle(self, user_handle: str) -> AccountRecord | None: ...

    async def claimed_name(self, player_id: str) -> str | None: ...

    async def claimed_names_of(self, player_ids: Collection[str]) -> dict[str, str]:
        """Which of these players hold a claimed name, and the name (boards mark claimed names): one query."""

    async def name_holder(self, key_hashes: Collection[str]) -> str | None:
        """The player holding any of these name keys, if one does."""

    async def passkey(self, credential_id: str) -> PasskeyRecord | None: ...

    async def passkeys_of(self, player_id: str) -> list[PasskeyRecord]: ...

    async def access_token(self, token_hash: str) -> AccessTokenRecord | None: ...

    async def tokens_of(self, player_id: str, kind: TokenKind) -> list[AccessTokenRecord]: ...

    async def bots_of(self, owner_id: str) -> list[BotAccountRecord]: ...
