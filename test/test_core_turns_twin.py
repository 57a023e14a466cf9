"""Two objects of one label taking one thing's views in turns in the look that sees them are one thing
(Settling._turns_in_one_look)."""

from __future__ import annotations

import copy

from core_helpers import IMMEDIATE, distance_from_eye, live, span_obs, twin_joins, view

from tempomem_ros.core import Memory

# seed 415: a phone's box, a first view of it in a later look bled over the laptop beside it (0.36 m), and its views
# then, now 3 cm lower, now 3 cm higher
PHONE = ((2.056, 0.506, 0.758), (2.187, 0.567, 0.773))
BLED = ((1.890, 0.390, 0.753), (2.247, 0.533, 0.790))
LOW = ((2.060, 0.455, 0.740), (2.205, 0.540, 0.765))
HIGH = ((2.070, 0.505, 0.760), (2.205, 0.595, 0.780))
AT = (2.12, 0.5, 0.77)
D = distance_from_eye(AT)


def _open(store, join=True):
    cfg = copy.deepcopy(IMMEDIATE)
    cfg["identity"]["turns_twin_join"] = join
    return Memory.open(store("m"), embedding_dim=4, config=cfg)


def _frames(mem, start, seen_list, labels=None):
    for i, seen in enumerate(seen_list):
        t = start + 0.5 * i
        mem.add([span_obs((labels or {}).get(k, "phone"), *box, stamp=t) for k, box in enumerate(seen)],
                view(t, AT, D + 0.05))
        mem.commit()


def _owners(mem, since):
    return [int(r[0]) for r in mem._conn.execute(
        "SELECT object_id FROM observations WHERE stamp >= ? ORDER BY stamp, id", (since,))]


def test_a_phone_whose_views_go_to_a_bled_double_in_turns_is_one_phone(store):
    with _open(store) as mem:
        _frames(mem, 0.0, [[PHONE]] * 3)
        _frames(mem, 600.0, [[BLED], [LOW], [HIGH], [LOW], [HIGH]])
        # the bled view made phone 2 (its score under the merge threshold); the low view went to it, the high one
        # to phone 1: seen in turns, joined at 601.0 s, every later view phone 1's
        assert twin_joins(mem) == [{"kept": 1, "absorbed": 2}]
        assert live(mem) == [(1, "phone", "present")]
        assert _owners(mem, 600.0) == [1, 1, 1, 1, 1]
        phone = mem.get(1)
        assert phone.n_observations == 8 and phone.first_seen == 0.0 and phone.last_seen == 602.0
        assert [(e.kind, e.object_id) for e in mem.changes(since=0)] == [("appeared", 1), ("merged", 2)]


def test_two_phones_reported_in_one_frame_stay_two(store):
    with _open(store) as mem:
        _frames(mem, 0.0, [[PHONE]] * 3)
        _frames(mem, 600.0, [[BLED], [LOW, HIGH], [LOW], [HIGH], [LOW], [HIGH]])
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "phone", "present"), (2, "phone", "present")]


def test_a_double_seen_in_another_look_than_the_phone_is_not_joined_so(store):
    # the double's views came 600 s after the phone's last: no turns in one look
    with _open(store) as mem:
        _frames(mem, 0.0, [[PHONE]] * 3)
        _frames(mem, 600.0, [[BLED], [LOW], [LOW]])
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "phone", "present"), (2, "phone", "present")]


def test_a_remote_taking_views_in_turns_with_the_phone_stays_a_remote(store):
    # another shown label: the twin tests of labels (known confusions, _twins) decide, not this one
    with _open(store) as mem:
        _frames(mem, 0.0, [[PHONE]] * 3)
        for i, (label, box) in enumerate([("remote", BLED), ("remote", LOW), ("phone", HIGH), ("remote", LOW),
                                          ("phone", HIGH)]):
            _frames(mem, 600.0 + 0.5 * i, [[box]], labels={0: label})
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "phone", "present"), (2, "remote", "present")]


def test_off_with_turns_twin_join(store):
    with _open(store, join=False) as mem:
        _frames(mem, 0.0, [[PHONE]] * 3)
        _frames(mem, 600.0, [[BLED], [LOW], [HIGH], [LOW], [HIGH]])
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "phone", "present"), (2, "phone", "present")]
        assert mem.get(2).n_observations == 3 and mem.get(1).n_observations == 5


def test_beside_a_third_of_the_label_reported_with_them_views_in_turns_join_nothing(store):
    # a phone 11 cm beside it, reported in one frame with it: among look-alikes side by side, views in turns may be
    # of two things (without the lone-pair test, phone 3 was joined to phone 1 here)
    other = ((2.300, 0.506, 0.758), (2.431, 0.567, 0.773))
    with _open(store) as mem:
        _frames(mem, 0.0, [[PHONE, other]] * 3)
        _frames(mem, 600.0, [[BLED], [LOW], [HIGH], [LOW], [HIGH]])
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "phone", "present"), (2, "phone", "present"), (3, "phone", "present")]
        assert _owners(mem, 600.0) == [3, 3, 1, 3, 1]
