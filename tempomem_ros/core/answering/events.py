"""Clauses that name an event of the speaker's life: talk, unless their time is the question's only time.

Why (issue 13, sixth round): about 15 of the ninth set's 70 refusals were questions with such a clause, "where
was the mug when I arrived at 10 this morning", "anything moved since my shift started at 7 last night", "where
was the remote yesterday at 5 pm, before the guests checked out". The memory knows no arrivals or shifts; what
the clause gives is a time, or nothing. The rule, one place for all of them:

- an **event clause** is a subordinator (when, while, once, as soon as, since, after, before, until) followed by a
  subject (a pronoun, a determiner and one or two words, or one bare word: "practice") and a verb in the past
  ("arrived", "started", "began", "checked out");
- when the event clause carries a time and the rest of the question carries none, the clause is replaced by its
  time: "when I arrived at 10 this morning" -> "at 10 this morning", "since my shift started at 7 last night" ->
  "since at 7 last night" (since and after keep their "since"; the others mean the moment itself);
- when the rest of the question carries a time, the clause is talk and is dropped, with or without a time of its
  own ("where was the laptop at 8 pm yesterday, when the incident happened");
- an event named by a noun ("before the raid", "after the warm-up", "during rounds") is dropped as talk when the
  rest of the question carries a time (it carries none itself);
- a clause of reason in the present ("now that the guests are gone", "since it's clearly not there now", "because
  the kids never put anything back") is talk and is dropped, unless it carries a time;
- when neither carries a time, nothing changes (the question is read as it was: "before the kids dragged it off"
  is still the place before the last move, read by the rules that had it).

Applied to the question as typed, before normalising, so the clause reader and the forms see the same text.
"""

from __future__ import annotations

import re

from . import timeexpr
from .normalise import normalise

_SUBORDINATORS = r"when|while|once|as soon as|since|after|before|until|till"
_SUBJECT = (r"(?:i|we|you|he|she|they|everyone|everybody|someone|somebody|people|"
            r"(?:the|my|our|his|her|their|a|an|this|that) [a-z'-]+(?: [a-z'-]+)?|[a-z-]+)")
# a verb in the past: a regular -ed form or one of the common irregular ones
_PAST = (r"(?:[a-z]+ed|began|begun|came|went|got|left|woke|ran|took|gave|had|was|were|sat|stood|fell|broke|"
         r"brought|caught|drove|flew|made|met|paid|rang|said|saw|sent|slept|spoke|swam|threw|told|won|wrote)")
_EVENT = re.compile(r"(?:^|(?<=[\s,;(-]))(?P<sub>" + _SUBORDINATORS + r") (?P<subj>" + _SUBJECT + r") (?P<verb>"
                    + _PAST + r")\b(?P<tail>[^,;.?!]*)", re.IGNORECASE)


# "before the raid", "after the warm-up", "during rounds": an event named by a noun; talk only beside another time
# (stop 50, heldout30's D042: "..., one place after another?" names no event: "another" / "the other" is one of a
# series, the order of the answer)
_NOUN_EVENT = re.compile(r"(?:^|(?<=[\s,;(-]))(?P<sub>before|after|during) (?:(?:the|my|our|his|her|their|a) )?"
                         r"(?P<noun>(?!(?:another|other|the other)\b)[a-z-]+(?: [a-z-]+)?)(?=\s*(?:[,;.?!]|$))",
                         re.IGNORECASE)


# Sixteenth round: an event named by a noun with its own clock time ("since the interval at 1:45", "after the
# briefing at 9"): the time is the event's, and so the question's when the rest carries none (heldout18's "did any
# props get moved since the interval at 1:45" took "interval" for the thing asked of). A determiner is required, so
# a time word is never the noun ("since yesterday at 10" stays timeexpr's).
_NOUN_EVENT_AT = re.compile(r"(?:^|(?<=[\s,;(-]))(?P<sub>since|after|before|until|till) (?:the|my|our|his|her|their|"
                            r"a|an|this) (?P<noun>[a-z-]+(?: [a-z-]+)?) (?P<when>at [^,;.?!]+)", re.IGNORECASE)


# "now that the guests are gone", "since it's clearly not there now", "because the kids never put anything back":
# why one asks, in the present; talk wherever it stands after the question's start ("since" only with a present
# verb: "since it is ..." gives a reason, "since it was moved" a time)
# twenty-fifth round: never "since when" ("The plant, since when is it in your records?" asks first seen; with the
# clause dropped as a reason it was answered as the plant's place now)
_REASON = re.compile(r"(?<=[\s,;(-])(?:now that|because|cause|seeing as|since(?! when\b)) (?:" + _SUBJECT + r")"
                     r"(?:'s|'re| (?:is|are|isn't|aren't|isnt|arent|keeps?|never|always|can't|cannot|won't|clearly|"
                     r"obviously|really|seem|seems))\b[^,;.?!]*", re.IGNORECASE)
_REASON_PAST = re.compile(r"(?<=[\s,;(-])(?:now that|because|cause|seeing as) (?:" + _SUBJECT + r") "
                          r"(?:have|has|had|was|were|" + _PAST + r")\b[^,;.?!]*", re.IGNORECASE)


# Stop 48 (heldout28's B011, "Nanny here, the twins are howling because somebody moved their kaleidoscope. Where did it
# sit before its present place?", answered about a word of the talk): a clause of reason dropped as talk may name the
# thing the question then asks of by a pronoun. Its object (a determiner and one or two words ending the clause, after
# a verb) takes the place of the first pronoun of a question after it that names no thing of its own, so the talk goes
# and the thing stays ("... where did their kaleidoscope sit ...": "I don't know any kaleidoscope").
_REASON_OBJECT = re.compile(r"\b" + _PAST + r"(?: (?:away|off|out|up|around|about))? (?P<np>(?:the|my|our|his|her|"
                            r"their|your) [a-z-]+(?: [a-z-]+)?)\s*$", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(?:it|they|them)\b(?!')", re.IGNORECASE)
_A_THING = re.compile(r"\b(?:the|my|our|his|her|their|your|a|an|this|that|these|those)\b", re.IGNORECASE)


def _referent_kept(clause: str, after: str) -> str:
    """``after`` (the question's text after a dropped clause of reason) with its first pronoun replaced by the thing
    the clause named (above); unchanged when the clause names none or ``after`` names a thing itself."""
    m = _REASON_OBJECT.search(clause)
    pronoun = _PRONOUN.search(after)
    if m is None or pronoun is None or _A_THING.search(after):
        return after
    return after[:pronoun.start()] + m.group("np") + after[pronoun.end():]


def _times(text: str, now) -> list:
    try:
        return timeexpr.extract(normalise(text), now)[1]
    except timeexpr.TimeError:
        return [None]  # an unreadable time counts as a time: nothing is dropped on its account


def rewrite(question: str, now) -> str:
    """The question with its one event clause replaced by the clause's time or dropped (see the module doc);
    unchanged when it has none, more than one, or neither part carries a time."""
    if not isinstance(question, str) or timeexpr.DAY_OF_ANOTHER_WEEK.search(question):
        return question  # "the sunday before last" is no event "before last" (timeexpr refuses the day: which week?)
    for rx in (_REASON, _REASON_PAST):
        m = rx.search(question)
        if m and not _times(m.group(0), now):
            question = _tidy(question[:m.start()] + _referent_kept(m.group(0), question[m.end():]))
    found = list(_EVENT.finditer(question))
    if not found:
        timed = list(_NOUN_EVENT_AT.finditer(question))
        if len(timed) == 1:
            m = timed[0]
            rest = (question[:m.start()] + " " + question[m.end():]).strip()
            when = _times(m.group("when"), now)
            if len(when) == 1 and None not in when and not _times(rest, now) and not _times(m.group("noun"), now):
                repl = ("since " if m.group("sub").lower() in ("since", "after") else "") + m.group("when")
                return _tidy(question[:m.start()] + repl + question[m.end():])
        nouns = list(_NOUN_EVENT.finditer(question))
        if len(nouns) == 1 and nouns[0].start() > 0:
            m = nouns[0]
            rest = (question[:m.start()] + " " + question[m.end():]).strip()
            if _times(rest, now) and not _times(m.group(0), now):
                return _tidy(question[:m.start()] + question[m.end():])
        return question
    if len(found) != 1:
        return question
    m = found[0]
    rest = (question[:m.start()] + " " + question[m.end():]).strip()
    rest_times = _times(rest, now)
    tail = m.group("tail").strip()
    tail_times = _times(tail, now) if tail else []
    if rest_times:
        repl = ""
    elif m.group("sub").lower() == "after" and re.search(r"\bwhere\b", rest, re.IGNORECASE):
        return question  # "where was the mug after I moved it at 10": its place at 10 or all places since? no guess
    elif tail_times and None not in tail_times:
        words = tail.split()
        # the time is the tail from its first word that starts a time ("at 10 this morning", "7 last night")
        start = next((k for k in range(len(words)) if _times(" ".join(words[k:]), now) and not _times(
            " ".join(words[k + 1:]), now) == _times(" ".join(words[k:]), now)), 0)
        when = " ".join(words[start:])
        if m.group("sub").lower() in ("since", "after"):
            when = "since " + when  # "since at 7 last night": timeexpr reads the moment, the reader "since" it
        repl = when
    else:
        return question
    return _tidy(question[:m.start()] + repl + question[m.end():])


def _tidy(out: str) -> str:
    out = re.sub(r"(?:\s*,){2,}", ",", out)  # the commas around a dropped clause
    out = re.sub(r"\s*,\s*(?=[?.!]|$)", "", out)  # a comma left before the end
    out = re.sub(r"^\s*,\s*", "", out)
    return re.sub(r"\s+", " ", out).strip()


__all__ = ["rewrite"]
