"""Outlier removal for one instance's back-projected points.

Why: a mask from a 2D segmenter bleeds over object edges, so a few of its pixels carry the depth of the
wall or floor behind the object. Those points are far from the rest and would stretch the box by metres.
They are sparse compared with the object's own surface, which is what both tests below detect.

Why voxel centroids: the neighbour statistics cost grows with the number of points (n k log n), and a
large object seen up close has tens of thousands. The test runs on voxel centroids (at most
``max_denoise_points`` of them, see ``PerceptionConfig``), and every raw point inherits its voxel's
verdict, so the centroid and box of an object still come from its raw points.

Backends: open3d's ``remove_statistical_outlier`` / ``remove_radius_outlier`` when importable and
enabled, else scipy's cKDTree with the same definitions (checked equal in the tests):

* statistical: d_i = mean distance from point i to its k nearest points, the point itself included
  (open3d's definition); outlier when d_i >= mean(d) + std_ratio * std(d) (std with ddof=1). When all
  d_i are equal (std 0, e.g. four corners of a square) there is no outlier: open3d would drop every
  point, so that case keeps all. Clouds of fewer than 3 points are kept as they are.
* radius: outlier when fewer than ``radius_min_neighbors`` other points lie within ``radius``. When the
  voxel grows to fit ``max_denoise_points``, the radius grows by the same factor so that the expected
  neighbour count on a surface stays the same.
"""

from __future__ import annotations

import functools
import math
import os
import sys

import numpy as np

from tempomem_ros.perception.config import PerceptionConfig
from tempomem_ros.perception.errors import ConfigError

_MAX_VOXEL_GROWTH_STEPS = 8


def limit_threads(threads: int) -> None:
    """Cap the threads open3d may use (0 = leave the library default); call before the first frame.

    Why: open3d parallelises its neighbour searches with OpenMP. On a busy machine (more runnable
    threads than cores) its worker threads spin-wait at every barrier, and a node that needs ~20 ms of
    CPU per frame fell behind a 10 Hz camera (latency growing past 1 s, frames lost). The per-instance
    clouds here are a few hundred points, too small to gain from threads, so one thread is the
    default. OMP_NUM_THREADS is read when open3d is first imported, hence "before the first frame";
    the TBB limit (``set_max_threads``) is applied as well when open3d has it.
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ConfigError(f"threads must be a non-negative integer, got {threads!r}")
    if threads == 0:
        return
    if "open3d" not in sys.modules:
        os.environ["OMP_NUM_THREADS"] = str(threads)
    o3d = open3d_module()
    if o3d is not None and hasattr(o3d.utility, "set_max_threads"):
        o3d.utility.set_max_threads(threads)


@functools.lru_cache(maxsize=1)
def open3d_module():
    """The open3d module, or None when it cannot be imported (the scipy fallback is used then)."""
    try:
        import open3d  # noqa: PLC0415 - optional heavy dependency, imported on first use only
    except Exception:  # ImportError, or OSError when libusb is missing
        return None
    open3d.utility.set_verbosity_level(open3d.utility.VerbosityLevel.Error)
    return open3d


def voxel_grid(points: np.ndarray, voxel: float) -> tuple[np.ndarray, np.ndarray]:
    """Group points (N x 3) into cubic voxels of edge ``voxel``: (centroid per voxel, voxel per point).

    Voxel order follows the sorted voxel keys, so the result does not depend on point order. Works on
    a 3 x N copy because numpy reduces contiguous rows several times faster than (N, 3) columns.
    """
    cols = np.ascontiguousarray(points.T)
    keys = np.floor(cols / voxel).astype(np.int64)
    keys -= keys.min(axis=1, keepdims=True)
    span = keys.max(axis=1) + 1
    packed = keys[0] + span[0] * (keys[1] + span[1] * keys[2])
    _, inverse, counts = np.unique(packed, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    centroids = np.empty((counts.size, 3), dtype=np.float64)
    for axis in range(3):
        centroids[:, axis] = np.bincount(inverse, weights=cols[axis], minlength=counts.size) / counts
    return centroids, inverse


def _adaptive_voxels(
    points: np.ndarray, voxel: float, max_voxels: int, pixel_area: float = 0.0
) -> tuple[np.ndarray, np.ndarray, float]:
    """Voxelise, growing the voxel until at most ``max_voxels`` remain (0 = no cap).

    pixel_area: the summed footprint of the points (m^2, sum of (Z/f)^2 over pixels), if known. It
    predicts the voxel count at any voxel size (area / voxel^2), so the first grid is usually already
    small enough and the growth loop (for slanted surfaces, whose true area is larger) rarely runs.
    A surface cuts two to three times as many voxels as its area over voxel^2 (it crosses cells
    obliquely and is slanted to the camera); the factor 3 errs on the side of one grid, not two.
    """
    if max_voxels and pixel_area > 0.0:
        voxel = max(voxel, math.sqrt(3.0 * pixel_area / max_voxels))
    centroids, inverse = voxel_grid(points, voxel)
    steps = 0
    while max_voxels and centroids.shape[0] > max_voxels and steps < _MAX_VOXEL_GROWTH_STEPS:
        # A surface's voxel count falls with the square of the voxel edge; 10% extra avoids creeping.
        voxel *= math.sqrt(centroids.shape[0] / max_voxels) * 1.1
        centroids, inverse = voxel_grid(points, voxel)
        steps += 1
    return centroids, inverse, voxel


def statistical_inliers(points: np.ndarray, nb_neighbors: int, std_ratio: float, use_open3d: bool = True):
    """Boolean mask of the points that pass the statistical test (see the module docstring)."""
    n = points.shape[0]
    if n < 3:
        return np.ones(n, dtype=bool)
    k = min(int(nb_neighbors), n)
    o3d = open3d_module() if use_open3d else None
    if o3d is not None:
        cloud = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(np.ascontiguousarray(points)))
        _, index = cloud.remove_statistical_outlier(nb_neighbors=k, std_ratio=float(std_ratio))
        keep = np.zeros(n, dtype=bool)
        keep[np.asarray(index, dtype=np.int64)] = True
        if not keep.any():  # only when every mean distance is equal: nothing is an outlier
            keep[:] = True
        return keep
    from scipy.spatial import cKDTree  # noqa: PLC0415 - fallback only

    distances, _ = cKDTree(points).query(points, k=k, workers=1)
    mean_distance = distances.reshape(n, k).mean(axis=1)
    threshold = mean_distance.mean() + std_ratio * mean_distance.std(ddof=1)
    keep = mean_distance < threshold
    if not keep.any():
        keep[:] = True
    return keep


def radius_inliers(points: np.ndarray, radius: float, min_neighbors: int, use_open3d: bool = True):
    """Boolean mask of the points with at least ``min_neighbors`` other points within ``radius``."""
    n = points.shape[0]
    if n == 0:
        return np.ones(0, dtype=bool)
    o3d = open3d_module() if use_open3d else None
    if o3d is not None:
        cloud = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(np.ascontiguousarray(points)))
        _, index = cloud.remove_radius_outlier(nb_points=int(min_neighbors), radius=float(radius))
        keep = np.zeros(n, dtype=bool)
        keep[np.asarray(index, dtype=np.int64)] = True
        return keep
    from scipy.spatial import cKDTree  # noqa: PLC0415 - fallback only

    tree = cKDTree(points)
    counts = tree.query_ball_point(points, r=float(radius), return_length=True, workers=1)
    return (np.asarray(counts) - 1) >= int(min_neighbors)


def inlier_mask(points: np.ndarray, config: PerceptionConfig, pixel_area: float = 0.0) -> np.ndarray:
    """Boolean mask over ``points`` (N x 3) of those the configured outlier removal keeps.

    pixel_area: optional footprint of the points in m^2 (see ``_adaptive_voxels``): the voxel is then
    chosen in one step instead of by repeated growth, so the verdicts can differ slightly from a call
    without it, but stay within the same ``max_denoise_points`` budget.
    """
    n = points.shape[0]
    if config.outlier_method == "none" or n == 0:
        return np.ones(n, dtype=bool)
    if config.voxel_size > 0.0:
        centroids, inverse, voxel = _adaptive_voxels(
            points, config.voxel_size, config.max_denoise_points, pixel_area
        )
        growth = voxel / config.voxel_size
    else:
        centroids, inverse, growth = points, None, 1.0
    if config.outlier_method == "statistical":
        keep = statistical_inliers(
            centroids, config.stat_nb_neighbors, config.stat_std_ratio, config.use_open3d
        )
    else:
        keep = radius_inliers(
            centroids, config.radius * growth, config.radius_min_neighbors, config.use_open3d
        )
    return keep if inverse is None else keep[inverse]
