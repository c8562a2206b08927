"""Issue #34 step 3: a parameter's domain that reads only the parameters bound before it, `you`
and counters is computed once per game for each value of those (`Game.domains`,
build/depends.domain_counters); one that reads a zone, an object or anything else is computed
at every listing. The options offered are those of a fresh listing at every decision."""

from __future__ import annotations

import copy
import json
import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from playthrough import windows

RULESETS = ["cthulhu_wars", "clash_of_decks", "nivel_arena", "game_of_thrones_2p"]


def fresh_listing(st, actions, player) -> list:
    """The window's options listed on a copy of the state whose game keeps no domain (nor
    finds one that other games kept: `Game.shared`)."""
    c = st.clone()
    c.g = copy.copy(st.g)
    c.g.domains, c.g.shared = {}, {}
    return E.enumerate_actions(c, actions, player)


def play_and_compare(prog, seed: int) -> int:
    """Play a seeded random game; at each window, compare its options with a fresh listing."""
    checked = 0
    for st, w, got in windows(prog, seed, memory=seed % 2 == 0):
        assert got == fresh_listing(st, w.actions, st.pending.player), f"seed {seed}"
        checked += 1
    return checked


@pytest.mark.parametrize("name", RULESETS)
def test_kept_domains_give_the_options_of_a_fresh_listing(name):
    prog = load_program(name)
    assert sum(play_and_compare(prog, seed) for seed in range(6)) > 0


def test_a_domain_read_from_the_map_and_a_counter_is_kept_per_game():
    """Cthulhu Wars' destinations of a move read the map and the mover's faction (a counter):
    kept, under the area and the counter's values; the unit names (a zone) are not."""
    prog = load_program("cthulhu_wars")
    march = next(a for a in prog.actions if a.name == "march_also")
    assert march.dom_fixed == [None, None, ("fid",)]
    assert "st.g.domains.setdefault(" in march.fast_enum.generated  # (enumerators.KEPT_ROWS)
    g = new_game(prog, seed=2, memory=False)
    rng = random.Random(2)
    while not g.st.over and not g.st.g.domains:
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    assert g.st.g.domains  # used, and shared by the clones of the game
    assert g.st.clone().g.domains is g.st.g.domains
    assert "domains" not in json.dumps(g.st.to_data())  # never saved


RULES = """\
zone units: per area, public
counter reach = 1

kind piece:
    size: number

define near(a: area) = if reach > 1 then areas where it != a else adjacent(a)
define empty_near(a: area) = near(a) where count(it.units) == 0

action hop(a: area from areas, b: area from near(a)) in act:
    require exists(first(a.units where it.owner == you))
    move first(a.units where it.owner == you) to b.units

action crowd(a: area from areas, b: area from empty_near(a)) in act:
    require exists(first(a.units where it.owner == you))
    move first(a.units where it.owner == you) to b.units
    reach += 1

setup:
    for p in players:
        create "Piece" in area("A").units for p

flow:
    repeat 30 times:
        for p in players:
            turn p:
                window act by p once
"""


def test_a_domain_that_reads_a_zone_is_listed_again(tmp_path):
    """`empty_near(a)` reads the units of the areas: computed at every listing; `near(a)`
    reads the map and a counter: kept under the counter's value, which a move changes."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: hops\ntitle: {en: Hops}\nplayers: 2\nfiles: [r.madang]\ncards: [cards.yaml]\n"
        "maps:\n  m:\n    areas:\n      A: {adjacent: [B]}\n      B: {adjacent: [A, C]}\n"
        "      C: {adjacent: [B]}\n",
        encoding="utf-8",
    )
    (tmp_path / "cards.yaml").write_text(
        "cards:\n  - {name: Piece, type: piece, size: 1}\n", encoding="utf-8"
    )
    (tmp_path / "r.madang").write_text(RULES, encoding="utf-8")
    prog = load_program(str(tmp_path))
    fixed = {a.name: a.dom_fixed for a in prog.actions}
    assert fixed == {"hop": [None, ("reach",)], "crowd": [None, None]}
    for seed in range(8):
        assert play_and_compare(prog, seed) > 0
