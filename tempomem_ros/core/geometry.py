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
    return iou_of_volumes(*padded_volumes(amin, amax, bmin, bmax, pad))


def iou_of_volumes(inter: float, va: float, vb: float) -> float:
    """IoU from padded_volumes' (intersection, volume of a, volume of b): what iou3d returns, for the callers that
    read the volumes once for more than the IoU (fusion.score, association.same_place)."""
    if inter <= 0.0:
        return 0.0
    union = va + vb - inter
    return inter / union if union > 0 else 0.0


def containment(amin, amax, bmin, bmax, pad: float | tuple = 0.0) -> float:
    """Share of box a (grown by ``pad`` per side) that lies inside box b (grown likewise). ``pad``: one number, or a
    tuple of three, one per axis (frame_fusion._held_share's part tolerance); a number takes padded_volumes' path."""
    if type(pad) is tuple:
        inter, va = 1.0, 1.0
        for i in range(3):
            a0, a1, b0, b1 = float(amin[i]) - pad[i], float(amax[i]) + pad[i], float(bmin[i]) - pad[i], \
                float(bmax[i]) + pad[i]
            inter *= max(0.0, min(a1, b1) - max(a0, b0))
            va *= max(0.0, a1 - a0)
    else:
        inter, va, _ = padded_volumes(amin, amax, bmin, bmax, pad)
    return inter / va if va > 0 else 0.0


def xyz(v) -> tuple[float, float, float]:
    """The first three values of a vector as Python floats (float() of each: the same values)."""
    if type(v) is np.ndarray:
        v = v.tolist()  # Python floats equal to the elements, without a numpy scalar each
    return float(v[0]), float(v[1]), float(v[2])


def padded_volumes(amin, amax, bmin, bmax, pad: float = 0.0) -> tuple[float, float, float]:
    """(intersection, volume of a, volume of b) of the two boxes grown by ``pad`` per side: intersection_volume and
    box_volume of the grown boxes, operation for operation (so to the bit, signed zeros and NaN included), written
    out for three axes.

    Why: iou3d and containment run for every candidate of every sighting (the fuser's score and same_place, about
    100 calls a frame on bench_fuser_batch.py), and each built four lists of floats and looped over the axes; the
    score asks both of the same two boxes, and now reads the three volumes once (test_core_score_floats.py compares
    with the loops, to the bit)."""
    a0, a1, a2 = xyz(amin)
    A0, A1, A2 = xyz(amax)
    b0, b1, b2 = xyz(bmin)
    B0, B1, B2 = xyz(bmax)
    a0, a1, a2, b0, b1, b2 = a0 - pad, a1 - pad, a2 - pad, b0 - pad, b1 - pad, b2 - pad
    A0, A1, A2, B0, B1, B2 = A0 + pad, A1 + pad, A2 + pad, B0 + pad, B1 + pad, B2 + pad
    # intersection_volume: per axis min of the highs, max of the lows (the first argument wins a tie)
    d0 = (A0 if not (B0 < A0) else B0) - (a0 if not (b0 > a0) else b0)
    d1 = (A1 if not (B1 < A1) else B1) - (a1 if not (b1 > a1) else b1)
    d2 = (A2 if not (B2 < A2) else B2) - (a2 if not (b2 > a2) else b2)
    inter = ((1.0 * (d0 if not (0.0 > d0) else 0.0)) * (d1 if not (0.0 > d1) else 0.0)) * \
        (d2 if not (0.0 > d2) else 0.0)
    d0, d1, d2 = A0 - a0, A1 - a1, A2 - a2
    va = ((1.0 * (d0 if not (0.0 > d0) else 0.0)) * (d1 if not (0.0 > d1) else 0.0)) * (d2 if not (0.0 > d2) else 0.0)
    d0, d1, d2 = B0 - b0, B1 - b1, B2 - b2
    vb = ((1.0 * (d0 if not (0.0 > d0) else 0.0)) * (d1 if not (0.0 > d1) else 0.0)) * (d2 if not (0.0 > d2) else 0.0)
    return inter, va, vb


def point_box_distance(p, bmin, bmax) -> float:
    """Euclidean distance from a point to a box (0 inside).

    Per axis max(lo - p, p - hi, 0.0) as the builtin gives it (a later argument replaces the kept one only when
    greater), written as comparisons: it runs for every candidate of every sighting (fusion.score)."""
    p0, p1, p2 = xyz(p)
    l0, l1, l2 = xyz(bmin)
    h0, h1, h2 = xyz(bmax)
    d0, e0 = l0 - p0, p0 - h0
    d0 = e0 if e0 > d0 else d0
    d0 = 0.0 if 0.0 > d0 else d0
    d1, e1 = l1 - p1, p1 - h1
    d1 = e1 if e1 > d1 else d1
    d1 = 0.0 if 0.0 > d1 else d1
    d2, e2 = l2 - p2, p2 - h2
    d2 = e2 if e2 > d2 else d2
    d2 = 0.0 if 0.0 > d2 else d2
    return math.sqrt(((0.0 + d0 * d0) + d1 * d1) + d2 * d2)


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
