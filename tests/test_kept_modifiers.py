"""The compiled read of a modified property (effects.prop_reader, written by codegen for `x.P`)
gives what the general read gives (`Program._read_prop`), also when it keeps what the continuous
modifiers give each object until a zone or a property they read changes (Compiler.kept_statics;
issue #34 step 4). Under the tests every compiled read is compared with the general one too
(Program.verify_checks, set by conftest.py)."""

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime.effects import _MISSING, _NONE


def test_the_properties_whose_modifiers_are_kept():
    """Kept: the properties modified only by cards whose modifiers read zones, properties,
    counters, owners, the turn's scope, players out and keywords (Game of Thrones' strength:
    a modifier reads `opponents`, another `it has 잠행`)."""
    got = load_program("game_of_thrones_2p")
    assert got.kept_props == {"군사", "권력", "힘"} and "prop:부착대상" in got.kept_reads
    nivel = load_program("nivel_arena")
    assert nivel.kept_props == {"파워", "사이즈보정", "히트"}
    assert {"scope", "counter:레벨", "grants", "prop:awakened"} <= nivel.kept_reads
    assert nivel.static_read_props == {"awakened"}
    assert not load_program("clash_of_decks").kept_props


def _compare_all(prog, st) -> int:
    """Every object's modified properties, compiled read against the general one."""
    n = 0
    for name in sorted(prog.modified_props):
        read = prog.prop_reader(name)
        for o in range(len(st.obj_card)):
            if st.obj_zone[o] >= 0:
                assert read(st, o) == prog._read_prop(st, o, name), (name, o)
                n += prop_hit(prog, st, o, name)
    return n


def prop_hit(prog, st, o, name) -> int:
    """1 when a continuous modifier changes `o`'s `name` now."""
    return int(prog._statics_on(st, o, name)[1])


@pytest.mark.parametrize("name", ["game_of_thrones_2p", "nivel_arena"])
def test_compiled_reads_are_the_general_ones_in_random_games(name):
    """At every decision of random games (with clones), each object's modified properties read
    the compiled way (kept totals included) equal the general read: a write of what the
    modifiers read that did not forget the kept totals would show here."""
    prog = load_program(name)
    hits = 0
    for seed in range(4):
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            hits += _compare_all(prog, g.st)
            g.apply_action(rng.randrange(len(g.st.pending.values)))
            if rng.random() < 0.2:
                g = g.clone()
    assert hits > 0  # some modifier was in force: the kept path was exercised with values


def test_a_write_of_what_modifiers_read_forgets_the_kept_totals():
    """Game of Thrones: an attachment's `-1 military` follows its `부착대상` when that is
    written (State.set_prop, as a scenario's edit): the kept total is forgotten."""
    prog = load_program("game_of_thrones_2p")
    read = prog.prop_reader("군사")
    for seed in range(40):
        g = new_game(prog, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        while not st.over:
            hit = [
                o
                for o in range(len(st.obj_card))
                if st.obj_zone[o] >= 0 and prop_hit(prog, st, o, "군사")
            ]
            if hit:
                break
            g.apply_action(rng.randrange(len(st.pending.values)))
        else:
            continue
        (o,) = hit[:1]
        kept = read(st, o)  # kept: one less than its base
        assert kept == prog.base_prop(st, o, "군사") - 1
        srcs = [x for x in range(len(st.obj_card)) if prog.base_prop(st, x, "부착대상") == o]
        for x in srcs:
            st.set_prop(x, "부착대상", None)
        assert read(st, o) == prog.base_prop(st, o, "군사")
        return
    pytest.fail("no attachment took military in 40 random games")


def test_the_generated_writes_of_what_modifiers_read_forget_the_kept_totals():
    """The generated code forgets the kept totals right after a write of `부착대상` (which the
    attachments' modifiers read), and not after a write of what no modifier reads."""
    from madang.tools.listing import show

    code = show(load_program("game_of_thrones_2p"), "부착물플레이")
    lines = code.splitlines()
    # (the write twice: in the block's entry at its first section and in its sections'
    # dispatch, build/resumable.py `fresh_start`)
    ats = [i for i, ln in enumerate(lines) if "st.props.get('부착대상')" in ln]
    assert len(ats) == 2
    for at in ats:
        after = next(ln for ln in lines[at + 1 :] if "st.kt" in ln or "st.props.get(" in ln)
        assert "st.kt = None" in after
    kneel = show(load_program("game_of_thrones_2p"), "떠남정리")
    # 부착대상 x2, each also in its loop's rounds written as a Python loop (LOOP_ROUNDS), in
    # the sections' dispatch (after the entry at the first section: `fresh_start`)
    dispatch = kneel[kneel.index("\n            while True:\n") :]
    assert "st.props.get('누움')" in kneel and dispatch.count("st.kt = None") == 4


def test_moves_forget_the_kept_totals_only_where_they_read():
    """Nivel Arena: a card that is no modifier's source dealt from the deck to the damage zone
    (an active zone no modifier reads by name) keeps the kept totals; the same move of a
    source's card, or a move into a lane, forgets them."""
    from madang.runtime import engine as E
    from madang.runtime.inputs import kept_totals

    prog = load_program("nivel_arena")
    g = new_game(prog, seed=3, memory=False)
    st = g.st
    zi = st.g.zone_info
    (_, _, _, _, sources) = kept_totals(st)
    deck = next(z for z, (n, _) in enumerate(zi) if n == "deck" and st.zones[z])
    damage = next(z for z, (n, p) in enumerate(zi) if n == "damage_zone" and p == zi[deck][1])
    lane = next(z for z, (n, p) in enumerate(zi) if n == "lane1" and p == zi[deck][1])
    plain = next(o for o in st.zones[deck] if st.obj_card[o] not in sources)
    source = next(o for o in st.zones[deck] if st.obj_card[o] in sources)
    kt = st.kt = kept_totals(st)
    E.move_object(st, plain, damage, "back")
    assert st.kt is kt
    E.move_object(st, source, damage, "back")
    assert st.kt is None
    assert kept_totals(st) is st.kt
    E.move_object(st, plain, lane, "back")
    assert st.kt is None


def _sums_are_each_objects(prog, st, op) -> int:
    """The totals added up card by card (`_sum_by_card`) against each object's own
    `_statics_on`, for every property modified only by cards' continuous modifiers; how many
    objects a value set (`op` "set") or an amount added (else) was found for."""
    n = 0
    for name in sorted(prog.kept_props):
        if prog.statics_shared[name]:
            continue
        sums = prog._sum_by_card(st, name, {})
        for o in range(len(st.obj_card)):
            if st.obj_zone[o] >= 0:
                got = sums.get(o, _NONE)
                assert got == prog._statics_on(st, o, name), (name, o)
                n += got[0] is not _MISSING if op == "set" else got[1]
    return n


@pytest.mark.parametrize(("op", "first"), [("add", 0), ("set", 0), ("set", 1)])
def test_totals_added_up_by_card_are_each_objects(op, first):
    """What the continuous modifiers give each object, added up as the effects are met (no
    map of hits), is what each object's own read finds: sums, and the latest `to` value
    winning over the adds, met before or after it (the bundled rulesets have no `to` effect:
    every other one of power's is made one here)."""
    prog = load_program("nivel_arena")
    flipped = [sa for sas in prog.statics_by_card["파워"].values() for sa in sas][first::2]
    before = [sa.op for sa in flipped]
    try:
        for sa in flipped:
            sa.op = op
        prog.index_statics()  # (`card_sums` holds each modifier's op, unpacked once)
        hits = 0
        for seed in range(3):
            g = new_game(prog, seed=seed, memory=False)
            rng = random.Random(seed)
            while not g.st.over:
                hits += _sums_are_each_objects(prog, g.st, op)
                g.apply_action(rng.randrange(len(g.st.pending.values)))
        assert hits > 0
    finally:
        for sa, was in zip(flipped, before):
            sa.op = was
        prog.index_statics()


def test_the_objects_present_of_modifiers_cards_are_kept_across_other_moves():
    """Nivel Arena (State.kp, effects._present): a unit without a modifier of a property moved
    into a lane keeps the objects present of the modifiers' cards as they were; a modifier
    card's object moved into a lane is written into them in place (engine.modifiers_moved);
    a removal, a shuffled zone and a clone forget them; each time the kept objects equal those
    found afresh (a move that wrote them wrong, or not at all, would show)."""
    from madang.runtime import engine as E

    prog = load_program("nivel_arena")
    g = new_game(prog, seed=3, memory=False)
    st = g.st
    zi = st.g.zone_info
    cards = prog.static_cards["파워"]
    deck = next(z for z, (n, _) in enumerate(zi) if n == "deck" and st.zones[z])
    lane = next(z for z, (n, p) in enumerate(zi) if n == "lane2" and p == zi[deck][1])
    plain = next(o for o in st.zones[deck] if st.obj_card[o] not in prog.kp_cards)
    sources = [o for o in st.zones[deck] if st.obj_card[o] in cards]

    def present():
        got = prog._present(st, cards)
        assert got == prog._find_present(st, cards)
        return got

    before = present()
    kp = st.kp
    assert kp is not None and id(cards) in kp[1]
    E.move_object(st, plain, lane, "back")
    assert st.kp is kp and present() == before  # not a source: kept
    E.move_object(st, sources[0], lane, "back")
    assert st.kp is kp and kp[1][id(cards)] is before  # written in place, not found again
    after = present()
    assert sources[0] in after[st.obj_card[sources[0]]]
    for o in sources[1:3]:  # to the front and the back of the lane, then back to the deck
        E.move_object(st, o, lane, "front")
        assert st.kp is kp and o in present()[st.obj_card[o]]
    E.move_object(st, sources[1], deck, "back")
    assert st.kp is kp and sources[1] not in present().get(st.obj_card[sources[1]], ())
    E.remove_objects(st, sources[0])
    assert st.kp is None and sources[0] not in sum(present().values(), [])
    E.shuffle_zone(st, deck)
    assert st.kp is None
    present()
    assert g.clone().st.kp is None
