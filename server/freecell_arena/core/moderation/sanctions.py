"""Sanctions as stored facts: the mod log, what is in force, and what every derived number makes of it.

A moderator never edits a result, a board or a rating. They add an action to the mod log (append-only in the
database); the sanctions in force are the log replayed (`in_force`: a sanction holds until a lift names it), and
everything derived from results (boards, ratings, streaks) is derived again with them applied:

- **mark** (playing with help): the player counts as a program. Their ranked wins sit on the bots' side of
  their boards, as a flagged win does; in a rated race they are placed on the bots' ladder, so the humans of
  that race are rated as if the marked player had not been among them (`counted_placements`), and their own
  humans' rating is gone; their daily streak stops counting; they leave humans' tournament tables
  (`core.records.tournaments.state.TournamentSnapshot.excluded`).
- **void**: one game off every board: no leaderboard entry, no place in its race's rating, no streak day, no
  points in its tournament.
- **ban**: tokens revoked, connections closed, hello refused with the public reason, withdrawn from every
  tournament entered; results stay as they are.
- **rename**: the name replaced by a neutral one, the old one retired (never claimable again).
- **lift**: the named sanction is no longer in force; everything it changed is derived again.

The same rules serve the server when it applies an action and `freecell-arena audit` when it replays the log,
so what players see and what the audit recomputes cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from freecell_arena.core.ports.reads import RaceResult
from freecell_arena.core.records.fair_play import bots_side
from freecell_arena.core.records.leaderboard import expected_board
from freecell_arena.core.records.ratings import Ladder, Placement, Rating, RatingChange, rate_race
from freecell_arena.core.records.sanctioned import Sanctions


class Act(StrEnum):
    """What a mod log entry does."""

    GRANT = "grant"
    REVOKE = "revoke"
    MARK = "mark"
    BAN = "ban"
    RENAME = "rename"
    VOID = "void"
    LIFT = "lift"
    DISMISS = "dismiss"
    """Reports on a player closed without a sanction."""


SANCTIONS = frozenset({Act.MARK, Act.BAN, Act.RENAME, Act.VOID})
"""The actions that put a sanction in force (until lifted)."""
RECOMPUTING = frozenset({Act.MARK, Act.VOID})
"""The sanctions that change derived numbers (boards, ratings, streaks) and must be recomputed when set or lifted."""
RESTANDING = frozenset({Act.MARK, Act.VOID, Act.BAN})
"""The sanctions that change tournament tables when set or lifted: a mark (a person counted as a program leaves a
humans' table), a void (the game scores nothing) and a ban (the entrant withdrawn while it holds)."""
OPERATOR = "operator"
"""Who an action of the command line is by (its moderator id is NULL)."""


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One row of the mod log."""

    action_id: int
    at: datetime
    moderator_id: str | None
    act: Act
    target_id: str
    game_id: str | None
    lifts: int | None
    reason: str
    public_reason: str
    detail: dict[str, Any] = field(default_factory=dict)

    def name_then(self) -> str | None:
        """The name the player went by when the action was taken (a later rename does not rewrite the log): kept in
        `detail` since issue 53; before that, only a rename and its lift knew it (the name replaced). None: not
        known (the name they go by now stands in)."""
        known = self.detail.get("name") or self.detail.get("old" if self.act is Act.RENAME else "replaced")
        return str(known) if known else None


@dataclass(frozen=True, slots=True)
class InForce:
    """A sanction in force: the action that set it."""

    action_id: int
    player_id: str
    kind: Act
    game_id: str | None
    public_reason: str
    at: datetime
    reason: str = ""
    """Why, as the mod log keeps it (moderators read it; the player is told only `public_reason`)."""


def in_force(log: Iterable[LoggedAction]) -> dict[int, InForce]:
    """The sanctions the log leaves in force, by the id of the action that set each (the log in id order)."""
    held: dict[int, InForce] = {}
    for entry in log:
        if entry.act in SANCTIONS:
            held[entry.action_id] = InForce(entry.action_id, entry.target_id, entry.act, entry.game_id,
                                            entry.public_reason, entry.at, entry.reason)  # fmt: skip
        elif entry.act is Act.LIFT and entry.lifts is not None:
            held.pop(entry.lifts, None)
    return held


def game_board(variant: str, seed: int, daily_day: date | None, *, bot: bool, flagged: bool, won: bool,
               player_id: str, game_id: str, sanctions: Sanctions) -> str | None:  # fmt: skip
    """The board a finished ranked game belongs on with the sanctions applied: None for a void game; the bots' side
    for a bot's game, and for a flagged or marked player's win."""
    if game_id in sanctions.voided:
        return None
    board = expected_board(variant, seed, daily_day, bot)
    if won and (flagged or player_id in sanctions.marked):
        return bots_side(board)
    return board


def board_allowed(stored: str | None, variant: str, seed: int, daily_day: date | None, *, bot: bool,
                  flagged: bool, won: bool, player_id: str, game_id: str, sanctions: Sanctions) -> bool:  # fmt: skip
    """Whether a stored board is right: a marked player's game that did not win may sit on either side (a game
    running when the mark came keeps the board it was dealt; only a win has an entry)."""
    expected = game_board(variant, seed, daily_day, bot=bot, flagged=flagged, won=won, player_id=player_id,
                          game_id=game_id, sanctions=sanctions)  # fmt: skip
    if stored == expected:
        return True
    return (not won and player_id in sanctions.marked and game_id not in sanctions.voided
            and stored == expected_board(variant, seed, daily_day, bot))  # fmt: skip


def counted_results(results: Iterable[RaceResult], voided_players: Iterable[str],
                    sanctions: Sanctions) -> tuple[RaceResult, ...]:  # fmt: skip
    """A race's stored results as its rating counts them: void results left out, marked players as bots."""
    void = set(voided_players)
    return tuple(
        result if not sanctions.counts_as_bot(result.player_id, result.bot) or result.bot else replace(result, bot=True)
        for result in results if result.player_id not in void
    )  # fmt: skip


def counted_placements(placements: Sequence[Placement], voided_players: Iterable[str],
                       sanctions: Sanctions) -> tuple[Placement, ...]:  # fmt: skip
    """A race's placements as its rating counts them (the live side of `counted_results`): void results left out
    and the others ranked again the way the room's ranking ranks the rest (1 + those strictly ahead), marked
    players as bots."""
    void = set(voided_players)
    kept = [placement for placement in placements if placement.player_id not in void]
    return tuple(
        Placement(placement.player_id, 1 + sum(other.rank < placement.rank for other in kept),
                  sanctions.counts_as_bot(placement.player_id, placement.bot))
        for placement in kept
    )  # fmt: skip


def public_notice(held: Iterable[InForce]) -> str | None:
    """What a player's page says of the sanctions in force on them that change what it counts (None: nothing): a
    mark (their wins are the programs') and void games (counted nowhere, the page's figures included). A ban and a
    rename say nothing there: the player is told themselves."""
    held = list(held)
    said = []
    if any(sanction.kind is Act.MARK for sanction in held):
        said.append("Marked by a moderator as playing with help: their results count with the programs', not the "
                    "humans'.")  # fmt: skip
    voided = sum(sanction.kind is Act.VOID for sanction in held)
    if voided:
        games, count = ("1 game", "it counts") if voided == 1 else (f"{voided} games", "they count")
        said.append(f"A moderator voided {games} of theirs: {count} nowhere, this page included.")
    return " ".join(said) or None


def counted_days(won: frozenset[date], void_days: Iterable[date], marked: bool) -> frozenset[date]:
    """The days a player's daily streak counts: none while they are marked, and never a void game's day."""
    if marked:
        return frozenset()
    return won - frozenset(void_days)


# ---------------------------------------------------------------- rating the races again


@dataclass(frozen=True, slots=True)
class RaceToRate:
    """A rated (or rateable) race of one variant, its placements as counted with the sanctions applied."""

    room_id: str
    placements: tuple[Placement, ...]


Start = dict[tuple[str, Ladder], Rating]


def rerate(races: Sequence[RaceToRate], start: Start) -> tuple[list[tuple[RaceToRate, list[RatingChange]]], Start]:
    """Every race rated again in order from the ratings its players had before the first of them: what each race
    changes now, and the ratings at the end. Recomputed from the results, never patched: a victim of a marked
    player gets back exactly what the races with them cost, and every later race follows from that."""
    current = dict(start)
    rated: list[tuple[RaceToRate, list[RatingChange]]] = []
    for race in races:
        changes = rate_race(race.placements, current) if race.placements else []
        current.update(((change.player_id, change.ladder), change.after) for change in changes)
        rated.append((race, changes))
    return rated, current
