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
