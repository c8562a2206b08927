"""Deck files: checked against the ruleset's `rule`s at the card's line, given to seats with
--deck, played in a gauntlet, and counted card by card."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from madang.build.loader import load_ruleset
from madang.game.api import GameState, MadangError, load_program, new_game
from madang.language.diagnostics import Diagnostics
from madang.tools.cli import main

HERE = Path(__file__).parent
DECKS = HERE / "decks"
EXAMPLES = HERE.parent / "docs" / "examples"
CARDS = str(EXAMPLES / "my_cards.yaml")
MY_DECK = str(EXAMPLES / "my_deck.yaml")


def run_check(capsys, *paths: str) -> tuple[int, list[dict]]:
    code = main(["check", "--format", "json", *paths])
    return code, json.loads(capsys.readouterr().out)


def errors(diags: list[dict]) -> list[dict]:
    return [d for d in diags if d["severity"] == "error"]


def line_of(path: Path, text: str) -> int:
    return next(i for i, s in enumerate(path.read_text("utf-8").splitlines(), 1) if text in s)


# -------------------------------------------------------- Nivel Arena 5.1.2: deck construction


@pytest.mark.parametrize(
    "deck, rule, card",
    [
        # 5.1.2: "덱 구성 조건을 만족한 40장의 카드로 이루어진 덱이 필요합니다."
        ("nivel_bad_size.yaml", "5.1.2: a deck holds exactly 40 cards", None),
        # 5.1.2.2: "같은 식별 번호를 가진 카드는 최대 3장까지 넣을 수 있습니다."
        ("nivel_bad_copies.yaml", "5.1.2.2: at most 3 cards of one number", "ネオン"),
        # 5.1.2.3: "트리거가 표시된 카드는 최대 8장까지 넣을 수 있습니다."
        ("nivel_bad_triggers.yaml", "5.1.2.3: at most 8 trigger cards", "ミサイル"),
        # 5.1.2.1: "덱을 구성하는 카드들은 리더 카드의 서약에 명시된 조건을 모두 만족해야 합니다."
        ("nivel_bad_oath.yaml", "5.1.2.1: only cards of the attribute", "N102"),
    ],
)
def test_nivel_deck_rules_refuse_a_broken_deck_at_the_card_line(capsys, deck, rule, card):
    path = DECKS / deck
    code, diags = run_check(capsys, str(path))
    assert code == 1
    found = [d for d in errors(diags) if rule in d["message"]]
    assert found, diags
    where = line_of(path, f'"{card}"') if card else line_of(path, "cards:")
    assert any(d["line"] == where and d["file"].endswith(deck) for d in found), found
    assert all("rules.madang" in (d.get("hint") or "") for d in found)


def test_every_bundled_deck_passes_its_rules():
    for name in ("nivel_arena", "clash_of_decks", "game_of_thrones_2p"):
        diags = Diagnostics()
        loaded = load_ruleset(name, diags)
        assert not diags.has_errors(), diags.render()
        assert loaded.decks and all(d.builtin for d in loaded.decks)
        assert set(loaded.meta["data"]["decks"]) == {d.name for d in loaded.decks}


def test_a_broken_deck_never_reaches_a_game():
    with pytest.raises(MadangError) as e:
        new_game("nivel_arena", {}, 1, cards=(str(DECKS / "nivel_bad_copies.yaml"),))
    assert any("5.1.2.2" in d.message for d in e.value.diags.errors)


# -------------------------------------------------------- deck files: shape and names


def test_unknown_card_and_duplicate_name_are_located(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: clash_of_decks\nname: '1'\ncards:\n  BARRON: 2\n", encoding="utf-8")
    code, diags = run_check(capsys, str(bad))
    assert code == 1
    msgs = {(d["line"], d["message"]) for d in errors(diags)}
    assert (4, "no card named 'BARRON' in this ruleset or the card sets given") in msgs
    assert any(line == 2 and "a deck named '1' is already given" in m for line, m in msgs)
    hint = next(d["hint"] for d in errors(diags) if "BARRON" in d["message"])
    assert "BARON" in hint


def test_a_deck_for_a_ruleset_without_decks_is_refused(tmp_path, capsys):
    deck = tmp_path / "d.yaml"
    deck.write_text("ruleset: cthulhu_wars\nname: x\ncards: {A: 1}\n", encoding="utf-8")
    code, diags = run_check(capsys, str(deck))
    assert code == 1 and any("takes no deck files" in d["message"] for d in errors(diags))


def test_deck_with_its_card_set_checks_clean(capsys):
    code, diags = run_check(capsys, CARDS, MY_DECK)
    assert code == 0, diags
    code, diags = run_check(capsys, MY_DECK)  # alone: with the card file next to it (#36)
    assert code == 0, diags


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p"])
def test_published_deck_schema_is_current(capsys, ruleset):
    assert main(["schema", ruleset, "--deck"]) == 0
    printed = json.loads(capsys.readouterr().out)
    published = HERE.parent / f"docs/schemas/{ruleset}.deck.json"
    assert printed == json.loads(published.read_text("utf-8")), (
        f"regenerate with: madang schema {ruleset} --deck > {published.relative_to(HERE.parent)}"
    )
    assert "leader" in printed["required"] if ruleset == "nivel_arena" else True


# -------------------------------------------------------- --deck in play and simulate


def test_deck_goes_to_its_seat_and_its_cards_are_dealt():
    prog = load_program("clash_of_decks", (CARDS, MY_DECK))
    game = new_game(prog, {"deck": "wardens,2"}, 3)
    st = game.st
    names = {
        prog.cards[st.obj_card[o]].name for o in range(len(st.obj_card)) if st.obj_owner[o] == 0
    }
    assert {"GARGOYLE", "HYDRA", "BARON"} <= names


def test_play_with_deck_saves_and_resumes(tmp_path, capsys):
    save = tmp_path / "g.json"
    code = main(["play", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK, "--seed", "4",
                 "--max-decisions", "3", "--save", str(save), "--format", "json"])  # fmt: skip
    assert code == 0
    capsys.readouterr()
    game = GameState.from_json(save.read_text("utf-8"))
    assert game.st.g.options["deck"][0] == "wardens"


def test_seat_given_deck_and_conflicting_option(capsys):
    assert main(["play", "clash_of_decks", "--cards", CARDS, "--deck", f"2={MY_DECK}",
                 "--max-decisions", "1", "--format", "json"]) == 0  # fmt: skip
    capsys.readouterr()
    code = main(["play", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK,
                 "--option", "deck=1"])  # fmt: skip
    assert code == 2 and "both choose decks" in capsys.readouterr().err
    code = main(["play", "clash_of_decks", "--cards", CARDS, "--deck", f"3={MY_DECK}"])
    assert code == 2 and "at most 2 seats" in capsys.readouterr().err


def test_gauntlet_plays_the_deck_against_each_other_in_both_seats(capsys):
    code = main(["simulate", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK, "--against",
                 "all", "--games", "80", "--seed", "1", "--jobs", "1", "--by-card",
                 "--format", "json"])  # fmt: skip
    r = json.loads(capsys.readouterr().out)
    assert code == 0
    keys = set(r["pairings"])
    assert keys == {f"deck=wardens,{d}" for d in "1234"} | {f"deck={d},wardens" for d in "1234"}
    cards = {c["name"]: c for c in r["cards"]}
    for new in ("GARGOYLE", "HYDRA", "WARDEN"):
        assert cards[new]["in_deck"]["games"] == 80  # one seat of every game holds the deck
        assert cards[new]["played"]["games"] > 0
    assert all(set(c) >= {"name", "in_deck", "drawn", "played", "not_played"} for c in r["cards"])
    solid = [
        c["iwp"]["value"]
        for c in r["cards"]
        if c["iwp"]["value"] is not None and not c["iwp"]["few"]
    ]
    assert solid == sorted(solid, reverse=True)  # by improvement when played, within each deck


def test_against_a_list_and_unknown_deck(capsys):
    code = main(["simulate", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK, "--against",
                 "2,3", "--games", "8", "--jobs", "1", "--format", "json"])  # fmt: skip
    r = json.loads(capsys.readouterr().out)
    assert code == 0 and set(r["pairings"]) == {
        "deck=wardens,2", "deck=2,wardens", "deck=wardens,3", "deck=3,wardens"
    }  # fmt: skip
    code = main(["simulate", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK, "--against",
                 "9", "--games", "8", "--jobs", "1"])  # fmt: skip
    assert code == 1 and "--against 9: no such deck" in capsys.readouterr().err


def test_cards_in_no_deck_are_a_warning_saying_how_to_use_them(capsys):
    assert (
        main(["simulate", "clash_of_decks", "--cards", CARDS, "--games", "4", "--jobs", "1"]) == 0
    )
    err = capsys.readouterr().err
    assert "warning: 8 cards of" in err and "--deck FILE" in err
    assert main(["simulate", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK, "--games", "4",
                 "--jobs", "1"]) == 0  # fmt: skip
    err = capsys.readouterr().err
    assert "1 cards of" in err and "PHOENIX" in err  # the one card the deck leaves out


def test_by_card_counts_drawn_and_played_from_the_rulesets_events():
    from madang.tools.simulate import simulate

    r = simulate("nivel_arena", 4, seed=1, jobs=1, by_card=True, max_decisions=400)
    rows = {c["name"]: c for c in r["cards"]}
    played = sum(c["played"]["games"] for c in rows.values())
    drawn = sum(c["drawn"]["games"] for c in rows.values())
    held = sum(c["in_deck"]["games"] for c in rows.values())
    assert 0 < played <= drawn <= held


# -------------------------------------------------------- the report


def test_report_is_one_self_contained_page(tmp_path, capsys):
    out = tmp_path / "r.html"
    code = main(["simulate", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK, "--against",
                 "all", "--games", "40", "--jobs", "1", "--by-card", "--report", str(out)])  # fmt: skip
    assert code == 0
    page = out.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>")
    for section in ('id="settings"', 'id="inputs"', 'id="pairings"', 'id="cards"', 'id="lengths"'):
        assert section in page
    assert 'id="agents"' not in page  # one agent for every seat: nothing to compare
    assert page.count("<svg") == 3 and "GARGOYLE" in page
    for fetch in ("<script src", "src=", "<link", "@import", "url(http", 'href="http', "fetch("):
        assert fetch not in page  # nothing is fetched: the page works offline
    # what it ran: the files with their digests, the version, the fingerprints
    digest = hashlib.sha256(Path(MY_DECK).read_bytes()).hexdigest()
    assert digest in page and "fingerprint: rules" in page and "madang" in page
    # the card table: one row per card and per deck holding it, filters by deck, kind and cost
    for f in ('id="f-deck"', 'id="f-kind"', 'id="f-cost"', "<option>wardens</option>"):
        assert f in page
    assert 'data-deck="wardens"' in page and 'class="all"' in page
    again = tmp_path / "again.html"
    main(["simulate", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK, "--against",
          "all", "--games", "40", "--jobs", "1", "--by-card", "--report", str(again)])  # fmt: skip
    assert again.read_text("utf-8") == page  # the same run, the same page


def test_report_compares_the_agents_of_a_run_with_several(tmp_path, capsys):
    out = tmp_path / "r.html"
    code = main(["simulate", "clash_of_decks", "--cards", CARDS, "--deck", MY_DECK, "--against",
                 "all", "--games", "16", "--jobs", "1", "--seats", "first,random", "--report",
                 str(out)])  # fmt: skip
    assert code == 0
    page = out.read_text("utf-8")
    assert 'id="agents"' in page and "<td>first</td><td>1</td>" in page
    assert "<th>deck wardens</th>" in page


# -------------------------------------------------------- card lint


def test_values_out_of_the_declared_range_are_errors_at_the_value(capsys):
    path = DECKS / "clash_lint_ranges.yaml"
    code, diags = run_check(capsys, str(path))
    assert code == 1
    got = {(d["line"], d["message"]) for d in errors(diags)}
    assert (line_of(path, "cost: -2"), "'cost' must be at least 0, got -2") in got
    assert (line_of(path, "cost: 99"), "'cost' must be at most 10, got 99") in got
    assert (line_of(path, "health: 0"), "'health' must be at least 1, got 0") in got


@pytest.mark.parametrize(
    "needle, message",
    [
        ("text: 분노", "'분노' does nothing on a spell: the rules give it to creature"),
        ("아우라[아우라]", "'아우라' is given itself"),
        ("질주, 질주", "'질주' is listed twice on RUNNER"),
        ("c == this and c != this", "this condition is always false"),
        ("name: TOWER2", "2 cards of kind 'tower': the rules allow 1"),
    ],
)
def test_cards_that_cannot_work_get_a_located_warning(capsys, needle, message):
    path = DECKS / "clash_lint_cards.yaml"
    code, diags = run_check(capsys, str(path))
    assert code == 0  # warnings: the set still loads
    assert any(
        d["severity"] == "warning"
        and message in d["message"]
        and d["line"] == line_of(path, needle)
        for d in diags
    ), diags
    assert main(["check", "--strict", str(path)]) == 1
    capsys.readouterr()


def test_a_condition_that_always_holds_is_flagged_and_a_plain_one_is_not(tmp_path, capsys):
    cards = tmp_path / "c.yaml"
    cards.write_text(
        "ruleset: clash_of_decks\ncards:\n"
        '  - {name: A, type: creature, cost: 1, attack: 1, health: 1, text: "after place(c, l)'
        ' if c.cost == c.cost or c.cost > 2:\\n    pass\\n"}\n'
        '  - {name: B, type: creature, cost: 1, attack: 1, health: 1, text: "after place(c, l)'
        ' if c == this and c.cost != 2:\\n    pass\\n"}\n',
        encoding="utf-8",
    )
    _, diags = run_check(capsys, str(cards))
    flagged = [d for d in diags if d["code"] == "constant-condition"]
    assert len(flagged) == 1 and "always true" in flagged[0]["message"] and flagged[0]["line"] == 3


# -------------------------------------------------------- Nivel Arena: a new set in a deck

NIVEL_SET = EXAMPLES / "nivel_set"


def test_nivel_deck_from_a_new_set_plays_a_gauntlet_and_its_cards_are_counted(capsys):
    code = main(["simulate", "nivel_arena", "--cards", str(NIVEL_SET), "--deck",
                 str(NIVEL_SET / "deck.yaml"), "--against", "ST01,ST02", "--games", "8",
                 "--seed", "1", "--jobs", "1", "--by-card", "--format", "json"])  # fmt: skip
    r = json.loads(capsys.readouterr().out)
    assert code == 0 and r["finished"] == 8
    assert set(r["pairings"]) == {"deck=blaze,ST01", "deck=ST01,blaze", "deck=blaze,ST02",
                                  "deck=ST02,blaze"}  # fmt: skip
    cards = {c["name"]: c for c in r["cards"]}
    assert cards["ブレイズ"]["in_deck"]["games"] == 8 and cards["ブレイズ"]["drawn"]["games"] > 0
    # a game that draws from a deck: some cards were drawn in some games and not in others
    assert any(c["iwd"]["value"] is not None for c in r["cards"])


def test_nivel_illegal_deck_is_refused_with_the_rule_and_the_line(capsys):
    broken = NIVEL_SET / "deck_broken.yaml"
    code = main(["simulate", "nivel_arena", "--cards", str(NIVEL_SET), "--deck", str(broken),
                 "--against", "all", "--games", "4", "--jobs", "1"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1
    line = line_of(broken, '"ブレイズ": 4')
    assert f"deck_broken.yaml:{line}:3: error: ブレイズ: breaks the rule: 5.1.2.2" in err


def test_the_per_card_table_lines_up_wide_names():
    from madang.tools.cardstats import render, report
    from rich.cells import cell_len

    rows = report({("ケブラープロテクター", "a", 0): [40, 20, 30, 18, 10, 6],
                   ("BARON", "a", 0): [40, 20, 30, 18, 10, 6]})  # fmt: skip
    a, b = render(rows)[1:]
    assert cell_len(a) == cell_len(b)


def test_a_second_list_of_cards_in_a_deck_game_of_thrones_plots(tmp_path, capsys):
    """Game of Thrones: a house deck names its 7 plots beside its 50 cards (`plots: cards`)."""
    stark = (HERE.parent / "rulesets/game_of_thrones_2p/decks/stark.yaml").read_text("utf-8")
    mine = tmp_path / "wolves.yaml"
    mine.write_text(stark.replace("name: stark", "name: wolves").replace('"매복": 1', '"매복": 1\n  "매보크": 1'),
                    encoding="utf-8")  # fmt: skip
    code, diags = run_check(capsys, str(mine))
    assert code == 1
    bad = [d for d in errors(diags) if "매보크" in d["message"]]
    assert bad and bad[0]["line"] == line_of(mine, '"매보크"')
    mine.write_text(stark.replace("name: stark", "name: wolves"), encoding="utf-8")
    game = new_game("game_of_thrones_2p", {"houses": "wolves,lannister"}, 2, cards=(str(mine),))
    st = game.st
    plots = [
        game.st.g.prog.cards[st.obj_card[o]].name for o in st.zones[st.g.zone_base["plot_deck"]]
    ]
    assert len(plots) == 7 and "매복" in plots


def test_a_deck_of_more_than_eight_cards_plays_to_the_end(tmp_path, capsys):
    """Mana is one per card in hand: a deck of one's own with ten cards must not leave the
    counter's declared range (`mana: in 0..`, rules.madang) and stop every game."""
    deck = tmp_path / "ten.yaml"
    deck.write_text(
        'ruleset: clash_of_decks\nname: ten\ncards: {"ANNIHILATION": 1, "BARON": 1, "BOOM!": 1,'
        ' "BRUTE": 1, "CARAPACE": 1, "PARTISAN": 1, "REVENANT": 1, "TROLL": 3}\n',
        "utf-8",
    )
    code = main(["simulate", "clash_of_decks", "--deck", str(deck), "--games", "20", "--seed",
                 "1", "--jobs", "1", "--format", "json"])  # fmt: skip
    r = json.loads(capsys.readouterr().out)
    assert code == 0 and r["errors"] == {} and r["error_games"] == 0, r["errors"]
    assert r["finished"] == 20
