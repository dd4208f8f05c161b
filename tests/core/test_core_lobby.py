"""`core.live.lobby.Lobby`: rooms and seats, and the versions every change of them carries."""

from __future__ import annotations

import pytest
from core_support import ManualClock, known_player
from parts import stored, wire

from freecell_arena.core.effects import Refusal
from freecell_arena.core.live.lobby import choose_seed
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import MemberLeftRecord, MemberRecord, RoomRecord, RoomStatusRecord
from freecell_arena.engine import variant_by_id
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    MemberJoinedMessage,
    MemberLeftMessage,
    RoomMessage,
    RoomOptions,
    StartRaceRequest,
)


def created(state: SharedState, host: str = "host", **options: object) -> str:
    known_player(state, host)
    lobby = wire(state).lobby
    lobby.create_room(host, CreateRoomRequest(variant="freecell", deal=7, options=RoomOptions.model_validate(options)))
    code = state.players[host].room_code
    assert code is not None
    return code


def test_creating_a_room_seats_the_host_and_writes_the_room_its_status_and_the_seat(state: SharedState) -> None:
    known_player(state, "host")
    lobby = wire(state).raw.lobby
    effect = lobby.create_room("host", CreateRoomRequest(variant="freecell", deal=7))
    assert [type(record) for record in effect.records] == [RoomRecord, RoomStatusRecord, MemberRecord]
    (reply,) = effect.replies
    assert isinstance(reply, RoomMessage) and reply.room is not None and reply.room.seed == 7
    assert not state.rooms and state.players["host"].room_code is None, "nothing in memory before the store has it"
    effect.claim()
    effect.refused()
    assert not state.rooms and state.players["host"].room_code is None, "a refused write leaves no trace"
    stored(lobby.create_room("host", CreateRoomRequest(variant="freecell", deal=7)))
    (room,) = state.rooms.values()
    assert list(room.members) == ["host"] and state.rooms_by_id[room.record.room_id] is room
    assert state.players["host"].room_code == room.code


def test_a_join_tells_the_others_one_small_event_and_a_full_room_refuses(state: SharedState) -> None:
    code = created(state, max_players=2)
    lobby = wire(state).lobby
    known_player(state, "guest")
    known_player(state, "third")
    joined = lobby.join_room("guest", JoinRoomRequest(code=code.lower()))
    (publication,) = joined.publications
    assert isinstance(publication.message, MemberJoinedMessage) and publication.skip == "guest"
    assert publication.version is not None and publication.version.seq == 2
    with pytest.raises(Refusal) as refused:
        lobby.join_room("third", JoinRoomRequest(code=code))
    assert refused.value.code == "room_full"
    spectating = lobby.join_room("third", JoinRoomRequest(code=code, spectator=True))
    assert state.rooms[code].members["third"].role == "spectator" and spectating.records


def test_the_host_leaving_hands_the_room_on_and_the_last_one_out_closes_it(state: SharedState) -> None:
    code = created(state)
    lobby = wire(state).lobby
    known_player(state, "guest")
    lobby.join_room("guest", JoinRoomRequest(code=code))
    left = lobby.leave_room("host", LeaveRoomRequest())
    (gone,) = left.publications
    assert isinstance(gone.message, MemberLeftMessage) and gone.message.host_id == "guest"
    closed = lobby.leave_room("guest", LeaveRoomRequest())
    assert [type(record) for record in closed.records] == [MemberLeftRecord, RoomStatusRecord]
    assert closed.publications == [] and code not in state.rooms


def test_only_the_host_starts_and_the_countdown_goes_to_the_room(state: SharedState) -> None:
    code = created(state, countdown_s=3)
    parts = wire(state)
    known_player(state, "guest")
    parts.lobby.join_room("guest", JoinRoomRequest(code=code))
    with pytest.raises(Refusal) as refused:
        parts.lobby.start_race("guest", StartRaceRequest())
    assert refused.value.code == "not_host"
    started = parts.lobby.start_race("host", StartRaceRequest())
    assert isinstance(started.replies[0], CountdownMessage) and started.replies[0].seconds == 3
    assert [type(p.message) for p in started.publications] == [CountdownMessage, RoomMessage]
    assert state.rooms[code].status == "countdown"


def test_a_picked_up_lobby_gives_up_the_seats_of_members_who_did_not_come_back(
    state: SharedState, clock: ManualClock
) -> None:
    code = created(state)
    parts = wire(state)
    state.players["host"].connections = 0
    parts.lobby.await_return(state.rooms[code])
    clock.advance(60)
    (_gone,) = parts.tick()
    assert code not in state.rooms, "its last member gone, the lobby closed"


def test_a_seed_is_checked_against_the_variant_and_drawn_when_nobody_chose_it() -> None:
    freecell, cell_eleven = variant_by_id("freecell"), variant_by_id("cell-eleven")
    assert choose_seed(freecell, None, 617, lambda low, high: 0) == 617
    assert choose_seed(freecell, None, None, lambda low, high: high) == freecell.seed_range[1]
    for seed, deal, variant in ((1, 2, freecell), (5, None, cell_eleven), (-1, None, freecell)):
        with pytest.raises(Refusal) as refused:
            choose_seed(variant, seed, deal, lambda low, high: low)
        assert refused.value.code == "bad_seed"
