"""Server settings: environment variables prefixed `FREECELL_ARENA_`, overridden by `serve` flags.

The table in docs/server.md is the documentation of these fields; keep the two in step (a test checks that
every field appears there).
"""

from __future__ import annotations

import ipaddress
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from freecell_arena.core.accounts.relying_party import RelyingParty, relying_party
from freecell_arena.engine import VARIANTS
from freecell_arena.protocol.session import DEFAULT_LIMITS as LIMITS
from freecell_arena.protocol.session import DEFAULT_QUICK_RACE as QUICK_RACE
from freecell_arena.protocol.session import FRAME_SIZE_FACTOR, ConnectionLimits, QuickRaceSizes

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///freecell-arena.db"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FREECELL_ARENA_", extra="ignore")

    host: str = Field(default="127.0.0.1", description="Interface to listen on.")
    port: int = Field(default=8765, ge=0, le=65535, description="TCP port (0 = any free port).")
    database_url: str = Field(
        default=DEFAULT_DATABASE_URL,
        description="SQLAlchemy async URL: a SQLite file (created and migrated on start) or PostgreSQL.",
    )
    progress_window_ms: float = Field(
        default=100.0, ge=0, le=1000,
        description="A room's progress goes out at most once per player per this window (0 = every move).",
    )  # fmt: skip
    max_message_bytes: int = Field(
        default=LIMITS.max_message_bytes, ge=256,
        description="Larger frames get `message_too_large`; beyond 4 times this the connection closes (1009).",
    )  # fmt: skip
    rate_limit_per_s: float = Field(
        default=LIMITS.rate_per_s, gt=0, description="Sustained messages per second per connection."
    )
    rate_limit_burst: int = Field(default=LIMITS.burst, ge=1, description="Messages a connection may send at once.")
    ping_interval_s: float = Field(
        default=LIMITS.ping_interval_s, gt=0, description="Websocket ping every this many seconds."
    )
    ping_timeout_s: float = Field(
        default=LIMITS.ping_timeout_s, gt=0, description="Close when a ping is not answered in time."
    )
    idle_timeout_s: float = Field(
        default=LIMITS.idle_timeout_s, gt=0, description="Close a connection silent for this long."
    )
    commit_delay_ms: float = Field(
        default=2.0, ge=0, le=100, description="Group commit: how long a write waits for company (latency vs CPU)."
    )
    compression: Literal["large", "deflate", "none"] = Field(
        default="large",
        description="permessage-deflate for clients that ask: on large frames only (large), every frame, or none.",
    )
    compression_min_bytes: int = Field(
        default=1024, ge=0, description="`large`: frames of at least this many bytes are compressed, the rest not."
    )
    event_loop: Literal["auto", "asyncio", "uvloop"] = Field(
        default="auto", description="The event loop: uvloop where it is installed (auto), or the standard one."
    )
    gc_thresholds: str = Field(
        default="100000,20,20",
        description="Python's garbage collector thresholds: young,middle,old as `gc.set_threshold` takes them.",
    )
    tick_interval_s: float = Field(default=0.05, gt=0, le=1, description="How often countdowns and limits are checked.")
    shutdown_timeout_s: float = Field(default=10.0, gt=0, description="SIGTERM: most time spent flushing and closing.")
    log_level: str = Field(default="INFO", description="Python logging level.")
    readiness_timeout_s: float = Field(default=2.0, gt=0, description="`/readyz`: how long the database may take.")
    readiness_failure_window_s: float = Field(
        default=10.0, ge=0, description="`/readyz` says not ready this long after a write to the database failed."
    )
    max_spectators: int = Field(default=64, ge=0, description="Spectators one room may hold.")
    quick_race_min_players: int = Field(
        default=QUICK_RACE.min_players, ge=1, le=64, description="Quick race: players in before its countdown starts."
    )
    quick_race_max_players: int = Field(
        default=QUICK_RACE.max_players, ge=1, le=64, description="Quick race: a full room starts at once."
    )
    quick_race_wait_s: float = Field(
        default=QUICK_RACE.countdown_s, ge=0, le=30, description="Quick race: the countdown once enough players are in."
    )
    tournament_schedule: str = Field(
        default="", description="The operator's recurring tournaments: JSON, or `@path` of a JSON file "
        "(docs/tournaments.md); empty: none.",
    )  # fmt: skip
    tournament_interval_s: float = Field(
        default=1.0, ge=0, le=60, description="How often each process tends the live tournaments (0 = never)."
    )
    house_bot: bool = Field(
        default=True, description="Quick race: a player waiting alone may race the server's own bot (`race_bot`)."
    )
    house_bot_after_s: float = Field(
        default=15.0, ge=0, le=600, description="Quick race: the page offers the house bot after this long alone."
    )
    house_bot_moves_per_s: float = Field(
        default=0.5, gt=0, le=25, description="The house bot's pace: moves per second, about a person's."
    )
    lobby_return_grace_s: float = Field(
        default=60.0, gt=0, description="A lobby picked up from the store: how long its members have to come back."
    )
    outbox_limit_bytes: int = Field(
        default=1_048_576, ge=65_536, description="Frames queued for a client that does not read; past it, cut."
    )
    hello_timeout_s: float = Field(
        default=LIMITS.hello_timeout_s, gt=0, description="Close a connection without a hello by then."
    )
    max_connections_per_address: int = Field(
        default=64, ge=1, description="Open websocket connections one client address may hold."
    )
    new_players_per_minute: float = Field(
        default=20.0, gt=0, description="`hello` without a token (a new identity) per client address per minute."
    )
    api_rate_limit_per_s: float = Field(
        default=10.0, gt=0, description="HTTP API requests (`/api/...`) per second per client address, sustained."
    )
    api_rate_limit_burst: int = Field(default=40, ge=1, description="HTTP API requests one address may make at once.")
    daily_secret: str | None = Field(
        default=None,
        min_length=16,
        description="Secret the daily seeds derive from (the same for every process); unset: generated once "
        "and kept in the database.",
    )
    daily_variants: str = Field(
        default=",".join(VARIANTS), description="Comma-separated variants that have a daily challenge."
    )
    daily_prepare_interval_s: float = Field(
        default=300.0, ge=0, description="How often today's and tomorrow's deals are checked (0 = never)."
    )
    daily_solver_nodes: int = Field(default=500_000, ge=1_000, description="Solver node budget per candidate deal.")
    daily_solver_budget_s: float = Field(default=300.0, gt=0, description="Solver time limit per candidate deal.")
    daily_candidates: int = Field(default=50, ge=1, description="Candidates tried before a day fails to prepare.")
    daily_finalize_delay_s: float = Field(
        default=60.0, ge=0, description="Wait after a day closes before its final ranks are materialised."
    )
    web_root: str | None = Field(
        default=None,
        description="Serve the browser app from this folder (read once at start) instead of the installed one.",
    )
    workers: int = Field(
        default=1, ge=1, description="Server processes on the one port (more than 1: PostgreSQL and Redis)."
    )
    redis_url: str | None = Field(
        default=None, description="Redis carrying room events between processes, e.g. redis://127.0.0.1:6379/0."
    )
    reuse_port: bool = Field(
        default=False, description="Listen with SO_REUSEPORT, so several processes share the port."
    )
    public_url: str | None = Field(
        default=None,
        description="The address players open, like https://arena.example.org: passkeys are bound to its host "
        "name. Unset: http://localhost:PORT (browsers refuse passkeys on an IP address such as 127.0.0.1).",
    )
    trusted_proxies: str = Field(
        default="",
        description="Comma-separated addresses or CIDRs of the load balancers whose PROXY header and "
        "X-Forwarded-For give the client's address; empty: trust nobody.",
    )

    par_solver_nodes: int = Field(
        default=400_000, ge=1_000, description="Solver node budget for a race's par: the same par on every machine."
    )
    par_budget_s: float = Field(
        default=60.0, gt=0, description="Solver time limit for a race's par (a safety net; off the loop)."
    )
    par_at_race_end: bool = Field(
        default=True,
        description="Work out a finished race's par at once (two or more players); else when a review first asks.",
    )
    rating_sweep_interval_s: float = Field(
        default=600.0,
        ge=0,
        description="How often (and at start) finished rated races left unrated (a process died before rating "
        "them) are looked for and rated (0 = never).",
    )

    @field_validator("gc_thresholds")
    @classmethod
    def _three_thresholds(cls, value: str) -> str:
        parts = [part.strip() for part in value.split(",")]
        if len(parts) != 3 or not all(part.isdigit() for part in parts):
            raise ValueError("three whole numbers young,middle,old, like 5000,20,20")
        young, middle, old = map(int, parts)
        if middle < 1 or old < 1:
            raise ValueError("middle and old must be at least 1 (young 0 turns collection off)")
        return f"{young},{middle},{old}"

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"one of {', '.join(LOG_LEVELS)}")
        return value.upper()

    @field_validator("daily_variants")
    @classmethod
    def _known_variants(cls, value: str) -> str:
        names = [name.strip() for name in value.split(",") if name.strip()]
        unknown = [name for name in names if name not in VARIANTS]
        if unknown:
            raise ValueError(f"unknown variant {unknown[0]!r}; known: {', '.join(VARIANTS)}")
        return ",".join(names)

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not value.startswith(REDIS_SCHEMES):
            raise ValueError(f"a Redis URL starts with {', '.join(REDIS_SCHEMES)}, like redis://127.0.0.1:6379/0")
        return value

    @field_validator("public_url")
    @classmethod
    def _passkey_origin(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        relying_party(value.strip(), 0)  # raises ValueError with the reason
        return value.strip().rstrip("/")

    def relying_party(self, bound_port: int | None = None) -> RelyingParty:
        """Who the server is to WebAuthn; `bound_port` is the port actually listened on (for `port` 0)."""
        return relying_party(self.public_url, bound_port or self.port)

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        return ",".join(str(network) for network in _parse_networks(value))

    @property
    def trusted_proxy_networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        return _parse_networks(self.trusted_proxies)

    @property
    def limits(self) -> ConnectionLimits:
        """The limits a connection lives within, as `welcome` announces them."""
        return ConnectionLimits(
            max_message_bytes=self.max_message_bytes,
            max_frame_bytes=self.max_message_bytes * FRAME_SIZE_FACTOR,
            rate_per_s=self.rate_limit_per_s,
            burst=self.rate_limit_burst,
            ping_interval_s=self.ping_interval_s,
            ping_timeout_s=self.ping_timeout_s,
            hello_timeout_s=self.hello_timeout_s,
            idle_timeout_s=self.idle_timeout_s,
        )

    @property
    def quick_race(self) -> QuickRaceSizes:
        return QuickRaceSizes(
            min_players=self.quick_race_min_players,
            max_players=self.quick_race_max_players,
            countdown_s=self.quick_race_wait_s,
        )

    @property
    def gc_threshold_values(self) -> tuple[int, int, int]:
        young, middle, old = (int(part) for part in self.gc_thresholds.split(","))
        return young, middle, old

    @property
    def daily_variant_ids(self) -> list[str]:
        return [name for name in self.daily_variants.split(",") if name]


def _parse_networks(value: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """`10.0.0.5, 172.28.0.0/16, ::1` -> networks (an address alone is a network of one). Host bits set under the
    mask (`10.0.0.5/8`) are refused, not silently widened: the operator meant something else."""
    networks = []
    for part in (part.strip() for part in value.split(",")):
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part))
        except ValueError as error:
            raise ValueError(f"{part!r} is not an IP address or CIDR ({error})") from None
    return tuple(networks)
