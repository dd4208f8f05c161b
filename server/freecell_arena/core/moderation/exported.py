"""A finished game as open data (`protocol.export.ExportGame`), with the sanctions in force applied.

Here rather than in records because what a game counts as is moderation's word: the board comes from
`sanctions.game_board`, the same rule the leaderboards, the rating sweep and the audit use, so a dump says of a
void game or a marked player's win exactly what the boards make of it, and a lift changes both together.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from freecell_arena.core.moderation.sanctions import game_board
from freecell_arena.core.ports.reads import Disclosure, ExportFilter
from freecell_arena.core.ports.records import StoredGame
from freecell_arena.core.records import daily
from freecell_arena.core.records.ratings import RatingChange
from freecell_arena.core.records.sanctioned import Sanctions
from freecell_arena.engine import variant_by_id
from freecell_arena.protocol.export import ExportGame, ExportRating

MICROSOFT = "microsoft"
"""The shuffle whose seeds are Microsoft FreeCell deal numbers (`engine.shuffle`)."""


@dataclass(frozen=True, slots=True)
class ExportRow:
    """A finished public game as the export reads it: the game with its moves and result, where it was played, and
    its race's rating change for the player (as stored: `store.ratings.change_of`)."""

    game: StoredGame
    bot: bool
    room_code: str | None
    tournament_id: str | None
    rating: RatingChange | None


class ExportReader(Protocol):
    """The export's reads (`freecell_arena.store.exports`): public finished games in keyset batches."""

    async def sanctions(self) -> Sanctions: ...

    def games(self, disclosure: Disclosure, wanted: ExportFilter) -> AsyncIterator[list[ExportRow]]:
        """Every public finished game `wanted` names, oldest first, a batch at a time."""
        ...

    async def newest(
        self, disclosure: Disclosure, player_id: str, limit: int, before: tuple[datetime, str] | datetime | None = None
    ) -> tuple[list[ExportRow], bool]:
        """Up to `limit` of the player's public finished games, newest first, and whether there are more."""
        ...


def disclosure(now: datetime) -> Disclosure:
    """What is public at `now` (the store turns it into the export reads' conditions)."""
    return Disclosure(now, daily.today(now))


def exported(row: ExportRow, sanctions: Sanctions) -> ExportGame:
    """The game's line. Raises ValueError for a game without a result (the reads hold only finished ones)."""
    game, result = row.game.game, row.game.result
    if result is None:
        raise ValueError(f"game {game.game_id} is not finished")
    won = result.outcome == "won"
    board = None
    if game.ranked:
        board = game_board(game.variant, game.seed, game.daily_day, bot=row.bot, flagged=result.flag is not None,
                           won=won, player_id=game.player_id, game_id=game.game_id, sanctions=sanctions)  # fmt: skip
    return ExportGame(
        game_id=game.game_id,
        variant=game.variant,
        seed=game.seed,
        deal=game.seed if variant_by_id(game.variant).shuffle == MICROSOFT else None,
        rules_version=game.rules_version,
        autoplay=game.autoplay,
        undo_allowed=game.undo_allowed,
        moves=[move.notation for move in row.game.moves],
        result=result.outcome,
        player_moves=result.player_moves,
        cards_on_foundations=result.cards_on_foundations,
        time_ms=result.time_ms,
        started_at=game.started_at,
        finished_at=result.finished_at,
        player_id=game.player_id,
        bot=row.bot,
        counts_as_bot=sanctions.counts_as_bot(game.player_id, row.bot),
        ranked=game.ranked,
        board=board,
        void=game.game_id in sanctions.voided,
        daily=game.daily_day,
        room_code=row.room_code,
        tournament_id=row.tournament_id,
        rating=_rating(row.rating),
    )


def _rating(change: RatingChange | None) -> ExportRating | None:
    if change is None:
        return None
    return ExportRating(ladder=str(change.ladder), before=change.before.display, after=change.after.display,
                        races=change.after.races)  # fmt: skip
