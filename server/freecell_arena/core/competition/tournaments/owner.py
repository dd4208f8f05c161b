"""The tournaments in the arena: the one owner of what this process knows of each, and the verbs that change them.

What the store says of a tournament (its row, entries, races and results) is read by net and handed here whole
(`adopt_read`): a request (enter, withdraw, pause, berserk) and each step of the director (pair an arena's free
entrants, start a cup's round, store the table) is decided over what this owner holds and returns an `Effect`
whose records the store takes first, carrying the tournament's next value; only then does the owner adopt it, and a
refused write adopts nothing. The owner's copies are versioned values (`core.live.versioned`, ordered by
`state.TournamentVersions`): one change of a tournament in flight at a time, and a read adopted only when it holds
all that the copy holds, so a read taken before a change of ours was stored never undoes it (a change in flight
merges over a read taken meanwhile once it is stored).

Races are ordinary rooms: a pairing opens a room through the lobby's own verbs (`open_room`, `seat`) and starts
its countdown (`begin_countdown`), so races, ratings, the fair-play screen and replays work as for any race. A
pairing or a round start carries the tournament's next wave number (`TournamentWaveRecord`, a compare-and-set):
of two processes pairing at once, exactly one stores its rooms, and the other's change is refused whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from freecell_arena.core.competition.series import DrawSeed, MakeWay, OpenRoom, TakeSeat
from freecell_arena.core.competition.tournaments.cup import heats
from freecell_arena.core.competition.tournaments.pairing import Candidate, pair
from freecell_arena.core.effects import Effect, Publication, Refusal
from freecell_arena.core.events import player_topic, room_topic
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.lobby import begin_countdown
from freecell_arena.core.live.room import RoomPlan
from freecell_arena.core.live.room_messages import Connected, whole_room
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.live.versioned import VersionedOwner
from freecell_arena.core.ports.records import (
    BerserkRecord,
    EntryRecord,
    EntryStatusRecord,
    Record,
    StandingsRecord,
    TournamentRaceRecord,
    TournamentWaveRecord,
)
from freecell_arena.core.records.leaderboard import resolve_ranked
from freecell_arena.core.records.tournaments.rules import (
    ACTIVE,
    ARENA,
    CUP,
    PAUSED,
    WITHDRAWN,
    EntryStatus,
    TournamentRules,
)
from freecell_arena.core.records.tournaments.scoring import Entrant, StoredRace
from freecell_arena.core.records.tournaments.state import TournamentSnapshot, TournamentVersions, table_of
from freecell_arena.engine import variant_by_id
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.rooms import RoomOptions
from freecell_arena.protocol.tournaments import (
    BerserkRequest,
    EnterTournamentRequest,
    PauseTournamentRequest,
    TournamentEntryMessage,
    TournamentRaceMessage,
    WithdrawTournamentRequest,
)
from freecell_arena.protocol.vocabulary import COUNTDOWN, FINISHED, LOBBY
from freecell_arena.protocol.wire import RequestId

ROUND_LEAD = timedelta(seconds=10)
"""A cup's round is seated this long before its instant: every heat counts down to the same instant, then deals."""
MAX_COUNTDOWN_S = 30.0


@dataclass(frozen=True)
class TournamentDeps:
    state: SharedState
    open_room: OpenRoom
    seat: TakeSeat
    make_way: MakeWay
    draw: DrawSeed
    connected: Connected


class Tournaments:
    def __init__(self, deps: TournamentDeps) -> None:
        self.state = deps.state
        self.open_room = deps.open_room
        self.seat = deps.seat
        self.make_way = deps.make_way
        self.draw = deps.draw
        self.connected = deps.connected
        self.known: VersionedOwner[TournamentSnapshot] = VersionedOwner(TournamentVersions())
        """What this process knows of each tournament: the store's reads and its own stored changes."""

    # ------------------------------------------------------------------ what net reads

    def adopt_read(self, snapshot: TournamentSnapshot) -> bool:
        """The store's tournament as net read it (before a request or a director's step): adopted unless the owner's
        copy holds more than the read (a read taken before a change of ours was stored: it would forget an entrant,
        and let them in twice). Whether the owner took it."""
        return self.known.adopt_read(snapshot)

    def forget(self, tournament_id: str) -> None:
        self.known.drop(tournament_id)

    def snapshot(self, tournament_id: str) -> TournamentSnapshot:
        snapshot = self.known.get(tournament_id)
        if snapshot is None:
            raise Refusal(ErrorCode.unknown_tournament, f"there is no tournament {tournament_id!r}")
        return snapshot

    # ------------------------------------------------------------------ requests

    def enter(self, player_id: str, request: EnterTournamentRequest) -> Effect:
        snapshot = self.snapshot(request.tournament_id)
        stored, rules, now = snapshot.stored, snapshot.rules, self.state.clock.now()
        record = stored.record
        self._refuse_if_over(snapshot, now)
        if player_id in snapshot.entries:
            state = "withdrew from" if snapshot.withdrawn(player_id) else "are already in"
            raise Refusal(ErrorCode.already_entered, f"you {state} {record.name}")
        if now >= rules.entry_closes_at(record.starts_at):
            raise Refusal(ErrorCode.entry_closed, f"entry to {record.name} closed at "
                          f"{rules.entry_closes_at(record.starts_at):%H:%M} UTC")  # fmt: skip
        player = self.state.players[player_id].record
        if rules.bots_only and not player.bot:
            raise Refusal(ErrorCode.bots_only, f"{record.name} is for bots only (the bots' ladder)")
        if not rules.bots_only and player.bot:
            raise Refusal(ErrorCode.humans_only, f"{record.name} is for people: bots have their own tournaments")
        if rules.entry == "link" and request.link_code != record.link_code and player_id != record.created_by:
            raise Refusal(ErrorCode.entry_closed, f"{record.name} is private: enter it by its link")
        if stored.entrants >= rules.cap:
            raise Refusal(ErrorCode.tournament_full, f"{record.name} is full ({rules.cap} entrants)")
        entrant = Entrant(player_id, player.display_name, player.bot, now)
        entry = EntryRecord(record.tournament_id, player_id, entrant.name, entrant.bot, now, rules.cap)
        after = replace(snapshot, stored=replace(stored, entrants=stored.entrants + 1),
                        entries={**snapshot.entries, player_id: entrant})  # fmt: skip
        return self._stored(after, [entry], self._entry_reply(request.id, after, player_id))

    def withdraw(self, player_id: str, request: WithdrawTournamentRequest) -> Effect:
        return self._set_status(player_id, request.tournament_id, WITHDRAWN, request.id)

    def pause(self, player_id: str, request: PauseTournamentRequest) -> Effect:
        return self._set_status(player_id, request.tournament_id, PAUSED if request.paused else ACTIVE, request.id)

    def berserk(self, player_id: str, request: BerserkRequest) -> Effect:
        snapshot = self.snapshot(request.tournament_id)
        entrant = self._entrant(snapshot, player_id)
        now = self.state.clock.now()
        self._refuse_if_over(snapshot, now)
        if snapshot.rules.kind != ARENA or not snapshot.rules.berserk:
            raise Refusal(ErrorCode.berserk_refused, f"{snapshot.stored.record.name} offers no berserk")
        room = self.state.room_of_player(player_id)
        race = next((race for race in snapshot.races if room is not None and race.room_id == room.room_id), None)
        if room is None or race is None or entrant.status == WITHDRAWN:
            raise Refusal(ErrorCode.berserk_refused, "berserk is for your tournament race's countdown: you have none")
        if room.status != COUNTDOWN:
            raise Refusal(ErrorCode.berserk_refused, "berserk is chosen before the start: this race has begun")
        if player_id in race.berserkers:
            raise Refusal(ErrorCode.berserk_refused, "you have already berserked this race")
        record = BerserkRecord(snapshot.tournament_id, race.room_id, player_id, now)
        berserked = replace(race, berserkers=race.berserkers | {player_id})
        after = replace(snapshot, races=tuple(berserked if item is race else item for item in snapshot.races))
        return self._stored(after, [record], self._entry_reply(request.id, after, player_id, berserk=True))

    def _set_status(self, player_id: str, tournament_id: str, status: EntryStatus, request_id: RequestId) -> Effect:
        snapshot = self.snapshot(tournament_id)
        entrant = self._entrant(snapshot, player_id)
        now = self.state.clock.now()
        self._refuse_if_over(snapshot, now)
        if entrant.status == WITHDRAWN:
            raise Refusal(ErrorCode.not_entered, f"you withdrew from {snapshot.stored.record.name}")
        record = EntryStatusRecord(tournament_id, player_id, status, now, entrant.version + 1)
        changed = replace(entrant, status=status, status_at=now, version=record.version)
        after = replace(snapshot, entries={**snapshot.entries, player_id: changed})
        return self._stored(after, [record], self._entry_reply(request_id, after, player_id))

    def _entrant(self, snapshot: TournamentSnapshot, player_id: str) -> Entrant:
        entrant = snapshot.entries.get(player_id)
        if entrant is None:
            raise Refusal(ErrorCode.not_entered, f"you have not entered {snapshot.stored.record.name}")
        return entrant

    def _refuse_if_over(self, snapshot: TournamentSnapshot, now: datetime) -> None:
        if snapshot.stored.final or (snapshot.rules.kind == ARENA and now >= snapshot.stored.record.ends_at):
            raise Refusal(ErrorCode.tournament_over, f"{snapshot.stored.record.name} is over")

    def _entry_reply(self, request_id: RequestId, snapshot: TournamentSnapshot, player_id: str, *,
                     berserk: bool = False) -> TournamentEntryMessage:  # fmt: skip
        entrant = snapshot.entries[player_id]
        link = snapshot.stored.record.link_code if player_id == snapshot.stored.record.created_by else None
        return TournamentEntryMessage(id=request_id, tournament_id=snapshot.tournament_id,
                                      status=snapshot.status_of(entrant), berserk=berserk, link_code=link)

    def _stored(self, after: TournamentSnapshot, records: list[Record], reply: TournamentEntryMessage) -> Effect:
        draft = Draft(self.state)
        draft.change(self.known, after)
        return draft.seal(Effect(records=records, replies=[reply]))

    # ------------------------------------------------------------------ the director's steps

    def pair(self, tournament_id: str) -> Effect | None:
        """An arena's free entrants into their next races (None: nobody to pair now)."""
        snapshot = self.known.get(tournament_id)
        now = self.state.clock.now()
        if snapshot is None or snapshot.rules.kind != ARENA or snapshot.stored.phase(now) != "running":
            return None
        if now >= snapshot.stored.record.ends_at:
            return None
        rules = snapshot.rules
        groups = pair(self._candidates(snapshot, now), rules.race_size, rules.gather_s, now)
        if not groups:
            return None
        starts_at = now + timedelta(seconds=min(rules.countdown_s, MAX_COUNTDOWN_S))
        seeds = [rules.seed if rules.seed is not None else self.draw(variant_by_id(rules.variant)) for _ in groups]
        return self._form(snapshot, groups, seeds, starts_at)

    def start_round(self, tournament_id: str, seed_of_round: Callable[[int], int]) -> Effect | None:
        """A cup's next round, seated in heats a little before its instant, dealt at it (None: not yet)."""
        snapshot = self.known.get(tournament_id)
        now = self.state.clock.now()
        if snapshot is None or snapshot.rules.kind != CUP or snapshot.stored.final:
            return None
        rules, record, round_index = snapshot.rules, snapshot.stored.record, snapshot.stored.wave
        if round_index >= rules.rounds:
            return None
        instant = rules.round_at(record.starts_at, round_index)
        if now < instant - ROUND_LEAD or snapshot.busy():
            return None  # not yet, or a heat of the round before is not over as stored: the round waits for it
        seated = [row.player_id for row in table_of(snapshot) if snapshot.entries[row.player_id].status == ACTIVE
                  and row.player_id not in snapshot.seated and not snapshot.sidelined(row.player_id)
                  and self._may_seat(row.player_id)]  # fmt: skip
        groups = [tuple(heat) for heat in heats(seated, rules.heat_size)]
        seed = seed_of_round(round_index)
        return self._form(snapshot, groups, [seed] * len(groups), max(instant, now))

    def settle(self, tournament_id: str, reveal: dict[str, Any] | None = None) -> Effect | None:
        """The table from the stored results, stored when it changed; final (with a cup's `reveal`) once the
        tournament is over. None: nothing changed."""
        snapshot = self.known.get(tournament_id)
        now = self.state.clock.now()
        if snapshot is None or snapshot.stored.final or snapshot.stored.phase(now) == "upcoming":
            return None
        table = tuple(table_of(snapshot))
        final = snapshot.over(now)
        if table == snapshot.stored.standings and not final:
            return None
        stored = snapshot.stored
        record = StandingsRecord(tournament_id, stored.standings_seq + 1, [row.to_json() for row in table], now,
                                 final=final, reveal=reveal if final else None)  # fmt: skip
        after = replace(snapshot, stored=replace(stored, standings_seq=record.seq, standings=table, final=final,
                                                 reveal=record.reveal))  # fmt: skip
        draft = Draft(self.state)
        draft.change(self.known, after)
        return draft.seal(Effect(records=[record]))

    # ------------------------------------------------------------------ forming races

    def _candidates(self, snapshot: TournamentSnapshot, now: datetime) -> list[Candidate]:
        scores = {row.player_id: row.points for row in snapshot.stored.standings}
        busy = snapshot.busy()
        candidates = []
        for entrant in snapshot.entries.values():
            player_id = entrant.player_id
            if (entrant.status != ACTIVE or player_id in busy or player_id in snapshot.seated
                    or snapshot.sidelined(player_id) or snapshot.absent(entrant)
                    or not self._may_seat(player_id)):  # fmt: skip
                continue
            last = snapshot.last_race_of(player_id)
            moments = [entrant.entered_at, entrant.status_at, last.finished_at if last is not None else None]
            opponents = frozenset(last.members) - {player_id} if last is not None else frozenset()
            free_since = max(moment for moment in moments if moment is not None)
            candidates.append(Candidate(player_id, scores.get(player_id, 0), min(free_since, now), opponents))
        return candidates

    def _may_seat(self, player_id: str) -> bool:
        """Known here (net loads every entrant's identity first), not in a race of this process (counting down or
        racing), and not being moved by a change in flight (their own request, say). A player waiting in a lobby
        (a quick race's, a friend's) is paired and leaves it (`make_way`): they entered the tournament, and a
        lobby left them out of it, told nothing (issue 53)."""
        if player_id not in self.state.players or self.state.seats.in_flight(player_id):
            return False
        room = self.state.room_of_player(player_id)
        return room is None or room.status in (FINISHED, LOBBY)

    def _form(self, snapshot: TournamentSnapshot, groups: Sequence[tuple[str, ...]], seeds: Sequence[int],
              starts_at: datetime) -> Effect:  # fmt: skip
        """The races of one wave: the wave's compare-and-set first, then each room opened, seated, counting down; the
        tournament's next value holds the wave and its races (their members seated, not free)."""
        wave, now = snapshot.stored.wave + 1, self.state.clock.now()
        draft = Draft(self.state)
        effect = Effect(records=[TournamentWaveRecord(snapshot.tournament_id, wave)])
        races: list[StoredRace] = []
        for heat, (group, seed) in enumerate(zip(groups, seeds, strict=True)):
            race, opened = self._open_race(draft, snapshot, group, seed, (wave, heat), starts_at, now)
            races.append(race)
            effect = effect.merge(opened)
        seated = snapshot.seated | {player_id for group in groups for player_id in group}
        draft.change(self.known, replace(snapshot, stored=replace(snapshot.stored, wave=wave),
                                         races=(*snapshot.races, *races), seated=seated))  # fmt: skip
        return draft.seal(effect)

    def _open_race(self, draft: Draft, snapshot: TournamentSnapshot, players: tuple[str, ...], seed: int,
                   place: tuple[int, int], starts_at: datetime, now: datetime) -> (
        tuple[StoredRace, Effect]
    ):  # fmt: skip
        """One race of the wave (`place`: the wave and the heat), every race of a wave formed at the same `now`."""
        rules, (wave, heat) = snapshot.rules, place
        variant = variant_by_id(rules.variant)
        options = resolve_ranked(variant, race_options(rules, len(players)))
        plan = RoomPlan(variant, options, seed, seed_chosen=rules.seed is not None,
                        seed_sealed_until=sealed_until(snapshot, starts_at))
        effect = Effect()
        for player_id in players:  # out of the lobby or finished room each waits in, before any room is opened
            effect = effect.merge(self.make_way(draft, player_id))
        room, opened = self.open_room(draft, players[0], plan, None)
        effect = effect.merge(opened)
        for player_id in players[1:]:
            room, seated = self.seat(draft, player_id, room, None)
            effect = effect.merge(seated)
        countdown = begin_countdown(draft, room, starts_at, now)
        room = countdown.room
        notice = TournamentRaceMessage(tournament_id=snapshot.tournament_id, code=room.code, starts_at=starts_at,
                                       round=wave, berserk_allowed=rules.kind == ARENA and rules.berserk)  # fmt: skip
        # first: a connection follows its room once told of it, before the room's own events go out
        told = Effect(publications=[Publication(player_topic(player_id), notice) for player_id in players])
        race = TournamentRaceRecord(snapshot.tournament_id, room.room_id, room.code, wave, heat, now)
        started = Effect(records=[countdown.record, race], publications=[
            Publication(room_topic(room.code), countdown.message, version=countdown.version),
            whole_room(room, now, self.connected, countdown.version)])  # fmt: skip
        formed = StoredRace(room.room_id, room.code, wave, heat, now, False, members=tuple(sorted(players)))
        return formed, told.merge(Effect(records=effect.records, publications=effect.publications)).merge(started)


def race_options(rules: TournamentRules, players: int) -> RoomOptions:
    """A tournament race's room: its size, the tournament's time limit, rated as the tournament is."""
    return RoomOptions(max_players=players, time_limit_s=rules.time_limit_s,
                       countdown_s=min(rules.countdown_s, MAX_COUNTDOWN_S), ranked=rules.rated())  # fmt: skip


def sealed_until(snapshot: TournamentSnapshot, starts_at: datetime) -> datetime | None:
    """A cup heat's seed stays on the server until the cup is over: its last round's time limit (a round late
    behind a slow heat: this heat's own). An arena race's deal is its own: its seed shows as any race's."""
    if snapshot.rules.kind != CUP:
        return None
    return max(snapshot.stored.record.ends_at, starts_at + timedelta(seconds=snapshot.rules.time_limit_s))
