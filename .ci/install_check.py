"""Install the project as a user would, outside the checkout, and use it there (run by .ci/run).

The image, without Docker: the Dockerfile's own `pip` commands, as written, in fresh virtualenvs in a temporary
folder. Its build stage (requirements/build.lock, then `FREECELL_ARENA_COMPILE=1 pip wheel`) makes the compiled
wheel in one venv; its image stage installs requirements/server.lock and that wheel, with nothing more to resolve,
in another (the image's /wheels is a temporary folder). The build stage makes the SDK's wheel beside the server's
(clients/python: `freecell-arena-client`, which the server requires): the server's wheel's only top-level name is
`freecell_arena`, with the Alembic scripts and the browser app inside and no source of the SDK, the engine or the
protocol (the compiled build's extensions of engine modules are its own); the SDK's wheel carries those sources,
and `pip check` finds every requirement met. In the image's
venv: every compiled module is imported from its C extension (not from a source beside it), `--version` says
`compiled`, `freecell-arena --help`, `migrate` and `serve` run on a temporary SQLite file (until /healthz
answers, then every file of the browser app from the wheel's copy), and the SDK imports from a folder that holds
a `server.py` (the name that broke bots while the package was called `server`). Then the pure-Python wheel (what
a plain `pip install .` builds where no C compiler is) replaces it in the same venv, and serves too.
Exits non-zero on the first failure.

`--keep-wheel DIR` copies the compiled wheel there: .ci/run lays its extensions beside the sources for the suite
instead of compiling the same modules a second time (mypyc and gcc take minutes of CI's 25).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOP_LEVEL = {"freecell_arena"}
SDK_SOURCES = ("freecell_arena_client/", "freecell_arena/engine/", "freecell_arena/protocol/")
"""What the SDK's wheel carries and the server's leaves to it (setup.py's build_py)."""
LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)/")


def run(*command: str | Path, cwd: Path, timeout: float = 600, env: dict[str, str] | None = None) -> str:
    print("$", *(f"{key}={value}" for key, value in (env or {}).items()), *map(str, command), flush=True)
    result = subprocess.run(list(map(str, command)), cwd=cwd, capture_output=True, text=True, timeout=timeout,
                            env={**os.environ, **env} if env else None)  # fmt: skip
    if result.returncode != 0:
        raise SystemExit(f"failed ({result.returncode}): {result.stdout[-2000:]}{result.stderr[-2000:]}")
    return result.stdout


def pure_wheel(work: Path) -> Path:
    """What a plain `pip install .` builds (no FREECELL_ARENA_COMPILE): the pure-Python wheel."""
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work / "dist", REPO, cwd=work)
    (wheel,) = (work / "dist").glob("freecell_arena-*.whl")
    if "none-any" not in wheel.name:
        raise SystemExit(f"a plain build made a platform wheel: {wheel.name}")
    return checked_wheel(wheel)


def checked_wheel(wheel: Path) -> Path:
    members = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in members} - {""}
    top_level = {name for name in top_level if not name.endswith(".dist-info")}
    if top_level != TOP_LEVEL:
        raise SystemExit(f"{wheel.name}'s top-level names are {sorted(top_level)}, not {sorted(TOP_LEVEL)}")
    sdk_sources = [name for name in members if name.startswith(SDK_SOURCES) and not name.endswith(".so")]
    if sdk_sources:
        raise SystemExit(f"{wheel.name} carries sources of the SDK's wheel: {sdk_sources[:5]}")
    if "Requires-Dist: freecell-arena-client" not in zipfile.ZipFile(wheel).read(
            f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info/METADATA").decode():  # fmt: skip
        raise SystemExit(f"{wheel.name} does not require freecell-arena-client")
    if not any(name.startswith("freecell_arena/migrations/versions/0001_") for name in members):
        raise SystemExit(f"{wheel.name} does not carry the Alembic scripts")
    shipped = {path.removeprefix("freecell_arena/web") for path in members if path.startswith("freecell_arena/web/")}
    difference = shipped ^ set(servable_web_files())
    if difference:
        raise SystemExit(f"{wheel.name}'s browser app differs from what clients/web serves: {sorted(difference)}")
    return wheel


def checked_sdk_wheel(wheel: Path) -> Path:
    members = zipfile.ZipFile(wheel).namelist()
    for sources in SDK_SOURCES:
        if not any(name.startswith(sources) and name.endswith(".py") for name in members):
            raise SystemExit(f"{wheel.name} does not carry {sources}")
    if "freecell_arena/__init__.py" in members:
        raise SystemExit(f"{wheel.name} carries the server's package __init__")
    return wheel


COMPILED_PROBE = """
import importlib, importlib.machinery, pathlib, sys
import freecell_arena
from freecell_arena.build import running_build
package = pathlib.Path(freecell_arena.__file__).parent
from freecell_arena.build import compiled_modules
names = compiled_modules(pathlib.Path(freecell_arena.__file__).parent)
interpreted = [name for name in names if not isinstance(
    importlib.import_module(name).__spec__.loader, importlib.machinery.ExtensionFileLoader)]
print(running_build(), len(names), "interpreted:", interpreted)
sys.exit(1 if interpreted or running_build() != "compiled" else 0)
"""
"""Every module setup.py compiles (`freecell_arena.build.compiled_modules`) is imported from its C extension, in the
installed package."""


def check_compiled(work: Path, bin_dir: Path) -> None:
    print(run(bin_dir / "python", "-c", COMPILED_PROBE, cwd=work).strip())
    version = run(bin_dir / "freecell-arena", "--version", cwd=work).strip()
    if "compiled" not in version:
        raise SystemExit(f"the compiled install says {version!r}")
    print(version)


def servable_web_files() -> dict[str, bytes]:
    """What the server serves from clients/web, by URL path (net/web.py's own choice of files)."""
    sys.path.insert(0, str(REPO / "server"))
    from freecell_arena.net.web import load_files

    return {path: file.plain.body for path, file in load_files(REPO / "clients" / "web").items()}


def check_web_app(port: int) -> None:
    """The installed server finds the app inside the installed package (this runs outside the checkout)."""
    for path, body in servable_web_files().items():
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            if response.read() != body:
                raise SystemExit(f"the installed server answered {path} with other bytes than clients/web{path}")
    print(f"browser app: {len(servable_web_files())} files served from the installed package")


@dataclass(frozen=True)
class PipStep:
    """One `RUN [VAR=value ...] pip ...` of the Dockerfile (what follows `&&` is not pip's)."""

    env: dict[str, str]
    args: list[str]

    def run_in(self, bin_dir: Path, wheels: Path) -> None:
        args = []
        for arg in (arg.replace("/wheels", str(wheels)) for arg in self.args):
            args += sorted(glob.glob(arg)) if "*" in arg else [arg]  # the shell's glob, as the image's RUN has it
        run(bin_dir / "python", "-m", *args, "-q", cwd=REPO, timeout=900, env=self.env)


def dockerfile_stages() -> list[list[PipStep]]:
    """Each stage's `pip` commands, in order: the build stage's two (its lock, the compiled wheel), then the
    image's two (its lock, that wheel)."""
    stages: list[list[PipStep]] = []
    for instruction in re.split(r"\n(?=[A-Z]+ )", (REPO / "Dockerfile").read_text().replace("\\\n", " ")):
        if instruction.startswith("FROM "):
            stages.append([])
        elif instruction.startswith("RUN ") and stages:
            words = instruction.removeprefix("RUN ").split("&&")[0].split()
            if "pip" in words:
                at = words.index("pip")
                stages[-1].append(PipStep(dict(word.split("=", 1) for word in words[:at]), words[at:]))
    shape = [[step.args[:2] for step in stage] for stage in stages]
    if shape != [[["pip", "install"], ["pip", "wheel"]], [["pip", "install"], ["pip", "install"]]]:
        raise SystemExit(f"expected the Dockerfile's build stage (lock, wheel) and image (lock, wheel): {shape}")
    return stages


def new_venv(folder: Path) -> Path:
    run(sys.executable, "-m", "venv", folder, cwd=folder.parent)
    return folder / "bin"


def serve_until_healthy(bin_dir: Path, database_url: str, cwd: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("FREECELL_ARENA_")}
    env["FREECELL_ARENA_DAILY_PREPARE_INTERVAL_S"] = "0"
    command = [bin_dir / "freecell-arena", "serve", "--port", "0", "--database-url", database_url]
    print("$", " ".join(map(str, command)), flush=True)
    server = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        match = LISTENING.search(line)
        if match is None:
            raise SystemExit(f"serve did not start: {line!r}")
        url = f"http://127.0.0.1:{match.group(1)}/healthz"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url, timeout=3) as response:
                    print(f"{url}: {response.status} {response.read().decode().strip()}")
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        check_web_app(int(match.group(1)))
    finally:
        server.terminate()
        server.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep-wheel", type=Path, metavar="DIR", help="copy the compiled wheel into DIR")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="freecell-arena-install-") as folder:
        work = Path(folder)
        pure = pure_wheel(work)
        build, image = dockerfile_stages()
        wheels = work / "wheels"
        build_bin = new_venv(work / "build")
        for step in build:  # run from the checkout, as the build stage's COPY . . lays it out
            step.run_in(build_bin, wheels)
        (compiled,) = wheels.glob("freecell_arena-*.whl")
        (sdk,) = wheels.glob("freecell_arena_client-*.whl")
        checked_sdk_wheel(sdk)
        if "none-any" in compiled.name:
            raise SystemExit(f"the image's wheel is a pure-Python one: {compiled.name}")
        checked_wheel(compiled)
        if arguments.keep_wheel is not None:
            shutil.copy2(compiled, arguments.keep_wheel)
        bin_dir = new_venv(work / "venv")
        for step in image:
            step.run_in(bin_dir, wheels)
        located = run(bin_dir / "python", "-c", "import freecell_arena; print(freecell_arena.__file__)", cwd=work)
        if "site-packages" not in located or str(REPO) in located:
            raise SystemExit(f"freecell_arena was imported from {located.strip()}, not from the installed wheel")
        print(run(bin_dir / "python", "-m", "pip", "check", cwd=work).strip())
        check_compiled(work, bin_dir)
        run(bin_dir / "freecell-arena", "--help", cwd=work)
        database_url = f"sqlite+aiosqlite:///{work / 'arena.db'}"
        print(run(bin_dir / "freecell-arena", "migrate", "--database-url", database_url, cwd=work).strip())
        serve_until_healthy(bin_dir, database_url, work)
        bot = work / "my-bot"
        bot.mkdir()
        (bot / "server.py").write_text('raise SystemExit("the folder\'s own server.py was imported")\n')
        run(bin_dir / "python", "-c", "import freecell_arena_client, freecell_arena.engine; "
            "from freecell_arena_client import bots; print('SDK imports beside a server.py')", cwd=bot)  # fmt: skip
        run(bin_dir / "python", "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", pure, cwd=work)
        version = run(bin_dir / "freecell-arena", "--version", cwd=work).strip()
        if "compiled" in version:
            raise SystemExit(f"the pure-Python install says {version!r}")
        print(version)
        pure_url = f"sqlite+aiosqlite:///{work / 'pure.db'}"
        print(run(bin_dir / "freecell-arena", "migrate", "--database-url", pure_url, cwd=work).strip())
        serve_until_healthy(bin_dir, pure_url, work)
    print("install check: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
