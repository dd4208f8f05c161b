"""Daily streaks and the month's calendar on a real server whose clock the test moves across days (SQLite and
PostgreSQL): kept by the server, so the same player asking from another connection sees the same streak."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, date, datetime

import pytest
from arena_client import ArenaClient, connect_player
from arena_server import start_arena
from boards_helpers import ManualClock, http_get, play

from freecell_arena.net.app import ArenaServer

SECRET = "a test secret for streaks"


@pytest.fixture
async def streak_arena(database_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    clock = ManualClock(datetime(2026, 11, 20, 12, 0, tzinfo=UTC))
    server = await start_arena(database_url, clock, daily_variants="freecell", daily_secret=SECRET,
                               daily_finalize_delay_s=0, daily_solver_nodes=50_000)  # fmt: skip
    try:
        yield server, clock
    finally:
        await server.shutdown()


async def win_today(server: ArenaServer, client: ArenaClient, clock: ManualClock, day: date) -> str:
    deal = await server.store.dailies.deal("freecell", day)
    assert deal is not None
    started = await client.request({"type": "play_daily", "variant": "freecell"})
    assert started["ranked"] is True, started
    assert (await play(client, deal.solution, clock))["status"] == "won"
    game_id: str = started["game"]["game_id"]
    return game_id


async def test_a_streak_grows_day_by_day_and_a_missed_day_ends_it(
    streak_arena: tuple[ArenaServer, ManualClock],
) -> None:
    server, clock = streak_arena
    ada = await connect_player(f"ws://127.0.0.1:{server.port}/", "ada")
    try:
        for day in (21, 22):
            clock.set(datetime(2026, 11, day, 9, 0, tzinfo=UTC))
            await server.daily.run_once()
            won = await win_today(server, ada, clock, date(2026, 11, day))
        deal = await server.store.dailies.deal("freecell", date(2026, 11, 22))
        assert deal is not None
        shared = await ada.request({"type": "get_share", "game_id": won})  # the day is still open: no spoiler
        assert shared["text"].splitlines() == [
            "FreeCell Arena · FreeCell daily 2026-11-22",
            f"✅ {deal.par} moves (par {deal.par}, ±0) in {shared['text'].splitlines()[1].split(' in ')[1]}",
            "🔥 2-day streak", f"http://localhost:{server.port}/#/daily/freecell",
        ]
        assert shared["text"].splitlines()[1].endswith(" · #1 of 1"), "ada's place on the day's board"
        words = shared["text"].split()
        assert str(deal.seed) not in shared["text"] and not any(move in words for move in deal.solution)
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=UTC))
        await server.daily.run_once()
        played = await ada.request({"type": "play_daily", "variant": "freecell"})
        assert (await ada.request({"type": "resign"}))["type"] == "game_over" and played["ranked"]
        practice = await ada.request({"type": "play_daily", "variant": "freecell"})
        assert (practice["ranked"], practice["unranked_reason"]) == (False, "played_before")
        assert (await ada.request({"type": "resign"}))["type"] == "game_over"
        practice_share = await ada.request({"type": "get_share", "game_id": practice["game"]["game_id"]})
        assert practice_share["text"].splitlines()[1] == "Practice: not on the day's board", practice_share
        ranked_share = await ada.request({"type": "get_share", "game_id": played["game"]["game_id"]})
        assert "Practice" not in ranked_share["text"], ranked_share

        review = await ada.request({"type": "get_review", "variant": "freecell", "day": "2026-11-22"})  # closed
        assert review["type"] == "review", review
        assert (review["par"], review["line"], review["seed"]) == (deal.par, list(deal.solution), str(deal.seed))
        assert len(review["steps"]) == deal.par and review["day"] == "2026-11-22" and review["code"] is None
        assert [(row["player_id"], row["over_par"]) for row in review["results"]] == [(ada.player_id, 0)]
        open_day = await ada.request({"type": "get_review", "variant": "freecell", "day": "2026-11-23"})
        assert open_day["type"] == "error" and open_day["code"] == "race_not_over", "today's deal stays secret"
        status, body = await http_get(server.port, "/api/daily/freecell/2026-11-23/review")
        assert status == 409 and "line" not in body
        half = await ada.request({"type": "get_review", "variant": "freecell"})
        assert half["type"] == "error" and half["code"] == "invalid_message"

        streak = await ada.request({"type": "get_streak", "variant": "freecell"})
        assert streak["type"] == "streak", streak
        assert (streak["today"], streak["current"], streak["best"]) == ("2026-11-23", 2, 2), "today may still be won"
        marks = {entry["day"]: entry["mark"] for entry in streak["days"]}
        assert (marks["2026-11-20"], marks["2026-11-21"], marks["2026-11-22"]) == ("none", "won", "won"), (
            "ada was made on the 20th, after its deal opened: she could not miss it")  # fmt: skip
        assert (marks["2026-11-23"], marks["2026-11-24"]) == ("played", "ahead")
        assert len(streak["days"]) == 30

        clock.set(datetime(2026, 11, 24, 9, 0, tzinfo=UTC))  # the 23rd closed without a win: the streak is over
        again = await connect_player(f"ws://127.0.0.1:{server.port}/", "bea")
        status, body = await http_get(server.port, f"/api/players/{ada.player_id}/streak/freecell")
        assert status == 200 and (body["current"], body["best"]) == (0, 2)
        page = await again.request({"type": "get_player", "player_id": ada.player_id})
        assert (page["variants"][0]["streak"], page["variants"][0]["best_streak"]) == (0, 2)
        assert page["variants"][0]["average_over_par"] == 0.0
        october = await ada.request({"type": "get_streak", "variant": "freecell", "month": "2026-10"})
        assert {entry["mark"] for entry in october["days"]} == {"none"}, "before ada and before any deal"
        first = await again.request({"type": "play_daily", "variant": "freecell"})  # bea, made today
        assert (first["ranked"], first["unranked_reason"]) == (False, "new_player")
        assert (await again.request({"type": "resign"}))["type"] == "game_over"
        second = await again.request({"type": "play_daily", "variant": "freecell"})
        assert (second["ranked"], second["unranked_reason"]) == (False, "new_player")
        assert (await again.request({"type": "resign"}))["type"] == "game_over"
        assert (played["ranked"], played["unranked_reason"]) == (True, None)
        bea = {entry["day"]: entry["mark"] for entry in (await again.request(
            {"type": "get_streak", "variant": "freecell"}))["days"]}  # fmt: skip
        assert (bea["2026-11-23"], bea["2026-11-24"]) == ("none", "played"), "her practice day counts as played"
        for client, reason in ((again, "new_player"), (ada, None)):  # said before the next game starts
            streak = await client.request({"type": "get_streak", "variant": "freecell"})
            assert streak["today_unranked_reason"] == reason
        future = await ada.request({"type": "get_streak", "variant": "freecell", "month": "2027-01"})
        assert future["type"] == "error" and future["code"] == "invalid_message"
        bad = await ada.request({"type": "get_streak", "variant": "freecell", "month": "2026-13"})
        assert bad["type"] == "error" and bad["code"] == "invalid_message"
        await again.close()
    finally:
        await ada.close()
