"""A limit on passkey and token attempts per key (a client address, a player), on the injected clock.

`net.ratelimit.TokenBucket` limits messages on a float monotonic clock inside one connection; attempts at
signing in must be limited on core's clock (tests drive it) and per address across connections, and core may
not import net. A refused attempt changes nothing and says when to try again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from freecell_arena.core.clock import Clock


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: datetime


class AttemptLimiter:
    """`per_minute` attempts per key sustained, `burst` at once. Keys whose bucket is full again are forgotten
    (`sweep`), so the table holds only the keys that tried recently."""

    def __init__(self, clock: Clock, per_minute: float, burst: int) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("an attempt limit needs per_minute > 0 and burst >= 1")
        self.clock = clock
        self.rate = per_minute / 60.0
        self.burst = burst
        self._buckets: dict[str, _Bucket] = {}

    def _refilled(self, key: str, now: datetime) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
        elapsed = max(0.0, (now - bucket.updated).total_seconds())
        bucket.tokens = min(float(self.burst), bucket.tokens + elapsed * self.rate)
        bucket.updated = now
        return bucket

    def allow(self, key: str) -> bool:
        """Count one attempt for `key`; False (nothing counted) when it has none left."""
        bucket = self._refilled(key, self.clock.now())
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def retry_after(self, key: str) -> timedelta:
        """How long until `key` may try again (zero when it may now)."""
        bucket = self._refilled(key, self.clock.now())
        missing = max(0.0, 1 - bucket.tokens)
        return timedelta(seconds=missing / self.rate)

    def sweep(self) -> None:
        now = self.clock.now()
        for key in [key for key in self._buckets if self._refilled(key, now).tokens >= self.burst]:
            del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)
