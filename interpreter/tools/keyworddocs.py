"""What a keyword does, for `show CARD` (tools/table.py): its declaration, and the comment its
author wrote on that line or directly above it (`keyword 비행/flying for 병사  # may only be
blocked by flyers`). Read from the ruleset's own files: nothing about any game is written here."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=64)
def _lines(path: str) -> tuple[str, ...]:
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def _source(prog, file: str) -> tuple[str, ...]:
    lines = _lines(file)
    folder = getattr(prog, "folder", None)
    if not lines and folder:  # the span is relative to where the ruleset was loaded from
        lines = _lines(str(Path(folder) / Path(file).name))
    return lines


def keyword_doc(prog, name: str) -> tuple[str, str] | None:
    """(declaration, explanation) of a keyword, or None when the ruleset does not declare it."""
    syms = getattr(prog, "syms", None)
    sym = None if syms is None else syms.keywords.get(syms.canonical.get(name, name))
    span = getattr(sym, "span", None)
    if span is None:
        return None
    lines = _source(prog, span.file)
    if not 0 < span.line <= len(lines):
        return None
    decl, _, trailing = lines[span.line - 1].partition("#")
    above = []
    i = span.line - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        above.append(lines[i].strip().lstrip("#").strip())
        i -= 1
    why = " ".join([*reversed(above), trailing.strip()]).strip()
    return decl.strip().rstrip(":"), why


__all__ = ["keyword_doc"]
