"""Yes/no questions about one object, each verdict with the evidence it rests on.

Why verdicts with evidence: "is the mug on the table?" answered "no" is only useful with where the mug is
instead (and the observations that show it); "did the chair move?" answered "yes" with the moves. A verdict
is a plain function of stored rows: relations and their validity intervals, placements, events, observations.
Several objects with the label: the verdict is about the primary one (present before missing, then the most
recently seen, then the lowest id), and the text names the others.
"""

from __future__ import annotations

from . import validation
from collections.abc import Callable

from .answering.fmt import article, fmt_pos, fmt_time
from .citations import Citations, checked_window, window_words
from .errors import InvalidInputError
from .labels import sanitize_label
from .queries import QueryService
from .store.observations import ObservationRows
from .types import Answer

SEEN_EVIDENCE = 50  # observation ids cited for "was it seen": the newest ones
#: The checks Memory exposes (each through its facade: memory._exposed).
PUBLIC = ("is_related", "did_move", "is_present", "was_seen")


def _span_text(since, until) -> str:
    """The window after an answer's verb, with its space (' since T', citations.window_words); '' for no bound."""
    return "" if since is None and until is None else f" {window_words(since, until)}"


class YesNoChecks:
    """is_related, did_move, is_present, was_seen: on the query service, what answers cite (citations.py), the
    observation rows and retention's count of thinned sightings in a span (``tallied_in``, retention.py)."""

    def __init__(self, queries: QueryService, citations: Citations, observation_rows: ObservationRows, *,
                 tallied_in: Callable):
        self._queries = queries
        self._citations = citations
        self._observation_rows = observation_rows
        self._tallied_in = tallied_in

    def _subjects(self, operator: str, label, object_id, args: dict):
        """(object rows, None) or (None, the 'no such object' answer). Rows (Citations.subject_rows), not
        ObjectInfo: a check describes one object (Citations.info_of) and names the others by id and state, so it
        reads their label mass and region no more (their number grows with a label's copies)."""
        if object_id is not None:
            if isinstance(object_id, bool) or not isinstance(object_id, int):
                raise InvalidInputError("object_id must be an integer")
            objs = self._citations.subject_rows(None, object_id)
        else:
            if not isinstance(label, str) or not label.strip():
                raise InvalidInputError("give a label or an object_id")
            objs = self._citations.subject_rows(label, None)
        if not objs:
            name = sanitize_label(label) if label else f"object #{object_id}"
            return None, Answer(True, operator, f"I have no memory of {article(name)}.", found=False, arguments=args)
        return objs, None

    @staticmethod
    def _others(objs) -> str:
        if len(objs) < 2:
            return ""
        return f" ({len(objs)} objects match; this is #{objs[0].id}, the others: " + ", ".join(
            f"#{o.id} {o.state}" for o in objs[1:]) + ")"

    def _where_now(self, obj) -> tuple[str, tuple, tuple]:
        """(phrase, placements, evidence) for where an object is now, or was last seen when missing: from the
        one placement it names (QueryService.placement_now), not the object's whole history."""
        pl = self._queries.placement_now(obj.id)
        evidence = tuple(self._citations.evidence([pl.id]))
        if pl.current:
            return f"it is{self._citations.support_phrase(obj.id)} at {fmt_pos(pl.center)}", (pl,), evidence
        return f"it is missing: last seen at {fmt_pos(pl.center)} at {fmt_time(obj.last_seen)}", (pl,), evidence

    # ------------------------------------------------------------------ is X on/under/near/in Y
    def is_related(self, relation: str, anchor, *, label: str | None = None, object_id: int | None = None,
                   t: float | None = None) -> Answer:
        """Is the object in ``relation`` to the anchor, now or as of ``t``? Yes: the relation row holds (its
        subject's placement is the evidence); no: where the object is (or was at t) instead."""
        if t is not None:
            t = validation.finite_number(t, "t")
        args = {"label": label, "object_id": object_id, "relation": relation, "anchor": anchor, "t": t}
        objs, missing = self._subjects("is_related", label, object_id, args)
        if missing is not None:
            return missing
        res = self._queries.relational(relation, anchor, t=t)
        anchor_name = sanitize_label(anchor) if isinstance(anchor, str) else f"object #{anchor}"
        if not res.anchor_found:
            return Answer(True, "is_related", f"I don't know any {anchor_name}.", found=False, arguments=args)
        ids = {o.id for o in objs}
        hits = [o for o in res.objects if o.id in ids]
        when = f"at {fmt_time(t)} " if t is not None else ""
        tense = "was" if t is not None else "is"
        if hits:
            obj = hits[0]
            since = min((r.since for r in res.relations if obj.id in (r.subject_id, r.object_id)), default=None)
            if t is not None:
                pl = next(p for o, p in zip(res.objects, res.placements) if o.id == obj.id)
            else:
                pl = self._queries.placement_now(obj.id)
            text = (f"Yes: {when}the {obj.label} {tense} {relation} the {anchor_name}"
                    + (f" (since {fmt_time(since)})" if since is not None and t is None else "") + ".")
            return Answer(True, "is_related", text, found=True, verdict=True, objects=(obj,), placements=(pl,),
                          evidence=tuple(self._citations.evidence([pl.id])), arguments=args)
        obj = self._citations.info_of(objs[0])
        if t is not None:
            at = self._queries.placements_at([obj.id], t)
            if at:
                text = f"No: at {fmt_time(t)} the {obj.label} was at {fmt_pos(at[0].center)}."
                pls, ev = (at[0],), tuple(self._citations.evidence([at[0].id]))
            else:
                text = f"No: at {fmt_time(t)} I do not know where the {obj.label} was."
                pls, ev = (), ()
        else:
            phrase, pls, ev = self._where_now(obj)
            text = f"No: the {obj.label} is not {relation} the {anchor_name}; {phrase}."
        return Answer(True, "is_related", text + self._others(objs), found=True, verdict=False, objects=(obj,),
                      placements=pls, evidence=ev, arguments=args)

    # ------------------------------------------------------------------ did X move
    def did_move(self, *, label: str | None = None, object_id: int | None = None, since: float | None = None,
                 until: float | None = None) -> Answer:
        """Did the object move (within [since, until])? The moves are the evidence (events, before/after
        placements, the observations that showed it elsewhere)."""
        lo, hi = checked_window(since, until)
        args = {"label": label, "object_id": object_id, "since": lo, "until": hi}
        objs, missing = self._subjects("did_move", label, object_id, args)
        if missing is not None:
            return missing
        obj = self._citations.info_of(objs[0])
        moves = self._queries.object_events(obj.id, "moved", lo, hi)
        span = _span_text(lo, hi)
        if moves:
            steps = "; ".join(f"at {fmt_time(e.stamp)} from {fmt_pos(e.before.center) if e.before else '?'} to "
                              f"{fmt_pos(e.after.center) if e.after else '?'}" for e in moves)
            text = f"Yes: the {obj.label} moved {len(moves)} time(s){span}: {steps}."
            evidence = tuple(sorted({i for e in moves for i in e.evidence}))
            pls = tuple(p for e in moves for p in (e.before, e.after) if p is not None)
            return Answer(True, "did_move", text + self._others(objs), found=True, verdict=True, objects=(obj,),
                          events=tuple(moves), placements=pls, evidence=evidence, count=len(moves), arguments=args)
        phrase, pls, ev = self._where_now(obj)
        text = f"No: the {obj.label} did not move{span or ' since I first saw it'}; {phrase}."
        return Answer(True, "did_move", text + self._others(objs), found=True, verdict=False, objects=(obj,),
                      placements=pls, evidence=ev, count=0, arguments=args)

    # ------------------------------------------------------------------ is X still there / missing
    def is_present(self, *, label: str | None = None, object_id: int | None = None, missing: bool = False) -> Answer:
        """Is the object still in its place (or, with missing=True, is it missing)? Present: its current
        placement; missing: the last placement and the removal event (the views that saw the place empty)."""
        operator = "is_missing" if missing else "is_present"
        args = {"label": label, "object_id": object_id}
        objs, absent = self._subjects(operator, label, object_id, args)
        if absent is not None:
            return absent
        obj = self._citations.info_of(objs[0])
        now = self._queries.placement_now(obj.id)   # the current placement, else the last (not the whole history)
        if obj.state == "present":
            cur = now
            text = (f"{'No' if missing else 'Yes'}: the {obj.label} is{self._citations.support_phrase(obj.id)} at "
                    f"{fmt_pos(cur.center)}, last seen {fmt_time(obj.last_seen)}.")
            return Answer(True, operator, text + self._others(objs), found=True, verdict=not missing, objects=(obj,),
                          placements=(cur,), evidence=tuple(self._citations.evidence([cur.id])), arguments=args)
        last = now
        event = self._queries.last_object_event(obj.id, "removed")
        checked = f", and was not there when I looked at {fmt_time(last.t_to)}" if last.t_to is not None else ""
        text = (f"{'Yes' if missing else 'No'}: the {obj.label} is missing: last seen at {fmt_pos(last.center)} at "
                f"{fmt_time(obj.last_seen)}{checked}.")
        evidence = tuple(sorted(set(self._citations.evidence([last.id])) | {i for e in event for i in e.evidence}))
        return Answer(True, operator, text + self._others(objs), found=True, verdict=missing, objects=(obj,),
                      placements=(last,), events=tuple(event), evidence=evidence, arguments=args)

    # ------------------------------------------------------------------ was X seen
    def was_seen(self, *, label: str | None = None, object_id: int | None = None, since: float | None = None,
                 until: float | None = None) -> Answer:
        """Was the object seen within [since, until]? The sightings (newest first, at most 50) are the
        evidence; "no" says when it was last seen."""
        lo, hi = checked_window(since, until)
        args = {"label": label, "object_id": object_id, "since": lo, "until": hi}
        objs, missing = self._subjects("was_seen", label, object_id, args)
        if missing is not None:
            return missing
        ids = [o.id for o in objs]
        lo_, hi_ = float("-inf") if lo is None else lo, float("inf") if hi is None else hi
        rows = self._observation_rows.sightings_in(ids, lo_, hi_)
        lived = (min(float(o.first_seen) for o in objs), max(float(o.last_seen) for o in objs))
        thinned, latest = self._tallied_in(ids, lo_, hi_, lived)  # retention: thinned sightings (exact stamps)
        count = len(rows) + thinned
        span = _span_text(lo, hi)
        if count:
            top = (float(rows[0]["stamp"]), int(rows[0]["id"]), int(rows[0]["object_id"])) if rows else None
            if latest is not None and (top is None or latest[:2] > top[:2]):
                top = latest
            seen = self._citations.info_of(next(o for o in objs if o.id == top[2]))
            last = top[0]
            # Where it was at that sighting, not where it is now: the placement that held at the sighting's stamp,
            # the place as_of(t=last) names (placements_at, t_from <= t < t_to), so "was the mug seen up to 25?"
            # and "where was the mug at 12?" agree. The object's centroid (where it is now) named B for a mug
            # last seen at A at 12 s and seen at B at 30 s (mug_moves_story, until=25).
            at = self._queries.placements_at([seen.id], last)
            where = f" at {fmt_pos(at[0].center)}" if at else ""   # no placement held then: the place is not named
            text = f"Yes: I saw the {seen.label} {count} time(s){span}, last at {fmt_time(last)}{where}."
            evidence = tuple(sorted(int(r["id"]) for r in rows[:SEEN_EVIDENCE]))  # kept sightings only
            return Answer(True, "was_seen", text, found=True, verdict=True, objects=(seen,), placements=tuple(at),
                          count=count, time=last, evidence=evidence, arguments=args)
        obj = self._citations.info_of(objs[0])
        text = f"No: I did not see the {obj.label}{span}; I last saw it at {fmt_time(obj.last_seen)}."
        last = self._observation_rows.last_id_of(obj.id)
        return Answer(True, "was_seen", text, found=True, verdict=False, objects=(obj,), count=0, time=obj.last_seen,
                      evidence=(last,) if last is not None else (), arguments=args)
