"""The dependency locks: refresh them, check them against pyproject.toml, or try the newest releases.

    python3 .ci/lock.py refresh   # re-resolve both locks from pyproject.toml (needs uv: it is in the dev extra)
    python3 .ci/lock.py check     # does each lock still match pyproject.toml? one line and exit 1 if not
    python3 .ci/lock.py newest    # the suite against today's newest releases, in a throwaway venv (reports only)

pyproject.toml keeps ranges (a library must install beside others); the locks pin every package, with hashes,
so a clean clone gets exactly the versions CI last passed with, whatever the package index serves that day:
- requirements/dev.lock: the server, the dev extra (tests, lint, types) and the build backend; the README's
  test command and .ci/run install from it.
- requirements/server.lock: the server and the build backend only, at the same versions as dev.lock; the
  Dockerfile's image installs from it.
- requirements/build.lock: the server, the build backend and mypy (mypyc), at dev.lock's versions; the
  Dockerfile's build stage installs from it to compile the wheel the image installs.
Each lock's header records a digest of the requirements it was made from, which `check` compares with
pyproject.toml's: it needs nothing but the standard library, so .ci/run runs it before installing anything.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = REPO / "pyproject.toml"
DIGEST_LINE = re.compile(r"^# inputs-sha256: ([0-9a-f]{64})$", re.MULTILINE)
PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==", re.MULTILINE)
REFRESH = "python3 .ci/lock.py refresh"


@dataclass(frozen=True)
class Lock:
    path: Path
    extras: tuple[str, ...]
    what: str

    def inputs(self, project: dict[str, object]) -> list[str]:
        """The requirements this lock is resolved from, in pyproject.toml's own words; a distribution of this
        repository (the SDK, `LOCAL`) stands for its own dependencies: it is installed from the checkout, not locked."""
        meta = project["project"]
        assert isinstance(meta, dict)
        requirements = [*meta["dependencies"]]
        for extra in self.extras:
            requirements += meta["optional-dependencies"][extra]
        build = project["build-system"]
        assert isinstance(build, dict)
        expanded: list[str] = []
        for requirement in [*requirements, *build["requires"]]:
            local = LOCAL.get(requirement_name(requirement))
            for one in [requirement] if local is None else local_dependencies(local):
                if one not in expanded:
                    expanded.append(one)
        return [*expanded, f"python{meta['requires-python']}"]

    def digest(self, project: dict[str, object]) -> str:
        normalized = sorted({re.sub(r"\s+", "", requirement).lower() for requirement in self.inputs(project)})
        return hashlib.sha256("\n".join(normalized).encode()).hexdigest()


LOCAL = {"freecell-arena-client": REPO / "clients" / "python" / "pyproject.toml"}
"""Distributions of this repository that pyproject.toml requires, by name: their pyproject."""


def local_dependencies(pyproject: Path) -> list[str]:
    meta = tomllib.loads(pyproject.read_text())["project"]
    return [*meta["dependencies"]]


DEV = Lock(REPO / "requirements" / "dev.lock", ("dev",), "the server, its tests and tools, and the build backend")
SERVER = Lock(REPO / "requirements" / "server.lock", (), "the server and the build backend (the Dockerfile's)")
BUILD = Lock(REPO / "requirements" / "build.lock", ("compile",),
             "the server, the build backend and mypyc (the Dockerfile's build stage)")  # fmt: skip
LOCKS = (DEV, SERVER, BUILD)


def project() -> dict[str, object]:
    return tomllib.loads(PYPROJECT.read_text())


def requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def problems() -> list[str]:
    """What is wrong with the locks, one line each (nothing: they match pyproject.toml)."""
    found = []
    meta = project()
    for lock in LOCKS:
        name = lock.path.relative_to(REPO)
        if not lock.path.exists():
            found.append(f"{name} is missing: run `{REFRESH}`")
            continue
        text = lock.path.read_text()
        recorded = DIGEST_LINE.search(text)
        if recorded is None:
            found.append(f"{name} was not made by `{REFRESH}` (no inputs-sha256 line): run it")
        elif recorded.group(1) != lock.digest(meta):
            found.append(f"{name} does not match pyproject.toml (its dependencies changed since): run `{REFRESH}`")
        pinned = {re.sub(r"[-_.]+", "-", pin).lower() for pin in PINNED.findall(text)}
        for requirement in lock.inputs(meta):
            if not requirement.startswith("python") and requirement_name(requirement) not in pinned:
                found.append(f"{name} pins no {requirement_name(requirement)}: run `{REFRESH}`")
    return found


def check() -> int:
    found = problems()
    for line in found:
        print(f"lock check: {line}", file=sys.stderr)
    if not found:
        print("lock check: requirements/*.lock match pyproject.toml")
    return 1 if found else 0


def uv() -> str:
    found = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    if not Path(found).exists():
        raise SystemExit("uv is not installed: `python3 -m pip install uv` (it is in the dev extra)")
    return found


def compile_lock(lock: Lock, constraints: Path | None) -> None:
    """Resolve one lock with uv for every platform and Python >= 3.11, keeping the versions it already pins
    (uv reads the output file as its preferences): a refresh moves only what pyproject.toml's change needs."""
    meta = project()
    with tempfile.TemporaryDirectory() as folder:
        inputs = Path(folder) / "requirements.in"
        inputs.write_text("\n".join(r for r in lock.inputs(meta) if not r.startswith("python")) + "\n")
        output = Path(folder) / "out.lock"
        if lock.path.exists():
            shutil.copy(lock.path, output)
        command = [uv(), "pip", "compile", str(inputs), "--universal", "--python-version", "3.11",
                   "--generate-hashes", "--no-header", "--quiet", "-o", str(output)]  # fmt: skip
        if constraints is not None:
            command += ["--constraint", str(constraints)]
        if os.environ.get("UPGRADE"):
            command.append("--upgrade")
        subprocess.run(command, check=True)
        body = output.read_text().replace(str(inputs), "requirements (pyproject.toml)")
        if constraints is not None:  # a temporary file's name would change the lock on every refresh
            body = body.replace(str(constraints), "requirements/dev.lock's versions")
    header = (
        f"# {lock.path.relative_to(REPO)}: every package of {lock.what}, pinned with hashes\n"
        f"# (any platform, Python >= 3.11). Made by `{REFRESH}` from pyproject.toml; do not edit by hand.\n"
        f"# inputs-sha256: {lock.digest(meta)}\n"
    )
    lock.path.parent.mkdir(exist_ok=True)
    lock.path.write_text(header + body)
    print(f"wrote {lock.path.relative_to(REPO)}")


def pins(lock: Lock) -> str:
    return "\n".join(line.split(" ")[0] for line in lock.path.read_text().splitlines() if "==" in line) + "\n"


def refresh() -> int:
    """dev.lock first, then server.lock and build.lock held to dev.lock's versions, so the image runs (and is
    compiled with) what CI tested."""
    compile_lock(DEV, None)
    with tempfile.TemporaryDirectory() as folder:
        constraints = Path(folder) / "constraints.txt"
        constraints.write_text(pins(DEV))
        compile_lock(SERVER, constraints)
        compile_lock(BUILD, constraints)
    print("see what changed: git diff --stat requirements/ && git diff requirements/ | grep '^[-+][a-z]'")
    return 0


def newest() -> int:
    """The suite against the newest releases pyproject.toml allows, in a throwaway venv: finds the next break
    before it reaches the lock. It reports (the newer versions, the suite's last lines); it gates nothing."""
    with tempfile.TemporaryDirectory(prefix="freecell-arena-newest-") as folder:
        venv = Path(folder) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = str(venv / "bin" / "python")
        subprocess.run([python, "-m", "pip", "install", "-q", "--upgrade", "-e", str(REPO / "clients" / "python"),
                        "-e", f"{REPO}[dev]"], check=True)  # fmt: skip
        listed = subprocess.run([python, "-m", "pip", "freeze", "--exclude-editable"], capture_output=True,
                                text=True, check=True).stdout  # fmt: skip
        locked = set(pins(DEV).lower().splitlines())
        newer = [line for line in listed.lower().splitlines() if "==" in line and line not in locked]
        print("newer than requirements/dev.lock:", ", ".join(newer) or "nothing")
        suite = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=REPO)
        print(f"the suite on the newest releases exited {suite.returncode}" + (" (the lock can move up: "
              f"UPGRADE=1 {REFRESH})" if suite.returncode == 0 else " (the next break: see above)"))  # fmt: skip
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["refresh", "check", "newest"])
    return {"refresh": refresh, "check": check, "newest": newest}[parser.parse_args().action]()


if __name__ == "__main__":
    sys.exit(main())
