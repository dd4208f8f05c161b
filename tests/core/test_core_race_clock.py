"""`core.live.race_clock.RaceClock`: the timers of every room, and what rings when."""

from __future__ import annotations

import gc
import weakref
from datetime import timedelta

from core_support import ManualClock

from freecell_arena.core.effects import Effect
from freecell_arena.core.live.race_clock import FORGET_FINISHED_AFTER, TAKEOVER_GRACE, RaceClock
from freecell_arena.core.live.room import Room
from freecell_arena.core.ports.records import RoomRecord
from freecell_arena.engine import variant_by_id
from freecell_arena.protocol.messages import RoomOptions


class Recorder:
    """Stands in for the races and the lobby: writes down what rang, and moves the room on like they would."""

    def __init__(self) -> None:
        self.rang: list[tuple[str, str]] = []

    def begin_race(self, room: Room) -> Effect:
        self.rang.append(("begin", room.code))
        room.begin()
        return Effect()

    def finish_race(self, room: Room) -> Effect:
        self.rang.append(("finish", room.code))
        room.status = "finished"
        return Effect()

    def give_up_seats(self, room: Room) -> list[Effect]:
        self.rang.append(("give_up", room.code))
        return []


def room(clock: ManualClock, code: str, **options: object) -> Room:
    record = RoomRecord(f"r_{code}", code, "freecell", 1, "host", {}, clock.now())
    return Room(record, variant_by_id("freecell"), RoomOptions.model_validate(options))


def test_a_countdown_begins_the_race_then_its_time_limit_finishes_it(clock: ManualClock) -> None:
    timers, recorder = RaceClock(clock), Recorder()
    race = room(clock, "A", countdown_s=3, time_limit_s=60)
    race.schedule(clock.now())
    timers.watch(race)
    assert timers.ring(recorder, recorder) == [] and recorder.rang == []
    clock.advance(3)
    timers.ring(recorder, recorder)
    clock.advance(60)
    timers.ring(recorder, recorder)
    assert recorder.rang == [("begin", "A"), ("finish", "A")]


def test_a_race_a_game_ended_in_is_finished_only_when_everyone_is_done(clock: ManualClock) -> None:
    timers, recorder = RaceClock(clock), Recorder()
    race = room(clock, "B")
    race.status = "running"
    timers.check_if_over(race)
    timers.ring(recorder, recorder)
    assert recorder.rang == [("finish", "B")], "no games: everyone is done"
    timers.ring(recorder, recorder)
    assert recorder.rang == [("finish", "B")], "checked once per game that ended"


def test_a_shared_race_is_handed_out_once_instead_of_finished_here(clock: ManualClock) -> None:
    timers, recorder = RaceClock(clock, shared=True), Recorder()
    race = room(clock, "C", countdown_s=0, time_limit_s=5)
    race.schedule(clock.now())
    race.begin()
    race.keeps_time = True
    timers.watch(race)
    clock.advance(5)
    timers.ring(recorder, recorder)
    assert recorder.rang == [] and timers.take_due() == [race]
    assert timers.take_due() == [], "handed out and cleared"
    timers.settle_later(race)
    assert timers.take_due() == [race]


def test_a_process_that_did_not_start_the_race_waits_a_grace_period(clock: ManualClock) -> None:
    timers, recorder = RaceClock(clock, shared=True), Recorder()
    race = room(clock, "D", countdown_s=1)
    race.schedule(clock.now())
    race.keeps_time = False
    timers.watch(race)
    clock.advance(1)
    timers.ring(recorder, recorder)
    assert recorder.rang == []
    clock.advance(TAKEOVER_GRACE.total_seconds())
    timers.ring(recorder, recorder)
    assert recorder.rang == [("begin", "D")]


def test_a_lobby_waits_for_its_members_and_a_forgotten_room_rings_no_more(clock: ManualClock) -> None:
    timers, recorder = RaceClock(clock), Recorder()
    lobby, gone = room(clock, "E"), room(clock, "F")
    timers.await_return(lobby, clock.now() + timedelta(seconds=10))
    timers.await_return(gone, clock.now() + timedelta(seconds=10))
    timers.forget(gone)
    clock.advance(10)
    timers.ring(recorder, recorder)
    assert recorder.rang == [("give_up", "E")]


def test_finished_races_are_swept_after_their_grace_at_most_once_a_second(clock: ManualClock) -> None:
    timers = RaceClock(clock)
    race = room(clock, "G")
    assert not timers.time_to_sweep(idle_players=False), "nothing to sweep"
    race.status = "finished"
    timers.finished(race, clock.now())
    assert timers.time_to_sweep(idle_players=False) and not timers.time_to_sweep(idle_players=False)
    assert timers.finished_long_enough() == []
    clock.advance(FORGET_FINISHED_AFTER.total_seconds())
    assert timers.finished_long_enough() == [race]
    race.status = "running"  # the finish was rolled back
    assert timers.finished_long_enough() == []


def test_deadlines_ring_in_their_order_and_a_changed_one_counts_from_its_new_time(clock: ManualClock) -> None:
    timers, recorder = RaceClock(clock), Recorder()
    races = {code: room(clock, code, countdown_s=seconds) for code, seconds in (("H", 3), ("I", 1), ("J", 2))}
    for race in races.values():
        race.schedule(clock.now())
        timers.watch(race)
    races["J"].starts_at = clock.now() + timedelta(seconds=5)  # moved later without a word: waited for
    races["H"].starts_at = clock.now() + timedelta(seconds=1.5)
    timers.watch(races["H"])  # moved earlier and said so: rings then, and only once
    clock.advance(2)
    timers.ring(recorder, recorder)
    assert recorder.rang == [("begin", "I"), ("begin", "H")]
    clock.advance(2)
    timers.ring(recorder, recorder)
    assert recorder.rang == [("begin", "I"), ("begin", "H")], "J's old deadline passed: its new one has not"
    clock.advance(1)
    timers.ring(recorder, recorder)
    assert recorder.rang == [("begin", "I"), ("begin", "H"), ("begin", "J")]


def test_a_race_whose_finish_was_undone_rings_again_at_the_next_tick(clock: ManualClock) -> None:
    timers, recorder = RaceClock(clock), Recorder()
    race = room(clock, "K", countdown_s=0, time_limit_s=5)
    race.schedule(clock.now())
    timers.watch(race)
    timers.ring(recorder, recorder)
    clock.advance(5)
    timers.ring(recorder, recorder)
    race.status = "running"
    timers.finish_undone(race)
    timers.ring(recorder, recorder)
    assert recorder.rang == [("begin", "K"), ("finish", "K"), ("finish", "K")]


def test_a_forgotten_room_is_not_held_in_memory_by_its_deadline(clock: ManualClock) -> None:
    """Rooms come and go far faster than a race's time limit: a deadline left behind must not keep its room."""
    timers = RaceClock(clock)
    rooms = [room(clock, f"L{number}", countdown_s=0, time_limit_s=3600) for number in range(200)]
    for race in rooms:
        race.schedule(clock.now())
        race.begin()
        timers.watch(race)
    left = [weakref.ref(race) for race in rooms]
    for race in rooms:
        timers.forget(race)
    del rooms, race
    gc.collect()
    assert sum(reference() is not None for reference in left) <= 64, "the stale deadlines were dropped"
