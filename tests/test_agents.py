"""Agents, narration and the simulation totals, as units."""

import io
import random

import pytest
from madang.game.api import MadangError, load_program, new_game
from madang.tools.agents import (
    Decision,
    FirstAgent,
    HumanAgent,
    InputEnded,
    RandomAgent,
    ScriptedAgent,
    hash64,
    make_agent,
    pick,
)
from madang.tools.intervals import wilson
from madang.tools.narration import Narrator, narrate, spelling
from madang.tools.simulate import Totals, pairings, play_one, seat_specs

CLASH = "clash_of_decks"


def game(seed=1, **options):
    return new_game(CLASH, options, seed=seed)


def play_out(g, agent):
    while not g.is_terminal():
        g.apply_action(agent.choose(g))
    return g


# ---------------------------------------------------------------- the random agent


def test_hash64_is_stable_and_spread():
    assert hash64(5, 40) == hash64(5, 40)
    keys = {hash64(s, d) for s in range(50) for d in range(50)}
    assert len(keys) == 2500 and all(0 <= k < 2**64 for k in keys)
    assert hash64(-1, 0) != hash64(0, 0)


def test_random_agent_is_uniform_enough():
    agent = RandomAgent()
    counts = [0] * 5

    class D:
        count = 5

    for i in range(5000):
        d = D()
        d.key = hash64(7, i)
        counts[agent.decide(d)] += 1
    assert all(900 < c < 1100 for c in counts), counts


def test_random_agent_depends_only_on_seed_and_decision_index():
    a = play_out(game(9), RandomAgent())
    g = game(9)
    for _ in range(10):
        g.apply_action(RandomAgent().choose(g))
    twin = g.clone()
    play_out(g, RandomAgent())
    play_out(twin, make_agent("random"))
    assert a.digest() == g.digest() == twin.digest()


def test_random_agent_is_not_disturbed_by_the_global_generator():
    random.seed(1)
    a = play_out(game(4), RandomAgent()).digest()
    random.seed(2)
    assert play_out(game(4), RandomAgent()).digest() == a


# ---------------------------------------------------------------- what an agent sees


def test_decision_shows_only_the_seat_observation_and_the_options():
    g = game(1)
    d = Decision(g)
    assert d.seat == g.current_player() and d.count == len(g.legal_actions())
    assert d.labels == g.action_labels() and d.prompt == g.prompt()
    obs = d.observation
    assert obs["player"] == d.seat
    other = 1 - d.seat
    assert obs["zones"][f"hand#{other + 1}"] == {
        "count": len(g.observation(other)["zones"][f"hand#{other + 1}"])
    }


def test_decision_of_a_finished_game_is_refused():
    g = play_out(game(2), FirstAgent())
    with pytest.raises(MadangError):
        Decision(g)


# ---------------------------------------------------------------- first and scripted


def test_first_agent_always_takes_option_0():
    g = game(3)
    assert FirstAgent().choose(g) == 0


def test_scripted_agent_by_label_and_index():
    g = game(1)
    labels = g.action_labels()
    agent = ScriptedAgent([labels[-1], "0", 0])
    assert agent.choose(g) == len(labels) - 1
    assert agent.choose(g) == 0 and agent.choose(g) == 0
    with pytest.raises(MadangError, match="ran out after 3"):
        agent.choose(g)


def test_scripted_agent_refuses_an_illegal_choice():
    g = game(1)
    with pytest.raises(MadangError, match="is not an option number"):
        ScriptedAgent(["99"]).choose(g)
    with pytest.raises(MadangError, match="'nothing' is not an option"):
        ScriptedAgent(["nothing"]).choose(g)
    with pytest.raises(MadangError, match="is not an option number"):
        ScriptedAgent([-1]).choose(g)


def test_scripted_agent_from_a_file(tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("# my moves\npass\n\n0\n", encoding="utf-8")
    agent = make_agent(f"scripted:@{script}")
    assert agent.script == ["pass", "0"]
    with pytest.raises(MadangError, match="cannot read the script"):
        make_agent(f"scripted:@{tmp_path / 'missing.txt'}")


def test_make_agent_names():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent(" first "), FirstAgent)
    assert isinstance(make_agent("human"), HumanAgent)
    assert make_agent("scripted:a|b|1").script == ["a", "b", "1"]
    for bad in ("wizard", "random:3", ""):
        with pytest.raises(MadangError, match="unknown agent"):
            make_agent(bad)


def test_pick():
    labels = ["summon X top#1", "pass", "7"]
    assert pick(labels, "1") == 1 and pick(labels, " pass ") == 1 and pick(labels, "PASS") == 1
    assert pick(labels, "7") == 2  # an option's text wins over an index
    assert pick(labels, "3").startswith("3 is not an option number")
    assert isinstance(pick(labels, "-1"), str) and isinstance(pick(labels, "1.0"), str)
    assert pick(labels, "") == "empty answer"


# ---------------------------------------------------------------- the human


def test_human_agent_asks_again_on_nonsense():
    g = game(1)
    out = io.StringIO()
    agent = HumanAgent(stdin=io.StringIO("banana\n999\n\n?\npass\n"), stdout=out)
    choice = agent.choose(g)
    assert g.action_labels()[choice] == "pass"
    text = out.getvalue()
    assert text.count("type a number from 0 to") == 3
    assert f"— P{g.current_player() + 1} to decide" in text
    assert "0) " in text and "hidden" in text


def test_human_agent_accepts_a_number():
    g = game(1)
    assert HumanAgent(stdin=io.StringIO("1\n"), stdout=io.StringIO()).choose(g) == 1


def test_human_agent_end_of_input_and_quit():
    g = game(1)
    with pytest.raises(InputEnded, match="input ended"):
        HumanAgent(stdin=io.StringIO(""), stdout=io.StringIO()).choose(g)
    with pytest.raises(InputEnded, match="quit"):
        HumanAgent(stdin=io.StringIO("quit\n"), stdout=io.StringIO()).choose(g)
    assert issubclass(InputEnded, EOFError)


# ---------------------------------------------------------------- narration


def test_spelling_follows_the_language():
    prog = load_program(CLASH)
    assert spelling(prog, "attack", "ko") == "공격"
    assert spelling(prog, "공격", "en") == "attack"
    assert spelling(prog, "no_such_name", "ko") == "no_such_name"


def test_narration_uses_templates_in_the_ruleset_language_only():
    prog = load_program(CLASH)
    entry = {"event": "destroy", "args": ["TROLL"]}
    assert narrate(prog, entry, "ko") == "  TROLL 파괴"
    assert narrate(prog, entry, "en") == "  TROLL is destroyed"  # view: narration: en:
    n = Narrator(prog, "ko")
    # a verb without a narration sentence is bookkeeping: shown only with internals
    assert n.line({"event": "strike", "args": ["A", "B", "3", "true"]}) is None
    n.internals = True
    assert n.line({"event": "strike", "args": ["A", "B", "3", "true"]}) == "  타격(A, B, 3, true)"
    assert n.line({"phase": "attack"}) == "  [공격]"
    assert n.line({"turn": 3, "player": 1}) == "턴 3: P2"
    assert n.line({"game_over": []}) == "게임 종료 — 승자: 없음"


def test_narration_respells_labels_and_skips_the_action_after_its_decision():
    prog = load_program(CLASH)
    n = Narrator(prog, "ko")
    assert (
        n.line({"decision": "소환", "player": 0, "choice": "summon TROLL top#1"})
        == "  P1 선택 (소환): 소환 TROLL 상부#1"
    )
    assert n.line({"action": "summon", "player": 0, "args": ["TROLL", "top#1"]}) is None
    assert (
        n.line({"action": "summon", "player": 0, "args": ["TROLL", "top#1"]})
        == "  P1: 소환 TROLL 상부#1"
    )
    assert n.line({"move": ["TROLL"], "to": "top#1"}) is None
    n.moves = True
    assert n.line({"move": ["TROLL"], "to": "top#1"}) == "    TROLL → 상부#1"


def test_a_seat_narrator_hides_what_the_seat_may_not_see():
    prog = load_program(CLASH)
    secret = {"decision": "pick", "player": 0, "choice": "TROLL", "seen": [[0]]}
    assert Narrator(prog, "en", seat=0).line(secret) == "  P1 chooses (pick): TROLL"
    assert Narrator(prog, "en", seat=1).line(secret) == "  P1 chooses (pick): (secret)"
    assert Narrator(prog, "en").line(secret) == "  P1 chooses (pick): TROLL"  # everything
    assert Narrator(prog, "en", seat=-1).line(secret) == "  P1 chooses (pick): (secret)"
    drawn = {"action": "summon", "player": 1, "args": ["TROLL", "top#2"], "seen": [[1], None]}
    assert Narrator(prog, "en", seat=0).line(drawn) == "  P2: summon (a hidden card) top#2"


def test_a_card_revealed_later_in_the_batch_is_named_all_along():
    prog = load_program(CLASH)
    batch = [
        {"event": "destroy", "args": ["TROLL"], "seen": [[1]]},
        {"move": ["TROLL"], "to": "top#2", "seen": [None]},
    ]
    assert Narrator(prog, "ko", seat=0).lines(batch) == ["  TROLL 파괴"]
    assert Narrator(prog, "ko", seat=0).lines(batch[:1]) == ["  (비공개 카드) 파괴"]


def test_narration_without_a_program_and_of_unknown_entries():
    n = Narrator(None, "en")
    assert n.line({"event": "boom", "args": [1]}) == "  boom: 1"
    assert n.line({"something": "else"}) is None and n.line(["not", "a", "dict"]) is None


def test_a_whole_game_narrates_in_both_languages():
    g = new_game(CLASH, {}, seed=3, log=True)
    play_out(g, RandomAgent())
    prog = g.st.g.prog
    for lang in ("ko", "en"):
        n = Narrator(prog, lang, moves=True)
        lines = [x for x in (n.line(e) for e in g.st.log) if x]
        assert len(lines) > 20
        assert lines[-1].startswith("게임 종료" if lang == "ko" else "game over")


# ---------------------------------------------------------------- simulation totals


def test_pairings_cycle_over_ordered_pairs_of_distinct_values():
    prog = load_program(CLASH)
    free, combos = pairings(prog, {})
    assert free == ["deck"] and len(combos) == 12
    assert combos[0] == (("1", "2"),) and (("4", "3"),) in combos and (("1", "1"),) not in combos
    assert pairings(prog, {"deck": "2"}) == ([], [()])


def test_seat_specs():
    assert seat_specs(None, 3) == ["random"] * 3
    assert seat_specs(["first"], 2) == ["first", "first"]
    with pytest.raises(MadangError, match="2 seats"):
        seat_specs(["a", "b", "c"], 2)


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.27 < hi < 0.28
    assert wilson(10, 10)[1] == 1.0


def test_totals_merged_in_order_equal_totals_added_one_by_one():
    prog = load_program(CLASH)
    free, combos = pairings(prog, {})
    results = []
    for i in range(10):
        opts = {"deck": list(combos[i % len(combos)][0])}
        r = play_one(prog, opts, 100 + i, ["random", "random"], 10 if i == 3 else 100_000)
        results.append((r, combos[i % len(combos)], 100 + i))
    results.append(({"error": "boom"}, combos[0], 999))
    whole = Totals(2, free)
    for r, c, s in results:
        whole.add(r, c, s)
    parts = Totals(2, free)
    for start in range(0, len(results), 3):
        t = Totals(2, free)
        for r, c, s in results[start : start + 3]:
            t.add(r, c, s)
        parts.merge(t)
    assert parts.report() == whole.report()
    rep = whole.report()
    assert rep["unfinished"] == 1 and rep["errors"] == {"boom": {"games": 1, "first_seed": 999}}
    assert rep["games"] == 11 and rep["finished"] == 9


def test_play_one_reports_an_error_instead_of_raising():
    prog = load_program(CLASH)
    r = play_one(prog, {"deck": "9"}, 0, ["random", "random"], 100)
    assert "error" in r and "deck" in r["error"]


def test_docs_style_loop_still_works():
    """`agent.choose(game, seat)` is the convenience the docs show."""
    g = game(5)
    agent = RandomAgent()
    while not g.is_terminal():
        g.apply_action(agent.choose(g, g.current_player()))
    assert g.winners


def test_narration_respells_per_area_zone_labels(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(
        "name: stones\ntitle: {en: Stones}\nplayers: 2\nlanguage: ko\nfiles: [s.madang]\n"
        "maps:\n  land:\n    areas:\n      South Hill: {adjacent: []}\n",
        encoding="utf-8",
    )
    (tmp_path / "s.madang").write_text(
        "zone stones/돌들: per area, public\n\nflow:\n    pass\n", encoding="utf-8"
    )
    n = Narrator(load_program(str(tmp_path)), "ko", moves=True)
    assert n.line({"move": ["X"], "to": "stones@South Hill"}) == "    X → 돌들@South Hill"
    assert n.text("take stones@South Hill") == "take 돌들@South Hill"
    assert Narrator(load_program(str(tmp_path)), "en").text("stones@South Hill") == (
        "stones@South Hill"
    )
