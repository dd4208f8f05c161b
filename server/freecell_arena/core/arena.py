"""The arena: every player, room and game this process holds, and the handler of every request.

Handlers are synchronous and return an `Effect` (records to persist, messages to send afterwards, and a
rollback) or raise `Refusal` (nothing changed). Time comes from the injected clock; `tick` advances
countdowns and time limits and is called by the adapter every few tens of milliseconds.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from freecell_arena.core import daily
from freecell_arena.core.clock import Clock
from freecell_arena.core.daily_play import DailyChallenges
from freecell_arena.core.effects import Effect, Publication, Refusal
from freecell_arena.core.events import player_topic, room_topic
from freecell_arena.core.identity import (
    hash_token,
    new_id,
    new_room_code,
    new_token,
    normalize_room_code,
    random_seed,
)
from freecell_arena.core.leaderboard import deal_board, resolve_ranked
from freecell_arena.core.player_game import MOVE_ACCEPTED, OUTCOME_SENTENCES, PLAYED_MOVE, PlayerGame, played
from freecell_arena.core.ports import (
    MemberLeftRecord,
    MemberRecord,
    MoveRecord,
    PlayerRecord,
    Record,
    RoomRecord,
    RoomStatusRecord,
    RoomVersion,
    StoredGame,
    StoredRoom,
)
from freecell_arena.core.room import CLOSED, COUNTDOWN, FINISHED, LOBBY, RUNNING, Member, Room
from freecell_arena.core.shared_state import PlayerState, SharedState, known_variant
from freecell_arena.engine import (
    IllegalMoveError,
    NotationError,
    Turn,
    Variant,
    move_from_json,
    move_to_json,
    parse_move,
    variant_by_id,
)
from freecell_arena.engine.view import replay_steps
from freecell_arena.protocol.messages import (
    CountdownMessage,
    CreateRoomRequest,
    ErrorCode,
    GameOverMessage,
    GameStateMessage,
    HelloRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    LeftRoomMessage,
    MemberConnectionMessage,
    MemberJoinedMessage,
    MemberLeftMessage,
    Message,
    MoveRequest,
    PlayDailyRequest,
    ProgressMessage,
    RaceOverMessage,
    RaceStartedMessage,
    ReplayMessage,
    ReplayRequest,
    RequestId,
    ResignRequest,
    RoomMessage,
    RoomOptions,
    StartRaceRequest,
    StateRequest,
    UndoRequest,
    WelcomeMessage,
)
from freecell_arena.protocol.trusted import Reply

DEFAULT_MAX_SPECTATORS = 64
"""Every spectator gets every room event: a cap keeps one room from costing the server without bound."""
FORGET_FINISHED_AFTER = timedelta(seconds=30)
"""How long a finished race stays in memory at least, even when nobody of it is connected."""
FORGET_IDLE_PLAYER_AFTER = timedelta(seconds=60)
"""How long an identity with nothing going on stays in memory after its last connection closed."""
TAKEOVER_GRACE = timedelta(seconds=2)
"""A race's countdown end or time limit, seen by a process that did not start the race: it acts this much later,
only if the room's keeper has not (the keeper's process may have died); the room's version check lets one win."""
SWEEP_INTERVAL = timedelta(seconds=1)
LOBBY_RETURN_GRACE = timedelta(seconds=60)
"""A lobby picked up from the store (after a restart, or a process that died): how long its members have to
reconnect before their seats are given up (a member who closes their connection in a lobby leaves at once)."""
"""How often the finished races are looked at (not on every tick: a race whose players stay costs nothing)."""

class Arena:
    def __init__(self, clock: Clock, max_spectators: int = DEFAULT_MAX_SPECTATORS) -> None:
        self.clock = clock
        self.max_spectators = max_spectators
        self.draw_seed: Callable[[int, int], int] = random_seed
        """Where seeds nobody chose come from (a secret random draw); injected like the clock, for tests."""
        self.state = SharedState(clock)
        self.players = self.state.players
        self.rooms = self.state.rooms
        self.rooms_by_id: dict[str, Room] = {}
        self.games = self.state.games
        self.token_hashes: dict[str, str] = {}
        self.dailies = DailyChallenges(self.state, self)
        # What `tick` looks at, so its cost follows what can happen now, not every room in memory: rooms with
        # a deadline (a countdown, a running race's time limit), and running rooms where a game just ended
        # (is everyone done?). Insertion-ordered; rooms whose status moved on drop out.
        self._clocked: dict[Room, None] = {}
        self._settling: dict[Room, None] = {}
        self._finished: dict[Room, datetime] = {}
        """Finished races, by when they finished: each leaves memory once nobody of it is connected."""
        self._next_sweep: datetime | None = None
        self.shared = False
        """Other processes share the database and this process's rooms (set by the cluster adapter): a race is
        finished from the stored games (`settle`), as other processes hold some of its players' games."""
        self.due: dict[Room, None] = {}
        """Shared rooms that may be over: the adapter re-reads their games, then calls `settle`."""
        self._lobby_returns: dict[Room, datetime] = {}
        """Lobbies picked up from the store, by when their members must be back (`LOBBY_RETURN_GRACE`)."""
        self._unconnected_since: dict[str, datetime] = {}
        """Players whose last connection closed, and when: candidates to leave memory (`_forget_idle_players`)."""

    # ------------------------------------------------------------------ identity and connections

    def register(self, request: HelloRequest) -> tuple[str, Effect]:
        """A new identity: the token is returned once, only its hash is stored."""
        token = new_token()
        record = PlayerRecord(
            player_id=new_id("p"),
            display_name=request.name,
            token_hash=hash_token(token),
            bot=request.bot,
            created_at=self.clock.now(),
        )
        self.players[record.player_id] = PlayerState(record, connections=1)
        self.token_hashes[record.token_hash] = record.player_id

        def rollback() -> None:
            self.players.pop(record.player_id, None)
            self.token_hashes.pop(record.token_hash, None)

        welcome = WelcomeMessage(
            id=request.id, player_id=record.player_id, name=record.display_name, token=token, resumed=False
        )
        return record.player_id, Effect(records=[record], replies=[welcome], rollback=rollback)

    def knows(self, player_id: str) -> bool:
        return player_id in self.players

    def adopt_player(self, record: PlayerRecord) -> None:
        """A stored identity comes back to this process (after a restart, or from another process)."""
        self.players.setdefault(record.player_id, PlayerState(record))
        self.token_hashes.setdefault(record.token_hash, record.player_id)

    def player_by_token_hash(self, token_hash: str) -> str | None:
        return self.token_hashes.get(token_hash)

    def resume(self, player_id: str, request: HelloRequest) -> Effect:
        state = self.players[player_id]
        state.connections += 1
        self._unconnected_since.pop(player_id, None)
        welcome = WelcomeMessage(
            id=request.id,
            player_id=player_id,
            name=state.record.display_name,
            token=request.token or "",
            resumed=True,
        )
        effect = Effect(replies=[welcome, self._state_message(player_id, None)])
        return effect.merge(self._connection_changed(state.room_code, player_id, connected=True))

    def disconnect(self, player_id: str) -> Effect:
        """A connection closed. The clock does not stop; a lobby seat is given up."""
        state = self.players.get(player_id)
        if state is None:
            return Effect()
        state.connections = max(0, state.connections - 1)
        if not state.connections:
            self._unconnected_since[player_id] = self.clock.now()
        if state.connections or state.room_code is None:
            return Effect()
        room = self.rooms.get(state.room_code)
        if room is not None and room.status == LOBBY:
            return self._leave(player_id, None, reply=False)
        return self._connection_changed(state.room_code, player_id, connected=False)

    def is_connected(self, player_id: str) -> bool:
        state = self.players.get(player_id)
        return bool(state and state.connections)

    def room_code_of(self, player_id: str) -> str | None:
        state = self.players.get(player_id)
        return state.room_code if state else None

    def variant_of(self, player_id: str) -> str:
        """The variant of the player's current game ("" without one), for the adapter's move metrics."""
        state = self.players.get(player_id)
        game = self.games.get(state.game_id) if state is not None and state.game_id is not None else None
        return game.variant.id if game is not None else ""

    def rooms_by_status(self) -> dict[str, int]:
        return dict(Counter(room.status for room in self.rooms.values()))

    # ------------------------------------------------------------------ dispatch

    def handle(self, player_id: str, request: Message) -> Effect:
        """One request of a greeted player; raises `Refusal` when it changes nothing."""
        if isinstance(request, HelloRequest):
            raise Refusal(ErrorCode.already_greeted, "this connection already said hello")
        return self._handlers[type(request)](player_id, request)

    @functools.cached_property
    def _handlers(self) -> dict[type[Any], Callable[[str, Any], Effect]]:
        """Built once per arena, not once per request."""
        return {
            CreateRoomRequest: self.create_room,
            JoinRoomRequest: self.join_room,
            LeaveRoomRequest: self.leave_room,
            StartRaceRequest: self.start_race,
            MoveRequest: self.move,
            UndoRequest: self.undo,
            ResignRequest: self.resign,
            StateRequest: self.get_state,
            ReplayRequest: self.get_replay,
            PlayDailyRequest: self.dailies.play,
        }

    # ------------------------------------------------------------------ rooms

    def create_room(self, player_id: str, request: CreateRoomRequest) -> Effect:
        self.dailies.refuse_while_playing(player_id)
        leaving = self.leave_finished_room(player_id)
        variant = known_variant(request.variant)
        options = resolve_ranked(variant, request.options)
        seed = self._seed(variant, request.seed, request.deal, self.draw_seed)
        seed_chosen = request.seed is not None or request.deal is not None
        now = self.clock.now()
        code = new_room_code()
        while code in self.rooms:
            code = new_room_code()
        record = RoomRecord(
            room_id=new_id("r"),
            code=code,
            variant=variant.id,
            seed=seed,
            host_id=player_id,
            options=options.model_dump(mode="json"),
            created_at=now,
            seed_chosen=seed_chosen,
        )
        room = Room(record, variant, options)
        self._add_room(room)
        state = self.players[player_id]
        room.members[player_id] = Member(player_id, state.record.display_name, state.record.bot, "player")
        state.room_code = code
        joined = MemberRecord(record.room_id, player_id, "player", now, room.next_version())

        def rollback() -> None:
            self._drop_room(room)
            state.room_code = None

        reply = RoomMessage(id=request.id, room=room.view(now, self.is_connected))
        records: list[Record] = [record, RoomStatusRecord(record.room_id, LOBBY, now), joined]
        return leaving.merge(Effect(records=records, replies=[reply], rollback=rollback))

    def join_room(self, player_id: str, request: JoinRoomRequest) -> Effect:
        code = normalize_room_code(request.code)
        room = self.rooms.get(code)
        if room is None:
            raise Refusal(ErrorCode.unknown_room, f"there is no room with code {request.code!r}")
        state = self.players[player_id]
        if state.room_code == code:
            raise Refusal(ErrorCode.already_in_room, f"you are already in room {code}")
        if not request.spectator:
            self.dailies.refuse_while_playing(player_id)
            if room.status != LOBBY:
                raise Refusal(ErrorCode.room_started, f"the race in room {code} has already started")
            if room.is_full():
                limit = room.options.max_players
                raise Refusal(ErrorCode.room_full, f"room {code} is full ({limit} players)")
        elif len(room.members) - len(room.players()) >= self.max_spectators:
            raise Refusal(ErrorCode.room_full, f"room {code} has its {self.max_spectators} spectators already")
        leaving = self.leave_finished_room(player_id)
        role = "spectator" if request.spectator else "player"
        room.members[player_id] = Member(player_id, state.record.display_name, state.record.bot, role)
        previous_room, state.room_code = state.room_code, code
        now = self.clock.now()
        record = MemberRecord(room.record.room_id, player_id, role, now, room.next_version())

        def rollback() -> None:
            room.members.pop(player_id, None)
            room.undo_version(record.version)
            state.room_code = previous_room

        view = room.view(now, self.is_connected)
        reply = RoomMessage(id=request.id, room=view)
        joined = MemberJoinedMessage(code=code, member=next(m for m in view.members if m.player_id == player_id))
        publication = Publication(room_topic(code), joined, skip=player_id, version=record.version)
        return leaving.merge(Effect(records=[record], replies=[reply], publications=[publication], rollback=rollback))

    def leave_room(self, player_id: str, request: LeaveRoomRequest) -> Effect:
        return self._leave(player_id, request.id, reply=True)

    def start_race(self, player_id: str, request: StartRaceRequest) -> Effect:
        room = self._room_of(player_id)
        if room.host_id != player_id:
            raise Refusal(ErrorCode.not_host, "only the host starts the race")
        if room.status != LOBBY:
            raise Refusal(ErrorCode.room_started, f"the race in room {room.code} has already started")
        if not room.players():
            raise Refusal(ErrorCode.not_enough_players, "a race needs at least one player")
        now = self.clock.now()
        starts_at = room.schedule(now)
        room.keeps_time = True
        self._clocked[room] = None
        version = room.next_version()
        record = RoomStatusRecord(room.record.room_id, COUNTDOWN, starts_at, version)

        def rollback() -> None:
            room.status = LOBBY
            room.starts_at = None
            room.undo_version(version)

        countdown = CountdownMessage(code=room.code, starts_at=starts_at, seconds=room.options.countdown_s)
        return Effect(
            records=[record],
            replies=[countdown.model_copy(update={"id": request.id})],
            publications=[Publication(room_topic(room.code), countdown, skip=player_id, version=version)],
            rollback=rollback,
        ).merge(self._membership_changed(room.code, version))

    # ------------------------------------------------------------------ the game

    def move(self, player_id: str, request: MoveRequest) -> Effect:
        game = self._running_game(player_id, request.game_id)
        board = game.game.board
        try:
            if isinstance(request.move, str):
                move = parse_move(game.variant, request.move, board)
            else:
                move = move_from_json(request.move.model_dump(by_alias=True))
        except NotationError as error:
            raise Refusal(ErrorCode.bad_notation, str(error)) from None
        before = len(game.game.actions)
        try:
            turn = game.game.play(move)
        except IllegalMoveError as error:
            raise Refusal(ErrorCode.illegal_move, error.message, reason=error.code) from None
        return self._after_action(game, turn, before, request.id)

    def undo(self, player_id: str, request: UndoRequest) -> Effect:
        game = self._running_game(player_id, request.game_id)
        before = len(game.game.actions)
        try:
            turn = game.game.undo()
        except IllegalMoveError as error:
            raise Refusal(ErrorCode.undo_not_allowed, error.message, reason=error.code) from None
        return self._after_action(game, turn, before, request.id)

    def resign(self, player_id: str, request: ResignRequest) -> Effect:
        game = self._running_game(player_id, request.game_id)
        return self._resign(game, request.id)

    def _resign(self, game: PlayerGame, request_id: RequestId) -> Effect:
        now = self.clock.now()
        game.game.resigned = True
        result = game.end("resigned", now)
        self._game_ended(game)

        def rollback() -> None:
            game.game.resigned = False
            game.finish = None

        return Effect(
            records=[result],
            replies=[self.game_over_message(game, request_id)],
            publications=self._progress(game),
            rollback=rollback,
        )

    def _after_action(self, game: PlayerGame, turn: Turn, before: int, request_id: RequestId) -> Effect:
        now = self.clock.now()
        index = len(game.game.actions) - 1
        records: list[Record] = [MoveRecord(game.game_id, index, turn.action, now)]
        outcome, only_undo_left = game.game.verdict()
        if outcome is not None:
            records.append(game.end(outcome, now))
            self._game_ended(game)
        variant = game.variant
        counts = game.counts(now)
        accepted = MOVE_ACCEPTED.encode(
            id=request_id,
            game_id=game.game_id,
            index=index,
            action=turn.action,
            move=None if turn.move is None else PLAYED_MOVE.values(notation=turn.action, move=move_to_json(turn.move)),
            autoplay=[played(variant, move) for move in turn.autoplay],
            undone=[played(variant, move) for move in turn.undone],
            player_moves=counts.moves,
            single_card_moves=counts.single_card_moves,
            cards_on_foundations=counts.cards_home,
            time_ms=counts.time_ms,
            status=game.status,
            only_undo_left=only_undo_left,
            changes=game.view_changes(turn),
        )
        replies: list[Reply] = [accepted]
        if outcome is not None:
            replies.append(self.game_over_message(game, None))

        def rollback() -> None:
            game.rewind(before)

        return Effect(records=records, replies=replies, publications=self._progress(game, now), rollback=rollback)

    def game_over_message(self, game: PlayerGame, request_id: RequestId) -> GameOverMessage:
        assert game.finish is not None
        counts = game.counts()
        return GameOverMessage(
            id=request_id,
            game_id=game.game_id,
            outcome=game.finish.outcome,
            message=OUTCOME_SENTENCES[game.finish.outcome],
            player_moves=counts.moves,
            single_card_moves=counts.single_card_moves,
            cards_on_foundations=counts.cards_home,
            time_ms=counts.time_ms,
        )

    def _progress(self, game: PlayerGame, now: datetime | None = None) -> list[Publication]:
        """To the rest of the room: the player has the same counts in its own reply (one frame less per move).
        Nothing when nobody else is in the room (a solo race): no one would receive it."""
        if game.room_code is None:
            return []
        room = self.rooms.get(game.room_code)
        if room is not None and not any(member != game.player_id for member in room.members):
            return []
        message = ProgressMessage(code=game.room_code, progress=game.progress(now or self.clock.now()))
        return [Publication(room_topic(game.room_code), message, skip=game.player_id)]

    # ------------------------------------------------------------------ state and replays

    def get_state(self, player_id: str, request: StateRequest) -> Effect:
        return Effect(replies=[self._state_message(player_id, request.id)])

    def _state_message(self, player_id: str, request_id: RequestId) -> GameStateMessage:
        state = self.players[player_id]
        now = self.clock.now()
        room = self.rooms.get(state.room_code) if state.room_code else None
        game = self.games.get(state.game_id) if state.game_id else None
        seed_public = game is not None and self._seed_public(game)
        return GameStateMessage(
            id=request_id,
            room=room.view(now, self.is_connected) if room else None,
            game=game.view(now, seed_public=seed_public) if game else None,
        )

    def get_replay(self, player_id: str, request: ReplayRequest) -> Effect:
        game = self.games.get(request.game_id)
        if game is None:
            raise Refusal(ErrorCode.unknown_game, f"no game {request.game_id!r} on this server")
        if not self._replay_allowed(player_id, game):
            raise Refusal(
                ErrorCode.replay_not_available, "replays open when the race is over (a move seen is a move copied)"
            )
        start_view, steps = replay_steps(
            game.variant, game.record.seed, game.game.actions, autoplay=game.record.autoplay
        )
        return Effect(
            replies=[
                ReplayMessage(
                    id=request.id,
                    game_id=game.game_id,
                    player_id=game.player_id,
                    variant=game.variant.id,
                    seed=game.record.seed,
                    autoplay=game.record.autoplay,
                    actions=list(game.game.actions),
                    outcome=game.finish.outcome if game.finish else None,
                    final_view=game.board_view(),
                    start_view=start_view,
                    steps=steps,
                )
            ]
        )

    def _replay_allowed(self, player_id: str, game: PlayerGame) -> bool:
        """Anyone's replay once the race is over; before that only your own, and never a Cell Eleven seed.
        A daily's replays, the player's own included, open when its day closes."""
        room = self.rooms_by_id.get(game.record.room_id or "")
        race_over = not game.running and (room is None or room.status == FINISHED)
        if game.record.daily_day is not None:  # a daily's replays (yours too) open when its day closes
            return daily.is_closed(game.record.daily_day, self.clock.now())
        if race_over:
            return True
        return game.player_id == player_id and not game.variant.face_down

    # ------------------------------------------------------------------ time: countdowns and limits

    def tick(self) -> list[Effect]:
        """Start the races whose countdown is over; end the races that are done or out of time."""
        now = self.clock.now()
        effects = []
        for room in list(self._clocked):
            grace = TAKEOVER_GRACE if self.shared and not room.keeps_time else timedelta(0)
            if room.status == COUNTDOWN:
                if room.starts_at is not None and room.starts_at + grace <= now:
                    effects.append(self._begin_race(room))
            elif room.status == RUNNING and room.ends_at is not None:
                if room.ends_at + grace <= now:
                    if self.shared:
                        self.due[room] = None
                        del self._clocked[room]
                    else:
                        effects.append(self._finish_race(room))
            else:
                del self._clocked[room]
        for room, deadline in list(self._lobby_returns.items()):
            if deadline <= now:
                del self._lobby_returns[room]
                effects.extend(self._give_up_seats(room))
        settling, self._settling = self._settling, {}
        for room in settling:
            if room.status == RUNNING and self.shared:
                self.due[room] = None
            elif room.status == RUNNING and room.everyone_done():
                effects.append(self._finish_race(room))
        if (self._finished or self._unconnected_since) and (self._next_sweep is None or now >= self._next_sweep):
            self._next_sweep = now + SWEEP_INTERVAL
            self._forget_unwatched_races(now)
            self._forget_idle_players(now)
        return effects + self.dailies.tick(now)

    def _give_up_seats(self, room: Room) -> list[Effect]:
        """The members of a picked-up lobby who did not come back leave it (the last one closes it)."""
        if room.status != LOBBY or self.rooms.get(room.code) is not room:
            return []
        gone = [
            player_id
            for player_id, member in room.members.items()
            if not self.is_connected(player_id)
            and not member.elsewhere
            and (state := self.players.get(player_id)) is not None
            and state.room_code == room.code
        ]
        effects = [self._leave(player_id, None, reply=False) for player_id in gone]
        if not room.members and self.rooms.get(room.code) is room:  # stored with no members (before migration 0004)
            effects.append(Effect(records=[self._close(room)]))
        return effects

    def _forget_unwatched_races(self, now: datetime) -> None:
        """A finished race whose members have all gone leaves memory, its games with it.

        Without this a long-running process keeps every race it ever held (and the garbage collector walks
        them all). The store has everything: a replay request or a join by code brings the room back by
        replay (freecell_arena.net.restore), as after a restart. The grace period keeps a race whose finish is still
        being written (and could be rolled back) in memory.
        """
        for room, finished_at in list(self._finished.items()):
            if room.status != FINISHED:  # the finish was rolled back
                del self._finished[room]
            elif now - finished_at >= FORGET_FINISHED_AFTER and not any(map(self.is_connected, room.members)):
                self._forget_room(room)

    def _forget_idle_players(self, now: datetime) -> None:
        """An identity with no connection, no room and no running game leaves memory a while after its last
        connection closed: a long-running process would otherwise keep every player it ever saw. Its token
        brings it back (the adapter reads the player and any unfinished game from the store on `hello`)."""
        for player_id, since in list(self._unconnected_since.items()):
            state = self.players.get(player_id)
            if state is None or state.connections:
                del self._unconnected_since[player_id]
                continue
            if now - since < FORGET_IDLE_PLAYER_AFTER or state.room_code is not None:
                continue
            game = self.games.get(state.game_id) if state.game_id else None
            if game is not None and game.running:
                continue
            if game is not None:
                self.games.pop(game.game_id, None)
            del self.players[player_id]
            self.token_hashes.pop(state.record.token_hash, None)
            del self._unconnected_since[player_id]

    def _forget_room(self, room: Room) -> None:
        for game in room.games.values():
            self.games.pop(game.game_id, None)
            state = self.players.get(game.player_id)
            if state is not None and state.game_id == game.game_id:
                state.game_id = None
        for player_id in room.members:
            state = self.players.get(player_id)
            if state is not None and state.room_code == room.code:
                state.room_code = None
        self._drop_room(room)

    def _game_ended(self, game: PlayerGame) -> None:
        room = self.rooms_by_id.get(game.record.room_id or "")
        if room is not None:
            self._settling[room] = None

    def _begin_race(self, room: Room) -> Effect:
        assert room.starts_at is not None
        started_at = room.starts_at
        room.begin()
        version = room.next_version()
        records: list[Record] = [RoomStatusRecord(room.record.room_id, RUNNING, started_at, version)]
        publications: list[Publication] = []
        previous_games: dict[str, str | None] = {}
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
            self.games[game.game_id] = game
            state = self.players.get(member.player_id)  # None: a player of another process (it adopts the game)
            if state is not None:
                previous_games[member.player_id] = state.game_id
                state.game_id = game.game_id
            records.append(game.record)
            view = game.view(self.clock.now(), seed_public=room.seed_public)
            publications.append(
                Publication(player_topic(member.player_id), RaceStartedMessage(code=room.code, game=view))
            )

        def rollback() -> None:
            for player_id, game in room.games.items():
                self.games.pop(game.game_id, None)
                if player_id in previous_games:
                    self.players[player_id].game_id = previous_games[player_id]
            room.games.clear()
            room.status = COUNTDOWN
            room.ends_at = None
            room.undo_version(version)
            self._clocked[room] = None

        effect = Effect(records=records, publications=publications, rollback=rollback)
        return effect.merge(self._membership_changed(room.code, version))

    def _finish_race(self, room: Room) -> Effect:
        # a time limit that passed while no process held the race ends it at the limit, not at the restart
        now = min(self.clock.now(), room.ends_at) if room.ends_at is not None else self.clock.now()
        records: list[Record] = []
        publications: list[Publication] = []
        timed_out = [game for game in room.games.values() if game.running]
        for game in timed_out:
            records.append(game.end("timeout", now))
            publications.append(Publication(player_topic(game.player_id), self.game_over_message(game, None)))
        room.status = FINISHED
        self._finished[room] = now
        version = room.next_version()
        records.append(RoomStatusRecord(room.record.room_id, FINISHED, now, version))
        publications.append(
            Publication(
                room_topic(room.code),
                RaceOverMessage(code=room.code, seed=room.record.seed, standings=room.standings()),
                version=version,
            )
        )

        def rollback() -> None:
            for game in timed_out:
                game.finish = None
            room.status = RUNNING
            room.undo_version(version)
            self._finished.pop(room, None)
            self._clocked[room] = None
            self._settling[room] = None

        effect = Effect(records=records, publications=publications, rollback=rollback)
        return effect.merge(self._membership_changed(room.code, version))

    # ------------------------------------------------------------------ restoring from the store

    def adopt_room(self, stored: StoredRoom, games: list[StoredGame], players: list[PlayerRecord]) -> Room:
        """Rebuild a room and its games by replay (after a restart, or in another process)."""
        existing = self.rooms_by_id.get(stored.room.room_id)
        if existing is not None:
            return existing
        variant = variant_by_id(stored.room.variant)
        room = Room(stored.room, variant, RoomOptions.model_validate(stored.room.options))
        _take_stored_status(room, stored)
        room.keeps_time = False  # another process (alive or not) started it: see TAKEOVER_GRACE
        names = {record.player_id: record for record in players}
        for record in players:
            self.adopt_player(record)
        for stored_member in stored.members:
            player = names.get(stored_member.player_id)
            if player is None:
                continue
            member = Member(player.player_id, player.display_name, player.bot, stored_member.role)
            room.members[player.player_id] = member
            state = self.players.get(player.player_id)
            if state is not None and state.room_code is None and room.status != FINISHED:
                state.room_code = room.code
        for stored_game in games:
            player = names.get(stored_game.game.player_id)
            name = player.display_name if player else stored_game.game.player_id
            game = self._adopt_game(stored_game, name, room.code)
            room.games[game.player_id] = game
            room.members.setdefault(
                game.player_id, Member(game.player_id, name, bool(player and player.bot), "player")
            )
            state = self.players.get(game.player_id)
            if state is not None and game.running:  # a finished game never replaces a current one
                state.room_code = room.code
                state.game_id = game.game_id
        self._add_room(room)
        if room.status == FINISHED:  # adopted for a replay or a join: it may leave again
            self._finished[room] = self.clock.now()
        if room.status in (COUNTDOWN, RUNNING):
            self._clocked[room] = None
        if room.status == RUNNING and room.everyone_done():  # every game ended before the restart
            self._settling[room] = None
        if room.status == LOBBY:  # its members' connections are gone: they have a while to come back
            self._lobby_returns[room] = self.clock.now() + LOBBY_RETURN_GRACE
        return room

    def adopt_game(self, stored: StoredGame) -> PlayerGame:
        """A game without its room (the store could not say which room): playable on its own."""
        state = self.players[stored.game.player_id]
        game = self._adopt_game(stored, state.record.display_name, None)
        state.game_id = game.game_id
        return game

    def adopt_stored_game(self, stored: StoredGame) -> PlayerGame:
        """A finished game without a room, for its replay; it does not become anyone's current game."""
        return self._adopt_game(stored, self.players[stored.game.player_id].record.display_name, None)

    def _adopt_game(self, stored: StoredGame, name: str, room_code: str | None) -> PlayerGame:
        existing = self.games.get(stored.game.game_id)
        if existing is not None:
            return existing
        return self._restore_game(stored, name, room_code)

    def _restore_game(self, stored: StoredGame, name: str, room_code: str | None) -> PlayerGame:
        variant = variant_by_id(stored.game.variant)
        actions = [move.notation for move in sorted(stored.moves, key=lambda move: move.index)]
        game = PlayerGame.restore(stored.game, variant, name, room_code, actions, stored.result)
        self.games[game.game_id] = game
        self.dailies.track(game)
        return game

    # ------------------------------------------------------------------ rooms shared with other processes

    def apply_remote(self, message: Message, version: RoomVersion | None) -> str:
        """A room event another process published after its commit: bring this process's copy of the room up to
        date. Returns `applied`, `seen` (a version this copy has had already), `gap` (the event is not built on
        this copy's version, or needs what only the store has: re-read the room with `resync`), or `unknown` (no
        copy here). An event without a version (progress, connections) is applied as it comes."""
        room = self.rooms.get(_room_code_of(message) or "")
        if room is None:
            return "unknown"
        if version is not None:
            if version.tag == room.tag or version.seq < room.seq:
                return "seen"
            if version.previous != room.tag:
                return "gap"
        outcome = self._apply_event(room, message)
        if version is not None and outcome == "applied":
            room.at_version(version)
        return outcome

    def _apply_event(self, room: Room, message: Message) -> str:
        if isinstance(message, MemberJoinedMessage):
            new = message.member
            room.members[new.player_id] = Member(new.player_id, new.name, new.bot, new.role, elsewhere=new.connected)
        elif isinstance(message, MemberLeftMessage):
            room.members.pop(message.player_id, None)
            room.host_id = message.host_id
        elif isinstance(message, MemberConnectionMessage) and message.player_id in room.members:
            room.members[message.player_id].elsewhere = message.connected
        elif isinstance(message, CountdownMessage):
            room.status, room.starts_at, room.keeps_time = COUNTDOWN, message.starts_at, False
            self._clocked[room] = None
        elif isinstance(message, RoomMessage) and message.room is not None:
            view = message.room
            if view.status in (RUNNING, FINISHED) and not room.games:
                return "gap"  # the games were dealt by another process: they are in the store
            room.status, room.host_id = view.status, view.host_id
            room.starts_at, room.ends_at = view.starts_at, view.ends_at
            room.members = {
                member.player_id: Member(
                    member.player_id, member.name, member.bot, member.role,
                    elsewhere=member.connected and not self.is_connected(member.player_id),
                )
                for member in view.members
            }  # fmt: skip
        elif isinstance(message, RaceOverMessage):
            self._end_race_here(room)
        elif isinstance(message, ProgressMessage) and message.progress.status not in ("playing", "waiting"):
            self._settling[room] = None  # a game ended on another process: maybe the race is over
        return "applied"

    def _end_race_here(self, room: Room) -> None:
        """Another process finished the race (and stored every result): games still running here end too."""
        now = self.clock.now()
        ended_at = min(now, room.ends_at) if room.ends_at is not None else now
        for game in room.games.values():
            if game.running:
                game.end("timeout", ended_at)
        room.status = FINISHED
        self._finished[room] = now
        self._clocked.pop(room, None)

    def resync(self, stored: StoredRoom, games: list[StoredGame], players: list[PlayerRecord]) -> Room:
        """Replace this process's copy of a room with the store's (after a gap in its events, or a change of ours
        the store refused because another process changed the room first). Games played here keep what memory
        has beyond the store (a move being written)."""
        room = self.rooms_by_id.get(stored.room.room_id)
        if room is None:
            return self.adopt_room(stored, games, players)
        for record in players:
            self.adopt_player(record)
        names = {record.player_id: record for record in players}
        _take_stored_status(room, stored)
        room.members = {}
        for stored_member in stored.members:
            if (player := names.get(stored_member.player_id)) is not None:
                elsewhere = not self.is_connected(player.player_id)
                room.members[player.player_id] = Member(
                    player.player_id, player.display_name, player.bot, stored_member.role, elsewhere=elsewhere
                )
        self.refresh_games(room, games, names)
        if room.status in (COUNTDOWN, RUNNING):
            self._clocked[room] = None
        if room.status == RUNNING and room.everyone_done():  # the games just read say the race may be over
            self._settling[room] = None
        if room.status == FINISHED:
            self._end_race_here(room)
        return room

    def refresh_games(self, room: Room, games: list[StoredGame], names: dict[str, PlayerRecord]) -> None:
        """The stored games of a shared room replace the copies here that are behind them (games played on other
        processes); a game whose player plays here is never rewound."""
        for stored_game in games:
            player_id = stored_game.game.player_id
            current = room.games.get(player_id)
            if current is not None and current.game_id == stored_game.game.game_id:
                if not _behind(stored_game, current):
                    continue
                self.games.pop(current.game_id, None)
            player = names.get(player_id) or (self.players[player_id].record if player_id in self.players else None)
            name = player.display_name if player else player_id
            game = self._restore_game(stored_game, name, room.code)
            room.games[player_id] = game
            room.members.setdefault(player_id, Member(player_id, name, bool(player and player.bot), "player"))
            state = self.players.get(player_id)
            if state is not None and (game.running or state.game_id in (None, current and current.game_id)):
                state.room_code = state.room_code or room.code
                state.game_id = game.game_id

    def refresh_game(self, stored: StoredGame) -> None:
        """A game another process may have played (a daily, or a racer's game seen from here, before its replay):
        the store's copy replaces this one when it is ahead."""
        current = self.games.get(stored.game.game_id)
        room = self.rooms_by_id.get(stored.game.room_id or "")
        if room is not None:
            record = self.players[stored.game.player_id].record if stored.game.player_id in self.players else None
            self.refresh_games(room, [stored], {record.player_id: record} if record is not None else {})
            return
        state = self.players.get(stored.game.player_id)
        if state is None:
            return
        if current is not None:
            if not _behind(stored, current):
                return
            self.games.pop(current.game_id, None)
        game = self._restore_game(stored, state.record.display_name, None)
        if game.running or state.game_id == game.game_id:
            state.game_id = game.game_id

    def settle(self, room: Room) -> Effect | None:
        """A shared room that may be over, its games just re-read from the store (`due`): finish the race when
        every game has ended or the time limit has passed; None when it goes on."""
        self.due.pop(room, None)
        if room.status != RUNNING:
            return None
        out_of_time = room.ends_at is not None and room.ends_at <= self.clock.now()
        if not out_of_time and not room.everyone_done():
            return None
        return self._finish_race(room)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _seed(variant: Variant, seed: int | None, deal: int | None, draw_seed: Callable[[int, int], int]) -> int:
        if seed is not None and deal is not None and seed != deal:
            raise Refusal(ErrorCode.bad_seed, "give a seed or a deal number, not two different ones")
        chosen = seed if seed is not None else deal
        low, high = variant.seed_range
        if chosen is None:
            return draw_seed(low, high)
        if variant.face_down:
            raise Refusal(
                ErrorCode.bad_seed,
                f"{variant.name} hides cards: its rooms deal from a seed the server draws, so nobody (the host "
                "included) knows the face-down cards; the seed is shown once the race is over",
            )
        if not low <= chosen <= high:
            raise Refusal(ErrorCode.bad_seed, f"{variant.name} seeds run from {low} to {high}, not {chosen}")
        return chosen

    def _seed_public(self, game: PlayerGame) -> bool:
        if game.record.daily_day is not None:  # commit-reveal: the seed is published when the day closes
            return daily.is_closed(game.record.daily_day, self.clock.now())
        room = self.rooms_by_id.get(game.record.room_id or "")
        if room is not None:
            return room.seed_public
        return not game.variant.face_down or not game.running

    def _add_room(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.rooms_by_id[room.record.room_id] = room

    def _drop_room(self, room: Room) -> None:
        self.rooms.pop(room.code, None)
        self.rooms_by_id.pop(room.record.room_id, None)
        self._clocked.pop(room, None)
        self._settling.pop(room, None)
        self._finished.pop(room, None)
        self._lobby_returns.pop(room, None)

    def _close(self, room: Room) -> RoomStatusRecord:
        """A lobby everyone left leaves memory; the store keeps it as `closed`."""
        self._drop_room(room)
        return RoomStatusRecord(room.record.room_id, CLOSED, self.clock.now(), room.next_version())

    def _room_of(self, player_id: str) -> Room:
        code = self.players[player_id].room_code
        room = self.rooms.get(code) if code else None
        if room is None:
            raise Refusal(ErrorCode.not_in_room, "you are not in a room")
        return room

    def _running_game(self, player_id: str, game_id: str | None) -> PlayerGame:
        state = self.players[player_id]
        if game_id is not None and game_id != state.game_id:
            other = self.games.get(game_id)
            if other is not None and other.player_id != player_id:
                raise Refusal(ErrorCode.not_your_game, "that game belongs to another player")
            if other is None:
                raise Refusal(ErrorCode.unknown_game, f"no game {game_id!r} on this server")
            raise Refusal(ErrorCode.game_not_running, "that game of yours is over")
        game = self.games.get(state.game_id) if state.game_id else None
        if game is None:
            raise Refusal(ErrorCode.no_game, "you have no game: join a room and wait for the race to start")
        if not game.running:
            raise Refusal(ErrorCode.game_not_running, f"your game is over ({game.status})")
        room = self.rooms_by_id.get(game.record.room_id or "")
        if room is not None and room.ends_at is not None and self.clock.now() >= room.ends_at:
            raise Refusal(ErrorCode.game_not_running, "the race's time limit has passed")
        if game.record.daily_day is not None and daily.is_closed(game.record.daily_day, self.clock.now()):
            raise Refusal(ErrorCode.game_not_running, f"the daily of {game.record.daily_day} has closed")
        return game

    def leave_finished_room(self, player_id: str) -> Effect:
        """Create/join while sitting in a finished room: leave it first; in any other room: refuse."""
        code = self.players[player_id].room_code
        if code is None:
            return Effect()
        room = self.rooms.get(code)
        if room is not None and room.status != FINISHED:
            raise Refusal(ErrorCode.already_in_room, f"you are in room {code}: leave it first")
        return self._leave(player_id, None, reply=False)

    def _leave(self, player_id: str, request_id: RequestId, *, reply: bool) -> Effect:
        state = self.players[player_id]
        room = self._room_of(player_id)
        effect = Effect()
        game = room.games.get(player_id)
        if room.status == RUNNING and game is not None and game.running:
            effect = self._resign(game, None)
        member = room.members.pop(player_id, None)
        state.room_code = None
        host_before = room.host_id
        if room.host_id == player_id:
            successors = room.players() or list(room.members.values())
            if successors:
                room.host_id = successors[0].player_id
        records: list[MemberLeftRecord | RoomStatusRecord] = [
            MemberLeftRecord(room.record.room_id, player_id, room.host_id, room.next_version())
        ]
        if not room.members and room.status not in (RUNNING, FINISHED):  # a finished race goes with the sweep
            records.append(self._close(room))

        def rollback() -> None:
            if member is not None:
                room.members[player_id] = member
            state.room_code = room.code
            room.host_id = host_before
            for record in reversed(records):
                room.undo_version(record.version)
            self._add_room(room)

        replies: list[Reply] = [LeftRoomMessage(id=request_id, code=room.code)] if reply else []
        left = Effect(records=list(records), replies=replies, rollback=rollback)
        if room.members:
            gone = MemberLeftMessage(code=room.code, player_id=player_id, host_id=room.host_id)
            publication = Publication(room_topic(room.code), gone, version=records[0].version)
            left = left.merge(Effect(publications=[publication]))
        return effect.merge(left)

    def _connection_changed(self, code: str | None, player_id: str, *, connected: bool) -> Effect:
        """A member's connection went down or came back: a small event to the others, not the whole room."""
        room = self.rooms.get(code) if code else None
        if room is None:
            return Effect()
        message = MemberConnectionMessage(code=room.code, player_id=player_id, connected=connected)
        return Effect(publications=[Publication(room_topic(room.code), message, skip=player_id)])

    def _membership_changed(self, code: str | None, version: RoomVersion) -> Effect:
        """The whole room to everyone in it: only when its status changes (start, begin, finish), once a race."""
        room = self.rooms.get(code) if code else None
        if room is None:
            return Effect()
        message = RoomMessage(room=room.view(self.clock.now(), self.is_connected))
        return Effect(publications=[Publication(room_topic(room.code), message, version=version)])


def _room_code_of(message: Message) -> str | None:
    """The room a room event is about: its `code`, or the code of the room it carries whole (`RoomMessage`)."""
    if isinstance(message, RoomMessage):
        return message.room.code if message.room is not None else None
    code = getattr(message, "code", None)
    return code if isinstance(code, str) else None


def _behind(stored: StoredGame, current: PlayerGame) -> bool:
    """The copy in memory lacks moves (or the result) the store has: another process played them."""
    return len(stored.moves) > len(current.game.actions) or (stored.result is not None and current.running)


def _take_stored_status(room: Room, stored: StoredRoom) -> None:
    """The room's host, status, version and start as the store has them (a started race's end follows from its
    start)."""
    room.status, room.host_id = stored.status, stored.room.host_id
    room.seq, room.tag = stored.seq, stored.tag
    room.starts_at, room.ends_at = stored.started_at, None
    if stored.status in (RUNNING, FINISHED) and stored.started_at is not None:
        room.begin()
        room.status = stored.status
