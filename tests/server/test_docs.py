"""Generated docs match the models; the settings table names every setting."""

from __future__ import annotations

from pathlib import Path

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
