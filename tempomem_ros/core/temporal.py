"""Temporal operators over placements and events, and question answering on top of them.

Why operators over placements: "where is it", "where was it before", "how often did it move", "where was
it at 10:30" are all questions about one object's ordered placements (closed ones are kept, never
deleted), so each operator is a small, deterministic function of that list, and each answer carries the
placements and observation ids it rests on.

Operators: current, previous (the latest placement that is not current), history (all placements, oldest
first), count_moves, count_sightings (observations fused into the object), as_of(t) (the placement with
t_from <= t < t_to), first_seen, last_seen, duration (time at the current place up to now).
An unknown object -> found=False. Several objects match a label -> each is answered in the text; the
structured fields describe the primary one (present before missing, then the most recently seen, then
the lowest id), and arguments["ambiguous"] lists every id.
"""

from __future__ import annotations

from collections.abc import Callable

from . import validation
from .answering.fmt import article as _article
from .answering.fmt import fmt_duration, fmt_pos, fmt_time
from .checks import YesNoChecks
from .citations import EVIDENCE_PER_PLACEMENT, Citations, checked_window, window_words
from .errors import InvalidInputError
from .labels import sanitize_label, words
from .lookfor import WhereToLook
from .config import MemoryConfig
from .queries import QueryService
from .store import StoreInterface
from .store.events import EventRows
from .store.object_row import ObjectRow
from .store.objects import ObjectRows
from .store.observations import ObservationRows
from .store.placements import PlacementRows
from .store.reads import StoreReads
from .store.relations import RelationRows
from .types import EVENT_KINDS, Answer

OPERATORS = ("current", "previous", "history", "count_moves", "count_sightings", "as_of", "first_seen",
             "last_seen", "duration")
# Operators whose answer needs one or two of the object's placements, read by _few_placements: the current /
# previous / as_of services' cost does not grow with the object's history.
_FEW_PLACEMENTS = ("current", "previous", "as_of")
#: The temporal operators Memory exposes (each through its facade); the yes/no checks and where to look are the
#: services TemporalService.checks and .look_for (checks.PUBLIC, lookfor.PUBLIC).
PUBLIC = ("temporal", "changes", "scene_as_of", "scene_count_as_of", "objects_labelled_or_id", "current_evidence",
          "placement_evidence")
__all__ = ["EVIDENCE_PER_PLACEMENT", "OPERATORS", "PUBLIC", "TemporalService", "fmt_duration", "fmt_pos", "fmt_time"]


class TemporalService:
    """Operators over one object's placements and the change events (this module), on a store, its reads and the
    query service; it builds the yes/no checks with their evidence (``checks``: checks.py) and where to look for
    a missing object (``look_for``: lookfor.py) on the same citations (citations.py); nothing here writes.
    ``now``: the memory's clock (its newest accepted stamp, 0 when empty); ``tallied_in``: retention's count of
    thinned sightings in a span (retention.py)."""

    def __init__(self, store: StoreInterface, reads: StoreReads, queries: QueryService, config: MemoryConfig, *,
                 now: Callable[[], float], tallied_in: Callable):
        self._store = store
        self._reads = reads
        self._queries = queries
        self.config = config
        self._now = now
        self._tallied_in = tallied_in
        # the store's rows, by table (core/store/)
        self._object_rows = ObjectRows(store)
        self._observation_rows = ObservationRows(store, has_sources=reads.has_sources)
        self._placement_rows = PlacementRows(store)
        self._event_rows = EventRows(store)
        self._relation_rows = RelationRows(store)
        self._citations = Citations(reads, queries, self._object_rows, self._observation_rows, self._relation_rows)
        self.checks = YesNoChecks(queries, self._citations, self._observation_rows, tallied_in=tallied_in)
        self.look_for = WhereToLook(queries, self._citations, self._relation_rows, now=now)

    def objects_labelled_or_id(self, label, object_id) -> list:
        """The object with this id (unless forgotten), or the objects showing this label (citations.py)."""
        return self._citations.objects_labelled_or_id(label, object_id)

    # ------------------------------------------------------------------ resolution
    def _resolve_objects(self, label, object_id) -> list[ObjectRow]:
        if object_id is not None:
            if isinstance(object_id, bool) or not isinstance(object_id, int):
                raise InvalidInputError("object_id must be an integer")
            validation.id_in_range(object_id, "object_id")
            row = self._object_rows.row_if_shown(object_id)
            return [] if row is None else [row]
        if not isinstance(label, str) or not words(label):
            raise InvalidInputError("give a label or an object_id")
        validation.text_length(label, "label", self.config.max_label_length)
        found = list(self._reads.objects_labelled(label, ("present", "missing")))
        found.sort(key=lambda r: (r.state != "present", -float(r.last_seen), r.id))
        return found

    # ------------------------------------------------------------------ operators
    def temporal(self, operator: str, *, label: str | None = None, object_id: int | None = None,
                 t: float | None = None, now: float | None = None, since: float | None = None,
                 until: float | None = None) -> Answer:
        """Apply a temporal operator to the object named by label (whole word) or id. history and count_moves
        take an optional span [since, until]: the placements that overlap it, the moves inside it."""
        if operator not in OPERATORS:
            raise InvalidInputError(f"unknown operator '{operator}' ({' | '.join(OPERATORS)})")
        if operator == "as_of":
            if t is None:
                raise InvalidInputError("as_of needs a time t")
            t = validation.query_time(t, "t")
        window = checked_window(since, until) if operator in ("history", "count_moves") else None
        if window is None and (since is not None or until is not None):
            raise InvalidInputError(f"{operator} takes no span (since/until)")
        if now is None:
            now = self._now()
        else:
            now = validation.query_time(now, "now")
        rows = self._resolve_objects(label, object_id)
        name = sanitize_label(label) if label else f"object #{object_id}"
        args = {"label": label, "object_id": object_id, "t": t}
        if window is not None and window != (None, None):
            args.update(since=since, until=until)
        if not rows:
            return Answer(True, operator, f"I have no memory of {_article(name)}.", found=False, arguments=args)
        # what each object's answer describes, read for all of them at once (one statement each instead of four an
        # object: 80 of the 127 waits of "where is the mug 12" on PostgreSQL at 10,000 objects, bench_fleet's asker)
        infos, regions = self._reads.described(rows)  # the region labels with the label mass: one round trip
        ids = [int(r.id) for r in rows]
        places = {i: [] for i in ids} if operator in _FEW_PLACEMENTS else self._placement_rows.of_objects(ids)
        few = self._few_placements(operator, ids, t, regions) if operator in _FEW_PLACEMENTS else {}
        supports = self._citations.support_phrases([int(r.id) for r in rows]) if operator == "current" else None
        answers = [self._answer_about(operator, r, t, now, window, info=info,
                                      pls=self._reads.placement_infos(places[int(r.id)], regions),
                                      support=None if supports is None else supports[i], few=few.get(int(r.id)))
                   for i, (r, info) in enumerate(zip(rows, infos))]
        primary = answers[0]
        if primary["evidence"] is None:  # the newest sightings of its placements: only the primary's are cited
            primary["evidence"] = tuple(self._citations.evidence([p.id for p in primary["placements"]]))
        if len(answers) == 1:
            text = primary["text"]
        else:
            text = f"There are {len(answers)} objects matching '{name}': " + " ".join(
                f"[#{a['object'].id}] {a['text']}" for a in answers)
        return Answer(True, operator, text, found=True, objects=tuple(a["object"] for a in answers),
                      placements=primary["placements"], evidence=primary["evidence"], count=primary["count"],
                      time=primary["time"], arguments={**args, "ambiguous": [a["object"].id for a in answers]
                                                       if len(answers) > 1 else []})

    def _answer_about(self, operator: str, row: ObjectRow, t, now: float, window=None, *, info, pls,
                      support: str | None, few: tuple | None) -> dict:
        """One object's answer to a temporal operator: its text, placements, evidence, count and time (a question
        naming several objects of one label gets one per object, ask_temporal above). ``info``: the row as
        ObjectInfo; ``pls``: its placements (PlacementInfo, oldest first); ``support``: its support phrase
        (operator current); ``few``: (current, named placements) of an operator of _FEW_PLACEMENTS, all read by the
        caller. Evidence None: the caller cites the answer's placements, of the primary answer only (an Answer
        cites the primary object's evidence; the others' were read and dropped, up to 50 ids a placement)."""
        oid = int(row.id)
        obj = info
        label = obj.label
        out = {"object": obj, "placements": (), "evidence": (), "count": None, "time": None, "text": ""}
        if operator in _FEW_PLACEMENTS:  # pls not read: the one or two placements it needs (_few_placements)
            current, few = few
        else:
            few = {}
            current = next((p for p in pls if p.current), None)

        def where(p) -> str:
            region = f" in the {p.region_label}" if p.region_label else ""
            return f"{fmt_pos(p.center)}{region}"

        if operator == "current":
            if current is not None:
                out["text"] = (f"The {label} is{support} at {where(current)}, "
                               f"last seen {fmt_time(obj.last_seen)}.")
                out["placements"] = (current,)
            else:
                last = few["last"]
                out["text"] = (f"The {label} is missing: it was last seen at {where(last)} at "
                               f"{fmt_time(obj.last_seen)}, and was not there when I looked at {fmt_time(last.t_to)}.")
                out["placements"] = (last,)
        elif operator == "previous":
            prev = few["last_closed"]
            if prev is None:
                out["text"] = (f"The {label} has not moved: it has been at {where(few['last'])} since "
                               f"{fmt_time(few['first'].t_from)}.")
                out["placements"] = ()
            else:
                out["text"] = (f"Before, the {label} was at {where(prev)} (from {fmt_time(prev.t_from)} to "
                               f"{fmt_time(prev.t_to)}).")
                out["placements"] = (prev,)
        elif operator == "history":
            lo, hi = window or (None, None)
            shown = [p for p in pls if (lo is None or p.t_to is None or p.t_to > lo) and (hi is None or p.t_from <= hi)]
            out["placements"] = tuple(shown)
            steps = "; ".join(f"{where(p)} from {fmt_time(p.t_from)}"
                              + (f" to {fmt_time(p.t_to)}" if p.t_to is not None else " (now)") for p in shown)
            span = "" if window in (None, (None, None)) else f" {window_words(lo, hi)}"
            out["text"] = (f"The {label} has been at {len(shown)} place(s){span}: {steps}." if shown else
                           f"I do not know where the {label} was {window_words(lo, hi)}.")
        elif operator == "count_moves":
            lo, hi = window or (None, None)
            if lo is None and hi is None:
                out["count"] = obj.n_moves
                out["placements"] = tuple(pls)
                out["text"] = f"The {label} moved {obj.n_moves} time(s)."
            else:
                moves = [e for e in self._queries.events(oid) if e.kind == "moved" and (lo is None or e.stamp >= lo)
                         and (hi is None or e.stamp <= hi)]
                out["count"] = len(moves)
                out["placements"] = tuple(e.after for e in moves if e.after is not None)
                out["evidence"] = tuple(sorted({i for e in moves for i in e.evidence}))
                out["text"] = f"The {label} moved {len(moves)} time(s) {window_words(lo, hi)}."
        elif operator == "count_sightings":
            out["count"] = obj.n_observations
            out["placements"] = tuple(pls)
            out["text"] = f"I saw the {label} {obj.n_observations} time(s)."
        elif operator == "first_seen":
            out["time"] = obj.first_seen
            out["placements"] = (pls[0],)
            ev = self._observation_rows.first_id_of(oid)
            out["evidence"] = (ev,) if ev is not None else ()
            out["text"] = f"I first saw the {label} at {fmt_time(obj.first_seen)} at {where(pls[0])}."
        elif operator == "last_seen":
            out["time"] = obj.last_seen
            last = pls[-1]
            out["placements"] = (last,)
            ev = self._observation_rows.last_id_of(oid)
            out["evidence"] = (ev,) if ev is not None else ()
            ago = f" ({fmt_duration(now - obj.last_seen)} ago)" if now >= obj.last_seen else ""
            out["text"] = f"I last saw the {label} at {fmt_time(obj.last_seen)}{ago} at {where(last)}."
        elif operator == "as_of":
            hit = few["held"]
            if hit is None:
                first = few["first"].t_from
                reason = "I had not seen it yet" if t < first else "it was not where I last saw it"
                out["text"] = f"At {fmt_time(t)} I do not know where the {label} was: {reason}."
            else:
                out["placements"] = (hit,)
                out["text"] = f"At {fmt_time(t)} the {label} was at {where(hit)}."
        elif operator == "duration":
            if current is None:
                out["text"] = f"The {label} is missing: it is not at any place now."
            else:
                out["time"] = max(0.0, now - current.t_from)
                out["placements"] = (current,)
                out["text"] = (f"The {label} has been at {where(current)} for {fmt_duration(out['time'])} "
                               f"(since {fmt_time(current.t_from)}).")
        out["evidence"] = tuple(out["evidence"]) if out["evidence"] else None
        return out

    def _few_placements(self, operator: str, ids: list[int], t, regions: dict[int, str]) -> dict[int, tuple]:
        """``{object id: (current placement or None, {name: placement or None})}`` for an operator of
        _FEW_PLACEMENTS: the rows it names, each one indexed lookup, in place of the objects' whole histories
        (of_object), which grow with every move and reappearance (bench_long_run: the shown objects' placements
        were 134 after day 1 and 549 after day 30). The same placements as the full read gives: first = pls[0],
        last = pls[-1], last_closed = the last of pls not current, held = the first of pls holding at t.

        Read for all the objects of the answer at once (PlacementRows.one_of_each: one statement a kind of row,
        not one an object): an answer by label describes every object of the label, and on day 30 of
        bench_long_run the heavy labels name more of them (book 9 -> 11, bottle 7 -> 8); one statement per object
        and row made the answer's cost grow with them at statement overhead, not at the few rows they add."""
        rows = self._placement_rows
        current = rows.one_of_each(ids, "current") if operator == "current" else {}
        few: dict[int, dict] = {i: {} for i in ids}
        if operator == "current":
            lost = [i for i in ids if i not in current]
            last = rows.one_of_each(lost, "last") if lost else {}
            for i in lost:
                few[i]["last"] = last.get(i)
        elif operator == "previous":
            closed = rows.one_of_each(ids, "last_closed")
            never = [i for i in ids if i not in closed]
            last, first = (rows.one_of_each(never, "last"), rows.one_of_each(never, "first")) if never else ({}, {})
            for i in ids:
                few[i]["last_closed"] = closed.get(i)
                if i in never:
                    few[i]["last"], few[i]["first"] = last.get(i), first.get(i)
        elif operator == "as_of":
            held = rows.one_of_each(ids, "held", t)
            unheld = [i for i in ids if i not in held]
            first = rows.one_of_each(unheld, "first") if unheld else {}
            for i in ids:
                few[i]["held"] = held.get(i)
                if i in unheld:
                    few[i]["first"] = first.get(i)
        wanted = [r for i in ids for r in (current.get(i), *few[i].values()) if r is not None]
        infos = iter(self._reads.placement_infos(wanted, regions))
        out = {}
        for i in ids:
            cur = next(infos) if current.get(i) is not None else None
            out[i] = (cur, {name: (next(infos) if row is not None else None) for name, row in few[i].items()})
        return out

    # ------------------------------------------------------------------ changes and snapshots
    def changes(self, since: float | None = None, until: float | None = None, *, kinds=None) -> list:
        """Change events with since <= stamp <= until, in stamp order (ties by event id); with ``kinds``
        only events of those kinds (appeared | moved | removed | reappeared | relabelled | forgotten)."""
        lo = float("-inf") if since is None else validation.finite_number(since, "since")
        hi = float("inf") if until is None else validation.finite_number(until, "until")
        if lo > hi:
            raise InvalidInputError("since must not be after until")
        kind_args = None
        if kinds is not None:
            if isinstance(kinds, str) or not all(isinstance(k, str) for k in kinds):
                raise InvalidInputError("kinds must be a list of event kinds")
            bad = sorted(set(kinds) - set(EVENT_KINDS))
            if bad:
                raise InvalidInputError(f"unknown event kind '{bad[0]}' ({' | '.join(EVENT_KINDS)})")
            kind_args = tuple(sorted(set(kinds)))
            if not kind_args:
                return []
        rows = self._event_rows.between(lo, hi, kind_args)
        return self._reads.events_from_rows(rows)

    def scene_as_of(self, t: float, *, center=None, radius: float | None = None, k: int | None = None,
                    offset: int = 0, after: tuple[int, int] | None = None) -> list:
        """(object, placement) for every object present at time t, each at the placement it had then.

        With center and radius: only placements whose centre lies within radius, nearest first (ties by
        object id); otherwise by object id. k caps the number returned and offset skips the first ones of
        that order, so a large scene can be read page by page (scene_count_as_of gives the total).
        Filtering, ordering and paging happen in SQL (store/placements.py): a page costs what it returns, not
        the scene's size. ``after``: (object id, placement id) of the previous page's last pair, the whole scene
        only: the page after it (keyset paging: the same pairs as the offset of the pages before, found by a seek
        on the object id instead of a walk over every earlier row; store/placements.py as_of)."""
        t, center, radius = self._as_of_args(t, center, radius)
        if k is not None:
            k = validation.positive_int(k, "k", maximum=10**7)
        offset = validation.non_negative_int(offset, "offset")
        if after is not None:
            after = self._page_key(after, offset, radius)
        rows = self._placement_rows.as_of(t, center, radius, k=k, offset=offset, after=after)
        # the objects' rows, the region labels and the label mass in one round trip (StoreReads.rows_described)
        _, infos, _, regions = self._reads.rows_described({int(r["object_id"]) for r in rows})
        placements = self._reads.placement_infos(rows, regions)
        objects = {info.id: info for info in infos}
        return [(objects[p.object_id], p) for p in placements]

    def scene_count_as_of(self, t: float, *, center=None, radius: float | None = None) -> int:
        """How many objects scene_as_of(t, center=..., radius=...) returns without k: the total of a paged
        read."""
        return self._placement_rows.count_as_of(*self._as_of_args(t, center, radius))

    @staticmethod
    def _page_key(after, offset: int, radius) -> tuple[int, int]:
        """A keyset page's key, validated: two non-negative ids, no offset beside it, no radius (a page by
        distance has no key here)."""
        if radius is not None:
            raise InvalidInputError("after pages the whole scene in object order: give no center and radius")
        if offset:
            raise InvalidInputError("give after or offset, not both")
        try:
            object_id, placement_id = (None, None) if isinstance(after, (str, bytes)) else after
        except (TypeError, ValueError):
            object_id = placement_id = None
        if object_id is None or placement_id is None:
            raise InvalidInputError("after must be (object id, placement id) of the previous page's last pair")
        return (validation.non_negative_int(object_id, "after object id"),
                validation.non_negative_int(placement_id, "after placement id"))

    @staticmethod
    def _as_of_args(t, center, radius) -> tuple:
        """(t, center, radius) of an as-of read, validated (center and radius both None, or a point and r > 0)."""
        t = validation.finite_number(t, "t")
        if (center is None) != (radius is None):
            raise InvalidInputError("give both center and radius, or neither")
        if radius is None:
            return t, None, None
        center = validation.finite_vec3(center, "center")
        radius = validation.finite_number(radius, "radius")
        if radius <= 0:
            raise InvalidInputError(f"radius must be > 0, got {radius}")
        return t, center, radius

    def placement_evidence(self, placement_ids) -> tuple[int, ...]:
        """The observation ids behind these placements (the newest EVIDENCE_PER_PLACEMENT of each)."""
        return tuple(self._citations.evidence(placement_ids))

    def current_evidence(self, object_ids) -> tuple[int, ...]:
        """The observation ids behind these objects' current placements (what an answer about them cites)."""
        return tuple(self._citations.evidence(self._current_placements(object_ids)))

    def _current_placements(self, object_ids) -> list[int]:
        """The current placement of each object that has one, in the order given (read in one round trip on
        PostgreSQL: "what is on the table" cites ten objects' placements)."""
        return [pid for pid in self._placement_rows.current_ids(object_ids) if pid is not None]
