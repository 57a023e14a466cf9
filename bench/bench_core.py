"""Core memory benchmarks: commit latency, spatial query vs linear scan, absence check, store size.

Run: .venv/bin/python bench/bench_core.py [--sizes 10000 100000] [--repeats 50]
Prints the figures recorded in docs/RESULTS.md. Maps are bulk-loaded straight into the schema (the same
rows fusion would write: object, R*Tree entry, label mass, current placement) so that building 100,000
objects takes seconds; the measured operations then run through the public API.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "test"))

from core_helpers import look_at  # noqa: E402

from tempomem_ros.core import CameraView, Memory, Observation  # noqa: E402
from tempomem_ros.core.store.graph_writes import RTREE_PAD  # noqa: E402

LABELS = ["mug", "book", "keys", "bottle", "remote", "phone", "bowl", "plant", "laptop", "cup", "box", "lamp"]


def populate(m: Memory, n: int, *, side: float, seed: int = 0, feature_dim: int = 0, obs_per_object: int = 0):
    """Bulk-load n small objects uniformly over a side x side floor (z 0..2), one placement each."""
    rng = np.random.default_rng(seed)
    centers = np.column_stack([rng.uniform(0, side, n), rng.uniform(0, side, n), rng.uniform(0.05, 2.0, n)])
    half = rng.uniform(0.03, 0.15, (n, 3))
    con = m._conn
    con.execute("BEGIN")
    con.execute("INSERT INTO frames (stamp, recorded_at, status) VALUES (0, 0, 'fused')")
    for i in range(n):
        c, h = centers[i], half[i]
        lo, hi = c - h, c + h
        label = LABELS[i % len(LABELS)]
        feat = None
        if feature_dim:
            f = rng.standard_normal(feature_dim).astype(np.float32)
            feat = (f / np.linalg.norm(f)).tobytes()
        oid = con.execute(
            "INSERT INTO objects (label, confidence, base_confidence, cx, cy, cz, min_x, min_y, min_z, max_x, "
            "max_y, max_z, weight, ext_x, ext_y, ext_z, feature, feature_weight, state, first_seen, last_seen, "
            "n_observations, created_wall) VALUES (?,0.9,0.9,?,?,?,?,?,?,?,?,?,1,?,?,?,?,1,'present',0,0,1,0)",
            (label, *c, *lo, *hi, *(2 * h), feat)).lastrowid
        plo, phi = lo - RTREE_PAD, hi + RTREE_PAD  # fusion pads index entries (GraphWrites.update_rtree)
        con.execute("INSERT INTO objects_rtree VALUES (?,?,?,?,?,?,?)",
                    (oid, plo[0], phi[0], plo[1], phi[1], plo[2], phi[2]))
        con.execute("INSERT INTO label_mass VALUES (?,?,0.9)", (oid, label))
        pid = con.execute(
            "INSERT INTO placements (object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, t_from, t_last, "
            "current, opened_by) VALUES (?,?,?,?,?,?,?,?,?,?,0,0,1,'appeared')", (oid, *c, *lo, *hi)).lastrowid
        for _ in range(obs_per_object):
            con.execute(
                "INSERT INTO observations (frame_id, stamp, recorded_at, label, confidence, cx, cy, cz, min_x, min_y, "
                "min_z, max_x, max_y, max_z, feature, verdict, object_id, placement_id) "
                "VALUES (1,0,0,?,0.9,?,?,?,?,?,?,?,?,?,?,'merged',?,?)", (label, *c, *lo, *hi, feat, oid, pid))
    con.execute("COMMIT")
    # Relations as fusion would have left them (computed through the memory's own incremental update).
    with m._store.transaction():
        m._relations.update(set(range(1, n + 1)), 0.0)
    return centers, half


def open_populated(path: str, n: int, side: float, **kw):
    """Populate a store, then reopen it: the measured memory starts like one restarted on a real map."""
    m = Memory.open(path, embedding_dim=kw.pop("embedding_dim", 8))
    t0 = time.perf_counter()
    centers, half = populate(m, n, side=side, **kw)
    build_s = time.perf_counter() - t0
    m.close()
    return Memory.open(path, embedding_dim=m.embedding_dim), centers, half, build_s


def frame_of(centers, half, ids, stamp, rng):
    """20 re-sightings of known objects (small noise) plus their view-independent fields."""
    out = []
    for i in ids:
        c = centers[i] + rng.normal(0, 0.005, 3)
        h = half[i]
        out.append(Observation(LABELS[i % len(LABELS)], 0.8, tuple(c), tuple(c - h), tuple(c + h), stamp))
    return out


def pct(values, q):
    return float(np.percentile(values, q))


def bench_commit(n: int, repeats: int) -> None:
    """A robot's frames: the 20 objects nearest to the point it looks at, re-seen with 5 mm noise, the
    point walking 0.2 m per frame (consecutive frames share most objects, as on a real camera)."""
    from scipy.spatial import cKDTree

    side = float(np.sqrt(n / 4.0))  # ~4 objects per square metre of floor
    with tempfile.TemporaryDirectory() as d:
        m, centers, half, build_s = open_populated(os.path.join(d, "b.db"), n, side)
        tree = cKDTree(centers)
        rng = np.random.default_rng(1)
        times = []
        look = np.array([side / 2, side / 2, 1.0])
        heading = 0.0
        for r in range(repeats + 5):
            heading += rng.normal(0, 0.3)
            look[:2] = np.clip(look[:2] + 0.2 * np.array([np.cos(heading), np.sin(heading)]), 0, side)
            _, ids = tree.query(look, k=20)
            m.add(frame_of(centers, half, ids, 10.0 + r, rng))
            stats = m.commit()
            if r >= 5:
                times.append(stats.elapsed_ms)
        print(f"commit 20 observations into {n:>7,} objects: median {statistics.median(times):6.2f} ms  "
              f"p95 {pct(times, 95):6.2f} ms  (n={len(times)}; merged {stats.merged}/20 last frame; "
              f"map built in {build_s:.0f} s)")
        m.close()


def bench_spatial(n: int, repeats: int) -> None:
    side = float(np.sqrt(n / 4.0))
    with tempfile.TemporaryDirectory() as d:
        m, _, _, _ = open_populated(os.path.join(d, "b.db"), n, side)
        rng = np.random.default_rng(2)
        queries = [tuple(rng.uniform([0, 0, 0.5], [side, side, 1.5])) for _ in range(repeats)]
        t_index, t_scan, agree = [], [], 0
        for q in queries:
            t0 = time.perf_counter()
            hits = m.spatial(q, 1.0, k=10000)
            t_index.append((time.perf_counter() - t0) * 1e3)
            t0 = time.perf_counter()
            rows = m._conn.execute("SELECT id, cx, cy, cz FROM objects WHERE state='present'").fetchall()
            arr = np.array([tuple(r) for r in rows])
            d2 = np.sqrt(((arr[:, 1:] - np.asarray(q)) ** 2).sum(axis=1))
            sel = arr[d2 <= 1.0, 0]
            t_scan.append((time.perf_counter() - t0) * 1e3)
            agree += sorted(int(i) for i in sel) == sorted(h.object.id for h in hits)
        mi, ms = statistics.median(t_index), statistics.median(t_scan)
        print(f"spatial radius 1 m on {n:>7,} objects: median {mi:6.2f} ms (p95 {pct(t_index, 95):.2f}); "
              f"linear scan {ms:7.2f} ms; ratio {ms / mi:5.1f}x; same results {agree}/{len(queries)}; "
              f"hits in last query {len(hits)}")
        m.close()


def bench_absence(n: int, repeats: int) -> None:
    side = float(np.sqrt(n / 4.0))
    with tempfile.TemporaryDirectory() as d:
        m, _, _, _ = open_populated(os.path.join(d, "b.db"), n, side)
        rng = np.random.default_rng(3)
        times, misses = [], []
        for r in range(repeats):
            eye = rng.uniform([1, 1, 1.2], [side - 1, side - 1, 1.6])
            target = eye + np.array([np.cos(r), np.sin(r), -0.3])
            depth = np.full((60, 80), 4.0, np.float32)  # a wall 4 m away: everything nearer and in view is missed
            view = CameraView(look_at(eye, target), 500, 500, 320, 240, 640, 480, 4.0, depth, 100.0 + r)
            m.add([], view)
            stats = m.commit()
            times.append(stats.elapsed_ms)
            misses.append(stats.misses)
        print(f"absence check of one CameraView against {n:>7,} objects: median {statistics.median(times):6.2f} ms "
              f"p95 {pct(times, 95):6.2f} ms (mean {np.mean(misses):.1f} objects in view per frame)")
        m.close()


def bench_size() -> None:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "b.db")
        m = Memory.open(path, embedding_dim=512)
        populate(m, 10000, side=50.0, feature_dim=512, obs_per_object=10)
        m._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        m.close()
        size = os.path.getsize(path)
        print(f"store size, 10,000 objects with 512-d features and 10 observations each (each with its feature): "
              f"{size / 2**20:.1f} MiB ({size / 10000 / 1024:.1f} KiB per object)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    ap.add_argument("--repeats", type=int, default=50)
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, cpus {os.cpu_count()}")
    for n in args.sizes:
        bench_commit(n, args.repeats)
    for n in args.sizes:
        bench_spatial(n, args.repeats)
    bench_absence(10000, args.repeats)
    bench_size()
    return 0


if __name__ == "__main__":
    sys.exit(main())
