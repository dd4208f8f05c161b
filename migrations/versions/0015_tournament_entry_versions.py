"""Tournament entries' versions: what a process's copy of an entry is compared by.

`tournament_entries.version` is moved by one, only over the version the process read (compare-and-set), by each
of its entrant's changes (pause, come back, withdraw), one at a time: a copy of the entry read before one of them
is older by its version. The tournament's own row needs none: `wave` and `standings_seq` are moved the same way,
and entries and berserks are inserts that are never deleted.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 10:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("version")
