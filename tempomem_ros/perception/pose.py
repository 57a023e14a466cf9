"""Camera pose helpers: position + quaternion <-> 4x4 world-from-camera matrix.

Why validate here: a pose estimator that loses track may publish NaN or an all-zero quaternion; turned
into a matrix unchecked, it would place every object of the frame at NaN or at the origin, and the
memory would fuse garbage. Slightly non-unit quaternions (rounding, float32 transport) are normal and
are normalised.
"""

from __future__ import annotations

import numpy as np

from tempomem_ros.perception.errors import PoseError
from tempomem_ros.perception.numbers import fixed_floats

_MIN_QUAT_NORM = 1e-9


def quaternion_to_rotation(quaternion) -> np.ndarray:
    """(x, y, z, w) -> 3x3 rotation matrix; the quaternion is normalised first."""
    q = fixed_floats(quaternion, 4, "quaternion (x, y, z, w)", PoseError, finite=True)
    norm = float(np.linalg.norm(q))
    if norm < _MIN_QUAT_NORM:
        raise PoseError(f"quaternion has zero norm: {q.tolist()}")
    x, y, z, w = q / norm
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def pose_to_matrix(position, quaternion) -> np.ndarray:
    """Position (x, y, z) + quaternion (x, y, z, w) -> 4x4 homogeneous world-from-camera matrix."""
    t = fixed_floats(position, 3, "position (x, y, z)", PoseError, finite=True)
    T = np.eye(4)
    T[:3, :3] = quaternion_to_rotation(quaternion)
    T[:3, 3] = t
    return T


def check_transform(T) -> np.ndarray:
    """Validate a 4x4 rigid transform (finite, orthonormal rotation, last row 0 0 0 1); returns float64."""
    try:
        arr = np.asarray(T, dtype=np.float64)
    except (TypeError, ValueError):
        raise PoseError(f"transform must be a 4x4 numeric matrix, got {T!r}") from None
    if arr.shape != (4, 4):
        raise PoseError(f"transform must be 4x4, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise PoseError("transform has non-finite entries")
    if not np.allclose(arr[3], (0.0, 0.0, 0.0, 1.0), atol=1e-9):
        raise PoseError(f"transform's last row must be 0 0 0 1, got {arr[3].tolist()}")
    R = arr[:3, :3]
    if not np.allclose(R @ R.T, np.eye(3), atol=1e-5) or np.linalg.det(R) < 0.0:
        raise PoseError("transform's rotation block is not a proper rotation")
    return arr


def rotation_to_quaternion(R) -> tuple[float, float, float, float]:
    """3x3 rotation -> unit quaternion (x, y, z, w) with w >= 0 (Shepperd's method, stable near 180 deg)."""
    m = np.asarray(R, dtype=np.float64)
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0.0:
        s = 2.0 * np.sqrt(trace + 1.0)
        w, x, y, z = 0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s
    elif m[0, 0] >= m[1, 1] and m[0, 0] >= m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        w, x, y, z = (m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s
    elif m[1, 1] >= m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        w, x, y, z = (m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s
    else:
        s = 2.0 * np.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        w, x, y, z = (m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s
    q = np.array([x, y, z, w])
    q /= np.linalg.norm(q)
    if q[3] < 0.0:
        q = -q
    return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))


def matrix_to_pose(T) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
    """4x4 world-from-camera -> (position (x, y, z), quaternion (x, y, z, w))."""
    arr = check_transform(T)
    t = arr[:3, 3]
    return (float(t[0]), float(t[1]), float(t[2])), rotation_to_quaternion(arr[:3, :3])
