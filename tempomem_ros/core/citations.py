"""What every answer about one object draws on: the observations it cites, the support it stands on, the object
named by a label or an id, and a checked time window.

Why one small class: the temporal operators (temporal.py), the yes/no checks (checks.py) and where to look
(lookfor.py) each answer about one object and cite the same evidence the same way (the newest
EVIDENCE_PER_PLACEMENT sightings of each placement, in id order); they were mixins of one service sharing these
helpers through ``self``. Now each is a class of its own, and this is the part they share, handed to each.
"""

from __future__ import annotations

from . import validation
from .answering.fmt import fmt_time
from .errors import InvalidInputError
from .queries import QueryService
from .store.object_row import ObjectRow
from .store.objects import ObjectRows
from .store.observations import ObservationRows
from .store.reads import StoreReads
from .store.relations import RelationRows
from .types import ObjectInfo

EVIDENCE_PER_PLACEMENT = 50


def checked_window(since, until) -> tuple[float | None, float | None]:
    """(since, until) as finite numbers or None; since after until is refused."""
    lo = None if since is None else validation.finite_number(since, "since")
    hi = None if until is None else validation.finite_number(until, "until")
    if lo is not None and hi is not None and lo > hi:
        raise InvalidInputError("since must not be after until")
    return lo, hi


def window_words(lo, hi) -> str:
    """A checked window (checked_window) in an answer's words: "since T", "up to T", "from T to T", "at any time"
    (no bound). The one wording of a window for the yes/no checks (checks.py) and the temporal operators
    (temporal.py), which each had it."""
    if lo is None and hi is None:
        return "at any time"
    if lo is None:
        return f"up to {fmt_time(hi)}"
    return f"from {fmt_time(lo)} to {fmt_time(hi)}" if hi is not None else f"since {fmt_time(lo)}"


class Citations:
    """On the store's reads and the query service; nothing here writes."""

    def __init__(self, reads: StoreReads, queries: QueryService, object_rows: ObjectRows,
                 observation_rows: ObservationRows, relation_rows: RelationRows):
        self._reads = reads
        self._queries = queries
        self._object_rows = object_rows
        self._observation_rows = observation_rows
        self._relation_rows = relation_rows

    def evidence(self, placement_ids) -> list[int]:
        """The observation ids behind these placements: the newest EVIDENCE_PER_PLACEMENT of each, in id order."""
        return self.evidence_each([placement_ids])[0]

    def evidence_each(self, groups) -> list[list[int]]:
        """``[evidence(g) for g in groups]``, every placement's read in one round trip on PostgreSQL (an answer
        about several objects cites each one's placements)."""
        groups = [[int(p) for p in g] for g in groups]
        newest = iter(self._observation_rows.newest_ids_of_placements([p for g in groups for p in g],
                                                                      EVIDENCE_PER_PLACEMENT))
        return [[i for _ in g for i in sorted(next(newest))] for g in groups]

    def support_phrase(self, object_id: int) -> str:
        """' on the desk' when the object stands on something now, else ''."""
        return self.support_phrases([object_id])[0]

    def support_phrases(self, object_ids) -> list[str]:
        """``[support_phrase(i) for i in object_ids]``, in one round trip on PostgreSQL."""
        rows = self._relation_rows.current_supports(object_ids)
        return [f" on the {row[1] or row[0]}" if row else "" for row in rows]

    def info(self, object_id: int) -> ObjectInfo:
        return self._reads.object_infos([self._reads.row_or_raise(object_id)])[0]

    def info_of(self, row: ObjectRow) -> ObjectInfo:
        """The row as the ObjectInfo an answer describes (its label mass and region read here)."""
        return self._reads.object_infos([row])[0]

    def subject_rows(self, label, object_id) -> list[ObjectRow]:
        """objects_labelled_or_id's objects as the store's rows (QueryService.objects_labelled_rows): the yes/no
        checks describe one of them (info_of) and name the others by id and state."""
        if object_id is not None:
            found = self._object_rows.id_if_not_forgotten(object_id)
            return [] if found is None else [self._reads.row_or_raise(found)]
        return self._queries.objects_labelled_rows(label)

    def objects_labelled_or_id(self, label, object_id) -> list:
        """The object with this id (unless forgotten), or the objects showing this label."""
        if object_id is not None:
            found = self._object_rows.id_if_not_forgotten(object_id)
            return [] if found is None else [self.info(found)]
        return self._queries.objects_labelled(label)
