"""The audit of what players see: every stored figure the server derives, against its recomputation.

`core.records.audit` checks the games and the leaderboard entries; these functions check the figures derived from
them and
stored for reading, which a player sees on the boards, the player pages, a review or a series' tally. Pure
functions over stored values; `freecell_arena.commands.audit` reads them out in batches and prints what these
return, one mismatch per line:

- `rating`: the current rating of each player on each ladder (`ratings`: the rating boards, the player pages) is
  where the player's rated races, replayed in order, leave it (mu, sigma, races, and the board's `ordinal`), and
  every player rated has one;
- `daily`: a closed day's final ranks (`daily_ranks`) are its board's entries ranked against the day's par;
- `season`: each season table (`season_standings`, 7 and 30 days) is the one the final ranks of its window give,
  through the variant's last closed day;
- `series`: a race-again room's tally (`rooms.series`: the race number and each player's wins so far) is the
  previous room's tally with the previous race's result added;
- `par`: a deal's stored par line (`deal_pars`, what a review shows) replays to a win; a daily's revealed solution
  wins its deal in its `par` moves, and its seed and nonce hash to the commitment published before the day opened.

Streaks and calendars are not stored (`core.records.streaks` derives them from the games on each read), so there is
nothing of theirs to compare.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime

from freecell_arena.core.ports.reads import RaceResult
from freecell_arena.core.ports.records import DailyRecord
from freecell_arena.core.records import daily
from freecell_arena.core.records.ratings import SAME_RATING, Ladder, Rating, placements_from_results
from freecell_arena.core.records.season import (
    BoardRow,
    FinalRank,
    SeasonLine,
    SeasonTotals,
    final_ranks,
    season_table,
    window_start,
)
from freecell_arena.core.records.series_tally import Tally
from freecell_arena.engine import Game, ReplayError, UnknownVariantError, variant_by_id


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A row of `ratings`."""

    variant: str
    ladder: Ladder
    player_id: str
    mu: float
    sigma: float
    ordinal: float
    races: int


def check_rating(stored: StoredRating, recomputed: Rating | None) -> list[str]:
    """A player's current rating against where their rated races leave it."""
    where = f"rating {stored.variant} {stored.ladder} {stored.player_id}"
    shown = Rating(stored.mu, stored.sigma, stored.races)
    if recomputed is None:
        return [f"{where}: stored {_rating(shown)}, but no rated race of theirs"]
    problems = []
    if not shown.same_as(recomputed):
        problems.append(f"{where}: stored {_rating(shown)}, their rated races give {_rating(recomputed)}")
    if abs(stored.ordinal - shown.ordinal) > SAME_RATING:
        problems.append(f"{where}: ordinal stored {stored.ordinal:.6f}, mu - 3 sigma is {shown.ordinal:.6f}")
    return problems


def missing_ratings(recomputed: Mapping[tuple[str, str, Ladder], Rating],
                    stored: set[tuple[str, str, Ladder]]) -> list[str]:  # fmt: skip
    """Players their rated races rate who have no current rating stored (the boards leave them out)."""
    return [f"rating {variant} {ladder} {player_id}: rated races give {_rating(rating)}, but no rating is stored"
            for (variant, player_id, ladder), rating in sorted(recomputed.items())
            if (variant, player_id, ladder) not in stored]  # fmt: skip


def _rating(rating: Rating) -> str:
    return f"mu={rating.mu:.6f} sigma={rating.sigma:.6f} races={rating.races}"


def check_daily_ranks(variant: str, day: date, bots: bool, par: int, board: Iterable[BoardRow],
                      stored: Iterable[FinalRank]) -> list[str]:  # fmt: skip
    """A closed day's stored final ranks against its board's entries ranked against its par."""
    where = f"daily {variant} {day} {'bots' if bots else 'humans'}"
    return _compare(where, {rank.player_id: _rank(rank) for rank in final_ranks(board, par)},
                    {rank.player_id: _rank(rank) for rank in stored}, "the board's entries")  # fmt: skip


def _rank(rank: FinalRank) -> tuple[object, ...]:
    return (rank.game_id, rank.rank, rank.player_moves, rank.time_ms, rank.moves_over_par)


@dataclass(frozen=True, slots=True)
class DayRank:
    """A final rank of one day, as a season table sums it."""

    day: date
    player_id: str
    rank: int
    moves_over_par: int


@dataclass(frozen=True, slots=True)
class StoredSeasonLine:
    """A row of `season_standings`: the table's last day, the line, and the average rank as stored."""

    through: date
    line: SeasonLine
    average_rank: float


def check_season_table(variant: str, bots: bool, days: int, through: date | None, ranks: Iterable[DayRank],
                       stored: Iterable[StoredSeasonLine]) -> list[str]:  # fmt: skip
    """A stored season table against the one the final ranks of the `days` days through `through` (the variant's
    last closed day; None: none is closed, so no table) give: the same lines, all of them through that day."""
    where = f"season {variant} {'bots' if bots else 'humans'} {days} days"
    totals: dict[str, SeasonTotals] = {}
    for rank in ranks:
        if through is not None and window_start(through, days) <= rank.day <= through:
            was = totals.get(rank.player_id, SeasonTotals(rank.player_id, 0, 0, 0))
            totals[rank.player_id] = SeasonTotals(
                rank.player_id, was.wins + 1, was.moves_over_par + rank.moves_over_par, was.rank_sum + rank.rank
            )
    stored = list(stored)
    problems = [f"{where}: a table through {kept} is kept, the last closed day is {through or 'none'}"
                for kept in sorted({row.through for row in stored if row.through != through})]  # fmt: skip
    expected = {line.player_id: _season(line, line.average_rank) for line in season_table(totals.values())}
    shown = {row.line.player_id: _season(row.line, row.average_rank) for row in stored if row.through == through}
    return problems + _compare(where, expected, shown, "the final ranks of its days")


def _season(line: SeasonLine, average_rank: float) -> tuple[object, ...]:
    return (line.position, line.rank, line.wins, line.moves_over_par, line.rank_sum, average_rank)


def _compare(where: str, expected: Mapping[str, tuple[object, ...]], stored: Mapping[str, tuple[object, ...]],
             source: str) -> list[str]:  # fmt: skip
    """Row by row (keyed by player): what is stored and not derived, derived and not stored, or different."""
    problems = []
    for player_id in sorted(expected.keys() | stored.keys()):
        mine, theirs = expected.get(player_id), stored.get(player_id)
        if mine is None:
            problems.append(f"{where}: {player_id} is stored ({_values(theirs)}), {source} leave them out")
        elif theirs is None:
            problems.append(f"{where}: {player_id} is missing ({source} give {_values(mine)})")
        elif mine != theirs:
            problems.append(f"{where}: {player_id} stored {_values(theirs)}, {source} give {_values(mine)}")
    return problems


def _values(row: tuple[object, ...] | None) -> str:
    return ", ".join(str(value) for value in row or ())


def check_series_tally(code: str, tally: Tally, previous_id: str, previous: Tally | None, results: Iterable[RaceResult],
                       ranking: str, started_at: datetime | None,
                       sanctioned: Collection[str] = ()) -> list[str]:  # fmt: skip
    """A race-again room's stored tally against the previous room's tally (None: the series' first race) with the
    previous race's result added: its winners (first among the results that count, and won) one more win each,
    everyone of it on the tally. The previous race is ranked by the rule of its start
    (`core.records.ranking.ties_non_finishers`). The players the tally says did not count (`Tally.uncounted`) are
    left out of the ranking, and each must be one the mod log marked or whose game it voided (`sanctioned`)."""
    results = list(results)
    problems = [f"series room {code}: it leaves {player_id}'s result out of race {tally.race - 1}, and the mod log "
                f"never marked them nor voided their game in it"
                for player_id in tally.uncounted if player_id not in sanctioned]  # fmt: skip
    before = previous or Tally.first(previous_id)
    wins = {player_id: count for player_id, _, count in before.wins}
    for result in results:  # everyone of the race is on the tally, those it leaves out too
        wins.setdefault(result.player_id, 0)
    counted = [result for result in results if result.player_id not in tally.uncounted]
    won = {result.player_id for result in counted if result.outcome == "won"}
    for placement in placements_from_results(counted, ranking, started_at):
        wins[placement.player_id] += placement.rank == 1 and placement.player_id in won
    expected = (before.series_id, before.race + 1, wins)
    stored = (tally.series_id, tally.race, {player_id: count for player_id, _, count in tally.wins})
    if stored == expected:
        return problems
    return [*problems, f"series room {code}: stored race {stored[1]} of series {stored[0]}, wins {_wins(stored[2])}; "
            f"the races before give race {expected[1]} of series {expected[0]}, wins {_wins(expected[2])}"]  # fmt: skip


def _wins(wins: Mapping[str, int]) -> str:
    return "{" + ", ".join(f"{player_id}: {count}" for player_id, count in sorted(wins.items())) + "}"


def check_par_line(variant_id: str, seed: int, line: Iterable[str]) -> list[str]:
    """A deal's solved par (what a review shows, `len(line)` moves) replays to a win with autoplay on."""
    try:
        game = Game.replay(variant_by_id(variant_id), seed, list(line), autoplay=True)
    except (ReplayError, UnknownVariantError):
        return [f"par {variant_id} {seed}: the stored line does not replay"]
    return [] if game.board.is_won() else [f"par {variant_id} {seed}: the stored line does not win the deal"]


def check_daily_deal(record: DailyRecord) -> list[str]:
    """A daily's par is a real solution of its deal, and its deal is the one committed to before it opened."""
    where = f"daily {record.variant} {record.day}"
    problems = []
    if not daily.verify_solution(record.variant, record.seed, record.solution, record.par):
        problems.append(f"{where}: its solution does not win the deal in par {record.par} moves")
    if not daily.verify_reveal(record.variant, record.day, record.seed, record.nonce, record.commitment):
        problems.append(f"{where}: its seed and nonce do not hash to its published commitment")
    return problems
