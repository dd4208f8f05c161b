"""Ratings per variant (core/records/ratings.py): the current rating of each player on each ladder, and every
change.

- ratings: one row per (variant, ladder, player); `races` counts the rated races and is the row's version:
  a change is written only over the rating it was computed from (compare-and-set), so two races of the same
  player finishing on two processes at once can never both start from the same rating. `ordinal` (mu - 3
  sigma) is stored for the board's order.
- rating_changes: every change, before and after, numbered in the order it was applied; unique per (room,
  player, ladder), so a race is rated exactly once whatever process tries. The audit replays them in order.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 13:20:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("ladder", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("races", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_ratings_player_id_players")),
        sa.PrimaryKeyConstraint("variant", "ladder", "player_id", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_board", "ratings", ["variant", "ladder", "ordinal", "player_id"], unique=False)
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("ladder", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("races", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_rating_changes_player_id_players")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_rating_changes_room_id_rooms")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_changes")),
        sa.UniqueConstraint("room_id", "player_id", "ladder", name=op.f("uq_rating_changes_room_id_player_id_ladder")),
    )
    op.create_index("ix_rating_changes_history", "rating_changes", ["player_id", "variant", "ladder", "id"],
                    unique=False)  # fmt: skip


def downgrade() -> None:
    op.drop_index("ix_rating_changes_history", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
