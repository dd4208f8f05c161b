"""The race clock: every timer of every room, behind a few verbs, and what rings when.

A room is watched while it has a deadline (a countdown's end, a running race's time limit), checked once
after a game of it ended (is everyone done?), remembered once finished (it leaves memory when nobody of it is
connected), and, for a lobby picked up from the store, given a while for its members to come back. `ring`
looks only at what is due: the deadlines sit in a heap, so a tick that finds nothing due costs one comparison
however many races run (a scan of every running race, 20 times a second, cost 10,000 rooms 200,000 looks a
second for nothing). What a ringing timer does is not the clock's business: it calls the `RaceTimers` and
`SeatKeeper` it is handed.

Whoever changes a room's countdown or time limit tells the clock again (`watch`); a deadline that moved later
without a word is found when the old one comes up, and waited for.

Shared rooms (other processes hold some of their players' games): a race that may be over is not finished
here from memory but handed out by `take_due`, for the adapter to re-read its games from the store first.
"""

from __future__ import annotations

import heapq
import itertools
from datetime import datetime, timedelta
from typing import Protocol

from freecell_arena.core.clock import Clock
from freecell_arena.core.effects import Effect
from freecell_arena.core.live.room import Room
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
        self._watched: dict[Room, datetime] = {}
        """Each watched room's deadline: the one entry of `_deadlines` for it that counts (others are stale)."""
        self._deadlines: list[tuple[datetime, int, Room]] = []
        """A heap of (deadline, tie-breaker, room); entries whose room left `_watched` or moved on are skipped."""
        self._order = itertools.count()
        # Insertion-ordered sets of rooms; a room whose status moved on drops out when it is next looked at.
        self._checking: dict[Room, None] = {}
        self._finished: dict[Room, datetime] = {}
        self._lobby_returns: dict[Room, datetime] = {}
        self._roll_calls: dict[Room, None] = {}
        self._due: dict[Room, None] = {}
        self._next_sweep: datetime | None = None

    # ------------------------------------------------------------------ what the rooms tell the clock

    def watch(self, room: Room) -> None:
        """The room has a deadline (a countdown's end, a running race's time limit), new or changed."""
        deadline = self._deadline(room)
        if deadline is None:
            self._watched.pop(room, None)
        elif self._watched.get(room) != deadline:
            self._watched[room] = deadline
            heapq.heappush(self._deadlines, (deadline, next(self._order), room))
        self._compact_if_stale()

    def check_if_over(self, room: Room) -> None:
        """A game of the running race ended (here or elsewhere): at the next tick, is everyone done?"""
        self._checking[room] = None

    def finished(self, room: Room, at: datetime) -> None:
        """The race is over: it leaves memory once nobody of it is connected (`unwatched_finished`)."""
        self._finished[room] = at
        self._watched.pop(room, None)
        self._compact_if_stale()

    def finish_undone(self, room: Room) -> None:
        """The finish was rolled back (its write failed): the race runs on, with its deadline."""
        self._finished.pop(room, None)
        self.watch(room)
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
        self._compact_if_stale()

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
        deadlines = self._deadlines
        while deadlines and deadlines[0][0] <= now:
            deadline, _, room = heapq.heappop(deadlines)
            if self._watched.get(room) != deadline:
                continue  # stale: the room was forgotten or finished, or its deadline changed since
            del self._watched[room]
            current = self._deadline(room)
            if current is None:
                continue  # the status moved on: nothing left to ring
            if current > now:
                self.watch(room)  # moved later without a word: wait for it
            elif room.status == COUNTDOWN:
                effects.append(races.begin_race(room))
                self.watch(room)  # its time limit, if it has one
            elif self.shared:
                self._due[room] = None
            else:
                effects.append(races.finish_race(room))
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

    def _deadline(self, room: Room) -> datetime | None:
        """When the room's timer rings: a countdown's end or a running race's time limit, later by a grace for a
        shared room this process did not start; None when it has neither."""
        if room.status == COUNTDOWN:
            moment = room.starts_at
        elif room.status == RUNNING:
            moment = room.ends_at
        else:
            return None
        if moment is None:
            return None
        return moment + TAKEOVER_GRACE if self.shared and not room.keeps_time else moment

    def _compact_if_stale(self) -> None:
        """Drop the stale entries once they outnumber the live ones (each holds its room in memory until its
        deadline would have come up): a rebuild every so often, so its cost spreads to next to nothing a call."""
        if len(self._deadlines) <= 2 * len(self._watched) + 64:
            return
        live = [entry for entry in self._deadlines if self._watched.get(entry[2]) == entry[0]]
        self._deadlines[:] = live  # in place: `ring` may be popping this very list when a `watch` compacts it
        heapq.heapify(self._deadlines)

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
