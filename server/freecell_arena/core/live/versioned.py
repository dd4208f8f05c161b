"""The one claim/adopt every owner of shared state in core uses: values by key, at most one change in flight per key.

A kind of shared value (a room, a tournament, a quick race's filling room) has one owner in memory, a
`VersionedOwner`, and changes there only by adopting:

- a change of this process the store accepted (`adopt_change`): computed as a value over the one memory held
  (`before`), claimed while it is written (`claim`: a second change of the same key meanwhile is refused with
  `Busy`, and handled again once the first is stored or refused), adopted once stored, released either way;
- what the store says the value is now (`adopt_read`), which is adopted only when it is not older than what memory
  holds: the version decides, never a guess about when the read was taken. A kind whose versions order a read
  against a change in flight (a room, a tournament) takes the read meanwhile and merges the change over it once
  stored; one that cannot (a pointer, which has no version) takes no read while a change of it is in flight.

The version is the kind's (`Versions`): a room's number and tag, a tournament's counters and entries. The store's
compare-and-set on it decides between processes; memory holds only what the store accepted, so a refused change
leaves nothing to put back. Colyseus and lila-ws apply a room's changes the same way, one at a time in its owner.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from freecell_arena.core.live.dict_view import DictView

V = TypeVar("V")

Listener = Callable[[V | None, V | None], None]
"""Told (before, after) after every adoption (after None: the value left memory)."""


class Busy(Exception):
    """A change of values that have a change of this process in flight: nothing changed; handle the request again
    once they are stored or refused (net waits for that)."""

    def __init__(self, keys: tuple[str, ...]) -> None:
        super().__init__(f"a change in flight: {', '.join(keys)}")
        self.keys = keys


class InFlight:
    """Keys with a change of this process in flight: at most one change a key."""

    def __init__(self) -> None:
        self._keys: set[str] = set()

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def claim(self, keys: Collection[str]) -> None:
        """A change of these keys goes to the store: refused with `Busy` (nothing claimed) while one is in flight."""
        busy = [key for key in keys if key in self._keys]
        if busy:
            raise Busy(tuple(busy))
        self._keys.update(keys)

    def release(self, keys: Collection[str]) -> None:
        self._keys.difference_update(keys)


class Claimable(Protocol):
    """An owner whose keys a change holds while in flight (`VersionedOwner`, and the seats of `live.seats`)."""

    def claim(self, keys: Collection[str]) -> None: ...

    def release(self, keys: Collection[str], *, refused: bool) -> None: ...


Claim = tuple[Claimable, str]
"""A key a change holds in flight, with its owner."""


class Versions(Protocol[V]):
    """How one kind of value is keyed and ordered, and how a change of it lands on a value that moved on."""

    def key(self, value: V) -> str: ...

    def holds(self, current: V, other: V) -> bool:
        """`current` is at `other`'s version or a later one: memory holding it needs nothing of `other`."""
        ...

    def merged(self, before: V, after: V, current: V) -> V:
        """`current` (memory moved on since `before`) with what the stored change from `before` to `after` changed."""
        ...

    def read_over(self, current: V, read: V, in_flight: bool) -> V | None:
        """The read as memory takes it over `current` (what the version does not cover and memory knows better,
        kept), or None: not taken, being older than `current`, or unordered against the change in flight."""
        ...


class VersionedOwner(DictView[str, V], Generic[V]):
    """The values of one kind in memory by key (a read-only mapping), and which have a change in flight."""

    def __init__(self, versions: Versions[V]) -> None:
        self._values: dict[str, V] = {}
        super().__init__(self._values)
        self.versions = versions
        self._in_flight = InFlight()
        self.listener: Listener[V] = lambda before, after: None
        self.released: Callable[[V], None] = lambda value: None
        """Told of each value whose change was refused: memory still holds what it held."""

    # ------------------------------------------------------------------ reading

    def in_flight(self, key: str) -> bool:
        return key in self._in_flight

    # ------------------------------------------------------------------ changes in flight

    def claim(self, keys: Collection[str]) -> None:
        """A change of these keys goes to the store: refused with `Busy` (nothing claimed) while one is in flight."""
        self._in_flight.claim(keys)

    def release(self, keys: Collection[str], *, refused: bool) -> None:
        self._in_flight.release(keys)
        if refused:
            for key in keys:
                value = self._values.get(key)
                if value is not None:
                    self.released(value)

    # ------------------------------------------------------------------ adopting

    def adopt(self, value: V) -> None:
        """What the store (or another process) says the value is now, in memory as it is."""
        key = self.versions.key(value)
        before = self._values.get(key)
        if before is value:
            return
        self._values[key] = value
        self.listener(before, value)

    def adopt_change(self, before: V | None, after: V) -> None:
        """A change of ours the store accepted, built on `before`. Memory still holds `before`: it takes `after`.
        Memory moved on meanwhile: if it holds our version or a later one, it stays; else it takes what our change
        changed, over what it holds."""
        current = self._values.get(self.versions.key(after))
        if current is None or current is before or before is None:
            self.adopt(after)
        elif not self.versions.holds(current, after):
            self.adopt(self.versions.merged(before, after, current))

    def adopt_read(self, read: V) -> bool:
        """What the store said when read, as the kind takes it over what memory holds (`Versions.read_over`): never
        when memory holds a later version. Whether memory took it."""
        key = self.versions.key(read)
        current = self._values.get(key)
        taken = read if current is None else self.versions.read_over(current, read, key in self._in_flight)
        if taken is None:
            return False
        self.adopt(taken)
        return True

    def drop(self, key: str) -> None:
        """The value leaves memory."""
        current = self._values.pop(key, None)
        if current is not None:
            self.listener(current, None)


@dataclass(frozen=True, slots=True)
class ValueChange(Generic[V]):
    """One value's next version in a request's change: adopted by its owner once the store has the change."""

    owner: VersionedOwner[V]
    before: V | None
    """The value as the change found it (None: one the change makes)."""
    after: V
    drop: bool = False
    """The value leaves memory once the change is adopted (a lobby everyone left, closed)."""

    @property
    def key(self) -> str:
        return self.owner.versions.key(self.after)

    def adopt(self) -> None:
        if self.drop:
            self.owner.drop(self.key)
        else:
            self.owner.adopt_change(self.before, self.after)


def claim_all(claims: Collection[Claim]) -> None:
    """Claim every key with its owner, or none: `Busy` if one has a change in flight."""
    by_owner: dict[int, tuple[Claimable, list[str]]] = {}
    for owner, key in claims:
        keys = by_owner.setdefault(id(owner), (owner, []))[1]
        if key not in keys:
            keys.append(key)
    claimed: list[tuple[Claimable, list[str]]] = []
    try:
        for owner, keys in by_owner.values():
            owner.claim(keys)
            claimed.append((owner, keys))
    except Busy:
        for owner, keys in claimed:
            owner.release(keys, refused=False)
        raise


def release_all(claims: Collection[Claim], *, refused: bool) -> None:
    done: set[tuple[int, str]] = set()
    for owner, key in claims:
        if (id(owner), key) not in done:
            done.add((id(owner), key))
            owner.release([key], refused=refused)
