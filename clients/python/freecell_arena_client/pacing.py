"""Client-side pacing: stay under the server's per-connection rate limit instead of collecting `rate_limited`."""

from __future__ import annotations

import asyncio
import time


class Pacer:
    """A token bucket: `rate` sends per second sustained, `burst` at once; `wait` sleeps until a send may go."""

    def __init__(self, rate: float, burst: int | None = None) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.burst = burst if burst is not None else max(1, int(rate))
        self.tokens = float(self.burst)
        self.updated = time.monotonic()

    async def wait(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
            self.updated = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / self.rate)
