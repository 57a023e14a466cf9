"""Where to look for an object: its known places, ranked from its placement history, each with evidence.

Why from the history and not only the last place: a missing object's last place is exactly where the camera
looked and did not find it; people put things back where they usually go. A place is what a person would
call one: the support it stood on ("on the desk", from the relation rows valid during the stay) or, without
one, stays whose centres lie within PLACE_RADIUS_M of each other. Each place scores

    0.4 x share of the stays + 0.3 x share of the time it stood there + 0.3 x recency

recency = how late in the object's history it was last there (0 = its first sighting, 1 = now). With a long
history (at least TIME_OF_DAY_MIN_STAYS stays over TIME_OF_DAY_MIN_DAYS days) a fourth term, weight 0.25 (the
others scaled by 0.75), is the share of the time it stood there around this time of day (+/- 2 h) on earlier
days: the keys are on the hook in the evening and in the bag in the morning. A place whose latest stay ended
because the camera saw it empty (closed as removed) and that the object never came back to is halved: it was
looked at. A present object's current place comes first whatever its score (it is there now). Ties: later
last stay first, then the lower placement id. Deterministic: the same history and now
give the same ranking.
"""

from __future__ import annotations

import math

from collections.abc import Callable

from .answering.fmt import article, fmt_duration, fmt_pos, fmt_time
from .citations import Citations
from .errors import InvalidInputError
from .labels import sanitize_label
from .queries import QueryService
from .store.relations import RelationRows
from .types import Answer

PLACE_RADIUS_M = 0.35          # a mug put back "in the same place" lands within a few decimetres of it
W_COUNT, W_DWELL, W_RECENT = 0.4, 0.3, 0.3
W_TIME_OF_DAY = 0.25
TIME_OF_DAY_MIN_STAYS = 5
TIME_OF_DAY_MIN_DAYS = 2.0
TIME_OF_DAY_HALF_WINDOW_S = 2 * 3600.0
SEEN_EMPTY_FACTOR = 0.5
MAX_PLACES = 10
EVIDENCE_PER_PLACE = 10
#: What Memory exposes (through its facade: memory._exposed).
PUBLIC = ("where_to_look",)


def _tod_overlap(t_from: float, t_to: float, now: float) -> float:
    """Seconds of [t_from, t_to] that fall within +/- 2 h of now's time of day on days before now."""
    total = 0.0
    day = 86400.0
    k_hi = math.floor((now - t_from) / day) + 1
    k_lo = max(1, math.floor((now - t_to) / day) - 1)
    for k in range(k_lo, k_hi + 1):
        centre = now - k * day
        lo, hi = max(t_from, centre - TIME_OF_DAY_HALF_WINDOW_S), min(t_to, centre + TIME_OF_DAY_HALF_WINDOW_S)
        total += max(0.0, hi - lo)
    return total


def _dist(a, b) -> float:
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


class WhereToLook:
    """where_to_look: on the query service, what answers cite (citations.py), the relation rows (what an object
    stood on during a stay) and the memory's clock (``now``: its newest accepted stamp)."""

    def __init__(self, queries: QueryService, citations: Citations, relation_rows: RelationRows, *,
                 now: Callable[[], float]):
        self._queries = queries
        self._citations = citations
        self._relation_rows = relation_rows
        self._now = now

    def _support_during(self, object_id: int, p) -> tuple[int, str] | None:
        """The object it stood on for the longest part of placement p (from the relation rows), or None."""
        end = p.t_to if p.t_to is not None else math.inf
        best = None
        for r in self._relation_rows.supports_during(object_id, p.t_from, end):
            overlap = min(end, math.inf if r["until"] is None else r["until"]) - max(p.t_from, r["since"])
            key = (overlap, -int(r["object_id"]))
            if best is None or key > best[0]:
                best = (key, int(r["object_id"]), r["pinned_label"] or r["label"])
        return None if best is None else (best[1], best[2])

    def where_to_look(self, *, label: str | None = None, object_id: int | None = None,
                      now: float | None = None) -> Answer:
        """The object's known places, best first (scores in ``scores``, the latest placement of each place in
        ``placements``, their observations in ``evidence``). See the module docstring for the ranking."""
        args = {"label": label, "object_id": object_id}
        if object_id is not None:
            if isinstance(object_id, bool) or not isinstance(object_id, int):
                raise InvalidInputError("object_id must be an integer")
            objs = self._citations.objects_labelled_or_id(None, object_id)
        else:
            if not isinstance(label, str) or not label.strip():
                raise InvalidInputError("give a label or an object_id")
            objs = self._queries.objects_labelled(label)
        if not objs:
            name = sanitize_label(label) if label else f"object #{object_id}"
            return Answer(True, "where_to_look", f"I have no memory of {article(name)}.", found=False, arguments=args)
        if now is None:
            now = self._now()
        obj = objs[0]
        pls = self._queries.placements(obj.id)
        places: list[dict] = []
        for p in pls:
            support = self._support_during(obj.id, p)
            place = None
            for q in places:
                if support is not None and q["support"] is not None and q["support"][0] == support[0]:
                    place = q
                elif support is None and q["support"] is None and _dist(q["center"], p.center) <= PLACE_RADIUS_M:
                    place = q
                if place is not None:
                    break
            if place is None:
                place = {"support": support, "center": p.center, "stays": []}
                places.append(place)
            place["stays"].append(p)
        first = pls[0].t_from
        span = max(now - first, 1e-9)
        use_tod = len(pls) >= TIME_OF_DAY_MIN_STAYS and span >= TIME_OF_DAY_MIN_DAYS * 86400.0
        dwell_all = sum(max(0.0, (p.t_to if p.t_to is not None else now) - p.t_from) for p in pls) or 1.0
        tod_all = sum(_tod_overlap(p.t_from, p.t_to if p.t_to is not None else now, now) for p in pls) or 1.0
        ranked = []
        last_stay = pls[-1]
        for q in places:
            stays = q["stays"]
            dwell = sum(max(0.0, (p.t_to if p.t_to is not None else now) - p.t_from) for p in stays)
            last_t = max((p.t_to if p.t_to is not None else now) for p in stays)
            score = (W_COUNT * len(stays) / len(pls) + W_DWELL * dwell / dwell_all
                     + W_RECENT * min(1.0, max(0.0, (last_t - first) / span)))
            tod = 0.0
            if use_tod:
                tod = sum(_tod_overlap(p.t_from, p.t_to if p.t_to is not None else now, now) for p in stays) / tod_all
                score = (1 - W_TIME_OF_DAY) * score + W_TIME_OF_DAY * tod
            latest = max(stays, key=lambda p: (p.t_from, p.id))
            seen_empty = latest.closed_reason == "removed" and latest is last_stay
            if seen_empty:
                score *= SEEN_EMPTY_FACTOR
            ranked.append({"place": q, "score": round(score, 9), "dwell": dwell, "last": last_t, "latest": latest,
                           "tod": tod, "seen_empty": seen_empty})
        # A present object is where it stands now, whatever its history says: that place comes first.
        ranked.sort(key=lambda r: (not r["latest"].current, -r["score"], -r["last"], r["latest"].id))
        ranked = ranked[:MAX_PLACES]
        parts = []
        for i, r in enumerate(ranked, 1):
            q, latest = r["place"], r["latest"]
            where = (f"on the {q['support'][1]} at {fmt_pos(latest.center)}" if q["support"] is not None
                     else f"at {fmt_pos(latest.center)}" + (f" in the {latest.region_label}" if latest.region_label
                                                              else ""))
            now_there = latest.current
            note = ("it is there now" if now_there else
                    f"looked there at {fmt_time(latest.t_to)}: not there" if r["seen_empty"] else
                    f"last there {fmt_time(r['last'])}")
            tod = f", {100 * r['tod']:.0f} % of its time there around this hour" if use_tod else ""
            parts.append(f"{i}. {where}: {len(q['stays'])} stay(s), {fmt_duration(r['dwell'])} in all{tod}; {note} "
                         f"(score {r['score']:.2f})")
        state = ("it is present now" if obj.state == "present" else
                 f"missing since {fmt_time(last_stay.t_to)}" if last_stay.t_to is not None else "missing")
        text = f"Where to look for the {obj.label} ({state}): " + "; ".join(parts) + "."
        if len(objs) > 1:
            text += f" ({len(objs)} objects match; this is #{obj.id})"
        evidence: list[int] = []
        for r in ranked:
            evidence += self._citations.evidence([r["latest"].id])[:EVIDENCE_PER_PLACE]
        return Answer(True, "where_to_look", text, found=True, objects=(obj,),
                      placements=tuple(r["latest"] for r in ranked), scores=tuple(r["score"] for r in ranked),
                      evidence=tuple(evidence), count=len(ranked), arguments=args)
