"""`doable(EVENT(ARGS))`: whether raising an event now would do anything, for a rule such as
"an activated effect none of whose actions can be done cannot be used" (a rulebook's clause, used from its ruleset).

The answer follows from the effect's own statements, not from a condition written per card:
each statement of the event's block and of the abilities that listen to it is compiled (at build
time, from the syntax tree) into a small test of the state that runs no statement. A statement
*acts* when it would change the game:

- `move X`, `remove X`, `modify X.P`, `grant K to X`: when X is an object or a non-empty list;
- `choose` (a choice needs a candidate) and `order`: when the list is not empty;
- `create`, `win`, `lose`, `tie`, `window`, and raising an event that has no block of its own;
- a verb call: when the verb's own block acts with those arguments (followed a few calls deep);
- `shuffle Z`: when Z holds two objects or more.

Assignments are bookkeeping (a counter that remembers a use, a flag that a loss is due) and never
act by themselves. `let` and assignments to local names are followed, `if` takes the branch its
condition picks, `for` tries its items until one acts (`repeat` and `while` their first round),
`require` and `return` stop the block. An
expression that cannot be computed here counts as acting (the test never forbids what it cannot
judge). A `choose` binds its name to the first candidates, so what follows reads a real object.
"""

from __future__ import annotations

from ..language import nodes as n
from ..runtime.acts import ACTS, BREAKS, GOES_ON, STOPS, EventActs, Test

DEPTH = 6  # verb calls followed inside one another; deeper calls count as acting


def _some(v) -> bool:
    return v is not None and v != [] and v != ()


def _guard(f):
    """A test that cannot compute its expression counts as acting."""

    def g(st, env):
        try:
            return f(st, env)
        except Exception:  # noqa: BLE001 - a read that fails here is judged "may act"
            return ACTS

    return g


class ActsBuilder:
    """Compiles statements into tests (the compiler's expressions, run on a copy of the local
    names). One per compilation; `event(name)` gives the test of raising `name`."""

    def __init__(self, compiler):
        self.c = compiler
        self.verb_tests: dict[str, Test] = {}
        self.listeners: dict[int, n.Block] = {}  # listener id -> its block (the compiler's)
        self.asked: set[str] = set()  # the events `doable` asks about
        self.pending: set[str] = set()  # the verbs a test calls

    # ---------------------------------------------------------------- blocks and statements
    def block(self, b: n.Block | None) -> Test:
        if b is None:
            return lambda st, env: GOES_ON
        tests = [self.stmt(s) for s in b.body]

        def run(st, env):
            for t in tests:
                r = t(st, env)
                if r != GOES_ON:
                    return r
            return GOES_ON

        return run

    def stmt(self, s) -> Test:
        ex = self.c.expr
        if isinstance(s, n.Let):
            f, name = ex(s.value), s.name
            return _guard(lambda st, env: env.__setitem__(name, f(st, env)) or GOES_ON)
        if isinstance(s, n.Assign):
            if isinstance(s.target, n.Name) and s.op == "=":
                f, name = ex(s.value), s.target.name
                return _guard(lambda st, env: env.__setitem__(name, f(st, env)) or GOES_ON)
            return lambda st, env: GOES_ON  # bookkeeping
        if isinstance(s, (n.Move, n.Remove)):
            f = ex(s.what)
            return _guard(lambda st, env: ACTS if _some(f(st, env)) else GOES_ON)
        if isinstance(s, n.Modify):
            f = ex(s.obj)
            return _guard(lambda st, env: ACTS if _some(f(st, env)) else GOES_ON)
        if isinstance(s, n.Grant):
            f = ex(s.to)
            return _guard(lambda st, env: ACTS if _some(f(st, env)) else GOES_ON)
        if isinstance(s, n.Choose):
            return self.choose(s)
        if isinstance(s, n.Order):
            f, name = ex(s.items), s.name

            def order(st, env):
                items = f(st, env)
                if not _some(items):
                    env[name] = []
                    return GOES_ON
                return ACTS

            return _guard(order)
        if isinstance(s, n.Shuffle):
            f = ex(s.zone)

            def shuffle(st, env):
                z = f(st, env)
                return ACTS if len(st.zones[z] if isinstance(z, int) else z) > 1 else GOES_ON

            return _guard(shuffle)
        if isinstance(s, (n.Create, n.Win, n.Lose, n.DrawGame, n.Window)):
            return lambda st, env: ACTS
        if isinstance(s, n.CallStmt):
            return self.call(self.c.s.verbs[s.verb].name, s.args)
        if isinstance(s, n.Emit):
            return self.call(self.c.s.events[s.event].name, s.args)
        if isinstance(s, n.Require):
            f = ex(s.cond)
            return _guard(lambda st, env: GOES_ON if f(st, env) else STOPS)
        if isinstance(s, (n.Return, n.End)):
            return lambda st, env: STOPS
        if isinstance(s, n.Break):
            return lambda st, env: BREAKS
        if isinstance(s, n.If):
            conds = [ex(c) for c, _ in s.branches]
            bodies = [self.block(b) for _, b in s.branches]
            orelse = self.block(s.orelse)

            def if_(st, env):
                for c, b in zip(conds, bodies):
                    if c(st, env):
                        return b(st, env)
                return orelse(st, env)

            return _guard(if_)
        if isinstance(s, n.For):
            f, name, body = ex(s.items), s.name, self.block(s.body)

            def for_(st, env):
                items = f(st, env)
                for x in st.zones[items] if isinstance(items, int) else items or ():
                    env[name] = x
                    r = body(st, env)
                    if r == BREAKS:
                        return GOES_ON
                    if r != GOES_ON:
                        return r
                return GOES_ON

            return _guard(for_)
        if isinstance(s, (n.Repeat, n.While)):
            test = ex(s.times) if isinstance(s, n.Repeat) else ex(s.cond)
            until = isinstance(s, n.While) and s.until
            body = self.block(s.body)

            def loop(st, env):
                v = test(st, env)
                go = (not v if until else v) if isinstance(s, n.While) else v > 0
                if not go:
                    return GOES_ON
                r = body(st, env)
                return GOES_ON if r == BREAKS else r

            return _guard(loop)
        if isinstance(s, (n.Hold, n.Scope)):
            return self.block(s.body)
        return lambda st, env: GOES_ON  # log, reveal, expire, pass

    def choose(self, s: n.Choose) -> Test:
        ex = self.c.expr
        f, name = ex(s.options), s.name
        lo = ex(s.min) if s.min is not None else None
        several = s.min is not None

        def choose(st, env):
            items = f(st, env)
            items = list(st.zones[items] if isinstance(items, int) else items or ())
            k = lo(st, env) if lo is not None else 1
            if not items or (several and k <= 0):
                env[name] = [] if several else None
                return GOES_ON  # nothing to pick: the choice itself does nothing
            env[name] = items[: max(k, 1)] if several else items[0]
            return ACTS

        return _guard(choose)

    # ---------------------------------------------------------------- verbs and events
    def call(self, verb: str, args) -> Test:
        fs = [self.c.expr(a) for a in args]
        names = self.c.p.verbs[verb].param_names
        tests = self.verb_tests
        self.pending.add(verb)

        def call(st, env):
            depth = env.get("@acts", 0)
            if depth >= DEPTH:
                return ACTS
            inner = {q: f(st, env) for q, f in zip(names, fs)}
            inner["you"] = env.get("you")
            inner["this"] = env.get("this")
            inner["@acts"] = depth + 1
            return ACTS if tests[verb](st, inner) == ACTS else GOES_ON

        return _guard(call)

    def close(self) -> dict[str, EventActs]:
        """The tests of the events `doable` asks about, with every verb they reach."""
        out: dict[str, EventActs] = {}
        while self.asked - set(out):  # a test may itself ask `doable`
            name = min(self.asked - set(out))
            vrt = self.c.p.verbs[name]
            sym = self.c.s.verbs.get(name)
            own = self.block(sym.decl.body) if sym is not None else None
            lsts = [
                (lst, self.block(self.listeners[lst.id]))
                for timing in ("before", "instead", "after", "when")
                for lst in vrt.listeners.get(timing, ())
                if lst.id in self.listeners
            ]
            out[name] = EventActs(own, lsts)
        while self.pending - set(self.verb_tests):
            for name in sorted(self.pending - set(self.verb_tests)):
                self.verb_tests[name] = lambda st, env: ACTS  # a call to itself acts
                sym = self.c.s.verbs.get(name)
                if sym is not None:  # an event without a block acts: it is news
                    self.verb_tests[name] = self.block(sym.decl.body)
        return out
