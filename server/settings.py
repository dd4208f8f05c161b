"""Server settings: environment variables prefixed `FREECELL_ARENA_`, overridden by `serve` flags.

The table in docs/server.md is the documentation of these fields; keep the two in step (a test checks that
every field appears there).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///freecell-arena.db"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FREECELL_ARENA_", extra="ignore")

    host: str = Field(default="127.0.0.1", description="Interface to listen on.")
    port: int = Field(default=8765, ge=0, le=65535, description="TCP port (0 = any free port).")
    database_url: str = Field(
        default=DEFAULT_DATABASE_URL,
        description="SQLAlchemy async URL: a SQLite file (created and migrated on start) or PostgreSQL.",
    )
    max_message_bytes: int = Field(default=16_384, ge=256, description="Larger frames get `message_too_large`.")
    rate_limit_per_s: float = Field(default=30.0, gt=0, description="Sustained messages per second per connection.")
    rate_limit_burst: int = Field(default=60, ge=1, description="Messages a connection may send at once.")
    ping_interval_s: float = Field(default=20.0, gt=0, description="Websocket ping every this many seconds.")
    ping_timeout_s: float = Field(default=20.0, gt=0, description="Close when a ping is not answered in time.")
    idle_timeout_s: float = Field(default=600.0, gt=0, description="Close a connection silent for this long.")
    commit_delay_ms: float = Field(
        default=2.0, ge=0, le=100, description="Group commit: how long a write waits for company (latency vs CPU)."
    )
    compression: Literal["deflate", "none"] = Field(
        default="deflate", description="permessage-deflate for clients that ask for it, or none (less CPU)."
    )
    event_loop: Literal["auto", "asyncio", "uvloop"] = Field(
        default="auto", description="The event loop: uvloop where it is installed (auto), or the standard one."
    )
    tick_interval_s: float = Field(default=0.05, gt=0, le=1, description="How often countdowns and limits are checked.")
    shutdown_timeout_s: float = Field(default=10.0, gt=0, description="SIGTERM: most time spent flushing and closing.")
    log_level: str = Field(default="INFO", description="Python logging level.")
