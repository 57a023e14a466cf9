"""Hostile input to the core API (issue 12): every case gets its exact refusal and leaves the store unchanged.

Each test builds the same small store (a mug seen three times, a table), takes a snapshot of everything
stored (objects, placements, frames, observations, events, "now"), sends one hostile input, asserts the
error class, its message and (for gates) its reason, and asserts the snapshot is identical afterwards.
Storage failures and damaged files are in test_hostile_store.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from core_helpers import F, H, W, box_obs, look_at, span_obs

from tempomem_ros.core import (
    CameraView,
    ImplausibleInputError,
    InvalidInputError,
    Memory,
    MemoryConfig,
    Observation,
    UnknownIdError,
)

WALL = 1_796_000_000.0  # the wall clock the memory is given: 2026-12-1x
T0 = WALL - 30 * 86400  # the story happened a month ago (a replayed bag, far behind the wall clock)
MUG = (1.0, 0.0, 0.8)
FEAT = np.array([1.0, 0.0, 0.0, 0.0], np.float32)


@pytest.fixture
def mem(store):
    m = Memory.open(store("m"), embedding_dim=4, clock=lambda: WALL)
    for i in range(3):
        m.add([box_obs("mug", MUG, stamp=T0 + i, feature=FEAT),
               span_obs("table", (0.5, -0.5, 0.0), (1.5, 0.5, 0.75), stamp=T0 + i)])
    m.commit()
    yield m
    m.close()


def snapshot(m):
    """Everything a hostile input could change, as plain values."""
    con = m._conn
    tables = {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
              for t in ("objects", "placements", "frames", "observations", "events", "label_mass", "regions",
                        "tombstones", "relations")}
    return {k: [tuple(r) for r in v] for k, v in tables.items()}, m.latest_stamp(), m.pending()


def refused(m, call, exc_type, match, reason=None):
    before = snapshot(m)
    with pytest.raises(exc_type, match=match) as info:
        call()
    if reason is not None:
        assert info.value.reason == reason
    assert snapshot(m) == before
    return info.value


def view_at(stamp, **changes):
    fields = dict(pose=look_at((0.0, 0.0, 1.0), MUG), fx=F, fy=F, cx=W / 2, cy=H / 2, width=W, height=H,
                  max_range=6.0, depth=np.full((H // 8, W // 8), 3.0, np.float32), stamp=stamp)
    fields.update(changes)
    return CameraView(**fields)


# --------------------------------------------------------------------------------------------- geometry
POISON = [
    (span_obs("mug", (-1e30, -1e30, -1e30), (1e30, 1e30, 1e30), stamp=T0 + 5), "world_bound", "bbox_min"),
    (Observation("mug", 0.9, (1e300, 0, 0.8), (1e300, 0, 0.8), (1e300, 0, 0.8), T0 + 5), "world_bound", "center"),
    (span_obs("mug", (-6.5, -7.5, 0.0), (8.5, 7.5, 1.0), stamp=T0 + 5), "extent", "box side 15 m"),
    (span_obs("mug", (10_000.5, 0, 0), (10_000.6, 0.1, 0.1), stamp=T0 + 5), "world_bound", "center"),
]


@pytest.mark.parametrize("poison,reason,field", POISON, ids=["1e30 box", "1e300 centre", "15 m box", "10 km"])
def test_absurd_geometry_is_refused_with_the_whole_frame(mem, poison, reason, field):
    err = refused(mem, lambda: mem.add([box_obs("mug", MUG, stamp=T0 + 5), poison]), ImplausibleInputError,
                  field, reason)
    assert str(err).startswith("observation 1: ")


def test_the_poison_cannot_reach_answers(mem):
    """The issue's end-to-end symptom: after the refused poison, the table is still where it was."""
    for poison, _, _ in POISON:
        with pytest.raises(ImplausibleInputError):
            mem.add([poison])
    mem.commit()
    assert mem.ask("where is the table").text.startswith("The table is at (1.00, 0.00, 0.38)")
    assert mem.ask("where is the mug").text.startswith("The mug is")
    assert "(1.00, 0.00, 0.80)" in mem.ask("where is the mug").text


def test_a_view_from_off_the_map_or_with_absurd_intrinsics_is_refused(mem):
    far = look_at((0.0, 0.0, 1.0), MUG)
    far[:3, 3] = (1e30, 0.0, 1.0)
    cases = [(view_at(T0 + 5, pose=far), "world_bound", "view.pose position"),
             (view_at(T0 + 5, fx=1e-300, fy=1e-300), "intrinsics", "view.fx = 1e-300"),
             (view_at(T0 + 5, fx=1e9), "intrinsics", "view.fx"),
             (view_at(T0 + 5, cx=1e7), "intrinsics", "view.cx"),
             (view_at(T0 + 5, max_range=1e12), "view_range", "max_range")]
    for v, reason, match in cases:
        refused(mem, lambda v=v: mem.add([box_obs("mug", MUG, stamp=T0 + 5)], v), ImplausibleInputError, match,
                reason)


def test_features_that_would_overflow_or_vanish_are_refused(mem):
    huge = np.full(4, 1e20, np.float32)           # float32 norm overflows: NaN cosines
    tiny = np.full(4, 1e-30, np.float32)          # float32 squares underflow to 0
    beyond = np.full(4, 1e300)                     # does not fit float32 at all
    cases = ((huge, "feature norm 2e\\+20"), (tiny, "feature norm 2e-30"), (beyond, "feature norm 2e\\+300"))
    for feat, match in cases:
        obs = Observation("mug", 0.9, MUG, (0.96, -0.04, 0.75), (1.04, 0.04, 0.85), T0 + 5, feat)
        refused(mem, lambda o=obs: mem.add([o]), ImplausibleInputError, match, "feature_norm")
    refused(mem, lambda: mem.add([box_obs("mug", MUG, stamp=T0 + 5, feature=np.ones((2, 2), np.float32))]),
            InvalidInputError, r"feature must be a 1-D float array, got shape \(2, 2\)")


def test_a_2x16_feature_is_not_flattened(store):
    with Memory.open(store("m"), embedding_dim=32) as m:
        obs = box_obs("mug", MUG, stamp=1.0, feature=np.ones((2, 16), np.float32))
        assert obs.feature.shape == (2, 16)
        with pytest.raises(InvalidInputError, match=r"shape \(2, 16\)"):
            m.add([obs])
        assert m.observations() == []


def test_too_many_observations_in_one_frame(mem):
    frame = [box_obs("mug", (0.1 * i, 3.0, 0.5), stamp=T0 + 5) for i in range(1001)]
    refused(mem, lambda: mem.add(frame), ImplausibleInputError, "1001 observations, at most 1000",
            "too_many_observations")


# ------------------------------------------------------------------------------------------------- time
@pytest.mark.parametrize("stamp,reason,match", [
    (2**31 - 1, "stamp_future", "2038-01-19\\) is \\d+ s ahead of the wall clock"),
    (1e300, "stamp_range", "not a ROS time"),
    (2**31, "stamp_range", "not a ROS time"),
    (-1.0, "stamp_range", "not a ROS time"),
    (WALL + 301, "stamp_future", "301 s ahead of the wall clock"),
])
def test_absurd_stamps_are_refused_and_now_does_not_move(mem, stamp, reason, match):
    refused(mem, lambda: mem.add([box_obs("mug", MUG, stamp=stamp)]), ImplausibleInputError, match, reason)
    refused(mem, lambda: mem.add([], view_at(stamp)), ImplausibleInputError, match, reason)
    assert mem.latest_stamp() == T0 + 2
    assert mem.ask("how long has the mug been there").text.endswith(f"for 2 s (since {_utc(T0)}).")


def _utc(t):
    from tempomem_ros.core.temporal import fmt_time
    return fmt_time(t)


def test_old_stamps_and_a_little_clock_skew_stay_accepted(mem):
    """A bag from January is far behind the wall clock; 4 minutes of skew between machines is tolerated."""
    mem.add([box_obs("book", (3, 3, 0.5), stamp=T0 - 300 * 86400)])
    mem.add([box_obs("cup", (4, 3, 0.5), stamp=T0 + 10)], stamp=T0 + 10)
    assert mem.pending() == 2 and mem.latest_stamp() == T0 + 10


def test_observation_stamps_far_from_their_frame_are_refused(mem):
    refused(mem, lambda: mem.add([box_obs("mug", MUG, stamp=T0 + 5), box_obs("cup", (3, 0, 0.5), stamp=T0 - 9000)],
                                 stamp=T0 + 5), ImplausibleInputError, "9005 s from its frame's stamp", "stamp_spread")


def test_a_week_long_jump_is_quarantined_then_confirmed(mem):
    """A robot switched off for a week: its first frames are held until three in a row confirm the new
    time; meanwhile "now" and every answer stay on the old time; then they are fused in stamp order."""
    week = T0 + 7 * 86400
    r1 = mem.stage([box_obs("mug", (2.0, 2.0, 0.8), stamp=week)])
    r2 = mem.stage([box_obs("mug", (2.0, 2.0, 0.8), stamp=week + 1)])
    assert (r1.status, r2.status, r1.released, r2.released) == ("quarantined", "quarantined", (), ())
    assert mem.latest_stamp() == T0 + 2 and mem.pending() == 0 and mem.quarantined() == 2
    assert mem.commit().observations_committed == 0
    assert [r.verdict for r in mem.observations()][-2:] == ["quarantined", "quarantined"]
    r3 = mem.stage([box_obs("mug", (2.0, 2.0, 0.8), stamp=week + 2)])
    assert (r3.status, r3.released) == ("pending", (r1.frame_id, r2.frame_id, r3.frame_id))
    assert mem.latest_stamp() == week + 2 and mem.pending() == 3 and mem.quarantined() == 0
    stats = mem.commit()
    assert (stats.observations_committed, stats.created, stats.merged) == (3, 1, 2)
    assert [a.action for a in mem.audit() if a.action in ("quarantine", "release")] == \
        ["quarantine", "quarantine", "quarantine", "release"]


def test_one_jumping_frame_followed_by_the_old_timeline_is_refused(mem):
    """One frame stamped a day ahead (a clock glitch): the next frame continues the old time, so the jump
    is refused: kept (verdict rejected, reason stamp_jump), never fused, never "now"."""
    before_objects = [(o.id, o.center, o.bbox_min, o.bbox_max) for o in mem.objects()]
    glitch = mem.stage([span_obs("mug", (0.0, -4.0, 0.0), (8.0, 4.0, 1.0), stamp=T0 + 86400)])
    assert glitch.status == "quarantined"
    normal = mem.stage([box_obs("mug", MUG, stamp=T0 + 3)])
    assert (normal.status, normal.refused) == ("pending", (glitch.frame_id,))
    mem.commit()
    assert mem.latest_stamp() == T0 + 3 and mem.quarantined() == 0
    (rec,) = [r for r in mem.observations() if r.id == glitch.observation_ids[0]]
    assert (rec.verdict, rec.reason, rec.object_id) == ("rejected", "stamp_jump", None)
    assert [(o.id, o.center, o.bbox_min, o.bbox_max) for o in mem.objects()] == before_objects
    assert mem.frame_counts() == {"pending": 0, "fused": 4, "quarantined": 0, "refused": 1, "compacted": 0}


def test_two_different_jumps_do_not_confirm_each_other(mem):
    a = mem.stage([], stamp=T0 + 86400)
    b = mem.stage([], stamp=T0 + 3 * 86400)  # not within max_stamp_jump_s of a: a is refused
    assert (a.status, b.status, b.refused) == ("quarantined", "quarantined", (a.frame_id,))
    assert mem.quarantined() == 1 and mem.latest_stamp() == T0 + 2


def test_quarantine_survives_a_restart(store):
    path = store("m")
    with Memory.open(path, embedding_dim=4, clock=lambda: WALL) as m:
        m.add([box_obs("mug", MUG, stamp=T0)])
        m.add([box_obs("mug", MUG, stamp=T0 + 86400)])
        m.add([box_obs("mug", MUG, stamp=T0 + 86401)])
    with Memory.open(path, embedding_dim=4, clock=lambda: WALL) as m:
        assert m.quarantined() == 2 and m.latest_stamp() == T0
        m.add([box_obs("mug", MUG, stamp=T0 + 86402)])
        assert m.quarantined() == 0 and m.pending() == 3 and m.latest_stamp() == T0 + 86402


def test_the_jump_gate_is_configurable(store):
    cfg = {"gates": {"max_stamp_jump_s": 10.0, "jump_confirm_frames": 1}}
    with Memory.open(store("m"), embedding_dim=4, clock=lambda: WALL, config=cfg) as m:
        m.add([box_obs("mug", MUG, stamp=T0)])
        assert m.stage([box_obs("mug", MUG, stamp=T0 + 11)]).status == "pending"  # one frame confirms itself


# ---------------------------------------------------------------------------------------- ids and times
MAX = 2**63 - 1


@pytest.mark.parametrize("call,field", [
    (lambda m: m.history(2**63), "object id"), (lambda m: m.get(2**63), "object id"),
    (lambda m: m.get(2**64 - 1), "object id"), (lambda m: m.placements(2**63), "object id"),
    (lambda m: m.forget(2**63, "x"), "object id"), (lambda m: m.update(2**63, label="cup"), "object id"),
    (lambda m: m.events(object_id=2**63), "object id"), (lambda m: m.relations(2**63), "object id"),
    (lambda m: m.label_history(2**63), "object id"), (lambda m: m.relational("on", 2**63), "anchor id"),
    (lambda m: m.temporal("current", object_id=2**63), "object_id"),
    (lambda m: m.observation(2**63), "observation id"), (lambda m: m.contents(2**63), "region id"),
    (lambda m: m.get(0), "object id"), (lambda m: m.get(-5), "object id"),
    (lambda m: m.events(after_id=2**64), "after_id"),
    (lambda m: m.scene_as_of(T0, offset=2**64), "offset"), (lambda m: m.scene_as_of(T0, offset=2**63), "offset"),
])
def test_ids_beyond_sqlite_are_clear_errors(mem, call, field):
    err = refused(mem, lambda: call(mem), InvalidInputError, field)
    assert "OverflowError" not in str(err)


def test_the_largest_sqlite_id_is_merely_unknown(mem):
    with pytest.raises(UnknownIdError, match=f"unknown object id {MAX}"):
        mem.get(MAX)
    assert mem.scene_as_of(T0 + 1, offset=MAX) == []


@pytest.mark.parametrize("question,match", [
    ("where was the mug at 1000000000000", "I only know the past and the present"),
    ("where was the mug 100000000000000000000 minutes ago",
     "'100000000000000000000 minutes ago' is outside the times a memory can answer about"),
    ("what changed in the last 100000000000000000000 minutes", "is outside the times a memory can answer about"),
    ("where was the mug " + "9" * 400 + " minutes ago", "is outside the times a memory can answer about"),
])
def test_absurd_times_in_questions_are_refused(mem, question, match):
    """The understander refuses them (understood = false, the reason named), never an OverflowError."""
    before = snapshot(mem)
    answer = mem.ask(question)
    assert (answer.understood, answer.found) == (False, False)
    assert match in answer.text and "Overflow" not in answer.text
    assert snapshot(mem) == before


def test_absurd_times_in_operators(mem):
    refused(mem, lambda: mem.temporal("as_of", label="mug", t=1e300), InvalidInputError, "t = 1e\\+300 s is outside")
    refused(mem, lambda: mem.temporal("last_seen", label="mug", now=1e300), InvalidInputError, "now = 1e\\+300")
    refused(mem, lambda: mem.ask("where is the mug", now=-1e20), InvalidInputError, "now = -1e\\+20")
    refused(mem, lambda: mem.decay(1e300, half_life_s=10.0, min_confidence=0.5), InvalidInputError, "now = 1e\\+300")
    # a question 5 minutes "before" simulated time 0 is fine (a negative time, answered)
    assert mem.temporal("as_of", label="mug", t=-300.0).text.startswith("At 1969-12-31 23:55:00 UTC I do not know")


def test_huge_question_and_query_text_are_refused_before_any_work(mem):
    text = "find " + "x" * 1_000_000
    refused(mem, lambda: mem.ask(text), ImplausibleInputError, "question is 1000005 characters long, at most 1000",
            "request_size")
    refused(mem, lambda: mem.semantic("x" * 1001), ImplausibleInputError, "at most 1000", "request_size")
    refused(mem, lambda: mem.temporal("current", label="m" * 121), ImplausibleInputError, "label is 121")
    refused(mem, lambda: mem.relational("on", "t" * 121), ImplausibleInputError, "anchor is 121")
    # within the size limit, so no error; but longer than any question is read (the seventeenth round's TOO_LONG: the
    # forms read the first 500 characters, so an answer would be to a question cut off): refused, saying why
    long = mem.ask("find " + "x" * 990)
    assert not long.understood and "longer than 500 characters" in long.text
    assert mem.ask("find " + "x" * 490).understood


def test_regions_outside_the_world_are_refused(mem):
    refused(mem, lambda: mem.define_region("kitchen", (-1e30, 0, 0), (1, 1, 1)), ImplausibleInputError,
            "bbox_min", "world_bound")
    assert mem.define_region("campus", (-5000, -5000, 0), (5000, 5000, 30)) == 1  # large regions are fine


# ------------------------------------------------------------------------------------------------ config
@pytest.mark.parametrize("section,key,value", [
    ("gates", "world_bound", 0.0), ("gates", "world_bound", math.inf), ("gates", "world_bound", math.nan),
    ("gates", "max_extent", -1.0), ("gates", "max_stamp_ahead_s", 0.0), ("gates", "max_stamp_jump_s", math.inf),
    ("gates", "jump_confirm_frames", 0), ("gates", "max_frame_spread_s", -1.0), ("gates", "min_feature_norm", 0.0),
    ("gates", "max_feature_norm", 1e16), ("gates", "max_observations", 0), ("gates", "max_question_length", 0),
    ("fusion", "box_growth_factor", 0.5), ("fusion", "box_growth_factor", math.nan),
])
def test_every_gate_setting_is_validated(section, key, value):
    with pytest.raises(InvalidInputError, match=f"{section}"):
        MemoryConfig.from_dict({section: {key: value}})


def test_gate_settings_must_have_the_right_type():
    with pytest.raises(InvalidInputError, match="'gates.jump_confirm_frames' must be an integer"):
        MemoryConfig.from_dict({"gates": {"jump_confirm_frames": 2.5}})
    with pytest.raises(InvalidInputError, match="unknown configuration key"):
        MemoryConfig.from_dict({"gates": {"world_bounds": 5.0}})
