"""What the per-look label rule's state costs a kept store of bench_long_run: label_looks (and, from schema version
17, label_look_counts) rows and bytes, the writer's open, and the read of the state a writer makes at open and
again after another writer's commit (FusionRows.label_look_state), each the slowest of ``--repeat``.

    python bench/long_run_looks.py STORE.day1 STORE.day10 STORE.day30 [--open STORE] [--repeat 3] [--json F]
    python bench/long_run_looks.py --same MAIN_STORE BRANCH_STORE   (the same decisions, the older visits counted)

Stores are only read, and opened as a writer on a copy (a writer's open migrates a store of an older version;
the kept stores stay as they are). Runs under whichever tree PYTHONPATH names, so main's tree and a branch's can
each measure their own stores side by side (docs/RESULTS.md section 6, round 17). The read of the state is also
timed as the two statements (stop 53's GROUP BY over the whole table and the keyed read of the newest visits) on the
same store, where the tree has the keyed one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sqlite3 as stdlib_sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_long_run import FEATURE_MODEL, kept_store_settings, snapshot  # noqa: E402

from tempomem_ros.core import Memory  # noqa: E402

GROUP_BY = ("SELECT l.object_id, l.visit_start, l.sector, l.label, l.mass, l.last FROM label_looks l "
            "JOIN (SELECT object_id, MAX(visit_start) AS visit_start FROM label_looks GROUP BY object_id) n "
            "ON n.object_id = l.object_id AND n.visit_start = l.visit_start "
            "ORDER BY l.object_id, l.sector, l.label")


def table_bytes(path: str) -> dict:
    """Rows and bytes (dbstat pages) of label_looks and label_look_counts, and the file's size."""
    con = stdlib_sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        out = {"file_bytes": os.path.getsize(path),
               "schema_version": con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0],
               "frames": con.execute("SELECT MAX(stamp) - MIN(stamp) FROM frames").fetchone()[0]}
        for table in ("label_looks", "label_look_counts"):
            if table not in tables:
                continue
            rows = con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            size = con.execute("SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name=?", (table,)).fetchone()[0]
            out[table] = {"rows": int(rows), "bytes": int(size)}
            if table == "label_looks":
                out[table]["visits"] = con.execute(
                    "SELECT COUNT(*) FROM (SELECT DISTINCT object_id, visit_start FROM label_looks)").fetchone()[0]
                out[table]["objects"] = con.execute(
                    "SELECT COUNT(DISTINCT object_id) FROM label_looks").fetchone()[0]
        return out
    finally:
        con.close()


def slowest(fn, repeat: int) -> dict:
    """Wall and CPU seconds of ``repeat`` calls: the slowest and the median of each (CPU time leaves out the time
    the thread waited for a core, most of a shared machine's noise)."""
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.thread_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.thread_time() - c)
    return {"max": max(wall), "median": statistics.median(wall), "cpu_max": max(cpu),
            "cpu_median": statistics.median(cpu)}


def open_times(path: str, repeat: int) -> dict:
    """Writer open (slowest of ``repeat``) and the state's read, on a copy of ``path``."""
    dim, features = kept_store_settings(path)
    tmp = tempfile.mkdtemp(prefix="looks_")
    try:
        copy = os.path.join(tmp, "store.db")
        snapshot(path, copy)
        model = FEATURE_MODEL if features else None
        Memory.open(copy, embedding_dim=dim, feature_model=model).close()  # a migration, if any, outside the times
        out = {"writer_open_s": slowest(lambda: Memory.open(copy, embedding_dim=dim, feature_model=model).close(),
                                        repeat)}
        with Memory.open(copy, embedding_dim=dim, feature_model=model) as mem:
            out["state_read_s"] = slowest(mem._fusion.load_label_looks, repeat)
            out["objects_with_state"] = len(mem._fusion._label_looks)
            conn = mem._conn
            out["group_by_read_s"] = slowest(lambda: conn.execute(GROUP_BY).fetchall(), repeat)
            keyed = getattr(type(mem._fusion._rows), "_NEWEST_LOOKS", None)
            if keyed is not None:
                out["keyed_read_s"] = slowest(lambda: conn.execute(keyed).fetchall(), repeat)
                assert conn.execute(keyed).fetchall() == conn.execute(GROUP_BY).fetchall()
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


#: the tables that say what the memory decided, compared row by row in every column but the wall-clock ones
DECISIONS = ("objects", "placements", "events", "label_mass", "label_history", "tombstones", "relations",
             "held_events", "observations", "tallies")
WALL = {"created_wall", "recorded_at", "wall_time", "resolved_at"}
LOOKS = "SELECT object_id, visit_start, sector, label, mass, last FROM label_looks ORDER BY 1, 2, 3, 4"


def same(before: str, after: str) -> dict:
    """Whether ``after`` (label_looks folded) holds the decisions of ``before`` (every visit kept): the rows of
    DECISIONS equal, each object's newest visit equal, and label_look_counts counting exactly the older visits of
    ``before`` that ``after`` no longer keeps."""
    a = stdlib_sqlite3.connect(f"file:{before}?mode=ro", uri=True)
    b = stdlib_sqlite3.connect(f"file:{after}?mode=ro", uri=True)
    try:
        out = {}
        for table in DECISIONS:
            cols = ", ".join(r[1] for r in a.execute(f"PRAGMA table_info({table})") if r[1] not in WALL)
            sql = f"SELECT {cols} FROM {table} ORDER BY 1, 2"
            out[table] = a.execute(sql).fetchall() == b.execute(sql).fetchall()
        every, kept = a.execute(LOOKS).fetchall(), b.execute(LOOKS).fetchall()
        newest: dict = {}
        for oid, start, *_ in every:
            newest[oid] = max(newest.get(oid, start), start)
        newest_b: dict = {}
        for oid, start, *_ in kept:
            newest_b[oid] = max(newest_b.get(oid, start), start)
        out["newest_visits"] = ([r for r in every if r[1] == newest[r[0]]]
                                == [r for r in kept if r[1] == newest_b[r[0]]])
        folded = sorted(set(every) - set(kept))
        want: dict = {}
        for oid, start, sector, label, mass, last in folded:
            c = want.setdefault((oid, sector, label), [0, 0.0, start, last])
            c[0] += 1
            c[1] += mass
            c[2], c[3] = min(c[2], start), max(c[3], last)
        counts = {(r[0], r[1], r[2]): list(r[3:]) for r in b.execute(
            "SELECT object_id, sector, label, visits, mass, first_start, last FROM label_look_counts")}
        out["counts_exact"] = (set(kept) <= set(every) and counts.keys() == want.keys() and all(
            (c[0], c[2], c[3]) == (want[k][0], want[k][2], want[k][3]) and abs(c[1] - want[k][1]) <= 1e-9 * max(
                1.0, abs(c[1])) for k, c in counts.items()))
        out["rows_folded"] = len(folded)
        return out
    finally:
        a.close()
        b.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stores", nargs="*", help="kept stores (their label_looks rows and bytes)")
    ap.add_argument("--open", action="append", default=[], help="a store to time the open of (repeatable)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--same", nargs=2, metavar=("BEFORE", "AFTER"), action="append", default=[],
                    help="a store that kept every visit and one of the same stream that folded them (repeatable)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    out = {"tree": os.environ.get("PYTHONPATH", ""), "load": os.getloadavg()[0], "stores": {}, "opens": {}}
    for path in args.stores:
        out["stores"][path] = t = table_bytes(path)
        looks, counts = t.get("label_looks", {}), t.get("label_look_counts")
        print(f"{path}: schema {t['schema_version']}, file {t['file_bytes'] / 1e6:.2f} MB; label_looks "
              f"{looks.get('rows', 0)} rows, {looks.get('bytes', 0) / 1e3:.1f} KB ({looks.get('visits', 0)} visits of "
              f"{looks.get('objects', 0)} objects)"
              + (f"; label_look_counts {counts['rows']} rows, {counts['bytes'] / 1e3:.1f} KB" if counts else ""),
              flush=True)
    for path in args.open:
        out["opens"][path] = o = open_times(path, args.repeat)
        def ms(t: dict) -> str:
            return (f"{t['max'] * 1e3:.2f} ms (median {t['median'] * 1e3:.2f}, CPU max {t['cpu_max'] * 1e3:.2f} "
                    f"median {t['cpu_median'] * 1e3:.2f})")

        print(f"{path}: slowest of {args.repeat}, load {os.getloadavg()[0]:.2f}: writer open "
              f"{ms(o['writer_open_s'])}; state read {ms(o['state_read_s'])} ({o['objects_with_state']} objects); "
              f"GROUP BY {ms(o['group_by_read_s'])}"
              + (f"; keyed {ms(o['keyed_read_s'])}" if "keyed_read_s" in o else ""), flush=True)
    for before, after in args.same:
        out.setdefault("same", {})[after] = r = same(before, after)
        print(f"{after} against {before}: {r}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
