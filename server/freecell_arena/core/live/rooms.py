"""The rooms in memory: the one owner of which value each room holds, and of which rooms have a change in flight.

A room changes only by adopting a value: a change the store accepted (`live.changes`), or what the store or
another process says the room is now (a re-read, a remote event). A room has at most one change of this process
in flight (`claim`): a request that would change it meanwhile waits for that change to be stored or refused
(`Busy`), then is handled again over what memory then holds, as lila-ws and Colyseus apply a room's changes one at
a time. That is what makes a change's base the room it was built on: nothing is ever put back. The claim and the
adoption are the ones every versioned value of core has (`live.versioned`); rooms add their index by code.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from freecell_arena.core.live.dict_view import DictView
from freecell_arena.core.live.room import Room, merged
from freecell_arena.core.live.versioned import Busy, VersionedOwner

__all__ = ["Busy", "RoomVersions", "Rooms"]

RoomListener = Callable[[Room | None, Room | None], None]
"""Told (before, after) after every adoption (after None: the room left memory): the race clock follows."""


class RoomVersions:
    """A room's version is its number and tag in the store (`Room.seq`, `Room.tag`)."""

    def key(self, value: Room) -> str:
        return value.room_id

    def holds(self, current: Room, other: Room) -> bool:
        return current.seq > other.seq or (current.seq == other.seq and current.tag == other.tag)

    def merged(self, before: Room, after: Room, current: Room) -> Room:
        return merged(before, after, current)

    def read_over(self, current: Room, read: Room, in_flight: bool) -> Room | None:
        """A room read back is the replica's to take (`Replica.resync`): by version, in flight or not."""
        return None if current.seq > read.seq else read


class Rooms(DictView[str, Room]):
    """Rooms by code (a read-only mapping), and `by_id`; `owner` is their versioned owner by id."""

    def __init__(self) -> None:
        self._by_code: dict[str, Room] = {}
        super().__init__(self._by_code)
        self.owner: VersionedOwner[Room] = VersionedOwner(RoomVersions())
        self.owner.listener = self._adopted
        self.listener: RoomListener = lambda before, after: None
        self.released: Callable[[Room], None] = lambda room: None
        """Told of each room whose change was refused: what memory holds was not changed, and its timers may
        have rung for the change (the race clock looks at it again)."""
        self.owner.released = self._released

    def _adopted(self, before: Room | None, after: Room | None) -> None:
        if after is not None:
            self._by_code[after.code] = after
        elif before is not None and self._by_code.get(before.code) is before:
            del self._by_code[before.code]
        self.listener(before, after)

    def _released(self, room: Room) -> None:
        self.released(room)

    # ------------------------------------------------------------------ reading

    @property
    def by_id(self) -> Mapping[str, Room]:
        return self.owner.entries

    def in_flight(self, room_id: str) -> bool:
        return self.owner.in_flight(room_id)

    # ------------------------------------------------------------------ changes in flight

    def claim(self, room_ids: Collection[str]) -> None:
        """A change of these rooms goes to the store: refused with `Busy` while one of them has one in flight."""
        self.owner.claim(room_ids)

    def release(self, room_ids: Collection[str], *, refused: bool) -> None:
        self.owner.release(room_ids, refused=refused)

    # ------------------------------------------------------------------ adopting

    def adopt(self, room: Room) -> None:
        """What the store (or another process) says the room is now, in memory as it is."""
        self.owner.adopt(room)

    def adopt_change(self, before: Room | None, after: Room) -> None:
        """A change of ours the store accepted, built on `before` (`VersionedOwner.adopt_change`): over a room that
        moved on meanwhile, what our change changed is taken field by field (a flag of who is connected where, a
        pointer heard from another process stay)."""
        self.owner.adopt_change(before, after)

    def drop(self, room: Room) -> None:
        """The room leaves memory (a lobby everyone left, a finished race nobody watches, closed elsewhere)."""
        self.owner.drop(room.room_id)

