"""A room's next value is made in one place: `core/live/room.py`, the value and every verb of its life. Everything
else in core (the lobby, races, the replica, the rebuild, and the policies over rooms: series, quick races,
tournaments) asks those verbs for a room's change and never builds one itself, so the next format or room kind
changes the room's life in one module."""

from __future__ import annotations

import ast
from pathlib import Path

import freecell_arena.core

CORE = Path(freecell_arena.core.__file__).parent
OWNER = CORE / "live" / "room.py"
DERIVING = {"at_same_version", "changed", "at_version"}
"""`Room`'s own ways of deriving a value (its verbs are built on them)."""


def room_values_made(source: str) -> list[str]:
    """Where `source` builds a room's value itself: `Room(...)`, `Room.new(...)`, `x.at_same_version(...)`,
    `x.changed(...)`, `x.at_version(...)`, or `replace(room, ...)` of anything named like a room. One line a finding:
    `LINE: what`."""
    findings = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        if isinstance(function, ast.Name) and function.id == "Room":
            findings.append(f"{node.lineno}: Room(...)")
        elif isinstance(function, ast.Attribute) and function.attr in DERIVING:
            findings.append(f"{node.lineno}: .{function.attr}(...)")
        elif (isinstance(function, ast.Attribute) and function.attr == "new" and isinstance(function.value, ast.Name)
              and function.value.id == "Room"):  # fmt: skip
            findings.append(f"{node.lineno}: Room.new(...)")
        elif _is_replace(function) and node.args and "room" in _name_of(node.args[0]).lower():
            findings.append(f"{node.lineno}: replace({_name_of(node.args[0])}, ...)")
    return findings


def _is_replace(function: ast.expr) -> bool:
    return (isinstance(function, ast.Name) and function.id == "replace") or (
        isinstance(function, ast.Attribute) and function.attr == "replace"
    )


def _name_of(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def test_only_the_room_module_makes_a_rooms_value() -> None:
    findings = {
        path.relative_to(CORE).as_posix(): found
        for path in sorted(CORE.rglob("*.py"))
        if path != OWNER and (found := room_values_made(path.read_text()))
    }
    assert findings == {}


def test_the_room_module_is_where_its_values_are_made() -> None:
    assert room_values_made(OWNER.read_text())  # the rule looks at the right things: the owner does all of them


def test_the_rule_finds_each_way_of_making_a_room_value() -> None:
    source = """
room = Room(record, variant, options)
fresh = Room.new(record, variant, options)
moved, version = room.changed(status="countdown")
told = room.at_same_version(next_code="NEXT")
heard = room.at_version(version)
same = replace(room, host_id="bob")
other = dataclasses.replace(self.room, host_id="bob")
seat = replace(seat, room_code=None)
opened = Room.open(plan, room_id, code, host, now)
"""
    assert room_values_made(source) == [
        "2: Room(...)", "3: Room.new(...)", "4: .changed(...)", "5: .at_same_version(...)", "6: .at_version(...)",
        "7: replace(room, ...)", "8: replace(room, ...)",
    ]  # fmt: skip
