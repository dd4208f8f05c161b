"""The browser app (clients/web) on the game's own port: `/` the app, `/r/CODE` a room's link, `/mod` the
moderators' console, its static files.

Every file is read into memory once, at start, with its Content-Type, a strong ETag (a hash of its bytes) and a
gzip copy when that is smaller, so a request costs a dictionary lookup and never touches the disk. There is no
build step and file names carry no version, so nothing is cached blindly: every answer says `no-cache` and a
browser revalidates with `If-None-Match`, which costs a 304 without a body. A deploy therefore never mixes old
and new modules in one page.

Every answer carries a Content-Security-Policy that allows scripts, style sheets and connections only from
this origin, with no inline script and no inline style, plus `nosniff`: a name a player chose is never run as
code, even if a bug put it into HTML.

The files come from the installed package (`freecell_arena/web/`, the wheel's copy of clients/web) or, in a
checkout, from clients/web itself; `FREECELL_ARENA_WEB_ROOT` names another folder (working on the app).
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import re
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from freecell_arena.net.http_api import API_PREFIX, error_response, matches
from freecell_arena.protocol.errors import ErrorCode

log = logging.getLogger(__name__)

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}
"""The only files served: anything else in the folder (tests, Python helpers, notes) stays private."""

APP_CODE_TYPES = ("text/javascript", "text/css")
PRIVATE_FOLDERS = frozenset({"tests", "node_modules", "__pycache__"})
COMPRESSIBLE = ("text/", "image/svg+xml", "application/json", "application/manifest+json")
MIN_GZIP_SAVING = 0.1  # a gzip copy is kept only when it is at least 10% smaller

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",  # no <style> element, no style attribute: the app styles elements through the CSSOM
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",  # CSP 3: 'self' includes ws:// and wss:// on this host and port
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),  # a room's link (its code) never leaves for another site
    ("X-Frame-Options", "DENY"),  # frame-ancestors for browsers that predate it
    ("Cross-Origin-Opener-Policy", "same-origin"),
)
CACHE_CONTROL = "no-cache"
"""Revalidate every time (a 304 when unchanged): unversioned module names must never be mixed across a deploy."""

APP_PAGE = "/index.html"
ROOM_LINK = re.compile(r"/r/[A-Za-z0-9]{1,32}/?")
"""A room's link: the app reads the code from the path (clients/web/js/router.js); whether the room exists is
the websocket's answer, so an unknown code still gets the page, which says so."""
CONSOLE = frozenset({"/mod", "/mod/"})
"""The moderators' console: the same app (it asks the server, which checks the role on every request)."""

NOT_FOUND_PAGE = (
    b"<!doctype html>\n<html lang=\"en\"><meta charset=\"utf-8\"><title>Not found - FreeCell Arena</title>\n"
    b"<h1>Not found</h1>\n<p>There is nothing at this address. <a href=\"/\">Go to FreeCell Arena</a>.</p>\n"
)


def default_web_root() -> Path:
    """The wheel's copy beside the package, else the checkout's clients/web (an editable install)."""
    package = Path(__file__).resolve().parents[1]
    installed = package / "web"
    return installed if installed.is_dir() else package.parents[1] / "clients" / "web"


@dataclass(frozen=True, slots=True)
class Representation:
    body: bytes
    etag: str


@dataclass(frozen=True, slots=True)
class StaticFile:
    content_type: str
    plain: Representation
    gzipped: Representation | None

    @classmethod
    def of(cls, body: bytes, content_type: str) -> StaticFile:
        digest = hashlib.sha256(body).hexdigest()[:20]
        gzipped = None
        if content_type.startswith(COMPRESSIBLE):
            packed = gzip.compress(body, compresslevel=9, mtime=0)
            if len(packed) <= len(body) * (1 - MIN_GZIP_SAVING):
                gzipped = Representation(packed, f'"{digest}-gz"')
        return cls(content_type, Representation(body, f'"{digest}"'), gzipped)


def load_files(root: Path) -> dict[str, StaticFile]:
    """Every servable file under `root`, by its URL path (`/js/app.js`)."""
    files: dict[str, StaticFile] = {}
    if not root.is_dir():
        return files
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if not path.is_file() or any(part.startswith(".") or part in PRIVATE_FOLDERS for part in relative.parts):
            continue
        content_type = CONTENT_TYPES.get(path.suffix.lower())
        if content_type is not None:
            files["/" + relative.as_posix()] = StaticFile.of(path.read_bytes(), content_type)
    return files


def _tokens(header: str) -> set[str]:
    return {token.strip() for token in header.split(",") if token.strip()}


def _accepts_gzip(request: Request) -> bool:
    """`gzip` (or `*`) in Accept-Encoding with a weight above 0 (RFC 9110 12.5.3)."""
    for token in _tokens(request.headers.get("Accept-Encoding", "")):
        name, *parameters = (part.strip().lower() for part in token.split(";"))
        if name not in ("gzip", "*"):
            continue
        weights = [parameter.removeprefix("q=") for parameter in parameters if parameter.startswith("q=")]
        try:
            return not weights or float(weights[0]) > 0
        except ValueError:
            return False
    return False


class WebApp:
    """Answers the browser's GETs that are neither the API nor a websocket handshake."""

    def __init__(self, files: dict[str, StaticFile]) -> None:
        self.files = files
        modules = [path for path, file in files.items() if file.content_type.startswith(APP_CODE_TYPES[0])]
        self.preload = ", ".join(f"<{path}>; rel=modulepreload" for path in modules)
        """The app page's `Link` header: every module fetched at once, instead of level by level as the imports
        are discovered (five round trips deep from app.js to the board's modules)."""

    @classmethod
    def load(cls, root: Path | None = None) -> WebApp:
        root = root or default_web_root()
        files = load_files(root)
        if APP_PAGE not in files:
            log.warning("no browser app in %s (no index.html): `/` answers 404", root)
        return cls(files)

    @property
    def app_code(self) -> list[StaticFile]:
        """The app's own JavaScript and CSS (docs/performance.md tracks their size)."""
        return [file for file in self.files.values() if file.content_type.startswith(APP_CODE_TYPES)]

    @property
    def app_bytes(self) -> int:
        """The app's own JavaScript and CSS, uncompressed."""
        return sum(len(file.plain.body) for file in self.app_code)

    def respond(self, request: Request) -> Response | None:
        """The file, the app at `/` and `/r/CODE`, or a 404; None for the API and websocket handshakes."""
        path = urlsplit(request.path).path
        if path.startswith(API_PREFIX) or "websocket" in request.headers.get("Upgrade", "").lower():
            return None
        if path == "/" or path in CONSOLE or ROOM_LINK.fullmatch(path):
            path = APP_PAGE
        file = self.files.get(path)
        if file is None:
            return self._not_found(request, path)
        return self._send(request, file, self.preload if path == APP_PAGE else "")

    def _send(self, request: Request, file: StaticFile, preload: str) -> Response:
        chosen = file.gzipped if file.gzipped is not None and _accepts_gzip(request) else file.plain
        headers = Headers([("Cache-Control", CACHE_CONTROL), ("ETag", chosen.etag), *SECURITY_HEADERS])
        if preload:
            headers["Link"] = preload
        if file.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
        if matches(request.headers.get("If-None-Match", ""), chosen.etag):
            return Response(HTTPStatus.NOT_MODIFIED.value, HTTPStatus.NOT_MODIFIED.phrase, headers, b"")
        headers["Content-Type"] = file.content_type
        headers["Content-Length"] = str(len(chosen.body))
        if chosen is file.gzipped:
            headers["Content-Encoding"] = "gzip"
        return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, chosen.body)

    def _not_found(self, request: Request, path: str) -> Response:
        """A page a person can follow back to the app; programs get the API's JSON error."""
        if "text/html" not in request.headers.get("Accept", ""):
            return error_response(ErrorCode.not_found, f"no route {path}: the API lives under {API_PREFIX}")
        headers = Headers(
            [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Length", str(len(NOT_FOUND_PAGE))),
                ("Cache-Control", CACHE_CONTROL),
                *SECURITY_HEADERS,
            ]
        )
        return Response(HTTPStatus.NOT_FOUND.value, HTTPStatus.NOT_FOUND.phrase, headers, NOT_FOUND_PAGE)


__all__ = ["CONTENT_SECURITY_POLICY", "WebApp", "default_web_root", "load_files"]
