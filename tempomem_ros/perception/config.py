"""Every knob of the perception pipeline, validated once.

Why one frozen dataclass: the node declares one ROS parameter per field (with the same name and the
ranges in ``FIELD_RANGES``), the bench and the tests build the same object, and validating at
construction means the per-frame code never has to re-check a threshold.

Mask erosion (why on by default): a segmenter's mask edge is rarely pixel-exact, and a pixel just
outside the object sees the background, often metres behind. Those pixels form a continuous line on the
floor or wall behind the object, dense enough to pass both outlier tests and connected to the object at
its base. Measured on ``synthetic.bench_scene`` (masks grown by one pixel, 3 mm depth noise, 100 boxes;
``bench/bench_perception.py --accuracy``): median box corner error 0.81 m with statistical outlier
removal alone, 0.010 m with a one-pixel erosion first (max 0.31 m, from partly occluded boxes). Erosion
must be at least the bleed width to help (2 px of bleed needs 2 px of erosion). It costs ~1 ms per
pixel of erosion per frame and shrinks a box by one pixel footprint per side (Z / f: 5 mm at 2.5 m with
f = 525), more along a face seen at a grazing angle (3 cm in one test).

Depth-edge trim (why on by default, issue 11 stop 50): real segmenters bleed 1-3 px (640x480) over an
outline, and along a long edge (a table top, a chair back) the strip that erosion leaves is a dense line
of floor or wall points that the outlier tests keep. ``depth_edge_step`` cuts every eroded mask where two
4-neighbours' inverse depths differ by more than the step (1/m; inverse depth is affine on any plane, so a
surface seen at a grazing angle steps 1 / (f d) per pixel, d = its distance from the camera centre, and
depth noise k z^2 is a constant k) and keeps each instance's largest piece and every piece with an
interior pixel (a chair's back and seat apart in depth); a separate part of a mask with no depth edge
inside (a chair's legs seen below a table) is kept whole; unless what it keeps is under half of the pixels
or under ``min_mask_pixels`` (a thin object keeps what erosion left: the trim never drops an instance).
Measured on dev scenes with the ``real`` noise preset (320x240, every 8th frame, seeds 1 2 11): furniture
boxes overshooting the true box by > 0.10 m fall from 8.9 / 9.1 / 6.1 % to 2.4 / 0.3 / 0.0 % of
observations; cost +5.6 ms per 640x480 frame with 20 instances (docs/RESULTS.md).

Cost control (why the defaults are what they are): the pipeline must turn a 640x480 frame with 20
instances into observations in <= 30 ms on one core. Two caps keep the work per instance bounded
whatever the mask size:

* ``max_points_per_instance``: an instance with more valid pixels is subsampled to this many, evenly
  spaced in row-major order (deterministic, no RNG; the first and last pixel are always kept). The box
  can shrink by at most the sample spacing, a few pixels.
* ``max_denoise_points``: outlier statistics are computed on voxel centroids, not raw points; when an
  instance has more voxels than this, its voxel size grows (by the square root of the excess, since a
  surface's voxel count falls with the square of the voxel size) until it fits. Large objects are thus
  judged at a coarser scale, which is the scale at which their outliers matter. Points are kept or
  removed by the verdict of their voxel, so centroids and boxes still use the raw points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from tempomem_ros.core.config import GateConfig
from tempomem_ros.perception.errors import ConfigError

OUTLIER_METHODS = ("statistical", "radius", "none")
INTRINSICS_SOURCES = ("auto", "P", "K")

#: Inclusive numeric ranges (low, high) per field; the node reuses them for its parameter descriptors.
FIELD_RANGES: dict[str, tuple[float, float]] = {
    "min_depth": (0.0, 100.0),
    "max_depth": (0.01, 1000.0),
    "depth_unit_16u": (1e-6, 1.0),
    "min_mask_pixels": (1, 1_000_000),
    "mask_erosion_px": (0, 20),
    "depth_edge_step": (0.0, 10.0),
    "max_points_per_instance": (0, 10_000_000),
    "voxel_size": (0.0, 1.0),
    "max_denoise_points": (0, 1_000_000),
    "stat_nb_neighbors": (1, 1000),
    "stat_std_ratio": (0.01, 100.0),
    "radius": (1e-4, 10.0),
    "radius_min_neighbors": (1, 1000),
    "box_trim_percent": (0.0, 49.0),
    "view_scale": (0.01, 1.0),
    "view_max_range": (0.01, 1000.0),
    "world_bound": (1.0, 1e7),
    "max_object_extent": (0.01, 1e4),
}

#: Why each knob exists, shared with the node's ParameterDescriptors so the two never drift apart.
FIELD_DOCS: dict[str, str] = {
    "min_depth": "Depth (m) at or below which a pixel is invalid (sensor blind zone).",
    "max_depth": "Depth (m) above which a pixel is invalid (too noisy to place an object).",
    "depth_unit_16u": "Metres per count of a 16UC1 depth image (0.001 = millimetres).",
    "min_mask_pixels": "An instance with fewer valid depth pixels (after erosion) is dropped (tiny_mask).",
    "mask_erosion_px": "Erode every instance mask by this many pixels first: segmenter masks bleed onto "
    "the background, whose depth can be metres behind the object (0 = off).",
    "depth_edge_step": "Cut each (eroded) mask where neighbouring pixels' inverse depths differ by more than "
    "this (1/m) and keep its largest and its thick pieces (and every part with no depth edge inside): "
    "drops the bleed strip lying on the surface behind an outline (0 = off).",
    "max_points_per_instance": "Valid pixels per instance are evenly subsampled to at most this many "
    "(0 = no cap); bounds the cost per instance.",
    "outlier_method": "Outlier removal: statistical (mean k-NN distance), radius (neighbour count) or none.",
    "voxel_size": "Voxel edge (m) whose centroids the outlier test runs on (0 = test raw points).",
    "max_denoise_points": "Largest number of voxels the outlier test sees; the voxel grows until an "
    "instance fits (0 = no cap).",
    "stat_nb_neighbors": "statistical: number of nearest neighbours whose mean distance is tested.",
    "stat_std_ratio": "statistical: a point is an outlier beyond mean + ratio * std of that distance.",
    "radius": "radius: neighbourhood radius (m) at the configured voxel size (scaled with the voxel).",
    "radius_min_neighbors": "radius: a point with fewer neighbours (itself excluded) is an outlier.",
    "box_trim_percent": "Box corners are this percentile / 100 minus it of the kept points (0 = min/max).",
    "view_scale": "Coarse depth of the camera view: 1/scale full pixels per coarse pixel (integer).",
    "view_max_range": "Range (m) up to which the segmenter is trusted to see objects (CameraView).",
    "intrinsics_source": "Intrinsics from camera_info: auto (P when P[0] != 0, else K), P or K.",
    "use_open3d": "Use open3d for the outlier test when importable (else the scipy fallback).",
    "world_bound": "An instance with a box coordinate beyond +-this (m, world frame) is dropped (world_bound); "
    "keep it equal to the memory's gates.world_bound.",
    "max_object_extent": "An instance whose box has a side longer than this (m) is dropped (extent); keep "
    "it equal to the memory's gates.max_extent.",
}


@dataclass(frozen=True)
class PerceptionConfig:
    """All perception knobs (metres, pixels); see ``FIELD_DOCS`` for what each one is for."""

    min_depth: float = 0.1
    max_depth: float = 6.0
    depth_unit_16u: float = 0.001
    min_mask_pixels: int = 50
    mask_erosion_px: int = 1
    depth_edge_step: float = 0.02
    max_points_per_instance: int = 3000
    outlier_method: str = "statistical"
    voxel_size: float = 0.01
    max_denoise_points: int = 400
    stat_nb_neighbors: int = 10
    stat_std_ratio: float = 2.0
    radius: float = 0.03
    radius_min_neighbors: int = 4
    box_trim_percent: float = 0.0
    view_scale: float = 0.125
    view_max_range: float = 5.0
    intrinsics_source: str = "auto"
    use_open3d: bool = True
    world_bound: float = GateConfig.world_bound
    max_object_extent: float = GateConfig.max_extent

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool":
                if not isinstance(value, bool):
                    raise ConfigError(f"{f.name} must be a bool, got {value!r}")
            elif f.type == "str":
                if not isinstance(value, str):
                    raise ConfigError(f"{f.name} must be a string, got {value!r}")
            elif f.type == "int":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ConfigError(f"{f.name} must be an integer, got {value!r}")
            else:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise ConfigError(f"{f.name} must be a number, got {value!r}")
                if not math.isfinite(value):
                    raise ConfigError(f"{f.name} must be finite, got {value!r}")
                object.__setattr__(self, f.name, float(value))
            if f.name in FIELD_RANGES:
                low, high = FIELD_RANGES[f.name]
                if not low <= value <= high:
                    raise ConfigError(f"{f.name}={value!r} is outside [{low}, {high}]")
        if self.outlier_method not in OUTLIER_METHODS:
            raise ConfigError(f"outlier_method must be one of {OUTLIER_METHODS}, got {self.outlier_method!r}")
        if self.intrinsics_source not in INTRINSICS_SOURCES:
            raise ConfigError(
                f"intrinsics_source must be one of {INTRINSICS_SOURCES}, got {self.intrinsics_source!r}"
            )
        if self.max_depth <= self.min_depth:
            raise ConfigError(f"max_depth ({self.max_depth}) must exceed min_depth ({self.min_depth})")
        view_block(self.view_scale)  # raises when 1/scale is not an integer


def view_block(scale: float) -> int:
    """Full-resolution pixels per coarse pixel side for a view scale; 1/scale must be an integer.

    Why integral: a coarse pixel must cover whole full-resolution pixels so that its minimum is exactly
    the nearest surface in that block, and the memory can map full pixels to coarse ones by scaling.
    """
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale):
        raise ConfigError(f"view scale must be a finite number, got {scale!r}")
    if not 0.0 < scale <= 1.0:
        raise ConfigError(f"view scale must be in (0, 1], got {scale!r}")
    block = round(1.0 / scale)
    if abs(block * scale - 1.0) > 1e-6:
        raise ConfigError(f"view scale must be 1/n for an integer n (e.g. 0.125), got {scale!r}")
    return block
