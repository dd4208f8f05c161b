"""docs/bots.md's complete bot is run as written, as a real process, in a race against a real server."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

from freecell_arena.protocol.rooms import RoomOptions, RoomView
from freecell_arena_client import BotRunner, NewRoom, RunConfig
from freecell_arena_client.bots import SolverBot

from .support import REPO, Arena, client_env

BOTS_DOC = REPO / "docs" / "bots.md"


def example_bot() -> str:
    match = re.search(r"```python\n(.*?)```", BOTS_DOC.read_text(), re.S)
    assert match is not None, "docs/bots.md has no python code block"
    return match.group(1)


def test_the_example_is_under_30_lines_and_links_the_protocol() -> None:
    assert len(example_bot().splitlines()) < 30
    assert "(protocol.md)" in BOTS_DOC.read_text()


async def test_the_example_bot_races_against_a_real_server(sqlite_arena: Arena, tmp_path: Path) -> None:
    script = tmp_path / "tidy_bot.py"
    script.write_text(example_bot())
    rooms: asyncio.Future[RoomView] = asyncio.get_running_loop().create_future()
    host = BotRunner(
        SolverBot(),
        RunConfig(server=sqlite_arena.url, name="host", players=2, max_rate_per_s=None,
                  create=NewRoom("freecell", deal=2, options=RoomOptions(countdown_s=0.1))),
        on_room=rooms.set_result,
    )
    hosting = asyncio.ensure_future(host.run())
    process = None
    try:
        code = (await asyncio.wait_for(asyncio.shield(rooms), 10)).code
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(script), sqlite_arena.url, code, cwd=tmp_path, env=client_env(),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), 90)
        hosted = await asyncio.wait_for(hosting, 30)
    finally:
        hosting.cancel()
        if process is not None and process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, err.decode()
    outcome, moves, *_ = out.decode().split()
    assert outcome in ("won", "stuck", "resigned") and int(moves) > 0
    assert hosted.standings is not None
    row = next(row for row in hosted.standings if row.name == "tidy")
    assert row.outcome == outcome and row.moves == int(moves)
