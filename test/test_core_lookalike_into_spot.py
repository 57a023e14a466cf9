"""A sighting at a removed thing's very place when a look-alike just left its own place
(frame_fusion._gone_lookalike_came, identity.reappear_lookalike_move)."""
from __future__ import annotations

import pytest
from core_helpers import box_obs, distance_from_eye, kinds, view

from tempomem_ros.core import Memory

A = (2.0, 0.0, 0.8)    # the first cup's place (its spot)
C = (-2.0, 0.0, 0.8)   # the other cup's place


def _seen(mem, label, at, stamps):
    for t in stamps:
        mem.add([box_obs(label, at, stamp=t)], view(t, at, distance_from_eye(at) + 0.04))


def _empty(mem, at, stamps):
    for t in stamps:
        mem.add([], view(t, at, distance_from_eye(at) + 1.0))


def _cup_into_a_removed_cups_spot(store, on: bool, leaves: bool = True, found: float = 605.0) -> Memory:
    """A cup at A, removed (A seen empty at 100 s); another cup at C, seen again at 300 s; C seen empty at
    600 s (``leaves``: else C is seen holding its cup); then a cup at A, 605-608 s."""
    mem = Memory.open(store(f"m{int(on)}{int(leaves)}{int(found)}"), embedding_dim=4,
                      config={"identity": {"reappear_lookalike_move": on}})
    _seen(mem, "cup", A, (0.0, 0.5, 1.0, 1.5))
    _seen(mem, "cup", C, (3.0, 3.5, 4.0, 4.5))
    _empty(mem, A, (100.0, 100.5, 101.0, 102.5))
    _seen(mem, "cup", C, (300.0, 300.5, 301.0, 301.5))
    if leaves:
        _empty(mem, C, (600.0, 600.5, 601.0, 602.5))
    else:
        _seen(mem, "cup", C, (600.0, 600.5, 601.0, 602.5))
    _seen(mem, "cup", A, (found + 0.5 * k for k in range(7)))
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


F1 = (1.0, 0.0, 0.0, 0.0)                # the first cup's crop
F2 = (0.7, 0.71414284, 0.0, 0.0)         # the other cup's: cosine 0.7 with F1, above feature_threshold (0.6)


def _cup_back_with_features(store, spot_feature) -> Memory:
    """The scene above with crops (cup 1 F1, cup 2 F2), the cup found at A showing ``spot_feature``: cup 2 was
    taken away from C (600 s) and either cup 1 put back (F1) or cup 2 put in cup 1's spot (F2)."""
    mem = Memory.open(store(f"f{spot_feature[1] > 0}"), embedding_dim=4)

    def seen(at, stamps, f):
        for t in stamps:
            mem.add([box_obs("cup", at, stamp=t, feature=f)], view(t, at, distance_from_eye(at) + 0.04))

    seen(A, (0.0, 0.5, 1.0, 1.5), F1)
    seen(C, (3.0, 3.5, 4.0, 4.5), F2)
    _empty(mem, A, (100.0, 100.5, 101.0, 102.5))
    seen(C, (300.0, 300.5, 301.0, 301.5), F2)
    _empty(mem, C, (600.0, 600.5, 601.0, 602.5))
    seen(A, [605.0 + 0.5 * k for k in range(7)], spot_feature)
    mem.commit()
    return mem


def test_the_removed_cup_really_put_back_its_crop_matching_it_better_reappears(store):
    # review rev48b: the rule asked only whether the sighting was not unlike the other cup (0.7 >= 0.6), not
    # whether it was liker the cup it found missing (1.0): cup 1 put back was cup 2 "moved", cup 1 still missing
    with _cup_back_with_features(store, F1) as mem:
        assert [(e.kind, e.object_id, e.stamp) for e in mem.events()] == [
            ("appeared", 1, 0.0), ("appeared", 2, 3.0), ("removed", 1, 100.0), ("removed", 2, 600.0),
            ("reappeared", 1, 605.0)]
        assert [(o.id, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"] == [
            (1, "present", 0), (2, "missing", 0)]
    # the other cup's crop in the spot: that cup, moved, as without features
    with _cup_back_with_features(store, F2) as mem:
        assert [(e.kind, e.object_id, e.stamp) for e in mem.events()] == [
            ("appeared", 1, 0.0), ("appeared", 2, 3.0), ("removed", 1, 100.0), ("removed", 2, 600.0),
            ("moved", 2, 605.0)]
        assert [(o.id, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"] == [
            (1, "missing", 0), (2, "present", 1)]


def test_the_other_cup_gone_longer_than_the_window_leaves_the_reappearance(store):
    # review rev48b: C first seen empty at 600 s, the cup at A found 121 s later (reconcile_window_s = 120 s)
    with _cup_into_a_removed_cups_spot(store, True, found=721.0) as mem:
        assert [(e.kind, e.object_id, e.stamp) for e in mem.events()] == [
            ("appeared", 1, 0.0), ("appeared", 2, 3.0), ("removed", 1, 100.0), ("removed", 2, 600.0),
            ("reappeared", 1, 721.0)]
