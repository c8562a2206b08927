"""The points of the flow where a game may start: the start of each `phase` block and of the
flow's first `turn` and `round` blocks, found in the flow's tree and located in its compiled
blocks, so that a scenario can begin in the middle of the flow (runtime/setup.enter_flow)
instead of writing the flow as verbs to call.

A point records the frames the run loop would hold just before the block begins, and the
flow's names bound before it (with their `let`s, which give them their declared values)."""

from __future__ import annotations

from ..language import nodes as n
from ..language.keywords import CORE
from ..runtime.program import FlowPoint
from ..runtime.state import FUNC, LOOP, SCOPE

_BINDERS = (n.Let, n.Choose, n.Order, n.Create)


def find_points(compiler, flow: n.Block, flow_block: int) -> dict[str, FlowPoint]:
    """Every point of the flow by each spelling of its name; the first block of a name wins
    (a game starts at a phase met twice where it comes first)."""
    return _Walk(compiler).run(flow, flow_block)


class _Walk:
    def __init__(self, compiler):
        self.c = compiler
        self.p = compiler.p
        self.points: dict[str, FlowPoint] = {}

    def run(self, flow: n.Block, block: int) -> dict[str, FlowPoint]:
        self.block(flow.body, block, [(block, 0, -1, FUNC, "")], [], None)
        return self.points

    def index(self, block: int) -> dict[tuple, tuple]:
        """The statement objects the block's generated function runs, by their source position:
        (object, the pc that starts it, the pc that follows it). Its branches and loops are its
        own code, not here (but for a loop broken from inside a `hold:`, which is an object)."""
        stmts = self.p.blocks[block]
        if not stmts:
            return {}
        fn = stmts[0].fn
        pairs = zip(fn.delegated, fn.sections)
        return {_key(rt.span): (rt, at, after) for rt, (at, after) in pairs if rt.span}

    def block(self, body, block: int, frames: list, names: list, blocked: str | None) -> None:
        """Walk one block; `frames` go down to this block's own (its pc is set per statement),
        `names` grows with what the statements bind."""
        idx = self.index(block)
        for s in body:
            hit = idx.get(_key(s.span))

            def at(pc: int) -> list:  # the frames with this block's own at `pc`
                return frames[:-1] + [(block, pc, *frames[-1][2:])]

            inner: list[tuple[n.Block, int, tuple | None]] = []  # (body, its block, its frame)
            why = blocked
            if isinstance(s, n.Scope) and hit is not None:
                self.point(s, at(hit[1]), names, blocked)
                inner = [(s.body, hit[0].body, (hit[0].body, 0, hit[0].id, SCOPE, "scope"))]
            elif isinstance(s, n.Hold) and hit is not None:
                inner = [(s.body, hit[0].body, (hit[0].body, 0, hit[0].id, SCOPE, "hold"))]
            elif isinstance(s, n.If):  # always this block's own code (jumps between sections)
                bodies = [b for _, b in s.branches] + ([s.orelse] if s.orelse else [])
                inner = [(b, block, None) for b in bodies]
            elif isinstance(s, (n.For, n.Repeat, n.While)):
                if not isinstance(s, n.While):
                    word = "for" if isinstance(s, n.For) else "repeat"
                    why = why or f"it is inside a `{word}` loop ({s.span}), whose round is unknown"
                if hit is None:
                    inner = [(s.body, block, None)]
                else:
                    inner = [(s.body, hit[0].body, (hit[0].body, 0, hit[0].id, LOOP, ""))]
            added: list = []
            for b, blk, own in inner:
                mine = list(names)  # (a `for` loop keeps its name to itself)
                down = frames if own is None else [*at(hit[2]), own]
                self.block(b.body, blk, down, mine, why)
                added += [x for x in mine[len(names) :] if x[0] not in {a[0] for a in added}]
            names += added  # declared in a block that has run (any branch of it)
            if isinstance(s, _BINDERS) and s.name:
                value = self.c.expr(s.value) if isinstance(s, n.Let) else None
                names.append((s.name, value, s.span))

    def point(self, s: n.Scope, frames: list, names: list, blocked: str | None) -> None:
        if s.kind == "phase":
            spellings = [s.name, *s.aliases]
        else:  # `turn` / `턴`, `round` / `라운드`: the keyword in either language
            spellings = list(CORE[s.kind.upper()][:2])
        canon = self.c.phase_names.get(s.name, s.name) if s.kind == "phase" else s.kind
        fp = FlowPoint(canon, s.span, tuple(frames), tuple(names), blocked)
        for word in spellings:
            self.points.setdefault(word, fp)


def _key(span) -> tuple:
    return (span.file, span.line, span.col)
