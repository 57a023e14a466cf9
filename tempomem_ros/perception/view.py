"""The CameraView of a frame: pose, full-resolution intrinsics and a coarse depth image.

Why coarse: the memory only needs depth to decide whether a stored object was occluded, for a handful
of objects per frame; a 640x480 float image per frame would dominate the message and the store.

Why the block MINIMUM: a coarse pixel stands for all the full pixels of its block. If any of them sees a
nearer surface, an object behind that block may be hidden, so the conservative value for occlusion is
the nearest depth; an average would invent a surface in mid-air at depth edges and a maximum would let
a thin occluder vanish. A block with no valid depth is NaN (unknown), never 0.

Image sizes that are not a multiple of the block get a partial last block (padding counts as invalid),
so the coarse image covers every full pixel: coarse size = ceil(full size / block).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from tempomem_ros.core.types import CameraView
from tempomem_ros.perception.camera import Intrinsics
from tempomem_ros.perception.config import view_block
from tempomem_ros.perception.errors import PerceptionError
from tempomem_ros.perception.extract import check_depth
from tempomem_ros.perception.pose import check_transform


def min_pool_depth(depth_m: np.ndarray, block: int) -> np.ndarray:
    """Block minimum of valid depth (finite, > 0); NaN where a block has none. Returns float32.

    Rows are reduced first (a reduction over a middle axis with contiguous rows is fast), then the
    ``block`` column phases are combined with elementwise minimum: 3x faster than one 4-D reduction.
    """
    height, width = depth_m.shape
    out_h, out_w = -(-height // block), -(-width // block)
    padded = np.full((out_h * block, out_w * block), np.inf, dtype=np.float32)
    with np.errstate(invalid="ignore"):
        np.copyto(padded[:height, :width], depth_m, where=depth_m > 0.0)  # NaN and <= 0 stay +inf
    rows = padded.reshape(out_h, block, out_w * block).min(axis=1)
    coarse = rows[:, 0::block].copy()
    for phase in range(1, block):
        np.minimum(coarse, rows[:, phase::block], out=coarse)
    coarse[np.isinf(coarse)] = np.nan  # +inf: no valid depth in the block (or a depth of +inf)
    return coarse


def make_camera_view(
    depth_m: np.ndarray,
    intrinsics: Intrinsics,
    T_world_cam: np.ndarray,
    max_range: float,
    scale: float = 0.125,
    stamp: float | None = None,
    min_object_pixels: int = 0,
) -> CameraView:
    """CameraView with the full-resolution intrinsics and depth min-pooled by 1/scale (an integer)."""
    if not isinstance(intrinsics, Intrinsics):
        raise PerceptionError(f"intrinsics must be an Intrinsics, got {type(intrinsics).__name__}")
    block = view_block(scale)
    depth = check_depth(depth_m, intrinsics)
    T = check_transform(T_world_cam)
    if (
        isinstance(max_range, bool)
        or not isinstance(max_range, numbers.Real)
        or not math.isfinite(max_range)
        or max_range <= 0.0
    ):
        raise PerceptionError(f"max_range must be a finite positive number of metres, got {max_range!r}")
    if stamp is not None and (
        isinstance(stamp, bool) or not isinstance(stamp, numbers.Real) or not math.isfinite(stamp)
    ):
        raise PerceptionError(f"stamp must be a finite number of seconds or None, got {stamp!r}")
    return CameraView(
        pose=T.copy(),
        fx=intrinsics.fx,
        fy=intrinsics.fy,
        cx=intrinsics.cx,
        cy=intrinsics.cy,
        width=intrinsics.width,
        height=intrinsics.height,
        max_range=float(max_range),
        depth=min_pool_depth(depth, block),
        stamp=None if stamp is None else float(stamp),
        min_object_pixels=int(min_object_pixels),
    )
