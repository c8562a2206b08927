"""Every kind of mistake in user input is reported at its exact line and column (issue: the
language, "Done when"), hostile inputs get a diagnostic and never a traceback, and nothing in
the input is executed."""

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from madang.build.loader import load_ruleset
from madang.language.diagnostics import Diagnostics
from madang.language.parser import Origin, parse_card_text, parse_module
from quick import examples

HERE = Path(__file__).parent / "broken"
EXPECTED = yaml.safe_load((HERE / "expected.yaml").read_text(encoding="utf-8"))


def lines(diags: Diagnostics, name: str) -> list[str]:
    return [
        f"{d.span.line}:{d.span.col}: {d.severity}: {d.message}"
        for d in diags.sorted()
        if name in d.span.file
    ]


def check_language_file(tmp_path: Path, src: Path) -> Diagnostics:
    folder = tmp_path / "r"
    folder.mkdir()
    shutil.copy(HERE / "lang" / "_base.madang", folder / "base.madang")
    shutil.copy(src, folder / src.name)
    (folder / "ruleset.yaml").write_text(
        f"name: broken\ntitle: {{en: Broken}}\nplayers: 2\nfiles: [base.madang, {src.name}]\n",
        encoding="utf-8",
    )
    diags = Diagnostics()
    load_ruleset(str(folder), diags)
    return diags


def assert_reported(got: list[str], want: list[str]) -> None:
    assert len(got) == len(want), f"got {got}, want {want}"
    for g, w in zip(got, want):
        assert g.startswith(w), f"got {g!r}, want {w!r}"


def test_the_collection_is_large_enough():
    assert len(EXPECTED["lang"]) + len(EXPECTED["cards"]) >= 40


@pytest.mark.parametrize("case", sorted(EXPECTED["lang"]))
def test_language_mistake_is_located(case, tmp_path):
    diags = check_language_file(tmp_path, HERE / "lang" / f"{case}.madang")
    assert_reported(lines(diags, f"{case}.madang"), EXPECTED["lang"][case])


@pytest.mark.parametrize("case", sorted(EXPECTED["cards"]))
def test_card_file_mistake_is_located(case):
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(HERE / "cards" / f"{case}.yaml")])
    assert_reported(lines(diags, f"{case}.yaml"), EXPECTED["cards"][case])


@pytest.mark.parametrize("case", sorted(EXPECTED["hints"]))
def test_syntax_mistake_is_named_in_the_hint(case, tmp_path):
    if case in EXPECTED["lang"]:
        diags = check_language_file(tmp_path, HERE / "lang" / f"{case}.madang")
    else:
        diags = Diagnostics()
        load_ruleset("clash_of_decks", diags, [str(HERE / "cards" / f"{case}.yaml")])
    assert diags.errors[0].hint == EXPECTED["hints"][case]


def test_the_base_of_the_language_cases_is_clean(tmp_path):
    folder = tmp_path / "r"
    folder.mkdir()
    shutil.copy(HERE / "lang" / "_base.madang", folder / "base.madang")
    (folder / "ruleset.yaml").write_text(
        "name: ok\ntitle: {en: Ok}\nplayers: 2\nfiles: [base.madang]\n", encoding="utf-8"
    )
    diags = Diagnostics()
    assert load_ruleset(str(folder), diags).program is not None
    assert not diags.errors


def test_hints_suggest_the_nearest_name():
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(HERE / "cards" / "misspelt-keyword.yaml")])
    assert [d.hint for d in diags.errors] == ["did you mean '관통'?"]


# ---------------------------------------------------------------- hostile inputs


def hostile_ruleset(tmp_path: Path, language_bytes: bytes) -> Diagnostics:
    folder = tmp_path / "h"
    folder.mkdir()
    (folder / "rules.madang").write_bytes(language_bytes)
    (folder / "ruleset.yaml").write_text(
        "name: h\ntitle: {en: H}\nplayers: 2\nfiles: [rules.madang]\n", encoding="utf-8"
    )
    diags = Diagnostics()
    load_ruleset(str(folder), diags)
    return diags


@pytest.mark.parametrize(
    "data,message",
    [
        (b"flow:\n    pass\n\x00\x01\x02", "binary data"),
        (b"flow:\n    let x = \xff\xfe\n", "invalid UTF-8"),
        (
            b"flow:\n    let x = " + b"(" * 10_000 + b"1" + b")" * 10_000 + b"\n",
            "nesting deeper than",
        ),
        (
            b"flow:\n" + b"".join(b"    " * (i + 1) + b"if true:\n" for i in range(200)),
            "blocks nested deeper than",
        ),
    ],
    ids=["binary", "invalid-utf8", "deep-brackets", "deep-blocks"],
)
def test_hostile_language_file_gets_a_diagnostic(tmp_path, data, message):
    diags = hostile_ruleset(tmp_path, data)
    assert any(message in d.message for d in diags.errors), diags.render()


def test_cards_of_a_ruleset_whose_language_file_does_not_parse_are_not_each_wrong(tmp_path):
    folder = tmp_path / "r"
    shutil.copytree(Path(__file__).parent / "rulesets" / "mini", folder)
    (folder / "mini.madang").write_text("kind unit(\n", encoding="utf-8")
    diags = Diagnostics()
    load_ruleset(str(folder), diags)
    assert [(d.span.line, d.span.col) for d in diags.errors] == [(1, 10)]
    assert [d.message for d in diags.warnings] == [
        "card file not checked: the ruleset's language files have errors"
    ]


def test_empty_language_file_is_fine_but_empty_game_warns_nothing_fatal(tmp_path):
    diags = hostile_ruleset(tmp_path, b"")
    assert not diags.errors


def test_huge_file_is_refused_without_reading_it_all(tmp_path):
    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.write(b"ruleset: clash_of_decks\ncards:\n")
        f.write(b"  - {name: X, type: creature, cost: 1, attack: 1, health: 1}\n" * 900_000)
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(big)])
    assert any("too large" in d.message for d in diags.errors)


def test_alias_bomb_is_refused(tmp_path):
    bomb = tmp_path / "bomb.yaml"
    rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        rows.append(f"{cur}: &{cur} [" + ",".join(f"*{prev}" for _ in range(9)) + "]")
    bomb.write_text(
        "ruleset: clash_of_decks\n" + "\n".join(rows) + "\ncards: *i\n", encoding="utf-8"
    )
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(bomb)])
    assert any("alias" in d.message for d in diags.errors), diags.render()


def test_ruleset_folder_with_missing_files(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "name: m\ntitle: {en: M}\nplayers: 2\nfiles: [nothere.madang]\ncards: [nocards.yaml]\n",
        encoding="utf-8",
    )
    diags = Diagnostics()
    assert load_ruleset(str(folder), diags) is None or diags.has_errors()
    msgs = [f"{d.span.line}:{d.span.col}: {d.message}" for d in diags.errors]
    assert (
        "4:9: missing file 'nothere.madang'" in msgs and "5:9: missing file 'nocards.yaml'" in msgs
    )


def test_folder_without_ruleset_yaml_and_unknown_ruleset(tmp_path):
    diags = Diagnostics()
    assert load_ruleset(str(tmp_path), diags) is None
    assert "without a ruleset.yaml" in diags.errors[0].message
    diags = Diagnostics()
    assert load_ruleset("clash_of_deck", diags) is None
    assert diags.errors[0].hint == "did you mean 'clash_of_decks'?"


def test_card_file_naming_a_ruleset_that_does_not_exist(tmp_path):
    from madang.build.loader import load_standalone_cards

    f = tmp_path / "c.yaml"
    f.write_text("ruleset: no_such_game\ncards: []\n", encoding="utf-8")
    diags = Diagnostics()
    name = load_standalone_cards(str(f), diags)
    assert name == "no_such_game"
    assert (
        load_ruleset(name, diags) is None
        and "unknown ruleset 'no_such_game'" in diags.errors[0].message
    )


# ---------------------------------------------------------------- fuzzing

BUNDLED = [p for p in (Path(__file__).parents[1] / "rulesets").rglob("*.madang")]
SAMPLE = "\n".join(p.read_text(encoding="utf-8") for p in BUNDLED)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_parser_never_crashes_on_random_bytes(data):
    text = data.decode("utf-8", "replace")
    diags = Diagnostics()
    parse_module(text, Origin("fuzz.madang"), diags)
    parse_card_text(text, Origin("fuzz.yaml", 3, 11), diags)
    for d in diags.items:
        assert d.span.line >= 1 and d.message


@pytest.mark.slow
@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SAMPLE) - 1), st.integers(0, 40), st.text(max_size=8))
def test_parser_never_crashes_on_mutated_bundled_rules(at, cut, insert):
    text = SAMPLE[:at] + insert + SAMPLE[at + cut :]
    diags = Diagnostics()
    parse_module(text, Origin("mutant.madang"), diags)


@pytest.mark.slow
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.sampled_from(sorted(p.name for p in BUNDLED if "clash_of_decks" in str(p))),
    st.integers(0, 4000),
    st.integers(0, 30),
    st.text(max_size=6),
)
def test_loader_never_crashes_on_mutated_ruleset(tmp_path_factory, fname, at, cut, insert):
    src = Path(__file__).parents[1] / "rulesets" / "clash_of_decks"
    dst = tmp_path_factory.mktemp("mut") / "clash_of_decks"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("scenarios"))
    text = (dst / fname).read_text(encoding="utf-8")
    at = min(at, len(text))
    (dst / fname).write_text(text[:at] + insert + text[at + cut :], encoding="utf-8")
    diags = Diagnostics()
    load_ruleset(str(dst), diags)  # must not raise


def test_a_near_miss_is_suggested_only_when_it_is_one_slip_in_korean():
    from madang.language.syntax_errors import nearest_keyword as _nearest

    assert _nearest("이젼", ["BEFORE"]) == "이전"  # one letter of one syllable
    assert _nearest("반격", ["REPEAT"]) is None  # 반복: another word, two letters apart
    assert _nearest("fro", ["FOR", "FROM"]) == "for"  # a swap is one slip
    assert _nearest("shufle", ["SHUFFLE"]) == "shuffle"
    assert _nearest("gain", ["WIN"]) is None
