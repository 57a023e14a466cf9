"""Scene generator settings: feature profiles, the detection model's knobs, camera motion, noise profiles.

Why frozen dataclasses: the configuration is written into the ground truth and fixes the scene together
with the seed; a setting changed after generation would make the recorded configuration a lie. Settings
left to the seed (``fps``) are resolved once by ``SceneConfig.resolved(seed)`` and recorded resolved.

Why profiles: the memory must be judged on what a robot really gets. ``default`` sends what the perception
node sends with its defaults (CLIP off): no appearance feature at all. ``clip`` imitates CLIP crop
features (features.py documents their statistics and where the targets come from). ``oracle`` is the
per-instance identity feature older figures rested on (the same object across frames at cosine ~0.96):
no robot has it, it is kept only as a named comparison.

Why noise presets, and why the default bleeds (stop 51): the hidden test scenes come from an independent
generator and real segmenters bleed over object boundaries; a memory judged on clean masks is judged on what no
robot gets. ``default`` is the detection model plus shared colour palettes, per-visit white balance and
exposure and mask bleed (the preset ``real`` of stop 50, a name that stays valid as an alias); ``plain`` is the
default before stop 51 (every earlier figure: ``--noise plain``); ``none`` is exact input.

Why the perception settings live here: an instance the generator reports but the perception node drops
(``min_mask_pixels`` valid depth pixels after a 1-px erosion) is not "seen" by the memory, so the
ground truth must apply the same rule (frames.py emulates it). The node's default, 50 px, is meant for
640x480; at another resolution the evaluation scales it by the image area (13 px at 320x240) and says so
in the ground truth (``perception``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from tempomem_ros.core.errors import InvalidInputError

#: 2026-01-15T08:00:00Z: bag stamps start here so that clock-time questions ("at 08:20") are meaningful.
BASE_TIME_NS = 1_768_464_000_000_000_000

#: Feature profiles and the feature dimension each sends by default (0 = no feature in InstanceMasks).
PROFILES = {"default": 0, "clip": 512, "oracle": 32}

#: Camera rates a scene draws from when ``fps`` is not set: the rates depth cameras and segmenters
#: commonly run at on a robot (RealSense 6/15 Hz modes, segmenters at 5-12 Hz).
FPS_CHOICES = (5.0, 6.0, 7.5, 10.0, 12.0, 15.0)

#: The perception node's instance-size default and the image area it is meant for.
NODE_MIN_MASK_PIXELS = 50
NODE_IMAGE_AREA = 640 * 480


class SceneGenError(InvalidInputError):
    """A scene cannot be generated with these settings (or no valid layout was found)."""


@dataclass(frozen=True)
class NoiseConfig:
    """Sensor and segmenter imperfections. Probabilities are per instance per frame unless noted.

    Detection model (detection.py): a visible object is reported with probability
    (1 - miss_prob) x size x range x truncation x occlusion terms; pixel sizes are in 640x480-equivalent
    pixels (a 320x240 pixel counts 4), so the model does not change with the rendering resolution.
    """

    depth_k: float = 0.0015               # depth sigma = k * z^2, metres (about 1.4 cm at 3 m)
    depth_dropout: float = 0.003          # fraction of depth pixels reported invalid (0)
    rgb_sigma: float = 2.0                # colour noise, 8-bit levels
    mask_edge_prob: float = 0.5           # an instance mask is eroded or dilated by one pixel
    pose_sigma_m: float = 0.01            # jitter of the published camera position (not the rendering)
    pose_sigma_deg: float = 0.4           # jitter of the published camera orientation
    detection_model: bool = True          # False: every instance with >= min_pixels is reported
    miss_prob: float = 0.01               # miss of a large, near, unoccluded, uncut object
    size50_px: float = 60.0               # mask size (640x480-equivalent px) reported half of the time
    size_width: float = 0.4               # logistic width in log(size): 30 px -> 0.15, 200 px -> 0.95
    range_start_m: float = 3.0            # beyond this range the detection rate falls ...
    range_slope: float = 0.08             # ... by this much per metre (floor 0.5)
    truncation_weight: float = 0.6        # cut by the image border: x (1 - w * cut^1.5)
    occlusion_weight: float = 0.7         # hidden share: x (1 - w * hidden^2)
    confusion_prob: float = 0.03          # independent per-frame flip to a look-alike label
    persistent_confusion_prob: float = 0.12   # per object x view sector x visit: a wrong label that persists
    persistent_keep: float = 0.8          # within such a run, a frame keeps the wrong label with this probability
    part_split_prob: float = 0.12         # per object x view sector x visit: a multi-part object in parts
    spurious_prob: float = 0.15           # per frame: a low-confidence blob (below 0.30)
    spurious_high_prob: float = 0.04      # per frame: a blob with confidence 0.30-0.55 (kept by the memory)
    reflection_prob: float = 0.01         # per frame: a blob anchored in the world, repeated for 2-3 frames
    feature_sigma: float = 0.05           # oracle profile: per-frame noise per dimension, before normalising
    confidence_min: float = 0.4           # true detections: confidence in [min, max], higher when clear
    confidence_max: float = 0.98
    # ---- realism (on in the default preset, off here and in "plain"; see REALISM_FIELDS and colour.py)
    palette_colors: bool = False          # instance colours from palettes that look-alike classes share
    white_balance_sigma: float = 0.0      # per visit / patrol pass: log gain per colour channel
    exposure_sigma: float = 0.0           # per visit / patrol pass: log gain of all channels together
    flicker_sigma: float = 0.0            # per frame: log gain of all channels together
    mask_bleed_prob: float = 0.0          # per instance per frame: the mask edge moves by 1..mask_bleed_px
    mask_bleed_grow: float = 0.0          # share of those edge moves that grow the mask (the rest shrink it)
    mask_bleed_px: float = 0.0            # widest edge move, 640x480 pixels (x width / 640 when rendered)

    def validate(self) -> None:
        for name, f in NoiseConfig.__dataclass_fields__.items():
            v = getattr(self, name)
            if f.type == "bool" or isinstance(f.default, bool):
                if not isinstance(v, bool):
                    raise SceneGenError(f"noise setting {name} must be true or false, got {v!r}")
            elif not (isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) and v >= 0):
                raise SceneGenError(f"noise setting {name} must be a number >= 0, got {v!r}")
        for name in ("depth_dropout", "mask_edge_prob", "miss_prob", "confusion_prob", "persistent_confusion_prob",
                     "persistent_keep", "part_split_prob", "spurious_prob", "spurious_high_prob", "reflection_prob",
                     "truncation_weight", "occlusion_weight", "mask_bleed_prob", "mask_bleed_grow"):
            if getattr(self, name) > 1:
                raise SceneGenError(f"noise probability {name} must be <= 1, got {getattr(self, name)}")
        if self.size50_px <= 0 or self.size_width <= 0:
            raise SceneGenError("size50_px and size_width must be > 0")
        if self.mask_bleed_prob > 0 and not 1 <= self.mask_bleed_px <= 8:
            raise SceneGenError(f"mask_bleed_px must be in [1, 8] when mask_bleed_prob > 0, got {self.mask_bleed_px}")
        if not 0.3 <= self.confidence_min <= self.confidence_max <= 1.0:
            raise SceneGenError("detection confidences need 0.3 <= confidence_min <= confidence_max <= 1")


#: The detection model without the realism settings: the default noise before stop 51, kept under the name
#: ``plain`` so that every earlier figure can be reproduced (``--noise plain``; the same scenes byte for byte
#: as before, except the recorded preset name, test_scenegen_real).
PLAIN = NoiseConfig()

NOISE_PROFILES: dict[str, NoiseConfig] = {
    #: The default (stop 51; the preset ``real`` of stop 50): the detection model plus what a real colour camera
    #: and instance segmenter add (colour.py documents each figure and why): look-alike classes drawing colours
    #: from shared palettes (two mugs can be the same white), per-visit white balance (4 % a channel) and
    #: exposure (15 %) with 2 % per-frame flicker, and masks that bleed 1-3 px of a 640x480 image (1-2 px at
    #: 320x240) over the object's boundary (taking the background's depth there) or shrink, in 35 % of
    #: instances per frame, correlated along the boundary (noise.bleed_mask_edges). Why the default: real
    #: segmenters bleed, and the memory must be judged on what a real pipeline gives it.
    "default": replace(PLAIN, palette_colors=True, white_balance_sigma=0.04, exposure_sigma=0.15, flicker_sigma=0.02,
                       mask_bleed_prob=0.35, mask_bleed_grow=0.7, mask_bleed_px=3.0),
    "plain": PLAIN,
    "none": NoiseConfig(depth_k=0.0, depth_dropout=0.0, rgb_sigma=0.0, mask_edge_prob=0.0, pose_sigma_m=0.0,
                        pose_sigma_deg=0.0, detection_model=False, miss_prob=0.0, confusion_prob=0.0,
                        persistent_confusion_prob=0.0, part_split_prob=0.0, spurious_prob=0.0,
                        spurious_high_prob=0.0, reflection_prob=0.0, feature_sigma=0.0, confidence_min=1.0,
                        confidence_max=1.0),
}
#: Other names a preset answers to. ``real`` (the name of the default's settings at stop 50) stays valid: a
#: SceneConfig given it records ``default`` and gives the default's scene byte for byte (same scene dir).
NOISE_ALIASES = {"real": "default"}
#: Every name --noise accepts.
NOISE_NAMES = tuple(sorted(set(NOISE_PROFILES) | set(NOISE_ALIASES)))

#: NoiseConfig fields the realism settings added (stop 50). When all are off (``plain``, ``none``) they are left
#: out of the recorded configuration, so that every scene generated before them keeps its ground_truth.json.
REALISM_FIELDS = ("palette_colors", "white_balance_sigma", "exposure_sigma", "flicker_sigma", "mask_bleed_prob",
                  "mask_bleed_grow", "mask_bleed_px")


def recorded_noise(config: dict) -> tuple[str, dict]:
    """(preset, overrides) of a recorded scene configuration (ground_truth.json's ``config``), in today's
    names: the preset whose settings differ from the recorded ``noise_settings`` in the fewest fields (the
    recorded name wins a tie), and those fields. Why not the recorded name alone: a scene written before
    stop 51 records ``default`` for what is now ``plain`` (no realism field recorded) and ``real`` for what is
    now ``default``; a name read back as it stands would re-render an old scene with another noise."""
    settings = dict(config.get("noise_settings") or {})
    if not settings:    # a scene older than the recorded settings: its name is all there is
        name = config.get("noise", "default")
        return ("plain" if name == "default" else NOISE_ALIASES.get(name, name)), {}
    for k in REALISM_FIELDS:
        settings.setdefault(k, NoiseConfig.__dataclass_fields__[k].default)
    given = NOISE_ALIASES.get(config.get("noise", "default"), config.get("noise", "default"))

    def diff(name: str) -> dict:
        base = asdict(NOISE_PROFILES[name])
        return {k: v for k, v in settings.items() if k in base and base[k] != v}

    order = sorted(NOISE_PROFILES, key=lambda n: (len(diff(n)), n != given))
    return order[0], diff(order[0])


def _scaled(pixels_at_640: float, width: int, height: int, least: int) -> int:
    """A pixel count at 640x480 scaled to another image area, rounded up (12.5 px -> 13 px)."""
    return max(least, math.ceil(pixels_at_640 * width * height / NODE_IMAGE_AREA - 1e-9))


@dataclass(frozen=True)
class SceneConfig:
    profile: str = "default"              # a key of PROFILES: default (no feature) | clip | oracle
    width: int = 320
    height: int = 240
    focal_scale: float = 0.8              # fx = fy = focal_scale * width
    visits: int = 4
    visit_gap_s: float = 600.0            # visit k starts at base + k * visit_gap_s
    fps: float | None = None              # None = drawn from FPS_CHOICES by the seed
    walk_speed: float = 0.5               # m/s while walking between stations
    turn_rate_deg: float = 40.0           # deg/s while sweeping (turns on the spot: up to 45 deg/s)
    patrol: bool = True                   # short passes between the visits (patrol.py)
    patrol_passes: int = 3                # passes per gap between two visits
    feature_dim: int | None = None        # None = the profile's (PROFILES); the default profile needs 0
    noise: str = "default"                # a key of NOISE_PROFILES (an alias of NOISE_ALIASES becomes its key)
    min_pixels: int | None = None         # smallest mask the segmenter ever reports; None = 20 px at
    #                                       640x480 scaled with the area (5 at 320x240)
    perception_min_pixels: int | None = None  # the perception's min_mask_pixels for this resolution; None =
    #                                       the node default (50 at 640x480) scaled with the area (13 at 320x240)
    max_range: float = 8.0                # nothing is rendered or detected beyond this depth (metres)
    rooms: int | None = None              # 1 or 2; None = chosen by the seed
    camera_height: float = 1.4            # metres above the floor
    base_time_ns: int = BASE_TIME_NS
    noise_overrides: dict = field(default_factory=dict)  # NoiseConfig fields replacing the profile's

    def __post_init__(self) -> None:
        if isinstance(self.width, int) and isinstance(self.height, int):
            if self.min_pixels is None:
                object.__setattr__(self, "min_pixels", _scaled(20, self.width, self.height, 2))
            if self.perception_min_pixels is None:
                object.__setattr__(self, "perception_min_pixels",
                                   _scaled(NODE_MIN_MASK_PIXELS, self.width, self.height, 4))
        if self.feature_dim is None and self.profile in PROFILES:
            object.__setattr__(self, "feature_dim", PROFILES[self.profile])
        if self.noise in NOISE_ALIASES:      # "real" is the default's old name: the same scene, recorded "default"
            object.__setattr__(self, "noise", NOISE_ALIASES[self.noise])

    def resolved(self, seed: int) -> SceneConfig:
        """The settings the seed decides, decided (fps); the same seed always gives the same values."""
        if self.fps is not None:
            return self
        rng = np.random.default_rng([int(seed), 9])
        return replace(self, fps=float(FPS_CHOICES[int(rng.integers(0, len(FPS_CHOICES)))]))

    def validate(self) -> None:
        if self.profile not in PROFILES:
            raise SceneGenError(f"unknown profile {self.profile!r}; use one of {sorted(PROFILES)}")
        if not (isinstance(self.width, int) and isinstance(self.height, int)) or self.width < 32 or self.height < 24:
            raise SceneGenError(f"image size must be integers >= 32x24, got {self.width}x{self.height}")
        if self.width > 4096 or self.height > 4096:
            raise SceneGenError(f"image size {self.width}x{self.height} is larger than 4096")
        if not 0.2 <= self.focal_scale <= 3.0:
            raise SceneGenError(f"focal_scale must be in [0.2, 3], got {self.focal_scale}")
        if not (isinstance(self.visits, int) and 1 <= self.visits <= 50):
            raise SceneGenError(f"visits must be an integer in [1, 50], got {self.visits}")
        if self.fps is not None and not 0.5 <= self.fps <= 60:
            raise SceneGenError(f"fps must be in [0.5, 60], got {self.fps}")
        if not 0.1 <= self.walk_speed <= 2.0:
            raise SceneGenError(f"walk_speed must be in [0.1, 2] m/s, got {self.walk_speed}")
        if not 5.0 <= self.turn_rate_deg <= 90.0:
            raise SceneGenError(f"turn_rate_deg must be in [5, 90] deg/s, got {self.turn_rate_deg}")
        if not (isinstance(self.patrol_passes, int) and 0 <= self.patrol_passes <= 10):
            raise SceneGenError(f"patrol_passes must be an integer in [0, 10], got {self.patrol_passes}")
        if self.visit_gap_s < 300.0:
            raise SceneGenError(f"visit_gap_s must be >= 300 s (a visit plus patrol passes), got {self.visit_gap_s}")
        if not isinstance(self.feature_dim, int) or not 0 <= self.feature_dim <= 4096:
            raise SceneGenError(f"feature_dim must be in [0, 4096], got {self.feature_dim}")
        if self.profile == "default" and self.feature_dim != 0:
            raise SceneGenError("the default profile sends no feature (feature_dim 0): use profile 'clip' or "
                                f"'oracle' for {self.feature_dim}-d features")
        if self.profile != "default" and self.feature_dim < 8:
            raise SceneGenError(f"profile {self.profile!r} needs feature_dim >= 8, got {self.feature_dim}")
        if self.noise not in NOISE_PROFILES:
            raise SceneGenError(f"unknown noise profile {self.noise!r}; use one of {list(NOISE_NAMES)}")
        for name in ("min_pixels", "perception_min_pixels"):
            v = getattr(self, name)
            if not isinstance(v, int) or not 1 <= v <= self.width * self.height:
                raise SceneGenError(f"{name} must be in [1, {self.width * self.height}], got {v}")
        if self.rooms not in (None, 1, 2):
            raise SceneGenError(f"rooms must be 1, 2 or None, got {self.rooms}")
        if not 0.8 <= self.camera_height <= 1.7:
            raise SceneGenError(f"camera_height must be in [0.8, 1.7] m, got {self.camera_height}")
        if not 0.5 <= self.max_range <= 60:
            raise SceneGenError(f"max_range must be in [0.5, 60] m, got {self.max_range}")
        unknown = set(self.noise_overrides) - set(NoiseConfig.__dataclass_fields__)
        if unknown:
            raise SceneGenError(f"unknown noise settings {sorted(unknown)}")
        self.noise_config().validate()

    def noise_config(self) -> NoiseConfig:
        return replace(NOISE_PROFILES[self.noise], **self.noise_overrides)

    @property
    def fx(self) -> float:
        return round(self.focal_scale * self.width, 6)

    @property
    def cx(self) -> float:
        return (self.width - 1) / 2.0

    @property
    def cy(self) -> float:
        return (self.height - 1) / 2.0

    @property
    def pixel_scale(self) -> float:
        """640x480-equivalent pixels per rendered pixel (4 at 320x240)."""
        return NODE_IMAGE_AREA / float(self.width * self.height)

    @property
    def frame_period_ns(self) -> int:
        if self.fps is None:
            raise SceneGenError("fps is not resolved yet (SceneConfig.resolved(seed))")
        return int(round(1e9 / self.fps))

    def to_dict(self) -> dict:
        out = asdict(self)
        settings = asdict(self.noise_config())
        if all(settings[k] == NoiseConfig.__dataclass_fields__[k].default for k in REALISM_FIELDS):
            for k in REALISM_FIELDS:
                del settings[k]
        out["noise_settings"] = settings
        return out
