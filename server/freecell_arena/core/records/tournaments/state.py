"""A tournament as the store has it, read back whole: what the desk decides over (entries, races, results), its
table as the stored results make it, and the store's port that reads it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol

from freecell_arena.core.ports.records import PlayerRecord, TournamentRecord
from freecell_arena.core.records.sanctioned import NONE, Sanctions
from freecell_arena.core.records.tournaments.rules import (
    ACTIVE,
    ARENA,
    PAUSED,
    WITHDRAWN,
    EntryStatus,
    TournamentPhase,
    TournamentRules,
)
from freecell_arena.core.records.tournaments.scoring import Entrant, StandingRow, StoredRace, standings


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """The tournament's row: its record and the counters processes move by compare-and-set."""

    record: TournamentRecord
    entrants: int = 0
    wave: int = 0
    standings_seq: int = 0
    standings: tuple[StandingRow, ...] = ()
    final: bool = False
    reveal: Mapping[str, Any] | None = None

    @property
    def rules(self) -> TournamentRules:
        return TournamentRules.from_json(self.record.rules)

    @property
    def tournament_id(self) -> str:
        return self.record.tournament_id

    def phase(self, now: datetime) -> TournamentPhase:
        if self.final:
            return "finished"
        return "upcoming" if now < self.record.starts_at else "running"


@dataclass(frozen=True, slots=True)
class TournamentSnapshot:
    """A tournament with its entries and races (and their results), read back in one go."""

    stored: StoredTournament
    entries: Mapping[str, Entrant] = field(default_factory=dict)
    races: tuple[StoredRace, ...] = ()
    sanctions: Sanctions = NONE
    """The moderators' marks on its entrants and voids of its games in force (`core.moderation.sanctions`), read
    with the rest: the table counts results as the boards do (`excluded`, `sanctions.voided`)."""
    banned: frozenset[str] = frozenset()
    """Entrants a ban in force withdraws: never paired or seated again while it holds; their points stay."""
    seated: frozenset[str] = frozenset()
    """Entrants the store seats in a live room as a player (a lobby, a countdown, a race), whichever process holds
    it: a friend's lobby on another process too. Not free: neither paired nor seated in a cup's round."""

    @property
    def rules(self) -> TournamentRules:
        return self.stored.rules

    @property
    def tournament_id(self) -> str:
        return self.stored.tournament_id

    @property
    def excluded(self) -> frozenset[str]:
        """People who count as programs now (a mark in force): they leave a humans' table and nobody's placing
        counts them, as a marked player's wins leave the humans' boards. Bots' tournaments hold bots only, whom a
        mark changes nothing for."""
        return frozenset(player_id for player_id in self.entries if self._counts_as_program(player_id))

    def _counts_as_program(self, player_id: str) -> bool:
        entrant = self.entries.get(player_id)
        return entrant is not None and not entrant.bot and self.sanctions.counts_as_bot(player_id, entrant.bot)

    def sidelined(self, player_id: str) -> bool:
        """Not to be paired or seated: banned, or out of the table by a mark (humans' and bots' events never mix)."""
        return player_id in self.banned or self._counts_as_program(player_id)

    def running_race_of(self, player_id: str) -> StoredRace | None:
        """The player's race that is not over yet (counting down or running)."""
        return next((race for race in self.races if not race.finished and player_id in race.members), None)

    def busy(self) -> set[str]:
        return {player_id for race in self.races if not race.finished for player_id in race.members}

    def last_race_of(self, player_id: str) -> StoredRace | None:
        mine = [race for race in self.races if player_id in race.members]
        return max(mine, key=lambda race: (race.wave, race.formed_at), default=None)

    def absent(self, entrant: Entrant) -> bool:
        """An entrant who made no move in their last race (or left it before the start) is not paired again until
        they come back (`pause_tournament` with `paused` false): a player who went away does not lose race after
        race, nor hold others up. Their table row reads `paused`."""
        race = self.last_race_of(entrant.player_id)
        if race is None or not race.finished or race.finished_at is None:
            return False
        result = next((result for result in race.results if result.player_id == entrant.player_id), None)
        came_back = entrant.status_at is not None and entrant.status_at > race.finished_at
        return (result is None or (result.moves == 0 and result.outcome != "won")) and not came_back

    def status_of(self, entrant: Entrant) -> EntryStatus:
        if entrant.player_id in self.banned:
            return WITHDRAWN
        if entrant.status == ACTIVE and self.rules.kind == ARENA and self.absent(entrant):
            return PAUSED
        return entrant.status

    def over(self, now: datetime) -> bool:
        """Nothing more will happen: an arena past its end (or a cup past its last round) with every race over."""
        rules, record = self.rules, self.stored.record
        if any(not race.finished for race in self.races):
            return False
        if rules.kind == ARENA:
            return now >= record.ends_at
        return self.stored.wave >= rules.rounds and now >= rules.round_at(record.starts_at, rules.rounds - 1)

    def withdrawn(self, player_id: str) -> bool:
        entry = self.entries.get(player_id)
        return entry is not None and entry.status == WITHDRAWN


def table_of(snapshot: TournamentSnapshot) -> list[StandingRow]:
    """The tournament's table from its stored results with the sanctions in force applied, each entrant's status as
    it stands (a pause by absence, a withdrawal by a ban)."""
    entries = [replace(entrant, status=snapshot.status_of(entrant)) for entrant in snapshot.entries.values()]
    return standings(snapshot.rules, entries, snapshot.races, snapshot.excluded, snapshot.sanctions.voided)


@dataclass(frozen=True, slots=True)
class ReadMark:
    """What the desk had done to a tournament when net began to read it (`Tournaments.read_mark`)."""

    adopted: int
    in_flight: bool


class TournamentReads(Protocol):
    """Tournaments as stored (`freecell_arena.store.tournaments`): read whole before each decision."""

    async def get(self, tournament_id: str) -> StoredTournament | None: ...

    async def snapshot(self, tournament_id: str) -> TournamentSnapshot | None: ...

    async def listing(self, now: datetime, bots: bool | None) -> tuple[list[StoredTournament], ...]: ...

    async def live(self, now: datetime, lead_until: datetime) -> list[StoredTournament]: ...

    async def entered(self, player_id: str, limit: int = 20) -> list[StoredTournament]: ...

    async def created_since(self, player_id: str, since: datetime) -> int: ...

    async def with_standings(self, after: str = "", limit: int = 100) -> list[str]: ...

    async def players(self, player_ids: Sequence[str]) -> list[PlayerRecord]: ...

    async def overdue_rooms(self, tournament_id: str, before: datetime) -> list[str]: ...
