"""bench_fleet_accuracy's judgement of the fleet against the one robot (issue 15's "the same object map and events as
one robot seeing both paths"): the figure printed is only as good as the pairing behind it, so the pairing is checked
on stores whose answer is known."""

from __future__ import annotations

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_fleet_accuracy",
                                              os.path.join(HERE, "..", "bench", "bench_fleet_accuracy.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def store(objects, events):
    return {"final": [{"label": lab, "center": list(c)} for lab, c in objects],
            "event_list": [{"kind": k, "label": lab, "stamp": t} for k, lab, t in events]}


def test_the_same_map_and_events_agree_whole():
    one = store([("mug", (1, 0, 0.8)), ("chair", (2, 2, 0.4))], [("appeared", "mug", 10.0), ("moved", "chair", 600.0)])
    fleet = store([("chair", (2.1, 2, 0.4)), ("mug", (1, 0.05, 0.8))],
                  [("moved", "chair", 601.5), ("appeared", "mug", 10.0)])
    assert bench.against_reference(one, fleet) == {
        "map_f1": 1.0, "objects_matched": 2, "objects_ref": 2, "objects_fleet": 2,
        "events_matched": 2, "events_ref": 2, "events_fleet": 2}


def test_a_cross_robot_double_a_far_object_and_a_late_event_are_not_paired():
    one = store([("mug", (1, 0, 0.8)), ("book", (3, 0, 0.8))], [("moved", "book", 600.0)])
    # a second mug beside the first (a double), the book 0.6 m off (beyond MATCH_DIST 0.5), its move 2.5 s late,
    # and an event of another kind at the same time
    fleet = store([("mug", (1, 0, 0.8)), ("mug", (1.1, 0, 0.8)), ("book", (3.6, 0, 0.8))],
                  [("moved", "book", 602.5), ("removed", "book", 600.0)])
    got = bench.against_reference(one, fleet)
    assert got == {"map_f1": 2 * 1 / 5, "objects_matched": 1, "objects_ref": 2, "objects_fleet": 3,
                   "events_matched": 0, "events_ref": 1, "events_fleet": 2}


def test_a_label_read_otherwise_is_another_object():
    one = store([("cup", (1, 0, 0.8))], [])
    fleet = store([("mug", (1, 0, 0.8))], [])
    assert bench.against_reference(one, fleet)["objects_matched"] == 0
    assert bench.against_reference(store([], []), store([], []))["map_f1"] == 1.0


def fuse_in_a_worker(path: str, n_frames: int, *extra: str) -> list[int]:
    """bench_fleet_accuracy's fuser worker on ``path`` until ``n_frames`` are fused; the frames of each batch."""
    import json
    import subprocess
    import sys

    run = subprocess.run([sys.executable, spec.origin, "--worker", "fuser", "--address", path, "--n-frames",
                          str(n_frames), "--dim", "8", *extra], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return [len(b["frames"]) for b in json.loads(run.stdout.strip().splitlines()[-1])["batches"]]


def test_the_fuser_fuses_at_most_fifty_frames_a_batch_unless_told_otherwise(tmp_path):
    # as bench_fleet's fuser (test_bench_fleet_fuser.py): unbounded, a backlog was one transaction holding the fusion
    # lock past another writer's 5 s timeout
    from core_helpers import box_obs

    from tempomem_ros.core import Memory

    assert bench.FLEET_FUSE_BATCH == 50
    path = str(tmp_path / "fleet.db")
    stamps = iter(range(1, 1000))
    with Memory.open(path, embedding_dim=8) as robot:
        def stage(n: int) -> None:
            for _ in range(n):
                robot.add([box_obs("mug", (1.0, 0.0, 0.8), stamp=float(next(stamps)))], source="robot_a")

        stage(52)
        assert fuse_in_a_worker(path, 52) == [50, 2]
        stage(52)
        assert fuse_in_a_worker(path, 52, "--max-frames", "0") == [52]
        stage(5)
        assert fuse_in_a_worker(path, 5, "--max-frames", "2") == [2, 2, 1]
        assert robot.pending() == 0
