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

Moderators are not engineers: each figure comes with its reading in words (`read_regularity`, `read_agreement`),
the console says what each signal means and which values are unusual (`MEANINGS`), and the summary says what was
measured whether or not anything stands out (`summary`), so "nothing unusual" never sits beside a figure that is.
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
PERSON_VARIES = 0.6
"""A person's think times usually vary more than this."""
FOLLOWS_LINE = 0.9
"""A game this much on the solver's line, in order, is a program replaying a solver's output."""
WORTH_A_LOOK = 0.6
"""From this share on the solver's line a game is worth a look beside its think times: more than a person who finds
their own way usually follows, less than a replayed line."""

MEANINGS = {
    "Regularity": f"How much the think times vary: their standard deviation over their mean, from the second move on "
                  f"(at least {MIN_MOVES} moves). A person's vary widely, usually above {PERSON_VARIES}: a long look, "
                  f"then quick obvious moves. Under {REGULAR} is as steady as a program pacing itself.",
    "Solver line": f"The share of the moves that follow, in order, the solver's solution of the same deal. A person "
                   f"finds their own way; from {WORTH_A_LOOK:.0%} it is worth a look beside the think times, from "
                   f"{FOLLOWS_LINE:.0%} it is a program replaying a solver.",
    "Think times": "The time before each move, as bars (the first: reading the deal). A person's jump about; a "
                   "program's pacing is a flat row.",
}
"""What each signal means and which values are unusual, in the console's words (beside the figures)."""


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


def read_regularity(value: float | None) -> str:
    """One game's regularity in words."""
    if value is None:
        return f"too few moves to say (under {MIN_MOVES})"
    if value < REGULAR:
        return "steady as a program's"
    if value < PERSON_VARIES:
        return "steadier than most people's"
    return "varies as a person's"


def read_agreement(value: float | None) -> str:
    """One game's share on the solver's line in words."""
    if value is None:
        return "no solver line for this deal"
    if value >= FOLLOWS_LINE:
        return "the solver's line, move for move"
    if value >= WORTH_A_LOOK:
        return "much of it on the solver's line: worth a look"
    return "its own way"


def unusual(regularity_value: float | None, agreement: float | None) -> list[str]:
    """Which of a game's signals stand out (the console marks them): `regularity`, `solver_line`."""
    marks = []
    if regularity_value is not None and regularity_value < PERSON_VARIES:
        marks.append("regularity")
    if agreement is not None and agreement >= WORTH_A_LOOK:
        marks.append("solver_line")
    return marks


def signals(regularities: Sequence[float | None], agreements: Sequence[float | None]) -> list[str]:
    """What stands out in a player's recent games, in words a moderator reads (empty: nothing does): the medians
    first, then single games the medians hide."""
    said = []
    regular = [value for value in regularities if value is not None]
    median_regular = statistics.median(regular) if regular else None
    if median_regular is not None and median_regular < REGULAR:
        said.append(f"think times barely vary (median variation {median_regular:.2f}; a person's is usually above "
                    f"{PERSON_VARIES}): paced like a program")  # fmt: skip
    elif median_regular is not None and median_regular < PERSON_VARIES:
        said.append(f"think times vary less than most people's (median variation {median_regular:.2f}; a person's "
                    f"is usually above {PERSON_VARIES}, a program pacing itself under {REGULAR})")  # fmt: skip
    elif (steady := sum(value < REGULAR for value in regular)) > 0:
        said.append(f"{_games(steady, len(regular))} paced as steadily as a program (variation under {REGULAR})")
    following = [value for value in agreements if value is not None]
    median_line = statistics.median(following) if following else None
    if median_line is not None and median_line >= FOLLOWS_LINE:
        said.append(f"moves follow the solver's line (median {median_line:.0%} of moves): a program replaying a "
                    f"solver would")  # fmt: skip
    elif median_line is not None and median_line >= WORTH_A_LOOK:
        said.append(f"much of the play follows the solver's line (median {median_line:.0%} of moves; from "
                    f"{WORTH_A_LOOK:.0%} it is worth a look, a replayed line is {FOLLOWS_LINE:.0%} "
                    f"or more)")  # fmt: skip
    elif (replayed := sum(value >= FOLLOWS_LINE for value in following)) > 0:
        said.append(f"{_games(replayed, len(following))} on the solver's line, move for move")
    return said


def summary(regularities: Sequence[float | None], agreements: Sequence[float | None]) -> str:
    """What was measured, in one sentence, whatever stands out: how many games, their median variation and their
    median share on the solver's line."""
    games = len(regularities)
    if not games:
        return "No ranked game yet: nothing to measure."
    regular = [value for value in regularities if value is not None]
    following = [value for value in agreements if value is not None]
    rhythm = (f"median variation of think times {statistics.median(regular):.2f} "
              f"({read_regularity(statistics.median(regular))})" if regular
              else "too few moves in any game to read a rhythm")
    line = (f"a median {statistics.median(following):.0%} of moves on the solver's line" if following
            else "no solver line to compare with")
    measured = f"Over {games} ranked {'game' if games == 1 else 'games'}: {rhythm}; {line}."
    stands_out = signals(regularities, agreements)
    if not stands_out:
        return f"{measured} Nothing in them stands out."
    return f"{measured} {len(stands_out)} {'thing stands' if len(stands_out) == 1 else 'things stand'} out, below."


def _games(count: int, of: int) -> str:
    return f"{count} of {of} {'game' if of == 1 else 'games'}{' is' if count == 1 else ' are'}"


def auto_report_reason(times: Sequence[int]) -> str | None:
    """Why a human's won game that passed the floor raises a report by itself, or None."""
    value = regularity(times)
    if value is None or value >= AUTO_REGULAR:
        return None
    mean = statistics.fmean(times[1:])
    return (f"the server's own report: a win whose {len(times)} moves came every {mean / 1000:.2f} s give or take "
            f"{value:.0%} (a program's rhythm)")  # fmt: skip
