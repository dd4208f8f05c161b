"""Rate limits: a token bucket (`rate` per second sustained, `burst` at once) per connection, and the limits kept
per client address (open connections, new identities, HTTP API requests)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final


class TokenBucket:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = self._tokens_at(now)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token (0 when there is one now): a refused client's `Retry-After`."""
        return max(0.0, (1 - self._tokens_at(self.clock())) / self.rate)

    def describe(self) -> str:
        return f"at most {self.rate:g} messages per second (bursts of {self.burst})"

    def is_full(self) -> bool:
        """Nothing spent that has not grown back: forgetting the bucket changes nothing."""
        return self._tokens_at(self.clock()) >= self.burst

    def _tokens_at(self, now: float) -> float:
        """The tokens there are at `now`: what was left, grown back at `rate`, up to `burst`."""
        return min(self.burst, self.tokens + (now - self.updated) * self.rate)


SWEEP_EVERY_S: Final = 60.0
"""How often `AddressBuckets` drops the buckets that are full again."""


class AddressBuckets:
    """A token bucket per client address, made on its first request. A full bucket limits nothing, so the
    buckets that are full again are dropped now and then (`SWEEP_EVERY_S`): the table holds only the addresses
    active lately, however many ask."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}
        self._next_sweep = clock() + SWEEP_EVERY_S

    def allow(self, address: str) -> bool:
        if self.clock() >= self._next_sweep:
            self.sweep()
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.allow()

    def wait(self, address: str) -> float:
        bucket = self.buckets.get(address)
        return 0.0 if bucket is None else bucket.wait()

    def forget_if_full(self, address: str) -> None:
        bucket = self.buckets.get(address)
        if bucket is not None and bucket.is_full():
            del self.buckets[address]

    def sweep(self) -> None:
        self._next_sweep = self.clock() + SWEEP_EVERY_S
        for address in [address for address, bucket in self.buckets.items() if bucket.is_full()]:
            del self.buckets[address]


class PerAddress:
    """What the server limits per client address: open connections (a cap) and new identities (a bucket).

    Entries go away once they limit nothing (no connection open, the bucket full again), so the table holds
    only the addresses that are active now."""

    def __init__(
        self, max_connections: int, new_identities_per_minute: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.max_connections = max_connections
        self.rate = new_identities_per_minute / 60
        self.burst = max(1, round(new_identities_per_minute / 4))
        self.open: dict[str, int] = {}
        self.identities = AddressBuckets(self.rate, self.burst, clock)

    def connect(self, address: str) -> bool:
        """Count a new connection from `address`; False (and nothing counted) when it already holds the cap."""
        count = self.open.get(address, 0)
        if count >= self.max_connections:
            return False
        self.open[address] = count + 1
        return True

    def disconnect(self, address: str) -> None:
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)
            self.identities.forget_if_full(address)

    def allow_new_identity(self, address: str) -> bool:
        return self.identities.allow(address)

    def describe_identities(self) -> str:
        return f"at most {self.rate * 60:g} new players a minute from one address (bursts of {self.burst})"
