"""Same answers with and without thinning: one household scene replayed into a keep-all and a thinning memory.

Why this test: retention (core/retention.py) deletes most of what a month of frames stores. It may change which
observations an answer cites (only kept ones), and nothing else: every operator must give the same objects,
placements, positions, times, counts, sets and verdicts, and the evidence it cites must be a subset of what is
kept. Two days of the simulated household (tools/household.py: routines, appearances, removals, spurious blobs,
low-confidence and confused detections, 32-d CLIP-like features; identity.feature_threshold 0.65 so that the
CLIP-like features, 0.71 apart for one object seen from two sides, let moves be recognised) thin most sightings;
answers are compared field by field, exactly (no tolerance is needed: thinning touches no fused state).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tempomem_ros.core import Memory, UnknownIdError
from tempomem_ros.semantics.text_encoder import HashingTextEncoder
from tempomem_ros.tools.household import DAY_S, T0, Household, HouseholdConfig

CONFIG = HouseholdConfig(days=2, looks_per_day=10, features=True, dim=32, seed=3, p_confuse=0.05, p_spurious=0.03)
COMMIT_EVERY = 5


class TextTower:
    """A CLIP text tower stand-in: a label's class direction (so semantic search ranks by the stored features)."""

    name = "household-clip-like"

    def __init__(self, clip):
        self.clip = clip

    def encode(self, texts):
        from tempomem_ros.tools.scenegen.features import _direction

        return np.stack([_direction(f"class:{t.split()[-1]}", self.clip.dim) for t in texts]).astype(np.float32)


@pytest.fixture(scope="module")
def memories(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("retention")
    house = Household(CONFIG)
    tower = TextTower(house.clip)
    encoder = HashingTextEncoder()
    mems = {}
    for mode in ("thin", "keep-all"):
        mems[mode] = Memory.open(str(tmp / f"{mode}.db"), embedding_dim=CONFIG.dim, feature_model=tower.name,
                                 config={"retention": {"mode": mode}, "identity": {"feature_threshold": 0.65}},
                                 label_encoder=encoder,
                                 clip_text_encoder=tower, clock=lambda: 2.0e9)  # 2033: after every stamp
    n = 0
    for day in range(CONFIG.days):
        for frame in house.frames(day):
            for m in mems.values():
                m.add(frame.observations, frame.view)
            n += 1
            if n % COMMIT_EVERY == 0:
                for m in mems.values():
                    m.commit()
    for m in mems.values():
        m.commit()
    yield mems["thin"], mems["keep-all"]
    for m in mems.values():
        m.close()


def strip(value):
    """The value with every evidence list emptied (compared separately)."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple (Scored)
        return type(value)(*(strip(v) for v in value))
    if isinstance(value, (list, tuple)):
        return type(value)(strip(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: strip(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if "evidence" in changes:
            changes["evidence"] = ()
        if "evidence_sources" in changes:  # one per evidence id (all '' here)
            changes["evidence_sources"] = ()
        return dataclasses.replace(value, **changes)
    return value


def evidence_of(value) -> set[int]:
    out: set[int] = set()
    if isinstance(value, (list, tuple)):
        for v in value:
            out |= evidence_of(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name == "evidence":
                out |= set(getattr(value, f.name))
            else:
                out |= evidence_of(getattr(value, f.name))
    return out


def test_thinning_happened(memories):
    thin, full = memories
    s, f = thin.retention_stats(), full.retention_stats()
    assert f["tally_rows"] == 0 and f["thinned_sightings"] == 0
    assert s["observations"] < 0.3 * f["observations"]
    assert s["observations"] + s["thinned_sightings"] + s["thinned_rejecteds"] == f["observations"]
    assert s["frames"] < 0.9 * f["frames"] and s["audit"] < 0.5 * f["audit"]
    assert s["misses"] + s["thinned_misses"] == f["misses"]
    assert any(a.action == "thin" for a in thin.audit())
    assert not any(a.action == "thin" for a in full.audit())
    # sighting counts: kept + thinned per placement are keep-all's rows, and add up to the object's count
    # (where keep-all's do: an object joined into another keeps its count while its rows moved)
    exact = 0
    for o in thin.objects():
        counts = {c["placement_id"]: c["kept"] + c["thinned"] for c in thin.sighting_counts(o.id)}
        rows = {c["placement_id"]: c["kept"] for c in full.sighting_counts(o.id)}
        assert counts == rows
        if sum(rows.values()) == o.n_observations:
            exact += 1
            assert sum(counts.values()) == o.n_observations
    assert exact > 0.8 * len(thin.objects())
    # no fused frame keeps its depth (thinning stages it apart, keep-all in the frame row as before)
    for m in (thin, full):
        assert m._conn.execute("SELECT COUNT(*) FROM frames WHERE depth IS NOT NULL").fetchone()[0] == 0
        assert m._conn.execute("SELECT COUNT(*) FROM frame_depths").fetchone()[0] == 0


def test_store_contents_are_identical(memories):
    thin, full = memories
    assert thin.objects() == full.objects()
    for o in full.objects():
        assert thin.placements(o.id) == full.placements(o.id)
        assert strip(thin.events(o.id)) == strip(full.events(o.id))
        assert thin.label_history(o.id) == full.label_history(o.id)
    assert thin.relations() == full.relations()
    assert [{k: v for k, v in t.items() if k != "wall_time"} for t in thin.tombstones()] == \
        [{k: v for k, v in t.items() if k != "wall_time"} for t in full.tombstones()]
    rows = "SELECT * FROM relations ORDER BY id"
    assert [tuple(r) for r in thin._conn.execute(rows)] == [tuple(r) for r in full._conn.execute(rows)]
    held = "SELECT id, kind, object_id, stamp, status, event_id, reason FROM held_events ORDER BY id"
    assert [tuple(r) for r in thin._conn.execute(held)] == [tuple(r) for r in full._conn.execute(held)]
    rejected = "SELECT * FROM rejected ORDER BY key"
    assert [tuple(r) for r in thin._conn.execute(rejected)] == [tuple(r) for r in full._conn.execute(rejected)]
    # the scene had what the test means to cover
    kinds = {e.kind for e in full.changes()}
    assert {"appeared", "moved", "removed"} <= kinds
    assert any(t["kind"] in ("dismissed", "merged") for t in full.tombstones())
    assert full._conn.execute("SELECT COUNT(*) FROM observations WHERE verdict='rejected'").fetchone()[0] > 0


def queries(memory):
    """(name, callable) of every operator, over the scene's labels, objects, anchors and times."""
    now = memory.latest_stamp()
    labels = sorted({o.label for o in memory.objects() if o.state in ("present", "missing")})
    ids = [o.id for o in memory.objects() if o.state in ("present", "missing")][::7]
    times = [T0 + d * DAY_S + h * 3600.0 for d in range(CONFIG.days) for h in (8.5, 10.25, 12.0, 14.75, 15.9)]
    spans = [(None, None), (T0 + 9 * 3600.0, T0 + 13 * 3600.0), (now - 3600.0, None), (T0 + DAY_S, now),
             (None, T0 + 11.5 * 3600.0)]
    out = []
    for lbl in labels:
        for op in ("current", "previous", "history", "count_moves", "count_sightings", "first_seen", "last_seen",
                   "duration"):
            out.append((f"{op} {lbl}", lambda op=op, lbl=lbl: memory.temporal(op, label=lbl)))
        for t in times:
            out.append((f"as_of {lbl} {t}", lambda t=t, lbl=lbl: memory.temporal("as_of", label=lbl, t=t)))
        for lo, hi in spans:
            out.append((f"history {lbl} {lo} {hi}",
                        lambda lo=lo, hi=hi, lbl=lbl: memory.temporal("history", label=lbl, since=lo, until=hi)))
            out.append((f"was_seen {lbl} {lo} {hi}",
                        lambda lo=lo, hi=hi, lbl=lbl: memory.was_seen(label=lbl, since=lo, until=hi)))
            out.append((f"did_move {lbl} {lo} {hi}",
                        lambda lo=lo, hi=hi, lbl=lbl: memory.did_move(label=lbl, since=lo, until=hi)))
        out.append((f"present {lbl}", lambda lbl=lbl: memory.is_present(label=lbl)))
        out.append((f"missing {lbl}", lambda lbl=lbl: memory.is_present(label=lbl, missing=True)))
        out.append((f"where_to_look {lbl}", lambda lbl=lbl: memory.where_to_look(label=lbl)))
    for oid in ids:
        out.append((f"history of #{oid}", lambda oid=oid: memory.temporal("history", object_id=oid)))
        out.append((f"was_seen #{oid}", lambda oid=oid: memory.was_seen(object_id=oid, since=now - DAY_S / 2)))
    for anchor in ("table", "counter", "desk", "sofa", "shelf", "nightstand", "bed", "kitchen table"):
        for rel in ("on", "under", "near", "in"):
            out.append((f"{rel} {anchor}", lambda rel=rel, anchor=anchor: memory.relational(rel, anchor)))
            for t in times[::2]:
                out.append((f"{rel} {anchor} {t}", lambda rel=rel, anchor=anchor, t=t: memory.relational(rel, anchor,
                                                                                                         t=t)))
            out.append((f"{rel} {anchor} before", lambda rel=rel, anchor=anchor: memory.relational_before(rel,
                                                                                                        anchor)))
        out.append((f"mug on {anchor}", lambda anchor=anchor: memory.is_related("on", anchor, label="mug")))
    for lo, hi in spans:
        out.append((f"changes {lo} {hi}", lambda lo=lo, hi=hi: memory.changes(lo, hi)))
        out.append((f"moves {lo} {hi}", lambda lo=lo, hi=hi: memory.changes(lo, hi, kinds=["moved", "removed"])))
    for t in times:
        out.append((f"scene {t}", lambda t=t: memory.scene_as_of(t)))
        out.append((f"scene near {t}", lambda t=t: memory.scene_as_of(t, center=(2.5, 2.5, 0.8), radius=2.0, k=7)))
        out.append((f"scene count {t}", lambda t=t: memory.scene_count_as_of(t)))
    for c in ((2.5, 2.5, 0.9), (7.0, 3.0, 0.5), (7.8, 9.5, 0.8)):
        out.append((f"spatial {c}", lambda c=c: memory.spatial(c, 1.5)))
    for text in ("something to drink from", "a mug", "keys", "laptop", "a book to read"):
        out.append((f"semantic {text}", lambda text=text: memory.semantic(text, k=10)))
    for q in ("where is the mug", "where was the laptop before", "how many times did I see the keys",
              "did you see my wallet today", "what changed in the last 2 hours", "what is on the kitchen table",
              "what was on the desk at 11:00", "what is missing", "how many books are there",
              "where should I look for my phone", "has the remote moved today", "when did you last see the mug",
              "what was on the counter before", "is the laptop on the desk", "where were my keys at 9:30"):
        out.append((f"ask {q}", lambda q=q: memory.ask(q)))
    return out


def test_every_operator_answers_the_same(memories):
    thin, full = memories
    kept = {int(r[0]) for r in thin._conn.execute("SELECT id FROM observations")}
    all_ids = {int(r[0]) for r in full._conn.execute("SELECT id FROM observations")}
    assert len(kept) < len(all_ids)
    compared = cited = 0
    for (name, ask_thin), (_, ask_full) in zip(queries(thin), queries(full)):
        a, b = ask_thin(), ask_full()
        assert strip(a) == strip(b), name
        ev = evidence_of(a)
        assert ev <= kept, name            # cites only what is kept ...
        assert ev <= all_ids, name         # ... which keep-all holds too (the same ids)
        if evidence_of(b):
            assert ev or not (evidence_of(b) & kept) or name.startswith("was_seen"), name
        compared += 1
        cited += bool(ev)
    assert compared > 1000 and cited > 300


def test_thinned_observations_are_explained(memories):
    thin, full = memories
    kept = {int(r[0]) for r in thin._conn.execute("SELECT id FROM observations")}
    dropped = sorted(int(r[0]) for r in full._conn.execute("SELECT id FROM observations WHERE verdict='merged'")
                     if int(r[0]) not in kept)
    assert dropped
    for oid in (dropped[0], dropped[len(dropped) // 2], dropped[-1]):
        rec = full.observation(oid)
        with pytest.raises(UnknownIdError, match=rf"observation {oid} was thinned by retention: a sighting of "
                                                 rf"object #{rec.object_id} at placement #{rec.placement_id}, "
                                                 rf"stamp {rec.stamp:.6f}"):
            thin.observation(oid)
    with pytest.raises(UnknownIdError, match="unknown observation id 99999999"):
        thin.observation(99999999)


def test_the_per_look_label_state_keeps_the_newest_visits_and_counts_the_older_ones(memories):
    # retention folds the visits of the per-look label rule older than an object's newest (schema version 17):
    # label_looks keeps keep-all's newest visit of every object (what a restart reads back: the same decisions, as
    # the answers above show) and the older visits not yet folded; label_look_counts counts the folded ones exactly
    thin, full = memories
    looks = "SELECT object_id, visit_start, sector, label, mass, last FROM label_looks ORDER BY 1, 2, 3, 4"
    kept = [tuple(r) for r in thin._conn.execute(looks)]
    every = [tuple(r) for r in full._conn.execute(looks)]
    newest: dict = {}
    for oid, start, *_ in every:
        newest[oid] = max(newest.get(oid, start), start)
    assert set(kept) <= set(every)
    assert {r for r in every if r[1] == newest[r[0]]} <= set(kept)
    folded = sorted(set(every) - set(kept))
    assert len(kept) < 0.4 * len(every) and all(r[1] < newest[r[0]] for r in folded)  # 154 of 474 kept
    want: dict = {}
    for oid, start, sector, label, mass, last in folded:
        c = want.setdefault((oid, sector, label), [0, 0.0, start, last])
        c[0] += 1
        c[1] += mass
        c[2], c[3] = min(c[2], start), max(c[3], last)
    counts = {(r[0], r[1], r[2]): [r[3], r[4], r[5], r[6]] for r in thin._conn.execute(
        "SELECT object_id, sector, label, visits, mass, first_start, last FROM label_look_counts")}
    assert counts.keys() == want.keys()
    for key, (visits, mass, first, last) in counts.items():
        assert (visits, first, last) == (want[key][0], want[key][2], want[key][3])
        assert mass == pytest.approx(want[key][1])
    assert full._conn.execute("SELECT COUNT(*) FROM label_look_counts").fetchone()[0] == 0
    assert sum(a.detail["label_looks"]["rows_folded"] for a in thin.audit() if "label_looks" in a.detail) == len(folded)


def test_kept_sample_is_bounded_and_spread(memories):
    thin, _ = memories
    cfg = thin.config.retention
    for o in thin.objects():
        for p in thin.placements(o.id):
            rows = thin._conn.execute("SELECT stamp FROM observations WHERE placement_id=? AND (retained & 1) = 1",
                                      (p.id,)).fetchall()
            labels = thin._conn.execute("SELECT COUNT(DISTINCT label) FROM observations WHERE placement_id=?",
                                        (p.id,)).fetchone()[0]
            cited = thin._conn.execute("SELECT COUNT(*) FROM observations WHERE placement_id=? AND (retained & 2)",
                                       (p.id,)).fetchone()[0]
            bound = 1 + cfg.recent_per_placement + cfg.time_samples + labels + cited + \
                cfg.viewpoint_sectors * (len(cfg.range_bands) + 1)
            assert len(rows) <= bound
    # the kept features are compact (float16), the objects' are float32
    blob = thin._conn.execute("SELECT feature FROM observations WHERE retained & 1 AND feature IS NOT NULL"
                              ).fetchone()[0]
    assert len(blob) == 5 + 2 * CONFIG.dim
    obj = thin._conn.execute("SELECT feature FROM objects WHERE feature IS NOT NULL").fetchone()[0]
    assert len(obj) == 4 * CONFIG.dim
    assert math.isfinite(thin.latest_stamp())


def test_a_window_near_the_first_day_reads_the_tallies_up_to_it(memories):
    """was_seen of a first-day window reads the sighting tallies through tallies_object, up to the window's end
    (a day-1 window asked on day 30 walked every later tally through tallies_sighting_last); a window near the
    last day reads them from its start, as before. Either way every object's count of thinned sightings and the
    latest of them are the same, and the answer's count is keep-all's."""
    thin, full = memories
    objects = [int(r[0]) for r in thin._conn.execute(
        "SELECT DISTINCT object_id FROM tallies WHERE kind='sighting' ORDER BY object_id")]
    assert len(objects) > 10
    windows = [(T0 + a * 3600.0, T0 + b * 3600.0) for a, b in ((0, 6), (2, 9), (7, 8), (0, 24))]
    windows += [(T0 + DAY_S + a * 3600.0, T0 + DAY_S + b * 3600.0) for a, b in ((12, 24), (20, 22), (0, 48))]
    found = 0
    for oid in objects:
        row = thin._conn.execute("SELECT first_seen, last_seen FROM objects WHERE id=?", (oid,)).fetchone()
        lived = (float(row[0]), float(row[1]))
        for lo, hi in windows:
            early = thin._retention.tallied_in([oid], lo, hi, (lo - 1.0, hi + 1e6))
            late = thin._retention.tallied_in([oid], lo, hi, (lo - 1e6, hi + 1.0))
            assert early == late == thin._retention.tallied_in([oid], lo, hi), (oid, lo, hi)
            found += early[0] > 0
            if thin._conn.execute("SELECT state FROM objects WHERE id=?", (oid,)).fetchone()[0] == "forgotten":
                continue
            statements: list = []
            thin._conn.set_trace_callback(statements.append)
            try:
                a = thin.was_seen(object_id=oid, since=lo, until=hi)
            finally:
                thin._conn.set_trace_callback(None)
            b = full.was_seen(object_id=oid, since=lo, until=hi)
            assert (a.count, a.time, a.verdict) == (b.count, b.time, b.verdict), (oid, lo, hi)
            tallies = [s for s in statements if "FROM tallies WHERE kind='sighting' AND object_id IN" in s]
            if not tallies:
                continue
            plan = str([r[-1] for r in thin._conn.execute("EXPLAIN QUERY PLAN " + tallies[0])])
            nearer_start = hi - lived[0] < lived[1] - lo
            assert ("tallies_object" in plan) == nearer_start, (oid, lo, hi, lived, plan)
            assert ("tallies_sighting_last" in plan) == (not nearer_start), (oid, lo, hi, lived, plan)
    assert found > 20
