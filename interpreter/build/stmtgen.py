"""Statements → Python source: the single statements that never wait (`PLAIN_STMTS`: `let`,
assignments, moves, `modify` ...), written as Python into the generated blocks' functions.

build/resumable.py cuts a block into sections at the places where it may wait and asks
`StmtGen` for everything between them; the expressions inside come from codegen.CodeGen.
"""

from __future__ import annotations

import ast
import re
from itertools import count

from ..language import nodes as n
from ..language import resolved as rv
from ..runtime.errors import RulesError
from .codegen import _STRING, CodeGen, _Locals, define, mark, py_name, unquoted

# Writes of laid-out properties marked in the state per object and per slot (State.wrote),
# for the run time's incremental options and checks: off until one reads them (their cost
# is measured in docs/speed.md).
MARK_WRITES = False

# A plain loop finds the tables of the laid-out properties its body writes once before its
# first round, not at every write (`StmtGen.hold_tables`; docs/speed.md, h47d).
HOLD_TABLES = True

# The statements a loop's body may hold for its tables to be found once: none of them makes,
# moves or renews an object or calls a verb, so nothing else replaces a property's table or
# copies a row of the layout between two rounds.
_TABLE_SAFE = (n.Let, n.Assign, n.Pass, n.Log, n.If, n.For, n.Repeat)


def _none_target(span, name):
    raise RulesError(f"{span}: cannot set '{name}' of none")


# A value's read of an object's zone or owner that may be none, read three times or more in
# the Python of one statement's value (a definition written inline whose parameter is
# `c.zone`): found once before the statement (`StmtGen.bind_reads`; docs/speed.md, h48p)
BIND_READS = True
# (of a local's variable or the env's name: never a comprehension's)
_L = r"(?:_l\d+|env\.get\('[^'\\]*'\))"
_NONE_READ = re.compile(rf"\(None if ({_L}) is None else st\.obj_(?:owner|zone)\[\1\]\)")


# Single statements that never wait: StmtGen writes them as Python (when `fusable`).
PLAIN_STMTS = (n.Let, n.Assign, n.Move, n.Create, n.Remove, n.Shuffle, n.Pass, n.Log, n.Win,
               n.Lose, n.DrawGame, n.Modify, n.Grant)  # fmt: skip


def _prop_writes(cg: CodeGen, b: n.Block) -> list[str] | None:
    """The laid-out properties a loop's body writes at every round (its own statements, not
    a branch's: where a round may write nothing, finding the table first costs more than
    it saves in loops of a round or two), in the order of the rules; None where the body
    holds a statement that is not `_TABLE_SAFE`, or writes the owner or a property without a
    slot."""
    names: list[str] = []
    for s in b.body:
        if not isinstance(s, _TABLE_SAFE):
            return None
        if any(_prop_writes(cg, blk) is None for blk in _inner_blocks(s)):
            return None
        if isinstance(s, n.Assign) and not isinstance(s.target, n.Name):
            ref = cg.r.attr_of(s.target)
            if ref == rv.ObjBuiltin("owner"):
                return None
            if isinstance(ref, rv.ObjProp):
                if cg.p.prop_slots.get(ref.name) is None:
                    return None
                if ref.name not in names:
                    names.append(ref.name)
    return names


def _inner_blocks(s) -> list[n.Block]:
    """The blocks a statement holds (a branch's arms, a loop's body)."""
    if isinstance(s, n.If):
        return [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
    if isinstance(s, n.For | n.Repeat):
        return [s.body]
    return []


# A verb's function that never waits (`StmtGen.compile_run`) writes its names to the env only
# where the function reads them from there: its env is the call's own dictionary, which nothing
# reads after the call (docs/speed.md, h48p)
UNREAD_WRITES = True
_ENV_WRITE = re.compile(r"^(\s*)env\[('[^'\\]*')\] = ")
_ENV_USE = re.compile(rf"({_STRING})|\benv\b(?:\.get\(('[^'\\]*')\)|\[('[^'\\]*')\])?")


def _unread_writes(lines: list[str]) -> list[str]:
    """A function's lines (after its loads) without the writes `env['x'] = ...` of the names
    it never reads from the env afterwards (a write's value still computed: `_l3 = v`, or `v`
    alone); all as they were where the env itself is handed on (`_e5(st, env)`)."""
    if not UNREAD_WRITES:
        return lines
    read: set[str] = set()
    for x in lines:
        for m in _ENV_USE.finditer(_ENV_WRITE.sub(r"\1", x)):
            if m.group(1) is not None:  # a string literal
                continue
            if m.group(2) is None and m.group(3) is None:
                return lines  # the env handed on: anything may read it
            read.add(m.group(2) or m.group(3))
    out = []
    for x in lines:
        m = _ENV_WRITE.match(x)
        out.append(x if m is None or m.group(2) in read else m.group(1) + x[m.end() :])
    return out


def _unlisted(listed: str | None) -> str | None:
    """A loop's items, `list(X)`, as `X` where X is a list comprehension or display (a
    definition's body written inline): a new list already, which no one else holds."""
    if listed is None or not listed.startswith("list(") or "[" not in listed:
        return listed
    try:
        e = ast.parse(listed, mode="eval").body
    except SyntaxError:
        return listed
    if (
        isinstance(e, ast.Call)
        and len(e.args) == 1
        and isinstance(e.args[0], ast.ListComp | ast.List)
    ):
        return listed[5:-1]
    return listed


class StmtGen:
    def __init__(self, cg: CodeGen, listened: set[str]):
        self.cg = cg
        self.listened = listened
        self._tmp = count()
        self._verb_fns: dict[str, list] = {}
        self._fusable_verbs: dict[str, bool] = {}
        self._ends: dict[str, bool] = {}  # may_end
        self._held: dict[str, tuple[str, str]] = {}  # hold_tables: a property's table and row
        self._held_by: dict[int, list[str]] = {}  # the loop that holds them
        from ..runtime import engine as E

        ns = cg.ns
        ns["_none_target"] = _none_target
        ns["_E"] = E

    # ------------------------------------------------------------ what can be fused
    def fusable(self, s) -> bool:
        r = self.cg.r
        match s:
            case (
                n.Let()
                | n.Move()
                | n.Create()
                | n.Remove()
                | n.Shuffle()
                | n.Pass()
                | n.Log()
                | n.Win()
                | n.Lose()
                | n.DrawGame()
            ):
                return True
            case n.Modify():
                return True
            case n.Grant():
                return not s.args  # arguments: compiled by the compiler (engine.AddModifier)
            case n.Assign():
                if isinstance(s.target, n.Name):
                    return True
                res = r.attr_of(s.target)
                return (
                    isinstance(res, rv.ObjProp | rv.PlayerCounter | rv.AreaCounter)
                    or res == rv.ObjBuiltin("owner")
                ) and not r.maps_list(s.target)
            case n.If():
                return all(self.block_ok(b) for _, b in s.branches) and (
                    s.orelse is None or self.block_ok(s.orelse)
                )
            case n.For() | n.Repeat():
                return self.block_ok(s.body)
            case n.CallStmt():
                return self.verb_ok(self.cg.s.verbs[s.verb].name)
            case n.Emit():
                return self.cg.s.events[s.event].name not in self.listened
        return False

    def mutates(self, s) -> bool:
        """Whether a plain statement changes the game (then state checks follow it): all but
        `let`, `pass`, `log`, a draw (the game is over) and assignments to local names."""
        if isinstance(s, (n.Let, n.Pass, n.Log, n.DrawGame)):
            return False
        if isinstance(s, n.Assign) and isinstance(s.target, n.Name):
            return isinstance(self.cg.r.name_of(s.target), rv.CounterRef | rv.GameRef)
        return True

    def block_ok(self, b: n.Block) -> bool:
        return all(self.fusable(s) for s in b.body)

    def verb_unheard(self, s: n.CallStmt) -> bool:
        """A call of a verb with a block and no triggers: nothing but its block happens."""
        sym = self.cg.s.verbs[s.verb]
        return sym.name not in self.listened and sym.decl.body is not None

    def verb_ok(self, name: str) -> bool:
        if name in self.listened:
            return False
        if name not in self._fusable_verbs:
            self._fusable_verbs[name] = False  # a recursive verb is not fused
            self._fusable_verbs[name] = self.block_ok(self.cg.s.verbs[name].decl.body)
        return self._fusable_verbs[name]

    # ------------------------------------------------------------ code
    def compile_run(self, stmts: list, word: str = "", given=None) -> object:
        """One function `fn(st, env)` running statements that never wait (a verb's body).
        `given`: the names its env holds when it starts (a call's `you` and arguments), when
        known: the variables of the others start as none, without a read of the env."""
        lines: list[str] = []
        saved = self.cg.locals_start(stmts)
        try:
            for s in stmts:
                self.emit(s, lines, 1)
        finally:
            loc = self.cg.locals_end(saved)
        name = f"_{word}_f{next(self.cg.ids)}" if word else f"_f{next(self.cg.ids)}"
        lines = _unread_writes(loc.settle(lines))
        lines = self._loads(loc, given) + lines
        code = f"def {name}(st, env):\n" + "\n".join(lines or ["    pass"]) + "\n"
        return define(self.cg.ns, name, code, f"<madang {stmts[0].span}>")

    def _loads(self, loc: _Locals, given) -> list[str]:
        """The first lines of a function: its variables loaded from the env (of `given`
        names only, when known and UNREAD_WRITES: the others are none there)."""
        if given is None or not UNREAD_WRITES:
            return loc.loads("    ")
        return [
            (f"    {v} = env[{k!r}]" if GIVEN_SUBSCRIPT else f"    {v} = env.get({k!r})")
            if k in given
            else f"    {v} = None"
            for k, v in loc.items()
        ]

    def verb_fn(self, name: str) -> str:
        """The holder (`[fn]`) of the function that runs a verb that never waits inline."""
        holder = self._verb_fns.get(name)
        if holder is None:
            holder = self._verb_fns[name] = []
            body = self.cg.s.verbs[name].decl.body
            given = {"you", *self.cg.p.verbs[name].param_names}  # (call_env's)
            holder.append(self.compile_run(list(body.body), py_name(name), given))
        return self.cg.const(holder, f"{name}_fn")

    def args_name(self, verb: str) -> str:
        """A fresh Python name for the arguments of a call of `verb` (`_strike_args3`)."""
        word = py_name(verb)
        return f"_{word}_args{next(self._tmp)}" if word else f"_t{next(self._tmp)}"

    def may_end(self, verb: str) -> bool:
        """Whether a verb that never waits may end the game (`win`, `lose`, `end game`, or a
        call of one that may): only then is the game's end tested after calling it."""
        known = self._ends.get(verb)
        if known is None:
            self._ends[verb] = False  # a verb that calls itself: decided by its other parts
            body = self.cg.s.verbs[verb].decl.body
            known = self._ends[verb] = any(
                isinstance(x, (n.Win, n.Lose, n.DrawGame))
                or isinstance(x, n.CallStmt)
                and self.may_end(self.cg.s.verbs[x.verb].name)
                for x in body.walk()
            )
        return known

    def emit(self, s, out: list[str], depth: int) -> None:
        """The lines of a statement that never waits; the first names its place in the rules."""
        start = len(out)
        self._emit(s, out, depth)
        mark(out, start, s.span)

    def _emit(self, s, out: list[str], depth: int) -> None:  # noqa: C901 - one case per statement
        cg = self.cg
        pad = "    " * depth

        def x(e):
            return cg.src(e, ())

        def tmp():
            return f"_t{next(self._tmp)}"

        def until(s):  # `until end of turn of P` is computed when the modifier is added
            if s.until_of is not None:
                return f"_E.turn_of({x(s.until_of)})"
            return repr(s.until)

        match s:
            case n.Let():
                out.append(f"{pad}{cg.store(s.name)} = {self.bind_reads(x(s.value), out, pad)}")
            case n.Assign():
                self.assign(s, out, pad, x, tmp)
            case n.Move():
                idx = x(s.index) if s.index is not None else "0"
                out.append(
                    f"{pad}_E.move_objects(st, {x(s.what)}, {x(s.zone)}, {s.where!r}, {idx}, {str(s.span)!r})"
                )
            case n.Create():
                owner = x(s.owner) if s.owner is not None else "None"
                call = f"_E.create_card(st, {x(s.card)}, {x(s.zone)}, {owner}, {str(s.span)!r})"
                out.append(f"{pad}{cg.store(s.name)} = {call}" if s.name else f"{pad}{call}")
            case n.Remove():
                out.append(f"{pad}_E.remove_objects(st, {x(s.what)})")
            case n.Shuffle():
                out.append(f"{pad}_E.shuffle_zone(st, {x(s.zone)})")
            case n.Pass():
                out.append(f"{pad}pass")
            case n.Log():
                t = cg.const(cg.r.type_of(s))
                out.append(f"{pad}if st.log is not None: _E.log_value(st, {x(s.value)}, {t})")
            case n.Modify():
                out.append(
                    f"{pad}_E.AddModifier.run(st, {x(s.obj)}, {s.prop!r}, {x(s.amount)}, {until(s)}, False, None, {s.op!r})"
                )
            case n.Grant():
                out.append(
                    f"{pad}_E.AddModifier.run(st, {x(s.to)}, None, {x(s.keyword)}, {until(s)}, True)"
                )
            case n.Win() | n.Lose():
                out.append(f"{pad}_E.win_or_lose(st, {x(s.who)}, {isinstance(s, n.Lose)})")
                out.append(f"{pad}if st.over: return")
            case n.DrawGame():
                out.append(f"{pad}_E.finish(st, [])")
                out.append(f"{pad}return")
            # (a statement that may end the game returns at once when it did: a branch or loop
            # around it needs no test of its own)
            case n.If():
                for k, (cond, body) in enumerate(s.branches):
                    out.append(f"{pad}{'if' if k == 0 else 'elif'} {cg.test(cond, ())}:")
                    self.body(body, out, depth + 1)
                if s.orelse is not None:
                    out.append(f"{pad}else:")
                    self.body(s.orelse, out, depth + 1)
            case n.For():
                v = f"{s.name}_" if py_name(s.name) else tmp()  # no helper's name ends in _
                listed = _unlisted(cg.loop_items(s.items))
                if listed is None:
                    out.append(f"{pad}for {v} in list(_seq(st, {x(s.items)})):")
                else:  # a zone or a list: charged here, no call
                    items = tmp()
                    out.append(f"{pad}{items} = {listed}")
                    out.extend(pad + line for line in cg.charge_lines(items))
                    out.append(f"{pad}for {v} in {items}:")
                out[-1:-1] = self.hold_tables(s, pad, tmp)
                out.append(f"{pad}    {cg.store(s.name)} = {v}")
                with cg.loop_holds(s):
                    self.body(s.body, out, depth + 1)
                for name in self._held_by.pop(id(s), ()):
                    del self._held[name]
            case n.Repeat():
                out.append(f"{pad}for _ in _times(st, {x(s.times)}, {str(s.span) + ': repeat'!r}):")
                self.body(s.body, out, depth + 1)
            case n.CallStmt() | n.Emit():
                sym = cg.s.verbs[s.verb] if isinstance(s, n.CallStmt) else cg.s.events[s.event]
                e = self.args_name(sym.name)
                self.call_env(s, sym.name, e, out, pad)
                if isinstance(s, n.CallStmt):
                    out.append(f"{pad}{self.verb_fn(sym.name)}[0](st, {e})")
                    if self.may_end(sym.name):
                        out.append(f"{pad}if st.over: return")
            case _:  # pragma: no cover - fusable() admits only the cases above
                raise RulesError(f"{s.span}: cannot fuse this statement")

    def call_env(self, s, verb_name: str, var: str, out: list[str], pad: str) -> str:
        """The lines binding `var` to a call's environment (`you` and the arguments, as
        Call.exec binds them) and noting the call in the log; the verb's constant name."""
        cg = self.cg
        verb = cg.p.verbs[verb_name]
        vr = cg.const(verb)
        args = ", ".join(
            [f"'you': {cg._special('you')}"]
            + [
                f"{p!r}: {cg.listed(t, a, cg.src(a, ()))}"
                for p, t, a in zip(verb.param_names, verb.param_types, s.args)
            ]
        )
        out.append(f"{pad}{var} = {{{args}}}")
        out.append(f"{pad}if st.log is not None: _E.Call.note_call(st, {vr}, {var})")
        return vr

    def body(self, b: n.Block, out: list[str], depth: int) -> None:
        if not b.body:
            out.append("    " * depth + "pass")
        for s in b.body:
            self.emit(s, out, depth)

    def assign(self, s: n.Assign, out, pad, x, tmp) -> None:
        cg, t, op = self.cg, s.target, s.op
        value = x(s.value)
        if isinstance(t, n.Name):
            res = cg.r.name_of(t) or rv.LocalRef(t.name)
            if isinstance(res, rv.GameRef):
                out.append(f"{pad}_E.set_game_value(st, {res.name!r}, {value}, {str(s.span)!r})")
                return
            if isinstance(res, rv.CounterRef):
                ref = load = f"st.counters[{res.name!r}]"
            else:
                ref = cg.store(t.name)
                load = cg.bound.get(t.name) if isinstance(cg.bound, _Locals) else f"env[{t.name!r}]"
            out.append(
                f"{pad}{ref} = {value}" if op == "=" else f"{pad}{ref} = {load} {op[0]} ({value})"
            )
            if isinstance(res, rv.CounterRef):
                self.in_range(res.name, ref, None, s, out, pad)
                self.forget_kept("counter:" + res.name, out, pad)
            return
        ref = cg.r.attr_of(t)
        name = ref.name
        o = x(t.obj)
        if not o.isidentifier():  # (a name's variable is read where it is used)
            o = tmp()
            out.append(f"{pad}{o} = {x(t.obj)}")
        if ref == rv.ObjBuiltin("owner"):
            out.append(f"{pad}_E.set_owner(st, {o}, {value})")
        elif isinstance(ref, rv.ObjProp):
            d = tmp()
            if x(t.obj) not in cg.objs:  # an object held by a name: never none
                out.append(f"{pad}if {o} is None: _none_target({str(s.span)!r}, {name!r})")
            slot = cg.p.prop_slots.get(name)
            held = self._held.get(name)
            if held is not None:  # found before the loop's first round: made here if none
                d, row = held
                # (first the row: `own` copies the row and `props` of a clone's, so the
                # table is found again after it)
                out.append(
                    f"{pad}if {row} is None: {row} = st.own({slot}); {d} = st.props.get({name!r})"
                )
                out.append(f"{pad}if {d} is None: {d} = st.props[{name!r}] = {{}}")
            elif slot is not None:  # what saves hold, and the value by object (State.pv)
                row = tmp()
                out.append(  # (first: `own` copies the row and `props` of a clone's)
                    f"{pad}{row} = st.pv[{slot}] if st.pvo & {1 << slot} else st.own({slot})"
                )
            if held is None:
                out.append(f"{pad}{d} = st.props.get({name!r})")
                out.append(f"{pad}if {d} is None: {d} = st.props[{name!r}] = {{}}")
            if slot is not None:
                cg.p.slot_cards()
                if MARK_WRITES:  # which objects and slots were written (State.wrote)
                    out.append(f"{pad}st.wrote |= 1 << {o}")
                    out.append(f"{pad}st.wrote_slots |= {1 << slot}")
                ref = f"{row}[{o}]"
                out.append(
                    f"{pad}{d}[{o}] = {ref} = "
                    + (value if op == "=" else f"{ref} {op[0]} ({value})")
                )
            elif op == "=":
                out.append(f"{pad}{d}[{o}] = {value}")
            else:
                out.append(f"{pad}{d}[{o}] = PROG.base_prop(st, {o}, {name!r}) {op[0]} ({value})")
            self.forget_kept("prop:" + name, out, pad)
        else:
            table = "pcounters" if isinstance(ref, rv.PlayerCounter) else "acounters"
            ref = f"st.{table}[{name!r}][{o}]"
            out.append(
                f"{pad}{ref} = {value}" if op == "=" else f"{pad}{ref} = {ref} {op[0]} ({value})"
            )
            self.in_range(name, ref, o, s, out, pad)
            self.forget_kept("counter:" + name, out, pad)

    def hold_tables(self, s: n.For, pad: str, tmp) -> list[str]:
        """The lines before a plain loop that find the tables of the laid-out properties its
        body writes (`st.props`' dictionary, or none; the layout's row when this state owns
        it, or none), so that a write in a round tests two variables instead of finding them
        again; the write makes what is none, as it did (HOLD_TABLES). Only where the body
        neither calls nor makes, moves or renews objects, which may replace them."""
        names = _prop_writes(self.cg, s.body) if HOLD_TABLES else None
        lines = []
        for name in names or ():
            if name in self._held:  # an outer loop's
                continue
            slot = self.cg.p.prop_slots[name]
            d, row = tmp(), tmp()
            lines.append(f"{pad}{d} = st.props.get({name!r})")
            lines.append(f"{pad}{row} = st.pv[{slot}] if st.pvo & {1 << slot} else None")
            self._held[name] = (d, row)
            self._held_by.setdefault(id(s), []).append(name)
        return lines

    def bind_reads(self, src: str, out: list[str], pad: str) -> str:
        """`src`, a statement's value, with each read of an object's zone or owner (none
        tested, `_NONE_READ`) that it writes three times or more replaced by a variable found
        on a line before it: the read raises nothing and nothing the value computes moves an
        object, so only the work done changes (8 bytecodes a read against 1)."""
        if not BIND_READS:
            return src
        for read in dict.fromkeys(m.group() for m in _NONE_READ.finditer(unquoted(src))):
            if src.count(read) >= 3:
                var = f"_t{next(self._tmp)}"
                out.append(f"{pad}{var} = {read}")
                src = src.replace(read, var)
        return src

    def forget_kept(self, token: str, out, pad) -> None:
        """After a write of what the kept totals of continuous modifiers read (Program.kept_reads:
        effects.prop_reader): they are forgotten (`State.kt`)."""
        if token in self.cg.p.kept_reads:
            out.append(f"{pad}st.kt = None  # (the kept totals of continuous modifiers)")

    def in_range(self, name: str, ref: str, index: str | None, s, out, pad) -> None:
        """After a write of a counter declared `in LOW..HIGH`: its value is held to the range
        (one comparison; counters without a range cost nothing)."""
        counter = self.cg.p.counters[name]
        low, high = counter.low, counter.high
        if low is None and high is None:
            return
        held = f"{ref} <= {high}" if low is None else f"{low} <= {ref}"
        if low is not None and high is not None:
            held += f" <= {high}"
        refuse = f"{self.cg.const(counter)}.refuse(st, {ref}, {str(s.span)!r}, {index})"
        out.append(f"{pad}if not {held}: {refuse}")


# A verb's frameless copy (`resumable.quick_variant`) writes the names it binds to its env only
# where the env leaves it (its frame made: `_quick_sink`, `_quick_hand_over`, a section run in
# the frame): until then the env is the call's own dictionary, which nothing else reads
# (docs/speed.md, h49g)
DEFERRED_WRITES = True
# ... and reads the call's `you` and arguments, always in that dictionary, by subscript
# (`env['k']`: no method call), as a verb's function that never waits does (`_loads`)
GIVEN_SUBSCRIPT = True
_BARE_ENV = re.compile(r"\benv\b(?!\.get\('|\[')")
_WRITE = re.compile(r"^(\s*)env\[('[^'\\]*')\] = (?:(_l\d+) = )?")
_ESCAPE_IF = re.compile(r"^(\s*)(if .*:) (return _quick_(?:sink|hand_over)\(st, .*)$")
_ESCAPES = ("return _quick_sink(st, ", "callee.block, callee.pc, callee.env, callee.ctl = ")
# calls whose value is never none (a list, a number, a text, a truth)
_NEVER_NONE_CALLS = frozenset(("len", "list", "bool", "_plus", "_join"))


def _never_none(e: ast.expr) -> bool:
    """Whether a generated value can never be none (it raises first): a literal other than
    none, a display, arithmetic, a comparison, `not`, or `and`/`or`/`if` of such values."""
    match e:
        case ast.Constant():
            return e.value is not None
        case ast.List() | ast.ListComp() | ast.Tuple() | ast.Dict() | ast.Set() | ast.JoinedStr():
            return True
        case ast.BinOp() | ast.Compare() | ast.UnaryOp():
            return True
        case ast.BoolOp():
            return all(_never_none(v) for v in e.values)
        case ast.IfExp():
            return _never_none(e.body) and _never_none(e.orelse)
        case ast.Call(func=ast.Name(id=f)):
            return f in _NEVER_NONE_CALLS
    return False


def frameless_env(code: str, given: set[str]) -> str:
    """A frameless copy's `code` (before its names other than the call's, `given`, start as
    none) with its env read and written as `GIVEN_SUBSCRIPT` and `DEFERRED_WRITES` say."""
    if GIVEN_SUBSCRIPT:
        top, sep, body = code.partition("\n    pc = 0\n")
        top = _HEAD_LOAD.sub(
            lambda m: (
                f"    {m.group(1)} = env[{m.group(2)!r}]" if m.group(2) in given else m.group()
            ),
            top,
        )
        code = top + sep + body
    return deferred_writes(code, given)


def deferred_writes(code: str, given: set[str]) -> str:
    """A frameless copy's `code` whose names other than the call's (`given`) are written to the
    env only where it leaves the function (`_ESCAPES`) or where their value may be none, and
    read from variables: at an escape, `if v is not None: env['k'] = v` gives the env what each
    write gave it (a name never written, or last written none by a write kept, is as it was).
    The code as it was where the env is used otherwise (handed to a function that may read it)."""
    if not DEFERRED_WRITES:
        return code
    top, sep, body = code.partition("\n    pc = 0\n")
    lines = body.split("\n")
    for x in lines:
        if _BARE_ENV.search(unquoted(x)) and not any(e in x for e in _ESCAPES):
            if not _ESCAPE_IF.match(x):
                return code
    held = {m.group(2): m.group(1) for m in _HEAD_LOAD.finditer(top)}  # name: variable
    writes, others = _env_uses(lines)
    names = [k for k in writes if k not in given and k not in others and writes[k]]
    if not names:
        return code
    var = {k: held.get(k) or f"_d{i}" for i, k in enumerate(names)}
    new_vars = [f"    {var[k]} = None" for k in names if k not in held]
    out: list[str] = []
    flush = [(var[k], repr(k)) for k in names]
    for x in lines:
        m = _WRITE.match(x)
        if m is not None and m.group(2)[1:-1] in var:
            k = m.group(2)[1:-1]
            value = x[m.end() :]
            keep = not _value_never_none(m.group(1), value)
            out.append(
                f"{m.group(1)}{'env[' + m.group(2) + '] = ' if keep else ''}{var[k]} = {value}"
            )
            continue
        for k in names:
            x = x.replace(f"env.get({k!r})", var[k])
        esc = _ESCAPE_IF.match(x)
        if esc is not None:
            pad = esc.group(1) + "    "
            out.append(esc.group(1) + esc.group(2))
            out += [f"{pad}if {v} is not None: env[{k}] = {v}" for v, k in flush]
            out.append(pad + esc.group(3))
        elif any(e in x for e in _ESCAPES):
            pad = x[: len(x) - len(x.lstrip())]
            out += [f"{pad}if {v} is not None: env[{k}] = {v}" for v, k in flush]
            out.append(x)
        else:
            out.append(x)
    return "\n".join([top, *new_vars]) + sep + "\n".join(out)


_HEAD_LOAD = re.compile(r"(?m)^    (_l\d+) = env\.get\('([^'\\]*)'\)$")


def _value_never_none(pad: str, value: str) -> bool:
    try:
        tree = ast.parse(value.strip())
    except SyntaxError:
        return False
    stmt = tree.body[0] if len(tree.body) == 1 else None
    return isinstance(stmt, ast.Expr) and _never_none(stmt.value)


def _env_uses(lines: list[str]) -> tuple[dict[str, bool], set[str]]:
    """The names a function writes to its env (`env['k'] = ...` starting a line), each with
    whether some write's value is never none; and the names it uses there otherwise (read
    by subscript, removed, ...), which keep their env."""
    writes: dict[str, bool] = {}
    others: set[str] = set()
    for x in lines:
        m = _WRITE.match(x)
        rest = x
        if m is not None:
            k = m.group(2)[1:-1]
            writes[k] = writes.get(k, False) or _value_never_none(m.group(1), x[m.end() :])
            rest = x[m.end() :]
        for u in re.finditer(r"\benv(\.get\(|\[|\.\w+\()('[^'\\]*')?", rest):
            if u.group(1) != ".get(" and u.group(2) is not None:
                others.add(u.group(2)[1:-1])
    return writes, others
