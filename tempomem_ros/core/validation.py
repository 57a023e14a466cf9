"""Input validation at the API boundary.

Why up front and per batch: a NaN centre or a wrong feature size that slipped into the store would poison
running means and indices for good. add() validates the whole batch before writing anything, so a bad
batch leaves the store exactly as it was, and the caller learns which item and which field was wrong.
"""

from __future__ import annotations

import math

import numpy as np

from .errors import InvalidInputError
from .types import CameraView, Observation


def finite_vec3(value, name: str) -> tuple[float, float, float]:
    try:
        arr = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{name} must be three numbers") from exc
    if arr.shape != (3,):
        raise InvalidInputError(f"{name} must be three numbers, got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise InvalidInputError(f"{name} must be finite, got {arr.tolist()}")
    return (float(arr[0]), float(arr[1]), float(arr[2]))


def finite_number(value, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{name} must be a number") from exc
    if not math.isfinite(v):
        raise InvalidInputError(f"{name} must be finite, got {v}")
    return v


def positive_int(value, name: str, *, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidInputError(f"{name} must be an integer")
    if not 1 <= int(value) <= maximum:
        raise InvalidInputError(f"{name} must be in 1..{maximum}, got {value}")
    return int(value)


def non_negative_int(value, name: str) -> int:
    """An int >= 0 (bools refused: True is not a count)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise InvalidInputError(f"{name} must be an integer >= 0, got {value!r}")
    return int(value)


def observation(obs, index: int, embedding_dim: int) -> None:
    where = f"observation {index}"
    if not isinstance(obs, Observation):
        raise InvalidInputError(f"{where}: expected Observation, got {type(obs).__name__}")
    if not isinstance(obs.label, str):
        raise InvalidInputError(f"{where}: label must be text")
    conf = finite_number(obs.confidence, f"{where}: confidence")
    if not 0.0 <= conf <= 1.0:
        raise InvalidInputError(f"{where}: confidence must be within 0..1, got {conf}")
    center = finite_vec3(obs.center, f"{where}: center")
    bmin = finite_vec3(obs.bbox_min, f"{where}: bbox_min")
    bmax = finite_vec3(obs.bbox_max, f"{where}: bbox_max")
    if any(lo > hi for lo, hi in zip(bmin, bmax)):
        raise InvalidInputError(f"{where}: bbox_min must not exceed bbox_max")
    tol = 1e-6
    if any(c < lo - tol or c > hi + tol for c, lo, hi in zip(center, bmin, bmax)):
        raise InvalidInputError(f"{where}: center {center} lies outside its box")
    finite_number(obs.stamp, f"{where}: stamp")
    if obs.feature is not None:
        feat = obs.feature
        if not isinstance(feat, np.ndarray) or feat.ndim != 1:
            raise InvalidInputError(f"{where}: feature must be a 1-D float array")
        if feat.shape[0] != embedding_dim:
            raise InvalidInputError(
                f"{where}: feature has dimension {feat.shape[0]}, the store expects {embedding_dim}")
        if not np.all(np.isfinite(feat)):
            raise InvalidInputError(f"{where}: feature must be finite")
        if float(np.linalg.norm(feat)) == 0.0:
            raise InvalidInputError(f"{where}: feature must not be all zeros")
    if isinstance(obs.n_points, bool) or not isinstance(obs.n_points, (int, np.integer)) or obs.n_points < 0:
        raise InvalidInputError(f"{where}: n_points must be a non-negative integer")


def camera_view(view) -> None:
    if not isinstance(view, CameraView):
        raise InvalidInputError(f"view must be a CameraView, got {type(view).__name__}")
    pose = np.asarray(view.pose, dtype=np.float64)
    if pose.shape != (4, 4) or not np.all(np.isfinite(pose)):
        raise InvalidInputError("view.pose must be a finite 4x4 matrix")
    rot = pose[:3, :3]
    if not np.allclose(rot.T @ rot, np.eye(3), atol=1e-3) or abs(np.linalg.det(rot) - 1.0) > 1e-3:
        raise InvalidInputError("view.pose rotation must be orthonormal with determinant 1")
    for name in ("fx", "fy"):
        if finite_number(getattr(view, name), f"view.{name}") <= 0:
            raise InvalidInputError(f"view.{name} must be > 0")
    finite_number(view.cx, "view.cx")
    finite_number(view.cy, "view.cy")
    for name in ("width", "height"):
        v = getattr(view, name)
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0:
            raise InvalidInputError(f"view.{name} must be a positive integer")
    if finite_number(view.max_range, "view.max_range") <= 0:
        raise InvalidInputError("view.max_range must be > 0")
    if view.depth is not None:
        depth = np.asarray(view.depth)
        if depth.ndim != 2 or depth.size == 0:
            raise InvalidInputError("view.depth must be a non-empty HxW array")
        if depth.shape[0] > view.height or depth.shape[1] > view.width:
            raise InvalidInputError("view.depth must not be larger than the image")
    if view.stamp is not None:
        finite_number(view.stamp, "view.stamp")
    mop = view.min_object_pixels
    if isinstance(mop, bool) or not isinstance(mop, (int, np.integer)) or mop < 0:
        raise InvalidInputError("view.min_object_pixels must be a non-negative integer")
