"""The operator table's forms written out as sentences: the canonical questions the similarity reader compares with.

Why generated from the forms and not written by hand: the table (operators.py) stays the one place a phrasing is
added; every form added there brings its sentences here. Each regular expression is walked (Python's own regex
parser) and its alternatives are written out, optional parts both with and without; the slots become
placeholders (similar.THING for {x} and {a}, similar.WHEN / similar.SPAN for the time marks @t / @w), so the
sentences read like a question whose thing and time were taken out. A form's alternatives multiply fast (one
form of "current" has about 10^5 spellings); each form keeps at most ``per_form`` of them, picked at even steps
through the full product, which is deterministic (no sampling, no hash order).
"""

from __future__ import annotations

import functools
import re
import re._parser as sre_parse  # the standard library's own regex parser: the forms are read as re reads them

from .operators import RELATION_WORDS, TABLE

THING = "the object"
WHEN = "at that time"
SPAN = "during that time"
# What a slot macro is written as in a canonical sentence (understand._MACROS reads them as regex groups).
SLOT_TEXT = {
    "{x}": THING, "{a}": THING, "{d}": "something", "{rel}": "on", "{R}": "1 m", "{P}": "1 2 0",
    "{be}": "(?:is|are)", "{was}": "(?:was|were)",
    "{you}": "(?:i|you|we|the robot)",
    "{see}": "(?:see|seen|saw|spot|spotted|notice|noticed)",
}
_SLOT_RE = re.compile("|".join(re.escape(k) for k in SLOT_TEXT))
_CAP = 4096  # a partial product larger than this is thinned at even steps before it grows further


def _thin(items: list[str], cap: int) -> list[str]:
    if len(items) <= cap:
        return items
    step = len(items) / cap
    return [items[int(i * step)] for i in range(cap)]


def _seq(parsed, cap: int) -> list[str]:
    out = [""]
    for op, av in parsed:
        alts = _node(op, av, cap)
        out = _thin([a + b for a in out for b in alts], cap)
    return out


def _node(op, av, cap: int) -> list[str]:
    name = str(op)
    if name == "LITERAL":
        return [chr(av)]
    if name == "SUBPATTERN":
        return _seq(av[-1], cap)
    if name == "BRANCH":
        out: list[str] = []
        for alt in av[1]:
            out += _seq(alt, cap)
        return _thin(out, cap)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        lo, _hi, sub = av
        body = _seq(sub, cap)
        return ([""] if lo == 0 else []) + body  # "?" both ways; "+" / "*" once
    if name == "IN":  # a class: its first member
        for kind, val in av:
            if str(kind) == "LITERAL":
                return [chr(val)]
            if str(kind) == "RANGE":
                return [chr(val[0])]
            if str(kind) == "CATEGORY":
                return ["1" if "DIGIT" in str(val) else " " if "SPACE" in str(val) else "a"]
        return [""]
    if name == "CATEGORY":
        return ["1" if "DIGIT" in str(av) else " " if "SPACE" in str(av) else "a"]
    if name == "ANY":
        return ["a"]
    if name == "NOT_LITERAL":
        return ["a"]
    return [""]  # AT (anchors), ASSERT / ASSERT_NOT (look-arounds), GROUPREF: nothing to write


def _tidy(s: str) -> str:
    s = s.replace("@t", WHEN).replace("@w", SPAN)
    return re.sub(r"\s+", " ", s).strip()


def form_sentences(pattern: str, per_form: int) -> list[str]:
    """Up to ``per_form`` sentences the form matches, slots as placeholders, in a fixed order."""
    text = _SLOT_RE.sub(lambda m: SLOT_TEXT[m.group(0)], pattern)
    sentences = [_tidy(s) for s in _seq(sre_parse.parse(text), _CAP)]
    sentences = [s for s in dict.fromkeys(sentences) if s]
    return _thin(sentences, per_form)


@functools.lru_cache(maxsize=4)
def canonical(per_form: int = 24) -> tuple[tuple[str, tuple, str], ...]:
    """(operator, fixed arguments as a sorted tuple, sentence) for every form of the table; a form that names
    a relation ({rel}) is written once per relation so its sentences say which."""
    out = []
    rel_words = {v: k for k, v in sorted(RELATION_WORDS.items(), key=lambda kv: len(kv[0]))}  # shortest word
    for spec in TABLE:
        for form in spec.forms:
            fixed = tuple(sorted((k, tuple(v) if isinstance(v, (list, tuple)) else v) for k, v in form.fixed.items()))
            patterns = [form.pattern]
            if "{rel}" in form.pattern:
                patterns = [form.pattern.replace("{rel}", rel_words[r]) for r in sorted(rel_words)]
            for p in patterns:
                for s in form_sentences(p, per_form):
                    out.append((spec.name, fixed, s))
    return tuple(dict.fromkeys(out))
