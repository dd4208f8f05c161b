"""A ban holds everywhere a player comes back (SQLite and PostgreSQL): signing in with a passkey is refused with the
moderator's public reason and stores no session; a lift lets the passkey sign in again, and gives an unsaved
player's own token back."""

from __future__ import annotations

import logging

import pytest
from arena_client import ArenaClient
from moderation_support import Site, sql
from test_moderation_server import moderator


async def sessions_of(site: Site, player_id: str) -> list[tuple[str, bool]]:
    """The player's stored session tokens: (label, revoked), oldest first."""
    rows = await sql(site.database_url, "SELECT label, revoked_at FROM access_tokens WHERE player_id = :who "
                                        "AND kind = 'session' ORDER BY created_at, label", who=player_id)  # fmt: skip
    return [(label, revoked is not None) for label, revoked in rows]


async def test_a_banned_saved_player_cannot_sign_in_with_their_passkey_until_the_ban_is_lifted(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    warden, rude = await moderator(site), await site.saved("Rude")
    assert rude.player_id is not None
    banned = await warden.request({"type": "mod_action", "action": "ban", "player_id": rude.player_id,
                                   "reason": "abuse in chat", "public_reason": "abusive behaviour"})  # fmt: skip
    assert banned["type"] == "mod_action", banned
    before = await sessions_of(site, rude.player_id)
    assert before and all(revoked for _, revoked in before), "the ban revoked every session"
    caplog.set_level(logging.WARNING)
    _, refused = await site.sign_in(rude.player_id)
    assert refused["type"] == "error" and refused["code"] == "banned", refused
    assert "abusive behaviour" in refused["message"], "the public reason, as a refused hello says it"
    assert await sessions_of(site, rude.player_id) == before, "no session was issued"
    assert [line for line in caplog.messages if "refused" in line and "banned" in line], "one log line says why"

    lift = await warden.request({"type": "mod_action", "action": "lift", "player_id": rude.player_id,
                                 "lifts": banned["entry"]["action_id"], "reason": "appeal upheld"})  # fmt: skip
    assert lift["type"] == "mod_action", lift
    device, signed = await site.sign_in(rude.player_id)
    assert signed["type"] == "signed_in" and signed["player_id"] == rude.player_id, signed
    welcome = await device.request({"type": "hello", "name": "ignored", "token": signed["token"]})
    assert welcome["type"] == "welcome" and welcome["player_id"] == rude.player_id, welcome


async def test_a_lifted_ban_gives_an_unsaved_player_their_own_token_back(site: Site) -> None:
    """An unsaved player is only their token: a ban refuses it (it has no session to revoke), a lift accepts it
    again, so the browser that kept it is that player again."""
    warden, rude = await moderator(site), await site.player("Unsaved")
    banned = await warden.request({"type": "mod_action", "action": "ban", "player_id": rude.player_id,
                                   "reason": "abuse in chat", "public_reason": "abusive behaviour"})  # fmt: skip
    back = await ArenaClient.open(site.url)
    site.clients.append(back)
    refused = await back.request({"type": "hello", "name": "Unsaved", "token": rude.token})
    assert refused["code"] == "banned" and "abusive behaviour" in refused["message"], refused
    await warden.request({"type": "mod_action", "action": "lift", "player_id": rude.player_id,
                          "lifts": banned["entry"]["action_id"], "reason": "appeal upheld"})  # fmt: skip
    again = await ArenaClient.open(site.url)
    site.clients.append(again)
    welcome = await again.hello("Unsaved", token=rude.token)
    assert welcome["player_id"] == rude.player_id and welcome["resumed"] is True


async def test_a_banned_saved_players_session_says_the_ban_on_a_reload_and_not_sign_in_again(site: Site) -> None:
    """A ban revokes a saved player's sessions; the browser that kept one says hello with it on a reload and is told
    the ban and its public reason (it said `revoked_token`, "sign in again", and the reason was gone: issue 53). A
    session revoked with no ban in force still says `revoked_token`."""
    warden, rude = await moderator(site), await site.saved("Reloader")
    assert rude.player_id is not None
    _, signed = await site.sign_in(rude.player_id)
    assert signed["type"] == "signed_in", signed
    banned = await warden.request({"type": "mod_action", "action": "ban", "player_id": rude.player_id,
                                   "reason": "abuse in chat", "public_reason": "abusive behaviour"})  # fmt: skip
    assert banned["type"] == "mod_action", banned
    reload = await site.open()
    refused = await reload.request({"type": "hello", "name": "ignored", "token": signed["token"]})
    assert refused["type"] == "error" and refused["code"] == "banned", refused
    assert "abusive behaviour" in refused["message"], refused
    await warden.request({"type": "mod_action", "action": "lift", "player_id": rude.player_id,
                          "lifts": banned["entry"]["action_id"], "reason": "appeal upheld"})  # fmt: skip
    after_lift = await site.open()
    revoked = await after_lift.request({"type": "hello", "name": "ignored", "token": signed["token"]})
    assert revoked["type"] == "error" and revoked["code"] == "revoked_token", "the lift gives back no session"
