"""The audit with the mod log applied: where sanctioned games belong, and the sanctions the log leaves in force.

`freecell-arena audit` checks every stored game, entry and rating against its recomputation; these are the parts
that know about sanctions, so the audit's own checks stay as they are and take them as a rule
(`core.records.audit.BoardRule`) or as counted results (`sanctions.counted_results`). A result a person put back
on a board by hand is then a mismatch like any other.
"""

from __future__ import annotations

from collections.abc import Iterable

from freecell_arena.core.moderation.sanctions import (
    InForce,
    LoggedAction,
    board_allowed,
    game_board,
    in_force,
)
from freecell_arena.core.ports.records import GameRecord
from freecell_arena.core.records.sanctioned import Sanctions


class SanctionedBoards:
    """`core.records.audit.BoardRule` over the sanctions in force."""

    def __init__(self, sanctions: Sanctions) -> None:
        self.sanctions = sanctions

    def touches(self, game: GameRecord) -> bool:
        return game.player_id in self.sanctions.marked or game.game_id in self.sanctions.voided

    def expected(self, game: GameRecord, *, won: bool, flagged: bool, bot: bool) -> str | None:
        return game_board(game.variant, game.seed, game.daily_day, bot=bot, flagged=flagged, won=won,
                          player_id=game.player_id, game_id=game.game_id, sanctions=self.sanctions)  # fmt: skip

    def allowed(self, stored: str | None, game: GameRecord, *, won: bool, flagged: bool, bot: bool) -> bool:
        return board_allowed(stored, game.variant, game.seed, game.daily_day, bot=bot, flagged=flagged, won=won,
                             player_id=game.player_id, game_id=game.game_id, sanctions=self.sanctions)  # fmt: skip


def check_in_force(log: Iterable[LoggedAction], stored: Iterable[InForce]) -> list[str]:
    """The `sanctions` table against the mod log replayed: a sanction deleted or added by hand is a mismatch."""
    replayed = in_force(log)
    table = {held.action_id: held for held in stored}
    lines = []
    for action_id in sorted(replayed.keys() | table.keys()):
        mine, theirs = replayed.get(action_id), table.get(action_id)
        if mine is None:
            lines.append(f"sanction #{action_id}: in force in the sanctions table, but the mod log lifted it or "
                         "never set it")  # fmt: skip
        elif theirs is None:
            lines.append(f"sanction #{action_id}: the mod log holds {mine.kind} of {mine.player_id} in force, but the "
                         "sanctions table lacks it")  # fmt: skip
        elif (mine.player_id, mine.kind, mine.game_id) != (theirs.player_id, theirs.kind, theirs.game_id):
            lines.append(f"sanction #{action_id}: the table says {theirs.kind} of {theirs.player_id}, the mod log "
                         f"{mine.kind} of {mine.player_id}")  # fmt: skip
    return lines
