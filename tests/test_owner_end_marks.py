"""The end of a frame's owner marks only the state checks it may change (build/depends.py
`end_writes`, `Stmt.END_DIRTY`): a scope's end the checks of what an `expire` changes, and only
when it drops a modifier or grant (`Program.expire_checks`); an event's stages, a window's turn
and a `hold:` block the readers of `once per` records; an effect's start the readers of
`resolving` (`Program.effect_checks`); a question the readers of last known information
(`Program.lki_checks`). The suite evaluates every check that was not due
(`Program.verify_checks`, tests/conftest.py): a missing mark fails these games."""

from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from minirules import write_ruleset

KIND = "kind token:\n    power: number\nzone box: shared, public, active\nevent poke\ncounter other = 0\n"
CARD = 'cards:\n  - {name: T, type: token, power: 0, text: "after poke:\\n    other += 1\\n"}\n'

EXPIRING = (
    KIND
    + """\
counter removed = 0
check strong for t in contents(box) if t.power >= 3:
    removed += 1
    t.power = 0
flow:
    create "T" in box
    let u = first(box)
    turn first(players):
        phase main:
            modify u.power by -5 until end of main
            u.power = 4
            other += 1
        other += 1
"""
)


def _owner_masks(prog) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for s in prog.stmts:
        if type(s) in (E.ScopeStmt, E.Call, E.Window, E.Hold, E.OrderTriggers):
            out.setdefault(type(s).__name__, set()).add(s.END_DIRTY)
    return out


def test_a_modifier_ending_with_its_scope_makes_the_checks_due(tmp_path):
    # The token's power is 4 - 5 while the phase lasts; its end drops the modifier and the
    # check holds: only the scope's mark for what it dropped makes it due (its end writes no
    # other token the check reads, the statements after it neither).
    folder = write_ruleset(tmp_path, EXPIRING, CARD)
    prog = load_program(folder)
    (bit,) = [c.bit for c in prog.checks]
    assert _owner_masks(prog)["ScopeStmt"] == {0}
    assert prog.expire_checks == bit
    g = new_game(folder, {}, seed=1)
    assert g.st.counters["removed"] == 1 and g.st.counters["other"] == 2


def test_a_scope_that_drops_nothing_marks_nothing(tmp_path, monkeypatch):
    # the same rules without the modifier: the phase's end makes no check due
    folder = write_ruleset(tmp_path, EXPIRING.replace("modify u.power by -5", "let v = 0 #"), CARD)
    marks = []
    at_end = E.ScopeStmt.at_end

    def spy(self, st, fr):
        before = st.dirty
        out = at_end(self, st, fr)
        marks.append(st.dirty & ~before)
        return out

    monkeypatch.setattr(E.ScopeStmt, "at_end", spy)
    g = new_game(folder, {}, seed=1)
    assert len(marks) == 2 and not any(marks)
    assert g.st.counters["removed"] == 1  # (found at the assignment)


STARTED = (
    KIND
    + """\
counter flag = 0
check busy if resolving and flag == 0:
    flag = 1
flow:
    create "T" in box
    turn first(players):
        emit poke()
        other += 1
"""
)


def test_an_effects_start_makes_the_checks_reading_resolving_due(tmp_path):
    # T's trigger is an effect: `resolving` holds from its start, and its block's `other += 1`
    # writes nothing the check reads; the event's stages mark no check (no `once per` read)
    folder = write_ruleset(tmp_path, STARTED, CARD)
    prog = load_program(folder)
    (bit,) = [c.bit for c in prog.checks]
    assert prog.effect_checks == bit
    assert _owner_masks(prog)["Call"] == {0}
    g = new_game(folder, {}, seed=1)
    assert g.st.counters["flag"] == 1 and g.st.counters["other"] == 2


def test_the_bundled_rulesets_owner_ends_mark_what_they_may_change():
    # Nivel Arena: the checks read no `once per` record, so events, windows and `hold:` blocks
    # end marking none; a scope's end marks none (what it drops is marked when dropped);
    # `파워0` and `장착조건확인` read last known information and modified power
    prog = load_program("nivel_arena")
    bits = {c.name: c.bit for c in prog.checks}
    masks = _owner_masks(prog)
    assert masks["Call"] == masks["Window"] == masks["Hold"] == masks["ScopeStmt"] == {0}
    assert prog.order_triggers.END_DIRTY == 0
    assert prog.lki_checks == prog.expire_checks == bits["파워0"] | bits["장착조건확인"]
    assert prog.effect_checks == bits["패배판정"]
