"""Hostile input to the perception pipeline (issue 12): absurd intrinsics, overflowing or mis-shaped features,
mask ids missing from the id list, and instances the memory's gates would refuse. Each refusal is exact and
counted; the pipeline keeps producing observations from the next good frame.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_perception import DROP_REASONS, NO_DENOISE, NO_DROPS, POSE, extract, plane_frame

from tempomem_ros.core import Memory, MemoryConfig
from tempomem_ros.core.validation import plausible_observation
from tempomem_ros.perception import Intrinsics, extract_observations, intrinsics_from_camera_info
from tempomem_ros.perception.config import PerceptionConfig
from tempomem_ros.perception.errors import CalibrationError, InputMismatchError


@pytest.mark.parametrize("kwargs,match", [
    (dict(fx=1e-300, fy=1e-300), "focal length fx=1e-300 px is outside \\[1, 1e\\+06\\]"),
    (dict(fx=0.5), "focal length fx=0.5 px"),
    (dict(fy=1e7), "focal length fy=1e\\+07 px"),
    (dict(cx=1e9), "principal point cx=1e\\+09 px"),
    (dict(cy=-1e4), "principal point cy=-10000 px"),
    (dict(width=200_000), "image width 200000 exceeds 100000 px"),
])
def test_absurd_intrinsics_are_refused(kwargs, match):
    values = dict(fx=525.0, fy=525.0, cx=319.5, cy=239.5, width=640, height=480)
    values.update(kwargs)
    with pytest.raises(CalibrationError, match=match):
        Intrinsics(**values)


def test_a_camera_info_with_a_tiny_focal_length_is_a_calibration_error_not_a_zero_division():
    k = [1e-300, 0, 320, 0, 1e-300, 240, 0, 0, 1]
    with pytest.raises(CalibrationError, match="focal length"):
        intrinsics_from_camera_info(k, [0.0] * 12, 640, 480, source="K")


def test_mask_ids_missing_from_the_id_list_are_counted():
    depth, mask = plane_frame()
    mask[300:340, 300:360] = 7     # in the mask, not in the id list
    mask[400:420, 10:40] = 9
    obs, drops = extract(depth, mask, ids=(1,))
    assert [o.instance_id for o in obs] == [1]
    assert drops == {**NO_DROPS, "unlisted_id": 2}


def test_overflowing_supplied_features_are_normalised_in_float64():
    """Rows whose float32 norm overflows (1e20 per value) become unit features, never NaN, and the result
    passes the memory's feature gate."""
    depth, mask = plane_frame()
    feats = np.full((1, 16), 1e20, np.float32)
    (obs,), _ = extract(depth, mask, ids=(1,), features=feats)
    assert np.all(np.isfinite(obs.feature)) and abs(float(np.linalg.norm(obs.feature)) - 1.0) < 1e-6
    plausible_observation(obs, 0, MemoryConfig().gates)


def test_a_2x16_feature_for_one_instance_is_refused():
    depth, mask = plane_frame()
    with pytest.raises(InputMismatchError, match="features must have shape \\(1, dim >= 1\\)"):
        extract(depth, mask, ids=(1,), features=np.ones((2, 16)))


def test_instances_the_memory_would_refuse_are_dropped_and_counted(tmp_path):
    """A pose 1e6 m off the map puts every instance beyond the world bound; a huge plane seen at 40 m makes a
    box larger than max_object_extent. Both are dropped here (counted), and would be refused by the memory."""
    depth, mask = plane_frame()
    far = POSE.copy()
    far[0, 3] = 1e6
    obs, drops = extract(depth, mask, T=far)
    assert obs == [] and drops == {**NO_DROPS, "world_bound": 1}
    big_depth, big_mask = plane_frame(z=40.0, u0=0, u1=640, v0=0, v1=480)
    config = PerceptionConfig(**{**NO_DENOISE.__dict__, "max_depth": 100.0})
    obs, drops = extract(big_depth, big_mask, config=config)
    assert obs == [] and drops == {**NO_DROPS, "extent": 1}
    obs, drops = extract(big_depth, big_mask, config=PerceptionConfig(**{**config.__dict__,
                                                                         "max_object_extent": 100.0}))
    assert len(obs) == 1 and max(h - lo for lo, h in zip(obs[0].bbox_min, obs[0].bbox_max)) > 10.0
    with Memory.open(str(tmp_path / "m.db"), embedding_dim=4) as m:  # the memory agrees
        with pytest.raises(Exception, match="box side .* exceeds the largest object extent 10 m"):
            m.add(obs)
        assert m.observations() == []


def test_every_drop_reason_is_always_reported():
    depth, mask = plane_frame()
    intr = Intrinsics(525.0, 525.0, 319.5, 239.5, 640, 480)
    _, drops = extract_observations(depth, mask, [1], ["mug"], [0.9], intr, POSE, 1.0)
    assert set(drops) == set(DROP_REASONS) >= {"unlisted_id", "world_bound", "extent"}


def test_the_perception_node_drops_a_frame_with_absurd_intrinsics_and_goes_on(ros_context):
    pytest.importorskip("rclpy")
    from rclpy.parameter import Parameter
    from test_perception_node import EXACT, _stamp, camera_info, frame

    from tempomem_ros.nodes.perception_node import PerceptionNode

    node = PerceptionNode(context=ros_context, parameter_overrides=[Parameter(k, value=v) for k, v in EXACT.items()])
    try:
        node.on_camera_info(camera_info(p=[1e-300, 0, 80, 0, 0, 1e-300, 60, 0, 0, 0, 1, 0]))
        assert node.process_frame(*frame(_stamp(5))) is None
        assert node.drops["bad_camera_info"] == 1 and sum(node.drops.values()) == 1
        node.on_camera_info(camera_info())
        out = node.process_frame(*frame(_stamp(6)))
        assert out is not None and len(out.observations) == 2
        mask = np.zeros((120, 160), np.uint16)
        mask[30:60, 20:50] = 1
        mask[5:15, 5:15] = 44  # not in the id list
        node.process_frame(*frame(_stamp(7), mask=mask))
        assert node.instance_drops["unlisted_id"] == 1
        values = {kv.key: kv.value for kv in node.publish_diagnostics().status[0].values}
        assert values["instances_dropped_unlisted_id"] == "1" and values["drop_bad_camera_info"] == "1"
    finally:
        node.destroy_node()
