"""Generated docs match the models; the settings table and docker-compose.yml name real things."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from freecell_arena.cli import build_parser
from freecell_arena.protocol import generate
from freecell_arena.settings import Settings

REPO = Path(__file__).resolve().parents[2]


def test_protocol_doc_and_schema_match_the_models() -> None:
    assert generate.SCHEMA_PATH.read_text() == generate.schema_text(), "run python -m freecell_arena.protocol.generate"
    assert generate.DOC_PATH.read_text() == generate.doc_text(), "run python -m freecell_arena.protocol.generate"


def test_every_message_type_is_in_the_doc() -> None:
    doc = generate.DOC_PATH.read_text()
    for model in generate.CLIENT_MODELS + generate.SERVER_MODELS:
        assert f"| `{model.model_fields['type'].default}` |" in doc


def test_every_setting_is_in_the_settings_table() -> None:
    table = (REPO / "docs" / "server.md").read_text()
    for name in Settings.model_fields:
        assert f"`FREECELL_ARENA_{name.upper()}`" in table, name


def subcommands() -> set[str]:
    parser = build_parser(every_command=True)
    action = next(a for a in parser._actions if a.dest == "command")
    return set(action.choices)  # type: ignore[arg-type]


def test_docker_compose_runs_real_commands_with_real_settings() -> None:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"db", "server"} <= set(services)
    server = services["server"]
    script = " ".join(server["command"])
    invoked = re.findall(r"freecell-arena (\w[\w-]*)", script)
    assert "migrate" in invoked and "serve" in invoked
    assert invoked.index("migrate") < invoked.index("serve"), "migrations run before the server starts"
    assert set(invoked) <= subcommands()
    serve_args = shlex.split(script.split("freecell-arena serve", 1)[1])
    serve_parser = build_parser(["serve"]).parse_args(["serve", *serve_args])
    assert serve_parser.port == 8765
    fields = set(Settings.model_fields)
    for variable in server["environment"]:
        assert variable.startswith("FREECELL_ARENA_")
        assert variable.removeprefix("FREECELL_ARENA_").lower() in fields, variable
    assert server["environment"]["FREECELL_ARENA_DATABASE_URL"].startswith("postgresql")
    assert "/readyz" in " ".join(server["healthcheck"]["test"]), "the health check is readiness"
    assert server["depends_on"]["db"]["condition"] == "service_healthy"
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
