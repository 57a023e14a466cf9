"""A question typed as a structured request: a JSON object ('{"tool": "locate", "object": "keys"}'), possibly after
a header ('query: {...}', 'tool_request: {...}').

Why a reader of its own: language-model agents write their requests this way, and read as prose (normalise.py drops
the punctuation) the field names become words of the question: heldout11's '{"tool": "locate", "object": "keys"}' was
a semantic search for "object keys" (a wrong route), and 20 more such requests were refused. Here the fields are read
as fields, through the operator table's own vocabulary (operators.TOOL_NAMES, REQUEST_*_FIELDS):

- a field naming the operator ("tool", "op", "fn", "query", "check", "metric", ...) must hold one of TOOL_NAMES (or a
  relation word: '"check": "on"' asks whether a thing is on another); any other name refuses the request;
- every other field is an argument (label, anchor, relation, a time, a span, kinds, a point, a radius, a
  description), a field that only shapes the answer ("return", "format": ignored and shown as ignored), or a field
  this reader does not know, which refuses the request ('{"role": "system", "content": ...}');
- with no operator named, the arguments decide: the one operator whose parameters hold every argument given and
  whose required ones are all given ('{"object": "laptop", "as_of": ...}' is the laptop's place then); an operator
  of the past only with a time or '"when": "before..."'; two such operators refuse the request as ambiguous.

Every value is untrusted: strings are capped and must be free of control characters, things are resolved against
the memory's labels like a question's (slots.resolve; an unknown one answers "I don't know any X"), times are epoch
seconds, ISO stamps, "now", "now-30m" or what timeexpr reads ("last 24h"), never in the future, numbers must be finite
and in range. A request whose fields hold only prose ('{"goal": "find wallet", "need": "ranked search locations"}')
is left to the rules (None), which read it as text as before. Pure and deterministic.
"""

from __future__ import annotations

import json
import math
import re

from . import timeexpr
from .operators import (APPEARED, BY_NAME, PAST_OPERATORS, RELATION_WORDS, REQUEST_ARG_FIELDS, REQUEST_BEFORE,
                        REQUEST_NAME_FIELDS, REQUEST_NOW, REQUEST_SHAPE_FIELDS, REQUEST_UNIT_FIELDS, TABLE,
                        TOOL_NAMES)
from .slots import Names, resolve

MAX_FIELDS = 10
MAX_VALUE_CHARS = 200
MAX_COORD = 1e6
MAX_RADIUS = 1000.0
MAX_SPAN_S = 10 * 365 * 86400.0
_REQUEST = re.compile(r"^\s*(?:[A-Za-z][\w ]{0,30}:\s*)?(\{.*\})\s*$", re.S)
_NOW_MINUS = re.compile(r"^now ?- ?(\d+(?:\.\d+)?) ?(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?)$")
_UNIT_S = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_KINDS = {"moved": ["moved"], "move": ["moved"], "moves": ["moved"], "appeared": list(APPEARED),
          "new": list(APPEARED), "added": list(APPEARED), "appear": list(APPEARED), "reappeared": ["reappeared"],
          "removed": ["removed"], "disappeared": ["removed"], "vanished": ["removed"], "missing": ["removed"],
          "gone": ["removed"]}


class _Refuse(Exception):
    """A structured request this reader cannot map; the message says why (safe to show: no value is echoed raw)."""


def _key(k) -> str:
    return re.sub(r"[\s-]+", "_", str(k).strip().lower())


def _shown(v) -> str:
    """A value as a refusal may name it: short, printable."""
    text = re.sub(r"[^\w .:-]", "", str(v))[:40]
    return text or "?"


def _text(v, name: str) -> str:
    if not isinstance(v, str) or not v.strip():
        raise _Refuse(f"the field '{name}' must be a non-empty string")
    if len(v) > MAX_VALUE_CHARS or any(ord(c) < 32 and c != "\t" for c in v):
        raise _Refuse(f"the field '{name}' is too long or holds control characters")
    return v.strip()


def _number(v, name: str, lo: float, hi: float) -> float:
    if isinstance(v, str) and re.fullmatch(r"\s*-?\d+(?:\.\d+)?\s*", v):
        v = float(v)
    try:
        ok = not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(float(v)) and lo <= v <= hi
    except OverflowError:  # an integer of 400 digits
        ok = False
    if not ok:
        raise _Refuse(f"the field '{name}' must be a finite number in [{lo:g}, {hi:g}]")
    return float(v)


def _moment(v, name: str, now: float | None) -> float:
    """A moment: epoch seconds, an ISO stamp, "now", "now-30m", or a time expression timeexpr reads ("2 hours ago")."""
    if now is None:
        raise _Refuse("the memory has no observations yet, so a time means nothing")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return _number(v, name, 0.0, now)
    text = _text(v, name).lower()
    if text == "now":
        return now
    m = _NOW_MINUS.match(text)
    if m:
        return now - _number(float(m.group(1)) * _UNIT_S[m.group(2)[0]], name, 0.0, MAX_SPAN_S)
    try:
        rest, found = timeexpr.extract(text, now)
    except timeexpr.TimeError as exc:
        raise _Refuse(f"the field '{name}': {exc}") from None
    if len(found) != 1 or found[0].kind != "point" or rest not in ("@t", "at @t"):
        raise _Refuse(f"the field '{name}' is not a moment I can read")
    return found[0].t


def _span(v, name: str, now: float | None, unit: float | None = None) -> tuple[float, float]:
    """A span ending now: a length ("last 24h", "30 minutes"; a number of ``unit`` seconds)."""
    if now is None:
        raise _Refuse("the memory has no observations yet, so a time means nothing")
    if unit is not None or isinstance(v, (int, float)) and not isinstance(v, bool):
        seconds = _number(v, name, 0.0, MAX_SPAN_S / (unit or 1.0)) * (unit or 1.0)
        if seconds <= 0:
            raise _Refuse(f"the field '{name}' must be a positive length of time")
        return now - seconds, now
    text = re.sub(r"(?<=\d)(?=[a-z])", " ", _text(v, name).lower())  # "24h" -> "24 h"
    if not re.match(r"^(?:the )?(?:last|past|previous) ", text) and not text.startswith(
            ("today", "yesterday", "this ")):
        text = "last " + text
    try:
        rest, found = timeexpr.extract(text, now)
    except timeexpr.TimeError as exc:
        raise _Refuse(f"the field '{name}': {exc}") from None
    if len(found) != 1 or found[0].kind != "window" or rest != "@w":
        raise _Refuse(f"the field '{name}' is not a span I can read")
    return found[0].since, found[0].until


def _kinds(v, name: str) -> list[str]:
    items = v if isinstance(v, list) else [v]
    if not items or len(items) > 4:
        raise _Refuse(f"the field '{name}' must list change kinds")
    out: list[str] = []
    for item in items:
        kind = _KINDS.get(_key(_text(item, name)))
        if kind is None:
            raise _Refuse(f"the field '{name}' holds '{_shown(item)}', not a change kind (moved, appeared, removed, "
                          "reappeared)")
        out += [k for k in kind if k not in out]
    return out


def _point(v, name: str) -> list[float]:
    if isinstance(v, dict) and set(map(_key, v)) == {"x", "y", "z"}:
        v = [v[k] for k in sorted(v, key=_key)]
    if not isinstance(v, list) or len(v) != 3:
        raise _Refuse(f"the field '{name}' must be [x, y, z]")
    return [_number(c, name, -MAX_COORD, MAX_COORD) for c in v]


def _radius(v, name: str, unit: float = 1.0) -> float:
    if isinstance(v, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(m|cm|mm)?\s*", v.lower())
        if m is None:
            raise _Refuse(f"the field '{name}' must be a distance in metres")
        v, unit = float(m.group(1)), {"m": 1.0, "cm": 0.01, "mm": 0.001, None: unit}[m.group(2)]
    r = _number(v, name, 0.0, MAX_RADIUS / unit) * unit
    if r <= 0:
        raise _Refuse(f"the field '{name}' must be a distance above 0")
    return r


NOT_JSON = "the request is not a JSON object (or gives a field twice)"


def parse(question) -> dict | str | None:
    """The JSON object a question is; None when it is no object in braces (then the rules read it as text); NOT_JSON
    when it is one in braces that is not valid JSON or gives a field twice (refused: its prose is no question)."""
    if not isinstance(question, str) or "{" not in question:
        return None
    m = _REQUEST.match(question[:2000])
    if m is None:
        return None

    def pairs(items):
        keys = [_key(k) for k, _ in items]
        if len(set(keys)) != len(keys):
            raise ValueError("a field given twice")
        return dict(items)

    try:
        obj = json.loads(m.group(1), object_pairs_hook=pairs, parse_constant=lambda c: float("nan"))
    except (ValueError, RecursionError):
        return NOT_JSON
    return obj if isinstance(obj, dict) else NOT_JSON


def read(question, now: float | None, names: Names):
    """(operator, args, ignored, unknown) of a structured request; a str (why it is refused) when it is one this
    reader cannot map; None when the question is no structured request, or one of prose only (the rules read it)."""
    obj = parse(question)
    if obj is None or isinstance(obj, str):
        return obj
    try:
        return _read(obj, now, names)
    except _Refuse as exc:
        return str(exc)


def _read(obj: dict, now: float | None, names: Names):
    if not obj or len(obj) > MAX_FIELDS:
        raise _Refuse("a request must have between 1 and 10 fields")
    named: list[tuple[str, dict]] = []  # (operator, the arguments its name fixes)
    raw: dict[str, tuple[str, object]] = {}  # argument -> (field, value)
    ignored: list[str] = []
    prose = 0
    for field, value in obj.items():
        k = _key(field)
        if k in REQUEST_NAME_FIELDS:
            if not isinstance(value, str):
                raise _Refuse(f"the field '{_shown(k)}' must name what is asked")
            name = _key(_text(value, k))
            if name in TOOL_NAMES:
                named.append(TOOL_NAMES[name])
            elif name.replace("_", " ") in RELATION_WORDS:
                named.append(("", {"relation": RELATION_WORDS[name.replace("_", " ")]}))
            elif " " in value.strip():
                prose += 1  # '"goal": "find wallet"': prose, left to the rules
            else:
                raise _Refuse(f"'{_shown(value)}' is nothing I can look up")
        elif k in TOOL_NAMES and TOOL_NAMES[k][1].get("relation"):  # '{"objects_near": "sofa"}'
            named.append(TOOL_NAMES[k])
            _put(raw, "anchor", k, value)
        elif k.replace("_", " ") in RELATION_WORDS:  # '{"object": "laptop", "on": "desk"}'
            _put(raw, "relation", k, RELATION_WORDS[k.replace("_", " ")])
            _put(raw, "anchor", k, value)
        elif k in REQUEST_ARG_FIELDS:
            _put(raw, REQUEST_ARG_FIELDS[k], k, value)
        elif k in REQUEST_UNIT_FIELDS:
            _put(raw, REQUEST_UNIT_FIELDS[k][0], k, (value, REQUEST_UNIT_FIELDS[k][1]))
        elif k in REQUEST_SHAPE_FIELDS:
            ignored.append(f"{_shown(k)}={_shown(value)}")
        else:
            raise _Refuse(f"the request has a field I do not know: '{_shown(k)}'")
    if prose and not named and not raw:
        return None
    if prose:
        raise _Refuse("the request mixes prose with fields; ask in words or in fields")
    ops = {op for op, _ in named if op}
    if len(ops) > 1:
        raise _Refuse("the request names more than one thing to do (" + ", ".join(sorted(ops)) + ")")
    fixed: dict = {}
    for _, f in named:
        for key, v in f.items():
            if fixed.get(key, v) != v:
                raise _Refuse(f"the request names two values of {key}")
            fixed[key] = v
    args = _values(raw, fixed, now, names)
    when = args.pop("when", None)
    op = _operator(next(iter(ops)) if ops else None, args, when)
    spec = BY_NAME[op]
    params = {p.name for p in spec.params}
    if "label" in args and "label" not in params and "anchor" in params and "anchor" not in args:
        args["anchor"] = args.pop("label")  # '{"tool": "objects_on", "object": "table"}': the thing is the anchor
    extra = sorted(set(args) - params)
    if extra:
        raise _Refuse(f"{op} takes no {', '.join(extra)}")
    unknown = ""
    for slot, regions in (("label", False), ("anchor", True)):
        if slot in args:
            thing = resolve(args[slot], names, regions=regions)
            if thing is None or thing.indefinite:
                raise _Refuse(f"'{_shown(args[slot])}' is not the name of a thing")
            args[slot] = thing.label
            ignored += thing.ignored
            unknown = unknown or ("" if thing.known else slot)
    missing = [p.name for p in spec.params if p.required and p.name not in args]
    if op == "spatial" and "center" not in args and "anchor" not in args:
        missing.append("center or anchor")
    if missing:
        raise _Refuse(f"{op} needs {', '.join(missing)}")
    if "since" in args and "until" in params:
        args.setdefault("until", now)
    if op == "changes":
        args.setdefault("since", None)
        args.setdefault("until", now)
    if args.get("since") is not None and args.get("until") is not None and args["since"] > args["until"]:
        raise _Refuse("the span ends before it starts")
    return op, args, tuple(ignored), unknown


def _put(raw: dict, arg: str, field: str, value) -> None:
    if arg in raw:
        raise _Refuse(f"the request gives {arg} twice ('{_shown(raw[arg][0])}', '{_shown(field)}')")
    raw[arg] = (field, value)


def _values(raw: dict, fixed: dict, now, names) -> dict:
    """Each argument's value, validated; the arguments an operator's name fixes come first."""
    args = dict(fixed)
    for arg, (field, value) in raw.items():
        unit = None
        if isinstance(value, tuple):
            value, unit = value
        if arg in ("label", "anchor", "text"):
            args[arg] = _text(value, field)
        elif arg == "relation":
            rel = RELATION_WORDS.get(_key(_text(value, field)).replace("_", " "))
            if rel is None:
                raise _Refuse(f"the field '{_shown(field)}' must be on, under, near or in")
            if args.get("relation", rel) != rel:
                raise _Refuse("the request names two relations")
            args["relation"] = rel
        elif arg == "t":
            args["t"] = _moment(value, field, now)
        elif arg in ("since", "until"):
            args[arg] = _moment(value, field, now)
        elif arg == "window":
            if "since" in raw or "until" in raw:
                raise _Refuse("give a span or its ends, not both")
            args["since"], args["until"] = _span(value, field, now, unit)
        elif arg == "kinds":
            if args.get("kinds") is not None and sorted(args["kinds"]) != sorted(_kinds(value, field)):
                raise _Refuse("the request names two sets of change kinds")
            args["kinds"] = _kinds(value, field)
        elif arg == "center":
            args["center"] = _point(value, field)
        elif arg == "radius":
            args["radius"] = _radius(value, field, unit or 1.0)
        elif arg == "when":
            w = _key(_text(value, field)) if isinstance(value, str) else None
            if w in REQUEST_BEFORE:
                args["when"] = "before"
            elif w in REQUEST_NOW:
                args["when"] = "now"
            else:
                args["t"] = _moment(value, field, now)
    return args


def _operator(named: str | None, args: dict, when: str | None) -> str:
    """The operator: the one named, or the one whose parameters the arguments fit (see the module's docstring)."""
    given = set(args)
    if named is not None:
        if when == "before" and named not in PAST_OPERATORS or when == "now" and named in PAST_OPERATORS:
            raise _Refuse(f"'when' does not fit {named}")
        return named
    fits = []
    for spec in TABLE:
        if not given <= {p.name for p in spec.params}:
            continue
        if any(p.required and p.name not in given for p in spec.params):
            continue
        if spec.name in PAST_OPERATORS and when != "before" and "t" not in given:
            continue  # a past operator only with a time or '"when": "before"'
        if when == "before" and spec.name not in PAST_OPERATORS or when == "now" and spec.name in PAST_OPERATORS:
            continue
        if spec.name == "spatial" and "center" not in given and "anchor" not in given:
            continue
        fits.append(spec.name)
    if not given or not fits:
        raise _Refuse("the fields name no question I can answer")
    if len(fits) > 1:
        raise _Refuse("the fields fit more than one question (" + ", ".join(fits) + "); name the tool")
    return fits[0]


__all__ = ["parse", "read"]
