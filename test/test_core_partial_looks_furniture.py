"""A place of furniture seen only in part, in one look, is not yet seen empty (partial_looks.py,
absence.partial_look_furniture, on by default since stop 53; issue 11, false removals of large things still
standing: h490 seed 498's chair and h480 seed 489's laptop were removed from single looks whose every miss saw 33-56 %
of them). Each test
runs with the rule on and off; the first and the last fail with it off (the chair removed in its first partial look),
the others hold either way: a chair in plain view and gone is removed in one look, and one truly taken away is removed
at its second partial look, dated by it.

Run with absence.hidden_near_edge off (its default since stop 49), as test_core_partial_looks.py."""

from __future__ import annotations

import pytest
from core_helpers import looked, miss_fractions, removals, render_view, span_obs

from tempomem_ros.core import Memory

EYE = (0.0, 0.0, 1.0)
C_LO, C_HI = (1.8, -0.25, 0.0), (2.25, 0.25, 0.9)   # a chair, 0.45 x 0.5 x 0.9 m: furniture by its footprint
C_MID = (2.02, 0.0, 0.45)
PANEL = ((1.5, -0.6, 0.0), (1.52, 0.01, 1.6))       # a board hiding the chair's left half from the eye


def _mem(store, on: bool) -> Memory:
    return Memory.open(store("m"), embedding_dim=4, config={
        "absence": {"edge_pose_deg": 0.0, "edge_place_m": 0.0, "partial_look_furniture": on}})


def _seen(mem, stamps):
    for t in stamps:
        mem.add([span_obs("chair", C_LO, C_HI, stamp=t)], render_view(t, EYE, C_MID, [(C_LO, C_HI)]))
    mem.commit()


@pytest.mark.parametrize("on", [True, False])
def test_one_look_of_partial_views_does_not_remove_a_chair(store, on):
    with _mem(store, on) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0))
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [PANEL], C_MID)
        assert set(miss_fractions(mem)) == {0.44}   # 4 of its 9 samples in view, each frame a miss: one look
        if on:
            assert mem.get(1).state == "present" and removals(mem) == [] and len(miss_fractions(mem)) == 12
        else:   # removed once its misses span absence.min_absence_s; no miss counted after
            assert mem.get(1).state == "missing" and removals(mem) == [("removed", 600.0)]


@pytest.mark.parametrize("on", [True, False])
def test_a_chair_taken_away_is_removed_at_its_second_partial_look(store, on):
    with _mem(store, on) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0))
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [PANEL], C_MID)
        looked(mem, [900.0, 900.3, 900.6, 901.0, 901.4, 902.6], [PANEL], C_MID)
        assert mem.get(1).state == "missing"
        assert removals(mem) == [("removed", 900.0 if on else 600.0)]


@pytest.mark.parametrize("on", [True, False])
def test_a_chair_in_plain_view_and_gone_is_removed_in_one_look(store, on):
    with _mem(store, on) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0))
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [], C_MID)
        assert set(miss_fractions(mem)) == {1.0}
        assert mem.get(1).state == "missing" and removals(mem) == [("removed", 600.0)]


@pytest.mark.parametrize("on", [True, False])
def test_a_sighting_between_two_partial_looks_keeps_the_chair(store, on):
    with _mem(store, on) as mem:
        _seen(mem, (0.0, 0.3, 0.6, 1.0))
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [PANEL], C_MID)
        _seen(mem, (700.0,))
        looked(mem, [900.0, 900.3], [PANEL], C_MID)
        if on:
            assert mem.get(1).state == "present" and removals(mem) == []
        else:   # removed at its first look, back at the sighting
            assert removals(mem) == [("removed", 600.0), ("reappeared", 700.0)]


LOW_LO, LOW_HI = (1.8, -0.25, 0.6), (2.25, 0.25, 0.9)   # a low wide thing (0.3 m tall) on a board, furniture by
LOW_MID = (2.02, 0.0, 0.75)                              # its footprint: under partial_look_furniture_min_height_m


def test_a_low_thing_of_furniture_footprint_is_not_weighed(store):
    # dev seed 3 (rule on without the height limit): a laptop moved, its old place seen in part waited, its move
    # was missed; things under 0.5 m are decided as before the rule, in the first partial look
    with _mem(store, True) as mem:
        for t in (0.0, 0.3, 0.6, 1.0):
            mem.add([span_obs("basket", LOW_LO, LOW_HI, stamp=t)],
                    render_view(t, EYE, LOW_MID, [(LOW_LO, LOW_HI)]))
        mem.commit()
        looked(mem, [600.0 + 0.2 * i for i in range(12)], [PANEL], LOW_MID)
        fr = miss_fractions(mem)
        assert fr and all(0.3 <= f < 0.6 for f in fr)   # partial views only
        assert mem.get(1).state == "missing" and removals(mem) == [("removed", 600.0)]
