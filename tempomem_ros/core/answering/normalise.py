"""Question text -> one canonical lower-case string the operator forms are written against.

Why a separate pass: people type "Where's the MUG??", "could you please tell me where the lamp is" or "hey,
where is the plant" for one question. Folding case, apostrophes, contractions, politeness and fillers here
means every form in the operator table is written once, in plain words, instead of once per way of typing
it. Nothing here guesses: each rule removes words that carry no meaning for the memory or rewrites a
contraction to its full form; the words that remain decide the operator.
"""

from __future__ import annotations

import re
import unicodedata

MAX_QUESTION_CHARS = 500  # a question longer than this is not a question to a memory (and bounds the regexes)

_CONTRACTIONS = [
    (r"\bwhat's\b", "what is"), (r"\bwhere's\b", "where is"), (r"\bwho's\b", "who is"), (r"\bhow's\b", "how is"),
    (r"\bwhen's\b", "when is"), (r"\bthere's\b", "there is"), (r"\bthat's\b", "that is"), (r"\bit's\b", "it is"),
    (r"\bhere's\b", "here is"), (r"\bwhat're\b", "what are"), (r"\bwhere're\b", "where are"),
    (r"\bwhere'd\b", "where did"), (r"\bi'm\b", "i am"), (r"\bi've\b", "i have"), (r"\byou've\b", "you have"),
    (r"\bwe've\b", "we have"), (r"\bi'd\b", "i would"), (r"\byou'd\b", "you would"), (r"\bcan't\b", "cannot"),
    (r"\bwon't\b", "will not"), (r"\b(\w+)n't\b", r"\1 not"), (r"\bo'clock\b", "oclock"),
    (r"'s\b", ""),  # what remains is a possessive: "the chair's place" -> "the chair place"
]
_CONTRACTIONS = [(re.compile(p), r) for p, r in _CONTRACTIONS]

# Leading politeness and fillers, longest first (each removed only as whole words at the start).
_LEADING = sorted([
    "please", "hey", "hi", "hello there", "ok", "okay", "so", "um", "uh", "well", "robot", "hey robot", "excuse me",
    "quick question", "question", "just", "tell me", "please tell me", "can you tell me", "could you tell me",
    "could you please tell me", "can you please tell me", "would you tell me", "would you please tell me",
    "do you know", "do you happen to know", "i wonder", "i wonder if you know", "i would like to know",
    "i want to know", "i need to know", "let me know", "any idea", "any ideas", "have you any idea",
    "do you have any idea", "can you please", "could you please", "would you please", "can you", "could you",
    "would you", "will you", "i would like you to", "i want you to", "kindly", "tell me please",
], key=lambda s: -len(s))
_LEADING_RE = re.compile(r"^(?:(?:" + "|".join(re.escape(s) for s in _LEADING) + r")\b\s*)+")
_TRAILING_RE = re.compile(r"(?:\s+(?:please|for me|thanks|thank you|again|exactly|then))+$")
# Words that only add emphasis, anywhere in the question. The second group are polarity and hedging words:
# "has the table moved at all", "did the desk ever move", "did you see my keys at any point today" ask exactly
# what they ask without them (the first held-out half refused "has the table moved at all"), and left in they
# fall into a slot ("table moved at all") that no form accepts. "ever since 9" keeps its "since 9".
_MIDDLE = [(re.compile(r"\b(?:the heck|on earth|the hell|actually|exactly)\b\s*"), ""),
           (re.compile(r"\b(?:at all|ever|by any chance|at any point|at any time|whatsoever|perhaps|maybe|possibly|"
                       r"really|even|yet|already)\b\s*"), "")]
# An embedded question after "do you know" / "tell me": "where the lamp is" -> "where is the lamp".
_EMBEDDED = [
    (re.compile(r"^where (.+?) (is|are)$"), r"where \2 \1"),
    (re.compile(r"^where (.+?) (was|were)( .+)?$"), r"where \2 \1\3"),
    (re.compile(r"^what (.+?) (is|are) (on|under|near|in|next to|inside)( .+)$"), r"what \2 \3\4"),
]
_NUMBER_DASH = re.compile(r"(?<=[a-z])-(?=[a-z])")  # twenty-five -> twenty five; keeps -1.5
_PUNCT = re.compile(r"[^\w\s.:=,'@+-]")


def normalise(question: str) -> str:
    """Lower-case, contraction-free, filler-free text; '' when nothing meaningful is left."""
    if not isinstance(question, str):
        return ""
    q = unicodedata.normalize("NFKC", question)[:MAX_QUESTION_CHARS]
    q = "".join(" " if unicodedata.category(ch).startswith(("C", "Z")) else ch for ch in q)
    q = q.lower().replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    for pattern, repl in _CONTRACTIONS:
        q = pattern.sub(repl, q)
    q = q.replace("'", " ")
    q = _PUNCT.sub(" ", q)
    q = _NUMBER_DASH.sub(" ", q)
    # commas and full stops are separators unless they sit inside a number ("1.5", "0,5" is not supported)
    q = re.sub(r"(?<!\d)[.,]|[.,](?!\d)", " ", q)
    q = re.sub(r"\s+", " ", q).strip()
    previous = None
    while previous != q:  # fillers can stack: "hey robot, could you please tell me ..."
        previous = q
        q = _LEADING_RE.sub("", q).strip()
        q = _TRAILING_RE.sub("", q).strip()
        for pattern, repl in _MIDDLE:
            q = pattern.sub(repl, q).strip()
    for pattern, repl in _EMBEDDED:
        m = pattern.match(q)
        if m and not re.match(r"^where (is|are|was|were|did|do|does|can|could|should|would|might|has|have|had)\b", q):
            q = pattern.sub(repl, q)
            break
    if q.endswith(" at") and q.startswith("where "):  # "where's the cup at"
        q = q[:-3]
    return re.sub(r"\s+", " ", q).strip()
