"""The state's layout of properties (State.pv): for each property the rules write, its value
per object, derived from what statements wrote (`State.props`, what saves hold) and the cards.
It must agree with them at every decision, after a clone, a save and a load, and the saves
must hold exactly what they held before the layout existed (docs/speed.md, issue #34)."""

from __future__ import annotations

import random

import pytest
from madang.build.loader import bundled_names
from madang.game.api import load_program, new_game
from madang.runtime.state import State


@pytest.mark.parametrize("ruleset", bundled_names())
def test_the_layout_agrees_with_the_saved_properties_at_every_decision(ruleset):
    prog = load_program(ruleset)
    assert prog.prop_slots, "every bundled ruleset writes some property"
    assert all(len(t) == len(prog.cards) for t in prog.slot_cards())
    for seed in range(4):
        game = new_game(prog, seed=seed)
        rng = random.Random(seed)
        for step in range(300):
            if game.is_terminal():
                break
            st = game.st
            assert st.pv == st.layout(), f"seed {seed}, decision {step}"
            if step % 7 == 3:  # a clone, and a state loaded from its save, play on alike
                other = game.clone()
                assert other.st.pv == st.pv
                for _ in range(20):  # the clone shares rows until it writes them (State.own)
                    if other.is_terminal():
                        break
                    other.apply_action(rng.choice(other.legal_actions()))
                    assert other.st.pv == other.st.layout()
                assert st.pv == st.layout()
                seat = max(game.current_player(), 0)  # a sample deals other cards (determinize)
                sample = game.determinize(seat, random.Random(step))
                assert sample.st.pv == sample.st.layout()
                loaded = State.from_data(st.g, st.to_data())
                assert loaded.pv == st.pv and loaded.to_data() == st.to_data()
            game.apply_action(rng.choice(game.legal_actions()))


def test_a_property_written_from_outside_the_rules_is_read_by_them():
    # A scenario's position writes a property the rules only read: reads see it (they look in
    # State.props, the cards' values being only what nothing overrode).
    from madang.game.position import Position

    prog = load_program("clash_of_decks")
    read_only = next(
        k
        for c in prog.cards
        for k in c.props
        if k not in prog.prop_slots and isinstance(c.props[k], int)
    )
    game = new_game(prog, seed=1)
    st = game.st
    o = next(x for x in range(len(st.obj_card)) if read_only in prog.cards[st.obj_card[x]].props)
    Position(game).set_prop(o, read_only, 97)
    assert prog.read_prop(st, o, read_only) == 97
    written = next(iter(prog.prop_slots))
    o2 = next(x for x in range(len(st.obj_card)) if written in prog.cards[st.obj_card[x]].props)
    Position(game).set_prop(o2, written, 5)
    assert st.pv == st.layout() and prog.base_prop(st, o2, written) == 5


def test_write_marks_name_every_object_whose_laid_out_properties_changed(monkeypatch):
    # stmtgen.MARK_WRITES (off until the run time reads the marks): after the marks are
    # cleared, every object whose value in a slot of State.pv changes is marked, and its slot.
    from madang.build import stmtgen
    from madang.build.loader import load_ruleset
    from madang.language.diagnostics import Diagnostics

    monkeypatch.setattr(stmtgen, "MARK_WRITES", True)
    prog = load_ruleset("clash_of_decks", Diagnostics()).program
    assert "st.wrote |= 1 <<" in "".join(
        fn.generated
        for b in prog.blocks
        for s in b
        if (fn := getattr(s, "fn", None)) and hasattr(fn, "generated")
    )
    game = new_game(prog, seed=3)
    rng = random.Random(3)
    changed_any = False
    for _ in range(200):
        if game.is_terminal():
            break
        st = game.st
        before = [row[:] for row in st.pv]
        st.wrote = st.wrote_slots = 0
        game.apply_action(rng.choice(game.legal_actions()))
        st = game.st
        for k, (old, row) in enumerate(zip(before, st.pv)):
            for o, v in enumerate(row):
                if o >= len(old) or old[o] != v:
                    changed_any = True
                    assert st.wrote >> o & 1 and st.wrote_slots >> k & 1, (k, o)
    assert changed_any
