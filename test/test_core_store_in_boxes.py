"""SQLite answers the spatial index for many boxes in one statement (store/base.py _sqlite_in_boxes): each box's
rows, with their R*Tree entries where asked, are those of its own statement (objects_in_box), in its order.

Why: fusion reads the candidates of every sighting of a frame, one statement each on SQLite (20 a frame at 38-43 us
in bench_commit_profile: docs/RESULTS.md section 7, round 11). A set read may only save statements, never change a
row: compared here with one statement a box on random boxes (empty, overlapping, touching an edge, far, NaN) over
objects of every state, for more boxes than one statement takes, and for one box and none."""

from __future__ import annotations

import random

import numpy as np
from core_helpers import box_obs

from tempomem_ros.core import Memory
from tempomem_ros.core.store import base
from tempomem_ros.core.store.object_row import ObjectRow


def _memory(tmp_path):
    m = Memory.open(str(tmp_path / "m.db"), embedding_dim=8)
    rng = random.Random(3)
    labels = ("mug", "book", "table", "chair")
    for i in range(6):
        m.add([box_obs(rng.choice(labels), (rng.uniform(0, 4), rng.uniform(0, 4), rng.uniform(0, 1)),
                       half=(rng.uniform(0.02, 0.5), rng.uniform(0.02, 0.5), rng.uniform(0.02, 0.3)), stamp=float(i))
               for _ in range(15)])
        m.commit()
    return m


def _boxes(rng: random.Random, n: int) -> list:
    out = []
    for _ in range(n):
        lo = np.array([rng.uniform(-1, 5), rng.uniform(-1, 5), rng.uniform(-0.5, 1.5)])
        hi = lo + np.array([rng.uniform(0, 2), rng.uniform(0, 2), rng.uniform(0, 1)])
        if rng.random() < 0.05:
            lo[rng.randrange(3)] = np.nan
        out.append((lo, hi))
    return out


def _tuples(runs) -> list:
    return [[tuple(o) for o in run] for run in runs]


def _one_by_one(store, boxes, states, with_entry: bool):
    sql = base._in_box_sql(states, with_entry) + " ORDER BY o.id"
    return [[tuple(r) for r in store.conn.execute(sql, (lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], *states))]
            for lo, hi in boxes]


def test_many_boxes_read_at_once_give_each_boxs_own_rows(tmp_path, monkeypatch):
    with _memory(tmp_path) as m:
        store = m._store
        rng = random.Random(11)
        states = ("present", "missing", "tentative")
        assert len(m.objects()) > 20
        for n in (0, 1, 2, 20, 57):
            boxes = _boxes(rng, n)
            rows = store.objects_in_boxes(boxes, states)
            assert _tuples(rows) == [_tuples([store.objects_in_box(lo, hi, states)])[0] for lo, hi in boxes]
            entries: dict = {}
            rows = store.objects_in_boxes(boxes, ("present",), entries=entries)
            asked = _one_by_one(store, boxes, ("present",), True)
            n_cols = len(ObjectRow._fields)
            assert [[tuple(o) for o in run] for run in rows] == [[r[:n_cols] for r in run] for run in asked]
            assert entries == {r[0]: (r[-6:-3], r[-3:]) for run in asked for r in run}
            assert sum(map(len, rows)) > 0 or n < 20  # boxes that find objects
        # more boxes than one statement takes: three statements, the same rows
        monkeypatch.setattr(base, "SQLITE_BOXES_PER_READ", 7)
        boxes = _boxes(rng, 19)
        traced: list[str] = []
        m._conn.set_trace_callback(traced.append)
        rows = store.objects_in_boxes(boxes, states)
        m._conn.set_trace_callback(None)
        assert sum(s.startswith("WITH v(lx") for s in traced) == 3 and len(traced) == 3
        assert _tuples(rows) == [_tuples([store.objects_in_box(lo, hi, states)])[0] for lo, hi in boxes]


def test_a_frame_reads_its_candidates_in_one_statement(tmp_path):
    with _memory(tmp_path) as m:
        traced: list[str] = []
        m.add([box_obs("mug", (1.0 + 0.3 * i, 2.0, 0.5), stamp=10.0) for i in range(5)])
        m._conn.set_trace_callback(traced.append)
        m.commit()
        m._conn.set_trace_callback(None)
        # the candidates of the frame's 5 sightings (with their R*Tree entries) in one statement, none a sighting; the
        # the single-box reads left are other questions (no entry read with them)
        assert sum(s.startswith("WITH v(lx") and "r.min_x, r.min_y" in s for s in traced) == 1
        single = [s for s in traced if s.startswith("SELECT o.id") and "FROM objects_rtree r" in s]
        assert all("r.min_x, r.min_y" not in s for s in single)


def test_a_set_read_stays_under_the_historic_parameter_limit(tmp_path):
    """Each set read binds at most 999 parameters, the SQLITE_MAX_VARIABLE_NUMBER of SQLite builds before 3.32 (the
    limit SQL_ID_CHUNK keeps every "IN (...)" read under; rows.id_chunks: an item of k parameters, SQL_ID_CHUNK // k
    a statement): a frame of 200 sightings is read on such a build (the stdlib sqlite3 connection here, its limit set
    to 999), in statements of the same rows as one a box. Why: at 500 boxes a statement, 3,003 parameters, any frame
    over 166 sightings failed its commit there with "too many SQL variables"."""
    import sqlite3

    with _memory(tmp_path) as m:
        boxes = _boxes(random.Random(5), 200)
        states = ("present", "missing", "tentative")
        want = _tuples(m._store.objects_in_boxes(boxes, states))
    old = sqlite3.connect(str(tmp_path / "m.db"))
    try:
        old.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
        args = [(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]) for lo, hi in boxes]
        traced: list[str] = []
        old.set_trace_callback(traced.append)
        got = base._sqlite_in_boxes(old, args, states, False)
        old.set_trace_callback(None)
    finally:
        old.close()
    assert [[tuple(r) for r in run] for run in got] == want
    assert sum(map(len, want)) > 0
    assert sum(s.startswith("WITH v(lx") for s in traced) == -(-200 // base.SQLITE_BOXES_PER_READ) >= 3
    assert base._in_boxes_sql(states, True, base.SQLITE_BOXES_PER_READ).count("?") <= 999
