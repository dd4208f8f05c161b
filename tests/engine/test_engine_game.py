"""The game layer (RULINGS: counting moves, undo, safe autoplay, the end of a game) and the single-card count."""

from __future__ import annotations

import operator
from collections import deque

import pytest
from engine_layouts import cards, layout

from freecell_arena.engine import (
    CELL,
    FOUNDATION,
    TABLEAU,
    Board,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    ReplayError,
    is_safe,
    safe_autoplay,
    single_card_moves,
    variant_by_id,
)

FREECELL = variant_by_id("freecell")
ALL_RED_STUCK = ["KH", "KD", "QH", "QD", "JH", "JD", "TH", "TD"]


def game_on(variant_id: str, columns: list[str], **laid: object) -> Game:
    """A fresh game whose board is replaced, before any move, by a hand-laid position."""
    variant = variant_by_id(variant_id)
    game = Game(variant, variant.seed_range[0], autoplay=bool(laid.pop("autoplay", False)))
    game.board = layout(variant_id, columns, **laid)  # type: ignore[arg-type]
    return game


def test_a_single_card_move_counts_one_and_one() -> None:
    game = Game(FREECELL, 1)
    turn = game.act("5a")
    assert (game.player_moves, game.single_card_moves) == (1, 1)
    assert turn.action == "5a" and turn.move == Move(TABLEAU, 4, CELL, 0, 1)
    assert game.actions == ["5a"]


def test_a_multi_card_move_is_one_move_and_stands_for_its_single_card_moves() -> None:
    game = game_on("freecell", ["2D 9H 8S 7D", "TS"])
    game.play(Move(TABLEAU, 0, TABLEAU, 1, 3))
    assert game.player_moves == 1
    assert game.single_card_moves == 5  # three cards through four empty cells: 2 x 3 - 1


def test_a_supermove_through_empty_columns_counts_its_cheapest_decomposition() -> None:
    game = game_on("freecell", ["2D 9H 8S 7D", "TS", "", "", *["2C"] * 4], cells=["2H"] * 4)
    game.play(Move(TABLEAU, 0, TABLEAU, 1, 3))  # no empty cell, two empty columns: 7D, 8S parked, 9H over, back
    assert (game.player_moves, game.single_card_moves) == (1, 5)


def test_an_undo_is_one_move_and_autoplay_is_not_counted() -> None:
    game = game_on("freecell", ["AH KC", "2H", "5S"], autoplay=True)
    before = game.board.key()
    turn = game.play(Move(TABLEAU, 0, CELL, None, 1))
    assert turn.autoplay == [Move(TABLEAU, 0, FOUNDATION, 2, 1), Move(TABLEAU, 1, FOUNDATION, 2, 1)]
    assert (game.player_moves, game.single_card_moves) == (1, 1)
    undo = game.undo()
    assert undo.undone == [
        Move(TABLEAU, 1, FOUNDATION, 2, 1),
        Move(TABLEAU, 0, FOUNDATION, 2, 1),
        Move(TABLEAU, 0, CELL, 0, 1),
    ]
    assert game.board.key() == before
    assert (game.player_moves, game.single_card_moves) == (2, 2)
    assert game.actions == ["1a", "undo"]


def test_undo_with_nothing_to_undo_or_when_switched_off_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as refused:
        Game(FREECELL, 1).undo()
    assert refused.value.code == "nothing_to_undo"
    game = Game(FREECELL, 1, undo_allowed=False)
    game.act("5a")
    with pytest.raises(IllegalMoveError) as refused:
        game.act("undo")
    assert refused.value.code == "undo_disabled"
    assert game.player_moves == 1


def test_the_opening_autoplay_is_not_a_turn_and_cannot_be_undone() -> None:
    seed = next(seed for seed in range(1, 500) if Game(FREECELL, seed, autoplay=True).opening_autoplay)
    game = Game(FREECELL, seed, autoplay=True)
    assert game.player_moves == 0 and game.board.cards_on_foundations == len(game.opening_autoplay)
    with pytest.raises(IllegalMoveError, match="no move of yours"):
        game.undo()


def test_safe_autoplay_sends_only_cards_nothing_still_needs() -> None:
    # 3H could still take 2S (in column 3), so it stays; 2C is a Two: always safe; AS an Ace: always safe
    board = layout("freecell", ["3H", "2C", "2S", "AS"], foundations=[1, 0, 2, 0])
    made = safe_autoplay(board)
    assert made == [Move(TABLEAU, 1, FOUNDATION, 0, 1), Move(TABLEAU, 3, FOUNDATION, 3, 1),
                    Move(TABLEAU, 2, FOUNDATION, 3, 1), Move(TABLEAU, 0, FOUNDATION, 2, 1)]  # fmt: skip
    assert board.foundations == [2, 0, 3, 2]


def test_a_card_whose_builders_are_still_out_stays() -> None:
    board = layout("freecell", ["3H", "2S"], foundations=[2, 0, 2, 1])
    assert not is_safe(board, cards("3H")[0])
    made = safe_autoplay(board)
    assert made == [Move(TABLEAU, 1, FOUNDATION, 3, 1), Move(TABLEAU, 0, FOUNDATION, 2, 1)]
    board = layout("freecell", ["4H", "2D"], foundations=[3, 1, 3, 2])
    assert not is_safe(board, cards("4H")[0])  # 3S is not up yet
    assert safe_autoplay(board) == [Move(TABLEAU, 1, FOUNDATION, 1, 1)]


def test_with_several_decks_every_copy_of_a_builder_must_be_up() -> None:
    chinese = layout("chinese-freecell", ["3H"], foundations=[2, 1, 2, 0, 2, 2])
    assert not is_safe(chinese, cards("3H")[0])  # one 2D is still out: it could go on this 3H
    chinese.foundations = [2, 2, 2, 0, 2, 2]
    assert is_safe(chinese, cards("3H")[0])
    three_deck = layout("freecell-three-deck", ["3H"], foundations=[15, 0, 2, 28])
    assert not is_safe(three_deck, cards("3H")[0])  # two 2C of three and two 2S of three are up
    three_deck.foundations = [28, 0, 2, 28]
    assert is_safe(three_deck, cards("3H")[0])


def test_autoplay_scans_cells_first_then_columns_left_to_right() -> None:
    board = layout("freecell", ["AH", "AD"], cells=["-", "AS"])
    assert safe_autoplay(board) == [
        Move(CELL, 1, FOUNDATION, 3, 1),
        Move(TABLEAU, 0, FOUNDATION, 2, 1),
        Move(TABLEAU, 1, FOUNDATION, 1, 1),
    ]


def test_outcome_won_and_then_the_game_is_over() -> None:
    game = game_on("freecell", ["KS"], foundations=[13, 13, 13, 12])
    assert game.outcome is None
    game.play(Move(TABLEAU, 0, FOUNDATION, None, 1))
    assert game.outcome == "won" and game.board.is_won()
    for action in (game.undo, lambda: game.act("t1-c1")):
        with pytest.raises(IllegalMoveError) as refused:
            action()
        assert refused.value.code == "game_over"


def test_outcome_stuck_when_no_legal_move_is_left() -> None:
    board = layout("freecell", ALL_RED_STUCK, cells=["9H", "9D", "8H", "8D"])
    assert list(board.legal_moves) == [] and not board.legal_moves
    assert board.outcome() == "stuck"
    board.cells[3] = 0
    assert board.outcome() is None  # a card can go to the empty cell


def test_listing_the_legal_moves_generates_them_once() -> None:
    """`list()` asks for a size hint first: the view offers none (no `__len__`, no `__length_hint__`), which
    would generate every move a second time (a compiled Board cannot be subclassed to count the calls)."""
    board = Board(FREECELL, 1)
    moves = board.legal_moves
    assert operator.length_hint(moves, -1) == -1
    assert not hasattr(moves, "__len__") and not hasattr(moves, "__length_hint__")
    listed = list(moves)
    assert listed == list(board.generate_legal_moves()) and moves.count() == len(listed) > 0


def test_resigning_ends_the_game() -> None:
    game = Game(FREECELL, 1)
    game.resign()
    assert game.outcome == "resigned"
    with pytest.raises(IllegalMoveError, match="you resigned"):
        game.act("5a")


def test_replay_names_the_first_action_that_does_not_replay() -> None:
    with pytest.raises(ReplayError) as failed:
        Game.replay(FREECELL, 1, ["5a", "5b", "1h"])
    assert (failed.value.number, failed.value.action, failed.value.code) == (3, "1h", "target_refuses")
    with pytest.raises(ReplayError) as failed:
        Game.replay(FREECELL, 1, ["5a", "zz"])
    assert (failed.value.number, failed.value.code) == (2, "bad_notation")


@pytest.mark.parametrize("action", [None, 5, ["5a"]])
def test_an_action_that_is_not_text_is_refused_as_notation(action: object) -> None:
    with pytest.raises(ReplayError) as failed:
        Game.replay(FREECELL, 1, ["5a", action])  # type: ignore[list-item]
    assert failed.value.number == 2 and failed.value.code == "bad_notation"
    game = Game(FREECELL, 1)
    with pytest.raises(NotationError, match="a move in text notation is a string"):
        game.act(action)  # type: ignore[arg-type]
    assert game.actions == [] and game.player_moves == 0


def test_a_plain_tuple_is_played_as_the_move_it_spells() -> None:
    game = game_on("freecell", ["2D 9H 8S 7D", "TS"])
    turn = game.play((0, 0, 0, 1, 3))  # type: ignore[arg-type]
    assert turn.move == Move(TABLEAU, 0, TABLEAU, 1, 3) and type(turn.move) is Move
    assert (game.player_moves, game.single_card_moves) == (1, 5)
    assert game.play((0, 1, 1, 2, 1)).move == Move(TABLEAU, 1, CELL, 2, 1)  # type: ignore[arg-type]


def test_a_refused_move_changes_nothing() -> None:
    game = Game(FREECELL, 1)
    game.act("5a")
    before = (game.board.key(), list(game.actions), game.player_moves, game.single_card_moves)
    for bad in ("1h", "t1-t2x3", "zz", "aa"):
        with pytest.raises(ValueError):
            game.act(bad)
    assert (game.board.key(), game.actions, game.player_moves, game.single_card_moves) == before


# ---------------------------------------------------------------- the single-card count, against exhaustive search


def fewest_single_moves(length: int, empty_cells: int, empty_columns: int, into_empty: bool) -> int | None:
    """Breadth-first search over single-card moves: a run `length`..1 leaves the source column (whose card below
    accepts nothing) and must end on the destination, using these free cells and empty columns. A card goes onto
    the card one rank higher (the run alternates colours), into an empty cell, or into an empty column; the
    destination, when not empty, holds the card one above the run."""
    places = 2 + empty_columns  # 0 source, 1 destination, then the helper columns
    start = ((tuple(range(length, 0, -1)), *([()] * (places - 1))), (0,) * empty_cells)
    goal = tuple(range(length, 0, -1))
    depth = {start: 0}
    queue = deque([start])

    def accepts(stacks: tuple[tuple[int, ...], ...], place: int, card: int) -> bool:
        if stacks[place]:
            return stacks[place][-1] == card + 1
        if place == 0:
            return False
        if place == 1:
            return into_empty or card == length
        return True

    while queue:
        state = queue.popleft()
        stacks, cells = state
        if stacks[1] == goal:
            return depth[state]
        successors = []
        for source, stack in enumerate(stacks):
            if stack:
                successors += [(("column", source), ("column", target)) for target in range(places)
                               if target != source and accepts(stacks, target, stack[-1])]  # fmt: skip
                if 0 in cells:
                    successors.append((("column", source), ("cell", cells.index(0))))
        for index, card in enumerate(cells):
            if card:
                successors += [(("cell", index), ("column", target)) for target in range(places)
                               if accepts(stacks, target, card)]  # fmt: skip
        for (source_kind, source), (target_kind, target) in successors:
            new_stacks = [list(stack) for stack in stacks]
            new_cells = list(cells)
            if source_kind == "column":
                card = new_stacks[source].pop()
            else:
                card, new_cells[source] = new_cells[source], 0
            if target_kind == "column":
                new_stacks[target].append(card)
            else:
                new_cells[target] = card
            successor = (tuple(map(tuple, new_stacks)), tuple(sorted(new_cells, reverse=True)))
            if successor not in depth:
                depth[successor] = depth[state] + 1
                queue.append(successor)
    return None


@pytest.mark.parametrize("into_empty", [False, True], ids=["onto-a-card", "into-an-empty-column"])
@pytest.mark.parametrize(
    ("empty_cells", "empty_columns", "longest"),
    [(0, 1, 2), (0, 2, 4), (0, 3, 8), (1, 0, 2), (1, 1, 4), (1, 2, 8), (1, 3, 9), (2, 1, 6), (2, 2, 12), (3, 0, 4)],
)
def test_the_single_card_count_is_the_fewest_single_card_moves(
    empty_cells: int, empty_columns: int, longest: int, into_empty: bool
) -> None:
    """Up to the longest run these helpers can carry (Three Deck's (1 + cells) x 2^columns), or 9 cards where the
    search gets slow. A move into an empty column may park cards in that column on the way, so it can be cheaper."""
    for length in range(1, longest + 1):
        expected = fewest_single_moves(length, empty_cells, empty_columns, into_empty)
        assert single_card_moves(length, empty_cells, empty_columns, into_empty) == expected, length


def test_an_empty_destination_helps_a_long_three_deck_move() -> None:
    game = game_on("freecell-three-deck", ["2D KH QS JH TS 9H 8S 7H 6S", "", "", "", *["2C"] * 8], cells=["2C"] * 5)
    game.play(Move(TABLEAU, 0, TABLEAU, 1, 8))  # one empty cell, two other empty columns: limit 2 x 2^2 = 8
    assert game.single_card_moves == 25  # not 27: the empty destination holds cards on the way
