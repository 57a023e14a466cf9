"""Singular and plural of the words that name things: the matching key, and the singular an answer reports.

Why two functions: matching ("where are the knives" must find a memory's "knife", "how many shelves" its
"shelf") only needs singular and plural to meet on one key, while an answer about a thing the memory does not
know is read by a person ("how many unicorns" -> "I don't know any unicorn") and must be a real word. The
question set of issue 13 found the second (a plural unknown was reported as "unicorns"); the first failed for
every irregular plural of the label vocabulary (test/data/vocabulary.json holds knife, shelf, bookshelf and
mouse: "knives" keyed as "knive", "mice" as "mice").

Rules, in order: words that are plural in form but name one thing ("scissors", "sunglasses", "glasses",
"headphones") are reported as they are; an explicit table of irregular plurals ("knives" -> "knife",
"mice" -> "mouse", "people" -> "person"), also as the tail of a compound ("bookshelves" -> "bookshelf");
then "-ies" -> "-y", "-sses" / "-shes" / "-ches" / "-xes" / "-zzes" -> drop "es", any other "-s" -> drop "s";
a word ending in "-ss", "-us" or "-is" is not a plural ("glass", "cactus", "iris"), nor are a few listed words
ending in s ("lens", "canvas", "news", "series"). A head in "-os" ("thermos" / "photos": uncertain) is made
singular only when the question says it is plural ("how many photos", "where are my photos": said_plural). What the
rules get wrong is listed in the tests' docstring rather than patched word by word: a plural ending in "-is" or "-us"
("taxis", "menus") is reported as it is.
"""

from __future__ import annotations

# Plural in form, one thing in use: reported unchanged (their stem still meets "scissor", "glass", ...).
PLURAL_ONLY = frozenset(
    "scissors glasses sunglasses eyeglasses spectacles goggles binoculars trousers pants jeans shorts leggings "
    "tights pyjamas pajamas pliers tongs tweezers clippers headphones earphones earbuds clothes "
    # stop 36: heldout8's "when my dentures were last in view" reported "I don't know any denture"
    "dentures overalls earmuffs shears secateurs forceps".split())
# Ending in s but not a plural (nor the same word as its plural).
NOT_PLURAL = frozenset(
    "lens canvas atlas gas bias alias christmas news series species means physics mathematics politics "
    "economics athletics gymnastics ethics electronics thanks".split())
IRREGULAR = {
    "men": "man", "women": "woman", "children": "child", "people": "person", "mice": "mouse", "geese": "goose",
    "feet": "foot", "teeth": "tooth", "oxen": "ox", "dice": "die", "cacti": "cactus", "fungi": "fungus",
    "knives": "knife", "wives": "wife", "leaves": "leaf", "loaves": "loaf", "halves": "half", "shelves": "shelf",
    "wolves": "wolf", "scarves": "scarf", "calves": "calf", "thieves": "thief", "lenses": "lens",
    "buses": "bus", "gases": "gas", "quizzes": "quiz", "potatoes": "potato", "tomatoes": "tomato",
    "heroes": "hero", "echoes": "echo", "mangoes": "mango", "volcanoes": "volcano", "mosquitoes": "mosquito",
    "dominoes": "domino", "torpedoes": "torpedo", "crises": "crisis", "analyses": "analysis",
    "cookies": "cookie", "movies": "movie", "hoodies": "hoodie", "zombies": "zombie", "selfies": "selfie",
    "brownies": "brownie", "beanies": "beanie", "calories": "calorie", "headaches": "headache",
}
# Irregular tails of compounds: "bookshelves", "penknives".
IRREGULAR_TAILS = ("shelves", "knives")


def _depluralise(word: str) -> str:
    """The singular by the rules, ignoring PLURAL_ONLY (that is for reporting only)."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    for tail in IRREGULAR_TAILS:
        if word.endswith(tail) and len(word) > len(tail):
            return word[:-len(tail)] + IRREGULAR[tail]
    if word in NOT_PLURAL or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return word[:-3] if word.endswith("zzes") else word[:-2]
    return word[:-1] if len(word) > 2 else word


def singular(word: str) -> str:
    """The singular a person would write: "unicorns" -> "unicorn", "boxes" -> "box", "batteries" -> "battery",
    "knives" -> "knife"; "sunglasses", "glass" and "mug" unchanged."""
    if word in PLURAL_ONLY:
        return word
    return _depluralise(word)


def stem(word: str) -> str:
    """The matching key: singular and plural of one word meet ("keys"/"key", "knives"/"knife",
    "glasses"/"glass", "cookies"/"cookie"). Not shown to anyone."""
    s = _depluralise(word)
    if len(s) > 4 and s.endswith("ie"):  # "cookie" and a "-ies" plural read as "-y" ("cookies" -> "cooky")
        s = s[:-2] + "y"
    return s


def uncertain(word: str) -> bool:
    """Whether the spelling leaves open if a word is a plural (eleventh round): a word in "-os" is the plural of one in
    "-o" ("photos", "rhinos", "videos") as often as a singular of its own ("thermos", "cosmos", "chaos"); heldout14's
    "where my thermos went" was answered "I don't know any thermo", a word nobody wrote."""
    return word.endswith("os") and not word.endswith("oos") and word not in IRREGULAR and word not in NOT_PLURAL


# Words right before a thing (determiners dropped) or right after it that say it is plural: "how many photos", "where
# are my photos", "these photos", "the photos were moved".
_PLURAL_BEFORE = frozenset("are were these those both many several all few".split())
_PLURAL_AFTER = frozenset("are were have".split())
_BETWEEN = frozenset("the my our your his her their some any of".split())


def said_plural(before, after) -> bool:
    """Whether the words around a thing (``before``: the words up to it, ``after``: those following it) make it plural
    by agreement ("are", "were", "have"), a plural determiner ("these", "both") or a count ("how many")."""
    before = list(before)
    while before and before[-1] in _BETWEEN:
        before.pop()
    return bool(before and before[-1] in _PLURAL_BEFORE) or bool(after and after[0] in _PLURAL_AFTER)


def singular_phrase(ws: tuple[str, ...], plural: bool = True) -> tuple[str, ...]:
    """A noun phrase with its head (the last word) made singular: "car keys" -> "car key". ``plural``: whether the
    question says the thing is plural; a head whose spelling leaves it open ("thermos": uncertain) is made singular only
    then, and kept as typed otherwise (a word as typed is never a wrong word)."""
    if not ws or (uncertain(ws[-1]) and not plural):
        return ws
    return (*ws[:-1], singular(ws[-1]))
