"""What one fused batch costs per frame, against one commit per frame: the fuser's cost on PostgreSQL.

Why: with robots staging beside fusion (docs/FLEET.md), one fuser fuses every frame staged since its last batch in
one transaction. It keeps up with 4 robots x 10 Hz only if a frame costs it less than 25 ms; this measures the
cost per frame of a batch of B frames (B = 1 is a robot's own commit) in one process, nothing else running against
the store, so that the figure is the fuser's own and not the queue's.

The store of bench/bench_fleet.py (built once, cached: --store) is migrated into a throwaway cluster; the frames are
bench_fleet's (10 cells of a robot's quarter, 20 observations, a view with coarse depth), staged by 4 writers (one
Memory each, sources robot_0..3, round-robin) and fused by a fifth. Rounds of each batch size alternate. Prints, per
batch size, ms per frame (wall, and CPU of this process and of the fuser's server process), and with --profile N the
functions with the most time of their own in the fuser's commits (cProfile).

    python bench/bench_fuser_batch.py [--store S] [--objects 10000] [--batches 1 4 16 40] [--frames 80] [--profile N]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_10k.db"))
    ap.add_argument("--objects", type=int, default=10000)
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 4, 16, 40])
    ap.add_argument("--frames", type=int, default=80, help="frames fused per batch size and round")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    ap.add_argument("--sort", default="tottime", help="order of the profile (pstats: tottime, cumulative)")
    ap.add_argument("--cpu", action="store_true",
                    help="profile this process's CPU time (time.process_time), not wall time: waits for the server "
                         "count nothing")
    ap.add_argument("--dump", default=None,
                    help="write the fused state after the run here (objects, observations' verdicts, events; one "
                         "line each): two trees fusing the same frames must write the same file (decisions identical)")
    ap.add_argument("--profile-out", default=None, help="also write the raw profile here (pstats)")
    ap.add_argument("--top", type=int, default=12, help="statements waited for, most frequent first")
    args = ap.parse_args()
    os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(args.objects)  # read by bench_fleet at import
    import bench_fleet as bf
    from bench_round_trips import server_cpu_s

    from tempomem_ros.core import Memory

    with bf.served_store(args.store, "tempomem_bench_fuser_") as address:
        robots = [Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": f"robot_{r}"})
                  for r in range(4)]
        fuser = Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": "fuser"})
        pid = int(fuser._conn._conn.info.backend_pid)
        quarter = bf.CELLS // 4
        counter = [0]
        profile = (cProfile.Profile(time.process_time) if args.cpu else cProfile.Profile()) if args.profile else None

        def stage_one() -> None:
            n = counter[0]
            counter[0] += 1
            r, i = n % 4, n // 4
            stamp = bf.T0 + 200.0 + 0.025 * n
            cells = [r * quarter + (i * bf.CELLS_PER_FRAME + j) % quarter for j in range(bf.CELLS_PER_FRAME)]
            robots[r].add([bf.observation(label, lo, hi, stamp) for k in cells for label, lo, hi in bf.cell_boxes(k)],
                          bf.camera_over(cells[0], stamp))

        for _ in range(8):  # warm the fuser's caches (its first commits read what it keeps)
            stage_one()
            fuser.commit()
        results: dict[int, list] = {b: [] for b in args.batches}
        waits: dict[int, tuple] = {}
        for _ in range(args.rounds):
            for b in args.batches:
                wall = cpu = server = 0.0
                fuser._conn.traffic.reset()
                for _ in range(max(1, args.frames // b)):
                    for _ in range(b):
                        stage_one()
                    c0, s0, t0 = time.process_time(), server_cpu_s(pid), time.perf_counter()
                    if profile is not None:
                        profile.enable()
                    stats = fuser.commit()
                    if profile is not None:
                        profile.disable()
                    wall += time.perf_counter() - t0
                    cpu += time.process_time() - c0
                    server += server_cpu_s(pid) - s0
                    assert len(stats.frame_ids) == b, (len(stats.frame_ids), b)
                n = max(1, args.frames // b) * b
                results[b].append((wall / n * 1e3, cpu / n * 1e3, server / n * 1e3))
                waits[b] = (n, fuser._conn.traffic.round_trips, dict(fuser._conn.traffic.waited_by_sql))
        print(f"load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs); {args.objects} objects")
        print("batch | ms per frame, wall (each round) | client CPU | server CPU")
        for b, rows in results.items():
            print(f"{b:5d} | {', '.join(f'{w:6.1f}' for w, _, _ in rows)} | "
                  f"{', '.join(f'{c:5.1f}' for _, c, _ in rows)} | {', '.join(f'{s:5.1f}' for _, _, s in rows)}")
        for b, (n, trips, by_sql) in waits.items():  # the fuser's waits for the server per frame (last round)
            print(f"batch {b}: {trips / n:.1f} round trips per frame; most frequent:")
            for sql, k in sorted(by_sql.items(), key=lambda kv: -kv[1])[:args.top]:
                print(f"    {k / n:6.2f}  {' '.join(sql.split())[:110]}")
        if profile is not None:
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.profile)
            if args.profile_out:
                profile.dump_stats(args.profile_out)
            print(out.getvalue())
        if args.dump:
            with open(args.dump, "w") as f:  # without the wall clock of each write (recorded_at)
                for x in (*fuser.objects(), *fuser.observations(), *fuser.events()):
                    print(re.sub(r"recorded_at=[^,]*, ", "", repr(x)), file=f)
        for m in robots + [fuser]:
            m.close()


if __name__ == "__main__":
    main()
