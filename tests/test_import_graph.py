"""The house in one order of layers, held on what each module loads (docs/architecture.md draws it).

A module *loads* what Python runs when it is imported: every module of ours it imports anywhere in its text (under
`if TYPE_CHECKING` and inside functions too), the package `__init__` an import names (`from freecell_arena.engine
import VARIANTS` runs the engine's `__init__`), the `__init__` of every package above a module loaded (`from
freecell_arena.core.records import daily` runs `core/__init__.py` and `core/records/__init__.py` first), and all of
that again for each module loaded, however deep. Every rule is held on that closure:

- one order of layers (`LAYERS`, the ground first): no module loads one of a layer above its own;
- no two of core's parts (its folders, and each of its top-level modules) load each other;
- no cycle of imports at all;
- core is plain logic: it loads nothing but core, the engine and the protocol, and no library that does I/O; the
  engine loads no library at all.

The house is the server's package with its migrations, the Python SDK (which stands on the engine and the protocol,
and on nothing else of the server), and the dev tools under clients/, which may load anything: the conformance
recorder and the web tests' engine fixtures drive or mirror the server from outside, as tests do.
`FREECELL_ARENA_HOUSE` names another checkout to hold to the same rules (an older tree: what they find in it).
"""

from __future__ import annotations

import ast
import os
import sys
from collections import Counter, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
CORE = "freecell_arena.core"


@dataclass(frozen=True)
class Layer:
    name: str
    why: str
    prefixes: frozenset[str]
    """Modules by dotted name: a prefix holds the module it names and every module under it that no longer prefix
    (of any layer) holds. So `freecell_arena` in the ground layer holds the package's `__init__` and any new
    top-level module not yet placed, which may then load nothing: a new module starts at the bottom."""


def layer(name: str, why: str, *prefixes: str) -> Layer:
    return Layer(name, why, frozenset(prefixes))


LAYERS = (
    layer("root", "the package's __init__ (its version) and what imports nothing of ours: readiness",
          "freecell_arena", "freecell_arena.readiness"),
    layer("engine", "the rules: pure, no I/O; and which build of it runs", "freecell_arena.engine",
          "freecell_arena.build"),
    layer("protocol", "the wire's vocabulary, naming the engine's variants", "freecell_arena.protocol"),
    layer("sdk", "the Python SDK: bots play the server's engine over its protocol, nothing more of the server",
          "freecell_arena_client"),
    layer("core's ports", "records the store takes, the rows it reads back, the ports several parts share; and "
          "core's package __init__", CORE, f"{CORE}.ports"),
    layer("core's kernel", "what every part hands on: effects and refusals, event topics, the clock, ids, a "
          "request's variant", f"{CORE}.clock", f"{CORE}.identity", f"{CORE}.effects", f"{CORE}.events",
          f"{CORE}.variant_request"),
    layer("accounts", "saved players, names, passkeys, tokens", f"{CORE}.accounts"),
    layer("records", "numbers derived from stored results, which the audit recomputes: dailies, boards, seasons, "
          "streaks, reviews, a race's ranking and ratings, a series' tally, a tournament's stored state and table",
          f"{CORE}.records"),
    layer("moderation", "the mod log, the sanctions in force and what derived numbers make of them",
          f"{CORE}.moderation"),
    layer("store", "implements the ports with those values: never a live room, never a verb of competition",
          "freecell_arena.store", "freecell_arena.migrations"),
    layer("live", "rooms, races, seats, games, the race clock", f"{CORE}.live"),
    layer("competition", "policies over rooms: series, quick races, tournaments' desk, late ratings",
          f"{CORE}.competition"),
    layer("core's seams", "what net may ask of core and of the store", f"{CORE}.seams", f"{CORE}.server_store"),
    layer("configuration", "settings and logs", "freecell_arena.settings", "freecell_arena.logs"),
    layer("net", "connections, HTTP, effects run, the cluster: core through its seams", "freecell_arena.net"),
    layer("arena", "core's facade: only net's root builds it", f"{CORE}.arena"),
    layer("net's root", "the composition root: builds the arena, the store and the rest of net",
          "freecell_arena.net.app"),
    layer("commands", "the command line and the supervisor", "freecell_arena.commands", "freecell_arena.cli",
          "freecell_arena.supervisor", "freecell_arena.__main__"),
    layer("dev tools", "what drives or mirrors the server from outside (the conformance recorder, the web tests' "
          "engine fixtures): anything", "clients"),
)  # fmt: skip
"""Bottom first. A module may load modules of its own layer and of those below it, nothing above.

The house reads engine < protocol < core < store < net < commands; two places in the list look out of that order,
and are what lets one list say it. The store sits among core's parts: above the values it stores and reads back
(records, moderation, accounts, the ports), below live play and competition, so it loads none of their verbs however
indirectly (and core loads nothing of the store: core's own rule below). The arena sits above net: only net's root,
which builds it, may name it; the rest of net asks core through its seams."""

SOURCES = (("server", ""), ("migrations", "freecell_arena.migrations"), ("clients/python", ""),
           ("clients", "clients"))  # fmt: skip
"""Where the house's modules are, with the dotted name each folder stands for ("": its top folders are packages).
A file belongs to the first source it is under: clients/python is the SDK, the rest of clients/ dev tools."""

BUILT_ELSEWHERE = frozenset({"node_modules", "build", "dist"})
"""Folders of copies, not of the house: npm's packages, and what a wheel's build leaves (`pip wheel ./clients/python`
copies the SDK's sources into clients/python/build/lib, as the install check does before the suite runs)."""

IO_LIBRARIES = {"sqlalchemy", "alembic", "asyncpg", "aiosqlite", "websockets", "redis", "asyncio", "socket"}
ROOT = "freecell_arena"
CORE_GROUND = (CORE, "freecell_arena.engine", "freecell_arena.protocol")
"""What core stands on: itself, the engine and the protocol (and the package's root `__init__`, which every module of
the package runs)."""


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    package: bool


@dataclass(frozen=True)
class House:
    modules: Mapping[str, Module]
    imports: Mapping[str, frozenset[str]]
    """What each module imports of ours directly: the modules whose contents it uses."""
    libraries: Mapping[str, frozenset[str]]
    """The top-level names of the other modules each imports (the standard library's and third parties')."""

    def parents(self, name: str) -> list[str]:
        """The packages whose `__init__` Python runs before the module's own code."""
        parts = name.split(".")
        return [".".join(parts[:end]) for end in range(1, len(parts)) if ".".join(parts[:end]) in self.modules]

    def loads(self, name: str) -> dict[str, str | None]:
        """Every module importing `name` runs (itself excluded), each with the module it was reached from (None:
        from `name` itself), so a finding can name the road."""
        reached: dict[str, str | None] = {}
        queue = deque([name])
        while queue:
            current = queue.popleft()
            for target in (*self.parents(current), *sorted(self.imports[current])):
                if target != name and target not in reached:
                    reached[target] = None if current == name else current
                    queue.append(target)
        return reached

    def road(self, name: str, target: str, reached: Mapping[str, str | None]) -> list[str]:
        """The modules from `name` to `target`, as `loads` reached it."""
        steps = [target]
        while (previous := reached[steps[-1]]) is not None:
            steps.append(previous)
        return [name, *reversed(steps)]


def modules_of(root: Path) -> dict[str, Module]:
    found: dict[str, Module] = {}
    seen: set[Path] = set()
    for folder, prefix in SOURCES:
        for path in sorted((root / folder).rglob("*.py")):
            if path in seen or not BUILT_ELSEWHERE.isdisjoint(path.relative_to(root).parts):
                continue
            seen.add(path)
            parts = [*([prefix] if prefix else []), *path.relative_to(root / folder).with_suffix("").parts]
            package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if package else parts)
            found[name] = Module(name, path, package)
    return found


def imports_in(module: Module, known: Mapping[str, Module]) -> tuple[set[str], set[str]]:
    """The modules of ours `module` imports (a name from a package is an import of its `__init__`; a submodule
    named in a `from` import is an import of the submodule), and the top-level names of the others."""
    ours: set[str] = set()
    others: set[str] = set()
    tops = {name.split(".")[0] for name in known}
    for node in ast.walk(ast.parse(module.path.read_text(), str(module.path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    ours.add(alias.name)
                else:
                    others.add(alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node, module)
            if base.split(".")[0] not in tops:
                others.add(base.split(".")[0])
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                ours.add(submodule if submodule in known else base)
    return {name for name in ours if name in known and name != module.name}, others


def absolute(node: ast.ImportFrom, module: Module) -> str:
    if not node.level:
        return node.module or ""
    package = module.name.split(".") if module.package else module.name.split(".")[:-1]
    anchor = package[: len(package) - node.level + 1]
    return ".".join([*anchor, *([node.module] if node.module else [])])


def read_house(root: Path) -> House:
    modules = modules_of(root)
    imports: dict[str, frozenset[str]] = {}
    libraries: dict[str, frozenset[str]] = {}
    for name, module in modules.items():
        ours, others = imports_in(module, modules)
        imports[name], libraries[name] = frozenset(ours), frozenset(others)
    return House(modules, imports, libraries)


@pytest.fixture(scope="module")
def house() -> House:
    return read_house(Path(os.environ.get("FREECELL_ARENA_HOUSE", REPOSITORY)))


def holds(prefix: str, name: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(name: str, layers: Iterable[Layer] = LAYERS) -> int:
    """The index of the layer whose longest prefix holds `name`."""
    matches = [(len(prefix), index) for index, each in enumerate(layers) for prefix in each.prefixes
               if holds(prefix, name)]  # fmt: skip
    assert matches, f"{name} is in no layer"
    return max(matches)[1]


def core_part(name: str) -> str | None:
    """Core's part a module is in: its folder, or itself for a top-level module (None: outside core, or core's own
    `__init__`, which every part runs)."""
    parts = name.split(".")
    return ".".join(parts[:3]) if holds(CORE, name) and len(parts) > 2 else None


def layer_findings(house: House, layers: tuple[Layer, ...] = LAYERS) -> list[str]:
    """Each module that loads one of a layer above its own, told by the step where its road first rises (the same
    step found from many modules is told once), with what that step brings above the layer it leaves."""
    rising: dict[tuple[str, str], int] = {}
    for name in sorted(house.modules):
        own = layer_of(name, layers)
        reached = house.loads(name)
        for target in sorted(reached):
            if layer_of(target, layers) > own:
                road = house.road(name, target, reached)
                step = next(step for step in pairwise(road) if layer_of(step[1], layers) > own)
                rising.setdefault(step, own)
    findings = []
    for (name, target), own in sorted(rising.items()):
        above = Counter(layers[index].name for each in (target, *house.loads(target))
                        if (index := layer_of(each, layers)) > own)  # fmt: skip
        brought = ", ".join(f"{count} of {layer}" for layer, count in sorted(above.items()))
        findings.append(f"{name} ({layers[own].name}) loads {target} ({layers[layer_of(target, layers)].name}), "
                        f"and through it modules above {layers[own].name}: {brought}")  # fmt: skip
    return findings


def part_findings(house: House) -> list[str]:
    """Each pair of core's parts that load each other, with a road each way."""
    loaded: dict[tuple[str, str], str] = {}
    for name in sorted(house.modules):
        part = core_part(name)
        reached = house.loads(name)
        for target in sorted(reached):
            other = core_part(target)
            if part and other and other != part:
                loaded.setdefault((part, other), shown(house, name, target, reached))
    return [f"{first} and {second} load each other: {road}; {loaded[second, first]}"
            for (first, second), road in sorted(loaded.items()) if first < second and (second, first) in loaded]


def shown(house: House, name: str, target: str, reached: Mapping[str, str | None]) -> str:
    return " -> ".join(house.road(name, target, reached))


def find_cycle(edges: Mapping[str, Iterable[str]]) -> list[str] | None:
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


def core_findings(house: House) -> list[str]:
    """What a module of core loads outside its ground, and the I/O libraries it loads, with the road to each."""
    findings = []
    for name in sorted(house.modules):
        if not holds(CORE, name):
            continue
        reached = house.loads(name)
        for target in sorted(reached):
            if target != ROOT and not any(holds(ground, target) for ground in CORE_GROUND):
                findings.append(f"core loads {target}: {shown(house, name, target, reached)}")
        for each in (name, *reached):
            if io := house.libraries[each] & IO_LIBRARIES:
                road = name if each == name else shown(house, name, each, reached)
                findings.append(f"core loads {sorted(io)}: {road}")
    return findings


def test_each_layer_loads_only_itself_and_the_layers_below(house: House) -> None:
    """`LAYERS`, on what each module loads however indirectly: `store.tournaments` may not reach live play through
    a verb of competition's, nor the SDK net through a helper of the server's."""
    assert not (findings := layer_findings(house)), "\n".join(findings)


def test_no_two_parts_of_core_load_each_other(house: House) -> None:
    """Core's parts are its folders and its top-level modules; the layers order them, and within a layer (the
    kernel's modules, the seams) this keeps two of them from leaning on each other."""
    assert not (findings := part_findings(house)), "\n".join(findings)


def test_no_import_cycles_even_for_type_checking(house: House) -> None:
    assert (cycle := find_cycle(house.imports)) is None, " -> ".join(cycle)


def test_core_is_plain_logic_however_indirectly(house: House) -> None:
    """Core reaches storage and the network only through its ports: it loads neither the store nor net (whose
    layers sit among core's: the store under live play, net under the arena), nor a library that does I/O."""
    assert not (findings := core_findings(house)), "\n".join(sorted(set(findings)))


def test_the_engine_loads_no_library(house: House) -> None:
    """The engine is pure: the standard library only, and none of it that does I/O (no asyncio, no sockets), so a
    bot, the solver's worker and the audit run the same rules as the server, anywhere."""
    allowed = (sys.stdlib_module_names | {"__future__"}) - IO_LIBRARIES
    for name in (name for name in house.modules if holds("freecell_arena.engine", name)):
        for each in (name, *house.loads(name)):
            assert house.libraries[each] <= allowed, (each, house.libraries[each] - allowed)


def test_webauthn_is_only_where_the_ceremonies_are(house: House) -> None:
    """`webauthn` is pure verification, allowed in core, but only in `core.accounts.passkeys`
    (`core.accounts.relying_party` stays light: settings load it)."""
    for name in house.modules:
        if holds(CORE, name) and house.libraries[name] & {"webauthn", "cryptography"}:
            assert name == f"{CORE}.accounts.passkeys", name


def test_every_module_has_a_layer_and_every_prefix_a_module(house: House) -> None:
    """A layer names no module that is gone (a move leaves no stale prefix behind)."""
    for name in house.modules:
        layer_of(name)
    for each in LAYERS:
        for prefix in each.prefixes:
            assert any(holds(prefix, name) for name in house.modules), (each.name, prefix)


# ---------------------------------------------------------------- the reader itself, on a house of its own


def write(root: Path, files: Mapping[str, str]) -> House:
    for relative, text in files.items():
        path = root / "server" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return read_house(root)


def test_a_package_import_and_the_packages_above_count(tmp_path: Path) -> None:
    house = write(tmp_path, {
        "a/__init__.py": "from a.low import x\n", "a/low.py": "import b.leaf\n", "a/mid.py": "from a import x\n",
        "a/top.py": "from a import low\n", "b/__init__.py": "import c\n", "b/leaf.py": "", "c.py": "",
    })  # fmt: skip
    assert house.imports["a.mid"] == {"a"}, "a name from a package: its __init__"
    assert house.imports["a.top"] == {"a.low"}, "a submodule named in a from import: the submodule"
    assert set(house.loads("a.top")) == {"a", "a.low", "b", "b.leaf", "c"}, "parents run first, however deep"
    assert house.road("a.top", "c", house.loads("a.top")) == ["a.top", "a.low", "b.leaf", "b", "c"]


def test_the_finder_does_find_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
