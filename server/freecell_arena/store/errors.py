"""Errors the storage adapter raises, so callers can tell a refused record from a broken database."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error raised on purpose by `freecell_arena.store`."""


class DatabaseUrlError(StoreError, ValueError):
    """A database URL the store cannot use (unknown backend or driver, or not a URL)."""


class RecordRefusedError(StoreError):
    """The database refused a record: a duplicate key (e.g. a stale writer's move index), a missing parent
    row, a result for a finished game, or a status for an unknown room. Nothing of its transaction was kept."""


class DatabaseNotMigratedError(StoreError):
    """The database schema is not at the head revision of this server's migrations."""


class WriterClosedError(StoreError):
    """A record was submitted to a `GroupCommitWriter` after `close()`."""
