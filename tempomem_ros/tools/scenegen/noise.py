"""Imperfections of a real depth camera, the mask edges and the odometry, applied to exact renderings.

Why each knob exists: the memory must not trust a single frame. Depth noise grows with range like a
stereo/ToF sensor (sigma = k z^2); masks bleed or shrink by a pixel at edges; the published pose jitters
while the rendering uses the true pose (so fused boxes wobble as with real odometry). What the segmenter
reports (misses, labels, spurious blobs) is detection.py. All draws come from the random generator
passed in, so a frame is reproducible on its own.
"""

from __future__ import annotations

import math

import numpy as np

from .config import NoiseConfig
from .render import quaternion_xyzw


def noisy_depth_mm(rng: np.random.Generator, depth_m: np.ndarray, noise: NoiseConfig,
                   max_range: float) -> np.ndarray:
    """16UC1 millimetres; 0 = invalid (beyond range, dropped out, or no return)."""
    z = np.asarray(depth_m, dtype=np.float64)
    valid = np.isfinite(z) & (z > 0) & (z <= max_range)
    if noise.depth_k > 0:
        z = z + rng.standard_normal(z.shape) * (noise.depth_k * np.where(valid, z, 0.0) ** 2)
    mm_ = np.rint(np.where(valid, z, 0.0) * 1000.0)
    valid &= (mm_ >= 1) & (mm_ <= 65535)
    if noise.depth_dropout > 0:
        valid &= rng.random(z.shape) >= noise.depth_dropout
    return np.where(valid, mm_, 0).astype(np.uint16)


def _neighbours(binary: np.ndarray) -> np.ndarray:
    """Pixels 4-adjacent to ``binary`` (including itself)."""
    out = binary.copy()
    out[1:, :] |= binary[:-1, :]
    out[:-1, :] |= binary[1:, :]
    out[:, 1:] |= binary[:, :-1]
    out[:, :-1] |= binary[:, 1:]
    return out


def jitter_mask_edges(rng: np.random.Generator, mask: np.ndarray, ids, prob: float) -> np.ndarray:
    """Erode or dilate some instances by one pixel; dilation only grows into unlabelled pixels."""
    out = mask.copy()
    for mid in ids:
        if prob <= 0 or rng.random() >= prob:
            continue
        inst = out == mid
        if rng.random() < 0.5:
            inner = ~_neighbours(~inst)
            if inner.sum() >= max(4, inst.sum() // 3):  # never erase a thin instance completely
                out[inst & ~inner] = 0
        else:
            out[_neighbours(inst) & (out == 0)] = mid
    return out


def jitter_pose(rng: np.random.Generator, pose: np.ndarray, noise: NoiseConfig):
    """Published (position, quaternion xyzw): the true pose perturbed by a small translation and rotation."""
    position = pose[:3, 3] + rng.standard_normal(3) * noise.pose_sigma_m
    rot = pose[:3, :3]
    if noise.pose_sigma_deg > 0:
        axis_angle = rng.standard_normal(3) * np.radians(noise.pose_sigma_deg)
        angle = float(np.linalg.norm(axis_angle))
        if angle > 0:
            k = axis_angle / angle
            kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
            rot = rot @ (np.eye(3) + np.sin(angle) * kx + (1 - np.cos(angle)) * kx @ kx)
    return tuple(float(v) for v in position), quaternion_xyzw(rot)


BLEED_CELL_PX = 8      # the bleed width varies smoothly along a boundary over about this many pixels


def _smooth_field(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A random field in [0, 1) that varies over ~BLEED_CELL_PX pixels: uniform values on a coarse grid,
    bilinearly interpolated."""
    h, w = shape
    gh, gw = h // BLEED_CELL_PX + 2, w // BLEED_CELL_PX + 2
    grid = rng.random((gh, gw))
    y = np.arange(h) / BLEED_CELL_PX
    x = np.arange(w) / BLEED_CELL_PX
    y0, x0 = y.astype(int), x.astype(int)
    fy, fx = (y - y0)[:, None], (x - x0)[None, :]
    g00, g01 = grid[y0][:, x0], grid[y0][:, x0 + 1]
    g10, g11 = grid[y0 + 1][:, x0], grid[y0 + 1][:, x0 + 1]
    return (g00 * (1 - fx) + g01 * fx) * (1 - fy) + (g10 * (1 - fx) + g11 * fx) * fy


def bleed_mask_edges(rng: np.random.Generator, mask: np.ndarray, ids, noise: NoiseConfig,
                     scale: float = 1.0) -> np.ndarray:
    """Real segmenter edges (the default noise; ``real`` at stop 50): with ``mask_bleed_prob`` an instance's mask
    edge moves outward (``mask_bleed_grow`` of the cases) or inward by up to ``mask_bleed_px`` pixels of a 640x480
    image (``scale`` = rendered pixels per such pixel: 0.5 at 320x240, where the widest move is then 2 px).

    Why: instance segmenters (SAM, YOLO-seg: masks predicted at a quarter of the resolution, upsampled) put
    their edges a few pixels off, mostly outward over a depth edge, so a mask takes background pixels and
    their depth. The width is not independent per pixel: it follows a smooth random field (varying over
    ~8 px along the boundary, zero over part of it), so a stretch of the edge bleeds together. Growth takes
    only unlabelled pixels (what the segmenter did not report: walls, floor, furniture it missed); a shrink
    never leaves an instance under a third of its pixels. Draws come from the generator passed in (the
    frame's own bleed stream), so the plain scenes, which never call this, are unchanged.
    """
    out = mask.copy()
    if noise.mask_bleed_prob <= 0:
        return out
    reach = noise.mask_bleed_px * scale           # widest move in rendered pixels (may be fractional)
    widest = max(1, math.ceil(reach - 1e-9))
    for mid in ids:
        if rng.random() >= noise.mask_bleed_prob:
            continue
        grow = rng.random() < noise.mask_bleed_grow
        # width per pixel: 0 over about a quarter of the boundary, 1..widest elsewhere
        width = np.ceil((_smooth_field(rng, mask.shape) - 0.25) / 0.75 * reach)
        inst = out == mid
        if not inst.any():
            continue
        if grow:
            for k in range(1, widest + 1):
                ring = _neighbours(inst) & ~inst & (out == 0) & (width >= k)
                if not ring.any():
                    break
                out[ring] = mid
                inst |= ring
        else:
            floor = max(4, int(inst.sum()) // 3)
            for k in range(1, widest + 1):
                edge = inst & _neighbours(~inst) & (width >= k)
                if not edge.any() or int(inst.sum() - edge.sum()) < floor:
                    break
                out[edge] = 0
                inst &= ~edge
    return out
