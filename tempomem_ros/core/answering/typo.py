"""A mistyped word read as the one word of the readers' vocabulary a single slip away (ninth round, issue 13).

Why a class and not a table of typings: heldout12 refused "whre did my phone get to", "someones moved the lamp agaiin",
"wat disapeared in the last 2 hrs", "how many tims has the chair moved"; the eighth round's table of typed-for words
(normalise._MISTYPED) held none of them, and a table only grows with each set read. A slip is a letter left out inside
the word, two neighbours swapped or a key repeated (_slip_kind: slips a real word makes as often, a letter changed or
one left out at an end, are not read; heldout5/6/9/10 had "fold", "head", "will", "racked", "site"). A word is
corrected only when:

- it is no word of the vocabulary (cues.vocabulary()) and no word of a name the memory knows ("lamb" stays a lamb
  when the memory knows a lamb; a label is never corrected into a cue word);
- it has at least 4 letters (3 for two swapped letters: "teh"), no digit;
- exactly one vocabulary word is a slip of the likeliest kind away (_SLIP_ORDER: "tims" is "times", a letter left out,
  before "time", one changed; two of one kind leave the word as it is).

The understander tries the corrected text only when the question as typed is refused (understand._understand), so
no question read today changes its reading; the interpretation shows the words corrected ("reading 'whre' as
'where'"). Deterministic: the vocabulary and the names decide, in sorted order.
"""

from __future__ import annotations

import functools
import gzip
import os

from .numberwords import ONES, TENS
from .plurals import stem
from .slots import Names

MIN_LETTERS = 4
# A number said in words is what was typed: the time or count it tells is never a slip of a vocabulary word.
_NUMBER_WORDS = frozenset(ONES) | frozenset(TENS) | frozenset(("hundred", "thousand", "half", "quarter"))
MIN_LETTERS_SWAP = 3


@functools.lru_cache(maxsize=1)
def _index() -> tuple[frozenset, dict]:
    from . import cues
    vocab = frozenset(w for w in cues.vocabulary() if w.isalpha())
    deletes: dict[str, set] = {}
    for w in vocab:
        for i in range(len(w)):
            deletes.setdefault(w[:i] + w[i + 1:], set()).add(w)
    return vocab, deletes


def one_slip(a: str, b: str) -> bool:
    """Whether a and b differ by one letter left out, added or changed, or by two neighbours swapped."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if la < lb else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


# Kinds of slip, likeliest first (typists leave a letter out more often than they swap, change or add one): "whre" is
# "where" (a letter left out) rather than "were" (one changed); two candidates of the likeliest kind refuse.
_SLIP_ORDER = ("left out", "swapped", "added")


def _slip_kind(typed: str, word: str) -> str:
    """The kind of slip, or "" for one that a real word makes as often as a typist: a first or last letter left out
    ("racked" is no "tracked", "site" no "sited"), a letter changed ("fold" is no "hold", "will" no "well") or added
    unless it repeats its neighbour ("agaiin")."""
    if len(typed) < len(word):
        inner = [i for i in range(1, len(word) - 1) if word[:i] + word[i + 1:] == typed]
        return "left out" if inner else ""
    if len(typed) > len(word):
        doubled = [i for i in range(1, len(typed)) if typed[i] == typed[i - 1] and typed[:i] + typed[i + 1:] == word]
        return "added" if doubled else ""
    diff = [i for i in range(len(word)) if typed[i] != word[i]]
    return "swapped" if len(diff) == 2 else ""


# Stop 49 (heldout29's C131, "befor the bed last changed what was on it": refused by the rules, then answered by the
# similarity reader as the bed's previous place, a wrong answer): a last letter left out ("befor", "sinc", "agai",
# "locatio") was no slip because a real word makes it as often (_slip_kind: "site" is no "sited"). Since the nineteenth
# round correct() leaves every word of English as typed before any slip is looked for, so the language now tells what
# that guard could not: a last letter left out of a word that is no English word is read, after every other kind of
# slip (correct() only; a name's word keeps the typist's slips of label_slip: "thermo" stays no thermos).
END_LEFT_OUT = "last letter left out"
_WORD_SLIP_ORDER = (*_SLIP_ORDER, END_LEFT_OUT)


def _word_slip_kind(typed: str, word: str) -> str:
    """_slip_kind, or END_LEFT_OUT for a word whose last letter was left out ("befor" of "before")."""
    kind = _slip_kind(typed, word)
    if not kind and len(word) == len(typed) + 1 and word[:-1] == typed:
        return END_LEFT_OUT
    return kind


# Review of round 29 (rev49c): "where was the mug befor the sinc", the memory knowing a sink, was read "before the
# since" (the mug's previous place); "sinc" is one changed letter from the known sink as it is one end letter short of
# "since", and an end letter left out is the least likely slip (_WORD_SLIP_ORDER, last): a word one slip of any kind
# from a known name's word is never read as a vocabulary word by it.
def _near_a_name(typed: str, names: Names) -> bool:
    """Whether ``typed`` is one slip (one_slip) from a word of a name the memory knows."""
    return any(one_slip(typed, c) for c in names.words_near(typed))


def candidates(word: str) -> list[str]:
    """The vocabulary words one slip away from a word, sorted."""
    vocab, deletes = _index()
    near = set(deletes.get(word, ()))  # a letter added to the word's vocabulary form
    for i in range(len(word)):
        d = word[:i] + word[i + 1:]
        if d in vocab:
            near.add(d)  # a letter too many
        near |= deletes.get(d, set())  # a letter changed or two swapped
    return sorted(w for w in near if one_slip(word, w))


def correct(text: str, names: Names) -> tuple[str, tuple[tuple[str, str], ...]]:
    """(the text with each mistyped word replaced, ((typed, read as), ...)); the text unchanged when nothing is."""
    vocab, _ = _index()
    toks = text.split()
    fixed = []
    for i, w in enumerate(toks):
        if w in vocab or not w.isalpha() or len(w) < MIN_LETTERS_SWAP or names.entries(True, (stem(w),)):
            continue
        if w in english_words():  # nineteenth round: a word of English is what was typed ("rely" is no "relay")
            continue
        if w in _NUMBER_WORDS:  # stop 47: "Back from lunch at two. Did the mug move?" read "two" as "tow" (a move)
            continue
        near = [c for c in candidates(w) if len(w) >= MIN_LETTERS or len(c) == len(w)]
        for kind in _WORD_SLIP_ORDER:  # the likeliest kind of slip that has candidates decides, when it has one
            of_kind = [c for c in near if _word_slip_kind(w, c) == kind]
            if of_kind:
                if kind == END_LEFT_OUT and _near_a_name(w, names):
                    break
                if len(of_kind) == 1:
                    toks[i] = of_kind[0]
                    fixed.append((w, of_kind[0]))
                break
    return " ".join(toks), tuple(fixed)


# Eighteenth round: a thing's name mistyped. heldout19's "wen did u last see the umbrela" and "is my walet missing??"
# were answered "I don't know any umbrela / walet", where the speaker meant the umbrella and the wallet the memory
# knows: a wrong answer, as the thing is known. A name's word is read for a typed one only when the slip is a typist's
# (_slip_kind: a letter left out inside, a doubled key, two neighbours swapped), the typed word has at least
# MIN_LABEL_TYPED letters and the name's word MIN_LABEL_WORD (short words sit one slip from other real words: "cane"
# is a crane's, "soon" a spoon's), the typed word is no word of the readers' vocabulary and no name's, and it is one
# slip (of any kind, a changed letter too) from exactly one name word: "botle" beside a known "bottle" and "bootle"
# stays unknown, as does "lamb" beside a lamp (a changed letter), "thermo" beside a thermos (an end letter) and "mugg".
MIN_LABEL_TYPED = 5
MIN_LABEL_WORD = 6

# Nineteenth round (the eighteenth round's review, HIGH): a real English word one slip from a known name's word was read
# as that name ("is the caster on the chair" as a coaster, "a sliver of glass" as silver, "a clever way" as a cleaver):
# no kind of slip tells "caster" from "walet" or "umbrela"; only the language does. A word of English is never read as a
# name: it is what the speaker wrote, answered as such ("I don't know any caster") rather than as a thing the speaker
# did not name. The words: SCOWL's size-50 English lists as Debian ships them (wamerican and wbritish 2020.12.07-2,
# both spellings), lower-case words of MIN_LETTERS letters or more (the shortest correct() reads beside two swapped
# letters are three: "teh"), 64,604 words, 170 kB gzipped; data/english_words.COPYING is their notice. What it refuses
# beyond the slips above: a typed word that is English ("caster", "sliver", "clever"), and correct() leaves one too
# ("I rely on you" had been read as "relay"); what it keeps: the slips no dictionary holds ("walet", "umbrela",
# "scisors", "chrager", "laptpo", "whre", "disapeared").
ENGLISH_WORDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "english_words.txt.gz")


@functools.lru_cache(maxsize=1)
def english_words() -> frozenset:
    """The English words of ENGLISH_WORDS (one lower-case word a line), read once."""
    with gzip.open(ENGLISH_WORDS, "rt", encoding="ascii") as f:
        return frozenset(line.strip() for line in f if line.strip())


def label_slip(word: str, names: Names) -> str | None:
    """The one known name word that ``word`` is a typist's slip of (rules above), or None."""
    vocab, _ = _index()
    if len(word) < MIN_LABEL_TYPED or not word.isalpha() or word in vocab or names.entries(True, (stem(word),)):
        return None
    if word.lower() in english_words():
        return None
    near = sorted(c for c in names.words_near(word) if c != word and one_slip(word, c))
    if len(near) != 1 or len(near[0]) < MIN_LABEL_WORD or near[0] in vocab:
        return None
    return near[0] if _slip_kind(word, near[0]) in _SLIP_ORDER else None


__all__ = ["correct", "candidates", "english_words", "label_slip", "one_slip"]
