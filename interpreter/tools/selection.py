"""`-k EXPR` as pytest reads it: words matched as case-insensitive substrings, combined with
`and`, `or`, `not` and brackets. Parsed by hand, never evaluated as Python."""

from __future__ import annotations

import re
from collections.abc import Callable

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


class SelectionError(ValueError):
    """A `-k` expression that does not parse; the message says where."""


def compile_selection(expr: str) -> Callable[[str], bool]:
    """A predicate over a text (an item's name and labels) for the expression `expr`."""
    tokens = [m.group(1) for m in _TOKEN.finditer(expr)]
    if not tokens:
        raise SelectionError("-k: empty expression")
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def disjunction():
        terms = [conjunction()]
        while peek() == "or":
            take()
            terms.append(conjunction())
        return lambda text: any(t(text) for t in terms)

    def conjunction():
        terms = [negation()]
        while peek() == "and":
            take()
            terms.append(negation())
        return lambda text: all(t(text) for t in terms)

    def negation():
        if peek() == "not":
            take()
            inner = negation()
            return lambda text: not inner(text)
        return atom()

    def atom():
        tok = peek()
        if tok is None:
            raise SelectionError(f"-k {expr!r}: expected a word at the end")
        take()
        if tok == "(":
            inner = disjunction()
            if peek() != ")":
                raise SelectionError(f"-k {expr!r}: missing ')'")
            take()
            return inner
        if tok in (")", "and", "or"):
            raise SelectionError(f"-k {expr!r}: unexpected {tok!r}")
        word = tok.casefold()
        return lambda text: word in text.casefold()

    pred = disjunction()
    if pos != len(tokens):
        raise SelectionError(f"-k {expr!r}: unexpected {tokens[pos]!r}")
    return pred
