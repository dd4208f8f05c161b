"""Reconnect with the token: the full state comes back, rebuilt from the stored moves, also after a restart
of the server on the same database; and the room never sees an opponent's moves or cards."""

from __future__ import annotations

import random

from arena_client import ArenaClient, connect_player
from arena_server import RunningArena, start_arena
from racing import choose_move, open_race, server_board, wire_form

from freecell_arena.engine import card_text


async def play(arena: RunningArena, client: ArenaClient, game_id: str, variant: str, count: int) -> list[str]:
    rng = random.Random(count)
    actions = []
    for _ in range(count):
        move = choose_move(server_board(arena.server, game_id), rng)
        assert move is not None
        reply = await client.request({"type": "move", "move": wire_form(variant, move, False)})
        assert reply["type"] == "move_accepted", reply
        actions.append(reply["action"])
    return actions


async def test_reconnect_with_token_resumes_the_game(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    try:
        code, games = await open_race(host, [rival], "freecell-three-deck")
        game_id = games[host.player_id]["game_id"]
        actions = await play(arena, host, game_id, "freecell-three-deck", 5)
        token = host.token
        await host.close()
        # the room hears that the host's connection dropped: one small event, not the whole room
        await rival.expect("member_connection", player_id=host.player_id, connected=False)
        again = await ArenaClient.open(arena.url)
        welcome = await again.hello("ignored", token=token)
        assert welcome["resumed"] and welcome["player_id"] == host.player_id and welcome["name"] == "host"
        state = await again.expect("game_state")
        assert state["game"]["game_id"] == game_id
        assert state["game"]["actions"] == actions and state["game"]["player_moves"] == 5
        assert state["room"]["code"] == code
        more = await play(arena, again, game_id, "freecell-three-deck", 2)
        assert more
        await again.close()
    finally:
        await host.close()
        await rival.close()


async def test_restart_rebuilds_games_and_rooms_from_the_store(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    code, games = await open_race(host, [rival], "chinese-freecell")
    game_id = games[host.player_id]["game_id"]
    actions = await play(arena, host, game_id, "chinese-freecell", 4)
    before = (await host.request({"type": "get_state"}))["game"]["view"]
    await host.close()
    await rival.close()
    restarted = await start_arena(arena.database_url)
    try:
        url = f"ws://127.0.0.1:{restarted.port}/"
        back = await ArenaClient.open(url)
        await back.hello("host", token=host.token)
        state = await back.expect("game_state")
        assert state["game"]["actions"] == actions and state["game"]["view"] == before
        assert state["room"] is not None and state["room"]["code"] == code and state["room"]["status"] == "running"
        reply = await back.request({"type": "resign"})
        assert reply["type"] == "game_over"
        rival_back = await ArenaClient.open(url)
        await rival_back.hello("rival", token=rival.token)
        await rival_back.expect("game_state")
        assert (await rival_back.request({"type": "resign"}))["type"] == "game_over"
        over = await rival_back.expect("race_over", code=code)
        assert {row["outcome"] for row in over["standings"]} == {"resigned"}
        await back.close()
        await rival_back.close()
    finally:
        await restarted.shutdown()


async def test_progress_is_spoiler_free_and_cell_eleven_keeps_its_secrets(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    watcher = await connect_player(arena.url, "watcher")
    try:
        code, games = await open_race(host, [watcher], "cell-eleven")
        game_id = games[host.player_id]["game_id"]
        assert games[host.player_id]["seed"] is None
        board = arena.server.arena.games[game_id].game.board
        face_down = {
            card_text(card) for index, column in enumerate(board.tableau) for card in column[: board.hidden[index]]
        }
        spectator = await connect_player(arena.url, "spectator")
        joined = await spectator.request({"type": "join_room", "code": code, "spectator": True})
        assert joined["room"]["seed"] is None
        await play(arena, host, game_id, "cell-eleven", 6)
        still_hidden = {  # a face-down card never turns back, so these were never shown to anyone
            card_text(card) for index, column in enumerate(board.tableau) for card in column[: board.hidden[index]]
        }
        assert still_hidden < face_down or still_hidden == face_down
        assert still_hidden
        for frame_text in host.raw + watcher.raw + spectator.raw:
            assert not any(f'"{card}"' in frame_text for card in still_hidden), "a face-down card leaked"
        progress = await spectator.expect("progress", code=code)
        assert set(progress["progress"]) == {"player_id", "name", "status", "cards_on_foundations", "moves", "time_ms"}
        for frame in watcher.frames + spectator.frames:
            assert frame["type"] not in ("move_accepted", "replay")
            assert "seed" not in frame or frame["seed"] is None
            if frame["type"] == "room":
                assert frame["room"]["seed"] is None
        assert (await host.request({"type": "resign"}))["type"] == "game_over"
        assert (await watcher.request({"type": "resign"}))["type"] == "game_over"
        over = await spectator.expect("race_over", code=code)
        assert over["seed"] == str(arena.server.arena.rooms[code].record.seed)
        replay = await spectator.request({"type": "get_replay", "game_id": game_id})
        assert replay["type"] == "replay" and len(replay["actions"]) == 6
        await spectator.close()
    finally:
        await host.close()
        await watcher.close()


async def test_after_a_restart_replays_and_running_rooms_come_back_from_the_store(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    rival = await connect_player(arena.url, "rival")
    code, games = await open_race(host, [rival], "freecell", seed=1)
    actions = await play(arena, host, games[host.player_id]["game_id"], "freecell", 3)
    assert (await host.request({"type": "resign"}))["type"] == "game_over"
    await host.close()
    await rival.close()
    restarted = await start_arena(arena.database_url)
    try:
        url = f"ws://127.0.0.1:{restarted.port}/"
        watcher = await connect_player(url, "watcher")
        own = await ArenaClient.open(url)
        await own.hello("host", token=host.token)
        early = await watcher.request({"type": "get_replay", "game_id": games[host.player_id]["game_id"]})
        assert early["code"] == "replay_not_available", "the race is still running: no replays yet"
        joined = await watcher.request({"type": "join_room", "code": code, "spectator": True})
        assert joined["type"] == "room" and joined["room"]["status"] == "running"
        rival_back = await ArenaClient.open(url)
        await rival_back.hello("rival", token=rival.token)
        assert (await rival_back.request({"type": "resign"}))["type"] == "game_over"
        await watcher.expect("race_over", code=code)
        replay = await watcher.request({"type": "get_replay", "game_id": games[host.player_id]["game_id"]})
        assert replay["type"] == "replay" and replay["actions"] == actions and replay["outcome"] == "resigned"
        for client in (watcher, own, rival_back):
            await client.close()
    finally:
        await restarted.shutdown()


async def test_a_refused_write_rolls_the_move_back_and_says_so(arena: RunningArena) -> None:
    """A stale process already wrote move 1 of this game: the insert fails, memory is rolled back."""
    from datetime import UTC, datetime

    from freecell_arena.core.ports.records import MoveRecord
    from freecell_arena.store import SqlStore

    host = await connect_player(arena.url, "host")
    try:
        _, games = await open_race(host, [], "freecell", seed=1, autoplay=False)
        game_id = games[host.player_id]["game_id"]
        assert (await host.request({"type": "move", "move": "2a"}))["type"] == "move_accepted"
        other_process = SqlStore(arena.database_url)
        try:
            await other_process.write([MoveRecord(game_id, 1, "5b", datetime.now(UTC))])
        finally:
            await other_process.close()
        refused = await host.request({"type": "move", "move": "5c"})
        assert refused["type"] == "error" and refused["code"] == "storage_failed"
        state = await host.request({"type": "get_state"})
        assert state["game"]["actions"] == ["2a"] and state["game"]["player_moves"] == 1
        assert state["game"]["view"]["cells"] == ["9C", None, None, None]
    finally:
        await host.close()
