"""The race clock: every timer of every room, behind a few verbs, and what rings when.

A room is watched while it has a deadline (a countdown's end, a running race's time limit), checked once
after a game of it ended (is everyone done?), remembered once finished (it leaves memory when nobody of it is
connected), and, for a lobby picked up from the store, given a while for its members to come back. `ring`
looks only at those rooms, so a tick costs what can happen now, not every room in memory. What a ringing
timer does is not the clock's business: it calls the `RaceTimers` and `SeatKeeper` it is handed.

Shared rooms (other processes hold some of their players' games): a race that may be over is not finished
here from memory but handed out by `take_due`, for the adapter to re-read its games from the store first.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from freecell_arena.core.clock import Clock
from freecell_arena.core.effects import Effect
from freecell_arena.core.room import Room
from freecell_arena.protocol.vocabulary import COUNTDOWN, FINISHED, RUNNING

TAKEOVER_GRACE = timedelta(seconds=2)
"""A race's countdown end or time limit, seen by a process that did not start the race: it acts this much later,
only if the room's keeper has not (the keeper's process may have died); the room's version check lets one win."""
FORGET_FINISHED_AFTER = timedelta(seconds=30)
"""How long a finished race stays in memory at least, even when nobody of it is connected."""
SWEEP_INTERVAL = timedelta(seconds=1)
"""How often the finished races and idle players are looked at (not on every tick: a race whose players stay
costs nothing)."""


class RaceTimers(Protocol):
    """What a race's timers do when they ring (`Races`)."""

    def begin_race(self, room: Room) -> Effect: ...

    def finish_race(self, room: Room) -> Effect: ...


class SeatKeeper(Protocol):
    """What a picked-up lobby's timer does when its members did not come back in time (`Lobby`)."""

    def give_up_seats(self, room: Room) -> list[Effect]: ...


class RaceClock:
    def __init__(self, clock: Clock, *, shared: bool = False) -> None:
        self.clock = clock
        self.shared = shared
        """Other processes share the database and this process's rooms: a race is finished from the stored
        games (`take_due`), as other processes hold some of its players' games."""
        # Insertion-ordered sets of rooms; a room whose status moved on drops out when it is next looked at.
        self._watched: dict[Room, None] = {}
        self._checking: dict[Room, None] = {}
        self._finished: dict[Room, datetime] = {}
        self._lobby_returns: dict[Room, datetime] = {}
        self._roll_calls: dict[Room, None] = {}
        self._due: dict[Room, None] = {}
        self._next_sweep: datetime | None = None

    # ------------------------------------------------------------------ what the rooms tell the clock

    def watch(self, room: Room) -> None:
        """The room has a deadline (a countdown's end, a running race's time limit)."""
        self._watched[room] = None

    def check_if_over(self, room: Room) -> None:
        """A game of the running race ended (here or elsewhere): at the next tick, is everyone done?"""
        self._checking[room] = None

    def finished(self, room: Room, at: datetime) -> None:
        """The race is over: it leaves memory once nobody of it is connected (`unwatched_finished`)."""
        self._finished[room] = at
        self._watched.pop(room, None)

    def finish_undone(self, room: Room) -> None:
        """The finish was rolled back (its write failed): the race runs on, with its deadline."""
        self._finished.pop(room, None)
        self._watched[room] = None
        self._checking[room] = None

    def await_return(self, room: Room, deadline: datetime) -> None:
        """A lobby picked up from the store: its members have until `deadline` to come back (shared: those
        connected to another process say so when asked, `take_roll_calls`)."""
        self._lobby_returns[room] = deadline
        if self.shared:
            self._roll_calls[room] = None

    def take_roll_calls(self) -> list[Room]:
        """The picked-up lobbies whose members connected to other processes must be asked for, handed out once:
        the store says who sits in a lobby, not where they are connected (the `member_connection` events that
        told it went out before this process held the room)."""
        calls, self._roll_calls = [room for room in self._roll_calls if room in self._lobby_returns], {}
        return calls

    def forget(self, room: Room) -> None:
        """The room left memory: none of its timers rings any more."""
        for timers in (self._watched, self._checking, self._finished, self._lobby_returns, self._roll_calls, self._due):
            timers.pop(room, None)

    # ------------------------------------------------------------------ shared rooms that may be over

    def take_due(self) -> list[Room]:
        """The shared races that may be over, handed out once: the caller re-reads their games from the store,
        then settles them (`Replica.settle`) or hands them back (`settle_later`)."""
        due, self._due = list(self._due), {}
        return due

    def settle_later(self, room: Room) -> None:
        self._due[room] = None

    def settled(self, room: Room) -> None:
        self._due.pop(room, None)

    # ------------------------------------------------------------------ the tick

    def ring(self, races: RaceTimers, seats: SeatKeeper) -> list[Effect]:
        """Begin the races whose countdown is over; finish those out of time or done (or, shared, hand them
        out by `take_due`); give up the seats of picked-up lobbies whose members did not come back."""
        now = self.clock.now()
        effects: list[Effect] = []
        for room in list(self._watched):
            grace = TAKEOVER_GRACE if self.shared and not room.keeps_time else timedelta(0)
            if room.status == COUNTDOWN:
                if room.starts_at is not None and room.starts_at + grace <= now:
                    effects.append(races.begin_race(room))
            elif room.status == RUNNING and room.ends_at is not None:
                if room.ends_at + grace <= now:
                    if self.shared:
                        self._due[room] = None
                        del self._watched[room]
                    else:
                        effects.append(races.finish_race(room))
            else:
                del self._watched[room]
        for room, deadline in list(self._lobby_returns.items()):
            if deadline <= now:
                del self._lobby_returns[room]
                effects.extend(seats.give_up_seats(room))
        checking, self._checking = self._checking, {}
        for room in checking:
            if room.status == RUNNING and self.shared:
                self._due[room] = None
            elif room.status == RUNNING and room.everyone_done():
                effects.append(races.finish_race(room))
        return effects

    def time_to_sweep(self, *, idle_players: bool) -> bool:
        """Once a `SWEEP_INTERVAL` at most, when there is something to sweep (finished races, idle players)."""
        now = self.clock.now()
        if not (self._finished or idle_players) or (self._next_sweep is not None and now < self._next_sweep):
            return False
        self._next_sweep = now + SWEEP_INTERVAL
        return True

    def finished_long_enough(self) -> list[Room]:
        """Finished races past their grace (`FORGET_FINISHED_AFTER`): they may leave memory if nobody of them is
        connected. A race whose finish was rolled back drops out of the list."""
        now = self.clock.now()
        rooms = []
        for room, finished_at in list(self._finished.items()):
            if room.status != FINISHED:
                del self._finished[room]
            elif now - finished_at >= FORGET_FINISHED_AFTER:
                rooms.append(room)
        return rooms
