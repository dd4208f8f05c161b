"""Lay a compiled wheel's C extensions beside the sources they were built from (run by .ci/run).

    python3 .ci/extensions_in_place.py WHEEL server

Each `*.so` member of WHEEL goes to the same path under the folder given (the package's source root), as
`FREECELL_ARENA_COMPILE=1 python3 setup.py build_ext --inplace` lays them out; nothing else is written. It refuses a
wheel with no extensions (a pure-Python one) and a member whose path would leave the folder, and then checks, as the
install check does in the image's venv, that every module setup.py compiles is imported from its extension here.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from install_check import COMPILED_PROBE  # this folder, sys.path[0] when run as a script


def extract(wheel: Path, root: Path) -> int:
    with zipfile.ZipFile(wheel) as archive:
        members = [name for name in archive.namelist() if name.endswith(".so")]
        if not members:
            raise SystemExit(f"{wheel.name} holds no C extension: not a compiled wheel")
        targets = {name: (root / name).resolve() for name in members}
        for name, target in targets.items():  # every member checked before any is written
            if not target.is_relative_to(root.resolve()) or not target.parent.is_dir():
                raise SystemExit(f"{wheel.name}'s {name} has no place among the sources under {root}")
        for name, target in targets.items():
            target.write_bytes(archive.read(name))
    return len(members)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        raise SystemExit(__doc__)
    wheel, root = Path(argv[0]), Path(argv[1])
    print(f"{extract(wheel, root)} extensions from {wheel.name} laid beside their sources under {root}")
    probe = subprocess.run([sys.executable, "-c", COMPILED_PROBE], cwd=root, capture_output=True, text=True,
                           timeout=120)  # fmt: skip
    print(probe.stdout.strip(), probe.stderr.strip()[-2000:])
    return probe.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
