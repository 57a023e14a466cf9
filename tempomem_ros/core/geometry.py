"""Box and camera geometry used by fusion, absence reasoning and relations.

Why plain functions over tuples/arrays: every rule of the memory is stated in these terms (overlap,
distance to a box, gap between boxes, footprint overlap, projection into a camera), and keeping them pure
makes each rule testable on its own with hand-computed numbers.
"""

from __future__ import annotations

import math

import numpy as np


# Scalar helpers use plain floats: they run for every candidate of every observation, where numpy's
# per-call overhead on 3-vectors costs more than the arithmetic.
# Why comparisons rather than max()/min() in the two below: they run for every candidate of every sighting (the
# fuser's score and same_place), and a builtin call each was the most frequent call of its CPU profile
# (bench_fuser_batch.py --cpu). ``x if not (y > x) else y`` is max(x, y) and ``x if not (y < x) else y`` min(x, y),
# the same value to the sign of a zero (the first argument wins a tie, as the builtins do).
def box_volume(bmin, bmax) -> float:
    v = 1.0
    for i in range(3):
        d = float(bmax[i]) - float(bmin[i])
        v *= d if not (0.0 > d) else 0.0
    return v


def intersection_volume(amin, amax, bmin, bmax) -> float:
    v = 1.0
    for i in range(3):
        a_hi, b_hi, a_lo, b_lo = float(amax[i]), float(bmax[i]), float(amin[i]), float(bmin[i])
        hi = a_hi if not (b_hi < a_hi) else b_hi
        lo = a_lo if not (b_lo > a_lo) else b_lo
        d = hi - lo
        v *= d if not (0.0 > d) else 0.0
    return v


def iou3d(amin, amax, bmin, bmax, pad: float = 0.0) -> float:
    """3D IoU of two axis-aligned boxes, each grown by ``pad`` per side (thin objects get a volume)."""
    amin = [float(x) - pad for x in amin[:3]]
    amax = [float(x) + pad for x in amax[:3]]
    bmin = [float(x) - pad for x in bmin[:3]]
    bmax = [float(x) + pad for x in bmax[:3]]
    inter = intersection_volume(amin, amax, bmin, bmax)
    if inter <= 0.0:
        return 0.0
    union = box_volume(amin, amax) + box_volume(bmin, bmax) - inter
    return inter / union if union > 0 else 0.0


def containment(amin, amax, bmin, bmax, pad: float = 0.0) -> float:
    """Share of box a (grown by ``pad`` per side) that lies inside box b (grown likewise)."""
    amin = [float(x) - pad for x in amin[:3]]
    amax = [float(x) + pad for x in amax[:3]]
    bmin = [float(x) - pad for x in bmin[:3]]
    bmax = [float(x) + pad for x in bmax[:3]]
    va = box_volume(amin, amax)
    return intersection_volume(amin, amax, bmin, bmax) / va if va > 0 else 0.0


def point_box_distance(p, bmin, bmax) -> float:
    """Euclidean distance from a point to a box (0 inside)."""
    d2 = 0.0
    for i in range(3):
        d = max(float(bmin[i]) - float(p[i]), float(p[i]) - float(bmax[i]), 0.0)
        d2 += d * d
    return math.sqrt(d2)


def box_gap(amin, amax, bmin, bmax) -> float:
    """Euclidean distance between two boxes (0 when they touch or overlap)."""
    d2 = 0.0
    for i in range(3):
        d = max(float(bmin[i]) - float(amax[i]), float(amin[i]) - float(bmax[i]), 0.0)
        d2 += d * d
    return math.sqrt(d2)


def footprint_overlap(subject_min, subject_max, anchor_min, anchor_max, pad: float = 0.01) -> float:
    """Fraction of the subject's xy footprint (grown by pad) that lies over the anchor's footprint."""
    sx0, sy0 = float(subject_min[0]) - pad, float(subject_min[1]) - pad
    sx1, sy1 = float(subject_max[0]) + pad, float(subject_max[1]) + pad
    ix = max(min(sx1, float(anchor_max[0])) - max(sx0, float(anchor_min[0])), 0.0)
    iy = max(min(sy1, float(anchor_max[1])) - max(sy0, float(anchor_min[1])), 0.0)
    area = (sx1 - sx0) * (sy1 - sy0)
    return ix * iy / area if area > 0 else 0.0


def point_in_box(p, bmin, bmax, tol: float = 0.0) -> bool:
    return all(float(bmin[i]) - tol <= float(p[i]) <= float(bmax[i]) + tol for i in range(3))


def frustum_aabb(pose: np.ndarray, fx: float, fy: float, cx: float, cy: float, width: int, height: int,
                 max_range: float) -> tuple[np.ndarray, np.ndarray]:
    """World-frame axis-aligned box around the camera frustum up to ``max_range`` along the optical axis."""
    z = float(max_range)
    corners_cam = np.array([
        [0.0, 0.0, 0.0],
        [(0 - cx) * z / fx, (0 - cy) * z / fy, z],
        [(width - cx) * z / fx, (0 - cy) * z / fy, z],
        [(0 - cx) * z / fx, (height - cy) * z / fy, z],
        [(width - cx) * z / fx, (height - cy) * z / fy, z],
    ])
    world = corners_cam @ pose[:3, :3].T + pose[:3, 3]
    return world.min(axis=0), world.max(axis=0)
