"""The arena: every player, room and game this process holds, and the handler of every request.

A facade over rooms of one idea each, wired here and nowhere else: `players` (identities and connections),
`lobby` (rooms and seats), `play` (moves, state, replays), `races` with the `timers` of the race clock
(countdowns, time limits, settling, sweeps), `rebuild` (what the store brings back by replay), `replica`
(rooms shared with other processes) and `dailies`. Each gets a narrow bundle of what it needs, never the arena.

Handlers are synchronous and return an `Effect` (records to persist, messages to send afterwards, and the changes
memory takes once they are stored) or raise `Refusal` (nothing changed), or `Busy` (a room the request changes has
a change in flight: handle it again once that one is stored or refused). Time comes from the injected clock;
`tick` advances countdowns and time limits and is called by the adapter every few tens of milliseconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from freecell_arena.core.clock import Clock
from freecell_arena.core.competition.quick_race import QuickRaceDeps, QuickRaceRules, QuickRaces
from freecell_arena.core.competition.series import Series, SeriesDeps
from freecell_arena.core.competition.tournaments.owner import TournamentDeps, Tournaments
from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.daily_play import DailyChallenges
from freecell_arena.core.live.lobby import DEFAULT_MAX_SPECTATORS, LOBBY_RETURN_GRACE, Lobby, LobbyDeps, SeedDraw
from freecell_arena.core.live.play import Play, PlayDeps
from freecell_arena.core.live.players import Players
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.races import RaceDeps, Races
from freecell_arena.core.live.rebuild import Rebuild, RebuildDeps
from freecell_arena.core.live.replica import Replica, ReplicaDeps
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.moderation.removal import RemovalVerbs, remove
from freecell_arena.core.records.race_ratings import FinishedRace
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.leaderboards import PlayDailyRequest
from freecell_arena.protocol.play import MoveRequest, ReplayRequest, ResignRequest, StateRequest, UndoRequest
from freecell_arena.protocol.rooms import (
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    QuickRaceRequest,
    RaceAgainRequest,
    StartRaceRequest,
)
from freecell_arena.protocol.session import HelloRequest, WelcomeMessage
from freecell_arena.protocol.tournaments import (
    BerserkRequest,
    EnterTournamentRequest,
    PauseTournamentRequest,
    WithdrawTournamentRequest,
)
from freecell_arena.protocol.vocabulary import FINISHED, LOBBY
from freecell_arena.protocol.wire import Message


class Arena:
    def __init__(
        self,
        clock: Clock,
        max_spectators: int = DEFAULT_MAX_SPECTATORS,
        *,
        shared: bool = False,
        quick: QuickRaceRules | None = None,
        return_grace: timedelta = LOBBY_RETURN_GRACE,
    ) -> None:
        """`shared`: other processes share the database and this process's rooms (a cluster): a race is finished
        from the stored games (`replica.take_due`, then `replica.settle`). `quick`: the quick races' sizes and
        waits. `return_grace`: how long the members of a lobby picked up from the store have to come back."""
        self.clock = clock
        self.state = SharedState(clock)
        self.players, self.rooms, self.games = self.state.players, self.state.rooms, self.state.games
        self.identities = Players(self.state)
        self.timers = RaceClock(clock, self.state.rooms, shared=shared)
        self.state.rooms.listener, self.state.rooms.released = self.timers.room_changed, self.timers.released
        connected = self.identities.is_connected
        self.play = Play(PlayDeps(self.state, self.timers, connected))
        self.lobby = Lobby(
            LobbyDeps(self.state, self.identities, self.timers, self.play.resign_game, max_spectators, return_grace)
        )
        self.dailies = DailyChallenges(self.state, self.lobby)
        self.races = Races(RaceDeps(self.state, self.timers, connected))
        self.rebuild = Rebuild(
            RebuildDeps(self.state, self.identities, self.timers, self.dailies.track, self.lobby.await_return)
        )
        self.replica = Replica(ReplicaDeps(self.state, self.identities, self.timers, self.rebuild, self.races))
        lobby = self.lobby
        self.series = Series(SeriesDeps(self.state, lobby.open_room, lobby.seat, lobby.drawn_seed))
        self.quick = QuickRaces(
            QuickRaceDeps(
                self.state,
                self.timers,
                connected,
                lobby.open_room,
                lobby.seat,
                lobby.drawn_seed,
                quick or QuickRaceRules(),
            )
        )
        lobby.after_leave, lobby.after_join = self.quick.after_leave, self.quick.after_join
        self.tournaments = Tournaments(
            TournamentDeps(self.state, lobby.open_room, lobby.seat, lobby.make_way, lobby.drawn_seed, connected)
        )
        self._handlers: dict[type[Any], Callable[[str, Any], Effect]] = {
            CreateRoomRequest: self.lobby.create_room,
            JoinRoomRequest: self.lobby.join_room,
            LeaveRoomRequest: self.lobby.leave_room,
            StartRaceRequest: self.lobby.start_race,
            MoveRequest: self.play.move,
            UndoRequest: self.play.undo,
            ResignRequest: self.play.resign,
            StateRequest: self.play.get_state,
            ReplayRequest: self.play.get_replay,
            PlayDailyRequest: self.dailies.play,
            RaceAgainRequest: self.series.race_again,
            QuickRaceRequest: self.quick.quick_race,
            EnterTournamentRequest: self.tournaments.enter,
            WithdrawTournamentRequest: self.tournaments.withdraw,
            PauseTournamentRequest: self.tournaments.pause,
            BerserkRequest: self.tournaments.berserk,
        }

    @property
    def draw_seed(self) -> SeedDraw:
        """Where seeds nobody chose come from (a secret random draw); replaced by tests."""
        return self.lobby.draw_seed

    @draw_seed.setter
    def draw_seed(self, draw: SeedDraw) -> None:
        self.lobby.draw_seed = draw

    # ------------------------------------------------------------------ what a connection does (`Sessions`)

    def handle(self, player_id: str, request: Message) -> Effect:
        """One request of a greeted player; raises `Refusal` when it changes nothing."""
        if isinstance(request, HelloRequest):
            raise Refusal(ErrorCode.already_greeted, "this connection already said hello")
        effect = self._handlers[type(request)](player_id, request)
        if effect.changes is not None:  # a move changes a game, no room or seat: nothing to claim (no call made)
            effect.claim()
        return effect

    def register(self, request: HelloRequest) -> tuple[str, Effect]:
        return self.identities.register(request)

    def resume(self, player_id: str, request: HelloRequest) -> Effect:
        """A known player said hello with their token: their state, and the room told they are back."""
        state = self.identities.connected(player_id)
        welcome = WelcomeMessage(
            id=request.id, player_id=player_id, name=state.record.display_name, token=request.token or "", resumed=True
        )
        effect = Effect(replies=[welcome, self.play.state_message(player_id, None), *self.play.race_result(player_id)])
        return effect.merge(self.lobby.connection_changed(player_id, connected=True))

    def disconnect(self, player_id: str) -> Effect:
        """A connection closed. The clock does not stop; a lobby seat is given up."""
        state = self.identities.disconnected(player_id)
        if state is None or state.connections or state.seat.room_code is None:
            return Effect()
        room = self.rooms.get(state.seat.room_code)
        busy = room is not None and (self.state.rooms.in_flight(room.room_id) or self.state.seats.in_flight(player_id))
        if room is not None and room.status == LOBBY and busy:
            self.timers.give_up_absent(room)  # a change of the lobby or of the seat in flight: they leave next tick
            return Effect()
        if room is not None and room.status == LOBBY:
            draft = Draft(self.state)
            effect = draft.seal(self.lobby.leave(draft, player_id, None, reply=False))
            effect.claim()
            return effect
        return self.lobby.connection_changed(player_id, connected=False)

    def remove_player(self, player_id: str) -> Effect:
        """A banned player out of live play (`core.moderation.removal`): their running game resigned, their seat
        given up; raises `Busy` while their room has a change in flight."""
        effect = remove(RemovalVerbs(self._leave_for_good, self._resign_alone), player_id)
        effect.claim()
        return effect

    def _leave_for_good(self, player_id: str) -> Effect | None:
        if not self.identities.knows(player_id):
            return None
        draft = Draft(self.state)
        if draft.seat(player_id).room_code is None or self.state.room_of_player(player_id) is None:
            return None
        return draft.seal(self.lobby.leave(draft, player_id, None, reply=False))

    def _resign_alone(self, player_id: str) -> Effect | None:
        game = self.state.current_game(player_id) if self.identities.knows(player_id) else None
        if game is None or not game.running or game.room_code is not None:
            return None
        return self.play.resign_game(game)

    def rename(self, player_id: str, name: str) -> None:
        """A moderator replaced the player's name, or the player chose a new one: what this process shows."""
        self.identities.rename(player_id, name)

    def know_next_room(self, code: str, next_code: str | None, uncounted: frozenset[str] = frozenset()) -> None:
        self.series.know_next(code, next_code, uncounted)

    def know_quick_room(self, variant_id: str, code: str) -> None:
        self.quick.know_filling(variant_id, code)

    def knows(self, player_id: str) -> bool:
        return self.identities.knows(player_id)

    def player_by_token_hash(self, token_hash: str) -> str | None:
        return self.identities.by_token_hash(token_hash)

    def is_connected(self, player_id: str) -> bool:
        return self.identities.is_connected(player_id)

    def room_code_of(self, player_id: str) -> str | None:
        """From the shared state (compiled): net asks every move."""
        state = self.state.players.get(player_id)
        return state.room_code if state is not None else None

    def variant_of(self, player_id: str) -> str:
        """The variant of the player's current game ("" without one), for the adapter's move metrics."""
        game = self.state.current_game(player_id)
        return game.variant.id if game is not None else ""

    def finished_race(self, player_id: str) -> FinishedRace | None:
        room = self.state.room_of_player(player_id)
        if room is None or room.status != FINISHED:
            return None
        return FinishedRace(room.record.room_id, room.code, room.variant.id)

    # ------------------------------------------------------------------ time, and what the operator sees

    def tick(self) -> list[Effect]:
        """Start the races whose countdown is over; end the races that are done or out of time; let go of what
        nobody needs in memory any more; close the dailies of a day that ended."""
        effects = self.timers.run_due_timers(self.races, self.lobby)
        if self.timers.time_to_sweep(idle_players=self.identities.any_unconnected()):
            self.races.forget_unwatched()
            self.identities.forget_idle(self.clock.now())
        return effects + self.dailies.tick(self.clock.now())

    def rooms_by_status(self) -> dict[str, int]:
        return dict(Counter(room.status for room in self.rooms.values()))
