"""#19 mechanisms for real card sets, below the level of scenarios: what the checker says about
their mistakes, how `madang fmt` writes them, and what reveals do to observations, narration,
determinization and saves. The rules themselves are proven by the example set's scenarios
(docs/examples/arena_expansion/scenarios)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from madang.build.loader import load_ruleset
from madang.game.api import GameState, new_game
from madang.game.determinize import determinize
from madang.language.diagnostics import Diagnostics
from madang.language.fmt import format_source
from madang.language.parser import Origin, parse_module
from madang.tools.narration import Narrator
from madang.tools.scenario import _Runner, load_scenario

REPO = Path(__file__).resolve().parents[1]
EXPANSION = REPO / "docs" / "examples" / "arena_expansion"


def check_text(tmp_path: Path, text: str, madang: str = "") -> list[str]:
    """Errors of a one-card set for Nivel Arena whose text is `text`: 'line:col: message'."""
    folder = tmp_path / "set"
    folder.mkdir(exist_ok=True)
    body = "".join(f"      {ln}\n" for ln in text.strip("\n").splitlines())
    (folder / "cards.yaml").write_text(
        "ruleset: nivel_arena\ncards:\n  - name: 시험\n    id: T-1\n    type: 유닛\n"
        "    코스트: 1\n    파워: 1000\n    히트: 1\n    속성: 炎\n    소속: []\n"
        f"    text: |\n{body}",
        encoding="utf-8",
    )
    if madang:
        (folder / "set.madang").write_text(madang, encoding="utf-8")
    diags = Diagnostics()
    load_ruleset("nivel_arena", diags, [str(folder)])
    return [
        f"{d.span.line}:{d.span.col}: {d.message} ({d.hint})"
        for d in diags.items
        if d.severity == "error"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("after entered(this):\n    grant 관통[1, 2] to this", "takes 1 argument, got 2"),
        (
            "after entered(this):\n    grant 관통 to this\n    grant 귀통[1] to this",
            "must be a keyword",
        ),
        ("after entered(this):\n    let l = [1, 2]\n    log l[0, 1]", "an index takes one value"),
        ("after entered(this):\n    modify this.속성 by 1", "`modify x.속성 to VALUE`"),
        (
            'after entered(this):\n    modify this.파워 to "x"',
            "new '파워' must be number, got text",
        ),
        ("after entered(this):\n    reveal 3 to you", "'reveal' shows an object"),
        ("after entered(this):\n    reveal this to 3", "needs a player"),
        ("cost 공겨(this):\n    require true", "unknown action '공겨'"),
    ],
)
def test_mistakes_in_the_new_forms_are_located_errors(tmp_path, text, expected):
    errors = check_text(tmp_path, text)
    assert len(errors) == 1 and expected in errors[0], errors
    assert errors[0].startswith(("12:", "13:", "14:", "15:")), errors  # on the card's text lines


def test_the_new_forms_check_clean_in_both_spellings(tmp_path):
    text = """
after entered(this):
    grant 관통[1] to this until end of turn
    modify this.파워 to 0 until end of turn
    reveal contents(you.hand) to players
이후 exited(이것):
    공개 contents(you.hand) 으로 players
    변경 이것.파워 으로 0
cost 공격(this):
    require count(you.hand) > 0
비용 배치(이것):
    요구 count(you.hand) > 1
"""
    assert check_text(tmp_path, text) == []


def test_a_soft_keyword_stays_a_name_outside_a_statement_head():
    """`reveal` and `cost` (공개, 비용) begin statements only: a zone, an action, a field or a
    verb called at a line start keeps the name."""
    src = (
        "zone reveal: shared, ordered, public\n"
        "kind thing:\n    cost: number\n"
        "verb cost(x: number):\n    pass\n"
        "flow:\n    cost(1)\n    move first(reveal) to reveal\n    reveal first(reveal) to players\n"
    )
    diags = Diagnostics()
    diags.add_source("t.madang", src)
    mod = parse_module(src, Origin("t.madang"), diags)
    assert mod is not None and not diags.has_errors(), diags.render()
    flow = mod.decls[-1].body.body
    assert [type(s).__name__ for s in flow] == ["CallStmt", "Move", "Reveal"]


@pytest.mark.parametrize(
    "line",
    [
        "grant 관통[1, 2] to this until end of turn",
        "modify this.파워 to 0 until end of turn",
        "reveal contents(you.hand) to players",
    ],
)
def test_fmt_keeps_the_new_forms(line):
    src = f"flow:\n    {line}\n"
    assert format_source(src, "t.madang", Diagnostics()) == src


def test_fmt_keeps_a_cost_ability():
    src = "cost 공격(this) if true:\n    require true\n"
    assert format_source(src, "t.madang", Diagnostics()) == src


def run_until_end(path: Path):
    """The state of a scenario after its last step."""
    runner = _Runner(load_scenario(path))
    runner.run()
    return runner.st


def write_reveal_scenario(tmp_path: Path, extra: str = "") -> Path:
    """P1 reveals the top card of its own deck to P2 only (the deck is hidden from both)."""
    p = tmp_path / "reveal.yaml"
    p.write_text(
        "ruleset: nivel_arena\nrule: test\nsetup:\n  active: P1\n  zones:\n"
        '    level_zone#1: ["리더 ラピ"]\n    level_zone#2: ["리더 ギルティ"]\n'
        '    deck#1: ["ミカ", "ネオン", "ジュリア", "ネオン"]\n    deck#2: ["ネオン", "ネオン"]\n'
        "start: |\n  reveal first(P1.deck) to P2\n"
        + extra
        + '  choose x from ["a", "b"] by P1 "wait"\n'
        + "steps:\n  - expect: {player: P1}\n",
        encoding="utf-8",
    )
    return p


def test_a_revealed_card_is_in_its_players_observation_only(tmp_path):
    st = run_until_end(write_reveal_scenario(tmp_path))
    game = GameState(st)
    assert game.observation(1)["zones"]["deck#1"] == {"count": 4, "known": [[0, "ミカ"]]}
    assert game.observation(0)["zones"]["deck#1"] == {"count": 4}


def test_a_revealed_card_is_followed_in_its_zone_and_forgotten_when_it_leaves(tmp_path):
    bottom = run_until_end(
        write_reveal_scenario(tmp_path, "  move first(P1.deck) to back of P1.deck\n")
    )
    assert GameState(bottom).observation(1)["zones"]["deck#1"]["known"] == [[3, "ミカ"]]
    drawn = run_until_end(write_reveal_scenario(tmp_path, "  move first(P1.deck) to P1.hand\n"))
    assert GameState(drawn).observation(1)["zones"]["hand#1"] == {"count": 1}
    shuffled = run_until_end(write_reveal_scenario(tmp_path, "  shuffle P1.deck\n"))
    assert "known" not in GameState(shuffled).observation(1)["zones"]["deck#1"]


def test_a_reveal_is_narrated_to_the_players_it_was_shown_to(tmp_path):
    st = run_until_end(write_reveal_scenario(tmp_path))
    entry = next(e for e in st.log if "reveal" in e)
    shown = Narrator(st.g.prog, "en", seat=1).line(entry)
    hidden = Narrator(st.g.prog, "en", seat=0).line(entry)
    assert shown == "  revealed to P2: ミカ"
    assert "ミカ" not in hidden and "hidden" in hidden


def test_a_determinized_sample_keeps_what_was_revealed_to_the_seat(tmp_path):
    st = run_until_end(write_reveal_scenario(tmp_path))
    deck = st.g.zone_base["deck"]  # deck#1
    names = st.g.prog.cards
    for seed in range(20):
        sample = determinize(st, 1, random.Random(seed))
        assert names[sample.obj_card[sample.zones[deck][0]]].name == "ミカ"
    tops = {
        names[s.obj_card[s.zones[deck][0]]].name
        for s in (determinize(st, 0, random.Random(k)) for k in range(20))
    }
    assert len(tops) > 1  # P1 was not shown its own top card: it is re-dealt


def test_a_save_keeps_reveals_and_granted_arguments(tmp_path):
    st = run_until_end(
        write_reveal_scenario(tmp_path, "  grant 관통[2] to first(P1.deck) until end of turn\n")
    )
    game = GameState(st)
    back = GameState.from_json(game.to_json(), st.g.prog)
    assert back.observation(1) == game.observation(1)
    top = back.st.zones[back.st.g.zone_base["deck"]][0]
    assert back.st.g.prog.keyword_args(back.st, top, "관통") == [2]


def test_without_a_declaration_an_object_keeps_its_effects_when_it_moves():
    """Rulesets that declare no `new objects` zone behave as before (Clash of Decks)."""
    game = new_game("clash_of_decks", {}, seed=1)
    st = game.st
    prog = st.g.prog
    hand = st.g.zone_base["hand"]
    o = st.zones[hand][0]
    kw = next(iter(prog.syms.unique(prog.syms.keywords))).name
    from madang.runtime import engine

    engine.AddModifier.run(st, o, None, kw, None, True, [])
    engine.move_object(st, o, st.g.zone_base["hand"] + 1, "back")
    engine.move_object(st, o, hand, "back")
    assert prog.has(st, o, kw)
    assert st.obj_moves[o] == 2 and st.obj_from[o] == hand + 1


def test_the_example_expansion_checks_clean():
    diags = Diagnostics()
    loaded = load_ruleset("nivel_arena", diags, [str(EXPANSION)])
    assert loaded.program is not None and not diags.has_errors(), diags.render()
    assert len(loaded.program.cards) > 85  # the starter cards and the expansion's


def test_a_keyword_granted_without_its_arguments_is_a_warning(tmp_path):
    """#19: `grant 관통 to u` granted a 관통 whose argument read none, silently."""
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "cards.yaml").write_text(
        "ruleset: nivel_arena\ncards:\n  - name: 시험\n    id: T-1\n    type: 유닛\n"
        "    코스트: 1\n    파워: 1000\n    히트: 1\n    속성: 炎\n    소속: []\n"
        "    text: |\n      after entered(this):\n          grant 관통 to this\n",
        encoding="utf-8",
    )
    diags = Diagnostics()
    load_ruleset("nivel_arena", diags, [str(folder)])
    mine = [d for d in diags.items if d.span.file.endswith("cards.yaml") and "set" in d.span.file]
    assert [(d.severity, d.span.line, d.hint) for d in mine] == [
        ("warning", 13, "grant 관통[n] to ...")
    ]


def test_the_table_shows_a_seat_what_was_revealed_to_it(tmp_path):
    from madang.tools.seatview import seat_view

    st = run_until_end(write_reveal_scenario(tmp_path))
    game = GameState(st)

    def deck_of_p1(seat):
        view = seat_view(game, seat)
        return next(z for z in view["players"][0]["zones"] if z["name"] == "deck")

    assert deck_of_p1(1)["known"] == [[1, "ミカ"]]
    assert "known" not in deck_of_p1(0)
