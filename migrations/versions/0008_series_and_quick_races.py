"""Race-again series and quick races (core/competition/series.py, core/competition/quick_race.py).

`rooms.series` keeps a series room's tally before it, `rooms.next_code` points a finished room to its series'
next room (a compare-and-set over the pointer a process knew), `rooms.quick` marks a public quick-race room;
`quick_rooms` names each variant's filling quick-race room (moved only over the code a process knew).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 19:55:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("series", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("next_code", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("quick", sa.Boolean(), server_default=sa.text("false"), nullable=False))
    op.create_table(
        "quick_rooms",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("variant", name=op.f("pk_quick_rooms")),
    )


def downgrade() -> None:
    op.drop_table("quick_rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("quick")
        batch.drop_column("next_code")
        batch.drop_column("series")
