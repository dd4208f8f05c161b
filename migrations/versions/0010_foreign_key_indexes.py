"""An index leading with every foreign key column that had none: what `freecell-arena prune` deletes stays cheap.

Deleting a row (an unsaved player gone for good, their unranked games, a room of theirs alone) makes PostgreSQL and
SQLite check that no row still refers to it, once per foreign key that points at its table: without an index
leading with the referring column, each check scans that whole table (every game, every leaderboard entry) for
each row deleted. Each of these costs an index entry per row written (a game, a room, a win, a rating's row).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 20:00:00+00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = (
    ("rooms", "host_id"),
    ("games", "player_id"),
    ("leaderboard_entries", "player_id"),
    ("leaderboard_entries", "game_id"),
    ("daily_ranks", "player_id"),
    ("daily_ranks", "game_id"),
    ("season_standings", "player_id"),
    ("ratings", "player_id"),
    ("webauthn_challenges", "player_id"),
)


def upgrade() -> None:
    for table, column in INDEXES:
        op.create_index(f"ix_{table}_{column}", table, [column])


def downgrade() -> None:
    for table, column in reversed(INDEXES):
        op.drop_index(f"ix_{table}_{column}", table_name=table)
