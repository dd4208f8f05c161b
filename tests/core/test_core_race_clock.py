"""`core.live.race_clock.RaceClock`: the timers of every room, and what rings when. The clock follows the room
values memory adopts; a room with a change in flight is looked at on the next tick."""

from __future__ import annotations

from datetime import timedelta

from core_support import ManualClock

from freecell_arena.core.effects import Effect
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.race_clock import FORGET_FINISHED_AFTER, TAKEOVER_GRACE, RaceClock
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import GameRecord, RoomRecord
from freecell_arena.engine import variant_by_id
from freecell_arena.protocol.rooms import RoomOptions


def playing(room: Room) -> PlayerGame:
    """The host's game of `room`'s race, just dealt: running (a race whose games have all ended is checked at
    once). A real one: the compiled build's rooms hold nothing else."""
    assert room.starts_at is not None
    record = GameRecord(f"g_{room.code}", room.room_id, "host", room.variant.id, 1, "1", True, True, False,
                        room.starts_at)  # fmt: skip
    return PlayerGame(record, room.variant, "Host", room.code)


class Recorder:
    """Stands in for the races and the lobby: writes down what rang, and moves the room on as they would (a
    change memory adopts once the test stores it)."""

    def __init__(self, state: SharedState) -> None:
        self.state = state
        self.rang: list[tuple[str, str]] = []

    def _moved(self, room: Room, **fields: object) -> Effect:
        draft = Draft(self.state)
        draft.put(room.changed(**fields)[0])
        return draft.seal(Effect())

    def begin_race(self, room: Room) -> Effect:
        self.rang.append(("begin", room.code))
        ends_at = room.limit_from(room.starts_at)
        return self._moved(room, status="running", ends_at=ends_at, games={"host": playing(room)})

    def finish_race(self, room: Room) -> Effect:
        self.rang.append(("finish", room.code))
        return self._moved(room, status="finished")

    def give_up_seats(self, room: Room) -> Effect | None:
        self.rang.append(("give_up", room.code))
        return None


def clocked(clock: ManualClock, *, shared: bool = False) -> tuple[SharedState, RaceClock, Recorder]:
    state = SharedState(clock)
    timers = RaceClock(clock, state.rooms, shared=shared)
    state.rooms.listener, state.rooms.released = timers.room_changed, timers.released
    return state, timers, Recorder(state)


def ring(timers: RaceClock, recorder: Recorder) -> list[Effect]:
    """A tick whose effects the store accepts."""
    effects = timers.ring(recorder, recorder)
    for effect in effects:
        effect.stored()
    return effects


def room(state: SharedState, code: str, status: str = "lobby", *, keeps_time: bool = True, **options: object) -> Room:
    """A room of `status` adopted into memory (a countdown starts now, a race began now)."""
    clock = state.clock
    record = RoomRecord(f"r_{code}", code, "freecell", 1, "host", {}, clock.now())
    value = Room.new(record, variant_by_id("freecell"), RoomOptions.model_validate(options))
    if status == "countdown":
        value = value.but(status="countdown", starts_at=clock.now() + timedelta(seconds=value.options.countdown_s))
    elif status in ("running", "finished"):
        value = value.but(status=status, starts_at=clock.now(), ends_at=value.limit_from(clock.now()))
    value = value.but(keeps_time=keeps_time)
    state.rooms.adopt(value)
    return value


def test_a_countdown_begins_the_race_then_its_time_limit_finishes_it(clock: ManualClock) -> None:
    state, timers, recorder = clocked(clock)
    room(state, "A", "countdown", countdown_s=3, time_limit_s=60)
    assert ring(timers, recorder) == [] and recorder.rang == []
    clock.advance(3)
    ring(timers, recorder)
    assert state.rooms["A"].status == "running"
    clock.advance(60)
    ring(timers, recorder)
    assert recorder.rang == [("begin", "A"), ("finish", "A")]


def test_a_race_a_game_ended_in_is_finished_only_when_everyone_is_done(clock: ManualClock) -> None:
    state, timers, recorder = clocked(clock)
    race = room(state, "B", "running")
    timers.check_if_over(race)
    ring(timers, recorder)
    assert recorder.rang == [("finish", "B")], "no games: everyone is done"
    ring(timers, recorder)
    assert recorder.rang == [("finish", "B")], "checked once per game that ended"


def test_a_shared_race_is_handed_out_once_instead_of_finished_here(clock: ManualClock) -> None:
    state, timers, recorder = clocked(clock, shared=True)
    race = room(state, "C", "running", countdown_s=0, time_limit_s=5)
    clock.advance(5)
    ring(timers, recorder)
    assert recorder.rang == [] and timers.take_due() == [race]
    assert timers.take_due() == [], "handed out and cleared"
    timers.settle_later(race)
    assert timers.take_due() == [race]


def test_a_process_that_did_not_start_the_race_waits_a_grace_period(clock: ManualClock) -> None:
    state, timers, recorder = clocked(clock, shared=True)
    room(state, "D", "countdown", keeps_time=False, countdown_s=1)
    clock.advance(1)
    ring(timers, recorder)
    assert recorder.rang == []
    clock.advance(TAKEOVER_GRACE.total_seconds())
    ring(timers, recorder)
    assert recorder.rang == [("begin", "D")]


def test_a_lobby_waits_for_its_members_and_a_forgotten_room_rings_no_more(clock: ManualClock) -> None:
    state, timers, recorder = clocked(clock)
    lobby, gone = room(state, "E"), room(state, "F")
    timers.await_return(lobby, clock.now() + timedelta(seconds=10))
    timers.await_return(gone, clock.now() + timedelta(seconds=10))
    state.rooms.drop(gone)
    clock.advance(10)
    ring(timers, recorder)
    assert recorder.rang == [("give_up", "E")]


def test_finished_races_are_swept_after_their_grace_at_most_once_a_second(clock: ManualClock) -> None:
    state, timers, _ = clocked(clock)
    assert not timers.time_to_sweep(idle_players=False), "nothing to sweep"
    race = room(state, "G", "finished")
    assert timers.time_to_sweep(idle_players=False) and not timers.time_to_sweep(idle_players=False)
    assert timers.finished_long_enough() == []
    clock.advance(FORGET_FINISHED_AFTER.total_seconds())
    assert timers.finished_long_enough() == [race]
    state.rooms.claim([race.room_id])
    assert timers.finished_long_enough() == [], "a room with a change in flight stays"
    state.rooms.release([race.room_id], refused=True)
    state.rooms.adopt(race.but(status="running"))  # a re-read: the race runs on
    assert timers.finished_long_enough() == []


def test_deadlines_ring_in_their_order_and_a_changed_one_counts_from_its_new_time(clock: ManualClock) -> None:
    state, timers, recorder = clocked(clock)
    races = {code: room(state, code, "countdown", countdown_s=seconds) for code, seconds in (("H", 3), ("I", 1),
                                                                                             ("J", 2))}
    state.rooms.adopt(races["J"].but(starts_at=clock.now() + timedelta(seconds=5)))  # moved later: waited for
    state.rooms.adopt(races["H"].but(starts_at=clock.now() + timedelta(seconds=1.5)))  # earlier: rings once
    clock.advance(2)
    ring(timers, recorder)
    assert recorder.rang == [("begin", "I"), ("begin", "H")]
    clock.advance(2)
    ring(timers, recorder)
    assert recorder.rang == [("begin", "I"), ("begin", "H")], "J's old deadline passed: its new one has not"
    clock.advance(1)
    ring(timers, recorder)
    assert recorder.rang == [("begin", "I"), ("begin", "H"), ("begin", "J")]


def test_a_race_whose_finish_was_refused_rings_again_at_the_next_tick(clock: ManualClock) -> None:
    state, timers, recorder = clocked(clock)
    room(state, "K", "running", countdown_s=0, time_limit_s=5)
    clock.advance(5)
    (finish,) = timers.ring(recorder, recorder)
    assert state.rooms.in_flight("r_K")
    finish.refused()
    assert not state.rooms.in_flight("r_K") and state.rooms["K"].status == "running"
    ring(timers, recorder)
    assert recorder.rang == [("finish", "K"), ("finish", "K")] and state.rooms["K"].status == "finished"


def test_a_room_with_a_change_in_flight_rings_on_the_next_tick_after_it(clock: ManualClock) -> None:
    """A countdown that ends while a join of the room is being written: the race begins over the join, once it
    is stored, not over the room as it was before it."""
    state, timers, recorder = clocked(clock)
    race = room(state, "M", "countdown", countdown_s=1)
    state.rooms.claim([race.room_id])
    clock.advance(1)
    assert ring(timers, recorder) == [] and recorder.rang == []
    state.rooms.release([race.room_id], refused=False)
    ring(timers, recorder)
    assert recorder.rang == [("begin", "M")]


def test_forgotten_rooms_leave_no_deadline_behind(clock: ManualClock) -> None:
    """Rooms come and go far faster than a race's time limit: the deadlines left behind are dropped."""
    state, timers, _ = clocked(clock)
    races = [room(state, f"L{number}", "running", countdown_s=0, time_limit_s=3600) for number in range(200)]
    for race in races:
        state.rooms.drop(race)
    assert timers.deadlines_held() <= 64, "the stale deadlines were dropped"
