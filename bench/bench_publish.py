"""Cost of one scene graph + marker publish of the memory node, by store size and publishing path.

Why it matters: the node republishes the whole graph after a commit that changed something, at most
``publish_max_duty`` of the time, so this cost sets how fresh /tempomem/scene_graph is at a given size, and
the longest single GIL hold inside it sets how long a service can be held up.

For each size the store is the one bench_services.py builds (supports with one item each, cached under
/tmp), opened by an in-process memory_node; publish_scene() is timed cold (first publish: every message and
serialization built), unchanged (median of 5 repeats with nothing changed) and after a commit (median of 5
publishes, each after a commit that re-observed 10 objects), with publish_serialized true (joined
per-element bytes) and false (rclpy converts the whole message inside publish()). The last column is the
longest single publisher.publish() call after the cold one: one C call that holds the GIL.

    ROS_DOMAIN_ID=116 ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST .venv/bin/python bench/bench_publish.py
    options: --objects N [N ...]

Prints one line per size and path; figures are machine-dependent and never asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "116")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_services import T0, EMBEDDING_DIM, build_store, cell_boxes, observation, store_objects  # noqa: E402


def n_objects(path: str) -> int:
    return int(os.path.basename(path).split("_")[-1].split(".")[0])


def time_publish(path: str, serialized: bool) -> tuple[float, float, float, float, int]:
    import rclpy
    from rclpy.parameter import Parameter

    from tempomem_ros.nodes.memory_node import MemoryNode

    work = path + ".publish.db"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(work + suffix):
            os.remove(work + suffix)
    shutil.copyfile(path, work)
    context = rclpy.Context()
    rclpy.init(context=context)
    node = MemoryNode(context=context, parameter_overrides=[
        Parameter("store_path", value=work), Parameter("embedding_dim", value=EMBEDDING_DIM),
        Parameter("publish_serialized", value=serialized)])
    inside: list[float] = []  # ms inside publish(): one C call holding the GIL (message conversion)
    for name in ("graph", "markers"):
        pub = node._tm_publishers[name]

        def timed(msg, _publish=pub.publish):
            t0 = time.perf_counter()
            _publish(msg)
            inside.append((time.perf_counter() - t0) * 1e3)

        pub.publish = timed
    try:
        t = time.perf_counter()
        node.publish_scene()
        cold = (time.perf_counter() - t) * 1e3
        warm, after_commit = [], []
        for _ in range(5):
            t = time.perf_counter()
            node.publish_scene()
            warm.append((time.perf_counter() - t) * 1e3)
        cells = (n_objects(path) // 2)
        for i in range(5):  # a commit that re-observes 5 supports and their items (10 objects) first
            obs = [observation(label, lo, hi, T0 + 500.0 + i)
                   for k in range(i * 5, i * 5 + 5) for label, lo, hi in cell_boxes(k * 97 % cells)]
            node.writer.add(obs)
            node.writer.commit()
            t = time.perf_counter()
            node.publish_scene()
            after_commit.append((time.perf_counter() - t) * 1e3)
        n = len(node.viewer.objects())
        longest = max(inside[2:])  # all but the cold publish
    finally:
        node.close_store()
        node.destroy_node()
        context.try_shutdown()
    return cold, statistics.median(warm), statistics.median(after_commit), longest, n


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--objects", type=int, nargs="+", default=[1000, 10000])
    args = p.parse_args(argv)
    print(f"{'objects':>8} {'path':<11} {'cold ms':>8} {'unchanged ms':>13} {'after commit ms':>16} "
          f"{'longest publish() ms':>21}")
    for n in args.objects:
        path = f"/tmp/tempomem_bench_{n}.db"
        if store_objects(path) < n:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)
            build_store(path, n)
        for serialized in (True, False):
            cold, warm, after, longest, count = time_publish(path, serialized)
            print(f"{count:>8} {'bytes' if serialized else 'messages':<11} {cold:>8.1f} {warm:>13.1f} {after:>16.1f} "
                  f"{longest:>21.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
