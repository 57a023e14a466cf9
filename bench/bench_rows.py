"""What an ObjectRow costs against the raw sqlite3.Row it replaced (core/store/object_row.py).

Run: .venv/bin/python bench/bench_rows.py [--n 10000] [--repeats 7]
Prints, per row (median of the repeats, N object rows of a real store bulk-loaded as in bench_core.py):
- building: fetching the N rows of rows.OBJECT_COLS as sqlite3.Row (before), fetched as plain tuples and made
  ObjectRows (what the store layer does now on SQLite, object_row.fetch_objects), and fetched as sqlite3.Row,
  then made ObjectRows (the shape of the PostgreSQL path, whose connection builds its rows before);
- reading: the dozen columns a fusion score and its tests read (id, label, pinned_label, state, the box,
  feature, last_seen, removal_due), by name on a sqlite3.Row and by attribute on an ObjectRow (the only form
  it has now; the name form it kept while callers were converted measured 0.7 x a sqlite3.Row).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_core import populate  # noqa: E402

from tempomem_ros.core import Memory  # noqa: E402
from tempomem_ros.core.rows import OBJECT_COLS  # noqa: E402
from tempomem_ros.core.store.object_row import ObjectRow, fetch_objects  # noqa: E402
from tempomem_ros.core.store.schema import sqlite3  # noqa: E402

SQL = f"SELECT {OBJECT_COLS} FROM objects ORDER BY id"
COLS = ("id", "label", "pinned_label", "state", "min_x", "min_y", "min_z", "max_x", "max_y", "max_z", "feature",
        "last_seen", "removal_due")


def per_row_ns(fns, n: int, repeats: int) -> list[float]:
    """Median ns per row of each function; the functions take turns within every repeat, so that a change of
    the machine's load during the run weighs on all of them alike."""
    times: list[list[int]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, out in zip(fns, times):
            t0 = time.perf_counter_ns()
            fn()
            out.append(time.perf_counter_ns() - t0)
    return [statistics.median(t) / n for t in times]


def report(title: str, named: list[tuple[str, object]], n: int, repeats: int) -> None:
    print(title)
    times = per_row_ns([fn for _, fn in named], n, repeats)
    base = times[0]
    for (name, _), t in zip(named, times):
        rel = "" if t is base else f"  ({t - base:+.0f}, {t / base:.2f} x)"
        print(f"  {name:42s} {t:8.0f}{rel}")


def read_by_name(rows) -> None:
    for r in rows:
        (r["id"], r["label"], r["pinned_label"], r["state"], r["min_x"], r["min_y"], r["min_z"], r["max_x"],
         r["max_y"], r["max_z"], r["feature"], r["last_seen"], r["removal_due"])


def read_by_attribute(rows) -> None:
    for r in rows:
        (r.id, r.label, r.pinned_label, r.state, r.min_x, r.min_y, r.min_z, r.max_x, r.max_y, r.max_z, r.feature,
         r.last_seen, r.removal_due)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10000, help="object rows")
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    n, k = args.n, args.repeats
    with tempfile.TemporaryDirectory() as tmp:
        m = Memory.open(os.path.join(tmp, "m.db"), embedding_dim=32, vector_index="off")
        populate(m, n, side=50.0, feature_dim=32)
        conn = m._conn  # row_factory = sqlite3.Row, as the memory sets it

        def raw():
            return conn.execute(SQL).fetchall()

        def converted():
            return fetch_objects(conn.execute(SQL))

        def row_then_converted():
            return list(map(ObjectRow._make, conn.execute(SQL).fetchall()))

        assert raw() and [tuple(r) for r in raw()] == converted() == row_then_converted()
        assert type(converted()[0]) is ObjectRow and type(raw()[0]) is sqlite3.Row
        print(f"{n} object rows ({len(ObjectRow._fields)} columns), ns per row, median of {k}")
        report("building", [("fetch as sqlite3.Row (before)", raw),
                            ("fetch as tuples, then ObjectRow (now)", converted),
                            ("fetch as sqlite3.Row, then ObjectRow", row_then_converted)], n, k)
        rows, typed = raw(), converted()
        report(f"reading {len(COLS)} columns of each row",
               [("sqlite3.Row  row['col'] (before)", lambda: read_by_name(rows)),
                ("ObjectRow    row.col", lambda: read_by_attribute(typed))], n, k)
        m.close()


if __name__ == "__main__":
    main()
