"""What `net` may ask of core: a few narrow protocols, each a handful of verbs, never core's dicts or rooms.

A connection needs `Sessions`; bringing stored things back needs `StoredCopies`; the cluster bridge needs
`SharedRooms`; the daily service needs `DailyPreload`. `Arena` and its parts implement them (`Arena` itself,
`Arena.rebuild`, `Arena.replica`, `Arena.dailies`); net imports this module, not the parts. It sits at the top of
core, above the parts whose verbs it names; the `Arena` above net, which only net's root builds
(tests/test_import_graph.py's layers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from typing import Any, Protocol

from freecell_arena.core.effects import Effect, Publication
from freecell_arena.core.live.replica import RemoteEvent, RoomCopy
from freecell_arena.core.live.rooms import Busy
from freecell_arena.core.ports.records import DailyRecord, PlayerRecord, Record, RoomVersion, StoredGame, StoredRoom
from freecell_arena.core.records.race_ratings import FinishedRace
from freecell_arena.core.records.tournaments.state import TournamentSnapshot
from freecell_arena.protocol.session import HelloRequest
from freecell_arena.protocol.wire import Message

__all__ = ["Busy", "DailyPreload", "NextRooms", "RemoteEvent", "RoomCopy", "Sessions", "SharedRooms", "StoredCopies",
           "TournamentOwner"]


class Sessions(Protocol):
    """What a connection does with core: greet, hand over requests, say goodbye, and follow its player's room."""

    def handle(self, player_id: str, request: Message) -> Effect:
        """One request of a greeted player; raises `Refusal` when it changes nothing."""
        ...

    def register(self, request: HelloRequest) -> tuple[str, Effect]: ...

    def resume(self, player_id: str, request: HelloRequest) -> Effect: ...

    def disconnect(self, player_id: str) -> Effect: ...

    def player_by_token_hash(self, token_hash: str) -> str | None: ...

    def room_code_of(self, player_id: str) -> str | None:
        """The room whose events the player's connection follows."""
        ...

    def variant_of(self, player_id: str) -> str:
        """The variant of the player's current game ("" without one), for the move metrics."""
        ...

    def finished_race(self, player_id: str) -> FinishedRace | None:
        """The finished race the player sits in, if any (its rating changes are told again on resume)."""
        ...

    def remove_player(self, player_id: str) -> Effect:
        """A banned player out of live play: running game resigned, seat given up (may raise `Busy`)."""
        ...

    def rename(self, player_id: str, name: str) -> None: ...


class StoredCopies(Protocol):
    """What bringing stored identities, rooms and games back into memory needs (`net/restore.py`)."""

    def knows(self, player_id: str) -> bool: ...

    def holds_game(self, game_id: str) -> bool: ...

    def holds_room(self, code: str) -> bool: ...

    def holds_room_id(self, room_id: str) -> bool: ...

    def is_connected(self, player_id: str) -> bool:
        """A connection of the player's is on this process."""
        ...

    def adopt_player(self, record: PlayerRecord) -> None: ...

    def adopt_room(self, stored: StoredRoom, games: list[StoredGame], players: list[PlayerRecord]) -> object: ...

    def adopt_game(self, stored: StoredGame) -> object: ...

    def adopt_stored_game(self, stored: StoredGame) -> object: ...


class SharedRooms(Protocol):
    """What the cluster bridge asks of this process's copies of shared rooms (`Replica`), by room code."""

    def holds_room(self, code: str) -> bool: ...

    def holds_game(self, game_id: str) -> bool: ...

    def is_connected(self, player_id: str) -> bool: ...

    def copy_of(self, code: str) -> RoomCopy | None: ...

    def live_copies(self) -> list[RoomCopy]: ...

    def seated_in(self, player_id: str) -> str | None: ...

    def plays_every_game_here(self, code: str) -> bool: ...

    def rooms_touched_by(self, records: Iterable[Record]) -> set[str]: ...

    def apply_remote(self, message: Message, version: RoomVersion | None) -> RemoteEvent: ...

    def resync(self, stored: StoredRoom, games: list[StoredGame], players: list[PlayerRecord]) -> Effect:
        """Take the store's copy; the effect's publications tell this process's connections what changed."""
        ...

    def refresh_games(self, code: str, games: list[StoredGame], players: list[PlayerRecord]) -> None: ...

    def refresh_game(self, stored: StoredGame) -> None: ...

    def take_due(self) -> list[str]:
        """The races that may be over, handed out once (returned and cleared)."""
        ...

    def settle_later(self, code: str) -> None: ...

    def take_roll_calls(self) -> list[str]:
        """Picked-up lobbies whose members on other processes must say they are there (`answer_roll_call`)."""
        ...

    def answer_roll_call(self, code: str) -> list[Publication]: ...

    def settle(self, code: str) -> Effect | None: ...


class DailyPreload(Protocol):
    """What the daily service loads into core before a `play_daily` reaches it (`DailyChallenges`)."""

    offered: set[str] | None

    def today(self) -> date: ...

    def know_deal(self, deal: DailyRecord) -> None: ...

    def know_attempt(self, player_id: str, variant_id: str, day: date) -> None: ...

    def may_be_ranked(self, player_id: str, variant_id: str, day: date) -> bool: ...


class NextRooms(Protocol):
    """Where players go next, as the store says (read by net before `race_again` and `quick_race`)."""

    def know_next_room(self, code: str, next_code: str | None, uncounted: frozenset[str] = frozenset()) -> None:
        """The store says the finished room `code` points to its series' next room `next_code` (None: none yet),
        and whose result in its race counts for nothing (`uncounted`: marked, or their game void)."""
        ...

    def know_quick_room(self, variant_id: str, code: str) -> None:
        """The variant's filling quick-race room is `code`."""
        ...


class TournamentOwner(Protocol):
    """What the tournament director and the requests' preparation hand core (`Tournaments`): the store's tournament,
    then a step whose effect is stored before anything is adopted."""

    def adopt_read(self, snapshot: TournamentSnapshot) -> bool:
        """The store's tournament as read: adopted unless core holds more of it (whether it did)."""
        ...

    def forget(self, tournament_id: str) -> None: ...

    def pair(self, tournament_id: str) -> Effect | None: ...

    def start_round(self, tournament_id: str, seed_of_round: Callable[[int], int]) -> Effect | None: ...

    def settle(self, tournament_id: str, reveal: dict[str, Any] | None = None) -> Effect | None: ...
