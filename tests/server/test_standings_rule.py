"""The standings' rule for players who do not finish (issue 33), end to end on SQLite and PostgreSQL: real clients
racing on a real server whose clock the test sets on either side of `TIED_NON_FINISHERS_FROM`, and the audit
over what they stored.

- A race that started before the change keeps the old order: of two who gave up with the same cards home, the one
  with fewer moves ranks first, and the race is rated that way.
- From the change on, they tie; and a race in which nobody put a card home beyond the deal's opening (autoplay's)
  rates nobody.
- `freecell-arena audit` recomputes every stored rank and rating by the rule of the race's start, so it stays
  clean across the change; a race whose start is moved across the change (a tampered row) is reported.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import RunningArena
from boards_helpers import ManualClock, play, winning_moves
from test_audit import audited_here, sql

from freecell_arena.core.records.ranking import TIED_NON_FINISHERS_FROM

SEED = 6  # the solver wins it in a few hundredths of a second
BEFORE = TIED_NON_FINISHERS_FROM - timedelta(hours=2)
AFTER = TIED_NON_FINISHERS_FROM + timedelta(hours=2)


async def given_up(clients: list[ArenaClient], clock: ManualClock, moves: list[list[str]]) -> dict[str, Any]:
    """One ranked race on a deal the server draws (SEED): each client plays its moves and resigns; the
    `race_over` everyone hears."""
    host, guest = clients
    created = await host.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 0.05}})
    code = created["room"]["code"]
    assert (await guest.request({"type": "join_room", "code": code}))["type"] == "room"
    await host.request({"type": "start_race"})
    clock.advance(1)  # the countdown ends on the server's next tick
    for client in clients:
        assert (await client.expect("race_started", code=code))["game"]["seed"] == str(SEED)
    for client, played in zip(clients, moves, strict=True):
        if played:
            await play(client, played, clock)
        assert (await client.request({"type": "resign"}))["outcome"] == "resigned"
    over = {client.player_id: await client.expect("race_over", code=code) for client in clients}
    assert over[host.player_id]["standings"] == over[guest.player_id]["standings"]
    return over[host.player_id]


def ranks(over: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    return {row["player_id"]: (row["rank"], row["cards_on_foundations"], row["moves"]) for row in over["standings"]}


async def test_non_finishers_tie_from_the_change_and_the_audit_agrees_on_both_sides(
    paced_arena: tuple[RunningArena, ManualClock], capsys: pytest.CaptureFixture[str]
) -> None:
    arena, clock = paced_arena
    arena.server.arena.draw_seed = lambda low, high: SEED
    line = list(winning_moves("freecell", SEED))
    home = line[:4]  # a card home beyond the opening: both give up with the same cards home
    detour = [line[0], "undo", *home]  # the same cards home, two moves more
    clock.set(BEFORE)
    ada, bob = await connect_player(arena.url, "ada"), await connect_player(arena.url, "bob")
    try:
        old = await given_up([ada, bob], clock, [home, detour])
        cards = ranks(old)[ada.player_id][1]
        assert cards > 0 and ranks(old)[bob.player_id][1] == cards
        assert ranks(old) == {ada.player_id: (1, cards, 4), bob.player_id: (2, cards, 6)}, "the old rule: fewer moves"
        rated = await ada.expect("race_ratings", code=old["code"])
        assert {change["player_id"]: change["delta"] > 0 for change in rated["changes"]} == {
            ada.player_id: True, bob.player_id: False}  # fmt: skip

        clock.set(AFTER)
        nothing = await given_up([ada, bob], clock, [[], [line[0], "undo"]])
        opening = ranks(nothing)[ada.player_id][1]  # the cards autoplay sent home before the first move
        assert opening < cards
        assert ranks(nothing) == {ada.player_id: (1, opening, 0), bob.player_id: (1, opening, 2)}, "no progress: a tie"
        tied = await given_up([ada, bob], clock, [home, detour])
        assert ranks(tied) == {ada.player_id: (1, cards, 4), bob.player_id: (1, cards, 6)}, "the same cards: a tie"
        rated = await ada.expect("race_ratings", code=tied["code"])
        assert {change["player_id"]: change["before"]["races"] for change in rated["changes"]} == {
            ada.player_id: 1, bob.player_id: 1}, "the race where nobody made progress was not rated"  # fmt: skip
        await arena.server.writer.flush()
    finally:
        await ada.close()
        await bob.close()

    url = arena.database_url
    assert await audited_here(url, capsys) == [], "every rank and rating recomputes by the rule of its race's start"
    assert (await arena.server.store.ratings.changes_of(await room_id(arena, nothing["code"]))) == []

    tied_room = await room_id(arena, tied["code"])
    moved = (BEFORE.replace(tzinfo=None) if url.startswith("sqlite") else BEFORE).isoformat(sep=" ")
    await sql(url, f"UPDATE rooms SET started_at = '{moved}' WHERE id = '{tied_room}'")
    lines = await audited_here(url, capsys)
    assert f"rating race {tied_room}: {bob.player_id} stored at rank 1, the room's results rank them 2" in lines, (
        "a race dated before the change is ranked by the old rule: its stored tie no longer agrees")  # fmt: skip


async def room_id(arena: RunningArena, code: str) -> str:
    stored = await arena.server.store.room_by_code(code)
    assert stored is not None
    return stored.room.room_id
