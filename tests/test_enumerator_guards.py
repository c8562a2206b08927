"""Issue #34: an action's enumerator tests the zone of a `where` in its tests and domains for
emptiness before going through it (`([...] if (zg0_ := st.zones[z]) else [])`: an empty zone
charges nothing, so nothing but the comprehension's frame is saved); a test that starts with
whether an object of a zone matches charges the zone and goes through it in statements, to the
first match (no list, no comprehension's frame); and the base index of a zone read with a
loop's value is read once (`zb0_ = st.g.zone_base[...]`). The bundled games, played with and
without them, are the same states with the same work charged at every decision, and a zone
too long for the budget ends the game with the same error."""

from __future__ import annotations

import re

import pytest
from madang.build import enumerators
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime.errors import RulesError
from minirules import write_ruleset
from playthrough import compiled_with, decisions, enumerator_code


def _unguarded(name: str, monkeypatch):
    return compiled_with(name, enumerators, "GUARD_EMPTY", False, monkeypatch)


def test_a_units_test_per_area_reads_the_zone_once_and_stops_at_a_match():
    prog = load_program("cthulhu_wars")
    code = enumerator_code(prog, "battle")
    assert "zb0_ = st.g.zone_base['units']" in code
    assert code.count("st.g.zone_base") == 1  # read once, before the loops
    assert "zg0_ = st.zones[(zb0_ + v0)]" in code
    # `has_units(you, a)`, the test's first part: the area's units (read with the area:
    # AREA_ZONES) an empty zone passed over, then gone through to the first unit of the player
    # (no list, no frame), charged where it has none (SCAN_CHARGES)
    assert (
        "for v0, zg0_ in enumerate(st.zones[st.g.zone_base['units'] : "
        "st.g.zone_base['units'] + len(d0)]):\n"
        "        if not zg0_: continue\n"
        "        zi_ = iter(zg0_)\n"
        "        for it0 in zi_:\n"
        "            if (own_[it0] == you_): break\n"
        "        else:\n"
        "            st.work += len(zg0_)\n"
        "            if st.work > st.work_limit: _charge(st, 0, 'a list')\n"
        "            continue\n"
    ) in enumerator_code(prog, "march_also")
    # the movers' names: the same zone, known not empty, gone on from there (SCAN_DOMAINS),
    # charged with the test's charge where it found a unit (SCAN_CHARGES), after it
    # (SCAN_ONE_CHARGE: tests/test_joined_charges.py)
    code = enumerator_code(prog, "march_also")
    assert "h2 = None\n        d1 = []\n" in code
    assert "        st.work += len(zg0_) * 2 + nu_ + len(d1)\n" in code


@pytest.mark.parametrize(
    "name", ["cthulhu_wars", "game_of_thrones_2p", "nivel_arena", "clash_of_decks"]
)
def test_guarded_enumerators_play_the_games_the_general_ones_play(name, monkeypatch):
    guarded, general = load_program(name), _unguarded(name, monkeypatch)
    assert " := st.zones[" not in "".join(a.fast_enum.generated for a in general.actions)
    for seed in range(3):
        assert decisions(guarded, seed) == decisions(general, seed), f"seed {seed}"


NESTED = """\
zone hand: per player, ordered, owner sees
counter turns = 0

kind piece:
    size: number

action nested(c: card from you.hand) in act:
    require exists(first((you.hand where it.size > 1) where it.size < c.size + 2))
    turns += 1

setup:
    for p in players:
        create "Small" in p.hand
        create "Big" in p.hand

flow:
    repeat 2 times:
        for p in players:
            turn p:
                window act by p once
"""


def test_a_where_inside_the_items_of_another_is_written_without_its_guard(tmp_path):
    """Python refuses an assignment expression in a comprehension's items: there the inner
    `where` goes through its zone as before, and the options are still listed."""
    cards = (
        "cards:\n  - {name: Small, type: piece, size: 1}\n  - {name: Big, type: piece, size: 3}\n"
    )
    prog = load_program(write_ruleset(tmp_path, NESTED, cards, name="nested"))
    code = enumerator_code(prog, "nested")
    assert ":= st.zones[" not in code and "_each(st, st.zones[" in code
    g = new_game(prog, seed=0, memory=False)
    hand = g.st.zones[g.st.g.zone_base["hand"] + g.st.pending.player]
    # the Big piece (size 3) is in the hand: it matches for c = Small (3 < 3) no, c = Big yes
    assert [v[1] for v in g.st.pending.values if v[0] == 0] == [[hand[1]]]


BIG = """\
zone pile: per player, ordered, owner sees
counter n = 0

kind piece:
    size: number

action look(p: player from players) in act:
    require exists(first(p.pile where it.size > 5))
    n += 1

setup:
    for p in players:
        repeat 1500 times:
            create "Small" in p.pile

flow:
    for p in players:
        turn p:
            window act by p once
"""


def test_a_zone_too_long_for_the_budget_ends_the_listing_as_before(tmp_path, monkeypatch):
    """Both players' piles charged in the listing pass the budget of 3,500 steps: the
    statements that charge a zone before going through it raise the error the comprehension's
    charge raised, at the same zone."""
    folder = write_ruleset(tmp_path, BIG, "cards:\n  - {name: Small, type: piece, size: 1}\n")
    extra = "settings: {max_steps: 3500}\n"
    (tmp_path / "ruleset.yaml").write_text((tmp_path / "ruleset.yaml").read_text() + extra)
    seen = []
    for guard in (True, False):
        monkeypatch.setattr(enumerators, "GUARD_EMPTY", guard)
        prog = api._load_cached.__wrapped__(folder, ())
        assert ("for it0 in zg0_:" in enumerator_code(prog, "look")) is guard
        with pytest.raises(RulesError, match="a list: more than 3,500 steps of work") as err:
            new_game(prog, seed=0, memory=False)
        tb, places = err.value.__traceback__, []
        while tb is not None:
            places.append(tb.tb_frame.f_code.co_filename)
            tb = tb.tb_next
        seen.append(str(err.value))
        assert "<madang action look>" in places  # raised while listing, not in the setup
    assert seen[0] == seen[1]


PARTS = """\
zone pile: per player, ordered, owner sees
zone bin: shared, ordered, public
counter n = 0

kind piece:
    size: number

action none_big(p: player from players) in act:
    require p != you and not exists(first(p.pile where it.size > 2))
    n += 1

action mid(p: player from players) in act:
    require (p == you or n > 99) and exists(first(p.pile where it.size > 2)) and p == you
    move first(p.pile) to bin

action give(p: player from players) in act:
    require exists(first(you.pile where it.size > 0)) and p != you
    move last(you.pile) to p.pile

setup:
    for p in players:
        create "Small" in p.pile
        create "Big" in p.pile
        create "Big" in p.pile

flow:
    repeat 12 times:
        for p in players:
            turn p:
                window act by p once
"""


def test_a_test_split_at_its_zone_parts_lists_what_the_whole_test_listed(tmp_path, monkeypatch):
    """A zone's part in the middle of a test, and one under `not`, written as statements between
    the runs of the other parts: the same options, states and work at every decision of seeded
    games as the whole test in one `if`."""
    cards = (
        "cards:\n  - {name: Small, type: piece, size: 1}\n  - {name: Big, type: piece, size: 3}\n"
    )
    folder = write_ruleset(tmp_path, PARTS, cards, name="parts")
    split = api._load_cached.__wrapped__(folder, ())
    code = {a.name: a.fast_enum.generated for a in split.actions}
    assert "for it0 in zg0_:" in code["none_big"] and "zg0_ = ()" in code["none_big"]
    assert re.search(r"if not \(\(\(v0 == you_\) or .*\): continue\n +zg0_ = ", code["mid"])
    monkeypatch.setattr(enumerators, "GUARD_EMPTY", False)
    whole = api._load_cached.__wrapped__(folder, ())
    assert all("zg0_" not in a.fast_enum.generated for a in whole.actions)
    for seed in range(12):
        assert decisions(split, seed) == decisions(whole, seed), f"seed {seed}"
