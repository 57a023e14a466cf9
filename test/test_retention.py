"""Retention mechanics (core/retention.py and its helpers): codecs, the kept sample, tallies, the saved fold,
objects seen together, misses, audit rows, the record of each pass, settings and the schema migration.

Most tests replay one stream into a keep-all and a thinning memory and compare: thinning must change what is
stored, never what the memory decided.
"""

from __future__ import annotations

import sqlite3 as stdlib_sqlite3

import numpy as np
import pytest
from core_helpers import box_obs, distance_from_eye, span_obs, view

from tempomem_ros.core import InvalidInputError, Memory, MemoryConfig, SchemaError, UnknownIdError
from tempomem_ros.core import featurecodec, retention, sampling, stamplog, tally
from tempomem_ros.core.rows import blob_to_feature
from tempomem_ros.core.store import recovery
from tempomem_ros.core.store.schema import FRAMES_LIVE, SCHEMA_VERSION

A = (2.0, 0.0, 0.8)
OFF = (A[0] + 0.05, A[1], A[2])
SEEN = distance_from_eye(A) + 0.04
EMPTY = distance_from_eye(A) + 1.0
WALL = 2.0e9  # the wall clock of every memory here (2033): no stamp is "in the future" (gates.max_stamp_ahead_s)


def pair(tmp_path, **overrides):
    """A thinning and a keep-all memory with the same configuration otherwise."""
    out = []
    for mode in ("thin", "keep-all"):
        cfg = {k: dict(v) for k, v in overrides.items()}
        cfg.setdefault("retention", {})["mode"] = mode
        out.append(Memory.open(str(tmp_path / f"{mode}.db"), embedding_dim=4, config=cfg, clock=lambda: WALL))
    return out


def feed(mems, frames, commit_every=5):
    for k, (obs, v) in enumerate(frames, 1):
        for m in mems:
            m.add(obs, v)
        if k % commit_every == 0:
            for m in mems:
                m.commit()
    for m in mems:
        m.commit()


# ---------------------------------------------------------------------------------------------- codecs
def test_tally_sequences_round_trip_exactly():
    rng = np.random.default_rng(0)
    stamps = 1768464000.0 + np.cumsum(0.1 + rng.normal(0.0, 0.002, 5000))
    ids = np.cumsum(rng.integers(10, 30, 5000)) + 123456
    assert np.array_equal(tally.decode_stamps(tally.encode_stamps(stamps), 5000), stamps)
    assert np.array_equal(tally.decode_ints(tally.encode_ints(ids), 5000), ids)
    odd = np.array([-5.0, 0.0, -0.0, 1e-300, 3.5, -1e10, 1e300, 100.1])   # any order, any binade, signs
    back = tally.decode_stamps(tally.encode_stamps(odd), len(odd))
    assert back.tobytes() == odd.tobytes()
    big = np.array([2**62, -2**62, 5, -7, 0], dtype=np.int64)
    assert np.array_equal(tally.decode_ints(tally.encode_ints(big), 5), big)
    # what it costs: a 10 Hz camera with 2 ms of jitter, ids of a scene with ~20 instances per frame
    assert len(tally.encode_stamps(stamps)) / 5000 < 3.0 and len(tally.encode_ints(ids)) / 5000 < 1.0


def test_compact_features_decode_close_to_the_original_and_are_told_apart_from_float32():
    rng = np.random.default_rng(1)
    v = rng.standard_normal(512).astype(np.float32)
    v /= np.linalg.norm(v)
    f16, i8 = featurecodec.encode(v, "float16"), featurecodec.encode(v, "int8")
    assert (len(f16), len(i8), len(featurecodec.encode(v, "float32"))) == (5 + 1024, 5 + 4 + 512, 2048)
    assert featurecodec.is_compact(f16) and featurecodec.is_compact(i8)
    assert not featurecodec.is_compact(v.tobytes()) and not featurecodec.is_compact(None)
    assert np.max(np.abs(blob_to_feature(f16) - v)) < 1e-3
    assert np.max(np.abs(blob_to_feature(i8) - v)) <= np.max(np.abs(v)) / 127 / 2 + 1e-7
    assert np.array_equal(blob_to_feature(v.tobytes()), v)
    with pytest.raises(ValueError, match="unknown feature format"):
        featurecodec.encode(v, "float8")


# ---------------------------------------------------------------------------------------------- the sample
def _cands(n, seed=0):
    rng = np.random.default_rng(seed)
    stamps = np.sort(rng.uniform(0.0, 5000.0, n))
    return [sampling.Candidate(i + 1, float(s), ("mug", "cup")[int(rng.random() < 0.05)],
                               (int(rng.integers(8)), int(rng.integers(3))) if rng.random() < 0.9 else None,
                               bool(rng.random() < 0.01)) for i, s in enumerate(stamps)]


def test_the_sample_kept_piece_by_piece_is_the_sample_of_everything():
    """Why thinning in passes loses nothing the sample would keep: dropping is final, so keeping chunk by chunk
    must give what keeping once over all the sightings gives."""
    cands = _cands(3000)
    once = sampling.keep(cands, time_samples=16, recent=5)
    kept: list = []
    for start in range(0, len(cands), 137):
        pool = kept + cands[start:start + 137]
        ids = sampling.keep(pool, time_samples=16, recent=5)
        kept = [c for c in pool if c.id in ids]
    assert {c.id for c in kept} == once
    assert len(once) <= 1 + 5 + 16 + 8 * 3 + 2 + sum(c.protected for c in cands)
    # first, newest five, every cited one, a sighting under each label
    order = sorted(cands, key=lambda c: (c.stamp, c.id))
    assert {order[0].id, *(c.id for c in order[-5:]), *(c.id for c in cands if c.protected)} <= once
    assert {c.label for c in cands if c.id in once} == {"mug", "cup"}
    assert {c.view for c in cands if c.view} == {c.view for c in cands if c.id in once and c.view}


def test_time_bins_spread_the_sample_over_the_stay():
    stamps = np.arange(0.0, 30 * 86400.0, 0.1)[::997]
    ids = np.arange(len(stamps))
    reps = sampling.time_representatives(stamps, ids, 16)
    assert 8 < len(reps) <= 16
    gaps = np.diff(stamps[reps])
    assert gaps.max() <= 2 * gaps.min() + 200.0  # power-of-two bins: evenly spread, one per ~2 days


def test_view_key_sectors_and_bands():
    assert sampling.view_key((1.0, 0.0, 1.0), (0.0, 0.0, 1.0), 8, (1.5, 3.0)) == (4, 0)
    assert sampling.view_key((-2.0, 0.0, 1.0), (0.0, 0.0, 1.0), 8, (1.5, 3.0))[1] == 1
    assert sampling.view_key((0.0, -4.0, 1.0), (0.0, 0.0, 1.0), 8, (1.5, 3.0)) == (2, 2)
    assert sampling.view_key(None, (0.0, 0.0, 0.0), 8, (1.5,)) is None


# ---------------------------------------------------------------------------------------------- in the store
def test_a_long_stay_is_thinned_to_its_sample_and_counted(tmp_path):
    thin, full = pair(tmp_path)
    frames = [([box_obs("mug", A, stamp=0.5 * k)], view(0.5 * k, A, SEEN)) for k in range(600)]  # 300 s at 2 Hz
    feed([thin, full], frames)
    (o,) = thin.objects()
    assert o.n_observations == 600 and thin.objects() == full.objects()
    kept = thin.history(o.id)
    assert 20 < len(kept) < 300 and len(full.history(o.id)) == 600
    assert thin.sighting_counts(o.id) == [{"placement_id": 1, "kept": len(kept), "thinned": 600 - len(kept)}]
    assert all(r.stamp > 299.5 - 60.0 for r in kept[-5:])  # never thinned: the last 60 s
    assert kept[0].stamp == 0.0  # the first sighting is kept
    # was_seen counts every sighting in any span, thinned or not, and names the same latest one
    for lo, hi in ((None, None), (10.0, 20.0), (10.0, 10.0), (12.25, 200.75), (0.0, 0.0), (250.0, None)):
        a, b = thin.was_seen(label="mug", since=lo, until=hi), full.was_seen(label="mug", since=lo, until=hi)
        assert (a.count, a.time, a.verdict, a.text) == (b.count, b.time, b.verdict, b.text)
        assert set(a.evidence) <= {r.id for r in kept}
    # the record of each pass
    passes = [a for a in thin.audit() if a.action == "thin"]
    assert passes and sum(p.detail["sightings"]["dropped"] for p in passes) == 600 - len(kept)
    assert passes[0].detail["why"].startswith("retention")
    assert {int(k) for p in passes for k in p.detail["sightings"]["by_placement"]} == {1}
    # the merge audit rows of settled sightings are gone (their verdicts are in the kept rows and the tally);
    # keep-all keeps all 599
    merges = [a for a in thin.audit() if a.action == "merge"]
    assert merges and all(a.stamp > 299.5 - 60.0 - 30.0 for a in merges)
    assert sum(p.detail["audit_rows_dropped"].get("merge", 0) for p in passes) == 599 - len(merges)
    assert len([a for a in full.audit() if a.action == "merge"]) == 599
    assert [a.action for a in thin.audit() if a.action not in ("merge", "thin")] == ["create"]
    # frames: only those a kept sighting refers to (and the unsettled ones)
    assert thin.retention_stats()["frames"] == len({thin._conn.execute(
        "SELECT frame_id FROM observations WHERE id=?", (r.id,)).fetchone()[0] for r in kept})


def test_a_compacted_frame_keeps_when_and_from_where_and_drops_what_only_fusion_read(tmp_path):
    thin, full = pair(tmp_path)
    eyes = [(0.0, 0.1 * (k % 7), 1.0 + 0.01 * k) for k in range(400)]   # a camera that moves: every pose differs
    frames = [([box_obs("mug", A, stamp=0.5 * k)], view(0.5 * k, A, SEEN, eye=eyes[k])) for k in range(400)]
    feed([thin, full], frames)
    cols = "id, status, pose, fx, fy, cx, cy, width, height, max_range, depth_h, depth_w, has_view"
    lean = {r["id"]: r for r in thin._conn.execute(f"SELECT {cols} FROM frames WHERE status='compacted'")}
    whole = {r["id"]: r for r in full._conn.execute(f"SELECT {cols} FROM frames")}
    assert 10 < len(lean) < 200 and len(whole) == 400
    for fid, r in lean.items():
        pose = np.frombuffer(whole[fid]["pose"], np.float64).reshape(4, 4)
        assert len(r["pose"]) == retention.COMPACT_POSE_BYTES and r["has_view"] == 1
        assert np.array_equal(np.frombuffer(r["pose"], np.float32).reshape(3, 4), pose[:3].astype(np.float32))
        assert np.max(np.abs(retention.camera_position(r["pose"]) - pose[:3, 3])) < 1e-6
        assert [r[c] for c in ("fx", "fy", "cx", "cy", "width", "height", "max_range", "depth_h", "depth_w")] \
            == [None] * 9
    # the frames not yet settled are whole, and either form gives the same camera position
    fused = thin._conn.execute(f"SELECT {cols} FROM frames WHERE status='fused'").fetchall()
    assert fused and all(len(r["pose"]) == 128 and r["fx"] == whole[r["id"]]["fx"] for r in fused)
    blob = whole[1]["pose"]
    assert np.array_equal(retention.camera_position(blob), np.frombuffer(blob, np.float64).reshape(4, 4)[:3, 3])
    assert retention.compact_pose(retention.compact_pose(blob)) == retention.compact_pose(blob)
    assert retention.camera_position(None) is None and retention.compact_pose(None) is None
    # what the memory decided is the same
    assert thin.objects() == full.objects() and thin.events() == full.events()


def test_a_move_rehomed_after_thinning_keeps_each_placements_counts(tmp_path):
    """A mug at A, then (A out of view) 100 s at B, 100 s at C, B seen empty, at last A seen empty: the object at
    B and C is the mug moved twice (Settling._rehome_moves), after its sightings at B were thinned."""
    thin, full = pair(tmp_path)
    b, c = (0.0, 2.0, 0.8), (-2.0, 0.0, 0.8)
    frames = [([box_obs("mug", A, stamp=t)], view(t, A, SEEN)) for t in (0.0, 0.5, 1.0)]
    frames += [([box_obs("mug", b, stamp=600.0 + 0.5 * k)], view(600.0 + 0.5 * k, b, distance_from_eye(b) + 0.04))
               for k in range(200)]
    frames += [([box_obs("mug", c, stamp=900.0 + 0.5 * k)], view(900.0 + 0.5 * k, c, distance_from_eye(c) + 0.04))
               for k in range(200)]
    frames += [([], view(t, b, distance_from_eye(b) + 1.0)) for t in (1010.0, 1010.5, 1011.0, 1012.5)]
    frames += [([], view(1300.0 + 0.5 * k, A, EMPTY)) for k in range(8)]
    feed([thin, full], frames)
    assert [(o.id, o.state, o.n_moves, o.n_observations) for o in thin.objects()][0] == (1, "present", 2, 403)
    assert thin.objects() == full.objects()
    def shown(events):
        return [(e.kind, e.object_id, e.stamp, e.before, e.after) for e in events]

    assert shown(thin.changes()) == shown(full.changes())
    assert [e.kind for e in thin.changes()] == ["appeared", "moved", "moved", "merged"]
    kept = {r.id for r in thin.history(1)}
    assert all(set(e.evidence) <= kept for e in thin.changes() if e.object_id == 1)
    counts = thin.sighting_counts(1)
    assert [c["kept"] + c["thinned"] for c in counts] == [3, 200, 200] and counts[1]["thinned"] > 100
    assert [c["placement_id"] for c in counts] == [c["placement_id"] for c in full.sighting_counts(1)]
    assert thin.sighting_counts(2) == [] and thin.sighting_counts(3) == []   # nothing left behind
    for lo, hi in ((None, None), (600.0, 700.0), (650.25, 950.75), (900.0, None)):
        x, y = thin.was_seen(label="mug", since=lo, until=hi), full.was_seen(label="mug", since=lo, until=hi)
        assert (x.count, x.time, x.text) == (y.count, y.time, y.text)
    h, g = thin.temporal("history", label="mug"), full.temporal("history", label="mug")
    assert [(p.t_from, p.t_to, p.center) for p in h.placements] == [(p.t_from, p.t_to, p.center) for p in g.placements]


def test_compacted_frames_leave_the_status_index_and_the_live_queries_still_read_it(tmp_path):
    thin, full = pair(tmp_path)
    feed([thin, full], [([box_obs("mug", A, stamp=0.5 * k)], view(0.5 * k, A, SEEN)) for k in range(400)])
    counts = thin.frame_counts()
    assert counts["compacted"] > 10 and counts["fused"] > 100
    # the index holds the frames not compacted, and only those (schema version 7)
    entries = thin._conn.execute("SELECT COUNT(*) FROM frames INDEXED BY frames_pending WHERE status <> 'compacted'")
    assert entries.fetchone()[0] == sum(n for status, n in counts.items() if status != "compacted")
    (sql,) = thin._conn.execute("SELECT sql FROM sqlite_master WHERE name='frames_pending'").fetchone()
    assert sql.endswith("WHERE status <> 'compacted'")
    plans = {q: " ".join(str(r[3]) for r in thin._conn.execute("EXPLAIN QUERY PLAN " + q, args)) for q, args in (
        (f"SELECT MAX(stamp) FROM frames WHERE status='fused' AND {FRAMES_LIVE}", ()),
        (f"SELECT COUNT(*) FROM frames WHERE status='pending' AND {FRAMES_LIVE}", ()),
        (f"SELECT id, stamp FROM frames WHERE status='quarantined' AND {FRAMES_LIVE} ORDER BY id", ()),
        (f"SELECT id, stamp, pose FROM frames WHERE status='fused' AND {FRAMES_LIVE} AND stamp <= ? ORDER BY stamp, "
         "id LIMIT 5", (100.0,)))}
    assert all("frames_pending" in plan for plan in plans.values()), plans
    assert thin.pending() == 0 and thin.quarantined() == 0 and thin.frame_counts()["compacted"] == counts["compacted"]
    # keep-all compacts nothing: its index holds every frame
    assert full.frame_counts()["compacted"] == 0 and full._conn.execute(
        "SELECT COUNT(*) FROM frames INDEXED BY frames_pending WHERE status <> 'compacted'").fetchone()[0] == 400


def test_runs_give_back_each_ids_stamp_and_refuse_ids_they_do_not_hold():
    ids = np.array([10, 11, 12, 13, 20, 21, 22, 40])
    stamps = np.array([5.0, 5.0, 5.0, 5.1, 7.0, 7.0, 7.25, 9.0])       # 13 and 22 differ from their frame-mates
    runs = stamplog.Runs.of_observations(ids[::-1], stamps[::-1])       # any order
    assert runs.stamps_of(ids).tobytes() == stamps.tobytes()
    assert runs.stamps_of([12, 40, 20]).tolist() == [5.0, 9.0, 7.0]
    for absent in ([9], [14], [19], [23], [41], [12, 30]):             # before, in the gaps, after: not theirs
        assert runs.stamps_of(absent) is None
    # cut into rows of at most STAMP_ROW_SPAN_S of stamps; the rows read back together are the same runs
    far = stamplog.Runs.of_observations(np.arange(100, 110), 1000.0 + 25.0 * np.arange(10))
    rows = far.rows()
    assert len(rows) == 4 and all(np.nanmax(t) - np.nanmin(t) <= stamplog.STAMP_ROW_SPAN_S for _, t in rows)
    again = stamplog.Runs.concat([stamplog.Runs(a, t) for a, t in reversed(rows)])
    assert again.stamps_of(np.arange(100, 110)).tolist() == (1000.0 + 25.0 * np.arange(10)).tolist()
    assert again.stamps_of([110]) is None
    counts, firsts, lasts = stamplog.decode_parts(stamplog.encode_parts([3, 1], [1.5, -0.0], [2.5, 1e300]))
    assert (counts.tolist(), firsts.tobytes(), lasts.tolist()) == ([3, 1], np.array([1.5, -0.0]).tobytes(),
                                                                   [2.5, 1e300])
    assert stamplog.is_parts(stamplog.encode_parts([1], [0.0], [0.0])) and not stamplog.is_parts(
        tally.encode_stamps(np.array([0.0])))


def test_thinned_stamps_are_shared_by_the_frame_and_counts_stay_exact_at_any_edge(tmp_path):
    thin, full = pair(tmp_path)
    mugs = [(1.0, 0.0, 0.8), (1.6, 0.0, 0.8), (2.2, 0.0, 0.8)]
    rng = np.random.default_rng(4)
    frames = []
    for k in range(400):  # 200 s at 2 Hz, camera jitter; the third mug's detector stamps its own time
        t = 1.0 + 0.5 * k + float(rng.normal(0.0, 0.002))
        obs = [box_obs(lbl, c, stamp=t + (0.013 if i == 2 else 0.0))
               for i, (lbl, c) in enumerate(zip(("mug", "cup", "bowl"), mugs))]
        frames.append((obs, view(t, (1.6, 0.0, 0.8), SEEN)))
    feed([thin, full], frames)
    rows = thin._conn.execute("SELECT kind, n, stamps FROM tallies").fetchall()
    sightings = [r for r in rows if r[0] == "sighting"]
    assert sightings and all(stamplog.is_parts(r[2]) for r in sightings)   # ids and parts only
    assert sum(r[1] for r in rows if r[0] == "stamps") > 0
    # every thinned sighting's stamp comes back bit for bit (observation() says it)
    thinned = [int(r[0]) for r in full._conn.execute("SELECT id FROM observations ORDER BY id")
               if thin._conn.execute("SELECT 1 FROM observations WHERE id=?", (int(r[0]),)).fetchone() is None]
    assert len(thinned) > 600
    for oid in thinned[::37]:
        with pytest.raises(UnknownIdError, match=rf"stamp {full.observation(oid).stamp:.6f}"):
            thin.observation(oid)
    # spans with an edge inside a pass, on a sighting's stamp, one ulp off it
    stamps = sorted(r.stamp for o in full.objects() for r in full.history(o.id))
    edges = [stamps[101], np.nextafter(stamps[101], -np.inf), np.nextafter(stamps[101], np.inf), stamps[377], 33.3]
    for lbl in ("mug", "cup", "bowl"):
        for lo in (None, *edges):
            for hi in (None, stamps[250], np.nextafter(stamps[250], -np.inf), 150.0):
                if lo is not None and hi is not None and lo > hi:
                    continue
                a, b = thin.was_seen(label=lbl, since=lo, until=hi), full.was_seen(label=lbl, since=lo, until=hi)
                assert (a.count, a.time, a.text) == (b.count, b.time, b.text), (lbl, lo, hi)


def test_a_pass_thins_at_most_max_sightings_per_pass_and_a_backlog_ends_where_one_long_pass_would(tmp_path):
    row = [(1.0 + 0.3 * i, 0.0, 0.8) for i in range(10)]   # ten mugs in view: 10 sightings a frame

    def frames(t0, n):
        return [([box_obs("mug", c, stamp=t0 + 0.5 * k) for c in row], view(t0 + 0.5 * k, row[4], SEEN))
                for k in range(n)]

    mems = [Memory.open(str(tmp_path / f"{name}.db"), embedding_dim=4, clock=lambda: WALL,
                        config={"retention": {"max_sightings_per_pass": limit}})
            for name, limit in (("bounded", 25), ("one-pass", 100_000))]
    bounded, whole = mems
    feed(mems, frames(0.0, 200), commit_every=200)   # 100 s staged, one commit: 80 s of it settled at once
    waiting = "SELECT COUNT(*) FROM frames WHERE status='fused' AND stamp <= 99.5 - 60.0"
    # one pass each (the second commit of feed() finds no pass due): 2 frames (20 sightings) against all 80
    assert bounded._conn.execute(waiting).fetchone()[0] == 78 and whole._conn.execute(waiting).fetchone()[0] == 0
    for k in range(60):        # later commits work the backlog off, 2 frames (20 sightings) each
        for m in mems:
            m.add(*frames(100.0 + 0.5 * k, 1)[0])
            m.commit()
    passes = [a for a in bounded.audit() if a.action == "thin"]
    assert len(passes) >= 30   # the backlog's frames, two a pass
    assert all(p.detail["frames"]["last_id"] - p.detail["frames"]["first_id"] + 1 <= 2 for p in passes)
    for m in mems:             # then settle everything: 150 s elsewhere
        feed([m], [([], view(200.0 + k, (0.0, 3.0, 0.5), 3.0)) for k in range(150)], commit_every=1)
    assert bounded.objects() == whole.objects()
    assert len(bounded.objects()) == 10
    a, b = bounded.retention_stats(), whole.retention_stats()
    # every sighting kept or counted in both; which ones a pass keeps depends on where passes cut (the time bins
    # are chosen among the sightings a pass sees), so the samples differ by a few, each bounded
    assert a["observations"] + a["thinned_sightings"] == b["observations"] + b["thinned_sightings"] == 2600
    for o in bounded.objects():
        mine, theirs = [r.stamp for r in bounded.history(o.id)], [r.stamp for r in whole.history(o.id)]
        assert mine[0] == theirs[0] == 0.0 and mine[-5:] == theirs[-5:] == [127.5, 128.0, 128.5, 129.0, 129.5]
        assert len(mine) <= 2 + 5 + 16
        for lo, hi in ((None, None), (10.0, 20.0), (50.25, 120.0), (129.5, None)):
            x, y = bounded.was_seen(label="mug", since=lo, until=hi), whole.was_seen(label="mug", since=lo, until=hi)
            assert (x.count, x.time) == (y.count, y.time)


def test_a_staged_frames_depth_is_kept_apart_until_it_is_fused(tmp_path):
    thin, full = pair(tmp_path)
    for m in (thin, full):
        m.add([box_obs("mug", A, stamp=1.0)], view(1.0, A, SEEN))
    depth_in_row = "SELECT depth IS NOT NULL, depth_h, depth_w FROM frames"
    assert [tuple(r) for r in thin._conn.execute(depth_in_row)] == [(0, 60, 80)]
    assert [len(r[0]) for r in thin._conn.execute("SELECT depth FROM frame_depths")] == [60 * 80 * 4]
    assert [tuple(r) for r in full._conn.execute(depth_in_row)] == [(1, 60, 80)]  # keep-all: as before schema 5
    assert full._conn.execute("SELECT COUNT(*) FROM frame_depths").fetchone()[0] == 0
    for m in (thin, full):
        assert m.commit().views == 1
        assert m._conn.execute("SELECT COUNT(*) FROM frame_depths").fetchone()[0] == 0
        assert m._conn.execute("SELECT COUNT(*) FROM frames WHERE depth IS NOT NULL").fetchone()[0] == 0
    # the views judged absence all the same: the mug seen twice more (confirmed: identity.confirm_observations 3),
    # then its place seen empty: removed
    frames = [([box_obs("mug", A, stamp=t)], view(t, A, SEEN)) for t in (2.0, 2.5)]
    frames += [([], view(t, A, EMPTY)) for t in (30.0, 30.5, 31.0, 31.5, 32.0, 40.0)]
    feed([thin, full], frames, commit_every=1)
    assert [e.kind for e in thin.changes()] == [e.kind for e in full.changes()] == ["appeared", "removed"]


def test_keep_all_keeps_everything(tmp_path):
    _, full = pair(tmp_path)
    feed([full], [([box_obs("mug", A, stamp=0.5 * k)], view(0.5 * k, A, SEEN)) for k in range(400)])
    s = full.retention_stats()
    assert (s["observations"], s["frames"], s["tally_rows"], s["coseen_pairs"], s["fold_states"]) == (400, 400, 0,
                                                                                                      0, 0)


def test_a_twin_joined_after_thinning_has_the_geometry_of_a_full_replay(tmp_path):
    """The join rebuilds the object from its sightings: from the saved fold, since most are thinned."""
    thin, full = pair(tmp_path)
    rng = np.random.default_rng(4)
    frames = []
    for k in range(500):  # 250 s of a mug seen with noise: its fused box and mean drift with every sighting
        c = np.asarray(A) + rng.normal(0.0, 0.004, 3)
        frames.append(([box_obs("mug", c, stamp=0.5 * k, conf=float(rng.uniform(0.6, 0.95)))], view(0.5 * k, A, SEEN)))
    feed([thin, full], frames)
    assert thin.retention_stats()["fold_states"] == 1
    twin = [([box_obs("cup", OFF, stamp=t)], view(t, A, SEEN)) for t in (400.0, 400.5)]
    again = [([box_obs("mug", A, stamp=401.0)], view(401.0, A, SEEN))]
    feed([thin, full], twin, commit_every=2)
    feed([thin, full], again, commit_every=1)
    assert [a.detail for a in full.audit() if a.action == "merge_twin"] == [{"kept": 1, "absorbed": 2}]
    assert thin.objects() == full.objects()  # box, centre, centroid, confidence, count: bit for bit
    assert thin._conn.execute("SELECT feature_weight, weight FROM objects WHERE id=1").fetchone()[:] == \
        full._conn.execute("SELECT feature_weight, weight FROM objects WHERE id=1").fetchone()[:]
    assert not [a for a in thin.audit() if a.action == "rebuild"]  # exact: no approximate rebuild recorded


def test_a_neighbour_holds_sightings_back_only_when_its_label_may_still_join(tmp_path):
    """Never seen in one frame, near each other: two mugs may be one mug fused twice (held back, unthinned); a
    clock on a dresser may not (thinned as any placement). The hold ends when the pair is seen together."""
    dresser_lo, dresser_hi = (1.6, -0.4, 0.0), (2.4, 0.4, 0.8)
    clock = (2.0, 0.0, 0.88)
    mug_b = (A[0] + 0.2, A[1], A[2])  # 20 cm apart: within fusion.candidate_dilation, not one place

    def alternate(first, second, n, t0=0.0):
        return [([first(t0 + 0.5 * k) if k % 2 == 0 else second(t0 + 0.5 * k)], view(t0 + 0.5 * k, A, SEEN))
                for k in range(n)]

    furniture = Memory.open(str(tmp_path / "dresser.db"), embedding_dim=4, clock=lambda: WALL)
    feed([furniture], alternate(lambda t: span_obs("dresser", dresser_lo, dresser_hi, stamp=t),
                                lambda t: box_obs("clock", clock, half=(0.07, 0.03, 0.08), stamp=t), 400))
    assert sorted(o.label for o in furniture.objects()) == ["clock", "dresser"]
    held = "SELECT COUNT(*) FROM observations WHERE (retained & 1) = 0 AND stamp <= ?"
    # settled by the last pass (settle_s 60 + a pass every 30 s): all thinned or kept, none held back
    assert furniture._conn.execute(held, (199.5 - 60.0 - 30.0,)).fetchone()[0] == 0
    assert furniture.retention_stats()["thinned_sightings"] > 200

    mugs = Memory.open(str(tmp_path / "mugs.db"), embedding_dim=4, clock=lambda: WALL)
    feed([mugs], alternate(lambda t: box_obs("mug", A, stamp=t), lambda t: box_obs("mug", mug_b, stamp=t), 400))
    assert [o.label for o in mugs.objects()] == ["mug", "mug"]
    assert mugs._conn.execute(held, (199.5 - 60.0,)).fetchone()[0] == 280   # every settled one: 140 s at 2 Hz
    assert mugs.retention_stats()["thinned_sightings"] == 0
    # seen together once: two mugs, no twins; the next pass thins what was held
    both = [([box_obs("mug", A, stamp=t), box_obs("mug", mug_b, stamp=t)], view(t, A, SEEN)) for t in (200.0, 200.5)]
    feed([mugs], both + [([], view(201.0 + k, (0.0, 3.0, 0.5), 3.0)) for k in range(100)], commit_every=1)
    assert mugs._conn.execute("SELECT COUNT(*) FROM observations WHERE (retained & 1) = 0 AND stamp <= 140.0"
                              ).fetchone()[0] == 0
    assert mugs.retention_stats()["thinned_sightings"] > 200


def test_objects_once_seen_together_are_never_joined_as_twins_after_their_frames_are_thinned(tmp_path):
    """A book lying on a book: detected together for a while, then only the lower one. They stay two objects
    because they were once seen in one frame; with a sample of one sighting per stay (time_samples 1) no kept
    frame holds both, so only the record of the pair (coseen) keeps them apart."""
    book, on_book, half = (1.0, 1.0, 0.5), (1.0, 1.0, 0.535), (0.11, 0.075, 0.02)
    frames = [([box_obs("book", book, half, stamp=0.5 * k)], None) for k in range(200)]        # 0-100 s: alone
    frames += [([box_obs("book", book, half, stamp=100.0 + 0.5 * k), box_obs("book", on_book, half,
                                                                             stamp=100.0 + 0.5 * k)], None)
               for k in range(200)]                                                             # 100-200 s: both
    frames += [([box_obs("book", book, half, stamp=200.0 + 0.5 * k)], None) for k in range(300)]  # 200-350 s
    thin, full = pair(tmp_path, retention={"time_samples": 1, "viewpoint_sectors": 0})
    feed([thin, full], frames)
    assert [(o.state, o.n_observations) for o in full.objects()] == [("present", 700), ("present", 200)]
    assert thin.objects() == full.objects()
    assert [tuple(r) for r in thin._conn.execute("SELECT a, b FROM coseen")] == [(1, 2)]
    both = thin._conn.execute("SELECT COUNT(*) FROM observations x JOIN observations y ON y.frame_id = x.frame_id "
                              "WHERE x.object_id = 1 AND y.object_id = 2").fetchone()[0]
    assert both == 0


def test_misses_a_later_sighting_cancelled_are_counted_those_that_removed_kept(tmp_path):
    thin, full = pair(tmp_path)
    frames = []
    for k in range(400):  # 200 s, the view sees it there all the time: in every 6 s it is detected for 1 s, then
        t = 0.5 * k       # not for 4 s (misses from 3 s after the last sighting on: two per 6 s), then again
        frames.append(([] if 3 <= k % 12 <= 10 else [box_obs("mug", A, stamp=t)], view(t, A, SEEN)))
    for k in range(20):   # then gone: the place seen empty
        t = 300.0 + 0.5 * k
        frames.append(([], view(t, A, EMPTY)))
    frames += [([], view(400.0 + k, (0.0, 3.0, 0.5), 3.0)) for k in range(10)]  # later looks elsewhere
    feed([thin, full], frames)
    assert [e.kind for e in full.changes()] == ["appeared", "removed"]
    assert thin.objects() == full.objects() and strip_ev(thin.changes()) == strip_ev(full.changes())
    s, f = thin.retention_stats(), full.retention_stats()
    assert s["misses"] + s["thinned_misses"] == f["misses"] and s["thinned_misses"] > 50
    removed = full.changes(kinds=["removed"])[0]
    # every frame the removal cites (its first and last misses: frame_fusion.remove) is still there, with its miss
    miss_frames = full._conn.execute("SELECT detail FROM events WHERE kind='removed'").fetchone()[0]
    assert miss_frames == thin._conn.execute("SELECT detail FROM events WHERE kind='removed'").fetchone()[0]
    import json
    for fid in json.loads(miss_frames)["miss_frames"]:
        assert thin._conn.execute("SELECT COUNT(*) FROM misses WHERE frame_id=?", (fid,)).fetchone()[0] == 1
        assert thin._conn.execute("SELECT COUNT(*) FROM frames WHERE id=?", (fid,)).fetchone()[0] == 1
    assert removed.evidence == thin.changes(kinds=["removed"])[0].evidence  # the last five sightings: kept


def test_a_removal_cites_its_first_and_last_misses_and_the_others_are_counted_and_their_frames_go(tmp_path):
    thin, full = pair(tmp_path)
    frames = [([box_obs("mug", A, stamp=0.5 * k)], view(0.5 * k, A, SEEN)) for k in range(40)]   # 20 s seen
    frames += [([], view(30.0 + 0.5 * k, A, EMPTY)) for k in range(6)]   # then its place seen empty
    frames += [([], view(60.0 + k, (0.0, 3.0, 0.5), 3.0)) for k in range(150)]  # looks elsewhere: they settle
    feed([thin, full], frames)
    assert [(e.kind, e.stamp) for e in full.changes()] == [("appeared", 0.0), ("removed", 30.0)]
    assert thin.objects() == full.objects() and thin.changes() == full.changes()
    every = [tuple(r) for r in full._conn.execute("SELECT stamp, frame_id FROM misses ORDER BY stamp, id")]
    assert [t for t, _ in every] == [30.0, 30.5, 31.0, 31.5, 32.0]   # the removal was decided at the fifth
    detail = full._conn.execute("SELECT detail FROM events WHERE kind='removed'").fetchone()[0]
    assert detail == thin._conn.execute("SELECT detail FROM events WHERE kind='removed'").fetchone()[0]
    import json
    assert json.loads(detail) == {"decided_at": 32.0, "miss_frames": [every[0][1], every[-1][1]], "n_miss_frames": 5}
    # thin keeps the two cited misses with their frames; the three others are counted, and their frames go
    assert [tuple(r) for r in thin._conn.execute("SELECT stamp, frame_id FROM misses ORDER BY stamp, id")] \
        == [every[0], every[-1]]
    assert thin.retention_stats()["thinned_misses"] == 3
    for _, fid in every:
        kept = thin._conn.execute("SELECT COUNT(*) FROM frames WHERE id=?", (fid,)).fetchone()[0]
        assert kept == (1 if fid in (every[0][1], every[-1][1]) else 0)
        assert full._conn.execute("SELECT COUNT(*) FROM frames WHERE id=?", (fid,)).fetchone()[0] == 1


def test_misses_kept_until_a_later_sighting_cancels_them_are_then_counted_and_their_frames_go(tmp_path):
    thin, full = pair(tmp_path)
    frames = [([box_obs("mug", A, stamp=0.5 * k)], view(0.5 * k, A, SEEN)) for k in range(40)]   # 20 s seen
    frames += [([], view(24.0 + 0.5 * k, A, SEEN)) for k in range(2)]   # two misses (a look of their own, more
    # than absence.look_gap_s after the last sighting): too few to remove it
    frames += [([], view(30.0 + k, (0.0, 3.0, 0.5), 3.0)) for k in range(150)]  # 150 s elsewhere: they settle
    feed([thin, full], frames)
    miss_frames = [r[0] for r in thin._conn.execute("SELECT frame_id FROM misses ORDER BY id")]
    assert len(miss_frames) == 2   # after the mug's last sighting when their frames settled: kept then
    frames = [([box_obs("mug", A, stamp=200.0 + 0.5 * k)], view(200.0 + 0.5 * k, A, SEEN)) for k in range(10)]
    frames += [([], view(210.0 + k, (0.0, 3.0, 0.5), 3.0)) for k in range(150)]  # settle the new sightings too
    feed([thin, full], frames)
    assert [e.kind for e in full.changes()] == ["appeared"]
    assert thin.objects() == full.objects() and strip_ev(thin.changes()) == strip_ev(full.changes())
    # the sighting at 200 s cancelled them: counted in a tally of the mug's placement, deleted, frames gone
    assert thin._conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0] == 0
    assert full._conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0] == 2
    assert thin.retention_stats()["thinned_misses"] == 2
    marks = ",".join("?" * len(miss_frames))
    assert thin._conn.execute(f"SELECT COUNT(*) FROM frames WHERE id IN ({marks})", miss_frames).fetchone()[0] == 0


def test_a_dismissed_glimpse_keeps_its_first_and_last_misses(tmp_path):
    thin, full = pair(tmp_path)
    frames = [([box_obs("cup", A, stamp=0.0)], view(0.0, A, SEEN))]   # one glimpse: tentative, never confirmed
    frames += [([], view(0.1 * k, A, EMPTY)) for k in range(1, 31)]   # 3 s of its place seen empty at 10 Hz
    frames += [([], view(10.0 + k, (0.0, 3.0, 0.5), 3.0)) for k in range(150)]
    feed([thin, full], frames)
    assert [tuple(r) for r in full._conn.execute("SELECT closed_reason FROM placements")] == [("dismissed",)]
    assert thin.objects() == full.objects() and thin.changes() == full.changes() == []
    everyone = [r[0] for r in full._conn.execute("SELECT stamp FROM misses ORDER BY stamp, id")]
    assert len(everyone) > 2
    kept = [r[0] for r in thin._conn.execute("SELECT stamp FROM misses ORDER BY stamp, id")]
    assert kept == [everyone[0], everyone[-1]]
    assert thin.retention_stats()["thinned_misses"] == len(everyone) - len(kept)


def strip_ev(events):
    import dataclasses
    return [dataclasses.replace(e, evidence=()) for e in events]


def test_repeated_rejections_are_thinned_per_key_and_counted(tmp_path):
    thin, full = pair(tmp_path, rejection={"promote_count": 100000})  # never promoted: rejected 300 times
    frames = [([box_obs("ghost", (3.0, 3.0, 0.4), stamp=0.5 * k, conf=0.1)], None) for k in range(300)]
    feed([thin, full], frames)
    s = thin.retention_stats()
    assert s["thinned_rejecteds"] >= 100 and s["observations"] + s["thinned_rejecteds"] == 300
    assert thin._conn.execute("SELECT COUNT(*) FROM observations WHERE retained & 1").fetchone()[0] <= 1 + 5 + 16
    key = thin._conn.execute("SELECT group_key FROM tallies WHERE kind='rejected'").fetchone()[0]
    assert key == "low_confidence|ghost|10|10|1"
    assert thin._conn.execute("SELECT * FROM rejected").fetchall()[0][:] == \
        full._conn.execute("SELECT * FROM rejected").fetchall()[0][:]
    assert len(thin.observations("rejected")) == s["observations"]


def test_kept_features_are_compacted_in_the_configured_format(tmp_path):
    frames = [([box_obs("mug", A, stamp=0.5 * k, feature=[1.0, 0.2, 0.1, 0.05])], view(0.5 * k, A, SEEN))
              for k in range(300)]
    sizes = {}
    for fmt in ("float32", "float16", "int8"):
        with Memory.open(str(tmp_path / f"{fmt}.db"), embedding_dim=4,
                         config={"retention": {"observation_features": fmt}}) as m:
            feed([m], frames)
            sizes[fmt] = {len(r[0]) for r in m._conn.execute("SELECT feature FROM observations WHERE retained & 1")}
            assert len(m._conn.execute("SELECT feature FROM objects").fetchone()[0]) == 16  # float32 at the object
            unsettled = {len(r[0]) for r in m._conn.execute("SELECT feature FROM observations WHERE retained = 0")}
            assert unsettled == {16}
    assert sizes == {"float32": {16}, "float16": {13}, "int8": {13}}


def test_retention_settings_are_validated():
    assert MemoryConfig().retention.mode == "thin"
    for bad, match in (({"mode": "some"}, "retention.mode"), ({"settle_s": 0.0}, "settle_s"),
                       ({"recent_per_placement": 3}, "recent_per_placement"), ({"time_samples": 0}, "time_samples"),
                       ({"range_bands": [3.0, 1.0]}, "range_bands"), ({"observation_features": "f8"}, "features"),
                       ({"nope": 1}, "unknown configuration key")):
        with pytest.raises(InvalidInputError, match=match):
            MemoryConfig.from_dict({"retention": bad})


# what schema version 5 (retention) adds, dropped to make a store of an earlier version
BEFORE_5 = ("DROP TABLE tallies", "DROP TABLE fold_state", "DROP TABLE coseen", "DROP TABLE frame_depths",
            "DROP INDEX misses_frame", "ALTER TABLE observations DROP COLUMN retained")


def _older_store(path, version: int) -> None:
    with Memory.open(path, embedding_dim=4, config={"retention": {"mode": "keep-all"}}, clock=lambda: WALL) as m:
        feed([m], [([box_obs("mug", A, stamp=0.5 * k)], view(0.5 * k, A, SEEN)) for k in range(300)])
    con = stdlib_sqlite3.connect(path)
    for stmt in BEFORE_5 + (("DROP TRIGGER placements_closed_immutable",) if version < 4 else ()) + (
            f"UPDATE meta SET value='{version}' WHERE key='schema_version'",):
        con.execute(stmt)
    con.commit()
    con.close()


@pytest.mark.parametrize("version", [3, 4])
def test_an_older_store_is_read_as_it_is_then_migrated_and_thinned(tmp_path, version):
    path = str(tmp_path / "m.db")
    _older_store(path, version)
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:  # read-only: not migrated, nothing tallied
        assert ro._meta["schema_version"] == str(version)
        assert ro.objects()[0].n_observations == 300 and ro.was_seen(object_id=1, since=0.0, until=200.0).count == 300
        assert ro.sighting_counts(1) == [{"placement_id": 1, "kept": 300, "thinned": 0}]
        assert ro.retention_stats()["thinned_sightings"] == 0
    with Memory.open(path, embedding_dim=4, clock=lambda: WALL) as m:  # thinning by default: backlog worked off
        assert m._meta["schema_version"] == str(SCHEMA_VERSION) == "17"
        tables = {r[0] for r in m._conn.execute("SELECT name FROM sqlite_master")}
        assert {"tallies", "fold_state", "coseen", "frame_depths", "placements_closed_immutable"} <= tables
        m.add([box_obs("mug", A, stamp=400.0)], view(400.0, A, SEEN))
        m.commit()
        s = m.retention_stats()
        assert s["thinned_sightings"] > 250 and s["observations"] + s["thinned_sightings"] == 301
        assert m.objects()[0].n_observations == 301 and m.was_seen(object_id=1, since=0.0, until=500.0).count == 301


def test_a_store_of_version_5_missing_a_retention_table_is_refused(tmp_path):
    path = str(tmp_path / "m.db")
    Memory.open(path, embedding_dim=4).close()
    con = stdlib_sqlite3.connect(path)
    con.execute("DROP TABLE tallies")
    con.commit()
    con.close()
    with pytest.raises(SchemaError, match="lacks table\\(s\\) tallies"):
        Memory.open(path, embedding_dim=4)


def test_recovery_keeps_what_retention_counted(tmp_path):
    thin, _ = pair(tmp_path)
    feed([thin], [([box_obs("mug", A, stamp=0.5 * k)], view(0.5 * k, A, SEEN)) for k in range(600)])
    before = (thin.objects()[0].n_observations, thin.was_seen(object_id=1, since=0.0, until=400.0).count,
              thin.sighting_counts(1))
    stats = thin.retention_stats()
    thin.close()
    assert stats["thinned_sightings"] > 300
    report = recovery.recover(str(tmp_path / "thin.db"), str(tmp_path / "copy.db"))
    assert report.complete and report.integrity == "ok"
    assert report.tables["tallies"].copied == stats["tally_rows"] > 0
    with Memory.open(str(tmp_path / "copy.db"), readonly=True) as copy:
        assert (copy.objects()[0].n_observations, copy.was_seen(object_id=1, since=0.0, until=400.0).count,
                copy.sighting_counts(1)) == before == (600, 600, before[2])
        assert copy.retention_stats()["thinned_sightings"] == stats["thinned_sightings"]


def test_a_refused_frames_staged_depth_goes_with_it(tmp_path):
    thin, _ = pair(tmp_path)
    feed([thin], [([box_obs("mug", A, stamp=1.0 + k)], view(1.0 + k, A, SEEN)) for k in range(3)])
    glitch = thin.stage([box_obs("mug", A, stamp=90000.0)], view(90000.0, A, SEEN))  # a day ahead: quarantined
    assert glitch.status == "quarantined"
    assert [tuple(r) for r in thin._conn.execute("SELECT frame_id FROM frame_depths")] == [(glitch.frame_id,)]
    normal = thin.stage([box_obs("mug", A, stamp=4.0)], view(4.0, A, SEEN))  # the old time goes on: refused
    assert normal.refused == (glitch.frame_id,)
    assert [tuple(r) for r in thin._conn.execute("SELECT frame_id FROM frame_depths")] == [(normal.frame_id,)]
    thin.commit()
    assert thin._conn.execute("SELECT COUNT(*) FROM frame_depths").fetchone()[0] == 0
    assert thin.frame_counts()["refused"] == 1
