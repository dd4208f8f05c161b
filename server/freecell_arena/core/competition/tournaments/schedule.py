"""The operator's recurring tournaments, created ahead from configuration, and a tournament's record as made.

The schedule is JSON (the setting `tournament_schedule`, or a file it names with `@path`): a list of entries,
each a recurring tournament (docs/tournaments.md):

    [{"name": "Hourly FreeCell Arena", "kind": "arena", "every": "hourly", "minute": 0, "duration_min": 30},
     {"name": "Daily Cup", "kind": "cup", "every": "daily", "hour": 20, "rounds": 5},
     {"name": "Weekly Bot Arena", "kind": "arena", "entry": "bots", "every": "weekly", "weekday": 6, "hour": 18}]

Every occurrence within the horizon (a day and more, so the next day's are listed) is created ahead, once: its
`schedule_key` (the entry's name and the start) is unique in the store, so processes that create it at once
agree on one.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from freecell_arena.core.competition.tournaments.cup import cup_deals
from freecell_arena.core.identity import new_id
from freecell_arena.core.ports.records import TournamentRecord
from freecell_arena.core.records.tournaments.rules import ARENA, TournamentKind, TournamentRules
from freecell_arena.engine import variant_by_id

DEFAULT_HORIZON = timedelta(hours=26)


class ScheduleEntry(BaseModel):
    """One recurring tournament of the operator's schedule."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    kind: TournamentKind = "arena"
    variant: str = "freecell"
    every: Literal["hourly", "daily", "weekly"] = "hourly"
    minute: int = Field(default=0, ge=0, le=59)
    hour: int = Field(default=0, ge=0, le=23, description="daily and weekly")
    weekday: int = Field(default=0, ge=0, le=6, description="weekly: 0 is Monday")
    entry: Literal["public", "bots"] = "public"
    ranked: bool = True
    cap: int = Field(default=1000, ge=2, le=100_000)
    time_limit_s: int = Field(default=300, ge=30, le=3600)
    duration_min: int = Field(default=30, ge=1, le=600)
    race_size: int = Field(default=4, ge=2, le=6)
    berserk: bool = True
    late_entry_min: int = Field(default=10, ge=0, le=600)
    rounds: int = Field(default=5, ge=1, le=24)
    round_interval_min: int = Field(default=10, ge=1, le=240)
    heat_size: int = Field(default=16, ge=2, le=64)

    def rules(self) -> TournamentRules:
        return TournamentRules(
            kind=self.kind, variant=self.variant, time_limit_s=self.time_limit_s, ranked=self.ranked,
            entry=self.entry, cap=self.cap, duration_s=self.duration_min * 60, race_size=self.race_size,
            berserk=self.berserk, late_entry_s=self.late_entry_min * 60, rounds=self.rounds,
            round_interval_s=self.round_interval_min * 60, heat_size=self.heat_size,
        )  # fmt: skip

    def occurrences(self, since: datetime, until: datetime) -> list[datetime]:
        """The starts in [since, until)."""
        step = {"hourly": timedelta(hours=1), "daily": timedelta(days=1), "weekly": timedelta(weeks=1)}[self.every]
        anchor = since.astimezone(UTC).replace(minute=self.minute, second=0, microsecond=0)
        if self.every != "hourly":
            anchor = anchor.replace(hour=self.hour)
        if self.every == "weekly":
            anchor -= timedelta(days=anchor.weekday() - self.weekday)
        while anchor > since:
            anchor -= step
        starts = []
        while anchor < until:
            if anchor >= since:
                starts.append(anchor)
            anchor += step
        return starts


SCHEDULE: TypeAdapter[list[ScheduleEntry]] = TypeAdapter(list[ScheduleEntry])


def parse_schedule(text: str) -> list[ScheduleEntry]:
    """The schedule from its setting: JSON, or `@path` of a JSON file; empty: no schedule. Raises ValueError."""
    text = text.strip()
    if not text:
        return []
    if text.startswith("@"):
        text = Path(text[1:]).read_text()
    entries = SCHEDULE.validate_python(json.loads(text))
    for entry in entries:
        variant_by_id(entry.variant)  # an unknown variant is refused at start, not at the first occurrence
    return entries


def planned(entries: list[ScheduleEntry], now: datetime, horizon: timedelta = DEFAULT_HORIZON) -> (
    list[tuple[ScheduleEntry, datetime, str]]
):
    """Every occurrence to create now: (entry, start, schedule key), the ones already stored are refused once."""
    return [(entry, start, f"{entry.name}@{start.isoformat()}")
            for entry in entries for start in entry.occurrences(now, now + horizon)]  # fmt: skip


def tournament_record(name: str, rules: TournamentRules, starts_at: datetime, now: datetime, secret: bytes, *,
                      created_by: str | None = None, schedule_key: str | None = None,
                      link_code: str | None = None) -> TournamentRecord:  # fmt: skip
    """A new tournament; a cup's deals are committed to now, before anyone can enter."""
    tournament_id = new_id("t")
    commitment = None
    if rules.kind != ARENA:
        commitment = cup_deals(secret, tournament_id, rules.variant, rules.rounds, rules.seed).commitment
    return TournamentRecord(
        tournament_id=tournament_id, name=name, kind=rules.kind, variant=rules.variant, rules=rules.to_json(),
        starts_at=starts_at, ends_at=rules.ends_at(starts_at), created_at=now, created_by=created_by,
        schedule_key=schedule_key, link_code=link_code, commitment=commitment,
    )  # fmt: skip

