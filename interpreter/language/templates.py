"""Sentences with blanks (`"{who} draws {n}"`): a verb's narration.

Only plain `{name}` blanks, filled by the verb's arguments as shown to a seat: no widths,
conversions or attribute lookups, which a file could use to print gigabytes or read internals.
`{{` and `}}` stand for braces.
"""

from __future__ import annotations

import re

_BLANK = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_NAME = re.compile(r"[^\W\d]\w*\Z")


def problems(template: str, names: set[str]) -> list[str]:
    """What is wrong with a template's blanks (none when it can be filled)."""
    out = []
    for m in _BLANK.finditer(template):
        whole, field = m.group(), m.group(1)
        if whole in ("{{", "}}"):
            continue
        if field is None:
            out.append(f"a lone '{whole}' (write '{whole * 2}' for a brace)")
        elif not _NAME.match(field):
            out.append(f"'{{{field}}}': a blank holds a parameter's name only")
        elif field not in names:
            known = ", ".join(sorted(names)) or "none"
            out.append(f"'{{{field}}}' is not a parameter (parameters: {known})")
    return out


def fill(template: str, values: dict[str, str]) -> str:
    """The template with its blanks filled; a blank without a value stays as written."""

    def one(m: re.Match) -> str:
        whole, field = m.group(), m.group(1)
        if whole in ("{{", "}}"):
            return whole[0]
        return values.get(field, whole) if field is not None else whole

    return _BLANK.sub(one, template)
