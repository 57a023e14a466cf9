"""Round trips and statements on PostgreSQL of what bench_fleet times, counted apart: (a) one frame's commit (the 20
observations of a bench_fleet robot's frame, fused by the writer), (b) each of the 7 queries bench_fleet's asker
runs, per call, (c) the node's staging of one frame (a stage-only Memory on a connection of its own, as the memory
node's stager: nodes/memory_store.py open_stager).

Why counts: on the shared machine (2 cores, load 6-12) the issue's targets (commit p95 <= 25 ms, service p95 <= 30
ms, 4 robots) cannot be timed; what makes those times, the waits for the server (round trips) and the statements the
server runs, is counted exactly by the connection (postgres/connection.py Traffic) and does not move with the load.

The store of bench_fleet (built once, cached: --store) is migrated into a throwaway cluster (tools/pg_sandbox.py,
fsync on, unix socket only). Per frame i (--frames, the first 2 not counted: they fill the caches once), the stager
(source robot_0) stages robot 0's frame i of bench_fleet (10 cells of its quarter, 20 observations, a camera view
with coarse depth) and the writer (source robot_0, as the node's writer) commits it; with ``--writers 2`` a second
robot (robot_1, its own stager and writer) stages and commits its frame between them, so that each writer's commits
drop the other's caches, as a fleet's do. Then the asker (read-only) asks each query kind ``--calls`` times, its
label list dropped before each call as after another robot's commit (bench_query_trips.py says why).

Printed per row: round trips (waits for the server), statements (the store's statements, each row of a batched
write counted), sent (statements the server runs: a set-based write or read is one) and pipelined writes, as means
per frame or per call; with ``--top N`` the N statement texts each runs most often (``run``: every statement,
pipelined and batched ones too), then those it waits for most (``waited``).

    python bench/fleet_round_trips.py [--store /tmp/tempomem_bench_fleet_10k.db] [--objects 10000] [--frames 12]
                                      [--calls 10] [--writers 1|2] [--top 0]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

KEYS = ("round_trips", "statements", "server_statements", "pipelined")


class Counted:
    """The traffic of one connection summed over the calls made inside ``with counted.call():``, per statement text
    too."""

    def __init__(self, memory):
        self.traffic = memory._conn.traffic
        self.calls = 0
        self.sums = dict.fromkeys(KEYS, 0)
        self.sent: dict[str, int] = {}
        self.waited: dict[str, int] = {}

    def __enter__(self):
        self.traffic.reset()
        return self

    def __exit__(self, *exc):
        t = self.traffic
        self.calls += 1
        for k, v in t.snapshot().items():
            self.sums[k] += v
        for into, src in ((self.sent, t.sent_by_sql), (self.waited, t.waited_by_sql)):
            for sql, n in src.items():
                into[sql] = into.get(sql, 0) + n
        return False

    def per_call(self) -> dict:
        return {k: self.sums[k] / max(self.calls, 1) for k in KEYS}


def line(name: str, c: Counted, unit: str) -> str:
    p = c.per_call()
    return (f"  {name:<28} round trips {p['round_trips']:6.1f}   statements {p['statements']:6.1f}   "
            f"sent {p['server_statements']:6.1f}   pipelined {p['pipelined']:6.1f}   ({c.calls} {unit})")


def top(c: Counted, n: int) -> None:
    for title, counts in (("run", c.sent), ("waited", c.waited)):
        for sql, k in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]:
            print(f"      {title:<6} {k / max(c.calls, 1):6.1f}  {' '.join(sql.split())[:120]}")


def run(address: str, args, bf) -> None:
    import numpy as np

    from tempomem_ros.core import Memory

    robots = list(range(args.writers))
    stagers = [Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": f"robot_{r}"}, check="off")
               for r in robots]
    writers = [Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": f"robot_{r}"}, check="off")
               for r in robots]
    stage, commit = Counted(stagers[0]), Counted(writers[0])
    try:
        for i in range(args.frames):
            for r in robots:  # bench_fleet's robots' frames, 0.1 s apart, the robots 0.05 s apart in one world time
                stamp = bf.T0 + 200.0 + 0.1 * i + 0.05 * r
                cells = bf.robot_cells(r, 4, i)
                obs = [bf.observation(label, lo, hi, stamp) for k in cells for label, lo, hi in bf.cell_boxes(k)]
                view = bf.camera_over(cells[0], stamp)
                counted = r == 0 and i >= 2
                if counted:
                    with stage:
                        stagers[r].stage(obs, view, stamp=stamp)
                    with commit:
                        stats = writers[r].commit()
                    assert list(stats.frame_ids) and len(stats.frame_ids) == 1, stats.frame_ids
                else:
                    stagers[r].stage(obs, view, stamp=stamp)
                    writers[r].commit()
    finally:
        for m in stagers:
            m.close(fuse=False)
        for m in writers:
            m.close()
    print(f"PostgreSQL (throwaway cluster, fsync on), bench_fleet store of {bf.N_OBJECTS} objects, "
          f"{args.writers} robot(s) staging and committing in turn; means of writer 0's last {args.frames - 2} frames "
          f"and {args.calls} calls of each query (load average {os.getloadavg()[0]:.2f}: counts do not move with it)")
    print(line("(c) node's staging of a frame", stage, "frames"))
    if args.top:
        top(stage, args.top)
    print(line("(a) commit of a frame", commit, "frames"))
    if args.top:
        top(commit, args.top)
    rng = np.random.default_rng(7)
    with Memory.open(address, readonly=True, check="off") as m:
        for q in bf.QUERIES:
            c = Counted(m)
            for _ in range(args.calls):
                m._reads._labels_cache.clear()  # as after a robot's commit (bench_query_trips.py)
                with c:
                    bf.ask_one(m, q, rng)
            print(line(f"(b) query {q}", c, "calls"))
            if args.top:
                top(c, args.top)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_10k.db"))
    ap.add_argument("--objects", type=int, default=10000)
    ap.add_argument("--frames", type=int, default=12, help="frames of writer 0, the first 2 not counted")
    ap.add_argument("--calls", type=int, default=10, help="calls of each query kind")
    ap.add_argument("--writers", type=int, choices=(1, 2), default=1)
    ap.add_argument("--top", type=int, default=0, metavar="N", help="the N statement texts sent / waited most")
    ap.add_argument("--address", help="a PostgreSQL store already holding bench_fleet's objects (written to): no "
                                      "throwaway cluster, no migration")
    args = ap.parse_args()
    if args.frames < 3:
        ap.error("--frames: at least 3 (the first 2 are not counted)")
    os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(args.objects)  # read by bench_fleet at import
    import bench_fleet as bf

    if args.address:
        run(args.address, args, bf)
        return
    with bf.served_store(args.store, "tempomem_fleet_trips_") as address:
        run(address, args, bf)


if __name__ == "__main__":
    main()
