"""Per-card statistics of a simulation that separate a card from the deck that holds it.

For each card and each seat-game of a seat that held it: was it drawn, was it played, did that
seat win. What "drawn" and "played" mean comes from the ruleset (`decks:` in ruleset.yaml): a
card is drawn once it is seen in one of the `drawn` zones of its owner, and played when one of the `played` events or actions names it
as its first card.

Pooled over every deck, a card's win rate mostly measures its deck: the cards of the strongest
deck fill the top of the table. So, as 17lands does for drafts, the figure that ranks cards is the
*improvement when drawn* (`iwd`): the win rate of the games where the card was drawn minus that
of the games where it was not, computed within each (deck, seat) and pooled with the weights
n1·n0/(n1+n0) of a Mantel-Haenszel risk difference. A deck's strength cancels out of each
difference; what is left is what drawing the card changed. The same for "played" (`iwp`).
Every rate carries its games and its 95% interval, and a figure resting on fewer than MIN_GAMES
games on either side says so (`few`).
"""

from __future__ import annotations

import math

from ..language.symbols import OBJECT

Z = 1.96
MIN_GAMES = 30  # fewer seat-games than this on either side of a difference: `few`
# Per (card, deck, seat): seat-games in deck, won; drawn, won; played, won.
IN, IN_W, DRAWN, DRAWN_W, PLAYED, PLAYED_W = range(6)
Key = tuple  # (card name, deck name or None, seat)


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

    def tally(self, winners: list[int], decks: list | None = None) -> dict[Key, list[int]]:
        """Counts per (card, deck of the seat, seat) for this game; `decks[p]` names seat p's."""
        out: dict[Key, list[int]] = {}
        for p, owned in enumerate(self.owned):
            won = 1 if p in winners else 0
            deck = None if not decks or p >= len(decks) else decks[p]
            for name in owned | self.played[p]:
                row = out.setdefault((name, deck, p), [0] * 6)
                row[IN] += 1
                row[IN_W] += won
                if name in self.drawn[p] or name in self.played[p]:
                    row[DRAWN] += 1
                    row[DRAWN_W] += won
                if name in self.played[p]:
                    row[PLAYED] += 1
                    row[PLAYED_W] += won
        return out


def merge(into: dict[Key, list[int]], more: dict[Key, list[int]]) -> None:
    for key, row in more.items():
        mine = into.setdefault(key, [0] * 6)
        for i, v in enumerate(row):
            mine[i] += v


def _rate(wins: int, games: int) -> dict:
    from .intervals import wilson

    return {"games": games, "wins": wins, "rate": round(wins / games, 4) if games else None,
            "ci95": list(wilson(wins, games)), "few": games < MIN_GAMES}  # fmt: skip


def games_for(rate: float | None, half_width: float = 0.02) -> int | None:
    """Seat-games that would make a 95% interval around `rate` ±`half_width` wide."""
    if rate is None:
        return None
    p = min(max(rate, 0.05), 0.95)
    return math.ceil(Z * Z * p * (1 - p) / (half_width * half_width))


def improvement(strata: list[tuple[int, int, int, int]]) -> dict:
    """The pooled difference of win rates (with the event minus without) over strata of
    (games with, wins with, games without, wins without), each weighted n1·n0/(n1+n0), with its
    95% interval. The variance of each stratum's difference uses (k+1)/(n+2) for the rates, so
    that a stratum of all wins still has some."""
    total = num = var = 0.0
    n1s = n0s = 0
    for n1, k1, n0, k0 in strata:
        n1s += n1
        n0s += n0
        if n1 == 0 or n0 == 0:
            continue  # the event happened in every game of this deck and seat, or in none
        w = n1 * n0 / (n1 + n0)
        p1, p0 = (k1 + 1) / (n1 + 2), (k0 + 1) / (n0 + 2)
        total += w
        num += w * (k1 / n1 - k0 / n0)
        var += w * w * (p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)
    used1 = sum(n1 for n1, _, n0, _ in strata if n1 and n0)
    used0 = sum(n0 for n1, _, n0, _ in strata if n1 and n0)
    out = {"value": None, "ci95": None, "with_games": n1s, "without_games": n0s,
           "compared": [used1, used0], "few": min(used1, used0) < MIN_GAMES}  # fmt: skip
    if total:
        d = num / total
        half = Z * math.sqrt(var) / total
        out["value"] = round(d, 4)
        out["ci95"] = [round(max(-1.0, d - half), 4), round(min(1.0, d + half), 4)]
    return out


def _figures(rows: list[tuple[Key, list[int]]]) -> dict:
    """Rates and improvements of a group of (card, deck, seat) rows; strata are (deck, seat)."""
    s = [sum(r[i] for _, r in rows) for i in range(6)]
    drawn = [(r[DRAWN], r[DRAWN_W], r[IN] - r[DRAWN], r[IN_W] - r[DRAWN_W]) for _, r in rows]
    played = [(r[PLAYED], r[PLAYED_W], r[IN] - r[PLAYED], r[IN_W] - r[PLAYED_W]) for _, r in rows]
    return {
        "in_deck": _rate(s[IN_W], s[IN]),
        "drawn": _rate(s[DRAWN_W], s[DRAWN]),
        "not_drawn": _rate(s[IN_W] - s[DRAWN_W], s[IN] - s[DRAWN]),
        "played": _rate(s[PLAYED_W], s[PLAYED]),
        "not_played": _rate(s[IN_W] - s[PLAYED_W], s[IN] - s[PLAYED]),
        "iwd": improvement(drawn),
        "iwp": improvement(played),
    }


def report(by_card: dict[Key, list[int]], kinds: dict[str, str] | None = None,
           costs: dict[str, object] | None = None) -> list[dict]:  # fmt: skip
    """One object per card, figures pooled with the deck removed and `per_deck`; sorted by the
    deck-adjusted improvement when drawn (when played where drawing separates no games)."""
    grouped: dict[str, list[tuple[Key, list[int]]]] = {}
    for key, r in by_card.items():
        grouped.setdefault(key[0], []).append((key, r))
    out = []
    for name, rows in grouped.items():
        decks: dict[str, list] = {}
        for key, r in rows:
            decks.setdefault("" if key[1] is None else str(key[1]), []).append((key, r))
        row = {"name": name, **_figures(rows)}
        row["decks"] = sorted(d for d in decks if d)
        row["per_deck"] = [
            {"deck": d or None, **_figures(rs)} for d, rs in sorted(decks.items()) if d
        ]
        if kinds:
            row["kind"] = kinds.get(name)
        if costs:
            row["cost"] = costs.get(name)
        basis = row["played"] if row["played"]["games"] else row["in_deck"]
        row["games_for_2pct"] = games_for(basis["rate"])
        out.append(row)
    key = ranking(out)
    out.sort(key=lambda row: (row[key]["value"] is None, row[key]["few"],
                              -(row[key]["value"] or 0), row["name"]))  # fmt: skip
    return out


def fit_models(by_card: dict[Key, list[int]], rows: list[dict]) -> None:
    """Give each row a `model`: the effect of the ranking event (drawn, or played) on winning in
    a logistic regression with one intercept per (deck, seat), fitted to the grouped counts;
    as log-odds and odds ratio with 95% intervals. Needs numpy and scipy (the `report` extra)."""
    key = ranking(rows)
    at, at_w = (DRAWN, DRAWN_W) if key == "iwd" else (PLAYED, PLAYED_W)
    strata: dict[str, list] = {}
    for k, r in by_card.items():
        strata.setdefault(k[0], []).append((r[at], r[at_w], r[IN] - r[at], r[IN_W] - r[at_w]))
    for row in rows:
        row["model"] = logit_effect(strata.get(row["name"], []))
        row["model"]["event"] = "drawn" if key == "iwd" else "played"


def logit_effect(strata: list[tuple[int, int, int, int]]) -> dict:
    """Newton's method on logit P(win) = a_stratum + b·event over grouped counts; b's interval
    from the inverse Hessian. A small ridge keeps a stratum of all wins finite."""
    import numpy as np
    from scipy.special import expit

    used = [s for s in strata if s[0] and s[2]]
    if not used:
        return {"effect": None, "ci95": None, "odds_ratio": None}
    m = len(used)
    x = np.zeros((2 * m, m + 1))
    n = np.zeros(2 * m)
    k = np.zeros(2 * m)
    for i, (n1, k1, n0, k0) in enumerate(used):
        x[2 * i, i] = x[2 * i + 1, i] = 1.0
        x[2 * i, m] = 1.0
        n[2 * i], k[2 * i], n[2 * i + 1], k[2 * i + 1] = n1, k1, n0, k0
    beta = np.zeros(m + 1)
    ridge = 1e-3 * np.eye(m + 1)
    for _ in range(50):
        p = expit(x @ beta)
        grad = x.T @ (k - n * p) - ridge @ beta
        hess = (x * (n * p * (1 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.max(np.abs(step)) < 1e-9:
            break
    p = expit(x @ beta)
    hess = (x * (n * p * (1 - p))[:, None]).T @ x + ridge
    se = float(np.sqrt(np.linalg.inv(hess)[m, m]))
    b = float(beta[m])
    lo, hi = b - Z * se, b + Z * se
    return {"effect": round(b, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "odds_ratio": [round(math.exp(v), 4) for v in (b, lo, hi)]}  # fmt: skip


def ranking(rows: list[dict]) -> str:
    """`iwd` when drawing some card separates enough games from others, else `iwp`: in a game
    whose hand holds every card from the start, every card is drawn in every
    game, and only playing it tells games apart."""
    return "iwd" if any(not r["iwd"]["few"] for r in rows) else "iwp"


def _cell(text: str, width: int) -> str:
    """`text` cut and padded to `width` terminal columns (a CJK letter takes two)."""
    from rich.cells import cell_len, set_cell_size

    return set_cell_size(text, width) if cell_len(text) != width else text


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _diff(fig: dict) -> str:
    """`+5.2 (+1.0…+9.4)*`: points, the 95% interval, a star when it rests on few games."""
    if fig["value"] is None:
        return "–"
    lo, hi = fig["ci95"]
    star = "*" if fig["few"] else ""
    return f"{100 * fig['value']:+.1f} ({100 * lo:+.1f}…{100 * hi:+.1f}){star}"


def render(rows: list[dict], limit: int | None = None, per_deck: bool = True) -> list[str]:
    """The per-card table as text lines: the deck-adjusted figure first, then one line per deck
    for a card that several decks hold."""
    key = ranking(rows)
    event = "drawn" if key == "iwd" else "played"
    head = "IWD" if key == "iwd" else "IWP"
    lines = [
        f"  {'card':<24} {'games':>6} {event:>7} {'win ' + event:>11} {'not ' + event:>15} "
        f"{head + ' points (95% CI)':>27}"
    ]

    def line(label: str, fig: dict) -> str:
        w, wo = fig[event], fig["not_" + event]
        return (
            f"  {_cell(label, 24)} {fig['in_deck']['games']:>6} {w['games']:>7} "
            f"{_pct(w['rate']):>11} {_pct(wo['rate']) + ' of ' + str(wo['games']):>15} "
            f"{_diff(fig[key]):>27}"
        )

    for row in rows[:limit]:
        lines.append(line(row["name"], row))
        decks = row["per_deck"]
        if per_deck and len(decks) > 1 and any(d[key]["value"] is not None for d in decks):
            lines += [line(f"  in {d['deck']}", d) for d in decks]
    return lines


__all__ = ["CardWatch", "merge", "report", "render", "improvement", "ranking", "fit_models",
           "logit_effect", "MIN_GAMES"]  # fmt: skip
