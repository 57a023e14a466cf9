"""A large object seen whole takes a stray "part" clipped to its box (issue 11, no feature).

frame_fusion.out_of_scale_part, identity.extend_whole_ratio: a same-label sighting that scored too low to merge
and that the identity rule takes for "another part" of a sofa, a table or a counter already seen whole, but that
would stretch its box past fusion.box_growth_factor x its side on the floor, is merged clipped to the box. Main
f8b25a7, default noise, offline: a 4.3 m "sofa" sliver (seed 526) and a 6 cm "sofa" blob 3.7 m away (seed 513)
moved a sofa 1.6 m and 0.75 m for good, a 3.4 m "counter" sliver a counter 1.49 m (seed 503)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from core_helpers import distance_from_eye, kinds, live, render_view, span_obs, view

from tempomem_ros.core import Memory
from tempomem_ros.core.frame_fusion import out_of_scale_part

EYE = (0.0, 0.0, 1.0)
SOFA = ((1.55, -0.95, 0.0), (2.45, 0.95, 0.85))  # a 0.9 x 1.9 m sofa at (2, 0), 0.85 m tall
SOFA_MID = (2.0, 0.0, 0.425)


def _memory(store, ratio: float | None) -> Memory:
    config = {} if ratio is None else {"identity": {"extend_whole_ratio": ratio}}
    return Memory.open(store("m"), embedding_dim=4, config=config)


def _sofa_seen_whole(m: Memory) -> None:
    """The sofa seen whole, its views 10 cm apart either way along x (noise): its box 1.1 m for 0.9 m views, over
    _seen_whole's 1.1 x + 5 cm, as the sofas of seeds 513 and 526 were."""
    for k, t in enumerate(0.5 * i for i in range(12)):
        dx = (-0.1, 0.0, 0.1)[k % 3]
        lo, hi = (SOFA[0][0] + dx, SOFA[0][1], SOFA[0][2]), (SOFA[1][0] + dx, SOFA[1][1], SOFA[1][2])
        m.add([span_obs("sofa", lo, hi, stamp=t)], render_view(t, EYE, SOFA_MID, [SOFA]))
    m.commit()


def _box(m: Memory, object_id: int = 1):
    o = m.get(object_id)
    return np.round(o.bbox_min, 3).tolist(), np.round(o.bbox_max, 3).tolist()


def _last_merge_reason(m: Memory) -> str:
    row = m._conn.execute("SELECT detail FROM audit WHERE action='merge' ORDER BY id DESC LIMIT 1").fetchone()
    import json
    return json.loads(row[0])["reason"]


SLIVER = ((2.4, -0.95, 0.46), (6.7, -0.82, 1.24))  # 4.3 x 0.13 m: a mask bled along the sofa's end (seed 526)
BLOB = ((4.47, 1.47, 0.97), (4.53, 1.53, 1.03))    # 6 cm, 2 m beyond the sofa's box (seed 513)


@pytest.mark.parametrize("seen", [SLIVER, BLOB], ids=["sliver", "blob"])
def test_a_stray_part_of_a_sofa_seen_whole_does_not_move_it(store, seen):
    with _memory(store, None) as mem:
        _sofa_seen_whole(mem)
        before = _box(mem)
        mem.add([span_obs("sofa", *seen, stamp=20.0)], render_view(20.0, EYE, SOFA_MID, [SOFA]))
        mem.commit()
        assert live(mem) == [(1, "sofa", "present")]  # merged into the sofa, no second sofa, no move
        assert _last_merge_reason(mem) == "whole"
        assert _box(mem) == before
        assert mem.get(1).n_moves == 0
        assert kinds(mem) == [("appeared", 1)]


@pytest.mark.parametrize("seen", [SLIVER, BLOB], ids=["sliver", "blob"])
def test_without_the_rule_the_stray_part_stretches_the_sofa(store, seen):
    # extend_whole_ratio 0 (main f8b25a7): the identity rule's "another part" grows the box, its centre moves
    with _memory(store, 0.0) as mem:
        _sofa_seen_whole(mem)
        mem.add([span_obs("sofa", *seen, stamp=20.0)], render_view(20.0, EYE, SOFA_MID, [SOFA]))
        mem.commit()
        assert live(mem) == [(1, "sofa", "present")]
        assert _last_merge_reason(mem) == "identity"
        assert mem.get(1).bbox_max[0] > 3.0


TABLE = ((1.5, -0.45, 0.0), (3.5, 0.45, 0.75))  # a 2.0 x 0.9 m table at (2.5, 0)
TABLE_OTHER = ((2.5, -0.45, 0.0), (3.5, 0.45, 0.75))  # its right half


def _table_left_then_right(m: Memory):
    mid = (2.0, 0.0, 0.375)
    for k, t in enumerate((0.0, 0.5, 1.0, 1.5, 2.0, 2.5)):
        dx = (-0.1, 0.0, 0.1)[k % 3]
        half = ((1.5 + dx, -0.45, 0.0), (2.5 + dx, 0.45, 0.75))
        m.add([span_obs("table", *half, stamp=t)], render_view(t, EYE, mid, [TABLE]))
    for t in (10.0, 10.5):
        m.add([span_obs("table", *TABLE_OTHER, stamp=t)], render_view(t, EYE, (3.0, 0.0, 0.375), [TABLE]))
    m.commit()
    return live(m), _box(m)


def test_a_table_known_by_its_left_half_still_takes_its_right_half(store):
    # the left half seen from views 10 cm apart (its box 1.2 m for 1.0 m views: within 1.3 x, not _seen_whole),
    # then the right half: the two span 2.0 m, under twice the box (2.45 m): a part, the box grows as it did
    # without the rule (to 3.25 m, merge_geometry's clamp at 1 x the largest view around the centroid)
    with _memory(store, None) as mem:
        got = _table_left_then_right(mem)
    assert got == ([(1, "table", "present")], ([1.4, -0.45, 0.0], [3.25, 0.45, 0.75]))
    with Memory.open(store("off"), embedding_dim=4, config={"identity": {"extend_whole_ratio": 0.0}}) as mem:
        assert _table_left_then_right(mem) == got


CHAIR = ((1.775, -0.225, 0.0), (2.225, 0.225, 0.9))  # a 0.45 m chair at (2, 0), 0.9 m tall
CHAIR_MID = (2.0, 0.0, 0.45)
# pushed 0.9 m along y and turned: its footprint 0.5 x 0.4 m
PUSHED_TURNED = ((1.75, 0.7, 0.0), (2.25, 1.1, 0.9))


def test_a_chair_pushed_0_9_m_and_turned_is_still_moved(store):
    with _memory(store, None) as mem:
        d = distance_from_eye(CHAIR_MID)
        for t in (0.0, 0.5, 1.0):
            mem.add([span_obs("chair", *CHAIR, stamp=t)], view(t, CHAIR_MID, d + 0.1))
        for t in (600.0, 600.5, 601.0, 601.5, 603.0):
            mem.add([span_obs("chair", *PUSHED_TURNED, stamp=t)], render_view(t, EYE, CHAIR_MID, [PUSHED_TURNED]))
        mem.commit()
        (chair,) = [o for o in mem.objects() if o.state != "forgotten"]
        assert (chair.id, chair.n_moves) == (1, 1)
        assert chair.center == pytest.approx((2.0, 0.9, 0.45))
        assert kinds(mem) == [("appeared", 1), ("moved", 1)]


LEFT = ((1.775, -0.5, 0.0), (2.225, -0.05, 0.9))
RIGHT = ((1.775, 0.05, 0.0), (2.225, 0.5, 0.9))


def test_two_chairs_side_by_side_stay_two(store):
    with _memory(store, None) as mem:
        for t in (0.0, 0.5, 1.0, 1.5, 2.0):
            mem.add([span_obs("chair", *LEFT, stamp=t), span_obs("chair", *RIGHT, stamp=t)],
                    render_view(t, EYE, CHAIR_MID, [LEFT, RIGHT]))
        mem.commit()
        assert live(mem) == [(1, "chair", "present"), (2, "chair", "present")]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2)]


def _row(lo, hi, ext):
    return SimpleNamespace(min_x=lo[0], min_y=lo[1], min_z=lo[2], max_x=hi[0], max_y=hi[1], max_z=hi[2],
                           ext_x=ext[0], ext_y=ext[1], ext_z=ext[2])


def _seen(lo, hi):
    return SimpleNamespace(bmin=np.asarray(lo, float), bmax=np.asarray(hi, float))


def test_out_of_scale_part_asks_a_large_object_seen_whole_and_a_stretch_past_twice_its_side():
    sofa = _row((1.45, -0.95, 0.0), (2.55, 0.95, 0.85), (0.9, 1.9, 0.85))  # 1.1 m box, 0.9 m views: seen whole
    assert out_of_scale_part(sofa, _seen(*SLIVER), 1.3, 2.0)
    assert out_of_scale_part(sofa, _seen(*BLOB), 1.3, 2.0)
    # within twice its side (+ 5 cm) on both floor axes: a part, it may grow the box (2 x 1.1 + 0.05 = 2.25 m)
    assert not out_of_scale_part(sofa, _seen((2.4, -0.95, 0.0), (3.65, 0.95, 0.85)), 1.3, 2.0)
    assert out_of_scale_part(sofa, _seen((2.4, -0.95, 0.0), (3.8, 0.95, 0.85)), 1.3, 2.0)
    # off (0), or a box fused from parts (over 1.3 x its views + 5 cm on some axis), or movable furniture
    assert not out_of_scale_part(sofa, _seen(*SLIVER), 0.0, 2.0)
    parts = _row((1.0, -0.95, 0.0), (2.3, 0.95, 0.85), (0.9, 1.9, 0.85))  # 1.3 m > 1.3 x 0.9 + 0.05 = 1.22 m
    assert not out_of_scale_part(parts, _seen(*SLIVER), 1.3, 2.0)
    chair = _row(*CHAIR, (0.45, 0.45, 0.9))
    assert not out_of_scale_part(chair, _seen((1.775, -0.225, 0.0), (4.0, 0.225, 0.9)), 1.3, 2.0)


def _fold_row(i, lo, hi, reason=""):
    c = [0.5 * (a + b) for a, b in zip(lo, hi)]
    return {"id": i, "stamp": float(i), "confidence": 0.9, "feature": None, "reason": reason,
            "cx": c[0], "cy": c[1], "cz": c[2], "min_x": lo[0], "min_y": lo[1], "min_z": lo[2],
            "max_x": hi[0], "max_y": hi[1], "max_z": hi[2]}


@pytest.mark.parametrize("reason, max_x", [("whole", 2.45), ("identity", 6.25)])
def test_a_fold_replays_a_clipped_part_clipped(reason, max_x):
    # retention's fold and a rebuild from it (a twin joined) replay the placement's sightings: the sliver fusion
    # merged clipped (reason "whole") is folded clipped too (seed 503 clip: the counter regrown 1.49 m off by the
    # fold); a sighting merged whole ("identity") is folded whole, as before
    from tempomem_ros.core import refold
    from tempomem_ros.core.config import MemoryConfig
    rows = [_fold_row(i, *SOFA) for i in range(1, 4)] + [_fold_row(4, *SLIVER, reason=reason)]
    state = refold.fold(None, rows, MemoryConfig().fusion)
    assert round(float(state.hi[0]), 2) == max_x and round(float(state.lo[0]), 2) == 1.55
