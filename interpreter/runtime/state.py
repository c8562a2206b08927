"""The game state as plain data, including the interpreter's position inside the rules.

Everything that changes during a game lives in `State`: zones (lists of object ids), objects
(parallel lists), properties, counters, modifiers, the random generator's 64-bit state and the
stack of `Frame`s. Nothing is held by Python generators or closures, so `clone()` is a handful
of list copies and `to_json()` / `from_json()` resume a game exactly, mid-effect included.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MASK64 = (1 << 64) - 1

_copy_list = list.copy
_new = object.__new__

# Frame kinds
BLOCK, LOOP, FUNC, SCOPE, EVENT, WINDOW, CHECK = range(7)


class Frame:
    """One level of the interpreter's stack: a block being executed at statement `pc`.

    `env` holds the local names (shared with nested blocks of the same function); `ctl` is the id
    of the statement that owns the frame and decides what happens at its end (-1: just pop);
    `items`/`i` are loop state and `extra` any other small state of the owner.
    """

    __slots__ = ("block", "pc", "env", "ctl", "kind", "items", "i", "extra")

    def __init__(self, block, env, ctl=-1, kind=BLOCK, items=None, i=0, extra=None, pc=0):
        self.block = block
        self.pc = pc
        self.env = env
        self.ctl = ctl
        self.kind = kind
        self.items = items
        self.i = i
        self.extra = extra


class _Copy(Frame):
    """A frame as `State.clone` copies it: a `Frame` made by a call without arguments, which
    Python's own constructor runs in C (about half of `object.__new__(Frame)`'s cost)."""

    __slots__ = ()
    __init__ = object.__init__


@dataclass
class Pending:
    """A choice the game waits for: `player` picks one of `values`. Labels for people and
    scripts are made by the game layer when asked for (game/optionlabels.py), never here."""

    player: int
    prompt: str
    values: list
    kind: str = "choose"  # 'choose' | 'order' | 'window'
    type: object = "any"  # static type of the values ('action' in windows)

    def to_json(self) -> dict:
        t = list(self.type) if isinstance(self.type, tuple) else self.type
        return {
            "player": self.player,
            "prompt": self.prompt,
            "values": self.values,
            "kind": self.kind,
            "type": t,
        }


@dataclass
class Game:
    """What stays fixed during one game: shared by all clones of its states."""

    prog: object
    nplayers: int
    options: dict
    seed: int
    zone_base: dict[str, int] = field(default_factory=dict)  # zone name -> first instance id
    zone_info: list[tuple[str, int]] = field(default_factory=list)  # instance -> (zone, owner)
    zone_player: list[int] = field(default_factory=list)  # its owner if a player's zone, else -1
    active_zones: list[int] = field(default_factory=list)
    active_set: frozenset = frozenset()  # the same, for membership tests
    # By card index, the zone instances where its objects' abilities are in force, when some
    # kind says where (`active in`); None: every active zone, for every card.
    card_zones: list[frozenset] | None = None
    renewing: frozenset = frozenset()  # zones declared `new objects` (engine.renew)
    areas: list[str] = field(default_factory=list)
    area_index: dict[str, int] = field(default_factory=dict)
    adjacency: list[list[int]] = field(default_factory=list)
    area_props: list[dict] = field(default_factory=list)
    auto_single: bool = True
    max_steps: int = 2_000_000
    # What the run time keeps while playing, never in the shared Program (it is frozen):
    # while the state cannot change (the conditions of the state checks are evaluated one after
    # another), modified values and the targets of continuous effects (engine.run_checks)
    read_cache: dict | None = None
    reading: set = field(default_factory=set)  # (object, property) being computed: cycle guard
    # engine.action_order, by action list (each game's own: setup.FRESH)
    action_orders: dict = field(default_factory=dict)
    action_cards: frozenset | None = None  # the cards with abilities of their own (State.kw)
    # the continuous grants of each keyword, their cards, and `State.ko`'s tables by the
    # objects' cards (effects.kept_by_cards): the game's own (a grant's condition found here
    # charged its work to this game), shared by its states
    grant_cards: dict = field(default_factory=dict)
    # what holds on any state of this game whose parts read are equal (runtime/inputs.py): the
    # state checks last found false, with those parts (engine.run_checks)
    kept_points: dict = field(default_factory=dict)
    # what the run time finds from the program and the layout alone (the cards with abilities,
    # the zones where each is in force: engine.py), shared by every game of them
    # (setup._layout), since it holds for all
    laid: dict = field(default_factory=dict)
    # by zone instance, the state checks an object leaving or entering it makes due
    # (engine.zone_checks, move_object); None until the checks' plan is made (run_checks)
    zone_checks: list | None = None
    zone_seen: list | None = None  # by zone instance, the seats that see it (seen.zone_seers)
    # an action's domains that read only the names bound before them and counters, by those
    # names' and counters' values (build/enumerators.py: build/depends.domain_counters); and
    # a window's `by` with what it read, under ("by", its text) (engine.Window.exec)
    domains: dict = field(default_factory=dict)
    # those domains, with the work each charged, for every game of the program and options
    # (setup._kept_tables; build/enumerators.SHARED_ROWS)
    shared: dict = field(default_factory=dict)
    # by the id of a list of listeners, it split by engine._heard_plan (engine.collect); one
    # table for the games of a program (setup.make_game); None: no list is worth splitting
    heard: dict | None = None
    card_slots: list = field(default_factory=list)  # Program.card_slots (engine.create_object)
    # the properties of Program.prop_slots in slot order (State.own) and as a set (clone)
    slot_names: list = field(default_factory=list)
    slotted: frozenset = frozenset()

    def zone_label(self, z: int) -> str:
        name, owner = self.zone_info[z]
        if owner < 0:
            return name
        scope = self.prog.zones[name].scope
        return f"{name}#{owner + 1}" if scope == "player" else f"{name}@{self.areas[owner]}"


class State:
    __slots__ = (
        "g", "zones", "obj_card", "obj_zone", "obj_owner", "obj_from", "obj_moves", "shown", "lki", "props", "pv", "pvo", "wrote", "wrote_slots", "counters", "pcounters",
        "acounters", "mods", "grants", "frames", "pending", "has_answer", "answer", "rng",
        "active", "first", "direction", "turn", "round", "phase", "used", "lost", "over",
        "winners", "checking", "dirty", "steps", "decisions", "log", "ts", "work", "work_limit",
        "zmemo", "zdirty", "kt", "ko", "kn", "kp", "kw", "chance", "kept", "zo", "oo",
    )  # fmt: skip

    def __init__(self, g: Game):
        self.g = g
        self.zones: list[list[int]] = [[] for _ in g.zone_info]
        # A clone shares the zones' lists: bit z of `zo` says zone z's is this state's own, to
        # write in place (`own_zones`); -1: all are. Likewise `oo` for `obj_card` and
        # `obj_owner`, written only where objects are made or handed out (`own_objects`).
        self.zo = -1
        self.oo = True
        self.obj_card: list[int] = []
        self.obj_zone: list[int] = []
        self.obj_owner: list[int] = []
        self.obj_from: list[int] = []  # the zone each object was in before its last move
        self.obj_moves: list[int] = []  # how many times each object changed zones
        # (object, player, moves): revealed while it stays put. Replaced on change, never
        # written in place (a clone shares it), as `lki` is.
        self.shown: list[tuple] = []
        # Grants an object lost by arriving in a `new objects` zone, (object, moves, grant):
        # until the next decision its abilities still trigger on the events of its arrival.
        self.lki: list[tuple] = []
        # What statements wrote to objects' properties, by property (what saves hold) ...
        self.props: dict[str, dict[int, object]] = {}
        # ... and, for each property the rules write (a slot of Program.prop_slots), its value
        # per object: the written one, else the card's (filled at creation, `set_prop`,
        # `drop_props`). Derived from `props` and the cards, so never saved. A clone shares the
        # rows and the written values of their properties: bit k of `pvo` says row k and
        # `props` of its property are this state's own, to write in place (`own`).
        self.pv: list[list] = [[] for _ in g.prog.prop_slots or ()] if g.prog else []
        self.pvo = -1
        # Marks for the run time's incremental work (issue #34, steps 3 and 4), written by the
        # generated code when the compiler is asked for them (stmtgen.MARK_WRITES): bit `o` of
        # `wrote` and bit `k` of `wrote_slots` once a statement wrote object o's property in
        # slot k. Whoever reads them clears them; ints, so a clone copies them for free.
        self.wrote = self.wrote_slots = -1  # not saved: a loaded state counts as all written
        self.counters: dict[str, object] = {}
        self.pcounters: dict[str, list] = {}
        self.acounters: dict[str, list] = {}
        # Modifiers, grants, `once per` records and the players out: replaced on change, never
        # written in place, so that a clone shares them (engine.py's writers, determinize).
        self.mods: list[tuple] = []  # (target, prop, amount, until, ts)
        self.grants: list[tuple] = []  # (target, keyword, until, ts)
        self.frames: list[Frame] = []
        self.pending: Pending | None = None
        self.has_answer = False
        self.answer = None
        self.rng = (g.seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64
        self.active = 0
        self.first = 0
        self.direction = 1
        self.turn = 0
        self.round = 0
        self.phase = ""
        self.used: list = []  # (ability id, source, period) of `once per` limits
        self.lost: list[int] = []
        self.over = False
        self.winners: list[int] = []
        self.checking = 0
        self.dirty = -1  # state checks to evaluate at the next check point (engine.run_checks)
        self.steps = 0
        self.decisions = 0
        self.log: list | None = None
        self.ts = 0
        self.work = 0  # work charged inside steps (runtime/budget.py), not saved
        self.work_limit = g.max_steps
        # What is computed from the zones' contents alone (objects present by card, ...),
        # until they next change: every change of a zone sets it to None (zone_kept).
        self.zmemo: dict | None = None
        # Bit z set: zone instance z changed since the state checks last ran (set with each
        # emptying of `zmemo`, read and cleared by engine.run_checks); an int: a clone copies it
        # for free. Not saved: a state made otherwise counts as all changed.
        self.zdirty = -1
        # What continuous modifiers give objects, kept (effects.prop_reader): [the bits of the
        # zones they read, {key: totals}], forgotten (None) when one of those zones or anything
        # else they read changes (engine.forget_kept and the moves); never copied nor saved.
        self.kt = None
        # The objects of sets of cards and whether a continuous grant may give a keyword
        # (effects.cards_objects, may_grant), kept until an object is made or an object's card
        # changed (engine.create_object, determinized samples set it to None). A clone shares
        # it: its objects' cards are the same until one of those empties its own; so do the
        # games of one program and options with the same objects' cards (effects.kept_by_cards).
        # Not saved.
        self.ko: dict | None = None
        # The objects each seat owns in each zone (runtime/owned.py), for the listings that go
        # only through the areas where a seat has objects: written in place by the moves,
        # forgotten where an owner changes; never copied nor saved.
        self.kn: tuple | None = None
        # The objects present in active zones by card, for the cards of continuous modifiers
        # (effects.ContinuousEffects._present): (those cards, {id(cards): objects by card}),
        # written in place by the moves of those cards' objects (engine.modifiers_moved),
        # forgotten by a shuffle or a removal; never copied nor saved.
        self.kp = None
        # The actions of each window that may have options, each with the objects present of
        # its card (engine.enumerate_actions): (the cards that have actions, {id(actions):
        # plan, PRESENT: objects by card}, {id(actions): the cards with actions in it}), written
        # in place by the moves of those cards' objects (engine.present_moved); never copied
        # nor saved.
        self.kw = None
        # Explicit chance (runtime/chance.py): the outcomes of random operations come from
        # this tape instead of the generator. Set only while game/api.py replays a step.
        self.chance = None
        # What each seat remembers of objects it saw go where it cannot see (runtime/seen.py,
        # for agents' samples): (object, seat, moves, position known). None: not tracked (a
        # sample searched in). Not saved, so that games and their digests stay as they were:
        # a loaded game starts remembering afresh.
        self.kept: tuple | None = ()

    def forget_kept(self) -> None:
        """Forget all that is kept from the zones and the objects' cards (`zmemo`, `kt`, `ko`,
        `kn`, `kp`) and count every zone as changed and every state check as due: for a tool that
        placed objects or changed their cards itself (a sample, a seat's view, a step stopped
        midway), not through the engine's moves, which forget only what a move changes."""
        self.zmemo = self.kt = self.ko = self.kn = self.kp = self.kw = None
        self.zdirty = self.dirty = -1

    def zone_kept(self, key, compute, *args):
        """`compute(self, *args)`, a value computed from the zones' contents alone, kept until a
        zone changes (engine.move_object, create_object, remove_objects, shuffle_zone empty the
        cache; it is never copied or saved). Callers only read the value. The test suite
        computes it afresh at each use and fails if they differ (`Program.verify_checks`)."""
        m = self.zmemo
        if m is None:
            m = self.zmemo = {}
        v = m.get(key)
        if v is None:
            v = m[key] = compute(self, *args)
        elif self.g.prog.verify_checks and v != compute(self, *args):
            raise AssertionError(f"{key}: a zone changed without emptying State.zmemo")
        return v

    # ------------------------------------------------------------ properties
    def layout(self) -> list[list]:
        """`pv` as `props` and the cards make it (a loaded state; the tests compare)."""
        prog = self.g.prog
        out = []
        for name, cards in zip(prog.prop_slots or (), prog.slot_cards()):
            written = self.props.get(name) or {}
            out.append([written[o] if o in written else cards[c]
                        for o, c in enumerate(self.obj_card)])  # fmt: skip
        return out

    def own(self, k: int) -> list:
        """Row `k` of `pv`, to write in place: copied first when a clone may share it, with
        what was written to its property (`props`; read that after this call)."""
        row = self.pv[k]
        if not self.pvo >> k & 1:
            row = self.pv[k] = row[:]
            self.pvo |= 1 << k
            names = self.g.slot_names
            if len(names) <= k:  # (a game not made by setup: laid out at the first write)
                names = self.g.slot_names = list(self.g.prog.prop_slots)
            d = self.props.get(names[k])
            if d is not None:
                self.props[names[k]] = d.copy()
        return row

    def own_prop(self, name: str) -> dict | None:
        """What was written to property `name` by object, to write in place (None: nothing)."""
        k = (self.g.prog.prop_slots or {}).get(name)
        if k is not None:
            self.own(k)
        return self.props.get(name)

    def own_zones(self, bits: int) -> list[list[int]]:
        """`zones`, with the lists of the zone instances of `bits` this state's own, to write
        in place: those a clone may share are copied first."""
        zones = self.zones
        rest = bits & ~self.zo
        while rest:
            low = rest & -rest
            z = low.bit_length() - 1
            zones[z] = zones[z][:]
            rest ^= low
        self.zo |= bits
        return zones

    def own_new(self, z: int) -> None:
        """What making an object in zone instance `z` writes this state's own: the objects'
        rows, the zone's list and the layout's rows."""
        self.own_objects()
        self.own_zones(1 << z)
        for k in range(len(self.pv)):
            self.own(k)

    def own_objects(self) -> None:
        """`obj_card` and `obj_owner` this state's own, to write in place (a clone shares
        them until one of the two states writes)."""
        if not self.oo:
            self.obj_card = self.obj_card[:]
            self.obj_owner = self.obj_owner[:]
            self.oo = True

    def set_prop(self, o: int, name: str, value) -> None:
        """Write a property of an object as a statement does (the generated code writes both
        itself: build/stmtgen.py)."""
        k = (self.g.prog.prop_slots or {}).get(name)
        if k is not None:
            self.own(k)[o] = value
            self.wrote |= 1 << o
            self.wrote_slots |= 1 << k
        self.props.setdefault(name, {})[o] = value
        if name in self.g.prog.static_read_props:  # continuous modifiers read it
            self.kt = None

    def drop_props(self, objs, new_cards: bool = False) -> None:
        """The objects keep nothing written to their properties: they read their cards'.
        `new_cards`: they were given other cards (determinize), so every slot is read again;
        else only the slots of what was written to them differ from their cards'."""
        props = self.props
        if self.pvo != -1:  # a clone's or a cloned state's: what it deletes from copied first
            self._own_written(objs)
        for o in objs:  # (an object has been written few properties: only those looked up)
            for name, d in props.items():
                if o in d:
                    del d[o]
                    self._dropped(name, o, new_cards)
        if new_cards:
            self.kt = self.ko = None
            for k in range(len(self.pv)):
                for o in objs:
                    self._reset(k, o)

    def _own_written(self, objs) -> None:
        """The rows and written values of the properties written to `objs`, this state's own."""
        slots = self.g.prog.prop_slots or {}
        for name, d in list(self.props.items()):
            k = slots.get(name)
            if k is not None and any(o in d for o in objs):
                self.own(k)

    def _dropped(self, name: str, o: int, new_cards: bool) -> None:
        """What `drop_props` does when `o`'s written `name` is gone."""
        prog = self.g.prog
        if name in prog.static_read_props:  # continuous modifiers read it
            self.kt = None
        k = (prog.prop_slots or {}).get(name)
        if k is not None and not new_cards:
            self._reset(k, o)

    def _reset(self, k: int, o: int) -> None:
        v = self.g.prog.slot_cards()[k][self.obj_card[o]]
        if self.pv[k][o] is not v:  # a row a clone shares is copied only when it changes
            self.own(k)[o] = v
            self.wrote |= 1 << o
            self.wrote_slots |= 1 << k

    # ------------------------------------------------------------ randomness (splitmix64)
    def next64(self) -> int:
        self.rng = z = (self.rng + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def rand_below(self, n: int) -> int:
        """A number in 0..n-1: every random operation of the rules draws through here (or
        through `shuffle`, which draws as here)."""
        if self.chance is not None:
            return self.chance.next(n)
        return (self.next64() * n) >> 64

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, each draw `rand_below(i + 1)`'s, written out (a deck's dozens of draws
        without two calls each)."""
        if self.chance is not None:
            for i in range(len(items) - 1, 0, -1):
                j = self.chance.next(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        r = self.rng
        for i in range(len(items) - 1, 0, -1):
            r = (r + 0x9E3779B97F4A7C15) & MASK64
            z = ((r ^ (r >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.rng = r

    # ------------------------------------------------------------ copying
    def clone(self) -> State:
        """A copy that shares nothing mutable with this state (a few µs: solvers clone at
        every node). Written with `map` over the lists' own copy methods, and frames copied
        without their constructor's defaults: the cost is a handful of C calls per field."""
        c = State.__new__(State)
        c.g = self.g
        c.zones = self.zones[:]  # lists copied at their first write (`own_zones`)
        c.zo = self.zo = 0
        c.obj_card = self.obj_card  # and these (`own_objects`)
        c.obj_owner = self.obj_owner
        c.oo = self.oo = False
        c.obj_zone = self.obj_zone[:]
        c.obj_from = self.obj_from[:]
        c.obj_moves = self.obj_moves[:]
        c.shown = self.shown  # lists replaced on change, never written in place: shared
        c.kept = self.kept  # a tuple, replaced on change: shared
        c.lki = self.lki
        # the rows and their properties' written values copied at their first write (`own`):
        # most are never written; another property's copied now
        props = self.props
        c.props = props.copy()
        if not props.keys() <= self.g.slotted:
            slots = self.g.prog.prop_slots or {}
            for name, d in props.items():
                if name not in slots:
                    c.props[name] = d.copy()
        c.pv = self.pv[:]
        c.pvo = self.pvo = 0
        c.wrote, c.wrote_slots = self.wrote, self.wrote_slots
        c.counters = self.counters.copy()
        d = self.pcounters
        c.pcounters = dict(zip(d, map(_copy_list, d.values()))) if d else {}
        d = self.acounters
        c.acounters = dict(zip(d, map(_copy_list, d.values()))) if d else {}
        c.mods = self.mods  # these four are replaced on change, never written in place: shared
        c.grants = self.grants
        # Nested blocks of one function share its names: one copy each, shared likewise (they
        # lie next to each other on the stack, so the last one is tried first).
        envs: dict[int, dict] = {}
        frames = []
        append = frames.append
        last = last_copy = None
        for f in self.frames:
            env = f.env
            if env is last:
                e = last_copy
            else:
                e = envs.get(id(env))
                if e is None:
                    e = envs[id(env)] = env.copy()
                last, last_copy = env, e
            k = _Copy()
            k.block = f.block
            k.pc = f.pc
            k.env = e
            k.ctl = f.ctl
            k.kind = kind = f.kind
            k.items = f.items
            k.i = f.i
            x = f.extra  # a scope's (the phase it ends in) is never written: shared
            k.extra = x.copy() if x and kind != SCOPE else x
            append(k)
        c.frames = frames
        c.pending = self.pending
        c.has_answer = self.has_answer
        c.answer = self.answer
        c.rng = self.rng
        c.active, c.first, c.direction = self.active, self.first, self.direction
        c.turn, c.round, c.phase = self.turn, self.round, self.phase
        c.used = self.used
        c.lost = self.lost
        c.over = self.over
        c.winners = self.winners  # replaced when the game ends, never written: shared
        c.checking = self.checking
        c.dirty = self.dirty
        c.steps = self.steps
        c.work, c.work_limit = self.work, self.work_limit
        c.decisions = self.decisions
        c.log = None
        c.ts = self.ts
        c.zmemo = None
        c.zdirty = -1
        c.kt = c.kp = c.kw = c.kn = None
        c.ko = self.ko  # (what is added to it holds for both until one's cards change)
        c.chance = None
        return c

    # ------------------------------------------------------------ serialisation
    def to_data(self) -> dict:
        """Canonical plain data (JSON-ready); the log is not part of the state."""
        envs: dict[int, int] = {}
        env_list: list[dict] = []
        frames = []
        for f in self.frames:
            k = envs.get(id(f.env))
            if k is None:
                k = envs[id(f.env)] = len(env_list)
                env_list.append(f.env)
            frames.append([f.block, f.pc, k, f.ctl, f.kind, f.items, f.i, f.extra])
        return {
            "zones": self.zones,
            "objects": {
                "card": self.obj_card,
                "zone": self.obj_zone,
                "owner": self.obj_owner,
                "from": self.obj_from,
                "moves": self.obj_moves,
            },
            "shown": [list(s) for s in self.shown],
            "props": {
                k: sorted([o, v] for o, v in d.items()) for k, d in sorted(self.props.items())
            },
            "counters": dict(sorted(self.counters.items())),
            "player_counters": dict(sorted(self.pcounters.items())),
            "area_counters": dict(sorted(self.acounters.items())),
            "mods": [list(m) for m in self.mods],
            "grants": [list(m) for m in self.grants],
            "envs": [dict(sorted(e.items())) for e in env_list],
            "frames": frames,
            "pending": self.pending.to_json() if self.pending else None,
            "has_answer": self.has_answer,
            "answer": self.answer,
            "rng": self.rng,
            "active": self.active,
            "first": self.first,
            "direction": self.direction,
            "turn": self.turn,
            "round": self.round,
            "phase": self.phase,
            "used": [list(u) for u in self.used],
            "lost": self.lost,
            "over": self.over,
            "winners": self.winners,
            "checking": self.checking,
            "steps": self.steps,
            "decisions": self.decisions,
            "ts": self.ts,
        }

    @classmethod
    def from_data(cls, g: Game, d: dict) -> State:
        st = cls(g)
        st.zones = [list(z) for z in d["zones"]]
        st.obj_card = list(d["objects"]["card"])
        st.obj_zone = list(d["objects"]["zone"])
        st.obj_owner = list(d["objects"]["owner"])
        n = len(st.obj_card)
        st.obj_from = list(d["objects"].get("from") or [-1] * n)
        st.obj_moves = list(d["objects"].get("moves") or [0] * n)
        st.shown = [tuple(s) for s in d.get("shown") or ()]
        st.props = {k: {o: v for o, v in pairs} for k, pairs in d["props"].items()}
        st.pv = st.layout()
        st.pvo = -1
        st.counters = dict(d["counters"])
        st.pcounters = {k: list(v) for k, v in d["player_counters"].items()}
        st.acounters = {k: list(v) for k, v in d["area_counters"].items()}
        st.mods = [tuple(m) for m in d["mods"]]
        st.grants = [tuple(m) for m in d["grants"]]
        envs = [dict(e) for e in d["envs"]]
        st.frames = [
            Frame(b, envs[k], ctl, kind, items, i, extra, pc)
            for b, pc, k, ctl, kind, items, i, extra in d["frames"]
        ]
        p = d["pending"]
        if p:
            t = p["type"]
            st.pending = Pending(
                p["player"],
                p["prompt"],
                p["values"],
                p["kind"],
                tuple(t) if isinstance(t, list) else t,
            )
        st.has_answer = d["has_answer"]
        st.answer = d["answer"]
        st.rng = d["rng"]
        st.active, st.first, st.direction = d["active"], d["first"], d["direction"]
        st.turn, st.round, st.phase = d["turn"], d["round"], d["phase"]
        st.used = [tuple(u) for u in d["used"]]
        st.lost = list(d["lost"])
        st.over = d["over"]
        st.winners = list(d["winners"])
        st.checking = d["checking"]
        st.steps = d["steps"]
        st.decisions = d["decisions"]
        st.ts = d["ts"]
        return st
