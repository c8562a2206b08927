"""Expressions → Python source → one compiled function each: `f(st, env)`.

Nested closures cost a Python call per AST node; generating the source of a whole expression
and compiling it once makes the hot path (legality tests, attack rules) a single call. The
source is built from the checker's resolutions only; the names it uses come from `HELPERS`
and from constants bound into the function's globals (never from the ruleset's text).
"""

from __future__ import annotations

from itertools import count

from . import nodes as n
from .builtins import BUILTIN_FUNCS, RulesError
from .symbols import NUMBER

_ids = count()


def _players(st):
    lost = st.lost
    if not lost:
        return list(range(st.g.nplayers))
    return [q for q in range(st.g.nplayers) if q not in lost]


def _seq(st, v):
    return v if isinstance(v, list) else st.zones[v] if isinstance(v, int) else []


def _plus(x, y):
    if isinstance(x, list) or isinstance(y, list):
        return (x if isinstance(x, list) else [x]) + (y if isinstance(y, list) else [y])
    if isinstance(x, str) or isinstance(y, str):
        return f"{x}{y}"
    return x + y


def _div(x, y, span):
    if y == 0:
        raise RulesError(f"{span}: division by zero")
    return x // y


def _mod(x, y, span):
    if y == 0:
        raise RulesError(f"{span}: division by zero")
    return x % y


def _lt(x, y):
    return x is not None and y is not None and x < y


def _le(x, y):
    return x is not None and y is not None and x <= y


def _gt(x, y):
    return x is not None and y is not None and x > y


def _ge(x, y):
    return x is not None and y is not None and x >= y


def _contains(st, x, c):
    if isinstance(c, (list, dict)):
        return x in c
    return x is not None and c is not None and st.obj_zone[x] == c


def _index(st, v, i):
    if isinstance(v, list):
        return v[i] if isinstance(i, int) and -len(v) <= i < len(v) else None
    if isinstance(v, dict):
        return v.get(i if not isinstance(i, int) or i in v else str(i))
    if isinstance(v, int) and st is not None:
        z = st.zones[v]
        return z[i] if 0 <= i < len(z) else None
    return None


def _dget(st, v, name):
    if isinstance(v, dict):
        return v.get(name)
    if isinstance(v, int) and st is not None and st.g.area_props:
        return st.g.area_props[v].get(name)
    return None


def _owner(st, o):
    return None if o is None else st.obj_owner[o]


def _zone_of(st, o):
    return None if o is None else st.obj_zone[o]


def _position(st, o):
    if o is None:
        return None
    z = st.obj_zone[o]
    return st.zones[z].index(o) if z >= 0 else -1


HELPERS = {
    "_players": _players, "_seq": _seq, "_plus": _plus, "_div": _div, "_mod": _mod,
    "_lt": _lt, "_le": _le, "_gt": _gt, "_ge": _ge, "_contains": _contains, "_index": _index,
    "_dget": _dget, "_owner": _owner, "_zone_of": _zone_of, "_position": _position,
}  # fmt: skip

CMP = {"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}


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

    def const(self, value) -> str:
        """A name in the namespace bound to `value` (for functions and objects)."""
        key = id(value)
        name = self._const_ids.get(key)
        if name is None:
            name = f"_k{next(_ids)}"
            self._const_ids[key] = name
            self.ns[name] = value
        return name

    def compile(self, e: n.Expr):
        src = self.src(e, ())
        name = f"_e{next(_ids)}"
        code = f"def {name}(st, env):\n    return {src}\n"
        exec(compile(code, f"<madang {e.span}>", "exec"), self.ns)  # our own generated code
        return self.ns[name]

    # ---------------------------------------------------------------- nodes
    def src(self, e, its: tuple[str, ...]) -> str:  # noqa: C901 - one case per node type
        r = self.r
        match e:
            case n.Num() | n.Str() | n.Const():
                return repr(e.value)
            case n.Special():
                if e.which == "it" and its:
                    return its[-1]
                return f"env.get({e.which!r})"
            case n.Name():
                return self.name(e, its)
            case n.Attr():
                return self.attr(e, its)
            case n.Call():
                res = r.calls[id(e)]
                args = [self.src(a, its) for a in e.args]
                if res[0] == "define":
                    d = self.s.defines[res[1]]
                    body = self.c._define_body(d)
                    fn = self.const(body)
                    items = ["'you': env.get('you')", "'this': env.get('this')"]
                    items += [f"{q.name!r}: {a}" for q, a in zip(d.params, args)]
                    return f"{fn}[0](st, {{{', '.join(items)}}})"
                fn = self.const(BUILTIN_FUNCS[res[1]].fn)
                return f"{fn}(st{''.join(', ' + a for a in args)})"
            case n.Index():
                return f"_index(st, {self.src(e.obj, its)}, {self.src(e.index, its)})"
            case n.ListExpr():
                return "[" + ", ".join(self.src(i, its) for i in e.items) + "]"
            case n.BinOp():
                a, b = self.src(e.left, its), self.src(e.right, its)
                types = r.types.get(id(e))
                numeric = types == (NUMBER, NUMBER)
                op = e.op
                if op == "+":
                    return f"({a} + {b})" if numeric else f"_plus({a}, {b})"
                if op in ("-", "*"):
                    return f"({a} {op} {b})"
                if op == "/":
                    return f"_div({a}, {b}, {str(e.span)!r})"
                if op == "%":
                    return f"_mod({a}, {b}, {str(e.span)!r})"
                if op in ("==", "!="):
                    return f"({a} {op} {b})"
                return f"({a} {op} {b})" if numeric and self._never_none(e) else f"{CMP[op]}({a}, {b})"
            case n.BoolOp():
                parts = [f"({self.src(i, its)})" for i in e.items]
                return f"(True if {f' {e.op} '.join(parts)} else False)"
            case n.Not():
                return f"(not {self.src(e.expr, its)})"
            case n.Neg():
                return f"(-{self.src(e.expr, its)})"
            case n.IfExpr():
                return f"({self.src(e.then, its)} if {self.src(e.cond, its)} else {self.src(e.orelse, its)})"
            case n.Contains():
                return f"_contains(st, {self.src(e.item, its)}, {self.src(e.container, its)})"
            case n.Has():
                o = self.src(e.obj, its)
                res = r.names.get(id(e))
                kw = f"env.get({e.keyword!r})" if res is not None and res[0] == "local" else repr(self.s.canonical[e.keyword])
                return f"(lambda o: o is not None and PROG.has(st, o, {kw}))({o})"
            case n.IsKind():
                o = self.src(e.obj, its)
                kind = self.s.canonical.get(e.kind, e.kind)
                return f"(lambda o: o is not None and CARDS[st.obj_card[o]].kind == {kind!r})({o})"
            case n.Where():
                var = f"it{len(its)}"
                items = self.src(e.items, its)
                cond = self.src(e.cond, its + (var,))
                return f"[{var} for {var} in _seq(st, {items}) if {cond}]"
        raise RulesError(f"{e.span}: cannot compile this expression")  # pragma: no cover

    def _never_none(self, e: n.BinOp) -> bool:
        """Both sides are plain numbers that cannot be none (literals, counters, arithmetic)."""
        return all(self._plain_number(x) for x in (e.left, e.right))

    def _plain_number(self, x) -> bool:
        if isinstance(x, n.Num):
            return True
        if isinstance(x, n.Name):
            res = self.r.names.get(id(x))
            return res is not None and res[0] == "counter"
        if isinstance(x, n.BinOp) and x.op in ("+", "-", "*"):
            return self._plain_number(x.left) and self._plain_number(x.right)
        if isinstance(x, n.Attr):
            res = self.r.attrs.get(id(x))
            return res is not None and res[0] == "player_counter"
        if isinstance(x, n.Call):
            return self.r.calls.get(id(x)) in (("builtin", "count"), ("builtin", "sum"))
        return False

    def name(self, e: n.Name, its) -> str:
        res = self.r.names.get(id(e))
        if res is None:
            raise RulesError(f"{e.span}: unresolved name '{e.name}'")
        kind, target = res
        if kind == "local":
            return f"env.get({target!r})"
        if kind == "define":
            fn = self.const(self.c._define_body(self.s.defines[target]))
            return f"{fn}[0](st, {{'you': env.get('you'), 'this': env.get('this')}})"
        if kind == "counter":
            return f"st.counters[{target!r}]"
        if kind == "zone":
            return f"st.g.zone_base[{target!r}]"
        if kind in ("keyword", "kind", "card"):
            return repr(target)
        if kind == "it_prop":
            it = its[-1] if its else "env['it']"
            return self.prop(it, target)
        if kind == "builtin":
            return {
                "players": "_players(st)",
                "active": "st.active",
                "first_player": "st.first",
                "turn_number": "st.turn",
                "round_number": "st.round",
                "player_count": "st.g.nplayers",
                "areas": "list(range(len(st.g.areas)))",
                "option": "st.g.options",
                "data": "PROG.meta.get('data')",
            }[target]
        raise RulesError(f"{e.span}: cannot compile name '{e.name}'")  # pragma: no cover

    def prop(self, obj: str, name: str) -> str:
        if name in self.p.modified_props or name in self.c._modified_names():
            return f"(lambda o: None if o is None else PROG.read_prop(st, o, {name!r}))({obj})"
        return (
            f"(lambda o, d=st.props.get({name!r}): None if o is None else "
            f"(d[o] if d is not None and o in d else CARDS[st.obj_card[o]].props.get({name!r})))({obj})"
        )

    def attr(self, e: n.Attr, its) -> str:
        kind, name = self.r.attrs[id(e)]
        if kind == "option":
            return f"st.g.options.get({name!r})"
        obj = self.src(e.obj, its)
        if self.r.types.get(id(e)) == "map":
            var = f"m{len(its)}"
            one = self.one_attr(kind, name, var)
            return f"[{one} for {var} in ({obj} or [])]"
        return self.one_attr(kind, name, obj)

    def one_attr(self, kind: str, name: str, obj: str) -> str:
        if kind == "obj_prop":
            return self.prop(obj, name)
        if kind == "obj_builtin":
            return {
                "owner": f"_owner(st, {obj})",
                "zone": f"_zone_of(st, {obj})",
                "position": f"_position(st, {obj})",
                "name": f"CARDS[st.obj_card[{obj}]].name",
                "kind": f"CARDS[st.obj_card[{obj}]].kind",
                "id": obj,
            }[name]
        if kind in ("player_zone", "area_zone"):
            return f"(st.g.zone_base[{name!r}] + {obj})"
        if kind == "player_counter":
            return f"st.pcounters[{name!r}][{obj}]"
        if kind == "area_counter":
            return f"st.acounters[{name!r}][{obj}]"
        if kind == "player_builtin":
            return obj
        if kind == "zone_builtin":
            if name in ("owner", "소유자"):
                return f"st.g.zone_info[{obj}][1]"
            return f"len(st.zones[{obj}])"
        if kind == "dict":
            return f"_dget(st, {obj}, {name!r})"
        raise RulesError(f"cannot compile attribute '{name}'")  # pragma: no cover
