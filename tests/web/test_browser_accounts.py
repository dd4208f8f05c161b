"""Passkeys in Chromium, with the DevTools virtual authenticator (a platform authenticator that verifies the
user): save a player, sign in on a second device (the credential copied into another browser context), see the
same history there, revoke the first browser's session, a claimed name (and a look-alike) refused to another
player, and a bot token's games on the bots' board although its client says `bot: false`.

The page is served as http://localhost:PORT: browsers refuse an IP address as a relying party, which the page
says on http://127.0.0.1:PORT (checked here too)."""

from __future__ import annotations

from typing import Any

from arena_client import ArenaClient
from boards_helpers import play, winning_moves
from playwright.async_api import Page, expect
from serverprocess import ServerProcess
from webpages import Player, assert_accessible, virtual_authenticator

SEED = 6  # the solver wins it in a few hundredths of a second


async def win_a_race(url: str, token: str, *, bot: bool = False) -> str:
    """The player of `token` wins deal 6 alone, from a program; the game's id."""
    client = await ArenaClient.open(url)
    try:
        await client.hello("program", token=token, bot=bot)
        await client.request({"type": "create_room", "variant": "freecell", "seed": SEED,
                              "options": {"countdown_s": 0}})  # fmt: skip
        await client.request({"type": "start_race"})
        started = await client.expect("race_started")
        won = await play(client, winning_moves("freecell", SEED))
        assert won["status"] == "won"
        return str(started["game"]["game_id"])
    finally:
        await client.close()


async def stored_token(page: Page) -> str:
    token: str = await page.evaluate(
        "() => Object.entries(localStorage).filter(([key]) => key.startsWith('freecell-arena:identity:'))"
        ".map(([, value]) => JSON.parse(value).token)[0]"
    )
    return token


async def test_save_sign_in_elsewhere_revoke_claimed_names_and_bots(server: ServerProcess, new_player: Any) -> None:
    base = f"http://localhost:{server.port}"
    laptop: Player = await new_player("Ada", base)
    laptop_cdp, laptop_authenticator = await virtual_authenticator(laptop.page)
    await laptop.open("/")
    game_id = await win_a_race(server.url, await stored_token(laptop.page))  # takes the seat for a while

    # save with a passkey, on the account page
    await laptop.page.get_by_role("button", name="Play here").click()  # the program had taken the seat
    await laptop.page.goto(base + "/#/account")
    await expect(laptop.page.get_by_text("an unsaved player")).to_be_visible()
    await assert_accessible(laptop, "account of an unsaved player")
    await laptop.page.get_by_role("textbox", name="Passkey name").fill("Laptop")
    await laptop.page.get_by_role("button", name="Save with a passkey").click()
    await expect(laptop.page.get_by_text("the name is yours (claimed)")).to_be_visible()
    await expect(laptop.page.locator("[data-credential-id]")).to_contain_text("Laptop")
    credentials = (await laptop_cdp.send("WebAuthn.getCredentials", {"authenticatorId": laptop_authenticator}))[
        "credentials"
    ]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"] and credentials[0]["rpId"] == "localhost"

    # a second device: the passkey copied into another browser context; it signs in from the first page
    phone: Player = await new_player("whoever", base)
    phone_cdp, phone_authenticator = await virtual_authenticator(phone.page)
    await phone_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": phone_authenticator, "credential": credentials[0]}
    )
    await phone.page.goto(base + "/")  # a first visit: the landing page, and "Choose a name" offers to sign in
    await phone.page.get_by_role("button", name="Choose a name").click()
    await phone.page.get_by_role("button", name="Sign in with a passkey").click()
    await expect(phone.page.locator('#connection[data-state="open"]')).to_be_attached()
    await expect(phone.page.locator("#whoami")).to_have_text("Ada")
    await phone.page.goto(base + "/#/history")
    await expect(phone.page.get_by_role("heading", name="Games of Ada \u2713")).to_be_visible()
    await expect(phone.page.locator(f'[data-game-id="{game_id}"]')).to_contain_text("won")

    # the phone revokes the laptop's session: the laptop is signed out
    await phone.page.goto(base + "/#/account")
    sessions = phone.page.locator("[data-token-id]")
    await expect(sessions).to_have_count(2)
    await expect(phone.page.locator("[data-current]")).to_contain_text("(this browser)")
    await phone.page.get_by_role("button", name="Revoke the browser that saved this player").click()
    await expect(sessions).to_have_count(1)
    await laptop.page.reload()
    await expect(laptop.page.locator("#main").get_by_text("This browser was signed out")).to_be_visible()
    await expect(laptop.page.locator("#connection")).to_have_attribute("data-state", "signed_out")
    await laptop.page.reload()  # signed out is remembered: no new player under the claimed name, the page says why
    await expect(laptop.page.locator("#main").get_by_text("This browser was signed out")).to_be_visible()
    await expect(laptop.page.locator("#connection")).to_have_attribute("data-state", "signed_out")

    # the name is claimed: another player may not take it, nor a look-alike
    bea: Player = await new_player("Bea", base)
    for taken in ("ada", "\u0391da"):  # Greek capital alpha
        await bea.page.goto(base + "/")
        name_box = bea.page.get_by_role("textbox", name="Name")
        choose = bea.page.get_by_role("button", name="Choose a name")
        await expect(name_box.or_(choose).first).to_be_visible()
        if not await name_box.is_visible():  # a first visit sees the landing page until it asks for a name
            await choose.click()
        await name_box.fill(taken)
        await name_box.press("Enter")
        await expect(bea.page.locator("#main").get_by_text(f"the name '{taken}'")).to_contain_text(
            "belongs to a saved player"
        )
        await expect(bea.page.locator("#connection")).to_have_attribute("data-state", "refused")
    await bea.page.get_by_role("textbox", name="Name").fill("Bea")
    await bea.page.get_by_role("textbox", name="Name").press("Enter")
    await expect(bea.page.locator('#connection[data-state="open"]')).to_be_attached()

    # a bot account: its token shown once; its client says bot: false, its win goes to the bots' board
    await phone.page.get_by_role("textbox", name="Bot name").fill("Solvy")
    await phone.page.get_by_role("textbox", name="Description").fill("a solver")
    await phone.page.get_by_role("button", name="Create bot").click()
    token = await phone.page.locator("[data-bot-token]").text_content()
    assert token is not None and token.startswith("fcb_")
    await expect(phone.page.locator("[data-bot-id]")).to_contain_text("a solver")
    await assert_accessible(phone, "account of a saved player, a bot's token shown")
    await win_a_race(server.url, token, bot=False)
    await phone.page.goto(base + f"/#/leaderboards/freecell?board=deal&seed={SEED}&bots=1")
    row = phone.page.locator("tbody tr").filter(has_text="Solvy")
    await expect(row).to_contain_text("(claimed name)")
    await phone.page.goto(base + f"/#/leaderboards/freecell?board=deal&seed={SEED}")
    await expect(phone.page.get_by_text("Solvy")).to_have_count(0)

    # sign out everywhere: this browser forgets the player and asks for a name (or a passkey) again
    await phone.page.goto(base + "/#/account")
    await phone.page.get_by_role("button", name="Sign out everywhere").click()
    await expect(phone.page.get_by_text("Signed out everywhere.").first).to_be_visible()
    await phone.page.get_by_role("link", name="Play again").click()
    await phone.page.get_by_role("button", name="Choose a name").click()  # a first visit's landing, as at the start
    await expect(phone.page.get_by_role("button", name="Sign in with a passkey")).to_be_visible()
    assert await stored_token(phone.page) is None


async def test_on_127_0_0_1_the_page_sends_passkeys_to_localhost(server: ServerProcess, new_player: Any) -> None:
    player: Player = await new_player("Cy", f"http://127.0.0.1:{server.port}")
    await player.open("/#/account")
    note = player.page.locator("[data-passkey-note]")
    await expect(note).to_contain_text("Passkeys need a name, not an IP address")
    await expect(note.get_by_role("link", name="Go there")).to_have_attribute(
        "href", f"http://localhost:{server.port}/#/account"
    )
    await expect(player.page.get_by_role("button", name="Save with a passkey")).to_be_disabled()
