"""Alembic environment (the official async template, adapted).

The database URL comes from the application, in this order: the connection handed over by
`freecell_arena.store.migrate` (`config.attributes["connection"]`), `config.attributes["database_url"]`,
`alembic -x database_url=...`, then `FREECELL_ARENA_DATABASE_URL`, else the embedded SQLite default.
alembic.ini never holds a URL.
"""

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection

from freecell_arena.store.engine import WRITE_OPTION, create_engine
from freecell_arena.store.models import metadata
from freecell_arena.store.urls import database_url_from_env, normalize_database_url

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = metadata


def database_url() -> str:
    url = config.attributes.get("database_url") or context.get_x_argument(as_dictionary=True).get("database_url")
    return normalize_database_url(url or database_url_from_env())


def configure(**options: object) -> None:
    context.configure(
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=True,  # SQLite cannot ALTER most things: later migrations use batch mode
        **options,
    )


def run_migrations_offline() -> None:
    """Emit SQL to stdout (`alembic upgrade head --sql`) instead of running it."""
    configure(url=database_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            # SQLite migrations run with foreign keys not enforced (batch mode drops and rebuilds tables that
            # other rows reference: `create_engine(foreign_keys=False)`), so every reference is checked here
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"the migration left references to missing rows: {broken[:5]}")


async def run_async_migrations() -> None:
    engine = create_engine(database_url(), foreign_keys=False, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            await connection.run_sync(do_run_migrations)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:  # called from freecell_arena.store.migrate on its own event loop
        do_run_migrations(connection)
    else:  # the `alembic` command line
        asyncio.run(run_async_migrations())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
