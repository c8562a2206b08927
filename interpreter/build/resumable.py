"""Blocks compiled into resumable generated functions.

A block of statements (a verb's body, an action's, a trigger's, a phase's) becomes one Python
function `fn(st, fr, pc)` whose body is a dispatch loop over numbered sections, as C# compiles
an async method into a class that resumes where it awaited. Statements that never wait
(assignments, moves, modifiers, calls of verbs that never wait) are plain Python inside a
section; branches and loops around
statements that may wait are flattened into jumps between sections, their loop state kept in
the frame's names (`env`); a statement that may wait (a choice, a window, a call of a verb that
waits or that triggers listen to, a scope) is *delegated*: its run-time object runs as the run
loop would run it, and when it asked a decision or pushed a frame, the function returns.

Every block with statements is compiled so, even one whose only statement is delegated: the
run loop (engine.run) steps only into sections. The game's position stays data: the frame's
`pc` is the section to resume at, and the block holds one entry (`Section`) per section, so
clone, save, load and determinism hold as for any frame. With state checks, every statement
that changes the state ends a section, and the checks that are due (depends.py) run after it
as the run loop would run them.
"""

from __future__ import annotations

import re
from itertools import count
from types import SimpleNamespace

from ..language import nodes as n
from ..runtime import engine as E
from ..runtime.errors import RulesError
from . import stmtgen
from .codegen import define, mark, note_rules_place, py_name, unquoted
from .stmtgen import PLAIN_STMTS, frameless_env

PAD = " " * 12  # inside `def`, `while True:` and `if pc == K:`
RELOAD = "@RELOAD@"  # where the local names' variables are loaded from the env again

_LEAVES = PLAIN_STMTS  # single statements that stmtgen.StmtGen writes as Python
_LOOPS = (n.For, n.Repeat, n.While)
# A `require`/`return` of a block run in its own FUNC frame leaves it inline (_Emitter.leave);
# off: delegated to its object as any statement (tests compare the two)
LEAVE_INLINE = True
# A call of a verb that may wait runs its block's frameless copy (`quick_variant`), which
# makes the verb's frame only where it waits or needs one; off: every such call makes its
# frame (engine.call_from), as before (tests compare the two)
QUICK_CALLS = True
# An action started by a window's answer runs its block's frameless copy (`action_quick`)
# instead of pushing its frame (engine.start_action); off: its frame is pushed (tests compare)
QUICK_ACTIONS = True
# A statement's object that reads only its frame's names (a scope, a window) does not keep a
# verb's block from its frameless copy: the copy runs it with the call's names; off: the
# section holding it is run in the verb's frame (`quick_hand_over`)
ENV_ONLY_COPIES = True
# A window of one named player, without state checks, probed in the section that reaches it
# (`_Emitter.probe`); off: every such window runs its `exec`
WINDOW_PROBES = True
# In rules without state checks or triggers, a frameless copy's end returns at once: no frame can
# be above it there (`quick_variant`'s `alone`); off: it tests for one, as with them
ALONE_ENDS = True
# A call of a verb or event that triggers listen to computes its arguments in the block and
# starts its object with them (`_Emitter.heard`); off: its object's `exec` computes them
HEARD_INLINE = True


class Section(E.Stmt):
    """One section of a resumable block: the run loop steps here to start or resume it,
    calling `fn(st, fr, label)` itself (engine.run; `exec` is that call for a caller that
    runs statement objects alike, with the error located as the run loop locates it)."""

    __slots__ = ("fn", "label")

    def __init__(self, span, fn, label: int):
        super().__init__(span)
        self.fn, self.label = fn, label
        self.dirty = 0  # the generated function marks the checks itself

    def exec(self, st, fr):
        try:
            self.fn(st, fr, self.label)
        except RulesError:
            raise  # located already
        except Exception as exc:  # a Python error inside generated code: where in the rules
            note_rules_place(exc)
            raise


class ResumableGen:
    """Compiles blocks into resumable functions for one compiler (stmtgen.StmtGen emits the
    plain parts)."""

    def __init__(self, compiler, stmtgen):
        self.c = compiler
        self.sg = stmtgen
        self.cg = stmtgen.cg
        self.checks = bool(compiler.s.checks)
        # no state check and no trigger: nothing but a statement that waits puts a frame on
        # the stack, so a frameless copy that reached its end has nothing above it (`quick_variant`)
        self.alone = (
            ALONE_ENDS
            and not self.checks
            and not any(isinstance(ab.decl, n.Trigger) for ab in compiler.s.abilities)
        )
        # Loop state is kept in the frame's names under keys numbered per program (saved with
        # the game, so the same rules must give the same keys in every process)
        self.loop_ids = count()
        self.ids = count()  # the numbers of the blocks' functions, per compilation
        ns = self.cg.ns
        ns["_run_checks"] = E.run_checks
        ns["_call_from"] = E.call_from
        ns["_leave_func"] = E.leave_func
        ns["_quick_sink"] = E.quick_sink
        ns["_quick_hand_over"] = E.quick_hand_over
        ns["_ENTER_DEPTH"] = E.ENTER_DEPTH
        ns["_Frame"], ns["_FUNC"], ns["_new"] = E.Frame, E.FUNC, object.__new__
        ns["_NO_CACHE"] = E.NO_CACHE  # (`_Emitter.probe`: an enumerator given no cache)
        ns["_Env"] = SimpleNamespace  # what an `ENV_ONLY` statement reads of a frame, made in C
        compiler.p.note_error = note_rules_place
        self.last_quick: tuple | None = None  # the frameless copy of the last block (`block`)
        self._recursive: dict[str, bool] = {}

    # ------------------------------------------------------------ frameless calls
    def recursive(self, verb: str) -> bool:
        """Whether a verb's block may call the verb again (through others): such a call keeps
        its frame (`call_from`), whose depth the run loop and the budget bound."""
        known = self._recursive.get(verb)
        if known is None:
            verbs = self.cg.s.verbs
            seen, pending = set(), [verb]
            known = False
            while pending and not known:
                body = verbs[pending.pop()].decl.body
                for x in body.walk() if body is not None else ():
                    if isinstance(x, n.CallStmt):
                        name = verbs[x.verb].name
                        known = known or name == verb
                        if name not in seen:
                            seen.add(name)
                            pending.append(name)
            self._recursive[verb] = known
        return known

    def quick_holder(self, verb: str) -> str:
        """The constant holding (`[fn]`) the function a call of `verb` runs: its block's
        frameless copy, or `call_from` where it has none (filled by `define_quick`)."""
        holder = self.c.p.verbs[verb].quick  # (the program's: a snippet's calls find it)
        return self.cg.const(holder, f"{py_name(verb) or 'verb'}_q")

    def define_quick(self, vrt, block: int) -> None:
        """After a verb's block was compiled (`block`, numbered `block`): its frameless copy
        defined into its holder, or `call_from` in its place."""
        holder = vrt.quick
        made = self.last_quick
        self.last_quick = None
        blk = self.c.p.blocks[block]
        if made is None or not QUICK_CALLS or self.recursive(vrt.name) or not blk:
            # `call_from` written for this block: its frame made at once
            name = blk[0].fn.__name__ if blk else None
            qname = f"{name or '_empty'}_f"
            code = _FRAMED_CALL.format(
                name=qname, verb=self.cg.const(vrt), block=block, fn=name, count=len(blk)
            )
            if not blk:  # (never called: an empty block makes no call)
                code = code.replace(f"    {name}(st, callee, 0)\n", "")
            holder[:] = [define(self.cg.ns, qname, code, f"<madang {qname}>")]
            return
        holder[:] = [self._quick_fn(made, block, vrt)]

    def _quick_fn(self, made: tuple, block: int, owner):
        """The frameless copy `made` (`_Emitter.quick`) of block `block` defined, for the
        calls of `owner` (a verb or an action: `param_names`, and `body` for `call_from`)."""
        code, qname, span = made
        code = code.replace("@BLOCK@", str(block)).replace("@VERB@", self.cg.const(owner))
        # a call's environment holds `you` and the arguments only: the other names start none
        bound = {"you", *owner.param_names}
        code = frameless_env(code, bound)
        top, _, rest = code.partition("\n    pc = 0\n")
        top = _LOAD.sub(lambda m: m.group(0) if m.group(2) in bound else m.group(1) + "None", top)
        code = top + "\n    pc = 0\n" + rest
        made = straightened(code) if STRAIGHT_COPIES else None
        code = dispatched(code) if made is None else made
        if COPY_STORES_DROPPED:
            code = unstored(code)
        return define(self.cg.ns, qname, code, f"<madang {qname} {span}>")

    def action_quick(self, act, block: int, body: n.Block):
        """After an action's block (`body`) was compiled: its frameless copy, which
        `engine.start_action` runs instead of pushing the action's frame (None: the frame is
        pushed). Not for a block with a `require` or `return` (at any depth): leaving the
        action's frame there takes the framed run one more step of the run loop, and the
        copy's end would not."""
        made = self.last_quick
        self.last_quick = None
        leaves = any(isinstance(x, (n.Require, n.Return)) for x in body.walk())
        if made is None or not QUICK_ACTIONS or leaves:
            return None
        return self._quick_fn(made, block, act)

    # ------------------------------------------------------------ classification
    def plain(self, s) -> bool:
        """Emitted as straight Python with no place to stop inside it."""
        if self.checks:
            # every change of state is a place where a check may start: only statements that
            # change nothing are plain (a loop or branch around them is flattened)
            return isinstance(s, _LEAVES) and self.sg.fusable(s) and not self.sg.mutates(s)
        return self.sg.fusable(s)

    def native(self, s) -> bool:
        """Run inside the generated function (plainly, or flattened), not delegated."""
        if self.plain(s):
            return True
        if isinstance(s, _LEAVES):
            return self.sg.fusable(s)  # with checks: a change of state, then its checks
        if isinstance(s, n.If):
            return True
        if isinstance(s, _LOOPS):
            return not _break_escapes(s.body)
        return False

    @staticmethod
    def resumable(b: n.Block) -> bool:
        """Whether `block(b)` (no heads) makes a generated function (else it is empty)."""
        return bool(b.body)

    # ------------------------------------------------------------ compile
    def block(self, b: n.Block, heads: tuple = (), name: str = "", func: bool = False) -> list:
        """The sections of `b` (after `heads`, statement objects that start it) compiled into
        one resumable function; an empty block has none. `func`: the block is always run in
        a frame of its own of kind FUNC (a verb's, an action's or a listener's body), so a
        `require` or `return` at its level leaves that frame alone (`_Emitter.leave`)."""
        self.last_quick = None
        if not heads and not b.body:
            return []
        m = _Emitter(self, func)
        saved = self.cg.locals_start(b.body)
        try:
            m.open(m.sym())
            for rt in heads:
                m.delegate(rt)
            m.seq(b.body, [])
        finally:
            loc = self.cg.locals_end(saved)
        out = m.finish(b.span, loc, name)
        self.last_quick = m.quick
        return out


class _Emitter:
    """The source of one resumable function, with sections numbered in the order they are
    opened (so that a delegated statement's section K is followed by its continuation K + 1,
    where `ask` rewinds the frame's pc to K)."""

    def __init__(self, gen: ResumableGen, func: bool = False):
        self.g = gen
        self.func = func
        self.pinned: list[int] = []  # sections kept in the numbering as a delegated one's
        self.lines: list[str] = []
        self.nsym = 0
        self.num: dict[int, int] = {}
        self.count = 0  # sections opened
        self.closed = True  # no section open yet
        self.empty = False  # the open section has no code yet
        self.delegated: list = []
        self.delegated_at: list[tuple[int, int]] = []  # each one's section and its continuation
        self.reloads: list[set[str] | None] = []  # per delegated statement: the names it writes
        self.quick: tuple | None = None  # (code, name, span) of the frameless copy (finish)
        self.env_only: set[str] = set()  # the calls of `ENV_ONLY` objects (`quick_variant`)
        # a flattened loop's head section whose rounds run in Python: its made lines
        self.made: dict[int, list[str]] = {}

    def sym(self) -> int:
        self.nsym += 1
        return self.nsym

    @staticmethod
    def ref(s: int) -> str:
        return f"@{s}@"

    def line(self, text: str) -> None:
        self.lines.append(PAD + text)
        self.empty = False

    def open(self, s: int) -> None:
        if self.empty and not self.closed:  # nothing since the last one: the same section
            self.num[s] = self.count - 1
            return
        if not self.closed:
            self.line(f"pc = {self.ref(s)}")  # fall through into the next section
        self.num[s] = self.count
        self.lines.append(f"        if pc == {self.count}:")
        self.count += 1
        self.closed = False
        self.empty = True

    def jump(self, s: int) -> None:
        self.line(f"pc = {self.ref(s)}")
        self.line("continue")
        self.closed = True

    # ------------------------------------------------------------ statements
    def seq(self, stmts, loops: list) -> None:
        for s in stmts:
            if self.closed:  # after a jump: what follows can only be reached through a section
                self.open(self.sym())
            self.stmt(s, loops)

    def stmt(self, s, loops: list) -> None:
        g = self.g
        if isinstance(s, n.Break) and loops:
            self.jump(loops[-1])  # the innermost flattened loop's exit
            return
        if g.plain(s):
            g.sg.emit(s, self.lines, 3)
            self.empty = False
            return
        if not g.native(s):
            if isinstance(s, n.CallStmt) and g.sg.verb_unheard(s):
                self.call(s)
            elif isinstance(s, (n.CallStmt, n.Emit)) and HEARD_INLINE:
                self.heard(s)
            elif self.func and isinstance(s, (n.Require, n.Return)) and LEAVE_INLINE:
                self.leave(s)
            else:
                self.delegate(g.c.checked_stmt(s), s)
            return
        match s:
            case n.If():
                self.branch(s, loops)
            case n.For() | n.Repeat() | n.While():
                self.loop(s, loops)
            case n.Break():  # pragma: no cover - a break is never native outside a loop
                raise AssertionError("break outside a flattened loop")
            case _:
                self.change(s)

    def change(self, s) -> None:
        """A statement that changes the state, then the checks that are due (engine.run)."""
        g = self.g
        g.sg.emit(s, self.lines, 3)
        self.empty = False
        mask = g.c.dirty_mask(s)
        if mask:
            self.line(f"st.dirty |= {mask}")
        after = self.sym()
        self.line("if st.dirty and not st.checking and not st.over:")
        self.line("    _run_checks(st)")
        self.line("    if st.frames[-1] is not fr:")
        self.line(f"        fr.pc = {self.ref(after)}")
        self.line("        return")
        self.open(after)

    def call(self, s: n.CallStmt) -> None:
        """A call of a verb that may wait and that nobody listens to: its arguments computed
        here and its block started (engine.call_from), as Call.exec would."""
        g = self.g
        at, after = self.sym(), self.sym()
        self.open(at)
        start = len(self.lines)
        verb = g.cg.s.verbs[s.verb].name
        args = g.sg.args_name(verb)
        vr = g.sg.call_env(s, verb, args, self.lines, PAD)
        mark(self.lines, start, s.span)
        self.line(f"fr.pc = {self.ref(after)}")
        if g.resumable(g.cg.s.verbs[s.verb].decl.body):  # (an empty body: nothing to run)
            # its block's function called at once (engine.call_from): a frame, but no trip
            # through the run loop; or its frameless copy, which makes the frame only where
            # the block waits (`quick_variant`)
            if QUICK_CALLS and not g.recursive(verb):
                self.line(f"if {g.quick_holder(verb)}[0](st, {args}, {str(s.span)!r}):")
            else:
                self.line(f"if _call_from(st, fr, {vr}, {args}, {str(s.span)!r}):")
            self.line("    return")
        self.closed = False
        self.open(after)

    def heard(self, s: n.CallStmt | n.Emit) -> None:
        """A call of a verb or an event that triggers listen to: its arguments computed here,
        as for a call nobody listens to (no function per argument, no `exec`), and its object
        started with them (engine.Call.bound). Otherwise as `delegate` writes it: the same
        sections, marks and test after it, so frames, saves and steps are unchanged."""
        g = self.g
        sym = g.cg.s.verbs[s.verb] if isinstance(s, n.CallStmt) else g.cg.s.events[s.event]
        rt = g.c.checked_stmt(s)
        after = self.start_object(rt)
        start = len(self.lines)
        args = g.sg.args_name(sym.name)
        g.sg.call_env(s, sym.name, args, self.lines, PAD)
        mark(self.lines, start, s.span)
        self.line(f"fr.pc = {self.ref(after)}")
        self.line(f"{g.cg.const(rt, 'Call')}.bound(st, {args})")
        self.end_object(rt, after, set())

    def start_object(self, rt) -> int:
        """The section of a statement's object and the symbol of its continuation."""
        self.delegated.append(rt)
        at, after = self.sym(), self.sym()
        self.open(at)
        self.delegated_at.append((at, after))
        return after

    def delegate(self, rt, stmt=None) -> None:
        """Run a statement's object as the run loop does; stop when it waits or left."""
        after = self.start_object(rt)
        self.line(f"fr.pc = {self.ref(after)}")
        call = f"{self.g.cg.const(rt, type(rt).__name__)}.exec(st, fr)"
        if rt.ENV_ONLY and ENV_ONLY_COPIES:
            self.env_only.add(call)
        # Without checks, an `exec` that returns true went on in place (nothing asked, pushed
        # or ended: `Stmt.exec`), and the test after it is skipped; one that returns None is
        # tested as before (the jump on its result replaces the result's pop: no more work).
        went_on = not self.g.checks
        probed = went_on and WINDOW_PROBES and isinstance(rt, E.Window) and rt.by_name is not None
        if probed:
            self.probe(rt, after)
        self.line(f"{'el' if probed else ''}if not {call}:" if went_on else call)
        mark(self.lines, len(self.lines) - 1, getattr(rt, "span", None))
        # it may have written names (a choice, a scope's block): their variables loaded again
        self.end_object(rt, after, None if stmt is None else _written(stmt), went_on)

    def probe(self, rt, after: int) -> None:
        """A window of one named player in rules without state checks, written into the
        section that reaches it: its options found here as `Window.exec` finds them (its one
        action's enumerator, `Window.one`, or its `listing`: both planned after the blocks are
        written, read when it runs), nothing more where it offers nothing (`exec` returns true
        then: the same game without its call), else its question asked by `Window.offer`. Any
        other case (players listed, an answer waiting, auto_single off, the player out) runs
        `exec`, written after this by `delegate` as its `elif`."""
        w = self.g.cg.const(rt, type(rt).__name__)
        self.line(  # (next to `fr.pc =`, as an object's run is: `_OBJECT_RUN`)
            f"if (_wb := env.get({rt.by_name!r})).__class__ is not list and not st.has_answer"
            " and st.g.auto_single and _wb not in st.lost:"
        )
        self.line(f"    if (_wo := {w}.one) is None:")
        self.line(f"        _wv = {w}.listing(st, _wb)")
        self.line("    else:")
        self.line("        _wo(st, {'you': _wb}, None, _wv := [], _NO_CACHE)")
        self.line(f"    if _wv and not {w}.offer(st, fr, _wb, _wv):")
        self.line(
            f"        if fr.pc != {self.ref(after)} or st.pending is not None or st.over"
            " or not st.frames or st.frames[-1] is not fr:"
        )
        self.line("            return")

    def end_object(self, rt, after: int, written: set[str] | None, under: bool = False) -> None:
        """After a statement's object ran: the checks it made due, and the block stops when it
        waits or left; the names it wrote (`written`; None: any) loaded again. `under`: the
        test is under the `if` of the object's call (`delegate`)."""
        g = self.g
        name = g.cg.const(rt, type(rt).__name__)
        if g.checks:
            self.line(f"st.dirty |= {name}.dirty")
            if rt.mutates:
                self.line("if st.dirty and not st.checking and not st.over: _run_checks(st)")
        pad = "    " if under else ""
        self.line(
            f"{pad}if fr.pc != {self.ref(after)} or st.pending is not None or st.over"
            " or not st.frames or st.frames[-1] is not fr:"
        )
        self.line(f"{pad}    return")
        self.reloads.append(written)
        self.line(f"{RELOAD}{len(self.reloads) - 1}")
        self.closed = False
        self.open(after)

    def leave(self, s: n.Require | n.Return) -> None:
        """A `require` (when its condition fails) or a `return` in a block run in its own
        FUNC frame: that frame is the innermost one whichever flattened branch or loop the
        statement is in, so leaving the block is popping it (`engine.leave_func`), as
        `unwind(st, (FUNC,), inclusive=True)` would, without the statement's object, its
        condition's function and the tests after it. The sections are numbered as the
        delegated statement's were (the same frames' `pc` in saved games); the checks marked
        are the statement's own, as after its `exec`."""
        g = self.g
        rt = g.c.checked_stmt(s)  # numbered as before: the statements' ids are saved
        at, after = self.sym(), self.sym()
        self.open(at)
        self.pinned += [at, after]
        mark_line = f"st.dirty |= {rt.dirty}" if g.checks and rt.dirty else None
        start = len(self.lines)
        pad = ""
        if isinstance(s, n.Require):
            self.line(f"if not ({g.cg.test(s.cond, ())}):")
            pad = "    "
        self.line(f"{pad}_leave_func(st, fr)")
        if mark_line:
            self.line(pad + mark_line)
        self.line(f"{pad}return")
        if mark_line and pad:
            self.line(mark_line)  # passed: marked as after its `exec`
        mark(self.lines, start, s.span)
        self.closed = False
        self.open(after)

    def branch(self, s: n.If, loops: list) -> None:

        end = self.sym()
        targets = [self.sym() for _ in s.branches]
        other = self.sym() if s.orelse is not None else end
        for k, ((cond, _), t) in enumerate(zip(s.branches, targets)):
            self.line(f"{'if' if k == 0 else 'elif'} {self.g.cg.test(cond, ())}:")
            mark(self.lines, len(self.lines) - 1, cond.span if k else s.span)
            self.line(f"    pc = {self.ref(t)}")
        self.line("else:")
        self.line(f"    pc = {self.ref(other)}")
        self.line("continue")
        self.closed = True
        bodies = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
        for t, body in zip(targets + ([other] if s.orelse is not None else []), bodies):
            self.open(t)
            self.seq(body.body, loops)
            if not self.closed:
                self.jump(end)
        self.open(end)

    def loop(self, s, loops: list) -> None:
        x = self._x
        uid = next(self.g.loop_ids)
        key_items, key_i = repr(f"\x00it{uid}"), repr(f"\x00i{uid}")
        head, body, exit_ = self.sym(), self.sym(), self.sym()
        where = repr(f"{s.span}: {type(s).__name__.lower()}")
        if isinstance(s, n.For):
            listed = self.g.cg.loop_items(s.items)
            if listed is None:
                self.line(f"env[{key_items}] = list(_seq(st, {x(s.items)}))")
            else:  # a zone or a list: charged here, no call
                self.line(f"env[{key_items}] = _items = {listed}")
                for line in self.g.cg.charge_lines("_items"):
                    self.line(line)
            self.line(f"env[{key_i}] = 0")
        elif isinstance(s, n.Repeat):
            self.line(f"env[{key_i}] = len(_times(st, {x(s.times)}, {where}))")
        self.open(head)
        if isinstance(s, n.For):
            self.line(f"_i = env[{key_i}]")
            self.line(f"_items = env[{key_items}]")
            self.line("if _i >= len(_items):")
            self.line(f"    pc = {self.ref(exit_)}")
            self.line("    continue")
            self.line(f"env[{key_i}] = _i + 1")
            self.line(f"{self.g.cg.store(s.name)} = _items[_i]")
        elif isinstance(s, n.Repeat):
            self.line(f"if env[{key_i}] <= 0:")
            self.line(f"    pc = {self.ref(exit_)}")
            self.line("    continue")
            self.line(f"env[{key_i}] -= 1")
        else:  # while / until: one step of work per round, as a round of the run loop was
            test = self.g.cg.test(s.cond, ())
            ends = []  # (the same at the end of a round run in Python: `branched`)
            if test != ("False" if s.until else "True"):  # (`until false`: no way out here)
                ends = [f"if {test}:" if s.until else f"if not ({test}):", "    break"]
                self.line(ends[0])
                self.line(f"    pc = {self.ref(exit_)}")
                self.line("    continue")
            self.line(f"_charge(st, 1, {where})")
        straight = isinstance(s, n.For) and self.straight(s.body.body)
        rounds = LOOP_ROUNDS if straight else BRANCHED_ROUNDS
        fast = len(self.lines) if isinstance(s, (n.For, n.While)) and rounds else -1
        self.open(body)
        if isinstance(s, n.For):
            with self.g.cg.loop_holds(s):
                self.seq(s.body.body, loops + [exit_])
        else:
            self.seq(s.body.body, loops + [exit_])
        if not self.closed:
            self.jump(head)
        if fast < 0:
            made = None
        elif straight:
            made = self.rounds(self.lines[fast:], uid, key_i, s.name, exit_)
        elif isinstance(s, n.For):
            i, items = f"_fi{uid}", f"_fit{uid}"
            start = [f"{i} = _i + 1", f"{items} = _items"]
            end = [f"if {i} >= len({items}):", "    break"]
            end += [f"{self.g.cg.store(s.name)} = {items}[{i}]", f"{i} += 1"]
            made = self.branched(self.lines[fast:], start, end, f"env[{key_i}] = {i}", head, exit_)
        else:  # a while's round ends with its test and its step of work, as its head's
            ends = ends + [f"_charge(st, 1, {where})"]
            made = self.branched(self.lines[fast:], [], ends, None, head, exit_)
        if made is not None and self.lines[fast] == PAD + f"pc = {self.ref(body)}":
            self.lines[fast : fast + 1] = made  # (instead of falling into the body's sections,
            self.pinned.append(body)  # which keep their numbers for a save's frames)
            self.made[self.num[head]] = made  # (an outer loop's rounds may hold them: `nested`)
        self.open(exit_)
        if not isinstance(s, n.While):
            self.line(f"env.pop({key_i}, None)")
        if isinstance(s, n.For):
            self.line(f"env.pop({key_items}, None)")

    def straight(self, body: list) -> bool:
        """Whether a flattened loop's body is statements written as straight code, each
        followed at most by its checks, which leave the function when they start a block
        (`change`): no branch, loop, call or statement's object (LOOP_ROUNDS)."""
        g = self.g
        return all(
            not isinstance(x, (n.If, n.Break, *_LOOPS))
            and (g.plain(x) or (isinstance(x, _LEAVES) and g.native(x)))
            for x in body
        )

    def rounds(self, lines: list[str], uid: int, key_i: str, name: str, exit_: int):
        """A straight loop's rounds as a Python loop in its head's section, from the round
        the head has just begun: `lines` are the body's sections (from the head's fall-through
        into the first), kept as they are for a resumption inside the body. Where a check
        starts a block, the next round's place is written to the env as the head writes it,
        and the function leaves at the section after it, as the sections do. None where the
        body's code is not that shape."""
        i, items = f"_fi{uid}", f"_fit{uid}"
        out = [f"{i} = _i + 1", f"{items} = _items", "while True:"]
        if stmtgen.HOLD_TABLES:
            lines, held = _held_tables(lines, uid)
            out[2:2] = held
        for k, x in enumerate(lines):
            if _HEAD_REF.fullmatch(x) or x == PAD + "continue" or _JUMP_REF.fullmatch(x):
                continue  # (the sections' own dispatch)
            code = x.strip()
            if code in ("continue", "break") or code.startswith("pc = "):
                return None
            if code == "return" and not _RESUME_REF.fullmatch(lines[k - 1].strip()):
                return None
            own = "    " + x[len(PAD) :]
            if _RESUME_REF.fullmatch(code):
                out.append(own[: len(own) - len(code)] + f"env[{key_i}] = {i}")
            out.append(own)
        out += [f"    if {i} >= len({items}):", "        break"]
        out.append(f"    {self.g.cg.store(name)} = {items}[{i}]")
        out += [f"    {i} += 1", f"pc = {self.ref(exit_)}", "continue"]
        return [PAD + x for x in out]

    def branched(self, lines, start: list, end: list, spill: str | None, head: int, exit_: int):
        """A flattened `for` or `while` whose body branches, waits or calls, its rounds run as
        a Python loop in its head's section, as `rounds` runs a straight body's: the body's
        sections (`lines`, after the head's fall into the first) written once more as nested
        Python, each branch's arms going on with the sections that follow it (a forward jump
        is the code of its target, written where it is taken), a jump to the head the round's
        end (`end`: the next round's start, as the head's) and one to the loop's exit a
        `break`; `start` before the first round. Where a section stops the function (a
        statement that waits, a check that started a block, the game's end), the round's
        place is written to the env first (`spill`, as the head writes it), and the function
        resumes at the body's own sections (kept as they are) as before. None where the body
        is not that shape: a jump back other than the next round, a loop inside it, or in a
        verb's block a statement's object (its frameless copy would hand over at the head
        instead: `quick_variant`)."""
        secs: dict[int, list[str]] = {}
        order: list[int] = []
        for x in lines[1:]:
            m = _HEAD_REF.fullmatch(x)
            if m is not None:
                order.append(int(x.split("==")[1].strip(" :")))
                secs[order[-1]] = []
            elif not order:
                return None
            else:
                secs[order[-1]].append(x)
        if not order or (self.func and any(_FRAMED.search(x) for x in lines)):
            return None
        parsed = {k: self._flow(k, secs[k]) for k in order}
        if any(v is None for v in parsed.values()):
            return None
        place = {k: i for i, k in enumerate(order)}
        out: list[str] = []
        budget = [4 * len(lines) + 40]

        def go(sym: int, at: int, pad: str) -> bool:
            if sym == head:
                return True  # the round's end: on to the next
            if sym == exit_:
                out.append(pad + "break")
                return True
            k = self.num.get(sym)
            if k is None or place.get(k, -1) <= at:
                return False  # (a jump back, or out of the body)
            return emit(place[k], pad)

        def put(code: list[str], pad: str) -> bool:
            resumes = False
            for x in code:
                own = pad + x[len(PAD) :]
                stripped = x.strip()
                resumes = resumes or _RESUME_REF.fullmatch(stripped) is not None
                bare = stripped.split("  # ")[0]
                if stripped == "return":
                    if not resumes:
                        return False
                    if spill is not None:
                        out.append(own[: len(own) - len(stripped)] + spill)
                elif spill is not None and bare.endswith((": return", "; return")):
                    # (`if st.over: return`: a frame left at the game's end holds the place;
                    # an inner loop's round writes its own place there first)
                    test = own[: len(own) - len(stripped)] + bare
                    own = test.removesuffix(" return") + f" {spill}; return"
                elif _RETURNS.search(bare):
                    return False
                out.append(own)
            return True

        def emit(at: int, pad: str) -> bool:
            flow = parsed[order[at]]
            if len(flow) == 4:
                return nested(at, pad, *flow)
            code, arms = flow
            budget[0] -= len(code) + 2 * len(arms)
            if budget[0] < 0 or not put(code, pad):
                return False
            if len(arms) == 1 and arms[0][0] is None:
                return go(arms[0][1], at, pad)
            for test, sym in arms:
                out.append(pad + test[len(PAD) :])
                start = len(out)
                if not go(sym, at, pad + "    "):
                    return False
                if len(out) == start:
                    out.append(pad + "    pass")
            return True

        def nested(at: int, pad: str, before, guard, body, exit_sym) -> bool:
            # an inner loop's head whose rounds run in Python (`self.made`): its test of
            # the first round, its rounds, and on with the code of its exit
            budget[0] -= len(before) + len(body) + 1
            if budget[0] < 0 or not put(before, pad):
                return False
            inner = pad
            if guard is not None:
                out.append(pad + f"if not ({guard}):")
                inner = pad + "    "
            return put(body, inner) and go(exit_sym, at, pad)

        if not emit(0, "    "):
            return None
        made = [*start, "while True:", *_fresh_rounds(out), *("    " + x for x in end)]
        return [PAD + x for x in made + [f"pc = {self.ref(exit_)}", "continue"]]

    def _flow(self, k: int, code: list[str]):
        """Section `k`'s code split as `_section_flow` splits it, or, for the head of an inner
        loop whose rounds run in Python (`self.made`, NESTED_ROUNDS), its parts for `branched`'s
        `nested`: the code before its test, the test that goes to its exit (or None), the code
        after it with the rounds, and its exit."""
        made = self.made.get(k) if NESTED_ROUNDS else None
        if made is None or len(code) <= len(made) or code[-len(made) :] != made:
            return _section_flow(code)
        return _nested_flow(code[: -len(made)], made)

    def _x(self, e) -> str:
        return self.g.cg.src(e, ())

    # ------------------------------------------------------------ the function
    def finish(self, span, loc, word: str = "") -> list:
        g = self.g
        lines: list[str] = []
        self.lines = loc.settle(self.lines)
        for line in self.lines:  # the names' variables loaded again where a statement ran
            at = line.find(RELOAD)
            if at >= 0:
                names = self.reloads[int(line[at + len(RELOAD) :])]
                lines += loc.loads(line[:at], names)
            else:
                lines.append(line)
        self.lines = lines
        single = self.count == 1
        if not self.closed and not single:
            self.line("fr.pc = @END@")  # the block is done: the run loop ends the frame
        if not self.closed:
            self.line("return")
        word = py_name(word)
        name = f"_{word}_m{next(self.g.ids)}" if word else f"_m{next(self.g.ids)}"
        head = [f"def {name}(st, fr, pc):", "    env = fr.env", *loc.loads("    ")]
        if single:  # straight code: no sections to dispatch on
            body = [line[8:] for line in self.lines[1:]]
        else:
            body = ["    while True:", *self.lines]
            body.append(
                "        raise RulesError(f'no section {pc} here (a save of other rules?)')"
            )
        code = "\n".join(head + body) + "\n"
        code = code.replace("@END@", str(self.count))
        code = re.sub(r"@(\d+)@", lambda m: str(self.num[int(m.group(1))]), code)
        sections = [(self.num[a], self.num[b]) for a, b in self.delegated_at]
        count = self.count
        if not single:
            code = _thread_jumps(code)
            keep = {a for a, _ in sections} | {self.num[k] for k in self.pinned}
            code, new, count = _renumber(code, count, keep)
            sections = [(new[a], new[b]) for a, b in sections]
        made = dispatched(code) if single else fresh_start(code, dispatched(code))
        fn = define(g.cg.ns, name, made, f"<madang {name} {span}>")
        fn.live = count if single else _live_sections(code, count)
        if self.func and QUICK_CALLS:
            quick = quick_variant(code, name, count, single, self.g.alone, self.env_only)
            self.quick = None if quick is None else (quick, name + "_q", span)
        fn.delegated = self.delegated
        # where each delegated statement starts and where its block goes on after it (a
        # scenario may enter the flow at one: build/flowpoints.py)
        fn.sections = sections
        return [Section(span, fn, k) for k in range(count)]


# a call of a verb without a frameless copy: engine.call_from written for its block
_FRAMED_CALL = """\
def {name}(st, env, span):
    frames = st.frames
    if len(frames) >= _ENTER_DEPTH:
        return _call_from(st, frames[-1], {verb}, env, span)
    caller = frames[-1]
    callee = _new(_Frame)  # (`Frame.__init__` written out: no Python call)
    callee.block, callee.pc, callee.env, callee.ctl = {block}, 1, env, -1
    callee.kind, callee.items, callee.i, callee.extra = _FUNC, None, 0, None
    frames.append(callee)
    {fn}(st, callee, 0)
    if callee.pc >= {count} and st.pending is None and frames[-1] is callee:
        frames.pop()
    return st.pending is not None or st.over or not frames or frames[-1] is not caller
"""
_HAND_OVER = """\
frames = st.frames
caller = frames[-1]
callee = _new(_Frame)
callee.block, callee.pc, callee.env, callee.ctl = @BLOCK@, fpc, env, -1
callee.kind, callee.items, callee.i, callee.extra = _FUNC, None, 0, None
frames.append(callee)
{fn}(st, callee, {k})
if callee.pc >= {count} and st.pending is None and frames[-1] is callee:
    frames.pop()
return st.pending is not None or st.over or not frames or frames[-1] is not caller"""
_LOAD = re.compile(r"(?m)^(    _l\d+ = )env\.get\('([^'\\]*)'\)$")  # a function's first loads
_FRAMED = re.compile(
    r"\.exec\(st, fr\)|\.offer\(st, fr,|_call_from\(st, fr,"
)  # needs the frame pushed
# the test after a statement's object (`_Emitter.end_object`), in a section that needs no frame
_OBJECT_TEST = re.compile(
    r"if fr\.pc != \d+ or st\.pending is not None or st\.over or not st\.frames"
    r" or st\.frames\[-1\] is not fr:"
)
_FR = re.compile(r"\bfr\b")
_GOES = re.compile(r" +pc = (\d+)")  # a jump, or the fall into the next section


def quick_variant(
    code: str, name: str, count: int, single: bool, alone: bool = False, env_only=frozenset()
) -> str | None:
    """The frameless copy of a verb's block function `name` (its `count` sections in `code`):
    `name_q(st, env, span)`, run by the verb's calls in place of `engine.call_from` (true when
    the caller must return, as there). It runs the same sections with the frame's `pc` in a
    variable (`fpc`); the frame `call_from` would have pushed at depth `n0` is made only where
    it is still there when the block returns (a decision, a check's frames or a call that waits
    above it: `engine.quick_sink` puts it under them), and a section that needs it pushed (a
    statement's object, a call through `call_from`) is run by the block's own function in it
    (`engine.quick_hand_over`). Nothing else differs: the same states, frames and steps. None
    when some line uses the frame otherwise (that block's calls keep their frame). `alone`:
    the rules have no state check and no trigger, so only a statement that waits pushes a frame,
    and every one of those is followed by a return (a call's copy returns true, a section that
    needs the frame is run in it): at the block's end nothing is above it and nothing pending,
    and the end returns without testing that. `env_only`: the calls of statements' objects
    that read only the frame's names (`Stmt.ENV_ONLY`), run in the copy with the call's names
    (`_Env(env=env)`): one that waits leaves the block there, and its frame is made under the
    object's (`_quick_sink`), as a call that waits has it.
    `@BLOCK@` and `@VERB@` stand for the block's number and the verb's constant."""
    lines = code.split("\n")
    if lines[0] != f"def {name}(st, fr, pc):" or lines[1] != "    env = fr.env":
        return None  # (not a block function as `finish` writes it)
    k = 2
    while k < len(lines) and lines[k].startswith("    _l") and " = env.get(" in lines[k]:
        k += 1
    sink = f"return _quick_sink(st, @BLOCK@, env, n0, fpc, {count})"
    head = [
        f"def {name}_q(st, env, span):",
        "    n0 = len(st.frames)",
        "    if n0 >= _ENTER_DEPTH:  # deeper, as call_from does",
        "        return _call_from(st, st.frames[-1], @VERB@, env, span)",
        "    fpc = 1",
        *lines[2:k],
        "    pc = 0",
    ]
    out: list[str] = []
    section = -1
    body: list[str] = []
    framed: set[int] = set()  # the sections run in the frame (`quick_hand_over`)
    ends: set[int] = set()  # the sections where the block may end or leave
    goes: dict[int, set[int]] = {}  # the sections each one jumps or falls through to

    def flush() -> bool:
        for i, x in enumerate(body):  # (its names are what such an object reads of the frame)
            for call in env_only:
                if call in x:
                    body[i] = x = x.replace(call, call.replace("(st, fr)", "(st, _Env(env=env))"))
                offer = call.replace(".exec(st, fr)", ".offer(st, fr,")
                if offer in x:
                    body[i] = x = x.replace(offer, offer.replace("(st, fr,", "(st, _Env(env=env),"))
        if section >= 0:
            goes[section] = {int(m.group(1)) for x in body if (m := _GOES.fullmatch(x))}
            if any(f"fr.pc = {count}" in x or "_leave_func(" in x for x in body):
                ends.add(section)
        if section >= 0 and any(_FRAMED.search(x) for x in body):
            framed.add(section)
            # engine.quick_hand_over written out: the frame pushed, the section run in it
            out.extend(
                " " * 12 + x for x in _HAND_OVER.format(k=section, fn=name, count=count).split("\n")
            )
            return True
        for x in body:
            stripped = x.lstrip()
            pad = x[: len(x) - len(stripped)]
            if stripped.startswith("fr.pc = "):
                out.append(f"{pad}fpc = {stripped[8:]}")
            elif stripped == "return" and (single or out[-1].strip() == f"fpc = {count}"):
                # the block's end (a block of one section is at its end wherever it returns):
                # nothing above it (the usual case) leaves no frame
                if alone:
                    out.append(f"{pad}return st.over")
                    continue
                out.append(f"{pad}if len(st.frames) == n0 and st.pending is None:")
                out.append(f"{pad}    return st.over")
                out.append(pad + sink)
            elif stripped == "return" or stripped.endswith(": return"):  # (`if st.over: return`)
                out.append(pad + stripped.removesuffix("return") + sink)
            elif stripped == "if st.frames[-1] is not fr:":
                out.append(f"{pad}if len(st.frames) != n0:")
            elif _OBJECT_TEST.fullmatch(stripped):  # (a listened call's: its frame is unchanged)
                out.append(f"{pad}if st.pending is not None or st.over or len(st.frames) != n0:")
            elif stripped.split("  # ")[0] == "_leave_func(st, fr)":  # (marked with its place)
                if section < 0:
                    return False
                # (nothing above the block: popping it is the block's end)
                out.append(
                    f"{pad}if len(st.frames) != n0: return _quick_hand_over(st, @BLOCK@,"
                    f" env, n0, fpc, {section}, {name}, {count})"
                )
                out.append(f"{pad}fpc = {count}")
            elif _FR.search(unquoted(x.split("  # ")[0] if "  # " in x else x)):
                return False
            else:
                out.append(x)
        return True

    for x in lines[k:]:
        head_m = _HEAD.fullmatch(x)
        if head_m is not None or x.startswith("        raise RulesError("):
            if not flush():
                return None
            body = []
            out.append(x)
            section = int(head_m.group(1)) if head_m is not None else -1
            continue
        if section < 0 and not single:
            out.append(x)  # `while True:`
            continue
        body.append(x)
    if not flush():
        return None
    if not single and not _frameless_end(goes, framed, ends):
        return None  # every way through the block needs its frame: no copy (`call_from`)
    return "\n".join(head + out) + "\n"


# A frameless copy written without the stores nothing reads (`unstored`); off: with them
COPY_STORES_DROPPED = True
_FPC_STORE = re.compile(r"( *)fpc = \d+")
_PC_WORD = re.compile(r"(?<![.\w])pc\b")
_DEPTH_TEST = "    if n0 >= _ENTER_DEPTH:  # deeper, as call_from does"


def unstored(code: str) -> str:
    """A frameless copy (as `_quick_fn` makes it) without the stores nothing reads: a section
    number (`fpc`) stored again or returned past on the next line, or read nowhere (by no
    sink or hand-over); `pc = 0` where no dispatch reads `pc`; the depth `n0` kept in a name
    where only the depth test reads it. The same code otherwise (a line's next line at its
    own indentation is the statement run next)."""
    lines = code.split("\n")
    out: list[str] = []
    for k, x in enumerate(lines):
        m = _FPC_STORE.fullmatch(x)
        nxt = lines[k + 1] if k + 1 < len(lines) else ""
        then = nxt[len(m.group(1)) :] if m is not None and nxt.startswith(m.group(1)) else ""
        if then == "return st.over" or then.startswith("fpc = "):
            continue  # (stored again, or the copy returns without reading it)
        out.append(x)
    if not any("fpc" in x and not _FPC_STORE.fullmatch(x) for x in out):
        out = [x for x in out if not _FPC_STORE.fullmatch(x)]
    if "    pc = 0" in out and sum(1 for x in out if _PC_WORD.search(x)) == 1:
        out.remove("    pc = 0")
    if out[1:3] == ["    n0 = len(st.frames)", _DEPTH_TEST]:
        if not any("n0" in x for x in out[3:]):
            out[1:3] = ["    if len(st.frames) >= _ENTER_DEPTH:  # deeper, as call_from does"]
    return "\n".join(out)


# A frameless copy whose jumps all go forward is written without its sections' dispatch
# (`straightened`); off: its sections are dispatched as the block's own function's are
STRAIGHT_COPIES = True
_MID_JUMP = re.compile(r" {16}pc = (\d+)")
_ANY_JUMP = re.compile(r"\s*pc = \d+")


def straightened(code: str) -> str | None:
    """A frameless copy (`quick_variant`'s code) without its sections' dispatch: a copy is
    always started at its first section and never resumed (a frame it makes resumes in the
    block's own function), so each section is written followed by the code of the section it
    goes to, and a branch's arms (or a test that leaves the section) each go on with their
    own, a section reached from several places written in each. None where a jump goes back
    (a loop not run in Python: its rounds go through the sections), where a section is not
    that shape, or where the code would grow past three times its size."""
    lines = code.split("\n")
    if "    pc = 0" not in lines:
        return None
    start = lines.index("    pc = 0")
    if start + 1 >= len(lines) or lines[start + 1] != "    while True:":
        return None  # (one section: no dispatch)
    made = _straight(lines, start)
    if made is None:
        return None
    end = next(k for k in range(start, len(lines)) if lines[k].startswith("        raise "))
    return "\n".join(lines[:start] + _fresh_rounds(made) + lines[end + 1 :])


# A block's function started at its first section runs it without the sections' dispatch,
# as a frameless copy does (`fresh_start`); off: every entry goes through the dispatch
FRESH_STARTS = True


def fresh_start(code: str, dispatch: str) -> str:
    """A block's own function (`code`, as `finish` writes it; `dispatch`, the same with
    `dispatched`'s groups) with an entry at its first section written as `straightened` writes
    a copy, before the dispatch: a block starts there each time it runs anew (a scope's
    body, a verb's call, the run loop's first step of a pushed block) and resumed elsewhere
    only after it waited. `dispatch` as it is where its jumps do not all go forward."""
    lines = code.split("\n")
    if not FRESH_STARTS or "    while True:" not in lines:
        return dispatch
    start = lines.index("    while True:") - 1  # (`_straight` reads the sections after it)
    made = _straight(lines, start)
    if made is None:
        return dispatch
    out = dispatch.split("\n")
    at = out.index("    while True:")
    fresh = ["    if pc == 0:", *("    " + x if x.strip() else x for x in _fresh_rounds(made))]
    return "\n".join(out[:at] + fresh + out[at:])


def _straight(lines: list[str], start: int) -> list[str] | None:
    """The sections after `lines[start]` (the `while True:` of their dispatch after it) from
    the first one as nested code without the dispatch (`straightened`), at the function's
    indentation; None where a jump goes back or a section is not that shape."""
    heads = [k for k in range(start, len(lines)) if _HEAD.fullmatch(lines[k])]
    if not heads or int(_HEAD.fullmatch(lines[heads[0]]).group(1)) != 0:
        return None
    end = next(k for k in range(heads[-1], len(lines)) if lines[k].startswith("        raise "))
    secs = {
        int(_HEAD.fullmatch(lines[a]).group(1)): lines[a + 1 : b]
        for a, b in zip(heads, heads[1:] + [end])
    }
    out: list[str] = []
    budget = [3 * (end - start) + 40]

    def go(target: int, k: int, pad: str) -> bool:
        return target > k and target in secs and run(secs[target], target, pad)

    def run(ls: list[str], k: int, pad: str) -> bool:
        budget[0] -= len(ls)
        if budget[0] < 0:
            return False
        for i, x in enumerate(ls):
            if x.startswith(PAD + "if ") and i + 1 < len(ls) and _MID_JUMP.fullmatch(ls[i + 1]):
                arms, j = [(x, int(_MID_JUMP.fullmatch(ls[i + 1]).group(1)))], i + 2
                if j < len(ls) and ls[j] == PAD + "    continue":  # a test that leaves early
                    out.append(pad + x[len(PAD) :])
                    if not go(arms[0][1], k, pad + "    "):
                        return False
                    out.append(pad + "else:")
                    return run(ls[j + 1 :], k, pad + "    ")
                while j + 1 < len(ls) and _ARM.fullmatch(ls[j]) and ls[j].strip()[:4] != "if ":
                    m = _MID_JUMP.fullmatch(ls[j + 1])
                    if m is None:
                        return False
                    arms.append((ls[j], int(m.group(1))))
                    j += 2
                if arms[-1][0] != PAD + "else:" or ls[j:] not in ([], [PAD + "continue"]):
                    return False
                for test, target in arms:  # (the section's branch: each arm goes on)
                    out.append(pad + test[len(PAD) :])
                    if not go(target, k, pad + "    "):
                        return False
                return True
            m = _PLAIN_JUMP_N.fullmatch(x)
            if m is not None:
                return ls[i + 1 :] in ([], [PAD + "continue"]) and go(int(m.group(1)), k, pad)
            if _ANY_JUMP.fullmatch(x.split("  # ")[0]) or x == PAD + "continue":
                return False
            out.append(pad + x[len(PAD) :] if x.strip() else x)
        return bool(ls) and ls[-1].startswith(PAD + "return")

    if not run(secs[0], 0, "    "):
        return None
    return out


_PLAIN_JUMP_N = re.compile(r" {12}pc = (\d+)")


def _frameless_end(goes: dict[int, set[int]], framed: set[int], ends: set[int]) -> bool:
    """Whether some way from the first section reaches the block's end (or a leaving)
    through sections that do not need the frame."""
    seen, ways = {0}, [0]
    while ways:
        k = ways.pop()
        if k in framed:
            continue
        if k in ends:
            return True
        for t in goes.get(k, ()):
            if t not in seen:
                seen.add(t)
                ways.append(t)
    return False


def _written(s) -> set[str]:
    """The local names a statement may write (its own, and those of the blocks inside it that
    share its frame's names): every name a statement inside it binds."""
    out = set()
    for x in s.walk():
        if isinstance(x, n.Stmt) and isinstance(getattr(x, "name", None), str):
            out.add(x.name)
        elif isinstance(x, n.Assign) and isinstance(x.target, n.Name):
            out.add(x.target.name)
    return out


def _break_escapes(body: n.Block) -> bool:
    """Whether a `break` of this loop sits inside a statement that keeps its own frame (a
    scope, a hold): then the loop keeps its frame too, for the break to find."""
    finder = _EscapingBreak()
    finder.visit(body)
    return finder.found


class _EscapingBreak(n.NodeVisitor):
    """Looks for a `break` of the loop whose body it visits, inside the block of a statement
    other than `if` (whose blocks share the loop's frame); a nested loop's breaks are its own."""

    def __init__(self):
        self.depth = 0  # statements with blocks of their own around the node visited
        self.found = False

    def visit_Break(self, node: n.Break) -> None:
        self.found = self.found or self.depth > 0

    def visit_For(self, node) -> None:
        pass  # its own breaks

    visit_Repeat = visit_While = visit_For

    def generic_visit(self, node) -> None:
        own = isinstance(node, n.Stmt) and not isinstance(node, n.If)
        self.depth += own
        super().generic_visit(node)
        self.depth -= own


DISPATCH_GROUPS = True  # sections found through their group's range (`dispatched`); off: in turn


def dispatched(code: str) -> str:
    """A function of many sections with its sections grouped: `if pc < K:` around each run of
    about the square root of their number, so that a jump back (a loop's next round) tests a
    few ranges and the sections of one group, not every section before its target in turn
    (Python has no jump table). Falling into the next section goes on into the next group.
    The code the other steps read (`quick_variant`, `fn.sections`) is the ungrouped one; its
    forward jumps fall through first (`fall_through`)."""
    lines = fall_through(code).split("\n")
    heads = [k for k, x in enumerate(lines) if _HEAD.fullmatch(x)]
    size = max(4, round(len(heads) ** 0.5))
    if not DISPATCH_GROUPS or len(heads) <= 2 * size:
        return "\n".join(lines)  # (a small function's forward jumps fall through too)
    end = next(k for k in range(heads[-1], len(lines)) if lines[k].startswith("        raise "))
    out = lines[: heads[0]]
    for i in range(0, len(heads), size):
        if i + size >= len(heads):  # the last group: nothing after it to skip
            out += lines[heads[i] : end]
            break
        out.append(f"        if pc < {_HEAD.fullmatch(lines[heads[i + size]]).group(1)}:")
        out += ["    " + x if x else x for x in lines[heads[i] : heads[i + size]]]
    return "\n".join(out + lines[end:])


# a flattened `for` whose body is straight code with checks runs its rounds as a Python loop
# in its head's section (`_Emitter.rounds`); off: each round through the sections
LOOP_ROUNDS = True
# The writes of laid-out properties in a straight loop's rounds: the property's table and
# row found before the first round (`_held_tables`, as stmtgen.HOLD_TABLES does for plain loops)
_TABLE_GET = re.compile(r"(\s*)(_t\d+) = st\.props\.get\(('[^']*')\)(\s*#.*)?")
_TABLE_MADE = re.compile(r"(\s*)if (_t\d+) is None: \2 = st\.props\[('[^']*')\] = \{\}")
_ROW_GET = re.compile(
    r"(\s*)(_t\d+) = st\.pv\[(\d+)\] if st\.pvo & \d+ else st\.own\(\3\)(\s*#.*)?"
)


def _held_tables(lines: list[str], uid: int) -> tuple[list[str], list[str]]:
    """A straight loop's body (`_Emitter.rounds`) with its writes' tables and rows read from
    variables found before the first round: a write makes what is none (the state's table
    of the property by `setdefault`, since a check that ran in an earlier round may have
    made it; the row by `State.own`) instead of finding both again. Nothing between two
    rounds replaces a table or a row this state owns (only a clone shares rows, and none is
    made while rules run). The lines before the rounds that find them."""
    names: dict[str, str] = {}  # a write's variable → the held one
    held: dict[str, str] = {}  # a table's property or a row's slot → its variable
    pre: list[str] = []
    out: list = []
    for x in lines:
        m = _TABLE_GET.fullmatch(x)
        if m is not None:
            sp, var, name, mark_ = m.group(1), m.group(2), m.group(3), m.group(4) or ""
            if name not in held:
                held[name] = f"_hd{uid}_{len(held)}"
                pre.append(f"{held[name]} = st.props.get({name})")
            names[var] = held[name]
            if out and isinstance(out[-1], list):  # the row's line before it: `own` copies
                _, rsp, row, slot, rmark = out.pop()  # the table of a clone's: found again
                table = held[name]
                out.append(
                    f"{rsp}if {row} is None: {row} = st.own({slot}); {table} = st.props.get({name}){rmark}"
                )
            out.append((sp, held[name], name, mark_))  # (written with the next line)
            continue
        m = _TABLE_MADE.fullmatch(x)
        if m is not None and isinstance(out[-1], tuple) and names.get(m.group(2)) == out[-1][1]:
            sp, d, name, mark_ = out.pop()
            out.append(f"{sp}if {d} is None: {d} = st.props.setdefault({name}, {{}}){mark_}")
            continue
        m = _ROW_GET.fullmatch(x)
        if m is not None:
            sp, var, slot, mark_ = m.group(1), m.group(2), m.group(3), m.group(4) or ""
            key = "#" + slot
            if key not in held:
                held[key] = f"_hr{uid}_{len(held)}"
                pre.append(f"{held[key]} = st.pv[{slot}] if st.pvo & {1 << int(slot)} else None")
            names[var] = held[key]
            out.append(["row", sp, held[key], slot, mark_])  # (written with the table's line)
            continue
        if out and isinstance(out[-1], (tuple, list)):  # not stmtgen's shape: as it was
            return lines, []
        out.append(x)
    if not names or any(isinstance(x, (tuple, list)) for x in out):
        return lines, []
    temps = re.compile(r"\b(" + "|".join(names) + r")\b")
    return [temps.sub(lambda m: names[m.group(1)], x) for x in out], pre


_HEAD_REF = re.compile(r"        if pc == \d+:")
# a flattened `for` whose body branches, waits or calls runs its rounds as a Python loop in its
# head's section (`_Emitter.branched`); off: each round through the sections
BRANCHED_ROUNDS = True
_ARM = re.compile(r" {12}(?:(?:if|elif) .*:(?:  # .*)?|else:)")
_ARM_JUMP = re.compile(r" {16}pc = (@\d+@)")
_PLAIN_JUMP = re.compile(r" {12}pc = (@\d+@)")
_FLOW = re.compile(r"\s*(?:continue|break|while .*|pc = .*)")


# an outer flattened loop's rounds in Python hold an inner one's (`_Emitter._flow`); off: an
# outer loop whose body holds a loop goes through its sections
NESTED_ROUNDS = True
_RETURNS = re.compile(r"\breturn\b")


_ZERO = re.compile(r"( *)env\[('\\x00i\d+')\] = 0")
_LISTED = re.compile(r"( *)env\[('\\x00it\d+')\] = _items = .*")


def _fresh_rounds(lines: list[str]) -> list[str]:
    """An inner loop started in an outer one's rounds (`nested`) reads its first round's
    index and items back from the env just after writing them: `_i = 0`, and `_items` as it
    is (the lines between only charge for it). The index written there is read by none: the
    first round writes the next one, and the exit drops it."""
    res: list[str] = []
    k = 0
    while k < len(lines):
        m = _ZERO.fullmatch(lines[k])
        if m is not None and k + 2 < len(lines):
            pad, key = m.group(1), m.group(2)
            key_items = key.replace("\\x00i", "\\x00it", 1)
            listed = [
                j
                for j in range(max(0, len(res) - 3), len(res))
                if (lm := _LISTED.fullmatch(res[j])) and lm.groups() == (pad, key_items)
            ]
            if (
                listed
                and lines[k + 1] == f"{pad}_i = env[{key}]"
                and lines[k + 2] == f"{pad}_items = env[{key_items}]"
                and not any(x.startswith(pad + "_items =") for x in res[listed[-1] + 1 :])
            ):
                res.append(f"{pad}_i = 0")
                k += 3
                continue
        res.append(lines[k])
        k += 1
    return res


def _nested_flow(head: list[str], made: list[str]):
    """An inner loop's head section (`head`, then its rounds `made`, which end in the jump to
    its exit) as `(before, guard, body, exit)`: the code before the head's test of the first
    round, that test's condition to go on (None without one), the code after it with the
    rounds (without their closing jump), and the exit's symbol. None for any other shape:
    a test that jumps elsewhere than the exit, or other jumps."""
    jump = _PLAIN_JUMP.fullmatch(made[-2]) if len(made) >= 2 else None
    if jump is None or made[-1] != PAD + "continue":
        return None
    exit_sym = int(jump.group(1).strip("@"))
    before, guard, rest = head, None, []
    for j in range(len(head) - 2):
        arm = _ARM_JUMP.fullmatch(head[j + 1])
        if arm is not None and head[j + 2] == PAD + "    continue":
            test = head[j]
            if not test.startswith(PAD + "if ") or not test.endswith(":") or "  # " in test:
                return None
            if int(arm.group(1).strip("@")) != exit_sym:
                return None
            before, guard, rest = head[:j], test[len(PAD) + 3 : -1], head[j + 3 :]
            break
    if any(_FLOW.fullmatch(x.split("  # ")[0]) for x in before + rest):
        return None
    return before, guard, rest + made[:-2], exit_sym


def _section_flow(code: list[str]):
    """A body section's lines (`_Emitter.branched`) split into its code and where it goes:
    `[(None, sym)]` for a jump or a fall into the next, or `[(arm, sym), ...]` for a branch
    whose arms (`if`/`elif`/`else` lines) each only jump. None for any other shape, or for
    code that jumps or loops itself."""
    code = list(code)
    if code and code[-1] == PAD + "continue":
        code.pop()
    if not code:
        return None
    m = _PLAIN_JUMP.fullmatch(code[-1])
    if m is not None:
        body, arms = code[:-1], [(None, int(m.group(1).strip("@")))]
    else:
        arms = []
        while len(code) >= 2 and (j := _ARM_JUMP.fullmatch(code[-1])) is not None:
            test = code[-2]
            if _ARM.fullmatch(test) is None:
                return None
            arms.insert(0, (test, int(j.group(1).strip("@"))))
            code = code[:-2]
            if test.startswith(PAD + "if "):
                break
        if not arms or not arms[0][0].startswith(PAD + "if ") or arms[-1][0] != PAD + "else:":
            return None
        body = code
    if any(_FLOW.fullmatch(x.split("  # ")[0]) for x in body):
        return None
    return body, arms


_JUMP_REF = re.compile(r" {12}pc = @\d+@")
_RESUME_REF = re.compile(r"fr\.pc = @\d+@")

FALL_THROUGH = True  # a section's last jump to a later section falls through (`fall_through`)


def fall_through(code: str) -> str:
    """A section's closing `continue` dropped where its jump goes forward: `pc = T` (T a later
    section), or a branch whose every arm ends in `pc = T` (the `continue` kept in the arms
    that go back). The tests of the sections between then find T, which costs less than going
    back to the first test and through every group and section before T (a loop's body is a
    run of sections, each jumping to a later one until the round's jump back)."""
    lines = code.split("\n")
    heads = {int(m.group(1)): k for k, x in enumerate(lines) if (m := _HEAD.fullmatch(x))}
    if not FALL_THROUGH or len(heads) < 2:
        return code
    at = sorted(heads.values())
    out: list[str] = []
    for start, end in zip(at, at[1:] + [len(lines)]):
        section = int(_HEAD.fullmatch(lines[start]).group(1))
        out += _forward(lines[start:end], section, heads)
    return "\n".join(lines[: at[0]] + out)


def _forward(sec: list[str], k: int, heads: dict[int, int]) -> list[str]:
    """Section `k`'s lines (its header first) with its closing `continue` dropped or moved
    into the arms that jump back, where that is its shape (see `fall_through`)."""
    last = max((i for i, x in enumerate(sec) if x == PAD + "continue"), default=-1)
    if last < 2 or any(x.strip() and x.startswith(PAD) for x in sec[last + 1 :]):
        return sec  # (no closing `continue`: code of the section after it)
    jump = _JUMP.fullmatch(sec[last - 1])
    if jump is not None and len(jump.group(1)) == 12:
        target = int(jump.group(2))
        forward = target > k and target in heads
        return sec[:last] + sec[last + 1 :] if forward else sec
    arms, i = [], last - 1  # an `if`/`elif`/`else` at the section's level, walked backwards
    while i > 0 and not sec[i].startswith(PAD + "if "):
        if sec[i].startswith(PAD + "else:") or sec[i].startswith(PAD + "elif "):
            arms.append(i)
        elif not sec[i].startswith(PAD + "    "):
            return sec  # another statement at the section's level: not this shape
        i -= 1
    if i == 0 or not any(sec[a] == PAD + "else:" for a in arms):
        return sec
    ends = [a - 1 for a in arms] + [last - 1]  # each arm's last line
    targets = [_JUMP.fullmatch(sec[e]) for e in ends]
    if any(t is None or len(t.group(1)) != 16 for t in targets):
        return sec
    out = list(sec[:last])
    for e, t in sorted(zip(ends, targets), reverse=True):
        target = int(t.group(2))
        if not (target > k and target in heads):
            out.insert(e + 1, PAD + "    continue")
    return out + sec[last + 1 :]


_OBJECT_RUN = re.compile(r"\.exec\(st, fr\)|\.bound\(st, |\(_wb := ")  # a statement's object run
_HEAD = re.compile(r"        if pc == (\d+):")
_JUMP = re.compile(r"( +)pc = (\d+)")
_RESUME = re.compile(r"( +)fr\.pc = (\d+)")  # where the run loop resumes the function


def _thread_jumps(code: str) -> str:
    """A jump to a section that only jumps on goes straight to where that one goes (a branch
    ending inside a loop's body: `pc = 6` → `pc = 7` → `pc = 2`), and so does the place the
    run loop resumes at after a call or a check (not after a delegated statement: `ask`
    rewinds the frame to the section before the one it names)."""
    lines = code.split("\n")
    to: dict[int, int] = {}
    for k, line in enumerate(lines[:-2]):
        head = _HEAD.fullmatch(line)
        jump = _JUMP.fullmatch(lines[k + 1])
        if head and jump and len(jump.group(1)) == 12 and lines[k + 2] == PAD + "continue":
            to[int(head.group(1))] = int(jump.group(2))

    def final(pc: int) -> int:
        seen = set()
        while pc in to and pc not in seen:  # a loop of jumps is left as it is
            seen.add(pc)
            pc = to[pc]
        return pc

    out: list[str] = []
    for k, line in enumerate(lines):
        after = lines[k + 1] if k + 1 < len(lines) else ""
        resume = _RESUME.fullmatch(line)
        if resume is not None and _OBJECT_RUN.search(after) is None:
            out.append(f"{resume.group(1)}fr.pc = {final(int(resume.group(2)))}")
            continue
        jump = _JUMP.fullmatch(line)
        if jump is None or final(int(jump.group(2))) == int(jump.group(2)):
            out.append(line)
            continue
        pad, target = jump.group(1), final(int(jump.group(2)))
        out.append(f"{pad}pc = {target}")
        if after.strip() != "continue":
            out.append(f"{pad}continue")  # it fell through to the next section: jump instead
    return "\n".join(out)


# a line that names a section: a header, a jump, a resume point, a delegated statement's test
# (whole lines of the generated code only: a text of the rules never starts one)
_NUMBERED = re.compile(r"^( *(?:if pc == |pc = |fr\.pc = |if fr\.pc != ))(\d+)(?=:$|$| or )")


def _live_sections(code: str, count: int) -> int:
    """How many of the `count` sections come before those that only end the block (`fr.pc =
    END`, `return`: a delegated statement's continuation at the block's end, where the frame
    waits after the statement): the run loop ends a frame resumed there without calling it
    (`Program.block_lens`)."""
    bodies: dict[int, list[str]] = {}
    k = -1
    for line in code.split("\n"):
        head = _HEAD.fullmatch(line)
        if head is not None:
            k = int(head.group(1))
            bodies[k] = []
        elif k >= 0 and line.startswith(PAD):
            bodies[k].append(line.strip())
        else:
            k = -1
    live = count
    while live > 1 and bodies.get(live - 1) == [f"fr.pc = {count}", "return"]:
        live -= 1
    return live


def _renumber(code: str, count: int, keep: set[int]) -> tuple[str, dict[int, int], int]:
    """The sections nothing goes to any more (after `_thread_jumps`) dropped, the others
    numbered again in order. Kept: the first, those a jump or a resume names, and `keep` (a
    delegated statement's own, where `ask` rewinds to). Returns the code, the old numbers'
    new ones (the end, `count`, included) and the new count."""
    lines = code.split("\n")
    named = {0, *keep}
    for line in lines:
        m = _NUMBERED.match(line)
        if m is not None and _HEAD.fullmatch(line) is None:
            named.add(int(m.group(2)))
    out: list[str] = []
    dropping = False
    for line in lines:
        head = _HEAD.fullmatch(line)
        if head is not None:
            dropping = int(head.group(1)) not in named
        elif dropping and not line.startswith(PAD):  # the end of the sections
            dropping = False
        if not dropping:
            out.append(line)
    new = {old: k for k, old in enumerate(x for x in range(count) if x in named)}
    new[count] = len(new)  # the end of the block
    text = "\n".join(
        _NUMBERED.sub(lambda m: f"{m.group(1)}{new[int(m.group(2))]}", line) for line in out
    )
    return text, new, len(new) - 1
