"""The engine's general mechanisms, proven on a tiny ruleset (tests/rulesets/mini)."""

from pathlib import Path

import pytest
from madang.game.api import GameState, MadangError, load_program, new_game
from madang.runtime.errors import RulesError

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


def test_option_default_by_number_of_players():
    from madang.game.api import resolve_options

    prog = load_program(MINI)
    assert resolve_options(prog, {})[0]["board"] == "small"
    assert resolve_options(prog, {"players": "3"})[0]["board"] == "large"
    assert resolve_options(prog, {"players": "3", "board": "small"})[0]["board"] == "small"


def test_games_share_the_zone_tables_of_their_players_and_own_their_options():
    # runtime/setup.py lays out the zones once per program, players and map, and resolves the
    # same options once: a game's options are still its own, and other players get other tables
    prog = load_program(MINI)
    a, b, c = (
        new_game(prog, {}, seed=1),
        new_game(prog, {}, seed=2),
        new_game(prog, {"players": "3"}),
    )
    assert a.st.g.zone_info is b.st.g.zone_info and a.st.g.zone_base is b.st.g.zone_base
    assert len(c.st.g.zone_info) > len(a.st.g.zone_info)
    assert c.st.g.options["board"] == "large" and a.st.g.options["board"] == "small"
    a.st.g.options["board"] = "changed"
    assert new_game(prog, {}, seed=3).st.g.options["board"] == "small"
    with pytest.raises(MadangError, match="unknown option"):
        new_game(prog, {"bord": "small"})
    with pytest.raises(MadangError, match="unknown option"):
        new_game(prog, {"bord": "small"})


TIMING = str(Path(__file__).parent / "rulesets" / "timing")


def test_window_pass_if_offers_pass_only_while_the_condition_holds():
    g = new_game(TIMING, {}, seed=1)
    # two ready units: the player may act, but not pass (`pass if count(...ready) == 0`)
    assert "pass" not in g.action_labels()
    g = play(g, "use Pawn", "rest 0")
    assert "pass" not in g.action_labels()
    g = play(g, "use Pawn")
    assert g.action_labels()[-1] == "pass"
    g = play(g, "pass")
    assert g.st.turn == 2 and g.current_player() == 1


def test_until_end_of_turn_of_a_player_lasts_through_the_next_turn_of_that_player():
    g = new_game(TIMING, {}, seed=1)
    pawn = obj(g, "field#1", 0)
    read = g.st.g.prog.read_prop
    g = play(g, "cheer Pawn")  # +5 until the end of the opponent's turn, +1 until end of turn
    assert read(g.st, pawn, "power") == 7
    g = play(g, "use Pawn", "use Pawn", "pass")
    assert g.st.turn == 2 and read(g.st, pawn, "power") == 6  # kept through P1's turn end
    g = play(g, "use Pawn", "use Pawn", "pass")
    assert g.st.turn == 3 and read(g.st, pawn, "power") == 1  # ended with P2's turn


# ---------------------------------------------------------------- optional triggers, chosen order
RESPONSES = str(Path(__file__).parent / "rulesets" / "responses")


def responses() -> GameState:
    return new_game(RESPONSES, {}, seed=1, log=True)


def test_optional_trigger_asks_its_player_who_may_decline():
    g = play(responses(), "play_card Herald")
    assert g.st.pending.prompt == "Herald: score 1" and g.current_player() == 0
    assert g.action_labels() == ["use", "decline"]
    assert list(play(g.clone(), "use").st.pcounters["score"]) == [1, 0]
    g = play(g, "decline")
    assert list(g.st.pcounters["score"]) == [0, 0]
    assert "play_card Pawn" in g.action_labels()  # back in the window: nothing else asked


def test_optional_replacement_declined_lets_the_event_happen():
    g = play(responses(), "play_card Medic", "play_card Pawn", "kill_it Pawn")
    assert g.action_labels() == ["use", "decline"] and g.st.pending.prompt == "Medic: instead kill"
    saved = play(g.clone(), "use")
    assert zone(saved, "hand#1")[-1] == "Pawn" and zone(saved, "grave#1") == []
    g = play(g, "decline")
    assert zone(g, "grave#1") == ["Pawn"] and "Pawn" not in zone(g, "field#1")


def test_chosen_trigger_order_asks_the_chooser_after_the_rules_own_triggers():
    g = play(responses(), "play_card Drum", "play_card Horn", "ring")
    # settings.trigger_chooser names `chooser` (P2); the rules' own trigger already resolved
    assert g.current_player() == 1 and g.st.pending.prompt == "trigger order"
    assert g.action_labels() == ["Drum: after bell", "Horn: after bell"]
    assert g.st.counters["trace"] == 9
    again = GameState.from_json(g.to_json())  # the waiting triggers are part of the state
    assert play(again, "Horn: after bell").st.counters["trace"] == 921
    assert play(g, "Drum: after bell").st.counters["trace"] == 912


def test_optional_trigger_is_asked_again_only_while_its_condition_holds():
    g = play(responses(), "play_card Echo", "play_card Echo", "ring")
    # two copies of one card with the same ability: not ordered, the first is asked at once
    assert g.current_player() == 0 and g.action_labels() == ["use", "decline"]
    declined = play(g.clone(), "decline")
    # declined: the other copy of the card does not ask the same question again
    assert list(declined.st.pcounters["score"]) == [0, 0] and "ring" in declined.action_labels()
    g = play(g, "use")
    # the second Echo's condition (no score yet) no longer holds: it is not asked
    assert list(g.st.pcounters["score"]) == [1, 0] and "ring" in g.action_labels()


def test_trigger_chooser_must_name_a_definition(tmp_path):
    import shutil

    shutil.copytree(RESPONSES, tmp_path / "r")
    meta = tmp_path / "r" / "ruleset.yaml"
    meta.write_text(meta.read_text().replace("chooser: chooser", "chooser: chooserr"))
    with pytest.raises(MadangError) as err:
        load_program(str(tmp_path / "r"))
    shown = err.value.diags.render()
    assert "trigger_chooser 'chooserr' is not a definition" in shown and "ruleset.yaml:10" in shown


def test_optional_by_asks_the_named_player():
    g = play(responses(), "kill_it Ward")
    assert g.current_player() == 1 and g.st.pending.prompt == "save a strong unit"
    assert zone(play(g.clone(), "use"), "hand#2")[-1] == "Ward"
    assert zone(play(g, "decline"), "grave#2") == ["Ward"]


def test_area_facts_of_the_map_are_read_as_attributes(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(
        "name: facts\ntitle: {en: Facts}\nplayers: 2\nfiles: [f.madang]\nmaps:\n  land:\n"
        "    areas:\n      Hill: {adjacent: [Vale], kind: ocean, glyph: 3}\n"
        "      Vale: {adjacent: [Hill], kind: none}\n",
        encoding="utf-8",
    )
    (tmp_path / "f.madang").write_text(
        "counter wet = 0\ncounter marks = 0\n\nflow:\n"
        '    wet = count(areas where it.kind == "ocean")\n'
        '    marks = area("Hill").glyph + (if area("Vale").glyph == none then 10 else 0)\n',
        encoding="utf-8",
    )
    g = new_game(str(tmp_path), {}, seed=1)
    assert g.st.counters["wet"] == 1 and g.st.counters["marks"] == 13
    (tmp_path / "f.madang").write_text('flow:\n    log area("Hill").glif\n', encoding="utf-8")
    from madang.build.loader import load_ruleset
    from madang.language.diagnostics import Diagnostics

    diags = Diagnostics()
    load_ruleset(str(tmp_path), diags)
    [err] = diags.errors
    assert err.message == "area has no 'glif'"


CONDKW = str(Path(__file__).parent / "rulesets" / "condkw")


def test_condition_keyword_prefix_puts_abilities_in_force_only_while_it_holds():
    g = new_game(CONDKW, {}, seed=1)
    champ = obj(g, "field#1", 0)
    read = g.st.g.prog.read_prop
    # 충전[2]: (keyword 충전[n] while you.score >= n): static, trigger and action all off
    assert read(g.st, champ, "power") == 1 and g.action_labels() == ["gain 1", "pass"]
    g = play(g, "gain 1")
    assert g.st.pcounters["score"] == [1, 0] and read(g.st, champ, "power") == 1
    g = play(g, "gain 1")  # score 2: the condition holds when `scored` is emitted
    assert g.st.pcounters["score"] == [102, 0]
    assert read(g.st, champ, "power") == 11  # 결속 (two units) still does not hold
    assert "burst 0" in g.action_labels()


def test_prefix_of_a_keyword_without_condition_is_an_error(tmp_path):
    import shutil

    d = tmp_path / "condkw"
    shutil.copytree(CONDKW, d)
    (d / "cards.yaml").write_text(
        "ruleset: condkw\ncards:\n  - name: Champion\n    type: unit\n    power: 1\n"
        "    text: |\n      nokw:\n          modify this.power by 10\n",
        encoding="utf-8",
    )
    with pytest.raises(MadangError) as e:
        load_program(str(d))
    assert "'nokw' is not a condition keyword" in e.value.diags.render()


def test_phase_names_may_have_aliases(tmp_path):
    from madang.language.diagnostics import Diagnostics
    from madang.language.fmt import format_source
    from madang.tools.narration import Narrator

    rules = (
        "kind token/토큰:\n    power: number\n\nzone box/상자: shared, public\n\n"
        "counter during = 0\ncounter later = 0\n\n"
        "check never if false:\n    tie\n\n"
        "flow:\n"
        '    create "T" in box\n'
        "    phase gather/모으기:\n"
        "        modify first(box).power by 2 until end of 모으기\n"
        "        during = first(box).power\n"
        "    later = first(box).power\n"
        "    phase 모으기:\n"
        "        pass\n"
    )
    (tmp_path / "ruleset.yaml").write_text(
        "name: phases\ntitle: {en: Phases}\nplayers: 2\nlanguage: ko\nfiles: [p.madang]\n"
        "cards: [cards.yaml]\n",
        encoding="utf-8",
    )
    (tmp_path / "cards.yaml").write_text(
        "cards:\n  - {name: T, type: token, power: 1}\n", encoding="utf-8"
    )
    (tmp_path / "p.madang").write_text(rules, encoding="utf-8")
    g = new_game(str(tmp_path), {}, seed=1, log=True)
    assert (g.st.counters["during"], g.st.counters["later"]) == (3, 1)
    assert [e["phase"] for e in g.st.log if isinstance(e, dict) and "phase" in e] == [
        "gather",
        "gather",
    ]
    prog = g.st.g.prog
    assert Narrator(prog, "ko").line({"phase": "gather"}) == "  [모으기]"
    assert Narrator(prog, "en").line({"phase": "gather"}) == "  [gather]"
    assert "    phase gather/모으기:\n" in format_source(rules, "p.madang", Diagnostics())


def test_options_that_read_alike_name_the_owner_of_their_card():
    # docs/scenarios.md "steps": a Pawn on each side gives two options told apart by owner;
    # the plain reading takes the first of them.
    g = play(game(), "play Pawn", "pass", "play Pawn")
    kills = [a for a in g.action_labels() if a.startswith("kill")]
    assert kills == ["kill enemy Pawn", "kill your Pawn"]
    g.apply_label("kill enemy Pawn")
    assert zone(g, "field#1") == [] and zone(g, "field#2") == ["Pawn"]
    h = play(game(), "play Pawn", "pass", "play Pawn")
    h.apply_label("kill Pawn")  # the first that reads so
    assert zone(h, "field#1") == [] and zone(h, "field#2") == ["Pawn"]


def test_a_clone_copies_every_frame_and_shares_names_as_the_original_does():
    # State.clone copies frames field by field (#34): the same fields, the envs shared
    # between frames exactly where the original shares them, and nothing shared with it
    import random

    g = new_game(load_program("cthulhu_wars"), seed=1)
    rng = random.Random(1)
    for _ in range(60):
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    st = g.st
    c = st.clone()
    assert c.to_data() == st.to_data() and len(c.frames) > 3
    slots = type(st.frames[0]).__slots__
    for a, b in zip(st.frames, c.frames):
        assert a is not b and a.env is not b.env
        assert all(getattr(a, k) == getattr(b, k) for k in slots)
    assert [[f.env is h.env for h in st.frames] for f in st.frames] == [
        [f.env is h.env for h in c.frames] for f in c.frames
    ]
    c.frames[-1].pc += 1
    c.frames[-1].env["@probe"] = 1
    assert st.frames[-1].pc == c.frames[-1].pc - 1 and "@probe" not in st.frames[-1].env
