"""Record the conformance transcripts (clients/conformance/transcripts/*.json) from a real server.

    python3 clients/conformance/record.py            # every scenario, each on a fresh server (a SQLite file)
    python3 clients/conformance/record.py race       # one

Each scenario below is what clients send, step by step; the recorder starts `freecell-arena serve` with the
scenario's settings, sends, waits until every connection has been quiet for a moment, and writes down what each
connection received, in order. Values that differ from run to run become placeholders (clients/conformance/
README.md): ids, tokens, room codes and drawn seeds become variables (`$player_id_1`), so every later use must be
the same value; times and people's sentences become `$*`. Read a new transcript before committing it: it is the
contract the Python SDK's tests and the JavaScript client's tests then hold the server (and themselves) to.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HERE = Path(__file__).resolve().parent
TRANSCRIPTS = HERE / "transcripts"
QUIET_S = 0.5
START_TIMEOUT_S = 30.0

VARIABLE_KEYS = ("player_id", "host_id", "token", "game_id", "code", "room_code", "next_code", "seed", "token_id",
                 "bot_id", "credential_id")  # fmt: skip
"""Values that differ from run to run and that later frames refer to: recorded as variables."""
ANY_KEYS = ("starts_at", "ends_at", "started_at", "finished_at", "time_ms", "created_at", "last_used_at", "opens_at",
            "closes_at", "at", "best_time_ms", "today", "through")  # fmt: skip
"""Times: recorded as `$*`."""
ANY_IN = {("passkey_options", "options"), ("error", "message"), ("replay", "game_text")}
"""(frame type, key) recorded as `$*`: a ceremony's options (a fresh challenge); a sentence for people; a game's
text (its ids and its day inside one string)."""

BASE_SETTINGS = {
    "FREECELL_ARENA_PROGRESS_WINDOW_MS": "0",  # every move's progress goes out: the same frames every run
    "FREECELL_ARENA_TICK_INTERVAL_S": "0.02",
    "FREECELL_ARENA_DAILY_PREPARE_INTERVAL_S": "0",
    "FREECELL_ARENA_PAR_AT_RACE_END": "false",
    "FREECELL_ARENA_RATING_SWEEP_INTERVAL_S": "0",
    "FREECELL_ARENA_NEW_PLAYERS_PER_MINUTE": "1000000",
    "FREECELL_ARENA_MAX_CONNECTIONS_PER_ADDRESS": "1000",
}
"""What every transcript's server runs with (a scenario may add more)."""


# ---------------------------------------------------------------------------- scenarios


@dataclass
class Scenario:
    name: str
    description: str
    settings: dict[str, str] = field(default_factory=dict)
    unknowable: tuple[str, ...] = ()
    """Keys recorded as `$*` in this scenario (the board of a deal the server draws)."""
    actions: list[dict[str, Any]] = field(default_factory=list)
    _ids: Iterator[int] = field(default_factory=lambda: iter(range(1, 10_000)))

    def connect(self, who: str) -> Scenario:
        self.actions.append({"as": who, "connect": True})
        return self

    def send(self, who: str, frame: dict[str, Any], *, with_id: bool = True) -> Scenario:
        frame = {**frame, "id": next(self._ids)} if with_id and "id" not in frame else frame
        self.actions.append({"as": who, "send": frame})
        return self

    def hello(self, who: str, name: str | None = None, **fields: Any) -> Scenario:
        return self.connect(who).send(who, {"type": "hello", "name": name or who, "bot": True, **fields})

    def burst(self, who: str, frames: list[dict[str, Any]]) -> Scenario:
        """Frames sent back to back, without waiting for the replies between them."""
        self.actions.append({"as": who, "burst": [{**frame, "id": next(self._ids)} for frame in frames]})
        return self

    def lexical(self, who: str, frame: dict[str, Any]) -> Scenario:
        """A frame sent as its exact text, with its `id`: `1.0` stays `1.0` (JavaScript's JSON.stringify writes the
        number 1.0 as `1`, so a frame that must carry `1.0` travels as text in every language)."""
        return self.text(who, json.dumps({**frame, "id": next(self._ids)}))

    def text(self, who: str, text: str, repeat: int = 1) -> Scenario:
        self.actions.append({"as": who, "send_text": text, "repeat": repeat})
        return self

    def close(self, who: str) -> Scenario:
        self.actions.append({"as": who, "close": True})
        return self


def winning_moves(seed: int) -> list[str]:
    """FreeCell deal `seed` won, as a player types it with autoplay on (the solver's certified solution)."""
    from freecell_arena.core.records.daily import player_actions
    from freecell_arena.engine import Board, variant_by_id
    from freecell_arena.engine.solver import solve

    variant = variant_by_id("freecell")
    result = solve(Board.deal(variant, seed), budget=30)
    assert result.solution is not None
    return list(player_actions(variant, seed, result.solution.moves))


WON_DEAL = 6
"""A FreeCell deal the solver wins in a few hundredths of a second."""


def race() -> Scenario:
    moves = winning_moves(WON_DEAL)
    s = Scenario(
        "race",
        "Two bots race FreeCell deal 6 in a room: create, join, start (countdown, race_started, the running room), "
        "moves in text and structured form with each move_accepted and the other's progress, an undo, the state, "
        "one's own replay mid-race, a hint refused (no_hints: a ranked room); bob resigns (game_over with the "
        "request's id), ada plays on to the win "
        "(move_accepted, then game_over without id, then race_over and race_ratings to both), replays open, "
        "race again (series_invite), bob joins the next room, both leave.",
    )
    s.hello("ada").hello("bob")
    s.send("ada", {"type": "create_room", "variant": "freecell", "seed": str(WON_DEAL),
                   "options": {"countdown_s": 0, "max_players": 2}})  # fmt: skip
    s.send("bob", {"type": "join_room", "code": "$code_1"})
    s.send("ada", {"type": "start_race"})
    s.send("ada", {"type": "get_hint", "game_id": "$game_id_1"})  # a ranked room: no_hints
    s.send("ada", {"type": "move", "move": moves[0]})
    s.send("ada", {"type": "undo"})
    s.send("bob", {"type": "move", "move": {"from": "tableau", "from_index": 0, "to": "cell"}})
    s.send("bob", {"type": "get_state"})
    s.send("bob", {"type": "get_replay", "game_id": "$game_id_2"})
    s.send("bob", {"type": "resign"})
    for move in moves:
        s.send("ada", {"type": "move", "move": move})
    s.send("bob", {"type": "get_replay", "game_id": "$game_id_1"})
    s.send("ada", {"type": "race_again"})
    s.send("bob", {"type": "race_again"})
    s.send("bob", {"type": "leave_room"})
    s.send("ada", {"type": "leave_room"})
    return s


def leave_mid_race() -> Scenario:
    s = Scenario(
        "leave_mid_race",
        "leave_room during a race resigns the game: game_over (no id) then left_room (the request's id); the one "
        "left racing sees member_left, the leaver's progress, and (once done) race_over.",
    )
    s.hello("ada").hello("bob")
    s.send("ada", {"type": "create_room", "variant": "chinese-freecell", "seed": "7654041082873553397",
                   "options": {"countdown_s": 0}})  # fmt: skip
    s.send("bob", {"type": "join_room", "code": "$code_1"})
    s.send("ada", {"type": "start_race"})
    s.send("bob", {"type": "leave_room"})
    s.send("ada", {"type": "resign"})
    s.send("ada", {"type": "get_leaderboard", "variant": "chinese-freecell", "board": "deal",
                   "seed": "7654041082873553397"})  # fmt: skip
    s.send("ada", {"type": "get_leaderboard", "variant": "chinese-freecell", "board": "deal",
                   "seed": "7654041082873553000"})  # fmt: skip
    return s


def reconnect() -> Scenario:
    s = Scenario(
        "reconnect",
        "A dropped connection comes back with its token: welcome (resumed: true), then game_state with the room "
        "and the game as played; the room sees member_connection false, then true. The same token on a third "
        "connection replaces the second (close code 4000). A token nobody has is unknown_token.",
    )
    s.hello("ada").hello("bob")
    s.send("ada", {"type": "create_room", "variant": "freecell", "seed": "1", "options": {"countdown_s": 0}})
    s.send("bob", {"type": "join_room", "code": "$code_1"})
    s.send("ada", {"type": "start_race"})
    s.send("ada", {"type": "move", "move": "5a"})
    s.close("ada")
    s.connect("ada2").send("ada2", {"type": "hello", "name": "ada", "bot": True, "token": "$token_1"})
    s.send("ada2", {"type": "move", "move": "5b"})
    s.connect("ada3").send("ada3", {"type": "hello", "name": "ada", "bot": True, "token": "$token_1"})
    s.connect("eve").send("eve", {"type": "hello", "name": "eve", "token": "fca_nobody_has_this_token"})
    return s


def quick_race() -> Scenario:
    s = Scenario(
        "quick_race",
        "Two quick_race requests fill the variant's public room; with quick_race.min_players (2) in, its countdown "
        "starts by itself, then the race.",
        settings={"FREECELL_ARENA_QUICK_RACE_WAIT_S": "0", "FREECELL_ARENA_QUICK_RACE_MIN_PLAYERS": "2"},
        unknowable=("view", "cards_on_foundations"),  # the server draws the deal
    )
    s.hello("ada").hello("bob")
    s.send("ada", {"type": "quick_race", "variant": "freecell-three-deck"})
    s.send("bob", {"type": "quick_race", "variant": "freecell-three-deck"})
    s.send("bob", {"type": "quick_race", "variant": "freecell-three-deck"})
    return s


def queries() -> Scenario:
    s = Scenario(
        "queries",
        "The read-only requests on a server that has played nothing: empty boards, tables and histories; a deal "
        "nobody was dealt is unknown_seed; no daily is prepared (unknown_daily, daily_not_ready); unknown players, "
        "rooms and games (a hint for a game nobody has); a malformed cursor; the quick races filling now (none).",
    )
    s.hello("ada")
    for frame in (
        {"type": "get_leaderboard", "variant": "freecell", "board": "deal", "seed": "1"},
        {"type": "get_leaderboard", "variant": "freecell", "board": "deal", "seed": 1},
        {"type": "get_leaderboard", "variant": "freecell", "board": "daily", "day": "2026-01-01"},
        {"type": "get_leaderboard", "variant": "freecell", "board": "deal", "seed": "0"},
        {"type": "get_leaderboard", "variant": "freecell", "board": "deal", "seed": "1", "cursor": "nonsense"},
        {"type": "get_season", "variant": "cell-eleven", "days": 30},
        {"type": "get_season", "variant": "cell-eleven", "around": "$player_id_1"},
        {"type": "get_history"},
        {"type": "get_history", "player_id": "p_nobody"},
        {"type": "get_daily", "variant": "freecell", "day": "2026-01-01"},
        {"type": "play_daily", "variant": "freecell"},
        {"type": "get_ratings", "variant": "freecell-four-deck"},
        {"type": "get_player"},
        {"type": "get_player", "player_id": "p_nobody"},
        {"type": "get_streak", "variant": "freecell", "month": "2026-01"},
        {"type": "get_review", "code": "NOROOM00"},
        {"type": "get_review", "variant": "freecell", "day": "2026-01-01"},
        {"type": "get_share", "game_id": "g_nobody"},
        {"type": "get_replay", "game_id": "g_nobody"},
        {"type": "get_hint", "game_id": "g_nobody"},
        {"type": "get_quick_races"},
        {"type": "get_leaderboard", "variant": "klondike", "board": "deal", "seed": "1"},
    ):
        s.send("ada", frame)
    return s


def refusals() -> Scenario:
    s = Scenario(
        "refusals",
        "Every refusal a plain connection can meet, each an error with the request's id (when it had one) and a "
        "stable code, and nothing changed: frames that are not JSON or not a message, wrong JSON types (a boolean, "
        "a float or a string for a number), unknown fields and types, requests before hello or out of place, "
        "moves that do not spell a move or break the rules, and the account steps of an unsaved player.",
    )
    s.connect("ada")
    s.text("ada", "{not json")
    s.send("ada", {"type": "get_state"})
    s.send("ada", {"type": "hello", "name": "ada", "bot": "yes"})
    s.send("ada", {"type": "hello", "name": "ada", "bot": True, "colour": "red"})
    s.send("ada", {"type": "hello", "name": "ada", "bot": True})
    s.send("ada", {"type": "hello", "name": "ada"})
    s.send("ada", {"type": "fly"})
    s.send("ada", {"no_type": True}, with_id=False)
    s.text("ada", "[1, 2]")
    s.send("ada", {"type": "move", "move": "3a"})
    s.send("ada", {"type": "start_race"})
    s.send("ada", {"type": "leave_room"})
    s.send("ada", {"type": "race_again"})
    s.send("ada", {"type": "race_bot"})
    s.send("ada", {"type": "join_room", "code": "NOROOM00"})
    s.send("ada", {"type": "create_room", "variant": "klondike"})
    s.send("ada", {"type": "create_room", "variant": "freecell", "deal": 0})
    s.send("ada", {"type": "create_room", "variant": "freecell", "seed": "99999999999"})
    s.send("ada", {"type": "create_room", "variant": "cell-eleven", "seed": "5"})
    s.send("ada", {"type": "create_room", "variant": "freecell", "seed": 9007199254740993})
    s.lexical("ada", {"type": "create_room", "variant": "freecell", "options": {"max_players": 2.0}})
    s.send("ada", {"type": "create_room", "variant": "freecell", "options": {"autoplay": False, "ranked": True}})
    s.send("ada", {"type": "create_room", "variant": "freecell", "deal": 1,
                   "options": {"countdown_s": 0, "max_players": 1, "undo_allowed": False}})  # fmt: skip
    s.send("ada", {"type": "create_room", "variant": "freecell"})
    s.hello("bob")
    s.send("bob", {"type": "join_room", "code": "$code_1"})
    s.send("bob", {"type": "join_room", "code": "$code_1", "spectator": True})
    s.send("bob", {"type": "start_race"})
    s.send("bob", {"type": "undo"})
    s.send("ada", {"type": "start_race"})
    s.send("ada", {"type": "start_race"})
    s.send("ada", {"type": "move", "move": "3z"})
    s.send("ada", {"type": "move", "move": {"from": "tableau", "from_index": True, "to": "cell"}})
    s.lexical("ada", {"type": "move", "move": {"from": "tableau", "from_index": 1.0, "to": "cell"}})
    s.send("ada", {"type": "move", "move": {"from": "tableau", "from_index": 1, "to": "cell", "count": "2"}})
    s.send("ada", {"type": "move", "move": "12"})
    s.send("ada", {"type": "move", "move": "1a"})
    s.send("ada", {"type": "undo"})
    s.send("ada", {"type": "move", "move": "1b", "game_id": "g_nobody"})
    s.send("bob", {"type": "move", "move": "1a", "game_id": "$game_id_1"})
    s.send("bob", {"type": "get_replay", "game_id": "$game_id_1"})
    s.send("ada", {"type": "race_again"})
    s.send("ada", {"type": "quick_race", "variant": "freecell"})
    s.send("ada", {"type": "resign"})
    s.send("ada", {"type": "resign"})
    s.send("ada", {"type": "sign_out"})
    s.send("ada", {"type": "create_bot", "name": "helper"})
    s.send("ada", {"type": "remove_passkey", "credential_id": "nope"})
    s.send("ada", {"type": "passkey_finish", "ceremony": "save", "credential": {"id": "x"}})
    s.send("ada", {"type": "get_account"})
    return s


def limits() -> Scenario:
    s = Scenario(
        "limits",
        "The limits welcome announces, met: a frame over max_message_bytes is answered message_too_large; past "
        "the burst a message is dropped and answered rate_limited; a frame over max_frame_bytes closes the "
        "connection with 1009, no error first; a passkey sign-in may begin before hello.",
        settings={"FREECELL_ARENA_MAX_MESSAGE_BYTES": "1024", "FREECELL_ARENA_RATE_LIMIT_BURST": "4",
                  "FREECELL_ARENA_RATE_LIMIT_PER_S": "0.01"},
    )
    s.connect("ada")
    s.send("ada", {"type": "passkey_begin", "ceremony": "sign_in"})
    s.send("ada", {"type": "hello", "name": "ada", "bot": True})
    s.text("ada", "x", repeat=2000)
    s.burst("ada", [{"type": "get_state"}, {"type": "get_state"}])
    s.text("ada", "y", repeat=5000)
    return s


def tournaments() -> Scenario:
    s = Scenario(
        "tournaments",
        "The tournament requests on a server with no schedule: empty lists (all, bots' only, one player's), an "
        "unknown tournament refused for every request about one, a private tournament refused to an unsaved player, "
        "and a name that is only spaces.",
    )
    s.hello("ada")
    for frame in (
        {"type": "get_tournaments"},
        {"type": "get_tournaments", "bots": True, "player_id": "$player_id_1"},
        {"type": "get_tournament", "tournament_id": "t_nobody", "around": "$player_id_1"},
        {"type": "enter_tournament", "tournament_id": "t_nobody", "link_code": "abc"},
        {"type": "pause_tournament", "tournament_id": "t_nobody", "paused": False},
        {"type": "withdraw_tournament", "tournament_id": "t_nobody"},
        {"type": "berserk", "tournament_id": "t_nobody"},
        {"type": "create_tournament", "name": "Friday friends", "kind": "cup", "seed": "6"},
        {"type": "create_tournament", "name": "   "},
        {"type": "create_tournament", "name": "Friday friends", "cap": "8"},
    ):
        s.send("ada", frame)
    return s


def moderation() -> Scenario:
    s = Scenario(
        "moderation",
        "Moderation as a plain (unsaved) player meets it: a report needs a saved player (not_saved), your reports "
        "are none, a new name is only for a player whose name a moderator replaced, and every moderator's request "
        "is not_allowed; strict frames (a string for a number, an unknown reason) are invalid_message.",
    )
    s.hello("ada")
    s.hello("bob")
    for frame in (
        {"type": "report", "player_id": "$player_id_1", "reason": "help", "text": "moves like a program"},
        {"type": "report", "player_id": "$player_id_1", "reason": "cheating"},
        {"type": "get_my_reports"},
        {"type": "choose_name", "name": "Robert"},
        {"type": "mod_queue"},
        {"type": "mod_evidence", "player_id": "$player_id_1"},
        {"type": "mod_action", "action": "ban", "player_id": "$player_id_1", "reason": "abuse", "public_reason": "x"},
        {"type": "mod_action", "action": "lift", "player_id": "$player_id_1", "reason": "appeal", "lifts": "1"},
        {"type": "mod_log", "limit": 10},
        {"type": "mod_search", "query": "ada"},
    ):
        s.send("bob", frame)
    return s


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "race": race,
    "leave_mid_race": leave_mid_race,
    "reconnect": reconnect,
    "quick_race": quick_race,
    "queries": queries,
    "refusals": refusals,
    "limits": limits,
    "tournaments": tournaments,
    "moderation": moderation,
}


# ---------------------------------------------------------------------------- recording


class Placeholders:
    """Turns a run's values into the transcript's placeholders."""

    def __init__(self, unknowable: tuple[str, ...] = ()) -> None:
        self.unknowable = frozenset(unknowable)
        self.variables: dict[str, Any] = {}  # "$name" -> value
        self._names: dict[str, str] = {}  # json of a value -> "$name"
        self._counts: dict[str, int] = {}
        self.sent_literals: set[str] = set()

    def name_of(self, key: str, value: Any) -> str:
        found = self._names.get(json.dumps(value))
        if found is not None:
            return found
        self._counts[key] = self._counts.get(key, 0) + 1
        name = f"${key}_{self._counts[key]}"
        self._names[json.dumps(value)] = name
        self.variables[name] = value
        return name

    def received(self, value: Any, key: str = "", frame_type: str = "") -> Any:
        """A received value (at `key` of a `frame_type` frame) as the transcript expects it."""
        if (frame_type, key) in ANY_IN or key in self.unknowable:
            return "$*"
        if isinstance(value, dict):
            kind = value["type"] if isinstance(value.get("type"), str) and not frame_type else frame_type
            return {name: self.received(item, name, kind) for name, item in value.items()}
        if isinstance(value, list):
            return [self.received(item, key, frame_type) for item in value]
        if value is None or isinstance(value, bool):
            return value
        if key in ANY_KEYS:
            return "$*"
        if key in VARIABLE_KEYS and not (frame_type == "error" and key == "code"):
            if json.dumps(value) in self._names:
                return self._names[json.dumps(value)]
            if json.dumps(value) in self.sent_literals:
                return value  # the transcript chose it (a seed it sent)
            return self.name_of(key, value)
        return value

    def sent(self, frame: Any) -> Any:
        """A frame as sent (its `$name`s resolved); its literal values noted (a chosen seed stays literal)."""
        if isinstance(frame, dict):
            return {key: self.sent(item) for key, item in frame.items()}
        if isinstance(frame, list):
            return [self.sent(item) for item in frame]
        if isinstance(frame, str) and frame.startswith("$"):
            return self.variables[frame]
        if not isinstance(frame, bool) and frame is not None:
            self.sent_literals.add(json.dumps(frame))
            if isinstance(frame, int):
                self.sent_literals.add(json.dumps(str(frame)))
            elif isinstance(frame, str) and frame.isdigit():
                self.sent_literals.add(json.dumps(frame))
        return frame


class Recorder:
    def __init__(self, url: str, unknowable: tuple[str, ...]) -> None:
        self.url = url
        self.connections: dict[str, ClientConnection] = {}
        self.inboxes: dict[str, list[Any]] = {}
        self.closes: dict[str, int] = {}
        self.readers: list[asyncio.Task[None]] = []
        self.placeholders = Placeholders(unknowable)
        self.steps: list[dict[str, Any]] = []

    async def _read(self, who: str, connection: ClientConnection) -> None:
        try:
            async for text in connection:
                self.inboxes[who].append(("frame", json.loads(text)))
        except ConnectionClosed:
            pass
        if who in self.connections:  # the server closed it
            self.inboxes[who].append(("closed", connection.close_code))

    async def _quiet(self) -> None:
        """Until no connection received anything for QUIET_S."""
        seen = -1
        while True:
            total = sum(len(inbox) for inbox in self.inboxes.values())
            if total == seen:
                return
            seen = total
            await asyncio.sleep(QUIET_S)

    def _flush(self) -> None:
        for who, inbox in self.inboxes.items():
            for kind, value in inbox:
                if kind == "frame":
                    self.steps.append({"as": who, "expect": self.placeholders.received(value)})
                else:
                    self.steps.append({"as": who, "closed": value})
            inbox.clear()

    async def act(self, action: dict[str, Any]) -> None:
        who = action["as"]
        if action.get("connect"):
            connection = await connect(self.url, max_queue=None)
            self.connections[who] = connection
            self.inboxes[who] = []
            self.readers.append(asyncio.create_task(self._read(who, connection)))
            self.steps.append(action)
        elif "send" in action:
            frame = self.placeholders.sent(action["send"])
            await self.connections[who].send(json.dumps(frame))
            self.steps.append(action)
        elif "burst" in action:
            for frame in action["burst"]:
                await self.connections[who].send(json.dumps(self.placeholders.sent(frame)))
                self.steps.append({"as": who, "send": frame})
        elif "send_text" in action:
            await self.connections[who].send(action["send_text"] * action["repeat"])
            self.steps.append(action)
        elif action.get("close"):
            connection = self.connections[who]
            await self._quiet()
            self._flush()
            del self.connections[who]
            await connection.close()
            self.steps.append(action)
        await self._quiet()
        self._flush()

    async def close(self) -> None:
        for connection in list(self.connections.values()):
            await connection.close()
        for reader in self.readers:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader


@contextlib.asynccontextmanager
async def serving(settings: dict[str, str]) -> Any:
    """`freecell-arena serve` on a free loopback port over a fresh SQLite file; killed at the end."""
    with tempfile.TemporaryDirectory() as folder:
        env = {key: value for key, value in os.environ.items() if not key.startswith("FREECELL_ARENA_")}
        env.update(BASE_SETTINGS)
        env.update(settings)
        database = f"sqlite+aiosqlite:///{Path(folder) / 'arena.db'}"
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "freecell_arena", "serve", "--port", "0", "--log-level", "WARNING",
            "--database-url", database, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        try:
            assert process.stdout is not None
            async with asyncio.timeout(START_TIMEOUT_S):
                line = (await process.stdout.readline()).decode()
            found = re.search(r"listening on (ws://127\.0\.0\.1:\d+/)", line)
            assert found is not None, line
            yield found.group(1)
        finally:
            if process.returncode is None:
                process.kill()
            await process.wait()


async def record(scenario: Scenario) -> dict[str, Any]:
    settings = {**BASE_SETTINGS, **scenario.settings}
    async with serving(scenario.settings) as url:
        recorder = Recorder(url, scenario.unknowable)
        try:
            for action in scenario.actions:
                await recorder.act(action)
        finally:
            await recorder.close()
    return {"name": scenario.name, "description": scenario.description, "settings": settings,
            "steps": recorder.steps}  # fmt: skip


def main(argv: list[str]) -> int:
    wanted = argv or list(SCENARIOS)
    TRANSCRIPTS.mkdir(exist_ok=True)
    for name in wanted:
        transcript = asyncio.run(record(SCENARIOS[name]()))
        path = TRANSCRIPTS / f"{name}.json"
        path.write_text(json.dumps(transcript, indent=1, ensure_ascii=False) + "\n")
        print(f"{path.relative_to(HERE.parent.parent)}: {len(transcript['steps'])} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
