"""The command line imports only what the command run needs: `--help`, `deal`, `replay` and `solve` never load the
database stack (SQLAlchemy, Alembic, asyncpg) or pydantic. Checked in a fresh interpreter, since this test
process has loaded everything already."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from freecell_arena.cli import COMMANDS, build_parser

HEAVY = ("sqlalchemy", "alembic", "asyncpg", "aiosqlite", "pydantic", "websockets")

PROBE = """
import contextlib, io, json, sys
from freecell_arena.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(json.loads(sys.argv[1]))
    except SystemExit:
        pass
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def modules_loaded_by(*argv: str) -> set[str]:
    result = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv)], capture_output=True, text=True,
                            timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    "argv",
    [("--help",), (), ("deal", "freecell", "1"), ("deal", "cell-eleven", "3", "--json"),
     ("replay", "freecell", "1", "5a"), ("solve", "freecell", "1", "--budget", "5"), ("solve", "--help",)],
)  # fmt: skip
def test_light_commands_load_no_database_stack(argv: tuple[str, ...]) -> None:
    assert modules_loaded_by(*argv).isdisjoint(HEAVY)


def test_the_heavy_commands_do_load_it() -> None:
    """The probe can fail: `migrate --help` builds the migrate parser, whose module needs the store."""
    assert "sqlalchemy" in modules_loaded_by("migrate", "--help")


def test_every_command_module_is_listed_and_parses() -> None:
    import pkgutil

    import freecell_arena.commands

    modules = {info.name for info in pkgutil.iter_modules(freecell_arena.commands.__path__)} - {"common"}
    assert modules == set(COMMANDS)
    parser = build_parser(every_command=True)
    assert parser.parse_args(["deal", "freecell", "1"]).run.__module__ == "freecell_arena.commands.deal"


def test_the_store_package_exports_lazily() -> None:
    """`from freecell_arena.store import StoreError` loads the errors module alone; every export resolves."""
    probe = (
        "import sys; from freecell_arena.store import StoreError; import freecell_arena.store as store; "
        "assert 'sqlalchemy' not in sys.modules, 'eager'; "
        "assert all(getattr(store, name) is not None for name in store.__all__); print('ok')"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "ok", result.stderr


def test_the_store_exports_are_the_lazy_table() -> None:
    import freecell_arena.store as store

    assert sorted(store.__all__) == sorted(store._EXPORTS)
