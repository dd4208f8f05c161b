"""The database away during a moderation request (SQLite and PostgreSQL): every request of the console and every
player's report is answered `storage_failed` (nothing changed: try again), one log line, never `internal_error`
with a traceback as for a request the server failed to handle."""

from __future__ import annotations

import logging

import pytest
from arena_server import drop_schema
from moderation_support import Site
from test_moderation_server import moderator

REQUESTS = (
    {"type": "mod_queue"},
    {"type": "mod_log"},
    {"type": "mod_search", "query": "Target"},
    {"type": "mod_evidence", "player_id": "TARGET"},
    {"type": "mod_action", "action": "mark", "player_id": "TARGET", "reason": "pacing like a program"},
    {"type": "report", "player_id": "TARGET", "reason": "help"},
    {"type": "get_my_reports"},
)


async def test_a_database_failure_during_a_moderation_request_answers_storage_failed(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    warden, target = await moderator(site), await site.player("Target")
    await drop_schema(site.server)
    caplog.set_level(logging.WARNING)
    for request in REQUESTS:
        request = {key: target.player_id if value == "TARGET" else value for key, value in request.items()}
        refused = await warden.request(request)
        assert refused["type"] == "error" and refused["code"] == "storage_failed", (request, refused)
        assert "nothing changed" in refused["message"], refused
    assert not [record for record in caplog.records if record.exc_info], "no traceback: the database is away"
    lines = [record.getMessage() for record in caplog.records if "moderation" in record.getMessage()]
    assert len(lines) == 1, f"one line for the outage, not one a request: {lines}"
