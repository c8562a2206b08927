"""Fuzz driver: mutates real inputs and runs them through the command line, in a process of its
own with memory and time limits.

Run by tests/test_fuzz.py (`python tests/fuzz_driver.py TARGET --examples N`); prints one JSON
object with the failures it found. A failure is anything but a clean answer: an exit code other
than 0, 1 or 2, a traceback or "internal error" on stderr, a case over its time limit, or the
process running out of memory. Mutations are drawn by hypothesis from the bundled files, so the
same examples are drawn on every run unless HYPOTHESIS_PROFILE=explore.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import resource
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
RULESET = REPO / "rulesets" / "clash_of_decks"  # --ruleset NAME fuzzes another bundled one
MEMORY_LIMIT = 3 * 2**30  # bytes of address space for the whole driver
REPEATABLE = os.environ.get("HYPOTHESIS_PROFILE") != "explore"
CASE_SECONDS = 30  # a clean rules error or diagnostic comes far sooner

# Text a designer (or an attacker) might put anywhere: extreme numbers, brackets, indentation,
# quotes, control characters, bidi marks, names of the language.
INTERESTING = [
    "0", "-1", "1", "99999999999999999999999", "-9223372036854775809", "1e308", "nan", "none",
    "true", "(", ")", "[", "]", "{", "}", ":", ",", "'", '"', "#", "\n", "\n    ", "\t", "\\",
    "*", "**", "&a", "!!python/object:os.system", "\x00", "\x1b[2J", "\u202e", "\ufeff",
    "repeat", "for", "in", "range", "if", "else", "let", "define", "when", "choose", "this",
    "owner", "opponent", "count", "where", "sorted", "return", "shuffle", "move", "to",
]  # fmt: skip


class CaseTimeout(BaseException):
    """Raised by the alarm; a BaseException so the command line's error handling lets it by."""


def _alarm(signum, frame):
    raise CaseTimeout()


def tokens(text: str) -> list[str]:
    return re.findall(r"\w+|\s+|.", text, flags=re.S)


@st.composite
def mutated(draw, text: str) -> str:
    """One to four edits of the text's tokens: delete, duplicate, replace, swap lines."""
    toks = tokens(text)
    pool = sorted(set(toks))
    for _ in range(draw(st.integers(1, 4))):
        if not toks:
            toks = [draw(st.sampled_from(INTERESTING))]
        i = draw(st.integers(0, len(toks) - 1))
        j = min(len(toks), i + draw(st.integers(1, 8)))
        op = draw(st.sampled_from(["delete", "duplicate", "replace", "insert", "swap"]))
        if op == "delete":
            del toks[i:j]
        elif op == "duplicate":
            toks[i:i] = toks[i:j] * draw(st.integers(1, 50))
        elif op == "replace":
            toks[i] = draw(st.sampled_from(INTERESTING) | st.sampled_from(pool))
        elif op == "insert":
            toks.insert(i, draw(st.sampled_from(INTERESTING)))
        else:
            lines = "".join(toks).split("\n")
            a = draw(st.integers(0, len(lines) - 1))
            b = draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            toks = tokens("\n".join(lines))
    return "".join(toks)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=5)
    | st.floats(allow_nan=True, allow_infinity=True),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip


@st.composite
def mutated_json(draw, doc):
    """A saved state with one to three values somewhere in it replaced, deleted or grown."""
    doc = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 3))):
        parent, key = doc, None
        while True:  # walk down to a random place
            if isinstance(parent, dict) and parent:
                key = draw(st.sampled_from(sorted(parent)))
            elif isinstance(parent, list) and parent:
                key = draw(st.integers(0, len(parent) - 1))
            else:
                break
            child = parent[key]
            if not isinstance(child, (dict, list)) or not child or draw(st.booleans()):
                break
            parent = child
        if key is None:
            continue
        op = draw(st.sampled_from(["replace", "delete", "small", "grow"]))
        if op == "delete":
            del parent[key]
        elif op == "small" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += draw(st.sampled_from([-1, 1, -1000, 1000]))
        elif op == "grow" and isinstance(parent[key], list):
            parent[key] = parent[key] + parent[key][: draw(st.integers(1, 5))]
        else:
            parent[key] = draw(JSON_VALUES)
    return json.dumps(doc)


def run_cli(argv: list[str]) -> tuple[int, str]:
    from madang.tools import cli

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(argv)
    return code, err.getvalue()


TALLY: dict[str, int] = {}  # exit codes per command, to show how deep the cases reached


def verdict(argv: list[str]) -> tuple[int, str | None]:
    """The exit code, and None when the command answered cleanly, else what went wrong."""
    signal.alarm(CASE_SECONDS)
    try:
        code, err = run_cli(argv)
    except CaseTimeout:
        return -1, f"no answer within {CASE_SECONDS} s"
    except MemoryError:
        return -1, "out of memory"
    except BaseException as e:  # noqa: BLE001 - anything escaping the command line is a bug
        return -1, f"escaped the command line: {type(e).__name__}: {e}"
    finally:
        signal.alarm(0)
    key = f"{argv[0]} {code}"
    TALLY[key] = TALLY.get(key, 0) + 1
    if code not in (0, 1, 2):
        return code, f"exit code {code}: {err[-300:]}"
    if "Traceback" in err or "internal error" in err:
        return code, err[-600:]
    return code, None


GAME = ["--jobs", "1", "--max-decisions", "150", "--max-work", "300000", "--seed", "1"]


def target_files(kind: str) -> list[Path]:
    if kind == "language":
        return sorted(RULESET.glob("*.madang"))
    if kind == "cards":
        return [RULESET / "cards.yaml"]
    if kind == "meta":
        return [RULESET / "ruleset.yaml"]
    return []


def fuzz_ruleset(kind: str, examples: int, work: Path, failures: list) -> None:
    """Mutate one file of a copy of the ruleset; check it, and play two games when it loads."""
    files = target_files(kind)
    texts = {f.name: f.read_text(encoding="utf-8") for f in files}

    @settings(
        max_examples=examples, deadline=None, database=None, derandomize=REPEATABLE, phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    @given(st.data())
    def case(data):
        name = data.draw(st.sampled_from(sorted(texts)))
        text = data.draw(mutated(texts[name]))
        folder = work / "r"
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(RULESET, folder, ignore=shutil.ignore_patterns("scenarios"))
        (folder / name).write_bytes(text.encode("utf-8", "surrogatepass"))
        code, problem = verdict(["check", str(folder)])
        if code == 0:
            code, problem = verdict(["simulate", str(folder), "--games", "2", *GAME])
        if problem:
            failures.append({"file": name, "input": text[:20000], "problem": problem})

    case()


def fuzz_saves(examples: int, work: Path, failures: list) -> None:
    """Mutate a saved game in the middle of play; resume it for a few decisions."""
    save = work / "start.json"
    code, err = run_cli(["play", str(RULESET), "--seats", "random", "--seed", "3",
                         "--max-decisions", "25", "--save", str(save)])  # fmt: skip
    assert code == 0, err
    doc = json.loads(save.read_text(encoding="utf-8"))

    @settings(
        max_examples=examples, deadline=None, database=None, derandomize=REPEATABLE, phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    @given(mutated_json(doc))
    def case(text):
        path = work / "mutated.json"
        path.write_text(text, encoding="utf-8")
        _, problem = verdict(["play", "--load", str(path), "--seats", "random", "--max-decisions",
                           "40", "--save", str(work / "after.json")])  # fmt: skip
        if problem:
            failures.append({"file": "save", "input": text[:20000], "problem": problem})

    case()


def fuzz_scenarios(examples: int, work: Path, failures: list) -> None:
    """Mutate a scenario file; run it with `madang test`."""
    found = sorted((RULESET / "scenarios").glob("*.yaml"))[:12]
    texts = {f.name: f.read_text(encoding="utf-8") for f in found}

    @settings(
        max_examples=examples, deadline=None, database=None, derandomize=REPEATABLE, phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    @given(st.data())
    def case(data):
        name = data.draw(st.sampled_from(sorted(texts)))
        text = data.draw(mutated(texts[name]))
        path = work / name
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        _, problem = verdict(["test", str(path), "--max-work", "300000"])
        if problem:
            failures.append({"file": name, "input": text[:20000], "problem": problem})

    case()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("target", choices=["language", "cards", "meta", "saves", "scenarios"])
    ap.add_argument("--examples", type=int, default=50)
    ap.add_argument("--ruleset", default="clash_of_decks")
    args = ap.parse_args()
    global RULESET
    RULESET = REPO / "rulesets" / args.ruleset
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    signal.signal(signal.SIGALRM, _alarm)
    os.environ.pop("MADANG_DEBUG", None)
    failures: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.target == "saves":
            fuzz_saves(args.examples, work, failures)
        elif args.target == "scenarios":
            fuzz_scenarios(args.examples, work, failures)
        else:
            fuzz_ruleset(args.target, args.examples, work, failures)
    json.dump(
        {"target": args.target, "examples": args.examples, "exits": TALLY, "failures": failures},
        sys.stdout,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
