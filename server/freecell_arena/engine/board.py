"""The board: one position of one variant, with python-chess's shape (legal_moves, is_legal, push, pop).

`push` trusts its caller (the solver and replay of already-validated logs use it); `play` validates first and
raises an `IllegalMoveError` that says which rule refused the move. `check` is the validation on its own and
returns the concrete move (cell and foundation indices filled in), which is what gets pushed and logged.

State is plain lists of small ints so that validating and applying a move is a handful of list operations:
the server validates every move of every player on this path.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, NamedTuple, cast

from freecell_arena.engine import movegen
from freecell_arena.engine.atomic import single_card_moves
from freecell_arena.engine.cards import card_text, make_card, rank_of, suit_of
from freecell_arena.engine.errors import IllegalMoveError
from freecell_arena.engine.moves import CELL, FOUNDATION, TABLEAU, AnyMove, Move
from freecell_arena.engine.shuffle import require_whole_number
from freecell_arena.engine.variants import ALTERNATE_COLORS, Variant

Position = Literal["won", "stuck"]
"""What a position says of its game: every card is home, or no legal move is left."""
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_WORDS = ("", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
              "King")


class Piles(NamedTuple):
    """A board's piles without their history (what `Board.from_position` and `copy` hand to a new board)."""

    tableau: list[list[int]]
    hidden: list[int]
    cells: list[int]
    foundations: list[int]


class Board:
    """A position: tableau columns (deepest card first), face-down counts, cells, foundation slots, and history."""

    __slots__ = ("_revealed", "cells", "foundations", "hidden", "move_stack", "seed", "tableau", "variant")

    def __init__(self, variant: Variant, seed: int, piles: Piles | None = None) -> None:
        """Deal `seed`, or lay out `piles` (their lists are the board's from now on) with an empty history."""
        self.variant = variant
        self.seed = seed
        if piles is None:
            tableau: list[list[int]] = [[] for _ in range(variant.columns)]
            for card, column in zip(variant.deal_order(seed), variant.deal_pattern, strict=True):
                tableau[column].append(card)
            hidden = [max(len(column) - 1, 0) if variant.face_down else 0 for column in tableau]
            piles = Piles(tableau, hidden, [0] * variant.cells, [0] * len(variant.foundation_suits))
        self.tableau: list[list[int]] = piles.tableau
        self.hidden: list[int] = piles.hidden
        self.cells: list[int] = piles.cells
        self.foundations: list[int] = piles.foundations
        self.move_stack: list[Move] = []
        self._revealed: list[bool] = []

    @classmethod
    def deal(cls, variant: Variant, seed: object) -> Board:
        """The seed's deal; a seed that is not an int is a BadSeedError (from the wire, a file or a bot)."""
        return cls(variant, require_whole_number(seed))

    @classmethod
    def from_position(
        cls, variant: Variant, seed: int, tableau: list[list[int]], hidden: list[int], cells: list[int],
        foundations: list[int],
    ) -> Board:  # fmt: skip
        """A position given piece by piece, with an empty history (`engine.view.board_from_view`): the caller
        checks it describes a position of the variant."""
        return cls(variant, seed, Piles(tableau, hidden, cells, foundations))

    def copy(self, *, stack: bool = True) -> Board:
        piles = Piles([list(column) for column in self.tableau], list(self.hidden), list(self.cells),
                            list(self.foundations))  # fmt: skip
        board = Board(self.variant, self.seed, piles)
        if stack:
            board.move_stack = list(self.move_stack)
            board._revealed = list(self._revealed)
        return board

    # ------------------------------------------------------------------ validation

    def check(self, move: AnyMove) -> Move:
        """Validate `move` against the rules and return it with concrete target indices; raise if refused.

        Its fields are read untyped: a caller's tuple may hold anything (a str index, a None count), which the
        checks below name (`AnyMove`)."""
        from_zone, from_index, to_zone, to_index, count = cast("tuple[Any, Any, Any, Any, Any]", move)
        variant = self.variant
        if type(count) is not int or count < 1:
            raise IllegalMoveError("bad_count", f"a move carries at least one card, not {count!r}")
        if from_zone == TABLEAU:
            if type(from_index) is not int or not 0 <= from_index < variant.columns:
                raise _no_such("column", from_index, variant.columns)
            column = self.tableau[from_index]
            size = len(column)
            if size == 0:
                raise IllegalMoveError("empty_source", f"column {from_index + 1} is empty")
            if count > size:
                raise IllegalMoveError(
                    "not_enough_cards", f"column {from_index + 1} holds {size} cards, not {count}"
                )
            if size - count < self.hidden[from_index]:
                raise IllegalMoveError(
                    "face_down", f"the card {count} from the top of column {from_index + 1} is face down"
                )
            card = column[-count]
            if count > 1:
                builds_on = variant.builds_on
                for depth in range(size - count, size - 1):
                    if not builds_on[column[depth + 1]][column[depth]]:
                        raise IllegalMoveError(
                            "not_a_run",
                            f"the top {count} cards of column {from_index + 1} are not a run: "
                            f"{card_text(column[depth + 1])} does not build on {card_text(column[depth])}",
                        )
        elif from_zone == CELL:
            if type(from_index) is not int or not 0 <= from_index < variant.cells:
                raise _no_such("cell", from_index, variant.cells)
            card = self.cells[from_index]
            if not card:
                raise IllegalMoveError("empty_source", f"cell {from_index + 1} is empty")
            if count != 1:
                raise IllegalMoveError("bad_count", f"a cell holds one card; cannot move {count} from it")
        elif from_zone == FOUNDATION:
            raise IllegalMoveError("foundation_source", "a card on a foundation never leaves it")
        else:
            raise IllegalMoveError("bad_zone", f"unknown source zone {from_zone!r}")

        if to_zone == TABLEAU:
            if type(to_index) is not int or not 0 <= to_index < variant.columns:
                raise _no_such("column", to_index, variant.columns)
            if from_zone == TABLEAU and to_index == from_index:
                raise IllegalMoveError("same_place", f"column {to_index + 1} is both source and target")
            target = self.tableau[to_index]
            empty_columns = self.tableau.count([])
            if target:
                onto = target[-1]
                if not variant.builds_on[card][onto]:
                    raise IllegalMoveError("target_refuses", _refusal(variant, card, onto, to_index))
            else:
                if not variant.may_fill_empty[card]:
                    raise IllegalMoveError(
                        "target_refuses",
                        f"column {to_index + 1} is empty and only a King (or a run headed by a King) may fill "
                        f"it, not {card_text(card)}",
                    )
                empty_columns -= 1
            if count > 1:
                empty_cells = self.cells.count(0)
                limit = variant.run_limit.compute(empty_cells, empty_columns)
                if count > limit:
                    raise IllegalMoveError(
                        "run_too_long",
                        f"a run of {count} cards is longer than the limit of {limit} here: "
                        f"{variant.run_limit.explain(empty_cells, empty_columns)}",
                    )
            return move if type(move) is Move else Move(from_zone, from_index, to_zone, to_index, count)
        if count != 1:
            raise IllegalMoveError("bad_count", f"only one card at a time goes to a {_zone_word(to_zone)}")
        if to_zone == CELL:
            if from_zone == CELL:
                raise IllegalMoveError("pointless_move", "moving a card from one cell to another changes nothing")
            if to_index is None:
                if 0 not in self.cells:
                    raise IllegalMoveError("target_refuses", "every cell is occupied")
                return Move(from_zone, from_index, CELL, self.cells.index(0), 1)
            if type(to_index) is not int or not 0 <= to_index < variant.cells:
                raise _no_such("cell", to_index, variant.cells)
            if self.cells[to_index]:
                raise IllegalMoveError(
                    "target_refuses", f"cell {to_index + 1} already holds {card_text(self.cells[to_index])}"
                )
            return move if type(move) is Move else Move(from_zone, from_index, to_zone, to_index, count)
        if to_zone == FOUNDATION:
            slot = self._foundation_accepting(card, to_index)
            if slot == to_index and type(move) is Move:
                return move
            return Move(from_zone, from_index, FOUNDATION, slot, 1)
        raise IllegalMoveError("bad_zone", f"unknown target zone {to_zone!r}")

    def _foundation_accepting(self, card: int, slot: object) -> int:
        """The foundation slot `card` goes to: `slot` if it takes it, else the first that does (`slot` None).
        `slot` comes from a caller's tuple as it is (`AnyMove`), so its type is checked here."""
        variant = self.variant
        capacity = 13 * variant.foundation_laps
        rank = card >> 2
        if slot is not None:
            if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < len(self.foundations):
                raise _no_such("foundation", slot, len(self.foundations))
            on = self.foundations[slot]
            if variant.foundation_suits[slot] == card & 3 and on < capacity and on % 13 + 1 == rank:
                return slot
            raise IllegalMoveError(
                "target_refuses", f"{card_text(card)} cannot go on foundation {slot + 1} ({self._describe_slot(slot)})"
            )
        for candidate in variant.foundation_slots[card & 3]:
            on = self.foundations[candidate]
            if on < capacity and on % 13 + 1 == rank:
                return candidate
        tops = ", ".join(self._describe_slot(s) for s in variant.foundation_slots[card & 3])
        raise IllegalMoveError(
            "target_refuses", f"{card_text(card)} cannot go to a foundation yet ({tops})"
        )

    def _describe_slot(self, slot: int) -> str:
        on = self.foundations[slot]
        suit = SUIT_NAMES[self.variant.foundation_suits[slot]]
        if on == 0:
            return f"the {suit} foundation is empty"
        if on == 13 * self.variant.foundation_laps:
            return f"the {suit} foundation is complete"
        return f"the {suit} foundation is at {RANK_WORDS[(on - 1) % 13 + 1]}"

    def resolve(self, move: AnyMove) -> Move:
        return self.check(move)

    def is_legal(self, move: AnyMove) -> bool:
        try:
            self.check(move)
        except (IllegalMoveError, TypeError, ValueError):
            return False
        return True

    def single_card_cost(self, move: Move) -> int:
        """How many single-card moves `move` (legal here, not yet pushed) stands for: RULINGS' second count."""
        if move.count == 1:
            return 1
        assert move.to_index is not None, "runs go to a column, which a move always names"
        into_empty = not self.tableau[move.to_index]
        other_empty = self.tableau.count([]) - into_empty
        return single_card_moves(move.count, self.cells.count(0), other_empty, into_empty)

    # ------------------------------------------------------------------ applying

    def play(self, move: AnyMove) -> Move:
        """Validate and apply; return the concrete move that was pushed."""
        concrete = self.check(move)
        self.push(concrete)
        return concrete

    def push(self, move: Move) -> None:
        """Apply a move that is known to be legal (a validated or replayed one). Cheap, and checks nothing."""
        from_zone, from_index, to_zone, to_index, count = move
        revealed = False
        if from_zone == TABLEAU:
            column = self.tableau[from_index]
            if count == 1:
                card = column.pop()
                run = None
            else:
                run = column[-count:]
                del column[-count:]
                card = run[0]
            hidden = self.hidden[from_index]
            if hidden and len(column) == hidden:
                self.hidden[from_index] = hidden - 1
                revealed = True
        else:
            card = self.cells[from_index]
            self.cells[from_index] = 0
            run = None
        if to_zone == TABLEAU:
            assert to_index is not None, "a move to the tableau always names its column"
            if run is None:
                self.tableau[to_index].append(card)
            else:
                self.tableau[to_index].extend(run)
        elif to_zone == CELL:
            if to_index is None:
                to_index = self.cells.index(0)
                move = Move(from_zone, from_index, to_zone, to_index, count)  # not _replace: interpreted
            self.cells[to_index] = card
        else:
            if to_index is None:
                to_index = self._foundation_accepting(card, None)
                move = Move(from_zone, from_index, to_zone, to_index, count)
            self.foundations[to_index] += 1
        self.move_stack.append(move)
        self._revealed.append(revealed)

    def pop(self) -> Move:
        """Take back the last move (a face-down card it turned up goes face down again)."""
        move = self.move_stack.pop()
        revealed = self._revealed.pop()
        from_zone, from_index, to_zone, to_index, count = move
        assert to_index is not None, "push put every move on the stack with its target resolved"
        if to_zone == TABLEAU:
            target = self.tableau[to_index]
            run = target[-count:]
            del target[-count:]
        elif to_zone == CELL:
            run = [self.cells[to_index]]
            self.cells[to_index] = 0
        else:
            on = self.foundations[to_index]
            run = [make_card((on - 1) % 13 + 1, self.variant.foundation_suits[to_index])]
            self.foundations[to_index] = on - 1
        if from_zone == TABLEAU:
            if revealed:
                self.hidden[from_index] += 1
            self.tableau[from_index].extend(run)
        else:
            self.cells[from_index] = run[0]
        return move

    def peek(self) -> Move:
        return self.move_stack[-1]

    def last_move_revealed(self) -> bool:
        """Whether the last pushed move turned a face-down card up (such a move cannot be undone in play)."""
        return bool(self._revealed) and self._revealed[-1]

    def revealed_since(self, depth: int) -> bool:
        """Whether any move pushed after the first `depth` moves turned a card up."""
        return any(self._revealed[depth:])

    # ------------------------------------------------------------------ legal moves

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        """Every legal move, one representative for interchangeable targets (`movegen.legal_moves`)."""
        return movegen.legal_moves(self)

    # ------------------------------------------------------------------ outcome and views

    @property
    def cards_on_foundations(self) -> int:
        return sum(self.foundations)

    def is_won(self) -> bool:
        return sum(self.foundations) == self.variant.total_cards

    def outcome(self) -> Position | None:
        """`won`, `stuck` (no legal move left), or None while the game goes on."""
        if self.is_won():
            return "won"
        if not self.has_legal_move():
            return "stuck"
        return None

    def has_legal_move(self) -> bool:
        """Whether any legal move is left (`bool(legal_moves)`), asked after every move (`movegen.any_legal_move`)."""
        return movegen.any_legal_move(self)

    def has_foundation_move(self) -> bool:
        """Whether a foundation takes a cell card or a column's top card now (autoplay asks before it looks)."""
        return movegen.any_foundation_move(self)

    def foundation_top(self, slot: int) -> int:
        on = self.foundations[slot]
        return make_card((on - 1) % 13 + 1, self.variant.foundation_suits[slot]) if on else 0

    def copies_on_foundations(self, card: int) -> int:
        """How many copies of `card` already sit on foundations (a lap of Three Deck holds one of each)."""
        rank = card >> 2
        copies = 0
        for slot in self.variant.foundation_slots[card & 3]:
            on = self.foundations[slot]
            copies += on // 13 + (1 if on % 13 >= rank else 0)
        return copies

    def key(self) -> tuple[Any, ...]:
        """A hashable snapshot of the position (not of the history)."""
        return (
            tuple(tuple(column) for column in self.tableau),
            tuple(self.hidden),
            tuple(self.cells),
            tuple(self.foundations),
        )

    def __repr__(self) -> str:
        return f"<Board {self.variant.id} seed={self.seed} moves={len(self.move_stack)}>"


class LegalMoves:
    """A lazy view of the legal moves, like python-chess's: iterate, `in`, `bool`, `count()`.

    No `__len__` on purpose: `list(board.legal_moves)` asks `len()` for a size hint first, which would generate
    every move twice on the server's and the bots' most common call.
    """

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        return self.board.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        return isinstance(move, tuple) and self.board.is_legal(move)  # any tuple may be asked about (AnyMove)

    def __bool__(self) -> bool:
        return self.board.has_legal_move()

    def count(self) -> int:
        return sum(1 for _ in self.board.generate_legal_moves())

    def __repr__(self) -> str:
        return f"<LegalMoves {list(self)}>"


def _no_such(kind: str, index: object, count: int) -> IllegalMoveError:
    shown = index + 1 if type(index) is int else index
    return IllegalMoveError(
        f"no_such_{kind}", f"there is no {kind} {shown!r}; this variant has {count} ({kind} 1-{count})"
    )


def _zone_word(zone: object) -> str:
    words: dict[object, str] = {TABLEAU: "column", CELL: "cell", FOUNDATION: "foundation"}
    return words.get(zone, "place")


def _refusal(variant: Variant, card: int, onto: int, column: int) -> str:
    if rank_of(card) + 1 != rank_of(onto):
        if rank_of(onto) == 1:
            why = "nothing builds on an Ace"
        else:
            needed = RANK_WORDS[rank_of(onto) - 1]
            why = f"it needs {'an' if needed in ('Ace', 'Eight') else 'a'} {needed}"
    elif variant.build == ALTERNATE_COLORS:
        why = "the colours must alternate"
    else:
        why = f"a card may not go on its own suit ({SUIT_NAMES[suit_of(card)]})"
    return f"{card_text(card)} cannot go on {card_text(onto)} in column {column + 1}: {why}"
