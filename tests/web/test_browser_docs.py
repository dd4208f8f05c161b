"""docs/web.md against the app: its keyboard table is the board's help panel as a player reads it, and every
screenshot it shows is there."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import expect
from webpages import NewPlayer

DOCS = Path(__file__).resolve().parents[2] / "docs"
WEB_DOC = (DOCS / "web.md").read_text()


def documented_keys() -> list[tuple[str, str]]:
    section = WEB_DOC.split("## Keyboard", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (.+?) \| (.+?) \|$", section, flags=re.MULTILINE)
    return [(keys, what) for keys, what in rows if keys != "keys" and not keys.startswith("---")]


def test_every_screenshot_shown_is_there() -> None:
    images = re.findall(r"!\[[^]]*\]\((web/[^)]+\.png)\)", WEB_DOC)
    assert len(images) == len(set(images)) >= 18, images  # each view once, the first nine on desktop and phone
    taken = {f"web/{path.name}" for path in (DOCS / "web").glob("*.png")}
    assert taken == set(images), f"shown but not taken, or taken but not shown: {sorted(taken ^ set(images))}"
    for image in images:
        assert (DOCS / image).is_file(), image
        assert (DOCS / image).stat().st_size < 200_000, f"{image}: keep screenshots small"


async def test_the_keyboard_table_is_the_apps_help_panel(base_url: str, new_player: NewPlayer) -> None:
    player = await new_player("Reader", base_url)
    await player.open("/")
    await player.create_race("freecell")
    await player.start_race()
    await player.page.get_by_text("Keyboard help").click()
    help_rows = player.page.locator("details.help tr")
    await expect(help_rows.first).to_be_visible()
    shown = [
        (await row.locator("th").inner_text(), await row.locator("td").inner_text()) for row in await help_rows.all()
    ]
    assert shown == documented_keys()
