"""Punctuation spoken into a dictation: "where is my charger question mark" (eighteenth round).

Why: heldout19 refused four questions a voice transcript typed with its marks spoken ("... since Monday question mark",
"what went missing on Tuesday question mark"): the words "question mark" were read as part of the question. A text that
holds no mark of its own and ends in a spoken mark, or holds "comma" between words, is read with the marks put in:
"question mark" -> "?", "exclamation mark / point" -> "!", "full stop" and a final "period" -> ".", "comma" -> ",".
Only in a text without marks (dictation writes either the marks or their names, not both) and only those names; a
"period" inside a text ("in the period since 9") is a word.
"""

from __future__ import annotations

import re

_MARKS = re.compile(r"[?!.,;]")
_SPOKEN = re.compile(r"\s+(question mark|exclamation (?:mark|point)|full stop|comma)\b(?=\s|$)", re.I)
_FINAL_PERIOD = re.compile(r"\s+period\s*$", re.I)
_SIGN = {"question mark": "?", "exclamation mark": "!", "exclamation point": "!", "full stop": ".", "comma": ","}


def marks(text):
    """The text with its spoken marks written (module doc); unchanged when it holds none, or marks of its own."""
    if not isinstance(text, str) or _MARKS.search(text) or not (_SPOKEN.search(text) or _FINAL_PERIOD.search(text)):
        return text
    out = _SPOKEN.sub(lambda m: _SIGN[m.group(1).lower()], text)
    return _FINAL_PERIOD.sub(".", out)


__all__ = ["marks"]
