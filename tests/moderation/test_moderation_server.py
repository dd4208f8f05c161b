"""Reports, the moderators' requests and the sanctions over a real server (SQLite and PostgreSQL): who may do what,
what a report's author and its target see, what a ban, a rename and a mark do to live play, and the evidence."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from arena_client import ArenaClient
from moderation_support import Site, mod, sql
from websockets.exceptions import ConnectionClosed

from freecell_arena.core.moderation.rules import REPORTS_PER_DAY
from freecell_arena.core.moderation.sanctions import Act
from freecell_arena.engine.game_text import read_game
from freecell_arena.net.moderation import CLOSE_BANNED

SECRET_TEXT = "they pause exactly two seconds every move, look"
MODERATOR_REQUESTS = (
    {"type": "mod_queue"},
    {"type": "mod_evidence", "player_id": "p_0000000000000000"},
    {"type": "mod_action", "action": "mark", "player_id": "p_0000000000000000", "reason": "because"},
    {"type": "mod_log"},
    {"type": "mod_search", "query": "a"},
)


async def moderator(site: Site, name: str = "Warden") -> ArenaClient:
    client = await site.saved(name)
    await site.server.store.moderation.act(Act.GRANT, client.player_id, None, "by the operator", site.clock.now())
    return client


async def log_length(site: Site) -> int:
    return len(await site.server.store.moderation.log(1000))


async def test_a_players_moderator_requests_are_refused_and_change_nothing(site: Site) -> None:
    player, target = await site.saved("Curious"), await site.player("Target")
    for request in MODERATOR_REQUESTS:
        request = {**request, "player_id": target.player_id} if "player_id" in request else request
        refused = await player.request(request)
        assert refused["type"] == "error" and refused["code"] == "not_allowed", refused
    assert await log_length(site) == 0 and await site.server.store.moderation.in_force() == []


async def test_a_revoked_moderator_is_refused_at_once_and_the_role_is_the_operators(site: Site) -> None:
    warden = await site.saved("Warden")
    code, _, err = await mod(site.database_url, "grant", warden.player_id)
    assert code == 0, err
    account = await warden.request({"type": "get_account"})
    assert account["moderator"] is True
    assert (await warden.request({"type": "mod_queue"}))["type"] == "mod_queue"
    code, _, err = await mod(site.database_url, "revoke", warden.player_id)
    assert code == 0, err
    refused = await warden.request({"type": "mod_queue"})
    assert refused["code"] == "not_allowed", "the next request, on the same connection, is refused"
    assert (await warden.request({"type": "get_account"}))["moderator"] is False
    other = await site.player("Unsaved")
    code, _, err = await mod(site.database_url, "grant", other.player_id)
    assert code == 2 and "not a saved player" in err


async def test_a_moderator_cannot_sanction_themselves_another_moderator_or_nobody(site: Site) -> None:
    warden, colleague = await moderator(site, "Warden"), await moderator(site, "Colleague")
    for player_id, code in ((warden.player_id, "not_allowed"), (colleague.player_id, "not_allowed"),
                            ("p_ffffffffffffffff", "unknown_player")):  # fmt: skip
        for action in ("mark", "ban", "rename", "void", "dismiss"):
            refused = await warden.request({"type": "mod_action", "action": action, "player_id": player_id,
                                            "reason": "testing the limits", "public_reason": "x",
                                            "game_id": "g_0000000000000000"})  # fmt: skip
            assert refused["type"] == "error" and refused["code"] in (code, "unknown_game"), refused
    unknown = await warden.request({"type": "mod_evidence", "player_id": "p_ffffffffffffffff"})
    assert unknown["code"] == "unknown_player"
    forged = await warden.request({"type": "mod_action", "action": "mark", "player_id": "x" * 65, "reason": "long"})
    assert forged["code"] == "invalid_message", "an id longer than any id is refused before anything is read"
    no_reason = await warden.request({"type": "mod_action", "action": "mark", "player_id": colleague.player_id,
                                      "reason": ""})  # fmt: skip
    assert no_reason["code"] == "invalid_message"
    assert await log_length(site) == 2, "only the two grants"


async def test_reports_are_received_limited_acted_on_and_their_text_reaches_no_player(site: Site) -> None:
    reporter, target, bystander = await site.saved("Reporter"), await site.player("Target"), await site.player("By")
    code = await site.race(target, reporter)
    over = await reporter.expect("race_over", code=code)
    target_game = next(row["game_id"] for row in over["standings"] if row["player_id"] == target.player_id)
    unsaved = await bystander.request({"type": "report", "player_id": target.player_id, "reason": "help"})
    assert unsaved["code"] == "not_saved"
    report = {"type": "report", "player_id": target.player_id, "reason": "help", "text": SECRET_TEXT,
              "game_id": target_game}  # fmt: skip
    received = await reporter.request(report)
    assert received["type"] == "report_received", received
    assert (await reporter.request(report))["code"] == "already_reported", "one open report per reporter and target"
    self_report = await reporter.request({**report, "player_id": reporter.player_id})
    assert self_report["code"] == "invalid_message"
    unknown = await reporter.request({**report, "player_id": "p_0123456789abcdef"})
    assert unknown["code"] == "unknown_player"
    mine = await reporter.request({"type": "get_my_reports"})
    assert [(row["player_id"], row["status"]) for row in mine["reports"]] == [(target.player_id, "received")]
    assert SECRET_TEXT not in json.dumps(mine), "even the reporter's list says only what became of it"

    warden = await moderator(site)
    queue = await warden.request({"type": "mod_queue"})
    entry = next(row for row in queue["players"] if row["player"]["player_id"] == target.player_id)
    assert [row["text"] for row in entry["reports"] if row["source"] == "player"] == [SECRET_TEXT]
    marked = await warden.request({"type": "mod_action", "action": "mark", "player_id": target.player_id,
                                   "reason": "evidence of pacing"})  # fmt: skip
    assert marked["type"] == "mod_action" and marked["entry"]["moderator"] == "Warden", marked
    mine = await reporter.request({"type": "get_my_reports"})
    assert [row["status"] for row in mine["reports"]] == ["acted_on"]
    page = await bystander.request({"type": "get_player", "player_id": target.player_id})
    assert "playing with help" in (page["notice"] or "")
    for client in (target, bystander):
        await client.request({"type": "get_player"})  # everything sent so far has arrived
        assert SECRET_TEXT not in json.dumps(client.pending), "nothing of a report's text reaches another player"

    flooder = await site.saved("Flooder")
    victims = [await site.player(f"V{number}") for number in range(REPORTS_PER_DAY + 1)]
    answers = [await flooder.request({"type": "report", "player_id": victim.player_id, "reason": "name"})
               for victim in victims]  # fmt: skip
    assert [answer["type"] for answer in answers[:REPORTS_PER_DAY]] == ["report_received"] * REPORTS_PER_DAY
    assert answers[-1]["code"] == "rate_limited"
    site.clock.advance(timedelta(days=1, seconds=1).total_seconds())
    again = await flooder.request({"type": "report", "player_id": victims[-1].player_id, "reason": "name"})
    assert again["type"] == "report_received", again
    count = await sql(site.database_url, "SELECT count(*) FROM reports WHERE reporter_id = :who", who=flooder.player_id)
    assert count == [(REPORTS_PER_DAY + 1,)]


async def test_many_new_identities_from_one_address_are_limited_together(site: Site) -> None:
    target = await site.player("Target")
    answers = []
    for number in range(4):
        reporter = await site.saved(f"Sock{number}")
        for _ in range(6):
            victim = await site.player("Victim")
            answers.append(await reporter.request({"type": "report", "player_id": victim.player_id, "reason": "other"}))
    received = [answer for answer in answers if answer["type"] == "report_received"]
    assert len(received) == 20 and {answer["code"] for answer in answers if answer["type"] == "error"} == {
        "rate_limited"}, "one address files at most 20 reports a day, whatever identities it uses"
    assert target.player_id


async def test_a_ban_closes_the_connection_resigns_the_game_and_refuses_the_hello(site: Site) -> None:
    warden, banned, racer = await moderator(site), await site.player("Rude"), await site.player("Racer")
    created = await racer.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 0}})
    room = created["room"]["code"]
    await banned.request({"type": "join_room", "code": room})
    await site.saved("Third")
    await racer.request({"type": "start_race"})
    site.clock.advance(0.1)
    await racer.expect("race_started", code=room)
    await banned.expect("race_started", code=room)
    acted = await warden.request({"type": "mod_action", "action": "ban", "player_id": banned.player_id,
                                  "reason": "abuse in chat", "public_reason": "abusive behaviour"})  # fmt: skip
    assert acted["type"] == "mod_action", acted
    with pytest.raises(ConnectionClosed) as closed:
        async with asyncio.timeout(5):
            while True:
                await banned.expect("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_BANNED
    left = await racer.expect("member_left", code=room, player_id=banned.player_id)
    assert left["host_id"] == racer.player_id, "the room goes on without them"
    await site.server.writer.flush()
    games = await sql(site.database_url, "SELECT outcome FROM games WHERE player_id = :who", who=banned.player_id)
    assert games == [("resigned",)], "their running game ended as resigned"
    state = await racer.request({"type": "get_state"})
    assert state["game"]["status"] == "playing" and state["room"]["status"] == "running", "the race goes on"
    assert banned.player_id not in {member["player_id"] for member in state["room"]["members"]}
    back = await ArenaClient.open(site.url)
    site.clients.append(back)
    refused = await back.request({"type": "hello", "name": "Rude", "token": banned.token})
    assert refused["type"] == "error" and refused["code"] == "banned" and "abusive behaviour" in refused["message"]
    lift = await warden.request({"type": "mod_action", "action": "lift", "player_id": banned.player_id,
                                 "lifts": acted["entry"]["action_id"], "reason": "appeal upheld"})  # fmt: skip
    assert lift["type"] == "mod_action"
    again = await ArenaClient.open(site.url)
    site.clients.append(again)
    assert (await again.hello("Rude", token=banned.token))["resumed"] is True


async def test_a_renamed_player_chooses_a_new_name_and_never_the_old_one(site: Site) -> None:
    warden, rude = await moderator(site), await site.saved("Offensive")
    acted = await warden.request({"type": "mod_action", "action": "rename", "player_id": rude.player_id,
                                  "reason": "offensive name"})  # fmt: skip
    assert acted["type"] == "mod_action", acted
    page = await warden.request({"type": "get_player", "player_id": rude.player_id})
    assert page["name"].startswith("Player ")
    back = await ArenaClient.open(site.url)
    site.clients.append(back)
    welcome = await back.hello("ignored", token=rude.token)
    assert welcome["name"] == page["name"]
    asked = await back.expect("name_replaced")
    assert asked["name"] == page["name"]
    assert (await back.request({"type": "choose_name", "name": "offensive"}))["code"] == "name_taken"
    stranger = await ArenaClient.open(site.url)
    site.clients.append(stranger)
    refused = await stranger.request({"type": "hello", "name": "OFFENSIVE"})
    assert refused["code"] == "name_taken", "the old name is nobody's, ever"
    chosen = await back.request({"type": "choose_name", "name": "Kind"})
    assert chosen == {"type": "name_chosen", "id": chosen["id"], "name": "Kind"}
    assert (await back.request({"type": "choose_name", "name": "Kinder"}))["code"] == "not_allowed"


async def test_evidence_shows_a_programs_rhythm_and_a_paced_win_reports_itself(site: Site) -> None:
    warden, pacer, other = await moderator(site), await site.player("Pacer"), await site.player("Other")
    await site.race(pacer, other)
    evidence = await warden.request({"type": "mod_evidence", "player_id": pacer.player_id}, timeout=120)
    assert evidence["type"] == "mod_evidence", evidence
    (game,) = evidence["games"]
    assert game["think_ms"][1:] == [2000] * (len(game["think_ms"]) - 1), "a move every two seconds"
    assert game["regularity"] == 0.0 and game["solver_agreement"] == 1.0, game
    assert game["ms_per_move"] >= game["floor_ms_per_move"], "it passed the fair-play screen"
    assert any("like a program" in line for line in evidence["suspicion"])
    assert (game["regularity_words"], game["solver_words"], game["unusual"]) == (
        "steady as a program's", "the solver's line, move for move", ["regularity", "solver_line"]), game
    assert evidence["summary"].startswith("Over 1 ranked game:") and "2 things stand out" in evidence["summary"]
    assert [meaning["signal"] for meaning in evidence["meanings"]] == ["Regularity", "Solver line", "Think times"]
    assert evidence["ratings"][0]["history"], "the rating history is there"
    async with asyncio.timeout(10):
        while not (queue := await warden.request({"type": "mod_queue"}))["players"]:
            await asyncio.sleep(0.05)
    (entry,) = queue["players"]
    assert entry["player"]["player_id"] == pacer.player_id
    assert [report["source"] for report in entry["reports"]] == ["auto"], "a report, never a sanction"
    assert await site.server.store.moderation.in_force() == []


async def test_evidence_of_a_saved_player_lists_their_sessions_and_what_a_ban_revoked(site: Site) -> None:
    """A saved player's tokens are evidence too (their ages, which a ban revoked): the console was closed for every
    saved player while this reply failed to build (issue 53)."""
    warden, saved, other = await moderator(site), await site.saved("Keeper"), await site.player("Other")
    await site.race(saved, other)
    evidence = await warden.request({"type": "mod_evidence", "player_id": saved.player_id}, timeout=120)
    assert evidence["type"] == "mod_evidence", evidence
    assert evidence["player"]["saved"] is True and evidence["saved_at"] is not None
    assert [(token["kind"], token["revoked"]) for token in evidence["tokens"]] == [("session", False)], evidence
    banned = await warden.request({"type": "mod_action", "action": "ban", "player_id": saved.player_id,
                                   "reason": "abuse in chat", "public_reason": "abusive behaviour"})  # fmt: skip
    assert banned["type"] == "mod_action", banned
    after = await warden.request({"type": "mod_evidence", "player_id": saved.player_id}, timeout=120)
    assert [token["revoked"] for token in after["tokens"]] == [True], "the ban revoked their session"
    assert [held["kind"] for held in after["in_force"]] == ["ban"]


async def test_the_mod_log_keeps_the_name_each_player_had_when_the_action_was_taken(site: Site) -> None:
    """A rename does not rewrite the log: the rows before it keep the name the player had then, the rename's own
    row the name it replaced, and the rows after it the name the player has since."""
    warden, rude = await moderator(site), await site.saved("Offensive")
    dismissed = await warden.request({"type": "mod_action", "action": "dismiss", "player_id": rude.player_id,
                                      "reason": "nothing in it yet"})  # fmt: skip
    renamed = await warden.request({"type": "mod_action", "action": "rename", "player_id": rude.player_id,
                                    "reason": "offensive name"})  # fmt: skip
    assert (dismissed["entry"]["name"], renamed["entry"]["name"]) == ("Offensive", "Offensive"), (dismissed, renamed)
    neutral = (await warden.request({"type": "get_player", "player_id": rude.player_id}))["name"]
    lifted = await warden.request({"type": "mod_action", "action": "lift", "player_id": rude.player_id,
                                   "lifts": renamed["entry"]["action_id"], "reason": "a real surname"})  # fmt: skip
    assert lifted["entry"]["name"] == neutral, "at the lift, the player went by the neutral name"
    log = await warden.request({"type": "mod_log", "player_id": rude.player_id})
    assert [(row["action"], row["name"]) for row in log["entries"]] == [
        ("lift", neutral), ("rename", "Offensive"), ("dismiss", "Offensive")], log["entries"]


async def test_the_console_says_who_reported_and_why_each_sanction_holds(site: Site) -> None:
    """A report by the player who raced the target says so ("opponent"), one by a stranger does not, the server's
    own is the server's; each sanction in force carries its reason from the mod log and the game it names."""
    warden, target, rival = await moderator(site), await site.player("Target"), await site.saved("Rival")
    stranger = await site.saved("Stranger")
    code = await site.race(target, rival)
    over = await rival.expect("race_over", code=code)
    game_id = next(row["game_id"] for row in over["standings"] if row["player_id"] == target.player_id)
    for reporter in (rival, stranger):
        received = await reporter.request({"type": "report", "player_id": target.player_id, "reason": "help",
                                           "game_id": game_id})  # fmt: skip
        assert received["type"] == "report_received", received
    voided = await warden.request({"type": "mod_action", "action": "void", "player_id": target.player_id,
                                   "game_id": game_id, "reason": "a bug gave this win"})  # fmt: skip
    assert voided["type"] == "mod_action", voided
    evidence = await warden.request({"type": "mod_evidence", "player_id": target.player_id}, timeout=120)
    roles = {report["reporter_id"]: report["reporter_role"] for report in evidence["reports"]}
    assert roles.pop(None, "server") == "server", "the server's own report of the paced win, if it came yet"
    assert roles == {rival.player_id: "opponent", stranger.player_id: "player"}, evidence["reports"]
    (held,) = evidence["in_force"]
    assert (held["kind"], held["game_id"], held["reason"]) == ("void", game_id, "a bug gave this win"), held


async def test_an_open_console_is_told_of_an_action_from_the_command_line(site: Site) -> None:
    """The console's queue and log went stale after an operator's action until a reload: every process follows the
    mod log, and tells the consoles open on it (`mod_logged`); a revoked moderator is told nothing more."""
    warden, colleague, target = await moderator(site), await moderator(site, "Colleague"), await site.player("Target")
    for console in (warden, colleague):
        assert (await console.request({"type": "mod_queue"}))["type"] == "mod_queue"
    code, _, err = await mod(site.database_url, "mark", target.player_id, "--reason", "paces like a program")
    assert code == 0, err
    for console in (warden, colleague):
        told = await told_of(console, "mark")
        assert (told["moderator"], told["name"]) == ("operator", "Target"), told
    code, _, err = await mod(site.database_url, "revoke", colleague.player_id)
    assert code == 0, err
    await told_of(warden, "revoke")
    code, _, err = await mod(site.database_url, "dismiss", target.player_id, "--reason", "nothing more to it")
    assert code == 0, err
    await told_of(warden, "dismiss")
    await colleague.request({"type": "get_player"})  # everything sent so far has arrived
    told = [frame["entry"]["action"] for frame in colleague.frames if frame["type"] == "mod_logged"]
    assert "mark" in told and not {"revoke", "dismiss"} & set(told), "told nothing after the revoke"


async def told_of(console: ArenaClient, action: str) -> dict[str, Any]:
    """The entry of the first `mod_logged` about `action` the console is told (an earlier grant's may come first:
    the console may open before this process's follower has read it)."""
    async with asyncio.timeout(5):
        while (entry := (await console.expect("mod_logged"))["entry"])["action"] != action:
            pass
    return dict(entry)


async def test_a_renamed_players_saved_game_goes_by_the_name_they_were_given(site: Site) -> None:
    """A replay's game text names the player as they go by now: a game played under an offensive name, saved after
    a moderator's rename, does not carry the old name on."""
    warden, rude, rival = await moderator(site), await site.saved("Offensive"), await site.player("Rival")
    code = await site.race(rude, rival)
    over = await rival.expect("race_over", code=code)
    game_id = next(row["game_id"] for row in over["standings"] if row["player_id"] == rude.player_id)
    renamed = await warden.request({"type": "mod_action", "action": "rename", "player_id": rude.player_id,
                                    "reason": "offensive name"})  # fmt: skip
    assert renamed["type"] == "mod_action", renamed
    neutral = (await warden.request({"type": "get_player", "player_id": rude.player_id}))["name"]
    replay = await rival.request({"type": "get_replay", "game_id": game_id})
    saved = read_game(replay["game_text"])
    assert saved.tag("Player") == neutral != "Offensive"
    assert "Offensive" not in replay["game_text"]
