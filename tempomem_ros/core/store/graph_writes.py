"""The object graph's write primitives: the statements every write path shares (fusion, the settling step,
maintenance), each with the upkeep of the writer caches it touches, behind named methods.

Why here: placements opened and closed, label mass added, events, tombstones and the spatial index entry were
written by mixin methods of Memory that fusion, the settling step and maintenance all called through ``self``; every
one of them is a statement plus cache upkeep, with no fusion decision in it (the decisions: which placement
closes, when a label takes over, stay with their callers). Kept in one object, they are the one place that knows
how the graph is stored, and a service calls them without a reference to the Memory facade.

Nothing here opens a transaction: each method runs inside the caller's ``Store.transaction()``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from ..rows import id_chunks
from .base import StoreInterface, TableRows, fetch_each
from .object_row import ObjectRow, fetch_plain
from .objects import ObjectRows

RTREE_PAD = 0.05  # metres the spatial index's entry extends beyond an object's box (see GraphWrites.update_rtree)


@dataclass
class WriteState:
    """What the write side of one memory carries between its steps (one instance, shared by reference).

    Why an object of its own, passed to each service, rather than attributes of the facade: three writers touch
    it (fusion and the settling step inside Memory.commit(), maintenance outside it, and GraphWrites.event and
    .retire under all of them), and none of them may hold the facade. Memory exposes the same fields under its
    old attribute names, so a commit still resets them where it did.

    - ``events``: events written since Memory.commit() last reset it (CommitStats.events, and whether the
      commit changed anything);
    - ``change_times``: per commit, when an object's move or removal happened (relations change then);
      maintenance passes the dict as the last commit left it (it did so as a mixin; kept, so relation rows
      come out the same);
    - ``relabelled``: objects whose shown label changed in the frame being fused (settling.py reads it);
    - ``seen_rows``: the rows, as the frame found them, of the objects its sightings went to (settling.py's
      _rebuilt_moves compares their boxes with the fused ones);
    - ``seen_empty``: objects the frame being fused counted a miss of, their removal not due (settling.py's
      _seen_empty_moves asks whether a look-alike found elsewhere is that object, moved; read nowhere else, and
      deciding only where identity.unseen_join_evidence < absence.evidence_to_remove: its docstring says why).
    """
    events: int = 0
    change_times: dict[int, float] = field(default_factory=dict)
    relabelled: set[int] = field(default_factory=set)
    seen_rows: dict = field(default_factory=dict)
    seen_empty: set[int] = field(default_factory=set)


class GraphWrites(TableRows):
    """Placements, label mass, shown labels, sightings re-pointed, events, tombstones and index entries of objects,
    inside the caller's transaction.

    Built from the store and what its statements need: the relation keeper (the region a placement opens in,
    and the relations a retired object's rows close), the relation settings (relation_box_epsilon), the shared
    WriteState, the memory's stamp clock ("now" for an event's recorded_at), the wall clock (the wall_time of a
    tombstone and of a label_history row) and whether the store is read-only (a read-only reader does not cache
    label mass)."""

    def __init__(self, store: StoreInterface, relations, relation_config, state: WriteState, *,
                 now: Callable[[], float], wall_clock: Callable[[], float], readonly: bool = False):
        super().__init__(store)
        self._relations = relations
        self._relation_config = relation_config
        self.state = state
        self._now = now
        self._wall_clock = wall_clock
        self._readonly = readonly
        self._objects = ObjectRows(store)

    @property
    def _caches(self):
        return self._store.caches

    # ---------------------------------------------------------------- objects
    def object_row(self, object_id: int) -> ObjectRow | None:
        """The object's row (any state), or None: ObjectRows.row, the one statement for it."""
        return self._objects.row(object_id)

    def object_rows_ahead(self, ids) -> dict[int, ObjectRow] | None:
        """The rows of ``ids`` by id (ObjectRows.rows: one set-based read), read ahead for a loop that would read
        them one by one, on both backends (on SQLite one statement instead of 20 a frame at 14 us each in
        bench_commit_profile: docs/RESULTS.md section 7, round 11). The caller uses a row only while nothing it
        wrote can have changed it."""
        return {int(r.id): r for r in self._objects.rows(ids)}

    def widen_seen(self, object_id: int, first_seen: float, last_seen: float) -> None:
        """The object was seen from ``first_seen`` (or earlier) until ``last_seen`` (or later)."""
        self._conn.execute(
            "UPDATE objects SET first_seen=MIN(first_seen, ?), last_seen=MAX(last_seen, ?) WHERE id=?",
            (first_seen, last_seen, object_id))

    # ---------------------------------------------------------------- sightings
    def repoint_observations(self, src_id: int, dst_id: int, placement_id) -> None:
        """Every sighting of ``src_id`` becomes ``dst_id``'s, at ``placement_id`` (duplicates consolidated, a twin
        joined, a move reconciled; the caller adds the label mass)."""
        self._conn.execute("UPDATE observations SET object_id=?, placement_id=? WHERE object_id=?",
                           (dst_id, placement_id, src_id))

    # ---------------------------------------------------------------- placements
    def open_placement(self, object_id: int, center, lo, hi, stamp: float, opened_by: str) -> int:
        region_id = self._relations.region_of(center)
        self._conn.execute("UPDATE placements SET current=0 WHERE object_id=? AND current=1", (object_id,))
        cur = self._conn.execute(
            "INSERT INTO placements (object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, region_id, "
            "t_from, t_last, t_to, current, opened_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,NULL,1,?)",
            (object_id, *center, *lo, *hi, region_id, stamp, stamp, opened_by))
        placement_id = int(cur.lastrowid)
        self._conn.execute("UPDATE objects SET region_id=?, placement_id=? WHERE id=?",
                           (region_id, placement_id, object_id))
        return placement_id

    def close_placement(self, object_id: int, t_to: float, reason: str) -> None:
        self._conn.execute(
            "UPDATE placements SET t_to=MAX(?, t_last), current=0, closed_reason=? WHERE object_id=? AND current=1",
            (t_to, reason, object_id))
        self._conn.execute("UPDATE objects SET placement_id=NULL WHERE id=?", (object_id,))

    def end_removal_at_move(self, placement_id, t_move: float) -> dict | None:
        """A placement closed by a removal stamped after ``t_move`` ends at ``t_move`` (or its last sighting, if
        later), closed "moved": the object was seen at its new place from ``t_move``, so the removal (retracted by
        the move, settling._reconcile_move) was not when it left. Returns the amendment for the move's audit,
        {"id", "t_to_was", "closed_reason_was", "t_to"}, or None when the placement is not such a one (open,
        closed otherwise, or ending no later than ``t_move``) and nothing changed.

        Why: without it the object held two placements at once from ``t_move`` to the removal's stamp, the old one
        and the move's (long run, laptop #179: 4,147 s; dev seed 3's plant: 8 s), and an as-of read in that span
        listed it twice (scene_as_of) or at its old place (as_of). A closed placement is immutable (the trigger
        placements_closed_immutable, SQLite and PostgreSQL): this is the one amendment it allows (schema
        version 10, store/schema.py closed_placement_amendment), made in one statement whose WHERE names the
        placement it may touch. The result is read by a SELECT with the same condition in the same transaction,
        not from the UPDATE's rowcount: PostgreSQL pipelines a write transaction's UPDATE and reports -1."""
        if placement_id is None:
            return None
        where = ("WHERE id=? AND current=0 AND closed_reason='removed' AND t_to IS NOT NULL "
                 "AND t_to > MAX(?, t_last)")
        row = self._conn.execute(f"SELECT t_to, closed_reason, MAX(?, t_last) FROM placements {where}",
                                 (t_move, int(placement_id), t_move)).fetchone()
        if row is None:
            return None
        self._conn.execute(f"UPDATE placements SET t_to=MAX(?, t_last), closed_reason='moved' {where}",
                           (t_move, int(placement_id), t_move))
        return {"id": int(placement_id), "t_to_was": float(row[0]), "closed_reason_was": row[1],
                "t_to": float(row[2])}

    def set_placement_last(self, placement_id: int, t_last: float) -> None:
        """The placement was last seen at ``t_last`` (a copy takes its original's; a split-off group its newest)."""
        self._conn.execute("UPDATE placements SET t_last=? WHERE id=?", (t_last, placement_id))

    def current_placement_id(self, object_id: int) -> int | None:
        row = self._conn.execute("SELECT placement_id FROM objects WHERE id=?", (object_id,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def last_closed_placement(self, object_id: int, exclude: int | None = None) -> int | None:
        row = self._conn.execute(
            "SELECT id FROM placements WHERE object_id=? AND current=0 AND id != ? ORDER BY t_from DESC, id DESC "
            "LIMIT 1", (object_id, -1 if exclude is None else exclude)).fetchone()
        return None if row is None else int(row[0])

    # ---------------------------------------------------------------- label mass
    def label_mass(self, object_id: int) -> dict[str, float]:
        """The object's label mass; the writer caches it (every fusion score of a differently labelled
        neighbour needs it) and refreshes the entry whenever it adds mass."""
        cached = self._caches.label_mass.get(object_id)
        if cached is None:
            cached = dict(self._conn.execute(
                "SELECT label, mass FROM label_mass WHERE object_id=? ORDER BY label", (object_id,)).fetchall())
            if not self._readonly:
                self._caches.label_mass[object_id] = cached
        return dict(cached)

    def prefetch_label_mass(self, object_ids) -> None:
        """Cache the label mass of those of ``object_ids`` not cached yet: fusion scores every differently labelled
        candidate of a frame against it. On PostgreSQL in one round trip (base.fetch_each: one read per object was
        one wait each, bench_fleet); on SQLite in one statement for all of them (one a candidate cost 8 us each, 20
        a frame in bench_commit_profile: docs/RESULTS.md section 7, round 11), its rows by object in label order,
        as label_mass() reads them. Every write of label mass drops the object's entry (add_mass, add_mass_of,
        set/rebuild), so an entry read early holds what label_mass() would read later."""
        if self._readonly:
            return
        wanted = sorted({int(i) for i in object_ids} - self._caches.label_mass.keys())
        if not self._store.reads_in_batches:
            for object_id in wanted:
                self._caches.label_mass[object_id] = {}
            for chunk, marks in id_chunks(wanted):
                for object_id, label, mass in fetch_plain(self._conn.execute(
                        f"SELECT object_id, label, mass FROM label_mass WHERE object_id IN ({marks}) "
                        "ORDER BY object_id, label", chunk)):
                    self._caches.label_mass[int(object_id)][label] = mass
            return
        for object_id, rows in zip(wanted, fetch_each(
                self._conn, "SELECT label, mass FROM label_mass WHERE object_id=? ORDER BY label",
                [(i,) for i in wanted])):
            self._caches.label_mass[object_id] = dict(rows)

    def add_mass(self, object_id: int, label: str, mass: float, excess: float = 0.0) -> None:
        """``mass`` more of ``label`` on the object (a sighting fused into it), ``excess`` of it over what its look
        may give the label (fusion.label_look_cap: label_mass.excess, schema version 16), in the one statement."""
        self._conn.execute(
            "INSERT INTO label_mass (object_id, label, mass, excess) VALUES (?,?,?,?) ON CONFLICT(object_id, label) "
            "DO UPDATE SET mass=mass+excluded.mass, excess=excess+excluded.excess", (object_id, label, mass, excess))
        cached = self._caches.label_mass.pop(object_id, None)
        if self._caches.batch is not None:
            self._caches.batch.mass_added(label, cached)
        if cached is not None and label in cached:
            # the sum the statement stored (double + double, in either order the same value), the labels in the
            # order read (ORDER BY label): the entry label_mass() would read back now, without its round trip
            # (after each merge of a sighting under another label than the object's: 1 a frame, bench_fuser_batch)
            self._caches.label_mass[object_id] = {**cached, label: cached[label] + mass}

    def add_mass_of(self, src_id: int, dst_id: int) -> None:
        """``dst_id`` gains every label mass of ``src_id`` (its sightings now are ``dst_id``'s)."""
        for lbl, m in self.label_mass(src_id).items():
            self._conn.execute(
                "INSERT INTO label_mass (object_id, label, mass) VALUES (?,?,?) ON CONFLICT(object_id, label) "
                "DO UPDATE SET mass=mass+excluded.mass", (dst_id, lbl, m))
        self._caches.label_mass.pop(int(dst_id), None)
        if self._caches.batch is not None:
            self._caches.batch.forget_labels()

    def add_excess(self, object_id: int, excess: dict) -> None:
        """The object's looks gave each label of ``excess`` that much more over fusion.label_look_cap (a joined
        twin's excess, moved with its label mass by add_mass_of: its rows are there, so this only adds), in one
        statement: a VALUES row per label."""
        if not excess:
            return
        rows = sorted(excess.items())
        self._conn.execute(
            "INSERT INTO label_mass (object_id, label, mass, excess) VALUES "
            + ",".join("(?,?,0,?)" for _ in rows)
            + " ON CONFLICT(object_id, label) DO UPDATE SET excess=excess+excluded.excess",
            [v for label, m in rows for v in (object_id, label, m)])

    def set_look_mass(self, object_id: int, visit_start: float, sector: int, label: str, mass: float,
                      last: float) -> None:
        """The current visit's mass of ``label`` seen from ``sector`` is now ``mass``, its last sighting ``last``
        (label_looks, schema version 16: FrameFusion.look_capped_mass's tally)."""
        self._conn.execute(
            "INSERT INTO label_looks (object_id, visit_start, sector, label, mass, last) VALUES (?,?,?,?,?,?) "
            "ON CONFLICT(object_id, visit_start, sector, label) DO UPDATE SET mass=excluded.mass, last=excluded.last",
            (object_id, visit_start, sector, label, mass, last))

    def _kept_excess(self, object_id: int) -> list:
        return self._conn.execute("SELECT excess, label FROM label_mass WHERE object_id=? AND excess != 0 "
                                  "ORDER BY label", (object_id,)).fetchall()

    def _restore_excess(self, object_id: int, kept) -> None:
        """The excess read before the object's label mass was written again, back on the labels it still has
        (a label whose mass is gone takes its excess with it: the audit row of the split records the sightings)."""
        for excess, label in kept:
            self._conn.execute("UPDATE label_mass SET excess=? WHERE object_id=? AND label=?",
                               (excess, object_id, label))

    def set_label_mass(self, object_id: int, mass: dict) -> None:
        """The object's label mass becomes ``mass`` (labels with no mass left are dropped)."""
        self._caches.label_mass.pop(int(object_id), None)
        if self._caches.batch is not None:
            self._caches.batch.forget_labels()
        kept = self._kept_excess(object_id)
        self._conn.execute("DELETE FROM label_mass WHERE object_id=?", (object_id,))
        self._conn.executemany("INSERT INTO label_mass (object_id, label, mass) VALUES (?,?,?)",
                               [(object_id, lbl, m) for lbl, m in sorted(mass.items()) if m > 1e-9])
        self._restore_excess(object_id, kept)

    def rebuild_label_mass(self, object_id: int) -> None:
        """The object's label mass summed again from the sightings that now point at it."""
        self._caches.label_mass.pop(int(object_id), None)
        if self._caches.batch is not None:
            self._caches.batch.forget_labels()
        kept = self._kept_excess(object_id)
        self._conn.execute("DELETE FROM label_mass WHERE object_id=?", (object_id,))
        self._conn.execute(
            "INSERT INTO label_mass (object_id, label, mass) SELECT object_id, label, SUM(confidence) "
            "FROM observations WHERE object_id=? GROUP BY object_id, label", (object_id,))
        self._restore_excess(object_id, kept)

    # ---------------------------------------------------------------- the shown label
    def set_label(self, object_id: int, label: str) -> None:
        """The object's fused label becomes ``label`` (the heaviest of its mass, once it wins the relabel margin:
        fusion after a sighting, the settling step after mass was added in bulk)."""
        self._conn.execute("UPDATE objects SET label=? WHERE id=?", (label, object_id))

    def record_relabel(self, object_id: int, stamp: float, old: str, new: str) -> None:
        """A label_history row of a relabel by evidence (not pinned; the distribution is kept in label_mass)."""
        self._conn.execute(
            "INSERT INTO label_history (object_id, stamp, wall_time, old_label, new_label, old_mass, pinned, "
            "reason) VALUES (?,?,?,?,?,?,0,'evidence')", (object_id, stamp, self._wall_clock(), old, new, "{}"))

    # ---------------------------------------------------------------- events
    def event(self, stamp: float, kind: str, object_id: int, before_id, after_id, evidence, *,
              previous_label: str = "", label: str | None = None, detail: dict | None = None) -> int:
        """Write one published event (recorded at the memory's "now"); counted in WriteState.events."""
        if label is None:
            row = self._conn.execute("SELECT COALESCE(pinned_label, label) FROM objects WHERE id=?",
                                     (object_id,)).fetchone()
            label = row[0]
        cur = self._conn.execute(
            "INSERT INTO events (stamp, recorded_at, kind, object_id, label, previous_label, before_id, after_id, "
            "evidence, detail) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (stamp, self._now(), kind, object_id, label, previous_label, before_id, after_id,
             json.dumps(list(evidence)), json.dumps(detail or {}, sort_keys=True)))
        self.state.events += 1
        return int(cur.lastrowid)

    # ---------------------------------------------------------------- the spatial index
    def prefetch_rtree_boxes(self, object_ids) -> None:
        """Cache the R*Tree entries of those of ``object_ids`` not cached yet, in one statement, on PostgreSQL
        only (Store.reads_in_batches): fusion asks update_rtree about every object it merges, and a robot
        re-seeing a place, or any writer after another robot's commit dropped the caches, read one entry per
        merge (20 of a commit's round trips, bench_fleet). update_rtree is the one writer of the index and keeps
        the cache equal to it, so an entry read early is the one it would read later."""
        if self._readonly or not self._store.reads_in_batches:
            return
        boxes = self._caches.rtree_boxes
        wanted = sorted({int(i) for i in object_ids} - boxes.keys())
        for chunk, marks in id_chunks(wanted):
            for row in self._conn.execute(
                    f"SELECT id, min_x, min_y, min_z, max_x, max_y, max_z FROM objects_rtree WHERE id IN ({marks})",
                    chunk).fetchall():
                boxes[int(row[0])] = (tuple(row[1:4]), tuple(row[4:7]))

    def cache_rtree_entries(self, entries: dict) -> None:
        """Keep R*Tree entries read with other rows (Store.objects_in_boxes ``entries``) for the objects not cached
        yet, as update_rtree would read them (no write in between: an entry cached since, by update_rtree's own
        write, is kept), on both backends: the read came with the candidates, at no statement of its own."""
        if self._readonly:
            return
        boxes = self._caches.rtree_boxes
        for object_id, entry in entries.items():
            boxes.setdefault(int(object_id), entry)

    def update_rtree(self, object_id: int, lo, hi, insert: bool = False, exact: bool = False) -> None:
        """Keep the object's R*Tree entry covering its box.

        Why padded: every merge nudges a box by noise, and an R*Tree update is a delete plus a reinsert
        (about eight statements). The index holds the box grown by RTREE_PAD and is rewritten only when
        the box leaves it (or on create / move, exact=True), so most merges touch no index page. Every
        query through the index re-checks exact geometry, so a slightly larger entry changes no answer.
        """
        lo = [float(x) for x in lo]
        hi = [float(x) for x in hi]
        cached = None if (insert or exact) else self._caches.rtree_boxes.get(object_id)
        if cached is None and not (insert or exact):
            row = self._conn.execute("SELECT min_x, min_y, min_z, max_x, max_y, max_z FROM objects_rtree WHERE id=?",
                                     (object_id,)).fetchone()
            cached = None if row is None else (tuple(row[:3]), tuple(row[3:]))
        if cached is not None and all(c <= a for c, a in zip(cached[0], lo)) and all(h <= c for c, h in
                                                                                     zip(cached[1], hi)):
            self._caches.rtree_boxes[object_id] = cached
            return
        plo = [x - RTREE_PAD for x in lo]
        phi = [x + RTREE_PAD for x in hi]
        if insert:
            self._conn.execute(
                "INSERT INTO objects_rtree (id, min_x, max_x, min_y, max_y, min_z, max_z) VALUES (?,?,?,?,?,?,?)",
                (object_id, plo[0], phi[0], plo[1], phi[1], plo[2], phi[2]))
        else:
            self._conn.execute(
                "UPDATE objects_rtree SET min_x=?, max_x=?, min_y=?, max_y=?, min_z=?, max_z=? WHERE id=?",
                (plo[0], phi[0], plo[1], phi[1], plo[2], phi[2], object_id))
        self._caches.rtree_boxes[object_id] = (tuple(plo), tuple(phi))

    def relation_box_changed(self, object_id: int, lo, hi) -> bool:
        """Whether the box moved more than relation_box_epsilon since relations were last computed for it.

        Why: every merge nudges a box by sensor noise; recomputing relations for millimetres wastes the
        commit budget, while comparing against the box the relations were computed from (not the previous
        box) keeps slow drift from accumulating unnoticed. Unknown (e.g. after a restart) = changed.
        """
        ref = self._caches.relation_boxes.get(object_id)
        if ref is None:
            return True
        eps = self._relation_config.relation_box_epsilon
        return any(abs(a - b) > eps for a, b in zip(ref, (*lo, *hi)))

    # ---------------------------------------------------------------- tombstones
    def tombstone(self, row, kind: str, reason: str, stamp: float, active: bool) -> int:
        """Write the tombstone of an object (who/when/why, its last box and feature) and its index entry. Why
        it keeps the box: an active tombstone stops an identical sighting from quietly re-creating the object."""
        cur = self._conn.execute(
            "INSERT INTO tombstones (object_id, kind, stamp, wall_time, reason, label, cx, cy, cz, min_x, min_y, "
            "min_z, max_x, max_y, max_z, feature, active) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (row.id, kind, stamp, self._wall_clock(), reason, row.pinned_label or row.label, row.cx,
             row.cy, row.cz, row.min_x, row.min_y, row.min_z, row.max_x, row.max_y,
             row.max_z, row.feature, 1 if active else 0))
        tid = int(cur.lastrowid)
        self._conn.execute(
            "INSERT INTO tombstones_rtree (id, min_x, max_x, min_y, max_y, min_z, max_z) VALUES (?,?,?,?,?,?,?)",
            (tid, row.min_x, row.max_x, row.min_y, row.max_y, row.min_z, row.max_z))
        return tid

    def retire(self, row, kind: str, reason: str, stamp: float, *, active: bool, event: bool) -> None:
        """Mark an object forgotten with a tombstone; closes its placement and relations. Shared by maintenance
        (forget, decay, consolidate) and the settling step (a dismissed glimpse, a twin joined): the memory
        never deletes an object, so every way out of the graph is this one."""
        pid = self.current_placement_id(row.id)
        if pid is not None:
            self.close_placement(row.id, stamp, kind)
        self._conn.execute("UPDATE objects SET state='forgotten', vec_dirty=1 WHERE id=?", (row.id,))
        self._caches.n_active = None  # recounted at the next commit
        self.tombstone(row, kind, reason, stamp, active)
        if event:
            self.event(stamp, "forgotten", row.id, pid, None, [], detail={"reason": reason, "kind": kind})
        self._relations.update({int(row.id)}, stamp, self.state.change_times)
