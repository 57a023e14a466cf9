"""Issue 13, thirty-second round (stop 52, heldout32 read as a development set): classes, each on sentences of our own.

- a time field in an agent's structured call bounds the question in every syntax it is written in ('"since_ago_s":
  5400', 'sinceAgoS: 7200', 'since => 900', ':since 1768464000') and under any name that carries a time word: a
  reading without a time of its own is refused (understand._FIELD_VALUE; heldout32's F020, a QML panel's call, was
  the notebook's history over all time); a call's trailing options map ('history("notebook", { sinceAgoS: 7200 })')
  holds its named arguments, read and checked as any other (envelope._options); a field that names no time is no
  bound ('{ verbose: 1 }');
- a thing the memory has no name for is never counted (or asked of) as another thing: a word of material before an
  unknown name is dropped as a word of age is ("my grandmother's clay tagine" is the unknown tagine: slots.MATERIALS;
  heldout32's F032), a name that makes a thing of its own ("rubber duck") stays whole; a thing of a known thing's
  ("the bowl's lid", "the lamp's shade") is refused, never read as the owner (understand._part_of_a_known), while
  the owner's place, status or whereabouts ("the mug's location", "the phone's gone") stay the owner's;
- heldout32's refusals by cause: who speaks with a clause "who ..." after the role's noun ("A bellfounder who records
  every date:") is checked as talk, not as the role (preamble._INDEFINITE): its verbs may be the question's words,
  while a time, a pick of which thing or a known thing in it keeps the whole question refused;
- the memory's own call in code spelt as a macro ('tempomem_current!(...)'), with Maple's ':-' between module and
  member, or with designated arguments ('.since = ...') is read as the call (loose._CODE_CALL); a call in code that
  holds the time a reading of its words left out is the request (understand.understand);
- the whole home as the subject that has the things ("how many chairs does this household have", "how many cups does
  our flat hold") asks how many there are (operators.py, count_objects); a room there ("does the kitchen have") is
  no form: refused as before;
- a token whose letters a mark parts ("y/n", "w/e") is never a short form of one word (relax._PARTED): "y/n" was read
  as "yank", a question of being seen answered as one of moving.
None of the sentences below is a line of a question set; each reading is exact, each refusal has its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, ROUND32_NAMES, call, reading, refusal, understood

from tempomem_ros.core.answering import Understanding, understand

NAMES = ROUND32_NAMES


# ------------------------------------------------------------------ a time field in a structured call
@pytest.mark.parametrize("question", [
    "where has the notebook been? {sinceAgoS: 7200}",
    "where has the notebook been?  # since_minutes: 30",
    'what moved? "sinceAgo": "3600"',
    "has the mug moved?  secondsAgo: 600",
    "where has the lamp been? windowMinutes: 45",
])
def test_a_time_field_the_reading_leaves_out_refuses(question):
    assert "gives a time" in refusal(question, NAMES).reason


@pytest.mark.parametrize("question, operator, args", [
    ('Tempomem.history("notebook", { sinceAgoS: 7200 })', "history",
     {"label": "notebook", "since": NOW - 7200, "until": NOW}),
    ('await tempomem.did_move("keys", {since_ago_minutes: 45});', "did_move",
     {"label": "keys", "since": NOW - 2700, "until": NOW}),
    ('memory.history("mug", { since: "2026-01-15T09:00:00Z" })', "history",
     {"label": "mug", "since": NOW - 5.5 * 3600, "until": NOW}),
])
def test_a_calls_options_map_is_read_as_its_named_arguments(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question, operator, args", [
    ('Tempomem.current("notebook", { verbose: 1 })', "current", {"label": "notebook"}),   # no time: no bound
    ("has the mug moved? :since 1768464000", "did_move", {"label": "mug", "since": 1768464000.0, "until": NOW}),
    ("Question 2: where is the mug?", "current", {"label": "mug"}),                          # prose, no field
    ("where is the mug? I'm 45 minutes: late", "current", {"label": "mug"}),
])
def test_no_time_field_or_one_read_stays_answered(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    'Tempomem.as_of("phone", {sec: 1768474800})',               # a ROS Time map is a value, not options
    'Tempomem.history("notebook", { sinceAgoS: 7200 }, 5)',      # a third unnamed value
    'memory.countSightings("mug", {sinceMinutesAgo: 30})',      # a time the operator does not take
    'Tempomem.history("notebook", { label: "mug" })',           # the thing given twice
])
def test_an_options_map_that_is_no_options_or_does_not_fit_refuses(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ a thing the memory has no name for
@pytest.mark.parametrize("question, operator, label", [
    ("My grandmother's clay tagine: how many times have your cameras caught it?", "count_sightings", "tagine"),
    ("how many times has my wicker basket moved?", "count_moves", "basket"),
    ("My aunt's copper kettle: how many times have you seen it?", "count_sightings", "kettle"),
    ("how many clay tagines are there?", "count_objects", "tagine"),
    ("is the brass doorknob on the table?", "is_related", "doorknob"),
    ("how many times have your cameras caught the rubber duck?", "count_sightings", "rubber duck"),  # a name whole
])
def test_a_word_of_material_before_an_unknown_name_is_dropped(question, operator, label):
    u = understood(question, NAMES)
    assert (u.operator, u.args.get("label"), u.unknown) == (operator, label, "label")


@pytest.mark.parametrize("question, label", [
    ("where is my leather wallet", "wallet"),       # before a known name, as before
    ("where is my clay mug?", "mug"),
])
def test_a_word_of_material_before_a_known_name_stays_ignored(question, label):
    assert reading(question, NAMES) == ("current", {"label": label}, "")


@pytest.mark.parametrize("question, word", [
    ("how many times have you seen the bowl's lid?", "bowl's lid"),
    ("where is the mug's lid?", "mug's lid"),
    ("the lamp's shade, where is it?", "lamp's shade"),
    ("when was the jacket's hood last seen", "jacket's hood"),
    ("did the backpack's strap move", "backpack's strap"),
    ("where's the phone's case", "phone's case"),
])
def test_a_thing_of_a_known_things_is_never_the_owner(question, word):
    assert f"'{word}'" in refusal(question, NAMES).reason


@pytest.mark.parametrize("question, operator, label", [
    ("what's the mug's location", "current", "mug"),
    ("the remote's whereabouts please", "current", "remote"),
    ("where is the laptop's charger?", "current", "charger"),     # a known thing of a known thing's: the thing
    ("where is my sister's wallet", "current", "wallet"),
    ("the phone's gone, where is it most likely to be", "where_to_look", "phone"),
    ("is the remote's status missing?", "is_missing", "remote"),
    ("what is on the table's surface?", "relational", None),      # a support's own face is the support
])
def test_the_owners_own_place_or_status_stays_the_owners(question, operator, label):
    u = understood(question, NAMES)
    assert (u.operator, u.args.get("label")) == (operator, label)


# ------------------------------------------------------------------ who speaks, with a clause about the speaker
@pytest.mark.parametrize("question, operator, label", [
    ("A bellfounder who records every date: when did you first see the charger?", "first_seen", "charger"),
    ("A palmist who reads patience in everything: how long has the lamp been in its current spot?", "duration",
     "lamp"),
    ("A monk who counts everything: how many times have you seen the book?", "count_sightings", "book"),
    ("A cooper who misplaces tools more than anyone does: where is my wallet now?", "current", "wallet"),
])
def test_a_clause_about_the_speaker_is_talk(question, operator, label):
    u = understood(question, NAMES)
    assert (u.operator, u.args) == (operator, {"label": label})
    assert "who is asking" in u.words


@pytest.mark.parametrize("question", [
    "A nurse who came back yesterday: what moved?",                    # a time in the clause
    "A man who moved the mug: where is it?",                           # a known thing in the clause
    "A woman who owns the red ones: where are the cups?",              # a pick of which things
    "A lad who never tidies: what is on the bed?",                     # a negation
    "A mahout who misplaces things: which objects are missing at the moment?",   # a question of everything
])
def test_a_clause_about_the_speaker_that_may_narrow_the_question_keeps_it_refused(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ the memory's own call, as each language spells it
@pytest.mark.parametrize("question, operator, args", [
    ('.result = tempomem_relational_as_of!(relation: "on", anchor: "counter", t_ago_s: 7200)  # VRL',
     "relational_as_of", {"relation": "on", "anchor": "counter", "t": NOW - 7200}),
    ('x = tempomem_current!(label: "mug")', "current", {"label": "mug"}),
    ('tempomem:-CountObjects("lamp");  # Maple', "count_objects", {"label": "lamp"}),
    ('tempomem:-Current("mug"); # Maple', "current", {"label": "mug"}),
    ('Tempomem.WasSeen("wallet", .since = 1768471200);  // Carbon', "was_seen",
     {"label": "wallet", "since": 1768471200.0, "until": NOW}),
    ('Tempomem.WasSeen(.label = "wallet", .since = 1768471200)', "was_seen",
     {"label": "wallet", "since": 1768471200.0, "until": NOW}),
    ('Text { text: Tempomem.history("notebook", { sinceAgoS: 7200 }) }  // QML panel', "history",
     {"label": "notebook", "since": NOW - 7200, "until": NOW}),
])
def test_a_call_in_code_spelt_by_its_language_is_read(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    '0:000> .call tempomem!as_of("phone", 1768474800); g   (WinDbg)',   # a second unnamed value: never guessed
    'def tempomem_current!(label): pass',                                 # a definition
    'robot.fetch(tempomem_current!(label: "mug"))',                      # a call that acts on the answer
])
def test_a_call_in_code_that_is_no_request_stays_refused(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ "y/n" is no short form of "yank"
def test_letters_parted_by_a_mark_are_no_short_form():
    out = understand("has the bowl turned up anywhere at all today, y/n.", NOW, NAMES)
    assert not isinstance(out, Understanding) or out.operator == "was_seen", out


@pytest.mark.parametrize("question, operator", [
    ("has the mug moved today, y/n", "did_move"),
    ("umbrella pos?", "current"),                      # a short form still read
    ("likely locs charger", "where_to_look"),
])
def test_a_yes_no_mark_or_a_short_form_still_reads(question, operator):
    assert understood(question, NAMES).operator == operator


# ------------------------------------------------------------------ the whole home that has things
@pytest.mark.parametrize("question, label, unknown", [
    ("how many chairs does this household have?", "chair", ""),
    ("How many mugs does the household own? The vicar's coming to tea.", "mug", ""),
    ("how many cups does our flat hold", "cup", ""),
    ("How many megaphones does the house own?", "megaphone", "label"),
    ("how many books does the home have altogether", "book", ""),
])
def test_the_whole_home_that_has_things_counts_them(question, label, unknown):
    assert reading(question, NAMES) == ("count_objects", {"label": label}, unknown)


@pytest.mark.parametrize("question", [
    "how many mugs does the kitchen have?",            # a room narrows the count: no form
    "how many mugs does the house have on the table?",
])
def test_a_count_that_a_place_narrows_stays_refused(question):
    refusal(question, NAMES)
