"""The score's geometry in plain floats gives what the loops gave, to the bit.

Why: fusion.score runs for every candidate of every sighting and association.same_place for every candidate
too; their box arithmetic (geometry.iou3d, containment, point_box_distance, and the score's IoU and containment
from one geometry.padded_volumes) is written out for three axes, and must decide exactly as before. The
functions as they were are kept here as the reference and compared with the new ones on random values, on
values drawn from a few numbers (ties and zeros of both signs are common), on NaN / inf, and on numpy and
tuple inputs, to the last bit of every float (a NaN's sign included).
"""

from __future__ import annotations

import math
import random
import struct

import numpy as np

from tempomem_ros.core import association, fusion, geometry
from tempomem_ros.core.config import FusionConfig
from tempomem_ros.core.geometry import box_volume, intersection_volume

_FEW = (0.0, -0.0, 0.25, -0.25, 0.5, 1.0, -1.0, 2.0, 0.1, 0.3)
_ODD = (math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0, 1e308, -1e308, 5e-324)


# ---------------------------------------------------------------------------------------- the reference (as it was)
def _iou3d_ref(amin, amax, bmin, bmax, pad: float = 0.0) -> float:
    amin = [float(x) - pad for x in amin[:3]]
    amax = [float(x) + pad for x in amax[:3]]
    bmin = [float(x) - pad for x in bmin[:3]]
    bmax = [float(x) + pad for x in bmax[:3]]
    inter = intersection_volume(amin, amax, bmin, bmax)
    if inter <= 0.0:
        return 0.0
    union = box_volume(amin, amax) + box_volume(bmin, bmax) - inter
    return inter / union if union > 0 else 0.0


def _containment_ref(amin, amax, bmin, bmax, pad: float = 0.0) -> float:
    amin = [float(x) - pad for x in amin[:3]]
    amax = [float(x) + pad for x in amax[:3]]
    bmin = [float(x) - pad for x in bmin[:3]]
    bmax = [float(x) + pad for x in bmax[:3]]
    va = box_volume(amin, amax)
    return intersection_volume(amin, amax, bmin, bmax) / va if va > 0 else 0.0


def _point_box_distance_ref(p, bmin, bmax) -> float:
    d2 = 0.0
    for i in range(3):
        d = max(float(bmin[i]) - float(p[i]), float(p[i]) - float(bmax[i]), 0.0)
        d2 += d * d
    return math.sqrt(d2)


def _score_ref(cfg, *, obs_center, obs_min, obs_max, obs_label, obs_feature, cand_min, cand_max, cand_label, cand_mass,
               cand_feature, label_similarity=None) -> fusion.ScoreParts:
    d = _point_box_distance_ref(obs_center, cand_min, cand_max)
    extent = max(float(cand_max[i]) - float(cand_min[i]) for i in range(3))
    geometry_ = max(0.0, 1.0 - d / max(cfg.geometry_scale, 0.5 * extent))
    iou = _iou3d_ref(obs_min, obs_max, cand_min, cand_max, pad=cfg.box_padding)
    label = fusion.label_agreement(obs_label, cand_label, cand_mass)
    if label_similarity is not None:
        label = max(label, min(1.0, max(0.0, label_similarity)))
    if label >= 1.0:
        iou = max(iou, _containment_ref(obs_min, obs_max, cand_min, cand_max, pad=cfg.box_padding))
    cos = fusion.cosine(obs_feature, cand_feature)
    if cos is None:
        norm = cfg.w_geometry + cfg.w_iou + cfg.w_label
        total = (cfg.w_geometry * geometry_ + cfg.w_iou * iou + cfg.w_label * label) / norm
        feature = None
    else:
        feature = max(0.0, cos)
        total = cfg.w_geometry * geometry_ + cfg.w_iou * iou + cfg.w_feature * feature + cfg.w_label * label
    return fusion.ScoreParts(round(total, 12), geometry_, iou, feature, label)


def _same_place_ref(amin, amax, bmin, bmax, *, tol: float, max_ratio: float, min_iou: float) -> bool:
    if _iou3d_ref(amin, amax, bmin, bmax, pad=tol) < min_iou:
        return False
    for i in range(3):
        a0, a1, b0, b1 = float(amin[i]), float(amax[i]), float(bmin[i]), float(bmax[i])
        ca, cb = 0.5 * (a0 + a1), 0.5 * (b0 + b1)
        if not (b0 - tol <= ca <= b1 + tol and a0 - tol <= cb <= a1 + tol):
            return False
        ea, eb = max(a1 - a0, 2 * tol), max(b1 - b0, 2 * tol)
        if max(ea, eb) > max_ratio * min(ea, eb):
            return False
    return True


# ---------------------------------------------------------------------------------------- cases
def _bits(x) -> bytes:
    return b"None" if x is None else struct.pack("<d", x)


def _parts_bits(p: fusion.ScoreParts) -> tuple:
    return tuple(_bits(v) for v in (p.score, p.geometry, p.iou, p.feature, p.label))


def _num(rng: random.Random, kind: int, scale: float = 1.0) -> float:
    if kind == 0:
        return rng.uniform(-scale, scale)
    if kind == 1:
        return rng.choice(_FEW)
    return rng.choice(_ODD) if rng.random() < 0.3 else rng.choice(_FEW)


def _vec(rng: random.Random, kind: int, base=None, scale: float = 1.0):
    v = [(0.0 if base is None else float(base[i])) + (abs(_num(rng, kind, scale)) if base is not None else
                                                      _num(rng, kind, scale)) for i in range(3)]
    if kind == 2 and base is not None and rng.random() < 0.2:
        v[rng.randrange(3)] = rng.choice(_ODD)
    form = rng.randrange(4)
    if form == 0:
        return tuple(v)
    if form == 1:
        return np.array(v)
    if form == 2 and all(not math.isfinite(x) or abs(x) < 1e30 for x in v):  # float32 holds it
        return np.array(v, np.float32)
    return list(v)


def _boxes(rng: random.Random, kind: int):
    amin = _vec(rng, kind, scale=2.0)
    bmin = _vec(rng, kind, scale=2.0) if rng.random() < 0.5 else _vec(rng, kind, base=amin, scale=0.3)
    return amin, _vec(rng, kind, base=amin, scale=1.5), bmin, _vec(rng, kind, base=bmin, scale=1.5)


def test_iou_containment_and_distance_equal_the_loops_to_the_bit():
    rng = random.Random(15)
    for n in range(60000):
        kind = n % 3
        amin, amax, bmin, bmax = _boxes(rng, kind)
        pad = rng.choice((0.0, 0.02, 0.05, -0.0))
        assert _bits(geometry.iou3d(amin, amax, bmin, bmax, pad=pad)) == \
            _bits(_iou3d_ref(amin, amax, bmin, bmax, pad=pad)), (amin, amax, bmin, bmax, pad)
        assert _bits(geometry.containment(amin, amax, bmin, bmax, pad=pad)) == \
            _bits(_containment_ref(amin, amax, bmin, bmax, pad=pad)), (amin, amax, bmin, bmax, pad)
        p = _vec(rng, kind, scale=2.0)
        assert _bits(geometry.point_box_distance(p, bmin, bmax)) == \
            _bits(_point_box_distance_ref(p, bmin, bmax)), (p, bmin, bmax)


def test_score_equals_the_loops_to_the_bit():
    rng = random.Random(11)
    labels = ("mug", "cup", "mug 3", "red mug", "chair")
    for n in range(40000):
        kind = n % 3
        amin, amax, bmin, bmax = _boxes(rng, kind)
        cfg = FusionConfig(geometry_scale=rng.choice((0.25, 0.5)), box_padding=rng.choice((0.0, 0.02, 0.05)))
        feats = [None, np.array([1.0, 0.0, 0.0], np.float32), np.array([0.6, 0.8, 0.0], np.float32)]
        kw = dict(obs_center=_vec(rng, kind, scale=2.0), obs_min=amin, obs_max=amax, obs_label=rng.choice(labels),
                  obs_feature=rng.choice(feats), cand_min=bmin, cand_max=bmax, cand_label=rng.choice(labels),
                  cand_mass=rng.choice(({}, {"mug": 2.0, "cup": 1.0}, {"chair": 1.0})),
                  cand_feature=rng.choice(feats), label_similarity=rng.choice((None, 0.5, 1.0, 1.5)))
        assert _parts_bits(fusion.score(cfg, **kw)) == _parts_bits(_score_ref(cfg, **kw)), kw


def test_ties_keep_the_first_argument_and_its_zero():
    """Where the tie rule shows: equal bounds of opposite zeros, and a containment of exactly zero volume."""
    z, nz = (0.0, 0.0, 0.0), (-0.0, -0.0, -0.0)
    one = (1.0, 1.0, 1.0)
    for a, b in ((z, nz), (nz, z)):
        assert _bits(geometry.containment(a, one, b, one)) == _bits(_containment_ref(a, one, b, one))
        assert _bits(geometry.containment(a, a, b, b)) == _bits(_containment_ref(a, a, b, b)) == _bits(0.0)
        assert _bits(geometry.point_box_distance(a, b, b)) == _bits(_point_box_distance_ref(a, b, b))
    # the intersection of boxes that touch at -0.0 is -0.0 (a product of the signed zero), containment -0.0 / 1.0
    assert _bits(geometry.containment((0.0, 0.0, -1.0), one, (-1.0, -1.0, -1.0), (1.0, 1.0, -0.0))) == \
        _bits(_containment_ref((0.0, 0.0, -1.0), one, (-1.0, -1.0, -1.0), (1.0, 1.0, -0.0)))


def test_padded_volumes_are_the_loops_volumes():
    rng = random.Random(3)
    for _ in range(5000):
        amin, amax, bmin, bmax = _boxes(rng, 1)
        pad = rng.choice((0.0, 0.05))
        grown = ([float(x) - pad for x in amin], [float(x) + pad for x in amax],
                 [float(x) - pad for x in bmin], [float(x) + pad for x in bmax])
        want = (intersection_volume(*grown), box_volume(*grown[:2]), box_volume(*grown[2:]))
        assert tuple(map(_bits, geometry.padded_volumes(amin, amax, bmin, bmax, pad))) == tuple(map(_bits, want))


def test_same_place_equals_the_loops():
    rng = random.Random(7)
    agreed = 0
    for n in range(60000):
        kind = n % 3
        amin, amax, bmin, bmax = _boxes(rng, kind)
        if rng.random() < 0.5:  # b near a: the later tests decide, not the IoU
            bmin, bmax = amin, _vec(rng, kind, base=amin, scale=1.0)
        kw = dict(tol=rng.choice((0.0, 0.05, -0.0)), max_ratio=rng.choice((1.0, 2.0, 3.0)),
                  min_iou=rng.choice((0.0, 0.1, 0.3)))
        want = _same_place_ref(amin, amax, bmin, bmax, **kw)
        assert association.same_place(amin, amax, bmin, bmax, **kw) is want, (amin, amax, bmin, bmax, kw)
        agreed += want
    assert 500 < agreed < 55000  # both answers occur
