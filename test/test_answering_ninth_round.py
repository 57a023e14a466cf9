"""The ninth round's general rules (issue 13), each with what it must read and what must stay refused or unchanged.

heldout12 (now a development set) had four wrong routes; each rule below is a class of them, not its sentence:
a person is never an unknown thing, a span "over time" asks for the history, "since" with a question word of time asks
since when, being "about" idly is no move. None of the sentences below is a line of a question set.
"""

from __future__ import annotations

import pytest
from answering_helpers import refusal, understood

from tempomem_ros.core.answering import Names
from tempomem_ros.core.answering.normalise import normalise
from tempomem_ros.core.answering.slots import is_person, resolve

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "sofa", "remote", "chair", "plant", "wallet", "charger",
               "phone", "laptop", "water bottle", "bed", "baby monitor", "person"], ["kitchen", "hall", "office"])


def u(question: str):
    return understood(question, NAMES)


def refused(question: str):
    return refusal(question, NAMES)


# ------------------------------------------------------------------------------------ people are not things
@pytest.mark.parametrize("question", ["where is my wife", "where did the nurse go", "where are the kids",
                                      "where's the plumber", "where is the babysitter now", "where are my flatmates"])
def test_a_person_the_memory_has_no_label_for_is_refused_with_suggestions(question):
    r = refused(question)
    assert r.reason == "no supported question has this form"
    assert len(r.suggestions) == 3


def test_a_person_word_only_refuses_an_unknown_head():
    assert is_person("husband") and is_person("nurses") and not is_person("monitor")
    assert resolve("my husband", NAMES) is None
    assert resolve("the baby monitor", NAMES).label == "baby monitor"  # a known label holding a person word
    got = u("where is the person")  # a label the memory knows is answered
    assert (got.operator, got.args, got.unknown) == ("current", {"label": "person"}, "")
    got = u("where is my passport")  # an unknown thing stays an unknown thing
    assert (got.operator, got.args, got.unknown) == ("current", {"label": "passport"}, "label")
    got = u("where is my husband's phone")  # an owner before the thing is no part of it
    assert (got.operator, got.args) == ("current", {"label": "phone"})


# ------------------------------------------------------------------------------------ a span over time is history
@pytest.mark.parametrize("question", ["where has the lamp been over time", "where has the lamp been throughout the week",
                                      "show me where the lamp has been across the days"])
def test_over_time_asks_for_the_history(question):
    got = u(question)
    assert (got.operator, got.args) == ("history", {"label": "lamp"})


def test_where_without_a_span_stays_the_current_place():
    got = u("where is the lamp")
    assert (got.operator, got.args) == ("current", {"label": "lamp"})


# ------------------------------------------------------------------------------------ since what time
@pytest.mark.parametrize("question", ["since what time has the charger been in its current spot",
                                      "since which hour has the charger been there",
                                      "since what point in time has the charger been at its present location"])
def test_since_a_question_word_of_time_is_since_when_it_stands_there(question):
    got = u(question)
    assert (got.operator, got.args) == ("duration", {"label": "charger"})


def test_since_what_time_is_normalised_only_before_a_word_of_time():
    assert normalise("since what time has the mug been there") == "since when has the mug been there"
    assert normalise("since which day has the mug been there") == "since when has the mug been there"
    assert normalise("what changed since what you saw at 9") == "what changed since what you saw at 9"


def test_since_when_known_stays_the_first_sighting():
    got = u("since when have you known the charger")
    assert (got.operator, got.args) == ("first_seen", {"label": "charger"})


# ------------------------------------------------------------------------------------ being about is no move
@pytest.mark.parametrize("question", ["is the water bottle still knocking about", "is the remote still kicking around",
                                      "are my keys still floating about"])
def test_still_knocking_about_asks_whether_it_is_present(question):
    got = u(question)
    assert got.operator == "is_present"
    assert got.operator != "did_move"


def test_a_verb_of_knocking_without_about_still_moves():
    got = u("did someone knock the lamp over")
    assert got.operator != "is_present"
    got = u("has the lamp been knocked")
    assert (got.operator, got.args) == ("did_move", {"label": "lamp"})
