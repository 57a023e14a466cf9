"""What the understander tests share: the clock of the question sets and one check per kind of reading.

Why one place: five test modules asked their questions at the same instant (2026-01-15 14:30 UTC, the time
bench/question_eval.py asks at) and each wrote the same two checks around ``understand``; only the labels the
memory knows (``Names``) differ between them.
"""

from __future__ import annotations

import datetime as dt

from tempomem_ros.core.answering import Names, Refusal, Understanding, understand

NOW = dt.datetime(2026, 1, 15, 14, 30, tzinfo=dt.timezone.utc).timestamp()
TODAY = NOW - 14.5 * 3600        # midnight of the day of NOW
YESTERDAY = TODAY - 86400


def understood(question: str, names: Names) -> Understanding:
    out = understand(question, NOW, names)
    assert isinstance(out, Understanding), (question, out)
    return out


def refusal(question: str, names: Names) -> Refusal:
    out = understand(question, NOW, names)
    assert isinstance(out, Refusal), (question, out)
    return out


def reading(question: str, names: Names) -> tuple:
    """The question's reading as the round tests compare it: (operator, arguments, unknown)."""
    got = understood(question, names)
    return got.operator, got.args, got.unknown


def call(question: str, names: Names) -> tuple:
    """The question's reading as (operator, arguments): the round tests that leave ``unknown`` aside."""
    got = understood(question, names)
    return got.operator, got.args


# The labels and places the memory knows in two rounds each (twenty-third and twenty-fourth; thirty-second and
# thirty-third): one list each.
ROUND23_NAMES = Names(["mug", "keys", "table", "coffee table", "desk", "lamp", "phone", "wallet", "book", "laptop",
                       "plant", "jacket", "sofa", "remote"],
                      ["kitchen", "hall", "bedroom"])
ROUND32_NAMES = Names(["mug", "keys", "lamp", "sofa", "table", "shelf", "chair", "plant", "remote", "phone", "wallet",
                       "bed", "counter", "jacket", "laptop", "glasses", "umbrella", "book", "cup", "bowl",
                       "water bottle", "notebook", "backpack", "charger"],
                      ["kitchen", "living room", "hall", "bedroom", "office"])
