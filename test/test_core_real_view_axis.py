"""A removed object's last real view, for the move's time test, spans a quarter of its longest extent on that
same axis (issue 11): settling.Settling._last_real_sighting (identity.real_view_axis). Seed 509 (h500, no feature):
a 0.36 m tall plant moved from a table to the floor; a 1 cm flat "plant" blob on the table top where it had stood,
300 s after the new plant was found, made the old one "seen after the new one appeared" (a missed move)."""

from __future__ import annotations

import pytest
from core_helpers import distance_from_eye, kinds, span_obs, view

from tempomem_ros.core import Memory

A = (2.0, 0.0, 0.93)        # the plant's place on a table (top at 0.75 m)
B = (0.0, 2.0, 0.18)        # its new place, on the floor
HALF = (0.10, 0.10, 0.18)   # 0.2 x 0.2 x 0.36 m: tallest on z
DA = distance_from_eye(A)
DB = distance_from_eye(B)


def _box(c, h=HALF):
    return tuple(a - b for a, b in zip(c, h)), tuple(a + b for a, b in zip(c, h))


def _plant_at_a_then_found_at_b(mem):
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([span_obs("plant", *_box(A), stamp=t)], view(t, A, DA + 0.04))
        mem.commit()
    for t in (100.0, 100.5, 101.0, 101.5):
        mem.add([span_obs("plant", *_box(B), stamp=t)], view(t, B, DB + 0.04))
        mem.commit()


def _flat_blob_at_a(mem, t=300.0):
    # a 0.27 x 0.13 x 0.01 m "plant" blob on the table top where the plant stood (low confidence)
    lo = (A[0] - 0.135, A[1] - 0.065, 0.75)
    hi = (A[0] + 0.135, A[1] + 0.065, 0.76)
    mem.add([span_obs("plant", lo, hi, stamp=t, conf=0.3)], view(t, A, DA + 0.04))
    mem.commit()


def _a_seen_empty(mem, t0=310.0):
    for t in (t0, t0 + 0.5, t0 + 1.0, t0 + 1.5, t0 + 2.0):
        mem.add([], view(t, A, DA + 1.0))
        mem.commit()


@pytest.mark.parametrize("on", [True, False])
def test_a_flat_blob_where_a_tall_thing_stood_does_not_defeat_its_move(store, on):
    with Memory.open(store("m"), embedding_dim=4, config={"identity": {"real_view_axis": on}}) as mem:
        _plant_at_a_then_found_at_b(mem)
        _flat_blob_at_a(mem)
        assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "plant", "present"), (2, "plant", "present")]
        _a_seen_empty(mem)
        shown = [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()]
        if on:
            assert kinds(mem) == [("appeared", 1), ("moved", 1), ("merged", 2)]
            assert shown == [(1, "plant", "present", 1), (2, "plant", "forgotten", 0)]
            moved = [e for e in mem.changes() if e.kind == "moved"][0]
            assert moved.stamp == pytest.approx(100.0)  # when it was first seen at its new place
            # the move is a superseded placement: the first one closed, not overwritten
            places = mem.placements(1)
            assert [(p.t_to is None) for p in places] == [False, True]
            old, new = places
            assert old.closed_reason == "moved" and new.current
            # closed at its last sighting, the blob's (a closed placement never ends before its last sighting):
            # a known limit, the placement history overlaps the new one from 100 s to 300 s
            assert old.t_from == pytest.approx(0.0) and old.t_to == pytest.approx(300.0)
            assert (old.center[0], old.center[1]) == pytest.approx((A[0], A[1]), abs=0.02)
            assert (new.center[0], new.center[1]) == pytest.approx((B[0], B[1]), abs=0.02)
        else:
            assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1)]
            assert shown == [(1, "plant", "missing", 0), (2, "plant", "present", 0)]


def test_a_real_view_of_the_first_plant_after_the_second_was_found_keeps_them_two(store):
    # what must not happen: the first plant seen whole at its place after the second was found is another plant;
    # its place seen empty later is a removal, not a move of it to the second one's place
    with Memory.open(store("m"), embedding_dim=4) as mem:
        _plant_at_a_then_found_at_b(mem)
        for t in (300.0, 300.5):
            mem.add([span_obs("plant", *_box(A), stamp=t)], view(t, A, DA + 0.04))
            mem.commit()
        _a_seen_empty(mem)
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1)]
        assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()] == \
            [(1, "plant", "missing", 0), (2, "plant", "present", 0)]


def test_a_second_plant_with_the_first_still_in_place_is_not_merged(store):
    # what must not happen: the first plant still at its place (seen there, its place never seen empty) and a
    # second plant found elsewhere, the flat blob at the first one's place: two plants, no move
    with Memory.open(store("m"), embedding_dim=4) as mem:
        _plant_at_a_then_found_at_b(mem)
        _flat_blob_at_a(mem)
        for t in (310.0, 310.5, 311.0, 311.5):
            mem.add([span_obs("plant", *_box(A), stamp=t)], view(t, A, DA + 0.04))
            mem.commit()
        assert kinds(mem) == [("appeared", 1), ("appeared", 2)]
        assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()] == \
            [(1, "plant", "present", 0), (2, "plant", "present", 0)]
