"""A race-again series' running tally: which race this is and the wins per player so far.

Plain data, carried forward: the next room of a series stores the tally of the races before it (in its
`RoomRecord`), worked out from the finished room's standings when the next room opens. A room's own result is
added to what it shows once its race is over, so the standings and the tally agree.

A race's result counts for the series without the players the sanctions take out of it
(`core.moderation.sanctions`): a void game is out of the race's rating, and a marked player's results go to the
bots' side, which a friends' tally does not have; so both are left out, and the best placed of the others, if they
won, takes the win. Which players those were is what the store said when a member pressed race again, and the next
room's tally keeps their ids (`uncounted`): the audit recomputes the tally without them and finds each one in the
mod log. A sanction set after the series moved on changes boards and ratings, not a tally already carried forward.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from freecell_arena.protocol.rooms import SeriesScore, SeriesView, Standing


@dataclass(frozen=True, slots=True)
class Tally:
    series_id: str
    """The id of the series' first room."""
    race: int
    """This room's place in the series (1 for the first race)."""
    wins: tuple[tuple[str, str, int], ...] = ()
    """(player id, name, wins) of the races before this one, in the order players first appeared."""
    uncounted: tuple[str, ...] = ()
    """The players of the race before this one whose result did not count (sorted ids)."""

    @classmethod
    def first(cls, room_id: str) -> Tally:
        return cls(room_id, 1)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        wins = tuple((str(player_id), str(name), int(count)) for player_id, name, count in data["wins"])
        uncounted = tuple(str(player_id) for player_id in data.get("uncounted", ()))
        return cls(str(data["series_id"]), int(data["race"]), wins, uncounted)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"series_id": self.series_id, "race": self.race,
                                "wins": [list(row) for row in self.wins]}  # fmt: skip
        if self.uncounted:  # absent when empty: the tallies stored before sanctions counted read the same
            data["uncounted"] = list(self.uncounted)
        return data

    def with_result(self, standings: Iterable[Standing], uncounted: Collection[str] = ()) -> Tally:
        """The tally once this race is over: every player of it is on the tally, its winners one more win each:
        of the players whose result counts (not in `uncounted`), the best placed, if they won (a tie shares the
        win)."""
        standings = list(standings)
        names = {player_id: name for player_id, name, _ in self.wins}
        counts = {player_id: count for player_id, _, count in self.wins}
        counted = [standing for standing in standings if standing.player_id not in uncounted]
        best = min((standing.rank for standing in counted), default=None)
        for standing in standings:
            names.setdefault(standing.player_id, standing.name)
            counts_here = standing.player_id not in uncounted
            won = counts_here and standing.rank == best and standing.outcome == "won"
            counts[standing.player_id] = counts.get(standing.player_id, 0) + won
        return Tally(self.series_id, self.race, tuple((pid, names[pid], counts[pid]) for pid in names))

    def next_race(self, standings: Iterable[Standing], uncounted: Collection[str] = ()) -> Tally:
        """The tally the series' next room starts from, naming the players of this race whose result did not
        count."""
        standings = list(standings)
        done = self.with_result(standings, uncounted)
        played = {standing.player_id for standing in standings}
        return Tally(done.series_id, done.race + 1, done.wins, tuple(sorted(played.intersection(uncounted))))

    def view(self) -> SeriesView:
        ordered = sorted(self.wins, key=lambda row: -row[2])  # stable: ties keep their first appearance
        return SeriesView(
            race=self.race, tally=[SeriesScore(player_id=pid, name=name, wins=wins) for pid, name, wins in ordered]
        )
