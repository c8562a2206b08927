"""State checks run only when something they read may have changed (build/depends.py;
docs/language.md 11.8): the same games as evaluating every check after every statement."""

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from minirules import write_ruleset

RULES = """\
kind token:
    power: number
    tapped: bool
    shine: number

zone box: shared, public

counter removed = 0
counter unrelated = 0
counter evaluated = 0

# a continuous effect: a tapped token has 5 less power
modify (contents(box) where it.tapped).power by -5

check weak for t in contents(box) if t.power <= 0:
    remove t
    removed += 1

flow:
    create "T" in box
    unrelated += 1
    first(box).shine = 3
    first(box).tapped = true
    unrelated += 1
"""


@pytest.fixture
def ruleset(tmp_path):
    return token_ruleset(tmp_path, RULES, "power: 2, tapped: false, shine: 0")


def flow_masks(monkeypatch, folder: str, rules: str):
    """The ruleset's one check's bit, and a function giving the part of it in the mask of the
    flow's statement written as a line of `rules`: the ruleset is compiled here (a folder of
    its own is not taken from the cache) and its compiler kept."""
    from madang.build import compiler as C

    seen = []
    compile_ = C.Compiler.compile
    monkeypatch.setattr(C.Compiler, "compile", lambda self: seen.append(self) or compile_(self))
    load_program(folder)
    (comp,) = seen
    (bit,) = [c.bit for c in comp.p.checks]
    flow = {s.span.line: s for b in comp.s.flow for s in b.body}
    lines = rules.splitlines()
    return (lambda text: comp.dirty_mask(flow[lines.index(text) + 1]) & bit), bit


def test_a_statement_marks_only_the_checks_whose_reads_it_may_change(ruleset, monkeypatch):
    mask, bit = flow_masks(monkeypatch, ruleset, RULES)
    assert mask("    unrelated += 1") == 0  # a counter the check does not read
    assert mask("    first(box).shine = 3") == 0  # a field neither it nor the effect reads
    # the check reads power, which the continuous effect changes according to `tapped`
    assert mask("    first(box).tapped = true") == bit
    assert mask('    create "T" in box') == bit  # objects came and went


def test_a_change_read_through_a_continuous_effect_fires_the_check(ruleset):
    # 11.8: after the statement that taps the token its power is -3: the check removes it
    g = new_game(ruleset, {}, seed=1)
    assert g.st.counters["removed"] == 1
    assert g.st.zones[g.st.g.zone_base["box"]] == []


def test_checks_are_evaluated_less_often_than_after_every_statement(ruleset, monkeypatch):
    calls = []
    fire = E.Check.fire
    monkeypatch.setattr(E.Check, "fire", lambda self, st: calls.append(1) or fire(self, st))
    new_game(ruleset, {}, seed=1)
    # Five statements of the flow change the state (the check's own block runs unchecked). The
    # check is due after `create` (objects came), after `tapped = true` (it fires: the token
    # goes) and once more after the next change, as a check that fired is; not after `shine`
    # nor the first `unrelated += 1`.
    assert len(calls) == 3


@pytest.mark.parametrize("name", ["nivel_arena", "game_of_thrones_2p"])
def test_no_check_that_was_not_due_would_have_fired(name):
    # Every check that is skipped is evaluated anyway (Program.verify_checks, set for the whole
    # suite by conftest.py, so the scenarios prove it too) and must be false: the read and write
    # sets miss nothing on the bundled rulesets' random games.
    assert load_program(name).verify_checks
    for seed in range(3):
        g = new_game(name, seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal():
            g.apply_action(rng.randrange(len(g.legal_actions())))


def token_ruleset(folder, rules: str, token: str) -> str:
    """A two-player ruleset of `rules` with one card, a token `T` of fields `token`."""
    return write_ruleset(folder, rules, f"cards:\n  - {{name: T, type: token, {token}}}\n")


ZONED = """\
kind token:
    power: number

zone box: shared, public
zone pile: shared, public
zone heap: shared, public

check weak if count(box where it.power <= 0) > 0:
    move first(box where it.power <= 0) to pile

flow:
    create "T" in pile
    shuffle pile
    create "T" in box
    shuffle box
    move first(pile) to heap
    move first(pile) to box
"""


def test_a_new_object_or_a_shuffle_marks_only_the_checks_that_read_its_zone(tmp_path, monkeypatch):
    # depends.mark_reads: a check whose zones are known by name (`box`) is not due after a card
    # is made in, or the order changed of, another zone (`pile`), nor after a move between two
    # zones named that it does not read
    folder = token_ruleset(tmp_path, ZONED, "power: 0")
    mask, bit = flow_masks(monkeypatch, folder, ZONED)
    assert mask('    create "T" in pile') == 0
    assert mask("    shuffle pile") == 0
    assert mask('    create "T" in box') == bit
    assert mask("    shuffle box") == bit
    assert mask("    move first(pile) to heap") == 0
    assert mask("    move first(pile) to box") == bit
    g = new_game(folder, {}, seed=1)  # a token in the box is moved out at once
    assert [len(g.st.zones[g.st.g.zone_base[z]]) for z in ("box", "pile", "heap")] == [0, 1, 1]


# a check over the tokens in the box that moves each marked one to the pile
BOX_CHECK = """\
kind token:
    power: number
    marked: bool

zone box: shared, public
zone pile: shared, public

counter removed = 0

check weak for t in contents(box) if t.marked:
    move t to pile
    removed += 1

flow:
"""

DOMAIN = (
    BOX_CHECK
    + """\
    create "T" in box
    create "T" in pile
    first(box).marked = false
    create "T" in pile
    first(box).marked = false
    first(box).marked = true
    create "T" in box
    first(box).marked = true
"""
)


def test_a_checks_domain_is_kept_until_one_of_its_zones_changes(tmp_path, monkeypatch):
    # engine._kept_domain: `contents(box)` is found again when the check is due after a card
    # was made in the box, not after one was made in the pile (each `marked` write makes the
    # check due); the suite's verify_checks compares each kept domain with a fresh one
    prog = load_program(token_ruleset(tmp_path, DOMAIN, "power: 1, marked: false"))
    (chk,) = prog.checks
    assert chk.domain_zones == {"box"}
    found = []
    domain = E._check_domain
    monkeypatch.setattr(E, "_check_domain", lambda st, c: found.append(1) or domain(st, c))
    monkeypatch.setattr(type(prog), "verify_checks", False)  # (it would count its own finds)
    g = new_game(prog, seed=1)
    assert g.st.counters["removed"] == 2  # both marked tokens went to the pile
    # due six times, found twice: after each card made in the box (kept until any zone
    # changed, it was found four times)
    assert len(found) == 2


EMPTY = (
    BOX_CHECK
    + """\
    create "T" in pile
    first(pile).marked = true
    first(pile).marked = false
    first(pile).marked = true
    move first(pile) to box
"""
)


def test_a_check_over_an_empty_kept_domain_tests_no_condition(tmp_path, monkeypatch):
    # engine.run_checks finds a domain kept by its zones itself (`_domain_at`): due after each
    # `marked` write while the box is empty, the check tests its condition only for the token
    # moved into the box, and fires for it
    prog = load_program(token_ruleset(tmp_path, EMPTY, "power: 1, marked: false"))
    (chk,) = prog.checks
    tested = []
    cond = chk.cond
    monkeypatch.setattr(chk, "cond", lambda st, env: tested.append(env["t"]) or cond(st, env))
    g = new_game(prog, seed=1)
    assert g.st.counters["removed"] == 1
    assert len(tested) == 1


LEFT = """\
kind token:
    power: number

zone box: shared, public, active

counter rung = 0
counter done = 0
event bell

verb stop():
    hold:
        emit bell()
        require rung > 5
        rung += 100

check alone if count(players) < 2 or rung > 0 and done == 0:
    done += 1

flow:
    create "T" in box
    require count(players) > 1
    stop()
"""


def test_a_require_marks_what_a_holds_end_does_not_the_players_out(tmp_path, monkeypatch):
    # a require, a return or a break leaves frames: the triggers held there start, as at a
    # `hold:` block's end (their `once per` records); it puts no player out
    folder = write_ruleset(
        tmp_path,
        LEFT,
        'cards:\n  - {name: T, type: token, power: 1, text: "after bell:\\n    rung += 1\\n"}\n',
    )
    mask, bit = flow_masks(monkeypatch, folder, LEFT)
    assert mask("    require count(players) > 1") == 0
    # the require that fails inside `stop` releases the held trigger, whose own statement marks
    # the check (the suite evaluates every check that is not due: none may hold)
    g = new_game(folder, {}, seed=1)
    assert (g.st.counters["rung"], g.st.counters["done"]) == (1, 1)


LEAVING = """\
kind token:
    power: number

zone box: shared, public
zone pile: shared, public
zone heap: shared, public

counter ready = 0
counter fired = 0

check lone if ready > 0 and count(box) == 1:
    ready = 0
    fired += 1

flow:
    create "T" in box
    create "T" in box
    create "T" in pile
    ready = 1
    let p = first(pile)
    move p to heap
    let t = first(box)
    move t to heap
    let q = first(heap)
    move q to (if ready > 0 then pile else box)
"""


def test_a_move_marks_the_checks_of_the_zones_not_named_that_it_leaves_or_enters(
    tmp_path, monkeypatch
):
    # depends.writes: `move t to heap` names only the zone its token goes to, so its mask
    # holds no check reading `box`; the token leaving the box makes those due when it leaves
    # (engine.move_object, Game.zone_checks), and only those: leaving the pile makes none due.
    # A zone computed (`if ... then pile else box`) marks those of the zone entered.
    folder = token_ruleset(tmp_path, LEAVING, "power: 0")
    mask, bit = flow_masks(monkeypatch, folder, LEAVING)
    assert mask("    move p to heap") == 0
    assert mask("    move t to heap") == 0
    assert mask("    move q to (if ready > 0 then pile else box)") == 0
    due = []  # after each move, whether the check is due
    move = E.move_objects

    def moved(st, *args):
        move(st, *args)
        due.append(st.dirty & bit)

    monkeypatch.setattr(E, "move_objects", moved)
    g = new_game(folder, {}, seed=1)
    assert due == [0, bit, bit]
    assert g.st.counters["fired"] == 1  # the box went down to one token: the check fired
    zc, base = g.st.g.zone_checks, g.st.g.zone_base
    assert [zc[base[z]] for z in ("box", "pile", "heap")] == [bit, 0, 0]
