"""The AST: frozen dataclasses, each with the source span it came from.

Later stages (checker, compiler, formatter) see only these classes, never lark's trees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, replace

from .diagnostics import Span

# The binding name of a self-bound trigger (`after destroy(this)`): no source text can write it.
SELF = "(this)"


@dataclass(frozen=True, slots=True)
class Node:
    span: Span = field(compare=False, repr=False, kw_only=True)

    def iter_fields(self) -> Iterator[tuple[str, object]]:
        """(name, value) of each field but the node's own span, in declaration order: Python's
        `ast.iter_fields`, which every walk, rewrite, dump and fingerprint reads."""
        for f in fields(self):
            if f.name != "span":
                yield f.name, getattr(self, f.name)

    def iter_child_nodes(self) -> Iterator[Node]:
        """The nodes directly inside this one, in field order (looking into tuples, such as a
        block's statements or an if's (condition, block) branches), as Jinja's nodes do."""
        for _, value in self.iter_fields():
            yield from _nodes_in(value)

    def walk(self, prune: Callable[[Node], bool] | None = None) -> Iterator[Node]:
        """This node and every node inside it, depth first: the one tree walk that the
        checker's helpers, the compiler and the formatter share. A node below this one for
        which `prune(node)` holds is left out, with everything inside it."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            children = node.iter_child_nodes()
            if prune is not None:
                children = (c for c in children if not prune(c))
            stack.extend(reversed(list(children)))


def _nodes_in(v) -> Iterator[Node]:
    if isinstance(v, Node):
        yield v
    elif isinstance(v, tuple):
        for x in v:
            yield from _nodes_in(x)


class NodeVisitor:
    """Calls `visit_CLASS(node)` for each node it is given, `generic_visit` (which visits the
    children) for classes without a method: Python's `ast.NodeVisitor`, over these nodes."""

    def visit(self, node: Node):
        return getattr(self, "visit_" + type(node).__name__, self.generic_visit)(node)

    def generic_visit(self, node: Node):
        for child in node.iter_child_nodes():
            self.visit(child)


class NodeTransformer(NodeVisitor):
    """A tree rewrite: `visit_CLASS(node)` returns the node to put in its place, and
    `generic_visit` rebuilds a node whose children changed (spans kept), so an unchanged
    subtree stays the same object. The one tree rewrite that desugaring and `madang fmt`'s
    canonical spellings share, as Python's `ast.NodeTransformer`."""

    def generic_visit(self, node: Node) -> Node:
        changed = {}
        for name, old in node.iter_fields():
            new = self.rewrite(old)
            if new is not old:
                changed[name] = new
        return replace(node, **changed) if changed else node

    def rewrite(self, v):
        """`v` with its nodes visited: a node, or a tuple (kept as is when nothing in it changed)."""
        if isinstance(v, Node):
            return self.visit(v)
        if isinstance(v, tuple):
            new = tuple(self.rewrite(x) for x in v)
            return v if all(a is b for a, b in zip(new, v)) else new
        return v


# ---------------------------------------------------------------- expressions


class Expr(Node):
    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Num(Expr):
    value: int


@dataclass(frozen=True, slots=True)
class Str(Expr):
    value: str


@dataclass(frozen=True, slots=True)
class Const(Expr):
    """true, false or none."""

    value: bool | None


@dataclass(frozen=True, slots=True)
class Name(Expr):
    """A bare name: a local, a counter, a definition, a kind, a keyword, a card or a builtin."""

    name: str


@dataclass(frozen=True, slots=True)
class Special(Expr):
    """this (the ability's source), you (its controller or the acting player), it (in `where`)."""

    which: str


@dataclass(frozen=True, slots=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True, slots=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Index(Expr):
    obj: Expr
    index: Expr
    rest: tuple[Expr, ...] = ()  # `K[a, b]`: only a granted keyword takes several (checker)


@dataclass(frozen=True, slots=True)
class ListExpr(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class BinOp(Expr):
    """Arithmetic (+ - * / %) and comparisons (== != < <= > >=)."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class BoolOp(Expr):
    op: str  # 'and' | 'or'
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Not(Expr):
    expr: Expr


@dataclass(frozen=True, slots=True)
class Neg(Expr):
    expr: Expr


@dataclass(frozen=True, slots=True)
class Contains(Expr):
    item: Expr
    container: Expr


@dataclass(frozen=True, slots=True)
class Has(Expr):
    """`x has K`: whether object x has keyword K, its own or granted."""

    obj: Expr
    keyword: str


@dataclass(frozen=True, slots=True)
class IsKind(Expr):
    obj: Expr
    kind: str


@dataclass(frozen=True, slots=True)
class Where(Expr):
    """`list where cond`: the items for which cond holds, with `it` bound to each."""

    items: Expr
    cond: Expr


@dataclass(frozen=True, slots=True)
class IfExpr(Expr):
    """`if cond then a else b`."""

    cond: Expr
    then: Expr
    orelse: Expr


# ---------------------------------------------------------------- statements


class Stmt(Node):
    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Block(Node):
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Assign(Stmt):
    target: Expr  # Name or Attr
    op: str  # '=', '+=', '-='
    value: Expr


@dataclass(frozen=True, slots=True)
class Move(Stmt):
    """Move objects to a zone; where is 'back', 'front' or 'at' (with index)."""

    what: Expr
    zone: Expr
    where: str = "back"
    index: Expr | None = None


@dataclass(frozen=True, slots=True)
class Create(Stmt):
    card: Expr
    zone: Expr
    owner: Expr | None
    name: str | None


@dataclass(frozen=True, slots=True)
class Remove(Stmt):
    what: Expr


@dataclass(frozen=True, slots=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True, slots=True)
class Choose(Stmt):
    """A decision: `by` picks one item of `options` (or min..max of them) into `name`."""

    name: str
    options: Expr
    by: Expr | None
    prompt: str | None
    min: Expr | None = None
    max: Expr | None = None


@dataclass(frozen=True, slots=True)
class Order(Stmt):
    """A decision: `by` puts the items in an order, one pick at a time."""

    name: str
    items: Expr
    by: Expr | None
    prompt: str | None


@dataclass(frozen=True, slots=True)
class Emit(Stmt):
    event: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class CallStmt(Stmt):
    verb: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Win(Stmt):
    who: Expr


@dataclass(frozen=True, slots=True)
class Lose(Stmt):
    who: Expr


@dataclass(frozen=True, slots=True)
class DrawGame(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class End(Stmt):
    """End the current turn, phase or the whole game early."""

    what: str


@dataclass(frozen=True, slots=True)
class Expire(Stmt):
    """End now the modifiers and grants that last `until end of` a scope (a rulebook's
    end-of-turn step that ends them before the turn's last steps)."""

    scope: str


@dataclass(frozen=True, slots=True)
class Pass(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class Return(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class Break(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class Modify(Stmt):
    """Add `amount` to `obj.prop` (`by`), or make it `amount` (`to`), while the modifier lasts
    (a static ability: while its source is in play; a statement: until the end of `until`, or
    for good)."""

    obj: Expr
    prop: str
    amount: Expr
    until: str | None = None
    cond: Expr | None = None
    until_of: Expr | None = None  # `until end of turn of P`: the end of P's (next) turn
    op: str = "add"  # "add" (`by`) or "set" (`to`: "becomes"; set-effects apply first)


@dataclass(frozen=True, slots=True)
class Grant(Stmt):
    keyword: Expr
    to: Expr
    until: str | None = None
    cond: Expr | None = None
    until_of: Expr | None = None
    args: tuple[Expr, ...] = ()  # `grant K[1] to x`: the granted keyword's arguments


@dataclass(frozen=True, slots=True)
class Window(Stmt):
    """Offer the actions of window `name` to a player (until they pass, or once) or to a list of
    players in turn (until all pass one after another)."""

    name: str
    by: Expr
    once: bool
    pass_if: Expr | None = None  # `pass if COND`: `pass` is offered only while COND holds


@dataclass(frozen=True, slots=True)
class Log(Stmt):
    value: Expr


@dataclass(frozen=True, slots=True)
class Reveal(Stmt):
    """Show objects to players: they see them until the objects next change zones."""

    what: Expr
    to: Expr


@dataclass(frozen=True, slots=True)
class Require(Stmt):
    """In an action: a condition of its legality. Elsewhere: stop the block when false."""

    cond: Expr


@dataclass(frozen=True, slots=True)
class If(Stmt):
    branches: tuple[tuple[Expr, Block], ...]
    orelse: Block | None


@dataclass(frozen=True, slots=True)
class For(Stmt):
    name: str
    items: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    times: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class While(Stmt):
    cond: Expr
    body: Block
    until: bool = False


@dataclass(frozen=True, slots=True)
class Hold(Stmt):
    """`hold: BLOCK`: abilities triggered inside wait and resolve, in trigger order, after it."""

    body: Block


@dataclass(frozen=True, slots=True)
class Scope(Stmt):
    """A turn (of a player), a round, or a named phase: modifiers may last until its end."""

    kind: str  # 'turn' | 'round' | 'phase'
    name: str
    player: Expr | None
    body: Block
    aliases: tuple[str, ...] = ()  # other spellings of a phase's name (`phase gather/모으기:`)


# ---------------------------------------------------------------- declarations


@dataclass(frozen=True, slots=True)
class TypeRef(Node):
    name: str
    of: str | None = None


@dataclass(frozen=True, slots=True)
class Param(Node):
    name: str
    type: TypeRef | None
    domain: Expr | None = None


@dataclass(frozen=True, slots=True)
class Decl(Node):
    pass


@dataclass(frozen=True, slots=True)
class Field(Node):
    name: str
    type: TypeRef
    default: Expr | None
    limits: tuple[int, int] | None = None  # `cost: number 0..10`: what a card may hold


@dataclass(frozen=True, slots=True)
class KindDecl(Decl):
    names: tuple[str, ...]
    fields: tuple[Field, ...]
    cards: tuple[int, int] | None = None  # `kind K[1]:`: how many cards of K a game may have
    # `active in Z, ...`: the zones where the abilities of its cards are in force (() = the
    # zones declared `active`), with the clause's span
    active_in: tuple[str, ...] = ()
    active_span: Span | None = field(default=None, compare=False)
    # `around NAME: BLOCK`: the block every ability of its cards runs, NAME standing for the
    # ability's own effect
    around: tuple[str, Block] | None = None


@dataclass(frozen=True, slots=True)
class ZoneDecl(Decl):
    names: tuple[str, ...]
    attrs: tuple[tuple[str, Span], ...]


@dataclass(frozen=True, slots=True)
class CounterDecl(Decl):
    names: tuple[str, ...]
    attrs: tuple[tuple[str, Span], ...]
    default: Expr | None
    # `in LOW..HIGH`: the values it may hold, each bound a number (Num), a definition (Name) or
    # left out (None: no limit on that side)
    bounds: tuple[Expr | None, Expr | None] | None = None


@dataclass(frozen=True, slots=True)
class EventDecl(Decl):
    names: tuple[str, ...]
    params: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class VerbDecl(Decl):
    names: tuple[str, ...]
    params: tuple[Param, ...]
    narration: str | None
    body: Block


@dataclass(frozen=True, slots=True)
class DefineDecl(Decl):
    names: tuple[str, ...]
    params: tuple[Param, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class KeywordUse(Node):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Trigger(Decl):
    timing: str  # 'when' | 'after' | 'before' | 'instead' | 'cost' (event: an action's name)
    event: str
    binds: tuple[str, ...]
    cond: Expr | None
    limit: str | None
    body: Block
    event_span: Span | None = field(default=None, compare=False)
    optional: str | None = None  # `optional ["PROMPT"]`: its player may decline ("" = no prompt)
    optional_by: Expr | None = None  # `optional by PLAYER`: who is asked (default: you)
    tier: str | None = None  # `as TIER`: a tier of settings.trigger_tiers (resolves first)


@dataclass(frozen=True, slots=True)
class Static(Decl):
    effect: Modify | Grant


@dataclass(frozen=True, slots=True)
class ActionDecl(Decl):
    names: tuple[str, ...]
    params: tuple[Param, ...]
    windows: tuple[str, ...]
    body: Block
    limit: str | None = None  # `once per turn|round|PHASE`
    limit_by: str | None = None  # `once per S per NAME`: one use per value of parameter NAME
    limit_as: str | None = None  # `once per S as LIMIT`: the limit it shares with other actions
    limit_as_span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class KeywordDecl(Decl):
    names: tuple[str, ...]
    params: tuple[Param, ...]
    items: tuple[Decl | KeywordUse, ...]
    cond: Expr | None = None  # `keyword K[...] while COND`: a condition keyword
    kinds: tuple[str, ...] = ()  # `keyword K for KIND`: the kinds of card it belongs on


@dataclass(frozen=True, slots=True)
class Conditioned(Node):
    """`K[args]:` in a card text: abilities in force only while condition keyword K holds; or
    `T [EVENT(binds)] [if C] [once per S] [optional]: effect` with a timing word T (`timing`):
    the symbols stage tells them apart (it knows which names are timing words)."""

    keyword: KeywordUse
    items: tuple[Decl | Stmt, ...]
    event: tuple[str, tuple[str, ...], Span] | None = None  # a timing word's (event, binds, span)
    cond: Expr | None = None
    limit: str | None = None
    optional: tuple[str, Expr | None] | None = None  # (prompt, by)


@dataclass(frozen=True, slots=True)
class TimingDecl(Decl):
    """`timing NAMES = after EVENT(binds) [if C] [optional]`: a word for a trigger's head."""

    names: tuple[str, ...]
    timing: str  # 'after' | 'before' | 'instead'
    event: str | None  # None: each use names the event
    binds: tuple[str, ...] = ()
    cond: Expr | None = None
    event_span: Span | None = field(default=None, compare=False)
    optional: str | None = None
    optional_by: Expr | None = None


@dataclass(frozen=True, slots=True)
class SetupDecl(Decl):
    body: Block


@dataclass(frozen=True, slots=True)
class FlowDecl(Decl):
    body: Block


@dataclass(frozen=True, slots=True)
class CheckDecl(Decl):
    name: str | None
    var: str | None
    over: Expr | None
    cond: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class RuleDecl(Decl):
    """A deck-construction rule: `cond` holds for a legal deck (for each card, with `var`)."""

    label: str
    var: str | None
    over: Expr | None
    cond: Expr


@dataclass(frozen=True, slots=True)
class Module(Node):
    """One parsed language file."""

    decls: tuple[Decl, ...]


@dataclass(frozen=True, slots=True)
class CardText(Node):
    """A card's parsed `text`: keyword uses and abilities."""

    items: tuple[Decl | KeywordUse, ...]


def is_placeholder(stmt, name: str) -> bool:
    """The statement of a kind's `around NAME:` block that stands for each ability's effect."""
    return isinstance(stmt, CallStmt) and stmt.verb == name and not stmt.args
