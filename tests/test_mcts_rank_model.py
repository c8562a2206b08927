"""How widely the search's greedy ranking judges (`mcts:N:rank=M|all`) and the opponent model
(`mcts:N:model`: another seat's decisions below the root take only its greedy choice).

Small budgets: these tests check what the search ranks and which edges its tree grows, never
strength (docs/agents.md measures that)."""

import pytest
from madang.game.api import MadangError, new_game
from madang.tools import mcts
from madang.tools.agents import Decision, make_agent
from madang.tools.nopeek import check, positions


def wide_position():
    """Two-player Cthulhu Wars at its first decision of more than GREEDY_OPTIONS options."""
    game = new_game("cthulhu_wars", {"players": 2}, seed=3)
    agent = make_agent("first")
    while len(game.legal_actions()) <= mcts.GREEDY_OPTIONS:
        game.apply_action(game.legal_actions()[agent.decide(Decision(game))])
    return game


def test_rank_all_judges_every_option_of_a_wide_root():
    game = wide_position()
    width = len(game.legal_actions())
    short = make_agent("mcts:4:depth=0:anchor=1:rank=12")
    short.decide(Decision(game))
    assert len(short.last.root.order) == mcts.GREEDY_OPTIONS < width
    full = make_agent("mcts:4:depth=0:anchor=1:rank=all")
    choice = full.decide(Decision(game))
    order = full.last.root.order
    assert sorted(order) == sorted(game.action_labels())
    # anchor=1: the answer is the best of every option, as `greedy:options=all` judges them
    d = Decision(game)
    assert choice == make_agent("greedy:options=all").decide(d) and order[0] == d.labels[choice]


def test_rank_specs(monkeypatch):
    assert make_agent("mcts:4").rank == mcts.GREEDY_OPTIONS
    assert make_agent("mcts:4:rank=all").rank is None
    assert make_agent("mcts:4:rank=20").rank == 20
    for bad in ("mcts:4:rank=0", "mcts:4:rank=x", "mcts:4:model=1"):
        with pytest.raises(MadangError):
            make_agent(bad)
    game = new_game("clash_of_decks", seed=2)
    assert make_agent("mcts:4").tuned(game).model is False
    assert make_agent("mcts:4").tuned(game).rank == mcts.GREEDY_OPTIONS
    # a ruleset may set both (Cthulhu Wars sets rank=all); the spec's own setting wins
    monkeypatch.setitem(game.st.g.prog.settings, "mcts", "rank=all:model")
    cfg = make_agent("mcts:6").tuned(game)
    assert cfg.rank is None and cfg.model is True
    assert make_agent("mcts:6:rank=5").tuned(game).rank == 5
    cthulhu = new_game("cthulhu_wars", {"players": 2}, seed=2)
    assert make_agent("mcts:4").tuned(cthulhu).rank is None


def test_the_model_grows_one_edge_at_the_other_seats_decisions(monkeypatch):
    # Record which seat decides at every node the search expands: with `model`, a node where
    # the other seat decides never has more than one child; without it, some have several.
    # `peek` keeps every sample the same, so the greedy choice ranked at a node is legal in
    # every sample (with hidden cards it may name a card a sample deals elsewhere: then the
    # greedy choice of that sample is taken, another edge).
    deciders: dict[int, int] = {}
    real_choose = mcts.Search.choose

    def choose(self, children, keys, player):
        deciders[id(children)] = player
        return real_choose(self, children, keys, player)

    monkeypatch.setattr(mcts.Search, "choose", choose)
    game = new_game("clash_of_decks", seed=4)
    seat = game.current_player()
    widest = {}
    for spec in ("mcts:60:depth=0:prune=none:peek", "mcts:60:depth=0:prune=none:peek:model"):
        deciders.clear()
        agent = make_agent(spec)
        agent.decide(Decision(game))
        most = 0
        stack = [agent.last.root]
        while stack:
            node = stack.pop()
            if deciders.get(id(node.children), seat) != seat:
                most = max(most, len(node.children))
            stack.extend(node.children.values())
        widest[spec] = most
    assert widest["mcts:60:depth=0:prune=none:peek:model"] == 1
    assert widest["mcts:60:depth=0:prune=none:peek"] > 1


def test_rank_and_model_do_not_peek():
    for g in positions("clash_of_decks", {}, seed=1, count=2, skip=5):
        report = check("mcts:8:depth=2:model:rank=all:anchor=0.05", g)
        assert report.tried and report.honest, report.changed
