"""MCTS between moves and across processes: tree reuse (`mcts:N:reuse`), root parallelism
(`mcts:N:workers=K`) and evaluation-guided widening below the root (`mcts:N:widen=K`).

Small budgets: these tests check what is kept, merged and searched, never strength or speed."""

import random

import pytest
from madang.game.api import MadangError, new_game
from madang.tools import mcts
from madang.tools.agents import Decision, make_agent
from madang.tools.nopeek import same_view, variants


def consecutive(ruleset: str, options: dict, seed: int, spec: str, skip: int = 0):
    """A game at a decision after which `spec`'s choice leads to another decision of the same
    seat, with the agent that chose (so that it kept the subtree) and the choice."""
    game = new_game(ruleset, options, seed=seed)
    rng = random.Random(seed)
    for step in range(400):
        if step >= skip and len(game.legal_actions()) > 1:
            agent = make_agent(spec)
            d = Decision(game)
            choice = agent.decide(d)
            after = game.clone()
            after.apply_action(choice)
            if not after.is_terminal() and after.current_player() == d.seat:
                return game, agent, choice
        game.apply_action(rng.randrange(len(game.legal_actions())))
    raise AssertionError("no decision followed by the same seat's")


def test_reuse_keeps_the_chosen_options_subtree_with_its_visits():
    game, agent, choice = consecutive("cthulhu_wars", {"players": 2}, 3, "mcts:30:reuse")
    seat = game.current_player()
    label = game.action_labels()[choice]
    kept = agent.last.root.children[label]
    before = kept.visits
    assert before > 0 and agent.kept[2] is kept
    game.apply_action(choice)
    agent.decide(Decision(game))
    search = agent.last
    assert search.root is kept and search.reused == before
    assert search.root.visits == before + 30  # the kept visits and this search's
    assert game.current_player() == seat
    # without reuse the same decision starts from nothing
    fresh = make_agent("mcts:30")
    fresh.decide(Decision(game))
    assert fresh.last.reused == 0 and fresh.last.root.visits == 30


def test_reuse_keeps_nothing_when_another_seat_decided_in_between():
    game = new_game("clash_of_decks", seed=4)
    agent = make_agent("mcts:10:reuse")
    rng = random.Random(4)
    kept_and_used = after_others = 0
    for _ in range(80):
        if game.is_terminal():
            break
        d = Decision(game)
        if d.seat != 0:
            game.apply_action(rng.randrange(d.count))
            continue
        prev = agent.kept
        game.apply_action(agent.decide(d))
        search = agent.last
        if prev is not None and prev[0] + 1 == d.index:
            assert search.root is prev[2] and search.reused > 0
            kept_and_used += 1
        else:
            assert search.reused == 0 and search.root.visits == 10
            after_others += prev is not None
    assert kept_and_used > 0 and after_others > 0


def test_reuse_does_not_peek():
    # The agent decides at a decision and its variants (what the seat cannot see changed),
    # then, in each, at the seat's next decision from the subtree it kept: the same answers
    # and root statistics wherever the seat's view is still the same.
    game, _, _ = consecutive("cthulhu_wars", {"players": 2}, 5, "mcts:12:reuse", skip=30)
    seat = game.current_player()

    def two_answers(g):
        agent = make_agent("mcts:12:reuse")
        first = agent.decide(Decision(g))
        g = g.clone()
        g.apply_action(first)
        second = agent.decide(Decision(g))
        stats = [(r["label"], r["visits"], r["mean"]) for r in agent.last.stats()]
        return g, (first, second, stats, agent.last.reused)

    after, base = two_answers(game)
    assert base[3] > 0  # the second search started from the kept subtree
    tried = 0
    for _name, v in variants(game, seat):
        v_after, got = two_answers(v)
        if not same_view(after, v_after, seat):
            continue
        tried += 1
        assert got == base
    assert tried > 0


def test_parallel_workers_merge_their_root_counts_into_a_legal_move():
    game = new_game("clash_of_decks", seed=2)
    for _ in range(3):
        game.apply_action(0)
    agent = make_agent("mcts:20:workers=3")
    assert agent.workers == 3
    d = Decision(game)
    choice = agent.decide(d)
    assert 0 <= choice < d.count
    search = agent.last
    assert search.done == 60  # every worker's iterations
    own = sum(c.visits for c in search.root.children.values())
    merged = sum(v for v, _ in search.merged.values())
    assert own <= 20 and 20 < own + merged <= 60
    assert sum(r["visits"] for r in search.stats()) == own + merged
    assert choice == max(range(d.count), key=lambda a: (search.stats()[a]["visits"], -a))
    # the same answer and counts whether the workers ran in processes or here
    alone = make_agent("mcts:20:workers=3")

    def no_fork(method):
        raise ValueError(method)

    import multiprocessing

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(multiprocessing, "get_context", no_fork)
        assert alone.decide(Decision(game)) == choice
    assert alone.last.stats() == search.stats()
    # one worker is the plain search
    one = make_agent("mcts:20:workers=1")
    assert one.decide(Decision(game)) == make_agent("mcts:20").decide(Decision(game))
    assert not one.last.merged


def test_parallel_workers_do_not_peek():
    from madang.tools.nopeek import check, positions

    for g in positions("clash_of_decks", {}, seed=1, count=2, skip=5):
        report = check("mcts:8:workers=2", g)
        assert report.tried and report.honest, report.changed


def test_widen_searches_the_best_options_below_the_root(monkeypatch):
    # widen=K: below the root a decision wider than `prune` searches the K options the greedy
    # step ranks best for the seat deciding there, one more per square of the node's visits.
    g = new_game("cthulhu_wars", {"players": 2}, seed=3)
    rng = random.Random(0)
    while len(g.legal_actions()) <= 8:
        g.apply_action(rng.randrange(len(g.legal_actions())))
    agent = make_agent("mcts:60:widen=2:c=0.7")
    assert agent.widen == 2 and make_agent("mcts:4:widen=none").widen is None
    agent.decide(Decision(g))
    inner = [
        nd
        for child in agent.last.root.children.values()
        for nd in child.children.values()
        if nd.order is not None
    ] + [child for child in agent.last.root.children.values() if child.order is not None]
    assert inner, "no wide decision below the root was reached"
    for nd in inner:
        tried = [k for k in nd.children if nd.children[k].visits]
        assert set(tried) <= set(nd.order[: 2 + int(nd.visits**0.5)])
    with pytest.raises(MadangError):
        make_agent("mcts:4:widen=0")
    with pytest.raises(MadangError):
        make_agent("mcts:4:workers=0")
    assert mcts.WIDEN is None or mcts.WIDEN >= 1


def test_follow_completes_the_leafs_move_greedily():
    # follow=N: where the tree ends inside a move (its target, its destination, the answers it
    # sets going: decisions of at most FOLLOW_WIDTH options), the greedy step of the seat
    # deciding takes them before the evaluation judges, as the greedy agent judges an option.
    game, _, _ = consecutive("cthulhu_wars", {"players": 2}, 3, "mcts:20")
    plain = make_agent("mcts:20:depth=0:follow=0")
    plain.decide(Decision(game))
    assert plain.last.playout_decisions == 0  # depth 0: judged where the tree ends
    followed = make_agent("mcts:20:depth=0:follow=3")
    assert followed.follow == 3 and make_agent("mcts:4").follow == 0
    assert make_agent("mcts:4").tuned(game).follow == 6  # Cthulhu Wars' settings.mcts
    followed.decide(Decision(game))
    assert followed.last.playout_decisions > 0
    g = game.clone()
    g.apply_action(0)
    taken = mcts.follow_up(g, random.Random(1), 10.0, 5)
    assert 0 < taken <= 5
    if taken < 5 and not g.is_terminal():  # stopped at a wide decision
        assert len(g.legal_actions()) > mcts.FOLLOW_WIDTH
    with pytest.raises(MadangError):
        make_agent("mcts:4:follow=-1")


def test_widen_and_follow_do_not_peek():
    from madang.tools.nopeek import check, positions

    for g in positions("clash_of_decks", {}, seed=1, count=2, skip=5):
        report = check("mcts:8:depth=2:prune=3:widen=1:follow=2", g)
        assert report.tried and report.honest, report.changed


def test_a_rulesets_mcts_settings_are_the_defaults_of_its_searches(monkeypatch):
    # settings.mcts: how mcts searches this game unless its spec says otherwise.
    game = new_game("clash_of_decks", seed=2)
    monkeypatch.setitem(game.st.g.prog.settings, "mcts", "c=0.15:follow=2:prune=3")
    agent = make_agent("mcts:6:prune=5")
    cfg = agent.tuned(game)
    assert (cfg.c, cfg.follow, cfg.prune, cfg.iterations) == (0.15, 2, 5, 6)
    choice = agent.decide(Decision(game))
    assert 0 <= choice < len(game.legal_actions()) and agent.last.follow == 2
    assert agent.last.c == 0.15
    from madang.tools.agents import MCTSAgent

    assert MCTSAgent(iterations=6).tuned(game).c == 0.7  # made in code: its own settings only
    monkeypatch.setitem(game.st.g.prog.settings, "mcts", "workers=4")
    with pytest.raises(MadangError, match="may set only"):
        make_agent("mcts:6").decide(Decision(game))
