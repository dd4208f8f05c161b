"""What a tournament is: its format and every setting it was created with, as one value stored with it.

A tournament is created once (from the operator's schedule, or by a saved player for friends) and never
changes its rules afterwards; everything else (entries, races, standings) is stored beside it and read back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from datetime import datetime, timedelta
from typing import Any, Literal

TournamentKind = Literal["arena", "cup"]
EntryRule = Literal["public", "link", "bots"]
"""Who may enter: anyone, anyone holding the link's code, or bots only (the bots' ladder; humans never)."""
EntryStatus = Literal["active", "paused", "withdrawn"]
TournamentPhase = Literal["upcoming", "running", "finished"]

ARENA: TournamentKind = "arena"
CUP: TournamentKind = "cup"
ACTIVE: EntryStatus = "active"
PAUSED: EntryStatus = "paused"
WITHDRAWN: EntryStatus = "withdrawn"


@dataclass(frozen=True, slots=True)
class TournamentRules:
    """Every setting of a tournament. Arena: `duration_s`, `race_size`, `berserk`, `late_entry_s`, `gather_s`.
    Cup: `rounds`, `round_interval_s`, `heat_size`. Both: `time_limit_s` per race, `ranked`, `entry`, `cap`."""

    kind: TournamentKind
    variant: str
    time_limit_s: int
    ranked: bool
    entry: EntryRule = "public"
    cap: int = 1000
    duration_s: int = 1800
    race_size: int = 4
    berserk: bool = True
    late_entry_s: int = 600
    """Arena: entering stays open this long after the start (cup: entering closes at the first round)."""
    gather_s: float = 3.0
    """Arena: a free entrant waits at most this long for others before a smaller race is formed."""
    rounds: int = 3
    round_interval_s: int = 600
    heat_size: int = 16
    seed: int | None = None
    """A private tournament on a chosen deal: every race is on it, and it is never rated."""
    countdown_s: float = 5.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentRules:
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})

    @property
    def bots_only(self) -> bool:
        return self.entry == "bots"

    def rated(self) -> bool:
        """A chosen deal is never rated, whatever was asked (its players could have studied it)."""
        return self.ranked and self.seed is None

    def ends_at(self, starts_at: datetime) -> datetime:
        """Arena: no race is formed after this (races formed before finish under their own limit). Cup: the last
        round's time limit runs out."""
        if self.kind == ARENA:
            return starts_at + timedelta(seconds=self.duration_s)
        return self.round_at(starts_at, self.rounds - 1) + timedelta(seconds=self.time_limit_s)

    def round_at(self, starts_at: datetime, round_index: int) -> datetime:
        """A cup's round `round_index` (from 0) deals at this instant."""
        return starts_at + timedelta(seconds=self.round_interval_s * round_index)

    def entry_closes_at(self, starts_at: datetime) -> datetime:
        if self.kind == ARENA:
            return min(starts_at + timedelta(seconds=self.late_entry_s), self.ends_at(starts_at))
        return starts_at

    def berserk_limit_ms(self) -> int:
        """A berserker's race clock: half the race's time limit."""
        return self.time_limit_s * 500
