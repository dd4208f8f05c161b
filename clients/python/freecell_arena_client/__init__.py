"""FreeCell Arena's Python SDK: an async client typed with the server's models, and a bot runner.

    from freecell_arena_client import Bot, run_bot

A bot writes `choose_move(board) -> Move | str | None`; `run_bot` (or `freecell-arena-bot` on the command line)
does the rest: connect, hello, create or join the room, play the race, reconnect and resume. See docs/bots.md.
A game as text (docs/notation.md, "Game text"): `read_game`, `read_games`, `write_games` and `GameText`, the
engine's own reader and writer (`freecell_arena.engine.game_text`, which ships in this wheel).
"""

__version__ = "0.1.0"  # clients/python/pyproject.toml's version: the distribution freecell-arena-client

from freecell_arena.engine.game_text import GameText, GameTextError, read_game, read_games, write_games
from freecell_arena_client.bot import Bot
from freecell_arena_client.client import ArenaClient, wire_move
from freecell_arena_client.errors import (
    ArenaClientError,
    ArenaError,
    BotError,
    ConnectionLost,
    ProtocolError,
    ProtocolMismatch,
)
from freecell_arena_client.runner import (
    BotRunner,
    NewRoom,
    RaceNotStarted,
    RaceResult,
    Reconnect,
    RunConfig,
    run_bot,
)
from freecell_arena_client.tokens import TokenFile

__all__ = [
    "ArenaClient",
    "ArenaClientError",
    "ArenaError",
    "Bot",
    "BotError",
    "BotRunner",
    "ConnectionLost",
    "GameText",
    "GameTextError",
    "NewRoom",
    "ProtocolError",
    "ProtocolMismatch",
    "RaceNotStarted",
    "RaceResult",
    "Reconnect",
    "RunConfig",
    "TokenFile",
    "__version__",
    "read_game",
    "read_games",
    "run_bot",
    "wire_move",
    "write_games",
]
