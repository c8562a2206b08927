"""MCTS rewards judged against the root (`mcts:N:relative`) and the evaluation's squashing width
(`mcts:N:scale=X`): a seat far ahead or behind still tells its options apart.

Small budgets: these tests check what the rewards and the root statistics are, never strength."""

import pytest
from madang.game.api import MadangError, new_game
from madang.tools import mcts
from madang.tools.agents import Decision, make_agent
from madang.tools.nopeek import check, positions


def test_relative_rewards_are_a_half_where_the_iteration_started():
    game = new_game("clash_of_decks", seed=4)
    base = mcts.differences(game)
    assert base is not None and len(base) == 2 and base[0] == -base[1]
    assert mcts.relative_rewards(game, 10.0, base) == [0.5, 0.5]
    # the same position judged against a base where seat 0 stood 5 points better: it lost ground
    worse = mcts.relative_rewards(game, 10.0, [base[0] + 5.0, base[1] - 5.0])
    assert worse[0] < 0.5 < worse[1] and abs(worse[0] + worse[1] - 1.0) < 1e-12
    assert mcts.relative_rewards(game, 10.0, None) == mcts.rewards(game, 10.0)


def test_a_seat_far_behind_still_tells_gains_apart(monkeypatch):
    # Absolute rewards squash a 60-point deficit to about 0 whatever an option gains; judged
    # against the root, a gain of 1 or 3 points shows.
    game = new_game("clash_of_decks", seed=4)
    scores = {0: 0.0, 1: 60.0}
    monkeypatch.setattr(mcts, "score_of", lambda g, p: scores[p])
    base = mcts.differences(game)
    assert base == [-60.0, 60.0]
    absolute = []
    relative = []
    for gain in (1.0, 3.0):
        scores[0] = gain
        absolute.append(mcts.rewards(game, 10.0)[0])
        relative.append(mcts.relative_rewards(game, 10.0, base)[0])
    assert absolute[1] - absolute[0] < 1e-4
    assert relative[1] - relative[0] > 0.05 and relative[0] > 0.5
    # a wider scale squashes less, in both
    assert mcts.rewards(game, 40.0)[0] > mcts.rewards(game, 10.0)[0]


def test_relative_and_scale_specs():
    agent = make_agent("mcts:4:relative:scale=30")
    assert agent.relative is True and agent.scale == 30.0
    assert make_agent("mcts:4").relative is False and make_agent("mcts:4").scale == 10.0
    assert make_agent("mcts:4:relative:absolute").relative is False
    for bad in ("mcts:4:scale=0", "mcts:4:scale=-2", "mcts:4:scale=x", "mcts:4:relative=1"):
        with pytest.raises(MadangError):
            make_agent(bad)


def test_a_relative_search_centres_its_root_on_the_position(monkeypatch):
    # With the evaluation far from even at the root, absolute means sit near 0 for the seat
    # behind; relative ones near ½, and they come from the search (settings passed through).
    game = new_game("clash_of_decks", seed=4)
    seat = game.current_player()
    monkeypatch.setattr(mcts, "score_of", lambda g, p: -80.0 if p == seat else 0.0)
    means = {}
    for spec in ("mcts:24:depth=0:prune=none", "mcts:24:depth=0:prune=none:relative:scale=20"):
        agent = make_agent(spec)
        agent.decide(Decision(game))
        assert agent.last.relative == ("relative" in spec)
        assert agent.last.scale == (20.0 if "relative" in spec else 10.0)
        vals = [s["mean"] for s in agent.last.stats() if s["visits"]]
        means[spec] = sum(vals) / len(vals)
    assert means["mcts:24:depth=0:prune=none"] < 0.01
    assert 0.4 < means["mcts:24:depth=0:prune=none:relative:scale=20"] < 0.6


def test_a_ruleset_may_set_relative_and_scale(monkeypatch):
    game = new_game("clash_of_decks", seed=2)
    monkeypatch.setitem(game.st.g.prog.settings, "mcts", "relative:scale=25")
    cfg = make_agent("mcts:6").tuned(game)
    assert cfg.relative is True and cfg.scale == 25.0
    assert make_agent("mcts:6:absolute").tuned(game).relative is False


def test_relative_search_does_not_peek():
    for g in positions("clash_of_decks", {}, seed=1, count=2, skip=5):
        report = check("mcts:8:depth=2:relative:scale=20", g)
        assert report.tried and report.honest, report.changed


def test_an_anchored_search_keeps_the_greedy_choice_unless_beaten_by_the_margin():
    # anchor=X: the root's ranking is made as the greedy agent makes it (same sample, same
    # generator), so with a margin no mean can beat (rewards lie in [0, 1]) the search answers
    # as `greedy` does; with margin 0 it takes the most visited option whenever that is
    # better on average than the greedy one.
    g = new_game("cthulhu_wars", {"players": 2}, seed=3)
    for game in positions("clash_of_decks", {}, seed=2, count=3, skip=4) + [g]:
        d = Decision(game)
        greedy = make_agent("greedy").decide(d)
        anchored = make_agent("mcts:12:depth=0:anchor=1")
        assert anchored.decide(Decision(game)) == greedy
        assert anchored.last.root.order[0] == d.labels[greedy]
        free = make_agent("mcts:12:depth=0:anchor=0")
        choice = free.decide(Decision(game))
        search = free.last
        most = max(range(d.count), key=lambda a: (search.counted(d.labels[a])[0], -a))
        if choice != most:  # kept the greedy choice: the most visited is no better on average
            assert choice == greedy
            v, t = search.counted(d.labels[most])
            va, ta = search.counted(d.labels[greedy])
            assert t / v <= ta / va
    for bad in ("mcts:4:anchor=-1", "mcts:4:anchor=x"):
        with pytest.raises(MadangError):
            make_agent(bad)
    assert make_agent("mcts:4:anchor=none").anchor is None and make_agent("mcts:4").anchor is None


def test_an_anchored_search_does_not_peek():
    for g in positions("clash_of_decks", {}, seed=1, count=2, skip=5):
        report = check("mcts:8:depth=2:relative:anchor=0.02", g)
        assert report.tried and report.honest, report.changed
