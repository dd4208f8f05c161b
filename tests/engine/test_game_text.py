"""The game text format (engine/game_text.py, docs/notation.md "Game text"): what it writes it reads back, every
game of a seeded run in each variant replays from its text to the end it says, and text that is not a game is
refused with the line and the reason."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freecell_arena.engine import VARIANTS, Board, Game, ReplayError, variant_by_id
from freecell_arena.engine.game_text import GameText, GameTextError, read_game, read_games, write_games
from freecell_arena.engine.notation import format_move
from freecell_arena.engine.solver.solve import solve
from freecell_arena.engine.view import board_text

SHARED = Path(__file__).parents[2] / "clients" / "conformance" / "game-text"


def wandered(variant_id: str, seed: int, autoplay: bool, moves: int) -> Game:
    """A game of random legal moves (the seed's own walk), `moves` long or until none is left."""
    game = Game(variant_by_id(variant_id), seed, autoplay=autoplay)
    walk = random.Random(seed)
    for _ in range(moves):
        legal = list(game.board.generate_legal_moves())
        if not legal or game.board.is_won():
            break
        game.act(format_move(game.variant, walk.choice(legal)))
    return game


def recorded(game: Game, **tags: str | int | None) -> GameText:
    return GameText.of(game.variant.id, game.seed, game.actions, autoplay=game.autoplay, tags=tags)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_seeded_runs_games_replay_from_their_text_to_the_end_it_says(variant_id: str) -> None:
    # the last beyond JavaScript's exact integers (the seed is a string in the text); freecell's are deal numbers
    seeds = [3, 17, 2**31 - 1 if variant_id == "freecell" else 2**62 + 11]
    for seed in seeds:
        for autoplay in (False, True):
            game = wandered(variant_id, seed, autoplay, moves=60)
            text = recorded(game, Result="stuck", Moves=game.player_moves, Player="Mona").text()
            back = read_game(text)
            assert back.seed == seed and back.variant == variant_id and back.autoplay is autoplay
            replayed = back.check()
            assert board_text(replayed.board, hide_face_down=False) == board_text(game.board, hide_face_down=False)
    solution = solve(Board.deal(variant_by_id(variant_id), 5), budget=30)
    solved = GameText.of(variant_id, 5, solution.notation, tags={"Result": "won", "Moves": len(solution.notation)})
    won = read_game(solved.text())
    assert won.check().board.is_won()


def test_the_text_reads_as_docs_notation_md_shows_it() -> None:
    text = (
        '[Variant "freecell"]\n[Seed "11982"]\n[Autoplay "off"]\n[Date "2026-12-07"]\n[Player "Mona \\"M\\" \\\\ B"]\n'
        '[Result "*"]\n[Room "ABCD2345"]\n\n3a 82 # a comment\n\n6b\n'
    )
    record = read_game(text)
    assert record.moves == ("3a", "82", "6b")
    assert record.tag("Player") == 'Mona "M" \\ B'
    assert record.tag("Room") == "ABCD2345" and record.result == "*"
    assert record.text() == text.replace(" # a comment\n\n", " "), "written in one canonical form"
    assert read_game(record.text()) == record


def test_a_file_of_games_reads_one_game_at_a_time_and_a_game_of_no_moves_ends_at_the_next_tags() -> None:
    first = GameText.of("freecell", 1, [], tags={"Result": "*"})
    second = GameText.of("cell-eleven", 2, ["t1-c1"], autoplay=True, tags={"Date": "2026-12-01"})
    third = GameText.of("freecell-four-deck", 2**63 - 1, ["t1-c1", "t2-c2"])
    text = "".join(write_games([first, second, third]))
    lines = iter(text.splitlines(keepends=True))  # as a file gives them
    assert list(read_games(lines)) == [first, second, third]
    assert [record.line for record in read_games(text)] == [1, 8, 15]


@pytest.mark.parametrize("case", json.loads((SHARED / "refusals.json").read_text()), ids=lambda case: case["reason"])
def test_text_that_is_not_a_game_is_refused_with_its_line_and_why(case: dict[str, Any]) -> None:
    with pytest.raises(GameTextError) as refused:
        list(read_games(case["text"]))
    assert refused.value.line == case["line"]
    assert case["reason"] in refused.value.reason


def test_the_games_both_clients_read_read_as_recorded_and_write_back_byte_for_byte() -> None:
    """clients/conformance/game-text: the JavaScript client's tests hold it to the same files."""
    text = (SHARED / "games.fcgame").read_text(encoding="utf-8")
    games = list(read_games(text))
    expected = json.loads((SHARED / "games.json").read_text(encoding="utf-8"))
    read = [{"line": game.line, "tags": [list(tag) for tag in game.tags], "moves": list(game.moves)} for game in games]
    assert read == expected
    assert "".join(write_games(games)) == text
    for game in games:
        game.check()


def test_a_record_whose_moves_do_not_make_the_end_it_says_is_refused() -> None:
    game = wandered("freecell", 9, False, moves=20)
    with pytest.raises(GameTextError, match="the record says 'won' but its moves do not win"):
        recorded(game, Result="won").check()
    with pytest.raises(GameTextError, match=f"the record says 3 moves, its moves count {game.player_moves}"):
        recorded(game, Moves=3).check()
    illegal = GameText.of("freecell", 9, [*game.actions, "f1-t1"])
    with pytest.raises(ReplayError) as refused:
        illegal.check()
    assert refused.value.number == len(game.actions) + 1


def test_two_games_in_one_text_are_not_one_game() -> None:
    text = "".join(write_games([GameText.of("freecell", 1, []), GameText.of("freecell", 2, [])]))
    with pytest.raises(GameTextError, match="expected one game, found 2"):
        read_game(text)


printable = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40)


@given(
    tags=st.dictionaries(st.from_regex(r"[A-Z][A-Za-z0-9_]{0,12}", fullmatch=True), printable, max_size=6),
    moves=st.lists(st.from_regex(r"t[1-8]-(t[1-8]|c[1-4]|f)", fullmatch=True), max_size=30),
)
def test_whatever_tags_a_record_has_its_text_reads_back_as_it_was(tags: dict[str, str], moves: list[str]) -> None:
    checked = ("Variant", "Seed", "Autoplay", "Result", "Moves")
    record = GameText.of("freecell", 42, moves, tags={name: tags[name] for name in tags if name not in checked})
    assert read_game(record.text()) == record
