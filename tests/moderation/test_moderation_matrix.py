"""Every action of the console on a saved and an unsaved player, on SQLite and PostgreSQL (issue 53: no test had
reported a saved player, and the console was closed for every one of them): the evidence answers before and after
each action, each sanction shows in force with its reason and does what it says, each lift gives it back, and
`freecell-arena audit` is clean after every step."""

from __future__ import annotations

import pytest
from arena_client import ArenaClient
from moderation_support import Site, audit, sql
from test_moderation_server import moderator


async def audit_is_clean(site: Site, step: str) -> None:
    await site.server.writer.flush()
    code, out, err = await audit(site.database_url)
    assert code == 0, f"the audit after {step}: {out}{err}"


class Console:
    """A moderator's requests, each checked to be answered as the console expects."""

    def __init__(self, site: Site, client: ArenaClient, target: ArenaClient) -> None:
        self.site, self.client, self.target = site, client, target

    @property
    def target_id(self) -> str:
        assert self.target.player_id is not None
        return self.target.player_id

    async def evidence(self) -> dict[str, object]:
        evidence = await self.client.request({"type": "mod_evidence", "player_id": self.target_id}, timeout=120)
        assert evidence["type"] == "mod_evidence", evidence
        return evidence

    async def act(self, action: str, reason: str, **fields: object) -> int:
        acted = await self.client.request({"type": "mod_action", "action": action, "player_id": self.target_id,
                                           "reason": reason, **fields})  # fmt: skip
        assert acted["type"] == "mod_action", acted
        await audit_is_clean(self.site, action)
        evidence = await self.evidence()
        if action not in ("lift", "dismiss"):
            held = [(row["kind"], row["reason"]) for row in evidence["in_force"]]  # type: ignore[index]
            assert held == [(action, reason)], held
        else:
            assert evidence["in_force"] == [], evidence["in_force"]
        return int(acted["entry"]["action_id"])

    async def page(self) -> dict[str, object]:
        return await self.client.request({"type": "get_player", "player_id": self.target_id})


@pytest.mark.parametrize("saved", [False, True], ids=["unsaved", "saved"])
async def test_every_action_on_a_saved_and_an_unsaved_player(site: Site, saved: bool) -> None:
    target = await (site.saved("Target") if saved else site.player("Target"))
    victim = await site.saved("Victim")
    warden = await moderator(site)
    code = await site.race(target, victim)
    over = await victim.expect("race_over", code=code)
    game_id = next(row["game_id"] for row in over["standings"] if row["player_id"] == target.player_id)
    console = Console(site, warden, target)
    before = await console.evidence()
    assert before["player"]["saved"] is saved and len(before["tokens"]) == int(saved), before  # type: ignore[index]
    await audit_is_clean(site, "the race")

    mark = await console.act("mark", "paced like a program")
    assert "playing with help" in str((await console.page())["notice"])
    await console.act("lift", "appeal upheld", lifts=mark)
    assert (await console.page())["notice"] is None

    void = await console.act("void", "a bug gave this win", game_id=game_id)
    assert "voided 1 game" in str((await console.page())["notice"])
    await console.act("lift", "the win was right", lifts=void)

    rename = await console.act("rename", "offensive name")
    assert str((await console.page())["name"]).startswith("Player ")
    await console.act("lift", "a real surname", lifts=rename)
    assert (await console.page())["name"] == "Target"

    ban = await console.act("ban", "abuse in chat", public_reason="abusive behaviour")
    refused = await (await site.open()).request({"type": "hello", "name": "Target", "token": target.token})
    assert refused["code"] == "banned" and "abusive behaviour" in refused["message"], refused  # a kept session too
    if saved:
        _, signed = await site.sign_in(console.target_id)
        assert signed["code"] == "banned" and "abusive behaviour" in signed["message"], signed
        revoked = await sql(site.database_url, "SELECT count(*) FROM access_tokens WHERE player_id = :who AND "
                                               "revoked_at IS NULL", who=console.target_id)  # fmt: skip
        assert revoked == [(0,)], "every session revoked, none issued"
    await console.act("lift", "appeal upheld", lifts=ban)
    if saved:
        device, signed = await site.sign_in(console.target_id)
        back = await device.request({"type": "hello", "name": "Target", "token": signed["token"]})
    else:
        back = await (await site.open()).request({"type": "hello", "name": "Target", "token": target.token})
    assert back["type"] == "welcome" and back["player_id"] == console.target_id, back

    assert (await victim.request({"type": "report", "player_id": console.target_id, "reason": "name"}))[
        "type"] == "report_received"  # fmt: skip
    await console.act("dismiss", "nothing wrong with the name")
    mine = await victim.request({"type": "get_my_reports"})
    assert "closed" in [row["status"] for row in mine["reports"]], mine
    log = await warden.request({"type": "mod_log", "player_id": console.target_id})
    assert [row["action"] for row in log["entries"]] == [
        "dismiss", "lift", "ban", "lift", "rename", "lift", "void", "lift", "mark"], log["entries"]
