"""A race-again series' running tally: which race this is and the wins per player so far.

Plain data, carried forward: the next room of a series stores the tally of the races before it (in its
`RoomRecord`), worked out from the finished room's standings when the next room opens. A room's own result is
added to what it shows once its race is over, so the standings and the tally agree.
"""

from __future__ import annotations

from collections.abc import Iterable
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

    @classmethod
    def first(cls, room_id: str) -> Tally:
        return cls(room_id, 1)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        wins = tuple((str(player_id), str(name), int(count)) for player_id, name, count in data["wins"])
        return cls(str(data["series_id"]), int(data["race"]), wins)

    def to_json(self) -> dict[str, Any]:
        return {"series_id": self.series_id, "race": self.race, "wins": [list(row) for row in self.wins]}

    def with_result(self, standings: Iterable[Standing]) -> Tally:
        """The tally once this race is over: every player of it is on the tally, its winners (first and won, a
        tie shares the win) one more win each."""
        names = {player_id: name for player_id, name, _ in self.wins}
        counts = {player_id: count for player_id, _, count in self.wins}
        for standing in standings:
            names.setdefault(standing.player_id, standing.name)
            won = standing.rank == 1 and standing.outcome == "won"
            counts[standing.player_id] = counts.get(standing.player_id, 0) + won
        return Tally(self.series_id, self.race, tuple((pid, names[pid], counts[pid]) for pid in names))

    def next_race(self, standings: Iterable[Standing]) -> Tally:
        """The tally the series' next room starts from."""
        done = self.with_result(standings)
        return Tally(done.series_id, done.race + 1, done.wins)

    def view(self) -> SeriesView:
        ordered = sorted(self.wins, key=lambda row: -row[2])  # stable: ties keep their first appearance
        return SeriesView(
            race=self.race, tally=[SeriesScore(player_id=pid, name=name, wins=wins) for pid, name, wins in ordered]
        )
