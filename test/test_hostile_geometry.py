"""Hostile geometry that passes the absolute gates: a merge can never rewrite history.

Issue 12's poison: one "mug" with an absurd box merged into the real mug through the large-object identity
rule, moved it and overwrote its placement. The absolute gates (test_hostile_core.py) now refuse a +-1e30 box,
a 1e300 centre and a 15 m box; what is left is a box just under gates.max_extent (9 m). For that, fusion
bounds what one observation can bring (fusion.merge_geometry, growth factor 2 above a 0.25 m floor), the
identity rule takes the sighting as the merge would (cut to that bound), an out-of-scale sighting never
re-identifies an object as moved, and closed placements cannot be updated at all (a trigger in the file).
"""

from __future__ import annotations

import numpy as np
import pytest
from core_helpers import box_obs, span_obs

from tempomem_ros.core import Memory, StoreError
from tempomem_ros.core import fusion

MUG = (1.0, 0.0, 0.5)
FEATURE = np.array([1.0, 0.0, 0.0, 0.0], np.float32)


def mug_store(path, **config):
    m = Memory.open(str(path), embedding_dim=4, clock=lambda: 1000.0, config=config or None)
    for i in range(3):
        m.add([box_obs("mug", MUG, stamp=10 + i, feature=FEATURE)])
    m.commit()
    return m


def state(m):
    """Everything stored about objects and placements (exact values)."""
    objects = [(o.id, o.label, o.state, o.center, o.bbox_min, o.bbox_max, o.n_observations, o.n_moves)
               for o in m.objects()]
    placements = [(p.id, p.object_id, p.center, p.bbox_min, p.bbox_max, p.t_from, p.t_to, p.current)
                  for o in m.objects() for p in m.placements(o.id)]
    return objects, placements


def test_growth_limit_and_cut_box_arithmetic():
    assert fusion.growth_limit((0.08, 0.08, 0.1), 2.0, 0.25) == 0.5      # small objects: the floor
    assert fusion.growth_limit((1.2, 0.8, 0.75), 2.0, 0.25) == 2.4      # large ones: their own size
    lo, hi = fusion.cut_box((1.0, 0.0, 0.5), (-3.5, -4.5, -4.0), (5.5, 4.5, 5.0), 0.5)
    assert lo.tolist() == [0.75, -0.25, 0.25] and hi.tolist() == [1.25, 0.25, 0.75]
    lo, hi = fusion.cut_box((0.0, 0.0, 0.0), (-0.1, -0.1, -0.1), (0.1, 0.1, 0.1), 1.0)  # small boxes stay
    assert lo.tolist() == [-0.1, -0.1, -0.1] and hi.tolist() == [0.1, 0.1, 0.1]


def test_merge_geometry_bounds_one_observations_growth():
    kw = dict(center=MUG, bmin=(0.96, -0.04, 0.45), bmax=(1.04, 0.04, 0.55), weight=2.7, ext=(0.08, 0.08, 0.1),
              obs_center=MUG, obs_min=(-3.5, -4.5, -4.0), obs_max=(5.5, 4.5, 5.0), obs_weight=0.9, clamp_factor=1.0)
    _, lo, hi, _, ext = fusion.merge_geometry(**kw)                       # without the bound: 9 m at once
    assert (hi - lo).tolist() == [9.0, 9.0, 9.0]
    _, lo, hi, _, ext = fusion.merge_geometry(**kw, growth_factor=2.0, growth_floor=0.25)
    assert lo.tolist() == [0.75, -0.25, 0.25] and hi.tolist() == [1.25, 0.25, 0.75]
    assert ext.tolist() == [0.5, 0.5, 0.5]
    # centred 4 m away: its centroid counts as 0.25 m beyond the mug's box (x = 1.29), its box is cut around that
    center, lo, hi, _, _ = fusion.merge_geometry(**{**kw, "obs_center": (5.0, 0.0, 0.5), "obs_min": (0.5, -4.5, -4.0),
                                                    "obs_max": (9.5, 4.5, 5.0)}, growth_factor=2.0, growth_floor=0.25)
    assert center.tolist() == pytest.approx([(1.0 * 2.7 + 1.29 * 0.9) / 3.6, 0.0, 0.5])
    assert lo.tolist() == pytest.approx([0.96, -0.25, 0.25]) and hi.tolist() == pytest.approx([1.54, 0.25, 0.75])


@pytest.mark.parametrize("with_feature", [True, False])
def test_a_9m_mug_centred_on_the_mug_grows_it_by_the_bound_only(tmp_path, with_feature):
    """With a feature it merges by score (0.8); without, it becomes an object of its own that the twin rule
    joins into the mug. Either way the observation is cut to 2 x 0.25 m around its centroid, and the mug, a
    small object seen three times, keeps the mean of its sightings' boxes (fusion.mean_box_after): its box
    moves a quarter of the way to that 0.5 m box (0.185 m, not 9 m, not 0.5 m) and stays centred."""
    m = mug_store(tmp_path / "m.db")
    poison = span_obs("mug", (-3.5, -4.5, -4.0), (5.5, 4.5, 5.0), stamp=20,
                      feature=FEATURE if with_feature else None)
    m.add([poison])
    m.commit()
    (mug,) = [o for o in m.objects() if o.state != "forgotten"]
    assert mug.id == 1 and mug.n_observations == 4
    assert mug.bbox_min == pytest.approx((0.9075, -0.0925, 0.4))
    assert mug.bbox_max == pytest.approx((1.0925, 0.0925, 0.6))
    assert mug.center == pytest.approx(MUG)
    m.close()


def test_a_9m_mug_beside_the_mug_moves_it_by_the_bound_at_most(tmp_path):
    """Its box overlaps the mug, and without the bound it dragged the mug 1 m (joined as its twin, through the
    running mean). Its centroid now counts 0.25 m beyond the mug's box at most, its box is cut to 0.5 m
    around that, and the mug (small, seen three times: the mean of its sightings' boxes) moves a quarter of
    the way there: its box still holds the mug's centre and grows to 0.185 m (0.58 m with the union)."""
    m = mug_store(tmp_path / "m.db")
    m.add([span_obs("mug", (0.5, -4.5, -4.0), (9.5, 4.5, 5.0), stamp=20)])
    m.commit()
    (mug,) = [o for o in m.objects() if o.state != "forgotten"]
    assert mug.bbox_min == pytest.approx((0.98, -0.0925, 0.4))
    assert mug.bbox_max == pytest.approx((1.165, 0.0925, 0.6))
    assert mug.center == pytest.approx((1.0725, 0.0, 0.5))
    (first, *_) = m.placements(1)
    assert first.bbox_min[0] <= 1.0 <= first.bbox_max[0]  # the mug's centre stays inside its place
    m.close()


def test_an_out_of_scale_sighting_elsewhere_is_not_a_move(tmp_path):
    """The mug's place was seen empty (it is missing): a normal mug sighting elsewhere moves it (identity
    across moves), a 9 m "mug" there does not (a move would take over the 9 m box)."""
    from core_helpers import IMMEDIATE, distance_from_eye, view
    a, b = (2.0, 0.0, 0.8), (0.0, 2.0, 0.8)

    def missing_mug(path):
        m = Memory.open(str(path), embedding_dim=4, clock=lambda: 1000.0, config=IMMEDIATE)
        for i in range(3):
            m.add([box_obs("mug", a, stamp=10 + i)], view(10 + i, a, distance_from_eye(a) + 0.04))
            m.commit()
        for i in range(3):
            m.add([], view(20 + i, a, distance_from_eye(a) + 1.0))
            m.commit()
        assert [o.state for o in m.objects()] == ["missing"]
        return m

    m = missing_mug(tmp_path / "m.db")
    m.add([span_obs("mug", (-4.5, -2.5, -4.0), (4.5, 6.5, 5.0), stamp=30)])
    m.commit()
    assert [(o.id, o.state, o.n_moves) for o in m.objects()] == [(1, "missing", 0), (2, "present", 0)]
    m.close()
    m = missing_mug(tmp_path / "n.db")
    m.add([box_obs("mug", b, stamp=30)], view(30, b, distance_from_eye(b) + 0.04))
    m.commit()
    assert [(o.id, o.state, o.n_moves) for o in m.objects()] == [(1, "present", 1)]
    m.close()


def test_a_large_object_first_seen_in_part_still_reaches_its_size(store):
    """A 2 m table first seen as a 0.3 m corner: each full view's centroid counts at most half the growth
    limit beyond the box so far and its box is cut to that limit (0.6 m, then 1.8 m): the table grows
    0.3 -> 0.9 -> 1.6 -> 2.0 m and stays one object (the full views' own object is joined into it as a twin)."""
    with Memory.open(store("m"), embedding_dim=4, clock=lambda: 1000.0) as m:
        m.add([span_obs("table", (0.0, 0.0, 0.7), (0.3, 0.3, 0.75), stamp=1)])
        sizes = []
        for i in range(4):
            m.add([span_obs("table", (0.0, 0.0, 0.0), (2.0, 1.0, 0.75), stamp=2 + i)])
            m.commit()
            (t,) = [o for o in m.objects() if o.state != "forgotten"]
            sizes.append(round(t.bbox_max[0] - t.bbox_min[0], 6))
        assert sizes == [0.9, 1.6, 2.0, 2.0]
        assert [(o.id, o.state) for o in m.objects()] == [(1, "present"), (2, "forgotten")]


def test_closed_placements_are_immutable_in_the_file(store):
    """A move closes the old placement: no statement can change it afterwards, and fusion never tries."""
    from core_helpers import distance_from_eye, view
    a, b = (2.0, 0.0, 0.8), (0.0, 2.0, 0.8)
    with Memory.open(store("m"), embedding_dim=4, clock=lambda: 1000.0) as m:
        for i in range(3):
            m.add([box_obs("mug", a, stamp=10 + i)], view(10 + i, a, distance_from_eye(a) + 0.04))
        for i in range(3):
            m.add([], view(20 + i, a, distance_from_eye(a) + 1.0))
        for t in (30.0, 30.5, 31.0):  # a removed object found elsewhere needs what a new one needs (confirmation)
            m.add([box_obs("mug", b, stamp=t)], view(t, b, distance_from_eye(b) + 0.04))
        m.commit()
        old, new = m.placements(1)
        assert (old.current, old.closed_reason, new.current) == (False, "removed", True)
        past = [p for _, p in m.scene_as_of(15.0)]
        # more sightings at the new place (even one stamped before the old placement closed) change only it
        m.add([box_obs("mug", (0.02, 2.0, 0.8), stamp=32), box_obs("book", (5, 5, 0.5), stamp=32)])
        m.add([box_obs("mug", (0.0, 2.02, 0.8), stamp=19)])
        m.commit()
        assert m.placements(1)[0] == old and [p for _, p in m.scene_as_of(15.0)] == past == [old]
        with pytest.raises(Exception, match="a closed placement is immutable"):
            m._conn.execute("UPDATE placements SET cx = 0 WHERE id = ?", (old.id,))
        with pytest.raises(Exception, match="a closed placement is immutable"):
            m._conn.execute("UPDATE placements SET t_to = 99 WHERE id = ?", (old.id,))
        m._conn.execute("UPDATE placements SET cx = cx WHERE id = ?", (new.id,))  # the current one may change
        assert m.placements(1)[0] == old


def test_a_trigger_violation_through_the_api_is_a_store_error(store):
    """Should a future fusion rule try it, the commit fails as a whole with a StoreError (rolled back)."""
    from core_helpers import distance_from_eye, view
    a = (2.0, 0.0, 0.8)
    with Memory.open(store("m"), embedding_dim=4, clock=lambda: 1000.0) as m:
        m.add([box_obs("mug", a, stamp=10)], view(10, a, distance_from_eye(a) + 0.04))
        for i in range(3):
            m.add([], view(20 + i, a, distance_from_eye(a) + 1.0))
        m.commit()
        (closed,) = m.placements(1)
        original = m._relations.update

        def rewrite_history(touched, stamp, changed_at=None):
            m._conn.execute("UPDATE placements SET min_x = -1e30 WHERE id = ?", (closed.id,))
            original(touched, stamp, changed_at)

        m._relations.update = rewrite_history
        m.add([box_obs("book", (5, 5, 0.5), stamp=30)])
        with pytest.raises(StoreError, match="a closed placement is immutable"):
            m.commit()
        m._relations.update = original
        assert m.placements(1) == [closed] and m.pending() == 1
