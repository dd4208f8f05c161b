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

import hashlib
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
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
    max_age_s = route.max_age_s if isinstance(route, HttpRoute) else 0  # a stream's pages are not kept
    return (pattern, TypeAdapter(route.request), lambda fields: {**fields, **fixed}, type_name,
            frozenset(route.query), max_age_s)  # fmt: skip


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


def fresh_response(body: bytes, etag: str, max_age_s: int, *, not_modified: bool) -> Response:
    """A read's 200 (or its 304, which carries no body): its validator, and how long any cache may reuse it."""
    validators = (("ETag", etag), ("Cache-Control", f"public, max-age={max_age_s}"))
    if not_modified:
        headers = Headers([*validators, ("X-Content-Type-Options", "nosniff")])
        return Response(HTTPStatus.NOT_MODIFIED.value, HTTPStatus.NOT_MODIFIED.phrase, headers, b"")
    headers = Headers([("Content-Type", "application/json"), ("Content-Length", str(len(body))), *validators,
                       ("X-Content-Type-Options", "nosniff")])  # fmt: skip
    return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, body)


def entity_tag(body: bytes) -> str:
    return f'"{hashlib.blake2b(body, digest_size=12).hexdigest()}"'


def matches(if_none_match: str, etag: str) -> bool:
    """`If-None-Match` (RFC 9110 13.1.2): a weak comparison (`W/` ignored); `*` matches any current
    representation. The static files' validators (net/web.py) are compared the same way."""
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",") if tag.strip()}
    return "*" in tags or etag in tags


@dataclass(slots=True)
class Kept:
    body: bytes
    etag: str
    fresh_until: float


class ReadCache:
    """The answers of this process's reads, each kept for its route's max-age: a table polled by thousands is read
    from the database once per max-age per process, and a `304` for a tag still fresh touches nothing. Bounded
    (least recently used out first), so a crawler's endless query strings cannot grow it."""

    def __init__(self, clock: Callable[[], float], max_bytes: int = 16 * 1024 * 1024,
                 max_body_bytes: int = 256 * 1024) -> None:  # fmt: skip
        self.clock = clock
        self.max_bytes = max_bytes
        self.max_body_bytes = max_body_bytes
        self._kept: OrderedDict[str, Kept] = OrderedDict()
        self._bytes = 0

    def fresh(self, key: str) -> Kept | None:
        kept = self._kept.get(key)
        if kept is None:
            return None
        if kept.fresh_until <= self.clock():
            self._drop(key)
            return None
        self._kept.move_to_end(key)
        return kept

    def keep(self, key: str, body: bytes, max_age_s: int) -> Kept:
        kept = Kept(body, entity_tag(body), self.clock() + max_age_s)
        if max_age_s > 0 and len(body) <= self.max_body_bytes:
            self._drop(key)
            self._kept[key] = kept
            self._bytes += len(key) + len(body)
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._kept)))
        return kept

    def _drop(self, key: str) -> None:
        kept = self._kept.pop(key, None)
        if kept is not None:
            self._bytes -= len(key) + len(kept.body)


def json_response(status: HTTPStatus, message: Message, *extra: tuple[str, str]) -> Response:
    return response(status, (encode(message) + "\n").encode(), "application/json", *extra)


def method_not_allowed(method: str) -> Response:
    message = ErrorMessage(code=ErrorCode.method_not_allowed, message=f"{method} is not allowed here: use GET")
    return json_response(HTTPStatus.METHOD_NOT_ALLOWED, message, ("Allow", ALLOWED_METHODS))


def error_response(code: ErrorCode, message: str, *extra: tuple[str, str]) -> Response:
    status = STATUS_OF_CODE.get(code, HTTPStatus.BAD_REQUEST)
    return json_response(status, ErrorMessage(code=code, message=message), *extra)


class HttpApi:
    def __init__(self, queries: Queries, shutting_down: Callable[[], bool],
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.queries = queries
        self.shutting_down = shutting_down
        self.cache = ReadCache(clock)

    async def respond(self, request: Request) -> Response | None:
        """A response for an API route or any other plain GET; None lets a websocket handshake go on."""
        parts = urlsplit(request.path)
        if not parts.path.startswith(API_PREFIX):
            if "websocket" in request.headers.get("Upgrade", "").lower():
                return None
            return error_response(ErrorCode.not_found, f"no route {parts.path}: the API lives under /api/")
        if self.shutting_down():
            return error_response(ErrorCode.shutting_down, "the server is shutting down")
        if_none_match = request.headers.get("If-None-Match", "")
        kept = self.cache.fresh(request.path)
        if kept is not None:
            max_age_s = max(1, round(kept.fresh_until - self.cache.clock()))
            return fresh_response(kept.body, kept.etag, max_age_s, not_modified=matches(if_none_match, kept.etag))
        for pattern, adapter, fixed, type_name, query, max_age_s in ROUTES:
            match = pattern.fullmatch(parts.path)
            if match is None:
                continue
            answer = await self._answer(adapter, fixed, type_name, query, match, parts.query)
            if not isinstance(answer, bytes):
                return answer
            kept = self.cache.keep(request.path, answer, max_age_s)
            return fresh_response(answer, kept.etag, max_age_s, not_modified=matches(if_none_match, kept.etag))
        return error_response(ErrorCode.not_found, f"no route {parts.path}; see docs/leaderboards.md")

    async def _answer(self, adapter: TypeAdapter[Any], fixed: Callable[[Fields], Fields], type_name: str | None,
                      taken: frozenset[str], match: re.Match[str], query: str) -> Response | bytes:  # fmt: skip
        """A refusal or a stream's page as a response, or a reply's body (which the caller keeps and tags)."""
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
        return (encode(reply) + "\n").encode()


__all__ = ["HttpApi"]
