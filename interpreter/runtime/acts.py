"""`doable(EVENT(ARGS))` at run time: the tests build/acts.py derived from the statements of an
event's block and of the abilities that listen to it, run on the state (language.md 11.8)."""

from __future__ import annotations

from collections.abc import Callable

from .engine import scope_name

ACTS, GOES_ON, STOPS, BREAKS = 1, 0, 2, 3  # what a test says of a statement or a block

Test = Callable[[object, dict], int]


class EventActs:
    """Run time: the test of an event's own block (`None`: it has none) and of each ability
    that listens to it."""

    __slots__ = ("own", "listeners")

    def __init__(self, own: Test | None, listeners: list):
        self.own, self.listeners = own, listeners


def doable(st, env: dict, name: str, args: list) -> bool:
    """Whether raising event `name` with `args` now would act: its own block, or an ability of
    the rules or of an object among the arguments (the effect's own card, wherever it is: a card
    in the hand about to be played) that would fire on it. Other objects' abilities that react
    to the event are not the effect's actions and do not count."""
    prog = st.g.prog
    ea = prog.acts[name]
    vrt = prog.verbs[name]
    bound = dict(zip(vrt.param_names, args))
    if ea.own is not None:
        inner = dict(bound, you=env.get("you"), this=env.get("this"))
        if ea.own(st, inner) == ACTS:
            return True
    objs = [a for a, t in zip(args, vrt.param_types) if isinstance(a, int) and t == "object"]
    for lst, test in ea.listeners:
        if lst.origin == "global":
            sources = [None]
        else:
            sources = [o for o in objs if lst.applies_to(st, o)]
        for src in sources:
            e = {b: bound.get(q) for b, q in zip(lst.binds, lst.param_names)}
            if src is None:
                e["you"] = st.active
            else:
                e["this"] = src
                e["you"] = st.obj_owner[src]
                lst.bind_params(st, src, e)
            if lst.limit is not None and (
                (lst.id, -1 if src is None else src, scope_name(st, lst.limit)) in st.used
            ):
                continue
            if lst.cond is not None and not lst.cond(st, e):
                continue
            if test(st, e) == ACTS:
                return True
    return False
