"""Two look-alikes of different widths (a bottle 7 cm, a vase 12 cm) that swap places while unseen: the width of
their views keeps each one's move its own (identity.move_width_ratio, settling.Settling._alike_in_width; seed
510, h510: the vase, read "bottle" in its first views where the bottle had stood, was taken for the bottle's move)."""

from __future__ import annotations

import pytest
from core_helpers import kinds, render_view, span_obs

from tempomem_ros.core import Memory

EYE = (0.0, 0.0, 1.0)
A = (2.0, 0.0, 0.875)        # the bottle's place (on a table top at 0.75 m)
A2 = (2.0, 0.25, 0.875)      # the vase put 0.25 m beside it
C = (-2.0, 0.0, 0.875)       # the vase's place (across the room)
C2 = (-2.0, 0.3, 0.875)      # the bottle put 0.3 m beside it
BOTTLE = (0.035, 0.035, 0.125)
VASE = (0.06, 0.06, 0.125)


def _box(center, half):
    return (tuple(c - h for c, h in zip(center, half)), tuple(c + h for c, h in zip(center, half)))


def _look(mem, at, stamps, things):
    """Frames looking at ``at``; ``things``: (label at frame k -> str, center, half) each seen in every frame."""
    for k, t in enumerate(stamps):
        boxes = [_box(c, h) for _, c, h in things]
        mem.add([span_obs(label(k), *_box(c, h), stamp=t) for label, c, h in things],
                render_view(t, EYE, at, boxes))


def _stamps(start, n=8):
    return [start + 0.5 * k for k in range(n)]


def _always(label):
    return lambda k: label


def _both_seen(mem, start):
    _look(mem, A, _stamps(start), [(_always("bottle"), A, BOTTLE)])
    _look(mem, C, _stamps(start + 5.0), [(_always("vase"), C, VASE)])


def _memory(store, name, ratio):
    return Memory.open(store(name), embedding_dim=4, config={"identity": {"move_width_ratio": ratio}})


def _swap(store, ratio: float = 1.5) -> Memory:
    """The bottle at A and the vase at C seen at 0 and 300 s; at 600 s the look at A finds A empty and the vase
    at A2, read "bottle" in its first 5 views; at 900 s the look at C finds C empty and the bottle at C2."""
    mem = _memory(store, f"swap{ratio}", ratio)
    _both_seen(mem, 0.0)
    _both_seen(mem, 300.0)
    _look(mem, A, _stamps(600.0, 16), [(lambda k: "bottle" if k < 5 else "vase", A2, VASE)])
    _look(mem, C, _stamps(900.0, 16), [(_always("bottle"), C2, BOTTLE)])
    mem.commit()
    return mem


def _events(mem):
    return [(e.kind, e.object_id, e.label, e.stamp) for e in mem.changes()]


def _objects(mem):
    return [(o.id, o.label, o.state, o.n_moves, tuple(round(x, 2) for x in o.center)) for o in mem.objects()]


def test_swapped_lookalikes_each_keep_their_own_move(store):
    with _swap(store) as mem:
        # the bottle's removal (A seen empty at 600 s) published, its move found when the bottle turned up at C2;
        # the vase's move found when C was seen empty (the new object at A2 joined into it, the join published)
        assert _events(mem) == [
            ("appeared", 1, "bottle", 0.0), ("appeared", 2, "vase", 5.0), ("removed", 1, "bottle", 600.0),
            ("moved", 2, "vase", 600.0), ("moved", 1, "bottle", 900.0), ("merged", 3, "bottle", 902.0)]
        assert _objects(mem) == [
            (1, "bottle", "present", 1, (-2.0, 0.3, 0.88)), (2, "vase", "present", 1, (2.0, 0.25, 0.88)),
            (3, "bottle", "forgotten", 0, (2.0, 0.25, 0.88)), (4, "bottle", "forgotten", 0, (-2.0, 0.3, 0.88))]


def test_off_the_vase_is_taken_for_the_bottles_move(store):
    # move_width_ratio 0 (the memory before): seed 510's failure, a false "bottle moved" onto the vase, the vase
    # removed, the bottle a new object
    with _swap(store, 0.0) as mem:
        assert _events(mem) == [
            ("appeared", 1, "bottle", 0.0), ("appeared", 2, "vase", 5.0), ("moved", 1, "bottle", 600.0),
            ("removed", 2, "vase", 900.0)]
        assert _objects(mem) == [
            (1, "bottle", "present", 1, (2.0, 0.25, 0.88)), (2, "vase", "missing", 0, (-2.0, 0.0, 0.88)),
            (3, "bottle", "forgotten", 0, (2.0, 0.25, 0.88)), (4, "bottle", "present", 0, (-2.0, 0.3, 0.88))]


def test_a_real_move_of_the_bottle_beside_the_vase_is_still_its_move(store):
    # the bottle put 0.25 m from its place, its views as wide as before: its move, as without the test
    with _memory(store, "real", 1.5) as mem:
        _both_seen(mem, 0.0)
        _both_seen(mem, 300.0)
        _look(mem, A, _stamps(600.0, 16), [(_always("bottle"), A2, BOTTLE)])
        mem.commit()
        assert kinds(mem)[2:] == [("moved", 1)]
        bottle = mem.get(1)
        assert (bottle.label, bottle.state, bottle.n_moves) == ("bottle", "present", 1)
        assert bottle.center[:2] == pytest.approx(A2[:2], abs=0.02)


def test_a_bottle_and_a_vase_side_by_side_that_stay_put_stay_two_with_their_labels(store):
    # each read as the other now and then, always reported in one frame: two objects, no move, no removal
    with _memory(store, "side", 1.5) as mem:
        for start in (0.0, 300.0, 600.0):
            _look(mem, A, _stamps(start, 12), [(lambda k: "vase" if k % 4 == 1 else "bottle", A, BOTTLE),
                                               (lambda k: "bottle" if k % 4 == 3 else "vase", A2, VASE)])
        mem.commit()
        assert sorted((o.label, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten") == [
            ("bottle", "present", 0), ("vase", "present", 0)]
        assert [k for k, _ in kinds(mem)] == ["appeared", "appeared"]


def test_a_removed_vase_found_narrower_is_still_its_move(store):
    # views narrower than a thing tell nothing (a part hidden, seen end-on): the vase found as 7 cm views is its move
    with _memory(store, "narrow", 1.5) as mem:
        _both_seen(mem, 0.0)
        _both_seen(mem, 300.0)
        _look(mem, C, _stamps(600.0, 16), [(_always("vase"), C2, BOTTLE)])
        mem.commit()
        assert kinds(mem)[2:] == [("moved", 2)]
        vase = mem.get(2)
        assert (vase.label, vase.state, vase.n_moves) == ("vase", "present", 1)


def test_a_removed_thing_of_unsteady_views_found_wider_is_still_its_move(store):
    # a remote seen end-on (6 cm) in most views and along its 18 cm in some: its views tell no width (seed 488's)
    remote_end, remote_long = (0.03, 0.03, 0.015), (0.09, 0.03, 0.015)
    at, found = (2.0, 0.0, 0.765), (2.0, 0.3, 0.765)
    with _memory(store, "remote", 1.5) as mem:
        for start in (0.0, 300.0):
            _look(mem, A, _stamps(start), [(_always("remote"), at, remote_end)])
            _look(mem, A, _stamps(start + 5.0, 3), [(_always("remote"), at, remote_long)])
        _look(mem, A, _stamps(600.0, 16), [(_always("remote"), found, remote_long)])
        mem.commit()
        assert kinds(mem)[1:] == [("moved", 1)]
        remote = mem.get(1)
        assert (remote.state, remote.n_moves) == ("present", 1)


WALLET = (0.052, 0.03, 0.012)                   # 10.4 x 6 x 2.4 cm
BLED = (0.16, 0.19, 0.124, 0.147, 0.27, 0.22, 0.13, 0.165)   # its first views far off: masks bled 2-15 cm wider
B = (-2.0, 0.3, 0.762)                          # where it is found, across the room


def test_a_moved_thing_whose_first_views_bled_wide_is_still_its_move(store):
    # seed 535 (h530): a wallet (views 0.104 m) moved while unseen, found in far views bled to 0.12-0.27 m; their
    # median (0.16 m) is over 1.5 x its width, their lower quartile (0.13 m) is not: its move, not a removal and a
    # new wallet (main: ("removed", 1), ("appeared", 2))
    at = (2.0, 0.0, 0.762)
    with _memory(store, "bled", 1.5) as mem:
        for start in (0.0, 300.0):
            _look(mem, at, _stamps(start), [(_always("wallet"), at, WALLET)])
        _look(mem, at, _stamps(600.0, 16), [])
        for k, t in enumerate(700.0 + 0.15 * i for i in range(len(BLED))):
            half = (BLED[k] / 2, WALLET[1], WALLET[2])
            _look(mem, B, [t], [(_always("wallet"), B, half)])
        mem.commit()
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1)]
        wallet = mem.get(1)
        assert (wallet.label, wallet.state, wallet.n_moves) == ("wallet", "present", 1)
        assert wallet.center[:2] == pytest.approx(B[:2], abs=0.02)
        assert [o.id for o in mem.objects() if o.state == "present"] == [1]


BOOK = (0.1, 0.075, 0.02)                       # 20 x 15 x 4 cm, lying flat
LAPTOP = (0.165, 0.12, 0.115)                   # 33 x 24 x 23 cm, open


def test_a_removed_small_thing_does_not_take_a_new_one_much_wider_than_furniture_size(store):
    # dev seed 3 (devreal): a removed book (views 0.18-0.23 m) took a laptop found elsewhere read "book" (its views
    # 0.31-0.35 m): a false "book moved"; the book's views being small and steady, a new thing three quarters of
    # whose views are over 1.5 x and 4 cm wider is another thing, however large (main: the test skipped a new one
    # whose views are 0.3 m or more, ("moved", 1))
    at = (2.0, 0.0, 0.77)
    with _memory(store, "laptop", 1.5) as mem:
        for start in (0.0, 300.0):
            _look(mem, at, _stamps(start), [(_always("book"), at, BOOK)])
        _look(mem, at, _stamps(600.0, 16), [])
        _look(mem, B, [700.0 + 0.15 * i for i in range(16)],
              [(lambda k: "laptop" if k % 5 == 4 else "book", B, LAPTOP)])
        mem.commit()
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2)]
        assert sorted((o.id, o.label, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten") == [
            (1, "book", "missing", 0), (2, "book", "present", 0)]
