"""`freecell-arena drain [--url URL | --pid PID]`: drain one running server process and wait until it is gone.

What SIGTERM does, asked by name and watched to the end, for scripts and operators: the process fails `/readyz`
at once (a balancer sends it nothing new), serves its players on for `FREECELL_ARENA_DRAIN_GRACE_S`, closes them
with 1012 (they reconnect at once, to another process, which takes their rooms from the store), finishes its
writes and exits within `FREECELL_ARENA_SHUTDOWN_TIMEOUT_S`. This command returns when it has exited: 0, or 1 if
it is still there after the timeout (it is then left to the service manager's kill).

The process is named by its pid, or by the address it serves (default: `FREECELL_ARENA_HOST`/`_PORT`, as `serve`
reads them), whose `/healthz` says its pid: a signal needs the process on this machine (in a container: run it
inside, `docker compose exec server-1 freecell-arena drain`). A worker of `serve --workers N` drained this way is
replaced by its supervisor; to replace them all one at a time, send the supervisor SIGHUP (`systemctl reload`).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

from freecell_arena.commands.common import fail

if TYPE_CHECKING:
    from freecell_arena.settings import Settings

POLL_S = 0.1
MARGIN_S = 5.0  # beyond the process's shutdown timeout: its last writes and the exit itself


class NotDrainable(Exception):
    """The target cannot be drained from here: the message says why."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Drain a running server process (as SIGTERM does: /readyz fails at once, its players play on for the drain "
        "grace, then reconnect elsewhere on 1012) and wait until it has exited. Exit 0 once it is gone."
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--url", help="the process serving here (its /healthz names it; default: the settings' "
                                      "host and port, e.g. http://127.0.0.1:8765)")
    target.add_argument("--pid", type=int, help="the process with this pid")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds to wait for the exit (default: FREECELL_ARENA_SHUTDOWN_TIMEOUT_S + 5)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from freecell_arena.settings import Settings

    try:
        settings = Settings.from_names({})
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        return fail(f"bad setting {Settings.name_at(first['loc'])}: {first['msg']}")
    timeout_s = args.timeout if args.timeout is not None else settings.process.shutdown_timeout_s + MARGIN_S
    if timeout_s <= 0:
        return fail("--timeout must be more than 0 seconds")
    try:
        pid = args.pid if args.pid is not None else pid_serving(args.url or settings_url(settings))
        check_is_a_server(pid)
        os.kill(pid, signal.SIGTERM)
    except NotDrainable as error:
        return fail(str(error))
    except ProcessLookupError:
        return fail(f"no process {pid}")
    except PermissionError:
        return fail(f"not allowed to signal process {pid} (run as its user)")
    grace = settings.process.drain_grace_s
    print(f"freecell-arena: draining pid {pid}: /readyz fails now"
          + (f", its players play on {grace:g} s (this machine's FREECELL_ARENA_DRAIN_GRACE_S)" if grace else "")
          + f", then reconnect elsewhere (1012); waiting up to {timeout_s:g} s", flush=True)
    began = time.monotonic()
    while is_running(pid):
        if time.monotonic() - began > timeout_s:
            return fail(f"pid {pid} is still running after {timeout_s:g} s", code=1)
        time.sleep(POLL_S)
    print(f"freecell-arena: pid {pid} stopped after {time.monotonic() - began:.1f} s", flush=True)
    return 0


def settings_url(settings: Settings) -> str:
    process = settings.process
    host = "127.0.0.1" if process.host in ("", "0.0.0.0") else "::1" if process.host == "::" else process.host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{process.port}"


def pid_serving(url: str) -> int:
    """The pid `url`'s `/healthz` reports (a fresh connection: behind a shared port, whichever process took it)."""
    address = url.rstrip("/").replace("ws://", "http://", 1).replace("wss://", "https://", 1) + "/healthz"
    try:
        with urllib.request.urlopen(address, timeout=5) as answer:
            body = json.load(answer)
    except urllib.error.HTTPError as error:  # 503 while stopping: the body still names the process
        body = json.load(error)
    except (OSError, ValueError) as error:
        raise NotDrainable(f"no server answers at {address}: {getattr(error, 'reason', error)}") from None
    pid = body.get("pid") if isinstance(body, dict) else None
    if not isinstance(pid, int):
        raise NotDrainable(f"{address} did not say its pid: is it a freecell-arena server?")
    return pid


def check_is_a_server(pid: int) -> None:
    """Refuse anything but a freecell-arena process of this machine (a pid from another machine or container
    could name anything here)."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not cmdline.parent.exists():
        if Path("/proc/self").exists():
            raise NotDrainable(f"no process {pid} on this machine (drain runs where the server runs)")
        return  # no /proc to look in: the signal itself tells whether the pid exists
    words = cmdline.read_bytes().split(b"\0")
    if not any(b"freecell_arena" in word or b"freecell-arena" in word for word in words) or b"serve" not in words:
        raise NotDrainable(f"process {pid} is not a freecell-arena server of this machine")


def is_running(pid: int) -> bool:
    """Alive and not a zombie (an exited child its parent has not waited for yet counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"
