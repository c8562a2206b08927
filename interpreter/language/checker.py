"""Resolve every name of a ruleset and check arity and types.

The checker never changes the AST. What it learns goes into `Resolved` (language/resolved.py):
a typed record per name, attribute and call (`CounterRef`, `ObjProp`, `VerbRef`...), which the
compiler looks up by node; problems go into Diagnostics, each located and, where it helps, with
a "did you mean" hint.
"""

from __future__ import annotations

from . import limits, lint, ranges, templates
from . import nodes as n
from .diagnostics import Diagnostics, did_you_mean
from .resolved import (
    AreaCounter,
    AreaFact,
    AreaZone,
    BuiltinRef,
    CardRef,
    CounterRef,
    DefineRef,
    DoableRef,
    GameRef,
    ItPropRef,
    KeyAttr,
    KeywordRef,
    KindRef,
    LocalRef,
    ObjBuiltin,
    ObjProp,
    OptionAttr,
    PlayerBuiltin,
    PlayerCounter,
    PlayerZone,
    Resolved,
    VerbRef,
    ZoneBuiltin,
    ZoneRef,
)
from .signatures import BUILTIN_NAMES, BUILTIN_SIGS, OBJECT_ATTRS, PLAYER_ATTRS, SEQUENCE_ARGS
from .symbols import (
    ANY,
    AREA,
    BOOL,
    CONDITION,
    KEYWORD,
    KIND,
    NONE,
    NUMBER,
    OBJECT,
    PLAYER,
    TEXT,
    ZONE,
    Ability,
    CallableSym,
    Symbols,
    elem_type,
    list_of,
    params_of,
    type_name,
)  # fmt: skip

DOABLE = ("doable", "실행가능")  # `doable(EVENT(ARGS))`: runtime/acts.py


class Scope:
    """Local names and their types; nested blocks share their function's scope."""

    def __init__(self, names: dict | None = None, where: bool = False, ctx: str = ""):
        self.names: dict[str, object] = dict(names or {})
        self.where = where
        self.ctx = ctx  # 'action', 'ability', 'verb', 'flow', ...

    def child(self, **extra) -> Scope:
        s = Scope(self.names, self.where, self.ctx)
        s.names.update(extra)
        return s


NUMERIC_OPS = {"+", "-", "*", "/", "%"}
# Korean spellings of built-in names that are read with a dot (option.NAME is handled apart).
KOREAN_NAMES = {"자료": "data"}
# Built-in names the rules may set: who is first in turn order, and its direction (1 or -1).
ASSIGNABLE_NAMES = {"first_player": PLAYER, "turn_direction": NUMBER}
ORDER_OPS = {"<", "<=", ">", ">="}


class Checker:
    def __init__(self, syms: Symbols, diags: Diagnostics):
        self.s = syms
        self.d = diags
        self.r = Resolved()
        self._windows_used: set[str] = set()
        # the declarations something uses (ids of symbols): the "never used" warnings, kept
        # here rather than written into the collector's tables
        self.used: set[int] = set()

    def mark_used(self, sym) -> None:
        """A declaration used from outside the language files (a setting names it)."""
        self.used.add(id(sym))

    def kind_clauses(self, k) -> None:
        """`active in` names zones; `around NAME:` holds NAME once, as a statement of its own."""
        for z in k.active_in:
            if z not in self.s.zones:
                self.d.error(
                    f"unknown zone '{z}' after `active in` of kind '{k.name}'",
                    k.active_span,
                    did_you_mean(z, self.s.zones),
                    code="unknown-zone",
                )
        if k.around is None:
            return
        name, wrap = k.around
        holes = [st for st in wrap.body if n.is_placeholder(st, name)]
        if len(holes) != 1:
            self.d.error(
                f"`around {name}:` of kind '{k.name}' needs the statement `{name}()` once, at the"
                " top of its block: it stands for each ability's own effect",
                wrap.span,
                code="around",
            )
        sc = Scope(ctx="ability")
        sc.has_this = True
        self.block(n.Block(tuple(st for st in wrap.body if st not in holes), span=wrap.span), sc)

    # ---------------------------------------------------------------- entry
    def check_all(self) -> Resolved:
        s = self.s
        for k in s.unique(s.kinds):
            for f in k.fields.values():
                if f.default is not None:
                    self.expr(f.default, Scope())
            self.kind_clauses(k)
        for c in s.unique(s.counters):
            if c.default is not None:
                self.expr(c.default, Scope())
        ranges.resolve(s, self.d, self.mark_used)
        for d in s.unique(s.defines):
            self.define_type(d)
        for v in s.unique(s.verbs):
            self.block(v.decl.body, Scope({p.name: p.type for p in v.params}, ctx="verb"))
            if v.decl.narration is not None:
                for problem in templates.problems(v.decl.narration, {p.name for p in v.params}):
                    self.d.error(f"narration: {problem}", v.decl.span, code="narration")
        for kw in s.unique(s.keywords):
            for kind in getattr(kw.decl, "kinds", ()):  # `keyword K for KIND`
                if kind not in s.kinds:
                    self.d.error(
                        f"unknown kind '{kind}' after `for` of keyword '{kw.name}'",
                        kw.span,
                        did_you_mean(kind, s.kinds),
                        code="unknown-kind",
                    )
            for item in kw.decl.items:
                if isinstance(item, n.KeywordUse):
                    self.keyword_use(item)
            if getattr(kw.decl, "cond", None) is not None:  # `keyword K[...] while COND`
                sc = Scope({p.name: p.type for p in kw.params}, ctx="ability")
                sc.has_this = True
                self.expect(kw.decl.cond, sc, BOOL)
        for ab in s.abilities:
            self.ability(ab)
        for b in s.setup:
            self.block(b, Scope(ctx="flow"))
        for b in s.flow:
            self.block(b, Scope(ctx="flow"))
        for c in s.checks:
            scope = Scope(ctx="check")
            if c.var:
                t = self.expr(c.over, scope)
                scope = scope.child(**{c.var: elem_type(t)})
            self.expect(c.cond, scope, BOOL)
            self.block(c.body, scope)
        for r in s.deck_rules:
            scope = Scope({"deck": list_of(OBJECT), **s.deck_fields}, ctx="rule")
            if r.var:
                t = self.expr(r.over, scope)
                scope = scope.child(**{r.var: elem_type(t)})
            self.expect(r.cond, scope, BOOL)
        for card in s.cards.values():
            if card.text is not None:
                for item in card.text.items:
                    if isinstance(item, n.KeywordUse):
                        self.keyword_use(item)
        limits.check_shared(s.abilities, s.actions, self.d)
        limits.check_scopes(s.abilities, self.r.phase_names, self.d)
        lint.lint_cards(s, self.d)
        self._unused()
        return self.r

    def _constant(self, e, value: bool | None) -> None:
        if value is not None:
            self.d.warning(
                f"this condition is always {'true' if value else 'false'}, whatever the game state",
                e.span,
                code="constant-condition",
            )

    def _unused(self) -> None:
        s = self.s
        for table, what in ((s.verbs, "verb"), (s.defines, "definition"), (s.events, "event")):
            for sym in s.unique(table):
                if id(sym) not in self.used:
                    self.d.warning(f"{what} '{sym.name}' is never used", sym.span, code="unused")
        for z in s.unique(s.zones):
            if id(z) not in self.used:
                self.d.warning(f"zone '{z.name}' is never used", z.span, code="unused")
        for c in s.unique(s.counters):
            if id(c) not in self.used:
                self.d.warning(f"counter '{c.name}' is never used", c.span, code="unused")
        for w in sorted(s.windows):
            if w not in self._windows_used:
                for a in s.unique(s.actions):
                    if w in a.decl.windows:
                        self.d.warning(
                            f"action '{a.name}' is in window '{w}', which no `window` statement opens",
                            a.span,
                            code="unreachable",
                        )
                        break

    # ---------------------------------------------------------------- abilities
    def ability(self, ab: Ability) -> None:
        """Check ability `ab`: the method of its declaration's class (`ability_Trigger`...)."""
        method = getattr(self, "ability_" + type(ab.decl).__name__, None)
        if method is None:  # pragma: no cover
            raise TypeError(ab.decl)
        method(ab, ab.decl, self._ability_scope(ab))

    def ability_Trigger(self, ab: Ability, d: n.Trigger, scope: Scope) -> None:
        if n.SELF in d.binds and ab.origin == "global":
            self.d.error(
                "'this' in an event pattern needs a source: the rules' own abilities have none",
                d.event_span or d.span,
                "write the ability in a keyword or a card text, or bind a name",
                code="scope",
            )
        if d.timing == "cost":
            ev = self._cost_of(d)
        else:
            ev = self._event(d.event, d.event_span or d.span)
        if ev is None:
            scope.names.update((name, ANY) for name in d.binds)
        else:
            if d.binds and len(d.binds) > len(ev.params):
                self.d.error(
                    f"'{ev.name}' has {len(ev.params)} argument(s); the pattern binds {len(d.binds)}",
                    d.span,
                    code="arity",
                )
            for name, p in zip(d.binds, ev.params):
                scope.names[name] = p.type
        if d.cond is not None:
            self.expect(d.cond, scope, BOOL)
        if d.optional_by is not None:
            self.expect(d.optional_by, scope, PLAYER)
        self.block(d.body, scope)

    def ability_Static(self, ab: Ability, d: n.Static, scope: Scope) -> None:
        self.effect(d.effect, scope)
        if d.effect.cond is not None:
            self.expect(d.effect.cond, scope, BOOL)

    def _ability_scope(self, ab: Ability) -> Scope:
        names: dict[str, object] = {}
        if ab.origin == "keyword":
            kw = self.s.keywords[ab.owner]
            names.update({p.name: p.type for p in kw.params})
        sc = Scope(names, ctx="ability")
        sc.has_this = ab.origin != "global"
        return sc

    def _cost_of(self, d: n.Trigger):
        """`cost ACTION(...)`: the action whose cost it adds to."""
        sym = self.s.actions.get(d.event)
        if sym is None:
            self.d.error(
                f"unknown action '{d.event}'",
                d.event_span or d.span,
                did_you_mean(d.event, self.s.actions),
                code="unknown-action",
            )
            return None
        return sym

    def _event(self, name: str, span) -> CallableSym | None:
        sym = self.s.events.get(name) or self.s.verbs.get(name)
        if sym is None:
            self.d.error(
                f"unknown event '{name}'",
                span,
                did_you_mean(name, list(self.s.events) + list(self.s.verbs)),
                code="unknown-event",
            )
            return None
        self.used.add(id(sym))
        return sym

    def ability_ActionDecl(self, ab: Ability, d: n.ActionDecl, scope: Scope) -> None:
        sc = scope.child()
        sc.ctx = "action"
        sym = self.s.actions.get(d.names[0])
        params = (
            sym.params if sym is not None and sym.decl is d else params_of(d.params, Diagnostics())
        )
        for p in params:
            if p.domain is not None:
                dt = self.expr(p.domain, sc)
                if p.type == ANY:
                    p.type = elem_type(dt)
            else:
                self.d.error(
                    f"action parameter '{p.name}' needs a domain: `{p.name}: type from LIST`",
                    p.span,
                    code="action-domain",
                )
            sc.names[p.name] = p.type
        self.block(d.body, sc)

    def keyword_use(self, use: n.KeywordUse) -> None:
        kw = self.s.keywords.get(use.name)
        if kw is None:
            self.d.error(
                f"unknown keyword '{use.name}'",
                use.span,
                did_you_mean(use.name, self.s.keywords),
                code="unknown-keyword",
            )
            return
        self.used.add(id(kw))
        if len(use.args) != len(kw.params):
            want = len(kw.params)
            sig = ", ".join(f"{p.name}: {type_name(p.type)}" for p in kw.params)
            self.d.error(
                f"keyword '{use.name}' takes {want} argument{'s' if want != 1 else ''}, got {len(use.args)}",
                use.span,
                f"write it as {use.name}[{sig}]" if want else f"write it as {use.name}",
                code="arity",
            )
            return
        for arg, p in zip(use.args, kw.params):
            if p.type == KEYWORD:
                if not (isinstance(arg, n.Name) and arg.name in self.s.keywords):
                    name = arg.name if isinstance(arg, n.Name) else None
                    self.d.error(
                        f"argument '{p.name}' of '{use.name}' must be a keyword",
                        arg.span,
                        did_you_mean(name, self.s.keywords) if name else None,
                        code="type",
                    )
                else:
                    self.used.add(id(self.s.keywords[arg.name]))
                    self.r.set_name(arg, KeywordRef(self.s.canonical[arg.name]))
            elif p.type == CONDITION:
                self.expect(arg, Scope({"it": OBJECT}, where=True, ctx="condition"), BOOL)
            else:
                t = self.expr(arg, Scope(ctx="card"))
                self.compat(t, p.type, arg, f"argument '{p.name}' of '{use.name}'")

    # ---------------------------------------------------------------- statements
    def block(self, b: n.Block, scope: Scope) -> None:
        for st in b.body:
            self.stmt(st, scope)

    def stmt(self, st: n.Stmt, sc: Scope) -> None:
        """Check statement `st`: the method of its class (`stmt_If`...)."""
        method = getattr(self, "stmt_" + type(st).__name__, None)
        if method is None:  # pragma: no cover
            raise TypeError(st)
        method(st, sc)

    def stmt_Let(self, st: n.Let, sc: Scope) -> None:
        sc.names[st.name] = t = self.expr(st.value, sc)
        self.r.set_binding(st, t)

    def stmt_Assign(self, st: n.Assign, sc: Scope) -> None:
        t = self.target(st.target, sc)
        vt = self.expr(st.value, sc)
        if isinstance(st.target, n.Name) and st.target.name in sc.names:
            self.r.set_binding(st, vt if st.op == "=" else NUMBER)
        if st.op != "=":
            self.compat(t, NUMBER, st.target, f"'{st.op}' target")
            self.compat(vt, NUMBER, st.value, f"'{st.op}' amount")
        else:
            self.compat(vt, t, st.value, "assigned value")
            if (
                isinstance(st.target, n.Name)
                and isinstance(t, tuple)
                and t[1] == ANY
                and isinstance(vt, tuple)
            ):
                sc.names[st.target.name] = vt

    def stmt_Move(self, st: n.Move, sc: Scope) -> None:
        self.expr(st.what, sc)
        self.expect(st.zone, sc, ZONE)
        if st.index is not None:
            self.expect(st.index, sc, NUMBER)

    def stmt_Create(self, st: n.Create, sc: Scope) -> None:
        self.expr(st.card, sc)
        self.expect(st.zone, sc, ZONE)
        if st.owner is not None:
            self.expect(st.owner, sc, PLAYER)
        if st.name:
            sc.names[st.name] = OBJECT

    def stmt_Remove(self, st: n.Remove, sc: Scope) -> None:
        self.expr(st.what, sc)

    def stmt_Shuffle(self, st: n.Shuffle, sc: Scope) -> None:
        self.expect(st.zone, sc, ZONE)

    def stmt_Choose(self, st: n.Choose, sc: Scope) -> None:
        t = self.expr(st.options, sc)
        if st.by is not None:
            self.expect(st.by, sc, PLAYER)
        for e in (st.min, st.max):
            if e is not None:
                self.expect(e, sc, NUMBER)
        sc.names[st.name] = list_of(elem_type(t)) if st.min is not None else elem_type(t)
        self.r.set_type(st, elem_type(t))
        self.r.set_binding(st, sc.names[st.name])

    def stmt_Order(self, st: n.Order, sc: Scope) -> None:
        t = self.expr(st.items, sc)
        if st.by is not None:
            self.expect(st.by, sc, PLAYER)
        sc.names[st.name] = list_of(elem_type(t))
        self.r.set_type(st, elem_type(t))
        self.r.set_binding(st, sc.names[st.name])

    def stmt_Emit(self, st: n.Emit, sc: Scope) -> None:
        ev = self.s.events.get(st.event)
        if ev is None:
            self.d.error(
                f"unknown event '{st.event}'",
                st.span,
                did_you_mean(st.event, self.s.events) or "declare it with `event NAME(params)`",
                code="unknown-event",
            )
            for a in st.args:
                self.expr(a, sc)
            return
        self.used.add(id(ev))
        self.args(ev, st.args, st, sc)

    def stmt_CallStmt(self, st: n.CallStmt, sc: Scope) -> None:
        v = self.s.verbs.get(st.verb)
        if v is None:
            hint = did_you_mean(st.verb, self.s.verbs)
            if st.verb in self.s.defines or st.verb in BUILTIN_SIGS:
                hint = f"'{st.verb}' is an expression, not a verb; use it inside a statement"
            self.d.error(f"unknown verb '{st.verb}'", st.span, hint, code="unknown-verb")
            for a in st.args:
                self.expr(a, sc)
            return
        self.used.add(id(v))
        self.r.set_call(st, VerbRef(v.name))
        self.args(v, st.args, st, sc)

    def stmt_Win(self, st: n.Win | n.Lose, sc: Scope) -> None:
        self.one_or_list(
            st.who, sc, PLAYER,
            f"'{type(st).__name__.lower()}' needs a player or a list of players",
        )  # fmt: skip

    stmt_Lose = stmt_Win

    def stmt_DrawGame(self, st: n.Stmt, sc: Scope) -> None:
        """A statement with nothing to check."""

    stmt_End = stmt_Expire = stmt_Pass = stmt_Return = stmt_Break = stmt_DrawGame

    def stmt_Modify(self, st: n.Modify | n.Grant, sc: Scope) -> None:
        self.effect(st, sc)
        if st.until_of is not None:
            if st.until != "turn":
                self.d.error(
                    "'until end of S of P' is said of a turn only: 'until end of turn of P'",
                    st.span,
                    code="type",
                )
            self.expect(st.until_of, sc, PLAYER)

    stmt_Grant = stmt_Modify

    def stmt_Window(self, st: n.Window, sc: Scope) -> None:
        self._windows_used.add(st.name)
        if st.name not in self.s.windows:
            self.d.warning(
                f"no action is declared in window '{st.name}'",
                st.span,
                did_you_mean(st.name, self.s.windows),
                code="unknown-window",
            )
        self.one_or_list(st.by, sc, PLAYER, "a window is offered to a player or a list of players")
        if st.pass_if is not None:
            self.expect(st.pass_if, sc, BOOL)

    def stmt_Log(self, st: n.Log, sc: Scope) -> None:
        self.r.set_type(st, self.expr(st.value, sc))

    def stmt_Reveal(self, st: n.Reveal, sc: Scope) -> None:
        self.one_or_list(st.what, sc, OBJECT, "'reveal' shows an object or a list of objects")
        self.one_or_list(st.to, sc, PLAYER, "'reveal ... to' needs a player or a list of players")

    def stmt_Require(self, st: n.Require, sc: Scope) -> None:
        self.expect(st.cond, sc, BOOL)

    def stmt_If(self, st: n.If, sc: Scope) -> None:
        for cond, body in st.branches:
            self.expect(cond, sc, BOOL)
            self.block(body, sc)
        if st.orelse is not None:
            self.block(st.orelse, sc)

    def stmt_For(self, st: n.For, sc: Scope) -> None:
        t = self.expr(st.items, sc)
        if t not in (ANY, ZONE) and not isinstance(t, tuple):
            self.d.error(
                f"'for' needs a list or a zone, got {type_name(t)}",
                st.items.span,
                code="type",
            )
        sc.names[st.name] = elem_type(t)
        self.r.set_binding(st, elem_type(t))
        self.block(st.body, sc)

    def stmt_Repeat(self, st: n.Repeat, sc: Scope) -> None:
        self.expect(st.times, sc, NUMBER)
        self.block(st.body, sc)

    def stmt_While(self, st: n.While, sc: Scope) -> None:
        self.expect(st.cond, sc, BOOL)
        self.block(st.body, sc)

    def stmt_Hold(self, st: n.Hold, sc: Scope) -> None:
        self.block(st.body, sc)

    def stmt_Scope(self, st: n.Scope, sc: Scope) -> None:
        if st.player is not None:
            self.expect(st.player, sc, PLAYER)
        if st.kind == "phase":
            self.phase_spellings(st)
        self.block(st.body, sc)

    def phase_spellings(self, st: n.Scope) -> None:
        """`phase gather/모으기:` makes the other names spellings of the first; a phase
        written with one name is itself unless some `phase` statement gives it aliases."""
        names = self.r.phase_names
        if not st.aliases:
            names.setdefault(st.name, st.name)
            return
        for alias in (st.name, *st.aliases):
            if names.get(alias, st.name) not in (st.name, alias):
                self.d.error(
                    f"'{alias}' is already a spelling of the phase '{names[alias]}'",
                    st.span,
                    code="duplicate",
                )
            names[alias] = st.name

    def effect(self, st, sc: Scope) -> None:
        if isinstance(st, n.Modify):
            t = self.expr(st.obj, sc)
            f = self.s.fields.get(st.prop)
            if f is None:
                self.d.error(
                    f"unknown property '{st.prop}'",
                    st.span,
                    did_you_mean(st.prop, self.s.fields),
                    code="unknown-property",
                )
            elif st.op == "set":  # "becomes": any property, a value of its type
                self.compat(self.expr(st.amount, sc), f.type, st.amount, f"new '{st.prop}'")
                return
            elif f.type != NUMBER:
                self.d.error(
                    f"only number properties can be modified by an amount; '{st.prop}' is "
                    f"{type_name(f.type)}",
                    st.span,
                    f"`modify x.{st.prop} to VALUE` makes it a value",
                    code="type",
                )
            self.expect(st.amount, sc, NUMBER)
            del t
        else:
            k = st.keyword
            if st.args:
                self.granted_args(st, sc)
            else:
                kt = self.expr(k, sc)
                self.compat(kt, KEYWORD, k, "granted keyword")
                res = self.r.name_of(k)
                kw = self.s.keywords.get(res.name) if isinstance(res, KeywordRef) else None
                if kw is not None and kw.params:
                    sig = ", ".join(p.name for p in kw.params)
                    self.d.warning(
                        f"'{k.name}' is granted without its argument{'s' if len(kw.params) > 1 else ''}"
                        f" ({sig}): they read none",
                        k.span,
                        f"grant {k.name}[{sig}] to ...",
                        code="arity",
                    )
            self.expr(st.to, sc)

    def one_or_list(self, e: n.Expr, sc: Scope, want, message: str) -> None:
        """`e` must be a `want` or a list of them (who wins, who is shown a card)."""
        t = self.expr(e, sc)
        if t not in (want, ANY) and not (isinstance(t, tuple) and t[1] in (want, ANY)):
            self.d.error(f"{message}, got {type_name(t)}", e.span, code="type")

    def granted_args(self, st: n.Grant, sc: Scope) -> None:
        """`grant K[a, b] to x`: K must be a keyword by name; its arguments are computed when
        the grant is made, in the granting ability's scope."""
        k = st.keyword
        kw = self.s.keywords.get(k.name) if isinstance(k, n.Name) else None
        if kw is None:
            self.d.error(
                f"'{getattr(k, 'name', '?')}[...]' after grant must be a keyword with its arguments",
                k.span,
                did_you_mean(getattr(k, "name", None), self.s.keywords)
                or "to grant a keyword held in a list, write `let k = l[i]` then `grant k to x`",
                code="unknown-keyword",
            )
            return
        self.used.add(id(kw))
        self.r.set_name(k, KeywordRef(self.s.canonical[k.name]))
        if len(st.args) != len(kw.params):
            sig = ", ".join(f"{p.name}: {type_name(p.type)}" for p in kw.params)
            self.d.error(
                f"keyword '{k.name}' takes {len(kw.params)} argument"
                f"{'s' if len(kw.params) != 1 else ''}, got {len(st.args)}",
                k.span,
                f"write it as {k.name}[{sig}]" if kw.params else f"grant {k.name} itself",
                code="arity",
            )
            return
        for arg, p in zip(st.args, kw.params):
            if p.type == KEYWORD:
                if isinstance(arg, n.Name) and arg.name in self.s.keywords:
                    self.used.add(id(self.s.keywords[arg.name]))
                    self.r.set_name(arg, KeywordRef(self.s.canonical[arg.name]))
                else:
                    self.compat(self.expr(arg, sc), KEYWORD, arg, f"argument '{p.name}'")
            elif p.type == CONDITION:
                self.expect(arg, Scope({"it": OBJECT}, where=True, ctx="condition"), BOOL)
            else:
                t = self.expr(arg, sc)
                self.compat(t, p.type, arg, f"argument '{p.name}' of '{k.name}'")

    def args(self, sym: CallableSym, args, node, sc: Scope) -> None:
        if len(args) != len(sym.params):
            sig = ", ".join(p.name for p in sym.params)
            self.d.error(
                f"'{sym.name}' takes {len(sym.params)} argument{'s' if len(sym.params) != 1 else ''} ({sig}), got {len(args)}",
                node.span,
                code="arity",
            )
        for a, p in zip(args, sym.params):
            t = self.expr(a, sc)
            self.compat(t, p.type, a, f"argument '{p.name}' of '{sym.name}'")
        for a in args[len(sym.params) :]:
            self.expr(a, sc)

    def target(self, e: n.Expr, sc: Scope):
        if isinstance(e, n.Name):
            if e.name in sc.names:
                self.r.set_name(e, LocalRef(e.name))
                return sc.names[e.name]
            c = self.s.counters.get(e.name)
            if c is not None and c.scope == "global":
                self.used.add(id(c))
                self.r.set_name(e, CounterRef(c.name))
                return NUMBER
            if e.name in ASSIGNABLE_NAMES:
                if sc.where:
                    self.d.error(f"cannot assign to '{e.name}' here", e.span, code="not-assignable")
                self.r.set_name(e, GameRef(e.name))
                return ASSIGNABLE_NAMES[e.name]
            counter = self.s.counters.get(e.name)
            scope = counter.scope if counter is not None else None
            if scope == "player":
                hint = f"'{e.name}' is a counter of each player: write `you.{e.name}` (or `p.{e.name}`)"
            elif scope == "area":
                hint = f"'{e.name}' is a counter of each area: write `AREA.{e.name}`"
            else:
                hint = did_you_mean(e.name, list(sc.names) + list(self.s.counters))
            self.d.error(
                f"cannot assign to '{e.name}': not a local name or a global counter",
                e.span,
                hint,
                code="unknown-name",
            )
            return ANY
        if isinstance(e, n.Attr):
            t = self.expr(e, sc)
            res = self.r.attr_of(e)
            if (
                res
                and not isinstance(res, ObjProp | PlayerCounter | AreaCounter | KeyAttr)
                and res != ObjBuiltin("owner")
            ):
                self.d.error(f"cannot assign to '{e.name}'", e.span, code="not-assignable")
            return t
        self.d.error("cannot assign to this expression", e.span, code="not-assignable")
        return ANY

    # ---------------------------------------------------------------- expressions
    def expect(self, e: n.Expr, sc: Scope, want) -> None:
        t = self.expr(e, sc)
        self.compat(t, want, e, "value")

    def compat(self, got, want, e: n.Expr, what: str) -> None:
        if got == want or ANY in (got, want) or got == NONE or want == CONDITION:
            return
        if isinstance(got, tuple) and isinstance(want, tuple):
            if ANY in (got[1], want[1]) or got[1] == want[1]:
                return
        if want == ZONE and got == ZONE:
            return
        if isinstance(want, tuple) and got == ZONE and want[1] in (OBJECT, ANY):
            return
        if want in (KIND, TEXT) and got in (KIND, TEXT):
            return
        if want == KEYWORD and got == TEXT:
            return
        self.d.error(f"{what} must be {type_name(want)}, got {type_name(got)}", e.span, code="type")

    def expr(self, e: n.Expr, sc: Scope):
        """The type of expression `e`, from the method of its class (`expr_Call`...)."""
        method = getattr(self, "expr_" + type(e).__name__, None)
        if method is None:  # pragma: no cover
            raise TypeError(e)
        return method(e, sc)

    def expr_Num(self, e: n.Num, sc: Scope):
        return NUMBER

    def expr_Str(self, e: n.Str, sc: Scope):
        return TEXT

    def expr_Const(self, e: n.Const, sc: Scope):
        return BOOL if e.value is not None else NONE

    def expr_Special(self, e: n.Special, sc: Scope):
        if e.which == "it":
            if "it" not in sc.names:
                self.d.error(
                    "'it' is only meaningful inside `where` or a condition",
                    e.span,
                    code="scope",
                )
                return ANY
            return sc.names["it"]
        if e.which == "this" and not getattr(sc, "has_this", False) and "this" not in sc.names:
            if sc.ctx not in ("ability", "condition", "card", "action"):
                self.d.error(
                    f"'this' has no meaning in a {sc.ctx or 'rule'}: only abilities of keywords and cards have a source",
                    e.span,
                    code="scope",
                )
        return OBJECT if e.which == "this" else PLAYER

    def expr_Index(self, e: n.Index, sc: Scope):
        t = self.expr(e.obj, sc)
        self.expr(e.index, sc)
        if e.rest:
            self.d.error(
                "an index takes one value: several are written only after `grant`, as "
                "a keyword's arguments",
                e.rest[0].span,
                code="syntax",
            )
        return elem_type(t) if isinstance(t, tuple) or t == ZONE else ANY

    def expr_ListExpr(self, e: n.ListExpr, sc: Scope):
        ts = [self.expr(i, sc) for i in e.items]
        return list_of(ts[0] if ts and all(t == ts[0] for t in ts) else ANY)

    def expr_BinOp(self, e: n.BinOp, sc: Scope):
        lt, rt = self.expr(e.left, sc), self.expr(e.right, sc)
        self.r.set_operands(e, lt, rt)
        self._constant(e, lint.constant_comparison(e))
        if e.op in NUMERIC_OPS:
            if e.op == "+" and (isinstance(lt, tuple) or isinstance(rt, tuple)):
                if isinstance(lt, tuple) and isinstance(rt, tuple) and lt[1] == ANY:
                    return rt
                return lt if isinstance(lt, tuple) else rt
            if e.op == "+" and TEXT in (lt, rt):
                return TEXT
            self.compat(lt, NUMBER, e.left, f"left side of '{e.op}'")
            self.compat(rt, NUMBER, e.right, f"right side of '{e.op}'")
            return NUMBER
        if e.op in ORDER_OPS:
            self.compat(lt, NUMBER, e.left, f"left side of '{e.op}'")
            self.compat(rt, NUMBER, e.right, f"right side of '{e.op}'")
            return BOOL
        if (
            ANY not in (lt, rt)
            and NONE not in (lt, rt)
            and lt != rt
            and not (
                {lt, rt} <= {TEXT, KIND, KEYWORD} or isinstance(lt, tuple) and isinstance(rt, tuple)
            )
        ):
            self.d.error(
                f"comparing {type_name(lt)} with {type_name(rt)} is always {'false' if e.op == '==' else 'true'}",
                e.span,
                code="type",
            )
        return BOOL

    def expr_BoolOp(self, e: n.BoolOp, sc: Scope):
        for i in e.items:
            self.expect(i, sc, BOOL)
        self._constant(e, lint.constant_condition(e))
        return BOOL

    def expr_Not(self, e: n.Not, sc: Scope):
        self.expect(e.expr, sc, BOOL)
        return BOOL

    def expr_Neg(self, e: n.Neg, sc: Scope):
        self.expect(e.expr, sc, NUMBER)
        return NUMBER

    def expr_Contains(self, e: n.Contains, sc: Scope):
        self.expr(e.item, sc)
        t = self.expr(e.container, sc)
        if t not in (ZONE, ANY) and not isinstance(t, tuple):
            self.d.error(
                f"'in' needs a list or a zone on its right, got {type_name(t)}",
                e.container.span,
                code="type",
            )
        return BOOL

    def expr_Has(self, e: n.Has, sc: Scope):
        self.expect(e.obj, sc, OBJECT)
        if e.keyword in self.s.keywords:
            self.used.add(id(self.s.keywords[e.keyword]))
        elif e.keyword in sc.names and sc.names[e.keyword] in (KEYWORD, ANY):
            self.r.set_name(e, LocalRef(e.keyword))
        else:
            self.d.error(
                f"unknown keyword '{e.keyword}'",
                e.span,
                did_you_mean(e.keyword, self.s.keywords),
                code="unknown-keyword",
            )
        return BOOL

    def expr_IsKind(self, e: n.IsKind, sc: Scope):
        self.expect(e.obj, sc, OBJECT)
        if e.kind not in self.s.kinds:
            self.d.error(
                f"unknown kind '{e.kind}'",
                e.span,
                did_you_mean(e.kind, self.s.kinds),
                code="unknown-kind",
            )
        return BOOL

    def expr_IfExpr(self, e: n.IfExpr, sc: Scope):
        self.expect(e.cond, sc, BOOL)
        a, b = self.expr(e.then, sc), self.expr(e.orelse, sc)
        return a if a == b or b == NONE else (b if a == NONE else ANY)

    def expr_Where(self, e: n.Where, sc: Scope):
        t = self.expr(e.items, sc)
        if t not in (ANY, ZONE) and not isinstance(t, tuple):
            self.d.error(
                f"'where' filters a list or a zone, got {type_name(t)}",
                e.items.span,
                code="type",
            )
        inner = sc.child(it=elem_type(t))
        inner.where = True
        self.expect(e.cond, inner, BOOL)
        return list_of(elem_type(t))

    def define_type(self, d):
        """The type of a definition's body, checked once, when first needed: a definition
        used before its declaration is typed too. A definition reached again while its own
        body is being checked (recursion) is `any` there."""
        types = self.__dict__.setdefault("_define_types", {})
        if d.name not in types:
            types[d.name] = ANY
            scope = Scope({p.name: p.type for p in d.params}, ctx="define")
            types[d.name] = self.expr(d.decl.body, scope)
        return types[d.name]

    def expr_Name(self, e: n.Name, sc: Scope):
        s, name, r = self.s, e.name, self.r
        if name in sc.names:
            r.set_name(e, LocalRef(name))
            return sc.names[name]
        if name in s.defines:
            d = s.defines[name]
            self.used.add(id(d))
            if d.params:
                self.d.error(f"'{name}' takes arguments: write {name}(...)", e.span, code="arity")
            r.set_name(e, DefineRef(d.name))
            return self.define_type(d)
        if name in s.counters and s.counters[name].scope == "global":
            self.used.add(id(s.counters[name]))
            r.set_name(e, CounterRef(s.counters[name].name))
            return NUMBER
        if name in s.zones and s.zones[name].scope == "global":
            self.used.add(id(s.zones[name]))
            r.set_name(e, ZoneRef(s.zones[name].name))
            return ZONE
        if name in BUILTIN_NAMES or name in KOREAN_NAMES:
            name = KOREAN_NAMES.get(name, name)
            r.set_name(e, BuiltinRef(name))
            return BUILTIN_NAMES[name]
        if (
            sc.where
            and name in s.fields
            and "it" in sc.names
            or sc.ctx == "condition"
            and name in s.fields
        ):
            r.set_name(e, ItPropRef(name))
            return s.fields[name].type
        if name in s.keywords:
            self.used.add(id(s.keywords[name]))
            r.set_name(e, KeywordRef(s.canonical[name]))
            return KEYWORD
        if name in s.kinds:
            r.set_name(e, KindRef(s.canonical[name]))
            return KIND
        if name in s.cards:
            r.set_name(e, CardRef(name))
            return TEXT
        if name in s.zones or name in s.counters:
            what = "zone" if name in s.zones else "counter"
            sym = s.zones.get(name) or s.counters.get(name)
            self.used.add(id(sym))
            self.d.error(
                f"'{name}' is a {what} {('of each ' + sym.scope) if sym.scope != 'global' else ''}: say whose, as in p.{name}",
                e.span,
                code="scope",
            )
            return ANY
        cands = (
            list(sc.names)
            + list(s.defines)
            + list(s.counters)
            + list(s.zones)
            + list(BUILTIN_NAMES)
            + list(s.keywords)
            + list(s.cards)
        )
        self.d.error(
            f"unknown name '{name}'", e.span, did_you_mean(name, cands), code="unknown-name"
        )
        return ANY

    def expr_Attr(self, e: n.Attr, sc: Scope):
        s, name = self.s, e.name
        if (
            isinstance(e.obj, n.Name)
            and e.obj.name in ("option", "옵션")
            and e.obj.name not in sc.names
        ):
            self.r.set_name(e.obj, BuiltinRef("option"))
            if name not in s.options:
                self.d.error(
                    f"unknown option '{name}'",
                    e.span,
                    did_you_mean(name, s.options),
                    code="unknown-option",
                )
                return ANY
            self.r.set_attr(e, OptionAttr(name))
            spec = s.options[name]
            if spec.get("per_seat"):
                return list_of(_value_type(spec.get("default")))
            return _value_type(spec.get("default"))
        t = self.expr(e.obj, sc)
        if t == ANY and isinstance(e.obj, n.Name) and e.obj.name in ("data", "자료"):
            self.r.set_attr(e, KeyAttr(name))
            return ANY
        if isinstance(t, tuple):
            # An attribute of a list is the list of that attribute of each item: players.hand.
            self.r.set_maps(e)
            inner = self._attr_of(e, t[1], name)
            return list_of(inner) if inner is not None else ANY
        rt = self._attr_of(e, t, name)
        return ANY if rt is None else rt

    def _attr_of(self, e: n.Attr, t, name: str):
        s = self.s
        zone = s.zones.get(name)
        counter = s.counters.get(name)
        field_ = s.fields.get(name)
        cands: list[tuple] = []
        if t in (PLAYER, ANY):
            if zone is not None and zone.scope == "player":
                cands.append((PlayerZone(zone.name), ZONE))
            if counter is not None and counter.scope == "player":
                cands.append((PlayerCounter(counter.name), NUMBER))
            if name in PLAYER_ATTRS:
                cands.append((PlayerBuiltin(name), PLAYER_ATTRS[name]))
        if t in (AREA, ANY):
            if zone is not None and zone.scope == "area":
                cands.append((AreaZone(zone.name), ZONE))
            if counter is not None and counter.scope == "area":
                cands.append((AreaCounter(counter.name), NUMBER))
            per_area = [x for x in (zone, counter) if x is not None and x.scope == "area"]
            if not per_area and name in s.area_facts:
                cands.append((AreaFact(name), ANY))
        if t in (OBJECT, ANY):
            if field_ is not None:
                cands.append((ObjProp(name), field_.type))
            if name in OBJECT_ATTRS:
                cands.append((ObjBuiltin(name), OBJECT_ATTRS[name]))
        if t in (ZONE,) and name in ("owner", "size", "소유자", "크기"):
            cands.append((ZoneBuiltin(name), PLAYER if name in ("owner", "소유자") else NUMBER))
        if t == ANY and not cands:
            cands.append((KeyAttr(name), ANY))
        if not cands:
            known = []
            if t == PLAYER:
                known = (
                    [z.name for z in s.unique(s.zones) if z.scope == "player"]
                    + [c.name for c in s.unique(s.counters) if c.scope == "player"]
                    + list(PLAYER_ATTRS)
                )
            elif t == OBJECT:
                known = list(s.fields) + list(OBJECT_ATTRS)
            elif t == AREA:
                known = (
                    [z.name for z in s.unique(s.zones) if z.scope == "area"]
                    + [c.name for c in s.unique(s.counters) if c.scope == "area"]
                    + sorted(s.area_facts)
                )
            self.d.error(
                f"{type_name(t)} has no '{name}'",
                e.span,
                did_you_mean(name, known),
                code="unknown-property",
            )
            return None
        if len(cands) > 1 and len({c[0].of for c in cands}) > 1:
            self.d.error(
                f"'{name}' could be a {' or '.join(sorted({c[0].of for c in cands}))} attribute: "
                "declare the type of the value before the dot",
                e.span,
                code="ambiguous",
            )
        ref, rt = cands[0]
        if zone is not None and isinstance(ref, PlayerZone | AreaZone):
            self.used.add(id(zone))
        if counter is not None and isinstance(ref, PlayerCounter | AreaCounter):
            self.used.add(id(counter))
        self.r.set_attr(e, ref)
        return rt

    def doable(self, e: n.Call, sc: Scope):
        """`doable(EVENT(ARGS))`: whether raising the event now would do anything (a bool)."""
        inner = e.args[0] if len(e.args) == 1 else None
        sym = None
        if isinstance(inner, n.Call):
            sym = self.s.events.get(inner.func) or self.s.verbs.get(inner.func)
        if sym is None:
            self.d.error(
                f"'{e.func}' takes one event or verb with its arguments: {e.func}(EVENT(ARGS))",
                e.span,
                did_you_mean(inner.func, list(self.s.events) + list(self.s.verbs))
                if isinstance(inner, n.Call)
                else None,
                code="arity",
            )
            for a in inner.args if isinstance(inner, n.Call) else e.args:
                self.expr(a, sc)
            return BOOL
        sym.used = True
        self.args(sym, inner.args, inner, sc)
        self.r.set_call(e, DoableRef(sym.name))
        return BOOL

    def expr_Call(self, e: n.Call, sc: Scope):
        s = self.s
        if e.func in DOABLE and e.func not in s.defines:
            return self.doable(e, sc)
        d = s.defines.get(e.func)
        if d is not None:
            self.used.add(id(d))
            self.r.set_call(e, DefineRef(d.name))
            self.args(d, e.args, e, sc)
            return self.define_type(d)
        b = BUILTIN_SIGS.get(e.func)
        if b is not None:
            lo, hi, ret = b.min_args, b.max_args, b.returns
            if not lo <= len(e.args) <= hi:
                want = f"{lo}" if lo == hi else f"{lo} to {hi}"
                self.d.error(
                    f"'{e.func}' takes {want} argument{'s' if hi != 1 else ''}, got {len(e.args)}",
                    e.span,
                    code="arity",
                )
            ts = [self.expr(a, sc) for a in e.args]
            for i in SEQUENCE_ARGS.get(e.func, ()):
                if i < len(ts) and ts[i] not in (ANY, ZONE, NONE) and not isinstance(ts[i], tuple):
                    self.d.error(
                        f"'{e.func}' needs a list or a zone here, got {type_name(ts[i])}",
                        e.args[i].span,
                        code="type",
                    )
            self.r.set_call(e, BuiltinRef(e.func))
            if callable(ret):
                return ret(ts)
            return ret
        if e.func in s.verbs:
            self.d.error(
                f"'{e.func}' is a verb: call it as a statement on its own line",
                e.span,
                code="not-expression",
            )
        else:
            self.d.error(
                f"unknown function '{e.func}'",
                e.span,
                did_you_mean(e.func, list(s.defines) + list(BUILTIN_SIGS)),
                code="unknown-function",
            )
        for a in e.args:
            self.expr(a, sc)
        return ANY


def _value_type(v):
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return NUMBER
    if isinstance(v, str):
        return TEXT
    return ANY
