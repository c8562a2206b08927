"""Deck files: which cards, how many of each, and what else a ruleset asks a deck to name.

A deck file is YAML (`ruleset:`, `name:`, `cards: {CARD: copies, ...}` and the fields the
ruleset's `decks:` section declares, such as a card that heads it). Reading one checks its shape and its
card names, each problem at its line; the ruleset's `rule` declarations are checked later, on the
compiled program (build/deckrules.py). What the rules see of a deck is a plain record in
`data.decks`: its name, its cards one name per copy, and its fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostics, Span, did_you_mean
from .schema import DRAFT, validate
from .sources import read_text
from .yamlsrc import YamlDoc, load_yaml

_COPIES = {
    "type": "object",
    "minProperties": 1,
    "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 1000},
}
# The types a deck field may have: a card names a card of the ruleset; cards are a second list
# of cards with copies, like `cards:` (a plot deck beside the draw deck).
FIELD_TYPES = {"card": {"type": "string", "minLength": 1}, "text": {"type": "string"},
               "number": {"type": "integer"}, "cards": _COPIES}  # fmt: skip


@dataclass
class DeckFile:
    path: str
    shown: str
    doc: YamlDoc
    name: str
    cards: list[tuple[str, int]] = field(default_factory=list)  # in file order
    fields: dict[str, object] = field(default_factory=dict)
    builtin: bool = False

    def card_span(self, card: str) -> Span:
        return self.doc.key_span(("cards", card)) if card in self.cards_by_name else self.at()

    @property
    def cards_by_name(self) -> dict[str, int]:
        return dict(self.cards)

    def at(self, *path) -> Span:
        return self.doc.key_span(path or ("cards",))

    def record(self) -> dict:
        """What the rules read as `data.decks[NAME]`."""
        names = [card for card, copies in self.cards for _ in range(copies)]
        return {"name": self.name, "cards": names, **self.fields}

    def size(self) -> int:
        return sum(copies for _, copies in self.cards)


CARD_CUTOFF = 0.75  # how close a name must be to another card's to be hinted as its misspelling


def is_deck(data: object) -> bool:
    """A YAML document that is a deck (its cards a mapping), not a card file (a list)."""
    return isinstance(data, dict) and isinstance(data.get("cards"), dict)


def deck_schema(ruleset: str, fields: dict[str, str]) -> dict:
    """The JSON Schema of a deck file for `ruleset`, whose `decks:` section declares `fields`."""
    own = {
        k: {**FIELD_TYPES[t], "description": f"The deck's {k} ({t})."} for k, t in fields.items()
    }
    return {
        "$schema": DRAFT,
        "title": f"{ruleset} deck",
        "type": "object",
        "required": ["name", "cards", *fields],
        "additionalProperties": False,
        "properties": {
            "ruleset": {"const": ruleset, "description": "The ruleset this deck is for."},
            "name": {"type": "string", "minLength": 1, "description": "The deck's name."},
            "description": {"type": "string"},
            "cards": {
                **_COPIES,
                "description": "Each card's name and how many copies the deck holds.",
            },
            **own,
        },
    }


def deck_ruleset(path: str, diags: Diagnostics) -> str | None:
    """The ruleset a deck file names (for `madang check deck.yaml`)."""
    doc = _load(path, diags)
    if doc is None:
        return None
    if not isinstance(doc.data.get("ruleset"), str):
        diags.error(
            "a deck file must name its ruleset: add `ruleset: NAME`", doc.span(()), code="deck"
        )
        return None
    return doc.data["ruleset"]


def deck_name(path: str) -> str | None:
    """The `name:` of a deck file, or None when it is not one (loading it says why)."""
    doc = _load(path, Diagnostics())
    if doc is None or not is_deck(doc.data) or not isinstance(doc.data.get("name"), str):
        return None
    return doc.data["name"]


def read_deck_cards(path: str) -> list[str]:
    """The card names a deck file lists (nothing when it cannot be read: its check says why)."""
    doc = _load(path, Diagnostics())
    cards = doc.data.get("cards") if doc is not None else None
    return [str(c) for c in cards] if isinstance(cards, dict) else []


def looks_like_deck(path: str) -> bool:
    """Whether a YAML file holds a deck; unreadable files are not decks (their reader says why)."""
    doc = _load(path, Diagnostics())
    return doc is not None and is_deck(doc.data)


def read_deck(
    path: str,
    shown: str,
    ruleset: str,
    fields: dict[str, str],
    cards: set[str],
    diags: Diagnostics,
    builtin: bool = False,
) -> DeckFile | None:
    """Read and check one deck file: its shape, its ruleset, and that every card exists."""
    doc = _load(path, diags, shown)
    if doc is None:
        return None
    named = doc.data.get("ruleset")
    if named is not None and named != ruleset:
        diags.error(
            f"this deck is for ruleset '{named}', not '{ruleset}'",
            doc.span(("ruleset",)),
            code="deck",
        )
        return None
    if not builtin and named is None:
        diags.error(
            "a deck file must name its ruleset: add `ruleset: NAME`", doc.span(()), code="deck"
        )
    if not validate(doc.data, deck_schema(ruleset, fields), doc, diags):
        return None
    deck = DeckFile(path, shown, doc, str(doc.data["name"]), builtin=builtin)
    for card, copies in doc.data["cards"].items():
        card = str(card)
        deck.cards.append((card, int(copies)))
        if card not in cards:
            # a card of a new set is more likely missing its file than misspelt: hint only at
            # a name that is really close
            hint = did_you_mean(card, sorted(cards), CARD_CUTOFF)
            diags.error(
                f"no card named '{card}' in this ruleset or the card sets given",
                doc.key_span(("cards", card)),
                hint or "a card of a new set needs the file that defines it: --cards FILE",
                code="deck-card",
            )
    for name, kind in fields.items():
        value = doc.data[name]
        if kind == "card" and value not in cards:
            hint = did_you_mean(str(value), sorted(cards), CARD_CUTOFF)
            diags.error(f"no card named '{value}'", doc.span((name,)), hint, code="deck-card")
        if kind == "cards":
            for card in value:
                if str(card) not in cards:
                    hint = did_you_mean(str(card), sorted(cards), CARD_CUTOFF)
                    diags.error(f"no card named '{card}' in this ruleset or the card sets given",
                                doc.key_span((name, card)), hint, code="deck-card")  # fmt: skip
            value = [str(card) for card, copies in value.items() for _ in range(int(copies))]
        deck.fields[name] = value
    return deck


def _load(path: str, diags: Diagnostics, shown: str | None = None) -> YamlDoc | None:
    text = read_text(Path(path), diags)
    if text is None:
        return None
    doc = load_yaml(text, shown or path, diags)
    if doc is None:
        return None
    if not isinstance(doc.data, dict):
        diags.error("a deck file is a mapping with `name:` and `cards:`", doc.span(()), code="deck")
        return None
    return doc
