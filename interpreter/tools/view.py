"""The ruleset's view declarations (`view:` in ruleset.yaml, docs/views.md), read for showing a
game: which zones, counters, properties and keyword marks a player sees, how each is labelled,
and how players and objects are named. The browser (seatview) and the terminal (table) both
show the game through a `View`; what the seat may see at all comes from its observation.

A ruleset without a `view:` section shows every zone and counter and each object's numeric
properties, so that a new ruleset is playable before its author writes a view.
"""

from __future__ import annotations

from ..game import optionlabels
from .narration import Narrator


def _text(value, lang: str) -> str:
    """A label that is a text or texts by language."""
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or next(iter(value.values()), ""))
    return str(value)


class View:
    """One ruleset's view declarations, in one language."""

    _cache: dict = {}

    @classmethod
    def of(cls, prog, lang: str | None = None) -> View:
        lang = lang or (prog.meta.get("language") if prog.meta else None) or "en"
        key = (id(prog), lang)
        v = cls._cache.get(key)
        if v is None or v.prog is not prog:
            if len(cls._cache) > 32:
                cls._cache.clear()
            v = cls._cache[key] = cls(prog, lang)
        return v

    def __init__(self, prog, lang: str):
        self.prog = prog
        self.lang = lang
        self.words = Narrator(prog, lang)
        spec = (prog.meta or {}).get("view")
        self.declared = isinstance(spec, dict)
        spec = spec if self.declared else {}
        canon = getattr(getattr(prog, "syms", None), "canonical", None) or {}
        self.canon = lambda name: canon.get(name, name)
        labels = spec.get("labels") or {}
        self.labels: dict[str, str] = {}
        for lang_labels in (labels.get(lang) or {},):
            for name, text in lang_labels.items():
                self.labels[name] = text
                self.labels[self.canon(name)] = text
        names = lambda xs: [self.canon(x) for x in xs or []]  # noqa: E731
        self.zones = names(spec.get("zones")) if "zones" in spec else list(prog.zones)
        self.counters = names(spec.get("counters")) if self.declared else None
        players = spec.get("players") or {}
        self.player_counters = names(players.get("counters")) if self.declared else None
        self.area_counters = (
            names((spec.get("areas") or {}).get("counters")) if self.declared else None
        )
        self.naming = players.get("name") or {}
        self.kinds = {self.canon(k): v or {} for k, v in (spec.get("kinds") or {}).items()}
        self.marks = names(spec.get("marks"))
        self.spelling = optionlabels.Spelling(
            word=self.label, card=self.card_name, lang=lang, relative_zones=True
        )

    # ------------------------------------------------------------ labels
    def label(self, name: str) -> str:
        """What a zone, counter, property, kind or keyword is called on the table."""
        found = self.labels.get(name) or self.labels.get(self.canon(name))
        if found:
            return found
        word = self.words.word(name)
        # a name without a label is shown as words (`face_up`: face up)
        return word.replace("_", " ") if self.lang == "en" and word.isascii() else word

    def card_name(self, name: str) -> str:
        return self.words.word(name)

    def shows_counter(self, name: str, scope: str) -> bool:
        shown = {"global": self.counters, "player": self.player_counters,
                 "area": self.area_counters}[scope]  # fmt: skip
        return shown is None or name in shown

    def ordered(self, names, scope: str) -> list[str]:
        """The counters of a scope that are shown, in the declared order."""
        shown = {"global": self.counters, "player": self.player_counters,
                 "area": self.area_counters}[scope]  # fmt: skip
        return list(names) if shown is None else [n for n in shown if n in names]

    # ------------------------------------------------------------ players and objects
    def player_name(self, st, p: int) -> str:
        """A player's name: `P1`, or `P1 Red` with the declared name."""
        own = self.player_label(st, p)
        return f"P{p + 1} {own}" if own else f"P{p + 1}"

    def player_label(self, st, p: int) -> str:
        """The declared name of a player (a house, a faction), or ''."""
        names = self.naming.get("names") or {}
        value = None
        named_by = getattr(self.prog, "player_name_of", None)
        if "define" in self.naming and named_by is not None:
            value = named_by(st, p)
        elif "option" in self.naming:
            v = st.g.options.get(self.naming["option"])
            value = v[p] if isinstance(v, list | tuple) and p < len(v) else v
        elif "counter" in self.naming:
            values = st.pcounters.get(self.canon(self.naming["counter"]))
            value = values[p] if values is not None and p < len(values) else None
        if value is None:
            return ""
        text = names.get(value, names.get(str(value)))
        return _text(text, self.lang) if text is not None else str(value)

    def title(self, st, o: int) -> str:
        """How an object is named: its card's name, or the kind's `name:` template."""
        prog = self.prog
        card = prog.cards[st.obj_card[o]]
        template = self.kinds.get(card.kind, {}).get("name")
        name = self.card_name(card.name)
        if not template:
            return name
        owner = st.obj_owner[o]
        who = ""
        if owner is not None and owner >= 0:
            who = self.player_label(st, owner) or f"P{owner + 1}"
        return template.replace("{name}", name).replace("{owner}", who).strip()

    def props(self, kind: str, card) -> list[str]:
        """The properties shown for objects of a kind."""
        if self.declared:
            return [self.canon(p) for p in self.kinds.get(kind, {}).get("show") or []]
        return [
            p
            for p, base in card.props.items()
            if isinstance(base, int) and not isinstance(base, bool)
        ]

    def card(self, st, o: int, visible: set[int]) -> dict:
        """An object as a seat sees it: names, shown properties (modified values with their
        base), badges for true flags and marks."""
        prog = self.prog
        card = prog.cards[st.obj_card[o]]
        stats: dict[str, object] = {}
        base: dict[str, object] = {}
        badges: list[str] = []
        for prop in self.props(card.kind, card):
            if prop not in card.props and prop not in (st.props.get(prop) or {}):
                continue
            value = prog.read_prop(st, o, prop)
            printed = card.props.get(prop)
            label = self.label(prop)
            if isinstance(value, bool):
                if value:
                    badges.append(label)
            elif value is None:
                continue
            elif isinstance(value, int) and _is_object_field(prog, card.kind, prop):
                stats[label] = self.title(st, value) if value in visible else "?"
            elif isinstance(value, list | tuple):
                if value:
                    stats[label] = ", ".join(self.words.text(x) for x in value)
            else:
                stats[label] = value if isinstance(value, int | float) else self.words.text(value)
                if isinstance(value, int) and isinstance(printed, int) and printed != value:
                    base[label] = printed
        for kw in self.marks:
            if prog.has(st, o, kw):
                badges.append(self.label(kw))
        out = {
            "id": o,
            "name": card.name,
            "title": self.title(st, o),
            "kind": self.label(card.kind),
            "stats": stats,
        }
        if base:
            out["base"] = base
        if badges:
            out["badges"] = badges
        return out


def option_labels(game, lang: str | None = None) -> list[str]:
    """The pending decision's options as shown to people: the API's labels (each naming the
    object it means: `cast Bolt enemy Knight`, runtime/optionlabels.py) spelt in the language,
    with the view's words for zones and the cards' own names in that language."""
    st = game.st
    if st.pending is None:
        return []
    view = View.of(st.g.prog, lang)
    spelt = optionlabels.option_labels(st, view.spelling)
    # the respelt labels keep the stable ones apart; if two spellings coincide, the stable one shows
    stable = game.action_labels()
    return spelt if len(set(spelt)) == len(spelt) else stable


def _is_object_field(prog, kind: str, prop: str) -> bool:
    """Whether a property holds an object (`부착대상: card`): shown by that object's name."""
    fsym = getattr(getattr(prog, "syms", None), "fields", {}).get(prop)
    return fsym is not None and getattr(fsym, "type", None) == "object"


__all__ = ["View", "option_labels"]
