"""Moderation: moderators, reports, the append-only mod log, sanctions in force, retired names.

- moderators: saved players the operator made moderators (`freecell-arena mod grant`).
- reports: a player's (or the server's own) report of another; one open report per reporter and target.
- mod_log: every moderation action, numbered; the database refuses to change or delete a row (triggers).
- sanctions: the sanctions in force, each the mod log action that set it (a lift deletes the row).
- retired_names: the keys of names a moderator replaced, never claimable again.

Revision ID: 0014
Revises: 0012
Create Date: 2026-11-27 21:30:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INSTANT = sa.DateTime(timezone=True)
ID = sa.String(length=64)
LOG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

APPEND_ONLY = "the mod log is append-only: add an action (a lift undoes one), never change or delete a row"
SQLITE_TRIGGERS = [
    f"CREATE TRIGGER mod_log_no_{event.lower()} BEFORE {event} ON mod_log "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END"
    for event in ("UPDATE", "DELETE")
]
POSTGRES_TRIGGERS = [
    "CREATE FUNCTION mod_log_append_only() RETURNS trigger LANGUAGE plpgsql AS "
    f"$$ BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$",
    "CREATE TRIGGER mod_log_no_change BEFORE UPDATE OR DELETE ON mod_log "
    "FOR EACH ROW EXECUTE FUNCTION mod_log_append_only()",
    "CREATE TRIGGER mod_log_no_truncate BEFORE TRUNCATE ON mod_log "
    "FOR EACH STATEMENT EXECUTE FUNCTION mod_log_append_only()",
]


def upgrade() -> None:
    op.create_table(
        "moderators",
        sa.Column("player_id", ID, nullable=False),
        sa.Column("granted_at", INSTANT, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["accounts.player_id"], name=op.f("fk_moderators_player_id_accounts")),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_moderators")),
    )
    op.create_table(
        "reports",
        sa.Column("id", ID, nullable=False),
        sa.Column("reporter_id", ID, nullable=True),
        sa.Column("target_id", ID, nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("game_id", ID, nullable=True),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("created_at", INSTANT, nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("closed_at", INSTANT, nullable=True),
        sa.Column("closed_by", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["reporter_id"], ["players.id"], name=op.f("fk_reports_reporter_id_players")),
        sa.ForeignKeyConstraint(["target_id"], ["players.id"], name=op.f("fk_reports_target_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    op.create_index("uq_reports_open", "reports", ["reporter_id", "target_id"], unique=True,
                    postgresql_where=sa.text("status = 'open'"), sqlite_where=sa.text("status = 'open'"))  # fmt: skip
    op.create_index("ix_reports_queue", "reports", ["status", "target_id", "created_at"])
    op.create_index("ix_reports_reporter", "reports", ["reporter_id", "created_at"])
    op.create_index("ix_reports_target", "reports", ["target_id"])
    op.create_index("ix_reports_address", "reports", ["address", "created_at"])
    op.create_table(
        "mod_log",
        sa.Column("id", LOG_ID, autoincrement=True, nullable=False),
        sa.Column("at", INSTANT, nullable=False),
        sa.Column("moderator_id", ID, nullable=True),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("target_id", ID, nullable=False),
        sa.Column("game_id", ID, nullable=True),
        sa.Column("lifts", sa.BigInteger(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("public_reason", sa.String(length=200), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["moderator_id"], ["players.id"], name=op.f("fk_mod_log_moderator_id_players")),
        sa.ForeignKeyConstraint(["target_id"], ["players.id"], name=op.f("fk_mod_log_target_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mod_log")),
    )
    op.create_index(op.f("ix_mod_log_target_id"), "mod_log", ["target_id"], unique=False)
    op.create_index(op.f("ix_mod_log_moderator_id"), "mod_log", ["moderator_id"], unique=False)
    op.create_table(
        "sanctions",
        sa.Column("action_id", LOG_ID, autoincrement=False, nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("game_id", ID, nullable=True),
        sa.Column("public_reason", sa.String(length=200), nullable=False),
        sa.Column("at", INSTANT, nullable=False),
        sa.ForeignKeyConstraint(["action_id"], ["mod_log.id"], name=op.f("fk_sanctions_action_id_mod_log")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_sanctions_player_id_players")),
        sa.PrimaryKeyConstraint("action_id", name=op.f("pk_sanctions")),
    )
    op.create_index(op.f("ix_sanctions_player_id"), "sanctions", ["player_id"], unique=False)
    op.create_index(op.f("ix_sanctions_game_id"), "sanctions", ["game_id"], unique=False)
    op.create_table(
        "retired_names",
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("action_id", LOG_ID, nullable=False),
        sa.ForeignKeyConstraint(["action_id"], ["mod_log.id"], name=op.f("fk_retired_names_action_id_mod_log")),
        sa.PrimaryKeyConstraint("key_hash", name=op.f("pk_retired_names")),
    )
    op.create_index(op.f("ix_retired_names_action_id"), "retired_names", ["action_id"], unique=False)
    for statement in POSTGRES_TRIGGERS if op.get_bind().dialect.name == "postgresql" else SQLITE_TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("retired_names")
    op.drop_table("sanctions")
    op.drop_table("mod_log")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION mod_log_append_only()")
    op.drop_table("reports")
    op.drop_table("moderators")
