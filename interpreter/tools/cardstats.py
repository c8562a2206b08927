"""Per-card statistics of a simulation: for each card, the seat-games where it was in the
seat's cards, drawn, played, and how often that seat won.

What "drawn" and "played" mean comes from the ruleset (`decks:` in ruleset.yaml): a card is drawn
once it is seen in one of the `drawn` zones of its owner, and played when one of the `played`
events or actions names it as its first card. Without them, only "in the deck" is counted: the cards a
seat owned at some point of the game.
"""

from __future__ import annotations

import math

from ..language.symbols import OBJECT

Z = 1.96
# Per card: seat-games in deck, won; drawn, won; played, won.
IN, IN_W, DRAWN, DRAWN_W, PLAYED, PLAYED_W = range(6)


class CardWatch(list):
    """A game's log that keeps no entries: it only notes which cards each seat played."""

    def __init__(self, prog, nplayers: int):
        super().__init__()
        spec = prog.meta.get("decks") or {}
        self.prog = prog
        self.played_events = set(spec.get("played") or ())
        self.drawn_zones = set(spec.get("drawn") or ())
        self.owned = [set() for _ in range(nplayers)]
        self.drawn = [set() for _ in range(nplayers)]
        self.played = [set() for _ in range(nplayers)]

    def append(self, entry) -> None:  # the entries of an ordinary log are not kept
        pass

    def on_call(self, st, verb, env) -> None:
        if verb.name not in self.played_events:
            return
        for p, t in zip(verb.param_names, verb.param_types):
            if t == OBJECT:
                o = env.get(p)
                if isinstance(o, int) and 0 <= o < len(st.obj_card):
                    owner = st.obj_owner[o]
                    if 0 <= owner < len(self.played):
                        self.played[owner].add(st.g.prog.cards[st.obj_card[o]].name)
                return

    def sample(self, st) -> None:
        """Look at where every card is now (called at each decision and at the end)."""
        cards = st.g.prog.cards
        info = st.g.zone_info
        n = len(self.owned)
        for o, c in enumerate(st.obj_card):
            owner = st.obj_owner[o]
            if not 0 <= owner < n:
                continue
            name = cards[c].name
            self.owned[owner].add(name)
            if self.drawn_zones:
                zname, zowner = info[st.obj_zone[o]]
                if zname in self.drawn_zones and zowner == owner:
                    self.drawn[owner].add(name)

    def tally(self, winners: list[int]) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for p, owned in enumerate(self.owned):
            won = 1 if p in winners else 0
            for name in owned | self.played[p]:
                row = out.setdefault(name, [0] * 6)
                row[IN] += 1
                row[IN_W] += won
                if name in self.drawn[p] or name in self.played[p]:
                    row[DRAWN] += 1
                    row[DRAWN_W] += won
                if name in self.played[p]:
                    row[PLAYED] += 1
                    row[PLAYED_W] += won
        return out


def merge(into: dict[str, list[int]], more: dict[str, list[int]]) -> None:
    for name, row in more.items():
        mine = into.setdefault(name, [0] * 6)
        for i, v in enumerate(row):
            mine[i] += v


def _rate(wins: int, games: int) -> dict:
    from .intervals import wilson

    return {"games": games, "wins": wins, "rate": round(wins / games, 4) if games else None,
            "ci95": list(wilson(wins, games))}  # fmt: skip


def games_for(rate: float | None, half_width: float = 0.02) -> int | None:
    """Seat-games that would make a 95% interval around `rate` ±`half_width` wide."""
    if rate is None:
        return None
    p = min(max(rate, 0.05), 0.95)
    return math.ceil(Z * Z * p * (1 - p) / (half_width * half_width))


def report(by_card: dict[str, list[int]], kinds: dict[str, str] | None = None) -> list[dict]:
    """One object per card, the cards that win most when played first."""
    out = []
    for name, r in by_card.items():
        played = _rate(r[PLAYED_W], r[PLAYED])
        row = {
            "name": name,
            "in_deck": _rate(r[IN_W], r[IN]),
            "drawn": _rate(r[DRAWN_W], r[DRAWN]),
            "not_drawn": _rate(r[IN_W] - r[DRAWN_W], r[IN] - r[DRAWN]),
            "played": played,
            "not_played": _rate(r[IN_W] - r[PLAYED_W], r[IN] - r[PLAYED]),
        }
        if kinds:
            row["kind"] = kinds.get(name)
        basis = played if r[PLAYED] else row["in_deck"]
        row["games_for_2pct"] = games_for(basis["rate"])
        out.append(row)
    key = "played" if any(r[PLAYED] for r in by_card.values()) else "in_deck"
    out.sort(key=lambda row: (-(row[key]["rate"] or 0), row["name"]))
    return out


def _cell(text: str, width: int) -> str:
    """`text` cut and padded to `width` terminal columns (a CJK letter takes two)."""
    from rich.cells import cell_len, set_cell_size

    return set_cell_size(text, width) if cell_len(text) != width else text


def render(rows: list[dict], limit: int | None = None) -> list[str]:
    """The per-card table as text lines."""

    def pct(x):
        return "   –  " if x is None else f"{100 * x:5.1f}%"

    lines = [
        f"  {'card':<24} {'in deck':>8} {'drawn':>7} {'played':>7} {'win played':>11} "
        f"{'not played':>11} {'95% CI played':>16} {'games for ±2%':>14}"
    ]
    for row in rows[:limit]:
        p, q = row["played"], row["not_played"]
        lo, hi = p["ci95"]
        ci = f"{100 * lo:4.1f}–{100 * hi:4.1f}%" if p["games"] else "–"
        lines.append(
            f"  {_cell(row['name'], 24)} {row['in_deck']['games']:>8} {row['drawn']['games']:>7} "
            f"{p['games']:>7} {pct(p['rate']):>11} {pct(q['rate']):>11} {ci:>16} "
            f"{row['games_for_2pct'] or '–':>14}"
        )
    return lines
