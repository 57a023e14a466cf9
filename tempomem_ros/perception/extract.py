"""Depth + instance mask + camera pose -> one Observation per instance, in the world frame.

Why all instances in one pass: masks of a frame are disjoint, so the valid pixels of every instance
can be found with one sort of the masked pixels by id (a radix sort for uint16) instead of one full-image
comparison per instance; the cost then grows with the masked area, not with area x instances.

Geometry: pixel (u, v) with depth Z (metres along the optical axis) back-projects to
X = (u - cx) Z / fx, Y = (v - cy) Z / fy in the camera optical frame (x right, y down, z forward), then
p_world = R p_cam + t with (R, t) the world-from-camera pose. Centroid = mean of the kept points; box =
their axis-aligned min/max in the world frame (or the ``box_trim_percent`` percentiles).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np

from tempomem_ros.core.types import Observation
from tempomem_ros.perception.camera import Intrinsics
from tempomem_ros.perception.config import PerceptionConfig
from tempomem_ros.perception.denoise import inlier_mask
from tempomem_ros.perception.errors import InputMismatchError, InstanceError, PerceptionError
from tempomem_ros.perception.pose import check_transform

#: Why an instance produced no observation. Every key is always present in the returned counters.
#: unlisted_id counts ids that appear in the mask but not in the id list (their pixels are ignored);
#: world_bound and extent count observations the memory's plausibility gates would refuse.
DROP_REASONS = ("empty_mask", "tiny_mask", "denoised_empty", "unlisted_id", "world_bound", "extent")

_MAX_ID = 65535


def check_depth(depth_m, intrinsics: Intrinsics) -> np.ndarray:
    """Validate a depth image in metres against the camera size; returns it as float32."""
    if not isinstance(depth_m, np.ndarray) or depth_m.ndim != 2:
        raise InputMismatchError(
            f"depth must be a 2-D array, got {type(depth_m).__name__} {getattr(depth_m, 'shape', '')}"
        )
    if depth_m.dtype.kind != "f":
        raise InputMismatchError(
            "depth must be a float array in metres (decode 16UC1 with decode_depth), "
            f"got dtype {depth_m.dtype}"
        )
    if depth_m.shape != (intrinsics.height, intrinsics.width):
        raise InputMismatchError(
            f"depth is {depth_m.shape[1]}x{depth_m.shape[0]} but camera_info says "
            f"{intrinsics.width}x{intrinsics.height}"
        )
    return depth_m.astype(np.float32, copy=False)


def _check_mask(mask, shape: tuple[int, int]) -> np.ndarray:
    if not isinstance(mask, np.ndarray) or mask.ndim != 2:
        raise InputMismatchError(
            f"mask must be a 2-D array, got {type(mask).__name__} {getattr(mask, 'shape', '')}"
        )
    if mask.dtype.kind not in "iu":
        raise InputMismatchError(f"mask must be an integer array of instance ids, got dtype {mask.dtype}")
    if mask.shape != shape:
        raise InputMismatchError(
            f"mask is {mask.shape[1]}x{mask.shape[0]} but depth is {shape[1]}x{shape[0]}"
        )
    if mask.dtype != np.uint16:
        if mask.size and (mask.min() < 0 or mask.max() > _MAX_ID):
            raise InstanceError(f"mask values must be in 0..{_MAX_ID}")
        mask = mask.astype(np.uint16)
    return mask


def _check_instances(ids, labels, confidences, features):
    """Validate the per-instance lists; returns (ids int64, labels, confidences, features or None)."""
    try:
        n = len(ids)
        n_labels, n_conf = len(labels), len(confidences)
    except TypeError:
        raise InputMismatchError("ids, labels and confidences must be sequences") from None
    if not n == n_labels == n_conf:
        raise InputMismatchError(
            f"instance lists differ in length: {n} ids, {n_labels} labels, {n_conf} confidences"
        )
    id_arr = np.asarray(ids) if n else np.zeros(0, dtype=np.int64)
    if id_arr.ndim != 1 or (n and id_arr.dtype.kind not in "iu"):
        raise InstanceError(f"ids must be a flat list of integers, got {ids!r}")
    id_arr = id_arr.astype(np.int64)
    if n and (id_arr.min() < 1 or id_arr.max() > _MAX_ID):
        raise InstanceError(f"instance ids must be in 1..{_MAX_ID} (0 is background), got {id_arr.tolist()}")
    if np.unique(id_arr).size != n:
        raise InstanceError(f"instance ids must be unique, got {id_arr.tolist()}")
    for label in labels:
        if not isinstance(label, str):
            raise InstanceError(f"labels must be strings, got {label!r}")
    try:
        conf = np.asarray(confidences, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise InstanceError(f"confidences must be numbers, got {confidences!r}") from None
    if n and not (np.all(np.isfinite(conf)) and conf.min() >= 0.0 and conf.max() <= 1.0):
        raise InstanceError(f"confidences must be finite and in 0..1, got {conf.tolist()}")
    feats = None
    if features is not None:
        try:
            feats = np.asarray(features, dtype=np.float64)
        except (TypeError, ValueError):
            raise InstanceError("features must be a numeric (n_ids x dim) array") from None
        if feats.ndim != 2 or feats.shape[0] != n or feats.shape[1] < 1:
            raise InputMismatchError(f"features must have shape ({n}, dim >= 1), got {feats.shape}")
        if not np.all(np.isfinite(feats)):
            raise InstanceError("features must be finite")
    return id_arr, list(labels), conf, feats


def _select_by_id(flat_mask: np.ndarray, valid: np.ndarray, id_arr: np.ndarray):
    """Valid pixel indices grouped by instance id: (pixels, starts, ends), one slice per id of id_arr."""
    selected = np.flatnonzero(valid & (flat_mask != 0))
    selected_ids = flat_mask[selected]
    order = np.argsort(selected_ids, kind="stable")  # stable: pixels stay in row-major order per id
    selected = selected[order]
    selected_ids = selected_ids[order]
    return (selected, np.searchsorted(selected_ids, id_arr, side="left"),
            np.searchsorted(selected_ids, id_arr, side="right"))


def erode_mask(mask: np.ndarray, pixels: int) -> np.ndarray:
    """Shrink every instance by ``pixels``: a pixel survives only if its 3x3 neighbourhood has its id.

    Applied ``pixels`` times; the image border counts as the same id (an object cut by the border did
    not bleed there). Boundaries between two instances erode on both sides, which is what is wanted:
    either side may be the one that bled.
    """
    out = mask
    height, width = mask.shape
    for _ in range(pixels):
        padded = np.pad(out, 1, mode="edge")
        keep = np.ones(out.shape, dtype=bool)
        for dy in range(3):
            for dx in range(3):
                if dy != 1 or dx != 1:
                    keep &= padded[dy : dy + height, dx : dx + width] == out
        out = np.where(keep, out, 0).astype(np.uint16)
    return out


def _mark_neighbour_cuts(lab: np.ndarray, inv: np.ndarray, step: float, axis: int, cut: np.ndarray,
                         edge: np.ndarray, bound: np.ndarray) -> None:
    """trim_depth_edges' pass over the pairs of neighbours along ``axis`` (1: horizontal, 0: vertical) of the
    instance image ``lab`` (0: none) and its inverse depth ``inv``: both pixels of a pair of one instance whose
    inverse depths differ by more than ``step`` go into ``edge``, both of a pair of two instances into ``bound``,
    and both of either into ``cut`` (in place)."""
    first = tuple(slice(None, -1) if k == axis else slice(None) for k in range(2))
    second = tuple(slice(1, None) if k == axis else slice(None) for k in range(2))
    a, b = lab[first], lab[second]
    both = (a != 0) & (b != 0)
    other = both & (a != b)
    jump = both & ~other & (np.abs(inv[first] - inv[second]) > step)
    for out, pairs in ((cut, other | jump), (edge, jump), (bound, other)):
        out[first] |= pairs
        out[second] |= pairs


def trim_depth_edges(mask: np.ndarray, depth: np.ndarray, valid: np.ndarray, step: float,
                     keep_thick: bool = True) -> np.ndarray:
    """Each instance of ``mask`` cut to its pieces that hold together in depth, less bleed strips (0 elsewhere).

    Why: a mask that bleeds over an object's outline takes a strip of the surface behind it (floor, wall),
    one to three pixels wide but as long as the edge (a table top, a chair back). Erosion peels one pixel;
    the rest is a dense line of points the outlier tests keep. Across the outline the depth jumps, so two
    4-neighbours of one instance whose inverse depths differ by more than ``step`` (1/m) are both cut out,
    and each instance keeps its largest 4-connected piece and, with ``keep_thick``, every piece that has
    an interior pixel (all 4 neighbours in the piece): a chair's back and seat seen apart in depth are
    both bodies, while what erosion and the cut leave of a 3-px bleed strip is 1 px wide. Inverse depth
    because it is affine in the pixel coordinates on any plane: neighbours on one surface differ by
    1 / (f d) (d: the plane's distance from the camera centre), however grazing the view, and depth noise
    sigma = k z^2 is a constant k in it.
    Neighbours of two different instances are cut too, so a piece never spans two instances.
    Only a part of the mask with a depth edge inside loses pieces: a part without one (the legs of a chair
    seen below a table, split from its back by the nearer table) keeps all its pixels.
    """
    from scipy import ndimage  # noqa: PLC0415 - imported with the first frame that trims

    lab = np.where(valid, mask, 0).astype(np.uint16)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(valid, 1.0 / np.where(valid, depth, 1.0), 0.0).astype(np.float32)
    cut = lab == 0
    edge = np.zeros(lab.shape, dtype=bool)  # the pixels on either side of a depth edge within one instance
    bound = np.zeros(lab.shape, dtype=bool)  # the pixels on either side of a boundary between two instances
    for axis in (1, 0):  # horizontal neighbours, then vertical
        _mark_neighbour_cuts(lab, inv, step, axis, cut, edge, bound)
    pieces, n = ndimage.label(~cut)
    if n == 0:
        return np.zeros_like(mask, dtype=np.uint16)
    flat_pieces = pieces.reshape(-1)
    # A part of the mask with no depth edge inside (the legs of a chair seen below a table, an object
    # split by a nearer one) is not bleed: each of its pieces is kept whole. A piece lies in a part with a
    # depth edge iff it touches (4-neighbours) a depth-edge pixel that is not on a boundary with another
    # instance (such a pixel is always of the piece's own instance).
    near = edge & ~bound
    padded = np.pad(near, 1)
    near |= padded[:-2, 1:-1] | padded[2:, 1:-1] | padded[1:-1, :-2] | padded[1:-1, 2:]
    piece_has_edge = np.bincount(flat_pieces[(near & ~cut).reshape(-1)], minlength=n + 1) > 0
    sizes = np.bincount(flat_pieces, minlength=n + 1)
    owner = np.zeros(n + 1, dtype=np.int64)
    owner[flat_pieces] = lab.reshape(-1)
    order = np.lexsort((-sizes[1:], owner[1:])) + 1     # by instance, largest piece first (ties: lowest)
    first = np.ones(order.size, dtype=bool)
    first[1:] = owner[order[1:]] != owner[order[:-1]]
    keep = ~piece_has_edge
    keep[order[first]] = True
    if keep_thick:
        # A piece with an interior pixel (its 4 neighbours in it too) is a body, not a strip: a strip of
        # bleed is at most the bleed width less the erosion and the cut row (1 px for 3 px of bleed).
        padded = np.pad(cut, 1, mode="edge")
        interior = ~(cut | padded[:-2, 1:-1] | padded[2:, 1:-1] | padded[1:-1, :-2] | padded[1:-1, 2:])
        keep |= np.bincount(flat_pieces[interior.reshape(-1)], minlength=n + 1) > 0
    keep[0] = False
    return np.where(keep[pieces], lab, 0).astype(np.uint16)


def _normalised(row: np.ndarray) -> np.ndarray | None:
    """L2-normalised feature row; None for an all-zero row, which carries no appearance information."""
    norm = float(np.linalg.norm(row))
    if norm == 0.0:
        return None
    return (row / norm).astype(np.float32)


def _even_subsample(pixels: np.ndarray, cap: int) -> np.ndarray:
    """At most ``cap`` pixels, evenly spaced in the given (row-major) order; first and last kept."""
    if cap <= 0 or pixels.size <= cap:
        return pixels
    return pixels[np.linspace(0, pixels.size - 1, cap).round().astype(np.int64)]


def extract_observations(
    depth_m: np.ndarray,
    mask: np.ndarray,
    ids: Sequence[int],
    labels: Sequence[str],
    confidences: Sequence[float],
    intrinsics: Intrinsics,
    T_world_cam: np.ndarray,
    stamp: float,
    features: np.ndarray | None = None,
    config: PerceptionConfig | None = None,
) -> tuple[list[Observation], dict[str, int]]:
    """One Observation per instance id that has enough valid depth, plus drop counters by reason.

    depth_m: HxW float metres (NaN = invalid), the size of ``intrinsics``; mask: HxW integer ids;
    ids/labels/confidences: one entry per instance; features: optional (len(ids) x dim) array.
    Observations come in the order of ``ids``; each is in the world frame of ``T_world_cam``.
    """
    config = PerceptionConfig() if config is None else config
    if not isinstance(config, PerceptionConfig):
        raise PerceptionError(f"config must be a PerceptionConfig, got {type(config).__name__}")
    if not isinstance(intrinsics, Intrinsics):
        raise PerceptionError(f"intrinsics must be an Intrinsics, got {type(intrinsics).__name__}")
    depth = check_depth(depth_m, intrinsics)
    mask = _check_mask(mask, depth.shape)
    id_arr, labels, conf, feats = _check_instances(ids, labels, confidences, features)
    T = check_transform(T_world_cam)
    if isinstance(stamp, bool) or not isinstance(stamp, numbers.Real) or not math.isfinite(stamp):
        raise PerceptionError(f"stamp must be a finite number of seconds, got {stamp!r}")

    drops = dict.fromkeys(DROP_REASONS, 0)
    observations: list[Observation] = []
    if id_arr.size == 0:
        drops["unlisted_id"] = int(np.unique(mask[mask != 0]).size)
        return observations, drops

    flat_depth = depth.reshape(-1)
    flat_mask = mask.reshape(-1)
    with np.errstate(invalid="ignore"):
        valid = (flat_depth > config.min_depth) & (flat_depth <= config.max_depth)  # False for NaN
    pixel_counts = np.bincount(flat_mask, minlength=_MAX_ID + 1)  # before erosion: tells empty from tiny
    listed = np.zeros(_MAX_ID + 1, dtype=bool)
    listed[id_arr] = True
    listed[0] = True  # background
    drops["unlisted_id"] = int(np.count_nonzero((pixel_counts > 0) & ~listed))
    uneroded = _select_by_id(flat_mask, valid, id_arr)
    eroded_mask = erode_mask(mask, config.mask_erosion_px) if config.mask_erosion_px else mask
    if config.mask_erosion_px:
        eroded = _select_by_id(eroded_mask.reshape(-1), valid, id_arr)
    if config.depth_edge_step > 0.0:
        trimmed = _select_by_id(
            trim_depth_edges(eroded_mask, depth, valid.reshape(depth.shape), config.depth_edge_step).reshape(-1),
            valid, id_arr)

    width = intrinsics.width
    R, t = T[:3, :3], T[:3, 3]
    for i, instance_id in enumerate(id_arr.tolist()):
        if pixel_counts[instance_id] == 0:
            drops["empty_mask"] += 1
            continue
        sel, lo, hi = uneroded
        if not config.mask_erosion_px or (eroded[2][i] - eroded[1][i] >= config.min_mask_pixels
                                          or 2 * (hi[i] - lo[i]) < pixel_counts[instance_id]):
            # Erosion peels the bleed ring, unless it would erase a thin object. Not when most of the mask
            # has no valid depth (an object beyond max_depth, seen through a doorway): its few valid
            # pixels are then the bleed onto nearer surfaces, not the object.
            if config.mask_erosion_px:
                sel, lo, hi = eroded
            # The depth-edge trim then drops the bleed strips behind the outline (trim_depth_edges keeps
            # each instance's largest piece, its thick pieces and its parts with no depth edge inside). What
            # it keeps replaces erosion's pixels only when it is at least half of them and at least
            # min_mask_pixels: bleed is a thin strip along the outline, so a trim that takes more has cut
            # through the object itself (a thin object, or a surface seen at a grazing angle, whose
            # neighbours differ by more than depth_edge_step), which is kept as erosion left it; and the
            # trim never makes an instance too small to report.
            if config.depth_edge_step > 0.0:
                n_trim = trimmed[2][i] - trimmed[1][i]
                if n_trim >= config.min_mask_pixels and 2 * n_trim >= hi[i] - lo[i]:
                    sel, lo, hi = trimmed
        if hi[i] - lo[i] < config.min_mask_pixels:
            drops["tiny_mask"] += 1
            continue
        pixels = _even_subsample(sel[lo[i] : hi[i]], config.max_points_per_instance)
        z = flat_depth[pixels].astype(np.float64)
        u = (pixels % width).astype(np.float64)
        v = (pixels // width).astype(np.float64)
        # 3 x N layout throughout: numpy reduces contiguous rows far faster than (N, 3) columns.
        cam = np.stack(((u - intrinsics.cx) * z / intrinsics.fx, (v - intrinsics.cy) * z / intrinsics.fy, z))
        # Footprint of the sampled pixels, scaled back up to all valid pixels of the instance.
        pixel_area = float(np.dot(z, z)) / (intrinsics.fx * intrinsics.fy) * (hi[i] - lo[i]) / z.size
        cam = cam[:, inlier_mask(cam.T, config, pixel_area)]
        if cam.shape[1] == 0:
            drops["denoised_empty"] += 1
            continue
        world = R @ cam + t[:, None]
        centroid = world.mean(axis=1)
        if config.box_trim_percent > 0.0:
            low = np.percentile(world, config.box_trim_percent, axis=1)
            high = np.percentile(world, 100.0 - config.box_trim_percent, axis=1)
            centroid = np.clip(centroid, low, high)  # a skewed cloud's mean may fall outside the trimmed box
        else:
            low, high = world.min(axis=1), world.max(axis=1)
        if float(np.max(np.abs(np.concatenate((low, high))))) > config.world_bound:
            drops["world_bound"] += 1  # a pose or depth far off the map (the memory refuses it too)
            continue
        if float(np.max(high - low)) > config.max_object_extent:
            drops["extent"] += 1
            continue
        observations.append(
            Observation(
                label=labels[i],
                confidence=float(conf[i]),
                center=centroid,
                bbox_min=low,
                bbox_max=high,
                stamp=float(stamp),
                feature=None if feats is None else _normalised(feats[i]),
                n_points=int(world.shape[1]),
                instance_id=int(instance_id),
            )
        )
    return observations, drops
