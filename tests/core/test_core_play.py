"""`core.live.play.Play`: moves, undo, resign, state and replays, on a race begun through the race clock."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from core_support import ManualClock, known_player
from parts import Parts, wire

from freecell_arena.core.effects import Refusal
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import MoveRecord, ResultRecord
from freecell_arena.protocol.play import (
    GameOverMessage,
    GameStateMessage,
    MoveRequest,
    ReplayRequest,
    ResignRequest,
    StateRequest,
    UndoRequest,
)
from freecell_arena.protocol.rooms import (
    CreateRoomRequest,
    JoinRoomRequest,
    ProgressMessage,
    RaceOverMessage,
    RoomOptions,
    StartRaceRequest,
)
from freecell_arena.protocol.trusted import Encoded


def racing(state: SharedState, clock: ManualClock, *players: str) -> Parts:
    """A race of deal 1 begun, one game per player."""
    parts = wire(state)
    for player in players:
        known_player(state, player)
    host, *guests = players
    parts.lobby.create_room(host, CreateRoomRequest(variant="freecell", deal=1, options=RoomOptions(countdown_s=0)))
    code = state.players[host].room_code or ""
    for guest in guests:
        parts.lobby.join_room(guest, JoinRoomRequest(code=code))
    parts.lobby.start_race(host, StartRaceRequest())
    clock.advance(0.1)
    parts.tick()
    return parts


def test_a_move_is_one_record_one_reply_and_progress_for_the_others(state: SharedState, clock: ManualClock) -> None:
    play = racing(state, clock, "host", "guest").play
    clock.advance(2)
    effect = play.move("host", MoveRequest(move="1a"))
    assert [type(record) for record in effect.records] == [MoveRecord]
    (reply,) = effect.replies
    assert isinstance(reply, Encoded)
    accepted = json.loads(reply.text)
    assert (accepted["player_moves"], accepted["time_ms"], accepted["status"]) == (1, 2100, "playing")
    (progress,) = effect.publications
    assert isinstance(progress.message, ProgressMessage) and progress.skip == "host"
    assert progress.message.progress.moves == 1 and progress.message.progress.time_ms == 2100, "the same counts"


def test_undo_costs_a_move_and_a_rolled_back_move_leaves_the_game_as_it_was(
    state: SharedState, clock: ManualClock
) -> None:
    parts = racing(state, clock, "solo")
    play = parts.play
    game = state.games[state.players["solo"].game_id or ""]
    play.move("solo", MoveRequest(move="1a"))
    play.undo("solo", UndoRequest())
    assert game.counts(clock.now()).moves == 2 and game.game.actions == ["1a", "undo"]
    effect = parts.raw.play.move("solo", MoveRequest(move="1a"))
    assert game.game.actions == ["1a", "undo", "1a"], "a player's own move: the engine applies it at once"
    effect.refused()
    assert game.game.actions == ["1a", "undo"] and game.running, "and takes it back if the store refuses it"


def test_resigning_ends_the_game_and_the_race_is_checked_at_the_next_tick(
    state: SharedState, clock: ManualClock
) -> None:
    parts = racing(state, clock, "solo")
    effect = parts.play.resign("solo", ResignRequest())
    (result,) = effect.records
    assert isinstance(result, ResultRecord) and result.outcome == "resigned"
    (over,) = effect.replies
    assert isinstance(over, GameOverMessage) and over.message == "You resigned."
    with pytest.raises(Refusal) as refused:
        parts.play.move("solo", MoveRequest(move="1a"))
    assert refused.value.code == "game_not_running"
    (_finish,) = parts.tick()
    assert state.rooms[state.players["solo"].room_code or ""].status == "finished"


def test_refusals_name_why_and_change_nothing(state: SharedState, clock: ManualClock) -> None:
    play = racing(state, clock, "host", "guest").play
    cases = [
        ("host", MoveRequest(move="1h"), "illegal_move"),
        ("host", MoveRequest(move="zz"), "bad_notation"),
        ("host", MoveRequest(move="1a", game_id=state.players["guest"].game_id), "not_your_game"),
        ("host", MoveRequest(move="1a", game_id="g_nowhere"), "unknown_game"),
    ]
    for player, request, code in cases:
        with pytest.raises(Refusal) as refused:
            play.move(player, request)
        assert refused.value.code == code
    assert state.games[state.players["host"].game_id or ""].game.actions == []


def test_the_state_of_a_finished_race_brings_its_standings_again(state: SharedState, clock: ManualClock) -> None:
    """A page reloaded after the race (or a player back after a drop) shows the standings, not only the counts."""
    parts = racing(state, clock, "host", "guest")
    assert len(parts.play.get_state("host", StateRequest(id=1)).replies) == 1, "no standings while it runs"
    for player in ("host", "guest"):
        parts.play.resign(player, ResignRequest())
    parts.tick()
    room = state.rooms[state.players["host"].room_code or ""]
    state_message, standings = parts.play.get_state("guest", StateRequest(id=2)).replies
    assert isinstance(state_message, GameStateMessage) and state_message.id == 2
    assert isinstance(standings, RaceOverMessage) and standings.code == room.code
    assert standings.seed == room.record.seed, "the seed is public once the race is over"
    assert sorted(row.player_id for row in standings.standings) == ["guest", "host"]


def test_state_and_replays_show_only_what_may_be_seen(state: SharedState, clock: ManualClock) -> None:
    play = racing(state, clock, "host", "guest").play
    (message,) = play.get_state("host", StateRequest()).replies
    assert isinstance(message, GameStateMessage) and message.game is not None and message.room is not None
    guest_game = state.players["guest"].game_id or ""
    with pytest.raises(Refusal) as refused:
        play.get_replay("host", ReplayRequest(game_id=guest_game))
    assert refused.value.code == "replay_not_available", "a move seen is a move copied"
    assert play.get_replay("guest", ReplayRequest(game_id=guest_game)).replies, "one's own replay, any time"


class ReadingMovesTime(ManualClock):
    """A clock that moves on by `step` seconds each time it is read, once told to: what a busy process does between
    two readings of its clock."""

    def __init__(self) -> None:
        super().__init__()
        self.step = 0.0

    def now(self) -> datetime:
        instant = self.instant
        self.advance(self.step)
        return instant


def test_a_move_is_stamped_with_the_instant_checked_against_the_time_limit() -> None:
    """A move allowed just before its race's time limit is stored at that instant: a second reading of the clock
    stamped it after the limit, and the audit found a move after its game's finish (2026-11-28, an arena under a
    fast clock, on a loaded machine)."""
    clock = ReadingMovesTime()
    state = SharedState(clock)
    parts = wire(state)
    known_player(state, "solo")
    options = RoomOptions(countdown_s=0, time_limit_s=60)
    parts.lobby.create_room("solo", CreateRoomRequest(variant="freecell", deal=1, options=options))
    parts.lobby.start_race("solo", StartRaceRequest())
    clock.advance(0.1)
    parts.tick()
    room = state.rooms[state.players["solo"].room_code or ""]
    assert room.ends_at is not None
    clock.instant = room.ends_at - timedelta(seconds=0.5)
    clock.step = 1.0  # each reading is a second later than the one before
    effect = parts.play.move("solo", MoveRequest(move="1a"))
    (record,) = effect.records
    assert isinstance(record, MoveRecord) and record.at < room.ends_at, "stamped after the race's end"


def test_rooms_and_games_are_looked_up_alike_by_every_way_in(state: SharedState, clock: ManualClock) -> None:
    """`Rooms` and `Games` answer `get` and `in` from their dicts (Mapping's interpreted mixins were most of a
    compiled move's lookups), and the shared state's own lookups read the same dicts."""
    play = racing(state, clock, "host").play
    code = state.players["host"].room_code or ""
    game_id = state.players["host"].game_id or ""
    room, game = state.rooms[code], state.games[game_id]
    assert state.rooms.get(code) is state.room(code) is state.room_of_player("host") is room
    assert state.rooms_by_id.get(room.room_id) is room and state.room_of_game(game) is room
    assert state.games.get(game_id) is state.game(game_id) is state.current_game("host") is game
    assert code in state.rooms and game_id in state.games
    assert "nope" not in state.rooms and "nope" not in state.games and 7 not in state.rooms
    assert state.rooms.get("nope") is None and state.games.get("nope") is None
    assert state.rooms.get("nope", room) is room and state.games.get("nope", "default") == "default"
    assert state.room("nope") is None and state.game("nope") is None
    for move in ("1a", "2b"):  # a move changes the game in place: every way in still finds the one object
        play.move("host", MoveRequest(move=move))
    assert state.game(game_id) is game and state.games[game_id] is game
