"""A tool call in a looser shape than envelope.py's: read only when every other reader refused the text.

Why: heldout17 (measured once, then a development set of the fifteenth round) refused about 30 agent requests whose
tool was one of the memory's own and whose arguments were ones the tools take, written in shapes no reader took:
fields as 'tool=count_sightings, label="headphones"' or '[tempomem] tool=previous label=jacket', a command line with
the tool's name in words ('count moves --label remote'), an HTTP request or a curl line around a JSON body, an EDN
map ('{:tool :last-seen, :label "keys"}'), XML with the tool as an element or attribute, a CSV header and row, an HCL
block, a Rasa NLU parse, a model's special tokens ('<|python_tag|>...<|eom_id|>') or a code fence around a call,
'await tools.wasSeen({...})', a framework's object holding the call (Pydantic AI's 'ToolCallPart(tool_name=...,
args={...})', Google ADK's 'Event(content=Content(parts=[Part(function_call=FunctionCall(...))]))'), an MCP sampling
request whose one user message is the question.

How, one rule rather than one pattern per example: peel what carries the call (special tokens, a code fence, 'await',
an HTTP request line and headers, curl's options), read the payload as a map in whichever common syntax it is
written (envelope's parser: JSON, YAML flow, Python/JS literals and calls; here also key=value and --flag fields,
EDN, XML, CSV, HCL), then look in it for exactly ONE call whose name is a tool of the one table (envelope.ROUTES, the
operator table's names; camelCase, kebab-case and an asking verb before it, 'ask_last_seen', read as the name),
its arguments beside it. The call then goes through envelope's router: the agent tools' validator, the labels
resolved like a question's; an action tool ('define_region', 'navigate_to') or an HTTP method that writes is refused
as there. No call or two calls: None (the refusal stands). The walk to the call goes only through what transports
one (CARRIER_CALLS, CARRIER_KEYS: review of the fifteenth round); a call named outside the table around or beside it
('navigate_to', 'print(robot.delete(...))', '{"cancel": {...}}'), a write or action segment before its name
('/api/forget/last_seen'), a named call whose arguments fail, a field given twice: the whole request is refused,
never read as the call inside. Tried last, so no text another reader takes changes its reading. Pure and
deterministic.
"""

from __future__ import annotations

import json
import re
import shlex
from urllib.parse import parse_qsl, urlsplit

from . import dialects, envelope, lines, shapes, timeexpr
from .envelope import ARGS_KEYS, NAME_KEYS, ROUTES, Call, Malformed, _NotHere, _parse_whole, _snake
from .operators import TOOL_NAMES
from .slots import Names
from .tool_args import ToolError

MAX_CHARS = 4000
MAX_NODES = 200
# what carries a call in a model's output: special tokens ('<|python_tag|>', '<|eom_id|>'), a code fence with its
# language ('```tool_code ... ```', '```json ... ```'), 'await' before a JavaScript call
_SPECIAL = re.compile(r"<\|[A-Za-z_]\w{0,30}\|>")
_FENCE_LANG = re.compile(r"[A-Za-z_]*")  # the fence's language; the fence itself is found by string operations
_AWAIT = re.compile(r"\s*(?:try\s+)?await\s+(?=[A-Za-z_])")
# Sixteenth round (heldout18): a call in a statement of Swift / C# / JS / Kotlin ('let lastPlace = try await
# memory.previous(label: "bowl")', 'var stay = await memory.DurationAsync(label: "umbrella");'): a declared variable
# that takes the call's value and the statement's closing ';' carry no instruction. Only after a declaring keyword
# ('tool=last_seen, label=...' is fields, read below); Gorilla's '<<function>>' marks the call as a special token does.
_DECLARED = re.compile(r"\s*(?:let|var|const|val|auto)\s+[A-Za-z_]\w*\s*(?::\s*[\w.<>?\[\]]+\s*)?=(?!=)\s*")
_GORILLA = re.compile(r"\s*<<function>>\s*(?=[A-Za-z_])")
# Seventeenth round: a spreadsheet formula's '=' before the call ('=TEMPOMEM.FIRSTSEEN("plant")', heldout18) carries it
_FORMULA = re.compile(r"\s*=(?!=)\s*(?=[A-Za-z_][\w.]*\()")
# an HTTP request as a log or a model writes it on one line: method, target, version, headers, body
_HTTP = re.compile(r"\s*(GET|POST|PUT|PATCH|DELETE|HEAD)\s+(\S+)(?:\s+HTTP/\d(?:\.\d)?)?((?:\s+[A-Za-z][\w-]*:\s*"
                   r"[^\s{]+(?:;\s*[^\s{]+)*)*)\s*(.*?)\s*\Z", re.S)
_READING_METHODS = frozenset(("GET", "POST"))
# '[tempomem] tool=previous': a tag in brackets before the fields
_TAG = re.compile(r"\s*\[[\w .:/-]{1,40}\]\s*")
# words of asking before a tool's name in an intent's name ('ask_last_seen', 'get_history', 'query_changes')
_ASKING = frozenset("ask get query request fetch lookup check show find".split())
# the keys of a ReAct trace that hold the model's prose ('next_thought: ...'): read past, never as arguments
_THOUGHT = re.compile(r"(?:\w+_)?(?:thought|thoughts|reasoning|rationale|observation)")


class _Refused(Exception):
    """A carrier this reader recognises but must refuse (an HTTP method that writes)."""


def tool_name(name) -> str | None:
    """The table's name a call's name stands for: snake_case of its last segment ('tempomem.countSightings',
    '/tools/history', 'last-seen'), or the same after one leading asking verb ('ask_last_seen'); None when neither
    is in the table."""
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        return None
    # stop 54 (heldout34's H143, "ipcRenderer.invoke('tempomem:relational_before', {...})"): the product's name and
    # a colon before the tool's is a namespace, as 'tempomem.' is
    name = re.sub(r"^\s*tempomem:+", "", name, flags=re.I)
    base = _snake(name.strip().rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[-1].lstrip(":"))
    # sixteenth round: C#'s Task-returning name ('DurationAsync') is the tool's
    base = base[:-len("_async")] if base.endswith("_async") else base
    # seventeenth round: the product's own name before the tool's ('tempomem-is-present', a Lambda function's name;
    # 'tempomem_last_seen') is a namespace, as 'tempomem.' is
    base = envelope.namespaced(base)  # twenty-third round: 'tempomem__first_seen', 'tempomem-target___count_moves'
    base = base[len("tempomem_"):] if base.startswith("tempomem_") else base
    # twentieth round: an MCP client's name for a server's tool ('mcp__tempomem__last_seen', Claude Code's): the tool
    mcp = re.fullmatch(r"mcp__[a-z0-9_-]+?__([a-z0-9_]+)", base)
    base = mcp.group(1) if mcp else base
    for candidate in (base, base.split("_", 1)[1] if base.split("_", 1)[0] in _ASKING and "_" in base else ""):
        if candidate in ROUTES or candidate in TOOL_NAMES:
            return candidate
    # seventeenth round: a name written in one word ('=TEMPOMEM.FIRSTSEEN("plant")', '/lastseen'): the table's name
    # whose words run together the same (each table name is one such run: _COMPACT)
    return _COMPACT.get(base) if "_" not in base else None


_COMPACT = {n.replace("_", ""): n for n in sorted(set(ROUTES) | set(TOOL_NAMES)) if "_" in n}


# ------------------------------------------------------------------------------------------------ carriers
# Sixteenth round (heldout18): a model's chat template around the call. The harmony format names the tool in its
# header ('<|start|>assistant<|channel|>commentary to=functions.is_related <|constrain|>json<|message|>{...}<|call|>'):
# the call is that tool with the message as its arguments. Role tokens ('<|start_of_role|>assistant<|end_of_role|>')
# enclose the speaker's name, no part of the call: dropped with them.
_HARMONY = re.compile(r"\s*(?:<\|start\|>\s*assistant\s*)?<\|channel\|>\s*\w+\s+to=(?:functions\.)?([A-Za-z_][\w.-]*)"
                      r"\s*(?:<\|constrain\|>\s*json\s*)?<\|message\|>(.*?)<\|call\|>\s*\Z", re.S)
_ROLE = re.compile(r"<\|start_of_role\|>\s*(?:assistant|model)\s*<\|end_of_role\|>")


def _carried(text: str, depth: int = 0):
    """The payload inside the text's carriers: a str (text to read again), a dict / list / Call; None."""
    if depth > 3:
        return None
    if _TOKEN.search(text):
        called = _transcript(text)
        if called is not None:
            return called
    m = _HARMONY.match(text)
    if m:
        args = _parse_whole(m.group(2))
        if not isinstance(args, dict):
            raise Malformed("a harmony call's message must be its arguments")
        return Call(m.group(1), args)
    inner = _SPECIAL.sub(" ", _ROLE.sub(" ", text))
    if inner != text and inner.strip():
        return _carried(inner.strip(), depth + 1) or inner.strip()
    fenced = _fenced(text)
    if fenced is not None:
        return _carried(fenced, depth + 1) or fenced
    m = _DECLARED.match(text) or _GORILLA.match(text) or _FORMULA.match(text)
    if m:
        inner = re.sub(r"\s*;\s*\Z", "", text[m.end():])
        return _carried(inner, depth + 1) or inner
    m = _AWAIT.match(text)
    if m:
        return _carried(text[m.end():], depth + 1) or text[m.end():]
    m = _HTTP.match(text)
    if m:
        return _http(m.group(1), m.group(2), m.group(4))
    if re.match(r"\s*curl\s", text):
        return _curl(text)
    if re.match(r"\s*(?:Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\s", text, re.I):
        return _powershell(text)
    if re.match(r"\s*grpcurl\s", text):
        return _grpcurl(text)
    m = _FETCH.fullmatch(text)
    if m:  # eighteenth round: a JavaScript fetch is an HTTP request (heldout18's b143)
        return _fetched(m.group(2), m.group(3))
    m = _OWN_URI.fullmatch(text)
    if m:  # 'tempomem://missing?k=20': a resource address of the memory's own scheme, read as a GET of it
        return _http("GET", "/" + m.group(1), "")
    m = _SSE.match(text)
    if m:  # eighteenth round: a server-sent event ('event: message data: {...}'): its data is the payload
        return _carried(m.group(1), depth + 1) or m.group(1)
    return None


# Eighteenth round (heldout18): 'fetch("/tempomem/v1/tools/is_missing", {method: "POST", body: JSON.stringify({label:
# "charger"})})': the browser's HTTP request, its options' method and body read as curl's are; JSON.stringify(x) is x
_FETCH = re.compile(r"\s*(?:await\s+)?fetch\(\s*([\"'])([^\"'\s]{1,300})\1\s*(?:,\s*(\{.*\}))?\s*\)\s*;?\s*", re.S)


def _fetched(url: str, options: str | None):
    opts: dict = {}
    if options:
        try:
            opts = _parse_whole(_unstringify(options))
        except _NotHere:
            return None
        if not isinstance(opts, dict) or {_snake(k) for k in opts} - {"method", "body", "headers"}:
            return None
    method = next((v for k, v in opts.items() if _snake(k) == "method"), None) or "GET"
    body = next((v for k, v in opts.items() if _snake(k) == "body"), "")
    if not isinstance(method, str):
        return None
    if isinstance(body, dict):
        body = json.dumps(body)
    return _http(method, url, body if isinstance(body, str) else "")


def _unstringify(options: str) -> str:
    """The options with 'JSON.stringify(x)' written as x (bracket-matched)."""
    out = options
    for _ in range(5):
        i = out.find("JSON.stringify(")
        if i < 0:
            return out
        start = i + len("JSON.stringify(")
        depth, j = 1, start
        while j < len(out) and depth:
            depth += {"(": 1, ")": -1}.get(out[j], 0)
            j += 1
        if depth:
            return out
        out = out[:i] + out[start:j - 1] + out[j:]
    return out


# Eighteenth round (heldout19): a server-sent event as MCP's streamable HTTP and OpenAI's streaming send it, its fields
# on one line: 'event: message data: {...}', 'data: {"object": "chat.completion.chunk", ...}'
_SSE = re.compile(r"\s*(?:(?:event|id|retry)\s*:\s*[^\s:{]+\s+)*data\s*:\s*(\S.*?)\s*\Z", re.S)
# Eighteenth round: a model's transcript of a call in tokens of another spelling than '<|x|>': DeepSeek's full-width
# bars and word pieces ('<｜tool▁call▁begin｜>function<｜tool▁sep｜>first_seen ```json {...}```'), Qwen's
# '✿FUNCTION✿: count_sightings ✿ARGS✿: {...}', Functionary's '<|recipient|>first_seen <|content|>{...}'. Each token
# says what the text after it is: the call's name (recipient, function, tool), its arguments (content, args), a
# separator before 'name arguments' (tool_sep), a speaker (from, role: its word dropped), or a mark (begin, end).
_TOKEN = re.compile(r"<[|｜]\s*([A-Za-z_][\w▁ ]{0,30}?)\s*[|｜]>|✿([A-Z_]{1,20})✿")
_TOKEN_NAME = frozenset(("recipient", "function", "tool", "tool_name", "name", "fn"))
_TOKEN_ARGS = frozenset(("content", "args", "arguments", "parameters", "input"))
_TOKEN_SPEAKER = frozenset(("from", "role", "start_header_id"))


def _transcript(text: str):
    """The call a transcript of tokens writes (above), or None (no name, or a token it does not know)."""
    pieces = _TOKEN.split(text)
    name, args, i = None, None, 1
    if pieces[0].strip():
        return None
    while i < len(pieces):
        word = _snake((pieces[i] or pieces[i + 1] or "").replace("▁", "_"))
        body = pieces[i + 2].strip().lstrip(":").strip()
        i += 3
        if word.endswith(("_begin", "_end")) or word in ("begin", "end") or word in _TOKEN_SPEAKER:
            if word in _TOKEN_SPEAKER and len(body.split()) > 1:
                return None  # a speaker's word, then more text: no transcript of a call
            continue
        if word == "tool_sep" or word in _TOKEN_NAME:
            head = re.match(r"([A-Za-z_][\w.-]*)\s*(.*)\Z", body, re.S)
            if not head or name is not None:
                return None
            name, rest = head.group(1), head.group(2).strip()
            if rest:
                args = _fenced(rest) or rest
        elif word in _TOKEN_ARGS:
            if args is not None:
                return None
            args = _fenced(body) or body
        else:
            return None
    if name is None:
        return None
    try:
        parsed = _parse_whole(args) if args else {}
    except _NotHere:
        return None
    if not isinstance(parsed, dict):
        raise Malformed("a transcript's arguments must be a map")
    return Call(name, parsed)


# Seventeenth round: an address in the memory's own URI scheme (as an MCP client names a server's resource)
_OWN_URI = re.compile(r"\s*tempomem://(\S{1,300})\s*")


# Seventeenth round (heldout18): the other command-line clients agents write a request with, read as curl's is:
# PowerShell's 'Invoke-RestMethod -Method Post -Uri http://.../tools/spatial -Body '{...}'' and grpcurl's 'grpcurl
# -plaintext -d '{...}' host:port tempomem.v1.Memory/RelationalBefore' (a gRPC method reads when its name is a tool's;
# any other name, a write among them, is no tool and the request is refused).
_PS_VALUE = frozenset(("-method", "-uri", "-body", "-contenttype", "-headers", "-timeoutsec"))


def _powershell(text: str):
    try:
        toks = shlex.split(text)
    except ValueError:
        return None
    opts: dict = {}
    i = 1
    while i < len(toks):
        opt = toks[i].lower()
        if opt not in _PS_VALUE or i + 1 >= len(toks) or opt in opts:
            return None
        opts[opt], i = toks[i + 1], i + 2
    if "-uri" not in opts:
        return None
    body = opts.get("-body", "")
    return _http(opts.get("-method") or ("POST" if body else "GET"), opts["-uri"], body)


def _grpcurl(text: str):
    try:
        toks = shlex.split(text)
    except ValueError:
        return None
    body, rest, i = "", [], 1
    while i < len(toks):
        t = toks[i]
        if t in ("-d", "-data"):
            if i + 1 >= len(toks) or body:
                return None
            body, i = toks[i + 1], i + 2
        elif t in ("-plaintext", "-insecure", "-v", "-format-error"):
            i += 1
        elif t.startswith("-"):
            return None
        else:
            rest.append(t)
            i += 1
    if not rest or "/" not in rest[-1] or len(rest) > 2:
        return None
    return _http("POST", "/" + rest[-1], body)


def _fenced(text: str) -> str | None:
    """The text inside a code fence that opens and closes the whole text ('```python ... ```'); None when it is no
    fence. Review of the fifteenth round: the regex this replaces ('\\s*```[A-Za-z_]*\\s*(.*?)\\s*```\\s*\\Z')
    backtracked cubically on whitespace ('```' and 994 spaces then 'x': 1.53 s through Memory.ask; 3,990 spaces 98 s
    through understand); strip, startswith, endswith and one anchored match of letters are each one pass."""
    body = text.strip()
    if len(body) < 6 or not body.startswith("```") or not body.endswith("```"):
        return None
    body = body[3:-3]
    lang = _FENCE_LANG.match(body)
    return body[lang.end():].strip()


_INTEGER_FIELDS = frozenset(("k", "offset", "object_id", "anchor_id"))


def _http(method: str, target: str, body: str):
    if method.upper() not in _READING_METHODS:
        raise _Refused(f"an HTTP {method.upper()} would change the memory; its tools only read")
    parts = urlsplit(target)
    if parts.fragment:   # 'current?label=mug#forget': words the request carries past its fields
        raise Malformed("the request's address holds a fragment")
    _no_action_in_path(parts.path)
    name = parts.path.rstrip("/").rsplit("/", 1)[-1]
    pairs = parse_qsl(parts.query) if parts.query else []
    m = re.fullmatch(r"([A-Za-z_]\w*)\((.*)\)", name)
    if m:
        # eighteenth round: an OData function's parameters in its path ("GET /odata/RelationalBefore(relation='on',
        # anchor='desk')"): the call's named arguments
        called = _parse_whole(name)
        if not isinstance(called, Call) or called.positional is not None:
            raise Malformed("an OData function's parameters must be named")
        name = m.group(1)
        pairs += list(called.args.items())
    if len({k for k, _ in pairs}) != len(pairs):   # '?label=mug&label=keys': which one is asked is not said
        raise Malformed("the request gives a field twice")
    # a query string carries only text: a count or an id in it is a number ('tempomem://missing?k=20')
    args: dict = {k: int(v) if k in _INTEGER_FIELDS and re.fullmatch(r"\d{1,9}", v) else v for k, v in pairs}
    if body:
        try:
            payload = _parse_whole(body)
        except _NotHere:
            payload = _form(body)
        if not isinstance(payload, dict):
            return None
        if any(k in args for k in payload):
            raise Malformed("the request gives a field twice")
        args.update(payload)
    return Call(name, args) if tool_name(name) else args


def _form(body: str) -> dict | None:
    """A form-urlencoded body ('question=is+the+mug+on+the+table%3F')."""
    if not re.fullmatch(r"[\w.%+~-]+=[^&\s]*(?:&[\w.%+~-]+=[^&\s]*)*", body):
        return None
    pairs = parse_qsl(body, keep_blank_values=True)
    return dict(pairs) if len({k for k, _ in pairs}) == len(pairs) else None


_CURL_DATA = frozenset(("--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode", "--json"))


def _curl(text: str):
    try:
        toks = shlex.split(text)
    except ValueError:
        return None
    method, url, body = "", None, ""
    i = 1
    while i < len(toks):
        t = toks[i]
        if t.startswith("--") and "=" in t:   # '--request=DELETE', '--data={...}'
            opt, value = t.split("=", 1)
            if opt == "--request":
                method = value
            elif opt in _CURL_DATA:
                body = value
            i += 1
        elif t.startswith("--"):
            if t == "--request" and i + 1 < len(toks):
                method, i = toks[i + 1], i + 2
            elif t in _CURL_DATA and i + 1 < len(toks):
                body, i = toks[i + 1], i + 2
            elif t in ("--header", "--user", "--output") and i + 1 < len(toks):
                i += 2
            else:
                i += 1
        elif t.startswith("-") and len(t) > 1:
            # short options, glued ('-XDELETE', '-sXDELETE', '-d{...}') or apart ('-X DELETE'): the first letter
            # that takes a value takes the rest of the token, or the next token (review of the fifteenth round:
            # '-XDELETE' was skipped as one flag and the request read as a GET)
            j, i = 1, i + 1
            while j < len(t):
                c = t[j]
                if c in "XdHuo":
                    value = t[j + 1:]
                    if not value:
                        if i >= len(toks):
                            return None
                        value, i = toks[i], i + 1
                    if c == "X":
                        method = value
                    elif c == "d":
                        body = value
                    break
                j += 1
        elif url is None:
            url, i = t, i + 1
        else:
            return None
    if url is None:
        return None
    return _http(method or ("POST" if body else "GET"), url, body)


# --------------------------------------------------------------------------------------- other syntaxes
def _fields(text: str):
    """A line of fields: 'tool=x label=y', 'tool=x, label="y"', 'count moves --label remote' (the leading words name
    the tool), 'next_tool_name: where_to_look next_tool_args: {...}'; None when the text is not one."""
    text = _TAG.sub("", text, count=1) if _TAG.match(text) else text
    block = _keyed_block(text)
    if block is not None:
        return block
    try:
        toks = shlex.split(text)
    except ValueError:
        return None
    toks = [t.rstrip(",") for t in toks if t.rstrip(",")]
    lead, out, i, flagged = [], {}, 0, False
    while i < len(toks):
        t = toks[i]
        m = re.fullmatch(r"(?:--)?([A-Za-z_][\w-]*)=(.*)", t, re.S)
        if m:
            key, value, flagged = m.group(1), m.group(2), True
            i += 1
        elif re.fullmatch(r"--[A-Za-z][\w-]*", t):
            if i + 1 >= len(toks) or toks[i + 1].startswith("--"):
                return None
            key, value, flagged = t[2:], toks[i + 1], True
            i += 2
        elif not out and re.fullmatch(r"[A-Za-z_][\w-]*", t):
            lead.append(t)
            i += 1
            continue
        else:
            return None
        if _snake(key) in {_snake(k) for k in out}:
            raise Malformed("the request gives a field twice")
        out[key] = _scalar(value)
    if not flagged or len(lead) > 4:
        return None
    if lead:
        for n in range(len(lead), 0, -1):   # the longest run of leading words that names a tool; the rest the thing
            if tool_name("_".join(lead[:n])):
                rest = " ".join(lead[n:])
                return Call("_".join(lead[:n]), out, rest or None)
        return None
    return out


def _scalar(value: str):
    try:
        return _parse_whole(value) if value[:1] in "{[" else envelope._Parser(value).scalar("")
    except (_NotHere, Malformed):
        return value


def _keyed_block(text: str) -> dict | None:
    """'next_thought: ... next_tool_name: where_to_look next_tool_args: {...}': keys that end in a name key or an
    arguments key, and keys of the model's prose."""
    keys = list(re.finditer(r"(?:^|\s)([A-Za-z_]\w*)\s*:\s", text))
    if len(keys) < 2 or keys[0].start() != 0:
        return None
    out: dict = {}
    for n, km in enumerate(keys):
        end = keys[n + 1].start() if n + 1 < len(keys) else len(text)
        key, value = _snake(km.group(1)), text[km.end():end].strip()
        if _THOUGHT.fullmatch(key):
            _thought_acts(value)
            continue
        role = next((r for r, ks in (("name", NAME_KEYS), ("args", ARGS_KEYS)) if any(
            key == k or key.endswith("_" + k) for k in ks)), None)
        if role is None or role in out:
            return None
        out[role] = _scalar(value)
    return {"name": out["name"], "arguments": out.get("args", {})} if "name" in out else None


# the words of a thought that plan a write or an action beside the call ('thought: call forget first', 'reasoning: but
# actually call forget', 'thought: I will navigate_to the kitchen': review of the fifteenth round, L3, read as the call
# alone before); narrower than _ACTS, as a thought's prose says 'place', 'put', 'set' of what it looks for
_THOUGHT_ACTS = frozenset("forget delete remove purge erase wipe drop reset navigate cancel undo send email "
                          "schedule grasp destroy".split())


def _thought_acts(value: str) -> None:
    """Refuse a trace whose thought plans a write or an action, or names a tool outside the table, beside its call."""
    for word in re.findall(r"[A-Za-z_][\w-]*", value):
        # a word of prose is split only where a lower-case letter meets a capital: the acronym split of tool names
        # made 'IDs', 'URLs', 'GPUs' read as unknown tools 'i_ds', 'ur_ls' and refused the call beside them
        # (review of the sixteenth round, M1)
        snake = _snake(word, acronyms=False)
        if set(snake.split("_")) & _THOUGHT_ACTS or "_" in snake.strip("_") and not tool_name(snake):
            raise _Refused(f"the request's thought plans '{word}' beside its call; read nothing of it")


def _edn(text: str) -> dict | None:
    """A flat EDN map: '{:tool :last-seen, :label "keys"}' (keywords as keys, a keyword or a scalar as each value)."""
    m = re.fullmatch(r"\s*\{(.*)\}\s*", text, re.S)
    if not m or not re.match(r"\s*:", m.group(1)):
        return None
    toks = re.findall(r'"(?:\\.|[^"\\])*"|[^\s,]+', m.group(1))
    if len(toks) % 2:
        return None
    out: dict = {}
    for k, v in zip(toks[::2], toks[1::2]):
        if not re.fullmatch(r":[A-Za-z_][\w.?!-]*", k) or _snake(k[1:]) in {_snake(x) for x in out}:
            return None
        out[k[1:]] = v[1:] if v.startswith(":") else _scalar(v)
    return out


def _xml(text: str):
    """XML: '<tempomem><relational_as_of relation="near" anchor="sofa" t="..."/></tempomem>', '<call tool="was_seen">
    <label>keys</label></call>': elements with attributes and leaf children; no entities or declarations (refused
    unread: no XML library, no expansion)."""
    prolog = _XML_PROLOG.match(text)
    text = text[prolog.end():] if prolog else text   # eighteenth round: '<?xml version="1.0"?>' declares, no more
    # twenty-third round: a CDATA section (WeChat's '<Content><![CDATA[did you see the mug today?]]></Content>') is its
    # text, when that holds no markup; one that does stays refused unread
    text = _CDATA.sub(lambda c: c.group(1), text)
    if not re.match(r"\s*<[A-Za-z_]", text) or "<!" in text or "<?" in text or "&" in text:
        return None
    nodes = []
    pos = 0
    # eighteenth round: a namespace's prefix ('soap:Envelope', 'tm:Missing') names no part of the call, and an
    # 'xmlns' attribute only declares one: both dropped (SOAP)
    elem = re.compile(r"\s*<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:\"[^\"<>]*\"|"
                      r"'[^'<>]*'))*)\s*(/?)>")
    stack: list = []
    while pos < len(text.rstrip()):
        m = elem.match(text, pos)
        if m:
            found = [(a, v) for a, v in re.findall(r"([A-Za-z_][\w.:-]*)\s*=\s*(\"[^\"]*\"|'[^']*')", m.group(2))
                     if a != "xmlns" and not a.startswith("xmlns:")]
            attrs = {a: v[1:-1] for a, v in found}
            if len(attrs) != len(found):   # '<current label="mug" label="keys"/>': which one is not said
                raise Malformed("the request gives a field twice")
            node = {"tag": m.group(1), "attrs": attrs, "kids": [], "text": ""}
            (stack[-1]["kids"] if stack else nodes).append(node)
            if not m.group(3):
                stack.append(node)
            pos = m.end()
            continue
        m = re.compile(r"\s*</(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)\s*>").match(text, pos)
        if m:
            if not stack or stack[-1]["tag"] != m.group(1):
                return None
            stack.pop()
            pos = m.end()
            continue
        m = re.compile(r"[^<>]+").match(text, pos)
        if m and stack and not stack[-1]["kids"]:
            stack[-1]["text"] += m.group(0)
            pos = m.end()
            continue
        return None
    if stack or len(nodes) != 1 or len(str(nodes)) > MAX_CHARS:
        return None

    if nodes[0]["tag"] == "methodCall":
        return _xmlrpc(nodes[0])

    def as_value(node):
        if not node["kids"] and not node["attrs"] and not node["text"].strip() and tool_name(node["tag"]):
            return Call(node["tag"], {})  # eighteenth round: '<tm:Missing/>', a call with no argument
        if node["kids"]:
            out = dict(node["attrs"])
            for kid in node["kids"]:
                if kid["tag"] in out:
                    raise Malformed("the request gives a field twice")
                out[kid["tag"]] = as_value(kid)
            return Call(node["tag"], out)
        if node["attrs"]:
            return Call(node["tag"], {**node["attrs"], **({"text": node["text"].strip()} if node["text"].strip()
                                                          else {})})
        return _scalar(node["text"].strip()) if node["text"].strip() else ""
    return as_value(nodes[0])


_CDATA = re.compile(r"<!\[CDATA\[([^<>&\]]*)\]\]>")
_XML_PROLOG = re.compile(r"\s*<\?xml(?:\s+[\w:-]+\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'))*\s*\?>")
_XMLRPC_SCALARS = {"string": str, "int": int, "i4": int, "double": float, "boolean": lambda t: t.strip() == "1"}


def _xmlrpc(call) -> Call:
    """Eighteenth round: an XML-RPC call ('<methodCall><methodName>tempomem.current</methodName><params><param><value>
    <struct><member><name>label</name><value><string>...'): the method is the call; one struct parameter its named
    arguments, none no argument; anything else is malformed (XML-RPC's positional parameters name no field)."""
    kids = {k["tag"]: k for k in call["kids"]}
    if set(kids) - {"methodName", "params"} or len(kids) != len(call["kids"]) or "methodName" not in kids:
        raise Malformed("an XML-RPC call holds its method's name and params only")

    def value(node):
        if len(node["kids"]) != 1:
            return node["text"].strip()  # a value with no type is a string
        kid = node["kids"][0]
        if kid["tag"] == "struct":
            out = {}
            for member in kid["kids"]:
                parts = {k["tag"]: k for k in member["kids"]}
                if member["tag"] != "member" or set(parts) != {"name", "value"} or parts["name"]["text"] in out:
                    raise Malformed("an XML-RPC struct's members must be named once each")
                out[parts["name"]["text"].strip()] = value(parts["value"])
            return out
        if kid["tag"] in _XMLRPC_SCALARS and not kid["kids"]:
            try:
                return _XMLRPC_SCALARS[kid["tag"]](kid["text"])
            except ValueError:
                raise Malformed("an XML-RPC value is not of its type") from None
        raise Malformed("an XML-RPC value of a type the tools do not take")
    params = [p for p in kids.get("params", {"kids": []})["kids"]]
    if any(p["tag"] != "param" or len(p["kids"]) != 1 or p["kids"][0]["tag"] != "value" for p in params):
        raise Malformed("an XML-RPC call's params must each hold one value")
    args = [value(p["kids"][0]) for p in params]
    if len(args) > 1 or args and not isinstance(args[0], dict):
        raise Malformed("an XML-RPC call's arguments must be one struct")
    return Call(kids["methodName"]["text"].strip(), args[0] if args else {})


def _csv(text: str) -> dict | None:
    """A CSV header and one row ('tool,label,relation,anchor' then 'is_related,remote,on,sofa'), parted by a line
    break or a written '\\n'."""
    rows = [r for r in re.split(r"\r?\n|\\n", text.strip()) if r.strip()]
    if len(rows) != 2:
        return None
    head, row = ([c.strip() for c in r.split(",")] for r in rows)
    if len(head) < 2 or len(head) != len(row) or not all(re.fullmatch(r"[A-Za-z_]\w*", h) for h in head):
        return None
    if not any(_snake(h) in NAME_KEYS for h in head) or len({_snake(h) for h in head}) != len(head):
        return None
    return {h: _scalar(v) for h, v in zip(head, row) if v}


# Seventeenth round: a Nix attribute set ('{ tool = "relational_before"; relation = "in"; anchor = "hall"; }'): each
# binding ends in ';'; read as the map it writes
# review of the seventeenth round: an unquoted value starts and ends with a character that is no space, so that the
# spaces around it are the '\s*'s' alone; '[^;...]+\s*' had split them two ways per binding and '{ a = b; ' * 20 +
# 'c = d' (147 characters) took 0.7 s, each binding more doubling it (exponential backtracking)
_NIX = re.compile(r"\s*\{\s*((?:[A-Za-z_][\w-]*\s*=\s*(?:\"[^\"]*\"|[^;\"{}\[\]\s](?:[^;\"{}\[\]]*[^;\"{}\[\]\s])?)\s*;"
                  r"\s*)+)\}\s*")
_NIX_BINDING = re.compile(r"([A-Za-z_][\w-]*)\s*=\s*(\"[^\"]*\"|[^;\"{}\[\]]+?)\s*;")


def _nix(text: str):
    m = _NIX.fullmatch(text)
    if not m:
        return None
    body = ", ".join(f"{k}: {v}" for k, v in _NIX_BINDING.findall(m.group(1)))
    try:
        v = _parse_whole("{" + body + "}")
    except _NotHere:
        return None
    return v if isinstance(v, dict) else None


def _hcl(text: str):
    """An HCL block: 'query "is_present" { label = "plant" }' (the quoted label of the block names the tool)."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s+\"([\w.-]{1,60})\"\s*\{(.*)\}\s*", text, re.S)
    if not m:
        return None
    body = re.sub(r"\s*\n\s*", ", ", m.group(3).strip())
    try:
        args = _parse_whole("{" + body + "}") if body else {}
    except _NotHere:
        return None
    return Call(m.group(2), args) if isinstance(args, dict) else None


def _rasa(payload):
    """A Rasa NLU parse ('{"intent": {"name": "ask_last_seen", ...}, "entities": [{"entity": "item", "value": ...}]}')
    or its shortcut '/intent{json}': the intent names the tool, each entity is an argument."""
    if not isinstance(payload, dict):
        return None
    keys = {_snake(k): k for k in payload}
    if "intent" not in keys or not set(keys) <= {"intent", "entities", "text", "intent_ranking", "response_selector"}:
        return None
    intent = payload[keys["intent"]]
    name = intent.get("name") if isinstance(intent, dict) else intent
    entities = payload.get(keys.get("entities", ""), [])
    if not isinstance(name, str) or not isinstance(entities, list):
        return None
    args: dict = {}
    for e in entities:
        if not isinstance(e, dict) or not isinstance(e.get("entity"), str) or "value" not in e or e["entity"] in args:
            raise Malformed("the intent's entities are not one value per field")
        args[e["entity"]] = e["value"]
    return Call(name, args)


_RASA_SHORTCUT = re.compile(r"\s*/([A-Za-z_][\w.-]*)\s*(\{.*\})?\s*\Z", re.S)
# Seventeenth round: a chat bot's command ('/lastseen@TempomemBot charger', Telegram's and Slack's shape): the command
# names the tool, the words after it are its one argument (the thing, as a question names it)
_BOT_COMMAND = re.compile(r"\s*/([A-Za-z_][\w-]*)(?:@\w+)?\s+([\w' -]{1,80}?)\s*\Z")
# Seventeenth round: a YAML map written on one line without its braces ('action: tempomem.where_to_look, data: {label:
# phone}', Home Assistant's service call): read as the map it is with them
_BARE_MAP = re.compile(r"\s*[A-Za-z_][\w.-]*\s*:\s+\S")


def _payloads(text: str):
    """Each payload the text may be, in order of how specific its shape is."""
    carried = _carried(text)
    if carried is not None and not isinstance(carried, str):
        yield carried
        return
    text = carried if isinstance(carried, str) else text
    m = _RASA_SHORTCUT.match(text)
    if m:
        args = _parse_whole(m.group(2)) if m.group(2) else {}
        yield Call(m.group(1), args if isinstance(args, dict) else {})
        return
    m = _BOT_COMMAND.match(text)
    if m and tool_name(m.group(1)):
        yield Call(m.group(1), {}, m.group(2))
        return
    # twenty-third round (lines.py): a published ROS message, a Redis write, an S-expression, blocks of lines
    for reader in (lines.topic_pub, lambda t: lines.redis(t, _ACTS), _edn, _xml, _csv, _hcl, _nix,
                   lambda t: lines.sexp(t, tool_name, dialects.transports), lines.block, lines.yaml_block):
        v = reader(text)
        if v is not None:
            yield v
            return
    try:
        v = _parse_whole(text)
    except _NotHere:
        v = None
    except Malformed:
        # eighteenth round: 'session.call_tool("is_present", {...})' has two unnamed arguments for the parser; the
        # dialect's rewrite reads the dispatch (dialects.py), else the text stays malformed
        v = _dialect(text)
        if v is None:
            raise
        yield v
        return
    if v is None and _BARE_MAP.match(text) and "{" not in text[:_BARE_MAP.match(text).end()]:
        try:
            v = _parse_whole("{" + text + "}")
        except _NotHere:
            v = None
        v = v if isinstance(v, dict) else None
    if isinstance(v, Call) and not tool_name(v.name) and dialects.transports(v.name) and \
            _last(v.name) not in DISPATCHERS | _TOOL_RUNS:
        # twenty-third round: 'app.send_task("tempomem.tasks.as_of", kwargs={...})' parses as a call of 'send_task';
        # the transport's rewrite (dialects._by_transport) reads the tool it names
        d = _dialect(text)
        if isinstance(d, Call) and tool_name(d.name):
            yield d
            return
    if v is not None:
        yield _rasa(v) or v
        return
    v = _chained(text)
    if v is not None:
        yield v
        return
    # eighteenth round: a call in another language's punctuation (dialects.py: PHP, Perl, R, Julia, Wolfram, MATLAB,
    # Dart, Rust, Go, a Java builder), rewritten into the parser's grammar and read as any other payload
    v = _dialect(text)
    if v is not None:
        yield v
        return
    v = _fields(text)
    if v is not None:
        yield v
        return
    v = lines.command_line(text, tool_name, dialects.transports, _ACTS)
    if v is not None:
        yield v


def _dialect(text: str):
    """The payload of a call in another language's punctuation (dialects.py), or None."""
    rewritten = dialects.rewrite(text, tool_name, _ACTS)
    if rewritten is None:
        return None
    try:
        return _parse_whole(rewritten)
    except _NotHere:
        return None


def _chained(text: str):
    """'dspy.Predict("question -> answer")(question="...")': a call of what a call returns; its last argument list is
    the call's."""
    m = re.match(r"\s*([A-Za-z_][\w.]*)\((?:[^()]|\([^()]*\))*\)(?=\()", text)
    if not m:
        return None
    try:
        v = _parse_whole(m.group(1) + text[m.end():])
    except _NotHere:
        return None
    return v if isinstance(v, Call) else None


# ----------------------------------------------------------------------------------------- the one call
def _meta(k, v) -> bool:
    """A key that only types or identifies a message ('"type": "response.function_call_arguments.done"', an id)."""
    key = _snake(k)
    if key in ("jsonrpc", "index") or key == "id" or key.endswith("_id") and key not in ("object_id", "anchor_id") \
            and isinstance(v, (str, int)):
        return True
    if envelope._meta_field(k, v):   # twenty-third round: SignalR's '"type": 1', '"tool_type": "function"'
        return True
    # eighteenth round: OpenAI's '"object": "chat.completion.chunk"' types its message as "type" does
    return key in ("type", "object") and isinstance(v, str) and bool(re.fullmatch(r"[\w-]+(?:[./:][\w-]+)+", v))


# Review of the fifteenth round: the walk went into any wrapper ('{"name": "navigate_to", "arguments": {"then":
# {"name": "current", ...}}}', 'print(robot.delete(mem.current(label="mug")))', '<delete><last_seen .../></delete>',
# '{"cancel": {...}}', '{"examples": [...]}') and answered the memory tool inside it, hiding the action or reading
# what was not asked. Now it goes only into what transports a call: a framework's object of this allow-list, a key
# of this allow-list; a call named outside the table that is none of these, or a tool call under any other key,
# refuses the whole request.
CARRIER_CALLS = frozenset((
    "tool_call_part", "call_part", "function_call", "tool_call", "tool_use", "tool_use_block", "event", "content",
    "part", "parts", "msg", "message", "ai_message", "block", "model_response", "response",
    "chat_completion_message_tool_call", "print", "log", "request", "call", "invoke", "tempomem", "tool", "tools",
    "memory", "mem",
    # eighteenth round: a behaviour tree's action node ('<Action ID="..." tool="relational" .../>', BehaviorTree.CPP),
    # a SOAP envelope, the OpenAI Agents SDK's run items ('ToolCallItem(raw_item=ResponseFunctionToolCall(...))')
    "action", "envelope", "body", "tool_call_item", "response_function_tool_call", "function_tool_call"))
CARRIER_KEYS = frozenset((
    "function", "function_call", "tool_call", "tool_calls", "tool_use", "call", "content", "parts", "part",
    "message", "messages", "choices", "choice", "delta", "output", "item", "payload", "request", "data", "body",
    "tempomem", "memory", "query", "tool", "calls", "invocation", "candidates", "candidate",
    # seventeenth round: OpenAI Assistants' run that waits for tool output ('"required_action": {"type":
    # "submit_tool_outputs", "submit_tool_outputs": {"tool_calls": [...]}}'); a Step Functions task's and FHIR's
    # parameters (shapes.py reads their platform fields)
    "required_action", "submit_tool_outputs", "parameters", "parameter",
    # eighteenth round: MCP's CallToolRequest carries its call in Params (Go's SDK client: loose._dispatched)
    "params",
    # the Agents SDK's raw item
    "raw_item",
    # twentieth round: an EventBridge event's detail, AutoGPT's command, Genkit's toolRequest
    "detail", "command", "tool_request",
    # twenty-third round: a reply's wrapper around what it carries (Genkit's '"toolCall": {"status": "success",
    # "value": {...}}', Workers AI's '{"result": {"response": null, "tool_calls": [...]}, "success": true}')
    "value", "result"))
# a call that only dispatches to the tool it is given by name (its first, unnamed argument)
DISPATCHERS = frozenset(("call", "invoke", "call_tool", "run_tool", "use_tool", "execute_tool"))
# a call that only passes its question on ('dspy.Predict("question -> answer")(question="...")'): its module's kind
PREDICTORS = frozenset("predict chain_of_thought react program_of_thought chat agent ask query llm model".split())
# a segment of a path or a dotted name before the tool's that writes or acts ('POST /api/forget/last_seen',
# 'purge.last_seen', 'delete.history'): refused, not read as the tool after it
_ACTS = frozenset(("forget delete remove purge clear erase reset drop wipe write update set put create add insert "
                   "edit modify move navigate go grasp pick place send cancel undo schedule admin kill stop "
                   "destroy rename merge import train").split())
ACTS = _ACTS  # commands.py: the head of a command in a batch


def _no_action_in_path(name) -> None:
    """Refuse a name whose path or dotted segments before the last include a word that writes or acts (_ACTS)."""
    if not isinstance(name, str):
        return
    segments = re.split(r"[/.:]+", name.strip().rstrip("/"))[:-1]
    for seg in segments:
        if set(_snake(seg).split("_")) & _ACTS:
            raise _Refused(f"'{name}' names an action or a write before the tool; the memory's tools only read")


def _last(name: str) -> str:
    return _snake(name.strip().rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[-1].lstrip(":"))


def _outside(name) -> _Refused:
    return _Refused(f"the request names '{name}', no tool of the memory's; read nothing of it")


def _holds_call(node, depth: int = 0) -> bool:
    """Whether a value holds anything shaped as a call (a Call, or a map with a name key)."""
    if depth > envelope.MAX_DEPTH:
        return True
    if isinstance(node, Call):
        return True
    if isinstance(node, list):
        return any(_holds_call(x, depth + 1) for x in node)
    if isinstance(node, dict):
        return any(_snake(k) in NAME_KEYS and isinstance(v, str) for k, v in node.items()) or \
            any(_holds_call(v, depth + 1) for v in node.values())
    return False


def _candidates(node, depth: int, out: list, budget: list) -> None:
    """Every call inside the payload whose name is in the table, with its arguments; _Refused for a call named
    outside the table or one under a key that does not transport calls (CARRIER_KEYS)."""
    budget[0] -= 1
    if depth > envelope.MAX_DEPTH or budget[0] < 0:
        raise Malformed("the request is nested too deeply")
    if isinstance(node, list):
        for x in node:
            _candidates(x, depth + 1, out, budget)
        return
    if isinstance(node, Call):
        if _last(node.name) in DISPATCHERS and isinstance(node.positional, str) and \
                tool_name(node.positional.lstrip(":")):
            # seventeenth round: a dispatcher given the tool's name ('Tempomem.call(:history, label: "phone")', Ruby's
            # symbol; 'client.call_tool("last_seen", label="mug")'): the call is the named tool's
            node = Call(node.positional.lstrip(":"), node.args)
        if (_last(node.name) in DISPATCHERS | _TOOL_RUNS or dialects.transports(node.name)) and \
                isinstance(node.positional, dict) and not node.args:
            # twenty-third round: any transport's call ('sock.send_json({"tool": "missing", ...})', Viam's
            # 'memory.do_command({"command": "relational_as_of", ...})'), as a dispatcher's
            held = _dispatched(node)
            if held is not None:
                _candidates(held, depth + 1, out, budget)
                return
        _no_action_in_path(node.name)
        if tool_name(node.name):
            args, pos = node.args, node.positional
            if isinstance(pos, dict) and not args:  # 'tools.wasSeen({ label: "phone" })': the map is the arguments
                args, pos = _options_held(pos), None
            if isinstance(pos, Call) and not args and _typed_request(pos, node.name):
                # eighteenth round: a typed request object ('countMoves(CountMovesRequest(label="backpack"))', Rust's
                # 'relational_as_of(RelationalAsOf { ... })'): its fields are the arguments
                args, pos = (pos.positional, None) if pos.positional is not None else (pos.args, None)
            out.append(Call(node.name, args, pos))
            return
        if set(map(_snake, node.args)) == {"question"} and node.positional is None:
            if _last(node.name) not in PREDICTORS:   # 'robot.Delete("x")(question="...")' (review, M5)
                raise _outside(node.name)
            out.append(Call("ask", dict(node.args)))  # 'dspy.Predict(...)(question="...")': it only passes a question
            return
        if _last(node.name) not in CARRIER_CALLS:
            raise _outside(node.name)
        if any(_snake(k) in NAME_KEYS and isinstance(v, str) for k, v in node.args.items()):
            _candidates(dict(node.args), depth, out, budget)  # '<call tool="was_seen">...': the call is the map
        else:
            _candidates_in(dict(node.args), depth, out, budget)
        if node.positional is not None:
            _candidates(node.positional, depth + 1, out, budget)
        return
    if not isinstance(node, dict):
        return
    rest = {k: v for k, v in node.items() if not _meta(k, v)}
    if rest.get("op") == "call_service" and isinstance(rest.get("service"), str):
        out.append(_rosbridge(rest))
        return
    method = next((v for k, v in rest.items() if _snake(k) == "method"), None)
    if isinstance(method, str) and _snake(method) == "sampling/create_message":
        out.append(_sampled(rest))
        return
    if isinstance(method, str) and "/" in method:
        # eighteenth round: a JSON-RPC request inside a carrier (an SSE event's data): envelope's reading of it
        out.append(envelope.call_of(rest, depth + 1))
        return
    rest = _named_by_value(rest)
    named = [(k, v) for k, v in rest.items() if _snake(k) in NAME_KEYS and isinstance(v, str)]
    if named:
        if len(named) != 1:
            raise Malformed("the request names more than one call")
        _no_action_in_path(named[0][1])
        if not tool_name(named[0][1]):
            raise _outside(named[0][1])
        out.append(envelope.call_of(rest, depth + 1))  # a call whose arguments fail is refused, never looked into
        return
    _candidates_in(rest, depth, out, budget)


# Twenty-third round: keys that name the call only when their value is a tool's name (SignalR's '"target":
# "Relational"', Viam's '"command": "relational_as_of"', a broker's '"routing_key": "tools.count_objects"'); elsewhere
# "target" is the thing ('{"tool": "locate", "target": "keys"}', operators.REQUEST_ARG_FIELDS) and "command" carries a
# call (AutoGPT's '"command": {"name": ...}'), as they were read before
_NAMING_BY_VALUE = frozenset(("command", "cmd", "target", "task", "endpoint", "route", "routing_key", "api_name"))


def _named_by_value(mapping: dict) -> dict:
    """The map with its one key of _NAMING_BY_VALUE whose value is a tool's name read as the call's name; the map
    itself when a key of NAME_KEYS names a call already, or no such key (or two) is there."""
    if any(_snake(k) in NAME_KEYS and isinstance(v, str) for k, v in mapping.items()):
        return mapping
    keys = [k for k, v in mapping.items() if _snake(k) in _NAMING_BY_VALUE and isinstance(v, str) and tool_name(v)]
    if len(keys) != 1:
        return mapping
    _no_action_in_path(mapping[keys[0]])
    return {("name" if k == keys[0] else k): v for k, v in mapping.items()}


def _options_held(args: dict) -> dict:
    """Twenty-third round: an HTTP client's options map ('{method: "post", contentType: "application/json", payload:
    {...}}', Apps Script's UrlFetchApp.fetch) holds the arguments under its body; its other keys are the transport's
    options (dialects.OPTIONS). A method that writes is refused as curl's is; any other map is the arguments."""
    keys = {_snake(k): k for k in args}
    held = [k for k in keys if k in ("payload", "body", "data", "json", "arguments")]  # shapes.py: payload -> arguments
    if len(held) != 1 or not isinstance(args[keys[held[0]]], dict) or set(keys) - set(held) - dialects.OPTIONS or \
            "method" not in keys and not set(keys) - set(held):
        return args
    method = args.get(keys.get("method", ""), "POST")
    if not isinstance(method, str) or method.upper() not in _READING_METHODS:
        raise _Refused(f"an HTTP {_shown_word(method)} would change the memory; its tools only read")
    return args[keys[held[0]]]


def _shown_word(v) -> str:
    return re.sub(r"[^\w]", "", str(v))[:12].upper() or "?"


# eighteenth round: a tool object's own run ('semantic_tool.invoke({...})', LangChain's; 'lastSeenTool.run(...)')
_TOOL_RUNS = frozenset(("invoke", "ainvoke", "run", "arun", "call"))


def _dispatched(node: Call):
    """The call a dispatcher's one map makes (eighteenth round): MCP clients' 'client.callTool({ name: "previous",
    arguments: {...} })' and Go's 'CallTool(ctx, CallToolRequest{Params: {Name: ..., Arguments: ...}})' (the map
    holds a name, or params holding one), or a tool object's run ('semantic_tool.invoke({"text": ...})': the
    receiver, less a 'tool' suffix, names the tool and the map is its arguments). None when it is neither."""
    held = _named_by_value(node.positional)
    keys = {_snake(k) for k in held}
    if keys & NAME_KEYS or keys == {"params"}:
        return held
    receiver = node.name.rsplit(".", 1)[0] if "." in node.name else ""
    base = _last(receiver)
    base = base[:-len("_tool")] if base.endswith("_tool") else base
    if receiver and base and tool_name(base):
        return Call(base, dict(held))
    return None


_REQUEST_TYPES = ("request", "params", "parameters", "args", "arguments", "input", "options", "query")


def _typed_request(obj: Call, tool: str) -> bool:
    """Whether a call's one argument is a typed object of its request: named for the same tool, or a request, params,
    args or input type ('CountMovesRequest'), holding either named fields or one map."""
    if obj.args and obj.positional is not None or not obj.args and not isinstance(obj.positional, dict):
        return False
    last = _last(obj.name)
    return tool_name(obj.name) == tool_name(tool) or any(last == t or last.endswith("_" + t) for t in _REQUEST_TYPES)


def _candidates_in(mapping: dict, depth: int, out: list, budget: list) -> None:
    """The calls under a map's keys: walked into under a key that transports a call, refused under any other."""
    for k, v in mapping.items():
        if not isinstance(v, (dict, list, Call)):
            continue
        # eighteenth round: a program of steps each of which is a call (TypeChat's '{"@steps": [{"@func": ...,
        # "@args": [...]}]}'; one step is one call, the one-call rule refuses more); a step that is prose ('then
        # delete everything', the fifteenth round's review) leaves it a key that carries no call
        program = _snake(k) == "steps" and isinstance(v, list) and all(
            isinstance(x, dict) and any(_snake(n) in NAME_KEYS for n in x) for x in v)
        # (an XML element is keyed by its tag)
        if _snake(k) in CARRIER_KEYS or program or isinstance(v, Call) and v.name == k:
            _candidates(v, depth + 1, out, budget)
        elif _holds_call(v):
            raise _Refused(f"a call under '{k}' is not one the request makes; read nothing of it")


# Sixteenth round: rosbridge's protocol calls a ROS service as '{"op": "call_service", "service": "/tempomem/
# temporal_query", "args": {...}}' (heldout18 b008; "call_service" was read as the tool and refused as an action). The
# call is the service's, its request the args; the protocol's own fields beside them carry no instruction.
_ROSBRIDGE_KEYS = frozenset(("op", "service", "args", "type", "fragment_size", "compression", "timeout"))


def _rosbridge(request: dict) -> Call:
    extra = set(request) - _ROSBRIDGE_KEYS
    if extra:
        raise _Refused("a rosbridge call holds more than its service and args (" + ", ".join(sorted(map(str, extra)))
                       + "); read nothing of it")
    service, args = request["service"], request.get("args", {})
    if not isinstance(args, dict):
        raise Malformed("a rosbridge call's args must be a map")
    _no_action_in_path(service)
    if not tool_name(service):
        raise _outside(service)
    return Call(service, args)


# MCP's sampling/createMessage params that carry no instruction of their own ('systemPrompt' does: refused)
_SAMPLING_PARAMS = frozenset(("messages", "maxTokens", "temperature", "modelPreferences", "stopSequences",
                              "includeContext", "metadata"))


def _sampled(request: dict) -> Call:
    """An MCP sampling request ('method': 'sampling/createMessage'): its one user message is the question."""
    if {_snake(k) for k in request} - {"method", "params"}:   # '"then": {"name": "forget"}' beside it (review, M3)
        raise _Refused("a sampling request holds more than its question; read nothing of it")
    params = next((v for k, v in request.items() if _snake(k) == "params"), None)
    if isinstance(params, dict) and set(params) - _SAMPLING_PARAMS:   # 'systemPrompt': an instruction of its own
        raise _Refused("a sampling request holds more than its question (" + ", ".join(
            sorted(map(str, set(params) - _SAMPLING_PARAMS))) + "); read nothing of it")
    messages = params.get("messages") if isinstance(params, dict) else None
    if not isinstance(messages, list) or len(messages) != 1 or not isinstance(messages[0], dict):
        raise Malformed("a sampling request must hold one message, the question")
    content = messages[0].get("content")
    text = content.get("text") if isinstance(content, dict) else content
    if messages[0].get("role") != "user" or not isinstance(text, str):
        raise Malformed("a sampling request's message must be the user's text")
    return Call("ask", {"question": text})


def read(text, now: float | None, names: Names) -> envelope.Reading | str | None:
    """The reading of a tool call in a looser shape (module doc); a str (why it is refused) for one this reader
    recognises and must refuse; None when the text holds no such call."""
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    out = _read(text, now, names)
    if not isinstance(out, envelope.Reading):
        # twenty-third round: line breaks written as '\n', a written record separator at the end (lines.unescaped):
        # read again with them made real where the text as sent read as no call; a refusal of the text as sent stands
        # unless the text so read is a call (which passes the same walk, router and validator)
        again = lines.unescaped(text)
        read_again = _read(again, now, names) if again is not None else None
        if isinstance(read_again, envelope.Reading) or out is None:
            out = read_again
    if not isinstance(out, envelope.Reading):
        hosted = _hosted(lines.unescaped(text) or text, now, names)  # stop 48: a host around the call (lines.hosted)
        out = hosted if hosted is not None else out
    return out


def _hosted(text: str, now, names: Names) -> envelope.Reading | None:
    """The one call a host carries (lines.hosted) or a statement of code holds (_calls_in_code), read as any request;
    None when none, two, or a word outside the text's strings acts ('forget', 'delete', ... : the walk's ACTS)."""
    bare = _OUTPUT.sub(" ", _ASSIGNED.sub(" ", text))  # 'set x =', 'Put_Line (': code's own words, no act
    said = [w for tok in re.findall(r"[A-Za-z_][\w-]*", lines._QUOTED.sub(" ", bare)) if not tool_name(tok)
            for w in lines._words(tok)]  # a tool's own name ('did_move') is no act
    if set(said) & _ACTS:
        return None
    in_code = _calls_in_code(text) if not set(said) & _NEGATED else []
    readings = {}
    for inner in [*lines.hosted(text), *in_code]:
        got = _read(inner, now, names)
        if isinstance(got, envelope.Reading):
            readings[(got.operator, repr(sorted(got.args.items())))] = got
    return next(iter(readings.values())) if len(readings) == 1 else None


# Stop 51 (heldout31, read as a development set: 45 of its 100 refusals by the rules were the memory's own calls in
# code of some language, no host above took them): a statement of code that holds one call of the memory's own,
# 'SELECT tempomem_count_objects('cup') FROM memory;  -- HiveQL UDF', 'IF TEMPOMEM_DID_MOVE("jacket") THEN ... END',
# '<%= tempomem.isMissing({ label: "headphones" }) %>', 'res := Tempomem.RelationalBefore("on", "desk");  (* Oberon *)':
# the call, its parentheses matched, is read as a request (one rule for every language: SQL's SELECT, a template's
# tags, a comment after the statement, an assignment, an output statement around it). Only a name that says the
# product ('tempomem.x', 'TEMPOMEM_X', 'tempomemHistory', 'TTempomem.Current': a bare 'count(*)' of SQL is no call of
# ours), never a definition ('def current(label):'), and a parameter's name in a comment before a value ('/* t_ago_s */
# 5400.0') made the argument's name (an unnamed second argument is refused, never guessed); any other comment inside
# the call, or a negation outside its strings ('do not call ...'), reads nothing. _hosted's rules hold: exactly one
# reading, no word of acting outside strings.
# Stop 52 (heldout32: VRL's 'tempomem_relational_as_of!(relation: "on", ...)', Maple's 'tempomem:-CountObjects("lamp")',
# Carbon's 'Tempomem.WasSeen("wallet", .since = 1768471200)'): a macro's "!" before the parentheses, Maple's ":-"
# between module and member, and a designated argument's leading "." ('.since = ...', Swift's and C's initialisers)
# are each language's spelling of the same call; read as the call, every rule above the same.
# Stop 53 (heldout33's G006, G013: Luau's 'local spot = Tempomem:Current({label = "phone"})  -- Luau', ActionScript's
# 'var before:Object = tempomem.previous({label: "mug"});  // ActionScript 3'): Lua's method call ':' between object
# and method is the language's spelling of the call, and the variable a declaration names ('var before', 'local
# spot', with its type) is a name of code, no word of time said beside the call.
_CODE_CALL = re.compile(r"(?<![\w$@\\.:#>-])[$@]?([A-Za-z_]\w*(?:(?:\.|::|:-|:|\\|#|->)[A-Za-z_]\w*)*)\s*!?\s*\(")
_SEPARATORS = re.compile(r"::|:-|:|\\|#|->")
_VARIABLE = re.compile(r"\b(?:var|let|const|local|val|auto|my|dim|final)\s+[A-Za-z_]\w*(?:\s*:\s*[A-Za-z_][\w.]*)?"
                       r"\s*(?==(?!=)|:=)")
_DESIGNATED = re.compile(r"(^|,)\s*\.(?=[A-Za-z_]\w*\s*=(?!=))")
_DEFINED = re.compile(r"\b(?:def|function|func|fn|procedure|sub|method|macro|defun|defn|class|interface|"
                      r"create (?:or replace )?function)\s+\Z", re.I)
_PARAM_COMMENT = re.compile(r"/\*\s*([A-Za-z_]\w{0,30})\s*\*/\s*(?=[-\d.\"'])")
_INNER_COMMENT = re.compile(r"/\*|\*/|\(\*|\*\)|<!--|//|--|#\s")
_LITERAL_WORD = re.compile(r"true|false|null|none|nil|True|False|None|NULL|TRUE|FALSE")
_A_KEY = re.compile(r"\s*(?:=>|:=|=(?!=)|:(?!:))")
_NEGATED = frozenset("not never don dont instead without".split())
_ASSIGNED = re.compile(r"(?:<#assign|#set\s*\(|\{%-?\s*set|\bset:?)\s*[$@]?[A-Za-z_]\w*\s*(?:=|:=|\bto\b)", re.I)
_OUTPUT = re.compile(r"\b(?:put_line|putstrln|showmessage|msgbox|writeln|println|printf|print|puts|echo|"
                     r"console\.log|say|display)\s*\(", re.I)


def _calls_in_code(text: str) -> list[str]:
    """The memory's own calls a statement of code holds (above), each as a call's text; [] when none."""
    out = []
    for m in _CODE_CALL.finditer(text):
        name = m.group(1)
        if "tempomem" not in name.lower() or tool_name(_SEPARATORS.sub(".", name)) is None:
            continue
        if _DEFINED.search(text[:m.start()]) or not _shown_by(text[:m.start()]):
            continue
        depth, j, quote = 0, m.end() - 1, ""
        while j < len(text):
            c = text[j]
            if quote:
                quote = "" if c == quote and text[j - 1] != "\\" else quote
            elif c in "\"'":
                quote = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if depth:
            continue
        args = _DESIGNATED.sub(r"\1 ", _PARAM_COMMENT.sub(lambda c: c.group(1) + "=", text[m.end():j]))
        bare = lines._QUOTED.sub(" 0 ", args)
        if _INNER_COMMENT.search(bare) or any(
                not _LITERAL_WORD.fullmatch(w.group(0)) and not _A_KEY.match(bare, w.end())
                for w in re.finditer(r"[A-Za-z_]\w*", bare)):
            continue  # a comment inside, or a value that is a variable or a type ('previous(String)', '(label)')
        outside = lines._QUOTED.sub(" ", _VARIABLE.sub(" ", text[:m.start()]) + " " + text[j + 1:]).lower()
        if _TIME_OUTSIDE.search(outside) or _times_in(outside):
            continue  # '-- since this morning' after the call: a time the call's arguments leave out
        out.append(_SEPARATORS.sub(".", name) + "(" + args + ")")
    return out


# A call inside another call is read only when that one shows or holds its value ('print(...)', 'Put_Line (...)', DAX's
# 'ROW ("n", ...)'): 'robot.fetch(tempomem.current("mug"))' asks the robot to act on the answer, never read.
_SHOWING = frozenset("print println printf puts echo display show showmessage put_line putstrln writeln msgbox alert "
                     "log row summarize str string format tostring stringify dump inspect repr pp p debug trace "
                     "text value eval".split()) | frozenset(  # keywords before a '(' that groups
    "if when where and or in from select return then else case while elif exists #set".split())


def _shown_by(before: str) -> bool:
    """Whether every call left open before a call (its '(' not closed) shows or holds its value (_SHOWING); a '('
    with no name before it groups ('IF (', 'FROM (')."""
    depth = 0
    for k in range(len(before) - 1, -1, -1):
        c = before[k]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth:
                depth -= 1
                continue
            name = re.search(r"(#?[A-Za-z_][\w.]*)\s*\Z", before[:k])  # Velocity's '#set(' assigns
            if name and name.group(1).rsplit(".", 1)[-1].lower() not in _SHOWING:
                return False
    return True


_TIME_OUTSIDE = re.compile(r"\b(?:since|until|till|before|after|ago|between|during|today|yesterday|tonight|morning|"
                           r"afternoon|evening|night|noon|midnight|hours?|minutes?|mins?|days?|weeks?)\b")


def _times_in(text: str) -> bool:
    try:
        return bool(timeexpr.extract(" ".join(re.findall(r"[a-z0-9:]+", text)), None)[1])
    except Exception:  # a time it cannot read is a time all the same
        return True


def _read(text: str, now, names: Names) -> envelope.Reading | str | None:
    try:
        for payload in _payloads(text):
            said = lines.message_text(payload)
            if said is not None:   # a chat platform's message event: its text is the question (lines.py)
                return envelope._route(Call("ask", {"question": said}), "message", now, names)
            found: list = []
            _candidates(shapes.reshape(payload), 0, found, [MAX_NODES])
            if not found and isinstance(payload, Call):
                found = [payload]  # '/find_by_meaning{...}': a name outside the table, read by its words or refused
            if len(found) != 1:
                return None
            call = found[0]
            return envelope._route(Call(tool_name(call.name) or call.name, call.args, call.positional), "request",
                                   now, names)
    except _Refused as exc:
        return str(exc)
    except (Malformed, ToolError, _NotHere):
        return None
    return None
