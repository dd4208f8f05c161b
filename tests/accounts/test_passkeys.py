"""The passkey ceremonies end to end with real cryptography and a real store, on SQLite and PostgreSQL.

A software authenticator (tests/accounts/authenticator.py) answers the server's options with a genuine "none"
attestation and genuine ECDSA P-256 assertions. Each adversarial answer must be refused with its own reason,
and leave the store exactly as it was, but for the challenge it spent (single use).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from account_support import ORIGIN, T0, ManualClock
from authenticator import SoftwareAuthenticator
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select

from freecell_arena.core.accounts.account_ports import (
    AccountConflict,
    Conflict,
    PasskeyUsedRecord,
    TokenKind,
    TokensRevokedRecord,
)
from freecell_arena.core.accounts.passkeys import CHALLENGE_TTL, PasskeyRefusal, PasskeyRefused
from freecell_arena.core.accounts.steps import FIRST_SESSION_LABEL, AccountRefusal, AccountRefused
from freecell_arena.core.accounts.tokens import TokenRefusal, TokenRefused
from freecell_arena.core.identity import hash_token, new_id, new_token
from freecell_arena.core.ports.records import PlayerRecord
from freecell_arena.net.accounts import AccountService, HelloIdentity
from freecell_arena.store.accounts import AccountSqlStore
from freecell_arena.store.models import metadata

ACCOUNT_TABLES = ("players", "accounts", "claimed_names", "name_keys", "passkeys", "access_tokens", "bot_accounts")


def a_player(name: str) -> tuple[PlayerRecord, str]:
    token = new_token()
    return PlayerRecord(new_id("p"), name, hash_token(token), False, T0), token


async def snapshot(store: AccountSqlStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the account tables (and the players), sorted: what "nothing changed" compares."""
    tables: dict[str, list[tuple[Any, ...]]] = {}
    async with store.engine.connect() as connection:
        for name in ACCOUNT_TABLES:
            rows = (await connection.execute(select(metadata.tables[name]))).all()
            tables[name] = sorted(tuple(row) for row in rows)
    return tables


async def challenges_left(store: AccountSqlStore) -> int:
    async with store.engine.connect() as connection:
        return len((await connection.execute(select(metadata.tables["webauthn_challenges"]))).all())


async def saved(service: AccountService, name: str, authenticator: SoftwareAuthenticator) -> tuple[PlayerRecord, Any]:
    """A player saved with a passkey of `authenticator` (the happy path, checked in its own test)."""
    player, _token = a_player(name)
    await service.store.write_accounts([player])
    start = await service.begin_save(player, "a")
    credential, response = authenticator.create(start.options_json, ORIGIN)
    await service.finish_save(player, response, "Laptop", "address-1")
    return player, credential


async def refused_without_change(service: AccountService, reason: PasskeyRefusal, step: Any) -> PasskeyRefused:
    """Run the refused `step`: the reason is `reason`, the account tables are unchanged, no challenge remains."""
    store = service.store
    assert isinstance(store, AccountSqlStore)
    before = await snapshot(store)
    with pytest.raises(PasskeyRefused) as refused:
        await step()
    assert refused.value.reason is reason, refused.value
    assert refused.value.message
    assert await snapshot(store) == before
    assert await challenges_left(store) == 0  # the answer spent its challenge, refused or not
    return refused.value


# ------------------------------------------------------------------ the happy paths


async def test_save_then_sign_in_on_another_device_is_the_same_player(
    service: AccountService, account_store: AccountSqlStore, clock: ManualClock
) -> None:
    authenticator = SoftwareAuthenticator()
    player, token = a_player("Alice")
    await account_store.write_accounts([player])

    start = await service.begin_save(player, "a")
    options = json.loads(start.options_json)
    assert options["rp"] == {"id": "localhost", "name": "FreeCell Arena"}
    assert options["authenticatorSelection"]["userVerification"] == "required"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    credential, response = authenticator.create(start.options_json, ORIGIN)
    await service.finish_save(player, response, "Laptop", "address-1")

    account = await account_store.account(player.player_id)
    assert account is not None and account.user_handle == options["user"]["id"]
    assert await account_store.claimed_name(player.player_id) == "Alice"
    [passkey] = await account_store.passkeys_of(player.player_id)
    assert (passkey.credential_id, passkey.name, passkey.sign_count) == (credential.id, "Laptop", 0)
    assert passkey.transports == ("internal", "hybrid")
    # the browser that saved the player keeps its token, now a revocable session
    [first] = await account_store.tokens_of(player.player_id, TokenKind.SESSION)
    assert (first.token_hash, first.label) == (hash_token(token), FIRST_SESSION_LABEL)

    clock.advance(60)
    start = await service.begin_sign_in("a")  # a second device: nobody typed a name
    assert json.loads(start.options_json)["userVerification"] == "required"
    signed_in = await service.finish_sign_in(authenticator.get(start.options_json, ORIGIN, credential), "Phone", "a2")
    assert signed_in.player_id == player.player_id
    assert signed_in.session.secret.startswith("fcs_")
    assert await service.resolve(signed_in.session.secret, TokenKind.SESSION) == player.player_id
    [used] = await account_store.passkeys_of(player.player_id)
    assert (used.sign_count, used.last_used_at) == (1, clock.now())
    assert await challenges_left(account_store) == 0


async def test_an_authenticator_that_never_counts_signs_in_again_and_again(service: AccountService) -> None:
    authenticator = SoftwareAuthenticator(step=0)  # synced passkeys report 0 every time
    player, credential = await saved(service, "Bob", authenticator)
    for _ in range(2):
        start = await service.begin_sign_in("a")
        response = authenticator.get(start.options_json, ORIGIN, credential)
        assert (await service.finish_sign_in(response, "Phone", "a")).player_id == player.player_id


async def test_a_second_passkey_joins_the_account(service: AccountService, account_store: AccountSqlStore) -> None:
    player, first = await saved(service, "Carol", SoftwareAuthenticator())
    start = await service.begin_save(player, "a")
    assert [c["id"] for c in json.loads(start.options_json)["excludeCredentials"]] == [first.id]
    handle = json.loads(start.options_json)["user"]["id"]
    assert handle == (await account_store.account(player.player_id)).user_handle  # type: ignore[union-attr]
    _second, response = SoftwareAuthenticator().create(start.options_json, ORIGIN)
    await service.finish_save(player, response, "Key", "a")
    assert [p.name for p in await account_store.passkeys_of(player.player_id)] == ["Laptop", "Key"]


# ------------------------------------------------------------------ refused registrations


async def test_a_replayed_registration_is_refused(service: AccountService) -> None:
    player, _ = a_player("Dan")
    await service.store.write_accounts([player])
    start = await service.begin_save(player, "a")
    _credential, response = SoftwareAuthenticator().create(start.options_json, ORIGIN)
    await service.finish_save(player, response, "Laptop", "a")
    await refused_without_change(
        service, PasskeyRefusal.UNKNOWN_CHALLENGE, lambda: service.finish_save(player, response, "Again", "a")
    )


async def test_an_expired_registration_challenge_is_refused(service: AccountService, clock: ManualClock) -> None:
    player, _ = a_player("Eve")
    await service.store.write_accounts([player])
    start = await service.begin_save(player, "a")
    _credential, response = SoftwareAuthenticator().create(start.options_json, ORIGIN)
    clock.advance(CHALLENGE_TTL.total_seconds())
    await refused_without_change(
        service, PasskeyRefusal.EXPIRED_CHALLENGE, lambda: service.finish_save(player, response, "Late", "a")
    )


@pytest.mark.parametrize(
    ("reason", "answer"),
    [
        (PasskeyRefusal.WRONG_ORIGIN, {"origin": "https://evil.example"}),
        (PasskeyRefusal.WRONG_ORIGIN, {"origin": "http://127.0.0.1:8765"}),
        (PasskeyRefusal.WRONG_RP_ID, {"rp_id": "evil.example"}),
        (PasskeyRefusal.USER_NOT_VERIFIED, {"verified": False}),
        (PasskeyRefusal.UNKNOWN_CHALLENGE, {"challenge": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}),
    ],
)
async def test_a_bad_registration_is_refused_and_changes_nothing(
    service: AccountService, reason: PasskeyRefusal, answer: dict[str, Any]
) -> None:
    player, _ = a_player("Fay")
    await service.store.write_accounts([player])
    start = await service.begin_save(player, "a")
    answer = dict(answer)  # the parameter is shared by the sqlite and postgres runs
    origin = answer.pop("origin", ORIGIN)
    _credential, response = SoftwareAuthenticator().create(start.options_json, origin, **answer)
    if "challenge" in answer:  # the browser signed a challenge we never issued: ours is spent by nobody
        await service.store.take_challenge(start.challenge.challenge)
    await refused_without_change(service, reason, lambda: service.finish_save(player, response, "Laptop", "a"))


async def test_a_registration_for_another_player_is_refused(service: AccountService) -> None:
    player, _ = a_player("Gus")
    other, _ = a_player("Hal")
    await service.store.write_accounts([player, other])
    start = await service.begin_save(player, "a")
    _credential, response = SoftwareAuthenticator().create(start.options_json, ORIGIN)
    await refused_without_change(
        service, PasskeyRefusal.WRONG_PLAYER, lambda: service.finish_save(other, response, "Laptop", "a")
    )


async def test_a_credential_id_is_registered_once(service: AccountService) -> None:
    authenticator = SoftwareAuthenticator()
    _owner, credential = await saved(service, "Ida", authenticator)
    thief, _ = a_player("Jo")
    await service.store.write_accounts([thief])
    start = await service.begin_save(thief, "a")
    _copy, response = SoftwareAuthenticator().create(start.options_json, ORIGIN, credential_id=credential.credential_id)
    await refused_without_change(
        service, PasskeyRefusal.CREDENTIAL_TAKEN, lambda: service.finish_save(thief, response, "Mine", "a")
    )


async def test_saving_under_a_claimed_look_alike_name_is_refused(service: AccountService) -> None:
    impostor, _ = a_player("\u0410lice")  # Cyrillic capital A
    await service.store.write_accounts([impostor])
    start = await service.begin_save(impostor, "a")  # begun while the name was free
    await saved(service, "alice", SoftwareAuthenticator())
    with pytest.raises(AccountRefused) as early:  # begun now: refused before the browser makes a passkey
        await service.begin_save(impostor, "a")
    assert early.value.reason is AccountRefusal.NAME_TAKEN
    _credential, response = SoftwareAuthenticator().create(start.options_json, ORIGIN)
    store = service.store
    assert isinstance(store, AccountSqlStore)
    before = await snapshot(store)
    with pytest.raises(AccountRefused) as refused:
        await service.finish_save(impostor, response, "Laptop", "a")
    assert refused.value.reason is AccountRefusal.NAME_TAKEN
    assert await snapshot(store) == before


# ------------------------------------------------------------------ refused sign-ins


async def test_a_replayed_sign_in_is_refused(service: AccountService) -> None:
    authenticator = SoftwareAuthenticator()
    _player, credential = await saved(service, "Kim", authenticator)
    start = await service.begin_sign_in("a")
    response = authenticator.get(start.options_json, ORIGIN, credential)
    await service.finish_sign_in(response, "Phone", "a")
    await refused_without_change(
        service, PasskeyRefusal.UNKNOWN_CHALLENGE, lambda: service.finish_sign_in(response, "Phone", "a")
    )


async def test_an_expired_sign_in_challenge_is_refused(service: AccountService, clock: ManualClock) -> None:
    authenticator = SoftwareAuthenticator()
    _player, credential = await saved(service, "Lee", authenticator)
    start = await service.begin_sign_in("a")
    clock.advance(CHALLENGE_TTL.total_seconds() + 1)
    response = authenticator.get(start.options_json, ORIGIN, credential)
    await refused_without_change(
        service, PasskeyRefusal.EXPIRED_CHALLENGE, lambda: service.finish_sign_in(response, "Phone", "a")
    )


@pytest.mark.parametrize(
    ("reason", "answer"),
    [
        (PasskeyRefusal.WRONG_ORIGIN, {"origin": "https://evil.example"}),
        (PasskeyRefusal.WRONG_RP_ID, {"rp_id": "evil.example"}),
        (PasskeyRefusal.WRONG_ORIGIN, {"cross_origin": True}),
        (PasskeyRefusal.USER_NOT_VERIFIED, {"verified": False}),
        (PasskeyRefusal.USER_NOT_PRESENT, {"present": False, "verified": False}),
        (PasskeyRefusal.BAD_SIGNATURE, {"signing_key": "forged"}),
        (PasskeyRefusal.SIGN_COUNT_NOT_INCREASED, {"sign_count": 0}),
        (PasskeyRefusal.UNKNOWN_CREDENTIAL, {"claimed_id": "bm90LWEtY3JlZGVudGlhbA"}),
    ],
)
async def test_a_bad_sign_in_is_refused_and_changes_nothing(
    service: AccountService, reason: PasskeyRefusal, answer: dict[str, Any]
) -> None:
    authenticator = SoftwareAuthenticator()
    _player, credential = await saved(service, "Max", authenticator)
    start = await service.begin_sign_in("a")
    await service.finish_sign_in(authenticator.get(start.options_json, ORIGIN, credential), "Phone", "a")  # count 1
    start = await service.begin_sign_in("a")
    answer = dict(answer)  # the parameter is shared by the sqlite and postgres runs
    origin = answer.pop("origin", ORIGIN)
    if answer.get("signing_key") == "forged":
        answer["signing_key"] = ec.generate_private_key(ec.SECP256R1())
    response = authenticator.get(start.options_json, origin, credential, **answer)
    await refused_without_change(service, reason, lambda: service.finish_sign_in(response, "Phone", "a"))


async def test_another_players_credential_is_refused(service: AccountService) -> None:
    alice_key, bob_key = SoftwareAuthenticator(), SoftwareAuthenticator()
    alice, alice_credential = await saved(service, "Alice", alice_key)
    _bob, bob_credential = await saved(service, "Bob", bob_key)
    # a sign-in for Alice (confirming it is her) answered with Bob's genuine passkey
    start = await service.begin_sign_in("a", alice.player_id)
    response = bob_key.get(start.options_json, ORIGIN, bob_credential)
    await refused_without_change(
        service, PasskeyRefusal.CREDENTIAL_OF_ANOTHER_PLAYER, lambda: service.finish_sign_in(response, "x", "a")
    )
    # Alice's authenticator naming Bob's credential id (with Bob's user handle): her key does not sign for it
    start = await service.begin_sign_in("a")
    bob_id, bob_handle = bob_credential.id, bob_credential.user_handle
    response = alice_key.get(start.options_json, ORIGIN, alice_credential, claimed_id=bob_id, user_handle=bob_handle)
    await refused_without_change(
        service, PasskeyRefusal.BAD_SIGNATURE, lambda: service.finish_sign_in(response, "x", "a")
    )
    # ... and naming Bob's credential with her own user handle
    start = await service.begin_sign_in("a")
    response = alice_key.get(start.options_json, ORIGIN, alice_credential, claimed_id=bob_credential.id)
    await refused_without_change(
        service, PasskeyRefusal.CREDENTIAL_OF_ANOTHER_PLAYER, lambda: service.finish_sign_in(response, "x", "a")
    )


async def test_a_registration_answer_does_not_sign_in(service: AccountService) -> None:
    """A challenge is for one ceremony: the answer to a registration is no sign-in, even a genuine one."""
    player, _ = a_player("Rae")
    await service.store.write_accounts([player])
    start = await service.begin_save(player, "a")
    _credential, response = SoftwareAuthenticator().create(start.options_json, ORIGIN)
    await refused_without_change(
        service, PasskeyRefusal.WRONG_CEREMONY, lambda: service.finish_sign_in(response, "x", "a")
    )


async def test_a_malformed_answer_is_refused(service: AccountService) -> None:
    await refused_without_change(service, PasskeyRefusal.MALFORMED, lambda: service.finish_sign_in("{}", "x", "a"))
    await refused_without_change(
        service, PasskeyRefusal.MALFORMED, lambda: service.finish_sign_in('{"id": "x", "response": 1}', "x", "a")
    )


async def test_attempts_are_rate_limited_per_key(service: AccountService, clock: ManualClock) -> None:
    for _ in range(5):
        with pytest.raises(PasskeyRefused) as refused:
            await service.finish_sign_in("{}", "x", "address-9")
        assert refused.value.reason is PasskeyRefusal.MALFORMED
    with pytest.raises(PasskeyRefused) as limited:
        await service.finish_sign_in("{}", "x", "address-9")
    assert limited.value.reason is PasskeyRefusal.RATE_LIMITED
    assert "try again in 6 s" in limited.value.message
    with pytest.raises(PasskeyRefused) as other:
        await service.finish_sign_in("{}", "x", "address-10")
    assert other.value.reason is PasskeyRefusal.MALFORMED
    clock.advance(6)
    with pytest.raises(PasskeyRefused) as again:
        await service.finish_sign_in("{}", "x", "address-9")
    assert again.value.reason is PasskeyRefusal.MALFORMED
    # beginnings are counted apart: a client cannot fill the challenge table either
    for _ in range(5):
        await service.begin_sign_in("address-11")
    with pytest.raises(PasskeyRefused) as flooding:
        await service.begin_sign_in("address-11")
    assert flooding.value.reason is PasskeyRefusal.RATE_LIMITED
    assert await challenges_left(service.store) == 5  # type: ignore[arg-type]


# ------------------------------------------------------------------ across processes


async def test_one_challenge_is_taken_once_by_two_processes(
    service: AccountService, account_store: AccountSqlStore, database_url: str
) -> None:
    start = await service.begin_sign_in("a")
    other_process = AccountSqlStore.from_url(database_url)
    try:
        taken = await asyncio.gather(
            account_store.take_challenge(start.challenge.challenge),
            other_process.take_challenge(start.challenge.challenge),
        )
    finally:
        await other_process.close()
    assert sorted(challenge is None for challenge in taken) == [False, True]


async def test_a_sign_count_is_written_only_over_the_count_it_was_read_at(service: AccountService) -> None:
    """Two processes verifying two answers that both start from count 1: the second write is refused."""
    authenticator = SoftwareAuthenticator()
    _player, credential = await saved(service, "Ned", authenticator)
    passkey = await service.store.passkey(credential.id)
    assert passkey is not None
    await service.store.write_accounts([PasskeyUsedRecord(credential.id, 0, 5, T0)])
    with pytest.raises(AccountConflict) as conflict:
        await service.store.write_accounts([PasskeyUsedRecord(credential.id, 0, 6, T0)])
    assert conflict.value.conflict is Conflict.SIGN_COUNT_CHANGED
    assert (await service.store.passkey(credential.id)).sign_count == 5  # type: ignore[union-attr]


# ------------------------------------------------------------------ tokens and bots


async def test_revoked_and_unknown_tokens_are_refused(service: AccountService, clock: ManualClock) -> None:
    authenticator = SoftwareAuthenticator()
    player, credential = await saved(service, "Oli", authenticator)
    start = await service.begin_sign_in("a")
    phone = await service.finish_sign_in(authenticator.get(start.options_json, ORIGIN, credential), "Phone", "a")
    await service.store.write_accounts([TokensRevokedRecord(player.player_id, TokenKind.SESSION, clock.now())])
    with pytest.raises(TokenRefused) as revoked:
        await service.resolve(phone.session.secret, TokenKind.SESSION)
    assert revoked.value.reason is TokenRefusal.REVOKED
    with pytest.raises(TokenRefused) as unknown:
        await service.resolve("fcs_" + "A" * 43, TokenKind.SESSION)
    assert unknown.value.reason is TokenRefusal.UNKNOWN


async def test_a_hello_token_names_a_session_a_bot_or_an_unsaved_player(
    service: AccountService, clock: ManualClock
) -> None:
    unsaved, unsaved_token = a_player("Sam")
    await service.store.write_accounts([unsaved])
    assert await service.resolve_hello(unsaved_token) is None  # served as today, by players.token_hash

    authenticator = SoftwareAuthenticator()
    player, own_token = a_player("Tess")
    await service.store.write_accounts([player])
    start = await service.begin_save(player, "a")
    credential, response = authenticator.create(start.options_json, ORIGIN)
    await service.finish_save(player, response, "Laptop", "a")
    assert await service.resolve_hello(own_token) == HelloIdentity(player.player_id, bot=False)

    start = await service.begin_sign_in("a")
    phone = await service.finish_sign_in(authenticator.get(start.options_json, ORIGIN, credential), "Phone", "a")
    assert await service.resolve_hello(phone.session.secret) == HelloIdentity(player.player_id, bot=False)
    bot = await service.create_bot(player.player_id, "TessBot", "")
    assert await service.resolve_hello(bot.token.secret) == HelloIdentity(bot.player_id, bot=True)

    # sign out everywhere but the phone: the laptop's own token is refused from now on
    everywhere = TokensRevokedRecord(
        player.player_id, TokenKind.SESSION, clock.now(), keep=phone.session.record.token_hash
    )
    await service.store.write_accounts([everywhere])
    with pytest.raises(TokenRefused) as refused:
        await service.resolve_hello(own_token)
    assert refused.value.reason is TokenRefusal.REVOKED
    assert await service.resolve_hello(phone.session.secret) == HelloIdentity(player.player_id, bot=False)
    assert await service.resolve_hello(bot.token.secret) == HelloIdentity(bot.player_id, bot=True)


async def test_a_bot_account_gets_a_token_its_owner_sees_once(service: AccountService) -> None:
    owner, _ = await saved(service, "Pat", SoftwareAuthenticator())
    bot = await service.create_bot(owner.player_id, "PatBot", "greedy, then solver")
    assert bot.token.secret.startswith("fcb_")
    assert await service.resolve(bot.token.secret, TokenKind.BOT) == bot.player_id
    bot_player = await service.store.account(bot.player_id)
    assert bot_player is None  # a bot has no passkeys of its own
    [listed] = await service.store.bots_of(owner.player_id)
    assert (listed.player_id, listed.description) == (bot.player_id, "greedy, then solver")
    with pytest.raises(TokenRefused) as wrong:
        await service.resolve(bot.token.secret, TokenKind.SESSION)
    assert wrong.value.reason is TokenRefusal.WRONG_KIND
    with pytest.raises(AccountRefused) as taken:
        await service.create_bot(owner.player_id, "PATB0T", "a look-alike")
    assert taken.value.reason is AccountRefusal.NAME_TAKEN
    unsaved, _ = a_player("Quinn")
    with pytest.raises(AccountRefused) as not_saved:
        await service.create_bot(unsaved.player_id, "QuinnBot", "")
    assert not_saved.value.reason is AccountRefusal.NOT_SAVED


# ------------------------------------------------------------------ the account page


async def test_the_account_page_lists_renames_removes_and_revokes(service: AccountService, clock: ManualClock) -> None:
    laptop_key, phone_key = SoftwareAuthenticator(), SoftwareAuthenticator()
    player, laptop = await saved(service, "Uma", laptop_key)
    start = await service.begin_save(player, "a")
    phone, response = phone_key.create(start.options_json, ORIGIN)
    await service.finish_save(player, response, "  Phone  ", "a")
    start = await service.begin_sign_in("a")
    tablet = await service.finish_sign_in(phone_key.get(start.options_json, ORIGIN, phone), "Tablet", "a")
    bot = await service.create_bot(player.player_id, "UmaBot", "plays greedy")
    spare = await service.new_bot_token(player.player_id, bot.player_id)

    view = await service.account_view(player.player_id)
    assert view.name == "Uma"
    assert [p.name for p in view.passkeys] == ["Laptop", "Phone"]
    assert sorted(s.label for s in view.sessions) == sorted([FIRST_SESSION_LABEL, "Tablet"])
    [bot_view] = view.bots
    assert (bot_view.name, bot_view.bot.description) == ("UmaBot", "plays greedy")
    assert {t.token_hash for t in bot_view.tokens} == {bot.token.record.token_hash, spare.record.token_hash}

    await service.rename_passkey(player.player_id, laptop.id, "Old laptop")
    await service.remove_passkey(player.player_id, laptop.id)
    with pytest.raises(AccountRefused) as last:
        await service.remove_passkey(player.player_id, phone.id)
    assert last.value.reason is AccountRefusal.LAST_PASSKEY
    assert [p.name for p in await service.store.passkeys_of(player.player_id)] == ["Phone"]

    revoked_bot = await service.revoke(player.player_id, bot.token.record.token_hash)
    assert revoked_bot.token_hashes == [bot.token.record.token_hash]
    assert await service.resolve(spare.secret, TokenKind.BOT) == bot.player_id  # the other token still works

    # another player can neither see nor touch any of it
    stranger, _ = await saved(service, "Vic", SoftwareAuthenticator())
    for attempt in (
        service.rename_passkey(stranger.player_id, phone.id, "Mine"),
        service.remove_passkey(stranger.player_id, phone.id),
        service.revoke(stranger.player_id, tablet.session.record.token_hash),
        service.revoke(stranger.player_id, spare.record.token_hash),
        service.new_bot_token(stranger.player_id, bot.player_id),
    ):
        with pytest.raises(AccountRefused) as refused:
            await attempt
        assert refused.value.reason is AccountRefusal.NOT_YOURS

    everywhere = await service.sign_out_everywhere(player.player_id, tablet.session.secret)
    [first_session] = [s.token_hash for s in view.sessions if s.label == FIRST_SESSION_LABEL]
    assert everywhere.token_hashes == [first_session]
    assert await service.resolve(tablet.session.secret, TokenKind.SESSION) == player.player_id
    clock.advance(1)
    this_one_too = await service.sign_out_everywhere(player.player_id, None)
    assert this_one_too.token_hashes == [tablet.session.record.token_hash]
    with pytest.raises(TokenRefused):
        await service.resolve(tablet.session.secret, TokenKind.SESSION)
