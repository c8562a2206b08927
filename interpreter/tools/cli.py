"""The `madang` command line.

Exit codes: 0 fine; 1 problems found, a failed game or a bad input (unknown ruleset, bad option
value, corrupt save...); 2 wrong usage (unknown command or flag, malformed argument); 130 when
interrupted. User errors never show a Python traceback (set MADANG_DEBUG=1 to see one for an
internal error).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
from pathlib import Path

from .. import __version__
from ..game.api import GameState, MadangError, load_program, new_game
from ..game.position import Position
from ..language.diagnostics import Diagnostics, Span
from ..language.files import read_bytes
from ..language.schema import MAX_PLAYERS
from ..runtime import budget
from ..runtime.errors import RulesError
from .outputs import atomic_write


class UsageError(Exception):
    """A malformed argument that argparse cannot see: exit 2."""


MAX_GAMES = 10_000_000  # games one command plays: more is a typo, not a plan
MAX_DECISIONS = 1_000_000_000  # a decision limit beyond this never stops anything
MAX_JOBS = 1024
AGENTS_ONLY_LIMIT = 100_000  # `play` without a person and without --max-decisions (as simulate)
MAX_WORK = 10**12  # --max-work: the person may raise the ceiling, not without end


def count_in(lo: int, hi: int):
    """An argparse type: a whole number in [lo, hi], else a usage error (exit 2) saying so."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{text} is out of range: give {lo:,} to {hi:,}")
        return v

    parse.__name__ = "count"  # argparse names the type in its messages
    return parse


def color_ok(stream) -> bool:
    """Colours only on a terminal, and never when NO_COLOR is set."""
    try:
        return stream.isatty() and not os.environ.get("NO_COLOR")
    except (AttributeError, ValueError):
        return False


def options_of(pairs: list[str] | None) -> dict:
    out: dict = {}
    for p in pairs or []:
        k, eq, v = p.partition("=")
        if not eq or not k.strip():
            raise UsageError(f"--option takes KEY=VALUE, got {p!r}")
        out[k.strip()] = v.strip()
    return out


def _warn_unused_cards(ruleset, extra, cards, options, gauntlet) -> None:
    """New cards that no deck of this run holds would never be dealt: say so, and how to use them."""
    if not cards:
        return
    prog = load_program(ruleset, tuple(extra))
    spec = prog.meta.get("decks") or {}
    decks = (prog.meta.get("data") or {}).get("decks") or {}
    if not spec.get("option"):
        return
    if gauntlet is not None:
        playing = set(decks) if gauntlet[1] is None else {gauntlet[0], *gauntlet[1]}
    elif spec["option"] in options:
        given = options[spec["option"]]
        playing = set(given if isinstance(given, list) else str(given).split(","))
    else:
        playing = set(decks)  # simulate gives the seats every deck in turn
    used = {c for name in playing for c in (decks.get(name) or {}).get("cards", [])}
    for path in cards:
        new = [name for name in _card_names(path) if name not in used]
        if new:
            listed = ", ".join(sorted(set(new))[:6]) + (", ..." if len(set(new)) > 6 else "")
            warn(f"{len(set(new))} cards of {path} are in no deck of this run ({listed}): "
                 "they are never dealt; write a deck file that holds them and give it with "
                 "--deck FILE (docs/authoring.md)")  # fmt: skip


def _card_names(path: str) -> list[str]:
    """The names a card file (or card set) defines; it has loaded already, so it is well formed."""
    from ..build.loader import card_set_file
    from ..language.yamlsrc import load_yaml

    file = card_set_file(path)
    doc = load_yaml(Path(file).read_text(encoding="utf-8"), file, Diagnostics())
    entries = (doc.data or {}).get("cards") if doc is not None else None
    return [str(e["name"]) for e in entries or [] if isinstance(e, dict) and "name" in e]


def _deck_files(decks: list[str] | None) -> list[str]:
    out = []
    for given in decks or ():
        seat, eq, path = given.partition("=")
        out.append(path if eq and seat.isdigit() else given)
    return out


def deck_args(ruleset: str, decks: list[str] | None, cards: list[str] | None, options: dict,
              against: bool = False) -> tuple[tuple[str, ...], str | None]:  # fmt: skip
    """Give `--deck FILE` / `--deck SEAT=FILE` to the seats through the ruleset's deck option.

    Returns the extra files to load (card sets, then decks) and, with `against`, the name of the
    first deck (the one a gauntlet plays against the others) instead of fixing any seat.
    """
    from ..language.decks import deck_name

    files = list(cards or ())
    if not decks:
        return tuple(files), None
    seats: dict[int, str] = {}
    names: list[str] = []
    for i, given in enumerate(decks):
        seat, eq, path = given.partition("=")
        if eq and seat.isdigit():
            at = int(seat) - 1
        else:
            at, path = i, given
        if not Path(path).is_file():
            raise UsageError(f"--deck {given}: no such file")
        name = deck_name(path)
        if name is None:
            raise UsageError(f"--deck {given}: not a deck file (it needs `name:` and `cards:`)")
        files.append(path)
        names.append(name)
        if at < 0 or at in seats:
            raise UsageError(f"--deck {given}: seat {at + 1} already has a deck")
        seats[at] = name
    prog = load_program(ruleset, tuple(files))
    option = ((prog.meta.get("decks") or {}).get("option")) or "deck"
    if option in options:
        raise UsageError(f"--deck and --option {option}=... both choose decks: give one of them")
    if against:
        return tuple(files), names[0]
    spec = (prog.meta.get("options") or {}).get(option) or {}
    players = prog.meta.get("players", 2)
    n = players if isinstance(players, int) else players["max"]
    if max(seats) >= n:
        raise UsageError(f"--deck {max(seats) + 1}=...: this game has at most {n} seats")
    # a list, not "a,b": a deck's name may hold a comma
    options[option] = [seats.get(k, str(spec.get("default"))) for k in range(n)]
    return tuple(files), None


MAX_SAVE_BYTES = 50_000_000  # a save holds one position
MAX_LOG_BYTES = 500_000_000  # a log holds every move of a game


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """Text read from a file, safe for a terminal: control characters (escape sequences among
    them) and bidi marks are shown as escapes, never sent raw."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode(), text)


def note(msg: str) -> None:
    sys.stderr.write(f"note: {printable(msg)}\n")


def warn(msg: str) -> None:
    sys.stderr.write(f"warning: {printable(msg)}\n")


def _identity(path: str) -> tuple[int, int] | None:
    """A file's device and inode (the same for all its hard links), or None if it is absent."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def check_outputs(outputs: dict[str, str | None], inputs: dict[str, object]) -> None:
    """Before a run starts: every file it will write can be written, and none of them is a
    file the run reads (a log written over the save it resumes, over a card or deck file, over
    a ruleset's own files), by real path and by device and inode, so that a symbolic or a hard
    link to an input is refused too. Refused with exit 2, naming both, before anything is
    written."""
    taken: dict[str, str] = {}
    same: dict[tuple[int, int], str] = {}
    for flag, value in inputs.items():
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if v:
                taken.setdefault(os.path.realpath(v), f"{flag} {v}")
                ident = _identity(str(v))
                if ident is not None:
                    same.setdefault(ident, f"{flag} {v}")
    written: dict[str, str] = {}
    for flag, value in outputs.items():
        if not value:
            continue
        real = os.path.realpath(value)
        ident = _identity(value)
        over = taken.get(real) or (same.get(ident) if ident is not None else None)
        if over is not None:
            raise UsageError(f"{flag} {value} would write over {over}: choose another file")
        if real in written:
            raise UsageError(f"{flag} and {written[real]} name the same file {value}")
        written[real] = flag
        if os.path.isdir(real):
            raise UsageError(f"{flag} {value} is a folder")
        folder = os.path.dirname(real) or "."
        if not os.path.isdir(folder):
            raise UsageError(f"{flag} {value}: no folder {folder}")
        if not os.access(folder, os.W_OK) or (
            os.path.exists(real) and not os.access(real, os.W_OK)
        ):
            raise UsageError(f"{flag} {value}: not writable")


MAX_RULESET_FILES = 5000  # files of a ruleset folder compared with the outputs


def ruleset_files(prog) -> list[str]:
    """The files of a loaded ruleset's folder (its sources, cards, decks, scenarios): no output
    may be written over one of them."""
    folder = getattr(prog, "folder", None)
    if not folder:
        return []
    out: list[str] = []
    for root, _dirs, files in os.walk(folder):
        out += [os.path.join(root, f) for f in files]
        if len(out) > MAX_RULESET_FILES:
            break
    return out


def scripted_files(seats: str | None) -> list[str]:
    """The files that `scripted:@FILE` seats read."""
    return [s.strip()[len("scripted:@") :] for s in (seats or "").split(",")
            if s.strip().startswith("scripted:@")]  # fmt: skip


# ---------------------------------------------------------------- check, schema, parse, fmt


def _ruleset_folder_of(path: Path) -> Path | None:
    return next((q for q in path.resolve().parents if (q / "ruleset.yaml").is_file()), None)


def _listed_in(folder: Path, path: Path) -> bool:
    """Whether the language file `path` is one of the ruleset's `files:`."""
    import yaml

    try:
        meta = yaml.safe_load((folder / "ruleset.yaml").read_text(encoding="utf-8"))
        files = meta.get("files") or []
        return any((folder / str(rel)).resolve() == path.resolve() for rel in files)
    except Exception:  # a broken ruleset.yaml is reported when the folder is checked
        return True


def cmd_check(args) -> int:
    from ..build.loader import (
        card_set_sources,
        check_language_file,
        is_card_set_folder,
        load_ruleset,
        load_standalone_cards,
    )
    from ..language.decks import deck_ruleset, looks_like_deck

    if not args.paths and not args.cards:
        raise UsageError("check needs a PATH: a ruleset, a card file, a deck or a language file")
    diags = Diagnostics()
    done: set[str] = set()
    # --strict judges the files being checked: a card file (or set) is not failed for warnings
    # inside the bundled ruleset it plays in. A ruleset checked as such is judged whole.
    judged: set[str] = set()
    whole = False

    def ruleset(ref: str, extra: list[str] = (), decks: list[str] = ()) -> None:
        key = (str(Path(ref).resolve()) if Path(ref).exists() else ref, tuple(extra), tuple(decks))
        if str(key) not in done:
            done.add(str(key))
            load_ruleset(ref, diags, list(extra), extra_decks=list(decks))

    # Decks are checked with the card files given beside them for the same ruleset.
    decks: dict[str, list[str]] = {}
    card_files: dict[str, list[str]] = {}
    for ref in args.paths:
        p = Path(ref)
        if p.is_file() and p.suffix in (".yaml", ".yml") and looks_like_deck(ref):
            name = deck_ruleset(ref, diags)
            if name is not None:
                decks.setdefault(name, []).append(ref)
            judged.add(_shown(ref))
    for ref in [*args.paths, *(args.cards or ())]:
        p = Path(ref)
        if (p.is_file() and p.suffix in (".yaml", ".yml") or is_card_set_folder(p)) and not (
            p.is_file() and looks_like_deck(ref)
        ):
            name = load_standalone_cards(ref, Diagnostics())
            if name is not None and ref not in card_files.get(name, []):
                card_files.setdefault(name, []).append(ref)
    for name, files in decks.items():
        if not all([_ruleset_found(f, name, diags) for f in files]):
            continue
        given = card_files.get(name, [])
        near = _cards_next_to(name, files, given)
        if near and args.format == "text":
            note(f"the decks use the card files next to them: {', '.join(map(_shown, near))}")
        ruleset(name, [*given, *near], files)
    for ref in args.cards or ():
        if not Path(ref).exists():
            diags.error("no such file or folder", Span(ref, 0, 0), code="no-such-file")
        elif not decks:
            args.paths.append(ref)  # with no deck, a card file given is checked as such

    for ref in args.paths:
        p = Path(ref)
        if p.suffix == ".madang":
            folder = _ruleset_folder_of(p) if p.is_file() else None
            if folder is not None and _listed_in(folder, p):
                ruleset(str(folder))
                whole = True
            else:
                check_language_file(ref, diags)
                judged.add(_shown(ref))
        elif p.is_file() and p.name == "ruleset.yaml":
            ruleset(str(p.parent))
            whole = True
        elif p.is_file() and p.suffix in (".yaml", ".yml") and looks_like_deck(ref):
            continue  # checked above, with its ruleset
        elif (p.is_file() and p.suffix in (".yaml", ".yml")) or is_card_set_folder(p):
            name = load_standalone_cards(ref, diags)
            if name is not None and name not in decks and _ruleset_found(ref, name, diags):
                ruleset(name, [ref])  # (with decks, it is checked with them above)
            judged.update(_shown(f) for f in [ref, *card_set_sources(ref)] if Path(f).is_file())
        elif not p.exists() and _looks_like_a_path(ref):
            diags.error("no such file or folder", Span(ref, 0, 0), code="no-such-file")
        else:
            ruleset(ref)
            whole = True
    if args.format == "json":
        print(diags.to_json())
    else:
        sys.stdout.write(diags.render(color=color_ok(sys.stdout)))
        ne, nw = len(diags.errors), len(diags.warnings)
        if ne or nw:
            print(f"{ne} error{'s' if ne != 1 else ''}, {nw} warning{'s' if nw != 1 else ''}")
        else:
            print("ok: no problems found")
    counted = [w for w in diags.warnings if whole or w.span.file in judged]
    return 1 if diags.errors or (args.strict and counted) else 0


def _cards_next_to(ruleset: str, decks: list[str], given: list[str]) -> list[str]:
    """Card files (or card sets) beside the decks that define cards the decks name and no file
    given defines: a deck checked alone is checked with them. Only files that load without
    errors are taken (a draft next to the finished file is left out)."""
    from ..build.loader import is_card_set_folder, load_ruleset, load_standalone_cards
    from ..language.decks import looks_like_deck, read_deck_cards

    scratch = Diagnostics()
    loaded = load_ruleset(ruleset, scratch, list(given), compile=False)
    known = set(loaded.syms.cards) if loaded is not None else set()
    missing = {c for d in decks for c in read_deck_cards(d)} - known
    taken: list[str] = []
    skip = {Path(x).resolve() for x in [*given, *decks]}
    found = []  # (cards it would add, path): the file that adds most is tried first
    for folder in sorted({Path(d).resolve().parent for d in decks}):
        for f in sorted(folder.iterdir()):
            if not missing or f.resolve() in skip:
                continue
            if f.is_file() and f.suffix in (".yaml", ".yml"):
                if looks_like_deck(str(f)):
                    continue
            elif not is_card_set_folder(f):
                continue
            if load_standalone_cards(str(f), Diagnostics()) == ruleset:
                adds = len(set(_card_names(str(f))) & missing)
                if adds:
                    found.append((-adds, str(f)))
    for _, f in sorted(found):
        names = set(_card_names(f)) & missing
        if not names:
            continue
        trial = Diagnostics()
        load_ruleset(ruleset, trial, [*given, *taken, f], compile=False)
        if not trial.has_errors():
            taken.append(f)
            missing -= names
    return taken


def _ruleset_found(path: str, name: str, diags: Diagnostics) -> bool:
    """Whether the ruleset a card or deck file names exists; if not, the error is located at
    the file's `ruleset:` line."""
    from ..build.loader import card_set_file, find_ruleset
    from ..language.yamlsrc import load_yaml

    probe = Diagnostics()
    if find_ruleset(name, probe) is not None:
        return True
    file = card_set_file(path)
    try:
        doc = load_yaml(
            read_bytes(file, MAX_SAVE_BYTES).decode("utf-8"), _shown(file), Diagnostics()
        )
    except (OSError, UnicodeDecodeError):
        doc = None
    for d in probe.errors:
        span = doc.span(("ruleset",)) if doc is not None else d.span
        diags.error(d.message, span, d.hint, code=d.code)
    return False


def _shown(path) -> str:
    """A file's name as diagnostics show it (relative to the working folder when below it)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _looks_like_a_path(ref: str) -> bool:
    """A reference that names a file or folder rather than a bundled ruleset."""
    return Path(ref).suffix in (".yaml", ".yml", ".madang", ".json") or "/" in ref or os.sep in ref


def cmd_schema(args) -> int:
    from ..build.loader import kinds_spec, load_ruleset
    from ..language.schema import card_schema

    diags = Diagnostics()
    loaded = load_ruleset(args.ruleset, diags, compile=False)
    if loaded is None or diags.has_errors():
        sys.stderr.write(diags.render(color=color_ok(sys.stderr)))
        return 1
    if args.deck:
        from ..language.decks import deck_schema

        if not loaded.meta.get("decks"):
            sys.stderr.write(f"madang schema: {loaded.meta['name']} takes no deck files\n")
            return 1
        schema = deck_schema(loaded.meta["name"], loaded.meta["decks"].get("fields") or {})
    else:
        schema = card_schema(loaded.meta["name"], kinds_spec(loaded.syms))
    print(json.dumps(schema, ensure_ascii=False, indent=2))
    return 0


def _read(path: str, diags: Diagnostics) -> str | None:
    from ..language.sources import read_text

    return read_text(path, diags)


def cmd_parse(args) -> int:
    from ..language.parser import Origin, parse_card_text, parse_module

    diags = Diagnostics()
    text = _read(args.file, diags)
    node = None
    if text is not None:
        parse = parse_card_text if args.card_text else parse_module
        node = parse(text, Origin(args.file), diags)
    if node is None or diags.has_errors():
        sys.stderr.write(diags.render(color=color_ok(sys.stderr)))
        return 1
    try:
        from ..language.fmt import dump_ast
    except ImportError:
        print(node)
    else:
        print(dump_ast(node))
    return 0


def cmd_compile(args) -> int:
    from ..language.diagnostics import did_you_mean
    from .listing import show, summary

    prog = load_program(args.ruleset, tuple(args.cards or ()))
    if args.show is not None:
        text = show(prog, args.show)
        if text is None:
            names = [r["name"] for r in summary(prog)]
            hint = did_you_mean(args.show, names)
            raise UsageError(
                f"no verb, action, trigger or check named '{args.show}'"
                + (f" ({hint})" if hint else "")
            )
        sys.stdout.write(text)
        return 0
    rows = summary(prog)
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    width = max(len(r["name"]) for r in rows)
    print(f"{'':8} {'name':{width}}  generated functions  run by objects  steps")
    for r in rows:
        print(
            f"{r['kind']:8} {r['name']:{width}}  {r['generated']:19}  {r['objects']:14}"
            f"  {r['steps']:5}"
        )
    return 0


def cmd_fmt(args) -> int:
    try:
        from ..language.fmt import format_source
    except ImportError:
        sys.stderr.write("madang fmt: the formatter is not available in this build\n")
        return 1
    if len(args.files) > 1 and not (args.check or args.write):
        raise UsageError("several files need --check or --write")
    status = 0
    for file in args.files:
        diags = Diagnostics()
        text = _read(file, diags)
        kw = {"card_text": args.card_text}
        if args.lang:
            kw["lang"] = args.lang
        out = format_source(text, file, diags, **kw) if text is not None else None
        if out is None:
            sys.stderr.write(diags.render(color=color_ok(sys.stderr)))
            status = 1
            continue
        if args.check:
            if out != text:
                print(f"{file}: would be reformatted")
                status = 1
        elif args.write:
            if out != text:
                atomic_write(file, out)
                print(f"{file}: reformatted")
        else:
            sys.stdout.write(out)
    return status


# ---------------------------------------------------------------- list


def _value_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def ruleset_rows() -> list[dict]:
    import yaml

    from ..build.loader import bundled_names, find_ruleset

    rows = []
    for name in bundled_names():
        folder = find_ruleset(name, Diagnostics())
        try:
            meta = yaml.safe_load((folder / "ruleset.yaml").read_text(encoding="utf-8")) or {}
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
            rows.append({"name": name, "error": str(e).splitlines()[0]})
            continue
        players = meta.get("players")
        lo, hi = (
            (players, players) if isinstance(players, int) else (players["min"], players["max"])
        )
        opts = {}
        for k, v in (meta.get("options") or {}).items():
            desc = v.get("description") or {}
            opts[k] = {
                "default": v.get("default"),
                "default_by_players": {
                    str(n): d for n, d in (v.get("default_by_players") or {}).items()
                },
                "values": v.get("values"),
                "per_seat": bool(v.get("per_seat")),
                "description": desc.get("en") if isinstance(desc, dict) else str(desc),
            }
        decks = meta.get("decks") or {}
        if decks.get("option") in opts:  # its values are the names of the ruleset's deck files
            from ..language.decks import deck_name

            names = [deck_name(str(folder / rel)) for rel in decks.get("files") or []]
            opts[decks["option"]]["values"] = [x for x in names if x is not None]
        rows.append({"name": name, "title": meta.get("title") or {}, "players": {"min": lo, "max": hi},
                     "language": meta.get("language"), "options": opts})  # fmt: skip
    return rows


def cmd_list(args) -> int:
    rows = ruleset_rows()
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        if "error" in r:
            print(f"{r['name']}  (cannot read its ruleset.yaml: {r['error']})")
            continue
        t = r["title"]
        lo, hi = r["players"]["min"], r["players"]["max"]
        players = f"{lo} players" if lo == hi else f"{lo}–{hi} players"
        title = " / ".join(x for x in (t.get("en"), t.get("ko")) if x)
        print(f"{r['name']}  {title}  ({players})")
        if lo != hi:
            print(f"    --option players=N  {lo}–{hi}; default {lo}")
        for k, o in r["options"].items():
            values = ", ".join(map(_value_text, o["values"])) if o["values"] else "any"
            seat = "  (per seat: a,b,...)" if o["per_seat"] else ""
            by = "".join(
                f"; {_value_text(d)} with {n} players" for n, d in o["default_by_players"].items()
            )
            print(f"    --option {k}={_value_text(o['default'])}  [{values}]{seat}{by}")
            if args.verbose and o["description"]:
                print(f"        {o['description']}")
    return 0


# ---------------------------------------------------------------- play


def _save_cards(path: str | None) -> list[str]:
    """The card files a save names (read when it resumes): never written over."""
    if not path:
        return []
    try:
        doc = json.loads(read_bytes(path, MAX_SAVE_BYTES).decode("utf-8"))
        cards = doc.get("cards") if isinstance(doc, dict) else None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return []
    return [c for c in cards or [] if isinstance(c, str)]


def _load_save(path: str, cards: list[str] | None = None) -> GameState:
    """A saved game. A game played with extra card files needs the same `--cards` to resume."""
    try:
        text = read_bytes(path, MAX_SAVE_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MadangError(f"cannot read the save file {path}: {e}") from None
    prog = None
    if cards:
        try:
            doc = json.loads(text)
            where = doc.get("ruleset_path")
            ref = (
                where
                if isinstance(where, str) and where and Path(where).is_dir()
                else str(doc["ruleset"])
            )
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            ref = None  # from_json says what is wrong with it
        if ref is not None:
            prog = load_program(ref, tuple(cards))
    try:
        return GameState.from_json(text, prog)
    except MadangError as e:
        hint = "" if cards else " (if its card files moved, give them with --cards)"
        raise MadangError(
            f"{path}: {e}" + (hint if "card data" in str(e) else ""), e.diags
        ) from None


def _seats_of_save(path: str, nplayers: int) -> list[str] | None:
    """The seats a save was made with, when it names one per seat."""
    try:
        text = read_bytes(path, MAX_SAVE_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    seats = GameState.saved_seats(text)
    return seats if seats and len(seats) == nplayers else None


def _resume_command(args) -> str:
    """The exact command that goes on with a game saved by `madang play --save` (its seats are
    in the save; the files and language it was played with are given again)."""
    import shlex

    parts = ["madang", "play", "--load", args.save, "--save", args.save]
    for c in args.cards or ():
        parts += ["--cards", c]
    if args.lang:
        parts += ["--lang", args.lang]
    return " ".join(shlex.quote(p) for p in parts)


class _BetweenSteps:
    """Ctrl-C during `madang play` stops the game between two steps, never halfway through one,
    so that the state can be saved: while an agent decides it interrupts at once; while the
    rules run it waits for the step to finish."""

    def __init__(self):
        self.waiting = False
        self.hit = False
        self.old = None
        self.name = "SIGINT"

    def __enter__(self):
        import signal

        if threading.current_thread() is threading.main_thread():
            self.old = {n: signal.signal(n, self._handler) for n in _stop_signals()}
        return self

    def __exit__(self, *exc):
        import signal

        for n, old in (self.old or {}).items():
            signal.signal(n, old)
        return False

    def _handler(self, signum, frame):
        import signal

        self.name = signal.Signals(signum).name
        if self.waiting:
            raise Stopped(self.name)
        self.hit = True

    def after_step(self) -> None:
        if self.hit:
            raise Stopped(self.name)


class Stopped(KeyboardInterrupt):
    """Ctrl-C, or SIGTERM or SIGHUP (the terminal closed, the system shuts down): the game
    stops between two steps and `--save` writes it, whichever it was."""


def _stop_signals() -> list:
    import signal

    return [getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]


class _TerminalTable:
    """What a human at the terminal may ask for besides the options (tools/table.py)."""

    def __init__(self, lang: str, recent: list[str]):
        self.lang = lang
        self.recent = recent

    def board(self, game, seat: int, out) -> None:
        from .table import print_board

        print_board(game, seat, out, self.lang)

    def info(self, game, seat: int, name: str) -> str | None:
        from .table import card_info

        return card_info(game, seat, name, self.lang)

    def history(self, seat: int) -> list[str]:
        return list(self.recent)

    def options(self, game) -> list[str]:
        from .view import option_labels

        return option_labels(game, self.lang)


def cmd_play(args) -> int:
    from .agents import Decision, InputEnded, make_agent
    from .narration import Narrator
    from .simulate import seat_specs

    # --save may name the save it resumes (that is how a game is kept); nothing else is written
    # over an input, and a bad path is found now, not after an hour of play
    inputs = {"--cards": args.cards, "--deck": _deck_files(args.deck),
              "--seats": scripted_files(args.seats)}  # fmt: skip
    check_outputs({"--log": args.log}, {"--load": args.load, **inputs})
    check_outputs({"--save": args.save, "--log": args.log}, inputs)
    saved_seats = None
    if args.load:
        game = _load_save(args.load, args.cards)
        saved_seats = _seats_of_save(args.load, game.st.g.nplayers)
        ignored = [
            f
            for f, v in (
                ("RULESET", args.ruleset),
                ("--option", args.option),
                ("--seed", args.seed),
            )
            if v
        ]
        if ignored:
            note(f"{', '.join(ignored)} ignored: the game comes from {args.load}")
    else:
        if not args.ruleset:
            raise UsageError("play needs a RULESET (or --load FILE)")
        options = options_of(args.option)
        extra, _ = deck_args(args.ruleset, args.deck, args.cards, options)
        game = new_game(args.ruleset, options, args.seed or 0, log=True, cards=extra)
    st = game.st
    prog = st.g.prog
    # the ruleset's own files, and the card files a save names, are known now
    read = {**inputs, "the ruleset's file": ruleset_files(prog),
            "the save's card file": _save_cards(args.load)}  # fmt: skip
    check_outputs({"--log": args.log}, read)
    check_outputs({"--save": args.save}, read)
    Position(game).keep_log()
    # a resumed game keeps the seats it was saved with, unless --seats says otherwise
    seats = seat_specs(args.seats.split(",") if args.seats else saved_seats, st.g.nplayers)
    if saved_seats and not args.seats and args.format == "text":
        note(f"seats from {args.load}: {','.join(seats)} (--seats overrides)")
    lang = args.lang or prog.meta.get("language") or "en"
    humans = [i for i, s in enumerate(seats) if s == "human"]
    # one person at the terminal hears their seat's story; several share only what is public
    narrator = Narrator(
        prog, lang, seat=None if not humans else humans[0] if len(humans) == 1 else -1
    )
    recent: list[str] = []  # the narration a human has seen, for the `log` command
    table = _TerminalTable(lang, recent) if args.format == "text" else None
    agents = [make_agent(s, words=narrator.text, table=table) for s in seats]
    narrate_on = args.format == "text" and (args.verbose or "human" in seats)
    start = st.decisions
    # agents alone at the table in a game with no end in sight: a limit, reached as an error
    limit = args.max_decisions
    if limit is None and not humans:
        limit = AGENTS_ONLY_LIMIT
    log_file = None
    if args.log:
        log_file = open(args.log, "w", encoding="utf-8")  # noqa: SIM115
        header = {"madang_log": 1, "ruleset": prog.name, "ruleset_path": str(prog.folder or ""),
                  "cards": [str(Path(c).resolve()) for c in [*(args.cards or ()), *_deck_files(args.deck)]],
                  "options": st.g.options, "seed": st.g.seed, "from_decision": start}  # fmt: skip
        if args.load:
            header["loaded_from"] = args.load
        log_file.write(json.dumps(header, ensure_ascii=False) + "\n")

    def flush() -> None:
        for e in st.log:
            if log_file is not None:
                log_file.write(json.dumps(e, ensure_ascii=False) + "\n")
        if narrate_on:
            for line in narrator.lines(st.log):
                print(line)
                recent.append(line)
            del recent[:-200]
        st.log.clear()

    stopped = False
    stop = _BetweenSteps()
    try:
        flush()
        with stop:
            while not st.over:
                if limit is not None and st.decisions - start >= limit:
                    stopped = True
                    break
                d = Decision(game)
                stop.waiting = True  # Ctrl-C now stops the game at once: nothing is half done
                choice = agents[d.seat].decide(d)
                stop.waiting = False
                game.apply_action(choice)
                flush()
                stop.after_step()
    except (InputEnded, KeyboardInterrupt) as e:
        n = st.decisions
        why = str(e) if not isinstance(e, KeyboardInterrupt) else "interrupted"
        if isinstance(e, Stopped) and str(e) != "SIGINT":
            why = f"stopped by {e}"
        saved = ""
        if args.save:
            atomic_write(args.save, game.to_json(seats))
            saved = f"; saved to {args.save} (go on with: {_resume_command(args)})"
        sys.stderr.write(f"\nmadang play: {why}: the game stops unfinished after {n} decision{'s' if n != 1 else ''}"
                         f"{saved}\n")  # fmt: skip
        return 130 if isinstance(e, KeyboardInterrupt) else 1
    except RulesError as e:
        raise MadangError(
            f"error in the rules after {st.decisions} decisions (seed {st.g.seed}): {e}"
        ) from None
    finally:
        if log_file is not None:
            flush_entries = st.log
            for e in flush_entries:
                log_file.write(json.dumps(e, ensure_ascii=False) + "\n")
            log_file.close()
    if args.save:
        atomic_write(args.save, game.to_json(seats))
    if stopped and args.max_decisions is None:
        raise MadangError(
            f"no end after {limit:,} decisions of agents alone at the table: the decision limit"
            " (a flow that never ends? --max-decisions N sets another limit)"
            + (f"; saved to {args.save}" if args.save else "")
        )
    result = {
        "ruleset": prog.name,
        "seed": st.g.seed,
        "finished": game.is_terminal(),
        "winners": [p + 1 for p in st.winners],
        "returns": game.returns(),
        "decisions": st.decisions,
        "turns": st.turn,
        "rounds": st.round,
        "digest": game.digest(),
    }
    if args.save:
        result["saved"] = args.save
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False))
    elif stopped:
        n = st.decisions
        print(
            f"stopped after {n} decision{'s' if n != 1 else ''}"
            + (f"; saved to {args.save}" if args.save else "")
        )
    else:
        who = ", ".join(f"P{p}" for p in result["winners"]) or "nobody"
        print(f"winner: {who} after {st.decisions} decisions, {st.turn} turns"
              + (f"; saved to {args.save}" if args.save else ""))  # fmt: skip
    return 0


# ---------------------------------------------------------------- simulate


def _pct(x: float) -> str:
    return f"{x:.1%}"


def cmd_simulate(args) -> int:
    from .simulate import simulate

    if args.games < 0:
        raise UsageError("--games must be 0 or more")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    seats = args.seats.split(",") if args.seats else None
    if args.against and not args.deck:
        raise UsageError("--against needs the deck that plays the others: --deck FILE")
    if args.card_model:
        if not args.by_card:
            raise UsageError("--card-model fits the per-card figures: add --by-card")
        try:
            import scipy  # noqa: F401
        except ImportError:
            raise UsageError("--card-model fits with scipy: pip install 'madang[report]'") from None
    if args.report:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UsageError(
                "--report draws with matplotlib: pip install 'madang[report]'"
            ) from None
        check_outputs(
            {"--report": args.report}, {"--cards": args.cards, "--deck": _deck_files(args.deck)}
        )
    options = options_of(args.option)
    extra, focus = deck_args(args.ruleset, args.deck, args.cards, options, bool(args.against))
    if args.report:
        files = ruleset_files(load_program(args.ruleset, tuple(extra)))
        check_outputs({"--report": args.report}, {"the ruleset's file": files})
    gauntlet = None
    if args.against:
        names = None if args.against == "all" else [x.strip() for x in args.against.split(",")]
        gauntlet = (focus, names)
    _warn_unused_cards(args.ruleset, extra, args.cards, options, gauntlet)
    progress = None
    bar = None
    if sys.stderr.isatty() and args.games >= 20 and args.format == "text":
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       console=Console(stderr=True), transient=True)  # fmt: skip
        task = bar.add_task("games", total=args.games)

        def progress(done):
            bar.update(task, completed=done)

    if bar is not None:
        bar.start()
    try:
        result = simulate(args.ruleset, args.games, args.seed, args.jobs, seats, options,
                          extra, args.max_decisions, progress, backend=args.backend,
                          address=args.address, gauntlet=gauntlet, by_card=args.by_card,
                          card_model=args.card_model)  # fmt: skip
    finally:
        if bar is not None:
            bar.stop()
    failed = 1 if result["errors"] or result.get("lost") else 0
    if result.get("unfinished"):
        warn(f"{result['unfinished']} of {result['games']} games reached the decision limit"
             f" (--max-decisions {args.max_decisions}) unfinished: a flow that never ends?")  # fmt: skip
    if args.report:
        from .report import write_report

        write_report(args.report, result)
        note(f"report written to {args.report}")
    if result.get("lost"):
        sys.stderr.write(
            f"madang simulate: {result['lost']['games']} games lost: {result['lost']['why']}\n"
        )
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return failed
    print(
        f"{result['ruleset']}: {result['games']} games, seed {result['seed']}, agents {','.join(result['agents'])}"
    )
    for s in result["seats"]:
        lo, hi = s["ci95"]
        print(
            f"  P{s['seat']} wins {s['wins']:>6}  {_pct(s['rate'])}  (95% CI {_pct(lo)}–{_pct(hi)})"
        )
    for opt, table in (result.get("by_option") or {}).items():
        print(f"  by {opt}:")
        for v, row in table.items():
            lo, hi = row["ci95"]
            print(
                f"    {v:>12}: {_pct(row['rate'])} of {row['games']} seat-games  (95% CI {_pct(lo)}–{_pct(hi)})"
            )
    if (args.verbose or gauntlet) and result.get("pairings"):
        print("  pairings (wins per seat):")
        for key, row in result["pairings"].items():
            print(
                f"    {key:>20}: {row['games']} games, wins {' / '.join(map(str, row['wins']))}, draws {row['draws']}"
            )
    extra = f", shared wins {result['shared_wins']}" if result["shared_wins"] else ""
    print(
        f"  draws {result['draws']}, no winner {result['no_winner']}, unfinished {result['unfinished']}{extra}"
    )
    d, t = result["decisions"], result["turns"]
    r = result.get("rounds") or {}
    rounds = f", rounds {r['mean']} ({r['min']}–{r['max']})" if r.get("max") else ""
    print(
        f"  decisions per game {d['mean']} ({d['min']}–{d['max']}), turns {t['mean']} ({t['min']}–{t['max']}){rounds}"
    )
    for msg, e in result["errors"].items():
        seed = f" (first at seed {e['first_seed']})" if e["first_seed"] is not None else ""
        print(f"  error ×{e['games']}{seed}: {msg}")
    if result.get("cards"):
        from .cardstats import MIN_GAMES, ranking, render

        key = ranking(result["cards"])
        event = "drawn" if key == "iwd" else "played"
        print(f"  per card: win rates when {event} and not; {key.upper()}: their difference "
              f"within each deck and seat, pooled (* fewer than {MIN_GAMES} seat-games on a "
              "side)")  # fmt: skip
        if key == "iwp":
            print("  (nearly every card was drawn in every game that held it: playing is "
                  "compared, not drawing)")  # fmt: skip
        for line in render(result["cards"]):
            print("  " + line)
    tm = result["timing"]
    print(f"  {tm['seconds']} s, {tm['games_per_s']} games/s on {tm['jobs']} job(s)")
    return failed


def cmd_tournament(args) -> int:
    from .tournament import Bars, render, tournament

    if args.games < 1:
        raise UsageError("--games must be 1 or more")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    call = dict(agents=args.seats.split(","), games=args.games, seed=args.seed, jobs=args.jobs,
                options=options_of(args.option), cards=tuple(args.cards or ()),
                max_decisions=args.max_decisions)  # fmt: skip
    if sys.stderr.isatty() and args.format == "text":
        with Bars() as bars:
            result = tournament(args.ruleset, progress=bars, **call)
    else:
        result = tournament(args.ruleset, **call)
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(render(result))
    return 1 if result["error_games"] else 0


# ---------------------------------------------------------------- test, bench, replay


NOTHING_COLLECTED = 5  # pytest's exit code when no test ran


def cmd_test(args) -> int:
    from ..build.loader import bundled_dir, bundled_names
    from .scenario import run_paths
    from .selection import SelectionError, compile_selection

    try:
        select = compile_selection(args.keyword) if args.keyword is not None else None
    except SelectionError as e:
        raise UsageError(str(e)) from None
    paths = args.paths or [str(bundled_dir() / name) for name in bundled_names()]
    report = run_paths(paths, verbose=args.verbose, select=select, exitfirst=args.exitfirst)
    report.quiet = args.quiet
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(report.render())
    if not report.results:
        if args.format != "json":
            why = f" ({report.deselected} deselected by -k)" if report.deselected else ""
            note(f"no scenarios found in {', '.join(paths)}{why}")
        return NOTHING_COLLECTED
    return 0 if report.failed == 0 else 1


def cmd_bench(args) -> int:
    from ..build.loader import bundled_names
    from .bench import bench, render

    if args.games < 1:
        raise UsageError("--games must be 1 or more")
    refs = args.rulesets or bundled_names()
    for ref in refs:
        load_program(ref)  # an unknown or broken ruleset fails here, before any timing
    if args.seconds <= 0:
        raise UsageError("--seconds must be more than 0")
    result = bench(refs, args.games, args.baseline, progress=None if args.format == "json" else _bench_progress,
                   budget_s=args.seconds)  # fmt: skip
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render(result))
    return 0


def _bench_progress(msg: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\r\033[K{msg}")
        sys.stderr.flush()
        if not msg:
            sys.stderr.write("\r\033[K")


def cmd_lsp(args) -> int:
    try:
        import pygls  # noqa: F401
    except ImportError:
        raise UsageError("the language server needs pygls: pip install 'madang[lsp]'") from None
    from .lsp_server import serve

    return serve()


def cmd_serve(args) -> int:
    try:
        from .serve import serve
    except ImportError:
        raise UsageError("the browser client needs its extra: pip install 'madang[web]'") from None
    from .serveguard import Limits, check_origin_option

    for origin in args.allow_origin:
        if problem := check_origin_option(origin):
            raise UsageError(problem)
    bounds = {"--max-tables": (args.max_tables, 1, 10_000),
              "--max-replays": (args.max_replays, 1, 1_000),
              "--agent-workers": (args.agent_workers, 1, 64),
              "--agent-seconds": (args.agent_seconds, 0.01, 600),
              "--max-agent-iterations": (args.max_agent_iterations, 1, 10**7)}  # fmt: skip
    for option, (value, lo, hi) in bounds.items():
        if not lo <= value <= hi:
            raise UsageError(f"{option} must be from {lo:g} to {hi:g}")
    limits = Limits(max_tables=args.max_tables, max_replays=args.max_replays,
                    agent_workers=args.agent_workers, agent_seconds=args.agent_seconds,
                    max_agent_iterations=args.max_agent_iterations)  # fmt: skip
    code = serve(args.host, args.port, limits, tuple(args.allow_origin))
    # Games live in memory only: nothing is left to save, so the process ends now rather than
    # after the interpreter's teardown (a few tenths of a second on a busy computer).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def cmd_replay(args) -> int:
    from .narration import Narrator

    try:
        lines = read_bytes(args.log, MAX_LOG_BYTES).decode("utf-8", "replace").splitlines()
    except OSError as e:
        raise MadangError(f"cannot read {args.log}: {e}") from None
    first = lines[0] if lines else ""
    try:
        header = json.loads(first)
    except ValueError:
        header = None
    if isinstance(header, dict) and str(header.get("format", "")).startswith("madang-save"):
        raise MadangError(
            f"{args.log} is a save, not a log: it holds one position, not the moves that led to"
            f" it. Resume it with `madang play --load"
            f" {args.log}`; to replay a game, record it with `madang play --log FILE`"
        )
    if not isinstance(header, dict) or "ruleset" not in header:
        raise MadangError(
            f"{args.log}: not a madang log file (its first line must be the header written by `madang play --log`)"
        )
    prog = None
    path = header.get("ruleset_path")
    ref = path if isinstance(path, str) and path and Path(path).is_dir() else str(header["ruleset"])
    cards = [c for c in header.get("cards") or [] if isinstance(c, str) and Path(c).is_file()]
    try:
        prog = load_program(ref, cards)
    except MadangError as e:
        note(f"cannot load the ruleset {header['ruleset']!r} ({e}): names are shown as logged")
    narrator = Narrator(
        prog, args.lang or (prog.meta.get("language") if prog else None) or "en", moves=args.verbose
    )
    from . import logentries

    bad = entries = 0
    players = (prog.meta.get("players") if prog else None) or MAX_PLAYERS
    nplayers = players if isinstance(players, int) else players["max"]
    for n, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
        except (ValueError, RecursionError):
            entry, why = None, "not a JSON line"
        if entry is not None:
            crafted = logentries.problem(entry, nplayers)  # fields madang never writes
            if crafted is not None:
                entry, why = None, f"not a line madang writes: {crafted}"
        if entry is not None:
            line = narrator.line(entry)
            entries += 1
            if line:
                print(printable(line))
            continue
        bad += 1
        if bad <= 3:
            sys.stderr.write(printable(f"{args.log}:{n}:1: {why[:200]}; skipped") + "\n")
    if not entries and not bad:
        raise MadangError(f"{args.log}: the log has a header but no events (the game wrote none)")
    if bad:
        sys.stderr.write(f"madang replay: {bad} unreadable line(s) in {args.log}\n")
        return 1
    return 0


# ---------------------------------------------------------------- main


EPILOG = (
    "exit codes: 0 fine, 1 problems found or the game failed, 2 wrong usage,"
    " 5 no scenario found (test), 130 interrupted"
)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="madang", epilog=EPILOG,
                                 description="A rules language and interpreter for card and board games.")  # fmt: skip
    ap.add_argument("--version", action="version", version=f"madang {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")

    def command(name, help, description=None):
        return sub.add_parser(name, help=help, description=description or help, epilog=EPILOG)

    p = command("check", "check rulesets, card files or language files",
                "Check rulesets (bundled names or folders), card files that name their ruleset, and .madang "
                "language files; report every problem with its file, line and column.")  # fmt: skip
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--cards", action="append", metavar="FILE",
                   help="a card file or card set the decks use (repeatable); a deck checked "
                        "without it uses the card files next to it")  # fmt: skip
    p.add_argument("--strict", action="store_true", help="warnings count as problems (exit 1)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(run=cmd_check)

    p = command("schema", "print the JSON Schema of a ruleset's card files (or deck files)")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--deck", action="store_true", help="the schema of its deck files")
    p.set_defaults(run=cmd_schema)

    p = command("parse", "print the syntax tree of a language file")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--card-text", action="store_true", help="the file is a card text")
    p.set_defaults(run=cmd_parse)

    p = command("fmt", "print a language file in canonical layout")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument(
        "--check", action="store_true", help="print nothing; exit 1 if a file would change"
    )
    p.add_argument("--write", action="store_true", help="rewrite the files in place")
    p.add_argument("--card-text", action="store_true", help="the file is a card text")
    p.add_argument(
        "--lang", choices=["en", "ko"], help="spelling of the core keywords (default en)"
    )
    p.set_defaults(run=cmd_fmt)

    p = command("compile", "show what a ruleset's rules became",
                "List the verbs, actions, triggers and checks of a ruleset with how many generated Python "
                "functions their blocks became and how many statements those hand to run-time objects; "
                "--show NAME prints the generated Python of one of them.")  # fmt: skip
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--show", metavar="NAME", help="a verb, action, trigger, check, setup or flow")
    p.add_argument(
        "--cards", action="append", metavar="FILE", help="a card file or card set (repeatable)"
    )
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(run=cmd_compile)

    p = command("list", "the bundled rulesets, their players and options")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("-v", "--verbose", action="store_true", help="describe every option")
    p.set_defaults(run=cmd_list)

    p = command("play", "play one game",
                "Play one game in the terminal between agents: human, random, first, scripted:A|B|C "
                "(option labels or indices) or scripted:@FILE (one choice a line).")  # fmt: skip
    p.add_argument(
        "ruleset", nargs="?", metavar="RULESET", help="a bundled name or a ruleset folder"
    )
    p.add_argument(
        "--seats", metavar="A,B,...", help="one agent per seat, or one for all (default random)"
    )
    p.add_argument("--seed", type=int, metavar="N", help="the game's seed (default 0)")
    p.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a ruleset option (repeatable)"
    )
    p.add_argument(
        "--cards", action="append", metavar="FILE", help="a card file or card set (repeatable)"
    )
    p.add_argument("--deck", action="append", metavar="[SEAT=]FILE",
                   help="a deck file for the next seat, or for SEAT (repeatable)")  # fmt: skip
    p.add_argument(
        "--log", metavar="FILE", help="write every event as one JSON line (for `madang replay`)"
    )
    p.add_argument("--save", metavar="FILE", help="save the state at the end (or when stopped)")
    p.add_argument("--load", metavar="FILE", help="resume a saved game")
    p.add_argument(
        "--max-decisions",
        type=count_in(0, MAX_DECISIONS),
        metavar="N",
        help="stop after N decisions of this run (without it, a game with no person at the"
        " table stops with an error after 100000)",
    )
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument(
        "--lang", choices=["ko", "en"], help="narration language (default: the ruleset's)"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="narrate the game")
    p.set_defaults(run=cmd_play)

    p = command("simulate", "many games on all cores, with win rates")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument(
        "--games",
        type=count_in(0, MAX_GAMES),
        default=100,
        metavar="N",
        help="number of games (default 100)",
    )
    p.add_argument(
        "--seed", type=int, default=0, metavar="N", help="game i uses seed N+i (default 0)"
    )
    p.add_argument("--jobs", type=count_in(1, MAX_JOBS), metavar="N",
                   help="processes (default: every local core)")  # fmt: skip
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="run the games in local processes (default) or as tasks on a Ray cluster "
                        "(pip install 'madang[ray]'; docs/scaling.md)")  # fmt: skip
    p.add_argument("--address", metavar="ADDR",
                   help="the Ray cluster to join (default: start a local one); with --backend ray")  # fmt: skip
    p.add_argument(
        "--seats", metavar="A,B,...", help="one agent per seat, or one for all (default random)"
    )
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--cards", action="append", metavar="FILE",
                   help="a card file or card set the decks use (repeatable)")  # fmt: skip
    p.add_argument("--deck", action="append", metavar="[SEAT=]FILE",
                   help="a deck file for the next seat, or for SEAT (repeatable)")  # fmt: skip
    p.add_argument("--against", metavar="all|A,B,...",
                   help="a gauntlet: the first --deck plays each of these decks (all: every other "
                        "deck), in every seat order; each pairing is reported")  # fmt: skip
    p.add_argument("--by-card", action="store_true",
                   help="per-card table: games where each card was in a deck, drawn, played, the "
                        "win rates, and the improvement when drawn within each deck (IWD)")  # fmt: skip
    p.add_argument("--card-model", action="store_true",
                   help="with --by-card: also fit a logistic regression per card with deck and "
                        "seat as covariates (needs scipy: pip install 'madang[report]')")  # fmt: skip
    p.add_argument("--report", metavar="FILE.html",
                   help="write a page with the pairing heat map, per-card win rates and game "
                        "lengths (no network needed to view it)")  # fmt: skip
    p.add_argument("--max-decisions", type=count_in(0, MAX_DECISIONS), default=100_000, metavar="N",
                   help="a game still running after N decisions counts as unfinished (default 100000)")  # fmt: skip
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument(
        "-v", "--verbose", action="store_true", help="also every pairing of per-seat values"
    )
    p.set_defaults(run=cmd_simulate)

    p = command("tournament", "agents against each other, seats swapped: win rates and ratings")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--seats", required=True, metavar="A,B,...",
                   help="the agents: random, first, greedy, mcts[:ITERATIONS|:SECONDSs][:depth=N]")  # fmt: skip
    p.add_argument("--games", type=count_in(1, MAX_GAMES), default=20, metavar="N",
                   help="games per lineup (each seat order of each group of agents; default 20)")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, metavar="N", help="game i uses seed N+i")
    p.add_argument("--jobs", type=count_in(1, MAX_JOBS), metavar="N",
                   help="processes (default: every local core)")  # fmt: skip
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--cards", action="append", metavar="FILE")
    p.add_argument("--max-decisions", type=count_in(0, MAX_DECISIONS), default=100_000, metavar="N",
                   help="a game still running after N decisions counts as unfinished")  # fmt: skip
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(run=cmd_tournament)

    p = command(
        "test",
        "run scenario files",
        "Run scenario files (or the scenarios of folders and rulesets).",
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="scenario files, folders, ruleset folders or bundled ruleset names "
                        "(default: every bundled ruleset's scenarios)")  # fmt: skip
    p.add_argument("-k", dest="keyword", metavar="EXPR",
                   help="only scenarios whose path, name or rule contains these words "
                        "(`and`, `or`, `not`, brackets), as pytest -k")  # fmt: skip
    p.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    p.add_argument("-q", "--quiet", action="store_true", help="one line per failure")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("-v", "--verbose", action="store_true", help="list the scenarios that pass too")
    p.set_defaults(run=cmd_test)

    p = command("bench", "load time, playouts per second, clone and save times")
    p.add_argument("rulesets", nargs="*", metavar="RULESET", help="default: every bundled ruleset")
    p.add_argument(
        "--games",
        type=count_in(1, MAX_GAMES),
        default=300,
        metavar="N",
        help="random playouts per ruleset (default 300)",
    )
    p.add_argument("--seconds", type=float, default=20.0, metavar="S",
                   help="stop the playouts of a ruleset after S seconds (default 20)")  # fmt: skip
    p.add_argument(
        "--baseline", metavar="PATH", help="a hand-written anchor script printing one JSON line"
    )
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(run=cmd_bench)

    p = command("lsp", "a language server for editors, on standard input and output",
                "Serve the Language Server Protocol on stdin/stdout for .madang files, card files "
                "and deck files: diagnostics as you type, hover, completion, go to definition, "
                "references, formatting, outline and semantic tokens (docs/editors.md).")  # fmt: skip
    p.set_defaults(run=cmd_lsp)

    p = command("serve", "play, watch and replay games in a browser",
                "Start a local web server where people play against agents or each other (each "
                "browser sees only its own seat), watch agents play, and replay logged games.")  # fmt: skip
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                   help="also accept requests from this origin (a proxy in front, e.g. "
                        "https://games.example.org); repeatable")  # fmt: skip
    p.add_argument("--max-tables", type=int, default=64, metavar="N",
                   help="games held at once (default 64); when full, a new one is refused")  # fmt: skip
    p.add_argument("--max-replays", type=int, default=16, metavar="N",
                   help="replays held at once (default 16)")  # fmt: skip
    p.add_argument("--agent-workers", type=int, default=2, metavar="N",
                   help="searching agents thinking at once, each in a process (default 2)")  # fmt: skip
    p.add_argument("--agent-seconds", type=float, default=5.0, metavar="S",
                   help="a searching agent's time for one move (default 5)")  # fmt: skip
    p.add_argument("--max-agent-iterations", type=int, default=2000, metavar="N",
                   help="the largest N a page may ask for in mcts:N (default 2000)")  # fmt: skip
    p.set_defaults(run=cmd_serve)

    p = command("replay", "narrate a logged game")
    p.add_argument("log", metavar="LOG", help="a file written by `madang play --log`")
    p.add_argument("--lang", choices=["ko", "en"])
    p.add_argument("-v", "--verbose", action="store_true", help="show every move too")
    p.set_defaults(run=cmd_replay)
    for name in ("check", "play", "simulate", "tournament", "test", "bench", "serve", "replay"):
        sub.choices[name].add_argument(
            "--max-work", type=count_in(1, MAX_WORK), metavar="STEPS",
            help="raise the ceiling on the work a ruleset may do between two decisions"
                 f" (default {budget.CEILING:,}; a ruleset sets its budget below it)",
        )  # fmt: skip
    return ap


def main(argv=None) -> int:
    ap = parser()
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # --help, --version (0) and usage errors (2)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    if not getattr(args, "run", None):
        ap.print_help(sys.stderr)
        return 2
    name = f"madang {args.command}"
    if getattr(args, "max_work", None) is not None:  # (argparse kept it in range)
        budget.set_ceiling(args.max_work)
    try:
        code = args.run(args)
        if not sys.stdout.closed:  # the language server closes it when the client exits
            sys.stdout.flush()
        return code
    except UsageError as e:
        sys.stderr.write(f"{name}: {e}\n")
        return 2
    except MadangError as e:
        if e.diags is not None and e.diags.items:
            sys.stderr.write(e.diags.render(color=color_ok(sys.stderr)))
        sys.stderr.write(f"{name}: {printable(str(e))}\n")
        return 1
    except RulesError as e:
        sys.stderr.write(f"{name}: error in the rules: {printable(str(e))}\n")
        return 1
    except BrokenPipeError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except OSError as e:
        sys.stderr.write(f"{name}: {e}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        return 130
    except Exception as e:
        if os.environ.get("MADANG_DEBUG"):
            raise
        kind = type(e).__name__
        for note in getattr(e, "__notes__", ()):  # where in the rules (codegen.note_rules_place)
            sys.stderr.write(f"{name}: {printable(str(note))}\n")
        sys.stderr.write(f"{name}: internal error: {kind}: {e}\n"
                         "  (a bug in madang, not in your input; MADANG_DEBUG=1 shows the traceback)\n")  # fmt: skip
        return 1


if __name__ == "__main__":
    sys.exit(main())
