"""Render depth and instance masks of axis-aligned boxes by ray casting (tests, benchmarks, demos).

Why: the pipeline's accuracy can only be checked against ground truth, and a ray-cast box scene gives
exact depth for every pixel with the same pinhole convention the pipeline inverts (pixel centres at
integer coordinates, depth = distance along the optical axis). No randomness unless noise is asked for,
and then only through a seeded generator.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tempomem_ros.perception.camera import Intrinsics
from tempomem_ros.perception.errors import PerceptionError
from tempomem_ros.perception.pose import check_transform


def look_at(eye, target, up=(0.0, 0.0, 1.0)) -> np.ndarray:
    """World-from-camera (optical frame: x right, y down, z forward) looking from ``eye`` at ``target``."""
    eye = np.asarray(eye, dtype=np.float64)
    forward = np.asarray(target, dtype=np.float64) - eye
    norm = np.linalg.norm(forward)
    if norm == 0.0:
        raise PerceptionError("look_at: eye and target coincide")
    z = forward / norm
    x = np.cross(z, np.asarray(up, dtype=np.float64))
    if np.linalg.norm(x) < 1e-9:
        raise PerceptionError("look_at: viewing direction is parallel to up")
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    T = np.eye(4)
    T[:3, 0], T[:3, 1], T[:3, 2], T[:3, 3] = x, y, z, eye
    return T


def render_boxes(boxes, intrinsics: Intrinsics, T_world_cam) -> tuple[np.ndarray, np.ndarray]:
    """Depth (HxW float32 metres, NaN = no hit) and mask (HxW uint16, box i -> id i + 1, 0 = none).

    boxes: sequence of (bbox_min, bbox_max) world-frame corners. The nearest box along each pixel's ray
    wins; a camera inside a box sees nothing of that box.
    """
    T = check_transform(T_world_cam)
    height, width = intrinsics.height, intrinsics.width
    v, u = np.mgrid[0:height, 0:width].astype(np.float64)
    rays_cam = np.stack(
        ((u - intrinsics.cx) / intrinsics.fx, (v - intrinsics.cy) / intrinsics.fy, np.ones_like(u)), axis=-1
    ).reshape(-1, 3)
    directions = rays_cam @ T[:3, :3].T  # ray parameter s = depth along the optical axis
    origin = T[:3, 3]
    best = np.full(directions.shape[0], np.inf)
    mask = np.zeros(directions.shape[0], dtype=np.uint16)
    with np.errstate(divide="ignore", invalid="ignore"):
        inverse = 1.0 / directions
        for index, (low, high) in enumerate(boxes):
            t1 = (np.asarray(low, dtype=np.float64) - origin) * inverse
            t2 = (np.asarray(high, dtype=np.float64) - origin) * inverse
            near = np.nanmax(np.minimum(t1, t2), axis=1)
            far = np.nanmin(np.maximum(t1, t2), axis=1)
            hit = (near <= far) & (near > 0.0) & (near < best)
            best[hit] = near[hit]
            mask[hit] = index + 1
    depth = np.where(np.isfinite(best), best, np.nan).astype(np.float32).reshape(height, width)
    return depth, mask.reshape(height, width)


def bleed_mask(mask: np.ndarray) -> np.ndarray:
    """Grow every instance by one pixel into unlabelled neighbours, as a real segmenter's edges do.

    The grown pixels carry the depth of whatever lies behind, which is what outlier removal must catch.
    """
    out = mask.copy()
    for axis, shift in ((0, 1), (0, -1), (1, 1), (1, -1)):
        shifted = np.roll(mask, shift, axis=axis)
        if axis == 0:
            shifted[0 if shift == 1 else -1, :] = 0
        else:
            shifted[:, 0 if shift == 1 else -1] = 0
        grow = (out == 0) & (shifted != 0)
        out[grow] = shifted[grow]
    return out


def add_depth_noise(depth_m: np.ndarray, sigma: float, seed: int = 0) -> np.ndarray:
    """Gaussian depth noise (metres) from a seeded generator; NaN stays NaN."""
    rng = np.random.default_rng(seed)
    return (depth_m + rng.normal(0.0, sigma, depth_m.shape)).astype(np.float32)


class Scene(NamedTuple):
    """A rendered frame with its ground truth (boxes[i] = (min, max) of instance id i + 1)."""

    depth: np.ndarray
    mask: np.ndarray
    ids: list[int]
    labels: list[str]
    confidences: list[float]
    intrinsics: Intrinsics
    T_world_cam: np.ndarray
    boxes: list[tuple[np.ndarray, np.ndarray]]


def bench_scene(
    n_instances: int = 20, width: int = 640, height: int = 480, seed: int = 0, bleed: int = 1
) -> Scene:
    """A reproducible room-like scene of ``n_instances`` boxes on a floor, seen by a tilted camera.

    Boxes of 0.1-0.6 m stand on staggered rows 1.6-4.6 m in front of the camera, so every one is
    visible and masks range from a few hundred to tens of thousands of pixels, as in a real indoor
    frame. Masks bleed ``bleed`` pixels onto the floor behind, and depth has 3 mm noise.
    """
    rng = np.random.default_rng(seed)
    fx = 525.0 * width / 640.0
    intrinsics = Intrinsics(fx, fx, (width - 1) / 2.0, (height - 1) / 2.0, width, height)
    T = look_at((0.0, 0.0, 1.6), (3.0, 0.0, 0.3))
    per_row = 5
    rows = -(-n_instances // per_row)
    boxes = []
    for index in range(n_instances):
        row, col = divmod(index, per_row)
        x = 1.6 + 3.0 * row / max(rows - 1, 1)
        spacing = 0.6 * x / 2.5  # columns fan out with distance, like the view frustum
        y = (col - (per_row - 1) / 2.0 + (0.25 if row % 2 else -0.25)) * spacing
        size = rng.uniform(0.1, 0.6, 3)
        centre = np.array([x + rng.uniform(-0.1, 0.1), y + rng.uniform(-0.1, 0.1), size[2] / 2.0])
        boxes.append((centre - size / 2, centre + size / 2))
    boxes.append(((-10.0, -10.0, -0.05), (10.0, 10.0, 0.0)))  # floor: valid depth, no instance
    depth, mask = render_boxes(boxes, intrinsics, T)
    mask[mask == n_instances + 1] = 0
    for _ in range(bleed):
        mask = bleed_mask(mask)
    depth = add_depth_noise(depth, 0.003, seed)
    ids = list(range(1, n_instances + 1))
    labels = [f"object_{i}" for i in ids]
    confidences = [0.9] * n_instances
    return Scene(depth, mask, ids, labels, confidences, intrinsics, T, boxes[:n_instances])
