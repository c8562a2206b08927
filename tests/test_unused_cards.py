"""Cards loaded but never dealt change nothing and cost little: a card's actions, triggers and
continuous effects are looked at only when an object of it is present (issue: engine, "Cost of
unused cards"; engine.enumerate_actions, effects.granted_args)."""

import pytest
import yaml
from madang.game.api import load_program
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


def test_the_objects_present_are_found_again_after_a_change_where_they_are_in_force():
    """The objects of cards with abilities where those are in force, by card, are kept
    (`State.kw`): a move of one of them out of where they are in force takes it out of them in
    place (engine.present_moved), and a clone starts with its own."""
    from madang.game.api import new_game
    from madang.runtime import engine as E

    g = new_game(load_program("game_of_thrones_2p"), {}, seed=1)
    st = g.st
    while not E.objects_by_card(st):  # until a card with abilities is where they are in force
        g.apply_action(0)
    present = E.objects_by_card(st)
    assert E.objects_by_card(st) is present  # kept while nothing moved
    assert st.clone().kw is None
    o = next(o for objs in present.values() for o in objs)
    E.move_object(st, o, st.g.zone_base["dead"] + st.obj_owner[o], "back")
    after = E.objects_by_card(st)
    assert after is present and after == E._objects_by_card(st)  # written in place
    assert o not in [x for objs in after.values() for x in objs]
