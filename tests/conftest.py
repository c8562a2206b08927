"""pytest plugin: every scenario file is a test item.

Collected from `rulesets/*/scenarios/` (beside each ruleset), `docs/examples/*/scenarios/` (the
example card sets) and `tests/scenarios/`, searched
recursively; a YAML file there is a scenario when its top level has `steps:` or `rule:`. Items are
named `<ruleset>/<file stem>`; a failure shows the rule the scenario checks and what differed.
Run them alone with `pytest tests/scenarios` (or `madang test PATH...` without pytest).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
from hypothesis import settings
from madang.game import api
from madang.language.diagnostics import Diagnostics
from madang.language.yamlsrc import load_yaml
from madang.runtime.program import Program
from madang.tools.scenario import (
    Result,
    ScenarioError,
    find_scenarios,
    load_scenario,
    run_scenario,
    show_path,
)

# The property and fuzz tests draw the same examples on every run, so that CI and a fresh clone
# agree; `HYPOTHESIS_PROFILE=explore python -m pytest` draws new ones to search for bugs. The
# quick loop (`-m "not slow"`) draws a fifth as many (tests/quick.py scales explicit counts).
settings.register_profile("repeatable", derandomize=True, deadline=None)
settings.register_profile("quick", derandomize=True, deadline=None, max_examples=20)
settings.register_profile("explore", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# Every game played by the tests proves that the state checks it skipped were false.
Program.verify_checks = True


def _compiled_as_the_suite_plays(ref: str, extra: tuple[str, ...]) -> Program:
    """A program `load_program` keeps, compiled only while `Program.verify_checks` is on: the
    compiled reads of modified properties check themselves only if it was on at compile time
    (effects.prop_reader), and that check charges work, so a kept program compiled inside a
    test that turned it off would charge less in every later test of its worker (CI's order
    once made seven comparisons fail that way). A test that turns it off loads first."""
    if not Program.verify_checks:
        raise AssertionError(
            f"{ref}: a program kept by load_program compiled with Program.verify_checks off:"
            " load it before the test turns the check off"
        )
    return _compile(ref, extra)


_compile = api._load_cached.__wrapped__
api._load_cached = functools.lru_cache(maxsize=api._load_cached.cache_info().maxsize)(
    _compiled_as_the_suite_plays
)
api._load_cached.__wrapped__ = _compile  # (the tests' fresh compilations: not kept, not checked)


def pytest_configure(config: pytest.Config) -> None:
    """`-m "not slow"` is the quick loop: fewer hypothesis examples, unless a profile is named.
    With `-n`, an idle worker takes queued tests from a busy one (`--dist worksteal`): with
    xdist's default (`load`) one of two workers sat idle for 10-40 s at the end of the quick
    loop. Set here, not in addopts, so that pytest without xdist (`-p no:xdist`) still runs."""
    if "HYPOTHESIS_PROFILE" not in os.environ and skips_slow(config.option.markexpr or ""):
        settings.load_profile("quick")
    if getattr(config.option, "dist", None) == "load":
        config.option.dist = "worksteal"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With workers (-n), the slow tests go first: a worker always holds its next test, so a
    long one handed out last kept the other worker idle for over a minute of the full suite."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def skips_slow(markexpr: str) -> bool:
    """Whether the mark expression leaves out the tests marked only `slow`. No expression
    (CI's plain `pytest`) leaves out nothing: pytest's parser reads an empty one as false."""
    if not markexpr.strip():
        return False
    try:
        from _pytest.mark.expression import Expression  # pytest's own parser of -m

        return not Expression.compile(markexpr).evaluate(lambda name, **_: name == "slow")
    except Exception:  # a private API: fall back to reading the expression
        return "not slow" in " ".join(markexpr.split())


TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SCENARIOS = TESTS / "scenarios"


def scenario_files() -> list[Path]:
    """The scenario files of the repository: each ruleset's, the example card sets' in the
    docs, then the tests' own examples."""
    folders = sorted(p for p in (REPO / "rulesets").glob("*/scenarios") if p.is_dir())
    folders += sorted(p for p in (REPO / "docs" / "examples").glob("*/scenarios") if p.is_dir())
    if SCENARIOS.is_dir():
        folders.append(SCENARIOS)
    return find_scenarios(folders)


def pytest_collect_directory(path: Path, parent: pytest.Collector):
    """`tests/scenarios` stands for all scenario folders, so that a plain `pytest` (whose
    testpaths is tests/) runs the rulesets' scenarios too."""
    if path.resolve() == SCENARIOS:
        return ScenarioDirectory.from_parent(parent, path=path)
    return None


class ScenarioDirectory(pytest.Directory):
    def collect(self):
        for f in scenario_files():
            yield ScenarioFile.from_parent(self, path=f)


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=f"{ruleset_of(self.path)}/{self.path.stem}")


def ruleset_of(path: Path) -> str:
    """The ruleset folder a scenario sits in, else the one its `ruleset:` names."""
    parts = path.resolve().parts
    for i in range(len(parts) - 2, 0, -1):
        if parts[i] == "scenarios" and parts[i - 2 : i - 1] == ("rulesets",):
            return parts[i - 1]
    try:
        doc = load_yaml(path.read_text(encoding="utf-8"), str(path), Diagnostics())
    except (OSError, UnicodeDecodeError):
        return "scenario"
    data = doc.data if doc is not None else None
    ref = data.get("ruleset") if isinstance(data, dict) else None
    return Path(ref).name if isinstance(ref, str) and ref.strip() else "scenario"


class ScenarioFailed(Exception):
    """A scenario did not hold; carries its result."""

    def __init__(self, result: Result):
        super().__init__(result.message)
        self.result = result


class ScenarioItem(pytest.Item):
    # pytest-lsp's runtest hook returns without yielding for items that have no `funcargs`
    # (pytest_lsp/plugin.py, pytest_runtest_call): a scenario has none, so say so.
    funcargs: dict = {}

    def runtest(self) -> None:
        try:
            sc = load_scenario(self.path)
        except ScenarioError as e:
            raise ScenarioFailed(
                Result(self.path.stem, show_path(self.path), None, False, str(e))
            ) from None
        self.user_properties.append(("rule", sc.rule))
        result = run_scenario(sc)
        if not result.ok:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            r = excinfo.value.result
            head = f"scenario {self.name} ({r.path})"
            rule = f"rule: {r.rule}" if r.rule else "rule: (none given)"
            return f"{head}\n{rule}\n\n{r.message.rstrip()}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"scenario {self.name}"
