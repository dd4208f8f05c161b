"""Tournaments (core/competition/tournaments, docs/tournaments.md): arenas and cups, their entries, races and berserks.

`tournaments.entrants`, `.wave` and `.standings_seq` are moved only over the value a process read (compare-and-set):
the cap holds across processes, a pairing or a cup round starts once, and the stored table is the one the audit
recomputes. `schedule_key` is unique: the operator's recurring tournaments are created ahead once, by any process.
`rooms.seed_sealed_until`: a cup heat's seed stays on the server until the cup is over (revealed with its deals).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 22:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


def instant() -> sa.DateTime:
    """A UTC instant (freecell_arena.store.types.UtcDateTime: naive UTC on SQLite, timestamptz on PostgreSQL)."""
    return sa.DateTime(timezone=True)


revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("seed_sealed_until", instant(), nullable=True))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("starts_at", instant(), nullable=False),
        sa.Column("ends_at", instant(), nullable=False),
        sa.Column("created_at", instant(), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=True),
        sa.Column("schedule_key", sa.String(length=200), nullable=True),
        sa.Column("link_code", sa.String(length=32), nullable=True),
        sa.Column("commitment", sa.String(length=64), nullable=True),
        sa.Column("entrants", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("wave", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("standings_seq", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("standings", sa.JSON(), nullable=True),
        sa.Column("final", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("reveal", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["created_by"], ["players.id"], name=op.f("fk_tournaments_created_by_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("schedule_key", name=op.f("uq_tournaments_schedule_key")),
    )
    op.create_index(op.f("ix_tournaments_starts_at"), "tournaments", ["starts_at"])
    op.create_index(op.f("ix_tournaments_created_by"), "tournaments", ["created_by"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("bot", sa.Boolean(), nullable=False),
        sa.Column("entered_at", instant(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("status_at", instant(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_tournament_entries_player_id_players")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_entries_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_entries")),
    )
    op.create_index(op.f("ix_tournament_entries_player_id"), "tournament_entries", ["player_id"])
    op.create_table(
        "tournament_races",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("wave", sa.Integer(), nullable=False),
        sa.Column("heat", sa.Integer(), nullable=False),
        sa.Column("formed_at", instant(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_tournament_races_room_id_rooms")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_races_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_tournament_races")),
    )
    op.create_index(op.f("ix_tournament_races_tournament_id"), "tournament_races", ["tournament_id"])
    op.create_table(
        "tournament_berserks",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("at", instant(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_tournament_berserks_player_id_players")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_tournament_berserks_room_id_rooms")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_berserks_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("room_id", "player_id", name=op.f("pk_tournament_berserks")),
    )
    op.create_index(op.f("ix_tournament_berserks_tournament_id"), "tournament_berserks", ["tournament_id"])
    op.create_index(op.f("ix_tournament_berserks_player_id"), "tournament_berserks", ["player_id"])


def downgrade() -> None:
    for table in ("tournament_berserks", "tournament_races", "tournament_entries", "tournaments"):
        op.drop_table(table)
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("seed_sealed_until")
