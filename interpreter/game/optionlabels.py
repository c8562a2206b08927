"""The options of a decision as text that names each one's object: the one labelling the API
(`action_labels()`), the adapters, the log, the terminal and the browser share, spelt in the
language asked for.

An option is a row of slots: fixed words (an action's name, a number, a zone) and objects.
Each object is first named by its card; when two options of one decision still read the same
(two Knights, one on each side), the objects that tell them apart are named with their owner,
then their place, then their position in it: `your Knight`, `enemy Knight (top 1)`,
`your 기사 (hand 3)`. Only what is public is added: an owner, a zone, a position. A card in
an opponent's hidden zone is named by its place alone (`enemy card (hand 3)`), never by its
name. Options that are truly the same (a value offered twice) get ` (2)`, ` (3)`.

Owner words are relative to the seat deciding (the API's labels are always the decider's);
narration rewrites them for other seats (tools/narration.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..runtime.seen import object_seers

DONE = "__done__"

OWNER_WORDS = {
    "en": {"your": "your", "enemy": "enemy", "of": "P{p}'s", "card": "card"},
    "ko": {"your": "내", "enemy": "상대", "of": "P{p}의", "card": "카드"},
}


@dataclass(frozen=True)
class Spelling:
    """How the slots are spelt: `word` for the rules' names (actions, zones, areas, texts),
    `card` for card names, `lang` for the owner words. The defaults are the stable labels."""

    word: Callable[[str], str] = str
    card: Callable[[str], str] = str
    lang: str = "en"
    relative_zones: bool = False  # `your hand` for people; `hand#1` in the stable labels

    def owner(self, key: str, p: int = 0) -> str:
        words = OWNER_WORDS.get(self.lang, OWNER_WORDS["en"])
        return words[key].format(p=p + 1)


STABLE = Spelling()


def option_labels(st, spelling: Spelling = STABLE) -> list[str]:
    """The pending decision's options, each naming its object well enough to tell it apart."""
    d = st.pending
    if d is None:
        return []
    rows = [_slots(st, d, v) for v in d.values]
    texts = [_render(st, d.player, row, spelling, None, 0) for row in rows]
    if len(set(texts)) < len(texts):
        _tell_apart(st, d.player, rows, texts, spelling)
    if len(set(texts)) < len(texts):
        texts = _numbered(texts)
    return texts


def plain_labels(st, spelling: Spelling = STABLE) -> list[str]:
    """Each option named by its cards alone (two copies read alike): what a script may write
    for the first of options that differ only in which copy they mean."""
    d = st.pending
    if d is None:
        return []
    return [_render(st, d.player, _slots(st, d, v), spelling, None, 0) for v in d.values]


_kept: tuple = (None, None, [])  # (state, decision, labels): the last labels made


def decision_labels(st) -> list[str]:
    """The stable labels of the pending decision (for the API, scripts and logs), made only
    when asked for: random play and search never build them. The last ones made are kept for
    as long as the same state waits on the same decision (the engine keeps none of this)."""
    global _kept
    d = st.pending
    if d is None:
        return []
    k = _kept
    if k[0] is st and k[1] is d:
        return k[2]
    labels = option_labels(st)
    _kept = (st, d, labels)
    return labels


def find(st, text: str) -> int | None:
    """The option a text names: its label, else the first option that reads so plainly."""
    labels = decision_labels(st)
    if text in labels:
        return labels.index(text)
    plain = plain_labels(st)
    return plain.index(text) if text in plain else None


def option_targets(st) -> list[dict]:
    """What each option names on the table, for choosing by pointing at it: its objects,
    zones (by label, `top#1`) and areas."""
    d = st.pending
    if d is None:
        return []
    out = []
    for v in d.values:
        row = _slots(st, d, v)
        objects = [x for k, x in row if k == "o"] + [
            x[1] for k, x in row if k == "a" and x[1] is not None
        ]
        zones = [st.g.zone_label(x) for k, x in row if k == "z"]
        areas = [st.g.areas[x] for k, x in row if k == "r"]
        out.append({"objects": objects, "zones": zones, "areas": areas})
    return out


def _slots(st, d, v) -> list:
    """An option as slots: ('w', word) | ('t', fixed text) | ('o', object) | ('z', zone) |
    ('r', area) | ('a', (action name, the card it is on or None))."""
    if d.kind == "window":
        if isinstance(v, str):
            return [("t", "pass")]
        act = st.g.prog.actions[v[0]]
        this = v[2] if len(v) > 2 and isinstance(v[2], int) and not isinstance(v[2], bool) else None
        row: list = [("a", (act.name, this))]
        for a, t in zip(v[1], act.param_types):
            row.extend(_value(st, a, t))
        return row
    if v == DONE:
        return [("t", "done")]
    return _value(st, v, d.type)


def _value(st, v, t) -> list:
    if v is None:
        return [("t", "none")]
    if t == "trigger":  # [listener id, source]: a trigger waiting to be ordered
        lst = st.g.prog.listener_by_id[v[0]]
        head = [("o", v[1]), ("t", ":")] if v[1] is not None else []
        return [*head, ("w", lst.short)]
    if isinstance(v, bool):
        return [("t", "true" if v else "false")]
    if isinstance(v, list):
        inner = t[1] if isinstance(t, tuple) else "any"
        out: list = [("t", "[")]
        for i, x in enumerate(v):
            if i:
                out.append(("t", ","))
            out.extend(_value(st, x, inner))
        return [*out, ("t", "]")]
    if t == "object" and isinstance(v, int):
        return [("o", v)]
    if t == "player" and isinstance(v, int):
        return [("t", f"P{v + 1}")]
    if t == "zone" and isinstance(v, int):
        return [("z", v)]
    if t == "area" and isinstance(v, int):
        return [("r", v)]
    return [("w", str(v))]


def _render(st, seat: int, row: list, sp: Spelling, marked: set | None, level: int) -> str:
    """A row as text; objects in `marked` are named at `level` (1 owner, 2 place, 3 position)."""
    out: list[str] = []
    for kind, v in row:
        if kind == "o":
            out.append(_object(st, seat, v, sp, level if marked and v in marked else 0))
        elif kind == "a":  # an action, told apart by the card it is on when needed
            name, this = v
            if this is None or not marked or this not in marked:
                out.append(sp.word(name))
            else:
                if st.g.prog.cards[st.obj_card[this]].name == name:
                    out.append(_object(st, seat, this, sp, level))
                else:  # `ability (your hand 2)`: the card it is on, by owner and place
                    out.append(f"{sp.word(name)} ({_object(st, seat, this, sp, level, False)})")
        elif kind == "z":
            out.append(_zone(st, seat, v, sp))
        elif kind == "r":
            out.append(sp.word(st.g.areas[v]))
        elif kind == "w":
            out.append(sp.word(v))
        else:
            out.append(v)
    text = " ".join(out)
    for a, b in ((" :", ":"), ("[ ", "["), (" ]", "]"), (" ,", ",")):
        text = text.replace(a, b)
    return text


def _zone(st, seat: int, z: int, sp: Spelling) -> str:
    name, owner = st.g.zone_info[z]
    if owner < 0:
        return sp.word(name)
    if st.g.prog.zones[name].scope == "player":
        if sp.relative_zones:
            who = sp.owner(
                "your" if owner == seat else "enemy" if st.g.nplayers == 2 else "of", owner
            )
            return f"{who} {sp.word(name)}"
        return f"{sp.word(name)}#{owner + 1}"
    return f"{sp.word(name)}@{sp.word(st.g.areas[owner])}"


def _object(st, seat: int, o: int, sp: Spelling, level: int, named: bool = True) -> str:
    """An object at a level: its name; its owner's word; its place; its position there. Not
    `named`: the owner and place only (the card an action of that name is on)."""
    g = st.g
    secret = _secret(st, seat, o)
    name = sp.owner("card") if secret else sp.card(g.prog.cards[st.obj_card[o]].name)
    if not named:
        name = ""
    if level == 0 and not secret:
        return name
    owner = st.obj_owner[o]
    if owner is not None and owner >= 0:
        who = (
            sp.owner("your")
            if owner == seat
            else sp.owner("enemy")
            if g.nplayers == 2
            else sp.owner("of", owner)
        )
        name = f"{who} {name}".strip()
    if level < 2 and not secret:
        return name
    z = st.obj_zone[o]
    if z is None or z < 0:
        return name
    zname, zowner = g.zone_info[z]
    place = sp.word(zname)
    if zowner >= 0 and g.prog.zones[zname].scope != "player":
        place = f"{sp.word(g.areas[zowner])} {place}"
    elif zowner >= 0 and zowner != owner:
        place = f"P{zowner + 1} {place}"
    if level >= 3 or secret:
        place += f" {st.zones[z].index(o) + 1}"
    return f"{name} ({place})" if named else f"{name} {place}".strip()


def _secret(st, seat: int, o: int) -> bool:
    """A card in another player's zone that only its owner sees, not shown to `seat`."""
    z = st.obj_zone[o]
    if z is None or z < 0:
        return False
    name, owner = st.g.zone_info[z]
    if owner < 0 or owner == seat or st.g.prog.zones[name].scope != "player":
        return False
    seers = object_seers(st, o)
    return seers is not None and seat not in seers


def _tell_apart(st, seat: int, rows: list, texts: list[str], sp: Spelling) -> None:
    """Options reading alike get their differing objects named more fully, the least that
    tells the group apart (the same level for the whole group)."""
    groups: dict[str, list[int]] = {}
    for i, t in enumerate(texts):
        groups.setdefault(t, []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        marked = _differing(rows, members)
        if not marked:
            continue
        for level in (1, 2, 3):
            new = [_render(st, seat, rows[i], sp, marked, level) for i in members]
            if len(set(new)) == len(new) or level == 3:
                for i, t in zip(members, new):
                    texts[i] = t
                break


def _differing(rows: list, members: list[int]) -> set[int]:
    """The objects in slots where the members' options name different objects."""
    width = {len(rows[i]) for i in members}
    out: set[int] = set()
    if len(width) != 1:
        return {v for i in members for k, v in rows[i] if k == "o"} | {
            v[1] for i in members for k, v in rows[i] if k == "a" and v[1] is not None
        }
    for col in range(width.pop()):
        slots = [rows[i][col] for i in members]
        if slots[0][0] == "o" and len({v for _k, v in slots}) > 1:
            out.update(v for _k, v in slots)
        if slots[0][0] == "a" and len({v[1] for _k, v in slots}) > 1:
            out.update(v[1] for _k, v in slots if v[1] is not None)
    return out


def _numbered(labels: list[str]) -> list[str]:
    """The same option offered twice: ' (2)', ' (3)'... in offer order."""
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        k = seen.get(lab, 0) + 1
        seen[lab] = k
        out.append(lab if k == 1 else f"{lab} ({k})")
    return out


__all__ = [
    "OWNER_WORDS",
    "STABLE",
    "Spelling",
    "decision_labels",
    "find",
    "option_labels",
    "option_targets",
    "plain_labels",
]
