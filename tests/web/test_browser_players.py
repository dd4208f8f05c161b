"""Issue 33, as a player finds it, in Chromium at 1366x768 and 390x844 (each defect at both sizes; the big boards are
tests/web/test_browser_fit.py, the piles' names tests/web/test_browser_boards.py). The server runs in this process
with a clock the test sets (the standings' rule is dated; a daily ranks only identities from before it opened).

1. Two who give up with no progress tie and nobody's rating moves (seen on a laptop, then on a phone).
2-3. A new player's first daily says before it starts, and on its result, why it is practice; the day counts as
   played on the calendar, and the days before the player existed are not "missed".
4. Resign and Leave room ask first; Resign stands apart from Undo; the board comes before any button in the tab
   order.
5. Second to a bot is not "You won!", and the final progress lists whoever ranked first first (a laptop, then
   a phone).
6. "Race again" on a phone: the friend scrolled down to the standings finds "Join the next race" there, and the
   event log names that button.
8. Screen reader: a picked-up card is announced, in words.
9. The smaller ones: undo says it costs a move, your name leads to your page, a first visit sees the game (no name
   demanded, no "Not connected"), an invitation says who invited you to what, a chosen deal says it is not rated,
   the replay fits 768 px and arrow keys step it, the phone history shows Result and Moves, no 19-digit seeds in
   titles, a room's events stay in the room, the Deal box fits a phone.
And what players miss: hints and auto-finish in casual play (never in ranked races), Play now against the house bot,
the offer of a bot after the wait, a rules page per variant, the win's cascade (none under reduced motion, and no
vibration either), the review's first point where your line got longer, a history with place and rating change.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from arena_client import ArenaClient, connect_player
from boards_helpers import ManualClock, play
from playwright.async_api import expect
from racing_pages import PAR_LINE, race_a_program, site
from webpages import DESKTOP, PHONE, ROOM_PATH, SIZES, SOLUTION, NewPlayer, assert_accessible

from freecell_arena.core.records.review import solve_par
from freecell_arena.engine import VARIANTS, Game, format_generic
from freecell_arena.engine.solver import finish
from freecell_arena.net.app import ArenaServer


async def test_1_giving_up_first_wins_nothing(arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer) -> None:
    server, clock = arena
    base, url = site(server)
    player = await new_player("Quitter", base, viewport=DESKTOP)
    rival = await connect_player(url, "Stayer")
    try:
        code = await race_a_program(player, rival, clock)  # a deal the server draws: a rated race
        await player.resign()  # first, at 0 moves
        await play(rival, ["t1-c1", "undo"])  # two moves more, no card home beyond the deal's
        assert (await rival.request({"type": "resign"}))["outcome"] == "resigned"
        rows = player.page.locator(".standings-table tbody tr")
        await expect(rows).to_have_count(2)
        await expect(rows.nth(0)).to_have_attribute("data-rank", "1")
        await expect(rows.nth(1)).to_have_attribute("data-rank", "1")  # a tie, whoever gave up first
        await player.page.set_viewport_size(PHONE)
        await player.page.reload()  # the standings again on a phone, with any rating change the race made: none
        await expect(player.page.locator(".standings-table tbody tr")).to_have_count(2)
        await expect(player.page.locator('.standings-table tbody tr[data-rank="1"]')).to_have_count(2)
        await expect(player.page.locator("[data-delta]")).to_have_count(0)
        stored = await server.store.room_by_code(code)
        assert stored is not None and await server.store.ratings.changes_of(stored.room.room_id) == []
    finally:
        await rival.close()


@pytest.mark.parametrize("size", SIZES)
async def test_2_and_3_a_new_players_first_daily_says_why_it_is_practice(
    daily_arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer, size: dict[str, int]
) -> None:
    server, clock = daily_arena
    await server.daily.run_once()
    deal = await server.store.dailies.deal("freecell", clock.now().date())
    assert deal is not None
    player = await new_player("Newcomer", site(server)[0], viewport=size)
    await player.open("/#/daily/freecell")  # made today, after today's deal opened
    assert deal.solution
    before = player.page.locator('section[data-unranked-reason="new_player"]')
    await expect(before).to_contain_text("New players rank from tomorrow")  # said before the clock starts
    await expect(player.board).to_have_count(0)
    await assert_accessible(player, "a new player's daily, before it starts")
    await before.get_by_role("button", name="Play today\u2019s deal as practice").click()
    await player.wait_for_board()
    await player.type_move(deal.solution[0])
    await player.resign()
    result = player.page.get_by_role("region", name="Your day")
    await expect(result).to_contain_text("This game was practice")
    await expect(result).to_contain_text("New players rank from tomorrow")
    await expect(result.get_by_role("link", name="Save this player with a passkey")).to_be_visible()
    await expect(player.page.get_by_text("No ranked winner yet today: your game was practice.")).to_be_visible()
    today = clock.now().date()
    calendar = result.locator(".calendar")
    await expect(calendar.locator(f'[data-day="{today}"]')).to_have_attribute("data-mark", "played")
    if today.day > 1:  # yesterday, before the player existed
        yesterday = calendar.locator(f'[data-day="{today - timedelta(days=1)}"]')
        await expect(yesterday).to_have_attribute("data-mark", "none")
    await expect(calendar.locator('[data-mark="missed"]')).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
async def test_4_resign_and_leave_ask_first_and_resign_stands_apart(
    arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer, size: dict[str, int]
) -> None:
    server, _ = arena
    player = await new_player("Careful", site(server)[0], viewport=size)
    await player.open("/")
    await player.create_race("freecell", deal=1)
    await player.start_race()
    page = player.page
    first_stop = await page.evaluate(
        "() => document.querySelector('.game').querySelector('button:not([hidden]), [tabindex=\"0\"], input')"
        ".dataset.pile ?? null")
    assert first_stop == "t1", "the board is the game's first tab stop, before any button"
    await page.get_by_role("button", name="Resign").click()
    dialog = page.get_by_role("dialog", name="Resign this game?")
    await expect(dialog).to_be_visible()
    await expect(dialog.get_by_role("button", name="Keep playing")).to_be_focused()  # a stray Enter keeps the game
    await dialog.get_by_role("button", name="Keep playing").click()
    await expect(player.board).to_have_attribute("data-status", "playing")
    await page.get_by_role("button", name="Leave room").click()
    leave = page.get_by_role("dialog", name="Leave the race?")
    await expect(leave).to_contain_text("resigns your game")
    await page.keyboard.press("Escape")
    await expect(player.board).to_have_attribute("data-status", "playing")
    await expect(player.room).to_have_attribute("data-room-status", "running")
    undo = await page.get_by_role("button", name="Undo (costs a move)").bounding_box()
    resign = await page.get_by_role("button", name="Resign").bounding_box()
    assert undo and resign
    apart = resign["x"] - (undo["x"] + undo["width"]) if abs(resign["y"] - undo["y"]) < 4 else 999
    assert apart >= 40, f"Resign is {apart} px from Undo"
    await player.resign()
    await expect(player.board).to_have_attribute("data-status", "resigned")


async def test_5_second_to_a_bot_is_not_a_win(arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer) -> None:
    server, _ = arena
    base, url = site(server)
    player = await new_player("Second", base, viewport=DESKTOP)
    bot = await ArenaClient.open(url)
    await bot.hello("Botty", bot=True)
    try:
        await race_a_program(player, bot, deal=1)
        await play(bot, PAR_LINE)  # the bot wins first, in the solver's moves
        await player.type_move(PAR_LINE[0])
        await player.page.get_by_role("button", name="Undo (costs a move)").click()  # two moves more than the bot
        await expect(player.board).to_have_attribute("data-moves", "2")
        for notation in PAR_LINE:
            await player.type_move(notation)
        outcome = player.page.locator(".outcome")
        await expect(outcome).to_have_attribute("data-place", "2")
        await expect(outcome).to_contain_text("2nd of 2")
        await expect(outcome).not_to_contain_text("You won")
        progress = player.page.get_by_role("list", name="Progress of every player").get_by_role("listitem")
        await expect(progress.first).to_contain_text("Botty")  # the bot ranked first: it is listed first
        await expect(player.page.get_by_role("log")).to_contain_text("You are 2nd of 2")
        await player.page.set_viewport_size(PHONE)  # the same on a phone, where the progress is under the board
        await expect(outcome).to_be_in_viewport()
        await expect(outcome).to_contain_text("2nd of 2")
        await expect(progress.first).to_contain_text("Botty")
    finally:
        await bot.close()


@pytest.mark.parametrize("size", SIZES)
async def test_6_race_again_reaches_a_friend_scrolled_down_to_the_standings(
    arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer, size: dict[str, int]
) -> None:
    server, _ = arena
    base, url = site(server)
    player = await new_player("Friend", base, viewport=size)
    host = await connect_player(url, "Host")
    try:
        await race_a_program(player, host, deal=1, autoplay=False)
        await play(host, SOLUTION)
        await player.resign()
        standings = player.page.get_by_role("region", name="Standings")
        await standings.scroll_into_view_if_needed()
        opened = await host.request({"type": "race_again"})
        assert opened["type"] == "room", opened
        join = standings.get_by_role("button", name="Join the next race")  # where the friend is looking
        await expect(join).to_be_in_viewport()
        await expect(player.page.get_by_role("log")).to_contain_text("join it with \u201cJoin the next race\u201d")
        await join.click()
        await expect(player.page).to_have_url(f"{base}/r/{opened['room']['code']}")
    finally:
        await host.close()


@pytest.mark.parametrize("size", SIZES)
async def test_8_a_picked_up_card_is_announced_in_words(arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer,
                                                       size: dict[str, int]) -> None:  # fmt: skip
    server, _ = arena
    player = await new_player("Listener", site(server)[0], viewport=size, has_touch=size == PHONE)
    await player.open("/")
    await player.create_race("freecell", deal=1, autoplay=False)
    await player.start_race()
    log = player.page.get_by_role("log")
    column = player.page.get_by_role("group", name="Column 2: 9 of clubs on top, 7 cards")
    await column.focus()
    await player.page.keyboard.press("Enter")
    await expect(log).to_contain_text("Picked up 9 of clubs from column 2")
    await player.page.keyboard.press("Escape")
    await expect(log).to_contain_text("Put back.")
    await player.page.keyboard.press("Enter")
    await player.page.keyboard.press("c")
    await expect(log).to_contain_text("9 of clubs from column 2 to free cell 1. Move 1.")
    await expect(player.page.get_by_role("group", name="Free cell 1: 9 of clubs")).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
async def test_9_the_smaller_ones(arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer,
                                  size: dict[str, int]) -> None:  # fmt: skip
    server, _ = arena
    base, url = site(server)
    guest = await new_player("Guest", base, viewport=size)
    page = guest.page
    await page.goto(base + "/")  # a first visit sees the game, not a demand for a name
    await expect(page.get_by_role("button", name="Play now")).to_be_visible()
    await expect(page.get_by_role("region", name="Quick races filling now")).to_be_visible()
    await expect(page.get_by_role("textbox", name="Name", exact=True)).to_have_count(0)
    await expect(page.locator("#connection")).to_be_hidden()  # no "Not connected" before playing
    deal_box = await page.get_by_role("spinbutton", name="Deal number").bounding_box()
    panel = await page.locator(".create-form").bounding_box()
    assert deal_box and panel and deal_box["x"] + deal_box["width"] <= panel["x"] + panel["width"], "the Deal box fits"

    host = await new_player("Ada", base, viewport=DESKTOP)
    await host.open("/")
    code = await host.create_race("freecell", deal=1)
    link = await host.room_link()
    await page.goto(link)  # an invitation says who invited you to what
    await expect(page.get_by_role("heading", name="Ada invited you to a race")).to_be_visible()
    await expect(page.locator("#main")).to_contain_text(f"room {code} of FreeCell")
    name = page.get_by_role("textbox", name="Name", exact=True)
    await name.fill("Guest")
    await name.press("Enter")
    await expect(page.get_by_role("list", name="Players")).to_contain_text("Ada")
    await expect(page.get_by_role("link", name="Your page: Guest")).to_have_attribute("href", "/#/player")
    await host.start_race()
    await guest.wait_for_board()
    await expect(page.get_by_role("button", name="Undo (costs a move)")).to_be_visible()
    await guest.type_move("t2-c1")
    await guest.type_move("t5-c2")
    await guest.resign()
    await host.resign()
    await expect(guest.room).to_have_attribute("data-room-status", "finished")
    await page.get_by_role("button", name="Race this deal again").click()  # a chosen deal: never rated
    await expect(guest.room).to_have_attribute("data-room-status", "lobby")
    await expect(page.locator(".room-options")).to_contain_text("not rated (the host chose the deal)")
    await expect(page.get_by_role("log")).not_to_contain_text("The race has started")  # the last room's stay there
    await page.get_by_role("button", name="Leave room").click()

    await page.goto(base + "/#/history")
    table = page.get_by_role("table")
    for header in ("Result", "Moves"):
        cell = await table.get_by_role("columnheader", name=header, exact=True).bounding_box()
        assert cell and cell["x"] + cell["width"] <= size["width"], f"{header} on the screen"
    await page.get_by_role("link", name="Replay of game").first.click()
    slider = page.get_by_role("slider", name="Replay position")
    at = int(await slider.input_value())
    await page.locator("#main").focus()
    await page.keyboard.press("ArrowLeft")
    await expect(slider).to_have_value(str(at - 1))  # arrow keys step the replay
    await page.keyboard.press("Home")
    await expect(slider).to_have_value("0")
    if size == DESKTOP:
        await page.evaluate("() => document.querySelector('.replay-page').scrollIntoView()")
        bottom = await page.evaluate("() => document.querySelector('.board').getBoundingClientRect().bottom")
        assert bottom <= size["height"], f"the replay's board fits the window: {bottom}"

    rival = await connect_player(url, "Rival")
    try:
        await race_a_program(host, rival, variant="freecell-four-deck")  # a seed of up to 19 digits
        title = await host.page.locator(".game-title").inner_text()
        assert not any(len(word) > 9 for word in title.replace("#", " ").split() if word.isdigit()), title
    finally:
        await rival.close()


async def test_hints_and_auto_finish_in_casual_play_only(arena: tuple[ArenaServer, ManualClock],
                                                          new_player: NewPlayer) -> None:  # fmt: skip
    server, _ = arena
    player = await new_player("Learner", site(server)[0], viewport=PHONE)
    await player.open("/")
    await player.create_race("freecell", deal=1, ranked="no", autoplay=False)
    await player.start_race()
    await player.page.get_by_role("button", name="Hint").click()
    await expect(player.page.get_by_role("log")).to_contain_text("Hint: ")
    await expect(player.page.locator(".pile.hint-from")).to_have_count(1)
    await player.page.get_by_role("button", name="Finish").click()
    await expect(player.page.get_by_role("log")).to_contain_text("Not yet: some cards still need moving")
    variant = VARIANTS["freecell"]
    autoplayed = Game(variant, 1, autoplay=True)  # the solver's line, its autoplay played by hand (autoplay is off)
    line = [format_generic(move) for move in autoplayed.opening_autoplay]
    for action in PAR_LINE:
        turn = autoplayed.act(action)
        line += [format_generic(move) for move in turn.moves]
    decided = next(count for count in range(len(line)) if finish(Game.replay(variant, 1, line[:count])) is not None)
    for notation in line[:decided]:
        await player.type_move(notation)
    await player.page.get_by_role("button", name="Finish").click()
    await expect(player.board).to_have_attribute("data-status", "won")

    ranked = await new_player("Racer", site(server)[0], viewport=DESKTOP)
    await ranked.open("/")
    await ranked.create_race("freecell", deal=1)
    await ranked.start_race()
    await expect(ranked.page.get_by_role("button", name="Hint")).to_be_hidden()
    await expect(ranked.page.get_by_text("Hints and auto-finish are off here")).to_be_visible()


async def test_play_now_races_the_house_bot_when_nobody_waits(arena: tuple[ArenaServer, ManualClock],
                                                              new_player: NewPlayer) -> None:  # fmt: skip
    server, clock = arena
    player = await new_player("Eager", site(server)[0], viewport=PHONE)
    await player.page.goto(site(server)[0] + "/")
    await player.page.get_by_role("button", name="Play now").click()
    name = player.page.get_by_role("textbox", name="Name", exact=True)  # the name, when it is first needed
    await name.fill("Eager")
    await name.press("Enter")
    await expect(player.page).to_have_url(ROOM_PATH)
    await expect(player.page.get_by_role("list", name="Players")).to_contain_text("House bot")
    clock.advance(2)  # the quick race's countdown
    await player.wait_for_board()
    progress = player.page.get_by_role("list", name="Progress of every player")
    await expect(progress.locator('li:has-text("House bot")')).not_to_have_attribute("data-moves", "0")  # it plays


async def test_a_quick_race_alone_offers_the_house_bot(arena: tuple[ArenaServer, ManualClock],
                                                       new_player: NewPlayer) -> None:  # fmt: skip
    server, _ = arena
    player = await new_player("Patient", site(server)[0], viewport=DESKTOP)
    await player.open("/")
    await player.page.get_by_role("button", name="Quick race: Cell Eleven").click()
    offer = player.page.get_by_role("button", name="Race the house bot")
    await expect(offer).to_be_visible()  # after the server's house_bot_after_s alone
    await offer.click()
    await expect(player.page.get_by_role("list", name="Players")).to_contain_text("House bot")


async def test_a_rules_page_per_variant(arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer) -> None:
    server, _ = arena
    reader = await new_player("Reader", site(server)[0], viewport=PHONE)
    await reader.page.goto(f"{site(server)[0]}/#/rules/freecell")  # open to a first visit
    for variant, rules in VARIANTS.items():
        tabs = reader.page.get_by_role("navigation", name="Variants")
        await tabs.get_by_role("link", name=rules.name, exact=True).click()
        await expect(reader.page.get_by_role("heading", name=f"How to play {rules.name}")).to_be_visible()
        shape = reader.page.locator(".rules-shape")
        for name, value in (("cards", rules.total_cards), ("columns", rules.columns), ("cells", rules.cells),
                            ("foundations", len(rules.foundation_suits))):  # fmt: skip
            await expect(shape).to_have_attribute(f"data-{name}", str(value)), variant


VIBRATIONS = "window.buzzes = 0; navigator.vibrate = () => { window.buzzes += 1; return true; };"


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
async def test_a_win_cascades_and_buzzes_unless_motion_is_reduced(
    arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer, motion: str
) -> None:
    server, _ = arena
    player = await new_player("Winner", site(server)[0], viewport=PHONE, reduced_motion=motion, has_touch=True)
    await player.page.add_init_script(VIBRATIONS)
    await player.open("/")
    await player.create_race("freecell", deal=1)
    await player.start_race()
    await player.page.get_by_role("checkbox", name="Vibration").check()
    for notation in PAR_LINE:
        await player.type_move(notation)
    await expect(player.board).to_have_attribute("data-status", "won")
    cascade = player.page.locator(".celebration")
    buzzes = await player.page.evaluate("() => window.buzzes")
    if motion == "reduce":
        await expect(cascade).to_have_count(0)
        assert buzzes == 0, "no vibration under reduced motion"
    else:
        await expect(cascade).to_have_count(1)
        assert buzzes >= len(PAR_LINE), "a buzz per move and one for the win"


async def test_the_review_shows_where_moves_were_lost_and_the_history_each_place(
    arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer
) -> None:
    server, clock = arena
    base, url = site(server)
    player = await new_player("Student", base, viewport=DESKTOP)
    rival = await connect_player(url, "Teacher")
    server.arena.draw_seed = lambda low, high: 6  # a deal whose fourth move of the solver's puts a second card home
    try:
        code = await race_a_program(player, rival, clock)  # a rated race on a deal the server draws
        started = await rival.request({"type": "get_state"})
        par = solve_par("freecell", int(started["game"]["seed"]))
        await play(rival, par.line, clock, seconds_per_move=2.0)
        for notation in par.line[:3]:
            await player.type_move(notation)
        await player.page.get_by_role("button", name="Undo (costs a move)").click()  # where the line gets longer
        await expect(player.board).to_have_attribute("data-moves", "4")
        for notation in par.line[2:8]:
            await player.type_move(notation)
        await player.resign()
        await player.page.get_by_role("link", name="Review against par").click()
        lost = player.page.get_by_role("region", name="Where moves were lost")
        summary = lost.locator(".lost-summary")
        await expect(summary).to_contain_text("Your line first got longer")
        your_move = int(await summary.get_attribute("data-your-move") or 0)
        par_move = int(await summary.get_attribute("data-par-move") or 0)
        assert your_move > par_move, (your_move, par_move)
        mine = lost.get_by_role("region", name="Replay of you").get_by_role("slider", name="Replay position")
        solver = lost.get_by_role("region", name="Replay of the solver").get_by_role("slider", name="Replay position")
        await expect(mine).to_have_value(str(your_move))  # both lines at that point, side by side
        await expect(solver).to_have_value(str(par_move))
        await assert_accessible(player, "the review's lost moves")

        await player.open("/#/history")
        row = player.page.locator("tbody tr").first
        await expect(row).to_have_attribute("data-place", "2")
        await expect(row).to_contain_text("2nd of 2")
        delta = await row.get_attribute("data-rating-delta")
        assert delta and int(delta) < 0, delta
        await expect(row).to_contain_text(f"\u2212{-int(delta)}")
        await assert_accessible(player, "the history with places and rating changes")
        assert code
    finally:
        await rival.close()

