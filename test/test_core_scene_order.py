"""The scene as of t without a radius on SQLite (PlacementRows.as_of): each shown object's placements that began
by t, read by t_from (placements_object) and put in id order, give the rows of ``ORDER BY o.id, p.id LIMIT k
OFFSET offset`` over placements whose ids and start times disagree in order, overlap, and objects that are not
shown; the statement in id order is read only when an object with several placements held at t straddles the
page's edge."""

from __future__ import annotations

import random

from core_helpers import IMMEDIATE, box_obs, view

from tempomem_ros.core import Memory
from tempomem_ros.core.store.schema import sqlite3 as store_sqlite3

SPOTS = [(1.0 + 0.5 * i, 0.3 * (i % 3), 0.8) for i in range(8)]


def _store(path: str, rng: random.Random) -> None:
    """Eight objects seen once at t=1, then 6 more placements each written with random ids, start times and ends
    (some open, some overlapping), two objects forgotten and one tentative."""
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        for i, spot in enumerate(SPOTS):
            m.add([box_obs(f"thing{i}", spot, stamp=1.0)], view(1.0, spot, 3.0))
        m.commit()
    con = store_sqlite3.connect(path)
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
    con = store_sqlite3.connect(path)
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


def _early_and_late(path: str) -> None:
    """Six objects seen at t=1 (ids 1-6), ten more first seen at t=50 (ids 7-16)."""
    spots = [(1.0 + 0.6 * i, 0.3 * (i % 3), 0.8) for i in range(16)]
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        for i, spot in enumerate(spots[:6]):
            m.add([box_obs(f"thing{i}", spot, stamp=1.0)], view(1.0, spot, 3.0))
        m.commit()
        for i, spot in enumerate(spots[6:], start=6):
            m.add([box_obs(f"thing{i}", spot, stamp=50.0)], view(50.0, spot, 3.0))
        m.commit()


def _count_reference(path: str, t: float) -> int:
    return len(_reference(path, t, None, 0))


def test_the_walk_ends_at_the_last_object_holding_a_placement_then(tmp_path):
    """The scene of t=10 (six objects held, ten made since) walks the objects up to the largest id holding a
    placement that began by t: the page's and the total's statements carry that bound, read by one probe of
    placements_start for both; a placement written later by another connection for object 16, begun at t=5, is
    seen at once (the store changed: the bound is read again); a time when more placements began than the probe
    reads, and a store without the index, are walked whole, with the same rows."""
    path = str(tmp_path / "early.db")
    _early_and_late(path)
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        assert [r[0] for r in m._conn.execute("SELECT id FROM objects ORDER BY id")] == list(range(1, 17))
        page: list = []
        total: list = []
        statements: list = []
        m._conn.set_trace_callback(statements.append)
        page.extend(m.scene_as_of(10.0, k=50))
        total.append(m.scene_count_as_of(10.0))
        m._conn.set_trace_callback(None)
        assert [p.id for _, p in page] == _reference(path, 10.0, 50, 0) and len(page) == 6
        assert total == [6]
        assert sum("INDEXED BY placements_start" in s for s in statements) == 1
        scene = [s for s in statements if "FROM objects o" in s]
        assert len(scene) == 2 and all("o.id <= 6 AND" in s for s in scene), scene

        con = store_sqlite3.connect(path)
        cols = [r[1] for r in con.execute("PRAGMA table_info(placements)") if r[1] not in ("id", "t_from", "t_to")]
        con.execute(f"INSERT INTO placements (t_from, t_to, {', '.join(cols)}) SELECT 5.0, 20.0, {', '.join(cols)} "
                    "FROM placements WHERE object_id = 16")
        con.commit()
        con.close()
        got = [p.id for _, p in m.scene_as_of(10.0, k=50)]
        assert got == _reference(path, 10.0, 50, 0) and len(got) == 7
        assert m.scene_count_as_of(10.0) == 7 == _count_reference(path, 10.0)
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        from tempomem_ros.core.store import placements
        statements = []
        m._conn.set_trace_callback(statements.append)
        old = placements.WALK_BOUND_PROBE
        placements.WALK_BOUND_PROBE = 3
        try:
            got = [p.id for _, p in m.scene_as_of(10.0, k=50)]
            n = m.scene_count_as_of(10.0)
        finally:
            placements.WALK_BOUND_PROBE = old
            m._conn.set_trace_callback(None)
        assert got == _reference(path, 10.0, 50, 0) and n == 7
        assert not any("o.id <=" in s for s in statements if "FROM objects o" in s)
    con = store_sqlite3.connect(path)
    con.execute("DROP INDEX placements_start")
    con.commit()
    con.close()
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        statements = []
        m._conn.set_trace_callback(statements.append)
        got = [p.id for _, p in m.scene_as_of(10.0, k=50)]
        n = m.scene_count_as_of(10.0)
        m._conn.set_trace_callback(None)
        assert got == _reference(path, 10.0, 50, 0) and n == 7
        assert not any("INDEXED BY placements_start" in s or "o.id <=" in s for s in statements)


def test_a_version_13_store_is_read_as_it_is_then_gains_the_index(tmp_path):
    """A store written at version 13 (no placements_start) is read as it is, walked whole, the same rows; a
    writer's open migrates it to version 17 with the index, and the walk is bounded from then on."""
    path = str(tmp_path / "v13.db")
    _early_and_late(path)
    con = store_sqlite3.connect(path)
    con.execute("DROP INDEX placements_start")
    con.execute("UPDATE meta SET value='13' WHERE key='schema_version'")
    con.commit()
    con.close()
    for readonly, bounded in ((True, False), (False, True)):
        with Memory.open(path, embedding_dim=4, readonly=readonly) as m:
            statements: list = []
            m._conn.set_trace_callback(statements.append)
            got = [p.id for _, p in m.scene_as_of(10.0, k=50)]
            n = m.scene_count_as_of(10.0)
            m._conn.set_trace_callback(None)
            assert got == _reference(path, 10.0, 50, 0) and n == 6
            assert any("o.id <= 6 AND" in s for s in statements) == bounded
            version = m._conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
            index = m._conn.execute("SELECT sql FROM sqlite_master WHERE name='placements_start'").fetchone()
            assert version == ("13" if readonly else "17")
            assert (index is not None) == (not readonly)
