"""The account requests of a connection: passkey ceremonies and the account page, over the websocket.

Why protocol requests and not HTTP: the game's port answers plain HTTP through websockets' `process_request`,
which sees GET requests without bodies; a ceremony's answer is a JSON body, and the page already holds a
socket that says who the player is. `AccountService` (net/accounts.py) does the work; this module turns requests
into its calls and its answers and refusals into messages.

Every refusal is one `error` reply (a stable code; a ceremony's `reason` is `core.accounts.passkeys.PasskeyRefusal`) and
one log line, and nothing changed: the service raises before it writes (docs/accounts.md).
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from freecell_arena.core.accounts.account_ports import AccessTokenRecord, AccountConflict, Conflict, PasskeyRecord
from freecell_arena.core.accounts.names import key_hashes
from freecell_arena.core.accounts.passkeys import PasskeyRefusal, PasskeyRefused
from freecell_arena.core.accounts.steps import AccountRefusal, AccountRefused, Revocation
from freecell_arena.core.accounts.tokens import TokenRefusal, TokenRefused
from freecell_arena.core.effects import Refusal
from freecell_arena.core.server_store import ServerStore
from freecell_arena.net.accounts import AccountService, AccountView, HelloIdentity
from freecell_arena.net.accounts import BotView as AccountBot
from freecell_arena.net.moderation import ban_message
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.protocol.accounts import (
    AccountMessage,
    AccountRequest,
    BotTokenMessage,
    BotView,
    CreateBotRequest,
    NewBotTokenRequest,
    PasskeyBeginRequest,
    PasskeyFinishRequest,
    PasskeyOptionsMessage,
    PasskeyView,
    RemovePasskeyRequest,
    RenamePasskeyRequest,
    RevokeTokenRequest,
    SignedInMessage,
    SignedOutMessage,
    SignOutRequest,
    TokenView,
)
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.wire import Message

log = logging.getLogger(__name__)
rate_limited_log = ThrottledLog(log)
"""Refusals by the attempt limit: a client hammering the ceremonies gets one line per interval, not one each."""
store_failures = ThrottledLog(log)

HANDLERS: dict[type, str] = {
    PasskeyBeginRequest: "_begin",
    PasskeyFinishRequest: "_finish",
    AccountRequest: "_account",
    RenamePasskeyRequest: "_rename",
    RemovePasskeyRequest: "_remove",
    RevokeTokenRequest: "_revoke",
    SignOutRequest: "_sign_out",
    CreateBotRequest: "_create_bot",
    NewBotTokenRequest: "_new_bot_token",
}
"""The requests answered here (outside core: they read and write the account store, not the arena), and the
method that answers each."""
ACCOUNT_TYPES = frozenset(HANDLERS)
"""Asked of every frame (`type(request) in ACCOUNT_TYPES`: one hash lookup; an isinstance over nine pydantic
classes cost nine metaclass checks on each move)."""

CODE_OF_ACCOUNT_REFUSAL = {
    AccountRefusal.NAME_TAKEN: ErrorCode.name_taken,
    AccountRefusal.NOT_SAVED: ErrorCode.not_saved,
    AccountRefusal.NOT_YOURS: ErrorCode.not_yours,
    AccountRefusal.LAST_PASSKEY: ErrorCode.last_passkey,
}
CODE_OF_CONFLICT = {
    Conflict.NAME_TAKEN: ErrorCode.name_taken,
    Conflict.NOT_FOUND: ErrorCode.not_yours,
    Conflict.ALREADY_SAVED: ErrorCode.passkey_refused,
    Conflict.CREDENTIAL_TAKEN: ErrorCode.passkey_refused,
    Conflict.SIGN_COUNT_CHANGED: ErrorCode.passkey_refused,
}


class Caller(Protocol):
    """Who asks: the connection (`net.connection.Connection`)."""

    @property
    def player_id(self) -> str | None: ...

    @property
    def token_hash(self) -> str | None:
        """The hash of the token its hello carried (the session it is)."""
        ...

    @property
    def address(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Answer:
    """The reply, and the tokens it revoked (their connections close once the reply is on its way)."""

    reply: Message
    revocation: Revocation | None = None


class RevokedToken(Exception):
    """A hello's revoked token (its `revoked_token` refusal), naming whose it was: a banned player's hello says the
    ban instead. Not a `Refusal` subclass: `Refusal` is compiled (mypyc), and a compiled function typed `Refusal`
    refuses an instance of a class subclassed outside the compiled group."""

    def __init__(self, refusal: Refusal, player_id: str) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal
        self.player_id = player_id


def refusal_of(error: Exception) -> Refusal:
    """The error reply for a refused account step (`PasskeyRefused`, `TokenRefused`, `AccountRefused`,
    `AccountConflict`)."""
    if isinstance(error, PasskeyRefused):
        return Refusal(ErrorCode.passkey_refused, error.message, error.reason.value)
    if isinstance(error, TokenRefused):
        code = ErrorCode.revoked_token if error.reason is TokenRefusal.REVOKED else ErrorCode.unknown_token
        return Refusal(code, error.message, error.reason.value)
    if isinstance(error, AccountRefused):
        return Refusal(CODE_OF_ACCOUNT_REFUSAL[error.reason], error.message, error.reason.value)
    assert isinstance(error, AccountConflict)
    return Refusal(CODE_OF_CONFLICT.get(error.conflict, ErrorCode.storage_failed), str(error), error.conflict.value)


REFUSED = (PasskeyRefused, TokenRefused, AccountRefused, AccountConflict)


def log_refusal(what: str, address: str, refusal: Refusal) -> None:
    """The one log line of a refused account step."""
    line = f"{what} refused for {address}: {refusal.reason or refusal.code} ({refusal.message})"
    if refusal.reason == PasskeyRefusal.RATE_LIMITED:
        rate_limited_log.warning("rate limited", line)
    else:
        log.warning(line)


class AccountRequests:
    def __init__(self, service: AccountService, store: ServerStore) -> None:
        self.service = service
        self.store = store
        self._handlers: dict[type, Callable[[Any, Caller], Awaitable[Answer]]] = {
            kind: getattr(self, method) for kind, method in HANDLERS.items()
        }

    @staticmethod
    def allowed_before_hello(request: Message) -> bool:
        """Signing in needs no player yet: a new browser signs in, then says hello with the session token."""
        return isinstance(request, PasskeyBeginRequest | PasskeyFinishRequest) and request.ceremony == "sign_in"

    async def answer(self, request: Message, caller: Caller) -> Answer:
        """The answer to an account request; a refused step raises `Refusal` (logged here, one line)."""
        try:
            return await self._handlers[type(request)](request, caller)
        except REFUSED as error:
            refusal = refusal_of(error)
            log_refusal(str(getattr(request, "type", "account request")), caller.address, refusal)
            raise refusal from error

    async def resolve_hello(self, token: str, address: str) -> HelloIdentity | None:
        """Who a hello's token signs in (a session or a bot's token); None for an unsaved player's own token;
        `Refusal` (logged) for an unknown one, `RevokedToken` for a revoked one."""
        try:
            return await self.service.resolve_hello(token)
        except TokenRefused as error:
            refusal = refusal_of(error)
            log_refusal("hello", address, refusal)
            if error.player_id is not None:
                raise RevokedToken(refusal, error.player_id) from error
            raise refusal from error

    async def check_name_free(self, name: str) -> None:
        """A new (unsaved) player may take any name no saved player or bot holds, look-alikes included."""
        try:
            holder = await self.store.accounts.name_holder(key_hashes(name))
        except Exception as error:
            # A database that cannot answer this read cannot store the new player either: the write that follows
            # refuses it (`storage_failed`) and readiness notes the failure. Only a read failing alone would let
            # this one name through unchecked (docs/accounts.md, limits).
            store_failures.warning(type(error).__name__, f"checking a new name failed: {one_line(error)}")
            return
        if holder is not None:
            raise Refusal(
                ErrorCode.name_taken,
                f"the name {name!r} (or one that looks like it) belongs to a saved player: choose another",
            )

    # ------------------------------------------------------------------ ceremonies

    @staticmethod
    def _player(caller: Caller) -> str:
        if caller.player_id is None:
            raise Refusal(ErrorCode.hello_required, "say hello first: this is about the player a connection is")
        return caller.player_id

    async def _begin(self, request: PasskeyBeginRequest, caller: Caller) -> Answer:
        if request.ceremony == "save":
            record = await self.store.player(self._player(caller))
            assert record is not None  # a greeted player is stored before its welcome
            start = await self.service.begin_save(record, caller.address)
        else:
            start = await self.service.begin_sign_in(caller.address)
        options = json.loads(start.options_json)
        return Answer(PasskeyOptionsMessage(id=request.id, ceremony=request.ceremony, options=options))

    async def _finish(self, request: PasskeyFinishRequest, caller: Caller) -> Answer:
        response_json = json.dumps(request.credential)
        if request.ceremony == "save":
            player_id = self._player(caller)
            record = await self.store.player(player_id)
            assert record is not None
            await self.service.finish_save(record, response_json, request.label, caller.address)
            return await self._account(AccountRequest(id=request.id), caller)
        admit = functools.partial(self._not_banned, caller.address)
        signed = await self.service.finish_sign_in(response_json, request.label or "a browser", caller.address, admit)
        player = await self.store.player(signed.player_id)
        name = player.display_name if player is not None else ""
        reply = SignedInMessage(id=request.id, player_id=signed.player_id, name=name, token=signed.session.secret)
        return Answer(reply)

    async def _not_banned(self, address: str, player_id: str) -> None:
        """A banned player's passkey still proves who they are, but gets no session: refused with the public reason,
        as their hello would be (docs/moderation.md), and logged as any refused sign-in."""
        ban = await self.store.moderation.ban_of(player_id)
        if ban is not None:
            refusal = Refusal(ErrorCode.banned, ban_message(ban))
            log_refusal("passkey_finish", address, refusal)
            raise refusal

    # ------------------------------------------------------------------ the account page

    async def _account(self, request: Message, caller: Caller) -> Answer:
        player_id = self._player(caller)
        view = await self.service.account_view(player_id)
        player = await self.store.player(player_id)
        message = _account_message(request, player_id, player.display_name if player else "", view, caller)
        if view.name is not None and await self.store.moderation.is_moderator(player_id):
            message.moderator = True  # the client offers the console; each of its requests is checked again
        return Answer(message)

    async def _rename(self, request: RenamePasskeyRequest, caller: Caller) -> Answer:
        await self.service.rename_passkey(self._player(caller), request.credential_id, request.name)
        return await self._account(request, caller)

    async def _remove(self, request: RemovePasskeyRequest, caller: Caller) -> Answer:
        await self.service.remove_passkey(self._player(caller), request.credential_id)
        return await self._account(request, caller)

    async def _revoke(self, request: RevokeTokenRequest, caller: Caller) -> Answer:
        revocation = await self.service.revoke(self._player(caller), request.token_id)
        return Answer((await self._account(request, caller)).reply, revocation)

    async def _sign_out(self, request: SignOutRequest, caller: Caller) -> Answer:
        player_id = self._player(caller)
        if await self.store.accounts.account(player_id) is None:
            raise AccountRefused(AccountRefusal.NOT_SAVED, "an unsaved player has no session to end: save it first")
        if request.everywhere:
            revocation = await self.service.sign_out_everywhere(player_id, None)
        else:
            assert caller.token_hash is not None
            revocation = await self.service.revoke(player_id, caller.token_hash)
        reply = SignedOutMessage(id=request.id, everywhere=request.everywhere, sessions=len(revocation.token_hashes))
        return Answer(reply, revocation)

    async def _create_bot(self, request: CreateBotRequest, caller: Caller) -> Answer:
        bot = await self.service.create_bot(self._player(caller), request.name, request.description)
        return Answer(BotTokenMessage(id=request.id, bot_id=bot.player_id, name=request.name, token=bot.token.secret))

    async def _new_bot_token(self, request: NewBotTokenRequest, caller: Caller) -> Answer:
        token = await self.service.new_bot_token(self._player(caller), request.bot_id)
        name = await self.store.accounts.claimed_name(request.bot_id) or ""
        return Answer(BotTokenMessage(id=request.id, bot_id=request.bot_id, name=name, token=token.secret))


def _passkey_view(passkey: PasskeyRecord) -> PasskeyView:
    return PasskeyView(
        credential_id=passkey.credential_id, name=passkey.name, transports=list(passkey.transports),
        created_at=passkey.created_at, last_used_at=passkey.last_used_at,
    )  # fmt: skip


def _token_view(token: AccessTokenRecord, current: str | None) -> TokenView:
    return TokenView(
        token_id=token.token_hash, label=token.label, created_at=token.created_at, last_used_at=token.last_used_at,
        revoked=token.revoked_at is not None, current=token.token_hash == current,
    )  # fmt: skip


def _account_message(
    request: Message, player_id: str, display_name: str, view: AccountView, caller: Caller
) -> AccountMessage:
    return AccountMessage(
        id=getattr(request, "id", None),
        player_id=player_id,
        name=view.name or display_name,
        saved=view.name is not None,
        passkeys=[_passkey_view(passkey) for passkey in view.passkeys],
        sessions=[_token_view(token, caller.token_hash) for token in view.sessions if token.revoked_at is None],
        bots=[_bot_view(bot) for bot in view.bots],
    )


def _bot_view(bot: AccountBot) -> BotView:
    return BotView(
        player_id=bot.bot.player_id, name=bot.name, description=bot.bot.description, created_at=bot.bot.created_at,
        tokens=[_token_view(token, None) for token in bot.tokens],
    )  # fmt: skip
