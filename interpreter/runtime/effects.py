"""Continuous effects: what a property and a keyword of an object are now. A value read is its
base (the card's, or the last assigned) with the modifiers in force applied in layers (set-effects,
then adds); a keyword is printed, or granted by a statement or a continuous `grant`, with its
arguments. `Program` (program.py) inherits these lookups."""

from __future__ import annotations

from .errors import RulesError
from .inputs import kept_totals

_MISSING = object()
_NONE = (_MISSING, False, 0)  # no continuous modifier hits the object
MANY = 8  # continuous grants of one keyword beyond which those of absent cards are skipped


def carried(args, o):
    """Arguments read off object `o`: a condition (`["cond", n]`) carries `o` as `["cond", n, o]`,
    so that `matches` gives it `this` (the object that has the keyword) and `you` (its owner)."""
    for a in args:  # (a loop, not `any` over a generator: no frame when none is)
        if type(a) is list and a and a[0] == "cond":
            break
    else:
        return args
    return tuple(["cond", a[1], o] if type(a) is list and a and a[0] == "cond" else a for a in args)


def _objects_of(st, cards: frozenset) -> list:
    """The objects in active zones whose card is one of `cards`, in zone order."""
    obj_card = st.obj_card
    return [o for o in acting(st) if obj_card[o] in cards]


def acting(st) -> list:
    """The objects whose abilities are in force: those in active zones (for a card whose kind
    says `active in`, in those zones only), in zone order."""
    card_zones = st.g.card_zones
    zones = st.zones
    if card_zones is None:
        return [o for z in st.g.active_zones for o in zones[z]]
    obj_card = st.obj_card
    return [o for z in st.g.active_zones for o in zones[z] if z in card_zones[obj_card[o]]]


def printing_cards(st, kw: str) -> frozenset | None:
    """The cards that print keyword `kw` (kept per game) when only they may give it now: no
    grant of a statement, no continuous grant that could give it, no last known information.
    None when it may be granted."""
    prog = st.g.prog
    if st.grants or st.lki or prog.grant_any or kw in prog.grant_index:
        return None
    kept = st.g.grant_cards
    cards = kept.get(("printed", kw))
    if cards is None:
        cards = kept["printed", kw] = frozenset(c.index for c in prog.cards if kw in c.keywords)
    return cards


def keyword_holders(st, kw: str) -> list | None:
    """The objects in force that have keyword `kw`, in zone order, when only cards print it
    now (no grant of a statement, no continuous grant that could give it, no last known
    information): those of the cards that print it, kept until a zone changes. None when
    it may be granted: the caller asks each object."""
    cards = printing_cards(st, kw)
    if cards is None:
        return None
    out = st.zone_kept(("printed", kw), _objects_of, cards)
    prog = st.g.prog
    if prog.verify_checks and out != [o for o in acting(st) if prog.has(st, o, kw)]:
        raise AssertionError(f"the holders of {kw} found by their cards are not those that have it")
    return out


_NO_CARDS: frozenset = frozenset()


def cards_objects(st, cards: frozenset) -> list:
    """The objects of `cards`, in any zone (in order of creation), kept in `State.ko` until an
    object is created or an object's card is changed (engine.create_object, a determinized
    sample): a continuous grant's few possible sources, found without a pass over the zones."""
    ko = st.ko
    if ko is None:
        ko = kept_by_cards(st)
    got = ko.get(cards)
    if got is not None:
        if st.g.prog.verify_checks and got != [o for o, c in enumerate(st.obj_card) if c in cards]:
            raise AssertionError("an object was made or its card changed without emptying State.ko")
        return got
    if not cards:
        out: list = []
    else:
        out = [o for o, c in enumerate(st.obj_card) if c in cards]
    ko[cards] = out
    return out


def kept_by_cards(st) -> dict:
    """A new `State.ko` for `st`: what is kept there (the objects of sets of cards, the
    keywords' grant plans, the objects by card) depends only on the objects' cards and the
    game, so the states of one game share one dictionary for each list of objects' cards
    (`Game.grant_cards`: each game's own, since what a grant's condition charged is charged
    to the game that first finds it). A state then finds again at once what another with the
    same objects found. Its lists are never written in place. Past `KO_MAX` entries (a
    search's many samples of hidden cards), a new one is the state's alone."""
    kept = st.g.grant_cards
    key = (BY_CARDS, tuple(st.obj_card))
    ko = kept.get(key)
    if ko is None:
        ko = {}
        if len(kept) < KO_MAX:
            kept[key] = ko
    st.ko = ko
    return ko


BY_CARDS = "objects' cards"  # the first part of the keys of `kept_by_cards` in `Game.grant_cards`
KO_MAX = 1_000


def _zone_order(st, o) -> tuple:
    """Where object `o` of an active zone comes in `acting`'s order."""
    z = st.obj_zone[o]
    return st.g.active_zones.index(z), st.zones[z].index(o)


_RULES = (None,)  # the source of a continuous effect of the rules' own


def _granted_by(st, o, kw, plan):
    """`_granted` without statements' grants, by a kept plan (`grant_plan`): each continuous
    grant asked of its sources in force (those of its cards' objects that are in force, in zone
    order, as `StaticRT.sources` and `sources_for` find them; none for the rules' own)."""
    for sa, objs in plan:
        if sa.near and objs is not None:
            # `to neighbours(this)`, no condition nor arguments: o is a target exactly when a
            # source in force is one of o's own neighbours (at most two objects to ask)
            # (builtins._neighbours written out: importing it here would make a circle)
            z = st.obj_zone[o]
            if z < 0:  # out of every zone: nobody's neighbour
                continue
            row = st.zones[z]
            i = row.index(o)
            for j in (i - 1, i + 1):
                if 0 <= j < len(row):
                    src = row[j]
                    if (
                        src in objs
                        and in_force(st, src)
                        and sa.value(st, sa.env_for(st, src)) == kw
                    ):
                        return []
            continue
        if objs is None:
            srcs = _RULES
        elif len(objs) == 1:
            if not in_force(st, objs[0]):
                continue
            srcs = objs
        else:
            srcs = [x for x in objs if in_force(st, x)]
            if not srcs:
                continue
            if len(srcs) > 1:
                srcs.sort(key=lambda x: _zone_order(st, x))
        for src in srcs:
            env = sa.env_for(st, src)
            if sa.value(st, env) == kw and sa.hits(st, env, o):
                return [a(st, env) for a in sa.args] if sa.args else []
    return None


def in_force(st, o) -> bool:
    """Whether object `o`'s abilities are in force where it is now."""
    z = st.obj_zone[o]
    card_zones = st.g.card_zones
    if card_zones is None:
        return z in st.g.active_set
    return z in card_zones[st.obj_card[o]]


class StaticRT:
    """A continuous effect of an ability: while its source is in an active zone."""

    __slots__ = (
        "id",
        "origin",
        "owner",
        "card_index",
        "kw_params",
        "target",
        "value",
        "cond",
        "prop",
        "grant",
        "args",
        "op",
        "prog",
        "card_set",
        "fixed",
        "kw_cards",
        "near",
    )

    def sources(self, st):
        """The objects whose copy of this ability is in force (None for the rules' own)."""
        if self.origin == "global":
            return [None]
        out = st.zone_kept(("sources", self.id), _objects_of, self.card_set)
        if self.origin == "keyword" and st.grants:
            return out + self.prog.granted_holders(st, self.owner, self.card_set)
        return out

    def sources_for(self, st, kw):
        """The sources that may grant `kw`: for a keyword's grant whose keyword is read off the
        arguments printed on its cards (`kw_cards`, index_statics), the objects of the cards
        whose arguments give `kw` that are in force, in zone order (found from the few objects
        of those cards, `cards_objects`, not from the zones), and those granted the keyword by
        a statement."""
        kw_cards = self.kw_cards
        if kw_cards is None:
            return self.sources(st)
        objs = cards_objects(st, kw_cards.get(kw, _NO_CARDS))
        out = [o for o in objs if in_force(st, o)] if objs else []
        if len(out) > 1:
            out.sort(key=lambda o: _zone_order(st, o))
        if st.g.prog.verify_checks:
            cards = kw_cards.get(kw, ())
            old = [o for o in _objects_of(st, self.card_set) if st.obj_card[o] in cards]
            if out != old:
                raise AssertionError(f"the sources of {kw} found by their cards differ")
        if st.grants:
            return out + self.prog.granted_holders(st, self.owner, self.card_set)
        return out

    def env_for(self, st, src):
        if src is None:
            return {"you": st.active}
        env = {"this": src, "you": st.obj_owner[src]}
        if self.kw_params:
            args = self.prog.keyword_args(st, src, self.owner)
            for name, v in zip(self.kw_params, args):
                env[name] = v
        return env

    def fixed_grant(self, st, kw) -> bool:
        """For a grant whose condition and keyword read only options and data (`fixed`, the
        compiler's): whether it grants `kw` in this game at all, found once per game."""
        kept = st.g.grant_cards
        key = ("fixed", self.id)
        got = kept.get(key)
        if got is None:
            env: dict = {}
            got = kept[key] = (self.cond is None or bool(self.cond(st, env)), self.value(st, env))
        return got[0] and got[1] == kw

    def grants_to(self, st, o, kw, sources=None):
        """The arguments with which this continuous `grant` gives `kw` to `o`, or None."""
        if self.fixed and not self.fixed_grant(st, kw):
            return None
        for src in self.sources_for(st, kw) if sources is None else sources:
            env = self.env_for(st, src)
            if self.value(st, env) == kw and self.hits(st, env, o):
                return [a(st, env) for a in self.args] if self.args else []
        return None

    def hits(self, st, env, o) -> bool:
        cache = st.g.read_cache
        if cache is not None:  # one state, read many times: each target computed once
            key = (self.id, env.get("this"))
            t = cache.get(key, _MISSING)
            if t is _MISSING:
                t = cache[key] = (
                    False
                    if self.cond is not None and not self.cond(st, env)
                    else self.target(st, env)
                )
            if t is False:
                return False
        else:
            if self.cond is not None and not self.cond(st, env):
                return False
            t = self.target(st, env)
        return o in t if isinstance(t, list) else o == t


def _with_mods(st, o, name, v, added: bool, total):
    """Value `v` of property `name` of object `o` with what continuous modifiers added
    (`added`, `total`) and then the statements' modifiers on top, in timestamp order (a "set"
    one replaces the value, an "add" one adds)."""
    for m in st.mods:
        if m[0] == o and m[1] == name:
            if len(m) > 5 and m[5] == "set":
                v = m[2]
            else:
                added = True
                total += m[2]
    return v + total if added else v


class ContinuousEffects:
    """The lookups of continuous effects, for `Program`."""

    def object_ability(self, key) -> bool:
        """Whether the `once per` key of `st.used` belongs to an object: an object's ability,
        or an action whose limit is kept per object parameter (`per NAME`); not the rules' own,
        whose uses are counted per player."""
        if isinstance(key, str):
            act = self.actions[int(key[1:])]
            if act.limit_by is not None:
                return act.param_types[act.limit_by] == "object"
            return act.origin != "global"
        lst = self.listener_by_id.get(key)
        return lst is not None and lst.origin != "global"

    def has(self, st, o, kw) -> bool:
        if kw in self.cards[st.obj_card[o]].keywords:
            return True
        return self.granted_args(st, o, kw) is not None

    def keyword_args(self, st, o, kw) -> tuple:
        """The arguments of keyword `kw` on `o`: as printed on its card, else as granted (the
        latest grant first), else none."""
        args = self.cards[st.obj_card[o]].keywords.get(kw)
        if args is None:
            args = self.granted_args(st, o, kw)
        if args is None and st.lki:
            args = self.last_known_args(st, o, kw)
        return carried(args, o) if args else ()

    def last_known_args(self, st, o, kw):
        """The arguments of `kw` as granted to `o` just before it arrived in a `new objects`
        zone (its abilities trigger on the events of that arrival), or None."""
        moves = st.obj_moves[o]
        for x, m, gr in reversed(st.lki):
            if x == o and m == moves and gr[1] == kw:
                return gr[4] if len(gr) > 4 else []
        return None

    def may_grant(self, st, kw) -> bool:
        """Whether a continuous grant may give `kw` to anything in this state, when no statement
        granted anything now: one of the rules' own, or one of a card of which this state has an
        object (in any zone), or a keyword that implies `kw` may be given. Kept per keyword in
        `State.ko` (objects are few to be created, cards rarely change), so that `has` skips the
        grants where a game holds none of the cards that grant the keyword."""
        ko = st.ko
        got = None if ko is None else ko.get(kw)
        if got is None or self.verify_checks:
            got = self.grant_plan(st, kw)
        return got[0]

    def grant_plan(self, st, kw, depth=0) -> tuple:
        """(may_grant, plan) for `kw`, kept in `State.ko`. The plan: the continuous grants that
        may give `kw` with their possible sources, in `_granted`'s order, as pairs (grant, the
        objects, in any zone, of its cards: those whose printed arguments give `kw` for a
        keyword's grant that reads its keyword off them, `kw_cards`; None for the rules' own),
        the grants of no object left out; None (the general lookup) past `MANY` grants."""
        ko = st.ko
        if ko is not None:
            got = ko.get(kw)
            if got is not None:
                if self.verify_checks and got != self._grant_plan(st, kw, depth):
                    raise AssertionError(f"the grants of {kw} kept without their cards' objects")
                return got
        got = self._grant_plan(st, kw, depth)
        (st.ko if st.ko is not None else kept_by_cards(st))[kw] = got
        return got

    def _grant_plan(self, st, kw, depth) -> tuple:
        lists = st.g.grant_cards.get(kw)
        if lists is None:
            lists = st.g.grant_cards[kw] = self._grants_of(st, kw)
        plan: list | None = []
        may = False
        for statics in lists:
            if len(statics) > MANY:
                plan = None
            for sa in statics:
                if sa.origin == "global":  # the rules' own: no source
                    objs = None
                else:
                    kw_cards = sa.kw_cards
                    objs = cards_objects(
                        st, sa.card_set if kw_cards is None else kw_cards.get(kw, _NO_CARDS)
                    )
                    if not objs:
                        continue
                may = True
                if plan is not None:
                    plan.append((sa, objs))
        if not may:
            if depth < 4:
                may = any(
                    self.grant_plan(st, k, depth + 1)[0] for k, _ in self.implied_by.get(kw, ())
                )
            else:
                may = kw in self.implied_by
        return may, None if plan is None else tuple(plan)

    def granted_args(self, st, o, kw, depth=0):
        """The arguments with which `o` is granted `kw` (a list, maybe empty), or None. A
        keyword implied by a granted one (a line of its keyword block) is granted with it.
        With no statement's grant in force, the kept plan (`grant_plan`) answers at once when
        nothing may grant `kw`, and asks a keyword's grants of the sources in force directly."""
        if st.grants:
            args = self._granted(st, o, kw)
        else:
            ko = st.ko
            got = None if ko is None else ko.get(kw)
            if got is None or self.verify_checks:
                got = self.grant_plan(st, kw)
            if not got[0]:
                return None
            plan = got[1]
            args = self._granted(st, o, kw) if plan is None else _granted_by(st, o, kw, plan)
            if self.verify_checks and plan is not None and args != self._granted(st, o, kw):
                raise AssertionError(f"the grants of {kw} to {o} differ by the kept plan")
        if args is None and depth < 4:
            for k, implied_args in self.implied_by.get(kw, ()):
                if not st.grants and k not in self.grant_index and not self.grant_any:
                    continue  # k is granted by nothing now
                if self.granted_args(st, o, k, depth + 1) is not None:
                    return list(implied_args)
        return args

    def _granted(self, st, o, kw):
        if st.grants:
            for gr in reversed(st.grants):
                if gr[0] == o and gr[1] == kw:
                    return gr[4] if len(gr) > 4 else []
        lists = st.g.grant_cards.get(kw)  # (str keys: keywords; the other keys are tuples)
        if lists is None:
            lists = st.g.grant_cards[kw] = self._grants_of(st, kw)
        for statics in lists:
            if len(statics) > MANY:
                args = self._granted_by_present(st, o, kw, statics)
                if args is not None:
                    return args
                continue
            for sa in statics:
                args = sa.grants_to(st, o, kw)
                if args is not None:
                    return args
        return None

    def _grants_of(self, st, kw) -> tuple:
        """The continuous grants that may give `kw` in this game, in the order `_granted`
        asks them: those indexed by `kw`, then those that may give any keyword; a grant whose
        keyword and condition read only options and data (`fixed`) only if it gives `kw`."""
        return tuple(
            [sa for sa in statics if not sa.fixed or sa.fixed_grant(st, kw)]
            for statics in (self.grant_index.get(kw, ()), self.grant_any)
        )

    def _granted_by_present(self, st, o, kw, statics):
        """`granted_args` over many continuous grants (many cards loaded): one pass over the
        zones finds the cards present, and a card's grant is looked at only when it is."""
        kept = st.g.grant_cards
        cards = kept.get(id(statics))
        if cards is None:
            cards = kept[id(statics)] = frozenset(
                sa.card_index for sa in statics if sa.origin == "card"
            )
        present = self._present(st, cards)
        for sa in statics:
            if sa.origin == "card":
                srcs = present.get(sa.card_index)
                if not srcs:
                    continue
                args = sa.grants_to(st, o, kw, srcs)
            else:
                args = sa.grants_to(st, o, kw)
            if args is not None:
                return args
        return None

    def keyword_instances(self, st, o, kw) -> list:
        """Every instance of `kw` on `o`, as its arguments: the printed one, then each grant of a
        statement (oldest first), then each continuous grant. The rules read them all when
        "only the highest counts" (`keyword_values`)."""
        out = []
        printed = self.cards[st.obj_card[o]].keywords.get(kw)
        if printed is not None:
            out.append(printed)
        out.extend(gr[4] if len(gr) > 4 else [] for gr in st.grants if gr[0] == o and gr[1] == kw)
        for sa in (*self.grant_index.get(kw, ()), *self.grant_any):
            for src in sa.sources(st):
                env = sa.env_for(st, src)
                if sa.value(st, env) == kw and sa.hits(st, env, o):
                    out.append([a(st, env) for a in sa.args] if sa.args else [])
        return [carried(a, o) for a in out]

    def continuous_grants(self, st, o) -> list:
        """The keywords continuous `grant`s give `o` now, not printed on it: (keyword, args)
        pairs, for its last known information when it leaves (engine.renew)."""
        out = []
        printed = self.cards[st.obj_card[o]].keywords
        for sa in self.statics_grant:
            for src in sa.sources(st):
                env = sa.env_for(st, src)
                if sa.hits(st, env, o):
                    kw = sa.value(st, env)
                    if kw not in printed:
                        out.append((kw, [a(st, env) for a in sa.args] if sa.args else []))
        return out

    def granted_holders(self, st, kw, printed: frozenset) -> list:
        """Objects in active zones granted `kw` by a statement whose card does not print it:
        a granted keyword brings its continuous effects too."""
        out = []
        for gr in st.grants:
            o = gr[0]
            if gr[1] == kw and in_force(st, o) and st.obj_card[o] not in printed:
                if o not in out:
                    out.append(o)
        return out

    def index_statics(self) -> None:
        """Which cards carry each static ability, and which keywords each can grant: `has`
        then looks only at the abilities that could give the keyword asked about."""
        self.grant_index = {}
        self.grant_any = []
        for sa in self.statics_grant + [x for v in self.statics_prop.values() for x in v]:
            sa.kw_cards = None
            if sa.origin == "card":
                sa.card_set = frozenset([sa.card_index])
            elif sa.origin == "keyword":
                sa.card_set = frozenset(c.index for c in self.cards if sa.owner in c.keywords)
            else:
                sa.card_set = frozenset()
        self.static_cards = {
            name: frozenset().union(*(sa.card_set for sa in lst))
            for name, lst in self.statics_prop.items()
        }
        # their objects present are kept across other cards' moves (State.kp, `_present`)
        self.kp_cards = frozenset().union(*self.static_cards.values())
        self.kp_ids = {id(cs): cs for cs in self.static_cards.values()}
        # A card's own modifiers are looked up from the cards present, so that cards loaded but
        # never played cost nothing when a property is read.
        self.statics_by_card = {}
        self.statics_shared = {}
        for name, lst in self.statics_prop.items():
            by_card = self.statics_by_card[name] = {}
            for sa in lst:
                if sa.origin == "card":
                    by_card.setdefault(sa.card_index, []).append(sa)
            self.statics_shared[name] = [sa for sa in lst if sa.origin != "card"]
        # per property: its cards' modifiers as `_sum_by_card` runs them, and its build's keys
        self.card_sums = {
            name: {c: [_summed(sa) for sa in sas] for c, sas in by_card.items()}
            for name, by_card in self.statics_by_card.items()
        }
        self.sum_keys = {
            name: (("totals", name), ("summing", name), ("building", name))
            for name in self.statics_prop
        }
        for sa in self.statics_grant:
            kws = None
            if sa.origin == "keyword":
                try:
                    kws = {
                        c: sa.value(
                            None, dict(zip(sa.kw_params, self.cards[c].keywords.get(sa.owner, ())))
                        )
                        for c in sa.card_set
                    }
                except Exception:
                    kws = None
            if kws is None:
                self.grant_any.append(sa)
            else:
                by_kw: dict = {}
                for c, k in kws.items():
                    by_kw.setdefault(k, set()).add(c)
                sa.kw_cards = {k: frozenset(cs) for k, cs in by_kw.items()}
                for k in by_kw:
                    self.grant_index.setdefault(k, []).append(sa)

    def base_prop(self, st, o, name):
        """The value without modifiers: what `x.p += n` adds to."""
        k = self.prop_slots.get(name)
        if k is not None:  # a property the rules write: laid out by object (State.pv)
            return st.pv[k][o]
        d = st.props.get(name)
        if d is not None and o in d:
            return d[o]
        return self.cards[st.obj_card[o]].props.get(name)

    @staticmethod
    def _present(st, cards: frozenset) -> dict:
        """The objects in active zones whose card is one of `cards`, by card: one pass over
        the active zones serves every continuous modifier of a property. For the cards of a
        property's modifiers (`kp_ids`), kept until a zone is shuffled or an object removed
        (`State.kp`), written in place by the moves and makes of their objects where those are
        in force (engine.modifiers_moved), so that no move finds them again; for other cards,
        until a zone changes (`State.zone_kept`)."""
        prog = st.g.prog
        key = id(cards)
        if key not in prog.kp_ids:
            return st.zone_kept(("present", key), ContinuousEffects._find_present, cards)
        kp = st.kp
        if kp is None:
            kp = st.kp = (prog.kp_cards, {})
        v = kp[1].get(key)
        if v is None:
            v = kp[1][key] = ContinuousEffects._find_present(st, cards)
        elif prog.verify_checks and v != ContinuousEffects._find_present(st, cards):
            raise AssertionError("an object of a modifier's card moved without forgetting State.kp")
        return v

    @staticmethod
    def _find_present(st, cards: frozenset) -> dict:
        out: dict = {}
        obj_card = st.obj_card
        zones = st.zones
        card_zones = st.g.card_zones
        for z in st.g.active_zones:
            for x in zones[z]:
                c = obj_card[x]
                if c in cards and (card_zones is None or z in card_zones[c]):
                    lst = out.get(c)
                    if lst is None:
                        out[c] = [x]
                    else:
                        lst.append(x)
        return out

    def read_prop(self, st, o, name):
        cache = st.g.read_cache
        if cache is not None and name in self.modified_props:
            key = (o, name)
            v = cache.get(key, _MISSING)
            if v is _MISSING:
                v = cache[key] = self._read_prop(st, o, name)
            return v
        return self._read_prop(st, o, name)

    def prop_reader(self, name):
        """`read_prop(st, o, name)` for one property, as a function `(st, o)` the generated code
        calls. For a property in `kept_props` (Compiler.kept_statics), what the continuous
        modifiers give each object is kept in the state (`State.kt`, inputs.kept_totals) until
        a zone or something they read changes (each such write forgets it), within and between
        check points; for another, they are looked at only when one may be in force (a source
        present, or an effect of the rules or of a keyword), so that a read is one call when
        none is."""
        prog = self
        k = self.prop_slots.get(name) if self.prop_slots is not None else None
        cards = self.cards
        printed = self.card_values(name) if k is None else None
        present_of = ContinuousEffects._present
        general = self._read_prop
        statics_on = self._statics_on
        found = self._kept_found

        def base(st, o):
            if k is not None:
                return st.pv[k][o]
            d = st.props.get(name)
            return d[o] if d is not None and o in d else cards[st.obj_card[o]].props.get(name)

        def kept_read(st, o):
            kt = st.kt
            if kt is None:
                kt = kept_totals(st)
            sums = kt[1].get(name)  # every object's, found at once
            if sums is None:
                sums = found(st, name, kt[1])
                got = statics_on(st, o, name) if sums is None else sums.get(o)
            else:
                got = sums.get(o)
            if got is None:  # no continuous modifier hits it: its base value (the hottest path)
                if k is not None:  # (the base read written out)
                    v = st.pv[k][o]
                elif name not in st.props:  # (nothing wrote it: its card's, as codegen reads it)
                    v = printed[st.obj_card[o]]
                else:
                    d = st.props[name]
                    v = d[o] if o in d else cards[st.obj_card[o]].props.get(name)
                return _with_mods(st, o, name, v, False, 0) if st.mods else v
            setv, added, total = got
            v = base(st, o) if setv is _MISSING else setv  # (set by one: its base not read)
            if st.mods:
                return _with_mods(st, o, name, v, added, total)
            return v + total if added else v

        def read(st, o):
            cache = st.g.read_cache
            if cache is not None:  # one state read many times: as read_prop
                key = (o, name)
                v = cache.get(key, _MISSING)
                if v is _MISSING:
                    v = cache[key] = general(st, o, name)
                return v
            if prog.statics_prop.get(name):  # (filled by index_statics, after the compile)
                if prog.statics_shared[name]:
                    return general(st, o, name)
                cs = prog.static_cards[name]
                kp = st.kp
                present = None if kp is None else kp[1].get(id(cs))
                if present is None:
                    present = present_of(st, cs)
                if present:
                    return general(st, o, name)
            v = base(st, o)
            return _with_mods(st, o, name, v, False, 0) if st.mods else v

        fast = kept_read if name in self.kept_props else read
        if not self.verify_checks:
            return fast

        def verified(st, o):  # the tests: the same value as the general way
            v = fast(st, o)
            if v != prog.read_prop(st, o, name):
                raise AssertionError(f"the compiled read of {name} differs")
            return v

        return verified

    def _kept_found(self, st, name, m) -> dict | None:
        """Every object's totals of the continuous modifiers of kept property `name` found and
        kept in `m` (the kept totals' map, `State.kt`); None while they are being found (an
        amount reads the same property)."""
        g = st.g
        cache = g.read_cache
        if cache is None:  # (nothing changes while one value is read)
            g.read_cache = cache = {}
            try:  # (a fresh cache holds no totals: the cards' own are added up at once)
                if self.statics_shared[name]:
                    sums = self._statics_totals(st, name, cache)
                else:
                    sums = self._sum_by_card(st, name, cache)
            finally:
                g.read_cache = None
        else:
            sums = self._statics_totals(st, name, cache)
        if sums is not None:
            m[name] = sums
        return sums

    def kept_sums(self, st, name: str):
        """The kept totals of property `name` (found if they are not), as a kept check reads
        them (inputs.reader: `kt:P`): a check found false stays false while they, and the rest
        it reads, are equal, even after the totals were forgotten and found again. When they
        cannot be found now, a new object, equal to no other."""
        kt = st.kt
        if kt is None:
            kt = kept_totals(st)
        sums = kt[1].get(name)
        if sums is None:
            sums = self._kept_found(st, name, kt[1])
        return object() if sums is None else sums

    def _read_prop(self, st, o, name):
        k = self.prop_slots.get(name)
        if k is not None:  # a property the rules write: laid out by object (State.pv)
            v = st.pv[k][o]
        else:
            d = st.props.get(name)
            v = d[o] if d is not None and o in d else self.cards[st.obj_card[o]].props.get(name)
        if name not in self.modified_props:
            return v
        # Layers: "becomes" (set) effects first, continuous ones and then the statements' in
        # timestamp order, the latest winning; then every "by" (add) effect.
        added, total = False, 0
        if self.statics_prop.get(name):
            cache = st.g.read_cache
            # one state read many times (the checks): what the continuous modifiers give each
            # object they hit, found once; None while it is being found (`_statics_totals`)
            sums = None if cache is None else self._statics_totals(st, name, cache)
            if sums is None:
                setv, added, total = self._statics_on(st, o, name)
            else:
                setv, added, total = sums.get(o, _NONE)
                if self.verify_checks and (setv, added, total) != self._statics_on(st, o, name):
                    raise AssertionError(f"the continuous modifiers of {name} found once differ")
            if setv is not _MISSING:
                v = setv
        return _with_mods(st, o, name, v, added, total)

    def _statics_on(self, st, o, name) -> tuple:
        """The continuous modifiers of property `name` in force on `o`: (the latest set value
        or _MISSING, whether any adds, their sum), computed under the guard against a value
        that depends on itself."""
        key = (o, name)
        reading = st.g.reading
        if key in reading:
            reading.clear()
            raise RulesError(
                f"the value of {self.cards[st.obj_card[o]].name}.{name} depends on "
                f"itself through a continuous 'modify ... {name}'"
            )
        reading.add(key)
        setv, added, total = _MISSING, False, 0
        # The two loops below share their body on purpose: this is the hottest read of the
        # engine, and a generator or a list of (ability, sources) pairs over them measured
        # slower on the random playouts of a card game with state checks.
        try:
            cache = st.g.read_cache
            if cache is None:
                present = self._present(st, self.static_cards[name])  # index_statics
            else:  # one state read many times (the checks): each effect's targets found once
                found = self._statics_map(st, name, cache)
                if found is not None:
                    return _add_up(st, found.get(o, ()), cache)
                present = self._present(st, self.static_cards[name])
            for sa in self.statics_shared[name]:
                if sa.origin == "global":
                    srcs = (None,)
                else:
                    cs = sa.card_set
                    srcs = [x for c, xs in present.items() if c in cs for x in xs]
                    if sa.origin == "keyword" and st.grants:
                        srcs += self.granted_holders(st, sa.owner, cs)
                for src in srcs:
                    env = sa.env_for(st, src)
                    if sa.hits(st, env, o):
                        if sa.op == "set":
                            setv = sa.value(st, env)
                        else:
                            added = True
                            total += sa.value(st, env)
            by_card = self.statics_by_card[name]
            for c, srcs in present.items():
                for sa in by_card.get(c, ()):
                    for src in srcs:
                        env = sa.env_for(st, src)
                        if sa.hits(st, env, o):
                            if sa.op == "set":
                                setv = sa.value(st, env)
                            else:
                                added = True
                                total += sa.value(st, env)
        finally:
            reading.discard(key)
        return setv, added, total

    def _statics_totals(self, st, name, cache) -> dict | None:
        """While the state cannot change (`read_cache`): for each object that continuous
        modifiers of `name` hit, what `_statics_on` gives it (the latest set value or _MISSING,
        whether any adds, their sum), each amount computed once; None while the map or these
        are being found (an amount reads the same property: `_statics_on` then computes it,
        under its guard against a value that depends on itself)."""
        key = ("totals", name)
        sums = cache.get(key)
        if sums is not None or ("summing", name) in cache:
            return sums
        if not self.statics_shared[name] and ("statics", name) not in cache:
            return self._sum_by_card(st, name, cache)
        found = self._statics_map(st, name, cache)
        if found is None:
            return None
        cache[("summing", name)] = True
        try:
            sums = cache[key] = {o: _add_up(st, hits, cache) for o, hits in found.items()}
        finally:
            del cache[("summing", name)]
        return sums

    def _sum_by_card(self, st, name, cache) -> dict | None:
        """`_statics_totals` when every continuous modifier of `name` is a card's (no rules'
        or keywords' own): the totals added up as the effects are met, in `_statics_on`'s
        order, without the map of hits; each target and amount found once. The modifiers are
        read from `card_sums` (their functions unpacked once per program) and a source's
        environment is made in place: this runs at each first read after the kept totals
        were forgotten (docs/speed.md)."""
        totals, summing, building = self.sum_keys[name]
        if building in cache:
            return None
        present = self._present(st, self.static_cards[name])
        by_card = self.card_sums[name]
        owner = st.obj_owner
        sums: dict = {}
        cache[building] = cache[summing] = True
        try:
            for c, srcs in present.items():
                for cond, target, value, is_set, sa in by_card.get(c, ()):
                    for src in srcs:
                        env = (
                            {"this": src, "you": owner[src]} if sa is None else sa.env_for(st, src)
                        )
                        if cond is not None and not cond(st, env):
                            continue
                        t = target(st, env)
                        if t is False:
                            continue
                        if not isinstance(t, list):
                            objs = (t,)
                        elif len(t) > 1:
                            objs = dict.fromkeys(t)
                        elif t:
                            objs = t
                        else:
                            continue
                        v = value(st, env)
                        if is_set:
                            for o in objs:
                                got = sums.get(o)
                                sums[o] = (v, False, 0) if got is None else (v, got[1], got[2])
                        else:
                            for o in objs:
                                got = sums.get(o)
                                sums[o] = (
                                    (_MISSING, True, v)
                                    if got is None
                                    else (got[0], True, got[2] + v)
                                )
        finally:
            del cache[building], cache[summing]
        cache[totals] = sums
        return sums

    def _statics_map(self, st, name, cache) -> dict | None:
        """While the state cannot change (`read_cache`): for each object, the continuous
        modifiers of `name` that hit it as (ability, source, environment), in the order
        `_statics_on` meets them; None while it is being built (an effect's target reads the
        same property: the direct way then finds what depends on itself)."""
        key = ("statics", name)
        found = cache.get(key)
        if found is not None or ("building", name) in cache:
            return found
        cache[("building", name)] = True
        try:
            present = self._present(st, self.static_cards[name])
            found = {}
            pairs = []
            for sa in self.statics_shared[name]:
                if sa.origin == "global":
                    pairs.append((sa, (None,)))
                else:
                    cs = sa.card_set
                    srcs = [x for c, xs in present.items() if c in cs for x in xs]
                    if sa.origin == "keyword" and st.grants:
                        srcs += self.granted_holders(st, sa.owner, cs)
                    pairs.append((sa, srcs))
            by_card = self.statics_by_card[name]
            for c, srcs in present.items():
                pairs.extend((sa, srcs) for sa in by_card.get(c, ()))
            for sa, srcs in pairs:
                for src in srcs:
                    env = sa.env_for(st, src)
                    tkey = (sa.id, src)
                    t = cache.get(tkey, _MISSING)
                    if t is _MISSING:  # as `hits` computes it
                        t = cache[tkey] = (
                            False
                            if sa.cond is not None and not sa.cond(st, env)
                            else sa.target(st, env)
                        )
                    if t is False:
                        continue
                    for o in dict.fromkeys(t) if isinstance(t, list) else (t,):
                        found.setdefault(o, []).append((sa, src, env))
            cache[key] = found
        finally:
            del cache[("building", name)]
        return found


def _summed(sa) -> tuple:
    """A card's modifier as `_sum_by_card` runs it: (condition, target, amount, whether it
    sets, the ability when its environment needs `env_for` (keyword parameters) else None)."""
    return sa.cond, sa.target, sa.value, sa.op == "set", sa if sa.kw_params else None


def _add_up(st, hits, cache) -> tuple:
    """What the continuous modifiers `hits` (effect, source, env) give one object: the latest
    set value or _MISSING, whether any adds, their sum; each amount computed once per state
    read (`read_cache`)."""
    setv, added, total = _MISSING, False, 0
    for sa, src, env in hits:
        vkey = ("value", sa.id, src)
        v = cache.get(vkey, _MISSING)
        if v is _MISSING:
            v = cache[vkey] = sa.value(st, env)
        if sa.op == "set":
            setv = v
        else:
            added = True
            total += v
    return setv, added, total
