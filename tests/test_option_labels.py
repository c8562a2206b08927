"""Options name their object (issue #35): in random mirror matches of every bundled ruleset no
decision has two options that read the same, in the API's labels or as shown in any language,
and a label never names a card the deciding seat may not see."""

from __future__ import annotations

import random
import re

import pytest
from madang.build.loader import bundled_names
from madang.game.api import load_program, new_game
from madang.game.optionlabels import plain_labels
from madang.tools.narration import Narrator
from madang.tools.view import option_labels

MIRRORS = {"cthulhu_wars": {"players": 3}}  # the others' defaults give both seats one deck


def hidden_from(game, seat: int) -> tuple[set[str], set[str]]:
    """Names of cards only in opponents' zones the seat may not see, and the names in sight."""
    st = game.st
    g = st.g
    hidden, seen = set(), set()
    for z, (name, owner) in enumerate(g.zone_info):
        vis = g.prog.zones[name].visibility
        names = {g.prog.cards[st.obj_card[o]].name for o in st.zones[z]}
        if vis == "public" or (vis == "owner" and owner == seat):
            seen |= names
        elif owner >= 0 and owner != seat and g.prog.zones[name].scope == "player":
            hidden |= names
    return hidden - seen, seen


def named(label: str, secrets: set[str], seen: set[str]) -> set[str]:
    """The secret names a label says as names of their own (not inside a longer name in sight)."""
    for name in sorted(seen, key=len, reverse=True):
        label = label.replace(name, " ")
    return {s for s in secrets if s in label.split(" ")}


@pytest.mark.parametrize("ruleset", bundled_names())
def test_no_two_options_of_a_decision_read_the_same(ruleset):
    told_apart = 0
    for seed in range(3):
        game = new_game(ruleset, MIRRORS.get(ruleset, {}), seed=seed)
        rng = random.Random(seed)
        for _ in range(250):
            if game.is_terminal():
                break
            labels = game.action_labels()
            assert len(set(labels)) == len(labels), labels
            for lang in ("en", "ko"):
                shown = option_labels(game, lang)
                assert len(set(shown)) == len(shown) == len(labels), (lang, shown)
            plain = plain_labels(game.st)
            if len(set(plain)) < len(plain):
                told_apart += 1
                # told apart by what is public: an owner, a place, a position; never ' (2)'
                assert not any(re.search(r" \(\d+\)$", lab) for lab in labels), labels
            secrets, seen = hidden_from(game, game.current_player())
            leaked = set().union(*(named(lab, secrets, seen) for lab in labels))
            assert not leaked, (leaked, labels)
            game.apply_action(rng.randrange(len(labels)))
    if ruleset != "cthulhu_wars":  # the mirror matches meet copies of one card at once
        assert told_apart > 0


def test_copies_are_told_apart_by_owner_then_place_then_position():
    game = new_game("clash_of_decks", {}, seed=1)
    rng = random.Random(1)
    found = set()
    while not game.is_terminal() and len(found) < 2:
        labels = game.action_labels()
        for lab in labels:
            if " enemy " in f" {lab} ":
                found.add("owner")
        if any("(hand " in lab for lab in labels):
            found.add("position")
        game.apply_action(rng.randrange(len(labels)))
    assert "owner" in found
    shown = None
    g = new_game("clash_of_decks", {}, seed=1)
    while not g.is_terminal():
        labels = g.action_labels()
        if any(" enemy " in f" {lab} " for lab in labels):
            shown = option_labels(g, "ko")
            break
        g.apply_action(rng.randrange(len(labels)))
    assert shown is not None and any(" 상대 " in f" {s} " for s in shown)


def test_narration_says_whose_card_for_each_seat():
    prog = load_program("clash_of_decks")
    label = "cast BOOM! enemy BARON"
    entry = {"decision": "소환", "player": 0, "choice": label}
    assert Narrator(prog, "en", seat=0).line(entry).endswith("cast BOOM! enemy BARON")
    assert Narrator(prog, "en", seat=1).line(entry).endswith("cast BOOM! your BARON")
    assert Narrator(prog, "en", seat=None).line(entry).endswith("cast BOOM! P2's BARON")
    assert Narrator(prog, "ko", seat=0).line(entry).endswith("시전 BOOM! 상대 BARON")


def test_the_openspiel_adapter_says_the_same_labels():
    pyspiel = pytest.importorskip("pyspiel")
    import madang.game.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("madang", {"ruleset": "clash_of_decks", "seed": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        labels = state.game_state.action_labels()
        if any(" enemy " in f" {lab} " for lab in labels):
            player = state.current_player()
            said = [state.action_to_string(player, a) for a in state.legal_actions()]
            assert sorted(said) == sorted(labels)
            return
        state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no decision with an enemy's card in 400 steps")
