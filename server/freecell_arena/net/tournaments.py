"""Tournaments in net: the director that tends every live tournament, and the tournament requests and queries.

The director runs in every process, every `tournament_interval_s`: it creates the operator's scheduled
tournaments ahead (each occurrence once: its key is unique in the store), and for each tournament that runs it
reads the tournament whole from the store (entries, races, results) and has core decide, in turn:

1. pair an arena's free entrants (`Tournaments.pair`), or seat a cup's next round in heats (`start_round`);
2. store the table when the stored results changed it, final once the tournament is over (`settle`).

Each step's effect carries the tournament's next wave or table number as a compare-and-set, so when several
processes tend the same tournament exactly one stores each pairing, round start and table; the others' writes
are refused whole and they read the tournament again at their next turn. A race whose keeper died (a process
killed mid-race) is picked up from the store here and finished by this process's race clock: nobody's points
are lost, and the dead process's entrants are paired again by whichever process runs next.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from freecell_arena.core.clock import Clock
from freecell_arena.core.competition.tournaments.cup import cup_deals
from freecell_arena.core.competition.tournaments.owner import ROUND_LEAD
from freecell_arena.core.competition.tournaments.schedule import parse_schedule, planned, tournament_record
from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.records.tournaments.rules import ACTIVE, ARENA, CUP, PAUSED, TournamentRules
from freecell_arena.core.records.tournaments.scoring import StandingRow
from freecell_arena.core.records.tournaments.state import StoredTournament, TournamentSnapshot, table_of
from freecell_arena.core.seams import Busy, StoredCopies, TournamentOwner
from freecell_arena.core.server_store import ServerStore
from freecell_arena.core.variant_request import known_variant
from freecell_arena.net.background import cancel_quietly, every
from freecell_arena.net.restore import adopt_room
from freecell_arena.net.throttled_log import ThrottledLog
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.tournaments import (
    BerserkRequest,
    CreateTournamentRequest,
    EnterTournamentRequest,
    PauseTournamentRequest,
    TournamentListMessage,
    TournamentMessage,
    TournamentRequest,
    TournamentSettings,
    TournamentsRequest,
    TournamentStanding,
    TournamentSummary,
    WithdrawTournamentRequest,
)
from freecell_arena.protocol.vocabulary import CLOSED
from freecell_arena.protocol.wire import Message
from freecell_arena.settings import Settings

log = logging.getLogger(__name__)

TOURNAMENT_REQUESTS = (EnterTournamentRequest, WithdrawTournamentRequest, PauseTournamentRequest, BerserkRequest)
"""Requests core decides over the tournament as stored: it is read before each reaches core."""
TOURNAMENT_QUERIES = (TournamentsRequest, TournamentRequest, CreateTournamentRequest)
"""Answered here (creating a private tournament is one insert: no room, no seat, nothing of core's changes)."""
SCHEDULE_EVERY = timedelta(minutes=1)
TABLE_ROWS = 50
AROUND = 3
OVERDUE_GRACE = timedelta(seconds=5)
PRIVATE_PER_DAY = 5
"""A saved player creates at most this many private tournaments a day."""


class TournamentService:
    def __init__(self, settings: Settings, store: ServerStore, owner: TournamentOwner, copies: StoredCopies,
                 clock: Clock, secret: Callable[[], Awaitable[bytes]],
                 run_timer_effect: Callable[[Effect], Awaitable[bool]]) -> None:  # fmt: skip
        self.settings = settings
        self.store = store
        self.owner = owner
        self.copies = copies
        self.clock = clock
        self.secret = secret
        self.run_timer_effect = run_timer_effect
        """Store a change of the director's (no requester), then send it: net/app.py's."""
        self.schedule = parse_schedule(settings.tournaments.schedule)
        self._scheduled_at: datetime | None = None
        self._task: asyncio.Task[None] | None = None
        self.failures = ThrottledLog(log)
        self.steps_stored = 0
        """Pairings, round starts and tables this process stored (what a test of several processes counts)."""

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        if self.settings.tournaments.interval_s > 0:
            self._task = asyncio.create_task(every(self.settings.tournaments.interval_s, self.run_once, self.failures,
                                                   "tending tournaments", at_once=True), name="tournament-director")

    async def close(self) -> None:
        await cancel_quietly(self._task)

    async def run_once(self) -> None:
        now = self.clock.now()
        if self.schedule and (self._scheduled_at is None or now - self._scheduled_at >= SCHEDULE_EVERY):
            await self.create_scheduled(now)
            self._scheduled_at = now
        for stored in await self.store.tournaments.live(now, now + ROUND_LEAD + timedelta(seconds=2)):
            await self.tend(stored.tournament_id)

    # ------------------------------------------------------------------ the schedule

    async def create_scheduled(self, now: datetime) -> int:
        """Every occurrence of the operator's schedule within the horizon, stored once (a second insert of the same
        occurrence, by this process or another, is refused by its unique key)."""
        created = 0
        secret = await self.secret()
        for entry, starts_at, key in planned(self.schedule, now):
            record = tournament_record(entry.name, entry.rules(), starts_at, now, secret, schedule_key=key)
            try:
                await self.store.write([record])
                created += 1
            except Exception:
                continue
        return created

    # ------------------------------------------------------------------ tending one tournament

    async def tend(self, tournament_id: str) -> None:
        snapshot = await self.load(tournament_id)
        if snapshot is None:
            return
        await self._pick_up_races(snapshot)
        rules = snapshot.rules
        reveal: dict[str, Any] | None = None
        if rules.kind == ARENA:
            await self._step(lambda: self.owner.pair(tournament_id))
        else:
            deals = cup_deals(await self.secret(), tournament_id, rules.variant, rules.rounds, rules.seed)
            await self._step(lambda: self.owner.start_round(tournament_id, lambda index: deals.seeds[index]))
            reveal = {"deals": list(deals.seeds), "nonce": deals.nonce}
        await self._step(lambda: self.owner.settle(tournament_id, reveal))

    async def load(self, tournament_id: str) -> TournamentSnapshot | None:
        """The tournament as stored, told to core, with every entrant's identity known here (a pairing seats
        players connected to other processes too). Core takes the read unless it holds more already (a change of
        its own stored since the read began, or in flight): the versions decide (`core.live.versioned`)."""
        snapshot = await self.store.tournaments.snapshot(tournament_id)
        if snapshot is None:
            self.owner.forget(tournament_id)
            return None
        missing = [player_id for player_id in snapshot.entries if not self.copies.knows(player_id)]
        for record in await self.store.tournaments.players(missing):
            self.copies.adopt_player(record)
        self.owner.adopt_read(snapshot)
        return snapshot

    async def _step(self, decide: Callable[[], Effect | None]) -> bool:
        try:
            effect = decide()
            if effect is None:
                return False
            effect.claim()
        except Busy:
            return False  # a change of the tournament (or a room) is in flight here: next turn
        stored = await self.run_timer_effect(effect)
        self.steps_stored += stored
        return stored

    async def _pick_up_races(self, snapshot: TournamentSnapshot) -> None:
        """Races of the tournament this process does not hold, picked up from the store: those still live past
        their time limit (their keeper died: this process's race clock finishes them from the store), and those a
        player connected here was seated in by another process (its `tournament_race` on their channel may have
        been lost, Redis delivering at most once: they sit in it from now on, as that event would have had it)."""
        limit = timedelta(seconds=snapshot.rules.time_limit_s) + OVERDUE_GRACE
        overdue = await self.store.tournaments.overdue_rooms(snapshot.tournament_id, self.clock.now() - limit)
        playing_here = [race.code for race in snapshot.races
                        if not race.finished and any(map(self.copies.is_connected, race.members))]  # fmt: skip
        for code in dict.fromkeys([*overdue, *playing_here]):
            if not self.copies.holds_room(code):
                stored = await self.store.room_by_code(code)
                if stored is not None and stored.status != CLOSED:
                    await adopt_room(self.copies, self.store, stored)

    # ------------------------------------------------------------------ requests and queries

    async def prepare(self, request: Message) -> None:
        """Before a tournament request reaches core: the tournament as stored now."""
        if isinstance(request, TOURNAMENT_REQUESTS):
            await self.load(request.tournament_id)

    async def answer(self, request: Message, requester: str | None) -> Message:
        if isinstance(request, TournamentsRequest):
            return await self.listing(request)
        if isinstance(request, TournamentRequest):
            return await self.tournament(request, requester)
        assert isinstance(request, CreateTournamentRequest)
        return await self.create(request, requester)

    async def listing(self, request: TournamentsRequest) -> TournamentListMessage:
        now = self.clock.now()
        if request.player_id is not None:
            mine = await self.store.tournaments.entered(request.player_id)
            by_phase: dict[str, list[TournamentSummary]] = {"upcoming": [], "running": [], "finished": []}
            for stored in mine:
                by_phase[stored.phase(now)].append(summary(stored, now))
            return TournamentListMessage(id=request.id, **by_phase)
        upcoming, running, finished = await self.store.tournaments.listing(now, request.bots)
        return TournamentListMessage(id=request.id, upcoming=[summary(item, now) for item in upcoming],
                                     running=[summary(item, now) for item in running],
                                     finished=[summary(item, now) for item in finished])  # fmt: skip

    async def tournament(self, request: TournamentRequest, requester: str | None) -> TournamentMessage:
        snapshot = await self.store.tournaments.snapshot(request.tournament_id)
        if snapshot is None:
            raise Refusal(ErrorCode.unknown_tournament, f"there is no tournament {request.tournament_id!r}")
        now = self.clock.now()
        stored = snapshot.stored
        table = list(stored.standings) if stored.final else table_of(snapshot)
        around = request.around or requester
        shown = table[:TABLE_ROWS]
        mine = next((row for row in table if row.player_id == around), None)
        if mine is not None and mine.rank > TABLE_ROWS:
            shown += table[max(TABLE_ROWS, mine.rank - 1 - AROUND):mine.rank + AROUND]
        me = next((row for row in table if row.player_id == requester), None)
        race = snapshot.running_race_of(requester) if requester is not None else None
        reveal = stored.reveal or {}
        record = stored.record
        return TournamentMessage(
            id=request.id, tournament=summary(stored, now), rules=settings_of(snapshot.rules),
            standings=[standing(row, snapshot) for row in shown],
            me=standing(me, snapshot) if me is not None else None,
            entered=requester in snapshot.entries, current_race=race.code if race is not None else None,
            commitment=record.commitment, deals=reveal.get("deals"), nonce=reveal.get("nonce"),
            link_code=record.link_code if requester is not None and requester == record.created_by else None,
            round=stored.wave if snapshot.rules.kind == CUP else None,
        )  # fmt: skip

    async def create(self, request: CreateTournamentRequest, requester: str | None) -> TournamentMessage:
        """A saved player's private tournament: entered by its link, limited a day, never rated on a chosen deal."""
        if requester is None or await self.store.accounts.account(requester) is None:
            raise Refusal(ErrorCode.not_saved, "save your player (a passkey) to create tournaments")
        now = self.clock.now()
        if await self.store.tournaments.created_since(requester, now - timedelta(days=1)) >= PRIVATE_PER_DAY:
            raise Refusal(ErrorCode.rate_limited, f"you may create {PRIVATE_PER_DAY} tournaments a day")
        variant = known_variant(request.variant)
        if request.seed is not None and not variant.seed_range[0] <= request.seed <= variant.seed_range[1]:
            raise Refusal(ErrorCode.bad_seed, f"{variant.name} seeds run from {variant.seed_range[0]} to "
                          f"{variant.seed_range[1]}")  # fmt: skip
        if request.kind == CUP and request.round_interval_s < request.time_limit_s + 30:
            raise Refusal(ErrorCode.invalid_message, "a cup's rounds must be at least the time limit and 30 s apart")
        rules = TournamentRules(
            kind=request.kind, variant=variant.id, time_limit_s=request.time_limit_s,
            ranked=request.ranked and request.seed is None, entry="link", cap=request.cap,
            duration_s=request.duration_min * 60, race_size=request.race_size, berserk=request.berserk,
            late_entry_s=request.duration_min * 30, rounds=request.rounds, round_interval_s=request.round_interval_s,
            seed=request.seed,
        )  # fmt: skip
        starts_at = now + timedelta(seconds=request.starts_in_s)
        record = tournament_record(request.name, rules, starts_at, now, await self.secret(), created_by=requester,
                                   link_code=secrets.token_urlsafe(9))  # fmt: skip
        await self.store.write([record])
        return await self.tournament(TournamentRequest(id=request.id, tournament_id=record.tournament_id), requester)


def summary(stored: StoredTournament, now: datetime) -> TournamentSummary:
    record, rules = stored.record, stored.rules
    return TournamentSummary(
        tournament_id=record.tournament_id, name=record.name, kind=rules.kind, variant=record.variant,
        phase=stored.phase(now), entry=rules.entry, starts_at=record.starts_at, ends_at=record.ends_at,
        entrants=stored.entrants, cap=rules.cap, ranked=rules.rated(), private=record.link_code is not None,
    )  # fmt: skip


def settings_of(rules: TournamentRules) -> TournamentSettings:
    return TournamentSettings(
        time_limit_s=rules.time_limit_s, race_size=rules.race_size, berserk=rules.berserk,
        duration_s=rules.duration_s, late_entry_s=rules.late_entry_s, rounds=rules.rounds,
        round_interval_s=rules.round_interval_s, heat_size=rules.heat_size, chosen_deal=rules.seed is not None,
    )  # fmt: skip


def standing(row: StandingRow, snapshot: TournamentSnapshot) -> TournamentStanding:
    """A row of the table, a paused one saying why: an entrant still active by their own word was paused for
    making no move in their last race (`TournamentSnapshot.absent`)."""
    data: dict[str, Any] = row.to_json()
    if row.status == PAUSED:
        entrant = snapshot.entries.get(row.player_id)
        data["paused_why"] = "no_move" if entrant is not None and entrant.status == ACTIVE else "chosen"
    return TournamentStanding(**data)
