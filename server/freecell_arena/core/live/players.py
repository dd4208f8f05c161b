"""Who this process knows: identities by id and by token hash, how many connections each has, and when an
idle one leaves memory.

A token is shown once, at registration; only its hash is kept (and stored). A player whose last connection
closed stays a while (`FORGET_IDLE_PLAYER_AFTER`), then leaves memory unless they sit in a room or play a game;
their token brings them back from the store.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from freecell_arena.core.effects import Effect
from freecell_arena.core.identity import hash_token, new_id, new_token
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.shared_state import PlayerState, SharedState
from freecell_arena.core.ports.records import PlayerRecord
from freecell_arena.protocol.session import HelloRequest, WelcomeMessage

FORGET_IDLE_PLAYER_AFTER = timedelta(seconds=60)
"""How long an identity with nothing going on stays in memory after its last connection closed."""


class Players:
    def __init__(self, state: SharedState) -> None:
        self.state = state
        self.players = state.players
        self._by_token_hash: dict[str, str] = {}
        self._unconnected_since: dict[str, datetime] = {}
        """Players whose last connection closed, and when: candidates to leave memory (`forget_idle`)."""

    def register(self, request: HelloRequest) -> tuple[str, Effect]:
        """A new identity, connected once: the token is returned once, only its hash is stored."""
        token = new_token()
        record = PlayerRecord(
            player_id=new_id("p"),
            display_name=request.name,
            token_hash=hash_token(token),
            bot=request.bot,
            created_at=self.state.clock.now(),
        )
        welcome = WelcomeMessage(
            id=request.id, player_id=record.player_id, name=record.display_name, token=token, resumed=False
        )
        draft = Draft(self.state)
        draft.also(_Registered(self, record))
        return record.player_id, draft.seal(Effect(records=[record], replies=[welcome]))

    def registered(self, record: PlayerRecord) -> None:
        """A new identity, once stored: here, with the connection that registered it."""
        self.players[record.player_id] = PlayerState(record, connections=1)
        self._by_token_hash[record.token_hash] = record.player_id

    def adopt(self, record: PlayerRecord) -> None:
        """A stored identity comes back to this process (after a restart, or from another process)."""
        self.players.setdefault(record.player_id, PlayerState(record))
        self._by_token_hash.setdefault(record.token_hash, record.player_id)

    def rename(self, player_id: str, name: str) -> None:
        """The stored name changed (a moderator's rename): the identity here shows the new one."""
        state = self.players.get(player_id)
        if state is not None:
            state.record = replace(state.record, display_name=name)

    def knows(self, player_id: str) -> bool:
        return player_id in self.players

    def by_token_hash(self, token_hash: str) -> str | None:
        return self._by_token_hash.get(token_hash)

    def record_of(self, player_id: str) -> PlayerRecord | None:
        state = self.players.get(player_id)
        return state.record if state is not None else None

    def is_connected(self, player_id: str) -> bool:
        state = self.players.get(player_id)
        return bool(state and state.connections)

    def connected(self, player_id: str) -> PlayerState:
        """One more connection of a known player."""
        state = self.players[player_id]
        state.connections += 1
        self._unconnected_since.pop(player_id, None)
        return state

    def disconnected(self, player_id: str) -> PlayerState | None:
        """One connection fewer; None for a player this process no longer knows."""
        state = self.players.get(player_id)
        if state is None:
            return None
        state.connections = max(0, state.connections - 1)
        if not state.connections:
            self._unconnected_since[player_id] = self.state.clock.now()
        return state

    def any_unconnected(self) -> bool:
        return bool(self._unconnected_since)

    def forget_idle(self, now: datetime) -> None:
        """An identity with no connection, no room and no running game leaves memory a while after its last
        connection closed: a long-running process would otherwise keep every player it ever saw. Its token
        brings it back (the adapter reads the player and any unfinished game from the store on `hello`)."""
        games = self.state.games
        for player_id, since in list(self._unconnected_since.items()):
            state = self.players.get(player_id)
            if state is None or state.connections:
                del self._unconnected_since[player_id]
                continue
            if now - since < FORGET_IDLE_PLAYER_AFTER or state.seat.room_code is not None:
                continue
            game = games.get(state.seat.game_id) if state.seat.game_id else None
            if game is not None and game.running:
                continue
            if game is not None:
                games.drop(game.game_id)
            del self.players[player_id]
            self._by_token_hash.pop(state.record.token_hash, None)
            del self._unconnected_since[player_id]


@dataclass(frozen=True, slots=True)
class _Registered:
    players: Players
    record: PlayerRecord

    def adopt(self) -> None:
        self.players.registered(self.record)

    def refused(self) -> None:
        pass
