"""The server's logging: what a start says at INFO, and libraries' INFO chatter moved to DEBUG.

An operator reads a start's log to know what runs where: this module's `describe_start` gives one line each for
the version, the database and Redis (passwords hidden) and the workers; `serve` prints the listening address on
standard output. Libraries log at INFO what matters to their own developers (Alembic's seven
`setup plugin alembic.autogenerate...` lines and its migration context on every start of every worker,
websockets' `connection open` and `HTTP response sent`): `configure` relabels any record below WARNING from a
logger outside `freecell_arena` as DEBUG, so it shows with `--log-level DEBUG` and nowhere else. Their warnings
and errors are untouched.
"""

from __future__ import annotations

import logging
import platform
import sys
from urllib.parse import parse_qsl, urlencode, urlsplit

from freecell_arena import __version__
from freecell_arena.settings import Settings

APP_LOGGER = "freecell_arena"
HIDDEN = "***"

log = logging.getLogger("freecell_arena.start")


class LibraryChatterAsDebug(logging.Filter):
    """On the handler: a library's record below WARNING becomes a DEBUG record, kept only at DEBUG.

    A handler filter rather than levels on the libraries' loggers: every library is covered, those imported
    later or not known by name included, and their own level settings are left alone."""

    def __init__(self, threshold: int) -> None:
        super().__init__()
        self.threshold = threshold

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING and not _is_ours(record.name):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return record.levelno >= self.threshold


def _is_ours(name: str) -> bool:
    return name == APP_LOGGER or name.startswith(APP_LOGGER + ".")


def configure(level: str, label: str = "") -> None:
    """Log to standard error at `level` (a name `Settings` validated), each line tagged with `label` (which
    worker or supervisor wrote it)."""
    threshold = logging.getLevelName(level.upper())
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s {label}%(name)s: %(message)s"))
    handler.addFilter(LibraryChatterAsDebug(threshold))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(threshold)


def hide_password(url: str) -> str:
    """`url` with any password (in the authority or as a `password=` query parameter) replaced by `***`, for a
    database URL (`postgresql+asyncpg://user:secret@host/db`) as for a Redis one (`redis://:secret@host:6379/0`,
    `redis://host/0?password=secret`). Only those parts are rewritten: the rest stays as written (a URL put
    back together by `urlunsplit` would lose the empty authority of `sqlite:///file.db`)."""
    parts = urlsplit(url)
    if parts.password is not None:
        user = parts.netloc.rpartition("@")[0].partition(":")[0]
        url = url.replace(parts.netloc, f"{user}:{HIDDEN}@{parts.netloc.rpartition('@')[2]}", 1)
    head, mark, rest = url.partition("?")
    query, hash_mark, fragment = rest.partition("#")
    pairs = parse_qsl(query, keep_blank_values=True)
    if any(key == "password" for key, _ in pairs):
        query = urlencode([(key, HIDDEN if key == "password" else value) for key, value in pairs], safe="*")
        url = f"{head}{mark}{query}{hash_mark}{fragment}"
    return url


def describe_start(settings: Settings) -> None:
    """The lines a start logs at INFO, once per start (by the supervisor, not again by each of its workers).
    Nothing here imports the database stack: the supervisor never loads it."""
    log.info("freecell-arena %s on Python %s", __version__, platform.python_version())
    log.info("database %s", hide_password(settings.store.database_url))
    if settings.cluster.redis_url is None:
        log.info("redis: none (one process: room events stay in it)")
    else:
        log.info("redis %s", hide_password(settings.cluster.redis_url))
    if settings.cluster.workers > 1:
        log.info("workers: %d on one port, each restarted when it dies", settings.cluster.workers)
    else:
        log.info("workers: 1 (this process)")
