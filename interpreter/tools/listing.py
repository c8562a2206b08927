"""`madang compile`: what a ruleset's rules became.

A rules author reads the generated Python of a block (a verb's, an action's, a trigger's: one
resumable function, build/resumable.py), of an expression or of an action's enumerator, and
sees which statements the function hands to their run-time objects (those that can wait for a
decision or start blocks of their own: windows, choices, scopes, calls that triggers listen
to), as Jinja can print the Python of a compiled template.
"""

from __future__ import annotations

from ..runtime.program import Program

BLOCK_SLOTS = ("body", "orelse")  # statement fields holding a block index
BLOCK_LISTS = ("blocks",)  # ... or a list of them


def pieces(prog: Program) -> dict[str, tuple[str, int, list]]:
    """Every named piece of the rules: name -> (what it is, its block, functions beside it)."""
    out: dict[str, tuple[str, int, list]] = {
        "setup": ("setup", prog.setup_block, []),
        "flow": ("flow", prog.flow_block, []),
    }
    for name, verb in prog.verbs.items():
        if verb.body is not None:
            out[name] = ("verb", verb.body, [])
    for act in prog.actions:
        key = act.name if act.origin == "global" else f"{act.owner}: {act.name}"
        out.setdefault(key, ("action", act.body, [("legal options", act.fast_enum)]))
    for verb in list(prog.verbs.values()):
        for lsts in verb.listeners.values():
            for lst in lsts:
                out.setdefault(lst.rule, ("trigger", lst.body, [("condition", lst.cond)]))
    for chk in prog.checks:
        out.setdefault(f"check {chk.name}", ("check", chk.body, [("condition", chk.cond)]))
    return out


def _slots(stmt) -> list[str]:
    names: list[str] = []
    for cls in type(stmt).__mro__:
        for s in getattr(cls, "__slots__", ()):
            if s not in names and s not in ("id", "span", "mutates", "dirty"):
                names.append(s)
    return names


def _plain_fields(stmt) -> str:
    """The fields that are names rather than code: a call's verb, a loop's variable..."""
    shown = []
    for name in _slots(stmt):
        v = getattr(stmt, name, None)
        if name in BLOCK_SLOTS or name in BLOCK_LISTS:
            continue
        if isinstance(v, str) and v:
            shown.append(f"{name}={v}")
        elif not callable(v) and isinstance(getattr(v, "name", None), str):
            shown.append(f"{name}={v.name}")
    return (" " + " ".join(shown)) if shown else ""


def _code(fn, label: str, pad: str, out: list[str]) -> None:
    src = getattr(fn, "generated", None)
    if src is None:
        return
    out.append(f"{pad}{label}:")
    out.extend(f"{pad}    {line}" for line in src.rstrip().splitlines())


def block_listing(prog: Program, block: int, depth: int, out: list[str]) -> None:
    pad = "    " * depth
    stmts = prog.blocks[block]
    if not stmts:
        out.append(f"{pad}(nothing)")
        return
    first = stmts[0]
    if type(first).__name__ == "Section":
        fn = first.fn
        where = f"{first.span.line}:{first.span.col} " if getattr(first, "span", None) else ""
        out.append(f"{pad}{where}generated Python, {len(stmts)} section(s) to resume at:")
        out.extend(f"{pad}    {line}" for line in fn.generated.rstrip().splitlines())
        if fn.delegated:
            out.append(f"{pad}  run by their objects from the code above (they may wait, start")
            out.append(f"{pad}  blocks of their own or leave this one):")
        for stmt in fn.delegated:
            stmt_listing(prog, stmt, depth + 1, out)
        return
    for stmt in stmts:
        stmt_listing(prog, stmt, depth, out)


def stmt_listing(prog: Program, stmt, depth: int, out: list[str]) -> None:
    pad = "    " * depth
    where = f"{stmt.span.line}:{stmt.span.col}" if getattr(stmt, "span", None) else ""
    kind = type(stmt).__name__
    out.append(f"{pad}{where} {kind}{_plain_fields(stmt)}")
    for name in _slots(stmt):
        v = getattr(stmt, name, None)
        if name in BLOCK_SLOTS and isinstance(v, int):
            out.append(f"{pad}  {name}:")
            block_listing(prog, v, depth + 1, out)
        elif name in BLOCK_LISTS and isinstance(v, (list, tuple)):
            for i, b in enumerate(v):
                out.append(f"{pad}  {name}[{i}]:")
                block_listing(prog, b, depth + 1, out)
        elif isinstance(v, (list, tuple)):
            for i, f in enumerate(v):
                _code(f, f"{name}[{i}]", pad + "  ", out)
        else:
            _code(v, name, pad + "  ", out)


def show(prog: Program, name: str) -> str | None:
    """The listing of one named piece, or None when there is no such name."""
    found = pieces(prog).get(name)
    if found is None:
        return None
    kind, block, extra = found
    out = [name if name.startswith(kind + " ") else f"{kind} {name}"]  # "check NAME" once
    for label, fn in extra:
        _code(fn, label, "  ", out)
    block_listing(prog, block, 1, out)
    return "\n".join(out) + "\n"


def _count(prog: Program, block: int, tally: dict) -> None:
    stmts = prog.blocks[block]
    if stmts and type(stmts[0]).__name__ == "Section":
        tally["generated"] += 1
        stmts = stmts[0].fn.delegated  # run by the generated code, not steps of their own
        tally["objects"] += len(stmts)
    else:
        tally["steps"] += len(stmts)
    for stmt in stmts:
        for name in BLOCK_SLOTS:
            v = getattr(stmt, name, None)
            if isinstance(v, int) and name in _slots(stmt):
                _count(prog, v, tally)
        for b in getattr(stmt, "blocks", None) or ():
            _count(prog, b, tally)


def summary(prog: Program) -> list[dict]:
    """One row per named piece: how many of its blocks became generated Python functions, and
    how many statements are steps of the run loop of their own (in a block that is not a
    generated function; the statements a generated function hands to their objects, counted as
    `objects`, are not)."""
    rows = []
    for name, (kind, block, _) in pieces(prog).items():
        tally = {"generated": 0, "steps": 0, "objects": 0}
        _count(prog, block, tally)
        rows.append({"name": name, "kind": kind, **tally})
    return rows
