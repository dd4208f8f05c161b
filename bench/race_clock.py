"""The race clock's tick with many running races, beside a tick with none (same run).

    PYTHONPATH=$PWD/server python3 bench/race_clock.py            # 10,000 running races, 200 ticks

The server ticks 20 times a second (`tick_interval_s`). A tick looks only at what is due (a heap of deadlines,
core/live/race_clock.py), so its cost should not grow with the number of races running: the figure is the ratio of a
tick with `--races` running races (none due) to a tick with none. Before the heap, a tick looked at every
running race: 2.2 ms for 10,000, 4.4 % of a core at 20 ticks a second for nothing.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime, timedelta

from freecell_arena.core.effects import Effect
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.rooms import Rooms
from freecell_arena.core.ports.records import GameRecord, RoomRecord
from freecell_arena.engine import variant_by_id
from freecell_arena.protocol.rooms import RoomOptions


class StoppedClock:
    def __init__(self) -> None:
        self.instant = datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.instant


def running_game(room: Room, at: datetime) -> PlayerGame:
    """The host's game, just dealt: all the race clock asks of it is whether it runs (a race whose games all
    ended is checked at once). A real one: the compiled build's rooms hold nothing else."""
    record = GameRecord(f"g_{room.code}", room.room_id, "host", "freecell", 1, "1", True, True, False, at)
    return PlayerGame(record, room.variant, "Host", room.code)


class NothingRings:
    """No race is due during the measurement: anything that rings is a fault of the bench."""

    def begin_race(self, room: Room) -> Effect:
        raise AssertionError(f"room {room.code} rang")

    finish_race = begin_race

    def give_up_seats(self, room: Room) -> Effect | None:
        raise AssertionError(f"room {room.code} rang")


def tick_us(races: int, ticks: int) -> float:
    clock, nothing = StoppedClock(), NothingRings()
    rooms = Rooms()
    timers = RaceClock(clock, rooms)
    rooms.listener = timers.room_changed
    variant = variant_by_id("freecell")
    for number in range(races):
        record = RoomRecord(f"r_{number}", f"C{number}", "freecell", 1, "host", {}, clock.now())
        room = Room.new(record, variant, RoomOptions(countdown_s=0, time_limit_s=3600))
        rooms.adopt(room.but(status="running", starts_at=clock.now(), ends_at=room.limit_from(clock.now()),
                             games={"host": running_game(room, clock.now())}))
    start = time.process_time()
    for _ in range(ticks):
        clock.instant += timedelta(seconds=0.05)
        timers.ring(nothing, nothing)
    return (time.process_time() - start) / ticks * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=10_000)
    parser.add_argument("--ticks", type=int, default=200)
    args = parser.parse_args()
    empty = min(tick_us(0, args.ticks) for _ in range(3))
    full = min(tick_us(args.races, args.ticks) for _ in range(3))
    print(f"baseline: a tick with no race running            {empty:8.2f} us")
    ratio = full / max(empty, 1e-9)
    print(f"a tick with {args.races:,} races running (none due)  {full:8.2f} us   {ratio:.1f} x baseline")


if __name__ == "__main__":
    main()
