"""#34: counts and comparisons written with fewer calls, the same work charged
(`codegen.NUMBER_ARGS`, `COUNTS_JOINED`): a parameter of a definition written inline is a
number never none where its argument is one (no `_ge`); a definition's counts of one list
parameter by tests it always computes are made in one pass, their charges joined, and the
body is made again charged one by one where the budget is passed after it. The code must
play the same games as the general code, charging the same work, and raise the same error
with the same work at every budget."""

from __future__ import annotations

from madang.build import codegen
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime.budget import OutOfBudget
from minirules import write_ruleset
from playthrough import decisions

FLAGS = ("NUMBER_ARGS", "COUNTS_JOINED")

CARDS = (
    "cards:\n  - {name: A, type: unit, hp: 1}\n  - {name: B, type: unit, hp: 2}\n"
    "  - {name: C, type: unit, hp: 4}\n"
)
RULES = """\
kind unit:
    hp: number
zone top: per player, ordered, owner sees
counter n = 0
counter m = 0
counter gold: per player = 0
define tally(l: list of card, p: player) = count(l where it.name == "A") * 100 + count(l where it.name == "B") * 10 + (if p.gold > 0 then count(l where it.name == "C") else 0) + count(l where it.hp > 1) * 1000 + (if count(l where it.name == "A") > 1 then 10000 else 0)
define cost(p: player, x: number) = max(x - p.gold, 0)
define able(p: player, c: number) = p.gold > 0 and p.gold >= c
flow:
    for p in players:
        create A in p.top
        create B in p.top
        create A in p.top
        create C in p.top
    n = tally(objects(first(players).top), first(players))
    first(players).gold = 2
    m = tally(objects(first(players).top), first(players))
    if able(first(players), cost(first(players), 3)):
        n = n + 100000
    repeat 2 times:
        for p in players:
            turn p:
                window act by p once

action pay(q: player from players) in act:
    require able(you, cost(you, 3)) and q == you
    m += 1
"""


def _code(prog) -> str:
    code = [s.fn.generated for b in prog.blocks for s in b if getattr(s.fn, "generated", None)]
    code += [a.fast_enum.generated for a in prog.actions if a.fast_enum is not None]
    return "\n".join(code)


def _namespace(prog) -> dict:
    return next(s.fn.__globals__ for b in prog.blocks for s in b if hasattr(s.fn, "generated"))


def _general(monkeypatch) -> None:
    for flag in FLAGS:
        monkeypatch.setattr(codegen, flag, False)


def _game(tmp_path, name):
    (tmp_path / name).mkdir()
    return new_game(write_ruleset(tmp_path / name, RULES, CARDS, name=name), seed=1)


def test_the_joined_counts_compute_what_the_general_code_does(tmp_path, monkeypatch):
    fast = _game(tmp_path, "f")
    ns = _namespace(fast.st.g.prog)
    joined = [k for k in ns if k.endswith("_x") and k[:-2] in ns]
    assert len(joined) == 1  # tally's, its general body beside it
    fn = ns[joined[0][:-2]].generated
    assert "nj0_ = nj1_ = 0" in fn  # A (twice: one count), B; `hp > 1` left as written
    assert "3 * len(_a0)" in fn and "_name_is_C" in fn.split("try:")[1]  # C: only if gold
    assert "_ge(" not in _code(fast.st.g.prog)
    monkeypatch.undo()
    _general(monkeypatch)
    general = _game(tmp_path, "g")
    ns = _namespace(general.st.g.prog)
    assert not [k for k in ns if k.endswith("_x") and k[:-2] in ns]
    assert "_ge(" in _code(general.st.g.prog)
    assert (fast.st.counters["n"], fast.st.counters["m"]) == (112210, 12211)
    for seed in range(3):
        assert decisions(fast.st.g.prog, seed) == decisions(general.st.g.prog, seed)


def test_a_joined_count_raises_as_the_counts_one_by_one_at_every_budget(tmp_path):
    g = _game(tmp_path, "b")
    ns = _namespace(g.st.g.prog)
    name = next(k[:-2] for k in ns if k.endswith("_x") and k[:-2] in ns)
    fast, general = ns[name], ns[name + "_x"]
    st, units = g.st, list(g.st.zones[g.st.g.zone_base["top"]])
    st.pcounters["gold"][0] = 1
    work = st.work
    for limit in range(work, work + 30):
        seen = []
        for fn, charged in ((fast, 1), (general, 0)):
            st.work, st.work_limit = work - charged, limit  # `_x` has no entry charge
            try:
                seen.append((fn(st, units, 0), st.work))
            except OutOfBudget as e:
                seen.append((str(e), st.work))
        assert seen[0] == seen[1], limit
    assert isinstance(seen[0][0], int)  # the last budgets pass


def test_the_written_code_plays_cthulhu_wars_as_the_general_code(monkeypatch):
    fast = load_program("cthulhu_wars")
    _general(monkeypatch)
    general = api._load_cached.__wrapped__(str(fast.folder), ())
    code = "\n".join(fn.generated for fn in _namespace(fast).values() if hasattr(fn, "generated"))
    slow = "\n".join(
        fn.generated for fn in _namespace(general).values() if hasattr(fn, "generated")
    )
    assert "nj0_" in code and "nj0_" not in slow
    for seed in range(2):
        assert decisions(fast, seed) == decisions(general, seed)  # the same states and work
