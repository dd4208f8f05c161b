"""Rooms live in the database: members, the current host and a version number.

- room_members: who is in a room now, so a lobby or a countdown survives the process that held it.
- rooms.version and rooms.seq: the room's version (a random tag) and its number; every membership or status
  change is a compare-and-set on the version, so two processes sharing the database can never both start a
  race or both take a room's last seat.
- A countdown's `started_at` is the instant the race will start (written when the countdown begins).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25 07:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("seq", sa.Integer(), server_default=sa.text("0"), nullable=False))
        batch.add_column(sa.Column("version", sa.String(length=16), server_default=sa.text("''"), nullable=False))
    op.create_table(
        "room_members",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),  # a UTC instant, as in 0001
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_room_members_player_id_players")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_room_members_room_id_rooms")),
        sa.PrimaryKeyConstraint("room_id", "player_id", name=op.f("pk_room_members")),
    )
    op.create_index(op.f("ix_room_members_player_id"), "room_members", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_room_members_player_id"), table_name="room_members")
    op.drop_table("room_members")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("version")
        batch.drop_column("seq")
