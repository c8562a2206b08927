"""`simulate --report out.html`: one page to look at after a balance run.

The page is self-contained (charts are inline SVG drawn by matplotlib, styles and the few lines
of script that sort and filter the card table inline, nothing fetched), so it opens from a mail
attachment or a CI artifact as well as from disk. It shows what the run ran (the card and deck
files with their SHA-256, agents, settings, madang version, the ruleset's fingerprints, the seed),
the pairing matrix as a heat map, the agents compared when the seats had different ones, each
card's improvement when drawn (or played) within its decks with 95% intervals, and the histogram
of game lengths.
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
    from .cardstats import ranking

    key = ranking(cards)
    shown = [c for c in cards if c[key]["value"] is not None][:MAX_CARDS]
    if not shown:
        return ""
    fig, ax = plt.subplots(figsize=(8, 0.28 * len(shown) + 1.2))
    ys = list(range(len(shown)))[::-1]
    values = [100 * c[key]["value"] for c in shown]
    lo = [v - 100 * c[key]["ci95"][0] for v, c in zip(values, shown)]
    hi = [100 * c[key]["ci95"][1] - v for v, c in zip(values, shown)]
    colors = ["#bbbbbb" if c[key]["few"] else "#4c78a8" for c in shown]
    ax.barh(ys, values, xerr=[lo, hi], color=colors, ecolor="#333333", capsize=2)
    ax.set_yticks(ys, [c["name"] for c in shown], fontsize=8)
    ax.axvline(0, color="#999999", linewidth=0.8, linestyle="--")
    ax.set_xlim(-100, 100)
    event = "drawn" if key == "iwd" else "played"
    ax.set_xlabel(f"improvement in win rate when {event}, within each deck and seat, in points "
                  "(95% interval; grey: few games)")  # fmt: skip
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


def _diff(fig: dict) -> tuple[str, str]:
    """A difference as shown, and the number it sorts by."""
    if fig["value"] is None:
        return "–", ""
    lo, hi = fig["ci95"]
    star = " *" if fig["few"] else ""
    return f"{100 * fig['value']:+.1f} ({100 * lo:+.1f}…{100 * hi:+.1f}){star}", str(fig["value"])


def _rate_cell(r: dict) -> tuple[str, str]:
    if r["rate"] is None:
        return f"– of {r['games']}", ""
    lo, hi = r["ci95"]
    star = " *" if r["few"] else ""
    return f"{_pct(r['rate'])} of {r['games']} ({_pct(lo)}–{_pct(hi)}){star}", str(r["rate"])


def _card_table(cards: list[dict]) -> str:
    """Every card, and under it one row per deck holding it; sortable by any column, filtered
    by deck, kind and cost (the script at the end of the page)."""
    from .cardstats import ranking

    key = ranking(cards)
    event = "drawn" if key == "iwd" else "played"
    other = "iwp" if key == "iwd" else "iwd"
    head = ["card", "deck", "kind", "cost", "seat-games", f"win {event}", f"win not {event}",
            f"{key.upper()} points (95% CI)", f"{other.upper()} points (95% CI)"]  # fmt: skip
    both = any(c[other]["value"] is not None for c in cards)  # else the column says nothing
    if not both:
        head.pop()
    rows = []
    for c in cards:
        cost = "" if c.get("cost") is None else str(c["cost"])
        for fig, deck in [(c, "all")] + [(d, d["deck"]) for d in c["per_deck"]]:
            cells = [(c["name"], c["name"]), (deck, deck), (c.get("kind") or "", c.get("kind") or ""),
                     (cost, cost),
                     (str(fig["in_deck"]["games"]), str(fig["in_deck"]["games"])),
                     _rate_cell(fig[event]), _rate_cell(fig["not_" + event]),
                     _diff(fig[key])] + ([_diff(fig[other])] if both else [])  # fmt: skip
            cls = "all" if fig is c else "deck"
            rows.append(
                f'<tr class="{cls}" data-deck="{html.escape(str(deck))}" '
                f'data-decks="{html.escape(" ".join(c["decks"]))}" '
                f'data-kind="{html.escape(c.get("kind") or "")}" '
                f'data-cost="{html.escape(cost)}">'
                + "".join(f'<td data-v="{html.escape(v)}">{html.escape(t)}</td>' for t, v in cells)
                + "</tr>"
            )
    decks = sorted({d for c in cards for d in c["decks"]})
    kinds = sorted({c.get("kind") or "" for c in cards} - {""})
    costs = sorted({c["cost"] for c in cards if c.get("cost") is not None})

    def select(name: str, values) -> str:
        opts = "".join(f"<option>{html.escape(str(v))}</option>" for v in values)
        return f'<label>{name} <select id="f-{name}"><option value="">all</option>{opts}</select></label>'

    filters = (
        '<p class="filters">' + select("deck", decks) + select("kind", kinds)
        + select("cost", costs)
        + ' <label><input type="checkbox" id="f-per-deck"> one row per deck</label></p>'
    )  # fmt: skip
    return (
        filters
        + '<table class="cards" id="card-table"><thead><tr>'
        + "".join(f'<th title="sort">{h}</th>' for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
        + f"<p>* fewer than {_min_games()} seat-games on a side. {key.upper()}: the win rate "
        f"when {event} minus when not, taken within each deck and seat and pooled, so that a "
        "strong deck does not lift its cards. A card's row <i>all</i> pools its decks; "
        "<i>one row per deck</i> (or a deck chosen) shows the card in each deck. Click a "
        "heading to sort.</p>"
    )


def _min_games() -> int:
    from .cardstats import MIN_GAMES

    return MIN_GAMES


SCRIPT = """
(function () {
  var table = document.getElementById("card-table");
  if (!table) return;
  var body = table.tBodies[0], order = {};
  function show() {
    var d = document.getElementById("f-deck").value, k = document.getElementById("f-kind").value,
        c = document.getElementById("f-cost").value,
        per = document.getElementById("f-per-deck").checked;
    Array.prototype.forEach.call(body.rows, function (r) {
      var ok = (!k || r.dataset.kind === k) && (!c || r.dataset.cost === c);
      if (d) ok = ok && r.className === "deck" && r.dataset.deck === d;
      else ok = ok && (per || r.className === "all");
      r.style.display = ok ? "" : "none";
    });
  }
  ["f-deck", "f-kind", "f-cost", "f-per-deck"].forEach(function (id) {
    document.getElementById(id).addEventListener("change", show);
  });
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
    th.addEventListener("click", function () {
      order[i] = -(order[i] || -1);
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[i].dataset.v, y = b.cells[i].dataset.v;
        if (x === "" || y === "") return (x === "") - (y === "");
        var nx = parseFloat(x), ny = parseFloat(y);
        var cmp = isNaN(nx) || isNaN(ny) ? x.localeCompare(y) : nx - ny;
        return order[i] * cmp;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  show();
})();
"""


def agent_table(result: dict) -> list[dict]:
    """When the seats had different agents: each agent's seat-games and wins, per seat and per
    deck (from the pairings), so a run shows how much the agents, not the cards, decide."""
    agents = result.get("agents") or []
    if len(set(agents)) < 2:
        return []
    n = result["finished"]
    out: dict[str, dict] = {}
    for seat, (agent, s) in enumerate(zip(agents, result["seats"])):
        row = out.setdefault(agent, {"agent": agent, "seats": [], "games": 0, "wins": 0,
                                     "by_deck": {}})  # fmt: skip
        row["seats"].append(seat + 1)
        row["games"] += n
        row["wins"] += s["wins"]
    varied = result.get("varied") or []
    for key, p in (result.get("pairings") or {}).items():
        if len(varied) != 1:
            break
        values = key.partition("=")[2].split(",")
        for seat, agent in enumerate(agents):
            if seat < len(values):
                slot = out[agent]["by_deck"].setdefault(values[seat], [0, 0])
                slot[0] += p["games"]
                slot[1] += p["wins"][seat]
    return list(out.values())


def _agents(result: dict) -> str:
    from .simulate import wilson

    rows = agent_table(result)
    if not rows:
        return ""
    decks = sorted({d for r in rows for d in r["by_deck"]})
    head = ["agent", "seats", "win rate (95% CI)"] + [f"deck {d}" for d in decks]
    body = []
    for r in rows:
        lo, hi = wilson(r["wins"], r["games"])
        rate = r["wins"] / r["games"] if r["games"] else None
        cells = [r["agent"], ", ".join(map(str, r["seats"])),
                 f"{_pct(rate)} of {r['games']} ({_pct(lo)}–{_pct(hi)})"]  # fmt: skip
        for d in decks:
            g, w = r["by_deck"].get(d, (0, 0))
            cells.append(f"{_pct(w / g if g else None)} of {g}")
        body.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    return (
        '<section id="agents"><h2>Agents</h2><p>Each agent kept its seat for the whole run: a '
        "difference here mixes the agent with the seat (<code>madang tournament</code> swaps "
        "them). The per-card figures above hold for these agents; other agents may rank cards "
        "otherwise.</p><table><thead><tr>"
        + "".join(f"<th>{html.escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(body)
        + "</tbody></table></section>"
    )


def _inputs(result: dict) -> str:
    """What the run ran, so that a page can be traced to its files."""
    inputs = result.get("inputs") or {}
    files = inputs.get("files") or []
    prints = inputs.get("fingerprints") or {}
    rows = "".join(
        f"<tr><td>{html.escape(f['path'])}</td><td>{html.escape(f['role'])}</td>"
        f"<td><code>{html.escape(f['sha256'] or '–')}</code></td></tr>"
        for f in files
    )
    return (
        '<section id="inputs"><h2>Inputs</h2><dl class="settings">'
        f"<dt>madang</dt><dd>{html.escape(str(inputs.get('madang', '?')))}</dd>"
        f"<dt>ruleset</dt><dd>{html.escape(str(inputs.get('ruleset', result['ruleset'])))}</dd>"
        + "".join(
            f"<dt>fingerprint: {html.escape(k)}</dt><dd><code>{html.escape(v)}</code></dd>"
            for k, v in prints.items()
        )
        + "</dl>"
        + (
            "<table><thead><tr><th>file</th><th>role</th><th>SHA-256</th></tr></thead><tbody>"
            + rows
            + "</tbody></table>"
            if files
            else "<p>No card or deck files: the ruleset's own cards and decks.</p>"
        )
        + "</section>"
    )


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
dl.settings { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.settings dt { font-weight: bold; }
table.cards th { cursor: pointer; } table.cards td { white-space: nowrap; } table.cards tr.all td:first-child { font-weight: bold; }
.filters label { margin-right: 1em; }
"""


def render_report(result: dict) -> str:
    """The page for one `simulate` result (as printed by --format json)."""
    plt = _pyplot()
    title = f"{result['ruleset']}: {result['games']} games"
    settings = {
        "ruleset": result["ruleset"],
        "games": result["games"],
        "seed": result["seed"],
        "agents (seat 1, 2, ...)": ", ".join(result["agents"]),
        "decisions before a game counts as unfinished": result.get("max_decisions"),
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
        _inputs(result),
    ]
    names, rates, games = pairing_matrix(result)
    if names:
        option = result["varied"][0]
        parts += ['<section id="pairings"><h2>Pairings</h2>',
                  "<p>Each cell: seat 1's score against seat 2, and the games played.</p>",
                  _heatmap(plt, names, rates, games, option), "</section>"]  # fmt: skip
    agents = _agents(result)
    if agents:
        parts.append(agents)
    cards = result.get("cards") or []
    if cards:
        parts += ['<section id="cards"><h2>Cards</h2>', _card_bars(plt, cards),
                  _card_table(cards), "</section>"]  # fmt: skip
    lengths = _lengths(plt, result.get("turn_counts") or {})
    if lengths:
        parts += ['<section id="lengths"><h2>Game length</h2>', lengths, "</section>"]
    if cards:
        parts.append(f"<script>{SCRIPT}</script>")  # inline: nothing is fetched
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(path: str, result: dict) -> None:
    from .outputs import atomic_write

    atomic_write(path, render_report(result))
