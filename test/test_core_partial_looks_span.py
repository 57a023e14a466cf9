"""A small thing whose fused box bled past the furniture footprint is weighed as a small thing by the partial-look
rule (absence.partial_look_span_by_view, on by default since stop 57; issue 11, stop 56: two shoes, 28-29 cm
in their largest single views, fused to 35-36 cm, hidden in a shelf's bottom compartment, were removed while they
stood from one look of partial views, h530 seed 531 and h510 seed 513).

Each test runs with the setting on and off. The first fails with it off (the shoe removed at its first partial look);
the others hold either way: a shoe taken away in plain view is removed in one look at the same stamp, one taken away
and seen in part is removed at its second partial look, and a low thing whose single views are furniture-sized is
still not weighed (absence.partial_look_furniture_min_height_m, dev seed 3's laptop).

Run with absence.hidden_near_edge off (its default since stop 49), as test_core_partial_looks_furniture.py."""

from __future__ import annotations

import pytest
from core_helpers import looked, miss_fractions, removals, render_view, span_obs

from tempomem_ros.core import Memory

EYE = (0.0, 0.0, 1.0)
# a shoe on the floor, 0.29 x 0.12 x 0.12 m in every sighting; the second sighting 7 cm along x (mask bleed, depth
# noise): fused to 0.36 m, over identity.extend_min_extent = 0.35
S1 = ((1.8, -0.06, 0.0), (2.09, 0.06, 0.12))
S2 = ((1.87, -0.06, 0.0), (2.16, 0.06, 0.12))
MID = (1.98, 0.0, 0.06)
PANEL = ((1.5, -0.6, 0.0), (1.52, 0.01, 1.6))       # a board hiding the shoe's left half from the eye


def _mem(store, on: bool) -> Memory:
    return Memory.open(store("m"), embedding_dim=4, config={
        "absence": {"edge_pose_deg": 0.0, "edge_place_m": 0.0, "partial_look_span_by_view": on}})


def _seen(mem, stamps, label="shoe", boxes=(S1, S2)):
    for k, t in enumerate(stamps):
        lo, hi = boxes[k % len(boxes)]
        mem.add([span_obs(label, lo, hi, stamp=t)], render_view(t, EYE, MID, [(lo, hi)]))
    mem.commit()


def _spans(mem):
    o = mem.get(1)
    lo, hi = o.bbox_min, o.bbox_max
    return round(max(hi[0] - lo[0], hi[1] - lo[1]), 2)


@pytest.mark.parametrize("on", [True, False])
def test_one_look_of_partial_views_does_not_remove_a_bled_shoe(store, on):
    with _mem(store, on) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0))
        assert len(mem._conn.execute("SELECT id FROM objects").fetchall()) == 1 and _spans(mem) >= 0.35
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [PANEL], MID)
        fr = miss_fractions(mem)
        assert fr and all(0.3 <= f < 0.6 for f in fr)   # partial views only, every frame a miss: one look
        if on:
            assert mem.get(1).state == "present" and removals(mem) == []
        else:   # low furniture by its fused box: not weighed, removed in its first partial look
            assert mem.get(1).state == "missing" and removals(mem) == [("removed", 600.0)]


@pytest.mark.parametrize("on", [True, False])
def test_a_shoe_taken_away_in_plain_view_is_removed_in_one_look_as_before(store, on):
    with _mem(store, on) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0))
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [], MID)
        assert set(miss_fractions(mem)) == {1.0}
        assert mem.get(1).state == "missing" and removals(mem) == [("removed", 600.0)]


@pytest.mark.parametrize("on", [True, False])
def test_a_shoe_taken_away_and_seen_in_part_is_removed_at_its_second_look(store, on):
    with _mem(store, on) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0))
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [PANEL], MID)
        looked(mem, [900.0, 900.3, 900.6, 901.0, 901.4, 902.6], [PANEL], MID)
        assert mem.get(1).state == "missing"
        assert removals(mem) == [("removed", 900.0 if on else 600.0)]


@pytest.mark.parametrize("on", [True, False])
def test_a_low_thing_furniture_sized_in_its_single_views_is_still_not_weighed(store, on):
    big = (((1.8, -0.25, 0.0), (2.25, 0.25, 0.3)),)   # 0.45 x 0.5 x 0.3 m in every view: furniture either way
    with _mem(store, on) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0), label="basket", boxes=big)
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [PANEL], MID)
        fr = miss_fractions(mem)
        assert fr and all(0.3 <= f < 0.6 for f in fr)
        assert mem.get(1).state == "missing" and removals(mem) == [("removed", 600.0)]


def test_the_default_weighs_a_bled_shoe_as_a_small_thing(store):
    # on by default since stop 57 (dev seed 3's laptop keeps its move through settling._alike_in_width): the shoe
    # seen in part in one look stays (main, off: removed at 600.0)
    with Memory.open(store("d"), embedding_dim=4, config={
            "absence": {"edge_pose_deg": 0.0, "edge_place_m": 0.0}}) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0))
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [PANEL], MID)
        assert mem.get(1).state == "present" and removals(mem) == []
