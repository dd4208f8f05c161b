"""The spoiler-free text a player shares after a daily attempt or a race.

What it may say is what anyone may know while the deal is still being played: the variant, the day, the
counts (moves, par and the difference, time, cards home), the rank, the streak, and a link to the page (the
daily's page, or the room, whose replay is public once the race is over). What it must never say, before the
day closes, is anything of the deal itself: no seed, no move, no card. So the text is built from counts
only; nothing that holds a board or a move list is ever passed in, and the tests check the output's
alphabet besides.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

MINUS = "\N{MINUS SIGN}"
"""Typography's minus (not a hyphen) in front of a negative difference, as scoreboards print it."""


def clock_text(milliseconds: int) -> str:
    """"m:ss", or "h:mm:ss" from an hour on (the web client's own format)."""
    seconds = max(0, milliseconds) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def par_text(moves: int, par: int | None) -> str:
    if par is None:
        return f"{moves} moves"
    difference = moves - par
    return f"{moves} moves (par {par}, {'+' if difference > 0 else '±' if difference == 0 else MINUS}{abs(difference)})"


@dataclass(frozen=True, slots=True)
class Result:
    """One attempt's counts: all a share may say of it."""

    won: bool
    moves: int
    time_ms: int
    cards_home: int
    cards: int
    rank: int | None
    of: int | None


def result_line(result: Result, par: int | None) -> str:
    if result.won:
        line = f"✅ {par_text(result.moves, par)} in {clock_text(result.time_ms)}"
    else:
        line = f"❌ {result.cards_home}/{result.cards} cards home in {clock_text(result.time_ms)}"
    if result.rank is not None and result.of is not None:
        line += f" · #{result.rank} of {result.of}"
    return line


PRACTICE_LINE = "Practice: not on the day's board"
"""Under a practice daily's title: a second try, or a new player's first days, counts on no board and grows no
streak, and a friend reading the share should not take it for a ranked result."""


def daily_text(*, variant_name: str, day: date, result: Result, par: int | None, streak: int, url: str,
               practice: bool = False) -> str:  # fmt: skip
    lines = [f"FreeCell Arena · {variant_name} daily {day.isoformat()}", result_line(result, par)]
    if practice:
        lines.insert(1, PRACTICE_LINE)
    if streak:
        lines.append(f"🔥 {streak}-day streak")
    lines.append(url)
    return "\n".join(lines)


def race_text(*, variant_name: str, players: int, result: Result, par: int | None, rating_change: int | None,
              url: str) -> str:  # fmt: skip
    title = f"FreeCell Arena · {variant_name} race of {players}"
    lines = [title, result_line(result, par)]
    if rating_change is not None:
        lines.append(f"rating {'+' if rating_change >= 0 else MINUS}{abs(rating_change)}")
    lines.append(url)
    return "\n".join(lines)
