"""A store's SQLite connection keeps its prepared statements (schema.STATEMENT_CACHE) when a store's services run
more distinct statement texts than the driver's default cache of 100 holds.

Why: pysqlite3 ranks cached statements by use and puts a new one last, where the next new one evicts it; on the
day-30 store of bench_long_run (106 distinct texts in its paired phase, against 93 on day 1) was_seen by id, run
after the other services, prepared 2 statements at every call (CPU p50 x1.34 over day 1, x1.08 with the store's
cache; docs/RESULTS.md section 6, round 16). SQLite calls the authorizer while it prepares a statement, never while
it runs one, so the authorizer's calls count the prepares."""

from __future__ import annotations

from core_helpers import box_obs

from tempomem_ros.core import Memory
from tempomem_ros.core.rows import id_chunks, padded_length
from tempomem_ros.core.store import schema

OTHERS = 140  # distinct texts run before the hot ones: more than the driver's default cache (100)


def _prepares(conn, run) -> int:
    """How many statements ``run`` prepared on ``conn`` (SELECT authorizations: one a SELECT prepared)."""
    n = [0]

    def auth(action, *_):
        if action == schema.sqlite3.SQLITE_SELECT:
            n[0] += 1
        return schema.sqlite3.SQLITE_OK

    conn.set_authorizer(auth)
    try:
        run()
    finally:
        conn.set_authorizer(None)
    return n[0]


def _fill_then_alternate(m: Memory) -> int:
    """OTHERS distinct texts, each run 3 times (ids lists of 1..OTHERS, as services by label send them), then two
    statements new to the connection alternated 50 times each: the prepares of those 100 calls."""
    conn = m._conn
    for k in range(1, OTHERS + 1):
        marks = ",".join("?" for _ in range(k))
        for _ in range(3):
            conn.execute(f"SELECT id FROM objects WHERE id IN ({marks})", tuple(range(1, k + 1))).fetchall()

    def hot():
        for i in range(50):
            conn.execute("SELECT id FROM objects WHERE id=? AND state != 'forgotten'", (1 + i % 2,)).fetchall()
            conn.execute("SELECT object_id, label, mass FROM label_mass WHERE object_id IN (?) ORDER BY object_id, "
                         "label", (1 + i % 2,)).fetchall()
    return _prepares(conn, hot)


def _store(path: str) -> None:
    with Memory.open(path, embedding_dim=4) as m:
        m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0), box_obs("book", (3.0, 0.0, 0.5), stamp=1.0)])
        m.commit()


def test_the_cache_outsizes_the_drivers_default():
    assert schema.STATEMENT_CACHE >= 1000


def test_a_statement_first_run_after_many_others_is_prepared_once_on_a_writer(tmp_path):
    path = str(tmp_path / "m.db")
    _store(path)
    with Memory.open(path, embedding_dim=4) as m:
        assert _fill_then_alternate(m) == 2


def test_a_statement_first_run_after_many_others_is_prepared_once_read_only(tmp_path):
    path = str(tmp_path / "m.db")
    _store(path)
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        assert _fill_then_alternate(m) == 2
        # and was_seen by id, first asked now, prepares its statements once, not at every call (setting the
        # authorizer expires the cached statements: each is prepared once again after it)
        once = _prepares(m._conn, lambda: m.was_seen(object_id=1, since=0.0, until=10.0))
        assert once >= 5
        assert _prepares(m._conn, lambda: [m.was_seen(object_id=1 + i % 2, since=0.0, until=10.0)
                                           for i in range(20)]) == once
        assert m.was_seen(object_id=1, since=0.0, until=10.0).count == 1


def test_the_drivers_default_cache_prepares_them_at_every_call(tmp_path, monkeypatch):
    """What the test above guards against: the same calls with the driver's default cache."""
    path = str(tmp_path / "m.db")
    _store(path)
    monkeypatch.setattr(schema, "STATEMENT_CACHE", 100)
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        assert _fill_then_alternate(m) >= 99
        once = _prepares(m._conn, lambda: m.was_seen(object_id=1, since=0.0, until=10.0))
        assert _prepares(m._conn, lambda: [m.was_seen(object_id=1 + i % 2, since=0.0, until=10.0)
                                           for i in range(20)]) > 10 * once


# ---------------------------------------------------------------- id lists padded to a few lengths (rows.id_chunks)
def test_id_chunks_pad_to_powers_of_two_and_cover_the_ids_in_order():
    assert [padded_length(n) for n in (1, 2, 3, 5, 100, 129, 256, 257, 500)] == [1, 2, 4, 8, 128, 256, 256, 500, 500]
    for n in (1, 3, 7, 64, 65, 499, 500, 501, 1203):
        ids = list(range(10, 10 + n))
        chunks = list(id_chunks(ids))
        seen = []
        for chunk, marks in chunks:
            assert marks.count("?") == len(chunk) == padded_length(len(set(chunk)))
            assert all(x == chunk[-1] for x in chunk[len(set(chunk)):])  # the padding repeats the last id
            seen += list(dict.fromkeys(chunk))
        assert seen == ids
    assert list(id_chunks([(1, (2.0, 3))], pad=False)) == [([(1, (2.0, 3))], "?")]
    assert len({marks for n in range(1, 501) for _, marks in id_chunks(range(n))}) == 10


def test_reads_by_padded_id_lists_give_the_rows_of_the_ids(store):
    """Object rows, placements and label masses read for 1-13 ids (padded to 1, 2, 4, 8, 16): the rows of exactly
    those ids, once each, on both backends."""
    path = store("pad")
    with Memory.open(path, embedding_dim=4) as m:
        m.add([box_obs(f"thing{k}", (float(k), 0.0, 0.5), stamp=1.0) for k in range(13)])
        m.commit()
        all_ids = sorted(int(o.id) for o in m.objects())
        assert len(all_ids) == 13
        for n in range(1, 14):
            ids = all_ids[:n][::-1]
            rows = m._object_rows.rows(ids)
            assert [int(r.id) for r in rows] == sorted(ids)
            infos = m._reads.object_infos(rows)
            assert [i.label for i in infos] == [r.label for r in rows]
            assert len({i.label for i in infos}) == n
            assert all(set(i.label_mass) == {i.label} for i in infos)
