"""bench/load.py keeps working: a short real run against the game server and the echo server (figures are
printed, never asserted: speed is judged by people reading them, not by tests)."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest

from .support import REPO, client_env

RUN_TIMEOUT_S = 120


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "bench" / "load.py"), *args],
        cwd=REPO, env=client_env(), capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
    )  # fmt: skip


def test_a_short_run_plays_real_moves_on_both_servers() -> None:
    result = bench("--connections", "3", "--duration", "1", "--client-processes", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    server = next(line for line in lines if line.startswith("server (sqlite)"))
    echo = next(line for line in lines if line.startswith("echo"))
    for line in (server, echo):
        assert "errors 0" in line, line
        moves = re.search(r"moves/s\s+(\d+)", line)
        assert moves is not None and int(moves.group(1)) > 0, line
        assert re.search(r"conns\s+3\b", line), line
    assert "recorded move replies" in echo, echo  # the echo answers with the server's own replies
    assert "its workers" not in server, server  # the server under test starts no solver worker
    assert any(line.startswith("ratio server/echo at 3 connections (sqlite): ") for line in lines)


def test_bad_arguments_are_refused() -> None:
    result = bench("--connections", "5000")
    assert result.returncode == 2 and "--connections must be 1 to 2000" in result.stderr


def test_the_sans_io_echo_answers_with_the_recorded_replies_too() -> None:
    result = bench("--connections", "3", "--duration", "1", "--client-processes", "1", "--echo", "sansio")
    assert result.returncode == 0, result.stderr
    echo = next(line for line in result.stdout.splitlines() if line.startswith("echo (sansio)"))
    assert "errors 0" in echo and "recorded move replies" in echo, echo


def test_rooms_of_several_players_race_on_the_server_and_the_durable_echo_alike() -> None:
    """Room mode: the players of a room race one deal, and each hears the others' progress from both servers
    (coalescing off: every move is a frame to each of the two others)."""
    result = bench("--connections", "6", "--room-size", "3", "--duration", "2", "--client-processes", "1",
                   "--echo", "durable", "--setting", "progress_window_ms=0")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for name in ("server (sqlite)", "echo (durable)"):
        line = next(line for line in lines if line.startswith(name))
        assert "errors 0" in line and re.search(r"conns\s+6\b", line), line
        frames = re.search(r"room frames/move (\d+\.\d+)", line)
        # each move is a frame to each of the 2 others, read while they still play (a player whose game ended
        # stops reading): more than none, never more than 2
        assert frames is not None and 0.2 <= float(frames.group(1)) <= 2, line


def test_rooms_need_the_echo_that_tells_the_room() -> None:
    result = bench("--connections", "4", "--room-size", "2")
    assert result.returncode == 2 and "--room-size needs --echo durable" in result.stderr


def test_a_process_the_server_starts_is_counted_beside_it() -> None:
    """With daily preparation on (off by default in the bench), the solver worker's CPU is printed, not hidden."""
    result = bench("--connections", "3", "--duration", "2", "--client-processes", "1", "--target", "server",
                   "--setting", "daily_prepare_interval_s=300")
    assert result.returncode == 0, result.stderr
    server = next(line for line in result.stdout.splitlines() if line.startswith("server (sqlite)"))
    assert re.search(r"\+ its workers +\d+%", server), server


@pytest.mark.postgres
@pytest.mark.redis
def test_workers_are_measured_beside_one_worker_on_the_same_database(postgres_server: Any, redis_server: Any) -> None:
    """The bench starts its own PostgreSQL and Redis; the suite's fixtures are asked for their rule: skipped
    without them, failed under CI=true."""
    result = bench("--workers", "2", "--connections", "4", "--duration", "1", "--client-processes", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for name in ("server x1 (pg)", "server x1 +redis", "server x2 +redis"):
        line = next(line for line in lines if line.startswith(name))
        assert "errors 0" in line and re.search(r"conns\s+4\b", line), line
        moves = re.search(r"moves/s\s+(\d+)", line)
        assert moves is not None and int(moves.group(1)) > 0, line
    assert any(line.startswith("at 4 connections: with Redis / without: server CPU per move ") for line in lines)
    assert any(line.startswith("--workers 2 / --workers 1 (both with Redis): server CPU per move ") for line in lines)
