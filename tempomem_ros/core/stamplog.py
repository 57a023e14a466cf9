"""The stamps of thinned sightings, shared: one record of every frame's stamp instead of one per sighting.

Why: a tally (tally.py) kept every thinned sighting's exact stamp, and the stamps were most of its bytes (the
camera's jitter of a few milliseconds is what costs: the differences of stamps do not repeat). But the ~17 objects
in one view share one stamp, that of their frame. So a compaction pass now records, once, the stamps of the
sightings it looks at as runs of consecutive observation ids with one stamp (a frame's sightings are inserted
together, so a frame is one run; a sighting stamped apart from its frame-mates is a run of its own): a tally row of
kind ``stamps``, ``ids`` the first id of each run and ``stamps`` its stamp (NaN: a gap, ids no run holds). A tally
row of sightings then keeps only their ids and, per pass, the count and the first and last stamp (a "part",
PARTS_MARK): counting inside a span reads the part's bounds, and only a part that straddles the span's edge looks
its stamps up in the runs (the rows of kind ``stamps`` within STAMP_ROW_SPAN_S of it, tallies_object index). A
part is written only when the runs give back every stamp bit for bit, so counts stay exact; sightings no run holds
(thinned in a store written before the runs) keep their stamps in the tally as before. Measured
(bench/bench_long_run.py --days 2 --continuous-min 12 --retention thin --features off): 3.56 -> 1.46 bytes per
thinned sighting, 13.78 -> 11.94 MB per robot-hour.
"""

from __future__ import annotations

import struct

import numpy as np

from . import tally

PARTS_MARK = b"P"          # first byte of a tally's stamps blob in parts form (a zlib stream starts with 0x78)
STAMP_ROW_SPAN_S = 60.0    # the stamps of one row of runs lie within this many seconds: a lookup reads few rows


def is_parts(blob) -> bool:
    return bytes(blob[:1]) == PARTS_MARK


def encode_parts(counts, firsts, lasts) -> bytes:
    counts = np.asarray(counts, dtype=np.int64)
    bits = np.concatenate([counts, np.asarray(firsts, dtype="<f8").view("<i8"),
                           np.asarray(lasts, dtype="<f8").view("<i8")])
    return PARTS_MARK + struct.pack("<I", len(counts)) + tally.encode_ints(bits)


def decode_parts(blob) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(counts, first stamps, last stamps) of a parts blob."""
    blob = bytes(blob)
    n = struct.unpack("<I", blob[1:5])[0]
    bits = tally.decode_ints(blob[5:], 3 * n)
    return bits[:n], bits[n:2 * n].view("<f8"), bits[2 * n:].view("<f8")


class Runs:
    """Runs of consecutive observation ids with one stamp, sorted by their first id; NaN stamps mark gaps."""

    def __init__(self, starts: np.ndarray, stamps: np.ndarray):
        # a row's closing gap marker and the next row's first run share a start: the run sorts last, and a
        # lookup (the last start at or below an id) finds it
        order = np.lexsort((~np.isnan(stamps), starts))
        self.starts, self.stamps = starts[order], stamps[order]

    @classmethod
    def of_observations(cls, ids, stamps) -> "Runs":
        ids = np.asarray(ids, dtype=np.int64)
        stamps = np.asarray(stamps, dtype=np.float64)
        if not len(ids):
            return cls(np.zeros(0, dtype=np.int64), np.zeros(0))
        order = np.argsort(ids, kind="stable")
        ids, stamps = ids[order], stamps[order]
        bits = stamps.view("<i8")
        new = np.concatenate(([True], (np.diff(ids) != 1) | (bits[1:] != bits[:-1])))
        gap_after = np.flatnonzero(np.diff(ids) > 1)           # a gap marker after every break in the ids ...
        starts = np.concatenate([ids[new], ids[gap_after] + 1, ids[-1:] + 1])  # ... and after the last id
        values = np.concatenate([stamps[new], np.full(len(gap_after) + 1, np.nan)])
        return cls(starts, values)

    @classmethod
    def concat(cls, runs: list["Runs"]) -> "Runs":
        if not runs:
            return cls(np.zeros(0, dtype=np.int64), np.zeros(0))
        return cls(np.concatenate([r.starts for r in runs]), np.concatenate([r.stamps for r in runs]))

    def stamps_of(self, ids) -> np.ndarray | None:
        """The stamps of ``ids`` (any order), or None when a run does not hold one of them."""
        ids = np.asarray(ids, dtype=np.int64)
        if not len(self.starts):
            return None if len(ids) else np.zeros(0)
        at = np.searchsorted(self.starts, ids, side="right") - 1
        if (at < 0).any():
            return None
        out = self.stamps[at]
        return None if np.isnan(out).any() else out

    def rows(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The runs cut into rows whose stamps lie within STAMP_ROW_SPAN_S, each closed by a gap marker."""
        out, begin = [], 0
        real = ~np.isnan(self.stamps)
        lo = hi = None
        for i in range(len(self.starts)):
            if not real[i]:
                continue
            s = float(self.stamps[i])
            if lo is not None and max(hi, s) - min(lo, s) > STAMP_ROW_SPAN_S:
                out.append(self._row(begin, i))
                begin, lo, hi = i, None, None
            lo, hi = (s, s) if lo is None else (min(lo, s), max(hi, s))
        if begin < len(self.starts) and real[begin:].any():
            out.append(self._row(begin, len(self.starts)))
        return out

    def _row(self, begin: int, end: int) -> tuple[np.ndarray, np.ndarray]:
        starts, stamps = self.starts[begin:end], self.stamps[begin:end]
        if end < len(self.starts) and not np.isnan(stamps[-1]):
            starts = np.concatenate([starts, self.starts[end:end + 1]])   # the next run's start closes this row
            stamps = np.concatenate([stamps, [np.nan]])
        return starts, stamps
