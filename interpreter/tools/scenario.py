"""Scenario tests: a starting state, a script of decisions and expectations, in one YAML file.

`load_scenario(path)` reads a file and checks its structure (every problem located, unknown keys
with a "did you mean"); `run_scenario(sc)` plays it against its ruleset and says what differed,
with the step number and the file and line of the step; `run_paths(paths)` runs files and folders
(for `madang test` and the pytest plugin in tests/conftest.py). The format is documented in
docs/scenarios.md.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..build.compiler import compile_snippet
from ..build.loader import Loaded, bundled_dir, bundled_names, load_ruleset
from ..game import optionlabels
from ..game.api import MadangError
from ..game.position import Position, SetupError
from ..language.diagnostics import Diagnostics, did_you_mean
from ..language.sources import overlay
from ..language.yamlsrc import YamlDoc, load_yaml
from ..runtime.errors import RulesError
from ..runtime.program import Program, SnippetError

TOP_KEYS = (
    "ruleset", "rule", "name", "options", "seed", "cards", "setup", "start", "start_at", "steps",
)  # fmt: skip
START_AT_KEYS = ("point", "let")
SETUP_KEYS = (
    "active", "first", "turn", "round", "phase", "zones", "counters", "player_counters", "props",
)  # fmt: skip
STEP_KINDS = ("expect", "choose", "error")
STEP_KEYS = (*STEP_KINDS, "by")
EXPECT_KEYS = (
    "options", "options_include", "options_exclude", "prompt", "player", "zones", "counts",
    "cards", "counters", "player_counters", "area_counters", "props", "keywords", "events",
    "no_events", "winner", "over", "active", "turn", "round", "phase", "sees",
)  # fmt: skip
SUFFIXES = (".yaml", ".yml")

_LINE_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")  # as YAML counts lines
_PLAYER = re.compile(r"P([1-9][0-9]*)")


class ScenarioError(Exception):
    """A scenario file that cannot be run as written; the message holds rendered diagnostics."""

    def __init__(self, message: str, diags: Diagnostics | None = None):
        super().__init__(message)
        self.diags = diags


@dataclass
class Step:
    """One entry of `steps:`: `kind` is expect, choose or error; `number` counts from 1."""

    number: int
    kind: str
    value: Any
    line: int
    by: str | None = None


@dataclass
class Scenario:
    file: Path
    path: str  # as shown in messages
    name: str
    rule: str
    ruleset: str
    options: dict
    seed: int
    cards: list | str | None  # inline cards, or a path to a card file or card set
    setup: dict | None  # None: the ruleset's own setup runs
    start: str | None  # statements in the language; None: the ruleset's flow
    steps: list[Step]
    doc: YamlDoc = field(repr=False)
    # a point of the flow (a phase's name, `turn`, `round`) and the flow's names given there
    start_at: str | None = None
    start_names: dict = field(default_factory=dict)


@dataclass
class Result:
    name: str
    path: str
    rule: str | None
    ok: bool
    message: str = ""


@dataclass
class Report:
    passed: int = 0
    failed: int = 0
    results: list[Result] = field(default_factory=list)
    verbose: bool = False
    quiet: bool = False
    deselected: int = 0
    stopped: bool = False  # -x: the run ended at the first failure

    @property
    def ok(self) -> bool:
        return self.failed == 0

    def to_json(self) -> dict:
        """The results as plain data (for `--format json`)."""
        return {
            "passed": self.passed,
            "failed": self.failed,
            "deselected": self.deselected,
            "results": [dataclasses.asdict(r) for r in self.results],
        }

    def summary(self) -> str:
        """`N passed, N failed` (pytest's order of words), with what was left out."""
        parts = [f"{self.passed} passed, {self.failed} failed"]
        if self.deselected:
            parts.append(f"{self.deselected} deselected")
        if self.stopped:
            parts.append("stopped at the first failure")
        return ", ".join(parts)

    def render(self) -> str:
        """Each failure in full (one line each when quiet; and each pass when verbose), then
        the summary."""
        out = []
        for r in self.results:
            head = f"{r.name} ({r.path})" + (f" — {r.rule}" if r.rule else "")
            if r.ok and self.verbose:
                out.append(f"PASS {head}")
            elif not r.ok and self.quiet:
                out.append(f"FAIL {head}")
            elif not r.ok:
                body = "\n".join("  " + ln if ln else "" for ln in r.message.rstrip().splitlines())
                out.append(f"FAIL {head}\n{body}")
        out.append(self.summary())
        return "\n".join(out) + "\n"


# ---------------------------------------------------------------- paths


def show_path(path: Path) -> str:
    """Paths in messages: relative to the working folder when below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def is_scenario_file(path: Path) -> bool:
    """A YAML file whose top level has a `steps:` or `rule:` key (other YAML is left alone)."""
    if path.suffix not in SUFFIXES or not path.is_file():
        return False
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    doc = load_yaml(text, str(path), Diagnostics())
    if doc is None:  # broken YAML: a scenario if it looks like one, so that it is reported
        return bool(re.search(r"^(steps|rule)\s*:", text, re.M))
    return isinstance(doc.data, dict) and ("steps" in doc.data or "rule" in doc.data)


def find_scenarios(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given; folders searched recursively for scenario files, in sorted order. A
    ruleset folder, or a bundled ruleset's name, stands for its scenarios folder."""
    out: list[Path] = []
    for p in map(Path, paths):
        folder = _scenarios_folder(p)
        if folder is not None and not folder.is_dir():
            continue  # a ruleset without scenarios (yet)
        p = folder or p
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and is_scenario_file(f))
        else:
            out.append(p)
    return out


def _scenarios_folder(p: Path) -> Path | None:
    """The scenarios folder of a ruleset folder or bundled ruleset name (its ruleset.yaml's
    `scenarios:`, else `scenarios`), or None when `p` is neither."""
    if not p.exists() and len(p.parts) == 1 and str(p) in bundled_names():
        p = bundled_dir() / p
    meta = p / "ruleset.yaml"
    if not p.is_dir() or not meta.is_file():
        return None
    try:
        doc = load_yaml(meta.read_text(encoding="utf-8"), str(meta), Diagnostics())
    except (OSError, UnicodeDecodeError):
        doc = None
    rel = doc.data.get("scenarios") if doc is not None and isinstance(doc.data, dict) else None
    return p / (rel if isinstance(rel, str) and rel else "scenarios")


def run_paths(
    paths: list[str],
    verbose: bool = False,
    select: Callable[[str], bool] | None = None,
    exitfirst: bool = False,
) -> Report:
    """Run every scenario found under `paths`; a path that does not exist is a failure.
    `select` keeps the scenarios whose path, name and rule it accepts (`-k`); `exitfirst` stops
    at the first failure (`-x`)."""
    report = Report(verbose=verbose)
    for f in find_scenarios(paths):
        if select is not None and not select(f"{show_path(f)} {f.stem} {_rule_of(f) or ''}"):
            report.deselected += 1
            continue
        if not f.exists():
            r = Result(f.stem, show_path(f), None, False, f"{show_path(f)}: no such file or folder")
        else:
            try:
                r = run_scenario(load_scenario(f))
            except ScenarioError as e:
                r = Result(f.stem, show_path(f), _rule_of(f), False, str(e))
        report.results.append(r)
        if r.ok:
            report.passed += 1
        else:
            report.failed += 1
            if exitfirst:
                report.stopped = True
                break
    return report


def _rule_of(path: Path) -> str | None:
    try:
        doc = load_yaml(path.read_text(encoding="utf-8"), str(path), Diagnostics())
    except (OSError, UnicodeDecodeError):
        return None
    data = doc.data if doc is not None else None
    rule = data.get("rule") if isinstance(data, dict) else None
    return rule if isinstance(rule, str) else None


# ---------------------------------------------------------------- loading and structure


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file and check its structure; ScenarioError lists every problem."""
    file = Path(path)
    shown = show_path(file)
    diags = Diagnostics()
    try:
        raw = file.read_bytes()
    except OSError as e:
        raise ScenarioError(f"{shown}: cannot read the file: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError(f"{shown}: not UTF-8 text (byte {e.start})") from None
    doc = load_yaml(text, shown, diags)
    if doc is None:
        raise ScenarioError(diags.render(), diags)
    sc = _Structure(doc, diags, file, shown).scenario()
    if diags.has_errors() or sc is None:
        raise ScenarioError(diags.render(), diags)
    return sc


class _Structure:
    """Checks the shape of a scenario file; values that need the ruleset are checked later."""

    def __init__(self, doc: YamlDoc, diags: Diagnostics, file: Path, shown: str):
        self.doc, self.diags, self.file, self.shown = doc, diags, file, shown

    def error(self, path: tuple, message: str, hint: str | None = None, key: bool = False):
        span = self.doc.key_span(path) if key else self.doc.span(path)
        self.diags.error(message, span, hint=hint, code="scenario")

    def keys(self, path: tuple, data: dict, allowed: tuple, where: str) -> None:
        for k in data:
            if k not in allowed:
                hint = did_you_mean(str(k), allowed)
                self.error(
                    (*path, k),
                    f"unknown key '{k}' in {where}",
                    hint or f"allowed: {', '.join(allowed)}",
                    key=True,
                )

    def want(self, path: tuple, value: Any, kinds: tuple, what: str) -> bool:
        if _is(value, kinds):
            return True
        names = {
            str: "text", int: "a whole number", bool: "true or false", list: "a list",
            dict: "a mapping", type(None): "null",
        }  # fmt: skip
        self.error(
            path, f"{what} must be {' or '.join(names[k] for k in kinds)}, not {_kind(value)}"
        )
        return False

    def scenario(self) -> Scenario | None:
        d = self.doc.data
        if not isinstance(d, dict):
            self.error((), "a scenario file is a mapping with `ruleset:`, `rule:` and `steps:`")
            return None
        self.keys((), d, TOP_KEYS, "a scenario")
        rule = d.get("rule")
        if rule is None or (isinstance(rule, str) and not rule.strip()):
            self.error(
                ("rule",) if "rule" in d else (),
                "a scenario must name the rule it checks",
                "add `rule: ...` with the rulebook section, clause or ruling, e.g. "
                '`rule: "rulebook 4.2: damage beyond health is lost"`',
            )
        else:
            self.want(("rule",), rule, (str,), "'rule'")
        ruleset = d.get("ruleset")
        if ruleset is None:
            self.error((), "a scenario must name its ruleset", "add `ruleset: NAME` (or a path)")
        else:
            self.want(("ruleset",), ruleset, (str,), "'ruleset'")
        name = d.get("name", self.file.stem)
        self.want(("name",), name, (str,), "'name'")
        options = d.get("options") or {}
        self.want(("options",), options, (dict,), "'options'")
        seed = d.get("seed", 0)
        self.want(("seed",), seed, (int,), "'seed'")
        cards = d.get("cards")
        if cards is not None:  # inline cards, or a card file or card-set folder (a path)
            self.want(("cards",), cards, (list, str), "'cards'")
        setup = None
        if "setup" in d:
            setup = d["setup"] if d["setup"] is not None else {}
            if self.want(("setup",), setup, (dict,), "'setup'"):
                self.setup(setup)
        start = d.get("start")
        if start is not None:
            self.want(("start",), start, (str,), "'start'")
        point, names = self.start_at(d)
        steps = self.steps(d)
        return Scenario(
            self.file, self.shown, name if isinstance(name, str) else self.file.stem,
            rule if isinstance(rule, str) else "", ruleset if isinstance(ruleset, str) else "",
            options if isinstance(options, dict) else {}, seed if isinstance(seed, int) else 0,
            cards, setup, start, steps, self.doc, point, names,
        )  # fmt: skip

    def start_at(self, d: dict) -> tuple[str | None, dict]:
        """`start_at: POINT` or `start_at: {point: POINT, let: {NAME: VALUE}}`."""
        if "start_at" not in d:
            return None, {}
        p = ("start_at",)
        v = d["start_at"]
        if "start" in d:
            self.error(p, "a scenario has `start:` or `start_at:`, not both", key=True)
        if isinstance(v, dict):
            self.keys(p, v, START_AT_KEYS, "start_at")
            if "point" not in v:
                self.error(p, "`start_at:` needs `point:` (a phase of the flow, `turn` or `round`)")
            names = v.get("let") or {}
            if self.want((*p, "point"), v.get("point"), (str,), "'point'") and self.want(
                (*p, "let"), names, (dict,), "'let'"
            ):
                for k, x in names.items():
                    self.want((*p, "let", k), x, (str, int, bool), f"the value of '{k}'")
                return v["point"], names
            return None, {}
        if self.want(p, v, (str, dict), "'start_at'"):
            return v, {}
        return None, {}

    # -- setup ------------------------------------------------------------------------------

    def setup(self, s: dict) -> None:
        p = ("setup",)
        self.keys(p, s, SETUP_KEYS, "setup")
        for k in ("turn", "round"):
            if k in s and self.want((*p, k), s[k], (int,), f"setup '{k}'") and s[k] < 0:
                self.error((*p, k), f"setup '{k}' must not be negative")
        if "phase" in s:
            self.want((*p, "phase"), s["phase"], (str,), "setup 'phase'")
        for k in ("active", "first"):
            if k in s:
                self.player((*p, k), s[k], f"setup '{k}'")
        self.zones((*p, "zones"), s)
        self.counters((*p, "counters"), s)
        self.player_counters((*p, "player_counters"), s)
        self.props((*p, "props"), s)

    def player(self, path: tuple, v: Any, what: str) -> None:
        if self.want(path, v, (str,), what) and not _PLAYER.fullmatch(v):
            self.error(path, f"{what}: {v!r} is not a player", "players are P1, P2, ...")

    def zones(self, path: tuple, parent: dict) -> None:
        if path[-1] not in parent or not self.want(path, parent[path[-1]], (dict,), "'zones'"):
            return
        for label, cards in parent[path[-1]].items():
            if self.want((*path, label), cards, (list,), f"zone '{label}'"):
                for i, c in enumerate(cards):
                    self.want((*path, label, i), c, (str,), "a card name")

    def counters(self, path: tuple, parent: dict) -> None:
        if path[-1] in parent:
            self.want(path, parent[path[-1]], (dict,), "'counters'")

    def player_counters(self, path: tuple, parent: dict) -> None:
        if path[-1] not in parent or not self.want(
            path, parent[path[-1]], (dict,), "'player_counters'"
        ):
            return
        for name, v in parent[path[-1]].items():
            if self.want((*path, name), v, (list, dict), f"player counter '{name}'") and isinstance(
                v, dict
            ):
                for who in v:
                    self.player((*path, name, who), who, f"player counter '{name}'")

    def props(self, path: tuple, parent: dict) -> None:
        if path[-1] not in parent or not self.want(path, parent[path[-1]], (dict,), "'props'"):
            return
        for ref, values in parent[path[-1]].items():
            self.objref((*path, ref), ref)
            self.want((*path, ref), values, (dict,), f"the properties of '{ref}'")

    def objref(self, path: tuple, ref: Any) -> None:
        if not isinstance(ref, str) or not re.fullmatch(r".+/-?[0-9]+", ref):
            self.error(
                path,
                f"{ref!r} does not name an object",
                "write ZONE/INDEX, e.g. 'hand#1/0' (index 0 is the front; -1 the back)",
                key=True,
            )

    # -- steps ------------------------------------------------------------------------------

    def steps(self, d: dict) -> list[Step]:
        raw = d.get("steps")
        if raw is None:
            self.error((), "a scenario needs `steps:` (a list of expect, choose and error steps)")
            return []
        if not self.want(("steps",), raw, (list,), "'steps'"):
            return []
        if not raw:
            self.error(("steps",), "`steps:` is empty: a scenario without steps checks nothing")
        out = []
        for i, s in enumerate(raw):
            step = self.step(i, s)
            if step is not None:
                out.append(step)
                if step.kind == "error" and i != len(raw) - 1:
                    self.error(
                        ("steps", i + 1),
                        "nothing can follow an `error:` step (the game stopped there)",
                    )
        return out

    def step(self, i: int, s: Any) -> Step | None:
        p = ("steps", i)
        line = self.doc.span(p).line
        if not isinstance(s, dict):
            self.error(p, f"step {i + 1} must be a mapping with expect:, choose: or error:")
            return None
        self.keys(p, s, STEP_KEYS, f"step {i + 1}")
        kinds = [k for k in STEP_KINDS if k in s]
        if not kinds and any(k not in STEP_KEYS for k in s):
            return None  # the unknown key is reported (with a "did you mean")
        if len(kinds) != 1:
            self.error(
                p,
                f"step {i + 1} must have exactly one of expect:, choose:, error:"
                + (f" (it has {', '.join(kinds)})" if kinds else ""),
            )
            return None
        kind = kinds[0]
        v = s[kind]
        if "by" in s:
            if kind != "choose":
                self.error((*p, "by"), "`by:` goes with `choose:` only", key=True)
            else:
                self.player((*p, "by"), s["by"], "'by'")
        if kind == "expect":
            self.expect((*p, "expect"), v, i)
        elif kind == "choose":
            self.choose((*p, "choose"), v)
        elif self.want((*p, "error"), v, (str,), "'error'") and not v:
            self.error((*p, "error"), "'error' needs a part of the expected message")
        return Step(i + 1, kind, v, line, s.get("by"))

    def choose(self, path: tuple, v: Any) -> None:
        items = v if isinstance(v, list) else [v]
        if isinstance(v, list) and not v:
            self.error(path, "'choose' needs at least one option")
        for k, c in enumerate(items):
            cp = (*path, k) if isinstance(v, list) else path
            if isinstance(c, dict):
                if set(c) != {"index"} or not _is(c.get("index"), (int,)):
                    self.error(cp, "a choice is an option's label or {index: N}")
                elif c["index"] < 0:
                    self.error(cp, "an option index counts from 0")
            elif not _is(c, (str, int, bool)):
                self.error(cp, f"a choice is an option's label or {{index: N}}, not {_kind(c)}")

    def expect(self, p: tuple, e: Any, i: int) -> None:
        if not self.want(p, e, (dict,), "'expect'"):
            return
        if not e:
            self.error(p, f"step {i + 1}: `expect:` is empty")
        self.keys(p, e, EXPECT_KEYS, "expect")
        for k in ("options", "options_include", "options_exclude", "events", "no_events"):
            if k in e and self.want((*p, k), e[k], (list,), f"'{k}'"):
                for j, x in enumerate(e[k]):
                    self.want((*p, k, j), x, (str, int, bool), f"an entry of '{k}'")
                    if k.endswith("events") and isinstance(x, str) and x.count("(") != x.count(")"):
                        self.error(
                            (*p, k, j),
                            f"unbalanced parentheses in {x!r}",
                            "YAML splits a [a, b] list at every comma: quote an event with "
                            'arguments, e.g. "move(CARD, zone#1)"',
                        )
        for k in ("prompt", "phase"):
            if k in e:
                self.want((*p, k), e[k], (str,), f"'{k}'")
        for k in ("player", "active"):
            if k in e:
                self.player((*p, k), e[k], f"'{k}'")
        for k in ("turn", "round"):
            if k in e:
                self.want((*p, k), e[k], (int,), f"'{k}'")
        if "over" in e:
            self.want((*p, "over"), e["over"], (bool,), "'over'")
        if "winner" in e:
            w = e["winner"]
            if w is None or w == "none":
                pass
            elif isinstance(w, list):
                for j, x in enumerate(w):
                    self.player((*p, "winner", j), x, "'winner'")
            else:
                self.player((*p, "winner"), w, "'winner'")
        self.zones((*p, "zones"), e)
        self.counters((*p, "counters"), e)
        self.player_counters((*p, "player_counters"), e)
        if "area_counters" in e and self.want(
            (*p, "area_counters"), e["area_counters"], (dict,), "'area_counters'"
        ):
            for name, v in e["area_counters"].items():
                self.want((*p, "area_counters", name), v, (dict,), f"area counter '{name}'")
        self.props((*p, "props"), e)
        if "cards" in e and self.want((*p, "cards"), e["cards"], (dict,), "'cards'"):
            for ref, name in e["cards"].items():
                self.objref((*p, "cards", ref), ref)
                self.want((*p, "cards", ref), name, (str, type(None)), "a card name")
        if "counts" in e and self.want((*p, "counts"), e["counts"], (dict,), "'counts'"):
            for label, n in e["counts"].items():
                self.want((*p, "counts", label), n, (int,), f"the count of '{label}'")
        if "sees" in e and self.want((*p, "sees"), e["sees"], (dict,), "'sees'"):
            for who, zones in e["sees"].items():
                self.player((*p, "sees", who), who, "'sees'")
                if self.want((*p, "sees", who), zones, (dict,), f"what {who} sees"):
                    for label, v in zones.items():
                        self.want(
                            (*p, "sees", who, label),
                            v,
                            (list, int),
                            f"what {who} sees of '{label}' (card names, '?' for a card seen "
                            "from behind, or a number: only a count)",
                        )
        if "keywords" in e and self.want((*p, "keywords"), e["keywords"], (dict,), "'keywords'"):
            for ref, v in e["keywords"].items():
                self.objref((*p, "keywords", ref), ref)
                kp = (*p, "keywords", ref)
                if isinstance(v, dict):
                    self.keys(kp, v, ("has", "lacks"), f"the keywords of '{ref}'")
                    for k2 in ("has", "lacks"):
                        if k2 in v:
                            self.want((*kp, k2), v[k2], (list,), f"'{k2}'")
                else:
                    self.want(kp, v, (list, dict), f"the keywords of '{ref}'")


def _is(v: Any, kinds: tuple) -> bool:
    if isinstance(v, bool):
        return bool in kinds
    if v is None:
        return type(None) in kinds
    return isinstance(v, tuple(k for k in kinds if k is not bool))


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return f"the number {v}"
    if isinstance(v, str):
        return f"the text {v!r}"
    return {list: "a list", dict: "a mapping"}.get(type(v), type(v).__name__)


# ---------------------------------------------------------------- running


class _Failed(Exception):
    """Internal: the scenario failed; the message says why."""


def run_scenario(sc: Scenario) -> Result:
    """Play the scenario; `ok` is False with a message when anything differs or goes wrong."""
    try:
        _Runner(sc).run()
    except _Failed as e:
        return Result(sc.name, sc.path, sc.rule or None, False, str(e))
    except Exception as e:  # an engine bug must not stop the other scenarios
        tb = "".join(traceback.format_exception(e)[-6:])
        return Result(
            sc.name, sc.path, sc.rule or None, False,
            f"{sc.path}: internal error while running the scenario: {type(e).__name__}: {e}\n{tb}",
        )  # fmt: skip
    return Result(sc.name, sc.path, sc.rule or None, True)


_snippets: dict[tuple, tuple[Program, int]] = {}


def scenario_program(ref: str, cards: tuple[str, ...] = ()) -> Program:
    """The ruleset compiled for scenarios: a Program of their own, not the one `load_program`
    shares with games, because each `start:` adds its compiled statements to the Program."""
    return scenario_build(ref, cards).program


def scenario_build(ref: str, cards: tuple[str, ...] = ()) -> Loaded:
    """What the build stage made of the ruleset for scenarios: the Program, the declarations the
    runner checks names against, and the compiler that compiles each `start:` snippet."""
    key = str(Path(ref).resolve()) if Path(ref).exists() else ref
    return _scenario_build(key, tuple(str(Path(c).resolve()) for c in cards))


@lru_cache(maxsize=16)
def _scenario_build(ref: str, cards: tuple[str, ...]) -> Loaded:
    diags = Diagnostics()
    loaded = load_ruleset(ref, diags, list(cards))
    if loaded is None or loaded.program is None or diags.has_errors():
        raise MadangError(f"ruleset '{ref}' has errors", diags)
    loaded.program.folder = loaded.folder
    return loaded


class _Runner:
    def __init__(self, sc: Scenario):
        self.sc = sc
        self.doc = sc.doc
        self.error: tuple[RulesError, str] | None = None  # raised by the last run, and when
        self.mark = 0  # log position of the previous expect

    # -- helpers ----------------------------------------------------------------------------

    def at(self, path: tuple) -> str:
        return f"{self.sc.path}:{self.doc.span(path).line}"

    def fail_diags(self, diags: Diagnostics) -> None:
        raise _Failed(diags.render().rstrip())

    def run(self) -> None:
        sc = self.sc
        self.build = self.load()
        prog = self.build.program
        # the ruleset's own setup runs unless the scenario gives the position or its start
        own = sc.setup is None and sc.start is None
        try:
            pos = (Position.new if own else Position.blank)(prog, sc.options, sc.seed)
        except MadangError as e:
            raise _Failed(f"{self.at(('options',))}: error: {e}") from None
        self.pos, self.prog, self.g = pos, prog, pos.st.g
        self.zone_ids = pos.zone_labels()
        diags = Diagnostics()
        diags.add_source(sc.path, sc.doc.text)
        self.diags = diags
        if sc.setup is not None:
            self.check_setup(sc.setup)
        if sc.start_at is not None:
            self.check_start_at()
        for i, step in enumerate(sc.steps):
            self.check_step(i, step)
        try:
            block = self.compile_start() if sc.start is not None else None
        except SnippetError as e:
            problems = diags.render().rstrip() if diags.has_errors() else ""
            raise _Failed("\n".join(x for x in (problems, str(e).rstrip()) if x)) from None
        if diags.has_errors():
            self.fail_diags(diags)
        if sc.setup is not None:
            self.apply_setup(sc.setup)
        self.go("at the start", lambda: self.begin(block))
        for step in sc.steps:
            getattr(self, "step_" + step.kind)(step)
        if self.error is not None:
            err, when = self.error
            raise _Failed(
                f"{self.at(('steps', len(sc.steps) - 1))}: the rules raised an error {when}: {err}"
            )

    def go(self, when: str, fn: Callable[[], None]) -> None:
        try:
            fn()
        except RulesError as e:
            self.error = (e, when)

    # -- the program ------------------------------------------------------------------------

    def ruleset_ref(self) -> str:
        ref = self.sc.ruleset
        local = self.sc.file.parent / ref
        return str(local) if ("/" in ref or ref.startswith(".")) or local.is_dir() else ref

    def load(self) -> Loaded:
        ref = self.ruleset_ref()
        try:
            built = scenario_build(ref)
        except MadangError as e:
            raise _Failed(self.ruleset_problems(e)) from None
        if self.sc.cards is None:
            return built
        if isinstance(self.sc.cards, str):  # a card file or card set beside the scenario
            try:
                return scenario_build(ref, (str(self.sc.file.parent / self.sc.cards),))
            except MadangError as e:
                raise _Failed(self.ruleset_problems(e)) from None
        tmp, content = self.card_file(built.program.name)
        try:
            with overlay({tmp: content}):  # read from memory: no file is written or trusted
                return scenario_build(ref, (str(tmp),))
        except MadangError as e:
            raise _Failed(self.remap(e, tmp)) from None

    def ruleset_problems(self, e: MadangError) -> str:
        """Why the ruleset did not load; problems without a place in a file (an unknown
        ruleset) are shown at the scenario's `ruleset:`."""
        if not e.diags or not e.diags.items:
            return f"{self.at(('ruleset',))}: error: {e}"
        out = Diagnostics(sources=dict(e.diags.sources))
        out.sources[self.sc.path] = self.doc.text
        here = dataclasses.replace(self.doc.span(("ruleset",)), file=self.sc.path)
        for d in e.diags.items:
            out.items.append(dataclasses.replace(d, span=here) if d.span.line <= 0 else d)
        return out.render().rstrip()

    def card_file(self, ruleset_name: str) -> tuple[Path, str]:
        """The inline cards as a card file of their own, each card on the same line as in the
        scenario (so that problems in them are reported at the scenario's lines). The file is
        never written: its path (beside the scenario, named by the content's digest, so that
        compiled programs are cached per content) is read from memory through an overlay."""
        doc = self.doc
        text = doc.text
        lines = _LINE_BREAK.split(text)
        first = doc.key_span(("cards",)).line
        end = doc.span(("cards",))
        last = end.end_line if end.end_col > 1 else end.end_line - 1
        last = max(min(last, len(lines)), first)
        others = [doc.key_span((k,)).line for k in doc.data if k != "cards"]
        if any(first <= ln <= last for ln in others):  # flow style: fall back to plain YAML
            import yaml

            content = yaml.safe_dump(
                {"ruleset": ruleset_name, "cards": self.sc.cards}, allow_unicode=True
            )
        else:
            out = ["" for _ in lines]
            out[first - 1 : last] = lines[first - 1 : last]
            head = f"ruleset: {_quote(ruleset_name)}"
            if first > 1:
                out[0] = head
            else:
                out.insert(last, head)
            content = "\n".join(out) + "\n"
        digest = hashlib.sha256(content.encode("utf-8")).hexdigest()[:24]
        return self.sc.file.parent / f".{self.sc.file.stem}.cards-{digest}.yaml", content

    def remap(self, e: MadangError, tmp: Path) -> str:
        """Problems in the inline cards, shown at the scenario's own lines."""
        if not e.diags or not e.diags.items:
            return f"{self.at(('cards',))}: error: {e}"
        out = Diagnostics(sources=dict(e.diags.sources))
        out.sources[self.sc.path] = self.doc.text
        for d in e.diags.items:
            if _same_file(d.span.file, tmp):
                d = dataclasses.replace(d, span=dataclasses.replace(d.span, file=self.sc.path))
            out.items.append(d)
        return out.render().rstrip()

    @property
    def st(self):
        return self.pos.st

    def begin(self, block: int | None) -> None:
        """Start the game as the scenario says, then run it to the first decision."""
        sc, pos = self.sc, self.pos
        if block is not None:
            pos.start_block(block)
        elif sc.start_at is not None:
            try:
                pos.start_at(sc.start_at, sc.start_names)
            except MadangError as e:  # a name without a value, a setup that asks
                span = self.doc.span(("start_at",))
                self.diags.error(str(e), span, code="scenario")
                self.fail_diags(self.diags)
        elif sc.setup is not None:
            pos.start_flow()
        pos.run()

    def compile_start(self) -> int:
        """`start:` compiled against the ruleset, each line at its own line and column of the
        scenario file (blank `pass` lines stand for the lines above it)."""
        origin = self.doc.text_origin(("start",))
        first_pad = " " * max(origin.col - 1, 0)
        pad = " " * max((origin.indent if origin.indent is not None else origin.col) - 1, 0)
        body = self.sc.start.split("\n")
        lines = [pad + "pass"] * max(origin.line - 1, 0)
        lines += [
            (first_pad if k == 0 else pad) + ln if ln.strip() else "" for k, ln in enumerate(body)
        ]
        text = "\n".join(lines)
        types = {f"P{k + 1}": "player" for k in range(self.g.nplayers)}
        key = (id(self.prog), self.sc.path, text, tuple(types))
        hit = _snippets.get(key)
        if hit is not None and hit[0] is self.prog:
            return hit[1]
        block = compile_snippet(self.build.compiler, text, types, file=self.sc.path)
        _snippets[key] = (self.prog, block)
        return block

    # -- names checked against the ruleset ---------------------------------------------------

    def err(self, path: tuple, message: str, hint: str | None = None, key: bool = False) -> None:
        span = self.doc.key_span(path) if key else self.doc.span(path)
        self.diags.error(message, span, hint=hint, code="scenario")

    def lookup(self, path: tuple, find: Callable[[], Any], key: bool = False) -> Any:
        """`find()` asks the setup layer for a name; what it does not know is reported here."""
        try:
            return find()
        except SetupError as e:
            self.err(path, e.message, e.hint, key=key)
            return None

    def seat(self, path: tuple, name: str) -> int | None:
        if not (isinstance(name, str) and _PLAYER.fullmatch(name)):
            return None  # reported with the file's structure
        return self.lookup(path, lambda: self.pos.player(name))

    def zone(self, path: tuple, label: str, key: bool = True) -> int | None:
        return self.lookup(path, lambda: self.pos.zone(label), key)

    def card(self, path: tuple, name: str) -> None:
        self.lookup(path, lambda: self.pos.card(name))

    def counter(self, path: tuple, name: str, scope: str) -> bool:
        return self.lookup(path, lambda: self.pos.counter_scope(name, scope) or True, True) is True

    def check_start_at(self) -> None:
        """The point exists, a game can start there, and the names given are the flow's."""
        sc = self.sc
        p = (
            ("start_at",)
            if isinstance(self.doc.data.get("start_at"), str)
            else ("start_at", "point")
        )
        fp = self.lookup(p, lambda: self.pos.flow_point(sc.start_at))
        if fp is None:
            return
        if fp.blocked:
            self.err(p, f"a game cannot start at {sc.start_at} ({fp.span}): {fp.blocked}")
        known = [name for name, _v, _s in fp.names]
        for name, value, span in fp.names:
            if value is None and name not in sc.start_names:
                self.err(
                    p,
                    f"the flow's name '{name}' ({span}) has no value at {sc.start_at}: no `let`"
                    " declares one",
                    f"give it: start_at: {{point: {sc.start_at}, let: {{{name}: ...}}}}",
                )
        for name, v in sc.start_names.items():
            if name not in known:
                self.err(
                    ("start_at", "let", name),
                    f"the flow has no name '{name}' at {sc.start_at}",
                    did_you_mean(str(name), known)
                    or f"its names there: {', '.join(known) or 'none'}",
                    key=True,
                )
            elif isinstance(v, str) and _PLAYER.fullmatch(v):
                self.seat(("start_at", "let", name), v)

    def prop(self, path: tuple, name: str) -> None:
        fields = self.build.syms.fields
        if name not in fields:
            self.err(
                path,
                f"no property '{name}'",
                did_you_mean(str(name), fields) or f"properties: {', '.join(fields)}",
                key=True,
            )

    def objref_zone(self, path: tuple, ref: str) -> None:
        if isinstance(ref, str) and "/" in ref:
            self.zone(path, ref.rsplit("/", 1)[0])

    def event(self, path: tuple, text: Any) -> None:
        name, _ = _parse_event(str(text))
        if self.canon_event(name) is None:
            known = sorted(set(self.prog.verbs) | set(self.build.syms.events) | self.action_names())
            self.err(path, f"no event or action '{name}'", did_you_mean(name, known))

    def action_names(self) -> set[str]:
        return {a.name for a in self.prog.actions}

    def canon_event(self, name: str) -> str | None:
        c = self.build.syms.canonical.get(name, name)
        if c in self.prog.verbs or c in self.build.syms.events or c in self.action_names():
            return c
        return None

    def keyword(self, path: tuple, name: Any) -> None:
        kws = self.build.syms.keywords
        if name not in kws:
            self.err(path, f"no keyword '{name}'", did_you_mean(str(name), kws))

    def check_setup(self, s: dict) -> None:
        p = ("setup",)
        for k in ("active", "first"):
            if k in s:
                self.seat((*p, k), s[k])
        sizes: dict[str, int] = {}
        for label, cards in (s.get("zones") or {}).items():
            if self.zone((*p, "zones", label), label) is not None:
                sizes[label] = len(cards)
            for i, c in enumerate(cards):
                self.card((*p, "zones", label, i), c)
        self.check_counters(p, s)
        for ref, values in (s.get("props") or {}).items():
            rp = (*p, "props", ref)
            label, _, idx = ref.rpartition("/")
            if label in sizes:
                n = sizes[label]
                if not -n <= int(idx) < n:
                    self.err(rp, f"'{ref}': setup puts {n} card(s) in {label}", key=True)
                    continue
                name = s["zones"][label][int(idx)]
                ci = self.prog.card_index.get(name)
                for prop in values:
                    self.setup_prop((*rp, prop), ci, prop, values[prop])
            elif self.zone(rp, label) is not None:
                self.err(rp, f"'{ref}': setup puts no card in {label}", key=True)

    def setup_prop(self, path: tuple, ci: int | None, prop: str, value: Any) -> None:
        fields = self.build.syms.fields
        if prop not in fields:
            self.prop(path, prop)
            return
        if ci is None:
            return
        card = self.prog.cards[ci]
        kind = self.build.syms.kinds.get(card.kind)
        if kind is not None and prop not in kind.fields:
            self.err(path, f"a {card.kind} ({card.name}) has no property '{prop}'", key=True)
            return
        want = fields[prop].type
        ok = {"number": (int,), "bool": (bool,), "text": (str,)}.get(want)
        if ok is not None and not _is(value, ok):
            shown = {"number": "a number", "bool": "true or false", "text": "text"}[want]
            self.err(path, f"'{prop}' is {shown}, not {_kind(value)}")

    def check_counters(self, p: tuple, d: dict) -> None:
        for name in d.get("counters") or {}:
            self.counter((*p, "counters", name), name, "global")
        for name, v in (d.get("area_counters") or {}).items():
            ap = (*p, "area_counters", name)
            if self.counter(ap, name, "area") and isinstance(v, dict):
                for a in v:
                    if a not in self.g.areas:
                        self.err((*ap, a), f"no area '{a}'", did_you_mean(str(a), self.g.areas))
        for name, v in (d.get("player_counters") or {}).items():
            cp = (*p, "player_counters", name)
            if self.counter(cp, name, "player"):
                if isinstance(v, list) and len(v) != self.g.nplayers:
                    self.err(cp, f"'{name}' needs {self.g.nplayers} values, one per player")
                elif isinstance(v, dict):
                    for who in v:
                        self.seat((*cp, who), who)

    def check_step(self, i: int, step: Step) -> None:
        p = ("steps", i, step.kind)
        if step.by is not None:
            self.seat(("steps", i, "by"), step.by)
        if step.kind != "expect":
            return
        e = step.value
        for k in ("player", "active"):
            if k in e:
                self.seat((*p, k), e[k])
        w = e.get("winner")
        for j, x in enumerate(w if isinstance(w, list) else [w] if w not in (None, "none") else []):
            self.seat((*p, "winner", j) if isinstance(w, list) else (*p, "winner"), x)
        for label, cards in (e.get("zones") or {}).items():
            self.zone((*p, "zones", label), label)
            for j, c in enumerate(cards):
                self.card((*p, "zones", label, j), c)
        self.check_counters(p, e)
        for ref, values in (e.get("props") or {}).items():
            self.objref_zone((*p, "props", ref), ref)
            for prop in values:
                self.prop((*p, "props", ref, prop), prop)
        for ref, name in (e.get("cards") or {}).items():
            self.objref_zone((*p, "cards", ref), ref)
            if isinstance(name, str):
                self.card((*p, "cards", ref), name)
        for label in e.get("counts") or {}:
            self.zone((*p, "counts", label), label)
        for who, zones in (e.get("sees") or {}).items():
            self.seat((*p, "sees", who), who)
            for label, v in zones.items():
                self.zone((*p, "sees", who, label), label)
                for j, c in enumerate(v if isinstance(v, list) else []):
                    if c != "?":
                        self.card((*p, "sees", who, label, j), c)
        for ref, v in (e.get("keywords") or {}).items():
            self.objref_zone((*p, "keywords", ref), ref)
            for k2, names in _keyword_lists(v):
                for j, kw in enumerate(names):
                    self.keyword((*p, "keywords", ref, *k2, j), kw)
        for k in ("events", "no_events"):
            for j, ev in enumerate(e.get(k) or []):
                self.event((*p, k, j), ev)

    # -- the starting state ------------------------------------------------------------------

    def apply_setup(self, s: dict) -> None:
        """The checked `setup:` through the public setup layer (game/position.py)."""
        pos = self.pos
        for key, put in (("active", pos.set_active), ("first", pos.set_first),
                         ("turn", pos.set_turn), ("round", pos.set_round),
                         ("phase", pos.set_phase)):  # fmt: skip
            if key in s:
                put(s[key])
        for label, cards in (s.get("zones") or {}).items():
            pos.place(label, cards)
        for name, v in (s.get("counters") or {}).items():
            pos.set_counter(name, v)
        for name, v in (s.get("player_counters") or {}).items():
            for k, x in self.per_player(v):
                pos.set_counter(name, x, player=k)
        for ref, values in (s.get("props") or {}).items():
            for prop, v in values.items():
                pos.set_prop(ref, prop, v)

    def per_player(self, v: list | dict) -> list[tuple[int, Any]]:
        if isinstance(v, list):
            return list(enumerate(v))
        return [(int(who[1:]) - 1, x) for who, x in v.items()]

    def obj(self, ref: str) -> int | None:
        return self.pos.obj(ref)

    # -- steps ------------------------------------------------------------------------------

    def head(self, step: Step) -> str:
        return f"{self.at(('steps', step.number - 1))}: step {step.number} ({step.kind})"

    def stop_if_error(self, step: Step) -> None:
        if self.error is not None:
            err, when = self.error
            raise _Failed(f"{self.head(step)}: the rules raised an error {when}: {err}")

    def waiting(self) -> str:
        st = self.st
        if st.over:
            return f"the game is over ({_winners(st.winners)})"
        d = st.pending
        if d is None:
            return "no decision is pending"
        return f"P{d.player + 1} decides '{d.prompt}'"

    def labels(self) -> list[str]:
        if self.st.over or self.st.pending is None:
            return []
        return list(optionlabels.decision_labels(self.st))

    def named(self) -> set[str]:
        """The options' labels and their plain readings (`play_card Echo` for either Echo)."""
        if self.st.over or self.st.pending is None:
            return set()
        return set(self.labels()) | set(optionlabels.plain_labels(self.st))

    def step_choose(self, step: Step) -> None:
        items = step.value if isinstance(step.value, list) else [step.value]
        for k, c in enumerate(items):
            self.stop_if_error(step)
            which = f" (choice {k + 1} of {len(items)})" if len(items) > 1 else ""
            st = self.st
            if st.over or st.pending is None:
                raise _Failed(f"{self.head(step)}{which}: nothing to choose: {self.waiting()}")
            labels = self.labels()
            if step.by is not None and st.pending.player != int(step.by[1:]) - 1:
                raise _Failed(
                    f"{self.head(step)}{which}: {step.by} was to choose, but {self.waiting()}"
                )
            if isinstance(c, dict):
                i = c["index"]
                if i >= len(labels):
                    raise _Failed(
                        f"{self.head(step)}{which}: no option {i}: {self.waiting()} among "
                        f"{len(labels)} options (0..{len(labels) - 1}):\n" + _listing(labels)
                    )
            else:
                text = _text(c)
                found = optionlabels.find(st, text)  # or the first of copies named alike
                if found is None:
                    hint = did_you_mean(text, labels)
                    raise _Failed(
                        f"{self.head(step)}{which}: '{text}' is not a legal option; "
                        f"{self.waiting()} among:\n"
                        + _listing(labels)
                        + (f"\n  hint: {hint}" if hint else "")
                    )
                i = found
            when = f"after step {step.number}" + (f" (choice {k + 1})" if len(items) > 1 else "")
            self.go(when, lambda i=i: self.apply(i))

    def apply(self, i: int) -> None:
        self.pos.game.apply_action(i)

    def step_error(self, step: Step) -> None:
        want = step.value
        if self.error is None:
            raise _Failed(
                f"{self.head(step)}: expected an error containing {want!r}, "
                f"but none was raised ({self.waiting()})"
            )
        err, when = self.error
        if want not in str(err):
            raise _Failed(
                f"{self.head(step)}: expected an error containing {want!r}; "
                f"the error raised {when} was: {err}"
            )
        self.error = None

    def step_expect(self, step: Step) -> None:
        self.stop_if_error(step)
        problems: list[str] = []
        for key, want in step.value.items():
            getattr(self, "expect_" + key)(want, problems)
        self.mark = len(self.st.log)
        if problems:
            raise _Failed(f"{self.head(step)}:\n" + "\n".join("  " + p for p in problems))

    # -- expectations: each appends what differs to `out` -----------------------------------

    def expect_options(self, want: list, out: list) -> None:
        got = self.labels()
        want = [_text(x) for x in want]
        if got != want:
            out.append(
                f"options: expected {_show(want)}\n           got {_show(got)}"
                + ("" if got else f" ({self.waiting()})")
            )

    def expect_options_include(self, want: list, out: list) -> None:
        got = self.labels()
        named = self.named()
        missing = [_text(x) for x in want if _text(x) not in named]
        if missing:
            out.append(f"options: missing {_show(missing)}; got {_show(got)}"
                       + ("" if got else f" ({self.waiting()})"))  # fmt: skip

    def expect_options_exclude(self, want: list, out: list) -> None:
        got = self.labels()
        named = self.named()
        present = [_text(x) for x in want if _text(x) in named]
        if present:
            out.append(f"options: should not offer {_show(present)}; got {_show(got)}")

    def expect_prompt(self, want: str, out: list) -> None:
        d = self.st.pending
        if self.st.over or d is None:
            out.append(f"prompt: expected '{want}', but {self.waiting()}")
        elif d.prompt != want:
            out.append(f"prompt: expected '{want}', got '{d.prompt}'")

    def expect_player(self, want: str, out: list) -> None:
        d = self.st.pending
        if self.st.over or d is None:
            out.append(f"player: expected {want} to decide, but {self.waiting()}")
        elif f"P{d.player + 1}" != want:
            out.append(f"player: expected {want} to decide, got P{d.player + 1} ('{d.prompt}')")

    def expect_active(self, want: str, out: list) -> None:
        if f"P{self.st.active + 1}" != want:
            out.append(f"active: expected {want}, got P{self.st.active + 1}")

    def expect_turn(self, want: int, out: list) -> None:
        if self.st.turn != want:
            out.append(f"turn: expected {want}, got {self.st.turn}")

    def expect_round(self, want: int, out: list) -> None:
        if self.st.round != want:
            out.append(f"round: expected {want}, got {self.st.round}")

    def expect_phase(self, want: str, out: list) -> None:
        if self.st.phase != self.prog.phase_names.get(want, want):
            out.append(f"phase: expected '{want}', got '{self.st.phase}'")

    def expect_over(self, want: bool, out: list) -> None:
        if self.st.over != want:
            out.append(
                f"over: expected the game to be {'over' if want else 'going on'}, "
                f"but {self.waiting() if not self.st.over else 'it is over (' + _winners(self.st.winners) + ')'}"
            )

    def expect_winner(self, want: Any, out: list) -> None:
        st = self.st
        names = [] if want in (None, "none") else want if isinstance(want, list) else [want]
        expected = sorted(int(n[1:]) - 1 for n in names)
        if not st.over:
            out.append(f"winner: expected {_winners(expected)}, but {self.waiting()}")
        elif sorted(st.winners) != expected:
            out.append(f"winner: expected {_winners(expected)}, got {_winners(st.winners)}")

    def expect_zones(self, want: dict, out: list) -> None:
        st, prog = self.st, self.prog
        for label, cards in want.items():
            got = [prog.cards[st.obj_card[o]].name for o in st.zones[self.zone_ids[label]]]
            if got != list(cards):
                out.append(f"{label}: expected {_show(cards)}\n" + " " * (len(label) + 2)
                           + f"     got {_show(got)}")  # fmt: skip

    def expect_counters(self, want: dict, out: list) -> None:
        for name, v in want.items():
            got = self.st.counters.get(name)
            if not _same(got, v):
                out.append(f"counter {name}: expected {_show(v)}, got {_show(got)}")

    def expect_area_counters(self, want: dict, out: list) -> None:
        for name, v in want.items():
            row = self.st.acounters.get(name, [])
            for a, x in v.items():
                got = row[self.st.g.areas.index(a)]
                if not _same(got, x):
                    out.append(f"{name}@{a}: expected {_show(x)}, got {_show(got)}")

    def expect_player_counters(self, want: dict, out: list) -> None:
        for name, v in want.items():
            row = self.st.pcounters.get(name, [])
            if isinstance(v, list):
                if not (len(row) == len(v) and all(_same(a, b) for a, b in zip(row, v))):
                    out.append(f"{name}: expected {_show(v)}, got {_show(row)}")
            else:
                for k, x in self.per_player(v):
                    if not _same(row[k], x):
                        out.append(f"{name} of P{k + 1}: expected {_show(x)}, got {_show(row[k])}")

    def expect_props(self, want: dict, out: list) -> None:
        for ref, values in want.items():
            o = self.obj(ref)
            if o is None:
                out.append(f"{ref}: no object there ({self.describe_zone(ref)})")
                continue
            name = self.prog.cards[self.st.obj_card[o]].name
            for prop, v in values.items():
                got = self.prog.read_prop(self.st, o, prop)
                if not _same(got, v):
                    out.append(f"{ref} ({name}).{prop}: expected {_show(v)}, got {_show(got)}")

    def expect_cards(self, want: dict, out: list) -> None:
        for ref, name in want.items():
            o = self.obj(ref)
            got = None if o is None else self.prog.cards[self.st.obj_card[o]].name
            if got != name:
                where = f" ({self.describe_zone(ref)})" if o is None else ""
                out.append(f"{ref}: expected {_show(name)}, got {_show(got)}{where}")

    def expect_counts(self, want: dict, out: list) -> None:
        for label, n in want.items():
            got = len(self.st.zones[self.zone_ids[label]])
            if got != n:
                out.append(f"{label}: expected {n} card{'s' if n != 1 else ''}, got {got}")

    def expect_sees(self, want: dict, out: list) -> None:
        """What a player's observation shows of a zone: its cards, or only how many."""
        for who, zones in want.items():
            seen = self.pos.game.observation(int(who[1:]) - 1)["zones"]
            for label, v in zones.items():
                got = seen[label]
                if isinstance(v, int):
                    if isinstance(got, list):
                        out.append(
                            f"{who} sees {label}: expected only a count ({v}), sees {_show(got)}"
                        )
                    elif got["count"] != v:
                        out.append(
                            f"{who} sees {label}: expected a count of {v}, got {got['count']}"
                        )
                    elif got.get("known"):  # a number: no card of the zone is seen
                        seen_now = ["?"] * got["count"]
                        for i, name in got["known"]:
                            seen_now[i] = name
                        out.append(
                            f"{who} sees {label}: expected only a count ({v}), sees "
                            + _show(seen_now)
                        )
                elif not isinstance(got, list):
                    # a hidden zone: '?' for each card seen from behind, names for revealed ones
                    seen_now = ["?"] * got["count"]
                    for i, name in got.get("known") or ():
                        seen_now[i] = name
                    if seen_now != list(v):
                        out.append(
                            f"{who} sees {label}: expected {_show(v)}, sees "
                            + (
                                _show(seen_now)
                                if got.get("known")
                                else f"only a count ({got['count']})"
                            )
                        )
                elif got != list(v):
                    out.append(f"{who} sees {label}: expected {_show(v)}, got {_show(got)}")

    def expect_keywords(self, want: dict, out: list) -> None:
        canon = self.build.syms.canonical
        for ref, v in want.items():
            o = self.obj(ref)
            if o is None:
                out.append(f"{ref}: no object there ({self.describe_zone(ref)})")
                continue
            name = self.prog.cards[self.st.obj_card[o]].name
            for k2, names in _keyword_lists(v):
                lacks = k2 == ("lacks",)
                for kw in names:
                    has = self.prog.has(self.st, o, canon.get(kw, kw))
                    if has == lacks:
                        out.append(
                            f"{ref} ({name}): expected {'not ' if lacks else ''}to have {kw}"
                        )

    def describe_zone(self, ref: str) -> str:
        label = ref.rpartition("/")[0]
        n = len(self.st.zones[self.zone_ids[label]])
        return f"{label} holds {n} card{'s' if n != 1 else ''}"

    def logged_events(self) -> list[tuple[str, list[str]]]:
        out = []
        for entry in self.st.log[self.mark :]:
            if "event" in entry:
                out.append((entry["event"], entry.get("args") or []))
            elif "action" in entry:
                out.append((entry["action"], entry.get("args") or []))
        return out

    def expect_events(self, want: list, out: list) -> None:
        logged = self.logged_events()
        pos = 0
        for k, text in enumerate(want):
            name, args = _parse_event(_text(text))
            name = self.canon_event(name) or name
            while pos < len(logged) and not _event_matches(logged[pos], name, args):
                pos += 1
            if pos == len(logged):
                after = f" after '{_text(want[k - 1])}'" if k else ""
                out.append(
                    f"events: '{_text(text)}' was not logged{after}; events since the previous "
                    f"expect:\n"
                    + _listing([_show_event(e) for e in logged] or ["(none)"], numbered=False)
                )
                return
            pos += 1

    def expect_no_events(self, want: list, out: list) -> None:
        logged = self.logged_events()
        for text in want:
            name, args = _parse_event(_text(text))
            name = self.canon_event(name) or name
            hits = [e for e in logged if _event_matches(e, name, args)]
            if hits:
                out.append(
                    f"events: '{_text(text)}' should not happen, but was logged: "
                    + ", ".join(_show_event(e) for e in hits)
                )


# ---------------------------------------------------------------- small helpers


def _keyword_lists(v: Any) -> list[tuple[tuple, list]]:
    if isinstance(v, list):
        return [((), v)]
    if isinstance(v, dict):
        return [((k,), v[k]) for k in ("has", "lacks") if isinstance(v.get(k), list)]
    return []


def _parse_event(text: str) -> tuple[str, list[str] | None]:
    """`move(CARD, zone#1)` -> ('move', ['CARD', 'zone#1']); `move` -> ('move', None)."""
    text = text.strip()
    if not text.endswith(")") or "(" not in text:
        return text, None
    name, _, rest = text.partition("(")
    args, depth, cur = [], 0, ""
    for ch in rest[:-1]:
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
            continue
        depth += ch in "[(" and 1 or ch in "])" and -1 or 0
        cur += ch
    if cur.strip() or args:
        args.append(cur.strip())
    return name.strip(), args


def _event_matches(logged: tuple[str, list[str]], name: str, args: list[str] | None) -> bool:
    return logged[0] == name and (args is None or logged[1] == args)


def _show_event(e: tuple[str, list[str]]) -> str:
    return f"{e[0]}({', '.join(e[1])})"


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _show(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if v is None:
        return "none"
    return _text(v)


def _winners(ws: list[int]) -> str:
    return "no winner" if not ws else "winner " + ", ".join(f"P{w + 1}" for w in sorted(ws))


def _listing(labels: list[str], numbered: bool = True) -> str:
    """One option a line, with its index (for `choose: {index: N}`)."""
    if numbered:
        return "\n".join(f"    {k}: {lab}" for k, lab in enumerate(labels))
    return "\n".join(f"    {lab}" for lab in labels)


def _quote(s: str) -> str:
    return s if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", s) else '"' + s.replace('"', '\\"') + '"'


def _same_file(shown: str, path: Path) -> bool:
    try:
        return Path(shown).resolve() == path.resolve()
    except OSError:
        return False


__all__ = [
    "Report", "Result", "Scenario", "ScenarioError", "Step", "find_scenarios",
    "is_scenario_file", "load_scenario", "run_paths", "run_scenario",
]  # fmt: skip
