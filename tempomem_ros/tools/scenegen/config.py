"""Scene generator settings and the two noise profiles.

Why frozen dataclasses: the configuration is written into the ground truth and fixes the scene together
with the seed; a setting changed after generation would make the recorded configuration a lie.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from tempomem_ros.core.errors import InvalidInputError

#: 2026-01-15T08:00:00Z: bag stamps start here so that clock-time questions ("at 08:20") are meaningful.
BASE_TIME_NS = 1_768_464_000_000_000_000


class SceneGenError(InvalidInputError):
    """A scene cannot be generated with these settings (or no valid layout was found)."""


@dataclass(frozen=True)
class NoiseConfig:
    """Sensor and segmenter imperfections. Every probability is per instance per frame unless noted."""

    depth_k: float = 0.0015               # depth sigma = k * z^2, metres (about 1.4 cm at 3 m)
    depth_dropout: float = 0.003          # fraction of depth pixels reported invalid (0)
    rgb_sigma: float = 2.0                # colour noise, 8-bit levels
    mask_edge_prob: float = 0.5           # an instance mask is eroded or dilated by one pixel
    pose_sigma_m: float = 0.01            # jitter of the published camera position (not the rendering)
    pose_sigma_deg: float = 0.4           # jitter of the published camera orientation
    miss_prob: float = 0.05               # a visible instance is not reported at all
    spurious_prob: float = 0.15           # per frame: one random low-confidence blob is added
    confusion_prob: float = 0.05          # mug<->cup, sofa<->couch, remote<->phone
    feature_sigma: float = 0.05           # per-frame feature noise per dimension, before normalising
    confidence_min: float = 0.6           # true detections get a confidence in [min, max]
    confidence_max: float = 0.98

    def validate(self) -> None:
        for name in ("depth_k", "depth_dropout", "rgb_sigma", "mask_edge_prob", "pose_sigma_m", "pose_sigma_deg",
                     "miss_prob", "spurious_prob", "confusion_prob", "feature_sigma"):
            if not getattr(self, name) >= 0:
                raise SceneGenError(f"noise setting {name} must be >= 0, got {getattr(self, name)}")
        for name in ("depth_dropout", "mask_edge_prob", "miss_prob", "spurious_prob", "confusion_prob"):
            if getattr(self, name) > 1:
                raise SceneGenError(f"noise probability {name} must be <= 1, got {getattr(self, name)}")
        if not 0.3 <= self.confidence_min <= self.confidence_max <= 1.0:
            raise SceneGenError("detection confidences need 0.3 <= confidence_min <= confidence_max <= 1")


NOISE_PROFILES: dict[str, NoiseConfig] = {
    "default": NoiseConfig(),
    "none": NoiseConfig(depth_k=0.0, depth_dropout=0.0, rgb_sigma=0.0, mask_edge_prob=0.0, pose_sigma_m=0.0,
                        pose_sigma_deg=0.0, miss_prob=0.0, spurious_prob=0.0, confusion_prob=0.0,
                        feature_sigma=0.0, confidence_min=1.0, confidence_max=1.0),
}


@dataclass(frozen=True)
class SceneConfig:
    width: int = 320
    height: int = 240
    focal_scale: float = 0.8              # fx = fy = focal_scale * width
    visits: int = 4
    visit_gap_s: float = 600.0            # visit k starts at base + k * visit_gap_s
    frames_per_visit: int = 48            # planned frames; a few may be dropped to hide an object
    fps: float = 3.0
    feature_dim: int = 32
    noise: str = "default"                # a key of NOISE_PROFILES
    min_pixels: int | None = None         # pixels an instance needs to get a mask; None = 20 at 320x240,
    #                                       scaled with the image area (so a small test image still sees)
    max_range: float = 8.0                # no detections beyond this depth (metres)
    rooms: int | None = None              # 1 or 2; None = chosen by the seed
    camera_height: float = 1.4            # metres above the floor
    base_time_ns: int = BASE_TIME_NS
    noise_overrides: dict = field(default_factory=dict)  # NoiseConfig fields replacing the profile's

    def __post_init__(self) -> None:
        if self.min_pixels is None and isinstance(self.width, int) and isinstance(self.height, int):
            object.__setattr__(self, "min_pixels", max(4, round(20 * self.width * self.height / (320 * 240))))

    def validate(self) -> None:
        if not (isinstance(self.width, int) and isinstance(self.height, int)) or self.width < 32 or self.height < 24:
            raise SceneGenError(f"image size must be integers >= 32x24, got {self.width}x{self.height}")
        if self.width > 4096 or self.height > 4096:
            raise SceneGenError(f"image size {self.width}x{self.height} is larger than 4096")
        if not 0.2 <= self.focal_scale <= 3.0:
            raise SceneGenError(f"focal_scale must be in [0.2, 3], got {self.focal_scale}")
        if not (isinstance(self.visits, int) and 1 <= self.visits <= 50):
            raise SceneGenError(f"visits must be an integer in [1, 50], got {self.visits}")
        # a special visit walks three legs and sweeps at three stations: 20 frames at least
        least = 12 if self.visits == 1 else 20
        if not least <= self.frames_per_visit <= 2000:
            raise SceneGenError(f"frames_per_visit must be in [{least}, 2000] with {self.visits} visit(s), "
                                f"got {self.frames_per_visit}")
        if not 0.1 <= self.fps <= 60:
            raise SceneGenError(f"fps must be in [0.1, 60], got {self.fps}")
        if self.visit_gap_s < self.frames_per_visit / self.fps + 60.0:
            raise SceneGenError(f"visit_gap_s {self.visit_gap_s} leaves less than 60 s between visits of "
                                f"{self.frames_per_visit / self.fps:.1f} s")
        if not 0 <= self.feature_dim <= 4096:
            raise SceneGenError(f"feature_dim must be in [0, 4096], got {self.feature_dim}")
        if self.noise not in NOISE_PROFILES:
            raise SceneGenError(f"unknown noise profile {self.noise!r}; use one of {sorted(NOISE_PROFILES)}")
        if not isinstance(self.min_pixels, int) or not 1 <= self.min_pixels <= self.width * self.height:
            raise SceneGenError(f"min_pixels must be in [1, {self.width * self.height}], got {self.min_pixels}")
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
    def frame_period_ns(self) -> int:
        return int(round(1e9 / self.fps))

    def to_dict(self) -> dict:
        out = asdict(self)
        out["noise_settings"] = asdict(self.noise_config())
        return out
