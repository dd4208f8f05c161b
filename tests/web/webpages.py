"""What a browser test does with the app, as a player would: by accessible names (the issue's contract with the
app: "Name", "Move", "Create race", "Column 3", "7 of hearts") and the `data-` attributes render-board.js
documents, never by the app's internal classes. Also reads a board off the page, to compare with the server's."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Page, expect

from freecell_arena.engine import FOUNDATION, Board, format_generic, parse_move, variant_by_id
from freecell_arena.engine.view import player_view

SOLUTION = (Path(__file__).resolve().parents[1] / "data" / "ms-deal-1-atomic.sn").read_text().split()
"""A solution of Microsoft deal 1 in single-card moves, played with autoplay off."""
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
"""A test at both sizes: `@pytest.mark.parametrize("size", SIZES)`."""
VARIANT_NAMES = {
    "freecell": "FreeCell",
    "chinese-freecell": "Chinese FreeCell",
    "freecell-four-deck": "FreeCell Four Deck",
    "cell-eleven": "Cell Eleven",
    "freecell-three-deck": "FreeCell Three Deck",
}
BLOCKING_IMPACTS = ("serious", "critical")
ROOM_PATH = re.compile(r"/r/([A-Za-z0-9]+)")

READ_BOARD = """() => Object.fromEntries([...document.querySelectorAll('.board [data-pile]')].map((pile) => [
  pile.dataset.pile,
  {label: pile.getAttribute('aria-label'), role: pile.getAttribute('role'), count: Number(pile.dataset.count),
   cards: [...pile.querySelectorAll('[data-card]')].map((card) => ({
     text: card.dataset.card || null, name: card.getAttribute('aria-label')}))},
]))"""


@dataclass
class ConsoleWatch:
    """Every console error and uncaught exception of a page; a test may expect some (a server it stopped)."""

    name: str
    errors: list[str] = field(default_factory=list)
    expected: list[re.Pattern[str]] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def expect(self, pattern: str) -> None:
        self.expected.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [f"{self.name}: {error}" for error in self.errors if not any(p.search(error) for p in self.expected)]


@dataclass
class Player:
    page: Page
    base: str
    name: str
    console: ConsoleWatch

    async def open(self, path: str = "/") -> None:
        """Go to `path` and play there as `name`: on a first visit, give the name the page asks for (a page open to
        all, like the landing page, asks only when "Choose a name" is pressed); wait until connected."""
        await self.page.goto(self.base + path)
        name_box = self.page.get_by_role("textbox", name="Name", exact=True)
        connected = self.page.locator('#connection[data-state="open"]')
        choose = self.page.get_by_role("button", name="Choose a name")
        await expect(name_box.or_(connected).or_(choose).first).to_be_visible()
        if not await name_box.is_visible() and await choose.is_visible():
            await choose.click()
            await expect(name_box).to_be_visible()
        if await name_box.is_visible():
            await name_box.fill(self.name)
            await name_box.press("Enter")
        await expect(connected).to_be_attached()

    async def create_race(self, variant: str = "freecell", *, deal: int | None = None, autoplay: bool = True,
                          countdown_s: float = 0, undo: str | None = None, ranked: str | None = None,
                          practice: bool = False, max_players: int | None = None) -> str:  # fmt: skip
        """Fill the landing page's form as a player would; return the new room's code."""
        page = self.page
        await page.get_by_role("radio", name=VARIANT_NAMES[variant], exact=True).check()
        if practice:
            await page.get_by_role("radio", name="Practice (hints on)").check()
        if deal is not None:
            await page.get_by_role("radio", name="Choose the deal").check()
            await page.get_by_role("spinbutton", name="Deal number").fill(str(deal))
        await page.get_by_text("Room options").click()
        await page.get_by_role("checkbox", name="Autoplay safe cards to the foundations").set_checked(autoplay)
        await page.get_by_role("spinbutton", name="Countdown (seconds)").fill(str(countdown_s))
        if undo is not None:
            await page.get_by_role("combobox", name="Undo").select_option(undo)
        if ranked is not None:  # "auto", "yes" or "no"
            await page.get_by_role("combobox", name="On the leaderboard").select_option(ranked)
        if max_players is not None:
            await page.get_by_role("spinbutton", name="Players at most").fill(str(max_players))
        await page.get_by_role("button", name="Create race").click()
        await expect(page).to_have_url(ROOM_PATH)
        match = ROOM_PATH.search(page.url)
        assert match is not None
        await expect(self.room).to_have_attribute("data-room-status", "lobby")
        return match.group(1)

    @property
    def room(self) -> Any:
        return self.page.locator("[data-room-code]")

    @property
    def board(self) -> Any:
        return self.page.locator(".board")

    async def room_link(self) -> str:
        value: str = await self.page.get_by_role("textbox", name="Room link").input_value()
        return value

    async def start_race(self) -> None:
        await self.page.get_by_role("button", name="Start", exact=True).click()
        await self.wait_for_board()

    async def resign(self) -> None:
        """Resign as a player does: the button, then "Resign" in the dialog that asks first."""
        await self.page.get_by_role("button", name="Resign").click()
        await self.page.get_by_role("dialog", name="Resign this game?").get_by_role("button", name="Resign").click()

    async def wait_for_board(self) -> None:
        await expect(self.board).to_have_attribute("data-status", "playing")

    async def moves(self) -> int:
        return int(await self.board.get_attribute("data-moves") or 0)

    async def type_move(self, notation: str) -> None:
        """Type notation into "Move" and press Enter; wait until the server's answer is on the board."""
        before = await self.moves()
        box = self.page.get_by_role("textbox", name="Move")
        await box.fill(notation)
        await box.press("Enter")
        await expect(self.board).not_to_have_attribute("data-moves", str(before))

    def pile(self, pile_id: str) -> Any:
        """A pile by the server's notation (t3, c1, f2)."""
        return self.board.locator(f'[data-pile="{pile_id}"]')

    async def drag(self, source: Any, target: Any) -> None:
        """Press on `source`, move in steps (pointer events, as a mouse, finger or pen does), release on `target`."""
        start = await source.bounding_box()
        end = await target.bounding_box()
        assert start is not None and end is not None
        mouse = self.page.mouse
        await mouse.move(start["x"] + start["width"] / 2, start["y"] + min(12, start["height"] / 2))
        await mouse.down()
        await mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
        await mouse.up()

    async def read_board(self) -> dict[str, dict[str, Any]]:
        piles: dict[str, dict[str, Any]] = await self.page.evaluate(READ_BOARD)
        return piles

    async def status_text(self) -> str:
        """Everything the live region announced so far."""
        text: str = await self.page.get_by_role("log").inner_text()
        return text


NewPlayer = Callable[..., Awaitable[Player]]
"""The `new_player` fixture: `await new_player(name, base_url, viewport=PHONE)`."""


def pile_of(zone: str, index: int) -> str:
    """The server's notation of a pile, 1-based (t3, c1, f2), as `data-pile` carries it."""
    return {"tableau": "t", "cell": "c", "foundation": "f"}[zone] + str(index + 1)


def expected_piles(view: dict[str, Any]) -> dict[str, list[str | None]]:
    """A server player view as the page should show it: every column's cards (face-down ones None), each free
    cell's card, each foundation's top card."""
    piles: dict[str, list[str | None]] = {}
    for index, column in enumerate(view["tableau"]):
        piles[pile_of("tableau", index)] = [card.upper() if card else None for card in column]
    for index, card in enumerate(view["cells"]):
        piles[pile_of("cell", index)] = [card.upper()] if card else []
    for index, foundation in enumerate(view["foundations"]):
        piles[pile_of("foundation", index)] = [foundation["top"].upper()] if foundation.get("top") else []
    return piles


def engine_piles(moves: list[str]) -> dict[str, list[str | None]]:
    """MS deal 1 after `moves` (autoplay off), by the Python engine, as the page should draw it."""
    variant = variant_by_id("freecell")
    board = Board.deal(variant, 1)
    for notation in moves:
        board.push(parse_move(variant, notation, board))
    return expected_piles(player_view(board))


def shown_piles(board: dict[str, dict[str, Any]]) -> dict[str, list[str | None]]:
    """The page's board in the same shape: the cards of every pile, face-down ones None; a foundation only
    shows its top card."""
    shown = {}
    for pile, content in board.items():
        cards = [card["text"] for card in content["cards"]]
        shown[pile] = cards[-1:] if pile.startswith("f") else cards
    return shown


LENGTHENING_MOVES = 12
LENGTHENING_BEAM = 30


def lengthening(start: Board) -> list[str]:
    """Moves (generic notation, never to a foundation) that leave one column as long as a short beam search gets it."""
    beam: list[tuple[Board, list[str]]] = [(start, [])]
    best: tuple[int, list[str]] = (max(len(column) for column in start.tableau), [])
    seen = {start.key()}
    for _ in range(LENGTHENING_MOVES):
        found = []
        for board, played in beam:
            for move in board.legal_moves:
                if move.to_zone == FOUNDATION:
                    continue
                after = board.copy(stack=False)
                after.push(move)
                if after.key() in seen:
                    continue
                seen.add(after.key())
                found.append((max(len(column) for column in after.tableau), after, [*played, format_generic(move)]))
        found.sort(key=lambda item: -item[0])
        beam = [(board, played) for _, board, played in found[:LENGTHENING_BEAM]]
        if found and found[0][0] > best[0]:
            best = (found[0][0], found[0][2])
    return best[1]


async def assert_accessible(player: Player, view: str) -> None:
    """axe-core on the page as it is now: no serious or critical violation."""
    results = await Axe().run(player.page)
    blocking = [violation for violation in results.response["violations"] if violation["impact"] in BLOCKING_IMPACTS]
    described = [
        f"{view}: {violation['impact']} {violation['id']} ({violation['help']}) at "
        + ", ".join(str(node["target"]) for node in violation["nodes"][:5])
        for violation in blocking
    ]
    assert not described, "\n".join(described)


async def virtual_authenticator(page: Page) -> tuple[Any, str]:
    """A DevTools session on `page` with a virtual platform authenticator (CTAP2, internal) that holds resident
    keys and verifies the user: passkeys without a person. Returns the session and the authenticator's id."""
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("WebAuthn.enable")
    added = await cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True,
    }})  # fmt: skip
    return cdp, added["authenticatorId"]
