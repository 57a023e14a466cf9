"""Score the memory against the ADT kitchen ground truth (``adt_kitchen_3f``), offline or through the nodes.

What is measured, and why this way:

* Visible set: a ground-truth object counts as findable when its instance has at least 500 pixels with
  valid depth (depth != 0 in the dataset's own definition, before any erosion) in at least one frame.
  Fewer pixels than that is a sliver the perception may rightly drop. "In the frame where it is largest"
  is the same set by construction (its largest count is >= 500 exactly when some count is); the report
  also gives the stricter "in every frame" set.
* Matching: a memory object (state present) matches a ground-truth object with the same label (whole
  words, case-folded: the word sequences of the memory's ``normalize`` are equal; "bowl" does NOT match
  "pet bowl", although the memory's looser ``labels_agree`` would) whose box centre is within the
  threshold of the memory centroid. One-to-one, greedy by distance (ties: lower gt id, then lower object
  id), against ALL ground-truth objects, so a memory object of a sliver (< 500 px) is a correct object,
  not a false positive; recall is counted over the visible set. Duplicates: unmatched memory objects
  that would have matched an already matched ground-truth object.
* Centroid error: memory centroid (mean of the visible surface points it fused) to ground-truth BOX
  centre. The two differ by construction: a camera sees one side of an object, so the surface centroid
  sits towards the camera from the box centre (half a door's thickness, half a table's height). The
  scorer does not correct for that; ``error_decomposition`` reports how much of the error is that offset
  (ground-truth centre to the centroid of ALL valid pixels of the instance in all frames) and how much the
  pipeline added (memory centroid to that surface centroid).
* 3D IoU: memory axis-aligned box vs ground-truth ORIENTED box, computed exactly: the intersection of
  two boxes is the convex polytope of their 12 half-spaces; its vertices come from scipy's
  HalfspaceIntersection (an interior point from a Chebyshev-centre linear program) and its volume from
  the convex hull of those vertices. A dense point grid agrees to < 1% (test_adt.py).

Runner modes (the same scoring code reads the resulting store in both):

* offline: per frame ``extract_observations`` + ``make_camera_view`` -> ``Memory.add``/``commit`` in a
  temporary store. No ROS.
* nodes: convert to a bag, run perception_node and memory_node in-process (one executor per node in a
  thread, memory store in a temporary folder, 20 Hz commits), replay the bag with ``replay_bag``, wait
  until every frame is fused, shut the memory node down (its close() fuses what is staged) and read the
  store read-only.

CLI: ``python -m tempomem_ros.tools.adt_eval [--data DIR] [--json OUT] [--mode offline|nodes|both]
[--set KEY=VALUE ...]`` (``--set`` changes a PerceptionConfig field in both modes).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tempomem_ros.core.errors import TempoMemError
from tempomem_ros.core.labels import normalize
from tempomem_ros.tools import adt

MIN_VISIBLE_PIXELS = 500
THRESHOLDS = (0.10, 0.05)          # metres; the first is the headline
SMALL_EXTENT = 0.30                # metres: max box extent below which an object is "small"
BORDER_PX = 2                      # an instance within this many pixels of the image's valid area edge is cut
EMBEDDING_DIM = 32                 # the memory node's default; no features are used here
# The excerpt is three frames in 67 ms: shorter than the time over which the memory confirms an object
# (identity.appear_hold_s, 1 s, so that a reflection lasting a few frames is never shown). Every object seen
# in all three frames is all the evidence there is, so the span is waived here, and only here.
MEMORY_CONFIG = {"identity": {"appear_hold_s": 0.0}}
COMMIT_RATE_HZ = 20.0              # nodes mode: fast commits
WAIT_LIMIT_S = 120.0               # nodes mode: bounds a hang only
STAMP_TOLERANCE_S = 1e-6


class EvalError(TempoMemError):
    """The evaluation cannot run or its inputs disagree (frame lost by a node, unknown stamp, bad option)."""


# -------------------------------------------------------------------------------------------- geometry


def _aabb_halfspaces(bmin, bmax) -> np.ndarray:
    """Rows [a | b] with a.x + b <= 0 (scipy's convention) for an axis-aligned box."""
    rows = []
    for k in range(3):
        n = np.zeros(3)
        n[k] = 1.0
        rows.append([*n, -float(bmax[k])])
        rows.append([*(-n), float(bmin[k])])
    return np.array(rows, dtype=np.float64)


def _obb_halfspaces(center, size, R) -> np.ndarray:
    """Half-spaces of an oriented box: |axis_k . (x - centre)| <= size_k / 2 (axes = columns of R)."""
    c = np.asarray(center, dtype=np.float64)
    Rm = np.asarray(R, dtype=np.float64)
    rows = []
    for k in range(3):
        n = Rm[:, k]
        h = float(size[k]) / 2.0
        d = float(n @ c)
        rows.append([*n, -(d + h)])
        rows.append([*(-n), d - h])
    return np.array(rows, dtype=np.float64)


def polytope_volume(halfspaces: np.ndarray, eps: float = 1e-9) -> float:
    """Volume of the bounded polytope {x : A x + b <= 0}; 0 when it is empty or thinner than ``eps``.

    Exact up to floating point: the Chebyshev centre (largest inscribed ball, a linear program) is a
    strictly interior point, HalfspaceIntersection gives the vertices, ConvexHull their volume.
    """
    from scipy.optimize import linprog
    from scipy.spatial import ConvexHull, HalfspaceIntersection
    from scipy.spatial import QhullError

    A, b = halfspaces[:, :3], halfspaces[:, 3]
    norms = np.linalg.norm(A, axis=1)
    # maximise r subject to A x + r |A_i| <= -b
    res = linprog(c=[0.0, 0.0, 0.0, -1.0], A_ub=np.hstack([A, norms[:, None]]), b_ub=-b,
                  bounds=[(None, None)] * 3 + [(0.0, None)], method="highs")
    if res.status != 0 or res.x[3] <= eps:
        return 0.0
    try:
        vertices = HalfspaceIntersection(halfspaces, res.x[:3]).intersections
        return float(ConvexHull(vertices).volume)
    except QhullError:
        return 0.0


def aabb_obb_iou(bmin, bmax, center, size, R) -> float:
    """Exact 3D IoU of an axis-aligned box (min/max corners) and an oriented box (centre, size, R)."""
    lo, hi = np.asarray(bmin, dtype=np.float64), np.asarray(bmax, dtype=np.float64)
    if np.any(hi < lo):
        raise EvalError(f"box max {hi.tolist()} is below its min {lo.tolist()}")
    vol_a = float(np.prod(hi - lo))
    vol_b = float(np.prod(np.asarray(size, dtype=np.float64)))
    if vol_a <= 0.0 or vol_b <= 0.0:
        return 0.0
    inter = polytope_volume(np.vstack([_aabb_halfspaces(lo, hi), _obb_halfspaces(center, size, R)]))
    inter = min(inter, vol_a, vol_b)
    return inter / (vol_a + vol_b - inter)


def aabb_obb_iou_grid(bmin, bmax, center, size, R, step: float) -> float:
    """The same IoU by counting the cell centres of a regular grid of pitch ``step`` (a cross-check)."""
    lo, hi = np.asarray(bmin, dtype=np.float64), np.asarray(bmax, dtype=np.float64)
    Rm, c, half = np.asarray(R, dtype=np.float64), np.asarray(center, dtype=np.float64), np.asarray(size) / 2
    corners = c + (np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * half) @ Rm.T
    g_lo, g_hi = np.minimum(lo, corners.min(axis=0)), np.maximum(hi, corners.max(axis=0))
    axes = [np.arange(g_lo[k] + step / 2, g_hi[k], step) for k in range(3)]
    pts = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    in_a = np.all((pts >= lo) & (pts <= hi), axis=1)
    in_b = np.all(np.abs((pts - c) @ Rm) <= half, axis=1)
    union = int(np.count_nonzero(in_a | in_b))
    return 0.0 if union == 0 else int(np.count_nonzero(in_a & in_b)) / union


# ------------------------------------------------------------------------------------- ground truth side


@dataclass(frozen=True)
class Visibility:
    """Per ground-truth object: valid-depth pixels per frame, image-edge contact, surface centroid."""

    gt_id: int
    pixels: tuple[int, ...]            # per frame (0 when absent)
    border: tuple[bool, ...]           # per frame: touches the edge of the image's valid area
    surface_centroid: tuple[float, float, float] | None  # mean map point of all its valid pixels
    eroded_pixels: tuple[int, ...] = ()  # per frame: valid pixels left after the perception's mask erosion

    @property
    def max_pixels(self) -> int:
        return max(self.pixels)

    @property
    def visible_any(self) -> bool:
        return any(p >= MIN_VISIBLE_PIXELS for p in self.pixels)

    @property
    def visible_largest(self) -> bool:
        """Visible in the frame where it is largest: identical to visible_any, stated for the record."""
        return self.max_pixels >= MIN_VISIBLE_PIXELS

    @property
    def visible_all(self) -> bool:
        return all(p >= MIN_VISIBLE_PIXELS for p in self.pixels)

    @property
    def cut_by_border(self) -> bool:
        """Touches the image edge in every frame where it is visible: no frame shows all of it."""
        seen = [b for b, p in zip(self.border, self.pixels) if p >= MIN_VISIBLE_PIXELS]
        return bool(seen) and all(seen)


def _edge_zone(depth_mm: np.ndarray, width: int) -> np.ndarray:
    """Pixels within ``width`` px of the image edge or of the invalid corners (no depth, no instance).

    The rectified fisheye image has a valid area with cut corners; an object touching it is cut off.
    """
    from scipy.ndimage import binary_erosion

    valid = depth_mm > 0
    inner = binary_erosion(valid, structure=np.ones((3, 3), bool), iterations=width, border_value=0)
    return ~inner


def frame_instance_map(frames: Sequence[adt.AdtFrame]) -> dict[int, dict[int, int]]:
    """stamp_ns -> {instance id -> gt_id} from frames.json (the sidecar holds the same for a bag)."""
    return {f.stamp_ns: {i: lab.gt_id for i, lab in f.labels.items()} for f in frames}


def compute_visibility(frames: Sequence[adt.AdtFrame], config=None) -> dict[int, Visibility]:
    """Visibility of every ground-truth object that has a labelled instance in some frame.

    ``config`` (a PerceptionConfig, default one if None) only sets how ``eroded_pixels`` is counted: the
    pixels that survive the perception's mask erosion and depth range, to explain instances it dropped.
    """
    from tempomem_ros.perception import erode_mask

    config = perception_config() if config is None else config
    n = len(frames)
    pixels: dict[int, list[int]] = {}
    eroded: dict[int, list[int]] = {}
    border: dict[int, list[bool]] = {}
    sums: dict[int, np.ndarray] = {}
    counts: dict[int, int] = {}
    for fi, frame in enumerate(frames):
        depth = adt.read_depth_mm(frame)
        mask = adt.read_instances(frame)
        edge = _edge_zone(depth, BORDER_PX)
        ok = (depth > 0) & (mask > 0)
        ids = mask[ok].astype(np.int64)
        per_id = np.bincount(ids, minlength=65536)
        on_edge = np.bincount(mask[edge & (mask > 0)].astype(np.int64), minlength=65536)
        metres = depth.astype(np.float64) * config.depth_unit_16u
        in_range = (depth > 0) & (metres > config.min_depth) & (metres <= config.max_depth)
        kept = erode_mask(mask, config.mask_erosion_px) if config.mask_erosion_px else mask
        per_id_eroded = np.bincount(kept[in_range & (kept > 0)].astype(np.int64), minlength=65536)
        v, u = np.nonzero(ok)
        z = depth[ok].astype(np.float64) * 0.001
        cam = np.stack(((u - frame.cx) * z / frame.fx, (v - frame.cy) * z / frame.fy, z))
        T = frame.T_map_camera()
        world = T[:3, :3] @ cam + T[:3, 3:4]
        sx, sy, sz = (np.bincount(ids, weights=world[k], minlength=65536) for k in range(3))
        for instance_id, label in frame.labels.items():
            gt = label.gt_id
            pixels.setdefault(gt, [0] * n)[fi] += int(per_id[instance_id])
            eroded.setdefault(gt, [0] * n)[fi] += int(per_id_eroded[instance_id])
            border.setdefault(gt, [False] * n)[fi] |= bool(on_edge[instance_id])
            if per_id[instance_id]:
                sums[gt] = sums.get(gt, np.zeros(3)) + np.array([sx[instance_id], sy[instance_id], sz[instance_id]])
                counts[gt] = counts.get(gt, 0) + int(per_id[instance_id])
    return {gt: Visibility(gt, tuple(pixels[gt]), tuple(border[gt]),
                           tuple(float(x) for x in sums[gt] / counts[gt]) if counts.get(gt) else None,
                           tuple(eroded[gt]))
            for gt in sorted(pixels)}


# --------------------------------------------------------------------------------------- memory side


@dataclass(frozen=True)
class MemObject:
    id: int
    label: str
    center: tuple[float, float, float]
    bbox_min: tuple[float, float, float]
    bbox_max: tuple[float, float, float]


@dataclass
class StoreContents:
    """What the scorer needs from a store: present objects and which ground truth fed each of them."""

    objects: list[MemObject]
    sources: dict[int, Counter]                  # memory object id -> Counter(gt_id) of its observations
    gt_observations: dict[int, Counter]          # gt_id -> Counter(object id or verdict) of its observations
    observations: int = 0


def read_store(path: str | Path, instance_map: Mapping[int, Mapping[int, int]]) -> StoreContents:
    """Present objects (Memory.objects, read-only) and the provenance of every stored observation.

    Provenance needs each observation's instance id (ObservationRecord.instance_id). Stamps are mapped back
    to frames within 1 us.
    """
    from tempomem_ros.core import Memory

    with Memory.open(str(path), embedding_dim=EMBEDDING_DIM, readonly=True) as memory:
        objects = [MemObject(o.id, o.label, tuple(o.center), tuple(o.bbox_min), tuple(o.bbox_max))
                   for o in memory.objects("present")]
        rows = [(r.stamp, r.instance_id, r.object_id, r.verdict) for r in memory.observations()]
    stamps = sorted(instance_map)
    sources: dict[int, Counter] = {}
    gt_obs: dict[int, Counter] = {}
    for stamp, instance_id, object_id, verdict in rows:
        frame = min(stamps, key=lambda s: abs(s / 1e9 - stamp))
        if abs(frame / 1e9 - stamp) > STAMP_TOLERANCE_S:
            raise EvalError(f"observation stamp {stamp} matches no frame of the dataset")
        gt = instance_map[frame].get(int(instance_id))
        if gt is None:
            raise EvalError(f"observation of instance {instance_id} at {stamp} has no ground-truth entry")
        owner = object_id if verdict in ("merged", "created") and object_id is not None else verdict
        gt_obs.setdefault(gt, Counter())[owner] += 1
        if isinstance(owner, int):
            sources.setdefault(int(owner), Counter())[gt] += 1
    return StoreContents(objects=objects, sources=sources, gt_observations=gt_obs, observations=len(rows))


# ------------------------------------------------------------------------------------------- matching


def same_label(a: str, b: str) -> bool:
    """Equal whole-word, case-folded word sequences (the memory's ``normalize``); "" equals nothing."""
    na, nb = normalize(a), normalize(b)
    return bool(na) and na == nb


def _dist(a, b) -> float:
    return math.dist(a, b)


@dataclass
class Matching:
    threshold: float
    pairs: dict[int, int]                       # gt_id -> memory object id
    distances: dict[int, float]                 # gt_id -> centroid error of its pair
    duplicates: list[int]                       # memory ids that match an already matched gt object
    unmatched: list[int]                        # memory ids with no pair (duplicates included)


def match(gt: Mapping[int, adt.GtObject], objects: Sequence[MemObject], threshold: float) -> Matching:
    """One-to-one greedy matching by centroid distance among same-label pairs within ``threshold``."""
    if not threshold > 0 or not math.isfinite(threshold):
        raise EvalError(f"threshold must be a positive number of metres, got {threshold!r}")
    candidates = []
    for g in gt.values():
        for o in objects:
            if same_label(g.category, o.label):
                d = _dist(g.center, o.center)
                if d <= threshold:
                    candidates.append((d, g.gt_id, o.id))
    candidates.sort()
    pairs: dict[int, int] = {}
    distances: dict[int, float] = {}
    used: set[int] = set()
    for d, gt_id, oid in candidates:
        if gt_id in pairs or oid in used:
            continue
        pairs[gt_id] = oid
        distances[gt_id] = d
        used.add(oid)
    unmatched = [o.id for o in objects if o.id not in used]
    matched_gt = set(pairs)
    dup = sorted({oid for _d, gt_id, oid in candidates if oid in unmatched and gt_id in matched_gt})
    return Matching(threshold, pairs, distances, dup, sorted(unmatched))


# -------------------------------------------------------------------------------------------- scoring


def _median(values: Iterable[float]) -> float | None:
    values = list(values)
    return float(statistics.median(values)) if values else None


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _group_scores(ids: Sequence[int], m: Matching, ious: Mapping[int, float]) -> dict:
    recalled = [g for g in ids if g in m.pairs]
    return {"visible": len(ids), "recalled": len(recalled), "recall": _ratio(len(recalled), len(ids)),
            "median_error_m": _median(m.distances[g] for g in recalled),
            "median_iou": _median(ious[g] for g in recalled)}


def _main_owner(store: StoreContents, gt_id: int) -> int | None:
    """The memory object holding most of this ground-truth object's fused observations (ties: lower id)."""
    fused = {k: v for k, v in store.gt_observations.get(gt_id, Counter()).items() if isinstance(k, int)}
    return min(fused, key=lambda k: (-fused[k], k)) if fused else None


def classify_failure(g: adt.GtObject, vis: Visibility, store: StoreContents, m: Matching,
                     objects: Mapping[int, MemObject], min_mask_pixels: int) -> dict:
    """Why a visible ground-truth object was not recalled at ``m.threshold`` (the first cause that applies).

    eroded_away: after the perception's mask erosion fewer than ``min_mask_pixels`` valid pixels were left
    in every frame (thin structures: wire shelves); no_observation: nothing reached the memory for
    another reason (denoised away); rejected: the memory rejected every observation of it; merged: its
    observations went into a memory object that also fused other ground-truth objects; label_mismatch:
    that object carries another label; taken: that object was matched to another ground-truth object;
    partial_surface: the centroid of everything the camera saw of it is itself farther than the
    threshold from the box centre (one side seen, occluded, or cut by the image edge: ``cut_by_border``);
    pipeline_shift: the visible surface is within the threshold but the memory's centroid is not
    (erosion, denoising, subsampling, fusion).
    """
    out = {"gt_id": g.gt_id, "name": g.name, "category": g.category, "max_extent_m": round(g.max_extent, 4),
           "max_pixels": vis.max_pixels, "cut_by_border": vis.cut_by_border}
    surface_offset = None if vis.surface_centroid is None else _dist(vis.surface_centroid, g.center)
    out["surface_offset_m"] = None if surface_offset is None else round(surface_offset, 4)
    owners = store.gt_observations.get(g.gt_id, Counter())
    oid = _main_owner(store, g.gt_id)
    if not owners:
        out["max_pixels_after_erosion"] = max(vis.eroded_pixels) if vis.eroded_pixels else None
        eroded = bool(vis.eroded_pixels) and max(vis.eroded_pixels) < min_mask_pixels
        out["cause"] = "eroded_away" if eroded else "no_observation"
        return out
    if oid is None:
        out["cause"] = "rejected"
        out["verdicts"] = dict(sorted(owners.items()))
        return out
    out["memory_id"] = oid
    obj = objects.get(oid)
    if obj is None:
        out["cause"] = "object_not_present"
        return out
    out["memory_label"] = obj.label
    out["distance_m"] = round(_dist(obj.center, g.center), 4)
    others = sorted(k for k in store.sources.get(oid, Counter()) if k != g.gt_id)
    if others:
        out["cause"] = "merged"
        out["merged_with"] = others
        return out
    if not same_label(obj.label, g.category):
        out["cause"] = "label_mismatch"
        return out
    taken_by = sorted(gid for gid, o in m.pairs.items() if o == oid)
    if taken_by:
        out["cause"] = "taken"
        out["taken_by"] = taken_by[0]
        return out
    if surface_offset is not None and surface_offset > m.threshold:
        out["cause"] = "partial_surface"
        return out
    out["cause"] = "pipeline_shift"
    if vis.surface_centroid is not None:
        out["memory_to_surface_m"] = round(_dist(obj.center, vis.surface_centroid), 4)
    return out


def classify_unmatched(obj: MemObject, store: StoreContents, m: Matching, visible: set[int],
                       gt: Mapping[int, adt.GtObject]) -> str:
    """Why a memory object has no ground-truth pair (its precision cost), from its observations' origin.

    duplicate: it would match an already matched object; merged: it fused several ground-truth objects;
    split: its ground-truth object is matched to another memory object; far_visible / far_not_visible: its
    single ground-truth object (visible or a < 500 px sliver) is farther than the threshold; no_source:
    none of its observations could be traced.
    """
    sources = store.sources.get(obj.id, Counter())
    if obj.id in m.duplicates:
        return "duplicate"
    if not sources:
        return "no_source"
    if len(sources) > 1:
        return "merged"
    (g,) = sources
    if g in m.pairs:
        return "split"
    if not same_label(obj.label, gt[g].category):
        return "label_mismatch"
    return "far_visible" if g in visible else "far_not_visible"


def surface_reference_recall(gt: Mapping[int, adt.GtObject], visibility: Mapping[int, Visibility],
                             objects: Sequence[MemObject], visible: Sequence[int], threshold: float) -> dict:
    """DIAGNOSTIC, not the score: recall when each visible object's reference point is the centroid of its
    seen surface instead of its box centre. Separates "the memory lost or misplaced it" from "the memory
    reports the centroid of what was seen, which is not the box centre"."""
    moved = {g: dataclasses.replace(gt[g], center=visibility[g].surface_centroid)
             for g in visible if visibility[g].surface_centroid is not None}
    m = match(moved, objects, threshold)
    return {"recalled": len(m.pairs), "visible": len(visible), "recall": _ratio(len(m.pairs), len(visible)),
            "median_error_m": _median(m.distances.values())}


def aabb_ceiling_iou(g: adt.GtObject) -> float:
    """IoU of the ground-truth oriented box with its own axis-aligned hull: what a perfect axis-aligned
    box drawn around the whole object would score (a reference for the median IoU, not a bound)."""
    Rm, half = np.asarray(g.R), np.asarray(g.size) / 2.0
    extent = np.abs(Rm) @ half
    c = np.asarray(g.center)
    return aabb_obb_iou(c - extent, c + extent, g.center, g.size, g.R)


def score(gt: Mapping[int, adt.GtObject], visibility: Mapping[int, Visibility], store: StoreContents,
          thresholds: Sequence[float] = THRESHOLDS, min_mask_pixels: int | None = None) -> dict:
    """The full report (plain JSON types): visible sets, per-threshold scores, failures, per-object rows.

    ``min_mask_pixels``: the perception's threshold (default PerceptionConfig's), used only to name the
    failure cause of objects eroded below it.
    """
    unknown = sorted(set(visibility) - set(gt))
    if unknown:
        raise EvalError(f"instances refer to gt ids missing from gt_objects.json: {unknown[:5]}")
    if min_mask_pixels is None:
        min_mask_pixels = perception_config().min_mask_pixels
    visible = [g for g in sorted(visibility) if visibility[g].visible_any]
    visible_set = set(visible)
    visible_all = [g for g in visible if visibility[g].visible_all]
    objects = {o.id: o for o in store.objects}
    n_frames = len(next(iter(visibility.values())).pixels) if visibility else 0
    per_frame = [sum(1 for v in visibility.values() if v.pixels[i] >= MIN_VISIBLE_PIXELS) for i in range(n_frames)]
    report: dict = {
        "visible": {
            "min_valid_depth_pixels": MIN_VISIBLE_PIXELS,
            "any_frame": len(visible),
            "largest_frame": sum(1 for v in visibility.values() if v.visible_largest),
            "every_frame": len(visible_all),
            "per_frame": per_frame,
            "seen_at_all": len(visibility),
            "small": sum(1 for g in visible if gt[g].max_extent < SMALL_EXTENT),
            "note": "largest_frame equals any_frame by construction (max >= 500 iff some >= 500)",
        },
        "memory": {"present_objects": len(store.objects), "observations": store.observations,
                   "objects_fed_by_several_gt": sorted(k for k, v in store.sources.items() if len(v) > 1),
                   "gt_split_over_several_objects": sorted(
                       g for g, c in store.gt_observations.items() if sum(isinstance(k, int) for k in c) > 1)},
        "thresholds": {},
    }
    for thr in thresholds:
        m = match(gt, store.objects, thr)
        ious = {g: aabb_obb_iou(objects[o].bbox_min, objects[o].bbox_max, gt[g].center, gt[g].size, gt[g].R)
                for g, o in m.pairs.items()}
        small = [g for g in visible if gt[g].max_extent < SMALL_EXTENT]
        large = [g for g in visible if gt[g].max_extent >= SMALL_EXTENT]
        failures = [classify_failure(gt[g], visibility[g], store, m, objects, min_mask_pixels)
                    for g in visible if g not in m.pairs]
        unmatched = Counter(classify_unmatched(objects[o], store, m, visible_set, gt) for o in m.unmatched)
        recalled = [g for g in visible if g in m.pairs]
        report["thresholds"][f"{thr:.2f}"] = {
            "threshold_m": thr,
            **_group_scores(visible, m, ious),
            "precision": _ratio(len(m.pairs), len(store.objects)),
            "matched_memory": len(m.pairs),
            "memory_objects": len(store.objects),
            "matched_not_visible": sum(1 for g in m.pairs if g not in visible_set),
            "duplicates": len(m.duplicates),
            "duplicate_ids": m.duplicates,
            "unmatched_memory": dict(sorted(unmatched.items())),
            "every_frame_set": _group_scores(visible_all, m, ious),
            "by_size": {"small": _group_scores(small, m, ious), "large": _group_scores(large, m, ious)},
            "median_aabb_ceiling_iou": _median(aabb_ceiling_iou(gt[g]) for g in recalled),
            "diagnostic_surface_reference": surface_reference_recall(gt, visibility, store.objects, visible, thr),
            "failure_causes": dict(sorted(Counter(f["cause"] for f in failures).items())),
            "failures": failures,
            "pairs": {str(g): {"memory_id": m.pairs[g], "error_m": m.distances[g], "iou": ious[g],
                               "visible": g in visible_set} for g in sorted(m.pairs)},
        }
    report["error_decomposition"] = _decomposition(gt, visibility, store, visible)
    report["objects"] = [_object_row(gt[g], visibility[g]) for g in visible]
    return report


def _decomposition(gt, visibility, store: StoreContents, visible: Sequence[int]) -> dict:
    """Split the centroid error of every visible object held by exactly one memory object (that holds only
    it) into the box-centre-to-seen-surface offset and the memory-to-seen-surface (pipeline) offset."""
    objects = {o.id: o for o in store.objects}
    offsets, pipeline, totals = [], [], []
    for g in visible:
        owners = [k for k in store.gt_observations.get(g, Counter()) if isinstance(k, int)]
        vis = visibility[g]
        if len(owners) != 1 or owners[0] not in objects or vis.surface_centroid is None:
            continue
        if set(store.sources.get(owners[0], Counter())) != {g}:
            continue
        obj = objects[owners[0]]
        offsets.append(_dist(vis.surface_centroid, gt[g].center))
        pipeline.append(_dist(obj.center, vis.surface_centroid))
        totals.append(_dist(obj.center, gt[g].center))
    return {"objects": len(totals), "median_total_m": _median(totals),
            "median_box_centre_to_surface_m": _median(offsets), "median_memory_to_surface_m": _median(pipeline),
            "max_memory_to_surface_m": max(pipeline) if pipeline else None}


def _object_row(g: adt.GtObject, vis: Visibility) -> dict:
    return {"gt_id": g.gt_id, "name": g.name, "category": g.category, "max_extent_m": round(g.max_extent, 4),
            "pixels": list(vis.pixels), "pixels_after_erosion": list(vis.eroded_pixels),
            "cut_by_border": vis.cut_by_border,
            "surface_offset_m": None if vis.surface_centroid is None
            else round(_dist(vis.surface_centroid, g.center), 4)}


# --------------------------------------------------------------------------------------------- runners


@dataclass
class RunResult:
    mode: str
    store: StoreContents
    frames: int
    wall_s: float
    info: dict = field(default_factory=dict)


def perception_config(overrides: Mapping[str, object] | None = None):
    """PerceptionConfig() with ``overrides`` applied (validated by the dataclass)."""
    from tempomem_ros.perception import PerceptionConfig

    return PerceptionConfig(**dict(overrides or {}))


def run_offline(data_dir: Path, workdir: Path, overrides: Mapping[str, object] | None = None) -> RunResult:
    """Perception + Memory.add/commit per frame into ``workdir/offline.db``; no ROS."""
    from tempomem_ros.core import Memory
    from tempomem_ros.perception import extract_observations, make_camera_view
    from tempomem_ros.perception.denoise import limit_threads

    config = perception_config(overrides)
    limit_threads(1)  # what the perception node does by default (open3d_threads: 1)
    frames = adt.load_frames(data_dir)
    store = workdir / "offline.db"
    t0 = time.perf_counter()
    drops: Counter = Counter()
    with Memory.open(str(store), embedding_dim=EMBEDDING_DIM, config=MEMORY_CONFIG) as memory:
        for frame in frames:
            depth = adt.depth_metres(adt.read_depth_mm(frame))
            mask = adt.read_instances(frame)
            ids = adt.labelled_instances(mask, frame)
            intrinsics, T = frame.intrinsics(), frame.T_map_camera()
            observations, dropped = extract_observations(
                depth, mask, ids, [frame.labels[i].category for i in ids], [adt.CONFIDENCE] * len(ids),
                intrinsics, T, frame.stamp_s, config=config)
            drops.update(dropped)
            view = make_camera_view(depth, intrinsics, T, config.view_max_range, config.view_scale, frame.stamp_s)
            memory.add(observations, view)
            memory.commit()
    wall = time.perf_counter() - t0
    contents = read_store(store, frame_instance_map(frames))
    return RunResult("offline", contents, len(frames), wall, {"instance_drops": dict(sorted(drops.items()))})


def run_nodes(data_dir: Path, workdir: Path, overrides: Mapping[str, object] | None = None,
              wait_limit_s: float = WAIT_LIMIT_S) -> RunResult:
    """The real path: bag -> replay_bag -> perception_node -> memory_node -> store (all in-process)."""
    try:
        from tempomem_ros.tools.evaluation.pipeline import NodesPipeline, PipelineError
    except ImportError as exc:
        raise EvalError(f"--mode nodes needs rclpy and the built tempomem_ros interfaces ({exc}); "
                        "--mode offline needs neither") from None
    config = perception_config(overrides)  # fail early, with the dataclass's message, on a bad override
    # ROS parameters are strictly typed: pass each override with the type of the validated config field.
    node_params = {k: getattr(config, k) for k in sorted(overrides or {})}
    bag = workdir / "adt_bag"
    converted = adt.convert(data_dir, bag)
    instance_map = adt.read_sidecar(bag)
    store = workdir / "nodes.db"
    t0 = time.perf_counter()
    try:
        with NodesPipeline(store, perception_params=node_params, wait_limit_s=wait_limit_s,
                           memory_params={"commit_rate_hz": COMMIT_RATE_HZ, "embedding_dim": EMBEDDING_DIM,
                                          "identity.appear_hold_s": MEMORY_CONFIG["identity"]["appear_hold_s"]},
                           ) as pipe:
            info = pipe.replay(bag, converted.frames)
            info["instance_drops"] = dict(sorted(pipe.perception.instance_drops.items()))
    except PipelineError as exc:
        raise EvalError(str(exc)) from None
    wall = time.perf_counter() - t0
    return RunResult("nodes", read_store(store, instance_map), converted.frames, wall, info)


def evaluate(data: str | Path | None = None, mode: str = "offline",
             overrides: Mapping[str, object] | None = None, workdir: str | Path | None = None) -> dict:
    """Run one mode (or both) and score; returns the report dict (``report['runs'][mode]``)."""
    if mode not in ("offline", "nodes", "both"):
        raise EvalError(f"mode must be offline, nodes or both, got {mode!r}")
    data_dir = adt.resolve_data_dir(data)
    gt = adt.load_gt(data_dir)
    frames = adt.load_frames(data_dir)
    config = perception_config(overrides)
    visibility = compute_visibility(frames, config)
    modes = ("offline", "nodes") if mode == "both" else (mode,)
    report: dict = {"dataset": adt.DATASET, "frames": len(frames), "gt_objects": len(gt),
                    "label_source": adt.LABEL_SOURCE, "perception_overrides": dict(sorted((overrides or {}).items())),
                    "runs": {}}
    with tempfile.TemporaryDirectory(prefix="adt_eval_", dir=workdir) as tmp:
        for name in modes:
            sub = Path(tmp) / name
            sub.mkdir()
            run = run_offline(data_dir, sub, overrides) if name == "offline" else run_nodes(data_dir, sub, overrides)
            scored = score(gt, visibility, run.store, min_mask_pixels=config.min_mask_pixels)
            scored["run"] = {"wall_s": round(run.wall_s, 3), **run.info}
            scored["_objects"] = run.store.objects
            report["runs"][name] = scored
    if len(modes) == 2:
        report["modes_agree"] = compare_runs(report["runs"]["offline"]["_objects"], report["runs"]["nodes"]["_objects"])
    for run in report["runs"].values():
        run.pop("_objects")
    return report


def compare_runs(a: Sequence[MemObject], b: Sequence[MemObject]) -> dict:
    """Same objects (id and label) in both stores, and the largest centroid/box coordinate difference."""
    ids_a, ids_b = {o.id: o for o in a}, {o.id: o for o in b}
    same = set(ids_a) == set(ids_b) and all(ids_a[i].label == ids_b[i].label for i in ids_a)
    diff = 0.0
    if same:
        for i, oa in ids_a.items():
            ob = ids_b[i]
            for x, y in zip((*oa.center, *oa.bbox_min, *oa.bbox_max), (*ob.center, *ob.bbox_min, *ob.bbox_max)):
                diff = max(diff, abs(x - y))
    return {"same_objects": same, "max_coordinate_difference_m": diff if same else None}


# ------------------------------------------------------------------------------------------- printing


def _fmt(value, spec: str = ".3f") -> str:
    return "-" if value is None else format(value, spec)


def format_report(report: dict) -> str:
    """A plain-text table per run: one row per threshold and size group, then the failure causes."""
    lines = [f"ADT {report['dataset']}: {report['frames']} frames, {report['gt_objects']} ground-truth objects, "
             f"labels = {report['label_source']}"]
    for mode, run in report["runs"].items():
        vis = run["visible"]
        lines.append("")
        lines.append(f"[{mode}] visible (>= {vis['min_valid_depth_pixels']} valid-depth px): any frame "
                     f"{vis['any_frame']}, largest frame {vis['largest_frame']}, every frame {vis['every_frame']}, "
                     f"per frame {vis['per_frame']}; memory: {run['memory']['present_objects']} present objects")
        header = f"{'thr':>5} {'set':<11} {'recall':>13} {'med.err m':>9} {'med.IoU':>7} {'precision':>9} " \
                 f"{'dup':>3}"
        lines.append(header)
        lines.append("-" * len(header))
        for key, t in run["thresholds"].items():
            rows = [("visible", t, True), ("every frame", t["every_frame_set"], False),
                    ("small", t["by_size"]["small"], False), ("large", t["by_size"]["large"], False)]
            for name, s, main in rows:
                recall = f"{s['recalled']}/{s['visible']}={_fmt(s['recall'])}"
                prec = f"{t['matched_memory']}/{t['memory_objects']}" if main else ""
                dup = str(t["duplicates"]) if main else ""
                lines.append(f"{key:>5} {name:<11} {recall:>13} {_fmt(s['median_error_m'], '.4f'):>9} "
                             f"{_fmt(s['median_iou']):>7} {prec:>9} {dup:>3}")
            causes = ", ".join(f"{k}={v}" for k, v in t["failure_causes"].items()) or "none"
            lines.append(f"      not recalled at {key} m: {causes}")
            unmatched = ", ".join(f"{k}={v}" for k, v in t["unmatched_memory"].items()) or "none"
            lines.append(f"      unmatched memory objects: {unmatched}")
            diag = t["diagnostic_surface_reference"]
            lines.append(f"      diagnostic (reference = seen-surface centroid, not the score): recall "
                         f"{diag['recalled']}/{diag['visible']}={_fmt(diag['recall'])}, median error "
                         f"{_fmt(diag['median_error_m'], '.4f')} m; median IoU of the gt box's own AABB "
                         f"{_fmt(t['median_aabb_ceiling_iou'])}")
        d = run["error_decomposition"]
        lines.append(f"      centroid error split over {d['objects']} objects: total {_fmt(d['median_total_m'], '.4f')}"
                     f" m = box centre->seen surface {_fmt(d['median_box_centre_to_surface_m'], '.4f')} m"
                     f" + memory->seen surface {_fmt(d['median_memory_to_surface_m'], '.4f')} m (medians)")
    if "modes_agree" in report:
        a = report["modes_agree"]
        lines.append("")
        lines.append(f"offline vs nodes: same objects {a['same_objects']}, largest coordinate difference "
                     f"{_fmt(a['max_coordinate_difference_m'], '.3g')} m")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ CLI


def parse_overrides(items: Sequence[str]) -> dict[str, object]:
    """``KEY=VALUE`` pairs for PerceptionConfig; VALUE is parsed as the field's type."""
    from tempomem_ros.perception import PerceptionConfig

    defaults = {f.name: getattr(PerceptionConfig(), f.name) for f in dataclasses.fields(PerceptionConfig)}
    out: dict[str, object] = {}
    for item in items:
        if "=" not in item:
            raise EvalError(f"--set {item!r} is not KEY=VALUE")
        key, text = (s.strip() for s in item.split("=", 1))
        if key not in defaults:
            raise EvalError(f"--set: unknown perception setting {key!r}; known: {', '.join(sorted(defaults))}")
        default = defaults[key]
        try:
            if isinstance(default, bool):
                if text.lower() not in ("true", "false"):
                    raise ValueError("expected true or false")
                value: object = text.lower() == "true"
            elif isinstance(default, int):
                value = int(text)
            elif isinstance(default, float):
                value = float(text)
            else:
                value = text
        except ValueError as exc:
            raise EvalError(f"--set {key}: {exc}") from None
        out[key] = value
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tempomem_ros.tools.adt_eval",
                                description="Score the memory against the ADT kitchen ground truth.")
    p.add_argument("--data", default=None, help=f"dataset folder (default: ${adt.SHARED_ENV}/datasets/"
                   f"{adt.DATASET} or <repo>/../shared/datasets/{adt.DATASET})")
    p.add_argument("--json", default=None, metavar="OUT", help="also write the full report as JSON")
    p.add_argument("--mode", choices=("offline", "nodes", "both"), default="offline",
                   help="offline (no ROS), nodes (bag -> perception_node -> memory_node) or both")
    p.add_argument("--set", dest="overrides", nargs="+", default=[], metavar="KEY=VALUE",
                   help="change a PerceptionConfig field (both modes), e.g. mask_erosion_px=0")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        overrides = parse_overrides(args.overrides)
        report = evaluate(args.data, args.mode, overrides)
    except TempoMemError as exc:
        print(f"adt_eval: {exc}", file=sys.stderr)
        return 1
    print(format_report(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
