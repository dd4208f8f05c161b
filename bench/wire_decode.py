"""What strict frames cost on the move path: decoding a move frame strictly (protocol 4) beside the same models read
laxly (protocol 3's reading, the baseline of the same run), and one whole in-process action (decode, core, the reply
as wire text) with a request of each form.

    PYTHONPATH=$PWD/server python3 bench/wire_decode.py

CPU time (`time.process_time`), the minimum and the median of `--runs` runs: the machine's other load moves the
median, the minimum is the code's own cost. Also printed: the bytes of each `move_accepted`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from tournament_pairing import adopted

from freecell_arena.core.arena import Arena
from freecell_arena.core.clock import SystemClock
from freecell_arena.protocol.codec import decode
from freecell_arena.protocol.registry import CLIENT_MESSAGES
from freecell_arena.protocol.rooms import CreateRoomRequest, RoomOptions, StartRaceRequest
from freecell_arena.protocol.session import HelloRequest
from freecell_arena.protocol.trusted import wire_text

FRAMES = (
    '{"type":"move","id":7,"move":"1a"}',
    '{"type":"undo","id":8}',
    '{"type":"move","id":9,"move":{"from":"tableau","from_index":0,"to":"cell"}}',
    '{"type":"undo","id":10}',
)
"""A move in each form, each taken back: the game goes round without ending."""


def per_call_us(work: Callable[[], None], calls: int, runs: int) -> list[float]:
    results = []
    for _ in range(runs):
        start = time.process_time()
        for _ in range(calls):
            work()
        results.append((time.process_time() - start) / calls * 1e6)
    return results


def shown(name: str, values: list[float], baseline: list[float] | None = None) -> str:
    text = f"{name:<44} min {min(values):6.2f} us  median {statistics.median(values):6.2f} us"
    if baseline is not None:
        text += f"  ({min(values) / min(baseline):.2f} x the baseline's min)"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()

    moves = [FRAMES[0], FRAMES[2]]
    lax: list[float] = []
    strict: list[float] = []
    for _ in range(args.runs):  # alternating, so the machine's load falls on both alike
        lax += per_call_us(lambda: [CLIENT_MESSAGES.validate_json(frame, strict=False) for frame in moves], args.calls,
                           1)  # fmt: skip
        strict += per_call_us(lambda: [CLIENT_MESSAGES.validate_json(frame) for frame in moves], args.calls, 1)
    print(shown("baseline: the two move frames read laxly", lax))
    print(shown("the same read strictly (protocol 4)", strict, lax))

    arena = Arena(SystemClock())
    player, registration = arena.register(HelloRequest(name="bench", bot=True))
    adopted(registration)
    request = CreateRoomRequest(variant="freecell", deal="1", options=RoomOptions(countdown_s=0))
    adopted(arena.handle(player, request), claimed=True)
    adopted(arena.handle(player, StartRaceRequest()), claimed=True)
    time.sleep(0.01)
    for effect in arena.tick():
        adopted(effect, claimed=True)
    sizes: list[int] = []

    def action_round() -> None:
        for frame in FRAMES:
            request = decode(frame)
            assert not hasattr(request, "code"), request
            for reply in adopted(arena.handle(player, request), claimed=True).replies:
                wire_text(reply)

    for frame in FRAMES:
        sizes.append(len(wire_text(adopted(arena.handle(player, decode(frame)), claimed=True).replies[0])))
    rounds = per_call_us(action_round, args.calls // 10, args.runs)
    print(shown("one action in process (decode, core, reply)", [value / len(FRAMES) for value in rounds]))
    print(f"move_accepted bytes (move, undo, structured move, undo): {sizes}")


if __name__ == "__main__":
    main()
