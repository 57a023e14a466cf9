"""The tenth round's mechanisms (issue 13), each with what it must read and what must stay refused or unchanged.

heldout13 (now a development set) was classified by the cause of each refusal and wrong route, and each mechanism below
answers a cause, not a sentence: agents' envelopes and syntaxes, shapes of times, shapes of sentences read only when
the rules refuse a question as typed (relax.py), homophones, the agent of a passive, particle verbs, abbreviations,
placeholder nouns. None of the sentences below is a line of a question set.
"""

from __future__ import annotations

import json

import pytest
from answering_helpers import NOW, TODAY, YESTERDAY, refusal, understood

from tempomem_ros.core.answering import Names, Understanding, understand
from tempomem_ros.core.answering import relax, structured, timeexpr
from tempomem_ros.core.answering.slots import resolve

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "sofa", "remote", "chair", "plant", "wallet", "charger",
               "phone", "laptop", "water bottle", "bed", "bowl", "umbrella", "glasses", "coat rack"],
              ["kitchen", "hall", "office", "bedroom"])


def u(question: str):
    return understood(question, NAMES)


def refused(question: str):
    return refusal(question, NAMES)


def read(question: str) -> tuple:
    got = u(question)
    return got.operator, got.args, got.unknown


# ------------------------------------------------------------------------------------ agents' envelopes
@pytest.mark.parametrize("request_, op, args", [
    ('{"type": "tool_use", "id": "toolu_1", "name": "locate", "input": {"object": "lamp"}}', "current",
     {"label": "lamp"}),
    ('{"type": "function", "function": {"name": "history", "arguments": "{\\"label\\": \\"keys\\"}"}}', "history",
     {"label": "keys"}),
    ('{"function_call": {"name": "move_count", "arguments": {"item": "chair"}}}', "count_moves", {"label": "chair"}),
    ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "last_seen", "arguments": '
     '{"entity": "phone"}}}', "last_seen", {"label": "phone"}),
    ('{"tool_name": "first_seen", "tool_input": {"target": "plant"}}', "first_seen", {"label": "plant"}),
    ('{"fn_name": "what_changed", "params": {"window": "1h"}}', "changes", {"since": NOW - 3600, "until": NOW}),
    ('{"function": "dwell_time", "args": {"name": "sofa"}}', "duration", {"label": "sofa"}),
    ('{"type": "tool_use", "name": "check_relation", "input": {"subject": "keys", "predicate": "in", '
     '"object": "hall"}}', "is_related", {"label": "keys", "relation": "in", "anchor": "hall"}),
    ('{"type": "tool_use", "name": "contents_at", "input": {"surface": "desk", "time": "now-2h"}}',
     "relational_as_of", {"anchor": "desk", "relation": "on", "t": NOW - 7200}),
    ('{"type": "tool_use", "name": "place_at", "input": {"item": "mug", "minutes_ago": 45}}', "as_of",
     {"label": "mug", "t": NOW - 2700}),
    ('{"type": "tool_use", "name": "within", "input": {"x": 1, "y": 0, "z": 0.5, "r_cm": 40}}', "spatial",
     {"center": [1.0, 0.0, 0.5], "radius": 0.4}),
    ('{"type": "tool_use", "name": "history", "input": {"item": "keys", "sort_by": "time"}}', "history",
     {"label": "keys"}),
    ('{"type": "function_call", "call_id": "c1", "name": "locate", "arguments": "{\\"object\\": \\"keys\\"}"}',
     "current", {"label": "keys"}),
    ('{"functionCall": {"name": "locate", "args": {"object": "mug"}}}', "current", {"label": "mug"}),
    ('{"toolUse": {"toolUseId": "t1", "name": "last_seen", "input": {"item": "phone"}}}', "last_seen",
     {"label": "phone"}),
    ('{"function": {"name": "move_count", "arguments": {"label": "chair"}}}', "count_moves", {"label": "chair"}),
    ('{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "locate", "arguments": '
     '"{\\"object\\": \\"lamp\\"}"}}]}', "current", {"label": "lamp"}),
])
def test_an_envelope_is_unwrapped_by_its_shape(request_, op, args):
    got = u(request_)
    assert (got.operator, got.args) == (op, args)
    assert "(structured request" in got.words  # envelope.py names the call after it


@pytest.mark.parametrize("request_", [
    '{"type": "tool_use", "name": "navigate_to", "input": {"room": "kitchen"}}',  # an action tool stays refused
    '{"type": "function", "function": {"name": "delete_object", "arguments": "{\\"label\\": \\"mug\\"}"}}',
    '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',  # no call in it
    '{"jsonrpc": "2.0", "method": "tools/call", "params": ["locate", "mug"]}',  # params that are no object
    '{"type": "function", "function": {"name": "locate", "arguments": "not json"}}',
    '{"type": "tool_use", "name": "locate", "input": {"object": "lamp", "fn": "history"}}',  # a second tool inside
    '{"type": "tool_use", "name": "locate", "input": {"object": "lamp"}, "extra": 1}',  # more than an envelope
    '{"tool_calls": [{"name": "locate", "args": {"object": "keys"}}, {"name": "locate", "args": {"object": "mug"}}]}',
    '{"tool_calls": []}',
])
def test_an_envelope_with_nothing_to_look_up_is_refused(request_):
    refused(request_)


def test_unwrap_leaves_an_object_without_an_envelope_as_it_is():
    plain = {"tool": "locate", "object": "keys"}
    assert structured.unwrap(plain) == plain
    assert structured.unwrap({"type": "count", "label": "mug"}) == {"type": "count", "label": "mug"}


# ------------------------------------------------------------------------------------ agents' other syntaxes
@pytest.mark.parametrize("request_, op, args", [
    ("diff --since=30m", "changes", {"since": NOW - 1800, "until": NOW}),
    ("history keys --format table", "history", {"label": "keys"}),
    ("last_seen water bottle --format iso", "last_seen", {"label": "water bottle"}),
    ('<call name="first_seen"><object>lamp</object></call>', "first_seen", {"label": "lamp"}),
    ('<function_calls><invoke name="current"><parameter name="label">mug</parameter></invoke></function_calls>',
     "current", {"label": "mug"}),
    ("<location_history><item>keys</item></location_history>", "history", {"label": "keys"}),
    ('{ item(label: "chair") { lastSeen } }', "last_seen", {"label": "chair"}),
    ('query { location(object: "keys") { previous } }', "previous", {"label": "keys"}),
    ("{'tool': 'locate', 'object': 'remote'}", "current", {"label": "remote"}),
])
def test_command_lines_markup_graphql_and_python_dicts_are_requests(request_, op, args):
    got = u(request_)
    assert (got.operator, got.args) == (op, args)


@pytest.mark.parametrize("request_", [
    "rm --force mug", "diff --all", '<call name="navigate_to"><room>kitchen</room></call>',
    '<call><label>mug</label></call>',  # a call with no name
    "{'tool': 'locate', 'object': __import__('os').system('ls')}",  # no literal: never evaluated
    "{'tool': 'locate', 'tool': 'history', 'object': 'keys'}",  # a field twice
    '{ object(label: "mug") { deleteAll } }',
])
def test_other_syntaxes_with_nothing_to_look_up_are_refused(request_):
    refused(request_)


def test_markup_around_prose_is_no_request():
    assert structured.xml_call("<b>where is the mug</b>") is None
    assert structured.call_syntax("where is the mug") is None


# ------------------------------------------------------------------------------------ shapes of times
@pytest.mark.parametrize("text, kind, value", [
    ("a half hour ago", "point", NOW - 1800),
    ("in the past half hour", "window", (NOW - 1800, NOW)),
    ("since 9 o clock", "window", (TODAY + 9 * 3600, NOW)),
    ("five and twenty minutes ago", "point", NOW - 1500),
    ("in the preceding forty min", "window", (NOW - 2400, NOW)),
    ("at 11 this forenoon", "point", TODAY + 11 * 3600),
    ("in the last 3h", "window", (NOW - 3 * 3600, NOW)),
    ("over the past 20m", "window", (NOW - 1200, NOW)),
    ("last night at nine", "point", YESTERDAY + 21 * 3600),
    ("this morning at eight oclock", "point", TODAY + 8 * 3600),
    ("@ yesterday 17:15", "point", YESTERDAY + 17.25 * 3600),
    ("yesterday 06:40", "point", YESTERDAY + 6 * 3600 + 40 * 60),
])
def test_a_shape_of_time_is_read(text, kind, value):
    rest, found = timeexpr.extract(timeexpr_text(text), NOW)
    assert len(found) == 1 and found[0].kind == kind, (text, rest, found)
    got = found[0].t if kind == "point" else (found[0].since, found[0].until)
    assert got == value


def timeexpr_text(text: str) -> str:
    from tempomem_ros.core.answering.normalise import normalise
    return normalise("where was the mug " + text).replace("where was the mug ", "", 1)


@pytest.mark.parametrize("text", ["within 2m of the desk", "the half hour news", "one and twenty", "a half dozen eggs"])
def test_what_is_no_time_stays_no_time(text):
    assert timeexpr.extract(text, NOW)[1] == []


# ------------------------------------------------------------------------------------ shapes of sentences (relax.py)
@pytest.mark.parametrize("question, op, args", [
    ("isn't the remote on the sofa?", "is_related", {"label": "remote", "relation": "on", "anchor": "sofa"}),
    ("wasn't the lamp moved today?", "did_move", {"label": "lamp", "since": TODAY, "until": NOW}),
    ("is the charger not missing any more?", "is_missing", {"label": "charger"}),
    ("so the plant has not been moved by anybody, has it?", "did_move", {"label": "plant"}),
])
def test_a_negated_yes_no_question_asks_the_positive(question, op, args):
    got = u(question)
    assert (got.operator, got.args) == (op, args)
    assert "(reading a negated question as the question)" in got.words


@pytest.mark.parametrize("question", ["isn't it raining", "why isn't the lamp on the table", "is the mug not clean",
                                      "what is not on the table", "didn't I tell you to clean the kitchen",
                                      "don't move the chair", "can't find the lamp"])
def test_a_negation_reads_nothing_the_positive_would_not(question):
    refused(question)


@pytest.mark.parametrize("question, op, args", [
    ("wheres the phone i swear i had it", "current", {"label": "phone"}),
    ("the lamp isnt where it was and i need it so where should i look for it", "where_to_look", {"label": "lamp"}),
    ("what is on the desk i am about to tidy up", "relational", {"anchor": "desk", "relation": "on"}),
])
def test_a_clause_with_no_mark_before_it_is_read_as_a_clause(question, op, args):
    got = u(question)
    assert (got.operator, got.args) == (op, args)
    assert "as a clause" in got.words


@pytest.mark.parametrize("question", [
    "where is my mug and how long has it been there",  # two questions, with or without a mark
    "did the chair move and where is it now",
    "is the mug on the table or is it in the kitchen",  # an alternative: two questions
    "where is the mug i put on the table",  # the second clause names another thing: no talk
    "where's my flask i need my coffee",  # an unknown thing read loosely would be a guess ("flask" unknown)
])
def test_a_clause_with_no_mark_never_makes_two_questions_one(question):
    refused(question)


def test_a_second_sentence_after_the_thing_is_talk_as_with_a_comma():
    # the sixth round refused it whole (its words would join the question's: "looking" asks where to look); with a mark
    # the clause reader read it as the keys' place, and the tenth round reads the unmarked one the same way
    for question in ("where did grandma put her keys, he is looking all over",
                     "where did grandma put her keys he is looking all over"):
        assert read(question) == ("current", {"label": "keys"}, "")


def test_an_interjection_before_a_question_word_is_dropped():
    got = u("yiss where is the wallet")
    assert (got.operator, got.args) == ("current", {"label": "wallet"})
    assert "interjection" in got.words
    for question in ("why did the lamp move", "blah tell me a joke", "abeg bring the remote", "zork"):
        refused(question)
    # a known name is never an interjection
    assert relax._interjection("mug where is it", frozenset(), lambda t: t == "mug") is None


def test_a_word_after_kindly_or_please_is_a_request_to_tell():
    got = u("Kindly apprise the last time the wallet was spotted.")
    assert (got.operator, got.args) == ("last_seen", {"label": "wallet"})
    for question in ("kindly polish the lamp", "please hoover the bedroom", "kindly fetch the remote",
                     "please apprise me about the weather"):
        refused(question)


def test_would_be_asks_whether_it_is():
    got = u("would the keys be in the hall")
    assert (got.operator, got.args) == ("is_related", {"label": "keys", "relation": "in", "anchor": "hall"})
    refused("would the lamp look nice on the desk")
    # an anchor the memory does not know is answered as such; a thing asked about that it does not know is refused
    got = u("would the keys be hanging on the shoe rack")
    assert (got.operator, got.args, got.unknown) == ("is_related", {"label": "keys", "relation": "on",
                                                                    "anchor": "shoe rack"}, "anchor")
    refused("would the flask be on the desk")


@pytest.mark.parametrize("question, op, args", [
    ("likely locs of the umbrella", "where_to_look", {"label": "umbrella"}),
    ("hist of the keys", "history", {"label": "keys"}),
])
def test_an_abbreviation_is_read_as_the_one_word_it_may_stand_for(question, op, args):
    got = u(question)
    assert (got.operator, got.args) == (op, args)
    assert "short form" in got.words


def test_an_abbreviation_of_two_kinds_of_word_stays_refused():
    # nineteenth round: after a thing's name "pos" is its position (an operator's shorthand, normalise._MISTYPED;
    # heldout20's "charger: current pos?", "bowl pos @ 1300?"): a thing has no possessions; "my pos" stays refused
    assert u("umbrella pos?").operator == "current"
    refused("list my pos")
    assert relax._is_abbreviation_of("chg", "change") and not relax._is_abbreviation_of("chg", "catch")
    assert not relax._is_abbreviation_of("loc", "loc")


def test_a_shape_is_read_only_when_the_rules_refuse():
    # read as typed today: no shape is tried, the interpretation names none
    got = u("where is the mug")
    assert got.words == "current place of mug"
    assert isinstance(understand("where is the lamp i think", NOW, NAMES), Understanding)


# ------------------------------------------------------------------------------------ words and phrases as classes
def test_homophones_only_where_the_typed_word_cannot_mean_itself():
    assert read("how many times did you sea the lamp") == ("count_sightings", {"label": "lamp"}, "")
    assert read("was the phone scene today") == ("was_seen", {"label": "phone", "since": TODAY, "until": NOW}, "")
    assert read("won hour ago where was the mug") == ("as_of", {"label": "mug", "t": NOW - 3600}, "")
    assert read("where was the remote at ate this morning") == ("as_of", {"label": "remote", "t": TODAY + 8 * 3600},
                                                                "")
    refused("what happened at the scene yesterday")
    refused("the mug won the prize")


def test_the_agent_of_a_passive_is_no_anchor():
    assert read("was the remote noticed by your cameras today") == (
        "was_seen", {"label": "remote", "since": TODAY, "until": NOW}, "")
    assert read("is the remote by the sofa") == ("is_related", {"label": "remote", "relation": "near",
                                                                 "anchor": "sofa"}, "")


def test_all_over_the_place_asks_for_every_place():
    assert read("where has the mug been taken all over the place") == ("history", {"label": "mug"}, "")
    assert read("where is the mug") == ("current", {"label": "mug"}, "")


@pytest.mark.parametrize("question", ["where has the yoke gone", "where is the thingy",
                                      "has the doohickey gone missing"])
def test_a_placeholder_noun_is_no_thing(question):
    refused(question)
    assert resolve("the whatsit", NAMES) is None


def test_particle_verbs_arrivals_adjacency_and_a_radius_named_first():
    assert read("how often have you picked up the laptop") == ("count_sightings", {"label": "laptop"}, "")
    assert read("how often did the cameras pick up the laptop") == ("count_sightings", {"label": "laptop"}, "")
    assert read("any arrivals in the last hour")[:2] == ("changes", {"since": NOW - 3600, "until": NOW,
                                                                    "kinds": ["appeared", "reappeared"]})
    assert read("things adjacent to the bed") == ("relational", {"anchor": "bed", "relation": "near"}, "")
    assert read("radius 1.5 m around point (0, 2, 1)") == ("spatial", {"center": [0.0, 2.0, 1.0], "radius": 1.5},
                                                           "")


def test_structured_requests_still_refuse_a_field_they_do_not_know():
    out = structured.read(json.dumps({"type": "tool_use", "name": "locate", "input": {"colour": "red"}}), NOW, NAMES)
    assert out == "the request has a field I do not know: 'colour'"
