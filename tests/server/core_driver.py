"""Driving an `Arena` by hand, as net would with a store that accepts every write: each effect is claimed and
stored, so memory adopts its changes (core/live/changes.py), then the test reads memory."""

from __future__ import annotations

import contextlib

from freecell_arena.core.arena import Arena
from freecell_arena.core.effects import Effect
from freecell_arena.core.live.rooms import Busy
from freecell_arena.protocol.session import HelloRequest
from freecell_arena.protocol.wire import Message


def accepted(effect: Effect) -> Effect:
    """What net does once the store accepted the effect's records: memory adopts its changes."""
    with contextlib.suppress(Busy):  # claimed already (the arena claims what it hands out)
        effect.claim()
    effect.stored()
    return effect


def handled(arena: Arena, player_id: str, request: Message) -> Effect:
    """The player's request, handled and stored."""
    return accepted(arena.handle(player_id, request))


def ticked(arena: Arena) -> list[Effect]:
    """A tick whose effects the store accepted."""
    return [accepted(effect) for effect in arena.tick()]


def registered(arena: Arena, name: str, *, bot: bool = False) -> str:
    """A new player, stored."""
    player_id, effect = arena.register(HelloRequest(name=name, bot=bot))
    effect.stored()
    return player_id
