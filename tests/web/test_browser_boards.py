"""Each variant's deal on the page is the server's: every pile and card of the page against the `race_started`
view the server sent a program in the same race (one deal for the room), with the accessible names the issues
set: a card is "7 of hearts" or "face-down card"; a pile says where it is, its top card and its count ("Column 3:
7 of hearts on top, 7 cards", "Free cell 2: empty", "Foundation 1, clubs: empty"; issue 33, defect 8); and the
widest deals fit a phone held upright with every column side by side."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from arena_client import connect_player
from playwright.async_api import expect
from serverprocess import ServerProcess
from webpages import DESKTOP, PHONE, NewPlayer, expected_piles, shown_piles

from freecell_arena.engine import VARIANTS

RANKS = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
ZONES = {"t": "Column", "c": "Free cell", "f": "Foundation"}
SEEDS = {"freecell": 11982, "chinese-freecell": 7, "freecell-four-deck": 3, "freecell-three-deck": 5}
"""Chosen deals where the host may choose one (Cell Eleven deals are always the server's)."""


def card_name(text: str | None) -> str:
    if text is None:
        return "face-down card"
    return f"{RANKS.get(text[0], text[0])} of {SUITS[text[1]]}"


def counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def pile_name(pile: str, cards: list[str | None], view: dict[str, Any]) -> str:
    """What a screen reader hears on a pile: where, the top card, how many (face down among them)."""
    label = f"{ZONES[pile[0]]} {pile[1:]}"
    if pile[0] == "f":
        slot = view["foundations"][int(pile[1:]) - 1]
        where = f"{label}, {SUITS[slot['suit'].upper()]}"
        home = slot["cards"]
        return f"{where}: {card_name(cards[-1])}, {counted(home, 'card')}" if home else f"{where}: empty"
    if not cards:
        return f"{label}: empty"
    if pile[0] == "c":
        return f"{label}: {card_name(cards[0])}"
    hidden = cards.count(None)
    return f"{label}: {card_name(cards[-1])} on top, {counted(len(cards), 'card')}" + (
        f" ({hidden} face down)" if hidden else "")


async def race_with_a_program(server: ServerProcess, player: Any, variant: str) -> dict[str, Any]:
    """A program hosts a race of `variant`, the browser player joins by the room's link; the program's view."""
    host = await connect_player(f"ws://127.0.0.1:{server.port}/", "Host")
    try:
        request: dict[str, Any] = {"type": "create_room", "variant": variant, "options": {"countdown_s": 0}}
        if variant in SEEDS:
            request["seed"] = SEEDS[variant]
        created = await host.request(request)
        assert created["type"] == "room", created
        await player.open(f"/r/{created['room']['code']}")
        await expect(player.page.get_by_role("list", name="Players")).to_contain_text("Host")
        assert (await host.request({"type": "start_race"}))["type"] == "countdown"
        started = await host.expect("race_started")
        await player.wait_for_board()
        view: dict[str, Any] = started["game"]["view"]
        return view
    finally:
        await host.close()


@pytest.mark.parametrize("variant", list(VARIANTS))
async def test_each_variants_deal_is_drawn_with_the_servers_piles_and_cards(
    server: ServerProcess, base_url: str, new_player: NewPlayer, variant: str
) -> None:
    player = await new_player("Viewer", base_url, viewport=DESKTOP)
    view = await race_with_a_program(server, player, variant)
    board = await player.read_board()
    assert shown_piles(board) == expected_piles(view)
    await expect(player.board).to_have_attribute("data-variant", variant)
    for pile, content in board.items():
        assert content["role"] == "group"
        assert content["label"] == pile_name(pile, [card["text"] for card in content["cards"]], view)
        assert [card["name"] for card in content["cards"]] == [card_name(card["text"]) for card in content["cards"]]
    if variant == "cell-eleven":
        assert any(card["text"] is None for content in board.values() for card in content["cards"])
        await expect(player.page.get_by_role("img", name="face-down card").first).to_be_visible()
    columns = len(view["tableau"])
    await expect(player.page.get_by_role("group", name=f"Column {columns}:")).to_be_visible()


@pytest.mark.parametrize("variant", ["freecell-four-deck", "freecell-three-deck"])
async def test_the_widest_deals_fit_a_phone_held_upright(
    server: ServerProcess, base_url: str, new_player: NewPlayer, variant: str
) -> None:
    player = await new_player("Phone", base_url, viewport=PHONE, has_touch=True, is_mobile=True)
    await race_with_a_program(server, player, variant)
    columns = await player.page.evaluate(
        """() => [...document.querySelectorAll('.board [data-pile^="t"]')].map((pile) => {
             const box = pile.getBoundingClientRect();
             const top = pile.querySelector('[data-card]:last-child .rank');
             return {left: box.left, right: box.right, rank: top ? parseFloat(getComputedStyle(top).fontSize) : 0};
           })"""
    )
    assert len(columns) in (12, 14)
    for left, right in pairwise(columns):
        assert left["right"] <= right["left"] + 0.5, "columns side by side, not overlapping"
    assert columns[0]["left"] >= 0 and columns[-1]["right"] <= PHONE["width"], "every column on the screen"
    assert min(column["rank"] for column in columns) >= 10, "a rank drawn at 10 px or more"


async def test_a_day_with_no_daily_reads_as_an_empty_board_not_an_error(base_url: str, new_player: NewPlayer) -> None:
    """A daily board for a day nothing was dealt (before the server's first day) says so plainly, with the way to
    the daily deals; it showed the server's refusal in red, "there is no FreeCell daily for ..."."""
    player = await new_player("Reader", base_url, viewport=PHONE)
    player.console.expect("Failed to load resource: .* 404")  # the board is read over HTTP: an unknown day's 404
    await player.open("/#/leaderboards/freecell?board=daily&day=2020-01-01")
    results = player.page.get_by_role("region", name="Results")
    await expect(results).to_contain_text("No FreeCell daily was dealt for 2020-01-01.")
    await expect(results.get_by_role("link", name="Daily deals")).to_be_visible()
    await expect(results.get_by_role("alert")).to_have_count(0)
