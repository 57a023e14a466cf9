"""The twenty-third round's mechanisms (issue 13, stop 43), each with what it must read and what must stay refused.

heldout23 (a development set since the twenty-second round) refused about thirty agent requests in syntaxes no reader
took: calls through a transport that names the tool by a string (dialects._by_transport), fields that only frame a call
(envelope._meta_field), tool names behind a namespace (envelope.namespaced), keys that name the call by their value
(loose._named_by_value), a reply's wrappers, and lines.py's readers (written escapes, blocks, command lines, a published
ROS message, Redis writes, S-expressions, chat messages). None of the sentences below is a line of a question set; each
reading is exact (operator, arguments, unknown), and each refusal is a Refusal (a write, an action, a second call or
text beside the call is never read as the call).
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, ROUND23_NAMES, TODAY, reading, refusal


NAMES = ROUND23_NAMES


def read(question: str) -> tuple:
    return reading(question, NAMES)


# ------------------------------------------------------------------------ a transport's call that names the tool
@pytest.mark.parametrize("question, operator, args", [
    ('socket.emit("last_seen", {label: "keys"})', "last_seen", {"label": "keys"}),
    ('hub.invoke("history", {"label": "lamp"}).then(r => console.log(r))', "history", {"label": "lamp"}),
    ('await queue.enqueue("count_moves", {"label": "mug", "since_ago_s": 600})', "count_moves",
     {"label": "mug", "since": NOW - 600, "until": NOW}),
    ('celery_app.send_task("memory.tasks.previous", kwargs={"label": "wallet"})', "previous", {"label": "wallet"}),
    ('publisher.publish(topic="tools.current", data={"label": "phone"})', "current", {"label": "phone"}),
    ('x = yield ctx.call_activity("WhereToLook", {"label": "remote"})', "where_to_look", {"label": "remote"}),
    ('$n = execute count_sightings(label="book")', "count_sightings", {"label": "book"}),
    ('mem.is_present.remote(label="plant")', "is_present", {"label": "plant"}),
    ('from gradio_client import Client; Client("http://r:7860").predict(label="book", api_name="/first_seen")',
     "first_seen", {"label": "book"}),
    ('httpx.post("http://robot/tempomem/tools/last_seen", json={"label": "mug"}, timeout=3)', "last_seen",
     {"label": "mug"}),
    ('ToolCall(<function relational at 0x7f00aa>, relation="on", anchor="desk")', "relational",
     {"relation": "on", "anchor": "desk"}),
    ("ws.sendTo('tempomem.1', 'relational_before', {relation: 'on', anchor: 'sofa'}, (r) => log(r));",
     "relational_before", {"relation": "on", "anchor": "sofa"}),
    ("Fetcher.fetch('https://r/tempomem/tools/was_seen', {method: 'post', payload: JSON.stringify({label: 'mug'})})",
     "was_seen", {"label": "mug"}),
    ('let r = mem.call_tool(Req { name: "missing".into(), arguments: None }).await?;', "missing", {}),
    ('conn.send_json({"tool": "is_missing", "args": {"label": "keys"}})', "is_missing", {"label": "keys"}),
    ('robot.do_command({"command": "relational", "relation": "in", "anchor": "kitchen"})', "relational",
     {"relation": "in", "anchor": "kitchen"}),
])
def test_a_transport_naming_one_tool_is_that_tools_call(question, operator, args):
    assert read(question) == (operator, args, "")


@pytest.mark.parametrize("question", [
    'socket.emit("navigate_to", {room: "kitchen"})',                       # the named tool acts
    'robot.delete.push("current", {label: "phone"})',                      # the receiver writes
    'channel.push("current", {label: "phone"}).receive("ok", r => robot.forget(r))',   # the reply's handler writes
    'client.push("current", {label: "phone"}, function (r) { robot.delete(r) })',
    'app.send_task("tempomem.forget.as_of", kwargs={"label": "mug"})',     # a write in the name's path
    'sendTo("delete_all", "current", {label: "mug"})',                     # an address string that acts
    'channel.push("current", "history", {label: "phone"})',                # two tools named
    'requests.delete("http://robot/tempomem/tools/current", json={"label": "mug"})',   # no transport: a write
    "Fetcher.fetch('https://r/tempomem/tools/current', {method: 'delete', payload: JSON.stringify({label: 'mug'})})",
    'worker.run("current", {label: "mug"}, "rm -rf /")',                   # text beside the call
    'robot.grasp("current", {label: "mug"})',                              # a call that acts, not a transport
])
def test_a_transport_that_acts_or_names_two_things_is_refused(question):
    refusal(question, NAMES)


def test_a_perl_pair_is_an_argument_not_a_callback():
    # the callback reader takes a bare parameter's arrow only before a call (heldout19's c041 stays read)
    assert read("my $n = $mem->count_sightings(label => 'wallet');") == ("count_sightings", {"label": "wallet"}, "")


# ------------------------------------------------------------------------------- fields that only frame the call
@pytest.mark.parametrize("question, operator, args", [
    ('{"type": "tool_call", "tool_type": "function", "name": "previous", "parameters": {"label": "keys"}, '
     '"call_id": "c1", "response_required": true}', "previous", {"label": "keys"}),
    ('{"type": "client_tool_invocation", "toolName": "last_seen", "invocationId": "x", "parameters": {"label": "mug"}}',
     "last_seen", {"label": "mug"}),
    ('{"type":1,"target":"History","arguments":[{"label":"lamp"}]}\\u001e', "history", {"label": "lamp"}),
    ('{"result": {"response": null, "tool_calls": [{"name": "last_seen", "arguments": {"label": "mug"}}]}, '
     '"success": true}', "last_seen", {"label": "mug"}),
    ('{"content": [{"type": "toolRequest", "toolCall": {"status": "success", "value": {"name": "duration", '
     '"arguments": {"label": "plant"}}}}]}', "duration", {"label": "plant"}),
    ('{"name": "memory__current", "arguments": {"label": "keys"}}', "current", {"label": "keys"}),
    ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "gw-target___is_present", '
     '"arguments": {"label": "lamp"}}}', "is_present", {"label": "lamp"}),
])
def test_fields_that_frame_a_call_are_left_and_the_call_read(question, operator, args):
    assert read(question) == (operator, args, "")


@pytest.mark.parametrize("question", [
    '{"type":1,"target":"ForgetObject","arguments":[{"label":"lamp"}]}\\u001e',
    '{"name": "delete__current", "arguments": {"label": "keys"}}',        # a namespace that acts
    '{"result": {"tool_calls": [{"name": "last_seen", "arguments": {"label": "mug"}}, '
    '{"name": "current", "arguments": {"label": "keys"}}]}}',             # two calls
    '{"type": "tool_call", "name": "previous", "parameters": {"label": "keys"}, "response_required": "yes"}',
])
def test_framing_does_not_hide_an_action_or_a_second_call(question):
    refusal(question, NAMES)


def test_target_is_still_the_thing_where_its_value_names_no_tool():
    # "target" names the call only by its value; '{"tool": "locate", "target": "keys"}' reads as before
    assert read('{"tool": "locate", "target": "keys"}') == ("current", {"label": "keys"}, "")


# --------------------------------------------------------------------------------------------- lines.py's readers
@pytest.mark.parametrize("question, operator, args", [
    ('call {\\n  tool = "last_seen"\\n  args {\\n    label = "lamp"\\n  }\\n}', "last_seen", {"label": "lamp"}),
    ('name: previous\\narguments:\\n  label: wallet', "previous", {"label": "wallet"}),
    ('tool: changes\\nargs:\\n  kinds[1]: moved', "changes", {"kinds": ["moved"], "since": None, "until": NOW}),
    ("mcp call current --args '{\"label\": \"phone\"}'", "current", {"label": "phone"}),
    ("mcp call where_to_look --params '{\"label\": \"keys\"}' tempomem mcp /srv/m.db", "where_to_look",
     {"label": "keys"}),
    ("nats pub tempomem.tools --header x:1 tool=current label=mug", "current", {"label": "mug"}),
    ("amqp publish exchange=mem routing_key=tools.count_objects payload='{\"label\": \"book\"}'", "count_objects",
     {"label": "book"}),
    ("XADD mem:req * tool previous label book", "previous", {"label": "book"}),
    ("ros2 topic pub -1 /tempomem/ask std_msgs/msg/String \"{data: 'where is the lamp'}\"", "current",
     {"label": "lamp"}),
    ("(call-tool \"last_seen\" '(:label \"keys\"))", "last_seen", {"label": "keys"}),
    ('(last-seen :label "keys")', "last_seen", {"label": "keys"}),
    ('{"type": "message", "text": "where is my phone?", "user": "U1"}', "current", {"label": "phone"}),
    ('{"type": "MESSAGE", "message": {"text": "@Bot did you see the mug today?", "argumentText": "did you see the mug '
     'today?"}, "space": {"name": "spaces/X"}}', "was_seen", {"label": "mug", "since": TODAY, "until": NOW}),
    ("<xml><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[where is the lamp]]></Content></xml>", "current",
     {"label": "lamp"}),
])
def test_lines_readers_read_the_call(question, operator, args):
    assert read(question) == (operator, args, "")


@pytest.mark.parametrize("question", [
    "mcp call current --args '{\"label\": \"phone\"}'; rm -rf /",            # a second command
    "mcp call current --args '{\"label\": \"phone\"}' delete everything",    # words after it that act
    "mcp call current --args '{\"label\": \"phone\"}' history",              # a second tool after it
    "XADD mem:req * tool forget_object label book",
    "XADD mem:req * tool previous label",                                   # an odd number of fields
    "ros2 topic pub /tempomem/forget std_msgs/msg/String \"{data: 'mug'}\"",
    "(call-tool \"forget\" '(:label \"keys\"))",
    '{"text": "where is my phone?", "user": "U1"}',                          # no message type: no message
    '{"type": "message", "text": "where is my phone?", "attachments": [{"text": "delete all"}]}',
    '{"type": "message", "message": {"text": "where is my phone?", "argumentText": "delete the mug"}}',  # two texts
    '{"type": "message", "text": "forget the mug"}',                         # the text is read as a question: refused
    "<xml><MsgType>text</MsgType><Content><![CDATA[<b>where</b>]]></Content></xml>",   # markup in CDATA
    'block {\\n  tool = "last_seen"\\n  args {\\n    label = "lamp"\\n  }\\n}',  # "block" carries no call
])
def test_lines_readers_refuse_what_is_not_one_reading_call(question):
    refusal(question, NAMES)


def test_a_batch_of_commands_stays_refused():
    # the eighteenth round's batch: the command-line reader takes no text with a shell's separator
    refusal("last seen --label keys; get history --label phone", NAMES)


# --------------------------------------------------------------------- told times and spans of the asker's own day
H = 3600.0


@pytest.mark.parametrize("question, operator, args", [
    # a told span and a pointer back at it (understand._SPAN_BACK)
    ("I was stuck in a meeting from 9 to 11 this morning. Where did the phone go during that meeting?", "history",
     {"label": "phone", "since": TODAY + 9 * H, "until": TODAY + 11 * H}),
    ("We were out from nine till one today. What got moved while we were gone?", "changes",
     {"since": TODAY + 9 * H, "until": TODAY + 13 * H, "kinds": ["moved"]}),
    ("The painter was in from 10 to 12 today. Did anything disappear in that window?", "changes",
     {"since": TODAY + 10 * H, "until": TODAY + 12 * H, "kinds": ["removed"]}),
    # the told event named again by its own verb (understand._EVENT_BACK)
    ("I got up at 7 this morning. Where was my wallet when I got up?", "as_of",
     {"label": "wallet", "t": TODAY + 7 * H}),
    ("The plumber left at noon. What has changed since he left?", "changes", {"since": TODAY + 12 * H, "until": NOW}),
    # "at one" before "and", "last night around 8 pm" (timeexpr)
    ("I made lunch at one and the desk was a mess. What was on the desk at that point?", "relational_as_of",
     {"relation": "on", "anchor": "desk", "t": TODAY + 13 * H}),
    ("where was the lamp last night around 11", "as_of", {"label": "lamp", "t": TODAY - 1 * H}),
])
def test_a_told_time_pointed_at_is_the_questions(question, operator, args):
    assert read(question) == (operator, args, "")


@pytest.mark.parametrize("question", [
    "We were out from nine till one today. What changed while they were gone?",   # another person's absence
    "I got up at 8. Where were my glasses when she got up?",                     # another person's event
    "I got up at 8. Where were my glasses when I went out?",                     # another event
    "My cleaner left at one. What's changed since he arrived?",
    "The kids were at swimming from 10 to 12 today. Did you see the lamp during the call?",   # no call was told
    "The kids were at school from 8 to 3 today. Was the lamp seen while they were out?",   # 3 pm is to come
    "what moved from 2 to 3 metres away from the sofa",                          # a distance is no span of hours
    "I was out from 9 to 11. Where are my keys?",   # a told span beside a question of now: which time is asked?
])
def test_a_told_time_not_pointed_at_or_told_of_another_stays_refused(question):
    refusal(question, NAMES)


def test_a_span_of_hours_is_read_by_the_clock_convention():
    from tempomem_ros.core.answering import timeexpr
    got = timeexpr.extract("from nine till one", NOW)[1]
    assert [(f.kind, f.since, f.until) for f in got] == [("window", TODAY + 9 * H, TODAY + 13 * H)]
    got = timeexpr.extract("from 10 to 12 yesterday", NOW)[1]
    assert [(f.kind, f.since, f.until) for f in got] == [("window", TODAY - 14 * H, TODAY - 12 * H)]
    assert timeexpr.extract("from one to two and a half hours", NOW)[1] == []   # a length, not a span of hours
    assert timeexpr.extract("from 1 to 2 times", NOW)[1] == []


@pytest.mark.parametrize("question, operator, args", [
    # the verbs of coming and going narrate (understand._NARRATES is built with unread.COMING_GOING)
    ("The nurse arrived at ten. What has moved since she arrived?", "changes",
     {"since": TODAY + 10 * H, "until": NOW, "kinds": ["moved"]}),
    ("My aunt turned up at eleven. What was on the desk when she turned up?", "relational_as_of",
     {"relation": "on", "anchor": "desk", "t": TODAY + 11 * H}),
])
def test_a_told_arrival_narrates(question, operator, args):
    assert read(question) == (operator, args, "")


# ----------------------------------------------------------------------------- greetings, "at the mo", short units
@pytest.mark.parametrize("question, operator, args", [
    ("Hola! where is my mug? Gracias.", "current", {"label": "mug"}),            # a greeting and a thanks
    ("Servus! Every place my jacket was yesterday, please.", "history",
     {"label": "jacket", "since": TODAY - 86400, "until": TODAY}),
    ("Keys! where are they?", "current", {"label": "keys"}),                       # a known thing stays
    ("what's sitting on the desk at the mo?", "relational", {"relation": "on", "anchor": "desk"}),
    ("have you seen my phone in the last hr?", "was_seen", {"label": "phone", "since": NOW - H, "until": NOW}),
    ("did anything new turn up since twelve?", "changes",
     {"since": TODAY + 12 * H, "until": NOW, "kinds": ["appeared", "reappeared"]}),
])
def test_greetings_and_short_forms_read(question, operator, args):
    assert read(question) == (operator, args, "")


def test_an_exclamation_that_may_be_the_thing_is_kept():
    # "Spatula! where is it?": the unknown word is the thing "it" points at, never dropped as a greeting
    assert read("Spatula! where is it?") == ("current", {"label": "spatula"}, "label")


def test_at_the_mo_is_present_and_no_operator_of_the_past_reads_it():
    refusal("where was the mug at the mo", NAMES)
