"""How many objects each seat owns in each zone instance, kept while a game is played.

A listing whose loop over the areas first tests "an object of mine is in this area's zone"
goes only through the areas where the seat owns objects (`build/enumerators.OWNED_AREAS`),
and charges the objects of the other areas' zones from one total of that zone's objects
instead of a scan per area. `State.kn` holds `(rows, totals, base)`: `rows[p][z]` the objects
of seat `p` in zone instance `z` (the last row: objects of no seat), `totals[b]` the objects
in all instances of the zone whose first instance is `b`, `base[z]` that first instance of
`z`'s zone. Built by the first listing that reads it, written in place by the moves
(`engine.move_objects`), made and removed objects (`create_card`, `remove_objects`), forgotten
(None) where an owner changes or a tool places objects itself (`State.forget_kept`); never
copied (a clone builds its own) nor saved.
"""

from __future__ import annotations


def owned(st) -> tuple:
    """`State.kn`, built from the zones (and kept) when the state has none. Each row and
    `base` have one more item, for zone -1 (no zone: an object made or removed), so that a
    move writes them without a test (what those items add up means nothing)."""
    g = st.g
    zones = st.zones
    n = len(zones)
    rows = [[0] * (n + 1) for _ in range(g.nplayers + 1)]
    totals = [0] * (n + 1)
    base = [g.zone_base[name] for name, _k in g.zone_info] + [n]
    owner = st.obj_owner
    for z, objs in enumerate(zones):
        if objs:
            totals[base[z]] += len(objs)
            for o in objs:
                rows[owner[o]][z] += 1
    st.kn = kn = (rows, totals, base)
    return kn


def owned_moved(kn: tuple, p: int, old: int, z: int) -> None:
    """An object of seat `p` (-1: none) left zone instance `old` and came to `z` (either -1:
    it came into the game or left it): `State.kn` written in place (`engine.move_objects`
    writes the same lines in place of this call)."""
    rows, totals, base = kn
    row = rows[p]
    row[old] -= 1
    row[z] += 1
    totals[base[old]] -= 1
    totals[base[z]] += 1
