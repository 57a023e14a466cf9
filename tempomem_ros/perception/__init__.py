"""ROS-free perception: depth + instance masks + camera pose -> world-frame observations and views.

Why ROS-free: the same math serves the live node, the bag converters, the evaluation and the tests, and
it can be checked without a DDS graph. open3d (optional) and scipy are imported on first use only, and
the optional CLIP encoder lives in its own module so that importing this package never loads torch.
"""

from tempomem_ros.perception.camera import Intrinsics, intrinsics_from_camera_info
from tempomem_ros.perception.config import FIELD_DOCS, FIELD_RANGES, PerceptionConfig
from tempomem_ros.perception.errors import (
    CalibrationError,
    ConfigError,
    ImageEncodingError,
    ImageLayoutError,
    InputMismatchError,
    InstanceError,
    PerceptionError,
    PoseError,
)
from tempomem_ros.perception.extract import DROP_REASONS, erode_mask, extract_observations
from tempomem_ros.perception.image import RawImage, decode_color, decode_depth, decode_mask
from tempomem_ros.perception.pose import matrix_to_pose, pose_to_matrix
from tempomem_ros.perception.sync import StampSynchronizer
from tempomem_ros.perception.view import make_camera_view

__all__ = [
    "DROP_REASONS",
    "FIELD_DOCS",
    "FIELD_RANGES",
    "CalibrationError",
    "ConfigError",
    "ImageEncodingError",
    "ImageLayoutError",
    "InputMismatchError",
    "InstanceError",
    "Intrinsics",
    "PerceptionConfig",
    "PerceptionError",
    "PoseError",
    "RawImage",
    "StampSynchronizer",
    "decode_color",
    "decode_depth",
    "decode_mask",
    "erode_mask",
    "extract_observations",
    "intrinsics_from_camera_info",
    "make_camera_view",
    "matrix_to_pose",
    "pose_to_matrix",
]
