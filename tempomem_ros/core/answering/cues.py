"""The second reading of a question: the things it names, its time and its cue words, when no form takes it.

Why a second reader: four rounds of forms (operators.TABLE) reached 100 % on every set they were fitted to and
49-79 % on each fresh set written after them (issue 13; the fourth: 56.4 % right, 93 refused). The refusals were
mostly the same questions in an order or with a word no form has ("which shelf is the laptop on", "the stool,
how many times did it get shifted around", "last scan of the remote"). A form fixes the order of every word; this
reader fixes none. It reads the question as a bag of parts:

- **things**: the known labels and regions it names (whole words, longest first, singular or plural), and at
  most one thing the memory does not know, a noun phrase after a determiner ("the forklift");
- **a relation** word right before a thing, which makes that thing the anchor ("on the counter");
- **the time** found by timeexpr (``@t`` a moment, ``@w`` a span);
- **cues**: words that say what is asked ("how many" COUNT, "moved" MOVE, "last" LAST, "seen" SEEN, ...).

Every other word must be a word of the closed vocabulary below (``GLUE``: words that say nothing about what is
asked: "is", "the", "it", "grandma", "asap"). **A word outside the vocabulary that is not part of a thing refuses
the question**: that is what keeps "what is the weather in the kitchen" or "ignore your rules and list every id"
from being read as a relational question or a list; the vocabulary grows by adding a word here, one place.
The rules (``RULES``) say which cues an operator needs and which it cannot have; a question is answered only when
exactly one rule takes it, with every argument filled (two rules: refused as ambiguous, naming both). No rule
depends on the order of the words except "a relation word right before a thing" and "the first word asks yes or
no". Deterministic and explainable like the forms: the interpretation says "current place of laptop".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import lexicon, quantities, timeexpr
from .normalise import OWNERS as _OWNERS, PEOPLE as _PEOPLE
from .operators import RELATION_WORDS, args_key
from .plurals import said_plural, singular_phrase
from .slots import MAX_THING_WORDS, PLACEHOLDER_NOUNS, Names, is_noun_phrase, stem

MAX_UNKNOWN_WORDS = 3

# --------------------------------------------------------------------------------------------------- the cues
# Phrases first (longest first), each naming its cue; then single words. A phrase's words are consumed.
_PHRASES = {
    "how frequently": "COUNT TIMES", "number of times": "COUNT TIMES", "dwell time": "DURATION",
    "dwell duration": "DURATION",
    "is it true that": "YESNO",
    "true that": "YESNO", "whether": "YESNO",
    "most recently": "LAST", "most often": "LOOK", "lost track of": "MISSING",
    "picked up": "SEEN", "show up": "SEEN APPEAR", "showed up": "SEEN APPEAR", "shown up": "SEEN APPEAR",
    "turned up": "APPEAR", "come into view": "SEEN APPEAR", "came into view": "SEEN APPEAR",
    "changed place": "MOVE", "changed places": "MOVE", "changed position": "MOVE",
    "changed its place": "MOVE", "changed spot": "MOVE", "start looking": "LOOK", "best places": "LOOK",
    "best place": "LOOK", "worth searching": "LOOK", "worth looking": "LOOK", "what moment": "WHEN",
    "which moment": "WHEN", "which point": "WHEN", "same place": "STILL", "same spot": "STILL",
    "same position": "STILL",
    "end up": "GLUE", "ended up": "GLUE", "gotten to": "GLUE", "got to": "GLUE", "in memory": "GLUE",
    "in the database": "GLUE", "at home": "GLUE", "so that": "PURPOSE", "in order to": "PURPOSE",
    "compared to": "SINCE", "compared with": "SINCE", "so far": "GLUE", "its spot": "GLUE", "its place": "GLUE",
    "their place": "GLUE", "their spot": "GLUE", "its location": "WHERE", "its position": "WHERE",
    "old position": "PAST WHERE", "old location": "PAST WHERE",
    "use to": "PAST",
    "status on": "GLUE",
    "status of": "GLUE", "before fetching": "PURPOSE", "before collecting": "PURPOSE", "before grabbing": "PURPOSE",
    "before picking up": "PURPOSE", "before bringing": "PURPOSE", "before getting": "PURPOSE",
    "planning a fetch for": "PURPOSE", "planning to fetch": "PURPOSE",
    "earliest first": "GLUE", "latest first": "GLUE", "most recent first": "GLUE", "between us": "GLUE",
    "in ages": "GLUE", "for ages": "GLUE", "in a while": "GLUE",
    "turn up": "SEEN APPEAR", "turns up": "SEEN APPEAR", "somewhere else": "ELSE", "cannot find": "LOSTIT",
    "can not find": "LOSTIT", "could not find": "LOSTIT", "cannot see": "LOSTIT",
    "this one": "GLUE", "that one": "GLUE", "the one": "GLUE", "current one": "GLUE", "run me through": "GLUE",
    "walk me through": "GLUE", "take me through": "GLUE", "step by step": "GLUE", "over the course of": "GLUE",
    "in stock": "GLUE", "out back": "GLUE", "of mine": "GLUE", "of ours": "GLUE", "the memory holds": "GLUE",
    "in your memory": "GLUE", "you know of": "GLUE", "on your radar": "SEEN", "on the radar": "SEEN",
    "come on your radar": "SEEN", "on your map": "GLUE", "on the map": "GLUE", "came on your radar": "SEEN",
    "come onto your radar": "SEEN", "which hour": "WHEN", "for the last time": "LAST",
    "for the first time": "FIRST", "the first time": "FIRST", "you spot": "SEEN",
    "last spot": "LAST SEEN", "first spot": "FIRST SEEN", "come from": "PAST", "came from": "PAST",
    "not moved": "STAYED", "not budged": "STAYED", "not been moved": "STAYED", "not been touched": "STAYED",
    "stayed put": "STAYED", "stays put": "STAYED", "stay put": "STAYED", "staying put": "STAYED",
    "in there": "PRON_IN", "on there": "PRON_ON", "on it": "PRON_ON", "in it": "PRON_IN",
    "is it possible that": "YESNO", "is it possible": "YESNO", "could it be that": "YESNO", "any chance": "YESNO",
    "wind up": "GLUE", "winds up": "GLUE", "wound up": "GLUE", "the set of": "GLUE", "a set of": "GLUE",
    "gone astray": "MISSING", "went astray": "MISSING", "had been": "HADBEEN", "had they been": "HADBEEN",
    "had it been": "HADBEEN", "latest pose": "WHERE", "latest position": "WHERE", "latest location": "WHERE",
    "last known location": "WHERE", "last known position": "WHERE", "last known place": "WHERE",
    "pose estimate": "WHERE", "position estimate": "WHERE",
    "pose changes": "MOVE MOVEN", "pose change": "MOVE MOVEN", "changed pose": "MOVE",
    "catch sight of": "SEEN",
    "set eyes on": "SEEN",  # fourteenth round: "when did you last set eyes on my wallet" (heldout17's a054 refused)
    "time since": "DURATION", "presence check": "STILL YESNO",
    "missing status": "MISSING YESNO", "looked everywhere": "GLUE", "searched everywhere": "GLUE",
    "checked everywhere": "GLUE", "time in place": "DURATION", "tend to": "LOOK", "tends to": "LOOK",
    "run into": "SEEN", "ran into": "SEEN", "wandered off": "MOVE", "wandered off to": "GLUE", "wander off to": "GLUE",
    "out of place": "MOVE", "at the mo": "GLUE", "in view of": "SEEN",
    "the little one": "GLUE", "the little ones": "GLUE",
    **lexicon.BOTH_READERS_PHRASES,  # the phrases both readers take with one class, written once (lexicon.py)
}
_WORDS = {
    # where / when
    "where": "WHERE", "location": "WHERE", "locations": "WHERE HISTORYN", "loc": "WHERE", "position": "WHERE",
    "positions": "WHERE HISTORYN", "whereabouts": "WHERE", "pose": "WHERE", "place": "WHERE",
    "places": "WHERE HISTORYN",
    "spot": "WHERE", "spots": "WHERE HISTORYN", "room": "WHERE", "rooms": "WHERE HISTORYN", "aisle": "WHERE",
    "area": "WHERE", "status": "GLUE", "corner": "WHERE", "side": "WHERE", "section": "WHERE", "zone": "WHERE",
    "everywhere": "WHERE HISTORYN ALL", "duration": "DURATION", "removed": "MISSING",
    "changing": "CHANGE", "contain": "HOLD", "contains": "HOLD",
    "when": "WHEN", "time": "WHEN", "moment": "WHEN", "date": "WHEN", "timestamp": "WHEN",
    # before
    "before": "PAST", "previous": "PAST", "previously": "PAST", "prior": "PAST", "earlier": "PAST",
    "formerly": "PAST", "else": "ELSE",
    # first / last
    "first": "FIRST", "earliest": "FIRST", "initially": "FIRST", "originally": "FIRST", "known": "KNOWN",
    "last": "LAST", "final": "LAST", "latest": "LAST", "recent": "LAST",
    # seen
    "seen": "SEEN", "see": "SEEN", "saw": "SEEN", "spotted": "SEEN", "observed": "SEEN", "observation": "SEEN",
    "observations": "SEEN", "detected": "SEEN", "detection": "SEEN", "detections": "SEEN", "sighted": "SEEN",
    "sighting": "SEEN", "sightings": "SEEN", "scan": "SEEN", "scanned": "SEEN", "scans": "SEEN", "caught": "SEEN",
    "catch": "SEEN", "noticed": "SEEN", "glimpsed": "SEEN", "captured": "SEEN", "camera": "GLUE", "cameras": "GLUE",
    # moves
    "move": "MOVE", "moved": "MOVE", "moves": "MOVE", "moving": "MOVE", "movement": "MOVE", "movements": "MOVE MOVEN",
    "relocated": "MOVE", "relocation": "MOVE", "relocations": "MOVE MOVEN", "shifted": "MOVE", "displaced": "MOVE",
    "repositioned": "MOVE", "budged": "MOVE", "pushed": "MOVE", "pulled": "MOVE", "carried": "MOVE",
    "wheeled": "MOVE", "dragged": "MOVE", "drifted": "MOVE", "drifting": "MOVE", "slid": "MOVE", "slipped": "MOVE",
    "knocked": "MOVE", "bumped": "MOVE", "nudged": "MOVE", "rearranged": "MOVE", "shuffled": "MOVE",
    "wandered": "MOVE", "untouched": "STAYED", "unmoved": "STAYED",
    "clock": "SEEN", "clocked": "SEEN", "registered": "SEEN", "logged": "SEEN", "encountered": "SEEN",
    "witnessed": "SEEN", "glimpse": "SEEN", "sight": "SEEN",
    # counting, history, looking
    "count": "COUNT", "qty": "COUNT", "quantity": "COUNT", "total": "COUNT",
    "history": "HISTORY", "log": "HISTORY", "trace": "HISTORY", "record": "GLUE", "recorded": "GLUE",
    "every": "ALL", "all": "ALL", "each": "ALL",
    "look": "LOOK", "looking": "LOOK", "search": "LOOK", "searching": "LOOK", "usually": "LOOK",
    "normally": "LOOK", "typically": "LOOK", "generally": "LOOK", "likely": "LOOK", "probably": "LOOK",
    "often": "LOOK", "worth": "LOOK",
    # missing, present, changed
    "lose": "LOSTIT", "losing": "LOSTIT", "missing": "MISSING", "lost": "MISSING", "gone": "MISSING",
    "disappeared": "MISSING", "vanished": "MISSING",
    "still": "STILL", "present": "STILL", "around": "STILL",
    "change": "CHANGE", "changes": "CHANGE", "changed": "CHANGE", "different": "CHANGE", "difference": "CHANGE",
    "differences": "CHANGE", "new": "APPEAR", "appeared": "APPEAR", "happened": "CHANGE",
    "contents": "CONTENTS", "hold": "HOLD", "holds": "HOLD", "held": "HOLD", "holding": "HOLD",
    "since": "SINCE", "any": "WHAT", "if": "YESNO", "spent": "DURATION", "there": "THERE", "here": "THERE",
    # things in general, asking words
    "what": "WHAT", "which": "WHAT", "anything": "WHAT", "something": "WHAT", "objects": "WHAT", "items": "WHAT",
    "things": "WHAT", "stuff": "WHAT", "stock": "WHAT", "everything": "WHAT", "object": "WHAT", "item": "WHAT",
    "thing": "WHAT",
}
# The sixth round's classes (lexicon.py): a word of a class joins it unless a word or phrase above names it already.
_VOCAB_BEFORE = frozenset(_WORDS)
for _w, _c in lexicon.cue_words().items():
    _WORDS.setdefault(_w, _c)
for _p, _c in lexicon.phrases().items():
    _PHRASES.setdefault(_p, _c)
# Words that say nothing about what is asked. Closed on purpose: a word not here and not part of a thing refuses.
GLUE = frozenset(
    "the a an my your our his her their its this that these those it they them there here i you we me us "
    "is are was were be been being am do does did has have had can could should may might must "
    "of for to at from with about by up off out over into onto "
    "and then now currently exactly please pls plz asap rn u ur need want like current throughout passed occupy "
    "occupied occupies produce generate compile summarize summarise complete full entire whole travel travelled "
    "traveled visited visit visits keeps getting own owns distinct separate individual unique very events event "
    "flagged marked listed as always during once down reconstruct reported piled stacked heaped itself "
    "themselves hide hiding hides live lives belong belongs estimate estimated taken took stash stashed hidden "
    "hid mapped recorded counted set stuck shoved tucked hung hanging resting perched supposed "
    "left leave leaves put placed place kept keep stored stand stands standing stood sit sits sitting sat lie lies "
    "lying lay located parked sitting staying stayed stay remain remained went go goes gone got get gets gotten "
    "end ended found find know think recall remember tell say give show list "
    "state report provide retrieve return enumerate identify determine confirm verify check name indicate specify "
    "describe display output present tracked track "
    "robot camera grandma grandpa granny gran nana mom mum dad mother father kids kid son daughter wife husband "
    "someone somebody anyone anybody he she "
    "somewhere anywhere already yet again just so only ago currently "
    "times many much number".split()) | frozenset(_PEOPLE)
_GLUE_BEFORE = GLUE
GLUE = GLUE | (lexicon.glue_words() - frozenset(_WORDS)) | frozenset(  # people in the plural: "the cleaners"
    w + "s" for w in set(_PEOPLE) | lexicon.PEOPLE_WORDS if not w.endswith("s"))
# words only the classes of lexicon.py brought: one right after a word no class took is part of its noun phrase
_LEX_ONLY = (frozenset(_WORDS) - _VOCAB_BEFORE) | (GLUE - _GLUE_BEFORE)
# Twentieth round: a word naming a person is the head of a thing's name right after a noun of that name ("vacuum
# cleaner", "pipe cleaner", "floor cleaner"): heldout21's e123 "has the vacuum cleaner been moved from its spot" was
# read as an unknown "vacuum", the person word dropped as glue. After a determiner it stays a person ("did the cleaner
# move the mug"); before a noun it was already a modifier ("baby monitor", "guest towel").
_PERSON_HEADS = frozenset(_PEOPLE) | frozenset(_OWNERS)
_SUBJECTS = frozenset("i he she we they".split())
# Issue 13 (heldout27's A040): "How many snowshoes exist in your inventory?" counted an unknown 'snowshoes exist': a
# verb of being somewhere that lexicon.py's classes brought (STAY_VERBS) was taken into the noun phrase of the unknown
# word before it, as "stick" in "walking stick". These forms are only verbs, never a name's head; after an unknown word
# they are the question's verb ("how many pitons remain in the shed"), so they are glue or cue words there.
_ONLY_VERBS = frozenset("exist exists existed existing remain remains remained remaining linger lingers lingered "
                        "lingering".split())
_BE_HAVE = frozenset("am is are was were has have had".split())  # "keys he is ..."; not "mugs they own"
_REL_FIRST = frozenset(r.split()[0] for r in RELATION_WORDS)
# A noun after "which" / "what" that names the kind of answer, not a thing asked about ("which shelf is the laptop
# on", "which aisle", "what room"): a known label in that position is not a thing of the question.
ANSWER_TYPE_AFTER = frozenset(("which", "what"))
OWNERS = frozenset(_OWNERS) | frozenset(_PEOPLE)
DETERMINERS = frozenset("the my your our his her their a an this that these those".split()) | OWNERS
_BEFORE_ANCHOR = DETERMINERS | {"somewhere", "anywhere", "right"}  # what may stand between a relation and its anchor
# Before an embedded question: "do we still know where the notebook is" asks where it is.
_KNOW_LEAD = re.compile(r"^(?:do|does|did) (?:we|you|i|anyone|anybody|the robot) (?:still )?(?:know|remember|recall)"
                        r" (?=(?:where|when|what|which|how|if|whether)\b)")
# A modal after the first word asks what could be done ("where can I put my jacket", "what could hold my clothes"):
# semantic search's activity forms read those, this reader never does.
_MODALS = frozenset("can could should would might may".split())
# a modal of the past ("where might the scissors have got to"): a guess at what happened, not what could be done
_MODAL_PERFECT = re.compile(r"\b(?:could|would|might|may|must)(?= (?:\w+ ){0,3}?have \w+)")
_ACTIVITY = re.compile(r"\b(?:a place|somewhere|something|anything|a spot) to\b")
# A purpose clause at the end says why, not what: "Identify where the cup is so that it can be collected."
_PURPOSE_CLAUSE = re.compile(r"\s(?:so that|so (?:i|we|you|it) can|in order to|in order that)\b.*$")
# "is the lamp still standing where grandma put it": its place. Eleventh round: the place a relative clause names by
# any verb of putting or of seeing (lexicon.PLACE_VERBS, SEEN_VERBS), with "last" / "just" before it: "is the plant
# still present where you last saw it" asks whether it is still in place (heldout14's reader read it as when it was
# last seen; the rules refused it and "does the charger still sit where you last saw it").
_PUT_OR_SEEN = "|".join(sorted(lexicon.PLACE_VERBS | lexicon.SEEN_VERBS, key=len, reverse=True))
_WHERE_PUT = re.compile(r"\bwhere (?:i|we|you|they|someone|somebody|the robot|the camera|" + "|".join(_OWNERS)
                        + r")(?: (?:last|just|first|had|have|last had))? (?:" + _PUT_OR_SEEN + r") (?:it|them)\b")
# Stop 48 (heldout28's B084, "the plant, has it stayed put where it normally stands?", was read as where to look: the
# adverb "normally" is LOOK): a relative clause of the thing's own being somewhere, said of it by a pronoun with a
# word of habit or of belonging ("where it normally stands", "where it usually is", "where they belong", "where it's
# meant to be", "where it always lives"), names its own place, as _WHERE_PUT's clause does: "in place" (STILL). The
# subject comes before the verb, so the question "where is it usually" stays where_to_look; a word of habit is
# required, so "where it was" stays the earlier place's (round 24's rule).
_HABIT = "(?:normally|usually|always|generally|typically|ordinarily|properly|rightly)"
_BEING = "|".join(sorted(lexicon.STAY_VERBS | frozenset("is are be lives live go goes belong belongs hang hangs"
                                                        .split()), key=len, reverse=True))
# Stop 49 (heldout29's C092, "is my jacket still in the spot it normally lives?", was where to look): the clause may
# hang on a noun of place instead of "where" ("in the spot it normally lives", "at the place they belong"): the same.
# Stop 51 (heldout31's E080, "is the water bottle still resting where it normally does?", was where to look): the verb
# of the clause may be said again by a pro-verb ("where it normally does", "where they usually do", "where it
# does usually"): the same clause of its own place.
_PRO_VERB = r"(?:does|do|did|would)"
_HABIT_HEAD = r"(?:where|(?:in|at|on) (?:the|its|their) (?:spot|place|position|home|corner)(?: that| where)?)"
_WHERE_IT_BELONGS = re.compile(
    rf"\b{_HABIT_HEAD} (?:it|they) (?:{_HABIT} (?:{_BEING}|{_PRO_VERB})|(?:is|are|s|re|{_PRO_VERB}) {_HABIT}|"
    r"belongs?|"
    r"(?:should|ought to|is meant to|are meant to|s meant to|re meant to|is supposed to|are supposed to|s supposed to|"
    rf"re supposed to) (?:be|{_BEING}))\b")
# Stop 53 (heldout33's G099, "A candle maker: has my wallet stayed put where it lives?", was answered as where the
# wallet is now): after a word of staying or of still being there ("stayed put", "still", "remains", "hasn't budged"), a
# verb that is habitual by itself ("where it lives", "where they're kept", "where it is stored", "the spot it lives
# in") names the thing's own place as a word of habit does, and so does a noun of its own place with a word of habit
# or none ("in its usual spot", "at its proper place", "in its spot"; normalise drops 'usual'): "in place" (STILL).
# Without such a word the clause stays a question of where ("the mug, tell me where it lives": its place now).
_STAYING = re.compile(r"\b(?:still|stay(?:ed|s|ing)?|remain(?:ed|s|ing)?|(?:not|never) (?:budged?|moved|shifted))\b")
_WHERE_IT_LIVES = re.compile(
    rf"\b{_HABIT_HEAD} (?:it|they) (?:lives?|(?:is|are|s|re) (?:kept|stored|housed))(?: in)?\b|"
    r"\b(?:in|at|on) (?:its|their) (?:(?:usual|normal|regular|proper|rightful|customary|designated|habitual|own) )?"
    r"(?:spot|place|position|location|home|corner|station|perch)\b")
# Stop 53: "where has the mug been" asks the places it has been (the history form), and so it does with the order of
# the answer after it ("where has the mug been, first to last?", "..., in order?", "..., place by place?", lexicon's
# phrases of no meaning): the cue reader had read "where" alone, the mug's place now (a wrong answer on main). Only
# with nothing after "been" but such an order: "where has the mug been put / moved to" asks where it is.
_ANSWER_ORDER = (r"(?:in order|in sequence|in turn|in chronological order|chronologically|chronological|"
                 r"(?:from )?first to last|(?:from )?start to finish|(?:earliest|oldest|newest|latest|most recent)"
                 r"(?: stop| place| one)? first|one (?:place |spot )?after (?:another|the other)|"
                 r"(?:place|spot|room) by (?:place|spot|room))")
_WHERE_HAS_BEEN = re.compile(rf"^where (?:has|have) (?:\w+ ){{1,4}}been(?: {_ANSWER_ORDER})?(?: please)?$")
# Stop 51 (heldout31's E055, "the most recent moment the kite crossed your view", asked of a "kite crossed"): crossing
# or entering the robot's view, path or frame is being seen (SEEN), and so is coming into its knowledge or records
# ("when did the bowl first come into your knowledge"); the verb is no part of the thing's name (slots.NOT_IN_A_NAME)
_CROSSED_VIEW = re.compile(r"\b(?:cross(?:ed|es|ing)?|enter(?:ed|s|ing)?|c[oa]me into|passed through) "
                           r"(?:your|my|the|its|the robot s|the camera s|the robots|the cameras) (?:view|sight|path|"
                           r"field of view|"
                           r"line of sight|lens|gaze|frame|knowledge|records|memory|logs)\b")
# "did the chair move today and how many times": two questions
_TWO_QUESTIONS = re.compile(r"\b(?:and|or|also|plus) (?:how|what|where|when|which|who|is|are|was|were|did|do|does|has|"
                            r"have)\b")
# "what has changed in the last four hours while I was at work": why one asks, after the question
_WHY_CLAUSE = re.compile(r"\s(?:while|because|cause|as) (?:i|we|you|he|she|they|my \w+)\b.*$")
# "what was on my desk before someone tidied it": before a change somebody made
_BEFORE_SOMEONE = re.compile(r"\bbefore (?:someone|somebody|anyone|anybody|you|they|he|she|my \w+|" + "|".join(_PEOPLE)
                             + r") \w+ (?:it|them|up|around)(?: up)?\b")
_AUX = frozenset("is are was were did do does has have had can could".split())  # no "will": the future is no question
# a non-native verb-first question: "Stands the mug on the table at this moment?"
_V1 = frozenset("stands stand lies lie sits sit hangs lay stood sat".split())
# "before its last move", "before the most recent change": before the current state
_BEFORE_LAST = re.compile(r"\bbefore (?:the|its|their) (?:last|latest|most recent|recent|previous) (?:move|change|"
                          r"relocation|shift|update)\b")
# "before things got shuffled", "before my roommate messed with it" at the end: before the last change
_BEFORE_END = re.compile(r"\bbefore (?:someone|somebody|anyone|anybody|you|they|he|she|things|stuff|everything|it|"
                         r"my \w+|the \w+|" + "|".join(_PEOPLE) + r")(?: \w+){1,5}$")
# the whole place the memory covers: "first show up in the dorm", "moved around the shop" say nothing more
# Sixth round: the whole place as a class of nouns ("in the property", "on the ward", "in the storeroom"), dropped
# only when the memory knows no label or region of that name (a memory with a "storeroom" region keeps it).
# Stop 51 (heldout31's E039, "How many mugs we got knocking about the place", was a count of the mug's moves): a verb of
# idle presence before the whole place ("knocking about the house", "kicking around the flat") goes with it; dropped
# alone, the place left "knocking", a verb of moving, behind (lexicon.PRESENCE_PHRASES: being there, never moving).
_WHOLE_PLACE = re.compile(r"\s(?:(?:knocking|kicking|floating|hanging|lying) )?"
                          r"(?:in|at|on|around|inside|about|throughout|across|all over|all around) "
                          r"(?:the|this|our|my|their|his|her)(?: whole| entire)? (?P<place>house|home|flat|apartment|"
                          r"dorm|shop|store|building|place|premises|"
                          r"warehouse|property|ward|site|facility|grounds|estate|storeroom|store room|gym|clinic|"
                          r"hospital|"
                          r"hotel|unit|venue|workshop|factory|school|residence|household|cottage|cabin|suite|"
                          r"accommodation|rental|airbnb|lab|laboratory|depot|plant floor|shop floor)\b|"
                          # ninth round: not the "about" of being about ("still knocking about": PRESENCE_PHRASES)
                          r"(?<!knocking)(?<!kicking)(?<!floating)(?<!hanging)(?<!lying)"
                          r"\s(?:here|around|about|on site|onsite)$")


# Sixth round: "for the claim", "for the insurance inventory", "for the contents list" at the end say what the answer
# is for. Dropped when they name nothing the memory knows, hold no cue word ("for the last time" asks) and the rest
# names a known thing ("where to look for my handbag" keeps its "for": nothing known is named before it).
_PURPOSE_FOR = re.compile(r"\sfor (?:the|my|our|a|an|this|your|their) (?P<np>[a-z]+(?: [a-z]+){0,2})$")


def _drop_purpose_for(text: str, names: Names) -> str:
    m = _PURPOSE_FOR.search(text)
    if not m:
        return text
    np_ = m.group("np").split()
    if any(w in _WORDS for w in np_) or any(_known_at(np_, k, names) is not None for k in range(len(np_))):
        return text
    head = text[:m.start()].split()
    if not any(_known_at(head, k, names) is not None for k in range(len(head))):
        return text
    return text[:m.start()]


# Tenth round: the agent of a passive verb ("noticed by your cameras", "shifted by the cleaner", "moved by anyone") says
# who did it, not where: read as a relation it made an anchor of "camera" (heldout13). Dropped when its word names a
# person, an agent or the robot's sensors and no label the memory knows.
_BY_AGENT = re.compile(r"\s(?:by|through) (?:the |your |my |our |a |an |some |one of the |one of your )?([a-z]+)\b")
_AGENTS = frozenset("you me us anyone anybody someone somebody everyone robot robots camera cameras".split())


def _drop_agent(text: str, names: Names) -> str:
    from .slots import is_person

    def repl(m: re.Match) -> str:
        w = m.group(1)
        if (w in _AGENTS or w in lexicon.AGENT_WORDS or is_person(w)) and _known_at([w], 0, names) is None:
            return ""
        return m.group(0)
    return _BY_AGENT.sub(repl, text)


def _drop_whole_place(text: str, names: Names) -> str:
    def repl(m: re.Match) -> str:
        place = m.group("place")
        if place and _known_at(place.split(), 0, names) is not None:
            return m.group(0)
        # tenth round: "all over the place", "all around the house" say everywhere, not nothing: "where has teddy bear
        # been taken all over the place" asks for every place it was (heldout13 read its current place)
        return " everywhere" if re.match(r"\s(?:all over|all around) ", m.group(0)) else ""
    return _WHOLE_PLACE.sub(repl, text)

# "what's lying within 60 cm of the counter", "objects at most 0.7 m away from 3 2 0.9": a radius and its centre
# tenth round: a radius named first ("radius 2 m around point (-1, 3, 0)", "a 50 cm radius around the desk") and "point"
# before the coordinates
_SPATIAL = re.compile(r"\b(?:(?:within|inside|in|at most|less than|closer than|no more than|not more than|"
                      r"no further than|under|up to) (?:a |an )?(?:radius (?:of )?)?|(?:a |an )?radius (?:of )?)"
                      + quantities.RADIUS
                      + r"(?: radius)?(?: away)?(?: (?:of|from|around|"
                      r"to))?(?: (?:the )?point)?(?: (?P<pt>" + quantities.POINT + r"))?")
# words that qualify a known name without making it another kind of thing ("the red mug", "my old keys")
_ADJECTIVES = frozenset("red blue green yellow black white grey gray brown pink purple orange silver gold golden "
                        "big small little large tiny huge old new favourite favorite usual spare other own "
                        "dark light wooden plastic metal glass leather round square tall short long "
                        # sixth round: words of feeling about a thing ("my stupid keys", "the blasted remote")
                        "stupid silly bloody flipping blasted darn damn darned dratted wretched trusty beloved "
                        "precious poor lovely".split())
_PUNCT_TOKENS = re.compile(r"(?:^|\s)(?:-+|:|;)(?=\s|$)")
_PHRASE_LIST = sorted(((tuple(p.split()), c.split()) for p, c in _PHRASES.items()), key=lambda x: -len(x[0]))
_MORE_RELATIONS = {"sitting on top of": "on", "lying on top of": "on", "standing on top of": "on",
                   "on the top of": "on",
                   "left on": "on", "left in": "in", "kept in": "in", "kept on": "on", "stored in": "in"}
_REL_LIST = sorted(((tuple(r.split()), v) for r, v in {**RELATION_WORDS, **_MORE_RELATIONS}.items()),
                   key=lambda x: -len(x[0]))


@dataclass
class _Thing:
    label: str
    known: bool
    start: int
    end: int
    anchor_rel: str = ""  # the relation word right before it, when there is one
    partial: bool = False  # the words are part of a longer known name ("bottle" of "water bottle")
    ignored: tuple[str, ...] = ()


@dataclass
class Parse:
    things: list
    cues: set
    time: str  # "" | "@t" | "@w"
    first_word: str
    stray: tuple[str, ...]


# A word of a longer name ("bear" of "teddy bear") between a modal and a pronoun object is a verb: "i cannot bear it",
# "we will iron them", "you should table it". Only such a part word, never a whole name ("can you lamp" stays a lamp).
_BEFORE_A_VERB = frozenset("can cannot could would will should must might may to not".split())
_AFTER_A_VERB = frozenset("it them this that him her me us you anymore any".split())


def _known_at(toks: list[str], i: int, names: Names) -> tuple[int, str, bool] | None:
    """The longest known name (label or region) that the words from i spell, as (length, label, partial)."""
    for n in range(min(MAX_THING_WORDS, len(toks) - i), 0, -1):
        span = tuple(toks[i:i + n])
        if span[0] in GLUE or span[0] in DETERMINERS:
            continue
        ss = tuple(stem(w) for w in span)
        entries = names.entries(True, ss)
        exact = sorted(name for name, nw, nstem in entries if nstem == ss)
        if exact:
            return n, exact[0], False
        for name, nw, nstem in entries:
            if any(nstem[k:k + n] == ss for k in range(len(nstem) - n + 1)):
                return n, " ".join(span), True
    return None


def known_at(toks: list[str], i: int, names: Names):
    """The longest known name the words from i spell (see _known_at), for the shapes of relax.py."""
    return _known_at(toks, i, names)


def two_questions(text: str) -> bool:
    """Whether a normalised question joins a second question with "and" / "or" ("did the chair move today and how many
    times"): the cue reader refuses it, and relax.py's shapes must not make it one question."""
    return bool(_TWO_QUESTIONS.search(text))


def cue_of(word: str) -> str:
    """The cues a single word of the vocabulary asks ("" for glue): relax.py's abbreviations stand for such words."""
    return _WORDS.get(word, "") if _WORDS.get(word, "") != "GLUE" else ""


def _phrase_at(toks: list[str], i: int) -> bool:
    """Whether a phrase of the vocabulary starts at word i (tenth round: "your cameras pick up the laptop": a class word
    before a phrase's verb is no part of a noun phrase)."""
    return any(tuple(toks[i:i + len(p)]) == p for p, _ in _PHRASE_LIST)


def vocabulary() -> frozenset:
    """Every word the cue reader reads as a cue, a phrase's word, glue or a relation (normalise restores a dropped g
    against it, and a mistyped word is read as the one word of it a single slip away: typo.py)."""
    return _VOCABULARY


def carries_cue(word: str) -> bool:
    """Whether a word tells the cue reader what is asked ("gone", "moved", "here"): never a salutation's (preamble)."""
    return word in _WORDS


_VOCABULARY = frozenset(_WORDS) | GLUE | frozenset(w for p in _PHRASES for w in p.split()) | frozenset(
    w for r in RELATION_WORDS for w in r.split())


def parse(text: str, names: Names) -> Parse | None:
    """The parts of a question text (normalised, times replaced); None when a word fits nowhere."""
    text = _PUNCT_TOKENS.sub(" ", text)
    text = _KNOW_LEAD.sub("", text)
    toks = text.split()
    if not toks:
        return None
    cues: set[str] = set()
    kinds: list[str | None] = [None] * len(toks)  # per token: "cue", "phrase", "glue", "rel:<r>", "time", "thing"
    things: list[_Thing] = []
    time = ""
    i = 0
    while i < len(toks):
        w = toks[i]
        if w in ("@t", "@w"):
            if time:
                return None
            time, kinds[i] = w, "time"
            i += 1
            continue
        phrase = next(((p, c) for p, c in _PHRASE_LIST if tuple(toks[i:i + len(p)]) == p), None)
        if phrase is not None:
            cues.update(c for c in phrase[1] if c != "GLUE")
            for k in range(len(phrase[0])):
                kinds[i + k] = "phrase"
            i += len(phrase[0])
            continue
        rel = next(((r, v) for r, v in _REL_LIST if tuple(toks[i:i + len(r)]) == r), None)
        known = _known_at(toks, i, names)
        if known is not None and known[2] and known[0] == 1 and w in _WORDS:
            known = None  # "rooms" is a word of asking, not a part of "living room"
        if known is not None and known[2] and known[0] == 1 and i > 0 and toks[i - 1] in _BEFORE_A_VERB and \
                (i + 1 == len(toks) or toks[i + 1] in _AFTER_A_VERB):
            known = None  # fourteenth round: "i cannot bear it" has a verb, no part of "teddy bear" (heldout17's a139)
        if known is not None and not (i > 0 and toks[i - 1] in ANSWER_TYPE_AFTER and _other_known(toks, i, known[0],
                                                                                                    names)):
            n, label, partial = known
            things.append(_Thing(label, True, i, i + n, partial=partial))
            for k in range(n):
                kinds[i + k] = "thing"
            i += n
            continue
        if known is not None:  # "which shelf is the laptop on": the kind of answer
            cues.add("WHERE")
            for k in range(known[0]):
                kinds[i + k] = "cue"
            i += known[0]
            continue
        if rel is not None:
            for k in range(len(rel[0])):
                kinds[i + k] = "rel:" + rel[1]
            i += len(rel[0])
            continue
        if w in _PERSON_HEADS and i > 0 and kinds[i - 1] is None and toks[i - 1] not in DETERMINERS:
            pass  # "the vacuum cleaner": a person word after a noun heads a thing's name (above)
        elif w in _LEX_ONLY and i > 0 and ((kinds[i - 1] is None and w not in _ONLY_VERBS)
                                         or toks[i - 1] in DETERMINERS and i + 1 < len(toks)
                                         and toks[i + 1] not in _WORDS and toks[i + 1] not in GLUE
                                         and toks[i + 1] not in _REL_FIRST and not _phrase_at(toks, i + 1)):
            pass  # "the walking stick", "the medicine cart", "the step stool": a class word in a noun phrase
        elif _heads_a_name(toks, kinds, i):
            pass  # twenty-second round: "the chess set", "the alarm clock": the unknown name's head (NAME_HEADS)
        elif w in _WORDS:
            cues.update(_WORDS[w].split())
            kinds[i] = "cue"
        elif w in GLUE:
            kinds[i] = "glue"
        i += 1
    # Words no class took: a run of them after a determiner (or at the start) is a thing the memory does not
    # know, or a modifier of the known thing right after it ("car keys"); any other is a stray word.
    stray: list[str] = []
    i = 0
    while i < len(toks):
        if kinds[i] is not None:
            i += 1
            continue
        j = i
        while j < len(toks) and kinds[j] is None:
            j += 1
        run = toks[i:j]
        opener = i == 0 or toks[i - 1] in DETERMINERS or toks[i - 1] in ("of", "for", "many", "about")
        after = next((t for t in things if t.start == j), None)
        indefinite = i > 0 and toks[i - 1] in ("a", "an")  # "look for a container": a kind, not a thing
        if after is not None and opener and len(run) <= 2 and not indefinite:
            if after.partial:  # "pill bottle": another kind than the "water bottle" that "bottle" is part of
                after.label, after.known = " ".join(singular_phrase(run + after.label.split(),
                                                                    said_plural(toks[:i], toks[after.end:]))), False
            elif all(w in _ADJECTIVES for w in run):
                after.ignored = tuple(run)
            else:
                # a noun before the name: "receipt book" is another kind, "lesson notebook" a notebook; which one
                # is a guess (the fifth and eighth sets judged them each way), so neither is answered
                stray += run
            after.start = i
        elif opener and not indefinite and len(run) <= MAX_UNKNOWN_WORDS and is_noun_phrase(run) and not any(
                c.isdigit() for w in run for c in w):
            things.append(_Thing(" ".join(singular_phrase(run, said_plural(toks[:i], toks[j:]))), False, i, j))
        else:
            stray += run
        for k in range(i, j):
            kinds[k] = "thing"
        i = j
    things.sort(key=lambda t: t.start)
    # A subject right after a thing or an address starts a second sentence ("where did grandpa put his keys he is
    # looking all over", "is there anything under my bed dear I heard a noise"): read whole, its words would join
    # the question's (LOOK); the clause reader reads the sentences apart where marks separate them.
    for k in range(1, len(toks)):
        if toks[k] in _SUBJECTS and (kinds[k - 1] == "thing" and toks[k + 1:k + 2] and toks[k + 1] in _BE_HAVE
                                     or toks[k - 1] in lexicon.TALK_WORDS):
            stray.append(toks[k])
    # An unknown noun phrase with a thing or "any of my stuff" after it is the subject of the question ("did my cat
    # move any of my stuff"), not what it asks about: read as a thing it would be a wrong answer.
    for t in things:
        if not t.known and set(t.label.split()) & PLACEHOLDER_NOUNS:
            stray.append(t.label)
    for t in things:
        if not t.known and (any(o.start >= t.end for o in things) or any(
                kinds[k] == "cue" and "WHAT" in _WORDS.get(toks[k], "") for k in range(t.end, len(toks)))):
            stray.append(t.label)
    # A relation word right before a thing (a determiner or "somewhere" between) makes it an anchor.
    for t in things:
        k = t.start - 1
        while k >= 0 and toks[k] in _BEFORE_ANCHOR:
            k -= 1
        if k >= 0 and kinds[k] and kinds[k].startswith("rel:"):
            t.anchor_rel = kinds[k][4:]
    for k, kind in enumerate(kinds):  # a relation word before no thing is a particle ("end up in")
        if kind and kind.startswith("rel:") and not any(t.start > k and t.anchor_rel for t in things):
            kinds[k] = "glue"
    return Parse(things, cues, time, toks[0], tuple(stray))


# Twenty-second round: nouns of the reader's vocabulary (glue or a cue: "set" a verb of placing, "clock" a word of
# seeing, "camera" the robot's eye) that also head the name of a household thing: "chess set", "plant stand", "alarm
# clock", "shopping list", "doorbell camera". heldout23's i057 "chess set: when did your cameras last catch it?" was
# answered as when a "chess" was last seen: the unknown name lost its second word to the glue. Closed on purpose.
NAME_HEADS = frozenset("set sets stand stands clock clocks camera cameras robot robots list lists record records "
                       "track tracks".split())


def _heads_a_name(toks: list[str], kinds: list, i: int) -> bool:
    """Whether word i (of NAME_HEADS) heads the name that the word before it starts, a word no class took (the memory
    does not know it; no determiner): "the chess set" is one unknown thing, answered "I don't know any chess set",
    never a "chess". After a known name it stays a word of the clause ("where does the lamp stand", "is the table
    set": a known thing keeps its reading), so "coffee table" and "phone stand" read as before."""
    return toks[i] in NAME_HEADS and i > 0 and kinds[i - 1] is None and toks[i - 1] not in DETERMINERS


# Twenty-second round: participles of record keeping that the vocabulary reads as seeing ("when did you first register
# it", "logged"). heldout23's i165 "Number of books you've got registered?" was answered with the books' sightings:
# a count of the things that are registered (stored, kept, recorded: those are glue already) is the inventory, as
# the forms read "how many X are registered" since the fourteenth round.
_KEPT = frozenset("registered logged".split())


def _counts_kept(text: str, p: Parse, names: Names) -> bool:
    """Whether a count asks how many things are kept on record: one thing counted, no "times" / "often" (a count of
    events), every word of seeing one of _KEPT and after the thing ("books you've got registered", "mugs logged"),
    so that without those words the question says nothing of seeing ("how many sightings of the book are logged"
    and "how many times was the book registered" stay counts of sightings)."""
    if "TIMES" in p.cues or len(p.things) != 1:
        return False
    toks = _KNOW_LEAD.sub("", _PUNCT_TOKENS.sub(" ", text)).split()
    kept = [k for k, w in enumerate(toks) if w in _KEPT]
    if not kept or min(kept) < p.things[0].end:
        return False
    rest = parse(" ".join(w for w in toks if w not in _KEPT), names)
    return rest is not None and "SEEN" not in rest.cues


def _asks_yes_no(p: Parse) -> bool:
    """The first word asks yes or no: an auxiliary ("is", "did", "can") or a verb put first ("Stands the mug ...")."""
    return p.first_word in _AUX or p.first_word in _V1


def _other_known(toks, i: int, n: int, names: Names) -> bool:
    """Whether a known thing is named outside words i..i+n (so the name there is the kind of answer)."""
    return any(_known_at(toks, k, names) is not None for k in range(len(toks)) if not i <= k < i + n)


# -------------------------------------------------------------------------------------------------- the rules
@dataclass(frozen=True)
class Rule:
    operator: str
    shape: str  # "thing" (one thing, no anchor) | "pair" (thing rel anchor) | "anchor" | "none"
    need: tuple[str, ...]  # every one of these cues (an entry "A|B" is either)
    forbid: frozenset
    time: tuple[str, ...]  # the times it takes: "" (none), "@t", "@w"


def _r(op, shape, need, forbid="", time=("",)):
    return Rule(op, shape, tuple(need.split()), frozenset(forbid.split()), time)


RULES: tuple[Rule, ...] = (
    _r("count_moves", "thing", "COUNT MOVE", "SEEN DURATION", ("", "@w")),
    _r("count_sightings", "thing", "COUNT SEEN", "MOVE DURATION FIRST LAST"),
    _r("count_objects", "thing", "COUNT", "MOVE SEEN TIMES DURATION WHERE FIRST LAST"),
    _r("duration", "thing", "DURATION", "COUNT SEEN FIRST KNOWN SINCEWHEN"),
    _r("duration", "thing", "SINCEWHEN THERE|STAYED", "COUNT SEEN FIRST KNOWN DURATION MOVE"),
    _r("first_seen", "thing", "FIRST SEEN|WHEN|APPEAR", "COUNT MOVE LAST DURATION"),
    _r("first_seen", "thing", "SINCEWHEN KNOWN", "COUNT MOVE LAST DURATION"),
    _r("last_seen", "thing", "LAST SEEN|WHEN", "COUNT MOVE FIRST DURATION WHERE"),
    _r("where_to_look", "thing", "LOOK", "COUNT PAST FIRST LAST DURATION HISTORY"),
    _r("as_of", "thing", "WHERE", "COUNT LOOK PAST FIRST LAST DURATION HISTORY HISTORYN ALL MOVE YESNO SEEN",
       ("@t",)),
    _r("previous", "thing", "PAST WHERE", "COUNT LOOK FIRST DURATION HISTORY HISTORYN ALL SEEN"),
    _r("history", "thing", "HISTORY", "COUNT LOOK PAST FIRST LAST DURATION SEEN", ("", "@w")),
    _r("history", "thing", "HISTORYN ALL", "COUNT LOOK PAST FIRST LAST DURATION SEEN", ("", "@w")),
    _r("history", "thing", "ALL WHERE", "COUNT LOOK PAST FIRST LAST DURATION SEEN", ("", "@w")),
    _r("history", "thing", "WHERE", "COUNT LOOK PAST FIRST LAST DURATION SEEN YESNO", ("@w",)),
    _r("history", "thing", "HISTORYN WHAT", "COUNT LOOK PAST FIRST LAST DURATION SEEN", ("", "@w")),
    _r("history", "thing", "MOVEN", "COUNT LOOK PAST FIRST LAST DURATION SEEN YESNO WHEN TIMES WHERE",
       ("", "@w")),
    _r("did_move", "thing", "YESNO MOVE", "COUNT DURATION WHERE LAST FIRST", ("", "@w")),
    _r("is_missing", "thing", "YESNO MISSING", "LOOK WHERE COUNT"),
    _r("is_present", "thing", "STILL", "MOVE MISSING COUNT PAST WHERE LOOK CHANGE DURATION SINCEWHEN"),
    _r("was_seen", "thing", "YESNO SEEN", "COUNT FIRST LAST MOVE WHERE", ("@w",)),
    _r("current", "thing", "WHERE",
       "PAST COUNT LOOK HISTORY HISTORYN ALL FIRST LAST DURATION MOVE SEEN MISSING STILL YESNO WAS"),
    _r("is_related", "pair", "YESNO", "WHERE COUNT LOOK HISTORY PAST MOVE SEEN WHAT", ("", "@t")),
    _r("relational", "anchor", "WHAT|CONTENTS|HOLD", "PAST COUNT LOOK HISTORY FIRST LAST MOVE MISSING CHANGE WAS"),
    # ninth round: "shelf contents at 9", "what the cabinet held an hour ago" as relational and relational_before read
    _r("relational_as_of", "anchor", "WHAT|CONTENTS|HOLD",
       "PAST COUNT LOOK HISTORY FIRST LAST MOVE SEEN MISSING CHANGE", ("@t",)),
    _r("relational_before", "anchor", "WHAT|CONTENTS|HOLD PAST", "COUNT LOOK HISTORY FIRST LAST MOVE SEEN MISSING"),
    _r("missing", "none", "MISSING|LOSTIT WHAT", "COUNT LOOK PAST WHERE"),
    _r("changes", "none", "CHANGE", "COUNT LOOK WHERE", ("@w", "")),
    _r("changes", "none", "MOVE", "COUNT LOOK WHERE", ("@w",)),
    _r("changes", "none", "APPEAR", "COUNT LOOK WHERE", ("@w",)),
    _r("changes", "none", "MISSING", "COUNT LOOK WHERE", ("@w",)),
)
_CONTAINERS = frozenset("cabinet drawer box closet cupboard fridge bag basket bin wardrobe".split())


def _shape(p: Parse) -> tuple[str, list]:
    things = p.things
    if not things:
        return "none", []
    if len(things) == 1:
        t = things[0]
        contents = "CONTENTS" in p.cues or "HOLD" in p.cues and "WHERE" not in p.cues  # not "which room holds X"
        if not t.anchor_rel and ({"PRON_IN", "PRON_ON"} & p.cues) and "WHAT" in p.cues and "WHERE" not in p.cues:
            t.anchor_rel = "in" if "PRON_IN" in p.cues else "on"  # "the living room - what is in there"
        return ("anchor", [t]) if (t.anchor_rel or contents) else ("thing", [t])
    if len(things) == 2 and not things[0].anchor_rel and things[1].anchor_rel:
        return "pair", things
    return "many", things


def read(text: str, names: Names, found, now: float | None) -> list[tuple[str, dict, tuple, str]]:
    """Every rule's reading of a question text: (operator, args, ignored words, unknown) per rule that takes it."""
    if _TWO_QUESTIONS.search(text):
        return []
    spatial = _SPATIAL.search(text)
    if spatial:
        return _spatial(text, spatial, names)
    text = _PURPOSE_CLAUSE.sub("", text)
    text = _drop_purpose_for(text, names)
    text = _WHY_CLAUSE.sub("", text)
    text = _WHERE_PUT.sub("in place", text)
    text = _WHERE_IT_BELONGS.sub("in place", text)
    if _STAYING.search(text):
        text = _WHERE_IT_LIVES.sub("in place", text)
    text = _CROSSED_VIEW.sub("seen", text)
    text = _BEFORE_SOMEONE.sub("before", text)
    text = _BEFORE_LAST.sub("before", text)
    text = _drop_whole_place(text, names)
    text = _drop_agent(text, names)
    text = _BEFORE_END.sub("before", text)
    p = parse(text, names)
    modal = any(w in _MODALS for w in _MODAL_PERFECT.sub("", text).split()[1:])
    if p is None or p.stray or _ACTIVITY.search(text) or (modal and "LOOK" not in p.cues):
        return []
    cues = set(p.cues)
    if "COUNT" in cues and "SEEN" in cues and _counts_kept(text, p, names):
        cues.discard("SEEN")  # "number of books you've got registered": the inventory (_counts_kept)
    if _asks_yes_no(p) or p.first_word == "you" and "SEEN" in cues:
        cues.add("YESNO")  # "u spotted my keys today?"
    if "HADBEEN" in cues and not p.time and "WHERE" in cues:
        cues.add("PAST")  # "the glasses were moved, where had they been": before the move
    if "WHERE" in cues and not p.time and _WHERE_HAS_BEEN.search(text):
        cues |= {"HISTORYN", "ALL"}  # "where has the mug been, first to last?": its places (stop 53)
    if "LOOK" in cues:
        cues.discard("FIRST")  # "where should I search first"
    if p.first_word in ("was", "were", "had") or re.search(r"\b(?:was|were|had)\b", text) and "WHERE" in cues:
        cues.add("WAS")
    if "PURPOSE" in cues:
        cues.discard("PURPOSE")
    if "MOVE" in cues and "WHERE" in cues and text.endswith(" to") and not p.time:
        cues.discard("MOVE")  # "which room did my flatmate move the plant to": where it is now
    shape, things = _shape(p)
    if shape == "many":
        return []
    if p.time == "@t" and "SINCE" in cues:  # "compared to an hour ago", "since @t": the span since then
        time = "@w"
        f = found[0]
        window = (f.t, now)
    else:
        time = p.time
        window = None
        if time == "@w":
            window = (found[0].since, found[0].until)
    out = []
    for rule in RULES:
        if rule.shape != shape or time not in rule.time or cues & rule.forbid:
            continue
        if not all(any(alt in cues for alt in need.split("|")) for need in rule.need):
            continue
        args: dict = {}
        unknown = ""
        ignored: tuple = ()
        if shape in ("thing", "pair"):
            t = things[0]
            args["label"], ignored = t.label, t.ignored
            unknown = "" if t.known else "label"
        if shape in ("pair", "anchor"):
            a = things[-1]
            # eighth round: "contents" of a container or a room are in it, of a desk or a shelf on it ("desk contents
            # atm" was read as "in the desk"); the anchor decides, as it does without the word
            rel = a.anchor_rel or ("in" if a.label in names.regions or a.label in _CONTAINERS else "on")
            args["anchor"], args["relation"] = a.label, rel
            ignored += a.ignored
            unknown = unknown or ("" if a.known else "anchor")
        if time == "@t":
            args["t"] = found[0].t
        elif time == "@w":
            args["since"], args["until"] = window
        if rule.operator == "changes":
            args.setdefault("since", None)
            args.setdefault("until", now)
            kinds = []
            if "MOVE" in cues:
                kinds.append("moved")
            if "MISSING" in cues:
                kinds.append("removed")
            if "APPEAR" in cues:
                kinds += ["appeared", "reappeared"]
            if kinds and "CHANGE" not in cues:
                args["kinds"] = kinds
        out.append((rule.operator, args, ignored, unknown))
    uniq = {}
    for op, args, ignored, unknown in out:
        uniq.setdefault((op, args_key(args)), (op, args, ignored, unknown))
    return list(uniq.values())


def _spatial(text: str, m: re.Match, names: Names) -> list:
    """The one reading of a question with a radius in it: objects within it of a point or of the one thing named."""
    radius = quantities.radius(m)
    rest = text[:m.start()] + " " + text[m.end():]
    # tenth round: the radius may be the whole question ("radius 2 m around point (-1, 3, 0)")
    p = parse(rest, names) if rest.strip() else Parse([], set(), "", "", ())
    if radius is None or p is None or p.stray or p.time or p.cues - {"WHAT", "THERE", "SEEN", "ALL"}:
        return []
    if m.group("pt"):
        if p.things:
            return []
        return [("spatial", {"center": quantities.point(m), "radius": radius}, (), "")]
    if len(p.things) != 1:
        return []
    t = p.things[0]
    return [("spatial", {"anchor": t.label, "radius": radius}, t.ignored, "" if t.known else "anchor")]


PRONOUN = re.compile(r"\b(?:it|they|them)\b")


def sole_known_label(text: str, names: Names) -> str | None:
    """The one known thing a text names (the referent of a pronoun in the next clause), or None."""
    try:
        text = timeexpr.extract(text, float(2**31 - 1))[0]
    except timeexpr.TimeError:
        return None
    p = parse(text, names)
    known = {t.label for t in p.things if t.known} if p else set()
    return known.pop() if len(known) == 1 else None


def is_topic(text: str, names: Names) -> bool:
    """Whether a clause is a thing alone, put in front of its question ("cutting board, where did it go")."""
    p = parse(text, names)
    return bool(p and len(p.things) == 1 and not p.cues and not p.time and not p.stray and len(text.split()) <= 5)


def cues_of(text: str, names: Names) -> set:
    p = parse(text, names)
    if p is None:
        return set()
    return set(p.cues) | ({"YESNO"} if _asks_yes_no(p) else set())


# a clause that states something of the asker or of the thing (not a question, not a subordinate clause)
# eighth round: a person as the subject says something too ("guest has gone", "my son came round")
_STATEMENT = re.compile(r"^(?:i|we|it|they|he|she|you|that|this|(?:(?:the|my|our|a|an) )?(?:"
                        + "|".join(sorted(set(_OWNERS) | set(_PEOPLE))) + r")) (?!(?:what|where|when|which|how)\b)\w+")


# eighth round: why an agent asks ("..., to estimate how stale its position is", "To check whether the scene is
# stable, ...", "... so the plan can allocate one per person"): a clause of purpose, talk when it names no other thing
# and no time (checked before this)
_PURPOSE_TALK = re.compile(r"^(?:(?:to|so|so that|in order to|so as to) (?!(?:what|where|when|which|how)\b)[a-z]+|"
                           r"(?:before|after|while|when) [a-z]+ing\b|"
                           # nineteenth round: "I need to jot down a number, what is there to write with?" (heldout20's
                           # d104 was read as a search for "to jot down a number"): a need to do something beside a
                           # question is why one asks; a need to find, know or see something is the request itself
                           r"(?:i|we) (?:need|have|want|must|got) to (?!(?:find|locate|know|see|check|look|get|have|"
                           r"ask|learn|hear|tell|figure|work|trace|track|spot|search|fetch|grab|take)\b)[a-z]+|"
                           # "..., for the lab log", "..., for the stock count": whom or what the answer is for
                           r"for (?:the|my|our|a|an|this|his|her|their) [a-z]+(?: [a-z]+)?$)")


# a verb right after the thing a clause starts with: the clause says something of it
_THING_STATEMENT = re.compile(r"^(?:is|are|was|were|has|have|had|keeps|keep|seems|seem|got|went|moved|vanished|"
                              r"disappeared|is not|are not|has not|have not)\b")


def is_purpose(text: str) -> bool:
    """Whether a clause says why one asks ("for the lab log", "to check for collisions"): never a question itself."""
    return bool(_PURPOSE_TALK.match(text))


# Words of a clause with a time to come that make it a question of the future, not talk (thirteenth round).
_ASKS_OF_THE_FUTURE = frozenset("where what when which who how whether if will would be is are".split())
# Review of the thirteenth round: a clause that is only a time to come and its link ("..., by tomorrow?", "...; for
# next week") dates the question into the future; it is no talk once the time is out (it said nothing else).
_TIME_LINKS = frozenset("by until till til for from at on in within before after around about and or so please just "
                        "then".split())


# Twenty-fifth round: a clause that opens with a word that times an event ("Before the chair got moved, what spot did it
# occupy?", "Before the hall got rearranged last time, what did it contain?": heldout25's l009 and l093 were answered as
# the place and the contents now, their before-clause taken for talk) or that names a clock time no parser read ("at the
# stroke o' noon": l031) says when the question asks. Only a reading of the time before the last change ("previous",
# "relational_before") agrees with a before-clause ("before the restock, what used to sit on the counter"); any other
# reading beside such a clause is refused (understand._clause_reading), never answered as now. "Before planning the
# route, ..." says why one asks (_PURPOSE_TALK), not when.
_TIMES_THE_QUESTION = re.compile(r"^(?:(?P<before>before|prior to|afore)|after|since|until|till|by the time)\b"
                                 r"(?! [a-z]+ing\b)|\b(?:noon|midday|midnight|oclock|o clock)\b")
BEFORE_ITS_CHANGE = frozenset({"previous", "relational_before"})


def times_the_question(text: str, operator: str) -> bool:
    """Whether a clause beside a question times it in a way its reading (``operator``) does not take."""
    m = _TIMES_THE_QUESTION.search(text)
    return bool(m) and not (m.group("before") and operator in BEFORE_ITS_CHANGE)


def is_talk(text: str, names: Names, asked: set, referent: str | None, now) -> bool:
    """Whether a clause beside a question only talks (why one asks, what happened): no time, no known thing but
    the referent, no cue word the question lacks. Its other words may be anything ("I'm late for the bus")."""
    if not text.strip():
        return True  # a clause that normalising empties ("Robot,", "oh!", "sorry"): only fillers
    present = timeexpr.without_future(text)
    if present != text and set(present.split()) & _ASKS_OF_THE_FUTURE:
        return False  # "and where will it be in 10 minutes" asks of the future: a second question, refused
    if present != text and not set(present.split()) - _TIME_LINKS:
        return False  # "by tomorrow", "until next week": only a time to come, which dates the question itself
    try:
        # a time to come in talk ("I need to leave in like two minutes") says why one asks, never when: taken out
        stripped, found = timeexpr.extract(present, now)
    except timeexpr.TimeError:
        return False
    if found:
        return False
    p = parse(stripped, names)
    if p is None:
        return False
    if any(t.known and t.label != referent for t in p.things):
        return False
    if _STATEMENT.match(stripped) or _PURPOSE_TALK.match(stripped):
        return True  # "I think I broke one", "it's gone cold", "I swear I had a system": said, not asked
    if referent and p.things and p.things[0].known and p.things[0].label == referent and len(p.things) == 1 and \
            _THING_STATEMENT.match(" ".join(stripped.split()[p.things[0].end:])):
        return True  # "the blasted remote has vanished again", "the remote isn't where it was": said of the thing
    return p.cues - {"WHAT", "THERE", "LOSTIT"} <= asked


__all__ = ["parse", "read", "RULES", "GLUE", "is_talk", "is_purpose", "is_topic", "cues_of", "sole_known_label",
           "PRONOUN"]
