"""Core without sockets or SQL: the arena's rules with a hand-driven clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from core_driver import accepted, registered, ticked

from freecell_arena.core.arena import Arena
from freecell_arena.core.effects import Refusal
from freecell_arena.core.ports.records import GameRecord, MoveRecord, ResultRecord, RoomStatusRecord
from freecell_arena.core.records.ranking import TIED_NON_FINISHERS_FROM, rank
from freecell_arena.protocol.play import MoveRequest, ResignRequest
from freecell_arena.protocol.rooms import (
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    RoomOptions,
    Standing,
    StartRaceRequest,
)

BEFORE_TIES = TIED_NON_FINISHERS_FROM - timedelta(days=1)
"""A race started before non-finishers with the same cards home tied: ranked by the rule it was played under."""


class ManualClock:
    def __init__(self) -> None:
        self.instant = datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.instant

    def advance(self, seconds: float) -> None:
        self.instant += timedelta(seconds=seconds)


def standing(player: str, outcome: str, moves: int, time_ms: int, cards: int) -> Standing:
    return Standing(
        rank=0, player_id=player, name=player, game_id=f"g_{player}", outcome=outcome,  # type: ignore[arg-type]
        moves=moves, single_card_moves=moves, cards_on_foundations=cards, time_ms=time_ms,
    )


def test_winners_first_by_moves_then_time_then_the_rest_by_cards() -> None:
    rows = [
        standing("slow_winner", "won", 90, 90_000, 52),
        standing("short_winner", "won", 80, 120_000, 52),
        standing("tie_moves_faster", "won", 90, 60_000, 52),
        standing("resigned_many", "resigned", 10, 1_000, 20),
        standing("stuck_few", "stuck", 10, 1_000, 5),
    ]
    order = [row.player_id for row in rank(rows, "moves", BEFORE_TIES)]
    assert order == ["short_winner", "tie_moves_faster", "slow_winner", "resigned_many", "stuck_few"]
    speed = [row.player_id for row in rank(rows, "speed", BEFORE_TIES)]
    assert speed == ["tie_moves_faster", "slow_winner", "short_winner", "resigned_many", "stuck_few"]
    assert [row.rank for row in rank(rows, "moves", BEFORE_TIES)] == [1, 2, 3, 4, 5]


def test_non_finishers_with_the_same_cards_home_tie_from_the_change_on() -> None:
    """Whoever gave up first is no better for it; a race that started before the change keeps its old order."""
    rows = [standing("gave_up_later", "resigned", 40, 90_000, 6), standing("gave_up_first", "resigned", 3, 5_000, 6),
            standing("more_home", "timeout", 60, 99_000, 9), standing("winner", "won", 90, 80_000, 52)]  # fmt: skip
    after = rank(rows, "moves", TIED_NON_FINISHERS_FROM)
    assert [(row.player_id, row.rank) for row in after] == [
        ("winner", 1), ("more_home", 2), ("gave_up_later", 3), ("gave_up_first", 3)]  # fmt: skip
    before = rank(rows, "moves", BEFORE_TIES)
    assert [(row.player_id, row.rank) for row in before] == [
        ("winner", 1), ("more_home", 2), ("gave_up_first", 3), ("gave_up_later", 4)]  # fmt: skip


def test_equal_results_share_a_rank() -> None:
    rows = [standing("a", "won", 50, 1000, 52), standing("b", "won", 50, 1000, 52), standing("c", "won", 51, 1, 52)]
    assert [row.rank for row in rank(rows, "moves", BEFORE_TIES)] == [1, 1, 3]


def new_player(arena: Arena, name: str) -> str:
    return registered(arena, name)


def started_race(arena: Arena, clock: ManualClock, **options: object) -> tuple[str, str, str]:
    host, guest = new_player(arena, "host"), new_player(arena, "guest")
    room_options = RoomOptions.model_validate({"countdown_s": 3, **options})
    created = accepted(arena.handle(host, CreateRoomRequest(variant="freecell", deal=1, options=room_options)))
    code = created.replies[0].room.code  # type: ignore[attr-defined]
    accepted(arena.handle(guest, JoinRoomRequest(code=code)))
    countdown = accepted(arena.handle(host, StartRaceRequest()))
    assert [type(record) for record in countdown.records] == [RoomStatusRecord]
    assert ticked(arena) == [], "nothing starts before the countdown is over"
    clock.advance(3)
    (begin,) = ticked(arena)
    games = [record for record in begin.records if isinstance(record, GameRecord)]
    assert len(games) == 2 and len({game.started_at for game in games}) == 1
    return code, host, guest


def test_a_move_is_a_record_and_rollback_restores_the_game() -> None:
    clock = ManualClock()
    arena = Arena(clock)
    _, host, _ = started_race(arena, clock)
    effect = arena.handle(host, MoveRequest(move="1a"))
    assert [type(record) for record in effect.records] == [MoveRecord]
    game = arena.games[arena.players[host].game_id or ""]
    assert game.game.actions == ["1a"]
    effect.refused()  # the store refused it: the engine takes the move back
    assert game.game.actions == [] and game.game.board.cells == [0, 0, 0, 0]


def test_progress_goes_to_the_rest_of_the_room_and_a_solo_race_publishes_none() -> None:
    clock = ManualClock()
    arena = Arena(clock)
    _code, host, _ = started_race(arena, clock)
    (progress,) = accepted(arena.handle(host, MoveRequest(move="1a"))).publications
    assert progress.skip == host and progress.message.progress.moves == 1  # type: ignore[attr-defined]
    solo = new_player(arena, "solo")
    accepted(arena.handle(solo, CreateRoomRequest(variant="freecell", deal=1, options=RoomOptions(countdown_s=0))))
    accepted(arena.handle(solo, StartRaceRequest()))
    ticked(arena)
    moved = accepted(arena.handle(solo, MoveRequest(move="1a")))
    assert moved.records and moved.publications == []


def test_refusals_change_nothing() -> None:
    clock = ManualClock()
    arena = Arena(clock)
    _, host, _guest = started_race(arena, clock)
    with pytest.raises(Refusal) as refused:
        arena.handle(host, MoveRequest(move="1h"))
    assert refused.value.code == "illegal_move" and refused.value.reason
    assert arena.games[arena.players[host].game_id or ""].game.actions == []
    with pytest.raises(Refusal) as refused:
        arena.handle(new_player(arena, "late"), JoinRoomRequest(code=arena.players[host].room_code or ""))
    assert refused.value.code == "room_started"


def test_time_limit_ends_the_race_with_timeouts() -> None:
    clock = ManualClock()
    arena = Arena(clock)
    code, host, guest = started_race(arena, clock, time_limit_s=60)
    accepted(arena.handle(host, ResignRequest()))
    clock.advance(59)
    assert ticked(arena) == []
    clock.advance(1)
    (finish,) = ticked(arena)
    results = {record.game_id: record.outcome for record in finish.records if isinstance(record, ResultRecord)}
    assert list(results.values()) == ["timeout"]
    assert arena.rooms[code].status == "finished"
    with pytest.raises(Refusal) as refused:
        arena.handle(guest, MoveRequest(move="1a"))
    assert refused.value.code == "game_not_running"


def test_room_changes_carry_consecutive_versions_and_a_lobby_picked_up_gives_up_absent_seats() -> None:
    """Every membership or status change is a record with the room's next version (the store's compare-and-set);
    a lobby adopted from the store keeps its members a while, then the absent ones leave and the last closes it."""
    from freecell_arena.core.ports.records import MemberLeftRecord, MemberRecord, PlayerRecord, StoredMember, StoredRoom

    clock = ManualClock()
    arena = Arena(clock)
    host = registered(arena, "host")
    guest = registered(arena, "guest")
    created = accepted(arena.lobby.create_room(host, CreateRoomRequest(variant="freecell")))
    room_record = created.records[0]
    code = arena.players[host].room_code
    assert code is not None
    joined = accepted(arena.lobby.join_room(guest, JoinRoomRequest(code=code)))
    left = accepted(arena.lobby.leave_room(guest, LeaveRoomRequest()))
    versions = [record.version for effect in (created, joined, left) for record in effect.records
                if isinstance(record, MemberRecord | MemberLeftRecord | RoomStatusRecord) and record.version]
    assert [version.seq for version in versions] == [1, 2, 3]
    assert [version.previous for version in versions] == ["", versions[0].tag, versions[1].tag]
    assert len({version.tag for version in versions}) == 3, "every version has its own tag"
    room_copy = arena.rooms[code]
    failed = arena.lobby.join_room(guest, JoinRoomRequest(code=code))
    failed.claim()
    failed.refused()  # the store refused it: memory never took it
    assert arena.rooms[code] is room_copy and (room_copy.seq, room_copy.tag) == (3, versions[2].tag)
    assert guest not in room_copy.members

    later = Arena(clock)  # another process (or this one restarted) picks the lobby up from the store
    players = [arena.players[pid].record for pid in (host, guest)]
    assert all(isinstance(player, PlayerRecord) for player in players)
    members = [StoredMember(host, "player", clock.now())]
    stored = StoredRoom(room_record, "lobby", None, None, [], members, seq=3, tag=versions[2].tag)
    room = later.rebuild.adopt_room(stored, [], players)  # type: ignore[arg-type]
    assert list(room.members) == [host] and later.players[host].room_code == code
    clock.advance(59)
    assert not ticked(later)
    clock.advance(2)
    [gone] = ticked(later)
    assert [type(record).__name__ for record in gone.records] == ["MemberLeftRecord", "RoomStatusRecord"]
    assert [record.version.seq for record in gone.records] == [4, 5]  # type: ignore[union-attr]
    assert gone.records[1].status == "closed" and code not in later.rooms  # type: ignore[union-attr]


def _a_room_shared_by_two_processes(options: RoomOptions | None = None) -> tuple[ManualClock, Arena, Arena, str, str]:
    """Two processes (two arenas, one clock): A's host creates a room; B holds a copy of it as the store has it.
    Returns (clock, a, b, host, code)."""
    from freecell_arena.core.ports.records import PlayerRecord, StoredMember, StoredRoom

    clock = ManualClock()
    a, b = Arena(clock), Arena(clock, shared=True)
    host = registered(a, "host")
    request = CreateRoomRequest(variant="freecell", options=options or RoomOptions())
    created = accepted(a.lobby.create_room(host, request))
    code = a.players[host].room_code
    assert code is not None
    room_a = a.rooms[code]
    host_record = a.players[host].record
    assert isinstance(host_record, PlayerRecord)
    stored = StoredRoom(created.records[0], "lobby", None, None, [], [StoredMember(host, "player", clock.now())],  # type: ignore[arg-type]
                        seq=room_a.seq, tag=room_a.tag)  # fmt: skip
    b.rebuild.adopt_room(stored, [], [host_record])
    return clock, a, b, host, code


def test_a_copy_of_a_room_applies_events_built_on_its_version_and_asks_for_a_resync_otherwise() -> None:
    """B's copy of A's room follows A's events by version; a repeated event is `seen`, an event built on a
    version B never saw is a `gap` (B then re-reads the store)."""
    from freecell_arena.protocol.rooms import MemberJoinedMessage

    _, a, b, _, code = _a_room_shared_by_two_processes()
    room_b = b.rooms[code]
    first, second = (registered(a, name) for name in ("first", "second"))
    joins = [accepted(a.lobby.join_room(player, JoinRoomRequest(code=code))) for player in (first, second)]
    events = [(effect.publications[0].message, effect.publications[0].version) for effect in joins]
    assert all(isinstance(message, MemberJoinedMessage) for message, _ in events)
    assert b.replica.apply_remote(*events[0]) == "applied" and first in b.rooms[code].members
    assert b.replica.apply_remote(*events[0]) == "seen", "a repeated event changes nothing"
    room_b = b.rooms[code]
    assert (room_b.seq, room_b.tag) == (events[0][1].seq, events[0][1].tag)  # type: ignore[union-attr]
    third = registered(a, "third")
    missed = accepted(a.lobby.join_room(third, JoinRoomRequest(code=code))).publications[0]
    assert b.replica.apply_remote(missed.message, missed.version) == "gap", "built on a version this copy never saw"
    assert third not in b.rooms[code].members
    assert b.replica.apply_remote(*events[1]) == "applied" and second in b.rooms[code].members


def test_a_copy_of_a_room_learns_a_race_began_elsewhere_from_the_room_event() -> None:
    """The whole room (`room`, sent when its status changes) carries no `code` of its own: a copy must still find
    its room by the code inside. A race begun by another process holds games only the store has: a `gap`, which
    re-reads them (without it, the copy stayed in its countdown and began the race again after its grace)."""
    from freecell_arena.protocol.rooms import RoomMessage

    clock, a, b, host, code = _a_room_shared_by_two_processes(RoomOptions(countdown_s=0))
    countdown = accepted(a.lobby.start_race(host, StartRaceRequest()))
    whole = [p for p in countdown.publications if isinstance(p.message, RoomMessage)]
    assert [b.replica.apply_remote(p.message, p.version) for p in whole] == ["applied"]
    assert b.rooms[code].status == "countdown"
    clock.advance(0.1)
    [begun] = ticked(a)
    [running] = [p for p in begun.publications if isinstance(p.message, RoomMessage)]
    assert b.replica.apply_remote(running.message, running.version) == "gap"


def test_a_race_with_a_player_of_another_process_begins_and_deals_them_a_game() -> None:
    """A member known only from another process's event has no identity here: the race still begins, and their
    deal goes to their own process through their player topic (which adopts the game from the store)."""
    from freecell_arena.core.ports.records import RoomVersion
    from freecell_arena.protocol.rooms import MemberJoinedMessage, RoomMember

    clock = ManualClock()
    arena = Arena(clock, shared=True)
    host = registered(arena, "host")
    accepted(arena.lobby.create_room(host, CreateRoomRequest(variant="freecell", options=RoomOptions(countdown_s=0))))
    code = arena.players[host].room_code
    assert code is not None
    room = arena.rooms[code]
    remote = RoomMember(player_id="p_elsewhere", name="far", bot=False, role="player", connected=True)
    joined = MemberJoinedMessage(code=code, member=remote)
    assert arena.replica.apply_remote(joined, RoomVersion(room.seq + 1, "t", room.tag))
    accepted(arena.lobby.start_race(host, StartRaceRequest()))
    clock.advance(0.1)
    [begun] = ticked(arena)
    dealt = {publication.topic for publication in begun.publications if publication.message.type == "race_started"}
    assert dealt == {f"player:{host}", "player:p_elsewhere"}
    assert set(arena.rooms[code].games) == {host, "p_elsewhere"} and "p_elsewhere" not in arena.players


def test_a_lobby_stored_without_members_is_closed_when_its_grace_ends() -> None:
    """A lobby written before rooms had members in the store comes back empty: nobody can return to it, so it
    is closed (not kept in memory and in the store as a lobby forever)."""
    from freecell_arena.core.ports.records import RoomRecord, StoredRoom

    clock = ManualClock()
    arena = Arena(clock)
    record = RoomRecord("r_old", "OLDROOM1", "freecell", 1, "p_gone", {}, clock.now())
    arena.rebuild.adopt_room(StoredRoom(record, "lobby", None, None), [], [])
    clock.advance(61)
    [closed] = ticked(arena)
    assert [(type(r).__name__, getattr(r, "status", None)) for r in closed.records] == [("RoomStatusRecord", "closed")]
    assert "OLDROOM1" not in arena.rooms
