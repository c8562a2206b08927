"""Issue #34: an enumerator's per-binding overheads. A domain kept per game (`Game.domains`) is
found in two steps (`enumerators.KEPT_ROWS`): the listing's row (the action, the parameter,
`you`, the counters' values) once per listing, when first needed, then the domain by the names'
values; and `this` is read as the enumerator's `src` (`enumerators.THIS_SRC`), so an enumerator
that passes `this` on to a definition writes no parameter into the env. The options, the
states and the work charged are those of before at every decision."""

from __future__ import annotations

import random
import re

import pytest
from madang.build import codegen, enumerators
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, decisions, enumerator_code, offers

RULESETS = ["cthulhu_wars", "clash_of_decks", "nivel_arena", "game_of_thrones_2p"]


def test_a_moves_destinations_are_found_by_the_listings_row_then_the_area():
    prog = load_program("cthulhu_wars")
    code = enumerator_code(prog, "march_also")
    assert "kk2 = None" in code.split("for v0 in d0:")[0]  # reset once per listing
    row = "kk2 = st.g.domains.setdefault((4, 2, you_, tuple(st.pcounters['fid'])), {})"
    assert row in code and "d2 = kk2.get(v0)" in code
    assert code.index("if kk2 is None:") < code.index(row) < code.index("d2 = kk2.get(v0)")
    g = new_game(prog, seed=3, memory=False)
    rng = random.Random(3)
    rows: list = []
    while not g.st.over and not rows:
        g.apply_action(rng.randrange(len(g.st.pending.values)))
        rows = [k for k in g.st.g.domains if isinstance(k, tuple) and k[:2] == (4, 2)]
    assert rows and all(isinstance(g.st.g.domains[k], dict) for k in rows)
    by_area = g.st.g.domains[rows[0]]
    assert by_area and all(isinstance(a, int) and isinstance(v, list) for a, v in by_area.items())


@pytest.mark.parametrize("switch", ["KEPT_ROWS", "THIS_SRC"])
def test_the_bundled_rulesets_play_as_before_with_and_without(switch, monkeypatch):
    for name in RULESETS:
        on = compiled_with(name, enumerators, switch, True, monkeypatch)
        off = compiled_with(name, enumerators, switch, False, monkeypatch)
        for seed in range(2):  # the digest and the work charged at every decision
            assert decisions(on, seed, 250) == decisions(off, seed, 250), f"{name} {seed}"


_ENV_WRITE = re.compile(r"env\[[^\]]*\] = ")  # (`you` is read as `env['you']`)


def test_battle_passes_src_as_this_and_writes_nothing_into_the_env(monkeypatch):
    on = enumerator_code(load_program("cthulhu_wars"), "battle")
    assert "_power_of_args_" in on and not _ENV_WRITE.search(on) and "env.pop" not in on
    # (the definition called with its arguments in order takes no `this`: codegen.DEF_ARGS;
    # called with an env, it is given the enumerator's src)
    monkeypatch.setattr(codegen, "DEF_ARGS", False)
    on = enumerator_code(
        compiled_with("cthulhu_wars", enumerators, "THIS_SRC", True, monkeypatch), "battle"
    )
    off = enumerator_code(
        compiled_with("cthulhu_wars", enumerators, "THIS_SRC", False, monkeypatch), "battle"
    )
    assert "'this': src" in on and not _ENV_WRITE.search(on) and "env.pop" not in on
    assert "'this': env.get('this')" in off and "env['a'] = v0" in off


RULES = """\
zone hand: per player, ordered, owner sees
zone field: per player, ordered, public, active
zone table: per player, public
counter reach = 1
counter bonus: per player = 0

kind gem:
    size: number

define heavy(c: card, q: player) = c.size + count(q.table) > reach

setup:
    for p in players:
        create "Small" in p.field
        create "Big" in p.field
        repeat 6 times:
            create "Chip" in p.hand

flow:
    repeat 10 times:
        for p in players:
            turn p:
                window act by p once
"""
# each gem's own action reads `this` (its source) through a definition, and its second
# domain is kept per game under a counter's row (`bonus`) and the first parameter
ACTION = """\
      action NAME(q: player from players, k: number from range(1, q.bonus + 2)) in act:
          require heavy(this, q) and k > count(q.table) - 2
          q.bonus = (q.bonus + k) % 3
          reach = (reach + k) % 4 + 1
          if count(you.hand) > 0:
              move first(you.hand) to q.table
"""
CARDS = (
    "cards:\n  - {name: Chip, type: gem, size: 0}\n"
    + "  - name: Small\n    type: gem\n    size: 1\n    text: |\n"
    + ACTION.replace("NAME", "place")
    + "  - name: Big\n    type: gem\n    size: 3\n    text: |\n"
    + ACTION.replace("NAME", "place_big")
)


def test_a_cards_action_reading_this_offers_what_it_offered(tmp_path, monkeypatch):
    """Each gem's own action reads `this` (its source) in a definition, per player and number:
    the same options with `this` read as `src` and from the env, and with the kept domains
    found by row or by the whole key; listings of several lengths."""
    folder = write_ruleset(tmp_path, RULES, CARDS, name="gems")
    base = compiled_with(folder, enumerators, "THIS_SRC", False, monkeypatch)
    assert "env.get('this')" in enumerator_code(base, "place")
    assert "env.get('this')" not in enumerator_code(load_program(folder), "place")
    for switch in ("THIS_SRC", "KEPT_ROWS"):
        on = compiled_with(folder, enumerators, switch, True, monkeypatch)
        off = compiled_with(folder, enumerators, switch, False, monkeypatch)
        sizes = set()
        for seed in range(10):
            a, b = offers(on, seed), offers(off, seed)
            assert a == b, f"{switch} {seed}"
            sizes |= {opts.count("], ") for _, opts in a}
        assert len(sizes) > 2  # listings of different lengths: the tests decide some


def test_summons_areas_are_made_first_and_end_an_empty_listing(monkeypatch):
    """Summon's areas (a gate the player controls: the listing's own filtered domain) are made
    before the monsters' names and their costs, and a listing without one ends there; the
    options and states are those of before at every decision (the work charged is less)."""
    on = load_program("cthulhu_wars")
    code = enumerator_code(on, "summon")
    assert code.index("if not h1: return") < code.index("for v0 in d0:")
    off = compiled_with("cthulhu_wars", enumerators, "EMPTY_FIRST", False, monkeypatch)
    assert "if not h1: return" not in enumerator_code(off, "summon")
    for seed in range(3):
        assert offers(on, seed) == offers(off, seed), f"seed {seed}"
    gots = compiled_with("game_of_thrones_2p", enumerators, "EMPTY_FIRST", False, monkeypatch)
    for seed in range(2):
        assert offers(load_program("game_of_thrones_2p"), seed) == offers(gots, seed)


EARLY = """\
zone hand: per player, ordered, owner sees
zone field: per player, ordered, public
counter n = 0

kind gem:
    size: number

define fits(c: card, u: card) = c.size <= u.size

action fit(c: card from you.hand, u: card from you.field) in act:
    require c.size RISK> 0 and u.size > 1 and fits(c, u)
    move c to you.field
    n += 1

action take_back(u: card from you.field) in act:
    require u.size < 3
    move u to you.hand

action rest in act:
    n += 1

setup:
    for p in players:
        create "Small" in p.hand
        create "Mid" in p.field
        create "Big" in p.hand

flow:
    repeat 12 times:
        for p in players:
            turn p:
                window act by p once
"""
GEMS = (
    "cards:\n  - {name: Small, type: gem, size: 1}\n  - {name: Mid, type: gem, size: 2}\n"
    "  - {name: Big, type: gem, size: 3}\n"
)


def test_a_kept_domain_empty_in_some_listings_ends_them_only_after_pure_loops(
    tmp_path, monkeypatch
):
    """The field's gems above size 1 are made before the hand's loop (whose test is pure) and
    end the listing when there are none; with a `%` in the hand's test (which may raise) they
    are not; the same options both ways in every seeded game, both cases met."""
    (tmp_path / "a").mkdir()
    pure = write_ruleset(tmp_path / "a", EARLY.replace("RISK", ""), GEMS, name="early")
    on = load_program(pure)
    off = compiled_with(pure, enumerators, "EMPTY_FIRST", False, monkeypatch)
    code = enumerator_code(on, "fit")
    assert code.index("if not h1: return") < code.index("for v0 in d0:")
    empty = full = 0
    for seed in range(10):
        a = offers(on, seed)
        assert a == offers(off, seed), f"seed {seed}"
        empty += sum("[0, [" not in opts for _, opts in a)
        full += sum("[0, [" in opts for _, opts in a)
    assert empty and full
    (tmp_path / "b").mkdir()
    risky = write_ruleset(tmp_path / "b", EARLY.replace("RISK", "% (n + 1) "), GEMS, name="risky")
    assert "if not h1: return" not in enumerator_code(load_program(risky), "fit")
