"""The run-time objects a ruleset compiles to: a `Program` and the pieces it holds (verbs,
listeners, actions, cards). They are data for the engine; nothing here reads the syntax tree.
Continuous effects (what a property or a keyword is now) live in effects.py."""

from __future__ import annotations

from typing import NamedTuple

from . import engine as E
from .effects import ContinuousEffects, StaticRT, acting
from .errors import RulesError


class VerbRT:
    """A verb or event at run time: parameters, body block, and who listens to it."""

    __slots__ = (
        "name",
        "param_names",
        "param_types",
        "body",
        "listeners",
        "listened",
        "narration",
        "quick",
    )

    def __init__(self, name, params, body, narration=None):
        self.quick: list = []  # [the function a generated call runs] (build/resumable.py)
        self.name = name
        self.param_names = [p.name for p in params]
        self.param_types = [p.type for p in params]
        self.body = body
        self.listeners: dict[str, list] = {}
        self.listened = False
        self.narration = narration

    def rule_names(self, st):
        return [lst.rule for ls in self.listeners.values() for lst in ls]


_PRESENT = E.PRESENT  # the key of E.objects_by_card in an enumeration's cache


class ListenerRT:
    __slots__ = (
        "id",
        "origin",
        "owner",
        "binds",
        "param_names",
        "cond",
        "body",
        "limit",
        "rule",
        "kw_params",
        "card_index",
        "prog",
        "optional",
        "optional_by",
        "short",
        "requires",
        "tier",
        "self_arg",  # the event's parameter its source must be (`after E(this)`), or None
    )

    def applies_to(self, st, o):
        if self.origin == "card":
            return st.obj_card[o] == self.card_index
        return self.prog.has(st, o, self.owner) or bool(
            st.lki and self.prog.last_known_args(st, o, self.owner) is not None
        )

    def bind_params(self, st, src, env):
        if self.kw_params:
            args = self.prog.keyword_args(st, src, self.owner)
            for name, v in zip(self.kw_params, args):
                env[name] = v


class ActionRT:
    __slots__ = (
        "dom_fixed",
        "dom_keys",
        "id",
        "name",
        "param_names",
        "param_types",
        "body",
        "origin",
        "owner",
        "card_index",
        "prog",
        "limit",
        "limit_by",
        "limit_key",
        "fast_enum",
        "guard",
        "costs",
        "direct",
        "quick",  # the block's frameless copy (build/resumable.py `action_quick`), or None
    )

    def used_key(self, st, player, src, args):
        """`once per S`: per source object for a card's action, per player for the rules';
        `once per S per NAME`: per value of parameter NAME; `as LIMIT`: under the key of the
        limit it shares (the build gives it)."""
        if self.limit_by is not None:
            who = args[self.limit_by]
        else:
            who = player if src is None else src
        return (self.limit_key, who, E.scope_name(st, self.limit))

    def enumerate(self, st, player, values, cache: dict):
        # (`cache`: the listing's dict, or engine.NO_CACHE, which keeps nothing; never None)
        if self.origin == "global":  # one source: no list of sources nor loop
            used = st.used
            if used and self.limit_by is None and self._used_up(st, player, None):
                return
            start = len(values)
            self.fast_enum(st, {"you": player}, None, values, cache)
            if len(values) > start and (self.costs or used and self.limit_by is not None):
                self._filter(st, player, values, start)
            return
        if self.origin == "card":
            present = cache.get(_PRESENT)
            if present is None:
                present = cache[_PRESENT] = E.objects_by_card(st)
            owner = st.obj_owner
            sources = [o for o in present.get(self.card_index, ()) if owner[o] == player]
        else:
            prog = self.prog
            sources = [
                o for o in acting(st) if st.obj_owner[o] == player and prog.has(st, o, self.owner)
            ]
        if st.used and self.limit_by is None:
            sources = [s for s in sources if not self._used_up(st, player, s)]
        fast = self.fast_enum
        start = len(values)
        for src in sources:  # (an object's options: no cache shared with other sources)
            fast(st, {"you": player, "this": src}, src, values, E.NO_CACHE)
        if len(values) > start:
            self._filter(st, player, values, start)

    def _used_up(self, st, player, src) -> bool:
        """Whether this action's limit (not one per argument) is used up for source `src`."""
        return (
            self.limit is not None
            and self.limit_by is None
            and self.used_key(st, player, src, ()) in st.used
        )

    def _filter(self, st, player, values, start) -> None:
        """Leave out of `values[start:]` the options whose limit per argument is used up and
        those whose additional costs cannot be paid."""
        if self.limit_by is not None and st.used:
            # the arguments this limit was used for in this period (`used_key`'s, found once)
            key, scope = self.limit_key, E.scope_name(st, self.limit)
            taken = [u[1] for u in st.used if u[0] == key and u[2] == scope]
            if taken:
                by = self.limit_by
                values[start:] = [v for v in values[start:] if v[1][by] not in taken]
        if self.costs:
            values[start:] = [v for v in values[start:] if self.payable(st, v[1], player)]

    def costs_on(self, st, args, player) -> list:
        """The additional costs (`cost ACTION(...)`) that apply to taking this action with
        `args`: (ability, environment) pairs. A cost on a card applies while the card is in an
        active zone or is one of the action's arguments (a card's cost to be played)."""
        out = []
        prog = self.prog
        for lst in self.costs:
            if lst.origin == "global":
                sources = [None]
            else:
                if lst.origin == "card":
                    sources = list(E.objects_by_card(st).get(lst.card_index, ()))
                else:
                    sources = [o for o in acting(st) if prog.has(st, o, lst.owner)]
                for a, t in zip(args, self.param_types):  # the objects the action acts on
                    if (
                        t == "object"
                        and a is not None
                        and a not in sources
                        and lst.applies_to(st, a)
                    ):
                        sources.append(a)
            for src in sources:
                env = {b: a for b, a in zip(lst.binds, args)}
                if src is None:
                    env["you"] = player
                else:
                    env["this"] = src
                    env["you"] = st.obj_owner[src]
                    lst.bind_params(st, src, env)
                if lst.cond is None or lst.cond(st, env):
                    out.append((lst, env))
        return out

    def payable(self, st, args, player) -> bool:
        return all(
            all(r(st, env) for r in lst.requires) for lst, env in self.costs_on(st, args, player)
        )


class CardRT:
    __slots__ = ("name", "kind", "props", "keywords", "index", "traits", "extra")

    def __init__(self, name, kind, props, keywords, index, traits, extra):
        self.name, self.kind, self.props, self.keywords = name, kind, props, keywords
        self.index, self.traits, self.extra = index, traits, extra


class ZoneRT(NamedTuple):
    """A zone as the run time knows it (copied from the front end's symbol)."""

    name: str
    scope: str  # "global", "player" or "area"
    ordered: bool
    visibility: str  # "public", "owner" or "hidden"
    active: bool
    renews: bool  # `new objects`: an object arriving from another zone is new


class CounterRT(NamedTuple):
    name: str
    scope: str  # "global", "player" or "area"
    # `in LOW..HIGH`: the values it may hold (None: no limit on that side); every write of a
    # counter with a range is held to it (build/codegen.py, setup.start)
    low: int | None = None
    high: int | None = None
    where: str = ""  # its declaration (file:line:col), for a start value outside the range

    def refuse(self, st, value, where: str, index: int | None = None) -> None:
        """A write put the counter outside its declared range: a located rules error (the
        range is the designer's promise; clamping would hide the rule that broke it). `index`
        is the player or area of a per-player or per-area counter."""
        of = ""
        if index is not None:
            of = f" of P{index + 1}" if self.scope == "player" else f" of {st.g.areas[index]}"
        raise RulesError(
            f"{where}: counter '{self.name}'{of} is {value}, outside its range"
            f" {'' if self.low is None else self.low}..{'' if self.high is None else self.high}"
        )

    def holds(self, value) -> bool:
        return (self.low is None or self.low <= value) and (self.high is None or value <= self.high)


class DeckRule(NamedTuple):
    """A compiled `rule`: `cond(st, env)` holds for a legal deck; `over` lists what `var` runs over."""

    label: str
    var: str | None
    over: object
    cond: object
    span: object


class FlowPoint(NamedTuple):
    """A point of the flow where a game may start (a scenario's `start_at:`): the start of a
    `phase` block, or of the flow's first `turn` or `round` block (build/flowpoints.py).

    `frames` are the flow's frames as they are just before the point, outermost first, as
    (block, pc, ctl, kind, tag): tag "scope" for a scope already begun, "hold" for a `hold:`
    block, "" otherwise. `names` are the flow's local names bound before the point, in order,
    each with its `let`'s value (f(st, env)) or None when nothing declares one (a `choose`'s
    name): those must be given. `blocked` says why no game can start there (None: it can)."""

    name: str
    span: object
    frames: tuple
    names: tuple
    blocked: str | None = None


def _live_len(blk: tuple) -> int:
    """The sections of `blk` the run loop calls: a compiled block's last ones that only end it
    are not called (`resumable._live_sections`); a frame resumed there is at its end."""
    fns = {s.fn for s in blk}
    if len(fns) != 1:
        return len(blk)
    return min(getattr(fns.pop(), "live", len(blk)), len(blk))


def _block_fn(blk: tuple):
    """The function the run loop calls for a section of `blk`: the sections' own when they
    share it (a compiled block is one function), else one that calls the section's."""
    fns = {s.fn for s in blk}
    if len(fns) == 1:
        return fns.pop()
    return lambda st, fr, pc: blk[pc].fn(st, fr, pc)


class Program(ContinuousEffects):
    """A compiled ruleset: everything needed to run games of it."""

    # The test suite sets this: a state check that is not due is evaluated anyway, and one that
    # holds is an error (the statements' write sets missed something; build/depends.py).
    verify_checks = False

    def __init__(
        self,
        meta: dict,
        zones: dict[str, ZoneRT],
        counters: dict[str, CounterRT],
        canonical: dict[str, str],
        syms: object = None,
        kind_zones: dict[str, tuple[str, ...]] | None = None,
    ):
        # The front end's declarations, kept for tools that read them (scenario files, the
        # editor); the run time never looks inside.
        self.syms = syms
        # every spelling of a name → its canonical one (zones, narration): the run time's copy
        self.canonical: dict[str, str] = dict(canonical)
        self.phase_names: dict[str, str] = {}  # a phase's spelling -> its name (the compiler's)
        self.meta = meta
        self.name = meta.get("name", "")
        self.blocks: list[tuple] = []
        # by block, what the run loop steps into: its sections' count and their one generated
        # function (`fn(st, fr, section)`, build/resumable.py), kept as the blocks are added
        self.block_lens: list[int] = []
        self.block_fns: list = []
        self.stmts: list = []
        self.checks: list = []
        # what `engine.run` reads at each call, in one tuple (the lists it holds grow in place)
        self.loop_tables = (self.block_lens, self.block_fns, self.stmts, self.checks)
        self.empty_block = self.add_block(())
        # adds the place in the rules to a Python error raised inside generated code (the
        # compiler's; the run loop calls the blocks' sections without a layer that would)
        self.note_error = None
        self.verbs: dict[str, VerbRT] = {}
        self.actions: list[ActionRT] = []
        self.window_actions: dict[str, list[ActionRT]] = {}
        self.cards: list[CardRT] = []
        self.card_index: dict[str, int] = {}
        self.zones = zones
        # kind -> the zones where its cards' abilities are in force (`active in`), when it says
        self.kind_zones: dict[str, tuple[str, ...]] = dict(kind_zones or {})
        self.counters = counters
        self.deck_rules: list[DeckRule] = []
        self.holds = False  # some `hold:` block exists: triggers look for one on the stack
        self.batch_hold = None  # settings.new_triggers_wait: the Hold of a batch's waiting frame
        self.statics_prop: dict[str, list[StaticRT]] = {}
        self.static_cards: dict[str, frozenset] = {}  # property -> cards with a modifier of it
        self.kp_cards: frozenset = frozenset()  # all of those (State.kp, effects._present)
        self.kp_ids: dict = {}  # static_cards' sets by their ids
        self.statics_grant: list[StaticRT] = []
        self.modified_props: set[str] = set()
        # the compiled reads of modified properties, by (name, none-safe): codegen.reader
        self.readers: dict[tuple, object] = {}
        # the properties whose continuous modifiers' totals a state keeps per object until a
        # zone changes, and the properties those modifiers read (Compiler.kept_statics)
        self.kept_props: frozenset = frozenset()
        self.kept_reads: frozenset = frozenset()  # their tokens (build/depends.py)
        self.static_read_props: frozenset = frozenset()  # the properties among those
        self.kept_zones: frozenset | None = None  # the zones they read (None: any)
        # The state's layout of properties (State.pv): the properties the rules write, each a
        # slot holding its value per object; None until the compiler has laid them out.
        self.prop_slots: dict[str, int] | None = None
        self._slot_cards: list[list] | None = None
        self._card_values: dict[str, list] = {}
        self.check_bits = 0  # one bit per state check (engine.run_checks)
        self.setup_block = self.empty_block
        self.flow_block = self.empty_block
        self.flow_points: dict[str, FlowPoint] = {}  # by every spelling of its name
        self.counter_defaults: dict[str, object] = {}
        self.conditions: list = []  # compiled condition arguments of keywords
        self.costs: dict[str, list] = {}  # action name -> its additional costs (`cost A(...)`)
        self.settings = meta.get("settings") or {}
        # an object's triggered ability needs its source where it was when it triggered
        self.source_must_remain = bool(self.settings.get("source_must_remain"))
        self.listener_by_id: dict[int, ListenerRT] = {}
        # settings.trigger_tiers: a trigger's tier is its index there (no tier: after them all)
        self.tiers: list[str] = list(self.settings.get("trigger_tiers") or [])
        # settings.effect_waits: the tiers whose triggers met during an effect wait for its end
        waits = self.settings.get("effect_waits") or []
        self.effect_waits = frozenset(i for i, t in enumerate(self.tiers) if t in waits)
        self.implied_by: dict[str, list] = {}  # keyword -> [(keyword implying it, its args)]
        self.effect_checks = 0  # the state checks that read `resolving` (engine.effect_ended)
        self.lki_checks = -1  # those a question may change: it forgets last known information
        self.expire_checks = -1  # those the end of modifiers and grants may change (ScopeStmt)
        self.acts: dict = {}  # event name -> acts.EventActs, for `doable(EVENT(...))`
        # `trigger_order: chosen`: who orders simultaneous triggers (f(st) -> player)
        self.trigger_chooser = lambda st: st.first
        # Set by the loader with the program (build/loader.py), read by the public layer:
        self.evaluation = None  # f(state, player) -> number: the ruleset's own (agents)
        self.payoff = None  # f(state, player) -> number: what the game pays at its end
        # f(state, player) -> value naming the seat (`view: players: name: {define: ...}`)
        self.player_name_of = None
        self.fingerprints: dict[str, str] = {}  # digests of rules, cards, options (saves)
        self.folder = None  # the ruleset's folder (saves and logs name it)
        self.extra_cards: list[str] = []  # card and deck files loaded beside it
        self.texts: tuple[str, ...] = ()  # every string literal of its language files, sorted

    def card_values(self, name: str) -> list:
        """A property's printed value by card index (none where the card has none): what an
        object reads while nothing was written to it. Built at its first use, after every card."""
        t = self._card_values.get(name)
        if t is None:
            t = self._card_values[name] = []
        if len(t) < len(self.cards):  # asked while the cards were made (their texts' reads)
            t.extend(c.props.get(name) for c in self.cards[len(t) :])
        return t

    def slot_cards(self) -> list[list]:
        """`card_values` of each slot of State.pv, in slot order (built by the compiler when
        it writes the first read or write of a slot: playing writes nothing here)."""
        t = self._slot_cards
        if t is None:
            if not self.prop_slots:
                return []
            t = self._slot_cards = [self.card_values(k) for k in self.prop_slots]
        return t

    def add_block(self, stmts) -> int:
        blk = tuple(stmts)
        self.blocks.append(blk)
        self.block_lens.append(_live_len(blk))
        self.block_fns.append(_block_fn(blk))
        return len(self.blocks) - 1

    def add_stmt(self, s):
        s.id = len(self.stmts)
        self.stmts.append(s)
        return s

    def zone_order(self, st, o):
        if o is None:
            return (-1, -1)
        z = st.obj_zone[o]
        return (z, st.zones[z].index(o) if z >= 0 else -1)


class SnippetError(Exception):
    """A snippet (from a scenario) does not parse or check; the message holds the diagnostics."""
