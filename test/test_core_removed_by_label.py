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


# frame_fusion._gone_lookalike_came (identity.reappear_lookalike_move)

def _cup_into_a_removed_cups_spot(store, on: bool, leaves: bool = True) -> Memory:
    """A cup at A, removed (A seen empty at 100 s); another cup at C, seen again at 300 s; C seen empty at
    600 s (``leaves``: else C is seen holding its cup); then a cup at A, 605-608 s."""
    mem = Memory.open(store(f"m{int(on)}{int(leaves)}"), embedding_dim=4,
                      config={"identity": {"reappear_lookalike_move": on}})
    _seen(mem, "cup", A, (0.0, 0.5, 1.0, 1.5))
    _seen(mem, "cup", C, (3.0, 3.5, 4.0, 4.5))
    _empty(mem, A, (100.0, 100.5, 101.0, 102.5))
    _seen(mem, "cup", C, (300.0, 300.5, 301.0, 301.5))
    if leaves:
        _empty(mem, C, (600.0, 600.5, 601.0, 602.5))
    else:
        _seen(mem, "cup", C, (600.0, 600.5, 601.0, 602.5))
    _seen(mem, "cup", A, (605.0 + 0.5 * k for k in range(7)))
    mem.commit()
    return mem


def test_a_cup_found_in_a_removed_cups_spot_as_another_cup_leaves_its_own_is_that_one_moved(store):
    with _cup_into_a_removed_cups_spot(store, True) as mem:
        assert [(o.id, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"] == [
            (1, "missing", 0), (2, "present", 1)]
        # the other cup's removal (published at 602.5 s, before the cup at A was found) stays, its move after it
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("removed", 2), ("moved", 2)]
        assert [e.kind for e in mem.events(object_id=1)] == ["appeared", "removed"]  # no "reappeared"
        moved = mem.changes()[-1]
        assert moved.stamp == 605.0 and moved.before.center == pytest.approx(C, abs=1e-6)
        assert moved.after.center == pytest.approx(A, abs=1e-6)


def test_off_or_with_the_other_cup_still_at_its_place_the_removed_cup_reappears(store):
    for on, leaves, end in ((False, True, [("removed", 2, 600.0), ("reappeared", 1, 605.0)]),
                            (True, False, [("reappeared", 1, 605.0)])):
        with _cup_into_a_removed_cups_spot(store, on, leaves) as mem:
            assert [(e.kind, e.object_id, e.stamp) for e in mem.events()] == [
                ("appeared", 1, 0.0), ("appeared", 2, 3.0), ("removed", 1, 100.0)] + end
            assert [(o.id, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"] == [
                (1, "present", 0), (2, "missing" if leaves else "present", 0)]
