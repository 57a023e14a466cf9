"""Nothing is lost or silently rewritten: rejected evidence, tombstones, corrections, decay, audit."""

from __future__ import annotations

import numpy as np
import pytest
from core_helpers import IMMEDIATE, box_obs, unit

from tempomem_ros.core import Memory


class FakeEncoder:
    """Deterministic 'meaning' for a handful of words, enough to test the semantic path without a model."""

    name = "fake"
    dim = 3
    VEC = {"mug": (1, 0, 0), "cup": (0.9, 0.1, 0), "drink": (1, 0, 0), "sofa": (0, 1, 0), "sit": (0, 1, 0),
           "book": (0, 0, 1)}

    def __init__(self):
        self.calls = 0

    def encode(self, texts):
        self.calls += 1
        out = []
        for t in texts:
            v = np.zeros(3)
            for w in t.lower().split():
                v += np.asarray(self.VEC.get(w, (0, 0, 0)), float)
            n = np.linalg.norm(v)
            out.append(v / n if n else v)
        return np.asarray(out, np.float32)


@pytest.fixture
def mem(store):
    with Memory.open(store("m"), embedding_dim=4, clock=lambda: 1000.0, config=IMMEDIATE) as m:
        yield m


def test_rejected_evidence_is_kept_with_reason_candidate_and_audit(mem):
    mem.add([box_obs("mug", (1, 0, 0.5), stamp=1)])
    mem.commit()
    # A low-confidence "bowl" right next to the mug, boxes 1 cm apart: not merged (other label, score below
    # threshold; overlapping the mug's box it would be the mug under a confused label, association.py).
    (oid,) = mem.add([box_obs("bowl", (1.09, 0, 0.5), stamp=2, conf=0.2)])
    mem.commit()
    rec = mem.observation(oid)
    assert (rec.verdict, rec.reason, rec.candidate_id, rec.object_id) == ("rejected", "low_confidence", 1, None)
    assert 0 < rec.score < 0.62
    rows = [a for a in mem.audit() if a.action == "reject"]
    assert len(rows) == 1
    assert rows[0].observation_ids == (oid,) and rows[0].detail["reason"] == "low_confidence"
    assert rows[0].detail["best_candidate"] == 1
    assert [o.label for o in mem.objects()] == ["mug"]


def test_repeated_low_confidence_sightings_promote(mem):
    ids = []
    for i in range(3):  # 0.25 + 0.25 + 0.25 < 0.9: still rejected, recognised as one key
        ids += mem.add([box_obs("remote", (2.0 + 0.01 * i, 1.0, 0.45), stamp=i, conf=0.25)])
    mem.commit()
    assert mem.objects() == []
    recs = [mem.observation(i) for i in ids]
    assert {r.verdict for r in recs} == {"rejected"}
    keys = {row[0] for row in mem._conn.execute("SELECT reject_key FROM observations")}
    assert len(keys) == 1
    (key_row,) = mem._conn.execute("SELECT mass, count FROM rejected").fetchall()
    assert (round(key_row[0], 6), key_row[1]) == (0.75, 3)
    (last,) = mem.add([box_obs("remote", (2.0, 1.0, 0.45), stamp=4, conf=0.25)])
    mem.commit()
    (obj,) = mem.objects()
    assert obj.label == "remote"
    assert (mem.observation(last).verdict, mem.observation(last).reason) == ("created", "promoted")
    promote = [a for a in mem.audit() if a.action == "promote"]
    assert promote[0].observation_ids == tuple(ids + [last])


def test_low_confidence_sightings_elsewhere_do_not_combine(mem):
    for i in range(6):
        mem.add([box_obs("remote", (1.0 * i, 5.0, 0.45), stamp=i, conf=0.25)])
    mem.commit()
    assert mem.objects() == []


def test_forget_tombstones_and_recognises_the_same_sighting(mem):
    mem.add([box_obs("mug", (1, 0, 0.5), stamp=1), box_obs("book", (3, 0, 0.5), stamp=1)])
    mem.commit()
    assert mem.forget(1, "user says it is a reflection") is True
    assert mem.forget(1, "again") is False
    (tomb,) = mem.tombstones()
    assert (tomb["object_id"], tomb["reason"], tomb["kind"], tomb["wall_time"]) == \
        (1, "user says it is a reflection", "forgotten", 1000.0)
    (again,) = mem.add([box_obs("mug", (1.01, 0, 0.5), stamp=5)])
    other = mem.add([box_obs("keys", (1.0, 0.0, 0.5), stamp=5)])  # a different thing at the same place
    mem.commit()
    rec = mem.observation(again)
    assert (rec.verdict, rec.reason, rec.candidate_id) == ("rejected", "forgotten", 1)
    assert mem.observation(other[0]).verdict == "created"
    present = mem.objects(state="present")
    assert [(o.id, o.label) for o in present] == [(2, "book"), (3, "keys")]
    assert [e.kind for e in mem.changes() if e.object_id == 1] == ["appeared", "forgotten"]


def test_ids_are_never_reused(mem):
    mem.add([box_obs("mug", (1, 0, 0.5), stamp=1)])
    mem.commit()
    mem.forget(1, "gone")
    mem.add([box_obs("book", (5, 0, 0.5), stamp=2)])
    mem.commit()
    assert [o.id for o in mem.objects()] == [1, 2]


def test_update_pins_label_keeps_history_and_is_searchable(store):
    enc = FakeEncoder()
    with Memory.open(store("m"), embedding_dim=4, label_encoder=enc, config=IMMEDIATE) as m:
        m.add([box_obs("cup", (1, 0, 0.5), stamp=1, conf=0.8)])
        m.commit()
        m.update(1, label="mug")
        for i in range(5):  # later contrary sightings
            m.add([box_obs("cup", (1, 0, 0.5), stamp=2 + i, conf=0.9)])
        m.commit()
        obj = m.get(1)
        assert obj.label == "mug" and obj.pinned_label == "mug"
        assert obj.label_mass["cup"] == pytest.approx(0.8 + 5 * 0.9)
        (hist,) = m.label_history(1)
        assert (hist["old_label"], hist["new_label"], hist["old_mass"], hist["pinned"]) == \
            ("cup", "mug", {"cup": 0.8}, True)
        assert [h.object.id for h in m.spatial((1, 0, 0.5), 0.1, label="mug")] == [1]
        assert m.spatial((1, 0, 0.5), 0.1, label="cup") == []
        assert m.temporal("current", label="mug").found
        assert [h.object.label for h in m.semantic("the red mug")] == ["mug"]
        assert [e.kind for e in m.changes()] == ["appeared", "relabelled"]
        assert [a.action for a in m.audit()][:3] == ["create", "update", "merge"]


def test_decay_is_idempotent_and_pruning_leaves_a_tombstone(mem):
    mem.add([box_obs("mug", (1, 0, 0.5), stamp=0, conf=0.8), box_obs("book", (3, 0, 0.5), stamp=90, conf=0.8)])
    mem.commit()
    pruned = mem.decay(100.0, half_life_s=10.0, min_confidence=0.01)
    assert pruned == [1]  # 0.8 * 0.5**10 = 0.00078 < 0.01
    first = [(o.id, o.state, round(o.confidence, 9)) for o in mem.objects()]
    assert first == [(1, "forgotten", 0.8), (2, "present", round(0.8 * 0.5, 9))]
    n_audit = len(mem.audit())
    assert mem.decay(100.0, half_life_s=10.0, min_confidence=0.01) == []
    assert [(o.id, o.state, round(o.confidence, 9)) for o in mem.objects()] == first
    assert len(mem.audit()) == n_audit
    (tomb,) = mem.tombstones()
    assert tomb["kind"] == "decayed" and "decayed below 0.01" in tomb["reason"]


def test_every_mutation_appends_an_audit_row(mem):
    mem.add([box_obs("mug", (1, 0, 0.5), stamp=1), box_obs("mug", (1, 0, 0.5), stamp=1)])  # two objects
    mem.add([box_obs("mug", (1, 0, 0.5), stamp=2)])                                         # merge
    mem.add([box_obs("dust", (4, 0, 0.5), stamp=2, conf=0.1)])                             # reject
    mem.commit()
    mem.forget(2, "duplicate")
    mem.update(1, label="coffee mug")
    mem.define_region("kitchen", (0, -1, 0), (2, 1, 2))
    mem.add([box_obs("book", (1.5, 0.5, 0.5), stamp=3), box_obs("book", (1.51, 0.5, 0.5), stamp=3)])
    mem.commit()
    assert mem.consolidate() == [(3, 4)]
    mem.decay(5.0, half_life_s=1.0, min_confidence=0.5)
    actions = [a.action for a in mem.audit()]
    for action in ("create", "merge", "reject", "forget", "update", "define_region", "consolidate", "decay"):
        assert action in actions, action
    for row in mem.audit():
        assert row.wall_time == 1000.0


def test_consolidate_reassigns_observations_and_tombstones(mem):
    mem.add([box_obs("book", (1.5, 0.5, 0.5), stamp=3), box_obs("book", (1.51, 0.5, 0.5), stamp=3)])
    mem.commit()
    assert mem.consolidate() == [(1, 2)]
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "forgotten")]
    assert [h.id for h in mem.history(1)] == [1, 2]
    assert mem.tombstones()[0]["reason"] == "merged into #1"
    assert mem.consolidate() == []


def test_resplit_separates_two_clusters(mem):
    # (small boxes: furniture seen whole no longer stretches over a second place, frame_fusion._would_stretch)
    for i in range(4):
        mem.add([box_obs("book", (1.0, 0, 0.5), half=(0.1, 0.1, 0.05), stamp=i)])
    for i in range(4):
        mem.add([box_obs("book", (1.15, 0, 0.5), half=(0.1, 0.1, 0.05), stamp=10 + i)])
    mem.commit()
    assert len(mem.objects()) == 1  # overlapping boxes 15 cm apart merged everything
    assert mem.resplit(split_distance=0.1) == [(1, 2)]
    objs = mem.objects()
    assert [(o.id, round(o.center[0], 6), o.n_observations) for o in objs] == [(1, 1.0, 4), (2, 1.15, 4)]
    assert [h.stamp for h in mem.history(2)] == [10, 11, 12, 13]
    assert mem.resplit(split_distance=0.1) == []


def test_semantic_label_path_and_keyword(store):
    enc = FakeEncoder()
    with Memory.open(store("m"), embedding_dim=4, label_encoder=enc, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1, 0, 0.5), stamp=1), box_obs("sofa", (3, 0, 0.5), stamp=1),
               box_obs("book", (5, 0, 0.5), stamp=1), box_obs("mug", (7, 0, 0.5), stamp=1)])
        m.commit()
        hits = m.semantic("something to drink from", k=5)
        assert [h.object.id for h in hits] == [1, 4]  # sofa and book score 0 < min_score
        calls = enc.calls
        m.semantic("where can I sit", k=5)
        assert enc.calls == calls + 1  # the labels were cached; only the query was encoded
        assert [h.object.label for h in m.semantic("sit", k=1)] == ["sofa"]


def test_a_reader_sees_labels_another_connection_committed(store):
    """A read-only memory caches the distinct labels until another connection commits (data_version)."""
    enc = FakeEncoder()
    path = store("m")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as writer:
        writer.add([box_obs("sofa", (3, 0, 0.5), stamp=1)])
        writer.commit()
        with Memory.open(path, embedding_dim=4, readonly=True, label_encoder=enc) as reader:
            assert reader.semantic("something to drink from", k=5) == []
            assert [h.object.label for h in reader.semantic("sit", k=5)] == ["sofa"]
            writer.add([box_obs("mug", (1, 0, 0.5), stamp=2)])
            writer.commit()
            assert [h.object.label for h in reader.semantic("something to drink from", k=5)] == ["mug"]
            writer.forget(2, "test")
            assert reader.semantic("something to drink from", k=5) == []


def test_semantic_without_any_encoder_uses_whole_word_keywords(mem):
    mem.add([box_obs("table", (1, 0, 0.5), stamp=1), box_obs("mug", (3, 0, 0.5), stamp=1)])
    mem.commit()
    assert [h.object.label for h in mem.semantic("the blue mug")] == ["mug"]
    assert mem.semantic("something able to hold") == []


def test_clip_path_uses_stored_features(store):
    class Clip(FakeEncoder):
        name = "open_clip:test"
        dim = 4

        def encode(self, texts):
            return np.asarray([unit([1, 0, 0, 0]) if "drink" in t else unit([0, 0, 0, 1]) for t in texts])

    with Memory.open(store("m"), embedding_dim=4, feature_model="open_clip:test",
                     clip_text_encoder=Clip(), config=IMMEDIATE) as m:
        m.add([box_obs("thing", (1, 0, 0.5), stamp=1, feature=unit([1, 0, 0, 0])),
               box_obs("object", (3, 0, 0.5), stamp=1, feature=unit([0, 1, 0, 0]))])
        m.commit()
        assert [h.object.id for h in m.semantic("something to drink from")] == [1]
    with pytest.raises(Exception, match="open_clip:test"):
        with Memory.open(store("m"), embedding_dim=4, feature_model="open_clip:other", config=IMMEDIATE):
            pass


def test_label_embedding_mode_lets_cup_and_mug_partially_agree(store):
    enc = FakeEncoder()  # cos(mug, cup) = 0.994
    stream = [box_obs("mug", (1, 0, 0.5), stamp=1), box_obs("cup", (1.07, 0, 0.5), stamp=2)]
    exact = Memory.open(store("exact"), embedding_dim=4, label_encoder=enc, config=IMMEDIATE)
    emb = Memory.open(store("emb"), embedding_dim=4, label_encoder=enc,
                      config={"fusion": {"label_mode": "embedding"}})
    for m in (exact, emb):
        for o in stream:
            m.add([o])
        m.commit()
    # 7 cm apart (not the same place: neither box holds the other's centre), other label: the exact rule
    # scores below 0.62 (two objects) ...
    assert [o.label for o in exact.objects()] == ["mug", "cup"]
    # ... while label similarity lifts the label term and the sightings fuse into one object (equal label
    # mass 0.9 each: the shown label stays the first one, fusion.relabel_margin).
    assert [(o.label, o.n_observations) for o in emb.objects()] == [("mug", 2)]
    s_exact = exact.observations()[1].score
    s_emb = emb.observations()[1].score
    assert s_emb > s_exact
    exact.close()
    emb.close()


@pytest.mark.parametrize("with_labels", [False, True])
def test_vector_index_and_exact_path_give_identical_results(tmp_path, with_labels):
    """sqlite-vec against the exact path (SQLite only: PostgreSQL has the exact path, test_fleet_store.py)."""
    rng = np.random.default_rng(7)
    enc = FakeEncoder() if with_labels else None

    class Clip:
        name = "open_clip:test"
        dim = 16

        def encode(self, texts):
            return np.asarray([unit(np.random.default_rng(len(t)).standard_normal(16)) for t in texts])

    names = ["mug", "cup", "sofa", "book", "thing"]
    obs = [box_obs(names[i % 5], (i * 0.5, 0, 0.5), stamp=1, feature=unit(rng.standard_normal(16)))
           for i in range(400)]
    results = {}
    for mode in ("on", "off"):
        with Memory.open(str(tmp_path / f"{mode}{with_labels}.db"), embedding_dim=16, vector_index=mode,
                         feature_model="open_clip:test", clip_text_encoder=Clip(), label_encoder=enc,
                         config=IMMEDIATE) as m:
            assert m.uses_vector_index is (mode == "on")
            m.add(obs)
            m.commit()
            m.forget(3, "test")  # forgotten objects leave the index too
            out = []
            for q in ("something to drink from", "a place to sit", "anything", "the old book"):
                out.append([(h.object.id, round(h.score, 6)) for h in m.semantic(q, k=12)])
            results[mode] = out
    assert results["on"] == results["off"]
    assert all(len(r) == 12 for r in results["on"])
    assert all(3 not in [i for i, _ in r] for r in results["on"])
