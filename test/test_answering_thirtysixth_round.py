"""Issue 13, thirty-sixth round (stop 55, i13-r35: heldout35 into "all", read as a development set with heldout34):
classes, each on sentences of our own.

- a word right after a time that no class takes ("since ten o'clock blorp", "yesterday blorp", "at 10am mass") may
  say which time is meant: the slot reading refused it, never ignored it (slotfirst._AFTER_A_TIME; stop 54's notes:
  "what changed since ten o'clock blorp?" was answered as since 10:00, "blorp" shown as ignored). Glue ("please",
  "now"), a trailing "thanks", punctuation and the words that say how exact the time is ("sharp", "exactly") read as
  before.
None of the sentences below is a line of a question set; each reading is exact, each refusal has its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import TODAY, YESTERDAY, refusal, understood

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
