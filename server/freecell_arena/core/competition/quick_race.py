"""Quick race: a public room per variant that fills with whoever presses "Quick race" and starts by itself.

The variant's filling room is the one its pointer names (`QuickRoomRecord`, a compare-and-set in the store:
net reads the stored pointer before the request, so every process of a cluster fills the same room, and of two
processes opening a room at once one is refused and joins the other's). The room is ranked, on a deal the
server draws. Once `min_players` are in, a short countdown starts (`wait_s`) and more may still join; a full
room starts at once. Leaving before the start frees the seat (`Lobby.leave`, as in any room); a countdown left
with fewer than `min_players` stops, and the room waits again (`after_leave`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from freecell_arena.core.competition.series import DrawSeed, OpenRoom, TakeSeat
from freecell_arena.core.effects import Effect, Publication
from freecell_arena.core.events import room_topic
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.daily_play import refuse_while_playing
from freecell_arena.core.live.lobby import RoomPlan, begin_countdown, refuse_while_in_a_room
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.room_messages import Connected, whole_room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import QuickRoomRecord, RoomStatusRecord
from freecell_arena.core.records.leaderboard import resolve_ranked
from freecell_arena.core.variant_request import known_variant
from freecell_arena.engine import Variant
from freecell_arena.protocol.rooms import QuickRaceRequest, RoomOptions
from freecell_arena.protocol.vocabulary import COUNTDOWN, LOBBY


@dataclass(frozen=True)
class QuickRaceRules:
    """Sizes and waits (the server's settings `quick_race_*`)."""

    min_players: int = 2
    """Players in the room before its countdown starts."""
    max_players: int = 8
    """A full room starts at once."""
    wait_s: float = 10.0
    """The countdown once `min_players` are in (others may still join meanwhile)."""


@dataclass(frozen=True)
class QuickRaceDeps:
    state: SharedState
    timers: RaceClock
    connected: Connected
    open_room: OpenRoom
    seat: TakeSeat
    draw: DrawSeed
    rules: QuickRaceRules


class QuickRaces:
    def __init__(self, deps: QuickRaceDeps) -> None:
        self.deps = deps
        self.rules = deps.rules
        self.filling: dict[str, str] = {}
        """Variant -> the code of its filling room, as this process last knew it."""

    def quick_race(self, player_id: str, request: QuickRaceRequest) -> Effect:
        state = self.deps.state
        variant = known_variant(request.variant)
        refuse_while_playing(state, player_id)
        draft = Draft(state)
        refuse_while_in_a_room(draft, player_id)
        draft.hold(f"quick:{variant.id}")  # one change of the variant's filling room at a time
        room = self.filling_room(variant.id)
        if room is not None:
            room, effect = self.deps.seat(draft, player_id, room, request.id)
        else:
            room, effect = self._open(draft, player_id, variant, request)
        return draft.seal(effect.merge(self._maybe_start(draft, room, player_id)))

    def know_filling(self, variant_id: str, code: str) -> None:
        """The store's pointer for the variant (net read it before `quick_race`)."""
        self.filling[variant_id] = code

    def after_join(self, draft: Draft, room: Room, player_id: str) -> Effect:
        """A player joined a quick race by its code (its link): enough players start it as `quick_race` does."""
        return self._maybe_start(draft, room, player_id) if room.record.quick else Effect()

    def after_leave(self, draft: Draft, room: Room) -> Effect:
        """A player left a quick race counting down: below `min_players` it waits for players again (a race
        nobody is left to race would otherwise start)."""
        enough = min(self.rules.min_players, room.options.max_players)
        if not room.record.quick or room.status != COUNTDOWN or len(room.players()) >= enough:
            return Effect()
        if not self._later(room.starts_at):
            return Effect()  # it begins at this tick
        now = self.deps.state.clock.now()
        room, version = room.changed(status=LOBBY, starts_at=None)
        draft.put(room)
        return Effect(
            records=[RoomStatusRecord(room.room_id, LOBBY, now, version)],
            publications=[whole_room(room, now, self.deps.connected, version)],
        )

    def filling_room(self, variant_id: str) -> Room | None:
        """The variant's room that takes players now, if this process holds it."""
        room = self.deps.state.rooms.get(self.filling.get(variant_id, ""))
        if room is None or not room.record.quick or room.is_full():
            return None
        if room.status == LOBBY:
            return room
        return room if room.status == COUNTDOWN and self._later(room.starts_at) else None

    def _later(self, at: datetime | None) -> bool:
        return at is not None and at > self.deps.state.clock.now()

    def _open(self, draft: Draft, player_id: str, variant: Variant, request: QuickRaceRequest) -> tuple[Room, Effect]:
        rules = self.rules
        wanted = RoomOptions(max_players=rules.max_players, countdown_s=rules.wait_s, ranked=True)
        plan = RoomPlan(variant, resolve_ranked(variant, wanted), self.deps.draw(variant), quick=True)
        room, opened = self.deps.open_room(draft, player_id, plan, request.id)
        previous = self.filling.get(variant.id)
        draft.also(_Filling(self.filling, variant.id, room.code))
        return room, opened.merge(Effect(records=[QuickRoomRecord(variant.id, room.code, previous)]))

    def _maybe_start(self, draft: Draft, room: Room, player_id: str) -> Effect:
        """Enough players: the countdown starts; full: the race starts now. The player whose seat did it hears
        it in replies (their connection follows the room only once this request is done)."""
        now = self.deps.state.clock.now()
        players = len(room.players())
        if room.is_full() and (room.status == LOBBY or self._later(room.starts_at)):
            return self._schedule(draft, room, now, player_id)
        if room.status == LOBBY and players >= min(self.rules.min_players, room.options.max_players):
            return self._schedule(draft, room, now + timedelta(seconds=room.options.countdown_s), player_id)
        return Effect()

    def _schedule(self, draft: Draft, room: Room, starts_at: datetime, player_id: str) -> Effect:
        now = self.deps.state.clock.now()
        countdown = begin_countdown(draft, room, starts_at, now)
        room_now = whole_room(countdown.room, now, self.deps.connected, countdown.version)
        return Effect(
            records=[countdown.record],
            replies=[room_now.message, countdown.message],
            publications=[
                Publication(room_topic(room.code), countdown.message, skip=player_id, version=countdown.version),
                replace(room_now, skip=player_id),
            ],
        )


@dataclass(frozen=True, slots=True)
class _Filling:
    """The variant's filling room, once the store's pointer names it."""

    filling: dict[str, str]
    variant_id: str
    code: str

    def adopt(self) -> None:
        self.filling[self.variant_id] = self.code

    def refused(self) -> None:
        pass
