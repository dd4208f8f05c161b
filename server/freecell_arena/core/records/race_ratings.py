"""A finished race's ratings, settled once it is over: what the race was, whether it counts, and what each
player is told.

Why apart from `races`: finishing a race is a timer's quick change of memory (the standings go out at once);
rating it reads and writes the ratings in the store, which may take a few round trips and retries
(`core.records.ratings.settle_race`). So `Races.finish_race` only describes the ended race (`RaceEnd`, carried by
the
finish's `Effect`), and once that finish is durable the adapter (net) runs `rate_finished_race` in the
background: never on a move's path, and never before the finish is stored (a finish another process wrote
first is its to rate). Exactly once across processes is the ledger's compare-and-set; a process that lost the
race to rate it reads the stored changes back, so every member hears the same numbers whichever process
rated them.

A race rates nobody when it is not `rateable` (unranked, a host-chosen deal, fewer than two players on a ladder)
or when nobody made progress in it (`made_progress`: nobody ended with more cards home than the deal opened with,
whatever the order the players gave up in): the same rule for the live rater, the sweep of races left unrated and
the audit (`counts_for_ratings`).

Also here: the read side of ratings (the boards and a player's history) as a port, with the wire views.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, Protocol

from freecell_arena.core.ports.reads import RaceResult
from freecell_arena.core.records.ratings import (
    Ladder,
    Placement,
    Rating,
    RatingChange,
    RatingLedger,
    placements_from_results,
    rateable,
    settle_race,
)
from freecell_arena.engine import Game, variant_by_id
from freecell_arena.protocol.profiles import RaceRatingsMessage, RatingChangeView, RatingView
from freecell_arena.protocol.rooms import Standing


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
    autoplay: bool = True
    """The room's autoplay: with it, the deal may open with cards home already (`made_progress`)."""

    @property
    def rated(self) -> bool:
        players = [(placement.bot, placement.cards_home) for placement in self.placements]
        deal = Deal(self.variant, self.seed, self.autoplay)
        return not self.host_chose_deal and counts_for_ratings(self.ranked, deal, players)


class Deal(NamedTuple):
    """What a race's players were dealt: enough to know the cards home at its opening."""

    variant: str
    seed: int
    autoplay: bool


def made_progress(deal: Deal, cards_home: Iterable[int]) -> bool:
    """Whether anyone made progress in a race: ended with more cards on the foundations than the deal opened with
    (a win puts every card there). The opening is the cards the room's autoplay sends home before the first move
    (none without autoplay); a race where nobody got beyond it is one where nobody achieved anything, however the
    players left it, and it changes no rating."""
    game = Game(variant_by_id(deal.variant), deal.seed, autoplay=deal.autoplay)
    return any(cards > game.cards_on_foundations for cards in cards_home)


def counts_for_ratings(ranked: bool, deal: Deal, players: Collection[tuple[bool, int]]) -> bool:
    """Whether a finished race on a deal the server drew moves ratings, from each player's (bot, cards home):
    ranked, two or more players on one ladder, and someone made progress (`made_progress`)."""
    on_one_ladder = max(sum(robot is bot for robot, _ in players) for bot in (False, True))
    return rateable(ranked=ranked, server_drawn_deal=True, players=on_one_ladder) and made_progress(
        deal, [cards for _, cards in players])


def placements_of(standings: Sequence[Standing], bots: Collection[str]) -> tuple[Placement, ...]:
    """The room's ranked standings as placements (equal ranks stay ties; resigned and timed out come last)."""
    robots = set(bots)
    return tuple(Placement(row.player_id, row.rank, row.player_id in robots, row.cards_on_foundations)
                 for row in standings)  # fmt: skip


def place_in_race(results: Sequence[RaceResult], ranking: str, started_at: datetime,
                  player_id: str) -> tuple[int, int] | None:  # fmt: skip
    """A player's place in a finished race and the number of players placed, from its stored results by the rule
    of its start (what a history shows); None when the player has no result there."""
    placements = placements_from_results(results, ranking, started_at)
    return next(((placement.rank, len(placements)) for placement in placements if placement.player_id == player_id),
                None)  # fmt: skip


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
    autoplay: bool
    results: tuple[RaceResult, ...]
    """Every game of the room with its stored result: the audit recomputes the race's placements from these."""
    started_at: datetime
    """The race's start: which ranking rule it was played under (`core.records.ranking.ties_non_finishers`)."""
    finished_at: datetime

    def race_end(self) -> RaceEnd:
        """The race as its finisher would have rated it: placements by the room's ranking over the stored
        results (the standings rank the same results the same way), dated by its finish."""
        placements = placements_from_results(self.results, self.ranking, self.started_at)
        return RaceEnd(self.room_id, self.code, self.variant, self.seed, ranked=True, host_chose_deal=False,
                       placements=placements, at=self.finished_at, autoplay=self.autoplay)  # fmt: skip


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
        ones that count (`counts_for_ratings`: ranked, two results on one ladder, a card home)."""
        ...


class RatingStorePort(RaceRatings, RatingReads, UnratedReads, Protocol):
    """All the server asks of the ratings' store."""
