"""The FrameFusion service on a store alone, without the Memory facade or its mixins: a Memory writes the history and
is closed; frames are then staged and fused on a bare connection to the file, by a service built from the store and
the collaborators it is handed (issue 16: services, not mixins). The settling step (settling.py) is the facade's:
here its two steps are recorders, so what a frame's fusion writes is seen alone."""

from __future__ import annotations

import dataclasses
import inspect
import shutil
from types import SimpleNamespace

import numpy as np
import pytest
from core_helpers import IMMEDIATE, BareWriteSide, box_obs, distance_from_eye, view

from tempomem_ros.core import Memory, frame_fusion
from tempomem_ros.core.frame_fusion import CommitCounts, FrameFusion
from tempomem_ros.core.store.fusion_rows import FusionRows
from tempomem_ros.core.store.reads import StoreReads
from tempomem_ros.core.store.retention_rows import RetentionRows
from tempomem_ros.core.store.schema import sqlite3
from tempomem_ros.core.store.staging import StagedFrames

WALL = 7.0  # the wall clock of every write
A = (2.0, 0.0, 0.8)  # the mug's place, 2 m in front of the camera
B = (0.0, 2.0, 0.8)
SEEN = distance_from_eye(A) + 0.04   # depth at A when the mug stands there
EMPTY = distance_from_eye(A) + 1.0   # depth at A when the place is empty (the wall behind)


def _scene(path: str) -> None:
    """A mug at A, seen in three frames (one sighting confirms it: IMMEDIATE), written through a Memory and closed."""
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE, clock=lambda: WALL, vector_index="off") as m:
        for t in (0.0, 0.5, 1.0):
            m.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
        m.commit()


class Services(BareWriteSide):
    """The write side on a bare connection: store, relation keeper, WriteState, GraphWrites, FrameFusion; the
    settling step's two calls are recorded, not run."""

    def __init__(self, path: str):
        super().__init__(path, now=1.0, wall=WALL)
        cfg = self.config
        self.staging = StagedFrames(self.store)
        self.calls: list[tuple] = []
        self.fusion = FrameFusion(
            self.store, self.graph, FusionRows(self.store, wall_clock=lambda: WALL),
            StoreReads(self.store, cfg, readonly=False, has_sources=True), SimpleNamespace(label_encoder=None), cfg,
            self.state, settle=self._settle, finish_removals=self._finish_removals)

    def _finish_removals(self, stamp, counters, touched, **kw) -> None:
        self.calls.append(("finish_removals", stamp, dataclasses.replace(counters), set(touched), kw))

    def _settle(self, stamp, neighbours, counters, touched) -> None:
        self.calls.append(("settle", stamp, neighbours, dataclasses.replace(counters), set(touched)))

    def stage(self, stamp: float, observations, v=None) -> tuple[int, list[int]]:
        """Stage one frame as Memory.add writes it (the depth in the frame's row). Returns (frame id, obs ids)."""
        cols: tuple = (0, None, None, None, None, None, None, None, None, None, None, None, 0)
        if v is not None:
            depth = np.ascontiguousarray(v.depth, dtype=np.float32)
            cols = (1, np.asarray(v.pose, np.float64).tobytes(), float(v.fx), float(v.fy), float(v.cx), float(v.cy),
                    int(v.width), int(v.height), float(v.max_range), depth.tobytes(), depth.shape[0], depth.shape[1],
                    int(v.min_object_pixels))
        with self.store.transaction():
            frame_id = self.staging.insert_frame(stamp, WALL, "pending", cols, len(observations), "")
            ids = [self.staging.insert_observation(frame_id, o.stamp, WALL, o.label, o.confidence, o.center,
                                                   o.bbox_min, o.bbox_max, None, 0, 0, "pending", "")
                   for o in observations]
        return frame_id, ids

    def fuse(self) -> tuple[CommitCounts, set[int]]:
        """Fuse the staged frames as Memory.commit() does, less the settling step, relations and retention."""
        counters, touched = CommitCounts(), set()
        with self.store.transaction():
            for row in RetentionRows(self.store).pending_frames():
                self.fusion.fuse_frame(dict(row), counters, touched)
                self.staging.mark_fused(row["id"])
        return counters, touched


@pytest.fixture
def services(tmp_path):
    path = str(tmp_path / "m.db")
    _scene(path)
    s = Services(path)
    yield s
    s.close()


# the tables fusion writes (frames differ: Memory.add stages a depth apart, in frame_depths)
FUSED_TABLES = ("objects", "observations", "placements", "label_mass", "misses", "held_events", "events", "rejected",
                "label_history")
OBJECT = ("state, label, confidence, n_observations, first_seen, last_seen, weight, min_x, min_y, min_z, max_x, max_y, "
          "max_z, placement_id, misses")
VERDICT = "verdict, reason, object_id, candidate_id, score, placement_id"


def _tables(path: str) -> dict:
    conn = sqlite3.connect(path)
    try:
        return {n: conn.execute(f"SELECT * FROM {n} ORDER BY 1, 2").fetchall() for n in FUSED_TABLES}
    finally:
        conn.close()


def test_memory_delegates_fusion_and_frame_fusion_writes_no_sql():
    assert "FusionMixin" not in [c.__name__ for c in Memory.__mro__]
    source = inspect.getsource(frame_fusion)
    assert "execute" not in source and "_conn" not in source and "SELECT" not in source and "UPDATE" not in source


def test_a_merge_on_a_store_alone_is_what_the_memory_does(tmp_path, services):
    s = services
    copy = str(tmp_path / "copy.db")
    shutil.copy(str(tmp_path / "m.db"), copy)
    mug = box_obs("mug", (2.01, 0.0, 0.8), stamp=1.5)
    frame_id, (obs_id,) = s.stage(1.5, [mug], view(1.5, A, SEEN))
    counters, touched = s.fuse()
    assert counters == CommitCounts(observations=1, merged=1, views=1) and touched == {1}
    # removals whose hold ended go first (a missing object seen here is a move), settling last, with the twins'
    # candidates: no other object is near the mug
    assert s.calls == [("finish_removals", 1.5, CommitCounts(observations=1), set(), {"before": True}),
                       ("settle", 1.5, {1: []}, counters, {1})]
    assert s.rows(f"SELECT {VERDICT} FROM observations WHERE id=?", obs_id) == \
        [("merged", "", 1, 1, pytest.approx(0.966667, abs=1e-6), 1)]
    box = pytest.approx((1.9625, -0.04, 0.75, 2.0425, 0.04, 0.85))
    (obj,) = s.rows(f"SELECT {OBJECT} FROM objects")  # merged: no second object
    assert obj[:7] == ("present", "mug", pytest.approx(0.9833625), 4, 0.0, 1.5, pytest.approx(3.6))
    assert obj[7:13] == box and obj[13:] == (1, 0)
    (place,) = s.rows("SELECT id, t_from, t_last, t_to, current, min_x, min_y, min_z, max_x, max_y, max_z "
                      "FROM placements")
    assert place[:5] == (1, 0.0, 1.5, None, 1) and place[5:] == box
    assert s.rows("SELECT object_id, label, mass FROM label_mass") == [(1, "mug", pytest.approx(3.6))]
    assert s.rows("SELECT stamp, wall_time, action, object_ids, observation_ids, detail, source FROM audit "
                  "WHERE id > 3") == [(1.5, WALL, "merge", "[1]", "[4]", '{"reason": "score", "score": 0.966667}', "")]
    # nothing else: no event, no new held event, no miss (the view saw the mug), no relabel, no rejected key
    assert s.state.events == 0 and s.rows("SELECT COUNT(*) FROM events") == [(1,)]
    assert s.rows("SELECT COUNT(*) FROM held_events") == [(1,)]
    assert s.rows("SELECT COUNT(*) FROM misses") == s.rows("SELECT COUNT(*) FROM rejected") == \
        s.rows("SELECT COUNT(*) FROM label_history") == [(0,)]
    assert s.rows("SELECT n_misses, status FROM frames WHERE id=?", frame_id) == [(0, "fused")]
    s.close()
    with Memory.open(copy, embedding_dim=4, config=IMMEDIATE, clock=lambda: WALL, vector_index="off") as m:
        m.add([mug], view(1.5, A, SEEN))
        m.commit()
    assert _tables(str(tmp_path / "m.db")) == _tables(copy)  # the service alone writes what the facade writes


def test_a_create_on_a_store_alone(services):
    s = services
    mug = s.rows("SELECT * FROM objects WHERE id=1")
    s.store.caches.n_active = 1
    _, (obs_id,) = s.stage(2.0, [box_obs("book", B, stamp=2.0)])  # no view: no absence evidence
    counters, touched = s.fuse()
    assert counters == CommitCounts(observations=1, created=1) and touched == {2}
    assert s.calls == [("finish_removals", 2.0, CommitCounts(observations=1), set(), {"before": True}),
                       ("settle", 2.0, {2: []}, counters, {2})]
    # no candidate near it: none named, no score
    assert s.rows(f"SELECT {VERDICT} FROM observations WHERE id=?", obs_id) == \
        [("created", "created", 2, None, None, 2)]
    box = pytest.approx((-0.04, 1.96, 0.75, 0.04, 2.04, 0.85))
    obj = s.rows(f"SELECT {OBJECT}, n_moves, created_wall FROM objects WHERE id=2")[0]
    assert obj[:7] == ("present", "book", pytest.approx(0.9), 1, 2.0, 2.0, pytest.approx(0.9))
    assert obj[7:13] == box and obj[13:] == (2, 0, 0, WALL)
    assert s.rows("SELECT id FROM objects_rtree WHERE id=2") == [(2,)]
    assert s.store.caches.n_active == 2
    assert s.rows("SELECT object_id, label, mass FROM label_mass WHERE object_id=2") == \
        [(2, "book", pytest.approx(0.9))]
    (place,) = s.rows("SELECT id, object_id, t_from, t_last, t_to, current, opened_by, min_x, min_y, min_z, max_x, "
                      "max_y, max_z FROM placements WHERE id=2")
    assert place[:7] == (2, 2, 2.0, 2.0, None, 1, "appeared") and place[7:] == box
    # "appeared" is held (the settling step publishes it once the object holds), not published
    assert s.rows("SELECT id, kind, object_id, stamp, held_at, before_id, after_id, evidence, status, event_id FROM "
                  "held_events WHERE id > 1") == [(2, "appeared", 2, 2.0, 2.0, None, 2, "[4]", "held", None)]
    assert s.state.events == 0 and s.rows("SELECT COUNT(*) FROM events") == [(1,)]
    assert s.rows("SELECT stamp, wall_time, action, object_ids, observation_ids, detail FROM audit WHERE id > 3") == \
        [(2.0, WALL, "create", "[2]", "[4]", '{"reason": "created"}')]
    # the mug is untouched and no view means no miss
    assert s.rows("SELECT * FROM objects WHERE id=1") == mug
    assert s.rows("SELECT COUNT(*) FROM misses") == [(0,)]


def test_an_absence_miss_on_a_store_alone(services):
    s = services
    placements = s.rows("SELECT * FROM placements")
    # ten minutes after the last sighting (not the look that saw it), a view shows the mug's place empty
    frame_id, _ = s.stage(600.0, [], view(600.0, A, EMPTY))
    counters, touched = s.fuse()
    assert counters == CommitCounts(misses=1, views=1) and touched == set()
    assert s.calls == [("finish_removals", 600.0, CommitCounts(), set(), {"before": True}),
                       ("settle", 600.0, {}, counters, set())]
    assert s.rows("SELECT object_id, frame_id, placement_id, stamp, visible_fraction FROM misses") == \
        [(1, frame_id, 1, 600.0, 1.0)]
    # one miss is a third of a look's evidence: the mug stays present, no removal is due
    assert s.rows("SELECT state, misses, first_miss, last_miss, absence_evidence, absence_looks, look_start, "
                  "look_misses, removal_due, last_seen FROM objects") == \
        [("present", 1, 600.0, 600.0, pytest.approx(1 / 3), 1, 600.0, 1, None, 1.0)]
    assert s.rows("SELECT n_misses, status FROM frames WHERE id=?", frame_id) == [(1, "fused")]
    assert s.rows("SELECT * FROM placements") == placements
    assert s.state.events == 0 and s.rows("SELECT COUNT(*) FROM events") == [(1,)]
    assert s.rows("SELECT COUNT(*) FROM audit WHERE id > 3") == [(0,)]  # a miss leaves no audit row
