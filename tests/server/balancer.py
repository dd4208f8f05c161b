"""The repository's HAProxy (deploy/haproxy/haproxy.cfg, as docker-compose.yml's `lb` runs it) in front of servers on
loopback ports: the Debian haproxy with the replica addresses, the listening address and the check interval from
the environment, as the file allows. Used by test_load_balancer.py and the rolling restart (rolling.py)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "deploy" / "haproxy" / "haproxy.cfg"
HAPROXY = "/usr/sbin/haproxy"


def balancer_env(listen_port: int, replica_ports: list[int], check_interval: str | None = None) -> dict[str, str]:
    env = dict(os.environ, ARENA_LISTEN=f"127.0.0.1:{listen_port}")
    for number, port in enumerate(replica_ports, start=1):
        env[f"ARENA_REPLICA_{number}"] = f"127.0.0.1:{port}"
    if check_interval is not None:
        env["ARENA_CHECK_INTERVAL"] = check_interval
    return env


@contextlib.contextmanager
def running_haproxy(env: dict[str, str], log: Path, binary: str = HAPROXY) -> Iterator[subprocess.Popen[bytes]]:
    """HAProxy in the foreground (`-db`), its log in `log`; stopped (killed if it must be) at the end."""
    with log.open("wb") as output:
        process = subprocess.Popen([binary, "-db", "-f", str(CONFIG)], env=env, stdout=output, stderr=output)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
