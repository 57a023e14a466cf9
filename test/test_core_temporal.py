"""The temporal model: identity across moves, placements, absence evidence, operators, questions."""

from __future__ import annotations

import datetime as dt

import pytest
from core_helpers import IMMEDIATE, box_obs, cup_read_mug_moved, distance_from_eye, unit, view

from tempomem_ros.core import Memory
from tempomem_ros.core.errors import InvalidInputError, UnknownIdError

A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
DA = distance_from_eye(A)
DB = distance_from_eye(B)


@pytest.fixture
def mem(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        yield m


def mug_moves_story(m: Memory, *, occluded: bool = False) -> None:
    """Mug seen at A (t=10..12), A viewed 3 times without it (t=20..22), then a mug at B (t=30)."""
    for i in range(3):
        m.add([box_obs("mug", A, stamp=10 + i)], view(10 + i, A, DA + 0.04))
        m.commit()
    for i in range(3):
        depth = DA - 0.6 if occluded else DA + 1.0
        m.add([], view(20 + i, A, depth))
        m.commit()
    m.add([box_obs("mug", B, stamp=30)], view(30, B, DB + 0.04))
    m.commit()


def test_move_after_absence_is_one_object_with_history(mem):
    mug_moves_story(mem)
    objs = mem.objects()
    assert [(o.id, o.label, o.state) for o in objs] == [(1, "mug", "present")]
    assert mem.temporal("current", label="mug").placements[0].center == pytest.approx(B)
    prev = mem.temporal("previous", label="mug")
    assert [p.center for p in prev.placements] == [pytest.approx(A)]
    assert prev.placements[0].t_from == 10 and prev.placements[0].t_to == 20
    assert mem.temporal("count_moves", label="mug").count == 1
    hist = mem.temporal("history", label="mug")
    assert [p.center for p in hist.placements] == [pytest.approx(A), pytest.approx(B)]
    assert [p.current for p in hist.placements] == [False, True]
    assert [(e.kind, e.stamp) for e in mem.changes(since=0)] == [("appeared", 10), ("removed", 20), ("moved", 30)]
    moved = mem.changes(since=0)[2]
    assert moved.before.center == pytest.approx(A) and moved.after.center == pytest.approx(B)
    assert mem.temporal("as_of", label="mug", t=11.5).placements[0].center == pytest.approx(A)
    assert mem.temporal("as_of", label="mug", t=25).placements == ()  # it was gone from A, not yet seen at B
    assert mem.temporal("as_of", label="mug", t=31).placements[0].center == pytest.approx(B)


def test_evidence_cites_the_observations_of_the_placement(mem):
    mug_moves_story(mem)
    prev = mem.temporal("previous", label="mug")
    hist = mem.history(1)
    at_a = [h.id for h in hist if h.stamp < 20]
    assert list(prev.evidence) == at_a == [1, 2, 3]
    cur = mem.temporal("current", label="mug")
    assert list(cur.evidence) == [4]
    assert [h.verdict for h in hist] == ["created", "merged", "merged", "merged"]
    assert hist[-1].reason == "moved"


def test_was_seen_in_a_window_names_the_place_of_its_last_sighting_there(mem):
    """The place a was_seen answer names is the placement that held at the window's last sighting (what as_of at
    that time names), not where the object is now: up to t=25 the mug was last seen at 12 s, at A (it answered B,
    where it has been since 30 s). The cited sightings are the window's, the last one among them."""
    from tempomem_ros.tools import agent_tools

    mug_moves_story(mem)
    ids = {h.stamp: h.id for h in mem.history(1)}                      # 10, 11, 12 at A; 30 at B
    before = mem.was_seen(label="mug", until=25)
    assert (before.verdict, before.count, before.time) == (True, 3, 12.0)
    assert before.text.endswith("last at 1970-01-01 00:00:12 UTC at (2.00, 0.00, 0.80).")
    assert "(0.00, 2.00" not in before.text
    assert [(p.center, p.t_from, p.t_to) for p in before.placements] == [(pytest.approx(A), 10.0, 20.0)]
    assert before.placements[0].center == mem.temporal("as_of", label="mug", t=12).placements[0].center
    assert list(before.evidence) == [ids[10], ids[11], ids[12]] and max(before.evidence) == ids[12]
    assert [o.center for o in before.objects] == [pytest.approx(B)]   # the object itself is described as now
    inside = mem.was_seen(label="mug", since=10.5, until=11.5)          # one sighting: the one at 11
    assert (inside.count, inside.time, list(inside.evidence)) == (1, 11.0, [ids[11]])
    assert "at (2.00, 0.00, 0.80)." in inside.text
    after = mem.was_seen(label="mug", since=25)
    assert (after.count, after.time, list(after.evidence)) == (1, 30.0, [ids[30]])
    assert after.text.endswith("last at 1970-01-01 00:00:30 UTC at (0.00, 2.00, 0.80).")
    assert [(p.center, p.t_from, p.t_to) for p in after.placements] == [(pytest.approx(B), 30.0, None)]
    whole = mem.was_seen(label="mug")
    assert (whole.count, whole.time, list(whole.evidence)) == (4, 30.0, [ids[10], ids[11], ids[12], ids[30]])
    assert whole.text.endswith("last at 1970-01-01 00:00:30 UTC at (0.00, 2.00, 0.80).")
    assert [p.center for p in whole.placements] == [pytest.approx(B)]
    # the same through Memory.ask (now=25: the last 20 s are 5..25) and the agent tool
    asked = mem.ask("did you see the mug in the last 20 seconds", now=25)
    assert (asked.operator, asked.text, asked.evidence) == ("was_seen", before.text.replace(
        "up to", "from 1970-01-01 00:00:05 UTC to"), before.evidence)
    tool = agent_tools.call(mem, "was_seen", {"label": "mug", "until": 25})
    assert tool["answer"] == {"untrusted_text": before.text}
    assert [p["center"] for p in tool["placements"]] == [[2.0, 0.0, 0.8]]
    assert tool["cite"]["observation_ids"] == [ids[10], ids[11], ids[12]]
    assert tool["cite"]["placement_ids"] == [before.placements[0].id]


def test_history_pages_from_the_newest(mem):
    mug_moves_story(mem)
    whole = [h.id for h in mem.history(1)]
    assert whole == [1, 2, 3, 4] and mem.history_count(1) == 4
    assert [h.id for h in mem.history(1, k=2)] == [3, 4]              # the newest two, in stamp order
    assert [h.id for h in mem.history(1, k=2, offset=2)] == [1, 2]    # the page before
    assert [h.id for h in mem.history(1, k=3, offset=2)] == [1, 2]    # the oldest page is short
    assert mem.history(1, k=2, offset=4) == []
    assert [h.id for h in mem.history(1, offset=1)] == [1, 2, 3]      # no k: all but the newest
    with pytest.raises(InvalidInputError, match="k"):
        mem.history(1, k=0)
    with pytest.raises(InvalidInputError, match="offset"):
        mem.history(1, k=1, offset=-1)
    with pytest.raises(UnknownIdError):
        mem.history_count(99)


def test_occluded_views_count_no_miss(mem):
    mug_moves_story(mem, occluded=True)
    # Never seen empty: a mug at B is a second mug (being the only mug is no evidence of a move); the one at A
    # stays where it was seen.
    assert [e.kind for e in mem.changes()] == ["appeared", "appeared"]
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "present", 0), (2, "present", 0)]
    miss_rows = mem._conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0]
    assert miss_rows == 0


def test_occluded_views_keep_the_mug_at_a(mem):
    for i in range(3):
        mem.add([box_obs("mug", A, stamp=10 + i)], view(10 + i, A, DA + 0.04))
    for i in range(5):
        mem.add([], view(20 + i, A, DA - 0.6))
    mem.commit()
    (mug,) = mem.objects()
    assert mug.state == "present" and mug.center == pytest.approx(A)
    assert [e.kind for e in mem.changes()] == ["appeared"]


def test_two_mugs_in_one_frame_stay_two_objects(mem):
    mem.add([box_obs("mug", A, stamp=10), box_obs("mug", B, stamp=10)])
    mem.commit()
    mem.add([box_obs("mug", B, stamp=40), box_obs("mug", A, stamp=40)])
    mem.commit()
    objs = mem.objects()
    assert [(o.id, o.center) for o in objs] == [(1, pytest.approx(A)), (2, pytest.approx(B))]
    assert all(o.n_moves == 0 and o.n_observations == 2 for o in objs)
    assert [e.kind for e in mem.changes()] == ["appeared", "appeared"]


def test_second_mug_elsewhere_is_not_a_move_when_first_is_still_seen(mem):
    mem.add([box_obs("mug", A, stamp=10)])
    mem.commit()
    mem.add([box_obs("mug", A, stamp=20), box_obs("mug", B, stamp=20)])
    mem.commit()
    assert [(o.id, o.n_moves) for o in mem.objects()] == [(1, 0), (2, 0)]


def test_looking_elsewhere_for_an_hour_forgets_nothing(mem):
    mem.add([box_obs("mug", A, stamp=0)], view(0, A, DA + 0.04))
    mem.commit()
    for i in range(360):  # one view every 10 s at B, for an hour, never towards A
        mem.add([], view(10 + 10 * i, B, DB + 1.0))
    mem.commit()
    (mug,) = mem.objects()
    assert mug.state == "present" and mug.n_moves == 0
    assert mem.temporal("current", label="mug").placements[0].center == pytest.approx(A)
    assert mem.temporal("count_moves", label="mug").count == 0
    assert [e.kind for e in mem.changes()] == ["appeared"]


def test_out_of_range_and_unknown_depth_count_no_miss(mem):
    mem.add([box_obs("mug", A, stamp=0)], view(0, A, DA + 0.04))
    for i in range(5):
        mem.add([], view(10 + i, A, float("nan")))               # no depth: never evidence
        mem.add([], view(20 + i, A, DA + 1.0, max_range=1.5))    # the mug is beyond the trusted range
    mem.commit()
    assert mem.objects()[0].state == "present"


def test_misses_need_n_views_over_t_seconds(mem):
    mem.add([box_obs("mug", A, stamp=0)], view(0, A, DA + 0.04))
    for i in range(3):  # 3 misses within 0.2 s: not enough time (min_absence_s = 1 s)
        mem.add([], view(10 + 0.1 * i, A, DA + 1.0))
    mem.commit()
    assert mem.objects()[0].state == "present"
    mem.add([], view(11.5, A, DA + 1.0))
    mem.commit()
    (mug,) = mem.objects()
    assert mug.state == "missing"
    removed = [e for e in mem.changes() if e.kind == "removed"]
    assert [(e.stamp, e.recorded_at) for e in removed] == [(10.0, 11.5)]
    assert mem.placements(1)[0].t_to == 10.0


def test_a_sighting_resets_the_misses(mem):
    mem.add([box_obs("mug", A, stamp=0)], view(0, A, DA + 0.04))
    mem.add([], view(10, A, DA + 1.0))
    mem.add([], view(11, A, DA + 1.0))
    mem.add([box_obs("mug", A, stamp=12)], view(12, A, DA + 0.04))
    mem.add([], view(13, A, DA + 1.0))
    mem.add([], view(14, A, DA + 1.0))
    mem.commit()
    assert mem.objects()[0].state == "present"


def test_reappearance_in_the_same_place(mem):
    mem.add([box_obs("mug", A, stamp=0)], view(0, A, DA + 0.04))
    for i in range(3):
        mem.add([], view(10 + i, A, DA + 1.0))
    mem.add([box_obs("mug", A, stamp=40)], view(40, A, DA + 0.04))
    mem.commit()
    (mug,) = mem.objects()
    assert mug.state == "present" and mug.n_moves == 0
    assert [e.kind for e in mem.changes()] == ["appeared", "removed", "reappeared"]
    assert [(p.t_from, p.t_to, p.closed_reason) for p in mem.placements(1)] == [(0, 10, "removed"),
                                                                                 (40, None, "")]


def test_features_distinguish_two_mugs_across_a_move(store):
    red, blue = unit([1, 0.1, 0, 0]), unit([0, 0.1, 1, 0])
    with Memory.open(store("f"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", A, stamp=0, feature=red)], view(0, A, DA + 0.04))
        for i in range(3):
            m.add([], view(10 + i, A, DA + 1.0))
        m.add([box_obs("mug", B, stamp=30, feature=blue)])  # a different mug at B: not the red one moving
        m.add([box_obs("mug", (1.0, 1.0, 0.8), stamp=40, feature=red)])  # the red one, moved
        m.commit()
        objs = m.objects()
        assert [(o.id, o.state, o.n_moves) for o in objs] == [(1, "present", 1), (2, "present", 0)]
        assert objs[0].center == pytest.approx((1.0, 1.0, 0.8))


def test_unknown_and_ambiguous_objects(mem):
    mem.add([box_obs("mug", A, stamp=1), box_obs("mug", B, stamp=1), box_obs("keys", (1, 1, 0.5), stamp=1)])
    mem.commit()
    ans = mem.temporal("current", label="teapot")
    assert (ans.found, ans.objects, ans.placements) == (False, (), ())
    assert "no memory of a teapot" in ans.text
    amb = mem.temporal("current", label="mug")
    assert amb.found and [o.id for o in amb.objects] == [1, 2]
    assert amb.arguments["ambiguous"] == [1, 2]
    assert "[#1]" in amb.text and "[#2]" in amb.text
    assert mem.temporal("current", label="key").found is False  # whole words: "key" is not "keys"


def test_first_last_seen_and_duration(mem):
    mem.add([box_obs("keys", A, stamp=100)])
    mem.add([box_obs("keys", A, stamp=160)])
    mem.add([box_obs("mug", B, stamp=400)])
    mem.commit()
    assert mem.temporal("first_seen", label="keys").time == 100
    last = mem.temporal("last_seen", label="keys")
    assert last.time == 160 and last.evidence == (2,)
    dur = mem.temporal("duration", label="keys")
    assert dur.time == pytest.approx(300.0)  # now = newest stamp (400) - since 100
    assert mem.temporal("count_sightings", label="keys").count == 2


def test_scene_as_of(mem):
    mug_moves_story(mem)
    mem.add([box_obs("book", (1, 1, 0.5), stamp=25)])
    mem.commit()
    at_11 = mem.scene_as_of(11)
    assert [(o.label, p.center) for o, p in at_11] == [("mug", pytest.approx(A))]
    at_26 = mem.scene_as_of(26)
    assert [(o.label, p.center) for o, p in at_26] == [("book", pytest.approx((1, 1, 0.5)))]
    at_31 = mem.scene_as_of(31)
    assert [(o.label, p.center) for o, p in at_31] == [("mug", pytest.approx(B)), ("book", pytest.approx((1, 1, 0.5)))]


def grid_store(mem, n: int = 7) -> None:
    """n books 1 m apart on the x axis at t=5 (ids 1..n in x order), then book #3 forgotten."""
    mem.add([box_obs(f"book {i}", (float(i), 0.0, 0.5), stamp=5) for i in range(n)])
    mem.commit()
    assert mem.forget(3, "test")


def test_scene_as_of_pages_cover_the_scene_once_in_id_order(mem):
    grid_store(mem)
    whole = [o.id for o, _ in mem.scene_as_of(6)]
    assert whole == [1, 2, 4, 5, 6, 7]  # the forgotten book is not part of any scene
    assert mem.scene_count_as_of(6) == 6
    pages = [[o.id for o, _ in mem.scene_as_of(6, k=4, offset=off)] for off in (0, 4, 8)]
    assert pages == [[1, 2, 4, 5], [6, 7], []]
    assert mem.scene_as_of(6, offset=2) == mem.scene_as_of(6)[2:]
    assert mem.scene_count_as_of(4) == 0 and mem.scene_as_of(4) == []  # before anything was seen


def test_scene_as_of_around_a_point_is_nearest_first_and_pages(mem):
    grid_store(mem)
    near = mem.scene_as_of(6, center=(3.9, 0.0, 0.5), radius=2.0)
    # books at x = 2..5 are within 2 m of x = 3.9; #3 (x = 2) is forgotten; order by distance
    assert [(o.id, p.center[0]) for o, p in near] == [(5, pytest.approx(4.0)), (4, pytest.approx(3.0)),
                                                      (6, pytest.approx(5.0))]
    assert mem.scene_count_as_of(6, center=(3.9, 0.0, 0.5), radius=2.0) == 3
    page = mem.scene_as_of(6, center=(3.9, 0.0, 0.5), radius=2.0, k=2, offset=1)
    assert [o.id for o, _ in page] == [4, 6]
    # a sphere, not a box: books #2 and #5 lie 2.12 m away, inside the 2 m box around the centre
    assert [o.id for o, _ in mem.scene_as_of(6, center=(2.5, 1.5, 0.5), radius=2.0)] == [4]


@pytest.mark.parametrize("kwargs, match", [
    ({"offset": -1}, "offset"), ({"offset": True}, "offset"), ({"k": 0}, "k"),
    ({"center": (0, 0, 0)}, "both center and radius"), ({"center": (0, 0, 0), "radius": 0.0}, "radius"),
])
def test_scene_as_of_rejects_malformed_paging(mem, kwargs, match):
    grid_store(mem)
    with pytest.raises(InvalidInputError, match=match):
        mem.scene_as_of(6, **kwargs)


def test_changes_window(mem):
    mug_moves_story(mem)
    assert [e.kind for e in mem.changes(since=15, until=25)] == ["removed"]
    assert [e.kind for e in mem.changes(since=21)] == ["moved"]
    assert mem.changes(since=31) == []


def replay(path, stream):
    with Memory.open(path, embedding_dim=4, clock=lambda: 0.0, config=IMMEDIATE) as m:
        for obs, v in stream:
            m.add(obs, v)
            m.commit()
        return (
            [(o.id, o.label, o.center, o.bbox_min, o.bbox_max, o.state, o.n_moves) for o in m.objects()],
            [(p.id, p.object_id, p.center, p.t_from, p.t_to) for o in m.objects() for p in m.placements(o.id)],
            [(e.id, e.kind, e.object_id, e.stamp) for e in m.changes()],
            [m.ask(q).text for q in ("where is the mug", "where was the mug before", "what changed")],
            [(r.subject_id, r.relation, r.object_id) for r in m.relations()],
        )


def test_deterministic_replay(store):
    stream = []
    for i in range(3):
        stream.append(([box_obs("mug", A, stamp=10 + i), box_obs("book", (2.2, 0.3, 0.78), stamp=10 + i)],
                       view(10 + i, A, DA + 0.04)))
    for i in range(3):
        stream.append(([], view(20 + i, A, DA + 1.0)))
    stream.append(([box_obs("mug", B, stamp=30)], view(30, B, DB + 0.04)))
    first = replay(store("one"), stream)
    second = replay(store("two"), stream)
    assert first == second
    assert len(first[0]) == 2 and first[2][-1][1] == "moved"


# ---------------------------------------------------------------------------- questions
def test_questions_route_to_operators(mem):
    mug_moves_story(mem)
    expect = {
        "Where is the mug?": "current",
        "where was the mug before": "previous",
        "How many times did the mug move?": "count_moves",
        "where has the mug been": "history",
        "when did I last see my mug": "last_seen",
        "when did you first see the mug": "first_seen",
        "how many times did I see the mug": "count_sightings",
        "where was the mug 5 minutes ago": "as_of",
        "where was the mug at 10:30": "as_of",
        "how long has the mug been there": "duration",
        "what changed in the last 10 minutes": "changes",
        "what is on the table": "relational:on",
        "what is near the sofa": "relational:near",
        "what is within 1 m of 1.0 2.0 0.5": "spatial",
        "find something to drink from": "semantic",
    }
    for question, operator in expect.items():
        ans = mem.ask(question)
        assert ans.understood, question
        assert ans.operator == operator, question


def test_questions_answers(mem):
    mug_moves_story(mem)
    prev = mem.ask("where was the mug before?")
    assert prev.found and prev.placements[0].center == pytest.approx(A)
    assert mem.ask("how many times did the mug move").count == 1
    ago = mem.ask("where was the mug 19 seconds ago")  # now = 30 -> t = 11
    assert ago.placements[0].center == pytest.approx(A)
    changed = mem.ask("what changed in the last 12 seconds")  # since 18
    assert [e.kind for e in changed.events] == ["removed", "moved"]
    near = mem.ask("what is within 0.5 m of 0 2 0.8")
    assert [o.label for o in near.objects] == ["mug"]
    assert mem.ask("what is within 0.5 m of 2 0 0.8").objects == ()


def test_relative_times_anchor_to_now_argument(mem):
    mug_moves_story(mem)
    assert mem.ask("where was the mug 1 minute ago", now=71).placements[0].center == pytest.approx(A)


def test_clock_time_question(store):
    base = dt.datetime(2026, 1, 15, 8, 0, tzinfo=dt.timezone.utc).timestamp()
    with Memory.open(store("c"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", A, stamp=base)], view(base, A, DA + 0.04))
        for i in range(3):
            m.add([], view(base + 1800 + i, A, DA + 1.0))
        m.add([box_obs("mug", B, stamp=base + 3600)])
        m.commit()
        assert m.ask("where was the mug at 8:10").placements[0].center == pytest.approx(A)
        assert m.ask("where was the mug at 09:00").placements[0].center == pytest.approx(B)
        assert m.ask("where was the mug at 8:45").placements == ()


def test_not_understood_is_never_a_guess(mem):
    mug_moves_story(mem)
    # "what is within one metre of the mug" is understood since issue 13 (spatial around an object); a radius
    # without a number is not
    for q in ("", "mug", "tell me a joke", "where", "what is within metres of the mug"):
        ans = mem.ask(q)
        assert ans.understood is False and ans.objects == () and ans.operator == ""
        assert "did not understand" in ans.text
        assert ans.suggestions and ans.arguments == {} and ans.evidence == ()


def test_labels_in_answers_are_sanitised(mem):
    mem.add([box_obs("mu\x1bg\n<b>", A, stamp=1)])
    mem.commit()
    (obj,) = mem.objects()
    assert obj.label == "mu g <b>"
    ans = mem.ask("where is the \x07mu g")
    assert "\x07" not in ans.text and "\x1b" not in ans.text


def test_activity_questions_route_to_semantic_with_the_whole_question(mem):
    for q in ("where can I sit", "what can I use to cut bread"):
        ans = mem.ask(q)
        assert (ans.understood, ans.operator, ans.arguments["text"]) == (True, "semantic", q.lower())


def test_misses_from_separate_looks_add_up(mem):
    mem.add([box_obs("mug", A, stamp=0)], view(0, A, DA + 0.04))
    mem.add([], view(10, A, DA + 1.0))             # one glance at the empty place in this visit ...
    mem.add([], view(600, A, DA + 1.0))            # ... and one more in the next: 2/3 of the evidence
    mem.commit()
    assert mem.objects()[0].state == "present"
    mem.add([], view(1200, A, DA + 1.0))           # a third look: a patrol learns the mug is gone
    mem.commit()
    assert mem.objects()[0].state == "missing"
    # stamped with the first miss since the last sighting: the change was first evidenced then
    assert [(e.kind, e.stamp) for e in mem.changes()] == [("appeared", 0.0), ("removed", 10.0)]


def test_a_sighting_between_looks_starts_the_evidence_anew(mem):
    mem.add([box_obs("mug", A, stamp=0)], view(0, A, DA + 0.04))
    mem.add([], view(10, A, DA + 1.0))
    mem.add([], view(600, A, DA + 1.0))
    mem.add([box_obs("mug", A, stamp=900)], view(900, A, DA + 0.04))
    mem.add([], view(1200, A, DA + 1.0))
    mem.commit()
    (mug,) = mem.objects()
    assert mug.state == "present"
    assert [e.kind for e in mem.changes()] == ["appeared"]


def test_a_missing_object_seen_close_to_its_old_place_moved(mem):
    mem.add([box_obs("mug", A, stamp=0)], view(0, A, DA + 0.04))
    for i in range(3):
        mem.add([], view(10 + i, A, DA + 1.0))
    near = (A[0], A[1] + 0.15, A[2])  # still a fusion candidate of the old box, but 15 cm away
    mem.add([box_obs("mug", near, stamp=40)])
    mem.commit()
    assert [e.kind for e in mem.changes()] == ["appeared", "removed", "moved"]
    assert mem.get(1).n_moves == 1


def test_what_changed_leaves_out_relabellings(mem):
    mem.add([box_obs("cup", A, stamp=0, conf=0.5)])
    for i in range(3):
        mem.add([box_obs("mug", A, stamp=10 + i, conf=0.9)])
    mem.commit()
    assert [e.kind for e in mem.changes()] == ["appeared", "relabelled"]
    assert [e.kind for e in mem.ask("what changed").events] == ["appeared"]


def _scene_from_placements(mem, t, center=None, radius=None) -> list:
    """scene_as_of(t) recomputed from each object's own placements (Memory.placements), without the as-of read:
    every present or missing object's placements with t_from <= t < t_to (or open), by object id and placement
    id, or within radius nearest first."""
    rows = [(o, p) for o in mem.objects() if o.state in ("present", "missing") for p in mem.placements(o.id)
            if p.t_from <= t and (p.t_to is None or p.t_to > t)]
    if radius is None:
        return sorted(rows, key=lambda op: (op[0].id, op[1].id))
    c = tuple(float(v) for v in center)
    d2 = [(sum((float(a) - b) ** 2 for a, b in zip(p.center, c)), o.id, p.id, (o, p)) for o, p in rows]
    return [r[3] for r in sorted(d2, key=lambda r: r[:3]) if r[0] <= radius * radius]


def test_scene_as_of_reads_shown_objects_only_and_matches_their_placements(mem):
    """The as-of scene is driven by the shown objects (store/placements.py): it must give exactly what each
    object's placements say, with a moved object (two placements), a missing one (its closed placement only
    before the removal), and forgotten objects that stood there (never shown)."""
    mug_moves_story(mem)  # mug #1: A 10..20, B from 30 (moved)
    C = (1.0, -1.0, 0.8)
    mem.add([box_obs("keys", C, stamp=40), box_obs("book", (1, 1, 0.5), stamp=40),
             box_obs("plate", (3.0, 0.0, 0.5), stamp=40)])
    mem.commit()
    for i in range(3):  # C viewed without the keys: removed, missing now
        mem.add([], view(50 + i, C, distance_from_eye(C) + 1.0))
        mem.commit()
    assert mem.forget(3, "test")  # the book, seen at 40
    assert mem.forget(4, "test")  # the plate
    states = {o.id: (o.label, o.state) for o in mem.objects()}
    assert states == {1: ("mug", "present"), 2: ("keys", "missing"), 3: ("book", "forgotten"),
                      4: ("plate", "forgotten")}
    assert [(p.t_from, p.t_to) for p in mem.placements(1)] == [(10, 20), (30, None)]
    keys_to = mem.placements(2)[0].t_to
    assert keys_to is not None and 40 < keys_to <= 52
    for t in (5, 10, 11, 20, 25, 30, 39.5, 40, 45, keys_to, 60):
        want = _scene_from_placements(mem, t)
        got = mem.scene_as_of(t)
        assert [(o.id, p) for o, p in got] == [(o.id, p) for o, p in want]
        assert mem.scene_count_as_of(t) == len(want)
        for k, off in ((1, 0), (1, 1), (2, 1), (5, 0)):
            assert mem.scene_as_of(t, k=k, offset=off) == got[off:off + k]
        near = mem.scene_as_of(t, center=(1.0, 0.0, 0.8), radius=1.5)
        assert [(o.id, p.id) for o, p in near] == [
            (o.id, p.id) for o, p in _scene_from_placements(mem, t, (1.0, 0.0, 0.8), 1.5)]
        assert mem.scene_count_as_of(t, center=(1.0, 0.0, 0.8), radius=1.5) == len(near)
    assert [o.id for o, _ in mem.scene_as_of(11)] == [1]
    assert [(o.id, p.center) for o, p in mem.scene_as_of(45)] == [(1, pytest.approx(B)), (2, pytest.approx(C))]
    assert [o.id for o, _ in mem.scene_as_of(60)] == [1]  # the keys left; the book and the plate are forgotten


def mug_back_at_a(m: Memory) -> None:
    """mug_moves_story (A 10..20, B from 30), then B viewed without it (40..42) and the mug back at A (50)."""
    mug_moves_story(m)
    for i in range(3):
        m.add([], view(40 + i, B, DB + 1.0))
        m.commit()
    m.add([box_obs("mug", A, stamp=50)], view(50, A, DA + 0.04))
    m.commit()


def test_current_previous_as_of_answer_from_the_placements_history_lists(mem):
    """current / previous / as_of read only the placements they need (temporal._few_placements); they must be the
    ones the object's whole history gives: the mug at A, B, A again (three placements), then missing."""
    mug_back_at_a(mem)
    pls = mem.temporal("history", label="mug").placements
    assert [(p.t_from, p.t_to, p.current) for p in pls] == [(10, 20, False), (30, 40, False), (50, None, True)]
    assert mem.temporal("current", label="mug").placements == (pls[2],)
    assert mem.temporal("previous", label="mug").placements == (pls[1],)
    for t, want in ((5, ()), (10, (pls[0],)), (19.9, (pls[0],)), (20, ()), (30, (pls[1],)), (45, ()), (60, (pls[2],))):
        assert mem.temporal("as_of", label="mug", t=t).placements == want
    assert "I had not seen it yet" in mem.temporal("as_of", label="mug", t=5).text
    assert "it was not where I last saw it" in mem.temporal("as_of", label="mug", t=45).text
    for i in range(3):  # A viewed without it: missing; current names its last placement
        mem.add([], view(60 + i, A, DA + 1.0))
        mem.commit()
    last = mem.temporal("history", label="mug").placements[-1]
    assert (last.id, last.t_from, last.t_to, last.current) == (pls[2].id, 50, 60, False)
    cur = mem.temporal("current", label="mug")
    assert cur.placements == (last,) and "is missing" in cur.text
    assert mem.temporal("previous", label="mug").placements == (last,)


def test_yes_no_checks_answer_from_the_placement_history_lists(mem):
    """is_present / did_move / is_related read one placement (QueryService.placement_now: the current one, else the
    newest) instead of the object's whole history: it must be the one the history lists, after moves and when
    missing."""
    mug_back_at_a(mem)
    pls = mem.placements(1)
    assert [(p.t_from, p.t_to, p.current) for p in pls] == [(10, 20, False), (30, 40, False), (50, None, True)]
    present = mem.is_present(label="mug")
    assert (present.verdict, present.placements) == (True, (pls[2],))
    assert mem.is_present(label="mug", missing=True).placements == (pls[2],)
    moved = mem.did_move(label="mug", since=51)   # no move after the return to A: "no", with where it is now
    assert (moved.verdict, moved.placements) == (False, (pls[2],))
    assert "it is at (2.00, 0.00, 0.80)" in moved.text
    for i in range(3):  # A viewed without it: missing; the checks name its last placement
        mem.add([], view(60 + i, A, DA + 1.0))
        mem.commit()
    last = mem.placements(1)[-1]
    assert (last.id, last.t_from, last.t_to, last.current) == (pls[2].id, 50, 60, False)
    missing = mem.is_present(label="mug", missing=True)
    assert (missing.verdict, missing.placements) == (True, (last,))
    moved = mem.did_move(label="mug", since=55)
    assert (moved.verdict, moved.placements) == (False, (last,))
    assert "it is missing: last seen at (2.00, 0.00, 0.80)" in moved.text


def test_an_answer_about_several_objects_reads_each_ones_placements_as_its_history_lists(mem):
    """current / previous / as_of by label read the placements of all the label's objects in one statement a kind
    (PlacementRows.one_of_each) and the support of each in one (RelationRows.current_supports): each object's part
    of the answer must be what its own placement list gives, and the answer cites the primary object's evidence
    only. A mug moved A -> B -> A, and a second mug at C that never moved."""
    mug_back_at_a(mem)
    c = (0.0, -2.0, 0.8)
    for i in range(3):
        mem.add([box_obs("mug", c, stamp=70 + i)], view(70 + i, c, distance_from_eye(c) + 0.04))
        mem.commit()
    ids = sorted(o.id for o in mem.objects_labelled("mug"))
    assert len(ids) == 2
    hist = {i: mem.placements(i) for i in ids}
    assert sorted(len(h) for h in hist.values()) == [1, 3]
    for op, kw in (("current", {}), ("previous", {}), ("as_of", {"t": 35.0}), ("as_of", {"t": 71.0}),
                   ("as_of", {"t": 5.0})):
        both = mem.temporal(op, label="mug", **kw)
        single = {i: mem.temporal(op, object_id=i, **kw) for i in ids}
        order = [o.id for o in both.objects]
        assert sorted(order) == ids and both.arguments["ambiguous"] == order
        assert both.text == "There are 2 objects matching 'mug': " + " ".join(
            f"[#{i}] {single[i].text}" for i in order)
        assert (both.placements, both.evidence) == (single[order[0]].placements, single[order[0]].evidence)
        for i in ids:
            pls = hist[i]
            if op == "current":
                want = tuple(p for p in pls if p.current)[:1]
            elif op == "previous":
                want = tuple(p for p in pls if not p.current)[-1:]
            else:
                want = tuple(p for p in pls if p.t_from <= kw["t"] and (p.t_to is None or p.t_to > kw["t"]))[:1]
            assert single[i].placements == want
    assert mem.temporal("as_of", label="mug", t=5.0).placements == ()


def test_a_missing_objects_last_removal_is_named_as_all_its_events_name_it(mem):
    """is_present(missing) reads the object's newest removal alone (EventRows.last_of_object_kind) and names it from
    the events after it (EventRows.following): the same event, with the same label, as reading every event of
    the object gives; the mug was removed three times."""
    mug_back_at_a(mem)
    for i in range(3):
        mem.add([], view(60 + i, A, DA + 1.0))
        mem.commit()
    removals = [e for e in mem.changes() if e.kind == "removed"]
    assert len(removals) == 3
    missing = mem.is_present(label="mug", missing=True)
    assert missing.verdict is True and missing.events == (removals[-1],)
    assert set(removals[-1].evidence) <= set(missing.evidence)


def test_events_are_named_from_the_events_after_them_alone():
    """event_names names an event from the relabelled and state-ending events after it only: for random
    histories of one object, naming the events from the k-th on with only the events at or after the k-th gives
    the names all the events give (what EventRows.following, which reads after a key only, relies on)."""
    import random

    from tempomem_ros.core.event_names import event_names

    rng = random.Random(14)
    kinds = ("appeared", "moved", "removed", "reappeared", "relabelled")
    for _ in range(500):
        n = rng.randint(1, 12)
        stamps = sorted(rng.choice((0.0, 1.0, 2.0, 3.0, 5.0, 8.0)) + rng.randint(0, 3) for _ in range(n))
        events = [{"id": i + 1, "stamp": t, "kind": rng.choice(kinds), "object_id": 1,
                   "label": rng.choice(("cup", "mug", "bowl"))} for i, t in enumerate(stamps)]
        events.sort(key=lambda e: (e["stamp"], e["id"]))
        naming = [e for e in events if e["kind"] != "appeared"]
        full = event_names(events, naming, {1: "vase"})
        for k, first in enumerate(events):
            key = (first["stamp"], first["id"])
            tail = [e for e in naming if (e["stamp"], e["id"]) >= key]
            assert event_names(events[k:], tail, {1: "vase"}) == {e["id"]: full[e["id"]] for e in events[k:]}


def test_a_change_is_named_by_the_label_its_state_settled_on(mem):
    """A mug read "cup" at A, missing there, then seen at B (first as a cup, then as a mug until relabelled): the
    move is named "mug" (the views at B settled it), the earlier appearance and removal at A keep "cup"; the
    stored label stays."""
    cup_read_mug_moved(mem, ("cup", "cup", "cup"), A, B)
    got = [(e.kind, e.label, e.published_label, e.stamp) for e in mem.changes()]
    relabel = [g for g in got if g[0] == "relabelled"]
    assert len(relabel) == 1 and relabel[0][1:3] == ("mug", "mug")
    assert [g for g in got if g[0] != "relabelled"] == [("appeared", "cup", "cup", 10), ("removed", "cup", "cup", 20),
                                                          ("moved", "mug", "cup", 30)]
    assert mem.get(1).label == "mug"
    text = mem.ask("what moved", now=40).text
    assert "mug moved" in text and "(first reported as cup)" in text and "cup moved" not in text


def test_a_change_is_named_by_the_next_states_label_when_its_own_place_was_read_so_too(mem):
    """A mug read "cup" three times and "mug" once at A (it stays "cup": the relabel margin), missing there, then
    seen at B as a mug (relabelled): a quarter of A's views (>= identity.label_share) were "mug", so the appearance
    and the removal at A are named "mug" too (seeds 320-329: "flower appeared" for a plant read "flower" 21 times
    and "plant" 6 times where it appeared, and "plant" at its next place). The stored labels stay."""
    cup_read_mug_moved(mem, ("cup", "cup", "cup", "mug"), A, B)
    got = [(e.kind, e.label, e.published_label, e.stamp) for e in mem.changes() if e.kind != "relabelled"]
    assert got == [("appeared", "mug", "cup", 10), ("removed", "mug", "cup", 20), ("moved", "mug", "cup", 30)]
    text = mem.ask("what appeared", now=40).text
    assert "mug appeared" in text and "cup appeared" not in text


def test_the_next_states_label_names_a_past_change_only_with_a_share_of_its_places_views():
    """event_names with the places' labels: the appearance at placement 10 (one "bottle" view in four, a share of
    0.25) takes the label the next state settled on; the one at placement 20 (one in five, under 0.25) keeps its
    own; a state that still holds, a relabelling and an event with no kept view at its place are unchanged."""
    from tempomem_ros.core.event_names import event_names

    def row(i, t, kind, label, oid, before=None, after=None):
        return {"id": i, "stamp": t, "kind": kind, "object_id": oid, "label": label, "before_id": before,
                "after_id": after}
    events = [row(1, 0, "appeared", "vase", 1, after=10), row(2, 10, "moved", "vase", 1, before=10, after=11),
              row(3, 12, "relabelled", "bottle", 1),
              row(4, 0, "appeared", "vase", 2, after=20), row(5, 10, "moved", "vase", 2, before=20, after=21),
              row(6, 12, "relabelled", "bottle", 2),
              row(7, 0, "appeared", "vase", 3, after=30), row(8, 10, "removed", "vase", 3, before=30),
              row(9, 20, "moved", "bottle", 3, before=30, after=31)]
    naming = [e for e in events if e["kind"] != "appeared"]
    places = {10: {"vase": 3, "bottle": 1}, 20: {"vase": 4, "bottle": 1}, 30: {"vase": 2, "bottle": 2}}
    current = {1: "bottle", 2: "bottle", 3: "bottle"}
    names = event_names(events, naming, current, places, 0.25)
    assert names == {1: "bottle", 2: "bottle", 3: "bottle", 4: "vase", 5: "bottle", 6: "bottle",
                     7: "bottle", 8: "bottle", 9: "bottle"}
    # without the places' labels: the rule of test_a_later_state_never_renames_a_past_change
    assert event_names(events, naming, current) == {**names, 1: "vase", 7: "vase", 8: "vase"}
    # no kept view at the places: every event keeps the name the rule without them gives
    assert event_names(events, naming, current, {}, 0.25) == {**names, 1: "vase", 7: "vase", 8: "vase"}


def test_a_later_state_never_renames_a_past_change():
    from tempomem_ros.core.event_names import event_names

    def row(i, t, kind, label, oid=1):
        return {"id": i, "stamp": t, "kind": kind, "object_id": oid, "label": label}
    events = [row(1, 0, "appeared", "vase"), row(2, 5, "relabelled", "vase"), row(3, 10, "removed", "vase"),
              row(4, 20, "moved", "vase"), row(5, 25, "relabelled", "bottle"), row(6, 30, "appeared", "cup", 2)]
    names = event_names(events, [e for e in events if e["kind"] != "appeared"], {1: "bottle", 2: "mug"})
    # the appearance's state ended at the removal (no relabelling between): its own label; the removal's state
    # ended at the move (none between): its own; the move's state holds: the label now; object 2: its label now
    assert names == {1: "vase", 2: "vase", 3: "vase", 4: "bottle", 5: "bottle", 6: "mug"}
    late = event_names([row(1, 0, "appeared", "phone")],
                       [row(7, 3, "relabelled", "remote"), row(8, 9, "moved", "remote")], {1: "tablet"})
    assert late == {1: "remote"}  # relabelled before its state ended: the label then, not the label now


def test_a_change_of_a_pinned_object_is_named_by_its_pinned_label(mem):
    """A label the user pinned is the object's shown label: its changes are named by it, not by what the detector
    says after the pin (review of session 32: 'bowl appeared' for an object shown as 'mug')."""
    for i in range(3):
        mem.add([box_obs("cup", A, stamp=10 + i)], view(10 + i, A, DA + 0.04))
        mem.commit()
    mem.update(1, label="mug")
    for i in range(12):
        mem.add([box_obs("bowl", A, stamp=20 + i)], view(20 + i, A, DA + 0.04))
        mem.commit()
    assert (mem.get(1).label, mem.get(1).pinned_label) == ("mug", "mug")
    appeared = [e for e in mem.changes() if e.kind == "appeared"]
    assert [(e.label, e.published_label) for e in appeared] == [("mug", "cup")]
    assert "bowl" not in mem.ask("what appeared", now=40).text


def test_the_last_event_id_is_where_a_publisher_starting_now_begins(mem):
    """Memory.last_event_id reads the newest shown event's id without reading the events (the scene publisher
    starts there): 0 on an empty store, the id of events(after_id=0)'s last one, and a withdrawn (retracted) event
    is no place to start from."""
    assert mem.last_event_id() == 0
    mug_back_at_a(mem)
    shown = mem.events(after_id=0)
    assert [e.kind for e in shown] == ["appeared", "removed", "moved", "removed", "moved"]
    assert mem.last_event_id() == shown[-1].id
    mem._conn.execute("BEGIN IMMEDIATE")  # a withdrawn event, as a merge leaves one
    mem._conn.execute("UPDATE events SET retracted = 1 WHERE id = ?", (shown[-1].id,))
    mem._conn.execute("COMMIT")
    assert mem.last_event_id() == shown[-2].id == mem.events(after_id=0)[-1].id


def mug_shuttles(m: Memory, trips: int) -> None:
    """The mug moved ``trips`` times between A and B: seen at one place (3 frames), that place seen empty (3
    frames), seen at the other (t = 100 s a trip)."""
    places = ((A, DA), (B, DB))
    for trip in range(trips + 1):
        (here, d_here), t0 = places[trip % 2], 100.0 * trip
        for i in range(3):
            m.add([box_obs("mug", here, stamp=t0 + i)], view(t0 + i, here, d_here + 0.04))
            m.commit()
        if trip < trips:
            for i in range(3):
                m.add([], view(t0 + 50 + i, here, d_here + 1.0))
                m.commit()


def test_placements_page_from_the_newest_with_the_total(mem):
    """placements(k=, offset=): the History service's page of placements (pages counted from the newest as
    history()'s, each oldest first); placement_count() the total; no k and no offset: the whole list."""
    mug_shuttles(mem, 4)
    whole = mem.placements(1)
    ids = [p.id for p in whole]
    assert [o.id for o in mem.objects()] == [1] and mem.placement_count(1) == 5 == len(ids)
    assert [p.t_from for p in whole] == [0.0, 100.0, 200.0, 300.0, 400.0] and [p.current for p in whole] == \
        [False, False, False, False, True]
    assert [p.id for p in mem.placements(1, k=2)] == ids[3:]              # the newest two, oldest first
    assert mem.placements(1, k=2)[-1].current                            # the current place is on the first page
    assert [p.id for p in mem.placements(1, k=2, offset=2)] == ids[1:3]   # the next (older) page
    assert [p.id for p in mem.placements(1, k=2, offset=4)] == ids[:1]    # the oldest page is short
    assert mem.placements(1, k=2, offset=5) == [] and mem.placements(1, k=1, offset=99) == []   # beyond the end
    assert [p.id for p in mem.placements(1, offset=1)] == ids[:4]         # no k: all but the newest
    assert [p.id for p in mem.placements(1, k=5)] == ids == [p.id for p in mem.placements(1, k=1000)]
    assert mem.placements(1, k=2)[0] == whole[3]                          # the same PlacementInfo, field by field
    with pytest.raises(InvalidInputError, match="k"):
        mem.placements(1, k=0)
    with pytest.raises(InvalidInputError, match="offset"):
        mem.placements(1, k=1, offset=-1)
    with pytest.raises(UnknownIdError):
        mem.placement_count(99)
    with pytest.raises(UnknownIdError):
        mem.placements(99, k=1)


@pytest.mark.parametrize("window, words, moves, places, seen", [
    ({"since": 25}, " since 1970-01-01 00:00:25 UTC", 1, 1, 1),
    ({"until": 25}, " up to 1970-01-01 00:00:25 UTC", 0, 1, 3),
    ({"since": 5, "until": 35}, " from 1970-01-01 00:00:05 UTC to 1970-01-01 00:00:35 UTC", 1, 2, 4),
    ({}, "", 1, 2, 4),
])
def test_a_window_is_worded_alike_by_the_checks_and_the_temporal_operators(mem, window, words, moves, places, seen):
    """citations.window_words (stop 57: checks.py and temporal.py each had it): the same words after each verb."""
    mug_moves_story(mem)
    assert mem.temporal("count_moves", label="mug", **window).text == f"The mug moved {moves} time(s){words}."
    assert mem.temporal("history", label="mug", **window).text.startswith(
        f"The mug has been at {places} place(s){words}: ")
    assert mem.did_move(label="mug", **window).text.startswith(
        f"Yes: the mug moved 1 time(s){words}: " if moves else f"No: the mug did not move{words}; ")
    assert mem.was_seen(label="mug", **window).text.startswith(f"Yes: I saw the mug {seen} time(s){words}, ")
