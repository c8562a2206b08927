"""Cards loaded but never dealt change nothing and cost little: a card's actions, triggers and
continuous effects are looked at only when an object of it is present (issue: engine, "Cost of
unused cards"; engine.enumerate_actions, effects.granted_args)."""

import pytest
import yaml
from madang.runtime.api import load_program
from madang.tools.bench import card_rows
from test_resumable import play


def twins(ruleset: str, folder, copies: int) -> str:
    """A card file with `copies` renamed copies of each of the ruleset's cards."""
    meta, rows = card_rows(ruleset)
    cards = []
    for k in range(copies):
        for r in rows:
            c = dict(r, name=f"{r['name']} TWIN{k}")
            c.pop("id", None)
            cards.append(c)
    path = folder / "twins.yaml"
    doc = {"ruleset": meta["name"], "cards": cards}
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", ["game_of_thrones_2p", "nivel_arena", "clash_of_decks"])
def test_games_are_the_same_with_many_unused_cards_loaded(name, tmp_path):
    # 12 twins of every card: more continuous grants of one keyword than effects.MANY, so the
    # pass that skips the grants of absent cards is the one taken
    plain = load_program(name)
    loaded = load_program(name, [twins(name, tmp_path, 12)])
    assert len(loaded.cards) == 13 * len(plain.cards)
    for seed in range(2):
        assert play(loaded, seed) == play(plain, seed), f"seed {seed}"
