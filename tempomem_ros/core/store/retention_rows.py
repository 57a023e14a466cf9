"""The statements only retention runs (core/retention.py): staged depth images, the compaction pass's reads and
deletions, tallies, saved folds, the record of objects seen together and retention's cursors in meta, behind
named methods.

Why a module of its own: the Retention service decides (which frames have settled, which sightings a
placement keeps, which misses no decision reads any more, when a fold continues); the rows it reads and writes
are this module's, so nothing above the store layer writes SQL. Each method runs inside the caller's
``Store.transaction()`` (the readers: in or outside one). The statement texts are as they were in the mixin:
the PostgreSQL backend translates them by pattern (postgres/dialect.py).

Order: a method returns its rows in the order it states. Where a statement has no ORDER BY (kept so, to keep
the store byte-identical to the one the mixin wrote) the method says so, and its caller sorts or only builds
a set or dict from the rows: the memory is deterministic only if every read that feeds a decision is.
"""

from __future__ import annotations

import json

import numpy as np

from ..rows import OBJECT_COLS_O, id_chunks
from .base import TableRows
from .object_row import ObjectRow
from .schema import FRAMES_LIVE

PROCESSED, CITED = 1, 2          # bits of observations.retained
# the columns of a sighting the compaction pass reads (its sample, tally, fold and twin hold)
BATCH_COLS = ("id, frame_id, stamp, label, confidence, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, "
              "feature, verdict, reason, object_id, candidate_id, placement_id, reject_key, retained")
FOLD_COLS = ("mx", "my", "mz", "min_x", "min_y", "min_z", "max_x", "max_y", "max_z", "weight", "ext_x", "ext_y",
             "ext_z", "feature", "feature_weight", "base")
MISS_COLS = "id, object_id, placement_id, frame_id, stamp"
# what a compacted frame no longer keeps (core/retention.py, COMPACT_POSE_BYTES, says why)
LEAN_FRAME = ("fx=NULL, fy=NULL, cx=NULL, cy=NULL, width=NULL, height=NULL, max_range=NULL, depth_h=NULL, "
              "depth_w=NULL")
TWIN_HOLD_KEY = "retention_twin_hold"


class RetentionRows(TableRows):
    """Rows of frames, sightings, misses, audit rows, tallies, saved folds and co-seen pairs as retention reads
    and writes them."""

    # ---------------------------------------------------------------- depth of staged frames
    def stage_depth(self, frame_id: int, depth: bytes) -> None:
        """A staged frame's depth image, in a row of its own (frame_depths) until the frame is fused."""
        self._conn.execute("INSERT INTO frame_depths (frame_id, depth) VALUES (?, ?)", (int(frame_id), depth))

    def drop_depths(self, frame_ids: list[int]) -> None:
        """The staged depth images of these frames go."""
        for chunk, marks in id_chunks(frame_ids):
            self._conn.execute(f"DELETE FROM frame_depths WHERE frame_id IN ({marks})", chunk)

    def pending_frames(self, limit: int | None = None, through: float | None = None) -> list:
        """Every staged (pending, live) frame row, its staged depth as ``staged_depth`` (NULL when none), in the
        order a commit fuses them: by stamp, then by source (robot id), then by id (staging order). Why the source
        before the id: robots stage beside each other (docs/FLEET.md), so which of two frames of one stamp was
        staged first is a race; the robot's name is not. One robot (one source) reads them as before. ``through``: only
        the frames stamped at or before it (a mutation on a fleet's store: Memory._fuse_pending)."""
        return self._conn.execute(*self.pending_frames_read(limit, through)).fetchall()

    @staticmethod
    def pending_frames_read(limit: int | None = None, through: float | None = None,
                            columns: str = "f.*, d.depth AS staged_depth") -> tuple[str, list]:
        """pending_frames' statement and parameters (Store.fusing reads it in the lock's round trip); ``columns``:
        another selection of the same frames, in the same order (FusionRows.pending_sightings_read)."""
        bound, args = ("", []) if through is None else (" AND f.stamp <= ?", [float(through)])
        sql = (f"SELECT {columns} FROM frames f LEFT JOIN frame_depths d "
               f"ON d.frame_id = f.id WHERE f.status='pending' AND f.{FRAMES_LIVE}{bound} "
               "ORDER BY f.stamp, f.source, f.id")
        if limit is None:
            return sql, args
        return sql + " LIMIT ?", args + [int(limit)]

    # ---------------------------------------------------------------- meta cursors
    def meta_int(self, key: str) -> int:
        """An integer kept in meta (a cursor); 0 when the key is absent."""
        row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return 0 if row is None else int(row[0])

    def set_meta(self, key: str, value) -> None:
        self._conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET "
                           "value=excluded.value", (key, str(value)))

    def twin_holds(self) -> dict:
        """Placement id -> the stamp its hold for a possible twin began (None once it ran out); {} when none."""
        row = self._conn.execute("SELECT value FROM meta WHERE key='retention_twin_hold'").fetchone()
        return {} if row is None else {int(k): v for k, v in json.loads(row[0]).items()}

    def save_twin_holds(self, held: dict) -> None:
        self.set_meta(TWIN_HOLD_KEY, json.dumps({str(k): v for k, v in sorted(held.items())}))

    # ---------------------------------------------------------------- the pass: frames
    def settled_frames(self, horizon: float, limit: int) -> list:
        """(id, stamp, pose, n_observations) of the first ``limit`` fused live frames stamped at or before
        ``horizon``, in stamp order (ties by id)."""
        return self._conn.execute(
            f"SELECT id, stamp, pose, n_observations FROM frames WHERE status='fused' AND {FRAMES_LIVE} AND stamp <= ? "
            "ORDER BY stamp, id LIMIT ?", (horizon, limit)).fetchall()

    def frame_poses(self, frame_ids: list[int]) -> list:
        """(id, pose) of these frames, in the store's order within each chunk of ids (the caller builds a dict)."""
        out = []
        for chunk, marks in id_chunks(frame_ids):
            out += self._conn.execute(f"SELECT id, pose FROM frames WHERE id IN ({marks})", chunk).fetchall()
        return out

    def delete_frames(self, frame_ids: list[int]) -> None:
        for chunk, marks in id_chunks(frame_ids):
            self._conn.execute(f"DELETE FROM frames WHERE id IN ({marks})", chunk)

    def compact_frames(self, poses: list[tuple]) -> None:
        """(compact pose, frame id) pairs: each frame becomes 'compacted', keeping its pose in compact form and
        dropping what only fusing it read (LEAN_FRAME)."""
        self._conn.executemany(f"UPDATE frames SET status='compacted', pose=?, {LEAN_FRAME} WHERE id=?", poses)

    def frame_unreferenced(self, frame_id: int) -> bool:
        """Whether no sighting and no miss refers to the frame (the misses are read only when no sighting does)."""
        return self._conn.execute("SELECT 1 FROM observations WHERE frame_id=? LIMIT 1", (frame_id,)).fetchone() \
            is None and self._conn.execute("SELECT 1 FROM misses WHERE frame_id=? LIMIT 1", (frame_id,)).fetchone() \
            is None

    def delete_frame(self, frame_id: int) -> None:
        self._conn.execute("DELETE FROM frames WHERE id=?", (frame_id,))

    # ---------------------------------------------------------------- the pass: sightings
    def evidence_after(self, table: str, cursor: int) -> list:
        """(id, evidence JSON) of the rows of ``table`` (events or held_events) after ``cursor``, by id."""
        return self._conn.execute(f"SELECT id, evidence FROM {table} WHERE id > ? ORDER BY id",
                                  (cursor,)).fetchall()

    def mark_cited(self, observation_ids: list[int]) -> None:
        """These sightings are cited by an event: never thinned."""
        for chunk, marks in id_chunks(observation_ids):
            self._conn.execute(f"UPDATE observations SET retained = retained | {CITED} WHERE id IN ({marks})", chunk)

    def unprocessed_in_frames(self, frame_ids: list[int]) -> list:
        """The sightings (BATCH_COLS) of these frames no pass has looked at yet, by id within each chunk of
        frame ids (frame ids in stamp order, so sightings in id order within a chunk)."""
        rows = []
        for chunk, marks in id_chunks(frame_ids):
            rows += self._conn.execute(f"SELECT {BATCH_COLS} FROM observations WHERE frame_id IN ({marks}) "
                                       f"AND (retained & {PROCESSED}) = 0 ORDER BY id", chunk).fetchall()
        return rows

    def unprocessed_of_placement(self, placement_id: int, upto: float) -> list:
        """The sightings (BATCH_COLS) of a placement stamped at or before ``upto`` that no pass has looked at, in
        the store's order (no ORDER BY: the caller sorts them by (stamp, id))."""
        return self._conn.execute(
            f"SELECT {BATCH_COLS} FROM observations WHERE placement_id = ? AND (retained & {PROCESSED}) "
            "= 0 AND stamp <= ?", (placement_id, upto)).fetchall()

    def processed_of_placement(self, placement_id: int) -> list:
        """The sightings of a placement an earlier pass kept (id, stamp, label, centre, frame_id, retained,
        object_id and the frame's pose), in the store's order (the sample is chosen by id, not by row order)."""
        return self._conn.execute(
            f"SELECT o.id, o.stamp, o.label, o.cx, o.cy, o.cz, o.frame_id, o.retained, o.object_id, f.pose "
            f"FROM observations o LEFT JOIN frames f ON f.id = o.frame_id WHERE o.placement_id = ? "
            f"AND (o.retained & {PROCESSED}) = {PROCESSED}", (placement_id,)).fetchall()

    def processed_rejected_of_candidate(self, candidate_id, reason: str) -> list:
        """The rejected sightings without a rejection key, of one candidate (None: of none) and reason, that an
        earlier pass kept; columns as processed_of_placement (candidate_id as object_id, pose NULL), in the
        store's order."""
        return self._conn.execute(
            "SELECT id, stamp, label, cx, cy, cz, frame_id, retained, candidate_id AS object_id, NULL AS pose "
            f"FROM observations WHERE candidate_id IS ? AND verdict='rejected' AND reason=? AND reject_key IS NULL "
            f"AND (retained & {PROCESSED}) = {PROCESSED}", (candidate_id, reason)).fetchall()

    def processed_rejected_of_key(self, reject_key: str, reason: str) -> list:
        """The rejected sightings of one rejection key and reason that an earlier pass kept; columns as
        processed_rejected_of_candidate, in the store's order."""
        return self._conn.execute(
            "SELECT id, stamp, label, cx, cy, cz, frame_id, retained, candidate_id AS object_id, NULL AS pose "
            f"FROM observations WHERE reject_key = ? AND verdict='rejected' AND reason=? "
            f"AND (retained & {PROCESSED}) = {PROCESSED}", (reject_key, reason)).fetchall()

    def mark_processed(self, observation_ids: list[int]) -> None:
        """These sightings were looked at by a pass and are kept as they are."""
        self._conn.executemany(f"UPDATE observations SET retained = retained | {PROCESSED} WHERE id = ?",
                               [(int(i),) for i in observation_ids])

    def keep_sample(self, updates: list[tuple]) -> None:
        """(feature BLOB, id) pairs: each sighting is kept (processed), with its feature as given."""
        self._conn.executemany(f"UPDATE observations SET retained = retained | {PROCESSED}, feature = ? WHERE id = ?",
                               updates)

    def delete_observations(self, observation_ids: list[int]) -> None:
        for chunk, marks in id_chunks(observation_ids):
            self._conn.execute(f"DELETE FROM observations WHERE id IN ({marks})", chunk)

    def observation_stamps(self, observation_ids: list[int]) -> list:
        """(id, stamp) of those of these sightings still kept, in the store's order (the caller builds a dict)."""
        out = []
        for chunk, marks in id_chunks(observation_ids):
            out += self._conn.execute(f"SELECT id, stamp FROM observations WHERE id IN ({marks})", chunk).fetchall()
        return out

    # ---------------------------------------------------------------- the pass: misses
    def misses_in_frames(self, frame_ids: list[int]) -> list:
        """The misses (MISS_COLS) of these frames, by id within each chunk of frame ids."""
        rows = []
        for chunk, marks in id_chunks(frame_ids):
            rows += self._conn.execute(f"SELECT {MISS_COLS} FROM misses WHERE frame_id IN ({marks}) ORDER BY id",
                                       chunk).fetchall()
        return rows

    def placement_ends(self, placement_ids: list[int]) -> list:
        """(id, t_last, closed_reason) of these placements, in the store's order (the caller builds a dict)."""
        out = []
        for chunk, marks in id_chunks(placement_ids):
            out += self._conn.execute(
                f"SELECT id, t_last, closed_reason FROM placements WHERE id IN ({marks})", chunk).fetchall()
        return out

    def misses_before(self, object_id: int, placement_id: int, before: float, horizon: float) -> list:
        """The misses (MISS_COLS) of the object at the placement stamped before ``before`` and at or before
        ``horizon``, in the store's order."""
        return self._conn.execute(
            f"SELECT {MISS_COLS} FROM misses WHERE object_id = ? AND stamp < ? AND stamp <= ? AND placement_id = ?",
            (object_id, before, horizon, placement_id)).fetchall()

    def settled_misses(self, object_id: int, placement_id: int, horizon: float) -> list:
        """The misses (MISS_COLS) of the object at the placement stamped at or before ``horizon``, in stamp order
        (ties by id)."""
        return self._conn.execute(
            f"SELECT {MISS_COLS} FROM misses WHERE object_id = ? AND stamp <= ? AND placement_id = ? "
            "ORDER BY stamp, id", (object_id, horizon, placement_id)).fetchall()

    def removal_miss_frames(self, object_id: int, placement_id: int) -> set[int] | None:
        """The frames the removal events of the placement cite for its misses (detail ``miss_frames``); None
        when no event records its removal (one never published: its audit row cites them)."""
        rows = self._conn.execute("SELECT detail FROM events WHERE object_id = ? AND kind = 'removed' AND "
                                  "before_id = ?", (object_id, placement_id)).fetchall()
        if not rows:
            return None
        return {int(f) for r in rows for f in json.loads(r[0]).get("miss_frames", [])}

    def delete_misses(self, miss_ids: list[int]) -> None:
        for chunk, marks in id_chunks(miss_ids):
            self._conn.execute(f"DELETE FROM misses WHERE id IN ({marks})", chunk)

    # ---------------------------------------------------------------- the pass: audit rows
    def audit_after(self, cursor: int, limit: int) -> list:
        """(id, action, object_ids, observation_ids) of the first ``limit`` audit rows after ``cursor``, by id."""
        return self._conn.execute("SELECT id, action, object_ids, observation_ids FROM audit WHERE id > ? ORDER BY id "
                                  "LIMIT ?", (cursor, limit)).fetchall()

    def delete_audit(self, audit_ids: list[int]) -> None:
        for chunk, marks in id_chunks(audit_ids):
            self._conn.execute(f"DELETE FROM audit WHERE id IN ({marks})", chunk)

    # ---------------------------------------------------------------- possible twins
    def placement_object(self, placement_id: int) -> tuple[ObjectRow, bool] | None:
        """(the row of the placement's object, whether the placement is its current one); None when there is no
        such placement."""
        row = self._conn.execute(f"SELECT {OBJECT_COLS_O}, p.current FROM placements p JOIN objects o "
                                 "ON o.id = p.object_id WHERE p.id = ?", (placement_id,)).fetchone()
        return None if row is None else (ObjectRow._make(row[:-1]), bool(row[-1]))

    def last_placement_id(self, object_id: int):
        """The object's newest placement id (None when it has none)."""
        return self._conn.execute("SELECT MAX(id) FROM placements WHERE object_id=?", (object_id,)).fetchone()[0]

    def placement_is_current(self, placement_id: int) -> bool:
        return self._conn.execute("SELECT 1 FROM placements WHERE id=? AND current=1",
                                  (placement_id,)).fetchone() is not None

    # ---------------------------------------------------------------- objects seen together
    def coseen_pairs(self) -> set:
        """Every recorded pair (a, b), a < b, of objects once detected in one frame."""
        return {(int(a), int(b)) for a, b in self._conn.execute("SELECT a, b FROM coseen")}

    def coseen_partners(self, object_id: int) -> set:
        """The objects recorded as once detected in one frame with ``object_id``."""
        return {int(a if b == object_id else b) for a, b in self._conn.execute(
            "SELECT a, b FROM coseen WHERE a=? OR b=?", (object_id, object_id))}

    def add_coseen(self, pairs: list[tuple]) -> None:
        """Record these (a, b) pairs, a < b (a pair already recorded stays as it is)."""
        self._conn.executemany("INSERT OR IGNORE INTO coseen (a, b) VALUES (?, ?)", pairs)

    def seen_together(self, a: int, b: int) -> bool:
        """Whether the two objects were ever detected in one frame (seen_together_in)."""
        return seen_together_in(self._conn, a, b)

    # ---------------------------------------------------------------- tallies
    def insert_stamp_run(self, n: int, t_first: float, t_last: float, id_first: int, id_last: int, ids: bytes,
                         stamps: bytes, at: float) -> None:
        """One tally row of kind 'stamps' (stamplog.py): the recorded stamps of the sightings a pass looked at."""
        self._conn.execute(
            "INSERT INTO tallies (kind, object_id, placement_id, group_key, n, t_first, t_last, id_first, id_last, "
            "ids, stamps, thinned_at) VALUES ('stamps', NULL, NULL, '', ?,?,?,?,?,?,?,?)",
            (n, t_first, t_last, id_first, id_last, ids, stamps, at))

    def last_tally(self, placement_id, kind: str, group_key: str):
        """The newest tally row (id, object_id, n, ids, stamps, t_first, t_last) of the group; None when none."""
        return self._conn.execute(
            "SELECT id, object_id, n, ids, stamps, t_first, t_last FROM tallies WHERE placement_id IS ? AND kind = ? "
            "AND group_key = ? ORDER BY id DESC LIMIT 1", (placement_id, kind, group_key)).fetchone()

    def update_tally(self, tally_id: int, n: int, t_first: float, t_last: float, id_first: int, id_last: int,
                     ids: bytes, stamps: bytes, at: float) -> None:
        self._conn.execute(
            "UPDATE tallies SET n=?, t_first=?, t_last=?, id_first=?, id_last=?, ids=?, stamps=?, thinned_at=? "
            "WHERE id=?", (n, t_first, t_last, id_first, id_last, ids, stamps, at, tally_id))

    def insert_tally(self, kind: str, object_id, placement_id, group_key: str, n: int, t_first: float,
                     t_last: float, id_first: int, id_last: int, ids: bytes, stamps: bytes, at: float) -> None:
        self._conn.execute(
            "INSERT INTO tallies (kind, object_id, placement_id, group_key, n, t_first, t_last, id_first, id_last, "
            "ids, stamps, thinned_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (kind, object_id, placement_id, group_key, n, t_first, t_last, id_first, id_last, ids, stamps, at))

    def sighting_tally_spans(self) -> list:
        """(id, t_first, t_last) of every sighting tally row, by id."""
        return self._conn.execute("SELECT id, t_first, t_last FROM tallies WHERE kind='sighting' "
                                  "ORDER BY id").fetchall()

    def tally_row(self, tally_id: int):
        """Every column of one tally row."""
        return self._conn.execute("SELECT * FROM tallies WHERE id=?", (tally_id,)).fetchone()

    def rewrite_tally(self, tally_id: int, n: int, t_first: float, t_last: float, id_first: int, id_last: int,
                      ids: bytes, stamps: bytes) -> None:
        """The row holds these items instead (retention.close_tally_days: the first day of a row it splits)."""
        self._conn.execute("UPDATE tallies SET n=?, t_first=?, t_last=?, id_first=?, id_last=?, ids=?, stamps=? "
                           "WHERE id=?", (n, t_first, t_last, id_first, id_last, ids, stamps, tally_id))

    def stamp_runs_from(self, lo: float, hi: float) -> list:
        """(n, ids, stamps) of the 'stamps' tally rows whose first stamp lies in [lo, hi], in the store's order
        (the runs are looked up by id, not by row order)."""
        return self._conn.execute(
            "SELECT n, ids, stamps FROM tallies WHERE object_id IS NULL AND kind = 'stamps' AND t_first >= ? "
            "AND t_first <= ?", (lo, hi)).fetchall()

    def tallied_sightings(self, object_id: int) -> int:
        """The object's sightings counted in tallies (thinned)."""
        return int(self._conn.execute("SELECT COALESCE(SUM(n), 0) FROM tallies WHERE kind='sighting' AND object_id=?",
                                      (int(object_id),)).fetchone()[0])

    def sighting_tallies_across(self, object_ids: list[int], lo: float, hi: float, *, by_start: bool = False) -> list:
        """(object_id, n, t_first, t_last, ids, stamps) of the sighting tallies of these objects whose span meets
        [lo, hi], in the store's order (the caller counts them and keeps the latest by (stamp, id)). Read through
        tallies_sighting_last (schema version 8), from ``lo`` on: the unary + keeps SQLite from walking
        tallies_object instead, which reads every tally since the object's first day when ``hi`` is open. With
        ``by_start`` through tallies_object, up to ``hi``, for a window nearer the objects' first day than their
        last (Retention.tallied_in: a day-1 window asked on day 30 walked every later tally)."""
        marks = ",".join("?" for _ in object_ids)
        bounds = "t_first <= ? AND +t_last >= ?" if by_start else "+t_first <= ? AND t_last >= ?"
        return self._conn.execute(
            f"SELECT object_id, n, t_first, t_last, ids, stamps FROM tallies WHERE kind='sighting' AND object_id IN "
            f"({marks}) AND {bounds}", (*object_ids, hi, lo)).fetchall()

    def placement_thinned(self, placement_id) -> bool:
        """Whether a sighting tally counts sightings of the placement."""
        return self._conn.execute("SELECT 1 FROM tallies WHERE kind='sighting' AND placement_id=? LIMIT 1",
                                  (placement_id,)).fetchone() is not None

    def object_thinned(self, object_id: int) -> bool:
        """Whether a sighting tally counts sightings of the object."""
        return self._conn.execute("SELECT 1 FROM tallies WHERE kind='sighting' AND object_id=? LIMIT 1",
                                  (object_id,)).fetchone() is not None

    def tallies_spanning(self, observation_id: int):
        """The tally rows (every column) other than 'stamps' whose id range holds ``observation_id``, by id: a
        cursor, read lazily (the caller stops at the first that counts it)."""
        return self._conn.execute("SELECT * FROM tallies WHERE id_first <= ? AND id_last >= ? AND kind != 'stamps' "
                                  "ORDER BY id", (observation_id, observation_id))

    def rehome_tallies(self, src_id: int, dst_id: int, placement_id: int, copy_id: int) -> None:
        """src's sighting tallies of ``placement_id`` count sightings of dst at ``copy_id`` (and the placement's
        thinned sightings by label go with them: place_labels.py)."""
        self._conn.execute("UPDATE tallies SET object_id=?, placement_id=? WHERE kind='sighting' AND object_id=? "
                           "AND placement_id=?", (dst_id, copy_id, src_id, placement_id))
        self._move_thinned([int(placement_id)], copy_id)

    def retarget_tallies(self, src_id: int, dst_id: int) -> None:
        """src's remaining sighting tallies count sightings of dst (at the placements they name)."""
        self._conn.execute("UPDATE tallies SET object_id=? WHERE kind='sighting' AND object_id=?", (dst_id, src_id))

    def repoint_tallies(self, src_id: int, dst_id: int, placement_id) -> None:
        """Every sighting tally of src counts sightings of dst at ``placement_id`` (and the thinned sightings by
        label of the placements they named go with them: place_labels.py)."""
        self._move_thinned([int(r[0]) for r in self._conn.execute(
            "SELECT DISTINCT placement_id FROM tallies WHERE kind='sighting' AND object_id=? AND placement_id IS NOT "
            "NULL ORDER BY placement_id", (src_id,)).fetchall()], placement_id)
        self._conn.execute("UPDATE tallies SET object_id=?, placement_id=? WHERE kind='sighting' AND object_id=?",
                           (dst_id, placement_id, src_id))

    def _move_thinned(self, placement_ids: list[int], to) -> None:
        """The thinned sightings by label of these placements are counted at ``to`` (None: at no placement, as the
        tallies that count them), as their tallies now say."""
        for p in placement_ids:
            if to is not None and int(to) == p:
                continue
            if to is not None:
                self._conn.execute(
                    "INSERT INTO place_labels (placement_id, label, kept, thinned) SELECT ?, label, 0, thinned "
                    "FROM place_labels WHERE placement_id=? AND thinned > 0 ORDER BY label "
                    "ON CONFLICT (placement_id, label) DO UPDATE SET thinned = place_labels.thinned + excluded.thinned",
                    (int(to), p))
            self._conn.execute("UPDATE place_labels SET thinned = 0 WHERE placement_id=? AND thinned > 0", (p,))

    # ---------------------------------------------------------------- fold state
    def placement_state(self, placement_id: int):
        """(current, object_id) of the placement; None when there is none."""
        return self._conn.execute("SELECT current, object_id FROM placements WHERE id=?", (placement_id,)).fetchone()

    def fold_of(self, placement_id):
        """The saved fold row of the placement (every column); None when none is saved."""
        return self._conn.execute("SELECT * FROM fold_state WHERE placement_id=?", (placement_id,)).fetchone()

    def fold_cut(self, placement_id: int):
        """(cut_stamp, cut_id) of the placement's saved fold."""
        return self._conn.execute("SELECT cut_stamp, cut_id FROM fold_state WHERE placement_id=?",
                                  (placement_id,)).fetchone()

    def fold_placements_of(self, object_id: int) -> list:
        """(placement_id,) of each saved fold of the object, in the store's order (the caller asks for one)."""
        return self._conn.execute("SELECT placement_id FROM fold_state WHERE object_id=?", (object_id,)).fetchall()

    def save_fold(self, placement_id: int, object_id: int, state, exact: bool, late: str) -> None:
        """The placement's fold (a refold.FoldState) as of its last thinned sighting; ``late``: JSON list of the
        ids of sightings at or before the cut a rebuild still folds."""
        self._conn.execute(
            "INSERT OR REPLACE INTO fold_state (placement_id, object_id, cut_stamp, cut_id, n, "
            f"{', '.join(FOLD_COLS)}, exact, late) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (placement_id, int(object_id), state.key[0], state.key[1], state.n, *state.center, *state.lo,
             *state.hi, state.weight, *state.ext,
             None if state.feature is None else np.asarray(state.feature, dtype=np.float32).tobytes(),
             state.feature_weight, state.base, int(exact), late))

    def drop_fold(self, placement_id) -> None:
        self._conn.execute("DELETE FROM fold_state WHERE placement_id=?", (placement_id,))

    def drop_folds_of(self, object_id: int) -> None:
        self._conn.execute("DELETE FROM fold_state WHERE object_id=?", (object_id,))

    def drop_other_folds_of(self, object_id: int, placement_id: int) -> None:
        """The object's saved folds other than that of ``placement_id`` go."""
        self._conn.execute("DELETE FROM fold_state WHERE object_id=? AND placement_id != ?", (object_id, placement_id))

    def drop_closed_folds(self) -> None:
        """The saved folds of closed placements go (a closed placement is never rebuilt)."""
        self._conn.execute("DELETE FROM fold_state WHERE placement_id IN (SELECT f.placement_id FROM fold_state f "
                           "JOIN placements p ON p.id = f.placement_id WHERE p.current = 0)")

    def rehome_fold(self, placement_id: int, copy_id: int, object_id: int) -> None:
        """The saved fold of ``placement_id`` is that of ``copy_id``, a placement of ``object_id``."""
        self._conn.execute("UPDATE fold_state SET object_id=?, placement_id=? WHERE placement_id=?",
                           (object_id, copy_id, placement_id))

    def move_fold(self, placement_id: int, to_placement: int, object_id: int) -> None:
        """The saved fold of ``placement_id`` continues at ``to_placement``, a placement of ``object_id``."""
        self._conn.execute("UPDATE fold_state SET placement_id=?, object_id=? WHERE placement_id=?",
                           (to_placement, object_id, placement_id))

    def set_fold_exact(self, placement_id: int, exact: bool, late: str) -> None:
        self._conn.execute("UPDATE fold_state SET exact=?, late=? WHERE placement_id=?",
                           (int(exact), late, placement_id))

    # ---------------------------------------------------------------- sightings re-pointed
    def placement_ids_of(self, object_id: int) -> list[int]:
        """The ids of the object's placements, in the store's order (the caller builds a list it only filters)."""
        return [int(r[0]) for r in self._conn.execute("SELECT id FROM placements WHERE object_id=?", (object_id,))]

    def sighting_keys_at(self, placement_id: int) -> list:
        """(id, stamp) of the kept sightings of the placement, in the store's order."""
        return self._conn.execute("SELECT id, stamp FROM observations WHERE placement_id=?",
                                  (placement_id,)).fetchall()

    def sighting_keys_of(self, object_id: int) -> list:
        """(id, stamp) of the kept sightings of the object, in the store's order."""
        return self._conn.execute("SELECT id, stamp FROM observations WHERE object_id=?", (object_id,)).fetchall()

    # ---------------------------------------------------------------- reading
    def kept_by_placement(self, object_id: int) -> dict:
        """Placement id (or None) -> the object's sightings kept there."""
        return dict(self._conn.execute("SELECT placement_id, COUNT(*) FROM observations WHERE object_id=? "
                                       "GROUP BY placement_id", (int(object_id),)).fetchall())

    def thinned_by_placement(self, object_id: int) -> dict:
        """Placement id (or None) -> the object's sightings there counted in tallies."""
        return dict(self._conn.execute(
            "SELECT placement_id, SUM(n) FROM tallies WHERE kind='sighting' AND object_id=? GROUP BY placement_id",
            (int(object_id),)).fetchall())

    def placement_order(self, object_id: int) -> list[int]:
        """The ids of the object's placements, oldest first (ties by id)."""
        return [int(r[0]) for r in self._conn.execute(
            "SELECT id FROM placements WHERE object_id=? ORDER BY t_from, id", (int(object_id),))]

    # ---------------------------------------------------------------- the pass: the per-look label rule's visits
    def older_looks(self, horizon: float) -> list:
        """(object_id, visit_start, sector, label, mass, last) of every label_looks row of a visit older than its
        object's newest (the newest is the one FrameFusion.look_capped_mass continues or replaces; no decision reads
        the others) whose last sighting is at or before ``horizon``, in key order. The table holds each object's
        newest visit and the visits since the last pass, so the scan is bounded by the objects, not by the month;
        the newest visit is a seek on the key (object_id, visit_start)."""
        return self._conn.execute(
            "SELECT l.object_id, l.visit_start, l.sector, l.label, l.mass, l.last FROM label_looks l "
            "WHERE l.last <= ? AND l.visit_start < (SELECT MAX(m.visit_start) FROM label_looks m "
            "WHERE m.object_id = l.object_id) ORDER BY l.object_id, l.visit_start, l.sector, l.label",
            (float(horizon),)).fetchall()

    def fold_looks(self, counts: list[tuple], keys: list[tuple]) -> None:
        """Add ``counts`` (object_id, sector, label, visits, mass, first_start, last) to label_look_counts and delete
        the label_looks rows of ``keys`` (object_id, visit_start, sector, label): the visits they count."""
        self._conn.executemany(
            "INSERT INTO label_look_counts (object_id, sector, label, visits, mass, first_start, last) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT(object_id, sector, label) DO UPDATE SET "
            "visits = label_look_counts.visits + excluded.visits, mass = label_look_counts.mass + excluded.mass, "
            "first_start = CASE WHEN excluded.first_start < label_look_counts.first_start "
            "THEN excluded.first_start ELSE label_look_counts.first_start END, "
            "last = CASE WHEN excluded.last > label_look_counts.last THEN excluded.last "
            "ELSE label_look_counts.last END",
            counts)
        self._conn.executemany(
            "DELETE FROM label_looks WHERE object_id=? AND visit_start=? AND sector=? AND label=?", keys)

    def row_count(self, table: str) -> int:
        return int(self._conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    def tally_bytes(self) -> int:
        """Bytes of the tallies' ids and stamps."""
        return int(self._conn.execute("SELECT COALESCE(SUM(length(ids) + length(stamps)), 0) FROM tallies")
                   .fetchone()[0])

    def tallied_of_kind(self, kind: str) -> int:
        """Items counted in tallies of ``kind`` (sighting, rejected, miss)."""
        return int(self._conn.execute("SELECT COALESCE(SUM(n), 0) FROM tallies WHERE kind=?", (kind,)).fetchone()[0])


def seen_together_in(conn, a: int, b: int) -> bool:
    """Whether objects ``a`` and ``b`` were ever detected in one frame, on ``conn``: a pair recorded when its frames
    were thinned (coseen, one key lookup) first, then a kept sighting of each in one frame. The one reading behind
    RetentionRows.seen_together (Retention.seen_together: maintenance and the settling step) and
    FusionRows.seen_together (frame fusion). Why coseen first: the join of both objects' sightings by frame grows
    with the sightings kept and unsettled, and asked first (Settling._twins) it made a commit slower as a store aged
    (4.6 -> 7.1 s of _merge_twins for the same 40 s of frames into a household store of day 1 and of day 10)."""
    a, b = int(a), int(b)
    lo, hi = (a, b) if a < b else (b, a)
    if conn.execute("SELECT 1 FROM coseen WHERE a=? AND b=?", (lo, hi)).fetchone() is not None:
        return True
    return conn.execute(
        "SELECT 1 FROM observations x JOIN observations y ON y.frame_id = x.frame_id "
        "WHERE x.object_id = ? AND y.object_id = ? LIMIT 1", (a, b)).fetchone() is not None
