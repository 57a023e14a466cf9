"""Seventh round of issue 13: a clock in words after a preposition, "at half twelve" (British: half past twelve) and
"at nine fifteen" (hour, then minutes as a number word), read as the clock they say; spans keep their reading.
Questions written for the rule, not lines of the question sets."""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, YESTERDAY, call

from tempomem_ros.core.answering import Names

NAMES = Names(["mug", "lamp", "umbrella", "headphones", "table"], ["kitchen"])
H = 3600.0


@pytest.mark.parametrize("question,op,args", [
    ("where was the lamp at half twelve", "as_of", {"label": "lamp", "t": TODAY + 12.5 * H}),
    ("where was the lamp at half 9", "as_of", {"label": "lamp", "t": TODAY + 9.5 * H}),
    ("where was the mug at nine fifteen this morning", "as_of", {"label": "mug", "t": TODAY + 9.25 * H}),
    ("where was the mug at ten thirty yesterday", "as_of", {"label": "mug", "t": YESTERDAY + 10.5 * H}),
    ("what was on the table at eleven forty five", "relational_as_of",
     {"relation": "on", "anchor": "table", "t": TODAY + 11.75 * H}),
    # now is 14:30: "two forty five" is the last 2:45 not after now, as "at 2:45" reads
    ("where was the lamp at two forty five", "as_of", {"label": "lamp", "t": TODAY + 2.75 * H}),
    # spans keep their reading
    ("where was the mug half an hour ago", "as_of", {"label": "mug", "t": NOW - 0.5 * H}),
    ("how often did the mug move in the last half hour", "count_moves", {"label": "mug", "since": NOW - 0.5 * H,
                                                                          "until": NOW}),
])
def test_a_clock_in_words(question, op, args):
    assert call(question, NAMES) == (op, args)
