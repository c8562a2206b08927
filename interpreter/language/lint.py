"""Card lint: cards that load but can never work as their designer meant, as located warnings.

What a card may hold is declared in the rules, not here: `kind K[1]:` (how many cards of a kind a
game may have), `cost: number 0..10` (checked by the card schema), `keyword K for KIND` (the
kinds a keyword belongs on). This module reads those declarations and also flags what no ruleset
would want: a keyword listed twice on one card, a keyword given itself as its argument, and a
condition that is the same whatever the game state (`c == this and c != this`).
"""

from __future__ import annotations

from . import nodes as n
from .diagnostics import Diagnostics

# Comparisons that cannot both hold (and) or cannot both fail (or) for the same two operands.
_OPPOSITE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def lint_cards(syms, diags: Diagnostics) -> None:
    canon = syms.canonical
    by_kind: dict[str, list] = {}
    for card in syms.cards.values():
        kind = canon.get(card.kind, card.kind)
        by_kind.setdefault(kind, []).append(card)
        if card.text is not None:
            _keywords(card, card.text.items, syms, diags)
    for kind, cards in by_kind.items():
        sym = syms.kinds.get(kind)
        limits = getattr(sym, "cards", None)
        if limits is None:
            continue
        lo, hi = limits
        for extra in cards[hi:]:
            diags.warning(
                f"{len(cards)} cards of kind '{kind}': the rules allow "
                + (f"{hi}" if lo == hi else f"{lo} to {hi}"),
                extra.span,
                f"the kind is declared at {sym.span.file}:{sym.span.line}",
                code="card-lint",
            )


def _keywords(card, items, syms, diags: Diagnostics) -> None:
    canon = syms.canonical
    seen: dict[str, object] = {}
    for item in items:
        use = item.keyword if isinstance(item, n.Conditioned) else item
        if not isinstance(use, n.KeywordUse):
            continue
        name = canon.get(use.name, use.name)
        kw = syms.keywords.get(name)
        if kw is None:
            continue  # the checker reports unknown keywords
        if name in seen and not use.args:
            diags.warning(
                f"'{use.name}' is listed twice on {card.name}: once is the same as twice",
                use.span,
                code="card-lint",
            )
        seen[name] = use
        for arg in use.args:
            if isinstance(arg, n.Name) and canon.get(arg.name, arg.name) == name:
                diags.warning(
                    f"'{use.name}' is given itself: {use.name}[{arg.name}] has nothing to give",
                    arg.span,
                    code="card-lint",
                )
        kinds = getattr(kw.decl, "kinds", ())
        if kinds and canon.get(card.kind, card.kind) not in {canon.get(k, k) for k in kinds}:
            diags.warning(
                f"'{use.name}' does nothing on a {card.kind}: the rules give it to "
                + ", ".join(kinds),
                use.span,
                f"declared at {kw.span.file}:{kw.span.line}",
                code="card-lint",
            )


def constant_condition(e: n.BoolOp) -> bool | None:
    """True or False when an `and`/`or` of comparisons cannot depend on the state, else None."""
    comparisons = [i for i in e.items if isinstance(i, n.BinOp) and i.op in _OPPOSITE]
    keys = {(c.op, _key(c.left), _key(c.right)) for c in comparisons}
    for op, left, right in keys:
        if (_OPPOSITE[op], left, right) in keys:
            return e.op != "and"  # x == y and x != y: never; x == y or x != y: always
    return None


def constant_comparison(e: n.BinOp) -> bool | None:
    """`x == x` is always true and `x != x` always false (for the same expression)."""
    if e.op in ("==", "!=", "<", ">", "<=", ">=") and _key(e.left) == _key(e.right):
        if isinstance(e.left, n.Num | n.Str):
            return None  # a literal compared with itself is plain, not a slip
        return e.op in ("==", "<=", ">=")
    return None


def _key(e) -> str:
    """An expression's shape without its position."""
    from .fmt import FormatError, format_expr

    try:
        return format_expr(e)
    except FormatError:  # an expression fmt cannot print is never "the same" as another
        return f"#{id(e)}"
