"""The perception node's parts without DDS: the camera (camera_info, pose from a topic), the instance features
(supplied or from the hook), the ObservationArray it publishes read back by the memory's conversion, its
diagnostics, and the startup checks of its parameters (nodes/camera.py, instance_features.py,
conversions.py, diagnostics.py, perception_node_params.py)."""

from __future__ import annotations

import os

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "117")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from test_perception_node import EXACT, POSITION, QUATERNION, _stamp, camera_info, frame  # noqa: E402

from tempomem_ros.core.types import Observation  # noqa: E402
from tempomem_ros.nodes import conversions as conv  # noqa: E402
from tempomem_ros.nodes import diagnostics as diag  # noqa: E402
from tempomem_ros.nodes.camera import Camera, FrameDropped  # noqa: E402
from tempomem_ros.nodes.instance_features import frame_features  # noqa: E402
from tempomem_ros.nodes.perception_node_params import (  # noqa: E402
    StartupError,
    check_choices,
    parameter_defaults,
    perception_config,
)
from tempomem_ros.perception import (  # noqa: E402
    InputMismatchError,
    decode_depth,
    intrinsics_from_camera_info,
    make_camera_view,
    pose_to_matrix,
)

PARAMS = {**parameter_defaults(), **EXACT}


def test_the_camera_drops_a_frame_without_camera_info_or_a_pose_in_the_world_frame():
    camera = Camera(None, PARAMS, "map")  # pose_source topic: no node needed
    depth, _, pose = frame(_stamp(5))
    with pytest.raises(FrameDropped) as info:
        camera.intrinsics("auto", "/camera/camera_info")
    assert info.value.reason == "no_camera_info" and "/camera/camera_info" in str(info.value)
    camera.info = camera_info()
    assert camera.intrinsics("auto", "") == intrinsics_from_camera_info(camera.info.k, camera.info.p, 160, 120)
    np.testing.assert_allclose(camera.pose(depth, pose), pose_to_matrix(POSITION, QUATERNION))
    with pytest.raises(FrameDropped) as info:
        camera.pose(depth, None)
    assert info.value.reason == "no_pose"
    pose.header.frame_id = "odom"
    with pytest.raises(FrameDropped) as info:
        camera.pose(depth, pose)
    assert info.value.reason == "pose_frame_mismatch"
    camera.close()  # nothing to stop without TF


def test_pose_source_tf_without_tf2_ros_stops_the_startup_saying_what_to_do(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_tf2(name, *args, **kwargs):
        if name == "tf2_ros":
            raise ImportError("No module named 'tf2_ros'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tf2)
    with pytest.raises(StartupError, match="pose_source: topic"):
        Camera(None, {**PARAMS, "pose_source": "tf"}, "map")


def test_supplied_features_take_precedence_and_a_wrong_size_refuses_the_frame():
    _, masks, _ = frame(_stamp(5), features=np.arange(6, dtype=np.float32).reshape(2, 3))
    ids = np.asarray(masks.ids, dtype=np.int64)
    errors = []
    hook = lambda rgb, mask, ids: pytest.fail("the hook must not run when features are supplied")  # noqa: E731
    got = frame_features(masks, ids, None, None, hook, errors.append)
    np.testing.assert_array_equal(got, np.arange(6).reshape(2, 3))
    masks.features = masks.features[:-1]
    with pytest.raises(InputMismatchError, match="5 feature values, expected 2 ids x 3 dims"):
        frame_features(masks, ids, None, None, None, errors.append)
    assert errors == []


@pytest.mark.parametrize("hook, why", [
    (lambda rgb, mask, ids: 1 / 0, "feature extractor failed"),
    (lambda rgb, mask, ids: np.ones((len(ids), 0)), "must return finite"),
    (lambda rgb, mask, ids: np.full((len(ids), 4), np.nan), "must return finite"),
    (lambda rgb, mask, ids: np.ones((len(ids) + 1, 4)), "must return finite"),
    (lambda rgb, mask, ids: "not an array", "must return finite"),
])
def test_a_broken_hook_costs_the_features_not_the_frame(hook, why):
    _, masks, _ = frame(_stamp(5))
    ids = np.asarray(masks.ids, dtype=np.int64)
    errors = []
    assert frame_features(masks, ids, None, None, hook, errors.append) is None
    assert len(errors) == 1 and why in errors[0]
    good = frame_features(masks, ids, None, None, lambda rgb, mask, i: np.ones((len(i), 4)), errors.append)
    assert good.shape == (2, 4) and len(errors) == 1
    assert frame_features(masks, ids, None, None, None, errors.append) is None  # no hook: no features


def test_the_published_array_reads_back_as_the_observations_and_view_it_was_made_of():
    depth_msg, _, _ = frame(_stamp(7, 250_000_000))
    intr = intrinsics_from_camera_info(camera_info().k, camera_info().p, 160, 120)
    T = pose_to_matrix(POSITION, QUATERNION)
    view = make_camera_view(decode_depth(depth_msg, 0.001), intr, T, 6.0, 0.125, 7.25, min_object_pixels=9)
    mug = Observation("mug", 0.9, (1.0, 2.0, 0.5), (0.9, 1.9, 0.4), (1.1, 2.1, 0.6), 7.25,
                      feature=np.array([0.5, -0.25], dtype=np.float32), n_points=40, instance_id=1)
    table = Observation("table", 0.6, (3.0, 1.0, 0.4), (2.5, 0.5, 0.0), (3.5, 1.5, 0.8), 7.25, n_points=900,
                        instance_id=2)
    msg = conv.observation_array_msg(depth_msg, "map", [mug, table], view, 0.125)
    assert msg.header.frame_id == "map" and msg.view.depth.header.frame_id == "camera_optical"
    observations, back, stamp = conv.observation_array(msg)
    assert stamp == 7.25 and [o.label for o in observations] == ["mug", "table"]
    assert observations[0].center == (1.0, 2.0, 0.5) and observations[1].feature is None
    np.testing.assert_array_equal(observations[0].feature, [0.5, -0.25])
    assert (observations[0].n_points, observations[1].instance_id) == (40, 2)
    np.testing.assert_allclose(back.pose, T, atol=1e-6)
    assert (back.fx, back.width, back.max_range, back.min_object_pixels) == (view.fx, view.width, 6.0, 9)
    np.testing.assert_array_equal(back.depth, view.depth)


def test_diagnostics_warn_on_new_drops_then_on_no_camera_info():
    drops = {"no_pose": 2, "tf_unavailable": 0}
    level, message = diag.perception_status(2, 5, 3, drops, True)
    assert level == diag.WARN and message == "dropped 2 of 5 frames since the last report (no_pose=2)"
    assert diag.perception_status(0, 0, 0, drops, False) == (diag.WARN, "no camera_info received yet")
    assert diag.perception_status(0, 4, 4, drops, True) == (diag.OK, "published 4 frames since the last report")
    values = diag.perception_values({"frames_synced": 5}, drops, {"too_small": 1}, 0, -1, 1.23456, True)
    assert list(values) == ["frames_synced", "drop_no_pose", "drop_tf_unavailable", "instances_dropped_too_small",
                            "feature_extractor_errors", "sync_discarded", "last_processing_ms",
                            "camera_info_received"]
    assert values["last_processing_ms"] == 1.235


def test_a_parameter_the_node_cannot_start_with_names_itself():
    assert perception_config(PARAMS).outlier_method == "none"
    check_choices(PARAMS)
    with pytest.raises(StartupError, match="parameter sync_backend must be one of"):
        check_choices({**PARAMS, "sync_backend": "fastest"})
    with pytest.raises(StartupError, match="invalid perception parameter"):
        perception_config({**PARAMS, "outlier_method": "magic"})
