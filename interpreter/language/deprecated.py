"""Deprecated names: a ruleset's public definitions are an interface for card texts.

A ruleset that renames or removes a definition (a `define`, verb, event, keyword, zone, ...)
keeps the old name working for at least one release by listing it in ruleset.yaml:

    deprecated:
      hp_of: health_of     # old name: its replacement

The old name becomes another spelling of the replacement, and every use of it in the rules, a
card set or a card text is a warning at its place that names the replacement.
"""

from __future__ import annotations

from collections.abc import Callable

from . import nodes as n
from .diagnostics import Diagnostics, Span, did_you_mean
from .symbols import Collector, Symbols

_NAME_FIELDS = ("name", "func", "verb", "event", "keyword")


def _tables(s: Symbols) -> tuple[dict, ...]:
    return (s.defines, s.verbs, s.events, s.keywords, s.kinds, s.zones, s.counters, s.actions)


def register(
    meta: dict, col: Collector, diags: Diagnostics, where: Callable[[tuple], Span]
) -> dict[str, str]:
    """Make each deprecated name another spelling of its replacement; the names registered.
    `where(path)` locates a key of ruleset.yaml for the errors."""
    s = col.s
    out: dict[str, str] = {}
    for old, new in (meta.get("deprecated") or {}).items():
        old, new = str(old), str(new)
        table = next((t for t in _tables(s) if new in t), None)
        if table is None:
            names = [k for t in _tables(s) for k in t]
            diags.error(
                f"deprecated name '{old}' is replaced by '{new}', which is not defined",
                where(("deprecated", old)),
                did_you_mean(new, names),
                code="unknown-name",
            )
            continue
        if any(old in t for t in _tables(s)):
            diags.error(
                f"deprecated name '{old}' is still defined: remove its definition, or its"
                " `deprecated` entry",
                where(("deprecated", old)),
                code="duplicate",
            )
            continue
        table[old] = table[new]
        s.canonical[old] = s.canonical.get(new, new)
        out[old] = new
    return out


def warn_uses(roots, names: dict[str, str], diags: Diagnostics) -> None:
    """A warning at each use of a deprecated name, naming its replacement."""
    if not names:
        return
    for root in roots:
        if not isinstance(root, n.Node):
            continue
        for node in root.walk():
            for f in _NAME_FIELDS:
                v = getattr(node, f, None)
                if isinstance(v, str) and v in names:
                    diags.warning(
                        f"'{v}' is deprecated: use '{names[v]}'",
                        node.span,
                        f"the ruleset renamed it; write {names[v]}",
                        code="deprecated",
                    )
