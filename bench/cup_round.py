"""A cup round's start for 2,000 entrants, beside the same number of quick-race starts (same run).

    PYTHONPATH=$PWD/server python3 bench/cup_round.py                # 2,000 entrants, heats of 16

Core only (no store, no sockets): what a round's start costs the process holding the cup. The round is seated in
heats (`Tournaments.start_round`, its effect adopted as if stored), then at the round's instant the race clock
deals every heat (`Arena.tick`); the figure is the CPU from the seating to the last heat dealt, and the tick alone
(the time from the round's instant to every heat dealt, on one core). The baseline starts as many players by
`quick_race` (each joins the filling public room, which starts by itself once full), its rooms dealt by the same
tick. Both deal every player a game; the cup does it in fewer, larger rooms.
"""

from __future__ import annotations

import argparse
import time
from datetime import timedelta

from tournament_pairing import StoppedClock, adopted, players

from freecell_arena.core.arena import Arena
from freecell_arena.core.competition.quick_race import QuickRaceRules
from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.core.records.tournaments.scoring import Entrant
from freecell_arena.core.records.tournaments.state import StoredTournament, TournamentSnapshot
from freecell_arena.protocol.rooms import QuickRaceRequest


def games_dealt(arena: Arena) -> int:
    return sum(len(room.games) for room in arena.rooms.by_id.values())


def dealt(arena: Arena, clock: StoppedClock) -> float:
    """Move the clock past every countdown and tick: the CPU until every room is dealt."""
    clock.instant += timedelta(seconds=60)
    started = time.process_time()
    for effect in arena.tick():
        adopted(effect, claimed=True)  # the race clock claims each room as it makes its effect
    return time.process_time() - started


def cup_round(count: int, heat_size: int) -> tuple[float, float, int, int]:
    clock = StoppedClock()
    arena = Arena(clock)
    ids = players(arena, count)
    rules = TournamentRules(kind="cup", variant="freecell", time_limit_s=300, ranked=True, rounds=3,
                            round_interval_s=600, heat_size=heat_size)  # fmt: skip
    record = tournament_record("Bench cup", rules, clock.now(), clock.now(), b"secret")
    entries = {player_id: Entrant(player_id, player_id, False, clock.now() - timedelta(minutes=2)) for player_id in ids}
    arena.tournaments.know(TournamentSnapshot(StoredTournament(record, entrants=count), entries))
    started = time.process_time()
    effect = arena.tournaments.start_round(record.tournament_id, lambda index: 1000 + index)
    assert effect is not None
    adopted(effect)
    seated = time.process_time() - started
    tick = dealt(arena, clock)
    return seated + tick, tick, len(arena.rooms), games_dealt(arena)


def quick_starts(count: int) -> tuple[float, float, int, int]:
    clock = StoppedClock()
    arena = Arena(clock)
    ids = players(arena, count)
    started = time.process_time()
    for player_id in ids:
        adopted(arena.handle(player_id, QuickRaceRequest(variant="freecell")), claimed=True)
    joined = time.process_time() - started
    tick = dealt(arena, clock)
    return joined + tick, tick, len(arena.rooms), games_dealt(arena)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entrants", type=int, default=2000)
    parser.add_argument("--heat-size", type=int, default=16)
    args = parser.parse_args()
    cup, cup_tick, heats, cup_games = cup_round(args.entrants, args.heat_size)
    quick, quick_tick, rooms, quick_games = quick_starts(args.entrants)
    print(f"cup round, {args.entrants} entrants: {heats} heats, {cup_games} games dealt; seating + dealing "
          f"{cup * 1000:.1f} ms CPU ({cup / cup_games * 1e6:.0f} us a player), "
          f"the instant's tick {cup_tick * 1000:.1f} ms")
    print(f"baseline, {args.entrants} quick_race starts (rooms of {QuickRaceRules().max_players}): {rooms} rooms, "
          f"{quick_games} games dealt; joining + dealing {quick * 1000:.1f} ms CPU "
          f"({quick / quick_games * 1e6:.0f} us a player), the tick {quick_tick * 1000:.1f} ms")
    print(f"ratio: {cup / quick:.2f}x the quick-race starts")


if __name__ == "__main__":
    main()
