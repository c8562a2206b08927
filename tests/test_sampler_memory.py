"""What a seat remembers, and what its samples keep (game/determinize.py, runtime/seen.py): a
card the seat saw go where it cannot see stays known there (and where, while the seat can follow
its place) until its zone is shuffled or an object leaves that zone in a way the seat cannot
follow; samples keep it and re-deal only the rest (issue 30)."""

import random

from madang.game.api import new_game
from madang.runtime import engine
from madang.runtime.seen import known_to, remembered
from madang.tools.nopeek import check, redeal


def _play_until(ruleset, seed, found, limit=600):
    """Random play from `seed` (or the next seeds) until `found(game)` holds; the game."""
    for k in range(seed, seed + 10):
        g = new_game(ruleset, {}, seed=k)
        rng = random.Random(k)
        for _ in range(limit):
            if found(g):
                return g
            if g.is_terminal():
                break
            g.apply_action(rng.randrange(len(g.legal_actions())))
    raise AssertionError("no such position")


def _opponents_remembered(g, pos=None):
    seat = g.current_player()
    r = remembered(g.st, seat)
    return {  # remembered only: not revealed to it (`reveal` keeps those in view)
        o: p
        for o, p in r.items()
        if g.st.obj_owner[o] != seat and (pos is None or p == pos) and seat not in known_to(g.st, o)
    }


def _where(st, o):
    z = st.obj_zone[o]
    return z, st.zones[z].index(o)


def test_a_unit_returned_to_an_opponents_hand_stays_there_in_every_sample():
    # Nivel Arena: a unit bounced from the field to its owner's hand (rules.madang 219) went
    # to the back of that hand: the other seat knows the card and its place.
    g = _play_until("nivel_arena", 0, lambda g: _opponents_remembered(g, True))
    seat, st = g.current_player(), g.st
    o = next(iter(_opponents_remembered(g, True)))
    card, place = st.obj_card[o], _where(st, o)
    for k in range(20):
        s = g.determinize(seat, random.Random(k)).st
        assert s.obj_card[o] == card and _where(s, o) == place
    # Forgetting it (as the sampler did before), the card in that place is re-dealt.
    blank = g.clone()
    blank.st.kept = ()
    cards = set()
    for k in range(20):
        s = blank.determinize(seat, random.Random(k)).st
        cards.add(s.obj_card[s.zones[place[0]][place[1]]])
    assert len(cards) > 1


def test_after_a_shuffle_the_card_is_still_in_the_zone_but_anywhere():
    g = _play_until("nivel_arena", 0, lambda g: _opponents_remembered(g, True))
    seat = g.current_player()
    o = next(iter(_opponents_remembered(g, True)))
    z = g.st.obj_zone[o]
    shuffled = g.clone()
    engine.shuffle_zone(shuffled.st, z)
    assert remembered(shuffled.st, seat)[o] is False  # known in the zone, not where
    places = set()
    for k in range(30):
        s = shuffled.determinize(seat, random.Random(k)).st
        assert s.obj_zone[o] == z and s.obj_card[o] == g.st.obj_card[o]
        places.add(s.zones[z].index(o))
    assert len(places) > 2


def test_an_object_leaving_the_zone_unseen_makes_the_seat_forget_the_zone():
    # Any object of that hand may have been the one that left for a hidden zone.
    g = _play_until("nivel_arena", 0, lambda g: _opponents_remembered(g, True))
    seat = g.current_player()
    o = next(iter(_opponents_remembered(g, True)))
    st = g.clone().st
    hand = st.obj_zone[o]
    deck = st.g.zone_base["deck"] + st.obj_owner[o]
    other = next(x for x in st.zones[hand] if x != o)
    engine.move_object(st, other, deck, "back")
    assert o not in remembered(st, seat)
    # Leaving for a zone the seat sees, the seat knows which card left: o is still known,
    # unless the card that left is another copy of o's (which of the two left?).
    st = g.clone().st
    lane = st.g.zone_base["lane1"] + st.obj_owner[o]
    other = next(x for x in st.zones[hand] if st.obj_card[x] != st.obj_card[o])
    engine.move_object(st, other, lane, "back")
    assert o in remembered(st, seat)
    st = g.clone().st
    st.own_objects()  # (the rows a clone shares, copied before a write of its own)
    st.obj_card[other] = st.obj_card[o]
    engine.move_object(st, other, lane, "back")
    assert o not in remembered(st, seat)


def test_a_card_put_into_a_deck_is_kept_in_place_until_the_deck_is_shuffled():
    # A card on the field (seen by all) put at the bottom of its owner's hidden deck: every
    # seat knows it is the bottom card; a draw from the top leaves it there for its owner, who
    # sees what it drew; a shuffle leaves it in the deck, anywhere.
    g = _play_until("nivel_arena", 1, lambda g: g.st.decisions > 30)
    seat = g.current_player()
    st = g.st
    unit = next(
        o
        for z, objs in enumerate(st.zones)
        if st.g.zone_info[z][0].startswith("lane") and st.g.zone_info[z][1] == seat
        for o in objs
    )
    deck = st.g.zone_base["deck"] + seat
    engine.move_object(st, unit, deck, "back")
    assert remembered(st, seat)[unit] is True and remembered(st, 1 - seat)[unit] is True
    bottom = len(st.zones[deck]) - 1
    for k in range(10):
        s = g.determinize(seat, random.Random(k)).st
        assert s.zones[deck][bottom] == unit and s.obj_card[unit] == st.obj_card[unit]
    engine.move_object(st, st.zones[deck][0], st.g.zone_base["hand"] + seat, "back")
    assert remembered(st, seat)[unit] is True  # still the bottom card
    assert unit not in remembered(st, 1 - seat)  # the other seat did not see what was drawn
    engine.shuffle_zone(st, deck)
    places = {g.determinize(seat, random.Random(k)).st.zones[deck].index(unit) for k in range(20)}
    assert len(places) > 2


def test_clash_a_destroyed_creature_back_in_hand_is_kept_in_that_hand():
    # Clash of Decks: a destroyed creature returns to its owner's hand (rules.madang 136).
    g = _play_until("clash_of_decks", 1, _opponents_remembered)
    seat = g.current_player()
    for o in _opponents_remembered(g):
        for k in range(10):
            s = g.determinize(seat, random.Random(k)).st
            assert s.obj_zone[o] == g.st.obj_zone[o] and s.obj_card[o] == g.st.obj_card[o]


def test_memory_does_not_peek():
    # The seat's memory holds nothing of what it cannot see: a re-deal of the unseen objects
    # keeps the remembered ones, and the searching agents answer the same.
    for ruleset, seed in (("nivel_arena", 0), ("clash_of_decks", 1)):
        g = _play_until(ruleset, seed, lambda g: _opponents_remembered(g))
        seat = g.current_player()
        for k in range(3):
            v = redeal(g, seat, random.Random(k))
            assert remembered(v.st, seat) == remembered(g.st, seat)
            a = g.determinize(seat, random.Random(5)).st.to_data()
            assert a == v.determinize(seat, random.Random(5)).st.to_data()
        for spec in ("mcts:12", "greedy"):
            assert check(spec, g).honest


def test_a_game_without_memory_is_the_same_game_and_remembers_nothing():
    # new_game(memory=False), as bench's random playouts: the same moves, and no seat's memory
    # (a sample of it re-deals every card its seat cannot see).
    for ruleset in ("clash_of_decks", "nivel_arena"):
        games = [new_game(ruleset, {}, seed=4, memory=m) for m in (True, False)]
        rng = [random.Random(4), random.Random(4)]
        remembered_any = False
        for _ in range(300):
            if games[0].is_terminal():
                break
            k = rng[0].randrange(len(games[0].legal_actions()))
            assert k == rng[1].randrange(len(games[1].legal_actions()))
            for g in games:
                g.apply_action(k)
            remembered_any |= bool(games[0].st.kept)
            assert games[1].st.kept is None
            assert remembered(games[1].st, games[1].current_player()) == {}
        assert games[0].digest() == games[1].digest()
        assert remembered_any


def test_simulate_and_tournament_keep_the_memory_only_when_a_seat_samples(monkeypatch):
    # Random seats never draw samples, so their games keep no memory; one greedy seat does.
    from madang.game import api
    from madang.game.api import load_program
    from madang.tools import simulate, tournament

    asked = []

    def spy(*args, **kw):
        asked.append(kw.get("memory", True))
        return api.new_game(*args, **kw)

    prog = load_program("clash_of_decks")
    for module, play in ((simulate, simulate.play_one), (tournament, tournament.play)):
        monkeypatch.setattr(module, "new_game", spy)
        asked.clear()
        random_seats = play(prog, {}, 3, ["random", "random"], 2000)
        play(prog, {}, 3, ["greedy", "random"], 2000)
        assert asked == [False, True], module.__name__
        assert "error" not in random_seats
    # the same game either way
    monkeypatch.undo()
    a = simulate.play_one(prog, {}, 3, ["random", "random"], 2000)
    monkeypatch.setattr(
        simulate, "new_game", lambda *a, **kw: api.new_game(*a, **{**kw, "memory": True})
    )
    assert simulate.play_one(prog, {}, 3, ["random", "random"], 2000) == a
