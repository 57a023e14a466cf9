"""Reads fetched in binary on PostgreSQL (postgres/connection.py PgConnection._fetch_read, BINARY_SAME_TYPES).

Why: a binary fetch is only allowed to save the client's parsing, never to change a value. A plain SELECT's first run
is text and tells its result's types; later runs are binary only when every column is of a type whose binary value
loads to the Python value its text gives. These tests read the same statement as text and as binary and compare every
value by type and, for floats, by their 8 bytes; they check that float4 and numeric results stay text, that a result
whose type changes between runs is read again as text, and that fusion's reads are fetched in binary.
"""

from __future__ import annotations

import math
import random
import struct
from decimal import Decimal

import pytest
from core_helpers import box_obs

from tempomem_ros.core import Memory

SQL = ("SELECT CAST(? AS double precision) AS f, CAST(? AS bigint) AS b, CAST(? AS integer) AS i, "
       "CAST(? AS smallint) AS s, CAST(? AS text) AS t, CAST(? AS bytea) AS y, CAST(? AS varchar) AS v, "
       "(CAST(? AS integer) = 1) AS flag")

FLOATS = [0.0, -0.0, 0.1, 0.30000000000000004, 1.0 / 3.0, -2.5, 1e308, -1e308, 5e-324, -5e-324, 2.2250738585072014e-308,
          math.inf, -math.inf, math.nan, 123456789.12345679, 1e-7]


def _params(rng: random.Random) -> list[tuple]:
    out = []
    for k, f in enumerate(FLOATS + [rng.uniform(-1e6, 1e6) for _ in range(40)] +
                          [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(40)]):
        out.append((f, rng.choice([-(2 ** 63), 2 ** 63 - 1, 0, -1, rng.randrange(-2 ** 62, 2 ** 62)]),
                    rng.choice([-(2 ** 31), 2 ** 31 - 1, k]), rng.choice([-(2 ** 15), 2 ** 15 - 1, k]),
                    rng.choice(["", "mug 3", "tasse à café ☕", "a'b\"c\\d"]),
                    bytes(rng.randrange(256) for _ in range(k)),
                    "chair", k % 2))
    out.append((None,) * 8)
    return out


def _key(value):
    """A value as compared: its type, and a float by its 8 bytes (NaN's sign and -0.0 included)."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    return (type(value).__name__, value)


@pytest.fixture
def pg_memory(pg_cluster):
    schema, url = pg_cluster.new_schema()
    try:
        with Memory.open(url, embedding_dim=8) as m:
            yield m
    finally:
        pg_cluster.drop_schema(schema)


def test_a_binary_read_gives_the_values_a_text_read_gives(pg_memory):
    conn = pg_memory._conn
    rng = random.Random(15)
    for params in _params(rng):
        conn._binary_reads.pop(conn_sql := _pg(conn, SQL), None)
        text = conn.execute(SQL, params).fetchall()  # the first run: text, and it learns the types
        assert conn._cursor.pgresult.fformat(0) == 0
        assert conn._binary_reads[conn_sql] is True
        binary = conn.execute(SQL, params).fetchall()
        assert conn._cursor.pgresult.fformat(0) == 1
        assert [[_key(v) for v in r] for r in binary] == [[_key(v) for v in r] for r in text]
        assert list(binary[0]) == [binary[0][name] for name in ("f", "b", "i", "s", "t", "y", "v", "flag")]


@pytest.mark.parametrize("cast, value, expected", [("real", 0.3, 0.3), ("numeric", "1.50", Decimal("1.50"))])
def test_float4_and_numeric_results_stay_text(pg_memory, cast, value, expected):
    conn = pg_memory._conn
    sql = f"SELECT CAST(? AS {cast}) AS x, CAST(? AS bigint) AS n"
    for _ in range(3):
        rows = conn.execute(sql, (value, 7)).fetchall()
        assert conn._cursor.pgresult.fformat(0) == 0
        assert rows == [(expected, 7)] and type(rows[0][0]) is type(expected)
    assert conn._binary_reads[_pg(conn, sql)] is False


def test_a_result_whose_type_changes_is_read_again_as_text_and_stays_text(pg_memory):
    conn = pg_memory._conn
    sql = "SELECT ? AS x"
    assert conn.execute(sql, (0.5,)).fetchall() == [(0.5,)]  # float8: learned binary
    assert conn._binary_reads[_pg(conn, sql)] is True
    trips = conn.traffic.round_trips
    rows = conn.execute(sql, (Decimal("2.50"),)).fetchall()  # numeric now: fetched again as text
    assert rows == [(Decimal("2.50"),)] and conn._cursor.pgresult.fformat(0) == 0
    assert conn.traffic.round_trips == trips + 2
    assert conn._binary_reads[_pg(conn, sql)] is False
    assert conn.execute(sql, (0.25,)).fetchall() == [(0.25,)] and conn._cursor.pgresult.fformat(0) == 0


def test_fusions_reads_are_fetched_in_binary(pg_memory):
    m = pg_memory
    for i in range(4):
        m.add([box_obs("mug", (0.0, 0.0, 0.8), stamp=float(i)), box_obs("table", (0.0, 0.0, 0.4),
                                                                         half=(0.5, 0.5, 0.38), stamp=float(i))])
        m.commit()
    learned = m._conn._binary_reads
    candidates = [sql for sql in learned if "FROM objects_rtree" in sql and "tempomem_run" in sql]
    assert candidates and all(learned[sql] is True for sql in candidates)
    assert not any(v is False for sql, v in learned.items() if "FROM objects" in sql)


def _pg(conn, sql: str) -> str:
    from tempomem_ros.core.postgres.dialect import translate

    return translate(sql).sql


def test_float8_stays_text_where_the_servers_float_text_is_not_exact(pg_cluster):
    """extra_float_digits 0 (a role's, a database's or the address's setting) prints 15 digits: 0.1 + 0.2 reads as
    0.3 in text, 0.30000000000000004 in binary. A statement's later runs must read what its first (text) run read."""
    from urllib.parse import quote

    schema, url = pg_cluster.new_schema()
    try:
        with Memory.open(url + quote(" -cextra_float_digits=0", safe=""), embedding_dim=8) as m:
            conn = m._conn
            sql = "SELECT CAST(? AS double precision) AS x, CAST(? AS bigint) AS n"
            runs = [conn.execute(sql, (0.1 + 0.2, 7)).fetchall() for _ in range(3)]
            assert runs == [[(0.3, 7)]] * 3
            assert conn._cursor.pgresult.fformat(0) == 0 and conn._binary_reads[_pg(conn, sql)] is False
            sql = "SELECT CAST(? AS bigint) AS n"  # no float8: binary as ever
            assert [conn.execute(sql, (7,)).fetchall() for _ in range(2)] == [[(7,)]] * 2
            assert conn._cursor.pgresult.fformat(0) == 1
    finally:
        pg_cluster.drop_schema(schema)


def test_the_statements_remembered_are_bounded(pg_memory, monkeypatch):
    """Texts differ with their IN lists' lengths (labels_together: up to 500 x 500 of them): a node running for weeks
    must not keep every one. Past the bound the decisions are forgotten, and each text learns again from a text run."""
    from tempomem_ros.core.postgres import connection

    monkeypatch.setattr(connection, "BINARY_READS_MAX", 8, raising=False)
    conn = pg_memory._conn
    conn._binary_reads.clear()
    for k in range(30):
        sql = f"SELECT CAST(? AS bigint) AS n WHERE 1 IN ({','.join('?' for _ in range(k + 1))})"
        assert conn.execute(sql, (k, *([1] * (k + 1)))).fetchall() == [(k,)]
        assert conn._cursor.pgresult.fformat(0) == 0 and conn._binary_reads[_pg(conn, sql)] is True
        assert len(conn._binary_reads) <= 8
        assert conn.execute(sql, (k, *([1] * (k + 1)))).fetchall() == [(k,)]
        assert conn._cursor.pgresult.fformat(0) == 1
