"""Accounts over a real server (SQLite and PostgreSQL): the ceremonies and the account page as protocol
requests, a hello with a session or a bot token, claimed names, revocation closing connections, and every
adversarial case of issue 24 refused with a clear error, nothing changed, and one log line."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from account_support import T0
from arena_client import ArenaClient
from arena_server import start_arena
from authenticator import Credential, SoftwareAuthenticator
from boards_helpers import ManualClock, play, winning_moves
from cryptography.hazmat.primitives.asymmetric import ec
from websockets.exceptions import ConnectionClosed

from freecell_arena.core.accounts.account_ports import TokenKind
from freecell_arena.core.identity import hash_token
from freecell_arena.net.app import ArenaServer
from freecell_arena.net.connection import CLOSE_REVOKED

SEED = 6  # the solver wins it in a few hundredths of a second


@dataclass
class Arena:
    server: ArenaServer
    url: str
    origin: str
    clock: ManualClock
    clients: list[ArenaClient] = field(default_factory=list)

    async def open(self) -> ArenaClient:
        """A connection, closed at the end (a client left open would hold the server's shutdown up)."""
        client = await ArenaClient.open(self.url)
        self.clients.append(client)
        return client

    async def player(self, name: str) -> ArenaClient:
        client = await self.open()
        await client.hello(name)
        return client


@pytest.fixture
async def arena(database_url: str) -> AsyncIterator[Arena]:
    clock = ManualClock(T0)
    server = await start_arena(database_url, clock)
    arena = Arena(server, f"ws://127.0.0.1:{server.port}/", f"http://localhost:{server.port}", clock)
    try:
        yield arena
    finally:
        for client in arena.clients:
            with contextlib.suppress(Exception):
                await client.close()
        await server.shutdown()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("freecell_arena") and r.levelno >= 30]


async def save(arena: Arena, client: ArenaClient, device: SoftwareAuthenticator, label: str = "Laptop") -> Credential:
    options = await client.request({"type": "passkey_begin", "ceremony": "save"})
    assert options["type"] == "passkey_options", options
    assert options["options"]["rp"]["id"] == "localhost"
    credential, response = device.create(_json(options), arena.origin)
    account = await client.request({"type": "passkey_finish", "ceremony": "save", "credential": _load(response),
                                    "label": label})  # fmt: skip
    assert account["type"] == "account" and account["saved"], account
    return credential


async def sign_in_options(client: ArenaClient) -> dict[str, Any]:
    options = await client.request({"type": "passkey_begin", "ceremony": "sign_in"})
    assert options["type"] == "passkey_options", options
    return options


async def finish_sign_in(client: ArenaClient, response: str, label: str = "Phone") -> dict[str, Any]:
    return await client.request({"type": "passkey_finish", "ceremony": "sign_in", "credential": _load(response),
                                 "label": label})  # fmt: skip


def _json(options: dict[str, Any]) -> str:
    return json.dumps(options["options"])


def _load(text: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(text)
    return loaded


async def counts(arena: Arena, player_id: str) -> tuple[int, int]:
    """The player's passkeys and valid sessions, as stored."""
    store = arena.server.store.accounts
    sessions = [s for s in await store.tokens_of(player_id, TokenKind.SESSION) if s.revoked_at is None]
    return len(await store.passkeys_of(player_id)), len(sessions)


async def test_save_then_sign_in_elsewhere_is_the_same_player_with_its_history(arena: Arena) -> None:
    device = SoftwareAuthenticator()
    ada = await arena.player("Ada")
    credential = await save(arena, ada, device)
    moves = winning_moves("freecell", SEED)
    await ada.request({"type": "create_room", "variant": "freecell", "seed": SEED, "options": {"countdown_s": 0}})
    await ada.request({"type": "start_race"})
    arena.clock.advance(1)
    await ada.expect("race_started")
    await play(ada, moves, arena.clock)

    phone = await arena.open()  # another device: no hello yet, the passkey says who
    options = await sign_in_options(phone)
    signed = await finish_sign_in(phone, device.get(_json(options), arena.origin, credential))
    assert signed["type"] == "signed_in" and signed["player_id"] == ada.player_id and signed["name"] == "Ada"
    assert signed["token"].startswith("fcs_")
    welcome = await phone.request({"type": "hello", "name": "whatever", "token": signed["token"]})
    assert welcome["player_id"] == ada.player_id and welcome["resumed"] and welcome["name"] == "Ada"
    history = await phone.request({"type": "get_history"})
    assert len(history["games"]) == 1 and history["games"][0]["outcome"] == "won" and history["claimed"]
    account = await phone.request({"type": "get_account"})
    assert [s["label"] for s in account["sessions"]] == ["the browser that saved this player", "Phone"]
    assert [s["current"] for s in account["sessions"]] == [False, True]
    assert [p["name"] for p in account["passkeys"]] == ["Laptop"]


async def test_a_claimed_name_and_its_look_alikes_are_refused_to_everyone_else(arena: Arena) -> None:
    ada = await arena.player("Alice")
    await save(arena, ada, SoftwareAuthenticator())
    for name in ("alice", "ALICE", "\u0391lice", "Al\u0456ce"):  # Greek capital alpha; Cyrillic i
        other = await arena.open()
        refused = await other.request({"type": "hello", "name": name})
        assert refused["type"] == "error" and refused["code"] == "name_taken", refused
        assert "belongs to a saved player" in refused["message"]
        assert (await other.request({"type": "hello", "name": "Bea"}))["type"] == "welcome"  # nothing was taken
        await other.close()
    bot = await ada.request({"type": "create_bot", "name": "alice"})
    assert bot["code"] == "name_taken"
    bea = await arena.player("Bea")  # an unsaved player may take any free name
    assert (await bea.request({"type": "create_bot", "name": "Bea bot"}))["code"] == "not_saved"


async def test_a_bot_tokens_games_go_to_the_bots_board_whatever_the_client_says(arena: Arena) -> None:
    ada = await arena.player("Ada")
    await save(arena, ada, SoftwareAuthenticator())
    made = await ada.request({"type": "create_bot", "name": "Solvy", "description": "a solver"})
    assert made["type"] == "bot_token" and made["token"].startswith("fcb_")
    solvy = await arena.open()
    welcome = await solvy.hello("not Solvy", token=made["token"], bot=False)
    assert welcome["player_id"] == made["bot_id"] and welcome["name"] == "Solvy"
    await solvy.request({"type": "create_room", "variant": "freecell", "seed": SEED, "options": {"countdown_s": 0}})
    await solvy.request({"type": "start_race"})
    arena.clock.advance(1)
    await solvy.expect("race_started")
    await play(solvy, winning_moves("freecell", SEED), arena.clock)
    board = {"type": "get_leaderboard", "variant": "freecell", "board": "deal", "seed": SEED}
    humans, bots = await ada.request(board), await ada.request({**board, "bots": True})
    assert humans["entries"] == []
    assert [(e["name"], e["claimed"]) for e in bots["entries"]] == [("Solvy", True)]
    account = await ada.request({"type": "get_account"})
    assert [(b["name"], b["description"], len(b["tokens"])) for b in account["bots"]] == [("Solvy", "a solver", 1)]


async def test_revoking_a_session_closes_its_connection_and_refuses_its_token(
    arena: Arena, caplog: pytest.LogCaptureFixture
) -> None:
    device = SoftwareAuthenticator()
    ada = await arena.player("Ada")
    credential = await save(arena, ada, device)
    laptop = await arena.open()
    signed = await finish_sign_in(laptop, device.get(_json(await sign_in_options(laptop)), arena.origin, credential))
    await laptop.hello("Ada", token=signed["token"])  # this takes over Ada's seat: `ada` is closed (one per player)
    account = await laptop.request({"type": "get_account"})
    first = next(s for s in account["sessions"] if not s["current"])
    after = await laptop.request({"type": "revoke_token", "token_id": first["token_id"]})
    assert after["type"] == "account" and [s["current"] for s in after["sessions"]] == [True]
    caplog.clear()
    again = await arena.open()
    refused = await again.request({"type": "hello", "name": "Ada", "token": ada.token})
    assert refused["code"] == "revoked_token" and refused["reason"] == "revoked_token", refused
    assert len(warnings(caplog)) == 1 and "revoked_token" in warnings(caplog)[0]
    assert await counts(arena, ada.player_id or "") == (1, 1)
    # the session in use is revoked here: its own connection closes with 4001 after the reply
    signed_out = await laptop.request({"type": "sign_out"})
    assert signed_out["type"] == "signed_out" and signed_out["sessions"] == 1
    with pytest.raises(ConnectionClosed) as closed:
        await laptop.expect("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_REVOKED
    assert await counts(arena, ada.player_id or "") == (1, 0)


async def test_sign_out_everywhere_closes_every_session(arena: Arena) -> None:
    device = SoftwareAuthenticator()
    ada = await arena.player("Ada")
    credential = await save(arena, ada, device)
    phone = await arena.open()
    await finish_sign_in(phone, device.get(_json(await sign_in_options(phone)), arena.origin, credential))
    assert await counts(arena, ada.player_id or "") == (1, 2)
    signed_out = await ada.request({"type": "sign_out", "everywhere": True})
    assert signed_out["sessions"] == 2
    with pytest.raises(ConnectionClosed) as closed:
        await ada.expect("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_REVOKED
    assert await counts(arena, ada.player_id or "") == (1, 0)


@dataclass
class Saved:
    ada: ArenaClient
    device: SoftwareAuthenticator
    credential: Credential


@pytest.fixture
async def saved(arena: Arena) -> Saved:
    device = SoftwareAuthenticator()
    ada = await arena.player("Ada")
    return Saved(ada, device, await save(arena, ada, device))


ADVERSARIAL = ["replayed", "expired", "wrong_origin", "another_players_credential", "forged", "not_verified"]


@pytest.mark.parametrize("case", ADVERSARIAL)
async def test_a_bad_sign_in_is_refused_clearly_changes_nothing_and_logs_one_line(
    arena: Arena, saved: Saved, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    device, credential = saved.device, saved.credential
    bea = await arena.player("Bea")
    bea_credential = await save(arena, bea, SoftwareAuthenticator())
    client = await arena.open()
    options = _json(await sign_in_options(client))
    expected = {
        "replayed": "unknown_challenge", "expired": "expired_challenge", "wrong_origin": "wrong_origin",
        "another_players_credential": "credential_of_another_player", "forged": "bad_signature",
        "not_verified": "user_not_verified",
    }[case]  # fmt: skip
    if case == "replayed":
        response = device.get(options, arena.origin, credential)
        assert (await finish_sign_in(client, response))["type"] == "signed_in"
    elif case == "expired":
        response = device.get(options, arena.origin, credential)
        arena.clock.advance(301)
    elif case == "wrong_origin":
        response = device.get(options, "https://evil.example", credential)
    elif case == "another_players_credential":  # Ada's passkey, naming Bea's credential id
        response = device.get(options, arena.origin, credential, claimed_id=bea_credential.id)
    elif case == "forged":
        response = device.get(options, arena.origin, credential, signing_key=ec.generate_private_key(ec.SECP256R1()))
    else:
        response = device.get(options, arena.origin, credential, verified=False)
    before = [await counts(arena, player) for player in (saved.ada.player_id or "", bea.player_id or "")]
    caplog.clear()
    refused = await finish_sign_in(client, response)
    assert refused["type"] == "error" and refused["code"] == "passkey_refused", refused
    assert refused["reason"] == expected and refused["message"]
    assert [await counts(arena, player) for player in (saved.ada.player_id or "", bea.player_id or "")] == before
    lines = warnings(caplog)
    assert len(lines) == 1 and expected in lines[0], lines
    assert client.player_id is None  # still nobody: a hello is needed, and a refused sign-in gave no token


async def test_a_registration_from_another_origin_is_refused(arena: Arena, caplog: pytest.LogCaptureFixture) -> None:
    ada = await arena.player("Ada")
    options = await ada.request({"type": "passkey_begin", "ceremony": "save"})
    _, response = SoftwareAuthenticator().create(_json(options), "https://evil.example")
    caplog.clear()
    refused = await ada.request({"type": "passkey_finish", "ceremony": "save", "credential": _load(response)})
    assert refused["code"] == "passkey_refused" and refused["reason"] == "wrong_origin"
    assert await counts(arena, ada.player_id or "") == (0, 0) and len(warnings(caplog)) == 1
    assert (await ada.request({"type": "get_account"}))["saved"] is False


async def test_saving_needs_a_hello_and_the_account_page_another_players_things_are_refused(
    arena: Arena, saved: Saved
) -> None:
    anonymous = await arena.open()
    refused = await anonymous.request({"type": "passkey_begin", "ceremony": "save"})
    assert refused["code"] == "hello_required"
    assert (await anonymous.request({"type": "get_account"}))["code"] == "hello_required"
    bea = await arena.player("Bea")
    await save(arena, bea, SoftwareAuthenticator())
    ada_account = await saved.ada.request({"type": "get_account"})
    session = ada_account["sessions"][0]["token_id"]
    assert (await bea.request({"type": "revoke_token", "token_id": session}))["code"] == "not_yours"
    passkey = ada_account["passkeys"][0]["credential_id"]
    assert (await bea.request({"type": "remove_passkey", "credential_id": passkey}))["code"] == "not_yours"
    assert (await saved.ada.request({"type": "remove_passkey", "credential_id": passkey}))["code"] == "last_passkey"
    renamed = await saved.ada.request({"type": "rename_passkey", "credential_id": passkey, "name": "Old laptop"})
    assert [p["name"] for p in renamed["passkeys"]] == ["Old laptop"]
    assert await counts(arena, saved.ada.player_id or "") == (1, 1)


async def test_expired_challenges_are_swept(arena: Arena) -> None:
    client = await arena.open()
    await sign_in_options(client)
    await sign_in_options(client)
    assert await arena.server.sweep_accounts() == 0
    arena.clock.advance(301)
    assert await arena.server.sweep_accounts() == 2


async def test_a_revoked_bot_token_closes_the_bot_and_is_refused(arena: Arena) -> None:
    ada = await arena.player("Ada")
    await save(arena, ada, SoftwareAuthenticator())
    made = await ada.request({"type": "create_bot", "name": "Solvy"})
    solvy = await arena.open()
    await solvy.hello("Solvy", token=made["token"])
    second = await ada.request({"type": "new_bot_token", "bot_id": made["bot_id"]})
    assert second["type"] == "bot_token" and second["token"] != made["token"]
    account = await ada.request({"type": "get_account"})
    tokens = account["bots"][0]["tokens"]
    assert len(tokens) == 2
    await ada.request({"type": "revoke_token", "token_id": hash_token(made["token"])})
    with pytest.raises(ConnectionClosed) as closed:
        await solvy.expect("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_REVOKED
    again = await arena.open()
    assert (await again.request({"type": "hello", "name": "Solvy", "token": made["token"]}))["code"] == "revoked_token"
    assert (await again.hello("Solvy", token=second["token"]))["player_id"] == made["bot_id"]


async def test_saving_a_name_another_saved_first_is_refused_before_the_browser_makes_a_passkey(arena: Arena) -> None:
    zed = await arena.player("Zed")
    other = await arena.player("zed")  # nobody had claimed it yet: an unsaved player may take any free name
    await save(arena, zed, SoftwareAuthenticator())
    refused = await other.request({"type": "passkey_begin", "ceremony": "save"})
    assert refused["code"] == "name_taken", refused
    assert await arena.server.sweep_accounts() == 0 and await counts(arena, other.player_id or "") == (0, 0)
    arena.clock.advance(301)
    assert await arena.server.sweep_accounts() == 0, "no challenge was stored for the refused beginning"
