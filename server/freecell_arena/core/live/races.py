"""A race's life after its countdown: every player dealt the same game at the same instant, the race finished
when everyone is done or time is up, and a finished race that nobody watches any more let go of.

The race clock (`race_clock.RaceClock`) says when; this module says what happens then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from freecell_arena.core.effects import Effect, Publication
from freecell_arena.core.identity import new_ordered_id
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.race_clock import RaceClock
from freecell_arena.core.live.room import Room
from freecell_arena.core.live.room_messages import Connected, game_over_to_player, race_over, race_started, whole_room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import Record, RoomStatusRecord, RoomVersion
from freecell_arena.core.records.leaderboard import deal_board
from freecell_arena.core.records.race_ratings import RaceEnd, placements_of
from freecell_arena.protocol.rooms import RaceOverMessage, Standing
from freecell_arena.protocol.vocabulary import FINISHED, RUNNING


@dataclass
class RaceFinish(Effect):
    """A timer's finish of a race: once it is durable, the adapter rates the race (`core.records.race_ratings`)
    and works out its par, in the background. A kind of its own rather than a field of every `Effect`, so a move's
    effect carries nothing more for it; made here, where a race finishes, since core's kernel (`core.effects`) sits
    below the records that know a race's end."""

    race_end: RaceEnd | None = None

    def __init__(self, records: list[Record], publications: list[Publication], race_end: RaceEnd | None) -> None:
        """What a timer's finish carries (its changes come with `Draft.seal`), spelled out because `Effect.__init__`
        is: mypyc gives a compiled dataclass's subclass its base's `__init__`, which knows no `race_end`."""
        super().__init__(records, publications=publications)
        self.race_end = race_end


@dataclass(frozen=True)
class RaceDeps:
    state: SharedState
    timers: RaceClock
    connected: Connected


class Races:
    def __init__(self, deps: RaceDeps) -> None:
        self.state = deps.state
        self.timers = deps.timers
        self.connected = deps.connected

    def begin_race(self, room: Room) -> Effect:
        """The countdown is over: every player of the room gets a game of the deal, all started at its end."""
        assert room.starts_at is not None
        state, now = self.state, self.state.clock.now()
        started_at = room.starts_at
        draft = Draft(state)
        games: dict[str, PlayerGame] = {}
        for member in room.players():
            game = PlayerGame.start(
                game_id=new_ordered_id("g", now),
                room_id=room.room_id,
                room_code=room.code,
                player_id=member.player_id,
                name=member.name,
                variant=room.variant,
                seed=room.record.seed,
                autoplay=room.options.autoplay,
                undo_allowed=room.undo_allowed,
                ranked=bool(room.options.ranked),
                started_at=started_at,
                board=deal_board(room.variant.id, room.record.seed, member.bot),
            )
            games[member.player_id] = game
            draft.deal(game)
            if member.player_id in state.players:  # else a player of another process (it adopts the game)
                draft.sit(member.player_id, game_id=game.game_id)
        room, version = room.begun(games)
        draft.put(room)
        records: list[Record] = [RoomStatusRecord(room.room_id, RUNNING, started_at, version)]
        records.extend(game.record for game in games.values())
        publications = [race_started(room, game, now) for game in games.values()]
        publications.extend(self._whole_room(room, now, version))
        return draft.seal(Effect(records=records, publications=publications))

    def finish_race(self, room: Room) -> Effect:
        """Everyone is done or time is up: the games still running end as `timeout`, the standings go out."""
        clock_now = self.state.clock.now()
        # a time limit that passed while no process held the race ends it at the limit, not at the restart
        now = min(clock_now, room.ends_at) if room.ends_at is not None else clock_now
        draft = Draft(self.state)
        records: list[Record] = []
        timed_out = [game for game in room.games.values() if game.running]
        for game in timed_out:
            finish = game.ending("timeout", now)
            draft.end(game, finish)
            records.append(game.result_record(finish))
        standings = tuple(room.standings(draft.finishes()))
        room, version = room.changed(status=FINISHED, final_standings=standings)
        draft.put(room)
        records.append(RoomStatusRecord(room.room_id, FINISHED, now, version))
        publications = [game_over_to_player(game, draft.finishes()[game.game_id]) for game in timed_out]
        over = race_over(room, version)
        publications.append(over)
        assert isinstance(over.message, RaceOverMessage)
        bots = self._bots_of(room)
        ended = RaceEnd(room.room_id, room.code, room.variant.id, room.record.seed, bool(room.options.ranked),
                        room.record.seed_chosen, placements_of(over.message.standings, bots), now,
                        room.options.autoplay)  # fmt: skip
        publications.extend(self._whole_room(room, clock_now, version))
        return draft.seal(RaceFinish(records=records, publications=publications, race_end=ended))

    def _whole_room(self, room: Room, now: datetime, version: RoomVersion) -> list[Publication]:
        """The room's new status to everyone in it (nobody, for a room no longer in memory)."""
        return [whole_room(room, now, self.connected, version)] if room.code in self.state.rooms else []

    def _bots_of(self, room: Room) -> set[str]:
        """The race's bots: its members' flags, and the player records of those who left while it ran (a leaver's
        game stays in the standings, and a bot must not be rated on the humans' ladder)."""
        bots = {member.player_id for member in room.members.values() if member.bot}
        players = self.state.players
        bots.update(player_id for player_id in room.games if (player := players.get(player_id)) and player.record.bot)
        return bots

    def end_race_here(self, draft: Draft, room: Room, standings: tuple[Standing, ...] | None = None) -> Room:
        """Another process finished the race (and stored every result): games still running here end too (with its
        standings, when its `race_over` told them): the games' ends in the draft, and the room's finished value (the
        caller puts it, at the version the other process's change brought it to)."""
        now = self.state.clock.now()
        ended_at = min(now, room.ends_at) if room.ends_at is not None else now
        for game in room.games.values():
            if game.running:
                draft.end(game, game.ending("timeout", ended_at))
        return room.but(status=FINISHED, final_standings=standings or room.final_standings)

    def forget_unwatched(self) -> None:
        """A finished race whose members have all gone leaves memory, its games with it.

        Without this a long-running process keeps every race it ever held (and the garbage collector walks
        them all). The store has everything: a replay request or a join by code brings the room back by
        replay (freecell_arena.net.restore), as after a restart. The grace period keeps a finished race in memory a
        while for those who look at it again (`race_again`, the standings), and a room with a change in flight stays.
        """
        draft = Draft(self.state)
        for room in self.timers.finished_long_enough():
            if not any(map(self.connected, room.members)):
                forget_room(draft, room)
        draft.adopt_now()



def forget_room(draft: Draft, room: Room) -> None:
    """The room and its games leave memory; a player whose seat is in it sits nowhere (memory's own sweep, or a
    room closed elsewhere)."""
    state = draft.state
    for game in room.games.values():
        draft.forget_game(game.game_id)
        if game.player_id in state.players and draft.seat(game.player_id).game_id == game.game_id:
            draft.sit(game.player_id, game_id=None)
    for player_id in room.members:
        if player_id in state.players and draft.seat(player_id).room_code == room.code:
            draft.sit(player_id, room_code=None)
    draft.drop(room)
