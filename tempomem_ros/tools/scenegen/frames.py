"""From a planned camera frame to the images, masks and labels a camera plus segmenter would publish.

Why one function serves both passes: the ground truth (which objects a frame showed and reported) and
the bag (the images) must agree exactly, so both come from ``FrameRenderer.render`` with random streams
keyed by the frame's plan index; rendering a frame twice gives identical bytes. Separate streams for the
detections, the depth noise, the colour noise, the pose jitter and the features mean that the feature
profile never changes what is detected: the same seed gives the same detections in every profile.

Why the perception is emulated here: the memory only ever sees what the perception node turns into an
observation. An instance is *kept* when the node's rule (``min_mask_pixels`` valid depth pixels, after
a ``mask_erosion_px`` erosion unless that would erase a thin object; ``tempomem_ros.perception``'s
defaults, with min_mask_pixels scaled to the image area) keeps it, computed on the very depth image
and mask written to the bag. The ground truth counts an object as seen only in frames where it was
reported AND kept.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tempomem_ros.perception import PerceptionConfig, erode_mask

from . import detection as det
from . import noise as nz
from .colour import apply_palettes, frame_gain
from .config import SceneConfig
from .features import ClipLike, identity_vector, observed_feature
from .render import PinholeCamera, RayCaster, look_pose
from .script import FramePlan, Script
from .world import CEILING_COLOR, FLOOR_COLOR, WALL_COLOR, World

# brightness of a face by its normal: 2*axis + (1 if the normal points to +axis)
FACE_SHADE = np.array([0.78, 0.78, 0.66, 0.66, 0.5, 1.0])
PERCEPTION = PerceptionConfig()     # the node defaults: erosion, depth validity (min_mask_pixels is scaled)
PROBE_SHOWN = 0.5                   # an empty place counts as shown when an object there would be reported
#                                     with at least this probability


@dataclass(frozen=True)
class Instance:
    mask_id: int
    object_id: int | None          # None for a spurious detection or a reflection
    label: str                     # as reported (possibly confused)
    confidence: float
    pixels: int                    # mask pixels after edge noise
    kept: bool = True              # the perception (node defaults) turns it into an observation
    kind: str = "object"           # object | spurious | reflection
    part: int | None = None        # part group, when a multi-part object is reported in parts
    p_detect: float = 1.0          # the detection model's probability for this view (objects)


@dataclass
class FrameRecord:
    """What the ground truth needs from one kept frame."""

    plan: FramePlan
    visible: dict[int, int]        # object id -> unoccluded pixels within range
    ghost: dict[int, int]          # object id -> pixels its boxes would cover with nothing in front
    probes: dict[int, int]         # removed object id -> visible pixels of its old box
    instances: list[Instance]
    published_position: tuple[float, float, float] = (0.0, 0.0, 0.0)     # jittered pose on /camera/pose
    published_quaternion: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)
    probe_shown: dict[int, bool] | None = None   # removed object id -> would an object there be reported

    def detected(self, oid: int) -> bool:
        """Reported by the segmenter and kept by the perception."""
        return any(i.object_id == oid and i.kept for i in self.instances)


@dataclass
class FrameProducts:
    record: FrameRecord
    rgb: np.ndarray | None         # (H, W, 3) uint8
    depth_mm: np.ndarray | None    # (H, W) uint16
    mask: np.ndarray               # (H, W) uint16
    features: np.ndarray | None    # (n instances, feature_dim) float32
    true_pose: np.ndarray          # 4x4 world-from-optical used for rendering


@dataclass(frozen=True)
class Reflection:
    start: int                     # plan index of the first frame
    frames: tuple[int, ...]        # plan indices it shows in
    u: float
    v: float
    radius_m: float
    label: str
    confidence: float


def kept_by_perception(depth_mm: np.ndarray, mask: np.ndarray, min_pixels: int,
                       config: PerceptionConfig = PERCEPTION) -> dict[int, tuple[bool, int]]:
    """mask id -> (kept, valid pixels used): the perception's instance-size rule (extract.py) on one frame.

    The perception's depth-edge trim (``depth_edge_step``) is not emulated: it applies only when the piece
    it keeps has at least ``min_pixels``, so it never changes which instances are kept (only which of their
    pixels are used; ``used`` counts the pixels before the trim)."""
    z = depth_mm.astype(np.float64) * config.depth_unit_16u
    valid = (z > config.min_depth) & (z <= config.max_depth)
    n = int(mask.max(initial=0)) + 1
    total = np.bincount(mask.reshape(-1), minlength=n)
    uneroded = np.bincount(mask[valid], minlength=n)
    if config.mask_erosion_px:
        er = erode_mask(mask, config.mask_erosion_px)
        eroded = np.bincount(er[valid], minlength=n)
    out = {}
    for mid in range(1, n):
        if total[mid] == 0:
            continue
        used = int(uneroded[mid])
        if config.mask_erosion_px and (eroded[mid] >= min_pixels or 2 * uneroded[mid] < total[mid]):
            used = int(eroded[mid])
        out[mid] = (used >= min_pixels, used)
    return out


class FrameRenderer:
    def __init__(self, seed: int, attempt: int, config: SceneConfig, world: World, script: Script) -> None:
        self.seed, self.attempt, self.config = seed, attempt, config
        self.world, self.script = world, script
        self.noise = config.noise_config()
        apply_palettes(seed, attempt, script.objects, self.noise)   # realism preset only; idempotent
        self.camera = PinholeCamera(config.width, config.height, config.fx, config.fx, config.cx, config.cy)
        self.caster = RayCaster(self.camera)
        self._objects = {o.id: o for o in script.objects}
        self._identity = {o.id: identity_vector(seed, attempt, o.id, o.label, config.feature_dim)
                          for o in script.objects} if config.profile == "oracle" else {}
        self._clip = ClipLike(seed, attempt, config.feature_dim) if config.profile == "clip" else None
        self._removals = [(e.object_id, e.before.box, e.t_world_ns) for e in script.events if e.kind == "removed"]
        self._plans = {f.index: f for f in script.frames}
        self._reflections = self._plan_reflections()

    def _plan_reflections(self) -> dict[int, list[Reflection]]:
        """Reflections start in a frame with probability reflection_prob and last 2-3 frames of its run."""
        out: dict[int, list[Reflection]] = {}
        nc = self.noise
        if nc.reflection_prob <= 0:
            return out
        rng = np.random.default_rng([self.seed, self.attempt, 7])
        frames = self.script.frames
        cfg = self.config
        for i, plan in enumerate(frames):
            if rng.random() >= nc.reflection_prob:
                continue
            n = int(rng.integers(2, 4))
            run = [f.index for f in frames[i:i + n] if f.run_key == plan.run_key]
            r = Reflection(plan.index, tuple(run), float(rng.uniform(0.1, 0.9) * cfg.width),
                           float(rng.uniform(0.1, 0.9) * cfg.height), float(rng.uniform(0.04, 0.12)),
                           det.REFLECTION_LABELS[int(rng.integers(0, len(det.REFLECTION_LABELS)))],
                           float(rng.uniform(0.3, 0.6)))
            for k in run:
                out.setdefault(k, []).append(r)
        return out

    def _parts(self, stamp_ns: int):
        """(box, owner id, colour, part group) of everything rendered at a time; walls have owner 0."""
        parts = [(b, 0, WALL_COLOR, 0) for b in self.world.walls]
        for obj in self.script.objects:
            p = obj.placement_at(stamp_ns)
            if p is None:
                continue
            boxes, groups = p.render_parts()
            for k, (b, g) in enumerate(zip(boxes, groups)):
                color = obj.color if g == 0 or obj.kind == "furniture" else tuple(int(c * 0.35) for c in obj.color)
                parts.append((b, obj.id, color, g))
        return parts

    def _reflection_point(self, r: Reflection) -> np.ndarray:
        plan = self._plans[r.start]
        parts = self._parts(plan.stamp_ns)
        lo = np.array([p[0].lo for p in parts], float).reshape(-1, 3)
        hi = np.array([p[0].hi for p in parts], float).reshape(-1, 3)
        pose = look_pose(plan.position, plan.yaw, plan.pitch)
        return self.caster.cast_ray(pose, r.u, r.v, self.world.envelope.lo, self.world.envelope.hi, lo, hi)

    def render(self, plan: FramePlan, decide_drop=None, images: bool = True) -> FrameProducts | None:
        """Render one frame; ``decide_drop(plan, visible, ghost)`` may veto it before any noise is drawn.

        images=False skips the colour image (rgb is None): everything else, the record included, is
        identical to a full rendering.
        """
        cfg = self.config
        nc = self.noise
        pose = look_pose(plan.position, plan.yaw, plan.pitch)
        parts = self._parts(plan.stamp_ns)
        lo = np.array([p[0].lo for p in parts], float).reshape(-1, 3)
        hi = np.array([p[0].hi for p in parts], float).reshape(-1, 3)
        owners = np.array([p[1] for p in parts], dtype=np.int64)
        groups = np.array([p[3] for p in parts], dtype=np.int64)
        probes = [(oid, box) for oid, box, t in self._removals if t <= plan.stamp_ns]
        plo = np.array([b.lo for _, b in probes], float).reshape(-1, 3)
        phi = np.array([b.hi for _, b in probes], float).reshape(-1, 3)
        geo = self.caster.cast(pose, self.world.envelope.lo, self.world.envelope.hi, lo, hi, plo, phi, owners)
        in_range = geo.depth <= cfg.max_range
        hit = geo.part >= 0
        owner_map = np.where(hit, owners[np.maximum(geo.part, 0)], 0)
        group_map = np.where(hit, groups[np.maximum(geo.part, 0)], 0)
        n_owner = int(owners.max(initial=0)) + 1
        counts = np.bincount(owner_map[in_range & (owner_map > 0)], minlength=n_owner)
        counts_all = np.bincount(owner_map[owner_map > 0], minlength=n_owner)
        visible = {int(i): int(c) for i, c in enumerate(counts) if c > 0}
        ghost = {int(o): int(n) for o, n in (geo.ghost_union or {}).items() if o}
        if decide_drop is not None and decide_drop(plan, visible, ghost):
            return None

        fx, fy, cx, cy, W, H = cfg.fx, cfg.fx, cfg.cx, cfg.cy, cfg.width, cfg.height
        scale = cfg.pixel_scale
        cam_xy = plan.position[:2]

        def view_terms(box, vis_px, ghost_px):
            cut = det.truncation(pose, fx, fy, cx, cy, W, H, box.lo, box.hi)
            hidden = 1.0 - vis_px / ghost_px if ghost_px > 0 else 1.0
            z = float((np.asarray(box.center) - pose[:3, 3]) @ pose[:3, 2])
            return cut, max(0.0, hidden), z

        probe_px = {oid: int(n) for (oid, _), n in zip(probes, geo.probe_visible)}
        probe_shown = {}
        for (oid, box), nv, ng in zip(probes, geo.probe_visible, geo.probe_ghost):
            cut, hidden, z = view_terms(box, int(nv), int(ng))
            p = det.detection_probability(nv * scale, z, cut, hidden, nc) if nv >= cfg.min_pixels else 0.0
            probe_shown[oid] = bool(p >= PROBE_SHOWN and z <= PERCEPTION.max_depth)

        rng = np.random.default_rng([self.seed, self.attempt, 3, plan.index])
        # ---- which objects the segmenter reports, in parts or whole, under which label
        specs = []      # (pixel selection, object id, label, confidence, kind, part, p_detect, partial share)
        for oid in sorted(visible):
            obj = self._objects.get(oid)
            if obj is None or visible[oid] < cfg.min_pixels:
                continue
            placement = obj.placement_at(plan.stamp_ns)
            cut, hidden, z = view_terms(placement.box, counts_all[oid], ghost.get(oid, counts_all[oid]))
            p = det.detection_probability(visible[oid] * scale, z, cut, hidden, nc) if nc.detection_model else 1.0
            u = rng.random()
            if u >= p:
                continue
            sector = det.view_sector(cam_xy, placement.box.center[:2])
            wrong, split = det.run_label(self.seed, self.attempt, oid, obj.label, sector, plan.run_key, nc)
            label, confused = obj.label, False
            if wrong is not None and rng.random() < nc.persistent_keep:
                label, confused = wrong, True
            elif nc.confusion_prob > 0 and rng.random() < nc.confusion_prob:
                alt = det.look_alike(rng, obj.label)
                if alt is not None:
                    label, confused = alt, True
            conf = det.confidence(rng, p, nc, confused)
            sel = (owner_map == oid) & in_range
            part_groups = sorted(set(placement.render_parts()[1]))
            if split and len(part_groups) > 1:
                for g in part_groups:
                    gsel = sel & (group_map == g)
                    if int(gsel.sum()) >= cfg.min_pixels:
                        specs.append((gsel, oid, label, conf, "object", g, p, cut + hidden + 0.5))
            else:
                specs.append((sel, oid, label, conf, "object", None, p, cut + hidden))
        mask = np.zeros(geo.depth.shape, dtype=np.uint16)
        for k, spec in enumerate(specs):
            mask[spec[0]] = k + 1
        mask = nz.jitter_mask_edges(rng, mask, list(range(1, len(specs) + 1)), nc.mask_edge_prob)
        if nc.mask_bleed_prob > 0:   # realism preset: its own stream, so the streams above are not shifted
            mask = nz.bleed_mask_edges(np.random.default_rng([self.seed, self.attempt, 23, plan.index]), mask,
                                       list(range(1, len(specs) + 1)), nc, cfg.width / 640.0)
        # ---- what it hallucinates
        extra = []      # (selection, label, confidence, kind)
        if nc.spurious_prob > 0 and rng.random() < nc.spurious_prob:
            blob = det.spurious_blob(rng, mask, cfg.width / 320.0)
            if blob is not None:
                label = det.SPURIOUS_LABELS[int(rng.integers(0, len(det.SPURIOUS_LABELS)))]
                extra.append((blob, label, round(float(rng.uniform(0.05, det.SPURIOUS_MAX_CONFIDENCE)), 4),
                              "spurious"))
        if nc.spurious_high_prob > 0 and rng.random() < nc.spurious_high_prob:
            blob = det.spurious_blob(rng, mask, cfg.width / 320.0)
            if blob is not None:
                label = det.SPURIOUS_LABELS[int(rng.integers(0, len(det.SPURIOUS_LABELS)))]
                extra.append((blob, label, round(float(rng.uniform(*det.SPURIOUS_HIGH_CONFIDENCE)), 4), "spurious"))
        for r in self._reflections.get(plan.index, []):
            point = self._reflection_point(r)
            pc = (point - pose[:3, 3]) @ pose[:3, :3]
            if pc[2] <= 0.2:
                continue
            u, v = fx * pc[0] / pc[2] + cx, fy * pc[1] / pc[2] + cy
            if not (0 <= u < W - 0.5 and 0 <= v < H - 0.5) or geo.depth[int(round(v)), int(round(u))] < pc[2] - 0.05:
                continue
            blob = det.spurious_blob(rng, mask, 1.0, center=(u, v), radius_px=r.radius_m * fx / pc[2])
            if blob is not None:
                extra.append((blob, r.label, round(r.confidence * float(rng.uniform(0.9, 1.1)), 4), "reflection"))
        for k, (blob, *_rest) in enumerate(extra):
            mask[blob & (mask == 0)] = len(specs) + k + 1
        # ---- ids as a segmenter assigns them: a fresh order every frame (nothing persists across frames)
        n = len(specs) + len(extra)
        order = rng.permutation(n) + 1
        lut = np.zeros(n + 1, dtype=np.uint16)
        lut[1:] = order
        mask = lut[mask]
        position, quat = nz.jitter_pose(np.random.default_rng([self.seed, self.attempt, 15, plan.index]), pose, nc)
        depth_mm = nz.noisy_depth_mm(np.random.default_rng([self.seed, self.attempt, 6, plan.index]), geo.depth, nc,
                                     cfg.max_range)
        kept = kept_by_perception(depth_mm, mask, cfg.perception_min_pixels)
        pixel_counts = np.bincount(mask.reshape(-1), minlength=n + 1)
        instances = []
        feats: dict[int, np.ndarray] = {}
        frng = np.random.default_rng([self.seed, self.attempt, 14, plan.index])
        for k, (sel, oid, label, conf, kind, part, p, partial) in enumerate(specs):
            mid = int(order[k])
            if pixel_counts[mid] == 0:
                continue
            instances.append(Instance(mid, oid, label, conf, int(pixel_counts[mid]), kept.get(mid, (False, 0))[0],
                                      kind, part, round(float(p), 3)))
            feats[mid] = self._feature(frng, oid, plan, partial)
        for k, (blob, label, conf, kind) in enumerate(extra):
            mid = int(order[len(specs) + k])
            if pixel_counts[mid] == 0:
                continue
            instances.append(Instance(mid, None, label, conf, int(pixel_counts[mid]), kept.get(mid, (False, 0))[0],
                                      kind))
            feats[mid] = self._feature(frng, None, plan, 0.0)
        instances.sort(key=lambda i: i.mask_id)
        if cfg.feature_dim:
            features = np.stack([feats[i.mask_id] for i in instances]) if instances else \
                np.zeros((0, cfg.feature_dim), np.float32)
        else:
            features = None
        record = FrameRecord(plan, visible, ghost, probe_px, instances, position, quat, probe_shown)
        if not images:  # the bookkeeping pass: no colour image
            return FrameProducts(record, None, depth_mm, mask, features, pose)
        gain = frame_gain(self.seed, self.attempt, plan.run_key, plan.index, nc)
        rgb = self._shade(np.random.default_rng([self.seed, self.attempt, 10, plan.index]), geo, parts, gain)
        return FrameProducts(record, rgb, depth_mm, mask, features, pose)

    def _feature(self, rng, oid: int | None, plan: FramePlan, partial: float) -> np.ndarray | None:
        cfg = self.config
        if not cfg.feature_dim:
            return None
        if cfg.profile == "oracle":
            if oid is None:
                v = rng.standard_normal(cfg.feature_dim)
                return (v / np.linalg.norm(v)).astype(np.float32)
            return observed_feature(rng, self._identity[oid], self.noise.feature_sigma)
        if oid is None:
            return self._clip.spurious(rng)
        obj = self._objects[oid]
        c = obj.placement_at(plan.stamp_ns).box.center
        azimuth = math.atan2(plan.position[1] - c[1], plan.position[0] - c[0])
        return self._clip.feature(rng, oid, obj.label, azimuth, partial)

    def _shade(self, rng, geo, parts, gain: np.ndarray | None = None) -> np.ndarray:
        colors = np.array([p[2] for p in parts] + [WALL_COLOR, FLOOR_COLOR, CEILING_COLOR], dtype=np.float64)
        n = len(parts)
        idx = geo.part.copy()
        env = idx < 0
        # the envelope: floor (face 5, normal up), ceiling (face 4), walls otherwise
        idx[env] = np.where(geo.face[env] == 5, n + 1, np.where(geo.face[env] == 4, n + 2, n))
        rgb = colors[idx] * FACE_SHADE[geo.face][..., None]
        rgb = rgb / (1.0 + 0.05 * np.clip(geo.depth, 0, 50))[..., None] * 1.1
        if gain is not None:   # realism preset: white balance and exposure of the visit, flicker of the frame
            rgb = rgb * gain
        if self.noise.rgb_sigma > 0:
            rgb = rgb + rng.standard_normal(rgb.shape) * self.noise.rgb_sigma
        return np.clip(np.rint(rgb), 0, 255).astype(np.uint8)
