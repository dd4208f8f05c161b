"""A race's life after its countdown: every player dealt the same game at the same instant, the race finished
when everyone is done or time is up, and a finished race that nobody watches any more let go of.

The race clock (`race_clock.RaceClock`) says when; this module says what happens then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from freecell_arena.core.effects import Effect, Publication, RaceFinish
from freecell_arena.core.identity import new_id
from freecell_arena.core.leaderboard import deal_board
from freecell_arena.core.player_game import PlayerGame
from freecell_arena.core.ports import Record, RoomStatusRecord, RoomVersion
from freecell_arena.core.race_clock import RaceClock
from freecell_arena.core.race_ratings import RaceEnd, placements_of
from freecell_arena.core.room import Room
from freecell_arena.core.room_messages import Connected, game_over_to_player, race_over, race_started, whole_room
from freecell_arena.core.shared_state import SharedState
from freecell_arena.protocol.messages import RaceOverMessage
from freecell_arena.protocol.vocabulary import COUNTDOWN, FINISHED, RUNNING


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
        room.begin()
        version = room.next_version()
        records: list[Record] = [RoomStatusRecord(room.record.room_id, RUNNING, started_at, version)]
        publications: list[Publication] = []
        previous_games: dict[str, str | None] = {}
        dealt: list[PlayerGame] = []
        unread = room.unread_since()
        for member in room.players():
            game = PlayerGame.start(
                game_id=new_id("g"),
                room_id=room.record.room_id,
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
            room.games[member.player_id] = game
            dealt.append(game)
            state.games[game.game_id] = game
            player = state.players.get(member.player_id)  # None: a player of another process (it adopts the game)
            if player is not None:
                previous_games[member.player_id] = player.game_id
                player.game_id = game.game_id
            records.append(game.record)
            publications.append(race_started(room, game, now))

        def rollback() -> None:
            for game in dealt:  # ours go, wherever they are still ours
                state.games.pop(game.game_id, None)
                if room.games.get(game.player_id) is game:
                    del room.games[game.player_id]
                player = state.players.get(game.player_id)
                if player is not None and player.game_id == game.game_id:  # dealt here, or adopted since it was
                    player.game_id = previous_games.get(game.player_id)
            if unread():  # the copy still holds our start: the countdown goes on
                room.status = COUNTDOWN
                room.ends_at = None
                room.undo_version(version)
                self.timers.watch(room)
            # else the copy was re-read while our start was being written (in a cluster, another process began the
            # race first and its event came as a gap): it holds the store's race, running with that process's
            # games, whose players here were dealt them; putting the countdown back cleared those games and
            # refused their moves until the next re-read

        publications.extend(self._whole_room(room, now, version))
        return Effect(records=records, publications=publications, rollback=rollback)

    def finish_race(self, room: Room) -> Effect:
        """Everyone is done or time is up: the games still running end as `timeout`, the standings go out."""
        clock_now = self.state.clock.now()
        # a time limit that passed while no process held the race ends it at the limit, not at the restart
        now = min(clock_now, room.ends_at) if room.ends_at is not None else clock_now
        records: list[Record] = []
        publications: list[Publication] = []
        timed_out = [game for game in room.games.values() if game.running]
        for game in timed_out:
            records.append(game.end("timeout", now))
            publications.append(game_over_to_player(game))
        room.status = FINISHED
        self.timers.finished(room, now)
        version = room.next_version()
        records.append(RoomStatusRecord(room.record.room_id, FINISHED, now, version))
        over = race_over(room, version)
        publications.append(over)
        assert isinstance(over.message, RaceOverMessage)
        bots = self._bots_of(room)
        ended = RaceEnd(room.record.room_id, room.code, room.variant.id, room.record.seed, bool(room.options.ranked),
                        room.record.seed_chosen, placements_of(over.message.standings, bots), now,
                        room.options.autoplay)  # fmt: skip

        unread = room.unread_since()

        def rollback() -> None:
            if unread():  # the copy still holds our finish: the race runs on
                room.status = RUNNING
                room.undo_version(version)
                self.timers.finish_undone(room)
            # else the copy was re-read while our finish was being written (in a cluster, another process's finish
            # won and its `race_over` came first): it holds the store's race, finished, whose members here were told
            # so; putting the running race back over it refused their "race again" until the next re-read
            if room.status == RUNNING:
                for game in timed_out:
                    game.finish = None

        publications.extend(self._whole_room(room, clock_now, version))
        return RaceFinish(records=records, publications=publications, rollback=rollback, race_end=ended)

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

    def end_race_here(self, room: Room) -> None:
        """Another process finished the race (and stored every result): games still running here end too."""
        now = self.state.clock.now()
        ended_at = min(now, room.ends_at) if room.ends_at is not None else now
        for game in room.games.values():
            if game.running:
                game.end("timeout", ended_at)
        room.status = FINISHED
        self.timers.finished(room, now)

    def forget_unwatched(self) -> None:
        """A finished race whose members have all gone leaves memory, its games with it.

        Without this a long-running process keeps every race it ever held (and the garbage collector walks
        them all). The store has everything: a replay request or a join by code brings the room back by
        replay (freecell_arena.net.restore), as after a restart. The grace period keeps a race whose finish is still
        being written (and could be rolled back) in memory.
        """
        for room in self.timers.finished_long_enough():
            if not any(map(self.connected, room.members)):
                self._forget(room)

    def _forget(self, room: Room) -> None:
        state = self.state
        for game in room.games.values():
            state.games.pop(game.game_id, None)
            player = state.players.get(game.player_id)
            if player is not None and player.game_id == game.game_id:
                player.game_id = None
        for player_id in room.members:
            player = state.players.get(player_id)
            if player is not None and player.room_code == room.code:
                player.room_code = None
        state.remove_room(room)
        self.timers.forget(room)
