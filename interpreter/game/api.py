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
from ..runtime.chance import NeedChance, Tape
from ..runtime.errors import MadangError, RulesError
from ..runtime.program import Program
from ..runtime.setup import make_game, resolve_options, start
from ..runtime.state import State
from . import optionlabels, saves

SAVE_FORMAT = "madang-save/1"
CHANCE = -1  # current_player() at a chance node (OpenSpiel's kChancePlayerId)
TERMINAL = -4
CHANCE_MODES = ("sampled", "explicit")
_new = object.__new__


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
    """One game in progress. `legal_actions()` are indices into the pending decision's options.

    With `chance="explicit"` the game's random operations are chance nodes (runtime/chance.py):
    `current_player()` is CHANCE (-1), `chance_outcomes()` lists (outcome, probability) and
    `apply_action(k)` picks outcome k. A step that meets one is replayed from the decision that
    began it (`_base`, `_answer`) with the outcomes chosen so far (`_tape`); meanwhile `st` is the
    state as far as that step got, for views only."""

    def __init__(self, st: State, resumed: bool = False, chance: str = "sampled"):
        if chance not in CHANCE_MODES:
            raise MadangError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        self.st = st
        self.failed: str | None = None  # a rules error stopped the game mid-step: never saved
        # Read from a save: the checks on load cannot know the types of local names, so a
        # damaged value there surfaces while playing and is reported as the save's fault.
        self.resumed = resumed
        self.chance = chance
        self._base: State | None = None  # the state before the step waiting for chance
        self._answer: int | None = None  # the decision's answer that began it (None: setup)
        self._tape: list[int] = []  # the outcomes chosen so far in that step
        self._chance_n = 0  # the pending chance node's number of outcomes (0: none)

    # ------------------------------------------------------------ OpenSpiel-style API
    def current_player(self) -> int:
        """The player to decide, CHANCE (-1) at a chance node, or TERMINAL (-4)."""
        if self._chance_n:
            return CHANCE
        if self.st.over:
            return TERMINAL
        return self.st.pending.player if self.st.pending else TERMINAL

    def is_chance_node(self) -> bool:
        return self._chance_n > 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each outcome with its probability (all equally likely)."""
        n = self._chance_n
        return [(k, 1.0 / n) for k in range(n)]

    def legal_actions(self) -> list[int]:
        if self._chance_n:
            return list(range(self._chance_n))
        p = self.st.pending
        return list(range(len(p.values))) if p and not self.st.over else []

    def action_labels(self) -> list[str]:
        if self._chance_n:
            return [f"chance {k + 1} of {self._chance_n}" for k in range(self._chance_n)]
        return list(optionlabels.decision_labels(self.st))

    def prompt(self) -> str:
        if self._chance_n:
            return "chance"
        return self.st.pending.prompt if self.st.pending else ""

    def apply_action(self, a: int) -> None:
        st = self.st
        d = st.pending
        if (
            d is not None
            and a.__class__ is int
            and a >= 0
            and self.failed is None
            and st.log is None
            and self.chance != "explicit"  # (`_chance_n` is never set otherwise)
            and not st.over
        ):  # the common case: `_run` without its log, written out (a Python frame less)
            try:  # (past the last option: the general path's error)
                st.answer = d.values[a]
            except IndexError:
                raise MadangError(f"illegal action {a!r}: choose 0..{len(d.values) - 1}") from None
            st.has_answer = True
            st.pending = None
            st.decisions += 1
            try:
                engine.run(st, True)
            except Exception as e:
                self._stopped(e)
            return
        if self.failed is not None:
            raise MadangError(f"the game stopped with an error in the rules: {self.failed}")
        if self._chance_n:
            if not isinstance(a, int) or not 0 <= a < self._chance_n:
                raise MadangError(f"illegal chance outcome {a!r}: choose 0..{self._chance_n - 1}")
            self._tape.append(a)
            self._step(self._base, self._answer)
            return
        d = st.pending
        if st.over or d is None:
            raise MadangError("the game is over: no action can be applied")
        if not isinstance(a, int) or not 0 <= a < len(d.values):
            raise MadangError(f"illegal action {a!r}: choose 0..{len(d.values) - 1}")
        if self.chance == "explicit":
            self._tape = []
            self._step(st, a)
        else:
            self._run(st, a)

    def _step(self, base: State, answer: int | None) -> None:
        """Run one step from `base` on a copy, random outcomes read from the tape; stop at the
        first random operation past its end (a chance node) or at the next decision."""
        st = base.clone()
        st.log = None if base.log is None else base.log[:]
        st.chance = Tape(self._tape)
        try:
            if answer is None:
                start(st)
            else:
                self._run(st, answer)
        except NeedChance as e:
            # the step stopped inside a statement, maybe mid-shuffle
            st.forget_kept()
            self._base, self._answer, self._chance_n = base, answer, e.n
        else:
            self._base, self._answer, self._chance_n, self._tape = None, None, 0, []
        finally:
            st.chance = None
        self.st = st

    def _run(self, st: State, a: int) -> None:
        """Answer the pending decision of `st` with option `a` and run to the next one."""
        d = st.pending
        if st.log is not None:
            entry = {
                "decision": d.prompt,
                "player": d.player,
                "choice": optionlabels.decision_labels(st)[a],
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
            engine.run(st, answered=True)
        except Exception as e:
            self._stopped(e)

    def _stopped(self, e: Exception) -> None:
        """Raise what stopped a step: the game is marked failed when the rules (or a damaged
        save) stopped it, since its state is halfway through the step. Called while `e` is
        being handled, so a bare `raise` raises it again."""
        if isinstance(e, RulesError):  # keep the state from saves
            self.failed = str(e)
            raise
        if not isinstance(e, (IndexError, KeyError, TypeError, ValueError, AttributeError)):
            raise
        if not self.resumed:
            raise  # a bug of madang's: shown as an internal error
        self.failed = f"{type(e).__name__}: {e}"
        raise MadangError(
            f"the saved game cannot go on: its state is inconsistent ({self.failed});"
            " the save file was edited or damaged"
        ) from None

    def apply_label(self, label: str) -> None:
        """The option with this label, or the first that reads so by its cards alone
        (`play_card Echo` for the first of two Echoes)."""
        labels = self.action_labels()
        k = optionlabels.find(self.st, label) if self.st.pending is not None else None
        if k is None:
            raise MadangError(f"no option {label!r}; options: {', '.join(labels)}")
        self.apply_action(k)

    def clone(self) -> GameState:
        """An independent copy. With explicit chance a state is never changed in place (each
        step runs on a copy of the one before), so the copies share it: solvers clone at
        every node."""
        st = self.st if self.chance == "explicit" else self.st.clone()
        c = _new(type(self))  # (each field set here: no `__init__` and its checks)
        c.st = st
        c.failed = self.failed
        c.resumed = self.resumed
        c.chance = self.chance
        # the state before a step waiting for chance is never changed: shared, not copied
        c._base = self._base
        c._answer = self._answer
        c._tape = self._tape[:]
        c._chance_n = self._chance_n
        return c

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
        return self.st.over and not self._chance_n

    def returns(self) -> list[float]:
        """At the end, each player's payoff: the ruleset's `payoff(p)` when it defines one
        (build/evaluation.py), else +1 for a winner, -1 for a loser, 0 for a draw."""
        st = self.st
        n = st.g.nplayers
        if not self.is_terminal():
            return [0.0] * n
        payoff = st.g.prog.payoff
        if payoff is not None:
            return [payoff(st, p) for p in range(n)]
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
            out["decision"] = {
                "prompt": st.pending.prompt,
                "options": optionlabels.decision_labels(st),
            }
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
        0..n-1 instead). At a chance node the outcomes are their own ids, 0..n-1."""
        if self._chance_n:
            return list(range(self._chance_n))
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
    def to_json(self, seats: list[str] | None = None) -> str:
        """The position as a save; `seats` (who plays each seat: `human`, an agent with its
        settings) is kept with it so that a resumed game is played by the same seats."""
        if self.failed is not None:
            raise MadangError(
                "the game stopped halfway through a step with an error in the rules; that state"
                f" cannot be saved ({self.failed})"
            )
        st = self._base if self._chance_n else self.st
        g = st.g
        doc = {
            "format": SAVE_FORMAT,
            "ruleset": g.prog.name,
            "ruleset_path": str(g.prog.folder or ""),
            "cards": list(g.prog.extra_cards),
            "options": g.options,
            "seed": g.seed,
            "fingerprint": fingerprint(g.prog),
            # at a chance node of the setup, the game has not started: no state to save yet
            "state": None if self._chance_n and self._answer is None else st.to_data(),
        }
        if self.chance != "sampled":
            doc["chance"] = self._chance_data()
        if seats is not None:
            doc["seats"] = [str(s) for s in seats]
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
                try:
                    prog = load_program(path if path and Path(path).is_dir() else ref, cards)
                except MadangError as e:  # the save named these files: any file at all
                    for c in cards:
                        if e.diags is not None and isinstance(c, str):
                            e.diags.hide(c)
                    raise
            changed = differences(doc.get("fingerprint"), fingerprint(prog))
            if changed:
                raise MadangError(
                    f"the save was made with different {_listed(changed)} than"
                    f" {prog.name} has now; it cannot be resumed under changed rules"
                )
            opts = dict(doc["options"])
            g = make_game(prog, opts, doc["seed"])
            if doc["state"] is None and (doc.get("chance") or {}).get("answer", 0) is None:
                st = State(g)  # saved at a chance node of the setup
            else:
                saves.check_state(doc["state"], g)
                st = State.from_data(g, doc["state"])
            chance = saves.check_chance(doc.get("chance"), st)
            game = cls(st, resumed=True, chance=chance["mode"])
            if "outcomes" in chance:  # saved at a chance node: replay the step up to it
                game._tape = list(chance["outcomes"])
                game._step(st, chance["answer"])
                if not game._chance_n:
                    raise saves.BadSave("its chance outcomes end at no chance node")
        except saves.BadSave as e:
            raise MadangError(f"corrupt save file: {e}") from None
        except MadangError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise MadangError(f"corrupt save file: {type(e).__name__}: {e}") from None
        return game

    def _chance_data(self) -> dict:
        """How chance is played, and at a chance node the step it interrupts: the answer that
        began it (the saved state is the one before) and the outcomes chosen since."""
        out: dict = {"mode": self.chance}
        if self._chance_n:
            out["answer"] = self._answer
            out["outcomes"] = list(self._tape)
        return out

    @staticmethod
    def saved_seats(text: str) -> list[str] | None:
        """The seats a save was made with (None when it names none, as older saves)."""
        try:
            seats = json.loads(text).get("seats")
        except (ValueError, AttributeError, RecursionError):
            return None
        if isinstance(seats, list) and all(isinstance(s, str) for s in seats):
            return seats
        return None

    def digest(self) -> str:
        st = self._base if self._chance_n else self.st
        doc = {"state": st.to_data(), "chance": self._chance_data()}
        data = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
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
    chance: str = "sampled",
    memory: bool = True,
) -> GameState:
    """A new game. `chance="sampled"` draws the outcomes of random operations from the
    engine's generator (seeded by `seed`); `chance="explicit"` makes each one a chance node
    (`current_player() == CHANCE`, `chance_outcomes()`), for solvers. `memory=False`: no
    seat's memory of the cards it saw go out of its view is kept (runtime/seen.py), as in
    the samples searches play in: for games where no seat samples (random playouts); a
    sample of such a game re-deals every card its seat cannot see."""
    prog = ruleset if isinstance(ruleset, Program) else load_program(ruleset, cards)
    g = make_game(prog, options, seed)
    st = State(g)
    if log:
        st.log = []
    if not memory:
        st.kept = None
    game = GameState(st, chance=chance)
    if chance == "explicit":
        game._step(st, None)
    else:
        start(st)
    return game


__all__ = [
    "CHANCE",
    "TERMINAL",
    "new_game",
    "GameState",
    "MadangError",
    "load_program",
    "RulesError",
    "make_game",
    "resolve_options",
    "start",
]
