"""A fixed action space per ruleset: the same id means the same move in every state.

`GameState.legal_actions()` numbers the options of the decision at hand, which is what people and
search need; learning code needs ids whose meaning does not depend on the state. An option's id
is computed from what it *is*, never from where it is offered:

- `0`: pass / done;
- a single value: its type's region, then the value's code (a card by its definition, a player
  relative to the one deciding, a number 0..255, an area, a zone), then its *rank*: the options
  that would get the same id are numbered in offer order (the second copy of a card in hand),
  up to `ALIKE` of them;
- an action of a window: the action's region, then the codes of its parameters (mixed radix),
  then the rank (an action of a card's text belongs to that card; its copies differ by rank);
- a text: its place in the ruleset's text table (every string of its language files, `data:`,
  options and cards, sorted);
- anything else (a list, a text, a trigger to order, a number out of range, a rank past `ALIKE`):
  the fallback region, numbered in offer order among such options. Only these ids depend on the
  state; `describe` says which region an id is in.

The layout depends only on the compiled program and the number of players, so it is the same in
every process that loads the same ruleset (see docs/integrations.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime.state import State

ALIKE = 4  # copies of one option told apart by rank
NUMBERS = 256  # numbers 0..255 have ids of their own
FALLBACK = 512  # options without a structured id, per decision
SINGLE_TYPES = ("object", "player", "number", "bool", "area", "zone", "text")
DONE_VALUES = ("done", "__done__")


@dataclass(frozen=True)
class Region:
    name: str
    start: int
    radices: tuple[int, ...]  # sizes of the codes, most significant first (then the rank)

    @property
    def size(self) -> int:
        n = ALIKE
        for r in self.radices:
            n *= r
        return n


class ActionSpace:
    """The id layout of one program for a number of players."""

    def __init__(self, prog, nplayers: int, areas: int):
        self.prog = prog
        self.nplayers = nplayers
        self.texts = text_table(prog)
        self.text_code = {t: i for i, t in enumerate(self.texts)}
        self.domains = {
            "text": max(len(self.texts), 1),
            "object": len(prog.cards),
            "player": nplayers,
            "number": NUMBERS,
            "bool": 2,
            "area": max(areas, 1),
            "zone": self._zone_instances(prog, nplayers, areas),
        }
        self.regions: list[Region] = []
        start = 1  # 0 is pass / done
        self.single: dict[str, Region] = {}
        for t in SINGLE_TYPES:
            region = Region(t, start, (self.domains[t],))
            self.single[t] = region
            self.regions.append(region)
            start += region.size
        self.action: dict[int, Region] = {}
        for act in prog.actions:
            types = [_base(t) for t in act.param_types]
            if all(t in self.domains for t in types):
                radices = tuple(self.domains[t] for t in types)
                region = Region(f"action {act.name}", start, radices)
                self.action[act.id] = region
                self.regions.append(region)
                start += region.size
        self.fallback_start = start
        self.size = start + FALLBACK

    @staticmethod
    def _zone_instances(prog, nplayers: int, areas: int) -> int:
        n = 0
        for z in prog.zones.values():
            n += {"global": 1, "player": nplayers, "area": areas}.get(z.scope, 1)
        return max(n, 1)

    # ------------------------------------------------------------ encoding

    def ids(self, st: State) -> list[int]:
        """The id of each option of the pending decision, in offer order (all distinct)."""
        d = st.pending
        if d is None or st.over:
            return []
        keys = [self._key(st, d, v) for v in d.values]
        out, seen, fallback = [], {}, 0
        for key in keys:
            if key == ("done",):
                out.append(0)
                continue
            rank = seen.get(key, 0)
            seen[key] = rank + 1
            if key is not None and rank < ALIKE:
                region, codes = key
                out.append(region.start + _mixed(codes, region.radices) * ALIKE + rank)
                continue
            if fallback >= FALLBACK:
                raise ValueError(f"more than {FALLBACK} options without a structured action id")
            out.append(self.fallback_start + fallback)
            fallback += 1
        return out

    def _key(self, st: State, d, v):
        if d.kind == "window":
            if isinstance(v, str):
                return ("done",)
            region = self.action.get(v[0])
            if region is None:
                return None
            act = self.prog.actions[v[0]]
            codes = [self._code(st, d.player, x, _base(t)) for x, t in zip(v[1], act.param_types)]
            return None if None in codes else (region, tuple(codes))
        if isinstance(v, str) and v in DONE_VALUES:
            return ("done",)
        t = _base(d.type)
        if t == "any":
            t = "number" if isinstance(v, int) and not isinstance(v, bool) else t
        if isinstance(v, bool):
            t = "bool"
        region = self.single.get(t)
        if region is None:
            return None
        code = self._code(st, d.player, v, t)
        return None if code is None else (region, (code,))

    def _code(self, st: State, decider: int, v, t: str) -> int | None:
        if t == "text":
            return self.text_code.get(v) if isinstance(v, str) else None
        if isinstance(v, list | tuple | dict | str) or v is None:
            return None
        if t == "object":
            return st.obj_card[v] if 0 <= v < len(st.obj_card) else None
        if t == "player":
            return (v - decider) % self.nplayers
        if t == "bool":
            return int(bool(v))
        if t in ("number", "area", "zone"):
            return v if isinstance(v, int) and 0 <= v < self.domains[t] else None
        return None

    # ------------------------------------------------------------ reading ids

    def describe(self, action_id: int) -> str:
        """What an id means, in words (the part that does not depend on the state)."""
        if action_id == 0:
            return "pass / done"
        if action_id >= self.fallback_start:
            return f"fallback option {action_id - self.fallback_start} (offer order)"
        for region in self.regions:
            if region.start <= action_id < region.start + region.size:
                rest, rank = divmod(action_id - region.start, ALIKE)
                codes = _unmixed(rest, region.radices)
                return f"{region.name} {self._codes_text(region, codes)} #{rank + 1}"
        raise ValueError(f"action id {action_id} is outside 0..{self.size - 1}")

    def _codes_text(self, region: Region, codes: list[int]) -> str:
        names = []
        cards = self.prog.cards
        kinds = (
            [region.name]
            if region.name in self.single
            else [_base(t) for t in self._action_of(region).param_types]
        )
        for kind, code in zip(kinds, codes):
            if kind == "object":
                names.append(cards[code].name)
            elif kind == "text":
                names.append(repr(self.texts[code]) if code < len(self.texts) else "?")
            elif kind == "player":
                names.append(f"seat+{code}")
            else:
                names.append(str(code))
        return "(" + ", ".join(names) + ")"

    def _action_of(self, region: Region):
        return next(a for a in self.prog.actions if self.action.get(a.id) is region)


def text_table(prog) -> list[str]:
    """Every text a decision could offer, derived from the ruleset's declarations: the strings of
    its language files (the loader collects them), its `data:` and options, and its cards' values; sorted, so that the
    table is the same wherever the ruleset is loaded."""
    found: set[str] = set()

    def walk(x) -> None:
        if isinstance(x, str):
            found.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    meta = prog.meta or {}
    walk(meta.get("data"))
    walk(meta.get("options"))
    for card in prog.cards:
        walk(card.name)
        walk(getattr(card, "props", None))
    found.update(prog.texts)
    return sorted(found)


def _base(t) -> str:
    return t if isinstance(t, str) else "list"


def _mixed(codes: tuple[int, ...], radices: tuple[int, ...]) -> int:
    n = 0
    for c, r in zip(codes, radices):
        n = n * r + c
    return n


def _unmixed(n: int, radices: tuple[int, ...]) -> list[int]:
    out = []
    for r in reversed(radices):
        n, c = divmod(n, r)
        out.append(c)
    return list(reversed(out))
