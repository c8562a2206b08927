"""Sampling a state a player cannot tell from the real one (determinization), for search.

A sample is drawn from what the seat's observation shows and what the ruleset declares public
(`settings.public`, docs/language.md), nothing else:

- what the seat sees stays put: public zones, its own `owner sees` zones, and objects revealed
  to it (`reveal`) while they stay where they were;
- every other object is *unseen*; the unseen objects trade places at random among the unseen
  places, whatever their kind, keeping only each zone's count and each object's owner (a deck
  never takes another player's card). Kinds the ruleset lists in `public.kinds` (a plot deck
  kept apart) trade places only among themselves;
- the other players' unseen cards get new identities: unless `public.decklists` is true, a
  player's deck is taken to be one of the decks the ruleset loaded (its deck files and any
  `--deck`) that holds every card of that player the seat sees, drawn at random, and the
  unseen cards are that deck less the seen ones (when no deck fits: the pool of all decks less
  the seen ones); an object whose card is in no deck (a card the rules create, a token) keeps its
  identity but not its place. With `public.decklists`, an opponent's unseen cards are that
  decklist less what the seat sees: exactly the real ones, re-dealt;
- the random generator is re-seeded, so future shuffles and dice are unknown too.

The sample depends only on the seat's view and on `rng`: the unseen objects are taken in the
order of their numbers, never of their places or cards, so two states that differ only in what
the seat cannot see give the same sample (tools/nopeek.py checks it for any agent).

Limits: a card seen going into a hidden zone is not remembered unless the rules reveal it, and
what the public history lets one infer (the cards an opponent drafted, then shuffled into its
hand) is not used: the sampler forgets rather than peeks.
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass

from ..runtime.seen import known_to
from ..runtime.state import MASK64, State


@dataclass(frozen=True)
class Public:
    """What a ruleset declares public (`settings.public`), resolved to card indices."""

    decklists: bool
    kinds: frozenset[str]  # kinds told apart from the back (canonical names)
    decks: tuple[tuple[int, ...], ...]  # each deck file's cards, with copies (sorted)
    pool: tuple[int, ...]  # every deck file's cards together
    in_pool: frozenset[int]


_PUBLIC: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def public_of(prog) -> Public:
    """The program's declaration of what is public (computed once per program)."""
    got = _PUBLIC.get(prog)
    if got is not None:
        return got
    spec = prog.settings.get("public") or {}
    kinds_named = set(spec.get("kinds") or ())
    syms = getattr(prog, "syms", None)
    table = getattr(syms, "kinds", None) or {}
    kinds = frozenset(table[k].name if k in table else k for k in kinds_named)
    decks: list[tuple[int, ...]] = []
    meta = prog.meta
    fields = (meta.get("decks") or {}).get("fields") or {}
    index = prog.card_index
    for deck in ((meta.get("data") or {}).get("decks") or {}).values():
        names = list(deck.get("cards") or ())
        for name, kind in fields.items():
            value = deck.get(name)
            if kind == "card" and isinstance(value, str):
                names.append(value)
            elif kind == "cards" and isinstance(value, list):
                names += [v for v in value if isinstance(v, str)]
        decks.append(tuple(sorted(index[x] for x in names if x in index)))
    pool = tuple(sorted(x for d in decks for x in d))
    got = Public(bool(spec.get("decklists")), kinds, tuple(decks), pool, frozenset(pool))
    _PUBLIC[prog] = got
    return got


def back(st: State, o: int, pub: Public) -> str:
    """What the back of object `o` tells: its kind if the ruleset declares it public, else ''."""
    kind = st.g.prog.cards[st.obj_card[o]].kind
    return kind if kind in pub.kinds else ""


def sees_zone(st: State, z: int, seat: int) -> bool:
    name, owner = st.g.zone_info[z]
    vis = st.g.prog.zones[name].visibility
    return vis == "public" or (vis == "owner" and owner == seat)


def hidden_slots(st: State, seat: int) -> dict[tuple, list[tuple[int, int]]]:
    """Where `seat` cannot see: (owner, back) -> [(zone instance, index)], in a fixed order."""
    pub = public_of(st.g.prog)
    groups: dict[tuple, list[tuple[int, int]]] = {}
    for z in range(len(st.zones)):
        if sees_zone(st, z, seat):
            continue
        for i, o in enumerate(st.zones[z]):
            if st.shown and seat in known_to(st, o):
                continue  # revealed to this seat: it stays where it is
            key = (st.obj_owner[o], back(st, o, pub))
            groups.setdefault(key, []).append((z, i))
    return groups


def seen_cards(st: State, seat: int, owner: int) -> list[int]:
    """The cards of `owner`'s objects that `seat` sees (where they lie, or revealed to it)."""
    out = []
    for z, objs in enumerate(st.zones):
        visible = sees_zone(st, z, seat)
        for o in objs:
            if st.obj_owner[o] == owner and (visible or (st.shown and seat in known_to(st, o))):
                out.append(st.obj_card[o])
    return out


def minus(cards: list[int] | tuple[int, ...], seen: list[int]) -> list[int] | None:
    """`cards` less `seen` (multisets), or None when `seen` is not part of `cards`."""
    left = list(cards)
    for x in seen:
        try:
            left.remove(x)
        except ValueError:
            return None
    return left


def unseen_pool(st: State, seat: int, owner: int, pub: Public, rng: random.Random) -> list[int]:
    """The cards `owner`'s unseen ones are drawn from: one of the ruleset's decks that holds
    every card of `owner` the seat sees (drawn at random), less those; when no deck does, the
    whole pool less them."""
    seen = [x for x in seen_cards(st, seat, owner) if x in pub.in_pool]
    fits = [left for d in pub.decks if (left := minus(d, seen)) is not None]
    if fits:
        return fits[rng.randrange(len(fits))]
    left = list(pub.pool)
    for x in seen:
        if x in left:  # a player may hold more copies than the pool (a deck of its own)
            left.remove(x)
    return left


def forget(st: State, o: int) -> None:
    """`o` becomes another card: nothing of the real one stays on it (fields, modifiers)."""
    for d in st.props.values():
        d.pop(o, None)
    if st.mods:
        st.mods = [m for m in st.mods if m[0] != o]
    if st.grants:
        st.grants = [m for m in st.grants if m[0] != o]


def pick_cards(pool: list[int], n: int, rng: random.Random) -> list[int]:
    """`n` cards from `pool` without replacement (with replacement once it runs out)."""
    if n <= len(pool):
        return rng.sample(pool, n)
    out = list(pool)
    rng.shuffle(out)
    distinct = sorted(set(pool))
    while len(out) < n and distinct:
        out.append(distinct[rng.randrange(len(distinct))])
    return out


def determinize(st: State, seat: int, rng: random.Random) -> State:
    """A copy of `st` with what `seat` cannot see re-dealt at random (see the module doc)."""
    c = st.clone()
    pub = public_of(c.g.prog)
    groups = hidden_slots(c, seat)
    pools: dict[int, list[int]] = {}
    cards = c.g.prog.cards
    for key in sorted(groups, key=repr):
        owner, face = key
        slots = groups[key]
        objs = sorted(c.zones[z][i] for z, i in slots)  # by number: never by place or card
        if owner != seat and owner >= 0 and not pub.decklists and pub.in_pool:
            redeal = [o for o in objs if c.obj_card[o] in pub.in_pool]
            if redeal:
                if owner not in pools:
                    pools[owner] = unseen_pool(c, seat, owner, pub, rng)
                left = pools[owner]
                fits = [
                    x for x in left if (cards[x].kind if cards[x].kind in pub.kinds else "") == face
                ]
                for o, card in zip(redeal, pick_cards(fits, len(redeal), rng)):
                    if card in left:
                        left.remove(card)
                    c.obj_card[o] = card
                    forget(c, o)
        if len(objs) < 2:
            continue
        order = objs[:]
        rng.shuffle(order)
        for (z, i), o in zip(slots, order):
            c.zones[z][i] = o
            c.obj_zone[o] = z
    c.zmemo = None  # it placed objects itself (State.zone_kept)
    c.rng = rng.getrandbits(64) & MASK64
    return c


__all__ = ["determinize", "hidden_slots", "public_of", "Public", "seen_cards", "sees_zone"]
