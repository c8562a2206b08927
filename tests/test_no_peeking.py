"""No agent peeks: on every bundled ruleset, the searching agents answer the same at a decision
whatever the seat cannot see (the unseen cards re-dealt whatever their kind, another opponent
deck, another generator), and the controls that read the real state do not (tools/nopeek.py).

Small budgets: the harness checks where an answer comes from, not how good it is."""

import random

import pytest
from madang.game.api import load_program, new_game
from madang.game.determinize import hidden_slots, public_of
from madang.tools.cli import main
from madang.tools.nopeek import check, other_deck, positions, redeal

# (ruleset, options, seed, positions, one every `skip` decisions)
GAMES = [
    ("clash_of_decks", {}, 1, 3, 5),
    ("nivel_arena", {}, 1, 3, 5),
    ("game_of_thrones_2p", {}, 1, 3, 5),
    ("cthulhu_wars", {"players": 2}, 2, 4, 30),
]
SLOW = {"game_of_thrones_2p", "cthulhu_wars"}
HONEST = ["mcts:12", "mcts:12:depth=4:group=4", "greedy"]


def _param(g):
    return pytest.param(*g, id=g[0], marks=[pytest.mark.slow] if g[0] in SLOW else [])


@pytest.mark.parametrize(("ruleset", "options", "seed", "count", "skip"), map(_param, GAMES))
def test_searching_agents_do_not_peek_and_the_controls_do(ruleset, options, seed, count, skip):
    games = positions(ruleset, options, seed=seed, count=count, skip=skip)
    assert len(games) == count
    caught = {"mcts:12:depth=4:peek": 0, "peeking": 0}
    for g in games:
        for spec in HONEST:
            report = check(spec, g)
            assert "redeal" in report.tried and "rng" in report.tried
            pub = public_of(g.st.g.prog)
            if pub.pool and not pub.decklists:
                assert "deck" in report.tried  # an opponent's deck is unseen too
            assert report.honest, (spec, g.st.decisions, report.changed)
        for spec in caught:
            caught[spec] += len(check(spec, g).changed)
    assert caught["peeking"] > 0
    if ruleset != "cthulhu_wars":  # there only elder signs are hidden: the search rarely cares
        assert caught["mcts:12:depth=4:peek"] > 0


def test_a_sample_redeals_unseen_cards_of_any_kind():
    # The leak: the kinds of the opponent's unseen cards stayed where they were. Two
    # states that differ only in which kind of card lies where the seat cannot see give the
    # same sample.
    g = positions("nivel_arena", {}, seed=3, count=1, skip=9)[0]
    seat = g.current_player()
    prog = g.st.g.prog
    kinds = {
        prog.cards[g.st.obj_card[g.st.zones[z][i]]].kind
        for slots in hidden_slots(g.st, seat).values()
        for z, i in slots
    }
    assert len(kinds) > 1  # the unseen cards are of several kinds
    for k in range(5):
        other = redeal(g, seat, random.Random(k))
        assert other.observation(seat) == g.observation(seat)
        a = g.determinize(seat, random.Random(7))
        b = other.determinize(seat, random.Random(7))
        assert a.st.to_data() == b.st.to_data()


def test_clash_life_is_not_peeked():
    # Clash of Decks: the opponent's watchtower lies in its hand; its place there is its life
    # (evaluation.madang), which the seat does not see. Samples put it anywhere in that hand.
    g = positions("clash_of_decks", {}, seed=1, count=1, skip=3)[0]
    seat = g.current_player()
    st = g.st
    hand = st.g.zone_base["hand"] + (1 - seat)
    towers = {
        [st.g.prog.cards[s.st.obj_card[o]].kind for o in s.st.zones[hand]].index("tower")
        for s in (g.determinize(seat, random.Random(k)) for k in range(40))
    }
    assert len(towers) > 3


def test_an_opponents_unseen_cards_come_from_a_deck_that_fits_what_is_seen():
    # Nivel Arena does not declare decklists public: the opponent's unseen cards are drawn from
    # one of the five starter decks that holds every card of it the seat sees (its leader
    # names the deck), never read from its real deck.
    g = new_game("nivel_arena", {"deck": "ST01,ST03"}, seed=3)
    rng = random.Random(0)
    while g.current_player() != 0 or g.st.decisions < 10:
        g.apply_action(rng.randrange(len(g.legal_actions())))
    st = g.st
    prog = st.g.prog
    st3 = sorted(prog.card_index[x] for x in prog.meta["data"]["decks"]["ST03"]["cards"])
    changed = other_deck(g, 0, random.Random(1))
    assert changed is not None
    for k in range(5):
        s = changed.determinize(0, random.Random(k))
        assert s.st.to_data() == g.determinize(0, random.Random(k)).st.to_data()
        opp = [
            s.st.obj_card[o]
            for z in (st.g.zone_base["deck"] + 1, st.g.zone_base["hand"] + 1)
            for o in s.st.zones[z]
        ]
        left = list(st3)
        for card in opp:
            left.remove(card)  # every unseen card is one of ST03's


def test_game_of_thrones_declares_decklists_and_plots_public():
    pub = public_of(load_program("game_of_thrones_2p"))
    assert pub.decklists and pub.kinds == {"플롯"}
    for ruleset in ("clash_of_decks", "nivel_arena", "cthulhu_wars"):
        pub = public_of(load_program(ruleset))
        assert not pub.decklists and not pub.kinds


def test_a_public_kind_that_is_no_kind_is_a_located_error(tmp_path, capsys):
    import shutil

    folder = tmp_path / "twenty"
    shutil.copytree("docs/examples/twenty", folder)
    meta = (folder / "ruleset.yaml").read_text(encoding="utf-8")
    meta = meta.replace("settings:\n", "settings:\n  public: {kinds: [ghost]}\n")
    (folder / "ruleset.yaml").write_text(meta, encoding="utf-8")
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "ruleset.yaml:" in out and "public kind 'ghost'" in out
    meta = meta.replace("public: {kinds: [ghost]}", "public: {decks: true}")
    (folder / "ruleset.yaml").write_text(meta, encoding="utf-8")
    assert main(["check", str(folder)]) == 1
    assert "decks" in capsys.readouterr().out
