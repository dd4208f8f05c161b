"""What the server says about how a player plays: the signals a moderator reads beside a report, worked out from
stored games only (and the solver's line for their deals), never shown to anyone but moderators.

- **Think times**: the milliseconds before each accepted move (the first counts from the deal). A person's vary
  widely (a long look, then a quick run of obvious moves); a program that waits between its moves to pass the
  fair-play floor varies little, whatever pace it picks. `regularity` is their coefficient of variation (standard
  deviation over mean) after the first move (reading the deal); below `REGULAR` it is a program's.
- **The solver's line**: how much of a game follows the solver's solution of the same deal in order
  (`solver_agreement`: the longest common subsequence over the longer of the two). A person finds their own way;
  a program replaying a solver's output follows it move for move.
- **The fair-play screen's figures**: time over moves beside the floor (`core.records.fair_play`).

A human's ranked win that passes the floor but is as regular as a program's raises a report by itself
(`auto_report_reason`): a report for a person to read, never a sanction.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from datetime import datetime

from freecell_arena.core.clock import elapsed_ms

REGULAR = 0.25
"""Think times varying less than this (coefficient of variation) look paced by a program."""
AUTO_REGULAR = 0.15
"""A win this regular raises a report by itself: well below anything a person plays."""
MIN_MOVES = 20
"""Fewer moves say too little about a rhythm."""
FOLLOWS_LINE = 0.9


def think_times(started_at: datetime, moves_at: Sequence[datetime]) -> list[int]:
    times = []
    previous = started_at
    for at in moves_at:
        times.append(max(0, elapsed_ms(previous, at)))
        previous = at
    return times


def regularity(times: Sequence[int]) -> float | None:
    """The coefficient of variation of the think times after the first (None: too few moves to say)."""
    after_reading = list(times[1:])
    if len(after_reading) < MIN_MOVES:
        return None
    mean = statistics.fmean(after_reading)
    if mean <= 0:
        return 0.0
    return round(statistics.pstdev(after_reading) / mean, 4)


def solver_agreement(actions: Sequence[str], line: Sequence[str]) -> float | None:
    """The share of the moves that follow the solver's line in order (LCS over the longer; None without a line)."""
    if not actions or not line:
        return None
    previous = [0] * (len(line) + 1)
    for action in actions:
        current = [0]
        for index, step in enumerate(line):
            current.append(previous[index] + 1 if action == step else max(previous[index + 1], current[index]))
        previous = current
    return round(previous[-1] / max(len(actions), len(line)), 4)


def signals(regularities: Sequence[float | None], agreements: Sequence[float | None]) -> list[str]:
    """What the signals over a player's recent games say, in words a moderator reads (empty: nothing unusual)."""
    said = []
    regular = [value for value in regularities if value is not None]
    if regular and statistics.median(regular) < REGULAR:
        said.append(f"think times barely vary (median variation {statistics.median(regular):.2f}; a person's is "
                    f"usually above 0.6): paced like a program")  # fmt: skip
    following = [value for value in agreements if value is not None]
    if following and statistics.median(following) >= FOLLOWS_LINE:
        said.append(f"moves follow the solver's line (median {statistics.median(following):.0%} of moves)")
    return said


def auto_report_reason(times: Sequence[int]) -> str | None:
    """Why a human's won game that passed the floor raises a report by itself, or None."""
    value = regularity(times)
    if value is None or value >= AUTO_REGULAR:
        return None
    mean = statistics.fmean(times[1:])
    return (f"the server's own report: a win whose {len(times)} moves came every {mean / 1000:.2f} s give or take "
            f"{value:.0%} (a program's rhythm)")  # fmt: skip
