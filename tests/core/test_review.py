"""Review against par (core/records/review.py): a deal's par as player actions, each result beside it."""

from __future__ import annotations

from freecell_arena.core.records.review import Par, ParStatus, reviewed, solve_par
from freecell_arena.engine import RULES_VERSION, Game, variant_by_id


def test_the_par_line_wins_the_deal_in_par_moves_with_autoplay_on() -> None:
    par = solve_par("freecell", 1, budget_s=10)
    assert par.status is ParStatus.SOLVED and par.rules_version == RULES_VERSION
    game = Game.replay(variant_by_id("freecell"), 1, par.line, autoplay=True)
    assert game.board.is_won() and game.player_moves == par.moves == len(par.line)


def test_a_deals_par_is_the_same_however_much_time_the_solver_has() -> None:
    """The budget is counted in nodes, so the par does not depend on how fast or busy the machine is. Counted in
    seconds it did: the searches take turns in shares of the budget, and this deal's line was 147 moves with 100 s
    and 121 with 3 s (both settled in under a second)."""
    roomy = solve_par("chinese-freecell", 3, budget_s=100, max_nodes=50_000)
    tight = solve_par("chinese-freecell", 3, budget_s=3, max_nodes=50_000)
    assert roomy.status is ParStatus.SOLVED and roomy.line == tight.line


def test_a_deal_the_budget_does_not_settle_has_no_par() -> None:
    par = solve_par("freecell-three-deck", 7, max_nodes=1_000)
    assert par.status is ParStatus.UNKNOWN and par.moves is None and par.line == ()


def test_each_win_is_shown_against_par_and_nothing_else_is() -> None:
    par = Par("freecell", 1, RULES_VERSION, ParStatus.SOLVED, ("3a",) * 50)
    rows = reviewed([("a", "Ada", "won", 55, 60_000), ("b", "Bob", "won", 48, 90_000),
                     ("c", "Cy", "resigned", 20, 10_000)], par)  # fmt: skip
    assert [row.over_par for row in rows] == [5, -2, None]
    unknown = Par("freecell", 1, RULES_VERSION, ParStatus.UNKNOWN)
    assert [row.over_par for row in reviewed([("a", "Ada", "won", 55, 60_000)], unknown)] == [None]
