"""Fixtures of the tests of core's rooms: the one manual clock, and the shared state the rooms are built on."""

from __future__ import annotations

import pytest
from core_support import ManualClock

from freecell_arena.core.live.shared_state import SharedState


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def state(clock: ManualClock) -> SharedState:
    return SharedState(clock)
