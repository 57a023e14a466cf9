"""Bag I/O through rosbags: round trips, filters, errors, and rclpy decoding of what rosbags wrote."""

import numpy as np
import pytest

from tempomem_ros import topics
from tempomem_ros.tools import bagio

T0 = 1_768_464_000_000_000_000


def _write_small_bag(path, storage="sqlite3"):
    rgb = np.arange(4 * 5 * 3, dtype=np.uint8).reshape(4, 5, 3)
    depth = (np.arange(20, dtype=np.uint16) * 100).reshape(4, 5)
    mask = np.array([[0, 1, 1, 0, 2]] * 4, dtype=np.uint16)
    feats = np.array([[1.0, 0.0, 0.0], [0.0, 0.6, 0.8]], dtype=np.float32)
    with bagio.open_writer(path, storage=storage) as w:
        for i in range(3):
            t = T0 + i * 250_000_000
            w.write(topics.CAMERA_INFO, bagio.camera_info_msg(5, 4, 4.0, 4.0, 2.0, 1.5, t, "camera_optical"), t)
            w.write(topics.POSE, bagio.pose_stamped_msg((i, 2.0, 3.0), (0, 0, 0, 1), t, "map"), t)
            w.write(topics.COLOR, bagio.image_msg(rgb + i, "rgb8", t, "camera_optical"), t)
            w.write(topics.DEPTH, bagio.image_msg(depth + i, "16UC1", t, "camera_optical"), t)
            w.write(topics.INSTANCES, bagio.instance_masks_msg(mask, [1, 2], ["mug", "cup"], [0.9, 0.25], t,
                                                               "camera_optical", feats), t)
    return rgb, depth, mask, feats


@pytest.mark.parametrize("storage", ["sqlite3", "mcap"])
def test_round_trip_counts_types_and_arrays(tmp_path, storage):
    rgb, depth, mask, feats = _write_small_bag(tmp_path / "bag", storage)
    summary = {s.topic: (s.msgtype, s.count) for s in bagio.read_connections(tmp_path / "bag")}
    assert summary == {
        topics.CAMERA_INFO: ("sensor_msgs/msg/CameraInfo", 3),
        topics.POSE: ("geometry_msgs/msg/PoseStamped", 3),
        topics.COLOR: ("sensor_msgs/msg/Image", 3),
        topics.DEPTH: ("sensor_msgs/msg/Image", 3),
        topics.INSTANCES: ("tempomem_ros/msg/InstanceMasks", 3),
    }
    assert bagio.bag_time_range(tmp_path / "bag") == (T0, T0 + 500_000_000)
    colors = bagio.read_messages(tmp_path / "bag", topics.COLOR)
    assert [c.header.stamp.nanosec for c in colors] == [0, 250_000_000, 500_000_000]
    np.testing.assert_array_equal(bagio.image_array(colors[2]), rgb + 2)
    d = bagio.read_messages(tmp_path / "bag", topics.DEPTH)[1]
    assert (d.encoding, d.step) == ("16UC1", 10)
    np.testing.assert_array_equal(bagio.image_array(d), depth + 1)
    inst = bagio.read_messages(tmp_path / "bag", topics.INSTANCES)[0]
    assert list(inst.ids) == [1, 2] and inst.labels == ["mug", "cup"] and inst.feature_dim == 3
    np.testing.assert_allclose(inst.confidences, [0.9, 0.25], rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(inst.features).reshape(2, 3), feats)
    np.testing.assert_array_equal(bagio.image_array(inst.mask), mask)
    info = bagio.read_messages(tmp_path / "bag", topics.CAMERA_INFO)[0]
    assert list(info.k) == [4.0, 0.0, 2.0, 0.0, 4.0, 1.5, 0.0, 0.0, 1.0]
    assert (info.width, info.height, info.header.frame_id) == (5, 4, "camera_optical")
    pose = bagio.read_messages(tmp_path / "bag", topics.POSE)[2]
    assert (pose.pose.position.x, pose.header.frame_id) == (2.0, "map")


def test_iter_messages_filters_topics_and_time(tmp_path):
    _write_small_bag(tmp_path / "bag")
    got = [(m.topic, m.timestamp_ns) for m in bagio.iter_messages(
        tmp_path / "bag", [topics.POSE, topics.COLOR], start_ns=T0 + 1, stop_ns=T0 + 500_000_000)]
    assert sorted(got) == [(topics.COLOR, T0 + 250_000_000), (topics.POSE, T0 + 250_000_000)]
    topic, msgtype, stamp, raw = next(iter(bagio.iter_messages(tmp_path / "bag", [topics.INSTANCES])))
    assert (topic, msgtype, stamp) == (topics.INSTANCES, "tempomem_ros/msg/InstanceMasks", T0)
    assert isinstance(raw, bytes)


def test_rclpy_decodes_what_rosbags_wrote(tmp_path):
    from rclpy.serialization import deserialize_message
    from sensor_msgs.msg import Image

    from tempomem_ros.msg import InstanceMasks

    _, _, mask, feats = _write_small_bag(tmp_path / "bag")
    raw_inst = next(iter(bagio.iter_messages(tmp_path / "bag", [topics.INSTANCES]))).rawdata
    msg = deserialize_message(raw_inst, InstanceMasks)
    assert list(msg.ids) == [1, 2] and list(msg.labels) == ["mug", "cup"] and msg.feature_dim == 3
    assert np.allclose(np.asarray(msg.features).reshape(2, 3), feats)
    assert (msg.header.stamp.sec, msg.header.frame_id) == (T0 // 10**9, "camera_optical")
    assert (msg.mask.width, msg.mask.height, msg.mask.encoding) == (5, 4, "16UC1")
    np.testing.assert_array_equal(np.frombuffer(bytes(msg.mask.data), dtype="<u2").reshape(4, 5), mask)
    raw_img = list(bagio.iter_messages(tmp_path / "bag", [topics.COLOR]))[1].rawdata
    img = deserialize_message(raw_img, Image)
    assert (img.encoding, img.width, img.height, img.step) == ("rgb8", 5, 4, 15)
    assert bytes(img.data)[:3] == bytes([1, 2, 3])


def test_type_hash_matches_installed_interface():
    import json
    from pathlib import Path

    installed = [d for d in bagio.msg_dirs() if "share" in d.parts]
    if not installed:
        pytest.skip("no installed share/tempomem_ros/msg to compare with")
    desc = json.loads((Path(installed[0]) / "InstanceMasks.json").read_text())
    expected = desc["type_hashes"][0]["hash_string"]
    assert bagio.typestore().hash_rihs01("tempomem_ros/msg/InstanceMasks") == expected


def test_errors_are_specific(tmp_path):
    with pytest.raises(bagio.BagError, match="does not exist"):
        list(bagio.iter_messages(tmp_path / "nope"))
    with pytest.raises(bagio.BagError, match="not a rosbag2 directory"):
        bagio.read_connections(tmp_path)
    with pytest.raises(bagio.BagError, match="unsupported image encoding"):
        bagio.image_msg(np.zeros((2, 2), np.uint8), "yuv422", 0, "c")
    with pytest.raises(bagio.BagError, match="needs dtype uint16"):
        bagio.image_msg(np.zeros((2, 2), np.float32), "16UC1", 0, "c")
    with pytest.raises(bagio.BagError, match="shape"):
        bagio.image_msg(np.zeros((2, 2), np.uint8), "rgb8", 0, "c")
    with pytest.raises(bagio.BagError, match="lengths differ"):
        bagio.instance_masks_msg(np.zeros((2, 2), np.uint16), [1, 2], ["a"], [0.5, 0.5], 0, "c")
    with pytest.raises(bagio.BagError, match="malformed message type"):
        bagio.msg_class("Image")
    with pytest.raises(bagio.BagError, match="unknown message type"):
        bagio.msg_class("nope_msgs/msg/Thing")
    _write_small_bag(tmp_path / "bag")
    with pytest.raises(bagio.BagError, match="already exists"):
        bagio.open_writer(tmp_path / "bag")
    with pytest.raises(bagio.BagError, match="no topic"):
        list(bagio.iter_messages(tmp_path / "bag", ["/not/there"]))
    with pytest.raises(bagio.BagError, match="unknown bag storage"):
        bagio.open_writer(tmp_path / "other", storage="rosbag1")
    with bagio.open_writer(tmp_path / "b2") as w, pytest.raises(bagio.BagError, match="was not added"):
        w.write("/x", bagio.header(0, "m"), 0)
    with pytest.raises(bagio.BagError, match="cannot decode"):
        bagio.deserialize(b"\x00\x01\x00\x00\x01", "sensor_msgs/msg/Image")


def test_installed_msg_dir_gives_the_same_types():
    dirs = bagio.msg_dirs()
    installed = [d for d in dirs if "share" in d.parts]
    if not installed:
        pytest.skip("no installed share/tempomem_ros/msg")
    from_share = bagio.project_types(installed[0])
    from_source = bagio.project_types(dirs[0])
    assert sorted(from_share) == sorted(from_source)
    assert "tempomem_ros/msg/InstanceMasks" in from_share
    with pytest.raises(bagio.BagError, match="no .msg files"):
        bagio.project_types(installed[0].parent)
