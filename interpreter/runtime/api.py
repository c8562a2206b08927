"""The game API for code, in the shape of OpenSpiel's: one interface for every ruleset.

game = madang.new_game("some_ruleset", {"some_option": "value"}, seed=7)
while not game.is_terminal():
    game.apply_action(random.choice(game.legal_actions()))
game.returns()
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from ..language.diagnostics import Diagnostics
from . import budget, engine, saves, seen
from .builtins import RulesError
from .fingerprint import differences
from .loader import load_ruleset
from .program import Program
from .state import Game, State

SAVE_FORMAT = "madang-save/1"


class MadangError(Exception):
    """A user-facing failure: bad options, an unknown ruleset, a corrupt save. Carries
    diagnostics when there are any."""

    def __init__(self, message: str, diags: Diagnostics | None = None):
        super().__init__(message)
        self.diags = diags


@lru_cache(maxsize=16)
def _load_cached(ref: str, extra: tuple[str, ...]) -> Program:
    from ..language.decks import looks_like_deck

    diags = Diagnostics()
    decks = [f for f in extra if Path(f).is_file() and looks_like_deck(f)]
    cards = [f for f in extra if f not in decks]
    loaded = load_ruleset(ref, diags, cards, extra_decks=decks)
    if loaded is None or loaded.program is None or diags.has_errors():
        raise MadangError(f"ruleset '{ref}' has errors", diags)
    loaded.program.folder = loaded.folder
    loaded.program.extra_cards = list(extra)  # saves name them, so that a load finds them again
    return loaded.program


def load_program(ref: str | Path, cards: list[str] | tuple[str, ...] = ()) -> Program:
    """The compiled ruleset with extra card sets and deck files (`cards` holds both kinds)."""
    ref = str(ref)
    key = ref if not Path(ref).exists() else str(Path(ref).resolve())
    return _load_cached(key, tuple(str(Path(c).resolve()) for c in cards))


def resolve_options(prog: Program, options: dict | None) -> tuple[dict, int]:
    """Defaults filled in, values converted and checked; returns (options, number of players)."""
    meta = prog.meta
    specs = dict(meta.get("options") or {})
    players = meta.get("players", 2)
    lo, hi = (players, players) if isinstance(players, int) else (players["min"], players["max"])
    given = dict(options or {})
    out: dict = {}
    nplayers = lo
    if "players" in given and "players" not in specs:
        nplayers = _convert("players", given.pop("players"), lo)
        if not lo <= nplayers <= hi:
            raise MadangError(
                f"option players={nplayers}: this ruleset is for {lo}–{hi} players"
                if lo != hi
                else f"option players={nplayers}: this ruleset is for {lo} players"
            )
    for name in given:
        if name not in specs:
            from ..language.diagnostics import did_you_mean

            hint = did_you_mean(name, list(specs) + (["players"] if lo != hi else []))
            raise MadangError(
                f"unknown option '{name}'"
                + (f" ({hint})" if hint else "")
                + f"; options: {', '.join(sorted(specs)) or 'none'}"
            )
    for name, spec in specs.items():
        default = spec.get("default")
        by_players = {int(k): v for k, v in (spec.get("default_by_players") or {}).items()}
        if nplayers in by_players and "players" not in specs:
            default = by_players[nplayers]
        allowed = spec.get("values")
        if spec.get("per_seat"):
            raw = given.get(name)
            if raw is None:
                vals = [default] * hi
            else:
                parts = raw if isinstance(raw, list) else str(raw).split(",")
                vals = [_convert(name, v, default) for v in parts]
                if len(vals) == 1:
                    vals = vals * hi
            for v in vals:
                _allowed(name, v, allowed)
            out[name] = vals
        else:
            v = _convert(name, given[name], default) if name in given else default
            _allowed(name, v, allowed)
            out[name] = v
    if "players" in specs:
        nplayers = int(out["players"])
    else:
        out["players"] = nplayers
    for name, spec in specs.items():
        if spec.get("per_seat"):
            out[name] = out[name][:nplayers] + [out[name][-1]] * max(0, nplayers - len(out[name]))
    _check_budget(meta, out)
    for c in meta.get("constraints") or []:
        if all(out.get(k) == v for k, v in c["if"].items()) and any(
            out.get(k) == v for k, v in c["forbid"].items()
        ):
            bad = ", ".join(f"{k}={v}" for k, v in c["forbid"].items() if out.get(k) == v)
            when = ", ".join(f"{k}={v}" for k, v in c["if"].items())
            raise MadangError(f"{bad} is not allowed with {when}: {c['message']}")
    return out, nplayers


def _convert(name, value, like):
    if isinstance(like, str) and isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # a deck named "2" given as 2
    if isinstance(value, str) and not isinstance(like, str):
        if isinstance(like, bool):
            if value.lower() in ("true", "yes", "1", "on"):
                return True
            if value.lower() in ("false", "no", "0", "off"):
                return False
            raise MadangError(f"option {name}={value!r}: expected true or false")
        if isinstance(like, int):
            try:
                return int(value)
            except ValueError:
                raise MadangError(f"option {name}={value!r}: expected a whole number") from None
    return value


def _allowed(name, v, allowed):
    if allowed is not None and v not in allowed:
        raise MadangError(
            f"option {name}={v!r} is not allowed; choose one of: {', '.join(map(str, allowed))}"
        )


def _check_budget(meta: dict, opts: dict) -> None:
    b = meta.get("budget")
    if not b:
        return
    src = b["points_from"]
    pts_map = b.get("points")
    points = pts_map.get(opts[src], 0) if pts_map else int(opts[src])
    for name, refund in (b.get("refund") or {}).items():
        if opts.get(name) is True:
            points += refund
    cost, parts = 0, []
    for name, spec in (meta.get("options") or {}).items():
        costs = spec.get("cost")
        if costs:
            c = costs.get(opts[name], costs.get(str(opts[name]), 0))
            if c:
                cost += c
                parts.append(f"{name}={opts[name]} ({c})")
    if cost > points:
        raise MadangError(
            f"the options cost {cost} points but the budget of {src}={opts[src]} is {points}: "
            + ", ".join(parts)
        )


def make_game(prog: Program, options: dict | None, seed: int) -> Game:
    opts, nplayers = resolve_options(prog, options)
    g = Game(prog, nplayers, opts, int(seed))
    settings = prog.settings
    g.auto_single = bool(settings.get("auto_single", True))
    g.max_steps = budget.allowed(settings.get("max_steps"))
    maps = prog.meta.get("maps") or {}
    if maps:
        which = (
            opts.get(settings.get("map_option", "map"))
            if settings.get("map_option", "map") in opts
            else next(iter(maps))
        )
        if isinstance(which, str) and which in maps:
            areas = maps[which].get("areas") or {}
            g.areas = list(areas)
            g.area_index = {a: i for i, a in enumerate(g.areas)}
            g.adjacency = [
                [g.area_index[b] for b in (areas[a].get("adjacent") or []) if b in g.area_index]
                for a in g.areas
            ]
            g.area_props = [dict(areas[a]) for a in g.areas]
    for z in prog.zones.values():
        g.zone_base[z.name] = len(g.zone_info)
        count = {"global": 1, "player": nplayers, "area": len(g.areas)}[z.scope]
        for k in range(count):
            inst = len(g.zone_info)
            g.zone_info.append((z.name, k if z.scope != "global" else -1))
            if z.active:
                g.active_zones.append(inst)
    g.active_set = frozenset(g.active_zones)
    g.renewing = frozenset(
        z for z, (name, _owner) in enumerate(g.zone_info) if prog.zones[name].renews
    )
    for alias, canon in prog.canonical.items():
        if canon in g.zone_base and alias not in g.zone_base:
            g.zone_base[alias] = g.zone_base[canon]
    return g


class GameState:
    """One game in progress. `legal_actions()` are indices into the pending decision's options."""

    def __init__(self, st: State, resumed: bool = False):
        self.st = st
        self.failed: str | None = None  # a rules error stopped the game mid-step: never saved
        # Read from a save: the checks on load cannot know the types of local names, so a
        # damaged value there surfaces while playing and is reported as the save's fault.
        self.resumed = resumed

    # ------------------------------------------------------------ OpenSpiel-style API
    def current_player(self) -> int:
        """The player to decide, or -4 (terminal)."""
        if self.st.over:
            return -4
        return self.st.pending.player if self.st.pending else -4

    def legal_actions(self) -> list[int]:
        p = self.st.pending
        return list(range(len(p.values))) if p and not self.st.over else []

    def action_labels(self) -> list[str]:
        return list(engine.decision_labels(self.st))

    def prompt(self) -> str:
        return self.st.pending.prompt if self.st.pending else ""

    def apply_action(self, a: int) -> None:
        st = self.st
        if self.failed is not None:
            raise MadangError(f"the game stopped with an error in the rules: {self.failed}")
        if st.over or st.pending is None:
            raise MadangError("the game is over: no action can be applied")
        if not isinstance(a, int) or not 0 <= a < len(st.pending.values):
            raise MadangError(f"illegal action {a!r}: choose 0..{len(st.pending.values) - 1}")
        d = st.pending
        if st.log is not None:
            entry = {
                "decision": d.prompt,
                "player": d.player,
                "choice": engine.decision_labels(st)[a],
            }
            who = [
                seen.decision_seers(st, d, d.values[a]),
                seen.prompt_seers(st, d.prompt, d.player),
            ]
            engine.note(st, seen.mark(entry, who))
        st.answer = d.values[a]
        st.has_answer = True
        st.pending = None
        st.decisions += 1
        try:
            engine.run(st)
        except RulesError as e:  # the state is halfway through a step: keep it from saves
            self.failed = str(e)
            raise
        except (IndexError, KeyError, TypeError, ValueError, AttributeError) as e:
            if not self.resumed:
                raise  # a bug of madang's: shown as an internal error
            self.failed = f"{type(e).__name__}: {e}"
            raise MadangError(
                f"the saved game cannot go on: its state is inconsistent ({self.failed});"
                " the save file was edited or damaged"
            ) from None

    def apply_label(self, label: str) -> None:
        labels = self.action_labels()
        if label not in labels:
            raise MadangError(f"no option {label!r}; options: {', '.join(labels)}")
        self.apply_action(labels.index(label))

    def clone(self) -> GameState:
        return GameState(self.st.clone(), self.resumed)

    def determinize(self, player: int, rng=None) -> GameState:
        """A copy in which what `player` cannot see is re-dealt at random (runtime/determinize):
        searching agents play in such samples so that they never read hidden cards."""
        import random

        from .determinize import determinize

        return GameState(determinize(self.st, player, rng or random.Random()))

    def evaluate(self, player: int) -> float | None:
        """The ruleset's `score(p)` for `player` (None when it declares none), for agents."""
        f = getattr(self.st.g.prog, "evaluation", None)
        return None if f is None else f(self.st, player)

    def __reduce__(self):
        """Pickled as its save (to_json), so that a state can cross processes."""
        return (GameState.from_json, (self.to_json(),))

    def __deepcopy__(self, memo) -> GameState:
        """A deep copy is a clone: the compiled ruleset is shared, never copied (pyspiel clones
        Python states with deepcopy)."""
        return self.clone()

    def is_terminal(self) -> bool:
        return self.st.over

    def returns(self) -> list[float]:
        st = self.st
        n = st.g.nplayers
        if not st.over:
            return [0.0] * n
        if not st.winners:
            return (
                [(-1.0 if p in st.lost else 0.0) for p in range(n)]
                if len(st.lost) == n
                else [0.0] * n
            )
        return [1.0 if p in st.winners else -1.0 for p in range(n)]

    @property
    def winners(self) -> list[int]:
        return list(self.st.winners)

    def observation(self, player: int) -> dict:
        """What `player` may see: public zones, their own hidden zones, counts of the rest."""
        st = self.st
        g = st.g
        prog = g.prog
        zones = {}
        for z, (name, owner) in enumerate(g.zone_info):
            vis = prog.zones[name].visibility
            label = g.zone_label(z)
            if vis == "public" or (vis == "owner" and owner == player):
                zones[label] = [prog.cards[st.obj_card[o]].name for o in st.zones[z]]
            else:
                zones[label] = {"count": len(st.zones[z])}
                if st.shown:  # what was revealed to this player: [index, card] pairs
                    known = [
                        [i, prog.cards[st.obj_card[o]].name]
                        for i, o in enumerate(st.zones[z])
                        if player in seen.known_to(st, o)
                    ]
                    if known:
                        zones[label]["known"] = known
        out = {
            "player": player,
            "turn": st.turn,
            "round": st.round,
            "phase": st.phase,
            "active": st.active,
            "zones": zones,
            "counters": dict(st.counters),
            "player_counters": {k: list(v) for k, v in st.pcounters.items()},
        }
        if st.pending and st.pending.player == player:
            out["decision"] = {"prompt": st.pending.prompt, "options": engine.decision_labels(st)}
        return out

    # ------------------------------------------------------------ a fixed action space
    def action_space(self):
        """This ruleset's fixed action space (runtime/actionspace.py): ids that mean the same
        move in every state, for learning code. Shared by every state of the game."""
        g = self.st.g
        space = getattr(g, "action_space", None)
        if space is None:
            from .actionspace import ActionSpace

            space = g.action_space = ActionSpace(g.prog, g.nplayers, len(g.areas))
        return space

    def legal_action_ids(self) -> list[int]:
        """The stable ids of the legal moves, in offer order (`legal_actions()` numbers them
        0..n-1 instead)."""
        return self.action_space().ids(self.st)

    def action_mask(self):
        """A 0/1 array over the whole action space, 1 where the id is legal now."""
        import numpy as np

        mask = np.zeros(self.action_space().size, dtype=np.int8)
        mask[self.legal_action_ids()] = 1
        return mask

    def apply_action_id(self, action_id: int) -> None:
        """Play the move with this stable id; an id that is not legal now is refused."""
        ids = self.legal_action_ids()
        if action_id not in ids:
            raise MadangError(
                f"action id {action_id} ({self.action_space().describe(action_id)}) is not legal now"
            )
        self.apply_action(ids.index(action_id))

    def observation_tensor(self, player: int):
        """`observation(player)` as a fixed-shape float32 array (runtime/tensor.py)."""
        g = self.st.g
        enc = getattr(g, "observation_encoder", None)
        if enc is None:
            from .tensor import ObservationEncoder

            enc = g.observation_encoder = ObservationEncoder(
                g.prog, g.nplayers, g.zone_info, len(g.areas)
            )
        return enc.encode(self.st, player)

    # ------------------------------------------------------------ persistence
    def to_json(self) -> str:
        if self.failed is not None:
            raise MadangError(
                "the game stopped halfway through a step with an error in the rules; that state"
                f" cannot be saved ({self.failed})"
            )
        st = self.st
        g = st.g
        doc = {
            "format": SAVE_FORMAT,
            "ruleset": g.prog.name,
            "ruleset_path": str(getattr(g.prog, "folder", "")),
            "cards": list(getattr(g.prog, "extra_cards", [])),
            "options": g.options,
            "seed": g.seed,
            "fingerprint": fingerprint(g.prog),
            "state": st.to_data(),
        }
        return json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, prog: Program | None = None) -> GameState:
        try:
            doc = saves.loads(text)
        except (ValueError, RecursionError) as e:
            raise MadangError(f"not a madang save file: {e}") from None
        if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
            raise MadangError("not a madang save file (format marker missing)")
        try:
            if prog is None:
                ref = doc["ruleset"]
                path = doc.get("ruleset_path")
                cards = doc.get("cards") or []
                missing = [c for c in cards if not Path(c).is_file()]
                if missing:
                    raise MadangError(f"the card file of this save is missing: {missing[0]}")
                prog = load_program(path if path and Path(path).is_dir() else ref, cards)
            changed = differences(doc.get("fingerprint"), fingerprint(prog))
            if changed:
                raise MadangError(
                    f"the save was made with different {_listed(changed)} than"
                    f" {prog.name} has now; it cannot be resumed under changed rules"
                )
            opts = dict(doc["options"])
            g = make_game(prog, opts, doc["seed"])
            saves.check_state(doc["state"], g)
            st = State.from_data(g, doc["state"])
        except saves.BadSave as e:
            raise MadangError(f"corrupt save file: {e}") from None
        except MadangError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise MadangError(f"corrupt save file: {type(e).__name__}: {e}") from None
        return cls(st, resumed=True)

    def digest(self) -> str:
        data = json.dumps(
            self.st.to_data(), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        return hashlib.sha256(data.encode()).hexdigest()

    def __str__(self) -> str:
        obs = self.observation(self.st.pending.player if self.st.pending else 0)
        return json.dumps(obs, ensure_ascii=False)


def fingerprint(prog: Program) -> dict[str, str]:
    """The digests of the rules, card data and options the program was loaded from."""
    return dict(getattr(prog, "fingerprints", None) or {})


def _listed(parts: list[str]) -> str:
    words = {"rules": "rules", "cards": "card data", "options": "options"}
    names = [words[p] for p in parts]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def new_game(
    ruleset: str | Path | Program,
    options: dict | None = None,
    seed: int = 0,
    log: bool = False,
    cards=(),
) -> GameState:
    prog = ruleset if isinstance(ruleset, Program) else load_program(ruleset, cards)
    g = make_game(prog, options, seed)
    st = State(g)
    if log:
        st.log = []
    start(st)
    return GameState(st)


def start(st: State, run: bool = True) -> None:
    """Counters to their defaults, then the flow with setup on top of it."""
    from .state import FUNC, Frame

    g = st.g
    prog = g.prog
    for name, c in prog.counters.items():
        default = prog.counter_defaults[name]
        if c.scope == "global":
            st.counters[name] = default(st, {})
        elif c.scope == "player":
            st.pcounters[name] = [default(st, {"you": p}) for p in range(g.nplayers)]
        else:
            st.acounters[name] = [default(st, {}) for _ in g.areas]
    st.frames = [Frame(prog.flow_block, {}, -1, FUNC), Frame(prog.setup_block, {}, -1, FUNC)]
    if run:
        try:
            engine.run(st)
        except RulesError:
            raise


__all__ = ["new_game", "GameState", "MadangError", "load_program", "RulesError"]
