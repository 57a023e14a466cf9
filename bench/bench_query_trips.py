"""The queries of bench_fleet's asker on PostgreSQL, one kind at a time through a read-only Memory: p50 / p95 of each
and the round trips it waits for (postgres/connection.py Traffic), as when a robot has committed before each call.

Why "as when a robot has committed": a read-only memory keeps the list of shown labels until another connection
commits (StoreReads.distinct_labels); in bench_fleet four robots commit several times a second, so nearly every
query reads it again. Here the list is dropped before each call (the reader's cache, nothing else), so one process
shows what the fleet's asker pays, without the fleet. ``--keep-cache`` measures the other case.

The store of bench/bench_fleet.py (built once, cached: --store) is migrated into a throwaway cluster, or
``--address`` names a PostgreSQL store that already holds it (only read).

    python bench/bench_query_trips.py [--store /tmp/tempomem_bench_fleet_10k.db] [--calls 30] [--top 0]
                                      [--address postgresql://...] [--keep-cache]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def ask_each(address: str, calls: int, top: int, keep_cache: bool) -> None:
    import numpy as np

    import bench_fleet as bf
    from tempomem_ros.core import Memory

    rng = np.random.default_rng(7)
    with Memory.open(address, readonly=True) as m:
        traffic = m._conn.traffic
        timed = getattr(traffic, "waited_s_by_sql", None)  # (a tree before the timing: counts only)
        for q in bf.QUERIES:
            traffic.reset()
            times = []
            for _ in range(calls):
                if not keep_cache:
                    m._reads._labels_cache.clear()  # as after a robot's commit
                t0 = time.perf_counter()
                bf.ask_one(m, q, rng)
                times.append((time.perf_counter() - t0) * 1e3)
            print(f"  {q:<17} p50 {np.median(times):6.1f} ms  p95 {np.percentile(times, 95):6.1f} ms  "
                  f"round trips per call {traffic.round_trips / calls:6.1f}", flush=True)
            for sql, n in traffic.waited_by_sql.most_common(top):
                ms = "" if timed is None else f"{1e3 * timed[sql] / calls:7.2f} ms"
                print(f"      {n / calls:6.1f} {ms}  {' '.join(sql.split())[:120]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_10k.db"))
    ap.add_argument("--calls", type=int, default=30, help="calls of each query kind")
    ap.add_argument("--top", type=int, default=0, help="statements printed under each kind, most waits first")
    ap.add_argument("--address", help="a PostgreSQL store already holding bench_fleet's objects (only read)")
    ap.add_argument("--keep-cache", action="store_true", help="keep the reader's label list between calls")
    args = ap.parse_args()
    os.environ.setdefault("TEMPOMEM_BENCH_OBJECTS", "10000")  # read by bench_fleet at import
    import bench_fleet as bf

    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs); {args.calls} calls of each, "
          f"label list {'kept' if args.keep_cache else 'read again before each call'}")
    if args.address:
        ask_each(args.address, args.calls, args.top, args.keep_cache)
        return
    with bf.served_store(args.store, "tempomem_bench_queries_") as address:
        ask_each(address, args.calls, args.top, args.keep_cache)


if __name__ == "__main__":
    main()
