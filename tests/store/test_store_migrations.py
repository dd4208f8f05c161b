"""Migrations on both backends: migrate creates and upgrades, check_migrated refuses with the command to run,
the migrated schema is exactly the models' schema, and the `migrate` command behaves for a user."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import pool, text

from freecell_arena.store import DatabaseNotMigratedError, check_migrated, current_revision, head_revision, migrate
from freecell_arena.store.engine import create_engine
from freecell_arena.store.models import metadata

REPOSITORY = Path(__file__).resolve().parents[2]


async def test_migrate_creates_a_fresh_sqlite_file_at_head(tmp_path: Path) -> None:
    path = tmp_path / "new" / "arena.db"
    path.parent.mkdir()
    url = f"sqlite:///{path}"
    assert await current_revision(url) is None
    assert not path.exists()  # looking does not create it
    await migrate(url)
    assert path.exists()
    assert await current_revision(url) == head_revision()
    await check_migrated(url)
    await migrate(url)  # again: nothing to do, no error
    assert await current_revision(url) == head_revision()


async def test_check_migrated_refuses_an_empty_database_naming_the_command(empty_database_url: str) -> None:
    with pytest.raises(DatabaseNotMigratedError) as refusal:
        await check_migrated(empty_database_url)
    message = str(refusal.value)
    assert "has no schema yet" in message
    assert "freecell-arena migrate --database-url" in message
    await migrate(empty_database_url)
    await check_migrated(empty_database_url)


@pytest.mark.postgres
async def test_check_migrated_refuses_an_empty_postgresql_database(postgres_url: str) -> None:
    with pytest.raises(DatabaseNotMigratedError, match=r"run `freecell-arena migrate --database-url postgresql"):
        await check_migrated(postgres_url)


async def test_check_migrated_refuses_a_revision_it_does_not_know(database_url: str) -> None:
    engine = create_engine(database_url, poolclass=pool.NullPool)
    async with engine.begin() as connection:
        await connection.execute(text("UPDATE alembic_version SET version_num = 'f00dfeed'"))
    await engine.dispose()
    with pytest.raises(DatabaseNotMigratedError, match="f00dfeed, which this server does not know"):
        await check_migrated(database_url)


async def test_the_migrated_schema_is_the_models_schema(database_url: str) -> None:
    engine = create_engine(database_url, poolclass=pool.NullPool)
    async with engine.connect() as connection:
        differences = await connection.run_sync(
            lambda sync: compare_metadata(MigrationContext.configure(sync, opts={"compare_type": True}), metadata)
        )
    await engine.dispose()
    assert differences == []


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "FREECELL_ARENA_DATABASE_URL"}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPOSITORY), environment.get("PYTHONPATH")]))
    environment.update(env or {})
    command = [sys.executable, "-m", "freecell_arena", *args]
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=120)


def test_migrate_command_migrates_then_reports_the_database_is_at_head(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    first = run_cli("migrate", "--database-url", url, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"to revision {head_revision()}" in first.stdout
    second = run_cli("migrate", "--database-url", url, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert "already at revision" in second.stdout


def test_migrate_command_takes_the_url_from_the_environment_else_the_default_file(tmp_path: Path) -> None:
    from_env = run_cli("migrate", cwd=tmp_path, env={"FREECELL_ARENA_DATABASE_URL": f"sqlite:///{tmp_path}/env.db"})
    assert from_env.returncode == 0, from_env.stderr
    assert (tmp_path / "env.db").exists()
    default = run_cli("migrate", cwd=tmp_path)
    assert default.returncode == 0, default.stderr
    assert (tmp_path / "freecell-arena.db").exists()


@pytest.mark.parametrize("url", ["mysql://localhost/arena", "postgresql://postgres@127.0.0.1:1/none", "::"])
def test_migrate_command_refuses_a_bad_database_in_one_line(tmp_path: Path, url: str) -> None:
    result = run_cli("migrate", "--database-url", url, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("freecell-arena: cannot migrate")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_sqlite_file_with_rooms_and_games_migrates_to_head(tmp_path: Path) -> None:
    """Batch mode rebuilds a SQLite table that other rows reference (rooms, under games): the migration runs
    with foreign keys not enforced and checks every reference at the end, so a populated file upgrades."""
    import asyncio
    import sqlite3

    from alembic import command

    from freecell_arena.store.migrations import alembic_config

    path = tmp_path / "populated.db"
    url = f"sqlite+aiosqlite:///{path}"
    command.upgrade(alembic_config(url), "0003")
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO players VALUES ('p_1', 'Ann', ?, 0, '2026-11-25 00:00:00.000000')", ("a" * 64,))
        connection.execute(
            "INSERT INTO rooms (id, code, variant, seed, host_id, options, status, created_at, seed_chosen) "
            "VALUES ('r_1', 'CODE1', 'freecell', 1, 'p_1', '{}', 'running', '2026-11-25 00:00:00.000000', 0)"
        )
        connection.execute(
            "INSERT INTO games (id, room_id, player_id, variant, seed, rules_version, autoplay, undo_allowed, ranked, "
            "started_at) VALUES ('g_1', 'r_1', 'p_1', 'freecell', 1, '1', 1, 0, 0, '2026-11-25 00:00:00.000000')"
        )
    asyncio.run(migrate(url))
    assert asyncio.run(current_revision(url)) == head_revision()
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT id, seq, version FROM rooms").fetchall() == [("r_1", 0, "")]
        assert connection.execute("SELECT room_id FROM games").fetchall() == [("r_1",)]
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
