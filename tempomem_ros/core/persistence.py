"""Evidence that an object is gone, accumulated over separate looks (in the spirit of Rosen et al.'s
Persistence Filter): the arithmetic, without the store.

Why looks and not frames: frames of one look are not independent. A segmenter that fails on an object
from one viewpoint fails in every frame of that look, so ten missed frames of one glance are not ten times
the evidence of one. Frames whose misses follow each other within ``look_gap_s`` form one look; a look
contributes at most one unit of evidence (``look_misses / misses_to_remove``, capped at 1), and separate
looks add up. So a robot that sweeps past a place three times, one frame each, learns the thing there is
gone as surely as one that stares at it for a second, while one sighting in between starts the count anew
(evidence belongs to the absence since the last sighting).

The decision needs ``evidence_to_remove`` units and, within a single look, ``min_absence_s`` of it: a
one-look removal must span that long (the existing 3 misses over >= 1 s rule), several looks need not; or
it is a short look decisive by its count (short_look_decides).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class AbsenceState:
    evidence: float = 0.0           # units from finished looks plus the current one
    looks: int = 0                  # looks with at least one miss, the current one included
    look_start: float | None = None  # stamp of the current look's first miss
    look_misses: int = 0            # misses in the current look
    first_miss: float | None = None  # first miss since the last sighting (the removal's stamp)
    last_miss: float | None = None

    @classmethod
    def of_row(cls, row) -> AbsenceState:
        """The state an object row holds (store/object_row.py: absence_evidence, absence_looks, look_start,
        look_misses, first_miss, last_miss). Why one reader: the fuser adds a miss to it (frame_fusion) and settling
        asks whether it decides the guarded join (_seen_empty_since); both must read the columns alike."""
        return cls(float(row.absence_evidence), int(row.absence_looks or 0), _stamp(row.look_start),
                   int(row.look_misses or 0), _stamp(row.first_miss), _stamp(row.last_miss))


def _stamp(value) -> float | None:
    return None if value is None else float(value)


def look_units(misses: int, misses_to_remove: int) -> float:
    return min(1.0, misses / float(misses_to_remove))


def add_miss(state: AbsenceState, stamp: float, *, look_gap_s: float, misses_to_remove: int) -> AbsenceState:
    """The state after one more miss at ``stamp`` (misses arrive in stamp order)."""
    if state.look_start is None or state.last_miss is None or stamp - state.last_miss > look_gap_s:
        # a new look: the finished one's units are already in evidence
        return AbsenceState(state.evidence + look_units(1, misses_to_remove), state.looks + 1, stamp, 1,
                            stamp if state.first_miss is None else min(state.first_miss, stamp), stamp)
    before = look_units(state.look_misses, misses_to_remove)
    after = look_units(state.look_misses + 1, misses_to_remove)
    return AbsenceState(state.evidence + after - before, state.looks, state.look_start, state.look_misses + 1,
                        state.first_miss, stamp)


def gone(state: AbsenceState, *, evidence_to_remove: float, min_absence_s: float, short_look_misses: int = 0,
         short_look_s: float = 0.0) -> bool:
    """Whether the accumulated evidence decides that the object is gone."""
    if state.evidence < evidence_to_remove - 1e-9:
        return False
    if state.looks >= 2:
        return True
    if state.last_miss is None or state.look_start is None:
        return False
    span = state.last_miss - state.look_start
    return span >= min_absence_s - 1e-9 \
        or short_look_decides(state.look_misses, span, short_look_misses=short_look_misses, short_look_s=short_look_s)


def short_look_decides(misses: int, span: float, *, short_look_misses: int, short_look_s: float) -> bool:
    """Whether one look shorter than ``min_absence_s`` decides alone: at least ``short_look_misses`` misses (0: never)
    spanning at least ``short_look_s``.

    Why: a patrol look at a place lasts 0.6-0.8 s (4-6 frames at 5-7.5 Hz). An object taken away while no other
    look came back to its place was never removed: its one look fell short of the 1 s rule however many frames
    saw the place empty (h430 seed 436, a vase: 4 misses over 0.6 s, all samples visible; h400 seed 405, glasses:
    6 misses over 0.8 s). Each miss was already judged detectable (absence.py: the expected eroded mask clears
    the perception's floor, at least ``min_visible_fraction`` of the samples seen): four such frames in a row
    are not what a detector's dropout looks like. The span floor keeps a burst of frames at 15 Hz (4 frames in
    0.2 s), which a single blurred or badly lit moment can explain, from deciding alone."""
    return short_look_misses > 0 and misses >= short_look_misses and span >= short_look_s - 1e-9


def short_look_unclear(misses: Iterable[tuple[float, float]], acfg) -> bool:
    """Whether a removal due from one short look (short_look_decides: the misses since the last sighting, (stamp,
    visible fraction) in stamp order, form one look shorter than ``min_absence_s``) saw the place in fewer than
    ``short_look_misses`` frames with at least ``short_look_clear_fraction`` of the object's samples in view: it waits
    for another look, a longer one, or clearer frames. ``acfg``: config.AbsenceConfig.

    Why: a view that shows two thirds of a phone among other things on a shelf is one where the detector reports it
    about half the time (dev seed 1, no feature: four misses at 67 % in 0.84 s, the phone read "wallet" at 24 px in
    one of them; with the short-look rule alone it was removed while it stood there, and reappeared). The places
    whose short look decided rightly were seen whole (h430 seed 436, h400 seed 405: every sample in view)."""
    misses = list(misses)
    if acfg.short_look_misses <= 0 or not misses:
        return False
    if any(b[0] - a[0] > acfg.look_gap_s for a, b in zip(misses, misses[1:])):
        return False   # several looks: the evidence over looks decided
    if misses[-1][0] - misses[0][0] >= acfg.min_absence_s - 1e-9:
        return False   # a look as long as the one-look rule asks
    clear = sum(1 for _, f in misses if f >= acfg.short_look_clear_fraction - 1e-9)
    return clear < acfg.short_look_misses


def clear_look_lasts(misses: Iterable[tuple[float, float]], acfg, min_misses: int) -> bool:
    """Whether one look among ``misses`` ((stamp, visible fraction) in stamp order, looks split by ``look_gap_s``)
    has at least ``min_misses`` misses, each seeing at least ``short_look_clear_fraction`` of the thing's samples,
    and lasted ``short_look_s`` counting each frame's interval: n misses x the mean gap between them (a frame shows
    the place for its interval, so 3 frames at 5 Hz watch it for 0.6 s, their stamps span 0.4 s). 0 misses: never.
    ``acfg``: config.AbsenceConfig.

    Why a frame's interval: the span of the stamps of n frames is n - 1 intervals, so the same look counts as
    shorter at a lower camera rate: h540 seed 544 (5 Hz, no feature and clip), a bottle moved off a high shelf
    and found on a table 52 s later; its old place was seen once, 3 frames in 0.4 s, every sample clear, estimated
    at 138-210 px: no look a removal accepts (one look under min_absence_s, under short_look_misses), and the old
    bottle stayed present on the shelf for good, the new one an appearance. A 15 Hz burst of 3 frames (0.13 s)
    still lasts 0.2 s: no such look (fix47's keys seen at their place 5 s later)."""
    if min_misses <= 0:
        return False
    look: list[tuple[float, float]] = []
    for miss in list(misses) + [None]:
        if miss is not None and (not look or miss[0] - look[-1][0] <= acfg.look_gap_s):
            look.append(miss)
            continue
        n = len(look)
        if n >= min_misses and all(f >= acfg.short_look_clear_fraction - 1e-9 for _, f in look) \
                and n * (look[-1][0] - look[0][0]) / (n - 1) >= acfg.short_look_s - 1e-9:
            return True
        look = [miss] if miss is not None else []
    return False


def add_misses(state: AbsenceState, due: float | None, stamps: Iterable[float],
               acfg) -> tuple[AbsenceState, float | None]:
    """The state after the misses at ``stamps`` (in stamp order), and when the removal falls due: ``due`` as given
    if already set, else ``removal_hold_s`` after the first of these misses at which the evidence decides the
    object is gone (gone), else None. ``acfg``: config.AbsenceConfig (look_gap_s, misses_to_remove,
    evidence_to_remove, min_absence_s, short_look_misses, short_look_s, removal_hold_s).
    Why one function: the fuser adds one miss a frame and
    settling replays the misses after a joined twin's last sighting (Settling._absence_since_sighting); both must
    reach the same state and due time from the same misses."""
    for stamp in stamps:
        state = add_miss(state, stamp, look_gap_s=acfg.look_gap_s, misses_to_remove=acfg.misses_to_remove)
        if due is None and gone(state, evidence_to_remove=acfg.evidence_to_remove, min_absence_s=acfg.min_absence_s,
                                short_look_misses=acfg.short_look_misses, short_look_s=acfg.short_look_s):
            due = stamp + acfg.removal_hold_s
    return state, due


def evidenced_since(stamps: Iterable[float], acfg) -> float | None:
    """When a removal was first evidenced well: the first miss of the first full look (``misses_to_remove``
    misses or more, looks split by ``look_gap_s``) among ``stamps`` (the misses since the last sighting, in
    stamp order); None when no look was full (separate glances, each weak alike: the first miss dates it).

    Why: a look of one or two missed frames is what a segmenter's dropout looks like as much as a thing gone;
    it adds evidence, but dating the change by it says the thing left while it may still have stood there.
    Seed 328 (no feature): a cup missed in two frames at 1385.8 s (a detector dropout: it was there until it was
    moved at 1561.2 s) and in a full look at 1576.2 s was reported removed at 1385.8 s, a false removal."""
    first, start, prev, n = None, None, None, 0
    for t in stamps:
        if prev is None or t - prev > acfg.look_gap_s:
            start, n = t, 0
        n, prev = n + 1, t
        if n >= acfg.misses_to_remove and first is None:
            first = start
    return first
