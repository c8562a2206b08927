"""`matches(x, keyword_arg(y, K))` tests K's conditions only (build/depends.py
`matched_keyword`): the zones a check reads through it are those K's arguments read, not every
keyword's, so that a `create` into a zone only another keyword's condition reads marks no such
check (Nivel Arena's setup: a check after each card made into a deck, docs/speed.md h47s)."""

from __future__ import annotations

import random

from madang.game.api import load_program, new_game
from test_check_dependencies import flow_masks, write_ruleset

RULES = """\
kind unit:
    power: number

zone field: shared, public
zone deck: shared, public
zone pile: shared, public

keyword fits[cond: condition]
keyword usable[cond: condition]

check misfit for u in contents(field) if not matches(u, keyword_arg(u, fits)):
    move u to pile

flow:
    create "A" in deck
    create "B" in field
    create "C" in pile
    move first(deck) to field
"""

CARDS = """\
cards:
  - {name: A, type: unit, power: 1, text: "usable[count(deck) > 0]"}
  - {name: B, type: unit, power: 2, text: "fits[count(field) < 3]"}
  - {name: C, type: unit, power: 3}
"""


def test_a_create_into_a_zone_only_another_keyword_reads_marks_no_check(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, CARDS)
    mask, bit = flow_masks(monkeypatch, folder, RULES)
    assert mask('    create "A" in deck') == 0  # only `usable`'s condition reads the deck
    assert mask('    create "B" in field') == bit  # the domain and `fits`' condition


def test_the_games_are_those_of_every_check_evaluated(tmp_path):
    """Checks not due are evaluated anyway under the tests (`Program.verify_checks`): one that
    held while unmarked would fail here."""
    folder = write_ruleset(tmp_path, RULES, CARDS)
    prog = load_program(folder)
    assert prog.verify_checks
    g = new_game(prog, seed=1)
    rng = random.Random(1)
    while not g.st.over and g.st.pending is not None:
        g.apply_action(rng.randrange(len(g.st.pending.values)))
