"""Deal pars (core/records/review.py): the solver's line for a deal, worked out once after a race on it is over.

Keyed by (variant, seed, rules version): every later race on the same deal, on any process, reads it. Written
insert-if-absent, so two processes that solved the same deal at once keep the first line stored. Only settled
answers are stored (solved, or proved unsolvable): a deal the budget did not settle is tried again later.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 13:40:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "deal_pars",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("rules_version", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        sa.Column("solved_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("variant", "seed", "rules_version", name=op.f("pk_deal_pars")),
    )


def downgrade() -> None:
    op.drop_table("deal_pars")
