"""The store's table modules (core/store/: objects, observations, placements, events, relations, regions, audit,
staging), read directly on a small store on both backends: the exact rows each named method returns, in the
order its docstring states, and what must be absent (forgotten objects, closed relations, unknown ids, rows
outside a box or a time)."""

from __future__ import annotations

import math

import pytest
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, span_obs, view

from tempomem_ros.core import Memory
from tempomem_ros.core.store.audit import AuditRows
from tempomem_ros.core.store.events import EventRows
from tempomem_ros.core.store.objects import ObjectRows
from tempomem_ros.core.store.observations import ObservationRows
from tempomem_ros.core.store.placements import PlacementRows
from tempomem_ros.core.store.regions import RegionRows
from tempomem_ros.core.store.relations import RelationRows
from tempomem_ros.core.store.staging import StagedFrames

A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
MUG_CENTER = (0.54, 0.34, 0.8)


def furnished(m: Memory) -> dict[str, int]:
    """A table with a mug and a vase on it, a lamp far away; a kitchen around the table and a counter around
    the mug; then the vase is forgotten."""
    m.add([span_obs("table", (0, 0, 0), (1.2, 0.8, 0.75), stamp=1),
           span_obs("mug", (0.5, 0.3, 0.75), (0.58, 0.38, 0.85), stamp=1),
           span_obs("lamp", (5, 5, 0), (5.2, 5.2, 0.5), stamp=1),
           span_obs("vase", (0.9, 0.2, 0.75), (0.98, 0.28, 0.95), stamp=1)])
    m.commit()
    ids = {o.label: o.id for o in m.objects()}
    ids["kitchen"] = m.define_region("kitchen", (-1, -1, -1), (2, 2, 2))
    ids["counter"] = m.define_region("counter", (0.4, 0.2, 0.7), (0.7, 0.5, 0.9))
    assert m.forget(ids["vase"], "test")
    return ids


def mug_moves(m: Memory) -> None:
    """Mug seen at A (t=10..12), A viewed 3 times without it (t=20..22), then a mug at B (t=30)."""
    for i in range(3):
        m.add([box_obs("mug", A, stamp=10 + i)], view(10 + i, A, distance_from_eye(A) + 0.04))
        m.commit()
    for i in range(3):
        m.add([], view(20 + i, A, distance_from_eye(A) + 1.0))
        m.commit()
    m.add([box_obs("mug", B, stamp=30)], view(30, B, distance_from_eye(B) + 0.04))
    m.commit()


def test_object_rows_by_id_state_region_and_label(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        ids = furnished(m)
        table, mug, lamp, vase = ids["table"], ids["mug"], ids["lamp"], ids["vase"]
        rows = ObjectRows(m._store)
        assert rows.row(mug).label == "mug" and rows.row(vase).state == "forgotten"
        assert rows.row(999) is None
        assert rows.row_if_shown(mug).id == mug and rows.row_if_shown(vase) is None
        assert rows.id_if_not_forgotten(mug) == mug
        assert rows.id_if_not_forgotten(vase) is None and rows.id_if_not_forgotten(999) is None
        # by id whatever the order asked in; unknown ids and (with states) forgotten ones left out
        assert [r.id for r in rows.rows([999, lamp, vase, mug, table])] == sorted([table, mug, lamp, vase])
        assert [r.id for r in rows.rows([999, lamp, vase, mug, table], ("present",))] == sorted([table, mug, lamp])
        assert rows.rows([], ("present",)) == []
        assert [r.id for r in rows.all()] == sorted([table, mug, lamp, vase])
        assert [r.id for r in rows.all("forgotten")] == [vase]
        assert rows.all("missing") == []
        assert [r.id for r in rows.in_states(("present", "missing"))] == sorted([table, mug, lamp])
        kitchen = RegionRows(m._store).row(ids["kitchen"])
        assert [r.id for r in rows.present_centred_in(kitchen)] == sorted([table, mug])  # not the lamp, vase
        assert [b[0] for b in rows.present_boxes()] == sorted([table, mug, lamp])
        assert {b[0]: b[1:] for b in rows.present_boxes()}[lamp] == pytest.approx((5, 5, 0, 5.2, 5.2, 0.5))
        assert rows.count_active() == 3
        assert rows.count_present_labelled("mug") == 1 and rows.count_present_labelled("vase") == 0
        assert rows.present_ids_labelled("mug") == [mug] and rows.present_ids_labelled("vase") == []
        assert rows.present_ids_labelled("mug", 0) == []
        assert rows.shown_labels_of([999, lamp, table]) == sorted([(table, "table"), (lamp, "lamp")])
        assert rows.count_present_with_feature() == 0  # no features were given
        assert [(t["object_id"], t["kind"], bool(t["active"])) for t in rows.tombstones()] == \
            [(vase, "forgotten", True)]


def test_relation_and_region_rows(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        ids = furnished(m)
        table, mug, vase, kitchen, counter = (ids[k] for k in ("table", "mug", "vase", "kitchen", "counter"))
        rel = RelationRows(m._store)
        current = rel.current()
        assert [r["id"] for r in current] == sorted(r["id"] for r in current)
        keys = {(r["subject_id"], r["relation"], r["object_id"], r["object_is_region"]) for r in current}
        assert (mug, "on", table, 0) in keys and (mug, "in", kitchen, 1) in keys and (mug, "in", counter, 1) in keys
        assert not any(vase in (k[0], k[2]) for k in keys if not k[3])  # the vase's rows were closed
        assert all(r["until"] is None for r in current)
        of_mug = rel.current_of(mug)
        assert [r["id"] for r in of_mug] == sorted(r["id"] for r in of_mug)
        assert {(r["subject_id"], r["relation"], r["object_id"]) for r in of_mug} == \
            {k[:3] for k in keys if k[0] == mug or (k[2] == mug and not k[3])}
        involving = rel.current_involving([mug, table])
        assert {r["id"] for r in involving} == {r["id"] for r in current if r["subject_id"] in (mug, table)
                                                or (not r["object_is_region"] and r["object_id"] in (mug, table))}
        assert [r["id"] for r in involving] == sorted(r["id"] for r in involving)
        assert rel.open_keys_of(mug) == {(r["subject_id"], r["relation"], r["object_id"], r["object_is_region"]):
                                         r["id"] for r in of_mug}
        # every object's open_keys_of rows at once: on PostgreSQL one statement (OPEN_KEYS_ORDERED, set-based; it
        # was one each), the subject's rows first, then the others, each by id
        asked = [mug, table, vase, 999, mug]
        traffic = getattr(m._conn, "traffic", None)
        sent = traffic.server_statements if traffic is not None else None
        each = rel.open_rows_of_each(asked)
        if traffic is not None:
            assert traffic.server_statements - sent == 1
        assert [{key: rid for rid, key in rows} for rows in each] == [rel.open_keys_of(i) for i in asked]
        assert len(each[0]) == len(of_mug) and each[2] == each[3] == [] and each[4] == each[0]  # the vase's closed
        if traffic is not None:
            for i, rows in zip(asked, each):
                assert rows == sorted(rows, key=lambda r: (r[1][0] != i, r[0]))
        # anchored: what is on the table now (the forgotten vase is not), and ever (the vase was, until forgotten)
        assert [r["subject_id"] for r in rel.with_anchors("on", [table], [], None)] == [mug]
        ever = rel.with_anchors("on", [table], [], None, history=True)
        assert [r["subject_id"] for r in ever] == sorted([mug, vase])
        assert {r["subject_id"]: r["until"] is None for r in ever} == {mug: True, vase: False}
        assert rel.with_anchors("on", [table], [], 0.5) == []  # before anything was seen
        assert [r["object_id"] for r in rel.with_anchors("under", [mug], [], None)] == [table]
        assert [r["subject_id"] for r in rel.with_anchors("in", [], [kitchen], None)] == sorted([table, mug])
        assert rel.with_anchors("near", [], [], None) == []
        assert tuple(rel.current_support(mug)) == ("table", None) and rel.current_support(table) is None
        assert [None if r is None else tuple(r) for r in rel.current_supports([table, mug, 999, mug])] == \
            [None, ("table", None), None, ("table", None)]
        assert [(r["object_id"], r["label"]) for r in rel.supports_during(mug, 0.0, math.inf)] == [(table, "table")]
        assert rel.supports_during(mug, -10.0, 0.5) == []

        regions = RegionRows(m._store)
        assert [r["id"] for r in regions.all()] == [kitchen, counter] and kitchen < counter
        assert regions.labels() == {kitchen: "kitchen", counter: "counter"}
        assert regions.row(counter)["label"] == "counter" and regions.row(999) is None
        assert regions.smallest_containing(MUG_CENTER) == counter  # the smaller of the two
        assert regions.smallest_containing((0.1, 0.1, 0.1)) == kitchen
        assert regions.smallest_containing((9, 9, 9)) == 0
        assert regions.containing(MUG_CENTER) == [kitchen, counter]
        assert regions.containing((9, 9, 9)) == []
        # containing_each tests the boxes in Python: as BETWEEN, both bounds count (the counter's corners and faces)
        corner, beyond = (0.4, 0.2, 0.7), (0.7, 0.5, 0.9 + 1e-9)
        points = [MUG_CENTER, (9, 9, 9), corner, (0.7, 0.5, 0.9), beyond, (0.1, 0.1, 0.1), (-1, -1, -1)]
        assert regions.containing_each(points) == [regions.containing(p) for p in points]
        assert regions.containing_each(points) == [[kitchen, counter], [], [kitchen, counter], [kitchen, counter],
                                                   [kitchen], [kitchen], [kitchen]]
        assert regions.containing_each([]) == []


def test_placement_observation_event_staging_and_audit_rows(store):
    with Memory.open(store("t"), embedding_dim=4, config=IMMEDIATE) as m:
        mug_moves(m)
        (mug,) = [o.id for o in m.objects()]
        pl = PlacementRows(m._store)
        placements = pl.of_object(mug)
        assert [(p["t_from"], p["t_to"], p["current"]) for p in placements] == [(10, 20, 0), (30, None, 1)]
        at_a, at_b = (p["id"] for p in placements)
        assert pl.row(at_b)["cx"] == pytest.approx(B[0]) and pl.row(999) is None
        assert pl.of_objects([999, mug]) == {999: [], mug: placements}  # of_object's rows and order, each
        assert [p["id"] for p in pl.at([999, mug], 11.5)] == [at_a]
        assert pl.at([mug], 25) == []  # gone from A, not yet seen at B
        assert pl.current_id(mug) == at_b and pl.current_id(999) is None
        traffic = getattr(m._conn, "traffic", None)
        sent = traffic.server_statements if traffic is not None else None
        assert pl.current_ids([999, mug, mug]) == [None, at_b, at_b] and pl.current_ids([]) == []
        if traffic is not None:  # one set-based statement on PostgreSQL (it was one per object, pipelined)
            assert traffic.server_statements - sent == 1
        assert [p["id"] for p in pl.as_of(11.5)] == [at_a] and pl.as_of(5) == []
        assert [p["id"] for p in pl.as_of(31, B, 0.5)] == [at_b] and pl.as_of(31, A, 0.5) == []
        assert (pl.count_as_of(31), pl.count_as_of(31, A, 0.5), pl.count_as_of(25)) == (1, 0, 0)
        assert pl.as_of(31, k=1, offset=1) == []

        obs = ObservationRows(m._store, has_sources=True)
        assert [r["id"] for r in obs.newest_of(mug)] == [4, 3, 2, 1]
        assert [r["id"] for r in obs.newest_of(mug, 2, 1)] == [3, 2]
        assert obs.newest_of(999) == [] and obs.count_of(mug) == 4 and obs.count_of(999) == 0
        assert obs.row(4)["stamp"] == 30 and obs.row(999) is None
        assert obs.sources([4, 999, 1]) == {1: m.config.source, 4: m.config.source}  # the unknown id absent
        assert ObservationRows(m._store, has_sources=False).sources([4, 1]) == {1: "", 4: ""}
        assert [r["id"] for r in obs.all()] == [1, 2, 3, 4] and obs.all("pending") == []
        assert obs.newest_ids_of_placement(at_a, 2) == [3, 2] and obs.newest_ids_of_placement(at_b, 50) == [4]
        assert obs.newest_ids_of_placements([at_b, 999, at_a], 2) == [[4], [], [3, 2]]
        assert (obs.first_id_of(mug), obs.last_id_of(mug), obs.last_id_of(999)) == (1, 4, None)
        assert [r["id"] for r in obs.sightings_in([mug], 11, 30)] == [4, 3, 2]  # both bounds included
        assert obs.sightings_in([mug], 13, 29) == []

        ev = EventRows(m._store)
        assert [(e["kind"], e["stamp"]) for e in ev.all()] == [("appeared", 10), ("removed", 20), ("moved", 30)]
        assert [e["kind"] for e in ev.of_object(mug)] == ["appeared", "removed", "moved"] and ev.of_object(999) == []
        assert [e["kind"] for e in ev.between(15, 30)] == ["removed", "moved"]
        assert [e["kind"] for e in ev.between(0, 100, ("moved",))] == ["moved"]
        first = ev.all()[0]["id"]
        assert [e["kind"] for e in ev.after(first)] == ["removed", "moved"]
        assert [e["id"] for e in ev.after(0, 1)] == [first]

        staging = StagedFrames(m._store)
        assert staging.newest_accepted() == 30 and staging.pending_count() == 0
        assert [staging.count_with_status(s) for s in ("fused", "pending", "quarantined")] == [7, 0, 0]
        assert staging.has_frame(30, 1) and not staging.has_frame(30, 2) and staging.has_frame(20, 0)
        jump = m.stage([box_obs("mug", B, stamp=30 + 7200)])  # two hours ahead: held in quarantine
        assert jump.status == "quarantined"
        assert [tuple(r) for r in staging.quarantined()] == [(jump.frame_id, 7230)]
        assert staging.quarantined_count() == 1 and staging.newest_accepted() == 30  # it does not count
        assert staging.observation_ids_of([jump.frame_id]) == list(jump.observation_ids) == [5]
        assert staging.observation_ids_of([999]) == []

        audit = AuditRows(m._store)
        rows = audit.rows()
        assert [r["id"] for r in rows] == sorted(r["id"] for r in rows) and audit.last_id() == rows[-1]["id"]
        assert [tuple(a) for a in audit.actions_between(0, audit.last_id())] == \
            [(r["action"], r["object_ids"]) for r in rows]
        assert rows[-1]["action"] == "quarantine"
        assert audit.actions_between(audit.last_id(), audit.last_id()) == []
        assert audit.rows(since=rows[-1]["wall_time"] + 1e6) == []


def test_distinct_labels_are_every_shown_label_once_in_order(store):
    """StoreReads.distinct_labels (the recursive walk of objects_shown_label): the labels objects show, pinned
    before canonical, each once, sorted, per state or for all; the empty label never; on PostgreSQL in one wait
    however many labels there are."""
    address = store("m")
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        ids = furnished(m)
        m.add([span_obs("mug", (3, 0, 0), (3.1, 0.1, 0.1), stamp=2), span_obs("bowl", (4, 0, 0), (4.1, 0.1, 0.1),
                                                                              stamp=2)])
        m.commit()
    place = "?" if not store.postgres else "%s"
    store.raw(address, f"UPDATE objects SET pinned_label = {place} WHERE id = {place}", ("cup", ids["lamp"]))
    store.raw(address, f"UPDATE objects SET label = {place} WHERE id = {place}", ("", ids["table"]))
    rows = store.raw(address, "SELECT COALESCE(pinned_label, label), state FROM objects")
    with Memory.open(address, readonly=True) as m:
        reads = m._reads
        traffic = getattr(m._conn, "traffic", None)
        for state in (None, "present", "forgotten", "missing"):
            if traffic is not None:
                traffic.reset()
            got = reads._distinct_labels_uncached(state)
            assert got == sorted({lbl for lbl, st in rows if lbl and state in (None, st)})
            if traffic is not None:
                assert traffic.round_trips == 1
        assert reads.distinct_labels(None) == ["bowl", "cup", "mug", "vase"]  # the table's label is empty
        assert reads.distinct_labels("present") == ["bowl", "cup", "mug"] and reads.distinct_labels("missing") == []



class _OldSqlite:
    """A store whose connection refuses a statement of more than 999 parameters, as SQLite did by default before
    3.32 (SQLITE_MAX_VARIABLE_NUMBER; the bundled pysqlite3 connection has no setlimit to lower it)."""

    def __init__(self, store):
        self._real = store

    @property
    def conn(self):
        return self

    def execute(self, sql, params=()):
        if len(params) > 999:
            raise RuntimeError(f"too many SQL variables ({len(params)})")
        return self._real.conn.execute(sql, params)


def test_following_asks_many_objects_within_sqlites_old_parameter_limit(store):
    """EventRows.following on SQLite binds 3 parameters an ask: SQL_ID_CHUNK // 3 asks a statement (498
    parameters), so a SQLite built with the old 999 default (before 3.32) answers 400 asks (review of integ37,
    LOW 4: 500 asks, 1,500 parameters, a statement). PostgreSQL asks one at a time, pipelined."""
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", A, stamp=10)], view(10, A, distance_from_eye(A) + 0.04))
        for t in (20, 20.5, 21):
            m.add([], view(t, A, distance_from_eye(A) + 1.0))
        m.commit()
        ev = EventRows(m._store if store.postgres else _OldSqlite(m._store))
        (appeared, removed) = [(e["id"], e["kind"], e["stamp"]) for e in EventRows(m._store).all()]
        assert (appeared[1:], removed[1:]) == (("appeared", 10), ("removed", 20))
        asks = [(1, (10.0, appeared[0]))] + [(1000 + i, (0.0, 0)) for i in range(399)]
        got = ev.following(asks)
        assert len(got) == 400 and all(got[ask] == (None, None) for ask in asks[1:])
        row, relabel = got[asks[0]]
        assert (row["id"], row["kind"], row["stamp"], relabel) == (removed[0], "removed", 20, None)
