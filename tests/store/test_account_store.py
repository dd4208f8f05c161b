"""AccountSqlStore on real SQLite files and the real PostgreSQL: what the schema itself guarantees when several
processes share the database (a name and its look-alikes, credential ids, revocations), and that a refused
batch writes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from alembic import command
from sqlalchemy import inspect, pool
from sqlalchemy.engine import Connection
from store_builders import T0, player

from freecell_arena.core.accounts.account_ports import (
    AccessTokenRecord,
    AccountConflict,
    AccountRecord,
    Ceremony,
    ChallengeRecord,
    Conflict,
    NameClaimRecord,
    PasskeyRecord,
    PasskeyRemovedRecord,
    PasskeyRenamedRecord,
    TokenKind,
    TokenRevokedRecord,
    TokensRevokedRecord,
)
from freecell_arena.core.accounts.names import key_hashes
from freecell_arena.store import current_revision, head_revision
from freecell_arena.store.accounts import AccountSqlStore
from freecell_arena.store.engine import WRITE_OPTION, create_engine
from freecell_arena.store.migrations import alembic_config

ACCOUNT_TABLES = {"accounts", "claimed_names", "name_keys", "passkeys", "access_tokens", "bot_accounts",
                  "webauthn_challenges"}  # fmt: skip


@pytest.fixture
async def accounts(database_url: str) -> AsyncIterator[AccountSqlStore]:
    store = AccountSqlStore.from_url(database_url)
    yield store
    await store.close()


def claim(n: int, name: str) -> NameClaimRecord:
    return NameClaimRecord(player(n).player_id, name, key_hashes(name), T0)


def passkey(n: int, credential_id: str) -> PasskeyRecord:
    return PasskeyRecord(credential_id, player(n).player_id, b"\xa5\x01\x02", 0, ("usb",), "Key", T0)


def token(n: int, kind: TokenKind, suffix: str) -> AccessTokenRecord:
    return AccessTokenRecord(f"{n:02x}{suffix}".ljust(64, "0"), player(n).player_id, kind, "label", T0)


async def saved_players(store: AccountSqlStore, *numbers: int) -> None:
    for n in numbers:
        await store.write_accounts([player(n), AccountRecord(player(n).player_id, f"handle-{n}", T0)])


async def test_a_name_and_its_look_alikes_go_to_one_of_two_racing_processes(
    accounts: AccountSqlStore, database_url: str
) -> None:
    await saved_players(accounts, 1, 2)
    other_process = AccountSqlStore.from_url(database_url)
    try:
        results = await asyncio.gather(
            accounts.write_accounts([claim(1, "Alice")]),
            other_process.write_accounts([claim(2, "\u0410LICE")]),  # Cyrillic A, capitals
            return_exceptions=True,
        )
    finally:
        await other_process.close()
    refused = [result for result in results if isinstance(result, AccountConflict)]
    assert len(refused) == 1 and refused[0].conflict is Conflict.NAME_TAKEN, results
    winner = player(1 if results[0] is None else 2).player_id
    assert await accounts.name_holder(key_hashes("alice")) == winner
    loser = player(2 if results[0] is None else 1).player_id
    assert await accounts.claimed_name(loser) is None  # the refused batch wrote nothing, not even the name row


async def test_a_new_claim_replaces_the_old_one_and_a_refused_one_keeps_it(accounts: AccountSqlStore) -> None:
    await saved_players(accounts, 1, 2)
    await accounts.write_accounts([claim(1, "Alice"), claim(2, "Bob")])
    await accounts.write_accounts([claim(1, "Alicia")])
    assert await accounts.claimed_name(player(1).player_id) == "Alicia"
    assert await accounts.name_holder(key_hashes("alice")) is None  # free again
    with pytest.raises(AccountConflict):
        await accounts.write_accounts([claim(1, "B0B")])
    assert await accounts.claimed_name(player(1).player_id) == "Alicia"
    assert await accounts.name_holder(key_hashes("Alicia")) == player(1).player_id
    everyone = [player(n).player_id for n in (1, 2, 3)]
    assert await accounts.claimed_names_of(everyone) == {player(1).player_id: "Alicia", player(2).player_id: "Bob"}
    assert await accounts.claimed_names_of([]) == {}


async def test_passkeys_are_renamed_and_removed_by_their_owner_only(accounts: AccountSqlStore) -> None:
    await saved_players(accounts, 1, 2)
    await accounts.write_accounts([passkey(1, "cred-1")])
    with pytest.raises(AccountConflict) as taken:
        await accounts.write_accounts([passkey(2, "cred-1")])
    assert taken.value.conflict is Conflict.CREDENTIAL_TAKEN
    for change in (PasskeyRenamedRecord("cred-1", player(2).player_id, "Mine"),
                   PasskeyRemovedRecord("cred-1", player(2).player_id)):  # fmt: skip
        with pytest.raises(AccountConflict) as not_theirs:
            await accounts.write_accounts([change])
        assert not_theirs.value.conflict is Conflict.NOT_FOUND
    await accounts.write_accounts([PasskeyRenamedRecord("cred-1", player(1).player_id, "Laptop")])
    stored = await accounts.passkey("cred-1")
    assert stored is not None and (stored.name, stored.public_key, stored.transports) == (
        "Laptop",
        b"\xa5\x01\x02",
        ("usb",),
    )
    await accounts.write_accounts([PasskeyRemovedRecord("cred-1", player(1).player_id)])
    assert await accounts.passkey("cred-1") is None


async def test_revoking_one_token_or_all_but_the_one_in_use(accounts: AccountSqlStore) -> None:
    await saved_players(accounts, 1, 2)
    here, phone, tablet = (token(1, TokenKind.SESSION, s) for s in ("a", "b", "c"))
    bot = token(1, TokenKind.BOT, "d")
    other = token(2, TokenKind.SESSION, "e")
    await accounts.write_accounts([here, phone, tablet, bot, other])
    with pytest.raises(AccountConflict):  # another player's token
        await accounts.write_accounts([TokenRevokedRecord(other.token_hash, player(1).player_id, T0)])
    await accounts.write_accounts([TokenRevokedRecord(phone.token_hash, player(1).player_id, T0)])
    with pytest.raises(AccountConflict):  # already revoked
        await accounts.write_accounts([TokenRevokedRecord(phone.token_hash, player(1).player_id, T0)])
    later = T0 + timedelta(minutes=1)
    await accounts.write_accounts(
        [TokensRevokedRecord(player(1).player_id, TokenKind.SESSION, later, keep=here.token_hash)]
    )
    sessions = {t.token_hash: t.revoked_at for t in await accounts.tokens_of(player(1).player_id, TokenKind.SESSION)}
    assert sessions == {here.token_hash: None, phone.token_hash: T0, tablet.token_hash: later}
    assert (await accounts.access_token(bot.token_hash)).revoked_at is None  # type: ignore[union-attr]
    assert (await accounts.access_token(other.token_hash)).revoked_at is None  # type: ignore[union-attr]


async def test_challenges_are_single_use_and_expired_ones_are_swept(accounts: AccountSqlStore) -> None:
    await saved_players(accounts, 1)
    fresh = ChallengeRecord("fresh", Ceremony.REGISTRATION, player(1).player_id, T0 + timedelta(minutes=5), "h")
    stale = ChallengeRecord("stale", Ceremony.AUTHENTICATION, None, T0 - timedelta(seconds=1))
    await accounts.write_accounts([fresh, stale])
    assert await accounts.forget_expired_challenges(T0) == 1
    assert await accounts.take_challenge("stale") is None
    assert await accounts.take_challenge("fresh") == fresh
    assert await accounts.take_challenge("fresh") is None


async def test_a_batch_with_one_refused_change_writes_nothing(accounts: AccountSqlStore) -> None:
    await saved_players(accounts, 1, 2)
    await accounts.write_accounts([claim(1, "Alice")])
    with pytest.raises(AccountConflict):
        await accounts.write_accounts([passkey(2, "cred-2"), token(2, TokenKind.SESSION, "f"), claim(2, "alice")])
    assert await accounts.passkeys_of(player(2).player_id) == []
    assert await accounts.tokens_of(player(2).player_id, TokenKind.SESSION) == []
    with pytest.raises(AccountConflict) as again:
        await accounts.write_accounts([AccountRecord(player(1).player_id, "handle-x", T0)])
    assert again.value.conflict is Conflict.ALREADY_SAVED


async def test_migration_0006_goes_down_to_0005_and_up_again(database_url: str) -> None:
    """As `migrate` runs migrations (one connection, one transaction), down to 0005 and back to head."""
    config = alembic_config(database_url)
    engine = create_engine(database_url, foreign_keys=False, poolclass=pool.NullPool)

    def down_and_up(sync: Connection) -> tuple[set[str], set[str]]:
        config.attributes["connection"] = sync
        command.downgrade(config, "0005")
        between = set(inspect(sync).get_table_names())
        command.upgrade(config, "head")
        return between, set(inspect(sync).get_table_names())

    try:
        async with engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():
                between, after = await connection.run_sync(down_and_up)
    finally:
        await engine.dispose()
    assert not between & ACCOUNT_TABLES and "players" in between
    assert after >= ACCOUNT_TABLES
    assert await current_revision(database_url) == head_revision()
