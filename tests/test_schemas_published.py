"""The card schemas published for editors (docs/schemas/*.cards.json, referenced from card files
with `# yaml-language-server: $schema=...`) are the ones the loader checks with."""

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from madang.build.loader import bundled_names, kinds_spec, load_ruleset
from madang.language.diagnostics import Diagnostics
from madang.language.schema import card_schema

DOCS = Path(__file__).resolve().parents[1] / "docs" / "schemas"


@pytest.mark.parametrize("name", bundled_names())
def test_published_card_schema_is_current(name):
    diags = Diagnostics()
    loaded = load_ruleset(name, diags, compile=False)
    current = card_schema(name, kinds_spec(loaded.syms))
    published = json.loads((DOCS / f"{name}.cards.json").read_text(encoding="utf-8"))
    assert published == current, (
        f"regenerate with: madang schema {name} > docs/schemas/{name}.cards.json"
    )


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_card_files_validate_against_the_published_schema(name):
    schema = json.loads((DOCS / f"{name}.cards.json").read_text(encoding="utf-8"))
    folder = Path(__file__).resolve().parents[1] / "rulesets" / name
    meta = yaml.safe_load((folder / "ruleset.yaml").read_text(encoding="utf-8"))
    for rel in meta.get("cards") or []:
        data = yaml.safe_load((folder / rel).read_text(encoding="utf-8"))
        jsonschema.validate(data, schema)
