"""The table as a seat sees it, in the terminal: one block per player with its counters and
zones, the shared zones and the board's areas; each card with its stats (modified values) and
keyword marks, as the ruleset's view declares them (tools/view.py).

Drawn with rich, from the same `seat_view` the browser draws, so the terminal and the browser
never disagree about what a seat may see. Colours only on a terminal (rich decides).
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from .seatview import card_texts, seat_view


def card_line(card: dict) -> Text:
    """`NAME cost 3 · attack 2 [mark, mark]`: the stats and marks its view declares."""
    t = Text(card.get("title") or card.get("name") or "?", style="bold")
    stats = card.get("stats") or {}
    if stats:
        t.append(" " + " · ".join(f"{k} {_value(v)}" for k, v in stats.items()), style="cyan")
    badges = card.get("badges") or []
    if badges:
        t.append(f" [{', '.join(map(str, badges))}]", style="magenta")
    return t


def _value(v) -> str:
    if isinstance(v, bool):
        return "✓" if v else "–"
    if isinstance(v, list):
        return ",".join(map(str, v))
    return str(v)


def _zones(table: Table, zones: list[dict]) -> None:
    for z in zones:
        if "hidden" in z:
            if z["hidden"]:
                known = "".join(f", #{i} {name}" for i, name in z.get("known") or ())
                table.add_row(z["label"], Text(f"{z['hidden']} hidden{known}", style="dim"))
            continue
        cards = z.get("cards") or []
        if not cards:
            continue
        cell = Text()
        for i, c in enumerate(cards):
            if i:
                cell.append("\n")
            cell.append(f"{i + 1}. ", style="dim")
            cell.append_text(card_line(c))
        table.add_row(z["label"], cell)


def board(view: dict) -> Group:
    """The renderable table of one `seat_view`."""
    parts = []
    head = Text(f"round {view['round']}" if view.get("round") else "", style="dim")
    if view.get("phase"):
        head.append(f"  {view['phase']}", style="bold")
    parts.append(head)
    if view.get("counters"):
        parts.append(Text("  ".join(f"{k}: {_value(v)}" for k, v in view["counters"].items())))
    for p in view["players"]:
        me = " (you)" if p["seat"] == view.get("seat") else ""
        turn = " ◀" if p["seat"] == view.get("turn") else ""
        title = p["name"] + me + turn
        counters = "  ".join(f"{k} {_value(v)}" for k, v in p["counters"].items())
        t = Table(title=f"{title}   {counters}".rstrip(), title_justify="left", show_header=False,
                  expand=False, box=None, padding=(0, 1))  # fmt: skip
        t.add_column(style="green", no_wrap=True)
        t.add_column()
        _zones(t, p["zones"])
        parts.append(t)
    if view.get("shared"):
        t = Table(title="table", title_justify="left", show_header=False, box=None, padding=(0, 1))
        t.add_column(style="green", no_wrap=True)
        t.add_column()
        _zones(t, view["shared"])
        if t.row_count:
            parts.append(t)
    for a in view.get("areas") or []:
        t = Table(title=a["name"], title_justify="left", show_header=False, box=None,
                  padding=(0, 1))  # fmt: skip
        t.add_column(style="green", no_wrap=True)
        t.add_column()
        for k, v in a["counters"].items():
            t.add_row(k, _value(v))
        _zones(t, a["zones"])
        if t.row_count:
            parts.append(t)
    return Group(*parts)


def print_board(game, seat: int, out: TextIO, lang: str | None = None) -> None:
    console = Console(file=out, highlight=False, soft_wrap=False)
    console.print(board(seat_view(game, seat, lang=lang)))


def card_info(game, seat: int, name: str, lang: str | None = None) -> str | None:
    """`show NAME`: the stats and text of a card the seat can see (or of any card by its name,
    whose printed text is public)."""
    view = seat_view(game, seat, lang=lang)
    texts = card_texts(game.st.g.prog)
    wanted = name.strip().lower()
    cards = [
        c
        for group in [*view["players"], {"zones": view["shared"]}, *view.get("areas", [])]
        for z in group["zones"]
        for c in z.get("cards") or []
    ]
    prog = game.st.g.prog
    for c in cards:
        if wanted in (str(c.get("name", "")).lower(), str(c.get("title", "")).lower()):
            text = texts.get(c["name"]) or ""
            out = card_line(c).plain + (f"\n{text}" if text.strip() else "")
            return out + _keywords(prog, c["name"], lang)
    for card, text in texts.items():  # a card not in sight: its printed text only
        if card.lower() == wanted:
            return card + (f"\n{text}" if text.strip() else "") + _keywords(prog, card, lang)
    return None


def _keywords(prog, name: str, lang: str | None) -> str:
    """One line per printed keyword of the card: its name, declaration and what it does."""
    from .keyworddocs import keyword_doc
    from .view import View

    card = next((c for c in prog.cards if c.name == name), None)
    if card is None or not card.keywords:
        return ""
    view = View.of(prog, lang)
    out = []
    for kw in card.keywords:
        doc = keyword_doc(prog, kw)
        if doc is None:
            continue
        decl, why = doc
        out.append(f"  {view.label(kw)}: {why or decl}" + (f"  ({decl})" if why else ""))
    return "\n" + "\n".join(out) if out else ""
