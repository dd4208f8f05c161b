"""The command line as a user runs it: a real subprocess, real exit codes, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "freecell_arena", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_deal_prints_microsoft_deal_one() -> None:
    result = run_cli("deal", "freecell", "1")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Foundations: C-0 D-0 H-0 S-0"
    assert lines[2] == ": JD KD 2S 4C 3S 6D 6S"
    assert len(lines) == 2 + 8


def test_deal_json_has_every_card() -> None:
    result = run_cli("deal", "freecell-four-deck", "7", "--json")
    data = json.loads(result.stdout)
    assert data["variant"] == "freecell-four-deck"
    assert sum(len(column) for column in data["tableau"]) == 208


def test_replay_of_a_freecell_solver_solution_is_won() -> None:
    result = run_cli("replay", "freecell", "1", "--file", str(DATA / "ms-deal-1-atomic.sn"))
    assert result.returncode == 0, result.stderr
    moves = (DATA / "ms-deal-1-atomic.sn").read_text().split()
    assert result.stdout.splitlines()[-1] == f"won in {len(moves)} moves"


def test_replay_of_a_game_text_holds_it_to_its_tags(tmp_path: Path) -> None:
    moves = (DATA / "ms-deal-1-atomic.sn").read_text().split("\n")
    solution = [word for line in moves if not line.lstrip().startswith("#") for word in line.split()]
    won = f'[Variant "freecell"]\n[Seed "1"]\n[Result "won"]\n[Moves "{len(solution)}"]\n\n{" ".join(solution)}\n'
    game = tmp_path / "deal-1.fcgame"
    game.write_text(won)
    result = run_cli("replay", "--game", str(game))
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(f"won in {len(solution)} moves\n")
    unfinished = '[Variant "freecell"]\n[Seed "1"]\n[Result "*"]\n\n3a\n'
    many = run_cli("replay", "--game", "-", stdin=won + "\n" + unfinished)
    assert (many.returncode, many.stdout) == (0, "2 games replayed, each to the end its record says\n"), many.stderr
    said_won = won.replace(" ".join(solution), " ".join(solution[:10]))
    short = run_cli("replay", "--game", "-", stdin=won + "\n" + said_won)
    assert short.returncode == 1
    assert short.stderr.startswith("freecell-arena: not a game text: line 8: the record says 'won' but its moves")
    illegal = run_cli("replay", "--game", "-", stdin='[Variant "freecell"]\n[Seed "1"]\n\n3a 3a\n')
    assert illegal.returncode == 1 and "the game at line 1: move 2 (3a) refused: cell 1 already holds" in illegal.stderr
    mixed = run_cli("replay", "freecell", "1", "--game", str(game))
    assert mixed.returncode == 2 and "give nothing else" in mixed.stderr


def test_replay_reads_moves_from_standard_input() -> None:
    result = run_cli("replay", "freecell", "1", "--file", "-", stdin="5a\n5b 5c\n")
    assert result.returncode == 0
    assert "Freecells: 6C 8H 4H -" in result.stdout
    assert "won in" not in result.stdout


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        (["5a", "5b", "zz"], "move 3 (zz) refused: 'z' names nothing"),
        (["5a", "1h"], "move 2 (1h) refused: 6S cannot go to a foundation yet"),
        (["t1-t2x3"], "move 1 (t1-t2x3) refused: the top 3 cards of column 1 are not a run"),
        (["t1-t2x9"], "move 1 (t1-t2x9) refused: column 1 holds 7 cards, not 9"),
        (["undo"], "move 1 (undo) refused: there is no move of yours to take back"),
    ],
)
def test_replay_stops_at_the_first_bad_move(moves: list[str], expected: str) -> None:
    result = run_cli("replay", "freecell", "1", *moves)
    assert result.returncode == 1
    assert expected in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["deal", "klondike", "1"], "unknown variant 'klondike'"),
        (["deal", "freecell", "0"], "freecell deal numbers run from 1 to 2147483647, not 0"),
        (["deal", "chinese-freecell", "x1"], "seed must be a whole number, not 'x1'"),
        (["replay", "cell-eleven", "-5"], "seeds run from 0"),
        (["replay", "freecell", "1", "--file", "/nonexistent/moves"], "cannot read /nonexistent/moves"),
    ],
)
def test_bad_user_input_exits_two_with_one_clear_line(args: list[str], expected: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert expected in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [[], ["deal"], ["replay"]])
def test_help_is_available_everywhere(command: list[str]) -> None:
    result = run_cli(*command, "--help")
    assert result.returncode == 0
    assert "usage: freecell-arena" in result.stdout


def test_cell_eleven_deal_marks_face_down_cards_for_the_local_tool() -> None:
    result = run_cli("deal", "cell-eleven", "3")
    lines = result.stdout.splitlines()
    assert lines[2].count("(") == 0
    assert lines[3].count("(") == 5
