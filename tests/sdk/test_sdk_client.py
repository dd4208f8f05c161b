"""`ArenaClient` against a real server: typed replies, events, and server refusals as `ArenaError`."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest

from freecell_arena.engine import Move, variant_by_id
from freecell_arena.engine.view import board_from_view
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.play import GameStateMessage, MoveJson, StateRequest
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    RaceOverMessage,
    RaceStartedMessage,
    RoomMessage,
    RoomOptions,
)
from freecell_arena_client import ArenaClient, ArenaError, ConnectionLost, ProtocolError, TokenFile, wire_move

from .support import Arena


async def started_game(client: ArenaClient, variant: str, seed: int) -> RaceStartedMessage:
    await client.create_room(variant, seed=seed, options=RoomOptions(countdown_s=0))
    countdown = await client.start_race()
    assert isinstance(countdown, CountdownMessage)
    return await client.wait_for(RaceStartedMessage, 10)


async def test_a_game_through_the_typed_methods(sqlite_arena: Arena) -> None:
    async with await ArenaClient.connect(sqlite_arena.url, name="typed") as client:
        assert client.welcome is not None and not client.welcome.resumed and client.token
        started = await started_game(client, "freecell", 1)
        variant = variant_by_id("freecell")
        board = board_from_view(variant, started.game.view)
        assert board.is_legal(Move.to_cell(0, 0))
        accepted = await client.move(Move.to_cell(0, 0))  # an engine Move goes in the structured form
        assert accepted.player_moves == 1 and accepted.game_id == started.game.game_id
        assert accepted.action == "1a" and accepted.changes["cells"][0] == "6S"
        assert accepted.changes["tableau"] == {"0": started.game.view["tableau"][0][:-1]}
        again = await client.move("t2-c")  # notation text goes as it is
        assert again.player_moves == 2 and again.action == "2b"
        state = await client.get_state()
        assert state.game is not None and state.game.actions == [accepted.action, again.action]
        over = await client.resign()
        assert over.outcome == "resigned"
        replay = await client.get_replay(started.game.game_id)
        assert replay.actions == state.game.actions


async def test_refusals_carry_code_message_and_reason(sqlite_arena: Arena) -> None:
    async with await ArenaClient.connect(sqlite_arena.url, name="refused") as client:
        with pytest.raises(ArenaError) as no_game:
            await client.move("1a")
        assert no_game.value.code == ErrorCode.no_game and no_game.value.request == "move"
        await started_game(client, "freecell", 1)
        with pytest.raises(ArenaError) as illegal:
            await client.move(Move.tableau_to_tableau(0, 1))  # 6S onto 9C: ranks do not follow
        assert illegal.value.code == ErrorCode.illegal_move
        assert illegal.value.reason == "target_refuses" and "cannot go on" in illegal.value.message
        assert "illegal_move" in str(illegal.value)
        with pytest.raises(ArenaError) as unknown:
            await client.join_room("NOSUCHROOM")
        assert unknown.value.code == ErrorCode.unknown_room
        state = await client.get_state()  # refusals changed nothing, and the connection is still usable
        assert state.game is not None and state.game.player_moves == 0


async def test_the_generic_request_checks_the_reply_type(sqlite_arena: Arena) -> None:
    async with await ArenaClient.connect(sqlite_arena.url, name="generic") as client:
        state = await client.request(StateRequest(), GameStateMessage)
        assert state.room is None and state.game is None
        with pytest.raises(ProtocolError, match="expected RoomMessage, got GameStateMessage"):
            await client.request(StateRequest(), RoomMessage)
        untyped = await client.request(StateRequest())
        assert isinstance(untyped, GameStateMessage)


async def test_a_resumed_hello_is_followed_by_the_game_state(sqlite_arena: Arena) -> None:
    first = await ArenaClient.connect(sqlite_arena.url, name="resumer")
    started = await started_game(first, "chinese-freecell", 3)
    token = first.token
    await first.close()
    async with await ArenaClient.connect(sqlite_arena.url, name="ignored", token=token) as again:
        assert again.welcome is not None and again.welcome.resumed and again.welcome.name == "resumer"
        state = await again.wait_for(GameStateMessage, 10)
        assert state.game is not None and state.game.game_id == started.game.game_id


async def test_a_closed_connection_fails_waiting_requests_and_events(sqlite_arena: Arena) -> None:
    client = await ArenaClient.connect(sqlite_arena.url, name="dropped")
    assert client.player_id is not None
    sqlite_arena.server.connections[client.player_id].websocket.transport.abort()
    with pytest.raises(ConnectionLost):
        await asyncio.wait_for(client.next_event(), 10)
    with pytest.raises(ConnectionLost):
        await client.get_state()
    await client.close()


async def test_a_request_whose_send_fails_leaves_no_unread_error_behind(sqlite_arena: Arena) -> None:
    """The connection drops while a paced request waits to be sent: the request raises `ConnectionLost`, and the
    copy of that error its reply future received is read, not reported by asyncio as never retrieved."""
    loop = asyncio.get_running_loop()
    reports: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: reports.append(context))
    try:
        client = await ArenaClient.connect(sqlite_arena.url, name="paced", max_rate_per_s=1)  # burst 1: hello takes it
        assert client.player_id is not None
        transport = sqlite_arena.server.connections[client.player_id].websocket.transport
        loop.call_later(0.1, transport.abort)  # while the request waits for the pacer
        try:
            await client.get_state()
        except ConnectionLost:
            pass
        else:
            pytest.fail("a request on a dropped connection must raise ConnectionLost")
        await client.close()
        del client
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert not [report for report in reports if "never retrieved" in str(report.get("message"))], reports


async def test_an_unreachable_server_is_a_connection_lost() -> None:
    with pytest.raises(ConnectionLost, match="cannot connect"):
        await ArenaClient.open("ws://127.0.0.1:9/", open_timeout_s=5)


def test_wire_moves() -> None:
    assert wire_move("3a") == "3a"
    structured = wire_move(Move.to_cell(0, 2, 1))
    assert isinstance(structured, MoveJson) and structured.from_ == "tableau" and structured.to_index == 1
    with pytest.raises(TypeError):
        wire_move(42)  # type: ignore[arg-type]


def test_the_token_file_keeps_one_private_entry_per_server(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path / "tokens.json")
    assert tokens.load("ws://127.0.0.1:8765/") is None
    tokens.save("ws://127.0.0.1:8765/", "secret-a", "p_a")
    tokens.save("ws://127.0.0.1:9999", "secret-b", "p_b")
    assert tokens.load("ws://127.0.0.1:8765") == "secret-a"  # a trailing slash names the same server
    assert tokens.load("ws://127.0.0.1:9999/") == "secret-b"
    assert (tmp_path / "tokens.json").stat().st_mode & 0o777 == 0o600
    tokens.forget("ws://127.0.0.1:8765")
    assert tokens.load("ws://127.0.0.1:8765") is None and tokens.load("ws://127.0.0.1:9999") == "secret-b"
    (tmp_path / "tokens.json").write_text("{not json")
    with pytest.raises(ValueError, match="cannot read the token file"):
        tokens.load("ws://127.0.0.1:9999")


async def test_race_again_and_quick_race_through_the_typed_methods(sqlite_arena: Arena) -> None:
    async with (
        await ArenaClient.connect(sqlite_arena.url, name="first") as first,
        await ArenaClient.connect(sqlite_arena.url, name="second") as second,
    ):
        with pytest.raises(ArenaError) as not_over:
            await first.race_again()
        assert not_over.value.code == ErrorCode.not_in_room
        await started_game(first, "freecell", 1)
        await first.resign()
        await first.wait_for(RaceOverMessage)  # the race ends at the server's next tick, not in the resign's reply
        again = await first.race_again()
        assert again.room.series is not None and again.room.series.race == 2 and again.room.status == "lobby"
        await first.leave_room()
        quick = await second.quick_race("freecell")
        assert quick.room.quick and quick.room.options.ranked
        with pytest.raises(ArenaError) as unknown:
            await first.quick_race("patience")
        assert unknown.value.code == ErrorCode.unknown_variant
