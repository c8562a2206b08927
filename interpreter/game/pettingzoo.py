"""PettingZoo: any ruleset as an AEC environment (`pip install 'madang[rl]'`).

    from madang.game.pettingzoo import env
    e = env("my_game", {"players": 3})
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Actions are the ruleset's stable ids (game/actionspace.py), the observation is
`{"observation": float32 array, "action_mask": int8 array}` from the seat's own view
(game/tensor.py), and rewards come at the end: the ruleset's `payoff(p)` when it defines one,
else +1 for a winner, -1 for a loser, 0 for a draw. The game's own randomness is seeded by
`reset(seed=...)`: by default the engine's generator draws (`chance="sampled"`); with
`chance="explicit"` the environment draws each chance node's outcome (runtime/chance.py) from
its own generator. No agent acts at a chance node either way, so AEC has nothing to show.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .api import GameState, load_program, new_game, resolve_options


def env(ruleset: str, options: dict | None = None, **kwargs) -> MadangEnv:
    """The AEC environment of a ruleset (a bundled name or a folder), with its options."""
    return MadangEnv(ruleset, options, **kwargs)


class MadangEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "madang", "is_parallelizable": False}

    def __init__(
        self,
        ruleset: str,
        options: dict | None = None,
        render_mode: str | None = None,
        max_decisions: int = 20_000,
        cards: tuple[str, ...] = (),
        chance: str = "sampled",
    ):
        super().__init__()
        self.chance = chance
        self.program = load_program(ruleset, cards)
        self.options = dict(options or {})
        resolve_options(self.program, self.options)  # bad options fail here, not at reset
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.metadata = {**self.metadata, "name": f"madang_{self.program.name}"}
        probe = new_game(self.program, self.options, seed=0)
        size = probe.action_space().size
        shape = probe.observation_tensor(0).shape
        low, high = probe.st.g.observation_encoder.bounds()
        self.possible_agents = [f"player_{i}" for i in range(probe.st.g.nplayers)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self.game: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = seed if seed is not None else int(self._rng.integers(0, 2**31 - 1))
        self.game = new_game(self.program, self.options, seed=game_seed, chance=self.chance)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def observe(self, agent: str) -> dict:
        game = self.game
        seat = self._seat[agent]
        mask = np.zeros(self._action_spaces[agent].n, dtype=np.int8)
        if game.current_player() == seat:
            mask[game.legal_action_ids()] = 1
        return {"observation": game.observation_tensor(seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_action_id(int(action))
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """After a move: the end of the game, or whose turn it is. With explicit chance the
        environment draws each chance outcome itself, from its seeded generator."""
        game = self.game
        while game.is_chance_node():
            game.apply_action(int(self._rng.integers(len(game.chance_outcomes()))))
        if game.is_terminal():
            for agent, r in zip(self.possible_agents, game.returns()):
                self.rewards[agent] = float(r)
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        elif game.st.decisions >= self.max_decisions:
            for agent in self.agents:
                self.truncations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[game.current_player()]

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        text = render_text(self.game, self.game.current_player())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None


def render_text(game: GameState, seat: int) -> str:
    """The text view of the seat to act (everyone's public view once the game is over)."""
    view = game.observation(max(seat, 0))
    lines = [
        f"round {view['round']}, turn of P{view['active'] + 1}"
        if isinstance(view["active"], int)
        else ""
    ]
    for zone, content in view["zones"].items():
        shown = ", ".join(content) if isinstance(content, list) else f"{content['count']} hidden"
        known = content.get("known") if isinstance(content, dict) else None
        if known:
            shown += " (" + ", ".join(f"#{i + 1} {name}" for i, name in known) + ")"
        lines.append(f"{zone}: {shown}")
    # every counter: they are public, and two histories that differ only in them differ
    for name, value in sorted(view["counters"].items()):
        lines.append(f"{name}: {value}")
    for name, values in sorted(view["player_counters"].items()):
        lines.append(f"{name}: " + ", ".join(f"P{k + 1} {v}" for k, v in enumerate(values)))
    g = game.st.g
    for name, values in sorted(game.st.acounters.items()):
        lines.append(f"{name}: " + ", ".join(f"{a} {v}" for a, v in zip(g.areas, values)))
    decision = view.get("decision")
    if decision:
        lines.append(f"P{seat + 1} {decision['prompt']}: " + " | ".join(decision["options"]))
    return "\n".join(line for line in lines if line)
