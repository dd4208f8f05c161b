"""A backup (`freecell-arena backup`, commands/backup.py) holds moderation whole: restored as docs/server.md says
(SQLite: the file copied; PostgreSQL: pg_restore), it has the mod log, the sanctions in force and the reports, the
audit replays them clean, and the restored mod log is still append-only (its triggers came with it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from moderation_support import Site, audit, mod, sql
from serverprocess import run_command
from sqlalchemy.exc import DBAPIError
from test_backup import restore

TABLES = ("mod_log", "sanctions", "reports", "retired_names")


async def test_a_backup_restores_the_mod_log_its_sanctions_and_its_refusals(site: Site, tmp_path: Path,
                                                                             request: pytest.FixtureRequest) -> None:
    url = site.database_url
    pacer, rude = await site.player("Pacer"), await site.player("Rude")
    await site.race(pacer, rude)
    for args in (("mark", pacer.player_id, "--reason", "think times of a program"),
                 ("rename", rude.player_id, "--reason", "offensive name")):
        code, _, err = await mod(url, *args)
        assert code == 0, err
    before = {table: await sql(url, f"SELECT * FROM {table} ORDER BY 1") for table in TABLES}
    assert before["mod_log"] and before["sanctions"] and before["retired_names"]

    backup = tmp_path / "arena.backup"
    code, _, err = await run_command("backup", str(backup), "--database-url", url)
    assert code == 0, err
    postgres = None if url.startswith("sqlite") else request.getfixturevalue("postgres_server")
    restored = await restore(backup, url, tmp_path, postgres)

    assert {table: await sql(restored, f"SELECT * FROM {table} ORDER BY 1") for table in TABLES} == before
    code, out, err = await audit(restored)
    assert (code, out) == (0, ""), err
    with pytest.raises(DBAPIError, match="append-only"):
        await sql(restored, "DELETE FROM mod_log")
    with pytest.raises(DBAPIError, match="append-only"):
        await sql(restored, "UPDATE mod_log SET reason = 'nothing happened'")
