"""Check a FreeCell Arena export with the SDK alone: `pip install freecell-arena-client` (its wheel carries the
engine), then `python verify_export.py games-2026-11.ndjson.gz`. Every line is replayed from its seed and moves
and must end as its `result` and `player_moves` say. Exit 0 when all do, 1 at the first that does not."""

from __future__ import annotations

import gzip
import json
import sys

from freecell_arena_client import GameText


def verify(path: str) -> int:
    count = 0
    with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            game = json.loads(line)
            record = GameText.of(game["variant"], game["seed"], game["moves"], autoplay=game["autoplay"],
                                 tags={"Result": game["result"], "Moves": game["player_moves"]})
            try:
                record.check()  # the engine replays every move and holds the end to `Result` and `Moves`
            except ValueError as error:  # an illegal move, a wrong result or count (all the engine's errors)
                print(f"line {number}: game {game['game_id']}: {error}", file=sys.stderr)
                return 1
            count += 1
    print(f"{count} games replayed to their results")
    return 0


if __name__ == "__main__":
    sys.exit(verify(sys.argv[1]))
