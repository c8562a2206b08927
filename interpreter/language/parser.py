"""Texts of the language → AST (`nodes`). Parse errors become located diagnostics."""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import NamedTuple

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedInput, VisitError
from lark.indenter import Indenter

from . import nodes as n
from . import syntax_errors
from .diagnostics import Abort, Diagnostics, Span
from .keywords import CONTEXTUAL, KEYWORDS, SOFT
from .syntax_errors import TreeProblem

MAX_TEXT = 2_000_000  # characters in one language file or card text
MAX_OPERATORS = 120  # Python compiles generated code nested about 200 deep at most
MAX_DEPTH = 60  # nesting of brackets or blocks; deeper input is refused, not recursed into


def grammar_dir() -> Path:
    """The grammar folder, in an installed wheel or in a source checkout."""
    package = Path(__file__).resolve().parent.parent
    for cand in (package / "grammar", package.parent / "grammar"):
        if (cand / "madang.lark").is_file():
            return cand
    raise FileNotFoundError("madang grammar not found")


# A soft keyword counts only at the start of a statement, and not before these (a call, an
# attribute, an index or an assignment of something of that name).
_LINE_START = (None, "_NL", "_INDENT", "_DEDENT")
_NOT_AFTER_SOFT = frozenset({"(", ".", "[", "=", "+=", "-=", ":"})
_OPENERS = {opener: after for opener, after in CONTEXTUAL.values()}


class MadangIndenter(Indenter):
    """Turns reserved words into keyword terminals, then indentation into _INDENT/_DEDENT."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def process(self, stream):
        self.indent_char: str | None = None  # the first indented line decides: tab or space
        self.indent_line = 0
        return super().process(self._keywords(stream))

    def handle_NL(self, token: Token):
        """As lark's, but mixed tabs and a dedent to no open block are located errors."""
        if self.paren_level > 0:
            return
        yield token
        indent_str = token.rsplit("\n", 1)[1]
        line = token.end_line or token.line
        if indent_str:
            if len(set(indent_str)) > 1:
                raise syntax_errors.IndentProblem(
                    "indentation mixes tabs and spaces", line, len(indent_str), "use spaces only"
                )
            if self.indent_char is None:
                self.indent_char, self.indent_line = indent_str[0], line
            elif indent_str[0] != self.indent_char:
                used = "tabs" if self.indent_char == "\t" else "spaces"
                raise syntax_errors.IndentProblem(
                    f"indentation mixes tabs and spaces: line {line} is indented with "
                    f"{'a tab' if indent_str[0] == chr(9) else 'spaces'}",
                    line,
                    len(indent_str),
                    f"the text is indented with {used} (first on its line {self.indent_line})",
                )
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        if indent > self.indent_level[-1]:
            self.indent_level.append(indent)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
            return
        open_levels = list(self.indent_level)
        while indent < self.indent_level[-1]:
            self.indent_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)
        if indent != self.indent_level[-1]:
            levels = ", ".join(str(i) for i in open_levels[:-1]) + f" or {open_levels[-1]}"
            levels = levels.lstrip(", ").removeprefix("or ")
            raise syntax_errors.IndentProblem(
                f"this line is indented by {indent}, which matches no enclosing block",
                line,
                len(indent_str),
                f"indent it by {levels}, like the block it belongs to",
            )

    @staticmethod
    def _keywords(stream):
        prev = None
        soft = None  # a soft keyword waiting for the token after it (keywords.SOFT)
        # keywords.CONTEXTUAL: the statement's opening keyword, and whether the keyword
        # after which they count has come
        opener, opened = None, False
        for tok in stream:
            if tok.type in _LINE_START[1:]:
                opener, opened = None, False
            if soft is not None:
                if tok.value not in _NOT_AFTER_SOFT:
                    soft = Token.new_borrow_pos(KEYWORDS[soft.value], soft.value, soft)
                yield soft
                soft = None
            # After a dot a word is an attribute (`c.zone`), never a keyword.
            if tok.type == "NAME" and prev != "DOT":
                kind = KEYWORDS.get(tok.value)
                if kind in SOFT:
                    if prev in _LINE_START:
                        prev, soft = tok.type, tok
                        continue
                elif kind in CONTEXTUAL:
                    if opened and CONTEXTUAL[kind][0] == opener:
                        tok = Token.new_borrow_pos(kind, tok.value, tok)
                elif kind is not None:
                    tok = Token.new_borrow_pos(kind, tok.value, tok)
                    if kind in _OPENERS:
                        opener, opened = kind, False
                    elif opener is not None and _OPENERS[opener] == kind:
                        opened = True
            prev = tok.type
            yield tok
        if soft is not None:
            yield soft

    @property
    def always_accept(self):
        return (self.NL_type, "NAME")


@cache
def lark_parser() -> Lark:
    return Lark.open(
        str(grammar_dir() / "madang.lark"),
        parser="lalr",
        lexer="basic",
        postlex=MadangIndenter(),
        start=["start", "card_text"],
        propagate_positions=True,
        maybe_placeholders=True,
        strict=True,
        cache=_cache_path(),
    )


def _cache_path() -> str | bool:
    """Lark unpickles its cache before checking anything, so the cache lives only in a folder of
    the user's own (`$XDG_CACHE_HOME/madang`, mode 0700), never in the shared temp folder, and is
    used only when that folder and file belong to the user and nobody else can write them.
    Otherwise the grammar is built afresh (about 0.3 s)."""
    import hashlib

    import lark

    try:
        grammar = (grammar_dir() / "madang.lark").read_bytes()
        digest = hashlib.sha256(grammar + lark.__version__.encode()).hexdigest()[:16]
        folder = user_cache_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = folder / f"grammar-{digest}.lark-cache"
        if not _private(folder, directory=True):
            return False
        if (path.exists() or path.is_symlink()) and not _private(path, directory=False):
            return False
        return str(path)
    except OSError:
        return False


def user_cache_dir() -> Path:
    """The user's own cache folder for madang (XDG on Linux, ~/Library/Caches on macOS)."""
    import os
    import sys

    user = Path(os.path.expanduser("~"))
    if sys.platform == "darwin":
        return user / "Library" / "Caches" / "madang"
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA") or user) / "madang" / "Cache"
    base = os.environ.get("XDG_CACHE_HOME") or ""
    return (Path(base) if Path(base).is_absolute() else user / ".cache") / "madang"


def _private(path: Path, directory: bool) -> bool:
    """True when `path` is (not a link to) a folder or regular file of this user that no one
    else may write."""
    import os
    import stat

    st = path.lstat()
    kind = stat.S_ISDIR if directory else stat.S_ISREG
    if not kind(st.st_mode):
        return False
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: the per-user folder is private by default
        return True
    return st.st_uid == getuid() and not st.st_mode & 0o022


class Origin:
    """Where a text sits in its file: card texts live inside YAML, at a line and column."""

    def __init__(self, file: str, line: int = 1, col: int = 1, indent: int | None = None):
        self.file, self.line, self.col = file, line, col
        # Column of every line after the first (block scalars): None means the same as col.
        self.indent = indent

    def span(self, line: int, col: int, end_line: int = 0, end_col: int = 0) -> Span:
        def place(ln: int, c: int) -> tuple[int, int]:
            if ln <= 1:
                return self.line, self.col + c - 1
            base = self.indent if self.indent is not None else 1
            return self.line + ln - 1, base + c - 1

        l1, c1 = place(line, col)
        l2, c2 = place(end_line or line, end_col or col)
        return Span(self.file, l1, c1, l2, c2)


def parse_module(text: str, origin: Origin, diags: Diagnostics) -> n.Module | None:
    return _parse(text, origin, diags, "start")


def parse_card_text(text: str, origin: Origin, diags: Diagnostics) -> n.CardText | None:
    return _parse(text, origin, diags, "card_text")


# Clean parses, by text and place: the AST is immutable (frozen nodes, tuples) and depends on
# nothing else, so loading the same files again (a scenario's inline cards beside the unchanged
# rules, the language server, the tests) reuses it. At most PARSED_CHARS characters of text are
# kept (a few rulesets), the oldest dropped first.
_PARSED: dict[tuple, n.Node] = {}
_PARSED_LOCK = threading.Lock()
_parsed_chars = 0
PARSED_CHARS = 8_000_000


def _parse(text: str, origin: Origin, diags: Diagnostics, start: str):
    key = (start, text, origin.file, origin.line, origin.col, origin.indent)
    tree = _PARSED.get(key)
    if tree is not None:
        return tree
    before = len(diags.items)
    tree = _parse_text(text, origin, diags, start)
    if tree is not None and len(diags.items) == before:  # nothing said about it: reusable
        _keep(key, tree)
    return tree


def _keep(key: tuple, tree: n.Node) -> None:
    global _parsed_chars
    with _PARSED_LOCK:  # the language server and `madang serve` parse in threads
        if key in _PARSED:
            return
        _PARSED[key] = tree
        _parsed_chars += len(key[1])
        while _parsed_chars > PARSED_CHARS and _PARSED:
            oldest = next(iter(_PARSED))
            _parsed_chars -= len(oldest[1])
            del _PARSED[oldest]


def _parse_text(text: str, origin: Origin, diags: Diagnostics, start: str):
    if len(text) > MAX_TEXT:
        diags.error(
            f"text too long ({len(text)} characters; the limit is {MAX_TEXT})",
            origin.span(1, 1),
            code="too-long",
        )
        return None
    if not _depth_ok(text, origin, diags):
        return None
    if not text.endswith("\n"):
        text += "\n"
    parser = lark_parser()  # a broken grammar is our bug, not the user's: let it raise
    try:
        tree = parser.parse(text, start=start)
    except UnexpectedInput as e:
        syntax_errors.report(e, text, origin, diags)
        return None
    except syntax_errors.IndentProblem as e:
        syntax_errors.report_indent(e, origin, diags)
        return None
    except (LarkError, RecursionError) as e:  # indentation errors and the like
        diags.error(f"cannot parse: {e}", origin.span(1, 1), code="syntax")
        return None
    try:
        return ToAst(origin).transform(tree)
    except VisitError as e:  # lark's "Error trying to process rule ...": say where and what
        syntax_errors.report_tree(e, origin, diags)
        return None
    except (RecursionError, LarkError) as e:
        diags.error(f"cannot build the syntax tree: {e}", origin.span(1, 1), code="syntax")
        return None


def _depth_ok(text: str, origin: Origin, diags: Diagnostics) -> bool:
    """Refuse texts nested deeper than MAX_DEPTH before the parser recurses into them."""
    depth = 0
    ops, prev = 0, ""  # operators in the statement so far: each one nests the tree deeper
    for ch, line, col in syntax_errors.code_chars(text):
        if ch == "\n":
            if depth <= 0:
                ops = 0
            prev = ch
            continue
        if ch in "+-*/%<>" or (ch == "=" and prev in "=!"):
            ops += 1
            if ops > MAX_OPERATORS:
                diags.error(
                    f"more than {MAX_OPERATORS} operators in one statement",
                    origin.span(line, col, line, col + 1),
                    "split the expression with `let` or a `define`",
                    code="too-deep",
                )
                return False
        prev = ch
        if ch in "([":
            depth += 1
            if depth > MAX_DEPTH:
                diags.error(
                    f"nesting deeper than {MAX_DEPTH} levels",
                    origin.span(line, col, line, col + 1),
                    code="too-deep",
                )
                return False
        elif ch in ")]":
            depth -= 1
    indents = {len(ln) - len(ln.lstrip(" \t")) for ln in text.splitlines() if ln.strip()}
    if len(indents) > MAX_DEPTH:
        diags.error(
            f"blocks nested deeper than {MAX_DEPTH} levels", origin.span(1, 1), code="too-deep"
        )
        return False
    return True


# ---------------------------------------------------------------- tree → AST


def _strings(items) -> list:
    return [i for i in items if i is not None]


# The words of a kind's clauses: names, not reserved words (`active` is also a built-in name).
KIND_ACTIVE = ("active", "활성")
KIND_AROUND = ("around", "감싸기")
TIMING_WORDS = ("timing", "시점")


class _KindActive(NamedTuple):
    zones: tuple[str, ...]
    span: Span


class _Limit(NamedTuple):
    """`once per SCOPE [per BY] [as SHARED]`, as written (the tokens give errors a place)."""

    scope: str
    by: Token | None
    shared: Token | None


class ToAst(Transformer):
    """Shapes lark's tree into `nodes`; no checking happens here (see checker)."""

    def __init__(self, origin: Origin):
        super().__init__(visit_tokens=False)
        self.origin = origin

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return self.origin.span(1, 1)
        return self.origin.span(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok(self, tok: Token) -> Span:
        return self.origin.span(
            tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok)
        )

    def __default__(self, data, children, meta):  # pragma: no cover - every rule has a method
        raise LarkError(f"no AST rule for {data}")

    # -------------------------------------------------------- files
    @v_args(meta=True)
    def start(self, meta, items):
        return n.Module(tuple(_strings(items)), span=self._span(meta))

    @v_args(meta=True)
    def card_text(self, meta, items):
        return n.CardText(tuple(_flatten(_strings(items))), span=self._span(meta))

    # -------------------------------------------------------- declarations
    def names(self, toks):
        return tuple(str(t) for t in toks if t.type != "SLASH")

    @v_args(meta=True)
    def kind_decl(self, meta, items):
        fields = tuple(i for i in items[3:] if isinstance(i, n.Field))
        active = [i for i in items[3:] if isinstance(i, _KindActive)]
        around = [i for i in items[3:] if isinstance(i, tuple) and not isinstance(i, _KindActive)]
        if len(active) > 1 or len(around) > 1:
            raise TreeProblem("a kind says `active in` and `around` once each", self._span(meta))
        zones, aspan = (active[0].zones, active[0].span) if active else ((), None)
        return n.KindDecl(
            items[1], fields, items[2], zones, aspan, around[0] if around else None,
            span=self._span(meta),
        )  # fmt: skip

    @v_args(meta=True)
    def kind_active(self, meta, items):
        word, _in, *zones = items
        if str(word) not in KIND_ACTIVE:
            raise TreeProblem(
                f"'{word}' in a kind: write `active in ZONE, ...` (활성 안에)", self._tok(word)
            )
        return _KindActive(tuple(str(z) for z in zones), self._span(meta))

    def kind_around(self, items):
        word, name, body = items
        if str(word) not in KIND_AROUND:
            raise TreeProblem(
                f"'{word}' in a kind: write `around NAME:` (감싸기 NAME:)", self._tok(word)
            )
        return (str(name), body)

    def card_count(self, items):
        lo, hi = items
        return (lo, hi if hi is not None else lo)

    @v_args(meta=True)
    def field_decl(self, meta, items):
        name, type_, limits, default = items
        return n.Field(str(name), type_, default, limits, span=self._span(meta))

    def value_range(self, items):
        return (items[0], items[1])

    def int_lit(self, items):
        minus, digits = items
        return -int(digits) if minus is not None and str(minus) == "-" else int(digits)

    def kw_kinds(self, items):
        return tuple(str(t) for t in items[1:])

    def attrs(self, items):
        return tuple(items)

    @v_args(meta=True)
    def zattr(self, meta, toks):
        return (" ".join(str(t) for t in toks), self._span(meta))

    @v_args(meta=True)
    def zone_decl(self, meta, items):
        return n.ZoneDecl(items[1], items[2] or (), span=self._span(meta))

    @v_args(meta=True)
    def counter_decl(self, meta, items):
        _, names, attrs, bounds, default = items
        return n.CounterDecl(names, attrs or (), default, bounds, span=self._span(meta))

    def counter_range(self, items):
        return (items[1], items[2])

    @v_args(meta=True)
    def range_bound(self, meta, items):
        (b,) = items
        span = self._span(meta)
        return n.Num(b, span=span) if isinstance(b, int) else n.Name(str(b), span=span)

    @v_args(meta=True)
    def event_decl(self, meta, items):
        return n.EventDecl(items[1], items[2] or (), span=self._span(meta))

    @v_args(meta=True)
    def verb_decl(self, meta, items):
        _, names, params, narration, body = items
        return n.VerbDecl(
            names,
            params or (),
            _unquote(narration) if narration else None,
            body,
            span=self._span(meta),
        )

    @v_args(meta=True)
    def define_decl(self, meta, items):
        _, names, params, body = items
        return n.DefineDecl(names, params or (), body, span=self._span(meta))

    @v_args(meta=True)
    def keyword_decl(self, meta, items):
        _, names, params, kinds, _while, cond, *rest = items
        body = rest[0] if rest else None
        return n.KeywordDecl(
            names, params or (), tuple(_flatten(body or ())), cond, kinds or (),
            span=self._span(meta),
        )  # fmt: skip

    @v_args(meta=True)
    def keyword_prefix(self, meta, items):
        use, event, _if, cond, limit, opt, body = items
        limit = self._scope(limit)
        return n.Conditioned(use, body, event, cond, limit, opt, span=self._span(meta))

    def prefix_body(self, items):
        return tuple(_flatten(items))

    @v_args(meta=True)
    def timing_decl(self, meta, items):
        word, names, head = items
        if str(word) not in TIMING_WORDS:
            raise TreeProblem(
                f"'{word}' at the top level: a declaration word was expected", self._tok(word)
            )
        timing, event, cond, opt = head
        prompt, by = opt if opt is not None else (None, None)
        name, binds, espan = event if event is not None else (None, (), None)
        return n.TimingDecl(
            names, timing, name, binds, cond, espan, prompt, by, span=self._span(meta)
        )

    def timing_head(self, items):
        tok, event, _if, cond, opt = items
        return {"WHEN": "after", "AFTER": "after", "BEFORE": "before"}[tok.type], event, cond, opt

    def timing_instead(self, items):
        _, _of, event, _if, cond, opt = items
        return "instead", event, cond, opt

    @v_args(meta=True)
    def action_decl(self, meta, items):
        _, names, params, _in, windows, limit, body = items
        by = shared = shared_span = None
        if limit is not None:
            if limit.by is not None:
                by = str(limit.by)
                if by not in [q.name for q in params or ()]:
                    raise TreeProblem(
                        f"`once per {limit.scope} per {by}`: '{by}' is not a parameter of this"
                        " action",
                        self._tok(limit.by),
                        "name one of the action's parameters: each of its values has its own limit",
                    )
            if limit.shared is not None:
                shared, shared_span = str(limit.shared), self._tok(limit.shared)
            limit = limit.scope
        return n.ActionDecl(
            names or (), params or (), windows or (), body, limit, by, shared, shared_span,
            span=self._span(meta),
        )  # fmt: skip

    def windows(self, toks):
        return tuple(str(t) for t in toks)

    @v_args(meta=True)
    def if_expr(self, meta, items):
        return n.IfExpr(items[1], items[3], items[5], span=self._span(meta))

    @v_args(meta=True)
    def setup_decl(self, meta, items):
        return n.SetupDecl(items[1], span=self._span(meta))

    @v_args(meta=True)
    def flow_decl(self, meta, items):
        return n.FlowDecl(items[1], span=self._span(meta))

    @v_args(meta=True)
    def rule_decl(self, meta, items):
        _, label, _for, var, _in, over, cond = items
        return n.RuleDecl(
            _unquote(label), str(var) if var else None, over, cond, span=self._span(meta)
        )

    @v_args(meta=True)
    def check_decl(self, meta, items):
        _, name, _for, var, _in, over, _if, cond, body = items
        return n.CheckDecl(
            str(name) if name else None,
            str(var) if var else None,
            over,
            cond,
            body,
            span=self._span(meta),
        )

    def params(self, items):
        return tuple(_strings(items))

    def kw_params(self, items):
        return tuple(items)

    @v_args(meta=True)
    def param(self, meta, items):
        name, type_, _from, domain = items
        return n.Param(str(name), type_, domain, span=self._span(meta))

    @v_args(meta=True)
    def type_ref(self, meta, items):
        words = [str(t) for t in items if t is not None and t.type != "OF"]
        return n.TypeRef(words[0], words[1] if len(words) > 1 else None, span=self._span(meta))

    # -------------------------------------------------------- abilities
    def ability_block(self, items):
        return list(items)

    @v_args(meta=True)
    def trigger(self, meta, items):
        timing, (event, binds, espan), _as, tier, _if, cond, limit, opt, body = items
        limit = self._scope(limit)
        # `when` and `after` are one timing; the AST (and `madang fmt`) write it `after`
        timing = {"WHEN": "after", "AFTER": "after", "BEFORE": "before"}[timing.type]
        prompt, by = opt if opt is not None else (None, None)
        return n.Trigger(
            timing, event, binds, cond, limit, body, espan, prompt, by,
            tier=str(tier) if tier is not None else None, span=self._span(meta),
        )  # fmt: skip

    @v_args(meta=True)
    def replacement(self, meta, items):
        _, _of, (event, binds, espan), _if, cond, limit, opt, body = items
        limit = self._scope(limit)
        prompt, by = opt if opt is not None else (None, None)
        return n.Trigger(
            "instead", event, binds, cond, limit, body, espan, prompt, by, span=self._span(meta)
        )

    @v_args(meta=True)
    def cost_decl(self, meta, items):
        _, (action, binds, espan), _if, cond, body = items
        return n.Trigger("cost", action, binds, cond, None, body, espan, span=self._span(meta))

    def optional(self, items):
        # `optional [by PLAYER] ["PROMPT"]` -> (prompt, player): prompt "" when none is written
        _, _by, who, prompt = items
        return (_unquote(prompt) if prompt is not None else ""), who

    def event_pattern(self, items):
        binds = tuple(n.SELF if t.type == "THIS" else str(t) for t in items[1:] if t is not None)
        if binds.count(n.SELF) > 1:
            raise TreeProblem("an event pattern binds `this` at most once", self._tok(items[0]))
        return str(items[0]), binds, self._tok(items[0])

    def limit(self, items):
        scope = str(items[2]) if items[2].type == "NAME" else items[2].type.lower()
        return _Limit(scope, items[4], items[6])

    def _scope(self, limit: _Limit | None) -> str | None:
        """A trigger's limit: `once per S`; `per NAME` (a parameter) and `as LIMIT` (a limit
        shared with other actions) are for actions only."""
        if limit is None:
            return None
        if limit.by is not None:
            raise TreeProblem(
                "`once per S per NAME` limits an action by one of its parameters; a trigger or"
                " replacement has one limit per source",
                self._tok(limit.by),
                "write `once per S` here",
            )
        if limit.shared is not None:
            raise TreeProblem(
                "`once per S as LIMIT` makes actions share one limit; a trigger or replacement"
                " has one limit of its own",
                self._tok(limit.shared),
                "write `once per S` here",
            )
        return limit.scope

    @v_args(meta=True)
    def static_effect(self, meta, items):
        effect, _if, cond = items
        effect = replace(effect, cond=cond)
        return n.Static(effect, span=self._span(meta))

    def keyword_uses(self, items):
        return list(items)

    @v_args(meta=True)
    def keyword_use(self, meta, items):
        return n.KeywordUse(str(items[0]), tuple(_strings(items[1:])), span=self._span(meta))

    # -------------------------------------------------------- statements
    @v_args(meta=True)
    def block(self, meta, items):
        return n.Block(tuple(items), span=self._span(meta))

    @v_args(meta=True)
    def let_stmt(self, meta, items):
        return n.Let(str(items[1]), items[2], span=self._span(meta))

    @v_args(meta=True)
    def assign_stmt(self, meta, items):
        target, op, value = items
        return n.Assign(target, op, value, span=self._span(meta))

    def assign_op(self, items):
        return str(items[0])

    @v_args(meta=True)
    def move_stmt(self, meta, items):
        what, (where, zone, index) = items[1], items[3]
        return n.Move(what, zone, where, index, span=self._span(meta))

    def place_back(self, items):
        return ("back", items[-1], None)

    def place_front(self, items):
        return ("front", items[-1], None)

    def place_at(self, items):
        return ("at", items[0], items[2])

    @v_args(meta=True)
    def create_stmt(self, meta, items):
        _, card, _in, zone, _for, owner, _as, name = items
        return n.Create(card, zone, owner, str(name) if name else None, span=self._span(meta))

    @v_args(meta=True)
    def remove_stmt(self, meta, items):
        return n.Remove(items[1], span=self._span(meta))

    @v_args(meta=True)
    def shuffle_stmt(self, meta, items):
        return n.Shuffle(items[1], span=self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta, items):
        _, name, count, _from, options, _by, by, prompt = items
        lo, hi = count if count else (None, None)
        return n.Choose(
            str(name),
            options,
            by,
            _unquote(prompt) if prompt else None,
            lo,
            hi,
            span=self._span(meta),
        )

    def count(self, items):
        lo, hi = items
        return (lo, hi if hi is not None else lo)

    @v_args(meta=True)
    def order_stmt(self, meta, items):
        _, name, _from, what, _by, by, prompt = items
        return n.Order(
            str(name), what, by, _unquote(prompt) if prompt else None, span=self._span(meta)
        )

    @v_args(meta=True)
    def emit_stmt(self, meta, items):
        return n.Emit(str(items[1]), tuple(_strings(items[2:])), span=self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, items):
        call = items[0]
        if not isinstance(call, n.Call):
            word = call.name if isinstance(call, n.Name) else None
            raise syntax_errors.not_a_statement(word, self._span(meta))
        return n.CallStmt(call.func, call.args, span=self._span(meta))

    @v_args(meta=True)
    def win_stmt(self, meta, items):
        return n.Win(items[1], span=self._span(meta))

    @v_args(meta=True)
    def lose_stmt(self, meta, items):
        return n.Lose(items[1], span=self._span(meta))

    @v_args(meta=True)
    def draw_stmt(self, meta, items):
        return n.DrawGame(span=self._span(meta))

    @v_args(meta=True)
    def end_stmt(self, meta, items):
        return n.End(items[1].type.lower(), span=self._span(meta))

    @v_args(meta=True)
    def expire_stmt(self, meta, items):
        tok = items[1]
        scope = str(tok) if tok.type == "NAME" else tok.type.lower()
        return n.Expire(scope, span=self._span(meta))

    @v_args(meta=True)
    def pass_stmt(self, meta, items):
        return n.Pass(span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, items):
        return n.Return(span=self._span(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, items):
        return n.Break(span=self._span(meta))

    @v_args(meta=True)
    def modify_effect(self, meta, items):
        _, obj, prop, by, amount = items
        op = "set" if by.type == "TO" else "add"
        return n.Modify(obj, str(prop), amount, op=op, span=self._span(meta))

    @v_args(meta=True)
    def grant_effect(self, meta, items):
        _, kw, _to, to = items
        if isinstance(kw, n.Index) and isinstance(kw.obj, n.Name):
            # `grant K[1, 2] to x`: a keyword with its arguments, as on a card
            return n.Grant(kw.obj, to, args=(kw.index, *kw.rest), span=self._span(meta))
        return n.Grant(kw, to, span=self._span(meta))

    @v_args(meta=True)
    def modify_stmt(self, meta, items):
        eff, (until, of) = items[0], items[1] or (None, None)
        return n.Modify(
            eff.obj, eff.prop, eff.amount, until, until_of=of, op=eff.op, span=self._span(meta)
        )

    @v_args(meta=True)
    def grant_stmt(self, meta, items):
        eff, (until, of) = items[0], items[1] or (None, None)
        return n.Grant(
            eff.keyword, eff.to, until, until_of=of, args=eff.args, span=self._span(meta)
        )

    def duration(self, items):
        # `until end of S` -> (S, None); `until end of turn of P` -> ("turn", P)
        tok = items[3]
        return (str(tok) if tok.type == "NAME" else tok.type.lower()), items[5]

    @v_args(meta=True)
    def window_stmt(self, meta, items):
        _, name, _by, by, once, _pass, _if, pass_if, must = items
        if must is not None:  # `must`: `pass if false` (the way madang fmt writes it back)
            pass_if = n.Const(False, span=self._span(meta))
        return n.Window(str(name), by, once is not None, pass_if, span=self._span(meta))

    @v_args(meta=True)
    def reveal_stmt(self, meta, items):
        return n.Reveal(items[1], items[3], span=self._span(meta))

    @v_args(meta=True)
    def log_stmt(self, meta, items):
        return n.Log(items[1], span=self._span(meta))

    @v_args(meta=True)
    def require_stmt(self, meta, items):
        return n.Require(items[1], span=self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, items):
        _, cond, body, *rest = items
        branches = [(cond, body)]
        orelse = None
        for r in rest:
            if r is None:
                continue
            if r[0] == "elif":
                branches.append((r[1], r[2]))
            else:
                orelse = r[1]
        return n.If(tuple(branches), orelse, span=self._span(meta))

    def elif_clause(self, items):
        return ("elif", items[1], items[2])

    def else_clause(self, items):
        return ("else", items[1])

    @v_args(meta=True)
    def for_stmt(self, meta, items):
        _, name, _in, what, body = items
        return n.For(str(name), what, body, span=self._span(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta, items):
        return n.Repeat(items[1], items[3], span=self._span(meta))

    @v_args(meta=True)
    def while_stmt(self, meta, items):
        return n.While(items[1], items[2], span=self._span(meta))

    @v_args(meta=True)
    def until_stmt(self, meta, items):
        return n.While(items[2], items[3], True, span=self._span(meta))

    @v_args(meta=True)
    def hold_stmt(self, meta, items):
        return n.Hold(items[-1], span=self._span(meta))

    @v_args(meta=True)
    def scope_stmt(self, meta, items):
        head = items[0]
        body = items[-1]
        if head.type == "TURN":
            return n.Scope("turn", "turn", items[1], body, span=self._span(meta))
        if head.type == "ROUND":
            return n.Scope("round", "round", None, body, span=self._span(meta))
        names = items[1]  # `phase gather/모으기:` — the first name and its aliases
        return n.Scope("phase", names[0], None, body, names[1:], span=self._span(meta))

    # -------------------------------------------------------- expressions
    @v_args(meta=True)
    def where(self, meta, items):
        return n.Where(items[0], items[2], span=self._span(meta))

    @v_args(meta=True)
    def or_expr(self, meta, items):
        return n.BoolOp("or", tuple(items[::2]), span=self._span(meta))

    @v_args(meta=True)
    def and_expr(self, meta, items):
        return n.BoolOp("and", tuple(items[::2]), span=self._span(meta))

    @v_args(meta=True)
    def not_(self, meta, items):
        return n.Not(items[1], span=self._span(meta))

    @v_args(meta=True)
    def compare(self, meta, items):
        return n.BinOp(str(items[1]), items[0], items[2], span=self._span(meta))

    @v_args(meta=True)
    def ko_compare(self, meta, items):
        op = {"이하": "<=", "이상": ">=", "미만": "<", "초과": ">"}[str(items[2])]
        num = n.Num(int(items[1]), span=self._tok(items[1]))
        return n.BinOp(op, items[0], num, span=self._span(meta))

    @v_args(meta=True)
    def contains(self, meta, items):
        return n.Contains(items[0], items[2], span=self._span(meta))

    @v_args(meta=True)
    def not_contains(self, meta, items):
        sp = self._span(meta)
        return n.Not(n.Contains(items[0], items[3], span=sp), span=sp)

    @v_args(meta=True)
    def has(self, meta, items):
        return n.Has(items[0], str(items[2]), span=self._span(meta))

    @v_args(meta=True)
    def is_kind(self, meta, items):
        return n.IsKind(items[0], str(items[2]), span=self._span(meta))

    @v_args(meta=True)
    def is_not_kind(self, meta, items):
        sp = self._span(meta)
        return n.Not(n.IsKind(items[0], str(items[3]), span=sp), span=sp)

    @v_args(meta=True)
    def binop(self, meta, items):
        return n.BinOp(str(items[1]), items[0], items[2], span=self._span(meta))

    @v_args(meta=True)
    def neg(self, meta, items):
        if str(items[0]) == "+":
            return items[1]
        return n.Neg(items[1], span=self._span(meta))

    @v_args(meta=True)
    def attr(self, meta, items):
        return n.Attr(items[0], str(items[1]), span=self._span(meta))

    @v_args(meta=True)
    def call(self, meta, items):
        func = items[0]
        if not isinstance(func, n.Name):
            raise TreeProblem("only names can be called", self._span(meta))
        return n.Call(func.name, tuple(_strings(items[1:])), span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta, items):
        return n.Index(items[0], items[1], tuple(items[2:]), span=self._span(meta))

    @v_args(meta=True)
    def number(self, meta, items):
        return n.Num(int(items[0]), span=self._span(meta))

    @v_args(meta=True)
    def string(self, meta, items):
        return n.Str(_unquote(items[0]), span=self._span(meta))

    @v_args(meta=True)
    def true(self, meta, items):
        return n.Const(True, span=self._span(meta))

    @v_args(meta=True)
    def false(self, meta, items):
        return n.Const(False, span=self._span(meta))

    @v_args(meta=True)
    def none(self, meta, items):
        return n.Const(None, span=self._span(meta))

    @v_args(meta=True)
    def this(self, meta, items):
        return n.Special("this", span=self._span(meta))

    @v_args(meta=True)
    def you(self, meta, items):
        return n.Special("you", span=self._span(meta))

    @v_args(meta=True)
    def it(self, meta, items):
        return n.Special("it", span=self._span(meta))

    @v_args(meta=True)
    def name(self, meta, items):
        return n.Name(str(items[0]), span=self._span(meta))

    @v_args(meta=True)
    def list(self, meta, items):
        return n.ListExpr(tuple(_strings(items)), span=self._span(meta))


def _flatten(items):
    for i in items:
        if isinstance(i, list):
            yield from i
        else:
            yield i


def _unquote(tok) -> str:
    s = str(tok)[1:-1]
    if "\\" not in s:
        return s
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), s)


def parse_file(path: str | Path, diags: Diagnostics) -> n.Module | None:
    """Parse one language file; unreadable files become diagnostics."""
    from .sources import read_text

    text = read_text(path, diags)
    if text is None:
        return None
    return parse_module(text, Origin(str(path)), diags)


__all__ = ["parse_module", "parse_card_text", "parse_file", "Origin", "Abort", "Tree"]
