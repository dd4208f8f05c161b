"""The board as a player sees it: cards, the player view, what an action changes in it, and one's own game.

The view and its changes are TypedDicts, not models: they describe the plain dicts `freecell_arena.engine.view`
builds (`player_view`, `view_changes`; the engine imports nothing of the protocol), which the replies of several
topics carry as they are (`race_started`, `move_accepted`, `game_state`, a replay, a review). `GameView` is a
player's own game as `race_started`, `daily_started` and `game_state` carry it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal, NotRequired

from pydantic import Field
from typing_extensions import TypedDict  # pydantic reads TypedDicts from typing only on Python >= 3.12

from freecell_arena.protocol.vocabulary import PlayerStatus
from freecell_arena.protocol.wire import Message, Seed, VariantId

Card = Annotated[
    str,
    Field(
        pattern="^[A2-9TJQK][CDHS]$",
        description="A card: rank (`A`, `2`-`9`, `T`, `J`, `Q`, `K`) then suit (`C`, `D`, `H`, `S`); `TD` is the ten "
        "of diamonds.",
    ),
]


Slot = Annotated[Card | None, Field(description="A card, or null: face down (Cell Eleven) or an empty cell.")]


Column = Annotated[list[Slot], Field(description="A column, deepest card first; face-down cards are null.")]


class FoundationView(TypedDict):
    """One foundation, in the variant's slot order (suit by suit: C, D, H, S, copies side by side)."""

    suit: Literal["C", "D", "H", "S"]
    cards: Annotated[int, Field(ge=0, description="Cards on it (Three Deck: up to 39, three laps of A-K).")]
    top: Annotated[Card | None, Field(description="Its top card; null while empty.")]


class PlayerView(TypedDict):
    """A player's whole board: what `race_started`, `daily_started` and `game_state` carry as `game.view`."""

    variant: VariantId
    tableau: Annotated[list[Column], Field(description="The columns, left to right.")]
    cells: Annotated[list[Slot], Field(description="The free cells, left to right; null = empty.")]
    foundations: list[FoundationView]
    cards_on_foundations: Annotated[int, Field(ge=0)]


ColumnIndex = Annotated[str, Field(pattern="^(0|[1-9][0-9]?)$", description="A column's 0-based index, as text.")]


class ViewChanges(TypedDict):
    """What one action changed in the player view, as it is now: put each part into the view you hold, in order
    (`freecell_arena.engine.view.apply_view_changes`). `cells` and `foundations` are there only when changed."""

    tableau: Annotated[
        dict[ColumnIndex, Column], Field(description="Each changed column (by its index as text), whole.")
    ]
    cells: NotRequired[list[Slot]]
    foundations: NotRequired[list[FoundationView]]
    cards_on_foundations: Annotated[int, Field(ge=0)]


StructuredMove = TypedDict(
    "StructuredMove",
    {
        "from": Literal["tableau", "cell"],
        "from_index": Annotated[int, Field(ge=0)],
        "to": Literal["tableau", "cell", "foundation"],
        "to_index": Annotated[int, Field(ge=0)],
        "count": Annotated[int, Field(ge=1)],
    },
)
StructuredMove.__doc__ = "A move as applied: every index filled in (the cell or foundation actually chosen)."


class PlayedMove(Message):
    """A move as the server applied it: its notation in the variant and its structured form."""

    notation: str
    move: StructuredMove


class GameView(Message):
    """One player's own game: the full player view (face-down cards are null)."""

    game_id: str
    room_code: str | None
    variant: VariantId
    seed: Seed | None
    autoplay: bool
    undo_allowed: bool
    started_at: datetime
    status: PlayerStatus
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    actions: list[str] = Field(description="Every accepted action of this game, in notation or `undo`.")
    view: PlayerView
    daily: date | None = Field(default=None, description="The day, when this is a daily challenge game.")
