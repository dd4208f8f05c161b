"""Finished games by their finish (`ix_games_finished`): the export's order.

`freecell-arena export` streams every finished game oldest first in keyset batches on `(finished_at, id)`, a date
range at a time (`freecell_arena.store.exports`); without this index each batch would be a scan and a sort of the
whole table. Partial: a running game has no finish.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-08 10:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_games_finished",
        "games",
        ["finished_at", "id"],
        postgresql_where=sa.text("outcome IS NOT NULL"),
        sqlite_where=sa.text("outcome IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_games_finished", table_name="games")
