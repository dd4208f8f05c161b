"""Pairing an arena's free entrants, beside forming the same rooms by `create_room` (same run).

    PYTHONPATH=$PWD/server python3 bench/tournament_pairing.py             # 1,000 free entrants, races of 4

Core only (no store, no sockets): the pairing wave's effect is computed and adopted as if stored, which is what a
pairing costs the process's CPU. The baseline forms the same number of rooms the way players do by hand: one
`create_room`, then `join_room` for the others, then `start_race`. The figure: CPU per race formed, each way.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime, timedelta

from freecell_arena.core.arena import Arena
from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.effects import Effect
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.core.records.tournaments.scoring import Entrant
from freecell_arena.core.records.tournaments.state import StoredTournament, TournamentSnapshot
from freecell_arena.protocol.rooms import CreateRoomRequest, JoinRoomRequest, RoomOptions, StartRaceRequest
from freecell_arena.protocol.session import HelloRequest


class StoppedClock:
    def __init__(self) -> None:
        self.instant = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.instant


def adopted(effect: Effect, *, claimed: bool = False) -> Effect:
    """The effect as if the store took it: claimed (unless `Arena.handle` did), then adopted."""
    if not claimed:
        effect.claim()
    effect.stored()
    return effect


def players(arena: Arena, count: int) -> list[str]:
    ids = []
    for index in range(count):
        player_id, effect = arena.register(HelloRequest(name=f"p{index}"))
        adopted(effect)
        ids.append(player_id)
    return ids


def pairing(count: int, size: int) -> tuple[float, int]:
    clock = StoppedClock()
    arena = Arena(clock)
    ids = players(arena, count)
    rules = TournamentRules(kind="arena", variant="freecell", time_limit_s=300, ranked=True, race_size=size)
    record = tournament_record("Bench", rules, clock.now() - timedelta(minutes=1), clock.now(), b"secret")
    entries = {player_id: Entrant(player_id, player_id, False, clock.now() - timedelta(minutes=2)) for player_id in ids}
    arena.tournaments.know(TournamentSnapshot(StoredTournament(record, entrants=count), entries))
    started = time.process_time()
    effect = arena.tournaments.pair(record.tournament_id)
    assert effect is not None
    adopted(effect)
    return time.process_time() - started, sum(type(item).__name__ == "TournamentRaceRecord" for item in effect.records)


def by_hand(count: int, size: int) -> tuple[float, int]:
    arena = Arena(StoppedClock())
    ids = players(arena, count)
    started = time.process_time()
    races = 0
    for first in range(0, count - count % size, size):
        host = ids[first]
        options = RoomOptions(max_players=size)
        room = adopted(arena.handle(host, CreateRoomRequest(variant="freecell", options=options)), claimed=True)
        code = room.replies[0].room.code  # type: ignore[union-attr]
        for player_id in ids[first + 1:first + size]:
            adopted(arena.handle(player_id, JoinRoomRequest(code=code)), claimed=True)
        adopted(arena.handle(host, StartRaceRequest()), claimed=True)
        races += 1
    return time.process_time() - started, races


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--size", type=int, default=4)
    args = parser.parse_args()
    paired, races = pairing(args.entrants, args.size)
    manual, rooms = by_hand(args.entrants, args.size)
    print(f"pairing {args.entrants} free entrants: {races} races in {paired * 1000:.1f} ms CPU, "
          f"{paired / races * 1e6:.0f} us a race")
    print(f"baseline, create_room + join_room + start_race: {rooms} rooms in {manual * 1000:.1f} ms CPU, "
          f"{manual / rooms * 1e6:.0f} us a room")
    print(f"ratio: {paired / races / (manual / rooms):.2f}x a race formed by hand")


if __name__ == "__main__":
    main()
