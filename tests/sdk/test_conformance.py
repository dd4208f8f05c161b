"""The conformance transcripts (clients/conformance/transcripts/), replayed by the Python SDK's player
(`freecell_arena_client.conformance`) against a real server process started with each transcript's settings: every
request, every error a plain connection can meet, reconnects, limits. The JavaScript client replays the same files
under `node --test` (clients/javascript/tests/), so both languages are held to one contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from freecell_arena_client import conformance

from .support import REPO, serverprocess

TRANSCRIPTS = sorted((REPO / "clients" / "conformance" / "transcripts").glob("*.json"))


def test_the_transcripts_cover_every_request_and_every_close_code() -> None:
    from freecell_arena.protocol.contract import EXCHANGES

    sent = {step["send"].get("type") for path in TRANSCRIPTS for step in conformance.load(path)["steps"]
            if "send" in step}  # fmt: skip
    closes = {step["closed"] for path in TRANSCRIPTS for step in conformance.load(path)["steps"] if "closed" in step}
    needs_a_passkey = {"rename_passkey", "revoke_token", "new_bot_token"}  # a saved account's own (tests/accounts)
    assert set(EXCHANGES) - needs_a_passkey <= sent, set(EXCHANGES) - sent
    assert {1009, 4000} <= closes


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[path.stem for path in TRANSCRIPTS])
async def test_the_server_answers_as_the_transcript_says(path: Path, tmp_path: Path) -> None:
    transcript = conformance.load(path)
    env = serverprocess.server_env(**transcript["settings"])
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
    async with serverprocess.running_server(REPO, database_url=database_url, env=env) as server:
        variables = await conformance.replay(server.url, transcript)
    assert variables, "the transcript bound its ids"


async def test_a_transcript_that_differs_from_the_server_fails_naming_the_step(tmp_path: Path) -> None:
    """The player is no rubber stamp: one changed value in an expected frame fails the replay at that step."""
    transcript = conformance.load(REPO / "clients" / "conformance" / "transcripts" / "queries.json")
    steps = json.loads(json.dumps(transcript["steps"]))
    board = next(step for step in steps if step.get("expect", {}).get("type") == "season")
    board["expect"]["total"] = 1
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
    env = serverprocess.server_env(**transcript["settings"])
    async with serverprocess.running_server(REPO, database_url=database_url, env=env) as server:
        with pytest.raises(conformance.ConformanceError, match=r"step \d+ .*\.total: expected 1, got 0"):
            await conformance.replay(server.url, {**transcript, "steps": steps})
