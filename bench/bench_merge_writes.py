"""The client side of a merge's writes on PostgreSQL, without fusion: what the fuser's process spends on them.

Why: the statements' client side (the store layer and psycopg: each write held, then sent set-based) was about a
fifth of the fuser's CPU (bench_fuser_functions.py), spread over five statements a merge; this times them alone.
20 merges' statements as FrameFusion._merge writes them (merge_into, widen_placement, the verdict, the label mass,
the audit row, with the arrays merge_geometry returns), the audit rows' INSERT, then one read that sends the held
writes, in a write transaction rolled back; 60 rounds, the first 10 left out. Prints the process time per merge
(median and least of the rounds). The store is bench_fleet's (built once, cached), served by a throwaway cluster.

    python bench/bench_merge_writes.py [--store S] [--prof]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import bench_fleet as bf  # noqa: E402
from tempomem_ros.core import Memory  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_10k.db"))
ap.add_argument("--prof", action="store_true", help="also profile the timed part (cProfile, process time)")
args = ap.parse_args()

with bf.served_store(args.store, "tempomem_bench_merge_writes_") as address:
    m = Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": "fuser"})
    ff = m._fusion
    rows, graph = ff._rows, ff._graph
    times = []
    prof = cProfile.Profile(time.process_time) if args.prof else None
    for rnd in range(60):
        m._store.conn.execute("BEGIN IMMEDIATE")
        t = time.process_time()
        if prof and rnd >= 10:
            prof.enable()
        for k in range(20):
            oid = 100 + k
            lo, hi, mean = np.array((1.0 + k, 2.0, 0.3)), np.array((1.2 + k, 2.2, 0.5)), np.array((1.1 + k, 2.1, 0.4))
            rows.merge_into(oid, (1.1 + k, 2.1, 0.4), mean, 0.5, 0.3, lo, hi, 3.5, np.array((0.2, 0.2, 0.2)), None, 0.0,
                            0.95, 1300.0 + rnd, confirms=False, vec_dirty=False)
            rows.widen_placement(5000 + k, (1.1 + k, 2.1, 0.4), lo, hi, 1300.0 + rnd)
            ff._verdict(900000 + rnd * 20 + k, "merged", "", oid, oid, 0.87, 5000 + k)
            graph.add_mass(oid, "mug 3", 0.9)
            ff._audit(1300.0 + rnd, "merge", [oid], [900000 + rnd * 20 + k], {"score": 0.87, "reason": "score"})
        st = m._store
        st.conn.executemany("INSERT INTO audit (stamp, wall_time, action, object_ids, observation_ids, detail, source) "
                            "VALUES (?,?,?,?,?,?,?)", st._audit_rows)
        st._audit_rows = []
        st.conn.execute("SELECT 1").fetchall()
        if prof:
            prof.disable()
        times.append(time.process_time() - t)
        m._store.conn.execute("ROLLBACK")
    times = sorted(times[10:])
    print(f"per merge: median {times[len(times) // 2] / 20 * 1e6:.1f} us, min {times[0] / 20 * 1e6:.1f} us; "
          f"load {os.getloadavg()[0]:.1f}")
    m.close()
    if prof:
        pstats.Stats(prof).sort_stats('tottime').print_stats(30)
