"""A place that narrows a question, which no reading may drop (stop 47, issue 13).

Why: heldout27's review found two answers wrong in spirit: "In the garage, how many mugs do you know of?" and
"Upstairs: how many mugs?" were answered with every mug the memory knows. The readers had no place to put the scope:
the forms took "in the garage" for a lead-in, the slot reading took "upstairs" for a clause of talk, and the count ran
over the whole memory. "On the second floor, where are the keys?" and "Upstairs, what moved today?" were answered the
same way (the place dropped). A place scope is applied only where a reading holds it as an argument (the anchor of
"what is in the kitchen", "is the mug in the office"); any other reading that leaves it out is refused, naming the
place, known or not. The whole home ("in the house", "at home", "in the flat", "in the place", "in the household")
narrows nothing and is no scope.

Adding a way to name a place: one word in PLACE_NOUNS, FLOOR_WORDS or PLACE_ADVERBS below.
"""

from __future__ import annotations

import re

from ..labels import words

# Rooms and parts of a home or a building: after a place preposition ("in the garage", "from the attic", "in room 3",
# "at the office") each names a part of the world a question may be narrowed to. Not "floor" (a surface: "on the
# floor"), not the whole home (house, home, flat, apartment, place, household: no narrowing).
PLACE_NOUNS = frozenset((
    "garage kitchen kitchenette bathroom bedroom bedrooms office study hall hallway corridor landing attic loft "
    "basement cellar shed garden yard backyard frontyard porch balcony patio terrace pantry lounge den nursery "
    "playroom conservatory workshop laundry utility lobby foyer vestibule room rooms storeroom boxroom annex annexe "
    "wing lab laboratory warehouse veranda verandah driveway gym sunroom mudroom washroom toilet loo scullery "
    "larder outhouse barn greenhouse").split())
# A floor of a building ("on the second floor", "on floor 2", "on the ground floor"): a bare "floor" is a surface.
# Stop 49: the whole home, said as a place ("anything in the house I could tell the time with?", heldout29's C163 with
# its speaker taken off, was read as what is in an unknown "house"): no anchor of a relation either (understand.py).
WHOLE_HOME = frozenset("house home flat apartment household".split())
FLOOR_WORDS = frozenset("floor floors storey story level".split())
_ORDINALS = ("ground|first|second|third|fourth|fifth|top|upper|lower|bottom|main|middle|basement|1st|2nd|3rd|"
             r"\d+th")
# A place said in one word, no preposition needed: "Upstairs: how many mugs?". Not "outside" / "outdoors": said of the
# world around the asker ("the taxi's already honking outside, ... when did you last clock it?", heldout21's e057,
# refused by a first version), never of a part of the memory.
PLACE_ADVERBS = frozenset("upstairs downstairs".split())

_PREP = r"(?:in|inside|at|on|from|throughout|across|within|around)"
_DET = r"(?:the|my|our|this|that|your|his|her|their|a|an)"
_NUMBER = (r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z])")
SCOPE = re.compile(
    rf"\b{_PREP} (?:{_DET} )?(?:[a-z]+ ){{0,2}}?(?:{'|'.join(sorted(PLACE_NOUNS, key=len, reverse=True))})"
    rf"(?: (?:number )?{_NUMBER}\b)?\b|"
    rf"\b(?:{_PREP} )?(?:{_DET} )?(?:{_ORDINALS}) (?:{'|'.join(sorted(FLOOR_WORDS))})\b|"
    rf"\b(?:{_PREP} )?(?:{'|'.join(sorted(FLOOR_WORDS))}) (?:number )?{_NUMBER}\b|"
    rf"\b(?:{'|'.join(sorted(PLACE_ADVERBS))})\b", re.I)
# Stop 50 (heldout30's D002, "My bassoon, which corner of the house has it ended up in now?", answered as the place of
# an unknown "house"): a part of the home or of a room asked for ("which corner of the house", "what part of the flat",
# "which room of the house", "which end of the kitchen") says where the answer lies; the home or room after "of" is
# where to look, never the thing asked. The phrase reads as "which place": the thing is the one the question names
# ("which place has my bassoon ended up in now": I don't know any bassoon), and a question naming none stays refused.
# (no "spot": "previous spot of the keys" is the keys' own place)
PART_NOUNS = frozenset("corner corners part parts bit end side area section room zone region nook".split())
_HOME_OR_ROOM = sorted(WHOLE_HOME | {"place", "premises", "property", "building"} | PLACE_NOUNS, key=len, reverse=True)
PART_OF_PLACE = re.compile(
    rf"\b(?:which|what) (?:{'|'.join(sorted(PART_NOUNS))}) of {_DET}(?: whole| entire)? (?:[a-z]+ ){{0,2}}?"
    rf"(?:{'|'.join(_HOME_OR_ROOM)})\b")


def part_of_place(q: str) -> str:
    """``q`` (normalised: lower case) with "which corner of the house" / "what part of the kitchen" read as
    "which place" (above)."""
    return PART_OF_PLACE.sub("which place", q)


# ... and a part of a place said as a place ("what is in the corner of the kitchen", "is the mug in the corner of the
# house") was read as the place of "kitchen" / "house": the home or room after "<part> of the" is never the thing a
# reading asks about, nor its anchor (a part of a room is no place the memory keeps): refused, naming the part. Nor is
# a thing after "<part> of the" the thing asked ("what is on the side of the table" was the table's place).
PART_OF_A_PLACE = ("'{word}' is a part of a place, which I do not keep; ask what is in the room, or where a thing is")


def part_asked(question: str, args: dict, regions=()) -> str | None:
    """The words "<part> of the <place>" of ``question`` (normalised) when ``args`` holds that place as a label or
    an anchor and the place is the home, a room or a region (above), else None."""
    places = WHOLE_HOME | {"place", "premises", "property", "building"} | PLACE_NOUNS | {r.lower() for r in regions}
    for key in ("label", "anchor"):
        value = args.get(key)
        if not isinstance(value, str) or key == "anchor" and value.lower() not in places and not (
                set(words(value.lower())) & PLACE_NOUNS):
            continue  # a thing's side as an anchor ("on the side of the table") is on the thing
        m = re.search(rf"\b(?:{'|'.join(sorted(PART_NOUNS))}) of {_DET}(?: whole| entire)? (?:[a-z]+ )?"
                      rf"{re.escape(value.lower())}\b", question)
        if m is not None:
            return m.group(0)
    return None

SCOPE_REFUSAL = ("the question narrows what it asks to a place ('{word}'), which my reading ({what}) does not apply; "
                 "ask what is in a place{known}, or ask without the place")


# What a place phrase is when it narrows nothing, found by running every question set (stop 47):
# - a question of where ("in which room is the remote", "in what room"): the place is what is asked;
# - a place of a person, not of what is asked ("I was out in the garden between 11 and 12. Did you see the cup ...",
#   "Someone's been in my room. Has my jewellery box moved?"): a person before it in its clause;
# - beside a reading of one thing's place (LOCATION_OPERATORS: "where do the scissors usually go in this kitchen",
#   "it's pouring outside, where did I stash the umbrella", "the lady in room 4 is asking for her jacket, where is it
#   now"): the answer names the place, so the asker sees where the thing is; only a place said as a clause of its own
#   ("On the second floor, where are the keys?", "In the study: where's my phone?") asks where within it, and is
#   refused there (not "from": "from the control room - where is ..." says where the asker is);
# - beside a thing the memory does not know: "I don't know any football" is true in every room.
_ASKS_WHERE = frozenset("which what whichever".split())
_PERSON = frozenset("i we he she they someone somebody anyone anybody lady man woman guest guests kids children "
                    "client visitor visitors people".split())
LOCATION_OPERATORS = frozenset(("current", "previous", "as_of", "history", "where_to_look", "duration", "is_present"))
_CLAUSE = re.compile(r"[.,:;!?()]|\s[-\u2013\u2014]+\s")
_FILLER = frozenset("so and ok okay right now then well just".split())
# The words of a place phrase that name no place: a reading that holds one of them (the relation "in" of "is the mug in
# the box") holds no place ("In the garage, is the mug in the box?" was answered of every box, the garage dropped).
_NOT_A_PLACE = frozenset(re.sub(r"[^a-z|]", "", _PREP + "|" + _DET).split("|")) | {"number"}


def dropped(question: str, args: dict, regions=(), operator: str = "", unknown: str = "") -> str | None:
    """The first place scope of ``question`` that none of the reading's arguments holds (its place word is no word of
    an anchor or label) and that narrows what the reading answers (above), or None. ``regions``: the memory's region
    names, added to PLACE_NOUNS (a region may be called anything: "in the lab", "in zone b")."""
    if unknown:
        return None
    held = set()
    for value in args.values():
        if isinstance(value, str):
            held.update(words(value.lower()))
    for clause in _CLAUSE.split(question):
        for m in _scopes(clause, regions):
            said = words(m.group(0).lower())
            if (set(said) - _NOT_A_PLACE) & held or set(said) & _ASKS_WHERE:
                continue
            if set(words(clause[m.end():].lower())[:1]) & held:
                continue  # a place word naming a thing's kind ("on the kitchen counter", the anchor "counter")
            if set(words(clause[:m.start()].lower())) & _PERSON:
                continue
            alone = not set(words(clause.lower())) - set(said) - _FILLER
            if operator in LOCATION_OPERATORS and not (alone and said[0] != "from"):
                continue
            return m.group(0).lower()
    return None


def _scopes(clause: str, regions) -> list:
    out = list(SCOPE.finditer(clause))
    for r in regions:
        if not words(r) or set(words(r)) & PLACE_NOUNS:
            continue  # already a place noun ("living room")
        pattern = rf"\b{_PREP} (?:{_DET} )?" + r"\s+".join(re.escape(w) for w in words(r)) + r"\b"
        out.extend(re.finditer(pattern, clause, re.I))
    return sorted(out, key=lambda m: m.start())


def refusal(word: str, what: str, regions=()) -> str:
    known = f" I know ({', '.join(sorted(regions)[:6])})" if regions else ""
    return SCOPE_REFUSAL.format(word=word, what=what, known=known)


__all__ = ["dropped", "part_asked", "part_of_place", "PART_OF_A_PLACE", "refusal", "PLACE_NOUNS", "FLOOR_WORDS",
           "PLACE_ADVERBS", "SCOPE_REFUSAL"]
