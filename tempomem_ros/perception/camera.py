"""Pinhole intrinsics from sensor_msgs/CameraInfo fields.

Why P by default: a rectified image (image_rect) is described by the projection matrix P, whose focal
lengths and principal point differ from the raw camera matrix K after rectification. Depth cameras
usually publish registered, rectified depth, so P is the right matrix whenever it is filled in
(P[0] != 0). An unrectified pipeline can ask for K explicitly. A camera_info with both matrices zero
means the camera was never calibrated; guessing a focal length would silently put every object in the
wrong place, so it is an error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tempomem_ros.core.validation import FOCAL_MAX_PX, FOCAL_MIN_PX, MAX_IMAGE_SIDE
from tempomem_ros.perception.config import INTRINSICS_SOURCES
from tempomem_ros.perception.errors import CalibrationError
from tempomem_ros.perception.numbers import fixed_floats


@dataclass(frozen=True)
class Intrinsics:
    """Pinhole model of the full-resolution image: pixel (u, v) centres are at integer coordinates."""

    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int

    def __post_init__(self) -> None:
        for name in ("fx", "fy", "cx", "cy"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
                raise CalibrationError(f"intrinsic {name} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise CalibrationError(f"intrinsic {name} must be finite, got {value!r}")
            object.__setattr__(self, name, float(value))
        if self.fx <= 0.0 or self.fy <= 0.0:
            raise CalibrationError(f"focal lengths must be positive, got fx={self.fx}, fy={self.fy}")
        for name in ("width", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
                raise CalibrationError(f"image {name} must be a positive integer, got {value!r}")
            if value > MAX_IMAGE_SIDE:
                raise CalibrationError(f"image {name} {value} exceeds {MAX_IMAGE_SIDE} px")
            object.__setattr__(self, name, int(value))
        # Plausibility (the memory's CameraView gate uses the same bounds): fx = fy = 1e-300 passed the
        # checks above and then made a pixel's footprint underflow into a ZeroDivisionError per frame.
        for name in ("fx", "fy"):
            value = getattr(self, name)
            if not FOCAL_MIN_PX <= value <= FOCAL_MAX_PX:
                raise CalibrationError(f"focal length {name}={value:g} px is outside [{FOCAL_MIN_PX:g}, "
                                       f"{FOCAL_MAX_PX:g}] (no pinhole camera)")
        for name, size in (("cx", self.width), ("cy", self.height)):
            value = getattr(self, name)
            if not -size <= value <= 2 * size:
                raise CalibrationError(f"principal point {name}={value:g} px lies more than the image size "
                                       "outside the image")


def intrinsics_from_camera_info(k, p, width: int, height: int, source: str = "auto") -> Intrinsics:
    """Intrinsics from CameraInfo's K (9, row-major) and P (12, row-major) and the image size.

    source: "auto" = P when P[0] != 0 else K; "P" = rectified (P required); "K" = raw camera matrix.
    """
    if source not in INTRINSICS_SOURCES:
        raise CalibrationError(f"intrinsics source must be one of {INTRINSICS_SOURCES}, got {source!r}")
    k_arr = fixed_floats(k, 9, "camera_info K", CalibrationError)
    p_arr = fixed_floats(p, 12, "camera_info P", CalibrationError)
    if k_arr[0] == 0.0 and p_arr[0] == 0.0:
        raise CalibrationError("camera is uncalibrated: camera_info K[0] and P[0] are both 0")
    use_p = p_arr[0] != 0.0 if source == "auto" else source == "P"
    if use_p:
        if p_arr[0] == 0.0:
            raise CalibrationError("intrinsics source is P (rectified) but camera_info P[0] is 0")
        fx, fy, cx, cy = p_arr[0], p_arr[5], p_arr[2], p_arr[6]
    else:
        if k_arr[0] == 0.0:
            raise CalibrationError("intrinsics source is K (unrectified) but camera_info K[0] is 0")
        fx, fy, cx, cy = k_arr[0], k_arr[4], k_arr[2], k_arr[5]
    return Intrinsics(float(fx), float(fy), float(cx), float(cy), width, height)
