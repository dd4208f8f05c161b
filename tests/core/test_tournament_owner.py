"""The tournament owner's copy of a tournament against reads from the store: the versions decide. A read that does not
hold what the copy holds (taken before an entry of ours was stored, or before a wave formed here) is not adopted,
so an entrant is never forgotten (and let in twice) nor counted over a stale count, and a wave's players are never
paired twice; a read that holds it all is, even while a change of ours is in flight, which then merges over it."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from core_support import ManualClock, known_player
from parts import wire

from freecell_arena.core.competition.tournaments.audit import check_tournament
from freecell_arena.core.competition.tournaments.owner import TournamentDeps, Tournaments
from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.live.players import Players
from freecell_arena.core.live.rooms import Busy
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import EntryRecord, EntryStatusRecord, MemberRecord, PlayerRecord
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.core.records.tournaments.scoring import Entrant
from freecell_arena.core.records.tournaments.state import StoredTournament, TournamentSnapshot
from freecell_arena.protocol.rooms import CreateRoomRequest, JoinRoomRequest, StartRaceRequest
from freecell_arena.protocol.tournaments import EnterTournamentRequest, PauseTournamentRequest

RULES = TournamentRules(kind="arena", variant="freecell", time_limit_s=300, ranked=True, race_size=2, cap=8,
                        duration_s=1800, late_entry_s=600)  # fmt: skip


def unused(*_: object) -> object:
    raise AssertionError("entering opens no room")


def owner_with_players(state: SharedState, clock: ManualClock, *names: str) -> tuple[Tournaments, TournamentSnapshot]:
    players = Players(state)
    for name in names:
        players.adopt(PlayerRecord(name, name, f"hash-{name}", False, clock.now()))
    owner = Tournaments(TournamentDeps(state, unused, unused, unused, unused, unused))  # type: ignore[arg-type]
    record = tournament_record("Evening", RULES, clock.now() + timedelta(minutes=5), clock.now(), b"secret")
    return owner, TournamentSnapshot(StoredTournament(record))


def entered(owner: Tournaments, snapshot: TournamentSnapshot, player_id: str) -> tuple[Effect, EntryRecord]:
    effect = owner.enter(player_id, EnterTournamentRequest(type="enter_tournament", id=1,
                                                          tournament_id=snapshot.tournament_id))  # fmt: skip
    effect.claim()
    entry = effect.records[0]
    assert isinstance(entry, EntryRecord)
    return effect, entry


def stored(effect: Effect) -> None:
    assert effect.changes is not None
    effect.changes.stored()


def with_entrants(snapshot: TournamentSnapshot, *entrants: Entrant) -> TournamentSnapshot:
    """The store's read of the tournament with these entries."""
    entries = {entrant.player_id: entrant for entrant in entrants}
    return replace(snapshot, stored=replace(snapshot.stored, entrants=len(entries)), entries=entries)


def test_a_read_taken_before_an_entry_was_adopted_does_not_undo_that_entry(clock: ManualClock) -> None:
    state = SharedState(clock)
    owner, empty = owner_with_players(state, clock, "ada", "bob", "cy")
    tournament_id = empty.tournament_id
    assert owner.adopt_read(empty)
    effect, entry = entered(owner, empty, "ada")
    assert entry.cap == RULES.cap
    stored(effect)
    assert not owner.adopt_read(empty)  # a read taken before ada's entry was stored: older than the copy, not adopted
    known = owner.snapshot(tournament_id)
    assert known.stored.entrants == 1 and "ada" in known.entries  # not the read's: ada would be let in twice
    with pytest.raises(Refusal) as twice:
        owner.enter("ada", EnterTournamentRequest(type="enter_tournament", id=2, tournament_id=tournament_id))
    assert twice.value.code == "already_entered"

    effect, _ = entered(owner, empty, "bob")
    stored(effect)
    ada, bob = (owner.snapshot(tournament_id).entries[name] for name in ("ada", "bob"))
    cy = Entrant("cy", "cy", False, clock.now())  # entered on another process meanwhile
    with_all = with_entrants(empty, ada, bob, cy)
    assert owner.adopt_read(with_all)  # it holds all the copy holds, and more: the store's word is taken
    assert owner.snapshot(tournament_id).entries.keys() == {"ada", "bob", "cy"}
    assert owner.snapshot(tournament_id).stored.entrants == 3
    assert not owner.adopt_read(with_entrants(empty, ada, bob))  # a read from before cy's entry: older, not adopted
    assert owner.snapshot(tournament_id).entries.keys() == {"ada", "bob", "cy"}


def test_a_read_taken_while_an_entry_is_in_flight_is_taken_and_the_entry_counted_over_it(clock: ManualClock) -> None:
    """Entries of one process in a row keep one change of the tournament in flight nearly all the time: reads taken
    meanwhile still bring what other processes stored (here cy's), and the entry, once stored, is counted once."""
    state = SharedState(clock)
    owner, empty = owner_with_players(state, clock, "ada", "bob", "cy")
    tournament_id = empty.tournament_id
    assert owner.adopt_read(empty)
    effect, _ = entered(owner, empty, "ada")
    cy = Entrant("cy", "cy", False, clock.now())
    before_ada = with_entrants(empty, cy)  # the store had cy's entry, not yet ada's
    assert owner.adopt_read(before_ada)
    stored(effect)
    known = owner.snapshot(tournament_id)
    assert known.entries.keys() == {"ada", "cy"} and known.stored.entrants == 2
    effect, _ = entered(owner, known, "bob")
    after_bob = with_entrants(empty, cy, known.entries["ada"], Entrant("bob", "bob", False, clock.now()))
    assert owner.adopt_read(after_bob)  # taken after bob's entry was stored: it counts it already
    stored(effect)
    assert owner.snapshot(tournament_id).stored.entrants == 3


def test_a_read_from_before_a_change_of_an_entrys_status_does_not_undo_it(clock: ManualClock) -> None:
    state = SharedState(clock)
    owner, empty = owner_with_players(state, clock, "ada")
    tournament_id = empty.tournament_id
    owner.adopt_read(empty)
    effect, _ = entered(owner, empty, "ada")
    stored(effect)
    before_pause = owner.snapshot(tournament_id)
    effect = owner.pause("ada", PauseTournamentRequest(type="pause_tournament", id=3, tournament_id=tournament_id,
                                                       paused=True))  # fmt: skip
    effect.claim()
    status = effect.records[0]
    assert isinstance(status, EntryStatusRecord) and status.version == 2  # written over the entry's version 1
    stored(effect)
    assert not owner.adopt_read(before_pause)  # the entry at version 1: older than the copy's
    assert owner.snapshot(tournament_id).entries["ada"].status == "paused"


def test_a_refused_change_leaves_the_copy_as_it_was_and_a_later_read_is_taken(clock: ManualClock) -> None:
    state = SharedState(clock)
    owner, empty = owner_with_players(state, clock, "ada")
    assert owner.adopt_read(empty)
    effect, _ = entered(owner, empty, "ada")
    assert effect.changes is not None
    effect.changes.refused()  # another process filled the tournament first, say
    assert owner.snapshot(empty.tournament_id) is empty
    full = replace(empty, stored=replace(empty.stored, entrants=RULES.cap))
    assert owner.adopt_read(full)
    with pytest.raises(Refusal) as refused:
        owner.enter("ada", EnterTournamentRequest(type="enter_tournament", id=4, tournament_id=empty.tournament_id))
    assert refused.value.code == "tournament_full"


def test_a_wave_formed_here_is_in_the_copy_and_a_read_from_before_it_is_not_adopted(clock: ManualClock) -> None:
    state = SharedState(clock)
    parts = wire(state).raw
    lobby, players = parts.lobby, parts.players
    owner = Tournaments(TournamentDeps(state, lobby.open_room, lobby.seat, lobby.make_way, lobby.drawn_seed,
                                      players.is_connected))
    for name in ("ada", "bob"):
        known_player(state, name)
    record = tournament_record("Now", RULES, clock.now(), clock.now(), b"secret")
    entrants = [Entrant(name, name, False, clock.now()) for name in ("ada", "bob")]
    before_wave = with_entrants(TournamentSnapshot(StoredTournament(record)), *entrants)
    assert owner.adopt_read(before_wave)
    clock.advance(5)
    effect = owner.pair(record.tournament_id)
    assert effect is not None
    effect.claim()
    stored(effect)
    copy = owner.snapshot(record.tournament_id)
    assert copy.stored.wave == 1 and [race.members for race in copy.races] == [("ada", "bob")]
    assert owner.pair(record.tournament_id) is None  # both race now: nobody to pair
    assert not owner.adopt_read(before_wave)  # taken before the wave: it would free them to be paired again
    assert owner.snapshot(record.tournament_id) is copy
    after_wave = replace(copy, seated=frozenset())
    assert owner.adopt_read(after_wave) and owner.snapshot(record.tournament_id).seated == frozenset()


def test_a_player_moving_between_rooms_is_not_paired_and_a_pairing_holds_the_seats_it_moves(clock: ManualClock) -> (
    None
):
    """A player's own request that moves them (opening a room, say) and a pairing that seats them, each built over
    the seat memory holds, would seat them twice: one move of a player's seat is in flight at a time."""
    state = SharedState(clock)
    parts = wire(state).raw
    owner = owner_over(state, parts)
    names = ("ada", "bob", "cy")
    for name in names:
        known_player(state, name)
    record = tournament_record("Now", RULES, clock.now(), clock.now(), b"secret")
    owner.adopt_read(with_entrants(TournamentSnapshot(StoredTournament(record)),
                            *(Entrant(name, name, False, clock.now()) for name in names)))  # fmt: skip
    clock.advance(5)
    opening = parts.lobby.create_room("ada", CreateRoomRequest(variant="freecell"))
    opening.claim()  # ada's own request, in flight
    pairing = owner.pair(record.tournament_id)
    assert pairing is not None
    pairing.claim()
    assert [race.members for race in owner.snapshot(record.tournament_id).races] == []  # not adopted yet
    seated = {record.player_id for record in pairing.records if isinstance(record, MemberRecord)}
    assert seated == {"bob", "cy"}  # ada is being moved: left out of this wave
    with pytest.raises(Busy):
        parts.lobby.create_room("bob", CreateRoomRequest(variant="freecell")).claim()  # bob's seat: the pairing's
    stored(opening)
    stored(pairing)
    assert state.seats.of("ada").room_code != state.seats.of("bob").room_code == state.seats.of("cy").room_code


def owner_over(state: SharedState, parts: Any) -> Tournaments:
    """A tournament owner over the lobby's own verbs (`wire(state).raw`), as core/arena.py builds it."""
    lobby = parts.lobby
    return Tournaments(TournamentDeps(state, lobby.open_room, lobby.seat, lobby.make_way, lobby.drawn_seed,
                                      parts.players.is_connected))  # fmt: skip


def test_an_entrant_waiting_in_a_lobby_is_paired_and_leaves_it_a_race_keeps_its_racers(clock: ManualClock) -> None:
    """An arena entrant who waits in a lobby (a quick race's, a friend's) when a wave forms is paired and leaves the
    lobby, whose host seat passes on (issue 53: they were left out, told nothing); one whose room counts down is
    not."""
    state = SharedState(clock)
    parts = wire(state).raw
    owner = owner_over(state, parts)
    names = ("ada", "bob", "cy", "dee", "eve")
    for name in names:
        known_player(state, name)
    record = tournament_record("Now", RULES, clock.now(), clock.now(), b"secret")
    entrants = (Entrant(name, name, False, clock.now()) for name in ("ada", "bob", "cy"))
    owner.adopt_read(with_entrants(TournamentSnapshot(StoredTournament(record)), *entrants))
    lobby = parts.lobby.create_room("ada", CreateRoomRequest(variant="freecell"))
    stored(lobby)
    code = state.seats.of("ada").room_code
    stored(parts.lobby.join_room("dee", JoinRoomRequest(code=code)))
    racing = parts.lobby.create_room("cy", CreateRoomRequest(variant="freecell"))
    stored(racing)
    stored(parts.lobby.join_room("eve", JoinRoomRequest(code=state.seats.of("cy").room_code)))
    stored(parts.lobby.start_race("cy", StartRaceRequest()))
    clock.advance(5)
    pairing = owner.pair(record.tournament_id)
    assert pairing is not None
    stored(pairing)
    (race,) = owner.snapshot(record.tournament_id).races
    assert race.members == ("ada", "bob"), "ada left her lobby for the race; cy's room counts down: not paired"
    assert state.seats.of("ada").room_code == race.code == state.seats.of("bob").room_code
    left = state.rooms.get(code)
    assert left is not None and set(left.members) == {"dee"} and left.host_id == "dee"


def test_the_audit_counts_the_entries_behind_the_stored_count(clock: ManualClock) -> None:
    """The count of entrants the listings show is recomputed from the stored entries: a count that differs is a
    line of `freecell-arena audit` (a final tournament's table is held to its results besides)."""
    state = SharedState(clock)
    owner, empty = owner_with_players(state, clock, "ada")
    owner.adopt_read(empty)
    effect, _ = entered(owner, empty, "ada")
    stored(effect)
    one = owner.snapshot(empty.tournament_id)
    assert check_tournament(one) == []
    wrong = replace(one, stored=replace(one.stored, entrants=2))
    assert check_tournament(wrong) == [f"tournament {one.tournament_id}: stored entrants=2, its entries are 1"]
