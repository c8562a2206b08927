"""#34: `has` and `keyword_arg` skip the continuous grants of a keyword when this state holds no
object of a card that could grant it (`ContinuousEffects.may_grant`, `grant_plan`, kept per
state in `State.ko` until an object is made or a card changes), and a keyword's grant finds its
sources from the few objects of its cards (`effects.cards_objects`, `_granted_by`), not from a
pass over the zones. The answers must be those of the general lookup at every decision of the
bundled games, and a made object, a grant of a statement and a move must be seen."""

from __future__ import annotations

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import effects, setup
from madang.tools.simulate import pairings
from minirules import write_ruleset

RULES = (
    "kind unit:\n    hp: number\n"
    "zone top: per player, ordered, public, active\n"
    "zone low: per player, ordered, owner sees\n"
    "counter n = 0\ncounter m = 0\ncounter k = 0\ncounter j = 0\n"
    "keyword swift for unit\n"
    "keyword sure for unit\n"
    "keyword aura[ability: keyword] for unit:\n"
    "    grant ability to neighbours(this)\n\n"
    "flow:\n"
    '    create "A" in first(players).top\n'
    "    let a = first(first(players).top)\n"
    "    if a has swift:\n"
    "        n = n + 1\n"
    '    create "B" in first(players).top\n'
    "    if a has swift:\n"
    "        m = m + 1\n"
    "    move last(first(players).top) to first(players).low\n"
    "    if a has swift:\n"
    "        k = k + 1\n"
    "    grant sure to a\n"
    "    if a has sure:\n"
    "        j = j + 1\n"
)
CARDS = "cards: [{name: A, type: unit, hp: 1}, {name: B, type: unit, hp: 2, text: 'aura[swift]'}]\n"


def test_a_made_object_of_a_granting_card_and_its_move_are_seen(tmp_path):
    """`a has swift` is false while no object of the aura's card exists (kept so in
    `State.ko`), true once one is made beside it, false again once it leaves the active zone."""
    g = new_game(write_ruleset(tmp_path, RULES, CARDS), seed=1)
    c = g.st.counters
    assert (c["n"], c["m"], c["k"], c["j"]) == (0, 1, 0, 1)


def test_a_clone_shares_the_kept_objects_until_it_makes_one(tmp_path):
    g = new_game(write_ruleset(tmp_path, RULES, CARDS), seed=1)
    st = g.st
    prog = st.g.prog
    assert prog.may_grant(st, "swift") and st.ko is not None
    c = st.clone()
    assert c.ko is st.ko
    c.own_objects()  # (the rows a clone shares, copied before a write of its own)
    c.obj_card[c.obj_card.index(1)] = 0  # no object of B left (as a determinized sample)
    c.drop_props([0, 1], new_cards=True)
    assert c.ko is None and not prog.may_grant(c, "swift")
    assert prog.may_grant(st, "swift")


def _keywords(prog) -> list:
    out = {k for c in prog.cards for k in c.keywords}
    return sorted(out | set(prog.grant_index) | set(prog.implied_by))


def _answers(prog, st, kws) -> list:
    return [
        (o, kw, prog.has(st, o, kw), prog.keyword_args(st, o, kw))
        for o in range(len(st.obj_card))
        for kw in kws
    ]


def _general_sources_for(self, st, kw):
    """`StaticRT.sources_for` as it was: the objects in force found by a pass over the zones."""
    if self.kw_cards is None:
        return self.sources(st)
    cards = self.kw_cards.get(kw, ())
    out = [o for o in effects.acting(st) if st.obj_card[o] in cards]
    if st.grants:
        return out + self.prog.granted_holders(st, self.owner, self.card_set)
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_the_fast_answers_are_the_general_ones_at_every_decision(ruleset, monkeypatch):
    """Each object's `has` and keyword arguments for every keyword, with the decks cycled as
    `madang bench` plays them (Clash of Decks' aura cards are in decks 2-4)."""
    prog = load_program(ruleset)
    kws = _keywords(prog)
    free, combos = pairings(prog, {})
    granted = 0  # answers given by a continuous grant (not printed)
    for seed in range(4):
        opts = {k: list(v) for k, v in zip(free, combos[seed % len(combos)])}
        g = new_game(prog, opts, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        for _ in range(60):
            if st.over:
                break
            fast = _answers(prog, st, kws)
            printed = prog.cards
            granted += sum(h and kw not in printed[st.obj_card[o]].keywords for o, kw, h, _ in fast)
            kept, st.ko = st.ko, None
            with monkeypatch.context() as mp:
                mp.setattr(prog, "may_grant", lambda st, kw: True, raising=False)
                mp.setattr(prog, "grant_plan", lambda st, kw, depth=0: (True, None), raising=False)
                mp.setattr(effects.StaticRT, "sources_for", _general_sources_for)
                assert _answers(prog, st, kws) == fast
            st.ko = kept
            g.apply_action(rng.randrange(len(st.pending.values)))
    if ruleset == "clash_of_decks":
        assert granted  # the aura's grants were asked and found


BOOST = (
    "kind unit:\n    hp: number\n"
    "zone top: per player, ordered, public, active\n"
    "counter n = 0\n"
    "keyword swift for unit\n"
    'grant swift to first(players).top if option.boost == "on"\n\n'
    "flow:\n"
    '    create "A" in first(players).top\n'
    "    if first(first(players).top) has swift:\n"
    "        n = n + 1\n"
)


def test_a_games_work_does_not_depend_on_the_games_played_before_it(tmp_path):
    """`Game.grant_cards` (whether a grant that reads only options and data gives a keyword:
    its condition computed once a game, charging its work to that game) is each game's own,
    shared only by the states of one game (`State.ko`, effects.kept_by_cards): a second game
    of the same program, options and seed charges the same work as the first. Shared by the
    games of a program, it made a game's work, and so the budget's errors, depend on the games
    played before it in the process."""
    folder = write_ruleset(tmp_path, BOOST, "cards: [{name: A, type: unit, hp: 1}]\n")
    yaml = tmp_path / "ruleset.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8")
        + 'options:\n  boost:\n    default: "off"\n    values: ["off", "on"]\n',
        encoding="utf-8",
    )
    prog = load_program(folder)
    for b, want in (("off", 0), ("on", 1)):
        first = new_game(prog, {"boost": b}, seed=1).st
        assert ("fixed", prog.statics_grant[0].id) in first.g.grant_cards  # (this game's)
        assert setup.make_game(prog, {"boost": b}, 1).grant_cards == {}  # (the next finds it anew)
        second = new_game(prog, {"boost": b}, seed=1).st
        assert first.counters["n"] == second.counters["n"] == want
        assert first.ko["swift"][0] == second.ko["swift"][0] == bool(want)
