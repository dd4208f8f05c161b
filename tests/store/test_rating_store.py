"""Ratings in the database (store/ratings.py, core/ratings.settle_race), on SQLite and PostgreSQL: a race is
rated exactly once, concurrent races of one player never start from the same rating, the boards read back in
order, and the audit's replay of the stored changes matches what was applied."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from sqlalchemy import text
from store_builders import T0, game, player, room

from freecell_arena.core.ports.records import Record, ResultRecord, RoomStatusRecord
from freecell_arena.core.records.ratings import (
    Ladder,
    Placement,
    RatedRace,
    Recorded,
    placements_from_results,
    rate_race,
    replay_ratings,
    settle_race,
)
from freecell_arena.store import SqlStore
from freecell_arena.store.ratings import RatingStore, StoredRatedRace

PLAYERS = [player(number, bot=number >= 5) for number in range(1, 7)]


async def a_race(store: SqlStore, number: int, finish: list[int]) -> tuple[str, list[Placement]]:
    """A stored room whose players (indices into PLAYERS) won in the order given, one move apart."""
    host = PLAYERS[finish[0]]
    stored_room = room(number, host)
    await store.write([stored_room])
    records = []
    for place, index in enumerate(finish):
        played = game(number * 100 + place, PLAYERS[index], stored_room)
        records += [played, ResultRecord(played.game_id, "won", 50 + place, 60, 52, 1000, T0 + timedelta(seconds=9))]
    await store.write(records)
    placements = [Placement(PLAYERS[index].player_id, place, PLAYERS[index].bot)
                  for place, index in enumerate(finish, start=1)]  # fmt: skip
    return stored_room.room_id, placements


@pytest.fixture
async def ledger(store: SqlStore) -> RatingStore:
    await store.write(PLAYERS)
    return RatingStore(store.engine)


async def test_a_race_is_rated_once_and_read_back_as_applied(store: SqlStore, ledger: RatingStore) -> None:
    room_id, placements = await a_race(store, 1, [0, 1, 2])
    applied = await settle_race(ledger, room_id, "freecell", placements, T0)
    assert applied is not None and [change.player_id for change in applied] == [p.player_id for p in placements]
    assert await settle_race(ledger, room_id, "freecell", placements, T0) is None, "a second settle changes nothing"
    assert await ledger.changes_of(room_id) == applied
    current = await ledger.current("freecell", [(p.player_id, Ladder.HUMANS) for p in placements])
    assert current[(PLAYERS[0].player_id, Ladder.HUMANS)] == applied[0].after
    assert await ledger.current("chinese-freecell", [(PLAYERS[0].player_id, Ladder.HUMANS)]) == {}


async def test_a_change_computed_from_a_stale_rating_is_refused_whole(store: SqlStore, ledger: RatingStore) -> None:
    first_room, first = await a_race(store, 1, [0, 1])
    second_room, second = await a_race(store, 2, [1, 2])
    stale = rate_race(second, {})  # computed before the first race moved player 1's rating
    await settle_race(ledger, first_room, "freecell", first, T0)
    assert await ledger.record(second_room, "freecell", second, stale, T0) is Recorded.CONFLICT
    assert await ledger.changes_of(second_room) == []
    assert (PLAYERS[2].player_id, Ladder.HUMANS) not in await ledger.current(
        "freecell", [(PLAYERS[2].player_id, Ladder.HUMANS)]), "nothing of the refused race was kept"  # fmt: skip


def as_rated(stored: list[StoredRatedRace]) -> list[RatedRace]:
    """The stored races as the audit replays them: placements recomputed from the stored results."""
    return [RatedRace(race.room_id, race.variant, placements_from_results(race.results, race.ranking, race.started_at),
                      tuple(change for change, _ in race.changes)) for race in stored]  # fmt: skip


async def test_concurrent_races_of_one_player_both_apply_in_an_order_the_audit_replays(
    store: SqlStore, ledger: RatingStore
) -> None:
    races = [await a_race(store, number, finish) for number, finish in
             enumerate([[0, 1], [1, 2], [2, 0], [0, 3], [3, 1, 4, 5]], start=1)]  # fmt: skip
    await asyncio.gather(*(settle_race(ledger, room_id, "freecell", placements, T0) for room_id, placements in races))
    stored = [race async for race in ledger.rated_races()]
    assert sorted(race.room_id for race in stored) == sorted(room_id for room_id, _ in races)
    replayed = as_rated(stored)
    final, mismatches = replay_ratings(replayed)
    assert mismatches == []
    keys = [(p.player_id, ladder) for p in PLAYERS for ladder in Ladder]
    assert {("freecell", *key): rating for key, rating in (await ledger.current("freecell", keys)).items()} == final
    assert final[("freecell", PLAYERS[0].player_id, Ladder.HUMANS)].races == 3


async def test_the_boards_rank_by_the_conservative_estimate(store: SqlStore, ledger: RatingStore) -> None:
    for number in range(1, 6):
        room_id, placements = await a_race(store, number, [0, 1, 2, 3])
        await settle_race(ledger, room_id, "freecell", placements, T0 + timedelta(minutes=number))
    top = await ledger.top("freecell", Ladder.HUMANS, 10)
    assert [row.player_id for row in top] == [PLAYERS[index].player_id for index in range(4)]
    assert [row.position for row in top] == [1, 2, 3, 4]
    assert top[0].rating.display > top[-1].rating.display
    around = await ledger.around("freecell", Ladder.HUMANS, PLAYERS[2].player_id, 1)
    assert [row.position for row in around] == [2, 3, 4]
    assert await ledger.around("freecell", Ladder.BOTS, PLAYERS[2].player_id, 1) == []
    history = await ledger.history(PLAYERS[0].player_id, "freecell", Ladder.HUMANS, 3)
    assert [point.after.races for point in history] == [3, 4, 5]
    assert history[-1].after == top[0].rating


async def test_a_tampered_stored_rank_shows_in_the_audit(store: SqlStore, ledger: RatingStore) -> None:
    room_id, placements = await a_race(store, 1, [0, 1])
    await settle_race(ledger, room_id, "freecell", list(reversed([Placement(p.player_id, 3 - p.rank, p.bot)
                                                                  for p in placements])), T0)  # fmt: skip
    stored = [race async for race in ledger.rated_races()]
    replayed = as_rated(stored)
    _, mismatches = replay_ratings(replayed)
    assert {mismatch.player_id for mismatch in mismatches} == {PLAYERS[0].player_id, PLAYERS[1].player_id}


async def test_the_audit_command_recomputes_the_ratings_and_reports_a_tampered_one(
    store: SqlStore, ledger: RatingStore, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from freecell_arena.commands.audit import audit

    for number, finish in enumerate([[0, 1], [1, 0], [0, 1, 2]], start=1):
        room_id, placements = await a_race(store, number, finish)
        await settle_race(ledger, room_id, "freecell", placements, T0)

    def rating_lines() -> list[str]:
        return [line for line in capsys.readouterr().out.splitlines() if line.startswith("rating ")]

    *_, races, _ = await audit(database_url, 2)
    assert races == 3 and rating_lines() == []
    async with store.engine.begin() as connection:
        await connection.execute(text("UPDATE rating_changes SET mu_after = mu_after + 1 WHERE id = 2"))
    await audit(database_url, 2)
    (line,) = rating_lines()
    assert line.startswith("rating race r_0000000000000001: p_0000000000000002 (humans): stored mu=")


async def test_the_audit_reports_a_finished_rateable_race_left_unrated(
    store: SqlStore, ledger: RatingStore, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A process that died between storing a race's finish and rating it: the audit names the race."""
    from freecell_arena.commands.audit import audit

    ranked = replace(room(7, PLAYERS[0]), options={"ranked": True})
    chosen = replace(room(8, PLAYERS[0]), options={"ranked": True}, seed_chosen=True)  # the host's deal: never rated
    mixed = replace(room(10, PLAYERS[0]), options={"ranked": True})  # a human and a bot: no ladder has two players
    await store.write([ranked, chosen, mixed])
    for number, stored_room, racers in ((7, ranked, PLAYERS[:2]), (8, chosen, PLAYERS[:2]),
                                        (10, mixed, [PLAYERS[0], PLAYERS[4]])):  # fmt: skip
        records: list[Record] = []
        for place in range(2):
            played = game(number * 100 + place, racers[place], stored_room)
            records += [played, ResultRecord(played.game_id, "won", 50 + place, 60, 52, 1000, T0)]
        await store.write([*records, RoomStatusRecord(stored_room.room_id, "finished", T0)])

    await audit(database_url, 2)
    assert not [line for line in capsys.readouterr().out.splitlines() if line.startswith("rating ")], (
        "before the first rated race, ratings were not live: nothing was left out")
    earlier_id, earlier = await a_race(store, 9, [2, 3])
    await settle_race(ledger, earlier_id, "freecell", earlier, T0 - timedelta(seconds=1))
    await audit(database_url, 2)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("rating ")]
    assert lines == ["rating race ROOM0007: finished, rateable and never rated"]
    placements = [Placement(PLAYERS[0].player_id, 1, False), Placement(PLAYERS[1].player_id, 2, False)]
    await settle_race(ledger, ranked.room_id, "freecell", placements, T0)
    await audit(database_url, 2)
    assert not [line for line in capsys.readouterr().out.splitlines() if line.startswith("rating ")]


async def left_unrated(store: SqlStore, number: int, finish: list[int], at: datetime) -> str:
    """A finished ranked race on a drawn deal, never rated (its process died after storing the finish)."""
    stored_room = replace(room(number, PLAYERS[finish[0]]), options={"ranked": True})
    await store.write([stored_room])
    records: list[Record] = []
    for place, index in enumerate(finish):
        played = game(number * 100 + place, PLAYERS[index], stored_room)
        records += [played, ResultRecord(played.game_id, "won", 50 + place, 60, 52, 1000, at)]
    await store.write([*records, RoomStatusRecord(stored_room.room_id, "finished", at)])
    return stored_room.code


async def test_the_sweep_rates_what_was_left_in_its_window_once_and_the_audit_agrees(
    store: SqlStore, ledger: RatingStore, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from freecell_arena.commands.audit import audit
    from freecell_arena.core.competition.rating_recovery import RatingRecovery

    live_id, live = await a_race(store, 1, [0, 1])
    await settle_race(ledger, live_id, "freecell", live, T0)  # ratings went live at T0
    now = T0 + timedelta(hours=3)
    old = [await left_unrated(store, 10, [1, 0], T0 + timedelta(minutes=1)),
           await left_unrated(store, 11, [0, 2], T0 + timedelta(minutes=1)),  # the same instant: by room id
           await left_unrated(store, 12, [2, 1, 3], T0 + timedelta(minutes=2))]  # fmt: skip
    recent = await left_unrated(store, 13, [3, 0], now - timedelta(seconds=10))  # its finisher is rating it
    twice = await left_unrated(store, 14, [1, 1], T0 + timedelta(minutes=3))  # a player placed twice: never rateable

    recovery = RatingRecovery(ledger, batch=1)
    report = await recovery.sweep(now)
    assert [message.code for message in report.rated] == old
    assert [code for code, _ in report.failed] == [twice] and not report.complete
    assert recovery.covered_until is None, "a sweep with a failure does not narrow the next one"
    assert [message.code for message in (await recovery.sweep(now)).rated] == []

    async with store.engine.begin() as connection:  # the bad race is mended: the next sweep goes through
        await connection.execute(text(f"DELETE FROM games WHERE room_id = 'r_{14:016x}'"))
    forgotten = await left_unrated(store, 15, [2, 3], T0 + timedelta(minutes=4))
    later = now + timedelta(hours=2)
    report = await recovery.sweep(later)
    assert [message.code for message in report.rated] == [forgotten, recent] and report.complete
    assert recovery.covered_until == later - recovery.grace
    assert len([line async for line in ledger.unrated_races()]) == 0

    out_of_window = await left_unrated(store, 16, [0, 3], T0 + timedelta(minutes=5))  # stored late, dated early
    assert (await recovery.sweep(later + timedelta(minutes=10))).rated == [], "looks back an hour, not to T0"
    assert [code async for code in ledger.unrated_races()] == [out_of_window]
    restarted = RatingRecovery(ledger)
    assert [message.code for message in (await restarted.sweep(later)).rated] == [out_of_window]
    assert (await RatingRecovery(ledger).sweep(later)).rated == [], "rated once: nothing is left"

    capsys.readouterr()
    *_, races, _ = await audit(database_url, 2)
    assert races == 7 and [line for line in capsys.readouterr().out.splitlines() if line.startswith("rating ")] == []
