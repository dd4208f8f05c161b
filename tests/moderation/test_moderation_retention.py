"""`freecell-arena prune` (store/retention.py) beside moderation: an idle unsaved player a report or the mod log
names stays (the append-only log and the reports refer to them), and does not hold back the others of their batch."""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

from sqlalchemy import insert, select

from freecell_arena.store import SqlStore
from freecell_arena.store.models import ModAction, Player, Report, Sanction, table_of
from freecell_arena.store.retention import Retention, RetentionStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))
from store_builders import T0, player

players = table_of(Player)


async def test_prune_keeps_the_players_reports_and_the_mod_log_name(database_url: str) -> None:
    idle, reported, banned, reporter = player(1), player(2), player(3), player(4)
    store = SqlStore(database_url)
    try:
        await store.write([idle, reported, banned, reporter])
        async with store.engine.begin() as connection:
            await connection.execute(insert(table_of(Report)).values(
                id="r_1", reporter_id=None, target_id=reported.player_id, reason="help", note="", source="auto",
                game_id=None, address="", created_at=T0, status="open", closed_at=None, closed_by=None))  # fmt: skip
            ban = await connection.execute(insert(table_of(ModAction)).values(
                at=T0, moderator_id=None, action="ban", target_id=banned.player_id, game_id=None, lifts=None,
                reason="abuse", public_reason="abuse", detail={}))  # fmt: skip
            await connection.execute(insert(table_of(Sanction)).values(
                action_id=ban.inserted_primary_key[0], player_id=banned.player_id, kind="ban", game_id=None,
                public_reason="abuse", at=T0))  # fmt: skip
            await connection.execute(insert(table_of(Report)).values(
                id="r_2", reporter_id=reporter.player_id, target_id=banned.player_id, reason="other", note="",
                source="player", game_id=None, address="", created_at=T0, status="acted", closed_at=T0,
                closed_by=ban.inserted_primary_key[0]))  # fmt: skip
        later = Retention(T0 + timedelta(days=60), timedelta(days=30), timedelta(days=90))
        pruned = await RetentionStore(store.engine).prune(later, dry_run=False)
        async with store.engine.connect() as connection:
            left = set((await connection.execute(select(players.c.id))).scalars())
    finally:
        await store.close()
    assert (pruned.players, pruned.skipped_batches) == (1, []), pruned
    assert left == {reported.player_id, banned.player_id, reporter.player_id}
