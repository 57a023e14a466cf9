"""Message <-> core conversions in both directions (nodes/conversions.py), without DDS."""

from __future__ import annotations

import math
import os

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "115")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from core_helpers import look_at  # noqa: E402
from node_helpers import A, story_frames  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from builtin_interfaces.msg import Time  # noqa: E402

from tempomem_ros.nodes import conversions as conv  # noqa: E402


# ---------------------------------------------------------------------------------------------- conversions
def test_time_round_trip_and_carry():
    assert conv.to_time(1.9999999999) == Time(sec=2, nanosec=0)
    t = conv.to_time(12.25)
    assert (t.sec, t.nanosec) == (12, 250_000_000) and conv.from_time(t) == 12.25
    assert conv.to_time(-1.5) == Time(sec=-2, nanosec=500_000_000)
    assert conv.to_time(None) == Time() and conv.optional_time(Time()) is None
    assert conv.optional_time(conv.to_time(3.0)) == 3.0
    from tempomem_ros.core.errors import InvalidInputError

    with pytest.raises(InvalidInputError):
        conv.to_time(math.nan)


def test_depth_image_honours_step_and_endianness():
    from sensor_msgs.msg import Image

    values = np.arange(6, dtype=">f4").reshape(2, 3)
    data = b"".join(values[r].tobytes() + b"\x00" * 4 for r in range(2))
    img = Image(height=2, width=3, encoding="32FC1", is_bigendian=1, step=16, data=data)
    depth = conv.depth_image(img)
    assert depth.dtype == np.float32 and depth.tolist() == [[0, 1, 2], [3, 4, 5]]


@pytest.mark.parametrize(
    "fields, fragment",
    [
        ({"encoding": "16UC1"}, "encoding must be 32FC1"),
        ({"step": 8}, "step 8 is smaller"),
        ({"data": b"\x00" * 20}, "holds 20 bytes"),
    ],
)
def test_depth_image_refuses_malformed(fields, fragment):
    from sensor_msgs.msg import Image

    from tempomem_ros.core.errors import InvalidInputError

    base = dict(height=2, width=3, encoding="32FC1", is_bigendian=0, step=12, data=b"\x00" * 24)
    base.update(fields)
    with pytest.raises(InvalidInputError, match=fragment):
        conv.depth_image(Image(**base))


def test_pose_matrix_normalises_and_refuses_zero_quaternion():
    from geometry_msgs.msg import Pose

    from tempomem_ros.core.errors import InvalidInputError

    pose = Pose()
    pose.position.x, pose.orientation.w = 1.5, 2.0
    T = conv.pose_matrix(pose)
    assert np.allclose(T[:3, :3], np.eye(3)) and T[0, 3] == 1.5
    pose.orientation.w = 0.0
    with pytest.raises(InvalidInputError, match="zero quaternion"):
        conv.pose_matrix(pose)


def test_observation_array_conversion():
    msg = story_frames()[0][0]
    observations, view, stamp = conv.observation_array(msg)
    assert stamp == 10.0 and [o.label for o in observations] == ["mug", "table"]
    assert observations[0].stamp == 10.0 and observations[0].feature is None
    assert view.depth.shape == (60, 80) and float(view.depth[0, 0]) == pytest.approx(2.1)
    assert np.allclose(view.pose, look_at((0.0, 0.0, 1.0), A), atol=1e-9) and view.stamp == 10.0
    msg.view.depth.width = 0
    assert conv.observation_array(msg)[1] is None


def test_observation_record_of_a_rejected_observation_names_the_candidate():
    from tempomem_ros.core.types import ObservationRecord

    rec = ObservationRecord(
        id=7,
        stamp=3.0,
        recorded_at=4.0,
        label="mug",
        confidence=0.1,
        center=(0, 0, 0),
        bbox_min=(0, 0, 0),
        bbox_max=(0, 0, 0),
        verdict="rejected",
        reason="low_confidence",
        object_id=None,
        candidate_id=5,
        score=None,
    )
    msg = conv.observation_record(rec)
    assert (msg.id, msg.verdict, msg.reason, msg.object_id, msg.score) == (
        7,
        "rejected",
        "low_confidence",
        5,
        0.0,
    )


def test_message_cache_reuses_unchanged_messages():
    built = []
    cache = conv.MessageCache(lambda v: built.append(v) or {"v": v}, key=lambda v: v[0])
    first = cache.messages([(1, "a"), (2, "b")])
    second = cache.messages([(1, "a"), (2, "c")])
    assert first[0] is second[0] and first[1] is not second[1]
    assert built == [(1, "a"), (2, "b"), (2, "c")] and (cache.hits, cache.misses) == (1, 3)
