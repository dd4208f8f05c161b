"""`core.live.races.Races`: a race begun for every player at one instant, finished once, let go of when unwatched."""

from __future__ import annotations

from core_support import ManualClock, known_player
from parts import Parts, stored, wire

from freecell_arena.core.live.race_clock import FORGET_FINISHED_AFTER
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import GameRecord, ResultRecord, RoomStatusRecord
from freecell_arena.protocol.play import GameOverMessage
from freecell_arena.protocol.rooms import (
    CreateRoomRequest,
    JoinRoomRequest,
    RaceOverMessage,
    RaceStartedMessage,
    RoomMessage,
    RoomOptions,
    StartRaceRequest,
)


def counting_down(state: SharedState, **options: object) -> tuple[Parts, Room]:
    parts = wire(state)
    for player in ("host", "guest"):
        known_player(state, player)
    room_options = RoomOptions.model_validate({"countdown_s": 0, **options})
    parts.lobby.create_room("host", CreateRoomRequest(variant="freecell", deal=1, options=room_options))
    code = state.players["host"].room_code or ""
    parts.lobby.join_room("guest", JoinRoomRequest(code=code))
    parts.lobby.start_race("host", StartRaceRequest())
    return parts, state.rooms[code]


def test_beginning_deals_every_player_the_same_game_at_the_same_instant(state: SharedState) -> None:
    parts, room = counting_down(state)
    effect = parts.raw.races.begin_race(room)
    games = [record for record in effect.records if isinstance(record, GameRecord)]
    assert isinstance(effect.records[0], RoomStatusRecord) and effect.records[0].status == "running"
    assert len(games) == 2 and len({(game.seed, game.started_at) for game in games}) == 1
    kinds = [type(publication.message) for publication in effect.publications]
    assert kinds == [RaceStartedMessage, RaceStartedMessage, RoomMessage]
    assert state.rooms[room.code] is room and not state.games, "nothing in memory before the store has it"
    effect.claim()
    effect.refused()
    assert state.rooms[room.code] is room and room.status == "countdown" and not room.games and not state.games
    assert state.players["host"].game_id is None
    stored(parts.raw.races.begin_race(room))
    running = state.rooms[room.code]
    assert running.status == "running" and set(running.games) == {"host", "guest"} and len(state.games) == 2
    assert state.players["host"].game_id == running.games["host"].game_id


def test_finishing_times_out_the_games_still_running_and_sends_the_standings(
    state: SharedState, clock: ManualClock
) -> None:
    parts, room = counting_down(state, time_limit_s=60)
    parts.races.begin_race(room)
    room = state.rooms[room.code]
    clock.advance(90)  # the limit passed while nobody looked: the race ends at its limit
    effect = parts.raw.races.finish_race(room)
    results = [record for record in effect.records if isinstance(record, ResultRecord)]
    assert [result.outcome for result in results] == ["timeout", "timeout"]
    assert {result.time_ms for result in results} == {60_000}
    kinds = [type(publication.message) for publication in effect.publications]
    assert kinds == [GameOverMessage, GameOverMessage, RaceOverMessage, RoomMessage]
    assert room.status == "running" and all(game.running for game in room.games.values()), "not before the store"
    effect.claim()
    effect.refused()
    assert state.rooms[room.code] is room and all(game.running for game in room.games.values())
    stored(parts.raw.races.finish_race(room))
    finished = state.rooms[room.code]
    assert finished.status == "finished" and not any(game.running for game in finished.games.values())


def test_a_finished_race_nobody_watches_leaves_memory_with_its_games(state: SharedState, clock: ManualClock) -> None:
    parts, room = counting_down(state)
    parts.races.begin_race(room)
    parts.races.finish_race(state.rooms[room.code])
    for player in ("host", "guest"):
        state.players[player].connections = 0
    clock.advance(FORGET_FINISHED_AFTER.total_seconds())
    parts.races.forget_unwatched()
    assert room.code not in state.rooms and not state.games
    assert state.players["host"].room_code is None and state.players["host"].game_id is None


def test_a_bot_that_left_the_running_race_is_still_rated_as_a_bot(state: SharedState, clock: ManualClock) -> None:
    """Leaving a running race resigns the game, which stays in the standings: its player is placed on the bots'
    ladder from the player's record, not from the members (a bot rated among humans would also fail the audit)."""
    from freecell_arena.core.live.races import RaceFinish
    from freecell_arena.protocol.rooms import LeaveRoomRequest

    parts = wire(state)
    known_player(state, "host")
    known_player(state, "bot", bot=True)
    parts.lobby.create_room("host", CreateRoomRequest(variant="freecell", options=RoomOptions(countdown_s=0)))
    room = state.rooms[state.players["host"].room_code or ""]
    parts.lobby.join_room("bot", JoinRoomRequest(code=room.code))
    parts.lobby.start_race("host", StartRaceRequest())
    parts.races.begin_race(state.rooms[room.code])
    parts.lobby.leave_room("bot", LeaveRoomRequest())
    room = state.rooms[room.code]
    assert "bot" not in room.members and "bot" in room.games
    clock.advance(1)
    effect = parts.races.finish_race(room)
    assert isinstance(effect, RaceFinish) and effect.race_end is not None
    assert {placement.player_id: placement.bot for placement in effect.race_end.placements} == {
        "host": False, "bot": True
    }
