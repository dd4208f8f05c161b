"""`core.race_clock.RaceClock`: the timers of every room, and what rings when."""

from __future__ import annotations

from datetime import timedelta

from core_support import ManualClock

from freecell_arena.core.effects import Effect
from freecell_arena.core.ports import RoomRecord
from freecell_arena.core.race_clock import FORGET_FINISHED_AFTER, TAKEOVER_GRACE, RaceClock
from freecell_arena.core.room import Room
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
