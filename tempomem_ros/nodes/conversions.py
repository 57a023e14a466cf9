"""Conversions between ROS messages and the core's plain value types.

Why one module, kept free of node state: the memory node, the tests and the tools all need the same
mapping (float seconds <-> builtin_interfaces/Time, ObjectInfo -> SceneObject, ...), and a conversion
that is a pure function can be tested without DDS. Incoming messages are validated here only as far as
the wire format goes (encodings, buffer sizes, quaternion norm); everything about the meaning of the data
(NaN centres, boxes, confidences) is validated by ``Memory.add`` so that there is one rule book.
The perception node's output (its observations and camera view -> ObservationArray) is here too, beside
``observation_array`` that reads it back, so that both ends of the observation wire are read in one place.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from builtin_interfaces.msg import Time
from geometry_msgs.msg import Point

from tempomem_ros.core.errors import InvalidInputError
from tempomem_ros.core.types import (
    CameraView,
    ChangeEventInfo,
    ObjectInfo,
    Observation,
    ObservationRecord,
    PlacementInfo,
    RelationInfo,
)
from tempomem_ros.msg import CameraView as CameraViewMsg
from tempomem_ros.msg import ChangeEvent, ObservationArray
from tempomem_ros.msg import Observation as ObservationMsg
from tempomem_ros.msg import ObservationRecord as ObservationRecordMsg
from tempomem_ros.msg import Placement, Relation, SceneObject

_NS = 1_000_000_000
_INT32_MAX = 2**31 - 1
_INT32_MIN = -(2**31)


# ----------------------------------------------------------------------------------------------------- time
def to_time(seconds: float | None) -> Time:
    """Float seconds -> Time; None (an open interval end, an unknown time) -> the zero Time.

    Rounded to the nearest nanosecond with the carry handled, so 1.9999999999 becomes (2, 0) rather than
    an invalid nanosec of 1e9. Out-of-range or non-finite values raise: a Time cannot carry them.
    """
    return set_time(Time(), seconds)


def set_time(stamp: Time, seconds: float | None) -> Time:
    """Fill ``stamp`` in place as ``to_time`` would build it (messages build their nested Time anyway)."""
    if seconds is None:
        stamp.sec, stamp.nanosec = 0, 0
        return stamp
    if not math.isfinite(seconds):
        raise InvalidInputError(f"time must be finite, got {seconds}")
    total_ns = int(round(float(seconds) * _NS))
    sec, nanosec = divmod(total_ns, _NS)
    if not _INT32_MIN <= sec <= _INT32_MAX:
        raise InvalidInputError(f"time {seconds} s does not fit builtin_interfaces/Time")
    stamp.sec, stamp.nanosec = int(sec), int(nanosec)
    return stamp


def from_time(stamp: Time, name: str = "time") -> float:
    """Time -> float seconds (the zero Time gives 0.0; callers decide whether zero means 'unset').

    nanosec is a uint32 on the wire but means 0 .. 999,999,999: a larger value (4e9 was accepted as 4 s
    more) is refused, naming the field."""
    if not 0 <= int(stamp.nanosec) < _NS:
        raise InvalidInputError(f"{name}.nanosec must be in 0..{_NS - 1}, got {stamp.nanosec}")
    return float(stamp.sec) + float(stamp.nanosec) * 1e-9


def is_zero(stamp: Time) -> bool:
    return stamp.sec == 0 and stamp.nanosec == 0


def optional_time(stamp: Time, name: str = "time") -> float | None:
    """Zero Time -> None, as the .srv files define 'zero = unset' for optional times."""
    return None if is_zero(stamp) else from_time(stamp, name)


def to_point(xyz) -> Point:
    return Point(x=float(xyz[0]), y=float(xyz[1]), z=float(xyz[2]))


def set_point(p: Point, xyz) -> Point:
    p.x, p.y, p.z = float(xyz[0]), float(xyz[1]), float(xyz[2])
    return p


def from_point(p: Point) -> tuple[float, float, float]:
    return (float(p.x), float(p.y), float(p.z))


# ---------------------------------------------------------------------------------------------- core -> msg
# scene_object and placement fill the nested messages a message constructor builds anyway: passing new
# Points and Times as arguments built every one twice, half of a 100-object scene_as_of page's time.
def scene_object(info: ObjectInfo) -> SceneObject:
    msg = SceneObject(id=int(info.id), label=info.label, confidence=float(info.confidence), state=info.state,
                      region_id=int(info.region_id), region_label=info.region_label,
                      n_observations=int(info.n_observations), n_moves=int(info.n_moves))
    set_point(msg.center, info.center)
    set_point(msg.bbox_min, info.bbox_min)
    set_point(msg.bbox_max, info.bbox_max)
    set_time(msg.first_seen, info.first_seen)
    set_time(msg.last_seen, info.last_seen)
    return msg


def placement(info: PlacementInfo | None) -> Placement:
    """A PlacementInfo as a Placement; None becomes the empty Placement (object_id 0), as ChangeEvent
    documents for 'no placement before/after'."""
    if info is None:
        return Placement()
    msg = Placement(object_id=int(info.object_id), region_id=int(info.region_id), region_label=info.region_label,
                    current=bool(info.current))
    set_point(msg.center, info.center)
    set_point(msg.bbox_min, info.bbox_min)
    set_point(msg.bbox_max, info.bbox_max)
    set_time(msg.t_from, info.t_from)
    set_time(msg.t_to, info.t_to)
    return msg


def change_event(info: ChangeEventInfo) -> ChangeEvent:
    return ChangeEvent(
        stamp=to_time(info.stamp),
        recorded_at=to_time(info.recorded_at),
        kind=info.kind,
        object_id=int(info.object_id),
        label=info.label,
        previous_label=info.previous_label,
        before=placement(info.before),
        after=placement(info.after),
        evidence=[int(i) for i in info.evidence],
    )


def relation(info: RelationInfo) -> Relation:
    return Relation(
        subject_id=int(info.subject_id),
        relation=info.relation,
        object_id=int(info.object_id),
        object_is_region=bool(info.object_is_region),
        confidence=float(info.confidence),
        since=to_time(info.since),
    )


def observation_record(rec: ObservationRecord) -> ObservationRecordMsg:
    """A stored observation; object_id is the fused object, or for a rejected one the best candidate."""
    object_id = rec.object_id if rec.object_id is not None else rec.candidate_id
    return ObservationRecordMsg(
        id=int(rec.id),
        stamp=to_time(rec.stamp),
        label=rec.label,
        confidence=float(rec.confidence),
        center=to_point(rec.center),
        bbox_min=to_point(rec.bbox_min),
        bbox_max=to_point(rec.bbox_max),
        verdict=rec.verdict,
        reason=rec.reason,
        object_id=int(object_id or 0),
        score=float(rec.score) if rec.score is not None else 0.0,
    )


def change_events(infos: Iterable[ChangeEventInfo]) -> list[ChangeEvent]:
    return [change_event(i) for i in infos]


class MessageCache:
    """Reuses the message built for a value that has not changed since the previous call.

    Why: the node republishes the whole scene graph after every commit, but between two commits only a
    few objects change; building ten thousand SceneObject messages in Python costs far more than comparing
    ten thousand frozen dataclasses. Values must be immutable (the core's frozen dataclasses); the cache
    keeps only the keys of the latest call, so forgotten objects do not accumulate.
    """

    def __init__(self, build, key=lambda value: value) -> None:
        self._build = build
        self._key = key
        self._cache: dict = {}
        self.hits = 0
        self.misses = 0

    def messages(self, values: Iterable) -> list:
        fresh: dict = {}
        out = []
        misses_before = self.misses
        cache, key_of = self._cache, self._key
        for value in values:
            key = key_of(value)
            hit = cache.get(key)
            if hit is None or (hit[0] is not value and hit[0] != value):
                hit = (value, self._build(value))
                self.misses += 1
            fresh[key] = hit  # the same pair object: no new allocation (and GC work) per unchanged value
            out.append(hit[1])
        self.hits += len(out) - (self.misses - misses_before)
        self._cache = fresh
        return out


class MessageMemo:
    """Messages of values answered before, reused while the value is unchanged (services).

    Why: answering is dominated by building messages (rosidl constructors run in Python, ~25 us each), and
    queries keep returning the same objects and placements. Unlike MessageCache it keeps every key it has
    seen, up to ``limit`` (then it starts over). The messages are shared between responses, so nothing may
    modify a message after it was built. Thread-safe under the GIL: one dict read, one dict write.
    """

    def __init__(self, build, key, limit: int = 200_000) -> None:
        self._build = build
        self._key = key
        self._limit = limit
        self._memo: dict = {}

    def messages(self, values: Iterable) -> list:
        out = []
        for value in values:
            key = self._key(value)
            hit = self._memo.get(key)
            if hit is None or hit[0] != value:
                if len(self._memo) >= self._limit:
                    self._memo = {}
                hit = (value, self._build(value))
                self._memo[key] = hit
            out.append(hit[1])
        return out


# ---------------------------------------------------------------------------------------------- msg -> core
def quaternion_matrix(x: float, y: float, z: float, w: float) -> np.ndarray:
    """Rotation matrix of a quaternion, normalised first (float32 transport leaves it slightly off)."""
    q = np.array([x, y, z, w], dtype=np.float64)
    if not np.all(np.isfinite(q)):
        raise InvalidInputError("view.pose orientation must be finite")
    norm = float(np.linalg.norm(q))
    if norm < 1e-9:
        raise InvalidInputError("view.pose orientation is a zero quaternion")
    x, y, z, w = q / norm
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def pose_matrix(pose) -> np.ndarray:
    """geometry_msgs/Pose -> 4x4 world-from-camera matrix."""
    o, p = pose.orientation, pose.position
    T = np.eye(4)
    T[:3, :3] = quaternion_matrix(o.x, o.y, o.z, o.w)
    T[:3, 3] = (p.x, p.y, p.z)
    if not np.all(np.isfinite(T)):
        raise InvalidInputError("view.pose position must be finite")
    return T


def _buffer(data, dtype) -> np.ndarray:
    """A message's array field (bytes, array.array or list) as a numpy array without copying when possible."""
    try:
        return np.frombuffer(data, dtype=dtype)
    except TypeError:
        return np.asarray(data, dtype=dtype)


def depth_image(image) -> np.ndarray:
    """A 32FC1 sensor_msgs/Image -> HxW float32 metres, honouring ``step`` (row padding) and endianness.

    Why strict about the encoding: a 16UC1 millimetre image read as float32 would be garbage that still
    looks like numbers; the CameraView contract says 32FC1 metres, so anything else is refused.
    """
    if image.encoding.upper() != "32FC1":
        raise InvalidInputError(f"view.depth encoding must be 32FC1, got '{image.encoding}'")
    h, w, step = int(image.height), int(image.width), int(image.step)
    if h <= 0 or w <= 0:
        raise InvalidInputError("view.depth must have a positive size")
    if step < 4 * w:
        raise InvalidInputError(f"view.depth step {step} is smaller than width * 4 = {4 * w}")
    raw = _buffer(image.data, np.uint8)
    if raw.size < step * (h - 1) + 4 * w:
        raise InvalidInputError(f"view.depth holds {raw.size} bytes, {h} rows of step {step} need {step * h}")
    rows = np.lib.stride_tricks.as_strided(raw, shape=(h, 4 * w), strides=(step, 1))
    dtype = np.dtype(">f4") if image.is_bigendian else np.dtype("<f4")
    return np.ascontiguousarray(rows).view(dtype).reshape(h, w).astype(np.float32)


def camera_view(view, stamp: float) -> CameraView | None:
    """The CameraView msg as a core CameraView, or None when it carries no depth (width 0)."""
    if int(view.depth.width) == 0:
        return None
    return CameraView(
        pose=pose_matrix(view.pose),
        fx=float(view.fx),
        fy=float(view.fy),
        cx=float(view.cx),
        cy=float(view.cy),
        width=int(view.width),
        height=int(view.height),
        max_range=float(view.max_range),
        depth=depth_image(view.depth),
        stamp=stamp,
        min_object_pixels=int(view.min_object_pixels),
    )


def observation(msg, stamp: float) -> Observation:
    feature = _buffer(msg.feature, np.float32).copy() if len(msg.feature) else None
    return Observation(
        label=msg.label,
        confidence=float(msg.confidence),
        center=from_point(msg.center),
        bbox_min=from_point(msg.bbox_min),
        bbox_max=from_point(msg.bbox_max),
        stamp=stamp,
        feature=feature,
        n_points=int(msg.n_points),
        instance_id=int(msg.instance_id),
    )


def observation_array(msg) -> tuple[list[Observation], CameraView | None, float]:
    """ObservationArray -> (observations, view or None, frame stamp in seconds)."""
    stamp = from_time(msg.header.stamp, "header.stamp")
    observations = [observation(o, stamp) for o in msg.observations]
    return observations, camera_view(msg.view, stamp), stamp


# ----------------------------------------------------------------------------------------- perception -> msg
def observation_array_msg(depth_msg, world_frame: str, observations, view, view_scale: float) -> ObservationArray:
    """The perception node's frame: its observations and camera view, stamped as the depth image, in
    ``world_frame``."""
    out = ObservationArray()
    out.header.stamp = depth_msg.header.stamp
    out.header.frame_id = world_frame
    for obs in observations:
        m = ObservationMsg()
        m.label = obs.label
        m.confidence = float(obs.confidence)
        m.center = Point(x=obs.center[0], y=obs.center[1], z=obs.center[2])
        m.bbox_min = Point(x=obs.bbox_min[0], y=obs.bbox_min[1], z=obs.bbox_min[2])
        m.bbox_max = Point(x=obs.bbox_max[0], y=obs.bbox_max[1], z=obs.bbox_max[2])
        if obs.feature is not None:
            m.feature = obs.feature.astype(np.float32)
        m.n_points = int(obs.n_points)
        m.instance_id = int(obs.instance_id)
        out.observations.append(m)
    out.view = camera_view_msg(depth_msg, view, view_scale)
    return out


def camera_view_msg(depth_msg, view, view_scale: float) -> CameraViewMsg:
    """perception's camera view (make_camera_view) -> CameraView msg; its depth as a 32FC1 image in the depth
    image's frame."""
    # imported when used: the memory node, which only reads CameraView msgs, never loads tempomem_ros.perception
    # (importing it took 0.7 s here)
    from tempomem_ros.perception.image import encode_float32  # noqa: PLC0415
    from tempomem_ros.perception.pose import matrix_to_pose  # noqa: PLC0415

    msg = CameraViewMsg()
    position, quaternion = matrix_to_pose(view.pose)
    msg.pose.position = Point(x=position[0], y=position[1], z=position[2])
    msg.pose.orientation.x, msg.pose.orientation.y, msg.pose.orientation.z, msg.pose.orientation.w = (
        quaternion
    )
    msg.fx, msg.fy, msg.cx, msg.cy = view.fx, view.fy, view.cx, view.cy
    msg.width, msg.height = view.width, view.height
    msg.max_range = float(view.max_range)
    raw = encode_float32(view.depth)
    msg.depth.header.stamp = depth_msg.header.stamp
    msg.depth.header.frame_id = depth_msg.header.frame_id
    msg.depth.height, msg.depth.width, msg.depth.encoding = raw.height, raw.width, raw.encoding
    msg.depth.is_bigendian, msg.depth.step, msg.depth.data = 0, raw.step, raw.data
    msg.depth_scale = float(view_scale)
    msg.min_object_pixels = int(view.min_object_pixels)
    return msg
