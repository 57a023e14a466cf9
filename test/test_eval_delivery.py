"""What the nodes-mode evaluation (tools/evaluation/pipeline.py) replays reaches the perception node, counted.

Why: the node's sensor subscriptions are reliable KEEP_LAST qos_depth; a node that falls qos_depth messages behind
has its oldest ones overwritten before its executor takes them (stop 49: 1,132 of 1,135 frames reached it),
a loss the node itself never sees. The replay is paced by what the node's callbacks took (PerceptionNode.received),
so nothing can be overwritten; what reached the node is counted against the bag per topic, and a loss raises.
Here a node slowed to 40 ms a frame with a history of 2 messages, fed a 30-frame bag without a gap.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"  # never put test traffic off loopback

from tempomem_ros import topics  # noqa: E402
from tempomem_ros.tools import bagio  # noqa: E402

T0 = 1_768_464_000_000_000_000
FRAMES = 30
PLAYED = (topics.CAMERA_INFO, topics.DEPTH, topics.INSTANCES, topics.POSE)


@pytest.fixture(scope="module")
def bag(tmp_path_factory):
    """30 frames at 10 Hz, 64 x 48: a wall 2 m ahead, no instance (each frame is still perceived and staged)."""
    path = tmp_path_factory.mktemp("delivery") / "bag"
    depth = np.full((48, 64), 2000, dtype=np.uint16)
    mask = np.zeros((48, 64), dtype=np.uint16)
    with bagio.open_writer(path, topic_types={t: bagio.TOPIC_TYPES[t] for t in PLAYED}) as w:
        for i in range(FRAMES):
            t = T0 + i * 100_000_000
            w.write(topics.CAMERA_INFO, bagio.camera_info_msg(64, 48, 50.0, 50.0, 32.0, 24.0, t, "camera_optical"), t)
            w.write(topics.POSE, bagio.pose_stamped_msg((0.0, 0.0, 1.0), (-0.5, 0.5, -0.5, 0.5), t, "map"), t)
            w.write(topics.DEPTH, bagio.image_msg(depth, "16UC1", t, "camera_optical"), t)
            w.write(topics.INSTANCES, bagio.instance_masks_msg(mask, [], [], [], t, "camera_optical"), t)
    return path


@pytest.fixture
def slow_node(monkeypatch):
    """The perception node takes 40 ms a frame: 40 messages of a gapless replay arrive while it processes one."""
    from tempomem_ros.nodes.perception_node import PerceptionNode

    own = PerceptionNode.process_frame

    def slow(self, *args, **kwargs):
        time.sleep(0.04)
        return own(self, *args, **kwargs)

    monkeypatch.setattr(PerceptionNode, "process_frame", slow)


def _pipeline(tmp_path, **kwargs):
    from tempomem_ros.tools.evaluation.pipeline import NodesPipeline

    return NodesPipeline(tmp_path / "m.db", perception_params={"qos_depth": 2}, wait_limit_s=20.0, **kwargs)


def test_a_slow_perception_node_gets_every_frame_of_the_bag_and_the_run_counts_them(bag, tmp_path, slow_node):
    # before the pacing the replay outran the node: 3 of the 30 frames reached it (f1c14f0), the rest overwritten in
    # its history, and the run waited out its limit (300 s in tempomem_eval, 20 s here) to fail on the count
    with _pipeline(tmp_path) as pipe:
        info = pipe.replay(bag, FRAMES, gap=0.0)
    whole = {t: FRAMES for t in PLAYED}
    assert info["bag"] == info["received"] == info["replayed"] == whole
    assert info["lost"] == dict.fromkeys(PLAYED, 0)
    assert info["perception"]["frames_published"] == info["memory_staged_frames"] == FRAMES


def test_frames_lost_before_the_node_took_them_fail_the_run_at_once_naming_them(bag, tmp_path, slow_node):
    from tempomem_ros.tools.evaluation.pipeline import PipelineError

    with _pipeline(tmp_path, quiet_s=1.0) as pipe:
        t0 = time.monotonic()
        with pytest.raises(PipelineError, match="messages lost between the replay and the perception node") as err:
            pipe.replay(bag, FRAMES, gap=0.0, paced=False)
        assert time.monotonic() - t0 < 15.0   # not the wait limit: the node stopped receiving, the loss is known
        received = dict(pipe.perception.received)
    assert 0 < received[topics.DEPTH] < FRAMES
    assert f"'{topics.DEPTH}': {FRAMES - received[topics.DEPTH]}" in str(err.value)


def test_a_ground_truth_that_does_not_match_the_bag_is_refused(bag, tmp_path):
    from tempomem_ros.tools.evaluation.pipeline import PipelineError

    with _pipeline(tmp_path) as pipe:
        with pytest.raises(PipelineError, match=f"the bag holds {FRAMES} frames .depth images., its ground truth 31"):
            pipe.replay(bag, FRAMES + 1)


def test_the_report_says_per_scene_what_reached_the_node():
    from tempomem_ros.tools.evaluation.report import delivery

    info = {"bag": {"/a": 5, "/b": 5}, "received": {"/a": 5, "/b": 3}, "lost": {"/a": 0, "/b": 2},
            "memory_staged_frames": 3}
    assert delivery({"run": info}) == [
        "  reached the perception node (of the bag): /a 5/5, /b 3/5; LOST {'/b': 2}; the memory staged 3 frames"]
    whole = {**info, "received": {"/a": 5, "/b": 5}, "lost": {"/a": 0, "/b": 0}, "memory_staged_frames": 5}
    assert delivery({"run": whole})[0].endswith("/b 5/5; nothing lost; the memory staged 5 frames")
    assert delivery({"run": {}}) == []   # offline
