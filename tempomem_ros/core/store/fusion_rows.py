"""The statements only fusion runs (core/frame_fusion.py): a frame's staged sightings, the label-mass sums behind a
known confusion, the objects a label may re-identify, an object merged, created or moved, verdicts, low-confidence
keys, misses, removals and held events, behind named methods. The primitives it shares with the settling step and
maintenance (placements, label mass, the shown label, events, the R*Tree entry) are GraphWrites'.

Why a module of its own: the FrameFusion service decides (which sighting goes to which object, what is a move,
what the view should have shown); the rows it reads and writes are this module's, so nothing above the store layer
writes SQL. Each method runs inside Memory.commit()'s ``Store.fusing`` transaction. The statement texts are as they
were in the mixin: the PostgreSQL backend translates them by pattern (postgres/dialect.py).

Order: a method returns its rows in the order it states. Where a statement has no ORDER BY (kept so, to keep the
store byte-identical to the one the mixin wrote) the method says so, and its caller only builds a set from the
rows: the memory is deterministic only if every read that feeds a decision is. A method that runs two statements
says in which order and why.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..rows import OBJECT_COLS, SQL_ID_CHUNK, id_chunks, padded
from .object_row import ObjectRow, fetch_objects
from .base import StoreInterface, TableRows, fetch_each, fetch_together
from .retention_rows import RetentionRows, seen_together_in
from .settling_rows import SettlingRows

# A sighting ends the absence: evidence belongs to the time since the object was last seen (persistence.py).
ABSENCE_RESET = ("misses=0, first_miss=NULL, last_miss=NULL, absence_evidence=0, absence_looks=0, look_start=NULL, "
                 "look_misses=0, removal_due=NULL, ")
SHOWN_STATES = "('present','missing','tentative')"  # the objects fusion may match: shown, or not yet confirmed


class FusionRows(TableRows):
    """Rows of staged sightings, objects, label mass, rejected keys, misses and held events as fusion reads and
    writes them; the wall clock stamps a created object's row (created_wall)."""

    def __init__(self, store: StoreInterface, *, wall_clock: Callable[[], float]):
        super().__init__(store)
        self._wall_clock = wall_clock

    # ---------------------------------------------------------------- the frame
    # one column list for both reads of a frame's sightings: FrameFusion.fuse_frame unpacks them by position
    _SIGHTING_COLS = ("id", "stamp", "label", "confidence", "cx", "cy", "cz", "min_x", "min_y", "min_z", "max_x",
                      "max_y", "max_z", "feature", "n_points")
    _PENDING = (f"SELECT {', '.join(_SIGHTING_COLS)} "
                "FROM observations WHERE frame_id=? AND verdict='pending' ORDER BY id")

    def pending_sightings(self, frame_id: int) -> list:
        """The frame's staged (pending) observations, by id: id, stamp, label, confidence, centre, box, feature,
        valid points, in this column order (FrameFusion.fuse_frame reads them by position)."""
        return self._conn.execute(self._PENDING, (frame_id,)).fetchall()

    @classmethod
    def pending_sightings_read(cls, limit: int | None = None, through: float | None = None) -> tuple[str, list]:
        """One statement: the staged sightings of the frames RetentionRows.pending_frames(limit, through) selects,
        a row per sighting (the frame's id first, then pending_sightings' columns, by frame id then sighting id), and
        one row of NULLs for a frame with none (so that "no sighting" is told from "not read"). Memory._commit_locked
        sends it in the lock's round trip, after the frames' own read (Store.fusing): a frame staged between the two
        statements may change which frames this one selects; a frame the commit fuses that is not here is read
        again by itself (FrameFusion.sightings_read_with_frames), and one that is here and not fused is ignored. A
        frame's sightings are the same in both: staging inserts a frame with its sightings in one transaction, and
        only fusion, which holds the lock, changes a pending sighting."""
        frames, args = RetentionRows.pending_frames_read(limit, through, columns="f.id")
        cols = ", ".join(f"o.{c}" for c in cls._SIGHTING_COLS)
        return (f"SELECT p.id AS frame_of, {cols} FROM ({frames}) p LEFT JOIN observations o "
                "ON o.frame_id = p.id AND o.verdict='pending' ORDER BY p.id, o.id", args)

    @staticmethod
    def sightings_by_frame(rows) -> dict[int, list[tuple]]:
        """pending_sightings_read's rows: frame id -> its rows as pending_sightings gives them (by position)."""
        out: dict[int, list[tuple]] = {}
        for r in rows:
            kept = out.setdefault(int(r[0]), [])
            if r[1] is not None:
                kept.append(tuple(r[1:]))
        return out

    # ---------------------------------------------------------------- label mass (known confusions)
    _JOINT_MASS = ("SELECT COALESCE(SUM(MIN(x.mass, y.mass)), 0) FROM label_mass x JOIN label_mass y "
                   "ON y.object_id = x.object_id AND y.label = ? WHERE x.label = ?")
    _LABEL_TOTAL = "SELECT COALESCE(SUM(mass), 0) FROM label_mass WHERE label = ?"

    def joint_mass(self, a: str, b: str) -> float:
        """Summed over objects that received both labels: the smaller of their masses of ``a`` and ``b``."""
        return float(self._conn.execute(self._JOINT_MASS, (a, b)).fetchone()[0])

    def joint_masses(self, pairs: list[tuple[str, str]]) -> list[float]:
        """``[joint_mass(a, b) for a, b in pairs]``, on PostgreSQL in two round trips: which pairs of labels some
        object received both of (labels_together), then the same statement as joint_mass for those pairs only
        (base.fetch_each: the same sums to the last bit; a set-based GROUP BY could add in another order). A pair
        no object received both of sums over no row: 0, as joint_mass reads it.

        Why: fusion asks every pair of a frame's labels (190 for 20 labels) and of each sighting's candidates; at
        10,000 objects in bench_fleet those were 2 of a commit's 26 waits but about 200 of its 387 statements,
        each parsed, run and answered on its own (21.6 of a commit's 98 ms, bench_round_trips --by time), while
        almost no pair had an object in common."""
        pairs = list(pairs)
        labels = sorted({label for pair in pairs for label in pair})
        if not pairs or len(labels) > SQL_ID_CHUNK:
            asked = pairs
        else:
            together = self.labels_together(labels)
            asked = sorted({(a, b) for a, b in pairs if a == b or frozenset((a, b)) in together})
        sums = dict(zip(asked, (float(rows[0][0]) for rows in fetch_each(self._conn, self._JOINT_MASS, asked))))
        return [sums.get((a, b), 0.0) for a, b in pairs]

    def labels_together(self, labels: list[str]) -> set[frozenset]:
        """The pairs of two different ``labels`` that some object received both of (a label mass row each), as
        frozensets. Within a commit's batch (batch_reads.py) the pairs among every label asked so far are kept:
        the store is asked only for the pairs of a label not asked yet with every label asked (not for every pair of
        all of them again: that statement grew with the batch where frames bring new labels, as bench_fuser_batch's
        do; the server CPU per frame measured the same either way, docs/RESULTS.md section 7)."""
        batch = self._batch
        if batch is None:
            return self._labels_together(labels)
        kept = batch.pairs_among(labels)
        if kept is not None:
            return kept
        new = sorted(set(labels) - batch.labels)
        every = sorted(batch.labels | set(labels))
        if len(every) > SQL_ID_CHUNK:
            return self._labels_together(labels)
        batch.learn_pairs(every, self._labels_together(new, every))
        return batch.pairs_among(labels)

    def _labels_together(self, labels: list[str], others: list[str] | None = None) -> set[frozenset]:
        """The pairs of a label of ``labels`` and a different one of ``others`` (default: ``labels``) that some
        object received both of."""
        others = labels if others is None else others
        # SQLite: ``y.label || ''`` keeps its planner from probing label_mass's primary key (object_id, label)
        # once per label of ``others`` for every row of x (EXPLAIN QUERY PLAN: "SEARCH y USING PRIMARY KEY
        # (object_id=? AND label=?)"): with it, one probe by object_id and the label tested on the row, the same
        # pairs. The 20 labels of a frame at 10,000 objects (bench_fleet's store): 6.1-7.4 -> 1.0-1.1 ms a
        # statement (load 17, wall), where the 190 pairs' joint_mass read one by one took 10.4 ms. PostgreSQL keeps
        # the statement as it was measured (docs/RESULTS.md section 7).
        return {frozenset(r) for r in self._conn.execute(*self._labels_together_read(labels, others)).fetchall()}

    def _labels_together_read(self, labels: list[str], others: list[str]) -> tuple[str, tuple]:
        """_labels_together's statement and parameters."""
        y_label = "y.label" if self._store.reads_in_batches else "y.label || ''"
        labels, others = padded(labels), padded(others)  # a few texts, not one a pair of lengths (rows.id_chunks)
        return (f"SELECT DISTINCT x.label, y.label FROM label_mass x JOIN label_mass y ON y.object_id = x.object_id "
                f"AND y.label <> x.label WHERE x.label IN ({','.join('?' for _ in labels)}) "
                f"AND {y_label} IN ({','.join('?' for _ in others)})", (*labels, *others))

    def read_batch_ahead(self, labels) -> None:
        """At a batch's first frame (batch_reads.py), before it writes anything: the removals due by the batch's
        end, whether any event is held, and the pairs of the frame's ``labels`` some object received both of, in
        one round trip on PostgreSQL (base.fetch_together), where each was one when first asked (removals_due,
        held_with_objects, labels_together: 3 of a robot's commit's 8 waits, bench/fleet_round_trips.py). Each is
        the statement its reader sends, and is kept as that reader keeps it: ``due`` (written removals are noted
        in it from then on, as after removals_due's read), ``held_none`` only when none is held (a hold written
        later clears it, as it does after held_with_objects' read; rows held are read again where used: their
        objects' columns change as the frame fuses), and the pairs as labels_together learns them for a batch
        that knows no label yet (joint_masses asks it with every label of the frame's pairs: the frame's labels
        when it has two or more)."""
        batch = self._batch
        if batch is None or batch.due is not None:
            return
        labels = sorted(set(labels))
        reads = [(SettlingRows.DUE_BY, (batch.until,))]
        held = not batch.held_none
        if held:
            reads.append((SettlingRows.HELD_WITH_OBJECTS, ()))
        pairs = not batch.labels and 2 <= len(labels) <= SQL_ID_CHUNK
        if pairs:
            reads.append(self._labels_together_read(labels, labels))
        rows = fetch_together(self._conn, reads)
        batch.due = {int(i): float(d) for i, d in rows[0]}
        if held and not rows[1]:
            batch.held_none = True
        if pairs:
            batch.learn_pairs(labels, {frozenset(r) for r in rows[-1]})

    _NEWEST_LOOKS = (
        "WITH RECURSIVE ids(id) AS (SELECT MIN(object_id) FROM label_looks UNION ALL "
        "SELECT (SELECT MIN(n.object_id) FROM label_looks n WHERE n.object_id > ids.id) FROM ids "
        "WHERE ids.id IS NOT NULL) "
        "SELECT l.object_id, l.visit_start, l.sector, l.label, l.mass, l.last FROM ids JOIN label_looks l "
        "ON l.object_id = ids.id AND l.visit_start = (SELECT MAX(m.visit_start) FROM label_looks m "
        "WHERE m.object_id = ids.id) ORDER BY l.object_id, l.sector, l.label")

    def label_look_state(self) -> tuple[dict, dict]:
        """The per-look label rule's stored state (schema version 16; FrameFusion.load_label_looks): {object id:
        {label: excess over fusion.label_look_cap}} from label_mass, and {object id: (last stamp, visit start,
        {(sector, label): mass})} of each object's newest visit from label_looks. Two reads, in one round trip on
        PostgreSQL (fetch_together), made when a writer opens the store and again only in a commit after another
        writer's commit or a rollback (WriterCaches.label_looks).

        The newest visits are read by seeks on the key (object_id, visit_start): the objects one after another (a
        recursive step to the next object id), each one's newest start, then its rows; the work grows with the
        objects, not with the visits a store kept (keep-all keeps every one; before, a GROUP BY read the whole
        table: docs/RESULTS.md section 6, round 17)."""
        excess_rows, look_rows = fetch_together(self._conn, [
            ("SELECT object_id, label, excess FROM label_mass WHERE excess != 0 ORDER BY object_id, label", ()),
            (self._NEWEST_LOOKS, ())])
        excess: dict[int, dict[str, float]] = {}
        for object_id, label, m in excess_rows:
            excess.setdefault(int(object_id), {})[label] = float(m)
        looks: dict[int, tuple[float, float, dict]] = {}
        for object_id, start, sector, label, m, last in look_rows:
            prev = looks.get(int(object_id))
            tally = prev[2] if prev else {}
            tally[(int(sector), label)] = float(m)
            looks[int(object_id)] = (max(float(last), prev[0]) if prev else float(last), float(start), tally)
        return excess, looks

    def label_total(self, label: str) -> float:
        """The label's mass over every object."""
        return float(self._conn.execute(self._LABEL_TOTAL, (label,)).fetchone()[0])

    def label_totals(self, labels: list[str]) -> list[float]:
        """``[label_total(x) for x in labels]``, on PostgreSQL in one round trip (as joint_masses)."""
        return [float(rows[0][0]) for rows in fetch_each(self._conn, self._LABEL_TOTAL, [(x,) for x in labels])]

    # ---------------------------------------------------------------- identity
    def count_shown_as(self, labels: list[str]) -> int:
        """How many present, missing or tentative objects show one of ``labels``."""
        marks = ",".join("?" for _ in labels)
        return int(self._conn.execute(
            f"SELECT COUNT(*) FROM objects WHERE COALESCE(pinned_label, label) IN ({marks}) AND state IN "
            f"{SHOWN_STATES}", labels).fetchone()[0])

    def shown_as(self, labels: list[str], *, missing_only: bool) -> list[ObjectRow]:
        """Object rows (OBJECT_COLS) showing one of ``labels``, by id: present, missing or tentative ones, or only the
        missing ones."""
        marks = ",".join("?" for _ in labels)
        states = "('missing')" if missing_only else SHOWN_STATES
        return fetch_objects(self._conn.execute(
            f"SELECT {OBJECT_COLS} FROM objects WHERE COALESCE(pinned_label, label) IN ({marks}) AND state IN "
            f"{states} ORDER BY id", labels))

    def sighting_stamps(self, object_id: int) -> list[float]:
        """Stamps of the object's observations, in no stated order (the caller sorts a set of them)."""
        return [float(r[0]) for r in self._conn.execute(
            "SELECT stamp FROM observations WHERE object_id=?", (object_id,))]

    def seen_together(self, a: int, b: int) -> bool:
        """Whether the two objects were ever detected in one frame (retention_rows.seen_together_in: the reading
        Retention.seen_together makes)."""
        return seen_together_in(self._conn, a, b)

    def placement_points(self, object_id: int, placement_id) -> list[int]:
        """The valid points of every sighting of the object's placement that has a count, in no stated order (the
        caller takes their median; frame_fusion.FrameFusion._thin_push, whose sighting carries its own count from
        staging). Why only those: n_points 0 is a caller that sends no count (the Observation default), and three
        such sightings of four put the median at 0, so that a 40-point sliver against the counted views' 1000
        pushed a chair aside (test_core_thin_push)."""
        return [int(r[0]) for r in self._conn.execute(
            "SELECT n_points FROM observations WHERE object_id=? AND placement_id IS ? AND n_points > 0",
            (object_id, placement_id))]

    def placement_sightings(self, object_id: int, placement_id) -> list:
        """The sightings of the object's placement as a fold reads them (core/refold.py), in stamp order: the
        size consensus (core/size_consensus.py) refolds the views that agree."""
        return self._conn.execute(
            "SELECT id, stamp, confidence, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, feature, reason "
            "FROM observations WHERE object_id=? AND placement_id IS ? ORDER BY stamp, id",
            (object_id, placement_id)).fetchall()

    # ---------------------------------------------------------------- merge / create / move
    def merge_into(self, object_id: int, box_mid, mean, zt: float, zb: float, lo, hi, weight: float, ext,
                   feature_blob, feature_weight: float, base: float, stamp: float, *, confirms: bool,
                   vec_dirty: bool) -> None:
        """A sighting merged into the object: its fused state, seen at ``stamp``, one more sighting, its absence
        over; a tentative object becomes present when ``confirms`` (its sightings hold a confirming run), any
        other one is present; the vector index entry is rewritten when ``vec_dirty``."""
        self._conn.execute(
            "UPDATE objects SET cx=?, cy=?, cz=?, mx=?, my=?, mz=?, zt=?, zb=?, min_x=?, min_y=?, min_z=?, max_x=?, "
            "max_y=?, max_z=?, weight=?, ext_x=?, ext_y=?, ext_z=?, feature=?, feature_weight=?, confidence=?, "
            "base_confidence=?, first_seen=MIN(first_seen, ?), last_seen=MAX(last_seen, ?), "
            "n_observations=n_observations+1, " + ABSENCE_RESET +
            "state=CASE WHEN state != 'tentative' OR ? = 1 THEN 'present' ELSE state END, "
            "vec_dirty=MAX(vec_dirty, ?) WHERE id=?",
            (*box_mid, *mean, zt, zb, *lo, *hi, weight, *ext, feature_blob, feature_weight, base, base, stamp,
             stamp, int(confirms), int(vec_dirty), object_id))
        if self._batch is not None:
            self._batch.set_due(object_id, None)  # ABSENCE_RESET

    def widen_placement(self, placement_id: int, box_mid, lo, hi, stamp: float) -> None:
        """The current placement takes the merged box and spans ``stamp``."""
        self._conn.execute(
            "UPDATE placements SET cx=?, cy=?, cz=?, min_x=?, min_y=?, min_z=?, max_x=?, max_y=?, max_z=?, "
            "t_from=MIN(t_from, ?), t_last=MAX(t_last, ?) WHERE id=?",
            (*box_mid, *lo, *hi, stamp, stamp, placement_id))

    def insert_object(self, label: str, confidence: float, box_mid, center, zt: float, zb: float, lo, hi,
                      weight: float, ext, feature_blob, feature_weight: float, state: str, stamp: float,
                      mass: float) -> int:
        """A new object from one sighting, then its first label mass (``mass`` of ``label``): in this order, the
        mass row names the object. Returns its id."""
        cur = self._conn.execute(
            "INSERT INTO objects (label, confidence, base_confidence, cx, cy, cz, mx, my, mz, zt, zb, min_x, min_y, "
            "min_z, max_x, max_y, max_z, weight, ext_x, ext_y, ext_z, feature, feature_weight, state, first_seen, "
            "last_seen, n_observations, n_moves, misses, region_id, created_wall) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,1,0,0,0,?)",
            (label, confidence, confidence, *box_mid, *center, zt, zb, *lo, *hi, weight, *ext, feature_blob,
             feature_weight, state, stamp, stamp, self._wall_clock()))
        object_id = int(cur.lastrowid)
        self._conn.execute("INSERT INTO label_mass (object_id, label, mass) VALUES (?,?,?)",
                           (object_id, label, mass))
        return object_id

    def move_to(self, object_id: int, box_mid, center, zt: float, zb: float, lo, hi, weight: float, ext,
                feature_blob, feature_weight: float, base: float, stamp: float) -> None:
        """The object seen elsewhere: its state starts again from the sighting (box, centroid, weight), one more
        sighting and one more move, its absence over, present."""
        self._conn.execute(
            "UPDATE objects SET cx=?, cy=?, cz=?, mx=?, my=?, mz=?, zt=?, zb=?, min_x=?, min_y=?, min_z=?, max_x=?, "
            "max_y=?, max_z=?, weight=?, ext_x=?, ext_y=?, ext_z=?, feature=?, feature_weight=?, confidence=?, "
            "base_confidence=?, last_seen=MAX(last_seen, ?), n_observations=n_observations+1, n_moves=n_moves+1, "
            + ABSENCE_RESET + "state='present', vec_dirty=1 WHERE id=?",
            (*box_mid, *center, zt, zb, *lo, *hi, weight, *ext, feature_blob, feature_weight, base, base, stamp,
             object_id))
        if self._batch is not None:
            self._batch.set_due(object_id, None)  # ABSENCE_RESET

    # ---------------------------------------------------------------- verdicts
    def set_verdict(self, observation_id: int, verdict: str, reason: str, object_id, candidate_id, score,
                    placement_id) -> None:
        self._conn.execute(
            "UPDATE observations SET verdict=?, reason=?, object_id=?, candidate_id=?, score=?, placement_id=? "
            "WHERE id=?", (verdict, reason, object_id, candidate_id, score, placement_id, observation_id))

    def reject(self, observation_id: int, reason: str, candidate_id, score, key: str | None) -> None:
        """The sighting is rejected (``key``: its low-confidence key, or None)."""
        self._conn.execute(
            "UPDATE observations SET verdict='rejected', reason=?, candidate_id=?, score=?, reject_key=? "
            "WHERE id=?", (reason, candidate_id, score, key, observation_id))

    def record_parts(self, main_id: int, part_ids: list[int]) -> None:
        """The sightings ``part_ids`` are parts of sighting ``main_id``: they take its object and placement, and its
        verdict (rejected stays rejected, anything else is merged). Reads the main sighting's verdict first, so it
        must run after that verdict was written."""
        row = self._conn.execute("SELECT verdict, object_id, placement_id FROM observations WHERE id=?",
                                 (main_id,)).fetchone()
        marks = ",".join("?" for _ in part_ids)
        self._conn.execute(
            f"UPDATE observations SET verdict=?, reason='part', object_id=?, candidate_id=?, placement_id=? "
            f"WHERE id IN ({marks})", (row["verdict"] if row["verdict"] == "rejected" else "merged", row["object_id"],
                                       row["object_id"], row["placement_id"], *part_ids))

    # ---------------------------------------------------------------- low-confidence keys
    def add_rejected(self, key: str, label: str, cell, mass: float, stamp: float, best_candidate):
        """One more low-confidence sighting under ``key`` (label + grid cell), then the key's totals including it:
        its row's mass, count and promoted_object_id."""
        self._conn.execute(
            "INSERT INTO rejected (key, label, cell_x, cell_y, cell_z, mass, count, first_stamp, last_stamp, "
            "best_candidate) VALUES (?,?,?,?,?,?,1,?,?,?) ON CONFLICT(key) DO UPDATE SET "
            "mass=mass+excluded.mass, count=count+1, last_stamp=MAX(last_stamp, excluded.last_stamp), "
            "best_candidate=COALESCE(excluded.best_candidate, best_candidate)",
            (key, label, *cell, mass, stamp, stamp, best_candidate))
        return self._conn.execute("SELECT mass, count, promoted_object_id FROM rejected WHERE key=?",
                                  (key,)).fetchone()

    def promote(self, key: str, object_id: int, observation_id: int) -> list[int]:
        """The key's evidence created ``object_id`` from sighting ``observation_id``: the key names the object and the
        sighting names the key. Returns the ids of the key's rejected sightings, ascending (the promoting one,
        created by now, is not among them)."""
        self._conn.execute("UPDATE rejected SET promoted_object_id=? WHERE key=?", (object_id, key))
        self._conn.execute("UPDATE observations SET reject_key=? WHERE id=?", (key, observation_id))
        return [int(r[0]) for r in self._conn.execute(
            "SELECT id FROM observations WHERE reject_key=? AND verdict='rejected' ORDER BY id", (key,))]

    # ---------------------------------------------------------------- absence evidence
    def add_miss(self, object_id: int, frame_id: int, placement_id, stamp: float, visible_fraction: float,
                 state, removal_due) -> None:
        """A miss of the object in this frame: its misses row, then the object's absence state (persistence.
        AbsenceState ``state``) and when its removal is due."""
        self._conn.execute(
            "INSERT INTO misses (object_id, frame_id, placement_id, stamp, visible_fraction) VALUES (?,?,?,?,?)",
            (object_id, frame_id, placement_id, stamp, visible_fraction))
        self._conn.execute(
            "UPDATE objects SET misses=misses+1, first_miss=?, last_miss=?, absence_evidence=?, absence_looks=?, "
            "look_start=?, look_misses=?, removal_due=? WHERE id=?",
            (state.first_miss, state.last_miss, state.evidence, state.looks, state.look_start, state.look_misses,
             removal_due, object_id))
        if self._batch is not None:
            self._batch.set_due(object_id, removal_due)

    def reporting_poses(self, placement_ids: list[int], min_points: int) -> list:
        """(placement_id, frame id, frame pose) of the kept sightings at these placements whose masks kept at least
        ``min_points`` points, one per frame, the pose in either stored form (retention.camera_position reads both);
        in the store's order (frame_fusion.reported_here asks whether any lies near the camera). One per frame: an
        object reported in parts (record_parts) has two sightings of one placement in one frame, one camera that
        would pass absence.reported_view_sightings = 2 alone."""
        out = []
        for chunk, marks in id_chunks(sorted({int(p) for p in placement_ids})):
            out += self._conn.execute(
                "SELECT DISTINCT o.placement_id, o.frame_id, f.pose FROM observations o "
                "JOIN frames f ON f.id = o.frame_id "
                f"WHERE o.placement_id IN ({marks}) AND o.n_points >= ? AND f.pose IS NOT NULL",
                (*chunk, int(min_points))).fetchall()
        return out

    def earlier_sizes(self, object_ids: list[int]) -> dict[int, list[tuple[float, float, float]]]:
        """The box sizes (x, y, z) of every closed placement of each object (where it stood before it moved or was
        removed), by object id; objects with none are left out (frame_fusion._known_size_detectable)."""
        out: dict[int, list[tuple[float, float, float]]] = {}
        for chunk, marks in id_chunks(sorted({int(i) for i in object_ids})):
            for row in self._conn.execute(
                    "SELECT object_id, max_x - min_x, max_y - min_y, max_z - min_z FROM placements "
                    f"WHERE object_id IN ({marks}) AND current = 0 AND t_to IS NOT NULL", tuple(chunk)).fetchall():
                out.setdefault(int(row[0]), []).append((float(row[1]), float(row[2]), float(row[3])))
        return out

    def sighting_cameras(self, placement_id: int) -> list:
        """(frame pose, fx, fy, cx, cy, width, height, max_range) of every kept sighting at the placement whose frame
        kept its pose, in the store's order (sighted_floor.py: the views that detected the object there)."""
        return self._conn.execute(
            "SELECT f.pose, f.fx, f.fy, f.cx, f.cy, f.width, f.height, f.max_range FROM observations o "
            "JOIN frames f ON f.id = o.frame_id WHERE o.placement_id = ? AND f.pose IS NOT NULL ORDER BY o.id",
            (int(placement_id),)).fetchall()

    def set_frame_misses(self, frame_id: int, n_misses: int) -> None:
        self._conn.execute("UPDATE frames SET n_misses=? WHERE id=?", (n_misses, frame_id))

    # ---------------------------------------------------------------- removal
    def mark_missing(self, object_id: int) -> None:
        """The object is removed: missing, no removal pending, its vector index entry rewritten."""
        self._conn.execute("UPDATE objects SET state='missing', removal_due=NULL, vec_dirty=1 WHERE id=?",
                           (object_id,))
        if self._batch is not None:
            self._batch.set_due(object_id, None)

    def miss_frames(self, object_id: int, placement_id, since: float) -> list[int]:
        """Frame ids of the object's misses at the placement stamped at or after ``since``, in stamp order (ties
        by miss id)."""
        return [int(r[0]) for r in self._conn.execute(
            "SELECT frame_id FROM misses WHERE object_id=? AND placement_id=? AND stamp>=? ORDER BY stamp, id",
            (object_id, placement_id, since))]

    # ---------------------------------------------------------------- held events
    def hold_event(self, stamp: float, kind: str, object_id: int, before_id, after_id, evidence) -> None:
        """An event published later, once the state it announces has held (settling.py)."""
        self._conn.execute(
            "INSERT INTO held_events (kind, object_id, stamp, held_at, before_id, after_id, evidence) "
            "VALUES (?,?,?,?,?,?,?)", (kind, object_id, stamp, stamp, before_id, after_id, json.dumps(list(evidence))))
        if self._batch is not None:
            self._batch.held_none = False
