"""The store layer's contract (core/store/base.py StoreInterface), on both backends: one transaction context
manager (all or nothing, audit rows with the work, caches dropped on rollback and after another writer's
commit), ordered spatial-index reads, one consistent snapshot."""

from __future__ import annotations

import json

import pytest
from core_helpers import IMMEDIATE, box_obs

from tempomem_ros.core import Memory
from tempomem_ros.core.store import Store, StoreInterface, WriterCaches


class Boom(Exception):
    pass


def _audit_actions(m: Memory) -> list[str]:
    return [r[0] for r in m._conn.execute("SELECT action FROM audit ORDER BY id").fetchall()]


def test_a_store_is_the_interface(store):
    with Memory.open(store("m"), embedding_dim=4) as m:
        assert isinstance(m._store, Store) and isinstance(m._store, StoreInterface)
        assert isinstance(m._store.caches, WriterCaches)


def test_a_transaction_commits_its_audit_rows_with_the_work_or_neither(store):
    with Memory.open(store("m"), embedding_dim=4, clock=lambda: 7.0) as m:
        s = m._store
        before = s.writes
        with s.transaction():
            s.audit(1.0, "probe", [3, 1, 3], [9, 8], {"b": 1, "a": 2}, "robot_a")
            m._conn.execute("INSERT INTO regions (label, min_x, min_y, min_z, max_x, max_y, max_z, stamp, "
                            "wall_time) VALUES ('hall', 0, 0, 0, 1, 1, 1, 1.0, 7.0)")
        assert s.writes == before + 1
        row = m._conn.execute("SELECT stamp, wall_time, action, object_ids, observation_ids, detail, source "
                              "FROM audit WHERE action='probe'").fetchone()
        assert (row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4]), row[5], row[6]) == \
            (1.0, 7.0, "probe", [1, 3], [9, 8], '{"a": 2, "b": 1}', "robot_a")
        s.caches.label_mass[1] = {"mug": 1.0}
        s.caches.n_active = 5
        with pytest.raises(Boom):
            with s.transaction():
                s.audit(2.0, "doomed", [], [], None, "")
                m._conn.execute("INSERT INTO regions (label, min_x, min_y, min_z, max_x, max_y, max_z, stamp, "
                                "wall_time) VALUES ('kitchen', 0, 0, 0, 1, 1, 1, 1.0, 7.0)")
                raise Boom()
        assert "doomed" not in _audit_actions(m)
        assert [r[0] for r in m._conn.execute("SELECT label FROM regions ORDER BY id")] == ["hall"]
        assert s.writes == before + 1  # the rolled-back one is not counted
        assert (s.caches.label_mass, s.caches.n_active) == ({}, None)  # dropped with the rollback
        with s.transaction():  # the store is usable again, and the queue was emptied by the rollback
            pass
        assert "doomed" not in _audit_actions(m)


def test_another_writers_commit_voids_the_caches(store):
    path = store("m")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as a, \
            Memory.open(path, embedding_dim=4, config=IMMEDIATE) as b:
        a._store.caches.rtree_boxes[1] = ((0, 0, 0), (1, 1, 1))
        with a._store.transaction():
            pass
        assert 1 in a._store.caches.rtree_boxes  # its own commit keeps them
        b.add([box_obs("mug", (1, 0, 0.5), stamp=1)])  # another connection writes: on PostgreSQL it stages beside
        b.commit()  # fusion (Store.staging), which leaves the fused state and so these caches as they were; it fuses
        with a._store.transaction():
            assert a._store.caches.rtree_boxes == {}


def test_objects_in_box_are_ordered_by_id_and_filtered(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("book", (2.0, 0, 0.5), stamp=1), box_obs("mug", (1.0, 0, 0.5), stamp=1),
               box_obs("vase", (1.5, 0, 0.5), stamp=1), box_obs("lamp", (9.0, 0, 0.5), stamp=1)])
        m.commit()
        ids = {o.label: o.id for o in m.objects()}
        s = m._store
        near = [r.label for r in s.objects_in_box((0.5, -1, 0), (2.5, 1, 1), ("present",))]
        assert near == ["book", "mug", "vase"]  # by id, the lamp far away absent
        assert [r.label for r in s.objects_in_box((0.5, -1, 0), (2.5, 1, 1), ("present",),
                                                     exclude_id=ids["mug"])] == ["book", "vase"]
        assert [r.label for r in s.objects_in_box((0.5, -1, 0), (2.5, 1, 1), ("present",),
                                                     above_id=ids["mug"])] == ["vase"]
        assert s.objects_in_box((0.5, -1, 0), (2.5, 1, 1), ("missing",)) == []
        assert m.forget(ids["vase"], "test")
        assert [r["label"] for r in s.tombstones_in_box((0.5, -1, 0), (2.5, 1, 1))] == ["vase"]
        assert s.tombstones_in_box((8, -1, 0), (10, 1, 1)) == []


def test_a_snapshot_reads_inside_the_open_transaction(store):
    with Memory.open(store("m"), embedding_dim=4) as m:
        s = m._store
        with s.transaction():
            m._conn.execute("INSERT INTO regions (label, min_x, min_y, min_z, max_x, max_y, max_z, stamp, "
                            "wall_time) VALUES ('hall', 0, 0, 0, 1, 1, 1, 1.0, 1.0)")
            with s.snapshot() as conn:  # the writer's own state, uncommitted
                assert [r[0] for r in conn.execute("SELECT label FROM regions")] == ["hall"]
        with m.reading() as conn:
            assert [r[0] for r in conn.execute("SELECT label FROM regions")] == ["hall"]
            assert conn.in_transaction
        assert not m._conn.in_transaction


def test_the_query_service_answers_on_a_store_alone(store):
    """QueryService runs on a store, its reads and the settings: the same answers as the Memory facade, which
    exposes every one of its public methods."""
    from tempomem_ros.core.config import MemoryConfig
    from tempomem_ros.core.queries import PUBLIC, QueryService
    from tempomem_ros.core.store.reads import StoreReads

    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1.0, 0, 0.5), stamp=1), box_obs("book", (1.3, 0, 0.5), stamp=1),
               box_obs("lamp", (4.0, 0, 0.5), stamp=1)])
        m.commit()
        cfg = MemoryConfig()
        q = QueryService(m._store, StoreReads(m._store, cfg, readonly=False, has_sources=True), cfg, embedding_dim=4,
                         meta={}, vector_index_on=False, vector_mode="off")
        alone = [(h.object.label, round(h.score, 6)) for h in q.spatial((1.0, 0, 0.5), 0.5)]
        assert alone == [("mug", 0.0), ("book", 0.3)]
        assert alone == [(h.object.label, round(h.score, 6)) for h in m.spatial((1.0, 0, 0.5), 0.5)]
        assert [o.label for o in q.objects_labelled("lamp")] == ["lamp"]
        assert [s.object.label for s in q.semantic("a book to read")] == ["book"]
        for name in PUBLIC:
            assert getattr(Memory, name).__wrapped__.__wrapped__ is getattr(QueryService, name), name


def test_the_temporal_service_answers_on_a_store_alone(store):
    """TemporalService runs on a store, its reads, the query service and a clock; Memory exposes each of its
    public operators."""
    from tempomem_ros.core.config import MemoryConfig
    from tempomem_ros.core.checks import PUBLIC as CHECKS
    from tempomem_ros.core.checks import YesNoChecks
    from tempomem_ros.core.lookfor import PUBLIC as LOOK_FOR
    from tempomem_ros.core.lookfor import WhereToLook
    from tempomem_ros.core.temporal import PUBLIC, TemporalService

    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1.0, 0, 0.5), stamp=1)])
        m.commit()
        m.add([box_obs("mug", (1.0, 0, 0.5), stamp=5)])
        m.commit()
        t = TemporalService(m._store, m._reads, m._queries, MemoryConfig(), now=lambda: 9.0,
                            tallied_in=lambda ids, lo, hi: (0, None))
        alone = t.temporal("duration", label="mug")
        assert alone.text == m.temporal("duration", label="mug", now=9.0).text
        assert alone.found and alone.time == 8.0 and alone.evidence == (1, 2)  # there since t=1, 'now' is 9
        assert alone.text.startswith("The mug has been at (1.00, 0.00, 0.50) for 8 s")
        assert t.checks.is_present(label="mug").verdict is True and t.checks.is_present(label="lamp").found is False
        assert t.current_evidence([1]) == m.current_evidence([1]) == (1, 2)
        look = t.look_for.where_to_look(label="mug", now=9.0)
        assert look.text == m.where_to_look(label="mug", now=9.0).text and look.count == 1
        assert [p.id for p in look.placements] == [1] and look.evidence == (1, 2)
        assert t.look_for.where_to_look(label="lamp").found is False
        for name in PUBLIC:
            assert getattr(Memory, name).__wrapped__.__wrapped__ is getattr(TemporalService, name), name
        for cls, names in ((YesNoChecks, CHECKS), (WhereToLook, LOOK_FOR)):
            for name in names:
                assert getattr(Memory, name).__wrapped__.__wrapped__ is getattr(cls, name), name
