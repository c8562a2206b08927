"""What one seat may see of a game, as plain data for the browser client.

Everything here is built from `GameState.observation(seat)`: a zone the seat may not see
arrives as a count, never as names, so nothing the seat must not know is ever put into a page or
a message. A spectator (seat -1) sees only public zones.
"""

from __future__ import annotations

from functools import lru_cache

from ..runtime.api import GameState

SPECTATOR = -1


def seat_view(game: GameState, seat: int, texts: dict[str, str] | None = None) -> dict:
    """The board as the seat sees it, grouped by owner and area; the seat's own decision."""
    st = game.st
    g = st.g
    prog = g.prog
    obs = game.observation(seat) if seat >= 0 else _public_observation(game)
    objects = _visible_objects(game, seat)
    players = [
        {"seat": p, "name": f"P{p + 1}", "counters": {}, "zones": []} for p in range(g.nplayers)
    ]
    shared: list[dict] = []
    areas = [{"name": a, "zones": [], "counters": {}} for a in g.areas]
    for z, (name, owner) in enumerate(g.zone_info):
        label = g.zone_label(z)
        content = obs["zones"][label]
        zone = {"name": name, "label": label}
        if isinstance(content, dict):
            zone["hidden"] = content["count"]
        else:
            zone["cards"] = [_card(game, o, texts) for o in st.zones[z] if o in objects]
        scope = prog.zones[name].scope
        if scope == "player" and owner >= 0:
            players[owner]["zones"].append(zone)
        elif scope == "area" and owner >= 0:
            areas[owner]["zones"].append(zone)
        else:
            shared.append(zone)
    for name, values in obs["player_counters"].items():
        for p, v in enumerate(values):
            players[p]["counters"][name] = _plain(v)
    for name, values in (st.acounters or {}).items():
        for a, v in enumerate(values):
            if a < len(areas):
                areas[a]["counters"][name] = _plain(v)
    view = {
        "ruleset": prog.name,
        "seat": seat,
        "round": obs["round"],
        "turn": obs["active"],
        "phase": obs["phase"],
        "counters": {k: _plain(v) for k, v in obs["counters"].items()},
        "players": players,
        "shared": shared,
        "areas": [a for a in areas if a["zones"] or a["counters"]],
        "over": game.is_terminal(),
        "winners": game.winners if game.is_terminal() else [],
        "to_move": game.current_player(),
        "decision": None,
    }
    if seat >= 0 and game.current_player() == seat:
        view["decision"] = {"prompt": game.prompt(), "options": game.action_labels()}
    return view


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


def _card(game: GameState, obj: int, texts: dict[str, str] | None) -> dict:
    st = game.st
    prog = st.g.prog
    card = prog.cards[st.obj_card[obj]]
    stats = {}
    for prop, base in card.props.items():
        if isinstance(base, bool) or not isinstance(base, int):
            continue
        value = prog.read_prop(st, obj, prop)
        stats[prop] = _plain(value)
    out = {"id": obj, "name": card.name, "kind": card.kind, "stats": stats}
    if texts and card.name in texts:
        out["text"] = texts[card.name]
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
