"""OpenSpiel: any ruleset as a Python game registered with pyspiel (`pip install 'madang[rl]'`).

    import pyspiel, madang.game.openspiel
    game = pyspiel.load_game("madang", {"ruleset": "my_game", "options": "players:3", "seed": 7})

The game type says what the rulesets are: sequential, imperfect information, terminal rewards,
and *explicit* chance (`EXPLICIT_STOCHASTIC`) at one place: the first node of a game is a chance
node that picks one of `deals` equally likely deals (each a seed of the engine's generator, derived
from the game's `seed`), and every shuffle and die roll of that game follows from it. So a state is
its history of actions — the deal first — which is how OpenSpiel serialises and replays states,
and searches (MCTS, CFR) see the chance event as OpenSpiel expects. Actions are the ruleset's
stable ids (game/actionspace.py); observation tensors come from game/tensor.py.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from .api import GameState, load_program, new_game

SHORT_NAME = "madang"
DEFAULTS = {"ruleset": "", "options": "", "seed": 0, "deals": 1024, "max_decisions": 20_000}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="madang ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


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
        self.deals = int(params["deals"])
        if self.deals < 1:
            raise ValueError('the parameter "deals" must be at least 1')
        self.max_decisions = int(params["max_decisions"])
        self.program = load_program(self.ruleset)
        probe = new_game(self.program, self.options, seed=self.seed)
        self.num_seats = probe.st.g.nplayers
        self.tensor_shape = probe.observation_tensor(0).shape
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.action_space().size,
            max_chance_outcomes=self.deals,
            num_players=self.num_seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.max_decisions,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> MadangState:
        return MadangState(self)

    def deal_seed(self, deal: int) -> int:
        """The engine's seed for one deal: distinct per (seed, deal), stable across runs."""
        return self.seed * 1_000_003 + deal

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        return Observer(self)


class MadangState(pyspiel.State):
    def __init__(self, game: MadangGame):
        super().__init__(game)
        self.game_state: GameState | None = None  # None until the opening chance node's deal
        self._limit = game.max_decisions

    def current_player(self) -> int:
        if self.game_state is None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.game_state.current_player()

    def is_chance_node(self) -> bool:
        return self.game_state is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.get_game().deals
        return [(k, 1.0 / n) for k in range(n)] if self.game_state is None else []

    def _legal_actions(self, player: int) -> list[int]:
        if self.game_state is None:
            return list(range(self.get_game().deals)) if player == pyspiel.PlayerId.CHANCE else []
        if player != self.game_state.current_player():
            return []
        return sorted(self.game_state.legal_action_ids())

    def _apply_action(self, action: int) -> None:
        if self.game_state is None:
            g = self.get_game()
            self.game_state = new_game(g.program, g.options, seed=g.deal_seed(int(action)))
            return
        self.game_state.apply_action_id(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        gs = self.game_state
        if gs is None or player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        if player == gs.current_player():
            ids = gs.legal_action_ids()
            if action in ids:
                return gs.action_labels()[ids.index(action)]
        return gs.action_space().describe(action)

    def is_terminal(self) -> bool:
        gs = self.game_state
        return gs is not None and (gs.is_terminal() or gs.st.decisions >= self._limit)

    def returns(self) -> list[float]:
        if self.game_state is None:
            return [0.0] * self.get_game().num_seats
        return [float(r) for r in self.game_state.returns()]

    def __str__(self) -> str:
        from .pettingzoo import render_text

        gs = self.game_state
        if gs is None:
            return "before the deal"
        return f"decisions {gs.st.decisions}\n" + render_text(gs, max(gs.current_player(), 0))


class Observer:
    """pyspiel's observer interface: `tensor` and `dict` filled from one seat's view."""

    def __init__(self, game: MadangGame):
        self.tensor = np.zeros(game.tensor_shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MadangState, player: int) -> None:
        if state.game_state is None:
            self.tensor[:] = 0.0
        else:
            self.tensor[:] = state.game_state.observation_tensor(player)

    def string_from(self, state: MadangState, player: int) -> str:
        from .pettingzoo import render_text

        if state.game_state is None:
            return "before the deal"
        return render_text(state.game_state, player)


pyspiel.register_game(GAME_TYPE, MadangGame)
