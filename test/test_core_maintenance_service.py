"""The Maintenance service and the graph's write primitives (GraphWrites) on a store alone, without the Memory
facade or its mixins: a Memory writes the input and is closed; the services then run on a bare connection to the
file, built from the store and the collaborators they are handed (issue 16: services, not mixins)."""

from __future__ import annotations

import inspect
import json
import shutil

import pytest
from core_helpers import BareWriteSide, IMMEDIATE, box_obs, dump_tables

from tempomem_ros.core import Memory, maintenance
from tempomem_ros.core.maintenance import PUBLIC, Maintenance, RetentionHooks
from tempomem_ros.core.store.reads import StoreReads
from tempomem_ros.core.store.graph_writes import RTREE_PAD
from tempomem_ros.core.store.maintenance_rows import MaintenanceRows

WALL = 7.0  # the wall clock of every write (audit rows, tombstones)


def _scene(path: str, frames) -> None:
    """Write the input through a Memory (fusion), then close it: the services below never see the facade."""
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE, clock=lambda: WALL, vector_index="off") as m:
        for frame in frames:
            m.add(frame)
            m.commit()


def _mug_book_cups(stamps=(1.0, 2.0)):
    """Objects 1 mug, 2 book (near each other), 3 and 4 cup: two cups 3 cm apart seen in the same frames, so
    fusion keeps them apart (one object takes one sighting per frame) and only consolidation joins them."""
    return [[box_obs("mug", (1.0, 0, 0.5), stamp=t), box_obs("book", (1.3, 0, 0.5), stamp=t),
             box_obs("cup", (3.0, 0, 0.5), stamp=t), box_obs("cup", (3.03, 0, 0.5), stamp=t)] for t in stamps]


class Services(BareWriteSide):
    """The write side on a bare connection: store, relation keeper, WriteState, GraphWrites, Maintenance."""

    def __init__(self, path: str, now: float):
        super().__init__(path, now=now, wall=WALL)
        cfg, relations = self.config, self.relations
        self.fused = 0

        def fuse_pending():
            self.fused += 1

        self.maintenance = Maintenance(self.store, self.graph, MaintenanceRows(self.store, wall_clock=lambda: WALL),
                                       StoreReads(self.store, cfg, readonly=False, has_sources=True), relations, cfg,
                                       self.state, fuse_pending=fuse_pending, now=lambda: now,
                                       retention=RetentionHooks.none())


def test_memory_exposes_each_maintenance_method_and_maintenance_writes_no_sql():
    for name in PUBLIC:
        assert getattr(Memory, name).__wrapped__.__wrapped__ is getattr(Maintenance, name), name
    assert "MaintenanceMixin" not in [c.__name__ for c in Memory.__mro__]
    source = inspect.getsource(maintenance)
    assert "execute" not in source and "_conn" not in source and "SELECT" not in source


def test_forget_on_a_store_alone(tmp_path):
    path = str(tmp_path / "m.db")
    _scene(path, _mug_book_cups())
    s = Services(path, now=2.0)
    try:
        mug = s.rows("SELECT id, label, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z FROM objects WHERE id=1")
        assert s.maintenance.forget(1, "spilled") is True
        assert s.fused == 1  # what is staged is fused first
        assert s.rows("SELECT id, state, placement_id FROM objects ORDER BY id") == \
            [(1, "forgotten", None), (2, "present", 2), (3, "present", 3), (4, "present", 4)]
        assert s.rows("SELECT id, t_to, current, closed_reason FROM placements ORDER BY id") == \
            [(1, 2.0, 0, "forgotten"), (2, None, 1, ""), (3, None, 1, ""), (4, None, 1, "")]
        # the tombstone: who/when/why, the object's last box, active (an identical sighting is refused)
        _, label, *box = mug[0]
        assert s.rows("SELECT id, object_id, kind, stamp, wall_time, reason, label, cx, cy, cz, min_x, min_y, min_z, "
                      "max_x, max_y, max_z, feature, active FROM tombstones") == \
            [(1, 1, "forgotten", 2.0, WALL, "spilled", "mug", *box, None, 1)]
        assert s.rows("SELECT id FROM tombstones_rtree") == [(1,)]
        assert s.rows("SELECT id, stamp, recorded_at, kind, object_id, label, previous_label, before_id, after_id, "
                      "evidence, detail FROM events WHERE id > 4") == \
            [(5, 2.0, 2.0, "forgotten", 1, "mug", "", 1, None, "[]", '{"kind": "forgotten", "reason": "spilled"}')]
        assert s.state.events == 1
        assert s.rows("SELECT stamp, wall_time, action, object_ids, observation_ids, detail, source FROM audit "
                      "WHERE id > 8") == [(2.0, WALL, "forget", "[1]", "[]", '{"reason": "spilled"}', "")]
        # the mug's relations close; the cups' stay open
        assert s.rows("SELECT subject_id, relation, object_id, until FROM relations ORDER BY id") == \
            [(1, "near", 2, 2.0), (2, "near", 1, 2.0), (3, "near", 4, None), (4, "near", 3, None)]
        # already forgotten: False, and nothing more is written
        assert s.maintenance.forget(1, "again") is False
        assert s.fused == 2
        assert s.rows("SELECT COUNT(*) FROM audit") == [(9,)]
        assert s.rows("SELECT COUNT(*) FROM events") == [(5,)]
        assert s.rows("SELECT COUNT(*) FROM tombstones") == [(1,)]
    finally:
        s.close()


def test_consolidate_on_a_store_alone_is_what_the_memory_does(tmp_path):
    path, copy = str(tmp_path / "m.db"), str(tmp_path / "copy.db")
    _scene(path, _mug_book_cups())
    shutil.copy(path, copy)
    s = Services(path, now=2.0)
    try:
        assert s.maintenance.consolidate() == [(3, 4)]
        assert s.rows("SELECT id, state, placement_id, n_observations, first_seen, last_seen FROM objects "
                      "ORDER BY id") == [(1, "present", 1, 2, 1.0, 2.0), (2, "present", 2, 2, 1.0, 2.0),
                                         (3, "present", 3, 4, 1.0, 2.0), (4, "forgotten", None, 2, 1.0, 2.0)]
        # the younger cup's sightings are the older one's, at its current placement
        assert s.rows("SELECT id, object_id, placement_id FROM observations WHERE id IN (3, 4, 7, 8) ORDER BY id") == \
            [(3, 3, 3), (4, 3, 3), (7, 3, 3), (8, 3, 3)]
        assert s.rows("SELECT object_id, label, mass FROM label_mass WHERE object_id IN (3, 4) ORDER BY object_id") \
            == [(3, "cup", pytest.approx(3.6)), (4, "cup", pytest.approx(1.8))]
        assert s.rows("SELECT object_id, kind, stamp, wall_time, reason, label, active FROM tombstones") == \
            [(4, "consolidated", 2.0, WALL, "merged into #3", "cup", 0)]
        assert s.rows("SELECT id, t_to, current, closed_reason FROM placements WHERE id IN (3, 4) ORDER BY id") == \
            [(3, None, 1, ""), (4, 2.0, 0, "consolidated")]
        audit = s.rows("SELECT stamp, wall_time, action, object_ids, observation_ids, detail FROM audit WHERE id > 8")
        assert audit == [(2.0, WALL, "consolidate", "[3, 4]", "[4, 8]", '{"absorbed": 4, "kept": 3}')]
        # an absorption publishes no event (nothing was seen to happen), and no other object is touched
        assert s.state.events == 0 and s.rows("SELECT COUNT(*) FROM events") == [(4,)]
        assert s.rows("SELECT subject_id, relation, object_id, until FROM relations ORDER BY id") == \
            [(1, "near", 2, None), (2, "near", 1, None), (3, "near", 4, 2.0), (4, "near", 3, 2.0)]
        assert s.maintenance.consolidate() == []  # nothing left to join
    finally:
        s.close()
    with Memory.open(copy, embedding_dim=4, config=IMMEDIATE, clock=lambda: WALL, vector_index="off") as m:
        assert m.consolidate() == [(3, 4)]
    assert dump_tables(path) == dump_tables(copy)  # the service alone writes exactly what the facade writes


def test_graph_writes_alone(tmp_path):
    path = str(tmp_path / "m.db")
    _scene(path, [[box_obs("mug", (1.0, 0, 0.5), stamp=1.0)]])
    s = Services(path, now=9.0)
    g = s.graph
    lo, hi = (1.96, -0.04, 0.45), (2.04, 0.04, 0.55)
    try:
        with s.store.transaction():
            g.close_placement(1, 3.0, "moved")
            pid = g.open_placement(1, (2.0, 0.0, 0.5), lo, hi, 3.0, "moved")
            assert pid == 2
            assert (g.current_placement_id(1), g.last_closed_placement(1), g.last_closed_placement(1, exclude=1)) \
                == (2, 1, None)
            event_id = g.event(3.0, "moved", 1, 1, pid, [3])
            g.update_rtree(1, lo, hi, exact=True)
        assert s.rows("SELECT id, object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, region_id, t_from, "
                      "t_last, t_to, current, opened_by, closed_reason FROM placements WHERE id=2") == \
            [(2, 1, 2.0, 0.0, 0.5, *lo, *hi, 0, 3.0, 3.0, None, 1, "moved", "")]
        assert s.rows("SELECT id, t_from, t_last, t_to, current, closed_reason FROM placements WHERE id=1") == \
            [(1, 1.0, 1.0, 3.0, 0, "moved")]
        assert s.rows("SELECT placement_id, region_id FROM objects WHERE id=1") == [(2, 0)]
        assert s.rows("SELECT id, stamp, recorded_at, kind, object_id, label, previous_label, before_id, after_id, "
                      "evidence, detail, retracted FROM events WHERE id=?", event_id) == \
            [(2, 3.0, 9.0, "moved", 1, "mug", "", 1, 2, "[3]", "{}", 0)]
        assert s.state.events == 1
        assert s.rows("SELECT COUNT(*) FROM audit WHERE id > 1") == [(0,)]  # primitives queue no audit rows

        def entry():
            return s.rows("SELECT min_x, max_x, min_y, max_y, min_z, max_z FROM objects_rtree WHERE id=1")[0]

        padded = (lo[0] - RTREE_PAD, hi[0] + RTREE_PAD, lo[1] - RTREE_PAD, hi[1] + RTREE_PAD, lo[2] - RTREE_PAD,
                  hi[2] + RTREE_PAD)
        assert entry() == pytest.approx(padded, abs=1e-6)  # the R*Tree keeps 32-bit floats
        with s.store.transaction():  # a nudge inside the padded entry rewrites nothing
            g.update_rtree(1, [v + 0.01 for v in lo], [v + 0.01 for v in hi])
        assert entry() == pytest.approx(padded, abs=1e-6)
        with s.store.transaction():  # leaving it: the entry is the new box, padded
            g.update_rtree(1, [v + 0.5 for v in lo], [v + 0.5 for v in hi])
        assert entry() == pytest.approx([v + 0.5 for v in padded], abs=1e-6)

        with s.store.transaction():
            g.add_mass(1, "cup", 0.5)
            assert g.label_mass(1) == {"cup": 0.5, "mug": 0.9}
            g.set_label_mass(1, {"mug": 2.0, "cup": 0.0})
        assert s.rows("SELECT label, mass FROM label_mass WHERE object_id=1 ORDER BY label") == [("mug", 2.0)]
        assert g.label_mass(1) == {"mug": 2.0}
        # relations are recomputed only for a box that moved past relation_box_epsilon (unknown: moved)
        assert g.relation_box_changed(1, lo, hi) is True
        s.store.caches.relation_boxes[1] = (*lo, *hi)
        assert g.relation_box_changed(1, [v + 0.001 for v in lo], hi) is False
        assert g.relation_box_changed(1, [v + 0.5 for v in lo], hi) is True
    finally:
        s.close()


def test_a_write_state_is_shared_with_the_facade(tmp_path):
    """Memory's commit counts the events GraphWrites writes (CommitStats.events) through the one WriteState."""
    with Memory.open(str(tmp_path / "m.db"), embedding_dim=4, config=IMMEDIATE, vector_index="off") as m:
        assert m._graph.state is m._writes and m._maintenance._state is m._writes
        m.add([box_obs("mug", (1.0, 0, 0.5), stamp=1.0)])
        stats = m.commit()
        assert stats.events == m._writes.events == 1  # the mug's "appeared"
        assert json.loads(m._conn.execute("SELECT evidence FROM events").fetchone()[0]) == [1]
