"""The race clock: every timer of every room, behind a few verbs, and what rings when.

A room is watched while it has a deadline (a countdown's end, a running race's time limit), checked once
after a game of it ended (is everyone done?), remembered once finished (it leaves memory when nobody of it is
connected), and, for a lobby picked up from the store, given a while for its members to come back. `run_due_timers`
looks only at what is due: the deadlines sit in a heap, so a tick that finds nothing due costs one comparison
however many races run (a scan of every running race, 20 times a second, cost 10,000 rooms 200,000 looks a
second for nothing). What a ringing timer does is not the clock's business: it calls the `RaceTimers` and
`SeatKeeper` it is handed.

The clock follows the rooms: every room value memory adopts is shown to it (`room_changed`), and it watches the
deadline that value says it has (`Room.deadline`); a deadline that moved later is found when the old one comes
up, and waited for. A room whose change is in flight when its timer rings is looked at again on the next tick;
one whose change the store refused is looked at again at once (`released`). The clock keeps room ids and reads
each room's current value.

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
from freecell_arena.core.live.rooms import Busy, Rooms
from freecell_arena.protocol.vocabulary import COUNTDOWN, FINISHED, RUNNING

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

    def give_up_seats(self, room: Room) -> Effect | None: ...


class RaceClock:
    def __init__(self, clock: Clock, rooms: Rooms, *, shared: bool = False) -> None:
        self.clock = clock
        self.rooms = rooms
        self.shared = shared
        """Other processes share the database and this process's rooms: a race is finished from the stored
        games (`take_due`), as other processes hold some of its players' games."""
        self._watched: dict[str, datetime] = {}
        """Each watched room's deadline: the one entry of `_deadlines` for it that counts (others are stale)."""
        self._deadlines: list[tuple[datetime, int, str]] = []
        """A heap of (deadline, tie-breaker, room id); entries whose room left `_watched` or moved on are skipped."""
        self._order = itertools.count()
        # Insertion-ordered sets of room ids; a room whose status moved on drops out when it is next looked at.
        self._checking: dict[str, None] = {}
        self._finished: dict[str, datetime] = {}
        self._lobby_returns: dict[str, datetime] = {}
        self._roll_calls: dict[str, None] = {}
        self._due: dict[str, None] = {}
        self._next_sweep: datetime | None = None

    # ------------------------------------------------------------------ what memory adopts

    def room_changed(self, before: Room | None, after: Room | None) -> None:
        """Memory adopted `after` (None: the room left it): the clock watches what the new value says."""
        if after is None:
            if before is not None:
                self.forget(before.room_id)
            return
        self.watch(after)
        if after.status == RUNNING and after.everyone_done():
            self.check_if_over(after)
        if after.status == FINISHED and (before is None or before.status != FINISHED):
            self._finished[after.room_id] = self.clock.now()

    def released(self, room: Room) -> None:
        """A change of the room was refused: memory holds what it held, and its timer may have rung for the change."""
        self.watch(room)
        if room.status == RUNNING:
            self.check_if_over(room)

    # ------------------------------------------------------------------ what the rooms tell the clock

    def watch(self, room: Room) -> None:
        """The room has a deadline (a countdown's end, a running race's time limit), new or changed."""
        deadline = self._deadline(room)
        room_id = room.room_id
        if deadline is None:
            self._watched.pop(room_id, None)
        elif self._watched.get(room_id) != deadline:
            self._watched[room_id] = deadline
            heapq.heappush(self._deadlines, (deadline, next(self._order), room_id))
        self._compact_if_stale()

    def check_if_over(self, room: Room) -> None:
        """A game of the running race ended (here or elsewhere): at the next tick, is everyone done?"""
        self._checking[room.room_id] = None

    def await_return(self, room: Room, deadline: datetime) -> None:
        """A lobby picked up from the store: its members have until `deadline` to come back (shared: those
        connected to another process say so when asked, `take_roll_calls`)."""
        self._lobby_returns[room.room_id] = deadline
        if self.shared:
            self._roll_calls[room.room_id] = None

    def give_up_absent(self, room: Room) -> None:
        """The lobby's members with no connection leave it at the next tick it is free (one left while the
        lobby had a change in flight)."""
        self._lobby_returns[room.room_id] = self.clock.now()

    def take_roll_calls(self) -> list[Room]:
        """The picked-up lobbies whose members connected to other processes must be asked for, handed out once:
        the store says who sits in a lobby, not where they are connected (the `member_connection` events that
        told it went out before this process held the room). A lobby with a change in flight waits for a later
        tick: it was picked up for that change (a player joining by code here), and that player hears the room's
        events only once the change is stored; an answer arriving before would pass them by."""
        calls: list[Room] = []
        for room_id in list(self._roll_calls):
            room = self.rooms.by_id.get(room_id) if room_id in self._lobby_returns else None
            if room is not None and self.rooms.in_flight(room_id):
                continue
            del self._roll_calls[room_id]
            if room is not None:
                calls.append(room)
        return calls

    def forget(self, room_id: str) -> None:
        """The room left memory: none of its timers rings any more."""
        for timers in (self._watched, self._checking, self._finished, self._lobby_returns, self._roll_calls, self._due):
            timers.pop(room_id, None)
        self._compact_if_stale()

    # ------------------------------------------------------------------ shared rooms that may be over

    def take_due(self) -> list[Room]:
        """The shared races that may be over, handed out once: the caller re-reads their games from the store,
        then settles them (`Replica.settle`) or hands them back (`settle_later`)."""
        due = [room for room_id in self._due if (room := self.rooms.by_id.get(room_id)) is not None]
        self._due = {}
        return due

    def settle_later(self, room: Room) -> None:
        self._due[room.room_id] = None

    def settled(self, room: Room) -> None:
        self._due.pop(room.room_id, None)

    # ------------------------------------------------------------------ the tick

    def run_due_timers(self, races: RaceTimers, seats: SeatKeeper) -> list[Effect]:
        """Begin the races whose countdown is over; finish those out of time or done (or, shared, hand them
        out by `take_due`); give up the seats of picked-up lobbies whose members did not come back. Each effect's
        room is claimed (in flight) as it is made; a room with a change in flight, or a change that would move a
        seat another change is moving (`Busy`), is looked at on the next tick."""
        now = self.clock.now()
        effects: list[Effect] = []
        later: list[tuple[datetime, str]] = []

        def made(effect: Effect | None) -> bool:
            """Whether the room's timer is done with (False: it rings again at the next tick)."""
            if effect is not None:
                try:
                    effect.claim()
                except Busy:
                    return False
                effects.append(effect)
            return True

        deadlines, rooms = self._deadlines, self.rooms
        while deadlines and deadlines[0][0] <= now:
            deadline, _, room_id = heapq.heappop(deadlines)
            if self._watched.get(room_id) != deadline:
                continue  # stale: the room was forgotten or finished, or its deadline changed since
            del self._watched[room_id]
            room = rooms.by_id.get(room_id)
            current = self._deadline(room) if room is not None else None
            if room is None or current is None:
                continue  # the status moved on: nothing left to ring
            if current > now:
                self.watch(room)  # moved later without a word: wait for it
            elif rooms.in_flight(room_id):
                later.append((current, room_id))
            elif room.status == COUNTDOWN:
                if not made(races.begin_race(room)):
                    later.append((current, room_id))
            elif self.shared:
                self._due[room_id] = None
            elif not made(races.finish_race(room)):
                later.append((current, room_id))
        for deadline, room_id in later:
            self._watched[room_id] = deadline
            heapq.heappush(deadlines, (deadline, next(self._order), room_id))
        for room_id, deadline in list(self._lobby_returns.items()):
            if deadline <= now and not rooms.in_flight(room_id):
                room = rooms.by_id.get(room_id)
                if room is None or made(seats.give_up_seats(room)):
                    del self._lobby_returns[room_id]
        checking, self._checking = self._checking, {}
        for room_id in checking:
            room = rooms.by_id.get(room_id)
            if room is None or room.status != RUNNING:
                continue
            if rooms.in_flight(room_id):
                self._checking[room_id] = None
            elif self.shared:
                self._due[room_id] = None
            elif room.everyone_done() and not made(races.finish_race(room)):
                self._checking[room_id] = None
        return effects

    def _deadline(self, room: Room) -> datetime | None:
        """When the room's timer rings, as the room says (`Room.deadline`: later by a grace for a shared room this
        process did not start)."""
        return room.deadline(self.shared)

    def _compact_if_stale(self) -> None:
        """Drop the stale entries once they outnumber the live ones (each holds a room id until its deadline would
        have come up): a rebuild every so often, so its cost spreads to next to nothing a call."""
        if len(self._deadlines) <= 2 * len(self._watched) + 64:
            return
        live = [entry for entry in self._deadlines if self._watched.get(entry[2]) == entry[0]]
        self._deadlines[:] = live  # in place: `run_due_timers` may be popping this very list when a `watch` compacts it
        heapq.heapify(self._deadlines)

    def deadlines_held(self) -> int:
        """The entries of the heap, stale ones included (they are dropped once they outnumber the live ones)."""
        return len(self._deadlines)

    def time_to_sweep(self, *, idle_players: bool) -> bool:
        """Once a `SWEEP_INTERVAL` at most, when there is something to sweep (finished races, idle players)."""
        now = self.clock.now()
        if not (self._finished or idle_players) or (self._next_sweep is not None and now < self._next_sweep):
            return False
        self._next_sweep = now + SWEEP_INTERVAL
        return True

    def finished_long_enough(self) -> list[Room]:
        """Finished races past their grace (`FORGET_FINISHED_AFTER`): they may leave memory if nobody of them is
        connected. A room no longer finished, or gone, drops out of the list."""
        now = self.clock.now()
        rooms = []
        for room_id, finished_at in list(self._finished.items()):
            room = self.rooms.by_id.get(room_id)
            if room is None or room.status != FINISHED:
                del self._finished[room_id]
            elif now - finished_at >= FORGET_FINISHED_AFTER and not self.rooms.in_flight(room_id):
                rooms.append(room)
        return rooms
