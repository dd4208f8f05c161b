"""Tournaments' pure parts: the scoring table, arena pairing, cup heats and commit-reveal, the schedule."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from freecell_arena.core.competition.tournaments.cup import cup_deals, heats, round_seed, verify_reveal
from freecell_arena.core.competition.tournaments.pairing import Candidate, pair, repeats
from freecell_arena.core.competition.tournaments.schedule import parse_schedule, planned, tournament_record
from freecell_arena.core.ports.reads import RaceResult
from freecell_arena.core.records.sanctioned import Sanctions
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.core.records.tournaments.scoring import (
    Entrant,
    StoredRace,
    arena_standings,
    cup_standings,
    place_points,
)
from freecell_arena.core.records.tournaments.state import StoredTournament, TournamentSnapshot, table_of

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
ARENA = TournamentRules(kind="arena", variant="freecell", time_limit_s=300, ranked=True, race_size=2)
CUP = TournamentRules(kind="cup", variant="freecell", time_limit_s=300, ranked=True, rounds=3, heat_size=16)


def entrants(*names: str) -> list[Entrant]:
    return [Entrant(name, name.upper(), False, T0 + timedelta(seconds=index)) for index, name in enumerate(names)]


def race(wave: int, *results: RaceResult, berserkers: frozenset[str] = frozenset()) -> StoredRace:
    members = tuple(result.player_id for result in results)
    return StoredRace(f"r{wave}", f"C{wave}", wave, 0, T0 + timedelta(minutes=wave), True, results, berserkers,
                      members, T0 + timedelta(minutes=wave, seconds=50))  # fmt: skip


def result(player: str, outcome: str | None, moves: int = 0, time_ms: int = 0, *, flagged: bool = False,
           game_id: str = "") -> RaceResult:  # fmt: skip
    """A person's result: what a tournament's table scores of it (single-card moves and cards home it ignores)."""
    return RaceResult(player, False, outcome, moves, 0, 0, time_ms, flagged, game_id)


def won(player: str, moves: int, time_ms: int = 60_000) -> RaceResult:
    return result(player, "won", moves, time_ms)


def lost(player: str, moves: int = 10) -> RaceResult:
    return result(player, "timeout", moves, 300_000)


def test_place_points_first_solver_scores_the_race_size() -> None:
    assert [place_points(placing, 4) for placing in (1, 2, 3, 4)] == [4, 3, 2, 1]


def test_arena_points_streak_and_berserk() -> None:
    races = [race(1, won("a", 80), lost("b")), race(2, won("a", 80), won("b", 90)),
             race(3, won("a", 70), won("b", 90)), race(4, won("a", 70, 100_000), lost("b"), berserkers=frozenset("a")),
             race(5, won("b", 60), won("a", 90))]  # fmt: skip
    table = arena_standings(ARENA, entrants("a", "b"), races)
    by_player = {row.player_id: row for row in table}
    # a: 2, 2, then on a streak 4, then 4 doubled + 1 berserk, then 1 doubled (2nd) and the streak ends
    assert by_player["a"].points == 2 + 2 + 4 + (4 + 1) + 2
    assert by_player["a"].recent == (2, 2, 4, 5, 2)
    assert not by_player["a"].on_streak
    assert by_player["b"].points == 0 + 1 + 1 + 0 + 2
    assert [row.player_id for row in table] == ["a", "b"]


def test_a_berserkers_solve_after_half_the_limit_scores_nothing_and_lifts_the_others() -> None:
    late = race(1, won("a", 50, 200_000), won("b", 90, 250_000), berserkers=frozenset("a"))
    table = {row.player_id: row for row in arena_standings(ARENA, entrants("a", "b"), [late])}
    assert table["a"].points == 0 and table["b"].points == 2 and table["b"].wins == 1


def test_flagged_and_excluded_results_score_nothing() -> None:
    flagged = race(1, result("a", "won", 30, 1000, flagged=True), won("b", 90))
    table = {row.player_id: row for row in arena_standings(ARENA, entrants("a", "b"), [flagged])}
    assert table["a"].points == 0 and table["b"].points == 2
    table = {row.player_id: row for row in arena_standings(ARENA, entrants("a", "b"), [race(1, won("a", 30),
                                                            won("b", 90))], excluded=frozenset({"a"}))}  # fmt: skip
    assert "a" not in table and table["b"].points == 2


def test_a_void_game_scores_nothing_and_a_mark_or_ban_reads_as_the_sanction_says() -> None:
    """A void game scores as a flagged one (the others placed as if it had not solved, the race its size); a marked
    person leaves a humans' table and is not paired; a banned entrant reads withdrawn, their points kept."""
    first = race(1, result("a", "won", 30, 1000, game_id="g_a"), won("b", 90), result("c", "lost"))
    table = {row.player_id: row for row in arena_standings(ARENA, entrants("a", "b", "c"), [first],
                                                           void_games=frozenset({"g_a"}))}  # fmt: skip
    assert (table["a"].points, table["a"].races, table["a"].wins) == (0, 1, 0)
    assert (table["b"].points, table["b"].wins) == (3, 1)
    cup = cup_standings(CUP, entrants("a", "b"), [race(0, result("a", "won", 30, 1000, game_id="g_a"),
                                                           won("b", 90))], void_games=frozenset({"g_a"}))  # fmt: skip
    assert [(row.player_id, row.solved) for row in cup] == [("b", 1), ("a", 0)]

    record = tournament_record("Arena", ARENA, T0, T0, b"secret")
    entries = {entrant.player_id: entrant for entrant in entrants("a", "b", "c")}
    snapshot = TournamentSnapshot(StoredTournament(record), entries, (first,), Sanctions(frozenset({"a"})),
                                  frozenset({"c"}))  # fmt: skip
    rows = {row.player_id: row for row in table_of(snapshot)}
    assert "a" not in rows and snapshot.sidelined("a") and snapshot.sidelined("c") and not snapshot.sidelined("b")
    assert rows["b"].points == 3 and rows["c"].status == "withdrawn"


def test_ties_are_broken_by_wins_then_solved_then_time_then_entry() -> None:
    races = [race(1, won("a", 50, 1000), won("c", 60)), race(2, won("b", 50, 2000), won("d", 60))]
    table = arena_standings(ARENA, entrants("a", "b", "c", "d"), races)
    assert [row.player_id for row in table] == ["a", "b", "c", "d"]  # a and b tie on points and wins: time
    quiet = arena_standings(ARENA, entrants("x", "y"), [])
    assert [row.player_id for row in quiet] == ["x", "y"]  # nothing played: who entered first


def test_unfinished_races_do_not_count() -> None:
    running = StoredRace("r1", "C1", 1, 0, T0, False, (won("a", 10),), members=("a",))
    assert arena_standings(ARENA, entrants("a"), [running])[0].points == 0


def test_cup_table_solved_then_moves_then_time_per_round_and_overall() -> None:
    rounds = [race(0, won("a", 90), won("b", 80), lost("c")), race(1, won("a", 80), lost("b"), won("c", 70))]
    overall = cup_standings(CUP, entrants("a", "b", "c"), rounds)
    assert [(row.player_id, row.solved, row.moves) for row in overall] == [("a", 2, 170), ("c", 1, 70),
                                                                            ("b", 1, 80)]  # fmt: skip
    first = cup_standings(CUP, entrants("a", "b", "c"), rounds, round_index=0)
    assert [row.player_id for row in first] == ["b", "a", "c"]


def candidate(name: str, score: int = 0, waited_s: float = 10, last: str = "") -> Candidate:
    return Candidate(name, score, T0 - timedelta(seconds=waited_s), frozenset(last.split()) if last else frozenset())


def test_pairing_groups_neighbours_in_score() -> None:
    groups = pair([candidate("a", 1), candidate("b", 9), candidate("c", 5), candidate("d", 8)], 2, 3, T0)
    assert groups == [("b", "d"), ("c", "a")]


def test_pairing_waits_to_gather_and_never_pairs_one() -> None:
    assert pair([candidate("a", waited_s=1), candidate("b", waited_s=1)], 4, 3, T0) == []
    assert pair([candidate("a", waited_s=5), candidate("b", waited_s=1)], 4, 3, T0) == [("a", "b")]
    assert pair([candidate("a", waited_s=50)], 2, 3, T0) == []
    assert pair([candidate(name) for name in "abcde"], 2, 3, T0)[-1] != ("e",)


def test_pairing_avoids_the_same_opponents_twice_in_a_row_when_others_are_free() -> None:
    free = [candidate("a", 9, last="b"), candidate("b", 8, last="a"), candidate("c", 7, last="d"),
            candidate("d", 6, last="c")]  # fmt: skip
    groups = pair(free, 2, 3, T0)
    assert len(groups) == 2 and not any(set(group) in ({"a", "b"}, {"c", "d"}) for group in groups)
    assert pair([candidate("a", last="b"), candidate("b", last="a")], 2, 3, T0) == [("a", "b")]  # nobody else
    assert repeats([candidate("a", last="b"), candidate("b", last="a")])


def test_heats_are_even_and_cover_everyone() -> None:
    players = [f"p{index}" for index in range(2000)]
    seated = heats(players, 16)
    assert len(seated) == 125 and {len(heat) for heat in seated} == {16}
    uneven = heats(players[:40], 16)
    assert [len(heat) for heat in uneven] == [14, 13, 13] and [p for heat in uneven for p in heat] == players[:40]


def test_cup_deals_commit_then_reveal() -> None:
    deals = cup_deals(b"secret", "t_1", "freecell", 3)
    assert len(set(deals.seeds)) == 3 and deals.seeds[1] == round_seed(b"secret", "t_1", "freecell", 1)
    assert verify_reveal("t_1", "freecell", deals.seeds, deals.nonce, deals.commitment)
    assert not verify_reveal("t_1", "freecell", (deals.seeds[0], deals.seeds[0], deals.seeds[2]), deals.nonce,
                             deals.commitment)  # fmt: skip
    assert cup_deals(b"other", "t_1", "freecell", 3).seeds != deals.seeds
    chosen = cup_deals(b"secret", "t_1", "freecell", 2, chosen=617)
    assert chosen.seeds == (617, 617)


def test_schedule_creates_each_occurrence_ahead_once() -> None:
    text = json.dumps([{"name": "Hourly", "every": "hourly", "minute": 30},
                       {"name": "Cup", "kind": "cup", "every": "daily", "hour": 20},
                       {"name": "Bots", "entry": "bots", "every": "weekly", "weekday": 6, "hour": 18}])  # fmt: skip
    entries = parse_schedule(text)
    now = datetime(2026, 11, 27, 19, 10, tzinfo=UTC)  # a Friday
    plan = planned(entries, now)
    hourly = [start for entry, start, _ in plan if entry.name == "Hourly"]
    assert hourly[0] == datetime(2026, 11, 27, 19, 30, tzinfo=UTC) and len(hourly) == 26
    assert [start for entry, start, _ in plan if entry.name == "Cup"] == [datetime(2026, 11, 27, 20, tzinfo=UTC),
                                                                           datetime(2026, 11, 28, 20, tzinfo=UTC)]
    assert [start for entry, start, _ in plan if entry.name == "Bots"] == []  # Sunday is beyond 26 hours
    keys = [key for _, _, key in plan]
    assert len(keys) == len(set(keys)) and keys == [key for _, _, key in planned(entries, now)]
    with pytest.raises(ValueError):
        parse_schedule('[{"name": "x", "variant": "nope"}]')


def test_a_cup_is_committed_at_creation_and_a_chosen_deal_is_never_rated() -> None:
    rules = TournamentRules(kind="cup", variant="freecell", time_limit_s=300, ranked=True, seed=617)
    record = tournament_record("Friends", rules, T0, T0, b"secret")
    assert record.commitment is not None and not rules.rated()
    assert record.ends_at == T0 + timedelta(seconds=2 * 600 + 300)
