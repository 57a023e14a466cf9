"""Bounded growth without losing answers: settled sightings beyond a bounded sample are counted, not kept.

Why: the memory's cost grew with every frame, not with what changed. 20 static objects re-seen at 10 Hz are
720,000 sightings per robot-hour: 3.29 GB with 512-d features (4,574 bytes each: the row, five indexes, the
per-merge audit row, the frame) and 0.44 GB without (605 bytes each). What a month of answers needs is every
placement, event, tombstone, rejection key, relation and count, and some evidence per placement.

A compaction pass runs inside Memory.commit() (the same transaction: a crash leaves all or nothing of it), at
most every ``retention.compact_every_s`` of stamp time, over the fused frames older than ``retention.settle_s``
behind the newest stamp (the newest frame is the memory's clock and is never touched). Per placement it keeps
the sample core/sampling.py chooses and every sighting an event cites; each other sighting is counted in a
tally of its placement (ids and exact stamps, core/tally.py) and deleted. Rejected sightings are thinned the
same way per rejection key (or per forgotten object); misses that a later sighting of the same placement
cancelled are counted and deleted, also when that sighting came after the miss's frame settled (those after a
placement's last sighting decided or may decide a removal and stay, except the middle ones of a dismissed
glimpse and those of a removal that its event does not cite: _thin_misses); a frame no kept sighting or miss
refers to is deleted; an audit row of action merge or reject whose sightings were all thinned is deleted (it
repeated their verdicts). Each pass writes one audit row 'thin' saying what, how many and why. Kept sightings'
features are stored as ``retention.observation_features`` (core/featurecodec.py); the objects' own features stay
float32.

What keeps the answers the same (test/test_retention_answers.py replays a scene with and without thinning):
- counts: ``n_observations`` is a counter; was_seen counts kept sightings plus tallied stamps in its span;
  a rebuild's count adds the tallies;
- fused geometry after a rebuild: the fold state of each current placement (core/refold.py) is saved as of its
  last thinned sighting, and a rebuild continues from it;
- twins: a pair of objects once detected in one frame is recorded (coseen) before that frame's sightings go;
- evidence: answers cite kept sightings only, a subset of what they cited before.
A coarse depth image is kept only until its frame is fused (Memory.commit): after that no decision reads it.

Space is reused, not only grown: SQLite puts the pages the deletions free on its freelist and later inserts take
them, so a store under thinning grows with what changed and needs no VACUUM.

A service (issue 16): ``Retention`` decides here and reads and writes through its own statements
(store/retention_rows.py: this module has no SQL); it holds no reference to the Memory facade, which exposes
PUBLIC behind the memory's lock and error mapping (memory._exposed) and hands the service to the services that
ask something of it (maintenance.RetentionHooks, the query and temporal services, the settling step).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from . import featurecodec, refold, sampling, stamplog, tally
from .config import MemoryConfig
from .errors import StoreCorruptError
from .labels import labels_agree
from .store import StoreInterface
from .store.object_row import ObjectRow
from .store.retention_rows import CITED, PROCESSED, RetentionRows

PUBLIC = ("sighting_counts", "retention_stats")  # what Memory exposes (memory._exposed)
# PROCESSED and CITED (the bits of observations.retained) are the store's (store/retention_rows.py), named here
# too: bench/long_run_store.py reads them from this module
__all__ = ["AUDIT_SCAN_LIMIT", "CITED", "COMPACT_POSE_BYTES", "PROCESSED", "PUBLIC", "TALLY_DAY_S", "TALLY_ROW_LIMIT",
           "Retention", "ThinReport", "camera_position", "compact_pose", "stored_pose"]
TALLY_ROW_LIMIT = 4096           # sightings per tally row: later ones of the group go to a new row
#: A sighting tally row holds the sightings of one day (floor(stamp / TALLY_DAY_S)): a row that took a
#: placement's sightings for its whole life made "seen in the last 8 h" decode the month (was_seen p95 x1.32-1.74
#: day 30 over day 1 on bench_long_run's kept stores, decoding 60 % of it); now a window decodes only the rows of
#: the days it cuts, and the rows inside it are counted whole (tallied_in).
TALLY_DAY_S = 86400.0
AUDIT_SCAN_LIMIT = 50_000        # audit rows looked at per pass (a backlog is worked off over several)


# A compacted frame keeps what its kept sightings and misses are evidence of: when and from where the camera
# looked. Its intrinsics and depth size (read only to fuse it, frame_fusion._frame_view) become NULL and its 4x4 float64
# pose (128 B) a 3x4 float32 one (48 B: the bottom row is always 0 0 0 1; float32 is 1 mm at 10 km). Why: frames
# were the largest part of a robot-hour under thinning (4.08 of 10.81 MB, bench_long_run quick, 12 min thin/off:
# 383 B a kept frame with its indexes, 192 B of it the row), a third of them kept for their sightings or misses.
COMPACT_POSE_BYTES = 48  # the columns it no longer keeps: store/retention_rows.py, LEAN_FRAME


def compact_pose(blob: bytes | None) -> bytes | None:
    """A frame's pose as a compacted frame keeps it (3x4 float32, row-major); one already compact stays."""
    if blob is None or len(blob) == COMPACT_POSE_BYTES:
        return blob
    return np.frombuffer(blob, dtype=np.float64).reshape(4, 4)[:3].astype(np.float32).tobytes()


def stored_pose(blob: bytes | None) -> np.ndarray | None:
    """A frame's pose as a 4x4 float64 matrix, from either stored form (4x4 float64 or compact 3x4 float32)."""
    if blob is None:
        return None
    full = np.eye(4)
    if len(blob) == COMPACT_POSE_BYTES:
        full[:3] = np.frombuffer(blob, dtype=np.float32).reshape(3, 4)
    else:
        full[:] = np.frombuffer(blob, dtype=np.float64).reshape(4, 4)
    return full


def camera_position(blob: bytes | None) -> np.ndarray | None:
    """The camera's position in the world from a frame's pose, either form (stored_pose)."""
    full = stored_pose(blob)
    return None if full is None else full[:3, 3].copy()


@dataclass
class ThinReport:
    frames_dropped: int = 0
    frames_kept: int = 0
    sightings_dropped: int = 0
    sightings_kept: int = 0
    rejected_dropped: int = 0
    misses_dropped: int = 0
    features_compacted: int = 0
    held: int = 0                                    # settled sightings held back for a possible twin
    audit_dropped: dict = field(default_factory=dict)
    audit_objects: set = field(default_factory=set)  # objects named by the audit rows dropped
    placements: dict = field(default_factory=dict)   # placement id -> sightings counted in its tally
    objects: set = field(default_factory=set)
    looks_folded: int = 0                            # label_looks rows folded into label_look_counts ...
    visits_folded: int = 0                           # ... of this many (object, visit) pairs
    look_objects: set = field(default_factory=set)   # ... of these objects

    def any(self) -> bool:
        return bool(self.frames_dropped or self.sightings_dropped or self.rejected_dropped or self.misses_dropped
                    or self.audit_dropped or self.features_compacted or self.looks_folded)


def _day(stamp) -> int:
    """The day (TALLY_DAY_S) a stamp falls in: sighting tally rows are closed at its end."""
    return math.floor(float(stamp) / TALLY_DAY_S)


def _day_spans(stamps: np.ndarray) -> list[tuple[int, int]]:
    """[begin, end) of the runs of one day in ``stamps`` (in order)."""
    days = np.floor(np.asarray(stamps, dtype=np.float64) / TALLY_DAY_S)
    bounds = [0, *(np.flatnonzero(np.diff(days)) + 1).tolist(), len(days)]
    return list(zip(bounds[:-1], bounds[1:]))


def _key(row) -> tuple[float, int]:
    return (float(row["stamp"]), int(row["id"]))


class Retention:
    """Compaction of settled evidence, and what the rest of the memory asks of it; runs only inside a write
    transaction of the memory (the readers: in or outside one).

    Collaborators, passed explicitly: the store (audit rows, the spatial index, the writer's caches), retention's
    own statements (store/retention_rows.py), the store's reads (an object's row), the settings, the store's meta
    as read at open (its schema version says whether the store was ever thinned), ``now`` (the memory's stamp
    clock), and two questions of the twin rule that fusion and the settling step own: ``known_confusion(a, b)``
    (frame_fusion: the segmenter has been seen to call one label by the other) and ``overlapping_halves(a, b)``
    (settling.py: two object rows' boxes each hold the other's centre within half the larger extent). It holds no
    reference to the Memory facade, which exposes PUBLIC behind the memory's lock and error mapping
    (memory._exposed) and forwards the rest (staging, commit) to it.

    Its API for other services (no leading underscore): split_depth, stage_depth, drop_staged_depths,
    pending_frames, compact_settled (the facade's add and commit); tallied_sightings, fold_start, repointing,
    split (maintenance, through maintenance.RetentionHooks, and the settling step); rehoming, seen_together (the
    settling step); tallied_in (the temporal checks); thinned_observation (the query service)."""

    PUBLIC = PUBLIC

    def __init__(self, store: StoreInterface, rows: RetentionRows, reads, config: MemoryConfig, *, meta: dict,
                 now: Callable[[], float], known_confusion: Callable[[str, str], bool],
                 overlapping_halves: Callable[[object, object], bool]):
        self._store = store
        self._rows = rows
        self._reads = reads
        self.config = config
        self._meta = meta
        self._now = now
        self._known_confusion = known_confusion
        self._overlapping_halves = overlapping_halves
        self._due: float | None = None   # newest stamp at which the next pass may run (None: at the next commit)

    @property
    def _caches(self):
        return self._store.caches

    def _audit(self, stamp, action: str, object_ids, observation_ids, detail: dict | None = None) -> None:
        """Queue an audit row, written with the transaction it belongs to (Store.transaction)."""
        self._store.audit(stamp, action, object_ids, observation_ids, detail, self.config.source)

    # ------------------------------------------------------------------ depth of staged frames
    def split_depth(self, view_cols: tuple) -> tuple[tuple, bytes | None]:
        """(the frame row's view columns, the depth BLOB to stage apart): the depth goes to frame_depths (schema 5,
        why there), except with retention.mode keep-all, which keeps the frame row as before."""
        depth = view_cols[9]
        if depth is None or self.config.retention.mode == "keep-all":
            return view_cols, None
        return (*view_cols[:9], None, *view_cols[10:]), depth

    def stage_depth(self, frame_id: int, depth: bytes | None) -> None:
        if depth is not None:
            self._rows.stage_depth(frame_id, depth)

    def drop_staged_depths(self, frame_ids) -> None:
        """Frames refused from quarantine are never fused: their staged depth goes with the verdict."""
        self._rows.drop_depths(sorted(int(i) for i in frame_ids))

    def pending_frames(self, limit: int | None = None, through: float | None = None) -> list:
        """Staged frames in fusion order (stamp, source, id: RetentionRows.pending_frames), the first ``limit`` of them
        when given (``through``: of those stamped at or before it), each with its depth wherever it is kept."""
        return self.frames_from(self._rows.pending_frames(limit, through))

    @staticmethod
    def frames_from(rows) -> list:
        """RetentionRows.pending_frames' rows as pending_frames returns them (Memory._commit_locked reads them in the
        write lock's round trip: RetentionRows.pending_frames_read)."""
        out = []
        for r in rows:
            frame = dict(r)
            if frame["depth"] is None:
                frame["depth"] = frame.pop("staged_depth")
            out.append(frame)
        return out

    @property
    def _thinned_ever(self) -> bool:
        """Whether the store has the retention tables (schema version 5 on). A store of an earlier version opened
        read-only is read as it is (schema.READ_COMPATIBLE_FROM): it was never thinned, so nothing is tallied."""
        return int(self._meta.get("schema_version", "0")) >= 5

    # ------------------------------------------------------------------ the pass
    def compact_settled(self) -> None:
        """One compaction pass when one is due (called by commit() before its transaction commits)."""
        cfg = self.config.retention
        if cfg.mode == "keep-all":
            return
        newest = self._now()
        if self._due is not None and newest < self._due:
            return
        horizon = newest - cfg.settle_s
        frames = self._rows.settled_frames(horizon, cfg.max_frames_per_pass)
        backlog = len(frames) >= cfg.max_frames_per_pass
        # and at most max_sightings_per_pass sightings (at least one frame). Why: frames alone did not bound a pass
        # over a crowded view. 77 frames of 10,000 objects in view (bench_services --objects 10000) were one pass
        # over 770,000 sightings, a commit of 7.25 s in which the memory node's services waited.
        total = 0
        for k, f in enumerate(frames):
            total += int(f["n_observations"])
            if k and total > cfg.max_sightings_per_pass:
                frames, backlog = frames[:k], True
                break
        self._due = None if backlog else newest + cfg.compact_every_s
        self._protect_cited()
        report = ThinReport()
        if frames:
            self._thin_frames(frames, newest, report, backlog)
        self._thin_audit(report)
        self._thin_looks(horizon, report)
        if report.any():
            # the per-look label rule's older visits, when the pass folded any (_thin_looks)
            looks = {"label_looks": {"rows_folded": report.looks_folded, "visits_folded": report.visits_folded,
                                     "objects": sorted(report.look_objects)}} if report.looks_folded else {}
            # the objects of the dropped audit rows are named, so that a reader following the audit (scene_feed)
            # that had not read those rows yet still refreshes them
            self._audit(newest, "thin", sorted(report.audit_objects), [], {
                "why": "retention: settled sightings beyond the kept sample are counted in tallies, not kept",
                "horizon": horizon, "settle_s": cfg.settle_s,
                "frames": {"dropped": report.frames_dropped, "kept": report.frames_kept,
                           "first_id": int(frames[0]["id"]) if frames else None,
                           "last_id": int(frames[-1]["id"]) if frames else None},
                "sightings": {"dropped": report.sightings_dropped, "kept": report.sightings_kept,
                              "by_placement": {str(k): v for k, v in sorted(report.placements.items())}},
                "objects": sorted(report.objects),
                "rejected_dropped": report.rejected_dropped, "misses_dropped": report.misses_dropped,
                "held_for_twins": report.held,
                "features": {"compacted": report.features_compacted, "format": cfg.observation_features},
                "audit_rows_dropped": dict(sorted(report.audit_dropped.items())), **looks,
            })

    def _thin_looks(self, horizon: float, report: ThinReport) -> None:
        """Fold the per-look label rule's older visits (label_looks rows of a visit older than its object's newest,
        last seen at or before ``horizon``) into label_look_counts: per (object, sector, label) the visits, their
        summed mass, the first visit's start and the last sighting. No decision reads them: look_capped_mass
        continues the newest visit or starts one, and FusionRows.label_look_state reads the newest alone, so a
        restart decides as before (test_core_label_looks_restart.py). Why: label_looks kept a row per visit x sector
        x label for good and grew with every look (docs/RESULTS.md section 6, round 17). A store at schema version
        16 or older has no label_look_counts: nothing is folded until its writer's open migrates it."""
        if int(self._meta.get("schema_version", "0")) < 17:
            return
        rows = self._rows.older_looks(horizon)
        if not rows:
            return
        counts: dict[tuple, list] = {}
        visits: set[tuple] = set()
        for object_id, start, sector, label, mass, last in rows:
            oid, start, last = int(object_id), float(start), float(last)
            visits.add((oid, start))
            c = counts.get((oid, int(sector), label))
            if c is None:
                counts[(oid, int(sector), label)] = [1, float(mass), start, last]
            else:
                c[0] += 1
                c[1] += float(mass)
                c[2] = min(c[2], start)
                c[3] = max(c[3], last)
        self._rows.fold_looks([(*k, *v) for k, v in sorted(counts.items())],
                              [(int(r[0]), float(r[1]), int(r[2]), r[3]) for r in rows])
        report.looks_folded += len(rows)
        report.visits_folded += len(visits)
        report.look_objects.update(oid for oid, _ in visits)

    def _protect_cited(self) -> None:
        """Mark every sighting that an event or held event cites (never thinned); cursors in meta."""
        for table, key in (("events", "retention_events_seen"), ("held_events", "retention_held_seen")):
            cursor = self._rows.meta_int(key)
            rows = self._rows.evidence_after(table, cursor)
            if not rows:
                continue
            cited = sorted({int(i) for r in rows for i in json.loads(r["evidence"] or "[]")})
            self._rows.mark_cited(cited)
            self._rows.set_meta(key, int(rows[-1]["id"]))

    def _thin_frames(self, frames, newest: float, report: ThinReport, backlog: bool = False) -> None:
        horizon = newest - self.config.retention.settle_s
        # sightings of a placement from earlier frames (held back, re-pointed) join its batch up to this pass's last
        # frame, not up to the horizon: a pass bounded in frames and sightings stays bounded (later ones wait for the
        # passes of their frames, in stamp order as the saved fold needs)
        upto = min(horizon, float(frames[-1]["stamp"])) if backlog else horizon
        frame_ids = [int(f["id"]) for f in frames]
        cams = {int(f["id"]): camera_position(f["pose"]) for f in frames}
        poses = {int(f["id"]): f["pose"] for f in frames}
        rows = self._rows.unprocessed_in_frames(frame_ids)
        self._note_coseen(rows)
        runs = self._log_stamps(rows, newest)
        groups: dict[tuple, list] = {}
        for r in rows:
            if r["verdict"] in ("merged", "created") and r["placement_id"] is not None:
                key = ("p", int(r["placement_id"]), "")
            elif r["verdict"] == "rejected":
                key = ("r", r["reason"] or "", r["reject_key"] or f"candidate {r['candidate_id']}")
            else:  # cannot happen after fusion; kept as they are
                key = ("k", int(r["id"]), "")
            groups.setdefault(key, []).append(r)
        held = self._rows.twin_holds()
        for pid, since in list(held.items()):  # held back for a possible twin: their settled sightings wait
            if since is not None:
                groups.setdefault(("p", pid, ""), [])
            elif not self._rows.placement_is_current(pid):
                held.pop(pid)
        kept_frames: set[int] = set()
        orphans: set[int] = set()   # frames of sightings dropped now that were settled in an earlier pass
        drop_ids: list[int] = []
        for key in sorted(groups):
            batch = groups[key]
            if key[0] == "k":
                kept_frames.update(int(r["frame_id"]) for r in batch)
                self._rows.mark_processed([int(r["id"]) for r in batch])
                continue
            if key[0] == "p":
                # with the settled sightings of this placement from earlier frames: held back for a possible twin,
                # or re-pointed here from another object (a twin joined, a move reconciled)
                seen = {int(r["id"]) for r in batch}
                batch = sorted(batch + [r for r in self._rows.unprocessed_of_placement(key[1], upto)
                                        if int(r["id"]) not in seen], key=_key)
                if self._twin_hold(key[1], newest, held):
                    kept_frames.update(int(r["frame_id"]) for r in batch)
                    report.held += len(batch)
                    continue
            kept, dropped = self._thin_group(key, batch, cams, newest, report, runs)
            kept_frames.update(int(r["frame_id"]) for r in kept)
            drop_ids += [int(r["id"]) for r in dropped]
            orphans.update(int(r["frame_id"]) for r in dropped)
        self._rows.save_twin_holds(held)
        self._rows.delete_observations(sorted(drop_ids))
        seen = {(int(r["object_id"]), int(r["placement_id"])) for key, batch in groups.items() if key[0] == "p"
                for r in batch if r["object_id"] is not None}
        miss_frames, freed = self._thin_misses(frame_ids, newest, report, seen)
        kept_frames |= miss_frames
        orphans |= freed
        gone = [fid for fid in frame_ids if fid not in kept_frames]
        self._rows.delete_frames(gone)
        keep = sorted(set(frame_ids) & kept_frames)
        self._rows.compact_frames([(compact_pose(poses[fid]), fid) for fid in keep])
        orphans -= set(frame_ids)
        for fid in sorted(orphans):
            if self._rows.frame_unreferenced(fid):
                self._rows.delete_frame(fid)
                report.frames_dropped += 1
        report.frames_dropped += len(gone)
        report.frames_kept += len(keep)
        # a closed placement is never rebuilt: its saved fold goes (a reappearance opens a new placement)
        self._rows.drop_closed_folds()

    # ------------------------------------------------------------------ possible twins
    def _twin_hold(self, placement_id: int, newest: float, held: dict) -> bool:
        """Whether to hold back this placement's settled sightings: its object (present, tentative, or missing
        and this its last placement) has a possible twin (an object at its place never seen with it, that a
        later sighting may join to it). Why: the join rebuilds the object by replaying both objects' sightings in
        stamp order, which the saved fold can continue only while none of them is thinned or compacted. Held at
        most retention.twin_hold_s; ``held`` (placement -> since, or None once the hold ran out) is updated."""
        found = self._rows.placement_object(placement_id)
        row = None if found is None else found[0]
        latest = row is not None and (found[1] or (
            row.state == "missing" and self._rows.last_placement_id(row.id) == placement_id))
        if not latest or row.state not in ("present", "tentative", "missing"):
            held.pop(placement_id, None)
            return False
        if placement_id in held:
            since = held[placement_id]
            if since is None:
                return False  # held once for as long as allowed
            if newest - since >= self.config.retention.twin_hold_s:
                held[placement_id] = None
                return False
        if self._possible_twin(row):
            held.setdefault(placement_id, newest)
            return True
        held.pop(placement_id, None)
        return False

    def _possible_twin(self, obj: ObjectRow) -> bool:
        """An object near ``obj`` (boxes within fusion.candidate_dilation: a twin join needs them at one place, and
        boxes change with every sighting; present, tentative or missing) never detected with it, whose features
        (when both have one) do not rule out one identity, of which the younger never moved: what a twin join
        needs except its label rule (labels agree, a confusion the memory may yet learn, or sightings that may
        yet interleave), which can become true later and is therefore not asked."""
        from . import fusion

        d = self.config.fusion.candidate_dilation  # boxes change with every merge: near, not only at one place now
        lo = np.array((obj.min_x, obj.min_y, obj.min_z)) - d
        hi = np.array((obj.max_x, obj.max_y, obj.max_z)) + d
        # a missing object may be seen again at its place and then joined: it counts as well
        for cand in self._store.objects_in_box(lo, hi, ("present", "tentative", "missing")):
            if int(cand.id) == int(obj.id):
                continue
            keep, gone = (cand, obj) if int(cand.id) < int(obj.id) else (obj, cand)
            if int(gone.n_moves) > 0:
                continue
            cos = fusion.cosine(fusion_feature(keep), fusion_feature(gone))
            if cos is not None and cos < self.config.identity.feature_threshold:
                continue
            if not self._label_may_join(keep, gone):
                continue
            if not self.seen_together(int(keep.id), int(gone.id)):
                return True
        return False

    def _label_may_join(self, a: ObjectRow, b: ObjectRow) -> bool:
        """The label rule of a twin join (Settling._twins) as it can still come true: labels that agree or are a
        known confusion, or any two labels at one place, which a join takes for a confusion once their sightings
        interleave: boxes whose centres lie within half the larger box on every axis and whose sizes compare
        (no side over twice fusion.same_place_ratio x the other's, 5 cm of slack: boxes change with sightings).
        Why asked now: without it a clock on a dresser, a monitor on a desk, a box on a counter held each other's
        sightings back for the whole hold, and in a patrol those held sightings were most of the store's growth
        (bench/bench_long_run.py: about 400 sightings a minute of 10 Hz, 7 of 9 holds with a neighbour of another
        kind). A confusion between two such labels learned later still joins them, with the geometry of the kept
        sample and the saved fold instead of a full replay (an approximate rebuild, audited)."""
        la, lb = a.pinned_label or a.label, b.pinned_label or b.label
        if labels_agree(la, lb) or self._known_confusion(la, lb):
            return True
        ratio = 2.0 * self.config.fusion.same_place_ratio
        for ea, eb in ((float(a.max_x - a.min_x), float(b.max_x - b.min_x)),
                       (float(a.max_y - a.min_y), float(b.max_y - b.min_y)),
                       (float(a.max_z - a.min_z), float(b.max_z - b.min_z))):
            if max(ea, eb) > ratio * min(ea, eb) + 0.05:
                return False
        return self._overlapping_halves(a, b)

    def seen_together(self, a: int, b: int) -> bool:
        """Whether the two objects were ever detected in one frame: the record of pairs seen in frames thinned since,
        then a kept sighting of each in one frame (store/retention_rows.seen_together_in, which fusion reads too)."""
        return self._rows.seen_together(a, b)

    def _thin_group(self, key: tuple, batch: list, cams: dict, newest: float, report: ThinReport,
                    runs: stamplog.Runs | None = None):
        """Keep the sample of one placement (or rejection group) among its kept and newly settled sightings;
        count the others in its tally. Returns (newly kept rows of the batch, dropped rows)."""
        cfg = self.config.retention
        kind, ident, group = key
        if kind == "p":
            earlier = self._rows.processed_of_placement(ident)
            self._fold_placement(ident, batch, bool(earlier))
        elif group.startswith("candidate "):
            cand = None if group == "candidate None" else int(group.split()[1])
            earlier = self._rows.processed_rejected_of_candidate(cand, ident)
        else:
            earlier = self._rows.processed_rejected_of_key(group, ident)
        sectors = cfg.viewpoint_sectors if kind == "p" else 0
        missing = sorted({int(r["frame_id"]) for r in batch} - set(cams))  # sightings held back in earlier passes
        cams.update((int(i), camera_position(pose)) for i, pose in self._rows.frame_poses(missing))

        def cam_of(r):
            if "pose" in r.keys():
                return camera_position(r["pose"])
            return cams.get(int(r["frame_id"]))

        cands = [sampling.Candidate(int(r["id"]), float(r["stamp"]), r["label"],
                                    sampling.view_key(cam_of(r), (r["cx"], r["cy"], r["cz"]), sectors,
                                                      cfg.range_bands),
                                    bool(r["retained"] & CITED)) for r in (*earlier, *batch)]
        keep_ids = sampling.keep(cands, time_samples=cfg.time_samples, recent=cfg.recent_per_placement)
        kept = [r for r in batch if int(r["id"]) in keep_ids]
        dropped = [r for r in (*earlier, *batch) if int(r["id"]) not in keep_ids]
        fmt = cfg.observation_features
        updates = []
        for r in kept:
            blob = r["feature"]
            if blob is not None and fmt != "float32" and not featurecodec.is_compact(blob):
                blob = featurecodec.encode(np.frombuffer(blob, dtype=np.float32), fmt)
                report.features_compacted += 1
            updates.append((blob, int(r["id"])))
        self._rows.keep_sample(updates)
        if dropped:
            ids = np.array([int(r["id"]) for r in dropped], dtype=np.int64)
            stamps = np.array([float(r["stamp"]) for r in dropped], dtype=np.float64)
            if kind == "p":
                object_id = int(dropped[0]["object_id"])
                self._tally("sighting", object_id, ident, "", ids, stamps, newest, runs)
                report.sightings_dropped += len(dropped)
                report.placements[ident] = report.placements.get(ident, 0) + len(dropped)
                report.objects.add(object_id)
            else:
                objs = {r["object_id"] for r in dropped}
                object_id = objs.pop() if len(objs) == 1 else None
                self._tally("rejected", object_id, None, f"{ident}|{group}", ids, stamps, newest, runs)
                report.rejected_dropped += len(dropped)
        if kind == "p":
            report.sightings_kept += len(kept)
        return kept, dropped

    def _thin_misses(self, frame_ids, newest: float, report: ThinReport, seen=()) -> tuple[set[int], set[int]]:
        """Count and delete the misses that no decision can read any more; returns (the frames of this pass's
        misses kept, the frames of misses of earlier passes dropped now). Such a miss is
        - one that a later sighting of the same placement cancelled (a removal reads only the misses after the
          placement's last sighting). Those of this pass's frames, and those an earlier pass kept because the
          sighting that cancelled them came later, for the placements seen in this pass (``seen``: (object,
          placement) pairs). Why the second kind: a shelf seen in part misses in many frames; when its frame
          settled before the shelf was seen again, the miss stayed for good (12 % of one patrol's frames were kept
          for such misses only, bench/bench_long_run.py);
        - one of a placement closed as ``dismissed`` (a glimpse, never confirmed, whose place was then seen empty)
          other than its first and its last: no event cites them (the dismissal's audit row names the first miss;
          the last says until when the place was seen empty), and at 10 Hz a dismissal took some 20 misses, in
          frames kept for them alone (a spurious blob in 1 % of the frames: 46 dismissals in 12 minutes of
          patrol, bench/bench_long_run.py);
        - one of a placement closed by a published removal whose frame the removal does not cite (it cites the
          first and the last since its stamp): _uncited_removal_misses."""
        horizon = newest - self.config.retention.settle_s
        rows = self._rows.misses_in_frames(frame_ids)
        this_pass = {int(r["id"]) for r in rows}
        pids = sorted({int(r["placement_id"]) for r in rows if r["placement_id"] is not None} | {p for _, p in seen})
        places: dict[int, tuple[float, str | None]] = {}
        places.update((int(i), (float(t), why)) for i, t, why in self._rows.placement_ends(pids))
        for oid, pid in sorted(seen):   # misses kept earlier, cancelled by a sighting of this pass (misses_object)
            t_last = places.get(pid, (float("-inf"), None))[0]
            rows += [r for r in self._rows.misses_before(oid, pid, t_last, horizon) if int(r["id"]) not in this_pass]
        dismissed = sorted({(int(r["object_id"]), int(r["placement_id"])) for r in rows
                            if r["placement_id"] is not None and places.get(int(r["placement_id"]), (0, None))[1]
                            == "dismissed"})
        drop: set[int] = set()
        known = {int(r["id"]) for r in rows}
        for oid, pid in dismissed:
            settled = self._rows.settled_misses(oid, pid, horizon)
            middle = settled[1:-1]
            rows += [r for r in middle if int(r["id"]) not in known]
            known.update(int(r["id"]) for r in middle)
            drop.update(int(r["id"]) for r in middle)
        for oid, pid in self._removed_placements(rows, places):
            uncited = self._uncited_removal_misses(oid, pid, horizon)
            rows += [r for r in uncited if int(r["id"]) not in known]
            known.update(int(r["id"]) for r in uncited)
            drop.update(int(r["id"]) for r in uncited)
        kept_frames: set[int] = set()
        freed: set[int] = set()
        dropped: dict[tuple, list] = {}
        for r in rows:
            pid = r["placement_id"]
            if int(r["id"]) in drop or (pid is not None and float(r["stamp"]) < places.get(
                    int(pid), (float("-inf"), None))[0]):
                dropped.setdefault((int(r["object_id"]), int(pid)), []).append(r)
                if int(r["id"]) not in this_pass:
                    freed.add(int(r["frame_id"]))
            elif int(r["id"]) in this_pass:
                kept_frames.add(int(r["frame_id"]))
        for (oid, pid), group in sorted(dropped.items()):
            ids = np.array([int(r["id"]) for r in group], dtype=np.int64)
            self._tally("miss", oid, pid, "", ids, np.array([float(r["stamp"]) for r in group]), newest)
            self._rows.delete_misses(ids.tolist())
            report.misses_dropped += len(group)
        return kept_frames, freed

    @staticmethod
    def _removed_placements(rows, places: dict) -> list[tuple[int, int]]:
        """(object, placement) of the misses ``rows`` whose placement is closed as ``removed``."""
        return sorted({(int(r["object_id"]), int(r["placement_id"])) for r in rows
                       if r["placement_id"] is not None and places.get(int(r["placement_id"]), (0, None))[1]
                       == "removed"})

    def _uncited_removal_misses(self, object_id: int, placement_id: int, horizon: float) -> list:
        """The settled misses of a placement closed by a removal whose frames its removal event does not cite
        (frame_fusion.remove cites the first and the last since the removal's stamp): no decision reads them
        any more (a closed placement is immutable; absence is judged on the current placement) and no answer
        or event names them. None of them while no event records the removal (never published). Why: at
        10 Hz a removal took some 16 misses, all kept with their frames: 42.6 % of the frames kept from 12
        minutes of patrol were kept for such misses alone (bench_long_run quick, thin/off, eef8a74)."""
        cited = self._rows.removal_miss_frames(object_id, placement_id)
        if cited is None:
            return []
        return [r for r in self._rows.settled_misses(object_id, placement_id, horizon)
                if int(r["frame_id"]) not in cited]

    def _thin_audit(self, report: ThinReport) -> None:
        """Delete the audit rows of action merge / reject once every sighting they name is settled (older than
        retention.settle_s), oldest first, up to the first row naming one that is not (cursor in meta). Why: such
        a row repeats its sighting's verdict (object, reason, score), which the sighting carries in its own row
        while it is kept and its tally counts once it is thinned; 720,000 of them per robot-hour would outweigh
        everything else."""
        cursor = self._rows.meta_int("retention_audit_seen")
        rows = self._rows.audit_after(cursor, AUDIT_SCAN_LIMIT)
        if not rows:
            return
        listed = {int(r["id"]): [int(i) for i in json.loads(r["observation_ids"])] for r in rows
                  if r["action"] in ("merge", "reject")}
        wanted = sorted({i for ids in listed.values() for i in ids})
        stamps: dict[int, float] = {}
        stamps.update((int(i), float(t)) for i, t in self._rows.observation_stamps(wanted))
        horizon = self._now() - self.config.retention.settle_s
        drop: list[int] = []
        last = cursor
        for r in rows:
            ids = listed.get(int(r["id"]))
            if ids is not None:
                if any(stamps.get(i, float("-inf")) > horizon for i in ids):
                    break  # not settled yet: look again at the next pass
                drop.append(int(r["id"]))
                report.audit_dropped[r["action"]] = report.audit_dropped.get(r["action"], 0) + 1
                report.audit_objects.update(int(i) for i in json.loads(r["object_ids"]))
            last = int(r["id"])
        self._rows.delete_audit(drop)
        if last != cursor:
            self._rows.set_meta("retention_audit_seen", last)

    # ------------------------------------------------------------------ tallies
    def _log_stamps(self, rows, at: float) -> stamplog.Runs:
        """Record the stamps of the sightings this pass looks at, as runs (stamplog.py: tally rows of kind
        ``stamps``); the runs, for this pass's tallies."""
        runs = stamplog.Runs.of_observations([int(r["id"]) for r in rows], [float(r["stamp"]) for r in rows])
        for starts, stamps in runs.rows():
            real = stamps[~np.isnan(stamps)]
            self._rows.insert_stamp_run(len(starts), float(real.min()), float(real.max()), int(starts[0]),
                                        int(starts[-1]) - 1, tally.encode_ints(starts), tally.encode_stamps(stamps),
                                        at)
        return runs

    def _tally(self, kind: str, object_id, placement_id, group_key: str, ids: np.ndarray, stamps: np.ndarray,
               at: float, runs: stamplog.Runs | None = None) -> None:
        """Count thinned items in the group's latest tally row (up to TALLY_ROW_LIMIT), else in a new one. Sightings
        whose stamps the recorded runs give back exactly are kept as ids and parts (stamplog.py); a row holds parts
        or stamps, never both (a new row begins where the form changes). A sighting row holds one day
        (TALLY_DAY_S): the sightings of each day go to that day's row."""
        order = np.lexsort((ids, stamps))
        ids, stamps = ids[order], stamps[order]
        if kind != "sighting":
            self._tally_rows(kind, object_id, placement_id, group_key, ids, stamps, at, runs)
            return
        for a, b in _day_spans(stamps):
            self._tally_rows(kind, object_id, placement_id, group_key, ids[a:b], stamps[a:b], at, runs)

    def _tally_rows(self, kind: str, object_id, placement_id, group_key: str, ids: np.ndarray, stamps: np.ndarray,
                    at: float, runs: stamplog.Runs | None) -> None:
        """_tally of items in (stamp, id) order (sightings: of one day)."""
        new_parts = self._parts_of(ids, stamps, runs) if runs is not None and kind != "miss" else None
        parts = new_parts is not None
        last = self._rows.last_tally(placement_id, kind, group_key)
        if last is not None and last["object_id"] == object_id and int(last["n"]) + len(ids) <= TALLY_ROW_LIMIT \
                and stamplog.is_parts(last["stamps"]) == parts \
                and (kind != "sighting" or _day(last["t_first"]) == _day(last["t_last"]) == _day(stamps[0])):
            n = int(last["n"])
            all_ids = np.concatenate([tally.decode_ints(last["ids"], n), ids])
            if parts:
                blob = stamplog.encode_parts(*(np.concatenate(pair) for pair in zip(
                    stamplog.decode_parts(last["stamps"]), new_parts)))
                t_first, t_last = min(float(last["t_first"]), float(stamps[0])), max(float(last["t_last"]),
                                                                                    float(stamps[-1]))
            else:
                all_stamps = np.concatenate([tally.decode_stamps(last["stamps"], n), stamps])
                blob = tally.encode_stamps(all_stamps)
                t_first, t_last = float(all_stamps.min()), float(all_stamps.max())
            self._rows.update_tally(last["id"], len(all_ids), t_first, t_last, int(all_ids.min()), int(all_ids.max()),
                                    tally.encode_ints(all_ids), blob, at)
            return
        blob = stamplog.encode_parts(*new_parts) if parts else tally.encode_stamps(stamps)
        self._rows.insert_tally(kind, object_id, placement_id, group_key, len(ids), float(stamps.min()),
                                float(stamps.max()), int(ids.min()), int(ids.max()), tally.encode_ints(ids), blob, at)

    def close_tally_days(self) -> None:
        """Split every sighting tally row that holds more than one day (TALLY_DAY_S) into one row a day: stores
        thinned before the rows were closed daily. A writer's open runs it: it reads every sighting row's span
        (546 rows in bench_long_run's 30-day store) and writes only where a row spans days. Nothing is deleted and
        every count stays exact: the row keeps its id with its first day's sightings, each later day's go to a new
        row of the same object, placement and group, in day order (so that the newest day's row stays the one later
        passes add to); one 'tally_days' audit row says how many rows were split and how many sightings they hold.
        Each row is read again in the write transaction (under PostgreSQL's write lock): a row another writer has
        split meanwhile is left as it is."""
        if not self._thinned_ever:
            return
        across = [(tid, t_first, t_last) for tid, t_first, t_last in self._rows.sighting_tally_spans()
                  if _day(t_first) != _day(t_last)]
        if not across:
            return
        with self._store.transaction():
            split = made = sightings = 0
            newest = None
            for tid, _, _ in across:
                row = self._rows.tally_row(tid)   # read again under the write lock (another writer may have split it)
                if row is None or _day(row["t_first"]) == _day(row["t_last"]):
                    continue
                t_last = float(row["t_last"])
                days = self._by_day(row)
                self._rows.rewrite_tally(tid, *days[0])
                for day in days[1:]:
                    self._rows.insert_tally("sighting", row["object_id"], row["placement_id"], row["group_key"], *day,
                                            row["thinned_at"])
                split, made, sightings = split + 1, made + len(days) - 1, sightings + int(row["n"])
                newest = float(t_last) if newest is None else max(newest, float(t_last))
            if split:
                self._audit(newest, "tally_days", [], [], {
                    "why": "retention: a sighting tally row holds one day, so that a window reads the rows it meets",
                    "day_s": TALLY_DAY_S, "rows_split": split, "rows_added": made, "sightings": sightings})

    def _by_day(self, row) -> list[tuple]:
        """A sighting tally row's items by day: (n, t_first, t_last, id_first, id_last, ids, stamps) a day, in day
        order, each in the row's order. Parts rows stay parts; a part across midnight is cut there (its stamps
        looked up in the runs)."""
        n = int(row["n"])
        ids = tally.decode_ints(row["ids"], n)
        out = []
        if not stamplog.is_parts(row["stamps"]):
            stamps = tally.decode_stamps(row["stamps"], n)
            days = np.floor(stamps / TALLY_DAY_S)
            for d in np.unique(days):
                m = days == d
                out.append((int(m.sum()), float(stamps[m].min()), float(stamps[m].max()), int(ids[m].min()),
                            int(ids[m].max()), tally.encode_ints(ids[m]), tally.encode_stamps(stamps[m])))
            return out
        groups: dict[int, list] = {}
        end = 0
        for c, f, la in zip(*(a.tolist() for a in stamplog.decode_parts(row["stamps"]))):
            begin, end = end, end + c
            part = ids[begin:end]
            if _day(f) == _day(la):
                pieces = [(part, c, f, la)]
            else:   # a part's stamps are in order: cut where the day changes
                st = self._logged_stamps(part, f, la)
                pieces = [(part[a:b], b - a, float(st[a]), float(st[b - 1])) for a, b in _day_spans(st)]
            for p, c_, f_, la_ in pieces:
                g = groups.setdefault(_day(f_), [[], [], [], []])
                for k, v in enumerate((p, c_, f_, la_)):
                    g[k].append(v)
        for d in sorted(groups):
            parts, counts, firsts, lasts = groups[d]
            got = np.concatenate(parts)
            out.append((int(sum(counts)), float(min(firsts)), float(max(lasts)), int(got.min()), int(got.max()),
                        tally.encode_ints(got), stamplog.encode_parts(counts, firsts, lasts)))
        return out

    def _parts_of(self, ids: np.ndarray, stamps: np.ndarray, runs: stamplog.Runs):
        """(counts, first stamps, last stamps) of ``ids`` (in (stamp, id) order) cut where their stamps lie more
        than STAMP_ROW_SPAN_S apart, or None when the recorded runs do not give back every stamp bit for bit.
        This pass's runs hold its own sightings; a sample's sighting dropped now was recorded by its own pass."""
        cuts = np.flatnonzero(np.diff(stamps) > stamplog.STAMP_ROW_SPAN_S) + 1
        bounds = np.concatenate(([0], cuts, [len(ids)]))
        for a, b in zip(bounds[:-1], bounds[1:]):
            got = runs.stamps_of(ids[a:b])
            if got is None:
                got = self._logged_stamps(ids[a:b], float(stamps[a]), float(stamps[b - 1]), strict=False)
            if got is None or not np.array_equal(got.view("<i8"), stamps[a:b].view("<i8")):
                return None
        return np.diff(bounds), stamps[bounds[:-1]], stamps[bounds[1:] - 1]

    def _tally_stamps(self, row) -> np.ndarray:
        """Every stamp of a tally row, in the order of its ids (parts: looked up in the runs)."""
        n = int(row["n"])
        if not stamplog.is_parts(row["stamps"]):
            return tally.decode_stamps(row["stamps"], n)
        ids = tally.decode_ints(row["ids"], n)
        counts, firsts, lasts = stamplog.decode_parts(row["stamps"])
        ends = np.cumsum(counts)
        return np.concatenate([self._logged_stamps(ids[e - c:e], f, la) for c, e, f, la in
                               zip(counts, ends, firsts, lasts)]) if n else np.zeros(0)

    def _logged_stamps(self, ids: np.ndarray, lo: float, hi: float, strict: bool = True) -> np.ndarray | None:
        """The stamps of ``ids`` (sightings of one part, stamps within [lo, hi]) from the recorded runs (not
        strict: None when they do not hold one)."""
        rows = self._rows.stamp_runs_from(float(lo) - stamplog.STAMP_ROW_SPAN_S, float(hi))
        runs = stamplog.Runs.concat([stamplog.Runs(tally.decode_ints(r["ids"], int(r["n"])),
                                                   tally.decode_stamps(r["stamps"], int(r["n"]))) for r in rows])
        out = runs.stamps_of(ids)
        if out is None and strict:
            raise StoreCorruptError(f"the recorded stamps of thinned sightings {int(ids[0])}..{int(ids[-1])} are "
                                    "missing (tallies of kind 'stamps')")
        return out

    def tallied_sightings(self, object_id: int) -> int:
        """The object's sightings counted in tallies (thinned); 0 on a store never thinned."""
        if not self._thinned_ever:
            return 0
        return self._rows.tallied_sightings(object_id)

    def tallied_in(self, object_ids, lo: float, hi: float, span: tuple[float, float] | None = None
                   ) -> tuple[int, tuple | None]:
        """(thinned sightings of these objects with lo <= stamp <= hi, the latest as (stamp, id, object_id)).

        ``span``: (the earliest first_seen, the latest last_seen) of the objects, which picks the index the tallies
        are read through (RetentionRows.sighting_tallies_across): from the objects' first day up to ``hi`` when
        that is shorter than from ``lo`` up to their last day. Why: "was it seen during day 1" asked on day 30
        walked the object's tallies from day 1 to day 30 (t_last >= lo), each row read to test t_first (was_seen#1
        of bench_long_run, 3.2 -> 7.8 VM steps x100 day 1 -> day 30; docs/RESULTS.md section 6, round 13). The
        rows are the same either way; their order is not, so the latest of the inside tallies is taken over
        every one that ends last, not the first read."""
        ids = sorted({int(i) for i in object_ids})
        if not ids or not self._thinned_ever:
            return 0, None
        by_start = span is not None and hi - float(span[0]) < float(span[1]) - lo
        rows = self._rows.sighting_tallies_across(ids, lo, hi, by_start=by_start)
        count, best, ends_last = 0, None, []
        for r in rows:
            n = int(r["n"])
            if lo <= float(r["t_first"]) and float(r["t_last"]) <= hi:   # inside: counted whole, not decoded
                count += n
                if not ends_last or float(r["t_last"]) > float(ends_last[0]["t_last"]):
                    ends_last = [r]
                elif float(r["t_last"]) == float(ends_last[0]["t_last"]):
                    ends_last.append(r)
                continue
            if stamplog.is_parts(r["stamps"]):
                c, cand = self._parts_in(r, lo, hi)
                count += c
                best = _later(best, cand)
                continue
            stamps = tally.decode_stamps(r["stamps"], n)
            inside = (stamps >= lo) & (stamps <= hi)
            count += int(inside.sum())
            best = _latest(best, r, stamps, inside)
        for r in ends_last:
            n = int(r["n"])
            if stamplog.is_parts(r["stamps"]):
                best = _later(best, self._parts_in(r, lo, hi)[1])
            else:
                stamps = tally.decode_stamps(r["stamps"], n)
                best = _latest(best, r, stamps, np.ones(n, dtype=bool))
        return count, best

    def _parts_in(self, row, lo: float, hi: float) -> tuple[int, tuple | None]:
        """(sightings of a parts row with lo <= stamp <= hi, the latest as (stamp, id, object_id)): a part inside the
        span counts whole, one outside not at all; only a part across its edge looks its stamps up."""
        ids = tally.decode_ints(row["ids"], int(row["n"]))
        counts, firsts, lasts = stamplog.decode_parts(row["stamps"])
        count, best, end = 0, None, 0
        for c, f, la in zip(counts.tolist(), firsts.tolist(), lasts.tolist()):
            begin, end = end, end + c
            if la < lo or f > hi:
                continue
            if lo <= f and la <= hi:   # ids of a part are in (stamp, id) order: its last is its latest
                count += c
                cand = (la, int(ids[end - 1]), int(row["object_id"]))
            else:
                part = ids[begin:end]
                stamps = self._logged_stamps(part, f, la)
                inside = np.flatnonzero((stamps >= lo) & (stamps <= hi))
                if not len(inside):
                    continue
                count += len(inside)
                j = inside[np.lexsort((part[inside], stamps[inside]))[-1]]
                cand = (float(stamps[j]), int(part[j]), int(row["object_id"]))
            best = _later(best, cand)
        return count, best

    # ------------------------------------------------------------------ fold state
    def _fold_placement(self, placement_id: int, batch: list, had_earlier: bool) -> None:
        """Continue the saved fold of a current placement with its newly settled sightings (in stamp order)."""
        row = self._rows.placement_state(placement_id)
        if row is None or not row["current"]:
            self._rows.drop_fold(placement_id)
            return
        rows = sorted(batch, key=_key)
        saved = self._rows.fold_of(placement_id)
        if saved is None:
            state, exact, late = None, not had_earlier, "[]"
        else:
            state, exact, late = _load_fold(saved), bool(saved["exact"]), saved["late"]
            if rows and _key(rows[0]) <= state.key:
                exact = False   # a sighting older than the saved fold (stamps out of order): approximate
        state = refold.fold(state, rows, self.config.fusion)
        if state is None:
            return
        self._rows.save_fold(placement_id, int(row["object_id"]), state, exact, late)

    def fold_start(self, object_id: int, placement_id, rows) -> tuple:
        """(saved fold or None, the rows a rebuild still folds, exact) for a rebuild of this placement from its
        sightings ``rows`` (in stamp order). Without thinning: (None, rows, True)."""
        if placement_id is None:
            return None, rows, True
        saved = self._rows.fold_of(placement_id)
        if saved is None:
            return None, rows, not self._rows.placement_thinned(placement_id)
        state = _load_fold(saved)
        late = set(json.loads(saved["late"]))
        return state, [r for r in rows if _key(r) > state.key or int(r["id"]) in late], bool(saved["exact"])

    # ------------------------------------------------------------------ hooks: observations re-pointed
    def _follow_coseen(self, src_id: int, dst_id: int) -> None:
        """The objects ``src_id`` was once detected with were detected with ``dst_id``."""
        partners = self._rows.coseen_partners(src_id) - {int(dst_id)}
        if partners:
            pairs = sorted((min(dst_id, z), max(dst_id, z)) for z in partners)
            self._rows.add_coseen(pairs)
            if self._caches.coseen is not None:
                self._caches.coseen.update(pairs)

    def rehoming(self, src_id: int, dst_id: int, copies: dict[int, int]) -> None:
        """Called just before the sightings of ``src_id`` follow their placements to ``dst_id``'s copies of them
        (``copies``: placement -> copy; Settling._rehome_moves): each tally, saved fold and hold goes with its
        placement, and the objects it was seen with follow."""
        for q, c in sorted(copies.items()):
            self._rows.rehome_tallies(src_id, dst_id, q, c)
            self._rows.rehome_fold(q, c, dst_id)
        self._rows.retarget_tallies(src_id, dst_id)
        self._rows.drop_folds_of(src_id)
        held = self._rows.twin_holds()
        moved = {copies[p]: since for p, since in held.items() if p in copies}
        if moved:
            self._rows.save_twin_holds({**{p: v for p, v in held.items() if p not in copies}, **moved})
        self._follow_coseen(src_id, dst_id)

    def repointing(self, src_id: int, dst_id: int, placement_id) -> None:
        """Called just before every observation of ``src_id`` is re-pointed to (``dst_id``, ``placement_id``)
        (a twin joined, a move reconciled, duplicates consolidated): its tallies, the objects it was seen with
        and its saved fold follow."""
        rows = self._rows
        has_tallies = rows.object_thinned(src_id)
        dst_thinned = placement_id is not None and rows.placement_thinned(placement_id)
        if has_tallies:
            rows.repoint_tallies(src_id, dst_id, placement_id)
        self._follow_coseen(src_id, dst_id)
        held = rows.twin_holds()
        src_places = rows.placement_ids_of(src_id)
        since = [held[p] for p in src_places if held.get(p) is not None]
        if since and placement_id is not None:  # the hold for a possible twin goes with the sightings
            held[int(placement_id)] = min(since + ([held[placement_id]] if held.get(placement_id) else []))
            rows.save_twin_holds(held)
        src_fold = rows.fold_placements_of(src_id)
        if placement_id is None:
            rows.drop_folds_of(src_id)
            return
        dst_fold = rows.fold_of(placement_id)
        if dst_fold is None:
            # the source's saved fold continues here when everything the placement holds comes after it (a move
            # reconciled into a new placement; a twin joined into an object that just moved or appeared there)
            if len(src_fold) == 1:
                cut = rows.fold_cut(src_fold[0][0])
                cut = (float(cut[0]), int(cut[1]))
                later = all((float(t), int(i)) > cut for i, t in rows.sighting_keys_at(placement_id))
                if later and not dst_thinned:
                    rows.move_fold(src_fold[0][0], placement_id, dst_id)
                    return
        else:
            cut = (float(dst_fold["cut_stamp"]), int(dst_fold["cut_id"]))
            late = set(json.loads(dst_fold["late"]))
            late.update(int(r[0]) for r in rows.sighting_keys_of(src_id) if (float(r[1]), int(r[0])) <= cut)
            exact = bool(dst_fold["exact"]) and not has_tallies and not late
            rows.set_fold_exact(placement_id, exact, json.dumps(sorted(late)))
        rows.drop_other_folds_of(src_id, placement_id)

    def split(self, placement_id) -> None:
        """Some sightings leave this placement (resplit): its saved fold no longer describes it."""
        if placement_id is not None:
            self._rows.drop_fold(placement_id)

    # ------------------------------------------------------------------ objects seen together
    def _coseen_pairs(self) -> set:
        if self._caches.coseen is None:
            self._caches.coseen = self._rows.coseen_pairs()
        return self._caches.coseen

    def _note_coseen(self, rows) -> None:
        """Record the pairs of objects detected in one frame among these settled sightings."""
        by_frame: dict[int, set] = {}
        for r in rows:
            if r["object_id"] is not None and r["verdict"] in ("merged", "created"):
                by_frame.setdefault(int(r["frame_id"]), set()).add(int(r["object_id"]))
        sets = {frozenset(s) for s in by_frame.values() if len(s) > 1}
        pairs = {p for s in sets for p in combinations(sorted(s), 2)}
        known = self._coseen_pairs()
        new = sorted(pairs - known)
        if new:
            self._rows.add_coseen(new)
            known.update(new)

    # ------------------------------------------------------------------ reading
    def thinned_observation(self, observation_id: int) -> str | None:
        """What became of a thinned observation id, or None when no tally holds it."""
        if not self._thinned_ever:
            return None
        for r in self._rows.tallies_spanning(observation_id):
            ids = tally.decode_ints(r["ids"], int(r["n"]))
            hit = np.flatnonzero(ids == observation_id)
            if len(hit):
                stamp = float(self._tally_stamps(r)[hit[0]])
                what = {"sighting": f"a sighting of object #{r['object_id']} at placement #{r['placement_id']}",
                        "rejected": f"a rejected sighting ({r['group_key']})",
                        "miss": f"a miss of object #{r['object_id']}"}.get(r["kind"], r["kind"])
                return (f"observation {observation_id} was thinned by retention: {what}, stamp {stamp:.6f}, "
                        f"counted in tally #{r['id']}")
        return None

    def sighting_counts(self, object_id: int) -> list[dict]:
        """Per placement of the object (oldest first): sightings kept as records and sightings counted in tallies
        (thinned). kept + thinned over all placements = the object's n_observations."""
        self._reads.row_or_raise(object_id)
        kept = self._rows.kept_by_placement(object_id)
        thinned = {} if not self._thinned_ever else self._rows.thinned_by_placement(object_id)
        order = self._rows.placement_order(object_id)
        extra = sorted((set(kept) | set(thinned)) - set(order), key=lambda p: (p is None, p or 0))
        return [{"placement_id": p, "kept": int(kept.get(p, 0)), "thinned": int(thinned.get(p, 0))}
                for p in order + extra if p in kept or p in thinned]

    def retention_stats(self) -> dict:
        """Rows kept and items counted in tallies, by kind: what retention has done to this store."""
        rows = self._rows
        out = {"observations": rows.row_count("observations"), "frames": rows.row_count("frames"),
               "misses": rows.row_count("misses"), "audit": rows.row_count("audit")}
        if not self._thinned_ever:
            return {**out, "tally_rows": 0, "tally_bytes": 0, "coseen_pairs": 0, "fold_states": 0,
                    "thinned_sightings": 0, "thinned_rejecteds": 0, "thinned_misses": 0}
        out |= {"tally_rows": rows.row_count("tallies"), "tally_bytes": rows.tally_bytes(),
                "coseen_pairs": rows.row_count("coseen"), "fold_states": rows.row_count("fold_state")}
        version = int(self._meta.get("schema_version", "0"))
        if version >= 16:
            out["label_looks"] = rows.row_count("label_looks")
        if version >= 17:
            out["label_look_counts"] = rows.row_count("label_look_counts")
        for kind, key in (("sighting", "thinned_sightings"), ("rejected", "thinned_rejecteds"),
                          ("miss", "thinned_misses")):
            out[key] = rows.tallied_of_kind(kind)
        return out


def _latest(best, row, stamps: np.ndarray, inside: np.ndarray):
    """The later of ``best`` and the latest (stamp, id) among ``row``'s stamps where ``inside``."""
    if not inside.any():
        return best
    n = int(row["n"])
    ids = tally.decode_ints(row["ids"], n)
    idx = np.flatnonzero(inside)
    order = np.lexsort((ids[idx], stamps[idx]))
    j = idx[order[-1]]
    return _later(best, (float(stamps[j]), int(ids[j]), int(row["object_id"])))


def _later(best, cand):
    """The later by (stamp, id) of two sightings given as (stamp, id, object_id); None is earlier than any."""
    if cand is None:
        return best
    return cand if best is None or cand[:2] > best[:2] else best


def fusion_feature(row: ObjectRow):
    from .rows import blob_to_feature
    return blob_to_feature(row.feature)


def _load_fold(saved) -> refold.FoldState:
    feature = None if saved["feature"] is None else np.frombuffer(saved["feature"], dtype=np.float32).copy()
    return refold.FoldState(
        np.array((saved["mx"], saved["my"], saved["mz"]), dtype=float),
        np.array((saved["min_x"], saved["min_y"], saved["min_z"]), dtype=float),
        np.array((saved["max_x"], saved["max_y"], saved["max_z"]), dtype=float),
        float(saved["weight"]), np.array((saved["ext_x"], saved["ext_y"], saved["ext_z"]), dtype=float),
        feature, float(saved["feature_weight"]), float(saved["base"]), int(saved["n"]),
        (float(saved["cut_stamp"]), int(saved["cut_id"])))

