"""Sanctions from the command line, derived again and replayed by the audit (SQLite and PostgreSQL): a mark takes a
player's wins off the humans' boards and gives their victims back what the races cost them; a void takes one game
off every board; each lift gives back exactly what was there; the audit is clean after each, and catches a result
put back on a board by hand. The mod log refuses to be changed."""

from __future__ import annotations

import pytest
from moderation_support import Site, audit, derived, mod, sql

from freecell_arena.core.records.ratings import Ladder, Placement, rate_race


async def test_mark_void_and_lift_are_derived_again_and_the_audit_replays_them(site: Site) -> None:
    url = site.database_url
    cheat, victim, other = await site.player("Pacer"), await site.player("Victim"), await site.player("Other")
    await site.race(cheat, victim)
    second = await site.race(victim, other)
    ((second_room,),) = await sql(url, "SELECT id FROM rooms WHERE code = :code", code=second)
    await site.next_day()
    daily_game = await site.daily_win(cheat)
    await site.daily_win(victim)
    await site.next_day()  # the day closes: its final ranks are materialised
    code, out, err = await audit(url)
    assert code == 0, out + err
    clean = await derived(url)
    humans_daily = [row for row in clean["entries"] if "/daily/" in row[0] and row[0].endswith("humans")]
    assert {row[1] for row in humans_daily} == {cheat.player_id, victim.player_id}, "both on the humans' daily"
    assert (clean["daily_ranks"][0][3], clean["daily_ranks"][0][1]) == (cheat.player_id, False), "the pacer first"

    assert (await cheat.request({"type": "get_player"}))["variants"][0]["streak"] == 1
    code, out, err = await mod(url, "mark", cheat.player_id, "--reason", "paces itself like a program")
    assert code == 0, err
    page = await cheat.request({"type": "get_player"})
    assert page["variants"][0]["streak"] == 0 and "playing with help" in page["notice"], "their streak stops counting"
    mark_number = out.split()[0].lstrip("#")
    marked = await derived(url)
    boards = {row[0] for row in marked["entries"] if row[1] == cheat.player_id}
    assert boards and all(board.endswith("/bots") for board in boards), "every win of theirs on the bots' side"
    ratings = {(row[1], row[2]): row for row in marked["ratings"]}
    assert (Ladder.HUMANS.value, cheat.player_id) not in ratings, "off the humans' ladder"
    alone = rate_race([Placement(victim.player_id, 1, False), Placement(other.player_id, 2, False)], {})
    restored = ratings[(Ladder.HUMANS.value, victim.player_id)]
    assert restored[5] == 1 and restored[3] == pytest.approx(alone[0].after.mu), (
        "the victim is rated as if the first race had never had them lose to the pacer")
    assert {row[0] for row in marked["changes"]} == {second_room}, "the pacer's race rates nobody now"
    code, out, err = await audit(url)
    assert code == 0, out + err

    humans_board = humans_daily[0][0]
    await sql(url, "UPDATE games SET board = :board WHERE id = :game", board=humans_board, game=daily_game)
    code, out, _ = await audit(url)
    assert code == 1 and f"game {daily_game}: on board {humans_board}, but with the mod log applied" in out, out
    await sql(url, "UPDATE games SET board = :board WHERE id = :game", board=humans_board.replace("humans", "bots"),
              game=daily_game)  # fmt: skip

    code, out, err = await mod(url, "lift", mark_number, "--reason", "appeal upheld")
    assert code == 0, err
    page = await cheat.request({"type": "get_player"})
    assert page["variants"][0]["streak"] == 1 and page["notice"] is None
    lifted = await derived(url)
    assert {name: rows for name, rows in lifted.items() if name != "changes"} == {
        name: rows for name, rows in clean.items() if name != "changes"}, "the lift gives back exactly what was there"
    assert sorted(lifted["changes"]) == sorted(clean["changes"])
    code, out, err = await audit(url)
    assert code == 0, out + err

    won = await sql(url, "SELECT id FROM games WHERE room_id = :room AND player_id = :player", room=second_room,
                    player=victim.player_id)  # fmt: skip
    code, out, err = await mod(url, "void", won[0][0], "--reason", "a bug gave this win")
    assert code == 0, err
    void_number = out.split()[0].lstrip("#")
    voided = await derived(url)
    assert not [row for row in voided["entries"] if row[2] == won[0][0]], "off every board"
    assert second_room not in {row[0] for row in voided["changes"]}, "its race rates nobody without it"
    code, out, err = await audit(url)
    assert code == 0, out + err
    assert (await mod(url, "lift", void_number, "--reason", "it was fine"))[0] == 0
    assert {name: rows for name, rows in (await derived(url)).items() if name != "changes"} == {
        name: rows for name, rows in clean.items() if name != "changes"}
    code, out, err = await audit(url)
    assert code == 0, out + err

    code, out, err = await mod(url, "log")
    assert code == 0 and [line.split()[3] for line in out.splitlines()] == ["lift", "void", "lift", "mark"], out
    with pytest.raises(Exception, match="append-only"):
        await sql(url, "UPDATE mod_log SET reason = 'nothing happened'")
    with pytest.raises(Exception, match="append-only"):
        await sql(url, "DELETE FROM mod_log")
    assert (await mod(url, "mark", cheat.player_id, "--reason", "again"))[0] == 0
    await sql(url, "DELETE FROM sanctions")  # a lift by hand, without the log: the audit names it
    code, out, _ = await audit(url)
    assert code == 1 and "sanctions table lacks it" in out, out


async def test_refused_actions_change_nothing(site: Site) -> None:
    url = site.database_url
    player = await site.player("Someone")
    before = await derived(url)
    for args, says in (
        (("mark", "nobody-at-all", "--reason", "because"), "no player goes by"),
        (("mark", player.player_id, "--reason", "x"), "needs a reason"),
        (("void", "game_0000000000000000", "--reason", "because"), "no finished ranked game"),
        (("lift", "77", "--reason", "because"), "no sanction #77"),
        (("grant", player.player_id), "not a saved player"),
    ):
        code, _, err = await mod(url, *args)
        assert code == 2 and says in err, (args, err)
    assert await derived(url) == before
    assert await sql(url, "SELECT count(*) FROM mod_log") == [(0,)]


async def test_a_void_game_counts_nowhere_on_the_players_page_and_the_page_says_so(site: Site) -> None:
    """The player page's wins, best and averages are worked out from stored games: a void one is left out, and the
    page says a moderator voided it; its lift gives it back."""
    url = site.database_url
    winner, loser = await site.player("Winner"), await site.player("Loser")
    await site.race(winner, loser)
    (before,) = (await loser.request({"type": "get_player", "player_id": winner.player_id}))["variants"]
    assert (before["games"], before["won"]) == (1, 1) and before["best_moves"], before
    ((game_id,),) = await sql(url, "SELECT id FROM games WHERE player_id = :who", who=winner.player_id)
    code, out, err = await mod(url, "void", game_id, "--reason", "a bug gave this win")
    assert code == 0, err
    page = await loser.request({"type": "get_player", "player_id": winner.player_id})
    (voided,) = page["variants"] or [None]
    assert voided is None or (voided["won"], voided["best_moves"]) == (0, None), voided
    assert "voided 1 game" in (page["notice"] or ""), page["notice"]
    assert (await mod(url, "lift", out.split()[0].lstrip("#"), "--reason", "it was fine"))[0] == 0
    page = await loser.request({"type": "get_player", "player_id": winner.player_id})
    assert page["variants"] == [before] and page["notice"] is None, page
