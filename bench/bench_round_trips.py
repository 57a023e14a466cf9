"""Round trips of a robot's stage + commit on PostgreSQL, counted (postgres/connection.py Traffic), and the
statements that still wait, most frequent first, with the time each spent waiting.

Why a count and not a time: on a shared machine a commit's time moves with everyone's load, its round trips do not.
The store of bench/bench_fleet.py (built once, cached: --store) is migrated into a throwaway cluster; one writer (or
two, alternating: each one's commits drop the other's caches, as four robots do) stages and commits frames of 20
observations over 10 cells, as bench_fleet's robots do, one process, no timing threads. The first two frames are
not counted (they fill the writer's caches once).

Every statement run, pipelined or not, is also counted per text (most frequent first): the statements a frame
repeats, each a candidate for one set-based statement.

CPU time per frame (this process, and writer 0's server process from /proc) is printed too: unlike the wall time it
does not grow with the machine's load, and on a machine of 2 cores it is what four robots at 10 Hz share.

Times (``--by time``, and the wall time of writer 0's stage + commit) move with the machine's load; the counts do
not. ``--profile N`` also prints the N functions of writer 0's commits with the most time of their own, then with the
most time inside them (cProfile): where the time not spent waiting for the server goes.

    python bench/bench_round_trips.py [--store /tmp/tempomem_bench_fleet_2k.db] [--objects 2000] [--frames 22]
                                      [--writers 1|2] [--top 12] [--by count|time] [--profile N]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_2k.db"))
    ap.add_argument("--objects", type=int, default=2000)
    ap.add_argument("--frames", type=int, default=22)
    ap.add_argument("--writers", type=int, choices=(1, 2), default=1)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--by", choices=("count", "time"), default="count", help="order of the statements printed")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print N functions of the commits (cProfile)")
    ap.add_argument("--address", help="a PostgreSQL store already holding bench_fleet's objects (written to): no "
                                      "throwaway cluster, no migration")
    args = ap.parse_args()
    os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(args.objects)  # read by bench_fleet at import
    import bench_fleet as bf

    from tempomem_ros.core import Memory

    if args.address:
        run_frames(args, bf, Memory, args.address)
        return
    with bf.served_store(args.store, "tempomem_bench_trips_") as address:
        run_frames(args, bf, Memory, address)


def server_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the server process ``pid`` has used: /proc/PID/stat, in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_frames(args, bf, Memory, address: str) -> None:
    """The writers stage and commit their frames into the store at ``address``; the figures are printed."""
    quarter = bf.CELLS // 4
    writers = [Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": f"robot_{w}"})
               for w in range(args.writers)]
    profile = cProfile.Profile() if args.profile else None
    wall, cpu = [], []
    pid = writers[0]._conn._conn.info.backend_pid  # writer 0's server process (the server runs on this machine)
    try:
        traffic = writers[0]._conn.traffic
        for i in range(args.frames):
            if i == 2:
                traffic.reset()
            for w, m in enumerate(writers):
                stamp = bf.T0 + 200.0 + 0.1 * i + 0.05 * w
                cells = [w * quarter + (i * bf.CELLS_PER_FRAME + j) % quarter for j in range(bf.CELLS_PER_FRAME)]
                counted = w == 0 and i >= 2
                t0 = time.perf_counter()
                c0 = time.process_time(), server_cpu_s(pid)
                m.add([bf.observation(label, lo, hi, stamp) for k in cells for label, lo, hi in bf.cell_boxes(k)],
                      bf.camera_over(cells[0], stamp))
                if counted and profile is not None:
                    profile.enable()
                m.commit()
                if counted and profile is not None:
                    profile.disable()
                if counted:
                    wall.append(time.perf_counter() - t0)
                    cpu.append((time.process_time() - c0[0], server_cpu_s(pid) - c0[1]))
    finally:
        for m in writers:
            m.close()
    counted = args.frames - 2
    per = {k: round(v / counted, 1) for k, v in traffic.snapshot().items()}
    timed = getattr(traffic, "waited_s_by_sql", None) or {}  # (a tree before the timing: counts only)
    waited_ms = 1e3 * sum(timed.values()) / counted
    print(f"{args.writers} writer(s), {args.objects} objects, writer 0's stage + commit, mean of {counted} frames: "
          f"{per['round_trips']} round trips, {per['statements']} statements, {per['pipelined']} pipelined, "
          f"{per.get('server_statements', per['statements'])} sent to the server; "
          f"{1e3 * sum(wall) / counted:.1f} ms, of which {waited_ms:.1f} ms waiting for the server "
          f"(load average {os.getloadavg()[0]:.2f})")
    mine, server = (1e3 * sum(c[k] for c in cpu) / counted for k in (0, 1))
    print(f"  CPU per frame (stage + commit): {mine:.1f} ms in this process, {server:.1f} ms in its server process "
          f"(/proc, 10 ms ticks: a mean over the frames)")
    print("  waits/frame  ms/frame  statement")
    key = traffic.waited_by_sql if args.by == "count" or not timed else timed
    for sql, _ in key.most_common(args.top):
        n, s = traffic.waited_by_sql[sql], timed.get(sql, 0.0)
        print(f"  {n / counted:11.1f}  {1e3 * s / counted:8.2f}  {' '.join(sql.split())[:130]}")
    sent = getattr(traffic, "sent_by_sql", None)  # (a tree before the count per text: none)
    if sent:
        print("  sent/frame  statement (every statement run, pipelined and batched ones too)")
        for sql, n in sent.most_common(args.top):
            print(f"  {n / counted:10.1f}  {' '.join(sql.split())[:130]}")
    if profile is not None:
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("tottime").print_stats(args.profile)
        stats.sort_stats("cumulative").print_stats(args.profile)
        print(out.getvalue())


if __name__ == "__main__":
    main()
