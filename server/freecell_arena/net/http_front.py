"""What answers plain HTTP on the game's port: `/metrics`, `/healthz`, `/readyz`, the browser app and `/api/`.

Every request on the port comes to `process_request` first (net/game_socket.py): a plain HTTP request gets its
answer here, a websocket handshake gets None and goes on to a `Connection`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus

from websockets.http11 import Request, Response

from freecell_arena.core.ports.records import RecordWriter
from freecell_arena.core.server_store import ServerStore
from freecell_arena.net.http_api import API_PREFIX, HttpApi, error_response, method_not_allowed, response
from freecell_arena.net.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from freecell_arena.net.metrics import ServerMetrics
from freecell_arena.net.ratelimit import AddressBuckets
from freecell_arena.net.throttled_log import ThrottledLog
from freecell_arena.net.web import WebApp
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProcessStatus:
    """What the health answers tell of the server process (net/app.py hands these, not itself)."""

    shutting_down: Callable[[], bool]
    draining: Callable[[], bool]
    """A stop has begun: not ready for new players (true from the signal on; `shutting_down` once the grace is over)."""
    rooms_held: Callable[[], int]
    connections: Callable[[], int]
    """Greeted connections."""


class HttpFront:
    def __init__(
        self, settings: Settings, store: ServerStore, writer: RecordWriter, metrics: ServerMetrics, web: WebApp,
        api: HttpApi, status: ProcessStatus,
    ) -> None:  # fmt: skip
        self.settings = settings
        self.store = store
        self.writer = writer
        self.metrics = metrics
        self.web = web
        self.api = api
        self.status = status
        self.api_limit = AddressBuckets(settings.api.rate_limit_per_s, settings.api.rate_limit_burst)
        """Requests to `/api/` per client address: each may be a database read, a review may solve a par."""
        self.limit_log = ThrottledLog(log)

    async def process_request(self, address: str, request: Request) -> Response | None:
        """`address`: the client's (net/client_address.py)."""
        answer = self.refuse_over_limit(address, request) or await self.answer(request)
        if answer is not None:  # the connection closes after a plain HTTP answer: say so, or a browser
            answer.headers["Connection"] = "close"  # keeps it for its next file, finds it dead and asks again
        return answer

    def refuse_over_limit(self, address: str, request: Request) -> Response | None:
        """429 for an API request past the address's limit (the app's files, `/metrics` and the health checks are
        not counted: a browser loads many files, a balancer checks often); None lets it through."""
        if not request.path.startswith(API_PREFIX) or self.api_limit.allow(address):
            return None
        self.metrics.limit_refusals["http_api"] += 1
        self.limit_log.warning("http_api", f"refused an HTTP API request from {address}: over its limit")
        limit = self.settings.api.rate_limit_per_s, self.settings.api.rate_limit_burst
        retry_after = ("Retry-After", str(max(1, math.ceil(self.api_limit.wait(address)))))
        message = f"too many API requests from your address: at most {limit[0]:g} a second (bursts of {limit[1]})"
        return error_response(ErrorCode.rate_limited, message, retry_after)

    async def answer(self, request: Request) -> Response | None:
        """A plain HTTP request's answer; None for a websocket handshake (websockets goes on with it)."""
        if request.method != "GET":
            return method_not_allowed(request.method)
        path = request.path.split("?")[0]
        if path == "/metrics":
            self.metrics.ready = await self.not_ready_because() is None
            return response(HTTPStatus.OK, self.metrics.render(), METRICS_CONTENT_TYPE)
        if path == "/healthz":
            return self._health(HTTPStatus.SERVICE_UNAVAILABLE if self.status.shutting_down() else HTTPStatus.OK, None)
        if path == "/readyz":
            reason = await self.not_ready_because()
            return self._health(HTTPStatus.OK if reason is None else HTTPStatus.SERVICE_UNAVAILABLE, reason)
        page = self.web.respond(request)
        if page is not None:
            return page
        return await self.api.respond(request)

    def _health(self, status: HTTPStatus, reason: str | None) -> Response:
        if self.status.shutting_down():
            state = "shutting_down"
        elif self.status.draining():
            state = "draining"  # serving on, but not ready: the balancer sends nothing new
        else:
            state = "ok" if status == HTTPStatus.OK else "not_ready"
        body: dict[str, object] = {
            "status": state,
            "rooms": self.status.rooms_held(),
            "connections": self.status.connections(),
            "pid": os.getpid(),
        }
        if reason is not None:
            body["reason"] = reason
        return response(status, (json.dumps(body) + "\n").encode(), "application/json")

    async def not_ready_because(self) -> str | None:
        """Readiness (`GET /readyz`): None when this process can take players, else why not. Liveness
        (`/healthz`) only says the process answers; a load balancer should send players by readiness, so a
        server that cannot store a move (database down, disk full) gets none."""
        stopping = self._stopping_because()
        if stopping is not None:
            return stopping
        failed_at = self.writer.last_failure_at
        if failed_at is not None and time.monotonic() - failed_at < self.settings.store.readiness_failure_window_s:
            return "the last write to the database failed"
        try:
            async with asyncio.timeout(self.settings.store.readiness_timeout_s):
                await self.store.ping()
        except Exception as error:  # any failure to answer is the answer
            return f"the database does not answer ({type(error).__name__})"
        # SIGTERM may have come while the database answered: the reply must say what the body will say
        return self._stopping_because()

    def _stopping_because(self) -> str | None:
        if self.status.shutting_down():
            return "shutting down"
        if self.status.draining():
            return "draining: stopping once the balancer has taken this process out"
        return None
