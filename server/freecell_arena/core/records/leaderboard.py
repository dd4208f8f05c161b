"""Leaderboards as plain logic: which board a game counts on, the board's order, and rank with bounded work.

A board is one deal seen by one population: `(variant, deal seed or daily day, humans or bots)`. Only won
ranked games are on it, one entry per player (their best), ordered by player moves, then time, then the
server instant of the winning move (earliest first). Equal moves and time share a rank only if the finish
instant is equal too.

**Score.** Moves and time are packed into one integer, `moves << 36 | time_ms`, so the order is
`(score, finished_at)` and the store needs one index `(board, score, finished_at, player_id)` (the player id
only makes the order total, for cursors; it never splits a tie in rank).

**Rank without counting the entries above you.** `COUNT(*)` of better entries reads O(rank) index entries.
Instead the store keeps count rows per board at nine levels of buckets of the score: level *i* counts the
entries whose `score >> LEVEL_SHIFTS[i]` is the bucket. Every level is 6 bits coarser than the one below,
so under one parent bucket there are at most 64 children. The entries strictly below a score `s` are then
exactly: at each level, the sibling buckets below `s`'s bucket under the same parent (at most 63 rows,
one index range each), plus the entries in `s`'s own finest bucket (equal moves, time within the same
1.024 s) that are below it, counted on the entry index. So a rank reads at most 9 x 63 count rows plus a
handful of entries, whatever the board's size or shape. Writing an entry adds one to nine count rows.

This module owns that arithmetic; `freecell_arena.store.leaderboards` only turns it into SQL.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from freecell_arena.core.effects import Refusal
from freecell_arena.engine import Variant
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.rooms import RoomOptions

TIME_BITS = 36
"""Time in ms below 2^36 (795 days) orders exactly; longer times count as 2^36 - 1."""
MOVES_LIMIT = 1 << 27
"""Moves below 2^27 order exactly (the score stays a positive signed 64-bit integer)."""
LEVEL_SHIFTS = (10, 16, 22, 28, 34, 40, 46, 52, 58)
"""Bucket of level i = score >> LEVEL_SHIFTS[i]; 6 bits between levels, so at most 64 siblings."""
TOP_LEVEL = len(LEVEL_SHIFTS) - 1

HUMANS = "humans"
BOTS = "bots"

T = TypeVar("T")


# ---------------------------------------------------------------- boards


def population(bots: bool) -> str:
    return BOTS if bots else HUMANS


def deal_board(variant_id: str, seed: int, bots: bool) -> str:
    """The board of a deal played in rooms, e.g. `freecell/deal/42/humans`."""
    return f"{variant_id}/deal/{seed}/{population(bots)}"


def daily_board(variant_id: str, day: date, bots: bool) -> str:
    """The board of a day's daily challenge, e.g. `freecell/daily/2026-11-22/humans`."""
    return f"{variant_id}/daily/{day.isoformat()}/{population(bots)}"


def expected_board(variant_id: str, seed: int, daily_day: date | None, bots: bool) -> str:
    """The board a ranked game belongs on: its day's daily board, else its deal's board."""
    return daily_board(variant_id, daily_day, bots) if daily_day else deal_board(variant_id, seed, bots)


def is_standard(variant: Variant, options: RoomOptions) -> bool:
    """Ranked games must be comparable: autoplay on and the variant's own undo rule.

    Autoplay off roughly doubles a game's move count (every foundation move is typed), so results with and
    without it cannot share an order; undo allowed where the variant forbids it (or the reverse) changes what
    a move count means. Time limits, countdowns and the room's own `speed` order do not change a result.
    """
    return options.autoplay and options.undo_allowed in (None, variant.undo_by_default)


def resolve_ranked(variant: Variant, options: RoomOptions) -> RoomOptions:
    """`ranked` null = ranked exactly when the options are standard; `true` with other options is refused."""
    standard = is_standard(variant, options)
    if options.ranked is None:
        return options.model_copy(update={"ranked": standard})
    if options.ranked and not standard:
        raise Refusal(
            ErrorCode.unranked_options,
            f"ranked {variant.name} rooms play with autoplay on and undo "
            f"{'allowed' if variant.undo_by_default else 'off'} (the variant's rule), so every result on a "
            "deal's board is comparable; change those options or set ranked to false",
        )
    return options


# ---------------------------------------------------------------- the order


def score(player_moves: int, time_ms: int) -> int:
    """Moves then time as one integer: ordering by score is ordering by (moves, time)."""
    moves = min(max(player_moves, 0), MOVES_LIMIT - 1)
    time = min(max(time_ms, 0), (1 << TIME_BITS) - 1)
    return (moves << TIME_BITS) | time


def count_buckets(entry_score: int) -> list[tuple[int, int]]:
    """The `(level, bucket)` count rows one entry with this score adds one to."""
    return [(level, entry_score >> shift) for level, shift in enumerate(LEVEL_SHIFTS)]


@dataclass(frozen=True, slots=True)
class BucketRange:
    """Count rows `level`, buckets `low..high` (inclusive)."""

    level: int
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class RankPlan:
    """How to count the entries with a score below `score`: the sum of the count rows in `ranges`, plus the
    entries whose score is in `[exact_from, score)`."""

    score: int
    ranges: tuple[BucketRange, ...]
    exact_from: int


def level_ranges() -> list[tuple[int, int, int | None]]:
    """`(level, shift, parent_shift)` per level: the buckets of level below a score `s` under its parent are
    `(s >> parent_shift) << (parent_shift - shift)` .. `(s >> shift) - 1`; the top level has no parent (from 0).
    The store writes the same bounds in SQL (`freecell_arena.store.leaderboards`), so both follow this one table."""
    return [
        (level, shift, LEVEL_SHIFTS[level + 1] if level < TOP_LEVEL else None)
        for level, shift in enumerate(LEVEL_SHIFTS)
    ]


def rank_plan(entry_score: int) -> RankPlan:
    ranges = []
    for level, shift, parent in level_ranges():
        low = (entry_score >> parent) << (parent - shift) if parent is not None else 0
        high = (entry_score >> shift) - 1
        if low <= high:
            ranges.append(BucketRange(level, low, high))
    exact_from = (entry_score >> LEVEL_SHIFTS[0]) << LEVEL_SHIFTS[0]
    return RankPlan(entry_score, tuple(ranges), exact_from)


def count_deltas(old_score: int | None, new_score: int) -> dict[tuple[int, int], int]:
    """Changes to the count rows when an entry moves from `old_score` (None: a new entry) to `new_score`."""
    deltas: dict[tuple[int, int], int] = {}
    for key in count_buckets(new_score):
        deltas[key] = deltas.get(key, 0) + 1
    if old_score is not None:
        for key in count_buckets(old_score):
            deltas[key] = deltas.get(key, 0) - 1
    return {key: delta for key, delta in deltas.items() if delta}


# ---------------------------------------------------------------- numbering a window of rows


def number_rows(
    rows: Sequence[T], tie_key: Callable[[T], Any], first_position: int, first_rank: int
) -> list[tuple[int, int]]:
    """`(rank, position)` for consecutive rows of a board, given the first row's rank and position.

    A row shares the rank of the row before it when their tie keys (score and finish instant) are equal;
    otherwise its rank is its position (1 + the number of entries before it).
    """
    numbered: list[tuple[int, int]] = []
    previous: Any = object()
    for offset, row in enumerate(rows):
        position = first_position + offset
        key = tie_key(row)
        if offset == 0:
            rank = first_rank
        elif key == previous:
            rank = numbered[-1][0]
        else:
            rank = position
        numbered.append((rank, position))
        previous = key
    return numbered


# ---------------------------------------------------------------- opaque cursors


class CursorError(ValueError):
    """A cursor this server did not hand out (or for another kind of list)."""


def encode_cursor(kind: str, values: list[Any]) -> str:
    """An opaque token: where the next page starts. Clients pass it back unchanged."""
    text = json.dumps({"k": kind, "v": values}, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


CURSOR_INT_MIN, CURSOR_INT_MAX = -(2**63), 2**63 - 1


def decode_cursor(kind: str, token: str, types: tuple[type, ...]) -> list[Any]:
    try:
        padded = token + "=" * (-len(token) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (ValueError, UnicodeError, binascii.Error, RecursionError):
        raise CursorError("the cursor is not one this server handed out") from None
    if not isinstance(data, dict) or data.get("k") != kind:
        raise CursorError(f"the cursor is not one of a {kind} list")
    values = data.get("v")
    if not isinstance(values, list) or len(values) != len(types):
        raise CursorError("the cursor is damaged")
    for value, wanted in zip(values, types, strict=True):
        if not isinstance(value, wanted) or isinstance(value, bool):
            raise CursorError("the cursor is damaged")
        if isinstance(value, int) and not CURSOR_INT_MIN <= value <= CURSOR_INT_MAX:
            raise CursorError("the cursor is damaged")  # every number the server hands out fits a 64-bit column
    return values
