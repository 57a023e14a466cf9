"""Should the camera have seen this object? The test behind every "it is gone" the memory says.

Why so careful: declaring an object gone is the one mistake a robot memory must not make casually. An
object counts a miss only when its stored box is in front of the camera, inside the image, within the
trusted range, large enough in the image to be detected, and not hidden: the view's depth at its
pixels is not nearer than the object by more than a tolerance. Unknown depth (NaN, 0) never counts as
"seen empty". An object out of view or occluded is never counted, so looking away forgets nothing.

Samples: the centre and the eight corners of the box shrunk half-way to its centre (the object's silhouette
rarely fills its box; points half-way to the corners are likely on the object); the visible fraction is the
share of samples that pass every test. Occlusion is judged against
the nearest depth the object itself could present along each sample's ray: max(z_front, z_sample -
half_diagonal), where z_front is the depth of the box's nearest corner. Without this, a large object
occludes its own interior samples (a table top in front of the box centre) and could never be missed.
"""

from __future__ import annotations

import numpy as np

from .config import AbsenceConfig
from .types import CameraView


_SIGNS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)


def min_projected_px(view: CameraView, cfg: AbsenceConfig) -> float:
    """Smallest projected box (full-resolution pixels) that counts: the configured floor, or
    detectable_factor x the smallest instance the pipeline reports, whichever is larger."""
    return max(cfg.min_projected_px, cfg.detectable_factor * float(view.min_object_pixels))


def visible_fractions(view: CameraView, bmins: np.ndarray, bmaxs: np.ndarray, cfg: AbsenceConfig) -> np.ndarray:
    """visible_fraction for N boxes at once (N x 3 corners): one vectorised pass per camera view."""
    n = len(bmins)
    out = np.zeros(n)
    if n == 0 or view.depth is None or view.depth.size == 0:
        return out
    bmins = np.asarray(bmins, float)
    bmaxs = np.asarray(bmaxs, float)
    centre = 0.5 * (bmins + bmaxs)
    half = 0.5 * (bmaxs - bmins)
    rot, origin = view.pose[:3, :3], view.pose[:3, 3]
    # Box corners (N x 8 x 3) in the camera frame: the projected area and the nearest surface depth.
    corners = (centre[:, None, :] + _SIGNS[None, :, :] * half[:, None, :] - origin) @ rot
    cz = np.maximum(corners[..., 2], cfg.min_range)
    cu = np.clip(view.fx * corners[..., 0] / cz + view.cx, 0, view.width)
    cv = np.clip(view.fy * corners[..., 1] / cz + view.cy, 0, view.height)
    area = (cu.max(axis=1) - cu.min(axis=1)) * (cv.max(axis=1) - cv.min(axis=1))
    area[np.all(corners[..., 2] <= cfg.min_range, axis=1)] = 0.0
    z_front = corners[..., 2].min(axis=1)
    # Samples (N x 9 x 3): the centre and the corners shrunk half-way to it.
    samples = np.concatenate([centre[:, None, :], centre[:, None, :] + 0.5 * _SIGNS[None, :, :] * half[:, None, :]],
                             axis=1)
    cam = (samples - origin) @ rot
    z = cam[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        u = view.fx * cam[..., 0] / z + view.cx
        v = view.fy * cam[..., 1] / z + view.cy
    m = cfg.image_margin_px
    ok = (z > cfg.min_range) & (z <= view.max_range) & (u >= m) & (u <= view.width - m) & (v >= m) \
        & (v <= view.height - m) & (area >= min_projected_px(view, cfg))[:, None]
    dh, dw = view.depth.shape
    col = np.clip((np.where(ok, u, 0) * (dw / float(view.width))).astype(int), 0, dw - 1)
    row = np.clip((np.where(ok, v, 0) * (dh / float(view.height))).astype(int), 0, dh - 1)
    d = view.depth[row, col].astype(float)
    half_diag = np.linalg.norm(bmaxs - bmins, axis=1)[:, None] * 0.5
    reference = np.maximum(z_front[:, None], z - half_diag)
    known = np.isfinite(d) & (d > 0.0)  # unknown depth is never evidence of absence
    visible = ok & known & (d >= reference - cfg.occlusion_tolerance)
    out[:] = visible.sum(axis=1) / samples.shape[1]
    return out
