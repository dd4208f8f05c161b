"""The rooms of core wired as the arena wires them, for the tests that need more than one (a lobby needs play to
resign a leaver's game; races need the clock). Each test still drives the one module it is about.

`wire` hands out the parts behind a store that accepts every write (`Accepted`): an effect a part returns is
claimed and stored at once, so memory adopts its changes as net does after a commit. `Parts.raw` has the parts
themselves, for a test that decides what the store does (`effect.stored()`, `effect.refused()`), or that holds
an effect in flight while something else happens."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from freecell_arena.core.competition.quick_race import QuickRaceDeps, QuickRaceRules, QuickRaces
from freecell_arena.core.competition.series import Series, SeriesDeps
from freecell_arena.core.effects import Effect
from freecell_arena.core.live.lobby import Lobby, LobbyDeps
from freecell_arena.core.live.play import Play, PlayDeps
from freecell_arena.core.live.players import Players
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.races import RaceDeps, Races
from freecell_arena.core.live.rebuild import Rebuild, RebuildDeps
from freecell_arena.core.live.replica import Replica, ReplicaDeps
from freecell_arena.core.live.rooms import Busy
from freecell_arena.core.live.shared_state import SharedState

Part = TypeVar("Part")


def stored(effect: Effect) -> Effect:
    """What net does with an effect the store accepted: claimed (if a handler outside the arena made it), then
    adopted."""
    with contextlib.suppress(Busy):  # claimed already (a timer's, a settle's): its own claim
        effect.claim()
    effect.stored()
    return effect


class Accepted(Generic[Part]):
    """A part whose every effect the store accepts at once."""

    def __init__(self, part: Part) -> None:
        object.__setattr__(self, "_part", part)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._part, name, value)  # a test replacing a part's seam (its seed draw, say)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._part, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            result = value(*args, **kwargs)
            if isinstance(result, Effect):
                stored(result)
            elif isinstance(result, tuple) and any(isinstance(item, Effect) for item in result):
                for item in result:
                    if isinstance(item, Effect):
                        stored(item)
            elif isinstance(result, list) and result and all(isinstance(item, Effect) for item in result):
                for item in result:
                    stored(item)
            return result

        return call


@dataclass
class RawParts:
    players: Players
    timers: RaceClock
    play: Play
    lobby: Lobby
    races: Races
    rebuild: Rebuild
    replica: Replica
    series: Series
    quick: QuickRaces

    def tick(self) -> list[Effect]:
        """A tick's effects, claimed and in flight (the store has not answered)."""
        return self.timers.run_due_timers(self.races, self.lobby)


@dataclass
class Parts:
    state: SharedState
    raw: RawParts
    players: Accepted[Players]
    timers: RaceClock
    play: Accepted[Play]
    lobby: Accepted[Lobby]
    races: Accepted[Races]
    rebuild: Accepted[Rebuild]
    replica: Accepted[Replica]
    series: Accepted[Series]
    quick: Accepted[QuickRaces]

    def tick(self) -> list[Effect]:
        """A tick's effects, stored."""
        return [stored(effect) for effect in self.raw.tick()]


def wire(state: SharedState, *, shared: bool = False, quick: QuickRaceRules | None = None) -> Parts:
    players = Players(state)
    timers = RaceClock(state.clock, state.rooms, shared=shared)
    state.rooms.listener, state.rooms.released = timers.room_changed, timers.released
    play = Play(PlayDeps(state, timers, players.is_connected))
    lobby = Lobby(LobbyDeps(state, players, timers, play.resign_game))
    races = Races(RaceDeps(state, timers, players.is_connected))
    rebuild = Rebuild(RebuildDeps(state, players, timers, lambda game: None, lobby.await_return))
    replica = Replica(ReplicaDeps(state, players, timers, rebuild, races))
    series = Series(SeriesDeps(state, lobby.open_room, lobby.seat, lobby.drawn_seed))
    quick_races = QuickRaces(
        QuickRaceDeps(state, timers, players.is_connected, lobby.open_room, lobby.seat, lobby.drawn_seed,
                      quick or QuickRaceRules())
    )  # fmt: skip
    lobby.after_leave, lobby.after_join = quick_races.after_leave, quick_races.after_join
    raw = RawParts(players, timers, play, lobby, races, rebuild, replica, series, quick_races)
    wrap: Callable[[Any], Any] = Accepted
    return Parts(state, raw, wrap(players), timers, wrap(play), wrap(lobby), wrap(races), wrap(rebuild),
                 wrap(replica), wrap(series), wrap(quick_races))  # fmt: skip
