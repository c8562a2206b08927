"""Values kept at an outer loop of an action's enumerator (CodeGen.enumerator): a definition's
value in a `require` part tested in an inner loop, whose generated Python reads only names bound
at an outer level, is computed once per binding of those names, when first needed (a holder
`k0 = None` reset at that level, `(k0 if k0 is not None else (k0 := ...))` at its uses), not once
per option tried. Here: at what level the generated Python of a value may be computed."""

from __future__ import annotations

import ast
import builtins
import re

# the enumerator's Python variables: `you_` (level 0) and the parameters' `v0`, `v1`, ...
_PARAM = re.compile(r"v(\d+)")
_GUARD = re.compile(r"zg\d+_")  # codegen's name of a `where`'s zone (CodeGen.where)


def level_of(src: str, ns: dict, holders: dict[str, int]) -> int | None:
    """The enumerator level at which the Python expression `src` may be computed: the deepest
    parameter it reads (`v{i}`: level i + 1; `you_`, `this` (`src`), the state, constants: 0; a holder:
    its own level), or None when it reads anything else (a comprehension's variable of an
    enclosing `where`, a local of a function of its own, the env's other names)."""
    read = params_read(src, ns, holders)
    return None if read is None else max(read, default=0)


def params_read(src: str, ns: dict, holders: dict[str, int]) -> set[int] | None:
    """The levels of the enumerator's names that `src` reads (`v{i}`: i + 1, a holder: its
    level; `you_`, `this`, the state and constants none), or None when it reads another name."""
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        return None
    bound: set[str] = set()
    kept = {id(x.func.value) for x in ast.walk(tree) if _env_kept(x)}
    for x in ast.walk(tree):
        if isinstance(x, ast.comprehension):
            bound |= {t.id for t in ast.walk(x.target) if isinstance(t, ast.Name)}
        elif isinstance(x, ast.Lambda) or isinstance(x, ast.Attribute) and x.attr == "env":
            return None
        elif isinstance(x, ast.NamedExpr) and _GUARD.fullmatch(x.target.id):
            bound.add(x.target.id)  # a zone tested for emptiness where it is gone through
        elif isinstance(x, ast.NamedExpr) and x.target.id not in holders:
            return None
    read: set[int] = set()
    for x in ast.walk(tree):
        if not isinstance(x, ast.Name) or x.id in bound:
            continue
        name = x.id
        if name == "env" and id(x) not in kept:
            return None  # another name of the env's (a string's words are not names here)
        m = _PARAM.fullmatch(name)
        if m:
            read.add(int(m.group(1)) + 1)
        elif name in holders:
            read.add(holders[name])
        elif name in ("st", "you_", "src", "env") or name in ns or hasattr(builtins, name):
            continue
        else:
            return None
    return read


def _env_kept(x) -> bool:
    """`env.get('this')` or `env.get('you')`: the same through a whole listing."""
    return (
        isinstance(x, ast.Call)
        and isinstance(x.func, ast.Attribute)
        and isinstance(x.func.value, ast.Name)
        and x.func.value.id == "env"
        and x.func.attr == "get"
        and not x.keywords
        and len(x.args) == 1
        and isinstance(x.args[0], ast.Constant)
        and x.args[0].value in ("this", "you")
    )
