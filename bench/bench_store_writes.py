"""Staging a frame's observations: the hand-written INSERTs of Memory.add against sqlite-utils' insert_all.

Run: .venv/bin/python bench/bench_store_writes.py [--frames 400] [--per-frame 20] [--rounds 5]
Why: the design names sqlite-utils for the store; this says with a figure whether the write path may use it.
Each round stages the same frames into fresh stores three ways, interleaved so that machine noise hits all
alike, one transaction per frame as Memory.add does: (a) one execute per observation (what Memory._stage
does: it needs each observation's id), (b) one executemany per frame, (c) sqlite_utils Table.insert_all per
frame. Prints the median milliseconds per frame of each, and the ratio to (a).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

from tempomem_ros.core import Memory
from tempomem_ros.core.store.schema import sqlite3

COLS = ("frame_id", "stamp", "recorded_at", "label", "confidence", "cx", "cy", "cz", "min_x", "min_y", "min_z",
        "max_x", "max_y", "max_z", "feature", "n_points", "instance_id", "verdict", "source")
INSERT = f"INSERT INTO observations ({', '.join(COLS)}) VALUES ({','.join('?' * len(COLS))})"


def frames(n: int, per: int, dim: int = 32, seed: int = 0) -> list[list[tuple]]:
    rng = np.random.default_rng(seed)
    out = []
    for f in range(n):
        rows = []
        for i in range(per):
            c = rng.uniform(-5, 5, 3)
            feat = rng.standard_normal(dim).astype(np.float32).tobytes()
            rows.append((f + 1, float(f), 0.0, "mug", 0.9, *c, *(c - 0.05), *(c + 0.05), feat, 100, i, "pending", ""))
        out.append(rows)
    return out


def fresh(path: str):
    Memory.open(path, embedding_dim=32, vector_index="off").close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def stage(conn, data, how: str) -> float:
    import sqlite_utils

    table = sqlite_utils.Database(conn)["observations"] if how == "sqlite_utils" else None
    t0 = time.perf_counter()
    for rows in data:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO frames (stamp, recorded_at, status, has_view, n_observations, source) "
                     "VALUES (?, 0, 'pending', 0, ?, '')", (rows[0][1], len(rows)))
        if how == "execute":
            for r in rows:
                conn.execute(INSERT, r)
        elif how == "executemany":
            conn.executemany(INSERT, rows)
        else:
            table.insert_all([dict(zip(COLS, r)) for r in rows])
        conn.execute("COMMIT")
    return (time.perf_counter() - t0) * 1e3 / len(data)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=400)
    ap.add_argument("--per-frame", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    data = frames(args.frames, args.per_frame)
    ways = ("execute", "executemany", "sqlite_utils")
    times: dict[str, list[float]] = {w: [] for w in ways}
    with tempfile.TemporaryDirectory() as d:
        for r in range(args.rounds):
            order = ways[r % 3:] + ways[:r % 3]
            for how in order:
                path = os.path.join(d, f"{how}-{r}.db")
                conn = fresh(path)
                try:
                    times[how].append(stage(conn, data, how))
                finally:
                    conn.close()
    base = statistics.median(times["execute"])
    print(f"staging {args.frames} frames x {args.per_frame} observations, one transaction per frame, "
          f"{args.rounds} rounds (median ms per frame)")
    for how in ways:
        med = statistics.median(times[how])
        print(f"  {how:<13} {med:7.3f} ms/frame   x{med / base:5.2f}   rounds: "
              + " ".join(f"{t:.3f}" for t in times[how]))


if __name__ == "__main__":
    main()
