"""A robot's own commit (bench_fleet.py without --fuser: stage a frame, then commit it) on SQLite or PostgreSQL:
its process time per frame, and with --profile N where it goes (cProfile, process time).

Why: bench_fuser_batch.py measures the fuser (other Memories stage, one fuses); a robot that commits its own frames
(bench_fleet.py's default, and every SQLite memory) runs the same fusion through the other backend's store layer
too, and on SQLite nothing of it waits for a server, so its CPU is the commit's whole cost. One process, nothing
else against the store: the figure is the commit's own, not the queue's.

The store is bench_fleet's 10,000 objects (built once, cached: --store), copied to a temporary file (SQLite) or
migrated into a throwaway cluster (PostgreSQL, unix socket only). The frames are bench_fleet's (10 cells of a
robot's quarter, 20 observations, a camera view with coarse depth), the four quarters in turn; 8 frames are
committed first to warm the caches. --dump writes the fused state after the run (objects, verdicts, events, the
wall clock of each write left out): two trees committing the same frames must write the same file.

    python bench/bench_commit_profile.py --backend sqlite|postgresql [--frames 64] [--profile N] [--dump F]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


@contextlib.contextmanager
def _sqlite_copy(store: str):
    d = tempfile.mkdtemp(prefix="tempomem_bench_commit_")
    try:
        path = os.path.join(d, "memory.db")
        shutil.copy(store, path)
        yield path
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), required=True)
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_10k.db"))
    ap.add_argument("--objects", type=int, default=10000)
    ap.add_argument("--frames", type=int, default=64)
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print the N functions of most own time")
    ap.add_argument("--sort", default="tottime", help="order of the profile (pstats: tottime, cumulative)")
    ap.add_argument("--profile-out", default=None, help="also write the raw profile here (pstats)")
    ap.add_argument("--dump", default=None, help="write the fused state after the run here")
    args = ap.parse_args()
    os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(args.objects)  # read by bench_fleet at import
    import bench_fleet as bf

    from tempomem_ros.core import Memory

    if not os.path.exists(args.store):
        bf.build_store(args.store)
    served = _sqlite_copy(args.store) if args.backend == "sqlite" else bf.served_store(args.store,
                                                                                        "tempomem_bench_commit_")
    with served as address:
        m = Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": "robot_0"})
        quarter = bf.CELLS // 4
        profile = cProfile.Profile(time.process_time) if args.profile else None
        cpu = wall = 0.0
        for n in range(8 + args.frames):
            r, i = n % 4, n // 4
            stamp = bf.T0 + 200.0 + 0.025 * n
            cells = [r * quarter + (i * bf.CELLS_PER_FRAME + j) % quarter for j in range(bf.CELLS_PER_FRAME)]
            m.add([bf.observation(label, lo, hi, stamp) for k in cells for label, lo, hi in bf.cell_boxes(k)],
                  bf.camera_over(cells[0], stamp))
            timed = n >= 8
            c0, t0 = time.process_time(), time.perf_counter()
            if timed and profile is not None:
                profile.enable()
            m.commit()
            if timed:
                if profile is not None:
                    profile.disable()
                cpu += time.process_time() - c0
                wall += time.perf_counter() - t0
        print(f"{args.backend}: {args.frames} frames of 20 sightings, {args.objects} objects; load average "
              f"{os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
        print(f"commit per frame: process time {cpu / args.frames * 1e3:.2f} ms, wall {wall / args.frames * 1e3:.2f} ms"
              + (" (profiled)" if profile is not None else ""))
        if profile is not None:
            pstats.Stats(profile, stream=sys.stdout).sort_stats(args.sort).print_stats(args.profile)
            if args.profile_out:
                profile.dump_stats(args.profile_out)
        if args.dump:
            with open(args.dump, "w") as f:  # without the wall clock of each write (recorded_at)
                for x in (*m.objects(), *m.observations(), *m.events()):
                    print(re.sub(r"recorded_at=[^,]*, ", "", repr(x)), file=f)
        m.close()


if __name__ == "__main__":
    main()
