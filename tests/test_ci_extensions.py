""".ci/extensions_in_place.py, which lays the install check's compiled wheel's extensions beside the sources for
CI's suite: each extension lands at its own path under the folder and nothing else is written; a wheel with no
extension and a member that would leave the folder are refused, with nothing written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / ".ci"))

from extensions_in_place import extract  # noqa: E402


def wheel(folder: Path, members: dict[str, bytes]) -> Path:
    path = folder / "freecell_arena-0.1.0-cp311-cp311-linux_x86_64.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def sources(folder: Path) -> Path:
    root = folder / "server"
    (root / "freecell_arena" / "engine").mkdir(parents=True)
    (root / "freecell_arena" / "engine" / "board.py").write_text("# the source\n")
    return root


def test_each_extension_lands_beside_its_source_and_nothing_else_is_written(tmp_path: Path) -> None:
    root = sources(tmp_path)
    built = wheel(tmp_path, {"freecell_arena/_native__mypyc.cpython-311-x86_64-linux-gnu.so": b"group",
                             "freecell_arena/engine/board.cpython-311-x86_64-linux-gnu.so": b"board",
                             "freecell_arena/engine/board.py": b"# the wheel's copy\n",
                             "freecell_arena-0.1.0.dist-info/RECORD": b""})  # fmt: skip
    assert extract(built, root) == 2
    assert (root / "freecell_arena" / "engine" / "board.cpython-311-x86_64-linux-gnu.so").read_bytes() == b"board"
    assert (root / "freecell_arena" / "_native__mypyc.cpython-311-x86_64-linux-gnu.so").read_bytes() == b"group"
    assert (root / "freecell_arena" / "engine" / "board.py").read_text() == "# the source\n"
    assert not (root / "freecell_arena-0.1.0.dist-info").exists()


@pytest.mark.parametrize(("members", "refusal"), [
    ({"freecell_arena/engine/board.py": b""}, "holds no C extension"),
    ({"../escaped.so": b"x"}, "has no place among the sources"),
    ({"elsewhere/module.so": b"x"}, "has no place among the sources"),
    ({"freecell_arena/engine/board.cpython-311-x86_64-linux-gnu.so": b"board", "../escaped.so": b"x"},
     "has no place among the sources"),
])  # fmt: skip
def test_a_wheel_it_cannot_lay_in_place_is_refused(tmp_path: Path, members: dict[str, bytes], refusal: str) -> None:
    root = sources(tmp_path)
    with pytest.raises(SystemExit, match=refusal):
        extract(wheel(tmp_path, members), root)
    assert not list(tmp_path.rglob("*.so")), "nothing written"


def test_the_command_fails_when_a_compiled_module_is_not_imported_from_its_extension(tmp_path: Path) -> None:
    """On a copy of the sources with no extension beside them (the wheel's one extension is no module of the
    package), the install check's probe finds every compiled module interpreted and the command fails."""
    root = tmp_path / "server"
    shutil.copytree(REPO / "server" / "freecell_arena", root / "freecell_arena",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))  # fmt: skip
    built = wheel(tmp_path, {"freecell_arena/not_a_module.so": b"x"})
    environment = {name: value for name, value in os.environ.items() if name != "FREECELL_ARENA_PURE_PYTHON"}
    result = subprocess.run([sys.executable, str(REPO / ".ci" / "extensions_in_place.py"), str(built), str(root)],
                            capture_output=True, text=True, timeout=120, env=environment)  # fmt: skip
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 extensions" in result.stdout and "interpreted: ['freecell_arena." in result.stdout, result.stdout
