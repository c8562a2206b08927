"""`once per S` limits: which actions share one, and the checks of what a limit names.

An action's limit is its own unless it says `as LIMIT`: then it counts against the limit LIMIT,
which is either another action's (`action b(...) ... once per turn per x as a`: a use of either
is a use of the one limit) or a name that two actions or more give (`once per turn as extra` on
each). Actions that share a limit must agree on what it counts: the same scope, the same
`per NAME` type, and the same holder (the rules' actions count per player, a card's per source
object).
"""

from __future__ import annotations

from . import nodes as n
from .diagnostics import Diagnostics, did_you_mean
from .symbols import Ability, CallableSym, params_of

SCOPE_WORDS = ("turn", "round", "phase")


def limit_group(d: n.ActionDecl, actions: dict[str, CallableSym]) -> str | None:
    """The name of the limit action `d` shares with others, or None for a limit of its own (or
    none). An action's spelling stands for the action: its first name is the group's."""
    if d.limit is None:
        return None
    seen = {id(d)}
    while d.limit_as is not None:  # `as NAME` naming an action that itself says `as LIMIT`
        sym = actions.get(d.limit_as)
        if sym is None or not isinstance(sym.decl, n.ActionDecl) or id(sym.decl) in seen:
            return sym.name if sym is not None else d.limit_as
        d = sym.decl
        seen.add(id(d))
    sym = actions.get(d.names[0]) if d.names else None
    return sym.name if sym is not None and sym.decl is d else None


def _holder(ab: Ability, d: n.ActionDecl, types: dict[str, object]) -> tuple:
    """What one use is recorded against: (rules or card, the `per` parameter's type)."""
    return (ab.origin == "global", types.get(d.limit_by) if d.limit_by is not None else None)


def check_shared(
    abilities: list[Ability],
    actions: dict[str, CallableSym],
    diag: Diagnostics,
) -> None:
    """Located errors for `as LIMIT` that shares nothing or shares with an action counting
    otherwise."""
    groups: dict[str, list[Ability]] = {}
    for ab in abilities:
        if isinstance(ab.decl, n.ActionDecl):
            g = limit_group(ab.decl, actions)
            if g is not None:
                groups.setdefault(g, []).append(ab)
    for ab in abilities:
        d = ab.decl
        if not isinstance(d, n.ActionDecl) or d.limit_as is None:
            continue
        where = d.limit_as_span or d.span
        sym = actions.get(d.limit_as)
        if sym is not None and isinstance(sym.decl, n.ActionDecl) and sym.decl.limit is None:
            diag.error(
                f"`as {d.limit_as}`: action '{sym.name}' has no `once per` limit to share",
                where,
                f"give '{sym.name}' the same `once per {d.limit}`, or name the shared limit"
                " with a word of its own on each action that shares it",
                code="limit",
            )
            continue
        group = groups.get(limit_group(d, actions) or "", [])
        if len(group) < 2:
            others = [g for g in groups if g != d.limit_as] + [
                a for a in actions if a not in d.names
            ]
            diag.error(
                f"`as {d.limit_as}`: no other action shares the limit '{d.limit_as}'",
                where,
                did_you_mean(d.limit_as, others)
                or "write the same `as LIMIT` on every action that counts against it",
                code="limit",
            )
    for name, group in groups.items():
        if len(group) < 2:
            continue
        first = group[0].decl
        head = _holder(group[0], first, _types(first))
        for ab in group[1:]:
            d = ab.decl
            where = d.limit_as_span or d.span
            if d.limit != first.limit:
                diag.error(
                    f"the limit '{name}' is once per {first.limit} ({first.span}); this action"
                    f" counts it once per {d.limit}",
                    where,
                    f"write `once per {first.limit}` on every action that shares it",
                    code="limit",
                )
            elif _holder(ab, d, _types(d)) != head:
                diag.error(
                    f"the limit '{name}' is counted {_counted(group[0], first)} ({first.span});"
                    f" this action counts it {_counted(ab, d)}",
                    where,
                    "actions that share a limit count it alike: the same `per NAME` type, and"
                    " all the rules' own actions or all a card's",
                    code="limit",
                )


def _types(d: n.ActionDecl) -> dict[str, object]:
    """The parameters' types as written (a card's action has no symbol of its own)."""
    return {p.name: p.type for p in params_of(d.params, Diagnostics())}


def _counted(ab: Ability, d: n.ActionDecl) -> str:
    who = "per player" if ab.origin == "global" else "per source card"
    return f"per {d.limit_by}" if d.limit_by is not None else who


def check_scopes(abilities: list[Ability], phases: dict[str, str], diag: Diagnostics) -> None:
    """`once per S`: S is turn, round, phase or a phase's name; another word would never end."""
    for ab in abilities:
        d = ab.decl
        limit = getattr(d, "limit", None)
        if limit is None or limit in SCOPE_WORDS or limit in phases:
            continue
        diag.error(
            f"`once per {limit}`: '{limit}' is not a scope (turn, round, phase or a phase's name)",
            d.span,
            did_you_mean(limit, [*SCOPE_WORDS, *phases]) or "a limit ends when its scope ends",
            code="limit",
        )
