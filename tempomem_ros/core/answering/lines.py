"""Agent requests written as lines rather than one expression: escapes written out, blocks, command lines, S-expressions
and chat messages (loose.py's readers of last resort; twenty-third round).

Why (heldout23, read as a development set): agents and their platforms send the same tool call as
- a text whose line breaks are written as escapes ('call {\\n  name = "first_seen"\\n  arguments {...}\\n}', a
  protobuf text or HCL block; 'tool: changes\\nargs:\\n  since: ...\\n  kinds[2]: appeared,reappeared', a YAML block
  with TOON's counted list) or that ends in a written record separator (SignalR's '...}\\u001e');
- a command line: 'mcp call where_to_look --params \'{"label": ...}\' tempomem mcp /data/memory.db', 'rabbitmqadmin
  publish exchange=tempomem routing_key=tools.count_objects payload=\'{...}\'', 'ros2 topic pub --once /tempomem/ask
  std_msgs/msg/String "{data: \'...\'}"', Redis' 'XADD tempomem:requests * tool last_seen label headphones';
- an S-expression: '(tempomem-call-tool "spatial" \'(:anchor "sofa" :radius 1.5))';
- a chat platform's message event whose one text is the question (Google Chat's '{"type": "MESSAGE", "message":
  {"text": "@TempoBot is the laptop on the desk?", ...}}', Twilio's '{"type": "prompt", "voicePrompt": "..."}', a
  WeChat XML message with MsgType text and its Content).
Each is one syntax class read into the maps and calls envelope's parser writes (never one platform's name); the call
then goes through loose.py's walk (one call named in the table, carriers on the allow-list, writes refused) and
envelope's router and validator; a message's text is read again as a question (the Query tool's "ask"). A word that
acts in what a reader leaves out (a command line's trailing words, an address) refuses the reading. Pure and
deterministic.
"""

from __future__ import annotations

import re
import shlex

from .envelope import Call, Malformed, _NotHere, _Parser, _parse_whole, _snake

MAX_LINES = 40
_QUOTED = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'")
# written escapes outside strings: a line break, and control characters that end a message (SignalR's record
# separator \u001e, a NUL) at the text's end
_WRITTEN_BREAK = re.compile(r"\\r\\n|\\n")
_WRITTEN_END = re.compile(r"(?:\\u00[01][0-9a-fA-F]|\\x[01][0-9a-fA-F]|\\0)+\s*\Z")


def unescaped(text: str) -> str | None:
    """The text with line breaks written as '\\n' outside its strings made real, and a written control character at
    its end dropped; None when it has neither (or real line breaks already)."""
    if "\n" in text:
        return None
    held: list[str] = []

    def keep(m):
        held.append(m.group(0))
        return f"\x00{len(held) - 1}\x00"
    masked = _QUOTED.sub(keep, text)
    if "\x00" in text:
        return None
    out = _WRITTEN_END.sub("", _WRITTEN_BREAK.sub("\n", masked))
    if out == masked:
        return None
    return re.sub(r"\x00(\d+)\x00", lambda m: held[int(m.group(1))], out).strip()


# ----------------------------------------------------------------------------------------------------- blocks
_BLOCK_OPEN = re.compile(r"([A-Za-z_][\w.-]*)\s*\{\Z")
_BLOCK_FIELD = re.compile(r"([A-Za-z_][\w.-]*)\s*(?:=|:)\s*(\S.*)\Z")


def block(text: str):
    """A block of lines with braces (protobuf text format, HCL without labels): 'call {', 'name = "first_seen"',
    'arguments {', 'label = "jacket"', '}', '}' read as the map it writes; None when it is not one."""
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    if not 2 <= len(lines) <= MAX_LINES or not any(ln.endswith("{") for ln in lines):
        return None
    body = []
    for ln in lines:
        m = _BLOCK_OPEN.fullmatch(ln)
        f = _BLOCK_FIELD.fullmatch(ln)
        if m:
            body.append(f"{m.group(1)}: {{")
        elif ln == "}":
            body.append("},")
        elif f and not f.group(2).endswith("{"):
            body.append(f"{f.group(1)}: {f.group(2).rstrip(',')},")
        else:
            return None
    try:
        v = _parse_whole("{" + " ".join(body) + "}")
    except _NotHere:
        return None
    return v if isinstance(v, dict) else None


_YAML_LINE = re.compile(r"([A-Za-z_][\w.-]*)(?:\[(\d{1,2})\])?\s*:(?:\s+(\S.*?))?\s*\Z")


def yaml_block(text: str):
    """Lines of 'key: value' nested by indentation (a YAML block map), a list counted as TOON writes it ('kinds[2]:
    appeared,reappeared'); None when any line is something else."""
    lines = [ln.rstrip() for ln in text.split("\n") if ln.strip()]
    if not 2 <= len(lines) <= MAX_LINES:
        return None
    root: dict = {}
    stack: list = [(-1, root)]
    for ln in lines:
        indent = len(ln) - len(ln.lstrip(" "))
        m = _YAML_LINE.fullmatch(ln.strip())
        if m is None or "\t" in ln[:indent]:
            return None
        while indent <= stack[-1][0]:
            stack.pop()
        parent = stack[-1][1]
        key, count, value = m.groups()
        if key in parent:
            raise Malformed("the request gives a field twice")
        if value is None:
            if count is not None:
                return None
            parent[key] = {}
            stack.append((indent, parent[key]))
        elif count is not None:
            items = [x.strip() for x in value.split(",")]
            if len(items) != int(count):
                raise Malformed("a counted list holds another number of items")
            parent[key] = [_scalar(x) for x in items]
        else:
            parent[key] = _scalar(value)
    return root


def _scalar(value: str):
    try:
        return _parse_whole(value) if value[:1] in "{[" else _Parser(value).scalar("")
    except (_NotHere, Malformed):
        return value


# ---------------------------------------------------------------------------------------------- command lines
# the options of a transport's command line that say where a message goes or how, not what it asks
CLI_OPTIONS = frozenset("exchange vhost host port server url properties content_type timeout format output qos once "
                        "header headers keep_alive rate times wait_matching_subscriptions node".split())
_ARGS_FLAGS = frozenset("params parameters args arguments input json data payload body message_body message".split())
_NAME_FLAGS = frozenset("tool name routing_key method function fn topic".split())
# Twenty-fourth round (heldout24: adb's 'am broadcast -a org.tempomem.TOOL --es tool duration --es label plant',
# 'dapr invoke --app-id tempomem --method did_move --data ...', 'aws sqs send-message --queue-url
# .../tempomem-is_missing --message-body ...', 'aws sns publish --topic-arn arn:...:tempomem-missing --message ...'),
# by the form of a field:
# - a typed extra (Android's '--es KEY VALUE', '--ei', '--ef', '--ez', '--el', '--eu'): the pair after it is a field;
# - an address whose last segment (after '/' or ':') names a tool ('--queue-url', '--topic-arn', '--url', '--queue')
#   names the call, as a topic does;
# - a field that only addresses the memory (an '*_id' or 'app' key, or a value whose words are only the memory's and
#   a package's: 'org.tempomem.TOOL', 'tempomem') is left out, as the transport's options are;
# - the command's words before the fields may name the service that carries the call (a shell, Android's activity
#   manager, a queue service), as words that send do.
_TYPED_EXTRA = re.compile(r"--e[sizflu]")
_ADDRESS_FLAGS = frozenset("queue_url queue topic_arn topic_url url endpoint_url arn".split())
_ADDRESS_WORDS = frozenset("tempomem tool tools org com net io api memory robot local app".split())
_CARRIER_WORDS = frozenset("shell am sqs sns sb servicebus eventbridge pubsub kafka mqtt".split())


def _address_tool(value, tool_name):
    """The tool an address's last segment names ('https://.../tempomem-is_missing', 'arn:...:tempomem-missing')."""
    if not isinstance(value, str) or len(value) > 200:
        return None
    last = re.split(r"[/:]", value.rstrip("/"))[-1]
    return tool_name(last) and last


def _only_addresses(key: str, value) -> bool:
    if key.endswith("_id") or key == "app":
        return isinstance(value, str) and bool(re.fullmatch(r"[\w.:/-]{1,80}", value))
    return isinstance(value, str) and bool(_words(value)) and set(_words(value)) <= _ADDRESS_WORDS


def command_line(text: str, tool_name, transports, acts: frozenset):
    """A command line that sends a tool call: a program, words that send or call (``transports``), the tool's name
    as a word or as a field's value ('routing_key=tools.count_objects'), its arguments as a JSON field ('--params
    \'{...}\'', 'payload=\'{...}\'') or as fields ('--label remote'), the transport's options (CLI_OPTIONS) and, after
    the fields, the words of a server's command ('tempomem mcp /data/memory.db'). A Call, or None."""
    if "\n" in text or not re.match(r"\s*[A-Za-z][\w.-]*\s", text) or re.search(r"[;|&`$<>]", _QUOTED.sub("", text)):
        return None   # a shell's separators, pipes, substitutions and redirections: more than one command
    try:
        toks = shlex.split(text)
    except ValueError:
        return None
    if len(toks) < 3 or len(toks) > 24:
        return None
    program, i, lead = toks[0], 1, []
    while i < len(toks) and re.fullmatch(r"[A-Za-z_][\w./:-]*", toks[i]) and "=" not in toks[i]:
        lead.append(toks[i])
        i += 1
    fields: dict = {}
    while i < len(toks):
        t = toks[i]
        m = re.fullmatch(r"(?:--?)?([A-Za-z_][\w-]*)=(.*)", t, re.S)
        if _TYPED_EXTRA.fullmatch(t) and i + 2 < len(toks) and re.fullmatch(r"[A-Za-z_][\w-]*", toks[i + 1]):
            key, value, i = toks[i + 1], toks[i + 2], i + 3
        elif m:
            key, value, i = m.group(1), m.group(2), i + 1
        elif re.fullmatch(r"--?[A-Za-z][\w-]*", t):
            if i + 1 < len(toks) and not toks[i + 1].startswith("-"):
                key, value, i = t.lstrip("-"), toks[i + 1], i + 2
            else:
                key, value, i = t.lstrip("-"), True, i + 1
        else:
            break
        if _snake(key) in {_snake(k) for k in fields}:
            raise Malformed("the request gives a field twice")
        fields[key] = value
    trailing = toks[i:]
    if not fields or any(t.startswith("-") or tool_name(t) for t in trailing):
        return None   # the words after the fields are a server's command, never a second call or more options
    named = [w for w in lead if tool_name(w)]
    named += [v for k, v in fields.items() if _snake(k) in _NAME_FLAGS and isinstance(v, str) and tool_name(v)]
    addressed = {k: _address_tool(v, tool_name) for k, v in fields.items() if _snake(k) in _ADDRESS_FLAGS}
    named += [v for v in addressed.values() if v]
    if len(named) != 1:
        return None
    others = [w for w in lead if not tool_name(w)]
    if not all(transports(w) or set(_words(w)) <= _CARRIER_WORDS | {"send", "message", "publish", "broadcast"}
               for w in others):
        return None
    args, left = {}, list(trailing) + [program, named[0]]
    for k, v in fields.items():
        key = _snake(k)
        if isinstance(v, str) and v == named[0] and key in _NAME_FLAGS or addressed.get(k):
            continue
        if key not in _ARGS_FLAGS and key not in _NAME_FLAGS and _only_addresses(key, v):
            left.append(str(v))
            continue
        if key in _ARGS_FLAGS:
            held = _scalar(v) if isinstance(v, str) else v
            if not isinstance(held, dict) or args:
                return None
            args = {**held, **args}
        elif key in CLI_OPTIONS:
            left.append(str(v))
        elif isinstance(v, bool):
            return None
        else:
            if k in args:
                raise Malformed("the request gives a field twice")
            args[k] = _scalar(v)
    for piece in left:
        if set(_words(re.sub(r"[\w-]+\Z", "", piece) if piece == named[0] else piece)) & acts:
            return None
    return Call(named[0], args)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text).lower())


# 'ros2 topic pub [options] TOPIC TYPE MESSAGE': a message published to a topic of the memory's
_TOPIC_PUB = re.compile(r"\s*ros2\s+topic\s+pub\s+(.*)\Z", re.S)


def topic_pub(text: str):
    """The call a 'ros2 topic pub' makes: the topic names the tool; a std_msgs String's one field 'data' is its one
    unnamed argument (a question, for /tempomem/ask), any other message its fields. None when it is no such line."""
    m = _TOPIC_PUB.match(text)
    if not m:
        return None
    try:
        toks = shlex.split(m.group(1))
    except ValueError:
        return None
    rest = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in ("--once", "-1", "--keep-alive", "--wait-matching-subscriptions"):
            i += 1
        elif t in ("-r", "--rate", "-t", "--times", "-w", "--qos-profile", "--qos-depth", "--qos-reliability",
                   "--qos-durability", "--node-name", "-n", "--keep-alive-time"):
            i += 2
        elif t.startswith("-"):
            return None
        else:
            rest.append(t)
            i += 1
    if len(rest) != 3:
        return None
    topic, type_, payload = rest
    try:
        msg = _parse_whole(payload)
    except _NotHere:
        raise Malformed("the message is not a readable map of its fields") from None
    if not isinstance(msg, dict):
        raise Malformed("the message is not a map of its fields")
    if type_.rsplit("/", 1)[-1] == "String" and set(msg) == {"data"} and isinstance(msg["data"], str):
        return Call(topic, {}, msg["data"])
    return Call(topic, msg)


# Redis' stream and hash writes carry a request as field-value pairs after the key (and a stream entry's id)
_REDIS = re.compile(r"\s*(XADD|HSET|HMSET)\s+(\S+)\s+(.*)\Z", re.S | re.I)


def redis(text: str, acts: frozenset):
    """'XADD tempomem:requests * tool last_seen label headphones': the pairs as a map; None when it is not one."""
    m = _REDIS.match(text)
    if not m:
        return None
    try:
        toks = shlex.split(m.group(3))
    except ValueError:
        return None
    if m.group(1).upper() == "XADD":
        if toks and toks[0].upper() == "MAXLEN":
            return None
        if not toks or not re.fullmatch(r"\*|\d+(?:-\d+)?", toks[0]):
            return None
        toks = toks[1:]
    if not toks or len(toks) % 2 or set(_words(m.group(2))) & acts:
        return None
    out: dict = {}
    for k, v in zip(toks[::2], toks[1::2]):
        if not re.fullmatch(r"[A-Za-z_][\w-]*", k) or _snake(k) in {_snake(x) for x in out}:
            return None
        out[k] = _scalar(v)
    return out


# ---------------------------------------------------------------------------------------------- S-expressions
_SEXP_TOKEN = re.compile(r"\s*(?:(\()|(\))|(\"(?:\\.|[^\"\\])*\")|('|`)|([^\s()\"'`]+))")


def sexp(text: str, tool_name, transports):
    """'(tempomem-call-tool "spatial" \'(:anchor "sofa" :radius 1.5))', '(last-seen :label "keys")': a form whose head
    names the tool, or only calls and is given the tool's name; a property list (':key value ...') is the arguments.
    A Call, or None."""
    if not text.lstrip().startswith("(") or "\n" in text:
        return None
    pos, stack, top = 0, [[]], None
    s = text.strip()
    while pos < len(s):
        m = _SEXP_TOKEN.match(s, pos)
        if not m or m.end() == pos:
            return None
        pos = m.end()
        if m.group(1):
            stack.append([])
            if len(stack) > 6:
                return None
        elif m.group(2):
            if len(stack) < 2:
                return None
            done = stack.pop()
            stack[-1].append(done)
        elif m.group(3):
            try:
                stack[-1].append(_parse_whole("[" + m.group(3) + "]")[0])
            except (_NotHere, Malformed):
                return None
        elif m.group(4):
            continue   # a quote before a list: the list as data
        else:
            stack[-1].append(_atom(m.group(5)))
    if len(stack) != 1 or len(stack[0]) != 1 or not isinstance(stack[0][0], list):
        return None
    top = stack[0][0]
    if not top or not isinstance(top[0], _Symbol):
        return None
    head, rest = str(top[0]), top[1:]
    if tool_name(head):
        args = _plist(rest)
        return Call(head, args) if args is not None else None
    if not transports(head.replace("-", "_")) or not rest or not isinstance(rest[0], (str, _Symbol)):
        return None
    name = str(rest[0]).lstrip(":")
    if not tool_name(name):
        return None
    args = _plist(rest[1][0:] if len(rest) == 2 and isinstance(rest[1], list) else rest[1:])
    return Call(name, args) if args is not None else None


class _Symbol(str):
    """A bare word of an S-expression (a name, a keyword), as against a string."""


def _atom(word: str):
    v = _Parser(word).scalar("")
    return _Symbol(word) if isinstance(v, str) else v


def _plist(items: list) -> dict | None:
    """':key value :key value' as a map; None when the items are not such pairs."""
    if len(items) % 2:
        return None
    out: dict = {}
    for k, v in zip(items[::2], items[1::2]):
        if not isinstance(k, _Symbol) or not k.startswith(":") or len(k) < 2 or isinstance(v, list):
            return None
        key = k[1:].replace("-", "_")
        if key in out:
            raise Malformed("the request gives a field twice")
        out[key] = str(v) if isinstance(v, _Symbol) else v
    return out


# ---------------------------------------------------------------------------------------------- chat messages
# what says a map is a chat message ('"type": "MESSAGE"', Twilio's '"type": "prompt"', WeChat's MsgType text)
_MESSAGE_TYPES = frozenset(("message", "text", "prompt", "chat", "utterance", "user_message", "chat_message"))
_TYPE_KEYS = frozenset(("type", "msg_type", "message_type", "event_type", "kind", "event"))
# Twenty-fourth round (heldout24 refused three chat envelopes and a transcript): what else says a map is something said
# to the memory, by its form: a key that names a message holding a map (Signal's '"dataMessage": {"message": ...}',
# any '*_message' / 'message' / 'msg' key), a speech recogniser's fields beside the text (Whisper's '{"text": ...,
# "language": "en", "duration": 2.6}': a transcript), and a text that opens with an @mention of the bot (Zulip's
# '"data": "@**tempo** is the wallet ..."', Slack's '<@U123>'), which only a message carries
_TRANSCRIPT_KEYS = frozenset(("language", "lang", "locale", "duration", "confidence", "is_final", "segments",
                              "no_speech_prob", "avg_logprob", "speech_final"))
_MENTION_FIRST = re.compile(r"^\s*(?:@\*\*[^*]{1,40}\*\*|<@[\w.-]{1,40}>|@[\w.-]{1,40})[,:]?\s+\S")
# the keys of a message that hold what the user said ('argumentText' is the text less the bot's @mention)
TEXT_KEYS = frozenset(("text", "argument_text", "voice_prompt", "prompt", "content", "message", "body", "utterance",
                       "transcript", "msg"))
_MENTION = re.compile(r"^\s*(?:(?:@\*\*[^*]{1,40}\*\*|<@[\w.-]{1,40}>|@[\w.-]+)[,:]?\s*)+")


def message_text(payload, depth: int = 0) -> str | None:
    """The question a chat platform's message event carries (above): the one text its text keys hold (the same text,
    less a leading @mention, where it is given twice), in a map typed as a message; None otherwise. Fields that are
    no text (a language, a flag, a sender's or a space's name) carry no instruction and are left."""
    if depth > 3:
        return None
    if isinstance(payload, Call):
        payload = payload.args
    if not isinstance(payload, dict):
        return None
    typed = any(_snake(k) in _TYPE_KEYS and isinstance(v, str) and _snake(v) in _MESSAGE_TYPES
                for k, v in payload.items())
    typed = typed or any(_snake(k).split("_")[-1] in ("message", "msg") and isinstance(v, dict)
                         for k, v in payload.items())
    typed = typed or (any(_snake(k) in _TRANSCRIPT_KEYS for k in payload)  # a transcript: nothing but its fields
                      and all(_snake(k) in _TRANSCRIPT_KEYS | TEXT_KEYS for k in payload)
                      and any(_snake(k) in TEXT_KEYS and isinstance(v, str) for k, v in payload.items()))
    mentioned = [v for v in payload.values() if isinstance(v, str) and _MENTION_FIRST.match(v)]
    if not typed and len(mentioned) == 1:
        said = " ".join(_MENTION.sub("", mentioned[0]).split())
        return said or None
    if not typed:
        nested = [v for v in payload.values() if isinstance(v, dict)]
        return message_text(nested[0], depth + 1) if len(nested) == 1 and len(payload) <= 4 else None
    texts = _texts(payload, 0)
    if texts is None:
        return None
    said = {" ".join(_MENTION.sub("", t).split()) for t in texts}
    said.discard("")
    return said.pop() if len(said) == 1 else None


def _texts(node, depth: int) -> list[str] | None:
    """Every string under a text key, through nested maps; None where a text key holds anything but a string or a
    map (a list of parts, a call)."""
    if depth > 3:
        return None
    out: list[str] = []
    for k, v in node.items():
        key = _snake(k)
        if isinstance(v, Call):
            return None
        if key in TEXT_KEYS and isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            inner = _texts(v, depth + 1)
            if inner is None:
                return None
            out += inner
        elif isinstance(v, list):
            return None
    return out


__all__ = ["block", "command_line", "message_text", "redis", "sexp", "topic_pub", "unescaped", "yaml_block"]


# ------------------------------------------------------------------------------------------------------ hosts
# Stop 48 (heldout28, read as a development set: 35 of its 109 refusals by the rules were agent requests in code, each
# in a host no reader took): the same call the readers above read, carried by a host that adds no instruction:
# - a host's name said before it ('zsh: ...', 'R: ...', 'Travis CI: script: ...', 'Swagger UI, Try it out: GET ...'):
#   one to five words closed by ':' or '->' (HOST_LABEL);
# - a prompt before a command ('% ', '$ ', '> ', '>>> ', 'PS C:\> ', 'C:\> ', 'R> ', 'q) '): PROMPT;
# - a block of lines (a CI file, a task runner's YAML) whose one line holds the call: the line, without its list
#   marker ('- ') or its key ('command: ...'); the other lines may hold only keys and plain values;
# - an argument vector, the program the memory's own ('["tempomem", "is_present", "--label", "lamp"]', a Dockerfile's
#   CMD, a Compose file's command, a build tool's run_command('tempomem', ...)): read as the command line it spells.
# Each yields the text it carries; loose.read reads each as a request and keeps a reading only where exactly one call
# is read from them all and no word of the text outside its strings acts (loose._hosted, the walk's ACTS); an
# argument vector only as the text's one statement (_alone).
HOST_LABEL = re.compile(r"\s*[A-Za-z][\w.+#/()-]{0,30}(?:[ ,]{1,2}[A-Za-z+][\w.+#/()-]{0,30}){0,4}\s*(?::|->|=>)\s+"
                        r"(?=\S)")
PROMPT = re.compile(r"\s*(?:PS [^>\s]{1,40}>|[A-Za-z]:\\[^>\s]{0,40}>|[A-Za-z][\w-]{0,20}>|>>>|[%$#>]|[a-z]{1,4}\))"
                    r"\s+(?=\S)")
_LIST_MARK = re.compile(r"\s*-\s+(?=\S)")
_KEY_FIRST = re.compile(r"\s*[A-Za-z_][\w.-]*\s*:\s+(?=\S)")
_KEY_ONLY = re.compile(r"\s*(?:-\s+)?[A-Za-z_][\w.-]*\s*:\s*(?:[\w.-]+)?\s*\Z")
_STRING = r"(?:\"[^\"\n\\]{0,200}\"|'[^'\n\\]{0,200}')"
_ARGV = re.compile(rf"[\[(]\s*({_STRING}(?:\s*,\s*{_STRING}){{2,23}})\s*,?\s*[\])]")
_OWN_PROGRAM = re.compile(r"tempomem(?:[-_.](?:cli|exe|agent))?\Z", re.I)
_SPAN = re.compile(r"\s*(?:[A-Z][\w-]{1,20} ){0,2}span(?: name)?\s*[:=]?\s*[\"']tempomem[._/]([a-z_]+)[\"']\s*,?\s*"
                   r"(?:tags?|attributes|attrs)\s*:?\s+([^\n]{1,300})\Z", re.I)
_QUOTED_COMMAND = re.compile(r"[`\"']((?:tempomem|TempoMem)(?:[-_.](?:cli|exe|agent))? [a-z_]+"
                             r"(?: [^`\"'\n]{0,200})?)[`\"']")


def hosted(text: str) -> list[str]:
    """The texts a host carries (above), outermost first; [] when the text has no host."""
    out: list[str] = []
    rest = text
    m = HOST_LABEL.match(rest)
    if m:
        rest = rest[m.end():]
        out.append(rest)
    m = PROMPT.match(rest)
    if m:
        rest = rest[m.end():]
        out.append(rest)
    if "\n" in rest:
        held = [ln for ln in rest.split("\n") if ln.strip()]
        calls = [ln for ln in held if not _KEY_ONLY.match(ln)]
        if len(held) <= MAX_LINES and len(calls) == 1:
            line = calls[0]
            m = _LIST_MARK.match(line)
            line = line[m.end():] if m else line
            m = _KEY_FIRST.match(line)
            out += [line] + ([line[m.end():]] if m else [])
    # stop 53 (heldout33's G040, G117, G140: 'Jaeger span "tempomem.count_objects", tag label=book', 'Zipkin span name
    # "tempomem.relational_before", tags relation=on anchor="coffee table"', 'OpenTelemetry span "tempomem.changes",
    # attributes: kinds=["moved"], since_ago_s=1800'): a tracing span named after one of the memory's tools, its tags
    # or attributes the call's named arguments: read as the tool's name and those fields
    m = _SPAN.match(text)
    if m:
        out.append(f"{m.group(1)} {m.group(2)}")
    # stop 53 (heldout33's G063, G079: Telegraf's 'commands = ["tempomem duration --label bowl"]', Tasker's 'Run
    # Shell `tempomem did_move --label charger`'): the memory's own command line quoted whole, in backticks or a
    # string, the text's one such; read as the command line it quotes
    quoted = list(_QUOTED_COMMAND.finditer(text))
    if len(quoted) == 1 and _quoted_alone(text, quoted[0]):
        out.append(quoted[0].group(1))
    vectors = list(_ARGV.finditer(text))
    if len(vectors) == 1 and _alone(text, vectors[0]):
        argv = [s[1:-1] for s in re.findall(_STRING, vectors[0].group(1))]
        if _OWN_PROGRAM.match(argv[0]):
            out.append(" ".join(shlex.quote(a) for a in argv))
    return out


_ANY_QUOTED = re.compile(r"`[^`\n]{0,240}`|\"[^\"\n]{0,240}\"|'[^'\n]{0,240}'")
_PLAIN_TITLE = re.compile(r"[A-Za-z][\w ]{0,40}\Z")  # a task's or a host's name in quotes ("Charger check")
_ANOTHER_STATEMENT = re.compile(r"[;|&]|(?:^|\s)-{1,2}\w|\b(?:then|and|also|after|before|next|afterwards)\b", re.I)


def _quoted_alone(text: str, command) -> bool:
    """Whether a quoted command line of the memory's (_QUOTED_COMMAND) is the text's one statement: every other quoted
    text a plain name ("Charger check"), no separator, option or word of sequence outside the quotes ("run `tempomem
    did_move ...` then `rm -rf /`" holds two)."""
    others = [m.group(0)[1:-1] for m in _ANY_QUOTED.finditer(text) if m.start() != command.start()]
    outside = _ANY_QUOTED.sub(" ", text)
    return all(_PLAIN_TITLE.match(o) for o in others) and not _ANOTHER_STATEMENT.search(outside)


# A second statement beside an argument vector: a separator outside strings, or another line that is no bare key.
_SEPARATOR = re.compile(r";|&&|\|")


def _alone(text: str, vector) -> bool:
    """Whether an argument vector is the text's one statement: no second vector (hosted's caller sees one), no
    separator outside its strings, every other line a bare key ('cmd:') after the host's name. Why: the walk's ACTS
    are read outside strings only, and a vector's words are strings: review of stop 48 found "subprocess.run([
    'tempomem', 'current', '--label', 'keys']); subprocess.run(['rm', '-rf', '/data'])" and "...; subprocess.run([
    'tempomem', 'forget', ...])" read as the one call (the other vector's program is not the memory's, or it reads no
    call, so one reading was left)."""
    before, after = text[:vector.start()], text[vector.end():]
    label = HOST_LABEL.match(before)  # the host's own name, before its first key ('Docker Compose: services:')
    before = before[label.end():] if label else before
    outside = _QUOTED.sub(" ", before + " " + after)
    if _SEPARATOR.search(outside):
        return False
    others = before.split("\n")[:-1] + after.split("\n")[1:]
    return all(not ln.strip() or _KEY_ONLY.match(ln) for ln in others)
