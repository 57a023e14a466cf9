"""The seventeenth round's mechanisms (issue 13, stop 38), each with what it must read and what must stay refused.

heldout18 (a development set since the sixteenth round) still refused agent requests in platform shapes no reader took
(Bedrock's and FHIR's named values, CloudEvents, OpenAPI's operationId, a Step Functions task, an Assistants run that
requires action, a spreadsheet formula, a chat bot's command, Home Assistant's one-line YAML); the sixteenth round's
review left "I went out at 9. Where are my keys?" read as the place at 9:00, "¿por favor where ...?" refused, a 32 kB
text taking seconds to refuse, and "last seen --label mug; forget --label mug" answered as the read alone.
None of the sentences below is a line of a question set.
"""

from __future__ import annotations

import json

import pytest
from answering_helpers import NOW, TODAY, reading, refusal

from tempomem_ros.core.answering import Names
from tempomem_ros.core.answering import shapes
from tempomem_ros.core.answering.commands import acting_command
from tempomem_ros.core.answering.normalise import MAX_QUESTION_CHARS
from tempomem_ros.core.answering.understand import TIME_IN_TALK, TOO_LONG

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "phone", "plant", "box", "chair", "wallet", "sofa",
               "teddy bear", "backpack", "glasses", "scissors", "shelf", "umbrella", "kettle"],
              ["kitchen", "hall", "bedroom"])


def read(question: str) -> tuple:
    return reading(question, NAMES)


# ------------------------------------------------------------------------------- a time told in talk, no "now"
@pytest.mark.parametrize("question", [
    "I came back at 11. Where is the umbrella?",             # a full stop after a digit parts the clauses now
    "We had lunch at 12:30, where's the kettle?",
    "I last used it twenty minutes ago; where is my phone?",
    "I got in at 7 pm, did anyone move the lamp?",
])
def test_a_time_told_beside_a_question_without_one_is_refused(question):
    assert refusal(question, NAMES).reason == TIME_IN_TALK


@pytest.mark.parametrize("question, operator, args", [
    ("where was the umbrella at 11. thanks", "as_of", {"label": "umbrella", "t": TODAY + 11 * 3600}),
    ("Where is the umbrella? I need to leave in 5 minutes.", "current", {"label": "umbrella"}),  # a time to come
    ("where was the kettle 2.5 hours ago", "as_of", {"label": "kettle", "t": NOW - 9000}),      # a decimal point
    ("when I came back at 11, where was the umbrella?", "as_of", {"label": "umbrella", "t": TODAY + 11 * 3600}),
    # the question points back at the told time: it asks about it
    ("The visitors left at 10. What's changed since then?", "changes", {"since": TODAY + 10 * 3600, "until": NOW}),
])
def test_a_time_in_the_question_or_to_come_reads_as_before(question, operator, args):
    assert read(question) == (operator, args, "")


def test_a_tag_after_a_statement_with_its_time_is_no_question_of_its_own():
    # the statement asks, the tag only asks for a yes or a no: no time told beside a question (left to the readers)
    assert refusal("you didn't spot my wallet this morning, did you?", NAMES).reason != TIME_IN_TALK


# ------------------------------------------------------------------------------- politeness in another language
@pytest.mark.parametrize("question, label", [
    ("¿por favor where did I leave the kettle?", "kettle"),   # refused at main: "¿" opens the question
    ("¿porfa where are my glasses?", "glasses"),
    ("s'il vous plaît where is the umbrella", "umbrella"),
    ("where are my glasses, bitte?", "glasses"),
    ("per favore where is the lamp", "lamp"),
])
def test_please_in_another_language_asks_nothing(question, label):
    assert read(question) == ("current", {"label": label}, "")


def test_other_words_of_another_language_stay_refused():
    refusal("¿por favor dónde está the kettle?", NAMES)
    refusal("¿Cuántas veces did the lamp move?", NAMES)


# ------------------------------------------------------------------------------- a text longer than a question
@pytest.mark.parametrize("text", [
    "where is the kettle " * 30,                      # 600 characters of prose
    "kettle " * 5000,                                 # 35 kB
    "x" * (MAX_QUESTION_CHARS + 1),
])
def test_a_text_longer_than_a_question_is_refused_as_such(text):
    assert refusal(text, NAMES).reason == TOO_LONG


def test_a_question_spaced_out_or_a_long_tool_call_is_still_read():
    assert read("where   is " + " " * 600 + "the kettle?") == ("current", {"label": "kettle"}, "")
    call = json.dumps({"name": "last_seen", "arguments": {"label": "kettle"}, "id": "c" * 600})
    assert read(call) == ("last_seen", {"label": "kettle"}, "")


# ------------------------------------------------------------------------------- a batch with a write
@pytest.mark.parametrize("text, word", [
    ("current --label kettle; delete --label kettle", "delete"),
    ("tempomem history --label lamp && tempomem purge --label lamp", "purge"),
    ("mem.where_is(label='box')\nmem.removeObject(label='box')", "remove"),
    ("reset; where is the kettle", "reset"),
])
def test_a_batch_holding_a_write_is_refused_as_a_whole(text, word):
    assert acting_command(text) == word
    assert f"('{word}')" in refusal(text, NAMES).reason


def test_a_tool_call_reader_s_own_refusal_of_a_batch_keeps_its_reason():
    # the label's two things are the reason (thirteenth round), and the batch is not read in part by loose.py
    out = refusal('{"name": "current", "arguments": {"label": "kettle; DROP TABLE objects"}}', NAMES)
    assert "more than one thing (kettle, table)" in out.reason
    assert "('forget')" in refusal("last_seen label=kettle; forget label=kettle", NAMES).reason


@pytest.mark.parametrize("text", [
    "current --label kettle; history --label kettle",   # reads only: no write named
    "I had it at 9; where is it now?",                   # a clause, no command
    "Content-Type: application/json; charset=utf-8",
    "where is the kettle",
])
def test_no_write_in_a_batch_is_no_such_refusal(text):
    assert acting_command(text) is None


# ------------------------------------------------------------------------------- platform shapes
def test_named_values_are_a_map_and_anything_else_stays_a_list():
    assert shapes.reshape([{"name": "label", "valueCode": "kettle"}, {"name": "k", "type": "int", "value": 3}]) == \
        {"label": "kettle", "k": 3}
    odd = [{"name": "label", "value": "kettle", "note": "x"}]
    assert shapes.reshape(odd) == odd
    twice = [{"name": "label", "value": "a"}, {"name": "label", "value": "b"}]
    assert shapes.reshape(twice) == twice


@pytest.mark.parametrize("text, operator, args", [
    # Bedrock-style named parameters of a function
    ('{"actionGroup": "memory", "function": "count_moves", "parameters": [{"name": "label", "type": "string", '
     '"value": "kettle"}]}', "count_moves", {"label": "kettle"}),
    # FHIR-style Parameters naming the operation among them
    ('{"resourceType": "Parameters", "parameter": [{"name": "operation", "valueString": "current"}, '
     '{"name": "label", "valueString": "umbrella"}]}', "current", {"label": "umbrella"}),
    # a CloudEvents event: its type names the call, its data the arguments
    ('{"specversion": "1.0", "type": "org.example.tempomem.first_seen", "source": "/planner", "id": "9", '
     '"data": {"label": "kettle"}}', "first_seen", {"label": "kettle"}),
    # OpenAPI's operationId
    ('{"operationId": "getLastSeen", "parameters": {"label": "lamp"}}', "last_seen", {"label": "lamp"}),
    # a Step Functions task invoking a function named after the tool
    ('{"Type": "Task", "Resource": "arn:aws:states:::lambda:invoke", "Parameters": {"FunctionName": '
     '"tempomem-did-move", "Payload": {"label": "chair", "since_ago_s": 600}}, "Next": "Report"}', "did_move",
     {"label": "chair", "since": NOW - 600, "until": NOW}),
    # an Assistants run that waits for a tool's output
    ('{"status": "requires_action", "required_action": {"type": "submit_tool_outputs", "submit_tool_outputs": '
     '{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "is_missing", "arguments": '
     '"{\\"label\\": \\"wallet\\"}"}}]}}}', "is_missing", {"label": "wallet"}),
    ("=MEMORY.LASTSEEN(\"kettle\")", "last_seen", {"label": "kettle"}),       # a spreadsheet formula, one word
    ("/wheretolook@HouseBot umbrella", "where_to_look", {"label": "umbrella"}),  # a chat bot's command
    ("service: tempomem.history, data: {label: lamp}", "history", {"label": "lamp"}),  # YAML on one line
    ('client.call_tool("count_moves", label="lamp")', "count_moves", {"label": "lamp"}),  # a dispatcher and a name
    ('Memory.invoke(:where_to_look, label: "keys")', "where_to_look", {"label": "keys"}),  # Ruby's symbol
    ("tempomem://last_seen?label=lamp", "last_seen", {"label": "lamp"}),  # the memory's own URI scheme
    ('{ tool = "count_moves"; label = "kettle"; }', "count_moves", {"label": "kettle"}),  # a Nix attribute set
    ("grpcurl -plaintext -d '{\"label\": \"lamp\"}' robot:50051 tempomem.v1.Memory/FirstSeen", "first_seen",
     {"label": "lamp"}),
    ('Invoke-RestMethod -Uri "http://robot:8080/tempomem/v1/tools/last_seen?label=kettle"', "last_seen",
     {"label": "kettle"}),
    ("SpatialQuery.Request(center=Point(x=1.0, y=-0.5, z=0.8), radius=0.4)", "spatial",
     {"center": [1.0, -0.5, 0.8], "radius": 0.4}),
])
def test_platform_shapes_read_as_the_call_they_carry(text, operator, args):
    assert read(text) == (operator, args, "")


@pytest.mark.parametrize("text", [
    # a write named in the platform's shape is no read
    '{"specversion": "1.0", "type": "com.tempomem.forget", "source": "/x", "id": "1", "data": {"label": "kettle"}}',
    '{"operationId": "deleteObject", "parameters": {"label": "lamp"}}',
    "/forget@HouseBot kettle",
    "action: tempomem.forget, data: {label: phone}",
    'robot.call(:navigate_to, anchor: "kitchen")',
    'Memory.invoke(:forget, label: "lamp")',
    "tempomem://forget?label=lamp",
    '{ tool = "forget"; label = "lamp"; }',
    "grpcurl -plaintext -d '{\"label\": \"lamp\"}' robot:50051 tempomem.v1.Memory/Forget",
    "Invoke-RestMethod -Method Delete -Uri http://robot:8080/tempomem/v1/objects/4",
    # a named-values list with a second call inside, and a call under a key that carries none
    '{"function": "current", "parameters": [{"name": "label", "value": "kettle"}, {"name": "then", "value": '
    '{"name": "forget"}}]}',
    '{"Type": "Task", "Catch": {"FunctionName": "tempomem-current", "Payload": {"label": "kettle"}}}',
])
def test_a_write_or_a_call_outside_a_carrier_stays_refused(text):
    refusal(text, NAMES)
