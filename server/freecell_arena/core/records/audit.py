"""The audit's checks: a stored ranked game replayed from seed + moves must agree with everything stored about it.

Pure functions over stored records; `freecell_arena.commands.audit` streams the records out of the database in
batches and prints what these return, one mismatch per line. What is checked, per finished ranked game:

- its `rules_version` is one this engine can check (else nothing else is checked for it);
- its moves are numbered 0..n-1, their server timestamps never go backwards and lie between the game's start
  and its finish; `time_ms` is exactly the time from start to finish; a daily game lies inside its day;
- the moves replay on the seed with the game's options, the replay ends as stored (won, stuck, or neither
  for resigned / timeout), a win's finish is its last move's instant, and the stored move counts and cards
  on foundations are the replay's;
- a human's ranked win is flagged exactly when `core.records.fair_play` finds it implausible (re-screened from the
  stored
  moves count and time), and a flagged win sits on the bots' side of its deal;
- its board is the one its variant, deal (or day) and player's population name; a won game's player has an
  entry on it that is this game or a better one.

`flagged` lists the flagged wins: not mismatches, but what an operator reviews.

Per entry: it points at a won ranked game of that player on that board, with the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from freecell_arena.core.clock import elapsed_ms
from freecell_arena.core.ports.records import StoredGame
from freecell_arena.core.records import daily
from freecell_arena.core.records.fair_play import bots_side, implausible_win
from freecell_arena.core.records.leaderboard import expected_board, score
from freecell_arena.engine import RULES_VERSION, Game, ReplayError, UnknownVariantError, variant_by_id

CHECKABLE_RULES = frozenset({RULES_VERSION})


@dataclass(frozen=True, slots=True)
class EntryFacts:
    board: str
    player_id: str
    game_id: str
    player_moves: int
    time_ms: int
    finished_at: datetime
    score: int


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What an entry is checked against: its game's row (result columns may be NULL)."""

    game_id: str
    player_id: str
    board: str | None
    ranked: bool
    outcome: str | None
    player_moves: int | None
    time_ms: int | None
    finished_at: datetime | None


def check_game(stored: StoredGame, bot: bool, entry: EntryFacts | None) -> list[str]:
    """Mismatches of one finished ranked game; `entry` is its player's entry on the game's board, if any."""
    record, result = stored.game, stored.result
    where = f"game {record.game_id}"
    if result is None:
        return []
    if record.rules_version not in CHECKABLE_RULES:
        return [f"{where}: rules_version {record.rules_version!r} cannot be checked by this engine "
                f"(it checks {', '.join(sorted(CHECKABLE_RULES))})"]  # fmt: skip
    problems = _check_times(stored, where)
    try:
        variant = variant_by_id(record.variant)
    except UnknownVariantError:
        return [*problems, f"{where}: unknown variant {record.variant!r}"]
    actions = [move.notation for move in stored.moves]
    try:
        replayed = Game.replay(
            variant, record.seed, actions, autoplay=record.autoplay, undo_allowed=record.undo_allowed
        )
    except ReplayError as error:
        return [*problems, f"{where}: move {error.number - 1} ({error.action!r}) does not replay: {error.reason}"]
    won = replayed.board.is_won()
    if (result.outcome == "won") != won:
        problems.append(f"{where}: stored outcome {result.outcome}, but the replay {'wins' if won else 'does not win'}")
    elif result.outcome == "stuck" and replayed.board.outcome() != "stuck":
        problems.append(f"{where}: stored outcome stuck, but the replay has legal moves left")
    for name, stored_value, replay_value in (
        ("player_moves", result.player_moves, replayed.player_moves),
        ("single_card_moves", result.single_card_moves, replayed.single_card_moves),
        ("cards_on_foundations", result.cards_on_foundations, replayed.cards_on_foundations),
    ):
        if stored_value != replay_value:
            problems.append(f"{where}: {name} stored {stored_value}, the replay gives {replay_value}")
    if result.outcome == "won" and stored.moves and stored.moves[-1].at != result.finished_at:
        problems.append(f"{where}: finished at {result.finished_at.isoformat()}, "
                        f"but its winning move was accepted at {stored.moves[-1].at.isoformat()}")  # fmt: skip
    screened = implausible_win(variant, result.player_moves, result.time_ms) if won and not bot else None
    if (screened is None) != (result.flag is None):
        problems.append(f"{where}: flagged as implausible ({result.flag}), but the screen passes it" if result.flag
                        else f"{where}: a human win no person could play ({screened}) is not flagged")  # fmt: skip
    return problems + _check_board(stored, bot, entry, where)


def flagged(stored: StoredGame) -> str | None:
    """The report line of a flagged win, for the operator's review."""
    result = stored.result
    if result is None or result.flag is None:
        return None
    game = stored.game
    return f"flagged: game {game.game_id} of player {game.player_id} on {game.board}: {result.flag}"


def _check_times(stored: StoredGame, where: str) -> list[str]:
    record, result = stored.game, stored.result
    assert result is not None
    problems = []
    indexes = [move.index for move in stored.moves]
    if indexes != list(range(len(indexes))):
        problems.append(f"{where}: move indexes are not 0..{len(indexes) - 1}")
    previous = record.started_at
    for move in stored.moves:
        if move.at < previous:
            problems.append(f"{where}: move {move.index} at {move.at.isoformat()} is before {previous.isoformat()}")
        previous = max(previous, move.at)
    if previous > result.finished_at:
        problems.append(f"{where}: a move at {previous.isoformat()} is after the finish")
    expected = elapsed_ms(record.started_at, result.finished_at)
    if result.time_ms != expected:
        problems.append(f"{where}: time_ms stored {result.time_ms}, start to finish is {expected}")
    day = record.daily_day
    if day is not None and not daily.opens_at(day) <= record.started_at <= result.finished_at <= daily.closes_at(day):
        problems.append(f"{where}: a game of the {day} daily must start and finish within that day (UTC)")
    return problems


def _check_board(stored: StoredGame, bot: bool, entry: EntryFacts | None, where: str) -> list[str]:
    record, result = stored.game, stored.result
    assert result is not None
    if not record.ranked:
        return [f"{where}: unranked, but it names board {record.board}"] if record.board else []
    board = expected_board(record.variant, record.seed, record.daily_day, bot)
    if result.flag is not None:
        board = bots_side(board)
    if record.board != board:
        return [f"{where}: on board {record.board}, but its deal and player belong on {board}"]
    if result.outcome != "won":
        return []
    if entry is None:
        return [f"{where}: a ranked win with no entry for its player on {board}"]
    mine = (score(result.player_moves, result.time_ms), result.finished_at)
    if entry.game_id == record.game_id:
        stored_values = (entry.player_moves, entry.time_ms, entry.finished_at, entry.score)
        game_values = (result.player_moves, result.time_ms, result.finished_at, mine[0])
        if stored_values != game_values:
            return [f"{where}: its entry on {board} says {_numbers(*stored_values[:3])}, "
                    f"the game {_numbers(*game_values[:3])}"]  # fmt: skip
        return []
    if (entry.score, entry.finished_at) > mine:
        return [f"{where}: better than its player's entry on {board} (game {entry.game_id}), which it should be"]
    return []


def check_entry(entry: EntryFacts, game: GameFacts | None) -> list[str]:
    where = f"entry {entry.board} {entry.player_id}"
    if game is None:
        return [f"{where}: its game {entry.game_id} does not exist"]
    if not game.ranked or game.board != entry.board or game.player_id != entry.player_id:
        return [f"{where}: game {game.game_id} is not a ranked game of this player on this board"]
    if game.outcome != "won":
        return [f"{where}: game {game.game_id} was not won ({game.outcome})"]
    if (game.player_moves, game.time_ms, game.finished_at) != (entry.player_moves, entry.time_ms, entry.finished_at):
        return [f"{where}: says {_numbers(entry.player_moves, entry.time_ms, entry.finished_at)}, game "
                f"{game.game_id} {_numbers(game.player_moves, game.time_ms, game.finished_at)}"]  # fmt: skip
    if entry.score != score(entry.player_moves, entry.time_ms):
        return [f"{where}: score {entry.score} is not the score of {entry.player_moves} moves, {entry.time_ms} ms"]
    return []


def _numbers(moves: object, time_ms: object, finished_at: datetime | None) -> str:
    instant = finished_at.isoformat() if finished_at else None
    return f"{moves} moves, {time_ms} ms, finished {instant}"
