"""Settling._removed_lookalike's ranking of removed look-alikes by the new object's label mass
(Settling._named_share, identity.removed_by_own_label)."""
from __future__ import annotations

import pytest
from core_helpers import box_obs, distance_from_eye, kinds, view

from tempomem_ros.core import Memory

A = (2.0, 0.0, 0.8)    # the cup's place
C = (-2.0, 0.0, 0.8)   # the mug's place
B = (0.0, 2.0, 0.8)    # where the cup is found again


def _seen(mem, label, at, stamps):
    for t in stamps:
        mem.add([box_obs(label, at, stamp=t)], view(t, at, distance_from_eye(at) + 0.04))


def _empty(mem, at, stamps):
    for t in stamps:
        mem.add([], view(t, at, distance_from_eye(at) + 1.0))


def _two_removed_then_a_cup(store, on: bool) -> Memory:
    """A cup at A; a mug at C, once read "cup" (a fifth of its mass: a look-alike of a new cup); A seen empty,
    then C (the mug removed last); then a thing read "cup" in every view at B, 300 s on."""
    mem = Memory.open(store("m"), embedding_dim=4, config={"identity": {"removed_by_own_label": on}})
    _seen(mem, "cup", A, (0.0, 0.5, 1.0, 1.5))
    for t, label in ((3.0, "mug"), (3.5, "mug"), (4.0, "cup"), (4.5, "mug"), (5.0, "mug")):
        _seen(mem, label, C, (t,))
    _empty(mem, A, (300.0, 300.5, 301.0, 302.5))
    _empty(mem, C, (400.0, 400.5, 401.0, 402.5))
    _seen(mem, "cup", B, [700.0 + 0.5 * k for k in range(8)])
    _seen(mem, "cup", B, [760.0 + 0.5 * k for k in range(4)])  # the look-alike wait (if any) long over
    mem.commit()
    return mem


def test_a_new_thing_read_cup_throughout_is_the_removed_cup_moved_not_the_mug_removed_last(store):
    with _two_removed_then_a_cup(store, True) as mem:
        assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"] == [
            (1, "cup", "present", 1), (2, "mug", "missing", 0)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("removed", 2), ("moved", 1)]
        moved = mem.changes()[-1]
        assert moved.stamp == 700.0 and moved.after.center == pytest.approx(B, abs=1e-6)
        assert moved.before.center == pytest.approx(A, abs=1e-6)


def test_off_the_mug_removed_last_takes_it_as_before(store):
    with _two_removed_then_a_cup(store, False) as mem:
        assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"] == [
            (1, "cup", "missing", 0), (2, "cup", "present", 1)]
        assert ("moved", 1) not in kinds(mem) and ("moved", 2) in kinds(mem)
