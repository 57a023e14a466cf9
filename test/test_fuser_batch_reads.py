"""The fuser's cheaper frame (issue 15, session 34): what it computes at once must be what fusing frame by frame gave.

- _ViewPairs: the absence loop's geometric first tests (a sighting centred in an object's box; two boxes touching),
  computed for every pair with numpy, keep exactly the sightings geometry.point_in_box / geometry.box_gap keep;
  the boxes that may share volume once padded (what _holds_furniture is asked of) keep every one that does.
- What fusion reads ahead on PostgreSQL (a batch's staged sightings with its frames,
  FrameFusion.sightings_read_with_frames; the objects in a frame's view with its candidates; the candidates' label
  mass and pair sums) fuses into the same objects, verdicts and events as each read made when it is asked.
- Memory.close(fuse=False): a node that does not fuse leaves what is staged for the fleet's fuser.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, view

from tempomem_ros.core import Memory
from tempomem_ros.core.frame_fusion import PART_TOLERANCE_M, _ViewPairs, box_center
from tempomem_ros.core.geometry import box_gap, containment, point_in_box
from tempomem_ros.core.store.base import Store
from tempomem_ros.core.store.fusion_rows import FusionRows


def _sighting(lo, hi):
    return SimpleNamespace(bmin=np.asarray(lo, float), bmax=np.asarray(hi, float))


def _object(lo, hi):
    return SimpleNamespace(min_x=lo[0], min_y=lo[1], min_z=lo[2], max_x=hi[0], max_y=hi[1], max_z=hi[2])


def test_view_pairs_keep_exactly_the_sightings_the_pairwise_tests_keep():
    rng = np.random.default_rng(5)
    # boxes on a 0.1 m grid, so that faces touch exactly and centres fall on faces (the boundaries of both tests)
    los = rng.integers(0, 8, (60, 3)) / 10.0
    items = [_sighting(lo, lo + rng.integers(1, 5, 3) / 10.0) for lo in los[:30]]
    objects = [_object(tuple(lo), tuple(lo + rng.integers(1, 6, 3) / 10.0)) for lo in los[30:]]
    tol = 0.05
    pairs = _ViewPairs(items, objects, tol)
    centred = touching = 0
    for m, obj in enumerate(objects):
        lo, hi = (obj.min_x, obj.min_y, obj.min_z), (obj.max_x, obj.max_y, obj.max_z)
        want_c = [s for s in items if point_in_box(box_center(s.bmin, s.bmax), lo, hi, tol=tol)]
        want_t = [s for s in items if box_gap(s.bmin, s.bmax, lo, hi) == 0.0]
        assert [id(s) for s in pairs.centred_in(m)] == [id(s) for s in want_c]
        assert [id(s) for s in pairs.touching(m)] == [id(s) for s in want_t]
        centred, touching = centred + len(want_c), touching + len(want_t)
    # both kinds kept and refused somewhere (the comparison covered both answers)
    assert 0 < centred < len(items) * len(objects) and 0 < touching < len(items) * len(objects)
    # a face shared exactly touches; a box 1 mm away does not
    face = _ViewPairs([_sighting((1.0, 0, 0), (2.0, 1, 1)), _sighting((1.001, 0, 0), (2.0, 1, 1))],
                      [_object((0, 0, 0), (1.0, 1, 1))], 0.0)
    assert [s.bmin[0] for s in face.touching(0)] == [1.0]
    assert _ViewPairs([], [_object((0, 0, 0), (1, 1, 1))], tol).centred_in(0) == []


def test_view_pairs_near_keep_every_sighting_that_shares_padded_volume():
    """_ViewPairs.near_within (what _holds_furniture is asked of) keeps every sighting whose padded box shares
    volume with the object's (geometry.containment > 0), in the frame's order, and leaves out some that do not."""
    rng = np.random.default_rng(7)
    los = rng.integers(0, 12, (60, 3)) / 20.0  # a 5 cm grid: boxes touch, overlap and lie apart
    items = [_sighting(lo, lo + rng.integers(1, 4, 3) / 20.0) for lo in los[:30]]
    objects = [_object(tuple(lo), tuple(lo + rng.integers(1, 5, 3) / 20.0)) for lo in los[30:]]
    pad = PART_TOLERANCE_M
    pairs = _ViewPairs(items, objects, 0.05, pad=pad)
    kept = refused = 0
    for m, obj in enumerate(objects):
        lo, hi = (obj.min_x, obj.min_y, obj.min_z), (obj.max_x, obj.max_y, obj.max_z)
        near = [id(s) for s in pairs.near_within(m)]
        sharing = [id(s) for s in items if containment(lo, hi, s.bmin, s.bmax, pad=pad) > 0.0]
        assert [i for i in near if i in sharing] == sharing  # every one, in order
        kept, refused = kept + len(sharing), refused + len(items) - len(near)
    assert kept > 0 and refused > 0
    # boxes 2 x pad + 1 mm apart share nothing and are refused; 2 x pad - 1 mm apart share volume and are kept
    obj = _object((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    far, close = 1.0 + 2 * pad + 0.001, 1.0 + 2 * pad - 0.001
    both = _ViewPairs([_sighting((far, 0, 0), (far + 1, 1, 1)), _sighting((close, 0, 0), (close + 1, 1, 1))],
                      [obj], 0.0, pad=pad)
    assert [float(s.bmin[0]) for s in both.near_within(0)] == [close]


A, B, C = (2.0, 0.0, 0.8), (0.0, 2.0, 0.8), (2.0, 0.6, 0.8)


def _stage(m: Memory) -> None:
    """18 frames of two robots: a mug at A and a book at B; A seen empty (the mug removed), the mug seen at C (a
    move), a "cup" at A (a new object at the old place), then B seen empty (the book removed)."""
    seen_a, empty_a = distance_from_eye(A) + 0.04, distance_from_eye(A) + 1.0
    seen_b, empty_b = distance_from_eye(B) + 0.04, distance_from_eye(B) + 1.0
    for i in range(4):
        m.add([box_obs("mug", A, stamp=i * 0.5), box_obs("book", B, stamp=i * 0.5)], view(i * 0.5, A, seen_a),
              source="robot_a")
    for i in range(8):
        m.add([box_obs("book", B, stamp=10.0 + 6.0 * i)], view(10.0 + 6.0 * i, A, empty_a), source="robot_b")
    m.add([box_obs("mug", C, stamp=70.0)], view(70.0, C, distance_from_eye(C) + 0.04), source="robot_a")
    m.add([box_obs("cup", A, stamp=71.0), box_obs("book", B, stamp=71.0)], view(71.0, B, seen_b), source="robot_a")
    for i in range(4):
        m.add([box_obs("mug", C, stamp=72.0 + 6.0 * i)], view(72.0 + 6.0 * i, B, empty_b), source="robot_b")


def _state(m: Memory) -> list[str]:
    return [repr(x) for x in (*m.objects(), *m.observations(), *m.events())]


def test_what_is_read_ahead_fuses_as_each_read_made_when_asked(store, monkeypatch):
    reads = []
    own = FusionRows.pending_sightings
    monkeypatch.setattr(FusionRows, "pending_sightings", lambda self, f: reads.append(f) or own(self, f))
    ahead = store("ahead")
    with Memory.open(ahead, embedding_dim=4, config=IMMEDIATE, clock=lambda: 7.0) as m:
        _stage(m)
        stats = m.commit()
        assert len(stats.frame_ids) == 18
        batched, read_one_by_one = _state(m), len(reads)
    # the same frames with nothing read ahead (each read when it is asked, as on SQLite): the same graph
    monkeypatch.setattr(Store, "reads_in_batches", property(lambda self: False))
    reads.clear()
    own_reads = store("own")
    with Memory.open(own_reads, embedding_dim=4, config=IMMEDIATE, clock=lambda: 7.0) as m:
        _stage(m)
        m.commit()
        assert _state(m) == batched
        assert len(reads) == 18
    # on PostgreSQL no frame read its own sightings (all 18 in one round trip); SQLite reads them one by one
    assert read_one_by_one == (0 if store.backend == "postgresql" else 18)
    events = [line.split("kind=")[1].split(",")[0] for line in batched if line.startswith("ChangeEventInfo")]
    assert events == ["'appeared'", "'appeared'", "'removed'", "'moved'", "'appeared'", "'removed'"]


def test_close_without_fusing_leaves_the_staged_frames_for_the_fuser(store):
    path = store("m")
    m = Memory.open(path, embedding_dim=4, config=IMMEDIATE)
    m.add([box_obs("mug", A, stamp=1.0)])
    m.commit()
    m.add([box_obs("book", B, stamp=2.0)])
    m.close(fuse=False)
    m.close(fuse=False)  # safe twice
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as fuser:
        assert fuser.pending() == 1
        assert [o.label for o in fuser.objects()] == ["mug"]
        fuser.commit()
        assert [o.label for o in fuser.objects()] == ["mug", "book"]
