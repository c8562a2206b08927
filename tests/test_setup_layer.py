"""The public setup and inspection layer (game/position.py): a position set up and read by the
rules' own names, names it does not know refused with what it has, and games that start at a
point of the flow (build/flowpoints.py, runtime/setup.enter_flow; docs/scenarios.md)."""

from pathlib import Path

import pytest
from madang.game.api import load_program
from madang.game.position import Position, SetupError

RULES = """\
kind unit:
    power: number
zone hand: per player, ordered, owner sees
zone pool: shared, ordered, public
counter mark = 0
counter seen: per player = 0

setup:
    create "Pawn" in pool

flow:
    for p in players:
        phase gamma:
            p.seen += 1
    let n = 2
    choose c from [1, 2] by first(players) "pick"
    repeat until false:
        round:
            phase alpha:
                mark += n
            phase beta:
                mark += c
                choose x from ["go", "stop"] by first(players) "beta"
                if x == "stop":
                    win first(players)
"""

CARDS = """\
ruleset: tiny
cards:
  - {name: Pawn, type: unit, power: 1}
  - {name: Rook, type: unit, power: 5}
"""


@pytest.fixture
def prog(tmp_path: Path):
    """The tiny ruleset, its blocks compiled into resumable functions."""
    (tmp_path / "tiny.madang").write_text(RULES, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text(
        "name: tiny\ntitle: {en: Tiny}\nplayers: 2\nfiles: [tiny.madang]\ncards: [cards.yaml]\n",
        encoding="utf-8",
    )
    return load_program(str(tmp_path))


def test_a_blank_position_is_set_up_and_read_by_name(prog):
    pos = Position.blank(prog)
    assert pos.cards("pool") == [] and pos.counter("mark") == 0  # no setup ran
    pos.set_active("P2")
    objs = pos.place("hand#1", ["Rook", "Pawn"])
    pos.place("pool", ["Pawn"])
    pos.set_counter("mark", 4)
    pos.set_counter("seen", 3, player="P2")
    pos.set_prop("hand#1/0", "power", 9)
    pos.set_turn(3)
    assert pos.cards("hand#1") == ["Rook", "Pawn"]
    assert pos.obj("hand#1/-1") == objs[1] and pos.obj("hand#1/2") is None
    assert pos.st.obj_owner[pos.obj("pool/0")] == 1  # a shared zone's object: the active player's
    assert pos.counter("mark") == 4 and pos.player_counter("seen") == [0, 3]
    assert pos.prop(objs[0], "power") == 9 and pos.prop(objs[1], "power") == 1
    assert (pos.active, pos.turn, pos.count("hand#1")) == (1, 3, 2)


@pytest.mark.parametrize(
    "call, message, hint",
    [
        (lambda p: p.place("hnad#1", ["Pawn"]), "no zone 'hnad#1'", "did you mean 'hand#1'?"),
        (lambda p: p.place("hand#3", ["Pawn"]), "no zone 'hand#3'", "hand#2"),
        (lambda p: p.place("hand#1", ["Pwan"]), "no card named 'Pwan'", "did you mean 'Pawn'?"),
        (lambda p: p.set_counter("mrak", 1), "no counter 'mrak'", "did you mean 'mark'?"),
        (lambda p: p.set_counter("seen", 1), "('seen' is a per-player counter)", None),
        (lambda p: p.set_counter("mark", 1, player="P1"), "no per-player counter 'mark'", None),
        (lambda p: p.set_active("P3"), "no player P3: this game has 2 players", None),
        (lambda p: p.set_active("Bob"), "'Bob' is not a player", "players are P1, P2, ..."),
        (lambda p: p.obj("hand#1"), "does not name an object", "ZONE/INDEX"),
        (lambda p: p.set_turn(-1), "turn must be a whole number from 0", None),
        (
            lambda p: p.set_prop(p.place("pool", ["Pawn"])[0], "pwoer", 2),
            "a unit (Pawn) has no property 'pwoer'",
            "did you mean 'power'?",
        ),
        (lambda p: p.start_at("gama"), "no point 'gama' in the flow", "did you mean 'gamma'?"),
    ],
)
def test_names_the_ruleset_lacks_are_refused_with_what_it_has(prog, call, message, hint):
    pos = Position.blank(prog)
    with pytest.raises(SetupError) as e:
        call(pos)
    assert message in e.value.message
    if hint is not None:
        assert hint in e.value.hint


def test_a_game_starts_at_a_phase_inside_a_loop_and_a_scope_already_begun(prog):
    pos = Position.blank(prog)
    pos.set_round(4)
    pos.start_at("beta", {"c": 5})
    pos.run()
    # `let n` took its declared value; `c` was given; the round was not counted again
    assert (pos.phase, pos.round, pos.counter("mark")) == ("beta", 4, 5)
    assert pos.game.prompt() == "beta"
    pos.game.apply_label("go")
    # the round ends, the loop goes on: the next round's phases, `n` from its `let`
    assert (pos.phase, pos.round, pos.counter("mark")) == ("beta", 5, 5 + 2 + 5)
    assert pos.player_counter("seen") == [0, 0]  # what came before the point did not run
    pos.game.apply_label("stop")
    assert pos.game.winners == [0]


def test_a_name_the_flow_declares_without_a_value_must_be_given(prog):
    pos = Position.blank(prog)
    with pytest.raises(SetupError, match=r"name 'c' \(.*tiny.madang:\d+:\d+\) has no value"):
        pos.start_at("alpha")
    with pytest.raises(SetupError, match="the flow has no name 'd' at alpha"):
        pos.start_at("alpha", {"c": 1, "d": 2})


def test_a_point_inside_a_for_loop_cannot_be_started_at(prog):
    pos = Position.blank(prog)
    with pytest.raises(SetupError, match=r"cannot start at gamma .*inside a `for` loop"):
        pos.start_at("gamma")


def test_the_rulesets_setup_runs_before_a_game_that_starts_at_a_point(prog):
    pos = Position.new(prog)
    pos.start_at("라운드", {"c": 1})  # `round` in either language
    pos.run()
    assert pos.cards("pool") == ["Pawn"]  # the ruleset's setup ran, alone
    assert (pos.round, pos.phase, pos.counter("mark")) == (1, "beta", 3)
    assert [e[0] for e in pos.events()] == []  # no verb was called
    assert not pos.game.is_terminal()


def test_a_game_started_at_a_point_saves_and_resumes_like_any_other(prog):
    pos = Position.blank(prog)
    pos.start_at("beta", {"c": 1})
    pos.run()
    again = type(pos.game).from_json(pos.game.to_json(), prog)
    for g in (pos.game, again):
        g.apply_label("go")
        g.apply_label("stop")
    assert again.digest() == pos.game.digest() and again.winners == [0]


def test_the_layer_is_importable_from_the_package_as_docs_scenarios_shows():
    import madang
    from madang.game import position

    assert madang.Position is position.Position and madang.SetupError is position.SetupError
    pos = madang.Position.blank(
        madang.load_program(str(Path(__file__).parent.parent / "docs/examples/leduc_poker"))
    )
    with pytest.raises(madang.SetupError) as e:
        pos.place("hands#1", ["QUEEN_OF_SPADES"])
    assert "hand#1" in str(e.value.hint)
