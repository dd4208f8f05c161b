"""The one scoring table of tournaments, and standings computed from stored results alone.

Standings are never kept as running totals: they are a pure function of the stored races and results (and the
berserks stored before each race began), so every process computes the same table, `freecell-arena audit`
recomputes it, and a result voided later (a moderator's sanction, a fair-play flag) changes it by being left out.

Arena, per race of n players (docs/tournaments.md):

| result | points |
| --- | --- |
| solved, placed p-th among the solvers (1st is fastest by moves, then time) | n - p + 1 |
| not solved (or a berserker's solve after half the time limit, or flagged) | 0 |
| on a streak (the two races before were both wins) | the race's points doubled |
| berserk, solved within half the time limit | +1 (not doubled) |

A win is a race solved in first place. Ties in the table: points, then wins, then races solved, then less total
time on solved races, then who entered first, then player id. Races formed before the arena's end count whenever
they finish.

Cup, per round across every heat, and overall: deals solved (more first), then total moves of the solved deals
(fewer first), then their total time (less first), then who entered first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any

from freecell_arena.core.ports.reads import RaceResult
from freecell_arena.core.records.tournaments.rules import ACTIVE, ARENA, EntryStatus, TournamentRules

STREAK_WINS = 2
"""Two race wins in a row put an entrant on a streak: their next races score double until one is not a win."""
STREAK_FACTOR = 2
BERSERK_BONUS = 1


def place_points(placing: int, players: int) -> int:
    """A solver's points in a race of `players`: the first solver scores `players`, each next one one fewer."""
    return max(1, players - placing + 1)


@dataclass(frozen=True, slots=True)
class StoredRace:
    """A tournament race as the store has it: its room, when it was formed (wave: pairing number or cup round),
    whether it is over, its results, and who berserked before it began."""

    room_id: str
    code: str
    wave: int
    heat: int
    formed_at: datetime
    finished: bool
    results: tuple[RaceResult, ...] = ()
    berserkers: frozenset[str] = frozenset()
    members: tuple[str, ...] = ()
    """Who was seated in it (a member who left before the start has no result, and scores nothing)."""
    finished_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Entrant:
    player_id: str
    name: str
    bot: bool
    entered_at: datetime
    status: EntryStatus = ACTIVE
    status_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a tournament's table. Arena: `points`; cup: `points` is the deals solved."""

    rank: int
    player_id: str
    name: str
    points: int = 0
    races: int = 0
    wins: int = 0
    solved: int = 0
    moves: int = 0
    time_ms: int = 0
    on_streak: bool = False
    status: EntryStatus = ACTIVE
    recent: tuple[int, ...] = ()
    """The points of the entrant's last races, oldest first (arena; cup: 1/0 per round)."""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["recent"] = list(self.recent)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StandingRow:
        return cls(**{**data, "recent": tuple(data.get("recent", ()))})


RECENT = 10


def counts_as_solved(result: RaceResult, berserked: bool, rules: TournamentRules) -> bool:
    if result.outcome != "won" or result.flagged:
        return False
    return not berserked or result.time_ms <= rules.berserk_limit_ms()


def race_placings(race: StoredRace, rules: TournamentRules) -> dict[str, int]:
    """The race's solvers by player, with their placing (1 = first; equal moves and time share a placing)."""
    solvers = [result for result in race.results
               if counts_as_solved(result, result.player_id in race.berserkers, rules)]  # fmt: skip
    solvers.sort(key=lambda result: (result.moves, result.time_ms))
    placings: dict[str, int] = {}
    previous: tuple[int, int] | None = None
    for position, result in enumerate(solvers, start=1):
        key = (result.moves, result.time_ms)
        placings[result.player_id] = placings[solvers[position - 2].player_id] if key == previous else position
        previous = key
    return placings


@dataclass
class _Tally:
    entrant: Entrant
    points: int = 0
    races: int = 0
    wins: int = 0
    solved: int = 0
    moves: int = 0
    time_ms: int = 0
    wins_in_a_row: int = 0
    recent: list[int] = field(default_factory=list)


def counted_race(race: StoredRace, excluded: frozenset[str], void_games: frozenset[str]) -> StoredRace:
    """A race as the table counts it with a moderator's sanctions applied: the results of `excluded` players and
    of void games score nothing, as a flagged win does, so nobody's placing counts them. The race keeps its size
    (its points are those of the race the players raced) and the void game stays one race of its player's."""
    if not excluded and not void_games:
        return race
    return replace(race, results=tuple(
        replace(result, flagged=True) if result.player_id in excluded or result.game_id in void_games else result
        for result in race.results))  # fmt: skip


def _ordered(races: Iterable[StoredRace], excluded: frozenset[str], void_games: frozenset[str]) -> list[StoredRace]:
    return [counted_race(race, excluded, void_games)
            for race in sorted(races, key=lambda race: (race.wave, race.formed_at, race.heat, race.room_id))]


def arena_standings(rules: TournamentRules, entrants: Iterable[Entrant], races: Iterable[StoredRace],
                    excluded: frozenset[str] = frozenset(),
                    void_games: frozenset[str] = frozenset()) -> list[StandingRow]:  # fmt: skip
    """The arena's table from its finished races. `excluded`: players a moderator removed (they leave the table,
    and their results score nothing, so nobody else's placing counts them); `void_games`: games a moderator
    voided (they score nothing)."""
    tallies = {entrant.player_id: _Tally(entrant) for entrant in entrants if entrant.player_id not in excluded}
    for race in _ordered(races, excluded, void_games):
        if not race.finished:
            continue
        placings = race_placings(race, rules)
        players = len(race.results)
        for result in race.results:
            tally = tallies.get(result.player_id)
            if tally is None:
                continue
            tally.races += 1
            placing = placings.get(result.player_id)
            points = 0
            if placing is not None:
                points = place_points(placing, players)
                if tally.wins_in_a_row >= STREAK_WINS:
                    points *= STREAK_FACTOR
                if result.player_id in race.berserkers:
                    points += BERSERK_BONUS
                tally.solved += 1
                tally.moves += result.moves
                tally.time_ms += result.time_ms
            won = placing == 1
            tally.wins += won
            tally.wins_in_a_row = tally.wins_in_a_row + 1 if won else 0
            tally.points += points
            tally.recent = [*tally.recent, points][-RECENT:]
    return _ranked(tallies.values(), arena=True)


def cup_standings(rules: TournamentRules, entrants: Iterable[Entrant], races: Iterable[StoredRace],
                  excluded: frozenset[str] = frozenset(), void_games: frozenset[str] = frozenset(),
                  round_index: int | None = None) -> list[StandingRow]:  # fmt: skip
    """The cup's table across every heat: overall, or of one round (`round_index`)."""
    tallies = {entrant.player_id: _Tally(entrant) for entrant in entrants if entrant.player_id not in excluded}
    for race in _ordered(races, excluded, void_games):
        if not race.finished or (round_index is not None and race.wave != round_index):
            continue
        for result in race.results:
            tally = tallies.get(result.player_id)
            if tally is None:
                continue
            tally.races += 1
            solved = counts_as_solved(result, False, rules)
            if solved:
                tally.solved += 1
                tally.points += 1
                tally.moves += result.moves
                tally.time_ms += result.time_ms
            tally.recent = [*tally.recent, int(solved)][-RECENT:]
    return _ranked(tallies.values(), arena=False)


def _ranked(tallies: Iterable[_Tally], *, arena: bool) -> list[StandingRow]:
    def key(tally: _Tally) -> tuple[Any, ...]:
        tie = (tally.entrant.entered_at, tally.entrant.player_id)
        if arena:
            return (-tally.points, -tally.wins, -tally.solved, tally.time_ms, *tie)
        return (-tally.solved, tally.moves, tally.time_ms, *tie)

    ordered = sorted(tallies, key=key)
    return [
        StandingRow(
            rank=position,
            player_id=tally.entrant.player_id,
            name=tally.entrant.name,
            points=tally.points,
            races=tally.races,
            wins=tally.wins,
            solved=tally.solved,
            moves=tally.moves,
            time_ms=tally.time_ms,
            on_streak=arena and tally.wins_in_a_row >= STREAK_WINS,
            status=tally.entrant.status,
            recent=tuple(tally.recent),
        )
        for position, tally in enumerate(ordered, start=1)
    ]


def standings(rules: TournamentRules, entrants: Iterable[Entrant], races: Iterable[StoredRace],
              excluded: frozenset[str] = frozenset(), void_games: frozenset[str] = frozenset()) -> list[StandingRow]:
    """The tournament's table, whichever its format."""
    table = arena_standings if rules.kind == ARENA else cup_standings
    return table(rules, entrants, races, excluded, void_games)

