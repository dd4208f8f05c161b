"""Hints and auto-finish: who may ask, and what is worked out.

**Where.** Only in practice and casual play: a running game of an unranked room. Never in a ranked race (its
results go on the deal's board and its ratings), never in a daily challenge, practice games included (the day's
deal is one board for everyone while it is open). A hint there would put the solver's play on a board as the
player's: refused with `no_hints`, and the page says so instead of showing the buttons.

**What.** `get_hint` answers the next move of a plan from what the player sees (`engine.solver.hint`: a certified
solution's first move where no card is face down; towards the most promising reveal in Cell Eleven, never from a
hidden card) and, beside it, the moves that finish the game by sending cards home alone, when it is decided
(`engine.solver.finish`: auto-finish). Each is a move the player then plays like any other: counted, stored,
replayed. Nothing here changes the game.

Why a query: the stored game (its seed, options and moves, every accepted move durable before its answer) is all
a hint needs, so any process answers it; the search takes up to `HINT_BUDGET_S` of CPU, so net runs `work_out`
in a solver worker (`net/hints.py`), never on the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from freecell_arena.core.effects import Refusal
from freecell_arena.core.ports.records import StoredGame
from freecell_arena.engine import Game, format_generic, variant_by_id
from freecell_arena.engine.solver import finish, hint
from freecell_arena.protocol.errors import ErrorCode

HINT_BUDGET_S = 1.0
"""The search's time for one hint: advice, not certainty (a hint that runs out leads towards the best position
found)."""
NOT_HERE = (
    "hints and auto-finish are for practice and casual games only: not in ranked races or the daily challenge, "
    "whose boards must hold each player's own play"
)


@dataclass(frozen=True, slots=True)
class HintJob:
    """A running game as the worker rebuilds it (plain data: it crosses to the worker process)."""

    game_id: str
    variant: str
    seed: int
    autoplay: bool
    undo_allowed: bool
    actions: tuple[str, ...]
    budget_s: float = HINT_BUDGET_S


@dataclass(frozen=True, slots=True)
class HintAnswer:
    move: str | None
    """The next move of a plan, in the generic notation every variant takes ("t3-c1"; None: the game is won or
    provably lost)."""
    finish: tuple[str, ...]
    """The moves that win by sending cards home alone, in order (empty: not decided yet)."""


def hint_job(stored: StoredGame | None, requester: str | None, game_id: str) -> HintJob:
    """The job for the requester's running game, or the refusal that says why not."""
    if stored is None:
        raise Refusal(ErrorCode.unknown_game, f"there is no game {game_id!r}")
    record = stored.game
    if requester is None or record.player_id != requester:
        raise Refusal(ErrorCode.not_your_game, "a hint is for the game's own player")
    if record.ranked or record.daily_day is not None:
        raise Refusal(ErrorCode.no_hints, NOT_HERE)
    if stored.result is not None:
        raise Refusal(ErrorCode.game_not_running, "the game is over")
    return HintJob(record.game_id, record.variant, record.seed, record.autoplay, record.undo_allowed,
                   tuple(move.notation for move in stored.moves))  # fmt: skip


def work_out(job: HintJob) -> HintAnswer:
    """In the worker: the game replayed from its moves, its finish and its hint (a decided game's hint is the
    finish's first move, with no search)."""
    variant = variant_by_id(job.variant)

    def replayed() -> Game:
        return Game.replay(variant, job.seed, list(job.actions), autoplay=job.autoplay, undo_allowed=job.undo_allowed)

    finishing = tuple(format_generic(move) for move in finish(replayed()) or ())  # plays its game forward
    if finishing:
        return HintAnswer(finishing[0], finishing)
    move = hint(replayed(), job.budget_s)
    return HintAnswer(format_generic(move) if move is not None else None, ())
