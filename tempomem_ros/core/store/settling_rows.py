"""The statements only the settling step runs (core/settling.py): removals due, held events, the sightings and
placements a twin join or a reconciled move carries over, the fused state one object takes from another, and the
events of a retired twin, behind named methods. The primitives it shares with fusion and maintenance (placements
opened and closed, label mass, a label settled, sightings re-pointed, events, retiring an object) are
GraphWrites'; a placement's row is PlacementRows'.

Why a module of its own: the Settling service decides (which removal is a move, which two objects are one, when
a held event is published); the rows it reads and writes are this module's, so nothing above the store layer
writes SQL. Each method runs inside the caller's ``Store.transaction()`` (the settling step runs only inside
Memory.commit()'s). The statement texts are as they were in the mixin: the PostgreSQL backend translates them by
pattern (postgres/dialect.py).

Order: a method returns its rows in the order it states. Where a statement has no ORDER BY (kept so, as the
mixin wrote it) the method says so, and its caller only acts on each row alike: the memory is deterministic
only if every read that feeds a decision is.
"""

from __future__ import annotations

from ..rows import OBJECT_COLS, OBJECT_COLS_O, id_chunks
from .object_row import ObjectRow, fetch_keyed_objects, fetch_objects
from .base import TableRows


class SettlingRows(TableRows):
    """Rows of objects, held events, sightings, misses, placements and events as the settling step reads and
    writes them."""

    #: how many of an object's newest sightings newest_boxes reads (Settling._last_real_sighting, _host_holding_most)
    NEWEST_BOXES = 50
    #: every object whose removal hold ends by then, any state (BatchReads.due)
    DUE_BY = "SELECT id, removal_due FROM objects WHERE removal_due IS NOT NULL AND removal_due <= ?"
    HELD_WITH_OBJECTS = ("SELECT h.*, o.state, o.first_seen, o.last_seen, o.n_observations, o.label AS olabel, "
                         "o.pinned_label FROM held_events h JOIN objects o ON o.id = h.object_id "
                         "WHERE h.status = 'held' ORDER BY h.id")

    # ---------------------------------------------------------------- removals
    def removals_due(self, stamp: float, *, before: bool) -> list[ObjectRow]:
        """Present or tentative objects whose removal hold ends by ``stamp`` (``before``: strictly before it), in
        the order their holds end (removal_due, then id)."""
        batch = self._batch
        if batch is not None:  # batch_reads.py: the store is asked only when some removal may be due by then
            if batch.due is None:
                batch.due = {int(i): float(d) for i, d in self._conn.execute(self.DUE_BY, (batch.until,)).fetchall()}
            if not batch.may_be_due(stamp):
                return []
        op = "<" if before else "<="
        # the partial index: left to itself SQLite walked objects_state, every present object (1.3 ms at 10k)
        return fetch_objects(self._conn.execute(
            f"SELECT {OBJECT_COLS} FROM objects INDEXED BY objects_removal_due WHERE removal_due IS NOT NULL "
            f"AND removal_due {op} ? "
            "AND state IN ('present', 'tentative') ORDER BY removal_due, id", (stamp,)))

    # ---------------------------------------------------------------- held events
    def held_of(self, object_id: int) -> list:
        """Every event of the object still held (any kind). No ORDER BY (as the mixin wrote it): the caller
        resolves each row alike, so their order changes nothing."""
        return self._conn.execute("SELECT * FROM held_events WHERE object_id=? AND status='held'",
                                  (object_id,)).fetchall()

    def held_row(self, object_id: int, kind: str):
        """The object's held event of ``kind``, or None (an object holds at most one of a kind)."""
        return self._conn.execute("SELECT * FROM held_events WHERE object_id=? AND kind=? AND status='held'",
                                  (object_id, kind)).fetchone()

    def resolve_held(self, held_id: int, status: str, stamp: float, reason: str, event_id: int | None) -> None:
        """A held event is published (``event_id``: the event written for it) or retracted, at ``stamp``."""
        self._conn.execute("UPDATE held_events SET status=?, resolved_at=?, reason=?, event_id=? WHERE id=?",
                           (status, stamp, reason, event_id, held_id))

    def set_lookalike_wait(self, held_id: int, removed_id: int | None) -> None:
        """The removed look-alike whose wait a held appearance runs (None: no wait any more)."""
        self._conn.execute("UPDATE held_events SET lookalike_id=? WHERE id=?", (removed_id, held_id))

    def held_with_objects(self) -> list:
        """Every held event still held, with its object's state, first and last sighting, sighting count, label
        (``olabel``) and pinned label, in the order they were held (id)."""
        batch = self._batch
        if batch is not None and batch.held_none:  # batch_reads.py: none held since a read found none
            return []
        rows = self._conn.execute(self.HELD_WITH_OBJECTS).fetchall()
        if batch is not None and not rows:
            batch.held_none = True
        return rows

    def appeared_since(self, first_seen: float, exclude_id: int) -> list[ObjectRow]:
        """Present objects first seen at ``first_seen`` or later (not ``exclude_id``) whose appearance is held or
        was published: where a removed object may have moved to, earliest first (first_seen, then id)."""
        return fetch_objects(self._conn.execute(
            f"SELECT {OBJECT_COLS_O} FROM held_events h JOIN objects o ON o.id = h.object_id "
            "WHERE h.status IN ('held', 'published') AND h.kind = 'appeared' "
            "AND o.state = 'present' "
            "AND o.first_seen >= ? AND o.id != ? "
            "ORDER BY o.first_seen, o.id",
            (first_seen, exclude_id)))

    # ---------------------------------------------------------------- sightings
    # The condition of one (object, label) pair, shared by the one-label and the many-label read.
    _SHARE_FROM = ("FROM objects o JOIN label_mass m ON m.object_id = o.id AND m.label {} "
                   "WHERE o.state = 'missing' AND m.mass >= ? * "
                   "(SELECT SUM(t.mass) FROM label_mass t WHERE t.object_id = o.id)")

    def missing_with_label_share(self, label: str, share: float) -> list[ObjectRow]:
        """Missing objects whose label mass gives ``label`` at least ``share`` of their total, by id (the index
        label_mass_label finds the objects that ever received the label)."""
        return fetch_objects(self._conn.execute(
            f"SELECT {OBJECT_COLS_O} {self._SHARE_FROM.format('= ?')} ORDER BY o.id", (label, share)))

    def missing_with_label_shares(self, labels, share: float) -> dict[str, list[ObjectRow]]:
        """``{label: missing_with_label_share(label, share)}`` for each of ``labels``, in one statement for all of
        them (SQL_ID_CHUNK labels a statement). Each row passes or fails the same test of its own (object, label)
        pair as in the one-label read, so each label gets the same rows, by id. Why: the settling step asked it
        once for each held appearance of a frame, a round trip each on PostgreSQL (Settling._release_held)."""
        out: dict[str, list[ObjectRow]] = {str(label): [] for label in labels}
        for chunk, marks in id_chunks(sorted(out)):
            for label, row in fetch_keyed_objects(self._conn.execute(
                    f"SELECT m.label, {OBJECT_COLS_O} {self._SHARE_FROM.format(f'IN ({marks})')} "
                    "ORDER BY m.label, o.id", (*chunk, share))):
                out[label].append(row)
        return out

    def newest_boxes(self, object_id: int):
        """(stamp, min_x .. max_z) of the object's NEWEST_BOXES newest sightings, newest first (stamp, then id,
        descending). A cursor, not a list: Settling._last_real_sighting stops at the first real view, usually the
        newest (_host_holding_most reads it whole)."""
        return self._conn.execute(
            "SELECT stamp, min_x, min_y, min_z, max_x, max_y, max_z FROM observations "
            f"WHERE object_id=? ORDER BY stamp DESC, id DESC LIMIT {self.NEWEST_BOXES}", (object_id,))

    def sighting_boxes(self, object_id: int) -> list:
        """(min_x .. max_z) of the object's kept sightings, oldest first (stamp, then id)."""
        return self._conn.execute(
            "SELECT min_x, min_y, min_z, max_x, max_y, max_z FROM observations "
            "WHERE object_id=? ORDER BY stamp, id", (object_id,)).fetchall()

    def label_confidences(self, object_id: int) -> dict[str, tuple[int, float]]:
        """{label: (kept sightings read under it, their summed confidence)} of the object (Settling._named_in_one_look
        compares what its look read under two labels)."""
        return {str(r[0]): (int(r[1]), float(r[2])) for r in self._conn.execute(
            "SELECT label, COUNT(*), SUM(confidence) FROM observations WHERE object_id=? GROUP BY label",
            (object_id,)).fetchall()}

    def observation_ids(self, object_id: int) -> list[int]:
        """Ids of the object's sightings, oldest first (stamp, then id): the audit lists them, the newest is an
        event's evidence."""
        return [int(r[0]) for r in self._conn.execute(
            "SELECT id FROM observations WHERE object_id=? ORDER BY stamp, id", (object_id,))]

    def rehome_sightings(self, src_id: int, dst_id: int, copies: dict[int, int]) -> None:
        """The sightings and misses of ``src_id`` become ``dst_id``'s, each at its placement's copy (``copies``:
        placement -> copy, in the caller's order); those at no copied placement keep theirs. Observations first,
        then misses, as the mixin wrote them."""
        for table in ("observations", "misses"):
            for q, c in copies.items():
                self._conn.execute(f"UPDATE {table} SET object_id=?, placement_id=? WHERE object_id=? AND "
                                   "placement_id=?", (dst_id, c, src_id, q))
            self._conn.execute(f"UPDATE {table} SET object_id=? WHERE object_id=?", (dst_id, src_id))

    def miss_stamps_after(self, object_id: int, placement_id, stamp: float) -> list[float]:
        """The stamps of the object's misses at ``placement_id`` later than ``stamp``, in stamp order."""
        return [float(r[0]) for r in self._conn.execute(
            "SELECT stamp FROM misses WHERE object_id=? AND placement_id=? AND stamp>? ORDER BY stamp, id",
            (object_id, placement_id, stamp))]

    def misses_after(self, object_id: int, placement_id, stamp: float) -> list[tuple[float, float]]:
        """(stamp, visible fraction) of the object's misses at ``placement_id`` later than ``stamp``, in stamp
        order (partial_looks.py)."""
        return [(float(r[0]), float(r[1])) for r in self._conn.execute(
            "SELECT stamp, visible_fraction FROM misses WHERE object_id=? AND placement_id=? AND stamp>? "
            "ORDER BY stamp, id", (object_id, placement_id, stamp))]

    def miss_frames_and_sightings(self, object_id: int, placement_id, stamp: float) -> tuple[list[int], list[tuple]]:
        """The frames of the object's misses at ``placement_id`` later than ``stamp`` (in stamp order, one a miss),
        and (frame id, label, object id, bmin, bmax) of every kept sighting fused into another object in those
        frames, by miss stamp, then sighting id (Settling._held_candidates: what the views that missed it reported
        at its place). One read of the misses: each joined to its frame's sightings, a miss whose frame has none
        still counted."""
        frames, sightings = [], []
        last_miss = None
        for r in self._conn.execute(
                "SELECT m.id, m.frame_id, o.label, o.object_id, o.min_x, o.min_y, o.min_z, o.max_x, o.max_y, o.max_z "
                "FROM misses m LEFT JOIN observations o ON o.frame_id = m.frame_id AND o.object_id IS NOT NULL "
                "AND o.object_id<>? WHERE m.object_id=? AND m.placement_id=? AND m.stamp>? "
                "ORDER BY m.stamp, m.id, o.id", (object_id, object_id, placement_id, stamp)):
            if r[0] != last_miss:
                last_miss = r[0]
                frames.append(int(r[1]))
            if r[3] is not None:
                sightings.append((int(r[1]), str(r[2]), int(r[3]), (float(r[4]), float(r[5]), float(r[6])),
                                  (float(r[7]), float(r[8]), float(r[9]))))
        return frames, sightings

    def set_absence(self, object_id: int, misses: int, state, removal_due) -> None:
        """The object's absence evidence (persistence.AbsenceState ``state``, its ``misses`` count) and when its
        removal is due, as recomputed from the misses since its newest sighting."""
        self._conn.execute(
            "UPDATE objects SET misses=?, first_miss=?, last_miss=?, absence_evidence=?, absence_looks=?, "
            "look_start=?, look_misses=?, removal_due=? WHERE id=?",
            (misses, state.first_miss, state.last_miss, state.evidence, state.looks, state.look_start,
             state.look_misses, removal_due, object_id))
        if self._batch is not None:   # batch_reads.py keeps the due times in step (review of stop 35)
            self._batch.set_due(object_id, removal_due)

    # ---------------------------------------------------------------- objects
    def take_state(self, object_id: int, new, feature_blob, feature_weight: float, confidence: float,
                   moves: int) -> None:
        """``object_id`` takes the fused state of ``new`` (an object's row: its centre, box, extents, weight, last
        sighting and sighting count), the merged feature and confidence, ``moves`` more moves; it is present and
        its absence evidence starts again."""
        self._conn.execute(
            "UPDATE objects SET cx=?, cy=?, cz=?, mx=?, my=?, mz=?, zt=?, zb=?, min_x=?, min_y=?, min_z=?, max_x=?, "
            "max_y=?, max_z=?, weight=?, ext_x=?, ext_y=?, ext_z=?, feature=?, feature_weight=?, confidence=?, "
            "base_confidence=?, last_seen=MAX(last_seen, ?), n_observations=n_observations+?, n_moves=n_moves+?, "
            "misses=0, first_miss=NULL, last_miss=NULL, absence_evidence=0, absence_looks=0, look_start=NULL, "
            "look_misses=0, removal_due=NULL, state='present', vec_dirty=1 WHERE id=?",
            (new.cx, new.cy, new.cz, new.mx, new.my, new.mz, new.zt, new.zb,
             new.min_x, new.min_y, new.min_z, new.max_x, new.max_y, new.max_z, new.weight,
             new.ext_x, new.ext_y, new.ext_z, feature_blob, feature_weight, confidence, confidence,
             float(new.last_seen), int(new.n_observations), int(moves), object_id))
        if self._batch is not None:
            self._batch.set_due(object_id, None)

    def confirm(self, object_id: int) -> None:
        """A tentative object is confirmed (present)."""
        self._conn.execute("UPDATE objects SET state='present' WHERE id=?", (object_id,))

    def set_placement(self, object_id: int, placement_id: int | None, region_id) -> None:
        """The object's current placement and region (a rehomed object's: its twin's current one, copied)."""
        self._conn.execute("UPDATE objects SET placement_id=?, region_id=? WHERE id=?",
                           (placement_id, region_id, object_id))

    def labels_of(self, object_id: int):
        """(label, pinned_label) of the object, by name."""
        return self._conn.execute("SELECT label, pinned_label FROM objects WHERE id=?", (object_id,)).fetchone()

    # ---------------------------------------------------------------- placements
    def placements_of(self, object_id: int) -> list:
        """Every column of the object's placements (opened_by included: a copy keeps it), oldest first (t_from,
        then id)."""
        return self._conn.execute("SELECT * FROM placements WHERE object_id=? ORDER BY t_from, id",
                                  (object_id,)).fetchall()

    def copy_placement(self, q, object_id: int, opened_by: str) -> int:
        """A copy of placement row ``q`` for ``object_id`` (a closed placement is immutable: the original stays
        its object's history), opened by ``opened_by``. Returns its id."""
        cur = self._conn.execute(
            "INSERT INTO placements (object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, region_id, "
            "t_from, t_last, t_to, current, opened_by, closed_reason) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (object_id, q["cx"], q["cy"], q["cz"], q["min_x"], q["min_y"], q["min_z"], q["max_x"], q["max_y"],
             q["max_z"], q["region_id"], q["t_from"], q["t_last"], q["t_to"], q["current"], opened_by,
             q["closed_reason"]))
        return int(cur.lastrowid)

    def widen_placement(self, placement_id, t_from: float, t_last: float) -> None:
        """The placement held from ``t_from`` (or earlier) until ``t_last`` (or later), but never from before the
        end of the object's placement before it: an object is in one place at a time. Why: a twin first seen
        0.4 s before its object's push was stamped, joined into the pushed-to placement, widened it back over the
        old placement's last 0.4 s (seed 330 chair #2, the one of main's stores of seeds 330-332 with an overlap;
        0.2 s at seed 332); the twin's earliest sightings then lie just before the placement, as a move's do."""
        self._conn.execute(
            "UPDATE placements SET t_from=MIN(t_from, MAX(?, COALESCE((SELECT MAX(o.t_to) FROM placements o "
            "WHERE o.object_id = placements.object_id AND o.id <> placements.id AND o.t_to IS NOT NULL "
            "AND o.t_from <= placements.t_from), ?))), t_last=MAX(t_last, ?) WHERE id=?",
            (t_from, t_from, t_last, placement_id))

    # ---------------------------------------------------------------- events
    def moves_of(self, object_id: int) -> list:
        """(stamp, before_id, after_id, evidence, detail) of the object's published moves, in stamp order (ties
        by id)."""
        return self._conn.execute("SELECT stamp, before_id, after_id, evidence, detail FROM events WHERE "
                                  "object_id=? AND kind='moved' AND retracted=0 ORDER BY stamp, id",
                                  (object_id,)).fetchall()

    def count_published(self, object_id: int) -> int:
        """How many of the object's events are published and not retracted."""
        return int(self._conn.execute("SELECT COUNT(*) FROM events WHERE object_id=? AND retracted=0",
                                      (object_id,)).fetchone()[0])

    def retract_removals(self, object_id: int, placement_id, since: float) -> list[int]:
        """The object's published removals from ``placement_id`` stamped at or after ``since`` are retracted;
        their ids, oldest first."""
        if placement_id is None:
            return []
        where = "WHERE object_id=? AND kind='removed' AND before_id=? AND stamp>=? AND retracted=0"
        args = (object_id, placement_id, since)
        ids = [int(r[0]) for r in self._conn.execute(f"SELECT id FROM events {where} ORDER BY id", args).fetchall()]
        if ids:
            self._conn.execute(f"UPDATE events SET retracted=1 {where}", args)
        return ids

    def retract_events(self, object_id: int) -> None:
        """Every event of the object is retracted (a change later found wrong: never returned again)."""
        self._conn.execute("UPDATE events SET retracted=1 WHERE object_id=?", (object_id,))
