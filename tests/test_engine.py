"""The engine's general mechanisms, proven on a tiny ruleset (tests/rulesets/mini)."""

from pathlib import Path

import pytest
from madang.api import GameState, MadangError, load_program, new_game
from madang.builtins import RulesError

MINI = str(Path(__file__).parent / "rulesets" / "mini")


def game(**options) -> GameState:
    return new_game(MINI, options, seed=1, log=True)


def play(g: GameState, *labels: str) -> GameState:
    for label in labels:
        g.apply_label(label)
    return g


def zone(g: GameState, label: str) -> list[str]:
    st = g.st
    for z in range(len(st.zones)):
        if st.g.zone_label(z) == label:
            return [st.g.prog.cards[st.obj_card[o]].name for o in st.zones[z]]
    raise KeyError(label)


def obj(g: GameState, label: str, i: int) -> int:
    st = g.st
    for z in range(len(st.zones)):
        if st.g.zone_label(z) == label:
            return st.zones[z][i]
    raise KeyError(label)


def test_actions_are_enumerated_with_their_parameters():
    g = game()
    assert g.current_player() == 0
    assert g.action_labels() == [
        "play Pawn", "play Knight", "play Captain", "play Parrot", "play Healer", "play Ram",
        "gain 1", "gain 3", "pick 0", "concede 0", "skip 0", "count_up 0", "pass",
    ]  # fmt: skip


def test_window_for_one_player_runs_until_pass_then_next_turn():
    g = play(game(), "play Pawn", "play Knight", "pass")
    assert zone(g, "field#1") == ["Pawn", "Knight"]
    assert g.current_player() == 1 and g.st.turn == 2


def test_replacement_applies_instead_and_only_once_per_turn():
    g = play(game(), "play Knight", "kill Knight")
    assert zone(g, "hand#1")[-1] == "Knight" and zone(g, "graveyard#1") == []
    g = play(g, "play Knight", "kill Knight")
    assert zone(g, "graveyard#1") == ["Knight"]  # the limit is used up this turn


def test_once_per_turn_limit_resets_at_end_of_turn():
    g = play(game(), "play Knight", "kill Knight", "play Knight", "pass")
    g = play(g, "kill Knight")  # player 2 destroys player 1's Knight on a new turn
    assert zone(g, "hand#1")[-1] == "Knight"


def test_keyword_parameter_and_static_modifier_while_in_an_active_zone():
    g = game()
    cap = obj(g, "hand#1", 2)
    prog = g.st.g.prog
    assert prog.read_prop(g.st, cap, "power") == 2  # in hand: the static is not in force
    g = play(g, "play Captain")
    assert prog.read_prop(g.st, cap, "power") == 4  # 집결[2]: +2 while in the field


def test_after_trigger_with_keyword_argument_and_condition():
    g = play(game(), "play Captain", "play Pawn", "kill Pawn")
    assert g.st.pcounters["score"] == [2, 0]
    g = play(g, "kill Captain")  # u != this: its own destruction does not score
    assert g.st.pcounters["score"] == [2, 0]


def test_card_text_ability_triggers():
    g = play(game(), "play Healer", "play Pawn", "kill Pawn")
    assert g.st.pcounters["score"] == [1, 0]


def test_temporary_modifier_lasts_until_end_of_turn():
    g = play(game(), "play Pawn")
    pawn = obj(g, "field#1", 0)
    prog = g.st.g.prog
    g = play(g, "boost Pawn")
    assert prog.read_prop(g.st, pawn, "power") == 3
    g = play(g, "pass")
    assert prog.read_prop(g.st, pawn, "power") == 1


def test_state_check_ends_the_game_immediately():
    g = play(game(goal=5), "gain 3", "gain 3")
    assert g.is_terminal() and g.winners == [0]
    assert g.returns() == [1.0, -1.0]


def test_endless_trigger_chain_is_stopped_with_the_rules_named():
    g = play(game(), "play Parrot")
    with pytest.raises(RulesError, match=r"chain of triggers did not end.*keyword echo"):
        g.apply_label("poke Parrot")


def test_choose_several_and_order_are_single_picks():
    g = play(game(goal=1000), "pick 0")
    assert g.prompt() == "two of three" and g.action_labels() == ["10", "20", "30"]
    g = play(g, "30")
    assert g.action_labels() == ["10", "20"]
    g = play(g, "10")
    assert g.prompt() == "order" and g.action_labels() == ["1", "2", "3"]
    g = play(g, "3", "1")  # the last item needs no decision
    assert g.st.pcounters["score"] == [40 + 3, 0]


def test_shared_window_alternates_until_all_pass_in_a_row():
    g = game(shared_window=True)
    g = play(g, "gain 1")
    assert g.current_player() == 1
    g = play(g, "pass")
    assert g.current_player() == 0
    g = play(g, "pass")  # both passed one after another: the turn ends
    assert (
        g.st.turn == 2 and g.current_player() == 0
    )  # player 2's turn, whose window starts with... seat order
    g = play(g, "gain 1", "pass", "pass")
    assert g.st.turn == 3


def test_lose_with_two_players_gives_the_win_to_the_other():
    g = play(game(), "concede 0")
    assert g.winners == [1] and g.returns() == [-1.0, 1.0]


def test_three_players_lose_one_by_one():
    g = new_game(MINI, {"players": 3}, seed=1)
    g = play(g, "concede 0")
    assert not g.is_terminal()
    assert g.current_player() == 1
    g = play(g, "concede 0")
    assert g.winners == [2]


def test_save_and_load_resume_in_the_middle_of_a_choice():
    g = play(game(goal=1000), "pick 0", "20")
    saved = g.to_json()
    h = GameState.from_json(saved)
    assert h.action_labels() == g.action_labels() == ["10", "30"]
    play(g, "10", "2", "1")
    play(h, "10", "2", "1")
    assert h.digest() == g.digest()
    assert h.to_json() == g.to_json()


def test_clone_is_independent_and_exact():
    g = play(game(), "play Pawn")
    c = g.clone()
    assert c.to_json() == g.to_json()
    play(c, "kill Pawn")
    assert zone(g, "field#1") == ["Pawn"] and zone(c, "field#1") == []


def test_same_seed_and_decisions_give_the_same_log():
    def run():
        g = game()
        play(g, "play Captain", "play Pawn", "kill Pawn", "pass", "gain 3", "pass")
        return g.st.log, g.digest()

    assert run() == run()


def test_bad_options_are_user_errors():
    prog = load_program(MINI)
    with pytest.raises(MadangError, match="not allowed; choose one of: 5, 10, 1000"):
        new_game(prog, {"goal": "7"})
    with pytest.raises(MadangError, match="unknown option 'gaol'.*did you mean 'goal'"):
        new_game(prog, {"gaol": "5"})
    with pytest.raises(MadangError, match="for 2–3 players"):
        new_game(prog, {"players": "4"})


def test_corrupt_and_foreign_save_files_are_user_errors():
    with pytest.raises(MadangError, match="not a madang save file"):
        GameState.from_json("{]")
    with pytest.raises(MadangError, match="format marker"):
        GameState.from_json('{"hello": 1}')
    g = game()
    text = g.to_json().replace('"zones":', '"zonez":')
    with pytest.raises(MadangError, match="corrupt save file"):
        GameState.from_json(text)


def test_illegal_action_is_refused():
    g = game()
    with pytest.raises(MadangError, match="illegal action"):
        g.apply_action(99)
    with pytest.raises(MadangError, match="no option 'dance'"):
        g.apply_label("dance")


def test_condition_argument_of_a_keyword_is_evaluated_on_another_object():
    g = play(game(), "play Ram", "play Pawn", "play Knight")
    labels = g.action_labels()
    # 돌파[power 2 이하]: only units of power 2 or less can be smashed (Captain is 4 in play).
    assert "smash Pawn" in labels and "smash Ram" in labels
    assert "smash Knight" not in labels


def test_end_turn_leaves_the_turn_at_once():
    g = play(game(), "skip 0")
    assert g.st.turn == 2 and g.current_player() == 1
    assert g.st.pcounters["score"] == [0, 0]


def test_break_leaves_the_loop_and_repeat_counts():
    g = play(game(goal=1000), "count_up 0")
    assert g.st.pcounters["score"] == [34, 0]


def test_option_constraints_and_budgets_of_a_ruleset():
    with pytest.raises(MadangError, match="format=instant is not allowed with mode=solo"):
        new_game("clash_of_decks", {"mode": "solo", "format": "instant"})
    with pytest.raises(
        MadangError, match=r"cost 6 points but the budget of difficulty=normal is 2"
    ):
        new_game(
            "clash_of_decks",
            {
                "mode": "solo",
                "difficulty": "normal",
                "automa_fixed_mana": "10",
                "automa_defence": "true",
            },
        )
    new_game(
        "clash_of_decks",
        {
            "mode": "solo",
            "difficulty": "normal",
            "fortress_start": "true",
            "automa_fixed_mana": "9",
        },
    )
