"""Should the camera have seen this object? The test behind every "it is gone" the memory says.

Why so careful: declaring an object gone is the one mistake a robot memory must not make casually. An
object counts a miss only when its stored box is in front of the camera, inside the image, within the
trusted range, large enough in the image to be detected, and not hidden: the view's depth at its
pixels is not nearer than the object by more than a tolerance. Unknown depth (NaN, 0) never counts as
"seen empty". An object out of view or occluded is never counted, so looking away forgets nothing.

Samples: the centre and the eight corners of the box shrunk half-way to its centre (geometry.box_sample_
points); the visible fraction is the share of samples that pass every test. Occlusion is judged against
the nearest depth the object itself could present along each sample's ray: max(z_front, z_sample -
half_diagonal), where z_front is the depth of the box's nearest corner. Without this, a large object
occludes its own interior samples (a table top in front of the box centre) and could never be missed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .config import AbsenceConfig
from .geometry import box_corners, box_sample_points, world_to_camera


@dataclass(frozen=True)
class ViewGeometry:
    pose: np.ndarray          # 4x4 world-from-camera (optical frame)
    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int
    max_range: float
    depth: np.ndarray | None  # coarse HxW metres; NaN/<=0 unknown


def visible_fraction(view: ViewGeometry, bmin, bmax, cfg: AbsenceConfig) -> float:
    """Share of the object's sample points that the view should have seen (0 when it could not)."""
    if view.depth is None or view.depth.size == 0:
        return 0.0
    if _projected_area(view, bmin, bmax, cfg) < cfg.min_projected_px:
        return 0.0
    samples = box_sample_points(bmin, bmax)
    cam = world_to_camera(samples, view.pose)
    z = cam[:, 2]
    in_range = (z > cfg.min_range) & (z <= view.max_range)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = view.fx * cam[:, 0] / z + view.cx
        v = view.fy * cam[:, 1] / z + view.cy
    m = cfg.image_margin_px
    in_image = in_range & (u >= m) & (u <= view.width - m) & (v >= m) & (v <= view.height - m)
    if not np.any(in_image):
        return 0.0
    corners_z = world_to_camera(box_corners(bmin, bmax), view.pose)[:, 2]
    z_front = float(corners_z.min())
    half_diag = 0.5 * float(np.linalg.norm(np.asarray(bmax, float) - np.asarray(bmin, float)))
    reference = np.maximum(z_front, z - half_diag)
    dh, dw = view.depth.shape
    su = dw / float(view.width)
    sv = dh / float(view.height)
    visible = np.zeros(len(samples), dtype=bool)
    for i in np.flatnonzero(in_image):
        col = min(int(u[i] * su), dw - 1)
        row = min(int(v[i] * sv), dh - 1)
        d = float(view.depth[row, col])
        if not np.isfinite(d) or d <= 0.0:
            continue  # unknown depth is never evidence of absence
        visible[i] = d >= reference[i] - cfg.occlusion_tolerance
    return float(visible.sum()) / float(len(samples))


def _projected_area(view: ViewGeometry, bmin, bmax, cfg: AbsenceConfig) -> float:
    """Area in full-resolution pixels of the box's projection, clipped to the image (0 if behind)."""
    cam = world_to_camera(box_corners(bmin, bmax), view.pose)
    z = cam[:, 2]
    if np.all(z <= cfg.min_range):
        return 0.0
    z = np.maximum(z, cfg.min_range)
    u = np.clip(view.fx * cam[:, 0] / z + view.cx, 0, view.width)
    v = np.clip(view.fy * cam[:, 1] / z + view.cy, 0, view.height)
    return float((u.max() - u.min()) * (v.max() - v.min()))


def should_have_seen(view: ViewGeometry, bmin, bmax, cfg: AbsenceConfig) -> tuple[bool, float]:
    frac = visible_fraction(view, bmin, bmax, cfg)
    return frac >= cfg.min_visible_fraction, frac
