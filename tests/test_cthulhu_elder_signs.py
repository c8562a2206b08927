"""Cthulhu Wars: elder signs are hidden (F: elder_signs.gaining): the pool is face down, and a
player's signs are seen by their owner only; the others see how many."""

from madang.game.api import new_game


def test_elder_sign_values_are_hidden_from_the_other_players():
    g = new_game("cthulhu_wars", {"players": "3"}, seed=4)
    st = g.st
    bag = next(z for z in range(len(st.zones)) if st.g.zone_label(z) == "bag")
    mine = next(z for z in range(len(st.zones)) if st.g.zone_label(z) == "signs#1")
    st.zones[mine].append(st.zones[bag].pop())
    for o in st.zones[mine]:
        st.obj_zone[o] = mine
    own, other = g.observation(0)["zones"], g.observation(1)["zones"]
    assert own["signs#1"][0].startswith("Elder Sign ")
    assert other["signs#1"] == {"count": 1}
    assert own["bag"] == other["bag"] == {"count": 35}
