"""Accounts: saved players, claimed names, passkeys, session and bot tokens, bot accounts, WebAuthn challenges.

- accounts: a saved player (one with a passkey) and its WebAuthn user handle (random, unique).
- claimed_names and name_keys: a name taken for good; the SHA-256 of each of its keys
  (freecell_arena.core.accounts.names)
  is a primary key, so a name and its look-alikes belong to one player whatever process writes first.
- passkeys: WebAuthn credentials (id, COSE public key, sign count, transports, a name, created and last used).
- access_tokens: session and bot API tokens, SHA-256 only, revocable (revoked_at).
- bot_accounts: a bot's own player, owned by a saved player.
- webauthn_challenges: single-use challenges with their expiry, shared by every process.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 13:20:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# UTC instants, as in 0001 (the application type freecell_arena.store.types.UtcDateTime is this on both backends)
INSTANT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("user_handle", sa.String(length=64), nullable=False),
        sa.Column("created_at", INSTANT, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_accounts_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("user_handle", name=op.f("uq_accounts_user_handle")),
    )
    op.create_table(
        "claimed_names",
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("claimed_at", INSTANT, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_claimed_names_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_claimed_names")),
    )
    op.create_table(
        "name_keys",
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["claimed_names.player_id"], name=op.f("fk_name_keys_player_id_claimed_names")
        ),
        sa.PrimaryKeyConstraint("key_hash", name=op.f("pk_name_keys")),
    )
    op.create_index(op.f("ix_name_keys_player_id"), "name_keys", ["player_id"], unique=False)
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(length=1400), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.String(length=200), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("created_at", INSTANT, nullable=False),
        sa.Column("last_used_at", INSTANT, nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["accounts.player_id"], name=op.f("fk_passkeys_player_id_accounts")),
        sa.PrimaryKeyConstraint("credential_id", name=op.f("pk_passkeys")),
    )
    op.create_index(op.f("ix_passkeys_player_id"), "passkeys", ["player_id"], unique=False)
    op.create_table(
        "access_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=100), nullable=False),
        sa.Column("created_at", INSTANT, nullable=False),
        sa.Column("last_used_at", INSTANT, nullable=True),
        sa.Column("revoked_at", INSTANT, nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_access_tokens_player_id_players")),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_access_tokens")),
    )
    op.create_index(op.f("ix_access_tokens_player_id"), "access_tokens", ["player_id"], unique=False)
    op.create_table(
        "bot_accounts",
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("owner_id", sa.String(length=64), nullable=False),
        sa.Column("description", sa.String(length=500), nullable=False),
        sa.Column("created_at", INSTANT, nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["accounts.player_id"], name=op.f("fk_bot_accounts_owner_id_accounts")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_bot_accounts_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_bot_accounts")),
    )
    op.create_index(op.f("ix_bot_accounts_owner_id"), "bot_accounts", ["owner_id"], unique=False)
    op.create_table(
        "webauthn_challenges",
        sa.Column("challenge", sa.String(length=64), nullable=False),
        sa.Column("ceremony", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=True),
        sa.Column("expires_at", INSTANT, nullable=False),
        sa.Column("user_handle", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_webauthn_challenges_player_id_players")),
        sa.PrimaryKeyConstraint("challenge", name=op.f("pk_webauthn_challenges")),
    )
    op.create_index(op.f("ix_webauthn_challenges_expires_at"), "webauthn_challenges", ["expires_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_webauthn_challenges_expires_at"), table_name="webauthn_challenges")
    op.drop_table("webauthn_challenges")
    op.drop_index(op.f("ix_bot_accounts_owner_id"), table_name="bot_accounts")
    op.drop_table("bot_accounts")
    op.drop_index(op.f("ix_access_tokens_player_id"), table_name="access_tokens")
    op.drop_table("access_tokens")
    op.drop_index(op.f("ix_passkeys_player_id"), table_name="passkeys")
    op.drop_table("passkeys")
    op.drop_index(op.f("ix_name_keys_player_id"), table_name="name_keys")
    op.drop_table("name_keys")
    op.drop_table("claimed_names")
    op.drop_table("accounts")
