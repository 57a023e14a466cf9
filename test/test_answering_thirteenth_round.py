"""The thirteenth round's mechanisms (issue 13, stop 36), each with what it must read and what must stay as it was.

Three wrong routes were left on the rules' sets: heldout16's "can you play hide and seek with me" (where to look for
a "play"), heldout15's "wheres my headfones" ("I don't know any headfone" where the memory knows headphones),
heldout8's "when my dentures were last in view" ("I don't know any denture"). The review of stop 35 left: a label
text naming two known things resolved to one silently; label text in compatibility forms (fullwidth) not NFKC-read;
an empty ROS Time map ``{}`` read as an open bound. None of the sentences below is a line of a question set.
"""

from __future__ import annotations

import json

import pytest
from answering_helpers import NOW, reading, refusal, understood

from tempomem_ros.core.answering import Names, tool_args
from tempomem_ros.core.answering.plurals import singular
from tempomem_ros.core.answering.slots import names_in, resolve

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "headphones", "phone", "teddy bear", "water bottle",
               "counter"], ["kitchen", "hall"])


def read(question: str) -> tuple:
    return reading(question, NAMES)


# --------------------------------------------------------------------------------- a request for an action
@pytest.mark.parametrize("question", [
    "can you play hide and seek with me", "play chess with me please", "could you sing happy birthday",
    "dance for the guests", "navigate towards the kitchen", "cook dinner tonight"])
def test_a_verb_that_only_asks_for_an_action_is_refused_whatever_follows(question):
    """Before: "play hide and seek" was read as where to look for a "play" (through "seek"); the other verbs asked
    for an action only with an object word after them ("play the", "cook my")."""
    out = refusal(question, NAMES)
    assert "asks for an action" in out.reason
    assert out.suggestions  # a refusal still says what can be asked


@pytest.mark.parametrize("question, label", [
    ("play mat location?", "play mat"), ("cook book location", "cook book"), ("dance shoes where?", "dance shoes")])
def test_a_known_name_that_starts_with_a_verb_of_action_is_no_request(question, label):
    """Review of the thirteenth round: a label-first question of a thing named "play mat" was refused as an action."""
    names = Names(["mug", "play mat", "cook book", "dance shoes"], [])
    assert understood(question, names).operator == "current" and understood(question, names).args == {"label": label}
    assert "asks for an action" in refusal("play chess with me please", names).reason  # not a name: as before


@pytest.mark.parametrize("question, want", [
    ("what can i play with", "semantic"),  # not led by the verb: a description of things, as before
    ("where is the lamp i play cards under", "current"),
])
def test_the_verb_inside_a_question_is_no_request(question, want):
    assert read(question)[0] == want


# ---------------------------------------------------------------------------------- a name spelt as it sounds
@pytest.mark.parametrize("question, label", [
    ("wheres my headfones", "headphones"), ("where is my fone", "phone"), ("when did you last see the fone", "phone")])
def test_a_known_name_spelt_with_f_for_ph_is_that_name(question, label):
    assert read(question)[1] == {"label": label} and read(question)[2] == ""


@pytest.mark.parametrize("question, label", [
    ("where is the sofa", "sofa"),  # no "ph" in any known name it could be: unknown as before
    ("where are my earfones", "earfone"),  # no known "earphones": an unknown thing, as typed (singular)
])
def test_an_f_is_not_read_as_ph_without_a_known_name(question, label):
    assert read(question)[1:] == ({"label": label}, "label")


def test_sounded_names_leave_the_exact_names_alone():
    assert resolve("phone", NAMES).label == "phone" and resolve("headphones", NAMES).label == "headphones"


# ------------------------------------------------------------------------------------------ plural-only words
@pytest.mark.parametrize("word", ["dentures", "overalls", "earmuffs", "shears"])
def test_a_plural_only_word_is_reported_as_it_is(word):
    assert singular(word) == word


def test_an_unknown_plural_only_thing_is_named_as_asked():
    """heldout8's annotation: "I don't know any dentures", not "denture"."""
    assert read("when were my dentures last seen") == ("last_seen", {"label": "dentures"}, "label")


# ---------------------------------------------------------------------------------- two known things in a label
@pytest.mark.parametrize("label, named", [
    ("keys; DROP TABLE objects", ("keys", "table")), ("mug/lamp", ("mug", "lamp")),
    ("keys and the table", ("keys", "table")), ("lamp, desk", ("lamp", "desk"))])
def test_a_label_naming_two_known_things_is_refused_with_both_named(label, named):
    """Before: "keys; DROP TABLE objects" resolved to the table (the rightmost known name), the keys dropped."""
    out = refusal(json.dumps({"name": "current", "arguments": {"label": label}}), NAMES)
    assert names_in(label, NAMES) == named
    assert f"names more than one thing ({', '.join(named)}): name one" in out.reason


def test_a_modifier_before_a_known_name_is_still_the_head_s():
    """A known name right before another, nothing between, modifies it: "kitchen counter", "desk lamp" (as before)."""
    assert resolve("desk lamp", NAMES).label == "lamp"
    assert read("what is on the kitchen counter")[:2] == ("relational", {"anchor": "counter", "relation": "on"})
    assert resolve("lamp desk", NAMES).label == "desk"  # the head is the last word, as before


def test_a_typed_question_naming_two_things_in_one_slot_is_refused():
    out = refusal("where are the keys; drop table objects", NAMES)
    assert out.suggestions


def test_a_structured_request_naming_two_things_is_refused():
    out = refusal(json.dumps({"tool": "locate", "object": "keys; DROP TABLE objects"}), NAMES)
    assert "more than one thing (keys, table)" in out.reason


# ---------------------------------------------------------------------------------------- compatibility forms
def test_a_fullwidth_label_of_a_tool_call_is_the_label():
    assert read(json.dumps({"name": "current", "arguments": {"label": "ｍｕｇ"}})) == ("current", {"label": "mug"}, "")
    assert read(json.dumps({"tool": "locate", "object": "ｗａｔｅｒ ｂｏｔｔｌｅ"}))[1] == {"label": "water bottle"}


@pytest.mark.parametrize("text", ["\ufdfa" * 12, "\ufdfa" * 200])
def test_the_length_limit_holds_for_the_normalised_text(text):
    """Review of the thirteenth round: the limit was checked before NFKC, which makes one "\ufdfa" 18 characters
    (200 of them gave 3600)."""
    with pytest.raises(tool_args.ToolError, match="label must be at most 200 characters"):
        tool_args.validate("current", {"label": text}, NOW)


def test_the_agent_tools_read_a_label_in_nfkc():
    assert tool_args.validate("current", {"label": "ｍｕｇ"}, NOW) == {"label": "mug"}
    assert tool_args.validate("semantic", {"text": "ﬁlled cup"}, NOW) == {"text": "filled cup"}  # the fi ligature


# ------------------------------------------------------------------------------------------- an empty time map
@pytest.mark.parametrize("request_", [
    {"name": "changes", "arguments": {"since": {}}},
    {"name": "history", "arguments": {"label": "mug", "until": {}}},
    {"tool": "changes", "since": {}},
])
def test_an_empty_time_map_is_a_bad_argument_not_an_open_bound(request_):
    """Before: ``"since": {}`` read as "changes at any time"."""
    out = refusal(json.dumps(request_), NAMES)
    assert "must be a time" in out.reason


def test_a_ros_time_of_zero_is_still_an_open_bound():
    got = read(json.dumps({"name": "changes", "arguments": {"since": {"sec": 0, "nanosec": 0}}}))
    assert got == ("changes", {"since": None, "until": NOW}, "")


# ------------------------------------------------------------------------------------ a day of this week by name
DAY = 86400.0
TODAY = NOW - 14.5 * 3600  # Thursday 2026-01-15 00:00 UTC


@pytest.mark.parametrize("question, want", [
    ("did you see the mug on Tuesday", ("was_seen", {"label": "mug", "since": TODAY - 2 * DAY, "until": TODAY - DAY})),
    ("what has changed since Monday", ("changes", {"since": TODAY - 3 * DAY, "until": NOW})),
    ("what was on the table on Tuesday night at 8",
     ("relational_as_of", {"anchor": "table", "relation": "on", "t": TODAY - 2 * DAY + 20 * 3600})),
    ("where was the lamp the day before yesterday at 5pm",
     ("as_of", {"label": "lamp", "t": TODAY - 2 * DAY + 17 * 3600})),
    ("where were the keys on Sunday morning",
     ("history", {"label": "keys", "since": TODAY - 4 * DAY + 5 * 3600, "until": TODAY - 4 * DAY + 12 * 3600})),
    # a verb in the past tense is a word of the past as "was" is (review of the thirteenth round)
    ("what happened on Tuesday", ("changes", {"since": TODAY - 2 * DAY, "until": TODAY - DAY})),
    # yesterday's name is yesterday, as "yesterday" reads
    ("what was on the desk Wednesday at 6 in the evening",
     ("relational_as_of", {"anchor": "desk", "relation": "on", "t": TODAY - DAY + 18 * 3600})),
])
def test_a_named_day_of_this_week_is_that_day(question, want):
    """Before: refused, and "what was on the table Tuesday at 6 in the evening" was read as yesterday's, dropping
    "tuesday" (right only when the day named was yesterday)."""
    assert read(question)[:2] == want


@pytest.mark.parametrize("question, why", [
    ("where was the mug on Thursday", "thursday is today"),  # today's name: today or a week ago?
    ("where was the mug last Tuesday", "this week's or another week's"),
    ("what was on the table Tuesday at 6 yesterday", "more than one day"),
])
def test_a_named_day_that_could_be_two_days_is_refused_as_a_time(question, why):
    out = refusal(question, NAMES)
    assert why in out.reason and out.suggestions


def test_a_plural_day_name_is_no_day():
    """"on Tuesdays" is a habit, not a day: not read as last Tuesday."""
    assert refusal("where is the mug on tuesdays", NAMES).reason == "no supported question has this form"
    assert refusal("where was the mug on tuesdays", NAMES).reason == "no supported question has this form"


@pytest.mark.parametrize("question", [
    "where do I need the mug on saturday", "where is the mug for saturday", "where is the mug on saturday",
    "what is on the table on Tuesday"])
def test_a_day_name_without_a_word_of_the_past_is_refused_as_a_time(question):
    """Review of the thirteenth round: a weekday says no tense; these ask of a day to come (or of no day) and were read
    as last Saturday's history. A word of the past ("was", "did", "since") makes it this week's day, as above."""
    out = refusal(question, NAMES)
    assert out.reason.startswith("I did not understand the time: ") and "could be a day to come" in out.reason


# ------------------------------------------------------------------------------- a time to come in a clause of talk
@pytest.mark.parametrize("question, want", [
    ("where are my keys, I need to leave in like two minutes", ("current", {"label": "keys"})),
    ("mug location pls, heading out in 5 min", ("current", {"label": "mug"})),
])
def test_a_time_to_come_in_talk_leaves_the_question(question, want):
    """Before: "I only know the past and the present" refused the whole question."""
    assert read(question)[:2] == want


@pytest.mark.parametrize("question", [
    "where is the mug, and where will it be in 10 minutes", "where will the mug be in 10 minutes",
    "where is the mug in 2 min",
    # review of the thirteenth round: a clause that is only a time to come dates the question, it is no talk
    "what is on the table, by tomorrow?", "what's on the table; by next week?", "what's on the table? until next week",
    "where's the mug, for tomorrow"])
def test_a_question_of_the_future_stays_refused(question):
    assert refusal(question, NAMES).reason == "I did not understand the time: I only know the past and the present"


# ------------------------------------------------------------------------------------- spans, zones, appearances
@pytest.mark.parametrize("question, since", [
    ("how many times has the mug been moved in the last day and a half", NOW - 36 * 3600),
    ("what changed over the past hour and ten minutes", NOW - 70 * 60),
])
def test_a_unit_without_a_number_then_more_of_the_span_is_one_span(question, since):
    assert read(question)[1]["since"] == since


def test_a_clock_in_utc_is_the_clock():
    assert read("was the laptop on the desk at 09:30 UTC today")[1]["t"] == TODAY + 9.5 * 3600
    assert read("anything within 1 m of x=1 y=2 z=0")[0] == "spatial"  # a "z" coordinate is no zone


def test_the_clock_of_a_named_event_in_oclock():
    assert read("has anyone moved the chair since the 7 o'clock handover")[1]["since"] == TODAY + 7 * 3600


@pytest.mark.parametrize("question, since", [
    ("did anything appear in the past hour", NOW - 3600),
    ("over the past hour, did anything appear that wasn't there before?", NOW - 3600),
    ("has anything new turned up round here today", TODAY),
])
def test_did_anything_appear_asks_for_appearances(question, since):
    assert read(question)[:2] == ("changes", {"since": since, "until": NOW, "kinds": ["appeared", "reappeared"]})


def test_an_agent_memo_header_is_no_part_of_the_question():
    assert read("Agent memo: identify what was in the hall two hours ago.")[:2] == (
        "relational_as_of", {"anchor": "hall", "relation": "in", "t": NOW - 7200})


@pytest.mark.parametrize("question", [
    "Report whether the teddy bear remains at its last known location.", "does the mug still stay in its place",
    "is the lamp still at its last known location"])
def test_remaining_at_its_place_asks_whether_it_is_still_there(question):
    """Before: refused by the rules, and the similarity reader read the first as the current place (a wrong route)."""
    assert read(question)[0] == "is_present"


# ----------------------------------------------------------------------------------- a yes-or-no tag, a stressed place
@pytest.mark.parametrize("question, want", [
    ("keys missing yes/no", ("is_missing", {"label": "keys"})),
    ("the mug on the table, yes or no", ("is_related", {"label": "mug", "relation": "on", "anchor": "table"})),
])
def test_a_yes_or_no_tag_asks_as_a_question_mark_does(question, want):
    assert read(question)[:2] == want


@pytest.mark.parametrize("question", ["keys moved today y n", "keys moved today yes no", "keys moved today Y/N"])
def test_every_tag_normalise_drops_is_read_as_a_yes_or_no_tag(question):
    """Review of the thirteenth round: normalise dropped "yes no" and "y n" but the tag reader knew neither, so
    "keys moved today y n" (read before the tag was dropped) was refused."""
    assert read(question)[:2] == ("did_move", {"label": "keys", "since": TODAY, "until": NOW})


def test_a_yes_or_no_tag_does_not_make_a_bare_thing_a_question():
    """"mug?" asks where the mug is; "mug yes or no" asks nothing a yes or a no answers: refused."""
    assert refusal("mug yes or no", NAMES).suggestions


@pytest.mark.parametrize("question, want", [
    ("is the lamp sitting right next to the desk",
     ("is_related", {"label": "lamp", "relation": "near", "anchor": "desk"})),
    ("what's right under the table", ("relational", {"anchor": "table", "relation": "under"})),
])
def test_right_before_a_place_only_stresses_it(question, want):
    assert read(question)[:2] == want


@pytest.mark.parametrize("question", [
    "which mug is on the right beside the lamp", "is the mug on the right near the lamp",
    "what is on the right by the lamp"])
def test_the_right_is_a_side_not_a_stress(question):
    """Review of the thirteenth round: "right" after "the" names a side, which the memory does not place; dropped as
    a stress, these were read as "on beside the lamp" and answered."""
    assert refusal(question, NAMES).reason == "no supported question has this form"


def test_right_now_is_still_now():
    assert read("where is the mug right now")[:2] == ("current", {"label": "mug"})


@pytest.mark.parametrize("question, want", [
    ("have you seen my keys anywhere", ("current", {"label": "keys"})),
    ("what's the earliest record you hold of the lamp", ("first_seen", {"label": "lamp"})),
    ("the earliest sighting you have of the keys", ("first_seen", {"label": "keys"})),
])
def test_more_forms_of_the_place_and_the_first_sighting(question, want):
    assert read(question)[:2] == want
