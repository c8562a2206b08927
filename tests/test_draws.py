"""The state's random draws (State.rand_below, State.shuffle) write the generator's step
(`State.next64`) out instead of calling it: each must draw exactly what `next64` gives, so
that every seeded game stays the same."""

from __future__ import annotations

from madang.game.api import load_program, new_game


def _state(seed: int):
    return new_game(load_program("clash_of_decks"), seed=seed, memory=False).st


def test_a_draw_is_next64_scaled_to_its_range():
    for seed in range(5):
        st, ref = _state(seed), _state(seed)
        ref.rng = st.rng
        for n in (1, 2, 3, 7, 40, 1000, 2**40):
            assert st.rand_below(n) == (ref.next64() * n) >> 64
            assert st.rng == ref.rng


def test_a_shuffle_is_fisher_yates_over_next64():
    for seed in range(5):
        st, ref = _state(seed), _state(seed)
        ref.rng = st.rng
        for size in (0, 1, 2, 5, 40):
            items, expected = list(range(size)), list(range(size))
            st.shuffle(items)
            for i in range(size - 1, 0, -1):
                j = (ref.next64() * (i + 1)) >> 64
                expected[i], expected[j] = expected[j], expected[i]
            assert items == expected and st.rng == ref.rng


def test_a_shuffle_replayed_draws_from_the_tape():
    class Tape:
        def __init__(self):
            self.asked = []

        def next(self, n):
            self.asked.append(n)
            return n - 1

    st = _state(0)
    st.chance = tape = Tape()
    rng = st.rng
    items = list(range(5))
    st.shuffle(items)
    assert tape.asked == [5, 4, 3, 2] and st.rng == rng and sorted(items) == list(range(5))
    assert st.rand_below(9) == 8 and tape.asked[-1] == 9
