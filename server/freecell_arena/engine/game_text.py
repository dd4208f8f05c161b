"""A game as text, as PGN is for chess: tag lines, a blank line, then the moves in the project's notation.

    [Variant "freecell"]
    [Seed "11982"]
    [Autoplay "on"]
    [Date "2026-12-07"]
    [Player "Mona"]
    [Result "won"]

    3a 82 6b ...

A game is its variant, its seed and its actions (`Game.replay` rebuilds every state from them), so those are all a
record needs; the other tags say who played it, when and how it ended, for people and for the programs that sort
them. docs/notation.md ("Game text") gives the grammar. Seeds are strings (a 64-bit seed is not exact in
JavaScript's numbers), tag values are quoted with `\\"` and `\\\\` escaped, and a file may hold many games one
after another (a new tag line after moves starts the next game), so an export is a file of them.

Pure text, no rules beyond the tag names: `GameText.replay` is where the engine checks the moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from freecell_arena.engine.game import Game
from freecell_arena.engine.variants import VARIANTS, variant_by_id

ROSTER = ("Variant", "Seed", "Autoplay", "Date", "Player", "Result")
"""The tags written first, in this order, when present (PGN's seven tag roster, for a one-player game)."""
REQUIRED = ("Variant", "Seed")
"""What a game cannot be replayed without."""
RESULTS = ("won", "resigned", "stuck", "timeout", "*")
"""How a game ended (the wire's outcomes), or `*`: not over."""
AUTOPLAY = {"on": True, "off": False}
FILE_SUFFIX = ".fcgame"
"""What a saved game's file ends in (the web client's download)."""

_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]{0,31}) "((?:[^"\\]|\\["\\])*)"\]')
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")
_UNESCAPE = re.compile(r"\\([\"\\])")


class GameTextError(ValueError):
    """The text is not a game record: says where (1-based line) and why. Nothing was read past it."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True, slots=True)
class GameText:
    """One game: its tags in their order and its actions (moves in notation, or `undo`) as played."""

    tags: tuple[tuple[str, str], ...]
    moves: tuple[str, ...] = ()
    line: int = field(default=1, compare=False)
    """Where the record began in the text it was read from (1 for one made here)."""

    @classmethod
    def of(cls, variant: str, seed: int | str, moves: Iterable[str], *, autoplay: bool = False,
           tags: Mapping[str, str | int | None] | None = None) -> GameText:  # fmt: skip
        """A record of a game; tags with a None value are left out (`tags={"Date": "2026-12-07", "Player": "Mona"}`)."""
        named: dict[str, str] = {"Variant": variant, "Seed": str(seed), "Autoplay": "on" if autoplay else "off"}
        named.update({name: str(value) for name, value in (tags or {}).items() if value is not None})
        return cls(_ordered(named), tuple(moves))

    def tag(self, name: str) -> str | None:
        return next((value for key, value in self.tags if key == name), None)

    @property
    def variant(self) -> str:
        return self._required("Variant")

    @property
    def seed(self) -> int:
        return int(self._required("Seed"))

    @property
    def autoplay(self) -> bool:
        return AUTOPLAY[self.tag("Autoplay") or "off"]

    @property
    def result(self) -> str:
        return self.tag("Result") or "*"

    def _required(self, name: str) -> str:
        value = self.tag(name)
        assert value is not None, "checked when the record was read or made"
        return value

    def replay(self) -> Game:
        """The game these moves make (the engine's refusal, with the move's 1-based number, if one is illegal);
        `check` also holds it to what the record says of its end."""
        variant = variant_by_id(self.variant)
        return Game.replay(variant, self.seed, self.moves, autoplay=self.autoplay, undo_allowed=True)

    def check(self) -> Game:
        """`replay`, and the record's `Result` and `Moves` tags agree with it: a record that says `won` wins."""
        game = self.replay()
        won = game.board.is_won()
        if (self.result == "won") != won:
            moves = "win" if won else "do not win"
            raise GameTextError(self.line, f"the record says {self.result!r} but its moves {moves}")
        counted = self.tag("Moves")
        if counted is not None and int(counted) != game.player_moves:
            raise GameTextError(self.line, f"the record says {counted} moves, its moves count {game.player_moves}")
        return game

    def text(self) -> str:
        """The record as text, ending in a newline; `read_game(record.text()) == record`."""
        head = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in self.tags)
        return head + "\n" + _wrap(self.moves) + "\n"


def write_games(records: Iterable[GameText]) -> Iterator[str]:
    """Each record's text, a blank line between them: a file of games, written as it goes."""
    for number, record in enumerate(records):
        yield ("\n" if number else "") + record.text()


def read_game(text: str) -> GameText:
    """Exactly one game."""
    records = list(read_games(text))
    if len(records) != 1:
        raise GameTextError(1, f"expected one game, found {len(records)}")
    return records[0]


def read_games(text: str | Iterable[str]) -> Iterator[GameText]:
    """The games of a text (or of its lines, as a file gives them: one game in memory at a time), in order.

    A game's tags run to the first blank line; a tag line after its moves (or after that blank line, for a game of
    no moves) starts the next game."""
    lines = text.splitlines() if isinstance(text, str) else (line.rstrip("\r\n") for line in text)
    tags: dict[str, str] = {}
    moves: list[str] = []
    start, in_tags = 0, False
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            in_tags = False
            continue
        line = raw.strip()
        if line.startswith("["):
            if not in_tags:
                if tags:
                    yield _record(tags, moves, start)
                tags, moves, start, in_tags = {}, [], number, True
            name, value = _tag(line, number)
            if name in tags:
                raise GameTextError(number, f"the tag {name} is given twice")
            tags[name] = value
        elif not tags and not line.startswith("#"):
            raise GameTextError(number, 'a game starts with its tags ([Variant "..."] and [Seed "..."])')
        elif line := line.split("#", 1)[0]:  # `#` to the end of a line is a comment, as `solve` writes them
            in_tags = False
            moves.extend(line.split())
    if tags:
        yield _record(tags, moves, start)


def _tag(line: str, number: int) -> tuple[str, str]:
    match = _TAG_LINE.match(line)
    if match is None or line[match.end() :].strip()[:1] not in ("", "#"):
        raise GameTextError(number, f'not a tag line: {line[:60]!r} (a tag reads [Name "value"])')
    return match.group(1), _UNESCAPE.sub(r"\1", match.group(2))


def _record(tags: Mapping[str, str], moves: list[str], line: int) -> GameText:
    for name in REQUIRED:
        if name not in tags:
            raise GameTextError(line, f"the game has no {name} tag")
    if tags["Variant"] not in VARIANTS:
        raise GameTextError(line, f"unknown variant {tags['Variant']!r} (one of: {', '.join(VARIANTS)})")
    if not tags["Seed"].isdigit() or not tags["Seed"].isascii():
        raise GameTextError(line, f"a seed is a whole number, not {tags['Seed']!r}")
    if tags.get("Autoplay", "off") not in AUTOPLAY:
        raise GameTextError(line, f"Autoplay is on or off, not {tags['Autoplay']!r}")
    if tags.get("Result", "*") not in RESULTS:
        raise GameTextError(line, f"Result is one of {', '.join(RESULTS)}, not {tags['Result']!r}")
    if "Moves" in tags and not (tags["Moves"].isdigit() and tags["Moves"].isascii()):
        raise GameTextError(line, f"Moves is a count, not {tags['Moves']!r}")
    return GameText(_ordered(tags), tuple(moves), line)


def _ordered(tags: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    for name, value in tags.items():
        if _NAME.fullmatch(name) is None:
            raise ValueError(f"a tag name is a letter then up to 31 letters, digits or _, not {name!r}")
        if "\n" in value or "\r" in value:
            raise ValueError(f"the {name} tag's value is one line")
    roster = [(name, tags[name]) for name in ROSTER if name in tags]
    return tuple(roster + [(name, value) for name, value in tags.items() if name not in ROSTER])


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(moves: tuple[str, ...], width: int = 79) -> str:
    """The moves, as many to a line as fit in `width` (PGN's 80 columns)."""
    lines: list[str] = []
    current = ""
    for move in moves:
        if current and len(current) + 1 + len(move) > width:
            lines.append(current)
            current = move
        else:
            current = f"{current} {move}" if current else move
    lines.append(current)
    return "\n".join(lines)
