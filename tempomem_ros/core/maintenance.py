"""Mutations other than fusion: forget, correct a label, regions, decay, consolidate, resplit.

Why each leaves a record: the memory never deletes or silently rewrites. Forgetting writes a tombstone
(who/when/why) that also stops an identical sighting from quietly re-creating the object; a label
correction keeps the old distribution in label_history and pins the new label; decay and consolidation
leave tombstones naming their reason; every call that changes something appends an audit row. Each
mutator first fuses what is staged ("fuse before persist").

A service (issue 16): ``Maintenance`` runs on the store, the graph's write primitives (store/graph_writes.py),
its own statements (store/maintenance_rows.py) and the collaborators it is handed; it holds no reference to the
Memory facade, which exposes its public methods behind the memory's lock and error mapping (memory._exposed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np

from . import fusion, refold, size_consensus, validation
from .config import MemoryConfig
from .errors import ImplausibleInputError, InvalidInputError
from .frame_fusion import RowSighting, score_against
from .labels import canonical_label, labels_agree, sanitize_label
from .rows import blob_to_feature, feature_to_blob
from .store import StoreInterface
from .store.graph_writes import GraphWrites, WriteState
from .store.maintenance_rows import MaintenanceRows
from .store.object_row import ObjectRow

PUBLIC = ("forget", "update", "label_history", "define_region", "decay", "consolidate", "resplit")


@dataclass(frozen=True)
class RetentionHooks:
    """What maintenance asks of retention (core/retention.py) when sightings are re-pointed, split off or refolded.

    Why four callables and not the Retention service itself: these four are the whole of what maintenance needs of
    it, and a narrow seam keeps maintenance runnable on a store without retention (``none()``: a test builds
    Maintenance on a bare store with it) and the dependency one-way (retention knows nothing of maintenance).
    The memory builds them from the service's bound methods (``of``).
    - ``tallied_sightings(object_id)``: thinned sightings of the object (counted, not kept);
    - ``fold_start(object_id, placement_id, rows)``: (saved fold or None, rows still to fold, exact);
    - ``repointing(src_id, dst_id, placement_id)``: called just before src's sightings become dst's;
    - ``split(placement_id)``: some sightings leave this placement (its saved fold no longer describes it).
    """
    tallied_sightings: Callable[[int], int]
    fold_start: Callable
    repointing: Callable[[int, int, object], None]
    split: Callable[[object], None]

    @classmethod
    def of(cls, retention) -> "RetentionHooks":
        """The hooks of a Retention service (core/retention.py): its bound methods of the same names."""
        return cls(tallied_sightings=retention.tallied_sightings, fold_start=retention.fold_start,
                   repointing=retention.repointing, split=retention.split)

    @classmethod
    def none(cls) -> "RetentionHooks":
        """No retention: nothing thinned, nothing saved (a store whose sightings are all kept)."""
        return cls(tallied_sightings=lambda object_id: 0,
                   fold_start=lambda object_id, placement_id, rows: (None, rows, True),
                   repointing=lambda src_id, dst_id, placement_id: None, split=lambda placement_id: None)


class Maintenance:
    """forget, update, label_history, define_region, decay, consolidate, resplit; and rebuild_geometry, which the
    settling step (settling.py) shares.

    Collaborators, passed explicitly: the store (transactions, audit rows, the spatial index), the graph's write
    primitives, maintenance's own statements, the store's reads (an object's row, the label index), the relation
    keeper, the settings, the shared WriteState (the change times relations are closed at), ``fuse_pending`` (fuse
    what is staged first; refuses a read-only store), ``now`` (the memory's stamp clock) and the retention hooks."""

    PUBLIC = PUBLIC

    def __init__(self, store: StoreInterface, graph: GraphWrites, rows: MaintenanceRows, reads, relations,
                 config: MemoryConfig, state: WriteState, *, fuse_pending: Callable[[], None],
                 now: Callable[[], float], retention: RetentionHooks):
        self._store = store
        self._graph = graph
        self._rows = rows
        self._reads = reads
        self._relations = relations
        self.config = config
        self._state = state
        self._fuse_pending = fuse_pending
        self._now = now
        self._retention = retention
        #: set by Memory to FrameFusion's: a twin's label-look excess follows its label mass to the kept object
        #: (label_mass_joined), and the in-memory state returns to what it was when the transaction rolls back
        self.mass_joined: Callable[[int, int], None] | None = None
        self.kept_on_rollback: Callable = nullcontext
        #: set by Memory to FrameFusion.load_label_looks: after a resplit wrote label mass anew (the excess kept on
        #: the labels the original still has: GraphWrites.set_label_mass), fusion reads what the store holds
        self.label_looks_reload: Callable[[], None] | None = None

    def _audit(self, stamp, action: str, object_ids, observation_ids, detail: dict | None = None) -> None:
        """Queue an audit row, written with the transaction it belongs to (Store.transaction)."""
        self._store.audit(stamp, action, object_ids, observation_ids, detail, self.config.source)

    def _locked_now(self) -> float:
        """A mutation's stamp, read inside its write transaction (under the fusion lock), as is every row it acts on.

        Why: on a fleet's store (PostgreSQL) a fuser process commits beside this writer. Read before the lock, the
        stamp S (the fused graph's newest, Memory._mutation_clock) and the object's row could be overtaken by a fuser
        commit made before this transaction took the lock: a sighting of the mug at 4.0 fused onto it, then the mug
        forgotten "at 3.0", a record out of stamp order (test_fleet_mutation_order.py, the fuser between the reads
        and the lock); or an object another writer forgot meanwhile forgotten twice."""
        return self._now()

    # ------------------------------------------------------------------ forget / update
    def forget(self, object_id: int, reason: str) -> bool:
        """Forget an object (tombstoned, never deleted). False when it was already forgotten."""
        self._fuse_pending()
        reason = sanitize_label(reason or "no reason given", 500)
        with self._store.transaction():
            row = self._reads.row_or_raise(object_id)  # under the lock (_locked_now says why)
            if row.state == "forgotten":
                return False
            stamp = self._locked_now()
            self._graph.retire(row, "forgotten", reason, stamp, active=True, event=True)
            self._audit(stamp, "forget", [row.id], [], {"reason": reason})
        return True

    def update(self, object_id: int, *, label: str | None = None, reason: str = "user correction") -> None:
        """Correct an object's label: the old distribution goes to label_history, the new label is pinned
        (later contrary sightings still add mass but do not change what is shown or searched)."""
        self._fuse_pending()
        self._reads.row_or_raise(object_id)  # an unknown id is refused before a bad label, as before
        if label is None:
            raise InvalidInputError("update needs a label")
        if not isinstance(label, str):
            raise InvalidInputError("label must be text")
        new = sanitize_label(label, self.config.max_label_length)
        with self._store.transaction():
            row = self._reads.row_or_raise(object_id)  # under the lock (_locked_now says why)
            old = row.pinned_label or row.label
            mass = self._graph.label_mass(row.id)
            stamp = self._locked_now()
            self._rows.pin_label(row.id, stamp, old, new, mass, reason)
            self._reads.index_label(row.id, new)
            pid = self._graph.current_placement_id(row.id)
            self._graph.event(stamp, "relabelled", row.id, pid, pid, [], previous_label=old, label=new,
                              detail={"reason": reason, "pinned": True})
            self._audit(stamp, "update", [row.id], [], {"from": old, "to": new, "old_mass": mass})
            self._relations.update({int(row.id)}, stamp, self._state.change_times)

    def label_history(self, object_id: int) -> list[dict]:
        self._reads.row_or_raise(object_id)
        return [{"stamp": r["stamp"], "old_label": r["old_label"], "new_label": r["new_label"],
                 "old_mass": json.loads(r["old_mass"]), "pinned": bool(r["pinned"]), "reason": r["reason"]}
                for r in self._rows.label_history(object_id)]

    # ------------------------------------------------------------------ regions
    def define_region(self, label: str, bbox_min, bbox_max) -> int:
        self._fuse_pending()
        if not isinstance(label, str):
            raise InvalidInputError("region label must be text")
        lo = validation.finite_vec3(bbox_min, "bbox_min")
        hi = validation.finite_vec3(bbox_max, "bbox_max")
        if any(a >= b for a, b in zip(lo, hi)):
            raise InvalidInputError("bbox_min must be below bbox_max on every axis")
        bound = self.config.gates.world_bound
        for name, corner in (("bbox_min", lo), ("bbox_max", hi)):
            if max(abs(v) for v in corner) > bound:
                raise ImplausibleInputError(f"{name} {corner} lies outside the world bound +-{bound:g} m "
                                            "(gates.world_bound)", "world_bound")
        label = sanitize_label(label, self.config.max_label_length)
        with self._store.transaction():
            stamp = self._locked_now()
            region_id = self._rows.insert_region(label, lo, hi, stamp)
            self._relations.refresh_region(region_id, stamp)
            self._audit(stamp, "define_region", [], [], {"region_id": region_id, "label": label,
                                                         "bbox_min": lo, "bbox_max": hi})
        return region_id

    # ------------------------------------------------------------------ decay
    def decay(self, now: float, *, half_life_s: float, min_confidence: float) -> list[int]:
        """Confidence = fused confidence x 0.5 ** ((now - last_seen) / half_life_s); objects that fall below
        min_confidence are pruned (forgotten, tombstone kind 'decayed'). Idempotent for the same now:
        the decayed value is always computed from the fused confidence, never from a decayed one.
        Returns the pruned ids."""
        self._fuse_pending()
        now = validation.query_time(now, "now")
        half_life_s = validation.finite_number(half_life_s, "half_life_s")
        min_confidence = validation.finite_number(min_confidence, "min_confidence")
        if half_life_s <= 0:
            raise InvalidInputError("half_life_s must be > 0")
        if not 0 <= min_confidence <= 1:
            raise InvalidInputError("min_confidence must be in 0..1")
        pruned, updated = [], []
        with self._store.transaction():
            for r in self._rows.objects_in(("present", "missing")):  # under the lock (_locked_now says why)
                age = max(0.0, now - float(r.last_seen))
                conf = round(float(r.base_confidence) * 0.5 ** (age / half_life_s), 12)
                if conf < min_confidence:
                    reason = f"decayed below {min_confidence:g} (confidence {conf:.4f} at {now:.3f})"
                    self._graph.retire(r, "decayed", reason, now, active=False, event=True)
                    pruned.append(int(r.id))
                elif conf != float(r.confidence):
                    self._rows.set_confidence(r.id, conf)
                    updated.append(int(r.id))
            if pruned or updated:
                self._audit(now, "decay", pruned + updated, [], {"pruned": pruned, "updated": len(updated),
                                                                 "half_life_s": half_life_s,
                                                                 "min_confidence": min_confidence})
        return pruned

    # ------------------------------------------------------------------ consolidate / resplit
    def consolidate(self) -> list[tuple[int, int]]:
        """Merge duplicate present objects (same identity, fusion score >= merge threshold against each
        other): the younger is absorbed into the older, its observations re-pointed (listed in the audit)
        and a tombstone kind 'consolidated' names the survivor. Returns (kept, absorbed) pairs."""
        self._fuse_pending()
        fcfg = self.config.fusion
        merged: list[tuple[int, int]] = []
        absorbed: set[int] = set()
        with self.kept_on_rollback(), self._store.transaction():
            stamp = self._locked_now()
            rows = self._rows.objects_in(("present",))
            for a in rows:
                if a.id in absorbed:
                    continue
                a = self._graph.object_row(a.id)
                lo = np.array((a.min_x, a.min_y, a.min_z)) - fcfg.candidate_dilation
                hi = np.array((a.max_x, a.max_y, a.max_z)) + fcfg.candidate_dilation
                for b in self._store.objects_in_box(lo, hi, ("present",), above_id=a.id):
                    if b.id in absorbed or not self._same_identity(a, b):
                        continue
                    self._absorb(a, b, stamp)
                    absorbed.add(int(b.id))
                    merged.append((int(a.id), int(b.id)))
                    a = self._graph.object_row(a.id)
            if merged:
                self._relations.update({i for pair in merged for i in pair}, stamp, self._state.change_times)
        return merged

    def _same_identity(self, a: ObjectRow, b: ObjectRow) -> bool:
        la, lb = a.pinned_label or a.label, b.pinned_label or b.label
        if not labels_agree(la, lb):
            return False
        cos = fusion.cosine(blob_to_feature(a.feature), blob_to_feature(b.feature))
        if cos is not None and cos < self.config.identity.feature_threshold:
            return False
        parts = score_against(self.config.fusion, RowSighting.of(b), a.bmin, a.bmax, a.feature, la)
        return parts.score >= self.config.fusion.merge_threshold

    def _absorb(self, a: ObjectRow, b: ObjectRow, stamp: float) -> None:
        moved = self._rows.observation_ids_of(b.id)
        pid = self._graph.current_placement_id(a.id)
        self._retention.repointing(int(b.id), int(a.id), pid)
        self._graph.repoint_observations(b.id, a.id, pid)
        self._graph.add_mass_of(int(b.id), int(a.id))
        if self.mass_joined is not None:
            self.mass_joined(int(b.id), int(a.id))
        self.rebuild_geometry(a.id, pid)
        self._graph.widen_seen(a.id, b.first_seen, b.last_seen)
        self._graph.retire(b, "consolidated", f"merged into #{a.id}", stamp, active=False, event=False)
        self._audit(stamp, "consolidate", [a.id, b.id], moved, {"kept": a.id, "absorbed": b.id})

    def rebuild_geometry(self, object_id: int, placement_id: int | None, relabel: bool = True) -> None:
        """Recompute an object's fused state from the observations now pointing at its current placement.
        ``relabel``: its label becomes the heaviest of its mass at once; else the caller settles it
        (Settling._settle_label: with the relabel margin, a label_history row and an event). Why: a twin
        joined under a look-alike label (a cup first read "mug") changed the label here silently, so no
        "relabelled" was published and the cup was never taken for the removed cup moved (dev seed 12).

        Under retention the placement's thinned sightings are in its saved fold (core/refold.py): the rebuild
        continues from it with the sightings after it, which gives what a replay of every sighting would."""
        rows = self._rows.placement_sightings(object_id, placement_id)
        state, rows, exact = self._retention.fold_start(object_id, placement_id, rows)
        if state is None and not rows:
            return
        f = self.config.fusion
        saved = state is not None
        state = refold.fold(state, rows, f)
        if not saved and max(float(state.ext[0]), float(state.ext[1])) >= f.size_quantile_below:
            # a rebuild replays the bled views the merges outvoted (FrameFusion._size_outvoted): outvoted again
            outvoted = size_consensus.refold_outvoted(rows, f)
            state = state if outvoted is None else outvoted[0]
        if not exact:
            self._audit(self._now(), "rebuild", [object_id], [],
                        {"approximate": True, "placement_id": placement_id,
                         "why": "sightings of this placement were thinned before others joined it out of order; "
                                "the fused geometry rests on the saved fold and the kept sightings"})
        center, lo, hi, weight, ext = state.center, state.lo, state.hi, state.weight, state.ext
        feature, fweight, base = state.feature, state.feature_weight, state.base
        n = self._rows.count_observations(object_id)
        n += self._retention.tallied_sightings(object_id)  # retention: thinned sightings are counted, not kept
        label = canonical_label(self._graph.label_mass(object_id)) if relabel else \
            self._rows.shown_label(object_id)
        box_mid = tuple(0.5 * (a + b) for a, b in zip(lo, hi))
        self._rows.set_fused_state(object_id, box_mid, center, lo, hi, weight, ext, feature_to_blob(feature), fweight,
                                   base, n, label)
        self._graph.update_rtree(object_id, lo, hi, exact=True)
        if placement_id is not None:
            self._rows.set_placement_box(placement_id, box_mid, lo, hi)

    def resplit(self, *, split_distance: float = 0.5, min_observations: int = 3) -> list[tuple[int, int]]:
        """Split objects whose current-placement observations form separate clusters (single linkage at
        split_distance, each with >= min_observations): the cluster holding the earliest observation keeps
        the id, every other cluster becomes a new object with its observations re-pointed (listed in the
        audit). Returns (original, new) pairs."""
        self._fuse_pending()
        split_distance = validation.finite_number(split_distance, "split_distance")
        if split_distance <= 0:
            raise InvalidInputError("split_distance must be > 0")
        out: list[tuple[int, int]] = []
        with self._store.transaction():
            stamp = self._locked_now()
            for obj in self._rows.objects_in(("present",)):
                pid = self._graph.current_placement_id(obj.id)
                obs = self._rows.placement_points(obj.id, pid)
                if len(obs) < 2 * min_observations:
                    continue
                clusters = _single_link([(o["cx"], o["cy"], o["cz"]) for o in obs], split_distance)
                groups = [[obs[i] for i in c] for c in clusters]
                groups = [g for g in groups if len(g) >= min_observations]
                if len(groups) < 2:
                    continue
                groups.sort(key=lambda g: (g[0]["stamp"], g[0]["id"]))
                thinned = self._retention.tallied_sightings(obj.id) > 0
                self._retention.split(pid)  # retention: the saved fold no longer describes the placement
                mass = self._graph.label_mass(obj.id)
                for g in groups[1:]:
                    new_id = self._split_off(obj, g, stamp)
                    out.append((int(obj.id), new_id))
                    for o in g:
                        mass[o["label"]] = mass.get(o["label"], 0.0) - float(o["confidence"])
                if thinned:  # the thinned sightings' mass stays with the original: take the split-off ones out
                    self._graph.set_label_mass(obj.id, mass)
                else:
                    self._graph.rebuild_label_mass(obj.id)
                self.rebuild_geometry(obj.id, pid)
            if out:
                self._relations.update({i for pair in out for i in pair}, stamp, self._state.change_times)
        if out and self.label_looks_reload is not None:
            self.label_looks_reload()  # the split objects' label-look excess as the store now holds it
        return out

    def _split_off(self, obj: ObjectRow, group, stamp: float) -> int:
        ids = [int(o["id"]) for o in group]
        first = group[0]
        new_id = self._rows.insert_split_object(first["label"], float(first["stamp"]), float(group[-1]["stamp"]),
                                                len(group), split_from=int(obj.id))
        self._graph.update_rtree(new_id, (0, 0, 0), (0, 0, 0), insert=True)
        pid = self._graph.open_placement(new_id, (first["cx"], first["cy"], first["cz"]), (first["cx"],) * 3,
                                         (first["cx"],) * 3, float(first["stamp"]), "resplit")
        self._rows.move_observations(ids, new_id, pid)
        self._graph.rebuild_label_mass(new_id)
        self.rebuild_geometry(new_id, pid)
        self._reads.index_label(new_id, canonical_label(self._graph.label_mass(new_id)))
        self._graph.set_placement_last(pid, float(group[-1]["stamp"]))
        self._graph.event(float(first["stamp"]), "appeared", new_id, None, pid, ids[:EVIDENCE_LIMIT],
                          detail={"split_from": int(obj.id)})
        self._audit(stamp, "resplit", [obj.id, new_id], ids, {"from": int(obj.id), "to": new_id})
        return new_id


EVIDENCE_LIMIT = 50


def _single_link(points, threshold: float) -> list[list[int]]:
    """Connected components of points closer than threshold (indices, in order of first member)."""
    pts = np.asarray(points, float)
    n = len(pts)
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        d = np.linalg.norm(pts[i + 1:] - pts[i], axis=1)
        for j in np.flatnonzero(d < threshold):
            ri, rj = find(i), find(i + 1 + int(j))
            if ri != rj:
                parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return [groups[k] for k in sorted(groups)]

