"""ADT kitchen frames: the bag converter, the scorer's geometry and matching, and the real-data floors.

Tests that read the dataset are skipped (with the reason) when ../shared/datasets/adt_kitchen_3f is not
beside the repository (override: TEMPOMEM_SHARED); the scoring unit tests use tiny synthetic cases with
closed-form answers and always run. The real-data floors sit just under what was measured on the
default PerceptionConfig (docs/RESULTS.md): recall at 0.10 m 30/44 = 0.682, at 0.05 m 15/44 = 0.341,
median centroid error 0.0498 m, median IoU 0.677, precision 50/65, no duplicates, no merged or split
objects.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from tempomem_ros import topics
from tempomem_ros.tools import adt, adt_eval, bagio
from tempomem_ros.tools.adt_eval import EvalError, MemObject, StoreContents, Visibility

DATA = adt.default_data_dir()
HAS_DATA = (DATA / "frames.json").is_file() and (DATA / "gt_objects.json").is_file()
needs_data = pytest.mark.skipif(not HAS_DATA, reason=f"ADT dataset not found at {DATA} "
                                f"(set {adt.SHARED_ENV} to the folder holding datasets/)")
CAMERA_TOPICS = (topics.CAMERA_INFO, topics.COLOR, topics.DEPTH, topics.INSTANCES, topics.POSE)


def rot_z(deg: float) -> tuple:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))


IDENTITY = rot_z(0.0)


def gt_obj(gt_id: int, category: str, center, size=(0.1, 0.1, 0.1), R=IDENTITY) -> adt.GtObject:
    return adt.GtObject(gt_id=gt_id, name=f"obj{gt_id}", category=category, motion="static",
                        center=tuple(center), size=tuple(size), R=R)


def mem_obj(oid: int, label: str, center, half: float = 0.05) -> MemObject:
    c = tuple(float(x) for x in center)
    return MemObject(oid, label, c, tuple(x - half for x in c), tuple(x + half for x in c))


# ------------------------------------------------------------------------------------------- IoU (exact)


def test_iou_of_a_cube_and_itself_rotated_45_degrees_is_one_over_root_two():
    # Unit cube vs the same cube turned 45 deg about z: the overlap is a regular-octagon prism of area
    # 2(sqrt2 - 1), so IoU = 2(sqrt2 - 1) / (2 - 2(sqrt2 - 1)) = 1 / sqrt2.
    iou = adt_eval.aabb_obb_iou((0, 0, 0), (1, 1, 1), (0.5, 0.5, 0.5), (1, 1, 1), rot_z(45.0))
    assert iou == pytest.approx(1.0 / math.sqrt(2.0), abs=1e-9)


def test_iou_closed_forms():
    box = ((0, 0, 0), (1, 1, 1))
    assert adt_eval.aabb_obb_iou(*box, (0.5, 0.5, 0.5), (1, 1, 1), IDENTITY) == pytest.approx(1.0, abs=1e-9)
    # half of the cube overlaps a shifted copy: 0.5 / 1.5
    assert adt_eval.aabb_obb_iou(*box, (1.0, 0.5, 0.5), (1, 1, 1), IDENTITY) == pytest.approx(1 / 3, abs=1e-9)
    # contained in a box twice as large on every side, turned 90 deg (the same box): 1 / 8
    assert adt_eval.aabb_obb_iou(*box, (0.5, 0.5, 0.5), (2, 2, 2), rot_z(90.0)) == pytest.approx(0.125, abs=1e-9)
    # disjoint, touching only at a face, and a flat (zero-volume) memory box: 0
    assert adt_eval.aabb_obb_iou(*box, (3.0, 0.5, 0.5), (1, 1, 1), IDENTITY) == 0.0
    assert adt_eval.aabb_obb_iou(*box, (1.5, 0.5, 0.5), (1, 1, 1), IDENTITY) == 0.0
    assert adt_eval.aabb_obb_iou((0, 0, 0), (1, 1, 0), (0.5, 0.5, 0.0), (1, 1, 1), IDENTITY) == 0.0


def test_exact_iou_agrees_with_a_dense_grid():
    # a generic rotation (about all three axes) and partly overlapping boxes
    a, b, c = math.radians(30), math.radians(20), math.radians(50)
    Rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    Ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    Rz = np.array(rot_z(math.degrees(c)))
    rot = Rz @ Ry @ Rx
    args = ((0.0, 0.0, 0.0), (0.4, 0.3, 0.2), (0.25, 0.1, 0.12), (0.35, 0.2, 0.15), rot)
    exact = adt_eval.aabb_obb_iou(*args)
    grid = adt_eval.aabb_obb_iou_grid(*args, step=0.004)
    assert 0.2 < exact < 0.6
    assert grid == pytest.approx(exact, rel=0.01)


def test_iou_rejects_an_inverted_box():
    with pytest.raises(EvalError, match="below its min"):
        adt_eval.aabb_obb_iou((0, 0, 0), (-1, 1, 1), (0, 0, 0), (1, 1, 1), IDENTITY)


# ----------------------------------------------------------------------------------------------- labels


def test_same_label_is_whole_word_and_case_folded():
    assert adt_eval.same_label("Pet  Bowl", "pet bowl")
    assert adt_eval.same_label("part of a cabinet/wardrobe", "Part of a Cabinet / Wardrobe")
    assert not adt_eval.same_label("bowl", "pet bowl")   # the memory's labels_agree would accept this
    assert not adt_eval.same_label("cup", "cupboard")
    assert not adt_eval.same_label("", "")


# --------------------------------------------------------------------------------------------- matching


def synthetic_case():
    gt = {
        1: gt_obj(1, "cup", (0.0, 0.0, 0.0)),
        2: gt_obj(2, "cup", (0.5, 0.0, 0.0)),
        3: gt_obj(3, "pet bowl", (1.0, 0.0, 0.0)),
        4: gt_obj(4, "table", (2.0, 0.0, 0.0), size=(1.0, 1.0, 0.8)),
    }
    mem = [
        mem_obj(10, "cup", (0.02, 0.0, 0.0)),      # cup 1 at 0.02
        mem_obj(11, "cup", (0.0, 0.06, 0.0)),      # also near cup 1 (0.06): a duplicate
        mem_obj(12, "Cup", (0.5, 0.08, 0.0)),      # cup 2 at 0.08 (case-folded label)
        mem_obj(13, "bowl", (1.0, 0.01, 0.0)),     # near the pet bowl, but another label
        mem_obj(14, "table", (2.0, 0.3, 0.0)),     # the table's seen surface, 0.3 from its box centre
    ]
    return gt, mem


def test_greedy_matching_counts_pairs_duplicates_and_unmatched_exactly():
    gt, mem = synthetic_case()
    m = adt_eval.match(gt, mem, 0.10)
    assert m.pairs == {1: 10, 2: 12}
    assert m.distances[1] == pytest.approx(0.02) and m.distances[2] == pytest.approx(0.08)
    assert m.duplicates == [11]
    assert m.unmatched == [11, 13, 14]
    tight = adt_eval.match(gt, mem, 0.05)
    assert tight.pairs == {1: 10} and tight.duplicates == [] and tight.unmatched == [11, 12, 13, 14]


def test_matching_is_one_to_one_by_distance():
    gt = {1: gt_obj(1, "cup", (0.0, 0.0, 0.0)), 2: gt_obj(2, "cup", (0.1, 0.0, 0.0))}
    mem = [mem_obj(5, "cup", (0.07, 0.0, 0.0)), mem_obj(6, "cup", (0.0, 0.09, 0.0))]
    # 5 is nearest to gt 2 (0.03), which leaves gt 1 to 6 (0.09): both recalled, no duplicate
    m = adt_eval.match(gt, mem, 0.10)
    assert m.pairs == {2: 5, 1: 6} and m.duplicates == []
    with pytest.raises(EvalError, match="positive"):
        adt_eval.match(gt, mem, 0.0)


def _vis(gt_id, pixels, surface, eroded=None, border=None) -> Visibility:
    n = len(pixels)
    return Visibility(gt_id, tuple(pixels), tuple(border or (False,) * n), surface,
                      tuple(eroded if eroded is not None else pixels))


def test_score_reports_exact_counts_and_failure_causes():
    gt, mem = synthetic_case()
    gt[5] = gt_obj(5, "shelf", (3.0, 0.0, 0.0), size=(1.0, 0.4, 1.0))
    visibility = {
        1: _vis(1, (900, 10), (0.01, 0.0, 0.0)),
        2: _vis(2, (600, 700), (0.5, 0.05, 0.0)),
        3: _vis(3, (300, 499), (1.0, 0.0, 0.0)),            # never 500 px: not in the visible set
        4: _vis(4, (5000, 5000), (2.0, 0.3, 0.0)),          # seen surface 0.3 m from the box centre
        5: _vis(5, (800, 790), (3.0, 0.1, 0.0), eroded=(40, 30)),  # a wire shelf: eroded away
    }
    store = StoreContents(
        objects=mem,
        sources={10: Counter({1: 2}), 11: Counter({1: 1}), 12: Counter({2: 2}), 13: Counter({3: 2}),
                 14: Counter({4: 2})},
        gt_observations={1: Counter({10: 2, 11: 1}), 2: Counter({12: 2}), 3: Counter({13: 2}),
                         4: Counter({14: 2})},
        observations=9)
    report = adt_eval.score(gt, visibility, store, min_mask_pixels=50)
    assert report["visible"]["any_frame"] == 4
    assert report["visible"]["largest_frame"] == 4
    assert report["visible"]["every_frame"] == 3            # gt 1 has 10 px in frame 2
    assert report["visible"]["per_frame"] == [4, 3]
    assert report["memory"]["objects_fed_by_several_gt"] == []
    assert report["memory"]["gt_split_over_several_objects"] == [1]
    t = report["thresholds"]["0.10"]
    assert (t["recalled"], t["visible"], t["matched_memory"], t["memory_objects"]) == (2, 4, 2, 5)
    assert t["recall"] == pytest.approx(0.5) and t["precision"] == pytest.approx(0.4)
    assert t["duplicates"] == 1 and t["duplicate_ids"] == [11]
    assert t["median_error_m"] == pytest.approx(0.05)
    assert t["failure_causes"] == {"eroded_away": 1, "partial_surface": 1}
    assert {f["gt_id"]: f["cause"] for f in t["failures"]} == {4: "partial_surface", 5: "eroded_away"}
    assert t["unmatched_memory"] == {"duplicate": 1, "label_mismatch": 1, "far_visible": 1}
    assert t["by_size"]["small"]["recalled"] == 2 and t["by_size"]["large"]["recalled"] == 0
    assert t["by_size"]["large"]["visible"] == 2
    # the diagnostic reference (seen-surface centroid) finds the table; the score does not
    assert t["diagnostic_surface_reference"]["recalled"] == 3
    assert "3" not in t["pairs"] and "4" not in t["pairs"]


def test_merged_objects_are_named_as_the_cause():
    gt = {1: gt_obj(1, "cup", (0.0, 0.0, 0.0)), 2: gt_obj(2, "cup", (0.3, 0.0, 0.0))}
    mem = [mem_obj(7, "cup", (0.15, 0.0, 0.0))]           # both cups fused into one object between them
    visibility = {1: _vis(1, (900,), (0.0, 0.0, 0.0)), 2: _vis(2, (900,), (0.3, 0.0, 0.0))}
    store = StoreContents(objects=mem, sources={7: Counter({1: 1, 2: 1})},
                          gt_observations={1: Counter({7: 1}), 2: Counter({7: 1})}, observations=2)
    t = adt_eval.score(gt, visibility, store, min_mask_pixels=50)["thresholds"]["0.10"]
    assert t["recalled"] == 0
    assert t["failure_causes"] == {"merged": 2}
    assert t["unmatched_memory"] == {"merged": 1}


# ------------------------------------------------------------------------------------------ PNG / input


def test_read_png_u16_keeps_16_bit_values_and_refuses_8_bit(tmp_path):
    values = np.array([[0, 1, 255], [256, 3335, 65535]], dtype=np.uint16)
    Image.fromarray(values).save(tmp_path / "d.png")
    assert Image.open(tmp_path / "d.png").mode == "I;16"
    out = adt.read_png_u16(tmp_path / "d.png")
    assert out.dtype == np.uint16 and np.array_equal(out, values)
    Image.fromarray(values.astype(np.uint8)).save(tmp_path / "e.png")
    with pytest.raises(adt.AdtError, match="mode L"):
        adt.read_png_u16(tmp_path / "e.png")
    with pytest.raises(adt.AdtError, match="does not exist"):
        adt.read_png_u16(tmp_path / "missing.png")


def _frames_doc(**changes) -> dict:
    frame = {"stamp_ns": 10, "rgb": "r.png", "depth_mm": "d.png", "instances": "i.png", "camera_frame": "cam",
             "K": [300.0, 0.0, 351.5, 0.0, 300.0, 351.5, 0.0, 0.0, 1.0], "width": 4, "height": 3,
             "T_map_camera": {"position": [0, 0, 1], "orientation_xyzw": [0, 0, 0, 1]},
             "instance_labels": {"1": {"name": "Mug", "category": "cup", "gt_id": 7}}}
    frame.update(changes)
    return {"frames": [frame]}


@pytest.mark.parametrize("changes, message", [
    ({"K": [300.0, 1.0, 351.5, 0.0, 300.0, 351.5, 0.0, 0.0, 1.0]}, "skew-free"),
    ({"K": [300.0, 0.0]}, "9 numbers"),
    ({"width": 0}, "width must be a positive integer"),
    ({"T_map_camera": {"position": [0, 0, 1], "orientation_xyzw": [0, 0, 0, 0]}}, "zero norm"),
    ({"instance_labels": {"0": {"category": "cup", "gt_id": 7}}}, "outside 1..65535"),
    ({"instance_labels": {"1": {"name": "Mug", "gt_id": 7}}}, "no category"),
    ({"stamp_ns": -1}, "non-negative"),
])
def test_malformed_frames_json_is_a_clear_error(tmp_path, changes, message):
    (tmp_path / "frames.json").write_text(json.dumps(_frames_doc(**changes)))
    with pytest.raises(adt.AdtError, match=message):
        adt.load_frames(tmp_path)


def test_missing_dataset_names_the_override(tmp_path, monkeypatch):
    monkeypatch.setenv(adt.SHARED_ENV, str(tmp_path))
    assert adt.default_data_dir() == tmp_path / "datasets" / adt.DATASET
    with pytest.raises(adt.AdtError, match=adt.SHARED_ENV):
        adt.resolve_data_dir()
    with pytest.raises(adt.AdtError, match="frames.json is missing"):
        adt.resolve_data_dir(tmp_path)


def test_parse_overrides_types_and_errors():
    assert adt_eval.parse_overrides(["mask_erosion_px=0", "voxel_size=0.02", "use_open3d=false",
                                     "outlier_method=none"]) == {
        "mask_erosion_px": 0, "voxel_size": 0.02, "use_open3d": False, "outlier_method": "none"}
    with pytest.raises(EvalError, match="unknown perception setting"):
        adt_eval.parse_overrides(["erosion=1"])
    with pytest.raises(EvalError, match="KEY=VALUE"):
        adt_eval.parse_overrides(["mask_erosion_px"])
    with pytest.raises(EvalError, match="mask_erosion_px"):
        adt_eval.parse_overrides(["mask_erosion_px=one"])


# ------------------------------------------------------------------------------------------- real data


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    out = tmp_path_factory.mktemp("adt") / "bag"
    return adt.convert(DATA, out)


@needs_data
def test_converter_writes_three_frames_per_topic(converted):
    assert converted.frames == 3
    assert {s.topic: (s.msgtype, s.count) for s in bagio.read_connections(converted.bag)} == {
        t: (bagio.TOPIC_TYPES[t], 3) for t in CAMERA_TOPICS}
    assert converted.unlabelled == {}


@needs_data
def test_converted_masks_depth_and_colour_round_trip_exactly(converted):
    rclpy_serialization = pytest.importorskip("rclpy.serialization")
    from sensor_msgs.msg import CameraInfo, Image as ImageMsg
    from geometry_msgs.msg import PoseStamped
    from tempomem_ros.msg import InstanceMasks
    from tempomem_ros.perception import decode_color, decode_depth, decode_mask

    frames = adt.load_frames(DATA)
    by_topic: dict[str, list] = {}
    for m in bagio.iter_messages(converted.bag):
        cls = {topics.CAMERA_INFO: CameraInfo, topics.COLOR: ImageMsg, topics.DEPTH: ImageMsg,
               topics.INSTANCES: InstanceMasks, topics.POSE: PoseStamped}[m.topic]
        by_topic.setdefault(m.topic, []).append((m.timestamp_ns, rclpy_serialization.deserialize_message(
            m.rawdata, cls)))
    sidecar = adt.read_sidecar(converted.bag)
    for i, frame in enumerate(frames):
        depth_png, mask_png = adt.read_depth_mm(frame), adt.read_instances(frame)
        t_masks, masks = by_topic[topics.INSTANCES][i]
        _, depth = by_topic[topics.DEPTH][i]
        _, color = by_topic[topics.COLOR][i]
        _, info = by_topic[topics.CAMERA_INFO][i]
        _, pose = by_topic[topics.POSE][i]
        assert t_masks == frame.stamp_ns
        for msg in (masks, depth, color, info, pose):
            assert msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec == frame.stamp_ns
        assert masks.mask.encoding == "16UC1" and depth.encoding == "16UC1" and color.encoding == "rgb8"
        mask = decode_mask(masks.mask)
        assert mask.dtype == np.uint16 and np.array_equal(mask, mask_png)
        raw_depth = np.frombuffer(bytes(depth.data), dtype="<u2").reshape(depth.height, depth.width)
        assert np.array_equal(raw_depth, depth_png)
        assert np.array_equal(np.isnan(decode_depth(depth)), depth_png == 0)
        assert np.array_equal(decode_color(color), adt.read_rgb(frame))
        ids = [int(x) for x in masks.ids]
        assert ids == sorted(int(x) for x in np.unique(mask_png) if x != 0)
        assert list(masks.labels) == [frame.labels[x].category for x in ids]
        assert not set(masks.labels) & {frame.labels[x].name for x in ids}   # names never reach the nodes
        assert list(masks.confidences) == [1.0] * len(ids)
        assert masks.feature_dim == 0 and len(masks.features) == 0
        assert sidecar[frame.stamp_ns] == {x: frame.labels[x].gt_id for x in ids}
        assert tuple(info.k) == frame.K
        assert list(info.p) == [*frame.K[0:3], 0.0, *frame.K[3:6], 0.0, *frame.K[6:9], 0.0]
        assert (info.width, info.height, info.header.frame_id) == (704, 704, frame.camera_frame)
        assert masks.header.frame_id == depth.header.frame_id == frame.camera_frame
        assert pose.header.frame_id == "map"
        p, q = pose.pose.position, pose.pose.orientation
        assert (p.x, p.y, p.z) == frame.position and (q.x, q.y, q.z, q.w) == frame.orientation_xyzw


@needs_data
def test_converter_refuses_an_existing_output(converted):
    with pytest.raises(adt.AdtError, match="already exists"):
        adt.convert(DATA, converted.bag)
    assert adt.main(["convert", "--out", str(converted.bag), "--data", str(DATA)]) == 1


@pytest.fixture(scope="module")
def offline_report(tmp_path_factory):
    return adt_eval.evaluate(DATA, "offline", workdir=tmp_path_factory.mktemp("adt_eval"))


@needs_data
def test_visible_set_on_the_real_frames(offline_report):
    vis = offline_report["runs"]["offline"]["visible"]
    assert (vis["any_frame"], vis["largest_frame"], vis["every_frame"]) == (44, 44, 44)
    assert vis["per_frame"] == [44, 44, 44]   # the dataset README: 44 instances per frame with >= 500 px


@needs_data
def test_offline_scores_meet_the_floors(offline_report):
    run = offline_report["runs"]["offline"]
    t10, t05 = run["thresholds"]["0.10"], run["thresholds"]["0.05"]
    # Floors just under the figures of docs/RESULTS.md (python -m tempomem_ros.tools.adt_eval --mode offline).
    assert t10["recall"] >= 0.72            # measured 33/44 = 0.750
    assert t05["recall"] >= 0.65            # measured 30/44 = 0.682
    assert t10["median_error_m"] <= 0.021   # measured 0.0188 (an object's position is its fused box centre)
    assert t10["median_iou"] >= 0.67        # measured 0.692
    assert t10["precision"] >= 0.81         # measured 67/80 = 0.838
    assert t10["by_size"]["small"]["recall"] == 1.0   # measured 9/9
    assert t10["diagnostic_surface_reference"]["recall"] >= 0.82   # measured 37/44 = 0.841
    assert run["error_decomposition"]["median_memory_to_surface_m"] <= 0.037   # measured 0.0346
    # what must be absent: duplicates, fused pairs of objects, objects split in two, other causes
    assert t10["duplicates"] == 0 and t05["duplicates"] == 0
    assert run["memory"]["objects_fed_by_several_gt"] == []
    assert run["memory"]["gt_split_over_several_objects"] == []
    assert set(t10["failure_causes"]) == {"partial_surface"}  # thin objects are no longer eroded away


@needs_data
def test_nodes_mode_gives_the_same_store_as_offline(tmp_path):
    pytest.importorskip("rclpy")
    report = adt_eval.evaluate(DATA, "both", workdir=tmp_path)
    assert report["modes_agree"]["same_objects"] is True
    assert report["modes_agree"]["max_coordinate_difference_m"] <= 1e-9
    off, nodes = report["runs"]["offline"], report["runs"]["nodes"]
    assert nodes["run"]["perception"]["frames_published"] == 3
    for key in ("0.10", "0.05"):
        for field in ("recalled", "matched_memory", "memory_objects", "duplicates", "failure_causes"):
            assert nodes["thresholds"][key][field] == off["thresholds"][key][field]
