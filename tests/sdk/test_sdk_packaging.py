"""The project's package list is the server package (freecell_arena, with its migrations and the browser app) and
the SDK: pyproject's explicit list matches what setuptools discovers, and both console scripts point at functions
that exist. An editable install maps them all; a built wheel leaves the SDK, the engine and the protocol to the SDK's
own distribution (clients/python), which it requires at the SDK's version (setup.py's build_py). CI builds both
wheels and installs them into a fresh venv outside the checkout (.ci/install_check.py), and the SDK's alone into
another (tests/sdk/test_sdk_distribution.py)."""

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


def test_the_server_requires_the_sdk_at_its_version_and_leaves_its_packages_to_it() -> None:
    import ast

    sdk = tomllib.loads((REPO / "clients" / "python" / "pyproject.toml").read_text())
    assert f"freecell-arena-client=={sdk['project']['version']}" in CONFIG["project"]["dependencies"]
    (left,) = [ast.literal_eval(node.value) for node in ast.parse((REPO / "setup.py").read_text()).body
               if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "SDK_PACKAGES"]  # fmt: skip
    carried = sdk["tool"]["setuptools"]["packages"]
    assert {name for name in carried if not any(name.startswith(other + ".") for other in carried)} == set(left), (
        "what the server's wheel leaves out is what the SDK's wheel carries")
