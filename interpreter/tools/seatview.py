"""What one seat may see of a game, as plain data for the browser client.

Everything here is built from `GameState.observation(seat)`: a zone the seat may not see
arrives as a count, never as names, so nothing the seat must not know is ever put into a page or
a message. A spectator (seat -1) sees only public zones.
"""

from __future__ import annotations

from functools import lru_cache

from ..game import optionlabels
from ..game.api import GameState
from .view import View, option_labels

SPECTATOR = -1


def seat_view(
    game: GameState, seat: int, texts: dict[str, str] | None = None, lang: str | None = None
) -> dict:
    """The board as the seat sees it, through the ruleset's view declarations (tools/view.py):
    grouped by owner and area, labelled, with the seat's own decision."""
    st = game.st
    g = st.g
    prog = g.prog
    view = View.of(prog, lang)
    obs = game.observation(seat) if seat >= 0 else _public_observation(game)
    objects = _visible_objects(game, seat)
    players = [
        {"seat": p, "name": view.player_name(st, p), "counters": {}, "zones": []}
        for p in range(g.nplayers)
    ]
    shared: list[dict] = []
    areas = [{"name": a, "label": view.label(a), "zones": [], "counters": {}} for a in g.areas]
    order = {name: i for i, name in enumerate(view.zones)}
    zones = sorted(
        (z for z, (name, _o) in enumerate(g.zone_info) if name in order),
        key=lambda z: (order[g.zone_info[z][0]], z),
    )
    for z in zones:
        name, owner = g.zone_info[z]
        label = g.zone_label(z)
        content = obs["zones"][label]
        zone = {"name": name, "label": view.label(name), "id": label}
        if isinstance(content, dict):
            zone["hidden"] = content["count"]
            if content.get("known"):  # what was revealed to this seat: [position, card name]
                zone["known"] = [[i + 1, view.card_name(c)] for i, c in content["known"]]
        else:
            zone["cards"] = [_card(game, view, o, objects, texts) for o in st.zones[z]]
        scope = prog.zones[name].scope
        if scope == "player" and owner >= 0:
            players[owner]["zones"].append(zone)
        elif scope == "area" and owner >= 0:
            areas[owner]["zones"].append(zone)
        else:
            zone["label"] = view.label(name)
            shared.append(zone)
    for name in view.ordered(obs["player_counters"], "player"):
        for p, v in enumerate(obs["player_counters"][name]):
            players[p]["counters"][view.label(name)] = _plain(v)
    for name in view.ordered(st.acounters or {}, "area"):
        for a, v in enumerate(st.acounters[name]):
            if a < len(areas):
                areas[a]["counters"][view.label(name)] = _plain(v)
    out = {
        "ruleset": prog.name,
        "seat": seat,
        "round": obs["round"],
        "turn": obs["active"],
        "phase": view.label(obs["phase"]) if obs["phase"] else obs["phase"],
        "counters": {
            view.label(k): _plain(obs["counters"][k])
            for k in view.ordered(obs["counters"], "global")
        },
        "players": players,
        "shared": shared,
        "areas": [a for a in areas if a["zones"] or a["counters"]],
        "over": game.is_terminal(),
        "winners": game.winners if game.is_terminal() else [],
        "to_move": game.current_player(),
        "decision": None,
    }
    if seat >= 0 and game.current_player() == seat:
        out["decision"] = {
            "prompt": game.prompt(),
            "question": view.words.text(game.prompt()),
            "options": game.action_labels(),
            "shown": option_labels(game, lang),
            "targets": optionlabels.option_targets(st),  # what to click for each option
        }
    if out["over"]:
        out["result"] = result(game, view)
    return out


def result(game: GameState, view: View) -> dict:
    """The end of the game: who won, each player's payoff and shown counters (the scores)."""
    st = game.st
    returns = game.returns()
    return {
        "winners": [view.player_name(st, p) for p in game.winners],
        "players": [
            {
                "seat": p,
                "name": view.player_name(st, p),
                "payoff": returns[p],
                "won": p in game.winners,
            }
            for p in range(st.g.nplayers)
        ],  # fmt: skip
    }


def _public_observation(game: GameState) -> dict:
    """What a spectator sees: the public zones only (a seat's own hidden zones are counts)."""
    st = game.st
    g = st.g
    obs = game.observation(0)
    for z, (name, _owner) in enumerate(g.zone_info):
        if g.prog.zones[name].visibility != "public":
            obs["zones"][g.zone_label(z)] = {"count": len(st.zones[z])}
    obs.pop("decision", None)
    return obs


def _visible_objects(game: GameState, seat: int) -> set[int]:
    st = game.st
    g = st.g
    out: set[int] = set()
    for z, (name, owner) in enumerate(g.zone_info):
        vis = g.prog.zones[name].visibility
        if vis == "public" or (seat >= 0 and vis == "owner" and owner == seat):
            out.update(st.zones[z])
    return out


def _card(
    game: GameState, view: View, obj: int, visible: set[int], texts: dict[str, str] | None
) -> dict:
    out = view.card(game.st, obj, visible)
    if texts and out["name"] in texts:
        out["text"] = texts[out["name"]]
    return out


def _plain(v):
    if isinstance(v, bool | int | float | str) or v is None:
        return v
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return str(v)


@lru_cache(maxsize=8)
def card_texts(prog) -> dict[str, str]:
    """Each card's text in the language, as printed by `madang fmt` (for hovering)."""
    from ..language.fmt import format_card_text

    out = {}
    for name, sym in getattr(prog.syms, "cards", {}).items():
        if getattr(sym, "text", None) is not None:
            try:
                out[name] = format_card_text(sym.text).strip()
            except Exception:  # a text the printer cannot lay out is shown without it
                continue
    return out
