"""A frame's sightings validated at once (validation.observations, plausible_frame's _plausible_at_once) accept
exactly what the item-by-item checks accept, and refuse with the same error, the first bad item's.

Why: the batch path is only a shortcut for the common frame (round 13 of docs/RESULTS.md section 7: 0.48 -> 0.12 ms
a frame of 20); a frame it cannot clear goes through the per-item checks, which name the error. Here 6,000 random
frames mixing good sightings with every kind of bad or unusual value are put through both.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pytest

from tempomem_ros.core import validation
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.errors import ImplausibleInputError, InvalidInputError
from tempomem_ros.core.types import Observation

DIM = 8
NOW = 1_700_000_000.0
STAMP = NOW - 50.0
GATES = MemoryConfig().gates


@dataclass(frozen=True, eq=False)
class SubObservation(Observation):
    pass


class Label(str):
    pass


def _good(rng: random.Random, feature: bool) -> dict:
    lo = [rng.uniform(-50, 50) for _ in range(3)]
    hi = [v + rng.uniform(0.0, 2.0) for v in lo]
    center = [rng.uniform(a, b) for a, b in zip(lo, hi)]
    feat = None
    if feature:
        feat = np.array([rng.uniform(-1, 1) for _ in range(DIM)], np.float32)
    return {"label": rng.choice(["mug", "table", ""]), "confidence": rng.uniform(0, 1), "center": center,
            "bbox_min": lo, "bbox_max": hi, "stamp": STAMP + rng.uniform(-5, 5), "feature": feat,
            "n_points": rng.randint(0, 500), "instance_id": rng.randint(0, 9)}


def _vector_flaw(rng: random.Random, kw: dict) -> None:
    name = rng.choice(["center", "bbox_min", "bbox_max"])
    v = list(kw[name])
    k = rng.randrange(3)
    flaw = rng.randrange(9)
    if flaw == 0:
        v[k] = float("nan")
    elif flaw == 1:
        v[k] = float("inf")
    elif flaw == 2:
        v[k] = rng.choice([1e30, -2e4, 9_999.0, 10_000.0, 10_000.000001])  # the world bound
    elif flaw == 3:
        kw["bbox_max"][k] = kw["bbox_min"][k] + rng.choice([10.0, 10.000001, 12.0])  # the extent
        kw["center"][k] = kw["bbox_min"][k]
        return
    elif flaw == 4:  # the centre just outside or just inside its box's tolerance
        kw["center"][k] = kw["bbox_max"][k] + rng.choice([2e-6, 5e-7, 1e-6])
        return
    elif flaw == 5:
        kw["bbox_min"][k], kw["bbox_max"][k] = kw["bbox_max"][k] + 1.0, kw["bbox_min"][k]
        return
    elif flaw == 6:
        v = v[:2]
    elif flaw == 7:
        kw[name] = np.array(v).reshape(3, 1)
        return
    else:
        v[k] = str(v[k])
    kw[name] = v


def _flaw(rng: random.Random, kw: dict) -> object:
    """Mutate the keyword arguments of one sighting, or return another item to stand in for it."""
    field = rng.randrange(9)
    if field == 0:
        kw["confidence"] = rng.choice([float("nan"), float("inf"), -0.1, 1.1, 1.0, 0.0, True, np.float32(0.5),
                                       "0.5", 2**1100, None, np.float64(0.3)])
    elif field == 1:
        _vector_flaw(rng, kw)
    elif field == 2:
        kw["stamp"] = rng.choice([float("nan"), -1.0, 2.0**31, NOW + 301.0, NOW + 299.0, STAMP + 601.0,
                                  STAMP - 599.0, np.float64(STAMP), int(STAMP), "x"])
    elif field == 3:
        kw["feature"] = rng.choice([np.ones(DIM + 1, np.float32), np.ones((2, DIM // 2), np.float32),
                                    np.full(DIM, np.nan, np.float32), np.zeros(DIM, np.float32),
                                    np.full(DIM, 1e-8), np.full(DIM, 1e7), [0.5] * DIM, np.ones(DIM)])
    elif field == 4:
        kw["n_points"] = rng.choice([-1, True, np.int64(5), 2**63, 1.5, 2**63 - 1])
    elif field == 5:
        kw["instance_id"] = rng.choice([-1, False, np.uint8(3), 2**63, 2.0, 2**63 - 1])
    elif field == 6:
        kw["label"] = rng.choice([5, Label("mug"), None])
    elif field == 7:
        return rng.choice([{"label": "mug"}, None, SubObservation(**kw)])
    else:
        kw["center"] = tuple(kw["center"])  # an unusual but good form
    return Observation(**kw)


def _outcome(fn) -> tuple:
    try:
        return ("accepted", fn())
    except (InvalidInputError, ImplausibleInputError) as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "reason", None))


def _each(items: list):
    """What main did: every item's well-formedness, then the frame's stamp and every item's gates, in order."""
    for i, obs in enumerate(items):
        validation.observation(obs, i, DIM)
    validation.plausible_stamp(STAMP, "frame stamp", NOW, GATES)
    return validation._plausible_each(items, STAMP, NOW, GATES)


def _at_once(items: list):
    validation.observations(items, DIM)
    return validation.plausible_frame(items, None, STAMP, NOW, GATES)


@pytest.mark.parametrize("seed", range(6))
def test_a_frame_checked_at_once_has_the_outcome_of_the_items_checked_one_by_one(seed):
    rng = random.Random(seed)
    seen = {"accepted": 0, "InvalidInputError": 0, "ImplausibleInputError": 0}
    for _ in range(1000):
        feature = rng.random() < 0.5
        items = []
        for _ in range(rng.choice([0, 1, 2, 20, 25])):
            kw = _good(rng, feature)
            items.append(_flaw(rng, kw) if rng.random() < 0.04 else Observation(**kw))
        want = _outcome(lambda: _each(items))
        assert _outcome(lambda: _at_once(items)) == want
        seen[want[0]] += 1
    assert min(seen.values()) >= 10, seen  # every outcome drawn


def test_the_common_frame_is_cleared_at_once():
    """A frame of plain sightings (float triples, float32 features or none) takes the batch path; a frame with
    one unusual but good item (a centre as a 3x1 array) is cleared by the per-item checks instead, and accepted."""
    rng = random.Random(7)
    items = [Observation(**_good(rng, True)) for _ in range(20)]
    assert validation._well_formed_at_once(items, DIM)
    newest = validation._plausible_at_once(items, STAMP, NOW, GATES)
    assert newest == max([STAMP] + [float(o.stamp) for o in items])
    odd = dict(_good(rng, True), center=None)
    odd["center"] = np.array(odd["bbox_min"]).reshape(3, 1)
    items.append(Observation(**odd))
    assert validation._well_formed_at_once(items, DIM) is True  # the Observation made it a float triple
    items.append(SubObservation(**_good(rng, False)))
    assert validation._well_formed_at_once(items, DIM) is False
    assert _at_once(items) == _each(items)
