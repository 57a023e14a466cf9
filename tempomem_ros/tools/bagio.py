"""Write and read ROS 2 bags without rosbag2, through the pure-Python ``rosbags`` library.

Why rosbags: rosbag2 (and ros2cli) cannot be installed from the registries this project uses, yet the
scene generator, the replay tool and the evaluation all need bags that real ROS 2 tools can open. rosbags
writes the standard rosbag2 layout (sqlite3 or mcap storage, metadata.yaml) and CDR payloads that
rclpy's ``deserialize_message`` decodes, provided the project's own message types are registered in its
typestore from the same ``.msg`` text that rosidl compiled (so the RIHS01 type hashes agree).

This module needs no rclpy: a bag can be written and inspected on a machine without a ROS graph.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rosbags.rosbag2 import Reader, StoragePlugin, Writer
from rosbags.typesys import Stores, get_types_from_msg
from rosbags.typesys import get_typestore as _rosbags_typestore

from tempomem_ros import topics
from tempomem_ros.core.errors import TempoMemError

PACKAGE = "tempomem_ros"

#: The project's camera-side topics and their ROS 2 type names, in the layout the nodes expect.
TOPIC_TYPES: dict[str, str] = {
    topics.COLOR: "sensor_msgs/msg/Image",
    topics.DEPTH: "sensor_msgs/msg/Image",
    topics.CAMERA_INFO: "sensor_msgs/msg/CameraInfo",
    topics.INSTANCES: "tempomem_ros/msg/InstanceMasks",
    topics.POSE: "geometry_msgs/msg/PoseStamped",
}

#: rosbag2 file format version written by Jazzy and later (QoS profiles stored per connection).
BAG_VERSION = 9

_STORAGE = {"sqlite3": StoragePlugin.SQLITE3, "mcap": StoragePlugin.MCAP}


class BagError(TempoMemError):
    """A bag cannot be written or read: missing path, unknown topic or type, malformed payload."""


@dataclass(frozen=True)
class BagMessage:
    """One stored message: the CDR bytes exactly as they are in the bag, plus where they belong."""

    topic: str
    msgtype: str
    timestamp_ns: int
    rawdata: bytes

    def __iter__(self):  # lets callers unpack ``topic, msgtype, t, raw = message``
        return iter((self.topic, self.msgtype, self.timestamp_ns, self.rawdata))


@dataclass(frozen=True)
class TopicSummary:
    topic: str
    msgtype: str
    count: int


# --------------------------------------------------------------------------------------------- types


def msg_dirs() -> list[Path]:
    """Directories that may hold this package's ``.msg`` files, most authoritative first.

    The source tree comes first so that an edited message is what the bag records; an installed copy
    (``<prefix>/share/tempomem_ros/msg``) serves deployments without the checkout.
    """
    candidates: list[Path] = [Path(__file__).resolve().parents[2] / "msg"]
    prefixes: list[Path] = []
    for entry in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        if entry:
            prefixes.append(Path(entry))
    try:  # the generated interfaces live in <prefix>/lib/pythonX.Y/site-packages/tempomem_ros/msg
        import tempomem_ros.msg as generated

        prefixes.append(Path(generated.__file__).resolve().parents[5])
    except (ImportError, IndexError, TypeError):
        pass
    prefixes.append(Path(sys.prefix))
    candidates.extend(p / "share" / PACKAGE / "msg" for p in prefixes)
    seen: set[Path] = set()
    found = []
    for cand in candidates:
        if cand not in seen and cand.is_dir() and any(cand.glob("*.msg")):
            seen.add(cand)
            found.append(cand)
    return found


def project_types(msg_dir: Path | None = None) -> dict:
    """Type definitions of every ``tempomem_ros/msg/*`` message, parsed from the ``.msg`` text."""
    if msg_dir is None:
        dirs = msg_dirs()
        if not dirs:
            raise BagError(
                "cannot find tempomem_ros .msg files: neither the source tree's msg/ nor "
                "<prefix>/share/tempomem_ros/msg exists (set AMENT_PREFIX_PATH to the install prefix)"
            )
        msg_dir = dirs[0]
    msg_dir = Path(msg_dir)
    types: dict = {}
    for path in sorted(msg_dir.glob("*.msg")):
        types.update(get_types_from_msg(path.read_text(encoding="utf-8"), f"{PACKAGE}/msg/{path.stem}"))
    if not types:
        raise BagError(f"no .msg files in {msg_dir}")
    return types


@functools.lru_cache(maxsize=1)
def typestore():
    """The Kilted typestore with this project's messages registered (built once per process)."""
    store = _rosbags_typestore(Stores.ROS2_KILTED)
    store.register(project_types())
    return store


def msg_class(msgtype: str):
    """The rosbags dataclass of a ROS 2 type name such as ``sensor_msgs/msg/Image``."""
    try:
        return typestore().types[normalize_type(msgtype)]
    except KeyError:
        raise BagError(f"unknown message type {msgtype!r} (not in the Kilted typestore)") from None


def normalize_type(msgtype: str) -> str:
    """Accept ``pkg/Type`` as well as ``pkg/msg/Type``; bags and rclpy both use the long form."""
    parts = msgtype.strip().split("/")
    if len(parts) == 2 and all(parts):
        return f"{parts[0]}/msg/{parts[1]}"
    if len(parts) == 3 and all(parts):
        return msgtype.strip()
    raise BagError(f"malformed message type name {msgtype!r}: expected 'package/msg/Type'")


def serialize(msg, msgtype: str | None = None) -> bytes:
    """CDR (little endian) bytes of a rosbags message, as rclpy would publish them."""
    msgtype = normalize_type(msgtype or getattr(msg, "__msgtype__", ""))
    try:
        return bytes(typestore().serialize_cdr(msg, msgtype))
    except (KeyError, AttributeError, TypeError, ValueError) as exc:
        raise BagError(f"cannot serialise a {msgtype} message: {exc}") from exc


def deserialize(rawdata: bytes, msgtype: str):
    """Decode CDR bytes of ``msgtype`` into a rosbags dataclass."""
    msgtype = normalize_type(msgtype)
    try:
        return typestore().deserialize_cdr(rawdata, msgtype)
    except KeyError:
        raise BagError(f"unknown message type {msgtype!r}") from None
    except Exception as exc:  # rosbags raises struct/index errors on truncated payloads
        raise BagError(f"cannot decode {len(rawdata)} bytes as {msgtype}: {exc}") from exc


# ---------------------------------------------------------------------------------- message builders


def _types():
    return typestore().types


def time_msg(stamp_ns: int):
    stamp_ns = int(stamp_ns)
    if stamp_ns < 0:
        raise BagError(f"negative stamp {stamp_ns} ns")
    return _types()["builtin_interfaces/msg/Time"](sec=stamp_ns // 1_000_000_000, nanosec=stamp_ns % 1_000_000_000)


def header(stamp_ns: int, frame_id: str):
    return _types()["std_msgs/msg/Header"](stamp=time_msg(stamp_ns), frame_id=str(frame_id))


_ENCODINGS = {  # encoding -> (dtype, channels)
    "rgb8": (np.uint8, 3),
    "bgr8": (np.uint8, 3),
    "mono8": (np.uint8, 1),
    "16UC1": (np.uint16, 1),
    "mono16": (np.uint16, 1),
    "32FC1": (np.float32, 1),
}


def image_msg(array: np.ndarray, encoding: str, stamp_ns: int, frame_id: str):
    """A sensor_msgs/Image from an HxW or HxWxC array (little endian, rows packed)."""
    if encoding not in _ENCODINGS:
        raise BagError(f"unsupported image encoding {encoding!r}; known: {sorted(_ENCODINGS)}")
    dtype, channels = _ENCODINGS[encoding]
    arr = np.asarray(array)
    expected_ndim = 2 if channels == 1 else 3
    if arr.ndim != expected_ndim or (channels > 1 and arr.shape[2] != channels):
        raise BagError(f"{encoding} image needs shape (H, W{'' if channels == 1 else f', {channels}'}), "
                       f"got {arr.shape}")
    if arr.dtype != dtype:
        raise BagError(f"{encoding} image needs dtype {np.dtype(dtype).name}, got {arr.dtype}")
    arr = np.ascontiguousarray(arr, dtype=np.dtype(dtype).newbyteorder("<"))
    height, width = arr.shape[:2]
    return _types()["sensor_msgs/msg/Image"](
        header=header(stamp_ns, frame_id), height=int(height), width=int(width), encoding=encoding,
        is_bigendian=0, step=int(width * channels * arr.itemsize),
        data=np.frombuffer(arr.tobytes(), dtype=np.uint8),
    )


def image_array(msg) -> np.ndarray:
    """Back from a rosbags Image to an array (the inverse of ``image_msg``)."""
    if msg.encoding not in _ENCODINGS:
        raise BagError(f"unsupported image encoding {msg.encoding!r}")
    dtype, channels = _ENCODINGS[msg.encoding]
    dt = np.dtype(dtype).newbyteorder(">" if msg.is_bigendian else "<")
    row_items = msg.width * channels
    rows = np.frombuffer(np.asarray(msg.data, dtype=np.uint8).tobytes(), dtype=np.uint8)
    if msg.step < row_items * dt.itemsize or rows.size < msg.step * msg.height:
        raise BagError(f"image data of {rows.size} bytes too short for {msg.width}x{msg.height} step {msg.step}")
    rows = rows[: msg.step * msg.height].reshape(msg.height, msg.step)[:, : row_items * dt.itemsize]
    arr = np.ascontiguousarray(rows).view(dt).astype(dtype)
    return arr.reshape(msg.height, msg.width) if channels == 1 else arr.reshape(msg.height, msg.width, channels)


def camera_info_msg(width: int, height: int, fx: float, fy: float, cx: float, cy: float, stamp_ns: int,
                    frame_id: str):
    """An undistorted pinhole CameraInfo (plumb_bob with zero coefficients)."""
    k = np.array([fx, 0.0, cx, 0.0, fy, cy, 0.0, 0.0, 1.0], dtype=np.float64)
    p = np.array([fx, 0.0, cx, 0.0, 0.0, fy, cy, 0.0, 0.0, 0.0, 1.0, 0.0], dtype=np.float64)
    t = _types()
    return t["sensor_msgs/msg/CameraInfo"](
        header=header(stamp_ns, frame_id), height=int(height), width=int(width), distortion_model="plumb_bob",
        d=np.zeros(5, dtype=np.float64), k=k, r=np.eye(3, dtype=np.float64).reshape(-1), p=p,
        binning_x=0, binning_y=0,
        roi=t["sensor_msgs/msg/RegionOfInterest"](x_offset=0, y_offset=0, height=0, width=0, do_rectify=False),
    )


def pose_stamped_msg(position, quaternion_xyzw, stamp_ns: int, frame_id: str):
    t = _types()
    px, py, pz = (float(v) for v in position)
    qx, qy, qz, qw = (float(v) for v in quaternion_xyzw)
    pose = t["geometry_msgs/msg/Pose"](
        position=t["geometry_msgs/msg/Point"](x=px, y=py, z=pz),
        orientation=t["geometry_msgs/msg/Quaternion"](x=qx, y=qy, z=qz, w=qw),
    )
    return t["geometry_msgs/msg/PoseStamped"](header=header(stamp_ns, frame_id), pose=pose)


def instance_masks_msg(mask: np.ndarray, ids: Iterable[int], labels: Iterable[str], confidences: Iterable[float],
                       stamp_ns: int, frame_id: str, features: np.ndarray | None = None):
    """A tempomem_ros/InstanceMasks; ``features`` is (len(ids), D) or None for no features."""
    ids_arr = np.asarray(list(ids), dtype=np.uint16)
    labels_list = [str(x) for x in labels]
    conf = np.asarray(list(confidences), dtype=np.float32)
    if not (len(ids_arr) == len(labels_list) == len(conf)):
        raise BagError(f"ids/labels/confidences lengths differ: {len(ids_arr)}/{len(labels_list)}/{len(conf)}")
    if features is None:
        feat, dim = np.zeros(0, dtype=np.float32), 0
    else:
        feat2 = np.asarray(features, dtype=np.float32)
        if feat2.ndim != 2 or feat2.shape[0] != len(ids_arr):
            raise BagError(f"features must be ({len(ids_arr)}, D), got {feat2.shape}")
        dim = int(feat2.shape[1])
        feat = feat2.reshape(-1)
    return _types()["tempomem_ros/msg/InstanceMasks"](
        header=header(stamp_ns, frame_id), mask=image_msg(mask, "16UC1", stamp_ns, frame_id), ids=ids_arr,
        labels=labels_list, confidences=conf, feature_dim=dim, features=feat,
    )


# -------------------------------------------------------------------------------------------- writing


class BagWriter:
    """A rosbag2 writer keyed by topic name; serialises rosbags dataclasses with the project typestore.

    Use as a context manager: on an exception the partial bag is closed (not deleted) so that what was
    written can still be inspected.
    """

    def __init__(self, path: str | Path, storage: str = "sqlite3",
                 topic_types: Mapping[str, str] | None = None) -> None:
        if storage not in _STORAGE:
            raise BagError(f"unknown bag storage {storage!r}; use one of {sorted(_STORAGE)}")
        self.path = Path(path)
        if self.path.exists():
            raise BagError(f"bag path {self.path} already exists (rosbag2 writes a new directory)")
        if not self.path.parent.is_dir():
            raise BagError(f"parent directory of {self.path} does not exist")
        self.storage = storage
        self._writer = Writer(self.path, version=BAG_VERSION, storage_plugin=_STORAGE[storage])
        self._writer.open()
        self._connections: dict[str, object] = {}
        self.counts: dict[str, int] = {}
        for topic, msgtype in (topic_types or {}).items():
            self.add_topic(topic, msgtype)

    def add_topic(self, topic: str, msgtype: str) -> None:
        msgtype = normalize_type(msgtype)
        if not topic.startswith("/"):
            raise BagError(f"topic {topic!r} must be absolute (start with '/')")
        if topic in self._connections:
            existing = self._connections[topic].msgtype
            if existing != msgtype:
                raise BagError(f"topic {topic} already added with type {existing}, not {msgtype}")
            return
        msg_class(msgtype)  # fail early with a clear message on an unknown type
        self._connections[topic] = self._writer.add_connection(topic, msgtype, typestore=typestore())
        self.counts[topic] = 0

    def write(self, topic: str, msg, timestamp_ns: int) -> None:
        """Serialise ``msg`` and store it under ``topic`` at bag time ``timestamp_ns``."""
        conn = self._connection(topic)
        self.write_raw(topic, serialize(msg, conn.msgtype), timestamp_ns)

    def write_raw(self, topic: str, rawdata: bytes, timestamp_ns: int) -> None:
        conn = self._connection(topic)
        self._writer.write(conn, int(timestamp_ns), rawdata)
        self.counts[topic] += 1

    def _connection(self, topic: str):
        try:
            return self._connections[topic]
        except KeyError:
            raise BagError(f"topic {topic!r} was not added to the bag; known: {sorted(self._connections)}") from None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def __enter__(self) -> BagWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_writer(path: str | Path, storage: str = "sqlite3", topic_types: Mapping[str, str] | None = None
                ) -> BagWriter:
    """A writer with the project's camera topics already added (``TOPIC_TYPES`` unless given)."""
    return BagWriter(path, storage=storage, topic_types=TOPIC_TYPES if topic_types is None else topic_types)


# -------------------------------------------------------------------------------------------- reading


def _open_reader(path: str | Path) -> Reader:
    path = Path(path)
    if not path.exists():
        raise BagError(f"bag {path} does not exist")
    if not (path / "metadata.yaml").is_file():
        raise BagError(f"{path} is not a rosbag2 directory (no metadata.yaml)")
    try:
        reader = Reader(path)
        reader.open()
    except Exception as exc:  # rosbags raises its own ReaderError family
        raise BagError(f"cannot open bag {path}: {exc}") from exc
    return reader


def read_connections(path: str | Path) -> list[TopicSummary]:
    """Topics of a bag with their types and message counts, sorted by topic."""
    reader = _open_reader(path)
    try:
        counts: dict[tuple[str, str], int] = {}
        for conn in reader.connections:
            key = (conn.topic, conn.msgtype)
            counts[key] = counts.get(key, 0) + conn.msgcount
        return [TopicSummary(t, m, c) for (t, m), c in sorted(counts.items())]
    finally:
        reader.close()


def bag_time_range(path: str | Path) -> tuple[int, int]:
    """First and last message timestamps (ns) of a bag (rosbags' end_time is one past the last)."""
    reader = _open_reader(path)
    try:
        if reader.message_count == 0:
            raise BagError(f"bag {path} holds no messages")
        return int(reader.start_time), int(reader.end_time) - 1
    finally:
        reader.close()


def iter_messages(path: str | Path, topics_filter: Iterable[str] | None = None, start_ns: int | None = None,
                  stop_ns: int | None = None) -> Iterator[BagMessage]:
    """Stored messages in timestamp order; ``stop_ns`` is exclusive (rosbags convention).

    ``topics_filter`` names topics to keep; a name the bag does not hold is an error rather than a
    silently empty replay.
    """
    reader = _open_reader(path)
    try:
        conns = reader.connections
        if topics_filter is not None:
            wanted = set(topics_filter)
            missing = wanted - {c.topic for c in conns}
            if missing:
                raise BagError(f"bag {path} has no topic(s) {sorted(missing)}; it has "
                               f"{sorted({c.topic for c in conns})}")
            conns = [c for c in conns if c.topic in wanted]
        if not conns:
            return
        for conn, timestamp, raw in reader.messages(connections=conns, start=start_ns, stop=stop_ns):
            yield BagMessage(conn.topic, conn.msgtype, int(timestamp), bytes(raw))
    finally:
        reader.close()


def read_messages(path: str | Path, topic: str) -> list:
    """Every message of one topic, decoded (convenient in tests and small tools)."""
    return [deserialize(m.rawdata, m.msgtype) for m in iter_messages(path, [topic])]
