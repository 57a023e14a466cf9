"""Thinned sightings counted exactly: their ids and stamps as compressed integer sequences.

Why ids and exact stamps rather than a count: "how many times did I see the keys between 9 and 10" counts the
sightings inside any span, and a count per look would be exact only for spans that do not cut a look. Why it
is cheap: a sequence is stored as the differences of its values, zigzag-coded, split into byte planes and
zlib-compressed. Ids of one object's sightings advance by about the number of instances per frame (one byte
plane varies); stamps are stored as the differences of their IEEE-754 bit patterns, which is exact for every
float (no rounding to microseconds) and, for stamps of one binade such as Unix times, is the step in units of
the last place: a 10 Hz camera with a few milliseconds of jitter varies in three byte planes. Measured: about
2-3 bytes per thinned sighting (bench/bench_long_run.py prints it), most of it the stamps; core/stamplog.py
shares those with the frame.
"""

from __future__ import annotations

import zlib

import numpy as np

LEVEL = 6


def encode_ints(values) -> bytes:
    """int64 values (any order) -> bytes."""
    v = np.ascontiguousarray(values, dtype=np.int64)
    with np.errstate(over="ignore"):
        d = np.diff(v, prepend=np.int64(0))  # wraps on overflow; cumsum undoes it exactly
        z = ((d << 1) ^ (d >> 63)).view(np.uint64)
    planes = z.astype("<u8").view(np.uint8).reshape(-1, 8).T
    return zlib.compress(np.ascontiguousarray(planes).tobytes(), LEVEL)


def decode_ints(blob, n: int) -> np.ndarray:
    planes = np.frombuffer(zlib.decompress(bytes(blob)), dtype=np.uint8).reshape(8, n)
    z = np.ascontiguousarray(planes.T).view("<u8").reshape(n).astype(np.uint64)
    d = (z >> np.uint64(1)).view(np.int64) ^ -(z & np.uint64(1)).view(np.int64)
    with np.errstate(over="ignore"):
        return np.cumsum(d, dtype=np.int64)


def encode_stamps(stamps) -> bytes:
    """float64 stamps -> bytes; decode_stamps gives back the very same floats."""
    return encode_ints(np.ascontiguousarray(stamps, dtype="<f8").view("<i8"))


def decode_stamps(blob, n: int) -> np.ndarray:
    return decode_ints(blob, n).view("<f8")
