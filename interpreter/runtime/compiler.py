"""Checked AST → a `Program` of closures and statement objects: no tree walking while playing.

Names were resolved by the checker (side tables in `Resolved`); the compiler only turns each
node into the closure or runtime statement that does its job, and folds constants.
"""

from __future__ import annotations

from typing import NamedTuple

from ..language import nodes as n
from ..language.checker import Resolved
from ..language.symbols import ANY, CONDITION, OBJECT, Ability, CardSym, Symbols, type_name
from . import budget
from . import engine as E
from .builtins import RulesError


class VerbRT:
    """A verb or event at run time: parameters, body block, and who listens to it."""

    __slots__ = ("name", "param_names", "param_types", "body", "listeners", "listened", "narration")

    def __init__(self, name, params, body, narration=None):
        self.name = name
        self.param_names = [p.name for p in params]
        self.param_types = [p.type for p in params]
        self.body = body
        self.listeners: dict[str, list] = {}
        self.listened = False
        self.narration = narration

    def rule_names(self, st):
        return [lst.rule for ls in self.listeners.values() for lst in ls]


_PRESENT = ("objects by card",)  # the key of E.objects_by_card in an enumeration's cache


class ListenerRT:
    __slots__ = (
        "id",
        "origin",
        "owner",
        "binds",
        "param_names",
        "cond",
        "body",
        "limit",
        "rule",
        "kw_params",
        "card_index",
        "prog",
        "optional",
        "optional_by",
        "short",
        "requires",
    )

    def applies_to(self, st, o):
        if self.origin == "card":
            return st.obj_card[o] == self.card_index
        return self.prog.has(st, o, self.owner)

    def bind_params(self, st, src, env):
        if self.kw_params:
            args = self.prog.keyword_args(st, src, self.owner)
            for name, v in zip(self.kw_params, args):
                env[name] = v


_MISSING = object()


class StaticRT:
    """A continuous effect of an ability: while its source is in an active zone."""

    __slots__ = (
        "id",
        "origin",
        "owner",
        "card_index",
        "kw_params",
        "target",
        "value",
        "cond",
        "prop",
        "grant",
        "args",
        "op",
        "prog",
        "card_set",
    )

    def sources(self, st):
        """The objects whose copy of this ability is in force (None for the rules' own)."""
        if self.origin == "global":
            return [None]
        cards = self.card_set
        obj_card = st.obj_card
        out = [o for z in st.g.active_zones for o in st.zones[z] if obj_card[o] in cards]
        if self.origin == "keyword" and st.grants:
            out += self.prog.granted_holders(st, self.owner, cards)
        return out

    def env_for(self, st, src):
        if src is None:
            return {"you": st.active}
        env = {"this": src, "you": st.obj_owner[src]}
        if self.kw_params:
            args = self.prog.keyword_args(st, src, self.owner)
            for name, v in zip(self.kw_params, args):
                env[name] = v
        return env

    def grants_to(self, st, o, kw):
        """The arguments with which this continuous `grant` gives `kw` to `o`, or None."""
        for src in self.sources(st):
            env = self.env_for(st, src)
            if self.value(st, env) == kw and self.hits(st, env, o):
                return [a(st, env) for a in self.args] if self.args else []
        return None

    def hits(self, st, env, o) -> bool:
        cache = self.prog.read_cache
        if cache is not None:  # one state, read many times: each target computed once
            key = (self.id, env.get("this"))
            t = cache.get(key, _MISSING)
            if t is _MISSING:
                t = cache[key] = (
                    False
                    if self.cond is not None and not self.cond(st, env)
                    else self.target(st, env)
                )
            if t is False:
                return False
        else:
            if self.cond is not None and not self.cond(st, env):
                return False
            t = self.target(st, env)
        return o in t if isinstance(t, list) else o == t


class ActionRT:
    __slots__ = (
        "dom_keys",
        "id",
        "name",
        "param_names",
        "param_types",
        "domains",
        "body",
        "origin",
        "owner",
        "card_index",
        "prog",
        "limit",
        "fast_enum",
        "costs",
    )

    def used_key(self, st, player, src):
        """`once per S`: per source object for a card's action, per player for the rules'."""
        return (f"a{self.id}", player if src is None else src, E.scope_name(st, self.limit))

    def enumerate(self, st, player, values, cache=None):
        if self.origin == "global":
            sources = [None]
        elif self.origin == "card":
            present = cache.get(_PRESENT) if cache is not None else None
            if present is None:
                present = E.objects_by_card(st)
                if cache is not None:
                    cache[_PRESENT] = present
            owner = st.obj_owner
            sources = [o for o in present.get(self.card_index, ()) if owner[o] == player]
        else:
            prog = self.prog
            sources = [
                o for z in st.g.active_zones for o in st.zones[z]
                if st.obj_owner[o] == player and prog.has(st, o, self.owner)
            ]  # fmt: skip
        if self.limit is not None and st.used:
            sources = [s for s in sources if self.used_key(st, player, s) not in st.used]
        fast = self.fast_enum
        start = len(values)
        for src in sources:
            env = {"you": player}
            if src is not None:
                env["this"] = src
            fast(st, env, src, values, cache if src is None else None)
        if self.costs and len(values) > start:
            values[start:] = [v for v in values[start:] if self.payable(st, v[1], player)]

    def costs_on(self, st, args, player) -> list:
        """The additional costs (`cost ACTION(...)`) that apply to taking this action with
        `args`: (ability, environment) pairs. A cost on a card applies while the card is in an
        active zone or is one of the action's arguments (a card's cost to be played)."""
        out = []
        prog = self.prog
        for lst in self.costs:
            if lst.origin == "global":
                sources = [None]
            else:
                if lst.origin == "card":
                    sources = [o for o in E.objects_by_card(st).get(lst.card_index, ())]
                    for a in args:
                        if type(a) is int and a < len(st.obj_card) and a not in sources:
                            if st.obj_card[a] == lst.card_index:
                                sources.append(a)
                else:
                    sources = [
                        o
                        for z in st.g.active_zones
                        for o in st.zones[z]
                        if prog.has(st, o, lst.owner)
                    ]
            for src in sources:
                env = {b: a for b, a in zip(lst.binds, args)}
                if src is None:
                    env["you"] = player
                else:
                    env["this"] = src
                    env["you"] = st.obj_owner[src]
                    lst.bind_params(st, src, env)
                if lst.cond is None or lst.cond(st, env):
                    out.append((lst, env))
        return out

    def payable(self, st, args, player) -> bool:
        return all(
            all(r(st, env) for r in lst.requires) for lst, env in self.costs_on(st, args, player)
        )


class CardRT:
    __slots__ = ("name", "kind", "props", "keywords", "index", "traits", "extra")

    def __init__(self, name, kind, props, keywords, index, traits, extra):
        self.name, self.kind, self.props, self.keywords = name, kind, props, keywords
        self.index, self.traits, self.extra = index, traits, extra


class DeckRule(NamedTuple):
    """A compiled `rule`: `cond(st, env)` holds for a legal deck; `over` lists what `var` runs over."""

    label: str
    var: str | None
    over: object
    cond: object
    span: object


class Program:
    """A compiled ruleset: everything needed to run games of it."""

    def __init__(self, syms: Symbols, meta: dict):
        self.syms = syms
        self.meta = meta
        self.name = meta.get("name", "")
        self.blocks: list[tuple] = []
        self.stmts: list = []
        self.empty_block = self.add_block(())
        self.verbs: dict[str, VerbRT] = {}
        self.actions: list[ActionRT] = []
        self.window_actions: dict[str, list[ActionRT]] = {}
        self.cards: list[CardRT] = []
        self.card_index: dict[str, int] = {}
        self.kinds: dict[str, str] = dict(syms.canonical)
        self.zones = {z.name: z for z in syms.unique(syms.zones)}
        self.counters = {c.name: c for c in syms.unique(syms.counters)}
        self.checks: list = []
        self.deck_rules: list[DeckRule] = []
        self.holds = False  # some `hold:` block exists: triggers look for one on the stack
        self.batch_hold = None  # settings.new_triggers_wait: the Hold of a batch's waiting frame
        self.statics_prop: dict[str, list[StaticRT]] = {}
        self.static_cards: dict[str, frozenset] = {}  # property -> cards with a modifier of it
        self.statics_grant: list[StaticRT] = []
        self.modified_props: set[str] = set()
        self._reading: set = set()  # (object, property) values being computed: cycle guard
        # While the state cannot change (the conditions of the state checks are evaluated one
        # after another), modified values and the targets of continuous effects are kept here.
        self.read_cache: dict | None = None
        self.setup_block = self.empty_block
        self.flow_block = self.empty_block
        self.counter_defaults: dict[str, object] = {}
        self.conditions: list = []  # compiled condition arguments of keywords
        self.costs: dict[str, list] = {}  # action name -> its additional costs (`cost A(...)`)
        self.settings = meta.get("settings") or {}
        # an object's triggered ability needs its source where it was when it triggered
        self.source_must_remain = bool(self.settings.get("source_must_remain"))
        self.listener_by_id: dict[int, ListenerRT] = {}
        # `trigger_order: chosen`: who orders simultaneous triggers (f(st) -> player)
        self.trigger_chooser = lambda st: st.first

    def compile_snippet(self, text: str, local_types: dict, file: str = "<snippet>") -> int:
        """Compile statements written in the language against this program (scenario tests
        start games this way). Raises SnippetError with rendered diagnostics."""
        from ..language.checker import Checker, Scope
        from ..language.diagnostics import Diagnostics
        from ..language.parser import Origin, parse_module

        diags = Diagnostics()
        body_lines = text.strip("\n").splitlines() or ["pass"]
        src = "flow:\n" + "\n".join("    " + ln for ln in body_lines) + "\n"
        diags.add_source(file, "\n".join(body_lines) + "\n")
        mod = parse_module(src, Origin(file, line=0, col=1, indent=-3), diags)
        if mod is None or diags.has_errors():
            raise SnippetError(diags.render())
        body = mod.decls[0].body
        checker = Checker(self.syms, diags)
        checker.block(body, Scope(dict(local_types), ctx="flow"))
        if diags.has_errors():
            raise SnippetError(diags.render())
        comp = Compiler(self.syms, checker.r, self.meta, program=self)
        comp._defines = getattr(self, "_define_cache", {})
        block = comp.block(body)
        E.mark_inline(self)
        return block

    def add_block(self, stmts) -> int:
        self.blocks.append(tuple(stmts))
        return len(self.blocks) - 1

    def add_stmt(self, s):
        s.id = len(self.stmts)
        self.stmts.append(s)
        return s

    def zone_order(self, st, o):
        if o is None:
            return (-1, -1)
        z = st.obj_zone[o]
        return (z, st.zones[z].index(o) if z >= 0 else -1)

    def object_ability(self, key) -> bool:
        """Whether the `once per` key of `st.used` belongs to an object's ability (not to the
        rules' own, whose uses are counted per player)."""
        if isinstance(key, str):
            return self.actions[int(key[1:])].origin != "global"
        lst = self.listener_by_id.get(key)
        return lst is not None and lst.origin != "global"

    def has(self, st, o, kw) -> bool:
        if kw in self.cards[st.obj_card[o]].keywords:
            return True
        return self.granted_args(st, o, kw) is not None

    def keyword_args(self, st, o, kw) -> tuple:
        """The arguments of keyword `kw` on `o`: as printed on its card, else as granted (the
        latest grant first), else none."""
        args = self.cards[st.obj_card[o]].keywords.get(kw)
        if args is None:
            args = self.granted_args(st, o, kw)
        return args or ()

    def granted_args(self, st, o, kw):
        """The arguments with which `o` is granted `kw` (a list, maybe empty), or None."""
        for gr in reversed(st.grants):
            if gr[0] == o and gr[1] == kw:
                return gr[4] if len(gr) > 4 else []
        for sa in self.grant_index.get(kw, ()) or ():
            args = sa.grants_to(st, o, kw)
            if args is not None:
                return args
        for sa in self.grant_any:
            args = sa.grants_to(st, o, kw)
            if args is not None:
                return args
        return None

    def granted_holders(self, st, kw, printed: frozenset) -> list:
        """Objects in active zones granted `kw` by a statement whose card does not print it:
        a granted keyword brings its continuous effects too."""
        active = st.g.active_set
        out = []
        for gr in st.grants:
            o = gr[0]
            if gr[1] == kw and st.obj_zone[o] in active and st.obj_card[o] not in printed:
                if o not in out:
                    out.append(o)
        return out

    def index_statics(self) -> None:
        """Which cards carry each static ability, and which keywords each can grant: `has`
        then looks only at the abilities that could give the keyword asked about."""
        self.grant_index = {}
        self.grant_any = []
        for sa in self.statics_grant + [x for v in self.statics_prop.values() for x in v]:
            if sa.origin == "card":
                sa.card_set = frozenset([sa.card_index])
            elif sa.origin == "keyword":
                sa.card_set = frozenset(c.index for c in self.cards if sa.owner in c.keywords)
            else:
                sa.card_set = frozenset()
        self.static_cards = {
            name: frozenset().union(*(sa.card_set for sa in lst))
            for name, lst in self.statics_prop.items()
        }
        # A card's own modifiers are looked up from the cards present, so that cards loaded but
        # never played cost nothing when a property is read.
        self.statics_by_card = {}
        self.statics_shared = {}
        for name, lst in self.statics_prop.items():
            by_card = self.statics_by_card[name] = {}
            for sa in lst:
                if sa.origin == "card":
                    by_card.setdefault(sa.card_index, []).append(sa)
            self.statics_shared[name] = [sa for sa in lst if sa.origin != "card"]
        for sa in self.statics_grant:
            kws = None
            if sa.origin == "keyword":
                try:
                    kws = {
                        sa.value(
                            None, dict(zip(sa.kw_params, self.cards[c].keywords.get(sa.owner, ())))
                        )
                        for c in sa.card_set
                    }
                except Exception:
                    kws = None
            if kws is None:
                self.grant_any.append(sa)
            else:
                for k in kws:
                    self.grant_index.setdefault(k, []).append(sa)

    def base_prop(self, st, o, name):
        """The value without modifiers: what `x.p += n` adds to."""
        d = st.props.get(name)
        if d is not None and o in d:
            return d[o]
        return self.cards[st.obj_card[o]].props.get(name)

    @staticmethod
    def _present(st, cards: frozenset) -> dict:
        """The objects in active zones whose card is one of `cards`, by card: one pass over
        the active zones serves every continuous modifier of a property."""
        out: dict = {}
        obj_card = st.obj_card
        zones = st.zones
        for z in st.g.active_zones:
            for x in zones[z]:
                c = obj_card[x]
                if c in cards:
                    lst = out.get(c)
                    if lst is None:
                        out[c] = [x]
                    else:
                        lst.append(x)
        return out

    def read_prop(self, st, o, name):
        cache = self.read_cache
        if cache is not None and name in self.modified_props:
            key = (o, name)
            v = cache.get(key, _MISSING)
            if v is _MISSING:
                v = cache[key] = self._read_prop(st, o, name)
            return v
        return self._read_prop(st, o, name)

    def _read_prop(self, st, o, name):
        d = st.props.get(name)
        if d is not None and o in d:
            v = d[o]
        else:
            v = self.cards[st.obj_card[o]].props.get(name)
        if name not in self.modified_props:
            return v
        # Layers: "becomes" (set) effects first, continuous ones and then the statements' in
        # timestamp order, the latest winning; then every "by" (add) effect.
        adds = []
        for op, value in self._statics_on(st, o, name):
            if op == "set":
                v = value
            else:
                adds.append(value)
        for m in st.mods:
            if m[0] == o and m[1] == name:
                if len(m) > 5 and m[5] == "set":
                    v = m[2]
                else:
                    adds.append(m[2])
        for a in adds:
            v += a
        return v

    def _statics_on(self, st, o, name) -> list:
        """The continuous modifiers of property `name` in force on `o`: (op, value) pairs,
        computed under the guard against a value that depends on itself."""
        statics = self.statics_prop.get(name)
        if not statics:
            return []
        key = (o, name)
        reading = self._reading
        if key in reading:
            reading.clear()
            raise RulesError(
                f"the value of {self.cards[st.obj_card[o]].name}.{name} depends on "
                f"itself through a continuous 'modify ... {name}'"
            )
        reading.add(key)
        out = []
        try:
            present = self._present(st, self.static_cards[name])  # index_statics
            for sa in self.statics_shared[name]:
                if sa.origin == "global":
                    srcs = (None,)
                else:
                    cs = sa.card_set
                    srcs = [x for c, xs in present.items() if c in cs for x in xs]
                    if sa.origin == "keyword" and st.grants:
                        srcs += self.granted_holders(st, sa.owner, cs)
                for src in srcs:
                    env = sa.env_for(st, src)
                    if sa.hits(st, env, o):
                        out.append((sa.op, sa.value(st, env)))
            by_card = self.statics_by_card[name]
            for c, srcs in present.items():
                for sa in by_card.get(c, ()):
                    for src in srcs:
                        env = sa.env_for(st, src)
                        if sa.hits(st, env, o):
                            out.append((sa.op, sa.value(st, env)))
        finally:
            reading.discard(key)
        return out


class SnippetError(Exception):
    """A snippet (from a scenario) does not parse or check; the message holds the diagnostics."""


class Compiler:
    def __init__(self, syms: Symbols, res: Resolved, meta: dict, program: Program | None = None):
        self.s = syms
        self.r = res
        self.p = program if program is not None else Program(syms, meta)
        import os

        from .codegen import CodeGen

        self.codegen = CodeGen(self)
        self.stmtgen = None
        if not syms.checks and not os.environ.get("MADANG_NO_FUSION"):
            from .codegen import StmtGen

            listened = {
                syms.canonical.get(ab.decl.event, ab.decl.event)
                for ab in syms.abilities
                if isinstance(ab.decl, n.Trigger)
            }
            self.stmtgen = StmtGen(self.codegen, listened)

    # ---------------------------------------------------------------- program
    def compile(self) -> Program:
        s, p = self.s, self.p
        # Every property some modify may change is read through the modifiers, whichever
        # statement (fused or not) adds the modifier.
        p.modified_props |= self._modified_names()
        for v in s.unique(s.verbs):
            p.verbs[v.name] = VerbRT(v.name, v.params, None, v.decl.narration)
        for ev in s.unique(s.events):
            p.verbs[ev.name] = VerbRT(ev.name, ev.params, None)
        self._cards()
        for v in s.unique(s.verbs):
            p.verbs[v.name].body = self.block(v.decl.body)
        for ab in s.abilities:
            self.ability(ab)
        for name in p.verbs:
            alias_of = s.canonical.get(name, name)
            del alias_of
        for vrt in p.verbs.values():
            vrt.listened = bool(vrt.listeners)
        for chk in s.checks:
            c = E.Check(
                chk.name or "check",
                chk.var,
                self.expr(chk.over) if chk.over is not None else None,
                self.expr(chk.cond),
                self.block(chk.body),
            )
            p.add_stmt(c)
            p.checks.append(c)
        p.deck_rules = [
            DeckRule(r.label, r.var, self.expr(r.over) if r.over is not None else None,
                     self.expr(r.cond), r.span)
            for r in s.deck_rules
        ]  # fmt: skip
        if s.setup:
            p.setup_block = self.block(
                n.Block(tuple(st for b in s.setup for st in b.body), span=s.setup[0].span)
            )
        if s.flow:
            p.flow_block = self.block(
                n.Block(tuple(st for b in s.flow for st in b.body), span=s.flow[0].span)
            )
        p.index_statics()
        chooser = p.settings.get("trigger_chooser")
        if chooser and chooser in s.defines and not s.defines[chooser].params:
            f = _call_define(self._define_body(s.defines[chooser]), [], [])
            p.trigger_chooser = lambda st: f(st, {})
        p.order_triggers = p.add_stmt(E.OrderTriggers(None))
        # `new_triggers_wait`: the triggers met while several owners' triggers resolve wait in a
        # frame owned by this `hold:` until all of those have resolved (resolve_found)
        if p.settings.get("new_triggers_wait"):
            p.batch_hold = p.add_stmt(E.Hold(None, ()))
            p.holds = True
        for a in p.actions:
            a.costs = p.costs.get(a.name, [])
        E.mark_inline(p)
        p._define_cache = self.__dict__.get("_defines", {})
        for c in s.unique(s.counters):
            p.counter_defaults[c.name] = (
                self.expr(c.default) if c.default is not None else (lambda st, env: 0)
            )
        return p

    def _cards(self) -> None:
        s, p = self.s, self.p
        for card in s.cards.values():
            kind = s.kinds.get(card.kind)
            props = {}
            if kind is not None:
                for f in kind.fields.values():
                    if f.default is not None:
                        props[f.name] = self.const(f.default)
            props.update(card.props)
            keywords = {}
            if card.text is not None:
                for item in card.text.items:
                    if isinstance(item, n.KeywordUse) and item.name in s.keywords:
                        kw = s.keywords[item.name]
                        keywords[kw.name] = tuple(
                            self._kw_arg(a, q) for a, q in zip(item.args, kw.params)
                        )
            p.card_index[card.name] = len(p.cards)
            p.cards.append(
                CardRT(
                    card.name,
                    kind.name if kind else card.kind,
                    props,
                    keywords,
                    len(p.cards),
                    card.traits,
                    card.extra,
                )
            )
        # Keywords a keyword grants to its bearer (`keyword X: Y` lines) count as printed.
        for kw in s.unique(s.keywords):
            implied = [i for i in kw.decl.items if isinstance(i, n.KeywordUse)]
            if implied:
                for c in p.cards:
                    if kw.name in c.keywords:
                        for u in implied:
                            c.keywords.setdefault(
                                s.canonical.get(u.name, u.name),
                                tuple(self._kw_arg(a) for a in u.args),  # constants only
                            )

    def granted_args(self, g: n.Grant) -> list | None:
        """`grant K[a, b]`: a closure per argument, computed when the grant is made (a
        condition argument is compiled once, as on a card)."""
        if not g.args:
            return None
        kw = self.s.keywords[self.s.canonical.get(g.keyword.name, g.keyword.name)]
        out = []
        for a, q in zip(g.args, kw.params):
            if q.type == CONDITION or self.r.names.get(id(a), ("",))[0] == "keyword":
                v = self._kw_arg(a, q)
                out.append(lambda st, env, v=v: v)
            else:
                out.append(self.expr(a))
        return out

    def _kw_arg(self, a, param=None):
        if param is not None and param.type == CONDITION:
            # A condition on `it` (`K[cost 2 이하]`): compiled once, referred to by number so
            # that states stay plain data; `matches(x, cond)` evaluates it.
            self.p.conditions.append(self.expr(a))
            return ["cond", len(self.p.conditions) - 1]
        res = self.r.names.get(id(a))
        if res is not None and res[0] == "keyword":
            return res[1]
        try:
            return self.const(a)
        except budget.OutOfBudget:
            raise
        except RulesError:
            return None

    def const(self, e):
        f = self.expr(e)
        try:
            return f(budget.Budget(), {})
        except budget.OutOfBudget as exc:  # too much work: say so, at the expression
            raise budget.OutOfBudget(f"{e.span}: {exc}") from None
        except RecursionError:
            raise budget.OutOfBudget(f"{e.span}: nested too deeply") from None
        except Exception as exc:  # a value that needs a game: not a constant
            raise RulesError(f"{e.span}: not a constant") from exc

    def ability(self, ab: Ability) -> None:
        p, d = self.p, ab.decl
        kw_params = []
        card_index = -1
        if ab.origin == "keyword":
            kw_params = [q.name for q in self.s.keywords[ab.owner].params]
        elif ab.origin == "card":
            card_index = p.card_index.get(ab.owner, -1)
        if isinstance(d, n.Trigger) and d.timing == "cost":
            self.cost(ab, d, kw_params, card_index)
        elif isinstance(d, n.Trigger):
            ev_sym = self.s.events.get(d.event) or self.s.verbs.get(d.event)
            if ev_sym is None:
                return
            verb = p.verbs[ev_sym.name]
            lst = ListenerRT()
            lst.id = ab.id
            lst.origin, lst.owner, lst.card_index, lst.prog = ab.origin, ab.owner, card_index, p
            lst.binds = list(d.binds)
            lst.param_names = verb.param_names
            lst.cond = self.expr(d.cond) if d.cond is not None else None
            lst.body = self.block(d.body)
            lst.limit = d.limit
            lst.kw_params = kw_params
            where = f"{ab.origin} {ab.owner}" if ab.owner else "rules"
            lst.rule = f"{where}: {d.timing} {verb.name} ({d.span})"
            lst.short = f"{d.timing} {verb.name}"
            lst.optional = d.optional
            lst.optional_by = self.expr(d.optional_by) if d.optional_by is not None else None
            if d.optional is not None and d.timing != "instead":
                # "you may": the block starts by asking its player (engine.AskOptional)
                ask = p.add_stmt(E.AskOptional(d.span, lst))
                lst.body = p.add_block((ask,) + p.blocks[lst.body])
            if p.source_must_remain and ab.origin != "global" and d.timing != "instead":
                stays = p.add_stmt(E.SourceStays(d.span))
                lst.body = p.add_block((stays,) + p.blocks[lst.body])
            p.listener_by_id[lst.id] = lst
            verb.listeners.setdefault(d.timing, []).append(lst)
        elif isinstance(d, n.Static):
            eff = d.effect
            sa = StaticRT()
            sa.id = ab.id
            sa.origin, sa.owner, sa.card_index, sa.kw_params, sa.prog = (
                ab.origin,
                ab.owner,
                card_index,
                kw_params,
                p,
            )
            sa.cond = self.expr(eff.cond) if eff.cond is not None else None
            if isinstance(eff, n.Grant):
                sa.grant = True
                sa.op = "add"
                sa.value = self.expr(eff.keyword)
                sa.args = self.granted_args(eff)
                sa.target = self.expr(eff.to)
                sa.prop = None
                p.statics_grant.append(sa)
            else:
                sa.grant = False
                sa.args = None
                sa.op = eff.op
                sa.value = self.expr(eff.amount)
                sa.target = self.expr(eff.obj)
                sa.prop = eff.prop
                p.statics_prop.setdefault(eff.prop, []).append(sa)
                p.modified_props.add(eff.prop)
        elif isinstance(d, n.ActionDecl):
            sym = self.s.actions.get(d.names[0])
            params = sym.params if sym is not None and sym.decl is d else []
            if sym is None or sym.decl is not d:
                from ..language.diagnostics import Diagnostics
                from ..language.symbols import params_of

                params = params_of(d.params, Diagnostics())
            a = ActionRT()
            a.costs = []
            a.id = len(p.actions)
            a.name = d.names[0]
            a.param_names = [q.name for q in params]
            a.param_types = [q.type for q in params]
            a.domains = [
                self.expr(q.domain) if q.domain is not None else (lambda st, env: [])
                for q in params
            ]
            # Domains that read no parameter of the action (only `you` and the state) are
            # computed once per window and shared by all its actions (`c: card from playable(you)`).
            a.dom_keys = []
            for q in params:
                key = repr(q.domain) if q.domain is not None else None
                if key is not None and (
                    "Special(which='this')" in key or _locals_used(q.domain, self.r)
                ):
                    key = None
                a.dom_keys.append(key)
            body = list(d.body.body)
            # Legality: the leading `require`s, split at `and`; each part is tested as soon as
            # the parameters it mentions are bound, so that enumeration prunes early.
            req_exprs: list[list] = [[] for _ in range(len(params) + 1)]
            names = [q.name for q in params]
            while body and isinstance(body[0], n.Require):
                for part in _conjuncts(body.pop(0).cond):
                    used = _locals_used(part, self.r)
                    level = max((names.index(x) + 1 for x in used if x in names), default=0)
                    req_exprs[level].append(part)
            a.fast_enum = self.codegen.enumerator(a, params, req_exprs)
            a.body = self.block(n.Block(tuple(body), span=d.body.span))
            a.origin, a.owner, a.card_index, a.prog = ab.origin, ab.owner, card_index, p
            a.limit = d.limit
            p.actions.append(a)
            for w in d.windows or ("",):
                p.window_actions.setdefault(w, []).append(a)

    def cost(self, ab: Ability, d: n.Trigger, kw_params: list, card_index: int) -> None:
        """`cost ACTION(...)`: a ListenerRT whose leading `require`s are kept apart, for the
        action's enumeration to test (ActionRT.payable)."""
        p = self.p
        sym = self.s.actions.get(d.event)
        if sym is None:
            return
        lst = ListenerRT()
        lst.id = ab.id
        lst.origin, lst.owner, lst.card_index, lst.prog = ab.origin, ab.owner, card_index, p
        lst.binds = list(d.binds)
        lst.param_names = [q.name for q in sym.params]
        lst.cond = self.expr(d.cond) if d.cond is not None else None
        lst.kw_params = kw_params
        lst.limit = lst.optional = lst.optional_by = None
        where = f"{ab.origin} {ab.owner}" if ab.owner else "rules"
        lst.rule = f"{where}: cost {sym.name} ({d.span})"
        lst.short = f"cost {sym.name}"
        heads = []
        for s in d.body.body:
            if not isinstance(s, n.Require):
                break
            heads.append(self.expr(s.cond))
        lst.requires = heads
        lst.body = self.block(d.body)
        p.listener_by_id[lst.id] = lst
        p.costs.setdefault(sym.name, []).append(lst)

    # ---------------------------------------------------------------- statements
    def block(self, b: n.Block) -> int:
        gen = self.stmtgen
        if gen is None:
            return self.p.add_block([self.p.add_stmt(self.stmt(s)) for s in b.body])
        out, run = [], []
        for s in b.body:
            if gen.fusable(s):
                run.append(s)
                continue
            if run:
                out.append(self.p.add_stmt(E.Fused(run[0].span, gen.compile_run(run))))
                run = []
            out.append(self.p.add_stmt(self.stmt(s)))
        if run:
            out.append(self.p.add_stmt(E.Fused(run[0].span, gen.compile_run(run))))
        return self.p.add_block(out)

    def stmt(self, s):
        ex = self.expr
        sp = s.span
        match s:
            case n.Let():
                return E.Let(sp, s.name, ex(s.value))
            case n.Assign():
                return self.assign(s)
            case n.Move():
                return E.Move(
                    sp,
                    ex(s.what),
                    ex(s.zone),
                    s.where,
                    ex(s.index) if s.index is not None else None,
                )
            case n.Create():
                return E.Create(
                    sp, ex(s.card), ex(s.zone), ex(s.owner) if s.owner is not None else None, s.name
                )
            case n.Remove():
                return E.Remove(sp, ex(s.what))
            case n.Shuffle():
                return E.Shuffle(sp, ex(s.zone))
            case n.Choose():
                return E.Choose(sp, s.name, ex(s.options), ex(s.by) if s.by else None, s.prompt or s.name,
                                ex(s.min) if s.min is not None else None, ex(s.max) if s.max is not None else None,
                                self.r.types.get(id(s), ANY))  # fmt: skip
            case n.Order():
                return E.Order(
                    sp,
                    s.name,
                    ex(s.items),
                    ex(s.by) if s.by else None,
                    s.prompt or s.name,
                    self.r.types.get(id(s), ANY),
                )
            case n.Emit():
                ev = self.s.events[s.event]
                return E.Call(sp, self.p.verbs[ev.name], [ex(a) for a in s.args])
            case n.CallStmt():
                v = self.s.verbs[s.verb]
                return E.Call(sp, self.p.verbs[v.name], [ex(a) for a in s.args])
            case n.Win():
                return E.Win(sp, ex(s.who), False)
            case n.Lose():
                return E.Win(sp, ex(s.who), True)
            case n.DrawGame():
                return E.Tie(sp)
            case n.End():
                return E.End(sp, s.what)
            case n.Expire():
                names = {s.scope}
                if s.scope not in ("turn", "round", "phase"):  # a phase: any of its spellings
                    name = self.s.phase_names.get(s.scope, s.scope)
                    names = {k for k, v in self.s.phase_names.items() if v == name} | {name}
                return E.Expire(sp, s.scope, names)
            case n.Pass():
                return E.Pass(sp)
            case n.Return():
                return E.Return(sp)
            case n.Break():
                return E.Break(sp)
            case n.Modify():
                self.p.modified_props.add(s.prop)
                return E.AddModifier(
                    sp, ex(s.obj), s.prop, ex(s.amount), s.until, False,
                    ex(s.until_of) if s.until_of is not None else None, None, s.op,
                )  # fmt: skip
            case n.Grant():
                return E.AddModifier(
                    sp, ex(s.to), None, ex(s.keyword), s.until, True,
                    ex(s.until_of) if s.until_of is not None else None, self.granted_args(s),
                )  # fmt: skip
            case n.Window():
                return E.Window(
                    sp, s.name, ex(s.by), s.once, self.p.window_actions.setdefault(s.name, []),
                    ex(s.pass_if) if s.pass_if is not None else None,
                )  # fmt: skip
            case n.Log():
                return E.Log(sp, ex(s.value), self.r.types.get(id(s), ANY))
            case n.Reveal():
                return E.Reveal(sp, ex(s.what), ex(s.to))
            case n.Require():
                return E.Require(sp, ex(s.cond))
            case n.If():
                return E.If(sp, [ex(c) for c, _ in s.branches], [self.block(b) for _, b in s.branches],
                            self.block(s.orelse) if s.orelse is not None else None)  # fmt: skip
            case n.For():
                return E.For(sp, s.name, ex(s.items), self.block(s.body))
            case n.Repeat():
                return E.Repeat(sp, ex(s.times), self.block(s.body))
            case n.While():
                return E.While(sp, ex(s.cond), self.block(s.body), s.until)
            case n.Scope():
                name = self.s.phase_names.get(s.name, s.name) if s.kind == "phase" else s.name
                scope = E.ScopeStmt(
                    sp,
                    s.kind,
                    name,
                    ex(s.player) if s.player is not None else None,
                    self.block(s.body),
                )
                if s.kind == "phase":  # modifiers and limits may name any spelling
                    scope.names = {k for k, v in self.s.phase_names.items() if v == name} | {name}
                return scope
            case n.Hold():
                self.p.holds = True
                return E.Hold(sp, self.block(s.body))
        raise TypeError(s)  # pragma: no cover

    def assign(self, s: n.Assign):
        t, ex = s.target, self.expr
        if isinstance(t, n.Name):
            res = self.r.names.get(id(t), ("local", t.name))
            if res[0] == "counter":
                return E.SetCounter(s.span, "global", res[1], s.op, None, ex(s.value))
            if res[0] == "game":
                return E.SetGameValue(s.span, res[1], ex(s.value))
            return E.SetLocal(s.span, t.name, s.op, ex(s.value))
        res = self.r.attrs[id(t)]
        kind, name = res
        obj = ex(t.obj)
        if kind == "obj_prop":
            p = self.p
            return E.SetProp(
                s.span, name, s.op, obj, ex(s.value), lambda st, o, _n=name: p.base_prop(st, o, _n)
            )
        if kind == "player_counter":
            return E.SetCounter(s.span, "player", name, s.op, obj, ex(s.value))
        if kind == "area_counter":
            return E.SetCounter(s.span, "area", name, s.op, obj, ex(s.value))
        if (kind, name) == ("obj_builtin", "owner"):
            return E.SetOwner(s.span, obj, ex(s.value))
        return E.SetDict(s.span)

    # ---------------------------------------------------------------- expressions
    def expr(self, e):
        """A function f(st, env) computing `e`, generated as Python source (codegen.py): the one
        back end for expressions."""
        return self.codegen.compile(e)

    def _define_body(self, d):
        cache = self.__dict__.setdefault("_defines", {})
        if d.name not in cache:
            cache[d.name] = None  # recursion guard: filled in below
            holder = []
            cache[d.name] = holder
            holder.append(self.expr(d.decl.body))
        return cache[d.name]

    def _modified_names(self):
        cache = self.__dict__.get("_modnames")
        if cache is None:
            cache = set()
            for ab in self.s.abilities:
                if isinstance(ab.decl, n.Static) and isinstance(ab.decl.effect, n.Modify):
                    cache.add(ab.decl.effect.prop)
            _scan_modifies(self.s, cache)
            self.__dict__["_modnames"] = cache
        return cache


def _scan_modifies(syms: Symbols, out: set) -> None:
    def walk(node):
        if isinstance(node, n.Modify):
            out.add(node.prop)
        if isinstance(node, n.Block):
            for s in node.body:
                walk(s)
        elif isinstance(node, n.Node):
            for v in node.__slots__ if hasattr(node, "__slots__") else ():
                walk_val(getattr(node, v, None))

    def walk_val(v):
        if isinstance(v, n.Node):
            walk(v)
        elif isinstance(v, tuple):
            for x in v:
                walk_val(x)

    from dataclasses import fields

    def walk_all(node):
        if isinstance(node, n.Modify):
            out.add(node.prop)
        if isinstance(node, n.Node):
            for f in fields(node):
                val = getattr(node, f.name)
                if isinstance(val, n.Node):
                    walk_all(val)
                elif isinstance(val, tuple):
                    for x in val:
                        if isinstance(x, n.Node):
                            walk_all(x)
                        elif isinstance(x, tuple):
                            for y in x:
                                if isinstance(y, n.Node):
                                    walk_all(y)

    for v in syms.unique(syms.verbs):
        walk_all(v.decl.body)
    for ab in syms.abilities:
        walk_all(ab.decl)
    for b in syms.setup + syms.flow:
        walk_all(b)


def _conjuncts(e):
    if isinstance(e, n.BoolOp) and e.op == "and":
        for i in e.items:
            yield from _conjuncts(i)
    else:
        yield e


def _locals_used(e, res: Resolved) -> set[str]:
    """Local names an expression reads (for hoisting legality tests)."""
    from dataclasses import fields

    out: set[str] = set()

    def walk(x):
        if isinstance(x, n.Name):
            r = res.names.get(id(x))
            if r is None or r[0] == "local":
                out.add(x.name)
        elif isinstance(x, n.Has) and res.names.get(id(x), ("",))[0] == "local":
            out.add(x.keyword)
        if isinstance(x, n.Node):
            for f in fields(x):
                v = getattr(x, f.name)
                if isinstance(v, n.Node):
                    walk(v)
                elif isinstance(v, tuple):
                    for y in v:
                        if isinstance(y, n.Node):
                            walk(y)

    walk(e)
    return out


def _call_define(holder, names, args):
    if not names:

        def call0(st, env):
            return holder[0](st, {"you": env.get("you"), "this": env.get("this")})

        return call0

    def call(st, env):
        new = {"you": env.get("you"), "this": env.get("this")}
        for k, a in zip(names, args):
            new[k] = a(st, env)
        return holder[0](st, new)

    return call


__all__ = ["Compiler", "Program", "type_name", "OBJECT", "CardSym"]
