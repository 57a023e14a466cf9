"""Tests of the ROS-free perception pipeline (tempomem_ros.perception).

Tolerances: planes seen head-on have closed-form point sets, so their centroids and boxes are checked
to 1e-6 m (float rounding only). Ray-cast boxes are checked to 5 mm without noise (points sit on pixel
centres, so a box edge can fall up to one pixel footprint, ~5 mm at 2.5 m, inside the true edge) and
to 15 mm with 3 mm depth noise.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tempomem_ros.core.errors import InvalidInputError, TempoMemError
from tempomem_ros.perception import (
    DROP_REASONS,
    CalibrationError,
    ConfigError,
    ImageEncodingError,
    ImageLayoutError,
    InputMismatchError,
    InstanceError,
    Intrinsics,
    PerceptionConfig,
    PerceptionError,
    PoseError,
    RawImage,
    StampSynchronizer,
    decode_color,
    decode_depth,
    decode_mask,
    extract_observations,
    intrinsics_from_camera_info,
    make_camera_view,
    matrix_to_pose,
    pose_to_matrix,
)
from tempomem_ros.perception.denoise import limit_threads, open3d_module, radius_inliers, statistical_inliers
from tempomem_ros.perception.extract import erode_mask
from tempomem_ros.perception.image import encode_float32, encode_uint16
from tempomem_ros.perception.synthetic import add_depth_noise, bench_scene, look_at, render_boxes
from tempomem_ros.perception.view import min_pool_depth

EXACT = 1e-6
NO_DENOISE = PerceptionConfig(outlier_method="none", max_points_per_instance=0, mask_erosion_px=0, depth_edge_step=0.0)

# A non-identity pose: rotated 30 deg about z and -20 deg about x, translated.
POSE_T = (1.0, -2.0, 0.5)
POSE_Q = (0.0, 0.0, np.sin(np.pi / 12), np.cos(np.pi / 12))  # 30 deg about z


def _quat_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


Q_X = (np.sin(-np.pi / 18), 0.0, 0.0, np.cos(-np.pi / 18))  # -20 deg about x
POSE = pose_to_matrix(POSE_T, _quat_mul(POSE_Q, Q_X))
NO_DROPS = dict.fromkeys(DROP_REASONS, 0)
K = Intrinsics(fx=500.0, fy=400.0, cx=310.3, cy=245.7, width=640, height=480)


def plane_frame(z=2.0, u0=100, u1=160, v0=200, v1=240, width=640, height=480, instance=1):
    """Depth of a head-on plane everywhere (z metres) and a rectangular mask [u0, u1) x [v0, v1)."""
    depth = np.full((height, width), z, dtype=np.float32)
    mask = np.zeros((height, width), dtype=np.uint16)
    mask[v0:v1, u0:u1] = instance
    return depth, mask


def expected_plane(z, u0, u1, v0, v1, T):
    """Closed form: centroid and world AABB of the back-projected pixel rectangle."""
    us = np.array([u0, u1 - 1, u0, u1 - 1], dtype=float)
    vs = np.array([v0, v0, v1 - 1, v1 - 1], dtype=float)
    corners = np.stack([(us - K.cx) * z / K.fx, (vs - K.cy) * z / K.fy, np.full(4, z)])
    world = T[:3, :3] @ corners + T[:3, 3:4]
    centre_cam = np.array([((u0 + u1 - 1) / 2 - K.cx) * z / K.fx, ((v0 + v1 - 1) / 2 - K.cy) * z / K.fy, z])
    return T[:3, :3] @ centre_cam + T[:3, 3], world.min(axis=1), world.max(axis=1)


def extract(depth, mask, ids=(1,), labels=None, confidences=None, config=NO_DENOISE, T=POSE, **kw):
    labels = labels if labels is not None else [f"obj{i}" for i in ids]
    confidences = confidences if confidences is not None else [0.9] * len(ids)
    return extract_observations(depth, mask, list(ids), labels, confidences, K, T, 12.5, config=config, **kw)


# --------------------------------------------------------------------------------------------- geometry


def test_plane_centroid_and_box_exact_in_world_frame():
    depth, mask = plane_frame(z=2.0)
    obs, drops = extract(depth, mask, labels=["mug"], confidences=[0.75])
    assert len(obs) == 1 and drops == NO_DROPS
    centre, low, high = expected_plane(2.0, 100, 160, 200, 240, POSE)
    o = obs[0]
    np.testing.assert_allclose(o.center, centre, atol=EXACT)
    np.testing.assert_allclose(o.bbox_min, low, atol=EXACT)
    np.testing.assert_allclose(o.bbox_max, high, atol=EXACT)
    assert (o.label, o.instance_id, o.n_points, o.stamp, o.feature) == ("mug", 1, 60 * 40, 12.5, None)
    assert o.confidence == pytest.approx(0.75)


def test_identity_pose_keeps_camera_coordinates():
    depth, mask = plane_frame(z=3.0, u0=0, u1=10, v0=0, v1=10)
    obs, _ = extract(depth, mask, T=np.eye(4))
    np.testing.assert_allclose(
        obs[0].bbox_min, [(0 - K.cx) * 3 / K.fx, (0 - K.cy) * 3 / K.fy, 3.0], atol=EXACT
    )
    np.testing.assert_allclose(
        obs[0].bbox_max, [(9 - K.cx) * 3 / K.fx, (9 - K.cy) * 3 / K.fy, 3.0], atol=EXACT
    )


def test_two_instances_keep_order_and_do_not_mix():
    depth, mask = plane_frame(z=2.0)
    depth[300:320, 400:450] = 4.0
    mask[300:320, 400:450] = 7
    obs, _ = extract(depth, mask, ids=(7, 1), labels=["b", "a"])
    assert [(o.instance_id, o.label, o.n_points) for o in obs] == [(7, "b", 20 * 50), (1, "a", 60 * 40)]
    c7, lo7, hi7 = expected_plane(4.0, 400, 450, 300, 320, POSE)
    np.testing.assert_allclose(obs[0].center, c7, atol=EXACT)
    np.testing.assert_allclose(obs[0].bbox_min, lo7, atol=EXACT)
    np.testing.assert_allclose(obs[0].bbox_max, hi7, atol=EXACT)


@pytest.mark.parametrize("method", ["none", "statistical", "radius"])
# One pixel of erosion costs one pixel footprint per side, more along a face seen at a grazing angle
# (crate's far face: 3.3 mm per pixel across, ~3 cm along the face).
@pytest.mark.parametrize("erosion, tolerance", [(0, 0.005), (1, 0.035)])
def test_ray_cast_boxes_recovered(method, erosion, tolerance):
    intr = Intrinsics(525.0, 525.0, 319.5, 239.5, 640, 480)
    T = look_at((0.3, -0.5, 1.5), (2.5, 0.4, 0.4))
    boxes = [((2.0, 0.0, 0.2), (2.4, 0.5, 0.7)), ((2.8, -0.8, 0.0), (3.6, -0.2, 0.9))]
    depth, mask = render_boxes(boxes, intr, T)
    config = PerceptionConfig(outlier_method=method, mask_erosion_px=erosion)
    obs, drops = extract_observations(
        depth, mask, [1, 2], ["box", "crate"], [0.9, 0.8], intr, T, 1.0, config=config
    )
    assert [o.label for o in obs] == ["box", "crate"] and sum(drops.values()) == 0
    for o, (low, high) in zip(obs, boxes):
        np.testing.assert_allclose(o.bbox_min, low, atol=tolerance)
        np.testing.assert_allclose(o.bbox_max, high, atol=tolerance)
        assert np.all(np.array(o.center) > low) and np.all(np.array(o.center) < high)


def test_ray_cast_boxes_with_noise_within_15mm():
    intr = Intrinsics(525.0, 525.0, 319.5, 239.5, 640, 480)
    T = look_at((0.3, -0.5, 1.5), (2.5, 0.4, 0.4))
    boxes = [((2.0, 0.0, 0.2), (2.4, 0.5, 0.7)), ((2.8, -0.8, 0.0), (3.6, -0.2, 0.9))]
    depth, mask = render_boxes(boxes, intr, T)
    noisy = add_depth_noise(depth, 0.003, seed=3)
    config = PerceptionConfig(mask_erosion_px=0)  # default statistical denoising; exact masks here
    obs, _ = extract_observations(noisy, mask, [1, 2], ["a", "b"], [0.9, 0.9], intr, T, 1.0, config=config)
    assert len(obs) == 2
    for o, (low, high) in zip(obs, boxes):
        np.testing.assert_allclose(o.bbox_min, low, atol=0.015)
        np.testing.assert_allclose(o.bbox_max, high, atol=0.015)


def test_subsampling_caps_points_deterministically_and_keeps_extremes_close():
    depth, mask = plane_frame(z=2.0, u0=0, u1=200, v0=0, v1=100)
    config = PerceptionConfig(outlier_method="none", max_points_per_instance=1000, mask_erosion_px=0)
    a, _ = extract(depth, mask, config=config)
    b, _ = extract(depth, mask, config=config)
    assert a[0].n_points == 1000
    assert a[0].center == b[0].center and a[0].bbox_min == b[0].bbox_min
    _, low, high = expected_plane(2.0, 0, 200, 0, 100, POSE)
    pixel = 2.0 / 400.0 * 20  # at most 20 skipped pixels along a row
    np.testing.assert_allclose(a[0].bbox_min, low, atol=pixel)
    np.testing.assert_allclose(a[0].bbox_max, high, atol=pixel)


def test_box_trim_percent_uses_percentiles():
    depth, mask = plane_frame(z=2.0, u0=0, u1=101, v0=0, v1=1)  # one row: X = (u - cx) z / fx
    config = PerceptionConfig(
        outlier_method="none", min_mask_pixels=1, box_trim_percent=10.0, mask_erosion_px=0
    )
    obs, _ = extract(depth, mask, config=config, T=np.eye(4))
    xs = (np.arange(101) - K.cx) * 2.0 / K.fx
    assert obs[0].bbox_min[0] == pytest.approx(np.percentile(xs, 10.0), abs=EXACT)
    assert obs[0].bbox_max[0] == pytest.approx(np.percentile(xs, 90.0), abs=EXACT)
    assert obs[0].bbox_min[0] > xs.min() + 0.01  # really trimmed, not min/max


# ------------------------------------------------------------------------------------------ invalid depth


def test_nan_zero_inf_and_out_of_range_depth_dropped():
    depth, mask = plane_frame(z=2.0, u0=0, u1=10, v0=0, v1=10)
    depth[5, 2] = np.nan
    depth[5, 3] = 0.0
    depth[5, 4] = np.inf
    depth[5, 5] = -1.0
    depth[5, 6] = 0.05  # below min_depth 0.1
    depth[5, 7] = 7.0  # above max_depth 6
    obs, _ = extract(depth, mask)
    assert obs[0].n_points == 100 - 6
    # Interior pixels only: what remains is the plane at z = 2 with its corners, nothing nearer/farther.
    _, low, high = expected_plane(2.0, 0, 10, 0, 10, POSE)
    np.testing.assert_allclose(obs[0].bbox_min, low, atol=EXACT)
    np.testing.assert_allclose(obs[0].bbox_max, high, atol=EXACT)


def test_16uc1_zero_is_invalid():
    mm = np.full((4, 4), 2000, dtype=np.uint16)
    mm[1, 2] = 0
    depth = decode_depth(encode_uint16(mm))
    assert depth.dtype == np.float32 and np.isnan(depth[1, 2]) and np.isnan(depth).sum() == 1
    assert depth[0, 0] == pytest.approx(2.0)


# ------------------------------------------------------------------------------------ masks and counters


def test_tiny_empty_and_depthless_masks_dropped_and_counted():
    depth, mask = plane_frame(z=2.0)  # id 1: 2400 pixels
    mask[0:3, 0:3] = 2  # 9 pixels < min_mask_pixels 50
    mask[10:30, 10:30] = 4
    depth[10:30, 10:30] = np.nan  # 400 pixels, none with valid depth
    obs, drops = extract(depth, mask, ids=(1, 2, 3, 4))  # id 3 is not in the mask at all
    assert [o.instance_id for o in obs] == [1]
    assert drops == {**NO_DROPS, "empty_mask": 1, "tiny_mask": 2}
    assert set(drops) == set(DROP_REASONS)


def test_mask_exactly_min_pixels_is_kept():
    depth, mask = plane_frame(z=2.0, u0=0, u1=10, v0=0, v1=5)  # 50 pixels
    obs, drops = extract(depth, mask, config=NO_DENOISE)
    assert len(obs) == 1 and drops["tiny_mask"] == 0
    obs, drops = extract(depth, mask, config=dataclasses.replace(NO_DENOISE, min_mask_pixels=51))
    assert obs == [] and drops["tiny_mask"] == 1


def test_no_ids_gives_no_observations():
    depth, mask = plane_frame()
    # the mask's instance 1 is not in the (empty) id list: ignored, and counted (issue 12)
    assert extract_observations(depth, mask, [], [], [], K, POSE, 1.0) == ([], {**dict.fromkeys(DROP_REASONS, 0),
                                                                                "unlisted_id": 1})


# -------------------------------------------------------------------------------------------- erosion


def test_erode_mask_peels_one_layer_per_pixel():
    mask = np.zeros((7, 8), dtype=np.uint16)
    mask[1:6, 1:5] = 3  # 5 x 4 block
    mask[1:6, 5:8] = 4  # touches 3 on the right and the image border
    one = erode_mask(mask, 1)
    expected = np.zeros_like(mask)
    expected[2:5, 2:4] = 3
    expected[2:5, 6:8] = 4  # the border column is kept: the object was cut, it did not bleed there
    np.testing.assert_array_equal(one, expected)
    two = erode_mask(mask, 2)
    expected2 = np.zeros_like(mask)
    expected2[3:4, 7:8] = 4
    np.testing.assert_array_equal(two, expected2)
    np.testing.assert_array_equal(erode_mask(mask, 0), mask)


def test_erosion_removes_mask_bleed_onto_far_background():
    depth, mask = plane_frame(z=2.0, u0=99, u1=161, v0=199, v1=241)  # mask one pixel too large
    depth[:] = 4.5  # the wall behind
    depth[200:240, 100:160] = 2.0  # the object
    bled, _ = extract(depth, mask)  # no erosion: the ring at 4.5 m stretches the box
    assert bled[0].n_points == 62 * 42
    eroded, _ = extract(depth, mask, config=dataclasses.replace(NO_DENOISE, mask_erosion_px=1))
    centre, low, high = expected_plane(2.0, 100, 160, 200, 240, POSE)
    assert eroded[0].n_points == 60 * 40
    np.testing.assert_allclose(eroded[0].center, centre, atol=EXACT)
    np.testing.assert_allclose(eroded[0].bbox_min, low, atol=EXACT)
    np.testing.assert_allclose(eroded[0].bbox_max, high, atol=EXACT)
    assert np.max(np.abs(np.array(bled[0].bbox_max) - high)) > 0.5


def test_erosion_never_erases_a_thin_object():
    """Erosion would leave 32 of 60 pixels (< min_mask_pixels): the un-eroded mask is used instead, so a
    thin object (a bottle a few pixels wide) is still observed; a mask tiny even before erosion is dropped."""
    depth, mask = plane_frame(z=2.0, u0=0, u1=10, v0=100, v1=106)  # 60 pixels, 32 after erosion
    kept, _ = extract(depth, mask, config=dataclasses.replace(NO_DENOISE, min_mask_pixels=50))
    eroded, drops = extract(
        depth, mask, config=dataclasses.replace(NO_DENOISE, min_mask_pixels=50, mask_erosion_px=1)
    )
    assert len(kept) == 1 and len(eroded) == 1
    assert drops == NO_DROPS
    assert eroded[0].n_points == kept[0].n_points == 60
    tiny, drops = extract(depth, mask, config=dataclasses.replace(NO_DENOISE, min_mask_pixels=61, mask_erosion_px=1))
    assert tiny == [] and drops == {**NO_DROPS, "tiny_mask": 1}


def _bled_table_frame():
    """A table-top edge 2 m away over a floor 4.5 m behind; the mask bleeds 3 px over its upper edge."""
    depth, mask = plane_frame(z=2.0, u0=100, u1=160, v0=197, v1=240)
    depth[:] = 4.5  # the floor / wall behind
    depth[200:240, 100:160] = 2.0  # the object: rows 197-199 of the mask are bleed
    return depth, mask


def test_depth_edge_trim_drops_a_bleed_strip_that_erosion_leaves():
    """A 3-px bleed strip: erosion peels one row, the other two (a dense line at 4.5 m) stay without the
    trim; the trim cuts them off across the depth edge and the box is the object's own (less the
    eroded ring and the pixel row cut on the object's side of the edge)."""
    depth, mask = _bled_table_frame()
    eroded_only = dataclasses.replace(NO_DENOISE, mask_erosion_px=1)
    bled, _ = extract(depth, mask, config=eroded_only)
    assert np.max(np.abs(np.array(bled[0].bbox_max) - expected_plane(2.0, 100, 160, 200, 240, POSE)[2])) > 0.5
    trimmed, drops = extract(depth, mask, config=dataclasses.replace(eroded_only, depth_edge_step=0.02))
    assert drops == NO_DROPS
    centre, low, high = expected_plane(2.0, 101, 159, 201, 239, POSE)
    assert trimmed[0].n_points == 58 * 38
    np.testing.assert_allclose(trimmed[0].bbox_min, low, atol=EXACT)
    np.testing.assert_allclose(trimmed[0].bbox_max, high, atol=EXACT)
    np.testing.assert_allclose(trimmed[0].center, centre, atol=EXACT)
    assert PerceptionConfig().depth_edge_step > 0.0  # on by default


def test_depth_edge_trim_keeps_a_thin_object_at_a_grazing_angle():
    """A strip on a plane seen so obliquely that every horizontal neighbour step exceeds the threshold
    (inverse depth +0.03 1/m per pixel): the trim leaves no piece of min_mask_pixels, so the instance is
    observed as erosion left it, never dropped."""
    depth, mask = plane_frame(z=2.0, u0=100, u1=160, v0=200, v1=206)
    u = np.arange(depth.shape[1], dtype=np.float64)
    depth[:] = (1.0 / (0.5 + 0.03 * np.clip(u - 100, 0, None)))[None, :].astype(np.float32)
    config = dataclasses.replace(NO_DENOISE, mask_erosion_px=1, min_mask_pixels=50)
    plain, _ = extract(depth, mask, config=config)
    trimmed, drops = extract(depth, mask, config=dataclasses.replace(config, depth_edge_step=0.02))
    assert drops == NO_DROPS
    assert len(trimmed) == 1 and trimmed[0].n_points == plain[0].n_points == 58 * 4
    np.testing.assert_allclose(trimmed[0].bbox_min, plain[0].bbox_min, atol=EXACT)
    np.testing.assert_allclose(trimmed[0].bbox_max, plain[0].bbox_max, atol=EXACT)


def test_depth_edge_trim_keeps_one_piece_per_instance_and_never_joins_two():
    """Two touching instances at one depth (no erosion): each keeps its own largest piece, the boundary
    column on both sides is cut; a 3-px strip of one instance elsewhere, one row of it on the wall
    behind, is dropped, a thick piece at another depth is kept; the result does not depend on the id order."""
    from tempomem_ros.perception.extract import trim_depth_edges

    depth, mask = plane_frame(z=2.0, u0=100, u1=130, v0=200, v1=240, instance=1)
    mask[200:240, 130:160] = 2
    mask[200:203, 170:180] = 1  # a second, smaller part of instance 1 with a depth edge inside (its
    depth[202, 170:180] = 4.5     # last row lies on the wall behind): what the cut leaves of it is dropped
    out = trim_depth_edges(mask, depth, np.ones(depth.shape, dtype=bool), 0.02)
    assert np.count_nonzero(out == 1) == 29 * 40 and np.count_nonzero(out == 2) == 29 * 40
    assert not (out[200:240, 129] | out[200:240, 130]).any() and not out[200:202, 170:180].any()
    depth[210:215, 90:100] = 3.0  # a thick piece of instance 1 at another depth, touching its body (a
    mask[210:215, 90:100] = 1     # chair's back seen apart from its seat): kept, less the cut column
    out = trim_depth_edges(mask, depth, np.ones(depth.shape, dtype=bool), 0.02)
    assert np.count_nonzero(out[210:215, 90:99] == 1) == 5 * 9 and not out[210:215, 99].any()
    assert np.count_nonzero(trim_depth_edges(mask, depth, np.ones(depth.shape, dtype=bool), 0.02,
                                             keep_thick=False)[210:215, 90:100]) == 0
    swapped = np.where(mask == 1, 2, np.where(mask == 2, 1, 0)).astype(np.uint16)
    out2 = trim_depth_edges(swapped, depth, np.ones(depth.shape, dtype=bool), 0.02)
    np.testing.assert_array_equal(out2 != 0, out != 0)


def test_depth_edge_trim_keeps_the_legs_of_a_chair_seen_through_a_table():
    """A chair behind a table: its back shows above the table top, two 4-px legs below it (the mask is in
    three parts, split by the nearer table, none with a depth edge inside). No bleed anywhere, so the trim
    must change nothing: before the fix it kept only the largest piece (the back) and every piece with an
    interior pixel, and the eroded legs (2 px wide) were dropped, lifting the box off the floor."""
    depth, mask = plane_frame(z=5.0, u0=0, u1=0, v0=0, v1=0)
    depth[200:260, 100:160], mask[200:260, 100:160] = 3.0, 1  # the chair's back
    depth[260:310, 60:220], mask[260:310, 60:220] = 2.5, 2  # the table, nearer
    for u in (100, 156):
        depth[310:340, u:u + 4], mask[310:340, u:u + 4] = 3.0, 1  # the chair's legs below the table
    config = dataclasses.replace(NO_DENOISE, mask_erosion_px=1)
    plain, _ = extract(depth, mask, ids=[1, 2], labels=["chair", "table"], confidences=[0.9, 0.9], config=config)
    trimmed, drops = extract(depth, mask, ids=[1, 2], labels=["chair", "table"], confidences=[0.9, 0.9],
                             config=dataclasses.replace(config, depth_edge_step=0.02))
    assert drops == NO_DROPS and [o.n_points for o in trimmed] == [o.n_points for o in plain]
    for a, b in zip(trimmed, plain):
        np.testing.assert_allclose(a.bbox_min, b.bbox_min, atol=EXACT)
        np.testing.assert_allclose(a.bbox_max, b.bbox_max, atol=EXACT)


# -------------------------------------------------------------------------------------------- outliers


def _plane_with_outliers():
    rng = np.random.default_rng(7)
    depth, mask = plane_frame(z=2.0, u0=100, u1=180, v0=100, v1=160)
    depth = add_depth_noise(depth, 0.002, seed=1)
    rows = rng.integers(100, 160, 6)
    cols = rng.integers(100, 180, 6)
    depth[rows, cols] = 4.5  # mask bleed: 6 pixels of the wall 2.5 m behind
    return depth, mask


@pytest.mark.parametrize("method", ["statistical", "radius"])
@pytest.mark.parametrize("use_open3d", [True, False])
def test_far_outliers_removed_by_denoising_and_present_without(method, use_open3d):
    depth, mask = _plane_with_outliers()
    T = np.eye(4)
    raw, _ = extract(depth, mask, T=T, config=NO_DENOISE)
    assert raw[0].bbox_max[2] == pytest.approx(4.5, abs=1e-6)  # present without denoising
    assert raw[0].n_points == 80 * 60
    config = PerceptionConfig(
        outlier_method=method, use_open3d=use_open3d, max_points_per_instance=0, mask_erosion_px=0
    )
    clean, _ = extract(depth, mask, T=T, config=config)
    assert clean[0].bbox_max[2] < 2.02 and clean[0].bbox_min[2] > 1.98
    assert 80 * 60 - 6 - 100 <= clean[0].n_points <= 80 * 60 - 6  # the 6 gone, little else
    assert clean[0].center[2] == pytest.approx(2.0, abs=0.002)


def test_open3d_and_scipy_backends_agree():
    if open3d_module() is None:
        pytest.skip("open3d not importable: only the scipy backend exists")
    rng = np.random.default_rng(11)
    points = np.concatenate([rng.normal(size=(400, 3)) * 0.1, rng.uniform(-1, 1, size=(15, 3))])
    for k, ratio in ((5, 1.0), (10, 2.0), (20, 0.5)):
        a = statistical_inliers(points, k, ratio, use_open3d=True)
        b = statistical_inliers(points, k, ratio, use_open3d=False)
        assert np.array_equal(a, b) and 0 < a.sum() < len(points)
    for radius, nb in ((0.05, 3), (0.1, 8)):
        a = radius_inliers(points, radius, nb, use_open3d=True)
        b = radius_inliers(points, radius, nb, use_open3d=False)
        assert np.array_equal(a, b) and 0 < a.sum() < len(points)


@pytest.mark.parametrize("threads", [-1, 1.5, True])
def test_limit_threads_rejects_bad_counts(threads):
    with pytest.raises(ConfigError):
        limit_threads(threads)


@pytest.mark.parametrize("use_open3d", [True, False])
def test_statistical_keeps_equally_spaced_and_tiny_clouds(use_open3d):
    square = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], dtype=float)
    assert statistical_inliers(square, 3, 2.0, use_open3d).tolist() == [True] * 4
    assert statistical_inliers(square[:2], 10, 2.0, use_open3d).tolist() == [True, True]


# ----------------------------------------------------------------------------------------------- features


def test_features_are_l2_normalised_and_zero_rows_dropped():
    depth, mask = plane_frame()
    mask[300:310, 300:310] = 2
    feats = np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0]])
    obs, _ = extract(depth, mask, ids=(1, 2), features=feats)
    assert obs[0].feature.dtype == np.float32
    np.testing.assert_allclose(obs[0].feature, [0.6, 0.8, 0.0], atol=1e-7)
    assert obs[1].feature is None


# ------------------------------------------------------------------------------------------- bad inputs


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"labels": ["a", "b"]}, InputMismatchError),
        ({"confidences": [0.5, 0.5]}, InputMismatchError),
        ({"features": np.ones((2, 4))}, InputMismatchError),
        ({"features": np.ones(4)}, InputMismatchError),
        ({"features": np.full((1, 4), np.nan)}, InstanceError),
        ({"confidences": [1.5]}, InstanceError),
        ({"confidences": [float("nan")]}, InstanceError),
        ({"ids": (0,)}, InstanceError),
        ({"ids": (70000,)}, InstanceError),
        ({"ids": (1, 1), "labels": ["a", "a"], "confidences": [0.5, 0.5]}, InstanceError),
        ({"labels": [3]}, InstanceError),
    ],
)
def test_bad_instance_lists_raise(kwargs, error):
    depth, mask = plane_frame()
    args = {"ids": (1,), "labels": ["a"], "confidences": [0.5]}
    args.update(kwargs)
    with pytest.raises(error):
        extract(
            depth,
            mask,
            ids=args.pop("ids"),
            labels=args.pop("labels"),
            confidences=args.pop("confidences"),
            **args,
        )


def test_mismatched_image_sizes_raise():
    depth, mask = plane_frame()
    with pytest.raises(InputMismatchError, match="mask is 320x480 but depth is 640x480"):
        extract(depth, mask[:, :320])
    with pytest.raises(InputMismatchError, match="camera_info says 640x480"):
        extract(depth[:240], mask[:240])
    with pytest.raises(InputMismatchError, match="float array in metres"):
        extract((depth * 1000).astype(np.uint16), mask)
    with pytest.raises(InputMismatchError, match="integer array"):
        extract(depth, mask.astype(np.float32))
    with pytest.raises(InputMismatchError):
        make_camera_view(depth[:, :100], K, POSE, 5.0)


def test_bad_pose_and_stamp_raise():
    depth, mask = plane_frame()
    bad = POSE.copy()
    bad[0, 3] = np.nan
    with pytest.raises(PoseError):
        extract(depth, mask, T=bad)
    with pytest.raises(PoseError):
        extract(depth, mask, T=np.eye(3))
    with pytest.raises(PoseError):
        extract(depth, mask, T=np.diag([2.0, 1.0, 1.0, 1.0]))
    with pytest.raises(PerceptionError, match="stamp"):
        extract_observations(depth, mask, [1], ["a"], [0.5], K, POSE, float("nan"))


def test_errors_share_the_core_hierarchy():
    errors = (
        CalibrationError,
        ConfigError,
        ImageEncodingError,
        ImageLayoutError,
        InputMismatchError,
        InstanceError,
        PoseError,
    )
    for cls in errors:
        assert issubclass(cls, PerceptionError) and issubclass(cls, InvalidInputError)
        assert issubclass(cls, TempoMemError) and issubclass(cls, ValueError)
    reasons = {cls.reason for cls in errors}
    assert len(reasons) == 7


# --------------------------------------------------------------------------------------------- decoding


def _depth_mm(height=6, width=5):
    rng = np.random.default_rng(3)
    mm = rng.integers(300, 5000, (height, width)).astype(np.uint16)
    mm[2, 3] = 0
    return mm


def test_16uc1_and_32fc1_decode_equivalently():
    mm = _depth_mm()
    metres = np.where(mm == 0, np.nan, mm / 1000.0).astype(np.float32)
    a = decode_depth(encode_uint16(mm))
    b = decode_depth(encode_float32(metres))
    assert a.shape == b.shape == (6, 5) and a.dtype == b.dtype == np.float32
    np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
    np.testing.assert_allclose(a, b, atol=1e-6, equal_nan=True)


def test_32fc1_invalid_values_become_nan():
    values = np.array([[1.5, np.nan, np.inf], [-np.inf, 0.0, -2.0]], dtype=np.float32)
    depth = decode_depth(encode_float32(values))
    assert depth[0, 0] == pytest.approx(1.5)
    assert np.isnan(depth).tolist() == [[False, True, True], [True, True, True]]


def test_depth_unit_for_16uc1():
    depth = decode_depth(encode_uint16(np.array([[1000, 250]])), unit_16u=0.0001)
    np.testing.assert_allclose(depth, [[0.1, 0.025]], rtol=1e-6)


def _padded(raw: RawImage, pad: int, fill: int = 0xAB) -> RawImage:
    rows = np.frombuffer(raw.data, np.uint8).reshape(raw.height, raw.step)
    padded = np.concatenate([rows, np.full((raw.height, pad), fill, np.uint8)], axis=1)
    return raw._replace(step=raw.step + pad, data=padded.tobytes())


def test_step_padding_is_skipped():
    mm = _depth_mm()
    plain = decode_depth(encode_uint16(mm))
    np.testing.assert_array_equal(decode_depth(_padded(encode_uint16(mm), 6)), plain)
    metres = decode_depth(encode_float32(plain))
    padded_f = decode_depth(_padded(encode_float32(plain), 3))  # step not a multiple of 4
    np.testing.assert_array_equal(padded_f, metres)
    mask = np.arange(30, dtype=np.uint16).reshape(6, 5)
    np.testing.assert_array_equal(decode_mask(_padded(encode_uint16(mask), 2)), mask)


def test_big_endian_images():
    mm = _depth_mm()
    big = RawImage("16UC1", 6, 5, 10, True, mm.astype(">u2").tobytes())
    np.testing.assert_array_equal(decode_depth(big), decode_depth(encode_uint16(mm)), strict=True)
    metres = np.linspace(0.5, 3.0, 30, dtype=np.float32).reshape(6, 5)
    big_f = RawImage("32FC1", 6, 5, 20, True, metres.astype(">f4").tobytes())
    np.testing.assert_array_equal(decode_depth(big_f), metres)
    ids = np.arange(30, dtype=np.uint16).reshape(6, 5) * 1000
    big_m = RawImage("16UC1", 6, 5, 10, True, ids.astype(">u2").tobytes())
    np.testing.assert_array_equal(decode_mask(big_m), ids)
    # The same bytes read as little-endian are different numbers: the flag is really honoured.
    assert not np.array_equal(decode_mask(big_m._replace(is_bigendian=False)), ids)


def test_bad_images_raise_specific_errors():
    mm = _depth_mm()
    good = encode_uint16(mm)
    with pytest.raises(ImageEncodingError, match="'rgb8'"):
        decode_depth(good._replace(encoding="rgb8"))
    with pytest.raises(ImageEncodingError):
        decode_mask(good._replace(encoding="32FC1"))
    with pytest.raises(ImageLayoutError, match="expected step 10 \\* height 6 = 60"):
        decode_depth(good._replace(data=good.data[:-2]))
    with pytest.raises(ImageLayoutError, match="step 8 < width 5"):
        decode_depth(good._replace(step=8, data=good.data[:48]))
    with pytest.raises(ImageLayoutError, match="empty"):
        decode_depth(good._replace(width=0, step=0, data=b""))


def test_color_decoding_orders_channels_as_rgb():
    rgb = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    as_rgb = RawImage("rgb8", 2, 3, 9, False, rgb.tobytes())
    as_bgr = RawImage("bgr8", 2, 3, 9, False, rgb[:, :, ::-1].tobytes())
    rgba = np.concatenate([rgb, np.full((2, 3, 1), 255, np.uint8)], axis=2)
    as_rgba = RawImage("rgba8", 2, 3, 12, False, rgba.tobytes())
    for image in (as_rgb, as_bgr, as_rgba):
        np.testing.assert_array_equal(decode_color(image), rgb)


# ------------------------------------------------------------------------------------------- intrinsics

K_RAW = [600.0, 0.0, 320.0, 0.0, 610.0, 240.0, 0.0, 0.0, 1.0]
P_RECT = [580.0, 0.0, 315.0, 0.0, 0.0, 585.0, 236.0, 0.0, 0.0, 0.0, 1.0, 0.0]


def test_rectified_intrinsics_from_p_by_default():
    intr = intrinsics_from_camera_info(K_RAW, P_RECT, 640, 480)
    assert (intr.fx, intr.fy, intr.cx, intr.cy, intr.width, intr.height) == (580, 585, 315, 236, 640, 480)
    assert intrinsics_from_camera_info(K_RAW, P_RECT, 640, 480, "P") == intr


def test_unrectified_intrinsics_from_k():
    intr = intrinsics_from_camera_info(K_RAW, P_RECT, 640, 480, source="K")
    assert (intr.fx, intr.fy, intr.cx, intr.cy) == (600, 610, 320, 240)
    # auto falls back to K when P is empty
    assert intrinsics_from_camera_info(K_RAW, [0.0] * 12, 640, 480) == intr


def test_uncalibrated_and_malformed_camera_info_raise():
    with pytest.raises(CalibrationError, match="uncalibrated"):
        intrinsics_from_camera_info([0.0] * 9, [0.0] * 12, 640, 480)
    with pytest.raises(CalibrationError, match="P\\[0\\] is 0"):
        intrinsics_from_camera_info(K_RAW, [0.0] * 12, 640, 480, source="P")
    with pytest.raises(CalibrationError, match="9 numbers"):
        intrinsics_from_camera_info(K_RAW[:8], P_RECT, 640, 480)
    with pytest.raises(CalibrationError, match="finite"):
        intrinsics_from_camera_info(K_RAW, [np.nan] + P_RECT[1:], 640, 480)
    with pytest.raises(CalibrationError, match="positive"):
        intrinsics_from_camera_info(K_RAW, [-5.0] + P_RECT[1:], 640, 480)
    with pytest.raises(CalibrationError, match="width"):
        intrinsics_from_camera_info(K_RAW, P_RECT, 0, 480)
    with pytest.raises(CalibrationError, match="source"):
        intrinsics_from_camera_info(K_RAW, P_RECT, 640, 480, source="X")


# ------------------------------------------------------------------------------------------------- poses


def test_pose_to_matrix_normalises_and_rotates():
    s = np.sqrt(0.5)
    T = pose_to_matrix((1.0, 2.0, 3.0), (0.0, 0.0, 2 * s, 2 * s))  # 90 deg about z, norm 2
    np.testing.assert_allclose(T @ [1.0, 0.0, 0.0, 1.0], [1.0, 3.0, 3.0, 1.0], atol=1e-12)
    position, quaternion = matrix_to_pose(T)
    np.testing.assert_allclose(position, (1.0, 2.0, 3.0))
    np.testing.assert_allclose(quaternion, (0.0, 0.0, s, s), atol=1e-12)


def test_matrix_to_pose_round_trips_large_rotations():
    for q in ((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0), (0.5, -0.5, 0.5, -0.5)):
        T = pose_to_matrix((0.0, 0.0, 0.0), q)
        _, back = matrix_to_pose(T)
        np.testing.assert_allclose(pose_to_matrix((0, 0, 0), back), T, atol=1e-12)


@pytest.mark.parametrize("q", [(0.0, 0.0, 0.0, 0.0), (np.nan, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0), "abcd"])
def test_bad_quaternions_raise(q):
    with pytest.raises(PoseError):
        pose_to_matrix((0.0, 0.0, 0.0), q)


def test_non_finite_position_raises():
    with pytest.raises(PoseError, match="finite"):
        pose_to_matrix((0.0, np.inf, 0.0), (0.0, 0.0, 0.0, 1.0))


# ---------------------------------------------------------------------------------------------- the view


def test_min_pool_takes_block_minimum_and_nan_for_empty_blocks():
    depth = np.array(
        [
            [2.0, 3.0, np.nan, np.nan, 5.0, 0.0],
            [4.0, 1.5, np.nan, np.nan, 0.0, 6.0],
            [1.0, 1.0, 9.0, np.nan, 7.0, 8.0],
            [1.0, 1.0, np.nan, np.nan, 7.5, 8.5],
        ],
        dtype=np.float32,
    )
    coarse = min_pool_depth(depth, 2)
    np.testing.assert_array_equal(coarse, np.array([[1.5, np.nan, 5.0], [1.0, 9.0, 7.0]], np.float32))
    assert coarse.dtype == np.float32


def test_min_pool_partial_blocks_cover_the_whole_image():
    depth = np.arange(1, 26, dtype=np.float32).reshape(5, 5)
    coarse = min_pool_depth(depth, 2)
    np.testing.assert_array_equal(coarse, [[1, 3, 5], [11, 13, 15], [21, 23, 25]])


def test_camera_view_fields():
    depth, _ = plane_frame(z=2.0)
    depth[8:16, 16:24] = np.nan
    depth[17, 30] = 0.7  # a nearer pixel anywhere in a block makes the whole block near
    view = make_camera_view(depth, K, POSE, 4.5, scale=0.125, stamp=12.5)
    assert view.depth.shape == (60, 80) and view.depth.dtype == np.float32
    assert np.isnan(view.depth[1, 2]) and np.isnan(view.depth).sum() == 1
    assert view.depth[2, 3] == pytest.approx(0.7) and view.depth[2, 4] == pytest.approx(2.0)
    assert (view.fx, view.fy, view.cx, view.cy, view.width, view.height) == (500, 400, 310.3, 245.7, 640, 480)
    assert (view.max_range, view.stamp) == (4.5, 12.5)
    np.testing.assert_array_equal(view.pose, POSE)


@pytest.mark.parametrize("scale", [0.3, 0.0, 1.5, float("nan")])
def test_camera_view_rejects_non_integral_scale(scale):
    depth, _ = plane_frame()
    with pytest.raises(ConfigError):
        make_camera_view(depth, K, POSE, 5.0, scale=scale)


@pytest.mark.parametrize("max_range", [0.0, -1.0, float("inf")])
def test_camera_view_rejects_bad_range(max_range):
    depth, _ = plane_frame()
    with pytest.raises(PerceptionError, match="max_range"):
        make_camera_view(depth, K, POSE, max_range)


# ---------------------------------------------------------------------------------------------- config


@pytest.mark.parametrize(
    "kwargs",
    [
        {"min_depth": -0.1},
        {"max_depth": 0.05},
        {"min_depth": 2.0, "max_depth": 1.0},
        {"outlier_method": "dbscan"},
        {"min_mask_pixels": 0},
        {"min_mask_pixels": True},
        {"min_mask_pixels": 2.5},
        {"stat_std_ratio": float("nan")},
        {"box_trim_percent": 50.0},
        {"view_scale": 0.3},
        {"intrinsics_source": "R"},
        {"use_open3d": 1},
    ],
)
def test_config_validation(kwargs):
    with pytest.raises(ConfigError):
        PerceptionConfig(**kwargs)


def test_config_coerces_integers_for_float_fields():
    config = PerceptionConfig(max_depth=4)
    assert isinstance(config.max_depth, float) and config.max_depth == 4.0


def test_bench_scene_gives_all_instances():
    depth, mask, ids, labels, conf, intr, T, _ = bench_scene(20)
    obs, drops = extract_observations(depth, mask, ids, labels, conf, intr, T, 0.0)
    assert len(obs) == 20 and sum(drops.values()) == 0


# ------------------------------------------------------------------------------------------------ sync


def test_synchronizer_matches_equal_and_close_stamps():
    sync = StampSynchronizer(["depth", "masks", "pose"], slop_ns=5_000_000, queue_size=5)
    assert sync.add("depth", 1_000_000_000, "d1") is None
    assert sync.add("masks", 1_000_000_000, "m1") is None
    assert sync.add("pose", 1_003_000_000, "p1") == {"depth": "d1", "masks": "m1", "pose": "p1"}
    assert sync.pending() == {"depth": 0, "masks": 0, "pose": 0}


def test_synchronizer_respects_slop_and_discards_stale():
    sync = StampSynchronizer(["depth", "masks"], slop_ns=1000, queue_size=3)
    assert sync.add("depth", 10_000, "d_old") is None
    assert sync.add("depth", 20_000, "d_new") is None
    assert sync.add("masks", 21_001, "m_far") is None  # 1001 ns > slop
    assert sync.add("masks", 20_500, "m_new") == {"masks": "m_new", "depth": "d_new"}
    assert sync.discarded == 1  # d_old can never be completed; m_far is newer and stays
    assert sync.pending() == {"depth": 0, "masks": 1}


def test_synchronizer_queue_is_bounded():
    sync = StampSynchronizer(["depth", "masks"], slop_ns=0, queue_size=2)
    for i in range(5):
        assert sync.add("depth", i, f"d{i}") is None
    assert sync.pending()["depth"] == 2 and sync.discarded == 3
    assert sync.add("masks", 4, "m4") == {"masks": "m4", "depth": "d4"}
    assert sync.add("masks", 0, "m0") is None  # d0 was evicted


def test_synchronizer_rejects_bad_setup():
    with pytest.raises(ConfigError):
        StampSynchronizer(["a", "a"], 0)
    with pytest.raises(ConfigError):
        StampSynchronizer(["a"], -1)
    with pytest.raises(ConfigError, match="unknown stream"):
        StampSynchronizer(["a"], 0).add("b", 0, None)


def test_far_object_is_not_rebuilt_from_its_bleed_pixels():
    """A 6x10 mask whose object lies beyond max_depth, with valid depth only on a 1-pixel bleed border
    (a door frame in front): erosion removes the border and the object is dropped, not placed on the frame."""
    depth, mask = plane_frame(z=2.0, u0=0, u1=10, v0=100, v1=106)
    depth[101:105, 1:9] = 9.0  # the object itself: beyond max_depth (6 m)
    obs, drops = extract(depth, mask, config=dataclasses.replace(NO_DENOISE, min_mask_pixels=20, mask_erosion_px=1))
    assert obs == [] and drops == {**NO_DROPS, "tiny_mask": 1}
