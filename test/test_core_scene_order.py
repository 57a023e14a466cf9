"""The scene as of t without a radius on SQLite (PlacementRows.as_of): each shown object's placements that began
by t, read by t_from (placements_object) and put in id order, give the rows of ``ORDER BY o.id, p.id LIMIT k
OFFSET offset`` over placements whose ids and start times disagree in order, overlap, and objects that are not
shown; the statement in id order is read only when an object with several placements held at t straddles the
page's edge."""

from __future__ import annotations

import random
import sqlite3

from core_helpers import IMMEDIATE, box_obs, view

from tempomem_ros.core import Memory

SPOTS = [(1.0 + 0.5 * i, 0.3 * (i % 3), 0.8) for i in range(8)]


def _store(path: str, rng: random.Random) -> None:
    """Eight objects seen once at t=1, then 6 more placements each written with random ids, start times and ends
    (some open, some overlapping), two objects forgotten and one tentative."""
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        for i, spot in enumerate(SPOTS):
            m.add([box_obs(f"thing{i}", spot, stamp=1.0)], view(1.0, spot, 3.0))
        m.commit()
    con = sqlite3.connect(path)
    cols = [r[1] for r in con.execute("PRAGMA table_info(placements)") if r[1] not in ("id", "t_from", "t_to")]
    objects = [int(r[0]) for r in con.execute("SELECT id FROM objects ORDER BY id")]
    ids = rng.sample(range(100, 1000), 6 * len(objects))
    for n, pid in enumerate(ids):
        oid = objects[n % len(objects)]
        t_from = rng.uniform(0.0, 100.0)
        t_to = None if rng.random() < 0.3 else t_from + rng.uniform(1.0, 40.0)
        con.execute(f"INSERT INTO placements (id, t_from, t_to, {', '.join(cols)}) SELECT ?, ?, ?, "
                    f"{', '.join(cols)} FROM placements WHERE object_id=? ORDER BY id LIMIT 1",
                    (pid, t_from, t_to, oid))
    con.execute("UPDATE objects SET state='forgotten' WHERE id IN (?, ?)", (objects[1], objects[4]))
    con.execute("UPDATE objects SET state='tentative' WHERE id=?", (objects[6],))
    con.commit()
    con.close()


def _reference(path: str, t: float, k, offset: int) -> list[int]:
    con = sqlite3.connect(path)
    rows = [int(r[0]) for r in con.execute(
        "SELECT p.id FROM objects o JOIN placements p ON p.object_id = o.id WHERE o.state NOT IN ('forgotten', "
        "'tentative') AND p.t_from <= ? AND (p.t_to IS NULL OR p.t_to > ?) ORDER BY o.id, p.id", (t, t))]
    con.close()
    return rows[offset:] if k is None else rows[offset:offset + k]


def _scene_statements(m, calls) -> list[str]:
    statements: list = []
    m._conn.set_trace_callback(statements.append)
    try:
        for call in calls:
            call()
    finally:
        m._conn.set_trace_callback(None)
    return [s for s in statements if "CROSS JOIN placements" in s]


def _plan(m, statement: str) -> str:
    return str([r[-1] for r in m._conn.execute("EXPLAIN QUERY PLAN " + statement)])


def test_the_scene_in_object_order_is_the_ordered_statements_rows(tmp_path):
    """3 stores x 60 times x pages (k 1-12 or all, offsets 0-20): the placement ids of each page equal the
    ordered statement's; the statement seeks each object's placements by t_from (placements_object), not all of
    them in id order (placements_asof: every placement of each object walked, those that began after t too),
    and the statement in id order follows it only where a page's edge cut an object's rows."""
    fallbacks = 0
    for seed in range(3):
        rng = random.Random(seed)
        path = str(tmp_path / f"s{seed}.db")
        _store(path, rng)
        with Memory.open(path, embedding_dim=4, readonly=True) as m:
            for _ in range(60):
                t = rng.uniform(0.0, 120.0)
                k = None if rng.random() < 0.2 else rng.randint(1, 12)
                offset = rng.randint(0, 20)
                got: list = []
                scene = _scene_statements(m, [lambda: got.extend(m.scene_as_of(t, k=k, offset=offset))])
                assert [p.id for _, p in got] == _reference(path, t, k, offset), (seed, t, k, offset)
                assert "p.t_from, p.id LIMIT" in scene[0]
                assert "placements_object (object_id=? AND t_from<?)" in _plan(m, scene[0])
                assert "placements_asof" not in _plan(m, scene[0])
                assert len(scene) in (1, 2)
                if len(scene) == 2:
                    fallbacks += 1
                    assert "ORDER BY o.id, p.id LIMIT" in scene[1]
    assert 0 < fallbacks < 180  # the random overlaps straddle some edges, not every one


def test_a_scene_without_overlaps_is_one_statement_by_start(tmp_path):
    """Eight objects moved twice each (three placements, one held at any time): every page at every time is one
    statement that seeks by t_from, its rows the ordered statement's; none reads a placement that began after t."""
    path = str(tmp_path / "moves.db")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        for step, stamp in enumerate((1.0, 20.0, 40.0)):
            for i, (x, y, z) in enumerate(SPOTS):
                spot = (x, y + 1.5 * step, z)
                m.add([box_obs(f"thing{i}", spot, stamp=stamp)], view(stamp, spot, 3.0))
            m.commit()
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        assert m._conn.execute("SELECT count(*) FROM placements").fetchone()[0] > len(SPOTS)
        for t in (0.5, 1.0, 10.0, 25.0, 45.0):
            for k, offset in ((None, 0), (3, 0), (3, 2), (5, 6), (50, 0)):
                got: list = []
                scene = _scene_statements(m, [lambda: got.extend(m.scene_as_of(t, k=k, offset=offset))])
                assert [p.id for _, p in got] == _reference(path, t, k, offset), (t, k, offset)
                assert len(scene) == 1 and "p.t_from, p.id LIMIT" in scene[0]
