"""The understander's general mechanisms of issue 13's third round, each with what it must and must not do.

The second held-out set (bench/questions/questions_heldout2.txt, now a development set) was refused for classes
of phrasing, not for single sentences: lead-ins before an embedded question, a thing or a time put in front,
noun phrases without a verb, formal imperatives of agents, other verbs and nouns of the operators, non-native
word order, time expressions, "what's" = "what has"; and its five wrong routes came from the semantic
operator's open description slot and from a request to fetch answered as a search. Each class is one
mechanism here (normalise.py, word_order.py, the candidates of understand.py, the vocabulary of operators.py,
timeexpr.py), tested on sentences that are not in the question sets.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, YESTERDAY, understood, refusal

from tempomem_ros.core.answering import Names, Refusal, Understanding, understand
from tempomem_ros.core.answering.normalise import normalise
from tempomem_ros.core.answering.slots import resolve
from tempomem_ros.core.answering.timeexpr import extract
from tempomem_ros.core.answering.understand import candidates
from tempomem_ros.core.answering.word_order import join_colon, join_fronted, reorder

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "sofa", "remote", "chair", "plant", "wallet", "charger",
               "phone", "bowl", "laptop", "water bottle", "book"], ["kitchen", "hall"])


def u(question: str) -> Understanding:
    return understood(question, NAMES)


def refused(question: str) -> Refusal:
    return refusal(question, NAMES)


# ------------------------------------------------------------------------------------------ lead-in stripper
@pytest.mark.parametrize("raw, clean", [
    ("would you mind telling me where the lamp is", "where is the lamp"),
    ("have you got any idea where the keys are?", "where are the keys"),
    ("any clue where the remote went", "where did the remote go"),
    ("do you remember where I left my wallet", "where did i leave my wallet"),
    ("show me where the bowl is", "where is the bowl"),
    ("suggest where to look for the charger", "where should i look for the charger"),
    ("I was wondering when you last saw the phone", "when did you last see the phone"),
    ("ugh, where is the mug", "where is the mug"),
])
def test_lead_ins_leave_the_embedded_question_in_direct_order(raw, clean):
    assert normalise(raw) == clean


def test_a_telling_verb_is_stripped_only_before_a_question_word():
    assert normalise("show me the mug") == "show me the mug"  # an object, not an embedded question
    assert normalise("show me a joke") == "show me a joke"
    assert u("show me where the mug is").operator == "current"


# ------------------------------------------------------------------------------------------ fronted topics
@pytest.mark.parametrize("raw, clean", [
    ("the lamp, where is it", "where is the lamp"),
    ("my keys - have you seen them?", "have you seen my keys"),
    ("the sofa, did it move today", "did the sofa move today"),
    ("I need the remote, where is it?", "where is the remote"),
    ("I can't find my wallet anywhere, where could it be", "where could my wallet be"),
    ("my phone is missing, where might it be", "where might my phone be"),
    ("sightings of the mug, how many", "how many sightings of the mug"),
])
def test_a_fronted_thing_takes_the_place_of_its_pronoun(raw, clean):
    assert normalise(raw) == clean


def test_a_fronted_part_that_is_not_a_thing_stays_where_it_is():
    assert join_fronted("where is the mug", "is it on the table") == "where is the mug is it on the table"
    # not a thing; since the fourth round a fronted subordinate clause goes after the question (and the question,
    # naming no thing, is still refused: test_answering_construction.py)
    assert join_fronted("before it moved", "where was it") == "where was it before it moved"
    assert join_fronted("the mug", "where is the lamp") == "the mug where is the lamp"  # no pronoun to replace
    assert isinstance(understand("the mug, where is the lamp", NOW, NAMES), Refusal)


def test_colon_joins_the_question_side_to_the_thing_side():
    assert join_colon("last seen", "charger") == "last seen of charger"
    assert join_colon("scooter", "all past positions") == "all past positions of scooter"
    assert join_colon("the keys", "where are they") == "where are the keys"
    assert join_colon("note", "buy milk") == "note buy milk"  # neither side asks: left as it was
    assert (u("history: keys").operator, u("history: keys").args) == ("history", {"label": "keys"})
    assert u("last seen: lamp").operator == "last_seen"


def test_a_fronted_time_or_earlier_moves_to_the_end():
    got = u("during the last 2 hours, where has the mug been")
    assert (got.operator, got.args) == ("history", {"label": "mug", "since": NOW - 7200, "until": NOW})
    got = u("since yesterday, has the lamp been moved")
    assert (got.operator, got.args) == ("did_move", {"label": "lamp", "since": YESTERDAY, "until": NOW})
    got = u("earlier, what was under the table")
    assert (got.operator, got.args) == ("relational_before", {"relation": "under", "anchor": "table"})
    assert candidates("@t where was the mug") == ["where was the mug @t"]


# ------------------------------------------------------------------------ noun phrases and formal imperatives
@pytest.mark.parametrize("question, operator, args", [
    ("history of the lamp", "history", {"label": "lamp"}),
    ("lamp movement history", "history", {"label": "lamp"}),
    ("past positions of the mug", "history", {"label": "mug"}),
    ("last sighting of the remote", "last_seen", {"label": "remote"}),
    ("first sighting of the remote", "first_seen", {"label": "remote"}),
    ("number of mugs", "count_objects", {"label": "mug"}),
    ("number of times the chair moved", "count_moves", {"label": "chair"}),
    ("movement count for the chair", "count_moves", {"label": "chair"}),
    ("observation count for the plant", "count_sightings", {"label": "plant"}),
    ("former position of the desk", "previous", {"label": "desk"}),
    ("desk previous location", "previous", {"label": "desk"}),
    ("present location of the wallet", "current", {"label": "wallet"}),
    ("position of the wallet 10 minutes ago", "as_of", {"label": "wallet", "t": NOW - 600}),
    ("things under the sofa", "relational", {"relation": "under", "anchor": "sofa"}),
    ("items in the hall 1 hour ago", "relational_as_of", {"relation": "in", "anchor": "hall", "t": NOW - 3600}),
    ("missing items", "missing", {}),
])
def test_noun_phrase_forms(question, operator, args):
    got = u(question)
    assert (got.operator, got.args) == (operator, args)


@pytest.mark.parametrize("question, operator, args", [
    ("Report the present location of the lamp.", "current", {"label": "lamp"}),
    ("Provide the former location of the chair.", "previous", {"label": "chair"}),
    ("Retrieve the complete movement history of the mug.", "history", {"label": "mug"}),
    ("Return the number of times the desk has been relocated.", "count_moves", {"label": "desk"}),
    ("Enumerate all items currently lying on the table.", "relational", {"relation": "on", "anchor": "table"}),
    ("Identify the most recent observation of the phone.", "last_seen", {"label": "phone"}),
    ("State the position of the bowl as of 20 minutes ago.", "as_of", {"label": "bowl", "t": NOW - 1200}),
    ("Summarise all changes that took place during the last 30 minutes.", "changes",
     {"since": NOW - 1800, "until": NOW}),
    ("Check whether the mug is on the desk.", "is_related", {"label": "mug", "relation": "on", "anchor": "desk"}),
])
def test_formal_imperatives_are_read_as_the_noun_phrase_they_ask_for(question, operator, args):
    got = u(question)
    assert (got.operator, got.args) == (operator, args)


def test_a_question_a_form_takes_as_it_is_never_changes_its_reading():
    # "list everything within 1 m of the mug" is a spatial form as it is: the stripped reading is not tried first
    assert candidates("list the changes")[0] == "list the changes"
    assert candidates("report the location of the mug") == ["report the location of the mug",
                                                            "the location of the mug"]
    assert candidates("what is the location of the mug") == ["what is the location of the mug",
                                                             "the location of the mug"]


# ------------------------------------------------------------------------------------ synonyms of operators
@pytest.mark.parametrize("question, operator", [
    ("has the chair been relocated", "did_move"), ("was the desk repositioned today", "did_move"),
    ("how often has the lamp been shifted", "count_moves"), ("how many times was the mug spotted", "count_sightings"),
    ("how many times has the mug been detected", "count_sightings"),
    ("when was the remote initially observed", "first_seen"), ("when was the remote observed last", "last_seen"),
    ("has the keys been detected in the last hour", "was_seen"),
    ("how long has the plant remained at its present spot", "duration"),
    ("what is the current spot of the phone", "current"),
])
def test_synonyms_of_verbs_and_nouns(question, operator):
    assert u(question).operator == operator


# ------------------------------------------------------------------------------------------ non-native order
@pytest.mark.parametrize("raw, want", [
    ("where the mug is", "where is the mug"),
    ("where i should look for the keys", "where should i look for the keys"),
    ("how many times the lamp was moved", "how many times was the lamp moved"),
    ("when you have seen the phone last time", "when have you seen the phone last time"),
    ("when first you saw the bowl", "when did you first see the bowl"),
    ("how many mugs there are", "how many mugs are there"),
    ("how much times the desk was moved", "how many times was the desk moved"),
    ("where is staying the sofa", "where is the sofa"),
    ("how long ago did you see the mug", "how long ago did you see the mug"),  # direct already: unchanged
    ("where all has the mug been", "where all has the mug been"),
])
def test_reorder_embedded_and_non_native(raw, want):
    assert reorder(raw, asked=False) == want


def test_statement_order_is_a_question_only_with_a_question_mark():
    assert reorder("the mug is on the table", asked=True) == "is the mug on the table"
    assert reorder("the mug is on the table", asked=False) == "the mug is on the table"
    assert reorder("the lamp moved", asked=True) == "did the lamp move"
    assert reorder("mug on table", asked=True) == "is mug on table"
    assert reorder("anything on the table", asked=True) == "anything on the table"  # not a thing: relational
    assert u("the remote is on the sofa?").operator == "is_related"
    assert isinstance(understand("the remote is on the sofa", NOW, NAMES), Refusal)
    assert u("kettle near sofa?").unknown == "label"


# --------------------------------------------------------------------------------------------- time expressions
@pytest.mark.parametrize("text, kind, t, since, until", [
    ("where was the mug 40 minutes back", "point", NOW - 2400, None, None),
    ("where was the mug before two hours", "point", NOW - 7200, None, None),
    ("where was the mug 5 minutes earlier", "point", NOW - 300, None, None),
    ("where was the mug at 8 this morning", "point", TODAY + 8 * 3600, None, None),
    ("where was the mug at 9 last night", "point", YESTERDAY + 21 * 3600, None, None),
    ("where was the mug this afternoon at 1", "point", TODAY + 13 * 3600, None, None),
    ("where was the mug yesterday evening at 7", "point", YESTERDAY + 19 * 3600, None, None),
    ("where was the mug at half past eleven", "point", TODAY + 11.5 * 3600, None, None),
    ("where was the mug at a quarter to two", "point", TODAY + 13.75 * 3600, None, None),  # the latest past 1:45
    ("where was the mug at twenty past 3", "point", TODAY + 3 * 3600 + 1200, None, None),  # 15:20 is to come
    ("where was the mug at quarter past nine pm", "point", YESTERDAY + 21.25 * 3600, None, None),
    ("what changed from an hour ago", "window", None, NOW - 3600, NOW),
    ("changes last 15 min", "window", None, NOW - 900, NOW),
    ("what moved in last half hour", "window", None, NOW - 1800, NOW),
    ("what appeared after 10 am", "window", None, TODAY + 10 * 3600, NOW),
])
def test_time_expressions(text, kind, t, since, until):
    _, found = extract(normalise(text), NOW)
    assert [(f.kind, f.t, f.since, f.until) for f in found] == [(kind, t, since, until)]


def test_a_word_clock_leaves_no_number_word_in_the_slot():
    out, _ = extract(normalise("where was the mug at half past ten"), NOW)
    assert out == "where was the mug @t"
    assert u("where was the mug at half past ten").args == {"label": "mug", "t": TODAY + 10.5 * 3600}


def test_a_clock_and_its_part_of_the_day_are_one_time():
    got = u("was the mug on the desk this morning at 9")
    assert got.args == {"label": "mug", "relation": "on", "anchor": "desk", "t": TODAY + 9 * 3600}
    assert "still to come" in refused("where was the mug at 10 this evening").reason


def test_before_a_clock_is_not_a_span():
    out, found = extract(normalise("where was the mug before 9:30"), NOW)
    assert (found, out) == ([], "where was the mug before 9:30")
    assert isinstance(understand("where was the mug before 9:30", NOW, NAMES), Refusal)


# ------------------------------------------------------------------------------------------- what's = what has
def test_whats_before_a_participle_is_what_has():
    assert normalise("what's changed since noon") == "what has changed since noon"
    assert normalise("what's been put on the desk") == "what has been put on the desk"
    assert normalise("what's on the desk") == "what is on the desk"
    assert normalise("what's new") == "what is new"
    got = u("what's been moved in the last hour")
    assert (got.operator, got.args) == ("changes", {"kinds": ["moved"], "since": NOW - 3600, "until": NOW})


# ---------------------------------------------------------------------------------------- wrong routes refused
@pytest.mark.parametrize("question", [
    "bring me the remote", "can you bring me my keys", "fetch the charger", "please turn on the lamp",
    "switch off the lamp", "clean the table", "could you tidy up the kitchen", "move the chair to the hall",
    "give me the mug", "get me my wallet", "hand me the phone", "water the plant", "open the door",
])
def test_requests_for_actions_are_refused_as_actions(question):
    assert "action" in refused(question).reason


@pytest.mark.parametrize("question, operator", [
    ("move count for the lamp", "count_moves"),  # "move" followed by a noun is no request
    ("give me the history of the lamp", "history"),  # a hand-over of what the memory tells
    ("get me something warm to wear", "semantic"),
    ("give me something to put flowers in", "semantic"),
    ("show me the mug", "current"),
])
def test_words_of_requests_that_ask_something_are_answered(question, operator):
    assert u(question).operator == operator


@pytest.mark.parametrize("question", [
    "i need my charger where is it",  # read as written, without the comma, the description holds a question
    "show me where is the mug when it moved",
    "find all places of the unicorn",
    "show the history of the lamp and the mug",
    "i want the time the mug was first seen on the table",
    "what can i use to see where the mug went",
])
def test_semantic_search_never_takes_another_operators_question(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal) or out.operator != "semantic", (question, out)


def test_semantic_search_keeps_descriptions():
    assert u("find something to sit on").args == {"text": "something to sit on"}
    assert u("Identify an object suitable for carrying books.").args == {"text": "suitable for carrying books"}
    assert u("what could hold my coats").operator == "semantic"
    assert u("where could I lie down").operator == "semantic"
    assert u("where could I have left the keys").operator == "where_to_look"


# ------------------------------------------------------------------------------------------------------ slots
def test_an_unknown_thing_drops_a_trailing_participle_and_shows_it():
    thing = resolve("the knives kept", NAMES)
    assert (thing.label, thing.known, thing.ignored) == ("knife", False, ("kept",))
    got = u("where were the knives kept before")
    assert (got.operator, got.args, got.unknown) == ("previous", {"label": "knife"}, "label")
    assert "kept" in got.words


def test_words_of_asking_are_never_part_of_a_thing():
    assert resolve("times the book moved", NAMES) is None
    assert resolve("the lamp history", NAMES) is None
    assert u("number of times the book moved").operator == "count_moves"
