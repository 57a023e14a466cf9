"""From a planned camera frame to the images, masks and labels a camera plus segmenter would publish.

Why one function serves both passes: the ground truth (which objects a frame showed and reported) and
the bag (the images) must agree exactly, so both come from ``FrameRenderer.render`` with a random
stream keyed by the frame's plan index; rendering a frame twice gives identical bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import noise as nz
from .config import SceneConfig
from .features import identity_vector, observed_feature
from .render import PinholeCamera, RayCaster, look_pose
from .script import FramePlan, Script
from .world import CATALOG, CEILING_COLOR, FLOOR_COLOR, WALL_COLOR, World

# brightness of a face by its normal: 2*axis + (1 if the normal points to +axis)
FACE_SHADE = np.array([0.78, 0.78, 0.66, 0.66, 0.5, 1.0])


@dataclass(frozen=True)
class Instance:
    mask_id: int
    object_id: int | None          # None for a spurious detection
    label: str                     # as reported (possibly confused)
    confidence: float
    pixels: int                    # mask pixels after edge noise


@dataclass
class FrameRecord:
    """What the ground truth needs from one kept frame."""

    plan: FramePlan
    visible: dict[int, int]        # object id -> unoccluded pixels within range
    ghost: dict[int, int]          # small object id -> pixels it would cover with nothing in front
    probes: dict[int, int]         # removed object id -> visible pixels of its old box
    instances: list[Instance]
    published_position: tuple[float, float, float] = (0.0, 0.0, 0.0)     # jittered pose on /camera/pose
    published_quaternion: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)


@dataclass
class FrameProducts:
    record: FrameRecord
    rgb: np.ndarray | None         # (H, W, 3) uint8
    depth_mm: np.ndarray | None    # (H, W) uint16
    mask: np.ndarray               # (H, W) uint16
    features: np.ndarray | None    # (n instances, feature_dim) float32
    true_pose: np.ndarray          # 4x4 world-from-optical used for rendering


class FrameRenderer:
    def __init__(self, seed: int, attempt: int, config: SceneConfig, world: World, script: Script) -> None:
        self.seed, self.attempt, self.config = seed, attempt, config
        self.world, self.script = world, script
        self.noise = config.noise_config()
        self.camera = PinholeCamera(config.width, config.height, config.fx, config.fx, config.cx, config.cy)
        self.caster = RayCaster(self.camera)
        static = [(b, 0, WALL_COLOR) for b in world.walls]
        for f in world.furniture:
            obj = script.object(f.id)
            static += [(b, f.id, obj.color) for b in f.parts]
        self._static = static
        self._identity = {o.id: identity_vector(seed, attempt, o.id, o.label, config.feature_dim)
                          for o in script.objects} if config.feature_dim else {}
        self._removals = [(e.object_id, e.before.box, e.t_world_ns) for e in script.events if e.kind == "removed"]

    def _parts(self, stamp_ns: int):
        parts = list(self._static)
        for obj in self.script.objects:
            if obj.kind != "small":
                continue
            p = obj.placement_at(stamp_ns)
            if p is not None:
                parts.append((p.box, obj.id, obj.color))
        return parts

    def render(self, plan: FramePlan, decide_drop=None, images: bool = True) -> FrameProducts | None:
        """Render one frame; ``decide_drop(plan, visible, ghost)`` may veto it before any noise is drawn.

        images=False skips the colour and depth images (rgb and depth_mm are None): everything else,
        the record included, is identical to a full rendering.
        """
        cfg = self.config
        pose = look_pose(plan.position, plan.yaw, plan.pitch)
        parts = self._parts(plan.stamp_ns)
        lo = np.array([p[0].lo for p in parts], float)
        hi = np.array([p[0].hi for p in parts], float)
        owners = np.array([p[1] for p in parts], dtype=np.int64)
        probes = [(oid, box) for oid, box, t in self._removals if t <= plan.stamp_ns]
        plo = np.array([b.lo for _, b in probes], float).reshape(-1, 3)
        phi = np.array([b.hi for _, b in probes], float).reshape(-1, 3)
        geo = self.caster.cast(pose, self.world.envelope.lo, self.world.envelope.hi, lo, hi, plo, phi)
        in_range = geo.depth <= cfg.max_range
        owner_map = np.where(geo.part >= 0, owners[np.maximum(geo.part, 0)], 0)
        counts = np.bincount(owner_map[in_range & (owner_map > 0)], minlength=int(owners.max(initial=0)) + 1)
        visible = {int(i): int(c) for i, c in enumerate(counts) if c > 0}
        ghost = {}
        for k, (_, oid, _) in enumerate(parts):
            if oid and oid not in self.script.furniture:
                ghost[int(oid)] = int(geo.ghost[k])
        if decide_drop is not None and decide_drop(plan, visible, ghost):
            return None
        probe_px = {oid: int(n) for (oid, _), n in zip(probes, geo.probe_visible)}

        rng = np.random.default_rng([self.seed, self.attempt, 3, plan.index])
        nc = self.noise
        # detections: every object with enough visible pixels, unless missed
        detected = []
        for oid in sorted(visible):
            missed = rng.random() < nc.miss_prob
            if visible[oid] >= cfg.min_pixels and not missed:
                detected.append(oid)
        order = rng.permutation(len(detected)) + 1
        mask = np.zeros(geo.depth.shape, dtype=np.uint16)
        mask_ids = {}
        for oid, mid in zip(detected, order):
            mask[(owner_map == oid) & in_range] = mid
            mask_ids[oid] = int(mid)
        mask = nz.jitter_mask_edges(rng, mask, [mask_ids[o] for o in detected], nc.mask_edge_prob)
        instances = []
        feats: dict[int, np.ndarray] = {}   # mask id -> feature
        for oid in detected:
            obj = self.script.object(oid)
            label = nz.confuse_label(rng, obj.label, nc.confusion_prob)
            conf = round(float(rng.uniform(nc.confidence_min, nc.confidence_max)), 4)
            mid = mask_ids[oid]
            instances.append(Instance(mid, oid, label, conf, int((mask == mid).sum())))
            if cfg.feature_dim:
                feats[mid] = observed_feature(rng, self._identity[oid], nc.feature_sigma)
        if nc.spurious_prob > 0 and rng.random() < nc.spurious_prob:
            blob = nz.spurious_blob(rng, mask, cfg.width / 320.0)
            if blob is not None:
                mid = len(detected) + 1
                mask[blob] = mid
                labels = sorted(CATALOG)
                label = labels[int(rng.integers(0, len(labels)))]
                conf = round(float(rng.uniform(0.05, nz.SPURIOUS_MAX_CONFIDENCE)), 4)
                instances.append(Instance(mid, None, label, conf, int(blob.sum())))
                if cfg.feature_dim:
                    v = rng.standard_normal(cfg.feature_dim)
                    feats[mid] = (v / np.linalg.norm(v)).astype(np.float32)
        instances.sort(key=lambda i: i.mask_id)
        if cfg.feature_dim:
            features = np.stack([feats[i.mask_id] for i in instances]) if instances else \
                np.zeros((0, cfg.feature_dim), np.float32)
        else:
            features = None
        position, quat = nz.jitter_pose(rng, pose, nc)
        record = FrameRecord(plan, visible, ghost, probe_px, instances, position, quat)
        if not images:  # the bookkeeping pass: the image noise comes last in the stream, so skip it
            return FrameProducts(record, None, None, mask, features, pose)
        depth_mm = nz.noisy_depth_mm(rng, geo.depth, nc, cfg.max_range)
        rgb = self._shade(rng, geo, parts)
        return FrameProducts(record, rgb, depth_mm, mask, features, pose)

    def _shade(self, rng, geo, parts) -> np.ndarray:
        colors = np.array([p[2] for p in parts] + [WALL_COLOR, FLOOR_COLOR, CEILING_COLOR], dtype=np.float64)
        n = len(parts)
        idx = geo.part.copy()
        env = idx < 0
        # the envelope: floor (face 5, normal up), ceiling (face 4), walls otherwise
        idx[env] = np.where(geo.face[env] == 5, n + 1, np.where(geo.face[env] == 4, n + 2, n))
        rgb = colors[idx] * FACE_SHADE[geo.face][..., None]
        rgb = rgb / (1.0 + 0.05 * np.clip(geo.depth, 0, 50))[..., None] * 1.1
        if self.noise.rgb_sigma > 0:
            rgb = rgb + rng.standard_normal(rgb.shape) * self.noise.rgb_sigma
        return np.clip(np.rint(rgb), 0, 255).astype(np.uint8)
