"""`freecell-arena-bot --token-file` with a bot account's token: the bot plays as that account (its name, the
bots' boards), the owner's file is never rewritten, and a revoked token stops the bot with one clear line
instead of turning it into a new player."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from freecell_arena.core.accounts.account_ports import AccountRecord
from freecell_arena.core.accounts.passkeys import new_user_handle
from freecell_arena.core.identity import hash_token
from freecell_arena.protocol.leaderboards import LeaderboardMessage, LeaderboardRequest
from freecell_arena_client import ArenaClient, ConnectionLost, NewRoom, TokenFile, run_bot
from freecell_arena_client.bots import GreedyBot

from .support import Arena
from .test_sdk_command import bot_command


async def a_bot_account(arena: Arena) -> tuple[str, str, str]:
    """(owner id, bot id, bot token). The owner is saved by writing its account row: the passkey ceremony that
    normally does it is tested in tests/accounts; here it only stands behind the bot."""
    owner = await ArenaClient.connect(arena.url, name="Owner")
    try:
        assert owner.player_id is not None
        owner_id = owner.player_id
    finally:
        await owner.close()
    await arena.server.store.accounts.write_accounts([AccountRecord(owner_id, new_user_handle(), datetime.now(UTC))])
    bot = await arena.server.accounts.service.create_bot(owner_id, "Solvy", "the reference solver")
    return owner_id, bot.player_id, bot.token.secret


def test_a_bot_token_file_is_read_for_any_server_and_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "solvy.token"
    path.write_text("fcb_secret\n")
    tokens = TokenFile(path)
    assert tokens.load("ws://a/") == tokens.load("wss://b:1/") == "fcb_secret"
    tokens.save("ws://a/", "something else", "p1")
    tokens.forget("ws://a/")
    assert path.read_text() == "fcb_secret\n"


async def test_the_bot_command_plays_as_the_bot_account_and_stops_on_a_revoked_token(
    sqlite_arena: Arena, tmp_path: Path
) -> None:
    owner_id, bot_id, token = await a_bot_account(sqlite_arena)
    token_file = tmp_path / "solvy.token"
    token_file.write_text(token + "\n")
    args = ("--server", sqlite_arena.url, "--create", "freecell", "--deal", "2", "--bot", "solver",
            "--countdown", "0.1", "--name", "not-solvy", "--token-file", str(token_file))  # fmt: skip
    played = await asyncio.to_thread(bot_command, *args)
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    assert lines[1].startswith("freecell-arena-bot: won after ")
    assert "Solvy" in lines[2] and "(this bot)" in lines[2], "the account's name, not --name"
    assert token_file.read_text() == token + "\n"
    for bots, names in ((True, [("Solvy", True)]), (False, [])):
        board = await sqlite_arena.server.queries.answer(
            LeaderboardRequest(variant="freecell", board="deal", seed=2, bots=bots)
        )
        assert isinstance(board, LeaderboardMessage)
        assert [(row.name, row.claimed) for row in board.entries] == names
        assert all(row.player_id == bot_id for row in board.entries)

    await sqlite_arena.server.accounts.service.revoke(owner_id, hash_token(token))
    refused = await asyncio.to_thread(bot_command, *args)
    assert refused.returncode == 1
    assert "revoked" in refused.stderr and "Traceback" not in refused.stderr
    assert "new player" not in refused.stderr


async def test_a_running_bot_whose_token_is_revoked_stops_at_once(sqlite_arena: Arena) -> None:
    owner_id, bot_id, token = await a_bot_account(sqlite_arena)
    server = sqlite_arena.server
    running = asyncio.create_task(
        run_bot(GreedyBot(), sqlite_arena.url, create=NewRoom("freecell", deal=2), players=2, token=token,
                start_timeout_s=30, max_rate_per_s=None)
    )  # fmt: skip
    async with asyncio.timeout(10):
        while bot_id not in server.holder.by_player:  # waiting in its lobby for a second player
            await asyncio.sleep(0.02)
    server.close_revoked(await server.accounts.service.revoke(owner_id, hash_token(token)))
    with pytest.raises(ConnectionLost, match="revoked") as lost:
        async with asyncio.timeout(10):
            await running
    assert lost.value.code == 4001
