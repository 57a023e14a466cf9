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
from .operators import (APPEARED, BY_NAME, CHECK_OPERATORS, PAST_OPERATORS, RELATION_WORDS, REQUEST_ARG_FIELDS,
                        REQUEST_BEFORE, REQUEST_NAME_FIELDS, REQUEST_NAME_WORD_FIELDS, REQUEST_NOW,
                        REQUEST_SHAPE_FIELDS, REQUEST_UNIT_FIELDS, REQUEST_YESNO_FIELDS, TABLE, TOOL_NAMES)
from .slots import Names, names_in, resolve

MAX_FIELDS = 10
MAX_VALUE_CHARS = 200
MAX_COORD = 1e6
MAX_RADIUS = 1000.0
MAX_SPAN_S = 10 * 365 * 86400.0
_REQUEST = re.compile(r"^\s*(?:[A-Za-z][\w ]{0,30}:\s*)?(\{.*\})\s*$", re.S)
_NOW_MINUS = re.compile(r"^now ?- ?(\d+(?:\.\d+)?) ?(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?)$")
_UNIT_S = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_SPAN_UNIT = re.compile(r"^(\d+(?:\.\d+)?) ?(s|sec|secs|m|min|mins|h|hr|hrs|d)$")
# '"within_s": 600', '"last_minutes": 20', '"window_hrs": 2': a span field with its unit in its name
_UNIT_FIELD = re.compile(r"^(window|within|within_last|last|span|period|past)_(s|sec|secs|seconds|m|min|mins|minutes|h|"
                         r"hr|hrs|hours|d|days)$")
# tenth round, fields named by their words as agents' schemas write them (heldout13): a moment before now with its unit
# in the name, a radius with its unit, a field that orders the answer ("rank_by", "sort_by", "order_by")
_AGO_FIELD = re.compile(r"^(?:ago_(s|sec|secs|seconds|m|min|mins|minutes|h|hr|hrs|hours|d|days)|"
                        r"(s|sec|secs|seconds|m|min|mins|minutes|h|hr|hrs|hours|d|days)_ago)$")
_RADIUS_FIELD = re.compile(r"^(?:r|radius|distance|dist|within)_(m|cm|mm|meters|metres)$")
_LENGTH_UNITS = {"m": 1.0, "meters": 1.0, "metres": 1.0, "cm": 0.01, "mm": 0.001}
_SHAPE_BY_FIELD = re.compile(r"^(?:rank|sort|order|group)_by$")
# an anchor given by a field whose name says the relation: a "surface" holds things on it, a "container" in it
_ANCHOR_FIELD_RELATION = {"surface": "on", "container": "in", "room": "in", "region": "in"}
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


def not_a_thing(value, names: Names, regions: bool) -> str:
    """Why a label or anchor of a request resolves to no thing: it names two known things ("'keys DROP TABLE objects'
    names more than one thing (keys, table): name one"; stop 36), or none."""
    named = names_in(value, names, regions=regions) if isinstance(value, str) else ()
    if len(named) > 1:
        return f"'{_shown(value)}' names more than one thing ({', '.join(_shown(n) for n in named[:4])}): name one"
    return f"'{_shown(value)}' is not the name of a thing"


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


_CLOCK_ALONE = re.compile(r"\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}")


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
    # fifteenth round: a clock time alone ('--since 08:00', '"t": "9:30pm"') is the latest such time not after now, as
    # "at 08:00" is in a question (heldout17's 'history book --since 08:00' was refused for its value)
    if _CLOCK_ALONE.fullmatch(text):
        text = f"at {text}"
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
    m = _SPAN_UNIT.match(_text(v, name).lower())
    if m:  # "20m", "60 min", "2h": a length in a unit of time ("m" is minutes in a span, never metres)
        seconds = _number(float(m.group(1)) * _UNIT_S[m.group(2)[0]], name, 0.0, MAX_SPAN_S)
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
    when it is one in braces that is not valid JSON or gives a field twice (refused: its prose is no question).
    Ninth round: a function call ('prev_location(obj="charger")', a ReAct 'Action: where_is(book)', 'moved(keys) ->
    bool') and fields typed as key=value ('history label=keys', 'status=missing list=all') are the same request in
    another syntax (call_syntax), and a function-calling object's nested arguments ('{"name": ..., "arguments":
    {...}}') are its fields (_flatten)."""
    if not isinstance(question, str):
        return None
    call = call_syntax(question)
    if call is not None:
        return call
    markup = xml_call(question)
    if markup is not None:
        return markup
    if "{" not in question:
        return None
    graph = graphql_call(question)
    if graph is not None:
        return graph
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
        obj = _python_literal(m.group(1))
        if obj is None:
            return NOT_JSON
    if not isinstance(obj, dict):
        return NOT_JSON
    obj = unwrap(obj)
    return _flatten(obj) if isinstance(obj, dict) else NOT_JSON


# ------------------------------------------------------------------ agents' other syntaxes (tenth round)
def _python_literal(text: str) -> dict | None:
    """A request written as a Python dict ("{'tool': 'locate', 'object': 'keys'}", as an agent's repr prints it): read
    by ast.literal_eval, which evaluates literals only (no name, call or attribute), on at most 2,000 characters; a
    field given twice (which a dict would silently merge) or a key that is no string refuses it."""
    import ast
    if "'" not in text:
        return None
    try:
        tree = ast.parse(text, mode="eval")
        if not isinstance(tree.body, ast.Dict):
            return None
        keys = [k.value if isinstance(k, ast.Constant) else None for k in tree.body.keys]
        if any(not isinstance(k, str) for k in keys) or len({_key(k) for k in keys}) != len(keys):
            return None
        obj = ast.literal_eval(tree)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return None
    return obj if isinstance(obj, dict) else None


# An XML tool call ('<call name="count_moves"><label>book</label></call>', '<invoke name="history"><parameter
# name="label">keys</parameter></invoke>', '<location_history><object>keys</object></location_history>'): read by
# these patterns only (no XML library: no entities, no external references), one level of fields of plain text.
_XML_NAME = r"(?:\s+name\s*=\s*\"([^\"<>]{1,80})\")?"
_XML_ROOT = re.compile(r"^\s*(?:<(function_calls|tool_calls)>\s*)?<([A-Za-z_][\w-]*)" + _XML_NAME + r"\s*>"
                       r"((?:\s*<[A-Za-z_][\w-]*(?:\s+name\s*=\s*\"[^\"<>]{1,80}\")?\s*>[^<>]{0,200}"
                       r"</[A-Za-z_][\w-]*>)*)\s*</\2>\s*(?(1)</\1>)\s*$")
_XML_FIELD = re.compile(r"<([A-Za-z_][\w-]*)" + _XML_NAME + r"\s*>([^<>]{0,200})</([A-Za-z_][\w-]*)>")
_XML_CALL_TAGS = frozenset("call invoke tool tool_call function function_call request".split())
_XML_PARAM_TAGS = frozenset("parameter param arg argument field".split())


def xml_call(question: str) -> dict | str | None:
    text = question[:2000]
    if not text.lstrip().startswith("<"):
        return None
    m = _XML_ROOT.match(text)
    if m is None:
        return None  # markup around prose: the rules read it as before
    tag, name = m.group(2), m.group(3)
    if _key(tag) in _XML_CALL_TAGS:
        if not name:
            return NOT_JSON
        out: dict = {"fn": name}
    elif name:
        return NOT_JSON
    else:
        out = {"fn": tag}
    for ftag, fname, value, close in _XML_FIELD.findall(m.group(4)):
        if close != ftag:
            return NOT_JSON
        key = fname if _key(ftag) in _XML_PARAM_TAGS and fname else ftag
        if fname and _key(ftag) not in _XML_PARAM_TAGS or _key(key) in {_key(k) for k in out}:
            return NOT_JSON
        out[key] = _value(value.strip())
    return out


# A GraphQL query ('{ object(label: "sofa") { previousLocation } }', 'query { location(object: "keys") { room } }'):
# the field asked for (the one inside the selection) names the tool, read by its words, and the arguments of the
# outer field are the request's fields.
_GRAPHQL = re.compile(r"^\s*(?:query\s*[A-Za-z_]?\w*\s*)?\{\s*([A-Za-z_]\w*)\s*\(([^(){}]{0,400})\)\s*"
                      r"\{\s*([A-Za-z_]\w*)\s*\}\s*\}\s*$")
_GRAPHQL_ARG = re.compile(r"\s*([A-Za-z_]\w*)\s*:\s*(\"[^\"]*\"|-?\d+(?:\.\d+)?|[A-Za-z_]\w*)\s*,?")


def graphql_call(question: str) -> dict | str | None:
    m = _GRAPHQL.match(question[:2000])
    if m is None:
        return None
    out: dict = {"fn": m.group(3)}
    body = m.group(2)
    pos = 0
    while pos < len(body.rstrip()):
        am = _GRAPHQL_ARG.match(body, pos)
        if am is None or am.end() == pos:
            return NOT_JSON
        key = am.group(1)
        if _key(key) in {_key(k) for k in out}:
            return NOT_JSON
        out[key] = _value(am.group(2))
        pos = am.end()
    outer = _key(m.group(1))
    if outer not in ("object", "objects", "item", "thing", "entity", "memory", "query"):
        out["fn"] = f"{m.group(1)}_{m.group(3)}"  # 'location(object: "keys") { previous }': both words name it
    return out


# ------------------------------------------------------------------ agents' envelopes (tenth round)
# The call of a tool as each agent framework wraps it: Anthropic's tool_use block ('{"type": "tool_use", "id": ...,
# "name": ..., "input": {...}}'), OpenAI's tool call ('{"type": "function", "function": {"name": ..., "arguments":
# "<JSON text>"}}', and the older '{"function_call": {...}}'), an MCP JSON-RPC request ('{"jsonrpc": "2.0",
# "method": "tools/call", "params": {"name": ..., "arguments": {...}}}') and LangChain's ('{"tool_name": ...,
# "tool_input": {...}}', '{"fn_name": ..., "params": {...}}'). heldout13 refused 18 requests only for their envelope
# ("'tool_use' is nothing I can look up", "a field I do not know: 'arguments'"); the fields inside were ones the reader
# knows. Unwrapped by the envelope's shape, never by the tool's name: what is left is read as any request is, so an
# action tool inside an envelope ('navigate_to') is refused as before.
_ENVELOPE_TYPES = frozenset("tool_use tool_call function function_call tool".split())
_ENVELOPE_IDS = frozenset("id call_id tool_call_id tool_use_id jsonrpc callid toolcallid tooluseid".split())
# the key one level up that holds the call ('{"functionCall": {...}}' (Gemini), '{"toolUse": {...}}' (Bedrock),
# '{"function": {...}}' (Ollama)), and the key of a list of calls ('{"tool_calls": [{...}]}': one call only)
_ENVELOPE_INNER = ("function", "function_call", "tool_call", "tool", "functioncall", "toolcall", "tooluse", "tool_use")
_ENVELOPE_LISTS = frozenset("tool_calls toolcalls function_calls functioncalls tool_uses".split())
_ENVELOPE_CALLS = frozenset("tools/call tools.call call_tool tool_call".split())
# the field that names the tool, in each framework's words ('"tool_name"', '"fn_name"', '"function": "time_in_place"')
_ENVELOPE_NAMES = frozenset("name tool_name fn_name function_name tool function fn".split())
# the field that holds the arguments
_ENVELOPE_ARGS = frozenset("input tool_input arguments args params parameters kwargs".split())


def unwrap(obj: dict, depth: int = 0) -> dict | str:
    """A tool call taken out of its envelope as one flat request ('{"fn": name, **arguments}'); the object itself when
    it has no envelope; NOT_JSON when an envelope holds arguments that are not an object (or JSON text of one)."""
    if depth > 3:
        return obj
    keys = {_key(k): k for k in obj}
    rest = {k: v for k, v in obj.items() if _key(k) not in _ENVELOPE_IDS}
    kind = obj.get(keys["type"]) if "type" in keys else None
    if isinstance(kind, str) and _key(kind) in _ENVELOPE_TYPES:
        rest.pop(keys["type"])
    for inner in _ENVELOPE_INNER:  # OpenAI, Gemini, Bedrock, Ollama: the call one level down
        if inner in keys and isinstance(obj[keys[inner]], dict) and len(rest) == 1:
            return unwrap(obj[keys[inner]], depth + 1)
    if len(rest) == 1 and _key(next(iter(rest))) in _ENVELOPE_LISTS:
        calls = next(iter(rest.values()))
        if not isinstance(calls, list) or len(calls) != 1 or not isinstance(calls[0], dict):
            return NOT_JSON  # no call, or more than one: ask one at a time
        return unwrap(calls[0], depth + 1)
    method = obj.get(keys["method"]) if "method" in keys else None
    if isinstance(method, str) and _key(method) in _ENVELOPE_CALLS:  # MCP: the call is the params
        params = obj.get(keys["params"]) if "params" in keys else None
        if not isinstance(params, dict) or set(map(_key, rest)) - {"method", "params"}:
            return NOT_JSON
        return unwrap(params, depth + 1)
    names = [k for k in rest if _key(k) in _ENVELOPE_NAMES and isinstance(rest[k], str)]
    holders = [k for k in rest if _key(k) in _ENVELOPE_ARGS]
    if len(names) != 1 or len(holders) != 1 or len(rest) != 2:
        return obj
    args = rest[holders[0]]
    if isinstance(args, str):  # OpenAI sends the arguments as JSON text
        try:
            args = json.loads(args[:2000]) if args.strip() else {}
        except (ValueError, RecursionError):
            return NOT_JSON
    if not isinstance(args, dict):
        return NOT_JSON
    if any(_key(k) == "fn" for k in args):
        return NOT_JSON
    # the tool is named by the envelope, so an argument called "name" names the thing ('"args": {"name": "notebook"}')
    if not any(_key(k) in REQUEST_ARG_FIELDS and REQUEST_ARG_FIELDS[_key(k)] == "label" for k in args):
        args = {("label" if _key(k) == "name" else k): v for k, v in args.items()}
    return {"fn": rest[names[0]], **args}


# The fields an agent's function-calling format nests the arguments in: '{"name": "get_location", "arguments": {...}}'.
NESTED_ARGUMENT_FIELDS = frozenset("arguments args parameters params input kwargs".split())
YESNO_FIELD = "__yesno__"  # set by the syntax that asks yes or no ('missing? label=phone', 'moved(keys) -> bool')


def _flatten(obj: dict) -> dict | str:
    """A request whose arguments are nested under "arguments" (or "args", "parameters", ...) with those fields at the
    top level; NOT_JSON when a field is then given twice."""
    out: dict = {}
    for k, v in obj.items():
        if _key(k) in NESTED_ARGUMENT_FIELDS and isinstance(v, dict):
            items = list(v.items())
        else:
            items = [(k, v)]
        for k2, v2 in items:
            if _key(k2) in {_key(x) for x in out}:
                return NOT_JSON
            out[k2] = v2
    return out


# 'name(arg, key="value", ...)' with an optional ReAct lead ('Thought: ... Action: ') and a typed result ('-> bool');
# the name is glued to its bracket, which prose never writes ("the lamp (the big one)").
_CALL = re.compile(r"^\s*(?:.*?\baction\s*:\s*)?([A-Za-z][A-Za-z0-9_]*)\((.*)\)\s*(?:->\s*([A-Za-z]+))?\s*[.?]?\s*$",
                   re.S | re.I)
# 'history label=keys', 'missing? label=phone', 'status=missing list=all': a name (or none), then key=value fields
_KV_VALUE = r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'=]+)"
_KV = re.compile(r"^\s*(?:([A-Za-z][A-Za-z0-9_]*)(\?)?\s+)?((?:[A-Za-z][A-Za-z0-9_]*\s*=\s*" + _KV_VALUE
                 + r"\s*)+)$")
_KV_PAIR = re.compile(r"([A-Za-z][A-Za-z0-9_]*)\s*=\s*(" + _KV_VALUE + r")")
_CALL_ARG = re.compile(r"^\s*(?:([A-Za-z][A-Za-z0-9_]*)\s*[=:]\s*)?(" + _KV_VALUE.replace("=]+", "=,]+") + r")\s*$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


def _value(text: str):
    """A typed value: quotes dropped, a plain number as a number."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return float(text) if _NUMBER.match(text) else text


# Tenth round: a command line ('diff --since=2h', 'last_seen laptop --format iso'): a tool's name, at most one
# positional argument (the thing), and flags '--key=value' / '--key value' / '--flag'; at least one flag, so that no
# prose reads as a command
_CLI = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)(?:\s+([A-Za-z][\w]*(?:\s+[A-Za-z][\w]*)?))?((?:\s+--[A-Za-z][\w-]*"
                  r"(?:\s*=\s*|\s+(?!--))?" + _KV_VALUE.replace("=]+", "=-][^\\s]*") + r"?)+)\s*$")
_CLI_FLAG = re.compile(r"--([A-Za-z][\w-]*)(?:\s*=\s*|\s+(?!--))?(" + _KV_VALUE.replace("=]+", "=-][^\\s]*")
                       + r")?")


def _command_line(text: str) -> dict | str | None:
    m = _CLI.match(text)
    if m is None:
        return None
    out: dict = {"fn": m.group(1)}
    if m.group(2):
        out["label"] = m.group(2)
    for key, value in _CLI_FLAG.findall(m.group(3)):
        if _key(key) in {_key(k) for k in out}:
            return NOT_JSON
        out[key.replace("-", "_")] = _value(value) if value else True
    return out


def call_syntax(question: str) -> dict | str | None:
    """A request typed as a function call or as key=value fields, as the fields of a JSON request (the tool's name
    in "fn"); None when the question is neither (prose: the rules read it). A call's one unnamed argument is the thing
    asked about; '?' after the name, or a result typed 'bool', asks yes or no."""
    text = question[:2000]
    m = _CALL.match(text)
    if m is not None:
        out: dict = {"fn": m.group(1)}
        body = m.group(2).strip()
        args = [a for a in re.split(r",(?=(?:[^\"']*[\"'][^\"']*[\"'])*[^\"']*$)", body)] if body else []
        positional = 0
        for a in args:
            am = _CALL_ARG.match(a)
            if am is None:
                return NOT_JSON
            key = am.group(1) or "label"
            positional += am.group(1) is None
            if positional > 1 or _key(key) in {_key(k) for k in out}:
                return NOT_JSON
            out[key] = _value(am.group(2))
        if (m.group(3) or "").lower() in ("bool", "boolean"):
            out[YESNO_FIELD] = True
        return out
    m = _KV.match(text)
    if m is None:
        return _command_line(text)
    out = {"fn": m.group(1)} if m.group(1) else {}
    for key, value in _KV_PAIR.findall(m.group(3)):
        if _key(key) in {_key(k) for k in out}:
            return NOT_JSON
        out[key] = _value(value)
    if m.group(2):
        out[YESNO_FIELD] = True
    return out


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
    obj = dict(obj)
    yesno = bool(obj.pop(YESNO_FIELD, False))
    obj = _point_fields(obj)
    if not obj or len(obj) > MAX_FIELDS:
        raise _Refuse("a request must have between 1 and 10 fields")
    named: list[tuple[str, dict]] = []  # (operator, the arguments its name fixes)
    by_words: list[tuple[str, str]] = []  # (field, name) of names read by their words once the arguments are known
    raw: dict[str, tuple[str, object]] = {}  # argument -> (field, value)
    ignored: list[str] = []
    prose = 0
    subject = any(_key(f) == "subject" for f in obj)
    for field, value in obj.items():
        k = _key(field)
        if k == "object" and subject:
            k = "anchor"  # '{"subject": "jacket", "relation": "on", "object": "chair"}': the object of the relation
        if k in REQUEST_NAME_FIELDS or k in REQUEST_NAME_WORD_FIELDS:
            if not isinstance(value, str):
                raise _Refuse(f"the field '{_shown(k)}' must name what is asked")
            name = _key(_text(value, k))
            yesno = yesno or k in REQUEST_YESNO_FIELDS
            if k in REQUEST_NAME_WORD_FIELDS:
                by_words.append((k, _text(value, k)))
            elif name in TOOL_NAMES and not (yesno and TOOL_NAMES[name][0] not in CHECK_OPERATORS):
                named.append(TOOL_NAMES[name])
            elif name.replace("_", " ") in RELATION_WORDS:
                named.append(("", {"relation": RELATION_WORDS[name.replace("_", " ")]}))
            elif " " in value.strip():
                prose += 1  # '"goal": "find wallet"': prose, left to the rules
            else:
                by_words.append((k, _text(value, k)))  # as typed: "getObjectLocation" keeps its word breaks
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
        elif _UNIT_FIELD.match(k):  # '"within_s": 600', '"last_minutes": 20': a span in the unit its name says
            um = _UNIT_FIELD.match(k)
            _put(raw, "window", k, (value, _UNIT_S[um.group(2)[0]]))
        elif _AGO_FIELD.match(k):  # '"ago_minutes": 120', '"hours_ago": 2': a moment that long before now
            um = _AGO_FIELD.match(k)
            _put(raw, "ago", k, (value, _UNIT_S[(um.group(1) or um.group(2))[0]]))
        elif _RADIUS_FIELD.match(k):  # '"r_m": 0.5', '"distance_cm": 40': a radius in the unit its name says
            _put(raw, "radius", k, (value, _LENGTH_UNITS[_RADIUS_FIELD.match(k).group(1)]))
        elif k in REQUEST_SHAPE_FIELDS or _SHAPE_BY_FIELD.match(k):  # '"rank_by": "history"' only orders the answer
            ignored.append(f"{_shown(k)}={_shown(value)}")
        else:
            raise _Refuse(f"the request has a field I do not know: '{_shown(k)}'")
    if prose and not named and not raw:
        return None
    if prose:
        raise _Refuse("the request mixes prose with fields; ask in words or in fields")
    for field, name in by_words:
        named.append(_by_words(field, name, raw, yesno, now))
    if {"center", "radius"} & set(raw):  # 'objects_near(x=0, y=3, z=0, r=2.5)': near within a radius is spatial
        named = [("spatial", {}) if (op, f) == ("relational", {"relation": "near"}) else (op, f) for op, f in named]
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
                raise _Refuse(not_a_thing(args[slot], names, regions))
            args[slot] = thing.label
            ignored += thing.ignored
            unknown = unknown or ("" if thing.known else slot)
    if "anchor" in args and "relation" in params and "relation" not in args and "anchor" in raw:
        implied = _ANCHOR_FIELD_RELATION.get(_key(raw["anchor"][0]))
        if implied:
            args["relation"] = implied
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


# ------------------------------------------------------------------ names read by their words (ninth round)
# A tool name no table row lists ('prev_location', 'get_object_location', 'locate_at', 'search_plan') is read by its
# words, through the cue reader (cues.py) that reads questions: the name's words, with the arguments given standing in
# for the thing, the anchor and the time ('prev location <thing>' is the thing's previous place). The same rules decide
# as for a question typed in words, and a name they do not read ('teleport', 'pick_up') refuses the request as before.
# heldout12 named 21 tools the table did not list; a list of names would only have grown with each new set.
_ABBREVIATIONS = {"prev": "previous", "loc": "location", "locate": "location", "pos": "position", "obj": "object",
                  "objs": "objects", "cnt": "count", "num": "number", "diff": "changes", "relations": "what",
                  "contents": "what", "nearby": "near"}
# words of a tool's name that only say it is a tool or a request: no cue of what is asked
_TOOL_WORDS = frozenset("get fetch query lookup look up find run do api fn func tool request plan info data result "
                        "results status list all report check relation relationship".split())
_THING, _ANCHOR = "zzthing", "zzanchor"  # placeholders no question writes


def _name_words(name: str) -> list[str]:
    words_ = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ").lower().split()
    return [_ABBREVIATIONS.get(w, w) for w in words_ if w not in _TOOL_WORDS]


# Tenth round: words of a tool's name that only name an argument it takes ('seen_in_window', 'diff_window',
# 'location_at_time'): said by the argument given, they ask nothing more; dropped only when that argument is given.
_TIME_ARG_WORDS = re.compile(r"\b(?:(?:in|at|over|during|for|within|by) )?(?:the )?(?:time ?window|window|time ?range|"
                             r"range|span|period|interval|time)\b")


def _without_argument_words(ws: list[str], raw: dict) -> list[str]:
    if not {"t", "ago", "window", "since", "until"} & set(raw):
        return ws
    return _TIME_ARG_WORDS.sub(" ", " ".join(ws)).split()


def _by_words(field: str, name: str, raw: dict, yesno: bool, now) -> tuple[str, dict]:
    """(operator, {}) that the words of a tool's name ask for, with the arguments given; refused unless exactly one."""
    from . import cues
    from .slots import Names as _Names
    ws = REQUEST_NAME_WORD_FIELDS.get(field, "").split() + _without_argument_words(_name_words(name), raw)
    short = "_".join(ws)
    if short in TOOL_NAMES and short != _key(name) and not (yesno and TOOL_NAMES[short][0] not in CHECK_OPERATORS):
        params = {p.name for p in BY_NAME[TOOL_NAMES[short][0]].params}
        timed = ("t" in params if {"t", "ago"} & set(raw) else "since" in params)
        if timed:
            return TOOL_NAMES[short]  # 'seen_in_window' with a span is the tool 'seen'
    if not ws and not yesno:  # '"check": "relation"' has no word left but asks yes or no about its arguments
        raise _Refuse(f"'{_shown(name)}' is nothing I can look up")
    text = " ".join(ws)
    found = []
    if "label" in raw:
        text += f" the {_THING}"
    if "anchor" in raw:
        rel = raw.get("relation", (None, "near"))[1]
        text += f" {RELATION_WORDS.get(str(rel).lower(), 'near')} the {_ANCHOR}"
    if "t" in raw or "ago" in raw:
        text += " @t"
        found.append(timeexpr.Found("point", t=now))
    elif {"window", "since"} & set(raw):
        text += " @w"
        found.append(timeexpr.Found("window", since=now, until=now))
    if yesno:
        text = "whether " + text
    readings = {op for op, *_ in cues.read(text, _Names([_THING, _ANCHOR]), found, now)}
    if len(readings) != 1:
        raise _Refuse(f"'{_shown(name)}' is nothing I can look up")
    return readings.pop(), {}


def _point_fields(obj: dict) -> dict:
    """'x', 'y' and 'z' given apart ('objects_near(x=0, y=3, z=0, r=2.5)') are one point."""
    keys = {_key(k): k for k in obj}
    if not {"x", "y", "z"} <= set(keys) or any(k in keys for k in ("center", "centre", "point")):
        return obj
    out = {k: v for k, v in obj.items() if _key(k) not in ("x", "y", "z")}
    out["center"] = [obj[keys["x"]], obj[keys["y"]], obj[keys["z"]]]
    return out


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
        elif arg == "since" and isinstance(value, str) and _SPAN_UNIT.match(value.strip().lower()) and \
                "until" not in raw and "window" not in raw:
            args["since"], args["until"] = _span(value, field, now)  # '--since=2h': the last two hours
        elif arg in ("since", "until"):
            args[arg] = _moment(value, field, now)
        elif arg == "ago":
            if "t" in raw or now is None:
                raise _Refuse("give one moment")
            args["t"] = now - _number(value, field, 0.0, MAX_SPAN_S / unit) * unit
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




# ------------------------------------------------------------------ for envelope.py (a tool call in its envelope)
RequestRefused = _Refuse


def moment(v, name: str, now: float | None) -> float:
    """A moment as a request's field gives it (see _moment); RequestRefused when it is none."""
    return _moment(v, name, now)


def change_kinds(v, name: str) -> list[str]:
    """Change kinds as a request's field names them ("disappeared" is removed; see _kinds)."""
    return _kinds(v, name)


def read_request(obj: dict, now: float | None, names: Names):
    """read() of a request already parsed into fields ('{"fn": name, **arguments}'): envelope.py hands it a tool call
    whose name is outside its table, to be read by the words of the name as before."""
    try:
        return _read(dict(obj), now, names)
    except _Refuse as exc:
        return str(exc)


__all__ = ["RequestRefused", "change_kinds", "moment", "parse", "read", "read_request"]
