"""The browser app served on the game's port (net/web.py), over real HTTP against a real server: `/` and a room's
link `/r/CODE` give the app, its files come from memory with their Content-Type, ETag (304 on If-None-Match),
Cache-Control, a Content-Security-Policy without inline script and nosniff; anything else is a 404; the API and
the websocket on the same port are untouched; `serve` prints the page to open and finds the app on its own."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from arena_client import connect_player
from arena_server import start_arena
from serverprocess import running_server, server_env

from freecell_arena.commands.serve import browser_url
from freecell_arena.net.app import ArenaServer
from freecell_arena.net.web import default_web_root, load_files

REPO = Path(__file__).resolve().parents[2]
INDEX = b'<!doctype html>\n<html lang="en"><title>Arena</title><script type="module" src="/js/app.js"></script>\n'
APP_JS = b"import { start } from './start.js';\nstart();\n" + b"// padding so gzip pays\n" * 40
APP_CSS = b"body { margin: 0; }\n" * 30
CARD_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict[str, object]:
        value: dict[str, object] = json.loads(self.body)
        return value


def fetch_blocking(port: int, path: str, headers: dict[str, str], method: str) -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, headers=headers)
        response = connection.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        connection.close()


async def fetch(port: int, path: str, method: str = "GET", **headers: str) -> Answer:
    """One real HTTP request (the path is sent as written, `..` included); header names with `_` for `-`."""
    named = {name.replace("_", "-"): value for name, value in headers.items()}
    return await asyncio.to_thread(fetch_blocking, port, path, named, method)


@pytest.fixture
def web_root(tmp_path: Path) -> Path:
    """An app folder with what clients/web holds: pages and modules to serve, tests and helpers to keep private."""
    root = tmp_path / "web"
    for relative, body in {
        "index.html": INDEX,
        "js/app.js": APP_JS,
        "css/app.css": APP_CSS,
        "img/card.svg": CARD_SVG,
        "tests/view-state.test.mjs": b"secret test",
        "tests/fixtures.py": b"print('private')",
        "helper.py": b"print('private')",
        "notes.md": b"# private",
        ".env.js": b"private",
    }.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(body)
    return root


@pytest.fixture
async def web_server(sqlite_url: str, web_root: Path) -> AsyncIterator[ArenaServer]:
    server = await start_arena(sqlite_url, web_root=str(web_root))
    try:
        yield server
    finally:
        await server.shutdown()


@pytest.mark.parametrize("path", ["/", "/?server=ws://127.0.0.1:1/", "/index.html", "/r/ABCD2345", "/r/abcd2345/",
                                  "/r/K7M2Q9XZ?watch=1", "/mod", "/mod/"])  # fmt: skip
async def test_the_app_and_a_room_link_get_the_page(web_server: ArenaServer, path: str) -> None:
    answer = await fetch(web_server.port, path)
    assert answer.status == 200
    assert answer.body == INDEX
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert answer.headers["content-length"] == str(len(INDEX))
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["etag"].startswith('"') and answer.headers["etag"].endswith('"')


async def test_the_app_page_preloads_every_module_at_once(web_server: ArenaServer) -> None:
    """A module is found only when the one importing it has arrived; the Link header names them all up front."""
    for path in ("/", "/r/ABCD2345"):
        assert (await fetch(web_server.port, path)).headers["link"] == "</js/app.js>; rel=modulepreload"
    for path in ("/js/app.js", "/css/app.css"):
        assert "link" not in (await fetch(web_server.port, path)).headers


async def test_the_content_security_policy_allows_no_inline_script_and_no_other_origin(web_server: ArenaServer) -> None:
    policy = (await fetch(web_server.port, "/")).headers["content-security-policy"]
    directives = {part.split()[0]: part.split()[1:] for part in policy.split("; ")}
    assert directives["default-src"] == ["'none'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"], "no <style> element: style sheets come from this origin"
    assert directives["connect-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src" if "object-src" in directives else "default-src"] == ["'none'"]
    assert "unsafe-eval" not in policy
    assert "unsafe-inline" not in policy and "unsafe-hashes" not in policy


@pytest.mark.parametrize(
    ("path", "body", "content_type"),
    [
        ("/js/app.js", APP_JS, "text/javascript; charset=utf-8"),
        ("/css/app.css", APP_CSS, "text/css; charset=utf-8"),
        ("/img/card.svg", CARD_SVG, "image/svg+xml"),
    ],
)
async def test_static_files_with_their_content_type(
    web_server: ArenaServer, path: str, body: bytes, content_type: str
) -> None:
    answer = await fetch(web_server.port, path)
    assert (answer.status, answer.body, answer.headers["content-type"]) == (200, body, content_type)
    assert answer.headers["content-security-policy"] and answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["cache-control"] == "no-cache"


async def test_an_unchanged_file_is_a_304_without_a_body(web_server: ArenaServer) -> None:
    first = await fetch(web_server.port, "/js/app.js")
    etag = first.headers["etag"]
    for if_none_match in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        again = await fetch(web_server.port, "/js/app.js", If_None_Match=if_none_match)
        assert (again.status, again.body) == (304, b""), if_none_match
        assert again.headers["etag"] == etag and again.headers["cache-control"] == "no-cache"
    changed = await fetch(web_server.port, "/js/app.js", If_None_Match='"something-older"')
    assert (changed.status, changed.body) == (200, APP_JS)
    other_file = await fetch(web_server.port, "/css/app.css", If_None_Match=etag)
    assert other_file.status == 200, "an ETag names one file's bytes"
    assert (await fetch(web_server.port, "/r/ABCD2345", If_None_Match=(await fetch(web_server.port, "/")).headers[
        "etag"])).status == 304  # fmt: skip


async def test_gzip_when_the_browser_takes_it(web_server: ArenaServer) -> None:
    plain = await fetch(web_server.port, "/js/app.js")
    packed = await fetch(web_server.port, "/js/app.js", Accept_Encoding="gzip, deflate, br")
    assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(packed.body) == APP_JS and len(packed.body) < len(APP_JS)
    assert packed.headers["etag"] != plain.headers["etag"], "each representation has its own ETag"
    assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"
    for refusing in ("gzip;q=0", "gzip; q=0.000", "identity", "*;q=0", "br", "gzip;q=nonsense"):
        refused = await fetch(web_server.port, "/js/app.js", Accept_Encoding=refusing)
        assert refused.body == APP_JS and "content-encoding" not in refused.headers, refusing
    for taking in ("GZIP", "br, gzip;q=0.5", "*"):
        taken = await fetch(web_server.port, "/js/app.js", Accept_Encoding=taking)
        assert taken.headers["content-encoding"] == "gzip", taking
    etag = packed.headers["etag"]
    revalidated = await fetch(web_server.port, "/js/app.js", Accept_Encoding="gzip", If_None_Match=etag)
    assert revalidated.status == 304


@pytest.mark.parametrize(
    "path",
    ["/nothing-here", "/js/missing.js", "/tests/view-state.test.mjs", "/tests/fixtures.py", "/helper.py", "/notes.md",
     "/.env.js", "/js/../helper.py", "/js/%2e%2e/helper.py", "/index.html/", "/r/", "/r/BAD-CODE!", "/r/ABCD/extra",
     "/JS/APP.JS", "//etc/passwd", "/mod/x", "/modx"],
)  # fmt: skip
async def test_anything_else_is_a_404(web_server: ArenaServer, path: str) -> None:
    for_program = await fetch(web_server.port, path)
    assert for_program.status == 404
    assert for_program.json()["code"] == "not_found"
    for_person = await fetch(web_server.port, path, Accept="text/html,application/xhtml+xml,*/*;q=0.8")
    assert for_person.status == 404
    assert for_person.headers["content-type"] == "text/html; charset=utf-8"
    assert b'<a href="/">' in for_person.body and b"private" not in for_person.body
    assert for_person.headers["content-security-policy"] and for_person.headers["x-content-type-options"] == "nosniff"


async def test_other_methods_are_refused(web_server: ArenaServer) -> None:
    for method in ("POST", "PUT", "DELETE"):
        answer = await fetch(web_server.port, "/", method)
        assert answer.status == 405 and answer.headers["allow"] == "GET"


async def test_files_are_read_once_at_start(web_server: ArenaServer, web_root: Path) -> None:
    (web_root / "js" / "app.js").write_bytes(b"changed on disk")
    (web_root / "js" / "new.js").write_bytes(b"added on disk")
    assert (await fetch(web_server.port, "/js/app.js")).body == APP_JS
    assert (await fetch(web_server.port, "/js/new.js")).status == 404


async def test_the_api_health_and_the_websocket_share_the_port(web_server: ArenaServer) -> None:
    port = web_server.port
    api = await fetch(port, "/api/daily/no-such-variant", Accept="text/html")
    assert api.headers["content-type"] == "application/json" and api.json()["type"] == "error"
    assert (await fetch(port, "/healthz")).json()["status"] == "ok"
    player = await connect_player(f"ws://127.0.0.1:{port}/", "Browser Friend")
    try:
        created = await player.request({"type": "create_room", "variant": "freecell"})
        assert created["type"] == "room"
        code = created["room"]["code"]
    finally:
        await player.close()
    assert (await fetch(port, f"/r/{code}")).body == INDEX


async def test_a_server_without_the_app_still_serves_the_game(sqlite_url: str, tmp_path: Path) -> None:
    server = await start_arena(sqlite_url, web_root=str(tmp_path / "no-app-here"))
    try:
        assert (await fetch(server.port, "/")).status == 404
        assert (await fetch(server.port, "/healthz")).status == 200
    finally:
        await server.shutdown()


def test_the_checkout_serves_clients_web() -> None:
    assert default_web_root() == REPO / "clients" / "web"
    served = load_files(REPO / "clients" / "web")
    assert served and not any(path.startswith("/tests/") or path.endswith(".py") for path in served)


async def test_serve_prints_the_page_to_open_and_serves_the_app_it_ships(tmp_path: Path) -> None:
    expected = load_files(REPO / "clients" / "web")
    async with running_server(tmp_path, env=server_env()) as server:
        assert server.process.stdout is not None
        async with asyncio.timeout(10):
            line = (await server.process.stdout.readline()).decode()
        assert line.strip() == f"freecell-arena: play at http://127.0.0.1:{server.port}/"
        for path, file in expected.items():
            answer = await fetch(server.port, path)
            assert (answer.status, answer.body, answer.headers["content-type"]) == (
                200, file.plain.body, file.content_type), path  # fmt: skip


@pytest.mark.parametrize(
    ("host", "url"),
    [("127.0.0.1", "http://127.0.0.1:8765/"), ("0.0.0.0", "http://localhost:8765/"), ("::", "http://localhost:8765/"),
     ("::1", "http://[::1]:8765/"), ("arena.example", "http://arena.example:8765/")],
)  # fmt: skip
def test_the_printed_url_is_one_a_browser_opens(host: str, url: str) -> None:
    assert browser_url(host, 8765) == url
