"""Rate limits: a token bucket (`rate` per second sustained, `burst` at once) per connection, and the limits kept
per client address (open connections, new identities)."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def describe(self) -> str:
        return f"at most {self.rate:g} messages per second (bursts of {self.burst})"

    def is_full(self) -> bool:
        """Nothing spent that has not grown back: forgetting the bucket changes nothing."""
        return min(self.burst, self.tokens + (self.clock() - self.updated) * self.rate) >= self.burst


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
        self.clock = clock
        self.open: dict[str, int] = {}
        self.identities: dict[str, TokenBucket] = {}

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
            bucket = self.identities.get(address)
            if bucket is not None and bucket.is_full():
                del self.identities[address]

    def allow_new_identity(self, address: str) -> bool:
        bucket = self.identities.get(address)
        if bucket is None:
            bucket = self.identities[address] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.allow()

    def describe_identities(self) -> str:
        return f"at most {self.rate * 60:g} new players a minute from one address (bursts of {self.burst})"
