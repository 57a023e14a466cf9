"""An object's fused geometry as a fold over its sightings, from the first one or from a saved state.

Why a module of its own: a rebuild (a twin joined, duplicates consolidated) recomputes an object's box, centroid,
feature and confidence by replaying the sightings of its placement in stamp order. Once retention has thinned
sightings away (core/retention.py) that replay would rest on the kept sample only, and the box after a twin join
would differ from the one the memory had before thinning. So retention saves the fold as of the last sighting it
thinned (the fold state of the placement) and a rebuild continues from there: the same float operations in the
same order as a replay of every sighting, hence the same numbers. Both paths use these functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import fusion
from .config import FusionConfig
from .rows import blob_to_feature


@dataclass
class FoldState:
    center: np.ndarray       # running mean of the sightings' centroids
    lo: np.ndarray
    hi: np.ndarray
    weight: float
    ext: np.ndarray          # its size per axis: largest single sighting or a quantile (fusion.size_after_sighting)
    feature: np.ndarray | None
    feature_weight: float
    base: float              # fused confidence
    n: int                   # sightings folded
    key: tuple[float, int]   # (stamp, id) of the last sighting folded


def _columns_vector(row, names) -> np.ndarray:
    return np.array([row[n] for n in names], dtype=float)


def start(row) -> FoldState:
    """The fold of one sighting (a row with confidence, cx.., min_x.., max_x.., feature, stamp, id)."""
    lo, hi = _columns_vector(row, ("min_x", "min_y", "min_z")), _columns_vector(row, ("max_x", "max_y", "max_z"))
    weight = fusion.observation_weight(row["confidence"])
    feature, fweight = fusion.merge_feature(None, 0.0, blob_to_feature(row["feature"]), weight)
    return FoldState(_columns_vector(row, ("cx", "cy", "cz")), lo, hi, weight, hi - lo, feature, fweight,
                     float(row["confidence"]), 1, (float(row["stamp"]), int(row["id"])))


def _reason(row) -> str:
    try:
        return row["reason"] or ""
    except (KeyError, IndexError):  # a row read without its verdict's reason
        return ""


def _clipped(row, lo, hi) -> dict:
    """The sighting's centroid and box clipped to the box lo..hi (frame_fusion._clipped_to)."""
    bmin = np.clip(_columns_vector(row, ("min_x", "min_y", "min_z")), lo, hi)
    bmax = np.clip(_columns_vector(row, ("max_x", "max_y", "max_z")), lo, hi)
    c = np.clip(_columns_vector(row, ("cx", "cy", "cz")), bmin, bmax)
    return {"confidence": row["confidence"], "feature": row["feature"], "stamp": row["stamp"], "id": row["id"],
            "cx": c[0], "cy": c[1], "cz": c[2], "min_x": bmin[0], "min_y": bmin[1], "min_z": bmin[2],
            "max_x": bmax[0], "max_y": bmax[1], "max_z": bmax[2]}


def add(state: FoldState, row, cfg: FusionConfig) -> FoldState:
    """The fold with one more sighting, exactly as fusion.merge_geometry / merge_feature combine them. A sighting
    fusion merged clipped to a large object seen whole (verdict reason ``whole``: frame_fusion.out_of_scale_part) is
    folded clipped to the fold's box, as it was merged: replayed whole, retention's fold and a rebuild from it
    (a twin joined) stretched the object again (seed 503, h500: a 3.4 m "counter" sliver, the counter 1.49 m off)."""
    if _reason(row) == "whole":
        row = _clipped(row, state.lo, state.hi)
    w = fusion.observation_weight(row["confidence"])
    center, lo, hi, weight, ext = fusion.merge_geometry(
        center=state.center, bmin=state.lo, bmax=state.hi, weight=state.weight, ext=state.ext,
        obs_center=(row["cx"], row["cy"], row["cz"]), obs_min=(row["min_x"], row["min_y"], row["min_z"]),
        obs_max=(row["max_x"], row["max_y"], row["max_z"]), obs_weight=w, clamp_factor=cfg.box_clamp_factor,
        growth_factor=cfg.box_growth_factor, growth_floor=cfg.geometry_scale, n_folded=state.n,
        mean_box_after=cfg.mean_box_after, mean_box_below=cfg.mean_box_below,
        size_after=cfg.size_quantile_after, size_quantile=cfg.size_quantile, size_step=cfg.size_step,
        size_below=cfg.size_quantile_below)
    feature, fweight = fusion.merge_feature(state.feature, state.feature_weight, blob_to_feature(row["feature"]), w)
    base = fusion.merged_confidence(state.base, float(row["confidence"]), cfg.confidence_gain)
    return FoldState(center, lo, hi, weight, ext, feature, fweight, base, state.n + 1,
                     (float(row["stamp"]), int(row["id"])))


def fold(state: FoldState | None, rows, cfg: FusionConfig) -> FoldState | None:
    """Continue ``state`` (None: start from the first row) with ``rows`` in the order given."""
    for row in rows:
        state = start(row) if state is None else add(state, row, cfg)
    return state
