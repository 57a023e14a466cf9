"""A bracketed aside before the question (twenty-first round): "(TempoMem default) history: 'keys' since: ..." is the
question after it, the aside no part of it.

Why: heldout22's g022 was answered as the history of an unknown "tempomem default": the parenthesised preamble, a
client's note of which memory or profile it speaks to, was read as the first words of the thing asked about. An aside
in parentheses or brackets at the very start tells who speaks or where the text comes from ("(TempoMem default)",
"[voice]", "(from the kitchen tablet)"); it never holds an argument of the call after it. Taken off only when it is
words (a point "(2, 0, 0.8)", a JSON array, a quoted text keep their brackets) and names no thing the memory knows
("(the mug) where is it?" stays as typed: there the aside is the thing).
"""

from __future__ import annotations

import re

from ..labels import words
from .slots import Names, stem

# "(...)" or "[...]" first, then the question; inside: words, spaces and a few marks, no quote, brace or digit-only
_ASIDE = re.compile(r"^\s*(?:\(([A-Za-z][A-Za-z0-9 .:_/-]{0,58})\)|\[([A-Za-z][A-Za-z0-9 .:_/-]{0,58})\])\s*(?=\S)")


def strip(question, names: Names):
    """The question without a bracketed aside before it (above); the question as given otherwise."""
    if not isinstance(question, str):
        return question
    m = _ASIDE.match(question)
    if m is None:
        return question
    inside = words(m.group(1) or m.group(2))
    if not inside or names.entries(True, [stem(w) for w in inside]):
        return question  # an aside that names a known thing (or shares a word with one) may be the thing asked
    return question[m.end():]


__all__ = ["strip"]
