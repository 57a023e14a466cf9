"""Imperfections of a real depth camera, the mask edges and the odometry, applied to exact renderings.

Why each knob exists: the memory must not trust a single frame. Depth noise grows with range like a
stereo/ToF sensor (sigma = k z^2); masks bleed or shrink by a pixel at edges; the published pose jitters
while the rendering uses the true pose (so fused boxes wobble as with real odometry). What the segmenter
reports (misses, labels, spurious blobs) is detection.py. All draws come from the random generator
passed in, so a frame is reproducible on its own.
"""

from __future__ import annotations

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
