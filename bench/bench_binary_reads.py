"""The candidates' read of a frame (Store.objects_in_boxes, as fusion asks it) fetched as text and in binary, alternated
in one process: the client's process time per read (postgres/connection.py PgConnection._fetch_read).

Why in one process, alternated: the machine's load moves a whole run's CPU per frame by more than this change, while
two forms of one read taken turn about see the same load. The store is bench_fleet's 10,000 objects (built once,
cached: --store) in a throwaway cluster; the boxes are bench_fleet's frames' (20 sightings grown by fusion's
candidate dilation, and the camera's view box), 64 frames over the four quarters. Prints the median and least
process time per read of each form, and asserts both read the same rows.

    python bench/bench_binary_reads.py [--store S] [--rounds 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_10k.db"))
    ap.add_argument("--rounds", type=int, default=30)
    args = ap.parse_args()
    import bench_fleet as bf
    import numpy as np

    from tempomem_ros.core import Memory
    from tempomem_ros.core.frame_fusion import _view_box

    with bf.served_store(args.store, "tempomem_bench_binary_") as address:
        m = Memory.open(address, embedding_dim=bf.EMBEDDING_DIM, config={"source": "robot_0"})
        conn, store = m._conn, m._store
        dil = m.config.fusion.candidate_dilation
        quarter = bf.CELLS // 4
        frames = []
        for n in range(64):
            r, i = n % 4, n // 4
            cells = [r * quarter + (i * bf.CELLS_PER_FRAME + j) % quarter for j in range(bf.CELLS_PER_FRAME)]
            boxes = [(np.array(lo) - dil, np.array(hi) + dil) for k in cells for _, lo, hi in bf.cell_boxes(k)]
            frames.append(boxes + [_view_box(bf.camera_over(cells[0], 0.0))])
        states = ("present", "missing", "tentative")

        def read(binary: bool) -> tuple[float, list]:
            out = []
            t = time.process_time()
            for boxes in frames:
                for sql in conn._binary_reads:
                    conn._binary_reads[sql] = binary
                out.append(store.objects_in_boxes(boxes, states, entries={}))
            return (time.process_time() - t) / len(frames), out

        _, text_rows = read(False)  # the statements' texts learned, the caches warm
        _, binary_rows = read(True)
        assert binary_rows == text_rows
        times: dict[bool, list[float]] = {False: [], True: []}
        for k in range(args.rounds):
            for binary in ((False, True) if k % 2 else (True, False)):
                times[binary].append(read(binary)[0])
        print(f"load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs); {len(frames)} frames, "
              f"{sum(len(c) for f in text_rows for c in f)} candidate rows; {args.rounds} rounds alternated")
        for binary, label in ((False, "text"), (True, "binary")):
            print(f"{label:6s}: {statistics.median(times[binary]) * 1e3:.3f} ms per frame's read (median), "
                  f"least {min(times[binary]) * 1e3:.3f} ms")
        m.close()


if __name__ == "__main__":
    main()
