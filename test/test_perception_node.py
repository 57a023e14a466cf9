"""Tests of perception_node: in-process rclpy (conftest's isolated Context + SingleThreadedExecutor).

The DDS tests publish camera_info, a 16UC1 depth image, InstanceMasks and a PoseStamped with one stamp
and check the ObservationArray that comes back. The scene is two head-on rectangles, so centres and
boxes have closed forms; the outlier test is off here (denoising is covered in test_perception.py),
which makes them exact up to float32 transport: tolerance 1e-5 m. Deadlines only bound a hang.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

rclpy = pytest.importorskip("rclpy")

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus  # noqa: E402
from geometry_msgs.msg import PoseStamped  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from sensor_msgs.msg import CameraInfo, Image  # noqa: E402
from tempomem_ros.msg import InstanceMasks, ObservationArray  # noqa: E402

from tempomem_ros import topics  # noqa: E402
from tempomem_ros.nodes.perception_node import (  # noqa: E402
    PerceptionNode,
    StartupError,
    main,
    parameter_defaults,
)
from tempomem_ros.nodes.qos import reliable_qos  # noqa: E402
from tempomem_ros.perception import decode_depth, pose_to_matrix  # noqa: E402
from tempomem_ros.perception.image import encode_uint16  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TOL = 1e-5
W, H = 160, 120
K_RAW = [210.0, 0.0, 80.0, 0.0, 190.0, 60.0, 0.0, 0.0, 1.0]
P_RECT = [200.0, 0.0, 79.5, 0.0, 0.0, 180.0, 59.5, 0.0, 0.0, 0.0, 1.0, 0.0]  # used: P[0] != 0
FX, FY, CX, CY = 200.0, 180.0, 79.5, 59.5
POSITION = (1.0, -2.0, 0.8)
QUATERNION = (0.1, -0.2, 0.3, 0.9273618495495704)  # unit, w > 0
INSTANCES = {1: ("mug", 0.9, 2.0, (20, 50, 30, 60)), 2: ("table", 0.6, 3.0, (90, 140, 70, 100))}
EXACT = {"outlier_method": "none", "max_points_per_instance": 0, "mask_erosion_px": 0, "depth_edge_step": 0.0}


def _stamp(sec: int, nanosec: int = 0):
    msg = PoseStamped().header.stamp
    msg.sec, msg.nanosec = sec, nanosec
    return msg


def camera_info(k=K_RAW, p=P_RECT) -> CameraInfo:
    msg = CameraInfo()
    msg.header.frame_id = "camera_optical"
    msg.width, msg.height = W, H
    msg.k, msg.p = list(k), list(p)
    return msg


def depth_mm() -> np.ndarray:
    depth = np.full((H, W), 4000, dtype=np.uint16)  # background wall at 4 m, no instance
    for _, _, z, (u0, u1, v0, v1) in INSTANCES.values():
        depth[v0:v1, u0:u1] = int(z * 1000)
    return depth


def mask_ids() -> np.ndarray:
    mask = np.zeros((H, W), dtype=np.uint16)
    for instance, (_, _, _, (u0, u1, v0, v1)) in INSTANCES.items():
        mask[v0:v1, u0:u1] = instance
    return mask


def image_msg(raw, stamp, frame_id="camera_optical") -> Image:
    msg = Image()
    msg.header.stamp, msg.header.frame_id = stamp, frame_id
    msg.height, msg.width, msg.encoding = raw.height, raw.width, raw.encoding
    msg.is_bigendian, msg.step, msg.data = int(raw.is_bigendian), raw.step, raw.data
    return msg


def frame(stamp, encoding="16UC1", pose_frame="map", quaternion=QUATERNION, mask=None, features=None):
    depth = image_msg(encode_uint16(depth_mm())._replace(encoding=encoding), stamp)
    masks = InstanceMasks()
    masks.header.stamp, masks.header.frame_id = stamp, "camera_optical"
    masks.mask = image_msg(encode_uint16(mask_ids() if mask is None else mask), stamp)
    masks.ids = list(INSTANCES)
    masks.labels = [v[0] for v in INSTANCES.values()]
    masks.confidences = [v[1] for v in INSTANCES.values()]
    if features is not None:
        masks.feature_dim = features.shape[1]
        masks.features = features.astype(np.float32).reshape(-1)
    pose = PoseStamped()
    pose.header.stamp, pose.header.frame_id = stamp, pose_frame
    pose.pose.position.x, pose.pose.position.y, pose.pose.position.z = POSITION
    o = pose.pose.orientation
    o.x, o.y, o.z, o.w = quaternion
    return depth, masks, pose


def expected(instance):
    """Closed-form world centroid and AABB of an instance rectangle (pixel centres at integers)."""
    _, _, z, (u0, u1, v0, v1) = INSTANCES[instance]
    T = pose_to_matrix(POSITION, QUATERNION)
    us = np.array([u0, u1 - 1, u0, u1 - 1], float)
    vs = np.array([v0, v0, v1 - 1, v1 - 1], float)
    corners = T[:3, :3] @ np.stack([(us - CX) * z / FX, (vs - CY) * z / FY, np.full(4, z)]) + T[:3, 3:4]
    centre = np.array([((u0 + u1 - 1) / 2 - CX) * z / FX, ((v0 + v1 - 1) / 2 - CY) * z / FY, z])
    return T[:3, :3] @ centre + T[:3, 3], corners.min(axis=1), corners.max(axis=1)


def xyz(point):
    return np.array([point.x, point.y, point.z])


@pytest.fixture
def make_perception(ros_context, ros_executor):
    """Factory: make_perception(**parameter_overrides) -> PerceptionNode spun by ros_executor."""
    nodes = []

    def _make(**overrides):
        params = [Parameter(name, value=value) for name, value in overrides.items()]
        node = PerceptionNode(context=ros_context, parameter_overrides=params)
        ros_executor.add_node(node)
        nodes.append(node)
        return node

    yield _make
    for node in nodes:
        ros_executor.remove_node(node)
        node.destroy_node()


class Io:
    """The test's side of the graph: camera publishers and subscribers to the node's outputs."""

    def __init__(self, make_node, node):
        self.node = make_node("perception_test_io")
        qos = reliable_qos(10)
        self.info = self.node.create_publisher(CameraInfo, topics.CAMERA_INFO, qos)
        self.depth = self.node.create_publisher(Image, topics.DEPTH, qos)
        self.masks = self.node.create_publisher(InstanceMasks, topics.INSTANCES, qos)
        self.pose = self.node.create_publisher(PoseStamped, topics.POSE, qos)
        self.observations: list[ObservationArray] = []
        self.diagnostics: list[DiagnosticArray] = []
        self.obs_sub = self.node.create_subscription(
            ObservationArray, topics.OBSERVATIONS, self.observations.append, qos
        )
        self.node.create_subscription(
            DiagnosticArray, topics.PERCEPTION_DIAGNOSTICS, self.diagnostics.append, 10
        )
        self.perception = node

    def connected(self) -> bool:
        pubs = (self.info, self.depth, self.masks, self.pose)
        return all(p.get_subscription_count() > 0 for p in pubs) and self.obs_sub.get_publisher_count() > 0

    def publish(self, depth, masks, pose) -> None:
        self.depth.publish(depth)
        self.masks.publish(masks)
        self.pose.publish(pose)


def _connect(make_node, make_perception, spin_until, **overrides):
    node = make_perception(**{**EXACT, "diagnostics_period_sec": 0.2, **overrides})
    io = Io(make_node, node)
    assert spin_until(io.connected, timeout_sec=10.0)
    io.info.publish(camera_info())
    assert spin_until(lambda: node.has_camera_info, timeout_sec=5.0)
    return node, io


def test_publishes_two_observations_in_world_frame(make_node, make_perception, spin_until):
    node, io = _connect(make_node, make_perception, spin_until)
    stamp = _stamp(1700000000, 250_000_000)
    io.publish(*frame(stamp))
    assert spin_until(lambda: len(io.observations) >= 1, timeout_sec=5.0)
    out = io.observations[0]
    assert (out.header.stamp.sec, out.header.stamp.nanosec, out.header.frame_id) == (
        1700000000,
        250_000_000,
        "map",
    )
    assert [o.label for o in out.observations] == ["mug", "table"]
    assert [o.instance_id for o in out.observations] == [1, 2]
    assert [o.n_points for o in out.observations] == [30 * 30, 50 * 30]
    assert [round(o.confidence, 6) for o in out.observations] == [0.9, 0.6]
    for msg, instance in zip(out.observations, (1, 2)):
        centre, low, high = expected(instance)
        np.testing.assert_allclose(xyz(msg.center), centre, atol=TOL)
        np.testing.assert_allclose(xyz(msg.bbox_min), low, atol=TOL)
        np.testing.assert_allclose(xyz(msg.bbox_max), high, atol=TOL)
        assert len(msg.feature) == 0
    view = out.view
    assert (view.fx, view.fy, view.cx, view.cy, view.width, view.height) == (FX, FY, CX, CY, W, H)
    assert view.max_range == pytest.approx(5.0) and view.depth_scale == pytest.approx(0.125)
    np.testing.assert_allclose(xyz(view.pose.position), POSITION, atol=1e-12)
    o = view.pose.orientation
    np.testing.assert_allclose((o.x, o.y, o.z, o.w), QUATERNION, atol=1e-12)
    assert (view.depth.encoding, view.depth.width, view.depth.height) == ("32FC1", 20, 15)
    coarse = decode_depth(view.depth)
    assert coarse[4, 3] == pytest.approx(2.0)  # block v 32-39, u 24-31: inside the mug
    assert coarse[0, 0] == pytest.approx(4.0)  # background wall
    assert coarse[3, 2] == pytest.approx(2.0)  # block v 24-31, u 16-23: mug corner pixels win (minimum)
    assert node.counters["frames_published"] == 1 and sum(node.drops.values()) == 0


def test_bad_encoding_dropped_counted_and_next_frame_processed(make_node, make_perception, spin_until):
    node, io = _connect(make_node, make_perception, spin_until)
    io.publish(*frame(_stamp(100), encoding="bgr8"))
    assert spin_until(lambda: node.drops["bad_encoding"] == 1, timeout_sec=5.0)
    io.publish(*frame(_stamp(101)))
    assert spin_until(lambda: len(io.observations) >= 1, timeout_sec=5.0)
    assert [m.header.stamp.sec for m in io.observations] == [101]
    assert [o.label for o in io.observations[0].observations] == ["mug", "table"]
    assert node.counters == {"frames_synced": 2, "frames_published": 1, "observations_published": 2}
    assert sum(node.drops.values()) == 1

    def warned():
        for array in io.diagnostics:
            values = {kv.key: kv.value for kv in array.status[0].values}
            if values.get("drop_bad_encoding") == "1" and values.get("frames_published") == "1":
                return True
        return False

    assert spin_until(warned, timeout_sec=5.0)
    levels = [a.status[0].level for a in io.diagnostics]
    assert DiagnosticStatus.WARN in levels


# ---------------------------------------------------------------------- direct calls (no DDS traffic)


def test_frame_without_camera_info_is_dropped(make_perception):
    node = make_perception(**EXACT)
    assert node.process_frame(*frame(_stamp(5))) is None
    assert node.drops["no_camera_info"] == 1 and node.counters["frames_published"] == 0


@pytest.mark.parametrize(
    "info, kwargs, reason",
    [
        (camera_info([0.0] * 9, [0.0] * 12), {}, "bad_camera_info"),
        (camera_info(), {"quaternion": (0.0, 0.0, 0.0, 0.0)}, "bad_pose"),
        (camera_info(), {"quaternion": (math.nan, 0.0, 0.0, 1.0)}, "bad_pose"),
        (camera_info(), {"pose_frame": "odom"}, "pose_frame_mismatch"),
        (camera_info(), {"mask": np.zeros((H, W // 2), np.uint16)}, "size_mismatch"),
        (camera_info(), {"features": np.ones((1, 3))}, "size_mismatch"),
        (camera_info(), {"encoding": "32FC1"}, "bad_image_layout"),
    ],
)
def test_bad_frames_are_dropped_with_their_reason(make_perception, info, kwargs, reason):
    node = make_perception(**EXACT)
    node.on_camera_info(info)
    assert node.process_frame(*frame(_stamp(5), **kwargs)) is None
    assert node.drops[reason] == 1 and sum(node.drops.values()) == 1
    good = node.process_frame(*frame(_stamp(6)))  # the node keeps working
    if reason == "bad_camera_info":
        assert good is None
    else:
        assert good is not None and len(good.observations) == 2


def test_supplied_features_are_normalised_and_used(make_perception):
    node = make_perception(**EXACT)
    node.on_camera_info(camera_info())
    node.feature_extractor = lambda rgb, mask, ids: pytest.fail("supplied features take precedence")
    out = node.process_frame(*frame(_stamp(7), features=np.array([[3.0, 0.0, 4.0], [0.0, 2.0, 0.0]])))
    np.testing.assert_allclose(out.observations[0].feature, [0.6, 0.0, 0.8], atol=1e-7)
    np.testing.assert_allclose(out.observations[1].feature, [0.0, 1.0, 0.0], atol=1e-7)


def test_feature_extractor_hook(make_perception):
    node = make_perception(**EXACT)
    node.on_camera_info(camera_info())
    assert node.feature_extractor is None
    calls = []

    def extractor(rgb, mask, ids):
        calls.append((rgb, mask.shape, ids.tolist()))
        return np.array([[0.0, 5.0], [1.0, 0.0]])

    node.feature_extractor = extractor
    out = node.process_frame(*frame(_stamp(8)))
    assert calls == [(None, (H, W), [1, 2])]
    assert [list(o.feature) for o in out.observations] == [[0.0, 1.0], [1.0, 0.0]]
    node.feature_extractor = lambda rgb, mask, ids: np.ones((5, 2))  # wrong row count
    out = node.process_frame(*frame(_stamp(9)))
    assert out is not None and all(len(o.feature) == 0 for o in out.observations)
    assert node.feature_errors == 1


def test_diagnostics_report_counters(make_perception):
    node = make_perception(**EXACT)
    array = node.publish_diagnostics()
    assert array.status[0].level == DiagnosticStatus.WARN  # no camera_info yet
    node.on_camera_info(camera_info())
    node.process_frame(*frame(_stamp(10)))
    array = node.publish_diagnostics()
    values = {kv.key: kv.value for kv in array.status[0].values}
    assert array.status[0].level == DiagnosticStatus.OK
    assert values["frames_published"] == "1" and values["observations_published"] == "2"
    assert values["drop_bad_encoding"] == "0" and values["instances_dropped_tiny_mask"] == "0"


# ------------------------------------------------------------------------------------- configuration


def test_pose_source_tf_without_tf2_ros_fails_at_startup(ros_context):
    if importlib.util.find_spec("tf2_ros") is not None:
        pytest.skip("tf2_ros is importable here")
    with pytest.raises(StartupError, match="tf2_ros cannot be imported"):
        PerceptionNode(context=ros_context, parameter_overrides=[Parameter("pose_source", value="tf")])


@pytest.mark.parametrize(
    "name, value",
    [
        ("outlier_method", "dbscan"),
        ("min_mask_pixels", 0),
        ("pose_source", "gps"),
        ("view_scale", 0.3),
        ("qos_reliability", "sometimes"),
        ("sync_backend", "magic"),
    ],
)
def test_bad_parameters_fail_at_startup(ros_context, name, value):
    with pytest.raises(StartupError):
        PerceptionNode(context=ros_context, parameter_overrides=[Parameter(name, value=value)])


def test_main_returns_1_on_startup_error():
    if importlib.util.find_spec("tf2_ros") is not None:
        pytest.skip("tf2_ros is importable here")
    assert main(["--ros-args", "-p", "pose_source:=tf"]) == 1


def test_main_returns_1_on_a_bad_parameter():
    # the node is never made: main() still shuts its executor and rclpy down (nodes.executor.close_main)
    assert main(["--ros-args", "-p", "qos_depth:=0", "-r", "__node:=perception_node_main_fail"]) == 1


def test_main_exits_0_on_sigint(tmp_path, node_process):
    import signal

    from tempomem_ros.nodes.qos import sensor_qos

    cmd = [sys.executable, "-c", "import sys; from tempomem_ros.nodes.perception_node import main; sys.exit(main())",
           "--ros-args", "-r", "__node:=perception_node_sigint", "-r", f"{topics.CAMERA_INFO}:=/sigint_test/info"]
    log = tmp_path / "node.log"  # a file, not an unread pipe
    with node_process(cmd, log, "perception_sigint_tester") as (proc, node):
        pub = node.create_publisher(CameraInfo, "/sigint_test/info", sensor_qos("reliable", 10))
        deadline = time.monotonic() + 30.0
        while pub.get_subscription_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pub.get_subscription_count() > 0, log.read_text()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30.0) == 0, log.read_text()
    assert "Traceback" not in log.read_text()


def test_yaml_holds_every_parameter_with_its_default():
    with open(REPO / "config" / "tempomem.yaml", encoding="utf-8") as stream:
        nested = yaml.safe_load(stream)["perception_node"]["ros__parameters"]

    def flat(d, prefix=""):  # ROS reads nested YAML keys as dotted parameter names (clip.enabled)
        for k, v in d.items():
            if isinstance(v, dict):
                yield from flat(v, f"{prefix}{k}.")
            else:
                yield f"{prefix}{k}", v

    params = dict(flat(nested))
    defaults = parameter_defaults()
    assert params == defaults
    for name, value in params.items():  # same types too (ROS refuses an int for a float parameter)
        assert type(value) is type(defaults[name]), name


def test_every_parameter_is_described_with_ranges(make_perception):
    node = make_perception()
    for name, default in parameter_defaults().items():
        descriptor = node.describe_parameter(name)
        assert descriptor.description, name
        assert descriptor.read_only, name
        if isinstance(default, bool) or isinstance(default, str):
            continue
        ranges = descriptor.integer_range if isinstance(default, int) else descriptor.floating_point_range
        assert len(ranges) == 1 and ranges[0].from_value <= default <= ranges[0].to_value, name


def test_stamps_within_slop_are_synchronised(make_node, make_perception, spin_until):
    node, io = _connect(make_node, make_perception, spin_until, sync_slop_sec=0.02)
    depth, masks, pose = frame(_stamp(200))
    masks.header.stamp = _stamp(200, 8_000_000)  # 8 ms later: same frame
    pose.header.stamp = _stamp(199, 990_000_000)  # 10 ms earlier: same frame
    io.publish(depth, masks, pose)
    assert spin_until(lambda: len(io.observations) >= 1, timeout_sec=5.0)
    assert io.observations[0].header.stamp.sec == 200  # the depth image's stamp
    depth, masks, pose = frame(_stamp(300))
    masks.header.stamp = _stamp(300, 30_000_000)  # 30 ms > slop: never completes a frame
    io.publish(depth, masks, pose)
    spin_until(lambda: False, timeout_sec=0.5)
    assert len(io.observations) == 1 and node.counters["frames_synced"] == 1


def test_message_filters_backend_is_used_when_importable(make_perception, monkeypatch):
    """message_filters is not installable here: a stand-in checks the wiring (order of streams)."""
    created = {}

    class Subscriber:
        def __init__(self, node, msg_type, topic, qos_profile=None):
            created.setdefault("subs", []).append((msg_type, topic, qos_profile is not None))

        def registerCallback(self, callback):  # noqa: N802 - each input counts what reached the node
            created.setdefault("counting", []).append(callback)

    class ApproximateTimeSynchronizer:
        def __init__(self, subs, queue_size, slop):
            created["sync"] = (len(subs), queue_size, slop)

        def registerCallback(self, callback):  # noqa: N802 - message_filters' API name
            created["callback"] = callback

    fake = type(sys)("message_filters")
    fake.Subscriber, fake.ApproximateTimeSynchronizer = Subscriber, ApproximateTimeSynchronizer
    monkeypatch.setitem(sys.modules, "message_filters", fake)
    node = make_perception(**EXACT, sync_queue_size=7, sync_slop_sec=0.03)
    assert node.sync_backend == "message_filters"
    assert created["subs"] == [
        (Image, topics.DEPTH, True),
        (InstanceMasks, topics.INSTANCES, True),
        (PoseStamped, topics.POSE, True),
    ]
    assert created["sync"] == (3, 7, 0.03)
    node.on_camera_info(camera_info())
    for count, msg in zip(created["counting"], frame(_stamp(11))):
        count(msg)
    created["callback"](*frame(_stamp(11)))
    assert node.counters["frames_published"] == 1
    assert node.received == {topics.CAMERA_INFO: 1, topics.DEPTH: 1, topics.INSTANCES: 1, topics.POSE: 1}
    assert node.publish_diagnostics().status[0].level == DiagnosticStatus.OK


def test_builtin_backend_can_be_forced(make_perception, monkeypatch):
    monkeypatch.setitem(sys.modules, "message_filters", type(sys)("message_filters"))
    assert make_perception(sync_backend="builtin").sync_backend == "builtin"


def test_tf_pose_source_looks_up_the_camera_at_the_image_stamp(make_perception, monkeypatch):
    """tf2_ros is not installable here: a stand-in checks the lookup (frames, stamp) and the drop path."""
    from geometry_msgs.msg import TransformStamped

    lookups = []

    class Buffer:
        def lookup_transform(self, target, source, when, timeout=None):
            lookups.append((target, source, when.nanoseconds, timeout.nanoseconds))
            if source != "camera_optical":
                raise LookupError(f"frame {source} does not exist")
            transform = TransformStamped()
            t, q = transform.transform.translation, transform.transform.rotation
            t.x, t.y, t.z = POSITION
            q.x, q.y, q.z, q.w = QUATERNION
            return transform

    class TransformListener:
        def __init__(self, buffer, node, spin_thread=False):
            assert isinstance(buffer, Buffer) and spin_thread

    fake = type(sys)("tf2_ros")
    fake.Buffer, fake.TransformListener = Buffer, TransformListener
    monkeypatch.setitem(sys.modules, "tf2_ros", fake)
    node = make_perception(**EXACT, pose_source="tf", tf_timeout_sec=0.1)
    node.on_camera_info(camera_info())
    depth, masks, _ = frame(_stamp(12, 500))
    out = node.process_frame(depth, masks)  # no PoseStamped: the pose comes from TF
    assert lookups == [("map", "camera_optical", 12_000_000_500, 100_000_000)]
    centre, low, high = expected(1)
    np.testing.assert_allclose(xyz(out.observations[0].center), centre, atol=TOL)
    np.testing.assert_allclose(xyz(out.observations[0].bbox_max), high, atol=TOL)
    depth.header.frame_id = "other_camera"
    assert node.process_frame(depth, masks) is None
    assert node.drops["tf_unavailable"] == 1


def test_clip_needs_colour_and_a_checkpoint(ros_context):
    with pytest.raises(StartupError, match="use_color"):
        PerceptionNode(context=ros_context, parameter_overrides=[Parameter("clip.enabled", value=True)])
    with pytest.raises(StartupError, match="clip.checkpoint_path"):
        PerceptionNode(context=ros_context, parameter_overrides=[
            Parameter("clip.enabled", value=True), Parameter("use_color", value=True),
            Parameter("clip.checkpoint_path", value="/nonexistent/clip.pt")])
