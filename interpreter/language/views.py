"""Checks the `view:` section of ruleset.yaml against the ruleset's names: a view that shows a
counter, zone, kind, property or keyword the rules do not declare is a located error (a typo
would otherwise hide what the player needs to see)."""

from __future__ import annotations

import re

from .diagnostics import Diagnostics, did_you_mean
from .symbols import Symbols
from .yamlsrc import YamlDoc


def check_view(meta: dict, syms: Symbols, doc: YamlDoc | None, diags: Diagnostics) -> None:
    view = meta.get("view")
    if not isinstance(view, dict):
        return

    def known(path: tuple, name: str, table: dict, what: str, scope: str | None = None) -> None:
        sym = table.get(name)
        if sym is not None and (scope is None or getattr(sym, "scope", scope) == scope):
            return
        choices = [k for k, s in table.items() if scope is None or getattr(s, "scope", "") == scope]
        hint = did_you_mean(name, choices)
        where = {"global": "shared ", "player": "per-player ", "area": "per-area "}.get(scope, "")
        diags.error(
            f"the view names '{name}', which is not a {where}{what} of the ruleset",
            doc.span(path) if doc is not None else None,
            code="unknown-name",
            hint=f"did you mean '{hint}'?" if hint else None,
        )

    for i, z in enumerate(view.get("zones") or []):
        known(("view", "zones", i), z, syms.zones, "zone")
    for i, c in enumerate(view.get("counters") or []):
        known(("view", "counters", i), c, syms.counters, "counter", "global")
    players = view.get("players") or {}
    for i, c in enumerate(players.get("counters") or []):
        known(("view", "players", "counters", i), c, syms.counters, "counter", "player")
    name = players.get("name") or {}
    if "counter" in name:
        known(("view", "players", "name", "counter"), name["counter"], syms.counters, "counter")
    if "define" in name:
        d = syms.defines.get(syms.canonical.get(name["define"], name["define"]))
        if d is not None and len(d.params) == 1:
            d.used = True
        else:
            diags.error(
                f"the view names players by '{name['define']}', which is not a definition"
                " with one player parameter",
                doc.span(("view", "players", "name", "define")) if doc is not None else None,
                code="unknown-name",
                hint="write `define NAME(p: player) = ...` giving what names the seat",
            )
    if "option" in name and name["option"] not in (meta.get("options") or {}):
        known(("view", "players", "name", "option"), name["option"], {}, "option")
    for i, c in enumerate((view.get("areas") or {}).get("counters") or []):
        known(("view", "areas", "counters", i), c, syms.counters, "counter", "area")
    for kind, spec in (view.get("kinds") or {}).items():
        ksym = syms.kinds.get(kind)
        if ksym is None:
            known(("view", "kinds", kind), kind, syms.kinds, "kind")
            continue
        for i, prop in enumerate((spec or {}).get("show") or []):
            known(("view", "kinds", kind, "show", i), prop, ksym.fields, f"property of {kind}")
    for lang, sentences in (view.get("narration") or {}).items():
        for verb, text in (sentences or {}).items():
            vsym = syms.verbs.get(syms.canonical.get(verb, verb))
            if vsym is None:
                known(("view", "narration", lang, verb), verb, syms.verbs, "verb")
                continue
            params = {p.name for p in vsym.params}
            for slot in re.findall(r"\{(\w+)\}", str(text)):
                if slot not in params:
                    diags.error(
                        f"the sentence for '{verb}' names {{{slot}}}, which is not a parameter"
                        f" of the verb ({', '.join(sorted(params)) or 'none'})",
                        doc.span(("view", "narration", lang, verb)) if doc is not None else None,
                        code="unknown-name",
                    )
    for i, k in enumerate(view.get("marks") or []):
        known(("view", "marks", i), k, syms.keywords, "keyword")


__all__ = ["check_view"]
