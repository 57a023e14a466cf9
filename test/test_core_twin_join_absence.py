"""A twin joined into an object brings its sightings, so the object's absence is that of the misses since
(issue 11, no feature; settling.Settling._absence_since_sighting). The test fails without the rule."""

from __future__ import annotations

from core_helpers import distance_from_eye, span_obs, view

from tempomem_ros.core import Memory


def misses(m: Memory, object_id: int) -> int:
    return m._conn.execute("SELECT COUNT(*) FROM misses WHERE object_id=?", (object_id,)).fetchone()[0]


G_LO, G_HI = (1.93, -0.03, 0.78), (2.07, 0.03, 0.82)  # glasses on a shelf board, at (2, 0, 0.8)
R_LO, R_HI = (1.95, -0.03, 0.78), (2.25, 0.03, 0.82)  # the same glasses read "remote", their box 10 cm off-centre
G_MID = (2.0, 0.0, 0.8)
G_SEEN = distance_from_eye(G_MID) - 0.05


def test_a_twin_joined_after_misses_brings_its_sightings_and_ends_that_absence(mem):
    # seed 326: glasses read "remote" in a patrol look became a second object beside them; the glasses counted
    # misses in that look (the "remote" sightings, centred off their box, were no view of them), the two were
    # joined 1.6 s later, once the "remote" had been called "glasses" too, and the removal came due anyway:
    # removed while there (stamped at the first of those misses), then "reappeared"
    for t in (0.0, 0.3, 0.6, 1.0):
        mem.add([span_obs("glasses", G_LO, G_HI, stamp=t)], view(t, G_MID, G_SEEN))
    for t in (600.0, 600.3, 600.6, 601.0, 601.4):
        mem.add([span_obs("remote", R_LO, R_HI, stamp=t)], view(t, G_MID, G_SEEN))
    mem.commit()
    assert misses(mem, 1) == 5 and mem.get(1).state == "present"
    for t in (601.6, 601.8):  # read "glasses" at the twin's place: the two labels become a known confusion
        mem.add([span_obs("glasses", R_LO, R_HI, stamp=t)], view(t, G_MID, G_SEEN))
    for t in (602.5, 603.0):
        mem.add([span_obs("glasses", R_LO, R_HI, stamp=t)], view(t, G_MID, G_SEEN))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects() if o.state != "forgotten"] == [(1, "glasses", "present")]
    row = mem._conn.execute("SELECT misses, first_miss, removal_due FROM objects WHERE id=1").fetchone()
    assert tuple(row) == (0, None, None)
    assert [e.kind for e in mem.changes() if e.kind in ("removed", "reappeared")] == []
