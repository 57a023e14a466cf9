"""Appearance features of a frame's instances: supplied in InstanceMasks, else computed by a feature hook.

Why supplied features take precedence: a segmenter that already embeds its instances knows them best, and the
hook (CLIP when ``clip.enabled``) costs time per frame. Why a broken hook costs the features, never the frame:
the geometry of the frame is still evidence for the memory; a hook that raises or returns anything but finite
(instances x dim) rows is counted and warned about, and the frame is published without features. Supplied
features of the wrong size are refused with the frame (InputMismatchError): the message itself is wrong.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tempomem_ros.nodes.perception_node_params import StartupError
from tempomem_ros.perception import InputMismatchError, PerceptionError, decode_color

FeatureExtractor = Callable[[np.ndarray | None, np.ndarray, np.ndarray], np.ndarray | None]


def clip_extractor(params: dict, logger) -> tuple[str, FeatureExtractor]:
    """(encoder name, extractor) filling Observation.feature with CLIP features of each instance's masked
    crop. A missing checkpoint fails at startup, naming it."""
    if not params["use_color"]:
        raise StartupError("clip.enabled needs use_color: true (CLIP encodes the colour image)")
    from tempomem_ros.perception.clip_encoder import ClipConfig, ClipEncoder  # noqa: PLC0415 - heavy

    try:
        encoder = ClipEncoder(ClipConfig(
            model_name=params["clip.model_name"], checkpoint_path=params["clip.checkpoint_path"],
            allow_random_weights=params["clip.allow_random_weights"], batch_size=params["clip.batch_size"],
            padding=params["clip.padding"], background=params["clip.background"],
            num_threads=params["clip.num_threads"]))
    except PerceptionError as exc:
        raise StartupError(f"CLIP encoder: {exc}") from exc
    logger.info(f"CLIP features: {encoder.name} ({encoder.weights}), {encoder.dim}-d")
    return encoder.name, lambda rgb, mask, ids: None if rgb is None else encoder.encode_instances(rgb, mask, ids)


def frame_features(masks_msg, ids: np.ndarray, mask: np.ndarray, color_msg, extractor: FeatureExtractor | None,
                   on_error: Callable[[str], None]) -> np.ndarray | None:
    """(len(ids) x dim) features of the frame, or None; ``on_error(message)`` hears a hook that failed."""
    dim = int(masks_msg.feature_dim)
    if dim > 0:
        flat = np.asarray(masks_msg.features, dtype=np.float64)
        if flat.size != dim * ids.size:
            raise InputMismatchError(
                f"InstanceMasks has {flat.size} feature values, expected {ids.size} ids x {dim} dims"
            )
        return flat.reshape(ids.size, dim)
    if extractor is None or ids.size == 0:
        return None
    rgb = decode_color(color_msg) if color_msg is not None else None
    try:
        features = extractor(rgb, mask, ids)
    except Exception as exc:  # a broken extractor costs the features, not the frame
        on_error(f"feature extractor failed, publishing without features: {exc}")
        return None
    if features is None:
        return None
    try:
        features = np.asarray(features, dtype=np.float64)
    except (TypeError, ValueError):
        features = None
    if (
        features is None
        or features.ndim != 2
        or features.shape[0] != ids.size
        or features.shape[1] < 1
        or not np.all(np.isfinite(features))
    ):
        on_error(f"feature extractor must return finite ({ids.size}, dim) rows; publishing without features")
        return None
    return features
