"""What a real instance segmenter reports for what the camera sees: who is detected, under which label,
with which confidence, and what it hallucinates.

Why each part exists (each is a failure the memory met with real detectors, see issue 11):

- **Misses depend on the view.** A segmenter rarely reports a 30-px sliver and almost always reports a
  large, unoccluded object. The probability of a report is
  ``(1 - miss_prob) * size * range * truncation * occlusion`` with
  size = logistic(log(px / size50_px) / size_width) in 640x480-equivalent pixels (30 px: 0.15, 60 px: 0.5,
  200 px: 0.95, 400 px: 0.99), range = 1 - range_slope per metre beyond range_start_m (floor 0.5),
  truncation = 1 - w * cut^1.5 (cut = share of the object's projection outside the image),
  occlusion = 1 - w * hidden^2 (hidden = share of its unobstructed projection covered by nearer things).
- **Label confusion persists.** A mug seen from one side may look like a cup in every frame from that
  side: per object x view sector (4 x 90 deg around it) x visit or patrol pass, with probability
  ``persistent_confusion_prob`` x the label's confusability, the segmenter prefers one look-alike label
  (kept in each frame with probability ``persistent_keep``, so it comes in runs); besides, any frame
  flips to a look-alike with ``confusion_prob``. Wrong labels come with lower confidences.
- **Look-alikes** (LOOK_ALIKES) are plausible confusions of the catalogue, including labels the catalogue
  does not contain (couch, desk, cushion, notebook, ...).
- **Spurious blobs**: mostly low confidence (below the memory's 0.30 rejection threshold), some above it,
  and occasionally a reflection: a blob anchored at one place in the world, repeated for 2-3 frames.
"""

from __future__ import annotations

import math

import numpy as np

from .config import NoiseConfig

#: label -> [(look-alike, weight)]; a look-alike need not be in the catalogue.
LOOK_ALIKES: dict[str, list[tuple[str, float]]] = {
    "mug": [("cup", 0.8), ("bowl", 0.1), ("vase", 0.1)],
    "cup": [("mug", 0.8), ("glass", 0.2)],
    "bottle": [("vase", 0.7), ("cup", 0.3)],
    "vase": [("bottle", 0.6), ("plant", 0.2), ("mug", 0.2)],
    "remote": [("phone", 0.7), ("calculator", 0.3)],
    "phone": [("remote", 0.6), ("wallet", 0.2), ("tablet", 0.2)],
    "wallet": [("phone", 0.5), ("purse", 0.5)],
    "keys": [("wallet", 0.4), ("glasses", 0.3), ("toy", 0.3)],
    "glasses": [("keys", 0.4), ("remote", 0.3), ("toy", 0.3)],
    "book": [("notebook", 0.4), ("laptop", 0.3), ("box", 0.3)],
    "laptop": [("book", 0.4), ("keyboard", 0.3), ("tablet", 0.3)],
    "bowl": [("cup", 0.4), ("basket", 0.3), ("plate", 0.3)],
    "basket": [("box", 0.7), ("bowl", 0.3)],
    "plant": [("vase", 0.6), ("flower", 0.4)],
    "pillow": [("cushion", 0.7), ("blanket", 0.3)],
    "backpack": [("bag", 0.6), ("basket", 0.2), ("suitcase", 0.2)],
    "shoe": [("slipper", 0.6), ("toy", 0.3), ("ball", 0.1)],
    "ball": [("toy", 0.6), ("bowl", 0.2), ("shoe", 0.2)],
    "sofa": [("couch", 0.8), ("chair", 0.2)],
    "chair": [("stool", 0.5), ("armchair", 0.5)],
    "stool": [("chair", 0.7), ("bench", 0.3)],
    "table": [("desk", 0.7), ("counter", 0.3)],
    "counter": [("cabinet", 0.6), ("table", 0.4)],
    "shelf": [("bookshelf", 0.6), ("cabinet", 0.4)],
}

#: How readily a class is confused (x persistent_confusion_prob): strong look-alike pairs 1.0, others less.
CONFUSABILITY = {"mug": 1.0, "cup": 1.0, "bottle": 1.0, "vase": 1.0, "remote": 1.0, "phone": 1.0, "sofa": 1.0,
                 "pillow": 1.0, "chair": 0.8, "stool": 0.8, "wallet": 0.6, "book": 0.6, "laptop": 0.5,
                 "bowl": 0.5, "basket": 0.5, "plant": 0.5, "backpack": 0.5}
DEFAULT_CONFUSABILITY = 0.3

#: Labels of spurious blobs (things a segmenter hallucinates on clutter, edges and textures).
SPURIOUS_LABELS = ("box", "bag", "cushion", "picture", "lamp", "towel", "paper", "cup", "bottle", "book",
                   "phone", "remote", "keys", "shoe", "ball", "toy", "plant", "bowl")
#: Labels of reflections (glossy surfaces, windows, screens).
REFLECTION_LABELS = ("tv", "mirror", "window", "cup", "bottle", "vase", "phone", "lamp")
SPURIOUS_MAX_CONFIDENCE = 0.29          # the memory rejects below 0.30
SPURIOUS_HIGH_CONFIDENCE = (0.30, 0.55)
SECTORS = 4


def look_alike(rng: np.random.Generator, label: str) -> str | None:
    options = LOOK_ALIKES.get(label)
    if not options:
        return None
    w = np.array([p for _, p in options], float)
    return options[int(rng.choice(len(options), p=w / w.sum()))][0]


def view_sector(camera_xy, object_xy) -> int:
    """Which of 4 sides (90 deg each, around the object) the camera looks from; 0 = from +x."""
    az = math.atan2(camera_xy[1] - object_xy[1], camera_xy[0] - object_xy[0])
    return int(((az + math.pi / SECTORS) % (2 * math.pi)) // (2 * math.pi / SECTORS)) % SECTORS


def detection_probability(pixels_eq: float, range_m: float, truncation: float, hidden: float,
                          noise: NoiseConfig) -> float:
    """Probability that the segmenter reports an object (module docstring: the model and its terms)."""
    if pixels_eq <= 0:
        return 0.0
    size = 1.0 / (1.0 + math.exp(-math.log(pixels_eq / noise.size50_px) / noise.size_width))
    rng_term = max(0.5, 1.0 - noise.range_slope * max(0.0, range_m - noise.range_start_m))
    cut = min(1.0, max(0.0, truncation))
    occ = min(1.0, max(0.0, hidden))
    return (1.0 - noise.miss_prob) * size * rng_term * (1.0 - noise.truncation_weight * cut ** 1.5) \
        * (1.0 - noise.occlusion_weight * occ ** 2)


def truncation(pose: np.ndarray, fx: float, fy: float, cx: float, cy: float, width: int, height: int,
               lo, hi) -> float:
    """Share of a box's projected rectangle that falls outside the image (corners behind the camera count)."""
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])], float)
    pc = (corners - pose[:3, 3]) @ pose[:3, :3]
    front = pc[:, 2] > 0.05
    if not front.any():
        return 1.0
    u = fx * pc[front, 0] / pc[front, 2] + cx
    v = fy * pc[front, 1] / pc[front, 2] + cy
    u0, u1, v0, v1 = u.min() - 0.5, u.max() + 0.5, v.min() - 0.5, v.max() + 0.5
    full = (u1 - u0) * (v1 - v0)
    inside = max(0.0, min(u1, width - 0.5) - max(u0, -0.5)) * max(0.0, min(v1, height - 0.5) - max(v0, -0.5))
    cut = 1.0 - inside / full if full > 0 else 1.0
    behind = 1.0 - front.mean()
    return float(max(cut, behind))


def confidence(rng: np.random.Generator, p_detect: float, noise: NoiseConfig, confused: bool) -> float:
    """Higher for clear views; a wrong label comes with a lower confidence (x 0.7-0.9)."""
    lo, hi = noise.confidence_min, noise.confidence_max
    if hi - lo <= 0:
        c = hi
    else:
        c = lo + (hi - lo) * (0.3 + 0.7 * p_detect) + rng.normal(0.0, 0.05)
        c = min(hi, max(lo, c))
    if confused:
        c = max(0.3, c * rng.uniform(0.7, 0.9))
    return round(float(c), 4)


def run_label(seed: int, attempt: int, object_id: int, label: str, sector: int, run_key: int,
              noise: NoiseConfig) -> tuple[str | None, bool]:
    """(wrong label preferred by the segmenter for this object x sector x run, parts split?) — the same
    for every frame of the run: its own random stream, independent of the frame order."""
    rng = np.random.default_rng([seed, attempt, 8, object_id, sector, run_key])
    wrong = None
    if rng.random() < noise.persistent_confusion_prob * CONFUSABILITY.get(label, DEFAULT_CONFUSABILITY):
        wrong = look_alike(rng, label)
    split = bool(rng.random() < noise.part_split_prob)
    return wrong, split


def spurious_blob(rng: np.random.Generator, mask: np.ndarray, scale: float, center=None,
                  radius_px: float | None = None) -> np.ndarray | None:
    """An elliptic blob over unlabelled pixels (at ``center`` with ``radius_px`` for a reflection), or None
    when it would be (nearly) empty."""
    h, w = mask.shape
    if radius_px is None:
        ry, rx = rng.uniform(3, 10, size=2) * scale
    else:
        ry = rx = radius_px
    if center is None:
        cy, cx = rng.uniform(0, h), rng.uniform(0, w)
    else:
        cx, cy = center
    y0, y1 = max(0, int(cy - ry - 1)), min(h, int(cy + ry + 2))
    x0, x1 = max(0, int(cx - rx - 1)), min(w, int(cx + rx + 2))
    if y0 >= y1 or x0 >= x1:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inside = ((yy - cy) / max(ry, 1.0)) ** 2 + ((xx - cx) / max(rx, 1.0)) ** 2 <= 1.0
    blob = np.zeros(mask.shape, dtype=bool)
    blob[y0:y1, x0:x1] = inside & (mask[y0:y1, x0:x1] == 0)
    return blob if blob.sum() >= 4 else None
