"""The sanctions in force as every derived number counts them: who is marked (counts as a program), which games
are void (count nowhere).

A value of its own, below moderation: the records derived from results (a tournament's table, a race's rating,
a board) take it as they are recomputed, and the store reads it with them; the mod log that puts it in force,
and what each number makes of it, are moderation's (`core.moderation.sanctions`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sanctions:
    """What derived numbers need of the sanctions in force: who is marked, which games are void."""

    marked: frozenset[str] = frozenset()
    voided: frozenset[str] = frozenset()
    """Game ids."""

    def counts_as_bot(self, player_id: str, bot: bool) -> bool:
        return bot or player_id in self.marked


NONE = Sanctions()
