"""An object known only by a face (a backpack seen from above as its 4 cm top) and later seen whole at that place
(a new object whose box holds the face's box) is that object seen whole, not that object moved
(Settling._whole_view): held-out seed 365's backpack, a false "moved"."""

from __future__ import annotations

from core_helpers import kinds, render_view, span_obs


EYE = (0.0, 0.0, 1.0)
AT = (2.0, 0.0, 0.3)
BACKPACK = ((1.85, -0.15, 0.0), (2.15, 0.2, 0.43))      # the backpack, as the depth shows it
TOP = ((1.88, -0.14, 0.39), (2.17, 0.08, 0.43))          # its top, reported alone at first: 3 cm past WHOLE
WHOLE = ((1.83, -0.15, 0.0), (2.14, 0.22, 0.45))         # seen whole, ten minutes later
TOP_READ = ((0.0, "bag"), (0.3, "bag"), (0.6, "bag"), (1.0, "bag"), (1.3, "backpack"))  # as the segmenter read it
OTHER = ((0.3, -3.2, 0.0), (0.6, -2.9, 0.4))             # another backpack, behind the camera later


def test_a_backpack_known_by_its_top_and_then_seen_whole_is_one_object_not_moved(mem):
    for t, label in TOP_READ:
        mem.add([span_obs(label, *TOP, stamp=t), span_obs("backpack", *OTHER, stamp=t)],
                render_view(t, EYE, AT, [BACKPACK]))
    mem.commit()
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "present")]
    for i in range(60):   # ten minutes later the whole backpack is reported, over 30 s
        t = 600.0 + 0.5 * i
        mem.add([span_obs("backpack", *WHOLE, stamp=t)], render_view(t, EYE, AT, [BACKPACK]))
    mem.commit()
    # the top's object seen whole (its label now "backpack"), the new object joined into it: no move, no removal
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [
        (1, "backpack", "present"), (2, "backpack", "present"), (3, "backpack", "forgotten")]
    assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("relabelled", 1)]


def test_a_larger_backpack_put_beside_the_place_of_a_removed_one_is_still_its_move(mem):
    # the face's box not inside the new one's (it stood 0.5 m away): the removed backpack moved there
    for t, label in TOP_READ:
        mem.add([span_obs(label, *TOP, stamp=t), span_obs("backpack", *OTHER, stamp=t)],
                render_view(t, EYE, AT, [BACKPACK]))
    mem.commit()
    moved = ((1.83, 0.35, 0.0), (2.14, 0.72, 0.45))
    for i in range(60):
        t = 600.0 + 0.5 * i
        mem.add([span_obs("backpack", *moved, stamp=t)], render_view(t, EYE, AT, [moved]))
    mem.commit()
    assert ("moved", 1) in kinds(mem)
