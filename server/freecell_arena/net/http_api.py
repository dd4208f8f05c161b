"""Plain HTTP GET on the game's port: the read-only queries as JSON, for browsers, scripts and caches.

| route | answers like the websocket request |
|---|---|
| `/api/leaderboards/{variant}/daily[/{day}]?limit=&cursor=&around=&bots=` | `get_leaderboard` (board `daily`) |
| `/api/leaderboards/{variant}/deal/{seed}?limit=&cursor=&around=&bots=` | `get_leaderboard` (board `deal`) |
| `/api/leaderboards/{variant}/season?days=7\\|30&limit=&cursor=&around=&bots=` | `get_season` |
| `/api/players/{player_id}/history?limit=&cursor=` | `get_history` |
| `/api/daily/{variant}[/{day}]` | `get_daily` |
| `/api/ratings/{variant}?limit=&around=&bots=` | `get_ratings` |
| `/api/players/{player_id}` | `get_player` |
| `/api/players/{player_id}/streak/{variant}?month=` | `get_streak` |
| `/api/races/{code}/review` | `get_review` (409 `race_not_over` while it runs) |
| `/api/daily/{variant}/{day}/review` | `get_review` of a daily (409 `race_not_over` until the day closes) |
| `/api/games/{game_id}/share?origin=` | `get_share` |

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
from freecell_arena.protocol.messages import (
    DailyRequest,
    ErrorCode,
    ErrorMessage,
    HistoryRequest,
    LeaderboardRequest,
    Message,
    PlayerRequest,
    QuickRacesRequest,
    RatingsRequest,
    ReviewRequest,
    SeasonRequest,
    ShareRequest,
    StreakRequest,
    encode,
)

log = logging.getLogger(__name__)
failures = ThrottledLog(log)

API_PREFIX = "/api/"
STATUS_OF_CODE = {
    ErrorCode.unknown_player: HTTPStatus.NOT_FOUND,
    ErrorCode.not_on_board: HTTPStatus.NOT_FOUND,
    ErrorCode.unknown_daily: HTTPStatus.NOT_FOUND,
    ErrorCode.not_found: HTTPStatus.NOT_FOUND,
    ErrorCode.shutting_down: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.internal_error: HTTPStatus.INTERNAL_SERVER_ERROR,
    ErrorCode.not_ready: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.method_not_allowed: HTTPStatus.METHOD_NOT_ALLOWED,
    ErrorCode.unknown_room: HTTPStatus.NOT_FOUND,
    ErrorCode.unknown_game: HTTPStatus.NOT_FOUND,
    ErrorCode.race_not_over: HTTPStatus.CONFLICT,
    ErrorCode.rate_limited: HTTPStatus.TOO_MANY_REQUESTS,
}

Fields = dict[str, str]


def _route(pattern: str, model: type[Message], fixed: Callable[[Fields], Fields] = dict) -> tuple[Any, ...]:
    return re.compile(pattern), TypeAdapter(model), fixed, model.model_fields["type"].default


ROUTES = (
    _route(r"/api/leaderboards/(?P<variant>[^/]+)/daily(?:/(?P<day>[^/]+))?", LeaderboardRequest,
           lambda fields: {**fields, "board": "daily"}),
    _route(r"/api/leaderboards/(?P<variant>[^/]+)/deal/(?P<seed>[^/]+)", LeaderboardRequest,
           lambda fields: {**fields, "board": "deal"}),
    _route(r"/api/leaderboards/(?P<variant>[^/]+)/season", SeasonRequest),
    _route(r"/api/players/(?P<player_id>[^/]+)/history", HistoryRequest),
    _route(r"/api/daily/(?P<variant>[^/]+)/(?P<day>[^/]+)/review", ReviewRequest),
    _route(r"/api/daily/(?P<variant>[^/]+)(?:/(?P<day>[^/]+))?", DailyRequest),
    _route(r"/api/ratings/(?P<variant>[^/]+)", RatingsRequest),
    _route(r"/api/players/(?P<player_id>[^/]+)", PlayerRequest),
    _route(r"/api/players/(?P<player_id>[^/]+)/streak/(?P<variant>[^/]+)", StreakRequest),
    _route(r"/api/races/(?P<code>[^/]+)/review", ReviewRequest),
    _route(r"/api/games/(?P<game_id>[^/]+)/share", ShareRequest),
    _route(r"/api/quick-races", QuickRacesRequest),
)  # fmt: skip


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


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors(include_url=False)[:3]:
        where = ".".join(str(step) for step in item["loc"]) or "request"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


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
        for pattern, adapter, fixed, type_name in ROUTES:
            match = pattern.fullmatch(parts.path)
            if match is None:
                continue
            return await self._answer(adapter, fixed, type_name, match, parts.query)
        return error_response(ErrorCode.not_found, f"no route {parts.path}; see docs/leaderboards.md")

    async def _answer(self, adapter: TypeAdapter[Any], fixed: Callable[[Fields], Fields], type_name: str,
                      match: re.Match[str], query: str) -> Response:  # fmt: skip
        fields: Fields = {name: unquote(value) for name, value in match.groupdict().items() if value is not None}
        try:
            pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
        except ValueError:
            return error_response(ErrorCode.invalid_message, "the query string is malformed")
        set_by_route = {*fields, *fixed({}), "type"}
        for name, value in pairs:
            if name in set_by_route:
                message = f"parameter {name!r} is set by the route {match.string}"
                return error_response(ErrorCode.invalid_message, message)
            if name in fields:
                return error_response(ErrorCode.invalid_message, f"parameter {name!r} is given twice")
            fields[name] = value
        try:
            request = adapter.validate_python({**fixed(fields), "type": type_name}, strict=False)
        except ValidationError as error:
            return error_response(ErrorCode.invalid_message, _describe(error))
        try:
            reply = await self.queries.answer(request)
        except Refusal as refusal:
            return error_response(refusal.code, refusal.message)
        except Exception as error:  # a bug or a broken database: one clear 500, the server goes on
            failures.exception(type(error).__name__, f"HTTP query failed: {one_line(error)}")
            return error_response(ErrorCode.internal_error, f"the server failed to answer ({type(error).__name__})")
        return json_response(HTTPStatus.OK, reply)


__all__ = ["HttpApi"]
