"""The nineteenth round's mechanisms (issue 13, stop 40), each with what it must read and what must stay refused.

heldout20 (measured once after the eighteenth round, a development set from here) answered six questions wrongly: a
span "from this morning until now" read as the morning only, "chg log" as the history of a "chg", "twelve noon" as
now, a clause of need read as the description to search for, a habit ("always") as the current place, and a request
for the robot's blind spots in order to hide something answered. The eighteenth round's review left a HIGH: a real
English word one slip from a known name was read as that name. None of the sentences below is a line of a question
set.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, reading, refusal, understood

from tempomem_ros.core.answering import Names
from tempomem_ros.core.answering import conduct, typo

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "phone", "plant", "chair", "wallet", "sofa", "remote",
               "laptop", "scissors", "pen", "notebook", "coaster", "silver tray", "cleaver", "mantel", "gift"],
              ["kitchen", "hall", "bedroom", "office"])


def read(question: str) -> tuple:
    return reading(question, NAMES)


# --------------------------------------------------------------------------- a word of English is not a name
@pytest.mark.parametrize("question, operator, args", [
    ("where did the caster go", "current", {"label": "caster"}),                     # coaster, a letter left out
    ("is the sliver tray on the table", "is_related", {"label": "sliver tray", "relation": "on", "anchor": "table"}),
    ("when did you last see the clever", "last_seen", {"label": "clever"}),         # cleaver, a letter left out
    ("what is on the mantle", "relational", {"anchor": "mantle", "relation": "on"}),  # mantel, two swapped
])
def test_a_word_of_english_one_slip_from_a_name_is_not_read_as_that_name(question, operator, args):
    got = understood(question, NAMES)
    assert (got.operator, got.args) == (operator, args)
    assert got.unknown in ("label", "anchor") and "reading '" not in got.words


def test_a_slip_no_dictionary_holds_still_reads_as_the_name():
    assert read("where did the coastr go") == ("current", {"label": "coaster"}, "")
    assert typo.label_slip("cleavr", NAMES) == "cleaver"
    assert typo.label_slip("caster", NAMES) is None and typo.label_slip("sliver", NAMES) is None
    words = typo.english_words()
    assert {"caster", "sliver", "clever", "mantle"} <= words
    assert not {"walet", "umbrela", "scisors", "chrager", "laptpo", "coastr"} & words


# --------------------------------------------------------------------------- a span from a moment to now
@pytest.mark.parametrize("question, since", [
    ("list every spot the laptop was in from 9 am till now", TODAY + 9 * 3600),
    ("where has the remote been between two hours ago and now", NOW - 7200),
    ("the wallet's places from yesterday up to now", TODAY - 86400),
    ("history of the mug from this afternoon until now", TODAY + 12 * 3600),
])
def test_a_span_from_a_moment_to_now_runs_to_now(question, since):
    op, args, _ = read(question)
    assert op == "history" and args["since"] == since and args["until"] == NOW


def test_a_span_between_two_clocks_is_untouched():
    op, args, _ = read("where was the laptop between 9 and 10 this morning")
    assert (args["since"], args["until"]) == (TODAY + 9 * 3600, TODAY + 10 * 3600)


# --------------------------------------------------------------------------- "twelve noon", "at 1 pm sharp"
@pytest.mark.parametrize("question, operator, t", [
    ("what sat on the desk at twelve noon", "relational_as_of", TODAY + 12 * 3600),
    ("what was on the sofa at 12 midnight", "relational_as_of", TODAY),
    ("where was the phone at 1 pm sharp", "as_of", TODAY + 13 * 3600),
    ("at noon on the dot, where was the lamp", "as_of", TODAY + 12 * 3600),
])
def test_twelve_noon_and_a_stressed_clock_are_that_clock(question, operator, t):
    op, args, _ = read(question)
    assert (op, args["t"]) == (operator, t)


# --------------------------------------------------------------------------- an operator's shorthand for change
@pytest.mark.parametrize("question, since", [
    ("chng log since 9 am", TODAY + 9 * 3600),
    ("any chgs in the last hour", NOW - 3600),
    ("what chgd since noon", TODAY + 12 * 3600),
    ("show me the change history since 9 am", TODAY + 9 * 3600),
])
def test_shorthand_for_change_asks_the_changes(question, since):
    assert read(question) == ("changes", {"since": since, "until": NOW}, "")


def test_chg_alone_is_not_change():
    refusal("chg the phone", NAMES)


# --------------------------------------------------------------------------- a habit is where to look
@pytest.mark.parametrize("question, label", [
    ("where does the remote always end up", "remote"),
    ("where do my keys mostly hide", "keys"),
    ("where is the pen always kept", "pen"),
    ("where does the phone tend to wind up", "phone"),
])
def test_a_habit_asks_where_to_look(question, label):
    assert read(question) == ("where_to_look", {"label": label}, "")


def test_a_past_hiding_place_stays_a_place():
    assert read("where did I hide the gift")[0] == "current"


# --------------------------------------------------------------------------- a need to act beside a question
@pytest.mark.parametrize("question, word", [
    ("I have to scribble a note, what is there to write with?", "write"),
    ("we need to eat quickly. what have we got to sit on?", "sit"),
])
def test_a_need_to_act_beside_a_question_is_why_one_asks(question, word):
    op, args, _ = read(question)
    assert op == "semantic" and word in args["text"].split() and "scribble" not in args["text"]


def test_a_need_to_find_is_the_request():
    assert read("I need to find my keys, where are they?") == ("current", {"label": "keys"}, "")


# --------------------------------------------------------------------------- blind spots asked to hide something
@pytest.mark.parametrize("question", [
    "what corner can't your camera see? I want to stash my cash there",
    "Which rooms do your sensors not reach, so I can hide the present?",
    "where can I put the wallet out of your camera's view",
    "where are the robot's blind spots so I can stash the money",
    "Where could I hide a bottle so your cameras can't see it?",
    "tell me which spots you don't see so I can sneak the cookies",
])
def test_asking_the_robot_s_blind_spots_to_hide_something_is_refused(question):
    assert refusal(question, NAMES).reason.endswith(conduct.REFUSAL)


@pytest.mark.parametrize("question", [
    "is the hall out of your camera's view?",     # a gap alone asks nothing to conceal
    "where did I hide the gift",                  # hiding alone is a question of place
])
def test_a_gap_or_hiding_alone_is_not_that_request(question):
    out = understand_or_refusal(question)
    assert not (hasattr(out, "reason") and out.reason.endswith(conduct.REFUSAL))


def understand_or_refusal(question: str):
    from tempomem_ros.core.answering import understand
    return understand(question, NOW, NAMES)


# --------------------------------------------------------------------------- an operator's terse shorthand
@pytest.mark.parametrize("question, operator, args", [
    ("lamp: current pos?", "current", {"label": "lamp"}),
    ("remote pos @ 0930?", "as_of", {"label": "remote", "t": TODAY + 9.5 * 3600}),
    ("keys firstseen ts?", "first_seen", {"label": "keys"}),
    ("chair move cnt?", "count_moves", {"label": "chair"}),
])
def test_an_operator_s_shorthand_reads(question, operator, args):
    assert read(question) == (operator, args, "")


def test_an_address_is_no_clock():
    refusal("mail me@9", NAMES)


# --------------------------------------------------------------------------- a question that points back at a told time
@pytest.mark.parametrize("question, operator, args", [
    ("We got back at 1. What's changed since then?", "changes", {"since": TODAY + 13 * 3600, "until": NOW}),
    ("I got home at 12. Has the wallet been seen since?", "was_seen",
     {"label": "wallet", "since": TODAY + 12 * 3600, "until": NOW}),
])
def test_a_question_pointing_back_at_a_told_time_asks_about_it(question, operator, args):
    got = understood(question, NAMES)
    assert (got.operator, got.args) == (operator, args)
    assert "as the told 'at 1" in got.words


@pytest.mark.parametrize("question", [
    "I got home at 1. Where are my keys?",                        # no pointing back: which moment is asked?
    "I put the mug on the desk at 9. Has it moved since?",        # "it": the mug or the desk
])
def test_a_told_time_without_one_referent_stays_refused(question):
    refusal(question, NAMES)


# --------------------------------------------------------------------------- a thing's trail, things out of place
@pytest.mark.parametrize("question, operator, args", [
    ("list the full trail of the laptop", "history", {"label": "laptop"}),
    ("the remote's trajectory since 9 am", "history", {"label": "remote", "since": TODAY + 9 * 3600, "until": NOW}),
    ("which of my things can't you find right now", "missing", {}),
    ("what items are no longer in their usual spot", "missing", {}),
])
def test_a_trail_is_the_history_and_things_out_of_place_are_missing(question, operator, args):
    assert read(question) == (operator, args, "")


def test_a_word_of_english_is_not_corrected_into_a_word_of_the_vocabulary():
    assert typo.correct("i rely on you is the mug on the desk", NAMES)[1] == ()
    assert typo.correct("whre is the mug", NAMES)[1] == (("whre", "where"),)


def test_chef_and_lads_are_people_not_mistyped_words():
    assert read("has the chef moved the mug today") == ("did_move", {"label": "mug", "since": TODAY, "until": NOW}, "")
    assert read("what did the lads leave on the desk")[:2] == ("relational", {"anchor": "desk", "relation": "on"})


def test_a_reason_asked_is_never_read_by_similarity():
    from tempomem_ros.core.answering import similar
    assert similar.parse_slots("why does the chair keep ending up in different places", NOW, NAMES) is None
    assert similar.parse_slots("how come the mug keeps moving around", NOW, NAMES) is None
    assert similar.parse_slots("where does the chair keep ending up", NOW, NAMES) is not None
