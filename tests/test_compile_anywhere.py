"""#34: a ruleset compiles to the same program wherever it lies. The generated code quotes
places in the rules (for errors and charges) with the path the ruleset was loaded from, and
inlining's size budgets count a quoted place as two characters (build/codegen.py `_size`):
before, a longer path made a definition's body too long to be written inline."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from madang.build import codegen
from madang.game.api import load_program

BUNDLED = Path(__file__).resolve().parent.parent / "rulesets"


def _code(prog) -> list[str]:
    """The generated Python of every block and enumerator, each path to a file of the rules
    cut to the file's name, numbers as `N` (generated names are numbered per process)."""
    fns = [getattr(s, "fn", None) for block in prog.blocks for s in block]
    fns += [a.fast_enum for a in prog.actions]
    codes = [getattr(fn, "generated", "") or "" for fn in fns]
    return [re.sub(r"\d+", "N", re.sub(r"'[^'\n]*/([^/'\n]+\.madang)", r"'\1", c)) for c in codes]


def _far(tmp_path: Path, name: str) -> str:
    """A copy of bundled ruleset `name` in a folder whose path is some 200 characters long."""
    far = tmp_path.joinpath(*["a_rather_long_folder_name"] * 8) / name
    shutil.copytree(BUNDLED / name, far)
    return str(far)


@pytest.mark.slow  # (two compilations of the largest bundled ruleset: about 6 s)
def test_a_long_path_compiles_the_same_program(tmp_path):
    far = load_program(_far(tmp_path, "cthulhu_wars"))
    near = load_program("cthulhu_wars")
    assert _code(far) == _code(near)


def test_the_sizes_count_places_short():
    src = "_f(st, 'rulesets/x/rules.madang:83:29') + _g('definition d (/a/b/r.madang:2:1)')"
    assert codegen._size(src) == len("_f(st, '') + _g('')")
