"""The package's modules import each other without cycles, counting imports under `if TYPE_CHECKING` too, and
the layers point the way ../shared/ARCHITECTURE.md draws them: engine imports nothing of ours above it, core
knows no sockets and no SQL."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "freecell_arena"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every module of ours `path` imports anywhere in its text (function bodies and TYPE_CHECKING included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found.update(name for name in names if name in modules)
    return found


def graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    modules = set(paths)
    packages = {name for name, path in paths.items() if path.name == "__init__.py"}
    # `from freecell_arena.core.records import daily` names the module daily, not the package's __init__
    return {name: imports_of(path, modules) - {name} - (packages - {name}) for name, path in paths.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(node: str) -> list[str] | None:
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target in on_stack:
                return [*stack[stack.index(target):], target]
            if target not in done and (cycle := visit(target)):
                return cycle
        on_stack.discard(stack.pop())
        done.add(node)
        return None

    for start in sorted(edges):
        if start not in done and (cycle := visit(start)):
            return cycle
    return None


def test_no_import_cycles_even_for_type_checking() -> None:
    assert find_cycle(graph()) is None, " -> ".join(find_cycle(graph()) or [])


def test_the_finder_does_find_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_layers() -> None:
    edges = graph()
    for name, targets in edges.items():
        if name.startswith("freecell_arena.engine"):
            assert all(target.startswith("freecell_arena.engine") for target in targets), (name, targets)
        if name.startswith("freecell_arena.core"):
            assert not any(target.startswith(("freecell_arena.net", "freecell_arena.store")) for target in targets), (
                name, targets)  # fmt: skip
    assert "freecell_arena.net.app" not in edges["freecell_arena.net.connection"]  # it talks to a Host
    assert "freecell_arena.core.arena" not in edges["freecell_arena.core.live.daily_play"]  # SharedState + DailyHost


def reached_from(edges: dict[str, set[str]], prefix: str) -> set[str]:
    """What the modules under `prefix` import from outside it."""
    return {target for name, targets in edges.items() if name.startswith(prefix) for target in targets
            if not target.startswith(prefix)}  # fmt: skip


def test_core_subpackages_point_one_way() -> None:
    """Core's folders are its parts (docs/architecture.md): live play (rooms, races, seats, the clock); competition
    on top of it (ratings, race again, quick races); records (dailies, boards, seasons, streaks) and accounts,
    which know nothing of live rooms; ports, the records and reads the store implements."""
    edges = graph()
    live, competition = "freecell_arena.core.live", "freecell_arena.core.competition"
    room_verbs = {f"{competition}.series", f"{competition}.quick_race"}
    for part in ("freecell_arena.core.records", "freecell_arena.core.accounts"):
        reached = reached_from(edges, part)
        assert not {target for target in reached if target.startswith(live)}, (part, reached)
        assert not reached & room_verbs, (part, reached)
    assert {target for target in reached_from(edges, live) if target.startswith(competition)} <= {
        f"{competition}.race_ratings", f"{competition}.series_tally"
    }, "live play hands a finished race to competition, and shows a series' tally, as values: nothing more"
    records = edges["freecell_arena.core.ports.records"]  # and the move's record, a module of its own (compiled)
    assert all(target.startswith(("freecell_arena.protocol", "freecell_arena.core.ports.move_record"))
               for target in records), records  # fmt: skip
    assert not edges["freecell_arena.core.ports.move_record"], "a move's record is a value that imports nothing"


def test_moderation_reaches_live_play_only_through_the_verbs_it_is_handed() -> None:
    """Core's moderation (sanctions, reports, the audit's rules) is values and rules over stored results: what it
    does to a live room (a banned player's games resigned, their seats given up) it does through the lobby's and
    play's verbs the arena hands it, never by importing live play or the arena."""
    edges = graph()
    reached = reached_from(edges, "freecell_arena.core.moderation")
    assert reached, "the moderation modules exist and import something"
    assert not {target for target in reached if target.startswith(("freecell_arena.core.live",
                                                                    "freecell_arena.core.arena"))}, reached


def test_store_and_protocol_keep_to_their_side() -> None:
    """The store implements core's ports with the value modules of records and ratings: never live rooms, never
    the arena, never net. The protocol is the wire's vocabulary: it imports nothing of ours."""
    edges = graph()
    reached = reached_from(edges, "freecell_arena.store")
    forbidden = ("freecell_arena.core.live", "freecell_arena.core.arena", "freecell_arena.net")
    room_verbs = {"freecell_arena.core.competition.series", "freecell_arena.core.competition.quick_race"}
    assert not {target for target in reached if target.startswith(forbidden)} | (reached & room_verbs), reached
    assert {target for target in reached if target.startswith("freecell_arena.core")} <= {
        target for target in reached if target.startswith(("freecell_arena.core.ports",
            "freecell_arena.core.records", "freecell_arena.core.competition", "freecell_arena.core.accounts",
            "freecell_arena.core.moderation"))}
    assert not reached_from(edges, "freecell_arena.protocol"), "the protocol imports nothing of ours"


CORE_INTERNALS = {
    "freecell_arena.core.arena",
    *(f"freecell_arena.core.live.{name}"
      for name in ("players", "lobby", "play", "races", "race_clock", "rebuild", "replica", "room", "room_messages",
                   "player_game", "shared_state", "daily_play")),
}  # fmt: skip
"""The rooms of core behind its facade: net sees them through the protocols of `core.seams` only."""
COMPOSITION_ROOT = "freecell_arena.net.app"
"""The one module of net that builds the arena (and hands its parts to the rest of net as protocols)."""


def test_net_sees_core_only_through_its_protocols() -> None:
    edges = graph()
    for name, targets in edges.items():
        if not name.startswith("freecell_arena.net"):
            continue
        reached = targets & CORE_INTERNALS
        if name == COMPOSITION_ROOT:
            reached -= {"freecell_arena.core.arena", "freecell_arena.core.live.races"}  # and a race's finish
        assert not reached, (name, reached)


def test_the_rooms_of_core_never_import_the_arena() -> None:
    """Each part of core takes a narrow bundle of what it needs (lila-ws's `Deps`), never the whole arena."""
    edges = graph()
    for name in CORE_INTERNALS - {"freecell_arena.core.arena"}:
        assert "freecell_arena.core.arena" not in edges[name], name


def third_party_imports_of(path: Path) -> set[str]:
    """The top-level names of every module `path` imports (ours included), anywhere in its text."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


IO_LIBRARIES = {"sqlalchemy", "alembic", "asyncpg", "aiosqlite", "websockets", "redis", "asyncio", "socket"}


def test_core_does_no_io_through_libraries_either() -> None:
    """Core reaches storage and the network only through its ports; `webauthn` is allowed, as pure verification,
    and only where the ceremonies are (`core.accounts.relying_party` stays light: settings import it)."""
    for path in (PACKAGE / "core").rglob("*.py"):
        imported = third_party_imports_of(path)
        assert not imported & IO_LIBRARIES, (path.name, imported & IO_LIBRARIES)
        if "webauthn" in imported or "cryptography" in imported:
            assert path.name == "passkeys.py", path.name
