"""Should the camera have seen this object? The test behind every "it is gone" the memory says.

Why so careful: declaring an object gone is the one mistake a robot memory must not make casually. An
object counts a miss only when its stored box is in front of the camera, inside the image, within the
trusted range, large enough in the image to be detected, and not hidden: the view's depth at its
pixels is not nearer than the object by more than a tolerance. Unknown depth (NaN, 0) never counts as
"seen empty". An object out of view or occluded is never counted, so looking away forgets nothing.

Samples: the centre and the eight corners of the box shrunk half-way to its centre (the object's silhouette
rarely fills its box; points half-way to the corners are likely on the object); the visible fraction is the
share of samples that pass every test. Occlusion is judged against
the nearest depth the object itself could present along each sample's ray: where the ray enters the
object's box. Something nearer than that hides the object; anything at or beyond it is the object or what
lies behind its empty place. Without this a large object occludes its own interior samples (a table top in
front of the box centre) and could never be missed; with a coarser rule (the box's nearest corner, or the
centre minus half the diagonal) a vase 13 cm in front of a bottle did not hide it, and the bottle was
declared gone on a patrol pass.

Detectable, as the perception decides it: the perception drops an instance whose mask, after a
``mask_erosion_px`` erosion, keeps fewer than ``min_object_pixels`` valid pixels. A box's projected
rectangle overstates that mask badly for thin objects seen at a grazing angle (a phone on a sofa seat:
its rectangle passed a 100-px floor while its eroded mask fell under the perception's 50 px, so the
memory counted as "seen empty" what the perception could never have reported). The expected mask is
estimated from the box's silhouette (the projected areas of its faces turned to the camera), times the
share of its projected rectangle that survives clipping to the image and the erosion, times ``mask_fill``
(objects rarely fill their box); the object counts
a miss only when that estimate clears ``detectable_factor`` x ``min_object_pixels`` and the
``min_projected_px`` floor.
"""

from __future__ import annotations

import numpy as np

from .config import AbsenceConfig
from .types import CameraView


_SIGNS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)


def min_expected_px(view: CameraView, cfg: AbsenceConfig) -> float:
    """Smallest expected eroded mask (full-resolution pixels) that counts: the configured floor, or
    detectable_factor x the smallest instance the pipeline reports, whichever is larger."""
    return max(cfg.min_projected_px, cfg.detectable_factor * float(view.min_object_pixels))


# Faces of a box as corner indices into _SIGNS (sx, sy, sz in {-1, 1}, index = 4 ix + 2 iy + iz), in
# cyclic order, with their outward axis and sign: used for the silhouette area.
_FACES = np.array([[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]])
_FACE_AXIS = np.array([0, 0, 1, 1, 2, 2])
_FACE_SIGN = np.array([-1.0, 1.0, -1.0, 1.0, -1.0, 1.0])


def expected_mask_px(view: CameraView, bmins: np.ndarray, bmaxs: np.ndarray, cfg: AbsenceConfig,
                     erosion_px: float) -> np.ndarray:
    """Pixels the perception would keep of each box's instance mask (estimate, see module docstring)."""
    bmins = np.asarray(bmins, float)
    bmaxs = np.asarray(bmaxs, float)
    n = len(bmins)
    if n == 0:
        return np.zeros(0)
    centre = 0.5 * (bmins + bmaxs)
    half = 0.5 * (bmaxs - bmins)
    rot, origin = view.pose[:3, :3], view.pose[:3, 3]
    corners = (centre[:, None, :] + _SIGNS[None, :, :] * half[:, None, :] - origin) @ rot   # N x 8 x 3
    z = np.maximum(corners[..., 2], cfg.min_range)
    u = view.fx * corners[..., 0] / z + view.cx
    v = view.fy * corners[..., 1] / z + view.cy
    # faces turned to the camera: the camera lies on the outer side of the face's plane
    cam_world = origin[None, :]
    face_coord = np.where(_FACE_SIGN[None, :] > 0, bmaxs[:, _FACE_AXIS], bmins[:, _FACE_AXIS])      # N x 6
    facing = (cam_world[:, _FACE_AXIS] - face_coord) * _FACE_SIGN[None, :] > 0
    fu, fv = u[:, _FACES], v[:, _FACES]                                                              # N x 6 x 4
    shoelace = 0.5 * np.abs((fu * np.roll(fv, -1, axis=2) - np.roll(fu, -1, axis=2) * fv).sum(axis=2))
    silhouette = (shoelace * facing).sum(axis=1)
    # truncation: keep the share of the projected rectangle that lies inside the image
    u0, u1, v0, v1 = u.min(axis=1), u.max(axis=1), v.min(axis=1), v.max(axis=1)
    w, h = np.maximum(u1 - u0, 1e-9), np.maximum(v1 - v0, 1e-9)
    cw = np.clip(u1, 0, view.width) - np.clip(u0, 0, view.width)
    ch = np.clip(v1, 0, view.height) - np.clip(v0, 0, view.height)
    # erosion peels a ring: on a w x h rectangle it keeps (w - 2e)(h - 2e) of w h
    kept = np.maximum(cw - 2 * erosion_px, 0.0) * np.maximum(ch - 2 * erosion_px, 0.0) / (w * h)
    out = cfg.mask_fill * silhouette * kept
    out[np.all(corners[..., 2] <= cfg.min_range, axis=1)] = 0.0
    return np.maximum(out, 0.0)


def projected_depth(view: CameraView, points: np.ndarray, cfg: AbsenceConfig, mask: np.ndarray | None = None):
    """Points (... x 3, world) through the camera: their depth z along the optical axis, pixel u, v, which of them
    the view can judge (in range, inside the image's margin, and ``mask``), and the view's depth at each one's
    pixel (its depth block's; block 0, 0 for those not judged)."""
    rot, origin = view.pose[:3, :3], view.pose[:3, 3]
    cam = (points - origin) @ rot
    z = cam[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        u = view.fx * cam[..., 0] / z + view.cx
        v = view.fy * cam[..., 1] / z + view.cy
    m = cfg.image_margin_px
    ok = (z > cfg.min_range) & (z <= view.max_range) & (u >= m) & (u <= view.width - m) & (v >= m) \
        & (v <= view.height - m)
    if mask is not None:
        ok = ok & mask
    dh, dw = view.depth.shape
    col = np.clip((np.where(ok, u, 0) * (dw / float(view.width))).astype(int), 0, dw - 1)
    row = np.clip((np.where(ok, v, 0) * (dh / float(view.height))).astype(int), 0, dh - 1)
    d = view.depth[row, col].astype(float)
    return z, u, v, ok, d


def visible_fractions(view: CameraView, bmins: np.ndarray, bmaxs: np.ndarray, cfg: AbsenceConfig,
                      erosion_px: float = 1.0, claims: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                      detectable: np.ndarray | None = None) -> np.ndarray:
    """visible_fraction for N boxes at once (N x 3 corners): one vectorised pass per camera view.

    ``claims``: (lows, highs, may_claim): the boxes (S x 3 each) of the instances the perception reported in this
    view and which of them may hold each object's surfaces (N x S bool); a sample whose surface lies at the object's
    place inside a box that may claim it is not seen (claimed_surface).

    ``detectable`` (N bool): which objects the perception would report in this view; None: those whose expected
    mask clears the floor (expected_mask_px). The fuser passes its own where a sighting from near this camera
    vouches for an object the estimate calls too small (reported_views.py)."""
    n = len(bmins)
    out = np.zeros(n)
    if n == 0 or view.depth is None or view.depth.size == 0:
        return out
    bmins = np.asarray(bmins, float)
    bmaxs = np.asarray(bmaxs, float)
    centre = 0.5 * (bmins + bmaxs)
    half = 0.5 * (bmaxs - bmins)
    origin = view.pose[:3, 3]
    if detectable is None:
        detectable = expected_mask_px(view, bmins, bmaxs, cfg, erosion_px) >= min_expected_px(view, cfg)
    detectable = np.asarray(detectable, bool)
    # Samples (N x 9 x 3): the centre and the corners shrunk half-way to it.
    samples = np.concatenate([centre[:, None, :], centre[:, None, :] + 0.5 * _SIGNS[None, :, :] * half[:, None, :]],
                             axis=1)
    z, u, v, ok, d = projected_depth(view, samples, cfg, detectable[:, None])
    # where each sample's ray enters the box (slab test along origin -> sample, the sample being inside)
    step = samples - origin
    step = np.where(np.abs(step) < 1e-12, 1e-12, step)
    t_lo = (bmins[:, None, :] - origin) / step
    t_hi = (bmaxs[:, None, :] - origin) / step
    entry = np.clip(np.minimum(t_lo, t_hi).max(axis=2), 0.0, 1.0)
    reference = entry * z
    known = np.isfinite(d) & (d > 0.0)  # unknown depth is never evidence of absence
    visible = ok & known & (d >= reference - cfg.occlusion_tolerance)
    if visible.any() and (cfg.edge_pose_deg > 0 or cfg.edge_place_m > 0):
        visible &= ~hidden_near_edge(view, u, v, z, reference, bmins[:, 2], visible, cfg)
    if claims is not None and len(claims[0]) and visible.any():
        surface = origin + step * (np.where(visible, d, 0.0) / np.where(np.abs(z) < 1e-12, 1e-12, z))[..., None]
        behind = d > np.maximum(t_lo, t_hi).min(axis=2) * z   # beyond where the sample's ray leaves the box
        visible &= ~claimed_surface(surface, bmins, bmaxs, claims[0], claims[1], cfg.occlusion_tolerance,
                                    claims[2], behind)
    out[:] = visible.sum(axis=1) / samples.shape[1]
    return out


def hidden_near_edge(view: CameraView, u: np.ndarray, v: np.ndarray, z: np.ndarray, reference: np.ndarray,
                     bottom: np.ndarray, judged: np.ndarray, cfg: AbsenceConfig) -> np.ndarray:
    """Which samples (N x K, of those ``judged`` visible) have, within the expected error of their projection, a
    surface nearer than the object's front that stands above its bottom: the object may be hidden behind it.

    Why: the depth is judged per 8 x 8 block, and a sample's pixel is only as good as the camera's pose and the
    stored box. An object just behind an occluder's edge projects, 2-6 px off, into the blocks beside the edge,
    which read the wall or shelf behind the occluder: "seen, nothing there" for a thing 92-100 % hidden (h460
    seeds 465, 467, default: 3 of 5 false removals). A blanket one-block dilation of the depth cleared those
    frames but took a true removal's (a cup's) visible share under the threshold, so the reach scales with the
    expected error in pixels: ``fx`` x (tan ``edge_pose_deg`` (orientation) + ``edge_place_m`` / depth (the
    camera's and the box's place)), wide at 1 m, a few pixels at 4 m. A nearer surface at or under the object's
    bottom (+ occlusion_tolerance) is what it stands on seen in front of it (a table top below a cup), never an
    occluder."""
    out = np.zeros(u.shape, bool)
    if not judged.any():
        return out
    reach = view.fx * (np.tan(np.radians(cfg.edge_pose_deg)) + cfg.edge_place_m / np.maximum(z, cfg.min_range))
    reach = np.where(judged, reach, 0.0)
    dh, dw = view.depth.shape
    bw, bh = view.width / float(dw), view.height / float(dh)   # a depth block's size in pixels
    widest = float(reach.max())
    steps = int(min(3, np.ceil(widest / bw))) if widest > 0 else 0
    if steps == 0:
        return out
    rot, origin = view.pose[:3, :3], view.pose[:3, 3]
    front = reference - cfg.occlusion_tolerance
    # how far a block's height at a given depth spans, per metre of depth, half each way from its centre
    spread = 0.5 * (abs(rot[2, 0]) * bw / view.fx + abs(rot[2, 1]) * bh / view.fy)
    # every probe at once (P x N x K): the offsets of a (2 steps + 1)^2 grid, its centre left out
    grid = [(i / steps, j / steps) for i in range(-steps, steps + 1) for j in range(-steps, steps + 1) if i or j]
    fi, fj = (np.array(c)[:, None, None] for c in zip(*grid))
    uu = np.clip(np.where(judged, u, 0)[None] + reach[None] * fi, 0, view.width - 1e-6)
    vv = np.clip(np.where(judged, v, 0)[None] + reach[None] * fj, 0, view.height - 1e-6)
    col = np.clip((uu * (dw / float(view.width))).astype(int), 0, dw - 1)
    row = np.clip((vv * (dh / float(view.height))).astype(int), 0, dh - 1)
    dn = view.depth[row, col].astype(float)
    near = judged[None] & np.isfinite(dn) & (dn > 0.0) & (dn < front[None])
    if not near.any():
        return out
    # the block's depth is its MINIMUM (perception/view.py), taken at any of its pixels: the surface's lowest
    # possible height over the block, not the height at the probe's pixel. A table top in front of a thing nearest
    # at its block's bottom row, read at a probe 7 px above it, rose 8 cm at 3 m (256 px focal length) over the
    # tolerance: a 20 cm bottle on a table at 2.75-3.75 m in plain view was 0.56 seen instead of 1.0, never missed.
    dz = np.where(near, dn, 0.0)
    up = rot[2, 0] * ((col + 0.5) * bw - view.cx) / view.fx + rot[2, 1] * ((row + 0.5) * bh - view.cy) / view.fy \
        + rot[2, 2]
    height = origin[2] + dz * up - dz * spread
    out = (near & (height > bottom[None, :, None] + cfg.occlusion_tolerance)).any(axis=0)
    return out


def claimed_surface(surface: np.ndarray, bmins: np.ndarray, bmaxs: np.ndarray, claim_lo: np.ndarray,
                    claim_hi: np.ndarray, tol: float, may_claim: np.ndarray | None = None,
                    behind: np.ndarray | None = None) -> np.ndarray:
    """Which sample surfaces (N x K x 3: the point the depth shows along each sample's ray) lie at the object's
    place, above what it stands on, and inside the box of an instance the perception reported in the same view
    (of those ``may_claim`` allows for each object, N x S bool; all when None).

    Why: the perception gives each pixel to one instance. A surface at the object's place (within ``tol`` of its
    box: the depth test lets the object's own front read up to ``tol`` nearer) that belongs to another reported
    instance is that thing's, standing where the object stands: the object could not have been reported there,
    so the view saw neither it nor its place empty. A surface behind the place is seen through it (the back of a
    shelf), and one at or under the object's bottom (+ ``tol``) is what it stands on (a table top, a shelf's
    board), so neither is claimed. Seed 343 (no feature): a bottle moved onto a shelf inside the place of a plant
    moved back beside it, hidden in the plant's foliage (no pixel of it reported), counted 5 misses in two looks
    where the depth at its samples read leaves within 5 cm of its front; removed, and a new vase joined as its move.

    ``behind`` (N x K bool): the surfaces beyond where each sample's ray leaves the box, never claimed however near:
    a bottle standing 1-5 cm before a shelf's back, taken away, showed the back within ``tol`` of its box, inside
    the shelf's reported box: every sample was claimed and the bottle was never removed.
    """
    lo, hi = bmins[:, None, :], bmaxs[:, None, :]
    at_place = np.all((surface >= lo - tol) & (surface <= hi + tol), axis=2) \
        & (surface[..., 2] > bmins[:, None, 2] + tol)
    if behind is not None:
        at_place &= ~behind
    if not at_place.any():
        return at_place
    pts = surface[at_place]                                                        # P x 3
    inside = np.all((pts[:, None, :] >= claim_lo[None]) & (pts[:, None, :] <= claim_hi[None]), axis=2)  # P x S
    if may_claim is not None:
        inside &= np.broadcast_to(np.asarray(may_claim, bool)[:, None, :], at_place.shape + (len(claim_lo),))[at_place]
    inside = inside.any(axis=1)
    out = np.zeros_like(at_place)
    out[at_place] = inside
    return out


# Lattice of a box (fractions along each axis) for the "vacated" test: 27 points, none on the box's faces.
_LATTICE = np.array([[fx, fy, fz] for fx in (0.15, 0.5, 0.85) for fy in (0.15, 0.5, 0.85) for fz in (0.15, 0.5, 0.85)])


def vacated(view: CameraView, old_lo, old_hi, new_lo, new_hi, cfg: AbsenceConfig, *, pad: float = 0.03,
            min_samples: int = 5, min_share: float = 0.6) -> bool:
    """Whether this view saw through the part of an object's old box that its new sighting does not cover.

    Why: a large object seen again a little off its place may be another part of it (a sofa seen end-on)
    or the object pushed aside (a chair moved 0.9 m and turned). The sighting's box holds every part of the
    object the camera saw; a point of the old box outside it that the view sees through (depth at its pixel
    not nearer than the point) is empty space, while a part hidden behind something or behind the object
    itself reads nearer and proves nothing. Moved when at least ``min_share`` of the points of the old box
    outside the new one (grown by ``pad``) that the view can judge are seen through, and at least
    ``min_samples`` could be judged.
    """
    if view.depth is None or view.depth.size == 0:
        return False
    lo, hi = np.asarray(old_lo, float), np.asarray(old_hi, float)
    pts = lo + _LATTICE * (hi - lo)
    nlo, nhi = np.asarray(new_lo, float) - pad, np.asarray(new_hi, float) + pad
    outside = ~np.all((pts >= nlo) & (pts <= nhi), axis=1)
    pts = pts[outside]
    if len(pts) < min_samples:
        return False
    z, u, v, ok, d = projected_depth(view, pts, cfg)
    judged = ok & np.isfinite(d) & (d > 0.0)
    n = int(judged.sum())
    if n < min_samples:
        return False
    through = judged & (d >= z - cfg.occlusion_tolerance)
    return int(through.sum()) >= min_share * n
