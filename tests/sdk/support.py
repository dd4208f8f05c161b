"""Helpers of the SDK tests (a module name of its own: `from conftest import` is ambiguous across test dirs).

A real ArenaServer on a loopback port in this process over a real database, and the server-process helpers of
tests/server (loaded by path: their directory is not a package).
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from freecell_arena.net.app import ArenaServer
from freecell_arena.settings import Settings
from freecell_arena.store import GroupCommitWriter, SqlStore

REPO = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


serverprocess = _load("server_tests_serverprocess", REPO / "tests" / "server" / "serverprocess.py")


@dataclass
class Arena:
    server: ArenaServer
    url: str
    database_url: str


LOOPBACK_LIMITS: dict[str, Any] = {
    "max_connections_per_address": 100_000,
    "new_players_per_minute": 1e9,
    "api_rate_limit_per_s": 1e6,
    "api_rate_limit_burst": 1_000_000,
}
"""Every test client comes from 127.0.0.1: the per-address limits would count them all as one person."""


async def start_server(database_url: str, **overrides: Any) -> ArenaServer:
    """Limits high enough that unpaced bots are never rate limited; a fast tick so races end promptly."""
    values: dict[str, Any] = {"rate_limit_per_s": 10_000.0, "rate_limit_burst": 10_000, **LOOPBACK_LIMITS,
                              "par_at_race_end": False,  # as the server tests: no solver worker per finished race
                              **overrides}  # fmt: skip
    settings = Settings(host="127.0.0.1", port=0, database_url=database_url, tick_interval_s=0.02, **values)
    store = SqlStore(database_url)
    server = ArenaServer(settings, store, GroupCommitWriter(store))
    await server.start()
    return server


def client_env() -> dict[str, str]:
    """The environment of a subprocess that runs the server or the bot command from this checkout."""
    paths = [str(REPO), str(REPO / "clients" / "python")]
    return serverprocess.server_env(PYTHONPATH=":".join(paths))
