"""A ruleset's own evaluation of a position, for agents.

`settings: {evaluation: NAME}` in ruleset.yaml names a definition with one player parameter,
`define NAME(p: player) = ...`: a number, higher when the position is better for p. Searching
agents read it to rank positions (the greedy agent, cut-off playouts of MCTS); the rules never
do. A ruleset without one still plays; agents then see only wins and losses.
"""

from __future__ import annotations

from collections.abc import Callable

Evaluation = Callable[[object, int], float]


def evaluation_name(meta: dict) -> str | None:
    name = (meta.get("settings") or {}).get("evaluation")
    return None if name is None else str(name)


def find_definition(syms, meta: dict):
    """The definition `settings.evaluation` names, if it exists with one parameter (agents use
    it: the loader tells the checker, so that it is not reported as never used)."""
    name = evaluation_name(meta)
    d = None if name is None else syms.defines.get(name)
    if d is None or len(d.params) != 1:
        return None
    return d


def compile_evaluation(compiler, syms, meta: dict) -> Evaluation | None:
    """f(state, player) -> number, from the compiler that compiled the ruleset."""
    from .compiler import call_define

    d = find_definition(syms, meta)
    if d is None:
        return None
    body = compiler.define_body(d)
    call = call_define(body, [d.params[0].name], [lambda st, env: env["you"]])

    def evaluate(st, player: int) -> float:
        v = call(st, {"you": player, "this": None})
        if isinstance(v, bool):
            return float(v)
        return float(v) if isinstance(v, (int, float)) else 0.0

    return evaluate


__all__ = ["compile_evaluation", "find_definition", "evaluation_name"]
