"""A tool call typed as a question: the envelope an agent framework wraps it in, read by its structure.

Why a reader of its own: language-model agents send /tempomem/query the tool call they would send a tool server,
in their framework's envelope: Hermes '<tool_call>{"name": "is_missing", "arguments": {...}}</tool_call>', Mistral
'[TOOL_CALLS] [{...}]', OpenAI '{"tool_calls": [{"function": {"name": ..., "arguments": "<JSON text>"}}]}', Gemini
'{"functionCall": {"name": ..., "args": {...}}}', JSON-RPC / MCP '{"method": "tools/call", "params": {...}}', LangChain
"AgentAction(tool='previous', tool_input={...})", a Python call 'memory.as_of(label="laptop", t="...")', a YAML flow
map '{tool: is_related, label: laptop}', 'tool: missing args: {}', ReAct 'Action: where_to_look / Action Input: {...}',
a 'ros2 service call /tempomem/query tempomem_ros/srv/Query "{question: ...}"' line. heldout15 refused 13 such
requests and heldout14 17 (bench/question_eval.py, rules at 640bc1a): the tool they named was one of the memory's own.

How: one small parser (_Parser: JSON, YAML flow maps, Python literals and calls are one grammar of maps, lists,
quoted and bare scalars) reads the payload; the envelope is found by its shape (a tag around it, a header before it,
keys holding a name and an argument map), never by a vendor's name; the name goes through ONE table (ROUTES: the agent
tools' specs, tool_args.tool_specs, and the typed services of srv/, whose selector fields - TemporalQuery.operation,
Check.check, RelationalQuery's time and before - pick the operator); the arguments are normalised (ISO stamps with
offsets, epoch seconds or milliseconds, ROS Time maps, durations with their unit in the key, change kinds) and then
validated as untrusted by the agent tools' own validator (tool_args.validate: bounds, finite numbers, length caps,
control characters), and things are resolved against the memory's labels like a question's (slots.resolve): a label
is data, looked up, never read as an instruction. A name outside the table is left to structured.py's reader of tool
names by their words ('get_location'); one that acts ('navigate_to', 'delete_object', 'send_sms') or that neither
reads is refused with the reason, and so is a malformed envelope (two calls, arguments that are no map, a field
twice). Pure and deterministic: the same text gives the same operator and arguments.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from dataclasses import dataclass

from . import structured, timecalls
from .operators import ACTION_VERBS, REQUEST_ARG_FIELDS, REQUEST_SHAPE_FIELDS, TOOL_NAMES
from .slots import Names, resolve
from .tool_args import ToolError, tool_specs, validate

MAX_CHARS = 16000  # a request past this is refused unread (a 10 kB label is read, and refused by the validator)
MAX_DEPTH = 8
MAX_ITEMS = 40


class Malformed(Exception):
    """An envelope this reader found but cannot take; the message is safe to show (no value echoed raw)."""


END = "\x00"   # what _Parser.peek returns past the text; control characters never reach the parser (refused)


class _NotHere(Exception):
    """The text has no envelope this parser reads (prose, or a form structured.py reads): not a refusal."""


# ------------------------------------------------------------------------------------------------- the parser
_BARE_KEY = re.compile(r"[A-Za-z_$][\w$.\-/]*")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")
_LITERALS = {"true": True, "false": False, "null": None, "none": None, "~": None, "nan": math.nan,
             "infinity": math.inf, "-infinity": -math.inf, "inf": math.inf, "-inf": -math.inf}
_CALL_NAME = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*")


@dataclass(frozen=True)
class Call:
    """A tool call as parsed: its name and argument map (``positional``: one unnamed argument)."""

    name: str
    args: dict
    positional: object = None


class _Parser:
    """One grammar for the payloads agents write: JSON, YAML flow maps (bare keys and scalars), Python literals
    ('single quotes', True, None) and calls 'name(key=value, ...)'. Bounded in depth and items; a key given twice
    is malformed (a dict would keep one silently)."""

    def __init__(self, text: str):
        self.s, self.i = text, 0

    def ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t\r\n":
            self.i += 1

    def peek(self) -> str:
        """The next character, or END past the text. Why not "": `"" in "{[\"'"` is True in Python, so every
        membership test took the end of the text for a quote or a bracket and indexed past it (review of stop 35:
        491 of the 3,992 prefixes of the tests' envelopes raised IndexError, from a lone "[" on; a tool call cut
        off at a model's token limit is a real input)."""
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else END

    def expect(self, c: str) -> None:
        if self.peek() != c:
            raise _NotHere
        self.i += 1

    def done(self) -> bool:
        return self.peek() == END

    def value(self, depth: int = 0, stops: str = ",}])"):
        if depth > MAX_DEPTH:
            raise Malformed("the request is nested too deeply")
        c = self.peek()
        if c == "{":
            return self.mapping(depth)
        if c == "[":
            return self.sequence(depth)
        if c in "\"'":
            return self.quoted()
        m = _CALL_NAME.match(self.s, self.i)
        if m and m.end() < len(self.s) and self.s[m.end()] == "(":
            return self.call(depth)
        return self.scalar(stops)

    def quoted(self) -> str:
        q, start = self.s[self.i], self.i
        j = start + 1
        while j < len(self.s) and self.s[j] != q:
            j += 2 if self.s[j] == "\\" else 1
        if j >= len(self.s):
            raise _NotHere
        self.i = j + 1
        body = self.s[start + 1:j]
        if q == '"':
            try:
                return json.loads(self.s[start:j + 1])
            except ValueError:
                raise Malformed("a string of the request is not valid") from None
        return re.sub(r"\\(.)", r"\1", body)

    def scalar(self, stops: str):
        j = self.i
        while j < len(self.s) and self.s[j] not in stops and self.s[j] not in "{[\"'":
            j += 1
        text = self.s[self.i:j].strip()
        if not text:
            raise _NotHere
        self.i = j
        low = text.lower()
        if low in _LITERALS:
            return _LITERALS[low]
        if _NUMBER.match(text):
            return int(text) if re.fullmatch(r"-?\d+", text) else float(text)
        return text

    def key(self) -> str:
        c = self.peek()
        if c in "\"'":
            k = self.quoted()
            if not isinstance(k, str):
                raise _NotHere
            return k
        m = _BARE_KEY.match(self.s, self.i)
        if m is None:
            raise _NotHere
        self.i = m.end()
        return m.group(0)

    def pairs(self, close: str, depth: int, seps: str = ":=") -> dict:
        out: dict = {}
        while self.peek() != close:
            k = self.key()
            if self.peek() not in seps:
                raise _NotHere
            self.i += 1
            v = self.value(depth + 1)
            if _snake(k) in {_snake(x) for x in out}:
                raise Malformed(f"the request gives the field '{_shown(k)}' twice")
            out[k] = v
            if len(out) > MAX_ITEMS:
                raise Malformed("the request has too many fields")
            if self.peek() == ",":
                self.i += 1
            elif self.peek() != close:
                raise _NotHere
        self.i += 1
        return out

    def mapping(self, depth: int) -> dict:
        self.expect("{")
        return self.pairs("}", depth)

    def sequence(self, depth: int) -> list:
        self.expect("[")
        out = []
        while self.peek() != "]":
            out.append(self.value(depth + 1))
            if len(out) > MAX_ITEMS:
                raise Malformed("the request has too many items")
            if self.peek() == ",":
                self.i += 1
            elif self.peek() != "]":
                raise _NotHere
        self.i += 1
        return out

    def call(self, depth: int) -> Call:
        m = _CALL_NAME.match(self.s, self.i)
        self.i = m.end()
        self.expect("(")
        args: dict = {}
        positional = []
        while self.peek() != ")":
            save = self.i
            km = _BARE_KEY.match(self.s, self.i)
            if km:
                self.i = km.end()
            if km and self.peek() in "=:" and self.s[self.i:self.i + 2] != "==":
                self.i += 1
                if _snake(km.group(0)) in {_snake(x) for x in args}:
                    raise Malformed(f"the call gives the argument '{_shown(km.group(0))}' twice")
                args[km.group(0)] = self.value(depth + 1)
            else:
                self.i = save
                positional.append(self.value(depth + 1))
            if self.peek() == ",":
                self.i += 1
            elif self.peek() != ")":
                raise _NotHere
        self.i += 1
        if timecalls.is_constructor(m.group(0)):  # twentieth round: 'since: Time.utc(2026, 1, 15, 9, 0, 0)'
            try:
                return timecalls.iso(m.group(0), positional, args)
            except timecalls.BadMoment as exc:
                raise Malformed(str(exc)) from None
        options = _options(positional, args)
        if options is not None:  # stop 52: 'history("notebook", { sinceAgoS: 7200 })' (_options below)
            positional = positional[:-1]
            args.update(options)
        if len(positional) > 1:
            raise Malformed("the call has more than one unnamed argument; name them")
        return Call(m.group(0), args, positional[0] if positional else None)


# Stop 52 (heldout32's F020, a QML panel's 'Tempomem.history("notebook", { sinceAgoS: 7200 })', was answered with the
# notebook's history over all time): a call's last unnamed argument that is a map of named fields after one other
# unnamed value is the call's options object (JavaScript's, QML's, Dart's, Kotlin's named-options style), its fields
# the call's named arguments, read and checked as any other; a time among them bounds the question. A ROS Time map
# ({sec, nanosec}) is a value, not options, and a field given twice (inside and outside the map) is refused.
_TIME_MAP_KEYS = frozenset(("sec", "secs", "nanosec", "nsecs", "nanosecs"))


def _options(positional: list, args: dict) -> dict | None:
    """The fields of a call's trailing options map (above), or None when the call has none."""
    if len(positional) != 2 or not isinstance(positional[1], dict) or not positional[1]:
        return None
    keys = {_snake(k) for k in positional[1]}
    if keys <= _TIME_MAP_KEYS or isinstance(positional[0], (dict, list)):
        return None
    if keys & {_snake(k) for k in args}:
        raise Malformed("the call gives an argument twice")
    return dict(positional[1])


def _parse_whole(text: str):
    """The one value the text is (a map, a list, a call); _NotHere when anything is left over."""
    p = _Parser(text)
    v = p.value(stops=",}])")
    if not p.done() or not isinstance(v, (dict, list, Call)):
        raise _NotHere
    return v


# ------------------------------------------------------------------------------------------ text-level envelopes
_TAGGED = re.compile(r"\s*<(tool_call|function_call|tool_use|toolcall|functioncall)>\s*(.*?)\s*</\1>\s*\Z",
                     re.S | re.I)
_MISTRAL = re.compile(r"\s*\[TOOL_CALLS\]\s*(.*)\Z", re.S)
_ROS2 = re.compile(r"\s*ros2\s+service\s+call\s+(\S+)(?:\s+(\S+))?(?:\s+(.*?))?\s*\Z", re.S)
_REACT = re.compile(r"(?:.*?\b)?Action\s*:\s*([A-Za-z_][\w.]*)\s+Action[ _]Input\s*:\s*(.*?)\s*\Z", re.S | re.I)
_REACT_CALL = re.compile(r"(?:.*?\b)?Action\s*:\s*(?=[A-Za-z_][\w.]*\()(.*?)\s*\Z", re.S | re.I)
_GRAPHQL = re.compile(r"\s*(query|mutation)?\s*[A-Za-z_]?\w*\s*\{\s*([A-Za-z_]\w*)\s*\(([^(){}]*)\)\s*"
                      r"(?:\{([^{}]*)\})?\s*\}\s*\Z", re.S)
# a header before the call ('SYSTEM TOOL CALL >> did_move(...)', 'tool_request: {...}')
_HEADER = re.compile(r"\s*[A-Za-z][\w ./-]{0,40}?\s*(?:>>|=>|->|:)\s*(?=[{\[A-Za-z_])")
# 'tool: missing args: {}' (a one-line block map): keys that name a tool or hold its arguments, nothing else
_BLOCK_KEY = re.compile(r"\s*([A-Za-z_]\w*)\s*:\s*")
# a cheap gate: no envelope without one of these (a plain question costs one search)
_GATE = re.compile(r"[{(<\[]|\baction\s*:|^\s*ros2\s|^\s*(?:tool|name|function|fn|op)\s*:", re.I)


def find(text: str) -> tuple[str, object] | None:
    """(form, payload) of the envelope the text is, or None. The payload is a dict, a list or a Call."""
    if not isinstance(text, str) or not _GATE.search(text):
        return None
    if len(text) > MAX_CHARS:
        raise Malformed(f"the request is longer than {MAX_CHARS} characters")
    m = _TAGGED.match(text)
    if m:
        return f"<{m.group(1).lower()}> call", _parse_or_malformed(m.group(2))
    m = _MISTRAL.match(text)
    if m:
        return "[TOOL_CALLS] call", _parse_or_malformed(m.group(1))
    m = _ROS2.match(text)
    if m:
        return "ros2 service call", _ros2(m)
    m = _REACT.match(text)
    if m:
        return "ReAct action", _react(m.group(1), m.group(2))
    m = _REACT_CALL.match(text)
    if m:
        return "ReAct action", _parse_or_malformed(m.group(1))
    m = _GRAPHQL.match(text)
    if m:
        try:
            call = _graphql(m)
        except _NotHere:
            return None   # braces that are no GraphQL selection ('query { objectsOn(anch>or: ...) }'): prose
        name = _snake(call.name)
        # '{ object(label: "sofa") { previousLocation } }', '{ location(object: "keys") { previous } }' name the tool
        # by what they select: structured.py reads them
        picked = [_snake(w) for w in re.findall(r"[A-Za-z_]\w*", m.group(4) or "")]
        if name not in ROUTES and name not in TOOL_NAMES or any(
                w in ROUTES or w in TOOL_NAMES or f"{name}_{w}" in TOOL_NAMES for w in picked):
            return None
        return "GraphQL query", call
    for candidate in (text, _without_header(text)):
        if candidate is None:
            continue
        try:
            return "tool call", _parse_whole(candidate)
        except _NotHere:
            pass
    block = _block_map(text)
    if block is not None:
        return "key: value call", block
    return None


def _parse_or_malformed(text: str):
    try:
        return _parse_whole(text)
    except _NotHere:
        raise Malformed("the tool call in the envelope is not a readable map or call") from None


def _without_header(text: str) -> str | None:
    m = _HEADER.match(text)
    return text[m.end():] if m else None


def _ros2(m: re.Match) -> Call:
    service, type_, payload = m.group(1), m.group(2) or "", (m.group(3) or "").strip()
    if len(payload) >= 2 and payload[0] == payload[-1] and payload[0] in "\"'":
        payload = payload[1:-1]
    args = _parse_or_malformed(payload) if payload else {}
    if not isinstance(args, dict):
        raise Malformed("the service request is not a map of its fields")
    if type_ and _snake(type_.rsplit("/", 1)[-1]) != _snake(service.rsplit("/", 1)[-1]) and \
            _snake(type_.rsplit("/", 1)[-1]) in ROUTES and _snake(service.rsplit("/", 1)[-1]) in ROUTES:
        raise Malformed("the service and its type name two different services")
    return Call(type_ or service, args)


def _react(name: str, payload: str) -> Call:
    if not payload:
        return Call(name, {})
    try:
        v = _parse_whole(payload)
    except _NotHere:
        return Call(name, {}, payload.strip().strip("\"'"))  # 'Action Input: wallet'
    if isinstance(v, dict):
        return Call(name, v)
    raise Malformed("the Action Input is not a map of arguments")


def _graphql(m: re.Match) -> Call:
    if m.group(1) == "mutation":
        raise Malformed("a mutation would change the memory; its tools only read")
    p = _Parser(m.group(3))
    args = p.pairs(END, 0, seps=":") if m.group(3).strip() else {}
    return Call(m.group(2), args)


def _block_map(text: str) -> dict | None:
    """'tool: missing args: {}': one line of 'key: value' whose keys only name a tool and hold its arguments."""
    out: dict = {}
    pos = 0
    while pos < len(text.rstrip()):
        km = _BLOCK_KEY.match(text, pos)
        if km is None:
            return None
        key = _snake(km.group(1))
        if key not in NAME_KEYS and key not in ARGS_KEYS or key in out:
            return None
        p = _Parser(text)
        p.i = km.end()
        nxt = _BLOCK_KEY.search(text, km.end())
        try:
            if p.peek() in "{[\"'":
                out[key] = p.value()
            else:
                end = nxt.start() if nxt else len(text)
                out[key] = _Parser(text[km.end():end]).scalar("")
                p.i = end
        except _NotHere:
            return None
        pos = p.i
        if key in NAME_KEYS and not (isinstance(out[key], str) and _BARE_KEY.fullmatch(out[key])):
            return None  # 'name: where is my mug' is a header before prose, not a tool's name
    return out if any(k in NAME_KEYS for k in out) else None


# ----------------------------------------------------------------------------------------- object envelopes
NAME_KEYS = frozenset("name tool tool_name fn fn_name func function function_name op operation action method".split())
# twentieth round: Dify's "tool_parameters", Netflix Conductor's "inputParameters" and their kin hold the arguments too
ARGS_KEYS = frozenset("arguments args input tool_input parameters params kwargs tool_parameters input_parameters "
                      "tool_args tool_arguments function_args function_arguments".split())
# Twentieth round: beside a named call and its arguments field, fields that say where the call goes or what event
# carried it, never what it asks ('"server_name": "tempomem"' of an Anthropic mcp_tool_use block, '"server_label"'
# of an OpenAI mcp_call item, Dify's '"provider_name"', a Claude Code hook's '"hook_event_name"', Conductor's
# '"taskReferenceName"'; heldout21 refused each as an argument the tool does not know). Only with a scalar value, and
# only where the arguments have their own field: a bare map's fields stay arguments, and an unknown one refuses.
_ROUTING_KEYS = frozenset("server server_name server_label server_id provider provider_name source version ref "
                          "hook_event_name event_name task_reference_name detail_type channel transcript_path cwd "
                          "permission_mode".split())
# keys that only identify or type the call ('"id": "call_a1"', '"type": "function"', LangChain's '"log"')
_META_KEYS = frozenset("id call_id tool_call_id tool_use_id jsonrpc index log message_log role".split())
_META_TYPES = frozenset("function tool_use tool_call function_call tool".split())
# twentieth round: a type that says the message is a call of some kind ("mcp_tool_use", "server_tool_use",
# "mcp_call", "custom_tool_call"), as the types above do
# twenty-third round: "client_tool_invocation" (ElevenLabs), "toolRequest" (Genkit) say the same
_CALL_TYPE = re.compile(r"(?:\w+_)?(?:tool_use|tool_call|function_call|call|invocation|tool_request)")
# a key one level above the call ('{"functionCall": {...}}', '{"tool_calls": [{...}]}')
_CONTAINER = re.compile(r"(?:function|tool)(?:_?(?:call|use))?s?|calls?")
_RPC_CALLS = frozenset(("tools/call", "tools.call", "call_tool"))
# the classes a framework prints a call as ("AgentAction(tool=..., tool_input=...)"): the call inside them is read
_WRAPPER_CALLS = frozenset("agent_action tool_agent_action agent_action_message_log tool_call function_call tool_use "
                           "action".split())


# Twenty-third round (heldout23): fields that only identify, type or frame a call, as the keys above do: an id of any
# kind ('"invocationId": "inv_29"', loose._meta's rule), a type given as a protocol's number (SignalR's '"type": 1',
# an invocation), the kind of tool ('"tool_type": "function"'), and whether a reply is awaited ('"response_required":
# true'); heldout23 refused each as an argument the tool does not know.
_REPLY_FLAGS = frozenset(("response_required", "expects_response", "wants_response", "blocking"))


def _meta_field(k, v) -> bool:
    key = _snake(k)
    if key == "type" and isinstance(v, str):
        return _snake(v) in _META_TYPES or bool(_CALL_TYPE.fullmatch(_snake(v)))
    if key == "type":
        return isinstance(v, int) and not isinstance(v, bool)
    if key.endswith("_id") and key not in ("object_id", "anchor_id"):
        return isinstance(v, (str, int)) and not isinstance(v, bool)
    if key.endswith("_type") and key not in ("object_type",):
        return isinstance(v, str) and _snake(v) in _META_TYPES
    return key in _REPLY_FLAGS and isinstance(v, bool)


def _snake(name, acronyms: bool = True) -> str:
    # sixteenth round: an acronym before a word is a word of its own ('AIMessage' -> 'ai_message', a carrier of
    # loose.py; heldout18's LangChain AIMessage(tool_calls=[...]) was read as a tool named 'aimessage' and refused).
    # Not for words of prose (``acronyms`` False: loose._thought_acts), where 'IDs' is no 'i_ds'.
    # eighteenth round: a key's '@' marks it as the format's own (TypeChat's '@func', '@args', '@steps'; JSON-LD's
    # '@type', '@id'): the key is the word after it
    s = str(name).strip()
    s = s[1:] if s.startswith("@") and len(s) > 1 else s
    if acronyms:
        s = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "_", s)
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", s)
    return re.sub(r"[\s\-]+", "_", s).lower()


def _shown(v) -> str:
    return re.sub(r"[^\w .:/-]", "", str(v))[:40] or "?"


# Twenty-fourth round (heldout24 refused a platform's call in each of these shapes): the same call, a name and its
# arguments, under the platform's own keys, read by the form of the key, never per platform:
# - a key that names a call by its last word ('actionName', 'operationId', 'commandName', CloudEvents' 'eventType':
#   a call word, then name / id / type), its value a tool's name, where no key of NAME_KEYS is there;
# - a name given as a map of its one name ('"action": {"name": "previous"}', Hasura's action);
# - the arguments under 'inputs' (an action's inputs) or, beside a name, under 'data' (an event's data);
# - beside a name and its arguments, the platform's context: a map under a key of session, context, variables,
#   headers or metadata (Hasura's 'session_variables'), and an event's framing fields (a data or spec version, a
#   content type, a subject that is a path). A word that acts anywhere in what is left out refuses it, as before.
_CALL_KEY = re.compile(r"(?:action|tool|function|operation|command|method|task|event|intent|skill)_(?:name|id|type)")
_CONTEXT_KEY = re.compile(r"(?:\w+_)?(?:session|context|variables|headers|metadata|meta)")
_FRAMING_KEYS = frozenset("data_version dataversion spec_version specversion data_content_type datacontenttype "
                          "data_schema dataschema".split())


def _tool(name) -> str | None:
    from .loose import tool_name  # loose imports this module: looked up when asked
    return tool_name(name)


def _acts(value) -> bool:
    said = json.dumps(value) if not isinstance(value, str) else value
    return bool(set(re.findall(r"[a-z]+", _snake(said))) & (frozenset(ACTION_VERBS) | _WRITE_WORDS))


_WRITE_WORDS = frozenset("forget delete remove erase wipe drop clear reset write update insert set define".split())


def _platform_call(payload: dict) -> dict:
    """The payload with a platform's keys for a call's name and arguments read as NAME_KEYS / ARGS_KEYS (above)."""
    if not isinstance(payload, dict):
        return payload
    out = dict(payload)
    snake = {k: _snake(k) for k in out}
    for k, sk in snake.items():
        v = out[k]
        if sk in NAME_KEYS and isinstance(v, dict) and len(v) == 1 and _snake(next(iter(v))) == "name" \
                and isinstance(next(iter(v.values())), str):
            out[k] = next(iter(v.values()))
    if not any(sk in NAME_KEYS for sk in snake.values()):
        called = [k for k, sk in snake.items() if _CALL_KEY.fullmatch(sk) and isinstance(out[k], str) and _tool(out[k])]
        if len(called) != 1:
            return payload
        out["name"] = _tool(out.pop(called[0]))  # the table's name ('Tempomem_Previous': previous)
        snake = {k: _snake(k) for k in out}
    if not any(sk in ARGS_KEYS for sk in snake.values()):
        held = [k for k, sk in snake.items() if sk in ("inputs", "data") and isinstance(out[k], dict)]
        if len(held) == 1:
            out["arguments"] = out.pop(held[0])
            snake = {k: _snake(k) for k in out}
    if not (any(sk in NAME_KEYS for sk in snake.values()) and any(sk in ARGS_KEYS for sk in snake.values())):
        return out
    for k, sk in snake.items():
        v = out[k]
        context = _CONTEXT_KEY.fullmatch(sk) and isinstance(v, dict)
        framing = sk in _FRAMING_KEYS or sk == "subject" and isinstance(v, str) and v.startswith("/")
        if (context or framing) and not _acts(v) and not _acts(k):
            del out[k]
    return out


def call_of(payload, depth: int = 0) -> Call | None:
    """The one tool call an envelope holds (name and argument map); None when the payload names no tool (a bare map
    of fields: structured.py reads it). Malformed when it holds more than one call or arguments that are no map."""
    if depth > MAX_DEPTH:
        raise Malformed("the request is nested too deeply")
    if isinstance(payload, list):
        if len(payload) != 1:
            raise Malformed("the request holds no tool call or more than one; send one at a time")
        return call_of(payload[0], depth + 1)
    if isinstance(payload, Call):
        if _snake(payload.name.rsplit(".", 1)[-1]) in _WRAPPER_CALLS and payload.positional is None:
            inner = call_of(payload.args, depth + 1)
            if inner is not None:
                return inner
        return payload
    if not isinstance(payload, dict):
        raise Malformed("the request is not a map")
    payload = _platform_call(payload)
    rest = {k: v for k, v in payload.items() if _snake(k) not in _META_KEYS and not _meta_field(k, v)}
    if any(_snake(k) in NAME_KEYS for k in rest) and any(_snake(k) in ARGS_KEYS for k in rest):
        rest = {k: v for k, v in rest.items() if not (_snake(k) in _ROUTING_KEYS and isinstance(v, (str, int)))}
    if len(rest) == 1:
        (k, v), = rest.items()
        if _CONTAINER.fullmatch(_snake(k)) and isinstance(v, (dict, list)):
            return call_of(v, depth + 1)
    method = next((v for k, v in rest.items() if _snake(k) == "method"), None)
    if isinstance(method, str) and "/" in method or isinstance(method, str) and method in _RPC_CALLS:
        if method.lower() not in _RPC_CALLS:
            raise Malformed(f"'{_shown(method)}' is no tool call")
        params = next((v for k, v in rest.items() if _snake(k) == "params"), None)
        if not isinstance(params, dict) or len(rest) != 2:
            raise Malformed("a tools/call request must hold its call in params")
        return call_of(params, depth + 1)
    names = [k for k, v in rest.items() if _snake(k) in NAME_KEYS and isinstance(v, str)]
    holders = [k for k in rest if _snake(k) in ARGS_KEYS]
    if not names:
        if "question" in map(_snake, rest) and not holders:
            return Call("ask", rest)  # the Query service's request: '{"question": "...", "k": 5}'
        return None
    if len(names) > 1 or len(holders) > 1:
        raise Malformed("the request names more than one thing to do, or gives its arguments twice")
    args = {k: v for k, v in rest.items() if k not in names and k not in holders}
    positional = None
    if holders:
        held = rest[holders[0]]
        if isinstance(held, str):  # OpenAI sends the arguments as JSON text; LangChain a tool_input string
            try:
                held = _parse_whole(held) if held.strip().startswith(("{", "[")) else held
            except _NotHere:
                raise Malformed("the arguments are not a readable map") from None
            if isinstance(held, str):
                positional, held = held, {}
        if held is None:
            held = {}
        # eighteenth round: JSON-RPC 1.0 passes its params as a list ('{"method": "missing", "params": [], "id": 3}',
        # heldout19): none is no argument, one map is the arguments; more are positional, which no tool names
        if isinstance(held, list) and len(held) <= 1:
            held = held[0] if held else {}
        if not isinstance(held, dict):
            raise Malformed("the arguments are not a map")
        if len(held) == 1 and _snake(next(iter(held))) == "fields" and isinstance(next(iter(held.values())), dict):
            held = next(iter(held.values()))  # twentieth round: a protobuf Struct's '{"fields": {...}}' is its map
        for k, v in held.items():
            if _snake(k) in {_snake(x) for x in args}:
                raise Malformed(f"the request gives the field '{_shown(k)}' twice")
            args[k] = v
    return Call(rest[names[0]], args, positional)


# --------------------------------------------------------------------------------------------- the one table
@dataclass(frozen=True)
class Route:
    """Where a tool name leads: an operator (or "ask"), or a typed service whose ``selector`` field picks it."""

    operator: str = ""
    selector: str = ""      # the field that names the operator (TemporalQuery.operation, Check.check)
    choices: tuple = ()     # (value, operator, fixed arguments) of the selector
    acts: bool = False      # a service that changes the memory (Forget, DefineRegion)
    service: str = ""       # the srv type, when the name is a service's


_TEMPORAL = ("current", "previous", "history", "count_moves", "count_sightings", "as_of", "first_seen", "last_seen",
             "duration", "where_to_look")
_CHECKS = (("on", "is_related", {"relation": "on"}), ("under", "is_related", {"relation": "under"}),
           ("near", "is_related", {"relation": "near"}), ("in", "is_related", {"relation": "in"}),
           ("moved", "did_move", {}), ("present", "is_present", {}), ("missing", "is_missing", {}),
           ("seen", "was_seen", {}))
# The typed services of srv/ (nodes/services.py serves each as /tempomem/<snake name>), by what they ask; a test
# checks that every srv file has its row here.
SERVICES = {
    "Query": Route("ask", service="Query"),
    "TemporalQuery": Route(selector="operation", choices=tuple((op, op, {}) for op in _TEMPORAL),
                           service="TemporalQuery"),
    "Check": Route(selector="check", choices=_CHECKS, service="Check"),
    "RelationalQuery": Route("relational", service="RelationalQuery"),
    "Changes": Route("changes", service="Changes"),
    "SemanticQuery": Route("semantic", service="SemanticQuery"),
    "SpatialQuery": Route("spatial", service="SpatialQuery"),
    "History": Route("history", service="History"),
    "SceneAsOf": Route(service="SceneAsOf"),  # a map of the scene, no question's answer: its own service serves it
    "Forget": Route(acts=True, service="Forget"),
    "DefineRegion": Route(acts=True, service="DefineRegion"),
}
# ONE table of the names a tool call may use: every agent tool's name (tool_args.tool_specs: the operators and
# "ask"), and every typed service by its type and its service name.
ROUTES: dict[str, Route] = {
    **{spec["name"]: Route(spec["name"]) for spec in tool_specs()},
    **{_snake(t): r for t, r in SERVICES.items()},
}
# Fields of the typed services, as the tool arguments they are (a ROS Time 'time' is the moment 't').
_SRV_FIELDS = {"time": "t", "object_id": "object_id", "anchor_id": "anchor_id"}
# A moment before now with its unit in the key: 'since_s_ago', 't_ago_ms', 'since_ago_minutes'.
_AGO_KEY = re.compile(r"(t|since|until)_(?:ago_)?(ms|s|sec|secs|seconds|m|min|mins|minutes|h|hr|hrs|hours|d|days)"
                      r"(_ago)?")
_UNIT_S = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?)")
_ISO_DURATION = re.compile(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?")
# the words of a tool name that act on the world or the memory (operators.ACTION_VERBS, and the verbs of agents'
# tool names that write): a name outside the table whose first word is one of them is refused as an action
_ACTING = frozenset(ACTION_VERBS) | frozenset(
    "navigate goto grasp forget wipe erase purge clear update write insert create add define rename relabel sms "
    "email notify teleport execute exec run_command shell speak say text message dispatch".split())
EPOCH_MS_FROM = 1e11  # a stamp above this is milliseconds (1e11 s is the year 5138; tool_args.MAX_STAMP)


def _unit_s(unit: str) -> float:
    return _UNIT_S["ms"] if unit == "ms" else _UNIT_S[unit[0]]


# ------------------------------------------------------------------------------------------- the arguments
def _moment(v, key: str, now: float | None):
    """_stamp(), never after now: the memory holds the past and the present (a stamp past now is refused, not read)."""
    t = _stamp(v, key, now)
    if t is not None and now is not None and t > now:
        raise ToolError(f"{key} must be a finite number in [0, {now:.0f}]: the memory holds the past and the present")
    return t


def _stamp(v, key: str, now: float | None):
    """A moment from an agent: epoch seconds or milliseconds, an ISO stamp (offset or Z; none = UTC), a ROS Time map
    ({sec, nanosec}; zero = open), or what structured.py reads ("now", "now-30m", "2 hours ago")."""
    # a ROS Time map names its fields: an empty map ({}) is no time (stop 36: it read as an open bound, "at any time")
    if isinstance(v, dict) and v and {_snake(k) for k in v} <= {"sec", "secs", "nanosec", "nsecs", "nanosecs"}:
        try:
            sec = sum(float(x) * (1e-9 if "n" in _snake(k) else 1.0) for k, x in v.items())
        except (TypeError, ValueError, OverflowError):
            raise ToolError(f"{key} must be a time") from None
        return None if sec == 0 else sec
    if isinstance(v, bool) or v is None:
        raise ToolError(f"{key} must be a time")
    if isinstance(v, (int, float)):
        try:
            return v / 1000.0 if EPOCH_MS_FROM <= v < EPOCH_MS_FROM * 1000 else v
        except OverflowError:
            return math.inf
    if not isinstance(v, str) or len(v) > 64:
        raise ToolError(f"{key} must be a time")
    text = v.strip()
    if _NUMBER.match(text):
        return _stamp(float(text), key, now)
    try:
        stamp = dt.datetime.fromisoformat(text.replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        stamp = None
    if stamp is not None:
        if stamp.tzinfo is None:
            stamp = stamp.replace(tzinfo=dt.timezone.utc)
        return stamp.timestamp()
    try:
        return structured.moment(text, key, now)
    except structured.RequestRefused as exc:
        raise ToolError(str(exc)) from None


def _seconds(v, key: str, unit: float):
    """A length of time: a number in ``unit`` seconds, "90 s", "30m", "2h", or ISO 8601 "PT30M"."""
    if isinstance(v, bool):
        raise ToolError(f"{key} must be a length of time")
    if isinstance(v, (int, float)):
        try:
            return v * unit
        except OverflowError:
            return math.inf
    if isinstance(v, str) and len(v) <= 32:
        text = v.strip()
        m = _DURATION.fullmatch(text.lower())
        if m:
            return float(m.group(1)) * _unit_s(m.group(2))
        m = _ISO_DURATION.fullmatch(text.upper())
        if m and any(m.groups()):
            d, h, mi, s = (float(x or 0) for x in m.groups())
            return d * 86400 + h * 3600 + mi * 60 + s
        if _NUMBER.match(text):
            return float(text) * unit
    raise ToolError(f"{key} must be a length of time")


# Twentieth round: a value in a typed wrapper, one value key with at most a "type" beside it: MongoDB's extended JSON
# ('{"$date": "2026-01-15T10:45:00Z"}'), protobuf's Value ('{"stringValue": "wallet"}', '{"numberValue": 5400}'),
# Dify's constant ('{"type": "constant", "value": 1800}'). The wrapped value is read as the field's value, checked as
# any other; a map with any other key is left as it is (a ROS Time map, a point, a nested request).
_VALUE_KEYS = frozenset("value $date $number_long $number_int $number_double $numberlong $numberint $numberdouble "
                        "string_value number_value integer_value int_value double_value bool_value boolean_value "
                        "timestamp_value".split())


def unwrapped(v, depth: int = 0):
    """The value a typed wrapper holds (above), or ``v`` itself."""
    if not isinstance(v, dict) or depth > 3:
        return v
    keys = [k for k in v if _snake(k) != "type" or not isinstance(v[k], str)]
    if len(keys) != 1 or _snake(keys[0]).replace("$_", "$") not in _VALUE_KEYS:
        return v
    return unwrapped(v[keys[0]], depth + 1)


def _arguments(op: str, raw: dict, now: float | None) -> tuple[dict, list[str]]:
    """The tool's arguments under its spec's keys with normalised values, and the fields that only shape the answer
    (shown as ignored). A field may go by another of its names (operators.REQUEST_ARG_FIELDS: 'obj', 'at'); _NotHere
    when a field is none of these (structured.py's vocabulary may know it)."""
    props = _PROPS[op] | (_PROPS["relational_as_of"] if op == "relational" else frozenset())  # RelationalQuery.time
    a: dict = {}
    ignored: list[str] = []
    for key, v in raw.items():
        k = _snake(key)
        v = unwrapped(v)
        m = _AGO_KEY.fullmatch(k)
        if k in props:
            target = k
        elif k in _SRV_FIELDS:
            target = _SRV_FIELDS[k]
        elif m and (m.group(3) or "_ago_" in k):
            target = f"{m.group(1)}_ago_s"
            v = _seconds(v, key, _unit_s(m.group(2)))
        elif REQUEST_ARG_FIELDS.get(k) in props or k in _OWN_ALIASES and _OWN_ALIASES[k] in props:
            # a field's other name ('obj', 'at'); the thing's "name" (the envelope names the tool); a search's "query"
            target = REQUEST_ARG_FIELDS.get(k) or _OWN_ALIASES[k]
        elif k in REQUEST_SHAPE_FIELDS or k in PAGE_FIELDS:
            ignored.append(f"{_shown(k)}={_shown(v)}")
            continue
        else:
            raise _NotHere
        if target in a or target.endswith("_ago_s") and target[:-6] in a:
            if target != k:
                raise _NotHere  # '"subject": ..., "object": ...': structured.py reads such fields by their roles
            raise ToolError(f"the call gives {target} twice")
        if target in ("t", "since", "until"):
            v = _moment(v, key, now)
            if v is None:
                continue  # a ROS Time of zero: open on that side
        elif target.endswith("_ago_s") and target == k:
            v = _seconds(v, key, 1.0)
        elif target in ("object_id", "anchor_id") and v == 0:
            continue  # the typed services' "0 = not given"
        elif target == "kinds":
            v = _kinds(v, key)
        elif target == "center" and isinstance(v, dict) and {_snake(x) for x in v} == {"x", "y", "z"}:
            v = [v[x] for x in sorted(v, key=_snake)]
        elif target == "radius" and isinstance(v, str):
            rm = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(m|cm|mm)?\s*", v.lower())
            v = float(rm.group(1)) * {"m": 1.0, "cm": 0.01, "mm": 0.001, None: 1.0}[rm.group(2)] if rm else v
        elif target == "relation" and isinstance(v, str):
            v = v.strip().lower()
        a[target] = v
    return a, ignored


def _kinds(v, key: str) -> list:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not v or len(v) > 4 or not all(isinstance(x, str) for x in v):
        raise ToolError(f"{key} must list change kinds (appeared, moved, removed, reappeared)")
    try:
        return structured.change_kinds(v, key)
    except structured.RequestRefused as exc:
        raise ToolError(str(exc)) from None


# the two names of an argument that structured.py reads as naming the tool, and a tool call (whose tool the envelope
# names) uses for an argument: '"input": {"name": "remote"}', '{"tool": "semantic_search", "query": "..."}'
_OWN_ALIASES = {"name": "label", "query": "text"}
_PROPS = {spec["name"]: frozenset(spec["inputSchema"]["properties"]) for spec in tool_specs()}


# ---------------------------------------------------------------------------------------------- the reading
@dataclass(frozen=True)
class Reading:
    """What an envelope asks: the operator and arguments (as a question's), or "ask" and the question inside."""

    operator: str
    args: dict
    ignored: tuple[str, ...]
    unknown: str
    said: str   # how it came: "a <tool_call> call of 'is_missing'"; "" when structured.py read the tool's name


# How a typed service pages its answer (History.srv: offset; placements_k and placements_offset since stop 35): the
# shape of the reply, not what is asked; a question's answer is its first page. Review of stop 35: History's own
# default request (all five fields) was refused, naming object_id as the unknown field.
PAGE_FIELDS = frozenset(("offset", "placements_k", "placements_offset"))


def read(text, now: float | None, names: Names) -> Reading | str | None:
    """The reading of a tool call typed as a question; a str (why it is refused) for an envelope this reader cannot
    take; None when the text is no envelope, or one whose tool structured.py reads by the words of its name."""
    try:
        found = find(text)
        if found is None:
            return None
        form, payload = found
        call = call_of(payload)
        if call is None:
            return None  # a map of fields with no tool named: structured.py reads it
        return _route(call, form, now, names)
    except Malformed as exc:
        return str(exc)
    except ToolError as exc:
        return f"the tool call's arguments: {exc}"


def namespaced(name: str) -> str:
    """Twenty-third round: a tool's name behind a namespace joined by two or more underscores ('tempomem__first_seen',
    a gateway's 'tempomem-target___count_moves', MCP clients' 'mcp__tempomem__last_seen'): the tool's, when the tail
    is one of the table's and no word before it acts; the name itself otherwise."""
    parts = re.split(r"_{2,}", name)
    if len(parts) < 2 or name in ROUTES or name in TOOL_NAMES:
        return name
    tail = parts[-1]
    if tail not in ROUTES and tail not in TOOL_NAMES or set("_".join(parts[:-1]).split("_")) & _ACTING:
        return name
    return tail


def _route(call: Call, form: str, now, names: Names, depth: int = 0) -> Reading | str | None:
    name = _snake(str(call.name).strip().rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[-1])
    if not name or len(str(call.name)) > 80:
        raise Malformed("the tool's name is not readable")
    name = namespaced(name)
    said = f"a {form} of '{_shown(name)}'"
    route, fixed = ROUTES.get(name), {}
    if route is None and name in TOOL_NAMES and TOOL_NAMES[name][0] in ROUTES:
        # the operator table's other names of an operator ('locate', 'objects_on'), with what the name fixes
        route, fixed = ROUTES[TOOL_NAMES[name][0]], dict(TOOL_NAMES[name][1])
    if route is None:
        if name.split("_")[0] in _ACTING:
            return (f"'{_shown(name)}' is nothing I can look up: the tool would act, and the memory's tools only read "
                    "what was seen where and when")
        inner = [k for k, v in call.args.items() if _snake(k) in NAME_KEYS and isinstance(v, str)]
        if len(inner) == 1 and depth == 0:  # a dispatcher: 'query_memory(op="relational", ...)' calls the tool it names
            rest = {k: v for k, v in call.args.items() if k != inner[0]}
            return _route(Call(call.args[inner[0]], rest, call.positional), form, now, names, depth + 1)
        return _by_words(call, name, now, names)
    if route.acts:
        return f"the service '{_shown(name)}' changes the memory; a question only reads it"
    raw = dict(call.args)
    op = route.operator
    if route.selector:
        chosen = raw.pop(next((k for k in raw if _snake(k) == route.selector), ""), None)
        pick = next(((o, f) for v, o, f in route.choices if isinstance(chosen, str) and _snake(chosen) == v), None)
        if pick is None:
            return f"the service '{route.service}' needs its field '{route.selector}' to be one of " + \
                ", ".join(v for v, _, _ in route.choices)
        op, fixed = pick
    if not op:
        return f"the service '{route.service}' is no question; call it as its own service"
    if op == "ask":
        q = raw.pop(next((k for k in raw if _snake(k) == "question"), ""), call.positional)
        k = raw.pop(next((k for k in raw if _snake(k) == "k"), ""), None)
        if q is None or raw:
            return "the Query call needs one field 'question' with the question's text (and k)"
        validate("ask", {"question": q, **({"k": k} if k not in (None, 0) else {})}, now)  # Query's k: 0 = default
        return Reading("ask", {"question": q}, (), "", said)
    before = raw.pop(next((k for k in raw if _snake(k) == "before"), ""), None)
    if route.service:   # a typed service's k 0 is its default page (History.srv, SemanticQuery.srv, ...), as Query's
        kk = next((k for k in raw if _snake(k) == "k"), None)
        if kk is not None and raw[kk] == 0 and not isinstance(raw[kk], bool):
            del raw[kk]
    if call.positional is not None:
        slot = next((p for p in ("label", "text", "anchor") if p in _PROPS[op]), None)
        if slot is None or any(_snake(k) in (slot, f"{slot}_id") for k in raw):
            raise Malformed(f"{op} takes no unnamed argument")
        raw[slot] = call.positional
    aliased = any(_snake(k) not in _PROPS[op] and _snake(k) not in _SRV_FIELDS and not _AGO_KEY.fullmatch(_snake(k))
                  for k in raw)
    try:
        args, ignored = _arguments(op, raw, now)
        return _checked(op, args, fixed, before, tuple(ignored), now, names, said)
    except _NotHere:
        return _by_words(call, name, now, names)
    except ToolError:
        if not aliased:
            raise
        # a field named otherwise whose value the tool's own keys refuse ('"surface": "table"' needs no relation
        # to structured.py, which reads the surface as 'on'): read as before this reader
        return _by_words(call, name, now, names)


def _checked(op: str, args: dict, fixed: dict, before, ignored: tuple, now, names: Names, said: str
             ) -> Reading | str:
    """The arguments validated as untrusted by the agent tools' validator (tool_args.validate), then resolved."""
    if before is not None and not isinstance(before, bool):
        raise ToolError("before must be true or false")
    if op == "relational" and (before or "t" in args or "t_ago_s" in args):  # RelationalQuery's time and before
        if before and ("t" in args or "t_ago_s" in args):
            raise ToolError("give a time or before, not both")
        op = "relational_before" if before else "relational_as_of"
    elif before:
        raise ToolError(f"{op} takes no 'before'")
    for key, v in fixed.items():
        if args.get(key, v) != v:
            raise ToolError(f"the tool's name and its arguments give two values of {key}")
    args = {**fixed, **args}
    k = validate(op, args, now)
    k.pop("k", None)
    return _resolved(op, k, ignored, now, names, said)


def _resolved(op: str, args: dict, ignored: tuple, now, names: Names, said: str) -> Reading | str:
    """Things resolved like a question's (an unknown one answers "I don't know any X"); spans closed at now."""
    unknown = ""
    extra: list[str] = []
    for slot, regions in (("label", False), ("anchor", True)):
        if isinstance(args.get(slot), str):
            thing = resolve(args[slot], names, regions=regions)
            if thing is None or thing.indefinite:
                return structured.not_a_thing(args[slot], names, regions)
            args[slot] = thing.label
            extra += thing.ignored
            unknown = unknown or ("" if thing.known else slot)
    if args.get("since") is not None and "until" in _PROPS[op]:
        args.setdefault("until", now)
    if op == "changes":
        args.setdefault("since", None)
        args.setdefault("until", now)
    return Reading(op, args, ignored + tuple(extra), unknown, said)


def _by_words(call: Call, name: str, now, names: Names) -> Reading | str | None:
    """A name outside the table: structured.py's reader of tool names by their words, on the same fields."""
    flat = {"fn": name, **{k: v for k, v in call.args.items() if not isinstance(v, Call)}}
    if len(flat) != len(call.args) + 1 or any(_snake(k) == "fn" for k in call.args):
        raise Malformed("the request is not a JSON object of plain values (a call inside its arguments)")
    if call.positional is not None:
        if any(_snake(k) == "label" for k in flat):
            raise Malformed("the call gives the thing twice")
        flat["label"] = call.positional
    out = structured.read_request(flat, now, names)
    if out is None:
        return f"'{_shown(name)}' is no tool of the memory's"
    if isinstance(out, str):  # a name no table lists and its words do not read: say so before why the fields failed
        return out if name in TOOL_NAMES else f"'{_shown(name)}' is no tool of the memory's ({out})"
    op, args, ignored, unknown = out
    return Reading(op, args, tuple(ignored), unknown, "")  # worded as structured.py's reading ever was


__all__ = ["ROUTES", "Reading", "SERVICES", "find", "read"]
