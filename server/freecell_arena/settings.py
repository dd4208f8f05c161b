"""Server settings: environment variables prefixed `FREECELL_ARENA_`, overridden by `serve` flags.

Each concern has its group (`settings.connection.ping_interval_s`, `settings.daily.secret`), so a part is handed
the group it uses, not the whole. A setting's NAME is what an operator writes, the same as before the groups:
`FREECELL_ARENA_DAILY_SECRET` is the setting `daily_secret`, the field `secret` of the group `daily` (a group's
`prefix` plus the field's name, or what its `named` says where they differ). `Settings(daily_secret=...)`
takes names too, so the environment, the flags and the tests speak one vocabulary.

The table in docs/server.md is the documentation of these settings; keep the two in step (a test checks that
every setting appears there).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from freecell_arena.core.accounts.relying_party import RelyingParty, relying_party
from freecell_arena.engine import VARIANTS
from freecell_arena.protocol.session import DEFAULT_LIMITS as LIMITS
from freecell_arena.protocol.session import DEFAULT_QUICK_RACE as QUICK_RACE
from freecell_arena.protocol.session import FRAME_SIZE_FACTOR, ConnectionLimits, QuickRaceSizes

ENV_PREFIX = "FREECELL_ARENA_"
DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///freecell-arena.db"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsGroup(BaseModel):
    """The settings of one concern. A field's setting name is `prefix` + its name, unless `named` says otherwise."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    prefix: ClassVar[str] = ""
    named: ClassVar[Mapping[str, str]] = {}
    """Field name -> setting name, where it is not `prefix` + the field's name."""

    @classmethod
    def setting_names(cls) -> dict[str, str]:
        """Field name -> setting name."""
        return {name: cls.named.get(name, cls.prefix + name) for name in cls.model_fields}


class ProcessSettings(SettingsGroup):
    """Where the process listens, who it is to browsers, and how it runs and stops."""

    host: str = Field(default="127.0.0.1", description="Interface to listen on.")
    port: int = Field(default=8765, ge=0, le=65535, description="TCP port (0 = any free port).")
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
    web_root: str | None = Field(
        default=None,
        description="Serve the browser app from this folder (read once at start) instead of the installed one.",
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
    drain_grace_s: float = Field(
        default=0.0, ge=0, description="SIGTERM: serve on this long with `/readyz` answering 503 (`draining`) before "
        "closing the connections (1012), so a load balancer's health checks take the process out first (HAProxy: "
        "about `inter` x `fall`). Part of `shutdown_timeout_s`, and shorter than it.",
    )
    log_level: str = Field(default="INFO", description="Python logging level.")

    @model_validator(mode="after")
    def _grace_inside_the_timeout(self) -> ProcessSettings:
        if self.drain_grace_s >= self.shutdown_timeout_s:
            grace, timeout = self.drain_grace_s, self.shutdown_timeout_s
            raise ValueError(f"drain_grace_s ({grace:g}) must be shorter than shutdown_timeout_s ({timeout:g}): "
                             "the grace is part of the time a stop may take")  # fmt: skip
        return self

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

    @field_validator("public_url")
    @classmethod
    def _passkey_origin(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        relying_party(value.strip(), 0)  # raises ValueError with the reason
        return value.strip().rstrip("/")

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        return ",".join(str(network) for network in _parse_networks(value))

    def relying_party(self, bound_port: int | None = None) -> RelyingParty:
        """Who the server is to WebAuthn; `bound_port` is the port actually listened on (for `port` 0)."""
        return relying_party(self.public_url, bound_port or self.port)

    @property
    def trusted_proxy_networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        return _parse_networks(self.trusted_proxies)

    @property
    def gc_threshold_values(self) -> tuple[int, int, int]:
        young, middle, old = (int(part) for part in self.gc_thresholds.split(","))
        return young, middle, old


class ClusterSettings(SettingsGroup):
    """Several processes: on one port, and sharing rooms through Redis."""

    workers: int = Field(
        default=1, ge=1, description="Server processes on the one port (more than 1: PostgreSQL and Redis)."
    )
    reuse_port: bool = Field(
        default=False, description="Listen with SO_REUSEPORT, so several processes share the port."
    )
    redis_url: str | None = Field(
        default=None, description="Redis carrying room events between processes, e.g. redis://127.0.0.1:6379/0."
    )

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not value.startswith(REDIS_SCHEMES):
            raise ValueError(f"a Redis URL starts with {', '.join(REDIS_SCHEMES)}, like redis://127.0.0.1:6379/0")
        return value


class StoreSettings(SettingsGroup):
    """The database, how writes are grouped, and when `/readyz` says the store cannot take moves."""

    database_url: str = Field(
        default=DEFAULT_DATABASE_URL,
        description="SQLAlchemy async URL: a SQLite file (created and migrated on start) or PostgreSQL.",
    )
    commit_delay_ms: float = Field(
        default=2.0, ge=0, le=100, description="Group commit: how long a write waits for company (latency vs CPU)."
    )
    readiness_timeout_s: float = Field(default=2.0, gt=0, description="`/readyz`: how long the database may take.")
    readiness_failure_window_s: float = Field(
        default=10.0, ge=0, description="`/readyz` says not ready this long after a write to the database failed."
    )


class ConnectionSettings(SettingsGroup):
    """What one websocket connection lives within (`welcome` announces most of it), and what one address may open."""

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
    hello_timeout_s: float = Field(
        default=LIMITS.hello_timeout_s, gt=0, description="Close a connection without a hello by then."
    )
    outbox_limit_bytes: int = Field(
        default=1_048_576, ge=65_536, description="Frames queued for a client that does not read; past it, cut."
    )
    compression: Literal["large", "deflate", "none"] = Field(
        default="large",
        description="permessage-deflate for clients that ask: on large frames only (large), every frame, or none.",
    )
    compression_min_bytes: int = Field(
        default=1024, ge=0, description="`large`: frames of at least this many bytes are compressed, the rest not."
    )
    max_connections_per_address: int = Field(
        default=64, ge=1, description="Open websocket connections one client address may hold."
    )
    new_players_per_minute: float = Field(
        default=20.0, gt=0, description="`hello` without a token (a new identity) per client address per minute."
    )

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


class ApiSettings(SettingsGroup):
    """The HTTP API under `/api/`."""

    prefix = "api_"
    rate_limit_per_s: float = Field(
        default=10.0, gt=0, description="HTTP API requests (`/api/...`) per second per client address, sustained."
    )
    rate_limit_burst: int = Field(default=40, ge=1, description="HTTP API requests one address may make at once.")


class RoomSettings(SettingsGroup):
    """Rooms of every kind: who may watch, how progress is batched, how long a picked-up lobby waits."""

    max_spectators: int = Field(default=64, ge=0, description="Spectators one room may hold.")
    progress_window_ms: float = Field(
        default=100.0, ge=0, le=1000,
        description="A room's progress goes out at most once per player per this window (0 = every move).",
    )  # fmt: skip
    lobby_return_grace_s: float = Field(
        default=60.0, gt=0, description="A lobby picked up from the store: how long its members have to come back."
    )


class QuickRaceSettings(SettingsGroup):
    """Each variant's public room that fills and starts by itself."""

    prefix = "quick_race_"
    min_players: int = Field(
        default=QUICK_RACE.min_players, ge=1, le=64, description="Quick race: players in before its countdown starts."
    )
    max_players: int = Field(
        default=QUICK_RACE.max_players, ge=1, le=64, description="Quick race: a full room starts at once."
    )
    wait_s: float = Field(
        default=QUICK_RACE.countdown_s, ge=0, le=30, description="Quick race: the countdown once enough players are in."
    )

    @property
    def sizes(self) -> QuickRaceSizes:
        return QuickRaceSizes(min_players=self.min_players, max_players=self.max_players, countdown_s=self.wait_s)


class HouseBotSettings(SettingsGroup):
    """The server's own bot, offered to a player waiting alone in a quick race."""

    prefix = "house_bot_"
    named = {"enabled": "house_bot"}
    enabled: bool = Field(
        default=True, description="Quick race: a player waiting alone may race the server's own bot (`race_bot`)."
    )
    after_s: float = Field(
        default=15.0, ge=0, le=600, description="Quick race: the page offers the house bot after this long alone."
    )
    moves_per_s: float = Field(
        default=0.5, gt=0, le=25, description="The house bot's pace: moves per second, about a person's."
    )


class TournamentSettings(SettingsGroup):
    """The operator's recurring tournaments and how often they are tended."""

    prefix = "tournament_"
    schedule: str = Field(
        default="", description="The operator's recurring tournaments: JSON, or `@path` of a JSON file "
        "(docs/tournaments.md); empty: none.",
    )  # fmt: skip
    interval_s: float = Field(
        default=1.0, ge=0, le=60, description="How often each process tends the live tournaments (0 = never)."
    )


class DailySettings(SettingsGroup):
    """The daily challenge: its secret, its variants, and how its deals are prepared and closed."""

    prefix = "daily_"
    secret: str | None = Field(
        default=None,
        min_length=16,
        description="Secret the daily seeds derive from (the same for every process); unset: generated once "
        "and kept in the database.",
    )
    variants: str = Field(
        default=",".join(VARIANTS), description="Comma-separated variants that have a daily challenge."
    )
    prepare_interval_s: float = Field(
        default=300.0, ge=0, description="How often today's and tomorrow's deals are checked (0 = never)."
    )
    solver_nodes: int = Field(default=500_000, ge=1_000, description="Solver node budget per candidate deal.")
    solver_budget_s: float = Field(default=300.0, gt=0, description="Solver time limit per candidate deal.")
    candidates: int = Field(default=50, ge=1, description="Candidates tried before a day fails to prepare.")
    finalize_delay_s: float = Field(
        default=60.0, ge=0, description="Wait after a day closes before its final ranks are materialised."
    )

    @field_validator("variants")
    @classmethod
    def _known_variants(cls, value: str) -> str:
        names = [name.strip() for name in value.split(",") if name.strip()]
        unknown = [name for name in names if name not in VARIANTS]
        if unknown:
            raise ValueError(f"unknown variant {unknown[0]!r}; known: {', '.join(VARIANTS)}")
        return ",".join(names)

    @property
    def variant_ids(self) -> list[str]:
        return [name for name in self.variants.split(",") if name]


class ParSettings(SettingsGroup):
    """A race's par: the fewest moves the solver finds, worked out the same on every machine."""

    prefix = "par_"
    solver_nodes: int = Field(
        default=400_000, ge=1_000, description="Solver node budget for a race's par: the same par on every machine."
    )
    budget_s: float = Field(
        default=60.0, gt=0, description="Solver time limit for a race's par (a safety net; off the loop)."
    )
    at_race_end: bool = Field(
        default=True,
        description="Work out a finished race's par at once (two or more players); else when a review first asks.",
    )


class RatingSettings(SettingsGroup):
    """Races left unrated (a process died before rating them), found and rated late."""

    prefix = "rating_"
    sweep_interval_s: float = Field(
        default=600.0,
        ge=0,
        description="How often (and at start) finished rated races left unrated (a process died before rating "
        "them) are looked for and rated (0 = never).",
    )


class Settings(BaseSettings):
    """Every setting, by concern. Built from setting names (`Settings(port=0, daily_secret=...)`) over the
    environment's `FREECELL_ARENA_*` variables; a group may also be given whole (`Settings(daily=DailySettings())`)."""

    model_config = SettingsConfigDict(extra="forbid", frozen=True)

    process: ProcessSettings = ProcessSettings()
    cluster: ClusterSettings = ClusterSettings()
    store: StoreSettings = StoreSettings()
    connection: ConnectionSettings = ConnectionSettings()
    api: ApiSettings = ApiSettings()
    rooms: RoomSettings = RoomSettings()
    quick_race: QuickRaceSettings = QuickRaceSettings()
    house_bot: HouseBotSettings = HouseBotSettings()
    tournaments: TournamentSettings = TournamentSettings()
    daily: DailySettings = DailySettings()
    par: ParSettings = ParSettings()
    ratings: RatingSettings = RatingSettings()

    GROUPS: ClassVar[Mapping[str, type[SettingsGroup]]]
    """Group name -> its class (set below, from the fields)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The arguments, then the environment, both by setting name (the groups are this module's business)."""
        return init_settings, _Environment(settings_cls)

    @model_validator(mode="before")
    @classmethod
    def _into_groups(cls, data: Any) -> Any:
        """Setting names (the arguments' and the environment's) go to their groups; a group given whole stays."""
        if not isinstance(data, dict):
            return data
        grouped: dict[str, Any] = {}
        for key, value in data.items():
            place = SETTING_PLACES.get(key)
            if place is None or (key in cls.GROUPS and not isinstance(value, str | int | float | bool | None)):
                grouped[key] = value  # a group whole, or an unknown name (refused: extra="forbid")
                continue
            group, field = place
            target = grouped.setdefault(group, {})
            if isinstance(target, dict):
                target[field] = value
        return grouped

    @classmethod
    def from_names(cls, values: Mapping[str, object]) -> Settings:
        """The environment's settings with these, by setting name (a command's flags: `{"database_url": ...}`)."""
        arguments: dict[str, Any] = dict(values)  # checked by the validation, not by the type checker
        return cls(**arguments)

    @classmethod
    def setting_names(cls) -> list[str]:
        """Every setting's name, as `FREECELL_ARENA_` + its capitals names the environment variable."""
        return list(SETTING_PLACES)

    def named_values(self) -> Iterator[tuple[str, Any]]:
        """(setting name, value) for every setting: what `FREECELL_ARENA_*` would say to make these settings."""
        for name, (group, field) in SETTING_PLACES.items():
            yield name, getattr(getattr(self, group), field)

    @staticmethod
    def name_at(location: tuple[int | str, ...]) -> str:
        """The setting a validation error's location points to (`("daily", "secret")` -> `daily_secret`)."""
        if len(location) >= 2 and location[0] in Settings.GROUPS:
            group = Settings.GROUPS[str(location[0])]
            return group.setting_names().get(str(location[1]), str(location[1]))
        return str(location[0]) if location else "?"


Settings.GROUPS = {
    name: field.annotation for name, field in Settings.model_fields.items()
    if isinstance(field.annotation, type) and issubclass(field.annotation, SettingsGroup)
}  # fmt: skip
SETTING_PLACES: dict[str, tuple[str, str]] = {
    setting: (group_name, field)
    for group_name, group in Settings.GROUPS.items()
    for field, setting in group.setting_names().items()
}
"""Setting name -> (group, field)."""


class _Environment(PydanticBaseSettingsSource):
    """`FREECELL_ARENA_<SETTING>` for every setting, by setting name (case-insensitive, as pydantic-settings reads)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ reads by setting name

    def __call__(self) -> dict[str, Any]:
        environment = {key.upper(): value for key, value in os.environ.items()}
        return {name: environment[variable] for name in SETTING_PLACES
                if (variable := ENV_PREFIX + name.upper()) in environment}  # fmt: skip


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
