"""What a save was made with: one digest each for the rules, the card data and the options.

A save resumed under different rules would silently continue a game the new rules could never
have reached, so saves carry these digests and loading compares them. They are taken from the
checked syntax trees and card data, without positions or comments: reformatting a file or
adding a comment keeps old saves working, while changing `-=` to `+=`, a card's number or an
option's values does not.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields, is_dataclass

from ..language import nodes as n
from ..language.diagnostics import Span

PARTS = ("rules", "cards", "options")


class _Shape(n.NodeVisitor):
    """A position-free serialisation of syntax trees and plain data: a node is its class and
    its fields (`Node.iter_fields`, never a span), read by the one visitor of the tree; lists,
    dicts, sets and scalars are written as they are."""

    def __init__(self, out: list[str]):
        self.out = out

    def generic_visit(self, node: n.Node) -> None:
        self.record(type(node).__name__, node.iter_fields())

    def record(self, name: str, items) -> None:
        out = self.out
        out.append(name + "(")
        for key, value in items:
            out.append(key + "=")
            self.value(value)
            out.append(",")
        out.append(")")

    def value(self, x) -> None:
        out = self.out
        if isinstance(x, n.Node):
            self.visit(x)
        elif isinstance(x, Span):
            return
        elif is_dataclass(x) and not isinstance(x, type):  # plain records beside the tree
            self.record(
                type(x).__name__,
                ((f.name, getattr(x, f.name)) for f in fields(x) if f.name != "span"),
            )
        elif isinstance(x, (tuple, list)):
            out.append("[")
            for v in x:
                self.value(v)
                out.append(",")
            out.append("]")
        elif isinstance(x, dict):
            out.append("{")
            for k in sorted(x, key=repr):
                out.append(repr(k) + ":")
                self.value(x[k])
                out.append(",")
            out.append("}")
        elif isinstance(x, (set, frozenset)):
            out.append("{" + ",".join(sorted(map(repr, x))) + "}")
        else:
            out.append(repr(x))


def shape(x, out: list[str]) -> None:
    """A position-free serialisation of syntax trees and plain data, appended to `out`."""
    _Shape(out).value(x)


def digest(*things) -> str:
    out: list[str] = []
    for t in things:
        shape(t, out)
        out.append(";")
    return hashlib.sha256("".join(out).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def fingerprints(modules: list, syms, meta: dict, layout: str = "") -> dict[str, str]:
    """The three digests of a loaded ruleset (its language files, its cards, its options).
    `layout` names how the compiler lays out blocks (Compiler.layout): a save holds positions
    in them, so a save made under another layout counts as made under other rules."""
    rules_meta = {k: meta.get(k) for k in ("players", "settings", "maps", "data")}
    rules_meta["layout"] = layout
    cards = [
        (c.name, c.kind, c.props, c.text, c.traits, c.copies, c.extra)
        for c in sorted(syms.cards.values(), key=lambda c: c.index)
    ]
    return {
        "rules": digest(modules, rules_meta),
        "cards": digest(cards),
        "options": digest(meta.get("options") or {}, meta.get("constraints")),
    }


def differences(saved, now: dict[str, str]) -> list[str]:
    """The parts whose digest differs; every part when the save has none (an older format)."""
    if not isinstance(saved, dict):
        return list(PARTS)
    return [p for p in PARTS if saved.get(p) != now.get(p)]
