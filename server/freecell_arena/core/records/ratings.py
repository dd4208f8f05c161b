"""Ratings per variant: OpenSkill's Plackett-Luce model over a race's finishing order.

Why Plackett-Luce: a race is one ordering of many players (not a series of pairwise games), and the model rates
exactly that, ties included, with a mean `mu` and an uncertainty `sigma` per player. The maths is the kept
`openskill` library's; this module only decides *what* is rated and how it is shown:

- **What is rated.** A finished ranked race with two or more players on a server-drawn deal (`rateable`): a
  host-chosen deal or a solo room rates nobody, since the host may know the deal. The order is the room's own
  ranking (`core.records.ranking`: winners by moves then time, then the rest by cards home), equal ranks as ties, so
  resigned and timed-out players come after every finisher, and those with the same cards home tie. A race in
  which nobody put a card home beyond the deal's opening rates nobody
  (`core.records.race_ratings.made_progress`).
- **Two ladders.** Humans and bots are rated apart (`Ladder`): in a race of both, the humans are rated among the
  humans and the bots among the bots, each in the order they finished, so a bot in a race can neither feed a
  human's rating nor take from it.
- **Shown as one number.** `display` maps `mu` to a familiar scale (25 -> 1500), and a rating is `provisional`
  while `sigma` is still large; boards rank by the conservative `mu - 3 sigma` (`ordinal`), so a lucky first
  win does not top the board.
- **Recomputable.** `rate_race` is a pure function of the ratings before and the order; `replay_ratings` runs it
  over stored races in order, which is how `freecell-arena audit` re-derives every stored rating.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Protocol

from freecell_arena.core.ports.reads import RaceResult

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

INITIAL_MU = 25.0
INITIAL_SIGMA = INITIAL_MU / 3
DISPLAY_BASE = 1500
DISPLAY_SCALE = 60
"""Display points per unit of `mu`: a new player shows 1500, and one `sigma` of a new player is 500 points."""
PROVISIONAL_SIGMA = 7.5
"""Above this `sigma` the rating is marked provisional: about ten two-player races, fewer in larger ones."""
SAME_RATING = 1e-9
"""How far a recomputed `mu` or `sigma` may stray from a stored one and still be the same (floating point)."""


class Ladder(StrEnum):
    HUMANS = "humans"
    BOTS = "bots"


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    races: int = 0

    @property
    def display(self) -> int:
        return round(DISPLAY_BASE + DISPLAY_SCALE * (self.mu - INITIAL_MU))

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate boards rank by: 99.7 % sure the player is at least this good."""
        return self.mu - 3 * self.sigma

    def same_as(self, other: Rating) -> bool:
        return (
            self.races == other.races
            and abs(self.mu - other.mu) <= SAME_RATING
            and abs(self.sigma - other.sigma) <= SAME_RATING
        )


NEW = Rating()


@dataclass(frozen=True, slots=True)
class Placement:
    """One player's place in a finished race: `rank` from the room's ranking (1 is first; equal is a tie)."""

    player_id: str
    rank: int
    bot: bool
    cards_home: int = 0
    """Cards on the foundations at the end: whether anyone made progress
    (`core.records.race_ratings.made_progress`)."""


@dataclass(frozen=True, slots=True)
class RatingChange:
    player_id: str
    ladder: Ladder
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change as shown beside the standings (+12 / -8): the difference of the displayed numbers."""
        return self.after.display - self.before.display


def rateable(*, ranked: bool, server_drawn_deal: bool, players: int) -> bool:
    """Whether a finished race moves ratings at all."""
    return ranked and server_drawn_deal and players >= 2


def ladder_of(placement: Placement) -> Ladder:
    return Ladder.BOTS if placement.bot else Ladder.HUMANS


def rate_race(placements: Sequence[Placement], before: Mapping[tuple[str, Ladder], Rating]) -> list[RatingChange]:
    """The rating changes of one rateable race. `before` holds the current rating of each (player, ladder) that
    has one; a player missing from it starts at `NEW`. A ladder with fewer than two of the race's players in it
    changes nothing. The changes come in the order of `placements`."""
    if len({placement.player_id for placement in placements}) != len(placements):
        raise ValueError("a player is placed twice in one race")
    changes: dict[str, RatingChange] = {}
    for ladder in Ladder:
        field = [placement for placement in placements if ladder_of(placement) is ladder]
        if len(field) < 2:
            continue
        current = [before.get((placement.player_id, ladder), NEW) for placement in field]
        model = _model()
        teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in current]
        rated = model.rate(teams, ranks=[float(placement.rank) for placement in field])
        for placement, old, (new,) in zip(field, current, rated, strict=True):
            after = Rating(mu=new.mu, sigma=new.sigma, races=old.races + 1)
            changes[placement.player_id] = RatingChange(placement.player_id, ladder, old, after)
    return [changes[placement.player_id] for placement in placements if placement.player_id in changes]


def placements_from_results(results: Iterable[RaceResult], ranking: str,
                            started_at: datetime | None) -> tuple[Placement, ...]:  # fmt: skip
    """The race's placements as the room ranked them (`core.records.ranking`, by the rule of the race's start): what
    the audit recomputes ratings from, so a stored rank cannot disagree with the stored results unnoticed."""
    from freecell_arena.core.records.ranking import rank
    from freecell_arena.protocol.rooms import Standing

    bots = {}
    standings = []
    for result in results:
        bots[result.player_id] = result.bot
        standings.append(Standing.model_validate({
            "rank": 0, "player_id": result.player_id, "name": "", "game_id": "", "moves": result.moves,
            "outcome": result.outcome or "timeout", "single_card_moves": result.single_card_moves,
            "cards_on_foundations": result.cards_on_foundations, "time_ms": result.time_ms,
        }))  # fmt: skip
    return tuple(Placement(standing.player_id, standing.rank, bots[standing.player_id], standing.cards_on_foundations)
                 for standing in rank(standings, ranking, started_at))  # fmt: skip


@dataclass(frozen=True, slots=True)
class RatedRace:
    """A stored race as the audit reads it: its variant, its placements and the ratings stored with it."""

    race_id: str
    variant: str
    placements: tuple[Placement, ...]
    stored: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class RatingMismatch:
    race_id: str
    player_id: str
    ladder: Ladder
    stored: Rating | None
    recomputed: Rating | None

    def describe(self) -> str:
        def shown(rating: Rating | None) -> str:
            return "none" if rating is None else f"mu={rating.mu:.6f} sigma={rating.sigma:.6f} races={rating.races}"

        return (
            f"race {self.race_id}: {self.player_id} ({self.ladder}): stored {shown(self.stored)}, "
            f"recomputed {shown(self.recomputed)}"
        )


Ratings = dict[tuple[str, str, Ladder], Rating]
"""Ratings by (variant, player, ladder)."""


def replay_ratings(races: Iterable[RatedRace]) -> tuple[Ratings, list[RatingMismatch]]:
    """Every rating recomputed from the first race on (`races` in the order they were rated), and each stored
    before/after that differs from the recomputation. The recomputation goes on from the recomputed values, so
    one wrong row is reported once, not again in every later race of the same player."""
    by_variant: dict[str, dict[tuple[str, Ladder], Rating]] = {}
    mismatches: list[RatingMismatch] = []
    for race in races:
        before = by_variant.setdefault(race.variant, {})
        recomputed = {(change.player_id, change.ladder): change for change in rate_race(race.placements, before)}
        stored = {(change.player_id, change.ladder): change for change in race.stored}
        for key in sorted(recomputed.keys() | stored.keys()):
            mine, theirs = recomputed.get(key), stored.get(key)
            if mine is None or theirs is None or not (
                mine.after.same_as(theirs.after) and mine.before.same_as(theirs.before)
            ):
                mismatches.append(RatingMismatch(race.race_id, key[0], key[1], theirs.after if theirs else None,
                                                 mine.after if mine else None))  # fmt: skip
        before.update((key, change.after) for key, change in recomputed.items())
    current = {(variant, player, ladder): rating for variant, ratings in by_variant.items()
               for (player, ladder), rating in ratings.items()}  # fmt: skip
    return current, mismatches


@cache
def _model() -> PlackettLuce:
    """Imported on first use: only a process that rates a race pays for loading openskill."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=INITIAL_MU, sigma=INITIAL_SIGMA)


# ---------------------------------------------------------------- settling a race against the store


class Recorded(StrEnum):
    APPLIED = "applied"
    ALREADY_RATED = "already_rated"
    """Another process (or an earlier try) rated this race: nothing more to do."""
    CONFLICT = "conflict"
    """A rating it was computed from moved meanwhile (the player finished another race): compute again."""


class RatingLedger(Protocol):
    """Where ratings live (implemented by `freecell_arena.store.ratings.RatingStore`)."""

    async def current(self, variant: str, keys: Sequence[tuple[str, Ladder]]) -> dict[tuple[str, Ladder], Rating]:
        """The stored ratings of these (player, ladder) pairs; a pair never rated is absent."""
        ...

    async def counted(self, room_id: str, placements: Sequence[Placement]) -> tuple[int, tuple[Placement, ...]]:
        """The placements as the sanctions in force count them (`core.moderation.sanctions.counted_placements`), and
        the mod log's last action they were counted at."""
        ...

    async def record(self, room_id: str, variant: str, placements: Sequence[Placement],
                     changes: Sequence[RatingChange], at: datetime, counted_at: int = 0) -> Recorded:  # fmt: skip
        """In one transaction: nothing if the room was rated already; else every change, each only over the
        rating it was computed from, or none of them (`CONFLICT`, also when the mod log moved past `counted_at`:
        a sanction may have changed who counts)."""
        ...


SETTLE_ATTEMPTS = 8
"""A conflict means another race of one of these players was rated in between; a few tries always settle it
unless that player finishes races faster than a transaction commits."""


class RatingConflictError(RuntimeError):
    """The race could not be rated: its players' ratings kept moving under it (`SETTLE_ATTEMPTS` conflicts)."""


async def settle_race(ledger: RatingLedger, room_id: str, variant: str, placements: Sequence[Placement],
                      at: datetime) -> list[RatingChange] | None:  # fmt: skip
    """Rate one finished rateable race exactly once: read, compute, compare-and-set, again on a conflict.
    Returns the changes this call applied, or None when the race had been rated already (by another process:
    its `race_over` carries the changes it read back, not these)."""
    for _ in range(SETTLE_ATTEMPTS):
        counted_at, counted = await ledger.counted(room_id, placements)
        keys = [(placement.player_id, ladder_of(placement)) for placement in counted]
        changes = rate_race(counted, await ledger.current(variant, keys)) if counted else []
        outcome = await ledger.record(room_id, variant, counted, changes, at, counted_at)
        if outcome is Recorded.APPLIED:
            return changes
        if outcome is Recorded.ALREADY_RATED:
            return None
    raise RatingConflictError(f"room {room_id}: ratings moved {SETTLE_ATTEMPTS} times while it was being rated")
