"""Ratings (core/records/ratings.py): what a race does to the players' ratings, driven directly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freecell_arena.core.records.ratings import (
    NEW,
    Ladder,
    Placement,
    RatedRace,
    Rating,
    rate_race,
    rateable,
    replay_ratings,
)


def humans(*ranks: int) -> list[Placement]:
    return [Placement(f"p{number}", rank, bot=False) for number, rank in enumerate(ranks, start=1)]


def test_a_new_player_shows_1500_and_is_provisional() -> None:
    assert NEW.display == 1500
    assert NEW.provisional
    assert NEW.races == 0


def test_the_winner_goes_up_and_the_loser_down_by_the_shown_amounts() -> None:
    winner, loser = rate_race(humans(1, 2), {})
    assert winner.after.mu > winner.before.mu and loser.after.mu < loser.before.mu
    assert winner.delta > 0 > loser.delta
    assert winner.delta == winner.after.display - 1500
    assert winner.after.races == loser.after.races == 1
    assert winner.after.sigma < NEW.sigma and loser.after.sigma < NEW.sigma, "a race makes both more certain"


def test_a_tie_between_equals_changes_neither_mean() -> None:
    first, second = rate_race(humans(1, 1), {})
    assert first.after.mu == pytest.approx(NEW.mu) and second.after.mu == pytest.approx(NEW.mu)
    assert first.after == second.after


def test_beating_a_stronger_player_is_worth_more_than_beating_an_equal() -> None:
    strong = Rating(mu=35.0, sigma=3.0, races=40)
    against_equal, _ = rate_race(humans(1, 2), {})
    against_strong, _ = rate_race(humans(1, 2), {("p2", Ladder.HUMANS): strong})
    assert against_strong.after.mu - against_strong.before.mu > against_equal.after.mu - against_equal.before.mu


def test_the_order_of_places_follows_the_ranks_in_a_larger_race() -> None:
    changes = rate_race(humans(3, 1, 2, 4), {})
    by_player = {change.player_id: change.after.mu for change in changes}
    assert by_player["p2"] > by_player["p3"] > by_player["p1"] > by_player["p4"]


def test_bots_and_humans_are_rated_on_their_own_ladders() -> None:
    placements = [Placement("human-1", 1, bot=False), Placement("bot-1", 2, bot=True),
                  Placement("human-2", 3, bot=False), Placement("bot-2", 4, bot=True)]  # fmt: skip
    changes = {change.player_id: change for change in rate_race(placements, {})}
    assert {change.ladder for change in changes.values() if change.player_id.startswith("bot")} == {Ladder.BOTS}
    assert changes["human-1"].ladder is Ladder.HUMANS
    alone = {change.player_id: change for change in rate_race(humans(1, 3), {})}
    assert changes["human-1"].after == alone["p1"].after, "the bot between them changed nothing for the humans"


def test_a_lone_human_among_bots_is_not_rated() -> None:
    placements = [Placement("human", 1, bot=False), Placement("bot-1", 2, bot=True), Placement("bot-2", 3, bot=True)]
    assert {change.player_id for change in rate_race(placements, {})} == {"bot-1", "bot-2"}


def test_a_player_placed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        rate_race([Placement("p", 1, bot=False), Placement("p", 2, bot=False)], {})


@pytest.mark.parametrize(("ranked", "drawn", "players", "expected"), [
    (True, True, 2, True), (True, True, 1, False), (True, False, 3, False), (False, True, 3, False)])  # fmt: skip
def test_only_ranked_races_of_two_or_more_on_a_server_drawn_deal_are_rated(
    ranked: bool, drawn: bool, players: int, expected: bool
) -> None:
    assert rateable(ranked=ranked, server_drawn_deal=drawn, players=players) is expected


def test_provisional_ends_as_the_races_add_up() -> None:
    ratings: dict[tuple[str, Ladder], Rating] = {}
    for _ in range(30):
        for change in rate_race(humans(1, 2, 3, 4), ratings):
            ratings[(change.player_id, change.ladder)] = change.after
    assert not ratings[("p1", Ladder.HUMANS)].provisional


races = st.lists(
    st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d", "e"]), st.integers(1, 4), st.booleans()),
             min_size=2, max_size=5, unique_by=lambda entry: entry[0]),
    max_size=12,
)  # fmt: skip


def stored_races(raw: list[list[tuple[str, int, bool]]]) -> list[RatedRace]:
    """Races as the server would store them: each rated from the ratings the races before it left."""
    current: dict[tuple[str, Ladder], Rating] = {}
    stored = []
    for number, entries in enumerate(raw):
        placements = tuple(Placement(player, rank, bot) for player, rank, bot in entries)
        changes = rate_race(placements, current)
        current.update(((change.player_id, change.ladder), change.after) for change in changes)
        stored.append(RatedRace(f"race-{number}", "freecell", placements, tuple(changes)))
    return stored


@given(races)
def test_every_stored_rating_is_recomputed_exactly_from_the_races_in_order(
    raw: list[list[tuple[str, int, bool]]],
) -> None:
    stored = stored_races(raw)
    final, mismatches = replay_ratings(stored)
    assert mismatches == []
    last = {("freecell", change.player_id, change.ladder): change.after for race in stored for change in race.stored}
    assert final == last


def test_a_tampered_rating_is_reported_once() -> None:
    stored = stored_races([[("a", 1, False), ("b", 2, False)], [("a", 2, False), ("b", 1, False)],
                           [("a", 1, False), ("b", 2, False)]])  # fmt: skip
    first = stored[0]
    tampered = first.stored[0]
    forged = type(tampered)(tampered.player_id, tampered.ladder, tampered.before,
                            Rating(tampered.after.mu + 5, tampered.after.sigma, tampered.after.races))  # fmt: skip
    stored[0] = RatedRace(first.race_id, "freecell", first.placements, (forged, *first.stored[1:]))
    _, mismatches = replay_ratings(stored)
    assert [(mismatch.race_id, mismatch.player_id) for mismatch in mismatches] == [("race-0", "a")]
    assert "stored mu=" in mismatches[0].describe() and "recomputed mu=" in mismatches[0].describe()


def test_a_race_stored_without_its_ratings_is_reported() -> None:
    stored = stored_races([[("a", 1, False), ("b", 2, False)]])
    _, mismatches = replay_ratings([RatedRace("race-0", "freecell", stored[0].placements, ())])
    assert {mismatch.player_id for mismatch in mismatches} == {"a", "b"}
    assert all(mismatch.stored is None for mismatch in mismatches)
