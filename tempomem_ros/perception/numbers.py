"""One parse for the fixed-length number lists the perception inputs carry (camera_info's K and P, a pose's
position and quaternion).

Why one helper with the error class a parameter: camera.py and pose.py parsed them the same way, each raising
its own class (CalibrationError, PoseError: the perception node counts a dropped frame under the class's
``reason``), so a fix to one parse would have missed the other.
"""

from __future__ import annotations

import numpy as np


def fixed_floats(values, count: int, name: str, error: type[Exception], *, finite: bool = False) -> np.ndarray:
    """``values`` as a flat float64 array of ``count`` numbers, else ``error``. ``finite``: NaN or inf is an
    error too (a pose's every entry is used; camera_info's unused matrix may hold anything, and the intrinsics
    it gives are checked where they are built)."""
    try:
        arr = np.asarray(values, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise error(f"{name} must be {count} numbers, got {values!r}") from None
    if arr.size != count:
        raise error(f"{name} must hold {count} numbers, got {arr.size}")
    if finite and not np.all(np.isfinite(arr)):
        raise error(f"{name} must be finite, got {arr.tolist()}")
    return arr
