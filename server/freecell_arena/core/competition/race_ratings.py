"""A finished race's ratings, settled once it is over: what the race was, whether it counts, and what each
player is told.

Why apart from `races`: finishing a race is a timer's quick change of memory (the standings go out at once);
rating it reads and writes the ratings in the store, which may take a few round trips and retries
(`core.competition.ratings.settle_race`). So `Races.finish_race` only describes the ended race (`RaceEnd`, carried by
the
finish's `Effect`), and once that finish is durable the adapter (net) runs `rate_finished_race` in the
background: never on a move's path, and never before the finish is stored (a finish another process wrote
first is its to rate). Exactly once across processes is the ledger's compare-and-set; a process that lost the
race to rate it reads the stored changes back, so every member hears the same numbers whichever process
rated them.

Also here: the read side of ratings (the boards and a player's history) as a port, with the wire views.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, Protocol

from freecell_arena.core.competition.ratings import (
    Ladder,
    Placement,
    RaceResult,
    Rating,
    RatingChange,
    RatingLedger,
    placements_from_results,
    rateable,
    settle_race,
)
from freecell_arena.protocol.messages import RaceRatingsMessage, RatingChangeView, RatingView, Standing


@dataclass(frozen=True, slots=True)
class RaceEnd:
    """A race that just finished, as rating and review need it (built from the room at its finish)."""

    room_id: str
    code: str
    variant: str
    seed: int
    ranked: bool
    host_chose_deal: bool
    placements: tuple[Placement, ...]
    at: datetime

    @property
    def rated(self) -> bool:
        return rateable(ranked=self.ranked, server_drawn_deal=not self.host_chose_deal, players=len(self.placements))


def placements_of(standings: Sequence[Standing], bots: Collection[str]) -> tuple[Placement, ...]:
    """The room's ranked standings as placements (equal ranks stay ties; resigned and timed out come last)."""
    robots = set(bots)
    return tuple(Placement(row.player_id, row.rank, row.player_id in robots) for row in standings)


class RaceRatings(RatingLedger, Protocol):
    """The ledger, plus reading back a race's stored changes (rated by another process, or by an earlier try)."""

    async def changes_of(self, room_id: str) -> list[RatingChange]: ...


async def rate_finished_race(end: RaceEnd, ledger: RaceRatings) -> RaceRatingsMessage | None:
    """Rate the race once (whoever else tries too) and say what changed; None for a race that rates nobody."""
    if not end.rated:
        return None
    changes = await settle_race(ledger, end.room_id, end.variant, end.placements, end.at)
    if changes is None:  # rated already: tell the same numbers the first rater stored
        changes = await ledger.changes_of(end.room_id)
    return ratings_message(end.code, end.variant, changes)


class FinishedRace(NamedTuple):
    """A finished race a player sits in (`Sessions.finished_race`): where its rating changes are stored."""

    room_id: str
    code: str
    variant: str


async def ratings_again(race: FinishedRace, ledger: RaceRatings) -> RaceRatingsMessage | None:
    """The rating changes the race made, as they were told when it was rated (None: not rated, or not yet)."""
    return ratings_message(race.code, race.variant, await ledger.changes_of(race.room_id))


def ratings_message(code: str, variant: str, changes: list[RatingChange]) -> RaceRatingsMessage | None:
    if not changes:
        return None
    return RaceRatingsMessage(code=code, variant=variant, changes=[change_view(change) for change in changes])


def rating_view(rating: Rating) -> RatingView:
    return RatingView(rating=rating.display, provisional=rating.provisional, races=rating.races)


def change_view(change: RatingChange) -> RatingChangeView:
    return RatingChangeView(player_id=change.player_id, ladder=change.ladder.value, before=rating_view(change.before),
                            after=rating_view(change.after), delta=change.delta)  # fmt: skip


# ---------------------------------------------------------------- reading ratings


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A row of a rating board: `position` counts from 1 in the board's order (mu - 3 sigma, then player id)."""

    position: int
    player_id: str
    name: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    room_id: str
    rank: int
    before: Rating
    after: Rating
    at: datetime
    code: str | None = None


class RatingReads(Protocol):
    """The rating boards and histories (implemented by `freecell_arena.store.ratings.RatingStore`)."""

    async def top(self, variant: str, ladder: Ladder, limit: int) -> list[RatingRow]: ...

    async def around(self, variant: str, ladder: Ladder, player_id: str, span: int) -> list[RatingRow]: ...

    async def history(self, player_id: str, variant: str, ladder: Ladder, limit: int) -> list[HistoryPoint]: ...

    async def ratings_of(self, player_id: str, ladder: Ladder, variants: Sequence[str]) -> dict[str, Rating]:
        """The player's current rating in each variant they are rated in."""
        ...


# ---------------------------------------------------------------- races left unrated


@dataclass(frozen=True, slots=True)
class LeftUnrated:
    """A finished rateable race with no rating changes stored (its finisher died, or every try failed), as
    stored: what `core.competition.rating_recovery` rates late and the audit names."""

    room_id: str
    code: str
    variant: str
    seed: int
    ranking: str
    results: tuple[RaceResult, ...]
    """Every game of the room with its stored result: the audit recomputes the race's placements from these."""
    finished_at: datetime

    def race_end(self) -> RaceEnd:
        """The race as its finisher would have rated it: placements by the room's ranking over the stored
        results (the standings rank the same results the same way), dated by its finish."""
        return RaceEnd(self.room_id, self.code, self.variant, self.seed, ranked=True, host_chose_deal=False,
                       placements=placements_from_results(self.results, self.ranking), at=self.finished_at)  # fmt: skip


Position = tuple[datetime, str]
"""Where a walk over finished rooms stands: the last (finished_at, room id) it read."""


@dataclass(frozen=True, slots=True)
class UnratedBatch:
    races: list[LeftUnrated]
    last: Position | None
    """Where the next batch starts; None when this batch ended the walk."""


class UnratedReads(Protocol):
    """Finding races left unrated (implemented by `freecell_arena.store.ratings.RatingStore`)."""

    async def ratings_live_since(self) -> datetime | None:
        """The finish of the first rated race (None: nothing rated yet). Races finished before it were played
        before ratings went live: nothing looks for them."""
        ...

    async def left_unrated(self, since: datetime, before: datetime | None, after: Position | None,
                           limit: int) -> UnratedBatch:  # fmt: skip
        """Finished rooms on a deal the server drew with no rating changes, finished in [since, before), in
        (finished_at, room id) order after `after`, at most `limit` of them, of which the batch holds the
        rateable ones (`core.competition.ratings.rateable`: ranked, two results on one ladder)."""
        ...


class RatingStorePort(RaceRatings, RatingReads, UnratedReads, Protocol):
    """All the server asks of the ratings' store."""
