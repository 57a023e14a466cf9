"""Deterministic routing of English questions to the memory's operators.

Why rules and not a language model: the answer must be reproducible and explainable (the same question
on the same memory always runs the same operator with the same arguments), and a question the rules do
not cover must be refused with a helpful message, never guessed. Relative times ("5 minutes ago", "in the
last 10 minutes") are resolved against ``now`` given by the caller (by default the newest stamp the memory
has seen, so a replayed bag is questioned about its own time). Clock times ("at 10:30") are UTC on the
day of ``now``; a clock time later than ``now`` means the previous day.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

_NUM = r"[-+]?\d+(?:\.\d+)?"
_ART = r"(?:(?:the|my|a|an|our|your)\s+)?"
_UNITS = {"s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0, "min": 60.0, "mins": 60.0,
          "minute": 60.0, "minutes": 60.0, "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0,
          "hours": 3600.0, "day": 86400.0, "days": 86400.0}
_UNIT = r"(?P<unit>seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?)"
_AMOUNT = rf"(?P<n>{_NUM}|an?|one)"
_REL = {"on": "on", "on top of": "on", "under": "under", "underneath": "under", "below": "under",
        "beneath": "under", "near": "near", "next to": "near", "beside": "near", "close to": "near",
        "around": "near", "in": "in", "inside": "in", "within": "in"}

HELP = ("I did not understand the question. I can answer: where is the X; where was the X before; where has "
        "the X been; how many times did the X move; how many times did I see the X; when did I last/first "
        "see the X; where was the X N minutes ago / at HH:MM; how long has the X been there; what changed in "
        "the last N minutes; what is on/under/near/in the X; what is within R m of X Y Z; find <description>.")


@dataclass(frozen=True)
class Route:
    operator: str
    args: dict = field(default_factory=dict)


def _amount(text: str) -> float:
    return 1.0 if text in ("a", "an", "one") else float(text)


def _clock_time(now: float, hh: int, mm: int, ampm: str | None) -> float | None:
    if ampm:
        if not 1 <= hh <= 12:
            return None
        hh = hh % 12 + (12 if ampm == "pm" else 0)
    if not (0 <= hh <= 23 and 0 <= mm <= 59):
        return None
    day = dt.datetime.fromtimestamp(now, tz=dt.timezone.utc)
    t = day.replace(hour=hh, minute=mm, second=0, microsecond=0).timestamp()
    return t - 86400.0 if t > now else t


def _clean(question: str) -> str:
    q = question.strip().lower().replace("\u2019", "'")
    q = re.sub(r"[?!.]+$", "", q).strip()
    q = re.sub(r"\s+", " ", q)
    return q


_PATTERNS: list[tuple[re.Pattern, str]] = [(re.compile(p), op) for p, op in [
    (rf"^where (?:was|were) {_ART}(?P<label>.+?) {_AMOUNT} {_UNIT} ago$", "as_of_ago"),
    (rf"^where (?:was|were) {_ART}(?P<label>.+?) at (?P<hh>\d{{1,2}}):(?P<mm>\d{{2}}) ?(?P<ampm>am|pm)?$",
     "as_of_clock"),
    (rf"^where (?:was|were) {_ART}(?P<label>.+?) at (?:t ?= ?)?(?P<t>\d{{6,}}(?:\.\d+)?)$", "as_of_abs"),
    (rf"^where (?:was|were) {_ART}(?P<label>.+?) (?:before|previously|earlier|last time)$", "previous"),
    (rf"^where did {_ART}(?P<label>.+?) used to be$", "previous"),
    (rf"^where (?:has|have) {_ART}(?P<label>.+?) been$", "history"),
    (rf"^(?:what is the )?history of {_ART}(?P<label>.+)$", "history"),
    (rf"^how (?:many times|often) (?:did|has|have|was|were) {_ART}(?P<label>.+?) (?:move|moved|been moved)$",
     "count_moves"),
    (rf"^how (?:many times|often) (?:did|have) (?:i|you|we) (?:see|seen) {_ART}(?P<label>.+)$", "count_sightings"),
    (rf"^when (?:did|have) (?:i|you|we) (?:last see|last seen|see|seen) {_ART}(?P<label>.+?)(?: last)?$",
     "last_seen"),
    (rf"^when (?:was|were) {_ART}(?P<label>.+?) last seen$", "last_seen"),
    (rf"^when (?:did|have) (?:i|you|we) first (?:see|seen) {_ART}(?P<label>.+)$", "first_seen"),
    (rf"^when (?:was|were) {_ART}(?P<label>.+?) first seen$", "first_seen"),
    (rf"^how long (?:has|have) {_ART}(?P<label>.+?) been (?:there|here|in place|at its place|where it is)$",
     "duration"),
    (rf"^what (?:has )?changed (?:in|during|over) the (?:last|past) {_AMOUNT} {_UNIT}$", "changes_last"),
    (r"^what (?:has )?changed in the (?:last|past) (?P<unit>minute|hour|day)$", "changes_last_one"),
    (rf"^what (?:has )?changed since {_AMOUNT} {_UNIT} ago$", "changes_last"),
    (r"^what (?:has )?changed$", "changes_all"),
    (rf"^(?:what|which objects?|what things?) (?:is|are|'s|lies|lie|stands?) within (?P<r>{_NUM}) ?"
     rf"(?:m|meters?|metres?) of (?P<x>{_NUM})[ ,]+(?P<y>{_NUM})[ ,]+(?P<z>{_NUM})$", "spatial"),
    (rf"^(?:what|which objects?|what things?) (?:is|are|'s) (?P<rel>on top of|on|underneath|under|below|beneath|"
     rf"next to|beside|close to|near|around|inside|in) {_ART}(?P<anchor>.+)$", "relational"),
    (rf"^where (?:is|are) {_ART}(?P<label>.+?)(?: now| right now| currently)?$", "current"),
    (r"^(?:find|show me|where can i find|i need|i want|get me|look for|search for|is there) (?P<text>.+)$",
     "semantic"),
    # An activity instead of a thing: the whole question is the description ("where can I sit").
    (r"^(?P<text>(?:where can i|what can i use to|what can i|what do i use to) .+)$", "semantic"),
]]


def route(question: str, now: float | None) -> Route | None:
    """The operator and arguments for a question, or None when it is not understood."""
    if not isinstance(question, str):
        return None
    q = _clean(question)
    if not q:
        return None
    for pattern, kind in _PATTERNS:
        m = pattern.match(q)
        if not m:
            continue
        g = m.groupdict()
        if kind in ("current", "previous", "history", "count_moves", "count_sightings", "last_seen",
                    "first_seen", "duration"):
            return Route(kind, {"label": g["label"].strip()})
        if kind == "as_of_ago":
            if now is None:
                return None
            return Route("as_of", {"label": g["label"].strip(),
                                   "t": now - _amount(g["n"]) * _UNITS[g["unit"]]})
        if kind == "as_of_clock":
            if now is None:
                return None
            t = _clock_time(now, int(g["hh"]), int(g["mm"]), g.get("ampm"))
            return None if t is None else Route("as_of", {"label": g["label"].strip(), "t": t})
        if kind == "as_of_abs":
            return Route("as_of", {"label": g["label"].strip(), "t": float(g["t"])})
        if kind == "changes_last":
            if now is None:
                return None
            return Route("changes", {"since": now - _amount(g["n"]) * _UNITS[g["unit"]], "until": now})
        if kind == "changes_last_one":
            if now is None:
                return None
            return Route("changes", {"since": now - _UNITS[g["unit"]], "until": now})
        if kind == "changes_all":
            return Route("changes", {"since": None, "until": now})
        if kind == "spatial":
            return Route("spatial", {"center": (float(g["x"]), float(g["y"]), float(g["z"])),
                                     "radius": float(g["r"])})
        if kind == "relational":
            return Route("relational", {"relation": _REL[g["rel"]], "anchor": g["anchor"].strip()})
        if kind == "semantic":
            return Route("semantic", {"text": g["text"].strip()})
    return None
