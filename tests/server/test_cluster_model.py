"""A model-based test of a cluster: two processes' cores over one real store (a SQLite file) and one event bus,
driven by Hypothesis through random interleavings of what players and timers do, what the store says and when,
and which events arrive, late, or never.

Each process is what net makes of core, without sockets: an `Arena` (shared), and the real cluster bridge's code
for what crosses processes (`ClusterBridge`: the envelope each event travels in, applying it, re-reading a room on
a gap or after a refusal, settling a race from the store), fed by the machine instead of Redis. What a process
hands the store is in flight until the machine commits it (oldest first, as the group-commit writer does) through
the real `SqlStore`; a re-read is a read and, later, its adoption (other things happen in between, as they do
while a read awaits the database).

Invariants, after every step:
- a refused write leaves no trace: every room, seat and game in memory is as it was just before the refusal;
- a process's copy of a room only moves forward (its version never goes back, and one version is one value);
- in the store, no player sits in two live rooms (lobby, countdown or running) or plays two unfinished games;
and once everything in flight is stored or refused, every event delivered and every room whose events were lost
re-read (the periodic check's job):
- each process's copy of a room equals the store's (status, version, host, members);
- no seat is lost: a player's process seats them in the store's live room they belong to, playing its running game.

`CI` runs a bounded number of examples; `CLUSTER_MODEL_EXAMPLES` raises it for a longer hunt.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import text

from freecell_arena.core.arena import Arena
from freecell_arena.core.competition.quick_race import QuickRaceRules
from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.identity import room_code_of
from freecell_arena.core.live import lobby
from freecell_arena.core.live.rooms import Busy
from freecell_arena.core.ports.records import PlayerRecord, StoredGame, StoredRoom
from freecell_arena.engine import format_move
from freecell_arena.net.cluster import ClusterBridge
from freecell_arena.net.next_rooms import prepare_next_room
from freecell_arena.net.restore import load_room, restore_for, restore_player
from freecell_arena.protocol.play import MoveRequest, ResignRequest
from freecell_arena.protocol.rooms import (
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    QuickRaceRequest,
    RaceAgainRequest,
    RoomOptions,
    StartRaceRequest,
)
from freecell_arena.protocol.session import HelloRequest
from freecell_arena.protocol.wire import Message
from freecell_arena.store import SqlStore
from freecell_arena.store.errors import RecordRefusedError

T = TypeVar("T")
NAMES = ("ada", "bob", "cy")
QUICK = QuickRaceRules(min_players=2, max_players=3, wait_s=1.0)
LIVE = ("lobby", "countdown", "running")


class Clock:
    """One wall clock for both processes, moved by the machine."""

    def __init__(self) -> None:
        self.instant = datetime(2026, 3, 1, 12, tzinfo=UTC)

    def now(self) -> datetime:
        return self.instant


@dataclass
class Read:
    """A re-read of a room: what the store said, not yet adopted."""

    stored: StoredRoom
    games: list[StoredGame]
    players: list[PlayerRecord]


@dataclass
class Process:
    """A server process as net makes it of core, with the bus and the store's answers in the machine's hands."""

    name: str
    arena: Arena
    store: SqlStore
    bridge: ClusterBridge = field(init=False)
    in_flight: list[Effect] = field(default_factory=list)
    waiting: dict[int, str] = field(default_factory=dict)
    """The player each request in flight answers (by the effect's id): a player sends one request at a time."""
    inbox: list[tuple[bytes, bytes]] = field(default_factory=list)
    to_read: list[str] = field(default_factory=list)
    reads: list[Read] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    """Rooms an event of which was lost: the periodic check re-reads them (nothing else would)."""
    versions: dict[str, tuple[int, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.bridge = ClusterBridge(self, "redis://127.0.0.1:1/0")  # never started: the machine is its Redis
        self.bridge.connected.set()

    # what the bridge asks of its host (`ClusterHost`)
    @property
    def rooms(self) -> Any:
        return self.arena.replica

    async def run_timer_effect(self, effect: Effect) -> bool:
        self.in_flight.append(effect)  # a settled race's finish: in flight like any other write
        return True


class Sequence:
    """Ids, codes, tags and tokens drawn in order instead of at random, so that an example replays the same way
    (Hypothesis replays and shrinks it): the store lists rows by id, and an order by random ids would make the
    same steps take other paths. Each example starts again from 1 on a fresh database."""

    def __init__(self) -> None:
        self.last = 0

    def next(self) -> int:
        self.last += 1
        return self.last

    def token_hex(self, nbytes: int | None = None) -> str:
        return f"{self.next():0{2 * (nbytes or 16)}x}"

    def token_urlsafe(self, nbytes: int | None = None) -> str:
        return f"t{self.next():042d}"

    def room_code(self) -> str:
        return room_code_of(self.next())


class ClusterModel(RuleBasedStateMachine):
    loop: asyncio.AbstractEventLoop
    template: Path
    """A database at the head migration: each example starts on a copy (a quick race's pointer is the store's)."""
    folder: Path
    sequence: Sequence

    def __init__(self) -> None:
        super().__init__()
        database = self.folder / "model.db"
        for stale in self.folder.glob("model.db*"):
            stale.unlink()
        shutil.copyfile(self.template, database)
        self.store = SqlStore(f"sqlite+aiosqlite:///{database}")
        self.sequence.last = 0  # the same ids each example: an example replays alike
        self.clock = Clock()
        self.processes = [Process(name, Arena(self.clock, shared=True, quick=QUICK), self.store) for name in "AB"]
        for process in self.processes:
            process.arena.draw_seed = lambda low, high: 1  # every deal the same: the moves drawn replay alike
        self.ids: dict[str, str] = {}
        self.at: dict[str, int] = {}
        """Which process each greeted player is connected to."""

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coroutine)

    # ------------------------------------------------------------------ players

    @initialize(homes=st.lists(st.integers(0, 1), min_size=len(NAMES), max_size=len(NAMES)))
    def greet_everyone(self, homes: list[int]) -> None:
        for name, home in zip(NAMES, homes, strict=True):
            process = self.processes[home]
            player_id, registered = process.arena.register(HelloRequest(name=name))
            self.run(self.store.write(registered.records))
            registered.stored()
            self.ids[name], self.at[name] = player_id, home

    def answered(self, name: str) -> bool:
        """The player's last request has its answer (a client sends the next one after it: one connection a player,
        its requests handled in order)."""
        return name not in (player for here in self.processes for player in here.waiting.values())

    @rule(name=st.sampled_from(NAMES))
    def reconnect_elsewhere(self, name: str) -> None:
        """The player's page reloads on the other process (a load balancer's choice): the old connection closes,
        the new one brings back what the store has of the player and resumes."""
        if not self.answered(name):
            return
        player_id, old = self.ids[name], self.at[name]
        new = 1 - old
        self.processes[old].in_flight.append(self.processes[old].arena.disconnect(player_id))
        arrived = self.processes[new]
        if not arrived.arena.knows(player_id):
            record = self.run(self.store.player(player_id))
            assert record is not None
            self.run(restore_player(arrived.arena.rebuild, self.store, record))
        self.run(arrived.bridge.refresh_player(player_id))
        self.at[name] = new
        arrived.in_flight.append(arrived.arena.resume(player_id, HelloRequest(name=name, token="t")))

    def request(self, name: str, message: Message) -> None:
        """What a connection does with a request: net's preparation, then core; a refusal changes nothing and
        `Busy` (a room it changes has a change in flight) is the client's to send again later."""
        if not self.answered(name):
            return
        player_id = self.ids[name]
        process = self.processes[self.at[name]]
        arena = process.arena
        self.run(restore_for(arena.rebuild, self.store, message))
        self.run(prepare_next_room(arena, arena.rebuild, self.store, arena.room_code_of(player_id), message))
        try:
            effect = arena.handle(player_id, message)
        except (Refusal, Busy):
            return
        process.in_flight.append(effect)
        process.waiting[id(effect)] = name

    @rule(name=st.sampled_from(NAMES), countdown=st.sampled_from([0.0, 1.0, 3.0]), limit=st.sampled_from([None, 5]))
    def create(self, name: str, countdown: float, limit: int | None) -> None:
        options = RoomOptions(countdown_s=countdown, time_limit_s=limit, max_players=3)
        self.request(name, CreateRoomRequest(variant="freecell", deal=1, options=options))

    def lobbies(self) -> list[str]:
        """The lobbies either process holds (what a friend's link names), in the order they came into memory."""
        return list(dict.fromkeys(code for process in self.processes for code, room in process.arena.rooms.items()
                                  if room.status == "lobby"))  # fmt: skip

    @precondition(lambda self: bool(self.lobbies()))
    @rule(name=st.sampled_from(NAMES), data=st.data())
    def join(self, name: str, data: st.DataObject) -> None:
        self.request(name, JoinRoomRequest(code=data.draw(st.sampled_from(self.lobbies()))))

    @rule(name=st.sampled_from(NAMES))
    def leave(self, name: str) -> None:
        self.request(name, LeaveRoomRequest())

    @rule(name=st.sampled_from(NAMES))
    def start(self, name: str) -> None:
        self.request(name, StartRaceRequest())

    @rule(name=st.sampled_from(NAMES))
    def race_again(self, name: str) -> None:
        self.request(name, RaceAgainRequest())

    @rule(name=st.sampled_from(NAMES))
    def quick_race(self, name: str) -> None:
        self.request(name, QuickRaceRequest(variant="freecell"))

    @rule(name=st.sampled_from(NAMES))
    def resign(self, name: str) -> None:
        self.request(name, ResignRequest())

    @rule(name=st.sampled_from(NAMES), pick=st.integers(0, 7), moves=st.integers(1, 4))
    def play(self, name: str, pick: int, moves: int) -> None:
        """A few legal moves of the player's running game, as their process holds it."""
        process = self.processes[self.at[name]]
        for _ in range(moves):
            game = process.arena.state.current_game(self.ids[name])
            if game is None or not game.running:
                return
            legal = list(game.game.board.legal_moves)
            if not legal:
                return
            self.request(name, MoveRequest(move=format_move(game.variant, legal[pick % len(legal)])))

    # ------------------------------------------------------------------ time

    @rule(first=st.integers(0, 1), seconds=st.sampled_from([0.5, 1.0, 2.5, 6.0]))
    def tick(self, first: int, seconds: float) -> None:
        """Time passes, and both processes tick (`first` first): countdowns end, races out of time or done are
        settled from the store (shared), picked-up lobbies ask who is still there. Both processes may so begin or
        finish the same race at once (the keeper, and the other after its grace)."""
        self.clock.instant += timedelta(seconds=seconds)
        for here in (self.processes[first], self.processes[1 - first]):
            here.in_flight.extend(here.arena.tick())
            for code in here.arena.replica.take_due():
                self.run(here.bridge._settle(code))
            here.bridge.call_rolls()
            self.carry(here)

    # ------------------------------------------------------------------ the store

    def writing(self) -> bool:
        return any(here.in_flight for here in self.processes)

    @precondition(writing)
    @rule(process=st.integers(0, 1))
    def commit(self, process: int) -> None:
        """The oldest write of the process gets the store's answer."""
        here = self.processes[process]
        if not here.in_flight:
            here = self.processes[1 - process]
        self.commit_one(here)

    def commit_one(self, here: Process) -> None:
        effect = here.in_flight.pop(0)
        here.waiting.pop(id(effect), None)
        try:
            self.run(self.store.write(effect.records))
        except RecordRefusedError:
            before = self.snapshot(here)
            effect.refused()
            assert self.snapshot(here) == before, "a refused write must leave no trace in memory"
            touched = here.arena.replica.rooms_touched_by(effect.records)
            here.to_read.extend(code for code in here.arena.rooms if code in touched)
            return
        effect.stored()
        for publication in effect.publications:
            here.bridge.publisher.publish(publication.topic, publication.message, publication.skip,
                                          publication.version)  # fmt: skip
        self.carry(here)

    def carry(self, here: Process) -> None:
        """What the process queued for Redis reaches the other one's inbox."""
        other = self.processes[1 - self.processes.index(here)]
        while here.bridge.publisher.outgoing:
            channel, payload = here.bridge.publisher.outgoing.popleft()
            other.inbox.append((channel.encode(), payload.encode()))

    def snapshot(self, here: Process) -> tuple[dict[str, int], dict[str, Any], frozenset[str]]:
        state = here.arena.state
        rooms = {room_id: id(room) for room_id, room in state.rooms_by_id.items()}
        return rooms, {player_id: player.seat for player_id, player in state.players.items()}, frozenset(state.games)

    # ------------------------------------------------------------------ the bus

    def carrying(self) -> bool:
        return any(here.inbox for here in self.processes)

    def inbox_of(self, process: int) -> Process:
        here = self.processes[process]
        return here if here.inbox else self.processes[1 - process]

    @precondition(carrying)
    @rule(process=st.integers(0, 1), pick=st.integers(0, 3))
    def deliver(self, process: int, pick: int) -> None:
        """An event reaches the process (not always the oldest: a late one)."""
        here = self.inbox_of(process)
        channel, data = here.inbox.pop(pick % len(here.inbox))
        self.run(here.bridge._on_message(channel, data))
        self.carry(here)  # a roll call's answers

    @precondition(carrying)
    @rule(process=st.integers(0, 1), pick=st.integers(0, 3))
    def lose(self, process: int, pick: int) -> None:
        """Redis drops an event (pub/sub is at most once)."""
        here = self.inbox_of(process)
        channel, _ = here.inbox.pop(pick % len(here.inbox))
        topic = channel.decode().partition(":")[2]
        code = topic.partition(":")[2]
        if topic.startswith("room:") and code not in here.missed:
            here.missed.append(code)

    # ------------------------------------------------------------------ re-reads

    @rule(process=st.integers(0, 1), data=st.data())
    def read(self, process: int, data: st.DataObject) -> None:
        """A re-read's query: after a refusal, or any room of the process (the periodic check, a gap)."""
        here = self.processes[process]
        codes = here.to_read or list(here.arena.rooms)
        if not codes:
            return
        code = data.draw(st.sampled_from(codes))
        if code in here.to_read:
            here.to_read.remove(code)
        stored = self.run(self.store.room_by_code(code))
        if stored is not None:
            games, players = self.run(load_room(self.store, stored))
            here.reads.append(Read(stored, games, players))

    def reading(self) -> bool:
        return any(here.reads for here in self.processes)

    @precondition(reading)
    @rule(process=st.integers(0, 1))
    def adopt_read(self, process: int) -> None:
        """The re-read's answer arrives: memory takes it (unless it is older than memory)."""
        here = self.processes[process]
        if not here.reads:
            here = self.processes[1 - process]
        read = here.reads.pop(0)
        here.arena.replica.resync(read.stored, read.games, read.players)

    # ------------------------------------------------------------------ invariants

    @invariant()
    def copies_only_move_forward(self) -> None:
        for here in self.processes:
            for room_id, room in here.arena.state.rooms_by_id.items():
                seen = here.versions.get(room_id)
                if seen is not None:
                    assert room.seq >= seen[0], f"{here.name}: room {room.code} went back from {seen} to {room.seq}"
                    assert room.seq != seen[0] or room.tag == seen[1], f"{here.name}: two rooms at version {seen}"
                here.versions[room_id] = (room.seq, room.tag)

    @invariant()
    def nobody_sits_twice_in_the_store(self) -> None:
        if not hasattr(self, "ids"):
            return
        rows = self.run(self.query(
            "SELECT m.player_id, count(*) FROM room_members m JOIN rooms r ON r.id = m.room_id "
            "WHERE r.status IN ('lobby', 'countdown', 'running') GROUP BY m.player_id HAVING count(*) > 1"))
        assert not [row for row in rows if row[0] in self.ids.values()], rows
        rows = self.run(self.query(
            "SELECT player_id, count(*) FROM games WHERE outcome IS NULL GROUP BY player_id HAVING count(*) > 1"))
        assert not [row for row in rows if row[0] in self.ids.values()], rows

    async def query(self, sql: str, **parameters: object) -> list[Any]:
        async with self.store.engine.connect() as connection:
            return list((await connection.execute(text(sql), parameters)).all())

    def teardown(self) -> None:
        try:
            if hasattr(self, "ids") and len(self.ids) == len(NAMES):
                self.settle()
                self.copies_equal_the_store()
                self.no_seat_is_lost()
        finally:
            self.run(self.store.close())

    def settle(self) -> None:
        """Everything in flight stored or refused, every event delivered, every re-read done, and the rooms whose
        events were lost re-read (the periodic check); no time passes."""
        for _ in range(50):
            busy = False
            for here in self.processes:
                while here.in_flight:
                    self.commit_one(here)
                    busy = True
                while here.inbox:
                    self.run(here.bridge._on_message(*here.inbox.pop(0)))
                    self.carry(here)
                    busy = True
                for code in [*here.to_read, *here.missed]:
                    self.run(here.bridge.resync(code))
                    busy = True
                here.to_read.clear()
                here.missed.clear()
                for read in here.reads:
                    here.arena.replica.resync(read.stored, read.games, read.players)
                here.reads.clear()
            if not busy:
                busy = any(self.check(here) for here in self.processes)
            if not busy:
                return
        raise AssertionError("the cluster did not settle")

    def check(self, here: Process) -> bool:
        """The periodic check (`ClusterBridge.check_rooms`): a live copy behind the store's version is re-read
        (a lobby everyone left elsewhere closes without an event, an event may be lost); whether it re-read any."""
        live = {copy.room_id: copy for copy in here.arena.replica.live_copies()}
        behind = [copy.code for room_id, (seq, tag) in self.run(self.store.room_versions(list(live))).items()
                  if (copy := live[room_id]).seq < seq or (copy.seq == seq and copy.tag != tag)]  # fmt: skip
        for code in behind:
            self.run(here.bridge.resync(code))
        return bool(behind)

    def copies_equal_the_store(self) -> None:
        for here in self.processes:
            for room in list(here.arena.state.rooms_by_id.values()):
                stored = self.run(self.store.room(room.room_id))
                assert stored is not None, f"{here.name} holds room {room.code}, which the store does not have"
                if room.status == "finished":  # a finished race's members may leave it with no event: its end is
                    assert stored.status == "finished", f"{here.name} has {room.code} finished, the store does not"
                    continue
                members = {member.player_id for member in stored.members}
                mine = (room.status, room.seq, room.tag, room.host_id, set(room.members))
                theirs = (stored.status, stored.seq, stored.tag, stored.room.host_id, members)
                assert mine == theirs, f"{here.name}'s copy of {room.code} is {mine}, the store's {theirs}"

    def no_seat_is_lost(self) -> None:
        for name, player_id in self.ids.items():
            here = self.processes[self.at[name]]
            seat = here.arena.state.seats.of(player_id)
            live = self.run(self.query(
                "SELECT r.code FROM room_members m JOIN rooms r ON r.id = m.room_id "
                "WHERE m.player_id = :player AND r.status IN ('lobby', 'countdown', 'running')", player=player_id))
            if live:
                assert seat.room_code == live[0][0], f"{name} sits in {live[0][0]}, {here.name} says {seat}"
            running = self.run(self.query(
                "SELECT id FROM games WHERE player_id = :player AND outcome IS NULL", player=player_id))
            if running:
                assert seat.game_id == running[0][0], f"{name} plays {running[0][0]}, {here.name} says {seat}"


EXAMPLES = int(os.environ.get("CLUSTER_MODEL_EXAMPLES", "40"))


def test_two_processes_over_one_store_agree_whatever_the_interleaving(
    _sqlite_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sequence = Sequence()
    monkeypatch.setattr(secrets, "token_hex", sequence.token_hex)
    monkeypatch.setattr(secrets, "token_urlsafe", sequence.token_urlsafe)
    monkeypatch.setattr(lobby, "new_room_code", sequence.room_code)
    loop = asyncio.new_event_loop()
    ClusterModel.loop, ClusterModel.template, ClusterModel.folder = loop, _sqlite_template, tmp_path
    ClusterModel.sequence = sequence
    try:
        run_state_machine_as_test(
            ClusterModel,
            settings=settings(max_examples=EXAMPLES, stateful_step_count=50, deadline=None, database=None,
                              suppress_health_check=list(HealthCheck)),
        )  # fmt: skip
    finally:
        loop.close()
