"""The rooms of core wired as the arena wires them, for the tests that need more than one (a lobby needs play to
resign a leaver's game; races need the clock). Each test still drives the one module it is about."""

from __future__ import annotations

from dataclasses import dataclass

from freecell_arena.core.competition.quick_race import QuickRaceDeps, QuickRaceRules, QuickRaces
from freecell_arena.core.competition.series import Series, SeriesDeps
from freecell_arena.core.live.lobby import Lobby, LobbyDeps
from freecell_arena.core.live.play import Play, PlayDeps
from freecell_arena.core.live.players import Players
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.races import RaceDeps, Races
from freecell_arena.core.live.rebuild import Rebuild, RebuildDeps
from freecell_arena.core.live.replica import Replica, ReplicaDeps
from freecell_arena.core.live.shared_state import SharedState


@dataclass
class Parts:
    state: SharedState
    players: Players
    timers: RaceClock
    play: Play
    lobby: Lobby
    races: Races
    rebuild: Rebuild
    replica: Replica
    series: Series
    quick: QuickRaces

    def tick(self) -> list[object]:
        return list(self.timers.ring(self.races, self.lobby))


def wire(state: SharedState, *, shared: bool = False, quick: QuickRaceRules | None = None) -> Parts:
    players = Players(state)
    timers = RaceClock(state.clock, shared=shared)
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
    return Parts(state, players, timers, play, lobby, races, rebuild, replica, series, quick_races)
