"""Checked AST → a `Program` of closures and statement objects: no tree walking while playing.

Names were resolved by the checker (typed records in `Resolved`, looked up by node); the compiler only turns each
node into the closure or runtime statement that does its job, and folds constants.
"""

from __future__ import annotations

import ast
from types import SimpleNamespace

from ..language import nodes as n
from ..language.desugar import has_self_test
from ..language.limits import limit_group
from ..language.resolved import BuiltinRef, KeywordRef, LocalRef, Resolved
from ..language.symbols import CONDITION, OBJECT, Ability, CardSym, Symbols, type_name
from ..runtime import budget
from ..runtime import engine as E
from ..runtime.errors import RulesError
from ..runtime.inputs import reader
from ..runtime.program import (
    ActionRT,
    CardRT,
    CounterRT,
    DeckRule,
    ListenerRT,
    Program,
    SnippetError,
    StaticRT,
    VerbRT,
    ZoneRT,
)
from .acts import ActsBuilder
from .depends import _plain, domain_counters, rule_roots
from .flowpoints import find_points
from .fold import empty_value


def new_program(syms: Symbols, meta: dict, res: Resolved) -> Program:
    """An empty program for the ruleset's zones, counters and spellings (the declarations'
    and, found by the checker, the phases')."""
    zones = {
        z.name: ZoneRT(z.name, z.scope, z.ordered, z.visibility, z.active, z.renews)
        for z in syms.unique(syms.zones)
    }
    counters = {
        c.name: CounterRT(c.name, c.scope, *(c.range or (None, None)), str(c.span))
        for c in syms.unique(syms.counters)
    }
    kind_zones = {
        k.name: tuple(syms.zones[z].name for z in k.active_in if z in syms.zones)
        for k in syms.unique(syms.kinds)
        if k.active_in
    }
    return Program(meta, zones, counters, {**res.phase_names, **syms.canonical}, syms, kind_zones)


# what continuous modifiers whose totals are kept may read besides zones, properties and
# counters: each write of one forgets the kept totals (engine.forget_kept)
KEPT_READS = frozenset({"owner", "scope", "grants", "lki", "lost"})


class Compiler:
    def __init__(self, syms: Symbols, res: Resolved, meta: dict, program: Program | None = None):
        self.s = syms
        self.r = res
        self.p = program if program is not None else new_program(syms, meta, res)
        self.define_bodies: dict[str, list | None] = {}  # define_body: each definition once
        self.limit_keys: dict[str, str] = {}  # a shared `once per` limit -> its `used` key
        # a phase's spellings (the checker's finding; a snippet keeps the program's)
        self.phase_names = self.p.phase_names = {**self.p.phase_names, **res.phase_names}
        from .enumerators import Enumerators

        self.codegen = Enumerators(self)  # expressions, and the actions' listings
        self.acts = ActsBuilder(self)  # `doable(EVENT(...))`: tests derived from statements
        self.deps = self.check_reads = self.check_marks = None
        self._any_deps = None  # the read analysis without state checks (any_deps)
        if syms.checks:
            from .depends import Depends

            self.deps = Depends(syms, res, self.modified_names())
            self.check_reads = [self.deps.check_reads(c) for c in syms.checks]
            active = {z.name for z in self.p.zones.values() if z.active}
            active |= {z for names in self.p.kind_zones.values() for z in names}
            # what the statements' masks compare: the zones of a check by name when known
            self.check_marks = [self.deps.mark_reads(c, active) for c in syms.checks]
        from .resumable import ResumableGen
        from .stmtgen import StmtGen

        listened = {
            syms.canonical.get(ab.decl.event, ab.decl.event)
            for ab in syms.abilities
            if isinstance(ab.decl, n.Trigger)
        }
        self.stmtgen = StmtGen(self.codegen, listened)
        self.resumable = ResumableGen(self, self.stmtgen)

    # Change when the blocks' layout changes: saves hold positions in them (fingerprint.py), so
    # a save made under another layout is refused as made under other rules. resumable-3:
    # every block with statements is one generated function (no lists of statement objects).
    LAYOUT = "resumable-3"

    def layout(self) -> str:
        """How blocks are laid out (saves record positions in them; fingerprint.py)."""
        return self.LAYOUT

    # ---------------------------------------------------------------- program
    def compile(self) -> Program:
        s, p = self.s, self.p
        # Every property some modify may change is read through the modifiers, whichever
        # statement (fused or not) adds the modifier.
        p.modified_props |= self.modified_names()
        p.kept_props, p.kept_reads, p.kept_zones = self.kept_statics()
        p.static_read_props = frozenset(t[5:] for t in p.kept_reads if t.startswith("prop:"))
        for v in s.unique(s.verbs):
            p.verbs[v.name] = VerbRT(v.name, v.params, None, v.decl.narration)
        for ev in s.unique(s.events):
            p.verbs[ev.name] = VerbRT(ev.name, ev.params, None)
        self._cards()
        for v in s.unique(s.verbs):
            vrt = p.verbs[v.name]
            vrt.body = self.block(v.decl.body, name=v.name, func=True)
            self.resumable.define_quick(vrt, vrt.body)  # its calls' frameless copy
        for ab in s.abilities:
            self.ability(ab)
        for vrt in p.verbs.values():
            vrt.listened = bool(vrt.listeners)
        for i, chk in enumerate(s.checks):
            c = E.Check(
                chk.name or "check",
                chk.var,
                self.expr(chk.over) if chk.over is not None else None,
                self.cond(chk.cond),
                self.block(chk.body, name=chk.name or "check"),
                1 << i,
            )
            if self.deps is not None and chk.over is not None:
                c.zoned = self.deps.reads(chk.over) <= {"lost"}  # (zones are not tokens)
                zones = self.deps.zone_reads(chk.over) if c.zoned else None
                if zones is not None and not zones & {"@any", "@objzone"}:
                    c.domain_zones = frozenset(zones)  # kept while none of these changes
            if self.check_marks is not None:  # marked by the zones its objects leave
                from .depends import marked_zones

                c.marked_zones = marked_zones(self.check_marks[i])
            p.add_stmt(c)
            p.checks.append(c)
            p.check_bits |= c.bit
            if self.check_reads is not None and self.check_reads[i] & {"effect", "*"}:
                p.effect_checks |= c.bit  # due again when an effect ends
            elif self.check_reads is not None:
                # kept while found false: one that reads modified values (costly to evaluate),
                # or one without a domain whose zones are known by name (a domain is kept
                # until a zone changes, and is most often empty: evaluated, it costs less)
                zones = self.deps.check_zones(chk)
                mods = any(t.startswith("mods:") for t in self.check_reads[i])
                # what continuous modifiers give read as their kept totals (State.kt): one
                # number compared, and only the zones the check reads itself
                kept = self.deps.kept_check(chk, p.kept_props) if mods and p.kept_props else None
                if kept is not None:
                    c.reads, c.zones = kept
                elif mods or (zones is not None and chk.over is None):
                    c.reads, c.zones = frozenset(self.check_reads[i]), zones
        p.deck_rules = [
            DeckRule(r.label, r.var, self.expr(r.over) if r.over is not None else None,
                     self.expr(r.cond), r.span)
            for r in s.deck_rules
        ]  # fmt: skip
        if s.setup:
            p.setup_block = self.block(
                n.Block(tuple(st for b in s.setup for st in b.body), span=s.setup[0].span),
                name="setup",
            )
        if s.flow:
            flow = n.Block(tuple(st for b in s.flow for st in b.body), span=s.flow[0].span)
            p.flow_block = self.block(flow, name="flow")
            p.flow_points = find_points(self, flow, p.flow_block)
        p.index_statics()
        chooser = p.settings.get("trigger_chooser")
        if chooser and chooser in s.defines and not s.defines[chooser].params:
            f = call_define(self.define_body(s.defines[chooser]), [], [])
            p.trigger_chooser = lambda st: f(st, {})
        p.order_triggers = p.add_stmt(E.OrderTriggers(None))
        if self.deps is not None:  # its end starts triggers' blocks, or asks
            from .depends import STARTS_BLOCKS, check_mask

            p.lki_checks = check_mask({"lki"}, self.check_marks)
            p.expire_checks = check_mask({"mods:*", "grants"}, self.check_marks)
            p.order_triggers.END_DIRTY = check_mask(STARTS_BLOCKS, self.check_marks)
        # `new_triggers_wait`: the triggers met while several owners' triggers resolve wait in a
        # frame owned by this `hold:` until all of those have resolved (resolve_found)
        if p.settings.get("new_triggers_wait"):
            p.batch_hold = p.add_stmt(E.Hold(None, ()))
            p.batch_hold.END_DIRTY = p.order_triggers.END_DIRTY
            p.holds = True
        for a in p.actions:
            a.costs = p.costs.get(a.name, [])
            # the rules' own, unlimited and without costs: listed without ActionRT.enumerate
            a.direct = a.origin == "global" and a.limit is None and not a.costs
        for stmt in p.stmts:
            if isinstance(stmt, E.Window):
                stmt.plan_listing()
        p.acts.update(self.acts.close())
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
            for u in implied:  # ... and so do keywords granted (effects.granted_args)
                p.implied_by.setdefault(s.canonical.get(u.name, u.name), []).append(
                    (kw.name, tuple(self._kw_arg(a) for a in u.args))
                )
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
            if q.type == CONDITION or isinstance(self.r.name_of(a), KeywordRef):
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
        res = self.r.name_of(a)
        if isinstance(res, KeywordRef):
            return res.name
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
            lst.cond = self.cond(d.cond) if d.cond is not None else None
            # `after E(this)`: its condition starts `SELF == this` (language/desugar.py), so
            # only the object the event names can be its source (engine.collect)
            lst.self_arg = None
            if ab.origin != "global" and n.SELF in d.binds and has_self_test(d.cond):
                lst.self_arg = dict(zip(d.binds, verb.param_names)).get(n.SELF)
            lst.limit = d.limit
            lst.kw_params = kw_params
            lst.tier = p.tiers.index(d.tier) if d.tier in p.tiers else len(p.tiers)
            where = f"{ab.origin} {ab.owner}" if ab.owner else "rules"
            lst.rule = f"{where}: {d.timing} {verb.name} ({d.span})"
            lst.short = f"{d.timing} {verb.name}"
            lst.optional = d.optional
            lst.optional_by = self.expr(d.optional_by) if d.optional_by is not None else None
            heads = []
            if p.source_must_remain and ab.origin != "global" and d.timing != "instead":
                heads.append(E.SourceStays(d.span))
            if d.optional is not None and d.timing != "instead":
                # "you may": the block starts by asking its player (engine.AskOptional)
                heads.append(E.AskOptional(d.span, lst))
            lst.body = self.block(d.body, tuple(heads), f"{d.timing}_{verb.name}", func=True)
            self.acts.listeners[lst.id] = d.body
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
            sa.cond = self.cond(eff.cond) if eff.cond is not None else None
            if isinstance(eff, n.Grant):
                sa.grant = True
                sa.op = "add"
                sa.value = self.expr(eff.keyword)
                # a grant whose condition and keyword read only options and data: the same all
                # game long, found once (effects.StaticRT.fixed_grant)
                deps = self.deps or self.any_deps()
                sa.fixed = deps.fixed(eff.cond) and deps.fixed(eff.keyword)
                sa.args = self.granted_args(eff)
                sa.target = self.expr(eff.to)
                sa.prop = None
                # `grant K to neighbours(this)` without condition or arguments: whether it
                # gives `o` the keyword is asked of o's own neighbours (effects._granted_by)
                sa.near = (
                    eff.cond is None
                    and not sa.args
                    and isinstance(eff.to, n.Call)
                    and self.r.call_of(eff.to) == BuiltinRef("neighbours")
                    and len(eff.to.args) == 1
                    and isinstance(eff.to.args[0], n.Special)
                    and eff.to.args[0].which == "this"
                )
                p.statics_grant.append(sa)
            else:
                sa.grant = False
                sa.fixed = sa.near = False
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
            a.quick = None
            a.costs = []
            a.direct = False
            a.id = len(p.actions)
            a.name = d.names[0]
            a.param_names = [q.name for q in params]
            a.param_types = [q.type for q in params]
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
            dom_names = [
                _locals_used(q.domain, self.r) if q.domain is not None else set() for q in params
            ]
            # a domain fixed by the names bound before it and some counters: kept per game
            deps = self.deps or self.any_deps()
            a.dom_fixed = [
                domain_counters(deps, q.domain) if i else None for i, q in enumerate(params)
            ]
            a.fast_enum = self.codegen.enumerator(a, params, req_exprs, dom_names)
            a.guard = self.codegen.last_guard  # its first test alone (or None): windows share it
            block = n.Block(tuple(body), span=d.body.span)
            a.body = self.block(block, name=a.name, func=True)
            a.quick = self.resumable.action_quick(a, a.body, block)  # started without its frame
            a.origin, a.owner, a.card_index, a.prog = ab.origin, ab.owner, card_index, p
            a.limit = d.limit
            a.limit_by = names.index(d.limit_by) if d.limit_by is not None else None
            # `once per S as LIMIT`: the actions sharing a limit record their uses under the key
            # of the first of them compiled
            group = limit_group(d, self.s.actions)
            a.limit_key = (
                f"a{a.id}" if group is None else self.limit_keys.setdefault(group, f"a{a.id}")
            )
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
        lst.cond = self.cond(d.cond) if d.cond is not None else None
        lst.self_arg = None
        lst.kw_params = kw_params
        lst.limit = lst.optional = lst.optional_by = None
        lst.tier = len(p.tiers)
        where = f"{ab.origin} {ab.owner}" if ab.owner else "rules"
        lst.rule = f"{where}: cost {sym.name} ({d.span})"
        lst.short = f"cost {sym.name}"
        heads = []
        for s in d.body.body:
            if not isinstance(s, n.Require):
                break
            heads.append(self.expr(s.cond))
        lst.requires = heads
        lst.body = self.block(d.body, name=f"cost_{sym.name}", func=True)
        p.listener_by_id[lst.id] = lst
        p.costs.setdefault(sym.name, []).append(lst)

    # ---------------------------------------------------------------- statements
    def block(self, b: n.Block, heads: tuple = (), name: str = "", func: bool = False) -> int:
        """A block of statements (after `heads`, statement objects that start it), compiled
        into one resumable function (resumable.py) named after `name` (what the block is in
        the rules): the block is its sections, the run loop's only steps. `func`: it always
        runs in a FUNC frame of its own (a verb's, an action's, a listener's body)."""
        p = self.p
        heads = tuple(p.add_stmt(rt) for rt in heads)
        sections = self.resumable.block(b, heads, name, func)
        return p.add_block([p.add_stmt(m) for m in sections])

    def checked_stmt(self, s):
        """A statement's object, numbered, with the state checks it may change."""
        rt = self.stmt(s)
        rt.dirty = self.dirty_mask(s)
        ends = self.deps.end_writes(s) if self.deps is not None else None
        if ends is not None:  # a frame's owner: what its end writes (run loop, Call.exec)
            from .depends import check_mask

            rt.END_DIRTY = check_mask(ends, self.check_marks)
        return self.p.add_stmt(rt)

    def dirty_mask(self, s) -> int:
        """The state checks a statement's step may change (all of them unless known)."""
        if self.deps is None:
            return -1
        from .depends import check_mask

        return check_mask(self.deps.writes(s), self.check_marks)

    def stmt(self, s):
        ex = self.expr
        sp = s.span
        # a statement that never waits has no object: its one meaning is the Python that
        # stmtgen.StmtGen writes into the generated blocks (resumable.py delegates only these)
        match s:
            case n.Assign():
                return E.SetDict(s.span)  # not plain: an assignment to data or an option
            case n.Choose():
                opts = ex(s.options)
                lo = ex(s.min) if s.min is not None else None
                hi = ex(s.max) if s.max is not None else None
                rt = E.Choose(sp, s.name, opts, ex(s.by) if s.by else None, s.prompt or s.name,
                              lo, hi, self.r.type_of(s))  # fmt: skip
                rt.counted = self.counts_options(s.min, lo, opts) | 2 * self.counts_options(
                    s.max, hi, opts
                )
                return rt
            case n.Order():
                return E.Order(
                    sp,
                    s.name,
                    ex(s.items),
                    ex(s.by) if s.by else None,
                    s.prompt or s.name,
                    self.r.type_of(s),
                )
            case n.Emit() | n.CallStmt():
                v = self.s.events[s.event] if isinstance(s, n.Emit) else self.s.verbs[s.verb]
                args = [self.codegen.compile_arg(q.type, a) for q, a in zip(v.params, s.args)]
                return E.Call(sp, self.p.verbs[v.name], args)
            case n.End():
                return E.End(sp, s.what)
            case n.Expire():
                names = {s.scope}
                if s.scope not in ("turn", "round", "phase"):  # a phase: any of its spellings
                    name = self.phase_names.get(s.scope, s.scope)
                    names = {k for k, v in self.phase_names.items() if v == name} | {name}
                return E.Expire(sp, s.scope, names)
            case n.Return():
                return E.Return(sp)
            case n.Break():
                return E.Break(sp)
            case n.Grant():  # not plain: with arguments computed when it is made
                return E.AddModifier(
                    sp, ex(s.to), None, ex(s.keyword), s.until, True,
                    ex(s.until_of) if s.until_of is not None else None, self.granted_args(s),
                )  # fmt: skip
            case n.Window():
                from .depends import fixed_reads

                toks = fixed_reads(self.deps or self.any_deps(), s.by)
                read = None
                if toks is not None:  # (the reader needs only the program of a game)
                    read = reader(SimpleNamespace(prog=self.p), toks, cards=False)
                return E.Window(
                    sp, s.name, ex(s.by), s.once, self.p.window_actions.setdefault(s.name, []),
                    self.cond(s.pass_if) if s.pass_if is not None else None,
                    read, ("by", repr(s.by)),
                    by_name=s.by.name if read is None and self._local_name(s.by) else None,
                )  # fmt: skip
            case n.Reveal():
                return E.Reveal(sp, ex(s.what), ex(s.to))
            case n.Require():
                return E.Require(sp, self.cond(s.cond))
            case n.For():
                return E.For(sp, s.name, ex(s.items), self.block(s.body, name="for"))
            case n.Repeat():
                return E.Repeat(sp, ex(s.times), self.block(s.body, name="repeat"))
            case n.While():
                return E.While(sp, self.cond(s.cond), self.block(s.body, name="while"), s.until)
            case n.Scope():
                name = self.phase_names.get(s.name, s.name) if s.kind == "phase" else s.name
                scope = E.ScopeStmt(
                    sp,
                    s.kind,
                    name,
                    ex(s.player) if s.player is not None else None,
                    self.block(s.body, name=f"{s.kind}_{name}" if s.kind == "phase" else s.kind),
                )
                if s.kind == "phase":  # modifiers and limits may name any spelling
                    scope.names = {k for k, v in self.phase_names.items() if v == name} | {name}
                return scope
            case n.Hold():
                self.p.holds = True
                return E.Hold(sp, self.block(s.body, name="hold"))
        raise TypeError(s)  # pragma: no cover

    def counts_options(self, e, fn, opts) -> bool:
        """Whether a choice's number of picks `e` (compiled `fn`) is `count(E)` of its options
        `opts` (`E` or `objects(E)`: the same Python but the count) and E draws no random
        number (`CodeGen._skippable`): then it is the number of options found, charged what they
        charged (engine.Choose.exec)."""
        if not (isinstance(e, n.Call) and len(e.args) == 1):
            return False
        if self.r.call_of(e) != BuiltinRef("count"):
            return False
        if not self.codegen._skippable(e.args[0], set()):
            return False
        return _counted_source(getattr(opts, "generated", None), getattr(fn, "generated", None))

    # ---------------------------------------------------------------- expressions
    def expr(self, e):
        """A function f(st, env) computing `e`, generated as Python source (codegen.py): the one
        back end for expressions."""
        return self.codegen.compile(e)

    def _local_name(self, e) -> bool:
        """Whether `e` is a plain local name (its value the environment's entry, read
        without the expression's function: `Window.by_name`)."""
        return isinstance(e, n.Name) and isinstance(self.r.name_of(e), LocalRef)

    def cond(self, e):
        """A function f(st, env) whose truth is that of `e` (its callers only test it)."""
        return self.codegen.compile(e, truth=True)

    def define_body(self, d):
        """A definition's compiled body, in a holder (`[fn]`) so that a definition that calls
        itself refers to the holder before the body exists."""
        cache = self.define_bodies
        if d.name not in cache:
            cache[d.name] = None  # recursion guard: filled in below
            holder = []
            cache[d.name] = holder
            where = f"definition {d.name} ({d.decl.span})"
            holder.append(self.codegen.compile(d.decl.body, charged=where, empty=self.empty_of(d)))
        return cache[d.name]

    def empty_of(self, d):
        """(parameter, value) of definition `d` on an empty list of that parameter, or None
        (build/fold.py): what its compiled bodies return without computing it."""
        return empty_value(self.s, self.r, self.codegen._skippable, d)

    def any_deps(self):
        """The read analysis (build/depends.py), also for a ruleset without state checks."""
        if self._any_deps is None:
            from .depends import Depends

            self._any_deps = Depends(self.s, self.r, self.modified_names())
        return self._any_deps

    def kept_statics(self) -> tuple[frozenset, frozenset, frozenset | None]:
        """The properties whose continuous modifiers' totals a state may keep per object until
        a zone changes (effects.prop_reader): those modified only by cards' static abilities
        that read nothing but zones, fields, counters and the tokens `KEPT_READS` (no modified
        value, no effect in progress, nothing unknown); and the tokens those read, whose
        writes forget what was kept (`State.kt`: codegen, engine.forget_kept); and the zones
        they read by name (`@active`: the active zones, where their sources are), whose
        changes forget it too, or None (any zone)."""
        deps = self.deps or self.any_deps()
        by_prop: dict[str, list] = {}
        for ab in self.s.abilities:
            if isinstance(ab.decl, n.Static) and isinstance(ab.decl.effect, n.Modify):
                by_prop.setdefault(ab.decl.effect.prop, []).append(ab)
        kept, read = set(), set()
        zones: set | None = {"@active"}
        for prop, abs_ in by_prop.items():
            tokens: set = set()
            for ab in abs_:
                tokens |= {"*"} if ab.origin != "card" else deps.reads(ab.decl)
            if all(t in KEPT_READS or t.startswith(("prop:", "counter:")) for t in tokens):
                kept.add(prop)
                read |= tokens
                for ab in abs_:
                    z = deps.zone_reads(ab.decl)
                    zones = None if z is None or zones is None else zones | z
        if zones is not None and "@objzone" in zones:
            # an object whose zone is read is a source (in an active zone) or one found in the
            # zones read, unless a field read may hold an object or a zone (depends.check_zones)
            fields = self.s.fields
            plain = all(
                t[5:] in fields and _plain(fields[t[5:]].type)
                for t in read
                if t.startswith("prop:")
            )
            zones = (zones - {"@objzone"}) | {"@active"} if plain else None
        if zones is not None and "@any" in zones:
            zones = None
        return frozenset(kept), frozenset(read), None if zones is None else frozenset(zones)

    def modified_names(self):
        """Every property a continuous effect or a `modify` statement may change: a read of
        one of them goes through the modifiers (codegen)."""
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
    """Every property some `modify` statement or ability of the rules may change."""
    for root in rule_roots(syms):
        out.update(x.prop for x in root.walk() if isinstance(x, n.Modify))


def _conjuncts(e):
    if isinstance(e, n.BoolOp) and e.op == "and":
        for i in e.items:
            yield from _conjuncts(i)
    else:
        yield e


def _locals_used(e, res: Resolved) -> set[str]:
    """Local names an expression reads (for hoisting legality tests)."""
    out: set[str] = set()
    for x in e.walk():
        if isinstance(x, n.Name):
            r = res.name_of(x)
            if r is None or isinstance(r, LocalRef):
                out.add(x.name)
        elif isinstance(x, n.Has) and isinstance(res.name_of(x), LocalRef):
            out.add(x.keyword)
    return out


def call_define(holder, names, args):
    """f(st, env) calling a compiled definition (`define_body`'s holder) with the arguments
    computed by `args` in the caller's environment, bound to `names`."""
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


def compile_snippet(
    compiler: Compiler, text: str, local_types: dict, file: str = "<snippet>"
) -> int:
    """Compile statements written in the language into the program `compiler` built (scenario
    tests start games this way, on a program of their own): the build stage's own front end
    and compiled definitions are reused, never read back from the Program. Returns the new
    block; raises SnippetError with rendered diagnostics."""
    prog = compiler.p
    from ..language.checker import Checker, Scope
    from ..language.desugar import desugar
    from ..language.diagnostics import Diagnostics
    from ..language.parser import Origin, parse_module

    diags = Diagnostics()
    body_lines = text.strip("\n").splitlines() or ["pass"]
    src = "flow:\n" + "\n".join("    " + ln for ln in body_lines) + "\n"
    diags.add_source(file, "\n".join(body_lines) + "\n")
    mod = desugar(parse_module(src, Origin(file, line=0, col=1, indent=-3), diags))
    if mod is None or diags.has_errors():
        raise SnippetError(diags.render())
    body = mod.decls[0].body
    checker = Checker(compiler.s, diags)
    checker.block(body, Scope(dict(local_types), ctx="flow"))
    if diags.has_errors():
        raise SnippetError(diags.render())
    comp = Compiler(compiler.s, checker.r, prog.meta, program=prog)
    comp.define_bodies = compiler.define_bodies
    block = comp.block(body)
    for name, tests in comp.acts.close().items():  # abilities' tests were made with the program
        prog.acts.setdefault(name, tests)
    return block


def _counted_source(opts: str | None, count: str | None) -> bool:
    """Whether generated Python `count` is `opts` but for the number of its list: the same
    lines to the last, which returns `len(X)` where `opts` returns `X` (a new list) or
    `list(X)`."""
    if opts is None or count is None:
        return False
    o, c = opts.splitlines()[1:], count.splitlines()[1:]
    if not o or len(o) != len(c) or o[:-1] != c[:-1]:
        return False
    head = "    return "
    lo, lc = o[-1], c[-1]
    if not (lo.startswith(head) and lc.startswith(head + "len(")):
        return False
    x, y = lo[len(head) :], lc[len(head) + 4 : -1]
    if not lc.endswith(")") or not (y == x or x == f"list({y})"):
        return False
    try:  # `y` one expression, so the count is one call of `len`
        ast.parse(y, mode="eval")
    except SyntaxError:
        return False
    return True
