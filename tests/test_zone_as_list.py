"""A zone given where the rules declare a list (`define total(l: list of card) = sum(l.size)`
called with `p.hand`): the definition reads the zone's objects, whether it is written inline at
its use or called (build/codegen.py), as a verb's (written in its caller or run by its
statement object, when something listens to it), and `l.p`, `l + m`, `first(l)` and `l where`
all see them."""

from __future__ import annotations

import pytest
from madang.build import codegen
from madang.game.api import new_game
from minirules import write_ruleset

RULES = """\
zone hand: per player, public
zone pile: shared, public
counter got: per player = 0
counter seen: per player = 0
counter told: per player = 0
kind piece:
    size: number
define total(l: list of card) = sum(l.size)
define sizes(l: list of card) = l.size
define big(l: list of card) = count(l where it.size > 1)
define head(l: list of card) = first(l).size
define joined(l: list of card, m: list of card) = count(l + m)
define most(l: list of card) = max(l.size)
verb tally(p: player, l: list of card, m: list of card):
    p.seen = count(l + m) + 10 * sum(l.size) + 100 * first(l).size
verb heard(p: player, l: list of card):
    p.told = count(l + l) + 10 * sum(l.size)
after heard:
    pass
setup:
    create "C" in pile
    for p in players:
        create "A" in p.hand
        create "B" in p.hand
        create "C" in p.hand
flow:
    for p in players:
        tally(p, p.hand, pile)
        heard(p, p.hand)
        p.got = total(p.hand) + 10 * big(p.hand) + 100 * head(p.hand) + 1000 * joined(p.hand, pile) + 10000 * most(p.hand) + 100000 * total(pile) + 1000000 * count(sizes(pile))
"""


@pytest.mark.parametrize("inline", [True, False])
def test_a_zone_given_for_a_list_parameter_is_read_as_its_objects(tmp_path, monkeypatch, inline):
    if not inline:  # every definition called, none written inline (a fresh folder: compiled)
        monkeypatch.setattr(codegen, "INLINE_MAX", 0)
    cards = (
        "cards:\n  - {name: A, type: piece, size: 1}\n  - {name: B, type: piece, size: 2}\n"
        "  - {name: C, type: piece, size: 5}\n"
    )
    g = new_game(write_ruleset(tmp_path, RULES, cards, name="zl"), seed=1)
    # sizes 1, 2, 5 in each hand, 5 in the pile: 8 + 10*2 + 100*1 + 1000*4 + 10000*5
    # + 100000*5 + 1000000*1
    assert g.st.pcounters["got"] == [1554128, 1554128]
    assert g.st.pcounters["seen"] == [4 + 10 * 8 + 100 * 1] * 2
    assert g.st.pcounters["told"] == [6 + 10 * 8] * 2
