"""`AccountSqlStore`: `freecell_arena.core.accounts.account_ports.AccountStore` on SQLAlchemy Core (SQLite and
PostgreSQL).

Account changes are rare and small, so they go through SQLAlchemy in their own transactions, not through the
game path's group-commit writer. What keeps processes that share the database in agreement is in the schema
and the statements, not in memory:
- a name and its look-alikes: the primary key on `name_keys.key_hash`;
- a credential id: the primary key on `passkeys.credential_id`;
- a passkey's sign count: written only over the count it was read at (a compare-and-set);
- a challenge: taken by `DELETE ... RETURNING`, which one transaction wins;
- a revoked token: `revoked_at` is read on every sign-in.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.elements import BindParameter

from freecell_arena.core.accounts.account_ports import (
    AccessTokenRecord,
    AccountChange,
    AccountConflict,
    AccountRecord,
    BotAccountRecord,
    Ceremony,
    ChallengeRecord,
    Conflict,
    NameClaimRecord,
    PasskeyRecord,
    PasskeyRemovedRecord,
    PasskeyRenamedRecord,
    PasskeyUsedRecord,
    TokenKind,
    TokenRevokedRecord,
    TokenSeenRecord,
    TokensRevokedRecord,
)
from freecell_arena.core.ports.records import PlayerRecord
from freecell_arena.store.engine import WRITE_OPTION, create_engine
from freecell_arena.store.models import (
    AccessToken,
    Account,
    BotAccount,
    ClaimedName,
    NameKey,
    Passkey,
    Player,
    RetiredName,
    WebauthnChallenge,
    table_of,
)

accounts = table_of(Account)
claimed_names = table_of(ClaimedName)
name_keys = table_of(NameKey)
passkeys = table_of(Passkey)
access_tokens = table_of(AccessToken)
bot_accounts = table_of(BotAccount)
challenges = table_of(WebauthnChallenge)
players = table_of(Player)
retired = table_of(RetiredName)
HASHES: BindParameter[list[str]] = bindparam("hashes", expanding=True)
NAME_HOLDER = select(name_keys.c.player_id).where(name_keys.c.key_hash.in_(HASHES)).limit(1)
RETIRED_KEY = select(retired.c.key_hash).where(retired.c.key_hash.in_(HASHES)).limit(1)
"""Built once: every new player's hello asks them (`name_holder`), and building the statement each time cost
CPU and left about 2 KiB a call in SQLAlchemy's memory (docs/performance.md, memory per idle connection)."""
RETIRED = "retired"
"""Who holds a retired name (`name_holder`): no player."""


class AccountSqlStore:
    """Accounts on an engine of `freecell_arena.store.engine.create_engine` (a `SqlStore`'s `engine` does)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    @classmethod
    def from_url(cls, url: str, **engine_options: Any) -> AccountSqlStore:
        return cls(create_engine(url, **engine_options))

    async def close(self) -> None:
        await self.engine.dispose()

    # ------------------------------------------------------------------ writing

    async def write_accounts(self, changes: Sequence[AccountChange]) -> None:
        """All of `changes` in one transaction, in order, or none of them (`AccountConflict`)."""
        if not changes:
            return
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():
                for change in changes:
                    await _WRITERS[type(change)](connection, change)

    async def take_challenge(self, challenge: str) -> ChallengeRecord | None:
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():
                statement = delete(challenges).where(challenges.c.challenge == challenge).returning(*challenges.c)
                row = (await connection.execute(statement)).first()
        if row is None:
            return None
        return ChallengeRecord(row.challenge, Ceremony(row.ceremony), row.player_id, row.expires_at, row.user_handle)

    async def forget_expired_challenges(self, now: datetime) -> int:
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():
                result = await connection.execute(delete(challenges).where(challenges.c.expires_at < now))
        return int(result.rowcount)

    # ------------------------------------------------------------------ reading

    async def _rows(self, statement: Any) -> list[Any]:
        async with self.engine.connect() as connection:
            return list((await connection.execute(statement)).all())

    async def _first(self, statement: Any) -> Any:
        rows = await self._rows(statement.limit(1))
        return rows[0] if rows else None

    async def account(self, player_id: str) -> AccountRecord | None:
        row = await self._first(select(accounts).where(accounts.c.player_id == player_id))
        return AccountRecord(row.player_id, row.user_handle, row.created_at) if row else None

    async def account_by_user_handle(self, user_handle: str) -> AccountRecord | None:
        row = await self._first(select(accounts).where(accounts.c.user_handle == user_handle))
        return AccountRecord(row.player_id, row.user_handle, row.created_at) if row else None

    async def claimed_name(self, player_id: str) -> str | None:
        row = await self._first(select(claimed_names.c.name).where(claimed_names.c.player_id == player_id))
        return str(row.name) if row else None

    async def claimed_names_of(self, player_ids: Collection[str]) -> dict[str, str]:
        if not player_ids:
            return {}
        query = select(claimed_names.c.player_id, claimed_names.c.name).where(
            claimed_names.c.player_id.in_(list(player_ids))
        )
        return {row.player_id: row.name for row in await self._rows(query)}

    async def name_holder(self, key_hashes: Collection[str]) -> str | None:
        if not key_hashes:
            return None
        hashes = {"hashes": list(key_hashes)}
        async with self.engine.connect() as connection:
            row = (await connection.execute(NAME_HOLDER, hashes)).first()
            is_retired = row is None and (await connection.execute(RETIRED_KEY, hashes)).first() is not None
        if is_retired:
            return RETIRED  # a name a moderator replaced: nobody's, ever (docs/moderation.md)
        return str(row.player_id) if row else None

    async def passkey(self, credential_id: str) -> PasskeyRecord | None:
        row = await self._first(select(passkeys).where(passkeys.c.credential_id == credential_id))
        return _passkey(row) if row else None

    async def passkeys_of(self, player_id: str) -> list[PasskeyRecord]:
        query = select(passkeys).where(passkeys.c.player_id == player_id).order_by(passkeys.c.created_at)
        return [_passkey(row) for row in await self._rows(query)]

    async def access_token(self, token_hash: str) -> AccessTokenRecord | None:
        row = await self._first(select(access_tokens).where(access_tokens.c.token_hash == token_hash))
        return _token(row) if row else None

    async def tokens_of(self, player_id: str, kind: TokenKind) -> list[AccessTokenRecord]:
        query = (
            select(access_tokens)
            .where(access_tokens.c.player_id == player_id, access_tokens.c.kind == kind.value)
            .order_by(access_tokens.c.created_at, access_tokens.c.token_hash)
        )
        return [_token(row) for row in await self._rows(query)]

    async def bots_of(self, owner_id: str) -> list[BotAccountRecord]:
        query = select(bot_accounts).where(bot_accounts.c.owner_id == owner_id).order_by(bot_accounts.c.created_at)
        return [BotAccountRecord(r.player_id, r.owner_id, r.description, r.created_at) for r in await self._rows(query)]


# --- rows -> records -------------------------------------------------------------------------------------


def _passkey(row: Any) -> PasskeyRecord:
    transports = tuple(name for name in row.transports.split(",") if name)
    return PasskeyRecord(
        row.credential_id, row.player_id, bytes(row.public_key), row.sign_count, transports, row.name,
        row.created_at, row.last_used_at,
    )  # fmt: skip


def _token(row: Any) -> AccessTokenRecord:
    return AccessTokenRecord(
        row.token_hash, row.player_id, TokenKind(row.kind), row.label, row.created_at, row.last_used_at,
        row.revoked_at,
    )  # fmt: skip


# --- records -> statements -------------------------------------------------------------------------------


async def _insert(connection: AsyncConnection, table: Table, row: dict[str, Any], conflict: Conflict) -> None:
    try:
        await connection.execute(insert(table), [row])
    except IntegrityError as error:
        raise AccountConflict(conflict, f"{table.name}: refused by the database ({error.orig})") from error


async def _update_one(connection: AsyncConnection, statement: Any, conflict: Conflict, message: str) -> None:
    if (await connection.execute(statement)).rowcount != 1:
        raise AccountConflict(conflict, message)


async def _write_player(connection: AsyncConnection, record: PlayerRecord) -> None:
    row = {"id": record.player_id, "display_name": record.display_name, "token_hash": record.token_hash,
           "bot": record.bot, "created_at": record.created_at}  # fmt: skip
    await _insert(connection, players, row, Conflict.DUPLICATE)


async def _write_account(connection: AsyncConnection, record: AccountRecord) -> None:
    row = {"player_id": record.player_id, "user_handle": record.user_handle, "created_at": record.created_at}
    await _insert(connection, accounts, row, Conflict.ALREADY_SAVED)


async def _write_name_claim(connection: AsyncConnection, record: NameClaimRecord) -> None:
    """Replace the player's claim: old keys out, the name in, the new keys in (a key held by anyone else fails
    the whole transaction, so the old claim stays too)."""
    await connection.execute(delete(name_keys).where(name_keys.c.player_id == record.player_id))
    await connection.execute(delete(claimed_names).where(claimed_names.c.player_id == record.player_id))
    row = {"player_id": record.player_id, "name": record.name, "claimed_at": record.at}
    await _insert(connection, claimed_names, row, Conflict.NOT_FOUND)
    for key_hash in sorted(record.key_hashes):
        await _insert(connection, name_keys, {"key_hash": key_hash, "player_id": record.player_id}, Conflict.NAME_TAKEN)


async def _write_passkey(connection: AsyncConnection, record: PasskeyRecord) -> None:
    row = {"credential_id": record.credential_id, "player_id": record.player_id, "public_key": record.public_key,
           "sign_count": record.sign_count, "transports": ",".join(record.transports), "name": record.name,
           "created_at": record.created_at, "last_used_at": record.last_used_at}  # fmt: skip
    await _insert(connection, passkeys, row, Conflict.CREDENTIAL_TAKEN)


async def _write_passkey_used(connection: AsyncConnection, record: PasskeyUsedRecord) -> None:
    statement = (
        update(passkeys)
        .where(passkeys.c.credential_id == record.credential_id, passkeys.c.sign_count == record.previous_sign_count)
        .values(sign_count=record.sign_count, last_used_at=record.at)
    )
    message = "the passkey was used meanwhile: sign in again"
    await _update_one(connection, statement, Conflict.SIGN_COUNT_CHANGED, message)


async def _write_passkey_renamed(connection: AsyncConnection, record: PasskeyRenamedRecord) -> None:
    statement = (
        update(passkeys)
        .where(passkeys.c.credential_id == record.credential_id, passkeys.c.player_id == record.player_id)
        .values(name=record.name)
    )
    await _update_one(connection, statement, Conflict.NOT_FOUND, "no such passkey of yours")


async def _write_passkey_removed(connection: AsyncConnection, record: PasskeyRemovedRecord) -> None:
    statement = delete(passkeys).where(
        passkeys.c.credential_id == record.credential_id, passkeys.c.player_id == record.player_id
    )
    await _update_one(connection, statement, Conflict.NOT_FOUND, "no such passkey of yours")


async def _write_token(connection: AsyncConnection, record: AccessTokenRecord) -> None:
    row = {"token_hash": record.token_hash, "player_id": record.player_id, "kind": record.kind.value,
           "label": record.label, "created_at": record.created_at, "last_used_at": record.last_used_at,
           "revoked_at": record.revoked_at}  # fmt: skip
    await _insert(connection, access_tokens, row, Conflict.DUPLICATE)


async def _write_token_seen(connection: AsyncConnection, record: TokenSeenRecord) -> None:
    token = access_tokens.c.token_hash == record.token_hash
    statement = update(access_tokens).where(token).values(last_used_at=record.at)
    await _update_one(connection, statement, Conflict.NOT_FOUND, "no such token")


async def _write_token_revoked(connection: AsyncConnection, record: TokenRevokedRecord) -> None:
    statement = (
        update(access_tokens)
        .where(
            access_tokens.c.token_hash == record.token_hash,
            access_tokens.c.player_id == record.player_id,
            access_tokens.c.revoked_at.is_(None),
        )
        .values(revoked_at=record.at)
    )
    await _update_one(connection, statement, Conflict.NOT_FOUND, "no such valid token of yours")


async def _write_tokens_revoked(connection: AsyncConnection, record: TokensRevokedRecord) -> None:
    conditions = [
        access_tokens.c.player_id == record.player_id,
        access_tokens.c.kind == record.kind.value,
        access_tokens.c.revoked_at.is_(None),
    ]
    if record.keep is not None:
        conditions.append(access_tokens.c.token_hash != record.keep)
    await connection.execute(update(access_tokens).where(*conditions).values(revoked_at=record.at))


async def _write_bot(connection: AsyncConnection, record: BotAccountRecord) -> None:
    row = {"player_id": record.player_id, "owner_id": record.owner_id, "description": record.description,
           "created_at": record.created_at}  # fmt: skip
    await _insert(connection, bot_accounts, row, Conflict.NOT_FOUND)


async def _write_challenge(connection: AsyncConnection, record: ChallengeRecord) -> None:
    row = {"challenge": record.challenge, "ceremony": record.ceremony.value, "player_id": record.player_id,
           "expires_at": record.expires_at, "user_handle": record.user_handle}  # fmt: skip
    await _insert(connection, challenges, row, Conflict.DUPLICATE)


_WRITERS: dict[type, Callable[[AsyncConnection, Any], Any]] = {
    PlayerRecord: _write_player,
    AccountRecord: _write_account,
    NameClaimRecord: _write_name_claim,
    PasskeyRecord: _write_passkey,
    PasskeyUsedRecord: _write_passkey_used,
    PasskeyRenamedRecord: _write_passkey_renamed,
    PasskeyRemovedRecord: _write_passkey_removed,
    AccessTokenRecord: _write_token,
    TokenSeenRecord: _write_token_seen,
    TokenRevokedRecord: _write_token_revoked,
    TokensRevokedRecord: _write_tokens_revoked,
    BotAccountRecord: _write_bot,
    ChallengeRecord: _write_challenge,
}
