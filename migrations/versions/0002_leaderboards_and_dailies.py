"""Leaderboards, daily challenges and season tables.

- games: `board` (where a ranked win counts), `daily_day`; a player's history index; the unique index that
  allows one ranked attempt per player per daily.
- leaderboard_entries (a player's best per board) and leaderboard_counts (bucket counts that bound the
  cost of a rank), dailies, daily_ranks, season_standings, server_secrets.

Written by hand after autogenerate, with plain column types (see 0001). tests/store/test_store_migrations.py
checks that the migrated schema matches the models on both backends.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24 09:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BOARD = sa.String(length=96)
ID = sa.String(length=64)


def instant(name: str, *, nullable: bool) -> sa.Column:
    """A UTC instant (freecell_arena.store.types.UtcDateTime stores naive UTC on SQLite, timestamptz on PostgreSQL)."""
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("board", BOARD, nullable=True))
        batch.add_column(sa.Column("daily_day", sa.Date(), nullable=True))
    op.create_index(
        "ix_games_player_history",
        "games",
        ["player_id", "finished_at", "id"],
        postgresql_where=sa.text("outcome IS NOT NULL"),
        sqlite_where=sa.text("outcome IS NOT NULL"),
    )
    op.create_index(
        "uq_games_daily_attempt",
        "games",
        ["player_id", "variant", "daily_day"],
        unique=True,
        postgresql_where=sa.text("ranked AND daily_day IS NOT NULL"),
        sqlite_where=sa.text("ranked = 1 AND daily_day IS NOT NULL"),
    )
    op.create_table(
        "leaderboard_entries",
        sa.Column("board", BOARD, nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("game_id", ID, nullable=False),
        sa.Column("player_moves", sa.Integer(), nullable=False),
        sa.Column("time_ms", sa.BigInteger(), nullable=False),
        instant("finished_at", nullable=False),
        sa.Column("score", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_leaderboard_entries_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_leaderboard_entries_player_id_players")),
        sa.PrimaryKeyConstraint("board", "player_id", name=op.f("pk_leaderboard_entries")),
    )
    op.create_index(
        "ix_leaderboard_entries_order", "leaderboard_entries", ["board", "score", "finished_at", "player_id"]
    )
    op.create_table(
        "leaderboard_counts",
        sa.Column("board", BOARD, nullable=False),
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("bucket", sa.BigInteger(), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("board", "level", "bucket", name=op.f("pk_leaderboard_counts")),
    )
    op.create_table(
        "dailies",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("candidate", sa.Integer(), nullable=False),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("par", sa.Integer(), nullable=False),
        sa.Column("solution", sa.Text(), nullable=False),
        sa.Column("rules_version", sa.String(length=32), nullable=False),
        instant("prepared_at", nullable=False),
        instant("finalized_at", nullable=True),
        sa.PrimaryKeyConstraint("variant", "day", name=op.f("pk_dailies")),
    )
    op.create_table(
        "daily_ranks",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("bots", sa.Boolean(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("game_id", ID, nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("player_moves", sa.Integer(), nullable=False),
        sa.Column("time_ms", sa.BigInteger(), nullable=False),
        sa.Column("moves_over_par", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_daily_ranks_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_daily_ranks_player_id_players")),
        sa.PrimaryKeyConstraint("variant", "bots", "day", "player_id", name=op.f("pk_daily_ranks")),
    )
    op.create_table(
        "season_standings",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("bots", sa.Boolean(), nullable=False),
        sa.Column("days", sa.SmallInteger(), nullable=False),
        sa.Column("through_day", sa.Date(), nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("moves_over_par", sa.Integer(), nullable=False),
        sa.Column("rank_sum", sa.Integer(), nullable=False),
        sa.Column("average_rank", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_season_standings_player_id_players")),
        sa.PrimaryKeyConstraint(
            "variant", "bots", "days", "through_day", "player_id", name=op.f("pk_season_standings")
        ),
    )
    op.create_index(
        "ix_season_standings_position",
        "season_standings",
        ["variant", "bots", "days", "through_day", "position"],
        unique=True,
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        instant("created_at", nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_secrets")),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_index("ix_season_standings_position", table_name="season_standings")
    op.drop_table("season_standings")
    op.drop_table("daily_ranks")
    op.drop_table("dailies")
    op.drop_table("leaderboard_counts")
    op.drop_index("ix_leaderboard_entries_order", table_name="leaderboard_entries")
    op.drop_table("leaderboard_entries")
    op.drop_index("uq_games_daily_attempt", table_name="games")
    op.drop_index("ix_games_player_history", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("daily_day")
        batch.drop_column("board")
