"""Ranked games by their board (`ix_games_board`): whether a deal was ever dealt.

A leaderboard query for a deal's seed that no ranked game was ever dealt from is refused with `unknown_seed`
instead of answering an empty board (a client that rounded a 63-bit seed through a JavaScript number used to get
an empty board and no hint why). One probe of this index answers it, and only when the board is empty. Partial:
unranked games have no board, so it holds only the ranked ones.

Revision ID: 0012
Revises: 0010
Create Date: 2026-11-27 20:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_games_board",
        "games",
        ["board"],
        postgresql_where=sa.text("board IS NOT NULL"),
        sqlite_where=sa.text("board IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_games_board", table_name="games")
