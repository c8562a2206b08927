"""Searching agents (greedy, ISMCTS), determinization, rulesets' evaluations and tournaments.

Small budgets throughout: these tests check behaviour, never strength or speed (strength is
measured with `madang tournament`, docs/agents.md)."""

import json
import random

import pytest
from madang.game.api import MadangError, load_program, new_game
from madang.game.determinize import hidden_slots
from madang.tools.agents import Decision, GreedyAgent, MCTSAgent, hash64, make_agent
from madang.tools.cli import main
from madang.tools.mcts import greedy_candidates, greedy_index, option_kind, rewards
from madang.tools.simulate import play_one
from madang.tools.tournament import Ratings, lineups, tournament

BUNDLED = ["clash_of_decks", "game_of_thrones_2p", "nivel_arena", "cthulhu_wars"]
TWENTY = "docs/examples/twenty"


def advance(game, decisions: int, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_terminal():
            break
        game.apply_action(rng.randrange(len(game.legal_actions())))
    return game


def other_hidden_deal(game, seat: int, seed: int):
    """A copy of `game` in which the hidden objects `seat` cannot see trade places (within each
    owner and kind): the same observation for `seat`, other hidden cards."""
    g = game.clone()
    st = g.st
    rng = random.Random(seed)
    for slots in hidden_slots(st, seat).values():
        objs = [st.zones[z][i] for z, i in slots]
        rng.shuffle(objs)
        for (z, i), o in zip(slots, objs):
            st.own_zones(1 << z)[z][i] = o  # (a list a clone shares, copied first)
            st.obj_zone[o] = z
    return g


def hidden_decision(ruleset: str, options=None):
    """A decision of a seat whose opponents' hidden cards can be dealt otherwise."""
    for seed in range(20):
        g = new_game(ruleset, options or {}, seed=seed)
        for _ in range(60):
            if g.is_terminal():
                break
            seat = g.current_player()
            other = other_hidden_deal(g, seat, 99)
            if [o for z in other.st.zones for o in z] != [o for z in g.st.zones for o in z]:
                return g, other, seat
            g.apply_action(random.Random(len(g.st.zones)).randrange(len(g.legal_actions())))
    raise AssertionError("no decision with hidden cards found")


# ---------------------------------------------------------------- determinization


@pytest.mark.parametrize("ruleset", ["game_of_thrones_2p", "nivel_arena"])
def test_a_sample_depends_only_on_what_the_seat_sees(ruleset):
    real, other, seat = hidden_decision(ruleset)
    assert real.observation(seat) == other.observation(seat)
    a = real.determinize(seat, random.Random(5))
    b = other.determinize(seat, random.Random(5))
    assert a.st.zones == b.st.zones
    assert a.st.rng == b.st.rng
    assert a.st.rng != real.st.rng  # future shuffles and dice are not the real ones


def test_a_sample_keeps_what_the_seat_sees_and_every_object():
    g = advance(new_game("game_of_thrones_2p", seed=3), 30)
    seat = g.current_player()
    s = g.determinize(seat, random.Random(1))
    assert s.observation(seat) == g.observation(seat)
    assert sorted(o for z in s.st.zones for o in z) == sorted(o for z in g.st.zones for o in z)
    for z, objs in enumerate(s.st.zones):
        for o in objs:
            assert s.st.obj_zone[o] == z
            assert s.st.obj_owner[o] == g.st.obj_owner[o]  # decks never mix owners
    assert g.determinize(seat, random.Random(2)).st.zones != s.st.zones  # samples vary


# ---------------------------------------------------------------- choices ignore hidden cards


@pytest.mark.parametrize("ruleset", ["game_of_thrones_2p", "nivel_arena"])
def test_search_agents_choose_the_same_whatever_the_hidden_cards(ruleset):
    real, other, seat = hidden_decision(ruleset)
    for spec in ("greedy", "mcts:12:depth=4"):
        ours = make_agent(spec).decide(Decision(real))
        theirs = make_agent(spec).decide(Decision(other))
        assert ours == theirs, spec


def test_a_search_that_peeks_is_only_an_option():
    agent = make_agent("mcts:5:peek")
    assert isinstance(agent, MCTSAgent) and agent.peek
    assert not make_agent("mcts:5").peek


# ---------------------------------------------------------------- evaluations


@pytest.mark.parametrize("ruleset", BUNDLED)
def test_every_bundled_ruleset_declares_an_evaluation(ruleset):
    g = advance(new_game(ruleset, seed=2), 20)
    values = [g.evaluate(p) for p in range(g.st.g.nplayers)]
    assert all(isinstance(v, float) for v in values)
    r = rewards(g, 10.0)
    assert all(0.0 <= x <= 1.0 for x in r)


def test_a_ruleset_without_an_evaluation_still_has_searching_agents():
    g = new_game(TWENTY, seed=1)
    assert g.evaluate(0) is None
    assert rewards(g, 10.0) == [0.5] * g.st.g.nplayers
    for spec in ("greedy", "mcts:8"):
        r = play_one(load_program(TWENTY), {}, 4, [spec, "random"], 10_000)
        assert "winners" in r, r


def test_an_evaluation_naming_no_definition_is_a_located_error(tmp_path, capsys):
    import shutil

    folder = tmp_path / "twenty"
    shutil.copytree(TWENTY, folder)
    meta = (folder / "ruleset.yaml").read_text(encoding="utf-8")
    meta = meta.replace("settings:\n", "settings:\n  evaluation: nothing_here\n")
    (folder / "ruleset.yaml").write_text(meta, encoding="utf-8")
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "ruleset.yaml:" in out and "evaluation 'nothing_here'" in out


def cthulhu_with(moves, desecrated=()):
    """A 4-player Cthulhu Wars setup (P4 Yellow Sign, its six Acolytes in Europe) with figures
    moved (zone label, figure name, zone label) and areas marked desecrated."""
    g = new_game("cthulhu_wars", {"players": 4}, seed=1)
    st = g.st
    zone = {st.g.zone_label(z): z for z in range(len(st.zones))}
    for src, name, dst in moves:
        i = g.observation(3)["zones"][src].index(name)
        o = st.zones[zone[src]].pop(i)
        st.zones[zone[dst]].append(o)
        st.obj_zone[o] = zone[dst]
    for a in desecrated:
        st.acounters["desecrated"][st.g.areas.index(a)] = 1
    return g


def test_cthulhu_evaluation_wants_the_king_where_a_desecration_is_due():
    # evaluation.madang, ys_steps: the King in Yellow in a glyph area not yet desecrated whose
    # Desecrate requirement is open, with YS units there, is a step towards a spellbook.
    ocean = cthulhu_with([("pool#4", "King in Yellow", "units@North Atlantic")])
    europe = cthulhu_with([("pool#4", "King in Yellow", "units@Europe")])
    done = cthulhu_with([("pool#4", "King in Yellow", "units@Europe")], desecrated=["Europe"])
    assert europe.observation(3)["player_counters"]["fid"][3] == 3  # P4 plays Yellow Sign
    # the ocean is a new area for YS (+1 spread), Europe a glyph area with seven YS figures
    assert europe.evaluate(3) - ocean.evaluate(3) == 4 + 6 / 2 - 1
    assert done.evaluate(3) == ocean.evaluate(3) - 1  # desecrated: no step left there


def test_cthulhu_evaluation_wants_cthulhu_beside_two_enemy_units_while_kill_devour_2_is_open():
    # evaluation.madang, gc_steps: Kill/Devour 2 needs two enemy units killed or devoured in one
    # battle, so an area counts as a step only with two enemy units or more, and Cthulhu there
    # (his Devour takes the first) counts 4 more; P4's six Acolytes stand in Europe.
    away = cthulhu_with([("pool#1", "Cthulhu", "units@North Atlantic")])
    beside_six = cthulhu_with([("pool#1", "Cthulhu", "units@Europe")])
    to_arctic = [("units@Europe", "Acolyte", "units@Arctic Ocean")]
    beside_one = cthulhu_with([("pool#1", "Cthulhu", "units@Europe")] + to_arctic * 5)
    assert beside_six.observation(0)["player_counters"]["fid"][0] == 0  # P1 plays Great Cthulhu
    assert beside_six.evaluate(0) - away.evaluate(0) == 2 + 4
    assert beside_one.evaluate(0) == away.evaluate(0)  # one enemy unit: no Kill/Devour 2 there


def test_the_greedy_agent_takes_the_option_the_evaluation_prefers():
    g = advance(new_game("clash_of_decks", seed=4), 3)
    d = Decision(g)
    assert 0 <= GreedyAgent().decide(d) < len(g.legal_actions())
    rng = d.rng()
    sample = d.sample(rng)  # the sample the agent judges in
    seat = d.seat
    choice = greedy_index(sample.clone(), seat, rng, follow=0)  # one ply, nothing followed
    values = []
    for a in sample.legal_actions():
        c = sample.clone()
        c.apply_action(a)
        values.append(rewards(c, 10.0)[seat])
    assert values[choice] == max(values)


def wide_decision(min_options: int = 30):
    """A Cthulhu Wars decision with many options of several kinds (an Action-phase turn)."""
    g = new_game("cthulhu_wars", {"players": 4}, seed=3)
    rng = random.Random(0)
    while len(g.legal_actions()) < min_options:
        g.apply_action(rng.randrange(len(g.legal_actions())))
    return g


def test_greedy_candidates_judge_every_kind_first_then_the_rest():
    labels = ["march a b", "march a c", "march b c", "recruit a", "recruit b", "pass"]
    (everything,) = greedy_candidates(labels, random.Random(1), None)
    assert sorted(everything) == list(range(6))
    firsts, rest = greedy_candidates(labels, random.Random(1), 4)
    assert sorted(option_kind(labels[a]) for a in firsts) == ["march", "pass", "recruit"]
    assert sorted(firsts + rest) == list(range(6))
    assert greedy_candidates(labels, random.Random(1), 4) == [firsts, rest]  # seeded
    firsts, rest = greedy_candidates(labels, random.Random(1), 2)  # fewer kinds than the cap
    assert len(firsts) == 2 and len({option_kind(labels[a]) for a in firsts}) == 2


def test_a_greedy_step_with_max_options_judges_that_many_and_takes_the_best_judged(monkeypatch):
    from madang.tools import mcts

    g = wide_decision()
    labels = g.action_labels()
    kinds = {option_kind(x) for x in labels}
    assert len(labels) > 12 and 2 <= len(kinds) < 12

    def value(a):  # a made-up evaluation: one kind is best, and within it the options differ
        return (0.5 if option_kind(labels[a]) == "march" else 0.0) + (hash64(7, a) % 1000) / 1e4

    judged = []

    def fake_judge(game, a, *rest):
        judged.append(a)
        return value(a)

    monkeypatch.setattr(mcts, "judge", fake_judge)
    choice = greedy_index(g, g.current_player(), random.Random(3), max_options=12)
    assert len(judged) == 12 and len(set(judged)) == 12
    assert {option_kind(labels[a]) for a in judged} == kinds  # every kind had a say
    assert choice == max(judged, key=value)
    # The budget left after one of each kind went to the best kind.
    assert all(option_kind(labels[a]) == "march" for a in judged[len(kinds) :])
    again = []
    monkeypatch.setattr(mcts, "judge", lambda *args: again.append(args[1]) or value(args[1]))
    assert greedy_index(g, g.current_player(), random.Random(3), max_options=12) == choice
    assert again == judged  # the same generator judges the same options
    everything = []
    monkeypatch.setattr(mcts, "judge", lambda *args: everything.append(args[1]) or value(args[1]))
    choice = greedy_index(g, g.current_player(), random.Random(3), max_options=None)
    assert sorted(everything) == list(range(len(labels)))
    assert choice == max(range(len(labels)), key=value)


def test_the_capped_greedy_agent_is_deterministic_and_judges_in_a_sample():
    g = wide_decision()
    before = g.to_json()
    a = make_agent("greedy").decide(Decision(g))
    assert a == make_agent("greedy:options=12").decide(Decision(g))
    assert 0 <= a < len(g.legal_actions())
    assert g.to_json() == before  # the real game is untouched


def option_handing_over():
    """A Cthulhu Wars decision and an option after which another seat decides among a few
    options (a retreat, an elder sign to reveal, ...)."""
    g = new_game("cthulhu_wars", {"players": 4}, seed=2)
    rng = random.Random(2)
    while True:
        seat = g.current_player()
        for a in g.legal_actions():
            c = g.clone()
            c.apply_action(a)
            if (
                not c.is_terminal()
                and c.current_player() != seat
                and 1 < len(c.legal_actions()) <= 6
            ):
                return g, seat, a
        g.apply_action(rng.randrange(len(g.legal_actions())))


def test_greedy_with_others_judges_after_the_other_seats_narrow_answers(monkeypatch):
    from madang.tools import mcts

    g, seat, a = option_handing_over()
    asked = []

    def first_option(game, who, rng, scale, follow=0, *rest, **kw):
        asked.append(who)
        return 0

    monkeypatch.setattr(mcts, "greedy_index", first_option)
    after = g.clone()
    after.apply_action(a)
    other = after.current_player()
    alone = mcts.judge(g, a, seat, random.Random(1), 10.0, 3, 6, others=False)
    assert asked == [] and alone == rewards(after, 10.0)[seat]  # judged as it stands
    with_others = mcts.judge(g, a, seat, random.Random(1), 10.0, 1, 6, others=True)
    assert asked == [other]  # the other seat answered for itself (greedily), once: follow=1
    after.apply_action(0)
    assert with_others == rewards(after, 10.0)[seat]
    assert make_agent("greedy:others").others and not make_agent("greedy").others


@pytest.mark.slow
def test_greedy_cthulhu_factions_reach_six_spellbooks_and_a_winner():
    # The agents' issue: 4-player Cthulhu Wars played by greedy agents ends with a winner (a
    # faction holding all six spellbooks, rules.madang end_game), where random play never does.
    r = play_one(load_program("cthulhu_wars"), {"players": 4}, 105, ["greedy"] * 4, 100_000)
    assert r.get("winners"), r


def test_greedy_specs():
    assert make_agent("greedy").max_options == 12 and make_agent("greedy").follow == 3
    assert make_agent("greedy:options=5").max_options == 5
    assert make_agent("greedy:options=all").max_options is None
    assert make_agent("greedy:options=all:follow=0").follow == 0
    assert make_agent("greedy").follow_width == 6
    assert make_agent("greedy:width=2").follow_width == 2
    assert make_agent("greedy:options=all:width=all").follow_width > 10**6  # the former greedy


# ---------------------------------------------------------------- MCTS


def test_mcts_spends_its_budget_and_is_reproducible():
    g = advance(new_game("clash_of_decks", seed=6), 2)
    a, b = make_agent("mcts:20:depth=3"), make_agent("mcts:20:depth=3")
    assert a.decide(Decision(g)) == b.decide(Decision(g))
    assert a.last.done == 20
    visits = [row["visits"] for row in a.last.stats()]
    assert sum(visits) == 20
    assert a.last.best() == max(range(len(visits)), key=lambda i: (visits[i], -i))


def test_mcts_avoids_a_move_that_loses_at_once():
    # Twenty: taking the pile's total over the limit loses. Find positions where some options
    # lose at once and others do not; the search (no evaluation: playouts to the end) must not
    # pick a losing one.
    found = 0
    for seed in range(30):
        g = new_game(TWENTY, seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal() and found < 3:
            seat = g.current_player()
            losing = []
            for a in g.legal_actions():
                c = g.clone()
                c.apply_action(a)
                if c.is_terminal() and seat not in c.winners:
                    losing.append(a)
            if losing and len(losing) < len(g.legal_actions()):
                found += 1
                assert make_agent("mcts:40").decide(Decision(g)) not in losing
            g.apply_action(rng.randrange(len(g.legal_actions())))
        if found >= 3:
            return
    raise AssertionError("no position with a losing move found")


def test_mcts_with_a_time_budget():
    agent = make_agent("mcts:0.05s:depth=2")
    assert agent.seconds == 0.05 and agent.iterations is None
    g = new_game("clash_of_decks", seed=1)
    assert agent.decide(Decision(g)) in g.legal_actions()
    assert agent.last.done >= 1


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:x",
        "mcts:0",
        "mcts:depth=a",
        "mcts:c=",
        "greedy:3",
        "greedy:options=0",
        "greedy:follow=-1",
    ],
)
def test_bad_agent_specs_are_refused(spec):
    with pytest.raises(MadangError):
        make_agent(spec)


# ---------------------------------------------------------------- tournaments


def test_lineups_swap_seats():
    assert lineups(["a", "b", "c"], 2) == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    four = lineups(["a", "b"], 4)
    assert four == [(0, 1, 0, 1), (1, 0, 1, 0), (0, 1, 0, 1), (1, 0, 1, 0)]
    three_of_four = lineups(list("abcd"), 3)
    assert len(three_of_four) == 4 * 3
    with pytest.raises(MadangError):
        lineups(["a"], 2)


def test_ratings_reward_the_winner():
    r = Ratings(["x", "y"])
    for _ in range(5):
        r.game([0, 1], [0])
    a, b = r.report()
    key = "ordinal" if "ordinal" in a else "elo"
    assert a[key] > b[key]


def test_a_tournament_is_the_same_whatever_the_jobs():
    args = dict(agents=["random", "greedy"], games=2, seed=3)
    one = tournament("clash_of_decks", jobs=1, **args)
    two = tournament("clash_of_decks", jobs=2, **args)
    assert one["games"] == 4 and one["error_games"] == 0
    for x, y in zip(one["standings"], two["standings"]):
        assert (x["wins"], x["games"], x["rating"]) == (y["wins"], y["games"], y["rating"])
    assert one["head_to_head"] == two["head_to_head"]
    assert one["lineups"][0]["seats"] == ["random", "greedy"]
    assert one["lineups"][1]["seats"] == ["greedy", "random"]


def test_tournament_command(capsys):
    argv = ["tournament", "clash_of_decks", "--seats", "random,first", "--games", "1"]
    assert main([*argv, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "first" in out and "head to head" in out
    assert main([*argv, "--jobs", "1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and {r["agent"] for r in data["standings"]} == {"random", "first"}
    assert main(["tournament", "clash_of_decks", "--seats", "random,human", "--games", "1"]) == 1


def test_simulate_accepts_searching_agents(capsys):
    argv = ["simulate", "clash_of_decks", "--seats", "greedy,mcts:4:depth=2", "--games", "2"]
    assert main([*argv, "--jobs", "1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] == 2 and data["agents"] == ["greedy", "mcts:4:depth=2"]


def test_mcts_groups_a_wide_decision_by_kind_first():
    # group=N: at a decision of more than N options the tree picks the option's kind (its
    # label's first word) before the option, so 30 iterations reach every kind instead of
    # trying 30 options of whichever kinds come first.
    g = wide_decision()
    labels = g.action_labels()
    kinds = {option_kind(x) for x in labels}
    assert len(labels) > 30 and 2 <= len(kinds) < 30
    agent = make_agent("mcts:30:depth=2:group=12:prune=none")
    assert agent.group == 12 and make_agent("mcts:30:group=none").group is None
    choice = agent.decide(Decision(g))
    root = agent.last.root
    assert set(root.kinds) == kinds  # every kind was tried
    assert sum(k.visits for k in root.kinds.values()) == 30
    for kind, knode in root.kinds.items():  # a kind's visits are its options' visits
        assert knode.visits == sum(
            c.visits for label, c in root.children.items() if option_kind(label) == kind
        )
    assert choice == make_agent("mcts:30:depth=2:group=12:prune=none").decide(Decision(g))
    flat = make_agent("mcts:30:depth=2:group=none:prune=none")
    flat.decide(Decision(g))
    assert flat.last.root.kinds is None


def test_mcts_prune_searches_the_options_the_greedy_step_judges_best(monkeypatch):
    # prune=N: a root of more than N options searches only the N the greedy step judges best
    # in one sample (the ruleset's evaluation orders them; the search reads further).
    from madang.tools import mcts

    g = wide_decision()
    labels = g.action_labels()
    judged = []

    def value(a):
        return (hash64(11, a) % 1000) / 1000

    def fake_judge(game, a, *rest):
        judged.append(a)
        return value(a)

    monkeypatch.setattr(mcts, "judge", fake_judge)
    agent = make_agent("mcts:40:depth=2:prune=5:follow=0:rank=12")
    assert agent.prune == 5 and make_agent("mcts:4:prune=none").prune is None
    choice = agent.decide(Decision(g))
    assert len(judged) == mcts.GREEDY_OPTIONS  # once, at the root (rank=12; Cthulhu sets all)
    best_five = {labels[a] for a in sorted(judged, key=value, reverse=True)[:5]}
    assert set(agent.last.root.order[:5]) == best_five
    searched = {label for label, c in agent.last.root.children.items() if c.visits}
    assert searched == best_five and labels[choice] in best_five
    with pytest.raises(MadangError):
        make_agent("mcts:4:prune=0")


def test_a_turn_playout_ends_where_another_seat_decides():
    from madang.tools.mcts import playout

    g = advance(new_game("clash_of_decks", seed=5), 6)
    seat = g.current_player()
    c = g.clone()
    played = playout(c, random.Random(1), 50, seat=seat)
    assert played >= 1 and (c.is_terminal() or c.current_player() != seat)
    again = g.clone()  # the same decisions without the seat: it plays on past the turn
    assert playout(again, random.Random(1), 50) == 50 or again.is_terminal()
    agent = make_agent("mcts:10:turn")
    assert agent.turn and not make_agent("mcts:10:noturn").turn
    agent.decide(Decision(g))
    assert agent.last.turn and agent.last.playout_decisions >= 1


def test_mcts_plays_out_as_deep_as_the_ruleset_says():
    # settings.playout_depth: how far a search plays at random before the evaluation judges
    # (Cthulhu Wars 0, Clash of Decks 4); `depth=N` overrides it, the default is 20.
    from madang.tools.mcts import DEPTH, playout_depth

    cthulhu = new_game("cthulhu_wars", {"players": 2}, seed=1)
    clash = advance(new_game("clash_of_decks", seed=1), 2)
    assert (playout_depth(cthulhu), playout_depth(clash), DEPTH) == (0, 4, 20)
    assert playout_depth(new_game(TWENTY, seed=1)) == DEPTH
    agent = make_agent("mcts:6")
    agent.decide(Decision(clash))
    assert agent.last.depth == 4
    agent = make_agent("mcts:6:depth=7")
    agent.decide(Decision(clash))
    assert agent.last.depth == 7
    agent = make_agent("mcts:6:follow=0")  # (Cthulhu Wars' settings.mcts says follow=6)
    agent.decide(Decision(cthulhu))
    assert agent.last.depth == 0 and agent.last.playout_decisions == 0
