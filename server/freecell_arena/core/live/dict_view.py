"""A read-only mapping over a dict its subclass owns and changes: what `Rooms` and `Games` are to the rest of
core. Every lookup is the dict's own: `Mapping`'s mixins (`get`, `in`) are interpreted Python around
`__getitem__` and a `KeyError`, and compiled core reads rooms and games a few times a move."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class DictView(Mapping[K, V], Generic[K, V]):
    def __init__(self, entries: dict[K, V]) -> None:
        self._entries = entries

    @property
    def entries(self) -> Mapping[K, V]:
        """The dict itself, read-only by type, never replaced: the compiled shared state looks up in it."""
        return self._entries

    def __getitem__(self, key: K) -> V:
        return self._entries[key]

    @overload
    def get(self, key: K, /) -> V | None: ...
    @overload
    def get(self, key: K, /, default: V | T) -> V | T: ...

    def get(self, key: K, /, default: object = None) -> object:
        return self._entries.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
