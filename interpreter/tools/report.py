"""`simulate --report out.html`: one page to look at after a balance run.

The page is self-contained (charts are inline SVG drawn by matplotlib, styles inline, no script,
nothing fetched), so it opens from a mail attachment or a CI artifact as well as from disk. It
shows the run's settings, the pairing matrix as a heat map, each card's win rate when played with
its 95% interval, and the histogram of game lengths.
"""

from __future__ import annotations

import html
import io
import json

MAX_CARDS = 60  # bars on the per-card chart; the table below it lists every card


def _svg(fig) -> str:
    buf = io.StringIO()
    # no date in the page: the same run writes the same file
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]  # drop the XML prolog and doctype: the SVG goes inline


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # no display: the charts are written, never shown
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "madang"  # the same ids in every run
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: selectable, searchable, small
    plt.rcParams["font.family"] = ["DejaVu Sans", "sans-serif"]
    return plt


def pairing_matrix(result: dict) -> tuple[list[str], list[list[float | None]], list[list[int]]]:
    """For two seats and one per-seat option: rows are seat 1's value, columns seat 2's; each cell
    is seat 1's share of the games won (draws count half). Empty when the run varied nothing."""
    pairs = result.get("pairings") or {}
    varied = result.get("varied") or []
    if len(varied) != 1 or len(result.get("seats") or []) != 2:
        return [], [], []
    cells: dict[tuple[str, str], tuple[float, int]] = {}
    names: list[str] = []
    for key, row in pairs.items():
        _, _, values = key.partition("=")
        a, _, b = values.partition(",")
        for v in (a, b):
            if v not in names:
                names.append(v)
        g = row["games"]
        score = (row["wins"][0] + 0.5 * row["draws"]) / g if g else None
        cells[(a, b)] = (score, g)
    names.sort(key=lambda v: (0, int(v), "") if v.isdigit() else (1, 0, v))
    rates = [[cells.get((a, b), (None, 0))[0] for b in names] for a in names]
    games = [[cells.get((a, b), (None, 0))[1] for b in names] for a in names]
    return names, rates, games


def _heatmap(plt, names, rates, games, option: str) -> str:
    import numpy as np

    data = np.array([[np.nan if r is None else r for r in row] for row in rates], dtype=float)
    size = max(4.0, 0.6 * len(names) + 2)
    fig, ax = plt.subplots(figsize=(size, size * 0.85))
    im = ax.imshow(data, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel(f"seat 2's {option}")
    ax.set_ylabel(f"seat 1's {option}")
    for i in range(len(names)):
        for j in range(len(names)):
            if rates[i][j] is not None:
                ax.text(j, i, f"{100 * rates[i][j]:.0f}%\n{games[i][j]}", ha="center",
                        va="center", fontsize=8)  # fmt: skip
    fig.colorbar(im, ax=ax, label="seat 1's score (wins + half the draws)")
    out = _svg(fig)
    plt.close(fig)
    return out


def _card_bars(plt, cards: list[dict]) -> str:
    key = "played" if any(c["played"]["games"] for c in cards) else "in_deck"
    shown = [c for c in cards if c[key]["games"]][:MAX_CARDS]
    if not shown:
        return ""
    fig, ax = plt.subplots(figsize=(8, 0.28 * len(shown) + 1.2))
    ys = list(range(len(shown)))[::-1]
    rates = [c[key]["rate"] for c in shown]
    lo = [r - c[key]["ci95"][0] for r, c in zip(rates, shown)]
    hi = [c[key]["ci95"][1] - r for r, c in zip(rates, shown)]
    ax.barh(ys, rates, xerr=[lo, hi], color="#4c78a8", ecolor="#333333", capsize=2)
    ax.set_yticks(ys, [c["name"] for c in shown], fontsize=8)
    ax.axvline(0.5, color="#999999", linewidth=0.8, linestyle="--")
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"win rate of the seat when the card was {key.replace('_', ' ')} (95% interval)")
    out = _svg(fig)
    plt.close(fig)
    return out


def _lengths(plt, counts: dict[str, int]) -> str:
    if not counts:
        return ""
    fig, ax = plt.subplots(figsize=(8, 3))
    xs = [int(k) for k in counts]
    ax.bar(xs, list(counts.values()), color="#72b7b2", width=0.9)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    out = _svg(fig)
    plt.close(fig)
    return out


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _card_table(cards: list[dict]) -> str:
    rows = []
    for c in cards:
        p = c["played"]
        lo, hi = p["ci95"]
        rows.append(
            "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
                c["name"], c["in_deck"]["games"], c["drawn"]["games"], p["games"],
                _pct(c["in_deck"]["rate"]), _pct(p["rate"]), _pct(c["not_played"]["rate"]),
                f"{100 * lo:.1f}–{100 * hi:.1f}%" if p["games"] else "–",
                c["games_for_2pct"] or "–",
            )) + "</tr>"
        )  # fmt: skip
    head = ("card", "in deck", "drawn", "played", "win in deck", "win played", "win not played",
            "95% CI played", "seat-games for ±2%")  # fmt: skip
    return (
        '<table class="cards"><thead><tr>'
        + "".join(f"<th>{h}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
dl.settings { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.settings dt { font-weight: bold; }
"""


def render_report(result: dict) -> str:
    """The page for one `simulate` result (as printed by --format json)."""
    plt = _pyplot()
    title = f"{result['ruleset']}: {result['games']} games"
    settings = {
        "ruleset": result["ruleset"],
        "games": result["games"],
        "seed": result["seed"],
        "agents": ", ".join(result["agents"]),
        "options": json.dumps(result.get("options") or {}, ensure_ascii=False),
        "varied per seat": ", ".join(result.get("varied") or []) or "nothing",
        "finished / unfinished / errors": (
            f"{result['finished']} / {result['unfinished']} / {result['error_games']}"
        ),
        "seat win rates": ", ".join(f"P{s['seat']} {_pct(s['rate'])}" for s in result["seats"]),
    }
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        '<section id="settings"><h2>Settings</h2><dl class="settings">',
        *(f"<dt>{html.escape(k)}</dt><dd>{html.escape(str(v))}</dd>" for k, v in settings.items()),
        "</dl></section>",
    ]
    names, rates, games = pairing_matrix(result)
    if names:
        option = result["varied"][0]
        parts += ['<section id="pairings"><h2>Pairings</h2>',
                  "<p>Each cell: seat 1's score against seat 2, and the games played.</p>",
                  _heatmap(plt, names, rates, games, option), "</section>"]  # fmt: skip
    cards = result.get("cards") or []
    if cards:
        parts += ['<section id="cards"><h2>Cards</h2>', _card_bars(plt, cards),
                  _card_table(cards), "</section>"]  # fmt: skip
    lengths = _lengths(plt, result.get("turn_counts") or {})
    if lengths:
        parts += ['<section id="lengths"><h2>Game length</h2>', lengths, "</section>"]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(path: str, result: dict) -> None:
    from .outputs import atomic_write

    atomic_write(path, render_report(result))
