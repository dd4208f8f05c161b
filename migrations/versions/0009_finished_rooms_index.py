"""Finished rooms by their finish (`ix_rooms_finished`): the rating sweep's index (core/competition/rating_recovery.py).

A server looks for finished rateable races left unrated (a process that died between storing a finish and
rating it) among the rooms finished in a time window, in keyset order (finished_at, id): partial, so it holds
only finished rooms, and the sweep reads a range of it instead of scanning every room.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 04:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_rooms_finished",
        "rooms",
        ["finished_at", "id"],
        postgresql_where=sa.text("status = 'finished'"),
        sqlite_where=sa.text("status = 'finished'"),
    )


def downgrade() -> None:
    op.drop_index("ix_rooms_finished", table_name="rooms")
