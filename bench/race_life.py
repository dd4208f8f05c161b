"""What a one-player race's life costs core around its moves, step by step, beside one move (same run).

    PYTHONPATH=$PWD/server python3 bench/race_life.py       # 1,000 races, 5 runs

Core only (no store, no sockets), as bench/load.py's clients live it: `create_room` (no countdown, autoplay on),
`start_race`, the tick that begins the race (every player's deal and its view), `resign`, the tick that finishes
it, `leave_room`. Each step is its frame decoded, core's handling, its effect claimed and adopted as if stored, and
its replies and publications as wire text, as net does; printed is each step's CPU a race and the whole. The
baseline is one action of a game in the same process the same way (a move or its undo, bench/wire_decode.py's
round): the setups a move costs the server at load are the whole divided by the moves a game.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

from tournament_pairing import StoppedClock, adopted, players

from freecell_arena.core.arena import Arena
from freecell_arena.core.effects import Effect
from freecell_arena.protocol.codec import decode
from freecell_arena.protocol.trusted import wire_text
from freecell_arena.protocol.vocabulary import FINISHED
from freecell_arena.protocol.wire import Message

CREATE = '{"type":"create_room","id":1,"variant":"freecell","deal":%d,"options":{"countdown_s":0,"autoplay":true}}'
STEPS = ("create_room", "start_race", "the tick that begins", "resign", "the tick that finishes", "leave_room")
ACTIONS = ('{"type":"move","id":7,"move":"1a"}', '{"type":"undo","id":8}')
"""The baseline: a move and its undo, so the game goes round without ending."""


def delivered(effects: Sequence[Effect]) -> None:
    """Each effect as net finishes it once stored: adopted, then its replies and publications as wire text."""
    for effect in effects:
        adopted(effect, claimed=True)
        for reply in effect.replies:
            wire_text(reply)
        for publication in effect.publications:
            wire_text(publication.message)


def request(arena: Arena, player_id: str, frame: str) -> Callable[[], list[Effect]]:
    def step() -> list[Effect]:
        message = decode(frame)
        assert isinstance(message, Message) and not hasattr(message, "code"), message
        return [arena.handle(player_id, message)]

    return step


def lives(count: int) -> tuple[dict[str, float], Counter[str]]:
    """`count` races lived through, one player each: CPU a race of each step, and the effects each step made."""
    arena = Arena(StoppedClock())
    spent: Counter[str] = Counter()
    made: Counter[str] = Counter()
    for number, player_id in enumerate(players(arena, count)):
        steps = (request(arena, player_id, CREATE % (number + 1)), request(arena, player_id, '{"type":"start_race"}'),
                 arena.tick, request(arena, player_id, '{"type":"resign"}'), arena.tick,
                 request(arena, player_id, '{"type":"leave_room"}'))  # fmt: skip
        for name, step in zip(STEPS, steps, strict=True):
            began = time.process_time()
            effects = step()
            delivered(effects)
            spent[name] += time.process_time() - began
            made[name] += len(effects)
    assert not any(room.status != FINISHED for room in arena.rooms.values())
    return {name: spent[name] / count * 1e6 for name in STEPS}, made


def one_action(rounds: int) -> float:
    """CPU of one action of a running game (a move or its undo), in us."""
    arena = Arena(StoppedClock())
    [player_id] = players(arena, 1)
    for frame in (CREATE % 1, '{"type":"start_race"}'):
        delivered(request(arena, player_id, frame)())
    delivered(arena.tick())
    actions = [request(arena, player_id, frame) for frame in ACTIONS]
    began = time.process_time()
    for _ in range(rounds):
        for action in actions:
            delivered(action())
    return (time.process_time() - began) / (rounds * len(actions)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    steps: dict[str, list[float]] = {name: [] for name in STEPS}
    baseline: list[float] = []
    for _ in range(args.runs):  # alternating, so the machine's load falls on both alike
        baseline.append(one_action(args.races))
        each, made = lives(args.races)
        if set(made.values()) != {args.races}:  # each step one effect a race: every race begun and finished
            raise SystemExit(f"effects made {dict(made)}, expected {args.races} of each: the bench is broken")
        for name, value in each.items():
            steps[name].append(value)
    whole = [sum(values) for values in zip(*steps.values(), strict=True)]
    action = statistics.median(baseline)
    print(f"baseline: one action of a game (decode, core, reply)  median {action:6.1f} us  "
          f"({', '.join(f'{value:.1f}' for value in baseline)})")
    for name, values in steps.items():
        print(f"  {name:<24} median {statistics.median(values):6.1f} us a race")
    print(f"a race's life around its moves: median {statistics.median(whole):.0f} us "
          f"({', '.join(f'{value:.0f}' for value in whole)}), {statistics.median(whole) / action:.0f} x one action")


if __name__ == "__main__":
    main()
