"""Card texts that read like the card (#33): where a kind's abilities work (`active in`), what
runs around each of them (`around`), timing words that carry their trigger (`timing`), a card's
action named after the card; and the bundled texts rewritten with them (docs/language.md 4.1,
5.7, 6)."""

from __future__ import annotations

import re
import shutil
import statistics
from pathlib import Path

import pytest
import yaml
from madang import MadangError, load_program, new_game

REPO = Path(__file__).resolve().parent.parent
CARDKINDS = REPO / "tests" / "rulesets" / "cardkinds"


def names_in(g, label: str) -> list[str]:
    st = g.st
    for z in range(len(st.zones)):
        if st.g.zone_label(z) == label:
            return [st.g.prog.cards[st.obj_card[o]].name for o in st.zones[z]]
    raise KeyError(label)


def test_a_kind_says_where_its_cards_abilities_work():
    g = new_game(str(CARDKINDS), {}, seed=1)
    # Guard (unit, `active in field`) is in the hand and on the field: one action, the field's;
    # Boost and Echo (trick, `active in hand`) act from the hand, which is not declared active.
    assert g.action_labels() == ["gain 1", "Guard", "Boost 1000", "pass"]
    g.apply_label("gain 1")
    assert g.prompt() == "응답: Echo"  # a timing word's optional, asked by its word and card
    g.apply_label("use")
    # 1 + Guard on the field's 득점시 (10, not the one in hand) + Echo (5) + the Idol on the
    # bench (a relic's kind says nothing: the `active` bench counts, the field does not)
    assert g.st.pcounters["score"] == [1 + 10 + 5 + 10000, 0]


def test_around_runs_the_kinds_block_around_each_ability():
    g = new_game(str(CARDKINDS), {}, seed=1)
    g.apply_label("gain 1")
    g.apply_label("use")  # Echo's trigger: moved aside, its effect, then to the discard pile
    assert names_in(g, "discard#1") == ["Echo"] and names_in(g, "pending") == []
    g.apply_label("Boost 1000")  # an action: after its leading `require`s
    assert names_in(g, "discard#1") == ["Echo", "Boost"]
    assert g.st.pcounters["score"][0] == 10016 + 1000
    assert "Boost 1000" not in g.action_labels()  # in the discard pile it no longer acts


def test_declined_response_leaves_the_card_in_hand():
    g = new_game(str(CARDKINDS), {}, seed=1)
    g.apply_label("gain 1")
    g.apply_label("decline")
    assert "Echo" in names_in(g, "hand#1") and g.st.pcounters["score"][0] == 10011


def test_a_cards_unnamed_action_is_named_after_the_card_and_limited_once_per_turn():
    g = new_game(str(CARDKINDS), {}, seed=1)
    g.apply_label("Guard")
    assert g.st.pcounters["score"][0] == 100
    assert "Guard" not in g.action_labels()  # `once per turn` on the card's action


def _broken(tmp_path, old: str, new: str, file: str = "cardkinds.madang") -> str:
    d = tmp_path / "cardkinds"
    shutil.copytree(CARDKINDS, d)
    text = (d / file).read_text(encoding="utf-8")
    assert old in text
    (d / file).write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(MadangError) as e:
        load_program(str(d))
    return e.value.diags.render()


@pytest.mark.parametrize(
    "file, old, new, where, message",
    [
        ("cardkinds.madang", "active in field", "active in feld", ":4:5:", "unknown zone 'feld'"),
        ("cardkinds.madang", "active in field", "actve in field", ":4:5:", "'actve' in a kind"),
        (
            "cardkinds.madang",
            "        effect()\n",
            "",
            ":11:",
            "needs the statement `effect()` once",
        ),
        ("cardkinds.madang", "action gain(", "action (", ":33:1:", "this action needs a name"),
        (
            "cards.yaml",
            "득점시:",
            "득점시 scored(p):",
            ":6:7:",
            "timing word '득점시' names its event",
        ),
        ("cards.yaml", "응답 scored(p)", "응답", ":17:7:", "timing word '응답' needs an event"),
        ("cards.yaml", "응답 scored(p)", "응담 scored(p)", ":17:7:", "'응담' is not a keyword"),
    ],
)
def test_mistakes_in_the_new_forms_are_located(tmp_path, file, old, new, where, message):
    out = _broken(tmp_path, old, new, file)
    line = next(ln for ln in out.splitlines() if message in ln)
    assert where in line and file in line


def test_the_new_forms_print_back_in_canonical_layout():
    from madang.language.diagnostics import Diagnostics
    from madang.language.fmt import format_source

    src = (CARDKINDS / "cardkinds.madang").read_text(encoding="utf-8")
    assert format_source(src, "cardkinds.madang", Diagnostics()) == src
    text = "응답 scored(p) if p == you: you.score += 5\naction(x: number from [1]) in main:\n    pass\n"
    out = format_source(text, "card", Diagnostics(), card_text=True)
    assert out == (
        "응답 scored(p) if p == you:\n    you.score += 5\n"
        "action(x: number from [1]) in main:\n    pass\n"
    )


# ---------------------------------------------------------------- the bundled card texts

REWRITTEN = [
    "rulesets/game_of_thrones_2p",
    "rulesets/nivel_arena",
    "rulesets/clash_of_decks",
    "rulesets/cthulhu_wars",
    "docs/examples/got_expansion",
    "docs/examples/clash_expansion",
]
GUARDS = re.compile(r"on_field\(this\)|플레이중\(this\)|이벤트시작|이벤트끝")


@pytest.mark.parametrize("ruleset", REWRITTEN)
def test_no_guard_or_bracket_is_left_in_the_rewritten_card_texts(ruleset):
    cards = yaml.safe_load((REPO / ruleset / "cards.yaml").read_text("utf-8"))["cards"]
    guarded = [c["name"] for c in cards if GUARDS.search(c.get("text") or "")]
    assert guarded == []


def test_nivel_arena_skills_use_the_timing_word_and_no_owner_call():
    cards = yaml.safe_load((REPO / "rulesets/nivel_arena/cards.yaml").read_text("utf-8"))["cards"]
    texts = [c.get("text") or "" for c in cards]
    assert sum("사용시:" in t for t in texts) == 19
    assert not [t for t in texts if "skill_used(this)" in t or "owner(" in t]


def test_a_static_inside_a_condition_keyword_keeps_its_own_if():
    from madang.language.diagnostics import Diagnostics
    from madang.language.fmt import format_source

    # ブラン (Nivel Arena ST01-008): `패시브:` (while on the field) and, on its player's turn only
    text = "패시브:\n    modify units_with(you, 어태커).파워 by 1000 if active == you\n"
    assert format_source(text, "card", Diagnostics(), card_text=True) == text


def _size(text: str) -> int:
    """Characters of a text without its comment lines, each run of blanks counted once."""
    lines = (ln for ln in text.splitlines() if not ln.strip().startswith("#"))
    return len(re.sub(r"\s+", " ", "\n".join(lines).strip()))


def got_text_ratio() -> float:
    """The median, over Game of Thrones cards with both, of `text:` length / printed `문구`."""
    cards = yaml.safe_load(
        (REPO / "rulesets" / "game_of_thrones_2p" / "cards.yaml").read_text("utf-8")
    )["cards"]
    ratios = [_size(c["text"]) / _size(c["문구"]) for c in cards if c.get("text") and c.get("문구")]
    assert len(ratios) >= 40
    return statistics.median(ratios)


def test_game_of_thrones_card_texts_are_about_as_long_as_the_printed_cards():
    # 1.64 before #33 (guards, begin/end brackets, hand-written triggers); 1.18 after
    assert got_text_ratio() <= 1.2


def test_a_keywords_block_may_use_timing_words(tmp_path):
    d = tmp_path / "cardkinds"
    shutil.copytree(CARDKINDS, d)
    rules = (d / "cardkinds.madang").read_text(encoding="utf-8")
    rules = rules.replace(
        "action gain(",
        "keyword 축복/blessing:\n    득점시: you.score += 1000000\n\naction gain(",
    ).replace(
        '    create "Idol" in p.field\n',
        '    create "Idol" in p.field\n    create "Saint" in p.field\n',
    )
    (d / "cardkinds.madang").write_text(rules, encoding="utf-8")
    with (d / "cards.yaml").open("a", encoding="utf-8") as f:
        f.write("  - name: Saint\n    type: unit\n    text: 축복\n")
    g = new_game(str(d), {}, seed=1)
    g.apply_label("gain 1")
    g.apply_label("use")
    assert g.st.pcounters["score"][0] == 10016 + 1000000


@pytest.mark.parametrize(
    "text, where, message",
    [
        ("after hit(this, this):\n    pass\n", (1, 7), "binds `this` at most once"),
        ("after hit(x):\n    pass\n    x.y(1)\n", (3, 5), "only names can be called"),
    ],
)
def test_tree_building_errors_are_located(text, where, message):
    from madang.language.diagnostics import Diagnostics
    from madang.language.parser import Origin, parse_card_text

    diags = Diagnostics()
    parse_card_text(text, Origin("card"), diags)
    [d] = diags.items
    assert message in d.message and (d.span.line, d.span.col) == where


# ---------------------------------------------------------------- once per turn per card

LIMITS = """\
kind unit:
    power: number
zone hand: per player, ordered, owner sees, new objects
zone field: per player, ordered, public, active
counter seen: per player = 0
keyword 자격/usable_if[cond: condition]
setup:
    for p in players:
        create "Pawn" in p.field
        create "Rook" in p.field
        create "Bishop" in p.hand
flow:
    let p = first(players)
    repeat 3 times:
        turn p:
            window main by p
        p = next_player(p)
action tap(c: card from you.field) in main once per turn per c:
    you.seen += c.power
action recall(c: card from you.field) in main:
    move c to you.hand
    move c to you.field
action play(c: card from you.hand) in main:
    require matches(c, keyword_arg(c, 자격))
    move c to you.field
"""

LIMIT_CARDS = """\
ruleset: limits
cards:
  - {name: Pawn, type: unit, power: 1}
  - {name: Rook, type: unit, power: 10}
  - name: Bishop
    type: unit
    power: 100
    text: 자격[count(you.field) >= 2 and this.power == 100 and it == this]
"""


def limits(tmp_path: Path, rules: str = LIMITS) -> str:
    (tmp_path / "limits.madang").write_text(rules, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(LIMIT_CARDS, encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text(
        "name: limits\ntitle: {en: Limits, ko: 제한}\nplayers: 2\n"
        "files: [limits.madang]\ncards: [cards.yaml]\n",
        encoding="utf-8",
    )
    return str(tmp_path)


def taps(g) -> list[str]:
    return [a for a in g.action_labels() if a.startswith("tap")]


def test_once_per_turn_per_parameter_limits_each_card_on_its_own(tmp_path):
    # language.md 4.8: `once per turn per c`: one use per value of parameter c (Nivel Arena
    # 6.4.1.2.2: each card's active effect once per turn), not one per player
    from madang.game.api import GameState

    g = new_game(limits(tmp_path), {}, seed=1)
    assert taps(g) == ["tap Pawn", "tap Rook"]
    g.apply_label("tap Pawn")
    assert taps(g) == ["tap Rook"]  # the other card keeps its own limit
    g.apply_label("tap Rook")
    assert taps(g) == [] and g.st.pcounters["seen"] == [11, 0]
    assert taps(GameState.from_json(g.to_json())) == []  # the limit is saved with the state
    g.apply_label("pass")
    g.apply_label("pass")
    assert taps(g) == ["tap Pawn", "tap Rook"]  # its player's next turn


def test_a_card_that_becomes_new_has_a_new_limit(tmp_path):
    # language.md 11.5: an object that arrives in a `new objects` zone starts afresh; its
    # `per` record ends with it (as a field the rules wrote on it would)
    g = new_game(limits(tmp_path), {}, seed=1)
    g.apply_label("tap Pawn")
    g.apply_label("recall Rook")  # through the hand (new objects) and back: still limited? no
    g.apply_label("recall Pawn")
    assert taps(g) == ["tap Rook", "tap Pawn"]


def test_this_and_you_in_a_condition_argument_are_the_card_that_carries_it(tmp_path):
    # language.md 6: in a condition argument `it` is the object tested, `this` the card whose
    # keyword it is and `you` its owner (Nivel Arena's 사용조건[count(units(you)) > 0])
    g = new_game(limits(tmp_path), {}, seed=1)
    assert "play Bishop" in g.action_labels()
    (tmp_path / "b").mkdir()
    g = new_game(
        limits(tmp_path / "b", LIMITS.replace("you.seen += c.power", "move c to you.hand"))
    )
    g.apply_label("tap Pawn")  # one card left on the field: the condition fails
    assert "play Bishop" not in g.action_labels()


@pytest.mark.parametrize(
    "old, new, where, message",
    [
        ("turn per c:", "turn per d:", (18, 62), "'d' is not a parameter of this action"),
        (
            "action recall",
            "after tap(x) once per turn per x:\n    pass\naction recall",
            (20, 32),
            "limits an action by one of its parameters",
        ),
    ],
)
def test_a_per_limit_names_a_parameter_of_an_action(tmp_path, old, new, where, message):
    with pytest.raises(MadangError) as e:
        load_program(limits(tmp_path, LIMITS.replace(old, new)))
    [d] = [d for d in e.value.diags.items if message in d.message]
    assert (d.span.line, d.span.col) == where


def test_a_per_limit_prints_back():
    from madang.language.diagnostics import Diagnostics
    from madang.language.fmt import format_source

    text = "action tap(c: card from you.field) in main once per turn per c:\n    pass\n"
    assert format_source(text, "x.madang", Diagnostics()) == text


def _texts(folder: str) -> list[str]:
    cards = yaml.safe_load((REPO / folder / "cards.yaml").read_text("utf-8"))["cards"]
    return [c.get("text") or "" for c in cards]


BUNDLED = REWRITTEN + ["docs/examples/arena_expansion", "docs/examples/nivel_set"]


@pytest.mark.parametrize("folder", BUNDLED)
def test_one_spelling_of_the_owner_and_the_card_itself_is_this(folder):
    # #33: `c.owner` and `c.position`, never `owner(c)`; in a condition argument the card is `this` (its player
    # `you`), not `it`: `it` is the object tested
    files = [*(REPO / folder).glob("*.madang"), REPO / folder / "cards.yaml"]
    text = "\n".join(f.read_text("utf-8") for f in files)
    assert re.findall(r"(?<![\w.])(?:owner|position)\(", text) == []
    assert not [t for t in _texts(folder) if re.search(r"사용조건\[[^\n]*\bit\.owner", t)]


def test_nivel_arena_actives_are_limited_by_the_language():
    # 6.4.1.2.2: once per turn each, written `once per turn per c`; the effect `액티브메인:`
    rules = (REPO / "rulesets/nivel_arena/rules.madang").read_text("utf-8")
    assert "used_turn" not in rules and "once per turn per c:" in rules
    texts = _texts("rulesets/nivel_arena")
    assert sum("액티브메인:" in t for t in texts) == 3
    assert not [t for t in texts if "active_used(" in t]


def test_nivel_arena_trigger_effects_use_the_timing_word():
    # 10.1.11, 4.5.4.3: every card marked 트리거 writes its trigger effect `트리거시:`
    cards = yaml.safe_load((REPO / "rulesets/nivel_arena/cards.yaml").read_text("utf-8"))["cards"]
    marked = [c for c in cards if re.search(r"(^|[\s,])트리거($|[\s,])", c.get("text") or "")]
    assert len(marked) == 20
    assert all("트리거시:" in c["text"] for c in marked)
    assert not [c["name"] for c in cards if "trigger_fired(" in (c.get("text") or "")]
