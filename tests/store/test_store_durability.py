"""Every acknowledged record survives the writer's process being killed (SIGKILL), on both backends.

A child process keeps 20 submissions in flight through a GroupCommitWriter and prints `acked N` after each
acknowledgement. Once it has printed enough, it is killed without warning; every N it printed must then be
in the database. (A killed process is not a power cut: that part rests on fsync, see docs/storage.md.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from store_builders import game, player

from freecell_arena.store import SqlStore

REPOSITORY = Path(__file__).resolve().parents[2]
ACKS_BEFORE_KILL = 300

CHILD = """
import asyncio, sys
from datetime import UTC, datetime
from freecell_arena.core.ports.records import MoveRecord
from freecell_arena.store import GroupCommitWriter, SqlStore

async def main(url: str, game_id: str) -> None:
    writer = GroupCommitWriter(SqlStore(url))

    async def submit(index: int) -> None:
        await writer.submit(MoveRecord(game_id, index, "3a", datetime.now(UTC)))
        print(f"acked {index}", flush=True)

    in_flight: set[asyncio.Task[None]] = set()
    for index in range(100_000):  # bounded: never outlives a lost parent for long
        if len(in_flight) >= 20:
            done, in_flight = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        in_flight.add(asyncio.create_task(submit(index)))

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


async def test_every_acknowledged_record_survives_sigkill(database_url: str) -> None:
    owner = player()
    played = game(1, owner)
    store = SqlStore(database_url)
    await store.write([owner, played])
    await store.close()

    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPOSITORY), environment.get("PYTHONPATH")]))
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, database_url, played.game_id],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    assert child.stdout is not None
    acked: list[int] = []
    try:
        while len(acked) < ACKS_BEFORE_KILL:
            line = child.stdout.readline()
            if not line:
                break
            acked.append(int(line.removeprefix("acked ")))
    finally:
        child.send_signal(signal.SIGKILL)
        rest, errors = child.communicate(timeout=60)
    assert len(acked) >= ACKS_BEFORE_KILL, errors
    acked += [int(line.removeprefix("acked ")) for line in rest.splitlines() if line.startswith("acked ")]
    assert child.returncode == -signal.SIGKILL

    store = SqlStore(database_url)
    stored = await store.game(played.game_id)
    await store.close()
    assert stored is not None
    missing = set(acked) - {move.index for move in stored.moves}
    assert not missing, f"{len(missing)} acknowledged moves were lost, e.g. {sorted(missing)[:5]}"
