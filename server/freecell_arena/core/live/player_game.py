"""One player's copy of a race's deal: the engine's `Game` plus who, when, and how it ended."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NamedTuple

from freecell_arena.core.clock import elapsed_ms
from freecell_arena.core.ports.records import BoardClaim, GameRecord, ResultRecord
from freecell_arena.core.records.fair_play import bots_side, implausible_win, is_human_board
from freecell_arena.engine import RULES_VERSION, Counts, Game, Variant
from freecell_arena.engine.turns import MoveFields, TurnReport, take_turn
from freecell_arena.engine.view import player_view
from freecell_arena.protocol.board import GameView
from freecell_arena.protocol.play import MoveAcceptedMessage
from freecell_arena.protocol.rooms import Progress
from freecell_arena.protocol.trusted import TrustedEncoder
from freecell_arena.protocol.vocabulary import Outcome, PlayerStatus

OUTCOME_SENTENCES: dict[Outcome, str] = {
    "won": "You won: every card is on the foundations.",
    "resigned": "You resigned.",
    "stuck": "No legal move is left: the game is over.",
    "timeout": "The race's time limit passed.",
}


@dataclass(frozen=True, slots=True)
class Finish:
    outcome: Outcome
    time_ms: int
    at: datetime


@dataclass(frozen=True, slots=True)
class GameMark:
    """A game before its player's action (`PlayerGame.mark`): how many actions it had and how it stood."""

    game: PlayerGame
    actions: int
    finish: Finish | None
    resigned: bool

    def __init__(self, game: PlayerGame, actions: int, finish: Finish | None, resigned: bool) -> None:
        """Spelled out, so the compiled build compiles it: one is made every action (`engine.game.Turn` says why)."""
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "actions", actions)
        object.__setattr__(self, "finish", finish)
        object.__setattr__(self, "resigned", resigned)

    def take_back(self) -> None:
        self.game.take_back(self)


MOVE_ACCEPTED = TrustedEncoder(MoveAcceptedMessage)
"""The reply to every move, built straight into its wire form (server/freecell_arena/protocol/trusted.py says why)."""


class Acted(NamedTuple):
    """A player's action taken (`PlayerGame.act`): the engine's report of it, where the game stood before it (what
    `take_back` returns to if the store refuses it), and its result when it ended the game."""

    report: TurnReport
    mark: GameMark
    ended: ResultRecord | None
    status: PlayerStatus
    """The game's status after the action (`playing`, or how it ended)."""


class PlayerGame:
    """Rebuilt from `(variant, seed, actions)` whenever needed; never stored as a board."""

    def __init__(self, record: GameRecord, variant: Variant, name: str, room_code: str | None) -> None:
        self.record = record
        self.game_id = record.game_id
        """Plain attributes, not properties over `record`: read by core for every action (bench/move_road.py counts
        each property read from another module as an entry into this one)."""
        self.player_id = record.player_id
        self.variant = variant
        self.name = name
        self.room_code = room_code
        self.game = Game(variant, record.seed, autoplay=record.autoplay, undo_allowed=record.undo_allowed)
        self.finish: Finish | None = None

    @classmethod
    def start(
        cls,
        *,
        game_id: str,
        room_id: str | None,
        room_code: str | None,
        player_id: str,
        name: str,
        variant: Variant,
        seed: int,
        autoplay: bool,
        undo_allowed: bool,
        ranked: bool,
        started_at: datetime,
        board: str | None = None,
        daily_day: date | None = None,
    ) -> PlayerGame:
        """`board`: where a win counts (set exactly when `ranked`); `daily_day`: the day of a daily game."""
        record = GameRecord(
            game_id=game_id,
            room_id=room_id,
            player_id=player_id,
            variant=variant.id,
            seed=seed,
            rules_version=RULES_VERSION,
            autoplay=autoplay,
            undo_allowed=undo_allowed,
            ranked=ranked,
            started_at=started_at,
            board=board if ranked else None,
            daily_day=daily_day,
        )
        return cls(record, variant, name, room_code)

    @classmethod
    def restore(
        cls, record: GameRecord, variant: Variant, name: str, room_code: str | None, actions: list[str],
        result: ResultRecord | None,
    ) -> PlayerGame:
        restored = cls(record, variant, name, room_code)
        restored.game = Game.replay(
            variant, record.seed, actions, autoplay=record.autoplay, undo_allowed=record.undo_allowed
        )
        if result is not None:
            restored.finish = Finish(result.outcome, result.time_ms, result.finished_at)
            if result.outcome == "resigned":
                restored.game.resigned = True
        return restored

    @property
    def running(self) -> bool:
        return self.finish is None

    @property
    def status(self) -> PlayerStatus:
        return "playing" if self.finish is None else self.finish.outcome

    def time_ms(self, now: datetime) -> int:
        return self.finish.time_ms if self.finish else elapsed_ms(self.record.started_at, now)

    def counts(self, now: datetime | None = None, *, finish: Finish | None = None) -> Counts:
        """The counts every message and record of this game shows; `now` only matters while it runs. `finish`: how
        a change being made ends it (a race's time limit), before memory has it."""
        finish = finish or self.finish
        if finish is not None:
            return self.game.counts(finish.time_ms)
        assert now is not None, "a running game's time needs the time now"
        return self.game.counts(elapsed_ms(self.record.started_at, now))

    def mark(self) -> GameMark:
        """Where the game stands before an action of its player (a move, an undo, a resignation): what `take_back`
        returns it to if the store refuses the action (python-chess's push/pop: the one undo core keeps)."""
        return GameMark(self, len(self.game.actions), self.finish, self.game.resigned)

    def take_back(self, mark: GameMark) -> None:
        """The store refused the actions since `mark`: replay the log up to it."""
        if len(self.game.actions) != mark.actions:
            self.game = Game.replay(
                self.variant,
                self.record.seed,
                self.game.actions[: mark.actions],
                autoplay=self.record.autoplay,
                undo_allowed=self.record.undo_allowed,
            )
        self.finish = mark.finish
        self.game.resigned = mark.resigned

    def act(self, action: str | MoveFields | None, now: datetime) -> Acted:
        """Its player's move (in notation, or as fields) or undo (None), at `now`: one call into the engine
        (`take_turn`), which raises before anything changes if the action is refused."""
        mark = self.mark()
        report = take_turn(self.game, action, elapsed_ms(self.record.started_at, now))
        ended = None
        if report.outcome is not None:
            self.finish = Finish(report.outcome, report.counts.time_ms, now)
            ended = self.result_record(counts=report.counts)
        return Acted(report, mark, ended, self.status)

    def ending(self, outcome: Outcome, at: datetime) -> Finish:
        """How the game would end at `at` (nothing changes yet)."""
        return Finish(outcome, elapsed_ms(self.record.started_at, at), at)

    def end(self, outcome: Outcome, now: datetime) -> ResultRecord:
        """Its player's action ended it (a move that won or left no move, a resignation), under a `mark`."""
        self.finish = self.ending(outcome, now)
        return self.result_record()

    def result_record(self, finish: Finish | None = None, counts: Counts | None = None) -> ResultRecord:
        """Only a won ranked game claims a place on its board (stored in the result's own transaction). `finish`:
        how a change being made ends it, before memory has it; `counts`: its counts at the finish, when the caller
        has them already (a move's report)."""
        finish = finish or self.finish
        assert finish is not None
        if counts is None:
            counts = self.counts(finish=finish)
        board = self.record.board
        flag = None
        if board and finish.outcome == "won" and is_human_board(board):
            flag = implausible_win(self.variant, counts.moves, counts.time_ms)
            if flag is not None:
                board = bots_side(board)
        claim = BoardClaim(board, self.player_id) if board and finish.outcome == "won" else None
        return ResultRecord(
            game_id=self.game_id,
            outcome=finish.outcome,
            player_moves=counts.moves,
            single_card_moves=counts.single_card_moves,
            cards_on_foundations=counts.cards_home,
            time_ms=counts.time_ms,
            finished_at=finish.at,
            claim=claim,
            flag=flag,
        )

    def progress(self, now: datetime, counts: Counts | None = None) -> Progress:
        """`counts`: this game's counts at `now`, when the caller has them already (a move's reply)."""
        counts = counts if counts is not None else self.counts(now)
        return Progress(
            player_id=self.player_id,
            name=self.name,
            status=self.status,
            cards_on_foundations=counts.cards_home,
            moves=counts.moves,
            time_ms=counts.time_ms,
        )

    def view(self, now: datetime, *, seed_public: bool) -> GameView:
        counts = self.counts(now)
        return GameView(
            game_id=self.game_id,
            room_code=self.room_code,
            variant=self.variant.id,
            seed=self.record.seed if seed_public else None,
            autoplay=self.record.autoplay,
            undo_allowed=self.record.undo_allowed,
            started_at=self.record.started_at,
            status=self.status,
            player_moves=counts.moves,
            single_card_moves=counts.single_card_moves,
            cards_on_foundations=counts.cards_home,
            time_ms=counts.time_ms,
            actions=list(self.game.actions),
            view=self.board_view(),
            daily=self.record.daily_day,
        )

    def board_view(self) -> dict[str, Any]:
        return player_view(self.game.board)
