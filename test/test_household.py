"""The simulated household (tools/household.py) shows what it holds: no thing stands inside furniture's solid part
or inside another thing, and the first day's mapping tour shows every spot a thing can be at.

Why: at 3b0d1f0, 61 spots of items and clutter lay inside the solid boxes of shelves, sofas, chairs and beds, so
the ray caster never showed them and the day-1 store named 28 of the house's 55 objects of item labels; the
bench's day-1 / day-30 service figures then compared answers about different sets of objects.
"""

import numpy as np

from tempomem_ros.tools.household import (FURNITURE, ITEMS, TRANSIENTS, Household, HouseholdConfig, _spot_box,
                                          solid_box, static_clutter)


def _intersect(a_lo, a_hi, b_lo, b_hi) -> bool:
    return bool(np.all(a_lo < b_hi - 1e-9) and np.all(b_lo < a_hi - 1e-9))


def _spots():
    """(name, lo, hi) of every spot of every item, clutter and transient."""
    out = []
    for label, size, spots, _, _ in ITEMS:
        out += [(f"{label}@{f}", *_spot_box(f, fr, size)[1:]) for f, fr in spots]
    out += [(f"{label}@{where}", *_spot_box(where, frac, size)[1:]) for label, size, where, frac in static_clutter()]
    out += [(f"{label}@{f}", *_spot_box(f, fr, size)[1:]) for label, size, (f, fr), *_ in TRANSIENTS]
    return out


def test_no_thing_inside_furniture_or_another_thing():
    spots = _spots()
    assert len(spots) == 54 + 66 + 3  # 31 items' 54 spots, all 66 clutter things kept, 3 transients
    inside = [(name, f) for name, lo, hi in spots for f in FURNITURE if _intersect(lo, hi, *solid_box(f))]
    assert inside == []
    statics = [(name, lo, hi) for name, lo, hi in spots[54:]]
    overlapping = [(a[0], b[0]) for i, a in enumerate(statics) for b in statics[:i] + spots[:54]
                   if _intersect(a[1], a[2], b[1], b[2])]
    assert overlapping == []
    items = spots[:54]
    assert [(a[0], b[0]) for i, a in enumerate(items) for b in items[:i] if _intersect(a[1], a[2], b[1], b[2])] == []


def test_open_shelf_is_solid_at_its_back_only():
    lo, hi = solid_box("hall shelf")   # against the living room's wall at x = 10
    assert np.allclose(lo, (9.79, 0.3, 0.0)) and np.allclose(hi, (9.95, 1.5, 1.2))
    lo, hi = solid_box("sofa")         # not a shelf: its whole box
    assert np.allclose(lo, (5.6, 4.0, 0.0)) and np.allclose(hi, (7.8, 4.9, 0.85))
    _, klo, khi = _spot_box("hall shelf", (0.5, 0.3), (0.08, 0.04, 0.03))  # the keys: on the board, in front
    assert khi[0] <= 9.79 and np.isclose(klo[2], 0.54)


def test_tour_shows_every_spot():
    house = Household(HouseholdConfig(days=1, features=False, tour_first_day=True))
    tour = house.tour()
    assert len(tour) == 16 + 18  # 16 corner looks, one aimed look per piece of furniture (all 18 hold things)
    seen, spots = house.tour_sees()
    assert len(spots) == 54 + 66 + 3
    assert sorted(set(spots) - seen) == []
    # the tour comes in addition to the day's looks, first
    looks = house._looks(0)
    assert len(looks) == 34 + house.config.looks_per_day
    assert [(room, xy, yaw) for _, room, xy, yaw in looks[:34]] == tour
    assert len(Household(HouseholdConfig(days=1, features=False))._looks(0)) == house.config.looks_per_day
