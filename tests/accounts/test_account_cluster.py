"""A revocation crosses processes: two real server processes on one PostgreSQL and one Redis, a bot connected
to one, its token revoked on the other: the bot's connection closes (4001) and its token is refused on both."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest
from arena_client import ArenaClient, connect_player
from authenticator import SoftwareAuthenticator
from serverprocess import running_server, server_env
from test_cluster import cluster_database_url
from websockets.exceptions import ConnectionClosed

from freecell_arena.core.identity import hash_token
from freecell_arena.net.connection import CLOSE_REVOKED

pytestmark = pytest.mark.postgres
__all__ = ["cluster_database_url"]  # the fixture, used by name
PUBLIC_URL = "http://localhost:8765"
"""What both processes name as their address (behind one balancer): passkeys are the cluster's, not a process's."""


async def test_a_token_revoked_on_one_process_closes_its_connection_on_another(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    env = server_env(FREECELL_ARENA_REDIS_URL=redis_url, FREECELL_ARENA_PUBLIC_URL=PUBLIC_URL)
    async with contextlib.AsyncExitStack() as stack:
        processes = []
        for index in range(2):
            folder = tmp_path / f"process-{index}"
            folder.mkdir()
            processes.append(
                await stack.enter_async_context(running_server(folder, database_url=cluster_database_url, env=env))
            )
        await asyncio.sleep(0.5)  # each process subscribes to Redis once it serves
        ada = await connect_player(processes[0].url, "Ada")
        options = await ada.request({"type": "passkey_begin", "ceremony": "save"})
        _, response = SoftwareAuthenticator().create(json.dumps(options["options"]), PUBLIC_URL)
        saved = await ada.request({"type": "passkey_finish", "ceremony": "save", "credential": json.loads(response)})
        assert saved["saved"], saved
        made = await ada.request({"type": "create_bot", "name": "Solvy"})
        bot = await ArenaClient.open(processes[1].url)
        await bot.hello("Solvy", token=made["token"])
        try:
            revoked = await ada.request({"type": "revoke_token", "token_id": hash_token(made["token"])})
            assert revoked["type"] == "account"
            with pytest.raises(ConnectionClosed) as closed:
                await bot.expect("never")
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_REVOKED
            for process in processes:
                again = await ArenaClient.open(process.url)
                refused = await again.request({"type": "hello", "name": "Solvy", "token": made["token"]})
                assert refused["code"] == "revoked_token"
                await again.close()
        finally:
            for client in (ada, bot):
                with contextlib.suppress(Exception):
                    await client.close()
