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
def box_volume(bmin, bmax) -> float:
    v = 1.0
    for i in range(3):
        v *= max(float(bmax[i]) - float(bmin[i]), 0.0)
    return v


def pad_box(bmin, bmax, pad: float):
    return np.asarray(bmin, float) - pad, np.asarray(bmax, float) + pad


def intersection_volume(amin, amax, bmin, bmax) -> float:
    v = 1.0
    for i in range(3):
        v *= max(min(float(amax[i]), float(bmax[i])) - max(float(amin[i]), float(bmin[i])), 0.0)
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
    """Fraction of the subject's xy footprint that lies over the anchor's footprint."""
    smin = np.asarray(subject_min[:2], float) - pad
    smax = np.asarray(subject_max[:2], float) + pad
    amin = np.asarray(anchor_min[:2], float)
    amax = np.asarray(anchor_max[:2], float)
    ext = np.maximum(np.minimum(smax, amax) - np.maximum(smin, amin), 0.0)
    area = float(np.prod(smax - smin))
    return float(ext[0] * ext[1]) / area if area > 0 else 0.0


def point_in_box(p, bmin, bmax, tol: float = 0.0) -> bool:
    p = np.asarray(p, float)
    return bool(np.all(p >= np.asarray(bmin, float) - tol) and np.all(p <= np.asarray(bmax, float) + tol))


def box_sample_points(bmin, bmax, shrink: float = 0.5) -> np.ndarray:
    """Centre plus the 8 corners of the box shrunk towards its centre (9x3).

    Why shrunk: the object's silhouette rarely fills its bounding box; points half-way to the corners
    are likely on the object, so their visibility says whether the object itself was in view.
    """
    bmin = np.asarray(bmin, float)
    bmax = np.asarray(bmax, float)
    c = 0.5 * (bmin + bmax)
    h = 0.5 * (bmax - bmin) * shrink
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)
    return np.vstack([c[None, :], c[None, :] + signs * h[None, :]])


def box_corners(bmin, bmax) -> np.ndarray:
    bmin = np.asarray(bmin, float)
    bmax = np.asarray(bmax, float)
    return np.array([[x, y, z] for x in (bmin[0], bmax[0]) for y in (bmin[1], bmax[1])
                     for z in (bmin[2], bmax[2])], float)


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


def world_to_camera(points: np.ndarray, pose: np.ndarray) -> np.ndarray:
    """Points (Nx3, world) into the camera optical frame of a world-from-camera pose."""
    rot = pose[:3, :3]
    return (np.asarray(points, float) - pose[:3, 3]) @ rot


def rotation_is_valid(pose: np.ndarray) -> bool:
    if pose.shape != (4, 4) or not np.all(np.isfinite(pose)):
        return False
    rot = pose[:3, :3]
    return bool(np.allclose(rot.T @ rot, np.eye(3), atol=1e-3) and abs(np.linalg.det(rot) - 1.0) < 1e-3)
