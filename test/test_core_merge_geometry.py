"""fusion.merge_geometry in plain floats gives what its numpy form gives, to the bit.

Why: the fuser's merge runs it 20 times a frame, and the plain-float form (55 -> ~15 us a merge) must decide
exactly as before: every box, centroid and size it writes is compared here with the numpy form
(fusion._merge_geometry_arrays) on random values, on values drawn from a few numbers so that ties (and zeros of
both signs) are common, and on non-finite inputs (which take the numpy form).
"""

from __future__ import annotations

import math
import random

import numpy as np

from tempomem_ros.core import fusion

_FEW = (0.0, -0.0, 0.25, -0.25, 0.5, 1.0, -1.0, 2.0, 0.1, 0.3)


def _bits(result) -> tuple:
    center, lo, hi, weight, ext = result
    return (np.asarray(center, np.float64).tobytes(), np.asarray(lo, np.float64).tobytes(),
            np.asarray(hi, np.float64).tobytes(), float(weight).hex(), np.asarray(ext, np.float64).tobytes())


def _case(rng: random.Random, few: bool) -> dict:
    def num(scale: float = 1.0) -> float:
        return rng.choice(_FEW) if few else rng.uniform(-scale, scale)

    def vec(scale: float = 1.0):
        v = [num(scale) for _ in range(3)]
        return tuple(v) if rng.random() < 0.5 else np.array(v)

    def pos(scale: float) -> float:
        return abs(num(scale)) if few else rng.uniform(0.0, scale)

    bmin = vec(2.0)
    return dict(center=vec(2.0), bmin=bmin, bmax=tuple(float(b) + pos(1.5) for b in bmin), weight=pos(3.0) + 0.05,
                ext=tuple(pos(1.5) for _ in range(3)), obs_center=vec(2.0), obs_min=vec(2.0), obs_max=vec(2.0),
                obs_weight=pos(1.0) + 0.05, clamp_factor=rng.choice((1.0, 2.0, 1.5)),
                growth_factor=rng.choice((None, 2.0, 1.0)), growth_floor=rng.choice((0.0, 0.25)),
                n_folded=rng.randrange(0, 12), mean_box_after=rng.choice((0, 3, 5)),
                mean_box_below=rng.choice((0.0, 0.3, 0.6)), size_after=rng.choice((0, 2, 6)),
                size_quantile=rng.choice((0.9, 0.5)), size_step=rng.choice((0.0, 0.1, 0.05)),
                size_below=rng.choice((0.0, 0.6, 1.5)))


def test_plain_floats_equal_the_arrays_to_the_bit_on_random_and_tied_values():
    rng = random.Random(15)
    for n in range(40000):
        kw = _case(rng, few=n % 2 == 1)
        assert _bits(fusion.merge_geometry(**kw)) == _bits(fusion._merge_geometry_arrays(**kw)), kw


def test_ties_keep_numpys_signed_zeros():
    """A tie of 0.0 and -0.0 is where Python's max() (first argument) and numpy's maximum (second) differ."""
    kw = dict(center=(0.0, 0.0, 0.0), bmin=(-0.0, -0.0, -0.0), bmax=(0.0, 0.0, 0.0), weight=1.0, ext=(0.0, 0.0, 0.0),
              obs_center=(0.0, -0.0, 0.0), obs_min=(0.0, 0.0, -0.0), obs_max=(-0.0, 0.0, 0.0), obs_weight=1.0,
              clamp_factor=2.0, growth_factor=2.0, growth_floor=0.0)
    assert _bits(fusion.merge_geometry(**kw)) == _bits(fusion._merge_geometry_arrays(**kw))


def test_non_finite_inputs_take_the_arrays_path():
    rng = random.Random(7)
    for bad in (math.nan, math.inf, -math.inf):
        for key in ("center", "obs_min", "obs_max", "ext"):
            kw = _case(rng, few=False)
            v = list(kw[key])
            v[rng.randrange(3)] = bad
            kw[key] = tuple(v)
            assert _bits(fusion.merge_geometry(**kw)) == _bits(fusion._merge_geometry_arrays(**kw))


def test_returns_arrays_as_before():
    center, lo, hi, weight, ext = fusion.merge_geometry(
        center=(0.0, 0.0, 0.5), bmin=(-0.1, -0.1, 0.4), bmax=(0.1, 0.1, 0.6), weight=1.0, ext=(0.2, 0.2, 0.2),
        obs_center=(0.05, 0.0, 0.5), obs_min=(-0.05, -0.1, 0.4), obs_max=(0.15, 0.1, 0.6), obs_weight=1.0,
        clamp_factor=2.0, growth_factor=2.0, growth_floor=0.25)
    assert all(isinstance(v, np.ndarray) and v.dtype == np.float64 and v.shape == (3,) for v in (center, lo, hi, ext))
    assert weight == 2.0
    assert center.tolist() == [0.025, 0.0, 0.5]
    assert lo.tolist() == [-0.1, -0.1, 0.4] and hi.tolist() == [0.15, 0.1, 0.6]
    assert ext.tolist() == [0.2, 0.2, 0.2]


def test_values_are_the_arrays_elements_as_python_floats():
    """merge_geometry_values (FrameFusion._merge's call: round 11 of docs/RESULTS.md section 7) gives the arrays'
    elements as Python floats, to the bit, on random, tied and non-finite values."""
    rng = random.Random(11)
    for n in range(20000):
        kw = _case(rng, few=n % 2 == 1)
        if n % 10 == 9:
            key = rng.choice(("center", "obs_min", "obs_max", "ext", "bmin"))
            v = list(kw[key])
            v[rng.randrange(3)] = rng.choice((math.nan, math.inf, -math.inf))
            kw[key] = tuple(v)
        values = fusion.merge_geometry_values(**kw)
        assert _bits(values) == _bits(fusion._merge_geometry_arrays(**kw)), kw
        center, lo, hi, _, ext = values
        assert all(type(v) is list and len(v) == 3 and all(type(x) is float for x in v) for v in (center, lo, hi, ext))
