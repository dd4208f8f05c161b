"""Prints, as JSON, real games of every variant played by the Python engine, for the web client's node tests.

For each variant: the opening player view, then per action the `changes` the server would send
(`engine.view.view_changes`, as `move_accepted` carries them), the whole view after it, and the move's pile ids with
the engine's generic notation. The tests put the changes into the opening view with the page's own module and
compare: so the page's view state is checked against the engine itself, not against a copy of its rules.
"""

import json
import random
import sys

from freecell_arena.engine import VARIANTS, Game, format_generic, variant_by_id
from freecell_arena.engine.moves import CELL, TABLEAU, Zone
from freecell_arena.engine.view import player_view, view_changes

ZONE_LETTERS = {TABLEAU: "t", CELL: "c"}


def pile(zone: Zone, index: int | None) -> str:
    return f"{ZONE_LETTERS.get(zone, 'f')}{(index or 0) + 1}"


def game_record(variant_id: str, seed: int, actions: int) -> dict[str, object]:
    variant = variant_by_id(variant_id)
    game = Game(variant, seed, autoplay=True, undo_allowed=True)
    chooser = random.Random(seed)
    record: dict[str, object] = {"variant": variant_id, "view": player_view(game.board), "turns": []}
    turns: list[dict[str, object]] = record["turns"]  # type: ignore[assignment]
    for number in range(actions):
        legal = list(game.board.legal_moves)
        if not legal:
            break
        if number % 7 == 6 and game.can_undo():
            turn = game.undo()
            entry: dict[str, object] = {"action": "undo"}
        else:
            off_cells = [move for move in legal if move.to_zone != CELL]
            move = chooser.choice(off_cells if off_cells and chooser.random() < 0.8 else legal)
            turn = game.play(move)
            entry = {
                "action": turn.action,
                "generic": format_generic(move),
                "from": pile(move.from_zone, move.from_index),
                "to": pile(move.to_zone, move.to_index),
                "count": move.count,
            }
        entry["changes"] = view_changes(game.board, turn.moves)
        entry["view"] = player_view(game.board)
        turns.append(entry)
    return record


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    json.dump([game_record(variant_id, 5, count) for variant_id in VARIANTS], sys.stdout)
