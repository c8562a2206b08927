"""#34: a ruleset compiles to the same program wherever it lies and whatever the process
compiled before it. The generated code quotes places in the rules (for errors and charges) with
the path the ruleset was loaded from: inlining's size budgets count such a literal as two
characters (build/codegen.py `_size`), and the tests for a name read in generated code look at
it without its literals (`unquoted`; build/hoist.py reads names from the syntax tree), so that
neither a long path nor a word of one (`.venv/`, `fr`, `st.`) changes what is written. The
generated names are numbered per compilation."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from madang.build import codegen, hoist
from madang.game import api

# folders whose names hold words a test of generated code once read as code
WORDS = (".venv-ci", "env", "fr", "st.x")


def _code(prog) -> list[str]:
    """The generated Python of every block and enumerator, each place's path cut to its
    file's name."""
    fns = [getattr(s, "fn", None) for block in prog.blocks for s in block]
    fns += [a.fast_enum for a in prog.actions]
    codes = [getattr(fn, "generated", "") or "" for fn in fns]
    return [re.sub(r"(['(])[^'(\n]*/([^/'\n]+\.\w+:\d+)", r"\1\2", c) for c in codes]


def _far(tmp_path: Path, near) -> str:
    """A copy of bundled ruleset `near` some 250 characters deep, below folders named `WORDS`
    (in CI the bundled rulesets lie in the installed package: a path below the working folder
    there, `.venv-ci/lib/...`)."""
    far = tmp_path.joinpath(*WORDS, *["a_rather_long_folder_name"] * 8, Path(near.folder).name)
    shutil.copytree(near.folder, far)
    return str(far)


def _compiled(ref: str):
    return api._load_cached.__wrapped__(ref, ())


@pytest.mark.slow  # (two compilations of a large bundled ruleset: about 5 s each)
@pytest.mark.parametrize("name", ["cthulhu_wars", "nivel_arena"])
def test_a_far_path_compiles_the_same_program(tmp_path, name):
    """(Both were fooled by a path: the budgets and the tests of names read.)"""
    near = _compiled(name)
    far = _compiled(_far(tmp_path, near))
    assert _code(far) == _code(near)


def test_the_same_rules_compile_to_the_same_names_in_one_process():
    first = _compiled("clash_of_decks")
    again = _compiled("clash_of_decks")
    assert _code(first) == _code(again)  # numbers and all


def test_the_sizes_count_places_short():
    src = "_f(st, 'rulesets/x/rules.madang:83:29') + _g('definition d (/a/b/r.madang:2:1)')"
    assert codegen._size(src) == len("_f(st, '') + _g('')")
    quoted = "_f(st, \"/it's/r.madang:1:2\") + 'a.b'"
    assert codegen._size(quoted) == len("_f(st, '') + 'a.b'")


def test_a_word_of_a_path_is_not_a_name_read():
    place = "'/w/.venv/lib/r.madang:3:4'"
    assert hoist.params_read(f"_plus(st, v0, 1, {place})", {"_plus": 0}, {}) == {1}
    assert hoist.params_read("_plus(st, env.get('x'), 1, 'p')", {"_plus": 0}, {}) is None
    assert hoist.params_read("(env.get('you') + v1)", {}, {}) == {2}
    assert not re.search(r"\benv\b", codegen.unquoted(f'_f(st, {place}, "a env b")'))
