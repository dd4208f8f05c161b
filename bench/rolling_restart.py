"""A rolling restart under load: the pause racers see when every process is replaced in turn, drained beside
killed with -9 (the baseline: what a crash, or a deploy without a drain, costs).

    PYTHONPATH=$PWD python3 bench/rolling_restart.py --bots 150 --rounds 2

For each way of stopping, on a fresh database of one throwaway PostgreSQL and one throwaway redis-server (tests/
conftest.py's): `--processes` servers behind the repository's HAProxy (deploy/haproxy/haproxy.cfg, checks every
`--check-interval-ms`), `--bots` SDK bots racing in rooms of three through it, race after race, every process
replaced `--rounds` times round (tests/server/rolling.py, which tests/server/test_rolling_restart.py runs small in
the suite). Printed per run: races, reconnects, the racers' pauses (from one accepted move to the next within a
game: p50 of each bot's longest, and the longest of all), each replacement's time (stop to the balancer taking the
new process), and whether anything accepted is missing from the store. Traffic stays on 127.0.0.1; the run is
bounded by the races' move cap and `--timeout`.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "server"), str(BENCH)]

from cluster import fixtures  # noqa: E402  (bench/cluster.py: tests/conftest.py's PostgreSQL and Redis)
from rolling import Run, Shape, Stop, cluster_behind_haproxy, rolling_restart_under_load  # noqa: E402


async def one_run(database_url: str, redis_url: str, shape: Shape, stop: Stop, timeout_s: float,
                  keep_logs: Path | None = None) -> tuple[Run, int]:  # fmt: skip
    """The run, and how many accepted moves the store does not hold as the bots were told."""
    from freecell_arena.store import SqlStore

    with tempfile.TemporaryDirectory(prefix="rolling-") as folder:
        async with asyncio.timeout(timeout_s):
            async with cluster_behind_haproxy(Path(folder), database_url, redis_url, shape) as cluster:
                run = await rolling_restart_under_load(cluster, stop)
        if keep_logs is not None:  # the servers' and the balancer's
            keep_logs.mkdir(parents=True, exist_ok=True)
            for log in Path(folder).glob("*.log"):
                shutil.copy(log, keep_logs / f"{stop.replace(' ', '')}-{log.name}")
    store = SqlStore(database_url)
    missing = 0
    try:
        for failure in run.failures():  # what the store says of a room that did not end
            if failure.startswith("room ") and (stored := await store.room_by_code(failure.split()[1])) is not None:
                games = [await store.game(game_id) for game_id in stored.game_ids]
                print(f"stored {failure.split()[1]}: {stored.status}, seq {stored.seq}, started {stored.started_at}, "
                      f"finished {stored.finished_at}, members {[m.player_id for m in stored.members]}, games "
                      f"{[(g.game.player_id, len(g.moves), g.result and g.result.outcome) for g in games if g]}",
                      file=sys.stderr)  # fmt: skip
        for bot in run.bots:
            for game_id, accepted in bot.accepted.items():
                stored = await store.game(game_id)
                actions = {move.index: move.notation for move in stored.moves} if stored else {}
                missing += sum(actions.get(index) != action for index, action in accepted.items())
    finally:
        await store.close()
    return run, missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--bots", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--moves-per-s", type=float, default=4.0, help="each bot's pace")
    parser.add_argument("--max-moves", type=int, default=100, help="a bot resigns after this many moves")
    parser.add_argument("--check-interval-ms", type=int, default=2000, help="HAProxy's (the drain grace is 2 of them)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds, per run")
    parser.add_argument("--stop", choices=("drain", "kill -9", "both"), default="both")
    parser.add_argument("--show-pauses", type=int, default=5, help="the bots with the longest pauses, listed")
    parser.add_argument("--log", metavar="FILE", help="the bots' log (freecell_arena_client, INFO), timed")
    parser.add_argument("--keep-logs", metavar="FOLDER", type=Path, help="keep the servers' and HAProxy's logs here")
    args = parser.parse_args()
    shape = Shape(processes=args.processes, bots=args.bots, rounds=args.rounds, moves_per_s=args.moves_per_s,
                  max_moves=args.max_moves, check_interval_ms=args.check_interval_ms)  # fmt: skip
    if args.log:
        import logging

        handler = logging.FileHandler(args.log)
        handler.setFormatter(logging.Formatter("%(created).3f %(name)s %(message)s"))
        client_log = logging.getLogger("freecell_arena_client")
        client_log.addHandler(handler)
        client_log.setLevel(logging.INFO)
        client_log.propagate = False
    module = fixtures()
    rows = []
    with module.throwaway_postgres() as postgres, module.throwaway_redis() as redis_server:
        for stop in ("drain", "kill -9") if args.stop == "both" else (args.stop,):
            url = postgres.url(postgres.create_database())
            subprocess.run([sys.executable, "-m", "freecell_arena", "migrate", "--database-url", url], cwd=REPO,
                           check=True, capture_output=True, timeout=120)  # fmt: skip
            redis_server.flush()
            began = time.monotonic()
            run, missing = asyncio.run(one_run(url, redis_server.url, shape, stop, args.timeout, args.keep_logs))
            rows.append((run, missing, time.monotonic() - began))
    print(f"{shape.processes} processes behind HAProxy (checks every {shape.check_interval_ms} ms, drain grace "
          f"{shape.drain_grace_s:g} s), {shape.bots} bots in rooms of 3 at {shape.moves_per_s:g} moves/s, "
          f"{shape.rounds} round(s) of replacements; PostgreSQL + Redis on loopback")  # fmt: skip
    print(f"{'stop':<9} {'races':>6} {'reconnects':>11} {'pause p50':>10} {'longest':>8} {'replace':>9} "
          f"{'lost':>5} {'failed':>7} {'run':>6}")  # fmt: skip
    for run, missing, seconds in rows:
        longest = [bot.longest_pause_s() for bot in run.bots]
        print(f"{run.stop:<9} {len(run.races):>6} {sum(bot.reconnects for bot in run.bots):>11} "
              f"{statistics.median(longest):>8.2f} s {max(longest):>6.2f} s "
              f"{statistics.median(run.replacements_s):>7.1f} s {missing:>5} {len(run.failures()):>7} "
              f"{seconds:>4.0f} s")  # fmt: skip
    for run, _, _ in rows:
        for failure in run.failures():
            print(f"failed ({run.stop}): {failure}")
        began = run.stopped_at[0] if run.stopped_at else 0.0
        stops = ", ".join(f"{moment - began:.1f}" for moment in run.stopped_at)
        wall = time.time() - time.monotonic() + began  # the log's clock (--log) at the first stop
        print(f"{run.stop}: the stops at {stops} s after the first (time {wall:.3f}); the longest pauses:")
        worst = sorted(((bot.longest_pause(), bot.name) for bot in run.bots), reverse=True)[:args.show_pauses]
        for (seconds, game_id, since), name in worst:
            print(f"  {name:<8} {seconds:6.2f} s from {since - began:7.1f} s  game {game_id}")
    print("pause p50: the median over bots of each one's longest wait between two accepted moves of a game "
          f"(the pace alone is {1 / shape.moves_per_s:.2f} s); replace: median seconds from a stop to the balancer "
          "sending players to the new process; lost: accepted moves not stored as told (must be 0); failed: races a "
          "bot could not finish (must be 0)")


if __name__ == "__main__":
    main()
