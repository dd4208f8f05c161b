"""`AccountService`: the account steps as the adapter runs them: read from the store, ask core, write.

`AccountRequests` (net/account_requests.py) calls it for the protocol's account requests and for a hello's token.
Every refusal raises before anything is written: a `PasskeyRefused`, `TokenRefused` or `AccountRefused` from
core, or an `AccountConflict` from the store when another process won a race (then the transaction wrote
nothing).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from freecell_arena.core.accounts.account_ports import (
    AccessTokenRecord,
    AccountConflict,
    AccountStore,
    BotAccountRecord,
    Conflict,
    PasskeyRecord,
    TokenKind,
)
from freecell_arena.core.accounts.attempts import AttemptLimiter
from freecell_arena.core.accounts.names import key_hashes
from freecell_arena.core.accounts.passkeys import (
    CeremonyStart,
    PasskeyRefusal,
    PasskeyRefused,
    authentication_options,
    challenge_of,
    credential_id_of,
    new_user_handle,
    registration_options,
    verify_authentication,
    verify_registration,
)
from freecell_arena.core.accounts.relying_party import RelyingParty
from freecell_arena.core.accounts.steps import (
    NewBot,
    Revocation,
    bot_token,
    check_name_free,
    new_bot,
    new_session,
    remove_passkey,
    rename_passkey,
    revoke_token,
    save_player,
    sign_out_everywhere,
)
from freecell_arena.core.accounts.tokens import IssuedToken, check_token, seen, token_kind
from freecell_arena.core.clock import Clock
from freecell_arena.core.identity import hash_token
from freecell_arena.core.ports.records import PlayerRecord

Admission = Callable[[str], Awaitable[None]]
"""Whether a player the passkey proved may have a session: returns, or raises the refusal (nothing written)."""

ATTEMPTS_PER_MINUTE = 10.0
ATTEMPTS_BURST = 5


@dataclass(frozen=True, slots=True)
class SignedIn:
    player_id: str
    session: IssuedToken


@dataclass(frozen=True, slots=True)
class BotView:
    bot: BotAccountRecord
    name: str
    tokens: list[AccessTokenRecord]


@dataclass(frozen=True, slots=True)
class AccountView:
    """What the account page shows: the claimed name, passkeys, sessions, bots and their tokens (hashes only:
    a secret is shown once, when made)."""

    name: str | None
    passkeys: list[PasskeyRecord]
    sessions: list[AccessTokenRecord]
    bots: list[BotView]


@dataclass(frozen=True, slots=True)
class HelloIdentity:
    """Who a hello's token signs in: `bot` is the server's word (a bot token), not the client's flag."""

    player_id: str
    bot: bool


class AccountService:
    """The account steps over an `AccountStore`. `attempt_key` names who is trying (the client address): begins
    and finishes are limited per key (`AttemptLimiter`, each on its own count), so a client can neither guess
    nor fill the challenge table quickly."""

    def __init__(
        self, store: AccountStore, rp: RelyingParty, clock: Clock, limiter: AttemptLimiter | None = None
    ) -> None:
        self.store = store
        self.rp = rp
        self.clock = clock
        self.limiter = limiter or AttemptLimiter(clock, ATTEMPTS_PER_MINUTE, ATTEMPTS_BURST)

    def _limit(self, step: str, key: str) -> None:
        if not self.limiter.allow(f"{step} {key}"):
            wait = self.limiter.retry_after(f"{step} {key}").total_seconds()
            raise PasskeyRefused(PasskeyRefusal.RATE_LIMITED, f"too many passkey attempts: try again in {wait:.0f} s")

    # ------------------------------------------------------------------ save with a passkey

    async def begin_save(self, player: PlayerRecord, attempt_key: str) -> CeremonyStart:
        """Options to create a passkey for `player` (saved or not yet); the challenge is stored first."""
        self._limit("begin", attempt_key)
        account = await self.store.account(player.player_id)
        if account is None:  # a first passkey claims the name: refused now, before the browser makes a passkey
            check_name_free(
                player.display_name, player.player_id, await self.store.name_holder(key_hashes(player.display_name))
            )
        handle = account.user_handle if account else new_user_handle()
        start = registration_options(
            self.rp,
            player_id=player.player_id,
            user_handle=handle,
            user_name=player.display_name,
            existing=await self.store.passkeys_of(player.player_id),
            now=self.clock.now(),
        )
        await self.store.write_accounts([start.challenge])
        return start

    async def finish_save(self, player: PlayerRecord, response_json: str, passkey_name: str, attempt_key: str) -> None:
        self._limit("finish", attempt_key)
        challenge = await self.store.take_challenge(challenge_of(response_json))
        now = self.clock.now()
        registered = await self.store.passkey(credential_id_of(response_json))
        passkey = verify_registration(
            self.rp, challenge=challenge, player_id=player.player_id, response_json=response_json,
            registered=registered, name=passkey_name, now=now,
        )  # fmt: skip
        account = await self.store.account(player.player_id)
        assert challenge is not None and challenge.user_handle is not None  # verify_registration checked it
        user_handle = account.user_handle if account else challenge.user_handle
        holder = await self.store.name_holder(key_hashes(player.display_name))
        changes = save_player(player, passkey, account=account, user_handle=user_handle, holder=holder, now=now)
        await self.store.write_accounts(changes)

    # ------------------------------------------------------------------ sign in with a passkey

    async def begin_sign_in(self, attempt_key: str, player_id: str | None = None) -> CeremonyStart:
        self._limit("begin", attempt_key)
        allow = await self.store.passkeys_of(player_id) if player_id else []
        start = authentication_options(self.rp, now=self.clock.now(), player_id=player_id, allow=allow)
        await self.store.write_accounts([start.challenge])
        return start

    async def finish_sign_in(self, response_json: str, label: str, attempt_key: str,
                             admit: Admission | None = None) -> SignedIn:  # fmt: skip
        """A new session for the passkey's player: the secret is returned once. `admit` is asked about the player
        once the passkey has shown who they are, before anything is written: it raises to refuse them (a ban)."""
        self._limit("finish", attempt_key)
        challenge = await self.store.take_challenge(challenge_of(response_json))
        passkey = await self.store.passkey(credential_id_of(response_json))
        owner = await self.store.account(passkey.player_id) if passkey else None
        now = self.clock.now()
        used = verify_authentication(
            self.rp, challenge=challenge, passkey=passkey, owner_user_handle=owner.user_handle if owner else None,
            response_json=response_json, now=now,
        )  # fmt: skip
        assert passkey is not None  # verify_authentication refuses an unknown credential
        if admit is not None:
            await admit(passkey.player_id)
        session = new_session(owner, passkey.player_id, label, now)
        try:
            await self.store.write_accounts([used, session.record])
        except AccountConflict as conflict:
            if conflict.conflict is Conflict.SIGN_COUNT_CHANGED:
                raise PasskeyRefused(PasskeyRefusal.SIGN_COUNT_NOT_INCREASED, str(conflict)) from conflict
            raise
        return SignedIn(passkey.player_id, session)

    # ------------------------------------------------------------------ tokens and bots

    async def resolve(self, secret: str, kind: TokenKind) -> str:
        """The player a session or bot token signs in, or `TokenRefused`; notes when it was last used."""
        record = check_token(secret, await self.store.access_token(hash_token(secret)), kind)
        touched = seen(record, self.clock.now())
        if touched is not None:
            await self.store.write_accounts([touched])
        return record.player_id

    async def resolve_hello(self, secret: str) -> HelloIdentity | None:
        """The identity a hello's token names, or None for an unsaved player's own token (the existing path,
        `players.token_hash`, serves it). A saved player's own token is a session since it was saved, so a
        revoked one is refused here too (`TokenRefused`)."""
        kind = token_kind(secret)
        if kind is not None:
            return HelloIdentity(await self.resolve(secret, kind), kind is TokenKind.BOT)
        if await self.store.access_token(hash_token(secret)) is None:
            return None
        return HelloIdentity(await self.resolve(secret, TokenKind.SESSION), False)

    async def create_bot(self, owner_id: str, name: str, description: str) -> NewBot:
        owner = await self.store.account(owner_id)
        holder = await self.store.name_holder(key_hashes(name))
        bot = new_bot(owner, name, description, holder, self.clock.now())
        await self.store.write_accounts(bot.changes)
        return bot

    # ------------------------------------------------------------------ the account page

    async def account_view(self, player_id: str) -> AccountView:
        bots = [
            BotView(
                bot,
                await self.store.claimed_name(bot.player_id) or "",
                await self.store.tokens_of(bot.player_id, TokenKind.BOT),
            )
            for bot in await self.store.bots_of(player_id)
        ]
        return AccountView(
            await self.store.claimed_name(player_id),
            await self.store.passkeys_of(player_id),
            await self.store.tokens_of(player_id, TokenKind.SESSION),
            bots,
        )

    async def rename_passkey(self, player_id: str, credential_id: str, name: str) -> None:
        renamed = rename_passkey(player_id, credential_id, name, await self.store.passkeys_of(player_id))
        await self.store.write_accounts([renamed])

    async def remove_passkey(self, player_id: str, credential_id: str) -> None:
        removed = remove_passkey(player_id, credential_id, await self.store.passkeys_of(player_id))
        await self.store.write_accounts([removed])

    async def revoke(self, player_id: str, token_hash: str) -> Revocation:
        """Revoke one of the player's sessions or one of their bots' tokens; the revocation names the hash
        whose connections must close."""
        token = await self.store.access_token(token_hash)
        bot_owner = None
        if token is not None and token.kind is TokenKind.BOT:
            owners = {bot.player_id for bot in await self.store.bots_of(player_id)}
            bot_owner = player_id if token.player_id in owners else None
        revocation = revoke_token(player_id, token, bot_owner, self.clock.now())
        await self.store.write_accounts([revocation.record])
        return revocation

    async def sign_out_everywhere(self, player_id: str, current_secret: str | None) -> Revocation:
        """Every session of the player's but the one in use (`current_secret`; None: that one too)."""
        keep = hash_token(current_secret) if current_secret else None
        sessions = await self.store.tokens_of(player_id, TokenKind.SESSION)
        revocation = sign_out_everywhere(player_id, keep, sessions, self.clock.now())
        await self.store.write_accounts([revocation.record])
        return revocation

    async def new_bot_token(self, owner_id: str, bot_id: str) -> IssuedToken:
        bot = next((bot for bot in await self.store.bots_of(owner_id) if bot.player_id == bot_id), None)
        token = bot_token(owner_id, bot, self.clock.now())
        await self.store.write_accounts([token.record])
        return token
