"""The rooms in memory: the one owner of which value each room holds, and of which rooms have a change in flight.

A room changes only by adopting a value (`adopt`): a change the store accepted (`live.changes`), or what the
store or another process says the room is now (a re-read, a remote event). A room has at most one change of
this process in flight (`claim`): a request that would change it meanwhile waits for that change to be stored
or refused (`Busy`), then is handled again over what memory then holds, as lila-ws and Colyseus apply a room's
changes one at a time. That is what makes a change's base the room it was built on: nothing is ever put back.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import fields

from freecell_arena.core.live.dict_view import DictView
from freecell_arena.core.live.room import Room

RoomListener = Callable[[Room | None, Room | None], None]
"""Told (before, after) after every adoption (after None: the room left memory): the race clock follows."""

_MAPPINGS = ("members", "games")


class Busy(Exception):
    """A change of rooms that have a change of this process in flight: nothing changed; handle the request again
    once they are stored or refused (net waits for that)."""

    def __init__(self, room_ids: tuple[str, ...]) -> None:
        super().__init__(f"rooms with a change in flight: {', '.join(room_ids)}")
        self.room_ids = room_ids


class Rooms(DictView[str, Room]):
    """Rooms by code (a read-only mapping), and `by_id`."""

    def __init__(self) -> None:
        self._by_code: dict[str, Room] = {}
        super().__init__(self._by_code)
        self._by_id: dict[str, Room] = {}
        self._in_flight: set[str] = set()
        self.listener: RoomListener = lambda before, after: None
        self.released: Callable[[Room], None] = lambda room: None
        """Told of each room whose change was refused: what memory holds was not changed, and its timers may
        have rung for the change (the race clock looks at it again)."""

    # ------------------------------------------------------------------ reading

    @property
    def by_id(self) -> Mapping[str, Room]:
        return self._by_id

    def in_flight(self, room_id: str) -> bool:
        return room_id in self._in_flight

    # ------------------------------------------------------------------ changes in flight

    def claim(self, room_ids: Collection[str]) -> None:
        """A change of these rooms goes to the store: refused with `Busy` while one of them has one in flight."""
        busy = [room_id for room_id in room_ids if room_id in self._in_flight]
        if busy:
            raise Busy(tuple(busy))
        self._in_flight.update(room_ids)

    def release(self, room_ids: Collection[str], *, refused: bool) -> None:
        self._in_flight.difference_update(room_ids)
        if refused:
            for room_id in room_ids:
                room = self._by_id.get(room_id)
                if room is not None:
                    self.released(room)

    # ------------------------------------------------------------------ adopting

    def adopt(self, room: Room) -> None:
        """What the store (or another process) says the room is now, in memory as it is."""
        before = self._by_id.get(room.room_id)
        if before is room:
            return
        self._by_code[room.code] = self._by_id[room.room_id] = room
        self.listener(before, room)

    def adopt_change(self, before: Room | None, after: Room) -> None:
        """A change of ours the store accepted, built on `before`. Memory still holds `before`: it takes `after`.
        Memory moved on meanwhile (another process's event, a re-read): if it holds our version or a later one,
        it stays; else it takes what our change changed, over what it holds (a flag of who is connected where,
        a pointer heard from another process)."""
        current = self._by_id.get(after.room_id)
        if current is None or current is before or before is None:
            self.adopt(after)
        elif current.seq > after.seq or current.version() == after.version():
            return
        else:
            self.adopt(merged(before, after, current))

    def drop(self, room: Room) -> None:
        """The room leaves memory (a lobby everyone left, a finished race nobody watches, closed elsewhere)."""
        current = self._by_id.pop(room.room_id, None)
        if current is None:
            return
        if self._by_code.get(current.code) is current:
            del self._by_code[current.code]
        self.listener(current, None)


def merged(before: Room, after: Room, current: Room) -> Room:
    """`current` with what the change from `before` to `after` changed (a three-way merge, field by field; member
    by member and game by game in the mappings)."""
    changes: dict[str, object] = {}
    for field in fields(Room):
        name = field.name
        old, new = getattr(before, name), getattr(after, name)
        if name in _MAPPINGS:
            if old is not new:
                changes[name] = _merged_mapping(old, new, getattr(current, name))
        elif old is not new and old != new:
            changes[name] = new
    return current.but(**changes)


def _merged_mapping(old: Mapping[str, object], new: Mapping[str, object], current: Mapping[str, object]) -> (
    dict[str, object]
):
    result = dict(current)
    for key in old.keys() | new.keys():
        if old.get(key) is new.get(key):
            continue
        if key in new:
            result[key] = new[key]
        else:
            result.pop(key, None)
    return result
