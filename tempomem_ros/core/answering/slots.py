"""The thing a question names, resolved against the labels (and region names) the memory knows.

Why against the memory's own labels: "what is on the counter now" asks about the counter, "where are my car
keys" about the keys, "where's the remote control" about the remote; a slot taken verbatim would ask about a
"counter now" and find nothing. The rule is whole words, longest known name first (ties: the rightmost, the
head of an English noun phrase: "kitchen counter" -> counter), singular and plural alike ("key" finds "keys",
"knives" finds "knife": plurals.py).
Words left over are shown in the interpretation ("ignoring 'car'"), never silently dropped. A slot that
carries structure the forms did not consume (a preposition, a number, "and") is refused rather than cut down
to a label: "the table and under the bed" is two questions, "table in 10 minutes" is not a table. A thing the
memory does not know is reported as unknown ("I don't know any passport"), not answered with an empty place, and
in the singular ("how many unicorns" -> "I don't know any unicorn"; "sunglasses" stays as it is).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..labels import words
from .plurals import singular_phrase, stem

DETERMINERS = frozenset("the my a an our your his her their this that these those some any its".split())
INDEFINITE = frozenset("a an some any something anything somewhere someplace anywhere".split())
# A slot that is (or starts with) one of these names no particular thing.
NOT_A_THING = frozenset(
    "it they them this that these those everything anything something nothing all stuff things thing "
    "objects object one ones someone somebody anyone anybody everyone where what who here there place places spot "
    "position location way items item".split())
# Words that carry structure: a slot holding one of them was not understood as a whole.
STRUCTURE = frozenset(
    "in on at under near by from to with of for since before after between into onto over during within beside "
    "behind above below off and or but nor than if then will would should could can may might is are was were "
    "be been being do does did has have had not no who why how when what which where first last ever never again "
    "still already yet usually normally often likely probably most recently earlier previously "
    # words of asking, never part of a thing: "number of times the book moved" is not a count of books
    "times time moves moved move seen sighting sightings observations observation history location position "
    "whereabouts".split())
TRAILING_OK = frozenset("located kept placed lying sitting standing".split())
MAX_THING_WORDS = 4


def _stems(ws) -> tuple[str, ...]:
    return tuple(stem(w) for w in ws)


@dataclass(frozen=True)
class Thing:
    """A resolved slot: ``label`` is what the operators are asked about (whole-word match)."""

    label: str
    known: bool
    indefinite: bool = False
    ignored: tuple[str, ...] = ()
    raw: str = ""


class Names:
    """The labels and region names a memory knows, indexed by word stem (a question looks at the few names
    that share a word with its slot, not at every label of a 10,000-object map)."""

    def __init__(self, labels, regions=()) -> None:
        self.labels = sorted({str(x) for x in labels if words(str(x))})
        self.regions = sorted({str(x) for x in regions if words(str(x))})
        label_set = set(self.labels)
        self._index: dict[bool, dict[str, list]] = {False: {}, True: {}}
        for n in sorted(label_set | set(self.regions)):
            entry = (n, words(n), _stems(words(n)))
            for st in sorted(set(entry[2])):
                self._index[True].setdefault(st, []).append(entry)
                if n in label_set:
                    self._index[False].setdefault(st, []).append(entry)

    def entries(self, regions: bool, slot_stems) -> list:
        """Names sharing a stem with the slot, in name order (each once)."""
        index = self._index[bool(regions)]
        seen, out = set(), []
        for st in slot_stems:
            for entry in index.get(st, ()):
                if entry[0] not in seen:
                    seen.add(entry[0])
                    out.append(entry)
        out.sort(key=lambda e: e[0])
        return out


def _contains(hay: tuple[str, ...], needle: tuple[str, ...]) -> int:
    """Start index of needle inside hay (rightmost), -1 when absent."""
    n = len(needle)
    for i in range(len(hay) - n, -1, -1):
        if hay[i:i + n] == needle:
            return i
    return -1


def resolve(slot: str, names: Names, *, regions: bool = False) -> Thing | None:
    """The thing a slot names, or None when the slot is not a thing (refuse the question)."""
    ws = list(words(slot))
    indefinite = bool(ws) and ws[0] in INDEFINITE
    while ws and ws[0] in DETERMINERS:
        ws.pop(0)
    if not ws or ws[0] in NOT_A_THING or len(ws) > MAX_THING_WORDS + 2:
        return None
    sw = tuple(ws)
    ss = _stems(sw)
    entries = names.entries(regions, ss)
    # 1. The slot as a whole names known things: a whole label, or whole words of longer labels ("bottle"
    #    -> "water bottle"); through the singular only when the words differ ("key" -> "keys").
    exact = sorted(n for n, nw, nstem in entries if nw == sw)
    if exact:
        return Thing(exact[0], True, indefinite, (), slot)
    if any(_contains(nw, sw) >= 0 for n, nw, nstem in entries):
        return Thing(" ".join(sw), True, indefinite, (), slot)
    by_stem = sorted(((len(nw), n, nw, nstem) for n, nw, nstem in entries if _contains(nstem, ss) >= 0))
    if by_stem:
        _, n, nw, nstem = by_stem[0]
        i = _contains(nstem, ss)
        return Thing(" ".join(nw[i:i + len(sw)]), True, indefinite, (), slot)
    # 2. A known name inside the slot: longest first, then the rightmost (the head of the phrase).
    best = None
    for n, nw, nstem in entries:
        i = _contains(ss, nstem)
        if i < 0:
            continue
        key = (len(nw), i, len(n))
        if best is None or key > best[0]:
            best = (key, n, i, len(nw))
    if best is not None:
        _, n, i, length = best
        before, after = sw[:i], sw[i + length:]
        if any(w in STRUCTURE or any(c.isdigit() for c in w) for w in before + after):
            return None
        if after and not all(w in TRAILING_OK for w in after) and len(after) > 1:
            return None
        return Thing(n, True, indefinite, tuple(before + after), slot)
    # 3. Unknown: only a plain noun phrase counts as a thing the memory does not know; a trailing participle
    #    ("where were the knives kept before") is dropped and shown, as it is after a known label.
    trailing = []
    while len(sw) > 1 and sw[-1] in TRAILING_OK:
        trailing.insert(0, sw[-1])
        sw = sw[:-1]
    if any(w in STRUCTURE or any(c.isdigit() for c in w) for w in sw) or len(sw) > MAX_THING_WORDS:
        return None
    return Thing(" ".join(singular_phrase(sw)), False, indefinite, tuple(trailing), slot)
