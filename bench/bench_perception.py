#!/usr/bin/env python3
"""Per-frame cost of the perception pipeline on ONE core: 640x480 depth, 20 instances.

Why pinned: the target is "<= 30 ms median per frame on one core, denoising included"; numpy, scipy
and open3d would otherwise spread work over every core and hide the real single-core cost. Thread
counts are fixed through the environment BEFORE numpy/open3d are imported (they read it once).

Usage: .venv/bin/python bench/bench_perception.py [--frames 100] [--instances 20] [--cpu N]
Prints median and p95 milliseconds per frame for: decode (16UC1 depth + mask), extraction with each
outlier method, the camera view, and the whole frame with the default configuration; wall-clock time
is the figure that counts, and the thread's CPU time is printed next to it because on a shared machine
other processes inflate wall time but not CPU time (a large gap means the machine was busy). With --node, also
PerceptionNode.process_frame on ROS messages (decode + extract + view + message building + publish to
no subscriber), in an rclpy context kept on loopback (ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST).
"""

from __future__ import annotations

import argparse
import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import time  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tempomem_ros.perception import (  # noqa: E402
    PerceptionConfig,
    decode_depth,
    decode_mask,
    extract_observations,
    make_camera_view,
)
from tempomem_ros.perception.denoise import open3d_module  # noqa: E402
from tempomem_ros.perception.image import encode_uint16  # noqa: E402
from tempomem_ros.perception.synthetic import bench_scene  # noqa: E402


def _stats(samples: list[tuple[float, float]]) -> str:
    wall = np.asarray([w for w, _ in samples]) * 1000.0
    cpu = np.asarray([c for _, c in samples]) * 1000.0
    return (
        f"median {np.median(wall):7.2f} ms   p95 {np.percentile(wall, 95):7.2f} ms   "
        f"(cpu median {np.median(cpu):6.2f} ms)"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100, help="timed frames per case (default 100)")
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--scenes", type=int, default=5, help="distinct seeded scenes, cycled")
    parser.add_argument("--cpu", type=int, default=None, help="core to pin to (default: first allowed)")
    parser.add_argument("--node", action="store_true", help="also time the ROS node's process_frame")
    parser.add_argument(
        "--accuracy",
        action="store_true",
        help="also print box errors vs ground truth (mask bleed 1 and 2 px; depth trim off, then on)",
    )
    args = parser.parse_args(argv)

    cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    o3d = open3d_module()
    print(
        f"pinned to cpu {cpu}; open3d {'%s' % o3d.__version__ if o3d else 'not importable (scipy fallback)'}"
    )

    scenes = [bench_scene(args.instances, args.width, args.height, seed) for seed in range(args.scenes)]
    encoded = []
    for depth, mask, *_ in scenes:
        mm = np.where(np.isfinite(depth), np.round(depth * 1000.0), 0).astype(np.uint16)
        encoded.append((encode_uint16(mm), encode_uint16(mask)))

    cases = {
        "extract statistical (default)": PerceptionConfig(),
        "extract statistical, no depth trim": PerceptionConfig(depth_edge_step=0.0),
        "extract statistical, scipy": PerceptionConfig(use_open3d=False),
        "extract radius": PerceptionConfig(outlier_method="radius"),
        "extract no denoising": PerceptionConfig(outlier_method="none"),
    }
    print(
        f"{args.width}x{args.height}, {args.instances} instances, {args.frames} frames per case, "
        f"{args.scenes} scenes"
    )

    def run(fn) -> list[tuple[float, float]]:
        for i in range(3):  # warm-up: imports, caches, open3d's first call
            fn(i)
        samples = []
        for i in range(args.frames):
            start, start_cpu = time.perf_counter(), time.thread_time()
            fn(i)
            samples.append((time.perf_counter() - start, time.thread_time() - start_cpu))
        return samples

    def decode(i):
        depth_msg, mask_msg = encoded[i % len(encoded)]
        decode_depth(depth_msg)
        decode_mask(mask_msg)

    print(f"{'decode 16UC1 depth + mask':34s} {_stats(run(decode))}")
    observations = {}
    for name, config in cases.items():

        def extract(i, config=config, name=name):
            depth, mask, ids, labels, conf, intrinsics, T, _ = scenes[i % len(scenes)]
            obs, _ = extract_observations(depth, mask, ids, labels, conf, intrinsics, T, 1.0, config=config)
            observations[name] = len(obs)

        print(f"{name:34s} {_stats(run(extract))}   observations/frame {observations[name]}")

    def view(i):
        depth, _, _, _, _, intrinsics, T, _ = scenes[i % len(scenes)]
        make_camera_view(depth, intrinsics, T, 5.0, 0.125, 1.0)

    print(f"{'camera view (1/8 min-pool)':34s} {_stats(run(view))}")
    config = PerceptionConfig()

    def whole(i):
        _, _, ids, labels, conf, intrinsics, T, _ = scenes[i % len(scenes)]
        depth_msg, mask_msg = encoded[i % len(encoded)]
        depth, mask = decode_depth(depth_msg), decode_mask(mask_msg)
        extract_observations(depth, mask, ids, labels, conf, intrinsics, T, 1.0, config=config)
        make_camera_view(depth, intrinsics, T, config.view_max_range, config.view_scale, 1.0)

    print(f"{'whole frame (decode+extract+view)':34s} {_stats(run(whole))}")
    if args.node:
        print(f"{'node process_frame (ROS messages)':34s} {_stats(_time_node(scenes, encoded, run))}")
    print(f"frames timed per case: {args.frames}")
    if args.accuracy:
        _accuracy(args)
    return 0


def _accuracy(args) -> None:
    """Largest corner error of each box vs the rendered truth, by erosion and outlier method.

    Includes partly occluded boxes, whose visible part is honestly smaller than the truth: the
    median is the figure to compare, the max shows how far the worst box is off.
    """
    print("box corner error vs ground truth (m), all boxes of all scenes:")
    for bleed in (1, 2):
        scenes = [
            bench_scene(args.instances, args.width, args.height, seed, bleed) for seed in range(args.scenes)
        ]
        trim = PerceptionConfig().depth_edge_step
        cases = [(e, m, 0.0) for e in (0, 1, 2) for m in ("none", "statistical", "radius")]
        cases += [(e, m, trim) for e in (0, 1) for m in ("none", "statistical")]
        for erosion, method, step in cases:
            config = PerceptionConfig(outlier_method=method, mask_erosion_px=erosion, depth_edge_step=step)
            errors = []
            for scene in scenes:
                obs, _ = extract_observations(*scene[:7], 0.0, config=config)
                for o in obs:
                    low, high = scene.boxes[o.instance_id - 1]
                    errors.append(
                        max(
                            np.abs(np.subtract(o.bbox_min, low)).max(),
                            np.abs(np.subtract(o.bbox_max, high)).max(),
                        )
                    )
            e = np.asarray(errors)
            print(
                f"  bleed {bleed} px, erosion {erosion} px, depth trim {step:.2f}, {method:11s}: "
                f"median {np.median(e):.3f}  p90 {np.percentile(e, 90):.3f}  max {e.max():.3f}  boxes {e.size}"
            )


def _time_node(scenes, encoded, run) -> list[tuple[float, float]]:
    """process_frame of a real PerceptionNode on ROS messages built from the bench scenes."""
    os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
    import rclpy  # noqa: PLC0415 - only for --node
    from geometry_msgs.msg import PoseStamped  # noqa: PLC0415
    from sensor_msgs.msg import CameraInfo, Image  # noqa: PLC0415
    from tempomem_ros.msg import InstanceMasks  # noqa: PLC0415

    from tempomem_ros.nodes.perception_node import PerceptionNode  # noqa: PLC0415
    from tempomem_ros.perception import matrix_to_pose  # noqa: PLC0415

    def image(raw, sec):
        msg = Image(height=raw.height, width=raw.width, encoding=raw.encoding, step=raw.step)
        msg.header.stamp.sec, msg.data = sec, raw.data
        return msg

    frames = []
    for index, ((_, _, ids, labels, conf, intrinsics, T, _), (depth_raw, mask_raw)) in enumerate(
        zip(scenes, encoded)
    ):
        masks = InstanceMasks(ids=list(ids), labels=list(labels), confidences=list(conf))
        masks.header.stamp.sec, masks.mask = index, image(mask_raw, index)
        pose = PoseStamped()
        pose.header.frame_id = "map"
        (pose.pose.position.x, pose.pose.position.y, pose.pose.position.z), q = matrix_to_pose(T)
        o = pose.pose.orientation
        o.x, o.y, o.z, o.w = q
        frames.append((image(depth_raw, index), masks, pose))
    intr = scenes[0].intrinsics
    info = CameraInfo(width=intr.width, height=intr.height)
    info.k = [intr.fx, 0.0, intr.cx, 0.0, intr.fy, intr.cy, 0.0, 0.0, 1.0]
    info.p = [intr.fx, 0.0, intr.cx, 0.0, 0.0, intr.fy, intr.cy, 0.0, 0.0, 0.0, 1.0, 0.0]
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        node = PerceptionNode(context=context)
        node.on_camera_info(info)
        samples = run(lambda i: node.process_frame(*frames[i % len(frames)]))
        assert sum(node.drops.values()) == 0, node.drops
        node.destroy_node()
    finally:
        context.try_shutdown()
    return samples


if __name__ == "__main__":
    sys.exit(main())
