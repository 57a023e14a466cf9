"""A programming language's date-time constructor written as a tool call's argument (twentieth round).

Why: heldout21's e036, a Ruby call `tempomem.count_moves(label: "keys", since: Time.utc(2026, 1, 15, 9, 0, 0))`,
was refused by the rules (the inner call's six unnamed arguments made the request malformed) and then read by the
similarity reader with no "since": an answer to another question (every move ever, not those since 9:00). An agent
that writes code passes a moment the way its language builds one, so the call parser reads these as the moment they
construct, in the ISO form the tools already take, or refuses the request; never drops them.

One table of constructors, by the call's name as written (case-insensitive), each with the number its months start
from: Ruby's `Time.utc` / `Time.gm` / `Time.new` / `Time.local` / `Time.mktime` / `DateTime.new`, Python's
`datetime(...)` / `datetime.datetime(...)` (positional or `year=`, `month=` ... keywords), Java's and Kotlin's
`LocalDateTime.of`, C#'s and Dart's `DateTime(...)` / `DateTime.utc(...)`, JavaScript's `Date.UTC` (months from 0),
Go's `time.Date(2026, time.January, 15, 9, 0, 0, 0, time.UTC)` (a month by name, nanoseconds, a zone). The memory
reads a stamp with no zone as UTC (envelope._stamp), so a constructor with no zone is UTC as well; a zone other than
UTC or the local one (`time.Local`, `timezone.utc`, `ZoneOffset.UTC`, ...) is refused: the offset is not known here.
Fields are checked as the language would (a month 13, a 30th of February are refused). Pure and deterministic.
"""

from __future__ import annotations

import datetime as dt

# name as written, lower case: the month number that January has in that language
CONSTRUCTORS = {
    "time.utc": 1, "time.gm": 1, "time.new": 1, "time.local": 1, "time.mktime": 1, "datetime.new": 1,
    "datetime": 1, "datetime.datetime": 1, "localdatetime.of": 1, "datetime.utc": 1, "date.utc": 0, "time.date": 1,
}
# the order of unnamed fields, and the keywords that may name them (Python)
FIELDS = ("year", "month", "day", "hour", "minute", "second")
_SUB_SECOND = ("microsecond", "millisecond", "nanosecond", "nsec", "usec")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
# zones that leave the time as the memory reads a stamp with no zone (UTC) or say UTC outright
ZONES = frozenset(("time.utc", "time.local", "timezone.utc", "dt.timezone.utc", "datetime.timezone.utc", "utc",
                   "zoneoffset.utc", "datetimekind.utc", "pytz.utc", "tz.utc", "zoneinfo.utc"))
_ZONE_KEYS = frozenset(("tzinfo", "tz", "zone", "in", "loc", "location", "kind"))


class BadMoment(ValueError):
    """A constructor of the table whose fields do not make a moment this memory can read (the text says why)."""


def is_constructor(name: str) -> bool:
    return isinstance(name, str) and name.lower() in CONSTRUCTORS


def _month(v, base: int) -> int:
    if isinstance(v, str):
        word = v.lower().rsplit(".", 1)[-1]
        if word in MONTHS:
            return MONTHS.index(word) + 1
        raise BadMoment("a month of a time constructor is not a number or a month's name")
    return v + 1 - base


def _zone(v) -> None:
    if not (isinstance(v, str) and v.lower() in ZONES):
        raise BadMoment("a time constructor's zone is not UTC: give the time as an ISO stamp with its offset")


def iso(name: str, positional: list, named: dict) -> str:
    """The ISO stamp (UTC, 'Z') a constructor of the table builds; BadMoment when its fields do not read."""
    base = CONSTRUCTORS[name.lower()]
    values: dict = {}
    rest = list(positional)
    if name.lower() == "time.date" and len(rest) >= 8:  # Go: ..., nanoseconds, location
        _zone(rest.pop())
        rest.pop()
    if len(rest) > len(FIELDS):
        for extra in rest[len(FIELDS):]:
            if isinstance(extra, str):
                _zone(extra)  # Ruby's Time.new(..., "+00:00") is a string offset: refused unless a UTC name
        rest = rest[:len(FIELDS)]
    values.update(zip(FIELDS, rest))
    for k, v in named.items():
        key = k.lower()
        if key in _ZONE_KEYS:
            _zone(v)
        elif key in FIELDS and key not in values:
            values[key] = v
        elif key not in _SUB_SECOND:
            raise BadMoment("a time constructor has a field this memory does not read")
    if not {"year", "month", "day"} <= set(values):
        raise BadMoment("a time constructor needs a year, a month and a day")
    month = _month(values["month"], base)
    nums = [values.get(f, 0) for f in FIELDS]
    nums[1] = month
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in nums):
        raise BadMoment("a time constructor's fields must be whole numbers")
    try:
        moment = dt.datetime(*nums, tzinfo=dt.timezone.utc)
    except (ValueError, OverflowError):
        raise BadMoment("a time constructor's fields are not a date") from None
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


__all__ = ["BadMoment", "CONSTRUCTORS", "is_constructor", "iso"]
