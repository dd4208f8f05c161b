"""Friends race in real browsers against a real server: from a link to race_over, a reload and a server restart
in the middle of a race, a spectator by link, an illegal move refused with the engine's reason, a hostile name
shown as text. Every page fails its test on a console error (conftest)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from arena_client import ArenaClient, connect_player
from playwright.async_api import expect
from racing import open_race
from serverprocess import ServerProcess, running_server, server_env
from webpages import SOLUTION, NewPlayer, Player, engine_piles, shown_piles

from freecell_arena.engine.game_text import read_game


def ws_url(server: ServerProcess) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def solo_race(player: Player, deal: int = 1) -> str:
    await player.open("/")
    code = await player.create_race("freecell", deal=deal, autoplay=False)
    await player.start_race()
    return code


async def send_moves(client: ArenaClient, moves: list[str]) -> None:
    for notation in moves:
        reply = await client.request({"type": "move", "move": notation})
        assert reply["type"] == "move_accepted", reply


async def test_two_friends_race_one_deal_from_a_link_to_race_over(base_url: str, new_player: NewPlayer) -> None:
    alice = await new_player("Alice", base_url)
    await alice.open("/")
    code = await alice.create_race("freecell", deal=1, autoplay=False)
    link = await alice.room_link()
    assert link == f"{base_url}/r/{code}?by=Alice&v=freecell", "the link says who invites to what"

    bob = await new_player("Bob", base_url)
    await bob.open(link.removeprefix(base_url))
    await expect(alice.page.get_by_role("list", name="Players")).to_contain_text("Bob")
    await expect(bob.page.get_by_role("list", name="Players")).to_contain_text("Alice")
    await expect(bob.page.get_by_role("button", name="Start", exact=True)).to_have_count(0)  # only the host starts

    await alice.start_race()
    await bob.wait_for_board()
    assert await alice.read_board() == await bob.read_board(), "one deal for both"

    # Bob: a move by click (the top card of column 2, then free cell 1), one by drag (column 5 to free cell 2)
    await bob.pile("t2").locator("[data-card]").last.click()
    await bob.pile("c1").click()
    await expect(bob.pile("c1").locator("[data-card]")).to_have_attribute("data-card", "9C")
    await bob.drag(bob.pile("t5").locator("[data-card]").last, bob.pile("c2"))
    await expect(bob.pile("c2").locator("[data-card]")).to_have_attribute("data-card", "6C")
    await expect(bob.board).to_have_attribute("data-moves", "2")
    log = bob.page.get_by_role("log")  # the live region announces each move in words
    await expect(log).to_contain_text("9 of clubs from column 2 to free cell 1. Move 1.")
    await expect(log).to_contain_text("6 of clubs from column 5 to free cell 2. Move 2.")
    await bob.resign()
    await expect(bob.board).to_have_attribute("data-status", "resigned")

    # Alice: the whole solution typed into "Move"
    for notation in SOLUTION:
        await alice.type_move(notation)
    await expect(alice.board).to_have_attribute("data-status", "won")
    await expect(alice.board).to_have_attribute("data-moves", str(len(SOLUTION)))

    for player in (alice, bob):
        standings = player.page.get_by_role("table")
        await expect(standings.get_by_role("row")).to_have_count(3)  # the header and two players
        await expect(standings.get_by_role("row").nth(1)).to_contain_text("Alice")
        await expect(standings.get_by_role("row").nth(1)).to_contain_text("won")
        await expect(standings.get_by_role("row").nth(2)).to_contain_text("Bob")
        await expect(standings.get_by_role("row").nth(2)).to_contain_text("resigned")
        await expect(player.page.get_by_role("link", name="Replay of Alice")).to_be_visible()
        await expect(player.page.get_by_role("link", name="Replay of Bob")).to_be_visible()
        await expect(player.room).to_have_attribute("data-room-status", "finished")

    # Bob watches Alice's replay: step, slider, play at a chosen speed; every board is the engine's
    page = bob.page
    await page.get_by_role("link", name="Replay of Alice").click()
    slider = page.get_by_role("slider", name="Replay position")
    await expect(slider).to_have_value(str(len(SOLUTION)))
    await expect(page.get_by_text("deal #1").first).to_be_visible()  # to play it again
    async with page.expect_download() as downloading:  # the game as text, to keep: it replays to Alice's win
        await page.get_by_role("link", name="Download game").click()
    download = await downloading.value
    assert download.suggested_filename.endswith(".fcgame")
    saved = read_game(Path(await download.path()).read_text(encoding="utf-8"))
    assert (saved.variant, saved.seed, saved.tag("Player")) == ("freecell", 1, "Alice")
    assert list(saved.moves) == list(SOLUTION)
    assert saved.check().board.is_won()
    assert shown_piles(await bob.read_board()) == engine_piles(SOLUTION)
    await page.get_by_role("button", name="First position").click()
    assert shown_piles(await bob.read_board()) == engine_piles([])
    await page.get_by_role("button", name="Next move").click()
    await expect(slider).to_have_value("1")
    assert shown_piles(await bob.read_board()) == engine_piles(SOLUTION[:1])
    await slider.focus()
    for _ in range(9):
        await slider.press("ArrowRight")
    await expect(slider).to_have_value("10")
    assert shown_piles(await bob.read_board()) == engine_piles(SOLUTION[:10])
    await page.get_by_role("button", name="Previous move").click()
    assert shown_piles(await bob.read_board()) == engine_piles(SOLUTION[:9])
    await page.get_by_role("combobox", name="Speed").select_option("10")
    await page.get_by_role("button", name="Play", exact=True).click()
    await expect(slider).not_to_have_value("9")
    await page.get_by_role("button", name="Pause").click()
    at = int(await slider.input_value())
    await page.wait_for_timeout(300)
    await expect(slider).to_have_value(str(at))  # paused


async def test_a_reload_in_the_middle_of_a_race_resumes_the_same_game(base_url: str, new_player: NewPlayer) -> None:
    alice = await new_player("Alice", base_url)
    code = await solo_race(alice)
    for notation in SOLUTION[:5]:
        await alice.type_move(notation)
    before = await alice.read_board()
    game_id = await alice.board.get_attribute("data-game-id")

    await alice.page.reload()
    await alice.wait_for_board()
    assert alice.page.url.endswith(f"/r/{code}")
    await expect(alice.board).to_have_attribute("data-moves", "5")
    assert await alice.board.get_attribute("data-game-id") == game_id
    assert await alice.read_board() == before
    await alice.type_move(SOLUTION[5])
    await expect(alice.board).to_have_attribute("data-moves", "6")


async def test_a_server_restart_in_the_middle_of_a_race_resumes(tmp_path: Path, new_player: NewPlayer) -> None:
    async with running_server(tmp_path, env=server_env()) as first:
        port = first.port
        alice = await new_player("Alice", f"http://127.0.0.1:{port}")
        await solo_race(alice)
        for notation in SOLUTION[:4]:
            await alice.type_move(notation)
        before = await alice.read_board()
    # the first server was killed (SIGKILL) on leaving the block: the page says so and keeps trying
    alice.console.expect(r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/' failed")
    await expect(alice.page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    async with running_server(tmp_path, env=server_env(), port=port):
        await expect(alice.page.locator("#connection")).to_have_attribute("data-state", "open", timeout=30_000)
        await expect(alice.board).to_have_attribute("data-moves", "4")
        assert await alice.read_board() == before
        await alice.type_move(SOLUTION[4])
        await expect(alice.board).to_have_attribute("data-moves", "5")


async def test_a_drained_server_closes_the_page_with_1012_and_no_error_then_the_race_goes_on(
    tmp_path: Path, new_player: NewPlayer
) -> None:
    """A stop with a drain grace (a rolling deploy): the page plays on through the grace, is closed with 1012, says
    the server is restarting (information, not an error), shows "Reconnecting…" while no server listens, and comes
    back to the same board when the next process is up."""
    async with running_server(tmp_path, env=server_env(FREECELL_ARENA_DRAIN_GRACE_S="1")) as first:
        port = first.port
        alice = await new_player("Alice", f"http://127.0.0.1:{port}")
        await solo_race(alice)
        for notation in SOLUTION[:3]:
            await alice.type_move(notation)
        first.process.send_signal(signal.SIGTERM)
        await alice.type_move(SOLUTION[3])  # played during the grace
        await expect(alice.board).to_have_attribute("data-moves", "4")
        before = await alice.read_board()
        connection = alice.page.locator("#connection")
        await expect(connection).to_have_attribute("data-state", "reconnecting", timeout=10_000)
        await expect(connection).to_contain_text("Reconnecting…")
        assert await first.wait() == 0
    alice.console.expect(r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/' failed")  # tries while none listens
    announcer = alice.page.locator("#announcer")
    await expect(announcer.locator("[data-kind=info]").last).to_have_text("The server is restarting: reconnecting…")
    assert await announcer.locator("[data-kind=error]").count() == 0, await announcer.all_inner_texts()
    await expect(connection).to_have_text("Reconnecting… (the server is restarting)")  # whichever attempt failed
    async with running_server(tmp_path, env=server_env(), port=port):
        await expect(connection).to_have_attribute("data-state", "open", timeout=30_000)
        await expect(alice.board).to_have_attribute("data-moves", "4")
        assert await alice.read_board() == before
        await alice.type_move(SOLUTION[4])
        await expect(alice.board).to_have_attribute("data-moves", "5")


async def test_a_spectator_by_link_sees_progress_live_and_the_standings(
    server: ServerProcess, base_url: str, new_player: NewPlayer
) -> None:
    host = await connect_player(ws_url(server), "Host")
    try:
        code, _ = await open_race(host, [], "freecell", seed=1, autoplay=False)
        carol = await new_player("Carol", base_url)
        await carol.open(f"/r/{code}")
        await expect(carol.room).to_have_attribute("data-room-status", "running")
        await expect(carol.page.get_by_role("log")).to_contain_text("you are watching")
        await expect(carol.board).to_have_count(0)  # a spectator sees counts, never a board
        progress = carol.page.get_by_role("list", name="Progress of every player").get_by_role("listitem")
        await expect(progress).to_have_count(1)
        await send_moves(host, SOLUTION[:3])
        await expect(progress.first).to_have_attribute("data-moves", "3")
        assert (await host.request({"type": "resign"}))["type"] != "error"
        await expect(carol.room).to_have_attribute("data-room-status", "finished")
        await expect(carol.page.get_by_role("table").get_by_role("row").nth(1)).to_contain_text("Host")
        await expect(carol.page.get_by_role("link", name="Replay of Host")).to_be_visible()
    finally:
        await host.close()


async def test_an_illegal_move_shows_the_engines_reason_and_changes_nothing(
    server: ServerProcess, base_url: str, new_player: NewPlayer
) -> None:
    probe = await connect_player(ws_url(server), "Probe")
    try:
        await open_race(probe, [], "freecell", seed=1, autoplay=False)
        refusal = await probe.request({"type": "move", "move": "1h"})  # the 6 of spades cannot go home
    finally:
        await probe.close()
    assert refusal["code"] == "illegal_move"

    alice = await new_player("Alice", base_url)
    await solo_race(alice)
    before = await alice.read_board()
    box = alice.page.get_by_role("textbox", name="Move")
    await box.fill("1h")
    await box.press("Enter")
    in_words = refusal["message"].replace("6S", "6 of spades")  # told in words, as accepted moves are
    assert in_words != refusal["message"], refusal["message"]
    await expect(alice.page.get_by_text(in_words).first).to_be_visible()
    await expect(alice.page.get_by_role("log")).to_contain_text(in_words)
    await expect(alice.page.locator("[data-reason]")).to_have_attribute("data-reason", refusal["reason"])
    await asyncio.sleep(0.3)  # a wrongly applied move would be drawn by now
    assert await alice.read_board() == before
    await expect(alice.board).to_have_attribute("data-moves", "0")
    await expect(box).to_have_value("1h")  # kept, to be corrected
    await alice.type_move(SOLUTION[0])  # the game goes on


async def test_the_lobby_shows_players_and_spectators_live_and_names_as_text(
    server: ServerProcess, base_url: str, new_player: NewPlayer
) -> None:
    alice = await new_player("Alice", base_url)
    await alice.open("/")
    code = await alice.create_race("freecell")
    hostile = "<img src=x onerror=alert(1)>"
    mallory = await connect_player(ws_url(server), hostile)
    try:
        assert (await mallory.request({"type": "join_room", "code": code}))["type"] == "room"
        players = alice.page.get_by_role("list", name="Players")
        await expect(players).to_contain_text(hostile)
        await expect(players.locator("img")).to_have_count(0)
        carol = await new_player("Carol", base_url)
        await carol.open(f"/r/{code}?watch=1")
        await expect(alice.page.get_by_role("list", name="Spectators")).to_contain_text("Carol")
        await expect(carol.page.get_by_role("list", name="Players")).to_contain_text(hostile)
        assert (await mallory.request({"type": "leave_room"}))["type"] != "error"
        await expect(players).not_to_contain_text(hostile)
    finally:
        await mallory.close()


async def test_a_full_rooms_link_offers_to_watch(server: ServerProcess, base_url: str, new_player: NewPlayer) -> None:
    host = await connect_player(ws_url(server), "Host")
    try:
        created = await host.request({"type": "create_room", "variant": "freecell", "options": {"max_players": 1}})
        code = created["room"]["code"]
        dora = await new_player("Dora", base_url)
        await dora.open(f"/r/{code}")
        await expect(dora.page.get_by_role("alert")).to_contain_text(f"Room {code} is full")
        await dora.page.get_by_role("button", name="Watch").click()
        await expect(dora.page.get_by_role("list", name="Spectators")).to_contain_text("Dora")
        await expect(dora.page.get_by_role("button", name="Start", exact=True)).to_have_count(0)
    finally:
        await host.close()


async def test_a_time_limit_ends_the_game_with_a_clear_state(
    server: ServerProcess, base_url: str, new_player: NewPlayer
) -> None:
    host = await connect_player(ws_url(server), "Host")
    try:
        options = {"time_limit_s": 5, "countdown_s": 0, "autoplay": False}
        created = await host.request({"type": "create_room", "variant": "freecell", "deal": 1, "options": options})
        tim = await new_player("Tim", base_url)
        await tim.open(f"/r/{created['room']['code']}")
        await expect(tim.page.get_by_role("list", name="Players")).to_contain_text("Host")
        assert (await host.request({"type": "start_race"}))["type"] == "countdown"
        await tim.wait_for_board()
        await tim.type_move(SOLUTION[0])
        await expect(tim.board).to_have_attribute("data-status", "timeout", timeout=15_000)
        await expect(tim.page.locator("[data-outcome]")).to_contain_text("Time is up")
        await expect(tim.page.get_by_role("textbox", name="Move")).to_be_disabled()
        await expect(tim.room).to_have_attribute("data-room-status", "finished")
    finally:
        await host.close()
