"""What each state check reads and what each statement writes, so that checks run only when
something they read may have changed.

State checks must hold after every atomic action; evaluating all of them after every statement
that changes the game was most of the work of rulesets that have them. Here each check gets a
set of read tokens (found in its condition, the definitions it calls and every continuous effect
that could change a property or keyword it reads) and each statement a set of write tokens. A
statement then marks dirty only the checks whose reads it may touch (`Program.check_bits`), and
the run loop evaluates only dirty checks (engine.run_checks).

Tokens: `prop:P`, `mods:P` (modifiers of P), `counter:C`, `grants`, `owner`, `scope` (active
player, turn, round, order), `lost`, and `*` for anything. Whatever this module does not
understand reads or writes `*`: a check is never skipped because of an unknown construct.
"""

from __future__ import annotations

from ..language import nodes as n
from ..language import resolved as rv
from ..language.symbols import AREA, BOOL, CONDITION, KEYWORD, KIND, NUMBER, PLAYER, TEXT

ANY = "*"
ALL_CHECKS = -1  # every bit set: the mask of a statement that may change anything
# What the end of a frame that starts blocks may write (`Depends.end_writes`): the `once per`
# records of what it starts (a question there forgets the last known information: `ask` marks
# those checks, `Program.lki_checks`)
STARTS_BLOCKS = frozenset({"used"})

# Builtins whose value depends only on their arguments (a zone argument is read as its contents:
# zones are part of every check's reads, see `check_reads`).
PURE_BUILTINS = {
    "count", "sum", "max", "min", "first", "last", "nth", "reversed", "range", "index_of",
    "take", "drop", "contents", "flatten", "card_name", "exists", "abs", "any", "all",
    "adjacent", "area", "sorted_by", "unique", "ceil_div", "zone_area", "fail", "objects",
    "position", "behind", "ahead", "neighbours", "zone_of", "from_zone",
}  # fmt: skip
BUILTIN_READS = {
    "owner": {"owner"},
    "opponents": {"lost"},
    "next_player": {"lost", "scope"},
    "keyword_arg": {"grants", "lki"},
    "keyword_values": {"grants", "lki"},
}
NAME_READS = {
    "players": {"lost"},
    "active": {"scope"},
    "first_player": {"scope"},
    "turn_direction": {"scope"},
    "turn_number": {"scope"},
    "resolving": {"effect"},  # true from an effect's start to its end (engine.effect_ended)
    "round_number": {"scope"},
}
PURE_NAMES = {"player_count", "areas", "option", "data"}
# Expressions that read nothing themselves (what is inside them is read on its own)
PURE_NODES = (n.Num, n.Str, n.Const, n.Special, n.ListExpr, n.BinOp, n.BoolOp, n.Not, n.Neg,
              n.IfExpr, n.Where, n.Index, n.Contains, n.IsKind)  # fmt: skip


def rule_roots(syms):
    """Every syntax tree of the rules that holds statements: verb bodies, abilities (of the
    rules, keywords and cards), `setup` and `flow`."""
    yield from (v.decl.body for v in syms.unique(syms.verbs))
    yield from (ab.decl for ab in syms.abilities)
    yield from syms.setup
    yield from syms.flow


class Depends:
    """The read and write tokens of a checked ruleset's expressions and statements."""

    def __init__(self, syms, res, modified: set):
        """`modified`: the properties something may modify (Compiler.modified_names)."""
        self.s, self.r = syms, res
        canon = syms.canonical
        self._modified = set(modified) | {canon.get(p, p) for p in modified}
        self._define_reads: dict[str, set] = {}
        self._static_reads: set | None = None
        self.kept: frozenset | None = None  # (kept_check)
        self.static_reads()  # first: the definitions' reads depend on it

    # ------------------------------------------------------------ reads
    def reads(self, e) -> set:
        """The tokens an expression (and everything it calls) may read."""
        out: set = set()
        if e is None:
            return out
        r = self.r
        for x in e.walk():
            match x:
                case _ if isinstance(x, PURE_NODES):
                    pass
                case n.Name():
                    res = r.name_of(x)
                    if isinstance(
                        res, rv.LocalRef | rv.ZoneRef | rv.KeywordRef | rv.KindRef | rv.CardRef
                    ):
                        pass
                    elif isinstance(res, rv.DefineRef):
                        out |= self.define_reads(res.name)
                    elif isinstance(res, rv.CounterRef):
                        out.add("counter:" + res.name)
                    elif isinstance(res, rv.ItPropRef):
                        out |= self.prop_reads(res.name)
                    elif isinstance(res, rv.BuiltinRef) and res.name in NAME_READS:
                        out |= NAME_READS[res.name]
                    elif not (isinstance(res, rv.BuiltinRef) and res.name in PURE_NAMES):
                        out.add(ANY)
                case n.Attr():
                    out |= self.attr_reads(x)
                case n.Call():
                    res = r.call_of(x)
                    if res is None:
                        out.add(ANY)
                    elif isinstance(res, rv.DefineRef):
                        out |= self.define_reads(res.name)
                    elif res.name in BUILTIN_READS:
                        out |= BUILTIN_READS[res.name] | self.static_reads()
                    elif res.name == "matches":
                        out |= self.condition_reads()
                    elif res.name not in PURE_BUILTINS:
                        out.add(ANY)  # random, roll, shuffled, matches, ...
                case n.Has():
                    out |= {"grants"} | self.static_reads()
                case n.Expr():
                    out.add(ANY)  # an expression this module does not know
                case _:
                    pass  # a statement or declaration holding expressions (a static ability)
            if ANY in out:
                return {ANY}
        return out

    def fixed(self, e) -> bool:
        """Whether an expression has one value for a whole game: it reads no state and no
        local name (only options, data, literals), so the run time computes it once per game."""
        if e is None:
            return True
        if self.reads(e):
            return False
        for x in e.walk():
            if isinstance(x, n.Name):
                res = self.r.name_of(x)
                if res is None or isinstance(res, rv.LocalRef | rv.ItPropRef):
                    return False
            elif isinstance(x, n.Special):
                return False  # it, this, you, ...
        return True

    def attr_reads(self, x: n.Attr) -> set:
        res = self.r.attr_of(x)
        name = res.name if res is not None else ""
        if isinstance(res, rv.ObjProp):
            return self.prop_reads(name)
        if isinstance(res, rv.PlayerCounter | rv.AreaCounter):
            return {"counter:" + name}
        if isinstance(res, rv.ObjBuiltin):
            return {"owner"} if name == "owner" else set()  # zone, position: zones; name, kind
        if isinstance(
            res, rv.OptionAttr | rv.PlayerZone | rv.AreaZone | rv.AreaFact | rv.PlayerBuiltin
        ):
            return set()
        if isinstance(res, rv.ZoneBuiltin | rv.KeyAttr):
            return set()
        return {ANY}

    def prop_reads(self, name: str) -> set:
        """A property's value: its base, and when something may modify it, the modifiers of
        statements and every continuous effect (whose conditions and amounts read more); with
        `kept` (`kept_check`), those effects as `kept:P` (their totals kept, State.kt)."""
        out = {"prop:" + name}
        if name in self.modified() and self.kept is not None:
            return out | {"mods:" + name, "kept:" + name}
        if name in self.modified():
            out |= {"mods:" + name, "grants", "owner"} | self.static_reads()
        return out

    def define_reads(self, name: str) -> set:
        got = self._define_reads.get(name)
        if got is None:
            self._define_reads[name] = {ANY}  # a definition that reads itself: assume anything
            d = self.s.defines.get(name)
            got = self.reads(d.decl.body) if d is not None else {ANY}
            self._define_reads[name] = got
        return got

    def static_reads(self) -> set:
        """What continuous effects read: their conditions, targets and amounts, the objects
        present (zones), keywords held (grants) and the modifiers of statements. An effect's
        amount may read a property another effect modifies, so the set grows to a fixed point
        (the definitions' reads found on the way are forgotten until it is reached)."""
        if self._static_reads is None:
            statics = [ab.decl for ab in self.s.abilities if isinstance(ab.decl, n.Static)]
            cur = {"grants", "owner", "lki"}
            while True:
                self._static_reads = cur
                self._define_reads.clear()
                new = set(cur)
                for d in statics:
                    new |= self.reads(d)
                if new == cur:
                    break
                cur = new
        return self._static_reads

    def condition_args(self, keyword: str | None = None):
        """The expressions `matches(x, cond)` may test: every condition argument of a keyword
        on a card (of `keyword` only, when given), and every argument of a `grant K[...]`
        statement."""
        s = self.s
        for card in s.cards.values():
            for item in card.text.items if card.text is not None else ():
                if isinstance(item, n.KeywordUse) and (
                    keyword is None or s.canonical.get(item.name, item.name) == keyword
                ):
                    kw = s.keywords.get(item.name)
                    params = kw.params if kw is not None else ()
                    yield from (a for a, q in zip(item.args, params) if q.type == CONDITION)
        for root in rule_roots(s):
            for x in root.walk():
                if isinstance(x, n.Grant):
                    yield from x.args

    def condition_reads(self) -> set:
        """What `matches(x, cond)` may read: any condition argument of a keyword, on a card or
        in a `grant K[...]` statement."""
        got = getattr(self, "_condition_reads", None)
        if got is None:
            self._condition_reads = {ANY}  # a condition that matches itself: anything
            got = {"grants", "lki"}
            for a in self.condition_args():
                got |= self.reads(a)
            self._condition_reads = {ANY} if ANY in got else got
        return self._condition_reads

    def modified(self) -> set:
        return self._modified

    def check_reads(self, chk) -> set:
        """A check's reads: its domain and condition; zones always (its domain and what it reads
        of objects depend on where they are)."""
        return {"zones"} | self.reads(chk.over) | self.reads(chk.cond)

    def mark_reads(self, chk, active: set[str]) -> set:
        """A check's reads as the statements' masks compare them (`check_mask`): its zones
        by name (`zone:Z`) when they are known (`check_zones`; `@active`: the zones in
        `active`), else every zone (`zones`)."""
        reads = self.check_reads(chk)
        zones = self.check_zones(chk)
        if zones is None:
            return reads
        named = (zones - {"@active"}) | (active if "@active" in zones else set())
        return (reads - {"zones"}) | {"zone:" + z for z in named}

    def zone_named(self, e) -> str | None:
        """The zone an expression names (`Z`, `p.Z`, `a.Z`), canonical; None when
        the zone is computed."""
        res = None
        if isinstance(e, n.Name):
            res = self.r.name_of(e)
            res = res if isinstance(res, rv.ZoneRef) else None
        elif isinstance(e, n.Attr):
            res = self.r.attr_of(e)
            res = res if isinstance(res, rv.PlayerZone | rv.AreaZone) else None
        return None if res is None else self.s.canonical.get(res.name, res.name)

    def source_zone(self, what) -> str | None:
        """The zone named that the objects `what` gives are taken from (`first(p.deck)`,
        `nth(Z, i)`, `contents(Z)`); None when they may come from anywhere."""
        if isinstance(what, n.Call) and what.args:
            res = self.r.call_of(what)
            if isinstance(res, rv.BuiltinRef) and res.name in ("first", "last", "nth", "contents"):
                return self.zone_named(what.args[0])
        return None

    # ------------------------------------------------------------ zones read
    def zone_reads(self, e) -> set | None:
        """The zones an expression (and what it calls) may read the contents of, by name;
        `@active` for the active zones (where continuous effects' sources are), `@objzone` when
        it reads an object's zone or position. None when a zone may come from elsewhere (a
        zone an object came from, `zone_of`)."""
        out: set = set()
        if e is None:
            return out
        r, canon = self.r, self.s.canonical
        for x in e.walk():
            got: set | None = None
            match x:
                case n.Name():
                    res = r.name_of(x)
                    if isinstance(res, rv.ZoneRef):
                        out.add(canon.get(res.name, res.name))
                    elif isinstance(res, rv.DefineRef):
                        got = self.define_zones(res.name)
                        if got is None:
                            return None
                    elif isinstance(res, rv.ItPropRef):
                        got = self.prop_zones(res.name)
                case n.Attr():
                    res = r.attr_of(x)
                    if isinstance(res, rv.PlayerZone | rv.AreaZone):
                        out.add(canon.get(res.name, res.name))
                    elif isinstance(res, rv.ObjProp):
                        got = self.prop_zones(res.name)
                    elif isinstance(res, rv.ObjBuiltin) and res.name in ("zone", "position"):
                        out.add("@objzone")
                case n.Call():
                    res = r.call_of(x)
                    if isinstance(res, rv.DefineRef):
                        got = self.define_zones(res.name)
                        if got is None:
                            return None
                    elif res is None or res.name in ("zone_of", "from_zone"):
                        return None
                    elif res.name == "position":
                        out.add("@objzone")
                    elif res.name in ("keyword_arg", "keyword_values"):
                        got = self.static_zones()
                    elif res.name == "matches":
                        got = self.condition_zones(self.matched_keyword(x))
                        if got is None:
                            return None
                case n.Has():
                    got = self.static_zones()
            if got:
                out |= got
        return out

    def prop_zones(self, name: str) -> set:
        if name in self.modified() and self.kept is not None and name in self.kept:
            return set()  # (the zones of kept totals: State.kt's own bits)
        return self.static_zones() if name in self.modified() else set()

    def kept_check(self, chk, kept: frozenset) -> tuple[frozenset, frozenset | None] | None:
        """A check's reads and zones (`check_reads`, `check_zones`) when the continuous
        effects on the properties `kept` are read as their kept totals (token `kt`: the
        state's `kt`, forgotten when anything those effects read changes, zones included),
        and `kt:P` for each such property P read (its totals compared, not their making);
        None when it reads a modified property not among them."""
        saved = self._define_reads, self.__dict__.get("_define_zones")
        self.kept, self._define_reads, self.__dict__["_define_zones"] = kept, {}, {}
        try:
            reads = self.check_reads(chk)
            zones = self.check_zones(chk)
        finally:
            self.kept, self._define_reads = None, saved[0]
            self.__dict__["_define_zones"] = saved[1] if saved[1] is not None else {}
        props = {t[5:] for t in reads if t.startswith("kept:")}
        if not props <= kept:
            return None
        kt = {"kt"} | {"kt:" + p for p in props}  # (the totals of each: inputs.reader)
        return frozenset({t for t in reads if not t.startswith("kept:")} | kt), zones

    def define_zones(self, name: str) -> set | None:
        memo = self.__dict__.setdefault("_define_zones", {})
        if name in memo:
            return memo[name]
        memo[name] = None  # a definition that reads itself: any zone
        d = self.s.defines.get(name)
        got = memo[name] = self.zone_reads(d.decl.body) if d is not None else None
        return got

    def static_zones(self) -> set:
        """The zones continuous effects read: the active zones (their sources) and those their
        conditions, targets and amounts read (to a fixed point, as `static_reads`); `@any`
        when one of them reads a zone by other ways."""
        got = self.__dict__.get("_static_zones")
        if got is None:
            statics = [ab.decl for ab in self.s.abilities if isinstance(ab.decl, n.Static)]
            got = self._static_zones = {"@active"}
            while True:
                self.__dict__["_define_zones"] = {}
                new = set(got)
                for d in statics:
                    z = self.zone_reads(d)
                    new |= {"@any"} if z is None else z
                if new == got:
                    break
                got = self._static_zones = new
            self.__dict__["_define_zones"] = {}
        return got

    def matched_keyword(self, call: n.Call) -> str | None:
        """The keyword of `matches(x, keyword_arg(y, K...))`: its conditions are K's arguments
        (printed, or granted), not any keyword's (an implied keyword's are constants). None:
        any condition."""
        if len(call.args) < 2 or not isinstance(call.args[1], n.Call):
            return None
        inner = call.args[1]
        if self.r.call_of(inner) != rv.BuiltinRef("keyword_arg") or len(inner.args) < 2:
            return None
        kw = self.r.name_of(inner.args[1]) if isinstance(inner.args[1], n.Name) else None
        if not isinstance(kw, rv.KeywordRef):
            return None
        return self.s.canonical.get(kw.name, kw.name)

    def condition_zones(self, keyword: str | None = None) -> set | None:
        """The zones `matches(x, cond)` may read: those of any condition argument (of
        `keyword`'s, when given: `matched_keyword`)."""
        got: set = set(self.static_zones())
        for a in self.condition_args(keyword):
            z = self.zone_reads(a)
            if z is None:
                return None
            got |= z
        return got

    def check_zones(self, chk) -> frozenset | None:
        """The zones a check reads, by name (`@active`: the active zones), when they are known:
        its domain and condition name them, and an object whose zone or position it reads is
        one found in them (it reads no field that may hold an object or a zone). None: any."""
        a, b = self.zone_reads(chk.over), self.zone_reads(chk.cond)
        if a is None or b is None or "@any" in a | b:
            return None
        out = a | b
        if "@objzone" in out:
            out.discard("@objzone")
            for t in self.check_reads(chk):
                kind, _, name = t.partition(":")
                f = self.s.fields.get(name) if kind == "prop" else None
                if kind == "prop" and (f is None or not _plain(f.type)):
                    return None
        return frozenset(out)

    # ------------------------------------------------------------ writes
    def writes(self, s) -> set:
        """The tokens a statement's own step may change (not those of the blocks it starts:
        their statements are steps of their own)."""
        match s:
            case n.Let() | n.Log() | n.Pass() | n.CallStmt() | n.Emit() | n.Hold() | n.Window():
                return set()  # locals, or a frame pushed (its owner's end marks all, engine)
            case n.If() | n.For() | n.Repeat() | n.While():
                return set()  # the test and the loop state are local
            case n.Assign():
                return self.assign_writes(s)
            case n.Modify():
                canon = self.s.canonical
                return {"mods:" + s.prop, "mods:" + canon.get(s.prop, s.prop)}
            case n.Grant():
                return {"grants"}
            case n.Expire():
                return {"mods:*", "grants"}
            case n.Scope():
                return {"scope"}
            case n.Choose() | n.Order():
                return {"lki"}  # a decision forgets the last known information
            case n.Create() | n.Shuffle():
                # a new object, or a new order, in a zone named here: only what reads that
                # zone may change (`mark_reads`); the new object's owner and card are read
                # through the zone it is in
                z = self.zone_named(s.zone)
                return {"zones", "owner"} if z is None else {"zone:" + z}
            case n.Remove():
                return {"zones", "owner"}
            case n.Move():
                # the zone its objects go to and those they come from, when named here, else
                # `zone:@moved`: a zone not named, which meets the reads of every zone
                # (`_zones_meet`); the checks that read a zone by name are marked when objects
                # leave it or come into it (engine.move_object: `Game.zone_checks`, the
                # checks' `marked_zones`). An object arriving in a `new objects` zone forgets
                # its fields, its modifiers and grants.
                src, dest = self.source_zone(s.what), self.zone_named(s.zone)
                out = {"zone:" + (dest or "@moved")} | ({"zone:" + src} if src else set())
                renews = self.s.zones[dest].renews if dest is not None else self.renewing()
                if not renews:
                    return out
                return out | {"lki", "prop:*", "mods:*", "grants", "used"}
            case n.Win() | n.Lose() | n.DrawGame():
                return {"lost"}
            case n.Reveal():
                return {"shown"}
            case n.Require() | n.Return() | n.Break():
                # frames left (no owner's end runs: engine.unwind): triggers held there start,
                # as at a `hold:` block's end; an effect's block left marks its own checks
                return set(STARTS_BLOCKS)
            case n.End():
                return {"used", "lost"}  # frames left; triggers held there start; end game
        return {ANY}

    def renewing(self) -> bool:
        """Whether some zone is declared `new objects` (a move to a zone not named may renew)."""
        return any(z.renews for z in self.s.zones.values())

    def end_writes(self, s) -> set | None:
        """The tokens the end of the frame a statement owns may change (`Stmt.END_DIRTY`: the
        run loop's step that calls its `at_end`), None when it owns no frame. A scope's end
        drops the `once per` records of its period, and the modifiers and grants (marked there
        when it drops one: `Program.expire_checks`), and restores the phase, which no
        expression reads; the ends of an event's stages, a window's turn and a `hold:` block start blocks
        (triggers, the body, an action: `once per` records, frames) or ask. What a question
        forgets (`lki`) and an effect's start (`resolving`) are marked where they happen
        (engine.ask, the pushes of effects' frames)."""
        match s:
            case n.Scope():
                return {"used"}
            case n.Hold() | n.Window() | n.CallStmt() | n.Emit():
                return set(STARTS_BLOCKS)
        return None

    def assign_writes(self, s: n.Assign) -> set:
        t = s.target
        if isinstance(t, n.Name):
            res = self.r.name_of(t) or rv.LocalRef(t.name)
            if isinstance(res, rv.LocalRef):
                return set()
            if isinstance(res, rv.CounterRef):
                return {"counter:" + res.name}
            if isinstance(res, rv.GameRef):
                return {"scope"}
            return {ANY}
        res = self.r.attr_of(t)
        if isinstance(res, rv.ObjProp):
            return {"prop:" + res.name}
        if isinstance(res, rv.PlayerCounter | rv.AreaCounter):
            return {"counter:" + res.name}
        if res == rv.ObjBuiltin("owner"):
            return {"owner"}
        return {ANY}


_PLAIN = {NUMBER, TEXT, BOOL, PLAYER, KEYWORD, KIND, AREA}


def _plain(t) -> bool:
    """Whether values of type `t` hold no object and no zone."""
    return t in _PLAIN or (isinstance(t, tuple) and t[1] in _PLAIN)


def overlaps(writes: set, reads: set) -> bool:
    """Whether a write may change what is read (`*` on either side; `P:*` stands for every
    token `P:...`)."""
    if ANY in writes or ANY in reads:
        return True
    if writes & reads:
        return True
    for a, b in ((writes, reads), (reads, writes)):
        for t in a:
            if t.endswith(":*") and any(x.startswith(t[:-1]) for x in b):
                return True
    return False


def check_mask(writes: set, check_reads: list[set]) -> int:
    """The bits of the checks a statement with these writes may make true or false."""
    if ANY in writes:
        return ALL_CHECKS
    mask = 0
    one_zone = any(t.startswith("zone:") for t in writes)
    for i, reads in enumerate(check_reads):
        if overlaps(writes, reads) or _zones_meet(writes, one_zone, reads):
            mask |= 1 << i
    return mask


def marked_zones(marks: set) -> frozenset:
    """The zones by name of a check's marks (`Depends.mark_reads`): a move marks the checks of
    the zones its objects leave and enter when they move (engine.move_object), since a `move`
    statement may not name them (a verb's parameter, a zone computed: `Depends.writes`)."""
    return frozenset(t[5:] for t in marks if t.startswith("zone:"))


def _zones_meet(writes: set, one_zone: bool, reads: set) -> bool:
    """A write of a zone named (`zone:Z`) meets a read of every zone (`zones`), and a write
    of any zone a read of one named."""
    if one_zone and "zones" in reads:
        return True
    return "zones" in writes and any(t.startswith("zone:") for t in reads)


# Built-ins that reach zones or objects by other ways than a zone named in the expression
ZONE_BUILTINS = {"objects", "zone_of", "from_zone", "area", "zone_area", "contents", "position"}


def domain_counters(deps: Depends, e) -> tuple[str, ...] | None:
    """The counters a parameter's domain reads, when it reads no other state: its value is then
    fixed by the names bound before it, `you` and those counters' values, and is kept per game
    under them (`b: area from near(you, a)`, computed from the map alone). None otherwise."""
    if e is None or isinstance(e, n.Name | n.Attr):
        return None  # a name or a zone: nothing to compute
    reads = deps.reads(e)
    if any(not t.startswith("counter:") for t in reads):
        return None
    if not _stateless(deps, e, set()):
        return None
    return tuple(sorted(t[8:] for t in reads))


def _stateless(deps: Depends, e, seen: set) -> bool:
    """Whether `e` and the definitions it calls read no zone, no object and no source (`this`):
    `reads` leaves zones out (they are part of every check's reads), so they are refused here."""
    r = deps.r
    for x in e.walk():
        if isinstance(x, n.Special) and x.which not in ("you", "it"):
            return False
        if isinstance(x, n.Attr):
            res = r.attr_of(x)
            if res is None or isinstance(
                res, rv.AreaZone | rv.PlayerZone | rv.ZoneBuiltin | rv.ObjBuiltin | rv.ObjProp
            ):
                return False
        elif isinstance(x, n.Call | n.Name):
            res = r.call_of(x) if isinstance(x, n.Call) else r.name_of(x)
            if res is None or isinstance(res, rv.ZoneRef):
                return False
            if getattr(res, "name", None) in ZONE_BUILTINS:
                return False
            if isinstance(res, rv.DefineRef) and res.name not in seen:
                seen.add(res.name)
                d = deps.s.defines.get(res.name)
                if d is None or not _stateless(deps, d.decl.body, seen):
                    return False
    return True


# What a value kept by `fixed_reads` may read besides counters: the players out (`lost`) and
# the turn order (`scope`); the built-ins that read only those.
FIXED_READS = frozenset({"lost", "scope"})
_ORDER_BUILTINS = {"opponents": {"lost"}, "next_player": {"lost", "scope"}}


def fixed_reads(deps: Depends, e) -> frozenset | None:
    """What an expression without local names reads, when that is only counters (`counter:C`),
    the players out (`lost`) and the turn order (`scope`): its value is then fixed by theirs,
    and is kept per game under them (a window's `by`: `[first_player, ...]` computed from the
    players' counters). None when it reads anything else, a local name, `you` or `this`, or is
    a name other than a definition's or an attribute (nothing to compute)."""
    if e is None or isinstance(e, n.Attr):
        return None
    if isinstance(e, n.Name) and not isinstance(deps.r.name_of(e), rv.DefineRef):
        return None
    if not _stateless(deps, e, set()):
        return None
    out: set = set()
    return frozenset(out) if _order_reads(deps, e, out, set(), True) else None


def _order_reads(deps: Depends, e, out: set, seen: set, top: bool) -> bool:
    """`fixed_reads`' walk: adds the tokens read to `out`; false on anything else (a local name
    of the expression itself: `top`; a definition's parameters are bound by its call)."""
    r = deps.r
    for x in e.walk():
        if isinstance(x, n.Name):
            res = r.name_of(x)
            if isinstance(res, rv.LocalRef):
                if top:
                    return False
            elif isinstance(res, rv.DefineRef):
                if not _define_order_reads(deps, res.name, out, seen):
                    return False
            elif isinstance(res, rv.CounterRef):
                out.add("counter:" + res.name)
            elif isinstance(res, rv.BuiltinRef) and res.name in NAME_READS:
                if not NAME_READS[res.name] <= FIXED_READS:
                    return False
                out |= NAME_READS[res.name]
            elif not (
                isinstance(res, rv.BuiltinRef)
                and res.name in PURE_NAMES
                or isinstance(res, rv.KeywordRef | rv.KindRef | rv.CardRef)
            ):
                return False
        elif isinstance(x, n.Attr):
            toks = deps.attr_reads(x)
            if any(not t.startswith("counter:") for t in toks):
                return False
            out |= toks
        elif isinstance(x, n.Call):
            res = r.call_of(x)
            if isinstance(res, rv.DefineRef):
                if not _define_order_reads(deps, res.name, out, seen):
                    return False
            elif res is not None and res.name in _ORDER_BUILTINS:
                out |= _ORDER_BUILTINS[res.name]
            elif res is None or res.name not in PURE_BUILTINS:
                return False
        elif isinstance(x, n.Special):
            if x.which != "it":
                return False
        elif isinstance(x, n.Has) or isinstance(x, n.Expr) and not isinstance(x, PURE_NODES):
            return False
    return True


def _define_order_reads(deps: Depends, name: str, out: set, seen: set) -> bool:
    if name in seen:
        return True
    seen.add(name)
    d = deps.s.defines.get(name)
    return d is not None and _order_reads(deps, d.decl.body, out, seen, False)
