"""`madang check` understands what it is given: a deck alone is checked with the card files next
to it (or `--cards`), its hints name only cards that exist, and a line that is not a statement
(`pas` for `pass`) is an error at that line naming the word."""

import json
import shutil
from pathlib import Path

from madang.tools.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def check(capsys, *argv) -> tuple[int, list[dict], str]:
    code = main(["check", "--format", "json", *argv])
    got = capsys.readouterr()
    return code, json.loads(got.out), got.err


def test_a_deck_alone_uses_the_card_files_next_to_it(tmp_path, capsys):
    # the finished file and the draft with errors lie beside the deck: only the first is taken
    for f in ("my_deck.yaml", "my_cards.yaml", "my_cards_broken.yaml"):
        shutil.copy(EXAMPLES / f, tmp_path / f)
    code, diags, _ = check(capsys, str(tmp_path / "my_deck.yaml"))
    assert code == 0 and diags == []
    main(["check", str(tmp_path / "my_deck.yaml")])
    assert "my_cards.yaml" in capsys.readouterr().err  # a note says which files were used


def test_a_deck_alone_without_its_cards_gets_no_misleading_hints(tmp_path, capsys):
    deck = tmp_path / "my_deck.yaml"
    deck.write_text((EXAMPLES / "my_deck.yaml").read_text("utf-8").replace("BARON", "BARN"))
    code, diags, _ = check(capsys, str(deck))
    assert code == 1
    hints = {d["message"].split("'")[1]: d["hint"] for d in diags}
    assert hints["BARN"] == "did you mean 'BARON'?"  # a card of the game, one letter away
    # HARPY is not MARTYR misspelt: the hint says to give the file that defines it
    assert "--cards FILE" in hints["HARPY"] and "MARTYR" not in hints["HARPY"]
    code, diags, _ = check(capsys, "--cards", str(EXAMPLES / "my_cards.yaml"), str(deck))
    assert code == 1 and [d["message"].split("'")[1] for d in diags] == ["BARN"]


def test_check_accepts_cards_for_a_card_file_alone(capsys):
    code, diags, _ = check(capsys, "--cards", str(EXAMPLES / "my_cards.yaml"))
    assert code == 0 and diags == []
    code, diags, _ = check(capsys, "--cards", str(EXAMPLES / "no_such.yaml"), "clash_of_decks")
    assert code == 1 and diags[0]["code"] == "no-such-file"


def test_a_misspelt_statement_is_located_with_its_word(tmp_path, capsys):
    cards = tmp_path / "pas.yaml"
    cards.write_text(
        "ruleset: clash_of_decks\ncards:\n  - name: TESTER\n    type: creature\n    cost: 1\n"
        "    attack: 1\n    health: 1\n    text: |\n      after place(c, l) if c == this:\n"
        "          if c.cost > 0:\n              pas\n",
        encoding="utf-8",
    )
    lang = tmp_path / "pas.madang"
    lang.write_text("verb foo(p: player):\n    if true:\n        pas\n", encoding="utf-8")
    code, diags, _ = check(capsys, str(cards), str(lang))
    assert code == 1
    got = {(Path(d["file"]).name, d["line"], d["column"], d["hint"]) for d in diags}
    assert got == {("pas.yaml", 11, 15, "did you mean 'pass'?"),
                   ("pas.madang", 3, 9, "did you mean 'pass'?")}  # fmt: skip
    assert all("'pas' is not a statement" in d["message"] for d in diags)
    assert not any("Error trying to process rule" in d["message"] for d in diags)
