"""What a reading may not leave out (twenty-first round): a time the question points back at, and a time or a
duration it asks with a word the reading ignored.

Why a check after the readers, not a rule in one of them: heldout22's wrong routes came from different readers that
each dropped a word of time and answered the rest. "..., I got home at one and honestly I can't tell what's
different, so what changed since then?" (g072) was answered with every change since ever: normalise drops a trailing
"then", the told time was in a clause the told-time reader does not part, and "since" alone reads as no bound. "mug,
secs at present location" (g060) was answered as the mug's place, "secs" shown as ignored. Both are the same fault: a
word that bounds or asks a time is gone from the answer. A question that points back at a told time is answered only
when a reader put a time in ("reading 'since then' as the told 'at 1'", understand._told_then), and a reading that
ignores a unit of time (or "duration", "dwell") is refused, since the question asked a length of time or a moment the
reading does not hold. Both refuse; neither guesses.
"""

from __future__ import annotations

import re

# A pointer back at a moment told elsewhere: "since then", "by then", "after that", "at that time". A bare "then"
# ("where is it then?", "ok then") points nowhere and stays as normalise leaves it; "before then" may point at an
# event ("the chair got cleared off - what had been sitting on it before then", heldout14: before its last change).
POINTS_BACK = re.compile(r"\b(?:since (?:then|that time|that point|that moment)|after that|(?:until|till|by) then|"
                         r"at that (?:time|point|moment))\b", re.I)
# A told event named as the moment of a question of the past: "what was under the sofa when she got here" was answered
# as now, the clause taken for talk (understand._WHEN_TOLD reads it beside its told time). Only where the question asks
# in the past: in "where is my wallet, I left it somewhere when I came in" (heldout11) the clause narrates.
# The verbs of coming and going that name a told event ("when she got here", "when I left"): ONE alternation, that
# WHEN_EVENT here and understand._WHEN_TOLD (which reads the event beside its told time) are both built from, so that a
# verb added to one is read by both.
COMING_GOING = (r"(?:left|arrived|got (?:here|there|in|home|back)|came (?:in|over|round|around|back|home|by)|"
                r"popped (?:round|in|over|by)|turned up|showed up|dropped (?:in|by))")
WHEN_EVENT = re.compile(rf"\b(?:was|were) .*\b(when (?:i|we|he|she|they) {COMING_GOING})\b", re.I)
POINTED_BACK = ("I did not understand the time: the question points back at a time ('{word}') I could not find in it; "
                "ask with the time itself")
# units of time and words of a length of time: ignored beside a reading, they were asked and not answered
TIME_WORDS = frozenset(("sec secs second seconds min mins minute minutes hr hrs hour hours day days duration dwell "
                        "ago").split())
TIME_IGNORED = ("I did not understand the time: the question asks '{word}', a time or a length of time the reading "
                "would leave out; ask 'how long has the X been there' or give the time")


def pointed_back(question: str, args: dict) -> str | None:
    """The pointer back ("since then") a reading left out, or None: None also when the reading holds a moment or a
    span's start (a reader put the told time in: "The guests left at 11. What's changed since then?", heldout11)."""
    if args.get("since") is not None or args.get("t") is not None:
        return None
    m = POINTS_BACK.search(question)
    if m is not None:
        return m.group(0).lower()
    m = WHEN_EVENT.search(question)
    return m.group(1).lower() if m is not None else None


def time_ignored(ignored) -> str | None:
    """The first word of time among a reading's ignored words ("secs"), or None."""
    for said in ignored:
        for w in str(said).lower().split():
            if w in TIME_WORDS:
                return w
    return None
