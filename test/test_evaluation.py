"""The evaluation: scoring rules on hand-made cases, and one short generated scene through the real nodes."""

from __future__ import annotations

import json

import pytest

from tempomem_ros.tools.evaluation.report import decision_differences, meets, pooled, questions_pooled, summary
from tempomem_ros.tools.evaluation.score import flicker_events, judge, score_changes, score_map, truth_at

T0 = 1000.0


def gt_object(oid, label, intervals, seen):
    return {"id": oid, "label": label, "kind": "small", "seen_stamps": seen,
            "intervals": [{"t_from": a, "t_to": b, "center": list(c), "bbox_min": [x - 0.05 for x in c],
                           "bbox_max": [x + 0.05 for x in c], "support_object": None, "support": "floor"}
                          for a, b, c in intervals]}


def mem_object(oid, label, c, half=0.05):
    return {"id": oid, "label": label, "center": list(c), "bbox_min": [x - half for x in c],
            "bbox_max": [x + half for x in c]}


def test_truth_at_only_counts_places_that_were_seen():
    mug = gt_object(1, "mug", [(T0, T0 + 50, (0, 0, 0)), (T0 + 50, None, (3, 0, 0))], seen=[T0 + 1, T0 + 60])
    keys = gt_object(2, "keys", [(T0, None, (1, 1, 0))], seen=[T0 + 70])
    known, unknowable = truth_at({"objects": [mug, keys]}, T0 + 55)
    assert [o["id"] for o in known] == []                  # mug's new place not seen yet, keys never seen
    assert [(o["id"], o["earlier"]) for o in unknowable] == [(1, [[0, 0, 0]])]
    known, _ = truth_at({"objects": [mug, keys]}, T0 + 80)
    assert [o["id"] for o in known] == [1, 2]


def test_score_map_counts_matches_duplicates_and_false_objects():
    truth = [{"id": 1, "label": "mug", "center": [0, 0, 0], "bbox_min": [-.05] * 3, "bbox_max": [.05] * 3},
             {"id": 2, "label": "book", "center": [2, 0, 0], "bbox_min": [1.9, -.1, -.1], "bbox_max": [2.1, .1, .1]}]
    memory = [mem_object(10, "mug", (0.03, 0, 0)), mem_object(11, "mug", (0.3, 0, 0)),  # a duplicate mug
              mem_object(12, "cup", (2, 0, 0), half=0.1),                               # wrong label on the book
              mem_object(13, "vase", (9, 9, 9))]                                       # nothing there
    s = score_map(truth, [], memory)
    assert (s["label_rule"]["tp"], s["label_rule"]["fp"], s["label_rule"]["fn"]) == (1, 3, 1)
    assert s["duplicates"] == 1 and s["duplicate_rate"] == 0.25
    assert s["iou_rule"]["tp"] == 2            # the mug and the (mislabelled) book overlap their truth
    assert s["label_accuracy"] == 0.5
    assert s["centroid_error_median"] == pytest.approx(0.03)
    assert s["missed"] == ["book"] and s["false"] == ["cup", "vase"]


def test_score_map_ignores_an_old_place_the_memory_could_not_know_was_left():
    unknowable = [{"id": 1, "label": "mug", "center": [3, 0, 0], "earlier": [[0, 0, 0]]}]
    s = score_map([], unknowable, [mem_object(10, "mug", (0.05, 0, 0))])
    assert (s["memory"], s["ignored_unknowable"], s["label_rule"]["fp"]) == (0, 1, 0)


def _events_gt():
    mug = gt_object(1, "mug", [(T0, T0 + 50, (0, 0, 0)), (T0 + 50, None, (3, 0, 0))], seen=[T0, T0 + 100])
    book = gt_object(2, "book", [(T0, None, (5, 0, 0))], seen=[T0, T0 + 100])
    return {"objects": [mug, book], "roles": {"out_of_view": {"object": 2, "visit": 1}},
            "visibility": [{"stayed_put": [2]}, {"stayed_put": [2]}],
            "events": [{"kind": "moved", "object": 1, "label": "mug", "t_world": T0 + 50, "t_observable": T0 + 100,
                        "before": mug["intervals"][0], "after": mug["intervals"][1]}]}


def ev(i, kind, obj, label, stamp, before=None, after=None):
    return {"id": i, "kind": kind, "object_id": obj, "label": label, "stamp": stamp, "recorded_at": stamp + 1,
            "before": before, "after": after}


def test_score_changes_matching_and_exclusions():
    gt = _events_gt()
    events = [ev(1, "appeared", 10, "mug", T0, after=[0, 0, 0]),       # discovery: not a change
              ev(2, "appeared", 11, "book", T0, after=[5, 0, 0]),      # discovery
              ev(3, "removed", 10, "mug", T0 + 95, before=[0, 0, 0]),  # old place empty, then moved: part of it
              ev(4, "moved", 10, "mug", T0 + 100, before=[0, 0, 0], after=[3.1, 0, 0]),
              ev(5, "removed", 11, "book", T0 + 110, before=[5, 0, 0])]  # the book never left: false removal
    s = score_changes(gt, events, T0 + 200)
    assert (s["moved"]["tp"], s["moved"]["fp"], s["moved"]["fn"]) == (1, 0, 0)
    assert (s["appeared"]["tp"], s["appeared"]["fp"], s["appeared"]["fn"]) == (0, 0, 0)
    assert (s["removed"]["tp"], s["removed"]["fp"]) == (0, 1)
    assert s["false_removals"] == 1 and s["false_removals_hard_cases"] == 1 and s["hard_cases"] == 1
    assert s["false_removal_rate"] == 0.5
    assert s["delay_median_s"] == pytest.approx(1.0)


def test_a_move_reported_as_a_new_object_is_a_miss_and_a_false_appearance():
    gt = _events_gt()
    events = [ev(1, "appeared", 10, "mug", T0, after=[0, 0, 0]),
              ev(2, "appeared", 12, "mug", T0 + 100, after=[3, 0, 0])]
    s = score_changes(gt, events, T0 + 200)
    assert (s["moved"]["fn"], s["appeared"]["fp"]) == (1, 1)


def test_judge_tolerances():
    q = {"operator": "current", "gold": [1, 0, 0]}
    assert judge(q, {"understood": True, "placements": [[1.2, 0, 0]]})["correct"]
    assert not judge(q, {"understood": True, "placements": [[1.4, 0, 0]]})["correct"]
    assert not judge(q, {"understood": False})["correct"]
    assert judge({"operator": "previous", "gold": None}, {"understood": True, "placements": []})["correct"]
    assert judge({"operator": "last_seen", "gold": 10.0}, {"understood": True, "time": 11.5})["correct"]
    assert not judge({"operator": "last_seen", "gold": 10.0}, {"understood": True, "time": 12.5})["correct"]
    assert not judge({"operator": "count_moves", "gold": 2}, {"understood": True, "count": 1})["correct"]
    hist = {"operator": "history", "gold": [[0, 0, 0], [3, 0, 0]]}
    assert judge(hist, {"understood": True, "placements": [[0, 0, 0], [3.1, 0, 0]]})["correct"]
    assert not judge(hist, {"understood": True, "placements": [[3, 0, 0]]})["correct"]
    rel = {"operator": "relational", "gold": {"labels": ["mug", "book"], "objects": [1, 2]}}
    j = judge(rel, {"understood": True, "labels": ["mug", "vase"]})
    assert (j["correct"], j["f1"]) == (False, 0.5)
    changes = {"operator": "changes", "gold": [{"kind": "moved", "label": "mug", "object": 1}]}
    got = {"understood": True, "events": [{"kind": "removed", "label": "mug", "object_id": 4},
                                          {"kind": "moved", "label": "mug", "object_id": 4}]}
    assert judge(changes, got)["correct"]  # removed + moved of one object is the move
    # moved, then removed from its new place: both count (seed 242: the bowl's removal after its move was dropped)
    both = {"operator": "changes", "gold": [{"kind": "moved", "label": "mug", "object": 1},
                                            {"kind": "removed", "label": "mug", "object": 1}]}
    moved_then_removed = {"understood": True, "events": [{"kind": "moved", "label": "mug", "object_id": 4},
                                                         {"kind": "removed", "label": "mug", "object_id": 4}]}
    assert judge(both, moved_then_removed)["correct"] and not judge(changes, moved_then_removed)["correct"]
    assert not judge(both, got)["correct"]


def test_a_wrong_set_names_its_extra_and_missing_items():
    """The failure list says which change was extra and which missing, not only how many (multisets, sorted)."""
    q = {"operator": "changes", "gold": [{"kind": "moved", "label": "Glasses", "object": 1},
                                         {"kind": "moved", "label": "mug", "object": 2},
                                         {"kind": "moved", "label": "mug", "object": 3}]}
    a = {"understood": True, "events": [{"kind": "appeared", "label": "glasses", "object_id": 7},
                                        {"kind": "moved", "label": "mug", "object_id": 8},
                                        {"kind": "removed", "label": "mug", "object_id": 9},
                                        {"kind": "moved", "label": "mug", "object_id": 9},
                                        {"kind": "reappeared", "label": "table", "object_id": 5}]}
    d = judge(q, a)["detail"]
    assert (d["tp"], d["fp"], d["fn"]) == (2, 2, 1)
    assert d["extra"] == ["appeared glasses", "reappeared table"] and d["missing"] == ["moved glasses"]
    rel = judge({"operator": "relational", "gold": {"labels": ["mug", "book", "book"], "objects": [1, 2, 3]}},
                {"understood": True, "labels": ["book", "vase", "vase"]})["detail"]
    assert rel["extra"] == ["vase", "vase"] and rel["missing"] == ["book", "mug"]
    right = judge(q, {"understood": True, "events": [{"kind": "moved", "label": lab, "object_id": i}
                                                     for i, lab in enumerate(["mug", "glasses", "mug"])]})
    assert right["correct"] and right["detail"]["extra"] == [] and right["detail"]["missing"] == []


def test_flicker_counts_a_removal_undone_at_the_same_place_within_30_s_and_nothing_else():
    events = [ev(1, "removed", 10, "mug", T0, before=[0, 0, 0]),
              ev(2, "reappeared", 10, "mug", T0 + 5, after=[0.05, 0, 0]),        # the flicker
              ev(3, "removed", 11, "book", T0, before=[5, 0, 0]),
              ev(4, "reappeared", 11, "book", T0 + 45, after=[5, 0, 0]),         # 45 s later: not a flicker
              ev(5, "removed", 12, "cup", T0, before=[1, 1, 0]),
              ev(6, "reappeared", 12, "cup", T0 + 3, after=[3, 1, 0]),           # 2 m away: not the same place
              ev(7, "reappeared", 13, "vase", T0 + 3, after=[2, 2, 0]),          # never removed
              ev(8, "removed", 14, "keys", T0, before=[4, 4, 0]),
              ev(9, "moved", 14, "keys", T0 + 2, before=[4, 4, 0], after=[4, 4.1, 0]),   # a move, not a reappearance
              ev(10, "reappeared", 15, "bowl", T0 + 1, after=[6, 6, 0]),
              ev(11, "removed", 15, "bowl", T0 + 2, before=[6, 6, 0]),           # removed after it reappeared
              ev(12, "removed", 16, "pen", T0 + 100, before=[7, 7, 0]),
              ev(13, "reappeared", 17, "pen", T0 + 101, after=[7, 7, 0])]        # another memory object
    assert flicker_events(events) == [{"label": "mug", "object_id": 10, "removed": T0, "reappeared": T0 + 5}]
    s = score_changes(_events_gt(), events, T0 + 200)
    assert (s["flicker_events"], s["reappeared_events"]) == (1, 6)
    assert s["flicker_list"] == [("mug", T0, T0 + 5)]


def _run(truth_n: int, memory_extra: int, seed: int) -> dict:
    """A scored run: truth_n books in a row, all found, plus memory_extra false vases."""
    truth = [{"id": i, "label": "book", "center": [i, 0, 0], "bbox_min": [i - .1, -.1, -.1],
              "bbox_max": [i + .1, .1, .1]} for i in range(truth_n)]
    memory = [mem_object(100 + i, "book", (i, 0, 0)) for i in range(truth_n)]
    memory += [mem_object(200 + i, "vase", (50 + i, 0, 0)) for i in range(memory_extra)]
    fm = score_map(truth, [], memory)
    ch = score_changes(_events_gt(), [], T0 + 200)
    return {"seed": seed, "mode": "offline", "frames": 1, "questions": 0, "wall_s": 0.0,
            "scores": {"maps": {"1.000": fm}, "final_map": fm, "changes": ch, "questions": {}}}


def test_pooled_figures_come_from_summed_counts_and_are_judged_against_the_targets():
    a, b = _run(2, 1, 1), _run(10, 0, 2)
    assert summary(a)["object_precision"] == pytest.approx(2 / 3) and summary(b)["object_precision"] == 1.0
    p = pooled([a, b])
    assert p["object_precision"] == pytest.approx(12 / 13)          # not the mean of 0.667 and 1.0
    assert p["object_recall"] == 1.0 and p["moved_counts"] == "0/0/2" and p["moved_f1"] == 0.0
    assert meets("object_precision", p["object_precision"]) is False and meets("object_recall", 1.0) is True
    assert meets("flicker_events", 0) is True and meets("flicker_events", 1) is False
    assert meets("q:changes", 0.95) is True and meets("centroid_error_m", 0.01) is None


@pytest.mark.slow
def test_short_no_feature_scene_through_the_nodes_meets_the_floors(tmp_path):
    """One generated scene of the default profile (no feature, as the node defaults send) and the default noise
    (masks that bleed, since stop 51) through replay -> perception_node -> memory_node -> services, scored.

    Seed 1 at 5 Hz, 3 visits (654 frames, ~100 s with generation). The memory of main aaffb6f measured on it
    (then the noise now called plain): object precision 0.472, recall 0.944, duplicates 0.194, false removals 1.22
    per object-visit, 54/97 questions; after the identity and absence work of issue 11, step by step up to
    7452b2d: precision 1.000, duplicates 0, moved F1 0.727, removed F1 1.000, false removals 0, 88/97.
    Stop 51, the default noise (the scene byte for byte main 8ef7706's --noise real): main before stop 49
    (3326aa1, offline) precision 0.944, recall 0.944, duplicates 0, moved F1 0.800, removed F1 1.000, appeared F1
    0.500, false removals 0, no flicker, 89/97; main 8ef7706 (through the nodes) 1.000 on every one of these, 97/97,
    and the same with --noise plain (3326aa1: the same too). The floors are the issue-11 targets, just under
    8ef7706's figures: one false, missed or duplicate object, one wrong move, removal or appearance, one false
    removal or three wrong answers fail CI.
    """
    from tempomem_ros.tools import evaluate

    out = tmp_path / "r.json"
    assert evaluate.main(["--seeds", "1", "--fps", "5", "--visits", "3", "--mode", "nodes", "--workdir", str(tmp_path),
                          "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    (run,) = result["runs"]
    assert (run["profile"], run["fps"], run["mode"]) == ("default", 5.0, "nodes")
    assert (run["noise"], run["noise_preset"], run["noise_overrides"]) == ("default", "default", {})
    assert run["perception_params"] == {"min_mask_pixels": 13} and run["memory_params"] == {}
    assert run["run"]["memory_staged_frames"] == run["frames"] == run["run"]["perception"]["frames_published"]
    s = result["pooled"]
    assert s["object_recall"] >= 0.97 and s["object_precision"] >= 0.97
    assert s["duplicate_rate"] <= 0.01 and s["false_removal_rate"] <= 0.01
    assert s["moved_f1"] >= 0.95 and s["removed_f1"] >= 0.95 and s["appeared_f1"] >= 0.95
    assert s["flicker_events"] == 0
    kinds = [key for key in s if key.startswith("q:")]
    assert len(kinds) >= 8  # current, previous, history, count_moves, last_seen, as_of, changes, on, near, within
    c, n = questions_pooled(result["runs"])
    assert n >= 80 and c / n >= 0.97
    # judged again from the stored snapshot by the same scorer: the same figures, without running the memory
    again = tmp_path / "again.json"
    assert evaluate.main(["--rescore", str(out), "--json", str(again)]) == 0
    assert json.loads(again.read_text())["pooled"] == s


def test_held_out_seeds_are_refused_without_the_flag(tmp_path, capsys):
    from tempomem_ros.tools import evaluate

    assert evaluate.main(["--seeds", "3", "200", "--mode", "offline", "--workdir", str(tmp_path)]) == 2
    assert "held out" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []          # nothing generated, not even the development seed


def test_a_scene_in_the_workdir_is_reused_only_when_generator_seed_and_settings_agree(tmp_path):
    from tempomem_ros.tools import evaluate
    from tempomem_ros.tools.scenegen import SceneConfig
    from tempomem_ros.tools.scenegen.groundtruth import generator_version

    cfg = SceneConfig(fps=5.0)
    d = tmp_path / "seed3-default-5hz"
    (d / "bag").mkdir(parents=True)
    (d / "questions.json").write_text("[]")
    gt = {"generator": generator_version(), "seed": 3, "config": cfg.resolved(3).to_dict()}
    (d / "ground_truth.json").write_text(json.dumps(gt))
    assert evaluate.cached_scene(d, 3, cfg)
    assert not evaluate.cached_scene(d, 4, cfg)                                   # another seed
    assert not evaluate.cached_scene(d, 3, SceneConfig(fps=6.0))                  # other settings
    assert not evaluate.cached_scene(d, 3, SceneConfig(fps=5.0, profile="clip"))
    assert not evaluate.cached_scene(d, 3, SceneConfig(fps=5.0, noise="plain"))     # another noise preset
    assert evaluate.cached_scene(d, 3, SceneConfig(fps=5.0, noise="real"))          # the default's alias: the same
    (d / "ground_truth.json").write_text(json.dumps({**gt, "generator": "0" * 16}))
    assert not evaluate.cached_scene(d, 3, cfg)                                   # another generator


def test_decision_differences_name_each_run_and_field_that_differs():
    """--compare ends with whether the two runs decided alike: per run (seed, profile, mode) the fields of scores,
    question answers and final graph that differ, and runs only one file has; run times never count."""
    def run(seed, snapshot, wall):
        return {"seed": seed, "profile": "default", "mode": "offline", "scores": {"f1": 1.0},
                "questions": [["where is the mug", True]], "snapshot": snapshot, "wall_s": wall}
    a = {"runs": [run(1, {"objects": [1, 2]}, 10.0), run(2, {"objects": [3]}, 11.0)]}
    assert decision_differences(a, {"runs": [run(1, {"objects": [1, 2]}, 99.0), run(2, {"objects": [3]}, 1.0)]}) == []
    b = {"runs": [run(1, {"objects": [1]}, 10.0), run(3, {"objects": []}, 10.0)]}
    assert decision_differences(a, b) == ["seed 1 default offline: snapshot differ",
                                          "seed 2 default offline: only in A", "seed 3 default offline: only in B"]
