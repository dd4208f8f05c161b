"""Changes as values: what a request would make of the rooms, seats and games it touches (and of any other
versioned value of core: a tournament, a quick race's filling room), built without touching them, then adopted
once the store has the request's records.

A handler opens a `Draft` over the shared state, reads the rooms and seats through it (seeing its own changes so
far), puts their next values into it, and hands `draft.changes()` to its `Effect`. Net stores the effect's records;
only then does memory adopt the changes (`Changes.adopt`: one assignment per value, one per seat); a refused write
adopts nothing (`Changes.refused`), so memory is as it was, or as a re-read left it, and the request is handled
again as before. Nothing is ever put back, so nothing has to guess whether what it would put back is still there.

`claim` marks every value a change touches as in flight with its owner (`live.versioned`): a second change of one
of them waits (`Busy`) until the first is stored or refused, then is built over what memory holds then.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from freecell_arena.core.effects import Effect
from freecell_arena.core.live.player_game import Finish, PlayerGame
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.seats import Seat, SeatChange
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.live.versioned import Claim, Claimable, ValueChange, VersionedOwner, claim_all, release_all
from freecell_arena.protocol.vocabulary import FINISHED

_KEEP = "\0keep"
V = TypeVar("V")


class UnversionedChange(Protocol):
    """A change of state another part of core keeps without a version (a daily's bookkeeping, a new identity),
    adopted with the rest."""

    def adopt(self) -> None:
        """The store has the change."""
        ...

    def refused(self) -> None:
        """The store refused it (what the part marked as being written is free again)."""
        ...


RoomChange = ValueChange[Room]
"""A room's next value in a change (`before` None: a room the change opens)."""


@dataclass(frozen=True, slots=True)
class Changes:
    state: SharedState
    rooms: tuple[RoomChange, ...] = ()
    seats: tuple[SeatChange, ...] = ()
    dealt: tuple[PlayerGame, ...] = ()
    ended: tuple[tuple[PlayerGame, Finish], ...] = ()
    dropped: tuple[str, ...] = ()
    unversioned: tuple[UnversionedChange, ...] = ()
    values: tuple[ValueChange[Any], ...] = ()
    """The next values of what other owners hold (a tournament, a quick race's filling room)."""
    holds: tuple[Claim, ...] = ()
    """What else the change holds while in flight, changing it or not (a quick race's filling room: `Draft.claim_key`;
    the seat of each player it moves from one room to another)."""

    def claims(self) -> list[Claim]:
        rooms: VersionedOwner[Any] = self.state.rooms.owner
        return ([(rooms, change.key) for change in self.rooms] + [(change.owner, change.key) for change in self.values]
                + list(self.holds))  # fmt: skip

    def claim(self) -> None:
        """Mark what it changes as in flight; `Busy` (nothing marked) if one of them has a change in flight."""
        claim_all(self.claims())

    def adopt(self) -> None:
        """Memory takes the change. Games first (a room's games are in memory before
        the room that holds them), then the games ended, the rooms, the seats, and what other parts own."""
        state = self.state
        for game in self.dealt:
            state.games.add(game)
        for game, finish in self.ended:
            if game.running:
                game.finish = finish
        for game_id in self.dropped:
            state.games.drop(game_id)
        for change in self.rooms:
            change.adopt()
        for seat in self.seats:
            state.seats.adopt(seat)
        for value in self.values:
            value.adopt()
        for extra in self.unversioned:
            extra.adopt()

    def stored(self) -> None:
        """The store has the records of the change this request claimed: memory takes it, the values are free."""
        self.adopt()
        release_all(self.claims(), refused=False)

    def refused(self) -> None:
        """The store refused the records: memory adopts nothing; the values are free for the next change."""
        release_all(self.claims(), refused=True)
        for extra in self.unversioned:
            extra.refused()


@dataclass
class Draft:
    """One request's changes while it is being handled: reads see them, the shared state does not."""

    state: SharedState
    _rooms: dict[str, RoomChange] = field(default_factory=dict)
    _seats: dict[str, SeatChange] = field(default_factory=dict)
    _dealt: list[PlayerGame] = field(default_factory=list)
    _ended: dict[str, tuple[PlayerGame, Finish]] = field(default_factory=dict)
    _dropped: list[str] = field(default_factory=list)
    _unversioned: list[UnversionedChange] = field(default_factory=list)
    _values: dict[tuple[int, str], ValueChange[Any]] = field(default_factory=dict)
    _holds: list[Claim] = field(default_factory=list)

    # ------------------------------------------------------------------ rooms

    def room(self, code: str | None) -> Room | None:
        """The room by code as this request leaves it so far (None: no such room, or it leaves memory)."""
        current = self.state.room(code or "")
        if current is None:
            return next((change.after for change in self._rooms.values()
                         if change.after.code == code and not change.drop), None)  # fmt: skip
        return self.room_by_id(current.room_id)

    def room_by_id(self, room_id: str) -> Room | None:
        change = self._rooms.get(room_id)
        if change is not None:
            return None if change.drop else change.after
        return self.state.rooms_by_id.get(room_id)

    def put(self, room: Room) -> Room:
        """The room's next value (a room the request opens, too)."""
        earlier = self._rooms.get(room.room_id)
        before = earlier.before if earlier is not None else self.state.rooms_by_id.get(room.room_id)
        self._rooms[room.room_id] = ValueChange(self.state.rooms.owner, before, room)
        return room

    def drop(self, room: Room) -> None:
        """The room leaves memory once the change is adopted."""
        earlier = self._rooms.get(room.room_id)
        before = earlier.before if earlier is not None else self.state.rooms_by_id.get(room.room_id)
        self._rooms[room.room_id] = ValueChange(self.state.rooms.owner, before, room, drop=True)

    # ------------------------------------------------------------------ seats

    def seat(self, player_id: str) -> Seat:
        change = self._seats.get(player_id)
        return change.after if change is not None else self.state.seats.of(player_id)

    def sit(self, player_id: str, *, room_code: str | None = _KEEP, game_id: str | None = _KEEP) -> None:
        """The player's next seat: in `room_code` (None: no room), playing `game_id` (None: no game)."""
        earlier = self._seats.get(player_id)
        before = earlier.before if earlier is not None else self.state.seats.of(player_id)
        current = self.seat(player_id)
        after = Seat(current.room_code if room_code == _KEEP else room_code,
                     current.game_id if game_id == _KEEP else game_id)  # fmt: skip
        self._seats[player_id] = SeatChange(player_id, before, after)
        if after.room_code != current.room_code:
            self._holds.append((self.state.seats, player_id))  # one move of a player between rooms at a time

    # ------------------------------------------------------------------ games

    def deal(self, game: PlayerGame) -> None:
        self._dealt.append(game)

    def end(self, game: PlayerGame, finish: Finish) -> None:
        """The game ends with the change (a race's time limit, its race finished elsewhere)."""
        self._ended[game.game_id] = (game, finish)

    def forget_game(self, game_id: str) -> None:
        self._dropped.append(game_id)

    def finishes(self) -> Mapping[str, Finish]:
        """The games this change ends, by id, with how."""
        return {game_id: finish for game_id, (_, finish) in self._ended.items()}

    # ------------------------------------------------------------------ other owners' values

    def value(self, owner: VersionedOwner[V], key: str) -> V | None:
        """The value as this request leaves it so far."""
        change = self._values.get((id(owner), key))
        return change.after if change is not None else owner.get(key)

    def change(self, owner: VersionedOwner[V], after: V) -> V:
        """The next value of one another owner holds (a tournament, a quick race's filling room)."""
        key = owner.versions.key(after)
        earlier = self._values.get((id(owner), key))
        before = earlier.before if earlier is not None else owner.get(key)
        self._values[(id(owner), key)] = ValueChange(owner, before, after)
        return after

    def claim_key(self, owner: Claimable, key: str) -> None:
        """A value one change at a time may move (a quick race's filling room), held while this change is in flight
        whether it moves it or not: a second request that holds it waits, as for a room."""
        self._holds.append((owner, key))

    # ------------------------------------------------------------------ the rest

    def add_unversioned(self, change: UnversionedChange) -> None:
        self._unversioned.append(change)

    def changes(self) -> Changes:
        return Changes(self.state, tuple(self._rooms.values()), tuple(self._seats.values()), tuple(self._dealt),
                       tuple(self._ended.values()), tuple(self._dropped), tuple(self._unversioned),
                       tuple(self._values.values()), tuple(self._holds))  # fmt: skip

    def seal(self, effect: Effect) -> Effect:
        """The request's effect, carrying its changes: memory takes them once the store has its records."""
        effect.changes = self.changes()
        return effect

    def adopt_now(self) -> None:
        """What the store (or another process, or memory's own sweep) says: memory takes it at once."""
        self.changes().adopt()


def reseat(draft: Draft, room: Room) -> None:
    """The seats here of a room's members as the store (or another process's event) says it is now: a member sits
    in a live room (unless they sit in another live room here whose member they are); a finished room seats only
    those seated nowhere; a player seated here in the room who is no longer its member sits in no room."""
    players = draft.state.players
    for player_id in room.members:
        if player_id not in players:
            continue
        seat = draft.seat(player_id)
        if seat.room_code == room.code:
            continue
        current = draft.room(seat.room_code)
        if room.status == FINISHED:
            if seat.room_code is None:
                draft.sit(player_id, room_code=room.code)
        elif current is None or current.status == FINISHED or player_id not in current.members:
            draft.sit(player_id, room_code=room.code)
    for player_id, player in players.items():
        if player.seat.room_code == room.code and player_id not in room.members and (
            draft.seat(player_id).room_code == room.code
        ):
            draft.sit(player_id, room_code=None)
