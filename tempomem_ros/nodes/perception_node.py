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

import numpy as np
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PoseStamped
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.logging import get_logger
from rclpy.node import Node
from sensor_msgs.msg import CameraInfo, Image

from tempomem_ros import topics
from tempomem_ros.msg import InstanceMasks, ObservationArray
from tempomem_ros.nodes import conversions as conv
from tempomem_ros.nodes import diagnostics as diag
from tempomem_ros.nodes import perception_node_params as params
from tempomem_ros.nodes.camera import Camera, FrameDropped
from tempomem_ros.nodes.executor import close_main, make_node
from tempomem_ros.nodes.instance_features import FeatureExtractor, clip_extractor, frame_features
from tempomem_ros.nodes.parameters import declare
from tempomem_ros.nodes.perception_node_params import (  # noqa: F401 - parameter_defaults is part of the API
    StartupError,
    parameter_defaults,
    parameter_specs,
)
from tempomem_ros.nodes.qos import output_qos, sensor_qos
from tempomem_ros.perception import (
    DROP_REASONS,
    PerceptionError,
    StampSynchronizer,
    decode_depth,
    decode_mask,
    extract_observations,
    make_camera_view,
)
from tempomem_ros.perception.denoise import limit_threads
from tempomem_ros.perception.errors import ERROR_REASONS


#: Frame drop reasons of the node itself (the perception errors add theirs, see ERROR_REASONS).
NODE_DROP_REASONS = ("no_camera_info", "no_pose", "pose_frame_mismatch", "tf_unavailable", "internal_error")


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
        self.camera: Camera | None = None
        try:
            self._setup()
        except BaseException:  # do not leak the half-built node (its rcl handles) on a startup error
            self.destroy_node()
            raise

    def destroy_node(self) -> None:
        if self.camera is not None:
            self.camera.close()  # stops a TF listener's spin thread
        super().destroy_node()

    # ------------------------------------------------------------------------------------------ setup

    def _setup(self) -> None:
        try:
            self._declare_parameters()
        except ParameterException as exc:  # wrong type or out of range in a parameter file / override
            raise StartupError(f"invalid parameter: {exc}") from exc
        self.params = {name: self.get_parameter(name).value for name in parameter_defaults()}
        self.config = params.perception_config(self.params)
        p = self.params
        self.world_frame: str = p["world_frame"]
        params.check_choices(p)

        self.counters: dict[str, int] = {
            "frames_synced": 0,
            "frames_published": 0,
            "observations_published": 0,
        }
        self.drops: dict[str, int] = dict.fromkeys(NODE_DROP_REASONS + ERROR_REASONS, 0)
        #: messages each input topic's callback received (camera_info and every synchronised stream): what reached
        #: the node, against which a replay tells what the subscriptions' KEEP_LAST depth overwrote before the
        #: executor took it (tools/evaluation/pipeline.py), a loss the node itself never sees
        self.received: dict[str, int] = {}
        self.instance_drops: dict[str, int] = dict.fromkeys(DROP_REASONS, 0)
        self.feature_errors = 0
        self.last_processing_ms = 0.0
        self._drops_at_last_report = 0
        self._published_at_last_report = 0
        self._synced_at_last_report = 0
        self._last_warn: dict[str, float] = {}

        limit_threads(p["open3d_threads"])  # before the first frame imports open3d
        self.camera = Camera(self, p, self.world_frame)  # TF listener for pose_source tf

        qos = sensor_qos(p["qos_reliability"], p["qos_depth"])
        # transient local (default): a memory_node restarted or discovered late still gets the last frames
        # (bench/bench_restart_delivery.py: discovery of a restarted node took up to 2.7 s after it was
        # active); it matches volatile subscribers too
        self._pub = self.create_publisher(ObservationArray, topics.OBSERVATIONS,
                                          output_qos(p["output_durability"], p["output_depth"]))
        self._diag_pub = self.create_publisher(DiagnosticArray, topics.PERCEPTION_DIAGNOSTICS, 10)
        self._info_sub = self.create_subscription(CameraInfo, topics.CAMERA_INFO, self.on_camera_info, qos)
        self.received[topics.CAMERA_INFO] = 0
        streams = [("depth", Image, topics.DEPTH), ("masks", InstanceMasks, topics.INSTANCES)]
        if p["pose_source"] == "topic":
            streams.append(("pose", PoseStamped, topics.POSE))
        if p["use_color"]:
            streams.append(("color", Image, topics.COLOR))
        self.sync_backend = self._setup_sync(streams, qos)
        if p["clip.enabled"]:  # supplied features in InstanceMasks still take precedence
            self.feature_model, self.feature_extractor = clip_extractor(p, self.get_logger())
        self._diag_timer = self.create_timer(p["diagnostics_period_sec"], self.publish_diagnostics)
        self.get_logger().info(
            f"perception_node: pose from {p['pose_source']}, sync {self.sync_backend} "
            f"(slop {p['sync_slop_sec']} s), outliers {self.config.outlier_method}, "
            f"QoS {p['qos_reliability']}/{p['qos_depth']}, world frame '{self.world_frame}'"
        )

    def _declare_parameters(self) -> None:
        """Read-only parameters (the pipeline is built once from them): nodes/perception_node_params.py."""
        declare(self, parameter_specs())

    def _setup_sync(self, streams, qos) -> str:
        backend = self.params["sync_backend"]
        slop = float(self.params["sync_slop_sec"])
        queue_size = int(self.params["sync_queue_size"])
        self._stream_names = [name for name, _, _ in streams]
        self._stream_topics = {name: topic for name, _, topic in streams}
        self.received.update(dict.fromkeys(self._stream_topics.values(), 0))
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
                for (name, _, _), sub in zip(streams, self._mf_subs):
                    sub.registerCallback(lambda _msg, name=name: self._count(name))
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
        self.received[topics.CAMERA_INFO] += 1
        self.camera.info = msg

    @property
    def has_camera_info(self) -> bool:
        return self.camera.info is not None

    def _count(self, name: str) -> None:
        self.received[self._stream_topics[name]] += 1

    def _on_stream(self, name: str, msg) -> None:
        self._count(name)
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
        intrinsics = self.camera.intrinsics(self.config.intrinsics_source, self._info_sub.topic_name)
        depth = decode_depth(depth_msg, self.config.depth_unit_16u)
        mask = decode_mask(masks_msg.mask)
        T = self.camera.pose(depth_msg, pose_msg)
        ids = np.asarray(masks_msg.ids, dtype=np.int64)
        features = frame_features(masks_msg, ids, mask, color_msg, self.feature_extractor, self._feature_error)
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
        return conv.observation_array_msg(depth_msg, self.world_frame, observations, view, self.config.view_scale)

    def _feature_error(self, message: str) -> None:
        """The feature hook failed on a frame (published without features): counted and warned about."""
        self.feature_errors += 1
        self._warn("feature_extractor", message)

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
        received = self.has_camera_info
        level, message = diag.perception_status(new_drops, new_synced, new_published, self.drops, received)
        values = diag.perception_values(self.counters, self.drops, self.instance_drops, self.feature_errors,
                                        self._sync.discarded if self.sync_backend == "builtin" else -1,
                                        self.last_processing_ms, received)
        array = diag.status_array(f"tempomem_ros: {self.get_name()}", "", level, message, values,
                                  self.get_clock().now().to_msg())
        self._diag_pub.publish(array)
        return array


def main(args=None) -> int:
    """Entry point of ``ros2 run tempomem_ros perception_node`` (and bin/perception_node)."""
    rclpy.init(args=args)
    node = None
    executor = SingleThreadedExecutor()   # rclpy.spin's kind, shut down in the memory node's order (close_main)
    try:
        node = make_node(PerceptionNode)
        if node is None:  # Ctrl-C while it was being made (make_node)
            return 0
        executor.add_node(node)
        executor.spin()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except StartupError as exc:
        get_logger("perception_node").fatal(str(exc))
        return 1
    finally:
        close_main(executor, node)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
