"""An action's legal options → one generated Python function, its enumerator: nested loops
over the parameters' domains, each part of its `require`s tested at the outermost loop where
what it reads is bound, a domain kept per game or per listing where it reads nothing that
changes in between.

`Enumerators` is the generator of expressions (codegen.CodeGen) with the listings added: an
enumerator's tests and domains are expressions written with the loops' names bound as Python
locals (`bound`), and values kept at an outer loop (`_hoist`, build/hoist.py) where the
expressions' own code asks for them (`CodeGen.hoisted_define`).
"""

from __future__ import annotations

import re

from ..language import nodes as n
from ..language import resolved as rv
from ..runtime import budget, owned
from ..runtime.builtins import BUILTIN_FUNCS
from .codegen import (
    _GUARDED,
    _NEVER_NONE,
    _READ,
    _SIMPLE,
    INLINE_DEPTH,
    CodeGen,
    _bare,
    _fusible,
    _grouped,
    _once,
    _pure,
    above_zero,
    bounds_joined,
    bracket_depths,
    define,
    py_name,
    unquoted,
)
from .hoist import params_read

_SEATS = rv.BuiltinRef("players")
_SCALARS = frozenset(("object", "card", "zone", "area", "player", "number", "text"))
KEEP_OUTER = True  # values kept at an outer loop of an enumerator (off: tests compare)
# a `where` over a zone in an enumerator's test or domain tests the zone's emptiness before the
# comprehension: `([...] if (zg0_ := st.zones[z]) else [])` (nothing to charge, no frame made)
GUARD_EMPTY = True
_ENV = re.compile(r"\benv\b")  # a name of the env's read or written
_BASE = re.compile(r"st\.g\.zone_base\[('[^'\\]*')\]")  # a zone name's first index: per game
_ROW = re.compile(r"(st\.[ap]counters\['[^'\\]*'\])\[")  # a counter's row, indexed
_ROW_LOOP = re.compile(r"(st\.[ap]counters\['[^'\\]*'\])\[v\d+\]")  # ... by a loop's value
# a counter's row read at a loop's value, and a game counter's value, a property's row
# (`st.pv[k]`) and whether a printed property was ever written (`'p' not in st.props`) read in
# a loop, read once a listing into a local
# (`_bases`): nothing writes the state while a listing is made
ROW_LOCALS = True
_LISTING_VALUE = re.compile(r"st\.counters\['[^'\\]*'\]|'[^'\\]*' not in st\.props|st\.pv\[\d+\]")
# each object's owner and card (`st.obj_owner`, `st.obj_card`) read in a loop: their lists read
# once a listing into a local (`own_`, `ocd_`), as `ROW_LOCALS`' rows
OBJ_ROWS = True
_OBJ_ROW = re.compile(r"st\.obj_(owner|card)\b")
_OBJ_LOCAL = {"owner": "own_", "card": "ocd_"}
_BASE_LOOP = re.compile(r"st\.g\.zone_base\[('[^'\\]*')\] \+ v\d+\)")  # a loop's value's zone
# a `require` part `if C then A else B` (also a definition's body) split by level: the parts of
# A and B that read only names bound at an outer loop tested there, `(A0 if C else B0)`, with
# the definition's computed arguments written where their parameter is read
SPLIT_IF = True
# `require c is K and c.P <= E` (P a printed property nothing writes, E read before `c`'s loop):
# `P`'s least value among the cards of kind K compared with E where E is bound, before `c`'s
# domain is listed (no option when even the cheapest card of the kind fails)
KIND_BOUNDS = True
_BOUND_OPS = {"<=": ("_le", True), "<": ("_lt", True), ">=": ("_ge", False), ">": ("_gt", False)}
# an enumerator's first test, when it reads only counters (the player's or the game's) and
# numbers, also made a function of its own (`ActionRT.guard`, one per distinct source): a
# window whose actions share it tests it once per listing and skips the actions it fails
# (runtime/engine.py's `enumerate_actions`)
SHARED_GUARDS = True
# a domain that is a zone's objects where a condition holds (or what of each, `(Z where C).p`),
# or `unique` of that, computed at each binding or once per listing (not kept per game):
# written as statements, the zone gone through by a loop (no comprehension's frame, no `_each`
# nor `_unique` call)
DOMAIN_LOOPS = True
_WHERE_DOMAIN = re.compile(
    r"\[(.*?) for it0 in _each\(st, zg0_\) if (.*)\] if \(zg0_ := (.*)\) else \[\]"
)  # (without the parentheses around it: `_bare`)
# a test part `X or Y`, X whether an object of a zone matches (`exists(first(Z where P))`, P
# pure): X's zone gone through to its first match in statements, Y tested only if none did
OR_SCANS = True
# a domain kept per game (`domain_key`): the entry of the listing's action, parameter, `you`
# and counters' values (a dictionary of the domains by the names' values) looked up once per
# listing, when first needed, then only the names' values per binding (off: the whole key,
# the counters' rows included, made and hashed at each binding)
KEPT_ROWS = True
# `this` in an enumerator read as its `src` argument (which every caller gives as the env's
# `this`), not from the env: an enumerator that reads no other name from the env writes no
# parameter into it (a definition's call passes `this` on)
THIS_SRC = True
# a domain kept for the listing and filtered by its own tests (`h{i}`, computed at the first
# binding that needs it) made before the loops of the parameters before it when those are pure:
# an empty one ends the listing before them (the areas a player may place in, found first)
EMPTY_FIRST = True
# a test part that is whether a `where` over a zone has a first match written through a
# definition (`exists(first(D(you, x)))`: `((G) or (None,))[0] is not None`, G the
# guarded comprehension), its condition fusible: gone through to its first match as the
# scans of `exists(first(Z where P))` are (no list of the matches)
FIRST_SCANS = True
_FIRST_TAIL = " or (None,))[0] is not None"
# a domain kept per game (`KEPT_ROWS`) not yet in this game's rows looked up among those the
# games of the same program and options computed (`Game.shared`, runtime/setup.py): taken with
# the work its computation charged there, so that the game charges what it charged before
# (computed again where that work would pass the budget, for the same error)
SHARED_ROWS = True
# a parameter's domain that is a zone's objects where `C and D` (or what of each, or `unique` of
# that), computed at each binding right after a test part that is whether an object of the same
# zone matches `C` (the scan above): the domain's loop goes on from the scan's first match (an
# iterator of the zone), that match tested only for `D`, not the zone again from its start
SCAN_DOMAINS = True
# `SCAN_DOMAINS`' two charges of the zone (the test's, the domain's) made as one after the scan
# where it found a match (the test's alone where it found none): the scan is pure, so the same
# work and the same error ('a list', raised where both charges pass the budget)
SCAN_CHARGES = True
# `SCAN_DOMAINS`' charges of the zone and of `unique` made after the domain is built and its
# repeats dropped (pure, bounded by the zone, raising nothing), then joined with the charges
# that follow them with nothing between (`_joined_charges`): the same work, one budget test
# for all (`_charges` finds, only where the sum passes the budget, the error of the first)
SCAN_ONE_CHARGE = True
_AMOUNT = (
    r"(?:len\(\w+\)(?: \* \d+)?|\w+)"  # a length or a name held: reads no work, raises nothing
)
_CHARGE_ADD = re.compile(rf"( *)st\.work \+= ({_AMOUNT}(?: \+ {_AMOUNT})*)")
_CHARGE_TEST = re.compile(r"( *)if st\.work > st\.work_limit: _charge(s?)\(st, (.+)\)")
# an enumerator whose loops charge work: its charges added up in a local (`dw_ += A`), the
# budget tested only where a parameter's loop is charged (against the budget left when the
# listing began, `rm_`) and where the listing ends; where either passes it, or the listing
# raises, the listing is made again by the enumerator as written, charging one by one, from
# the work it began with (`budget.relist`): the same error and work. A zone's scan and a list
# built from one (`'a list'`, `'unique'`) are bounded by the zone: charged without a test.
DEFERRED_CHARGES = True
_UNTESTED = frozenset(("'a list'", "'unique'"))
_PASSES_ST = re.compile(r"\bst\.work\b|[(,] ?st\b(?![.\w])")  # reads the work, or passes `st`
_FREE_OF_WORK = re.compile(r"_players\(st\)")  # calls that charge nothing
_CACHE_WRITE = re.compile(r"( *)cache\[(\w+)\] = d\d+")
_ROW_WRITE = re.compile(r"( *)d\d+ = (kk\d+)\[([^\]]*)\] = ")
_KEPT_WRITE = re.compile(r"( *)d\d+ = st\.g\.domains\[kd_\] = (.*)")
_RETURN = re.compile(r"\breturn\b")
_LOOP = re.compile(r"\s*for (v\d+)\b")  # a parameter's loop
# `you` read from the env by subscript (every caller's env holds it), not `env.get`
YOU_GIVEN = True
# a loop over the areas whose body first reads the area's zone (`zg0_ = st.zones[(st.g.
# zone_base['z'] + v0)]`) goes through those zones with the areas (`enumerate` of a slice of
# `st.zones`: a listing's state does not change while it is made)
AREA_ZONES = True
_AREA_TEST = re.compile(r"if not \(\(st\.acounters\['([^'\\]*)'\]\[(v\d+)\] > 0\)\): continue")
_AREA_ZONE = re.compile(r"zg0_ = st\.zones\[\((st\.g\.zone_base\['[^'\\]*'\]) \+ (v\d+)\)\]")
# a test part `X or Y`, X and Y whether an object of the same zone matches `A and B` and
# `A and C` (B, C pure): the zone gone through once, `C` noted up to its first match while
# looking for `A and B`, the second scan's charge made where X found none (`OR_SCANS` first)
OR_ONE_SCAN = True
# a parameter whose domain holds objects only (a zone's contents, a `where` or a slice of them):
# its loop variable held as an object, its tests written without none tests
HELD_PARAMS = True
_RESET = re.compile(r"\s*[hk]\w* = (?:None|\{\})")  # `reset`'s lines: values kept at a level
_GUARD_TOKEN = re.compile(
    r"\s+|st\.pcounters\['[^'\\]*'\]\[you_\]|st\.counters\['[^'\\]*'\]|\d+(?:\.\d+)?"
    r"|==|!=|<=|>=|<|>|\(|\)|\b(?:and|or|not|if|else|True|False|None)\b"
)


def _bases(lines: list[str], pad: str) -> list[str]:
    """`lines` of an enumerator with the base index of each zone name read with a loop's
    value (`st.g.zone_base['z'] + v0`: the same for a whole game) read once into a variable
    before them, not at each use in the loop; and each counter's row read at a loop's value
    (`st.acounters['c'][v0]`: nothing writes it while a listing is made) likewise."""
    text = "\n".join(lines)
    found = sorted(set(_BASE_LOOP.findall(text)))  # those read per loop value
    rows = sorted(set(_ROW_LOOP.findall(text))) if ROW_LOCALS else []
    looped = "\n".join(x for x in lines if x.startswith(pad + "    ") or " for " in x)
    values = sorted(set(_LISTING_VALUE.findall(looped))) if ROW_LOCALS else []
    objs = sorted(set(_OBJ_ROW.findall(looped))) if OBJ_ROWS else []
    if not found and not rows and not values and not objs:
        return lines
    names = {k: f"zb{i}_" for i, k in enumerate(found)}
    held = {k: f"cr{i}_" for i, k in enumerate(rows)}
    known = {k: f"lv{i}_" for i, k in enumerate(values)}
    head = [f"{pad}{v} = st.g.zone_base[{k}]" for k, v in names.items()]
    head += [f"{pad}{v} = {k}" for k, v in (held | known).items()]
    head += [f"{pad}{_OBJ_LOCAL[k]} = st.obj_{k}" for k in objs]
    out = [_BASE.sub(lambda m: names.get(m.group(1), m.group(0)), x) for x in lines]
    if held:
        out = [_ROW.sub(lambda m: held.get(m.group(1), m.group(1)) + "[", x) for x in out]
    if known:
        out = [_LISTING_VALUE.sub(lambda m: known[m.group(0)], x) for x in out]
    if objs:
        out = [_OBJ_ROW.sub(lambda m: _OBJ_LOCAL[m.group(1)], x) for x in out]
    return head + out


def _area_zones(lines: list[str], loops: list[str], counted: set[str]) -> None:
    """`AREA_ZONES`: each loop of `loops` (a parameter going through every area, in order)
    whose body first reads the area's zone into `zg0_` (after the parameter's write into the
    env, if any) written as a loop over the areas and their zones, without that line; one
    whose body first tests `c > 0` of an area counter `c` of `counted` (never below 0) as a
    loop over the areas where `c` is not 0 (`itertools.compress`), without that test."""
    if not AREA_ZONES:
        return
    for head in loops:
        at = lines.index(head)
        body = at + 1
        if lines[body].strip().startswith("env["):
            body += 1
        var = head.strip()[len("for ") :].split(" ", 1)[0]
        tested = _AREA_TEST.fullmatch(lines[body].strip())
        if tested is not None and tested.group(2) == var and tested.group(1) in counted:
            # only the areas whose counter is above 0 (never below it): their loop in C
            row = f"st.acounters[{tested.group(1)!r}]"
            lines[at] = head = f"{head[: -len(':')].replace(' in ', ' in _compress(', 1)}, {row}):"
            del lines[body]
            continue
        m = _AREA_ZONE.fullmatch(lines[body].strip())
        if m is None or m.group(2) != var:
            continue
        base, seq = m.group(1), head.strip()[len(f"for {var} in ") : -1]
        pad = head[: len(head) - len(head.lstrip())]
        zones = f"st.zones[{base} : {base} + len({seq})]"
        lines[at] = f"{pad}for {var}, zg0_ in enumerate({zones}):"
        del lines[body]


def _top_split(src: str, word: str) -> list[str] | None:
    """The items of `src` split at its top-level ` and `s or ` or `s (`word`); None when it
    has a top-level conditional or `lambda`, where the split would not be that operator's."""
    parts, start = [], 0
    sep = f" {word} "
    for k, ch, depth in bracket_depths(src):
        if k < start or depth or ch != " ":
            continue
        if src.startswith((" if ", " else ", " lambda"), k):
            return None
        if src.startswith(sep, k):
            parts.append(src[start:k])
            start = k + len(sep)
    parts.append(src[start:])
    return None if src.startswith("lambda") else parts


def _first_of(src: str) -> tuple[str, str] | None:
    """(zone, condition) when `src` is whether a guarded `where` over a zone has a first
    match, `((G) or (None,))[0] is not None` (`FIRST_SCANS`), its condition fusible: testing
    the objects up to the first match gives the same truth and charges at most what the list
    of all matches charged (the zone's length first, the condition's own lists for the objects
    it tests); else None."""
    if not (src.startswith("(") and src.endswith(_FIRST_TAIL)):
        return None
    listed = src[1 : -len(_FIRST_TAIL)]
    if _grouped(listed) != listed:
        return None
    m = _GUARDED.fullmatch(f"({_bare(listed)})")
    if m is None or "zg0_" in m.group(1) + m.group(2) or not _fusible(m.group(1)):
        return None
    return m.group(2), m.group(1)


def _names_read(e, res) -> set[str]:
    """The local names (parameters, `let`s) an expression reads."""
    out: set[str] = set()
    for x in e.walk():
        if isinstance(x, n.Name):
            r = res.name_of(x)
            if r is None or isinstance(r, rv.LocalRef):
                out.add(x.name)
        elif isinstance(x, n.Has) and isinstance(res.name_of(x), rv.LocalRef):
            out.add(x.keyword)
    return out


def _unique_lines(var: str, pad: str) -> list[str]:
    """`unique` of a domain's list `var` built by a loop: its charge, its repeats dropped
    (`dict.fromkeys` keeps the first of each, in order)."""
    return [
        f"{pad}st.work += len({var})",
        f"{pad}if st.work > st.work_limit: _charge(st, 0, 'unique')",
        f"{pad}if len({var}) > 1: {var} = list(dict.fromkeys({var}))",
    ]


def _joined_charges(lines: list[str]) -> list[str]:
    """Two charges in a row (`st.work += A` and its budget test, then `st.work += B` and its),
    nothing between them, made as one: `A + B` added, one test, whose error where the sum
    passes the budget is that of the first of them to pass it (`_charges`). `B` is a length
    or a count the generated code holds (it reads no work, charges and raises nothing)."""
    out: list[str] = []
    for x in lines:
        out.append(x)
        if len(out) < 4 or not (t2 := _CHARGE_TEST.fullmatch(x)):
            continue
        a1, a2 = _CHARGE_ADD.fullmatch(out[-4]), _CHARGE_ADD.fullmatch(out[-2])
        t1 = _CHARGE_TEST.fullmatch(out[-3])
        if not (a1 and t1 and a2) or len({a1[1], t1[1], a2[1], t2[1]}) > 1:
            continue
        pad, parts = a1[1], []
        for a, t in ((a1, t1), (a2, t2)):  # `_charge(st, 0, W)` after `+= A`: the part `A, W`
            if t[2]:
                parts.append(t[3])
            elif t[3].startswith("0, "):
                parts.append(f"{a[2]}, {t[3][3:]}")
            else:
                break
        else:
            out[-4:] = [
                f"{pad}st.work += {a1[2]} + {a2[2]}",
                f"{pad}if st.work > st.work_limit: _charges(st, {', '.join(parts)})",
            ]
    return out


def _indent(x: str) -> int:
    return len(x) - len(x.lstrip())


def _charges_work(src: str) -> bool:
    """Whether generated code may charge work: it reads the work or passes the state on."""
    return _PASSES_ST.search(_FREE_OF_WORK.sub("", unquoted(src))) is not None


def _deferred(lines: list[str], exact: str, fixed: set[str]) -> list[str] | None:
    """`DEFERRED_CHARGES`: the enumerator's `lines` with their charges added up in a local, or
    None where no parameter's loop scans a zone (few charges a listing: not worth the local).
    After its last `return` (its first tests, charged as written), the rest runs in a `try`
    whose end (the last line, an error) adds the local to the work and tests the budget once;
    `exact` (the same lines, as written) makes the listing again, from the work it began with
    (`w0_`), where it passed. A kept domain written on the way (found again, it charges
    nothing) is noted to be forgotten first (`ud_`). The loops of `fixed` (the areas', the
    seats', inside such loops only) are charged without a test."""
    charging = [k for k, x in enumerate(lines) if _charges_work(x)]
    if not charging:
        return None
    first = _statement_at(lines, charging[0])
    last = max((k for k, x in enumerate(lines) if _RETURN.search(unquoted(x))), default=0)
    start = max(first, _statement_after(lines, last))
    if start >= len(lines) or not _scans_in_loops(lines[start:]):
        return None
    noted, undo = _noted(lines, first)
    body = _added_up(noted[start - first :], fixed)
    direct = body[0].startswith("    dw_ += ")  # the first statement a charge: the local made by it
    if direct:
        body[0] = body[0].replace("dw_ += ", "dw_ = ", 1)
    tested = any(x.endswith("if dw_ > rm_: raise _Again") for x in body)
    w0 = "w0_" if start > first or not tested else "st.work_limit - rm_"
    return (
        lines[:first]
        + ["    w0_ = st.work"] * (start > first)
        + ["    ud_ = []"] * undo
        + noted[: start - first]
        + (
            ["    rm_ = st.work_limit - st.work"]
            if tested
            else ["    w0_ = st.work"] * (start == first)
        )
        + ["    dw_ = 0"] * (not direct)
        + ["    try:"]
        + ["    " + x for x in body]
        + [
            "    except (RulesError, _Again):",
            "        dw_ = st.work_limit + 1 - st.work",
            "    finally:",
            "        st.work += dw_",
            "        if st.work > st.work_limit:",
            f"            _relist(st, {exact}, env, src, values, cache, {w0}, "
            f"{'ud_' if undo else '()'})",
        ]
    )


# a deferred listing's loop over the areas whose first test is whether an object of `you`
# is in the area's zone goes only through the areas where `you` owns objects (`State.kn`,
# runtime/owned.py), the other areas' zones charged as one total of that zone's objects
OWNED_AREAS = True
_ZONES_LOOP = re.compile(
    r"( *)for (v\d+), zg0_ in enumerate\(st\.zones\[(st\.g\.zone_base\['[^'\\]*'\]|zb\d+_) : "
    r"\3 \+ len\((d\d+)\)\]\):"
)
# in `OWNED_AREAS`' loop, a scan to a first object of `you` and the domain's loop over the
# rest of the zone after it made one loop over the zone (`_one_loop`)
OWNED_ONE_LOOP = True
# in `OWNED_AREAS`' loop, the budget's test after an area's charge left to the one in the loop
# after it, before its options (`_checked_later`)
OWNED_LATE_CHECK = True
# in `OWNED_AREAS`' loop, the next domain held per area computed once before its loop
# (`_held_once`)
OWNED_HELD_ONCE = True
_FLAG = re.compile(r"zf\w*_ = False")
_MINE = "(own_[it0] == you_)"  # (`OBJ_ROWS`' owners, `you` read from the env)
_LEFT = re.compile(r"\b(?:continue|break|return|raise|dw_|st\.work|_charges?)\b")


def _owned_areas(lines: list[str]) -> list[str]:
    """`OWNED_AREAS`: in a deferred listing's `lines`, each loop over every area and its zone
    (`AREA_ZONES`) at the listing's level whose body passes over an empty zone, then goes
    through it to a first object of `you` (`_owned_body`'s shapes: every other area fails
    the test, its zone charged `c` times its length), goes only through the areas where `you`
    owns an object of that zone, in order (`_compress`). All the zone's objects are charged
    `c` times before the loop (one total kept by the state, `State.kn`) and the areas gone
    through `c` times their length less, so the listing charges the same sum; where it passes
    the budget, the exact listing is made."""
    k = 0
    while k < len(lines):
        m = _ZONES_LOOP.fullmatch(lines[k])
        inner = m.group(1) + "    " if m is not None else ""
        got = None
        if (
            m is not None
            and len(m.group(1)) == 8
            and lines[k + 1] == f"{inner}if not zg0_: continue"
        ):
            got = _owned_body(lines, k + 2, inner)
        if got is not None:
            pad, var, base, dom = m.groups()
            times, body, end = got
            rows = f"kn_[0][you_][zk_ : zk_ + len({dom})]"
            lines = [
                *lines[:k],
                f"{pad}kn_ = st.kn or _owned(st)",
                f"{pad}zk_ = {base}",
                f"{pad}dw_ += kn_[1][zk_]{' * 2' if times == 2 else ''}",
                f"{pad}zs_ = st.zones[zk_ : zk_ + len({dom})]",
                f"{pad}for {var}, zg0_ in _compress(enumerate(zs_), {rows}):",
                *body,
                *lines[end:],
            ]
            if OWNED_HELD_ONCE:
                lines = _held_once(lines, k + 5, inner)
        k += 1
    return lines


_HELD_LOOP = re.compile(r"( *)for (v\d+) in (d\d+):")


def _held_once(lines: list[str], k: int, inner: str) -> list[str]:
    """`OWNED_HELD_ONCE`: in the body of the area loop at `lines[k - 1]`, a last loop over a
    domain `dN` whose body computes the next domain once per area (a holder `hM` made None at
    the area's level, a block not reading the loop's variable), charges it, tests the budget
    and lists an option per value, as the block run once before the loop where `dN` is not
    empty, the domain's length charged `len(dN)` times at once and the budget tested once: the
    same domains computed in the same order, the same sum, the same options in the same
    order (where it passes the budget the listing is made again as written)."""
    end = k
    while end < len(lines) and _indent(lines[end]) >= len(inner):
        end += 1
    at = next((i for i in range(k, end) if _HELD_LOOP.fullmatch(lines[i])), None)
    if at is None or _indent(lines[at]) != len(inner) or end - at < 8:
        return lines
    _, var, dom = _HELD_LOOP.fullmatch(lines[at]).groups()
    i4, i8 = inner + "    ", inner + "        "
    m = re.fullmatch(r" *if (h\d+) is None:", lines[at + 1])
    if (
        m is None
        or _indent(lines[at + 1]) != len(i4)
        or f"{inner}{m.group(1)} = None" not in lines[k:at]
    ):
        return lines
    hold = m.group(1)
    j = at + 2
    while j < end and _indent(lines[j]) >= len(i8):
        j += 1
    block, tail = lines[at + 2 : j - 1], lines[j:end]
    got = re.fullmatch(rf"{i8}{hold} = (d\d+)", lines[j - 1])
    if got is None or any(re.search(rf"\b{var}\b|\b{hold}\b", x) for x in block):
        return lines
    nxt = got.group(1)
    if (
        tail[:4]
        != [
            f"{i4}{nxt} = {hold}",
            f"{i4}dw_ += len({nxt})",
            f"{i4}if dw_ > rm_: raise _Again",
            f"{i4}for v{int(var[1:]) + 1} in {nxt}:",
        ]
        or len(tail) != 5
        or not tail[4].startswith(f"{i8}values.append(")
    ):
        return lines
    out = [
        f"{inner}if {dom}:",
        *(x[4:] for x in block),
        f"{i4}dw_ += len({nxt}) * len({dom})",
        f"{i4}if dw_ > rm_: raise _Again",
        f"{i4}for {var} in {dom}:",
        f"{i8}{tail[3].strip()}",
        f"    {tail[4]}",
    ]
    keep = [x for x in lines[k:at] if x != f"{inner}{hold} = None"]
    return [*lines[:k], *keep, *out, *lines[end:]]


def _owned_body(lines: list[str], j: int, inner: str) -> tuple[int, list[str], int] | None:
    """(c, the lines, the end of those replaced) of a loop body from `lines[j]`, after its
    test for an empty zone, that charges each zone with no object of `you` `c` times its
    length and goes to the next area, as the body of `_owned_areas`' loop over the areas where
    `you` owns objects, charged `c` times the zone's length before it; None for another shape.
    The shapes: the scan kept for a domain after it (`_scan_domain`, its charge merged as the
    length twice with the domain's, no exit or charge between); a scan charged first with no
    more after it; `OR_ONE_SCAN`'s, whose body tests the owner first and whose `else` charges
    again and goes on unless a flag was set."""
    got = lines[j : j + 6]
    if got[:2] == [f"{inner}zi_ = iter(zg0_)", f"{inner}for it0 in zi_:"] and got[3:] == [
        f"{inner}else:",
        f"{inner}    dw_ += len(zg0_)",
        f"{inner}    continue",
    ]:
        if not _mine_first(got[2].strip()):
            return None
        twice = f"{inner}dw_ += len(zg0_) * 2"
        at = next((k for k in range(j + 6, len(lines)) if _LEFT.search(lines[k])), None)
        if at is None or not lines[at].startswith(twice):
            return None
        if any(_indent(x) < len(inner) for x in lines[j + 6 : at]):
            return None
        rest = _one_loop(lines[j + 6 : at], inner) if OWNED_ONE_LOOP else None
        if got[2].strip() == f"if {_MINE}: break" and rest is not None:
            body = rest  # (the scan always finds an object of `you`: the counts say so)
        else:
            body = [*got[:3], f"{inner}else:", f"{inner}    continue", *lines[j + 6 : at]]
        end = at + 2 if OWNED_LATE_CHECK and _checked_later(lines, at + 1, inner) else at + 1
        return 1, [*body, f"{inner}dw_ += len(zg0_){lines[at][len(twice) :]}"], end
    if got[:2] != [f"{inner}dw_ += len(zg0_)", f"{inner}for it0 in zg0_:"]:
        if got[0] != f"{inner}dw_ += len(zg0_)" or not _FLAG.fullmatch(got[1].strip()):
            return None
        return _owned_flagged(lines, j, inner)
    if got[3:5] != [f"{inner}else:", f"{inner}    continue"] or not _mine_first(got[2].strip()):
        return None
    return 1, got[1:5], j + 5


def _checked_later(lines: list[str], k: int, inner: str) -> bool:
    """Whether the budget test at `lines[k]` can be left to a later one: a loop follows it
    whose body tests the budget before it lists an option (the listing's sum is tested at its
    end; where it passes the budget the listing is made again as written, so the same options
    and errors, only more of the listing's own rounds made before it is)."""
    check = f"{inner}if dw_ > rm_: raise _Again"
    if lines[k] != check or not lines[k + 1].startswith(f"{inner}for "):
        return False
    for x in lines[k + 2 :]:
        if _indent(x) <= len(inner):
            return False
        if x.strip() == "if dw_ > rm_: raise _Again":
            return True
        if "values.append" in x:
            return False
    return False


def _one_loop(rest: list[str], inner: str) -> list[str] | None:
    """`OWNED_ONE_LOOP`: the lines after a scan to a first object of `you` (`rest`: resets,
    then `_scan_domain`'s test of that first object for `D` alone and its loop over the
    zone's other objects testing `(owner is you) and D`) as one loop over the whole zone
    testing `(owner is you) and D`, where the scan cannot fail (the seat owns an object of
    the zone): the objects before the first of `you` fail the owner test, so the same values
    in the same order, without the scan's iterator. None for another shape."""
    k = next((i for i, x in enumerate(rest) if x == f"{inner}for it0 in zi_:"), None)
    if k is None or k == 0 or any("zi_" in x for x in rest[k + 1 :]):
        return None
    first, each = rest[k - 1].strip(), rest[k + 1].strip()
    if not first.startswith("if ") or each != f"if {_MINE} and {first[len('if ') :]}":
        return None
    if (
        _indent(rest[k + 1]) != len(inner) + 4
        or rest[k + 2 : k + 3]
        and _indent(rest[k + 2]) > len(inner)
    ):
        return None  # (the loop's body its one test)
    return [*rest[: k - 1], f"{inner}for it0 in zg0_:", *rest[k + 1 :]]


def _owned_flagged(lines: list[str], j: int, inner: str) -> tuple[int, list[str], int] | None:
    """`_owned_body` of `OR_ONE_SCAN`'s shape: the zone charged, a flag made false, the zone
    gone through with the owner tested first around all that the round does, its `else`
    charging the length again and going on unless the flag is set."""
    flag = lines[j + 1].strip()[: -len(" = False")]
    if lines[j + 2 : j + 4] != [f"{inner}for it0 in zg0_:", f"{inner}    if {_MINE}:"]:
        return None
    k = j + 4
    while k < len(lines) and _indent(lines[k]) > len(inner) + 4:
        k += 1
    tail = [f"{inner}else:", f"{inner}    dw_ += len(zg0_)", f"{inner}    if not {flag}: continue"]
    if k == j + 4 or lines[k : k + 3] != tail:
        return None
    return 2, [f"{inner}dw_ -= len(zg0_)", *lines[j + 1 : k + 3]], k + 3


def _mine_first(line: str) -> bool:
    """Whether `line` is `if C: break` with `C` false for every object not of `you`: its
    first top-level `and` item the owner test, no top-level `or`."""
    if not (line.startswith("if ") and line.endswith(": break")):
        return False
    cond = line[len("if ") : -len(": break")]
    items = _top_split(cond, "and")
    return bool(items) and items[0] == _MINE and _top_split(cond, "or") == [cond]


def _statement_at(lines: list[str], k: int) -> int:
    """The first line of the function's statement (at its own level) holding line `k`."""
    while _indent(lines[k]) > 4 or lines[k].lstrip().startswith(("else:", "elif ", "except")):
        k -= 1
    return k


def _statement_after(lines: list[str], k: int) -> int:
    """The first line of the function's statement after the one holding line `k` (the number
    of lines where it is the last)."""
    k += 1
    while k < len(lines) and (
        _indent(lines[k]) > 4 or lines[k].lstrip().startswith(("else:", "elif ", "except"))
    ):
        k += 1
    return k


def _scans_in_loops(lines: list[str]) -> bool:
    """Whether a parameter's loop of `lines` charges a zone's scan or a list built in it
    (untested once added up: the local pays for itself where such charges repeat)."""
    looped = next((k for k, x in enumerate(lines) if x.startswith("    for v")), None)
    if looped is None:
        return False
    return any(
        _indent(x) > 4 and (t := _CHARGE_TEST.fullmatch(x)) and _whats(t) <= _UNTESTED
        for x in lines[looped:]
    )


def _whats(test: re.Match) -> set[str]:
    """What a budget test's charges are of (`'a list'`, `'action a'`...)."""
    return set(re.findall(r"'[^'\\]*'", test[3]))


def _noted(lines: list[str], first: int) -> tuple[list[str], bool]:
    """`lines` from `first` with each write of a kept domain computed with work followed by
    its note in `ud_` (its dictionary and key), and whether there is one."""
    out, undo = [], False
    for k in range(first, len(lines)):
        x = lines[k]
        out.append(x)
        if (m := _CACHE_WRITE.fullmatch(x)) and _computed_with_work(lines, k):
            out[-1] += f"; ud_.append((cache, {m[2]}))"
            undo = True
        elif m := _ROW_WRITE.match(x):
            out.append(f"{m[1]}ud_.append(({m[2]}, {m[3]}))")
            undo = True
        elif (m := _KEPT_WRITE.fullmatch(x)) and _charges_work(m[2]):
            out.append(f"{m[1]}ud_.append((st.g.domains, kd_))")
            undo = True
    return out, undo


def _added_up(lines: list[str], fixed: set[str]) -> list[str]:
    """Each charge of `lines` and its budget test as an addition to the local `dw_`, tested
    against the budget left when the listing began (`rm_`) only before a parameter's loop not in
    `fixed` (a zone's scan or a list built from it is bounded by the zone, a loop of `fixed`
    by the map or the seats: not tested)."""
    out: list[str] = []
    k = 0
    while k < len(lines):
        x = lines[k]
        add = _CHARGE_ADD.fullmatch(x)
        test = _CHARGE_TEST.fullmatch(lines[k + 1]) if add and k + 1 < len(lines) else None
        if add and test and add[1] == test[1] and (test[2] or test[3].startswith("0, ")):
            out.append(f"{add[1]}dw_ += {add[2]}")
            loop = _LOOP.match(lines[k + 2]) if k + 2 < len(lines) else None
            if not _whats(test) <= _UNTESTED and not (loop and loop[1] in fixed):
                out.append(f"{add[1]}if dw_ > rm_: raise _Again")
            k += 2
            continue
        out.append(x)
        k += 1
    return out


def _computed_with_work(lines: list[str], k: int) -> bool:
    """Whether the listing's domain written into its cache at line `k` (`cache[K] = d`) was
    computed with work charged (found in the cache, it charges nothing)."""
    pad = _indent(lines[k])
    j = k - 1
    while j > 0 and _indent(lines[j]) >= pad:
        j -= 1
    return any(_charges_work(x) for x in lines[j + 1 : k])


def _compiled(out: list[str], pad: str) -> list[str] | None:
    """`out` when its statements compile (as written at `pad`); else None."""
    try:
        compile("\n".join(x[len(pad) :] for x in out), "<domain>", "exec")
    except SyntaxError:
        return None
    return out


class Enumerators(CodeGen):
    """The compiler's code generator: expressions, and each action's enumerator."""

    def __init__(self, compiler):
        super().__init__(compiler)
        self.guards: dict[str, object] = {}  # `_first_guard`'s functions by source
        self.last_guard = None  # the last enumerator's first test as a guard (`_first_guard`)

    def enumerator(self, act, params, req_exprs, dom_names) -> object:
        """One generated function listing an action's legal argument tuples: nested loops over
        the parameters' domains with each `require` part tested inline at the first level where
        its names are bound."""
        # (every caller's env holds `you`; `cache` is a dict: a listing's, or engine.NO_CACHE,
        # which keeps nothing)
        lines = ["    you_ = env['you']" if YOU_GIVEN else "    you_ = env.get('you')"]
        pad = "    "
        # each part's source, at the level where what it reads is bound (a definition whose
        # body is an `and` split into its parts: the parts of `f(you, q, a)` that read `a`
        # alone are tested once per `a`, not once per `a` and `q`)
        self.bound = self._own() | {q.name: f"v{i}" for i, q in enumerate(params)}
        levels_of = {"you": 0} | {q.name: i + 1 for i, q in enumerate(params)}
        tests: list[list[str]] = [[] for _ in req_exprs]
        # A domain that reads none of the parameters bound just before it (`c: card from
        # near(a)` after `b`) is computed once per binding of the last one it reads, when first
        # needed, not once per binding of those in between.
        names = [q.name for q in params]
        levels = [
            max((names.index(x) + 1 for x in dom_names[i] if x in names[:i]), default=0)
            for i in range(len(params))
        ]
        self._kept_levels = levels
        self._keyed = [q.type in _SCALARS for q in params]  # values that key a dict
        self._hoist = {} if KEEP_OUTER else None
        self._skippable_parts = set()
        held = self._held_params(params)
        self.objs |= held
        try:
            for level, exprs in enumerate(req_exprs):
                for e in exprs:
                    for src, at in self.require_parts(e, levels_of, level):
                        tests[min(at, level)].append(src)
            if KIND_BOUNDS:
                for level, exprs in enumerate(req_exprs):
                    for src, at in self._kind_bounds(exprs, levels_of, level):
                        tests[min(at, level)].append(src)
            holders = list(self._hoist.values()) if self._hoist is not None else []
        finally:
            self._hoist = None
            self.objs -= held
        self.bound = self._own()

        scanned: list = [None]  # the last scan of a test: (lines then, zone, condition, its `for`)

        def test(level: int, on_fail: str) -> None:
            # `if not (a and b): fail` as a test per run of parts, and a part that is whether
            # an object of a zone matches (or not) as statements: the zone charged, then gone
            # through to the first match (no list of matches, no comprehension's frame)
            run: list[str] = []
            for src in tests[level] + [None]:
                scan = self._scan_of(src) if src is not None else None
                items = self._or_scan(src) if scan is None and src is not None else None
                if items is not None:  # `X or Y`, X such a part: Y tested only if X fails
                    if run:
                        lines.append(f"{pad}if not ({' and '.join(bounds_joined(run))}): {on_fail}")
                        run.clear()
                    either(items, pad, on_fail)
                    continue
                if scan is None and src is not None:
                    run.append(_grouped(src))
                    continue
                if run:
                    lines.append(f"{pad}if not ({' and '.join(bounds_joined(run))}): {on_fail}")
                    run.clear()
                if scan is None:
                    break
                (zone, cond), negated = scan
                inner = pad + "    " if negated else pad
                lines.append(f"{pad}zg0_ = {zone}")
                lines.append(f"{pad}if zg0_:" if negated else f"{pad}if not zg0_: {on_fail}")
                lines.append(f"{inner}st.work += len(zg0_)")
                lines.append(f"{inner}if st.work > st.work_limit: _charge(st, 0, 'a list')")
                lines.append(f"{inner}for it0 in zg0_:")
                at = len(lines) - 1
                lines.append(f"{inner}    if {cond}: break")
                lines.append(f"{inner}else:")
                lines.append(f"{inner}    zg0_ = ()" if negated else f"{inner}    {on_fail}")
                if negated:  # a match found: the part is false
                    lines.append(f"{inner}if zg0_: {on_fail}")
                else:
                    scanned[0] = (len(lines), zone, cond, at)

        def either(items: list[str], at: str, on_fail: str) -> None:
            # an `or` whose first item is whether an object of a zone matches: the zone gone
            # through to its first match, the next items tested only when none matched
            scan = self._scan_of(items[0])
            if scan is None or scan[1]:
                lines.append(f"{at}if not ({' or '.join(_grouped(x) for x in items)}): {on_fail}")
                return
            zone, cond = scan[0]
            if self._one_scan(items, lines, at, on_fail):
                return
            lines.append(f"{at}zg0_ = {zone}")
            lines.append(f"{at}if zg0_:")
            lines.append(f"{at}    st.work += len(zg0_)")
            lines.append(f"{at}    if st.work > st.work_limit: _charge(st, 0, 'a list')")
            lines.append(f"{at}    for it0 in zg0_:")
            lines.append(f"{at}        if {cond}: break")
            lines.append(f"{at}    else:")
            lines.append(f"{at}        zg0_ = ()")
            if len(items) == 1:
                lines.append(f"{at}if not zg0_: {on_fail}")
            else:
                lines.append(f"{at}if not zg0_:")
                either(items[1:], at + "    ", on_fail)

        self.last_guard = self._first_guard(tests[0][0]) if tests[0] else None
        test(0, "return")
        after_first = len(lines)  # the per-game constants are bound here (`_bases`)

        # A domain that reads none of the parameters bound just before it (`c: card from
        # near(a)` after `b`) is computed once per binding of the last one it reads, when first
        # needed, not once per binding of those in between.
        def reset(level: int) -> None:
            for i in range(level + 1, len(params)):
                if levels[i] == level:
                    lines.append(f"{pad}h{i} = None")
            for k, at in holders:  # values kept at this level, computed when first needed
                if at == level:
                    lines.append(f"{pad}{k} = {{}}" if k[:2] == "km" else f"{pad}{k} = None")

        reset(0)
        early_at, early = len(lines), []  # `_empty_first`'s lines, written after reset(0)
        kept: list[str] = []  # `kk{i} = None`: the per-game domains' rows, found when first needed
        area_loops: list[str] = []  # the `for` lines of parameters that go through all areas
        known = dict(holders)
        filters = [
            self._filters(i, levels[i], tests[i + 1], len(params), known)
            for i in range(len(params))
        ]
        for i, q in enumerate(params):
            # the domain's own source, reading the names bound so far as Python locals
            dom = self._statement_src(q.domain, self.src) if q.domain is not None else "[]"
            key = act.dom_keys[i]
            hoisted = levels[i] < i
            inner = pad + "    " if hoisted else pad
            block_at = len(lines)
            if hoisted:
                lines.append(f"{pad}if h{i} is None:")
            kd = self.domain_key(act, i, dom_names[i]) if key is None else None
            if kd is not None and KEPT_ROWS:  # the listing's row of values found once
                outer, by = kd
                by_src = by[0] if len(by) == 1 else f"({', '.join(by)})" if by else "()"
                kept.append(f"    kk{i} = None")
                lines.append(f"{inner}if kk{i} is None:")
                lines.append(
                    f"{inner}    kk{i} = st.g.domains.setdefault(({', '.join(outer)}), {{}})"
                )
                lines.append(f"{inner}d{i} = kk{i}.get({by_src})")
                lines.append(f"{inner}if d{i} is None:")
                if SHARED_ROWS:  # found in another game: charged what it charged there
                    ks = f"(({', '.join(outer)}), {by_src})"
                    lines += [
                        f"{inner}    ks_ = st.g.shared.get({ks})",
                        f"{inner}    if ks_ is not None and st.work + ks_[1] <= st.work_limit:",
                        f"{inner}        st.work += ks_[1]",
                        f"{inner}        d{i} = kk{i}[{by_src}] = ks_[0]",
                        f"{inner}    else:",
                        f"{inner}        w_ = st.work",
                        f"{inner}        d{i} = kk{i}[{by_src}] = {dom}",
                        f"{inner}        st.g.shared[{ks}] = (d{i}, st.work - w_)",
                    ]
                else:
                    lines.append(f"{inner}    d{i} = kk{i}[{by_src}] = {dom}")
            elif kd is not None:  # computed once per game for each value of what it reads
                outer, by = kd
                lines.append(f"{inner}kd_ = ({', '.join(outer[:3] + by + outer[3:])})")
                lines.append(f"{inner}d{i} = st.g.domains.get(kd_)")
                lines.append(f"{inner}if d{i} is None:")
                lines.append(f"{inner}    d{i} = st.g.domains[kd_] = {dom}")
            elif key is not None:
                k = self.const(key)
                lines.append(f"{inner}d{i} = cache.get({k})")
                lines.append(f"{inner}if d{i} is None:")
                lines.extend(self._domain_lines(dom, f"d{i}", inner + "    "))
                lines.append(f"{inner}    cache[{k}] = d{i}")
            else:
                lines.extend(
                    self._scan_domain(lines, scanned[0], dom, f"d{i}", inner)
                    or self._domain_lines(dom, f"d{i}", inner)
                )
            if q.domain is not None and self._zone(q.domain):  # a zone: its contents
                lines.append(f"{inner}d{i} = st.zones[d{i}]")
            elif q.domain is None or not (self._list(q.domain) or self._is_areas(q.domain)):
                lines.append(
                    f"{inner}d{i} = d{i} if isinstance(d{i}, list) else st.zones[d{i}] "
                    f"if isinstance(d{i}, int) else ()"
                )
            if hoisted and filters[i]:
                kept_by, tests_left = self._filter_above_zero(q, filters[i], i)
                cond = " and ".join(_grouped(src) for src in tests_left) or "True"
                lines.append(f"{pad}    n{i} = len(d{i})")
                lines.append(f"{pad}    h{i} = []")
                lines.append(f"{pad}    for v{i} in {kept_by}:")
                lines.append(f"{pad}        if {cond}: h{i}.append(v{i})")
                if levels[i] == 0 and self._empty_first(params, tests, filters, i):
                    cut = len(pad) - 4  # the block as written at the listing's level
                    early += [x[cut:] for x in lines[block_at:]] + [f"    if not h{i}: return"]
                lines.append(f"{pad}d{i} = h{i}")
                lines.append(f"{pad}st.work += n{i}")
            elif hoisted:
                lines.append(f"{pad}    h{i} = d{i}")
                lines.append(f"{pad}d{i} = h{i}")
                lines.append(f"{pad}st.work += len(d{i})")
            else:
                lines.append(f"{pad}st.work += len(d{i})")
            lines.append(
                f"{pad}if st.work > st.work_limit: _charge(st, 0, {'action ' + act.name!r})"
            )
            lines.append(f"{pad}for v{i} in d{i}:")
            if self._is_areas(q.domain) and not (hoisted and filters[i]):
                area_loops.append(lines[-1])  # every area, in order
            pad += "    "
            lines.append(f"{pad}env[{q.name!r}] = v{i}")
            self.bound[q.name] = f"v{i}"
            test(i + 1, "continue")
            reset(i + 1)
        args = ", ".join(f"v{i}" for i in range(len(params)))
        lines.append(f"{pad}values.append([{act.id}, [{args}], src])")
        writes = {f"env[{q.name!r}] = v{i}" for i, q in enumerate(params)}
        if any(_ENV.search(unquoted(x)) for x in lines[1:] if x.strip() not in writes):
            for q in params:  # something reads the parameters from the env
                lines.append(f"    env.pop({q.name!r}, None)")
        else:  # every read of a parameter is of its Python variable: the env is left alone
            lines = [x for x in lines if x.strip() not in writes]
        self.bound = {}
        lines[early_at:early_at] = early
        lines[after_first:after_first] = kept
        _area_zones(lines, area_loops, self.natural_area_counters())
        lines[after_first:] = _bases(lines[after_first:], "    ")
        if SCAN_ONE_CHARGE:
            lines = _joined_charges(lines)
        word = py_name(act.name)
        name = f"_{word}_options{next(self.ids)}" if word else f"_a{next(self.ids)}"
        fixed = self._fixed_loops(params)
        return self._define_enumerator(name, lines, f"<madang action {act.name}>", fixed)

    def _fixed_loops(self, params) -> set[str]:
        """The loop variables of the parameters that go through the areas or the seats, each
        parameter before them doing so too: loops only as long as the map and the seats, whose
        charges need no budget test where they are added up (`DEFERRED_CHARGES`)."""
        out = set()
        for i, q in enumerate(params):
            e = q.domain
            if not (self._is_areas(e) or isinstance(e, n.Name) and self.r.name_of(e) == _SEATS):
                break
            out.add(f"v{i}")
        return out

    def _define_enumerator(self, name: str, lines: list[str], filename: str, fixed: set[str]):
        """The enumerator of `lines` as a function `name`; with `DEFERRED_CHARGES`, where it
        applies, the one whose charges are added up (`_deferred`), the lines as written kept
        as `exact` on it (and in the namespace) to make a listing again."""
        code = f"def {name}(st, env, src, values, cache):\n" + "\n".join(lines) + "\n"
        fast = _deferred(lines, f"{name}_x", fixed) if DEFERRED_CHARGES else None
        if fast is None:
            return define(self.ns, name, code, filename)
        if OWNED_AREAS:
            fast = _owned_areas(fast)
            if any("_owned(st)" in x for x in fast):
                self.ns.setdefault("_owned", owned.owned)
        exact = define(self.ns, f"{name}_x", code.replace(name, f"{name}_x", 1), filename)
        self.ns.setdefault("_relist", budget.relist)
        self.ns.setdefault("_Again", budget.Again)
        code = f"def {name}(st, env, src, values, cache):\n" + "\n".join(fast) + "\n"
        fn = define(self.ns, name, code, filename)
        fn.exact = exact
        return fn

    def _filter_above_zero(self, q, tests: list[str], i: int) -> tuple[str, list[str]]:
        """What a parameter over the areas whose first filter is `c > 0` (`c` an area counter
        never below 0) goes through for its kept domain, the areas whose `c` is not 0
        (`AREA_ZONES`), and the filter's tests left; else `d{i}` and all of them."""
        if not AREA_ZONES or not self._is_areas(q.domain):
            return f"d{i}", tests
        split = above_zero(tests[0], f"v{i}", self.natural_area_counters())
        if split is None:
            return f"d{i}", tests
        return f"_compress(d{i}, st.acounters[{split[0]!r}])", [split[1]] * bool(split[1]) + tests[
            1:
        ]

    def _held_params(self, params) -> set[str]:
        """The loop variables (`v{i}`) of the parameters whose domain holds objects only, never
        none (`HELD_PARAMS`): their tests are written without a none test (a kind, a printed
        number, a keyword, as for a `where`'s item)."""
        if not HELD_PARAMS:
            return set()
        return {
            f"v{i}"
            for i, q in enumerate(params)
            if q.domain is not None and self._objects_domain(q.domain)
        }

    def _objects_domain(self, e) -> bool:
        """`objects_only`, and `first(L, k)` or `last(L, k)` of such a list with `k` a number
        (a slice of it)."""
        if isinstance(e, n.Call) and len(e.args) == 2:
            res = self.r.call_of(e)
            if res in (rv.BuiltinRef("first"), rv.BuiltinRef("last")):
                k = e.args[1]
                plain = isinstance(k, n.Num) and type(k.value) is int
                return plain and self._objects_domain(e.args[0])
        if isinstance(e, n.Call):
            res = self.r.call_of(e)
            if isinstance(res, rv.DefineRef):
                return self._body_is(res.name, self._objects_domain)
        return self.objects_only(e)

    def _empty_first(self, params, tests, filters, i: int) -> bool:
        """Whether parameter i's domain, kept for the whole listing and filtered by its own
        tests (`h{i}`), one of which reads the state, may be made before the loops of the
        parameters before it, the listing ending there when it is empty (`EMPTY_FIRST`): every
        option needs one of its values, and what the skipped loops would have done (their
        domains, their tests, the filter's own) is pure and raises nothing, so only the work
        charged changes (less where it ends early, one filtered domain more where no binding
        before it would have needed it)."""
        if not EMPTY_FIRST:
            return False
        pure = self._skippable_parts
        if not all(src in pure for src in filters[i]) or not any(
            "st." in unquoted(x) for x in filters[i]
        ):
            return False  # (a filter that reads no state, `q != you`, rarely empties it)
        if not all(src in pure for level in range(1, i + 1) for src in tests[level]):
            return False
        return all(q.domain is None or self._skippable(q.domain, set()) for q in params[: i + 1])

    @staticmethod
    def _own() -> dict[str, str]:
        """The Python of `you` and `this` in an enumerator: its locals `you_` and `src` (the
        object whose action it is, none for the rules' own: every caller gives the env's
        `this` as `src`), so that a definition's call there reads neither from the env."""
        return {"you": "you_", "this": "src"} if THIS_SRC else {"you": "you_"}

    def _is_areas(self, e) -> bool:
        """Whether a domain is the built-in `areas`: a new list of the areas' numbers (its
        entry in a listing's cache, under its source, is always that list), so it is read
        as it is, like any list, without the tests for a zone."""
        return isinstance(e, n.Name) and self.r.name_of(e) == rv.BuiltinRef("areas")

    def _domain_lines(self, dom: str, var: str, pad: str) -> list[str]:
        """`var = dom` for a domain computed at each binding or listing; a guarded `where` over a zone
        (`_WHERE_DOMAIN`), or `unique` of one, as statements (`DOMAIN_LOOPS`): the zone
        charged as `_each` charges it, each match's value appended, then `unique`'s charge
        and its repeats dropped (`dict.fromkeys` keeps the first of each, in order)."""
        plain = [f"{pad}{var} = {dom}"]
        loop = self._domain_loop(dom)
        if loop is None:
            return plain
        one, cond, zone, unique = loop
        out = [
            f"{pad}zg0_ = {zone}",
            f"{pad}{var} = []",
            f"{pad}if zg0_:",
            f"{pad}    st.work += len(zg0_)",
            f"{pad}    if st.work > st.work_limit: _charge(st, 0, 'a list')",
            f"{pad}    for it0 in zg0_:",
            f"{pad}        if {cond}: {var}.append({one})",
        ]
        return _compiled(out + _unique_lines(var, pad) if unique else out, pad) or plain

    def _domain_loop(self, dom: str) -> tuple[str, str, str, bool] | None:
        """(what of each match, condition, zone, whether `unique` of it) when `dom` is a
        guarded `where` over a zone or `unique` of one (`DOMAIN_LOOPS`); else None."""
        if not DOMAIN_LOOPS:
            return None
        src, unique = _bare(dom), False
        fn = self._const_ids.get(id(BUILTIN_FUNCS["unique"]))
        call = src[len(fn) :] if fn is not None and src.startswith(f"{fn}(st, ") else ""
        if call and _grouped(call) == call:  # `unique` of one argument, all of `dom`
            src, unique = _bare(src[len(fn) + 5 : -1]), True
        m = _WHERE_DOMAIN.fullmatch(src)
        if m is None or any("zg0_" in x or "it0 for" in x for x in m.groups()):
            return None
        one, cond, zone = m.groups()
        return one, cond, zone, unique

    def _scan_domain(self, lines: list[str], scanned, dom: str, var: str, pad: str):
        """`_domain_lines` of a domain over the zone that the test just above went through to
        its first match of `C`, the domain's condition being `C and D`, C pure
        (`SCAN_DOMAINS`): the zone known not empty and charged as before, the first match
        tested for `D` alone, then the rest of the zone from an iterator the scan left there
        (the objects before the first match fail `C`, so the same values in the same order).
        The scan's `for` is rewritten to go through that iterator. None when the shape is not
        that."""
        if not SCAN_DOMAINS or scanned is None:
            return None
        end, zone, first, at = scanned
        if not all(_RESET.fullmatch(x) for x in lines[end:]):
            return None  # something between the scan and the domain
        loop = self._domain_loop(dom)
        if loop is None or loop[2] != zone:
            return None
        one, cond, _, unique = loop
        items = _top_split(_bare(cond), "and")
        if items is None or len(items) < 2 or _bare(items[0]) != _bare(first):
            return None
        if not _pure(first):  # (`C` is tested on fewer objects: it may charge nothing)
            return None
        rest = " and ".join(items[1:])
        head = lines[at][: -len("for it0 in zg0_:")]
        charge = [
            f"{head}st.work += len(zg0_)",
            f"{head}if st.work > st.work_limit: _charge(st, 0, 'a list')",
        ]
        merged = SCAN_CHARGES and lines[at - 2 : at] == charge and lines[at + 2] == f"{head}else:"
        n = "len(zg0_) * 2" if merged else "len(zg0_)"
        scan = [
            f"{pad}if {rest}: {var}.append({one})",
            f"{pad}for it0 in zi_:",
            f"{pad}    if {cond}: {var}.append({one})",
        ]
        if SCAN_ONE_CHARGE and _pure(rest) and _pure(one):  # charged after the pure scan
            out = [f"{pad}{var} = []", *scan]
            if unique:
                out += [
                    f"{pad}nu_ = len({var})",
                    f"{pad}if nu_ > 1: {var} = list(dict.fromkeys({var}))",
                    f"{pad}st.work += {n} + nu_",
                    f"{pad}if st.work > st.work_limit: _charges(st, {n}, 'a list', nu_, 'unique')",
                ]
            else:
                out += [
                    f"{pad}st.work += {n}",
                    f"{pad}if st.work > st.work_limit: _charge(st, 0, 'a list')",
                ]
            out = _compiled(out, pad)
        else:
            out = [
                f"{pad}{var} = []",
                f"{pad}st.work += {n}",
                f"{pad}if st.work > st.work_limit: _charge(st, 0, 'a list')",
                *scan,
            ]
            out = _compiled(out + _unique_lines(var, pad) if unique else out, pad)
        if out is None:
            return None
        lines[at : at + 1] = [f"{head}zi_ = iter(zg0_)", f"{head}for it0 in zi_:"]
        if merged:  # the test's charge made in its `else` only (the scan found no match)
            lines[at + 4 : at + 4] = ["    " + x for x in charge]
            del lines[at - 2 : at]
        return out

    def _first_guard(self, src: str):
        """`src` (an enumerator's first test) as a function `(st, you_) -> bool` when it reads
        only counters and numbers (`_GUARD_TOKEN`: nothing charged, nothing bound but `you_`),
        the same function for the same source; else None. Tested first by the enumerator, so
        a window may test it once for all the actions that share it."""
        if not SHARED_GUARDS or self._scan_of(src) is not None:
            return None
        if _GUARD_TOKEN.sub("", src) or "st." not in src:
            return None
        got = self.guards.get(src)
        if got is None:
            name = f"_first_test{len(self.guards)}"  # its own numbering: the rest as before
            code = f"def {name}(st, you_):\n    return bool({src})\n"
            got = self.guards[src] = define(self.ns, name, code, "<madang action guard>")
        return got

    def _kind_bounds(self, exprs, levels_of: dict[str, int], level: int) -> list[tuple[str, int]]:
        """(source, level) of the tests implied by a `require`'s parts `q is K` and `q.P <= E`
        (or `<`, or `E >= q.P`, `E > q.P`), both items of the top-level `and`s of one level's
        `require`s, `q` a parameter, `P` a property read from the cards' printed values
        (nothing in the rules writes it, none modifies it), `E` pure and reading only names
        bound before `q`: `P`'s least number among the cards of kind K compared with E, tested
        where E's names are bound, true while anything outside the rules wrote `P`
        (`st.props`). An object of kind K whose `q.P <= E` holds makes it true (its `P` is at
        least the least, a none never passes `_le`), so it drops no option: it only fails
        before the domains where every option would fail."""
        items = []
        for e in exprs:
            stack = [e]
            while stack:
                x = stack.pop()
                if isinstance(x, n.BoolOp) and x.op == "and":
                    stack.extend(reversed(x.items))
                else:
                    items.append(x)
        kinds: dict[str, set[str]] = {}
        for x in items:
            if isinstance(x, n.IsKind) and isinstance(x.obj, n.Name) and x.obj.name in levels_of:
                kinds.setdefault(x.obj.name, set()).add(self.s.canonical.get(x.kind, x.kind))
        out: list[tuple[str, int]] = []
        if not kinds:
            return out
        for x in items:
            if not isinstance(x, n.BinOp) or x.op not in _BOUND_OPS:
                continue
            fn, prop_left = _BOUND_OPS[x.op]
            prop, other = (x.left, x.right) if prop_left else (x.right, x.left)
            if not (isinstance(prop, n.Attr) and isinstance(prop.obj, n.Name)):
                continue
            q = prop.obj.name
            if (
                q not in kinds
                or q == "you"
                or not isinstance(self.r.name_of(prop.obj), rv.LocalRef)
            ):
                continue
            used = _names_read(other, self.r)
            at = max((levels_of.get(y, level) for y in used), default=0)
            if at >= levels_of[q] or not self._skippable(other, set()):
                continue
            least = self._least(prop, kinds[q])
            if least is None:
                continue
            e_src = self._statement_src(other, self.src)
            pair = (repr(least), e_src) if prop_left else (e_src, repr(least))
            if _NEVER_NONE.fullmatch(e_src):  # a number: compared without the none tests
                cmp = f"{pair[0]} {x.op} {pair[1]}"
            else:
                cmp = f"{fn}({pair[0]}, {pair[1]})"
            out.append((f"({prop.name!r} in st.props or {cmp})", at))
        return out

    def _least(self, prop: n.Attr, kinds: set[str]) -> int | float | None:
        """The least number of property `prop.name` among the cards of one of `kinds` when
        `prop` compiles to the cards' printed values (`CodeGen.prop`'s plain read); else None."""
        name = prop.name
        if name in self.p.modified_props or name in self.c.modified_names():
            return None
        if self.p.prop_slots.get(name) is not None or len(self.p.cards) < len(self.s.cards):
            return None
        v = self.bound.get(prop.obj.name)
        if v is None or self.src(prop, ()) != self.prop(v, name):
            return None
        table = self.p.card_values(name)
        nums = [
            x
            for c, x in zip(self.p.cards, table)
            if any(c.kind == k for k in kinds)
            and isinstance(x, (int, float))
            and not isinstance(x, bool)
        ]
        return min(nums) if nums else None

    def require_parts(self, e, levels_of: dict[str, int], level: int) -> list[tuple[str, int]]:
        """(source, level) of each part of a `require` conjunct: an `and` split at its items,
        an `if C then A else B` with `C` pure split by level (`_split_if`), and a call of a
        definition whose body is an `and` or such an `if` (its arguments plain names or
        reads, as `inline_define` takes them, or, with `SPLIT_IF`, computed ones read at most
        once on every path and that may be left uncomputed) split at its body's items,
        written with its parameters bound to the arguments; a part's level is the deepest of
        the parameters it reads (`levels_of`: the enumerator's names, or a definition's
        parameters by their arguments'). What a part reads and cannot be placed stays at
        `level`."""
        if isinstance(e, n.BoolOp) and e.op == "and":
            return [p for i in e.items for p in self.require_parts(i, levels_of, level)]
        if isinstance(e, n.IfExpr) and SPLIT_IF and self._skippable(e.cond, set()):
            got = self._split_if(e, levels_of, level)
            if got is not None:
                return got
        if isinstance(e, n.Call):
            got = self._define_parts(e, levels_of, level)
            if got is not None:
                return got
        at = max((levels_of.get(x, level) for x in _names_read(e, self.r)), default=0)
        src = self._hoisting_test(e, min(at, level))
        if self._hoist is not None and self._skippable(e, set()):
            self._skippable_parts.add(src)
        return [(src, at)]

    def _define_parts(self, e, levels_of, level) -> list[tuple[str, int]] | None:
        """`require_parts` of a definition's call whose body is split (an `and`, or an `if`
        with `SPLIT_IF`), its body written with its parameters bound to the arguments' Python;
        None: not split."""
        res = self.r.call_of(e)
        d = self.s.defines.get(res.name) if isinstance(res, rv.DefineRef) else None
        body = d.decl.body if d is not None else None
        split = isinstance(body, n.BoolOp) and body.op == "and"
        split = split or SPLIT_IF and isinstance(body, n.IfExpr)
        if not split or d.name in self._inlining or len(self._inlining) >= INLINE_DEPTH:
            return None
        inner = {"you": 0, "this": 0}
        for q, a in zip(d.params, e.args):
            used = _names_read(a, self.r)
            inner[q.name] = max((levels_of.get(x, level) for x in used), default=0)
        args, before = [], dict(self._hoist) if self._hoist is not None else None
        for q, a in zip(d.params, e.args):
            src = self.listed(q.type, a, self.src(a, ()))
            if not (_SIMPLE.fullmatch(src) or _READ.fullmatch(src)):
                # computed where its parameter is read, if it is: at most once on every path
                # through the body, and only if leaving it uncomputed changes nothing
                if not SPLIT_IF or _once(body, q.name, self.r) > 1 or not self._skippable(a, set()):
                    self._restore_hoist(before)  # the values kept for the arguments so far unused
                    return None
                saved_at, self._hoist_at = self._hoist_at, inner[q.name]
                try:  # its values that read outer names kept there (`_keep`)
                    src = self.listed(q.type, a, self.src(a, ()))
                finally:
                    self._hoist_at = saved_at
            args.append(src)
        with self._inlined(d, args, e.args):
            if isinstance(body, n.IfExpr):  # split, or left to the call as before
                got = (
                    self._split_if(body, inner, level)
                    if self._skippable(body.cond, set())
                    else None
                )
                if got is None:
                    self._restore_hoist(before)
                return got
            return self.require_parts(body, inner, level)

    def _restore_hoist(self, before: dict | None) -> None:
        """The values kept at outer loops (`_hoist`) as they were before a split given up."""
        if before is not None:
            self._hoist.clear()
            self._hoist.update(before)

    def _split_if(self, e, levels_of, level) -> list[tuple[str, int]] | None:
        """`if C then A else B` (`C` pure) as one part per level: `(A_l if C else B_l)`, with
        A_l and B_l the parts of A and B tested at level l (true where there are none), at
        the deeper of l and C's own level. The same as the whole `if` tested at once, since
        `C` has the same value at every level; each side's parts are tested in their order,
        as the parts of an `and` are. None: nothing to split (one part on each side)."""
        before = dict(self._hoist) if self._hoist is not None else None
        then = self.require_parts(e.then, levels_of, level)
        other = self.require_parts(e.orelse, levels_of, level)
        if len(then) < 2 and len(other) < 2:
            self._restore_hoist(before)  # the values kept for its parts unused
            return None
        c_at = max((levels_of.get(x, level) for x in _names_read(e.cond, self.r)), default=0)
        cond = self._hoisting_test(e.cond, min(c_at, level))
        at_of = sorted({max(min(at, level), c_at) for _, at in then + other})
        pure = self._skippable_parts
        out = []
        for lv in at_of:
            a = [src for src, at in then if max(min(at, level), c_at) == lv]
            b = [src for src, at in other if max(min(at, level), c_at) == lv]
            yes = " and ".join(_grouped(x) for x in a) or "True"
            no = " and ".join(_grouped(x) for x in b) or "True"
            src = f"({yes} if {_grouped(cond)} else {no})"
            if self._hoist is not None and all(x in pure for x in a + b):
                pure.add(src)
            out.append((src, lv))
        return out

    def _filters(self, i: int, kept_at: int, parts: list[str], n_params: int, known) -> list[str]:
        """The parts of the tests in loop `i` (taken out of `parts`) that filter its domain
        once where it is kept (`h{i}`, computed at level `kept_at` < i), in their order: each
        reads of the parameters only the one bound by the loop (`q != p` once per player, not
        per area and player), and may be left uncomputed (`_skippable`), or is the
        loop's first test while nothing tested between two of its evaluations may raise (the
        innermost loop, its other tests skippable): the same first error, if any. The work
        charged stays the whole domain's."""
        if kept_at >= i or not parts or not KEEP_OUTER:
            return []
        pure = self._skippable_parts
        own = [src for src in parts if (params_read(src, self.ns, known) or {0}) - {0} == {i + 1}]
        take = {src for src in own if src in pure}
        if i == n_params - 1 and parts[0] in own and all(x in pure for x in parts[1:]):
            take.add(parts[0])
        taken = [src for src in parts if src in take]
        parts[:] = [src for src in parts if src not in take]
        return taken

    def _hoisting_test(self, e, at: int) -> str:
        """`test(e)` for a part tested at enumerator level `at`, its values that read only
        names bound at an outer level kept there (`hoisted`); without them where Python
        refuses the result (an assignment expression in a comprehension's items)."""
        if self._hoist is None:
            return self._statement_src(e, self.test)
        before, saved_at = dict(self._hoist), self._hoist_at
        self._hoist_at = at
        try:
            src = self._statement_src(e, self.test)
            compile(src, "<test>", "eval")
        except SyntaxError:
            self._hoist.clear()
            self._hoist.update(before)
            saved, self._hoist = self._hoist, None
            guard, self._guard = self._guard, False
            try:
                src = self.test(e, ())
            finally:
                self._hoist, self._guard = saved, guard
        finally:
            self._hoist_at = saved_at
        return src

    def _or_scan(self, src: str) -> list[str] | None:
        """The items of a test part `X or Y ...` whose first item is whether an object of a
        zone matches (`_scan_of`, not negated), when `OR_SCANS`; else None."""
        if not OR_SCANS:
            return None
        items = _top_split(_bare(src), "or")
        if items is None or len(items) < 2:
            return None
        first = self._scan_of(items[0])
        return items if first is not None and not first[1] else None

    def _one_scan(self, items: list[str], lines: list[str], at: str, on_fail: str) -> bool:
        """Write `X or Y` as one pass over their zone when X and Y are whether an object of
        the same zone matches `A and B` and `A and C` (`OR_ONE_SCAN`, A, B, C pure): the same
        truth and the same charges (the zone's length, then again where no object matched
        `A and B`), `C` tested on fewer or more objects than the second pass would (pure, so
        unseen). False (nothing written) when the shape is not that."""
        if not OR_ONE_SCAN or len(items) != 2:
            return False
        scans = [self._scan_of(x) for x in items]
        if any(x is None or x[1] for x in scans) or scans[0][0][0] != scans[1][0][0]:
            return False
        parts = [_top_split(_bare(x[0][1]), "and") for x in scans]
        if any(x is None or len(x) < 2 for x in parts) or _bare(parts[0][0]) != _bare(parts[1][0]):
            return False
        first, b, c = parts[0][0], " and ".join(parts[0][1:]), " and ".join(parts[1][1:])
        if not _pure(first) or not all(_pure(x) and "%" not in x and "/" not in x for x in (b, c)):
            return False  # (`A` is tested once an object, `C` on other objects: nothing charged)
        lines += [
            f"{at}zg0_ = {scans[0][0][0]}",
            f"{at}if not zg0_: {on_fail}",
            f"{at}st.work += len(zg0_)",
            f"{at}if st.work > st.work_limit: _charge(st, 0, 'a list')",
            f"{at}zf_ = False",
            f"{at}for it0 in zg0_:",
            f"{at}    if {first}:",
            f"{at}        if {b}: break",
            f"{at}        if not zf_ and {_grouped(c)}: zf_ = True",
            f"{at}else:",
            f"{at}    st.work += len(zg0_)",
            f"{at}    if st.work > st.work_limit: _charge(st, 0, 'a list')",
            f"{at}    if not zf_: {on_fail}",
        ]
        return True

    def _scan_of(self, src: str):
        """((zone, condition), negated) when the test part `src` is whether an object of a
        zone matches (`exists(first(Z where P))`, `P` pure: `_scans`) or its `not`; else None."""
        src = _bare(src)
        negated = src.startswith("not ")
        part = _bare(src[4:]) if negated else src
        got = self._scans.get(part)
        if got is None and FIRST_SCANS:
            got = _first_of(part)
        return None if got is None else (got, negated)

    def _statement_src(self, e, make) -> str:
        """`make(e, ())`, the source of an enumerator's test or domain, with the zones of its
        `where`s tested for emptiness first (`GUARD_EMPTY`), unless Python refuses that there
        (an assignment expression in a comprehension's items)."""
        saved, self._guard = self._guard, GUARD_EMPTY
        before = dict(self._hoist) if self._hoist is not None else None
        try:
            src = make(e, ())
            compile(src, "<test>", "eval")
        except SyntaxError:
            if before is not None:  # the values kept at an outer level are found again
                self._hoist.clear()
                self._hoist.update(before)
            self._guard = False
            src = make(e, ())
        finally:
            self._guard = saved
        return src

    def domain_key(self, act, i: int, names: set) -> tuple[list[str], list[str]] | None:
        """The key under which parameter i's domain is kept per game (`Game.domains`) when it
        reads only the names bound before it, `you` and counters (build/depends.
        domain_counters: `b: area from near(you, a)`, from the map alone), in two parts: what
        is the same for a whole listing (the action, the parameter, `you`, the counters'
        values) and the values of those names. None: the domain is computed each time."""
        fixed = act.dom_fixed[i]
        if fixed is None or not all(x in self.bound for x in names):
            return None
        outer = [str(act.id), str(i), "you_"]
        for c in fixed:
            sym = self.p.counters.get(c)
            if sym is None:
                return None
            if sym.scope == "global":
                outer.append(f"st.counters.get({c!r})")
            else:  # the whole row: a player's or an area's counter read for any of them
                table = "pcounters" if sym.scope == "player" else "acounters"
                outer.append(f"tuple(st.{table}[{c!r}])")
        return outer, [self.bound[x] for x in sorted(names)]
