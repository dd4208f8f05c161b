"""Fair play: flagged wins and host-chosen deals.

- games.flagged: why a human's ranked win is implausible (freecell_arena.core.records.fair_play); NULL otherwise. A
  flagged game's `board` is the bots' side of its deal.
- rooms.seed_chosen: the host chose the deal, which the room shows everyone.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 05:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("flagged", sa.String(length=200), nullable=True))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("seed_chosen", sa.Boolean(), server_default=sa.text("false"), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("seed_chosen")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("flagged")
