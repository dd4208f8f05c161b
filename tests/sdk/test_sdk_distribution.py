"""The SDK as its own distribution, as a bot author gets it: clients/python/pyproject.toml builds the wheel
`freecell-arena-client`, which goes into a fresh venv outside the checkout with its dependencies alone (at the
versions requirements/dev.lock pins, with hashes): nothing of the server's is there (no SQLAlchemy, no server
package), and its `freecell-arena-bot` races another of itself on a real server process. The SDK refuses a
`welcome` of another protocol version, and says which side is too old."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

import freecell_arena_client
from freecell_arena_client import ArenaClient, ProtocolError, ProtocolMismatch
from freecell_arena_client.cli import main as bot_main

from .support import REPO, client_env, serverprocess

SDK = REPO / "clients" / "python"
PYPROJECT = tomllib.loads((SDK / "pyproject.toml").read_text())
DEPENDENCIES = {"websockets", "pydantic", "pydantic-core", "annotated-types", "typing-extensions", "typing-inspection"}
"""What a fresh venv holds besides the SDK: its two dependencies and theirs (`pip check` there says it is enough)."""
STEP_TIMEOUT_S = 300
ROOM = re.compile(r"^freecell-arena-bot: room (\S+) ", re.MULTILINE)


def run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(list(map(str, command)), cwd=cwd, capture_output=True, text=True, timeout=STEP_TIMEOUT_S,
                            env=env)  # fmt: skip
    assert result.returncode == 0, f"{command}: {result.stdout[-3000:]}{result.stderr[-3000:]}"
    return result.stdout


def fresh_env() -> dict[str, str]:
    """Nothing of the checkout's: no PYTHONPATH, no FREECELL_ARENA_* setting, no active venv."""
    dropped = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    return {key: value for key, value in os.environ.items()
            if key not in dropped and not key.startswith("FREECELL_ARENA_")}  # fmt: skip


def locked(names: set[str]) -> str:
    """requirements/dev.lock's entries (the pin and its hashes) of these packages, as a requirements file."""
    entries = re.split(r"\n(?=[A-Za-z0-9])", (REPO / "requirements" / "dev.lock").read_text())
    chosen = [entry.split("    # via")[0].rstrip() for entry in entries
              if re.split(r"[=\s]", entry, maxsplit=1)[0].lower() in names]  # fmt: skip
    assert len(chosen) == len(names), f"dev.lock pins {len(chosen)} of {sorted(names)}"
    return "\n".join(chosen) + "\n"


@pytest.fixture(scope="module")
def sdk_venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The wheel built from a copy of what the SDK's pyproject names (the checkout stays free of build/), then a
    fresh venv with the locked dependencies and that wheel; its bin folder."""
    work = tmp_path_factory.mktemp("sdk-distribution")
    source = work / "source"
    ignored = shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "*.so")
    shutil.copytree(SDK, source / "clients" / "python", ignore=ignored)
    for part in ("engine", "protocol"):
        shutil.copytree(REPO / "server" / "freecell_arena" / part, source / "server" / "freecell_arena" / part,
                        ignore=ignored)  # fmt: skip
    wheels = work / "wheels"
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", wheels,
        source / "clients" / "python", cwd=work)  # fmt: skip
    (wheel,) = wheels.glob("freecell_arena_client-*.whl")
    assert wheel.name.startswith(f"freecell_arena_client-{PYPROJECT['project']['version']}-py3-none-any")
    venv = work / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=work)
    bin_dir = venv / "bin"
    (work / "sdk.lock").write_text(locked(DEPENDENCIES))
    pip = [bin_dir / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run(*pip, "--require-hashes", "-r", work / "sdk.lock", cwd=work, env=fresh_env())
    run(*pip, "--no-deps", wheel, cwd=work, env=fresh_env())
    yield bin_dir


def test_the_distribution_declares_only_what_the_sdk_imports() -> None:
    project = PYPROJECT["project"]
    assert project["name"] == "freecell-arena-client"
    assert project["version"] == freecell_arena_client.__version__
    assert sorted(re.split(r"[<>=!~; ]", dependency)[0] for dependency in project["dependencies"]) == [
        "pydantic", "websockets"]  # fmt: skip
    assert project["scripts"] == {"freecell-arena-bot": "freecell_arena_client.cli:main"}


def test_the_wheel_installs_alone_with_nothing_of_the_server(sdk_venv: Path, tmp_path: Path) -> None:
    run(sdk_venv / "python", "-m", "pip", "check", cwd=tmp_path, env=fresh_env())
    installed = json.loads(run(sdk_venv / "python", "-m", "pip", "list", "--format", "json", "--exclude", "pip",
                               "--exclude", "setuptools", cwd=tmp_path, env=fresh_env()))  # fmt: skip
    assert {package["name"].lower().replace("_", "-") for package in installed} == DEPENDENCIES | {
        "freecell-arena-client"}
    probe = """
import importlib.util, sys, freecell_arena_client, freecell_arena.engine, freecell_arena.protocol.registry
from freecell_arena_client.bots import BOTS
assert importlib.util.find_spec("sqlalchemy") is None, "sqlalchemy is importable"
for server_part in ("freecell_arena.net", "freecell_arena.core", "freecell_arena.store", "freecell_arena.settings"):
    assert importlib.util.find_spec(server_part) is None, server_part
assert "site-packages" in freecell_arena_client.__file__, freecell_arena_client.__file__
record = freecell_arena_client.GameText.of("freecell", 1, ["3a", "undo"], tags={"Player": "Mona"})
(again,) = freecell_arena_client.read_games("".join(freecell_arena_client.write_games([record])))
assert again == record and again.replay().board is not None, again
print(freecell_arena_client.__version__, sorted(BOTS))
"""
    assert run(sdk_venv / "python", "-c", probe, cwd=tmp_path, env=fresh_env()).split()[0] == "0.1.0"


def test_the_docs_export_check_runs_with_the_sdk_alone(sdk_venv: Path, tmp_path: Path) -> None:
    """docs/examples/verify_export.py, as docs/server.md gives it to whoever downloads a dump: a won game passes, a
    line whose result is wrong fails with its line number."""
    solution = (REPO / "tests" / "data" / "ms-deal-1-atomic.sn").read_text().split()
    won = {"game_id": "g_1", "variant": "freecell", "seed": "1", "moves": solution, "autoplay": False,
           "result": "won", "player_moves": len(solution)}  # fmt: skip
    dump = tmp_path / "games.ndjson"
    dump.write_text(json.dumps(won) + "\n")
    script = REPO / "docs" / "examples" / "verify_export.py"
    checked_out = run(sdk_venv / "python", script, dump, cwd=tmp_path, env=fresh_env())
    assert checked_out.strip() == "1 games replayed to their results"
    dump.write_text(json.dumps(won) + "\n" + json.dumps({**won, "game_id": "g_2", "result": "resigned"}) + "\n")
    checked = subprocess.run([sdk_venv / "python", script, dump], cwd=tmp_path, env=fresh_env(), capture_output=True,
                             text=True, timeout=120)  # fmt: skip
    assert checked.returncode == 1 and checked.stderr.startswith("line 2: game g_2:"), checked.stderr


async def race_command(bin_dir: Path, *args: str, cwd: Path) -> AsyncIterator[str]:
    """Yields the command's standard output line by line; fails unless it exits 0 in time."""
    pipe = asyncio.subprocess.PIPE
    process = await asyncio.create_subprocess_exec(bin_dir / "freecell-arena-bot", *args, cwd=cwd, env=fresh_env(),
                                                   stdout=pipe, stderr=pipe)  # fmt: skip
    try:
        assert process.stdout is not None and process.stderr is not None
        async with asyncio.timeout(240):
            while line := await process.stdout.readline():
                yield line.decode()
            error = (await process.stderr.read()).decode()
            assert await process.wait() == 0, f"freecell-arena-bot {' '.join(args)}: {error}"
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_the_installed_bot_races_another_on_a_server(sdk_venv: Path, tmp_path: Path) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
    async with serverprocess.running_server(tmp_path, database_url=database_url, env=client_env()) as server:
        code: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        async def host() -> str:
            lines = []
            async for line in race_command(sdk_venv, "--server", server.url, "--create", "freecell", "--deal", "5",
                                           "--players", "2", "--countdown", "0.1", "--time-limit", "150", "--bot",
                                           "solver", "--name", "wheel-host", cwd=tmp_path):  # fmt: skip
                if (found := ROOM.match(line)) and not code.done():
                    code.set_result(found[1])
                lines.append(line)
            return "".join(lines)

        async def guest() -> str:
            room = await asyncio.wait_for(asyncio.shield(code), 60)
            return "".join([line async for line in race_command(
                sdk_venv, "--server", server.url, "--room", room, "--bot", "solver", "--name", "wheel-guest",
                cwd=tmp_path)])  # fmt: skip

        hosted, joined = await asyncio.gather(host(), guest())
    for output in (hosted, joined):
        assert "wheel-host" in output and "wheel-guest" in output, output
    assert "freecell-arena-bot: won after " in hosted, hosted
    assert "(this bot)" in hosted and "(this bot)" in joined


async def a_server_of_protocol(protocol: int) -> AsyncIterator[str]:
    """A stand-in server whose `welcome` announces `protocol` (a real server of another version)."""

    async def answer(connection: ServerConnection) -> None:
        hello = json.loads(await connection.recv())
        welcome = {"type": "welcome", "id": hello["id"], "protocol": protocol, "player_id": "p", "name": "x",
                   "token": "t", "resumed": False}  # fmt: skip
        await connection.send(json.dumps(welcome))
        await connection.wait_closed()

    async with serve(answer, "127.0.0.1", 0) as stand_in:
        port = next(iter(stand_in.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}/"


@pytest.mark.parametrize("protocol", [5, 3])
async def test_a_welcome_of_another_protocol_says_which_side_is_too_old(protocol: int) -> None:
    async for url in a_server_of_protocol(protocol):
        with pytest.raises(ProtocolMismatch) as refused:
            await ArenaClient.connect(url, name="old-sdk")
    assert isinstance(refused.value, ProtocolError) and refused.value.server == protocol
    message = str(refused.value)
    assert f"speaks protocol 4, the server protocol {protocol}" in message
    if protocol > 4:
        assert "this SDK is too old for the server" in message and "pip install --upgrade" in message
    else:
        assert "the server is older than this SDK" in message


async def test_the_command_says_the_sdk_is_too_old_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    async for url in a_server_of_protocol(5):
        code = await asyncio.to_thread(bot_main, ["--server", url, "--create", "freecell", "--give-up-after", "1"])
    assert code == 1
    error = capsys.readouterr().err
    assert "this SDK is too old for the server" in error and "Traceback" not in error



def test_the_package_list_is_every_package_of_the_sdk_the_engine_and_the_protocol() -> None:
    """A new subpackage of any of them cannot be left out of the SDK's wheel."""
    from setuptools import find_packages

    setuptools_config = PYPROJECT["tool"]["setuptools"]
    server = REPO / "server"
    discovered = set(find_packages(where=str(SDK))) | {
        name for name in find_packages(where=str(server)) if name.split(".")[:2] in (
            ["freecell_arena", "engine"], ["freecell_arena", "protocol"])}  # fmt: skip
    assert set(setuptools_config["packages"]) == discovered
    for package, folder in setuptools_config["package-dir"].items():
        assert (SDK / folder / "__init__.py").resolve().is_file(), package
