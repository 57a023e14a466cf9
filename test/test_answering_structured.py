"""Structured (JSON-shaped) requests of agents (core/answering/structured.py, issue 13's eighth round).

heldout11 held 22 requests written as JSON objects; read as prose, one was a wrong route ('{"tool": "locate",
"object": "keys"}' searched for "object keys") and most were refused. The reader maps the fields through the operator
table's vocabulary (operators.TOOL_NAMES, REQUEST_*_FIELDS) and validates every value as untrusted; what it cannot map
it refuses, never reads as prose. None of the requests below is a line of a question set.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, YESTERDAY, refusal, understood

from tempomem_ros.core.answering import Names
from tempomem_ros.core.answering.structured import NOT_JSON, parse, read

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "sofa", "remote", "chair", "plant", "wallet", "charger",
               "phone", "laptop", "water bottle"], ["kitchen", "hall"])


def u(question: str):
    return understood(question, NAMES)


@pytest.mark.parametrize("request_, op, args", [
    ('{"tool": "find_object", "label": "charger"}', "current", {"label": "charger"}),
    ('{"function": "Previous-Position", "item": "lamp"}', "previous", {"label": "lamp"}),
    ('{"metric": "times_seen", "thing": "remote"}', "count_sightings", {"label": "remote"}),
    ('{"query": "count", "object": "mugs"}', "count_objects", {"label": "mug"}),
    ('{"fn": "last_detection", "object": "phone"}', "last_seen", {"label": "phone"}),
    ('{"check": "presence", "object": "wallet"}', "is_present", {"label": "wallet"}),
    ('{"check": "missing_check", "object": "keys"}', "is_missing", {"label": "keys"}),
    ('{"op": "list_missing"}', "missing", {}),
    ('{"tool": "where_to_search", "object": "keys"}', "where_to_look", {"label": "keys"}),
    ('{"objects_under": "table"}', "relational", {"relation": "under", "anchor": "table"}),
    ('{"tool": "objects_inside", "object": "kitchen"}', "relational", {"relation": "in", "anchor": "kitchen"}),
    ('{"object": "mug", "on": "desk"}', "is_related", {"label": "mug", "relation": "on", "anchor": "desk"}),
    ('{"check": "near", "object": "lamp", "anchor": "sofa"}', "is_related",
     {"label": "lamp", "relation": "near", "anchor": "sofa"}),
    ('{"tool": "spatial", "anchor": "sofa", "radius_cm": 50}', "spatial", {"anchor": "sofa", "radius": 0.5}),
    ('{"tool": "proximity", "center": {"x": 1, "y": 2, "z": 0}, "radius": "2 m"}', "spatial",
     {"center": [1.0, 2.0, 0.0], "radius": 2.0}),
    ('{"tool": "semantic_search", "description": "something to drink from"}', "semantic",
     {"text": "something to drink from"}),
])
def test_a_named_tool_reads_its_fields(request_, op, args):
    got = u(request_)
    assert (got.operator, got.args) == (op, args)
    assert "(structured request" in got.words  # envelope.py names the call after it


def test_times_and_spans_are_read_and_end_now():
    got = u('{"tool": "position_at", "object": "mug", "t": "now-2h"}')
    assert (got.operator, got.args) == ("as_of", {"label": "mug", "t": NOW - 7200})
    got = u('{"object": "chair", "at": "2026-01-14T18:30:00Z"}')  # no tool: label + moment is as_of only
    assert (got.operator, got.args) == ("as_of", {"label": "chair", "t": YESTERDAY + 18.5 * 3600})
    got = u('{"tool": "was_detected", "object": "phone", "window_hours": 3}')
    assert (got.operator, got.args) == ("was_seen", {"label": "phone", "since": NOW - 3 * 3600, "until": NOW})
    got = u('{"metric": "moves_count", "object": "lamp", "since": 1768435200}')
    assert (got.operator, got.args) == ("count_moves", {"label": "lamp", "since": TODAY, "until": NOW})
    got = u('{"tool": "what_disappeared", "window": "2 hours"}')
    assert (got.operator, got.args) == ("changes", {"kinds": ["removed"], "since": NOW - 7200, "until": NOW})
    got = u('{"since": "now-10m"}')  # a span alone asks what changed
    assert (got.operator, got.args) == ("changes", {"since": NOW - 600, "until": NOW})


def test_without_a_tool_the_one_operator_the_fields_fit_answers():
    assert u('{"relation": "in", "anchor": "kitchen"}').operator == "relational"
    assert u('{"relation": "on", "anchor": "table", "when": "previously"}').operator == "relational_before"
    assert u('{"relation": "on", "anchor": "table", "t": "now-1h"}').operator == "relational_as_of"
    assert u('{"object": "mug", "relation": "on", "anchor": "table"}').operator == "is_related"
    assert u('{"object": "mug", "when": "before"}').operator == "previous"  # as_of would need a moment
    assert u('{"object": "mug", "when": "now", "relation": "on", "anchor": "desk"}').operator == "is_related"


@pytest.mark.parametrize("request_, why", [
    ('{"object": "mug"}', "more than one question"),  # where now, before, how often, ...: ambiguous
    ('{"object": "mug", "since": "now-1h"}', "more than one question"),  # history, moves, was_seen, did_move
    ('{"tool": "teleport", "object": "mug"}', "nothing I can look up"),
    ('{"action": "pick_up", "object": "mug"}', "nothing I can look up"),
    ('{"role": "user", "content": "where is the mug"}', "field I do not know"),
    ('{"tool": "locate", "object": "mug", "priority": "high"}', "field I do not know"),
    ('{"tool": "locate", "tool2": "history", "object": "mug"}', "field I do not know"),
    ('{"tool": "locate", "op": "history", "object": "mug"}', "more than one thing to do"),
    ('{"tool": "locate", "object": "mug", "since": "now-1h"}', "takes no since"),
    ('{"tool": "locate"}', "give label or object_id"),  # envelope.py: the agent tools' validator says what is missing
    ('{"tool": "locate", "object": "mug", "label": "lamp"}', "gives label twice"),
    # stop 36: a label naming two known things names both (it said "not the name of a thing")
    ('{"tool": "locate", "object": "the mug and the keys"}', "names more than one thing (mug, keys): name one"),
    ('{"tool": "locate", "object": 42}', "non-empty string"),
    ('{"tool": "locate", "object": "' + "x" * 300 + '"}', "too long"),
    ('{"tool": "as_of", "object": "mug", "t": "tomorrow"}', "past and the present"),
    ('{"tool": "as_of", "object": "mug", "t": 99999999999}', "finite number"),
    ('{"tool": "as_of", "object": "mug", "t": NaN}', "finite number"),
    ('{"tool": "as_of", "object": "mug", "t": 1' + "0" * 400 + '}', "finite number"),
    ('{"tool": "as_of", "object": "mug", "t": "2026-01-15T11:00:00Z and more"}', "not a moment"),
    ('{"tool": "spatial", "anchor": "sofa", "radius": -1}', "finite number"),
    ('{"tool": "spatial", "center": [1, 2], "radius": 1}', "[x, y, z]"),
    ('{"tool": "changes", "kinds": ["exploded"]}', "not a change kind"),
    ('{"tool": "changes", "since": "now-1h", "window": "2 hours"}', "not both"),
    ('{"tool": "locate", "goal": "find my mug"}', "mixes prose"),
])
def test_what_cannot_be_mapped_is_refused_with_the_reason(request_, why):
    r = refusal(request_, NAMES)
    assert r.reason.startswith("I could not map the structured request") and why in r.reason, r.reason


def test_an_unknown_thing_is_reported_not_replaced():
    got = u('{"tool": "locate", "object": "passport"}')
    assert (got.operator, got.args, got.unknown) == ("current", {"label": "passport"}, "label")


def test_shape_fields_are_ignored_and_shown():
    got = u('{"tool": "locate", "object": "keys", "format": "json"}')
    assert (got.operator, got.args, got.ignored) == ("current", {"label": "keys"}, ("format=json",))
    assert "ignoring 'format=json'" in got.words


def test_only_a_whole_json_object_is_a_request():
    assert parse('{"tool": "locate", "object": "keys"}') == {"tool": "locate", "object": "keys"}
    assert parse('query: {"objects_near": "sofa"}') == {"objects_near": "sofa"}
    assert parse("where is the mug") is None
    assert parse('where is {"object": "mug"} now') is None  # prose around it: the rules read it
    assert parse('{"tool": "locate", "object": "keys"') is None  # not JSON
    assert parse('["locate", "keys"]') is None
    assert parse('{"tool": "locate", "Tool": "history"}') == NOT_JSON  # a field given twice: refused
    # tenth round: a Python dict is a request too (ast.literal_eval on literals only); one that is no literal is refused
    assert parse("{'tool': 'locate', 'object': 'keys'}") == {"tool": "locate", "object": "keys"}
    assert parse("{'tool': 'locate', 'object': open('x')}") == NOT_JSON
    assert "not a JSON object" in refusal("{'tool': 'locate', 'object': open('keys')}", NAMES).reason
    assert read("where is the mug", NOW, NAMES) is None


def test_a_request_of_prose_only_is_left_to_the_rules():
    assert read('{"goal": "find my wallet", "need": "a ranked list of places"}', NOW, NAMES) is None
    # twelfth round: '{"question": ...}' is the Query service's request (srv/Query.srv: question, k), read as the
    # question it holds (envelope.py); with a field Query has not it is refused as before
    assert understood('{"question": "where is the mug"}', NAMES).operator == "current"
    assert "the Query call needs one field 'question'" in refusal('{"question": "where is the mug", "mood": "x"}',
                                                                  NAMES).reason
