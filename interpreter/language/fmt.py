"""The canonical layout of the language (`madang fmt`) and a readable AST dump (`madang parse`).

`format_module` / `format_card_text` print an AST in its canonical spelling (`canonical`: one
spelling per concept), with 4-space indentation, a blank line between top-level declarations,
keywords in English (or Korean with ``lang="ko"``), the fewest parentheses the operator
precedence of the grammar allows, and strings re-escaped. Parsing the output gives an AST equal
to the canonical form of the one printed (spans aside), and formatting is idempotent; tests/test_fmt.py checks
both on the bundled rulesets and on generated ASTs.

Comments are not part of the AST. `format_module` alone drops them; `format_source` (and
``format_module(..., source=text)``) puts them back from the source text: a full-line comment goes
before the element that followed it (at the indentation of the block it was written in), a comment
after code stays at the end of that element's line. A comment inside a multi-line element (an
expression in brackets spanning lines) moves to its own line before that element, and so does a
second trailing comment of elements joined on one line (consecutive keyword uses, which are printed
`a, b, c`). Blank lines around comments are kept (one at most); other blank lines are canonical.

Words the AST stores as written (type names such as `zone`, zone attributes such as `per player`)
are printed as written in either language. Lines are never wrapped.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace

from . import nodes as n
from .canonical import canonical
from .desugar import has_self_test
from .diagnostics import Diagnostics, Span
from .keywords import CORE, KO_COMPARISONS, RESERVED

INDENT = "    "

# Binding strength of the printed forms, loosest first (grammar/madang.lark, `?expr` downwards).
EXPR, OR, AND, NOT, CMP, SUM, PROD, UNARY, POSTFIX, ATOM = range(10)

COMPARE_OPS = {"==", "!=", "<", "<=", ">", ">="}
SUM_OPS = {"+", "-"}
PROD_OPS = {"*", "/", "%"}
KO_COMPARE_WORDS = {op: word for word, op in KO_COMPARISONS.items()}


class FormatError(ValueError):
    """The AST has a shape the grammar cannot express (it did not come from the parser)."""


def format_module(mod: n.Module, lang: str = "en", source: str | None = None) -> str:
    """A language file in canonical layout; with `source` (the text `mod` was parsed from, at line
    1 column 1), its comments are kept."""
    p = _Printer(lang)
    mod = canonical(mod)
    for i, d in enumerate(mod.decls):
        p.decl(d, 0, sep=i > 0)
    return p.render(source)


def format_card_text(ct: n.CardText, lang: str = "en", source: str | None = None) -> str:
    """A card's text in canonical layout (consecutive keyword uses on one line: `K1, K2[2]`)."""
    p = _Printer(lang)
    p.items(canonical(ct).items, 0)
    return p.render(source)


def format_source(
    text: str, path: str, diags: Diagnostics, card_text: bool = False, lang: str = "en"
) -> str | None:
    """Parse `text` (a language file, or a card text) and print it in canonical layout, comments
    kept. None after reporting parse errors into `diags`."""
    from .parser import Origin, parse_card_text, parse_module

    errors = _error_count(diags)
    diags.add_source(path, text)
    if card_text:
        ct = parse_card_text(text, Origin(path), diags)
        if ct is None or _error_count(diags) > errors:
            return None
        return format_card_text(ct, lang, source=text)
    mod = parse_module(text, Origin(path), diags)
    if mod is None or _error_count(diags) > errors:
        return None
    return format_module(mod, lang, source=text)


def format_expr(e: n.Expr, lang: str = "en") -> str:
    """One expression as it would be printed where any expression may stand."""
    return _Printer(lang).expr(e)


def _error_count(diags: Diagnostics) -> int:
    return len(diags.errors)


# ---------------------------------------------------------------- printing


@dataclass
class _Line:
    level: int
    text: str
    start: int = 0  # the source lines this line was printed from (0: unknown)
    end: int = 0
    col: int = 0  # indentation (column of the first character) of source line `start`
    opens: bool = False  # a block header (the next line is one level deeper)
    sep: bool = False  # a blank line before it (between top-level declarations)
    comment: str | None = None  # trailing comment


class _Printer:
    def __init__(self, lang: str = "en"):
        if lang not in ("en", "ko"):
            raise ValueError(f"unknown language {lang!r} (en or ko)")
        self.lang = lang
        col = 0 if lang == "en" else 1
        self.words = {term: spellings[col] for term, spellings in CORE.items()}
        self.lines: list[_Line] = []

    # -------------------------------------------------------- output
    def kw(self, *terms: str) -> str:
        return " ".join(self.words[t] for t in terms)

    def emit(
        self, level: int, text: str, node=None, *, header=False, sep=False, start=None, shows=None
    ):
        """Add a line printed from `node`; `shows` (default: node) is what of it the line shows."""
        line = _Line(level, text, sep=sep, opens=header)
        span = getattr(node, "span", None) if node is not None else None
        if isinstance(span, Span) and span.line > 0:
            line.start = start if start is not None else span.line
            line.end = max(line.start, _last_line(node if shows is None else shows, line.start))
        elif start is not None:
            line.start = line.end = start
        self.lines.append(line)
        return line

    def render(self, source: str | None = None) -> str:
        lines = self.lines
        if source is not None:
            return _render_with_comments(lines, source)
        out = []
        for ln in lines:
            if ln.sep and out:
                out.append("")
            out.append(INDENT * ln.level + ln.text)
        return "".join(s + "\n" for s in out)

    # -------------------------------------------------------- names and small parts
    def name(self, s: str) -> str:
        if not isinstance(s, str) or not s:
            raise FormatError(f"not a name: {s!r}")
        if s in RESERVED:
            raise FormatError(f"{s!r} is a reserved word and cannot be printed as a name")
        return s

    def attr_name(self, s: str) -> str:
        """After a dot any word is a name, reserved or not (`c.zone`, `area.kind`)."""
        if not isinstance(s, str) or not s:
            raise FormatError(f"not a name: {s!r}")
        return s

    def names(self, names) -> str:
        if not names:
            raise FormatError("a declaration needs a name")
        return "/".join(self.name(x) for x in names)

    def type_ref(self, t: n.TypeRef) -> str:
        # Type words are kept as written: `zone` and `구역` are both keyword tokens the grammar
        # accepts as a type, and the AST stores the spelling.
        return t.name if t.of is None else f"{t.name} {self.kw('OF')} {t.of}"

    def param(self, p: n.Param) -> str:
        s = self.name(p.name)
        if p.type is not None:
            s += ": " + self.type_ref(p.type)
        if p.domain is not None:
            s += f" {self.kw('FROM')} {self.expr(p.domain)}"
        return s

    def params(self, params, brackets="()") -> str:
        if not params:
            return ""
        return brackets[0] + ", ".join(self.param(p) for p in params) + brackets[1]

    def exprs(self, items) -> str:
        return ", ".join(self.expr(e) for e in items)

    def scope_word(self, s: str) -> str:
        """`once per X` and `until end of X`: turn/round/phase are keywords, other words names."""
        if s in ("turn", "round", "phase"):
            return self.words[s.upper()]
        return self.name(s)

    # -------------------------------------------------------- expressions
    def expr(self, e: n.Expr, min_level: int = EXPR) -> str:
        text, level = self._expr(e)
        return f"({text})" if level < min_level else text

    def _expr(self, e: n.Expr) -> tuple[str, int]:
        x = self.expr
        match e:
            case n.Num(value=v):
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise FormatError(f"not a literal number: {v!r}")
                return str(v), ATOM
            case n.Str(value=v):
                return quote(v), ATOM
            case n.Const(value=v):
                return self.words[{True: "TRUE", False: "FALSE", None: "NONE"}[v]], ATOM
            case n.Name(name=s):
                return self.name(s), ATOM
            case n.Special(which=w):
                return self.words[w.upper()], ATOM
            case n.ListExpr(items=items):
                return f"[{self.exprs(items)}]", ATOM
            case n.Attr(obj=o, name=s):
                return f"{x(o, POSTFIX)}.{self.attr_name(s)}", POSTFIX
            case n.Call(func=f, args=args):
                return f"{self.name(f)}({self.exprs(args)})", POSTFIX
            case n.Index(obj=o, index=i, rest=rest):
                return f"{x(o, POSTFIX)}[{', '.join(x(a) for a in (i, *rest))}]", POSTFIX
            case n.Neg(expr=inner):
                return f"-{x(inner, UNARY)}", UNARY
            case n.BinOp(op=op, left=a, right=b) if op in SUM_OPS:
                return f"{x(a, SUM)} {op} {x(b, PROD)}", SUM
            case n.BinOp(op=op, left=a, right=b) if op in PROD_OPS:
                return f"{x(a, PROD)} {op} {x(b, UNARY)}", PROD
            case n.BinOp(op=op, left=a, right=b) if op in COMPARE_OPS:
                if self.lang == "ko" and op in KO_COMPARE_WORDS and _plain_num(b):
                    return f"{x(a, SUM)} {b.value} {KO_COMPARE_WORDS[op]}", CMP
                return f"{x(a, SUM)} {op} {x(b, SUM)}", CMP
            case n.BinOp(op=op):
                raise FormatError(f"unknown operator {op!r}")
            case n.Contains(item=a, container=b):
                return f"{x(a, SUM)} {self.kw('IN')} {x(b, SUM)}", CMP
            case n.Has(obj=a, keyword=k):
                return f"{x(a, SUM)} {self.kw('HAS')} {self.name(k)}", CMP
            case n.IsKind(obj=a, kind=k):
                return f"{x(a, SUM)} {self.kw('IS')} {self.name(k)}", CMP
            case n.Not(expr=n.Contains(item=a, container=b)):
                return f"{x(a, SUM)} {self.kw('NOT', 'IN')} {x(b, SUM)}", CMP
            case n.Not(expr=n.IsKind(obj=a, kind=k)):
                return f"{x(a, SUM)} {self.kw('IS', 'NOT')} {self.name(k)}", CMP
            case n.Not(expr=inner):
                return f"{self.kw('NOT')} {x(inner, NOT)}", NOT
            case n.BoolOp(op=op, items=items):
                if op not in ("and", "or") or len(items) < 2:
                    raise FormatError(f"a boolean '{op}' needs two or more operands")
                level = AND if op == "and" else OR
                sep = f" {self.kw(op.upper())} "
                return sep.join(x(i, level + 1) for i in items), level
            case n.Where(items=a, cond=c):
                return f"{x(a, OR)} {self.kw('WHERE')} {x(c, OR)}", EXPR
            case n.IfExpr(cond=c, then=a, orelse=b):
                return (
                    f"{self.kw('IF')} {x(c)} {self.kw('THEN')} {x(a)} {self.kw('ELSE')} {x(b)}",
                    EXPR,
                )
        raise FormatError(f"not an expression: {type(e).__name__}")

    # -------------------------------------------------------- statements
    def block(self, block: n.Block, level: int) -> None:
        if not block.body:
            raise FormatError("a block needs at least one statement")
        for s in block.body:
            self.stmt(s, level)

    def header(self, level: int, text: str, node, body: n.Block, start=None, shows=None) -> None:
        self.emit(level, text + ":", node, header=True, start=start, shows=shows)
        self.block(body, level + 1)

    def stmt(self, s: n.Stmt, level: int) -> None:
        x, k = self.expr, self.kw
        match s:
            case n.If(branches=branches, orelse=orelse):
                if not branches:
                    raise FormatError("an if needs a condition")
                for i, (cond, body) in enumerate(branches):
                    word = k("IF") if i == 0 else k("ELIF")
                    start = None if i == 0 else _line_of(cond)
                    self.header(
                        level, f"{word} {x(cond)}", s if i == 0 else cond, body, start, cond
                    )
                if orelse is not None:
                    line = self.emit(level, k("ELSE") + ":", orelse, header=True)
                    line.end = line.start
                    self.block(orelse, level + 1)
                return
            case n.For(name=v, items=items, body=body):
                return self.header(
                    level, f"{k('FOR')} {self.name(v)} {k('IN')} {x(items)}", s, body
                )
            case n.Repeat(times=t, body=body):
                return self.header(level, f"{k('REPEAT')} {x(t)} {k('TIMES')}", s, body)
            case n.While(cond=c, body=body, until=until):
                head = k("REPEAT", "UNTIL") if until else k("WHILE")
                return self.header(level, f"{head} {x(c)}", s, body)
            case n.Scope(kind=kind, name=name, player=player, body=body, aliases=aliases):
                if kind == "turn":
                    if player is None:
                        raise FormatError("a turn scope needs a player")
                    head = f"{k('TURN')} {x(player)}"
                elif kind == "round":
                    head = k("ROUND")
                elif kind == "phase":
                    head = f"{k('PHASE')} " + "/".join(self.name(a) for a in (name, *aliases))
                else:
                    raise FormatError(f"unknown scope {kind!r}")
                return self.header(level, head, s, body)
            case n.Hold(body=body):
                return self.header(level, self.kw("HOLD"), s, body)
        self.emit(level, self.simple(s), s)

    def simple(self, s: n.Stmt) -> str:
        x, k = self.expr, self.kw
        match s:
            case n.Let(name=v, value=e):
                return f"{k('LET')} {self.name(v)} = {x(e)}"
            case n.Assign(target=t, op=op, value=e):
                if op not in ("=", "+=", "-="):
                    raise FormatError(f"unknown assignment {op!r}")
                return f"{x(t, POSTFIX)} {op} {x(e)}"
            case n.Move(what=what, zone=zone, where=where, index=index):
                head = f"{k('MOVE')} {x(what)} {k('TO')}"
                if where == "back" and index is None:
                    return f"{head} {x(zone)}"
                if where == "front" and index is None:
                    return f"{head} {k('FRONT', 'OF')} {x(zone)}"
                if where == "at" and index is not None:
                    return f"{head} {x(zone)} {k('AT')} {x(index)}"
                raise FormatError(f"a move to {where!r} with index {index!r}")
            case n.Create(card=card, zone=zone, owner=owner, name=name):
                out = f"{k('CREATE')} {x(card, SUM)} {k('IN')} {x(zone)}"
                if owner is not None:
                    out += f" {k('FOR')} {x(owner)}"
                if name is not None:
                    out += f" {k('AS')} {self.name(name)}"
                return out
            case n.Remove(what=e):
                return f"{k('REMOVE')} {x(e)}"
            case n.Shuffle(zone=e):
                return f"{k('SHUFFLE')} {x(e)}"
            case n.Choose(name=v, options=opts, by=by, prompt=prompt, min=lo, max=hi):
                out = f"{k('CHOOSE')} {self.name(v)}"
                if lo is not None and hi is not None:
                    out += f"[{x(lo)}]" if lo == hi else f"[{x(lo)}..{x(hi)}]"
                elif lo is not None or hi is not None:
                    raise FormatError("a choice count needs both bounds")
                out += f" {k('FROM')} {x(opts)}"
                return out + self.by_prompt(by, prompt)
            case n.Order(name=v, items=items, by=by, prompt=prompt):
                out = f"{k('ORDER')} {self.name(v)} {k('FROM')} {x(items)}"
                return out + self.by_prompt(by, prompt)
            case n.Emit(event=ev, args=args):
                return f"{k('EMIT')} {self.name(ev)}({self.exprs(args)})"
            case n.CallStmt(verb=v, args=args):
                return f"{self.name(v)}({self.exprs(args)})"
            case n.Win(who=e):
                return f"{k('WIN')} {x(e)}"
            case n.Lose(who=e):
                return f"{k('LOSE')} {x(e)}"
            case n.DrawGame():
                return k("TIE")
            case n.End(what=what):
                if what not in ("turn", "phase", "game"):
                    raise FormatError(f"cannot end {what!r}")
                return f"{k('END')} {self.words[what.upper()]}"
            case n.Expire(scope=scope):
                return f"{k('EXPIRE')} {self.scope_word(scope)}"
            case n.Pass():
                return k("PASS")
            case n.Return():
                return k("RETURN")
            case n.Break():
                return k("BREAK")
            case n.Modify(cond=None) | n.Grant(cond=None):
                of = "" if s.until_of is None else f" {k('OF')} {x(s.until_of)}"
                return self.effect(s) + self.until(s.until) + of
            case n.Modify() | n.Grant():
                raise FormatError("a condition belongs to a static modifier, not a statement")
            case n.Window(name=v, by=by, once=once, pass_if=pi):
                return (
                    f"{k('WINDOW')} {self.name(v)} {k('BY')} {x(by)}"
                    + (f" {k('ONCE')}" if once else "")
                    + (
                        ""
                        if pi is None
                        else f" {k('MUST')}"
                        if isinstance(pi, n.Const) and pi.value is False
                        else f" {k('PASS', 'IF')} {x(pi)}"
                    )
                )
            case n.Log(value=e):
                return f"{k('LOG')} {x(e)}"
            case n.Reveal(what=w, to=p):
                return f"{k('REVEAL')} {x(w)} {k('TO')} {x(p)}"
            case n.Require(cond=e):
                return f"{k('REQUIRE')} {x(e)}"
        raise FormatError(f"not a statement: {type(s).__name__}")

    def by_prompt(self, by, prompt) -> str:
        out = "" if by is None else f" {self.kw('BY')} {self.expr(by)}"
        return out if prompt is None else f"{out} {quote(prompt)}"

    def effect(self, e: n.Modify | n.Grant) -> str:
        x, k = self.expr, self.kw
        if isinstance(e, n.Modify):
            by = k("TO") if e.op == "set" else k("BY")
            return f"{k('MODIFY')} {x(e.obj, POSTFIX)}.{self.attr_name(e.prop)} {by} {x(e.amount)}"
        args = f"[{', '.join(x(a) for a in e.args)}]" if e.args else ""
        return f"{k('GRANT')} {x(e.keyword)}{args} {k('TO')} {x(e.to)}"

    def until(self, until: str | None) -> str:
        if until is None:
            return ""
        return f" {self.kw('UNTIL', 'END', 'OF')} {self.scope_word(until)}"

    # -------------------------------------------------------- declarations and abilities
    def items(self, items, level: int) -> None:
        """Abilities and keyword uses (a card text, a keyword's block)."""
        i = 0
        while i < len(items):
            if isinstance(items[i], n.KeywordUse):
                j = i
                while j < len(items) and isinstance(items[j], n.KeywordUse):
                    j += 1
                group = items[i:j]
                line = self.emit(level, ", ".join(self.keyword_use(u) for u in group), group[0])
                if line.start:
                    line.end = max(line.end, _last_line(group[-1], line.start))
                i = j
            elif isinstance(items[i], n.Conditioned):
                c = items[i]
                self.emit(level, self.prefix_head(c) + ":", c, header=True)
                for ab in c.items:
                    if isinstance(ab, n.Decl):
                        self.decl(ab, level + 1)
                    else:
                        self.stmt(ab, level + 1)
                i += 1
            else:
                self.decl(items[i], level)
                i += 1

    def event_pattern(self, ev: str, binds, cond):
        """` EVENT(binds)` as written, with `this` for the self-bound name, and the condition
        left once the self-binding's added test is taken out (desugared texts print back)."""
        text = " " + self.name(ev)
        if binds:
            shown = (self.kw("THIS") if b == n.SELF else self.name(b) for b in binds)
            text += "(" + ", ".join(shown) + ")"
        return text, (_without_self_test(cond) if n.SELF in binds else cond)

    def optional(self, d) -> str:
        """` optional [by WHO] ["prompt"]` of a timing or a trigger that may be declined."""
        if d.optional is None:
            return ""
        text = f" {self.kw('OPTIONAL')}"
        if d.optional_by is not None:
            text += f" {self.kw('BY')} {self.expr(d.optional_by)}"
        return text + (" " + quote(d.optional) if d.optional else "")

    def prefix_head(self, c: n.Conditioned) -> str:
        """`K[args]` of a condition keyword, or a timing word with its event and clauses."""
        k, x = self.kw, self.expr
        text = self.keyword_use(c.keyword)
        cond = c.cond
        if c.event is not None:
            ev, binds, _ = c.event
            pattern, cond = self.event_pattern(ev, binds, cond)
            text += pattern
        if cond is not None:
            text += f" {k('IF')} {x(cond)}"
        if c.limit is not None:
            text += f" {k('ONCE', 'PER')} {self.scope_word(c.limit)}"
        if c.optional is not None:
            prompt, by = c.optional
            text += f" {k('OPTIONAL')}"
            if by is not None:
                text += f" {k('BY')} {x(by)}"
            if prompt:
                text += " " + quote(prompt)
        return text

    def keyword_use(self, u: n.KeywordUse) -> str:
        if not u.args:
            return self.name(u.name)
        return f"{self.name(u.name)}[{self.exprs(u.args)}]"

    def decl(self, d, level: int, sep: bool = False) -> None:
        x, k = self.expr, self.kw
        match d:
            case n.KindDecl(names=names, fields=flds, cards=cards):
                head = f"{k('KIND')} {self.names(names)}"
                if cards is not None:
                    lo, hi = cards
                    head += f"[{lo}]" if lo == hi else f"[{lo}..{hi}]"
                if not flds:  # a kind without fields: its cards are only names
                    self.emit(level, head, d, sep=sep)
                    return
                self.emit(level, head + ":", d, header=True, sep=sep)
                for f in flds:
                    text = f"{self.name(f.name)}: {self.type_ref(f.type)}"
                    if f.limits is not None:
                        text += f" {f.limits[0]}..{f.limits[1]}"
                    if f.default is not None:
                        text += f" = {x(f.default)}"
                    self.emit(level + 1, text, f)
                if d.active_in:
                    word = "active" if self.lang == "en" else "활성"
                    zones = ", ".join(self.name(z) for z in d.active_in)
                    at = d.active_span.line if d.active_span is not None else None
                    self.emit(level + 1, f"{word} {k('IN')} {zones}", start=at)
                if d.around is not None:
                    word = "around" if self.lang == "en" else "감싸기"
                    name, body = d.around
                    self.emit(level + 1, f"{word} {self.name(name)}:", header=True)
                    self.block(body, level + 2)
            case n.ZoneDecl(names=names, attrs=attrs):
                self.emit(level, f"{k('ZONE')} {self.names(names)}{self.attrs(attrs)}", d, sep=sep)
            case n.CounterDecl(names=names, attrs=attrs, default=default, bounds=bounds):
                text = f"{k('COUNTER')} {self.names(names)}{self.attrs(attrs)}"
                if bounds is not None:
                    low, high = (
                        ""
                        if b is None
                        else str(b.value)
                        if isinstance(b, n.Num)
                        else self.name(b.name)
                        for b in bounds
                    )
                    text += f" {k('IN')} {low}..{high}"
                if default is not None:
                    text += f" = {x(default)}"
                self.emit(level, text, d, sep=sep)
            case n.EventDecl(names=names, params=params):
                self.emit(
                    level, f"{k('EVENT')} {self.names(names)}{self.params(params)}", d, sep=sep
                )
            case n.VerbDecl(names=names, params=params, narration=narr, body=body):
                text = f"{k('VERB')} {self.names(names)}{self.params(params)}"
                if narr is not None:
                    text += " " + quote(narr)
                self.emit(level, text + ":", d, header=True, sep=sep)
                self.block(body, level + 1)
            case n.DefineDecl(names=names, params=params, body=body):
                text = f"{k('DEFINE')} {self.names(names)}{self.params(params)} = {x(body)}"
                self.emit(level, text, d, sep=sep)
            case n.KeywordDecl(names=names, params=params, items=items, cond=cond, kinds=kinds):
                text = f"{k('KEYWORD')} {self.names(names)}{self.params(params, '[]')}"
                if kinds:
                    text += f" {k('FOR')} " + ", ".join(self.name(x) for x in kinds)
                if cond is not None:
                    text += f" {k('WHILE')} {x(cond)}"
                if not items:
                    self.emit(level, text, d, sep=sep)
                else:
                    self.emit(level, text + ":", d, header=True, sep=sep)
                    self.items(items, level + 1)
            case n.ActionDecl(names=names, params=params, windows=windows, body=body, limit=limit):
                text = k("ACTION") + (f" {self.names(names)}" if names else "")
                text += self.params(params)
                if windows:
                    text += f" {k('IN')} " + ", ".join(self.name(w) for w in windows)
                if limit is not None:
                    text += f" {k('ONCE', 'PER')} {self.scope_word(limit)}"
                if d.limit_by is not None:
                    text += f" {k('PER')} {self.name(d.limit_by)}"
                if d.limit_as is not None:
                    text += f" {k('AS')} {self.name(d.limit_as)}"
                self.emit(level, text + ":", d, header=True, sep=sep)
                self.block(body, level + 1)
            case n.SetupDecl(body=body):
                self.emit(level, k("SETUP") + ":", d, header=True, sep=sep)
                self.block(body, level + 1)
            case n.FlowDecl(body=body):
                self.emit(level, k("FLOW") + ":", d, header=True, sep=sep)
                self.block(body, level + 1)
            case n.TimingDecl(names=names, timing=timing, event=ev, binds=binds, cond=cond):
                word = "timing" if self.lang == "en" else "시점"
                text = f"{word} {self.names(names)} = "
                text += k("INSTEAD", "OF") if timing == "instead" else k(timing.upper())
                if ev is not None:
                    pattern, cond = self.event_pattern(ev, binds, cond)
                    text += pattern
                if cond is not None:
                    text += f" {k('IF')} {x(cond)}"
                text += self.optional(d)
                self.emit(level, text, d, sep=sep)
            case n.RuleDecl(label=label, var=var, over=over, cond=cond):
                text = k("RULE") + " " + quote(label)
                if (var is None) != (over is None):
                    raise FormatError("a rule over a list needs both the name and the list")
                if var is not None:
                    text += f" {k('FOR')} {self.name(var)} {k('IN')} {x(over)}"
                self.emit(level, text + ": " + x(cond), d, sep=sep)
            case n.CheckDecl(name=name, var=var, over=over, cond=cond, body=body):
                text = k("CHECK")
                if name is not None:
                    text += " " + self.name(name)
                if (var is None) != (over is None):
                    raise FormatError("a check over a list needs both the name and the list")
                if var is not None:
                    text += f" {k('FOR')} {self.name(var)} {k('IN')} {x(over)}"
                text += f" {k('IF')} {x(cond)}:"
                self.emit(level, text, d, header=True, sep=sep)
                self.block(body, level + 1)
            case n.Trigger(timing=timing, event=ev, binds=binds, cond=cond, limit=limit, body=body):
                if timing == "instead":
                    text = k("INSTEAD", "OF")
                elif timing == "cost":
                    text = k("COST")
                elif timing in ("when", "after", "before"):  # `when` is printed `after`
                    text = k("BEFORE" if timing == "before" else "AFTER")
                else:
                    raise FormatError(f"unknown trigger timing {timing!r}")
                pattern, cond = self.event_pattern(ev, binds, cond)
                text += pattern
                if d.tier is not None:
                    text += f" {k('AS')} {self.name(d.tier)}"
                if cond is not None:
                    text += f" {k('IF')} {x(cond)}"
                if limit is not None:
                    text += f" {k('ONCE', 'PER')} {self.scope_word(limit)}"
                text += self.optional(d)
                self.emit(level, text + ":", d, header=True, sep=sep)
                self.block(body, level + 1)
            case n.Static(effect=e):
                if not isinstance(e, n.Modify | n.Grant) or e.until is not None:
                    raise FormatError("a static ability is a modify or grant without a duration")
                text = self.effect(e)
                if e.cond is not None:
                    text += f" {k('IF')} {x(e.cond)}"
                self.emit(level, text, d, sep=sep)
            case n.KeywordUse():
                self.emit(level, self.keyword_use(d), d, sep=sep)
            case _:
                raise FormatError(f"not a declaration: {type(d).__name__}")

    def attrs(self, attrs) -> str:
        if not attrs:
            return ""
        words = []
        for a in attrs:
            text = a[0] if isinstance(a, tuple) else a
            parts = text.split(" ")
            if not all(parts) or any(p in RESERVED and p not in ("per", "마다") for p in parts):
                raise FormatError(f"not a zone attribute: {text!r}")
            words.append(text)
        return ": " + ", ".join(words)


def _without_self_test(cond):
    """The condition of a self-bound trigger as written. The parser's tree has it so; a tree the
    loader desugared (a checked card's text) starts with the added `SELF == this`, left out."""
    if not has_self_test(cond):
        return cond
    if isinstance(cond, n.BoolOp):
        return cond.items[1] if len(cond.items) == 2 else replace(cond, items=cond.items[1:])
    return None


def _plain_num(e) -> bool:
    return isinstance(e, n.Num) and isinstance(e.value, int) and e.value >= 0


def quote(s: str) -> str:
    """A string literal that the lexer reads back as `s` (see parser._unquote)."""
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _line_of(node) -> int | None:
    span = getattr(node, "span", None)
    return span.line if isinstance(span, Span) and span.line > 0 else None


def _last_line(node, default: int) -> int:
    """The last source line of what a printed line shows of `node`: its expressions, not the
    blocks or declarations nested in it (whose spans also take in the newlines after them)."""
    if isinstance(node, n.Block) or not isinstance(node, n.Node):
        return default
    best = default
    for x in node.walk(prune=lambda x: isinstance(x, n.Block | n.Decl | n.Field | n.KeywordUse)):
        if isinstance(x, n.Expr | n.TypeRef | n.Param | n.KeywordUse):
            span = x.span
            if isinstance(span, Span) and span.end_line > best:
                best = span.end_line
    return best


# ---------------------------------------------------------------- comments


@dataclass
class _Comment:
    line: int
    col: int
    text: str
    own_line: bool  # nothing but the comment on its line
    blank_before: bool = False
    blank_after: bool = False
    level: int = 0


def scan_comments(text: str) -> list[_Comment]:
    """The comments of a source text, skipping `#` inside strings."""
    out: list[_Comment] = []
    lines = text.split("\n")
    blank = [not ln.strip() for ln in lines]
    for i, ln in enumerate(lines):
        in_str = False
        j = 0
        while j < len(ln):
            ch = ln[j]
            if in_str:
                if ch == "\\":
                    j += 1
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif ch == "#":
                c = _Comment(i + 1, j + 1, ln[j:].rstrip(), not ln[:j].strip())
                c.blank_before = i > 0 and blank[i - 1]
                c.blank_after = i + 1 < len(lines) and blank[i + 1] and i + 2 < len(lines)
                out.append(c)
                break
            j += 1
    return out


def _render_with_comments(lines: list[_Line], source: str) -> str:
    comments = scan_comments(source)
    src = source.split("\n")
    for ln in lines:
        if 0 < ln.start <= len(src):
            text = src[ln.start - 1]
            ln.col = len(text) - len(text.lstrip()) + 1
    starts = [ln.start for ln in lines]
    before: dict[int, list[_Comment]] = {}  # comments printed before line i (len(lines): at end)
    after: dict[int, list[_Comment]] = {}  # comments printed after line i, in its block
    for c in comments:
        idx = bisect.bisect_right(starts, c.line)  # first line printed from a later source line
        prev = idx - 1
        if prev >= 0 and lines[prev].start <= c.line <= lines[prev].end:
            target = lines[prev]
            if not c.own_line and target.start and target.comment is None:
                target.comment = c.text
                continue
            # inside a multi-line element, or a second comment on its line: on a line before it
            c.level, c.blank_before, c.blank_after = target.level, False, False
            before.setdefault(prev, []).append(c)
            continue
        nxt = lines[idx] if idx < len(lines) else None
        lo = nxt.level if nxt is not None else 0
        if prev >= 0:
            p = lines[prev]
            hi = max(lo, p.level + (1 if p.opens else 0))
        else:
            hi = lo
        level = lo
        if hi > lo and not before.get(idx):
            for lv in range(hi, lo - 1, -1):
                ref = _ref_col(lines, prev, lv)
                if ref is not None and ref <= c.col:
                    level = lv
                    break
        c.level = level
        if level > lo or nxt is None:
            after.setdefault(prev, []).append(c)
        else:
            before.setdefault(idx, []).append(c)

    out: list[list] = []  # [code, trailing comment or None]; "" is a blank line

    def put(level: int, text: str, comment: str | None = None) -> None:
        out.append([INDENT * level + text, comment])

    def blank() -> None:
        if out and out[-1][0] != "":
            out.append(["", None])

    def put_comments(cs: list[_Comment]) -> None:
        for c in cs:
            if c.blank_before:
                blank()
            put(c.level, c.text)

    put_comments(after.get(-1, []))
    for i, ln in enumerate(lines):
        if ln.sep and not _written_together(lines, i, src):
            blank()
        group = before.get(i, [])
        put_comments(group)
        if group and group[-1].blank_after:
            blank()
        put(ln.level, ln.text, ln.comment)
        put_comments(after.get(i, []))
    put_comments(before.get(len(lines), []))
    while out and out[-1][0] == "":
        out.pop()
    # Trailing comments of consecutive lines line up, two cells after the longest code.
    i = 0
    while i < len(out):
        if out[i][1] is None:
            i += 1
            continue
        j = i
        while j < len(out) and out[j][1] is not None:
            j += 1
        width = max(_width(code) for code, _ in out[i:j]) + 2
        for row in out[i:j]:
            row[0] += " " * (width - _width(row[0])) + row[1]
            row[1] = None
        i = j
    return "".join(code + "\n" for code, _ in out)


def _written_together(lines: list[_Line], i: int, src: list[str]) -> bool:
    """One-line top-level declarations of one kind written on adjacent lines stay together:
    the source groups them (a table of zones, a list of keywords)."""
    if i == 0:
        return False
    prev, ln = lines[i - 1], lines[i]
    if prev.opens or ln.opens or prev.level or ln.level or not prev.end or not ln.start:
        return False
    if prev.text.split(" ", 1)[0] != ln.text.split(" ", 1)[0]:
        return False
    gap = src[prev.end : ln.start - 1]
    return (
        prev.end < ln.start
        and all(s.strip().startswith("#") for s in gap)
        and not any(not s.strip() for s in gap)
    )


def _width(s: str) -> int:
    """Display width: East Asian wide characters take two terminal cells."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _ref_col(lines: list[_Line], upto: int, level: int) -> int | None:
    """The source column of the nearest line at `level` at or before line `upto`."""
    for j in range(upto, -1, -1):
        if lines[j].level == level and lines[j].col:
            return lines[j].col
        if lines[j].level < level:
            return None
    return None


# ---------------------------------------------------------------- AST dump


def dump_ast(node) -> str:
    """An indented tree of the AST: each node's class and line:col, then its fields."""
    dumper = _Dumper()
    dumper.value(node, 0, "")
    return "\n".join(dumper.out) + "\n"


def _where(span) -> str:
    if isinstance(span, Span) and span.line > 0:
        return f" @{span.line}:{span.col}"
    return ""


def _is_leaf(v) -> bool:
    if isinstance(v, tuple):
        return all(_is_leaf(x) and not isinstance(x, tuple) for x in v)
    return not isinstance(v, n.Node | Span)


def _inline(v) -> str:
    if isinstance(v, n.Node):
        inner = ", ".join(f"{name}={value!r}" for name, value in v.iter_fields())
        return f"{type(v).__name__}({inner}){_where(v.span)}"
    if isinstance(v, Span):
        return _where(v).strip() or "-"
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], Span):
        return f"{v[0]!r}{_where(v[1])}"
    return repr(v)


def _compact(node) -> bool:
    return all(_is_leaf(value) for _, value in node.iter_fields())


class _Dumper(n.NodeVisitor):
    """`dump_ast` as a visitor of the tree: a node whose fields are all leaves on one line, any
    other node as its header and its fields below (a block's statements and an if's branches
    without the field names); `value` places a field's value at its depth and label."""

    def __init__(self):
        self.out: list[str] = []
        self.depth = 0  # the depth of the fields of the node being visited

    def value(self, v, depth: int, label: str) -> None:
        pad = "  " * depth
        if isinstance(v, n.Node):
            if _compact(v):
                self.out.append(f"{pad}{label}{_inline(v)}")
                return
            self.out.append(f"{pad}{label}{type(v).__name__}{_where(v.span)}")
            self.depth = depth + 1
            self.visit(v)
            return
        if isinstance(v, tuple) and not _is_leaf(v):
            if all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], Span) for x in v):
                self.out.append(f"{pad}{label}" + ", ".join(_inline(x) for x in v))
                return
            self.out.append(f"{pad}{label.rstrip()}")
            for x in v:
                self.value(x, depth + 1, "- ")
            return
        self.out.append(f"{pad}{label}{_inline(v)}")

    def generic_visit(self, node: n.Node) -> None:
        depth = self.depth
        for name, value in node.iter_fields():
            self.value(value, depth, f"{name}: ")

    def visit_Block(self, node: n.Block) -> None:
        depth = self.depth
        for stmt in node.body:
            self.value(stmt, depth, "- ")

    def visit_If(self, node: n.If) -> None:
        depth = self.depth
        for i, (cond, body) in enumerate(node.branches):
            self.value(cond, depth, "if: " if i == 0 else "elif: ")
            self.value(body, depth, "then: ")
        if node.orelse is not None:
            self.value(node.orelse, depth, "else: ")


__all__ = [
    "FormatError",
    "dump_ast",
    "format_card_text",
    "format_expr",
    "format_module",
    "format_source",
    "quote",
    "scan_comments",
]
