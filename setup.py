"""The compiled build, on request: mypyc compiles the engine (moves, validation, autoplay, the solver) and core's
part of a move to C extensions, as black and mypy ship. pyproject.toml holds everything else about the package;
this file only adds the extension modules, and only when asked:

    FREECELL_ARENA_COMPILE=1 pip install --no-deps --no-build-isolation .

(mypy, which carries mypyc, comes from requirements/dev.lock; a C compiler and Python's headers must be at hand,
and a build that was asked for and cannot compile stops with the reason rather than ship the other build).
Without the variable nothing changes: README's `pip install -e .` and a plain `pip install .` build the pure
Python package, as fast as before, and an editable install never compiles (it runs the checkout's sources).
The compiled modules are the same files as the interpreted ones (no second copy, no hand-written C); which of
the two a process runs is `freecell_arena.build.running_build()` (`freecell-arena --version`, `/metrics`), and
`FREECELL_ARENA_PURE_PYTHON=1` at run time imports the sources even where the extensions are installed
(server/freecell_arena/__init__.py). docs/performance.md says what it speeds up and what it does not.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "server" / "freecell_arena"
GROUP = "freecell_arena._native"  # the extensions' shared library lives inside the package, not at the top level
BUILDING = ("bdist_wheel", "build_ext", "build", "install")  # not metadata alone: that would compile it twice


def _build_module() -> ModuleType:
    """freecell_arena/build.py, which says what is compiled, loaded by its path (the package is not installed yet)."""
    spec = importlib.util.spec_from_file_location("_freecell_arena_build", PACKAGE / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_sources() -> list[str]:
    """The modules to compile; the build stops if one would suspend while handling an exception, which mypyc
    compiles wrongly (build.py's `suspends_while_handling` says how, and what to write instead)."""
    build = _build_module()
    paths = build.compiled_paths(PACKAGE)
    findings = [f"server/freecell_arena/{path}:{finding}" for path in paths
                for finding in build.suspends_while_handling((PACKAGE / path).read_text())]  # fmt: skip
    if findings:
        sys.exit("freecell-arena: these compiled coroutines would suspend while handling an exception, which mypyc "
                 "compiles wrongly (freecell_arena/build.py, suspends_while_handling):\n  " + "\n  ".join(findings))
    return [str(Path("server", "freecell_arena", path)) for path in paths]


def why_not_compiled() -> str | None:
    if any(argument in ("editable_wheel", "develop") for argument in sys.argv):
        return "an editable install runs the checkout's sources; build a wheel or `pip install .` instead"
    if sys.implementation.name != "cpython":
        return f"mypyc compiles for CPython, not {sys.implementation.name}"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy: requirements/dev.lock, and --no-build-isolation)"
    return None


def forget_old_extensions() -> None:
    """setuptools puts into a compiled wheel whatever build/lib.<platform> holds, and pip builds in the checkout:
    the extensions of an earlier compiled build (a module compiled then and not now, e.g. after a trial that
    compiled core) would ship with this one and be imported instead of the module's source."""
    for stale in HERE.glob(f"build/lib*/freecell_arena/**/*{sysconfig.get_config_var('EXT_SUFFIX')}"):
        stale.unlink()


def extension_modules() -> list[object]:
    if any(command in sys.argv for command in BUILDING):
        forget_old_extensions()
    if os.environ.get("FREECELL_ARENA_COMPILE") != "1":
        return []
    reason = why_not_compiled()
    if reason is not None:
        sys.exit(f"freecell-arena: FREECELL_ARENA_COMPILE=1 asks for the compiled build, which cannot build: {reason}")
    if not any(command in sys.argv for command in BUILDING):
        return []
    from mypyc.build import mypycify

    # mypyc's C sources go under build/ (or FREECELL_ARENA_MYPYC_DIR: the test that compares both builds)
    target = os.environ.get("FREECELL_ARENA_MYPYC_DIR", "build")
    return list(mypycify(compiled_sources(), opt_level="3", group_name=GROUP, target_dir=target))


SDK_PACKAGES = ("freecell_arena_client", "freecell_arena.engine", "freecell_arena.protocol")
"""What the SDK's own distribution ships (clients/python/pyproject.toml), which the server's wheel requires rather
than carries: a venv that holds both then holds each file once. An editable install (README's `pip install -e .`)
still maps them all from the checkout, as it maps everything else."""


def of_the_sdk(package: str) -> bool:
    return any(package == name or package.startswith(name + ".") for name in SDK_PACKAGES)


class ServerOnlyBuildPy(build_py):
    """build_py for the server's wheel: the SDK's packages stay out of it (a compiled build's extensions of engine
    modules still go in, beside the sources the SDK's wheel brings)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not getattr(self, "editable_mode", False):
            self.packages = [package for package in self.packages or [] if not of_the_sdk(package)]
            self.package_data = {key: value for key, value in self.package_data.items() if not of_the_sdk(key)}

    def run(self) -> None:
        if not getattr(self, "editable_mode", False):  # an earlier build's copies would ship with this one
            for name in SDK_PACKAGES:
                for stale in Path(self.build_lib, *name.split(".")).rglob("*.py"):
                    stale.unlink()
        super().run()


setup(ext_modules=extension_modules(), cmdclass={"build_py": ServerOnlyBuildPy})
