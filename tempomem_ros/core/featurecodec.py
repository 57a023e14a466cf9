"""Compact feature BLOBs for kept sightings: float16 or int8 instead of float32.

Why only sightings: an object's feature is the running mean fusion compares every new sighting with, and the
vectors semantic search ranks; it stays float32, so retention changes no fusion decision and no search result.
A kept sighting's feature is archive (a rebuild's fallback reads it); at 512-d it is 2 KB of float32 per kept
sighting, 1 KB as float16, 516 bytes as int8 with a per-vector scale. The effect of each on semantic recall is
measured by bench/bench_long_run.py (docs/RESULTS.md).

Format: a 4-byte header that no float32 feature can start with (a NaN; features are validated finite), one byte
naming the encoding, then the payload. A BLOB without the header is plain float32, as before.
"""

from __future__ import annotations

import numpy as np

HEADER = b"\xff\xff\xff\x7f"   # float32 NaN, little-endian
FLOAT16, INT8 = 1, 2
CODES = {"float16": FLOAT16, "int8": INT8}


def is_compact(blob) -> bool:
    return blob is not None and len(blob) >= 5 and bytes(blob[:4]) == HEADER


def encode(feature: np.ndarray, fmt: str) -> bytes:
    """The feature in ``fmt`` (float32 | float16 | int8)."""
    v = np.asarray(feature, dtype=np.float32).reshape(-1)
    if fmt == "float32":
        return v.tobytes()
    if fmt == "float16":
        return HEADER + bytes((FLOAT16,)) + v.astype("<f2").tobytes()
    if fmt == "int8":
        scale = float(np.max(np.abs(v))) / 127.0 or 1.0
        q = np.clip(np.rint(v / scale), -127, 127).astype(np.int8)
        return HEADER + bytes((INT8,)) + np.float32(scale).tobytes() + q.tobytes()
    raise ValueError(f"unknown feature format '{fmt}'")


def decode(blob) -> np.ndarray:
    """float32 values of a compact BLOB (see is_compact)."""
    raw = bytes(blob)
    code, payload = raw[4], raw[5:]
    if code == FLOAT16:
        return np.frombuffer(payload, dtype="<f2").astype(np.float32)
    if code == INT8:
        scale = np.frombuffer(payload[:4], dtype="<f4")[0]
        return np.frombuffer(payload[4:], dtype=np.int8).astype(np.float32) * scale
    raise ValueError(f"unknown compact feature code {code}")
