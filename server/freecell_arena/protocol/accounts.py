"""Accounts (docs/accounts.md): passkeys, sessions and bot accounts.

Saving a player with a passkey and signing in with one (`passkey_begin` -> `passkey_options` ->
`passkey_finish`, the WebAuthn JSON passed through as the browser gives it), the account page with its passkeys,
sessions and bots, revoking a token, signing out, and a bot's API tokens (shown once).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, WithJsonSchema

from freecell_arena.protocol.wire import Message, PlayerName, Request, RequestId

PasskeyCeremony = Literal["save", "sign_in"]


BASE64URL = {"type": "string", "pattern": "^[A-Za-z0-9_-]*$"}


Credential = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "description": "What the browser's `PublicKeyCredential.toJSON()` gives (WebAuthn Level 3: "
            "RegistrationResponseJSON for save, AuthenticationResponseJSON for sign_in; binary fields base64url). "
            "Passed to the server's WebAuthn verification as it is.",
            "properties": {
                "id": BASE64URL,
                "rawId": BASE64URL,
                "type": {"const": "public-key"},
                "response": {"type": "object", "additionalProperties": True},
                "authenticatorAttachment": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "clientExtensionResults": {"type": "object", "additionalProperties": True},
            },
            "required": ["id", "rawId", "type", "response"],
            "additionalProperties": True,
        }
    ),
]


CeremonyOptions = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "description": "WebAuthn Level 3 PublicKeyCredentialCreationOptionsJSON (save) or "
            "PublicKeyCredentialRequestOptionsJSON (sign_in), binary fields base64url.",
            "properties": {
                "challenge": BASE64URL,
                "timeout": {"type": "integer", "minimum": 0},
                "rp": {"type": "object", "additionalProperties": True},
                "rpId": {"type": "string"},
                "user": {"type": "object", "additionalProperties": True},
                "pubKeyCredParams": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
                "allowCredentials": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
                "excludeCredentials": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
                "userVerification": {"type": "string"},
                "authenticatorSelection": {"type": "object", "additionalProperties": True},
                "attestation": {"type": "string"},
            },
            "required": ["challenge"],
            "additionalProperties": True,
        }
    ),
]


class PasskeyBeginRequest(Request):
    """Begin a passkey ceremony: `save` this player with a new passkey (after hello), or `sign_in` (before or
    after hello) to become the player a passkey belongs to."""

    type: Literal["passkey_begin"] = "passkey_begin"
    id: RequestId = None
    ceremony: PasskeyCeremony


class PasskeyFinishRequest(Request):
    """The browser's answer to `passkey_options`. `label` names the new passkey (save) or session (sign_in)."""

    type: Literal["passkey_finish"] = "passkey_finish"
    id: RequestId = None
    ceremony: PasskeyCeremony
    credential: Credential
    label: str = Field(default="", max_length=100)


class AccountRequest(Request):
    """Your account page: name, passkeys, sessions, bots."""

    type: Literal["get_account"] = "get_account"
    id: RequestId = None


class RenamePasskeyRequest(Request):
    """Rename one of your passkeys ("Laptop", "Phone"): how the account page lists it."""

    type: Literal["rename_passkey"] = "rename_passkey"
    id: RequestId = None
    credential_id: str = Field(max_length=1400)
    name: str = Field(max_length=64)


class RemovePasskeyRequest(Request):
    """Remove one of your passkeys (never the last: add another first)."""

    type: Literal["remove_passkey"] = "remove_passkey"
    id: RequestId = None
    credential_id: str = Field(max_length=1400)


class RevokeTokenRequest(Request):
    """Revoke one of your sessions or one of your bots' tokens (`token_id` as the account lists it): its
    connections close, on every server process."""

    type: Literal["revoke_token"] = "revoke_token"
    id: RequestId = None
    token_id: str = Field(max_length=64)


class SignOutRequest(Request):
    """End this browser's session, or (`everywhere`) every session of yours, this one included."""

    type: Literal["sign_out"] = "sign_out"
    id: RequestId = None
    everywhere: bool = False


class CreateBotRequest(Request):
    """A bot account of yours: its name is claimed like yours; its API token comes once, in `bot_token`."""

    type: Literal["create_bot"] = "create_bot"
    id: RequestId = None
    name: PlayerName
    description: str = Field(default="", max_length=500)


class NewBotTokenRequest(Request):
    """Another API token for one of your bots (the others stay valid until revoked)."""

    type: Literal["new_bot_token"] = "new_bot_token"
    id: RequestId = None
    bot_id: str = Field(max_length=64)


class PasskeyOptionsMessage(Message):
    """Reply to `passkey_begin`: `options` for `PublicKeyCredential.parseCreationOptionsFromJSON` (save) or
    `parseRequestOptionsFromJSON` (sign_in), then `navigator.credentials.create`/`get`. Expires in 5 minutes."""

    type: Literal["passkey_options"] = "passkey_options"
    id: RequestId = None
    ceremony: PasskeyCeremony
    options: CeremonyOptions


class SignedInMessage(Message):
    """Reply to a `sign_in` `passkey_finish`: a session of the passkey's player. Keep `token` and say hello
    with it (on this connection if it has not said hello yet, else on a new one); it is shown once."""

    type: Literal["signed_in"] = "signed_in"
    id: RequestId = None
    player_id: str
    name: str
    token: str


class PasskeyView(Message):
    """One of your passkeys: its credential id (base64url), your name for it, and when it was added and used."""

    credential_id: str
    name: str
    transports: list[str]
    created_at: datetime
    last_used_at: datetime | None


class TokenView(Message):
    """A session or a bot's API token, never its secret: `token_id` names it to `revoke_token`."""

    token_id: str
    label: str
    created_at: datetime
    last_used_at: datetime | None
    revoked: bool
    current: bool = Field(default=False, description="The session this connection said hello with.")


class BotView(Message):
    """One of your bot accounts: a player of its own (`player_id`), and its API tokens (never their secrets)."""

    player_id: str
    name: str
    description: str
    created_at: datetime
    tokens: list[TokenView]


class AccountMessage(Message):
    """Your account: `saved` once you hold a passkey (your name is then claimed: `name`)."""

    type: Literal["account"] = "account"
    id: RequestId = None
    player_id: str
    name: str
    saved: bool
    passkeys: list[PasskeyView]
    sessions: list[TokenView]
    bots: list[BotView]
    moderator: bool = Field(default=False, description="A moderator: the client offers the console (/mod).")


class BotTokenMessage(Message):
    """A bot's new API token: shown this once (the server keeps only its hash). Give it to the bot
    (`freecell-arena-bot --token-file`); a hello with it is that bot, on the bots' boards."""

    type: Literal["bot_token"] = "bot_token"
    id: RequestId = None
    bot_id: str
    name: str
    token: str


class SignedOutMessage(Message):
    """Reply to `sign_out`: the session(s) are revoked and their connections close; forget the token."""

    type: Literal["signed_out"] = "signed_out"
    id: RequestId = None
    everywhere: bool
    sessions: int = Field(description="How many sessions were revoked.")
