"""The wheel ships exactly the server package (freecell_arena, with its migrations and the browser app) and the
SDK: pyproject's explicit package list matches what setuptools discovers, and both console scripts point at
functions that exist. CI also builds the wheel and installs it into a fresh venv outside the checkout
(.ci/install_check.py)."""

from __future__ import annotations

import importlib
import importlib.resources
import tomllib
from pathlib import Path

from setuptools import find_packages

REPO = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text())


def test_the_package_list_is_every_discovered_package_plus_the_migrations_and_the_web_app() -> None:
    setuptools_config = CONFIG["tool"]["setuptools"]
    discovered = set(find_packages(where=str(REPO / "server"))) | set(find_packages(where=str(REPO / "clients/python")))
    assert set(setuptools_config["packages"]) == discovered | {"freecell_arena.migrations", "freecell_arena.web"}
    assert {name.split(".")[0] for name in setuptools_config["packages"]} == {"freecell_arena", "freecell_arena_client"}
    assert setuptools_config["package-dir"]["freecell_arena.migrations"] == "migrations"
    assert setuptools_config["package-dir"]["freecell_arena.web"] == "clients/web"


def test_the_web_app_ships_every_file_the_server_serves_and_not_its_tests() -> None:
    """package-data's patterns against net/web.py's list of served types: a new kind of file cannot be left out."""
    from fnmatch import fnmatch

    from freecell_arena.net.web import CONTENT_TYPES

    patterns = CONFIG["tool"]["setuptools"]["package-data"]["freecell_arena.web"]
    for suffix in CONTENT_TYPES:
        assert any(fnmatch(f"index{suffix}", p) or fnmatch(f"js/x{suffix}", p) for p in patterns), suffix
    assert CONFIG["tool"]["setuptools"]["exclude-package-data"]["freecell_arena.web"][0] == "tests/*"


def test_the_migration_scripts_are_a_package_resource() -> None:
    scripts = importlib.resources.files("freecell_arena.migrations")
    assert scripts.joinpath("env.py").is_file() and scripts.joinpath("script.py.mako").is_file()
    assert any(entry.name.startswith("0001_") for entry in scripts.joinpath("versions").iterdir())


def test_console_scripts_resolve() -> None:
    scripts = CONFIG["project"]["scripts"]
    assert scripts["freecell-arena"] == "freecell_arena.cli:main"
    assert scripts["freecell-arena-bot"] == "freecell_arena_client.cli:main"
    for target in scripts.values():
        module, function = target.split(":")
        assert callable(getattr(importlib.import_module(module), function))
