"""The daily desk (core/live/daily_play.py) driven directly: which players the adapter must look up in the store before
a `play_daily` (an earlier ranked attempt), and that its answer is the rank the game then gets."""

from __future__ import annotations

from datetime import date

from core_support import ManualClock, known_player
from parts import stored, wire

from freecell_arena.core.live.daily_play import DailyChallenges
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import DailyRecord
from freecell_arena.protocol.leaderboards import DailyStartedMessage, PlayDailyRequest

DAY = date(2026, 1, 2)


def desk_on_day(state: SharedState, clock: ManualClock) -> DailyChallenges:
    parts = wire(state)
    desk = DailyChallenges(state, parts.lobby)
    clock.advance(86_400 + 3_600)  # one hour into DAY: the players made at the clock's start came before it opened
    desk.know_deal(DailyRecord("freecell", DAY, 7, 0, "n", "c", 50, (), "1", clock.now()))
    return desk


def started_ranked(desk: DailyChallenges, player_id: str) -> bool:
    reply = stored(desk.play(player_id, PlayDailyRequest(variant="freecell"))).replies[0]
    assert isinstance(reply, DailyStartedMessage)
    return reply.ranked


def test_a_player_made_before_the_opening_is_looked_up_then_ranked(state: SharedState, clock: ManualClock) -> None:
    known_player(state, "early")
    desk = desk_on_day(state, clock)
    assert desk.may_be_ranked("early", "freecell", DAY)
    assert started_ranked(desk, "early")
    assert not desk.may_be_ranked("early", "freecell", DAY)  # the attempt is known here now: no second read


def test_a_known_earlier_attempt_needs_no_read_and_plays_unranked(state: SharedState, clock: ManualClock) -> None:
    known_player(state, "returning")
    desk = desk_on_day(state, clock)
    desk.know_attempt("returning", "freecell", DAY)  # what the adapter does when the store has one
    assert not desk.may_be_ranked("returning", "freecell", DAY)
    assert not started_ranked(desk, "returning")


def test_an_identity_made_after_the_opening_is_not_looked_up_and_plays_unranked(
    state: SharedState, clock: ManualClock
) -> None:
    desk = desk_on_day(state, clock)
    known_player(state, "fresh")  # made now, an hour after the deal opened
    assert not desk.may_be_ranked("fresh", "freecell", DAY)
    assert not started_ranked(desk, "fresh")
    assert not desk.may_be_ranked("nobody", "freecell", DAY)  # an unknown player: nothing to read for
