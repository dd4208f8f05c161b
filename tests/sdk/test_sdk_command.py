"""`freecell-arena-bot` as a user runs it: real processes, real exit codes, one clear line on errors."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from .support import client_env, serverprocess

COMMAND_TIMEOUT_S = 90


def bot_command(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "freecell_arena_client", *args],
        capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, env=client_env(), cwd=cwd,
    )  # fmt: skip


def test_help_lists_the_options_and_exit_codes() -> None:
    result = bot_command("--help")
    assert result.returncode == 0
    for option in ("--server", "--room", "--create", "--daily", "--tournament",
                   "--bot", "--token-file", "--max-moves", "--players"):
        assert option in result.stdout
    assert "exit codes" in result.stdout


def test_bad_usage_exits_2_with_one_clear_line() -> None:
    neither = bot_command("--bot", "random")
    required = "one of the arguments --room --create --daily --tournament is required"
    assert neither.returncode == 2 and required in neither.stderr
    bad_variant = bot_command("--create", "spider")
    assert bad_variant.returncode == 2 and "invalid choice" in bad_variant.stderr
    bad_url = bot_command("--server", "http://127.0.0.1:1/", "--room", "X")
    assert bad_url.returncode == 2 and "ws:// or wss://" in bad_url.stderr
    bad_bot = bot_command("--room", "X", "--bot", "chess")
    assert bad_bot.returncode == 2 and "unknown bot 'chess'" in bad_bot.stderr
    seed_without_room = bot_command("--room", "X", "--seed", "3")
    assert seed_without_room.returncode == 2 and "go with --create" in seed_without_room.stderr
    assert "Traceback" not in neither.stderr + bad_url.stderr + bad_bot.stderr + seed_without_room.stderr


def test_an_unreachable_server_exits_3() -> None:
    result = bot_command("--server", "ws://127.0.0.1:9/", "--room", "X", "--give-up-after", "0.5")
    assert result.returncode == 3
    assert "cannot connect to ws://127.0.0.1:9/" in result.stderr and "gave up" in result.stderr
    assert "Traceback" not in result.stderr


async def test_a_hosted_race_and_a_refused_join_against_a_server_process(tmp_path: Path) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
    async with serverprocess.running_server(tmp_path, database_url=database_url, env=client_env()) as server:
        hosted, refused = await asyncio.gather(
            asyncio.to_thread(bot_command, "--server", server.url, "--create", "freecell", "--deal", "2",
                              "--bot", "solver", "--countdown", "0.1", "--name", "cli-solver"),
            asyncio.to_thread(bot_command, "--server", server.url, "--room", "NOSUCHROOM", "--bot", "random"),
        )
    assert hosted.returncode == 0, hosted.stderr
    lines = hosted.stdout.splitlines()
    assert lines[0].startswith("freecell-arena-bot: room ") and "(freecell)" in lines[0]
    assert lines[1].startswith("freecell-arena-bot: won after ")
    assert "cli-solver" in lines[2] and "(this bot)" in lines[2]
    assert refused.returncode == 1
    assert "unknown_room" in refused.stderr and "Traceback" not in refused.stderr
