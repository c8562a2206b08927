"""The example card sets of #19 (docs/examples/*_expansion): each checks clean against its
ruleset, warnings included, and every card whose text does something is proven by a scenario
whose `rule:` names it (by collector number or by name). The scenarios themselves run as tests
of their own (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from madang.build.loader import load_ruleset
from madang.language.diagnostics import Diagnostics

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
SETS = ["arena_expansion", "clash_expansion", "got_expansion"]


def read_set(name: str) -> dict:
    return yaml.safe_load((EXAMPLES / name / "cards.yaml").read_text(encoding="utf-8"))


def has_ability(text: str | None) -> bool:
    """A text with more than comments and the marks of its keywords' names (a vanilla card
    has nothing to prove)."""
    lines = [ln.strip() for ln in (text or "").splitlines()]
    return any(ln and not ln.startswith("#") for ln in lines)


@pytest.mark.parametrize("name", SETS)
def test_the_example_set_checks_clean(name):
    diags = Diagnostics()
    loaded = load_ruleset(read_set(name)["ruleset"], diags, [str(EXAMPLES / name)])
    own = [d for d in diags.items if str(EXAMPLES / name) in str(d.span.file)]
    assert loaded.program is not None and not diags.has_errors(), diags.render()
    assert own == [], diags.render()


@pytest.mark.parametrize("name", SETS)
def test_every_card_with_a_text_has_a_scenario(name):
    rules = [
        str(yaml.safe_load(p.read_text(encoding="utf-8")).get("rule", ""))
        for p in sorted((EXAMPLES / name / "scenarios").glob("*.yaml"))
    ]
    cards = [c for c in read_set(name)["cards"] if has_ability(c.get("text"))]
    assert len(cards) >= 3
    missing = [
        c["name"]
        for c in cards
        if not any((c.get("id") and c["id"] in r) or c["name"] in r for r in rules)
    ]
    assert missing == [], f"cards of {name} no scenario names: {missing}"


def test_the_nivel_expansion_has_forty_cards_of_every_kind():
    cards = read_set("arena_expansion")["cards"]
    kinds = {c["type"] for c in cards}
    assert len(cards) >= 40 and kinds == {"유닛", "아이템", "스킬", "리더"}
    costs = {c["코스트"] for c in cards if "코스트" in c}
    assert costs == set(range(1, 8))
