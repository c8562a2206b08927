"""`madang lsp`: a language server for rules files, card files and deck files.

Everything it knows comes from the stages `madang check` runs: the loader's diagnostics and the
symbols it collects. Unsaved buffers are read through `sources.overlay`, so a file is checked as
typed, together with the ruleset it belongs to. The analysis (`Workspace`) is plain Python and
tested on its own; `serve()` wires it to pygls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..build.loader import Loaded, bundled_names, check_language_file, load_ruleset
from ..language.decks import is_deck, looks_like_deck
from ..language.diagnostics import Diagnostic, Diagnostics, Span
from ..language.keywords import CORE
from ..language.sources import overlay
from ..language.symbols import Symbols

WORD = re.compile(r"\w+")

# What each table of the symbols holds, as a hover calls it.
TABLES = (
    ("kinds", "kind"),
    ("fields", "field"),
    ("zones", "zone"),
    ("counters", "counter"),
    ("events", "event"),
    ("verbs", "verb"),
    ("defines", "definition"),
    ("keywords", "keyword"),
    ("actions", "action"),
    ("cards", "card"),
)

# Every spelling of the core keywords: word -> (English, Korean, what it is for).
CORE_WORDS: dict[str, tuple[str, str, str]] = {}
for _en, _ko, _why in CORE.values():
    for _w in (*_en.split(), *_ko.split()):
        CORE_WORDS.setdefault(_w, (_en, _ko, _why))


@dataclass(frozen=True)
class Symbol:
    """A declaration that a name refers to."""

    name: str  # the canonical spelling
    label: str  # kind, zone, verb, card, ...
    span: Span | None
    detail: str = ""  # a card's numbers and text, an option's choices


@dataclass
class Analysis:
    """One check of the context a document belongs to."""

    diagnostics: list[Diagnostic]
    symbols: dict[str, Symbol] = field(default_factory=dict)  # any spelling -> symbol
    options: dict[str, dict] = field(default_factory=dict)
    files: set[Path] = field(default_factory=set)  # every file of the context


def resolve(file: str) -> Path:
    return Path(file).resolve()


class Workspace:
    """The open documents and what checking them finds."""

    def __init__(self) -> None:
        self.texts: dict[Path, str] = {}

    def open(self, path: Path, text: str) -> None:
        self.texts[path.resolve()] = text

    def close(self, path: Path) -> None:
        self.texts.pop(path.resolve(), None)

    def text(self, path: Path) -> str:
        path = path.resolve()
        if path in self.texts:
            return self.texts[path]
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    # ------------------------------------------------------------ checking

    def analyse(self, path: Path) -> Analysis:
        """Check the file at `path` as `madang check` would, with the open buffers as saved."""
        path = path.resolve()
        diags = Diagnostics()
        loaded: Loaded | None = None
        with overlay(self.texts):
            target = self._target(path)
            if target is None and path.suffix == ".madang":
                check_language_file(str(path), diags)
            elif target is None:
                pass  # a YAML file that is not madang's: nothing to say
            else:
                ref, extra = target
                decks = [f for f in extra if looks_like_deck(f)]
                cards = [f for f in extra if f not in decks]
                # a deck's rules run on the compiled program; other files need only the check
                loaded = load_ruleset(ref, diags, cards, compile=bool(decks), extra_decks=decks)
        out = Analysis(list(diags.items), files={path})
        if loaded is not None:
            out.symbols = symbol_table(loaded.syms)
            out.options = dict(loaded.meta.get("options") or {})
            out.files |= {resolve(s.span.file) for s in out.symbols.values() if s.span}
            out.files |= {Path(f).resolve() for f in loaded.card_files}
        return out

    def _target(self, path: Path) -> tuple[str, list[str]] | None:
        """The ruleset to load for `path` and the extra card files to load with it; None for a
        language file outside any ruleset."""
        folder = next((q for q in path.parents if (q / "ruleset.yaml").is_file()), None)
        if path.suffix == ".madang":
            return (str(folder), []) if folder is not None else None
        if path.name == "ruleset.yaml":
            return str(path.parent), []
        try:
            data = yaml.safe_load(self.text(path))
        except yaml.YAMLError:
            data = None
        own = folder is not None and self._listed(folder, path)
        if own:
            return str(folder), []
        if isinstance(data, dict) and isinstance(data.get("ruleset"), str):
            name = data["ruleset"]
            ref = name if name in bundled_names() or folder is None else str(folder)
            if is_deck(data):  # checked with the card files beside it that name its ruleset
                return ref, [*self._card_files_beside(path, name), str(path)]
            return ref, [str(path)]
        return (str(folder), []) if folder is not None else None

    def _card_files_beside(self, path: Path, ruleset: str) -> list[str]:
        out = []
        for other in sorted(path.parent.glob("*.y*ml")):
            if other.resolve() == path or other.suffix not in (".yaml", ".yml"):
                continue
            try:
                data = yaml.safe_load(self.text(other.resolve()))
            except (yaml.YAMLError, OSError, UnicodeDecodeError):
                continue
            if isinstance(data, dict) and data.get("ruleset") == ruleset and not is_deck(data):
                if isinstance(data.get("cards"), list):
                    out.append(str(other))
        return out

    def _listed(self, folder: Path, path: Path) -> bool:
        try:
            meta = yaml.safe_load(self.text(folder / "ruleset.yaml")) or {}
        except yaml.YAMLError:
            return False
        listed = [*(meta.get("files") or []), *(meta.get("cards") or [])]
        return any((folder / str(rel)).resolve() == path for rel in listed)


def symbol_table(syms: Symbols) -> dict[str, Symbol]:
    """Every spelling of every declaration, mapped to one `Symbol`."""
    out: dict[str, Symbol] = {}
    for attr, label in TABLES:
        for spelling, sym in getattr(syms, attr).items():
            canonical = syms.canonical.get(spelling, getattr(sym, "name", spelling))
            detail = card_detail(sym) if label == "card" else ""
            out.setdefault(spelling, Symbol(canonical, label, sym.span, detail))
    return out


def card_detail(card) -> str:
    numbers = ", ".join(f"{k} {v}" for k, v in card.props.items() if not isinstance(v, dict | list))
    lines = [f"{card.kind}" + (f": {numbers}" if numbers else "")]
    if card.text is not None:
        from ..language.fmt import format_card_text

        lines.append(f"```madang\n{format_card_text(card.text).strip()}\n```")
    return "\n\n".join(lines)


# ---------------------------------------------------------------- questions about a position


def word_at(text: str, line: int, character: int) -> tuple[str, int, int] | None:
    """The word under a position (0-based line and character): the word, its start and end."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    for m in WORD.finditer(lines[line]):
        if m.start() <= character <= m.end():
            return m.group(), m.start(), m.end()
    return None


def declaration_line(ws: Workspace, span: Span) -> str:
    lines = ws.text(resolve(span.file)).splitlines()
    return lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""


def doc_comment(ws: Workspace, span: Span) -> str:
    """The `#` lines directly above a declaration, without their marks."""
    lines = ws.text(resolve(span.file)).splitlines()
    out: list[str] = []
    i = span.line - 2
    while 0 <= i < len(lines) and lines[i].strip().startswith("#"):
        out.append(lines[i].strip().lstrip("#").strip())
        i -= 1
    return "\n".join(reversed(out))


def hover_text(ws: Workspace, analysis: Analysis, word: str) -> str | None:
    """Markdown for the word under the cursor: a declaration of the ruleset, an option or a
    core keyword."""
    sym = analysis.symbols.get(word)
    if sym is not None:
        parts = [f"**{sym.label}** `{sym.name}`"]
        if sym.span is not None and sym.label != "card":
            decl = declaration_line(ws, sym.span)
            if decl:
                parts.append(f"```madang\n{decl}\n```")
            doc = doc_comment(ws, sym.span)
            if doc:
                parts.append(doc)
        if sym.detail:
            parts.append(sym.detail)
        return "\n\n".join(parts)
    if word in analysis.options:
        spec = analysis.options[word] or {}
        choices = spec.get("choices") or spec.get("values")
        text = f"**option** `{word}`"
        if choices:
            text += f": one of {', '.join(map(str, choices))}"
        if "default" in spec:
            text += f" (default {spec['default']})"
        return text
    if word in CORE_WORDS:
        en, ko, why = CORE_WORDS[word]
        return f"**{en}** / **{ko}** (core keyword): {why}"
    return None


def references(ws: Workspace, analysis: Analysis, word: str) -> list[tuple[Path, int, int, int]]:
    """Every place in the context's files that names the same declaration as `word`: (file,
    0-based line, start, end). Comments are left out."""
    sym = analysis.symbols.get(word)
    if sym is None:
        return []
    out = []
    for path in sorted(analysis.files):
        for i, line in enumerate(ws.text(path).splitlines()):
            code = line.split("#", 1)[0] if path.suffix == ".madang" else line
            for m in WORD.finditer(code):
                other = analysis.symbols.get(m.group())
                if other is not None and other.name == sym.name and other.label == sym.label:
                    out.append((path, i, m.start(), m.end()))
    return out


def completions(analysis: Analysis) -> list[tuple[str, str, str]]:
    """(text, what it is, detail) for every name a file may use here."""
    out = {}
    for word, (en, ko, why) in CORE_WORDS.items():
        out[word] = (word, "core keyword", f"{en} / {ko}: {why}")
    for spelling, sym in analysis.symbols.items():
        out[spelling] = (spelling, sym.label, sym.detail.splitlines()[0] if sym.detail else "")
    for name in analysis.options:
        out.setdefault(name, (name, "option", ""))
    return sorted(out.values())


TOKEN_TYPES = ["keyword", "function", "macro", "event", "namespace", "class", "variable",
               "type", "property", "method", "comment", "string", "number"]  # fmt: skip
LABEL_TOKEN = {
    "verb": "function",
    "definition": "function",
    "keyword": "macro",
    "event": "event",
    "zone": "namespace",
    "card": "class",
    "counter": "variable",
    "kind": "type",
    "field": "property",
    "action": "method",
}
_LEX = re.compile(r'(?P<comment>#.*)|(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<number>\d+)|(?P<word>\w+)')


def semantic_tokens(text: str, analysis: Analysis) -> list[int]:
    """LSP's encoding of the tokens of a language file: 5 integers per token, relative to the
    previous one."""
    data: list[int] = []
    prev_line = prev_start = 0
    for i, line in enumerate(text.splitlines()):
        for m in _LEX.finditer(line):
            kind = m.lastgroup
            if kind == "word":
                word = m.group()
                sym = analysis.symbols.get(word)
                kind = (
                    LABEL_TOKEN.get(sym.label)
                    if sym
                    else ("keyword" if word in CORE_WORDS else None)
                )
            if kind is None:
                continue
            start = m.start()
            delta_line = i - prev_line
            delta_start = start - prev_start if delta_line == 0 else start
            data += [delta_line, delta_start, m.end() - start, TOKEN_TYPES.index(kind), 0]
            prev_line, prev_start = i, start
    return data


def outline(analysis: Analysis, path: Path) -> list[Symbol]:
    """The declarations made in one file, in the order they appear."""
    path = path.resolve()
    seen, out = set(), []
    for sym in analysis.symbols.values():
        if (
            sym.span is not None
            and resolve(sym.span.file) == path
            and (sym.label, sym.name) not in seen
        ):
            seen.add((sym.label, sym.name))
            out.append(sym)
    return sorted(out, key=lambda s: (s.span.line, s.span.col))


def formatted(path: Path, text: str) -> str | None:
    """The canonical layout of a language file (`madang fmt`), or None if it does not parse."""
    from ..language.fmt import format_source

    if path.suffix != ".madang":
        return None
    return format_source(text, str(path), Diagnostics())


# ---------------------------------------------------------------- the server
