"""The tournament desk's copy of a tournament against reads from the store: a read that one of this process's own
changes overtook (taken while an entry was in flight, or before it was adopted) never replaces the newer copy, so
an entrant is never forgotten (and let in twice) nor counted over a stale count."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from core_support import ManualClock

from freecell_arena.core.competition.tournaments.audit import check_tournament
from freecell_arena.core.competition.tournaments.desk import TournamentDeps, Tournaments
from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.live.players import Players
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import EntryRecord, PlayerRecord
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.core.records.tournaments.state import StoredTournament, TournamentSnapshot
from freecell_arena.protocol.tournaments import EnterTournamentRequest

RULES = TournamentRules(kind="arena", variant="freecell", time_limit_s=300, ranked=True, race_size=2, cap=8,
                        duration_s=1800, late_entry_s=600)  # fmt: skip


def unused(*_: object) -> object:
    raise AssertionError("entering opens no room")


def desk_with_players(state: SharedState, clock: ManualClock, *names: str) -> tuple[Tournaments, TournamentSnapshot]:
    players = Players(state)
    for name in names:
        players.adopt(PlayerRecord(name, name, f"hash-{name}", False, clock.now()))
    desk = Tournaments(TournamentDeps(state, unused, unused, unused, unused))  # type: ignore[arg-type]
    record = tournament_record("Evening", RULES, clock.now() + timedelta(minutes=5), clock.now(), b"secret")
    return desk, TournamentSnapshot(StoredTournament(record))


def entered(desk: Tournaments, snapshot: TournamentSnapshot, player_id: str) -> tuple[Effect, EntryRecord]:
    effect = desk.enter(player_id, EnterTournamentRequest(type="enter_tournament", id=1,
                                                          tournament_id=snapshot.tournament_id))  # fmt: skip
    effect.claim()
    entry = effect.records[0]
    assert isinstance(entry, EntryRecord)
    return effect, entry


def stored(effect: Effect) -> None:
    assert effect.changes is not None
    effect.changes.stored()


def test_a_read_taken_before_an_entry_was_adopted_does_not_undo_that_entry(clock: ManualClock) -> None:
    state = SharedState(clock)
    desk, empty = desk_with_players(state, clock, "ada", "bob", "cy")
    tournament_id = empty.tournament_id
    assert desk.know(empty, desk.read_mark(tournament_id))
    mark = desk.read_mark(tournament_id)  # net begins to read: the store still has no entrant...
    effect, entry = entered(desk, empty, "ada")
    assert entry.cap == RULES.cap
    stored(effect)  # ... ada's entry is stored and adopted before the read comes back
    assert desk.know(empty, mark)  # the desk's copy is newer, and fit: nothing to read again
    known = desk.snapshot(tournament_id)
    assert known.stored.entrants == 1 and "ada" in known.entries  # not the read's: ada would be let in twice
    with pytest.raises(Refusal) as twice:
        desk.enter("ada", EnterTournamentRequest(type="enter_tournament", id=2, tournament_id=tournament_id))
    assert twice.value.code == "already_entered"

    effect, _ = entered(desk, empty, "bob")
    mark = desk.read_mark(tournament_id)  # a read begun while bob's entry is in flight
    stored(effect)
    with_both = replace(empty, stored=replace(empty.stored, entrants=2))
    assert desk.know(with_both, mark)
    assert desk.snapshot(tournament_id).entries.keys() == {"ada", "bob"}

    mark = desk.read_mark(tournament_id)  # nothing changed here meanwhile: the store's word is taken
    assert desk.know(with_both, mark)
    assert desk.snapshot(tournament_id) is with_both


def test_a_wave_formed_here_leaves_the_copy_unfit_until_read_again(clock: ManualClock) -> None:
    state = SharedState(clock)
    desk, empty = desk_with_players(state, clock, "ada")
    assert desk.know(empty)
    mark = desk.read_mark(empty.tournament_id)
    desk.mark_stale(empty.tournament_id)
    assert not desk.know(empty, mark)  # read again: the copy lacks the wave's races
    assert desk.pair(empty.tournament_id) is None and desk.settle(empty.tournament_id) is None
    assert desk.know(empty, desk.read_mark(empty.tournament_id))


def test_the_audit_counts_the_entries_behind_the_stored_count(clock: ManualClock) -> None:
    """The count of entrants the listings show is recomputed from the stored entries: a count that differs is a
    line of `freecell-arena audit` (a final tournament's table is held to its results besides)."""
    state = SharedState(clock)
    desk, empty = desk_with_players(state, clock, "ada")
    desk.know(empty)
    effect, _ = entered(desk, empty, "ada")
    stored(effect)
    one = desk.snapshot(empty.tournament_id)
    assert check_tournament(one) == []
    wrong = replace(one, stored=replace(one.stored, entrants=2))
    assert check_tournament(wrong) == [f"tournament {one.tournament_id}: stored entrants=2, its entries are 1"]
