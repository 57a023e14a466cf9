"""The text-encoder contract the memory depends on, and the input checks every encoder shares.

Why a Protocol and not a base class: the core accepts any object with ``name``, ``dim`` and ``encode``
(a sentence model, the CLIP text tower, a hashing fallback, a test double) without importing torch or
this package's implementations; ``name`` is written into the store so that vectors from two different
embedding spaces are never compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from tempomem_ros.core.errors import InvalidInputError, TempoMemError


@runtime_checkable
class TextEncoder(Protocol):
    """Maps texts to unit vectors in one fixed embedding space.

    ``encode`` returns an (n, dim) float32 array whose rows have L2 norm 1, in the order of ``texts``;
    an empty sequence gives a (0, dim) array. Non-string or blank texts raise ``InvalidInputError``.
    """

    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


class EncoderLoadError(TempoMemError, RuntimeError):
    """A model could not be loaded (package missing, model files absent or corrupt)."""


def check_texts(texts: Sequence[str]) -> list[str]:
    """Validate a batch of texts up front, so that a bad item fails the batch before any model runs.

    Why reject blank text: it has no meaning to embed, and a hashing encoder would have to return a zero
    row, breaking the unit-norm promise. A bare ``str`` is rejected because iterating it would silently
    encode single characters.
    """
    if isinstance(texts, (str, bytes)):
        raise InvalidInputError("texts must be a sequence of strings, not a single string")
    try:
        items = list(texts)
    except TypeError as exc:
        raise InvalidInputError(f"texts must be a sequence of strings, got {type(texts).__name__}") from exc
    for i, text in enumerate(items):
        if not isinstance(text, str):
            raise InvalidInputError(f"texts[{i}] must be a str, got {type(text).__name__}")
        if not text.strip():
            raise InvalidInputError(f"texts[{i}] is blank; an encoder needs some text to embed")
    return items


def normalize_rows(vectors: np.ndarray, source: str) -> np.ndarray:
    """Return float32 rows scaled to unit length; a model that yields a zero or non-finite row is broken.

    Why raise instead of passing zeros on: a zero text vector has cosine 0 with everything and would
    quietly rank last in every query, which is harder to notice than an error naming the model.
    """
    arr = np.asarray(vectors, dtype=np.float64)
    if arr.ndim != 2:
        raise EncoderLoadError(f"{source} returned an array of shape {arr.shape}, expected (n, dim)")
    if not np.all(np.isfinite(arr)):
        raise EncoderLoadError(f"{source} returned non-finite values")
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    if np.any(norms == 0.0):
        raise EncoderLoadError(f"{source} returned a zero vector")
    return (arr / norms).astype(np.float32)
