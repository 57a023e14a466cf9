"""Where the perception node's camera is and how it sees: the latest camera_info and the camera pose.

Why a frame without them is dropped, not fatal: camera_info may arrive after the first images, and a pose
estimator (or TF) may briefly lose track; such a frame raises FrameDropped with a stable reason, which the
node counts and reports, and the next frame may well be fine.
Why the pose comes from a topic or from TF (``pose_source``): a PoseStamped stream is synchronised with the
images by stamp; TF is looked up at the depth image's stamp. tf2_ros is optional (the tests run without it), so
it is imported only for pose_source tf, and its absence stops the node at startup with what to do instead.
"""

from __future__ import annotations

import numpy as np
from geometry_msgs.msg import PoseStamped
from rclpy.duration import Duration
from rclpy.time import Time
from sensor_msgs.msg import CameraInfo, Image

from tempomem_ros import topics
from tempomem_ros.nodes.perception_node_params import StartupError
from tempomem_ros.perception import Intrinsics, intrinsics_from_camera_info, pose_to_matrix


class FrameDropped(Exception):
    """A frame the node itself refuses (no camera_info yet, pose in another frame, no transform)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class Camera:
    """The latest camera_info (``info``) and the camera pose of each frame, in ``world_frame``."""

    def __init__(self, node, params: dict, world_frame: str) -> None:
        self.info: CameraInfo | None = None
        self.world_frame = world_frame
        self._camera_frame: str = params["camera_frame"]
        self._tf_timeout = float(params["tf_timeout_sec"])
        self._tf_buffer = None
        self._tf_listener = None
        if params["pose_source"] == "tf":
            self._setup_tf(node)

    def _setup_tf(self, node) -> None:
        try:
            from tf2_ros import Buffer, TransformListener  # noqa: PLC0415 - optional, only for pose_source tf
        except ImportError as exc:
            raise StartupError(
                f"pose_source is 'tf' but tf2_ros cannot be imported ({exc}); install tf2_ros, or publish "
                f"the camera pose as geometry_msgs/PoseStamped on {topics.POSE} and set pose_source: topic"
            ) from exc
        self._tf_buffer = Buffer()
        # Its own spin thread, so that a lookup waiting in our callback does not starve TF reception.
        self._tf_listener = TransformListener(self._tf_buffer, node, spin_thread=True)

    def close(self) -> None:
        if self._tf_listener is not None and hasattr(self._tf_listener, "unregister"):
            self._tf_listener.unregister()  # stops the listener's spin thread
            self._tf_listener = None

    def intrinsics(self, source: str, info_topic: str) -> Intrinsics:
        """The intrinsics of the latest camera_info (validated here, per frame, where a drop is counted)."""
        info = self.info
        if info is None:
            raise FrameDropped("no_camera_info", f"no camera_info received yet on {info_topic}")
        return intrinsics_from_camera_info(info.k, info.p, info.width, info.height, source)

    def pose(self, depth_msg: Image, pose_msg: PoseStamped | None) -> np.ndarray:
        """The 4x4 world-from-camera matrix of the frame of ``depth_msg``."""
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
        camera_frame = self._camera_frame or depth_msg.header.frame_id
        if not camera_frame:
            raise FrameDropped("tf_unavailable", "no camera frame: set camera_frame or fill header.frame_id")
        try:
            transform = self._tf_buffer.lookup_transform(
                self.world_frame,
                camera_frame,
                Time.from_msg(depth_msg.header.stamp),
                timeout=Duration(seconds=self._tf_timeout),
            )
        except Exception as exc:  # tf2 raises several unrelated exception types (lookup, extrapolation, ...)
            raise FrameDropped(
                "tf_unavailable", f"no transform {self.world_frame} <- {camera_frame}: {exc}"
            ) from None
        t, q = transform.transform.translation, transform.transform.rotation
        return pose_to_matrix((t.x, t.y, t.z), (q.x, q.y, q.z, q.w))
