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

# A thread that raises during a test fails it: the pipeline's spin threads must end quietly (test below)
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

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


def test_the_pipeline_ends_its_spin_threads_before_it_shuts_their_executors_down(tmp_path, monkeypatch):
    # Executor.shutdown destroys the executor's guard condition. Shut down under a spinning thread (before: shutdown,
    # then join), the memory node's dispatcher could still hand a worker a callback whose handler then triggered the
    # destroyed guard: InvalidHandle, re-raised in tempomem_spin_memory_node (a PytestUnhandledThreadException
    # warning in 1 of 17 runs of this file). Now the threads are stopped and joined first.
    import threading

    from rclpy.executors import Executor

    spinning_at_shutdown = []
    own = Executor.shutdown

    def recording(self, *args, **kwargs):
        spinning_at_shutdown.append(sorted(t.name for t in threading.enumerate()
                                           if t.name.startswith("tempomem_spin_") and t.is_alive()))
        return own(self, *args, **kwargs)

    monkeypatch.setattr(Executor, "shutdown", recording)
    with _pipeline(tmp_path) as pipe:
        assert len(pipe.threads) == 3 and all(t.is_alive() for t in pipe.threads)
    assert len(spinning_at_shutdown) >= 3 and all(names == [] for names in spinning_at_shutdown)


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


def _fed_while(pipe, in_bag: dict, feed: dict):
    """Run pipe.wait_for_delivery(in_bag) while another publisher on the node's topics keeps adding ``feed``'s counts
    (a second replay or a camera driver on the same ROS_DOMAIN_ID); return (what it returned, seconds it took),
    or (None, seconds) when it had not returned 5 s after the limit (the feed is then stopped, so that it ends)."""
    import threading
    from types import SimpleNamespace

    pipe.perception = SimpleNamespace(received=dict.fromkeys(PLAYED, 0))
    stop = threading.Event()

    def foreign():
        while not stop.is_set():
            for t, n in feed.items():
                pipe.perception.received[t] += n
            time.sleep(0.005)

    out: dict = {}
    feeder = threading.Thread(target=foreign, daemon=True)
    waiter = threading.Thread(target=lambda: out.update(lost=pipe.wait_for_delivery(in_bag)), daemon=True)
    t0 = time.monotonic()
    feeder.start()
    waiter.start()
    waiter.join(pipe.wait_limit_s + 5.0)
    took = time.monotonic() - t0
    stop.set()
    feeder.join()
    waiter.join(pipe.quiet_s + 5.0)
    return out.get("lost") if took < pipe.wait_limit_s + 5.0 else None, took


def test_the_wait_for_delivery_is_bounded_while_the_node_keeps_receiving_foreign_messages(tmp_path):
    # every wait of the pipeline is bounded (wait_limit_s): the quiet window alone never ends while messages keep
    # coming, so a publisher beside the replay (same topics, same domain) made the wait endless (1d2f85a)
    from tempomem_ros.tools.evaluation.pipeline import NodesPipeline

    pipe = NodesPipeline(tmp_path / "m.db", wait_limit_s=2.0, quiet_s=1.0)   # never entered: no node, no ROS
    lost, took = _fed_while(pipe, {topics.DEPTH: 5, topics.CAMERA_INFO: 5}, {topics.CAMERA_INFO: 1})
    assert lost is not None and took < 4.0
    assert lost[topics.DEPTH] == 5 and lost[topics.CAMERA_INFO] < 0   # missing, and more than the bag holds


def test_a_surplus_is_not_waited_for(tmp_path):
    # more of a topic than the bag holds is nothing to wait for (before: the quiet window, then "lost -3")
    from types import SimpleNamespace

    from tempomem_ros.tools.evaluation.pipeline import NodesPipeline

    pipe = NodesPipeline(tmp_path / "m.db", wait_limit_s=5.0, quiet_s=2.0)
    pipe.perception = SimpleNamespace(received={topics.DEPTH: 5, topics.CAMERA_INFO: 8})
    t0 = time.monotonic()
    assert pipe.wait_for_delivery({topics.DEPTH: 5, topics.CAMERA_INFO: 5}) == {topics.CAMERA_INFO: -3,
                                                                                topics.DEPTH: 0}
    assert time.monotonic() - t0 < 1.0


def test_messages_beyond_the_bags_fail_the_run_named_as_such(bag, tmp_path):
    # another publisher on the node's topics (here 3 camera_info before the replay): the run is not the bag's alone,
    # and the error says so rather than calling it a loss of -3 messages after the quiet window
    from sensor_msgs.msg import CameraInfo

    from tempomem_ros.nodes.qos import sensor_qos
    from tempomem_ros.tools.evaluation.pipeline import NodesPipeline, PipelineError, wait_for

    # a history deeper than the bag: nothing can be overwritten, so what came beyond the bag is exactly the 3
    with NodesPipeline(tmp_path / "m.db", perception_params={"qos_depth": 100}, wait_limit_s=20.0, quiet_s=5.0) as pipe:
        pub = pipe.client.create_publisher(CameraInfo, topics.CAMERA_INFO, sensor_qos("reliable", 10))
        wait_for(lambda: pub.get_subscription_count() > 0, 10.0, "the perception node to subscribe")
        for n in (1, 2, 3):
            pub.publish(CameraInfo(width=64, height=48))
            wait_for(lambda n=n: pipe.perception.received[topics.CAMERA_INFO] == n, 10.0, "the node to take it")
        t0 = time.monotonic()
        with pytest.raises(PipelineError, match=f"more than the bag holds: {{'{topics.CAMERA_INFO}': 3}}"):
            pipe.replay(bag, FRAMES, gap=0.0)
        assert time.monotonic() - t0 < 15.0
