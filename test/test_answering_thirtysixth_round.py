"""Issue 13, thirty-sixth round (stop 55, i13-r35: heldout35 into "all", read as a development set with heldout34):
classes, each on sentences of our own.

- a word right after a time that no class takes ("since ten o'clock blorp", "yesterday blorp", "at 10am mass") may
  say which time is meant: the slot reading refused it, never ignored it (slotfirst._AFTER_A_TIME; stop 54's notes:
  "what changed since ten o'clock blorp?" was answered as since 10:00, "blorp" shown as ignored). Glue ("please",
  "now"), a trailing "thanks", punctuation and the words that say how exact the time is ("sharp", "exactly") read as
  before.
- a count of moves said with the moves as a noun that the thing made or went through ("count for me the moves the book
  has made since ten", "the number of relocations the book went through yesterday", "how many separate moves has the
  remote made, in total"): count_moves (operators.py; heldout34's H029, H031, heldout35's I028);
- the places to try or check, ranked by promise ("best spots to check for my phone", "which places should I try for
  the keys, most promising first"): where to look (operators.py; heldout35's I113, I116 need a thing of an earlier
  sentence, which stays refused);
- a time told beside the question that the question names again (understand._told_again, stop 48) is read when the
  order of the answer follows as a clause of its own ("The cleaner came at nine this morning. Where has the mug been
  since nine, in order?": heldout34's H019, heldout35's I018), the order shown as ignored, and when the told clause
  names a day ("We had guests yesterday at 7 pm. What was on the table at 7 pm yesterday?": heldout35's I136 was
  refused as a day in talk); another moment, a pronoun or "newest first" stay refused.
None of the sentences below is a line of a question set; each reading is exact, each refusal has its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import TODAY, YESTERDAY, reading, refusal, understood

from tempomem_ros.core.answering import Names

NAMES = Names(["mug", "keys", "lamp", "sofa", "table", "coffee table", "shelf", "chair", "plant", "remote", "phone",
               "wallet", "bed", "counter", "jacket", "laptop", "glasses", "umbrella", "book", "cup", "bowl",
               "notebook", "backpack", "charger", "headphones"],
              ["kitchen", "living room", "hall", "bedroom", "office"])
H = 3600.0


# ------------------------------------------------------------------ an unknown word after a time is no filler
@pytest.mark.parametrize("question", [
    "what changed since ten o'clock blorp?",
    "what changed since ten o'clock mass?",
    "what moved since 10am delivery",
    "what changed since midnight snack",
    "what has changed since yesterday lunchtime",
    "what changed in the last hour blorp",
    "what changed since 10 frumious",
    "where was the mug at 10am wibble?",
    "what was on the table at 9 o'clock daily?",
    "what was on the table at nine am service",
])
def test_an_unknown_word_after_a_time_is_refused(question):
    assert refusal(question, NAMES).reason


@pytest.mark.parametrize("question, op, args", [  # must stay answered: glue, thanks, marks, how exact the time is
    ("what changed since ten o'clock?", "changes", {"since": TODAY + 10 * H}),
    ("what changed since ten o'clock please?", "changes", {"since": TODAY + 10 * H}),
    ("what changed since ten o'clock, thanks", "changes", {"since": TODAY + 10 * H}),
    ("what changed since ten o'clock thanks!", "changes", {"since": TODAY + 10 * H}),
    ("what changed since ten o'clock sharp", "changes", {"since": TODAY + 10 * H}),
    ("what changed since ten o'clock today?", "changes", {"since": TODAY + 10 * H}),
    ("what changed since yesterday please", "changes", {"since": YESTERDAY}),
    ("what was on the table at 9 am exactly", "relational_as_of", {"anchor": "table", "relation": "on",
                                                                    "t": TODAY + 9 * H}),
    ("what was on the table at 9 am, please", "relational_as_of", {"anchor": "table", "relation": "on",
                                                                    "t": TODAY + 9 * H}),
    ("where was the mug at 10am please?", "as_of", {"label": "mug", "t": TODAY + 10 * H}),
])
def test_glue_and_marks_after_a_time_stay_answered(question, op, args):
    u = understood(question, NAMES)
    assert u.operator == op
    assert {k: u.args.get(k) for k in args} == args


# ------------------------------------------------------------------ moves counted as a noun
@pytest.mark.parametrize("question, label, since", [
    ("count for me the moves the lamp has made since ten o'clock.", "lamp", TODAY + 10 * H),
    ("count the moves the chair has made", "chair", None),
    ("tally up the moves the bowl has made today", "bowl", TODAY),
    ("the number of relocations the plant went through yesterday?", "plant", YESTERDAY),
    ("how many relocations has the lamp gone through?", "lamp", None),
    ("How many separate moves has the chair made, in total?", "chair", None),
    ("how many distinct moves has the bowl made?", "bowl", None),
    ("how many moves has the remote made?", "remote", None),  # as before
])
def test_moves_counted_as_a_noun(question, label, since):
    u = understood(question, NAMES)
    assert (u.operator, u.args["label"], u.args.get("since")) == ("count_moves", label, since)


@pytest.mark.parametrize("question", [  # must stay refused
    "count the moves the lamp has not made",
    "count the moves my sister has made",
    "count the moves the mug and the book have made",
    "the number of relocations the plant went through yesterday blorp?",
])
def test_moves_counted_stay_refused(question):
    assert refusal(question, NAMES).reason


# ------------------------------------------------------------------ places to try or check are where to look
@pytest.mark.parametrize("question, label, unknown", [
    ("best spots to check for my phone?", "phone", ""),
    ("what are the best places to look for the keys?", "keys", ""),
    ("which places should I try for the keys?", "keys", ""),
    ("which places should I try for the wallet, most promising first?", "wallet", ""),
    ("which spots should we check first for the remote?", "remote", ""),
    ("best spots to check for the zither?", "zither", "label"),
])
def test_places_to_try_are_where_to_look(question, label, unknown):
    assert reading(question, NAMES) == ("where_to_look", {"label": label}, unknown)


@pytest.mark.parametrize("question", [  # must stay refused: no thing, a negation, the future
    "best spots to check?",
    "which places should I try first?",
    "which places should I not try for the keys?",
    "which places should I try for the keys tomorrow?",
])
def test_places_to_try_stay_refused(question):
    assert refusal(question, NAMES).reason


# ------------------------------------------------------------------ a told time named again, with the answer's order
@pytest.mark.parametrize("question, op, args", [
    ("The cleaner came at nine this morning. Where has the mug been since nine, in order?", "history",
     {"label": "mug", "since": TODAY + 9 * H}),
    ("The plumber came at eight this morning. Where have my glasses been since eight, one place after another?",
     "history", {"label": "glasses", "since": TODAY + 8 * H}),
    ("The cleaner came at nine this morning. What changed since nine, in order?", "changes", {"since": TODAY + 9 * H}),
    ("We had guests yesterday at 7 pm. What was on the table at 7 pm yesterday?", "relational_as_of",
     {"anchor": "table", "relation": "on", "t": YESTERDAY + 19 * H}),
    ("The cleaner came at nine this morning. Where has the mug been since nine?", "history",  # as before
     {"label": "mug", "since": TODAY + 9 * H}),
])
def test_a_told_time_named_again_with_the_answers_order(question, op, args):
    u = understood(question, NAMES)
    assert u.operator == op
    assert {k: u.args.get(k) for k in args} == args
    assert "is the question's own" in u.words


@pytest.mark.parametrize("question", [  # must stay refused: another moment, a pronoun, an order not the answer's
    "The cleaner came at nine this morning. Where has the mug been since ten, in order?",
    "The cleaner came at nine this morning. Where has it been since nine, in order?",
    "The cleaner came at nine this morning. Where has the mug been since nine, newest first?",
    "We had guests yesterday at 7 pm. What was on the table at 8 pm yesterday?",
    "I had the mug yesterday. where is it now?",
])
def test_a_told_time_not_named_again_stays_refused(question):
    assert refusal(question, NAMES).reason
