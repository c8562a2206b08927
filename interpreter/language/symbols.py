"""The declarations of a ruleset, collected from all its files into one table.

`collect` walks the parsed modules and the cards, reports duplicates, and builds the lookup tables
that the checker resolves names against. Every declaration may have aliases (`name/alias`); all
spellings map to the same symbol, and the first spelling is canonical.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields

from . import nodes as n
from .diagnostics import Diagnostics, Span, did_you_mean

# Types of the language, as the checker sees them.
NUMBER, TEXT, BOOL, PLAYER, OBJECT, ZONE, AREA, KEYWORD, KIND, ANY, NONE = (
    "number", "text", "bool", "player", "object", "zone", "area", "keyword", "kind", "any", "none"
)  # fmt: skip
CONDITION = "condition"

TYPE_NAMES = {
    "number": NUMBER, "숫자": NUMBER, "int": NUMBER,
    "text": TEXT, "문자": TEXT, "string": TEXT,
    "bool": BOOL, "논리": BOOL,
    "player": PLAYER, "플레이어": PLAYER,
    "object": OBJECT, "card": OBJECT, "객체": OBJECT, "카드": OBJECT,
    "zone": ZONE, "구역": ZONE,
    "area": AREA, "지역": AREA,
    "keyword": KEYWORD, "키워드": KEYWORD,
    "kind": KIND, "종류": KIND,
    "condition": CONDITION, "조건식": CONDITION,
    "any": ANY, "값": ANY,
    "list": ("list", ANY), "목록": ("list", ANY),
}  # fmt: skip


def list_of(t):
    return ("list", t)


def elem_type(t):
    if isinstance(t, tuple):
        return t[1]
    if t == ZONE:
        return OBJECT
    return ANY


def type_name(t) -> str:
    if isinstance(t, tuple):
        return f"list of {type_name(t[1])}"
    return t


ZONE_SCOPES = {"per player": "player", "플레이어마다": "player", "per area": "area", "지역마다": "area",
               "shared": "global", "공용": "global"}  # fmt: skip
ZONE_FLAGS = {
    "ordered": "ordered", "순서": "ordered",
    "public": "public", "공개": "public",
    "owner sees": "owner", "소유자공개": "owner",
    "hidden": "hidden", "비공개": "hidden",
    "active": "active", "활성": "active",
    "new objects": "renews", "새개체": "renews",
}  # fmt: skip


@dataclass
class Sym:
    name: str
    span: Span


@dataclass
class FieldSym(Sym):
    type: object = ANY
    default: n.Expr | None = None
    kinds: list[str] = field(default_factory=list)
    limits: tuple[int, int] | None = None  # the values a card may hold (`number 0..10`)


@dataclass
class KindSym(Sym):
    names: tuple[str, ...] = ()
    fields: dict[str, FieldSym] = field(default_factory=dict)
    cards: tuple[int, int] | None = None  # how many cards of this kind a game may have
    active_in: tuple[str, ...] = ()  # where its cards' abilities are in force (): `active` zones
    active_span: object = None
    around: tuple[str, n.Block] | None = None  # `around NAME:` the block around every ability


@dataclass
class ZoneSym(Sym):
    names: tuple[str, ...] = ()
    scope: str = "global"
    ordered: bool = False
    visibility: str = "public"
    active: bool = False
    renews: bool = False  # an object entering it from another zone is a new object
    index: int = 0


@dataclass
class CounterSym(Sym):
    names: tuple[str, ...] = ()
    scope: str = "global"
    default: n.Expr | None = None
    bounds: tuple[n.Expr | None, n.Expr | None] | None = None  # `in LOW..HIGH` as written
    # the bounds' values (ranges.resolve; None on a side left open), when it has a range
    range: tuple[int | None, int | None] | None = None


@dataclass
class ParamSym:
    name: str
    type: object
    domain: n.Expr | None
    span: Span


@dataclass
class CallableSym(Sym):
    """Verbs, events, definitions, keywords and actions: things with parameters."""

    kind: str = ""
    names: tuple[str, ...] = ()
    params: list[ParamSym] = field(default_factory=list)
    decl: object = None


@dataclass
class CardSym(Sym):
    kind: str = ""
    props: dict = field(default_factory=dict)
    text: n.CardText | None = None
    traits: tuple[str, ...] = ()
    index: int = 0
    copies: int = 1
    extra: dict = field(default_factory=dict)


@dataclass
class Ability:
    """A trigger, static effect or action, with where it comes from: the rules themselves
    ('global'), a keyword definition, or a card's text."""

    decl: n.Trigger | n.Static | n.ActionDecl
    origin: str  # 'global' | 'keyword' | 'card'
    owner: str | None  # keyword or card name
    id: int = 0


@dataclass
class Symbols:
    kinds: dict[str, KindSym] = field(default_factory=dict)
    fields: dict[str, FieldSym] = field(default_factory=dict)
    zones: dict[str, ZoneSym] = field(default_factory=dict)
    counters: dict[str, CounterSym] = field(default_factory=dict)
    events: dict[str, CallableSym] = field(default_factory=dict)
    verbs: dict[str, CallableSym] = field(default_factory=dict)
    defines: dict[str, CallableSym] = field(default_factory=dict)
    keywords: dict[str, CallableSym] = field(default_factory=dict)
    actions: dict[str, CallableSym] = field(default_factory=dict)
    cards: dict[str, CardSym] = field(default_factory=dict)
    timings: dict[str, n.TimingDecl] = field(default_factory=dict)  # `timing` words
    windows: set[str] = field(default_factory=set)
    abilities: list[Ability] = field(default_factory=list)
    setup: list[n.Block] = field(default_factory=list)
    flow: list[n.Block] = field(default_factory=list)
    checks: list[n.CheckDecl] = field(default_factory=list)
    deck_rules: list[n.RuleDecl] = field(default_factory=list)
    deck_fields: dict = field(default_factory=dict)  # name -> type of a deck file's own fields
    options: dict = field(default_factory=dict)  # name -> option spec (from ruleset.yaml)
    data: object = None
    area_facts: set[str] = field(default_factory=set)  # fields of the maps' areas (not adjacent)
    canonical: dict[str, str] = field(default_factory=dict)  # any spelling -> canonical name

    def unique(self, table: dict) -> list:
        seen, out = set(), []
        for s in table.values():
            if id(s) not in seen:
                seen.add(id(s))
                out.append(s)
        return out

    def all_names(self) -> set[str]:
        out = set()
        for table in (self.kinds, self.zones, self.counters, self.events, self.verbs, self.defines,
                      self.keywords, self.actions, self.cards, self.fields):  # fmt: skip
            out.update(table)
        return out


def _type_of(ref: n.TypeRef | None, diags: Diagnostics):
    if ref is None:
        return ANY
    t = TYPE_NAMES.get(ref.name)
    if t is None:
        diags.error(
            f"unknown type '{ref.name}'",
            ref.span,
            did_you_mean(ref.name, TYPE_NAMES)
            or "types: number, text, bool, player, object, zone, area, keyword, list of T",
            code="unknown-type",
        )
        return ANY
    if ref.of is not None:
        inner = TYPE_NAMES.get(ref.of, ANY)
        return list_of(inner if not isinstance(inner, tuple) else ANY)
    return t


def params_of(params, diags: Diagnostics) -> list[ParamSym]:
    out, seen = [], set()
    for p in params:
        if p.name in seen:
            diags.error(f"parameter '{p.name}' is declared twice", p.span, code="duplicate")
        seen.add(p.name)
        out.append(ParamSym(p.name, _type_of(p.type, diags), p.domain, p.span))
    return out


def _same(a, b) -> bool:
    """Two syntax trees alike but for where they are written (their spans)."""
    if isinstance(a, Span) and isinstance(b, Span):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, n.Node):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a) if f.compare)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


class Collector:
    def __init__(self, diags: Diagnostics):
        self.d = diags
        self.s = Symbols()
        self._where: dict[str, Span] = {}
        self._decl_of: dict[str, object] = {}  # name -> the declaration that claimed it
        self._extensions: list = []  # card sets' `kind K:` adding fields to a ruleset's kind

    def _claim(self, names: tuple[str, ...], span: Span, what: str, table: dict, sym) -> None:
        for name in names:
            prev = self._where.get(name)
            if prev is not None:
                self.d.error(f"'{name}' is already defined (at {prev})", span, code="duplicate")
                # both places, so a conflict between a card set and its ruleset shows either side
                self.d.error(f"'{name}' is defined again (at {span})", prev, code="duplicate")
                continue
            self._where[name] = span
            table[name] = sym
            self.s.canonical[name] = names[0]

    def module(self, mod: n.Module) -> None:
        for decl in mod.decls:
            self.decl(decl)

    def _fields(self, k: KindSym, fields) -> None:
        s = self.s
        for f in fields:
            if f.name in k.fields:
                prev_f = k.fields[f.name]
                self.d.error(f"field '{f.name}' is declared twice", f.span, code="duplicate")
                if prev_f.span.file != f.span.file:  # a card set's field: show both places
                    self.d.error(
                        f"field '{f.name}' is declared again (at {f.span})",
                        prev_f.span,
                        code="duplicate",
                    )
                continue
            fs = FieldSym(f.name, f.span, type=_type_of(f.type, self.d), default=f.default,
                          limits=f.limits)  # fmt: skip
            k.fields[f.name] = fs
            prev = s.fields.get(f.name)
            if prev is not None and prev.type != fs.type:
                self.d.error(
                    f"field '{f.name}' has type {type_name(fs.type)} here but {type_name(prev.type)} "
                    f"at {prev.span}",
                    f.span,
                    code="type",
                )
            s.fields.setdefault(f.name, fs).kinds.append(k.name)

    def extend_kind(self, d: n.KindDecl) -> bool:
        """A card set's `kind K:` for a kind K the ruleset has adds fields to it (each needs a
        default: the ruleset's own cards do not give it). False when K is a new kind."""
        k = self.s.kinds.get(d.names[0])
        if k is None:
            return False
        self._extensions.append(d)
        for name in d.names[1:]:
            if self.s.kinds.get(name) is not k:
                self.d.error(f"'{name}' is not a name of kind '{k.name}'", d.span, code="duplicate")
        for f in d.fields:
            if f.default is None:
                self.d.error(
                    f"field '{f.name}' that a card set adds to kind '{k.name}' needs a default",
                    f.span,
                    "write `NAME: TYPE = VALUE`",
                    code="card-set",
                )
        self._fields(k, d.fields)
        return True

    def repeated(self, d) -> bool:
        """Whether `d` is a declaration made before, identically, in another file: two card
        sets that both carry a library file (or declare the same keyword the same way) load
        together; only a different definition of a name is a conflict."""
        names = getattr(d, "names", None)
        if not names:
            return False
        if any(_same(e, d) and e.span.file != d.span.file for e in self._extensions):
            return True  # a `kind K:` adding the same fields as another set's
        prev = self._decl_of.get(names[0])
        return (
            prev is not None
            and prev.span.file != d.span.file
            and all(self._decl_of.get(x) is prev for x in names)
            and _same(prev, d)
        )

    def decl(self, d) -> None:
        s = self.s
        for name in getattr(d, "names", None) or ():
            self._decl_of.setdefault(name, d)
        match d:
            case n.KindDecl():
                k = KindSym(
                    d.names[0], d.span, names=d.names, cards=d.cards, active_in=d.active_in,
                    active_span=d.active_span, around=d.around,
                )  # fmt: skip
                self._fields(k, d.fields)
                self._claim(d.names, d.span, "kind", s.kinds, k)
            case n.ZoneDecl():
                z = ZoneSym(d.names[0], d.span, names=d.names, index=len(s.unique(s.zones)))
                for attr, span in d.attrs:
                    if attr in ZONE_SCOPES:
                        z.scope = ZONE_SCOPES[attr]
                    elif attr in ZONE_FLAGS:
                        flag = ZONE_FLAGS[attr]
                        if flag == "ordered":
                            z.ordered = True
                        elif flag == "active":
                            z.active = True
                        elif flag == "renews":
                            z.renews = True
                        else:
                            z.visibility = flag
                    else:
                        self.d.error(
                            f"unknown zone attribute '{attr}'",
                            span,
                            did_you_mean(attr, list(ZONE_SCOPES) + list(ZONE_FLAGS))
                            or "attributes: per player, per area, shared, ordered, public, owner sees, hidden, "
                            "active, new objects",
                            code="unknown-attribute",
                        )
                self._claim(d.names, d.span, "zone", s.zones, z)
            case n.CounterDecl():
                c = CounterSym(
                    d.names[0], d.span, names=d.names, default=d.default, bounds=d.bounds
                )
                for attr, span in d.attrs:
                    if attr in ZONE_SCOPES:
                        c.scope = ZONE_SCOPES[attr]
                    else:
                        self.d.error(
                            f"unknown counter attribute '{attr}'",
                            span,
                            did_you_mean(attr, ZONE_SCOPES)
                            or "attributes: per player, per area, shared",
                            code="unknown-attribute",
                        )
                self._claim(d.names, d.span, "counter", s.counters, c)
            case n.EventDecl():
                self._callable("event", d, s.events)
            case n.VerbDecl():
                self._callable("verb", d, s.verbs)
            case n.DefineDecl():
                self._callable("define", d, s.defines)
            case n.KeywordDecl():
                self._callable("keyword", d, s.keywords)
            case n.ActionDecl():
                if self._unnamed(d):
                    return
                self._callable("action", d, s.actions)
                s.abilities.append(Ability(d, "global", None, len(s.abilities)))
                s.windows.update(d.windows)
            case n.SetupDecl():
                s.setup.append(d.body)
            case n.FlowDecl():
                s.flow.append(d.body)
            case n.CheckDecl():
                s.checks.append(d)
            case n.RuleDecl():
                s.deck_rules.append(d)
            case n.TimingDecl():
                self._claim(d.names, d.span, "timing", s.timings, d)
            case n.Trigger() | n.Static():
                s.abilities.append(Ability(d, "global", None, len(s.abilities)))

    def _callable(self, kind: str, d, table: dict) -> None:
        sym = CallableSym(
            d.names[0], d.span, kind=kind, names=d.names, params=params_of(d.params, self.d), decl=d
        )
        self._claim(d.names, d.span, kind, table, sym)

    def _unnamed(self, d: n.ActionDecl) -> bool:
        """An action outside a card text needs its name (a card's is named after the card)."""
        if d.names:
            return False
        self.d.error(
            "this action needs a name: `action NAME(...) in WINDOW:` (only a card's action may"
            " leave it out: it is named after the card)",
            d.span,
            code="syntax",
        )
        return True

    def _timed_in_keyword(self, kw) -> None:
        """A keyword's block may use timing words (`등장시: ...`), not condition keywords."""
        items = []
        for item in kw.decl.items:
            if not isinstance(item, n.Conditioned):
                items.append(item)
            elif item.keyword.name in self.s.timings:
                items.extend(self._timed(item, self.s.timings[item.keyword.name], None))
            else:
                self.d.error(
                    f"'{item.keyword.name}' is not a timing word (`timing {item.keyword.name} ="
                    " after EVENT`): inside a keyword, write its abilities' conditions with `if`",
                    item.keyword.span,
                    code="keyword",
                )
        kw.decl = dataclasses.replace(kw.decl, items=tuple(items))

    def keyword_abilities(self) -> None:
        for kw in self.s.unique(self.s.keywords):
            if any(isinstance(i, n.Conditioned) for i in kw.decl.items):
                self._timed_in_keyword(kw)
            for item in kw.decl.items:
                if isinstance(item, n.ActionDecl) and self._unnamed(item):
                    continue
                if isinstance(item, n.ActionDecl):
                    self.s.actions.setdefault(
                        item.names[0],
                        CallableSym(
                            item.names[0],
                            item.span,
                            kind="action",
                            names=item.names,
                            params=params_of(item.params, self.d),
                            decl=item,
                        ),
                    )
                    self.s.windows.update(item.windows)
                if not isinstance(item, n.KeywordUse):
                    self.s.abilities.append(
                        Ability(item, "keyword", kw.name, len(self.s.abilities))
                    )

    def _unprefix(self, items, card: str | None = None):
        """`K[args]:` + abilities (n.Conditioned): the keyword use, then each ability with the
        condition of K (`keyword K[params] while COND`, its parameters replaced by the args)
        added to its own: a trigger's `if`, a static effect's `if`, an action's `require`."""
        for item in items:
            if not isinstance(item, n.Conditioned):
                yield item
                continue
            use = item.keyword
            if use.name in self.s.timings:
                yield from self._timed(item, self.s.timings[use.name], card)
                continue
            kw = self.s.keywords.get(use.name)
            if kw is None and item.event is not None:  # `befor destroy(this):`, a misspelt word
                from .syntax_errors import nearest_keyword

                near = nearest_keyword(use.name, ("AFTER", "BEFORE", "INSTEAD"))
                self.d.error(
                    f"'{use.name}' is not a keyword",
                    use.span,
                    f"did you mean '{near}'?" if near else did_you_mean(use.name, self.s.timings),
                    code="syntax",
                )
                continue
            yield use
            decl = kw.decl if kw is not None else None
            if decl is None or getattr(decl, "cond", None) is None:
                self.d.error(
                    f"'{use.name}' is not a condition keyword (`keyword {use.name} while COND`)"
                    f" nor a timing word (`timing {use.name} = after EVENT`)",
                    use.span,
                    code="keyword",
                )
                continue
            if item.event is not None or item.cond is not None or item.limit or item.optional:
                self.d.error(
                    f"condition keyword '{use.name}' takes no event, `if`, `once per` or"
                    " `optional`: write them on the abilities inside it",
                    item.span,
                    code="keyword",
                )
            names = {p.name: a for p, a in zip(decl.params, use.args)}
            cond = substitute(decl.cond, names)
            for ab in item.items:
                ab = as_ability(ab)
                if ab is None:
                    self.d.error(
                        f"inside condition keyword '{use.name}': an ability (a trigger, a"
                        " `modify` or `grant` without a duration, an action) was expected",
                        item.span,
                        code="keyword",
                    )
                    continue
                yield with_condition(ab, cond)

    def _timed(self, item: n.Conditioned, t: n.TimingDecl, card: str | None):
        """`T [EVENT(binds)] [if C] [once per S] [optional]: effect` → the trigger that timing
        word T stands for: its event (T's or the use's), both conditions, the use's limit."""
        use = item.keyword
        if use.args or (t.event is None) == (item.event is None):
            self.d.error(
                f"timing word '{use.name}' "
                + (
                    f"names its event: write `{use.name}:`"
                    if t.event is not None
                    else f"needs an event: `{use.name} EVENT(...):`"
                ),
                use.span,
                code="timing",
            )
            return
        if any(isinstance(x, n.Decl) for x in item.items):
            self.d.error(
                f"the effect of timing word '{use.name}' is statements, not abilities",
                item.span,
                code="timing",
            )
            return
        event, binds, espan = (t.event, t.binds, t.event_span) if item.event is None else item.event
        conds = [c for c in (t.cond, item.cond) if c is not None]
        cond = conds[0] if len(conds) == 1 else None
        if len(conds) == 2:
            cond = n.BoolOp("and", tuple(conds), span=conds[1].span)
        prompt, by = item.optional if item.optional is not None else (t.optional, t.optional_by)
        if item.optional is not None and by is None:
            by = t.optional_by
        if prompt == "" and card is not None:  # asked by the timing word and the card's name
            prompt = f"{use.name}: {card}"
        body = n.Block(tuple(item.items), span=item.span)
        yield n.Trigger(
            t.timing, event, binds, cond, item.limit, body, espan, prompt, by, span=item.span
        )

    def card(self, card: CardSym) -> None:
        prev = self.s.cards.get(card.name)
        if prev is not None:
            self.d.error(
                f"card '{card.name}' is already defined (at {prev.span})",
                card.span,
                code="duplicate",
            )
            if prev.span.file != card.span.file:  # another file (a card set's): both places
                self.d.error(
                    f"card '{card.name}' is defined again (at {card.span})",
                    prev.span,
                    code="duplicate",
                )
            return
        card.index = len(self.s.cards)
        self.s.cards[card.name] = card
        if card.text is not None and any(isinstance(i, n.Conditioned) for i in card.text.items):
            items = tuple(self._unprefix(card.text.items, card.name))
            card.text = n.CardText(items, span=card.text.span)
        if card.text is not None and any(
            isinstance(i, n.ActionDecl) and not i.names for i in card.text.items
        ):
            named = (card.name.replace(" ", ""),)
            items = tuple(
                dataclasses.replace(i, names=named)
                if isinstance(i, n.ActionDecl) and not i.names
                else i
                for i in card.text.items
            )
            card.text = n.CardText(items, span=card.text.span)
        kind = self.s.kinds.get(card.kind)
        if card.text is not None and kind is not None and kind.around is not None:
            name, wrap = kind.around
            items = tuple(wrapped(i, name, wrap) for i in card.text.items)
            card.text = n.CardText(items, span=card.text.span)
        if card.text is not None:
            for item in card.text.items:
                if isinstance(item, n.ActionDecl):
                    self.s.windows.update(item.windows)
                if not isinstance(item, n.KeywordUse):
                    self.s.abilities.append(Ability(item, "card", card.name, len(self.s.abilities)))


def substitute(e, names: dict):
    """A copy of expression `e` with the bare names in `names` replaced by expressions."""
    return _Substitute(names).rewrite(e)


class _Substitute(n.NodeTransformer):
    def __init__(self, names: dict):
        self.names = names

    def visit_Name(self, e: n.Name):
        return self.names.get(e.name, e)


def wrapped(ab, name: str, wrap: n.Block):
    """Ability `ab` with its effect put in place of NAME in its kind's `around NAME:` block: a
    trigger's or a replacement's whole block, an action's block after its leading `require`s
    (they decide whether it is offered). Static effects and costs have no effect to wrap."""
    import dataclasses

    if isinstance(ab, n.Trigger) and ab.timing != "cost":
        head, body = (), ab.body.body
    elif isinstance(ab, n.ActionDecl):
        k = 0
        while k < len(ab.body.body) and isinstance(ab.body.body[k], n.Require):
            k += 1
        head, body = ab.body.body[:k], ab.body.body[k:]
    else:
        return ab
    stmts = []
    for s in wrap.body:
        stmts.extend(body if n.is_placeholder(s, name) else (s,))
    return dataclasses.replace(ab, body=dataclasses.replace(ab.body, body=(*head, *stmts)))


def as_ability(x):
    """An item of a condition keyword's block as an ability: a `modify`/`grant` without a
    duration is a static effect; None for any other statement."""
    if isinstance(x, n.Decl):
        return x
    if isinstance(x, n.Modify | n.Grant) and x.until is None:
        return n.Static(x, span=x.span)
    return None


def with_condition(ab, cond):
    """Ability `ab` in force only while `cond` holds."""
    import dataclasses

    def both(c):
        return cond if c is None else n.BoolOp("and", (c, cond), span=c.span)

    if isinstance(ab, n.Trigger):
        return dataclasses.replace(ab, cond=both(ab.cond))
    if isinstance(ab, n.Static):
        return dataclasses.replace(
            ab, effect=dataclasses.replace(ab.effect, cond=both(ab.effect.cond))
        )
    if isinstance(ab, n.ActionDecl):
        req = n.Require(cond, span=cond.span)
        return dataclasses.replace(ab, body=dataclasses.replace(ab.body, body=(req, *ab.body.body)))
    return ab
