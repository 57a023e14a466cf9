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

Every run prints the WAL a staged frame wrote (the server's insert position before and after the timed frames: the
records of the COMMITs and any full-page images included; nothing else writes to this cluster but its own background
processes). --statements also counts the calls of the label tallies' trigger function (track_functions = 'pl').
--fuse B: after the staging, one more Memory (the fuser) fuses the staged frames B at a time, and its client and
server process time, wall and WAL a frame are printed (the fuser reads what the robots staged: round 13's partial
indexes change what it reads them by).

    python bench/bench_stage_profile.py [--frames 200] [--statements 15] [--profile N] [--dump F] [--fuse B]
        [--server-setting NAME=VALUE ...]
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

import psycopg

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
    ap.add_argument("--server-setting", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting of the server (bench_fleet.py --server-setting)")
    ap.add_argument("--fuse", type=int, default=0, metavar="B", help="then fuse the staged frames, B a commit")
    args = ap.parse_args()
    os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(args.objects)  # read by bench_fleet at import
    import bench_fleet as bf
    from bench_round_trips import server_cpu_s

    from tempomem_ros.core import Memory

    conf = {"shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.track": "all",
            "track_functions": "pl"} if args.statements else {}
    conf.update(bf.server_settings(args.server_setting))
    if args.server_setting:
        print("server settings: " + ", ".join(args.server_setting))
    with bf.served_store(args.store, "tempomem_bench_stage_", extra_conf=conf or None) as address:
        robots = [Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": f"robot_{r}"})
                  for r in range(4)]
        pids = [int(m._conn._conn.info.backend_pid) for m in robots]
        if args.statements:
            robots[0]._conn._raw("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        admin = psycopg.connect(address, autocommit=True)  # the bench's own reads of the server, not counted
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
                    admin.execute("SELECT pg_stat_statements_reset()")
                    admin.execute("SELECT pg_stat_reset()")
                lsn0 = wal_lsn(admin)
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
        wal = wal_lsn(admin) - lsn0
        f = args.frames
        print(f"staging on PostgreSQL: {f} frames of 20 sightings and a 60x80 depth, 4 sources in turn, "
              f"{args.objects} objects; load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
        print(f"per frame: client process time {cpu / f * 1e3:.2f} ms, server process time {server / f * 1e3:.2f} ms,"
              f" wall {wall / f * 1e3:.2f} ms" + (" (profiled)" if profile is not None else "")
              + f", WAL {wal / f:.0f} bytes")
        print("per frame: " + ", ".join(f"{k} {v / f:.1f}" for k, v in sent.items()))
        waited = sum((m._conn.traffic.waited_s_by_sql for m in robots), Counter())
        print("waits per frame, ms (statement text; the end of a pipeline is its COMMIT and the writes sent with it): "
              + "; ".join(f"{' '.join(sql.split()[:3])} {s / f * 1e3:.2f}" for sql, s in waited.most_common()))
        if args.statements:
            rows = admin.execute(
                "SELECT calls, total_exec_time, total_plan_time, wal_bytes, regexp_replace(query, '\\s+', ' ', 'g') "
                "FROM pg_stat_statements WHERE query !~ '^SELECT pg_stat|pg_current_wal' "
                f"ORDER BY total_exec_time DESC LIMIT {int(args.statements)}").fetchall()
            print("server, per frame: calls | exec ms | plan ms | WAL bytes | statement")
            for calls, ex, plan, wal_bytes, q in rows:
                print(f"  {calls / f:5.2f} | {ex / f:6.3f} | {plan / f:6.3f} | {int(wal_bytes) / f:8.0f} | {q[:150]}")
            for m in robots:  # a backend reports its function counts when idle, at most once a second: now
                m._conn._raw("SELECT pg_stat_force_next_flush()")
            time.sleep(0.2)
            calls = admin.execute("SELECT COALESCE(SUM(calls), 0) FROM pg_stat_user_functions "
                                  "WHERE funcname = 'tempomem_place_labels'").fetchone()[0]
            print(f"label tallies' trigger function calls per frame: {int(calls) / f:.2f}")
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
        if args.fuse:
            fuse(address, admin, bf, Memory, args.fuse)
        admin.close()
        for m in robots:
            m.close(fuse=False)


def wal_lsn(admin) -> int:
    """The server's WAL insert position, in bytes."""
    return int(admin.execute("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn").fetchone()[0])


def fuse(address: str, admin, bf, Memory, batch: int) -> None:
    """One fuser fuses every staged frame, ``batch`` frames a commit (as bench_fleet's fuser does, in its order);
    prints its process time, its server process's, wall and WAL a frame, without its first commit (a first commit
    on a freshly migrated store does one-time work over every object: 640 KB of WAL a frame in batches of 4)."""
    from bench_round_trips import server_cpu_s

    with Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": "fuser"}) as m:
        pid = int(m._conn._conn.info.backend_pid)
        first = len(m.commit(max_frames=batch).frame_ids)
        frames = 0
        lsn0, c0, s0, t0 = wal_lsn(admin), time.process_time(), server_cpu_s(pid), time.perf_counter()
        while m.pending():
            frames += len(m.commit(max_frames=batch).frame_ids)
        wall, cpu, server, wal = (time.perf_counter() - t0, time.process_time() - c0, server_cpu_s(pid) - s0,
                                  wal_lsn(admin) - lsn0)
        print(f"fuser: {frames} frames after a first commit of {first}, {batch} a commit; per frame: client process "
              f"time {cpu / frames * 1e3:.2f} ms, "
              f"server process time {server / frames * 1e3:.2f} ms, wall {wall / frames * 1e3:.2f} ms, "
              f"WAL {wal / frames:.0f} bytes")
        m.close(fuse=False)


if __name__ == "__main__":
    main()
