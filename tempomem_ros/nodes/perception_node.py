"""perception_node: depth + instance masks + camera pose -> tempomem_ros/ObservationArray.

A thin rclpy adapter over ``tempomem_ros.perception``: it synchronises the input streams by stamp,
decodes them, runs ``extract_observations`` and ``make_camera_view``, and publishes the result. All the
math lives in the ROS-free package, so everything here is plumbing, validation and bookkeeping.

Why a bad frame is dropped, never fatal: a robot's perception must survive one corrupt message, a
camera_info that arrives late or a pose estimator that briefly loses track. Each dropped frame is
counted under a stable reason (the ``reason`` of the perception error, or one of this node's own) and
reported on /diagnostics every ``diagnostics_period_sec``; warnings are throttled per reason so that a
persistent fault cannot flood the log while a different fault still gets its own first warning.

Synchronisation: message_filters' ApproximateTimeSynchronizer when importable (and ``sync_backend`` is
auto or message_filters), else ``StampSynchronizer``. The colour image is only needed by a feature
extractor, so it is off by default (``use_color``). camera_info is not synchronised: the latest is used.

Feature hook: ``node.feature_extractor`` (None by default) may be set to a callable
``(rgb: HxWx3 uint8 or None, mask: HxW uint16, ids: int64 array) -> (len(ids) x dim) array or None``;
it is used when the InstanceMasks message carries no features (supplied features take precedence).

Parameters are read once at startup (changing them needs a restart); every one is declared with a
description and, where numeric, a range. Defaults: config/tempomem.yaml (perception_node section).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import Point, PoseStamped
from rclpy.duration import Duration
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException
from rclpy.logging import get_logger
from rclpy.node import Node
from rclpy.time import Time
from sensor_msgs.msg import CameraInfo, Image

from tempomem_ros import topics
from tempomem_ros.msg import CameraView as CameraViewMsg
from tempomem_ros.msg import InstanceMasks, ObservationArray
from tempomem_ros.msg import Observation as ObservationMsg
from tempomem_ros.nodes import diagnostics as diag
from tempomem_ros.nodes.parameters import declare
from tempomem_ros.nodes.perception_node_params import (  # noqa: F401 - parameter_defaults is part of the API
    POSE_SOURCES,
    SYNC_BACKENDS,
    parameter_defaults,
    parameter_specs,
)
from tempomem_ros.nodes.qos import RELIABILITIES, output_qos, sensor_qos
from tempomem_ros.perception import (
    DROP_REASONS,
    InputMismatchError,
    PerceptionConfig,
    PerceptionError,
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
from tempomem_ros.perception.denoise import limit_threads
from tempomem_ros.perception.errors import ERROR_REASONS
from tempomem_ros.perception.image import encode_float32


#: Frame drop reasons of the node itself (the perception errors add theirs, see ERROR_REASONS).
NODE_DROP_REASONS = ("no_camera_info", "no_pose", "pose_frame_mismatch", "tf_unavailable", "internal_error")

FeatureExtractor = Callable[[np.ndarray | None, np.ndarray, np.ndarray], np.ndarray | None]

class StartupError(RuntimeError):
    """The node cannot start with its configuration (bad parameter, pose_source tf without tf2_ros)."""


class FrameDropped(Exception):
    """A frame the node itself refuses (no camera_info yet, pose in another frame, no transform)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def stamp_ns(stamp) -> int:
    """builtin_interfaces/Time -> integer nanoseconds (exact, for synchronisation)."""
    return int(stamp.sec) * 1_000_000_000 + int(stamp.nanosec)


class PerceptionNode(Node):
    """Publishes one ObservationArray per synchronised depth + masks + pose frame."""

    def __init__(self, node_name: str = "perception_node", **kwargs) -> None:
        super().__init__(node_name, **kwargs)
        #: Optional appearance-feature hook (see the module docstring); None = no computed features.
        self.feature_extractor: FeatureExtractor | None = None
        self.feature_model = ""  # the encoder's name when clip.enabled (the memory records it)
        self._tf_listener = None
        try:
            self._setup()
        except BaseException:  # do not leak the half-built node (its rcl handles) on a startup error
            self.destroy_node()
            raise

    def destroy_node(self) -> None:
        if self._tf_listener is not None and hasattr(self._tf_listener, "unregister"):
            self._tf_listener.unregister()  # stops the listener's spin thread
            self._tf_listener = None
        super().destroy_node()

    # ------------------------------------------------------------------------------------------ setup

    def _setup(self) -> None:
        try:
            self._declare_parameters()
        except ParameterException as exc:  # wrong type or out of range in a parameter file / override
            raise StartupError(f"invalid parameter: {exc}") from exc
        self.params = {name: self.get_parameter(name).value for name in parameter_defaults()}
        self.config = self._make_config()
        p = self.params
        self.world_frame: str = p["world_frame"]
        self._check_choice("pose_source", POSE_SOURCES)
        self._check_choice("sync_backend", SYNC_BACKENDS)
        self._check_choice("qos_reliability", RELIABILITIES)
        self._check_choice("output_durability", ("transient_local", "volatile"))

        self.counters: dict[str, int] = {
            "frames_synced": 0,
            "frames_published": 0,
            "observations_published": 0,
        }
        self.drops: dict[str, int] = dict.fromkeys(NODE_DROP_REASONS + ERROR_REASONS, 0)
        self.instance_drops: dict[str, int] = dict.fromkeys(DROP_REASONS, 0)
        self.feature_errors = 0
        self.last_processing_ms = 0.0
        self._drops_at_last_report = 0
        self._published_at_last_report = 0
        self._synced_at_last_report = 0
        self._last_warn: dict[str, float] = {}
        self._camera_info: CameraInfo | None = None

        limit_threads(p["open3d_threads"])  # before the first frame imports open3d
        self._tf_buffer = None
        if p["pose_source"] == "tf":
            self._setup_tf()

        qos = sensor_qos(p["qos_reliability"], p["qos_depth"])
        # transient local (default): a memory_node restarted or discovered late still gets the last frames
        # (bench/bench_restart_delivery.py: discovery of a restarted node took up to 2.7 s after it was
        # active); it matches volatile subscribers too
        self._pub = self.create_publisher(ObservationArray, topics.OBSERVATIONS,
                                          output_qos(p["output_durability"], p["output_depth"]))
        self._diag_pub = self.create_publisher(DiagnosticArray, topics.PERCEPTION_DIAGNOSTICS, 10)
        self._info_sub = self.create_subscription(CameraInfo, topics.CAMERA_INFO, self.on_camera_info, qos)
        streams = [("depth", Image, topics.DEPTH), ("masks", InstanceMasks, topics.INSTANCES)]
        if p["pose_source"] == "topic":
            streams.append(("pose", PoseStamped, topics.POSE))
        if p["use_color"]:
            streams.append(("color", Image, topics.COLOR))
        self.sync_backend = self._setup_sync(streams, qos)
        if p["clip.enabled"]:
            self._setup_clip()
        self._diag_timer = self.create_timer(p["diagnostics_period_sec"], self.publish_diagnostics)
        self.get_logger().info(
            f"perception_node: pose from {p['pose_source']}, sync {self.sync_backend} "
            f"(slop {p['sync_slop_sec']} s), outliers {self.config.outlier_method}, "
            f"QoS {p['qos_reliability']}/{p['qos_depth']}, world frame '{self.world_frame}'"
        )

    def _declare_parameters(self) -> None:
        """Read-only parameters (the pipeline is built once from them): nodes/perception_node_params.py."""
        declare(self, parameter_specs())

    def _make_config(self) -> PerceptionConfig:
        values = {name: self.params[name] for name in PerceptionConfig.__dataclass_fields__}
        try:
            return PerceptionConfig(**values)
        except PerceptionError as exc:
            raise StartupError(f"invalid perception parameter: {exc}") from exc

    def _check_choice(self, name: str, choices: tuple[str, ...]) -> None:
        if self.params[name] not in choices:
            raise StartupError(f"parameter {name} must be one of {choices}, got {self.params[name]!r}")

    def _setup_clip(self) -> None:
        """Fill Observation.feature with CLIP features of each instance's masked crop (features supplied
        in InstanceMasks still take precedence). A missing checkpoint fails at startup, naming it."""
        p = self.params
        if not p["use_color"]:
            raise StartupError("clip.enabled needs use_color: true (CLIP encodes the colour image)")
        from tempomem_ros.perception.clip_encoder import ClipConfig, ClipEncoder  # noqa: PLC0415 - heavy

        try:
            encoder = ClipEncoder(ClipConfig(
                model_name=p["clip.model_name"], checkpoint_path=p["clip.checkpoint_path"],
                allow_random_weights=p["clip.allow_random_weights"], batch_size=p["clip.batch_size"],
                padding=p["clip.padding"], background=p["clip.background"], num_threads=p["clip.num_threads"]))
        except PerceptionError as exc:
            raise StartupError(f"CLIP encoder: {exc}") from exc
        self.feature_model = encoder.name
        self.feature_extractor = lambda rgb, mask, ids: None if rgb is None else encoder.encode_instances(rgb, mask,
                                                                                                          ids)
        self.get_logger().info(f"CLIP features: {encoder.name} ({encoder.weights}), {encoder.dim}-d")

    def _setup_tf(self) -> None:
        try:
            from tf2_ros import Buffer, TransformListener  # noqa: PLC0415 - optional, only for pose_source tf
        except ImportError as exc:
            raise StartupError(
                f"pose_source is 'tf' but tf2_ros cannot be imported ({exc}); install tf2_ros, or publish "
                f"the camera pose as geometry_msgs/PoseStamped on {topics.POSE} and set pose_source: topic"
            ) from exc
        self._tf_buffer = Buffer()
        # Its own spin thread, so that a lookup waiting in our callback does not starve TF reception.
        self._tf_listener = TransformListener(self._tf_buffer, self, spin_thread=True)

    def _setup_sync(self, streams, qos) -> str:
        backend = self.params["sync_backend"]
        slop = float(self.params["sync_slop_sec"])
        queue_size = int(self.params["sync_queue_size"])
        self._stream_names = [name for name, _, _ in streams]
        if backend in ("auto", "message_filters"):
            try:
                import message_filters  # noqa: PLC0415 - optional dependency
            except ImportError as exc:
                if backend == "message_filters":
                    raise StartupError(
                        f"sync_backend is message_filters but it cannot be imported ({exc})"
                    ) from exc
            else:
                self._mf_subs = [
                    message_filters.Subscriber(self, msg_type, topic, qos_profile=qos)
                    for _, msg_type, topic in streams
                ]
                self._mf_sync = message_filters.ApproximateTimeSynchronizer(self._mf_subs, queue_size, slop)
                self._mf_sync.registerCallback(self._on_synced_tuple)
                return "message_filters"
        self._sync = StampSynchronizer(self._stream_names, int(round(slop * 1e9)), queue_size)
        self._subs = [
            self.create_subscription(msg_type, topic, lambda msg, name=name: self._on_stream(name, msg), qos)
            for name, msg_type, topic in streams
        ]
        return "builtin"

    # -------------------------------------------------------------------------------------- callbacks

    def on_camera_info(self, msg: CameraInfo) -> None:
        """Keep the latest camera_info (intrinsics are validated per frame, where a drop is counted)."""
        self._camera_info = msg

    @property
    def has_camera_info(self) -> bool:
        return self._camera_info is not None

    def _on_stream(self, name: str, msg) -> None:
        frame = self._sync.add(name, stamp_ns(msg.header.stamp), msg)
        if frame is not None:
            self.process_frame(frame["depth"], frame["masks"], frame.get("pose"), frame.get("color"))

    def _on_synced_tuple(self, *msgs) -> None:
        frame = dict(zip(self._stream_names, msgs))
        self.process_frame(frame["depth"], frame["masks"], frame.get("pose"), frame.get("color"))

    # ------------------------------------------------------------------------------------- processing

    def process_frame(
        self,
        depth_msg: Image,
        masks_msg: InstanceMasks,
        pose_msg: PoseStamped | None = None,
        color_msg: Image | None = None,
    ) -> ObservationArray | None:
        """Turn one synchronised frame into an ObservationArray and publish it; None when dropped."""
        self.counters["frames_synced"] += 1
        start = time.perf_counter()
        try:
            out = self._build(depth_msg, masks_msg, pose_msg, color_msg)
        except (PerceptionError, FrameDropped) as exc:
            self._drop(exc.reason, str(exc))
            return None
        except Exception as exc:  # the node must outlive any single frame; the reason makes it visible
            self._drop("internal_error", f"{type(exc).__name__}: {exc}")
            return None
        self._pub.publish(out)
        self.last_processing_ms = (time.perf_counter() - start) * 1000.0
        self.counters["frames_published"] += 1
        self.counters["observations_published"] += len(out.observations)
        return out

    def _build(self, depth_msg, masks_msg, pose_msg, color_msg) -> ObservationArray:
        info = self._camera_info
        if info is None:
            raise FrameDropped(
                "no_camera_info", f"no camera_info received yet on {self._info_sub.topic_name}"
            )
        intrinsics = intrinsics_from_camera_info(
            info.k, info.p, info.width, info.height, self.config.intrinsics_source
        )
        depth = decode_depth(depth_msg, self.config.depth_unit_16u)
        mask = decode_mask(masks_msg.mask)
        T = self._camera_pose(depth_msg, pose_msg)
        ids = np.asarray(masks_msg.ids, dtype=np.int64)
        features = self._features(masks_msg, ids, mask, color_msg)
        stamp = stamp_ns(depth_msg.header.stamp) / 1e9
        observations, drops = extract_observations(
            depth,
            mask,
            ids,
            list(masks_msg.labels),
            np.asarray(masks_msg.confidences, dtype=np.float64),
            intrinsics,
            T,
            stamp,
            features=features,
            config=self.config,
        )
        view = make_camera_view(
            depth, intrinsics, T, self.config.view_max_range, self.config.view_scale, stamp,
            min_object_pixels=self.config.min_mask_pixels
        )
        for reason, count in drops.items():
            self.instance_drops[reason] += count
        return self._to_msg(depth_msg, observations, view)

    def _camera_pose(self, depth_msg: Image, pose_msg: PoseStamped | None) -> np.ndarray:
        if self._tf_buffer is not None:
            return self._lookup_tf(depth_msg)
        if pose_msg is None:
            raise FrameDropped("no_pose", "pose_source is topic but the frame came without a PoseStamped")
        frame = pose_msg.header.frame_id
        if frame and frame != self.world_frame:
            raise FrameDropped(
                "pose_frame_mismatch",
                f"camera pose is in frame '{frame}', expected world frame '{self.world_frame}'",
            )
        p, q = pose_msg.pose.position, pose_msg.pose.orientation
        return pose_to_matrix((p.x, p.y, p.z), (q.x, q.y, q.z, q.w))

    def _lookup_tf(self, depth_msg: Image) -> np.ndarray:
        camera_frame = self.params["camera_frame"] or depth_msg.header.frame_id
        if not camera_frame:
            raise FrameDropped("tf_unavailable", "no camera frame: set camera_frame or fill header.frame_id")
        try:
            transform = self._tf_buffer.lookup_transform(
                self.world_frame,
                camera_frame,
                Time.from_msg(depth_msg.header.stamp),
                timeout=Duration(seconds=float(self.params["tf_timeout_sec"])),
            )
        except Exception as exc:  # tf2 raises several unrelated exception types (lookup, extrapolation, ...)
            raise FrameDropped(
                "tf_unavailable", f"no transform {self.world_frame} <- {camera_frame}: {exc}"
            ) from None
        t, q = transform.transform.translation, transform.transform.rotation
        return pose_to_matrix((t.x, t.y, t.z), (q.x, q.y, q.z, q.w))

    def _features(self, masks_msg, ids, mask, color_msg) -> np.ndarray | None:
        dim = int(masks_msg.feature_dim)
        if dim > 0:
            flat = np.asarray(masks_msg.features, dtype=np.float64)
            if flat.size != dim * ids.size:
                raise InputMismatchError(
                    f"InstanceMasks has {flat.size} feature values, expected {ids.size} ids x {dim} dims"
                )
            return flat.reshape(ids.size, dim)
        if self.feature_extractor is None or ids.size == 0:
            return None
        rgb = decode_color(color_msg) if color_msg is not None else None
        try:
            features = self.feature_extractor(rgb, mask, ids)
        except Exception as exc:  # a broken extractor costs the features, not the frame
            self.feature_errors += 1
            self._warn("feature_extractor", f"feature extractor failed, publishing without features: {exc}")
            return None
        if features is None:
            return None
        try:
            features = np.asarray(features, dtype=np.float64)
        except (TypeError, ValueError):
            features = None
        if (
            features is None
            or features.ndim != 2
            or features.shape[0] != ids.size
            or features.shape[1] < 1
            or not np.all(np.isfinite(features))
        ):
            self.feature_errors += 1
            self._warn(
                "feature_extractor",
                f"feature extractor must return finite ({ids.size}, dim) rows; publishing without features",
            )
            return None
        return features

    def _to_msg(self, depth_msg: Image, observations, view) -> ObservationArray:
        out = ObservationArray()
        out.header.stamp = depth_msg.header.stamp
        out.header.frame_id = self.world_frame
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
        out.view = self._view_msg(depth_msg, view)
        return out

    def _view_msg(self, depth_msg: Image, view) -> CameraViewMsg:
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
        msg.depth_scale = float(self.config.view_scale)
        msg.min_object_pixels = int(view.min_object_pixels)
        return msg

    # ------------------------------------------------------------------------------- drops and health

    def _warn(self, key: str, message: str) -> None:
        """Warn at most once per ``warn_throttle_sec`` per key (rclpy throttles per call site only)."""
        now = time.monotonic()
        last = self._last_warn.get(key)
        if last is None or now - last >= float(self.params["warn_throttle_sec"]):
            self._last_warn[key] = now
            self.get_logger().warning(f"{message} [{key}: {self.drops.get(key, 0)} so far]")

    def _drop(self, reason: str, message: str) -> None:
        self.drops[reason] = self.drops.get(reason, 0) + 1
        self._warn(reason, f"dropped frame: {message}")

    def publish_diagnostics(self) -> DiagnosticArray:
        """Publish (and return) the counters; WARN when frames were dropped since the last report."""
        dropped = sum(self.drops.values())
        new_drops = dropped - self._drops_at_last_report
        new_published = self.counters["frames_published"] - self._published_at_last_report
        new_synced = self.counters["frames_synced"] - self._synced_at_last_report
        self._drops_at_last_report = dropped
        self._published_at_last_report = self.counters["frames_published"]
        self._synced_at_last_report = self.counters["frames_synced"]
        if new_drops:
            reasons = ", ".join(f"{k}={v}" for k, v in self.drops.items() if v)
            level, message = diag.WARN, f"dropped {new_drops} of {new_synced} frames since the last report ({reasons})"
        elif self._camera_info is None:
            level, message = diag.WARN, "no camera_info received yet"
        else:
            level, message = diag.OK, f"published {new_published} frames since the last report"
        values = {**self.counters}
        values.update({f"drop_{k}": v for k, v in self.drops.items()})
        values.update({f"instances_dropped_{k}": v for k, v in self.instance_drops.items()})
        values["feature_extractor_errors"] = self.feature_errors
        values["sync_discarded"] = self._sync.discarded if self.sync_backend == "builtin" else -1
        values["last_processing_ms"] = round(self.last_processing_ms, 3)
        values["camera_info_received"] = self._camera_info is not None
        array = diag.status_array(f"tempomem_ros: {self.get_name()}", "", level, message, values,
                                  self.get_clock().now().to_msg())
        self._diag_pub.publish(array)
        return array


def main(args=None) -> int:
    """Entry point of ``ros2 run tempomem_ros perception_node`` (and bin/perception_node)."""
    rclpy.init(args=args)
    node = None
    try:
        node = PerceptionNode()
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except StartupError as exc:
        get_logger("perception_node").fatal(str(exc))
        return 1
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
