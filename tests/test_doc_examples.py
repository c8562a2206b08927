"""The documentation's console examples are run and their output compared, so that the docs
cannot drift from the program.

A ```console block preceded by a line `<!-- runnable -->` (or `<!-- runnable in docs/examples -->`
to run in that folder) is an example: each `$ ` line is a command run by one bash for the block in a scratch copy of
that folder (default: the repository's root), with the `madang` under test first on the PATH, and
the lines after it, up to the next `$ `, are its expected output. Only what truly varies is
normalised: durations and rates become `<T>`, and a line `...` stands for any lines.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
MARK = re.compile(r"^<!-- runnable(?: in (?P<cwd>[\w./-]+))? -->\s*$")
TIMES = re.compile(r"\b\d[\d,]*(?:\.\d+)? ?(?:µs|ms|s|games/s|playouts/s|decisions/s)(?![\w])")


@dataclass
class Example:
    doc: Path
    line: int  # of the first command
    cwd: str
    commands: list[tuple[str, list[str]]]  # (command, expected output lines)

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(REPO)}:{self.line}"


def examples() -> list[Example]:
    out = []
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            m = MARK.match(lines[i])
            if m and i + 1 < len(lines) and lines[i + 1].startswith("```console"):
                j = i + 2
                commands: list[tuple[str, list[str]]] = []
                while j < len(lines) and not lines[j].startswith("```"):
                    if lines[j].startswith("$ "):
                        commands.append((lines[j][2:], []))
                    elif commands:
                        commands[-1][1].append(lines[j])
                    j += 1
                out.append(Example(doc, i + 3, m.group("cwd") or ".", commands))
                i = j
            i += 1
    return out


def normalise(text: str) -> list[str]:
    return [TIMES.sub("<T>", line.rstrip()) for line in text.rstrip("\n").splitlines()]


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; an expected `...` line matches any number of actual lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


ALL = examples()


def test_the_docs_have_runnable_examples():
    assert len(ALL) >= 5


@pytest.mark.parametrize("example", ALL, ids=[e.name for e in ALL])
def test_console_example_prints_what_the_docs_say(example: Example, tmp_path: Path):
    work = tmp_path / "work"
    source = REPO / example.cwd
    if example.cwd == ".":
        work.mkdir()
        for name in ("rulesets", "docs"):
            shutil.copytree(REPO / name, work / name)
    else:
        shutil.copytree(source, work)
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    # One shell for the whole block, so that `echo $?` sees the command before it; a marker
    # line separates the outputs of the commands.
    marker = "@@madang-example@@"
    script = ["__status=0"]
    for command, _ in example.commands:
        script.append(
            f"printf '%s\\n' '{marker}'; (exit $__status); {{ {command}\n}} 2>&1; __status=$?"
        )
    proc = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    outputs = proc.stdout.split(marker + "\n")[1:]
    assert len(outputs) == len(example.commands), proc.stdout + proc.stderr
    for (command, expected), output in zip(example.commands, outputs):
        actual = normalise(output)
        want = [TIMES.sub("<T>", line.rstrip()) for line in expected]
        while want and not want[-1]:
            want.pop()
        assert matches(want, actual), (
            f"{example.name}: `{command}` printed\n"
            + "\n".join(actual)
            + "\n\nthe docs say\n"
            + "\n".join(want)
        )


def test_a_changed_label_or_line_does_not_match_but_timings_do():
    printed = normalise("ok: no problems found\n  12.5 s, 431.2 games/s on 2 job(s)\n")
    assert matches(
        [
            "ok: no problems found",
            "  3.1 s, 99 games/s on 2 job(s)".replace("3.1 s", "<T>").replace("99 games/s", "<T>"),
        ],
        printed,
    )
    assert not matches(["ok: no problem found", "..."], printed)
    assert matches(["...", "  <T>, <T> on 2 job(s)"], printed)
    assert not matches(["ok: no problems found"], printed)  # a missing line is a difference
