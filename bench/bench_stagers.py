"""Four robots staging at once into one PostgreSQL store (bench_fleet.py --fuser without the fuser and the asker):
what each staging waits for, and how long the stagers' serial section is held.

Why: bench_stage_profile.py stages from one process, one frame after another, so it never shows the queue of the
stagers behind each other (the staging lock and the id counters' rows, held to the end of a staging's transaction);
bench_fleet.py shows it inside the fuser's and the asker's load. Here only the stagers run. Per staged frame: wall,
process time, the wait of the lock's round trip (BEGIN, the staging lock, "now", the quarantined frames, the ids:
the lock wait is in it) and of the COMMIT's (the rows, the COMMIT and, on a tree that has it, the flush), statements,
statements sent, round trips; over the run: frames staged a second, WAL bytes a frame (the server's insert position
around the run), and **the staging lock's hold**: a monitor connection reads pg_locks every --sample s and counts the
samples in which a staging holds STAGE_LOCK_KEY; busy share / frames a second = the mean time a frame holds it.

The store is an empty one per database (the staging's statements do not read objects); bench_fleet's frames (10
cells, 20 sightings, a camera view with a 60x80 depth), each robot in its own quarter, all on one world clock.
``--rate 0``: each robot stages as fast as it can (the serial section then bounds the frames a second).

    python bench/bench_stagers.py [--robots 4] [--seconds 20] [--rate 10] [--address URL | (own cluster)]
        [--sample 0.002]

Run with PYTHONPATH naming the tree to measure; several trees side by side: give each its own database of one
cluster (--address) and alternate. Prints figures; asserts none.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("TEMPOMEM_BENCH_OBJECTS", "10000")

STAGE_LOCK_KEY = 0x746D7374  # postgres/connection.py (the same in every tree that has a staging lock)


def stager(address: str, index: int, n_robots: int, seconds: float, start_at: str, rate: float) -> dict:
    """One robot: stage bench_fleet's frames every 1/rate s (rate 0: back to back) until ``seconds`` have passed.
    ``start_at`` "-": says "ready" once its Memory is open, and reads the start time from its input (every robot
    imports and opens first: on a loaded machine that takes seconds)."""
    import bench_fleet as bf

    from tempomem_ros.core import Memory

    quarter = bf.CELLS // n_robots
    rows = []
    with Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": f"robot_{index}"}) as m:
        traffic = m._conn.traffic
        if start_at == "-":
            print("ready", flush=True)
            start_at = sys.stdin.readline()
        start_at = float(start_at)
        while time.time() < start_at:
            time.sleep(0.001)
        t_start = time.monotonic()
        i = 0
        while time.monotonic() - t_start < seconds:
            if rate > 0:
                due = t_start + i / rate
                if due > time.monotonic():
                    time.sleep(due - time.monotonic())
            stamp = bf.T0 + 200.0 + (time.time() - start_at)  # one world clock for all robots
            cells = [index * quarter + (i * bf.CELLS_PER_FRAME + j) % quarter for j in range(bf.CELLS_PER_FRAME)]
            obs = [bf.observation(label, lo, hi, stamp) for k in cells for label, lo, hi in bf.cell_boxes(k)]
            view = bf.camera_over(cells[0], stamp)
            traffic.reset()
            c0, t0 = time.process_time(), time.perf_counter()
            m.add(obs, view)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            lock = sum(v for k, v in traffic.waited_s_by_sql.items() if k.startswith("BEGIN"))
            commit = traffic.waited_s_by_sql.get("(end of pipeline)", 0.0)
            rows.append((wall * 1e3, cpu * 1e3, lock * 1e3, commit * 1e3, traffic.statements,
                         traffic.server_statements, traffic.round_trips))
            i += 1
        m.close(fuse=False)
    return {"rows": rows}


def pct(values, p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def run(address: str, robots: int, seconds: float, rate: float, sample_s: float) -> dict:
    import psycopg

    admin = psycopg.connect(address, autocommit=True)
    schema = admin.execute("SELECT current_schema()").fetchone()[0]
    # open the store once (created by this tree's package if new) before the robots start
    from tempomem_ros.core import Memory

    import bench_fleet as bf
    Memory.open(address, embedding_dim=bf.EMBEDDING_DIM).close(fuse=False)
    procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", address, str(r), str(robots),
                               str(seconds), "-", str(rate)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for r in range(robots)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    start_at = time.time() + 0.5
    for p in procs:
        p.stdin.write(f"{start_at!r}\n")
        p.stdin.flush()
    while time.time() < start_at:
        time.sleep(0.005)
    lsn0 = admin.execute("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn").fetchone()[0]
    held = samples = 0
    probe = ("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = %s AND objid = "
             "hashtext(%s)::oid")
    key = STAGE_LOCK_KEY
    end = start_at + seconds
    while time.time() < end:
        held += admin.execute(probe, (key, schema)).fetchone()[0] > 0
        samples += 1
        time.sleep(sample_s)
    results = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]  # each ends at start + seconds
    lsn1 = admin.execute("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn").fetchone()[0]
    admin.close()
    rows = [row for r in results for row in r["rows"]]
    n = len(rows)
    busy = held / samples if samples else float("nan")
    per_s = n / seconds
    return {"frames": n, "frames_per_s": per_s, "wal_bytes_per_frame": float(lsn1 - lsn0) / n if n else 0.0,
            "lock_held_share": busy, "lock_held_ms_per_frame": busy / per_s * 1e3 if per_s else float("nan"),
            "samples": samples, "rows": rows}


def report(figures: dict, load: str) -> None:
    rows = figures["rows"]
    cols = list(zip(*rows)) if rows else [()] * 7
    stat = Counter()
    for name, col in zip(("wall", "cpu", "lock_rt", "commit_rt"), cols[:4]):
        stat[name] = (pct(col, 50), pct(col, 95), sum(col) / len(col) if col else float("nan"))
    print(f"load {load}: {figures['frames']} frames ({figures['frames_per_s']:.1f}/s), "
          f"WAL {figures['wal_bytes_per_frame']:.0f} B a frame; staging lock held {figures['lock_held_share']:.1%} "
          f"of {figures['samples']} samples = {figures['lock_held_ms_per_frame']:.2f} ms a frame")
    for name in ("wall", "cpu", "lock_rt", "commit_rt"):
        p50, p95, mean = stat[name]
        print(f"  {name:9s} p50 {p50:7.2f}  p95 {p95:7.2f}  mean {mean:7.2f} ms")
    if rows:
        print(f"  statements {Counter(cols[4]).most_common(2)}, sent {Counter(cols[5]).most_common(2)}, "
              f"round trips {Counter(cols[6]).most_common(2)} (value, frames)")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        a = sys.argv[2:]
        print(json.dumps(stager(a[0], int(a[1]), int(a[2]), float(a[3]), a[4], float(a[5]))), flush=True)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--robots", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--rate", type=float, default=10.0, help="frames a second per robot (0: back to back)")
    ap.add_argument("--address", default=None, help="a PostgreSQL store (default: an own throwaway cluster)")
    ap.add_argument("--sample", type=float, default=0.002, help="seconds between two reads of pg_locks")
    ap.add_argument("--json", default=None, help="also write the figures (every frame's row) here")
    args = ap.parse_args()
    load = " ".join(f"{v:.1f}" for v in os.getloadavg())
    if args.address is None:
        from tempomem_ros.tools.pg_sandbox import PgSandbox

        with PgSandbox.start(durable=True) as pg:
            pg.create_database("stagers")
            pg.psql("CREATE EXTENSION postgis", "stagers")
            figures = run(pg.url("stagers"), args.robots, args.seconds, args.rate, args.sample)
    else:
        figures = run(args.address, args.robots, args.seconds, args.rate, args.sample)
    report(figures, load)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(figures, fh)


if __name__ == "__main__":
    main()
