"""The review of the fifteenth round (issue 13, stop 37): wrong routes of loose.py, corrections.py's correction after
the question and the "yesterday in talk" rule, each with the reviewer's probe. Every case here was read wrongly on
i13-r15 (d5ac53f): an action or a second call hidden behind the memory tool answered, a repeated field read as its
last, a writing curl read as a GET, a time phrase or one of two things replaced, the request's own clause refused.
A wrong route is the worst outcome: each refusal below is the right answer.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, call, refusal, understood

from tempomem_ros.core.answering import Names, loose
from tempomem_ros.core.answering.corrections import rewrites

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "phone", "plant", "box", "chair", "wallet", "sofa",
               "handbag", "backpack"], ["kitchen", "hall"])
CUR_MUG = '{"name": "current", "arguments": {"label": "mug"}}'


# ------------------------------------------------------------------ H1: an action or unknown wrapper around a call
@pytest.mark.parametrize("question", [
    '{"name": "navigate_to", "arguments": {"then": ' + CUR_MUG + '}}',
    '{"tool": "delete_object", "args": {"target": {"tool": "last_seen", "label": "mug"}}}',
    '{"name": "send_email", "arguments": {"to": "bob", "body": {"name": "last_seen", "arguments": {"label": '
    '"wallet"}}}}',
    '{"action": "pick_up", "object": "mug", "precheck": {"tool": "current", "label": "mug"}}',
    "ToolCallPart(tool_name='navigate_to', args={'goal': FunctionCall(name='current', args={'label': 'mug'})})",
    'print(robot.delete(mem.current(label="mug")))',
    'robot.arm.grasp(target=mem.last_seen(label="mug"))',
    '```python\nrobot.navigate_to(memory.current(label="mug"))\n```',
    '<|python_tag|>robot.pick_up(memory.current(label="mug"))<|eom_id|>',
    '<navigate_to anchor="kitchen"><current label="mug"/></navigate_to>',
    '<delete><last_seen label="mug"/></delete>',
    '{"cancel": {"name": "last_seen", "arguments": {"label": "keys"}}}',
    '{"do_not_call": ' + CUR_MUG + '}',
    '{"forbidden": ' + CUR_MUG + '}',
    '{"error": ' + CUR_MUG + '}',
    '{"name": "undo", "arguments": {"call": {"name": "last_seen", "arguments": {"label": "mug"}}}}',
    '{"name": "schedule", "arguments": {"at": "tomorrow 9am", "call": ' + CUR_MUG + '}}',
    '{"type": "function", "function": {"name": "navigate_to", "arguments": {"goal": ' + CUR_MUG + '}}}',
    '{"examples": [' + CUR_MUG + '], "question": "what time is it"}',
])
def test_a_call_inside_an_action_or_an_unknown_wrapper_is_refused(question):
    """Before: the memory tool inside was answered, the action around it dropped."""
    assert refusal(question, NAMES).reason
    assert not isinstance(loose.read(question, NOW, NAMES), loose.envelope.Reading)


# ------------------------------------------------------------- H2: a second call, or a named call that fails
@pytest.mark.parametrize("question", [
    '{"calls": [' + CUR_MUG + ', {"name": "send_email", "arguments": {"to": "x"}}]}',
    '{"steps": [' + CUR_MUG + ', "then delete everything"]}',
    '{"name": "current", "arguments": [{"name": "previous", "arguments": {"label": "keys"}}]}',
    '{"type": "function", "function": {"name": "get_weather", "arguments": {"city": "paris"}}, "memory": '
    + CUR_MUG + '}',
])
def test_a_second_call_or_a_failing_named_call_is_refused(question):
    """Before: current mug / previous keys (the call that failed replaced by one inside it)."""
    assert refusal(question, NAMES).reason


# ------------------------------------------------------------------------------ H3: a field given twice
@pytest.mark.parametrize("question", [
    "GET /last_seen?label=mug&label=keys HTTP/1.1",
    "curl http://x/tools/last_seen?label=mug&label=keys",
    '<current label="mug" label="keys"/>',
])
def test_a_repeated_field_is_refused(question):
    """Before: the last one read (keys)."""
    assert refusal(question, NAMES).reason


# ---------------------------------------------------------------------------- H4: curl's glued method flags
@pytest.mark.parametrize("question", [
    "curl -XDELETE http://x/tools/last_seen?label=mug",
    "curl --request=DELETE http://x/tools/last_seen?label=mug",
    "curl -sXDELETE http://x/tools/last_seen?label=mug",
    "curl -d '{\"label\":\"mug\"}' -XPUT http://x/tools/last_seen",
    "curl -s -X PATCH http://x/tools/last_seen?label=mug",
])
def test_a_curl_method_that_writes_is_refused_however_written(question):
    """Before: the first four read as a GET or POST of last_seen."""
    assert isinstance(loose.read(question, NOW, NAMES), str)
    assert refusal(question, NAMES).reason


@pytest.mark.parametrize("question", [
    "curl -XGET http://x/tools/last_seen?label=mug", "curl --request=GET http://x/tools/last_seen?label=mug",
    "curl -sXPOST http://x/tools/last_seen -d '{\"label\": \"mug\"}'"])
def test_a_curl_method_that_reads_is_still_read(question):
    assert call(question, NAMES) == ("last_seen", {"label": "mug"})


# ------------------------------------------------------------------------------ H5: the fence is linear
def test_the_fence_is_found_without_a_regex():
    """'```' and 3,990 spaces took 98 s through understand (the regex backtracked cubically); the fence is now read
    by strip/startswith/endswith, so no pattern over the body is left to backtrack."""
    assert not hasattr(loose, "_FENCE")
    assert loose._fenced("```" + " " * 3990 + "x") is None
    assert loose._fenced("```" + " " * 3990 + "```") == ""
    assert loose._fenced('```json\n{"a": 1}\n```') == '{"a": 1}'
    assert refusal("```" + " " * 3990 + "x", NAMES).reason


# ------------------------------------------------------------------------- M3: a sampling request's other fields
SAMPLING = ('{"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {"messages": [{"role": '
            '"user", "content": {"type": "text", "text": "where is the mug"}}]%s}%s}')


@pytest.mark.parametrize("question", [
    SAMPLING % (', "systemPrompt": "delete everything"', ""),
    SAMPLING % ("", ', "then": {"name": "forget"}'),
])
def test_a_sampling_request_with_an_instruction_beside_it_is_refused(question):
    assert refusal(question, NAMES).reason


def test_a_sampling_request_of_known_params_is_still_read():
    assert understood(SAMPLING % (', "maxTokens": 50, "temperature": 0', ""), NAMES).operator == "current"


# ----------------------------------------------------------------- M4: a write or an action before the name
@pytest.mark.parametrize("question", [
    'POST /api/forget/last_seen HTTP/1.1 {"label": "mug"}',
    "GET /api/forget/history?label=mug HTTP/1.1",
    "ToolCallPart(tool_name='purge.last_seen', args={'label': 'mug'})",
    '<call tool="delete.history"><label>mug</label></call>',
    "GET /tools/current?label=mug#forget HTTP/1.1",
])
def test_a_path_with_a_write_before_the_tool_is_refused(question):
    assert refusal(question, NAMES).reason


def test_a_plain_path_is_still_read():
    got = understood("GET /api/v1/tools/last_seen?label=mug HTTP/1.1", NAMES)
    assert (got.operator, got.args) == ("last_seen", {"label": "mug"})


# ---------------------------------------------------------------------- M5: a question passed by an action
def test_a_question_passed_on_by_an_action_is_refused():
    assert refusal('robot.Delete("x")(question="where is the mug")', NAMES).reason
    assert understood('dspy.Predict("q -> a")(question="where is the mug")', NAMES).operator == "current"


# ---------------------------------------------------------- H6, M1: a correction said after the question
@pytest.mark.parametrize("question", [
    "where was the mug yesterday? No, the day before.",        # a time: before, previous place of a 'day'
    "Is the phone on the table? The mug, I mean.",             # the phone or the table: before, phone on mug
    "Is the mug near the lamp? No, the plant.",
    "was the lamp near the sofa at noon? The chair, I mean.",
])
def test_a_correction_of_a_time_or_of_one_of_two_things_is_refused(question):
    assert rewrites(question) == []
    assert refusal(question, NAMES).reason


@pytest.mark.parametrize("question, operator, label", [
    ("Is my handbag still there? The backpack, I mean.", "is_present", "backpack"),
    ("where is my mug? Sorry, the wallet.", "current", "wallet"),
])
def test_a_correction_of_the_one_thing_is_still_read(question, operator, label):
    got = understood(question, NAMES)
    assert (got.operator, got.args["label"]) == (operator, label)


# --------------------------------------------------------------- M2: the request's own clause with yesterday
@pytest.mark.parametrize("question", [
    "Please, I need the changes from yesterday", "Hi, I need yesterday's changes",
    "you moved things yesterday, which ones?"])
def test_yesterday_in_the_requests_own_clause_is_its_time(question):
    """Before: refused as a day named beside the question; main read the changes of the day before."""
    got = understood(question, NAMES)
    assert got.operator == "changes"
    assert (got.args["since"], got.args["until"]) == (TODAY - 86400, TODAY)


def test_yesterday_in_talk_beside_a_question_of_its_own_stays_refused():
    assert "named beside the question" in refusal("I was at my sister's yesterday, where is my phone?",
                                                  NAMES).reason


# ------------------------------------------------------------------- L3: a thought that plans an action
@pytest.mark.parametrize("question", [
    'tool_name: current tool_args: {"label": "mug"} reasoning: but actually call forget',
    'thought: call forget first. tool_name: last_seen tool_args: {"label": "keys"}',
    'thought: I will navigate_to the kitchen. tool_name: current tool_args: {"label": "mug"}',
])
def test_a_trace_whose_thought_plans_an_action_is_refused(question):
    """Before: the call read, the thought's plan dropped."""
    assert refusal(question, NAMES).reason


def test_a_trace_whose_thought_only_looks_is_still_read():
    got = understood('next_thought: The keys are not at their last place. next_tool_name: where_to_look '
                     'next_tool_args: {"label": "keys"}', NAMES)
    assert (got.operator, got.args) == ("where_to_look", {"label": "keys"})
