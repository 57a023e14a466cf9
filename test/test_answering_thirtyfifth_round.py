"""Issue 13, thirty-fifth round (stop 54, heldout35's five wrong answers read as a development set): classes, each on
sentences of our own.

- a thing fronted before talk and a question in two sentences ("granny's sewing box, she keeps everything in it.
  where's it got to?") stands for the pronoun of the last sentence, the question's, not the first pronoun after
  it, which is the talk's (normalise._last_sentence, word_order.join_fronted): the talk was read as the question
  (heldout35's I004, what is on the dictaphone);
- an unknown name that a sentence's end ('?', '!', '.') parts is no name ("cake tin someone"): the question up to the
  end is read when it gives the same operator, else refused (understand._before_an_end; heldout35's I128);
- "still were it / they usually ..." is "still where" (normalise._MISTYPED; heldout35's I101 was where to look);
- a place asked in time's order ("in chronological order", "from beginning to end", "oldest first") with no word of
  now is its places, a history (understand._TIME_ORDER; heldout35's I021 was its place now);
- a description holding the product's name or a tool's name run together is a call not read, refused (no search by
  meaning for "tempomem isrelated mug in kitchen": understand._names_a_call; heldout35's I150).
None of the sentences below is a line of a question set; each reading is exact, each refusal has its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import call, reading, refusal, understood

from tempomem_ros.core.answering import Names

NAMES = Names(["mug", "keys", "lamp", "sofa", "table", "coffee table", "shelf", "chair", "plant", "remote", "phone",
               "wallet", "bed", "counter", "jacket", "laptop", "glasses", "umbrella", "book", "cup", "bowl",
               "notebook", "backpack", "charger", "headphones"],
              ["kitchen", "living room", "hall", "bedroom", "office"])


# ------------------------------------------------------------------ a fronted thing stands for the question's pronoun
@pytest.mark.parametrize("question, op, args, unknown", [
    ("my nephew's tablet, he stores everything on it. where's it got to?", "current", {"label": "tablet"}, "label"),
    ("granny's sewing box, she keeps everything in it. where's it got to?", "current", {"label": "sewing box"},
     "label"),
    ("my nephew's tablet, he puts everything on it! where's it got to?", "current", {"label": "tablet"}, "label"),
    ("my uncle's metronome, he plays along to it. where's it got to?", "current", {"label": "metronome"}, "label"),
    ("the sofa, the dog sleeps on it. what's on it?", "relational", {"anchor": "sofa", "relation": "on"}, ""),
    ("the mug, I left it somewhere. where is it now?", "current", {"label": "mug"}, ""),
    # must stay as now: one sentence after the thing
    ("the table, what's on it?", "relational", {"anchor": "table", "relation": "on"}, ""),
    ("the keys, where are they?", "current", {"label": "keys"}, ""),
])
def test_a_fronted_thing_stands_for_the_last_sentences_pronoun(question, op, args, unknown):
    assert reading(question, NAMES) == (op, args, unknown)


# ------------------------------------------------------------------ a sentence's end parts an unknown name
@pytest.mark.parametrize("question, op, args", [
    ("what's inside the bread bin? someone's been at it", "relational", {"anchor": "bread bin", "relation": "in"}),
    ("what's on the piano stool! honestly the mess", "relational", {"anchor": "piano stool", "relation": "on"}),
    ("what's under the piano stool? the cat's been at it", "relational", {"anchor": "piano stool",
                                                                           "relation": "under"}),
    ("where is the dictaphone? nephew wants it", "current", {"label": "dictaphone"}),
])
def test_a_sentence_end_parts_an_unknown_name(question, op, args):
    assert reading(question, NAMES) == (op, args, next(iter(args)))


@pytest.mark.parametrize("question, op, args", [  # must stay as now
    ("where is the mug? nephew wants it", "current", {"label": "mug"}),
    ("what's inside the bread bin?", "relational", {"anchor": "bread bin", "relation": "in"}),
])
def test_one_sentence_and_known_names_stay(question, op, args):
    assert call(question, NAMES) == (op, args)


# ------------------------------------------------------------------ "still were" is "still where"
@pytest.mark.parametrize("question, label", [
    ("headphones still were they usually sit?", "headphones"),
    ("is the mug still were it usually is?", "mug"),
    ("mug still were it normally goes?", "mug"),
    ("are the keys still wer they belong?", "keys"),
    ("is the mug still where it usually is?", "mug"),  # as now
])
def test_still_were_is_still_where(question, label):
    assert call(question, NAMES) == ("is_present", {"label": label})


# ------------------------------------------------------------------ a place in time's order is a history
@pytest.mark.parametrize("question, label", [
    ("Nurse, I keep notes: the bowl's whereabouts from beginning to end, in chronological order.", "bowl"),
    ("the bowl's whereabouts in chronological order", "bowl"),
    ("the wallet's location, oldest first", "wallet"),
    ("where is the jacket, chronologically?", "jacket"),
    ("where has the cup been, in chronological order?", "cup"),  # as now
])
def test_a_place_in_times_order_is_a_history(question, label):
    u = understood(question, NAMES)
    assert (u.operator, u.args) == ("history", {"label": label})
    assert u.words.startswith("places of")


@pytest.mark.parametrize("question, label", [  # must stay as now: its place now
    ("where is the mug now, in chronological order?", "mug"),
    ("where's the mug?", "mug"),
    ("the bowl's whereabouts", "bowl"),
])
def test_a_place_now_stays_current(question, label):
    assert call(question, NAMES) == ("current", {"label": label})


# ------------------------------------------------------------------ a call not read is no description
@pytest.mark.parametrize("question", [
    '\u2022Show Tempomem.IsRelated \u27e8"keys", "on", "table"\u27e9  # BQN',
    '\u2022Show Tempomem.Current "wallet"',
])
def test_a_call_not_read_is_refused(question):
    assert "a call of the memory in a form I do not read" in refusal(question, NAMES).reason


@pytest.mark.parametrize("question, text", [  # must stay as now
    ('tempomem_semantic("something to cut paper");', "something to cut paper"),
    ("something to cut paper", "something to cut paper"),
    ("find me something warm to wear", None),
])
def test_descriptions_and_read_calls_stay(question, text):
    u = understood(question, NAMES)
    assert u.operator == "semantic"
    if text is not None:
        assert u.args["text"] == text
