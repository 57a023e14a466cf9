"""Run a bag through the perception math and the core memory without ROS, and snapshot the answers.

Why: the scores must not depend on the transport, and this path runs in seconds, so it is how memory
changes are iterated on; `tempomem_eval --mode nodes` runs the same bag through the real nodes and must
give the same numbers (docs/RESULTS.md shows both). It uses exactly the functions the perception node uses
(decode, intrinsics, pose, extract_observations, make_camera_view) with the same default configuration.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from tempomem_ros import topics
from tempomem_ros.core import Memory, MemoryConfig
from tempomem_ros.perception import (
    PerceptionConfig,
    decode_depth,
    decode_mask,
    extract_observations,
    intrinsics_from_camera_info,
    make_camera_view,
    pose_to_matrix,
)
from tempomem_ros.tools import bagio

from .snapshot import snapshot_from_memory


def frames_from_bag(path) -> list[dict]:
    """Messages of the bag grouped by header stamp: {stamp_ns: {topic: message}} in stamp order."""
    by_stamp: dict[int, dict] = defaultdict(dict)
    for m in bagio.iter_messages(path):
        msg = bagio.deserialize(m.rawdata, m.msgtype)
        stamp = msg.header.stamp.sec * 10**9 + msg.header.stamp.nanosec
        by_stamp[stamp][m.topic] = msg
    return [dict(stamp_ns=s, **{"msgs": by_stamp[s]}) for s in sorted(by_stamp)]


def run_offline(bag_path, store_path: str, *, embedding_dim: int = 32, memory_config: dict | None = None,
                perception: PerceptionConfig | None = None, commit_every: int = 1) -> Memory:
    """Fuse every complete frame of the bag into a new store; returns the open Memory."""
    mem = Memory.open(store_path, embedding_dim=embedding_dim, config=MemoryConfig.from_dict(memory_config or {}))
    for n, obs, view, stamp in observed_frames(bag_path, perception):
        mem.add(obs, view, stamp=stamp)
        if (n + 1) % commit_every == 0:
            mem.commit()
    mem.commit()
    return mem


def observed_frames(bag_path, perception: PerceptionConfig | None = None):
    """(index in the bag, observations, camera view, stamp) of every complete frame of the bag, in stamp order, as
    the perception node makes them (the index counts the incomplete frames too: run_offline's commit_every)."""
    pcfg = perception or PerceptionConfig()
    info = None
    for n, frame in enumerate(frames_from_bag(bag_path)):
        msgs = frame["msgs"]
        info = msgs.get(topics.CAMERA_INFO, info)
        if not all(t in msgs for t in (topics.DEPTH, topics.INSTANCES, topics.POSE)) or info is None:
            continue
        intr = intrinsics_from_camera_info(list(info.k), list(info.p), int(info.width), int(info.height),
                                           source=pcfg.intrinsics_source)
        depth = decode_depth(msgs[topics.DEPTH], unit_16u=pcfg.depth_unit_16u)
        inst = msgs[topics.INSTANCES]
        mask = decode_mask(inst.mask)
        pose = msgs[topics.POSE].pose
        T = pose_to_matrix((pose.position.x, pose.position.y, pose.position.z),
                           (pose.orientation.x, pose.orientation.y, pose.orientation.z, pose.orientation.w))
        ids = [int(i) for i in inst.ids]
        feats = None
        if inst.feature_dim:
            feats = np.asarray(inst.features, np.float32).reshape(len(ids), int(inst.feature_dim))
        stamp = frame["stamp_ns"] / 1e9
        obs, _ = extract_observations(depth, mask, ids, list(inst.labels), [float(c) for c in inst.confidences],
                                      intr, T, stamp, features=feats, config=pcfg)
        view = make_camera_view(depth, intr, T, pcfg.view_max_range, scale=pcfg.view_scale, stamp=stamp,
                                min_object_pixels=pcfg.min_mask_pixels)
        yield n, obs, view, stamp


def evaluate_offline(bag_path, store_path: str, gt: dict, questions: list[dict], **kw) -> dict:
    mem = run_offline(bag_path, store_path, **kw)
    try:
        return snapshot_from_memory(mem, gt, questions)
    finally:
        mem.close()
