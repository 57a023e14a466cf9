"""frame_fusion._rigid_box in plain floats gives what its numpy form gives, to the bit.

Why: every merge into movable furniture seen whole takes its box from _rigid_box; the plain-float form must write
exactly the box the numpy form (frame_fusion._rigid_box_arrays, the rule as first written) wrote: compared here on
random values, on values drawn from a few numbers (ties: a view exactly WHOLE_VIEW_SHARE of the size, zeros of
both signs), on NaN / inf, and a float32 sighting box (its own subtraction: the numpy form is taken).
"""

from __future__ import annotations

import math
import random
from types import SimpleNamespace

import numpy as np

from tempomem_ros.core import frame_fusion as ff

_FEW = (0.0, -0.0, 0.25, -0.25, 0.5, 1.0, -1.0, 0.8, 0.4, 0.2)
_ODD = (math.nan, -math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324)


def _bits(pair) -> tuple:
    lo, hi = pair
    assert lo.dtype == np.float64 and hi.dtype == np.float64
    return lo.tobytes(), hi.tobytes()


def _case(rng: random.Random, kind: int):
    def num(scale: float = 1.0) -> float:
        if kind == 0:
            return rng.uniform(-scale, scale)
        if kind == 2 and rng.random() < 0.1:
            return rng.choice(_ODD)
        return rng.choice(_FEW)

    lo = [num(2.0) for _ in range(3)]
    hi = [v + abs(num(1.0)) for v in lo]
    ext = [abs(num(1.0)) for _ in range(3)]
    row = SimpleNamespace(min_x=lo[0], min_y=lo[1], min_z=lo[2], max_x=hi[0], max_y=hi[1], max_z=hi[2],
                          ext_x=ext[0], ext_y=ext[1], ext_z=ext[2], weight=abs(num(3.0)) + 0.05)
    s_lo = [num(2.0) for _ in range(3)]
    if rng.random() < 0.3:  # a view exactly WHOLE_VIEW_SHARE x the size on some axis: the comparison's tie
        s_hi = [a + ff.WHOLE_VIEW_SHARE * e for a, e in zip(s_lo, ext)]
    else:
        s_hi = [a + abs(num(1.5)) for a in s_lo]
    seen = SimpleNamespace(bmin=np.array(s_lo), bmax=np.array(s_hi))
    return row, seen, rng.choice((0.05, 0.9, 1.0, 0.5))


def test_plain_floats_equal_the_arrays_to_the_bit():
    rng = random.Random(9)
    taken = 0
    for n in range(40000):
        row, seen, w = _case(rng, n % 3)
        got = ff._rigid_box(row, seen, w)
        with np.errstate(all="ignore"):  # NaN / inf cases: numpy warns, the floats do not
            want = ff._rigid_box_arrays(row, seen, w)
        assert _bits(got) == _bits(want), (row, seen, w)
        taken += not np.array_equal(got[0], np.array((row.min_x, row.min_y, row.min_z)), equal_nan=True)
    assert taken > 5000  # the running mean was taken, not only the "partial view" return


def test_a_float32_sighting_takes_the_arrays():
    row = SimpleNamespace(min_x=0.0, min_y=0.0, min_z=0.0, max_x=0.5, max_y=0.5, max_z=0.9, ext_x=0.5, ext_y=0.5,
                          ext_z=0.9, weight=2.0)
    seen = SimpleNamespace(bmin=np.array((0.1, 0.1, 0.0), np.float32), bmax=np.array((0.6, 0.6, 0.9), np.float32))
    assert _bits(ff._rigid_box(row, seen, 1.0)) == _bits(ff._rigid_box_arrays(row, seen, 1.0))


def test_a_partial_view_leaves_the_box_and_a_whole_one_moves_it_by_its_share():
    row = SimpleNamespace(min_x=0.0, min_y=0.0, min_z=0.0, max_x=0.5, max_y=0.5, max_z=1.0, ext_x=0.5, ext_y=0.5,
                          ext_z=1.0, weight=3.0)
    leg = SimpleNamespace(bmin=np.array((0.0, 0.0, 0.0)), bmax=np.array((0.1, 0.5, 1.0)))
    lo, hi = ff._rigid_box(row, leg, 1.0)
    assert lo.tolist() == [0.0, 0.0, 0.0] and hi.tolist() == [0.5, 0.5, 1.0]
    whole = SimpleNamespace(bmin=np.array((0.4, 0.0, 0.0)), bmax=np.array((0.9, 0.5, 1.0)))
    lo, hi = ff._rigid_box(row, whole, 1.0)
    assert lo.tolist() == [0.1, 0.0, 0.0] and hi.tolist() == [0.6, 0.5, 1.0]
