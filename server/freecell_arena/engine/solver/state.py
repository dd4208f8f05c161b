"""The solver's own compact position: bytes and tuples of ints, cheap to hash, copy and compare.

The engine's `Board` is built for validated play (lists, history, error messages); the search touches hundreds of
thousands of positions, so it works on `State` instead: columns as a tuple of `bytes`, one byte per card from the
bottom up (real column order, so a move's indices are the engine's indices), the cards in the cells as sorted
bytes (which cell holds a card never matters), and the height of every foundation slot. `canonical_key` sorts
the columns too, so positions that differ only by the order of columns or cells are one entry of the
transposition table. Columns and cells are bytes rather than tuples of ints (the same values in the same order,
indexed, sliced and sorted alike) because a bytes object keeps its hash once computed, compares with one memcmp and is
not tracked by the garbage collector: the transposition table and the estimate's memo hash and compare columns
by the million.

Face-down cards the player may not know are the card value `UNKNOWN` (0): the engine's tables say it builds on
nothing, nothing builds on it, and no foundation takes it, so it is a blocker the search can never use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Final, NamedTuple, final

from freecell_arena.engine import CELL, FOUNDATION, TABLEAU, Board, Variant

UNKNOWN: Final = 0
"""A face-down card whose identity the searcher must not use."""

Columns = tuple[bytes, ...]


@final
class State:
    """A position. A plain class rather than a NamedTuple: compiled, it is a C struct whose fields are read
    directly, where a NamedTuple is built by a Python-level `__new__` and read by name through its type."""

    __slots__ = ("cells", "columns", "foundations")

    def __init__(self, columns: Columns, cells: bytes, foundations: tuple[int, ...]) -> None:
        self.columns = columns
        self.cells = cells
        self.foundations = foundations


PlainMove = tuple[int, int, int, int, int]
"""A `SolverMove`'s fields as a plain tuple (from_zone, source, to_zone, target, count), equal to it: what the
search makes and keeps for every node. Compiled, a tuple of ints is a C struct, and a NamedTuple a Python call;
paths are handed out as `SolverMove`s."""


class SolverMove(NamedTuple):
    """A move on a `State`: `source` is a column index, or the card itself when it comes from a cell."""

    from_zone: int
    source: int
    to_zone: int
    target: int
    count: int  # type: ignore[assignment]  # a field named like tuple.count, as in engine.moves.Move


@dataclass(frozen=True, slots=True)
class Rules:
    """The variant's rules flattened into tuples the search indexes directly."""

    variant: Variant
    builds_on: tuple[tuple[bool, ...], ...]
    may_fill_empty: tuple[bool, ...]
    builders: tuple[tuple[int, ...], ...]
    parents: tuple[tuple[int, ...], ...]
    """`parents[card]`: the card values `card` builds on in the tableau."""
    slots_of_suit: tuple[tuple[int, ...], ...]
    capacity: int
    copies: int
    total_cards: int
    cells: int
    run_limit_table: tuple[tuple[int, ...], ...]
    """`run_limit_table[empty_cells][other_empty_columns]` = the longest run one move may carry."""
    tables: dict[tuple[int, ...], tuple[dict[int, int], dict[int, int]]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    """Memo of `foundation_tables`: a search meets few distinct foundation heights, and meets each very often."""


@cache
def rules_for(variant: Variant) -> Rules:
    cells = variant.cells
    columns = variant.columns
    limits = tuple(
        tuple(variant.max_run(free, other) for other in range(columns + 1)) for free in range(cells + 1)
    )
    return Rules(
        variant=variant,
        builds_on=variant.builds_on,
        may_fill_empty=variant.may_fill_empty,
        builders=variant.builders,
        parents=tuple(tuple(onto for onto in range(len(row)) if row[onto]) for row in variant.builds_on),
        slots_of_suit=variant.foundation_slots,
        capacity=13 * variant.foundation_laps,
        copies=variant.copies,
        total_cards=variant.total_cards,
        cells=cells,
        run_limit_table=limits,
    )


def state_from_board(board: Board, *, visible_only: bool) -> State:
    """The board as a `State`; with `visible_only`, face-down cards become `UNKNOWN` (nothing of them is read)."""
    columns = []
    for column, hidden in zip(board.tableau, board.hidden, strict=True):
        if visible_only and hidden:
            columns.append(bytes((UNKNOWN,) * hidden + tuple(column[hidden:])))
        else:
            columns.append(bytes(column))
    return State(tuple(columns), bytes(sorted(card for card in board.cells if card)), tuple(board.foundations))


def canonical_key(state: State) -> bytes:
    """The columns sorted, then the cells, in one bytes object: a position and its column permutations are one
    position. (Foundations follow from the cards left, and the cells are already sorted.) No card is 255 and a
    variant's columns are as many in every position, so it is one-to-one; one bytes object is hashed in one pass
    and compared with one memcmp."""
    parts = sorted(state.columns)
    parts.append(state.cells)
    return b"\xff".join(parts)


def foundation_slot(rules: Rules, foundations: tuple[int, ...], card: int) -> int:
    """The first foundation slot that accepts `card`, or -1."""
    rank = card >> 2
    capacity = rules.capacity
    for slot in rules.slots_of_suit[card & 3]:
        on = foundations[slot]
        if on < capacity and on % 13 + 1 == rank:
            return slot
    return -1


TABLES_LIMIT: Final = 100_000
COUNT_BITS: Final = 16
"""A run is never longer than its column, and no column holds 65,536 cards: `generate_moves` packs a target and
a count in one int."""
COUNT_MASK: Final = (1 << COUNT_BITS) - 1
ONE_CARD: Final = tuple(bytes((card,)) for card in range(256))
"""`ONE_CARD[card]`: the card as a one-byte column or cells, made once."""


def foundation_tables(rules: Rules, foundations: tuple[int, ...]) -> tuple[dict[int, int], dict[int, int]]:
    """({card: the slot `foundation_slot` picks} for every card the foundations take now, the same for the cards
    among them that safe autoplay sends up). Memoised per foundation heights; pure functions of them."""
    tables = rules.tables.get(foundations)
    if tables is None:
        playable: dict[int, int] = {}
        capacity = rules.capacity
        for suit, slots in enumerate(rules.slots_of_suit):
            for slot in slots:
                on = foundations[slot]
                if on < capacity:
                    playable.setdefault((on % 13 + 1) << 2 | suit, slot)
        safe = {card: slot for card, slot in playable.items() if is_safe(rules, foundations, card)}
        if len(rules.tables) >= TABLES_LIMIT:
            rules.tables.clear()
        tables = rules.tables[foundations] = (playable, safe)
    return tables


def copies_on_foundations(rules: Rules, foundations: tuple[int, ...], card: int) -> int:
    rank = card >> 2
    copies = 0
    for slot in rules.slots_of_suit[card & 3]:
        on = foundations[slot]
        copies += on // 13 + (1 if on % 13 >= rank else 0)
    return copies


def is_safe(rules: Rules, foundations: tuple[int, ...], card: int) -> bool:
    """The engine's safe-autoplay rule: every card that could build on this one is already on a foundation."""
    if card >> 2 <= 2:
        return True
    copies = rules.copies
    return all(copies_on_foundations(rules, foundations, builder) == copies for builder in rules.builders[card])


def safe_autoplay(rules: Rules, state: State) -> State:
    """Send every safe card up, as the engine's `safe_autoplay` does (the result does not depend on the order)."""
    columns, cells, foundations = state.columns, state.cells, state.foundations
    safe = foundation_tables(rules, foundations)[1]
    changed = bool(safe)
    while changed:
        changed = False
        for card in cells:
            slot = safe.get(card)
            if slot is not None:
                foundations = _raise(foundations, slot)
                cells = _without(cells, card)
                changed = True
                break
        if not changed:
            for index, column in enumerate(columns):
                if column:
                    slot = safe.get(column[-1])  # UNKNOWN (0) is never a key
                    if slot is not None:
                        foundations = _raise(foundations, slot)
                        columns = (*columns[:index], column[:-1], *columns[index + 1 :])
                        changed = True
                        break
        if changed:
            safe = foundation_tables(rules, foundations)[1]
    if foundations is state.foundations:
        return state
    return State(columns, cells, foundations)


def _raise(foundations: tuple[int, ...], slot: int) -> tuple[int, ...]:
    return (*foundations[:slot], foundations[slot] + 1, *foundations[slot + 1:])


def _without(cells: bytes, card: int) -> bytes:
    index = cells.index(card)
    return cells[:index] + cells[index + 1 :]


def _with(cells: bytes, card: int) -> bytes:
    index = 0
    for held in cells:  # still sorted: before the first card not below it
        if held >= card:
            break
        index += 1
    return cells[:index] + ONE_CARD[card] + cells[index:]


def apply_move(rules: Rules, state: State, move: PlainMove) -> State:
    """The position after `move` (which the generator made, so it is legal), before autoplay."""
    columns, cells, foundations = state.columns, state.cells, state.foundations
    from_zone, source, to_zone, target, count = move
    if from_zone == TABLEAU:
        column = columns[source]
        moved = column[-count:]
        new_columns = list(columns)
        new_columns[source] = column[:-count]
    else:
        moved = ONE_CARD[source]
        new_columns = list(columns)
        cells = _without(cells, source)
    if to_zone == TABLEAU:
        new_columns[target] = columns[target] + moved
    elif to_zone == CELL:
        cells = _with(cells, moved[0])
    else:
        foundations = _raise(foundations, target)
    return State(tuple(new_columns), cells, foundations)


def generate_moves(rules: Rules, state: State, *, atomic: bool, keep_runs: bool = False) -> list[PlainMove]:
    """Every legal move up to symmetry: one empty column stands for all, cells are a set, and moving a whole
    column into an empty one (the same position) is left out. Sound pruning only, so an exhausted search is a
    proof.

    `keep_runs` (incomplete: only for the eager search) also leaves out the moves that lift cards off a card
    they build on (into a cell, onto another card or into an empty column), unless the card uncovered goes to a
    foundation: with several copies of each card such a move mostly swaps one parent for an equal one, and
    those swaps are most of what a search stuck with every cell full tries."""
    columns, cells, foundations = state.columns, state.cells, state.foundations
    builds_on = rules.builds_on
    may_fill = rules.may_fill_empty
    moves: list[PlainMove] = []
    playable = foundation_tables(rules, foundations)[0]

    previous = -1
    for card in cells:
        if card == previous:
            continue
        slot = playable.get(card)
        if slot is not None:
            moves.append((CELL, card, FOUNDATION, slot, 1))
        previous = card
    # one pass over the columns: their foundation moves, the empty ones, and the columns each top card heads
    # (a target for the cards that build on it), in column order
    empty_columns = 0
    first_empty = -1
    heads: dict[int, list[int]] = {}
    for index, column in enumerate(columns):
        if column:
            top = column[-1]
            slot = playable.get(top)  # UNKNOWN (0) is never a key
            if slot is not None:
                moves.append((TABLEAU, index, FOUNDATION, slot, 1))
            headed = heads.get(top)
            if headed is None:
                heads[top] = [index]
            else:
                headed.append(index)
        else:
            if first_empty < 0:
                first_empty = index
            empty_columns += 1
    free_cells = rules.cells - len(cells)
    if atomic:
        limit_onto_card = limit_into_empty = 1
    else:
        limits = rules.run_limit_table[free_cells]
        limit_onto_card = limits[empty_columns]
        limit_into_empty = limits[empty_columns - 1] if empty_columns else 0
    parents = rules.parents

    # (target, count) in the order of the targets, as `target << COUNT_BITS | count` (sorted as the pairs would
    # be, without a tuple per pair): the card at depth `count` onto a column headed by a card it builds on (one
    # depth per target, since the ranks fix it), and runs into the first empty column
    found: list[int] = []
    for source, column in enumerate(columns):
        size = len(column)
        if not size or column[-1] == UNKNOWN:
            continue
        run = 1
        while run < size and builds_on[column[size - run]][column[size - run - 1]]:
            run += 1
        found.clear()
        for count in range(1, min(run, limit_onto_card) + 1):
            if keep_runs and count < run and column[-count - 1] not in playable:
                continue  # lifted off a card it builds on, and that card stays where it is
            for parent in parents[column[-count]]:
                targets = heads.get(parent)
                if targets is not None:
                    for target in targets:
                        if target != source:
                            found.append(target << COUNT_BITS | count)
        if first_empty >= 0:
            for count in range(1, min(run, limit_into_empty) + 1):
                if keep_runs and count < run and column[-count - 1] not in playable:
                    continue
                if count != size and may_fill[column[-count]]:  # the whole column: the same position
                    found.append(first_empty << COUNT_BITS | count)
        if len(found) > 1:
            found.sort()
        for code in found:
            moves.append((TABLEAU, source, TABLEAU, code >> COUNT_BITS, code & COUNT_MASK))

    previous = -1
    for card in cells:
        if card == previous:
            continue
        previous = card
        targets = [target for parent in parents[card] for target in heads.get(parent, ())]
        if first_empty >= 0 and may_fill[card]:
            targets.append(first_empty)
        if len(targets) > 1:
            targets.sort()
        for target in targets:
            moves.append((CELL, card, TABLEAU, target, 1))

    if free_cells:
        for index, column in enumerate(columns):
            if column and column[-1] != UNKNOWN:
                if keep_runs and len(column) > 1 and builds_on[column[-1]][column[-2]] and column[-2] not in playable:
                    continue
                moves.append((TABLEAU, index, CELL, 0, 1))
    return moves


def is_won(rules: Rules, state: State) -> bool:
    return sum(state.foundations) == rules.total_cards


def reveals_unknown(state: State) -> bool:
    """Whether a face-down card has become a column's top card (the player would now see it)."""
    return any(column and column[-1] == UNKNOWN for column in state.columns)
