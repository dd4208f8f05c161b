"""Fair play on the human boards: a won ranked game no person could have played goes to the bots' side.

A solver client that says `bot: false` can win a deal in 70 moves in one second; without a screen it would sit at
rank 1 of the human board. The screen is a floor on time, checked when a human's ranked win is stored and again
by `freecell-arena audit` (it needs nothing but the stored result):

- at least `MIN_MS_PER_MOVE` per player move on average over the whole game: 4 moves a second, sustained from
  the first move to the last, is several times what the fastest players manage (they average well over half a
  second a move, reading the board included);
- at least `MIN_MS_PER_DECK` for the whole game per deck dealt: a deal has to be read before it is played.

An implausible win is kept, with the reason (`games.flagged`), and counts on the bots' board of the same deal
instead of the humans' one. The limits, honestly: this stops clients that play at machine speed; a program that
waits between its moves like a person passes, and so would a person who types a solution found elsewhere at a
human pace. It is a screen, not proof; the boards stay re-verifiable from seed + moves either way.
"""

from __future__ import annotations

from freecell_arena.core.records.leaderboard import BOTS, HUMANS
from freecell_arena.engine import Variant

MIN_MS_PER_MOVE = 250
MIN_MS_PER_DECK = 10_000


def implausible_win(variant: Variant, player_moves: int, time_ms: int) -> str | None:
    """Why a human could not have won this way, or None when the win looks like a person's."""
    floor_per_move = MIN_MS_PER_MOVE * player_moves
    if time_ms < floor_per_move:
        return (f"{player_moves} moves in {time_ms / 1000:.1f} s: faster than {MIN_MS_PER_MOVE} ms a move "
                "on average")  # fmt: skip
    decks = variant.decks
    floor_game = MIN_MS_PER_DECK * decks
    if time_ms < floor_game:
        return f"won in {time_ms / 1000:.1f} s: under {floor_game / 1000:g} s for {decks} deck(s)"
    return None


def is_human_board(board: str) -> bool:
    return board.endswith(f"/{HUMANS}")


def bots_side(board: str) -> str:
    """The same deal's board for programs (`freecell/deal/1/humans` -> `freecell/deal/1/bots`)."""
    return board.removesuffix(HUMANS) + BOTS
