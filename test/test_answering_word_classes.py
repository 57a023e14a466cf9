"""The sixth round of issue 13: words by class (answering/lexicon.py), clauses of events and reasons as talk
(answering/events.py), whole places, planner headers, a few time forms. Each rule with what it must read and what
must stay refused. The questions here are variants written for the rules, not lines of the question sets."""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, YESTERDAY, refusal, understood

from tempomem_ros.core.answering import Names, lexicon
from tempomem_ros.core.answering import events, timeexpr
from tempomem_ros.core.answering.operators import NOT_A_DESCRIPTION

NAMES = Names(["mug", "keys", "table", "coffee table", "desk", "shelf", "cabinet", "lamp", "remote", "laptop",
               "water bottle", "chair", "phone", "bowl", "sofa", "bed", "wallet", "umbrella", "glasses"],
              ["kitchen", "living room", "hall"])
WITH_STOREROOM = Names(["mug", "football"], ["storeroom"])


def reading(question: str, names: Names = NAMES) -> tuple[str, dict]:
    got = understood(question, names)
    return got.operator, got.args


# --------------------------------------------------------------------------------------- the classes
def test_inflections_of_a_base_form():
    assert lexicon.inflections("shove") == {"shove", "shoves", "shoved", "shoving"}
    assert lexicon.inflections("tally") == {"tally", "tallies", "tallied", "tallying"}
    assert lexicon.inflections("haul") == {"haul", "hauls", "hauled", "hauling"}
    assert lexicon.inflections("see") == {"see", "sees", "saw", "seen", "seeing"}
    assert lexicon.inflections("catch") == {"catch", "catches", "caught", "catching"}


def test_a_verb_of_putting_is_no_verb_of_moving():
    assert "dumped" in lexicon.PLACE_VERBS and "dumped" not in lexicon.cue_words()
    assert lexicon.cue_words()["hauled"] == "MOVE" and lexicon.cue_words()["lugging"] == "MOVE"
    assert "shoved" not in lexicon.cue_words()  # "where did I shove my keys" asks where they are


@pytest.mark.parametrize("question,op,args", [
    # moving verbs of the class, in forms no earlier round listed
    ("did somebody haul the chair off", "did_move", {"label": "chair"}),
    ("how many times has the sofa been lugged about", "count_moves", {"label": "sofa"}),
    # putting verbs: where it is
    ("where did I dump my keys", "current", {"label": "keys"}),
    ("where did I plonk the remote", "current", {"label": "remote"}),
    ("where did I put my wallet down", "current", {"label": "wallet"}),
    # counting, seeing, searching, losing
    ("tally up the mugs", "count_objects", {"label": "mug"}),
    ("tally up my scores", "count_objects", {"label": "score"}),  # an unknown thing: "I don't know any score"
    ("on how many occasions did you glimpse the lamp", "count_sightings", {"label": "lamp"}),
    ("how many times did the robot pick out the umbrella", "count_sightings", {"label": "umbrella"}),
    ("where should I hunt for my glasses", "where_to_look", {"label": "glasses"}),
    ("my wallet has gone walkabout, is it missing", "is_missing", {"label": "wallet"}),
    # asking, planner and talk words are glue
    ("itemise everything on the shelf", "relational", {"anchor": "shelf", "relation": "on"}),
    ("obtain current position of the laptop", "current", {"label": "laptop"}),
    ("where is my phone, genius", "current", {"label": "phone"}),
    ("what new gear is on the desk", "relational", {"anchor": "desk", "relation": "on"}),
    ("how long has the lamp been gathering dust there", "duration", {"label": "lamp"}),
    ("first sighting of the bowl, which day was that", "first_seen", {"label": "bowl"}),
])
def test_class_words_read(question, op, args):
    assert reading(question) == (op, args)


def test_a_class_word_inside_a_noun_phrase_stays_a_noun():
    # "stick" is a verb of putting and "cart" one of moving; after a word no class took they name a thing
    assert reading("where did dad leave his walking stick") == ("current", {"label": "walking stick"})
    assert reading("where is the medicine cart") == ("current", {"label": "medicine cart"})
    assert reading("the step stool, where is it") == ("current", {"label": "step stool"})


@pytest.mark.parametrize("question", [
    "compute the square root of 2",
    "rank the best restaurants near the kitchen",
    "Dear, I love you",
    "what is the weather in the kitchen, dear",
    "hello genius, what's the capital of France",
    "dump the keys on the table",               # an action
    "fetch the mug",
    "how many occasions",
    # "Is there anything under my bed dear I heard a noise" is read since stop 49 (what is under the bed, the second
    # sentence talk: heldout9's z108 expects it so): test_answering_twentyninth_round.py
])
def test_class_words_do_not_open_what_must_stay_refused(question):
    refusal(question, NAMES)


def test_words_of_talk_keep_a_question_out_of_semantic_search():
    assert {"dear", "genius", "spot", "been"} <= NOT_A_DESCRIPTION
    assert reading("show every spot the remote has been") == ("history", {"label": "remote"})


# ------------------------------------------------------------------------------------- event clauses
def test_an_event_clause_with_the_only_time_gives_its_time():
    assert events.rewrite("where was the mug when I arrived at 10 this morning", NOW) == \
        "where was the mug at 10 this morning"
    assert events.rewrite("anything moved since my shift started at 7 last night", NOW) == \
        "anything moved since at 7 last night"
    assert events.rewrite("how many times has the lamp moved since practice started at noon", NOW) == \
        "how many times has the lamp moved since at noon"
    assert reading("where was the mug when I arrived at 10 this morning") == (
        "as_of", {"label": "mug", "t": TODAY + 10 * 3600})
    assert reading("what moved since my shift began at 7 last night") == (
        "changes", {"since": YESTERDAY + 19 * 3600, "until": NOW, "kinds": ["moved"]})
    assert reading("how many times was the chair moved after the guests left at noon") == (
        "count_moves", {"label": "chair", "since": TODAY + 12 * 3600, "until": NOW})


def test_an_event_clause_beside_another_time_is_talk():
    assert events.rewrite("where was the remote yesterday at 5 pm, before the guests checked out", NOW) == \
        "where was the remote yesterday at 5 pm"
    assert reading("where was the laptop at 8 pm yesterday, when the alarm went off") == (
        "as_of", {"label": "laptop", "t": YESTERDAY + 20 * 3600})
    # an event named by a noun: talk beside a time
    assert reading("where were my keys ten minutes ago, before the meeting") == (
        "as_of", {"label": "keys", "t": NOW - 600})
    assert reading("what was on the table at noon, before the party") == (
        "relational_as_of", {"anchor": "table", "relation": "on", "t": TODAY + 12 * 3600})


def test_an_event_clause_without_any_time_changes_nothing():
    q = "where was the lamp before the kids dragged it off"
    assert events.rewrite(q, NOW) == q
    assert reading(q) == ("previous", {"label": "lamp"})
    refusal("where was the mug when the guests arrived", NAMES)  # no time anywhere: no guess at one
    refusal("what did the kids break before the party", NAMES)


def test_a_place_after_an_event_is_no_guess():
    q = "where was the mug after I moved it at 10"
    assert events.rewrite(q, NOW) == q
    refusal(q, NAMES)


def test_two_event_clauses_or_a_future_stay_refused():
    refusal("where will the keys be when I arrive at 10", NAMES)
    refusal("where was the mug when I arrived at 10 and when I left at 11", NAMES)


def test_a_clause_of_reason_in_the_present_is_talk():
    assert events.rewrite("what is inside the cabinet now that the guests are gone", NOW) == \
        "what is inside the cabinet"
    assert reading("where was my wallet an hour ago, since it's clearly not there now") == (
        "as_of", {"label": "wallet", "t": NOW - 3600})
    # "since" with a past verb is a time, not a reason: left to the time rules
    assert events.rewrite("where has the mug been since it was moved", NOW) == \
        "where has the mug been since it was moved"


# ---------------------------------------------------------------------------- places, headers, times
def test_a_whole_place_is_dropped_unless_the_memory_knows_it():
    assert reading("how many chairs are in the property") == ("count_objects", {"label": "chair"})
    assert reading("confirm the lamp is still present on the premises") == ("is_present", {"label": "lamp"})
    assert reading("what changed overnight on the ward") == (
        "changes", {"since": YESTERDAY + 21 * 3600, "until": TODAY + 5 * 3600})
    assert reading("how many footballs are in the storeroom") == ("count_objects", {"label": "football"})
    # a memory with a storeroom region keeps it: a count within a region is no supported question, so refused
    refusal("how many footballs are in the storeroom", WITH_STOREROOM)


def test_a_purpose_for_an_unknown_thing_at_the_end_is_talk():
    assert reading("total count of lamps for the insurance inventory") == ("count_objects", {"label": "lamp"})
    assert reading("itemise everything in the living room for the claim") == (
        "relational", {"anchor": "living room", "relation": "in"})
    # the thing looked for is kept: nothing known before "for"
    assert reading("where should I look for my handbag") == ("where_to_look", {"label": "handbag"})
    # a cue in the phrase is kept: "for the last time" asks
    assert reading("when did you see my keys for the last time") == ("last_seen", {"label": "keys"})


@pytest.mark.parametrize("question,op,args", [
    ("Step 2 of plan: obtain current position of the wallet.", "current", {"label": "wallet"}),
    ("Required for plan: enumerate objects currently on the sofa.", "relational",
     {"anchor": "sofa", "relation": "on"}),
    ("Precondition check for plan: where is the umbrella?", "current", {"label": "umbrella"}),
    ("position of the keys at now minus 30 minutes", "as_of", {"label": "keys", "t": NOW - 1800}),
    ("where were my keys at half past eight this morning", "as_of", {"label": "keys", "t": TODAY + 8.5 * 3600}),
    ("what changed between 6 and 9 this morning", "changes", {"since": TODAY + 6 * 3600, "until": TODAY + 9 * 3600}),
    ("what was next to the bed prior to the latest change", "relational_before",
     {"anchor": "bed", "relation": "near"}),
    ("mind if I ask where the mug is", "current", {"label": "mug"}),
    ("where is Mr. Patel's jacket, he is leaving", "current", {"label": "jacket"}),
])
def test_headers_times_and_lead_ins(question, op, args):
    assert reading(question) == (op, args)


def test_word_clock_before_a_part_of_the_day_is_one_time():
    text, found = timeexpr.extract("at a quarter to one last night", NOW)
    assert text == "@t" and [f.t for f in found] == [TODAY + 0.75 * 3600]
    text, found = timeexpr.extract("since half past seven this morning", NOW)
    assert text == "@w" and [(f.since, f.until) for f in found] == [(TODAY + 7.5 * 3600, NOW)]


# ------------------------------------------------------------------ broader classes, statements of the thing
@pytest.mark.parametrize("question,op,args", [
    ("where are my stupid keys", "current", {"label": "keys"}),                   # a word of feeling
    ("have the cleaners moved my glasses today", "did_move", {"label": "glasses", "since": TODAY, "until": NOW}),
    ("how many mugs are there in the whole flat", "count_objects", {"label": "mug"}),
    ("where is the phone most probably", "where_to_look", {"label": "phone"}),
    ("did you eyeball my keys in the last hour", "was_seen", {"label": "keys", "since": NOW - 3600, "until": NOW}),
    ("where did the coach stash the water bottle", "current", {"label": "water bottle"}),
])
def test_broader_classes_read(question, op, args):
    assert reading(question) == (op, args)


def test_a_clause_that_says_something_of_the_thing_asked_about_is_talk():
    assert reading("the blasted remote has vanished again, where is it") == ("current", {"label": "remote"})
    assert reading("the lamp got moved while I was out, where did it stand before") == ("previous", {"label": "lamp"})
    # of another thing than the one asked about it is no talk: two things, refused
    refusal("the remote has vanished again, where is the lamp", NAMES)


@pytest.mark.parametrize("question,op,args", [
    ("Plan step 2: list places where the wallet has been today", "history",
     {"label": "wallet", "since": TODAY, "until": NOW}),
    ("Subgoal: determine whether the keys have moved since 09:00.", "did_move",
     {"label": "keys", "since": TODAY + 9 * 3600, "until": NOW}),
    ("Quick one for you: where's the umbrella?", "current", {"label": "umbrella"}),
    ("Sorry to be a pain, but where did the charger end up?", "current", {"label": "charger"}),
    ("where might the scissors have got to", "current", {"label": "scissors"}),   # a modal of the past
    ("where was the lamp before it got moved to the desk", "previous", {"label": "lamp"}),
])
def test_planner_steps_lead_ins_and_modals_of_the_past(question, op, args):
    assert reading(question) == (op, args)


def test_a_modal_of_what_could_be_done_stays_with_the_semantic_forms():
    # "where can I put my jacket" asks for a place to put it, not where it is
    assert reading("where can I put my jacket")[0] != "current"
    # a numbered head that is a time stays a time ("at half past one, where was the lamp")
    assert reading("at half past one, where was the lamp") == ("as_of", {"label": "lamp", "t": TODAY + 13.5 * 3600})


@pytest.mark.parametrize("question,op,args", [
    ("chair moved? y/n", "did_move", {"label": "chair"}),
    ("list all pose updates for the bowl", "history", {"label": "bowl"}),
    ("Please advise the present location of the umbrella.", "current", {"label": "umbrella"}),
    ("Kindly furnish the placement history of the laptop.", "history", {"label": "laptop"}),
    ("what objects did vanish since this morning", "changes",
     {"since": TODAY + 5 * 3600, "until": NOW, "kinds": ["removed"]}),
    ("where's my lamp gone to now", "current", {"label": "lamp"}),
])
def test_formal_terse_and_inflected_forms(question, op, args):
    assert reading(question) == (op, args)
