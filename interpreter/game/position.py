"""Set up a game's position and read it, by the rules' own names: the public layer that scenario
tests, tools and API users go through instead of writing `State` fields.

    pos = Position.blank(load_program("docs/examples/leduc_poker"), seed=0)
    pos.place("hand#1", ["KING_1"]); pos.set_counter("pot", 6)
    pos.start_at("flop")                 # the flow goes on from its phase `flop`
    game = pos.game                      # a GameState: legal_actions(), apply_action(), ...

Names are checked as they are given: a zone, card, counter, player, object or flow point the
ruleset does not have is a `SetupError` that says what it has (`hint`), which a caller with a
file to point at (the scenario runner) reports at the place it was written.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from ..runtime import engine
from ..runtime.errors import MadangError
from ..runtime.program import FlowPoint, Program
from ..runtime.setup import enter_flow, flow_names, make_game, run_setup, start
from ..runtime.state import FUNC, Frame, State
from .api import GameState

_PLAYER = re.compile(r"P([1-9][0-9]*)")


class SetupError(MadangError):
    """A name the ruleset does not have, or a value that does not fit; `hint` says what would."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


def _hint(word: str, names, what: str) -> str:
    best = difflib.get_close_matches(str(word), list(names), n=1, cutoff=0.5)
    return f"did you mean '{best[0]}'?" if best else f"{what}: {', '.join(names) or 'none'}"


class Position:
    """A game's position: set up before it starts (`blank`), read at any time."""

    def __init__(self, game: GameState):
        self.game = game
        self._labels: dict[str, int] | None = None

    @classmethod
    def blank(
        cls, prog: Program, options: dict | None = None, seed: int = 0, log: bool = True
    ) -> Position:
        """A game with no objects, its counters at their declared values, nothing run yet: set
        it up, then start it (`start_flow`, `start_at`, `start_block`) and `run()`."""
        st = State(make_game(prog, options, seed))
        start(st, run=False)
        st.frames = []
        if log:
            st.log = []
        return cls(GameState(st))

    @classmethod
    def new(
        cls, prog: Program, options: dict | None = None, seed: int = 0, log: bool = True
    ) -> Position:
        """A game as the ruleset starts it: its `setup:`, then its flow from the start, both
        still to run (`run()`); or `start_at` a point of the flow after the setup."""
        st = State(make_game(prog, options, seed))
        start(st, run=False)
        if log:
            st.log = []
        return cls(GameState(st))

    @property
    def st(self) -> State:
        return self.game.st

    @property
    def prog(self) -> Program:
        return self.game.st.g.prog

    # ------------------------------------------------------------ names
    def player(self, who: str | int) -> int:
        """A seat from `P1`, `P2`, ... (or a seat number from 0)."""
        n = self.st.g.nplayers
        m = _PLAYER.fullmatch(who) if isinstance(who, str) else None
        k = int(m.group(1)) - 1 if m else who if isinstance(who, int) else None
        if k is None or isinstance(k, bool):
            raise SetupError(f"{who!r} is not a player", "players are P1, P2, ...")
        if not 0 <= k < n:
            raise SetupError(f"no player {_seat(k)}: this game has {n} players")
        return k

    def zone_labels(self) -> dict[str, int]:
        """Zone labels (`hand#1`, `pool`, `field@area`), aliases included, to zone ids."""
        if self._labels is None:
            g = self.st.g
            out = {g.zone_label(z): z for z in range(len(g.zone_info))}
            for alias, base in g.zone_base.items():
                name, _ = g.zone_info[base]
                scope = g.prog.zones[name].scope
                if scope == "global":
                    out.setdefault(alias, base)
                elif scope == "player":
                    for k in range(g.nplayers):
                        out.setdefault(f"{alias}#{k + 1}", base + k)
                else:
                    for k, area in enumerate(g.areas):
                        out.setdefault(f"{alias}@{area}", base + k)
            self._labels = out
        return self._labels

    def zone(self, label: str) -> int:
        z = self.zone_labels().get(label)
        if z is None:
            g = self.st.g
            canon = [g.zone_label(k) for k in range(len(g.zone_info))]
            best = difflib.get_close_matches(str(label), list(self.zone_labels()), n=1, cutoff=0.5)
            raise SetupError(
                f"no zone '{label}'",
                f"did you mean '{best[0]}'?" if best else "zones: " + ", ".join(canon),
            )
        return z

    def card(self, name: str) -> int:
        idx = self.prog.card_index.get(name)
        if idx is None:
            raise SetupError(f"no card named '{name}'", _hint(name, self.prog.card_index, "cards"))
        return idx

    def counter_scope(self, name: str, scope: str) -> None:
        """`scope`: "global", "player" or "area"; an error names the counter's own scope."""
        c = self.prog.counters.get(name)
        if c is None or c.scope != scope:
            names = [k for k, c2 in self.prog.counters.items() if c2.scope == scope]
            kind = {"player": "per-player counter", "area": "per-area counter"}.get(
                scope, "counter"
            )
            other = ""
            if c is not None:
                other = (
                    f" ('{name}' is a {'per-player' if c.scope == 'player' else c.scope} counter)"
                )
            raise SetupError(f"no {kind} '{name}'{other}", _hint(name, names, f"{kind}s"))

    def area(self, name: str) -> int:
        areas = self.st.g.areas
        if name not in areas:
            raise SetupError(f"no area '{name}'", _hint(name, areas, "areas"))
        return areas.index(name)

    def obj(self, ref: str) -> int | None:
        """The object at `ZONE/INDEX` (`hand#1/0` the front one, `-1` the back), or None when
        the zone holds none there."""
        label, _, idx = str(ref).rpartition("/")
        if not label or not re.fullmatch(r"-?[0-9]+", idx):
            raise SetupError(
                f"{ref!r} does not name an object", "write ZONE/INDEX, e.g. 'hand#1/0'"
            )
        objs = self.st.zones[self.zone(label)]
        i = int(idx)
        return objs[i] if -len(objs) <= i < len(objs) else None

    def flow_point(self, name: str) -> FlowPoint:
        """A point of the flow where a game may start: a phase's name, `turn` or `round`."""
        points = self.prog.flow_points
        fp = points.get(name) or points.get(self.prog.phase_names.get(name, name))
        if fp is None:
            raise SetupError(
                f"no point '{name}' in the flow",
                _hint(name, points, "points (its phases, and `turn` / `round` for its first such"
                      " block)"),
            )  # fmt: skip
        return fp

    # ------------------------------------------------------------ setting up
    def place(self, label: str, cards: list[str]) -> list[int]:
        """New objects of these cards at the back of the zone, in order; they belong to the
        zone's player (in a shared zone, to the active player)."""
        st, prog = self.st, self.prog
        z = self.zone(label)
        idx = [self.card(c) for c in cards]
        name, owner = st.g.zone_info[z]
        who = owner if prog.zones[name].scope == "player" else st.active
        return [engine.create_object(st, i, z, who) for i in idx]

    def set_counter(self, name: str, value: Any, player: str | int | None = None,
                    area: str | None = None) -> None:  # fmt: skip
        """A global counter; with `player`, that player's; with `area`, that area's."""
        st = self.st
        if player is not None:
            self.counter_scope(name, "player")
            st.pcounters[name][self.player(player)] = value
        elif area is not None:
            self.counter_scope(name, "area")
            st.acounters[name][self.area(area)] = value
        else:
            self.counter_scope(name, "global")
            st.counters[name] = value
        st.kt = None  # (kept totals of continuous modifiers may read it)

    def set_prop(self, obj: int | str, prop: str, value: Any) -> None:
        """An object's property (its base value: modifiers stay on top)."""
        o = self.obj(obj) if isinstance(obj, str) else obj
        if o is None:
            raise SetupError(f"no object at {obj}")
        card = self.prog.cards[self.st.obj_card[o]]
        if prop not in card.props:
            raise SetupError(
                f"a {card.kind} ({card.name}) has no property '{prop}'",
                _hint(prop, card.props, "its properties"),
            )
        self.st.set_prop(o, prop, value)

    def set_active(self, who: str | int) -> None:
        """Whose turn it is."""
        self.st.active = self.player(who)
        self.st.kt = None

    def set_first(self, who: str | int) -> None:
        """The game's first player (`first_player`)."""
        self.st.first = self.player(who)
        self.st.kt = None

    def set_turn(self, n: int) -> None:
        """Turns already begun (the next `turn` block counts n + 1)."""
        self.st.turn = _count(n, "turn")
        self.st.kt = None

    def set_round(self, n: int) -> None:
        self.st.round = _count(n, "round")
        self.st.kt = None

    def set_phase(self, name: str) -> None:
        """The current phase, by any of its spellings."""
        self.st.phase = self.prog.phase_names.get(name, name)

    # ------------------------------------------------------------ starting
    def start_flow(self) -> None:
        """The ruleset's flow from its start (its setup not run)."""
        self.st.frames = [Frame(self.prog.flow_block, {}, -1, FUNC)]

    def start_at(self, point: str, names: dict | None = None) -> None:
        """The flow from `point` on (a phase's name, `turn`, `round`): the scopes around it
        already begun, its local names from `names` (players as `P1`...) or their `let`s."""
        fp = self.flow_point(point)
        if fp.blocked:
            raise SetupError(f"a game cannot start at {point} ({fp.span}): {fp.blocked}")
        if self.st.frames:  # the ruleset's setup still to run (`new`): it runs first, alone
            run_setup(self.st)
        given = {k: self._value(v) for k, v in (names or {}).items()}
        try:
            env = flow_names(self.st, fp, given)
        except MadangError as e:
            raise SetupError(str(e)) from None
        enter_flow(self.st, fp, env)

    def start_block(self, block: int) -> None:
        """Compiled statements (a scenario's `start:`) as the whole game, `P1`... bound."""
        env = {f"P{k + 1}": k for k in range(self.st.g.nplayers)}
        self.st.frames = [Frame(block, env, -1, FUNC)]

    def run(self) -> None:
        """Play until a decision is needed or the game is over (a RulesError is the rules')."""
        engine.run(self.st)

    def keep_log(self, log: list | None = None) -> None:
        """Record the game's log from now on: into `log` (anything with `append`; a card
        statistics recorder) or a new list, unless one is kept already."""
        if log is not None or self.st.log is None:
            self.st.log = [] if log is None else log

    def reseed(self, value: int) -> None:
        """What happens by chance from now on: the generator's 64-bit state (a search that
        samples other futures of the same position)."""
        self.st.rng = value & ((1 << 64) - 1)

    def _value(self, v: Any) -> Any:
        return self.player(v) if isinstance(v, str) and _PLAYER.fullmatch(v) else v

    # ------------------------------------------------------------ reading
    def cards(self, label: str) -> list[str]:
        """The card names in a zone, front first."""
        st = self.st
        return [self.prog.cards[st.obj_card[o]].name for o in st.zones[self.zone(label)]]

    def count(self, label: str) -> int:
        return len(self.st.zones[self.zone(label)])

    def card_of(self, o: int) -> str:
        return self.prog.cards[self.st.obj_card[o]].name

    def counter(self, name: str) -> Any:
        return self.st.counters.get(name)

    def player_counter(self, name: str) -> list:
        return list(self.st.pcounters.get(name, []))

    def area_counter(self, name: str, area: str) -> Any:
        return self.st.acounters.get(name, [])[self.area(area)]

    def prop(self, o: int, name: str) -> Any:
        """A property as the rules read it (modifiers included)."""
        return self.prog.read_prop(self.st, o, name)

    def has(self, o: int, keyword: str) -> bool:
        """The object has the keyword (printed or granted)."""
        return self.prog.has(self.st, o, self.prog.canonical.get(keyword, keyword))

    @property
    def active(self) -> int:
        return self.st.active

    @property
    def turn(self) -> int:
        return self.st.turn

    @property
    def round(self) -> int:
        return self.st.round

    @property
    def phase(self) -> str:
        return self.st.phase

    def events(self, since: int = 0) -> list[tuple[str, list[str]]]:
        """The verbs called, events emitted and actions taken (name, argument labels) since
        the log's entry `since` (`log_size()` marks a place)."""
        out = []
        for entry in (self.st.log or [])[since:]:
            if "event" in entry:
                out.append((entry["event"], entry.get("args") or []))
            elif "action" in entry:
                out.append((entry["action"], entry.get("args") or []))
        return out

    def log_size(self) -> int:
        return len(self.st.log or [])


def _seat(k: int) -> str:
    return f"P{k + 1}"


def _count(n: Any, what: str) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise SetupError(f"{what} must be a whole number from 0, not {n!r}")
    return n


__all__ = ["Position", "SetupError"]
