"""What one commit's batch of frames knows of the store, read once and kept in step with the batch's own writes.

Why: a fleet's fuser fuses the frames every robot staged since its last batch in one commit (docs/FLEET.md), and
each frame asked the same questions again, one round trip each on PostgreSQL: which removals are due (twice a
frame: before its sightings and after), which events are held, which label pairs some object received both of
(twice a frame: the frame's own labels, and its candidates'). On bench_fuser_batch.py (10,000 objects, batches of
16) those were 5 of a frame's 8.4 round trips, and their answer was almost always the same as the frame before's:
no removal due, no held event, the same pairs.

What is kept, and why each answer stays exact (a store-layer class writes, and tells this object):

- ``due``: every object whose ``removal_due`` is set and is no later than the batch's last frame (``until``, plus
  DUE_MARGIN_S; any state: a superset of the objects removals_due may return for a frame of the batch), by id; a
  frame stamped later is asked of the store. Why bounded: read with no bound (``IS NOT NULL`` alone) it cost the
  PostgreSQL server 3-4 ms a commit (bench_fuser_batch, batches of 1: 5.8-6.7 ms per frame asking the store each
  time, 9.6-11.0 with that read; its plan not examined); bounded, it is removals_due's own condition. The
  statements that set one (FusionRows.add_miss, SettlingRows.set_absence) record it here; those that clear one
  drop it (a clear not recorded leaves a superset). SettlingRows.removals_due asks the store only when some value
  kept is due by then (with a margin), and otherwise returns what the store would: nothing.
- ``held_none``: the store holds no held event. Set when a read of the held events found none; cleared by the one
  statement that holds an event (FusionRows.hold_event). Resolving one can only leave fewer.
- ``labels`` / ``pairs``: for the labels in ``labels``, every pair of two of them that some object received both
  of (FusionRows.labels_together: a label not known is asked with every known one, and then known). A label mass
  row added to an object whose label mass the writer has cached adds the pairs of the new label with the cached
  ones (GraphWrites.add_mass); added to an object not cached, the label is forgotten (asked again when next
  asked); a mass copied, set or rebuilt forgets them all. A row removed can only
  leave a pair kept that no object holds any more: its joint mass is then summed over no row, 0, as it is for a
  pair not asked (FusionRows.joint_masses), so the sums are the same.

Scope: one ``Store.fusing`` transaction of Memory.commit (caches.batch, set after the frames are read and dropped at
the end; WriterCaches.clear drops it on a rollback or another writer's commit, and every read then goes to the
store). Nothing else writes the store meanwhile: the commit holds the fusion lock, and staging writes only frames
and their sightings. On SQLite nothing is kept (Store.reads_in_batches): a read there costs microseconds.
"""

from __future__ import annotations

# A removal due within this margin of a frame's stamp is asked of the store: the kept value and the stored one are
# the same double, and the comparison the store makes is left to it whenever it could go either way.
DUE_MARGIN_S = 1e-6


class BatchReads:
    """The answers kept for one commit's batch (the module's docstring): removals due, held events, label pairs."""

    def __init__(self, until: float) -> None:
        self.until = float(until) + DUE_MARGIN_S  # the latest stamp ``due`` answers for
        self.due: dict[int, float] | None = None  # None: not read yet in this batch
        self.held_none = False
        self.labels: set[str] = set()
        self.pairs: set[frozenset] = set()

    # ---------------------------------------------------------------- removals due
    def may_be_due(self, stamp: float) -> bool:
        """Whether some object's removal may be due by ``stamp`` (``due`` read: the caller reads it first); always
        for a stamp past ``until``."""
        if stamp + DUE_MARGIN_S > self.until:
            return True
        limit = stamp + DUE_MARGIN_S
        return any(d <= limit for d in self.due.values())

    def set_due(self, object_id: int, due: float | None) -> None:
        """The object's ``removal_due`` was written (None: cleared)."""
        if self.due is None:
            return
        if due is None:
            self.due.pop(int(object_id), None)
        else:
            self.due[int(object_id)] = float(due)

    # ---------------------------------------------------------------- label pairs
    def pairs_among(self, labels) -> set[frozenset] | None:
        """The pairs of two of ``labels`` some object holds both of, or None when a label is not known."""
        wanted = set(labels)
        if not wanted <= self.labels:
            return None
        return {p for p in self.pairs if p <= wanted}

    def learn_pairs(self, labels, pairs: set[frozenset]) -> None:
        """``labels`` are known from now on: ``pairs`` were read from the store for every label of them not known
        yet, with each of them (the pairs among the labels known already are kept: a label mass row added since
        added its pairs, mass_added). A pair kept for a label forgotten stays: rows are only added meanwhile
        (forget_labels drops every pair)."""
        self.labels.update(labels)
        self.pairs.update(pairs)

    def mass_added(self, label: str, cached: dict | None) -> None:
        """A label mass row of ``label`` was added to (or grown on) an object whose cached label mass before the
        write was ``cached`` (None: not cached)."""
        if cached is None:
            self.labels.discard(label)
        elif label not in cached:
            self.pairs.update(frozenset((label, other)) for other in cached if other != label)

    def forget_labels(self) -> None:
        """Label mass was copied, set or rebuilt: every pair is read again when asked."""
        self.labels = set()
        self.pairs = set()
