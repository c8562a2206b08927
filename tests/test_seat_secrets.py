"""Each seat learns only what it may know: random games of every bundled ruleset are narrated
for every seat, and no card a seat has not seen appears in its transcript or its view before
it is revealed. Ground truth comes from the full log and the zones' declared visibility, not
from the `seen` marks that narration reads (runtime/seen.py)."""

from __future__ import annotations

import json

import pytest
from madang.game.api import new_game
from madang.tools.agents import RandomAgent
from madang.tools.narration import Narrator
from madang.tools.seatview import seat_view

GAMES = [
    ("game_of_thrones_2p", {"houses": "stark,lannister"}),
    ("game_of_thrones_2p", {"plot_draft": True}),
    ("nivel_arena", {}),
    ("clash_of_decks", {}),
    ("clash_of_decks", {"format": "instant"}),
    ("clash_of_decks", {"format": "draft"}),
    ("cthulhu_wars", {"players": 3}),
]


def _sees(g, zone_name: str, owner: int, seat: int) -> bool:
    z = g.prog.zones[zone_name]
    return z.visibility == "public" or (
        z.visibility == "owner" and z.scope == "player" and owner == seat
    )


def _mentions(text: str, name: str, known: set[str]) -> bool:
    """`name` in `text`, not counting where it is part of a longer name the seat knows."""
    for other in sorted((k for k in known if name in k and k != name), key=len, reverse=True):
        text = text.replace(other, "")
    return name in text


class Seat:
    """What one seat has been shown so far, and its transcript."""

    def __init__(self, game, seat: int, lang: str):
        self.seat = seat
        self.narrator = Narrator(game.st.g.prog, lang, seat=seat)
        self.known: set[str] = set()

    def learn(self, game, batch: list) -> None:
        st = game.st
        g = st.g
        labels = {g.zone_label(z): info for z, info in enumerate(g.zone_info)}
        for e in batch:  # the full log: a card moved where this seat sees it is known
            if isinstance(e, dict) and "move" in e and e.get("to") in labels:
                name, owner = labels[e["to"]]
                if _sees(g, name, owner, self.seat):
                    self.known.update(e["move"])
        for z, (name, owner) in enumerate(g.zone_info):
            if _sees(g, name, owner, self.seat):
                self.known.update(g.prog.cards[st.obj_card[o]].name for o in st.zones[z])
        if game.current_player() == self.seat:  # the seat's own options name what it may see
            self.known.update(
                n for n in self.all_names(g) if any(n in lab for lab in game.action_labels())
            )

    @staticmethod
    def all_names(g) -> set[str]:
        return {c.name for c in g.prog.cards}

    def secrets(self, game) -> set[str]:
        """Cards the seat has not been shown that lie where it may not see."""
        st = game.st
        g = st.g
        hidden = set()
        for z, (name, owner) in enumerate(g.zone_info):
            if not _sees(g, name, owner, self.seat):
                hidden.update(g.prog.cards[st.obj_card[o]].name for o in st.zones[z])
        return hidden - self.known


@pytest.mark.parametrize(("ruleset", "options"), GAMES, ids=[f"{r}-{o}" for r, o in GAMES])
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])  # CI plays both
def test_no_seat_hears_or_sees_a_card_before_it_is_shown(ruleset, options, seed):
    game = new_game(ruleset, options, seed, log=True)
    prog = game.st.g.prog
    lang = prog.meta.get("language") or "en"
    seats = [Seat(game, p, lang) for p in range(game.st.g.nplayers)]
    agent = RandomAgent()
    secret_lines = 0
    batch = list(game.st.log)
    for step in range(5000):
        game.st.log.clear()
        for s in seats:
            before = s.secrets(game) | (s.all_names(game.st.g) - s.known)
            s.learn(game, batch)
            for line in s.narrator.lines(batch):
                leaked = {n for n in before - s.known if _mentions(line, n, s.known)}
                assert not leaked, f"step {step}: P{s.seat + 1} hears {leaked} in {line!r}"
                secret_lines += "(비공개" in line or "(secret" in line or "(a hidden" in line
            view = json.dumps(seat_view(game, s.seat), ensure_ascii=False)
            hidden = s.secrets(game)
            shown = {n for n in hidden if _mentions(view, n, s.known)}
            assert not shown, f"step {step}: P{s.seat + 1}'s view shows {shown}"
        if game.is_terminal():
            break
        game.apply_action(agent.choose(game))
        batch = list(game.st.log)
    assert game.is_terminal()
    if ruleset == "game_of_thrones_2p":
        assert secret_lines > 0  # the plots were chosen in secret, and said so


def test_the_got_plot_is_secret_until_revealed():
    """The leak of issue 15: P1's plot was printed before P2 chose theirs."""
    game = new_game("game_of_thrones_2p", {"houses": "stark,lannister"}, 11, log=True)
    n2 = Narrator(game.st.g.prog, "ko", seat=1)
    agent = RandomAgent()
    heard: list[str] = []
    while not (game.st.pending and game.prompt() == "플롯 선택" and game.current_player() == 1):
        heard += n2.lines(game.st.log)
        game.st.log.clear()
        game.apply_action(agent.choose(game))
    heard += n2.lines(game.st.log)
    plot = next(game.st.g.prog.cards[game.st.obj_card[o]].name
                for z, (name, owner) in enumerate(game.st.g.zone_info)
                if name == "chosen_plot" and owner == 0 for o in game.st.zones[z])  # fmt: skip
    assert "  P1 선택 (플롯 선택): (비공개)" in heard
    assert not any(plot in line for line in heard)
