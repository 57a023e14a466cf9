"""Round trips of a robot's stage + commit on PostgreSQL, counted (postgres/connection.py Traffic), and the
statements that still wait, most frequent first.

Why a count and not a time: on a shared machine a commit's time moves with everyone's load, its round trips do not.
The store of bench/bench_fleet.py (built once, cached: --store) is migrated into a throwaway cluster; one writer (or
two, alternating: each one's commits drop the other's caches, as four robots do) stages and commits frames of 20
observations over 10 cells, as bench_fleet's robots do, one process, no timing threads. The first two frames are
not counted (they fill the writer's caches once).

    python bench/bench_round_trips.py [--store /tmp/tempomem_bench_fleet_2k.db] [--objects 2000] [--frames 22]
                                      [--writers 1|2] [--top 12]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_2k.db"))
    ap.add_argument("--objects", type=int, default=2000)
    ap.add_argument("--frames", type=int, default=22)
    ap.add_argument("--writers", type=int, choices=(1, 2), default=1)
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args()
    os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(args.objects)  # read by bench_fleet at import
    import bench_fleet as bf

    from tempomem_ros.core import Memory
    from tempomem_ros.core.store import transfer
    from tempomem_ros.tools.pg_sandbox import PgSandbox

    if not os.path.exists(args.store):
        bf.build_store(args.store)
    quarter = bf.CELLS // 4
    work = tempfile.mkdtemp(prefix="tempomem_bench_trips_")
    os.chmod(work, 0o755)  # the server runs as the postgres system user when this runs as root
    try:
        with PgSandbox.start(durable=True, root=os.path.join(work, "pg")) as pg:
            pg.create_database("fleet")
            pg.psql("CREATE EXTENSION postgis", "fleet")
            address = pg.url("fleet")
            transfer.migrate(args.store, address)
            writers = [Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": f"robot_{w}"})
                       for w in range(args.writers)]
            try:
                traffic = writers[0]._conn.traffic
                for i in range(args.frames):
                    if i == 2:
                        traffic.reset()
                    for w, m in enumerate(writers):
                        stamp = bf.T0 + 200.0 + 0.1 * i + 0.05 * w
                        cells = [w * quarter + (i * bf.CELLS_PER_FRAME + j) % quarter
                                 for j in range(bf.CELLS_PER_FRAME)]
                        m.add([bf.observation(label, lo, hi, stamp) for k in cells
                               for label, lo, hi in bf.cell_boxes(k)], bf.camera_over(cells[0], stamp))
                        m.commit()
            finally:
                for m in writers:
                    m.close()
        counted = args.frames - 2
        per = {k: round(v / counted, 1) for k, v in traffic.snapshot().items()}
        print(f"{args.writers} writer(s), {args.objects} objects, writer 0's stage + commit, mean of {counted} frames: "
              f"{per['round_trips']} round trips, {per['statements']} statements, {per['pipelined']} pipelined")
        for sql, n in traffic.waited_by_sql.most_common(args.top):
            print(f"  {n / counted:6.1f}  {' '.join(sql.split())[:130]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
