"""A race-again series' tally and the open-data export under the sanctions (SQLite and PostgreSQL): a marked
player's win, or a void game's, does not count when the series moves on (the best placed of the others who won
takes it, if any); the next room names whom it left out, the audit recomputes the tally without them and finds each
in the mod log, a lift after the series moved on leaves the tally as it was carried forward, and a tally leaving out
someone the mod log never touched is caught. The export marks the void game and the marked player's win as the
boards count them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from moderation_support import Site, audit, mod, sql
from serverprocess import run_command
from sqlalchemy import pool, select, update

from freecell_arena.core.records.series_tally import Tally
from freecell_arena.store.engine import create_engine
from freecell_arena.store.models import Room, table_of

rooms = table_of(Room)


def tally(room: dict[str, Any]) -> list[tuple[str, int]]:
    return [(row["name"], row["wins"]) for row in room["series"]["tally"]]


async def stored_tally(database_url: str, code: str, forged: Tally | None = None) -> Tally:
    """The tally stored in room `code` (replaced by `forged` first, when given: a hand's edit)."""
    engine = create_engine(database_url, poolclass=pool.NullPool)
    try:
        async with engine.begin() as connection:
            if forged is not None:
                await connection.execute(update(rooms).where(rooms.c.code == code).values(series=forged.to_json()))
            return Tally.from_json((await connection.execute(select(rooms.c.series).where(rooms.c.code == code)))
                                   .scalar_one())  # fmt: skip
    finally:
        await engine.dispose()


@pytest.mark.parametrize("sanction", ["mark", "void"])
async def test_a_sanctioned_win_is_left_out_of_the_series_tally_and_the_audit_knows_why(
    site: Site, sanction: str
) -> None:
    url = site.database_url
    cheat, friend = await site.player("Cheat"), await site.player("Friend")
    code = await site.race(cheat, friend)  # the cheat wins, the friend resigned
    ((room_id,),) = await sql(url, "SELECT id FROM rooms WHERE code = :code", code=code)
    ((game_id,),) = await sql(url, "SELECT id FROM games WHERE room_id = :room AND player_id = :player", room=room_id,
                              player=cheat.player_id)  # fmt: skip
    subject = cheat.player_id if sanction == "mark" else game_id
    status, out, err = await mod(url, sanction, subject, "--reason", "a solver's pace")
    assert status == 0, err
    action = out.split()[0].lstrip("#")

    following = await friend.request({"type": "race_again"})
    assert following["type"] == "room", following
    assert following["room"]["series"]["race"] == 2
    assert tally(following["room"]) == [("Cheat", 0), ("Friend", 0)], "nobody else won: the race gives no win"
    assert (await stored_tally(url, following["room"]["code"])).uncounted == (cheat.player_id,)
    status, out, err = await audit(url)
    assert (status, out) == (0, ""), out + err

    assert (await mod(url, "lift", action, "--reason", "it was fine"))[0] == 0  # after the series moved on
    assert tally((await cheat.request({"type": "race_again"}))["room"]) == [("Cheat", 0), ("Friend", 0)]
    status, out, err = await audit(url)
    assert (status, out) == (0, ""), "the mod log still says why it was left out: " + out + err


async def test_the_audit_catches_a_tally_that_leaves_out_an_untouched_player(site: Site) -> None:
    url = site.database_url
    winner, friend = await site.player("Winner"), await site.player("Friend")
    await site.race(winner, friend)
    following = await friend.request({"type": "race_again"})
    next_code = following["room"]["code"]
    assert tally(following["room"]) == [("Winner", 1), ("Friend", 0)], "no sanction: the win counts"
    kept = await stored_tally(url, next_code)
    forged = Tally(kept.series_id, kept.race, tuple((pid, name, 0) for pid, name, _ in kept.wins), (winner.player_id,))
    await stored_tally(url, next_code, forged)
    status, out, err = await audit(url)
    assert status == 1, out + err
    assert f"leaves {winner.player_id}'s result out of race 1, and the mod log never marked them" in out, out


async def test_the_export_applies_the_sanctions_in_force_and_carries_each_rating_change(site: Site,
                                                                                        tmp_path: Path) -> None:
    """`freecell-arena export` as the boards apply the sanctions: a void game is marked void and on no board, a
    marked player's win counts as a program's, and the races the sanctions leave with one person in them rate
    nobody now; a clean rated race's lines carry the rating before and after."""
    url = site.database_url
    cheat, friend, other = await site.player("Cheat"), await site.player("Friend"), await site.player("Other")
    first = await site.race(friend, cheat)
    second = await site.race(cheat, friend)
    clean = await site.race(other, friend)
    ((voided,),) = await sql(url, "SELECT g.id FROM games g JOIN rooms r ON r.id = g.room_id WHERE r.code = :code "
                                  "AND g.player_id = :player", code=first, player=friend.player_id)  # fmt: skip
    assert (await mod(url, "void", voided, "--reason", "a bug gave this win"))[0] == 0
    assert (await mod(url, "mark", cheat.player_id, "--reason", "a solver's pace"))[0] == 0
    dump = tmp_path / "games.ndjson"
    status, _, err = await run_command("export", "--database-url", url, "--output", str(dump))
    assert status == 0, err
    lines = {(line["room_code"], line["player_id"]): line for line in map(json.loads, dump.read_text().splitlines())}
    assert len(lines) == 6, lines.keys()
    void = lines[(first, friend.player_id)]
    assert (void["void"], void["board"], void["result"]) == (True, None, "won")
    cheat_win = lines[(second, cheat.player_id)]
    assert (cheat_win["counts_as_bot"], cheat_win["bot"], cheat_win["void"]) == (True, False, False)
    assert cheat_win["board"] is not None and cheat_win["board"].endswith("bots"), cheat_win["board"]
    honest = lines[(second, friend.player_id)]
    assert (honest["counts_as_bot"], honest["void"]) == (False, False)
    assert honest["board"] is None or not honest["board"].endswith("bots")
    assert {key for key, line in lines.items() if line["rating"] is not None} == {(clean, other.player_id),
                                                                                  (clean, friend.player_id)}
    won, lost = lines[(clean, other.player_id)]["rating"], lines[(clean, friend.player_id)]["rating"]
    assert won["ladder"] == lost["ladder"] == "humans"
    assert won["after"] > won["before"] and lost["after"] < lost["before"], (won, lost)
