"""Issue 13, thirty-third round (stop 53, heldout33 read as a development set): classes, each on sentences of our own.

- an unknown thing stays unknown whatever owner wraps it: an owner of more than one word, written with hyphens or
  spaces ("great-aunt's", "step-dad's", "next-door neighbour's") or with the owner's name between ("Aunt Mabel's"),
  is no part of the thing's name (understand._owned_by; heldout33's G011 was answered "I don't know any great aunt
  lorgnette"); a known thing an owner wraps stays the known thing; a name said without a possessive stays whole;
- after a word of staying or still being there ("stayed put", "still", "remained", "hasn't budged"), a clause of the
  thing's own habitual place without a word of habit ("where it lives", "where it is kept") or a noun of its own
  place ("in its usual spot", "in its spot") asks whether it is still in its place (cues._WHERE_IT_LIVES; heldout33's
  G099, "has my wallet stayed put where it lives?", was answered as where the wallet is now, and "has the mug stayed
  in its spot?" as well); without such a word the clause stays a question of where, and a question of how long or
  whether it moved stays that question;
- heldout33's refusals by cause: the order of the answer in the order the operator gives it ("chronological",
  "first to last" of a history; "best first", "likeliest spot first", "the spots to check" of where to look:
  lexicon.BOTH_READERS_PHRASES), and "where has the mug been" with such an order is its places (main read "where"
  alone: the place now, a wrong answer; cues._WHERE_HAS_BEEN); a question of everything after who speaks ("A
  soap maker asks: which of my things are missing?") when the speaker's words hold no place and leave no span open
  (understand._understood: a bare role only, no clause of what the speaker does, stops 51 and 52 keep theirs refused);
  a role's noun that acts ("a stable hand") and a relative "that" ("everything that is missing":
  preamble._asks_nothing); a fraction of a unit ("three quarters of a metre": quantities.FRACTIONS); the
  footage, "appear", the oldest sighting, eyes clapped on a thing, the place before the last,
  an object's centre in a radius (lexicon); an analytics client's event call (dialects.TRANSPORT: track, capture); the
  memory's own command line quoted in a host, alone (lines._QUOTED_COMMAND); a tracing span named after a tool
  (lines._SPAN); Lua's method call and a declared variable's name (loose._CODE_CALL, _VARIABLE); a told moment named
  again as a span's start (understand._told_again). Each with what must stay refused or read as before.
None of the sentences below is a line of a question set; each reading is exact, each refusal has its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, ROUND32_NAMES, call, refusal, understood


NAMES = ROUND32_NAMES


# ------------------------------------------------------------------ an owner of several words around an unknown thing
@pytest.mark.parametrize("question, operator, name", [
    ("where was my great-aunt's ukulele before?", "previous", "ukulele"),
    ("My great aunt's ukulele: where did it sit before its present spot?", "previous", "ukulele"),
    ("where is my great-grandfather's pocket watch?", "current", "pocket watch"),
    ("where is my step-dad's tambourine?", "current", "tambourine"),
    ("where's my next-door neighbour's tambourine?", "current", "tambourine"),
    ("where is great-aunt Mabel's tambourine?", "current", "tambourine"),
    ("where is Aunt Mabel's harmonica?", "current", "harmonica"),
    ("where is my ex-wife's harmonica now?", "current", "harmonica"),
    ("where is my great-uncle's ukulele now?", "current", "ukulele"),
])
def test_an_owner_of_several_words_is_no_part_of_an_unknown_thing(question, operator, name):
    u = understood(question, NAMES)
    assert (u.operator, u.args.get("label"), u.unknown) == (operator, name, "label")


@pytest.mark.parametrize("question, operator, name, unknown", [
    ("where is my great-aunt's mug?", "current", "mug", ""),            # a known thing stays the known thing
    ("has my step-dad's wallet moved?", "did_move", "wallet", ""),
    ("where is my grandmother's tambourine?", "current", "tambourine", "label"),   # one word, as before
    ("where is the great-aunt ukulele?", "current", "great aunt ukulele", "label"),  # no possessive: whole
])
def test_known_things_and_names_without_an_owner_stay_as_read(question, operator, name, unknown):
    u = understood(question, NAMES)
    assert (u.operator, u.args.get("label"), u.unknown) == (operator, name, unknown)


# ------------------------------------------------------------------ stayed put where it lives: still in its place
@pytest.mark.parametrize("question, label", [
    ("has my wallet stayed put where it lives?", "wallet"),
    ("A glassblower: has the mug stayed where it lives?", "mug"),
    ("is the lamp still where it lives?", "lamp"),
    ("is the remote still where it is kept?", "remote"),
    ("the mug hasn't budged from where it lives, has it?", "mug"),
    ("has the mug stayed put in its usual spot?", "mug"),
    ("has the wallet remained in its usual spot?", "wallet"),
    ("has the plant stayed in its proper place?", "plant"),
    ("has the mug stayed in its spot?", "mug"),
])
def test_staying_where_it_lives_asks_whether_it_is_still_in_its_place(question, label):
    assert call(question, NAMES) == ("is_present", {"label": label})


@pytest.mark.parametrize("question, operator", [
    ("the mug, tell me where it lives", "current"),              # no word of staying: where
    ("where is the mug kept?", "current"),
    ("how long has the mug stayed put where it lives?", "duration"),
    ("how long has the mug stayed in its spot?", "duration"),
    ("has the mug moved from its spot?", "did_move"),
    ("where was the mug before it moved from where it lives?", "previous"),
    ("is the mug still where it normally stands?", "is_present"),  # a word of habit, as before
])
def test_other_questions_of_its_place_stay_as_read(question, operator):
    u = understood(question, NAMES)
    assert (u.operator, u.args.get("label")) == (operator, "mug")


# ------------------------------------------------------------------ the order of the answer in the operator's own order
@pytest.mark.parametrize("question, operator, args", [
    ("each location the notebook occupied within the last two hours, chronological please", "history",
     {"label": "notebook", "since": NOW - 7200, "until": NOW}),
    ("every place the lamp has stood since midnight, first to last?", "history",
     {"label": "lamp", "since": NOW - 14.5 * 3600, "until": NOW}),
    ("where has the lamp been today, chronologically?", "history",
     {"label": "lamp", "since": NOW - 14.5 * 3600, "until": NOW}),
    ("which places are most likely for the glasses, best first", "where_to_look", {"label": "glasses"}),
    ("where should I search for the umbrella, likeliest spot first?", "where_to_look", {"label": "umbrella"}),
    ("rank the places I should check for my phone.", "where_to_look", {"label": "phone"}),
    ("give me the spots to check for the charger, in order of how likely they are", "where_to_look",
     {"label": "charger"}),
])
def test_the_order_the_operator_gives_asks_nothing_more(question, operator, args):
    assert call(question, NAMES) == (operator, args)


# "where has the mug been" with the order of the answer after it is its places (main read "where" alone: the place now)
@pytest.mark.parametrize("question", [
    "where has the mug been, first to last?", "where has the mug been in order?",
    "where has the mug been, place by place?", "where has the mug been, chronologically?",
    "where have the keys been, one place after another?",
])
def test_where_it_has_been_with_an_order_is_its_places(question):
    u = understood(question, NAMES)
    assert u.operator == "history" and u.args.get("since") is None and u.args["label"] in ("mug", "keys")


@pytest.mark.parametrize("question, operator", [
    ("where has the mug been put?", "current"),             # a participle after "been": where it is
    ("where has the mug been?", "history"),
])
def test_where_it_has_been_put_stays_where_it_is(question, operator):
    assert understood(question, NAMES).operator == operator


@pytest.mark.parametrize("question", [
    "what is on the table, best first?",                     # no order of a list of places: refused
    "how long has the mug been on the shelf, likeliest spot first?",
])
def test_an_order_the_operator_does_not_give_is_no_question(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ who speaks, before a question of everything
@pytest.mark.parametrize("question, operator", [
    ("A cooper asks: which of my things have you got down as missing?", "missing"),
    ("An astronomer: enumerate the objects currently listed as missing.", "missing"),
    ("A lithographer: I need something to cut paper with.", "semantic"),
    ("A ferryman with sore feet: find me something to sit on.", "semantic"),
])
def test_a_question_of_everything_after_who_speaks_is_read(question, operator):
    u = understood(question, NAMES)
    assert u.operator == operator and "who is asking" in u.words


@pytest.mark.parametrize("question", [
    "A gardener in the shed: what is missing?",               # a word of place may narrow it
    "A nurse back from holiday: what moved?",                 # the span may be the speaker's: no start of its own
    "A quartermaster: is that missing?",                      # points at a thing it does not name
    "A quartermaster doing a stocktake: list everything that is missing right now.",   # what the speaker does
    "A parole officer doing rounds: which items can't be found right now?",            # (stop 51's guard)
    "A mahout who misplaces things: which objects are missing at the moment?",         # (stop 52's guard)
])
def test_a_question_of_everything_the_speaker_may_narrow_stays_refused(question):
    refusal(question, NAMES)


@pytest.mark.parametrize("question, operator", [
    ("A kennel hand: for how long has my backpack been sitting where it sits now?", "duration"),
    ("A stable hand in a hurry: did anyone shift my keys in the last hour?", "did_move"),
])
def test_a_role_whose_noun_is_a_verb_of_acting_is_who_speaks(question, operator):
    u = understood(question, NAMES)
    assert u.operator == operator and "who is asking" in u.words


# ------------------------------------------------------------------ a fraction of a unit of length
@pytest.mark.parametrize("question, radius", [
    ("what's within three quarters of a metre of the desk?", 0.75),
    ("what is within a quarter of a metre of the sofa", 0.25),
    ("anything within two thirds of a meter of the sofa?", 2 / 3),
    ("what is within half a metre of the desk", 0.5),                  # as before
    ("what is within one and a half metres of the desk", 1.5),
])
def test_a_fraction_of_a_unit_is_a_radius(question, radius):
    u = understood(question, NAMES)
    assert u.operator == "spatial" and u.args["radius"] == pytest.approx(radius)


@pytest.mark.parametrize("question", [
    "what is within half a metre and a half of the desk",             # two fractions
    "what is within three quarters of an hour of the desk",           # no unit of length
])
def test_a_fraction_without_one_length_is_no_radius(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ seen by the camera that records, in the footage
@pytest.mark.parametrize("question, operator, args", [
    ("what is the oldest sighting you have of the plant?", "first_seen", {"label": "plant"}),
    ("did my phone appear anywhere in your footage yesterday?", "was_seen",
     {"label": "phone", "since": NOW - 38.5 * 3600, "until": NOW - 14.5 * 3600}),
    ("did the mug appear on camera today?", "was_seen", {"label": "mug", "since": NOW - 14.5 * 3600, "until": NOW}),
])
def test_the_camera_that_records_and_the_footage_see(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question, operator", [
    ("how many times has the camera recorded the keys moving?", "count_moves"),   # as before (stop 16's guard)
    ("is the mug recorded as missing?", "is_missing"),                 # the records' word, as before
    ("when did the bowl appear?", "first_seen"),
])
def test_the_records_word_stays_the_records(question, operator):
    assert understood(question, NAMES).operator == operator


# ------------------------------------------------------------------ an analytics client's event call
@pytest.mark.parametrize("question, operator, args", [
    ("amplitude.track('relational_before', {relation: 'in', anchor: 'kitchen'})", "relational_before",
     {"relation": "in", "anchor": "kitchen"}),
    ("posthog.capture('spatial', {anchor: 'table', radius: 1})", "spatial", {"anchor": "table", "radius": 1.0}),
    ("segment.track('is_related', {label: 'remote', relation: 'under', anchor: 'sofa', t_ago_s: 1800})", "is_related",
     {"label": "remote", "relation": "under", "anchor": "sofa", "t": NOW - 1800}),
])
def test_an_event_call_carries_the_tool_and_its_properties(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    "analytics.track('forget', {label: 'mug'})",                 # a write carried: refused as every write is
    "camera.capture('mug')",                                     # no tool named
    "analytics.track('Button Clicked', {label: 'mug'})",
])
def test_an_event_call_that_names_no_tool_of_the_memory_is_refused(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ the memory's own command line, quoted in a host
@pytest.mark.parametrize("question, operator, args", [
    ('Tasker task "Lamp check": Run Shell `tempomem did_move --label lamp`', "did_move", {"label": "lamp"}),
    ('[[inputs.exec]] commands = ["tempomem duration --label mug"]  # Telegraf', "duration", {"label": "mug"}),
    ('cron: "tempomem history --label keys --since-ago-s 3600"', "history",
     {"label": "keys", "since": NOW - 3600, "until": NOW}),
])
def test_a_quoted_command_line_of_the_memory_is_read(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    "run `tempomem did_move --label charger` then `rm -rf /`",
    "run `tempomem did_move --label charger` then rm -rf /",
    "run `tempomem did_move --label charger`; rm -rf /",
    "run `tempomem did_move --label charger` and `tempomem forget --label mug`",
    "Shell: `tempomem forget --label charger`",
])
def test_a_quoted_command_beside_another_or_one_that_writes_is_refused(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ the place before the last, a centre, eyes on it
@pytest.mark.parametrize("question, operator, args", [
    ("what was the laptop's last-but-one location?", "previous", {"label": "laptop"}),
    ("where was the mug second to last?", "previous", {"label": "mug"}),
    ("which objects have their centre inside a 1 m radius around -2, 2, 0.9?", "spatial",
     {"center": [-2.0, 2.0, 0.9], "radius": 1.0}),
    ("when did u last clap eyes on the remote", "last_seen", {"label": "remote"}),
    ("when did you first set eyes on the mug?", "first_seen", {"label": "mug"}),
])
def test_the_place_before_the_last_a_centre_and_eyes_set_on_it(question, operator, args):
    assert call(question, NAMES) == (operator, args)


# ------------------------------------------------------------------ a tracing span named after a tool of the memory
@pytest.mark.parametrize("question, operator, args", [
    ('Jaeger span "tempomem.count_objects", tag label=book', "count_objects", {"label": "book"}),
    ('Tempo span name "tempomem.relational_before", tags relation=on anchor=shelf', "relational_before",
     {"relation": "on", "anchor": "shelf"}),
    ('OTel span "tempomem.changes", attributes: kinds=["moved"], since_ago_s=1800', "changes",
     {"kinds": ["moved"], "since": NOW - 1800, "until": NOW}),
])
def test_a_span_named_after_a_tool_is_its_call(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    'Jaeger span "tempomem.forget", tag label=book',                 # a write
    'Jaeger span "tempomem.current", tags label=book; rm -rf /',      # a second statement
    'Honeycomb span "tempomem.current", tags label=mug label=keys',   # the thing twice
])
def test_a_span_that_writes_or_holds_more_is_refused(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ Lua's method call, a declared variable's name
@pytest.mark.parametrize("question, operator, args", [
    ('local spot = Tempomem:Current({label = "phone"})  -- Luau, from a game prototype', "current", {"label": "phone"}),
    ('var before:Object = tempomem.previous({label: "mug"});  // ActionScript 3', "previous", {"label": "mug"}),
])
def test_a_lua_method_call_and_a_declared_variable_are_code(question, operator, args):
    assert call(question, NAMES) == (operator, args)


@pytest.mark.parametrize("question", [
    'local x = tempomem:history({label = "mug"})  -- since this morning',   # a time beside the call
    'var since = 5; tempomem.history({label: "mug"})',                    # a time field beside it
    'Tempomem:Forget({label = "phone"})  -- Luau',                         # a write
])
def test_a_time_or_a_write_beside_a_lua_call_is_refused(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ a told moment named again as the start of a span
@pytest.mark.parametrize("question, operator, since", [
    ("We had a fire drill at one. Which things have been moved since one?", "changes", NOW - 1.5 * 3600),
    ("Our choir practice kicked off at noon and everyone was singing. Has the plant been moved since noon?",
     "did_move", NOW - 2.5 * 3600),
])
def test_a_told_moment_named_again_as_a_spans_start_is_the_questions(question, operator, since):
    u = understood(question, NAMES)
    assert (u.operator, u.args["since"], u.args["until"]) == (operator, since, NOW)


@pytest.mark.parametrize("question", [
    "We had a fire drill at one. Has the plant moved since two?",       # two moments
    "The fire drill was at one. Has it moved since one?",               # "it" stands for the told clause's words
])
def test_another_moment_or_a_pronoun_stays_refused(question):
    refusal(question, NAMES)
