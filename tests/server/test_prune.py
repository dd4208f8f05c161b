"""`freecell-arena prune` (store/retention.py) on SQLite and PostgreSQL, run while the server that filled the
database still serves: expired challenges, long-revoked tokens and idle unsaved players with no ranked game go (with
their unranked games, moves and rooms of their own); a saved player, a ranked game and its moves, a room shared
with another player, a series' rooms and a recent player stay; the audit is clean before and after; a dry run
counts the same and deletes nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import started_arena
from boards_helpers import ManualClock
from racing import open_race
from sqlalchemy import func, insert, pool, select

from freecell_arena.cli import build_parser
from freecell_arena.commands import audit as audit_command
from freecell_arena.store.engine import create_engine
from freecell_arena.store.models import AccessToken, Account, Game, Move, Player, Room, WebauthnChallenge, table_of

players, games, moves, rooms = table_of(Player), table_of(Game), table_of(Move), table_of(Room)
tokens, challenges = table_of(AccessToken), table_of(WebauthnChallenge)


async def unranked_solo(client: ArenaClient, moves_played: int = 3) -> str:
    """A room of the client's alone, unranked, a few moves then resigned: its code."""
    code, _ = await open_race(client, [], "freecell", countdown_s=0, ranked=False)
    for notation in ("3a", "3b", "3c")[:moves_played]:
        assert (await client.request({"type": "move", "move": notation}))["type"] == "move_accepted"
    assert (await client.request({"type": "resign"}))["type"] == "game_over"
    await client.expect("race_over", code=code)
    return code


async def prune(database_url: str, capsys: pytest.CaptureFixture[str], *extra: str) -> list[str]:
    """The command as a user runs it (its own event loop, in a thread): its lines."""
    args = build_parser(["prune"]).parse_args(["prune", "--database-url", database_url, *extra])
    capsys.readouterr()
    assert await asyncio.to_thread(args.run, args) == 0
    return capsys.readouterr().out.splitlines()


async def audit_code(database_url: str, capsys: pytest.CaptureFixture[str]) -> int:
    args = build_parser(["audit"]).parse_args(["audit", "--database-url", database_url])
    code: int = await asyncio.to_thread(audit_command.run, args)
    capsys.readouterr()
    return code


async def counts(database_url: str) -> dict[str, Any]:
    engine = create_engine(database_url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            async def one(query: Any) -> Any:
                return (await connection.execute(query)).scalar_one()

            ranked_moves = select(func.count()).select_from(moves.join(games, games.c.id == moves.c.game_id)).where(
                games.c.ranked.is_(True))  # fmt: skip
            return {
                "players": set((await connection.execute(select(players.c.display_name))).scalars()),
                "rooms": await one(select(func.count()).select_from(rooms)),
                "ranked games": await one(select(func.count()).select_from(games).where(games.c.ranked.is_(True))),
                "ranked moves": await one(ranked_moves),
                "games": await one(select(func.count()).select_from(games)),
                "moves": await one(select(func.count()).select_from(moves)),
                "tokens": set((await connection.execute(select(tokens.c.label))).scalars()),
                "challenges": set((await connection.execute(select(challenges.c.challenge))).scalars()),
            }
    finally:
        await engine.dispose()


async def test_prune_takes_what_may_go_and_nothing_else(database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    now = datetime.now(UTC)  # prune's own clock: the challenge "waiting" must still be pending when it runs
    clock = ManualClock(now - timedelta(days=60))
    async with started_arena(database_url, clock) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        names = ("drifter", "lurker", "regular", "keeper", "pal1", "pal2", "again", "recent")
        clients = {name: await connect_player(url, name) for name in names}
        try:
            await unranked_solo(clients["drifter"])
            await unranked_solo(clients["drifter"], moves_played=1)
            await unranked_solo(clients["keeper"])  # saved (below): stays with its unranked games
            regular = clients["regular"]  # a ranked game, resigned: stays with its moves
            code, _ = await open_race(regular, [], "freecell", countdown_s=0)
            assert (await regular.request({"type": "move", "move": "3a"}))["type"] == "move_accepted"
            assert (await regular.request({"type": "resign"}))["type"] == "game_over"
            await regular.expect("race_over", code=code)
            pal1, pal2 = clients["pal1"], clients["pal2"]  # an unranked race of two: shared, both stay
            code, _ = await open_race(pal1, [pal2], "freecell", countdown_s=0, ranked=False)
            for pal in (pal1, pal2):
                assert (await pal.request({"type": "resign"}))["type"] == "game_over"
            await pal1.expect("race_over", code=code)
            await unranked_solo(clients["again"])  # then race again: a series' two rooms stay
            assert (await clients["again"].request({"type": "race_again"}))["type"] == "room"
            clock.set(now - timedelta(days=5))  # a game 5 days ago: not idle for 30
            await unranked_solo(clients["recent"])
            await server.writer.flush()
        finally:
            for client in clients.values():
                await client.close()
        keeper = clients["keeper"].player_id
        engine = create_engine(database_url, poolclass=pool.NullPool)
        async with engine.begin() as connection:
            await connection.execute(insert(table_of(Account)).values(player_id=keeper, user_handle="h" * 43,
                                                                      created_at=now))  # fmt: skip
            await connection.execute(insert(tokens), [
                {"token_hash": label[0] * 64, "player_id": keeper, "kind": "session", "label": label,
                 "created_at": now, "last_used_at": None, "revoked_at": revoked}
                for label, revoked in (("old", now - timedelta(days=100)), ("new", now - timedelta(days=10)),
                                       ("live", None))])  # fmt: skip
            await connection.execute(insert(challenges), [
                {"challenge": challenge, "ceremony": "register", "player_id": clients["lurker"].player_id,
                 "expires_at": expires, "user_handle": None}
                for challenge, expires in (("expired", now - timedelta(minutes=1)),)] + [
                {"challenge": "waiting", "ceremony": "register", "player_id": None,
                 "expires_at": now + timedelta(minutes=30), "user_handle": None}])  # fmt: skip
        await engine.dispose()

        before = await counts(database_url)
        assert await audit_code(database_url, capsys) == 0
        dry = await prune(database_url, capsys, "--dry-run")
        assert await counts(database_url) == before, "a dry run deletes nothing"
        pruned = await prune(database_url, capsys)  # while the server still serves
        assert [line.replace("went", "would go") for line in pruned] == dry, "the dry run counted what went"

    assert pruned == [
        "expired passkey challenges: 1 went",
        "tokens revoked over 90 days ago: 1 went",
        "unsaved players idle 30 days with no ranked game: 2 went (with their unranked games: 2, moves: 4, rooms of "
        "their own: 2, room memberships: 1)",
    ], pruned
    after = await counts(database_url)
    assert after["players"] == before["players"] - {"drifter", "lurker"}
    assert (after["ranked games"], after["ranked moves"]) == (before["ranked games"], before["ranked moves"]) != (0, 0)
    assert (after["games"], after["moves"], after["rooms"]) == (before["games"] - 2, before["moves"] - 4,
                                                                before["rooms"] - 2)  # fmt: skip
    assert after["tokens"] == {"new", "live"} and after["challenges"] == {"waiting"}
    assert await audit_code(database_url, capsys) == 0, "the audit stays clean after a prune"
    assert (await prune(database_url, capsys))[2].startswith("unsaved players idle 30 days with no ranked game: 0")
