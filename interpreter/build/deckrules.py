"""Decks at load time: the ruleset's own deck files and the ones a user gives, read into
`data.decks`, offered as the values of the deck option, and checked against the `rule`s.

A ruleset declares in ruleset.yaml

    decks:
      option: deck            # the per-seat option whose value names a seat's deck
      zone: deck              # where a deck's cards lie while its rules are checked
      files: [decks/a.yaml]   # its own decks
      fields: {head: card}    # what else a deck file names (card, cards, text or number)

and its setup reads `data.decks[nth(option.deck, p)]`. Every deck is checked when the ruleset
loads, so a broken deck never reaches a game and `madang check deck.yaml` reports every broken
rule at the line of the card that breaks it.
"""

from __future__ import annotations

from pathlib import Path

from ..language.decks import DeckFile, read_deck
from ..language.diagnostics import Diagnostics, Span
from ..language.symbols import NUMBER, OBJECT, TEXT, Symbols, list_of
from ..runtime.engine import create_object
from ..runtime.errors import MadangError, RulesError
from ..runtime.setup import make_game, start
from ..runtime.state import State

_FIELD_TYPES = {"card": OBJECT, "text": TEXT, "number": NUMBER, "cards": list_of(OBJECT)}


def _show(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_decks(
    folder: Path, meta: dict, syms: Symbols, extra: list[str], diags: Diagnostics
) -> list[DeckFile]:
    """Read the ruleset's decks and the `extra` deck files into `meta['data']['decks']`."""
    spec = meta.get("decks")
    if not spec:
        for path in extra:
            diags.error(
                f"ruleset '{meta.get('name')}' takes no deck files (its ruleset.yaml has no "
                "`decks:` section)",
                Span(_show(Path(path)), 1, 1, 1, 1),
                code="deck",
            )
        return []
    fields = dict(spec.get("fields") or {})
    syms.deck_fields = {k: _FIELD_TYPES[t] for k, t in fields.items()}
    cards = set(syms.cards)
    decks: list[DeckFile] = []
    where: dict[str, DeckFile] = {}
    paths = [(folder / rel, True) for rel in spec.get("files") or []]
    paths += [(Path(p), False) for p in extra]
    for path, builtin in paths:
        deck = read_deck(str(path), _show(path), meta["name"], fields, cards, diags, builtin)
        if deck is None:
            continue
        if deck.name in where:
            diags.error(
                f"a deck named '{deck.name}' is already given ({where[deck.name].shown})",
                deck.doc.span(("name",)),
                "give each deck a name of its own",
                code="deck",
            )
            continue
        where[deck.name] = deck
        decks.append(deck)
    data = dict(meta.get("data") or {})
    data["decks"] = {d.name: d.record() for d in decks}
    meta["data"] = data
    option = (meta.get("options") or {}).get(spec["option"])
    if option is not None:
        option["values"] = [d.name for d in decks]
    return decks


def check_deck_rules(prog, decks: list[DeckFile], diags: Diagnostics) -> None:
    """Each `rule` on each deck; a broken rule is reported at the cards that break it."""
    if not prog.deck_rules or not decks:
        return
    try:
        g = make_game(prog, {}, 0)
    except MadangError:
        return  # the options are wrong; that is reported where they are read
    zone = g.zone_base.get((prog.meta.get("decks") or {}).get("zone", ""), 0)
    for deck in decks:
        st = State(g)
        try:
            start(st, run=False)  # counters at their defaults; the game itself never runs
        except RulesError:
            return
        env: dict = {}
        objects: dict[int, str] = {}
        env["deck"] = []
        for card, copies in deck.cards:
            for _ in range(copies):
                o = _create(st, prog, card, zone)
                if o is not None:
                    env["deck"].append(o)
                    objects[o] = card
        for name, kind in (prog.meta["decks"].get("fields") or {}).items():
            value = deck.fields.get(name)
            if kind == "card":
                env[name] = _create(st, prog, value, zone)
            elif kind == "cards":
                env[name] = [
                    o for o in (_create(st, prog, c, zone) for c in value) if o is not None
                ]
            else:
                env[name] = value
        for rule in prog.deck_rules:
            _check(st, rule, env, deck, objects, diags)


def _create(st, prog, card, zone) -> int | None:
    idx = prog.card_index.get(card)
    return None if idx is None else create_object(st, idx, zone, 0)


def _check(st, rule, env: dict, deck: DeckFile, objects: dict, diags: Diagnostics) -> None:
    where = f"the rule is at {rule.span.file}:{rule.span.line}"
    try:
        if rule.var is None:
            if not rule.cond(st, env):
                diags.error(
                    f"this deck breaks the rule: {rule.label} (it holds {deck.size()} cards)",
                    deck.at(),
                    where,
                    code="deck-rule",
                )
            return
        broken: list[str] = []
        for item in rule.over(st, env) or []:
            if not rule.cond(st, {**env, rule.var: item}):
                card = objects.get(item, item if isinstance(item, str) else None)
                if card not in broken:
                    broken.append(card)
    except RulesError as e:
        diags.error(
            f"the rule '{rule.label}' could not be checked on deck '{deck.name}': {e}",
            rule.span,
            code="deck-rule",
        )
        return
    for card in broken:
        if card in deck.cards_by_name:
            diags.error(
                f"{card}: breaks the rule: {rule.label}",
                deck.card_span(card),
                where,
                code="deck-rule",
            )
        else:
            diags.error(f"this deck breaks the rule: {rule.label}", deck.at(), where, "deck-rule")
