"""`core.live.players.Players`: identities, their connections, and when an idle one leaves memory."""

from __future__ import annotations

from core_support import ManualClock

from freecell_arena.core.identity import hash_token
from freecell_arena.core.live.players import FORGET_IDLE_PLAYER_AFTER, Players
from freecell_arena.core.live.seats import Seat
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import PlayerRecord
from freecell_arena.protocol.session import HelloRequest, WelcomeMessage


def test_a_registered_player_is_known_by_its_token_hash_and_connected_once(state: SharedState) -> None:
    players = Players(state)
    player_id, effect = players.register(HelloRequest(name="ann", bot=True))
    assert not players.knows(player_id), "known once stored"
    effect.stored()
    (welcome,) = effect.replies
    assert isinstance(welcome, WelcomeMessage) and welcome.player_id == player_id and not welcome.resumed
    (record,) = effect.records
    assert isinstance(record, PlayerRecord) and record.token_hash == hash_token(welcome.token) and record.bot
    assert players.by_token_hash(record.token_hash) == player_id and players.is_connected(player_id)


def test_a_failed_registration_leaves_nothing_behind(state: SharedState) -> None:
    players = Players(state)
    player_id, effect = players.register(HelloRequest(name="ann"))
    effect.refused()
    record = effect.records[0]
    assert isinstance(record, PlayerRecord)
    assert not players.knows(player_id) and players.by_token_hash(record.token_hash) is None


def test_connections_are_counted_and_an_adopted_identity_starts_unconnected(state: SharedState) -> None:
    players = Players(state)
    record = PlayerRecord("p_back", "back", "h" * 64, False, state.clock.now())
    players.adopt(record)
    assert players.knows("p_back") and not players.is_connected("p_back")
    players.connected("p_back")
    players.connected("p_back")
    players.disconnected("p_back")
    assert players.is_connected("p_back"), "one connection is still open"
    players.disconnected("p_back")
    assert not players.is_connected("p_back") and players.disconnected("p_unknown") is None


def test_an_idle_player_leaves_memory_after_a_while_unless_seated(state: SharedState, clock: ManualClock) -> None:
    players = Players(state)
    idle, registered = players.register(HelloRequest(name="idle"))
    registered.stored()
    seated, registered = players.register(HelloRequest(name="seated"))
    registered.stored()
    state.seats.put(seated, Seat(room_code="ROOM"))
    token_hash = state.players[idle].record.token_hash
    for player_id in (idle, seated):
        players.disconnected(player_id)
    assert players.any_unconnected()
    clock.advance(FORGET_IDLE_PLAYER_AFTER.total_seconds() - 1)
    players.forget_idle(clock.now())
    assert players.knows(idle)
    clock.advance(1)
    players.forget_idle(clock.now())
    assert not players.knows(idle) and players.by_token_hash(token_hash) is None
    assert players.knows(seated), "a player in a room stays"
