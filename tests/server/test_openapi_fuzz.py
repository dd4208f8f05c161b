"""`/api/` fuzzed by Schemathesis against docs/schema/openapi.json, on a live server on loopback (a real process,
a real SQLite file): every answer's status, content type, headers and body must be what the document says, no
answer a 5xx, each within 5 s, the whole run bounded in time.

The server holds a finished race first (a bot's win of FreeCell deal 6), and the document's path parameters get
its ids as examples, so the fuzzing reaches boards, histories, players, reviews and shares that exist, not only
404s. Schemathesis runs as its command line in a subprocess: it speaks plain HTTP like any client.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from arena_client import ArenaClient
from boards_helpers import play, winning_moves
from racing import open_race
from serverprocess import REPO, running_server, server_env

from freecell_arena.protocol.contract import HTTP_ROUTES, STREAM_ROUTES

SEED = 6
FUZZ_SECONDS = 20
"""Schemathesis's time budget (`--max-time`): its phases repeat until it is spent."""
CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_headers_conformance", "response_schema_conformance")  # fmt: skip
"""What every answer is held to. (`positive_data_acceptance` is not among them: a well-formed query for a player
or a day that does not exist is rightly a 404, which the document lists.)"""


async def finished_race(url: str) -> dict[str, str]:
    """A bot's ranked win of deal SEED: the ids the document's examples point at."""
    bot = await ArenaClient.open(url)
    await bot.hello("fuzzbot", bot=True)  # a bot's win at machine speed counts (on the bots' board)
    code, games = await open_race(bot, [], "freecell", seed=SEED)
    await play(bot, winning_moves("freecell", SEED))
    await bot.expect("race_over", code=code)
    assert bot.player_id is not None
    await bot.close()
    return {"player_id": bot.player_id, "game_id": games[bot.player_id]["game_id"], "code": code,
            "seed": str(SEED), "variant": "freecell"}  # fmt: skip


def with_examples(document: dict[str, Any], examples: dict[str, str]) -> dict[str, Any]:
    """The document, its path parameters given these examples (Schemathesis's examples phase sends them)."""
    for operation in document["paths"].values():
        for parameter in operation["get"]["parameters"]:
            if parameter["in"] == "path" and parameter["name"] in examples:
                parameter["example"] = examples[parameter["name"]]
    return document


async def test_the_http_api_answers_as_its_openapi_document_says(tmp_path: Path) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'fuzz.db'}"
    async with running_server(REPO, database_url=database_url, env=server_env()) as server:
        examples = await finished_race(server.url)
        document = json.loads((REPO / "docs" / "schema" / "openapi.json").read_text())
        schema = tmp_path / "openapi.json"
        schema.write_text(json.dumps(with_examples(document, examples)))
        command = [
            sys.executable, "-m", "schemathesis.cli", "--no-color", "run", str(schema),
            "--url", f"http://127.0.0.1:{server.port}",
            "--checks", ",".join(CHECKS),
            "--max-response-time", "5",
            "--request-timeout", "10",
            "--max-time", str(FUZZ_SECONDS),
            "--workers", "1",
            "--phases", "examples,coverage,fuzzing",
            "--suppress-health-check", "too_slow,filter_too_much",
            "--generation-database", "none",
        ]  # fmt: skip
        env = {**os.environ, "SCHEMATHESIS_TELEMETRY": "false", "NO_COLOR": "1"}
        process = await asyncio.create_subprocess_exec(
            *command, cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        try:
            async with asyncio.timeout(FUZZ_SECONDS + 240):
                output, _ = await process.communicate()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        report = output.decode(errors="replace")
        assert process.returncode == 0, report[-6000:]
        assert f"Tested: {len(HTTP_ROUTES) + len(STREAM_ROUTES)}" in report, report[-3000:]  # every route
