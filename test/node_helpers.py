"""Builders and the DDS harness shared by the memory node tests (the story of test_memory_node.py)."""

from __future__ import annotations

import math
import os
import threading
import time

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "115")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from core_helpers import look_at  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from geometry_msgs.msg import Point  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from tempomem_ros.msg import ChangeEvent, ObservationArray  # noqa: E402
from tempomem_ros.msg import Observation as ObservationMsg  # noqa: E402

from tempomem_ros import topics  # noqa: E402
from tempomem_ros.nodes import conversions as conv  # noqa: E402
from tempomem_ros.nodes.executor import BoundedMultiThreadedExecutor  # noqa: E402
from tempomem_ros.nodes.memory_node import EXECUTOR_THREADS, MemoryNode  # noqa: E402

A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
MUG_HALF = (0.04, 0.04, 0.05)
TABLE_MIN, TABLE_MAX = (1.5, -0.5, 0.0), (2.5, 0.5, 0.75)
W, H, F, BLOCK = 640, 480, 500.0, 8
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))



# ------------------------------------------------------------------------------------------------- builders
class Log:
    """A node logger stand-in that keeps what it was told, by level (the node parts' tests read it back)."""

    def __init__(self):
        self.lines = []

    def error(self, text, **_):
        self.lines.append(("error", text))

    def info(self, text, **_):
        self.lines.append(("info", text))

    def warning(self, text, **_):
        self.lines.append(("warning", text))


def quaternion(R) -> tuple[float, float, float, float]:
    w = math.sqrt(max(0.0, 1.0 + R[0, 0] + R[1, 1] + R[2, 2])) / 2.0
    if w > 1e-6:
        return (
            (R[2, 1] - R[1, 2]) / (4 * w),
            (R[0, 2] - R[2, 0]) / (4 * w),
            (R[1, 0] - R[0, 1]) / (4 * w),
            w,
        )
    x = math.sqrt(max(0.0, 1.0 + R[0, 0] - R[1, 1] - R[2, 2])) / 2.0
    return (x, (R[0, 1] + R[1, 0]) / (4 * x), (R[0, 2] + R[2, 0]) / (4 * x), (R[2, 1] - R[1, 2]) / (4 * x))


def obs_msg(label, bmin, bmax, conf=0.9) -> ObservationMsg:
    c = [(a + b) / 2 for a, b in zip(bmin, bmax)]
    return ObservationMsg(
        label=label,
        confidence=conf,
        center=conv.to_point(c),
        bbox_min=conv.to_point(bmin),
        bbox_max=conv.to_point(bmax),
        n_points=100,
    )


def mug_msg(at) -> ObservationMsg:
    return obs_msg("mug", [a - h for a, h in zip(at, MUG_HALF)], [a + h for a, h in zip(at, MUG_HALF)])


def frame(stamp: float, observations, target, depth: float, pad: int = 8) -> ObservationArray:
    """One frame looking from (0, 0, 1) at target; coarse depth rows padded by ``pad`` bytes (step)."""
    msg = ObservationArray()
    msg.header.stamp = conv.to_time(stamp)
    msg.header.frame_id = "map"
    msg.observations = list(observations)
    pose = look_at((0.0, 0.0, 1.0), target)
    v = msg.view
    v.pose.position = conv.to_point(pose[:3, 3])
    qx, qy, qz, qw = quaternion(pose[:3, :3])
    v.pose.orientation.x, v.pose.orientation.y, v.pose.orientation.z, v.pose.orientation.w = qx, qy, qz, qw
    v.fx = v.fy = F
    v.cx, v.cy, v.width, v.height, v.max_range, v.depth_scale = W / 2, H / 2, W, H, 6.0, 1.0 / BLOCK
    h, w = H // BLOCK, W // BLOCK
    rows = np.full((h, w), depth, dtype="<f4").tobytes()
    padded = b"".join(rows[r * w * 4 : (r + 1) * w * 4] + b"\xff" * pad for r in range(h))
    v.depth.height, v.depth.width, v.depth.encoding, v.depth.step = h, w, "32FC1", w * 4 + pad
    v.depth.data = padded
    return msg


def table_msg() -> ObservationMsg:
    return obs_msg("table", TABLE_MIN, TABLE_MAX)


def story_frames():
    frames = [frame(10.0 + i, [mug_msg(A), table_msg()], A, 2.1) for i in range(3)]
    # four views of the empty place: the removal decided at 22 s is published once it held (removal_hold_s)
    frames_empty = [frame(20.0 + i, [table_msg()], A, 3.0) for i in range(4)]
    # seen at B three times over 1 s: a removed object found elsewhere needs what a new object needs
    # (identity.confirm_observations over identity.appear_hold_s) before it counts as moved
    return frames, frames_empty, [frame(30.0 + 0.5 * i, [mug_msg(B)], B, 2.1) for i in range(3)]


def close_to(p, q, tol=0.02) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(conv.from_point(p) if isinstance(p, Point) else p, q))


# -------------------------------------------------------------------------------------------------- harness
class Talks:
    """Publishing frames to a node under test, calling its services and shutting it down (``node``, ``pub``,
    ``tester``, ``clients``, ``executor``, ``thread``, ``context`` come from the harness that mixes this in)."""

    def close(self) -> None:
        """Stop spinning, shut the node down (its staging thread ends), destroy both nodes and the context: every
        step runs even when one before it raised, and a spin thread still alive 10 s after the executor's shutdown
        fails the test instead of spinning on beside the tests that follow (test/conftest.py checks the
        ``tempomem_*`` threads at the end of each module). Safe on a harness whose __init__ stopped half way."""
        steps = [("executor", lambda x: x.shutdown()), ("thread", lambda x: x.join(timeout=10.0)),
                 ("node", lambda x: x.trigger_shutdown()), ("node", lambda x: x.destroy_node()),
                 ("tester", lambda x: x.destroy_node()), ("context", lambda x: x.try_shutdown())]
        errors = []
        for name, step in steps:
            if name not in self.__dict__:  # not made: __init__ raised before it
                continue
            try:
                step(self.__dict__[name])
            except Exception as exc:  # noqa: BLE001 - the steps after it must still run
                errors.append(exc)
        thread = getattr(self, "thread", None)
        assert thread is None or not thread.is_alive(), "the harness's executor still spins 10 s after shutdown"
        if errors:
            raise errors[0]

    def publish(self, msgs) -> None:
        """Publish frames and wait until the node has handled them and fused everything staged."""
        target = self.node.counters.handled + len(msgs)
        for m in msgs:
            self.pub.publish(m)
        assert wait_for(lambda: self.node.counters.handled >= target), \
            f"the node handled {self.node.counters.handled} of {target} frames within 15 s"
        assert wait_for(lambda: self.node.writer.pending() == 0), \
            f"{self.node.writer.pending()} frames still staged, not fused, after 15 s"

    def call(self, name: str, srv_type, **fields):
        if name not in self.clients:
            client = self.tester.create_client(srv_type, f"/tempomem/{name}")
            assert client.wait_for_service(timeout_sec=10.0), f"/tempomem/{name} not offered within 10 s"
            self.clients[name] = client
        response = self.clients[name].call(srv_type.Request(**fields), timeout_sec=10.0)
        assert response is not None, f"no response from {name}"
        return response


class Harness(Talks):
    """The node under test and a tester node, spun by the node's own executor type in a background thread."""

    def __init__(self, store: str) -> None:
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        try:
            self._start(store)
        except BaseException:
            self.close()  # a failed start leaves no node, thread or context behind
            raise

    def _start(self, store: str) -> None:
        self.node = MemoryNode(
            context=self.context,
            parameter_overrides=[
                Parameter("store_path", value=store),
                Parameter("commit_rate_hz", value=20.0),
            ],
        )
        assert self.node.autostart_ok
        self.tester = rclpy.create_node("memory_node_tester", context=self.context)
        self.executor = BoundedMultiThreadedExecutor(num_threads=EXECUTOR_THREADS, context=self.context)
        self.executor.add_node(self.node)
        self.executor.add_node(self.tester)
        self.thread = threading.Thread(target=self.executor.spin, name="tempomem_test_spin", daemon=True)
        self.thread.start()
        self.events: list[ChangeEvent] = []
        self.tester.create_subscription(
            ChangeEvent,
            topics.CHANGES,
            self.events.append,
            QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE),
        )
        self.pub = self.tester.create_publisher(
            ObservationArray,
            topics.OBSERVATIONS,
            QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE),
        )
        self.clients = {}
        assert wait_for(lambda: self.pub.get_subscription_count() > 0), "the node did not subscribe within 15 s"

    def latest(self, msg_type, topic: str, until=None):
        """Subscribe late (transient local) and return the latched message, or with ``until`` the first message
        (latched or published after) for which it holds: a publish is deferred while its duty rule says not yet
        (scene_publisher.due), so under load the latched graph can be the one before the last commit."""
        got = []
        qos = QoSProfile(
            depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL
        )
        sub = self.tester.create_subscription(msg_type, topic, got.append, qos)
        assert wait_for(lambda: bool(got) and (until is None or until(got[-1])))
        self.tester.destroy_subscription(sub)
        return got[-1]



def wait_for(condition, timeout: float = 15.0) -> bool:
    """Polls a condition; the timeout only bounds a hang, no test asserts on time."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
