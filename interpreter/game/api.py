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

from ..build.fingerprint import differences
from ..build.loader import load_ruleset
from ..language.diagnostics import Diagnostics
from ..runtime import engine, seen
from ..runtime.errors import MadangError, RulesError
from ..runtime.program import Program
from ..runtime.setup import make_game, resolve_options, start
from ..runtime.state import State
from . import saves

SAVE_FORMAT = "madang-save/1"


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
        """A copy in which what `player` cannot see is re-dealt at random (game/determinize):
        searching agents play in such samples so that they never read hidden cards."""
        import random

        from .determinize import determinize

        return GameState(determinize(self.st, player, rng or random.Random()))

    def evaluate(self, player: int) -> float | None:
        """The ruleset's `score(p)` for `player` (None when it declares none), for agents."""
        f = self.st.g.prog.evaluation
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
        """This ruleset's fixed action space (game/actionspace.py): ids that mean the same
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
        """`observation(player)` as a fixed-shape float32 array (game/tensor.py)."""
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
            "ruleset_path": str(g.prog.folder or ""),
            "cards": list(g.prog.extra_cards),
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
    return dict(prog.fingerprints)


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


__all__ = [
    "new_game",
    "GameState",
    "MadangError",
    "load_program",
    "RulesError",
    "make_game",
    "resolve_options",
    "start",
]
