"""Appearance features a segmenter could attach to each instance.

Why a class part plus an instance part: the memory should find that two mugs look alike (same class
direction) yet tell them apart (different instance directions), and that the same mug seen twice looks
the same up to noise. With weights 0.8/0.6 two objects of one class have cosine about 0.64, two classes
about 0, and one object across frames about 0.96 with the default noise.
"""

from __future__ import annotations

import zlib

import numpy as np

CLASS_WEIGHT = 0.8
INSTANCE_WEIGHT = 0.6


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def class_vector(label: str, dim: int) -> np.ndarray:
    """The same direction for a label in every scene (seeded by a stable hash of the label)."""
    return _unit(np.random.default_rng(zlib.crc32(label.encode("utf-8"))).standard_normal(dim))


def identity_vector(seed: int, attempt: int, object_id: int, label: str, dim: int) -> np.ndarray:
    instance = _unit(np.random.default_rng([seed, attempt, object_id, 4]).standard_normal(dim))
    return _unit(CLASS_WEIGHT * class_vector(label, dim) + INSTANCE_WEIGHT * instance)


def observed_feature(rng: np.random.Generator, identity: np.ndarray, sigma: float) -> np.ndarray:
    if sigma <= 0:
        return identity.astype(np.float32)
    return _unit(identity + rng.standard_normal(identity.shape) * sigma).astype(np.float32)
