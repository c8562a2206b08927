"""Expressions → Python source → one compiled function each: `f(st, env)`.

Nested closures cost a Python call per AST node; generating the source of a whole expression
and compiling it once makes the hot path (legality tests, attack rules) a single call. The
source is built from the checker's resolutions only; the names it uses come from `HELPERS`
and from constants bound into the function's globals (never from the ruleset's text).
"""

from __future__ import annotations

import ast
import math
import re
import unicodedata
from contextlib import contextmanager
from itertools import chain, count

from ..language import nodes as n
from ..language import resolved as rv
from ..language.fmt import format_expr
from ..language.symbols import NUMBER, ZONE
from ..runtime.acts import doable
from ..runtime.builtins import BUILTIN_FUNCS
from ..runtime.errors import RulesError
from ..runtime.operators import HELPERS
from .hoist import params_read

_STRING = r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\""  # a literal, as repr() writes it
_LITERAL = re.compile(_STRING)


def mark(lines: list[str], k: int, span) -> None:
    """End line `k` of generated code with a comment naming the rules' place (`# rules.madang:81`):
    the map from generated code back to the source (`define` keeps it as `debug_info`)."""
    if span is not None and k < len(lines) and "#" not in lines[k]:
        lines[k] += f"  # {span.file.rpartition('/')[2]}:{span.line}"


_MARK = re.compile(r"  # ([^#\s]+:\d+)$")  # what `mark` writes
_WHERE = re.compile(r"<madang (?:_\w* )?(.*?)(?::\d+)?>$")  # define's filename: its rules' place


def rules_place(fn, lineno: int) -> str | None:
    """The place in the rules of line `lineno` of a generated function (its `debug_info`):
    the statement written at or above that line, in the file the function was made from."""
    for line, where in reversed(getattr(fn, "debug_info", ())):
        if line <= lineno:
            return where
    return None


def note_rules_place(exc: BaseException) -> str | None:
    """Add to a Python error raised inside generated code the place in the rules it was
    running (the innermost generated function's line, mapped by `debug_info`), as a note that
    tracebacks and `madang`'s error message show: the generated code is not the user's. The
    place, or None outside generated code."""
    for x in getattr(exc, "__notes__", ()):
        if str(x).startswith("while running the rules at "):
            return str(x).removeprefix("while running the rules at ")
    place = None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename.startswith("<madang "):
            fn = tb.tb_frame.f_globals.get(code.co_name)
            m = _WHERE.match(code.co_filename)
            where = m.group(1) if m else None
            place = rules_place(fn, tb.tb_lineno - code.co_firstlineno + 1)
            if place is None:
                place = where
            elif where:  # the mark names a file of the rules the function was made from
                folder = where.rpartition(":")[0].rpartition("/")[0]
                place = f"{folder}/{place}" if folder else place
        tb = tb.tb_next
    if place is not None:
        exc.add_note(f"while running the rules at {place}")
    return place


def define(ns: dict, name: str, code: str, filename: str):
    """Compile our own generated source into `ns` and return the function, keeping the source
    on it (`fn.generated`) so that `madang compile` can show what the rules became. Each
    statement's first line ends with a comment naming its place in the rules (`# rules.madang:81`)."""
    exec(compile(code, filename, "exec"), ns)  # generated from checked syntax trees only
    fn = ns[name]
    fn.generated = code
    # the map from generated lines to the rules' (Jinja's debug_info): [(line, "file:line")]
    fn.debug_info = [
        (k, m.group(1))
        for k, line in enumerate(code.split("\n"), 1)
        if (m := _MARK.search(line)) is not None
    ]
    return fn


CMP = {"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}
INLINE_MAX = 800  # characters of a definition's body written at its uses
# a longer body written inline in an enumerator's test when parts of it are kept at an outer
# loop (build/hoist.py), so that they are
INLINE_HOIST_MAX = 2400
INLINE_DEPTH = 6  # definitions inlined inside one another
CARD_CMP = True  # a property printed on every card compared without `_le` (`_printed_compare`)
DEF_ARGS = True  # a definition called with its arguments in order, no dictionary (`define_args`)
SEAT_INLINE = True  # `first(opponents(p))` of a name written out while nobody has lost
# a `where`'s test written as a condition (`CodeGen.test`): its `and`/`or` as Python's, not
# made a true-or-false value first
WHERE_TRUTH = True
# `areas where c > 0 and R`, `c` an area counter never below 0: only the areas whose `c` is not
# 0 gone through in Python (`CodeGen._areas_above_zero`)
AREAS_ABOVE_ZERO = True
_EACH_AREAS = "_each(st, range(len(st.g.areas)))"
# `flatten` of the zone `z` of every area (`zone z of each area`, in the areas' order) gone
# through as the slice of `st.zones` that holds them (the zones of one name are laid out by
# area, `AREA_ZONES`), not as a list of the zones' numbers made first
AREAS_FLAT = True
_AREAS_ZONES = re.compile(
    r"\[\((st\.g\.zone_base\['[^'\\]*'\]) \+ (m\d+)\) for \2 in "
    r"\(_listed\(st, list\(range\(len\(st\.g\.areas\)\)\)\) or \[\]\)\]"
)
# a definition's parameter that its body reads only as a list (each read `_listed` of it, or
# `_seq` of it: a list, a zone's objects, none as no objects) made that list once at the
# body's start, its reads the variable and `_each` of it (`_listed_once`)
LISTED_ONCE = True


def _listed_once(src: str, names: list[str]) -> tuple[str, list[str]]:
    """`src` with the parameters among `names` that it reads two or more times and only as
    the items of a loop (`for x in ((v if v.__class__ is list else _listed(st, v)) or [])`) or
    `_seq(st, v)` read as the list made once (the names returned, for the line that makes
    it): `_seq` of that list is `_each` of it, the same items and charge."""
    done = []
    for v in names:
        listed = f" in (({v} if {v}.__class__ is list else _listed(st, {v})) or [])"
        uses = src.count(listed) * 3 + src.count(f"_seq(st, {v})")
        if uses < 4 or len(re.findall(rf"\b{v}\b", src)) != uses:
            continue
        src = src.replace(listed, f" in {v}").replace(f"_seq(st, {v})", f"_each(st, {v})")
        done.append(v)
    return src, done


# a definition's body that counts the items of one of its list parameters passing a test in
# several places it always computes: one pass over the list before the body, the counts'
# charges joined into one (`CodeGen.define_args`, `_counts_joined`)
COUNTS_JOINED = True
# the nodes a count's test may be made of: reads of the state and of the item, comparisons by
# equality or identity, `and`/`or`/`not` (nothing that calls, charges or raises on a number)
_TEST_NODES = (
    ast.BoolOp, ast.UnaryOp, ast.Compare, ast.Subscript, ast.Name, ast.Attribute, ast.Constant,
    ast.expr_context, ast.boolop, ast.Not, ast.Eq, ast.NotEq, ast.Is, ast.IsNot,
)  # fmt: skip


def _always(e: ast.AST):
    """The subexpressions of `e` computed whenever `e` is: not a branch of an `if`, an `and`
    or `or` after its first item, a comparison after its first two operands, nor the items or
    tests of a comprehension (its first iterable only)."""
    yield e
    if isinstance(e, ast.BoolOp):
        parts = e.values[:1]
    elif isinstance(e, ast.IfExp):
        parts = [e.test]
    elif isinstance(e, ast.Compare):
        parts = [e.left, e.comparators[0]]
    elif isinstance(e, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
        parts = [e.generators[0].iter]
    elif isinstance(e, ast.BinOp | ast.UnaryOp | ast.Call | ast.Subscript | ast.Attribute):
        parts = [x for x in ast.iter_child_nodes(e) if isinstance(x, ast.expr)]
    elif isinstance(e, ast.Tuple | ast.List | ast.Set):
        parts = e.elts
    else:
        parts = []
    for x in parts:
        yield from _always(x)


def _count_of(e: ast.AST, names: list[str]) -> tuple[str, str, str] | None:
    """(list parameter, item name, test) of `len([x for x in _each(st, P) if T])`, `P` one of
    `names` and `T` a test of `x` made of `_TEST_NODES` only; None for anything else."""
    if not (
        isinstance(e, ast.Call)
        and isinstance(e.func, ast.Name)
        and e.func.id == "len"
        and len(e.args) == 1
        and not e.keywords
        and isinstance(comp := e.args[0], ast.ListComp)
        and len(comp.generators) == 1
    ):
        return None
    gen = comp.generators[0]
    it = gen.iter
    if not (
        isinstance(gen.target, ast.Name)
        and isinstance(comp.elt, ast.Name)
        and comp.elt.id == gen.target.id
        and len(gen.ifs) == 1
        and isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "_each"
        and [ast.unparse(a) for a in it.args[:1]] == ["st"]
        and len(it.args) == 2
        and isinstance(it.args[1], ast.Name)
        and it.args[1].id in names
    ):
        return None
    if not all(isinstance(x, _TEST_NODES) for x in ast.walk(gen.ifs[0])):
        return None
    return it.args[1].id, gen.target.id, ast.unparse(gen.ifs[0])


def _counts_joined(src: str, names: list[str], again: str) -> tuple[str, str] | None:
    """A definition's body `src` (its list parameters `names`) with each count it always
    computes of a parameter's items passing a test (`_count_of`) read from a local, and the
    statements that make those locals before it: the counts' charges joined in one
    (`st.work += k * len(P)`, tested once), then one loop a parameter counting each test.
    None where no parameter is counted twice. `again` (a statement) makes the body again
    charged one by one where the joined charge passes the budget, the work as it was before."""
    tree = _parsed(src)
    if tree is None:
        return None
    found = [(x, c) for x in _always(tree) if (c := _count_of(x, names)) is not None]
    lists: dict[str, int] = {}
    for _, (v, _, _) in found:
        lists[v] = lists.get(v, 0) + 1
    found = [(x, c) for x, c in found if lists[c[0]] > 1]
    if not found:
        return None
    # each count's text replaced by its local, from the end so that earlier offsets hold
    starts = [0] + [i + 1 for i, ch in enumerate(src) if ch == "\n"]
    local: dict[tuple[str, str, str], str] = {}
    edits = []
    for x, c in found:
        name = local.setdefault(c, f"nj{len(local)}_")
        a = starts[x.lineno - 1] + x.col_offset
        b = starts[x.end_lineno - 1] + x.end_col_offset
        edits.append((a, b, name))
    for a, b, name in sorted(edits, reverse=True):
        src = src[:a] + name + src[b:]
    charge = " + ".join(
        f"{k} * len({v})" if k > 1 else f"len({v})" for v, k in lists.items() if k > 1
    )
    lines = [
        "    w0_ = st.work\n",
        f"    st.work += {charge}\n",
        f"    if st.work > st.work_limit:\n        st.work = w0_\n        {again}\n",
    ]
    lines.append(f"    {' = '.join(local.values())} = 0\n")
    for v in dict.fromkeys(c[0] for c in local):
        for it in dict.fromkeys(c[1] for c in local if c[0] == v):
            tests = {name: test for (w, i, test), name in local.items() if (w, i) == (v, it)}
            lines += [f"    for {it} in {v}:\n", *_tallied(it, tests)]
    return src, "".join(lines)


def _tallied(it: str, tests: dict[str, str]) -> list[str]:
    """The body of the loop over `it` adding 1 to each local of `tests` whose test holds: a
    none item passed over once where every test starts by testing it, and then its card read
    once where every test reads it (the same truths: the reads are of the state only)."""
    lines = []
    first = f"{it} is not None and "
    if all(t.startswith(first) for t in tests.values()):
        lines.append(f"        if {it} is None: continue\n")
        tests = {k: t[len(first) :] for k, t in tests.items()}
    card = f"st.obj_card[{it}]"  # (an object's card: read early, it raises nothing)
    if lines and len(tests) > 1 and all(card in t for t in tests.values()):
        lines.append(f"        cj_ = {card}\n")
        tests = {k: t.replace(card, "cj_") for k, t in tests.items()}
    return lines + [f"        if {t}: {k} += 1\n" for k, t in tests.items()]


_EACH_FLAT = re.compile(r"_each\(st, \[(_fo\d+) for (_fz\d+) in (st\.zones\[.*\]) for \1 in \2\]\)")


def _loop(var: str, items: str) -> str:
    """A comprehension's `for var in items`: over the flattened zones of every area
    (`AREAS_FLAT`, charged as one list) a loop over those zones and one over each's objects,
    the same items in the same order, without the flattened list made first."""
    m = _EACH_FLAT.fullmatch(items) if AREAS_FLAT else None
    if m is None:
        return f"for {var} in {items}"
    return f"for {m[2]} in _each_flat(st, {m[3]}) for {var} in {m[2]}"


# `count(areas where A and exists(first(Z where C)))` (C pure: the matches listed,
# `([x for x in Z if C] != [])`) as the number of the areas in one comprehension that goes on
# into Z where A holds, `len({a for a in AREAS if A for x in Z if C})`: the same tests and
# charges in the same order, no comprehension of its own per area (the areas are distinct)
COUNT_HAVING = True
_AREA_ITEMS = re.compile(
    r"(?:_compress\()?_each\(st, range\(len\(st\.g\.areas\)\)\)(?:, st\.acounters\['[^'\\]*'\]\))?"
)
_HAVING = re.compile(r"\[(it\d+) for \1 in (_each\(st, .*?\)) if (.*)\] != \[\]")


def _counted_having(src: str) -> str | None:
    """`COUNT_HAVING`: the set of the areas that `src` (the list comprehension of a `where`
    over the areas, counted) keeps, when its test's last part is whether an object of a zone
    matches; else None."""
    m = re.fullmatch(r"\[(it\d+) for \1 in (.*)\]", src) if COUNT_HAVING else None
    if m is None:
        return None
    var, rest = m.groups()
    at = next((k for k, ch, d in bracket_depths(rest) if not d and rest.startswith(" if ", k)), -1)
    if at < 0 or not _AREA_ITEMS.fullmatch(rest[:at]):
        return None
    parts = _and_parts(_bare(rest[at + 4 :]))
    last = _HAVING.fullmatch(_bare(parts[-1]))
    if last is None or not _pure(last[3]) or " if " in last[2]:
        return None
    inner = last[2][len("_each") :]
    if any(not d and k < len(inner) - 1 for k, ch, d in bracket_depths(inner)):
        return None  # (the zone's items end at the `_each`'s own parenthesis)
    tested = "".join(f" if {_grouped(x)}" for x in parts[:-1])
    return f"{{{var} for {var} in {rest[:at]}{tested} for {last[1]} in {last[2]} if {last[3]}}}"


def _and_parts(src: str) -> list[str]:
    """The parts of `src` at its top-level ` and `s (one part where it has a top-level
    conditional, `or` or `lambda`)."""
    parts, start = [], 0
    for k, ch, d in bracket_depths(src):
        if d or ch != " " or k < start:
            continue
        if src.startswith((" if ", " else ", " or ", " lambda"), k):
            return [src]
        if src.startswith(" and ", k):
            parts.append(src[start:k])
            start = k + 5
    return [*parts, src[start:]]


_ABOVE_ZERO = re.compile(r"\(st\.acounters\['([^'\\]*)'\]\[(\w+)\] > 0\)")
# a definition whose body is a plain number (a count, a sum, a counter, arithmetic of such)
# compared as a number that is never none: no `_lt`, no `(x or 0)` (`_plain_define`)
PLAIN_DEFINES = True
# `+` of two values known as lists: `operators._join`, without `_plus`'s type tests
JOIN_LISTS = True
# `x.name == "T"` of a text known when compiling: a table of each card's truth (`_name_is`)
NAME_TABLES = True
MIN_MAX = True  # `max`/`min` of numbers never none as Python's, their value never none
# a parameter of a definition written inline read as a number never none where its argument
# is one (`_valued`): `p.n >= c` of `ok(p, max(x, 0))` without `_ge` (`CodeGen._inlined`)
NUMBER_ARGS = True
# `x is A or x is B` of one object: one table of each card's truth for the kinds (`_kinds_joined`)
KINDS_JOINED = True
FUSE = True  # a `where` over a `where` of pure tests as one loop (`CodeGen.where_parts`)
# `x is K` and a printed keyword of `x has K` read from a table of each card's truth for K
# (`_card_table`)
KIND_TABLES = True
# `x has K` asks `Program.may_grant` nothing: its kept answer is read from `State.ko` in the
# generated code (`_kog`), an unknown one read as "may" (`granted_args` keeps it)
KO_READ = True
# `flatten(players.A + players.B ...)`: the objects of those zones of every seat in one
# comprehension over the zones' bases and the seats, their objects joined by `_chain` (no lists
# of zones built and joined, no round of Python per object)
SEAT_FLATTEN = True
_SEATS = "(_players(st) if st.lost else range(st.g.nplayers))"  # `players.X`'s seats (attr)
# and each name's zones of all seats read as one slice of `st.zones` while nobody has lost (a
# name's zones are laid out by seat): no comprehension over the bases and seats
SEAT_SLICES = True


# `flatten([A, B, C])` of zones written as a list display: each zone's objects unpacked into
# one new list (no list of the zones, no comprehension)
ZONES_JOINED = True


def _zones_joined(src: str) -> str | None:
    """`[*st.zones[A], *st.zones[B], ...]` for the list display `src` of zones `[A, B, ...]`
    whose items call nothing that is not pure (their order of computing then does not
    matter); None for any other list."""
    body = _fresh(src)
    if not isinstance(body, ast.List) or not body.elts or not _pure(src):
        return None
    items = [ast.get_source_segment(src, x) for x in body.elts]
    if any(x is None or isinstance(e, ast.Starred) for x, e in zip(items, body.elts)):
        return None
    return "[" + ", ".join(f"*st.zones[{x}]" for x in items) + "]"


def _seat_slices(names: list[str], m: str) -> str:
    """The objects of the zones `names` of every seat, name by name and seat by seat, as a new
    list (`SEAT_SLICES`): each name's zones one slice while nobody has lost, else those of the
    seats still playing (the seat variable `m`)."""
    parts = []
    for x in names:
        b = f"st.g.zone_base[{x!r}]"
        parts.append(
            f"*_chain(st.zones[{b} : {b} + st.g.nplayers] if not st.lost"
            f" else [st.zones[{b} + {m}] for {m} in _players(st)])"
        )
    return f"[{', '.join(parts)}]"


_NOKO: dict = {}  # (read only: `State.ko` before anything was kept)
_MAY = (True, None)  # (a keyword not kept yet: asked of `granted_args`)
# what a test may call and still be run for every item instead of up to the first match:
# reads and comparisons that neither charge the budget, draw a random number nor raise
_PURE_CALLS = frozenset(
    "_lt _le _gt _ge _contains _owner _zone_of _card_of _oprop _bprop _bslot _rprop _has _is"
    " _fact _dget _index _in_effect _players PROG.read_prop PROG.granted_args len env.get _chain".split()
)
_CALLED = re.compile(r"([A-Za-z_][\w.]*)?(\]?)\(")


def _fusible(src: str) -> bool:
    """Whether Python written for a test calls only `_PURE_CALLS`, or goes through lists of its
    own (`_each`, `any`: they charge the budget for what they go through, no more): tested for
    every item in another order, or for fewer items, it gives the same matches and charges
    what it went through."""
    return all(
        (name in _PURE_CALLS or name in _FUSIBLE_CALLS or name.startswith("_RP_")) and not sub
        for name, sub in _CALLED.findall(src)
        if name or sub
    )


_FUSIBLE_CALLS = frozenset(("_each", "any", "_mg", "_kog"))

# `objects(L)` and `L.p` of a list that the Python written for `L` makes anew (a list display
# or comprehension, as an inlined definition's `where` is): no copy of it, no `or []`, and a
# property of each match read in the comprehension that finds them (`_mapped`)
FRESH_LISTS = True


def _fresh(src: str) -> ast.expr | None:
    """The list display or comprehension that the Python `src` is (a new list each time it is
    evaluated, never none), or None."""
    if not FRESH_LISTS or not src.startswith(("[", "(")):
        return None
    body = _parsed(src)
    return body if isinstance(body, ast.List | ast.ListComp) else None


def _parsed(src: str) -> ast.expr | None:
    """The Python expression `src` parsed, or None where it is not one."""
    try:
        return ast.parse(src, mode="eval").body
    except SyntaxError:
        return None


def _matched_var(src: str) -> str | None:
    """The variable of `src` when it is a comprehension listing its own items, one loop with
    tests (`[it1 for it1 in Z if C]`, what a `where` is written as), else None."""
    comp = _fresh(src)
    if not isinstance(comp, ast.ListComp) or len(comp.generators) != 1:
        return None
    gen = comp.generators[0]
    elt = comp.elt
    if not (isinstance(elt, ast.Name) and isinstance(gen.target, ast.Name)):
        return None
    return elt.id if elt.id == gen.target.id and comp.lineno == comp.end_lineno else None


def _mapped(src: str, one: str) -> str:
    """The comprehension `src` (`_matched_var`'s) with `one` for each match instead of it."""
    comp = _fresh(src)
    raw = src.encode()
    elt = comp.elt
    inner = raw[comp.col_offset : comp.end_col_offset]
    at, end = elt.col_offset - comp.col_offset, elt.end_col_offset - comp.col_offset
    return (inner[:at] + one.encode() + inner[end:]).decode()


def _pure(src: str) -> bool:
    """Whether Python written for a test calls only `_PURE_CALLS` (no definition, no built-in
    of the rules, no list gone through)."""
    return all(
        (name in _PURE_CALLS or name.startswith("_RP_")) and not sub
        for name, sub in _CALLED.findall(src)
        if name or sub
    )


# A place in the rules (`file:line:col`) inside a string literal of generated code (an
# error's or a charge's): its path is where the ruleset was loaded from
_IN_PLACE = re.compile(r"\.\w+:\d+:\d+")


def _size(src: str) -> int:
    """The length of generated code as the budgets of inlining count it: a string literal that
    quotes a place in the rules as two characters, so that a ruleset compiles to the same
    program wherever it lies (a longer path made bodies too long to inline; docs/speed.md,
    h47d and h48p)."""
    return len(_LITERAL.sub(lambda m: "''" if _IN_PLACE.search(m.group()) else m.group(), src))


def unquoted(src: str) -> str:
    """Generated code with its string literals emptied: what a test for a name read in it
    looks at (`\\benv\\b`), not a word of a quoted place's path (`.venv/`) or of a constant."""
    return _LITERAL.sub("''", src)


# an argument that may be written more than once: a local, a name read from env, a constant
_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|env\.get\('[^'\\]*'\)|\(-?\d+\)|-?\d+|'[^'\\]*'")
# an argument read again at each use for less than a call costs: a table of the state or the
# game indexed by a name, a zone of a name's (`p.hand`, `z.owner`)
_N = r"(?:[A-Za-z_]\w*|env\.get\('[^'\\]*'\))"
_OBJ_READ = (
    rf"\(None if {_N} is None else st\.obj_(?:owner|zone)\[{_N}\]\)|st\.obj_(?:owner|zone)\[{_N}\]"
)
_READ = re.compile(
    rf"st\.g\.zone_info\[(?:{_N}|{_OBJ_READ})\]\[1\]|\(st\.g\.zone_base\['[^'\\]*'\] \+ {_N}\)"
    rf"|{_OBJ_READ}"
)


# built-ins whose value is always a new list (runtime/builtins.py)
_NEW_LISTS = frozenset(
    rv.BuiltinRef(k)
    for k in (
        "objects", "opponents", "reversed", "contents", "roll", "shuffled", "range", "take",
        "drop", "flatten", "adjacent", "sorted_by", "unique",
    )
)  # fmt: skip


class _Locals(dict):
    """The local names of the function being generated, each held in a Python variable
    (`_l0`, `_l1`, ...) allocated at its first use: read without a dictionary probe, written
    through to the frame's `env` too, so that the env is always complete (saves, clones and
    the statements that read it see what they saw)."""

    def get(self, name, default=None):
        v = dict.get(self, name)
        if v is None:
            v = self[name] = f"_l{len(self)}"
        return v

    def loads(self, pad: str, names=None) -> list[str]:
        """The lines that (re)load the variables from the env (of `names`, or all)."""
        return [
            f"{pad}{v} = env.get({k!r})" for k, v in self.items() if names is None or k in names
        ]

    def settle(self, lines: list[str]) -> list[str]:
        """A variable read fewer than twice costs its load and gains nothing: such names are
        read from the env where they are used, and dropped from the variables. (String
        literals of the rules are left as they are, whatever they hold.)"""
        text = "\n".join(lines)
        for k, v in list(self.items()):
            pat = re.compile(rf"({_STRING})|(= {v} = )|\b{v}\b")
            found = [m for m in pat.finditer(text) if m.group(1) is None]
            if sum(1 for m in found if m.group(2) is None) >= 2:
                continue
            read = f"env.get({k!r})"
            text = pat.sub(lambda m, r=read: m.group(1) or ("= " if m.group(2) else r), text)
            del self[k]
        return text.split("\n") if lines else []


def written_props(syms, res) -> set[str]:
    """The properties some statement of the rules writes (`x.p = v`, `x.p += n`): each gets a
    slot of the state's layout (State.pv), read by object; the others are read from the cards."""
    from .depends import rule_roots

    out = set()
    roots = [*rule_roots(syms), *(c.body for c in syms.checks)]
    for root in roots:
        for x in root.walk():
            if isinstance(x, n.Assign) and isinstance(x.target, n.Attr):
                ref = res.attr_of(x.target)
                if isinstance(ref, rv.ObjProp):
                    out.add(ref.name)
    return out


class CodeGen:
    """One per compiler: turns checked expressions into functions sharing one namespace."""

    def __init__(self, compiler):
        self.c = compiler
        self.p = compiler.p
        self.r = compiler.r
        self.s = compiler.s
        self.ns: dict = dict(HELPERS)
        self.ns["CARDS"] = self.p.cards
        self.ns["PROG"] = self.p
        self.ns["RulesError"] = RulesError
        self._const_ids: dict[int, str] = {}
        # the numbers of the generated names, per compilation: a program's text does not
        # depend on what the process compiled before it
        self.ids = count()
        self._inlining: list[str] = []  # definitions being written inline (inline_define)
        self._inlining_objs: list[str] = []  # definitions being looked into (_body_is)
        # the reads of parameters of the definitions written inline whose argument is a number
        # never none (`_inlined`), by the syntax node's id: `_plain_number` of such a read
        self._number_reads: frozenset[int] = frozenset()
        # while an enumerator's `require` part tested at level `_hoist_at` is written: the
        # holders of values kept at an outer level (build/hoist.py), by source: (name, level)
        self._hoist: dict[str, tuple[str, int]] | None = None
        self._hoist_at = 0
        # while an enumerator's test or domain is written (a statement of its function): a
        # `where` over a zone tests the zone's emptiness first (`where`, GUARD_EMPTY)
        self._guard = False
        # an emptiness test of a guarded `where` (`exists(first(Z where P))`) by its source:
        # (zone, the comprehension over `zg{d}_` without its charge), so that an enumerator's
        # test that starts with it charges the zone in statements before it (enumerators.py)
        self._scans: dict[str, tuple[str, str]] = {}
        self._skippable_parts: set[str] = set()  # parts of the tests (`_skippable`)
        self.objs: set[str] = set()  # Python names that hold an object, never none (`where`)
        self.zone_vars: set[str] = set()  # Python variables that hold a zone (a loop's name)
        # local names of the function being generated that always hold a zone, a list or a
        # number (never none) where they are read (held_names)
        self.let_kinds: dict[str, str] = {}
        # Local names held in Python variables of the function being generated (an action's
        # enumerator binds its parameters and `you`), instead of read from env.
        self.bound: dict[str, str] = {}
        self._far_tables: dict[tuple, str] = {}  # `_printed_compare`'s tables by property
        # definitions' bodies taking their arguments in order (`define_args`): the holder's
        # name in the namespace, or None where the body reads the env otherwise
        self._args_bodies: dict[str, str | None] = {}
        cards, prog = self.p.cards, self.p

        granted = prog.granted_args

        # `_mg(st, kw)`: whether `granted_args(st, o, kw)` may be other than None when no
        # statement granted anything now (ContinuousEffects.may_grant: a continuous grant of
        # `kw` whose cards have objects in this state, or a keyword that implies it).
        _mg = prog.may_grant

        def _has(st, o, kw):  # ContinuousEffects.has, with the printed keywords looked at here
            return o is not None and (
                kw in cards[st.obj_card[o]].keywords
                or (st.grants or (st.ko or _NOKO).get(kw, _MAY)[0])
                and granted(st, o, kw) is not None
            )

        def _is(st, o, kind):
            return o is not None and cards[st.obj_card[o]].kind == kind

        def _rprop(st, o, name):
            return None if o is None else prog.read_prop(st, o, name)

        if prog.prop_slots is None:  # the main compile lays the state out; snippets keep it
            prog.prop_slots = {k: i for i, k in enumerate(sorted(written_props(self.s, self.r)))}
        slots = prog.prop_slots

        def _bprop(st, o, name):  # ContinuousEffects.base_prop, written out: the hottest read
            if o is None:
                return None
            k = slots.get(name)
            if k is not None:
                return st.pv[k][o]
            d = st.props.get(name)
            if d is not None and o in d:
                return d[o]
            return cards[st.obj_card[o]].props.get(name)

        def _bslot(st, o, k):  # a property the rules write, of an object or none
            return None if o is None else st.pv[k][o]

        self.ns.update(_has=_has, _is=_is, _rprop=_rprop, _bprop=_bprop, _bslot=_bslot, _NOD={})
        self.ns["_mg"] = _mg
        # `may_grant`'s kept answer read in place: (State.ko or _NOKO).get(kw, _MAY)[0]
        self.ns.update(_kog=dict.get, _NOKO=_NOKO, _MAY=_MAY, _chain=chain.from_iterable)
        self.ns["_oprop"] = _bprop  # a property written from outside the rules (a position)

    def const(self, value, hint: str | None = None) -> str:
        """A name in the namespace bound to `value` (for functions and objects), made from
        `hint` (the name in the rules) when there is one, so the generated code reads."""
        key = id(value)
        name = self._const_ids.get(key)
        if name is None:
            word = hint or getattr(value, "name", None) or type(value).__name__
            word = word if isinstance(word, str) and word.isidentifier() else "k"
            name = f"_{word}_{next(self.ids)}"
            self._const_ids[key] = name
            self.ns[name] = value
        return name

    def locals_start(self, stmts=()):
        """Hold the local names of the function about to be generated (the statements
        `stmts`) in Python variables; returns what `locals_end` restores (generation nests: a
        verb's function is written while its caller's is, and the caller's names known to hold
        objects are not its)."""
        saved = self.bound, self.objs, self.zone_vars, self.let_kinds
        self.bound, self.objs, self.zone_vars = _Locals(), set(), set()
        self.let_kinds = {}
        self.let_kinds = self.held_names(stmts)
        return saved

    def locals_end(self, saved) -> _Locals:
        loc = self.bound
        self.bound, self.objs, self.zone_vars, self.let_kinds = saved
        return loc

    def held_names(self, stmts) -> dict[str, str]:
        """The local names of `stmts` that hold a zone, a list or a number (never none)
        wherever they are read, by the checker's type of their first `let`
        (`Resolved.binding_type`) and a proof of each value bound: the `let` (or a `choose` of
        min..max items, an `order`: each binds a list once it is done) runs first (it is
        a statement of a block written in this function, and every other read or binding of
        the name is inside the statements after it in that block), and every binding of the
        name is a `let`, an `order`, a `choose` of min..max or an assignment whose value is such (`_zone`, `_list`,
        `_plain_number`: with the name assumed held, as the first binding is proved without
        it). A name bound otherwise (a loop, a choice) holds nothing known."""
        lets: list[tuple[n.Stmt, tuple]] = []  # each `let` with the statements after it

        def visit(body: tuple) -> None:
            for i, s in enumerate(body):
                if isinstance(s, n.Let | n.Order) or isinstance(s, n.Choose) and s.min is not None:
                    lets.append((s, body[i + 1 :]))
                for b in _inline_blocks(s):
                    visit(b.body)

        visit(tuple(stmts))
        nodes = [x for s in stmts for x in s.walk()]
        kinds: dict[str, str] = {}
        for let, after in lets:
            name = let.name
            t = self.r.binding_type(let)
            kind = "list" if isinstance(t, tuple) else _KIND_OF_TYPE.get(t)
            if kind is None or name in kinds:
                continue
            later = {id(x) for s in after for x in s.walk()}
            binds = []
            ok = True
            for x in nodes:
                if x is let:
                    continue
                if _binds_node(x, name):
                    binds.append(x)
                elif not _reads_node(x, name, self.r):
                    continue
                if id(x) not in later:
                    ok = False
                    break
            if not ok or any(
                not isinstance(b, n.Let | n.Assign | n.Order | n.Choose) for b in binds
            ):
                kinds[name] = ""
                continue
            self.let_kinds = {name: kind}
            try:
                ok = all(self._holds(b, kind) for b in [let, *binds])
            finally:
                self.let_kinds = {}
            kinds[name] = kind if ok else ""
        return {k: v for k, v in kinds.items() if v}

    def _holds(self, b, kind: str) -> bool:
        """Whether the binding `b` (a `let` or an assignment) gives its name a `kind`."""
        if isinstance(b, n.Order):  # engine.Order: a new list of the items, reordered
            return kind == "list"
        if isinstance(b, n.Choose):  # engine.Choose: of min..max items, the list picked
            return kind == "list" and b.min is not None
        if isinstance(b, n.Assign) and b.op != "=":
            return kind == "number" and self._plain_number(b.value)
        if kind == "zone":
            return self._zone(b.value)
        if kind == "list":
            return self._list(b.value)
        return self._plain_number(b.value)

    def _held(self, e: n.Name, kind: str) -> bool:
        """Whether the local name `e` of the function being generated holds a `kind`."""
        return (
            bool(self.let_kinds)
            and isinstance(self.bound, _Locals)
            and self.let_kinds.get(e.name) == kind
        )

    def loop_items(self, e, its=()) -> str | None:
        """A new list of the items of `e` for a statement's loop to go through, where the
        compiler knows `e` is a zone or a list (the loop then charges the budget by its length
        itself, with no call of `_seq` and its type tests); None otherwise."""
        if self._zone(e):
            return f"list(st.zones[{self.src(e, its)}])"
        if self._list(e):  # a new list, made for this loop alone (a name's list: a copy)
            src = self.src(e, its)
            fresh = not isinstance(e, n.Name | n.IfExpr) or _fresh(src) or src == "_players(st)"
            return src if fresh else f"list({src})"
        return None

    @contextmanager
    def loop_holds(self, s: n.For):
        """While a loop's body is written: its name's variable known to hold an object (never
        none: the loop goes through a zone's objects or a `where` over them) or a zone (a list
        of zones: `[p.top, p.bottom]`), when the body never binds the name again."""
        held, var = None, None
        if isinstance(self.bound, _Locals) and not _binds(s.body, s.name):
            if self.objects_only(s.items):
                held = self.objs
            elif self._zones(s.items):
                held = self.zone_vars
        if held is not None:
            var = self.bound.get(s.name)
            held.add(var)
        try:
            yield
        finally:
            if held is not None:
                held.discard(var)

    def charge_lines(self, var: str) -> list[str]:
        """What `_seq` does to the budget for the list in `var`, written out."""
        return [
            f"st.work += len({var})",
            "if st.work > st.work_limit: _charge(st, 0, 'a list')",
        ]

    def store(self, name: str) -> str:
        """The target of an assignment to the local `name` (the env, and its variable)."""
        if isinstance(self.bound, _Locals):
            return f"env[{name!r}] = {self.bound.get(name)}"
        return f"env[{name!r}]"

    def test(self, e: n.Expr, its=()) -> str:
        """`e` where only its truth counts (an `if`, a `while`): `and`/`or` as Python's."""
        if isinstance(e, n.BoolOp):
            items = self._kinds_joined(e, its) if e.op == "or" else e.items
            parts = [i if isinstance(i, str) else _grouped(self.test(i, its)) for i in items]
            if e.op == "and" and BOUNDS_JOINED:
                parts = bounds_joined(parts)
            return f" {e.op} ".join(parts)
        return self.src(e, its)

    def _kinds_joined(self, e: n.BoolOp, its) -> list:
        """The items of an `or`, each run of two or more `x is K` of one object `x` (a name or
        an object) replaced by the Python of one test: a table of each card's truth for "one of
        those kinds" (`KINDS_JOINED`; the same truth, one read instead of one per kind)."""
        out: list = []
        run: list = []
        for i in [*e.items, None]:
            o = self._kind_obj(i, its) if i is not None else None
            if run and (o is None or o != run[0][0]):
                out.append(self._kinds_test(run) if len(run) > 1 else run[0][1])
                run = []
            if o is not None:
                run.append((o, i))
            elif i is not None:
                out.append(i)
        return out

    def _kind_obj(self, e, its) -> str | None:
        """The Python of `x` in `x is K` (a name or an object) when `KINDS_JOINED` may join it."""
        if not (KINDS_JOINED and isinstance(e, n.IsKind)):
            return None
        o = self.src(e.obj, its)
        return o if o in self.objs or _plain(o) else None

    def _kinds_test(self, run: list) -> str:
        """`x is A or x is B ...` of one `x` as one read of a table by card (`_card_table`)."""
        o = run[0][0]
        kinds = sorted({self.s.canonical.get(i.kind, i.kind) for _, i in run})
        test = self._card_table(o, "kinds", "|".join(kinds), lambda c: c.kind in kinds)
        if test is None:  # the cards still being made: each test as written
            return " or ".join(_grouped(self.src(i, ())) for _, i in run)
        return f"({test})" if o in self.objs else f"({o} is not None and {test})"

    def listed(self, typ, e: n.Expr, src: str) -> str:
        """The source `src` of an argument `e` for a parameter of type `typ`: a zone given for
        a list is a copy of its objects (what the zone held at the call), as the callee reads
        a list."""
        return f"list(st.zones[{src}])" if isinstance(typ, tuple) and self._zone(e) else src

    def compile_arg(self, typ, e: n.Expr):
        """`compile(e)` for an argument of a parameter of type `typ` (`listed`)."""
        f = self.compile(e)
        if isinstance(typ, tuple) and self._zone(e):
            return lambda st, env: list(st.zones[f(st, env)])
        return f

    def compile(self, e: n.Expr, charged: str | None = None, truth: bool = False, empty=None):
        """`charged`: the function is a definition's body, called by name (maybe by itself):
        each call is a step of work, shown as `charged` when the budget runs out. `truth`: only
        whether the value is true counts (a condition), so `and`/`or` are Python's own.
        `empty`: (parameter, value): the definition's value when that parameter is an empty
        list, returned without the body (build/fold.py)."""
        # a function of its own: nothing is bound in it, but an expression that is not a
        # definition's body reads its local names from the env once, into Python variables,
        # so that the reads of their properties, zones and keywords are written out
        loads = {} if charged is not None else _names_read_here(e, self.r)
        saved, self.bound = self.bound, dict(loads)
        saved_objs, self.objs = self.objs, set()
        saved_hoist, self._hoist = self._hoist, None
        try:
            src = self.test(e, ()) if truth else self.src(e, ())
        finally:
            self.bound, self.objs, self._hoist = saved, saved_objs, saved_hoist
        name = f"_e{next(self.ids)}"
        if charged is None:
            head = "".join(f"    {v} = env.get({k!r})\n" for k, v in loads.items())
            code = f"def {name}(st, env):\n{head}    return {src}\n"
        else:  # Python's own depth limit, met inside a definition, is the rules' error too
            code = (
                f"def {name}(st, env):\n"
                "    st.work += 1\n"
                f"    if st.work > st.work_limit: _charge(st, 0, {charged!r})\n"
                + (f"    if env.get({empty[0]!r}) == []: return {empty[1]!r}\n" if empty else "")
                + f"    try:\n        return {src}\n"
                f"    except RecursionError:\n        _too_deep({charged!r})\n"
            )
        try:
            return define(self.ns, name, code, f"<madang {e.span}>")
        except (SyntaxError, RecursionError, MemoryError):  # Python's own nesting limits
            raise RulesError(f"{e.span}: expression too deeply nested to compile") from None

    def _define_call(self, d, args: list[str]) -> str:
        """A call of definition `d`'s compiled body with the arguments' sources `args`."""
        held = self.define_args(d)
        if held is not None:  # `you`, `this` and the arguments in order, as the env had them
            both = [self._special("you"), self._special("this")] if self._seated(d) else []
            return f"{held}[0](st{''.join(', ' + a for a in both + args)})"
        fn = self.const(self.c.define_body(d), d.name)
        items = [f"'you': {self._special('you')}", f"'this': {self._special('this')}"]
        items += [f"{q.name!r}: {a}" for q, a in zip(d.params, args)]
        return f"{fn}[0](st, {{{', '.join(items)}}})"

    def _seated(self, d, seen: frozenset = frozenset()) -> bool:
        """Whether definition `d`'s body may read `you` or `this`: by name, through a
        definition that may, or a call of anything but a built-in or a definition (a
        `doable`); else its function takes neither (`define_args`). A definition that refers
        to itself is taken as one that may."""
        if d.name in seen:
            return True
        seen = seen | {d.name}
        for x in d.decl.body.walk():
            if isinstance(x, n.Special) and x.which in ("you", "this"):
                return True
            ref = self.r.call_of(x) if isinstance(x, n.Call) else None
            if isinstance(x, n.Name) and isinstance(self.r.name_of(x), rv.DefineRef):
                ref = self.r.name_of(x)
            elif ref is None or isinstance(ref, rv.BuiltinRef):
                continue
            if not isinstance(ref, rv.DefineRef) or self._seated(self.s.defines[ref.name], seen):
                return True
        return False

    def define_args(self, d) -> str | None:
        """The name of a holder (`[fn]`) of definition `d`'s body as a function of `st`,
        `you` and `this` if it reads them (`_seated`) and its parameters in order, each a
        Python variable of the body, for the calls the generated code makes: no dictionary
        built per call, no `env.get` per read (`define_body`'s function, of `(st, env)`,
        stays for the engine's calls). Made once; None when the body would read the env for
        anything else (`it` outside a `where`), or when not enabled (`DEF_ARGS`)."""
        if not DEF_ARGS:
            return None
        if d.name in self._args_bodies:
            return self._args_bodies[d.name]
        holder: list = []
        held = self._args_bodies[d.name] = self.const(holder, d.name + "_args")
        names = [f"_a{k}" for k in range(len(d.params))]
        seats = ["_you", "_this"] if self._seated(d) else []
        bound = dict(zip(("you", "this"), seats))
        bound.update({q.name: v for q, v in zip(d.params, names)})
        # (the body is its own: no name of the caller's held, no definition of the caller's
        # being written inline around it, whatever the place of its first call)
        saved = self.bound, self.objs, self._hoist, self.let_kinds, self.zone_vars
        saved_inlining, self._inlining = self._inlining, [d.name]
        self.bound, self.objs, self._hoist, self.let_kinds, self.zone_vars = (
            bound,
            set(),
            None,
            {},
            set(),
        )
        try:
            src = self.src(d.decl.body, ())
        finally:
            self.bound, self.objs, self._hoist, self.let_kinds, self.zone_vars = saved
            self._inlining = saved_inlining
        if re.search(r"\benv\b", unquoted(src)):
            self._args_bodies[d.name] = None
            return None
        charged = f"definition {d.name} ({d.decl.span})"
        empty = self.c.empty_of(d)
        fold = ""
        if empty:
            k = next(i for i, q in enumerate(d.params) if q.name == empty[0])
            fold = f"    if {names[k]} == []: return {empty[1]!r}\n"
        src, listed = _listed_once(src, names) if LISTED_ONCE else (src, [])
        name = f"_e{next(self.ids)}"
        params = "".join(", " + v for v in seats + names)
        body = f"    try:\n        return {src}\n"
        body += f"    except RecursionError:\n        _too_deep({charged!r})\n"
        joined = self._joined_body(d, src, names, f"{name}_x(st{params})")
        code = (
            f"def {name}(st{params}):\n"
            "    st.work += 1\n"
            f"    if st.work > st.work_limit: _charge(st, 0, {charged!r})\n"
            + fold
            + "".join(
                f"    {v} = {v} if {v}.__class__ is list else _listed(st, {v})\n" for v in listed
            )
        )
        try:
            if joined is not None:  # the body charged one by one, for the joined one's replay
                where = f"<madang {d.decl.body.span}>"
                define(self.ns, f"{name}_x", f"def {name}_x(st{params}):\n{body}", where)
                body = joined
            fn = define(self.ns, name, code + body, f"<madang {d.decl.body.span}>")
        except (SyntaxError, RecursionError, MemoryError):  # Python's own nesting limits
            raise RulesError(
                f"{d.decl.body.span}: expression too deeply nested to compile"
            ) from None
        holder.append(fn)
        return held

    def _joined_body(self, d, src: str, names: list[str], again: str) -> str | None:
        """The statements of definition `d`'s function after its parameters are lists, its
        body `src` with the counts of a list parameter joined (`_counts_joined`); the body
        charged one by one (`again`, from the work before the joined charge) where anything
        passes the budget after it. None where it has no such counts, or where computing
        its parts in another order could change more than where the budget error is raised
        (a random draw, an error of the rules, a definition calling itself: `_skippable`)."""
        if not COUNTS_JOINED or not names:
            return None
        got = _counts_joined(src, names, f"return {again}")
        if got is None or not self._skippable(d.decl.body, {d.name}):
            return None
        fast, prelude = got
        charged = f"definition {d.name} ({d.decl.span})"
        return (
            prelude
            + f"    try:\n        return {fast}\n"
            + f"    except RecursionError:\n        _too_deep({charged!r})\n"
            + "    except _OutOfBudget:\n"
            + f"        st.work = w0_\n        return {again}\n"
        )

    def hoisted_define(self, e, d, args: list[str]) -> str:
        """A definition call `e` in an enumerator's test, its arguments' sources `args`: a
        value kept at the outer level where what it reads is bound (build/hoist.py), when that
        is outside the loop it is tested in and computing it fewer times changes nothing but
        the work charged (`_skippable`); else written inline (also a body longer than
        `INLINE_MAX`, when that keeps some of its parts at an outer level), or called."""
        h = self._hoist

        def whole() -> str:  # the value whole, nothing inside it kept apart
            self._hoist = None
            try:
                inlined = self.inline_define(d, args, (), e.args)
            finally:
                self._hoist = h
            return inlined if inlined is not None else self._define_call(d, args)

        kept = self._keep(e, args + [self._special("you"), self._special("this")], whole)
        if kept is not None:
            return kept
        before = dict(h)
        for limit in (INLINE_MAX, INLINE_HOIST_MAX):
            inlined = self.inline_define(d, args, (), e.args, limit)
            if inlined is not None and (limit == INLINE_MAX or len(h) > len(before)):
                return inlined
            h.clear()
            h.update(before)
        return self._define_call(d, args)

    def _keep(self, e, read_src: list[str], whole) -> str | None:
        """`e`, whose value is a function of the Python `read_src` (and the state), kept in an
        enumerator's test: at the outer level where what it reads is bound, or per value of
        the loop's parameter when the loop's domain is kept (the same values go through it
        again in each outer loop), computed by `whole()` where first needed; None when it
        reads the loop's parameter otherwise, another name, or may not be computed fewer times
        (`_skippable`)."""
        h, at, kept = self._hoist, self._hoist_at, self._kept_levels
        known = {k: lv for k, lv in h.values()}
        read: set | None = set()
        for a in read_src:
            got = params_read(a, self.ns, known)
            read = None if got is None or read is None else read | got
        if read is None:
            return None
        lv = max(read, default=0)
        memo = lv == at and read - {0} == {at} and kept[at - 1] < at - 1 and self._keyed[at - 1]
        if not (lv < at or memo) or not self._skippable(e, set()):
            return None
        src = whole()
        if not memo:
            k, _ = h.setdefault(src, (f"k{len(h)}", lv))
            return f"({k} if {k} is not None else ({k} := {src}))"
        m, _ = h.setdefault("@" + src, (f"km{len(h)}", kept[at - 1]))
        v = f"v{at - 1}"
        return f"({m}[{v}] if {v} in {m} else {m}.setdefault({v}, {src}))"

    # ---------------------------------------------------------------- nodes
    def src(self, e, its: tuple[str, ...]) -> str:  # noqa: C901 - one case per node type
        r = self.r
        match e:
            case n.Num() | n.Str() | n.Const():
                return repr(e.value)
            case n.Special():
                if e.which == "it" and its:
                    return its[-1]
                bound = self.bound.get(e.which)
                return bound if bound is not None else f"env.get({e.which!r})"
            case n.Name():
                return self.name(e, its)
            case n.Attr():
                return self.attr(e, its)
            case n.Call():
                res = r.call_of(e)
                if isinstance(res, rv.DoableRef):  # runtime/acts.py
                    self.c.acts.asked.add(res.name)
                    fn = self.const(doable)
                    args = ", ".join(self.src(a, its) for a in e.args[0].args)
                    who = f"{{'you': {self._special('you')}, 'this': {self._special('this')}}}"
                    return f"{fn}(st, {who}, {res.name!r}, [{args}])"
                if res == rv.BuiltinRef("exists") and self._first_match(e.args[0]):
                    listed = self.where(e.args[0].args[0], its, "[", "]")
                    if _pure(listed[listed.index(" if ") :]):
                        # whether an object matches, where testing them all charges nothing
                        # more: the matches listed, cheaper than a generator and `next`
                        got = f"({listed} != [])"
                        m = _GUARDED.fullmatch(listed) if not its else None
                        if m is not None and "zg0_" not in m.group(1) + m.group(2):
                            # (the zone and the condition, unless another guard of the
                            # same level inside makes the split unsure)
                            self._scans[_bare(got)] = (m.group(2), m.group(1))
                        return got
                    return (
                        f"(next({self.where(e.args[0].args[0], its, '(', ')')}, None) is not None)"
                    )
                args = [self.src(a, its) for a in e.args]
                if isinstance(res, rv.DefineRef):
                    d = self.s.defines[res.name]
                    args = [self.listed(q.type, x, a) for q, a, x in zip(d.params, args, e.args)]
                    if self._hoist is not None and not its:  # in an enumerator's test
                        return self.hoisted_define(e, d, args)
                    inlined = self.inline_define(d, args, its, e.args)
                    if inlined is not None:
                        return inlined
                    return self._define_call(d, args)
                if (
                    len(e.args) == 2
                    and res.name in ("first", "last")
                    and isinstance(e.args[1], n.Num)
                    and (self._list(e.args[0]) or self._zone(e.args[0]))
                ):  # the first or last k items: a slice, a new list (builtins._first, _last)
                    items = f"st.zones[{args[0]}]" if self._zone(e.args[0]) else args[0]
                    k = e.args[1].value
                    if res.name == "first":
                        return f"{items}[:{k}]"
                    return f"{items}[-{k}:]" if k > 0 else "[]"
                if len(e.args) == 1:
                    if res.name == "exists":
                        return f"({args[0]} is not None)"
                    if res.name == "flatten" and self._zones(e.args[0]):
                        # the objects of a list of zones (never deeper lists nor none)
                        z, o = f"_fz{len(its)}", f"_fo{len(its)}"
                        m = _AREAS_ZONES.fullmatch(args[0]) if AREAS_FLAT else None
                        if m is not None:  # the zones of one name are laid out by area
                            b = m.group(1)
                            return f"[{o} for {z} in st.zones[{b} : {b} + len(st.g.areas)] for {o} in {z}]"
                        seats = self._flat_seat_zones(e) if SEAT_FLATTEN else None
                        if seats and SEAT_SLICES:
                            return _seat_slices(seats, f"_fm{len(its)}")
                        if seats:  # the seats' zones by name: their objects joined in C
                            bases = "".join(f"st.g.zone_base[{x!r}], " for x in seats)
                            m = f"_fm{len(its)}"
                            return (
                                f"[*_chain([st.zones[{z} + {m}] for {z} in ({bases})"
                                f" for {m} in {_SEATS}])]"
                            )
                        joined = _zones_joined(args[0]) if ZONES_JOINED else None
                        if joined is not None:
                            return joined
                        return f"[{o} for {z} in {args[0]} for {o} in st.zones[{z}]]"
                    if res.name == "sum":  # builtins._sum is Python's
                        return f"sum({args[0]})"
                    if res.name == "objects" and self._zone(e.args[0]):
                        return f"list(st.zones[{args[0]}])"
                    if res.name == "objects" and isinstance(e.args[0], (n.ListExpr, n.Where)):
                        return args[0]  # a new list already
                    if res.name == "count" and self._zone(e.args[0]):
                        return f"len(st.zones[{args[0]}])"
                    if res.name == "count" and self._list(e.args[0]):
                        return f"len({_counted_having(args[0]) or args[0]})"
                    if res.name == "objects" and self._list(e.args[0]):
                        return args[0] if _fresh(args[0]) else f"list({args[0]})"
                    if res.name == "contents":  # builtins._contents, none an error as there
                        return f"list(st.zones[{args[0]}])"
                    if res.name == "reversed" and (self._list(e.args[0]) or self._zone(e.args[0])):
                        items = f"st.zones[{args[0]}]" if self._zone(e.args[0]) else args[0]
                        return f"{items}[::-1]"  # a new list, as builtins._reversed gives
                    if res.name == "first" and isinstance(e.args[0], n.Where):
                        # the first match, without testing the items after it
                        return f"next({self.where(e.args[0], its, '(', ')')}, None)"
                    seats = self._seats(res.name, e.args[0], args[0], its)
                    if seats is not None:
                        return seats
                    if res.name in ("first", "last") and (
                        self._list(e.args[0]) or self._zone(e.args[0])
                    ):  # no call: an empty list gives the none of `(None,)`
                        items = f"st.zones[{args[0]}]" if self._zone(e.args[0]) else args[0]
                        return f"({items} or (None,))[{0 if res.name == 'first' else -1}]"
                if (
                    res.name == "nth"
                    and args[0] == "_players(st)"
                    and _seat_number(args[1])
                    and not self._holds_computed_arg(args[1])
                ):
                    # a number modulo the seats: a seat (Python's `%` of a positive divisor)
                    i, fn = args[1], self.const(BUILTIN_FUNCS[res.name], res.name)
                    return f"({i} if not st.lost else {fn}(st, _players(st), {i}))"
                if (
                    res.name == "nth"
                    and args[0] == "_players(st)"
                    and _NEVER_NONE.fullmatch(args[1])
                ):
                    # the seat at a number: itself while nobody has lost (builtins._at)
                    i, fn = args[1], self.const(BUILTIN_FUNCS[res.name], res.name)
                    return (
                        f"(({i} if 0 <= {i} < st.g.nplayers else None) if not st.lost"
                        f" else {fn}(st, _players(st), {i}))"
                    )
                extreme = self._extreme(res.name, e, args) if MIN_MAX else None
                if extreme is not None:
                    return extreme
                fn = self.const(BUILTIN_FUNCS[res.name], res.name)
                if res.name == "count" and len(args) == 1:  # none is a located rules error
                    what = format_expr(e.args[0])
                    msg = f"{e.span}: count({what}): {what} is none, not a list nor a zone"
                    return f"{fn}(st, {args[0]}, {self.const(msg, 'count_none')})"
                return f"{fn}(st{''.join(', ' + a for a in args)})"
            case n.Index():
                return f"_index(st, {self.src(e.obj, its)}, {self.src(e.index, its)})"
            case n.ListExpr():
                return "[" + ", ".join(self.src(i, its) for i in e.items) + "]"
            case n.BinOp():
                some = self._some_match(e, its)
                if some is not None:
                    return some
                a, b = self.src(e.left, its), self.src(e.right, its)
                types = r.operand_types(e)
                numeric = types == (NUMBER, NUMBER)
                op = e.op
                if op == "+":
                    if numeric or self._zones(e.left) and self._zones(e.right):
                        return f"({a} + {b})"  # numbers, or two lists of zones
                    if JOIN_LISTS and self._list(e.left) and self._list(e.right):  # no type tests
                        return f"_join(st, {a}, {b}, {str(e.span)!r})"
                    return f"_plus(st, {a}, {b}, {str(e.span)!r})"
                if op == "-":
                    return f"({a} - {b})"
                if op == "*":
                    if _SMALL.fullmatch(a) and _SMALL.fullmatch(b):  # far below budget.number's
                        return f"({a} * {b})"
                    return f"_mul({a}, {b})"
                if op == "/":
                    return f"_div({a}, {b}, {str(e.span)!r})"
                if op == "%":
                    if _NONZERO.fullmatch(b):  # no division by zero: Python's
                        return f"({a} % {b})"
                    return f"_mod({a}, {b}, {str(e.span)!r})"
                if op in ("==", "!="):
                    named = self._name_is(e, a, b, its)
                    if named is not None:
                        return named
                    return f"({a} {op} {b})"
                if numeric and self._never_none(e):
                    return f"({a} {op} {b})"
                sure = [bool(_NEVER_NONE.fullmatch(x)) for x in (a, b)]
                if all(sure):  # numbers, counters (an inlined definition's literal arguments)
                    return f"({a} {op} {b})"
                if all(k or _plain(x) or _CHEAP.fullmatch(x) for x, k in zip((a, b), sure)):
                    # read twice without a cost: the none tests written out, no call
                    tests = [f"{x} is not None" for x, k in zip((a, b), sure) if not k]
                    return f"({' and '.join(tests)} and {a} {op} {b})"
                held = _or_zero(e, a, b, op) if numeric else None
                if held is not None:
                    return held
                printed = self._printed_compare(e, a, b, sure, its) if CARD_CMP else None
                if printed is not None:
                    return printed
                return f"{CMP[op]}({a}, {b})"
            case n.BoolOp():  # a value: true or false, whatever the items are
                if all(self._boolean(i) for i in e.items):  # Python's and/or give one of them
                    return f"({self.test(e, its)})"
                return f"(True if {self.test(e, its)} else False)"
            case n.Not():
                return f"(not {self.src(e.expr, its)})"
            case n.Neg():
                return f"(-{self.src(e.expr, its)})"
            case n.IfExpr():
                return f"({self.src(e.then, its)} if {self.src(e.cond, its)} else {self.src(e.orelse, its)})"
            case n.Contains():
                x = self.src(e.item, its)
                adj = self._adjacency(e.container, its)
                if adj is not None:  # the map's own list, not a copy of it
                    return f"({x} in {adj})"
                names = self._flat_seat_zones(e.container)
                if names is not None:  # the objects of the seats' zones: the item's zone read
                    return f"_in_seat_zones(st, {x}, {tuple(names)!r})"
                c = self.src(e.container, its)
                if self._list(e.container):  # a list: Python's `in`
                    return f"({x} in {c})"
                if x in self.objs and self._zone(e.container):  # an object: never none
                    return f"(st.obj_zone[{x}] == {c})"
                if _plain(x) and self._zone(e.container):  # an object in a zone: its zone read
                    return f"({x} is not None and st.obj_zone[{x}] == {c})"
                return f"_contains(st, {x}, {c})"
            case n.Has():
                o = self.src(e.obj, its)
                kw = (
                    self.bound.get(e.keyword) or f"env.get({e.keyword!r})"
                    if isinstance(r.name_of(e), rv.LocalRef)
                    else repr(self.s.canonical[e.keyword])
                )
                # the grants asked only when a statement granted something now or a continuous
                # ability of this game may grant the keyword (`may_grant`'s kept answer, `_kog`)
                may = f"_kog(st.ko or _NOKO, {kw}, _MAY)[0]" if KO_READ else f"_mg(st, {kw})"
                granted = f"(st.grants or {may}) and PROG.granted_args(st, {o}, {kw}) is not None"
                if o in self.objs:  # an object, never none: the printed keywords first
                    return f"({self._printed_keyword(o, kw)} or {granted})"
                if _plain(o):  # a name: its none test and the printed keywords written out
                    return f"({o} is not None and ({self._printed_keyword(o, kw)} or {granted}))"
                return f"_has(st, {o}, {kw})"
            case n.IsKind():
                o = self.src(e.obj, its)
                kind = self.s.canonical.get(e.kind, e.kind)
                if o in self.objs:  # an object, never none
                    return f"({self._kind_test(o, kind)})"
                if _plain(o):
                    return f"({o} is not None and {self._kind_test(o, kind)})"
                return f"_is(st, {o}, {kind!r})"
            case n.Where():
                return self.where(e, its, "[", "]")
        raise RulesError(f"{e.span}: cannot compile this expression")  # pragma: no cover

    def where(self, e: n.Where, its, start: str, end: str, element=None) -> str:
        """`items where cond` as a list comprehension (or a generator, with parentheses);
        `element(var)` writes what it keeps of each match (`(L where C).p`), else the match.
        The items of an inner `where` of pure tests are gone through in the same loop
        (`where_parts`)."""
        var = f"it{len(its)}"
        items, conds = self.where_parts(e, its)
        cond = " and ".join(_grouped(c) for c in conds) if len(conds) > 1 else conds[0]
        held = self.objects_only(e.items)
        if held:
            self.objs.add(var)
        try:
            one = var if element is None else element(var)
        finally:
            if held:
                self.objs.discard(var)
        above = self._areas_above_zero(items, cond, var)
        if above is not None:
            items, cond = above
        m = _EACH_ZONE.fullmatch(items) if start == "[" and self._guard else None
        if m is not None:  # in an enumerator's test: an empty zone is no list gone through
            z = f"zg{len(its)}_"
            return (
                f"([{one} for {var} in _each(st, {z}) if {cond}] if ({z} := {m.group(1)}) else [])"
            )
        return f"{start}{one} {_loop(var, items)} if {cond}{end}"

    def natural_area_counters(self) -> set[str]:
        """The area counters whose range has a lower bound of 0 or more (so `> 0` is a
        nonzero value: every write is held to the range, runtime/program.CounterRT)."""
        return {
            name
            for name, sym in self.p.counters.items()
            if sym.scope == "area" and sym.low is not None and sym.low >= 0
        }

    def _areas_above_zero(self, items: str, cond: str, var: str) -> tuple[str, str] | None:
        """`areas where c > 0 and R` (`c` an area counter never below 0, `R` the rest of the
        test) as the areas whose `c` is not 0 (`itertools.compress`: no Python test for the
        others, which `c > 0` would fail before anything else is tested or charged) where R;
        None for any other shape. The areas are charged as before, all of them."""
        if not AREAS_ABOVE_ZERO or items != _EACH_AREAS:
            return None
        split = above_zero(cond, var, self.natural_area_counters())
        if split is None:
            return None
        return f"_compress({items}, st.acounters[{split[0]!r}])", split[1] or "True"

    def where_parts(self, e: n.Where, its) -> tuple[str, list[str]]:
        """The items `e` goes through (charged) and the tests of a match, in order: when its
        items are a `where` too (written so, or the body of a definition written inline) and
        every test is pure (`_fusible`), the inner `where`'s items and its tests first, one
        loop and no list between (each item charged once, not once per level); else `e`'s
        items and its own test."""
        var = f"it{len(its)}"
        held = self.objects_only(e.items)
        if held:
            self.objs.add(var)
        try:  # only a match's truth counts: `and`/`or` as Python's (`test`)
            cond = (
                self.test(e.cond, its + (var,)) if WHERE_TRUTH else self.src(e.cond, its + (var,))
            )
        finally:
            if held:
                self.objs.discard(var)
        if FUSE and _fusible(cond) and not self._guard and self._hoist is None:
            inner = self.matches(e.items, its)
            if inner is not None:
                return inner[0], inner[1] + [cond]
        return self._iterated(e.items, its), [cond]

    # `count(L) OP k` that says whether `L` has an item (True) or none (False)
    _ANY = {(">", 0): True, (">=", 1): True, ("!=", 0): True}
    _ANY |= {("==", 0): False, ("<", 1): False, ("<=", 0): False}
    _FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}

    def _some_match(self, e: n.BinOp, its) -> str | None:
        """`count(L where P) > 0` (or `== 0`, `>= 1`, ...) as whether an item matches, up to
        the first match (`any`), when the tests are pure (`matches`): the items after it are
        not tested, and their tests' own lists not charged; None for anything else."""
        op, left, right = e.op, e.left, e.right
        if isinstance(left, n.Num) and op in self._FLIP:
            op, left, right = self._FLIP[op], right, left
        if not (isinstance(right, n.Num) and isinstance(left, n.Call) and len(left.args) == 1):
            return None
        some = self._ANY.get((op, right.value))
        if some is None or not FUSE or self.r.call_of(left) != rv.BuiltinRef("count"):
            return None
        if self._guard or self._hoist is not None:
            return None
        parts = self.matches(left.args[0], its)
        if parts is None:
            return None
        var = f"it{len(its)}"
        cond = " and ".join(_grouped(c) for c in parts[1]) if len(parts[1]) > 1 else parts[1][0]
        got = f"any(True {_loop(var, parts[0])} if {cond})"
        return got if some else f"(not {got})"

    def matches(self, e, its) -> tuple[str, list[str]] | None:
        """`e` as the items of one loop and the pure tests of its matches (`where_parts`) when
        it is a `where`, or a definition whose body is one, written inline with arguments that
        are names, constants or reads of a table by a name (as `inline_define`); None
        otherwise, or when a test is not pure."""
        if isinstance(e, n.Where):
            items, conds = self.where_parts(e, its)
            return (items, conds) if all(_fusible(c) for c in conds) else None
        res = (
            self.r.call_of(e)
            if isinstance(e, n.Call)
            else self.r.name_of(e)
            if isinstance(e, n.Name)
            else None
        )
        if not isinstance(res, rv.DefineRef):
            return None
        d = self.s.defines[res.name]
        if d.name in self._inlining or len(self._inlining) >= INLINE_DEPTH:
            return None
        if not isinstance(d.decl.body, (n.Where, n.Call, n.Name)):
            return None
        nodes = e.args if isinstance(e, n.Call) else ()
        args = [self.listed(q.type, x, self.src(x, its)) for q, x in zip(d.params, nodes)]
        lazy = self._lazy_args(d, args, nodes)
        if lazy is None:
            return None
        with self._inlined(d, args, nodes):
            got = self.matches(d.decl.body, its)
        if got is None:
            return None
        # each argument written once per read, and a body no longer, as inline_define's
        src = got[0] + " ".join(got[1])
        if any(src.count(a) > k for a, k in lazy.items()):
            return None
        size = _size(src) - sum(src.count(a) * (_size(a) - 1) for a in lazy)
        return got if size <= INLINE_MAX else None

    @contextmanager
    def _inlined(self, d, args: list[str], nodes=()):
        """Compiling the body of definition `d` written inline: its parameters read as the
        arguments' code, `you` and `this` as the caller's; the reads of a parameter whose
        argument (of the syntax `nodes`) is a number never none are known as numbers."""
        bound = {q.name: a for q, a in zip(d.params, args)}
        bound["you"], bound["this"] = self._special("you"), self._special("this")
        reads = self._number_reads | self._reads_of_numbers(d, nodes)
        saved, self.bound = self.bound, bound
        saved_reads, self._number_reads = self._number_reads, reads
        self._inlining.append(d.name)
        try:
            yield
        finally:
            self.bound, self._number_reads = saved, saved_reads
            self._inlining.pop()

    def _reads_of_numbers(self, d, nodes) -> frozenset[int]:
        """The ids of the reads in `d`'s body of its parameters whose argument among `nodes`
        is a number never none when computed (`_valued`, in the caller's names)."""
        if not NUMBER_ARGS:
            return frozenset()
        names = {q.name for q, x in zip(d.params, nodes) if self._valued(x)}
        return frozenset(
            id(x)
            for x in d.decl.body.walk()
            if isinstance(x, n.Name)
            and x.name in names
            and isinstance(self.r.name_of(x), rv.LocalRef)
        )

    def _seats(self, name: str, e, src: str, its) -> str | None:
        """`first(players)` and `last(players)` as the seats they are while nobody has lost,
        without the list (the list's item when someone has: operators._players), and
        `first(opponents(p))` as one call (`operators._first_opponent`)."""
        if name not in ("first", "last"):
            return None
        general = f"({src} or (None,))[{0 if name == 'first' else -1}]"
        if src == "_players(st)":
            seat = "0" if name == "first" else "(st.g.nplayers - 1)"
            return f"({seat} if not st.lost else {general})"
        if (
            name == "first"
            and isinstance(e, n.Call)
            and len(e.args) == 1
            and self.r.call_of(e) == rv.BuiltinRef("opponents")
        ):  # one call, no list (its argument written once, so a definition of it is inlined)
            p = self.src(e.args[0], its)
            if SEAT_INLINE and (_SIMPLE.fullmatch(p) or _READ.fullmatch(p)):
                # read twice at no cost: the seat itself while nobody has lost, no call
                return (
                    f"((0 if {p} != 0 else 1 if st.g.nplayers > 1 else None)"
                    f" if not st.lost else _first_opponent(st, {p}))"
                )
            return f"_first_opponent(st, {p})"
        return None

    def _iterated(self, e, its) -> str:
        """The items a comprehension goes through, charged to the budget by their number:
        `_each` where the compiler knows they are a list (`adjacent(a)` the map's own list,
        a zone its contents, `areas` a range, as they are only read), `_seq` otherwise."""
        adj = self._adjacency(e, its)
        if adj is not None:
            return f"_each(st, {adj})"
        if isinstance(e, n.Name) and self.r.name_of(e) == rv.BuiltinRef("areas"):
            return "_each(st, range(len(st.g.areas)))"
        if isinstance(e, n.Name) and self.r.name_of(e) == rv.BuiltinRef("players"):
            return "_each(st, _players(st) if st.lost else range(st.g.nplayers))"
        if isinstance(e, n.Call) and len(e.args) == 1:  # a zone's objects only read: no copy
            res = self.r.call_of(e)
            if res == rv.BuiltinRef("contents") or (
                res == rv.BuiltinRef("objects") and self._zone(e.args[0])
            ):
                return f"_each(st, st.zones[{self.src(e.args[0], its)}])"
        items = self.src(e, its)
        if self._zone(e):
            return f"_each(st, st.zones[{items}])"
        if self._list(e):
            return f"_each(st, {items})"
        return f"_seq(st, {items})"

    def _first_match(self, e) -> bool:
        """Whether `e` is `first(OBJECTS where COND)`: its items are never none."""
        return (
            isinstance(e, n.Call)
            and len(e.args) == 1
            and isinstance(e.args[0], n.Where)
            and self.r.call_of(e) == rv.BuiltinRef("first")
            and self.objects_only(e.args[0].items)
        )

    def _adjacency(self, e, its) -> str | None:
        """`adjacent(a)` as the game's own list of the areas next to `a`, for a place that only
        reads it (builtins._adjacent returns a copy); None for anything else."""
        if isinstance(e, n.Call) and len(e.args) == 1:
            if self.r.call_of(e) == rv.BuiltinRef("adjacent"):
                return f"st.g.adjacency[{self.src(e.args[0], its)}]"
        return None

    def _list(self, e) -> bool:
        """Whether `e` is always a list (not a zone): `[...]`, a `where`, `objects(...)`,
        `flatten` of zones, a definition whose body is one."""
        if isinstance(e, (n.ListExpr, n.Where)):
            return True
        res = None
        if isinstance(e, n.Call):
            res = self.r.call_of(e)
            if res in _NEW_LISTS or (
                res == rv.BuiltinRef("flatten") and len(e.args) == 1 and self._zones(e.args[0])
            ):
                return True
            if res in (rv.BuiltinRef("first"), rv.BuiltinRef("last")) and len(e.args) == 2:
                return isinstance(e.args[1], n.Num)  # k items: a list (a slice)
        elif isinstance(e, n.Name):
            res = self.r.name_of(e)
            if res == rv.BuiltinRef("players"):  # operators._players: a new list
                return True
            if isinstance(res, rv.LocalRef):
                return self._held(e, "list")
        elif isinstance(e, n.BinOp):  # operators._plus: a new list when either side is one
            return e.op == "+" and (self._list(e.left) or self._list(e.right))
        elif isinstance(e, n.IfExpr):
            return self._list(e.then) and self._list(e.orelse)
        return isinstance(res, rv.DefineRef) and self._body_is(res.name, self._list)

    def _zones(self, e) -> bool:
        """Whether `e` is a list of zones, whatever its names hold: `players.hand`, `[p.a,
        p.b]`, two such joined with `+`, a definition whose body is one."""
        if isinstance(e, n.Attr):
            return isinstance(self.r.attr_of(e), rv.PlayerZone | rv.AreaZone) and self.r.maps_list(
                e
            )
        if isinstance(e, n.ListExpr):
            return all(self._zone(x) for x in e.items)
        if isinstance(e, n.BinOp):
            return e.op == "+" and self._zones(e.left) and self._zones(e.right)
        res = None
        if isinstance(e, n.Call):
            res = self.r.call_of(e)
        elif isinstance(e, n.Name):
            res = self.r.name_of(e)
        return isinstance(res, rv.DefineRef) and self._body_is(res.name, self._zones)

    def _zone(self, e) -> bool:
        """Whether `e` is a zone (never none, never a list): `p.hand`, a global zone's name."""
        if isinstance(e, n.Attr):
            return isinstance(
                self.r.attr_of(e), rv.PlayerZone | rv.AreaZone
            ) and not self.r.maps_list(e)
        if isinstance(e, n.Name):
            res = self.r.name_of(e)
            if isinstance(res, rv.LocalRef):  # a loop's, over zones, or a `let`'s
                if self.zone_vars and dict.get(self.bound, e.name) in self.zone_vars:
                    return True
                return self._held(e, "zone")
            if isinstance(res, rv.DefineRef):
                return self._body_is(res.name, self._zone)
            return isinstance(res, rv.ZoneRef)
        if isinstance(e, n.IfExpr):
            return self._zone(e.then) and self._zone(e.orelse)
        if isinstance(e, n.Call) and isinstance(self.r.call_of(e), rv.DefineRef):
            return self._body_is(self.r.call_of(e).name, self._zone)  # whatever the args
        return False

    def objects_only(self, e) -> bool:
        """Whether every item of the list `e` is an object (never none): a zone's contents,
        or a `where` over them."""
        if isinstance(e, n.Where):
            return self.objects_only(e.items)
        if isinstance(e, n.BinOp):  # two lists of objects joined (operators._plus)
            return e.op == "+" and all(
                self._list(x) and self.objects_only(x) for x in (e.left, e.right)
            )
        if isinstance(e, n.Call):
            res = self.r.call_of(e)
            if isinstance(res, rv.DefineRef):  # what its body is, whatever the args
                return self._body_is(res.name, self.objects_only)
            if res == rv.BuiltinRef("flatten") and len(e.args) == 1:
                return self._zones(e.args[0])
            # objects(ZONE), reversed(ZONE): a copy of its contents
            return (
                res in (rv.BuiltinRef("objects"), rv.BuiltinRef("reversed"))
                and len(e.args) == 1
                and self.objects_only(e.args[0])
            )
        if isinstance(e, n.Attr):
            return isinstance(
                self.r.attr_of(e), rv.PlayerZone | rv.AreaZone
            ) and not self.r.maps_list(e)
        if isinstance(e, n.Name):
            res = self.r.name_of(e)
            if isinstance(res, rv.DefineRef):
                return self._body_is(res.name, self.objects_only)
            return isinstance(res, rv.ZoneRef) or self._zone(e)  # a loop's name over zones
        return False

    def _flat_seat_zones(self, e) -> list[str] | None:
        """The names of the zones when `e` is `flatten(players.A + players.B ...)` or a
        definition without parameters whose body is one; None otherwise."""

        def names(x) -> list[str] | None:
            if isinstance(x, n.BinOp) and x.op == "+":
                a, b = names(x.left), names(x.right)
                return None if a is None or b is None else a + b
            if (
                isinstance(x, n.Attr)
                and isinstance(self.r.attr_of(x), rv.PlayerZone)
                and self.r.maps_list(x)
                and isinstance(x.obj, n.Name)
                and self.r.name_of(x.obj) == rv.BuiltinRef("players")
            ):
                return [self.r.attr_of(x).name]
            return None

        def flat(x) -> list[str] | None:
            if isinstance(x, n.Call) and self.r.call_of(x) == rv.BuiltinRef("flatten"):
                return names(x.args[0]) if len(x.args) == 1 else None
            return None

        res = self.r.name_of(e) if isinstance(e, n.Name) else None
        if isinstance(res, rv.DefineRef) and not self.s.defines[res.name].params:
            return flat(self.s.defines[res.name].decl.body)
        return flat(e)

    def _body_is(self, name: str, test) -> bool:
        """`test` of a definition's body; false for a definition already being looked into
        (one that refers to itself)."""
        if name in self._inlining_objs:
            return False
        self._inlining_objs.append(name)
        held, self.zone_vars = self.zone_vars, set()  # its names are not the caller's
        kinds, self.let_kinds = self.let_kinds, {}
        reads, self._number_reads = self._number_reads, frozenset()
        try:
            return test(self.s.defines[name].decl.body)
        finally:
            self._inlining_objs.pop()
            self.zone_vars, self.let_kinds = held, kinds
            self._number_reads = reads

    def _special(self, which: str) -> str:
        """`you` or `this` where the code is written (a bound name, else the frame's)."""
        return self.bound.get(which) or f"env.get({which!r})"

    def inline_define(self, d, args: list[str], its, nodes=(), limit=INLINE_MAX) -> str | None:
        """A definition's body written at its use, its parameters replaced by the arguments'
        source (a call and an environment fewer per use); None for one that refers to itself,
        a long body, or an argument that is neither a plain name, a constant or a read of a
        table by a name (`_READ`) nor one computed at most once on every path through the body
        (`_once`) that may be left uncomputed (`_skippable`: `nodes` are the arguments'
        syntax): such an argument is computed where the body first needs it, if it does
        (`ok(p, f(p, x))` is `p.n >= f(...)` after the tests before it)."""
        if d.name in self._inlining or len(self._inlining) >= INLINE_DEPTH:
            return None
        lazy = self._lazy_args(d, args, nodes)
        if lazy is None:
            return None
        with self._inlined(d, args, nodes):
            src = self.src(d.decl.body, its)
        # an argument written into the body once per read of its parameter, not more; the
        # body's length is counted without the arguments' text
        if any(src.count(a) > k for a, k in lazy.items()):
            return None
        size = _size(src) - sum(src.count(a) * (_size(a) - 1) for a in lazy)
        return f"({src})" if size <= limit else None

    def _lazy_args(self, d, args: list[str], nodes) -> dict[str, int] | None:
        """The arguments of `d` written inline (`inline_define`) that are computed where the
        body reads them, each with the number of its parameter's reads in the body; None when
        one may not be (read more than once on a path, or not `_skippable`)."""
        lazy = {}
        for i, a in enumerate(args):
            if _SIMPLE.fullmatch(a) or _READ.fullmatch(a):
                continue
            q = d.params[i].name
            if i >= len(nodes) or _once(d.decl.body, q, self.r) > 1:
                return None
            if not self._skippable(nodes[i], set()):
                return None
            lazy[a] = sum(
                isinstance(x, n.Name) and x.name == q and isinstance(self.r.name_of(x), rv.LocalRef)
                for x in d.decl.body.walk()
            )
        return lazy

    _UNSKIPPABLE = frozenset(("random", "roll", "shuffled", "behind", "ahead", "neighbours"))
    _UNSKIPPABLE |= frozenset(("fail", "area", "ceil_div"))

    def _skippable(self, e, seen: set) -> bool:
        """Whether computing `e` fewer times, or not at all, changes nothing but the work
        charged: no random draw and nothing that raises (a built-in that may, a division, a
        definition that may or refers to itself)."""
        for x in e.walk():
            if isinstance(x, n.BinOp) and x.op in ("/", "%"):
                return False
            if isinstance(x, n.Call):
                res = self.r.call_of(x)
                if isinstance(res, rv.BuiltinRef):
                    if res.name in self._UNSKIPPABLE:
                        return False
                elif isinstance(res, rv.DefineRef):
                    if res.name in seen:
                        return False
                    d = self.s.defines[res.name]
                    if not self._skippable(d.decl.body, seen | {res.name}):
                        return False
                else:
                    return False
            elif isinstance(x, n.Name) and isinstance(self.r.name_of(x), rv.DefineRef):
                if x.name in seen or not self._skippable(
                    self.s.defines[x.name].decl.body, seen | {x.name}
                ):
                    return False
        return True

    _COMPARE = frozenset(("==", "!=", "<", "<=", ">", ">="))

    def _printed_read(self, e, its) -> tuple[str, list, str] | None:
        """(the object, the values by card, the property) of `x.p` where `x` is a name and `p`
        a number property nothing in the rules writes nor modifies: the value is the card's
        unless something outside the rules wrote `p` (a scenario's position: `_oprop`)."""
        if not isinstance(e, n.Attr) or self.r.maps_list(e):
            return None
        ref = self.r.attr_of(e)
        if not isinstance(ref, rv.ObjProp):
            return None
        name = ref.name
        if (
            name in self.p.modified_props
            or name in self.c.modified_names()
            or self.p.prop_slots.get(name) is not None
            or len(self.p.cards) < len(self.s.cards)
        ):
            return None
        obj = self.src(e.obj, its)
        values = self.p.card_values(name)
        if not _plain(obj) or not all(v is None or type(v) in (int, float) for v in values):
            return None
        return obj, values, name

    def _printed_compare(self, e: n.BinOp, a: str, b: str, sure, its) -> str | None:
        """`x.p <= n` of a card's number property `x.p` (`_printed_read`) and a number `n` that
        is never none or is read twice at no cost: the comparison written out, no call of
        `_le` (a card's cost against a player's counter in listings). A card without `p`
        reads infinity from a table made for the comparison (`inf <= n` is false, as
        `_le(None, n)`); false where `x` is none; `_le` itself on a value written from outside
        the rules, as before."""
        for side, other, k, op in ((e.left, b, sure[1], e.op), (e.right, a, sure[0], _FLIP[e.op])):
            got = self._printed_read(side, its)
            if got is None or not (k or _plain(other) or _CHEAP.fullmatch(other)):
                continue
            obj, values, name = got
            # a card without the property: a value no number passes (none compares false)
            far = math.inf if op in ("<", "<=") else -math.inf
            key = (name, far)
            table = self._far_tables.get(key)
            if table is None:
                word = "card_" + name + ("_hi" if far > 0 else "_lo")
                table = self.const([far if v is None else v for v in values], word)
                self._far_tables[key] = table
            tests = [] if obj in self.objs else [f"{obj} is not None"]
            if not k:
                tests.append(f"{other} is not None")
            fast = f"{table}[st.obj_card[{obj}]] {op} {other}"
            slow = f"{CMP[op]}(_oprop(st, {obj}, {name!r}), {other})"
            tests.append(f"({fast} if {name!r} not in st.props else {slow})")
            return f"({' and '.join(tests)})"
        return None

    def _holds_computed_arg(self, src: str) -> bool:
        """Whether `src` holds the code of an argument computed where an inlined body reads it
        (`_lazy_args`): written twice, it would stop the body's inlining, even in two branches
        of which one runs."""
        if not isinstance(self.bound, dict):
            return False
        return any(
            a in src
            for a in self.bound.values()
            if isinstance(a, str) and not (_SIMPLE.fullmatch(a) or _READ.fullmatch(a))
        )

    def _name_is(self, e: n.BinOp, a: str, b: str, its) -> str | None:
        """`x.name == "T"` (or `!=`) of a name or an object `x` and a text `T` known when
        compiling (a literal, an inlined definition's text argument): a card's name is printed,
        so read from a table of each card's truth for `T` (`_card_table`; none is no name)."""
        if not NAME_TABLES:
            return None
        for side, text in ((e.left, b), (e.right, a)):
            if not (_LITERAL.fullmatch(text) and isinstance(side, n.Attr)):
                continue
            ref = self.r.attr_of(side)
            if self.r.maps_list(side) or not (
                isinstance(ref, rv.ObjBuiltin) and ref.name == "name"
            ):
                continue
            o = self.src(side.obj, its)
            if not (o in self.objs or _plain(o)):
                continue
            word = ast.literal_eval(text)
            test = self._card_table(o, "name_is", word, lambda c, w=word: c.name == w)
            if test is None:
                return None
            if e.op == "==":
                return f"({test})" if o in self.objs else f"({o} is not None and {test})"
            return f"(not {test})" if o in self.objs else f"({o} is None or not {test})"
        return None

    def _kind_test(self, o: str, kind: str) -> str:
        """`o is K` of an object `o` (never none): a card's kind is printed, so read from a
        table of each card's truth made for `K` (no kind's read nor comparison), or the
        comparison itself while the cards are still being made."""
        general = f"CARDS[st.obj_card[{o}]].kind == {kind!r}"
        return self._card_table(o, "kind", kind, lambda c: c.kind == kind) or general

    def _printed_keyword(self, o: str, kw: str) -> str:
        """Whether object `o` (never none) has keyword `kw` printed, `kw` the Python of a
        keyword: a constant's read from a table of each card's truth (`_card_table`)."""
        general = f"{kw} in CARDS[st.obj_card[{o}]].keywords"
        if not (kw.startswith("'") and kw == repr(kw[1:-1])):  # a name's keyword: no table
            return general
        word = kw[1:-1]
        return self._card_table(o, "kw", word, lambda c: word in c.keywords) or general

    def _printed(self, o: str, name: str) -> str:
        """The name or kind of object `o` (never none), printed on its card: read from a table
        of each card's (one read fewer than the card's attribute)."""
        table = self._card_table(o, name, "", lambda c: getattr(c, name))
        return table or f"CARDS[st.obj_card[{o}]].{name}"

    def _card_table(self, o: str, what: str, key: str, truth) -> str | None:
        """A printed fact of object `o`'s card read from a table of each card's `truth` (made
        once per `(what, key)`), or None while the cards are still being made."""
        if not KIND_TABLES or len(self.p.cards) < len(self.s.cards):
            return None
        table = self._far_tables.get((what, key))
        if table is None:
            table = self.const([truth(c) for c in self.p.cards], f"{what}_{key}")
            self._far_tables[(what, key)] = table
        return f"{table}[st.obj_card[{o}]]"

    def _boolean(self, e) -> bool:
        """Whether the Python written for `e` is always True or False (a comparison, `has`,
        `is`, `in`, `not`, `exists`, and/or of such): `and`/`or` of them need no wrapping."""
        match e:
            case n.BinOp():
                return e.op in self._COMPARE
            case n.Has() | n.IsKind() | n.Contains() | n.Not() | n.BoolOp():
                return True
            case n.Const():
                return isinstance(e.value, bool)
            case n.Call():
                return len(e.args) == 1 and self.r.call_of(e) == rv.BuiltinRef("exists")
        return False

    def _never_none(self, e: n.BinOp) -> bool:
        """Both sides are plain numbers that cannot be none (literals, counters, arithmetic)."""
        return all(self._plain_number(x) for x in (e.left, e.right))

    def _plain_number(self, x) -> bool:
        if isinstance(x, n.Num):
            return True
        if isinstance(x, n.Name):
            res = self.r.name_of(x)
            return (
                isinstance(res, rv.CounterRef)
                or (isinstance(res, rv.LocalRef) and self._held(x, "number"))
                or id(x) in self._number_reads
                or self._plain_define(res)
            )
        if isinstance(x, n.BinOp) and x.op in ("+", "-", "*"):
            return self._plain_number(x.left) and self._plain_number(x.right)
        if isinstance(x, n.Attr):
            return isinstance(self.r.attr_of(x), rv.PlayerCounter)
        if isinstance(x, n.Call):
            res = self.r.call_of(x)
            counts = ("count", "sum", "max", "min") if MIN_MAX else ("count", "sum")
            return res in tuple(map(rv.BuiltinRef, counts)) or self._plain_define(res)
        return False

    def _extreme(self, which: str, e: n.Call, args: list[str]) -> str | None:
        """`max`/`min` as Python's where `builtins._max` would only pick (`MIN_MAX`): of two
        numbers that are never none when computed (`_valued`), or of a list written anew whose
        items are counters (none of them none; 0 for no items). None otherwise."""
        if which not in ("max", "min"):
            return None
        if len(args) == 2 and all(self._valued(x) for x in e.args):
            return f"{which}({args[0]}, {args[1]})"
        comp = _fresh(args[0]) if len(args) == 1 else None
        if isinstance(comp, ast.ListComp) and _NEVER_NONE.fullmatch(ast.unparse(comp.elt)):
            return f"{which}({args[0]}, default=0)"
        return None

    def _valued(self, x) -> bool:
        """Whether the Python of the number `x` is never none when it is computed: a plain
        number, or arithmetic of numbers (Python's `+`, `-`, `*`, which fail on a none)."""
        if self._plain_number(x):
            return True
        if isinstance(x, n.Neg):
            return self._valued(x.expr)
        return (
            isinstance(x, n.BinOp)
            and x.op in ("+", "-", "*")
            and self.r.operand_types(x) == (NUMBER, NUMBER)
        )

    def _plain_define(self, res) -> bool:
        """Whether `res` is a definition whose body is a plain number (`_plain_number`, its
        parameters not known as numbers: they may be none): its value is never none."""
        return (
            PLAIN_DEFINES
            and isinstance(res, rv.DefineRef)
            and self._body_is(res.name, self._plain_number)
        )

    def name(self, e: n.Name, its) -> str:
        res = self.r.name_of(e)
        if res is None:
            raise RulesError(f"{e.span}: unresolved name '{e.name}'")
        target = res.name
        if isinstance(res, rv.LocalRef):
            bound = self.bound.get(target)
            return bound if bound is not None else f"env.get({target!r})"
        if isinstance(res, rv.DefineRef):
            inlined = self.inline_define(self.s.defines[target], [], its)
            if inlined is not None:
                return inlined
            return self._define_call(self.s.defines[target], [])
        if isinstance(res, rv.CounterRef):
            return f"st.counters[{target!r}]"
        if isinstance(res, rv.ZoneRef):
            return f"st.g.zone_base[{target!r}]"
        if isinstance(res, rv.KeywordRef | rv.KindRef | rv.CardRef):
            return repr(target)
        if isinstance(res, rv.ItPropRef):
            it = its[-1] if its else "env['it']"
            return self.prop(it, target)
        if isinstance(res, rv.BuiltinRef):
            return {
                "players": "_players(st)",
                "active": "st.active",
                "first_player": "st.first",
                "turn_direction": "st.direction",
                "turn_number": "st.turn",
                "resolving": "_in_effect(st)",
                "round_number": "st.round",
                "player_count": "st.g.nplayers",
                "areas": "list(range(len(st.g.areas)))",
                "option": "st.g.options",
                "data": "PROG.meta.get('data')",
            }[target]
        raise RulesError(f"{e.span}: cannot compile name '{e.name}'")  # pragma: no cover

    def prop(self, obj: str, name: str) -> str:
        modified = name in self.p.modified_props or name in self.c.modified_names()
        slot = self.p.prop_slots.get(name)
        if not _plain(obj):
            if modified:
                return f"{self.reader(name, True)}(st, {obj})"
            return f"_bprop(st, {obj}, {name!r})" if slot is None else f"_bslot(st, {obj}, {slot})"
        # a name, read twice without a cost: the read written out (no call of a helper), and
        # no none test when the name holds an object (`where` over a zone)
        if modified:
            read = f"{self.reader(name, False)}(st, {obj})"
        elif slot is not None:  # the rules write it: its value by object (State.pv)
            self.p.slot_cards()
            read = f"st.pv[{slot}][{obj}]"
        elif len(self.p.cards) < len(self.s.cards):  # the cards are being made (their texts)
            read = (
                f"(st.props[{name!r}][{obj}] if {obj} in st.props.get({name!r}, _NOD)"
                f" else CARDS[st.obj_card[{obj}]].props.get({name!r}))"
            )
        else:  # the card's, unless something outside the rules wrote it (a scenario's position)
            cards = self.const(self.p.card_values(name), "card_" + name)
            read = (
                f"({cards}[st.obj_card[{obj}]] if {name!r} not in st.props"
                f" else _oprop(st, {obj}, {name!r}))"
            )
        return read if obj in self.objs else f"(None if {obj} is None else {read})"

    def reader(self, name: str, none_safe: bool) -> str:
        """The name of the compiled read of modified property `name` (effects.prop_reader),
        one per property and program; `none_safe`: one that gives none for none."""
        key = (name, none_safe)
        fn = self.p.readers.get(key)
        if fn is None:
            fn = self.p.readers[key] = self.p.prop_reader(name)
            if none_safe:
                one = fn
                fn = self.p.readers[key] = lambda st, o: None if o is None else one(st, o)
        return self.const(fn, "RP")

    def attr(self, e: n.Attr, its) -> str:
        ref = self.r.attr_of(e)
        if isinstance(ref, rv.OptionAttr):
            return f"st.g.options.get({ref.name!r})"
        if self.r.maps_list(e) and isinstance(e.obj, n.Where):
            # `(L where C).p`: one comprehension, not a list of the matches then their values
            return self.where(e.obj, its, "[", "]", lambda var: self.one_attr(ref, var))
        obj = self.src(e.obj, its)
        if self.r.maps_list(e):
            mapped = self._mapped_attr(e, ref, obj, its)
            if mapped is not None:
                return mapped
            var = f"m{len(its)}"
            held = self.objects_only(e.obj)
            if held:
                self.objs.add(var)
            try:
                one = self.one_attr(ref, var)
            finally:
                if held:
                    self.objs.discard(var)
            if isinstance(e.obj, n.Name) and self.r.name_of(e.obj) == rv.BuiltinRef("players"):
                # `players.X`: the seats counted, no list of them built (none lost: all)
                obj = _SEATS
            elif self._zone(e.obj):
                obj = f"st.zones[{obj}]"
            elif not self._list(e.obj):
                # a list to the checker may hold a zone given for it (`sum(l.p)` of `p.hand`)
                obj = (
                    f"({obj} if {obj}.__class__ is list else _listed(st, {obj}))"
                    if _SIMPLE.fullmatch(obj)
                    else f"_listed(st, {obj})"
                )
            return f"[{one} for {var} in ({obj} or [])]"
        return self.one_attr(ref, obj)

    def _mapped_attr(self, e: n.Attr, ref, obj: str, its) -> str | None:
        """`L.p` of a list `L` written as a new list (`_fresh`): its items gone through with no
        `or []`, and when it is a `where`'s comprehension and the read of `p` is pure (no
        charge, no error: read in another order, the same), that read made in it for each
        match, no list of the matches made first; None for any other `L`."""
        if not self._list(e.obj) or _fresh(obj) is None:
            return None
        var = _matched_var(obj)
        if var is None:
            var = f"m{len(its)}"
            return f"[{self._held_attr(e, ref, var)} for {var} in {obj}]"
        one = self._held_attr(e, ref, var)
        return _mapped(obj, one) if _pure(one) else None

    def _held_attr(self, e: n.Attr, ref, var: str) -> str:
        """`one_attr` of `var`, an item of `e`'s list, known as an object if the list holds
        only objects."""
        held = self.objects_only(e.obj) and var not in self.objs
        if held:
            self.objs.add(var)
        try:
            return self.one_attr(ref, var)
        finally:
            if held:
                self.objs.discard(var)

    def one_attr(self, ref, obj: str) -> str:
        name = ref.name
        if isinstance(ref, rv.ObjProp):
            return self.prop(obj, name)
        if isinstance(ref, rv.ObjBuiltin) and obj in self.objs:  # an object, never none
            if name == "owner":
                return f"st.obj_owner[{obj}]"
            if name in ("name", "kind"):
                return self._printed(obj, name)
        if isinstance(ref, rv.ObjBuiltin) and ref.name in ("owner", "zone") and _plain(obj):
            table = "st.obj_owner" if ref.name == "owner" else "st.obj_zone"
            return f"(None if {obj} is None else {table}[{obj}])"
        if isinstance(ref, rv.ObjBuiltin) and ref.name in ("name", "kind") and _plain(obj):
            return f"(None if {obj} is None else {self._printed(obj, name)})"
        if isinstance(ref, rv.ObjBuiltin):
            return {
                "owner": f"_owner(st, {obj})",
                "zone": f"_zone_of(st, {obj})",
                "position": f"_position(st, {obj})",
                "name": f"_card_of(st, {obj}).name",
                "kind": f"_card_of(st, {obj}).kind",
                "id": obj,
            }[name]
        if isinstance(ref, rv.PlayerZone | rv.AreaZone):
            return f"(st.g.zone_base[{name!r}] + {obj})"
        if isinstance(ref, rv.PlayerCounter):
            return f"st.pcounters[{name!r}][{obj}]"
        if isinstance(ref, rv.AreaCounter):
            return f"st.acounters[{name!r}][{obj}]"
        if isinstance(ref, rv.AreaFact):
            return f"_fact(st, {obj}, {name!r})"
        if isinstance(ref, rv.PlayerBuiltin):
            return obj
        if isinstance(ref, rv.ZoneBuiltin):
            if name in ("owner", "소유자"):
                return f"st.g.zone_info[{obj}][1]"
            return f"len(st.zones[{obj}])"
        if isinstance(ref, rv.KeyAttr):
            return f"_dget(st, {obj}, {name!r})"
        raise RulesError(f"cannot compile attribute '{name}'")  # pragma: no cover


# ---------------------------------------------------------------- statements
#
# Statements that never push a frame nor ask a decision (assignments, moves, creations, branches
# and loops over such statements, calls of verbs nobody listens to) as plain Python: the body of
# a generated block's sections (resumable.py), and the function of a verb called inline. With
# state checks, resumable.py uses only the single statements, each followed by the checks.


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUM = re.compile(r"-?\d+")  # a number written as a literal
# Python that is a number whenever it has a value at all: literals, counters, the turn
_NEVER_NONE = re.compile(
    r"-?\d+|\(-?\d+\)|st\.counters\['[^'\\]*'\]|st\.[pa]counters\['[^'\\]*'\]\[[^\[\]]+\]"
    r"|st\.(?:turn|round|g\.nplayers)"
)
# Python read twice at no cost beside a name: a property laid out by object (State.pv)
_CHEAP = re.compile(r"st\.pv\[\d+\]\[[A-Za-z_]\w*\]")


# a guarded `where` at the top of a test: (the comprehension, the zone)
_GUARDED = re.compile(
    r"\(\[it0 for it0 in _each\(st, zg0_\) if (.*)\] if \(zg0_ := (.*)\) else \[\]\)"
)
_EACH_ZONE = re.compile(r"_each\(st, (st\.zones\[.*\])\)")  # a zone's objects, charged


def _plain(src: str) -> bool:
    """A bare Python name (read twice without a cost) rather than an expression."""
    return _PLAIN.fullmatch(src) is not None


_ATOM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.get\('[^'\\]*'\))?|-?\d+")  # name, env.get('x')


def bracket_depths(src: str):
    """(index, character, depth) of each character of generated Python `src` outside its
    string literals; depth counts the brackets open there (an opening one counts itself, a
    closing one no longer)."""
    depth, quote, k = 0, "", 0
    while k < len(src):
        ch = src[k]
        if quote:
            if ch == "\\":
                k += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        else:
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            yield k, ch, depth
        k += 1


def _grouped(src: str) -> str:
    """`src` in parentheses, unless it is one parenthesised group already or a name."""
    if _ATOM.fullmatch(src):
        return src
    if src.startswith("(") and src.endswith(")"):
        last = len(src) - 1
        if not any(d == 0 and ch in ")]}" and k < last for k, ch, d in bracket_depths(src)):
            return src  # not closed before the end, as `(a) + (b)` is
    return f"({src})"


def above_zero(cond: str, var: str, counters: set[str]) -> tuple[str, str] | None:
    """(counter, the rest of the test) when the test `cond` of `var` is `c > 0` or `c > 0 and
    R` at its top level, `c` an area counter of `counters` read at `var`; else None."""
    cond = _bare(cond)
    if _ABOVE_ZERO.fullmatch(f"({cond})"):  # the comparison alone, its parentheses taken off
        cond = f"({cond})"
    m = _ABOVE_ZERO.match(cond)
    if m is None or m.group(2) != var or m.group(1) not in counters:
        return None
    rest = cond[m.end() :]
    if rest and not rest.startswith(" and "):
        return None
    return m.group(1), rest[len(" and ") :]


BOUNDS_JOINED = True
# a counter or the turn (a number, read without a cost) compared with a literal, as `compile`
# writes it: (x, op, k) or (k, op, x)
_COUNTER = (
    r"st\.counters\['[^'\\]*'\]|st\.[pa]counters\['[^'\\]*'\]\[(?:[A-Za-z_]\w*|\d+)\]"
    r"|st\.(?:turn|round)"
)
_BOUND = re.compile(rf"\(({_COUNTER}) (<=|<|>=|>) (-?\d+)\)|\((-?\d+) (<=|<|>=|>) ({_COUNTER})\)")
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _bound(src: str) -> tuple[str, bool, bool, int] | None:
    """(the number read, a lower bound?, strict?, the literal) of a test `(x > k)` (`<`, `<=`,
    `>=`, either side) of a number never none read without a cost; else None."""
    m = _BOUND.fullmatch(src)
    if m is None:
        return None
    x, op, k = m.group(1, 2, 3) if m.group(1) is not None else (*m.group(6, 5), m.group(4))
    op = op if m.group(1) is not None else _FLIPPED[op]
    return x, op[0] == ">", len(op) == 1, int(k)


def bounds_joined(parts: list[str]) -> list[str]:
    """The items of an `and`, each two in a row bounding one number from the same side (`x > 0
    and x >= 1`, as a definition written inline gives) as the stricter one alone: the same
    truth for any number, one read and comparison fewer (`BOUNDS_JOINED`). The reads are of
    the state only (counters, the turn), so nothing between them writes what they read."""
    out: list[str] = []
    for p in parts:
        b, a = _bound(p), _bound(out[-1]) if out else None
        if a is None or b is None or a[:2] != b[:2]:
            out.append(p)
            continue
        x, lower = a[:2]
        # the stricter bound: the larger (lower bounds) or smaller (upper) literal; at the
        # same literal the strict comparison
        key = (lambda t: (t[3], t[2])) if lower else (lambda t: (-t[3], t[2]))
        _, _, strict, k = max(a, b, key=key)
        op = (">" if lower else "<") + ("" if strict else "=")
        out[-1] = f"({x} {op} {k})"
    return out


def _bare(src: str) -> str:
    """`src` without the parentheses around all of it."""
    while src.startswith("(") and src.endswith(")") and _grouped(src) == src:
        src = src[1:-1]
    return src


def _once(e, name: str, res) -> int:
    """How many times the local `name` is read on one path through `e` at most (2: more than
    once, or once per item of a list)."""
    if isinstance(e, n.Name):
        return int(e.name == name and isinstance(res.name_of(e), rv.LocalRef))
    if isinstance(e, n.IfExpr):
        k = _once(e.cond, name, res) + max(_once(e.then, name, res), _once(e.orelse, name, res))
    elif isinstance(e, n.Where):
        k = _once(e.items, name, res) + 2 * _once(e.cond, name, res)
    elif isinstance(e, n.Has) and e.keyword == name:
        k = 2
    else:
        k = sum(_once(c, name, res) for c in e.iter_child_nodes())
    return min(k, 2)


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


# numbers far below 2**31 (a literal of up to nine digits, the number of seats), whose product
# is never too large (budget.number)
_SMALL = re.compile(r"\(?-?\d{1,9}\)?|st\.g\.nplayers")


# a divisor never 0: a literal other than 0, the number of seats (at least one: the schema's)
_NONZERO = re.compile(r"\(?-?[1-9]\d*\)?|st\.g\.nplayers")


def _seat_number(src: str) -> bool:
    """Whether the Python `src` is `(x % st.g.nplayers)` (what `%` by the seats is written as):
    a number from 0 to the number of seats less one."""
    body = _parsed(src)
    return (
        isinstance(body, ast.BinOp)
        and isinstance(body.op, ast.Mod)
        and ast.unparse(body.right) == "st.g.nplayers"
    )


def _or_zero(e: n.BinOp, a: str, b: str, op: str) -> str | None:
    """`x > 0` of a number `x` that may be none (false then) as `(x or 0) > 0`: none and 0
    compare alike against a literal `c` for `> c` with c >= 0, `>= c` with c >= 1, `< c`
    with c <= 0 and `<= c` with c <= -1, so `x` is computed once without a helper's call."""
    if isinstance(e.right, n.Num) and isinstance(e.right.value, int):
        x, c = a, e.right.value
    elif isinstance(e.left, n.Num) and isinstance(e.left.value, int):
        x, c, op = b, e.left.value, _FLIP[op]
    else:
        return None
    if isinstance(c, bool):
        return None
    ok = {">": c >= 0, ">=": c >= 1, "<": c <= 0, "<=": c <= -1}[op]
    return f"(({x} or 0) {op} {c})" if ok else None


def _names_read_here(e, res) -> dict[str, str]:
    """The local names `e` itself reads (not the bodies of the definitions it calls), `you`
    and `this` among them, each with the Python variable that holds it."""
    names = []
    for x in e.walk():
        if isinstance(x, n.Name) and isinstance(res.name_of(x), rv.LocalRef):
            names.append(x.name)
        elif isinstance(x, n.Special) and x.which in ("you", "this"):
            names.append(x.which)
    return {k: f"_n{i}" for i, k in enumerate(dict.fromkeys(names))}


_KIND_OF_TYPE = {ZONE: "zone", NUMBER: "number"}


def _inline_blocks(s) -> list:
    """The blocks of statement `s` written into the function that holds `s` (an `if`'s
    branches, a loop's body), where a `let` runs in that function's own env."""
    if isinstance(s, n.If):
        return [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
    if isinstance(s, n.While | n.For | n.Repeat):
        return [s.body]
    return []


def _binds_node(x, name: str) -> bool:
    """Whether node `x` binds the local `name` (a statement with that name, an assignment)."""
    if isinstance(x, n.Assign):
        return isinstance(x.target, n.Name) and x.target.name == name
    return isinstance(x, n.Stmt) and getattr(x, "name", None) == name


def _reads_node(x, name: str, res) -> bool:
    """Whether node `x` reads the local `name` (or a keyword held in it)."""
    if isinstance(x, n.Name | n.Has):
        ref = res.name_of(x)
        key = x.name if isinstance(x, n.Name) else x.keyword
        return key == name and (ref is None or isinstance(ref, rv.LocalRef))
    return False


def _binds(b: n.Block, name: str) -> bool:
    """Whether a statement in `b` (nested blocks too) binds the local `name`."""
    for x in b.walk():
        if isinstance(x, n.Assign):
            if isinstance(x.target, n.Name) and x.target.name == name:
                return True
        elif isinstance(x, n.Stmt) and getattr(x, "name", None) == name:
            return True
    return False


def py_name(word: str) -> str:
    """`word` of the rules as part of a Python name (Korean ones too), or "" when it cannot be
    one, or Python would read it as another word (NFKC: `ﬁ` is `fi`)."""
    return word if word.isidentifier() and unicodedata.normalize("NFKC", word) == word else ""
