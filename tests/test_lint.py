"""CI keeps the code as `ruff check` and `ruff format` want it (pyproject.toml [tool.ruff]), and
every bundled language file in `madang fmt`'s canonical layout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]], ids=["check", "format"])
def test_ruff_is_clean(command):
    r = subprocess.run([sys.executable, "-m", "ruff", *command, "interpreter", "tests", "scripts"],
                       cwd=REPO, capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr


def test_bundled_language_files_are_in_canonical_layout():
    from madang.tools.cli import main

    files = sorted(str(p) for p in (REPO / "rulesets").glob("*/*.madang"))
    assert len(files) >= 10
    assert main(["fmt", "--check", *files]) == 0, "run: madang fmt --write rulesets/*/*.madang"
