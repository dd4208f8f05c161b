"""Prometheus metrics for operators: `GET /metrics` in the text format, rendered by `prometheus_client`.

The hot path only adds to plain Python numbers (a dict entry, a list slot found by `bisect`): a move costs a few
hundred nanoseconds of bookkeeping, not a labelled-metric lookup and a lock per sample. `prometheus_client` turns
those numbers into metric families when the endpoint is scraped (a custom collector on a registry of this
server's own, so several servers in one process, as in the tests, never share counts). Metric names and meanings
are listed in docs/server.md.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric

from freecell_arena import __version__
from freecell_arena.build import running_build
from freecell_arena.core.ports.records import RoomStatusRecord

# seconds: a move answered from memory takes tens of microseconds; a durable one waits for its commit
LATENCY_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
LOOP_LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
LOOP_LAG_INTERVAL_S = 0.5
CONTENT_TYPE = CONTENT_TYPE_LATEST
BUILD = running_build()  # found once: a process does not change build


class Buckets:
    """A histogram's counts, kept by hand on the hot path and handed to prometheus_client at scrape time."""

    def __init__(self, bounds: Iterable[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last slot is +Inf
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value

    def family(self, name: str, documentation: str) -> HistogramMetricFamily:
        cumulative, running = [], 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += count
            cumulative.append(("+Inf" if bound == float("inf") else repr(float(bound)), running))
        return HistogramMetricFamily(name, documentation, buckets=cumulative, sum_value=self.total)


LIMITS = ("connections_per_address", "new_players_per_minute", "http_api")
"""The per-address limits, as `freecell_arena_limit_refusals_total{limit}` names them."""


class ServerMetrics:
    """Everything `/metrics` reports for one server. `rooms_by_status`, `connected_players` and `room_resyncs`
    are read at scrape time from the live state (nothing to keep up to date on the hot path); `ready` is set by
    the server just before each scrape (readiness needs an await)."""

    def __init__(
        self,
        rooms_by_status: Callable[[], Mapping[str, int]],
        connected_players: Callable[[], int],
        room_resyncs: Callable[[], int] = lambda: 0,
    ) -> None:
        self._rooms_by_status = rooms_by_status
        self._connected_players = connected_players
        self._room_resyncs = room_resyncs
        self.ready = False
        self.limit_refusals: Counter[str] = Counter()
        self.connections = 0
        self.races_started = 0
        self.races_finished = 0
        self.moves_accepted: Counter[str] = Counter()
        self.moves_refused: Counter[tuple[str, str]] = Counter()
        self.errors: Counter[str] = Counter()
        self.frames_dropped = 0
        self.rate_limited = 0
        self.move_round_trip = Buckets(LATENCY_BUCKETS)
        self.commit_seconds = Buckets(LATENCY_BUCKETS)
        self.commit_batch_records = Buckets(BATCH_BUCKETS)
        self.commit_failures = 0
        self.loop_lag = Buckets(LOOP_LAG_BUCKETS)
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(self)

    # ------------------------------------------------------------------ what the adapters report

    def room_status_stored(self, record: RoomStatusRecord) -> None:
        """Races started and finished, from the room status changes stored (net/effects.py's `after_stored`)."""
        if record.status == "running":
            self.races_started += 1
        elif record.status == "finished":
            self.races_finished += 1

    def observe_commit(self, records: int, seconds: float, committed: bool) -> None:
        """Called by the group-commit writer after each transaction."""
        self.commit_seconds.observe(seconds)
        self.commit_batch_records.observe(records)
        if not committed:
            self.commit_failures += 1

    async def watch_loop_lag(self) -> None:
        """Sleep a fixed interval and record how late the loop woke up: the delay every frame waits too."""
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await asyncio.sleep(LOOP_LAG_INTERVAL_S)
            self.loop_lag.observe(max(0.0, loop.time() - started - LOOP_LAG_INTERVAL_S))

    # ------------------------------------------------------------------ exposition

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def collect(self) -> Iterator[Metric]:
        build = GaugeMetricFamily("freecell_arena_build_info", "Always 1; `build`: whether the engine and its "
                                  "solver run compiled (mypyc) or not.", labels=["version", "build"])  # fmt: skip
        build.add_metric([__version__, BUILD], 1)
        yield build
        yield _gauge("freecell_arena_ready", "1 when this process can take players (GET /readyz answers 200), "
                     "else 0.", 1 if self.ready else 0)  # fmt: skip
        yield _gauge("freecell_arena_connections", "Open websocket connections.", self.connections)
        yield _gauge("freecell_arena_connected_players", "Players with a connection that said hello.",
                     self._connected_players())  # fmt: skip
        rooms = GaugeMetricFamily("freecell_arena_rooms", "Rooms in memory, by status.", labels=["status"])
        counts = self._rooms_by_status()
        for status in ("lobby", "countdown", "running", "finished"):
            rooms.add_metric([status], counts.get(status, 0))
        yield rooms
        yield _counter("freecell_arena_races_started", "Races that started (countdown over).", self.races_started)
        yield _counter("freecell_arena_races_finished", "Races that ended with standings.", self.races_finished)
        accepted = CounterMetricFamily("freecell_arena_moves_accepted", "Moves accepted and stored, by variant.",
                                       labels=["variant"])  # fmt: skip
        for variant, count in sorted(self.moves_accepted.items()):
            accepted.add_metric([variant], count)
        yield accepted
        refused = CounterMetricFamily("freecell_arena_moves_refused", "Moves refused, by variant and reason "
                                      "(the error code sent back).", labels=["variant", "reason"])  # fmt: skip
        for (variant, reason), count in sorted(self.moves_refused.items()):
            refused.add_metric([variant, reason], count)
        yield refused
        errors = CounterMetricFamily("freecell_arena_errors", "Error messages sent, by code.", labels=["code"])
        for code, count in sorted(self.errors.items()):
            errors.add_metric([code], count)
        yield errors
        yield _counter("freecell_arena_frames_dropped", "Frames not sent to a client that stopped reading (the "
                       "connection is cut).", self.frames_dropped)  # fmt: skip
        yield _counter("freecell_arena_rate_limited_frames", "Frames dropped by the per-connection rate limit.",
                       self.rate_limited)  # fmt: skip
        refusals = CounterMetricFamily("freecell_arena_limit_refusals", "Connections closed, new players or HTTP "
                                       "API requests refused by a per-client-address limit, by limit.",
                                       labels=["limit"])  # fmt: skip
        for limit in LIMITS:
            refusals.add_metric([limit], self.limit_refusals[limit])
        yield refusals
        yield _counter("freecell_arena_room_resyncs", "Rooms re-read from the database because this process's copy "
                       "was behind (a missed Redis event, a lost race); 0 without Redis.", self._room_resyncs())
        yield self.move_round_trip.family("freecell_arena_move_round_trip_seconds",
                                          "A move inside the server: frame read to acknowledgement written "
                                          "(the durable commit included).")  # fmt: skip
        yield self.commit_seconds.family("freecell_arena_commit_seconds", "One group-commit transaction.")
        yield self.commit_batch_records.family("freecell_arena_commit_batch_records",
                                               "Records per group-commit transaction.")  # fmt: skip
        yield _counter("freecell_arena_commit_failures", "Group-commit transactions that failed.",
                       self.commit_failures)  # fmt: skip
        lag = f"How late the event loop wakes from a {LOOP_LAG_INTERVAL_S:g} s sleep."
        yield self.loop_lag.family("freecell_arena_event_loop_lag_seconds", lag)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def _counter(name: str, documentation: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, documentation, value=value)

