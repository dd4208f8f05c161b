"""Core without sockets or SQL: the arena's rules with a hand-driven clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from freecell_arena.core.arena import Arena
from freecell_arena.core.effects import Refusal
from freecell_arena.core.ports import GameRecord, MoveRecord, ResultRecord, RoomStatusRecord
from freecell_arena.core.ranking import rank
from freecell_arena.protocol.messages import (
    CreateRoomRequest,
    HelloRequest,
    JoinRoomRequest,
    MoveRequest,
    ResignRequest,
    RoomOptions,
    Standing,
    StartRaceRequest,
)


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
    order = [row.player_id for row in rank(rows, "moves")]
    assert order == ["short_winner", "tie_moves_faster", "slow_winner", "resigned_many", "stuck_few"]
    speed = [row.player_id for row in rank(rows, "speed")]
    assert speed == ["tie_moves_faster", "slow_winner", "short_winner", "resigned_many", "stuck_few"]
    assert [row.rank for row in rank(rows, "moves")] == [1, 2, 3, 4, 5]


def test_equal_results_share_a_rank() -> None:
    rows = [standing("a", "won", 50, 1000, 52), standing("b", "won", 50, 1000, 52), standing("c", "won", 51, 1, 52)]
    assert [row.rank for row in rank(rows, "moves")] == [1, 1, 3]


def new_player(arena: Arena, name: str) -> str:
    player_id, _ = arena.register(HelloRequest(name=name))
    return player_id


def started_race(arena: Arena, clock: ManualClock, **options: object) -> tuple[str, str, str]:
    host, guest = new_player(arena, "host"), new_player(arena, "guest")
    room_options = RoomOptions.model_validate({"countdown_s": 3, **options})
    created = arena.handle(host, CreateRoomRequest(variant="freecell", deal=1, options=room_options))
    code = created.replies[0].room.code  # type: ignore[attr-defined]
    arena.handle(guest, JoinRoomRequest(code=code))
    countdown = arena.handle(host, StartRaceRequest())
    assert [type(record) for record in countdown.records] == [RoomStatusRecord]
    assert arena.tick() == [], "nothing starts before the countdown is over"
    clock.advance(3)
    (begin,) = arena.tick()
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
    assert effect.rollback is not None
    effect.rollback()
    assert game.game.actions == [] and game.game.board.cells == [0, 0, 0, 0]


def test_progress_goes_to_the_rest_of_the_room_and_a_solo_race_publishes_none() -> None:
    clock = ManualClock()
    arena = Arena(clock)
    _code, host, _ = started_race(arena, clock)
    (progress,) = arena.handle(host, MoveRequest(move="1a")).publications
    assert progress.skip == host and progress.message.progress.moves == 1  # type: ignore[attr-defined]
    solo = new_player(arena, "solo")
    arena.handle(solo, CreateRoomRequest(variant="freecell", deal=1, options=RoomOptions(countdown_s=0)))
    arena.handle(solo, StartRaceRequest())
    arena.tick()
    moved = arena.handle(solo, MoveRequest(move="1a"))
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
    arena.handle(host, ResignRequest())
    clock.advance(59)
    assert arena.tick() == []
    clock.advance(1)
    (finish,) = arena.tick()
    results = {record.game_id: record.outcome for record in finish.records if isinstance(record, ResultRecord)}
    assert list(results.values()) == ["timeout"]
    assert arena.rooms[code].status == "finished"
    with pytest.raises(Refusal) as refused:
        arena.handle(guest, MoveRequest(move="1a"))
    assert refused.value.code == "game_not_running"
