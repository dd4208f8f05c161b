"""What the moderation tests share: paced races and daily wins over a real server, the `freecell-arena mod` and
`audit` commands as real processes, saved players with a software passkey, and snapshots of what sanctions change."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import Any

from arena_client import ArenaClient, connect_player
from authenticator import Credential, SoftwareAuthenticator
from boards_helpers import ManualClock, play, winning_moves
from serverprocess import run_command
from sqlalchemy import pool, text

from freecell_arena.core.records import daily
from freecell_arena.net.app import ArenaServer
from freecell_arena.store.engine import create_engine

DAILY_SECRET = "a test secret for moderation"


@dataclass
class Site:
    """A running server on a manual clock, its database, and the clients a test opened (closed at the end)."""

    server: ArenaServer
    clock: ManualClock
    database_url: str
    clients: list[ArenaClient] = field(default_factory=list)
    passkeys: dict[str, tuple[SoftwareAuthenticator, Credential]] = field(default_factory=dict)
    """The passkey each saved player was saved with, by player id (to sign in with it again)."""

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/"

    @property
    def origin(self) -> str:
        return f"http://localhost:{self.server.port}"

    async def player(self, name: str) -> ArenaClient:
        client = await connect_player(self.url, name)
        self.clients.append(client)
        return client

    async def open(self) -> ArenaClient:
        """A new connection that has said nothing yet (closed at the end)."""
        client = await ArenaClient.open(self.url)
        self.clients.append(client)
        return client

    async def saved(self, name: str) -> ArenaClient:
        """A player saved with a passkey (a software authenticator), as the account page does it."""
        client = await self.player(name)
        assert client.player_id is not None
        self.passkeys[client.player_id] = await save(client, self.origin)
        return client

    async def sign_in(self, player_id: str) -> tuple[ArenaClient, dict[str, Any]]:
        """Sign in with the saved player's passkey on a new connection (another device, before any hello): the
        connection and the answer (`signed_in`, or an error)."""
        device, credential = self.passkeys[player_id]
        client = await self.open()
        options = await client.request({"type": "passkey_begin", "ceremony": "sign_in"})
        assert options["type"] == "passkey_options", options
        response = device.get(json.dumps(options["options"]), self.origin, credential)
        answer = await client.request({"type": "passkey_finish", "ceremony": "sign_in",
                                       "credential": json.loads(response), "label": "another device"})  # fmt: skip
        return client, answer

    async def close(self) -> None:
        for client in self.clients:
            with contextlib.suppress(Exception):
                await client.close()

    async def race(self, winner: ArenaClient, *losers: ArenaClient) -> str:
        """A rated race on a server-drawn deal, won at a person's pace by `winner` (the others resign first);
        returns the room code once the race is rated."""
        created = await winner.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 0}})
        code = created["room"]["code"]
        for loser in losers:
            assert (await loser.request({"type": "join_room", "code": code}))["type"] == "room"
        await winner.request({"type": "start_race"})
        self.clock.advance(0.1)
        game = (await winner.expect("race_started", code=code))["game"]
        for loser in losers:
            await loser.expect("race_started", code=code)
            assert (await loser.request({"type": "resign"}))["type"] == "game_over"
        assert (await play(winner, winning_moves("freecell", int(game["seed"])), self.clock, 2.0))["status"] == "won"
        await winner.expect("race_ratings", code=code)
        await self.server.writer.flush()
        return str(code)

    async def next_day(self) -> None:
        """9:00 the next day (UTC), its daily prepared and the day before closed: a daily is ranked for players
        who were there before it opened."""
        now = self.clock.now()
        self.clock.set(datetime.combine(now.date() + timedelta(days=1), time(9), tzinfo=UTC))
        await self.server.daily.run_once()

    async def daily_win(self, client: ArenaClient) -> str:
        """Today's daily won at a person's pace: the game's id."""
        await client.request({"type": "leave_room"})  # out of a finished race's room, if in one
        started = await client.request({"type": "play_daily", "variant": "freecell"})
        assert started.get("ranked") is True, started
        deal = await self.server.store.dailies.deal("freecell", daily.today(self.clock.now()))
        assert deal is not None
        assert (await play(client, deal.solution, self.clock, 2.0))["status"] == "won"
        await self.server.writer.flush()
        return str(started["game"]["game_id"])


async def save(client: ArenaClient, origin: str) -> tuple[SoftwareAuthenticator, Credential]:
    """Save the player with a new passkey (a software authenticator) through the protocol's ceremony; the
    authenticator and the credential it made."""
    options = await client.request({"type": "passkey_begin", "ceremony": "save"})
    assert options["type"] == "passkey_options", options
    device = SoftwareAuthenticator()
    credential, response = device.create(json.dumps(options["options"]), origin)
    account = await client.request({"type": "passkey_finish", "ceremony": "save",
                                    "credential": json.loads(response), "label": "test"})  # fmt: skip
    assert account["type"] == "account" and account["saved"], account
    return device, credential


async def mod(database_url: str, *args: str) -> tuple[int, str, str]:
    return await run_command("mod", "--database-url", database_url, *args)


async def audit(database_url: str) -> tuple[int, str, str]:
    """`freecell-arena audit`'s whole check, run here rather than in a new interpreter (the command's start-up and
    output are tested in tests/server/test_audit.py; an audit after every step of a moderation test paid two seconds
    of start-up each): the exit code the command gives, the mismatch lines it prints, the flagged wins."""
    from freecell_arena.commands.audit import DEFAULT_BATCH
    from freecell_arena.commands.audit import audit as check

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        _, _, mismatches, flagged, _, _ = await check(database_url, DEFAULT_BATCH)
    return (1 if mismatches else 0), printed.getvalue(), "\n".join(flagged)


async def sql(database_url: str, statement: str, **values: Any) -> list[Any]:
    engine = create_engine(database_url, poolclass=pool.NullPool)
    try:
        async with engine.begin() as connection:
            result = await connection.execute(text(statement), values)
            return list(result.all()) if result.returns_rows else []
    finally:
        await engine.dispose()


async def derived(database_url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Everything a sanction derives again, in a comparable order (rating rows without their numbers)."""
    queries = {
        "entries": "SELECT board, player_id, game_id, score FROM leaderboard_entries ORDER BY board, player_id",
        "counts": "SELECT board, level, bucket, entries FROM leaderboard_counts WHERE entries <> 0 "
                  "ORDER BY board, level, bucket",
        "boards": "SELECT id, board FROM games ORDER BY id",
        "ratings": "SELECT variant, ladder, player_id, mu, sigma, races FROM ratings "
                   "ORDER BY variant, ladder, player_id",
        "changes": "SELECT room_id, ladder, player_id, rank, mu_before, sigma_before, mu_after, sigma_after, races "
                   "FROM rating_changes ORDER BY id",
        "daily_ranks": "SELECT variant, bots, day, player_id, rank FROM daily_ranks ORDER BY variant, bots, day, rank",
    }  # fmt: skip
    return {name: [tuple(row) for row in await sql(database_url, query)] for name, query in queries.items()}
