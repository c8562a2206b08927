"""Games are data: the interpreter's Python sources name no game, zone, card or keyword of the
bundled rulesets (DESIGN.md: "The interpreter knows no game")."""

import re
from pathlib import Path

from madang.build.loader import bundled_names, load_ruleset
from madang.language.diagnostics import Diagnostics

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "interpreter").rglob("*.py"))

# Words that are also ordinary English in code (kept short and explicit).
COMMON = {
    "deck",
    "hand",
    "pool",
    "discard",
    "top",
    "bottom",
    "mana",
    "phase",
    "turn",
    "round",
    "card",
    "cards",
    "take",
    "kills",
    "picks",
    "reveal",
    "offered",
    "draft",
    "attack",
    "place",
    "destroy",
    "summon",
    "cast",
    "strike",
    "data",
    "players",
    "enemy",
    "lanes",
    "facing",
    "lethal",
    "playable",
    "name",
    "order",
    "format",
    "mode",
    "tower_of",
    "all_cards",
    "in_play",
    "dash_move",
    "box",  # gymnasium's spaces.Box
}


def ruleset_vocabulary() -> dict[str, set[str]]:
    vocab = {}
    for name in bundled_names():
        diags = Diagnostics()
        loaded = load_ruleset(name, diags, compile=False)
        assert loaded is not None, diags.render()
        s = loaded.syms
        words = {name}
        for table in (
            s.kinds,
            s.zones,
            s.counters,
            s.keywords,
            s.cards,
            s.verbs,
            s.defines,
            s.actions,
            s.events,
        ):
            words.update(table)
        words.update(s.options)
        vocab[name] = {w for w in words if len(w) > 2 and w.lower() not in COMMON}
    return vocab


def test_rulesets_are_bundled():
    assert "clash_of_decks" in bundled_names()


def words_named(text: str, words: set[str]) -> set[str]:
    """The words of `words` that `text` names as whole identifiers (ASCII ones in any case)."""
    tokens = set(re.findall(r"\w+", text))
    lowered = {t.lower() for t in tokens}
    found = set()
    for w in words:
        if re.fullmatch(r"\w+", w):
            hit = w.lower() in lowered if w.isascii() else w in tokens
        else:
            flags = re.IGNORECASE if w.isascii() else 0
            hit = re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text, flags) is not None
        if hit:
            found.add(w)
    return found


def test_interpreter_names_no_ruleset_vocabulary():
    vocab = ruleset_vocabulary()
    offenders = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for ruleset, words in vocab.items():
            for w in words_named(text, words):
                offenders.append(f"{path.relative_to(ROOT)}: '{w}' ({ruleset})")
    assert not offenders, "game vocabulary in the interpreter:\n" + "\n".join(sorted(offenders))


def test_scan_catches_a_planted_word():
    """The scan itself works: a source naming a card is caught, in any case, but not inside a
    longer identifier."""
    vocab = ruleset_vocabulary()["clash_of_decks"]
    assert "TROLL" in words_named("if card == 'troll': pass\n", vocab)
    assert not words_named("trolls_and_more = 1\n", {"TROLL"})
