"""A removal decided by one short patrol look (issue 11, removal decided wrongly: absence.short_look_misses,
absence.short_look_s, persistence.short_look_decides).

A patrol look at a place lasts 0.6-0.8 s (4-6 frames at 5-7.5 Hz); a thing taken away while no other look came back
to its place was never removed under the 1 s rule alone (h430 seed 436, h400 seed 405). Each end-to-end test runs
the rule on and off, so it fails if the rule stops deciding; what must stay (a burst, an occluded look, three
frames) is checked with the rule on."""

from __future__ import annotations

import dataclasses
import json

import pytest
from core_helpers import box_obs, distance_from_eye, miss_fractions, view

from tempomem_ros.core import Memory
from tempomem_ros.core.config import AbsenceConfig, MemoryConfig
from tempomem_ros.core.persistence import (
    AbsenceState,
    add_misses,
    clear_look_lasts,
    short_look_decides,
    short_look_unclear,
)

A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
DA = distance_from_eye(A)
DB = distance_from_eye(B)
SEEN = DA + 0.04      # depth at A when the mug stands there
EMPTY = DA + 1.0      # depth at A when the place is empty (the wall behind)
HIDDEN = DA - 0.5     # depth at A with something standing between the camera and the mug


def _memory(tmp_path, **absence) -> Memory:
    cfg = MemoryConfig()
    cfg = dataclasses.replace(cfg, absence=dataclasses.replace(cfg.absence, **absence))
    return Memory.open(str(tmp_path / "m.db"), embedding_dim=4, config=cfg)


def _one_look(mem: Memory, stamps, depth: float) -> None:
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in stamps:
        mem.add([], view(t, A, depth))
    mem.add([], view(stamps[-1] + 5.0, B, DB + 1.0))   # looking elsewhere: time passes, a decided removal holds
    mem.commit()


def _events(mem: Memory) -> list[tuple[str, int, float]]:
    return [(e.kind, e.object_id, round(e.stamp, 2)) for e in mem.changes()]


def _misses(mem: Memory) -> int:
    return mem._conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0]


@pytest.mark.parametrize("rule", [4, 0])
def test_one_patrol_look_of_four_empty_frames_in_0_6_s_removes_the_thing(tmp_path, rule):
    # seed 436 (h430, 5 Hz): a vase taken away, its place seen empty in one look of 4 frames over 0.6 s, never again
    mem = _memory(tmp_path, short_look_misses=rule)
    _one_look(mem, (600.0, 600.2, 600.4, 600.6), EMPTY)
    assert _misses(mem) == 4
    if rule:
        assert mem.get(1).state == "missing"
        assert _events(mem) == [("appeared", 1, 0.0), ("removed", 1, 600.0)]   # stamped at the look's first miss
    else:
        assert mem.get(1).state == "present"
        assert _events(mem) == [("appeared", 1, 0.0)]


@pytest.mark.parametrize("stamps", [(600.0, 600.2, 600.4),                   # three frames: under the count
                                    (600.0, 600.1, 600.2, 600.3)],           # a 15 Hz burst: under the span
                         ids=["three-frames", "burst-0.3s"])
def test_a_short_look_under_the_count_or_the_span_decides_nothing_alone(tmp_path, stamps):
    mem = _memory(tmp_path)
    _one_look(mem, stamps, EMPTY)
    assert _misses(mem) == len(stamps)
    assert mem.get(1).state == "present"
    assert _events(mem) == [("appeared", 1, 0.0)]


def test_one_occluded_look_counts_no_miss(tmp_path):
    # something stands between the camera and the mug for the whole look: no evidence it is gone
    mem = _memory(tmp_path)
    _one_look(mem, (600.0, 600.2, 600.4, 600.6, 600.8, 601.0, 601.2), HIDDEN)
    assert _misses(mem) == 0
    assert mem.get(1).state == "present"
    assert _events(mem) == [("appeared", 1, 0.0)]


@pytest.mark.parametrize("rule", [4, 0])
def test_a_patrol_of_ten_single_frame_looks_makes_the_thing_missing_whatever_the_short_look_rule(tmp_path, rule):
    # the looks add up (persistence.py): the short-look rule neither helps nor hinders glances of one frame
    mem = _memory(tmp_path, short_look_misses=rule)
    _one_look(mem, tuple(120.0 * (k + 1) for k in range(10)), EMPTY)
    assert mem.get(1).state == "missing"
    assert _events(mem) == [("appeared", 1, 0.0), ("removed", 1, 120.0)]   # decided at the third look
    # none once it is removed; of its three, retention keeps the two the removal cites (its first and last) and
    # counts the other (issue 14: a closed placement's uncited misses are thinned)
    assert _misses(mem) == 2
    (detail,) = mem._conn.execute("SELECT detail FROM events WHERE kind = 'removed'").fetchone()
    assert json.loads(detail)["n_miss_frames"] == 3


def test_short_look_arithmetic():
    assert short_look_decides(4, 0.6, short_look_misses=4, short_look_s=0.5)
    assert short_look_decides(4, 0.5, short_look_misses=4, short_look_s=0.5)        # the floor itself counts
    assert not short_look_decides(3, 0.9, short_look_misses=4, short_look_s=0.5)
    assert not short_look_decides(9, 0.45, short_look_misses=4, short_look_s=0.5)
    assert not short_look_decides(9, 0.9, short_look_misses=0, short_look_s=0.0)    # 0: off
    acfg = AbsenceConfig()   # 4 misses >= 0.5 s, else 3 misses over >= 1 s; a 1 s hold
    state, due = add_misses(AbsenceState(), None, (0.0, 0.2, 0.4, 0.6), acfg)
    assert (state.looks, state.look_misses, due) == (1, 4, pytest.approx(0.6 + acfg.removal_hold_s))
    off = dataclasses.replace(acfg, short_look_misses=0)
    assert add_misses(AbsenceState(), None, (0.0, 0.2, 0.4, 0.6), off)[1] is None
    # a due short look waits unless 4 of its misses saw >= 85 % of the samples
    assert short_look_unclear([(0.0, 1.0), (0.2, 0.89), (0.4, 0.67), (0.6, 1.0)], acfg)
    assert not short_look_unclear([(0.0, 1.0), (0.2, 0.89), (0.4, 0.67), (0.6, 1.0), (0.8, 0.89)], acfg)
    assert not short_look_unclear([(0.0, 0.67), (0.3, 0.67), (0.6, 0.67), (1.0, 0.67)], acfg)   # 1 s: the old rule
    assert not short_look_unclear([(0.0, 0.67), (10.0, 0.67), (10.2, 0.67)], acfg)              # two looks
    assert not short_look_unclear([(0.0, 0.67)] * 4, off) and not short_look_unclear([], acfg)


@pytest.mark.parametrize("clear", [0.85, 0.6])
def test_a_short_look_that_saw_two_thirds_of_the_thing_waits_for_another_look(tmp_path, clear):
    # dev seed 1: a phone two thirds in view, 4 misses in 0.84 s, removed while it stood there. Here the mug's
    # place is seen with two of its nine samples hidden (a nearer surface over one top corner): a short look of
    # such views waits (rule on), or decides as the short-look rule alone did (clear fraction lowered).
    # (absence.hidden_near_edge off: the nearer corner lies within the expected projection error of the other
    # samples, so with it on no frame of this look counts a miss)
    mem = _memory(tmp_path, short_look_clear_fraction=clear, edge_pose_deg=0.0, edge_place_m=0.0)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (600.0, 600.2, 600.4, 600.6):
        mem.add([], _partly_hidden(t))
    mem.add([], view(605.6, B, DB + 1.0))
    mem.commit()
    assert miss_fractions(mem) == [0.78] * 4   # 7 of 9 samples: a plain miss (>= 0.6), not a clear one
    if clear > 0.78:
        assert mem.get(1).state == "present"
        assert _events(mem) == [("appeared", 1, 0.0)]
        # another look decides (two looks), stamped at the first miss of the first
        mem.add([], view(700.0, A, EMPTY))
        mem.add([], view(705.0, B, DB + 1.0))
        mem.commit()
    assert mem.get(1).state == "missing"
    assert _events(mem) == [("appeared", 1, 0.0), ("removed", 1, 600.0)]


def _partly_hidden(t: float):
    """A view of A whose depth shows the empty place's wall behind the mug's samples except at one top corner's
    pixel, where a surface 0.3 m nearer than the mug stands (that pixel holds two of the nine samples: 7 / 9)."""
    v = view(t, A, EMPTY)
    from tempomem_ros.core.absence import _SIGNS
    import numpy as np
    lo, hi = np.array(A) - (0.04, 0.04, 0.05), np.array(A) + (0.04, 0.04, 0.05)
    centre, half = (lo + hi) / 2, (hi - lo) / 2
    rot, origin = v.pose[:3, :3], v.pose[:3, 3]
    depth = np.array(v.depth, dtype=np.float32)
    dh, dw = depth.shape
    for s in _SIGNS:
        if s[2] < 0 or s[0] > 0 or s[1] > 0:   # the corner (-x, -y, +z)
            continue
        p = centre + 0.5 * s * half
        c = (p - origin) @ rot
        u, w = v.fx * c[0] / c[2] + v.cx, v.fy * c[1] / c[2] + v.cy
        col, row = int(u * dw / v.width), int(w * dh / v.height)
        depth[row, col] = DA - 0.3
    return dataclasses.replace(v, depth=depth)


def test_clear_look_lasts_counts_each_frames_interval():
    # persistence.clear_look_lasts (identity.unseen_join_look_misses: the join's look, not a removal's): n misses x
    # their mean gap >= short_look_s (0.5 s), each at short_look_clear_fraction (0.85) of the samples
    acfg = AbsenceConfig()
    five_hz = [(250.0, 1.0), (250.2, 1.0), (250.4, 1.0)]       # h540 seed 544's look: 0.6 s of view
    assert clear_look_lasts(five_hz, acfg, 3)
    assert not clear_look_lasts(five_hz, acfg, 4)               # fewer misses than asked
    assert not clear_look_lasts(five_hz, acfg, 0)               # off
    assert not clear_look_lasts([(250.0, 1.0), (250.067, 1.0), (250.133, 1.0)], acfg, 3)  # a 15 Hz burst: 0.2 s
    assert not clear_look_lasts([(250.0, 1.0), (250.2, 0.67), (250.4, 1.0)], acfg, 3)     # one frame saw 2/3 of it
    assert not clear_look_lasts([(250.0, 1.0), (250.2, 1.0), (260.0, 1.0)], acfg, 3)      # two looks, neither full
    assert clear_look_lasts([(100.0, 1.0), (250.0, 1.0), (250.2, 1.0), (250.4, 1.0)], acfg, 3)  # the second look
    assert not clear_look_lasts([], acfg, 3)
