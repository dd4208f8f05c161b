"""`core.live.rebuild.Rebuild` and `core.live.replica.Replica`: rooms brought back from the store, and copies of rooms
other processes share, kept up to date by their events and re-read from the store."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from core_support import ManualClock, known_player
from parts import Parts, wire

from freecell_arena.core.competition.quick_race import QuickRaceRules
from freecell_arena.core.effects import Effect
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import (
    GameRecord,
    MoveRecord,
    PlayerRecord,
    RoomRecord,
    RoomStatusRecord,
    RoomVersion,
    StoredGame,
    StoredMember,
    StoredRoom,
    StoredRoomStatus,
)
from freecell_arena.engine import variant_by_id
from freecell_arena.protocol.play import MoveRequest, ResignRequest
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    MemberJoinedMessage,
    MemberLeftMessage,
    ProgressMessage,
    QuickRaceRequest,
    RaceAgainRequest,
    RaceOverMessage,
    RaceStartedMessage,
    RoomMember,
    RoomMessage,
    RoomOptions,
    StartRaceRequest,
)


def player_record(state: SharedState, player_id: str) -> PlayerRecord:
    return PlayerRecord(player_id, player_id, f"hash-{player_id}", False, state.clock.now())


def stored_lobby(state: SharedState, *member_ids: str, seq: int = 1, tag: str = "t1") -> StoredRoom:
    record = RoomRecord("r_1", "ROOM1", "freecell", 1, member_ids[0], {"countdown_s": 0}, state.clock.now())
    members = [StoredMember(member_id, "player", state.clock.now()) for member_id in member_ids]
    return StoredRoom(record, "lobby", None, None, [], members, seq=seq, tag=tag)


def playing_elsewhere(state: SharedState) -> PlayerGame:
    """A game of ROOM1 played on another process, as the store's copy brought it here."""
    record = GameRecord("g_far", "r_1", "far", "freecell", 1, "1", True, False, True, state.clock.now())
    game = PlayerGame.restore(record, variant_by_id("freecell"), "far", "ROOM1", [], None)
    state.games.replace(game)
    return game


def adopted(state: SharedState, *, shared: bool = True) -> Parts:
    parts = wire(state, shared=shared)
    parts.rebuild.adopt_room(stored_lobby(state, "host"), [], [player_record(state, "host")])
    return parts


def test_a_stored_lobby_comes_back_with_its_members_and_its_version(state: SharedState) -> None:
    parts = adopted(state)
    assert parts.rebuild.holds_room("ROOM1") and parts.rebuild.holds_room_id("r_1")
    room = state.rooms["ROOM1"]
    assert list(room.members) == ["host"] and (room.seq, room.tag) == (1, "t1") and not room.keeps_time
    assert state.players["host"].room_code == "ROOM1"
    again = parts.rebuild.adopt_room(stored_lobby(state, "host", seq=5), [], [])
    assert again is room and room.seq == 1, "a copy in memory is kept"


def test_remote_events_apply_by_version_and_a_gap_asks_for_a_resync(state: SharedState) -> None:
    replica = adopted(state).replica
    member = RoomMember(player_id="far", name="far", bot=False, role="player", connected=True)
    joined = MemberJoinedMessage(code="ROOM1", member=member)
    assert replica.apply_remote(joined, RoomVersion(2, "t2", "t1")) == "applied"
    assert replica.apply_remote(joined, RoomVersion(2, "t2", "t1")) == "seen"
    assert replica.apply_remote(joined, RoomVersion(4, "t4", "t3")) == "gap"
    assert replica.apply_remote(MemberJoinedMessage(code="NOPE", member=member), None) == "unknown"
    copy = replica.copy_of("ROOM1")
    assert copy is not None and copy.seq == 2
    assert state.rooms["ROOM1"].members["far"].elsewhere


def test_a_resync_takes_the_store_and_its_effect_tells_the_members_here(state: SharedState, clock: ManualClock) -> None:
    """Process A begins a race; process B, whose copy missed it, re-reads the room and the games A dealt."""
    a = wire(SharedState(clock))
    known_player(a.state, "host")
    a.lobby.create_room("host", CreateRoomRequest(variant="freecell", deal=1, options=RoomOptions(countdown_s=0)))
    room = a.state.rooms[a.state.players["host"].room_code or ""]
    b = wire(state, shared=True)
    lobby = StoredRoom(room.record, "lobby", None, None, [], [StoredMember("host", "player", clock.now())],
                       seq=room.seq, tag=room.tag)  # fmt: skip
    b.rebuild.adopt_room(lobby, [], [player_record(state, "host")])
    a.lobby.start_race("host", StartRaceRequest())
    clock.advance(0.1)
    a.tick()
    room = a.state.rooms_by_id[room.room_id]
    games = [StoredGame(game.record) for game in room.games.values()]
    running = StoredRoom(room.record, "running", room.starts_at, None, [game.game.game_id for game in games],
                         [StoredMember("host", "player", clock.now())], seq=room.seq, tag=room.tag)  # fmt: skip
    effect = b.replica.resync(running, games, [player_record(state, "host")])
    kinds = [type(publication.message) for publication in effect.publications]
    assert kinds == [RoomMessage, RaceStartedMessage], "the whole room, then the deal: the race began meanwhile"
    copy = b.replica.copy_of(room.code)
    assert copy is not None and (copy.status, copy.seq, copy.tag) == ("running", room.seq, room.tag)
    assert b.replica.holds_game(games[0].game.game_id)


def test_a_shared_race_that_may_be_over_is_handed_out_once_then_settled(state: SharedState, clock: ManualClock) -> None:
    parts = adopted(state)
    state.rooms.adopt(state.rooms["ROOM1"].but(status="running", games={"far": playing_elsewhere(state)}))
    progress = ProgressMessage.model_validate(
        {"code": "ROOM1", "progress": {"player_id": "far", "name": "far", "status": "won", "cards_on_foundations": 52,
                                       "moves": 80, "time_ms": 1000}})  # fmt: skip
    assert parts.replica.apply_remote(progress, None) == "applied"
    assert parts.tick() == [], "shared: not finished from memory"
    assert parts.replica.take_due() == ["ROOM1"] and parts.replica.take_due() == []
    state.games["g_far"].finish = state.games["g_far"].ending("won", clock.now())  # as the store's copy says
    effect = parts.replica.settle("ROOM1")
    assert effect is not None and any(isinstance(p.message, RaceOverMessage) for p in effect.publications)
    assert state.rooms["ROOM1"].status == "finished" and parts.replica.settle("ROOM1") is None


def test_a_room_closed_elsewhere_leaves_memory_on_resync(state: SharedState) -> None:
    parts = adopted(state)
    closed = StoredRoom(state.rooms["ROOM1"].record, "closed", None, None, [], [], seq=3, tag="t3")
    assert parts.replica.resync(closed, [], []).publications == []
    assert not parts.replica.holds_room("ROOM1") and state.players["host"].room_code is None


def test_a_picked_up_lobby_keeps_the_seats_of_members_connected_to_a_live_process(clock: ManualClock) -> None:
    """Process `here` picks up from the store a lobby that process `there` holds (a join by code, a quick race, a
    series' next room): its members connected `there` answer the roll call and keep their seats past the grace;
    a member of a process that died (nobody answers for them) loses theirs, one connected here keeps theirs."""
    there, here = wire(SharedState(clock), shared=True), wire(SharedState(clock), shared=True)
    for player_id in ("host", "guest"):
        known_player(there.state, player_id)
    known_player(here.state, "late")
    members = ("host", "guest", "gone", "late")
    records = [player_record(here.state, player_id) for player_id in members]
    there.rebuild.adopt_room(stored_lobby(there.state, "host", "guest"), [], records[:2])
    here.rebuild.adopt_room(stored_lobby(here.state, *members), [], records)
    assert here.replica.take_roll_calls() == ["ROOM1"] and here.replica.take_roll_calls() == [], "asked once"
    answers = there.replica.answer_roll_call("ROOM1")
    assert [(a.message.player_id, a.message.connected, a.skip) for a in answers] == [  # type: ignore[attr-defined]
        ("host", True, "host"),
        ("guest", True, "guest"),
    ]
    assert there.replica.answer_roll_call("NOPE") == []
    for answer in answers:
        assert here.replica.apply_remote(answer.message, None) == "applied"
    clock.advance(59)
    assert here.tick() == [] and len(here.state.rooms["ROOM1"].members) == 4, "the grace is not over"
    clock.advance(1)
    (gone,) = here.tick()
    assert list(here.state.rooms["ROOM1"].members) == ["host", "guest", "late"]
    assert [type(p.message) for p in gone.publications] == [MemberLeftMessage]  # type: ignore[attr-defined]


def test_a_lobby_picked_up_for_a_change_is_called_once_the_change_is_stored(clock: ManualClock) -> None:
    """Picked up for a join by code here: the roll call waits while the join is in flight, or the answers could
    reach the room's topic before the joining player listens to it (and they would never hear who is connected)."""
    here = wire(SharedState(clock), shared=True)
    known_player(here.state, "host")
    here.rebuild.adopt_room(stored_lobby(here.state, "host"), [], [player_record(here.state, "host")])
    room_id = here.state.rooms["ROOM1"].room_id
    here.state.rooms.claim([room_id])  # the join's change, on its way to the store
    assert here.replica.take_roll_calls() == [] and here.replica.take_roll_calls() == [], "not while in flight"
    here.state.rooms.release([room_id], refused=False)
    assert here.replica.take_roll_calls() == ["ROOM1"] and here.replica.take_roll_calls() == [], "then asked once"


def test_a_single_process_asks_for_no_roll_call(state: SharedState) -> None:
    """Without other processes, a lobby picked up from the store is one whose process was this one, restarted."""
    parts = adopted(state, shared=False)
    assert parts.replica.take_roll_calls() == []


def finished_elsewhere(state: SharedState, room: Room, *, seq: int, tag: str) -> StoredRoom:
    """The room as the store has it once another process's finish of the race won: finished, at its version."""
    games = list(room.games.values())
    members = [StoredMember(player_id, "player", state.clock.now()) for player_id in room.members]
    return StoredRoom(room.record, "finished", room.starts_at, state.clock.now(), [game.game_id for game in games],
                      members, seq=seq, tag=tag)  # fmt: skip


def shared_race_counting_down(state: SharedState) -> tuple[Parts, Room]:
    """A shared room (a cluster's) of ada, its host, and bob, its race started with no countdown to wait for."""
    parts = wire(state, shared=True)
    for player_id in ("ada", "bob"):
        known_player(state, player_id)
    parts.lobby.create_room("ada", CreateRoomRequest(variant="freecell", deal=1, options=RoomOptions(countdown_s=0)))
    room = state.rooms[state.players["ada"].room_code or ""]
    parts.lobby.join_room("bob", JoinRoomRequest(code=room.code))
    parts.lobby.start_race("ada", StartRaceRequest())
    return parts, room


def latest(state: SharedState, room: Room) -> Room:
    """The room as memory holds it now (each change is a new value)."""
    return state.rooms_by_id[room.room_id]


def test_a_finish_another_process_stored_first_stays_finished_when_ours_is_refused(
    state: SharedState, clock: ManualClock
) -> None:
    """Both processes of a shared race settle it at once, and the other one's finish is stored first. Its
    `race_over` reaches this process while our finish is still being written: memory still holds the running race
    (ours is not adopted before the store has it), so the event applies, and the members here are told the race is
    over. Then our write is refused: nothing is put back, so a member who presses "race again" on that `race_over`
    gets the next room (with rollbacks, the running race came back over the store's finish and that press was
    refused with `race_not_over`; test_cluster_series's two presses at once failed so)."""
    parts, room = shared_race_counting_down(state)
    clock.advance(0.1)
    parts.tick()
    for player_id in ("ada", "bob"):
        parts.play.resign(player_id, ResignRequest())
    parts.tick()
    assert parts.replica.take_due() == [room.code]
    ours = parts.raw.replica.settle(room.code)  # our finish, claimed and being written
    room = latest(state, room)
    assert ours is not None and room.status == "running", "memory takes our finish only once it is stored"
    (finish,) = [record for record in ours.records if isinstance(record, RoomStatusRecord)]
    assert finish.version is not None
    theirs = RoomVersion(finish.version.seq, "theirs", finish.version.previous)  # built on the running race too
    race_over = next(p.message for p in ours.publications if isinstance(p.message, RaceOverMessage))
    assert parts.replica.apply_remote(race_over, theirs) == "applied", "built on the race memory holds"
    assert (latest(state, room).status, latest(state, room).tag) == ("finished", "theirs")

    ours.refused()  # our write was refused: the other process finished the race first

    room = latest(state, room)
    assert (room.status, room.seq, room.tag) == ("finished", theirs.seq, "theirs"), "the store's finish stays"
    assert all(not game.running for game in room.games.values())
    assert parts.tick() == [] and parts.replica.take_due() == [], "nothing left to settle"
    again = parts.series.race_again("bob", RaceAgainRequest(id=7))
    assert [type(reply) for reply in again.replies] == [RoomMessage]


def stored_as(room: Room, status: StoredRoomStatus, games: list[StoredGame], *, seq: int, tag: str) -> StoredRoom:
    """The room as the store has it once another process's change of it won: `status`, its games, its version."""
    members = [StoredMember(player_id, member.role, room.record.created_at)
               for player_id, member in room.members.items()]
    return StoredRoom(room.record, status, room.starts_at, None, [game.game.game_id for game in games], members,
                      seq=seq, tag=tag)  # fmt: skip


def test_a_race_another_process_began_first_keeps_its_games_when_our_start_is_refused(
    state: SharedState, clock: ManualClock
) -> None:
    """Both processes of a shared room begin its race at once (the keeper, and another one after its grace), and
    the other one's start is stored first. Its whole room reaches this process while our start is still being
    written: the games were dealt there, so the copy is re-read from the store, running with them, and they become
    the games of the players here. Then our write is refused: memory never had our games, so nothing clears
    theirs (with rollbacks, the countdown came back over the store's race, clearing those games, and a move here
    was refused with `not_playing` until the next re-read)."""
    here, room = shared_race_counting_down(state)
    room = latest(state, room)
    players = [player_record(state, player_id) for player_id in ("ada", "bob")]
    there = wire(SharedState(clock), shared=True)
    copy = there.rebuild.adopt_room(stored_as(room, "countdown", [], seq=room.seq, tag=room.tag), [], players)
    clock.advance(0.1)
    (ours,) = here.raw.tick()  # our start, claimed and being written
    assert isinstance(ours, Effect) and latest(state, room).status == "countdown" and not state.games
    theirs = there.races.begin_race(copy)  # the other process's start, stored first
    copy = there.state.rooms_by_id[copy.room_id]
    (their_room,) = [p for p in theirs.publications if isinstance(p.message, RoomMessage)]
    assert their_room.version is not None and their_room.version.previous == room.tag, "built on the countdown"
    assert here.replica.apply_remote(their_room.message, their_room.version) == "gap", "its games are in the store"
    their_games = [StoredGame(game.record) for game in copy.games.values()]
    stored = stored_as(room, "running", their_games, seq=copy.seq, tag=copy.tag)
    here.replica.resync(stored, their_games, players)
    dealt_there = {game.player_id: game.game_id for game in copy.games.values()}

    ours.refused()  # our write was refused: the other process began the race first

    room = latest(state, room)
    assert (room.status, room.seq, room.tag) == ("running", copy.seq, copy.tag), "the store's race stays"
    assert {player_id: game.game_id for player_id, game in room.games.items()} == dealt_there
    assert {player_id: state.players[player_id].game_id for player_id in dealt_there} == dealt_there
    assert set(state.games) == set(dealt_there.values()), "only their games: ours never were in memory"
    assert [type(record) for record in here.play.move("ada", MoveRequest(move="1a")).records] == [MoveRecord]


def stored_room(room: Room, status: StoredRoomStatus, *members: str, starts_at: datetime | None = None, seq: int,
                tag: str, host: str | None = None) -> StoredRoom:
    """`room` as the store has it after another process's change won: its status, members, host and version."""
    record = replace(room.record, host_id=host or members[0])
    stored_members = [StoredMember(player_id, "player", record.created_at) for player_id in members]
    return StoredRoom(record, status, starts_at, None, [], stored_members, seq=seq, tag=tag)


def theirs_over(room: Room, effect: Effect, changes: int = 1) -> RoomVersion:
    """The version of the last of `changes` changes another process wrote over the one ours was built on (the
    version of the effect's first record, which memory still holds): what its last event carries."""
    built_on = next(record.version for record in effect.records if getattr(record, "version", None) is not None)
    assert built_on is not None and built_on.previous == room.tag, "memory holds what our change was built on"
    tags = [built_on.previous] + [f"theirs{n}" for n in range(1, changes + 1)]
    return RoomVersion(built_on.seq + changes - 1, tags[-1], tags[-2])


def test_a_host_seat_another_process_passed_first_stays_when_our_leave_is_refused(state: SharedState) -> None:
    """Host ada (on another process) and bob (here) leave their lobby at once; ada's leave is stored first, and
    the seat of host passes to bob. Her `member_left` reaches this process while bob's leave is being written, and
    applies (memory holds the room both were built on). Then bob's write is refused: nothing is put back, so bob is
    host (with rollbacks ada came back as host, and bob's start was refused with `not_host`)."""
    parts = wire(state, shared=True)
    known_player(state, "bob")
    players = [player_record(state, player_id) for player_id in ("ada", "bob")]
    room = parts.rebuild.adopt_room(stored_lobby(state, "ada", "bob"), [], players)
    ours = parts.raw.lobby.leave_room("bob", LeaveRoomRequest())  # being written
    ours.claim()
    assert list(latest(state, room).members) == ["ada", "bob"], "memory takes bob's leave once it is stored"
    theirs = theirs_over(room, ours)
    gone = MemberLeftMessage(code=room.code, player_id="ada", host_id="bob")
    assert parts.replica.apply_remote(gone, theirs) == "applied"
    assert (latest(state, room).host_id, list(latest(state, room).members)) == ("bob", ["bob"])

    ours.refused()  # refused: ada left first

    room = latest(state, room)
    assert (room.host_id, list(room.members), room.tag) == ("bob", ["bob"], theirs.tag), "the store's room stays"
    assert state.players["bob"].room_code == room.code, "bob still sits in it"
    started = parts.lobby.start_race("bob", StartRaceRequest())
    assert [type(reply) for reply in started.replies] == [CountdownMessage]


QUICK = QuickRaceRules(min_players=2, max_players=8, wait_s=10)


def quick_lobby(parts: Parts, *members: str, status: StoredRoomStatus = "lobby",
                starts_at: datetime | None = None) -> Room:
    """A quick race another process opened, picked up here, the variant's filling room here."""
    state = parts.state
    record = RoomRecord("r_1", "QUICK", "freecell", 1, members[0], {"countdown_s": 10, "max_players": 8},
                        state.clock.now(), quick=True)  # fmt: skip
    seats = [StoredMember(member, "player", state.clock.now()) for member in members]
    stored = StoredRoom(record, status, starts_at, None, [], seats, seq=1, tag="t1")
    room = parts.rebuild.adopt_room(stored, [], [player_record(state, member) for member in members])
    parts.quick.know_filling("freecell", room.code)
    return room


def test_a_countdown_another_process_began_first_stays_when_ours_is_refused(
    state: SharedState, clock: ManualClock
) -> None:
    """A quick race fills on two processes at once: bob's press here and cy's there each seat a second player and
    begin the countdown; cy's is stored first. Its countdown reaches this process while bob's is being written: a
    gap (cy's seat came first), so the copy is re-read (ada and cy, counting down to cy's start). Then bob's write
    is refused: nothing is put back, so dan's press joins that countdown (with rollbacks the lobby came back over
    it, and dan's press began a second countdown, 10 s later than the room was told at first)."""
    parts = wire(state, shared=True, quick=QUICK)
    for player_id in ("ada", "bob", "dan"):
        known_player(state, player_id)
    room = quick_lobby(parts, "ada")
    ours = parts.raw.quick.quick_race("bob", QuickRaceRequest(variant="freecell"))  # seat and countdown, in flight
    ours.claim()
    assert latest(state, room).status == "lobby"
    theirs = theirs_over(room, ours, changes=2)  # cy's seat, then the countdown
    starts_at = clock.now() + timedelta(seconds=10)
    counting = CountdownMessage(code=room.code, starts_at=starts_at, seconds=10)
    assert parts.replica.apply_remote(counting, theirs) == "gap"
    stored = stored_room(room, "countdown", "ada", "cy", starts_at=starts_at, seq=theirs.seq, tag=theirs.tag)
    parts.replica.resync(stored, [], [player_record(state, player_id) for player_id in ("ada", "cy")])

    ours.refused()  # refused: cy's seat and countdown were first

    room = latest(state, room)
    assert (room.status, room.starts_at, room.tag) == ("countdown", starts_at, theirs.tag), "the store's countdown"
    assert list(room.members) == ["ada", "cy"] and state.players["bob"].room_code is None
    clock.advance(1)
    joined = parts.quick.quick_race("dan", QuickRaceRequest(variant="freecell"))
    assert not any(isinstance(reply, CountdownMessage) for reply in joined.replies), "dan joins the countdown"
    assert latest(state, room).starts_at == starts_at


def test_a_lobby_another_process_went_back_to_first_stays_when_ours_is_refused(
    state: SharedState, clock: ManualClock
) -> None:
    """A quick race of two counts down; ada here and dan on another process leave at once, each below two
    players, so each puts the room back to waiting; dan's leave is stored first. Its event reaches this process
    while ada's is being written: a gap (his leave came first), so the copy is re-read (ada alone, waiting). Then
    ada's write is refused: nothing is put back, so bob's press begins a countdown with the two of them in (with
    rollbacks the countdown came back over the store's lobby and bob was seated in a countdown the store no
    longer had: the room waited for a third)."""
    parts = wire(state, shared=True, quick=QUICK)
    for player_id in ("ada", "bob"):
        known_player(state, player_id)
    room = quick_lobby(parts, "ada", "dan", status="countdown", starts_at=clock.now() + timedelta(seconds=10))
    ours = parts.raw.lobby.leave_room("ada", LeaveRoomRequest())  # her leave and the lobby again, in flight
    ours.claim()
    assert latest(state, room).status == "countdown"
    theirs = theirs_over(room, ours, changes=2)  # dan's leave, then the lobby again: the whole room
    waiting = RoomMessage(room=room.but(status="lobby", starts_at=None).view(clock.now(), lambda player_id: False))
    assert parts.replica.apply_remote(waiting, theirs) == "gap"
    parts.replica.resync(stored_room(room, "lobby", "ada", seq=theirs.seq, tag=theirs.tag), [],
                         [player_record(state, "ada")])  # fmt: skip

    ours.refused()  # refused: dan's leave was first

    room = latest(state, room)
    assert (room.status, room.starts_at, room.tag) == ("lobby", None, theirs.tag), "the store's lobby stays"
    assert list(room.members) == ["ada"] and state.players["ada"].room_code == room.code
    joined = parts.quick.quick_race("bob", QuickRaceRequest(variant="freecell"))
    assert any(isinstance(reply, CountdownMessage) for reply in joined.replies), "two players in: it counts down"
