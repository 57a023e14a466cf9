"""Set-based writes on PostgreSQL (postgres/batching.py, postgres/connection.py PgConnection.set_based): the rows a
write transaction writes one at a time, held and sent as one statement per statement text.

Why: holding writes back is only allowed to save statements, never to change what the store holds. The scenes of
test_core_store_round_trips (a learned label confusion, relations; look-alikes found moved, misses, held events) run
twice into two stores of one backend, once set-based (PostgreSQL's default) and once each row on its own, and every
column of every table but the wall-clock ones must be the same. On SQLite both runs are the same path (the
determinism of the scenes); on PostgreSQL the writes must also have become fewer statements. The rules that keep a
batch equal to its rows (a row's key repeated, another text for the same table, ids in order, NULL-only columns) are
tested one by one below.
"""

from __future__ import annotations

import pytest
from core_helpers import box_obs
from test_core_store_round_trips import _frames, _lookalike_commits

from tempomem_ros.core import Memory
from tempomem_ros.core.postgres.batching import _TYPES, set_statement, shape_of
from tempomem_ros.core.postgres.connection import PgConnection
from tempomem_ros.core.postgres.dialect import translate
from tempomem_ros.core import settling

WALL = ("created_wall", "wall_time", "recorded_at")


def _dump(store, address: str) -> dict:
    out = {}
    for table, cols in sorted(_TYPES.items()):
        names = [c for c in cols if c not in WALL]
        if table in ("meta", "tempomem_ids") or not names:
            continue
        order = "id" if "id" in names else ", ".join(names)
        out[table] = [tuple(r) for r in store.raw(address, f"SELECT {', '.join(names)} FROM {table} ORDER BY {order}")]
    return out


def _scenes(address: str) -> int:
    """Both scenes into the store; the statements sent to the server (0 on SQLite)."""
    sent = 0
    with Memory.open(address, embedding_dim=8) as m:
        traffic = getattr(m._conn, "traffic", None)
        for frame in _frames():
            m.add(frame)
            m.commit()
        for _ in _lookalike_commits(m):
            m.commit()
        if traffic is not None:
            sent = traffic.server_statements
    return sent


def test_set_based_writes_leave_the_rows_of_writes_one_by_one(store, monkeypatch):
    monkeypatch.setattr(settling, "LOOKALIKE_MOVE_WAIT_S", 0.0)  # the look-alikes' moves decided in their scene
    held = _scenes(store("held"))
    monkeypatch.setattr(PgConnection, "set_based", False)
    single = _scenes(store("single"))
    rows = {name: _dump(store, store(name)) for name in ("held", "single")}
    assert rows["held"] == rows["single"]
    assert len(rows["held"]["objects"]) >= 6 and any(r for r in rows["held"]["misses"])
    kinds = {r[0] for r in store.raw(store("held"), "SELECT kind FROM events")}
    assert {"appeared", "moved"} <= kinds
    if store.postgres:
        assert held < single, (held, single)
    else:
        assert held == single == 0


def test_a_repeated_key_and_another_text_for_the_table_keep_the_order_of_the_rows(store):
    if not store.postgres:
        pytest.skip("the set-based path is PostgreSQL's")
    with Memory.open(store("m"), embedding_dim=4) as m:
        m.add([box_obs("mug", (0.0, 0.0, 0.8), stamp=1.0), box_obs("cup", (2.0, 0.0, 0.8), stamp=1.0)])
        m.commit()
        a, b = (r[0] for r in m._conn.execute("SELECT id FROM objects ORDER BY id").fetchall())
        conn = m._conn
        sent = conn.traffic.server_statements
        conn.execute("BEGIN IMMEDIATE")
        bump = "UPDATE objects SET misses=misses+?, last_miss=? WHERE id=?"
        conn.execute(bump, (1, 0.5, a))
        conn.execute(bump, (1, None, b))                         # a NULL-only column of the batch so far
        conn.execute(bump, (10, 0.25, a))                        # a's key again: the first two go first
        conn.execute("UPDATE objects SET misses=misses*2 WHERE id=?", (b,))  # another text: all go first
        conn.execute(bump, (3, 0.75, b))
        conn.executemany("INSERT INTO label_mass (object_id, label, mass) VALUES (?,?,?) ON CONFLICT(object_id, "
                         "label) DO UPDATE SET mass=mass+excluded.mass", [(a, "bowl", 1.0), (b, "bowl", 2.0),
                                                                          (a, "bowl", 4.0)])
        conn.executemany("INSERT INTO audit (stamp, wall_time, action, object_ids, observation_ids, detail, source) "
                         "VALUES (?,?,?,?,?,?,?)", [(9.0, 0.0, f"t{i}", "[]", "[]", "{}", "") for i in range(5)])
        rows = conn.execute("SELECT id, misses, last_miss FROM objects ORDER BY id").fetchall()
        masses = conn.execute("SELECT object_id, mass FROM label_mass WHERE label='bowl' ORDER BY object_id").fetchall()
        audit = conn.execute("SELECT id, action FROM audit WHERE stamp=9.0 ORDER BY id").fetchall()
        conn.execute("COMMIT")
        # bump a (1) and b (1), then a (10); b doubled; b + 3: a 11, b 5; each last_miss the last one written
        assert [tuple(r) for r in rows] == [(a, 11, 0.25), (b, 5, 0.75)]
        assert [tuple(r) for r in masses] == [(a, 5.0), (b, 2.0)]
        assert [r[1] for r in audit] == [f"t{i}" for i in range(5)]
        assert [r[0] for r in audit] == list(range(audit[0][0], audit[0][0] + 5))  # ids in the rows' order
        # statements: 5 updates in 4 sends (a's repeat splits the first batch, the other text sends everything), the
        # upsert in 2 (a's key again), the audit rows in 1, then the 3 reads; BEGIN, the epoch's UPDATE and COMMIT
        assert conn.traffic.server_statements - sent == 4 + 2 + 1 + 3 + 3


def test_only_writes_of_one_row_by_id_or_one_values_row_are_held():
    def shape(sql):
        st = translate(sql, many=True)
        return shape_of(st.sql, st.n_params)

    assert shape("UPDATE objects SET cx=?, first_seen=MIN(first_seen, ?) WHERE id=?").key == (2,)
    assert shape("INSERT INTO label_mass (object_id, label, mass) VALUES (?,?,?) ON CONFLICT(object_id, label) "
                 "DO UPDATE SET mass=mass+excluded.mass").key == (0, 1)
    assert shape("INSERT INTO audit (stamp, action) VALUES (?,?)").key == ()
    # not held: reads of other rows, several rows, other keys, a value that is a call, RETURNING
    assert shape("UPDATE objects SET cx=(SELECT MAX(cx) FROM objects) WHERE id=?") is None
    assert shape("UPDATE observations SET verdict=? WHERE id IN (?,?)") is None
    assert shape("UPDATE rejected SET promoted_object_id=? WHERE key=?") is None
    assert shape("UPDATE objects SET state='missing' WHERE id=? AND state=?") is None
    assert shape("INSERT INTO meta (key, value) VALUES (?, lower(?))") is None
    assert shape("INSERT INTO label_mass (object_id, label, mass) VALUES (?,?,?) RETURNING mass") is None
    # a NULL-only column with no column to take its type from: the rows go one by one
    odd = shape("UPDATE objects SET state=CASE WHEN ? IS NULL THEN state ELSE 'present' END WHERE id=?")
    assert odd is not None and set_statement(odd, [(None, 1), (None, 2)]) is None
    assert set_statement(odd, [("x", 1), (None, 2)]) is not None


def test_a_write_plan_is_the_shape_its_row_limit_and_its_key():
    """write_plan (the connection's one lookup per held write) gives shape_of, max_rows and each row's key as the
    parameters at the shape's key positions, for no key, one and two."""
    from tempomem_ros.core.postgres.batching import max_rows, write_plan

    params = (1.5, "mug", 7, 0.25)
    for sql in ("UPDATE objects SET cx=?, first_seen=MIN(first_seen, ?) WHERE id=?",
                "INSERT INTO label_mass (object_id, label, mass) VALUES (?,?,?) ON CONFLICT(object_id, label) "
                "DO UPDATE SET mass=mass+excluded.mass", "INSERT INTO audit (stamp, action) VALUES (?,?)"):
        st = translate(sql, many=True)
        shape = shape_of(st.sql, st.n_params)
        got, limit, keyof = write_plan(st.sql, st.n_params)
        assert got == shape and limit == max_rows(shape)
        assert (keyof(params) if keyof else None) == (tuple(params[i] for i in shape.key) if shape.key else None)
    assert write_plan(translate("UPDATE objects SET state='missing' WHERE id=? AND state=?").sql, 2) is None


def _read_statement_as_built(sql, n_params, runs):
    """batching.read_statement as it was before its text was cached: the reference."""
    import re as _re

    from tempomem_ros.core.postgres import batching as b

    if "ORDER BY" not in sql.upper() or b._SETS.search(sql) or b._ORDER_DEPENDENT.search(sql):
        return None
    if len(runs) * (n_params + 1) > b.MAX_PARAMS or not n_params:
        return None
    casts = []
    columns = list(zip(*runs))
    for i in range(n_params):
        t = b._pg_type(columns[i], None)
        if t is None:
            return None
        casts.append(t)
    inner = _re.sub(r"\$(\d+)\b", lambda p: f"v.p{p.group(1)}", sql)
    parts, base = [], 0
    for k in range(len(runs)):
        parts.append("(" + ", ".join(f"${base + i + 1}::{casts[i]}" for i in range(n_params)) + f", {k})")
        base += n_params
    names = ", ".join(f"p{i + 1}" for i in range(n_params))
    text = (f"SELECT q.*, v.tempomem_run FROM (VALUES {', '.join(parts)}) AS v({names}, tempomem_run) "
            f"CROSS JOIN LATERAL (SELECT q0.*, row_number() OVER () AS tempomem_rn FROM ({inner}) AS q0) AS q "
            f"ORDER BY v.tempomem_run, q.tempomem_rn")
    return text, [p for r in runs for p in r]


def test_a_set_based_read_is_the_text_built_for_its_runs():
    """read_statement's text, cached per (read, casts, number of runs), is the text built for the runs each time:
    the same reads in any order, with other types and counts of runs, and the reads never sent as one."""
    import random

    from tempomem_ros.core.postgres.batching import read_statement

    reads = [translate("SELECT id, label FROM objects WHERE min_x <= ? AND max_x >= ? AND state IN (?, ?) ORDER BY id"),
             translate("SELECT label, mass FROM label_mass WHERE object_id=? ORDER BY label"),
             translate("SELECT SUM(mass) FROM label_mass WHERE object_id=? ORDER BY 1"),
             translate("SELECT id FROM objects WHERE id=?")]
    pools = ((1, 7, True, None), (2.5, -0.0, 1, None), ("present", "missing", None), (1, 2.5, "present", None))
    rng = random.Random(5)
    built = 0
    for _ in range(3000):
        st = rng.choice(reads)
        kinds = [rng.choice(pools[:3]) if rng.random() < 0.9 else pools[3] for _ in range(st.n_params)]
        runs = [tuple(rng.choice(kinds[i]) for i in range(st.n_params)) for _ in range(rng.randrange(2, 30))]
        want = _read_statement_as_built(st.sql, st.n_params, runs)
        assert read_statement(st.sql, st.n_params, runs) == want
        built += want is not None
    assert built > 1000
