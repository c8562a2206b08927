"""The generated Python reads like the rules it came from (#33): names from the source, each
statement's place in the rules beside it, and no wrapping a reader has to see through."""

from __future__ import annotations

import re

from madang.game.api import load_program


def generated(ruleset: str, verb: str) -> str:
    """The generated function of a verb's body (every entry of its block runs it)."""
    prog = load_program(ruleset)
    (fn,) = {s.fn for s in prog.blocks[prog.verbs[verb].body]}
    return fn.generated


def _all_generated(prog):
    """The generated functions of every block of the program."""
    for block in prog.blocks:
        for s in block:
            fn = getattr(s, "fn", None)
            if getattr(fn, "generated", None):
                yield fn


def test_constants_are_named_after_what_they_are_in_the_rules():
    code = generated("clash_of_decks", "attack")
    assert "_behind_" in generated("clash_of_decks", "strike")  # a built-in by its name
    assert "_damage_tower_" in code  # a verb by its name
    assert not re.search(r"\b_k\d+\b", code)


def test_each_statement_names_its_line_in_the_rules():
    code = generated("clash_of_decks", "attack")
    assert re.search(r"  # rules\.madang:\d+$", code, re.M)


def test_a_condition_is_not_wrapped_and_an_over_test_is_not_repeated():
    code = generated("clash_of_decks", "attack")
    for line in code.splitlines():
        if line.lstrip().startswith(("if ", "elif ")):
            assert not line.lstrip().startswith(("if (True if", "elif (True if")), line
    assert not re.search(r"^( *)if st\.over: return\n\1if st\.over: return$", code, re.M)
    # `again = kills > 0 and c has K`: both sides are true or false, Python's `and` says so
    again = next(x for x in code.splitlines() if "rules.madang:92" in x)
    assert "True if" not in again and "(((" not in again
    assert "((st.counters['kills'] > 0) and (" in again


def test_a_require_or_trigger_condition_is_a_test_not_a_value():
    # only its truth counts: `not c.fresh or c has K` is Python's `or`, not True/False made
    prog = load_program("clash_of_decks")
    reqs = [s for s in prog.stmts if type(s).__name__ == "Require"]
    (req,) = [s for s in reqs if "'분노'" in s.cond.generated]  # attack's `not c.fresh or ...`
    assert req.cond.generated.splitlines()[-1].startswith("    return (not ")
    assert "True if" not in req.cond.generated
    # the verb's block tests it inline (build/resumable.py `leave`), as a test too
    test = next(x for x in generated("clash_of_decks", "attack").splitlines() if "'분노'" in x)
    assert test.lstrip().startswith("if not ((not ") and "True if" not in test


def test_the_game_s_end_is_tested_only_after_what_may_end_it():
    # a branch or loop returns from inside when a statement in it ended the game: no test of
    # its own after it; a call of a verb that never wins nor loses needs none either
    code = generated("clash_of_decks", "attack")
    assert "_dash_move_fn_" in code and "if st.over: return" not in code
    prog = load_program("clash_of_decks")
    everything = "\n".join(s.fn.generated for b in prog.blocks for s in b[:1] if hasattr(s, "fn"))
    for m in re.finditer(r"^( *)if st\.over: return$", everything, re.M):
        before = everything[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        assert "win_or_lose" in before or "_fn_" in before, before


def test_functions_are_named_after_their_block_and_jumps_go_straight():
    code = generated("clash_of_decks", "attack")
    assert code.startswith("def _attack_m")
    assert "_dash_move_args" in code  # a call's arguments named after the verb
    # (an entry at the first section runs it without the dispatch: `resumable.fresh_start`;
    # the sections' dispatch follows it)
    fresh, code = code.split("\n    while True:\n")
    assert "\n    if pc == 0:\n" in fresh
    # no jump lands on a section that only jumps on (a branch's end inside a loop's body), and
    # a section nothing goes to any more is dropped: the others are numbered 0, 1, 2, ...
    only_jumps = set(re.findall(r"if pc == (\d+):\n +pc = \d+\n +continue\n", code))
    targets = set(re.findall(r"^ +pc = (\d+)$", code, re.M))
    assert not only_jumps & targets
    heads = re.findall(r"^ +if pc == (\d+):$", code, re.M)
    assert heads == [str(k) for k in range(len(heads))]
    named = set(re.findall(r"^ +(?:fr\.)?pc = (\d+)$", code, re.M))
    # (a loop's body whose rounds run in Python in its head's section is kept, numbered as
    # before, though nothing falls into it any more: `resumable.branched`)
    rounds = re.findall(r"if pc == (\d+):\n(?:(?! +if pc == ).*\n)*? +while True:\n", code)
    pinned = {str(int(k) + 1) for k in rounds}
    assert pinned and set(heads[1:]) <= named | pinned | set(re.findall(r"fr\.pc != (\d+)", code))


def test_a_python_error_in_generated_code_names_the_place_in_the_rules(monkeypatch):
    # like Jinja's debug_info: each generated function maps its lines to the rules' lines, and
    # an error that is not the rules' own (here a helper made to fail) is noted with the line
    # of the statement that was running, which `madang` prints with the error
    from madang.build.codegen import rules_place
    from madang.game.api import new_game
    from madang.runtime import engine

    prog = load_program("clash_of_decks")
    fn = prog.blocks[prog.setup_block][0].fn
    assert fn.debug_info and all(isinstance(k, int) for k, _ in fn.debug_info)
    (l1, w1), (l2, _) = fn.debug_info[3:5]
    assert rules_place(fn, l1) == w1 and rules_place(fn, l2 - 1) == w1  # up to the next one

    def fail(*args):
        raise ValueError("a helper failed")

    monkeypatch.setattr(engine, "move_objects", fail)
    try:
        new_game(prog, seed=1)
    except ValueError as e:
        notes = e.__notes__
    else:  # pragma: no cover - the setup moves a card
        raise AssertionError("no error")
    text = (prog.folder / "formats.madang").read_text(encoding="utf-8").splitlines()
    (note,) = notes
    file, _, k = note.removeprefix("while running the rules at ").rpartition(":")
    assert file.endswith("clash_of_decks/formats.madang")
    assert text[int(k) - 1].strip().startswith("move ")  # the statement that moved


def test_a_python_error_in_a_section_the_run_loop_resumes_names_its_place(monkeypatch):
    # the run loop calls a block's sections itself (no `Section.exec` around each): an error
    # raised inside generated code during play is located by the run loop, once
    import random

    from madang.game.api import new_game
    from madang.runtime import engine

    prog = load_program("clash_of_decks")
    g = new_game(prog, seed=3, memory=False)

    def fail(*args):
        raise ValueError("a helper failed")

    monkeypatch.setattr(engine, "move_objects", fail)
    rng = random.Random(3)
    try:
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
    except ValueError as e:
        notes = e.__notes__
    else:  # pragma: no cover - a game of Clash of Decks moves cards
        raise AssertionError("no error")
    (note,) = notes
    file, _, k = note.removeprefix("while running the rules at ").rpartition(":")
    text = (prog.folder / file.rpartition("/")[2]).read_text(encoding="utf-8").splitlines()
    assert "clash_of_decks/" in file
    assert text[int(k) - 1].strip().startswith("move ")  # the statement that moved


def action_code(ruleset: str, action: str) -> str:
    prog = load_program(ruleset)
    act = next(a for a in prog.actions if a.name == action)
    return act.fast_enum.generated


def test_local_names_are_python_variables_written_through_to_the_env():
    """#34 step 1: a local read more than once is read from a Python variable, loaded from the
    frame's env when the function starts or a statement it ran may have written names; every
    write also goes to the env, so saves and clones see the same env as before. A name read
    once is read from the env where it is used (a variable would cost its load)."""
    code = generated("clash_of_decks", "attack")
    loads = [x for x in code.splitlines() if re.fullmatch(r" *_l\d+ = env\.get\('[^']*'\)", x)]
    assert any("env.get('c')" in x for x in loads)
    rest = "\n".join(x for x in code.splitlines() if x not in loads)
    assert "env.get('c')" not in rest and "env.get('foes')" not in rest
    assert re.search(r"env\['foes'\] = _l\d+ = ", code)  # written through
    # a name read once is read where it is used (a variable would cost its load)
    once = generated("clash_of_decks", "cast_spell")
    assert "'target': env.get('target')" in once and "_l1 = env.get('s')" in once


def test_a_property_or_keyword_of_a_name_is_read_without_a_helper():
    """#34 step 1: `c.attack`, `c has K` and `x > 0` of a name are written out, not a call
    of `_bprop`, `_has` or `_gt` each."""
    code = generated("clash_of_decks", "attack")
    assert not re.search(r"_bprop\(st, _l\d+,", code)
    assert not re.search(r"_has\(st, _l\d+,", code)
    assert not re.search(r"_gt\(_l\d+, 0\)", code)
    # `attack` is never written by the rules: the card's value, by card (Program.card_values)
    assert re.search(
        r"_card_attack_\d+\[st\.obj_card\[_l\d+\]\] if 'attack' not in st\.props", code
    )


def test_a_property_the_rules_write_is_read_and_written_in_its_slot():
    """#34 step 1, the state's layout: `bonus` (written by the rules) is a list by object in
    a slot of State.pv, read with no dictionary probe; a write also notes what saves hold."""
    prog = load_program("clash_of_decks")
    k = prog.prop_slots["bonus"]
    code = generated("clash_of_decks", "attack")
    assert f"st.pv[{k}][_l" in code
    assert "st.props.get('bonus', _NOD)" not in code
    writes = "\n".join(fn.generated for fn in _all_generated(prog) if "'bonus'" in fn.generated)
    assert f"st.own({k})" in writes and "st.props['bonus'] = {}" in writes


def test_a_verb_that_may_wait_is_entered_without_the_run_loop():
    """#34 step 2: the block of a called verb that may wait starts from the caller's function
    (its frameless copy, build/resumable.py `quick_variant`: no frame unless it waits, no
    Section step of the run loop), in two lines: the caller returns only when the callee
    waits or left frames."""
    code = generated("clash_of_decks", "attack")
    assert re.search(r"if _strike_q_\d+\[0\]\(st, _strike_args\d+, '[^']+:90:13'\):", code)
    assert "_E.call_verb(" not in code and "_call_from(" not in code


def test_an_enumerator_leaves_the_env_alone_when_nothing_reads_it():
    """The parameters of an action are Python variables of its enumerator: with no code
    reading them from the env, they are not written there for each option."""
    code = action_code("clash_of_decks", "cast")
    assert "env['s']" not in code and "env['target']" not in code
    assert "values.append([" in code


def test_counts_and_sums_of_zones_and_lists_are_plain_python():
    """#34 step 1: `count(p.hand)` is the zone's length, not a call of the built-in; `sum` is
    Python's; a property read over `objects(zone)` has no none test (they are objects)."""
    summon = action_code("clash_of_decks", "summon")
    assert "len(st.zones[(st.g.zone_base['hand'] + you_)])" in summon
    assert "_count_" not in summon
    prog = load_program("game_of_thrones_2p")
    code = next(c.cond.generated for c in prog.checks if "sum(" in c.cond.generated)
    assert "_sum_" not in code
    # a zone's objects only iterated are its own list, charged, not a copy; no helper counts
    # the players' list nor copies the list of a `where`
    assert "_each(st, st.zones[" in code and "list(st.zones[" not in code
    assert "_count_" not in code and "_objects_" not in code
    assert "_each(st, _players(st) if st.lost else range(st.g.nplayers))" in code
    assert not re.search(r"None if m\d+ is None", code)


def test_adjacent_areas_only_read_are_not_copied():
    """#34 step 1: `x in adjacent(a)` and `... where` over `adjacent(a)` read the map's own
    list; the built-in (a copy) is called only where the value is kept."""
    code = action_code("cthulhu_wars", "march_also")
    assert "in st.g.adjacency[" in code
    assert "_contains(st, it0, _adjacent" not in code


def test_flatten_of_zones_is_one_comprehension():
    """#34 step 1: `flatten(players.top + players.bottom)` is the objects of those zones in
    one list, each name's zones of the seats joined by `_chain` (h49g), one slice of the zones
    while nobody has lost (`SEAT_SLICES`): no `_plus`, no `_flatten`; membership in it is one
    call that reads the item's zone (`_in_seat_zones`: tests/test_in_seat_zones.py), with no
    list made."""
    code = generated("clash_of_decks", "end_of_turn")
    assert "_flatten_" not in code and "_plus(" not in code
    top = "st.g.zone_base['top']"
    assert f"[*_chain(st.zones[{top} : {top} + st.g.nplayers] if not st.lost" in code
    assert "for _fm0 in _players(st)])" in code  # the seats still playing once one has lost
    code = generated("clash_of_decks", "attack")
    assert re.search(r"_in_seat_zones\(st, _l\d+, \('top', 'bottom'\)\)", code)
    assert "_fo0" not in code


def test_a_text_of_the_rules_that_looks_like_a_variable_is_left_alone(tmp_path):
    """Names read once are rewritten to reads of the env after the code is written; a text
    literal holding the same characters as a variable stays as the rules wrote it."""
    from madang.game.api import new_game

    (tmp_path / "ruleset.yaml").write_text(
        "name: lit\ntitle: {en: Lit}\nplayers: 2\nfiles: [r.madang]\ncards: [cards.yaml]\n",
        encoding="utf-8",
    )
    (tmp_path / "cards.yaml").write_text("cards: []\n", encoding="utf-8")
    (tmp_path / "r.madang").write_text(
        'counter n = 0\n\nflow:\n    let a = 2\n    let s = "= _l0 = "\n'
        '    if s == "= " + "_" + "l0 = ":\n        n = a\n',
        encoding="utf-8",
    )
    g = new_game(str(tmp_path), seed=1)
    assert g.st.counters["n"] == 2  # the texts are equal as written
    prog = g.st.g.prog
    code = prog.blocks[prog.flow_block][0].fn.generated
    assert "'= _l0 = '" in code and "env.get('a')" in code


def test_korean_names_of_the_rules_name_the_code_and_a_loop_without_end_has_no_exit_test():
    prog = load_program("game_of_thrones_2p")
    code = prog.blocks[prog.flow_block][0].fn.generated
    assert re.search(r"\b_시작플레이어정하기_args\d+ = \{", code)  # a call's arguments, by its verb
    assert "if False:" not in code and "if not (True):" not in code  # the flow's endless loop
    assert re.search(r"def _\w+_m\d+\(", prog.blocks[prog.verbs["뽑기"].body][0].fn.generated)


def test_comparisons_of_values_never_none_need_no_helper():
    """#34 step 1: a counter compared with a number (an inlined definition's literal argument)
    is Python's comparison; a property laid out by object is read twice with its none test
    written out rather than passed to `_lt`."""
    gate = action_code("cthulhu_wars", "build_gate")
    assert re.search(r"\(st\.pcounters\['power'\]\[you_\] >= \d+\)", gate)
    assert "_ge(st.pcounters" not in gate
    k = load_program("cthulhu_wars").prop_slots["mv"]
    march = action_code("cthulhu_wars", "march_also")
    # (the property's row and the counter read once a listing: enumerators.ROW_LOCALS)
    assert f"lv1_ = st.pv[{k}]" in march and "lv0_ = st.counters['stamp']" in march
    assert "(lv1_[it0] is not None and lv1_[it0] < lv0_)" in march


def test_a_list_known_from_the_rules_is_charged_without_type_tests():
    """#34: a comprehension over a zone's objects, `adjacent(a)` or `areas` charges the budget
    with `_each` (no test of what the value is) and iterates the zone's own list, `areas` as a
    range; `exists(first(OBJECTS where C))` lists the matches when testing them all charges
    nothing more (the same charge as the generator, which stops at the first)."""
    code = action_code("cthulhu_wars", "march_also")
    # an area's units: the movers' names a loop over the zone, charged as `_each` charges it
    # (tests/test_enumerator_domain_loops.py), going on from the area's test
    # (tests/test_enumerator_one_scan.py), one loop over the zone where the seat's counts
    # say the area's test finds an object (tests/test_owned_areas.py); capture's below keeps
    # the comprehension
    assert "for it0 in _each(st, zg0_) if" not in code and "for it0 in zg0_:" in code
    assert "_each(st, st.g.adjacency[" in code
    assert "_each(st, range(len(st.g.areas)))" in code
    assert "_seq(" not in code
    assert "next((it0" not in code
    code = action_code("cthulhu_wars", "capture")
    assert "([it0 for it0 in _each(st, zg0_) if (own_[it0] == you_) and" in code
    assert "] if (zg0_ := st.zones[(zb0_ + v0)]) else []) != [])" in code
    assert "next((it0" not in code


def test_exists_keeps_the_generator_where_testing_an_object_charges(tmp_path):
    """A test that calls a definition or a built-in that charges (or draws at random) is run
    only up to the first match, as before: `exists` stays a generator there."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: ex\ntitle: {en: Ex}\nplayers: 2\nfiles: [r.madang]\ncards: [cards.yaml]\n",
        encoding="utf-8",
    )
    (tmp_path / "cards.yaml").write_text(
        "cards: [{name: A, type: unit, power: 1}]\n", encoding="utf-8"
    )
    (tmp_path / "r.madang").write_text(
        "kind unit:\n    power: number\nzone hand: per player, ordered, owner sees\n"
        "counter n = 0\ncounter m = 0\n"
        "define big(x: card) = x.power > 0 and big(x)\n\n"  # called, never inlined
        'flow:\n    create "A" in first(players).hand\n'
        "    if exists(first(first(players).hand where big(it))):\n        n = 1\n"
        "    if exists(first(first(players).hand where it.power > 0)):\n        m = 1\n"
        "    if exists(first(first(players).hand where count(range(it.power)) > 0)):\n"
        "        m = 2\n",
        encoding="utf-8",
    )
    prog = load_program(str(tmp_path))
    code = prog.blocks[prog.flow_block][0].fn.generated
    # the tests that call `big` or `range` (a built-in that charges) stay generators
    assert code.count("(next((it0 for it0 in _each(st, st.zones[") == 2
    assert code.count("] != [])") == 1  # `it.power > 0` charges nothing


def test_a_definition_whose_argument_is_a_read_of_a_table_is_written_inline():
    """#34: `lane_no(z) = index_of(lanes(z.owner), z)`: `z.owner` of a zone is a read of the
    game's table, cheaper at each use than a call with an environment, so `lanes` is inline."""
    code = action_code("nivel_arena", "배치")
    assert "_lanes_" not in code
    assert "st.g.zone_info[v1][1]" in code
