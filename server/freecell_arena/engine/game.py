"""A game: variant, seed, options and the list of player actions. Everything else is rebuilt by replay.

The board alone knows moves; the game knows turns. A turn is one player action (a move, or an undo) plus the
autoplay moves the engine made after it. Counts follow RULINGS: every accepted action is one move (a multi-card
move is one, an undo is one); autoplay moves are not counted; the single-card count adds what each multi-card
move stands for. An undo takes back the last player move together with the autoplay that followed it, and is
refused when that turn turned a face-down card up. A game with no legal move left is over (`stuck`) only when no
undo can rescue it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from freecell_arena.engine.autoplay import safe_autoplay
from freecell_arena.engine.board import Board, Position
from freecell_arena.engine.errors import IllegalMoveError, NotationError
from freecell_arena.engine.moves import Move
from freecell_arena.engine.notation import UNDO, format_move, parse_move
from freecell_arena.engine.variants import Variant


@dataclass(frozen=True, slots=True)
class Turn:
    """What one accepted action did: the concrete move (None for an undo), autoplay, what came back."""

    action: str
    move: Move | None
    autoplay: list[Move] = field(default_factory=list)
    undone: list[Move] = field(default_factory=list)
    revealed: bool = False

    def __init__(
        self,
        action: str,
        move: Move | None,
        autoplay: list[Move] | None = None,
        undone: list[Move] | None = None,
        revealed: bool = False,
    ) -> None:
        """Written out rather than left to `dataclass`: mypyc compiles only the methods a class spells, so the
        generated `__init__` stayed interpreted and cost ~0.75 us a turn on the compiled build, ~0.05 us written
        (`object.__setattr__` on a frozen field compiles to a plain store). None stands for the fields' default
        factories, so `Turn(action, move)` still starts with empty lists of its own."""
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "move", move)
        object.__setattr__(self, "autoplay", [] if autoplay is None else autoplay)
        object.__setattr__(self, "undone", [] if undone is None else undone)
        object.__setattr__(self, "revealed", revealed)

    @property
    def moves(self) -> list[Move]:
        """Every move this action made or took back: the places on the board it changed."""
        return [*self.autoplay, *self.undone] if self.move is None else [self.move, *self.autoplay]


GameOutcome = Position | Literal["resigned"]
"""How a game ended by the rules: its position (`won`, `stuck`), or the player gave up."""


class Counts(NamedTuple):
    """A game's counts as every message and record shows them (`move_accepted`, `game_over`, standings, stored
    results): built in one place so the four can never disagree. `time_ms` is the playing time the caller
    measured (the engine keeps no clock). A named tuple: built after every move, it must cost next to nothing
    (a frozen dataclass costs several times more)."""

    moves: int
    single_card_moves: int
    cards_home: int
    time_ms: int


class ReplayError(ValueError):
    """A stored or typed action log that does not replay: which action (1-based), what it said, why."""

    def __init__(self, number: int, action: object, reason: Exception) -> None:
        self.number = number
        self.action = action
        self.reason = reason
        code = reason.code if isinstance(reason, IllegalMoveError) else "bad_notation"
        self.code = code
        super().__init__(f"move {number} ({action}): {reason}")


class Game:
    """One player's game of a deal."""

    def __init__(
        self, variant: Variant, seed: int, *, autoplay: bool = False, undo_allowed: bool | None = None
    ) -> None:
        self.variant = variant
        self.seed = seed
        self.autoplay = autoplay
        self.undo_allowed = variant.undo_by_default if undo_allowed is None else undo_allowed
        self.board = Board.deal(variant, seed)
        self.actions: list[str] = []
        self.player_moves = 0
        self.single_card_moves = 0
        self.resigned = False
        self._turn_sizes: list[int] = []
        self.opening_autoplay = safe_autoplay(self.board) if autoplay else []

    @classmethod
    def replay(
        cls,
        variant: Variant,
        seed: int,
        actions: Iterable[object],
        *,
        autoplay: bool = False,
        undo_allowed: bool | None = None,
    ) -> Game:
        """Rebuild a game from its log; raise ReplayError naming the first action that does not replay."""
        game = cls(variant, seed, autoplay=autoplay, undo_allowed=undo_allowed)
        for number, action in enumerate(actions, start=1):
            try:
                game.act(action)
            except (IllegalMoveError, NotationError) as error:
                raise ReplayError(number, action, error) from None
        return game

    def act(self, action: object) -> Turn:
        """Apply one action in text form: a move in any accepted notation, or `undo` (anything else is a
        NotationError: typed `object`, as it comes from a log or a bot, so the compiled build names it too)."""
        if isinstance(action, str) and action.strip().lower() == UNDO:
            return self.undo()
        return self.play(parse_move(self.variant, action, self.board))

    def play(self, move: Move) -> Turn:
        """Validate and apply a player move, then autoplay if the game has it on."""
        self._require_running()
        board = self.board
        concrete = board.check(move)
        single = board.single_card_cost(concrete)
        depth = len(board.move_stack)
        board.push(concrete)
        made = safe_autoplay(board) if self.autoplay and board.has_foundation_move() else []
        self._turn_sizes.append(len(board.move_stack) - depth)
        action = format_move(self.variant, concrete)
        self.actions.append(action)
        self.player_moves += 1
        self.single_card_moves += single
        return Turn(action, concrete, made, [], board.revealed_since(depth))

    def undo(self) -> Turn:
        """Take back the last player move and its autoplay; costs one move."""
        self._require_running()
        refusal = self._undo_refusal()
        if refusal is not None:
            raise refusal
        size = self._turn_sizes.pop()
        undone = [self.board.pop() for _ in range(size)]
        self.actions.append(UNDO)
        self.player_moves += 1
        self.single_card_moves += 1
        return Turn(UNDO, None, [], undone, False)

    def can_undo(self) -> bool:
        """Whether an undo would be accepted now: a stuck player it can rescue is not out of the game yet."""
        return self._undo_refusal() is None

    def _undo_refusal(self) -> IllegalMoveError | None:
        if not self.undo_allowed:
            return IllegalMoveError("undo_disabled", "undo is switched off for this game")
        if not self._turn_sizes:
            return IllegalMoveError("nothing_to_undo", "there is no move of yours to take back")
        if self.board.revealed_since(len(self.board.move_stack) - self._turn_sizes[-1]):
            return IllegalMoveError("irreversible", "the last move turned a face-down card up, so it cannot be undone")
        return None

    def resign(self) -> None:
        self._require_running()
        self.resigned = True

    def _require_running(self) -> None:
        if self.resigned:
            raise IllegalMoveError("game_over", "this game is over: you resigned")
        if self.board.is_won():
            raise IllegalMoveError("game_over", "this game is over: it is won")

    @property
    def outcome(self) -> GameOutcome | None:
        """`won`, `resigned`, `stuck` (no legal move left and no undo that could help) or None while it goes on."""
        return self.verdict()[0]

    def verdict(self) -> tuple[GameOutcome | None, bool]:
        """(outcome, only_undo_left). A position with no legal move ends the game as `stuck` only when an undo
        cannot rescue it (undo off, nothing to take back, or the last move turned a card up); otherwise the game
        goes on and `only_undo_left` is true, so the player can be told to undo or resign. One look at the
        position serves both, because the server asks after every move."""
        if self.resigned:
            return "resigned", False
        position = self.board.outcome()
        if position == "stuck" and self.can_undo():
            return None, True
        return position, False

    def counts(self, time_ms: int) -> Counts:
        return Counts(self.player_moves, self.single_card_moves, self.board.cards_on_foundations, time_ms)

    @property
    def cards_on_foundations(self) -> int:
        return self.board.cards_on_foundations
