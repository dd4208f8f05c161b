"""`core.competition.series.Series`: race again after a race is over, one next room a series, a running tally of
wins."""

from __future__ import annotations

from functools import cache

import pytest
from core_support import ManualClock, known_player
from parts import Parts, wire

from freecell_arena.core.effects import Refusal
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.rooms import Busy
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import (
    MemberLeftRecord,
    MemberRecord,
    NextRoomRecord,
    RoomRecord,
    RoomStatusRecord,
)
from freecell_arena.core.records.review import solve_par
from freecell_arena.protocol.play import MoveRequest, ResignRequest
from freecell_arena.protocol.rooms import (
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    RaceAgainRequest,
    RoomMessage,
    RoomOptions,
    SeriesInviteMessage,
    StartRaceRequest,
)

SEED = 1


@cache
def winning_line() -> tuple[str, ...]:
    return solve_par("freecell", SEED, budget_s=20).line


def raced(parts: Parts, clock: ManualClock, winner: str, loser: str) -> Room:
    """The players' room raced to its end: `winner` plays the solver's line, `loser` resigns."""
    room = parts.state.room_of_player(winner)
    assert room is not None
    parts.lobby.start_race(room.host_id, StartRaceRequest())
    clock.advance(1)
    parts.tick()
    for notation in winning_line():
        parts.play.move(winner, MoveRequest(move=notation))
    parts.play.resign(loser, ResignRequest())
    parts.tick()
    room = latest(parts, room)
    assert room.status == "finished"
    return room


def latest(parts: Parts, room: Room) -> Room:
    """The room as memory holds it now (a room is a value: each change is a new one)."""
    return parts.state.rooms_by_id[room.room_id]


@pytest.fixture
def parts(state: SharedState) -> Parts:
    parts = wire(state)
    parts.lobby.draw_seed = lambda low, high: SEED
    for player in ("ada", "bob", "cy"):
        known_player(state, player)
    options = RoomOptions(countdown_s=0, time_limit_s=600)
    parts.lobby.create_room("ada", CreateRoomRequest(variant="freecell", options=options))
    parts.lobby.join_room("bob", JoinRoomRequest(code=state.players["ada"].room_code or ""))
    return parts


def test_race_again_opens_the_next_room_with_the_same_options_and_invites_the_others(
    parts: Parts, clock: ManualClock
) -> None:
    first = raced(parts, clock, "ada", "bob")
    effect = parts.series.race_again("ada", RaceAgainRequest(id=5))
    first = latest(parts, first)
    kinds = [type(record) for record in effect.records]
    assert kinds == [MemberLeftRecord, RoomRecord, RoomStatusRecord, MemberRecord, NextRoomRecord]
    following = parts.state.rooms[first.next_code or ""]
    assert following.options == first.options and following.variant is first.variant
    assert not following.record.seed_chosen and following.host_id == "ada"
    (reply,) = effect.replies
    assert isinstance(reply, RoomMessage) and reply.id == 5 and reply.room.series is not None
    assert reply.room.series.race == 2
    assert [(row.name, row.wins) for row in reply.room.series.tally] == [("ada", 1), ("bob", 0)]
    invite = next(p for p in effect.publications if isinstance(p.message, SeriesInviteMessage))
    assert invite.topic == f"room:{first.code}" and invite.skip == "ada"
    assert invite.message == SeriesInviteMessage(code=first.code, next_code=following.code, by="ada")
    finished_view = first.view(clock.now(), lambda player: True)
    assert finished_view.next_code == following.code and finished_view.series is not None
    assert [(row.name, row.wins) for row in finished_view.series.tally] == [("ada", 1), ("bob", 0)]


def test_the_second_to_ask_joins_the_same_next_room_and_the_tally_runs_on(parts: Parts, clock: ManualClock) -> None:
    first = raced(parts, clock, "ada", "bob")
    parts.series.race_again("bob", RaceAgainRequest())
    rooms = len(parts.state.rooms)
    joined = parts.series.race_again("ada", RaceAgainRequest())
    assert [type(record) for record in joined.records] == [MemberLeftRecord, MemberRecord]
    first = latest(parts, first)
    assert len(parts.state.rooms) == rooms and parts.state.players["ada"].room_code == first.next_code
    second = raced(parts, clock, "bob", "ada")
    parts.series.race_again("ada", RaceAgainRequest())
    third = parts.state.rooms[latest(parts, second).next_code or ""]
    view = third.view(clock.now(), lambda player: True)
    assert view.series is not None and view.series.race == 3
    assert sorted((row.name, row.wins) for row in view.series.tally) == [("ada", 1), ("bob", 1)]
    assert third.tally is not None and third.tally.series_id == first.record.room_id


@pytest.mark.parametrize(
    ("who", "stage", "code"),
    [("ada", "lobby", "race_not_over"), ("ada", "running", "race_not_over"), ("cy", "finished", "not_in_room")],
)
def test_race_again_from_the_wrong_state_is_refused_and_changes_nothing(
    parts: Parts, clock: ManualClock, who: str, stage: str, code: str
) -> None:
    room = parts.state.room_of_player("ada")
    assert room is not None
    if stage == "running":
        parts.lobby.start_race("ada", StartRaceRequest())
        clock.advance(1)
        parts.tick()
    elif stage == "finished":
        raced(parts, clock, "ada", "bob")
    room = latest(parts, room)
    rooms = dict(parts.state.rooms)
    with pytest.raises(Refusal) as refused:
        parts.series.race_again(who, RaceAgainRequest())
    assert refused.value.code == code
    assert dict(parts.state.rooms) == rooms and latest(parts, room) is room and room.next_code is None


def test_a_next_room_that_started_or_filled_is_refused(parts: Parts, clock: ManualClock) -> None:
    first = raced(parts, clock, "ada", "bob")
    parts.series.race_again("ada", RaceAgainRequest())
    following_code = latest(parts, first).next_code or ""
    parts.lobby.start_race("ada", StartRaceRequest())
    with pytest.raises(Refusal) as refused:
        parts.series.race_again("bob", RaceAgainRequest())
    assert refused.value.code == "room_started" and "bob" not in parts.state.rooms[following_code].members
    assert parts.state.players["bob"].room_code == first.code


def test_a_refused_write_leaves_the_pointer_and_the_seats_as_they_were(parts: Parts, clock: ManualClock) -> None:
    first = raced(parts, clock, "ada", "bob")
    rooms = set(parts.state.rooms)
    effect = parts.raw.series.race_again("ada", RaceAgainRequest())
    effect.claim()
    with pytest.raises(Busy):  # bob's press while ada's is being written waits for it (then joins her room)
        parts.raw.series.race_again("bob", RaceAgainRequest()).claim()
    effect.refused()
    assert latest(parts, first) is first and first.next_code is None and set(parts.state.rooms) == rooms
    assert parts.state.players["ada"].room_code == first.code and "ada" in first.members


def test_a_pointer_the_store_has_makes_race_again_join_instead_of_open(parts: Parts, clock: ManualClock) -> None:
    """Another process opened the next room (net read the pointer and brought the room here first)."""
    first = raced(parts, clock, "ada", "bob")
    known_player(parts.state, "dan")
    parts.lobby.create_room("dan", CreateRoomRequest(variant="freecell"))
    elsewhere = parts.state.players["dan"].room_code or ""
    parts.series.know_next(first.code, elsewhere)
    effect = parts.series.race_again("bob", RaceAgainRequest())
    assert not any(isinstance(record, NextRoomRecord) for record in effect.records)
    assert parts.state.players["bob"].room_code == elsewhere == latest(parts, first).next_code


def test_a_next_room_everyone_left_is_replaced_over_the_pointer_known(parts: Parts, clock: ManualClock) -> None:
    first = raced(parts, clock, "ada", "bob")
    parts.series.race_again("ada", RaceAgainRequest())
    closed = latest(parts, first).next_code or ""
    parts.lobby.leave_room("ada", LeaveRoomRequest())  # the last one out of the next lobby closes it
    assert closed not in parts.state.rooms
    effect = parts.series.race_again("bob", RaceAgainRequest())
    first = latest(parts, first)
    assert NextRoomRecord(first.record.room_id, first.next_code or "", closed) in effect.records
    assert first.next_code not in (None, closed) and parts.state.players["bob"].room_code == first.next_code


def test_a_pointer_only_heard_of_is_never_the_expected_value(parts: Parts, clock: ManualClock) -> None:
    """Two members press at once on two processes: the other process's invitation arrives here after net read the
    store (no pointer yet) and before this press. This press must not move the pointer over the one it heard of
    (that write would succeed, and the series would fork into two rooms): it expects what the store was read to
    hold, so its write is refused and the retry, after net reads the store again, joins the other room."""
    first = raced(parts, clock, "ada", "bob")
    parts.series.know_next(first.code, None)  # net read the store: no next room yet
    parts.replica.apply_remote(SeriesInviteMessage(code=first.code, next_code="ELSEWHERE", by="dan"), None)
    assert latest(parts, first).next_code == "ELSEWHERE" and "ELSEWHERE" not in parts.state.rooms
    effect = parts.raw.series.race_again("bob", RaceAgainRequest())
    (pointer,) = [record for record in effect.records if isinstance(record, NextRoomRecord)]
    assert pointer.previous is None, pointer  # the store's value: this write is refused there
    effect.claim()
    effect.refused()
    first = latest(parts, first)
    assert first.next_code == "ELSEWHERE" and first.stored_next_code is None


def test_a_left_out_winner_passes_the_win_to_the_best_placed_of_the_others_who_won() -> None:
    """`Tally.with_result`: the players a sanction takes out of the race are on the tally with no win for it; the
    best placed of the others takes the win if they won (two sharing that place share it), else nobody does."""
    from freecell_arena.core.records.series_tally import Tally
    from freecell_arena.protocol.rooms import Standing

    def standing(rank: int, player_id: str, outcome: str) -> Standing:
        return Standing.model_validate({"rank": rank, "player_id": player_id, "name": player_id.upper(),
                                        "game_id": f"g_{player_id}", "outcome": outcome, "moves": 90,
                                        "single_card_moves": 90, "cards_on_foundations": 52, "time_ms": 1})  # fmt: skip

    race = [standing(1, "cheat", "won"), standing(2, "ann", "won"), standing(2, "bo", "won"),
            standing(4, "cy", "resigned")]  # fmt: skip
    first = Tally.first("r_1")
    assert first.with_result(race).wins == (("cheat", "CHEAT", 1), ("ann", "ANN", 0), ("bo", "BO", 0), ("cy", "CY", 0))
    assert first.with_result(race, {"cheat"}).wins == (
        ("cheat", "CHEAT", 0), ("ann", "ANN", 1), ("bo", "BO", 1), ("cy", "CY", 0))
    assert first.with_result(race, {"cheat", "ann", "bo"}).wins[3] == ("cy", "CY", 0), "the best left resigned"
    following = first.next_race(race, {"cheat", "nobody_of_this_race"})
    assert (following.race, following.uncounted) == (2, ("cheat",))
    assert Tally.from_json(following.to_json()) == following
    assert "uncounted" not in first.next_race(race).to_json(), "a tally with nobody left out is stored as before"
