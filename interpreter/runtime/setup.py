"""A new game of a compiled program: options resolved against the ruleset's declarations, the
tables of zones and areas laid out, counters at their defaults and the flow started. The
public API (game/api.py), the deck checker and the scenario runner all start games here."""

from __future__ import annotations

import dataclasses
import difflib
import weakref

from . import budget, engine
from .errors import MadangError, RulesError
from .program import FlowPoint, Program
from .state import FUNC, Frame, Game, State


def _did_you_mean(word: str, candidates: list[str]) -> str | None:
    best = difflib.get_close_matches(word, candidates, n=1, cutoff=0.5)
    return f"did you mean '{best[0]}'?" if best else None


def resolve_options(prog: Program, options: dict | None) -> tuple[dict, int]:
    """Defaults filled in, values converted and checked; returns (options, number of players):
    worked out once per program and options given, each game getting its own copy."""
    return _resolved_options(prog, options, _options_key(options))


def _options_key(options: dict | None) -> str:
    """The options given as a key: one for the same options in any order."""
    return repr(sorted(options.items(), key=repr)) if options else ""


def _resolved_options(prog: Program, options: dict | None, key: str) -> tuple[dict, int]:
    """`resolve_options` with the options' key: a copy of the options worked out for it (its
    lists copied too, found with them)."""
    made = _resolved.setdefault(prog, {})
    got = made.get(key)
    if got is None:
        out, nplayers = _resolve_options(prog, options)
        lists = tuple(k for k, v in out.items() if isinstance(v, list))
        got = made[key] = (out, nplayers, lists)
    out, nplayers, lists = got
    opts = out.copy()
    for k in lists:
        opts[k] = list(opts[k])
    return opts, nplayers


# By program (kept while it lives), what `resolve_options` gave by the options' text (and the
# names of those that are lists).
_resolved: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _resolve_options(prog: Program, options: dict | None) -> tuple[dict, int]:
    meta = prog.meta
    specs = dict(meta.get("options") or {})
    players = meta.get("players", 2)
    lo, hi = (players, players) if isinstance(players, int) else (players["min"], players["max"])
    given = dict(options or {})
    out: dict = {}
    nplayers = lo
    if "players" in given and "players" not in specs:
        nplayers = _convert("players", given.pop("players"), lo)
        if not lo <= nplayers <= hi:
            raise MadangError(
                f"option players={nplayers}: this ruleset is for {lo}–{hi} players"
                if lo != hi
                else f"option players={nplayers}: this ruleset is for {lo} players"
            )
    for name in given:
        if name not in specs:
            hint = _did_you_mean(name, list(specs) + (["players"] if lo != hi else []))
            raise MadangError(
                f"unknown option '{name}'"
                + (f" ({hint})" if hint else "")
                + f"; options: {', '.join(sorted(specs)) or 'none'}"
            )
    for name, spec in specs.items():
        default = spec.get("default")
        by_players = {int(k): v for k, v in (spec.get("default_by_players") or {}).items()}
        if nplayers in by_players and "players" not in specs:
            default = by_players[nplayers]
        allowed = spec.get("values")
        if spec.get("per_seat"):
            raw = given.get(name)
            if raw is None:
                vals = [default] * hi
            else:
                parts = raw if isinstance(raw, list) else str(raw).split(",")
                vals = [_convert(name, v, default) for v in parts]
                if len(vals) == 1:
                    vals = vals * hi
            for v in vals:
                _allowed(name, v, allowed)
            out[name] = vals
        else:
            v = _convert(name, given[name], default) if name in given else default
            _allowed(name, v, allowed)
            out[name] = v
    if "players" in specs:
        nplayers = int(out["players"])
    else:
        out["players"] = nplayers
    for name, spec in specs.items():
        if spec.get("per_seat"):
            out[name] = out[name][:nplayers] + [out[name][-1]] * max(0, nplayers - len(out[name]))
    _check_budget(meta, out)
    for c in meta.get("constraints") or []:
        if all(out.get(k) == v for k, v in c["if"].items()) and any(
            out.get(k) == v for k, v in c["forbid"].items()
        ):
            bad = ", ".join(f"{k}={v}" for k, v in c["forbid"].items() if out.get(k) == v)
            when = ", ".join(f"{k}={v}" for k, v in c["if"].items())
            raise MadangError(f"{bad} is not allowed with {when}: {c['message']}")
    return out, nplayers


def _convert(name, value, like):
    if isinstance(like, str) and isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # a deck named "2" given as 2
    if isinstance(value, str) and not isinstance(like, str):
        if isinstance(like, bool):
            if value.lower() in ("true", "yes", "1", "on"):
                return True
            if value.lower() in ("false", "no", "0", "off"):
                return False
            raise MadangError(f"option {name}={value!r}: expected true or false")
        if isinstance(like, int):
            try:
                return int(value)
            except ValueError:
                raise MadangError(f"option {name}={value!r}: expected a whole number") from None
    return value


def _allowed(name, v, allowed):
    if allowed is not None and v not in allowed:
        raise MadangError(
            f"option {name}={v!r} is not allowed; choose one of: {', '.join(map(str, allowed))}"
        )


def _check_budget(meta: dict, opts: dict) -> None:
    b = meta.get("budget")
    if not b:
        return
    src = b["points_from"]
    pts_map = b.get("points")
    points = pts_map.get(opts[src], 0) if pts_map else int(opts[src])
    for name, refund in (b.get("refund") or {}).items():
        if opts.get(name) is True:
            points += refund
    cost, parts = 0, []
    for name, spec in (meta.get("options") or {}).items():
        costs = spec.get("cost")
        if costs:
            c = costs.get(opts[name], costs.get(str(opts[name]), 0))
            if c:
                cost += c
                parts.append(f"{name}={opts[name]} ({c})")
    if cost > points:
        raise MadangError(
            f"the options cost {cost} points but the budget of {src}={opts[src]} is {points}: "
            + ", ".join(parts)
        )


def make_game(prog: Program, options: dict | None, seed: int) -> Game:
    """A new game: its fields those every game of the program and options starts with
    (`_made`, found once), then its seed, its own copy of the options and a new table of
    each that a game fills as it plays (`FRESH`)."""
    key = _options_key(options)
    opts, nplayers = _resolved_options(prog, options, key)
    kept = _kept_tables(prog, key)
    made = kept[1]
    if made is None:
        made = kept[1] = _made(prog, opts, nplayers)
    g = _new(Game)  # (no `__init__`: every field is set here)
    fields = vars(g)
    fields.update(made)
    g.options = opts
    g.seed = int(seed)
    g.shared = kept[0]
    g.card_slots = card_slots(prog)
    # (read again for each game: a test may change the budget's ceiling or the plans' table)
    g.max_steps = budget.allowed(prog.settings.get("max_steps"))
    heard = _heard.get(prog, False)
    if heard is False:
        heard = _heard[prog] = engine.heard_plans(prog)
    g.heard = heard
    for name, make in FRESH:
        fields[name] = make()
    return g


def _made(prog: Program, opts: dict, nplayers: int) -> dict:
    """The fields every game of `prog` with options `opts` starts with, by name: a `Game` made
    by its own `__init__` with its settings, layout and the program's tables; without those
    `make_game` sets for each game."""
    g = Game(prog, nplayers, opts, 0)
    settings = prog.settings
    g.auto_single = bool(settings.get("auto_single", True))
    maps = prog.meta.get("maps") or {}
    which = None
    if maps:
        which = (
            opts.get(settings.get("map_option", "map"))
            if settings.get("map_option", "map") in opts
            else next(iter(maps))
        )
        which = which if isinstance(which, str) and which in maps else None
    # The tables depend only on the program, the players and the map: laid out once for each,
    # then shared by every game of them, since playing never writes into them.
    made = _layouts.setdefault(prog, {})
    layout = made.get((nplayers, which))
    if layout is None:
        layout = made[nplayers, which] = _layout(prog, nplayers, which)
    vars(g).update(layout)  # (plain fields: each set as by setattr)
    g.slot_names = list(prog.prop_slots or ())
    g.slotted = frozenset(g.slot_names)
    out = dict(vars(g))
    for name in PER_GAME:
        del out[name]
    return out


# By program (kept while it lives), the tables of `_layout` by (players, map).
_layouts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

# By program (kept while it lives), its lists of listeners split for engine.collect (`Game.heard`).
_heard: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# By program (kept while it lives), `card_slots`.
_card_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def card_slots(prog: Program) -> list[tuple]:
    """`Program.slot_cards` by card index: a new object's value in each slot, in slot order
    (`Game.card_slots`: engine.create_object appends them to the rows in one pass)."""
    t = _card_slots.get(prog)
    if t is None or len(t) != len(prog.cards):
        slots = prog.slot_cards()
        t = _card_slots[prog] = list(zip(*slots)) if slots else [()] * len(prog.cards)
    return t


# The actions' domains a game keeps by what they read (`Game.domains`: a domain that reads only
# the names bound before it, `you` and counters; besides those, only the map, options and data:
# build/depends.py) are the same in every game of one program and options given, since their
# key holds all the rest: kept for those games too (`Game.shared`, with the work each charged:
# build/enumerators.SHARED_ROWS), so that a playout does not compute them again. Emptied for
# the next game once it holds more than `KEPT_MAX` entries (counters that grow from game to
# game). `Game.grant_cards` is not among them: a grant's condition found there charged its work
# to the game that found it, so a table shared by games would make a game's work (and the
# budget's errors) depend on the games played before it in the process.
KEPT_MAX = 10_000
_kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _kept_tables(prog: Program, key: str) -> list:
    """[`Game.shared`, `_made`'s fields or None] for the games of `prog` with the options
    of `key`."""
    made = _kept.setdefault(prog, {})
    got = made.get(key)
    if got is None:
        got = made[key] = [{}, None]
    elif len(got[0]) > KEPT_MAX:
        got[0] = {}
    return got


def _layout(prog: Program, nplayers: int, which: str | None) -> dict:
    """The zones' instances and the map's areas of a game: `Game`'s fields by name."""
    g = Game(prog, nplayers, {}, 0)
    if which is not None:
        areas = prog.meta["maps"][which].get("areas") or {}
        g.areas = list(areas)
        g.area_index = {a: i for i, a in enumerate(g.areas)}
        g.adjacency = [
            [g.area_index[b] for b in (areas[a].get("adjacent") or []) if b in g.area_index]
            for a in g.areas
        ]
        g.area_props = [dict(areas[a]) for a in g.areas]
    kind_zones = {z for names in prog.kind_zones.values() for z in names}
    for z in prog.zones.values():
        g.zone_base[z.name] = len(g.zone_info)
        count = {"global": 1, "player": nplayers, "area": len(g.areas)}[z.scope]
        for k in range(count):
            inst = len(g.zone_info)
            g.zone_info.append((z.name, k if z.scope != "global" else -1))
            if z.active or z.name in kind_zones:
                g.active_zones.append(inst)
    g.active_set = frozenset(g.active_zones)
    g.zone_player = [k if prog.zones[name].scope == "player" else -1 for name, k in g.zone_info]
    if prog.kind_zones:
        # a kind's `active in` replaces the zones' `active` attribute for its cards
        by_zone = lambda names: frozenset(  # noqa: E731
            z for z, (name, _owner) in enumerate(g.zone_info) if name in names
        )
        marked = by_zone({z.name for z in prog.zones.values() if z.active})
        of_kind = {k: by_zone(set(names)) for k, names in prog.kind_zones.items()}
        g.card_zones = [of_kind.get(c.kind, marked) for c in prog.cards]
    g.renewing = frozenset(
        z for z, (name, _owner) in enumerate(g.zone_info) if prog.zones[name].renews
    )
    for alias, canon in prog.canonical.items():
        if canon in g.zone_base and alias not in g.zone_base:
            g.zone_base[alias] = g.zone_base[canon]
    return {name: getattr(g, name) for name in _LAID_OUT}


_LAID_OUT = (
    "zone_base", "zone_info", "zone_player", "active_zones", "active_set", "card_zones", "renewing", "areas",
    "area_index", "adjacency", "area_props", "laid",
)  # fmt: skip

_new = object.__new__
# The fields of `Game` that `make_game` sets for each game: the seed, the options (a copy),
# the domains kept for the games of the options (`_kept_tables`), the cards' slots (read again:
# a program may be given cards), the budget and the listeners' plans (read again: a test may
# change the ceiling or the plans' table), and a new table of each field made by a factory
# that `_made` does not set (`FRESH`: what a game fills as it plays, never shared by two games:
# the windows' orders and the grants' tables among them, which a flag or a charge of work
# would otherwise carry from one game to the next).
FRESH = tuple(
    (f.name, f.default_factory)
    for f in dataclasses.fields(Game)
    if f.default_factory is not dataclasses.MISSING
    and f.name not in _LAID_OUT
    and f.name not in ("shared", "card_slots", "slot_names")
)
PER_GAME = (
    "options", "seed", "shared", "card_slots", "max_steps", "heard",
) + tuple(n for n, _ in FRESH)  # fmt: skip


def start(st: State, run: bool = True) -> None:
    """Counters to their defaults, then the flow with setup on top of it."""
    g = st.g
    prog = g.prog
    for name, c in prog.counters.items():
        default = prog.counter_defaults[name]
        if c.scope == "global":
            st.counters[name] = default(st, {})
        elif c.scope == "player":
            st.pcounters[name] = [default(st, {"you": p}) for p in range(g.nplayers)]
        else:
            st.acounters[name] = [default(st, {}) for _ in g.areas]
        if c.low is not None or c.high is not None:  # a start value from an expression: held too
            values = [st.counters[name]] if c.scope == "global" else st.pcounters.get(name)
            values = values if values is not None else st.acounters[name]
            for i, v in enumerate(values):
                if not c.holds(v):
                    c.refuse(st, v, c.where, None if c.scope == "global" else i)
    st.frames = [Frame(prog.flow_block, {}, -1, FUNC), Frame(prog.setup_block, {}, -1, FUNC)]
    if run:
        try:
            engine.run(st)
        except RulesError:
            raise


def flow_names(st: State, point: FlowPoint, given: dict) -> dict:
    """The flow's local names at `point`: each bound before it takes the value given, else
    its `let`'s value computed now (in order, so that one may read those before it). A name
    with neither, or a given name the flow does not have there, is an error."""
    known = [name for name, _value, _span in point.names]
    for name in given:
        if name not in known:
            hint = _did_you_mean(str(name), known)
            raise MadangError(
                f"the flow has no name '{name}' at {point.name}"
                + (f" ({hint})" if hint else f"; its names there: {', '.join(known) or 'none'}")
            )
    env: dict = {}
    for name, value, span in point.names:
        if name in given:
            env[name] = given[name]
        elif value is not None:
            env[name] = value(st, env)
        elif name not in env:
            raise MadangError(
                f"the flow's name '{name}' ({span}) has no value at {point.name}: no `let`"
                " declares one; give it"
            )
    return env


def enter_flow(st: State, point: FlowPoint, env: dict) -> None:
    """The flow's frames as they are just before `point` begins, beneath any frame already
    there (a setup still to run): the game goes on from the point, through the rest of the
    flow. Scopes around the point are already begun: their turn, round and phase are the
    state's (no turn is counted for them)."""
    if point.blocked:
        raise MadangError(f"a game cannot start at {point.name} ({point.span}): {point.blocked}")
    frames = []
    for block, pc, ctl, kind, tag in point.frames:
        extra = {"phase": st.phase} if tag == "scope" else None
        frames.append(Frame(block, env, ctl, kind, [] if tag == "hold" else None, 0, extra, pc))
    st.frames[:0] = frames


def run_setup(st: State) -> None:
    """The ruleset's `setup:` alone, to its end, with the flow not started (a game that will
    start at a point of its flow): a setup that asks for a decision, or ends the game, is an
    error."""
    g = st.g
    st.frames = [Frame(g.prog.setup_block, {}, -1, FUNC)]
    engine.run(st)
    if st.pending is not None or st.frames or st.winners:
        raise MadangError(
            "the ruleset's setup asks for a decision or ends the game: a game that starts at a"
            " point of the flow needs its position set up instead"
        )
    st.over = False  # the frames ran out: the flow, not the game, is yet to come
