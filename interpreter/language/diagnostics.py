"""Located problems in user input, and how they are shown.

Every stage reports into a `Diagnostics` collection instead of raising, so that one run shows all
problems. A stage that cannot continue raises `Abort` after reporting.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .files import MAX_FILE_BYTES, read_bytes, unsafe_shown

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns count from 1, `end_col` is exclusive."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        """`file:line:col`, or just `file` for a problem with the whole file (line 0)."""
        return f"{self.file}:{self.line}:{self.col}" if self.line else self.file


NOWHERE = Span("<unknown>", 0, 0)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: str
    message: str
    span: Span
    hint: str | None = None
    code: str = ""

    def to_json(self) -> dict:
        s = self.span
        return {
            "file": s.file,
            "line": s.line,
            "column": s.col,
            "end_line": s.end_line or s.line,
            "end_column": s.end_col or s.col,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


class Abort(Exception):
    """Raised by a stage that has reported errors and cannot go on."""


@dataclass
class Diagnostics:
    items: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    _split: dict[str, tuple] = field(default_factory=dict, repr=False, compare=False)

    def error(self, message: str, span: Span, hint: str | None = None, code: str = "") -> None:
        self.items.append(Diagnostic(ERROR, message, span, hint, code))

    def warning(self, message: str, span: Span, hint: str | None = None, code: str = "") -> None:
        self.items.append(Diagnostic(WARNING, message, span, hint, code))

    def add_source(self, file: str, text: str) -> None:
        self.sources[file] = text

    def hide(self, path: str) -> None:
        """Never quote the lines of `path` (a file that a save or a log named, which may be
        any file at all): the messages keep their place, without its text."""
        from pathlib import Path

        p = Path(path)
        names = {path, str(p.resolve())}
        try:
            names.add(str(p.resolve().relative_to(Path.cwd())))
        except ValueError:
            pass
        for name in names:
            self.sources[name] = ""

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == WARNING]

    def has_errors(self) -> bool:
        return any(d.severity == ERROR for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        seen, out = set(), []
        for d in sorted(self.items, key=lambda d: (d.span.file, d.span.line, d.span.col)):
            key = (d.severity, d.message, d.span)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out

    def render(self, color: bool = False) -> str:
        return "".join(render(d, self._line(d.span), color) for d in self.sorted())

    def to_json(self) -> str:
        return json.dumps([d.to_json() for d in self.sorted()], ensure_ascii=False, indent=2)

    def _line(self, span: Span) -> str | None:
        text = self.sources.get(span.file)
        if text is None and span.line > 0:
            try:  # a plain file within the size limit, shown without its control characters
                text = unsafe_shown(read_bytes(span.file, MAX_FILE_BYTES).decode("utf-8"))
            except (OSError, UnicodeDecodeError, ValueError):
                return None
            self.sources[span.file] = text
        if text is None or span.line <= 0:
            return None
        lines = self._split.get(span.file)
        if lines is None or lines[0] is not text:  # split once per file, not per message
            lines = self._split[span.file] = (text, text.splitlines())
        lines = lines[1]
        return lines[span.line - 1] if span.line <= len(lines) else None


def _width(s: str) -> int:
    """Display width: East Asian wide characters take two terminal cells."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def render(d: Diagnostic, source_line: str | None, color: bool = False) -> str:
    red, yellow, bold, cyan, reset = (
        ("\033[31m", "\033[33m", "\033[1m", "\033[36m", "\033[0m") if color else ("",) * 5
    )
    tint = red if d.severity == ERROR else yellow
    out = f"{bold}{d.span}{reset}: {tint}{d.severity}{reset}: {d.message}\n"
    if source_line is not None and len(source_line) <= 400:
        s = d.span
        num = str(s.line)
        out += f" {num:>4} | {source_line}\n"
        start = max(s.col - 1, 0)
        end = s.end_col - 1 if s.end_line in (0, s.line) and s.end_col > s.col else start + 1
        end = min(max(end, start + 1), max(len(source_line), start + 1))
        pad = _width(source_line[:start])
        carets = max(_width(source_line[start:end]), 1)
        out += f" {' ' * 4} | {' ' * pad}{tint}{'^' * carets}{reset}\n"
    if d.hint:
        out += f"  {cyan}hint{reset}: {d.hint}\n"
    return out


def did_you_mean(word: str, candidates, cutoff: float = 0.5) -> str | None:
    """The closest known name, for hints; None when nothing is close."""
    import difflib

    cands = [c for c in candidates if isinstance(c, str)]
    best = difflib.get_close_matches(word, cands, n=1, cutoff=cutoff)
    if best:
        return f"did you mean '{best[0]}'?"
    return None
