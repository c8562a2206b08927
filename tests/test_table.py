"""The terminal table (#15): the board a human sees is the seat's view with stats and marks, and
the `board`, `show NAME`, `log` and `help` commands answer without taking a turn."""

from __future__ import annotations

import io
import random

from madang.game.api import new_game
from madang.tools.cli import main
from madang.tools.seatview import seat_view
from madang.tools.table import card_info, print_board


def play_text(capsys, monkeypatch, answers: str, *argv: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    main(["play", *argv])
    return capsys.readouterr().out


def test_board_shows_stats_marks_and_counts_of_hidden_cards(capsys, monkeypatch):
    out = play_text(capsys, monkeypatch, "board\nquit\n", "clash_of_decks", "--seats",
                    "human,random", "--seed", "3")  # fmt: skip
    assert "TROLL 비용 6 · 공격력 3 · 체력 6 · 피해 0 [분노, 맹공]" in out
    assert "9 hidden" in out  # the opponent's hand is a count
    assert out.count("P1 (you)") == 2  # shown before the options, and again for `board`


def test_commands_do_not_take_a_turn(capsys, monkeypatch):
    out = play_text(capsys, monkeypatch, "show TROLL\nshow NOSUCH\nlog\nhelp\n6\nquit\n",
                    "clash_of_decks", "--seats", "human,random", "--seed", "3")  # fmt: skip
    assert "  TROLL 비용 6" in out
    assert "no card 'NOSUCH' in sight" in out
    assert "턴 2: P1" in out.split("P1> log")[1]  # the log repeats what was narrated
    assert "'board' shows the table again" in out
    assert "P1 선택 (소환): pass" in out  # only the number 6 was an answer


def test_the_table_keeps_each_seats_secrets():
    """Game of Thrones: a secret plot chosen by P1 is not on P2's table until revealed."""
    game = new_game("game_of_thrones_2p", {"houses": "stark,lannister"}, 11)
    rng = random.Random(2)
    for _ in range(400):
        if game.is_terminal():
            break
        st = game.st
        hidden_from_p2 = {
            st.g.prog.cards[st.obj_card[o]].name
            for z, (name, owner) in enumerate(st.g.zone_info)
            if owner == 0 and st.g.prog.zones[name].visibility != "public"
            for o in st.zones[z]
        }
        out = io.StringIO()
        print_board(game, 1, out)
        shown = out.getvalue()
        visible = {
            c["name"]
            for p in seat_view(game, 1)["players"]
            for z in p["zones"]
            for c in z.get("cards") or []
        }
        for name in hidden_from_p2 - visible:
            if not any(name in v for v in visible):  # 윈터펠 is part of 윈터펠 요새
                assert name not in shown
        game.apply_action(rng.choice(game.legal_actions()))


def test_show_names_a_card_in_sight_with_its_text():
    game = new_game("nivel_arena", {}, 1)
    seen = [
        c
        for p in seat_view(game, game.current_player())["players"]
        for z in p["zones"]
        for c in z.get("cards") or []
        if c.get("stats")
    ]
    info = card_info(game, game.current_player(), seen[0]["name"])
    assert info and info.startswith(seen[0]["title"])


def test_view_labels_name_choices_and_phases_in_the_players_language(capsys, monkeypatch):
    """A choice written as a text (유지) and a phase without an English alias (메인) are shown
    with the ruleset's `view: labels: en:` words; an answer may use either spelling."""
    out = play_text(capsys, monkeypatch, "keep\nquit\n", "nivel_arena", "--seats",
                    "human,random", "--seed", "1", "--lang", "en")  # fmt: skip
    assert "0) keep" in out and "1) mulligan" in out and "유지" not in out
    assert "P1 chooses (mulligan): keep" in out
    assert "[main]" in out and "[메인]" not in out


def test_show_says_what_each_keyword_of_the_card_does():
    # issue #35: from the keyword's declaration and its author's comment in abilities.madang
    game = new_game("clash_of_decks", {}, 1)
    info = card_info(game, 0, "TROLL", "en")
    assert info is not None
    assert "rage: may attack creatures on the turn it is placed" in info
    assert "rampage: attacks again after destroying a creature" in info
    assert "(keyword 맹공/rampage for creature)" in info
    assert "분노: may attack" in card_info(game, 0, "TROLL", "ko")
    assert card_info(game, 0, "BOOM!", "en").count("\n  ") == 0  # no keywords, no lines
