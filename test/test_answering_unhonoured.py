"""Issue 13 after heldout27: two readings that took part of a request and dropped the rest, as classes.

An agent line naming an operation and key=value arguments that no reader takes whole (heldout27's A096 was answered
as the current place of 'anchor=living') is refused when its time argument or its named operation is not honoured
(understand._unhonoured); a verb of being somewhere after an unknown name ("how many snowshoes exist ...", A040) is
the question's verb, never part of the name (cues._ONLY_VERBS). None of the sentences below is a line of a question
set; each reading is exact, and each refusal is a Refusal with its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, reading, refusal, understood

from tempomem_ros.core.answering import Names
from tempomem_ros.core.answering.understand import UNHONOURED_TIME, UNHONOURED_TOOL

NAMES = Names(["mug", "keys", "lamp", "sofa", "table", "coffee table"], ["kitchen", "living room", "hall"])


# ------------------------------------------------------------------ a time argument or a named operation dropped
@pytest.mark.parametrize("question, word", [
    # each was read (before) as the current place of an unknown 'anchor=...' or as "where is" now
    ("note: anchor=living room, t_ago_s=1800", "t_ago_s"),
    ("where is the lamp, since_ago_s=3600", "since_ago_s"),
    ("where are the keys? t_ago_s=900", "t_ago_s"),
    ("* recall relational_as_of: relation=near, anchor=living room, t_ago_s=7200", "t_ago_s"),
])
def test_a_time_argument_not_read_refuses_the_whole(question, word):
    assert refusal(question, NAMES).reason == UNHONOURED_TIME.format(word=word)


@pytest.mark.parametrize("question, word", [
    ("- [ ] tempomem relational_before: relation=on, anchor=living room", "relational_before"),
    ("- [ ] tempomem last_seen: relation=on, anchor=living room", "last_seen"),
])
def test_a_named_operation_not_read_refuses_the_whole(question, word):
    assert refusal(question, NAMES).reason == UNHONOURED_TOOL.format(word=word)


def test_a_call_whose_time_and_operation_are_read_is_answered():
    got = understood('tempomem::as_of(label = "mug", t_ago_s = 5400)', NAMES)
    assert (got.operator, got.args, got.unknown) == ("as_of", {"label": "mug", "t": NOW - 5400}, "")


def test_a_tool_name_read_whole_as_another_operator_is_answered():
    # the reader took the call whole (its name is in what it read): a spatial request, not the relation of the alias
    got = understood("objects_near(x=1, y=2, z=0, r=1.5)", NAMES)
    assert (got.operator, got.args, got.unknown) == ("spatial", {"radius": 1.5, "center": [1.0, 2.0, 0.0]}, "")


def test_prose_without_arguments_is_unchanged():
    got = understood("where is the mug", NAMES)
    assert (got.operator, got.args, got.unknown) == ("current", {"label": "mug"}, "")


# ------------------------------------------------------------------ a verb of being after an unknown name
@pytest.mark.parametrize("question, label", [
    ("How many pitons remain in your records?", "piton"),
    ("How many crampons existed in your records?", "crampon"),
    ("how many tent pegs exist in your records", "tent peg"),
    ("How many carabiners lingered in your records?", "carabiner"),
])
def test_a_verb_after_an_unknown_name_is_not_its_name(question, label):
    assert reading(question, NAMES) == ("count_objects", {"label": label}, "label")


def test_a_verb_after_a_known_name_and_a_modifier_before_one_are_unchanged():
    got = understood("how many mugs exist in your records", NAMES)
    assert (got.operator, got.args, got.unknown) == ("count_objects", {"label": "mug"}, "")
    got = understood("How many remaining snowshoes are there?", NAMES)  # after a determiner: still a modifier
    assert (got.operator, got.args, got.unknown) == ("count_objects", {"label": "remaining snowshoe"}, "label")
