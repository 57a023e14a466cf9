"""bench_fleet's fuser process fuses in bounded batches by default (issue 15, stop 45): unbounded, its batches behind a
backlog (192-631 frames at stop 44) held the fusion lock past another writer's 5 s timeout, so a node's forget and
define_region were refused. Its bound is `tempomem fuse`'s and the memory node's (FLEET_FUSE_BATCH, 50), changed with
--fuser-max-frames (0: every staged frame). Run as bench_fleet_services starts it: a worker process on the store."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

from core_helpers import box_obs

from tempomem_ros.core import Memory

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "bench", "bench_fleet.py")
spec = importlib.util.spec_from_file_location("bench_fleet", BENCH)
fleet = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fleet)


def fuse_in_a_worker(path: str, *extra: str) -> list[int]:
    """The fuser worker of bench_fleet on ``path`` until nothing is staged; the frames of each of its batches."""
    run = subprocess.run([sys.executable, BENCH, "--worker", "fuser", "--address", path, "--seconds", "-2",
                          "--start-at", "0", *extra], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return [len(b["frames"]) for b in json.loads(run.stdout.strip().splitlines()[-1])["batches"]]


def test_the_fuser_fuses_at_most_fifty_frames_a_batch_unless_told_otherwise(tmp_path):
    assert fleet.FLEET_FUSE_BATCH == 50
    path = str(tmp_path / "fleet.db")
    stamps = iter(range(1, 1000))
    with Memory.open(path, embedding_dim=fleet.EMBEDDING_DIM) as robot:
        def stage(n: int) -> None:
            for _ in range(n):
                robot.add([box_obs("mug", (1.0, 0.0, 0.8), stamp=float(next(stamps)))], source="robot_1")

        stage(52)
        assert fuse_in_a_worker(path) == [50, 2]
        stage(52)
        assert fuse_in_a_worker(path, "--fuser-max-frames", "0") == [52]
        stage(5)
        assert fuse_in_a_worker(path, "--fuser-max-frames", "2") == [2, 2, 1]
        assert robot.pending() == 0
