"""A look as good as the looks that detected an object can detect it (sighted_floor.py, absence.sighted_floor_share):
the absence test's mask estimate, made from a box smaller than the thing, called keys and glasses reported again and
again from 3 m undetectable from nearer still (seeds 348, 353, 355, 363), and their removals were never counted."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from core_helpers import box_obs, render_view

from tempomem_ros.core import Memory
from tempomem_ros.core.absence import expected_mask_px, min_expected_px
from tempomem_ros.core.config import AbsenceConfig
from tempomem_ros.core.retention import compact_pose
from tempomem_ros.core.sighted_floor import LOWEST_PX, MIN_SIGHTINGS, sighted_floor, sighting_view

GLASSES = (3.0, 0.0, 1.0)
HALF = (0.035, 0.025, 0.01)            # a 7 x 5 x 2 cm box: its estimate at 3 m is 5-7 px, under the 20 px floor
STATION = (0.0, 0.0, 1.0)              # where the camera stood when it reported them (3 m)
NEARER = (0.6, 0.0, 1.0)               # 2.4 m, 0.6 m from the station: a better view, never one that reported them
FARTHER = (-1.5, 0.0, 1.0)             # 4.5 m: a poorer view than any that reported them
LOOKS = (100.0, 100.5, 101.0, 200.0, 200.5, 201.0)


def sighting(t: float):
    return dataclasses.replace(box_obs("glasses", GLASSES, HALF, stamp=t), n_points=60)


def estimate(eye) -> float:
    lo, hi = np.subtract(GLASSES, HALF)[None], np.add(GLASSES, HALF)[None]
    return float(expected_mask_px(render_view(0.0, eye, GLASSES, []), lo, hi, AbsenceConfig(), 1.0)[0])


def taken_away(path, n_sightings: int, eye, restart: bool = False, share: float | None = None):
    """Seen ``n_sightings`` times from STATION, taken away; two looks from ``eye`` at their empty place (after a
    restart of the memory when ``restart``), then a frame that looks elsewhere (the removal's hold ends)."""
    lo, hi = np.subtract(GLASSES, HALF), np.add(GLASSES, HALF)
    kw = {} if share is None else {"config": {"absence": {"sighted_floor_share": share}}}
    mem = Memory.open(path, embedding_dim=4, **kw)
    try:
        for k in range(n_sightings):
            mem.add([sighting(0.5 * k)], render_view(0.5 * k, STATION, GLASSES, [(lo, hi)]))
        mem.commit()
        if restart:
            mem.close()
            mem = Memory.open(path, embedding_dim=4, **kw)
        for t in LOOKS:
            mem.add([], render_view(t, eye, GLASSES, []))
        mem.add([], render_view(300.0, STATION, (-3.0, 0.0, 1.0), []))
        mem.commit()
        return sorted((e.kind, e.label) for e in mem.changes()), [(o.label, o.state) for o in mem.objects()]
    finally:
        mem.close()


def test_the_views_are_what_the_rule_compares():
    floor = min_expected_px(render_view(0.0, NEARER, GLASSES, []), AbsenceConfig())
    assert estimate(FARTHER) < LOWEST_PX < estimate(STATION) < estimate(NEARER) < floor


@pytest.mark.parametrize("restart", [False, True])
def test_glasses_sighted_from_3m_are_removed_when_a_nearer_view_sees_their_place_empty(store, restart):
    changes, objects = taken_away(store("m"), 6, NEARER, restart=restart)
    assert changes == [("appeared", "glasses"), ("removed", "glasses")]
    assert objects == [("glasses", "missing")]


def test_a_poorer_view_than_any_that_detected_them_counts_no_miss(store):
    changes, objects = taken_away(store("m"), 6, FARTHER)
    assert changes == [("appeared", "glasses")]
    assert objects == [("glasses", "present")]


def test_too_few_sightings_make_no_floor(store):
    changes, objects = taken_away(store("m"), MIN_SIGHTINGS - 1, NEARER)
    assert changes == [("appeared", "glasses")]
    assert objects == [("glasses", "present")]


def test_share_zero_turns_the_rule_off(store):
    changes, objects = taken_away(store("m"), 6, NEARER, share=0.0)
    assert changes == [("appeared", "glasses")]
    assert objects == [("glasses", "present")]


def test_the_floor_is_the_share_quantile_within_the_lowest_and_the_global_floor():
    lo, hi = np.subtract(GLASSES, HALF), np.add(GLASSES, HALF)
    cfg = AbsenceConfig()
    near = [render_view(0.0, NEARER, GLASSES, [])] * 9
    station = render_view(0.0, STATION, GLASSES, [])
    far = render_view(0.0, FARTHER, GLASSES, [])
    # one poorer view among ten is the poorest tenth: the floor is the next one's estimate
    assert sighted_floor(lo, hi, [station] + near, cfg, 20.0) == pytest.approx(estimate(NEARER))
    assert sighted_floor(lo, hi, [station, station] + near, cfg, 20.0) == pytest.approx(estimate(STATION))
    assert sighted_floor(lo, hi, [far] * 10, cfg, 20.0) == LOWEST_PX                 # never under the lowest
    assert sighted_floor(lo, hi, near, cfg, 3.0) == 3.0                              # never above the global floor
    assert sighted_floor(lo, hi, near[:MIN_SIGHTINGS - 1], cfg, 20.0) == 20.0        # too few views
    assert sighted_floor(lo, hi, near, dataclasses.replace(cfg, sighted_floor_share=0.0), 20.0) == 20.0


def test_a_compacted_frame_lends_the_asking_camera_its_intrinsics():
    asking = render_view(0.0, NEARER, GLASSES, [])
    pose = render_view(0.0, STATION, GLASSES, []).pose
    full = sighting_view((pose.tobytes(), 500.0, 500.0, 320.0, 240.0, 640, 480, 5.0), asking)
    lean = sighting_view((compact_pose(pose.tobytes()), None, None, None, None, None, None, None), asking)
    assert (full.fx, full.width, full.max_range) == (500.0, 640, 5.0)
    assert (lean.fx, lean.cx, lean.width, lean.height) == (asking.fx, asking.cx, asking.width, asking.height)
    np.testing.assert_allclose(lean.pose, pose, atol=1e-5)
    assert sighting_view((None, 500.0, 500.0, 320.0, 240.0, 640, 480, 5.0), asking) is None
