"""Replay a bag in-process into live subscribers: bytes, order, topic filter, remap, clock, CLI errors."""

import os
import time

import numpy as np
import pytest

os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"  # never put test traffic off loopback

import rclpy  # noqa: E402
from rclpy.executors import SingleThreadedExecutor  # noqa: E402
from rosgraph_msgs.msg import Clock  # noqa: E402

from tempomem_ros import topics  # noqa: E402
from tempomem_ros.tools import bagio, replay  # noqa: E402

T0 = 1_768_464_000_000_000_000
DOMAIN = int(os.environ.get("ROS_DOMAIN_ID", "112"))
PLAYED = (topics.COLOR, topics.INSTANCES, topics.POSE)


@pytest.fixture(scope="module")
def bag(tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "bag"
    rng = np.random.default_rng(3)
    with bagio.open_writer(path, topic_types={t: bagio.TOPIC_TYPES[t] for t in PLAYED}) as w:
        for i in range(4):
            t = T0 + i * 100_000_000
            rgb = rng.integers(0, 255, (6, 8, 3), dtype=np.uint8)
            mask = rng.integers(0, 3, (6, 8)).astype(np.uint16)
            w.write(topics.COLOR, bagio.image_msg(rgb, "rgb8", t, "camera_optical"), t)
            w.write(topics.INSTANCES, bagio.instance_masks_msg(mask, [1, 2], ["mug", f"book{i}"], [0.8, 0.4], t,
                                                               "camera_optical", rng.random((2, 4))), t)
            w.write(topics.POSE, bagio.pose_stamped_msg((i, 0.5, 1.0), (0, 0, 0, 1), t, "map"), t)
    return path


@pytest.fixture()
def ros():
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=DOMAIN)
    pub_node = rclpy.create_node("test_replay_pub", context=context)
    sub_node = rclpy.create_node("test_replay_sub", context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(sub_node)
    yield pub_node, sub_node, executor
    executor.shutdown()
    pub_node.destroy_node()
    sub_node.destroy_node()
    context.try_shutdown()


def _subscribe(sub_node, names_types):
    received = {name: [] for name, _ in names_types}
    for name, cls in names_types:
        sub_node.create_subscription(cls, name, lambda raw, n=name: received[n].append(raw),
                                     replay.make_qos("reliable", 100), raw=True)
    return received


def _spin_until(executor, predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        executor.spin_once(timeout_sec=0.02)


def _expected(bag_path, topic):
    return [m.rawdata for m in bagio.iter_messages(bag_path, [topic])]


def _subscriptions(sub_node, names):
    return _subscribe(sub_node, [(n, replay.resolve_type(bagio.TOPIC_TYPES[n])) for n in names])


def test_every_message_arrives_in_order_with_identical_bytes(bag, ros):
    pub_node, sub_node, executor = ros
    received = _subscriptions(sub_node, PLAYED)
    stats = replay.replay_bag(bag, pub_node, rate=0, gap=0.001, wait_subscribers=10.0,
                              spin=lambda t: executor.spin_once(timeout_sec=t))
    assert stats.subscribers_ready and stats.published == 12
    assert stats.per_topic == {topics.COLOR: 4, topics.INSTANCES: 4, topics.POSE: 4}
    assert (stats.first_ns, stats.last_ns) == (T0, T0 + 300_000_000)
    _spin_until(executor, lambda: all(len(v) == 4 for v in received.values()))
    for topic in PLAYED:
        assert received[topic] == _expected(bag, topic), topic


def test_topics_filter_and_remap(bag, ros):
    pub_node, sub_node, executor = ros
    names = [("/renamed/pose", replay.resolve_type("geometry_msgs/msg/PoseStamped"))]
    names += [(t, replay.resolve_type(bagio.TOPIC_TYPES[t])) for t in (topics.COLOR, topics.INSTANCES)]
    received = _subscribe(sub_node, names)
    stats = replay.replay_bag(bag, pub_node, rate=0, topics=[topics.POSE, topics.COLOR],
                              remap={topics.POSE: "/renamed/pose"}, wait_subscribers=10.0,
                              spin=lambda t: executor.spin_once(timeout_sec=t))
    assert stats.per_topic == {"/renamed/pose": 4, topics.COLOR: 4}
    _spin_until(executor, lambda: len(received["/renamed/pose"]) == 4 and len(received[topics.COLOR]) == 4)
    _spin_until(executor, lambda: False, timeout=0.3)  # give a stray message the chance to arrive
    assert received["/renamed/pose"] == _expected(bag, topics.POSE)
    assert received[topics.COLOR] == _expected(bag, topics.COLOR)
    assert received[topics.INSTANCES] == []


def test_start_offset_and_clock_follow_bag_time(bag, ros):
    pub_node, sub_node, executor = ros
    received = _subscriptions(sub_node, [topics.POSE])
    clocks = []
    sub_node.create_subscription(Clock, "/clock", lambda m: clocks.append(m.clock.sec * 10**9 + m.clock.nanosec),
                                 replay.make_qos("reliable", 100))
    stats = replay.replay_bag(bag, pub_node, rate=4.0, topics=[topics.POSE], start_offset=0.15, clock=True,
                              wait_subscribers=10.0, spin=lambda t: executor.spin_once(timeout_sec=t))
    assert stats.published == 2 and (stats.first_ns, stats.last_ns) == (T0 + 200_000_000, T0 + 300_000_000)
    _spin_until(executor, lambda: len(received[topics.POSE]) == 2 and T0 + 300_000_000 in clocks)
    assert received[topics.POSE] == _expected(bag, topics.POSE)[2:]
    assert clocks[0] == T0 + 200_000_000 and clocks[-1] == T0 + 300_000_000
    assert clocks == sorted(clocks) and all(T0 + 200_000_000 <= c <= T0 + 300_000_000 for c in clocks)


def test_bad_options_raise_replay_error(bag, ros):
    pub_node, _, _ = ros
    with pytest.raises(replay.ReplayError, match="no topic"):
        replay.replay_bag(bag, pub_node, topics=["/camera/nothing"])
    with pytest.raises(replay.ReplayError, match="rate must be >= 0"):
        replay.replay_bag(bag, pub_node, rate=-1)
    with pytest.raises(replay.ReplayError, match="unknown QoS"):
        replay.replay_bag(bag, pub_node, qos="fastest")
    with pytest.raises(replay.ReplayError, match="not in the bag"):
        replay.replay_bag(bag, pub_node, remap={"/x": "/y"})
    with pytest.raises(replay.ReplayError, match="from:=to"):
        replay.parse_remaps(["/a=/b"])
    with pytest.raises(replay.ReplayError, match="cannot import"):
        replay.resolve_type("nope_msgs/msg/Thing")


def test_cli_exit_codes(bag, tmp_path, capsys):
    os.environ.setdefault("ROS_DOMAIN_ID", str(DOMAIN))
    assert replay.main([str(bag), "--fast", "--no-progress", "--topics", topics.POSE]) == 0
    assert replay.main([str(tmp_path / "missing")]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert replay.main([str(bag), "--remap", "bad"]) == 1


def test_max_wait_cuts_long_silences(tmp_path, ros):
    import threading

    pub_node, sub_node, executor = ros
    path = tmp_path / "gappy"
    with bagio.open_writer(path, topic_types={topics.POSE: bagio.TOPIC_TYPES[topics.POSE]}) as w:
        for i, t in enumerate((T0, T0 + 1000 * 10**9)):   # two messages 1000 s apart
            w.write(topics.POSE, bagio.pose_stamped_msg((i, 0, 0), (0, 0, 0, 1), t, "map"), t)
    received = _subscriptions(sub_node, [topics.POSE])
    stop = threading.Event()
    guard = threading.Timer(30.0, stop.set)   # without the cut the replay would wait 1000 s: end it
    guard.start()
    try:
        stats = replay.replay_bag(path, pub_node, rate=1.0, max_wait=0.05, wait_subscribers=10.0, stop=stop,
                                  spin=lambda t: executor.spin_once(timeout_sec=t))
    finally:
        guard.cancel()
    assert not stats.stopped and stats.published == 2
    _spin_until(executor, lambda: len(received[topics.POSE]) == 2)
    assert received[topics.POSE] == _expected(path, topics.POSE)


def test_ctrl_c_exits_130_without_traceback(tmp_path):
    import signal
    import subprocess
    import sys

    path = tmp_path / "slow"
    with bagio.open_writer(path, topic_types={topics.POSE: bagio.TOPIC_TYPES[topics.POSE]}) as w:
        for i in range(5):
            t = T0 + i * 60 * 10**9                            # a minute apart: it cannot finish by itself
            w.write(topics.POSE, bagio.pose_stamped_msg((i, 0, 0), (0, 0, 0, 1), t, "map"), t)
    env = dict(os.environ, ROS_DOMAIN_ID=str(DOMAIN))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from tempomem_ros.tools.replay import main; sys.exit(main())",
         str(path)], stderr=subprocess.PIPE, env=env, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        seen = ""
        while "[replay] 1 msgs" not in seen:                    # playing: the first message is out
            ch = proc.stderr.read(1)
            assert ch, f"replay exited early: {seen!r}"
            seen += ch
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
