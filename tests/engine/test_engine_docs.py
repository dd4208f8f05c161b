"""The worked examples in docs/notation.md and docs/rules.md are real runs: each ```console block's command runs
here (in process, through `freecell_arena.cli.main`) and must print exactly what the block shows.

After a deliberate change, `PYTHONPATH=. python3 tests/engine/test_engine_docs.py --write` rewrites the outputs.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

import pytest

from freecell_arena.cli import main

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "docs" / "notation.md", REPO / "docs" / "rules.md"]
BLOCK = re.compile(r"```console\n\$ (freecell-arena [^\n]*)\n(.*?)```", re.DOTALL)


def run(command: str) -> tuple[int, str]:
    """Exit code and what the command prints (standard output, then standard error)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(shlex.split(command)[1:])
    return code, out.getvalue() + err.getvalue()


def examples() -> list[tuple[str, str, str]]:
    return [(path.name, command, shown) for path in DOCS for command, shown in BLOCK.findall(path.read_text())]


def test_the_docs_have_worked_examples_for_every_variant() -> None:
    from freecell_arena.engine import VARIANTS

    commands = [command for _, command, _ in examples()]
    for variant_id in VARIANTS:
        assert any(f" {variant_id} " in command for command in commands), variant_id


@pytest.mark.parametrize(("doc", "command", "shown"), examples())
def test_a_worked_example_prints_what_the_doc_shows(doc: str, command: str, shown: str) -> None:
    code, printed = run(command)
    assert printed == shown, f"{doc}: rerun tests/engine/test_engine_docs.py --write"
    assert (code == 0) == ("refused" not in printed)


def write() -> None:
    for path in DOCS:
        text = path.read_text()
        path.write_text(BLOCK.sub(lambda match: f"```console\n$ {match[1]}\n{run(match[1])[1]}```", text))


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()
