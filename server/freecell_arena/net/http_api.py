"""Plain HTTP GET on the game's port: the read-only queries as JSON, for browsers, scripts and caches.

The routes are `freecell_arena.protocol.contract.HTTP_ROUTES` (each answers like a websocket request; the table
is in docs/protocol.md and the OpenAPI document, docs/schema/openapi.json, both generated from it).

Path and query parameters become the fields of the same pydantic request model the websocket uses, and the
same `Queries` code answers, so the two always agree. The body is the reply message's JSON (with its
`type`); a refusal is the websocket's `error` message with an HTTP status: 400 for bad parameters, 404 for
something unknown (including an unknown route), 429 past the per-address limit (with `Retry-After`; see
`HttpFront`), 503 while shutting down, 500 for a server fault.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from pydantic import TypeAdapter, ValidationError
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from freecell_arena.core.effects import Refusal
from freecell_arena.net.queries import Queries
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.protocol.codec import describe
from freecell_arena.protocol.contract import HTTP_ROUTES, HTTP_STATUS_OF_CODE, STREAM_ROUTES, HttpRoute, StreamRoute
from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
from freecell_arena.protocol.export import NDJSON, NEXT_PAGE_HEADER, PlayerGamesQuery
from freecell_arena.protocol.wire import Message, encode

log = logging.getLogger(__name__)
failures = ThrottledLog(log)

API_PREFIX = "/api/"
STATUS_OF_CODE = {code: HTTPStatus(status) for code, status in HTTP_STATUS_OF_CODE.items()}

Fields = dict[str, str]


def _route(route: HttpRoute | StreamRoute) -> tuple[Any, ...]:
    pattern = re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", route.path))
    fixed = route.fixed if isinstance(route, HttpRoute) else {}
    typed = route.request.model_fields.get("type")
    type_name = typed.default if typed is not None else None
    return pattern, TypeAdapter(route.request), lambda fields: {**fields, **fixed}, type_name, frozenset(route.query)


ROUTES = tuple(_route(route) for route in (*HTTP_ROUTES, *STREAM_ROUTES))
"""`protocol.contract.HTTP_ROUTES` (the OpenAPI document's paths) as patterns, each with its request's adapter and
the query parameters it takes."""


ALLOWED_METHODS = "GET"
"""Every HTTP route only reads; the websocket handshake is a GET too."""


def response(status: HTTPStatus, body: bytes, content_type: str, *extra: tuple[str, str]) -> Response:
    """Every plain HTTP answer: its length, no caching, and no content sniffing by browsers."""
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
            *extra,
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def json_response(status: HTTPStatus, message: Message, *extra: tuple[str, str]) -> Response:
    return response(status, (encode(message) + "\n").encode(), "application/json", *extra)


def method_not_allowed(method: str) -> Response:
    message = ErrorMessage(code=ErrorCode.method_not_allowed, message=f"{method} is not allowed here: use GET")
    return json_response(HTTPStatus.METHOD_NOT_ALLOWED, message, ("Allow", ALLOWED_METHODS))


def error_response(code: ErrorCode, message: str, *extra: tuple[str, str]) -> Response:
    status = STATUS_OF_CODE.get(code, HTTPStatus.BAD_REQUEST)
    return json_response(status, ErrorMessage(code=code, message=message), *extra)


class HttpApi:
    def __init__(self, queries: Queries, shutting_down: Callable[[], bool]) -> None:
        self.queries = queries
        self.shutting_down = shutting_down

    async def respond(self, request: Request) -> Response | None:
        """A response for an API route or any other plain GET; None lets a websocket handshake go on."""
        parts = urlsplit(request.path)
        if not parts.path.startswith(API_PREFIX):
            if "websocket" in request.headers.get("Upgrade", "").lower():
                return None
            return error_response(ErrorCode.not_found, f"no route {parts.path}: the API lives under /api/")
        if self.shutting_down():
            return error_response(ErrorCode.shutting_down, "the server is shutting down")
        for pattern, adapter, fixed, type_name, query in ROUTES:
            match = pattern.fullmatch(parts.path)
            if match is None:
                continue
            return await self._answer(adapter, fixed, type_name, query, match, parts.query)
        return error_response(ErrorCode.not_found, f"no route {parts.path}; see docs/leaderboards.md")

    async def _answer(self, adapter: TypeAdapter[Any], fixed: Callable[[Fields], Fields], type_name: str | None,
                      taken: frozenset[str], match: re.Match[str], query: str) -> Response:  # fmt: skip
        fields: Fields = {name: unquote(value) for name, value in match.groupdict().items() if value is not None}
        try:
            pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
        except ValueError:
            return error_response(ErrorCode.invalid_message, "the query string is malformed")
        set_by_route = {*fields, *fixed({}), "type"} if type_name is not None else {*fields, *fixed({})}
        for name, value in pairs:
            if name in set_by_route:
                message = f"parameter {name!r} is set by the route {match.string}"
                return error_response(ErrorCode.invalid_message, message)
            if name not in taken:
                accepted = ", ".join(sorted(taken)) or "none"
                message = f"unknown parameter {name!r} (this route takes: {accepted})"
                return error_response(ErrorCode.invalid_message, message)
            if name in fields:
                return error_response(ErrorCode.invalid_message, f"parameter {name!r} is given twice")
            fields[name] = value
        typed = {"type": type_name} if type_name is not None else {}
        try:
            request = adapter.validate_python({**fixed(fields), **typed}, strict=False)
        except ValidationError as error:
            return error_response(ErrorCode.invalid_message, describe(error.errors(include_url=False), tagged=False))
        try:
            if isinstance(request, PlayerGamesQuery):
                body, link = await self.queries.games.page(request)
                return response(HTTPStatus.OK, body, NDJSON, *([(NEXT_PAGE_HEADER, link)] if link else []))
            reply = await self.queries.answer(request)
        except Refusal as refusal:
            return error_response(refusal.code, refusal.message)
        except Exception as error:  # a bug or a broken database: one clear 500, the server goes on
            failures.exception(type(error).__name__, f"HTTP query failed: {one_line(error)}")
            return error_response(ErrorCode.internal_error, f"the server failed to answer ({type(error).__name__})")
        return json_response(HTTPStatus.OK, reply)


__all__ = ["HttpApi"]
