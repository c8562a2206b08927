"""A ruleset's own numbers for a player: its evaluation of a position and its payoff.

`settings: {evaluation: NAME}` in ruleset.yaml names a definition with one player parameter,
`define NAME(p: player) = ...`: a number, higher when the position is better for p. Searching
agents read it to rank positions (the greedy agent, cut-off playouts of MCTS); the rules never
do. A ruleset without one still plays; agents then see only wins and losses.

`define payoff(p: player) = ...` (or the definition `settings.payoff` names) is what the game
pays p when it ends: poker's chips, a margin of victory points. `returns()`, PettingZoo's
rewards and OpenSpiel's returns are its values; without it they are +1 / -1 / 0 for a win, a
loss and a draw (docs/integrations.md).
"""

from __future__ import annotations

from collections.abc import Callable

Evaluation = Callable[[object, int], float]

PAYOFF = "payoff"  # the definition's name when settings.payoff names none


def evaluation_name(meta: dict) -> str | None:
    name = (meta.get("settings") or {}).get("evaluation")
    return None if name is None else str(name)


def payoff_name(meta: dict) -> str:
    return str((meta.get("settings") or {}).get("payoff") or PAYOFF)


def _one_parameter(syms, name: str | None):
    """The definition `name` if it exists with one parameter (agents and adapters use it: the
    loader tells the checker, so that it is not reported as never used)."""
    d = None if name is None else syms.defines.get(name)
    if d is None or len(d.params) != 1:
        return None
    return d


def find_definition(syms, meta: dict):
    """The definition `settings.evaluation` names, if it exists with one parameter."""
    return _one_parameter(syms, evaluation_name(meta))


def find_payoff(syms, meta: dict):
    """The payoff definition, if the ruleset has one with one parameter."""
    return _one_parameter(syms, payoff_name(meta))


def _compile(compiler, d) -> Evaluation:
    from .compiler import call_define

    body = compiler.define_body(d)
    call = call_define(body, [d.params[0].name], [lambda st, env: env["you"]])

    def evaluate(st, player: int) -> float:
        v = call(st, {"you": player, "this": None})
        if isinstance(v, bool):
            return float(v)
        return float(v) if isinstance(v, (int, float)) else 0.0

    return evaluate


def compile_evaluation(compiler, syms, meta: dict) -> Evaluation | None:
    """f(state, player) -> number, from the compiler that compiled the ruleset."""
    d = find_definition(syms, meta)
    return None if d is None else _compile(compiler, d)


def compile_payoff(compiler, syms, meta: dict) -> Evaluation | None:
    """f(state, player) -> the game's payoff to player, or None without a payoff definition."""
    d = find_payoff(syms, meta)
    return None if d is None else _compile(compiler, d)


def compile_player_name(compiler, syms, meta: dict):
    """f(state, player) -> value, from `view: players: name: {define: NAME}`: the value the
    rules compute for a seat (the house it plays), named by the view (tools/view.py)."""
    from .compiler import call_define

    name = (((meta.get("view") or {}).get("players") or {}).get("name") or {}).get("define")
    d = None if name is None else syms.defines.get(syms.canonical.get(name, name))
    if d is None or len(d.params) != 1:
        return None
    call = call_define(compiler.define_body(d), [d.params[0].name], [lambda st, env: env["you"]])
    return lambda st, player: call(st, {"you": player, "this": None})


__all__ = [
    "compile_evaluation",
    "compile_payoff",
    "compile_player_name",
    "find_definition",
    "find_payoff",
    "evaluation_name",
    "payoff_name",
]
