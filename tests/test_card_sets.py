"""Card sets as packages (issue 19): a card file, or a folder holding one, brings language files
whose declarations join the ruleset's for that load, are checked with it, and clash at both
places; `madang check` and `--cards` take the set, and `--strict` judges only the set's files."""

from pathlib import Path

from madang.build.loader import load_ruleset
from madang.language.diagnostics import Diagnostics
from madang.tools.cli import main

CARD = """\
  - name: HOARDER
    type: creature
    cost: 2
    attack: 2
    health: 2
    text: |
      after destroy(u):
          if u == this:
              hoard += 1
"""


def card_set(folder: Path, files_line: str = "", madang: str = "counter hoard = 0\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.yaml").write_text(
        f"ruleset: clash_of_decks\n{files_line}cards:\n{CARD}", encoding="utf-8"
    )
    (folder / "hoard.madang").write_text(madang, encoding="utf-8")
    return folder


def messages(diags: Diagnostics) -> list[str]:
    return [
        f"{Path(d.span.file).name}:{d.span.line}:{d.span.col}: {d.message}" for d in diags.items
    ]


def test_a_folder_set_brings_every_language_file_beside_its_cards(tmp_path):
    folder = card_set(tmp_path / "set")
    diags = Diagnostics()
    loaded = load_ruleset("clash_of_decks", diags, [str(folder)])
    assert not diags.items, diags.render()
    assert "hoard" in loaded.syms.counters and "HOARDER" in loaded.syms.cards
    assert loaded.program is not None


def test_without_the_set_the_counter_is_unknown(tmp_path):
    folder = card_set(tmp_path / "set")
    alone = tmp_path / "alone.yaml"
    alone.write_text((folder / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(alone)])
    assert any("'hoard'" in d.message for d in diags.errors)


def test_a_card_file_names_its_language_files(tmp_path):
    folder = card_set(tmp_path / "set", "files: [hoard.madang]\n")
    (folder / "cards.yaml").rename(folder / "my_cards.yaml")
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(folder / "my_cards.yaml")])
    assert not diags.items, diags.render()


def test_listed_files_must_exist_and_stay_in_the_folder(tmp_path):
    folder = card_set(tmp_path / "set", "files: [hoard.madang, nothere.madang, ../x.madang]\n")
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(folder)])
    got = messages(diags)
    assert "cards.yaml:2:23: missing file 'nothere.madang'" in got
    assert any(m.startswith("cards.yaml:2:39: ") for m in got), got


def test_a_name_clash_with_the_ruleset_is_reported_at_both_places(tmp_path):
    folder = card_set(tmp_path / "set", madang="counter hoard = 0\ncounter mana = 3\n")
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(folder)])
    got = [m for m in messages(diags) if "mana" in m]
    assert len(got) == 2, got
    # the ruleset's file is shown where it is: the checkout, or site-packages when installed
    assert got[0].startswith("hoard.madang:2:1: 'mana' is already defined (at ")
    assert "clash_of_decks/rules.madang:27:1)" in got[0]
    assert got[1].startswith("rules.madang:27:1: 'mana' is defined again (at ")


def test_check_and_cards_take_the_folder(tmp_path, capsys):
    folder = card_set(tmp_path / "set")
    assert main(["check", str(folder)]) == 0
    assert main(["check", str(folder / "cards.yaml")]) == 0
    assert "no problems" in capsys.readouterr().out


def test_strict_judges_only_the_files_being_checked(tmp_path, capsys):
    # the bundled nivel_arena has "never used" warnings its card designers cannot fix
    cards = tmp_path / "mine.yaml"
    cards.write_text(
        "ruleset: nivel_arena\ncards:\n  - name: X\n    id: T-1\n    type: 유닛\n"
        '    코스트: 1\n    파워: 3000\n    히트: 1\n    속성: "炎"\n    소속: [X]\n',
        encoding="utf-8",
    )
    assert main(["check", "--strict", str(cards)]) == 0
    assert main(["check", "--strict", "nivel_arena"]) == 1
    folder = card_set(tmp_path / "set", madang="counter hoard = 0\ncounter unused_one = 0\n")
    assert main(["check", str(folder)]) == 0
    assert main(["check", "--strict", str(folder)]) == 1
    assert "unused_one" in capsys.readouterr().out


EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "grudge_set"


def test_the_example_card_set_checks_clean_and_its_scenarios_pass():
    from madang.tools.scenario import run_paths

    diags = Diagnostics()
    loaded = load_ruleset("clash_of_decks", diags, [str(EXAMPLE)])
    assert not diags.items and loaded.program is not None, diags.render()
    report = run_paths([str(EXAMPLE / "scenarios")])
    assert report.failed == 0 and report.passed == 2, report.render()


def test_a_scenario_names_its_card_set_by_path(tmp_path):
    from madang.tools.scenario import run_paths

    folder = card_set(tmp_path / "set")
    (folder / "bad.yaml").write_text(
        "ruleset: clash_of_decks\nrule: x\ncards: .\nsetup: {active: P1}\nstart: |\n"
        "  hoard += 2\nsteps:\n  - expect: {counters: {hoard: 3}}\n",
        encoding="utf-8",
    )
    report = run_paths([str(folder / "bad.yaml")])
    assert report.failed == 1 and "expected 3, got 2" in report.render(), report.render()


def test_a_set_adds_fields_to_a_kind_of_the_ruleset(tmp_path):
    folder = card_set(
        tmp_path / "set",
        madang='counter hoard = 0\nkind 생명체:\n    scars: number = 0\n    tag: text = ""\n',
    )
    diags = Diagnostics()
    loaded = load_ruleset("clash_of_decks", diags, [str(folder)])
    assert not diags.items, diags.render()
    fields = loaded.syms.kinds["creature"].fields
    assert {"scars", "tag", "cost"} <= set(fields)


def test_a_field_added_by_a_set_needs_a_default_and_may_not_clash(tmp_path):
    folder = card_set(
        tmp_path / "set",
        madang="counter hoard = 0\nkind creature:\n    scars: number\n    damage: number = 1\n",
    )
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(folder)])
    got = messages(diags)
    assert (
        "hoard.madang:3:5: field 'scars' that a card set adds to kind 'creature' needs a default"
        in got
    )
    assert "hoard.madang:4:5: field 'damage' is declared twice" in got
    assert any(m.startswith("rules.madang:9:5: field 'damage' is declared again") for m in got), got


def test_a_set_given_as_a_ruleset_says_how_to_use_it(tmp_path):
    folder = card_set(tmp_path / "set")
    diags = Diagnostics()
    assert load_ruleset(str(folder), diags) is None
    assert "give it with --cards" in diags.errors[0].hint


def test_a_card_name_clash_with_the_ruleset_is_reported_at_both_places(tmp_path):
    folder = card_set(tmp_path / "set")
    text = (folder / "cards.yaml").read_text(encoding="utf-8").replace("HOARDER", "OGRE")
    (folder / "cards.yaml").write_text(text, encoding="utf-8")
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(folder)])
    got = [m for m in messages(diags) if "OGRE" in m]
    assert len(got) == 2 and got[0].startswith("cards.yaml:"), got
    assert "is already defined" in got[0] and "is defined again" in got[1], got


def test_a_listed_file_may_not_lead_outside_through_a_link(tmp_path):
    outside = tmp_path / "outside.madang"
    outside.write_text("counter hoard = 0\n", encoding="utf-8")
    folder = card_set(tmp_path / "set", "files: [link.madang]\n")
    (folder / "link.madang").symlink_to(outside)
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(folder)])
    assert "cards.yaml:2:9: 'link.madang' is outside the card set's folder" in messages(diags)


def _two_grudge_sets(tmp_path: Path, change: str = "") -> Diagnostics:
    """Two copies of the grudge set (the second with its own card names): both carry the same
    library file, grudge.madang; `change` alters the second copy's keyword."""
    import shutil

    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(EXAMPLE, a)
    shutil.copytree(EXAMPLE, b)
    cards = (b / "cards.yaml").read_text(encoding="utf-8")
    (b / "cards.yaml").write_text(
        cards.replace("AVENGER", "AVENGER2").replace("MOURNER", "MOURNER2"), encoding="utf-8"
    )
    if change:
        lib = (b / "grudge.madang").read_text(encoding="utf-8")
        (b / "grudge.madang").write_text(lib.replace("you.grudges += n", change), encoding="utf-8")
    diags = Diagnostics()
    load_ruleset("clash_of_decks", diags, [str(a), str(b)])
    return diags


def test_two_card_sets_with_the_same_declarations_load_together(tmp_path):
    # issue 32: sets may share a library file (each carries a copy): the same keyword, counter
    # and kind fields declared identically are one definition; only a different one conflicts.
    diags = _two_grudge_sets(tmp_path)
    assert not diags.has_errors(), messages(diags)
    diags = _two_grudge_sets(tmp_path / "x", "you.grudges += n + 1")
    got = [m for m in messages(diags) if "원한" in m]
    assert len(got) == 2 and "is already defined" in got[0] and "is defined again" in got[1], got
