"""Agents answer decisions. Each sees only its seat's observation and the legal options.

The random agent draws from its own generator seeded from the game's seed and the number of
decisions made so far, so a game saved and resumed continues exactly as one that never stopped.
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Protocol

from .api import GameState, MadangError

AGENTS = ("random", "first", "human", "scripted")


class Agent(Protocol):
    def choose(self, game: GameState, seat: int) -> int: ...


def agent_rng(seed: int, decision: int) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{decision}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "little"))


class RandomAgent:
    """Uniform over the legal options."""

    def choose(self, game: GameState, seat: int) -> int:
        st = game.st
        n = len(game.legal_actions())
        return agent_rng(st.g.seed, st.decisions).randrange(n)


class FirstAgent:
    """Always the first option (for tests)."""

    def choose(self, game: GameState, seat: int) -> int:
        return 0


class ScriptedAgent:
    """Answers from a list of option labels or indices, in order."""

    def __init__(self, script: list):
        self.script = list(script)

    def choose(self, game: GameState, seat: int) -> int:
        if not self.script:
            raise MadangError("the script of choices ran out")
        step = self.script.pop(0)
        labels = game.action_labels()
        if isinstance(step, int) or (isinstance(step, str) and step.isdigit() and step not in labels):
            i = int(step)
            if 0 <= i < len(labels):
                return i
            raise MadangError(f"scripted choice {step} is out of range (0..{len(labels) - 1})")
        if step in labels:
            return labels.index(step)
        raise MadangError(f"scripted choice {step!r} is not an option; options: {', '.join(labels)}")


class HumanAgent:
    """Numbered options and the visible state in the terminal; re-asks on nonsense."""

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def choose(self, game: GameState, seat: int) -> int:
        out = self.stdout
        obs = game.observation(seat)
        out.write(f"\n— P{seat + 1}: turn {obs['turn']}, {obs['phase'] or '-'}\n")
        for label, contents in obs["zones"].items():
            if isinstance(contents, dict):
                if contents["count"]:
                    out.write(f"  {label}: {contents['count']} hidden\n")
            elif contents:
                out.write(f"  {label}: {', '.join(contents)}\n")
        for name, values in obs["player_counters"].items():
            out.write(f"  {name}: {' / '.join(map(str, values))}\n")
        labels = game.action_labels()
        out.write(f"{game.prompt()}:\n")
        for i, label in enumerate(labels):
            out.write(f"  {i}) {label}\n")
        while True:
            out.write("> ")
            out.flush()
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input")
            answer = line.strip()
            if answer.isdigit() and int(answer) < len(labels):
                return int(answer)
            if answer in labels:
                return labels.index(answer)
            out.write(f"  please type a number from 0 to {len(labels) - 1}, or an option's text\n")


def make_agent(name: str) -> Agent:
    if name == "random":
        return RandomAgent()
    if name == "first":
        return FirstAgent()
    if name == "human":
        return HumanAgent()
    if name.startswith("scripted:"):
        return ScriptedAgent(name.split(":", 1)[1].split("|"))
    raise MadangError(f"unknown agent {name!r}; agents: random, first, human, scripted:A|B|C")
