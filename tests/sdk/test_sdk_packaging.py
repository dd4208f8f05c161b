"""The SDK ships with the project: pyproject's package discovery finds it beside the server, and both console
scripts point at functions that exist. (A real `pip install .` / `pip install -e .` into a fresh venv was
checked by hand; building wheels here would fetch the build backend.)"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

from setuptools import find_packages

REPO = Path(__file__).resolve().parents[2]


def test_package_discovery_finds_the_server_and_the_sdk() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    found: set[str] = set()
    for where in config["where"]:
        found.update(find_packages(where=str(REPO / where), include=config["include"]))
    assert {"server", "server.engine", "server.net", "server.protocol", "server.store"} <= found
    assert {"freecell_arena_client", "freecell_arena_client.bots"} <= found
    assert not any(name.startswith(("tests", "bench", "clients")) for name in found)


def test_console_scripts_resolve() -> None:
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["freecell-arena-bot"] == "freecell_arena_client.cli:main"
    for target in scripts.values():
        module, function = target.split(":")
        assert callable(getattr(importlib.import_module(module), function))
