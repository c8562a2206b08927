"""Semantics of the language on tiny rulesets written inline, one per rule of docs/language.md
that is easy to get wrong: modifier reads, durations, arithmetic, definitions' types, limits."""

from pathlib import Path

import pytest
from madang.game.api import GameState, new_game
from madang.runtime.errors import RulesError

HEAD = """\
kind unit:
    power: number
    hp: number = 3
zone hand: per player, ordered, owner sees
zone field: per player, ordered, public, active
counter seen: per player = 0
counter mark = 0
"""

CARDS = """\
ruleset: tiny
cards:
  - {name: Pawn, type: unit, power: 1}
  - {name: Rook, type: unit, power: 5}
"""


def tiny(tmp_path: Path, rules: str, cards: str = CARDS, options: str = "") -> str:
    """A two-player ruleset folder holding HEAD + rules and the given cards."""
    (tmp_path / "tiny.madang").write_text(HEAD + rules, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(cards, encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text(
        "name: tiny\ntitle: {en: Tiny, ko: 작은}\nplayers: 2\n"
        "files: [tiny.madang]\ncards: [cards.yaml]\n" + options,
        encoding="utf-8",
    )
    return str(tmp_path)


def run(tmp_path, rules: str, *labels: str, **kw) -> GameState:
    g = new_game(tiny(tmp_path, rules, **kw), {}, seed=1, log=True)
    for label in labels:
        g.apply_label(label)
    return g


def seen(g: GameState) -> list:
    return list(g.st.pcounters["seen"])


TWO_TURNS = """
setup:
    for p in players:
        create "Pawn" in p.field
        create "Rook" in p.hand
flow:
    let p = first(players)
    repeat 2 times:
        turn p:
            window main by p
        p = next_player(p)
"""


def test_temporary_modifier_is_read_inside_the_same_run_of_statements(tmp_path):
    # language.md "modify": a modify statement changes reads at once, also in a ruleset
    # without state checks, where runs of statements are fused into one function.
    g = run(
        tmp_path,
        TWO_TURNS
        + """
action boost(c: card from you.field) in main:
    modify c.power by 2 until end of turn
    you.seen = c.power
""",
        "boost Pawn",
    )
    assert seen(g) == [3, 0]
    g.apply_label("pass")
    assert g.st.turn == 2
    [pawn] = g.st.zones[g.st.g.zone_base["field"]]
    assert g.st.g.prog.read_prop(g.st, pawn, "power") == 1  # expired at end of turn


def test_integer_division_rounds_down(tmp_path):
    # language.md "arithmetic": `/` divides whole numbers, rounding down; `%` is the remainder.
    g = run(
        tmp_path,
        TWO_TURNS
        + """
action calc(n: number from [7]) in main:
    you.seen = n / 2 * 10 + n % 2
    mark = (0 - n) / 2
""",
        "calc 7",
    )
    assert seen(g) == [31, 0]
    assert g.st.counters["mark"] == -4


def test_division_by_zero_is_a_located_rules_error(tmp_path):
    with pytest.raises(RulesError, match=r"tiny.madang:\d+:\d+.*division by zero"):
        run(
            tmp_path,
            TWO_TURNS
            + """
action calc(n: number from [0]) in main:
    you.seen = 5 / n
""",
            "calc 0",
        )


def test_until_end_of_phase_expires_when_the_current_phase_ends(tmp_path):
    # language.md "durations": `until end of phase` ends with the phase in which it was made.
    g = run(
        tmp_path,
        """
setup:
    for p in players:
        create "Pawn" in p.field
flow:
    turn first(players):
        phase one:
            for c in flatten(players.field):
                modify c.power by 4 until end of phase
            mark = sum(flatten(players.field).power)
        phase two:
            for c in flatten(players.field):
                c.owner.seen += c.power
    lose first(players)
""",
    )
    assert g.st.counters["mark"] == 10
    assert seen(g) == [1, 1]


def test_add_to_a_modified_property_changes_only_its_base(tmp_path):
    # language.md "assignment": `x.p += n` adds n to the base value; modifiers stay on top.
    g = run(
        tmp_path,
        TWO_TURNS
        + """
action grow(c: card from you.field) in main:
    modify c.power by 2 until end of turn
    c.power += 1
    you.seen = c.power
""",
        "grow Pawn",
        "pass",
    )
    assert seen(g) == [4, 0]
    pawn = g.st.zones[g.st.g.zone_base["field"]][0]
    assert g.st.g.prog.read_prop(g.st, pawn, "power") == 2  # base 1 + 1, the +2 expired


def test_static_modifier_reading_its_own_property_is_an_error_not_a_crash(tmp_path):
    # docs/engine.md "continuous effects": a modifier whose amount reads the property it changes
    # has no value; the game stops with a rules error naming the ability.
    cards = (
        CARDS + '  - {name: Loop, type: unit, power: 2, text: "modify this.power by this.power"}\n'
    )
    with pytest.raises(RulesError, match="power"):
        run(
            tmp_path,
            """
setup:
    create "Loop" in first(players).field
    mark = first(first(players).field).power
flow:
    lose first(players)
""",
            cards=cards,
        )


def test_an_action_in_a_card_text_offers_its_parameters(tmp_path):
    # language.md "actions in card texts": parameters are enumerated like the rules' own.
    cards = CARDS + (
        "  - name: Sage\n    type: unit\n    power: 0\n    text: |\n"
        "      action lift(c: card from you.field, n: number from [1, 2]) in main:\n"
        "          require on_field(this)\n"
        "          you.seen += c.power * n\n"
    )
    rules = TWO_TURNS.replace('create "Rook" in p.hand', 'create "Sage" in p.field') + (
        "define on_field(c: card) = c.zone == c.owner.field\n"
    )
    g = run(tmp_path, rules, cards=cards)
    labels = g.action_labels()
    assert "lift Pawn 2" in labels and "lift Sage 1" in labels
    g.apply_label("lift Pawn 2")
    assert seen(g) == [2, 0]


def test_a_definition_has_the_type_of_its_body(tmp_path):
    # language.md "define": `choose` over a definition offers objects (labelled by name), and an
    # attribute of a definition's list maps over it, as with the body written out.
    rules = TWO_TURNS + (
        "define mine(p: player) = contents(p.hand) + contents(p.field)\n"
        "define strongest(p: player) = last(sorted_by(mine(p), mine(p).power))\n"
        "action weigh(c: card from mine(you)) in main:\n"
        "    you.seen = sum(mine(you).power) * 10 + strongest(you).power\n"
    )
    g = run(tmp_path, rules)
    assert "weigh Rook" in g.action_labels() and "weigh Pawn" in g.action_labels()
    g.apply_label("weigh Rook")
    assert seen(g) == [65, 0]


def test_an_action_once_per_turn_is_offered_again_next_turn(tmp_path):
    # language.md "actions": `once per S` after the windows limits an action per player (rules'
    # actions) or per source object (a card's), until the end of S.
    rules = TWO_TURNS.replace("repeat 2 times", "repeat 3 times") + (
        "action tap(c: card from you.field) in main once per turn:\n"
        "    you.seen += 1\n"
        "action wait(n: number from [0]) in main:\n"
        "    mark += 1\n"
    )
    g = run(tmp_path, rules)
    g.apply_label("tap Pawn")
    assert seen(g) == [1, 0] and not any(a.startswith("tap") for a in g.action_labels())
    g.apply_label("pass")
    g.apply_label("tap Pawn")
    g.apply_label("pass")
    assert "tap Pawn" in g.action_labels()  # P1's next turn
    g2 = GameState.from_json(g.to_json())
    assert g2.action_labels() == g.action_labels()


def test_rules_set_the_first_player_and_the_turn_direction(tmp_path):
    # language.md "turn order": `first_player` and `turn_direction` are set by the rules;
    # next_player follows the direction.
    (tmp_path / "r").mkdir()
    rules = """
setup:
    first_player = last(players)
    turn_direction = -1
flow:
    let p = first_player
    repeat 3 times:
        turn p:
            p.seen += turn_number
        p = next_player(p)
    lose first(players)
"""
    g = new_game(tiny(tmp_path / "r", rules), {}, seed=1)
    assert g.st.first == 1 and g.st.direction == -1
    assert seen(g) == [2, 4]  # P2 on turns 1 and 3, P1 on turn 2
    bad = tmp_path / "bad"
    bad.mkdir()
    with pytest.raises(RulesError, match="turn_direction must be 1 or -1, got 2"):
        new_game(tiny(bad, rules.replace("= -1", "= 2")), {}, seed=1)


def test_a_verb_sees_the_you_of_its_caller(tmp_path):
    # language.md "verb": inside a verb, `you` is the `you` of the statement that called it
    # (the acting player in an action, the ability's controller in a trigger).
    rules = TWO_TURNS + (
        "verb reward(n: number):\n"
        "    you.seen += n\n"
        "action claim(n: number from [2]) in main:\n"
        "    reward(n)\n"
        "after reward(n) if n > 1:\n"
        "    mark = 7\n"
    )
    g = run(tmp_path, rules, "claim 2", "pass", "claim 2")
    assert seen(g) == [2, 2] and g.st.counters["mark"] == 7
    rules_unlistened = rules.replace("after reward(n) if n > 1:\n    mark = 7\n", "")
    (tmp_path / "b").mkdir()
    g = new_game(tiny(tmp_path / "b", rules_unlistened), {}, seed=1)
    for label in ("claim 2", "pass", "claim 2"):
        g.apply_label(label)
    assert seen(g) == [2, 2]


def test_data_is_read_under_its_korean_name_too(tmp_path):
    # language.md "built-in names": `data` and `자료` are the same (as `option` and `옵션`).
    rules = """
setup:
    mark = 자료.bonus + data.bonus + 옵션.extra
flow:
    lose first(players)
"""
    more = "data: {bonus: 4}\noptions:\n  extra: {default: 1, values: [1, 2]}\n"
    g = new_game(tiny(tmp_path, rules, options=more), {}, seed=1)
    assert g.st.counters["mark"] == 9


HOLD = (
    TWO_TURNS
    + """
verb ping(u: card):
    mark += 0
after ping(u):
    you.seen = you.seen * 10 + mark
action go(n: number from [0]) in main:
    hold:
        mark = 1
        ping(first(you.field))
        choose x from [1, 2] "pick"
        mark = 2
        ping(first(you.field))
        mark = 3
    mark = mark + 10
action direct(n: number from [0]) in main:
    mark = 1
    ping(first(you.field))
    mark = 2
    ping(first(you.field))
"""
)


def test_triggers_met_inside_hold_resolve_after_the_block(tmp_path):
    # language.md "hold": abilities triggered inside `hold:` wait until the block ends, then
    # resolve in trigger order, before the statements after it; a save inside keeps them.
    g = run(tmp_path, HOLD, "go 0")
    assert g.prompt() == "pick"
    g = GameState.from_json(g.to_json())
    g.apply_label("2")
    assert seen(g) == [33, 0]  # both saw mark 3: at the block's end, before what follows it
    assert g.st.counters["mark"] == 13
    (tmp_path / "d").mkdir()
    g = new_game(tiny(tmp_path / "d", HOLD), {}, seed=1)
    g.apply_label("direct 0")
    assert seen(g) == [12, 0]  # without hold each trigger resolves after its own event


HOLD_LEFT = (
    TWO_TURNS
    + """
verb ping(u: card):
    mark += 0
after ping(u):
    you.seen = you.seen * 10 + mark
action stop(n: number from [0]) in main:
    hold:
        mark = 1
        ping(first(you.field))
        mark = 2
        end turn
    mark = 50
action leave(n: number from [0]) in main:
    out()
    mark = mark + 10
verb out:
    hold:
        mark = 3
        ping(first(you.field))
        mark = 4
        return
"""
)


def test_triggers_held_by_a_hold_block_left_early_resolve_when_it_is_left(tmp_path):
    # language.md "hold": a block left by `end turn`/`end phase` or by `return`/`break` lets
    # its waiting triggers resolve at that point (before the scope ends / the caller goes on).
    g = run(tmp_path, HOLD_LEFT, "stop 0")
    assert seen(g) == [2, 0] and g.st.counters["mark"] == 2  # the turn ended: mark = 50 skipped
    assert g.st.active == 1
    (tmp_path / "d").mkdir()
    g = run(tmp_path / "d", HOLD_LEFT, "leave 0")
    assert seen(g) == [4, 0] and g.st.counters["mark"] == 14


HOLD_NESTED = (
    HOLD
    + """
verb poke(u: card):
    mark += 0
after poke(u):
    you.seen = you.seen * 10 + mark
    ping(u)
action nest(n: number from [0]) in main:
    hold:
        mark = 1
        hold:
            poke(first(you.field))
        mark = 2
    mark = mark + 10
"""
)


def test_hold_inside_hold_releases_its_own_triggers_and_holds_what_they_cause(tmp_path):
    # language.md "hold": the inner block's triggers resolve at its end (poke's sees mark 1);
    # the events they cause wait for the outer block (ping's sees mark 2).
    g = run(tmp_path, HOLD_NESTED, "nest 0")
    assert seen(g) == [12, 0]
    assert g.st.counters["mark"] == 12


def test_once_per_phase_is_the_phase_in_progress(tmp_path):
    # language.md "once per": `once per phase` limits until the end of the current phase.
    rules = """
setup:
    for p in players:
        create "Pawn" in p.field
flow:
    turn first(players):
        phase one:
            window main by first(players)
        phase two:
            window main by first(players)
    lose first(players)
action tap(c: card from you.field) in main once per phase:
    you.seen += 1
action wait(n: number from [0]) in main:
    mark += 1
"""
    g = run(tmp_path, rules, "tap Pawn")
    assert "tap Pawn" not in g.action_labels()
    g.apply_label("pass")  # phase two
    assert "tap Pawn" in g.action_labels()
    g.apply_label("tap Pawn")
    assert seen(g) == [2, 0]


def test_zone_and_owner_of_nothing_are_none(tmp_path):
    # language.md "built-in functions": like attributes, zone_of/owner of `none` give `none`.
    rules = """
setup:
    if not exists(zone_of(first(first(players).hand))) and not exists(owner(first(first(players).hand))):
        mark = 1
flow:
    lose first(players)
"""
    g = run(tmp_path, rules)
    assert g.st.counters["mark"] == 1


def test_by_owner_each_player_orders_their_own_triggers(tmp_path):
    # language.md 11.3 `by_owner`: the active player's triggers first, each owner choosing the
    # order of their own (a TCG's "turn player first; each player orders theirs").
    cards = CARDS + (
        '  - {name: Drum, type: unit, power: 1, text: "after bell:\\n    you.seen = you.seen * 10 + this.power\\n"}\n'
        '  - {name: Horn, type: unit, power: 2, text: "after bell:\\n    you.seen = you.seen * 10 + this.power\\n"}\n'
    )
    rules = TWO_TURNS.replace(
        'create "Rook" in p.hand', 'create "Drum" in p.field\n        create "Horn" in p.field'
    ) + ("event bell\naction ring(n: number from [0]) in main:\n    emit bell()\n")
    g = run(tmp_path, rules, options="settings: {trigger_order: by_owner}\n", cards=cards)
    g.apply_label("ring 0")
    assert g.prompt() == "trigger order" and g.current_player() == 0
    assert g.action_labels() == ["Drum: after bell", "Horn: after bell"]
    g.apply_label("Horn: after bell")  # P1's Horn, then P1's Drum by itself
    assert g.prompt() == "trigger order" and g.current_player() == 1  # now P2 orders theirs
    g = GameState.from_json(g.to_json())
    g.apply_label("Drum: after bell")
    assert seen(g) == [21, 12]


def test_new_triggers_wait_until_every_owners_triggers_have_resolved(tmp_path):
    # language.md 11.3 `new_triggers_wait` (Nivel Arena 8.4.2): P1's Drum and P2's Horn fire
    # together; Drum's chime meets P1's Gong, which waits until P2's Horn has resolved.
    cards = CARDS + (
        '  - {name: Drum, type: unit, power: 1, text: "after bell:\\n    mark = mark * 10 + 1\\n    emit chime()\\n"}\n'
        '  - {name: Horn, type: unit, power: 2, text: "after bell:\\n    mark = mark * 10 + 2\\n"}\n'
        '  - {name: Gong, type: unit, power: 3, text: "after chime:\\n    mark = mark * 10 + 3\\n"}\n'
    )
    rules = """
event bell
event chime
setup:
    create "Drum" in first(players).field
    create "Gong" in first(players).field
    create "Horn" in nth(players, 1).field
flow:
    turn first(players):
        emit bell()
"""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = run(tmp_path / "a", rules, options="settings: {trigger_order: by_owner}\n", cards=cards)
    assert plain.st.counters["mark"] == 132  # without the setting Gong resolves at once
    waits = "settings: {trigger_order: by_owner, new_triggers_wait: true}\n"
    g = run(tmp_path / "b", rules, options=waits, cards=cards)
    assert g.st.counters["mark"] == 123


def test_expire_ends_the_effects_of_a_scope_before_it_ends(tmp_path):
    # language.md 7.7 `expire SCOPE`: the modifiers `until end of` SCOPE end at once, others stay.
    rules = """
setup:
    create "Pawn" in first(players).field
flow:
    let u = first(first(players).field)
    turn first(players):
        modify u.power by 5 until end of turn
        modify u.power by 10 until end of turn of first(players)
        modify u.power by 100 until end of round
        phase main:
            modify u.power by 1000 until end of main
            mark = u.power
            expire turn
            first(players).seen = u.power
            expire phase
            nth(players, 1).seen = u.power
"""
    g = run(tmp_path, rules)
    assert g.st.counters["mark"] == 1116
    assert seen(g) == [1101, 101]


def test_trigger_tiers_resolve_before_the_triggers_of_no_tier(tmp_path):
    # language.md 11.3 `trigger_tiers` (Nivel Arena 8.1.3.2.3: continuous effects before
    # automatic ones): P2's Horn is `as quick`, so it resolves before P1's Drum although P1 is
    # active; P1's Gong (quick too) comes before P2's Horn (the active player first in a tier).
    rules = """
event bell
setup:
    create "Drum" in first(players).field
    create "Horn" in nth(players, 1).field
    create "Gong" in first(players).field
flow:
    turn first(players):
        emit bell()
"""
    cards = CARDS + (
        '  - {name: Drum, type: unit, power: 1, text: "after bell:\\n    mark = mark * 10 + 1\\n"}\n'
        '  - {name: Horn, type: unit, power: 2, text: "after bell as quick:\\n    mark = mark * 10 + 2\\n"}\n'
        '  - {name: Gong, type: unit, power: 3, text: "after bell as quick:\\n    mark = mark * 10 + 3\\n"}\n'
    )
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    g = run(tmp_path / "a", rules, options="settings: {trigger_tiers: [quick]}\n", cards=cards)
    assert g.st.counters["mark"] == 321
    from madang.build.loader import load_ruleset
    from madang.language.diagnostics import Diagnostics

    diags = Diagnostics()
    load_ruleset(tiny(tmp_path / "b", rules, cards, "settings: {trigger_tiers: [slow]}\n"), diags)
    found = [(d.span.file, d.span.line, d.message) for d in diags.sorted()]
    assert [(f[-10:], line) for f, line, m in found if "unknown trigger tier 'quick'" in m] == [
        ("cards.yaml", 6),
        ("cards.yaml", 7),
    ]


def test_a_check_reading_resolving_waits_until_the_effect_has_finished(tmp_path):
    # language.md 11.8 `resolving` (Nivel Arena 9.2.1.2: the loss is judged when an effect's
    # processing ends): Drum's effect passes 10 and comes back below it; Horn's ends at 10.
    rules = """
event bell
check if mark >= 10 and not resolving:
    win first(players)
setup:
    create option.who in first(players).field
flow:
    turn first(players):
        emit bell()
        mark = mark + 100
"""
    cards = CARDS + (
        '  - {name: Drum, type: unit, power: 1, text: "after bell:\\n    mark = 10\\n    mark = 5\\n"}\n'
        '  - {name: Horn, type: unit, power: 2, text: "after bell:\\n    mark = 10\\n    mark = 11\\n"}\n'
    )
    opts = "options: {who: {default: Drum, values: [Drum, Horn]}}\n"
    (tmp_path / "a").mkdir()
    g = new_game(tiny(tmp_path / "a", rules, cards, opts), {"who": "Drum"}, seed=1)
    assert g.st.over and g.st.counters["mark"] == 105  # won only after the flow's own change
    g = new_game(tiny(tmp_path / "a", rules, cards, opts), {"who": "Horn"}, seed=1)
    assert g.st.over and g.st.counters["mark"] == 11  # won when Horn's effect ended


def test_a_grant_that_reads_only_options_is_found_once_per_game(tmp_path):
    # effects.StaticRT.fixed_grant: a rules' grant whose keyword and condition read only
    # options is computed once per game; each game's options still decide it.
    rules = """
keyword swift for unit
keyword sturdy for unit
grant option.gift to all_units if option.gifted == "yes"
define all_units = flatten(players.field)
setup:
    for p in players:
        create "Pawn" in p.field
flow:
    turn first(players):
        for u in all_units:
            if u has swift:
                first(players).seen += 1
            if u has sturdy:
                last(players).seen += 1
"""
    opts = (
        "options: {gift: {default: swift, values: [swift, sturdy]},"
        " gifted: {default: 'yes', values: ['yes', 'no']}}\n"
    )
    folder = tiny(tmp_path, rules, options=opts)
    assert seen(new_game(folder, {}, seed=1)) == [2, 0]
    assert seen(new_game(folder, {"gift": "sturdy"}, seed=1)) == [0, 2]
    assert seen(new_game(folder, {"gifted": "no"}, seed=1)) == [0, 0]
    prog = new_game(folder, {}, seed=1).st.g.prog
    assert [sa.fixed for sa in prog.statics_grant] == [True]
