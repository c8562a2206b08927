"""A small ruleset written into a folder for a test: one language file and one card file."""

from __future__ import annotations

from pathlib import Path


def write_ruleset(folder: Path, rules: str, cards: str, players: int = 2, name: str = "t") -> str:
    """`folder` holding a ruleset of `players` with the rules `rules` (r.madang) and the card
    file text `cards` (cards.yaml); its path, as load_program and new_game take it."""
    (folder / "ruleset.yaml").write_text(
        f"name: {name}\ntitle: {{en: {name}}}\nplayers: {players}\nfiles: [r.madang]\n"
        "cards: [cards.yaml]\n",
        encoding="utf-8",
    )
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    (folder / "r.madang").write_text(rules, encoding="utf-8")
    return str(folder)


# Two kinds of zone per player and four counters, for tests of the code written for a flow
# (tests/test_loop_code.py, tests/test_held_names.py)
UNITS = (
    "kind unit:\n    hp: number\n"
    "zone top: per player, ordered, owner sees\nzone low: per player, ordered, owner sees\n"
    "counter n = 0\ncounter m = 0\ncounter k = 0\ncounter j = 0\n"
)
UNIT_CARDS = "cards: [{name: A, type: unit, hp: 1}, {name: B, type: unit, hp: 2}]\n"


# a flow of twelve rounds in which each player in turn lists the window `act` once (the
# enumerators' tests of small rulesets: tests/test_enumerator_or_scans.py, ...one_scan.py)
ROUNDS = """\
flow:
    repeat 12 times:
        for p in players:
            turn p:
                window act by p once
"""


def four_areas(folder: Path, rules: str, name: str) -> str:
    """`write_ruleset` of 2 players on a map of four areas in a row (A-B-C-D) with two cards of
    the kind `piece` (Big of size 2, Small of size 1): the areas' loops' tests
    (tests/test_enumerator_area_loops.py, tests/test_joined_charges.py)."""
    cards = (
        "cards:\n  - {name: Big, type: piece, size: 2}\n  - {name: Small, type: piece, size: 1}\n"
    )
    write_ruleset(folder, rules, cards, name=name)
    (folder / "ruleset.yaml").write_text(
        (folder / "ruleset.yaml").read_text(encoding="utf-8")
        + "maps:\n  m:\n    areas:\n      A: {adjacent: [B]}\n      B: {adjacent: [A, C]}\n"
        "      C: {adjacent: [B, D]}\n      D: {adjacent: [C]}\n",
        encoding="utf-8",
    )
    return str(folder)
