"""What a save file must be before a game resumes from it.

A save is data anyone can edit. The engine trusts its state (an object is in one zone, the step
budget counts up, state checks are on), so a hand-edited save is checked first: its shape against
a JSON Schema, then the invariants the engine keeps, each refusal naming the path of the value
(`state.objects.zone[3]`) and what is wrong with it.
"""

from __future__ import annotations

import json
import math

import jsonschema

from ..runtime.state import CHECK

_INT = {"type": "integer"}
_NAT = {"type": "integer", "minimum": 0}
_INTS = {"type": "array", "items": _INT}

STATE_SCHEMA = {
    "type": "object",
    "required": [
        "zones",
        "objects",
        "props",
        "counters",
        "player_counters",
        "area_counters",
        "mods",
        "grants",
        "envs",
        "frames",
        "pending",
        "has_answer",
        "answer",
        "rng",
        "active",
        "first",
        "direction",
        "turn",
        "round",
        "phase",
        "used",
        "lost",
        "over",
        "winners",
        "checking",
        "steps",
        "decisions",
        "ts",
    ],  # fmt: skip
    "properties": {
        "zones": {"type": "array", "items": {"type": "array", "items": _NAT}},
        "objects": {
            "type": "object",
            "required": ["card", "zone", "owner"],
            "properties": {
                "card": _INTS,
                "zone": _INTS,
                "owner": _INTS,
                "from": _INTS,
                "moves": _INTS,
            },
        },
        "props": {"type": "object", "additionalProperties": {"type": "array"}},
        "counters": {"type": "object"},
        "player_counters": {"type": "object", "additionalProperties": {"type": "array"}},
        "area_counters": {"type": "object", "additionalProperties": {"type": "array"}},
        "mods": {"type": "array", "items": {"type": "array"}},
        "grants": {"type": "array", "items": {"type": "array"}},
        "shown": {"type": "array", "items": {"type": "array", "minItems": 3, "maxItems": 3}},
        "envs": {"type": "array", "items": {"type": "object"}},
        "frames": {"type": "array", "items": {"type": "array", "minItems": 8, "maxItems": 8}},
        "pending": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["player", "prompt", "values", "kind", "type"],
                    "properties": {
                        "player": _NAT,
                        "prompt": {"type": "string"},
                        "values": {"type": "array"},
                        "kind": {"type": "string"},
                    },
                },
            ]
        },
        "has_answer": {"type": "boolean"},
        "rng": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        "active": _NAT,
        "first": _NAT,
        "direction": {"enum": [1, -1]},
        "turn": _NAT,
        "round": _NAT,
        "phase": {"type": "string"},
        "used": {"type": "array", "items": {"type": "array"}},
        "lost": {"type": "array", "items": _NAT, "uniqueItems": True},
        "over": {"type": "boolean"},
        "winners": {"type": "array", "items": _NAT, "uniqueItems": True},
        "checking": _NAT,
        "steps": _NAT,
        "decisions": _NAT,
        "ts": _NAT,
    },
}


class BadSave(ValueError):
    """A save that must not be played on; the message says where and why."""


def loads(text: str) -> object:
    """JSON without NaN or Infinity (Python's json accepts them; they break every comparison)."""

    def refuse(name: str):
        raise BadSave(f"{name} is not a number a save may hold")

    return json.loads(text, parse_constant=refuse)


def _path(parts) -> str:
    out = "state"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def check_state(data: object, g) -> None:
    """Raise BadSave unless `data` (a save's `state`) is one the engine could have written for
    the game `g`."""
    errors = sorted(
        jsonschema.Draft202012Validator(STATE_SCHEMA).iter_errors(data),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    if errors:
        e = errors[0]
        raise BadSave(f"{_path(e.absolute_path)}: {e.message}")
    _check_invariants(data, g)


def check_chance(data: object, st) -> dict:
    """A save's `chance` (game/api.py): how chance is played and, at a chance node, the answer
    that began the step (an option of the saved state's decision, or none before setup) and
    the outcomes chosen since. A save without it is of a game with sampled chance."""
    if data is None:
        return {"mode": "sampled"}
    if not isinstance(data, dict) or data.get("mode") not in ("sampled", "explicit"):
        raise BadSave("chance: mode must be sampled or explicit")
    if set(data) - {"mode", "answer", "outcomes"}:
        raise BadSave(f"chance: unknown keys {sorted(set(data) - {'mode', 'answer', 'outcomes'})}")
    if "outcomes" not in data:
        return data
    outcomes, answer = data["outcomes"], data.get("answer")
    if not isinstance(outcomes, list) or not all(
        isinstance(k, int) and not isinstance(k, bool) and 0 <= k for k in outcomes
    ):
        raise BadSave("chance.outcomes must be a list of whole numbers from 0")
    if answer is None:
        if st.frames or st.decisions:
            raise BadSave("chance.answer: none only before the game has started")
    elif not (
        isinstance(answer, int)
        and not isinstance(answer, bool)
        and st.pending is not None
        and 0 <= answer < len(st.pending.values)
    ):
        raise BadSave("chance.answer is not an option of the saved decision")
    return data


def _fresh_counters(g) -> dict[str, set[str]]:
    """The counter names a state of this game holds, by table: those the rules declare."""
    table = {"global": "counters", "player": "player_counters"}
    out: dict[str, set[str]] = {"counters": set(), "player_counters": set(), "area_counters": set()}
    for name, c in g.prog.counters.items():
        out[table.get(c.scope, "area_counters")].add(name)
    return out


def _fail(where: str, what: str):
    raise BadSave(f"{where}: {what}")


def _check_invariants(d: dict, g) -> None:  # noqa: C901 - one check after another
    prog = g.prog
    n_players, n_zones, n_cards = g.nplayers, len(g.zone_info), len(prog.cards)
    zones, objs = d["zones"], d["objects"]
    if len(zones) != n_zones:
        _fail("state.zones", f"{len(zones)} zones, but this game has {n_zones}")
    cards, where, owners = objs["card"], objs["zone"], objs["owner"]
    if not len(cards) == len(where) == len(owners):
        _fail("state.objects", "card, zone and owner lists differ in length")
    for key in ("from", "moves"):
        if key in objs and len(objs[key]) != len(cards):
            _fail(f"state.objects.{key}", "differs in length from the card list")
    for i, s in enumerate(d.get("shown") or ()):
        if not (0 <= s[0] < len(cards) and 0 <= s[1] < n_players):
            _fail(f"state.shown[{i}]", f"no object {s[0]} or no player {s[1]}")
    n_objs = len(cards)
    for i, c in enumerate(cards):
        if not 0 <= c < n_cards:
            _fail(f"state.objects.card[{i}]", f"no card {c} (the ruleset has {n_cards})")
    for i, p in enumerate(owners):
        if not -1 <= p < n_players:
            _fail(f"state.objects.owner[{i}]", f"no player {p}")
    seen: dict[int, int] = {}
    for z, contents in enumerate(zones):
        for k, o in enumerate(contents):
            if o >= n_objs:
                _fail(f"state.zones[{z}][{k}]", f"no object {o} (there are {n_objs})")
            if o in seen:
                _fail(f"state.zones[{z}][{k}]", f"object {o} is also in zone {seen[o]}")
            seen[o] = z
            if where[o] != z:
                _fail(f"state.objects.zone[{o}]", f"says {where[o]}, but the object is in {z}")
    for o, z in enumerate(where):
        if o not in seen and z != -1:
            _fail(f"state.objects.zone[{o}]", f"says {z}, but no zone holds the object")
    fresh = _fresh_counters(g)
    for key, names in fresh.items():
        if set(d[key]) != names:
            missing, extra = sorted(names - set(d[key])), sorted(set(d[key]) - names)
            _fail(
                f"state.{key}", f"missing {missing[0]!r}" if missing else f"no counter {extra[0]!r}"
            )
    for name, value in d["counters"].items():
        _number_ok(f"state.counters.{name}", value)
    for key in ("player_counters", "area_counters"):
        size = n_players if key == "player_counters" else len(g.areas)
        for name, values in d[key].items():
            if len(values) != size:
                _fail(f"state.{key}.{name}", f"{len(values)} values for {size}")
            for i, v in enumerate(values):
                _number_ok(f"state.{key}.{name}[{i}]", v)
    for key in ("active", "first"):
        if not d[key] < n_players:
            _fail(f"state.{key}", f"no player {d[key]}")
    for key in ("lost", "winners"):
        for i, p in enumerate(d[key]):
            if p >= n_players:
                _fail(f"state.{key}[{i}]", f"no player {p}")
    n_envs, n_blocks, n_stmts = len(d["envs"]), len(prog.blocks), len(prog.stmts)
    checks = 0
    for i, f in enumerate(d["frames"]):
        block, pc, env, ctl, kind = f[:5]
        at = f"state.frames[{i}]"
        if not (isinstance(block, int) and 0 <= block < n_blocks):
            _fail(at, f"no block {block!r}")
        if not (isinstance(pc, int) and 0 <= pc <= len(prog.blocks[block])):
            _fail(at, f"position {pc!r} is outside its block")
        if not (isinstance(env, int) and 0 <= env < n_envs):
            _fail(at, f"no local names {env!r}")
        if not (isinstance(ctl, int) and -1 <= ctl < n_stmts):
            _fail(at, f"no statement {ctl!r}")
        if not (isinstance(kind, int) and 0 <= kind <= CHECK):
            _fail(at, f"no kind of frame {kind!r}")
        checks += kind == CHECK
    if d["checking"] > checks:
        _fail("state.checking", f"{d['checking']} state checks in progress, but {checks} frames")
    p = d["pending"]
    if p is not None:
        if p["player"] >= n_players:
            _fail("state.pending.player", f"no player {p['player']}")
        if not p["values"] and not d["over"]:
            _fail("state.pending.values", "a decision without options")
        for i, v in enumerate(p["values"]):
            _option_ok(f"state.pending.values[{i}]", v, p, g, n_objs)
    if d["over"] and p is not None:
        _fail("state.pending", "the game is over but a decision is pending")
    _check_outcome(d, n_players)
    _check_objects_read(d, g, n_objs)


def _check_outcome(d: dict, n_players: int) -> None:
    """Who won and who lost agree with whether the game is over: a save is made at a decision
    or at the end, never between, and no player both wins and loses."""
    for i, p in enumerate(d["winners"]):
        if p in d["lost"]:
            _fail(f"state.winners[{i}]", f"player {p} has also lost")
    if d["winners"] and not d["over"]:
        _fail("state.winners", "the game has winners but is not over")
    if not d["over"] and d["pending"] is None:
        _fail("state.pending", "the game is neither over nor waiting for a decision")
    p = d["pending"]
    if p is not None and p["player"] in d["lost"]:
        _fail("state.pending.player", f"player {p['player']} has lost and decides nothing")
    if len(d["lost"]) > n_players:
        _fail("state.lost", "more players lost than play")


def _check_objects_read(d: dict, g, n_objs: int) -> None:
    """The tables that name objects (properties, modifiers, granted keywords, where an object
    came from) name objects and zones that exist, with numbers a game may hold."""
    n_zones = len(g.zone_info)
    objs = d["objects"]
    for i, z in enumerate(objs.get("from") or ()):
        if not -1 <= z < n_zones:
            _fail(f"state.objects.from[{i}]", f"no zone {z}")
    for i, m in enumerate(objs.get("moves") or ()):
        if m < 0:
            _fail(f"state.objects.moves[{i}]", "a negative number of moves")
    for name, entries in d["props"].items():
        for k, e in enumerate(entries):
            at = f"state.props.{name}[{k}]"
            if not (isinstance(e, list) and len(e) == 2):
                _fail(at, "not an [object, value] pair")
            if not (isinstance(e[0], int) and 0 <= e[0] < n_objs):
                _fail(at, f"no object {e[0]!r}")
            _number_ok(at, e[1])
    # (object, property, amount, until, timestamp[, operation]); (object, keyword, until,
    # timestamp[, arguments])
    for key, widths, at_ts in (("mods", (5, 6), 4), ("grants", (4, 5), 3)):
        for k, m in enumerate(d[key]):
            at = f"state.{key}[{k}]"
            if len(m) not in widths:
                _fail(at, f"{len(m)} items, not {' or '.join(map(str, widths))}")
            target, ts = m[0], m[at_ts]
            if (
                isinstance(target, int)
                and not isinstance(target, bool)
                and not 0 <= target < n_objs
            ):
                _fail(at, f"no object {target}")
            if not (isinstance(ts, int) and 0 <= ts <= d["ts"]):
                _fail(at, f"timestamp {ts!r} is not one the game has reached ({d['ts']})")
            if key == "mods":
                _number_ok(at, m[2])


def _option_ok(where: str, v, pending: dict, g, n_objs: int) -> None:
    """An option of the pending decision names things that exist: an action of the rules with
    its arguments and source, a waiting trigger, an object, player, zone or area."""
    prog = g.prog
    if pending.get("kind") == "window":
        if isinstance(v, str):
            return
        if not (isinstance(v, list) and len(v) == 3 and isinstance(v[1], list)):
            _fail(where, "not an action [id, arguments, source]")
        aid, args, src = v
        if not (isinstance(aid, int) and 0 <= aid < len(prog.actions)):
            _fail(where, f"no action {aid!r}")
        act = prog.actions[aid]
        if len(args) != len(act.param_types):
            _fail(where, f"{len(args)} arguments for {len(act.param_types)}")
        if src is not None:
            _value_ok(where, src, "object", g, n_objs)
        for k, (x, t) in enumerate(zip(args, act.param_types)):
            _value_ok(f"{where}[1][{k}]", x, t, g, n_objs)
        return
    t = pending.get("type")
    if t == "trigger":
        if not (isinstance(v, list) and len(v) == 2 and v[0] in prog.listener_by_id):
            _fail(where, "not a waiting trigger [listener, source]")
        if v[1] is not None:
            _value_ok(where, v[1], "object", g, n_objs)
        return
    _value_ok(where, v, tuple(t) if isinstance(t, list) else t, g, n_objs)


def _value_ok(where: str, v, t, g, n_objs: int) -> None:
    from ..runtime.engine import DONE

    if v is None or isinstance(v, bool) or v == DONE:  # DONE: "stop choosing" of a choice
        return
    if isinstance(v, list):
        inner = t[1] if isinstance(t, tuple) and len(t) > 1 else "any"
        for k, x in enumerate(v):
            _value_ok(f"{where}[{k}]", x, inner, g, n_objs)
        return
    size = {"player": g.nplayers, "zone": len(g.zone_info), "area": len(g.areas)}.get(t)
    if t == "object" or t in getattr(g.prog, "kinds", {}):
        size = n_objs
    if size is not None and not (isinstance(v, int) and 0 <= v < size):
        _fail(where, f"no {t} {v!r}")
    if isinstance(v, float) and not math.isfinite(v):
        _fail(where, "not a finite number")


def _number_ok(where: str, v) -> None:
    if isinstance(v, float) and not math.isfinite(v):
        _fail(where, "not a finite number")
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**62:
        _fail(where, "a number too large for a game")
