"""The dependency locks (.ci/lock.py): they match pyproject.toml, and an edit of one without the other is caught
with one clear line (the check .ci/run starts with)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def checkout_copy(tmp_path: Path) -> Path:
    """What the check reads, in a folder of its own: the tool, pyproject.toml (and the SDK's, whose dependencies
    stand for it in the server's), and the locks."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(REPO / ".ci" / "lock.py", tmp_path / ".ci" / "lock.py")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "clients" / "python").mkdir(parents=True)
    shutil.copy(REPO / "clients" / "python" / "pyproject.toml", tmp_path / "clients" / "python" / "pyproject.toml")
    shutil.copytree(REPO / "requirements", tmp_path / "requirements")
    return tmp_path


def check(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(folder / ".ci" / "lock.py"), "check"], capture_output=True, text=True,
                          timeout=60)  # fmt: skip


def test_the_committed_locks_match_pyproject() -> None:
    result = check(REPO)
    assert result.returncode == 0, result.stderr


def test_a_dependency_changed_without_refreshing_the_lock_fails_with_one_line(tmp_path: Path) -> None:
    folder = checkout_copy(tmp_path)
    pyproject = folder / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('"pyyaml>=6",', '"pyyaml>=6.0.2",', 1))
    result = check(folder)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "lock check: requirements/dev.lock does not match pyproject.toml (its dependencies changed since): "
        "run `python3 .ci/lock.py refresh`"
    ]


def test_a_lock_edited_by_hand_is_caught(tmp_path: Path) -> None:
    folder = checkout_copy(tmp_path)
    lock = folder / "requirements" / "server.lock"
    lock.write_text("\n".join(line for line in lock.read_text().splitlines() if not line.startswith("# inputs")))
    result = check(folder)
    assert result.returncode == 1
    assert "server.lock was not made by `python3 .ci/lock.py refresh`" in result.stderr
