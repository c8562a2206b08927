"""Ruleset folders and card files → a checked, compiled `Program`.

Pipeline: ruleset.yaml (schema) → language files (parse) → card files (schema, card texts) →
collect declarations → check → compile. Every stage reports into one `Diagnostics`, so a run
shows all problems; compilation happens only when there are no errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..language import deprecated
from ..language import nodes as n
from ..language.checker import Checker
from ..language.desugar import desugar
from ..language.diagnostics import Diagnostics, Span, did_you_mean
from ..language.parser import Origin, parse_card_text, parse_module
from ..language.schema import RULESET_SCHEMA, card_schema, validate
from ..language.sources import read_text
from ..language.symbols import ANY, BOOL, NUMBER, TEXT, CardSym, Collector, Symbols
from ..language.views import check_view
from ..language.yamlsrc import load_yaml
from ..runtime.errors import RulesError
from ..runtime.program import Program
from .compiler import Compiler
from .deckrules import check_deck_rules, load_decks
from .evaluation import (
    compile_evaluation,
    compile_payoff,
    compile_player_name,
    evaluation_name,
    find_definition,
    find_payoff,
    payoff_name,
)
from .fingerprint import fingerprints

# characters a name must not hold: control characters (terminal escapes among them) and bidi
# marks, which would act on a terminal or reorder the text around them when the name is printed
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

CARD_KEYS = {"name", "type", "text", "traits", "id", "copies", "ja", "ko", "en", "origin"}


def bundled_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    for cand in (package / "rulesets", package.parent / "rulesets"):
        if cand.is_dir():
            return cand
    return package / "rulesets"


def bundled_names() -> list[str]:
    d = bundled_dir()
    return (
        sorted(p.name for p in d.iterdir() if (p / "ruleset.yaml").is_file()) if d.is_dir() else []
    )


def find_ruleset(ref: str, diags: Diagnostics) -> Path | None:
    """A bundled ruleset's name, or a path to a ruleset folder (or its ruleset.yaml)."""
    p = Path(ref)
    if p.is_file() and p.name == "ruleset.yaml":
        return p.parent
    if p.is_dir():
        if (p / "ruleset.yaml").is_file():
            return p
        diags.error(
            f"'{ref}' is a folder without a ruleset.yaml",
            Span(str(p), 0, 0),
            "it is a card set: give it with --cards, with the ruleset its cards.yaml names"
            if is_card_set_folder(p)
            else None,
            code="no-ruleset",
        )
        return None
    b = bundled_dir() / ref
    if "/" not in ref and (b / "ruleset.yaml").is_file():
        return b
    diags.error(
        f"unknown ruleset '{ref}'",
        Span(ref, 0, 0),
        did_you_mean(ref, bundled_names())
        or f"bundled rulesets: {', '.join(bundled_names()) or 'none'}",
        code="no-ruleset",
    )
    return None


@dataclass
class Loaded:
    folder: Path
    meta: dict
    syms: Symbols
    program: Program | None
    card_files: list[str] = field(default_factory=list)
    decks: list = field(default_factory=list)  # DeckFile of every deck, built-in first
    compiler: Compiler | None = None  # what built `program` (scenarios compile snippets with it)


def load_ruleset(
    ref: str | Path,
    diags: Diagnostics,
    extra_cards: list[str] = (),
    compile: bool = True,
    extra_decks: list[str] = (),
) -> Loaded | None:
    folder = find_ruleset(str(ref), diags)
    if folder is None:
        return None
    meta = _read_meta(folder, diags)
    if meta is None:
        return None
    col = Collector(diags)
    col.s.options = dict(meta.get("options") or {})
    col.s.data = meta.get("data")
    for board in (meta.get("maps") or {}).values():
        for facts in ((board or {}).get("areas") or {}).values():
            col.s.area_facts.update(k for k in (facts or {}) if k != "adjacent")
    modules = []
    for rel in meta.get("files") or []:
        path = folder / rel
        text = read_text(path, diags)
        if text is None:
            continue
        mod = desugar(parse_module(text, Origin(_show(path)), diags))
        if mod is not None:
            col.module(mod)
            modules.append(mod)
    # ruleset.yaml `deprecated`: old names of public definitions, kept as spellings that warn
    old_names = deprecated.register(meta, col, diags, lambda at: _meta_span(folder, at, diags))
    extra_cards = [card_set_file(str(p)) for p in extra_cards]
    load_card_set_files(extra_cards, col, diags)
    col.keyword_abilities()
    card_files = [str(folder / rel) for rel in meta.get("cards") or []] + [
        str(p) for p in extra_cards
    ]
    if diags.has_errors() and not col.s.kinds:
        # Without its kinds every card would be wrong: say so once instead of for each card.
        for path in card_files:
            diags.warning(
                "card file not checked: the ruleset's language files have errors",
                Span(_show(Path(path)), 1, 1, 1, 1),
                code="not-checked",
            )
        card_files_to_load = []
    else:
        card_files_to_load = card_files
    for path in card_files_to_load:
        load_cards(path, col, diags, meta["name"], standalone=path in map(str, extra_cards))
    decks = load_decks(folder, meta, col.s, list(extra_decks), diags)
    col.s.data = meta.get("data")
    by_settings = [
        _check_trigger_chooser(folder, meta, col.s, diags),
        _check_evaluation(folder, meta, col.s, diags),
        _check_payoff(folder, meta, col.s, diags),
    ]
    _check_public(folder, meta, col.s, diags)
    _check_trigger_tiers(meta, col.s, diags)
    check_view(meta, col.s, meta.get("_doc"), diags)
    if old_names:
        s = col.s
        roots = [v.decl.body for v in s.unique(s.verbs)] + [ab.decl for ab in s.abilities]
        roots += [d.decl for d in s.unique(s.defines)] + s.checks + s.setup + s.flow
        deprecated.warn_uses(roots, old_names, diags)
    checker = Checker(col.s, diags)
    for d in by_settings:
        if d is not None:
            checker.mark_used(d)
    res = checker.check_all()
    program = compiler = None
    if compile and not diags.has_errors():
        try:
            compiler = Compiler(col.s, res, meta)
            program = compiler.compile()
            program.evaluation = compile_evaluation(compiler, col.s, meta)
            program.payoff = compile_payoff(compiler, col.s, meta)
            program.player_name_of = compile_player_name(compiler, col.s, meta)
            program.fingerprints = fingerprints(modules, col.s, meta, compiler.layout())
            program.texts = tuple(
                sorted({x.value for m in modules for x in m.walk() if isinstance(x, n.Str)})
            )
        except RulesError as exc:  # a constant too costly to compute (budget.py): at its place
            located_error(diags, str(exc))
            program = compiler = None
        if program is not None:
            check_deck_rules(program, decks, diags)
    return Loaded(folder, meta, col.s, program, card_files, decks, compiler)


_LOCATED = re.compile(r"(?s)(.+?):(\d+):(\d+): (.*)")


def located_error(diags: Diagnostics, message: str) -> None:
    """A rules error raised while compiling, `FILE:LINE:COL: what`, as a diagnostic there."""
    m = _LOCATED.fullmatch(message)
    if m is None:
        diags.error(message, Span("<rules>", 0, 0), code="budget")
        return
    file, line, col, what = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
    diags.error(what, Span(file, line, col, line, col + 1), code="budget")


def _check_evaluation(folder: Path, meta: dict, syms: Symbols, diags: Diagnostics):
    """`settings.evaluation` names a definition with one player parameter (docs/agents.md)."""
    name = evaluation_name(meta)
    if name is None:
        return None
    d = find_definition(syms, meta)
    if d is not None:
        return d
    diags.error(
        f"evaluation '{name}' is not a definition with one parameter",
        _meta_span(folder, ("settings", "evaluation"), diags),
        code="unknown-name",
        hint="write `define NAME(p: player) = ...`: how good the position is for p",
    )


def _check_payoff(folder: Path, meta: dict, syms: Symbols, diags: Diagnostics):
    """`settings.payoff` names a definition with one player parameter; a `payoff` definition
    (the default name) takes one player parameter (docs/integrations.md)."""
    name = payoff_name(meta)
    named = (meta.get("settings") or {}).get("payoff") is not None
    d = syms.defines.get(name)
    found = find_payoff(syms, meta)
    if found is not None or (d is None and not named):
        return found
    if d is not None and not named:
        diags.error(
            f"'{name}' is the game's payoff: it takes one player parameter",
            d.span,
            code="arity",
            hint=f"write `define {name}(p: player) = ...`: what the game pays p at its end",
        )
        return None
    diags.error(
        f"payoff '{name}' is not a definition with one parameter",
        _meta_span(folder, ("settings", "payoff"), diags),
        code="unknown-name",
        hint="write `define NAME(p: player) = ...`: what the game pays p at its end",
    )
    return None


def _check_public(folder: Path, meta: dict, syms: Symbols, diags: Diagnostics) -> None:
    """`settings.public.kinds` names kinds of the ruleset (game/determinize.py reads them)."""
    kinds = ((meta.get("settings") or {}).get("public") or {}).get("kinds") or []
    unknown = [k for k in kinds if k not in syms.kinds]
    if not unknown:
        return
    for k in unknown:
        diags.error(
            f"public kind '{k}' is not a kind of this ruleset",
            _meta_span(folder, ("settings", "public", "kinds", kinds.index(k)), diags),
            code="unknown-name",
            hint=f"kinds: {', '.join(sorted(syms.kinds))}",
        )


def _meta_span(folder: Path, at: tuple, diags: Diagnostics) -> Span:
    """The place of a key of ruleset.yaml, for a located error."""
    path = folder / "ruleset.yaml"
    doc = load_yaml(read_text(path, diags) or "", _show(path), diags)
    return doc.span(at) if doc is not None else Span(_show(path), 1, 1, 1, 1)


def _check_trigger_tiers(meta: dict, syms: Symbols, diags: Diagnostics) -> None:
    """A trigger written `as TIER` names a tier of `settings.trigger_tiers`."""
    tiers = (meta.get("settings") or {}).get("trigger_tiers") or []
    for ab in syms.abilities:
        tier = getattr(ab.decl, "tier", None)
        if tier is not None and tier not in tiers:
            diags.error(
                f"unknown trigger tier '{tier}'",
                ab.decl.event_span or ab.decl.span,
                did_you_mean(tier, tiers)
                or "declare it in ruleset.yaml: `settings: {trigger_tiers: [NAME]}`",
                code="unknown-name",
            )


def _check_trigger_chooser(folder: Path, meta: dict, syms: Symbols, diags: Diagnostics):
    """`settings.trigger_chooser` names a definition without parameters (it gives a player)."""
    name = (meta.get("settings") or {}).get("trigger_chooser")
    if name is None:
        return
    d = syms.defines.get(name)
    if d is not None and not d.params:
        return d  # used by the engine: the checker is told
    diags.error(
        f"trigger_chooser '{name}' is not a definition without parameters",
        _meta_span(folder, ("settings", "trigger_chooser"), diags),
        code="unknown-name",
        hint="write `define NAME = ...` giving the player who orders simultaneous triggers",
    )


def _show(path: Path) -> str:
    """Paths in messages: relative to the working folder when below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _read_meta(folder: Path, diags: Diagnostics) -> dict | None:
    path = folder / "ruleset.yaml"
    if folder.resolve() not in path.resolve().parents:  # a link out: never read, never shown
        diags.error(
            "ruleset.yaml is a link to a file outside the ruleset folder; it is not read",
            Span(str(path), 0, 0),
            code="no-file",
        )
        return None
    text = read_text(path, diags)
    if text is None:
        return None
    doc = load_yaml(text, _show(path), diags)
    if doc is None:
        return None
    if not isinstance(doc.data, dict):
        diags.error(
            "ruleset.yaml must be a mapping (name:, title:, files:, ...)",
            doc.span(()),
            code="schema",
        )
        return None
    before = len(diags.errors)
    validate(doc.data, RULESET_SCHEMA, doc, diags)
    if len(diags.errors) > before:
        return None
    meta = doc.data
    players = meta.get("players")
    if isinstance(players, dict) and players["min"] > players["max"]:
        diags.error(
            f"players: min {players['min']} is above max {players['max']}",
            doc.span(("players", "min")),
            code="schema",
        )
        return None
    refused = set()
    for i, rel in enumerate(list(meta.get("files") or []) + list(meta.get("cards") or [])):
        key = "files" if i < len(meta.get("files") or []) else "cards"
        idx = i if key == "files" else i - len(meta.get("files") or [])
        p = (folder / rel).resolve()
        if folder.resolve() not in p.parents:  # through a link: reported, never read
            refused.add(rel)
            diags.error(
                f"'{rel}' is outside the ruleset folder", doc.span((key, idx)), code="no-file"
            )
        elif not p.is_file():
            diags.error(f"missing file '{rel}'", doc.span((key, idx)), code="no-file")
    for key in ("files", "cards"):
        if refused and meta.get(key):
            meta[key] = [rel for rel in meta[key] if rel not in refused]
    _check_options(meta, doc, diags)
    meta["_doc"] = doc
    return meta


def _check_options(meta: dict, doc, diags: Diagnostics) -> None:
    for name, spec in (meta.get("options") or {}).items():
        values = spec.get("values")
        if values is not None and spec.get("default") not in values:
            diags.error(
                f"default {spec.get('default')!r} of option '{name}' is not one of its values {values}",
                doc.span(("options", name, "default")),
                code="option",
            )
        for count, v in (spec.get("default_by_players") or {}).items():
            if values is not None and v not in values:
                diags.error(
                    f"default {v!r} for {count} players of option '{name}' is not one of its values {values}",
                    doc.span(("options", name, "default_by_players", count)),
                    code="option",
                )


def kinds_spec(syms: Symbols) -> dict[str, dict[str, tuple]]:
    """Each kind's fields as (type, required, limits) for the card schema."""
    out = {}
    for kname, k in syms.kinds.items():
        fields = {}
        for f in k.fields.values():
            t = f.type if isinstance(f.type, str) else "list of text"
            fields[f.name] = (
                {NUMBER: "number", TEXT: "text", BOOL: "bool"}.get(
                    t, t if t == "list of text" else "any"
                ),
                f.default is None,
                f.limits,
            )
        out[kname] = fields
    return out


def load_cards(
    path: str, col: Collector, diags: Diagnostics, ruleset: str, standalone: bool = False
) -> None:
    text = read_text(path, diags)
    if text is None:
        return
    shown = _show(Path(path))
    doc = load_yaml(text, shown, diags)
    if doc is None:
        return
    data = doc.data
    if not isinstance(data, dict) or "cards" not in data:
        diags.error("a card file is a mapping with a 'cards:' list", doc.span(()), code="schema")
        return
    named = data.get("ruleset")
    if standalone and named is None:
        diags.error(
            "a card file of its own must name its ruleset: add `ruleset: NAME`",
            doc.span(()),
            code="schema",
        )
    elif named is not None and named != ruleset:
        diags.error(
            f"this card file is for ruleset '{named}', not '{ruleset}'",
            doc.span(("ruleset",)),
            code="schema",
        )
        return
    before = len(diags.errors)
    validate(data, card_schema(ruleset, kinds_spec(col.s)), doc, diags)
    if len(diags.errors) > before:
        return
    for i, entry in enumerate(data.get("cards") or []):
        kind = col.s.kinds.get(entry.get("type"))
        if kind is None:
            continue
        props = {k: v for k, v in entry.items() if k in kind.fields}
        bad = CONTROL.search(str(entry["name"]))
        if bad is not None:
            diags.error(
                f"a card's name holds the control character"
                f" {bad.group().encode('unicode_escape').decode()} (a terminal would obey it)",
                doc.span(("cards", i, "name")),
                "names are printed: write them without escape codes or invisible marks",
                code="schema",
            )
            continue
        card = CardSym(
            str(entry["name"]),
            doc.span(("cards", i, "name")),
            kind=kind.name,
            props=props,
            traits=tuple(entry.get("traits") or ()),
            copies=int(entry.get("copies", 1)),
            extra={
                k: v
                for k, v in entry.items()
                if k not in props and k not in ("name", "type", "text")
            },
        )
        body = entry.get("text")
        if isinstance(body, str) and body.strip() and body.strip() != "-":
            card.text = desugar(parse_card_text(body, doc.text_origin(("cards", i, "text")), diags))
        elif body is None or isinstance(body, str):
            card.text = n.CardText((), span=doc.span(("cards", i)))
        col.card(card)


def load_standalone_cards(path: str, diags: Diagnostics) -> str | None:
    """The ruleset that a card file of its own names (for `madang check cards.yaml`)."""
    path = card_set_file(path)
    text = read_text(path, diags)
    if text is None:
        return None
    doc = load_yaml(text, _show(Path(path)), diags)
    if doc is None:
        return None
    if not isinstance(doc.data, dict) or not isinstance(doc.data.get("ruleset"), str):
        diags.error(
            "a card file of its own must name its ruleset: add `ruleset: NAME`",
            doc.span(()),
            code="schema",
        )
        return None
    return doc.data["ruleset"]


# ---------------------------------------------------------------- card sets
# A card set is a card file that brings language files of its own (`files: [x.madang]`), or a
# folder without a ruleset.yaml that holds a cards.yaml (and, unless it lists `files:`, every
# .madang file beside it). Their declarations join the ruleset's for that load only.


def is_card_set_folder(ref: str | Path) -> bool:
    p = Path(ref)
    return p.is_dir() and not (p / "ruleset.yaml").is_file() and (p / "cards.yaml").is_file()


def card_set_file(ref: str) -> str:
    """A card set given as its folder stands for the folder's cards.yaml."""
    return str(Path(ref) / "cards.yaml") if is_card_set_folder(ref) else ref


def card_set_sources(card_path: str, diags: Diagnostics | None = None) -> list[Path]:
    """The language files a card file brings, in order; bad entries are reported to `diags`."""
    report = diags if diags is not None else Diagnostics()
    path = Path(card_set_file(card_path))
    text = read_text(path, Diagnostics()) if path.is_file() else None
    if text is None:
        return []
    doc = load_yaml(text, _show(path), Diagnostics())  # its own problems are reported later
    data = doc.data if doc is not None else None
    if not isinstance(data, dict):
        return []
    here = path.parent.resolve()
    listed = data.get("files")
    if listed is None:
        if path.name == "cards.yaml" and is_card_set_folder(path.parent):
            return sorted(here.glob("*.madang"))
        return []
    if not isinstance(listed, list):
        return []  # the schema reports it
    out: list[Path] = []
    for i, rel in enumerate(listed):
        if not isinstance(rel, str) or not rel.endswith(".madang"):
            continue  # the schema reports it
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            continue  # the schema reports it
        target = (here / rel).resolve()
        if not target.is_relative_to(here):  # through a link
            report.error(
                f"'{rel}' is outside the card set's folder",
                doc.span(("files", i)),
                "a card set names files in its own folder or below it",
                code="card-set",
            )
        elif not target.is_file():
            report.error(f"missing file '{rel}'", doc.span(("files", i)), code="no-file")
        elif target not in out:
            out.append(target)
    return out


def load_card_set_files(card_paths: list[str], col: Collector, diags: Diagnostics) -> None:
    """Parse the language files of the given card files into `col`, each file once."""
    seen: set[Path] = set()
    for card_path in card_paths:
        for src in card_set_sources(card_path, diags):
            if src in seen:
                continue
            seen.add(src)
            text = read_text(src, diags)
            if text is None:
                continue
            mod = desugar(parse_module(text, Origin(_show(src)), diags))
            if mod is None:
                continue
            for d in mod.decls:  # a set's `kind K:` for the ruleset's K adds fields to it
                if col.repeated(d):
                    continue  # the same declaration as another set's: one definition
                if not (isinstance(d, n.KindDecl) and col.extend_kind(d)):
                    col.decl(d)


def check_language_file(path: str, diags: Diagnostics) -> None:
    """Parse one language file on its own (names are checked only within a ruleset)."""
    text = read_text(path, diags)
    if text is not None:
        parse_module(text, Origin(_show(Path(path))), diags)


__all__ = [
    "load_ruleset",
    "find_ruleset",
    "bundled_names",
    "Loaded",
    "ANY",
    "card_set_file",
    "card_set_sources",
    "is_card_set_folder",
]
