"""Number words: ``ONES`` (zero to nineteen) and ``TENS`` (twenty to ninety), each word to its value.

Why a module of their own: timeexpr reads times and counts said in words ("twenty five minutes ago", "at two") and
typo never takes a number word for a slip of a vocabulary word ("at two" read as "at tow", a move: stop 47); both
must know the same words, and typo read them as timeexpr's private tables.
"""

from __future__ import annotations

ONES = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}

__all__ = ["ONES", "TENS"]
