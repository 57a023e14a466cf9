"""Optional appearance features: CLIP image embeddings of instance crops, and CLIP's text tower.

Why CLIP features at all: the fusion arbiter compares a new observation with remembered objects by
geometry and label; an appearance feature tells a red mug from a blue one at the same spot, and, in the
CLIP space, lets a free-text request be compared with what the camera saw.

Why torch and open_clip are imported inside the class: importing this module must stay cheap (the
perception node imports it even when features are off), and a machine without torch must still run
the rest of the pipeline.

Weights policy: nothing is ever downloaded. Real weights come from a local checkpoint file
(``clip.checkpoint_path``); random weights are used only when that path is empty AND
``clip.allow_random_weights`` is true, which is meant for tests and timing, never for a robot.
Constructing an encoder sets HF_HUB_OFFLINE=1 and TRANSFORMERS_OFFLINE=1 for the whole process, so
that no model code it pulls in can reach for the network either.

Crop policy: the instance's mask bounding box, grown by ``padding`` (a fraction of the box side or
pixels), clipped to the image, letterboxed to a square with the normalisation mean (so the aspect ratio
is kept and no object is cut off by a centre crop) and resized to the model's input size with
antialiased bilinear interpolation in torch. ``background="mask"`` replaces every pixel outside the
instance mask with the mean, so the feature describes the object alone and does not change when the
surroundings change; ``background="crop"`` keeps the pixels of the padded box as they are.

Empty instances: an id with fewer than ``min_pixels`` mask pixels gets an all-zero row (NaN-free) and
``valid=False`` from ``encode_instances_with_validity``; a caller must not store a zero row as a feature.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from tempomem_ros.perception.errors import (
    ConfigError,
    ImageEncodingError,
    InputMismatchError,
    PerceptionError,
)
from tempomem_ros.semantics.text_encoder import CachingTextEncoder

BACKGROUNDS = ("mask", "crop")
PADDING_UNITS = ("fraction", "pixels")
OPENAI_MEAN = (0.48145466, 0.4578275, 0.40821073)
OPENAI_STD = (0.26862954, 0.26130258, 0.27577711)


@dataclass(frozen=True)
class ClipConfig:
    """CLIP feature settings; the perception node declares each field as the ROS parameter ``clip.<field>``.

    ``model_cfg`` (not a ROS parameter) builds a custom open_clip CLIP architecture from a dict instead of
    the built-in ``model_name`` config; tests use it for a tiny model. ``image_mean``/``image_std``
    override the normalisation when a checkpoint was trained with other statistics than OpenAI's.
    """

    model_name: str = "ViT-B-32"
    checkpoint_path: str = ""
    allow_random_weights: bool = False
    device: str = "cpu"
    batch_size: int = 32
    padding: float = 0.1
    padding_unit: str = "fraction"
    background: str = "mask"
    min_pixels: int = 1
    num_threads: int = 0
    seed: int = 0
    model_cfg: dict | None = field(default=None, compare=False)
    image_mean: tuple[float, float, float] | None = None
    image_std: tuple[float, float, float] | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            param = f"clip.{f.name}"
            if f.type == "bool" and not isinstance(value, bool):
                raise ConfigError(f"{param} must be a bool, got {value!r}")
            if f.type == "str" and not isinstance(value, str):
                raise ConfigError(f"{param} must be a string, got {value!r}")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ConfigError(f"{param} must be an integer, got {value!r}")
            if f.type == "float":
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                    raise ConfigError(f"{param} must be a finite number, got {value!r}")
                object.__setattr__(self, f.name, float(value))
        if not self.model_name.strip():
            raise ConfigError("clip.model_name must not be empty")
        if self.batch_size < 1:
            raise ConfigError(f"clip.batch_size must be >= 1, got {self.batch_size}")
        if self.padding < 0:
            raise ConfigError(f"clip.padding must be >= 0, got {self.padding}")
        if self.padding_unit not in PADDING_UNITS:
            raise ConfigError(f"clip.padding_unit must be one of {PADDING_UNITS}, got {self.padding_unit!r}")
        if self.padding_unit == "fraction" and self.padding > 10:
            raise ConfigError(f"clip.padding={self.padding} as a fraction of the box is implausible (> 10)")
        if self.background not in BACKGROUNDS:
            raise ConfigError(f"clip.background must be one of {BACKGROUNDS}, got {self.background!r}")
        if self.min_pixels < 1:
            raise ConfigError(f"clip.min_pixels must be >= 1, got {self.min_pixels}")
        if self.num_threads < 0:
            raise ConfigError(
                f"clip.num_threads must be >= 0 (0 = leave torch's default), got {self.num_threads}"
            )
        if self.model_cfg is not None and not isinstance(self.model_cfg, dict):
            raise ConfigError(f"clip.model_cfg must be a dict or None, got {type(self.model_cfg).__name__}")
        for name in ("image_mean", "image_std"):
            value = getattr(self, name)
            if value is None:
                continue
            try:
                triple = tuple(float(v) for v in value)
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"clip.{name} must be three numbers, got {value!r}") from exc
            if len(triple) != 3 or not all(math.isfinite(v) for v in triple):
                raise ConfigError(f"clip.{name} must be three finite numbers, got {value!r}")
            if name == "image_std" and min(triple) <= 0:
                raise ConfigError(f"clip.image_std must be positive, got {value!r}")
            object.__setattr__(self, name, triple)


def _check_checkpoint(cfg: ClipConfig) -> str | None:
    """Resolve the weights source before any model code runs, so a bad path fails at startup.

    Why only existing files pass: open_clip treats a string that is not a file as a pretrained *tag*
    and would try to download it.
    """
    path = cfg.checkpoint_path.strip()
    if not path:
        if cfg.allow_random_weights:
            return None
        raise ConfigError(
            "clip.checkpoint_path is empty: set it to a local open_clip checkpoint file for "
            f"{cfg.model_name!r} (weights are never downloaded), or set clip.allow_random_weights=true "
            "(tests and timing only)"
        )
    p = Path(path).expanduser()
    if not p.exists():
        raise ConfigError(f"clip.checkpoint_path {path!r} does not exist (weights are never downloaded)")
    if not p.is_file():
        raise ConfigError(f"clip.checkpoint_path {path!r} is not a file")
    if not os.access(p, os.R_OK):
        raise ConfigError(f"clip.checkpoint_path {path!r} is not readable")
    return str(p)


class ClipEncoder:
    """Embeds instance crops of one frame with a CLIP image tower, batched; loads the model at construction.

    ``name`` ("open_clip:<model_name>") and ``dim`` describe the image feature space; the text tower of
    the same model, from ``text_encoder()``, maps text into that same space. Thread-safe.
    """

    def __init__(self, config: ClipConfig | None = None) -> None:
        self.config = cfg = config if config is not None else ClipConfig()
        checkpoint = _check_checkpoint(cfg)
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        try:
            import open_clip
            import torch
        except ImportError as exc:
            raise ConfigError(
                "CLIP features need torch and open-clip-torch (pip install torch open-clip-torch)"
            ) from exc
        self._torch = torch
        self._lock = threading.Lock()
        if cfg.num_threads > 0:
            torch.set_num_threads(cfg.num_threads)  # process-wide: torch has no per-model setting
        try:
            self._device = torch.device(cfg.device)
        except (RuntimeError, TypeError) as exc:
            raise ConfigError(f"clip.device {cfg.device!r} is not a torch device: {exc}") from exc
        if self._device.type == "cuda" and not torch.cuda.is_available():
            raise ConfigError(f"clip.device is {cfg.device!r} but CUDA is not available")

        self.model = self._build_model(open_clip, torch, checkpoint)
        self.weights = checkpoint if checkpoint is not None else f"random(seed={cfg.seed})"
        self.name = f"open_clip:{cfg.model_name}"
        self.dim = int(self._probe_dim())
        pp = open_clip.get_model_preprocess_cfg(self.model)
        size = pp.get("size", getattr(self.model.visual, "image_size", 224))
        size = (size, size) if isinstance(size, int) else tuple(size)
        self.image_size: tuple[int, int] = (int(size[0]), int(size[1]))
        mean = cfg.image_mean or tuple(pp.get("mean", OPENAI_MEAN))
        std = cfg.image_std or tuple(pp.get("std", OPENAI_STD))
        self._mean = torch.tensor(mean, dtype=torch.float32).view(3, 1, 1)
        self._std = torch.tensor(std, dtype=torch.float32).view(3, 1, 1)
        self._tokenizer = None
        self._text_encoder: ClipTextEncoder | None = None

    # ---- model -----------------------------------------------------------------------------------------
    def _build_model(self, open_clip, torch, checkpoint: str | None):
        cfg = self.config
        try:
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(cfg.seed)  # random init reproducible; the caller's RNG left untouched
                if cfg.model_cfg is not None:
                    from copy import deepcopy

                    from open_clip.model import CLIP

                    model = CLIP(**deepcopy(cfg.model_cfg))
                    if checkpoint is not None:
                        open_clip.load_checkpoint(model, checkpoint)
                else:
                    if open_clip.get_model_config(cfg.model_name) is None:
                        raise ConfigError(
                            f"clip.model_name {cfg.model_name!r} is not an open_clip architecture; "
                            f"known: {', '.join(open_clip.list_models()[:8])}, ..."
                        )
                    model = open_clip.create_model(
                        cfg.model_name,
                        pretrained=checkpoint,
                        pretrained_image=False,
                        pretrained_text=False,
                        device="cpu",
                    )
        except ConfigError:
            raise
        except Exception as exc:
            if checkpoint is not None:
                raise ConfigError(
                    f"clip.checkpoint_path {checkpoint!r} could not be loaded into {cfg.model_name!r}: {exc}"
                ) from exc
            raise ConfigError(f"clip.model_name {cfg.model_name!r} could not be built: {exc}") from exc
        return model.to(self._device).eval()

    def _probe_dim(self) -> int:
        proj = getattr(self.model.visual, "output_dim", None)
        if proj:
            return proj
        torch = self._torch
        size = getattr(self.model.visual, "image_size", (224, 224))
        size = (size, size) if isinstance(size, int) else size
        with torch.inference_mode():
            return self.model.encode_image(torch.zeros(1, 3, *size, device=self._device)).shape[-1]

    # ---- images ----------------------------------------------------------------------------------------
    def encode_instances(self, rgb: np.ndarray, mask: np.ndarray, ids: Sequence[int]) -> np.ndarray:
        """(len(ids), dim) float32 L2-normalised features; an empty instance gets an all-zero row."""
        return self.encode_instances_with_validity(rgb, mask, ids)[0]

    def encode_instances_with_validity(
        self, rgb: np.ndarray, mask: np.ndarray, ids: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Features as ``encode_instances`` plus a bool array: False where the id had < min_pixels pixels.

        rgb: HxWx3 uint8; mask: HxW uint16 instance ids (0 = none, as in InstanceMasks); ids: the
        instances to embed, in the order of the returned rows (duplicates allowed).
        """
        rgb, mask, id_list = self._check_frame(rgb, mask, ids)
        feats = np.zeros((len(id_list), self.dim), dtype=np.float32)
        valid = np.zeros(len(id_list), dtype=bool)
        if not id_list:
            return feats, valid
        from scipy.ndimage import find_objects

        unique = sorted(set(id_list))
        boxes = find_objects(mask, max_label=unique[-1])
        crops, crop_ids = [], []
        for inst in unique:
            box = boxes[inst - 1]
            if box is None:
                continue
            inside = mask[box] == inst
            if int(np.count_nonzero(inside)) < self.config.min_pixels:
                continue
            crops.append(self._preprocess(rgb, mask, box, inst))
            crop_ids.append(inst)
        if crops:
            vectors = self._run_image_tower(crops)
            row_of = {inst: vectors[i] for i, inst in enumerate(crop_ids)}
            for i, inst in enumerate(id_list):
                if inst in row_of:
                    feats[i] = row_of[inst]
                    valid[i] = True
        return feats, valid

    def _check_frame(self, rgb, mask, ids) -> tuple[np.ndarray, np.ndarray, list[int]]:
        if not isinstance(rgb, np.ndarray) or rgb.dtype != np.uint8 or rgb.ndim != 3 or rgb.shape[2] != 3:
            got = f"{rgb.dtype} {rgb.shape}" if isinstance(rgb, np.ndarray) else type(rgb).__name__
            raise ImageEncodingError(f"rgb must be an HxWx3 uint8 array, got {got}")
        if not isinstance(mask, np.ndarray) or mask.ndim != 2 or mask.dtype.kind not in "ui":
            got = f"{mask.dtype} {mask.shape}" if isinstance(mask, np.ndarray) else type(mask).__name__
            raise ImageEncodingError(f"mask must be an HxW integer (uint16) array, got {got}")
        if mask.shape != rgb.shape[:2]:
            raise InputMismatchError(
                f"mask is {mask.shape[1]}x{mask.shape[0]} but rgb is {rgb.shape[1]}x{rgb.shape[0]}"
            )
        if rgb.shape[0] == 0 or rgb.shape[1] == 0:
            raise ImageEncodingError(f"rgb has no pixels: shape {rgb.shape}")
        if isinstance(ids, (str, bytes)):
            raise PerceptionError("ids must be a sequence of integers")
        try:
            id_list = list(ids)
        except TypeError as exc:
            raise PerceptionError(f"ids must be a sequence of integers, got {type(ids).__name__}") from exc
        out = []
        for i, v in enumerate(id_list):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise PerceptionError(f"ids[{i}] must be an integer, got {v!r}")
            if not 1 <= int(v) <= 65535:
                raise PerceptionError(
                    f"ids[{i}]={int(v)} is outside 1..65535 (0 marks pixels with no instance)"
                )
            out.append(int(v))
        if mask.dtype != np.uint16:
            if mask.size and (int(mask.min()) < 0 or int(mask.max()) > 65535):
                raise ImageEncodingError("mask values must lie in 0..65535 (uint16 instance ids)")
            mask = mask.astype(np.uint16)
        return rgb, mask, out

    def _preprocess(self, rgb: np.ndarray, mask: np.ndarray, box: tuple[slice, slice], inst: int):
        """One instance -> a normalised 3xSxS tensor (see the module docstring for the crop policy)."""
        torch = self._torch
        import torch.nn.functional as F

        cfg = self.config
        height, width = mask.shape
        r0, r1, c0, c1 = box[0].start, box[0].stop, box[1].start, box[1].stop
        if cfg.padding_unit == "fraction":
            pr, pc = round(cfg.padding * (r1 - r0)), round(cfg.padding * (c1 - c0))
        else:
            pr = pc = round(cfg.padding)
        r0, r1 = max(0, r0 - pr), min(height, r1 + pr)
        c0, c1 = max(0, c0 - pc), min(width, c1 + pc)
        crop = torch.from_numpy(np.ascontiguousarray(rgb[r0:r1, c0:c1])).permute(2, 0, 1).float()
        crop = (crop / 255.0 - self._mean) / self._std  # the mean becomes 0: background fill is 0
        if cfg.background == "mask":
            inside = torch.from_numpy(mask[r0:r1, c0:c1] == inst)
            crop = crop * inside.unsqueeze(0)
        out_h, out_w = self.image_size
        h, w = r1 - r0, c1 - c0
        scale = min(out_h / h, out_w / w)
        new_h, new_w = max(1, min(out_h, round(h * scale))), max(1, min(out_w, round(w * scale)))
        resized = F.interpolate(crop.unsqueeze(0), size=(new_h, new_w), mode="bilinear", antialias=True,
                                align_corners=False)[0]
        canvas = torch.zeros(3, out_h, out_w)
        top, left = (out_h - new_h) // 2, (out_w - new_w) // 2
        canvas[:, top:top + new_h, left:left + new_w] = resized
        return canvas

    def _run_image_tower(self, crops: list) -> np.ndarray:
        torch = self._torch
        batch = torch.stack(crops)
        outs = []
        with self._lock, torch.inference_mode():
            for start in range(0, len(crops), self.config.batch_size):
                chunk = batch[start:start + self.config.batch_size].to(self._device)
                outs.append(self.model.encode_image(chunk).float().cpu())
        feats = torch.cat(outs).numpy().astype(np.float64)
        norms = np.linalg.norm(feats, axis=1, keepdims=True)
        norms[norms == 0.0] = 1.0
        return (feats / norms).astype(np.float32)

    # ---- text ------------------------------------------------------------------------------------------
    def text_encoder(self, cache_size: int = 4096) -> ClipTextEncoder:
        """The CLIP text tower of this same model as a ``TextEncoder`` (one shared instance)."""
        with self._lock:
            if self._text_encoder is None:
                self._text_encoder = ClipTextEncoder(self, cache_size=cache_size)
            return self._text_encoder

    def _tokenize(self, texts: list[str]):
        if self._tokenizer is None:
            try:
                if self.config.model_cfg is not None:
                    from open_clip.tokenizer import SimpleTokenizer

                    ctx = int(self.config.model_cfg.get("text_cfg", {}).get("context_length", 77))
                    self._tokenizer = SimpleTokenizer(context_length=ctx)
                else:
                    import open_clip

                    self._tokenizer = open_clip.get_tokenizer(self.config.model_name)
            except Exception as exc:
                raise ConfigError(
                    f"the tokenizer of clip.model_name {self.config.model_name!r} is not available "
                    f"offline: {exc}"
                ) from exc
        return self._tokenizer(texts)

    def _encode_texts(self, texts: list[str]) -> np.ndarray:
        torch = self._torch
        with self._lock:
            tokens = self._tokenize(texts)
            outs = []
            with torch.inference_mode():
                for start in range(0, len(texts), self.config.batch_size):
                    chunk = tokens[start:start + self.config.batch_size].to(self._device)
                    outs.append(self.model.encode_text(chunk).float().cpu())
        return torch.cat(outs).numpy()


class ClipTextEncoder(CachingTextEncoder):
    """``TextEncoder`` over a ``ClipEncoder``'s text tower; vectors share the image features' space."""

    def __init__(self, clip: ClipEncoder, cache_size: int = 4096) -> None:
        super().__init__(cache_size=cache_size)
        self._clip = clip
        self.name = clip.name
        self.dim = clip.dim

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        return self._clip._encode_texts(texts)
