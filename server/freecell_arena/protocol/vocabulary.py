"""The words the wire, core and the store share: a room's status, a member's role, how a game ended.

Literals, not enums: they are the exact strings of the wire format and of the database, so the JSON Schema and
every stored row stay as they were, while mypy refuses a misspelt status anywhere in core or the store.
"""

from __future__ import annotations

from typing import Final, Literal

RoomStatus = Literal["lobby", "countdown", "running", "finished"]
"""`lobby` -> `countdown` -> `running` -> `finished`, as a room's members see it."""
StoredRoomStatus = Literal["lobby", "countdown", "running", "finished", "closed"]
"""What the store may say of a room: also `closed`, a lobby everyone left (nobody is in it to be told)."""
MemberRole = Literal["player", "spectator"]
Outcome = Literal["won", "resigned", "stuck", "timeout"]
"""How a game ended."""
PlayerStatus = Literal["waiting", "playing", "won", "resigned", "stuck", "timeout"]
"""A racer as the room sees them: waiting for the start, playing, or how their game ended (an `Outcome`)."""

LOBBY: Final = "lobby"
COUNTDOWN: Final = "countdown"
RUNNING: Final = "running"
FINISHED: Final = "finished"
CLOSED: Final = "closed"
PLAYER: Final = "player"
SPECTATOR: Final = "spectator"
