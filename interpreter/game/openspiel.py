"""OpenSpiel: any ruleset as a Python game registered with pyspiel (`pip install 'madang[rl]'`).

    import pyspiel, madang.game.openspiel
    game = pyspiel.load_game("madang", {"ruleset": "my_game", "options": "players:3"})

The game is the ruleset's own: its random operations are explicit chance nodes with their exact
probabilities (a shuffle of n cards is n-1 uniform draws, a die its faces; runtime/chance.py),
its returns are the ruleset's `payoff(p)` when it defines one (else +1 / -1 / 0), and each
seat's information state is its perfect recall of what it saw (game/recall.py). A state is
its history of actions, chance outcomes included, which is how OpenSpiel serialises and
replays states. With `chance: "sampled"` the engine's seeded generator draws instead (no chance
nodes: faster, for play and learning, not for solvers). Actions are the ruleset's stable ids
(game/actionspace.py); observation tensors come from game/tensor.py.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from .api import GameState, load_program, new_game
from .recall import Recall

SHORT_NAME = "madang"
DEFAULTS = {
    "ruleset": "",
    "options": "",
    "seed": 0,
    "chance": "explicit",
    "max_decisions": 20_000,
    "recall": 16,
    "max_chance_outcomes": 0,
}
Type = pyspiel.GameType


def game_type(chance: str = "explicit", utility=Type.Utility.GENERAL_SUM) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="madang ruleset",
        dynamics=Type.Dynamics.SEQUENTIAL,
        chance_mode=Type.ChanceMode.EXPLICIT_STOCHASTIC
        if chance == "explicit"
        else Type.ChanceMode.SAMPLED_STOCHASTIC,
        information=Type.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=Type.RewardModel.TERMINAL,
        max_num_players=16,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


GAME_TYPE = game_type()


def parse_options(text: str) -> dict:
    """`"players:3;order:a+b"` → {"players": "3", "order": "a,b"}.

    pyspiel parameters are flat and its game strings (`madang(options=...)`, used to serialise
    states) reserve `=`, `,` and brackets, so inside `options` a value follows `:` and a list's
    items are joined by `+`. `name=value` and commas are read too, for games that are never
    serialised."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        sep = ":" if ":" in part and ("=" not in part or part.index(":") < part.index("=")) else "="
        key, _, value = part.partition(sep)
        out[key.strip()] = value.strip().replace("+", ",")
    return out


def utility(prog) -> tuple[object, float, float, float | None]:
    """(utility kind, lowest, highest, constant sum) from the ruleset: its payoff's declared
    `payoff_range` and `payoff_sum` (ruleset.yaml settings), or win/lose/draw's [-1, 1]."""
    settings = prog.settings
    if prog.payoff is None:
        return Type.Utility.GENERAL_SUM, -1.0, 1.0, None
    lo, hi = settings.get("payoff_range") or (float("-inf"), float("inf"))
    total = settings.get("payoff_sum")
    if total is None:
        return Type.Utility.GENERAL_SUM, float(lo), float(hi), None
    kind = Type.Utility.ZERO_SUM if total == 0 else Type.Utility.CONSTANT_SUM
    return kind, float(lo), float(hi), float(total)


class MadangGame(pyspiel.Game):
    def __init__(self, params: dict | None = None):
        params = {**DEFAULTS, **(params or {})}
        self.ruleset = str(params["ruleset"])
        if not self.ruleset:
            raise ValueError(
                'the game "madang" needs a parameter "ruleset" (a bundled name or a folder)'
            )
        self.options = parse_options(str(params["options"]))
        self.seed = int(params["seed"])
        self.chance = str(params["chance"])
        if self.chance not in ("explicit", "sampled"):
            raise ValueError('the parameter "chance" is "explicit" or "sampled"')
        self.max_decisions = int(params["max_decisions"])
        self.recall = max(0, int(params["recall"]))
        self.program = load_program(self.ruleset)
        probe = new_game(self.program, self.options, seed=self.seed)
        self.num_seats = probe.st.g.nplayers
        self.tensor_shape = probe.observation_tensor(0).shape
        self.space_size = probe.action_space().size
        # A chance node has as many outcomes as the objects it shuffles or picks from, or a
        # die's faces: bounded by a multiple of the objects at the start unless given.
        self.chance_bound = int(params["max_chance_outcomes"]) or max(
            64, 4 * len(probe.st.obj_card)
        )
        kind, lo, hi, total = utility(self.program)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space_size,
            max_chance_outcomes=self.chance_bound if self.chance == "explicit" else 0,
            num_players=self.num_seats,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total,
            max_game_length=self.max_decisions,
        )
        super().__init__(game_type(self.chance, kind), info, params)

    def new_initial_state(self) -> MadangState:
        return MadangState(self)

    def information_state_tensor_size(self) -> int:
        return self.recall * (self.num_seats + 2 + int(np.prod(self.tensor_shape)))

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self, recall)


class MadangState(pyspiel.State):
    """pyspiel clones a Python state by making a new initial state and deep-copying its
    `__dict__` over it: the initial state is therefore a clone of one kept by the game, and
    the game state and the record deep-copy as clones (the compiled ruleset is shared)."""

    def __init__(self, game: MadangGame):
        super().__init__(game)
        self._limit = game.max_decisions
        first = game.__dict__.get("_first")
        if first is None:
            self.game_state: GameState = new_game(
                game.program, game.options, seed=game.seed, chance=game.chance
            )
            self.recall = Recall(game.num_seats, game.recall)
            self._settled()
            game._first = (self.game_state.clone(), self.recall.clone())
        else:
            self.game_state, self.recall = first[0].clone(), first[1].clone()

    def _settled(self) -> None:
        """Once the game waits for a player again (or is over): each seat's view, recorded."""
        gs = self.game_state
        if gs.is_chance_node():
            n = len(gs.chance_outcomes())
            if n > self.get_game().chance_bound:
                raise ValueError(
                    f'a chance node with {n} outcomes: give the game a larger "max_chance_outcomes"'
                )
            return
        self.recall.observed(gs, lambda p: observation_text(gs, p))

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.game_state.current_player()  # CHANCE is -1 in both

    def is_chance_node(self) -> bool:
        return self.game_state.is_chance_node()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.game_state.chance_outcomes() if self.game_state.is_chance_node() else []

    def _legal_actions(self, player: int) -> list[int]:
        gs = self.game_state
        if player != gs.current_player() or self.is_terminal():
            return []
        return sorted(gs.legal_action_ids())

    def _apply_action(self, action: int) -> None:
        gs = self.game_state
        if gs.is_chance_node():
            gs.apply_action(int(action))
        else:
            ids = gs.legal_action_ids()
            k = ids.index(int(action))
            self.recall.decided(gs, k, int(action))
            gs.apply_action(k)
        self._settled()

    def _action_to_string(self, player: int, action: int) -> str:
        gs = self.game_state
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        if player == gs.current_player():
            ids = gs.legal_action_ids()
            if action in ids:
                return gs.action_labels()[ids.index(action)]
        return gs.action_space().describe(action)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> MadangState:
        """A state `player_id` cannot tell from this one: what it may not see re-dealt by the
        sampler madang's own agents use (game/determinize.py: its view and what the ruleset
        declares public, nothing else), the generator re-seeded. `probability_sampler()` gives
        the uniform number the sample is seeded from (OpenSpiel's ISMCTSBot passes one). Every
        seat's recall in it comes from `player_id`'s alone (Recall.resampled)."""
        import random

        out = self.clone()
        if self.game_state is not None:
            seed = int(float(probability_sampler()) * (1 << 53))
            gs = out.game_state = self.game_state.determinize(int(player_id), random.Random(seed))
            out.recall = self.recall.resampled(
                int(player_id), gs, lambda p: observation_text(gs, p), seed
            )
        return out

    def is_terminal(self) -> bool:
        gs = self.game_state
        return gs.is_terminal() or (not gs.is_chance_node() and gs.st.decisions >= self._limit)

    def returns(self) -> list[float]:
        return [float(r) for r in self.game_state.returns()]

    def __str__(self) -> str:
        gs = self.game_state
        who = gs.current_player()
        return f"decisions {gs.st.decisions}\n" + observation_text(gs, max(who, 0))


def observation_text(game: GameState, seat: int) -> str:
    from .pettingzoo import render_text

    return render_text(game, seat)


class Observer:
    """pyspiel's observer interface: `tensor` and `dict` filled from one seat's view, or with
    `recall`, from its perfect recall (information states)."""

    def __init__(self, game: MadangGame, recall: bool):
        self.recall = recall
        self.space_size = game.space_size
        size = game.information_state_tensor_size() if recall else int(np.prod(game.tensor_shape))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"information_state" if recall else "observation": self.tensor}

    def set_from(self, state: MadangState, player: int) -> None:
        if self.recall:
            state.recall.tensor(player, self.tensor, self.space_size)
        else:
            self.tensor[:] = state.game_state.observation_tensor(player).reshape(-1)

    def string_from(self, state: MadangState, player: int) -> str:
        if self.recall:
            return state.recall.text(player)
        return observation_text(state.game_state, player)


pyspiel.register_game(GAME_TYPE, MadangGame)
