"""Whole blocks compiled into resumable generated functions (build/resumable.py): every block
is one, decisions inside loops and breaks out of blocks that keep their frames behave as the
rules say, and a game saved at any decision resumes the same under a fresh compile."""

import json
import random

import pytest
from madang.build.loader import bundled_names
from madang.game import api
from madang.game.api import GameState, load_program, new_game

RULESET = "name: res\ntitle: {en: Res}\nplayers: 2\nfiles: [r.madang]\ncards: [cards.yaml]\n"

RULES = """\
counter total = 0
counter rounds = 0
counter held = 0
counter final = 0

flow:
    # a loop around a decision, left by `break` once enough is picked
    for i in range(5):
        choose x from [1, 2, 3] by first(players) "pick"
        total += x
        if total >= 5:
            break
    # a loop whose `break` sits in a block that keeps its frame
    repeat 4 times:
        hold:
            held += 1
            if held == 2:
                break
    let k = 0
    while k < 2:
        choose y from [10, 20] by last(players) "more"
        rounds += y
        k += 1
    final = total + rounds + held
"""


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text("cards: []\n", encoding="utf-8")
    (tmp_path / "r.madang").write_text(RULES, encoding="utf-8")
    return str(tmp_path)


def outcome(g: GameState) -> str:
    """The final state, without the run loop's step count (fewer steps is the point)."""
    d = g.st.to_data()
    for k in ("steps", "envs", "frames"):
        d.pop(k)
    return json.dumps(d, sort_keys=True, default=str)


def play(prog, seed: int, options=None) -> tuple[list[str], str]:
    g = new_game(prog, options, seed=seed)
    rng = random.Random(seed)
    trace = []
    while not g.is_terminal():
        labels = g.action_labels()
        i = rng.randrange(len(labels))
        trace.append(labels[i])
        g.apply_action(i)
    return trace, outcome(g)


def test_the_flow_is_one_function_resumable_at_its_decisions(folder):
    prog = load_program(folder)
    flow = prog.blocks[prog.flow_block]
    assert {type(s).__name__ for s in flow} == {"Section"} and len(flow) > 3
    assert len({s.fn for s in flow}) == 1
    # the hold keeps its frame (its triggers wait there), so its loop does too
    assert "Repeat" in [type(s).__name__ for s in flow[0].fn.delegated]


def test_loops_around_decisions_and_breaks(folder):
    g = new_game(folder, seed=1)
    picks = []
    while not g.is_terminal():
        labels = g.action_labels()
        picks.append(labels[-1])
        g.apply_action(len(labels) - 1)  # the largest each time
    c = g.st.counters
    # 3 + 3 reach 5: the first loop breaks after two picks; the hold's break leaves the repeat
    # at its second round; the while asks twice
    assert picks == ["3", "3", "20", "20"]
    assert (c["total"], c["held"], c["rounds"], c["final"]) == (6, 2, 40, 48)


def test_a_save_inside_a_loop_resumes_in_a_fresh_compile(folder):
    # the loop's position is data in the frame: a save made at the decision inside the loop
    # goes on the same way under a new compile of the same rules (as in another process)
    whole, _ = play(load_program(folder), seed=3)
    g = new_game(folder, seed=3)
    rng = random.Random(3)
    g.apply_action(rng.randrange(len(g.legal_actions())))
    text = g.to_json()
    fresh = api._load_cached.__wrapped__(str(load_program(folder).folder), ())
    h = GameState.from_json(text, fresh)
    trace = [whole[0]]
    while not h.is_terminal():
        labels = h.action_labels()
        i = rng.randrange(len(labels))
        trace.append(labels[i])
        h.apply_action(i)
    assert trace == whole


def test_every_block_of_the_bundled_rules_is_one_generated_function():
    # the run loop steps only into generated functions' sections: a statement that may wait (a
    # window, a choice, a scope) is run by the generated code, never a step of its own
    from madang.tools.listing import summary

    for name in [*bundled_names(), "tests/rulesets/timing"]:
        prog = load_program(name)
        for k, block in enumerate(prog.blocks):
            if block:
                assert {type(s).__name__ for s in block} == {"Section"}, (name, k)
                assert len({s.fn for s in block}) == 1, (name, k)
        assert sum(r["steps"] for r in summary(prog)) == 0, name


RESUMED = {"clash_of_decks": 3, "nivel_arena": 1, "game_of_thrones_2p": 1, "cthulhu_wars": 1}


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_games_resume_at_every_decision_in_a_fresh_compile(name):
    # at every decision the game is saved and loaded under a new compile of the same rules (as
    # in another process): both copies take the same action and stay the same game, whichever
    # section of whichever generated function the decision stopped in
    compiled = load_program(name)
    fresh = api._load_cached.__wrapped__(str(compiled.folder), ())
    sections = set()
    for seed in range(RESUMED.get(name, 1)):
        g = new_game(compiled, seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal():
            top = g.st.frames[-1] if g.st.frames else None
            sections.update((f.block, f.pc) for f in g.st.frames if compiled.blocks[f.block])
            h = GameState.from_json(g.to_json(), fresh)
            i = rng.randrange(len(g.legal_actions()))
            g.apply_action(i)
            h.apply_action(i)
            assert h.digest() == g.digest(), f"seed {seed}, after resuming at {top}"
    assert len(sections) >= 5  # resumed inside many functions' sections


def test_a_save_made_under_another_block_layout_is_refused(folder, monkeypatch):
    # a save holds positions in the compiled blocks (a frame's block and pc): one made under
    # another layout of the blocks (fingerprint.py: the layout is part of the rules digest)
    # cannot resume here, and says so
    from madang.build.compiler import Compiler

    current = load_program(folder)
    monkeypatch.setattr(Compiler, "LAYOUT", "resumable-2")
    older = api._load_cached.__wrapped__(str(current.folder), ())
    text = new_game(older, seed=1).to_json()
    with pytest.raises(api.MadangError, match="different rules"):
        GameState.from_json(text, current)
    assert GameState.from_json(text, older).action_labels() == ["1", "2", "3"]


SECRET_RULES = """\
kind token:
    power: number

zone hand: per player, owner sees

flow:
    create "Secret" in first(players).hand
    log first(first(players).hand)
"""


def test_a_log_in_a_generated_block_hides_a_secret_card(tmp_path):
    # docs/language.md 11.9: the log line names a card of player 1's hidden hand; the plain
    # statement inside a generated block marks who may see it, as the statement object did
    from madang.tools.narration import Narrator

    (tmp_path / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(
        "cards:\n  - {name: Secret, type: token, power: 1}\n", encoding="utf-8"
    )
    (tmp_path / "r.madang").write_text(SECRET_RULES, encoding="utf-8")
    g = new_game(str(tmp_path), seed=1, log=True)
    prog = g.st.g.prog
    assert type(prog.blocks[prog.flow_block][0]).__name__ == "Section"
    (entry,) = [e for e in g.st.log if isinstance(e, dict) and "log" in e]
    assert Narrator(prog, "en", seat=0).line(entry).strip() == "Secret"
    assert "Secret" not in Narrator(prog, "en", seat=1).line(entry)


SEEDS = {"clash_of_decks": 10, "nivel_arena": 4, "game_of_thrones_2p": 4, "cthulhu_wars": 2}


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_games_are_the_same_without_inlined_definitions(name, monkeypatch):
    # codegen writes a definition's body at its uses (inline_define): the same games as calling
    # it, decision by decision (a keyword parameter read by `has` once escaped the inlining)
    from madang.build import codegen

    compiled = load_program(name)
    monkeypatch.setattr(codegen, "INLINE_DEPTH", 0)
    called = api._load_cached.__wrapped__(str(compiled.folder), ())
    for seed in range(SEEDS.get(name, 2)):
        assert play(called, seed) == play(compiled, seed), f"seed {seed}"


DEEP_RULES = """\
counter depth = 0

verb down(k: number):
    if k > 0:
        depth += 1
        down(k - 1)
    else:
        choose x from [1, 2] by first(players) "bottom"

flow:
    down(400)
"""


def test_a_deep_chain_of_calls_that_may_wait_needs_no_python_recursion(tmp_path):
    # engine.enter runs a called block at once only while few frames are in progress; deeper
    # calls wait for the run loop, so 400 nested calls (each may ask) neither recurse in Python
    # nor lose their place: the decision at the bottom is asked, then every level returns
    (tmp_path / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text("cards: []\n", encoding="utf-8")
    (tmp_path / "r.madang").write_text(DEEP_RULES, encoding="utf-8")
    g = new_game(str(tmp_path), seed=1)
    assert g.st.counters["depth"] == 400 and g.prompt() == "bottom"
    assert len(g.st.frames) > 400
    g.apply_action(0)
    assert g.is_terminal() and not g.st.frames  # every level returned; the flow is over


BREAK_RULES = """\
counter n = 0

flow:
    repeat 2 times:
        if n == 0:
            break
    repeat 2 times:
        hold:
            break
    repeat 2 times:
        hold:
            repeat 3 times:
                break
    repeat 2 times:
        hold:
            if n == 0:
                break
    n = 1
"""


def test_only_a_loop_broken_from_inside_a_block_with_its_own_frame_keeps_a_frame(tmp_path):
    # a `break` in an `if` jumps within the generated function; one in a `hold:` pops frames
    # up to its loop's (resumable._break_escapes): only such loops stay run-time objects
    (tmp_path / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text("cards: []\n", encoding="utf-8")
    (tmp_path / "r.madang").write_text(BREAK_RULES, encoding="utf-8")
    g = new_game(str(tmp_path), seed=1)
    assert g.is_terminal() and g.st.counters["n"] == 1
    prog = g.st.g.prog
    delegated = prog.blocks[prog.flow_block][0].fn.delegated
    assert [(type(s).__name__, s.span.line) for s in delegated] == [
        ("Repeat", 7),
        ("Hold", 11),  # the third loop is flattened around its hold
        ("Repeat", 14),
    ]
