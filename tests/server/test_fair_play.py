"""Fair play on ranked boards (issue 16): wins at machine speed leave the human board, throwaway identities play the
daily unranked (tests/server/test_daily.py), and a host cannot know a hidden-card deal."""

from __future__ import annotations

from arena_client import connect_player
from arena_server import RunningArena
from boards_helpers import ManualClock, http_get, play, winning_moves

from freecell_arena.core.records.fair_play import MIN_MS_PER_DECK, MIN_MS_PER_MOVE, bots_side, implausible_win
from freecell_arena.engine import variant_by_id

SEED = 6


def test_the_screen_floors() -> None:
    freecell, four_deck = variant_by_id("freecell"), variant_by_id("freecell-four-deck")
    assert implausible_win(freecell, 70, 1_100) is not None, "the solver client of the outside test"
    assert implausible_win(freecell, 70, 70 * MIN_MS_PER_MOVE - 1) is not None
    assert implausible_win(freecell, 70, 70 * MIN_MS_PER_MOVE) is None
    assert implausible_win(freecell, 20, MIN_MS_PER_DECK - 1) is not None, "a deal has to be read first"
    assert implausible_win(four_deck, 20, 2 * MIN_MS_PER_DECK) is not None
    assert implausible_win(four_deck, 20, 4 * MIN_MS_PER_DECK) is None
    assert bots_side("freecell/deal/1/humans") == "freecell/deal/1/bots"


async def test_a_win_at_machine_speed_is_kept_flagged_and_on_the_bots_side(
    paced_arena: tuple[RunningArena, ManualClock],
) -> None:
    arena, clock = paced_arena
    fast, paced = await connect_player(arena.url, "solver-in-disguise"), await connect_player(arena.url, "person")
    moves = winning_moves("freecell", SEED)
    results = {}
    for client, seconds_per_move in ((fast, 0.01), (paced, 1.0)):
        created = await client.request({"type": "create_room", "variant": "freecell", "seed": SEED,
                                        "options": {"countdown_s": 0}})  # fmt: skip
        assert created["room"]["host_chose_deal"] is True
        await client.request({"type": "start_race"})
        clock.advance(0.1)
        game = (await client.expect("race_started"))["game"]
        won = await play(client, moves, clock, seconds_per_move)
        assert won["status"] == "won"
        results[client.player_id] = game["game_id"]
    await arena.server.writer.flush()
    _, humans = await http_get(arena.server.port, f"/api/leaderboards/freecell/deal/{SEED}")
    assert [row["name"] for row in humans["entries"]] == ["person"]
    _, bots = await http_get(arena.server.port, f"/api/leaderboards/freecell/deal/{SEED}?bots=true")
    assert [row["name"] for row in bots["entries"]] == ["solver-in-disguise"], "kept, on the bots' side"
    stored = await arena.server.store.game(results[fast.player_id])
    assert stored is not None and stored.result is not None
    assert stored.result.flag is not None and "faster than" in stored.result.flag
    assert stored.game.board == f"freecell/deal/{SEED}/bots"
    for client in (fast, paced):
        await client.close()


async def test_a_hidden_card_variant_never_deals_a_host_chosen_seed(arena: RunningArena) -> None:
    host = await connect_player(arena.url, "host")
    for field in ("seed", "deal"):
        refused = await host.request({"type": "create_room", "variant": "cell-eleven", field: 12345})
        assert refused["code"] == "bad_seed" and "hides cards" in refused["message"], refused
    drawn = await host.request({"type": "create_room", "variant": "cell-eleven"})
    assert drawn["room"]["seed"] is None and drawn["room"]["host_chose_deal"] is False
    await host.request({"type": "leave_room"})
    open_deal = await host.request({"type": "create_room", "variant": "freecell", "deal": 1})
    assert open_deal["room"]["seed"] == "1" and open_deal["room"]["host_chose_deal"] is True, "everyone sees it"
    await host.close()
