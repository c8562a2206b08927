"""Long random play over every bundled ruleset: invariants after every action (issue: engine,
"Bad input and robustness"), save/load round trips, clones, and determinism."""

import random

import pytest
from madang.runtime.api import GameState, load_program, new_game
from madang.runtime.loader import bundled_names

MODES = {
    "clash_of_decks": [
        {},
        {"format": "draft"},
        {"format": "instant"},
        {"mode": "solo"},
        {"mode": "solo", "format": "draft", "difficulty": "mythic", "automa_fixed_mana": "8",
         "automa_ability": "관통", "fortress_start": "true", "automa_defence": "true"},
        {"attack_order": "nearest_first", "lethal": "greater_than", "spells_in_assault": "false"},
    ],
    "nivel_arena": [{}, {"trigger_activation": "always", "concession": "true"}],
    "game_of_thrones_2p": [{}, {"plot_draft": "true", "houses": "lannister,stark"}],
    "cthulhu_wars": [
        {},
        {"players": "3", "no_retreat": "one", "abandon": "false"},
        {"players": "4", "earth_map": "earth53"},
    ],
}  # fmt: skip


def cases():
    for name in bundled_names():
        for opts in MODES.get(name, [{}]):
            yield pytest.param(
                name,
                opts,
                id=f"{name}-{'-'.join(f'{k}={v}' for k, v in opts.items()) or 'default'}",
            )


def check_invariants(g: GameState) -> None:
    st = g.st
    seen = {}
    for z, objs in enumerate(st.zones):
        for o in objs:
            assert o not in seen, f"object {o} in two zones"
            seen[o] = z
    for o, z in enumerate(st.obj_zone):
        if z >= 0:
            assert seen.get(o) == z, f"object {o} lost from zone {st.g.zone_label(z)}"
        else:
            assert o not in seen
    if not st.over:
        assert g.legal_actions(), "a decision with no option"


@pytest.mark.parametrize("name,opts", list(cases()))
def test_random_games_keep_invariants_and_round_trip(name, opts):
    prog = load_program(name)
    for seed in range(25):
        g = new_game(prog, opts, seed=seed)
        rng = random.Random(seed)
        created = len(g.st.obj_card)
        steps = 0
        while not g.is_terminal():
            check_invariants(g)
            assert len(g.st.obj_card) >= created
            created = len(g.st.obj_card)
            if steps % 7 == 3:
                h = GameState.from_json(g.to_json())
                assert h.to_json() == g.to_json()
                c = g.clone()
                a = rng.randrange(len(g.legal_actions()))
                for s in (g, h, c):
                    s.apply_action(a)
                assert h.digest() == g.digest() == c.digest()
            else:
                g.apply_action(rng.randrange(len(g.legal_actions())))
            steps += 1
            assert steps < 5000, "the game did not end"
        check_invariants(g)
        assert sum(g.returns()) <= 1.0


@pytest.mark.parametrize("name", bundled_names())
def test_same_seed_same_game(name):
    def run():
        g = new_game(name, {}, seed=42, log=True)
        rng = random.Random(7)
        while not g.is_terminal():
            g.apply_action(rng.randrange(len(g.legal_actions())))
        return g.st.log, g.digest()

    assert run() == run()


@pytest.mark.parametrize("name", bundled_names())
def test_generated_code_and_reference_closures_agree(name, monkeypatch):
    """The code generator (with fused statements) and the plain closure compiler give the same
    games: the same log of events, decisions and results."""
    from madang.runtime.api import _load_cached

    def digests():
        _load_cached.cache_clear()
        prog = load_program(name)
        out = []
        for seed in range(5):
            g = new_game(prog, {}, seed=seed, log=True)
            rng = random.Random(seed)
            while not g.is_terminal():
                g.apply_action(rng.randrange(len(g.legal_actions())))
            out.append((g.winners, g.st.decisions, g.st.log))
        return out

    fast = digests()
    monkeypatch.setenv("MADANG_CLOSURES", "1")
    slow = digests()
    _load_cached.cache_clear()
    assert fast == slow
