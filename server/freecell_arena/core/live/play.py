"""Playing one's game: move, undo, resign; the state of a player; replays once they may be seen.

This is the hot path (a move): the player's running game, the engine's `play`, one `MoveRecord`, the reply
built straight into its wire form (`MOVE_ACCEPTED`), and the player's progress to the rest of the room.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from freecell_arena.core.effects import Effect, Publication, Refusal
from freecell_arena.core.events import room_topic
from freecell_arena.core.live.player_game import MOVE_ACCEPTED, Acted, PlayerGame
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.room_messages import Connected, game_over, race_over_message
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import MoveRecord, Record
from freecell_arena.core.records import daily
from freecell_arena.core.records.public_games import open_to_all, open_to_its_player
from freecell_arena.engine import (
    Counts,
    IllegalMoveError,
    NotationError,
)
from freecell_arena.engine.game_text import GameText
from freecell_arena.engine.turns import MoveFields
from freecell_arena.engine.view import replay_steps
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.play import (
    GameStateMessage,
    MoveRequest,
    ReplayMessage,
    ReplayRequest,
    ResignRequest,
    StateRequest,
    UndoRequest,
)
from freecell_arena.protocol.rooms import ProgressMessage, RaceOverMessage
from freecell_arena.protocol.trusted import Reply
from freecell_arena.protocol.vocabulary import FINISHED
from freecell_arena.protocol.wire import RequestId


@dataclass(frozen=True)
class PlayDeps:
    state: SharedState
    timers: RaceClock
    """Told when a race's game ends (is everyone done?)."""
    connected: Connected


class Play:
    def __init__(self, deps: PlayDeps) -> None:
        self.state = deps.state
        self.timers = deps.timers
        self.connected = deps.connected

    # ------------------------------------------------------------------ actions

    def move(self, player_id: str, request: MoveRequest) -> Effect:
        now = self.state.clock.now()  # one reading: the instant checked against the time limit is the move's
        game, room = self._running(player_id, request.game_id, now)
        fields = request.move
        action: str | MoveFields = fields if isinstance(fields, str) else (
            fields.from_, fields.from_index, fields.to, fields.to_index, fields.count)  # fmt: skip
        try:
            acted = game.act(action, now)
        except NotationError as error:
            raise Refusal(ErrorCode.bad_notation, str(error)) from None
        except IllegalMoveError as error:
            raise Refusal(ErrorCode.illegal_move, error.message, reason=error.code) from None
        return self._after_action(game, room, acted, request.id, now)

    def undo(self, player_id: str, request: UndoRequest) -> Effect:
        now = self.state.clock.now()
        game, room = self._running(player_id, request.game_id, now)
        try:
            acted = game.act(None, now)
        except IllegalMoveError as error:
            raise Refusal(ErrorCode.undo_not_allowed, error.message, reason=error.code) from None
        return self._after_action(game, room, acted, request.id, now)

    def resign(self, player_id: str, request: ResignRequest) -> Effect:
        return self.resign_game(self.running_game(player_id, request.game_id, self.state.clock.now()), request.id)

    def resign_game(self, game: PlayerGame, request_id: RequestId = None) -> Effect:
        now = self.state.clock.now()
        mark = game.mark()
        game.game.resigned = True
        result = game.end("resigned", now)
        self._game_ended(game)
        return Effect(
            records=[result],
            replies=[game_over(game, request_id)],
            publications=self._progress(game, now),
            undo=(mark,),
        )

    def _after_action(self, game: PlayerGame, room: Room | None, acted: Acted, request_id: RequestId,
                      now: datetime) -> Effect:  # fmt: skip
        """The action's record, reply and progress, from its report alone: no call back into the game or the
        engine. `room`: the game's room (None: a daily's game), as the action found it."""
        report = acted.report
        turn = report.turn
        records: list[Record] = [MoveRecord(game.game_id, report.index, turn.action, now)]
        if acted.ended is not None:
            records.append(acted.ended)
            if room is not None:
                self.timers.check_if_over(room)
        counts = report.counts
        accepted = MOVE_ACCEPTED.encode(
            id=request_id,
            game_id=game.game_id,
            index=report.index,
            action=turn.action,
            move=report.move,
            autoplay=report.autoplay,
            undone=report.undone,
            player_moves=counts.moves,
            single_card_moves=counts.single_card_moves,
            cards_on_foundations=counts.cards_home,
            time_ms=counts.time_ms,
            status=acted.status,
            only_undo_left=report.only_undo_left,
            changes=report.changes,
        )
        replies: list[Reply] = [accepted]
        if acted.ended is not None:
            replies.append(game_over(game, None))
        return Effect(records=records, replies=replies, publications=self._progress(game, now, counts, room),
                      undo=(acted.mark,))  # fmt: skip

    def _game_ended(self, game: PlayerGame) -> None:
        room = self.state.room_of_game(game)
        if room is not None:
            self.timers.check_if_over(room)

    def _progress(self, game: PlayerGame, now: datetime, counts: Counts | None = None,
                  room: Room | None = None) -> list[Publication]:  # fmt: skip
        """To the rest of the room: the player has the same counts in its own reply (one frame less per move).
        Nothing when nobody else is in the room (a solo race): no one would receive it. `room`: the game's room
        when the caller has it."""
        if game.room_code is None:
            return []
        room = room or self.state.room(game.room_code)
        if room is not None and _alone(room.members, game.player_id):
            return []
        message = ProgressMessage(code=game.room_code, progress=game.progress(now, counts))
        return [Publication(room_topic(game.room_code), message, skip=game.player_id)]

    def running_game(self, player_id: str, game_id: str | None, now: datetime) -> PlayerGame:
        """The player's game an action is for, or the refusal saying why it cannot be played. `now`: the action's
        instant, read once by the caller and stamped on what the action stores (a second reading of the clock
        could fall past the time limit the first one passed: a move stored after its race's end)."""
        return self._running(player_id, game_id, now)[0]

    def _running(self, player_id: str, game_id: str | None, now: datetime) -> tuple[PlayerGame, Room | None]:
        """`running_game`, and its room (None: a daily's game)."""
        state = self.state
        seat = state.players[player_id].seat
        if game_id is not None and game_id != seat.game_id:
            other = state.game(game_id)
            if other is not None and other.player_id != player_id:
                raise Refusal(ErrorCode.not_your_game, "that game belongs to another player")
            if other is None:
                raise Refusal(ErrorCode.unknown_game, f"no game {game_id!r} on this server")
            raise Refusal(ErrorCode.game_not_running, "that game of yours is over")
        game, room = state.game_in_room(seat.game_id) if seat.game_id else (None, None)
        if game is None:
            raise Refusal(ErrorCode.no_game, "you have no game: join a room and wait for the race to start")
        if game.finish is not None:  # `running`, read here without a call (bench/move_road.py)
            raise Refusal(ErrorCode.game_not_running, f"your game is over ({game.status})")
        if room is not None and room.ends_at is not None and now >= room.ends_at:
            raise Refusal(ErrorCode.game_not_running, "the race's time limit has passed")
        if game.record.daily_day is not None and daily.is_closed(game.record.daily_day, now):
            raise Refusal(ErrorCode.game_not_running, f"the daily of {game.record.daily_day} has closed")
        return game, room

    # ------------------------------------------------------------------ state and replays

    def get_state(self, player_id: str, request: StateRequest) -> Effect:
        return Effect(replies=[self.state_message(player_id, request.id), *self.race_result(player_id)])

    def race_result(self, player_id: str) -> list[RaceOverMessage]:
        """The standings of the player's finished race, again: a page reloaded after `race_over` (or a player
        back after a drop) shows them as they were, with their share and review links, not only the counts."""
        room = self.state.room_of_player(player_id)
        if room is None or room.status != FINISHED or not room.everyone_done():
            return []
        return [race_over_message(room)]

    def state_message(self, player_id: str, request_id: RequestId) -> GameStateMessage:
        now = self.state.clock.now()
        room = self.state.room_of_player(player_id)
        game = self.state.current_game(player_id)
        seed_public = game is not None and self._seed_public(game)
        return GameStateMessage(
            id=request_id,
            room=room.view(now, self.connected) if room else None,
            game=game.view(now, seed_public=seed_public) if game else None,
        )

    def get_replay(self, player_id: str, request: ReplayRequest) -> Effect:
        game = self.state.game(request.game_id)
        if game is None:
            raise Refusal(ErrorCode.unknown_game, f"no game {request.game_id!r} on this server")
        if not self._replay_allowed(player_id, game):
            raise Refusal(
                ErrorCode.replay_not_available, "replays open when the race is over (a move seen is a move copied)"
            )
        start_view, steps = replay_steps(
            game.variant, game.record.seed, game.game.actions, autoplay=game.record.autoplay
        )
        replay = ReplayMessage(
            id=request.id,
            game_id=game.game_id,
            player_id=game.player_id,
            variant=game.variant.id,
            seed=game.record.seed,
            autoplay=game.record.autoplay,
            actions=list(game.game.actions),
            outcome=game.finish.outcome if game.finish else None,
            final_view=game.board_view(),
            start_view=start_view,
            steps=steps,
            game_text=as_text(game, self._name_now(game)).text(),
        )
        return Effect(replies=[replay])

    def _name_now(self, game: PlayerGame) -> str:
        """The player's name as it stands now: a moderator's rename reaches the identity, not the games it played
        under the old name."""
        player = self.state.players.get(game.player_id)
        return player.record.display_name if player is not None else game.name

    def _seed_public(self, game: PlayerGame) -> bool:
        if game.record.daily_day is not None:  # commit-reveal: the seed is published when the day closes
            return daily.is_closed(game.record.daily_day, self.state.clock.now())
        room = self.state.room_of_game(game)
        if room is not None:
            return room.seed_public
        return not game.variant.face_down or not game.running

    def _replay_allowed(self, player_id: str, game: PlayerGame) -> bool:
        """Anyone's replay once the race is over; before that only your own, and never a Cell Eleven seed.
        A daily's replays, the player's own included, open when its day closes; a cup heat's when the cup is over
        (a replay carries the seed, and another heat may still be racing the same deal)."""
        room = self.state.room_of_game(game)
        race_over = not game.running and (room is None or room.status == FINISHED)
        sealed_until = room.record.seed_sealed_until if room is not None else None
        now, day = self.state.clock.now(), game.record.daily_day
        if game.player_id != player_id:
            return open_to_all(day, sealed_until, race_over, now)
        return open_to_its_player(day, sealed_until, race_over, now, face_down=game.variant.face_down)


def _alone(members: Mapping[str, object], player_id: str) -> bool:
    """Nobody but the player in the room (a solo race): no one to tell of the move. No set is built for it."""
    return not members or (len(members) == 1 and player_id in members)


def as_text(game: PlayerGame, name: str) -> GameText:
    """The game as game text, its tags what a replay may show (the seed is in the reply already), the player by
    `name`, the one they go by now."""
    record = game.record
    tags: dict[str, str | int | None] = {
        "Date": record.started_at.date().isoformat(),
        "Player": name,
        "Result": game.finish.outcome if game.finish else "*",
        "Moves": game.game.player_moves,
        "PlayerId": record.player_id,
        "Game": record.game_id,
        "Room": game.room_code,
    }
    return GameText.of(game.variant.id, record.seed, game.game.actions, autoplay=record.autoplay, tags=tags)
