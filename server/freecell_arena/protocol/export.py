"""Every game as open data: the line `freecell-arena export` writes for each finished game, and what
`GET /api/players/{player_id}/games` streams (NDJSON: one `ExportGame` per line).

One model for both, so a dump and the API can never disagree on a field; its JSON Schema is generated into
`docs/schema/export-game.json` (`freecell_arena.protocol.generate`). A line holds the game's variant, seed and
actions, which is all a replay needs (`freecell_arena.engine.game_text.GameText.of(...).check()` holds it to its
`result`), and what the boards made of it with the sanctions in force (`board`, `void`, `counts_as_bot`).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Final

from pydantic import Field

from freecell_arena.protocol.vocabulary import Outcome
from freecell_arena.protocol.wire import Message, Request, Seed, VariantId

NDJSON: Final = "application/x-ndjson"
"""The media type of a stream of exported games: one JSON object a line, each line ending in `\\n`."""

GAMES_PAGE_LIMIT: Final = 500
"""Most games one page of `GET /api/players/{player_id}/games` holds: a page is built whole before it is sent (the
HTTP front answers with one body), so its size is what bounds the server's memory per request."""
GAMES_PAGE_DEFAULT: Final = 100

NEXT_PAGE_HEADER: Final = "Link"
"""The next page's address, `<...?before=...&limit=N>; rel="next"` (RFC 8288), on a full page only."""


class ExportRating(Message):
    """The player's rating on the race's ladder, before and after the race, as the boards show it."""

    ladder: str = Field(description="`humans` or `bots`: the ladder the race was rated on for this player.")
    before: int = Field(description="The displayed rating before the race.")
    after: int = Field(description="The displayed rating after the race.")
    races: int = Field(description="The player's rated races on this ladder after this one.")


class ExportGame(Message):
    """One finished game as open data (CC0 when an operator publishes it: docs/server.md, "Open data").

    Only what anyone may see once the game is public: never a running race's game, a daily's before its day
    closes, or a cup heat's before the cup is over. The sanctions in force are applied as the boards apply them
    (`freecell_arena.core.moderation.sanctions.game_board`): a void game is marked `void` and counts on no board; a
    marked player's win sits on the bots' side."""

    game_id: str
    variant: VariantId
    seed: Seed
    deal: int | None = Field(description="The Microsoft deal number (`freecell`: the seed); null in the variants "
                                         "dealt by the project's own shuffle.")  # fmt: skip
    rules_version: str = Field(description="The engine's rules version the game was validated under.")
    autoplay: bool = Field(description="Autoplay was on: replay with it on (docs/notation.md).")
    undo_allowed: bool
    moves: list[str] = Field(description="The player's actions in order, in the variant's notation (`undo` "
                                         "takes back the last): with `autoplay`, they replay the game to its end.")
    result: Outcome
    player_moves: int
    cards_on_foundations: int
    time_ms: int
    started_at: datetime
    finished_at: datetime
    player_id: str
    bot: bool = Field(description="The player is a program (a bot account).")
    counts_as_bot: bool = Field(description="The boards count the player as a program: a bot, or a person a "
                                            "moderator marked as playing with help.")  # fmt: skip
    ranked: bool
    board: str | None = Field(description="The leaderboard the game counts on with the sanctions in force applied; "
                                          "null when unranked or void.")  # fmt: skip
    void: bool = Field(description="A moderator voided the game: it counts nowhere (no board, rating or streak).")
    daily: date | None = Field(description="The day, for a daily challenge game.")
    room_code: str | None = Field(description="The race's room (null for a daily).")
    tournament_id: str | None = Field(description="The tournament the race belonged to, if any.")
    rating: ExportRating | None = Field(description="The race's rating change for the player; null: unrated.")


GamesLimit = Annotated[
    int, Field(ge=1, le=GAMES_PAGE_LIMIT, description=f"Games per page (1..{GAMES_PAGE_LIMIT}).")
]


class PlayerGamesQuery(Request):
    """`GET /api/players/{player_id}/games`: the player's public finished games, newest first, `limit` a page; the
    next page starts `before` the last game's `finished_at` and id (the `Link` header names it)."""

    player_id: str = Field(max_length=64)
    before: datetime | None = Field(default=None, description="Only games finished before this instant (ISO 8601 "
                                                              "with its UTC offset).")  # fmt: skip
    before_id: str | None = Field(default=None, max_length=64, description="With `before`: also the games "
                                                                           "finished at exactly `before` whose id "
                                                                           "sorts before this one (the `Link` "
                                                                           "header sets it).")  # fmt: skip
    limit: GamesLimit = GAMES_PAGE_DEFAULT
