"""Engine test settings: Hypothesis profiles and the Freecell Solver requirement.

Profiles (pick one with HYPOTHESIS_PROFILE=...): `ci` (the default under CI=true) runs a modest, derandomized
number of examples so a CI run is reproducible and the engine tests stay well under a minute on two cores; `dev`
(the default elsewhere) runs as many examples but with fresh randomness on each run, so local runs keep exploring;
`thorough` is for a deliberate bug hunt.
"""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import HealthCheck, settings

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
settings.register_profile("ci", max_examples=100, derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("dev", max_examples=100, **_COMMON)
settings.register_profile("thorough", max_examples=2000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") == "true" else "dev"))

FREECELL_SOLVER_TOOLS = ("fc-solve", "make-microsoft-freecell-board")


@pytest.fixture(scope="session")
def freecell_solver() -> None:
    """Skip without Freecell Solver, except under CI=true, where its absence is a failure (as in tests/conftest)."""
    missing = [tool for tool in FREECELL_SOLVER_TOOLS if shutil.which(tool) is None]
    if not missing:
        return
    message = f"{', '.join(missing)} not installed (Debian package freecell-solver-bin)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message}; CI=true requires it", pytrace=False)
    pytest.skip(message)
