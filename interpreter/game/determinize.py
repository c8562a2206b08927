"""Sampling a state a player cannot tell from the real one (determinization), for search.

A sample is drawn from what the seat's observation shows and what the ruleset declares public
(`settings.public`, docs/language.md), nothing else:

- what the seat sees stays put: public zones, its own `owner sees` zones, and objects revealed
  to it (`reveal`) while they stay where they were;
- what the seat remembers stays too (runtime/seen.py, `State.kept`): an object it saw go into a
  zone it does not see keeps its card and its place while the seat can follow that place, and
  only its zone once it cannot (a shuffle, another object put in at an index): there it takes
  a random place of that zone. The seat forgets it when it leaves, or when an object leaves
  that zone in a way the seat does not see (any of them may have been the one);
- every other object is *unseen*; the unseen objects trade places at random among the unseen
  places, whatever their kind, keeping only each zone's count and each object's owner (a deck
  never takes another player's card). Kinds the ruleset lists in `public.kinds` (a plot deck
  kept apart) trade places only among themselves;
- the other players' unseen cards get new identities: unless `public.decklists` is true, a
  player's deck is taken to be one of the decks the ruleset loaded (its deck files and any
  `--deck`) that holds every card of that player the seat sees or remembers, drawn at random, and the
  unseen cards are that deck less the seen ones (when no deck fits: the pool of all decks less
  the seen ones); an object whose card is in no deck (a card the rules create, a token) keeps its
  identity but not its place. With `public.decklists`, an opponent's unseen cards are that
  decklist less what the seat sees: exactly the real ones, re-dealt;
- the random generator is re-seeded, so future shuffles and dice are unknown too.

The sample depends only on the seat's view and on `rng`: the unseen objects are taken in the
order of their numbers, never of their places or cards, so two states that differ only in what
the seat cannot see give the same sample (tools/nopeek.py checks it for any agent).

The seat's knowledge of a state is planned once (`plan_of`, kept for the last few states
asked: a search samples its root at every iteration) and each sample only copies, deals and
shuffles.

Limits: nothing is inferred beyond following objects (that a card left a zone by the rules'
`first`, that an opponent's later play shows which card it had picked): where the seat cannot
follow an object, the sampler forgets rather than peeks. A loaded game remembers from its load
on (the memory is not saved, so saves and digests are as before).
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass

from ..runtime.seen import known_to, remembered
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
    """Where `seat` cannot see nor remember: (owner, back) -> [(zone instance, index)], in a
    fixed order. The objects there may trade places without the seat telling."""
    known = remembered(st, seat)
    return _slots(st, seat, known, all_known=True)


def _slots(st: State, seat: int, known: dict, all_known: bool) -> dict:
    """The unseen places by (owner, back), less those of remembered objects (all of them, or
    only those whose place the seat knows)."""
    pub = public_of(st.g.prog)
    groups: dict[tuple, list[tuple[int, int]]] = {}
    for z in range(len(st.zones)):
        if sees_zone(st, z, seat):
            continue
        for i, o in enumerate(st.zones[z]):
            if st.shown and seat in known_to(st, o):
                continue  # revealed to this seat: it stays where it is
            if o in known and (all_known or known[o]):
                continue  # remembered there (and its place)
            key = (st.obj_owner[o], back(st, o, pub))
            groups.setdefault(key, []).append((z, i))
    return groups


def seen_cards(st: State, seat: int, owner: int) -> list[int]:
    """The cards of `owner`'s objects that `seat` sees (where they lie, or revealed to it) or
    remembers."""
    known = remembered(st, seat)
    out = []
    for z, objs in enumerate(st.zones):
        visible = sees_zone(st, z, seat)
        for o in objs:
            if st.obj_owner[o] == owner and (
                visible or o in known or (st.shown and seat in known_to(st, o))
            ):
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


def unseen_pools(st: State, seat: int, owner: int, pub: Public) -> list[list[int]]:
    """The lists `owner`'s unseen cards may be drawn from: each of the ruleset's decks that
    holds every card of `owner` the seat sees or remembers, less those; when no deck does, the
    whole pool less them. A sample draws one of them at random."""
    seen = [x for x in seen_cards(st, seat, owner) if x in pub.in_pool]
    fits = [left for d in pub.decks if (left := minus(d, seen)) is not None]
    if fits:
        return fits
    left = list(pub.pool)
    for x in seen:
        if x in left:  # a player may hold more copies than the pool (a deck of its own)
            left.remove(x)
    return [left]


def forget(st: State, o: int) -> None:
    """`o` becomes another card: nothing of the real one stays on it (fields, modifiers)."""
    st.drop_props((o,), new_cards=True)
    if st.mods:
        st.mods = [m for m in st.mods if m[0] != o]
    if st.grants:
        st.grants = [m for m in st.grants if m[0] != o]


def shuffled(items: list[int], rng: random.Random) -> list[int]:
    """`items` in a random order (a sort by random keys: a few times faster than
    `rng.shuffle` on the lists a sample deals)."""
    rnd = rng.random
    return sorted(items, key=lambda _: rnd())


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


@dataclass
class Group:
    """The unseen places of one (owner, back) and the objects dealt into them."""

    owner: int
    face: str
    slots: list[tuple[int, int]]  # every place not pinned (a remembered place stays)
    objs: list[int]  # the objects the seat does not remember, by number
    zoned: list[tuple[int, list[int]]]  # (zone, objects remembered there, place unknown)
    redeal: list[int]  # objects of `objs` that get new cards (another player's, in the pool)


@dataclass
class Plan:
    """What a sample of one state for one seat needs, computed once (a search samples the
    same root at every iteration): the sample itself only shuffles and deals."""

    seat: int
    groups: list[Group]
    pools: dict[int, list[list[int]]]  # owner -> the lists its unseen cards come from
    faces: list[str]  # by card index: what its back tells
    one_back: bool  # no kind is told apart from the back
    props: list[tuple[str, int]]  # (field, object): fields of objects that get new cards
    mods: bool  # whether some modifier or grant is on such an object


def plan(st: State, seat: int) -> Plan:
    """The seat's knowledge of `st`, ready to sample from (see the module doc)."""
    pub = public_of(st.g.prog)
    known = remembered(st, seat)
    groups = []
    pools: dict[int, list[list[int]]] = {}
    changed: set[int] = set()
    for key, slots in sorted(_slots(st, seat, known, all_known=False).items(), key=repr):
        owner, face = key
        objs = sorted(st.zones[z][i] for z, i in slots)  # by number: never by place or card
        zoned: dict[int, list[int]] = {}
        for o in objs:
            if o in known:
                zoned.setdefault(st.obj_zone[o], []).append(o)
        free = [o for o in objs if o not in known]
        redeal = []
        if owner != seat and owner >= 0 and not pub.decklists and pub.in_pool:
            redeal = [o for o in free if st.obj_card[o] in pub.in_pool]
            if redeal and owner not in pools:
                pools[owner] = unseen_pools(st, seat, owner, pub)
            changed.update(redeal)
        groups.append(Group(owner, face, slots, free, sorted(zoned.items()), redeal))
    cards = st.g.prog.cards
    faces = [c.kind if c.kind in pub.kinds else "" for c in cards]
    props = [(k, o) for k, d in st.props.items() for o in d if o in changed]
    mods = any(m[0] in changed for m in st.mods) or any(m[0] in changed for m in st.grants)
    return Plan(seat, groups, pools, faces, not pub.kinds, props, mods)


_PLANS: dict[int, tuple] = {}  # id(state) -> (state, its steps, decisions, kept, seat, plan)


def plan_of(st: State, seat: int) -> Plan:
    """`plan(st, seat)`, kept for the last few states asked (a search's root): a state that
    moved on since (its steps, decisions or memory changed) is planned afresh."""
    got = _PLANS.get(id(st))
    if got is not None and got[0] is st and got[1:5] == (st.steps, st.decisions, st.kept, seat):
        return got[5]
    p = plan(st, seat)
    if len(_PLANS) >= 8:
        del _PLANS[next(iter(_PLANS))]
    _PLANS[id(st)] = (st, st.steps, st.decisions, st.kept, seat, p)
    return p


def determinize(st: State, seat: int, rng: random.Random) -> State:
    """A copy of `st` with what `seat` cannot see re-dealt at random (see the module doc)."""
    return sample(st, plan_of(st, seat), rng)


def sample(st: State, p: Plan, rng: random.Random) -> State:
    """A copy of `st` dealt from plan `p` (made from `st`)."""
    c = st.clone()
    c.own_objects()  # (it writes the objects' cards and zones' lists a clone shares)
    faces = p.faces
    pools: dict[int, list[int]] = {}
    for grp in p.groups:
        if grp.redeal:
            left = pools.get(grp.owner)
            if left is None:
                lists = p.pools[grp.owner]
                left = pools[grp.owner] = list(
                    lists[rng.randrange(len(lists))] if len(lists) > 1 else lists[0]
                )
            n = len(grp.redeal)
            if p.one_back or all(faces[x] == grp.face for x in left):  # the common case: one back
                deal = shuffled(left, rng)
                if n <= len(deal):
                    pools[grp.owner], picked = deal[n:], deal[:n]
                else:
                    picked = pick_cards(deal, n, rng)
            else:
                picked = pick_cards([x for x in left if faces[x] == grp.face], n, rng)
                for card in picked:
                    if card in left:
                        left.remove(card)
            for o, card in zip(grp.redeal, picked):
                c.obj_card[o] = card
        slots = grp.slots
        if grp.zoned:  # remembered in a zone, not where: a random place of that zone
            taken = set()
            for z, objs in grp.zoned:
                places = shuffled([k for k, s in enumerate(slots) if s[0] == z], rng)
                for o, k in zip(objs, places):
                    zz, i = slots[k]
                    c.own_zones(1 << zz)[zz][i] = o
                    c.obj_zone[o] = zz
                    taken.add(k)
            slots = [s for k, s in enumerate(slots) if k not in taken]
        if len(grp.objs) < 2 and not grp.zoned:
            continue
        for (z, i), o in zip(slots, shuffled(grp.objs, rng)):
            c.own_zones(1 << z)[z][i] = o
            c.obj_zone[o] = z
    for k, o in p.props:  # the objects dealt new cards keep nothing of the real ones
        c.own_prop(k).pop(o, None)
    if c.pv:  # and read their new cards (State.pv)
        c.drop_props([o for grp in p.groups for o in grp.redeal], new_cards=True)
    if p.mods:
        changed = {o for grp in p.groups for o in grp.redeal}
        c.mods = [m for m in c.mods if m[0] not in changed]
        c.grants = [m for m in c.grants if m[0] not in changed]
    c.forget_kept()  # it placed objects itself
    c.kept = None  # a sample is searched in, not remembered in
    c.rng = rng.getrandbits(64) & MASK64
    return c


__all__ = [
    "determinize",
    "hidden_slots",
    "plan",
    "plan_of",
    "sample",
    "public_of",
    "Public",
    "seen_cards",
    "sees_zone",
]
