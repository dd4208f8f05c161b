"""SqlStore on both backends: every record round-trips, refusals keep nothing, instants come back aware UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from store_builders import PARIS, T0, game, move, player, room

from freecell_arena.core.ports.records import (
    MoveRecord,
    PlayerRecord,
    ResultRecord,
    RoomRecord,
    RoomStatusRecord,
    StoredGame,
)
from freecell_arena.store import RecordRefusedError, SqlStore


async def test_player_round_trips_by_id_and_token_hash(store: SqlStore) -> None:
    ann, bot = player(1), player(2, bot=True)
    await store.write([ann, bot])
    assert await store.player(ann.player_id) == ann
    assert await store.player_by_token_hash(bot.token_hash) == bot
    assert await store.player("p_missing") is None
    assert await store.player_by_token_hash("0" * 64) is None


async def test_game_with_moves_and_result_round_trips(store: SqlStore) -> None:
    owner = player()
    played = game(1, owner)
    moves = [move(played, index, notation) for index, notation in enumerate(["3a", "a3", "undo", "t1-f"])]
    result = ResultRecord(played.game_id, "won", 3, 9, 52, 61_234, T0 + timedelta(minutes=2))
    await store.write([owner, played, *moves])
    assert await store.game(played.game_id) == StoredGame(played, moves, None)
    await store.write([result])
    assert await store.game(played.game_id) == StoredGame(played, moves, result)
    assert await store.game("g_missing") is None


async def test_moves_come_back_in_index_order_whatever_the_write_order(store: SqlStore) -> None:
    owner = player()
    played = game(1, owner)
    await store.write([owner, played, move(played, 2), move(played, 0), move(played, 1)])
    stored = await store.game(played.game_id)
    assert stored is not None
    assert [m.index for m in stored.moves] == [0, 1, 2]


async def test_unfinished_games_are_the_players_games_without_a_result(store: SqlStore) -> None:
    ann, bob = player(1), player(2)
    open_one, open_two, finished, bobs = game(1, ann), game(2, ann), game(3, ann), game(4, bob)
    await store.write([ann, bob, open_one, open_two, finished, bobs, move(open_two, 0), move(open_two, 1)])
    await store.write([ResultRecord(finished.game_id, "resigned", 0, 0, 0, 5, T0)])
    unfinished = await store.unfinished_games(ann.player_id)
    assert [stored.game for stored in unfinished] == [open_one, open_two]
    assert [len(stored.moves) for stored in unfinished] == [0, 2]
    assert await store.unfinished_games("p_nobody") == []


async def test_room_lifecycle_by_code_and_by_id(store: SqlStore) -> None:
    host = player()
    created = room(1, host)
    games = [game(1, host, created), game(2, host, created)]
    started, ended = T0 + timedelta(seconds=10), T0 + timedelta(seconds=90)
    await store.write([host, created, RoomStatusRecord(created.room_id, "lobby", T0)])
    lobby = await store.room_by_code(created.code)
    assert lobby is not None
    assert (lobby.room, lobby.status, lobby.started_at, lobby.game_ids) == (created, "lobby", None, [])
    await store.write([RoomStatusRecord(created.room_id, "countdown", T0)])
    await store.write([RoomStatusRecord(created.room_id, "running", started), *games])
    await store.write([RoomStatusRecord(created.room_id, "finished", ended)])
    for stored in (await store.room_by_code(created.code), await store.room(created.room_id)):
        assert stored is not None
        assert stored.status == "finished"
        assert (stored.started_at, stored.finished_at) == (started, ended)
        assert stored.game_ids == [g.game_id for g in games]
    assert await store.room_by_code("NOSUCH") is None
    assert await store.room("r_missing") is None


async def test_instants_are_stored_as_utc_and_read_back_aware(store: SqlStore) -> None:
    owner = player()
    played = game(1, owner)
    in_paris = datetime(2026, 11, 23, 2, 30, tzinfo=PARIS)
    await store.write([owner, played, MoveRecord(played.game_id, 0, "3a", in_paris)])
    stored = await store.game(played.game_id)
    assert stored is not None
    at = stored.moves[0].at
    assert at == in_paris
    assert at.utcoffset() == timedelta(0)
    assert at == datetime(2026, 11, 23, 1, 30, tzinfo=UTC)


async def test_a_naive_instant_is_refused(store: SqlStore) -> None:
    owner = player()
    with pytest.raises(RecordRefusedError, match="naive datetime"):
        await store.write([owner, game(1, owner), MoveRecord(game(1).game_id, 0, "3a", datetime(2026, 1, 1))])
    assert await store.player(owner.player_id) is None


async def test_a_second_move_at_the_same_index_is_refused_and_nothing_of_its_batch_is_kept(store: SqlStore) -> None:
    owner = player()
    played = game(1, owner)
    await store.write([owner, played, move(played, 0, "3a")])
    with pytest.raises(RecordRefusedError):
        await store.write([move(played, 1, "a3"), move(played, 0, "4b")])
    stored = await store.game(played.game_id)
    assert stored is not None
    assert [(m.index, m.notation) for m in stored.moves] == [(0, "3a")]


@pytest.mark.parametrize(
    "orphan",
    [
        pytest.param(lambda: move(game(9), 0), id="move-of-unknown-game"),
        pytest.param(lambda: game(9, player(9)), id="game-of-unknown-player"),
        pytest.param(lambda: RoomStatusRecord("r_missing", "running", T0), id="status-of-unknown-room"),
        pytest.param(lambda: ResultRecord("g_missing", "won", 1, 1, 52, 1, T0), id="result-of-unknown-game"),
    ],
)
async def test_records_without_their_parent_are_refused(store: SqlStore, orphan: object) -> None:
    with pytest.raises(RecordRefusedError):
        await store.write([player(1), orphan()])  # type: ignore[operator]
    assert await store.player(player(1).player_id) is None


async def test_a_game_gets_one_result_only(store: SqlStore) -> None:
    owner = player()
    played = game(1, owner)
    first = ResultRecord(played.game_id, "won", 80, 90, 52, 1000, T0)
    await store.write([owner, played, first])
    with pytest.raises(RecordRefusedError):
        await store.write([ResultRecord(played.game_id, "timeout", 1, 1, 0, 2000, T0)])
    stored = await store.game(played.game_id)
    assert stored is not None
    assert stored.result == first


async def test_duplicate_token_hash_and_room_code_are_refused(store: SqlStore) -> None:
    ann = player(1)
    await store.write([ann, room(1, ann)])
    with pytest.raises(RecordRefusedError):
        await store.write([PlayerRecord("p_other", "Other", ann.token_hash, False, T0)])
    with pytest.raises(RecordRefusedError):
        await store.write([RoomRecord("r_other", room(1).code, "freecell", 1, ann.player_id, {}, T0)])


async def test_room_changes_are_written_only_over_the_version_they_were_built_on(store: SqlStore) -> None:
    """The compare-and-set that lets several processes share a room: of two changes built on one version, the
    second is refused and keeps nothing; a change built on a refused one is refused too, whatever its number;
    members, host and version come back as written; the direct batch writers leave membership to SQLAlchemy."""
    from freecell_arena.core.ports.records import MemberLeftRecord, MemberRecord, RoomVersion, StoredMember

    host, ann, bob = player(1), player(2), player(3)
    created = room(1, host)
    first = RoomVersion(1, "tag-1", "")
    await store.write([host, ann, bob, created, MemberRecord(created.room_id, host.player_id, "player", T0, first)])
    ann_joins = RoomVersion(2, "tag-ann", "tag-1")
    bob_joins = RoomVersion(2, "tag-bob", "tag-1")  # another process, from the same version
    await store.write([MemberRecord(created.room_id, ann.player_id, "player", T0, ann_joins)])
    with pytest.raises(RecordRefusedError, match="changed meanwhile"):
        await store.write([MemberRecord(created.room_id, bob.player_id, "player", T0, bob_joins)])
    built_on_refused = RoomVersion(3, "tag-start", "tag-bob")
    with pytest.raises(RecordRefusedError, match="changed meanwhile"):
        await store.write([RoomStatusRecord(created.room_id, "countdown", T0, built_on_refused)])
    leaves = RoomVersion(3, "tag-leave", "tag-ann")
    await store.write([MemberLeftRecord(created.room_id, host.player_id, ann.player_id, leaves)])
    stored = await store.room(created.room_id)
    assert stored is not None
    assert (stored.seq, stored.tag, stored.status) == (3, "tag-leave", "lobby")
    assert stored.room.host_id == ann.player_id
    assert stored.members == [StoredMember(ann.player_id, "player", T0)]
    assert [found.room.room_id for found in await store.live_rooms_of(ann.player_id)] == [created.room_id]
    assert await store.live_rooms_of(bob.player_id) == []
