"""Generated docs match the models; the settings table names every setting."""

from __future__ import annotations

import json
from pathlib import Path

from freecell_arena.protocol import generate
from freecell_arena.protocol.contract import HTTP_ROUTES, STREAM_ROUTES
from freecell_arena.protocol.registry import CLIENT_MODELS, SERVER_MODELS
from freecell_arena.settings import Settings

REPO = Path(__file__).resolve().parents[2]


def test_protocol_doc_schema_asyncapi_and_openapi_match_the_models() -> None:
    """docs/protocol.md, docs/schema/protocol.json, asyncapi.json, openapi.json and export-game.json are what the
    models and the contract produce (`generate.GENERATED` names every one)."""
    assert {path.name for path in generate.GENERATED} == {"protocol.md", "protocol.json", "asyncapi.json",
                                                          "openapi.json", "export-game.json"}  # fmt: skip
    for path, text in generate.GENERATED.items():
        assert path.read_text() == text(), f"{path} is stale: run python -m freecell_arena.protocol.generate"


def test_the_openapi_document_is_valid_openapi_3_1() -> None:
    """The outside validator (openapi-spec-validator) over the committed document; .ci/run also runs the AsyncAPI
    parser over asyncapi.json (.ci/asyncapi/)."""
    from openapi_spec_validator import validate

    document = json.loads(generate.OPENAPI_PATH.read_text())
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_every_http_route_is_in_the_openapi_document_with_its_errors() -> None:
    document = json.loads(generate.OPENAPI_PATH.read_text())
    assert set(document["paths"]) == {route.path for route in (*HTTP_ROUTES, *STREAM_ROUTES)}
    deal = document["paths"]["/api/leaderboards/{variant}/deal/{seed}"]["get"]["responses"]
    assert "`unknown_seed`" in deal["404"]["description"] and "429" in deal and "200" in deal


def test_every_message_type_is_in_the_doc() -> None:
    doc = generate.DOC_PATH.read_text()
    for model in CLIENT_MODELS + SERVER_MODELS:
        assert f"| `{model.model_fields['type'].default}` |" in doc


def test_every_setting_is_in_the_settings_table() -> None:
    table = (REPO / "docs" / "server.md").read_text()
    for name in Settings.setting_names():
        assert f"`FREECELL_ARENA_{name.upper()}`" in table, name
