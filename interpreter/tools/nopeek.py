"""No peeking: an agent's answer may depend only on what its seat may know.

`check(spec, game)` asks a fresh agent `spec` for its answer at the decision of `game`, then
asks again in *variants* of the game that differ only in what the deciding seat cannot see, and
reports which variants changed the answer (the option chosen, and for a search its root
statistics: visits and mean reward of every option). The variants:

- `redeal`: the unseen objects trade places at random, whatever their kind, within each
  owner (and kind, for the kinds the ruleset declares public: game/determinize.py); what the
  seat remembers (runtime/seen.py) stays where it is, as it does in the seat's samples;
- `deck`: the other players' unseen cards become other cards of the ruleset's card pool
  (only when the ruleset does not declare decklists public: then an opponent's deck is part of
  what the seat cannot see);
- `rng`: another state of the random generator (future shuffles and dice).

The seat's observation, its options and the decision's prompt are the same in every variant
(checked). An honest agent gives the same answer in all of them; one that reads the real state
(`mcts:N:peek`, or `peeking`, which picks by a digest of the whole state) does not: the tests
use those as the control agents (tests/test_no_peeking.py).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..game.api import GameState, new_game
from ..game.determinize import forget, hidden_slots, public_of, sees_zone
from ..game.position import Position
from .agents import Agent, Decision, make_agent


def redeal(game: GameState, seat: int, rng: random.Random) -> GameState:
    """The unseen objects of `game` re-dealt among the unseen places (any kind, same owner)."""
    g = game.clone()
    st = g.st
    groups = hidden_slots(st, seat)
    for key in sorted(groups, key=repr):
        slots = groups[key]
        objs = [st.zones[z][i] for z, i in slots]
        rng.shuffle(objs)
        for (z, i), o in zip(slots, objs):
            st.own_zones(1 << z)[z][i] = o
            st.obj_zone[o] = z
    st.forget_kept()
    return g


def other_deck(game: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The other players' unseen cards replaced by cards of the pool (None when the ruleset
    declares decklists public, or has no decks)."""
    st = game.st
    pub = public_of(st.g.prog)
    if pub.decklists or not pub.pool:
        return None
    g = game.clone()
    st = g.st
    changed = False
    for (owner, _face), slots in hidden_slots(st, seat).items():
        if owner == seat or owner < 0:
            continue
        for z, i in slots:
            o = st.zones[z][i]
            if st.obj_card[o] in pub.in_pool:
                card = pub.pool[rng.randrange(len(pub.pool))]
                changed |= card != st.obj_card[o]
                st.own_objects()
                st.obj_card[o] = card
                forget(st, o)
    st.forget_kept()
    return g if changed else None


def other_rng(game: GameState, seat: int, rng: random.Random) -> GameState:
    g = game.clone()
    Position(g).reseed(rng.getrandbits(64))
    return g


VARIANTS = {"redeal": redeal, "deck": other_deck, "rng": other_rng}


def variants(game: GameState, seat: int, seed: int = 0) -> Iterator[tuple[str, GameState]]:
    """Every variant that differs from `game` in something `seat` cannot see."""
    for name, make in VARIANTS.items():
        v = make(game, seat, random.Random(f"{seed}:{name}"))
        if v is not None and v.st.to_data() != game.st.to_data():
            yield name, v


class PeekingAgent(Agent):
    """The control: it reads the real state (all of it) and picks an option from its digest,
    so any change the seat cannot see changes its answer (almost always)."""

    name = "peeking"

    def decide(self, d: Decision) -> int:
        data = json.dumps(d.search_root().st.to_data(), sort_keys=True, default=str)
        return int(hashlib.sha256(data.encode()).hexdigest(), 16) % d.count


def answer(spec: str, game: GameState) -> tuple:
    """A fresh agent's option and, for a search, its root statistics (`peeking`: the
    control, PeekingAgent)."""
    agent = PeekingAgent() if spec == "peeking" else make_agent(spec)
    choice = agent.decide(Decision(game))
    last = getattr(agent, "last", None)
    stats = None
    if last is not None:
        stats = [(r["label"], r["visits"], r["mean"]) for r in last.stats()]
    return choice, stats


def same_view(a: GameState, b: GameState, seat: int) -> bool:
    """Whether `seat` sees the same in both (observation, options, prompt)."""
    return (
        a.observation(seat) == b.observation(seat)
        and a.action_labels() == b.action_labels()
        and a.prompt() == b.prompt()
    )


@dataclass
class Report:
    """What `check` found at one decision."""

    seat: int
    answer: tuple
    tried: list[str] = field(default_factory=list)  # the variants asked
    changed: list[str] = field(default_factory=list)  # those whose answer differed

    @property
    def honest(self) -> bool:
        return not self.changed


def check(spec: str, game: GameState, seed: int = 0) -> Report:
    """Asks agent `spec` at `game`'s decision and in every variant (see the module doc)."""
    seat = game.current_player()
    base = answer(spec, game)
    report = Report(seat, base)
    for name, v in variants(game, seat, seed):
        if not same_view(game, v, seat):
            raise AssertionError(f"variant {name} changes what P{seat + 1} sees")
        report.tried.append(name)
        if answer(spec, v) != base:
            report.changed.append(name)
    return report


def positions(ruleset: str, options: dict | None = None, seed: int = 0, count: int = 3,
              skip: int = 5) -> list[GameState]:  # fmt: skip
    """Up to `count` decisions of random play (one every `skip`, from the `skip`th on) whose
    seat cannot see some object of another player, or some object at all."""
    game = new_game(ruleset, options or {}, seed=seed)
    rng = random.Random(seed)
    out: list[GameState] = []
    step = 0
    while not game.is_terminal() and len(out) < count and step < 5000:
        step += 1
        if step % skip == 0 and decides_blind(game):
            out.append(game.clone())
        game.apply_action(rng.randrange(len(game.legal_actions())))
    return out


def decides_blind(game: GameState) -> bool:
    """Whether the seat deciding has options and cannot see every object of the game."""
    st = game.st
    seat = game.current_player()
    if len(game.legal_actions()) < 2:
        return False
    return any(objs and not sees_zone(st, z, seat) for z, objs in enumerate(st.zones))


__all__ = [
    "PeekingAgent",
    "check",
    "positions",
    "variants",
    "redeal",
    "other_deck",
    "other_rng",
    "Report",
]
