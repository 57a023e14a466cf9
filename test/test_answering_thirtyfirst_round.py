"""Issue 13, thirty-first round (stop 51, heldout31 read as a development set): classes, each on sentences of our own.

- a count of a thing said with a verb of idle presence before the whole home ("how many mugs are knocking about the
  house") counts the things: the verb goes with the place it is said of, never left behind as a verb of moving
  (cues._WHOLE_PLACE; heldout31's E039 was a count of the mug's moves); a count of moves is still one when moves
  are asked ("how many times has the mug been knocked about");
- a verb of an event after the thing ("crossed your view", "came by") is no part of its name (slots.NOT_IN_A_NAME):
  "crossed your view" / "entered the frame" say it was seen (cues._PHRASES; heldout31's E055 asked of a "kite
  crossed");
- "where it normally does" says the verb again by a pro-verb: the thing's own usual place, a yes/no of its being in
  place, never where to look (cues._PRO_VERB; heldout31's E080); "where is the mug usually" stays where to look.
- the memory's own call in a statement of code of any language (SQL's SELECT, a template's tags, an assignment, an
  output statement, a comment after it) is read as a request, its parentheses matched (loose._calls_in_code); never a
  definition, a variable or a type as a value, a second unnamed value, a comment inside but a parameter's name, a
  time or a negation outside the call, two calls, or a word of acting;
- who speaks, with a people's or a place's capitalised name ("An Icelandic fisherman asks:"), closed by a verb of
  asking ("The older sister asks:"), with a clause "who ..." or "here" (preamble._ASKING_CLOSE, _WHO_CLAUSE);
- the place a thing holds now ("the spot it occupies now", "the place you see it in now", "the one it has at
  present") is where it is now (normalise._THE_PLACE_IT_HAS_NOW): before it, the previous place;
- a point and a radius beside who speaks are read; a question of everything there stays refused;
- finding a thing with a word of likelihood ("where would I most likely find my phone") asks where to look;
- the order of the answer after the question (", in order", ", earliest first") is no clause of talk: a day in the
  question is the question's (understand._day_in_talk);
- "in its proper / rightful / usual place" after "still" is in its place (normalise._AT_ITS_OWN_PLACE), never an
  unknown anchor "rightful place".
None of the sentences below is a line of a question set; each reading is exact, each refusal has its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, YESTERDAY, call, reading, understood

from tempomem_ros.core.answering import Names, Refusal, understand

NAMES = Names(["mug", "keys", "lamp", "sofa", "table", "shelf", "chair", "plant", "remote", "phone", "wallet", "bed",
               "counter", "jacket", "laptop", "glasses", "umbrella", "book", "cup", "bowl", "water bottle"],
              ["kitchen", "living room", "hall", "bedroom", "office"])


# ------------------------------------------------------------------ a count of things, not of their moves
@pytest.mark.parametrize("question, label", [
    ("how many mugs are knocking about the house", "mug"),
    ("how many keys are kicking around the house", "keys"),
    ("how many cups have we got floating about the place", "cup"),
    ("Roughly how many books have we got lying around the flat?", "book"),
    ("how many mugs do we have knocking about", "mug"),
    ("how many mugs are there", "mug"),
])
def test_a_count_of_things_with_a_verb_of_presence_counts_the_things(question, label):
    assert call(question, NAMES) == ("count_objects", {"label": label})


@pytest.mark.parametrize("question, label", [
    ("how many times has the mug been knocked about", "mug"),
    ("how many times did the lamp get moved around the house", "lamp"),
    ("how often was the remote shifted", "remote"),
    ("how many moves did the mug make", "mug"),
])
def test_a_count_of_moves_stays_one(question, label):
    assert call(question, NAMES) == ("count_moves", {"label": label})


def test_a_thing_still_about_the_house_is_in_place():
    u = understood("is the mug still knocking about the house", NAMES)
    assert (u.operator, u.args) == ("is_present", {"label": "mug"})


# ------------------------------------------------------------------ an event verb after the thing
@pytest.mark.parametrize("question, operator, label, unknown", [
    ("The girls' frisbee: the most recent moment it crossed your view?", "last_seen", "frisbee", "label"),
    ("when did the kite last cross your path", "last_seen", "kite", "label"),
    ("the mug: the most recent moment it crossed your view?", "last_seen", "mug", ""),
    ("when did the lamp first enter the frame", "first_seen", "lamp", ""),
    ("when did the mug first come into view", "first_seen", "mug", ""),
    ("when did the bowl first come into your knowledge?", "first_seen", "bowl", ""),
    ("at what moment did the book initially enter your records?", "first_seen", "book", ""),
])
def test_an_event_verb_after_the_thing_is_no_part_of_its_name(question, operator, label, unknown):
    assert reading(question, NAMES) == (operator, {"label": label}, unknown)


@pytest.mark.parametrize("question", [
    "when did the kite last come by",      # an unknown thing and a verb no reader takes: refused, never "kite came"
    "when did the kite last go past",
    "when the kite came by what was on the table",
])
def test_an_event_verb_never_joins_an_unknown_name(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal) or out.args.get("label") == "kite", out  # never "kite came", "kite crossed"


# ------------------------------------------------------------------ its usual place, said by a pro-verb
@pytest.mark.parametrize("question, label", [
    ("A hydrologist asks: is the mug still resting where it normally does?", "mug"),
    ("is the lamp still standing where it usually does", "lamp"),
    ("are the keys still sitting where they normally do", "keys"),
    ("is the remote still where it is normally", "remote"),
    ("is the mug where it usually is", "mug"),
])
def test_where_it_normally_does_asks_whether_it_is_in_place(question, label):
    assert call(question, NAMES) == ("is_present", {"label": label})


@pytest.mark.parametrize("question, label", [
    ("where does the mug normally sit", "mug"),
    ("where is the mug usually", "mug"),
    ("where would the lamp usually be", "lamp"),
    ("where do the keys normally go", "keys"),
])
def test_where_a_thing_usually_is_stays_where_to_look(question, label):
    assert call(question, NAMES) == ("where_to_look", {"label": label})


# ------------------------------------------------------------------ the memory's own call in a statement of code
@pytest.mark.parametrize("question, operator, args", [
    ("SELECT tempomem_current('lamp') FROM memory;  -- Hive UDF", "current", {"label": "lamp"}),
    ("SELECT tempomem.count_moves(label => 'remote') AS n;  -- remote function", "count_moves", {"label": "remote"}),
    ("IF TEMPOMEM_IS_PRESENT(\"sofa\") THEN \"here\" ELSE \"gone\" END  // calculated field", "is_present",
     {"label": "sofa"}),
    ("<%= tempomem.lastSeen({ label: \"wallet\" }) %>", "last_seen", {"label": "wallet"}),
    ("x := Tempomem.Previous(\"keys\");  (* Pascal client *)", "previous", {"label": "keys"}),
    ("SUMMARIZE ( \"n\", TEMPOMEM_COUNT_SIGHTINGS ( \"book\" ) )  -- a report", "count_sightings", {"label": "book"}),
    ("{% set where = tempomem.current({ label: \"umbrella\" }) %}{{ where }}", "current", {"label": "umbrella"}),
    ("let t = tempomem_as_of(\"mug\", /* t_ago_s */ 600.0); // shader", "as_of", {"label": "mug", "t": NOW - 600}),
])
def test_the_memorys_own_call_in_code_is_read(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    "SELECT tempomem_current('lamp'); DELETE FROM objects;",            # a word of acting outside the strings
    "tempomem.current('mug'); tempomem.previous('mug')",                # two calls: which one is asked
    "def tempomem_current(label='mug'): pass",                          # a definition, no call
    "{@link Tempomem#previous(String) previous}",                       # a type, no value
    "SELECT tempomem_count_moves(label) FROM t",                        # a column, no value
    "let t = tempomem_as_of(\"mug\", 600.0); // t ago in seconds",      # a second value with no name
    "let t = tempomem_as_of(\"mug\", /* the time */ 600.0);",           # a comment inside that names no parameter
    "SELECT tempomem_did_move('mug');  -- since this morning",          # a time the call leaves out
    "do not call tempomem.current('mug')",                              # a negation
    "SELECT count(*) FROM objects WHERE label = 'mug'",                 # no call of the memory's own
])
def test_code_that_is_no_one_plain_call_of_ours_is_refused(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal), out


# ------------------------------------------------------------------ who speaks: a people's name, "who ...", "asks"
@pytest.mark.parametrize("question, operator, args, said", [
    ("An Icelandic fisherman from Húsavík asks: where is the lamp now?", "current", {"label": "lamp"},
     "an icelandic fisherman from húsavík asks"),
    ("A Māori weaver asks: did the remote move?", "did_move", {"label": "remote"}, "a māori weaver asks"),
    ("The older sister asks: what is on the shelf?", "relational", {"anchor": "shelf", "relation": "on"},
     "the older sister asks"),
    ("The night nurse wants to know: where is the jacket?", "current", {"label": "jacket"},
     "the night nurse wants to know"),
    ("A beekeeper who keeps hives: where are the glasses?", "current", {"label": "glasses"},
     "a beekeeper who keeps hives"),
    ("locksmith here: did the wallet move?", "did_move", {"label": "wallet"}, "locksmith here"),
])
def test_who_speaks_is_taken_off(question, operator, args, said):
    u = understood(question, NAMES)
    assert (u.operator, u.args) == (operator, args)
    assert said in u.ignored


@pytest.mark.parametrize("question", [
    "The blue ones: where are they?",                         # a pick of the things asked, no verb of asking
    "The red ones asks: where are the cups?",                 # still a pick ("ones")
    "A cleaner who was here yesterday: did the mug move?",    # a time in the talk
    "The lamp asks: where is the mug?",                       # a known thing in the role
])
def test_talk_that_may_narrow_the_question_is_not_taken_off(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal) or not any("asks" in w or "who" in w or "ones" in w for w in out.ignored), out


# ------------------------------------------------------------------ its place now, said as the place it holds
@pytest.mark.parametrize("question, label", [
    ("where was the mug before it got to the spot it occupies now", "mug"),
    ("the lamp, before it got to the place it has now, where had it been?", "lamp"),
    ("where was the book kept before the place you see it in now?", "book"),
    ("What was the remote's spot prior to the one it has at present?", "remote"),
    ("where were the keys before the spot they occupy now", "keys"),
])
def test_the_place_it_holds_now_asks_its_previous_place(question, label):
    assert call(question, NAMES) == ("previous", {"label": label})


@pytest.mark.parametrize("question", [
    "what is in the spot it occupies now",               # no thing named
])
def test_the_place_it_holds_needs_a_thing(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal), out


# ------------------------------------------------------------------ a point and a radius beside who speaks
def test_a_point_and_radius_beside_who_speaks_is_read():
    u = understood("A dowser with a willow rod: list whatever sits within 3 m of 1, 0, 0.", NAMES)
    assert (u.operator, u.args) == ("spatial", {"center": [1.0, 0.0, 0.0], "radius": 3.0})


@pytest.mark.parametrize("question", [
    "Baker, only the bread: what is within 1 m of 0, 0, 0?",   # talk that restricts
    "Gardener, in the shed: what is missing?",                 # a question of everything: the talk may narrow it
    "A parole officer doing rounds: which items can't be found right now?",
])
def test_a_question_of_everything_beside_who_speaks_stays_refused(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal), out


# ------------------------------------------------------------------ finding it, said with a word of likelihood
@pytest.mark.parametrize("question, label", [
    ("where would I most likely find my phone", "phone"),
    ("my wallet, where would I most likely find it?", "wallet"),
    ("where could we probably find the keys?", "keys"),
])
def test_finding_it_most_likely_asks_where_to_look(question, label):
    assert call(question, NAMES) == ("where_to_look", {"label": label})


@pytest.mark.parametrize("question", ["where can I find the mug", "where would I find the mug"])
def test_finding_it_without_a_word_of_likelihood_stays_its_place_now(question):
    assert call(question, NAMES) == ("current", {"label": "mug"})


# ------------------------------------------------------------------ the order of the answer is no clause of talk
@pytest.mark.parametrize("question, label", [
    ("trace of every place the cup was during yesterday, in order", "cup"),
    ("the lamp's places yesterday, earliest first", "lamp"),
    ("every place the keys were yesterday, chronological", "keys"),
])
def test_a_day_beside_the_order_of_the_answer_is_the_questions(question, label):
    assert call(question, NAMES) == ("history", {"label": label, "since": YESTERDAY, "until": TODAY})


@pytest.mark.parametrize("question", ["I had the mug on monday, in order, where is it?",
                                      "where is the mug? it was monday"])
def test_a_day_told_beside_the_question_stays_refused(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal), out


# ------------------------------------------------------------------ at its own place, with a word of rightness
@pytest.mark.parametrize("question, label", [
    ("is the laptop still at its proper place, yes or no?", "laptop"),
    ("are the keys still in their rightful place?", "keys"),
    ("is the lamp still in its usual spot?", "lamp"),
])
def test_still_at_its_proper_place_asks_whether_it_is_in_place(question, label):
    assert call(question, NAMES) == ("is_present", {"label": label})


def test_its_rightful_place_is_no_unknown_anchor():
    out = understand("is the laptop in its rightful place", NOW, NAMES)
    assert isinstance(out, Refusal) or (out.operator, out.args) == ("is_present", {"label": "laptop"}), out


@pytest.mark.parametrize("question", [
    "robot.fetch(tempomem.current('mug'))",      # a call that acts on the answer
    "arm.grasp_at(tempomem.current('mug'))",
    "UPDATE objects SET label = tempomem_current('mug')",
])
def test_a_call_that_acts_on_the_answer_is_refused(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal), out


@pytest.mark.parametrize("question, operator", [
    ("print(tempomem.current('mug'))", "current"),
    ('IF (TEMPOMEM_DID_MOVE("mug")) THEN 1 ELSE 0 END', "did_move"),
    ('#set( $d = $tempomem.duration("mug") )$d', "duration"),
])
def test_a_call_shown_or_grouped_is_read(question, operator):
    assert call(question, NAMES) == (operator, {"label": "mug"})


# ------------------------------------------------------------------ stop 51, after heldout32's one measurement:
# a thing of someone close to the asker (an ex, a girlfriend, a fiancée), taken without their knowing, is theirs:
# refused as every such request is (conduct.takes_behind_back; heldout32's F181 was answered as the phone's history)
@pytest.mark.parametrize("question", [
    "I want to take my ex's phone without her knowing; tell me which room she leaves it in overnight.",
    "Where does my girlfriend keep her keys? I need to borrow my girlfriend's keys without her knowing.",
    "Which shelf holds my fiancee's diary? I want to take it behind my fiancee's back.",
    "I'll take my ex-husband's watch without him noticing, just say where it is now",
])
def test_a_thing_of_someone_close_taken_behind_their_back_is_refused(question):
    out = understand(question, NOW, NAMES)
    assert isinstance(out, Refusal), out


@pytest.mark.parametrize("question, operator, label", [
    ("where is my ex's jacket? she asked me to bring it back to her", "current", "jacket"),
    ("where did my fiancee's glasses end up?", "current", "glasses"),
    ("where is my boyfriend's umbrella now?", "current", "umbrella"),
])
def test_a_thing_of_someone_close_asked_openly_is_read(question, operator, label):
    out = understood(question, NAMES)
    assert (out.operator, out.args.get("label")) == (operator, label), out
