"""deploy/systemd/: the unit's stop timeout matches the server's, and the example environment files hold only real
settings with valid values (`systemd-analyze verify` itself runs in .ci/run: deploy/systemd/verify)."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

import pytest

from freecell_arena.settings import Settings
from freecell_arena.supervisor import STOP_GRACE_S

SYSTEMD = Path(__file__).resolve().parents[1] / "deploy" / "systemd"
UNIT = SYSTEMD / "freecell-arena@.service"
MARGIN_S = 5.0  # beyond the supervisor's own bound: its last wait, the interpreter's exit


def unit_service() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    parser.read_string(UNIT.read_text())
    return parser["Service"]


def seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)s?", value)
    assert match, f"write TimeoutStopSec in seconds, not {value!r}"
    return float(match.group(1))


def environment_file(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if line and not line.startswith("#"))
    return {key: value for key, value in pairs}


def test_the_stop_timeout_covers_the_longest_stop_of_a_supervisor_and_its_workers() -> None:
    """A supervisor waits for its workers the shutdown timeout + STOP_GRACE_S, kills the rest, waits STOP_GRACE_S
    more: systemd's SIGKILL must come only after all that, else a stop that would have ended cleanly is cut."""
    service = unit_service()
    assert service["Type"] == "notify" and service["KillMode"] == "mixed"
    shutdown = Settings().process.shutdown_timeout_s
    assert seconds(service["TimeoutStopSec"]) >= shutdown + 2 * STOP_GRACE_S + MARGIN_S
    for example in SYSTEMD.glob("*.env"):
        said = float(environment_file(example)["FREECELL_ARENA_SHUTDOWN_TIMEOUT_S"])
        assert seconds(service["TimeoutStopSec"]) >= said + 2 * STOP_GRACE_S + MARGIN_S, example.name


@pytest.mark.parametrize("example", sorted(SYSTEMD.glob("*.env")), ids=lambda path: path.name)
def test_the_example_environment_files_hold_real_settings(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    variables = environment_file(example)
    fields = {f"FREECELL_ARENA_{name.upper()}" for name in Settings.setting_names()}
    assert set(variables) <= fields, f"not settings: {set(variables) - fields}"
    for key, value in variables.items():
        monkeypatch.setenv(key, value)
    settings = Settings()  # every value valid
    assert settings.process.shutdown_timeout_s == float(variables["FREECELL_ARENA_SHUTDOWN_TIMEOUT_S"])
