"""Input validation at the API boundary: well-formedness, then plausibility.

Why up front and per batch: a NaN centre or a wrong feature size that slipped into the store would poison
running means and indices for good. add() validates the whole batch before writing anything, so a bad
batch leaves the store exactly as it was, and the caller learns which item and which field was wrong.

Why plausibility gates on top (docs/MEMORY.md, "Plausibility gates"): finite but absurd values are just as
poisonous. One "mug" with a +-1e30 box merged into the real mug and moved it to the origin; one frame
stamped 2038 made every "in the last N minutes" question answer about 2038 forever. The gates refuse such
input with an ImplausibleInputError whose ``reason`` the node counts in /diagnostics; none of them ever
changes a value (a value is accepted as it is, or refused).
"""

from __future__ import annotations

import datetime as dt
import math

import numpy as np

from .errors import ImplausibleInputError, InvalidInputError
from .types import CameraView, Observation

#: SQLite INTEGER is a signed 64-bit integer: larger ids cannot exist (binding one raised OverflowError).
MAX_ID = 2**63 - 1
#: Stamps are ROS times: builtin_interfaces/Time holds 0 .. 2**31 - 1 whole seconds.
STAMP_MIN, STAMP_MAX = 0.0, float(2**31)
#: Times a question may ask about: what builtin_interfaces/Time's int32 seconds and the UTC calendar used
#: for answers both represent (1901-12-13 .. 2038-01-19). "5 minutes ago" in simulated time (stamps near 0)
#: is a negative time and must stay askable.
QUERY_TIME_MIN, QUERY_TIME_MAX = -float(2**31), float(2**31)
#: Pinhole focal lengths in pixels: below 1 px a 640 px image spans more than 179.8 degrees (no pinhole
#: camera does; 1e-300 made a pixel's footprint underflow to a ZeroDivisionError); above 1e6 px the
#: field of view of a 640 px image is under 0.04 degrees.
FOCAL_MIN_PX, FOCAL_MAX_PX = 1.0, 1e6
#: Largest image side in pixels (a 100k x 100k image would be 40 GB of float depth).
MAX_IMAGE_SIDE = 100_000


def finite_vec3(value, name: str) -> tuple[float, float, float]:
    try:
        arr = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidInputError(f"{name} must be three numbers") from exc
    if arr.shape != (3,):
        raise InvalidInputError(f"{name} must be three numbers, got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise InvalidInputError(f"{name} must be finite, got {arr.tolist()}")
    return (float(arr[0]), float(arr[1]), float(arr[2]))


def finite_number(value, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidInputError(f"{name} must be a number") from exc
    if not math.isfinite(v):
        raise InvalidInputError(f"{name} must be finite, got {v}")
    return v


#: Most results one ranked query of the core returns (spatial, semantic, scene as of). A ROS service answers at
#: most nodes/services.SRV_MAX_K of them: a message stays small enough to publish in one piece.
MAX_K = 10_000


def positive_int(value, name: str, *, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidInputError(f"{name} must be an integer")
    if not 1 <= int(value) <= maximum:
        raise InvalidInputError(f"{name} must be in 1..{maximum}, got {value}")
    return int(value)


def non_negative_int(value, name: str, *, maximum: int = MAX_ID) -> int:
    """An int in 0..maximum (bools refused: True is not a count; SQLite cannot bind beyond 2**63 - 1)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise InvalidInputError(f"{name} must be an integer >= 0, got {value!r}")
    if int(value) > maximum:
        raise InvalidInputError(f"{name} must be at most {maximum}, got {value}")
    return int(value)


def id_in_range(value, name: str) -> int:
    """An integer id within SQLite's range (1..2**63 - 1); non-integers are left to the caller."""
    if not 1 <= int(value) <= MAX_ID:
        raise InvalidInputError(f"{name} must be in 1..{MAX_ID}, got {value}")
    return int(value)


def query_time(value, name: str) -> float:
    """A time a query asks about: finite and within what answers can state (QUERY_TIME_MIN..MAX)."""
    t = finite_number(value, name)
    if not QUERY_TIME_MIN <= t < QUERY_TIME_MAX:
        raise InvalidInputError(f"{name} = {t:g} s is outside the times a memory can answer about "
                                f"({_utc(QUERY_TIME_MIN)} .. {_utc(QUERY_TIME_MAX - 1)})")
    return t


def source(value) -> str:
    """A source (robot id) as config.source allows it, or InvalidInputError saying what a source may hold."""
    from .config import SOURCE_PATTERN, SOURCE_RULE

    if not isinstance(value, str) or SOURCE_PATTERN.fullmatch(value) is None:
        raise InvalidInputError(f"source must be {SOURCE_RULE} (got {value!r:.80})")
    return value


def text_length(text: str, name: str, maximum: int) -> str:
    if len(text) > maximum:
        raise ImplausibleInputError(f"{name} is {len(text)} characters long, at most {maximum} are accepted",
                                    "request_size")
    return text


def l2_norm(vector) -> float:
    """The L2 norm without overflow or underflow on the way (scaled by the largest magnitude first)."""
    v = np.asarray(vector, np.float64)
    top = float(np.max(np.abs(v))) if v.size else 0.0
    if top == 0.0 or not math.isfinite(top):
        return top
    return top * float(np.linalg.norm(v / top))


def _utc(t: float) -> str:
    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc).strftime("%Y-%m-%d")


# ------------------------------------------------------------------------------------------- well-formedness
def observation(obs, index: int, embedding_dim: int) -> None:
    where = f"observation {index}"
    if not isinstance(obs, Observation):
        raise InvalidInputError(f"{where}: expected Observation, got {type(obs).__name__}")
    if not isinstance(obs.label, str):
        raise InvalidInputError(f"{where}: label must be text")
    conf = finite_number(obs.confidence, f"{where}: confidence")
    if not 0.0 <= conf <= 1.0:
        raise InvalidInputError(f"{where}: confidence must be within 0..1, got {conf}")
    center = finite_vec3(obs.center, f"{where}: center")
    bmin = finite_vec3(obs.bbox_min, f"{where}: bbox_min")
    bmax = finite_vec3(obs.bbox_max, f"{where}: bbox_max")
    if any(lo > hi for lo, hi in zip(bmin, bmax)):
        raise InvalidInputError(f"{where}: bbox_min must not exceed bbox_max")
    tol = 1e-6
    if any(c < lo - tol or c > hi + tol for c, lo, hi in zip(center, bmin, bmax)):
        raise InvalidInputError(f"{where}: center {center} lies outside its box")
    finite_number(obs.stamp, f"{where}: stamp")
    if obs.feature is not None:
        feat = obs.feature
        if not isinstance(feat, np.ndarray) or feat.ndim != 1:
            shape = getattr(feat, "shape", None)
            raise InvalidInputError(f"{where}: feature must be a 1-D float array, got shape {shape}")
        if feat.shape[0] != embedding_dim:
            raise InvalidInputError(
                f"{where}: feature has dimension {feat.shape[0]}, the store expects {embedding_dim}")
        if not np.all(np.isfinite(feat)):
            raise InvalidInputError(f"{where}: feature must be finite")
        if not np.any(feat):
            raise InvalidInputError(f"{where}: feature must not be all zeros")
    if isinstance(obs.n_points, bool) or not isinstance(obs.n_points, (int, np.integer)) or obs.n_points < 0:
        raise InvalidInputError(f"{where}: n_points must be a non-negative integer")
    iid = obs.instance_id
    if isinstance(iid, bool) or not isinstance(iid, (int, np.integer)) or not 0 <= iid <= MAX_ID:
        raise InvalidInputError(f"{where}: instance_id must be an integer in 0..{MAX_ID}")
    if obs.n_points > MAX_ID:
        raise InvalidInputError(f"{where}: n_points must be at most {MAX_ID}")


def observations(items: list, embedding_dim: int) -> None:
    """observation() of every item, in order: accepts exactly what it accepts and raises the first bad item's error.

    Why a batch: per item, three np.asarray calls and Python comparisons cost 25-30 us (0.59 ms a staged frame of 20
    sightings, bench_fleet's, process time at load 20: a third of a robot's staging CPU); the common frame, every
    item a plain Observation with float triples, is checked here in a few array operations, and anything else (a
    failing check, an unusual type or shape) goes through observation() item by item, which names the error."""
    if not _well_formed_at_once(items, embedding_dim):
        for i, obs in enumerate(items):
            observation(obs, i, embedding_dim)


def _numbers(items) -> tuple[np.ndarray, np.ndarray] | None:
    """((n, 2) confidences and stamps, (n, 3, 3) centres, box minima and maxima) as float64 when every item is an
    Observation whose numbers are ints or floats and whose vectors are triples; None otherwise."""
    for obs in items:
        if type(obs) is not Observation:
            return None
        if not isinstance(obs.confidence, (int, float)) or not isinstance(obs.stamp, (int, float)):
            return None
    try:
        boxes = np.array([(o.center, o.bbox_min, o.bbox_max) for o in items], dtype=np.float64)
        scalars = np.array([(o.confidence, o.stamp) for o in items], dtype=np.float64)
    except (TypeError, ValueError, OverflowError):  # an int beyond float64 (2**1100) included
        return None
    if boxes.shape != (len(items), 3, 3):
        return None
    return scalars, boxes


def _well_formed_at_once(items: list, embedding_dim: int) -> bool:
    """True only when observation() accepts every item (False: it must be asked, item by item)."""
    if not items:
        return True
    numbers = _numbers(items)
    if numbers is None:
        return False
    scalars, boxes = numbers
    for obs in items:
        feat = obs.feature
        if feat is not None and not (isinstance(feat, np.ndarray) and feat.ndim == 1
                                     and feat.shape[0] == embedding_dim and np.all(np.isfinite(feat))
                                     and np.any(feat)):
            return False
        if type(obs.label) is not str or type(obs.n_points) is not int or type(obs.instance_id) is not int:
            return False
        if not (0 <= obs.n_points <= MAX_ID and 0 <= obs.instance_id <= MAX_ID):
            return False
    if not (np.all(np.isfinite(scalars)) and np.all(np.isfinite(boxes))):
        return False
    center, lo, hi = boxes[:, 0], boxes[:, 1], boxes[:, 2]
    tol = 1e-6
    return bool(np.all((scalars[:, 0] >= 0.0) & (scalars[:, 0] <= 1.0)) and np.all(lo <= hi)
                and np.all((center >= lo - tol) & (center <= hi + tol)))


def camera_view(view) -> None:
    if not isinstance(view, CameraView):
        raise InvalidInputError(f"view must be a CameraView, got {type(view).__name__}")
    pose = np.asarray(view.pose, dtype=np.float64)
    if pose.shape != (4, 4) or not np.all(np.isfinite(pose)):
        raise InvalidInputError("view.pose must be a finite 4x4 matrix")
    rot = pose[:3, :3]
    if not np.allclose(rot.T @ rot, np.eye(3), atol=1e-3) or abs(np.linalg.det(rot) - 1.0) > 1e-3:
        raise InvalidInputError("view.pose rotation must be orthonormal with determinant 1")
    for name in ("fx", "fy"):
        if finite_number(getattr(view, name), f"view.{name}") <= 0:
            raise InvalidInputError(f"view.{name} must be > 0")
    finite_number(view.cx, "view.cx")
    finite_number(view.cy, "view.cy")
    for name in ("width", "height"):
        v = getattr(view, name)
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0:
            raise InvalidInputError(f"view.{name} must be a positive integer")
    if finite_number(view.max_range, "view.max_range") <= 0:
        raise InvalidInputError("view.max_range must be > 0")
    if view.depth is not None:
        depth = np.asarray(view.depth)
        if depth.ndim != 2 or depth.size == 0:
            raise InvalidInputError("view.depth must be a non-empty HxW array")
        if depth.shape[0] > view.height or depth.shape[1] > view.width:
            raise InvalidInputError("view.depth must not be larger than the image")
    if view.stamp is not None:
        finite_number(view.stamp, "view.stamp")
    mop = view.min_object_pixels
    if isinstance(mop, bool) or not isinstance(mop, (int, np.integer)) or mop < 0:
        raise InvalidInputError("view.min_object_pixels must be a non-negative integer")


# ---------------------------------------------------------------------------------------------- plausibility
def plausible_box(center, bmin, bmax, gates, where: str) -> None:
    """World bound on every coordinate, then the largest side (reasons ``world_bound``, ``extent``)."""
    bound = gates.world_bound
    for name, vec in (("center", center), ("bbox_min", bmin), ("bbox_max", bmax)):
        worst = max(abs(float(v)) for v in vec)
        if worst > bound:
            raise ImplausibleInputError(
                f"{where}: {name} {tuple(float(v) for v in vec)} lies outside the world bound +-{bound:g} m "
                "(gates.world_bound)", "world_bound")
    side = max(float(hi) - float(lo) for lo, hi in zip(bmin, bmax))
    if side > gates.max_extent:
        raise ImplausibleInputError(
            f"{where}: box side {side:g} m exceeds the largest object extent {gates.max_extent:g} m "
            "(gates.max_extent)", "extent")


def plausible_observation(obs: Observation, index: int, gates) -> None:
    """The gates of one well-formed observation (call observation() first)."""
    where = f"observation {index}"
    plausible_box(obs.center, obs.bbox_min, obs.bbox_max, gates, where)
    if obs.feature is not None:
        norm = l2_norm(obs.feature)
        if not gates.min_feature_norm <= norm <= gates.max_feature_norm:
            raise ImplausibleInputError(
                f"{where}: feature norm {norm:.3g} is outside [{gates.min_feature_norm:g}, "
                f"{gates.max_feature_norm:g}] (gates.*_feature_norm; features are meant to be L2-normalised)",
                "feature_norm")


def plausible_view(view: CameraView, gates) -> None:
    """A well-formed view's camera position, intrinsics and range (reasons world_bound, intrinsics, view_range)."""
    position = np.asarray(view.pose, np.float64)[:3, 3]
    if float(np.max(np.abs(position))) > gates.world_bound:
        raise ImplausibleInputError(f"view.pose position {tuple(position.tolist())} lies outside the world bound "
                                    f"+-{gates.world_bound:g} m (gates.world_bound)", "world_bound")
    for name in ("fx", "fy"):
        f = float(getattr(view, name))
        if not FOCAL_MIN_PX <= f <= FOCAL_MAX_PX:
            raise ImplausibleInputError(f"view.{name} = {f:g} px is outside [{FOCAL_MIN_PX:g}, {FOCAL_MAX_PX:g}]",
                                        "intrinsics")
    for name, size in (("cx", view.width), ("cy", view.height)):
        c = float(getattr(view, name))
        if not -size <= c <= 2 * size:
            raise ImplausibleInputError(f"view.{name} = {c:g} px lies more than the image size outside the image",
                                        "intrinsics")
    if max(int(view.width), int(view.height)) > MAX_IMAGE_SIDE:
        raise ImplausibleInputError(f"view image {view.width}x{view.height} exceeds {MAX_IMAGE_SIDE} px",
                                    "intrinsics")
    if float(view.max_range) > 2 * gates.world_bound:
        raise ImplausibleInputError(f"view.max_range {float(view.max_range):g} m exceeds twice the world bound",
                                    "view_range")


def plausible_stamp(stamp: float, name: str, wall_now: float, gates) -> None:
    """A ROS time (0 .. 2**31 s) not more than gates.max_stamp_ahead_s ahead of the wall clock.

    Only the wall clock bounds a stamp from above: a bag replayed from January, or simulated time near 0,
    is far behind today's wall clock and stays accepted; nothing is refused for being old.
    """
    if not STAMP_MIN <= stamp < STAMP_MAX:
        raise ImplausibleInputError(
            f"{name} {stamp:g} s is not a ROS time (0 .. 2**31 s, 1970-01-01 .. 2038-01-19)", "stamp_range")
    ahead = stamp - float(wall_now)
    if ahead > gates.max_stamp_ahead_s:
        raise ImplausibleInputError(
            f"{name} {stamp:.3f} ({_utc(stamp)}) is {ahead:.0f} s ahead of the wall clock, more than "
            f"gates.max_stamp_ahead_s = {gates.max_stamp_ahead_s:g} s (unsynchronised clocks?)", "stamp_future")


def plausible_frame(observations, view, stamp: float, wall_now: float, gates) -> float:
    """Gates of a whole frame; returns its newest stamp (what "now" becomes when it is accepted)."""
    if len(observations) > gates.max_observations:
        raise ImplausibleInputError(f"a frame holds {len(observations)} observations, at most "
                                    f"{gates.max_observations} are accepted (gates.max_observations)",
                                    "too_many_observations")
    plausible_stamp(stamp, "frame stamp", wall_now, gates)
    newest = _plausible_at_once(observations, stamp, wall_now, gates)
    if newest is None:
        newest = _plausible_each(observations, stamp, wall_now, gates)
    if view is not None:
        plausible_view(view, gates)
        if view.stamp is not None:
            plausible_stamp(float(view.stamp), "view.stamp", wall_now, gates)
            newest = max(newest, float(view.stamp))
    return newest


def _plausible_at_once(observations, stamp: float, wall_now: float, gates) -> float | None:
    """The newest of ``stamp`` and the observations' stamps when every well-formed observation passes its gates
    (plausible_observation, its stamp's); None when one may not (_plausible_each then names it). Why: as
    observations(), the per-item Python of a frame of 20 in a few array operations."""
    if not observations:
        return stamp
    numbers = _numbers(observations)
    if numbers is None:
        return None
    scalars, boxes = numbers
    stamps = scalars[:, 1]
    if float(np.max(np.abs(boxes))) > gates.world_bound:
        return None
    if float(np.max(boxes[:, 2] - boxes[:, 1])) > gates.max_extent:
        return None
    in_time = ((stamps >= STAMP_MIN) & (stamps < STAMP_MAX) & (stamps - float(wall_now) <= gates.max_stamp_ahead_s)
               & (np.abs(stamps - stamp) <= gates.max_frame_spread_s))
    if not bool(np.all(in_time)):
        return None
    for obs in observations:
        if obs.feature is not None and not gates.min_feature_norm <= l2_norm(obs.feature) <= gates.max_feature_norm:
            return None
    return max(stamp, float(np.max(stamps)))


def _plausible_each(observations, stamp: float, wall_now: float, gates) -> float:
    """The observations' gates one by one, in order (the first failing one raises); returns the newest stamp."""
    newest = stamp
    for i, obs in enumerate(observations):
        plausible_observation(obs, i, gates)
        s = float(obs.stamp)
        plausible_stamp(s, f"observation {i}: stamp", wall_now, gates)
        if abs(s - stamp) > gates.max_frame_spread_s:
            raise ImplausibleInputError(
                f"observation {i}: stamp {s:.3f} is {abs(s - stamp):.0f} s from its frame's stamp {stamp:.3f}, "
                f"more than gates.max_frame_spread_s = {gates.max_frame_spread_s:g} s", "stamp_spread")
        newest = max(newest, s)
    return newest
