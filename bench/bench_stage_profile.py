"""A robot's staging on PostgreSQL (bench_fleet.py --fuser: the robot only stages, its "commit" is add()): per
frame its process time, the time of its connection's server process, its wall time, and what it sends (statements,
statements sent to the server, round trips); with --statements the server's time per statement text
(pg_stat_statements, loaded in this bench's own throwaway cluster only), with --profile N where the client's CPU
goes (cProfile, process time).

Why: with one fuser beside four robots a robot's staging is what its commit costs (bench_fleet --fuser: p95 32 ms,
target 25); bench_commit_profile.py measures the robot's own commit, bench_fuser_batch.py the fuser, neither the
staging alone. One process stages, nothing else runs against the store: the figure is the staging's own, not the
queue's (bench_fleet measures that).

The store is bench_fleet's 10,000 objects migrated into a throwaway cluster (fsync on, unix socket only); the frames
are bench_fleet's (10 cells, 20 observations, a camera view with coarse depth), four sources in turn as four robots
stage them; 8 frames are staged first. --dump writes the staged frames and observations after the run (without
the wall clock of each write): two trees staging the same frames must write the same file.

    python bench/bench_stage_profile.py [--frames 200] [--statements 15] [--profile N] [--dump F]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import sys
import tempfile
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_10k.db"))
    ap.add_argument("--objects", type=int, default=10000)
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--statements", type=int, default=0, metavar="N",
                    help="print the N statements of most server time (pg_stat_statements)")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print the N functions of most own time")
    ap.add_argument("--dump", default=None, help="write the staged frames and observations here")
    args = ap.parse_args()
    os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(args.objects)  # read by bench_fleet at import
    import bench_fleet as bf
    from bench_round_trips import server_cpu_s

    from tempomem_ros.core import Memory

    conf = {"shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.track": "all"} \
        if args.statements else None
    with bf.served_store(args.store, "tempomem_bench_stage_", extra_conf=conf) as address:
        robots = [Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": f"robot_{r}"})
                  for r in range(4)]
        pids = [int(m._conn._conn.info.backend_pid) for m in robots]
        if args.statements:
            robots[0]._conn._raw("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        quarter = bf.CELLS // 4
        profile = cProfile.Profile(time.process_time) if args.profile else None
        cpu = server = wall = 0.0
        sent = {"round_trips": 0, "statements": 0, "server_statements": 0}
        for n in range(8 + args.frames):
            r, i = n % 4, n // 4
            m = robots[r]
            stamp = bf.T0 + 200.0 + 0.025 * n
            cells = [r * quarter + (i * bf.CELLS_PER_FRAME + j) % quarter for j in range(bf.CELLS_PER_FRAME)]
            obs = [bf.observation(label, lo, hi, stamp) for k in cells for label, lo, hi in bf.cell_boxes(k)]
            view = bf.camera_over(cells[0], stamp)
            timed = n >= 8
            if timed and n == 8:
                for w in robots:  # the waits of the timed frames only (opening read the writer caches)
                    w._conn.traffic.waited_s_by_sql.clear()
                if args.statements:
                    robots[0]._conn._raw("SELECT pg_stat_statements_reset()")
            before = m.store_traffic()
            c0, s0, t0 = time.process_time(), server_cpu_s(pids[r]), time.perf_counter()
            if timed and profile is not None:
                profile.enable()
            m.add(obs, view)
            if timed:
                if profile is not None:
                    profile.disable()
                wall += time.perf_counter() - t0
                cpu += time.process_time() - c0
                server += server_cpu_s(pids[r]) - s0
                after = m.store_traffic()
                for k in sent:
                    sent[k] += after[k] - before[k]
        f = args.frames
        print(f"staging on PostgreSQL: {f} frames of 20 sightings and a 60x80 depth, 4 sources in turn, "
              f"{args.objects} objects; load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
        print(f"per frame: client process time {cpu / f * 1e3:.2f} ms, server process time {server / f * 1e3:.2f} ms,"
              f" wall {wall / f * 1e3:.2f} ms" + (" (profiled)" if profile is not None else ""))
        print("per frame: " + ", ".join(f"{k} {v / f:.1f}" for k, v in sent.items()))
        waited = sum((m._conn.traffic.waited_s_by_sql for m in robots), Counter())
        print("waits per frame, ms (statement text; the end of a pipeline is its COMMIT and the writes sent with it): "
              + "; ".join(f"{' '.join(sql.split()[:3])} {s / f * 1e3:.2f}" for sql, s in waited.most_common()))
        if args.statements:
            rows = robots[0]._conn._raw_sets(
                "SELECT calls, total_exec_time, total_plan_time, wal_bytes, regexp_replace(query, '\\s+', ' ', 'g') "
                f"FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT {int(args.statements)}")[0]
            print("server, per frame: calls | exec ms | plan ms | WAL bytes | statement")
            for calls, ex, plan, wal, q in rows:
                print(f"  {calls / f:5.2f} | {ex / f:6.3f} | {plan / f:6.3f} | {int(wal) / f:8.0f} | {q[:150]}")
        if profile is not None:
            pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)
        if args.dump:
            with open(args.dump, "w") as out:  # without the wall clock of each write (recorded_at)
                for row in robots[0]._conn.execute("SELECT * FROM observations ORDER BY id").fetchall():
                    print(re.sub(r"'recorded_at': [^,]*, ", "", repr(dict(row))), file=out)
                for row in robots[0]._conn.execute("SELECT id, stamp, status, has_view, pose, fx, fy, cx, cy, width, "
                                                   "height, max_range, depth, depth_h, depth_w, min_object_pixels, "
                                                   "n_observations, source FROM frames ORDER BY id").fetchall():
                    print(tuple(row), file=out)
                for row in robots[0]._conn.execute("SELECT * FROM frame_depths ORDER BY frame_id").fetchall():
                    print(tuple(row), file=out)
        for m in robots:
            m.close(fuse=False)


if __name__ == "__main__":
    main()
