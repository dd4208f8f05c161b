"""Input in a real browser: keyboard-only play as the help panel lists it, double-click to a foundation, undo,
the room link copied, an unknown room's link. Every board is compared with the Python engine's."""

from __future__ import annotations

from playwright.async_api import expect
from webpages import SOLUTION, NewPlayer, Player, engine_piles, shown_piles


async def deal_one(player: Player, undo: str | None = None) -> None:
    await player.open("/")
    await player.create_race("freecell", deal=1, autoplay=False, undo=undo)
    await player.start_race()


async def test_keyboard_only_play(base_url: str, new_player: NewPlayer) -> None:
    player = await new_player("Keys", base_url)
    await deal_one(player, undo="on")
    keyboard = player.page.keyboard
    for _ in range(40):  # Tab reaches the board
        await keyboard.press("Tab")
        if await player.page.evaluate("() => document.activeElement?.dataset?.pile !== undefined"):
            break
    else:
        raise AssertionError("Tab never reached a pile")

    async def keys(*names: str, moves: int) -> None:
        for name in names:
            await keyboard.press(name)
        await expect(player.board).to_have_attribute("data-moves", str(moves))

    await keys("2", "c", moves=1)  # 2a: column 2's top card to a free cell
    await keys("5", "Enter", "c", moves=2)  # 5b: picked, then sent to a free cell
    await keys("5", "Enter", "Home", "ArrowRight", "ArrowRight", "Enter", moves=3)  # 5c: put on the third cell
    await keys("7", "Enter", "End", "ArrowLeft", "Escape", "c", moves=4)  # 7d: Esc drops the pick; C sends t7's card
    await keys("8", "Enter", "7", "Enter", moves=5)  # 87
    assert shown_piles(await player.read_board()) == engine_piles(SOLUTION[:5])
    await keys("u", moves=6)  # U undoes (the room allows it); an undo counts as a move
    assert shown_piles(await player.read_board()) == engine_piles(SOLUTION[:4])
    await keys("m", moves=6)
    await expect(player.page.get_by_role("textbox", name="Move")).to_be_focused()


async def test_double_click_sends_a_card_home_and_undo_takes_it_back(base_url: str, new_player: NewPlayer) -> None:
    player = await new_player("Clicks", base_url)
    await deal_one(player, undo="on")
    for notation in SOLUTION[:13]:
        await player.type_move(notation)
    assert SOLUTION[13] == "5h"
    ace = player.pile("t5").locator("[data-card]").last
    await expect(ace).to_have_attribute("data-card", "AD")
    await ace.dblclick()
    await expect(player.board).to_have_attribute("data-moves", "14")
    assert shown_piles(await player.read_board()) == engine_piles(SOLUTION[:14])
    await player.page.get_by_role("button", name="Undo").click()
    await expect(player.pile("t5").locator("[data-card]").last).to_have_attribute("data-card", "AD")
    assert shown_piles(await player.read_board()) == engine_piles(SOLUTION[:13])


async def test_the_room_link_is_copied(base_url: str, new_player: NewPlayer) -> None:
    player = await new_player("Host", base_url, permissions=["clipboard-read", "clipboard-write"])
    await player.open("/")
    code = await player.create_race("freecell")
    await player.page.get_by_role("button", name="Copy link").click()
    await expect(player.page.get_by_role("log")).to_contain_text("copied")
    copied = await player.page.evaluate("() => navigator.clipboard.readText()")
    assert copied == f"{base_url}/r/{code}?by=Host&v=freecell", "the link says who invites to what"


async def test_an_unknown_rooms_link_says_so_and_the_page_goes_on(base_url: str, new_player: NewPlayer) -> None:
    player = await new_player("Lost", base_url)
    await player.open("/r/ZZZZ2345")
    await expect(player.page.get_by_role("alert")).to_contain_text("There is no room ZZZZ2345")
    await player.page.get_by_role("link", name="Back to the start").click()
    await expect(player.page.get_by_role("button", name="Create race")).to_be_visible()
    await player.create_race("freecell")  # the page keeps working


async def test_dragging_a_card_takes_the_run_above_it(base_url: str, new_player: NewPlayer) -> None:
    player = await new_player("Dragger", base_url)
    await deal_one(player)
    for notation in SOLUTION[:6]:
        await player.type_move(notation)
    run_base = player.pile("t8").locator("[data-card]").nth(-2)  # the engine's first run move here: 82v2
    await player.drag(run_base, player.pile("t2"))
    await expect(player.board).to_have_attribute("data-moves", "7")
    assert shown_piles(await player.read_board()) == engine_piles([*SOLUTION[:6], "82v2"])


async def test_four_colour_suits_are_kept_across_a_reload(base_url: str, new_player: NewPlayer) -> None:
    player = await new_player("Colours", base_url)
    await deal_one(player)
    colour = """(text) => getComputedStyle(document.querySelector(`.board [data-card="${text}"] .rank`)).color"""
    hearts, diamonds = "6H", "3D"  # both on top of a column of MS deal 1
    assert await player.page.evaluate(colour, hearts) == await player.page.evaluate(colour, diamonds)
    await player.page.get_by_role("checkbox", name="Four-colour suits").check()
    assert await player.page.evaluate(colour, hearts) != await player.page.evaluate(colour, diamonds)
    await player.page.reload()
    await player.wait_for_board()
    await expect(player.page.get_by_role("checkbox", name="Four-colour suits")).to_be_checked()
    assert await player.page.evaluate(colour, hearts) != await player.page.evaluate(colour, diamonds)
