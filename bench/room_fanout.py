"""Room fan-out: frames sent to a 64-player room per accepted move, with and without progress coalescing.

    PYTHONPATH=$PWD python3 bench/room_fanout.py --players 64 --duration 5

Each run starts a real server in this process (a fresh SQLite file, loopback port) with a given
`progress_window_ms`, opens `--players` websocket clients, puts them all in one room and has every one play legal
moves flat out (chosen by the engine on its own copy of the game) for `--duration` seconds. Counted: moves
accepted, and the `progress` frames all members received. Without coalescing each move is a frame to each of the
other 63 members; with it, each member gets at most one frame per racer per window. The baseline is the run with
coalescing off, measured in the same invocation. Traffic stays on 127.0.0.1; every run is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "server"), str(REPO / "bench")]

from ws_player import WsPlayer, pick_move  # noqa: E402


class Racer(WsPlayer):
    def __init__(self, url: str, index: int) -> None:
        super().__init__(url, f"racer-{index}")
        self.moves = 0
        self.game: Any = None
        self.rng = random.Random(index)

    async def play(self, until: float) -> None:
        from freecell_arena.engine import format_move

        while time.monotonic() < until and not self.game.board.is_won():
            move = pick_move(self.game, self.rng)
            if move is None:
                return
            reply = await self.request({"type": "move", "move": format_move(self.game.variant, move)})
            if reply.get("type") != "move_accepted":
                return
            self.moves += 1
            self.game.play(move)


async def one_run(players: int, duration_s: float, window_ms: float, folder: Path) -> tuple[int, int]:
    from freecell_arena.engine import Game, variant_by_id
    from freecell_arena.net.app import ArenaServer
    from freecell_arena.settings import Settings
    from freecell_arena.store import GroupCommitWriter, SqlStore, migrate

    url = f"sqlite+aiosqlite:///{folder / f'fanout-{window_ms:g}.db'}"
    await migrate(url)
    settings = Settings(
        host="127.0.0.1", port=0, database_url=url, progress_window_ms=window_ms, daily_prepare_interval_s=0,
        rate_limit_per_s=100_000, rate_limit_burst=100_000, max_connections_per_address=100_000,
        new_players_per_minute=1e9, api_rate_limit_per_s=1e6, api_rate_limit_burst=1_000_000,
    )  # fmt: skip
    store = SqlStore(url)
    server = ArenaServer(settings, store, GroupCommitWriter(store))
    await server.start()
    racers = [Racer(f"ws://127.0.0.1:{server.port}/", index) for index in range(players)]
    try:
        await asyncio.gather(*(racer.open() for racer in racers))
        host = racers[0]
        options = {"countdown_s": 0, "autoplay": True, "max_players": players}
        created = await host.request({"type": "create_room", "variant": "freecell", "deal": 11, "options": options})
        code = created["room"]["code"]
        for racer in racers[1:]:
            await racer.request({"type": "join_room", "code": code})
        await host.request({"type": "start_race"})
        for racer in racers:
            started = await racer.expect("race_started")
            racer.game = Game(variant_by_id("freecell"), int(started["game"]["seed"]), autoplay=True)
            racer.progress_frames = 0
        until = time.monotonic() + duration_s
        await asyncio.gather(*(racer.play(until) for racer in racers))
        await asyncio.sleep(max(0.3, 3 * window_ms / 1000))  # the last window's frames arrive
        return sum(racer.moves for racer in racers), sum(racer.progress_frames for racer in racers)
    finally:
        for racer in racers:
            with contextlib.suppress(Exception):
                await racer.close()
        await server.shutdown()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--window-ms", type=float, default=100.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="freecell-arena-fanout-") as folder:
        rows = []
        for window in (0.0, args.window_ms):
            moves, frames = await one_run(args.players, args.duration, window, Path(folder))
            rows.append((window, moves, frames))
    print(f"{args.players} players in one room, flat out for {args.duration:g} s (SQLite, loopback)")
    print(f"{'progress window':>16} {'moves':>8} {'progress frames':>16} {'frames/move':>12}")
    for window, moves, frames in rows:
        label = "off (baseline)" if window == 0 else f"{window:g} ms"
        print(f"{label:>16} {moves:>8} {frames:>16} {frames / max(moves, 1):>12.2f}")
    base, coalesced = (frames / max(moves, 1) for _, moves, frames in rows)
    print(f"coalescing sends {coalesced / base:.3f} x the frames per move of the baseline")


if __name__ == "__main__":
    asyncio.run(main())
