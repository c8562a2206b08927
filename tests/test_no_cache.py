"""Issue #34: an enumerator is always given a cache, a listing's dict or `engine.NO_CACHE`
where the listing shares none (a window's one action, an object's own options), so it tests
for none at no call (`d = cache.get(K)`, `cache[K] = d`, no `cached = cache is not None`).
`NO_CACHE` keeps nothing, as no cache did: the same options, states and work."""

from __future__ import annotations

import random

from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from playthrough import enumerator_code


def test_no_cache_keeps_nothing():
    E.NO_CACHE["k"] = [1]
    assert E.NO_CACHE.get("k") is None and not E.NO_CACHE
    # Clash of Decks' spell window lists its one action with NO_CACHE, whose two domains have
    # keys: each computed at each listing, none kept in it
    prog = load_program("clash_of_decks")
    one = [w for w in prog.stmts if type(w) is E.Window and w.one is not None]
    code = enumerator_code(prog, "cast")
    assert one and "    cache[" in code and "cached" not in code and "you_ = env['you']" in code
    g, rng = new_game(prog, seed=2, memory=False), random.Random(2)
    while not g.st.over:
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    assert not E.NO_CACHE and type(E.NO_CACHE) is not dict
