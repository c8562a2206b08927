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
    kind_fields: dict[str, set[str]] = field(default_factory=dict)  # kind -> its fields
    # verb, definition, action -> (label, parameter labels, documentation)
    signatures: dict[str, tuple[str, list[str], str]] = field(default_factory=dict)


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
                # (a ruleset's own deck file is checked with it, as its deck)
                own_deck = (
                    not decks and path.suffix in (".yaml", ".yml") and looks_like_deck(str(path))
                )
                loaded = load_ruleset(
                    ref, diags, cards, compile=bool(decks) or own_deck, extra_decks=decks
                )
        out = Analysis(list(diags.items), files={path})
        if loaded is not None:
            out.symbols = symbol_table(loaded.syms)
            out.options = dict(loaded.meta.get("options") or {})
            out.files |= {resolve(s.span.file) for s in out.symbols.values() if s.span}
            out.files |= {Path(f).resolve() for f in loaded.card_files}
            out.files |= {Path(d.path).resolve() for d in loaded.decks if Path(d.path).is_file()}
            out.kind_fields = kind_fields(loaded.syms)
            out.signatures = signatures(loaded.syms)
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
        folder = next((q for q in path.parents if (q / "ruleset.yaml").is_file()), None)
        for other in sorted(path.parent.glob("*.y*ml")):
            if other.resolve() == path or other.suffix not in (".yaml", ".yml"):
                continue
            if folder is not None and self._listed(folder, other.resolve()):
                continue  # the ruleset's own cards: loaded with it already
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
        own_decks = (meta.get("decks") or {}).get("files") if isinstance(meta, dict) else None
        listed = [*(meta.get("files") or []), *(meta.get("cards") or []), *(own_decks or [])]
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


def kind_fields(syms: Symbols) -> dict[str, set[str]]:
    """Every spelling of every kind, with the fields a card of it may set."""
    out: dict[str, set[str]] = {}
    for spelling, k in syms.kinds.items():
        out[spelling] = set(getattr(k, "fields", {}) or {})
    for spelling, f in syms.fields.items():
        for k in getattr(f, "kinds", []) or []:
            out.setdefault(k, set()).add(spelling)
    return out


def signatures(syms: Symbols) -> dict[str, tuple[str, list[str], str]]:
    """Each verb, definition, action and event by every spelling: `name(p: type, ...)`."""
    from ..language.symbols import type_name

    out = {}
    for attr in ("verbs", "defines", "actions", "events", "keywords"):
        for spelling, sym in getattr(syms, attr).items():
            params = [f"{p.name}: {type_name(p.type)}" for p in getattr(sym, "params", [])]
            out[spelling] = (f"{spelling}({', '.join(params)})", params, attr[:-1])
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


def completions(analysis: Analysis, context: Context | None = None) -> list[tuple[str, str, str]]:
    """(text, what it is, detail) for the names that may go here: every name without a
    `context`; with one, only what fits (see `completion_context`)."""
    out = {}
    want = None if context is None else CONTEXT_LABELS[context.what]
    if want is None or "core keyword" in want:
        for word, (en, ko, why) in CORE_WORDS.items():
            if context is not None and context.what == "statement" and not _starts_line(en):
                continue
            out[word] = (word, "core keyword", f"{en} / {ko}: {why}")
    for spelling, sym in analysis.symbols.items():
        if want is not None and sym.label not in want:
            continue
        if sym.label == "field" and context is not None and context.kind:
            if not _field_of(analysis, spelling, context.kind):
                continue
        out[spelling] = (spelling, sym.label, sym.detail.splitlines()[0] if sym.detail else "")
    if want is None or "option" in want:
        for name in analysis.options:
            out.setdefault(name, (name, "option", ""))
    return sorted(out.values())


@dataclass(frozen=True)
class Context:
    """What goes at a position: `statement` (a line's first word), `member` (after a dot),
    `keyword` (a card's keyword list, after `has`), `card` (a deck's names, after `card`),
    `field` (a key of a card entry), `expression` (anything else); `kind`: the card's kind."""

    what: str
    kind: str | None = None


CONTEXT_LABELS = {
    "statement": {"core keyword", "verb", "action", "event", "definition"},
    "member": {"field", "counter", "zone"},
    "keyword": {"keyword"},
    "card": {"card"},
    "field": {"field"},
    "expression": {"core keyword", "definition", "zone", "counter", "card", "kind", "keyword",
                   "field", "option", "verb"},
}  # fmt: skip
_LINE_STARTERS = None


def _starts_line(english: str) -> bool:
    from ..language.syntax_errors import LINE_STARTERS

    global _LINE_STARTERS
    if _LINE_STARTERS is None:
        _LINE_STARTERS = {CORE[t][0].split()[0] for t in LINE_STARTERS if t in CORE}
    return english.split()[0] in _LINE_STARTERS


def _field_of(analysis: Analysis, field_name: str, kind: str) -> bool:
    kinds = analysis.kind_fields.get(kind)
    return kinds is None or field_name in kinds


_CARD_KEY = re.compile(r"^(\s*)(-\s+)?(\w*)$")
_TEXT_KEY = re.compile(r"^\s*(-\s+)?text:\s*[|>]?")


def completion_context(path: Path, text: str, line: int, character: int) -> Context:
    """What fits at a position of a language file, a card file or a deck file."""
    lines = text.splitlines()
    here = lines[line][:character] if 0 <= line < len(lines) else ""
    if path.suffix in (".yaml", ".yml"):
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict) and (is_deck(data) or "name" in data and "cards" in data
                                       and not isinstance(data["cards"], list)):  # fmt: skip
            return Context("card")
        m = _CARD_KEY.match(here)
        if m and not _inside_text(lines, line):
            return Context("field", _kind_of_entry(lines, line))
        if _TEXT_KEY.match(here) and re.fullmatch(r"[^:]*:\s*[|>]?\s*[\w, ]*", here):
            return Context("keyword")
        # inside a card's text: the language's rules below
    before = here.rstrip()
    if re.search(r"\.\w*$", here):
        return Context("member")
    if re.fullmatch(r"\s*\w*", here):
        return Context("statement")
    if re.search(r"\b(has|is|grant|가짐|부여)\s+\w*$", here):
        return Context("keyword")
    if re.search(r"\bcard\s+\w*$", before):
        return Context("card")
    return Context("expression")


def _inside_text(lines: list[str], line: int) -> bool:
    """Whether a line of a card file lies in the block of a `text: |` above it."""
    indent = len(lines[line]) - len(lines[line].lstrip()) if line < len(lines) else 0
    for i in range(line - 1, -1, -1):
        ln = lines[i]
        if not ln.strip():
            continue
        ind = len(ln) - len(ln.lstrip())
        if ind < indent and re.match(r"^\s*(-\s+)?text:\s*[|>]", ln):
            return True
        if ind < indent or re.match(r"^\s*-\s", ln):
            return False
    return False


def _kind_of_entry(lines: list[str], line: int) -> str | None:
    """The `type:`/`kind:` of the card entry around a line (the kind whose fields fit)."""
    start = line
    while start > 0 and not re.match(r"^\s*-\s", lines[start]):
        start -= 1
    for ln in lines[start : line + 40]:
        if ln is not lines[start] and re.match(r"^\s*-\s", ln):
            break
        m = re.match(r"^\s*(?:-\s+)?(?:type|kind):\s*(\S+)", ln)
        if m:
            return m.group(1).strip("\"'")
    return None


# ---------------------------------------------------------------- quick fixes, rename, signatures

_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")


def quick_fix(message: str) -> str | None:
    """The replacement a did-you-mean hint proposes, if the diagnostic has one."""
    m = _DID_YOU_MEAN.search(message)
    return m.group(1) if m else None


def rename_edits(ws: Workspace, analysis: Analysis, path: Path, word: str,
                 new: str) -> dict[Path, list[tuple[int, int, int]]]:  # fmt: skip
    """Where renaming `word` (this spelling of a declaration) changes the text: the context's
    files and the card and deck files beside the document, per file (0-based line, start,
    end). Nothing for a word that names no declaration, or a new name that is not a word."""
    if analysis.symbols.get(word) is None or not WORD.fullmatch(new):
        return {}
    extra = {p.resolve() for p in path.parent.glob("*.y*ml")}
    scope = Analysis(analysis.diagnostics, analysis.symbols, analysis.options,
                     analysis.files | extra)  # fmt: skip
    out: dict[Path, list[tuple[int, int, int]]] = {}
    for p, i, a, b in references(ws, scope, word):
        if ws.text(p).splitlines()[i][a:b] == word:
            out.setdefault(p, []).append((i, a, b))
    return out


def signature(analysis: Analysis, text: str, line: int, character: int):
    """The call around a position: (label, parameter labels, the argument being written,
    documentation), for a verb, definition, action or built-in; None elsewhere."""
    from ..language.signatures import BUILTIN_SIGS as BUILTIN_FUNCS

    lines = text.splitlines()
    here = lines[line][:character] if 0 <= line < len(lines) else ""
    depth, commas = 0, 0
    for i in range(len(here) - 1, -1, -1):
        ch = here[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                m = re.search(r"(\w+)\s*$", here[:i])
                if not m:
                    return None
                name = m.group(1)
                sig = analysis.signatures.get(name)
                if sig is not None:
                    return (*sig, commas)
                b = BUILTIN_FUNCS.get(name)
                if b is None:
                    return None
                params = [f"x{k + 1}" + ("?" if k >= b.min_args else "")
                          for k in range(min(b.max_args, 3))]  # fmt: skip
                if b.max_args > 3:
                    params.append("...")
                return f"{name}({', '.join(params)})", params, b.doc, min(commas, len(params) - 1)
            depth -= 1
        elif ch == "," and depth == 0:
            commas += 1
    return None


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
