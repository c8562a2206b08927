"""Explicit chance (runtime/chance.py, game/api.py): the rules' own random operations as
chance nodes with exact probabilities; payoffs from `define payoff(p: player)` (#31)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import madang
import pytest
from madang.game.api import CHANCE, GameState, new_game

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"
KUHN = EXAMPLES / "kuhn_poker"
LEDUC = EXAMPLES / "leduc_poker"
DICE = EXAMPLES / "liars_dice"


def deals(game) -> dict[tuple, Fraction]:
    """Every way the chance nodes before the first decision can go, with its probability:
    the hands the players hold then."""
    out: dict[tuple, Fraction] = {}

    def walk(g, p):
        if not g.is_chance_node():
            st = g.st
            hands = tuple(
                tuple(st.g.prog.cards[st.obj_card[o]].name for o in st.zones[z])
                for z, (name, _) in enumerate(st.g.zone_info)
                if name in ("hand", "cup")
            )
            out[hands] = out.get(hands, 0) + p
            return
        for k, q in g.chance_outcomes():
            c = g.clone()
            c.apply_action(k)
            walk(c, p * Fraction(q).limit_denominator(1000))

    walk(game, Fraction(1))
    return out


def test_a_shuffle_is_successive_uniform_draws():
    """Kuhn's shuffle of three cards: 3 outcomes, then 2 (the last card goes where it must);
    the six deals are equally likely."""
    game = new_game(KUHN, chance="explicit")
    assert game.current_player() == CHANCE and game.legal_actions() == [0, 1, 2]
    game.apply_action(0)
    assert [p for _, p in game.chance_outcomes()] == [0.5, 0.5]
    dealt = deals(new_game(KUHN, chance="explicit"))
    assert len(dealt) == 6 and set(dealt.values()) == {Fraction(1, 6)}


def test_a_random_pick_has_one_outcome_per_item_and_a_die_one_per_face():
    dealt = deals(new_game(LEDUC, chance="explicit"))  # random(deck) twice: 6 then 5 cards
    assert len(dealt) == 30 and set(dealt.values()) == {Fraction(1, 30)}
    dice = deals(new_game(DICE, {"sides": 4}, chance="explicit"))  # roll(1, 4) for each
    assert len(dice) == 16 and set(dice.values()) == {Fraction(1, 16)}


def test_sampled_chance_is_the_engines_generator():
    game = new_game(KUHN, seed=3)
    assert not game.is_chance_node() and game.current_player() == 0
    assert game.digest() == new_game(KUHN, seed=3).digest()


def test_a_chance_node_saves_clones_and_resumes():
    game = new_game(LEDUC, chance="explicit")
    at_setup = GameState.from_json(game.to_json())  # before any outcome: nothing started
    assert at_setup.chance_outcomes() == game.chance_outcomes()
    game.apply_action(0)
    game.apply_action(0)
    game.apply_action(game.legal_actions()[0])  # call
    game.apply_action(game.legal_actions()[0])  # call: the public card comes
    assert game.is_chance_node() and len(game.chance_outcomes()) == 4
    saved = GameState.from_json(game.to_json())
    twin = game.clone()
    assert saved.digest() == game.digest() == twin.digest()
    for g in (game, saved, twin):
        g.apply_action(3)
    assert saved.digest() == game.digest() == twin.digest()
    assert not game.is_chance_node() and game.current_player() == 0
    branch = twin.clone()
    branch.apply_action(branch.legal_actions()[-1])
    assert branch.digest() != twin.digest()  # a clone is independent


def test_illegal_chance_outcomes_and_damaged_chance_saves_are_refused():
    game = new_game(KUHN, chance="explicit")
    with pytest.raises(madang.MadangError, match="chance outcome 3"):
        game.apply_action(3)
    game.apply_action(1)
    text = game.to_json().replace('"outcomes":[1]', '"outcomes":[7]')
    with pytest.raises(madang.MadangError, match="corrupt save file"):
        GameState.from_json(text)
    with pytest.raises(madang.MadangError, match="chance must be"):
        new_game(KUHN, chance="dice")


def test_returns_are_the_payoff_when_the_ruleset_defines_one():
    game = new_game(KUHN, seed=1)
    game.apply_label("check")
    game.apply_label("check")
    assert game.is_terminal()
    net = game.st.pcounters["net"]
    assert game.returns() == [float(v) for v in net] and sorted(net) == [-1, 1]


def test_a_payoff_with_the_wrong_parameters_is_a_located_error(tmp_path):
    import shutil

    folder = tmp_path / "kuhn"
    shutil.copytree(KUHN, folder)
    rules = folder / "kuhn.madang"
    rules.write_text(rules.read_text().replace("payoff(p: player) = p.net", "payoff = 1"))
    with pytest.raises(madang.MadangError) as e:
        madang.load_program(folder)
    text = e.value.diags.render()
    assert "kuhn.madang:16:1" in text and "one player parameter" in text
