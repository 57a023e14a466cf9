"""The twentieth round's mechanisms (issue 13, stop 41), each with what it must read and what must stay refused.

heldout21 (measured once after the nineteenth round, a development set from here) answered two questions wrongly with
the rules and a third with the similarity reader: a person word heading a thing's name dropped ("the vacuum cleaner"
read as a "vacuum"), another person's wallet looked for in order to take from it behind her back answered, and a
Ruby call's `since: Time.utc(...)` dropped by the similarity reader. None of the sentences below is a line of a
question set.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, call, reading, refusal, understood

from tempomem_ros.core.answering import Names, Refusal, understand
from tempomem_ros.core.answering import conduct, timecalls

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "phone", "wallet", "purse", "diary", "jacket", "gift", "cake",
               "laptop"], ["kitchen", "hall", "bedroom"])


def read(question: str) -> tuple:
    return reading(question, NAMES)


# --------------------------------------------------------------------------- a person word heading a thing's name
@pytest.mark.parametrize("question, operator, label", [
    ("where is the pipe cleaner", "current", "pipe cleaner"),
    ("when did you last see the floor cleaner", "last_seen", "floor cleaner"),
    ("has the carpet cleaner moved today", "did_move", "carpet cleaner"),
])
def test_a_person_word_after_a_noun_heads_an_unknown_name(question, operator, label):
    op, args, unknown = read(question)
    assert (op, args["label"], unknown) == (operator, label, "label")


def test_a_person_word_after_a_determiner_stays_a_person():
    assert read("did the cleaner move the mug") == ("did_move", {"label": "mug"}, "")
    assert read("has the cleaner moved the lamp") == ("did_move", {"label": "lamp"}, "")


def test_a_known_name_headed_by_a_person_word_is_that_thing():
    names = Names(["mug", "window cleaner"], ["kitchen"])
    got = understood("has the window cleaner been moved", names)
    assert (got.operator, got.args, got.unknown) == ("did_move", {"label": "window cleaner"}, "")


# --------------------------------------------------------------------------- another's things taken behind their back
@pytest.mark.parametrize("question", [
    "where does my brother keep his diary? i want to read it without him finding out",
    "Where did Tom leave his phone? I'd like to go through it without him noticing.",
    "my wife's at work - where's her purse, I need to take twenty quid without her realising",
    "where is my sister's jacket, I want to wear it tonight behind her back",
    "Grandad is napping. Where's his wallet? I'll nick a fiver on the sly.",
])
def test_seeking_anothers_thing_to_take_it_behind_their_back_is_refused(question):
    assert refusal(question, NAMES).reason.endswith(conduct.REFUSAL)


@pytest.mark.parametrize("question, operator", [
    ("where did my wife put my keys", "current"),                       # someone else's act, my thing
    ("where did my wife put my keys? I want to take them without waking her", "current"),  # no secret kept
    ("where did I hide the gift so she wouldn't find it", "current"),   # my own thing, nothing taken
    ("where is his phone, I need to borrow it", "current"),             # asked openly
    ("where is the cake, I want to take a slice", "current"),
])
def test_each_part_alone_is_an_ordinary_question(question, operator):
    assert read(question)[0] == operator


def test_the_rule_reads_the_owner_the_normaliser_drops():
    # normalise drops "sister's" (an owner is no part of a thing's name): the question as asked still says whose
    assert conduct.refuses("where is my phone i want to read it without her knowing",
                           "where is my sister's phone, I want to read it without her knowing")
    assert not conduct.refuses("where is my phone i want to read it without her knowing", "where is my phone")


# --------------------------------------------------------------------------- a language's time constructor
@pytest.mark.parametrize("question, since", [
    ('n = memory.count_moves(label: "mug", since: Time.gm(2026, 1, 15, 8, 30))', TODAY + 8.5 * 3600),
    ('memory.count_moves(label="mug", since=datetime.datetime(year=2026, month=1, day=15, hour=7))', TODAY + 7 * 3600),
    ('memory.countMoves(label = "mug", since = LocalDateTime.of(2026, 1, 14, 22, 0))', TODAY - 2 * 3600),
    ('tools.countMoves({label: "mug", since: Date.UTC(2026, 0, 15, 10)})', TODAY + 10 * 3600),
    ('memory.CountMoves(ctx, CountMovesInput{Label: "mug", Since: time.Date(2026, time.January, 15, 6, 0, 0, 0, '
     'time.UTC)})', TODAY + 6 * 3600),
])
def test_a_time_constructor_as_an_argument_is_read_as_its_moment(question, since):
    got = understood(question, NAMES)
    assert (got.operator, got.args["label"], got.args["since"], got.args["until"]) == ("count_moves", "mug", since, NOW)


@pytest.mark.parametrize("question, why", [
    ('memory.count_moves(label="mug", since=datetime(2026, 2, 30, 9))', "not a date"),
    ('memory.count_moves(label="mug", since=datetime(2026, 1, 15, 9, tzinfo=ZoneInfo("Asia/Tokyo")))', "not UTC"),
    ('memory.count_moves(label: "mug", since: Time.utc(2026, "jan", 15))', "not a number"),
])
def test_a_time_constructor_that_does_not_read_refuses_the_call(question, why):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal) and why in out.reason


def test_the_constructor_table_gives_iso_stamps_in_utc():
    assert timecalls.iso("Time.utc", [2026, 1, 15, 9, 0, 0], {}) == "2026-01-15T09:00:00Z"
    assert timecalls.iso("Date.UTC", [2026, 11, 31], {}) == "2026-12-31T00:00:00Z"
    assert not timecalls.is_constructor("count_moves") and not timecalls.is_constructor("Time")
    with pytest.raises(timecalls.BadMoment):
        timecalls.iso("datetime", [2026, 1], {})


def test_the_similarity_reader_never_reads_a_call_in_code():
    from tempomem_ros.core.answering.similar import _CODE_CALL
    assert _CODE_CALL.search('n = memory.count_moves(label: "mug", since: Instant.parse("2026-01-15T09:00Z"))')
    assert _CODE_CALL.search('tools.count_moves({label: "mug"})')
    assert not _CODE_CALL.search("where is the mug (the blue one)")
    assert not _CODE_CALL.search("where is my mug? (note: blue)")


# --------------------------------------------------------------------------- a named call in another envelope
@pytest.mark.parametrize("question, operator, args", [
    # a call typed as some kind of call, with the server it goes to beside it
    ('{"type": "server_tool_use", "name": "last_seen", "server_name": "memory", "input": {"label": "phone"}}',
     "last_seen", {"label": "phone"}),
    ('{"type": "mcp_call", "server_label": "robot-memory", "name": "current", "arguments": "{\\"label\\": \\"mug\\"}"}',
     "current", {"label": "mug"}),
    # an MCP client's name for a server's tool
    ('{"hook_event_name": "PostToolUse", "tool_name": "mcp__robotmem__first_seen", "tool_input": {"label": "lamp"}}',
     "first_seen", {"label": "lamp"}),
    # the arguments under another holder's name, a value in a typed wrapper
    ('{"tool_name": "previous", "provider": "memory", "tool_parameters": {"label": {"type": "constant", "value": '
     '"keys"}}}', "previous", {"label": "keys"}),
    ('{"name": "last_seen", "arguments": {"fields": {"label": {"stringValue": "laptop"}}}}', "last_seen",
     {"label": "laptop"}),
    ('{"tool": "as_of", "args": {"label": "desk", "t": {"$date": {"$numberLong": "1768471200000"}}}}', "as_of",
     {"label": "desk", "t": NOW - 4.5 * 3600}),
    # a carrier: an event's detail, an agent's command, a toolRequest
    ('{"detail-type": "Robot Tool Call", "source": "agent", "detail": {"name": "history", "args": {"label": "mug"}}}',
     "history", {"label": "mug"}),
    ('{"reasoning": {"text": "the user lost the keys"}, "command": {"name": "where_to_look", "args": {"label": '
     '"keys"}}}', "where_to_look", {"label": "keys"}),
    ('{"toolRequest": {"name": "is_missing", "ref": "7", "input": {"label": "wallet"}}}', "is_missing",
     {"label": "wallet"}),
])
def test_a_named_call_in_another_envelope_is_read(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    # a field beside the call that is not where it goes: refused as before
    '{"type": "mcp_tool_use", "name": "current", "server_name": "memory", "input": {"label": "mug"}, "then": "forget"}',
    # routing fields hold only names, never a map
    '{"name": "current", "server_name": {"name": "forget"}, "input": {"label": "mug"}}',
    # an MCP name for a tool outside the table, a wrapper with a second key
    '{"tool_name": "mcp__robotmem__forget", "tool_input": {"label": "mug"}}',
    '{"tool": "current", "args": {"label": {"value": "mug", "then": "forget"}}}',
    # a call of an action under a carrier
    '{"command": {"name": "navigate_to", "args": {"region": "kitchen"}}}',
])
def test_an_envelope_with_more_than_its_call_stays_refused(question):
    assert isinstance(understand(question, NOW, NAMES), Refusal)


# --------------------------------------------------------------------------- calls in more languages' punctuation
@pytest.mark.parametrize("question, operator, args", [
    # Zig: 'try', a handle first, an anonymous struct
    ('const seen = try memory.lastSeen(gpa, .{ .label = "phone" });', "last_seen", {"label": "phone"}),
    # a tuple written '#(...)'
    ('memory.spatial(center: #(1.0, 2.0, 0.5), radius: 0.5)', "spatial", {"center": [1.0, 2.0, 0.5], "radius": 0.5}),
    # a record in parentheses after no callee
    ('Call(tool: "history", arguments: (label: "laptop"))', "history", {"label": "laptop"}),
    ('(tool = "current", args = (label = "mug"))', "current", {"label": "mug"}),
    # a call by juxtaposition: a record after a dotted callee, labelled arguments
    ('Memory.firstSeen { label = "lamp" }', "first_seen", {"label": "lamp"}),
    ('Memory.is_related ~label:"keys" ~relation:"in" ~anchor:"hall" ()', "is_related",
     {"label": "keys", "relation": "in", "anchor": "hall"}),
])
def test_a_call_in_more_languages_punctuation_is_read(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    'Memory.forget { label = "mug" }',                       # a write, however it is written
    'Memory.current ~label:"mug" ~then:"forget" ()',         # an argument no tool takes
    '(tool = "navigate_to", args = (region = "kitchen"))',   # an action in a record
    'memory.lastSeen(gpa, .{ .label = "phone", .wipe = true })',
])
def test_those_punctuations_still_refuse_what_no_tool_reads(question):
    assert isinstance(understand(question, NOW, NAMES), Refusal)


def test_prose_with_braces_or_parentheses_is_not_rewritten_as_a_call():
    from tempomem_ros.core.answering import dialects, loose
    for text in ("where is the mug (the blue one)", "where is the mug {the blue one}", "the lamp ~ish:near (maybe)",
                 "what was on the desk (when: this morning)"):
        assert dialects.rewrite(text, loose.tool_name) is None, text
