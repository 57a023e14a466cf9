"""One small thing fused as two objects touching side by side is one thing (Settling._split_beside)."""

from __future__ import annotations

import pytest
from core_helpers import IMMEDIATE, distance_from_eye, span_obs, view

from tempomem_ros.core import Memory

# a pair of glasses on a shelf, its depth-smeared boxes split along y 1 cm apart (3 mm on seed 397, where the
# first views had already parted them; here the second view merges at 3 mm)
LEFT = ((1.72, -0.100, 0.78), (2.28, 0.000, 0.82))
RIGHT = ((1.72, 0.010, 0.78), (2.28, 0.110, 0.82))
AT = (2.0, 0.0, 0.8)
D = distance_from_eye(AT)


@pytest.fixture
def mem(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        yield m


def test_glasses_seen_now_on_one_side_now_on_the_other_are_one_object(mem):
    for i, box in enumerate([LEFT, RIGHT, LEFT, RIGHT, LEFT, RIGHT]):
        mem.add([span_obs("glasses", *box, stamp=i)], view(i, AT, D + 0.04))
        mem.commit()
    live = [(o.id, o.label) for o in mem.objects() if o.state == "present"]
    assert live == [(1, "glasses")]
    assert [e.kind for e in mem.changes(since=0)] == ["appeared", "merged"]


def test_two_glasses_reported_in_one_frame_side_by_side_stay_two(mem):
    for i in range(3):
        mem.add([span_obs("glasses", *LEFT, stamp=i), span_obs("glasses", *RIGHT, stamp=i)], view(i, AT, D + 0.04))
        mem.commit()
    for i, box in enumerate([LEFT, RIGHT, LEFT, RIGHT], start=3):
        mem.add([span_obs("glasses", *box, stamp=i)], view(i, AT, D + 0.04))
        mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "glasses", "present"), (2, "glasses", "present")]


def test_glasses_beside_a_book_are_not_its_twin(mem):
    for i, (label, box) in enumerate([("glasses", LEFT), ("book", RIGHT), ("glasses", LEFT), ("book", RIGHT)]):
        mem.add([span_obs(label, *box, stamp=i)], view(i, AT, D + 0.04))
        mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "glasses", "present"), (2, "book", "present")]
