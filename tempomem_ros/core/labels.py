"""Label text: sanitising what the segmenter sends, and whole-word matching of what users ask.

Why whole words: a substring match makes "able" find "table" and "cup" find "cupboard"; users and the
fusion arbiter both mean words. Why sanitise: labels come from arbitrary upstream models and end up in
RViz text markers, service answers and logs; control characters and unbounded lengths do not belong there.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def sanitize_label(text, max_length: int = 120) -> str:
    """Remove control/format characters, collapse whitespace, cap the length; '' becomes 'unknown'."""
    if not isinstance(text, str):
        text = str(text)
    cleaned = "".join(" " if unicodedata.category(ch).startswith(("C", "Z")) else ch for ch in text)
    cleaned = " ".join(cleaned.split())
    cleaned = cleaned[:max_length].strip()
    return cleaned or "unknown"


def normalize(text: str) -> str:
    return " ".join(words(text))


@functools.lru_cache(maxsize=16384)
def words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.casefold()))


def label_matches(query: str, label: str) -> bool:
    """True when every word of ``query`` is a whole word of ``label`` (case-folded).

    "mug" matches "coffee mug" and "Mug"; "able" does not match "table"; "" matches nothing.
    """
    q = words(query)
    if not q:
        return False
    lw = words(label)
    n = len(q)
    return any(lw[i:i + n] == q for i in range(len(lw) - n + 1))


#: Names of one kind of thing in segmenters' vocabularies (LVIS category synonyms, COCO's name beside LVIS's, common
#: English variants); the first name of a group stands for the others. Why: an open-vocabulary segmenter prompted
#: with a household vocabulary returns "couch" for some views of the sofa and "sofa" for others, and whole-word
#: matching cannot see that they are one kind: a "couch" sliver inside the sofa (a new label, no learned confusion
#: yet) became an object of its own, then a false "appeared" and "removed" (seeds 388, 399, no feature). Only
#: names of the same kind: look-alikes of different kinds (a cup and a mug, a remote and a phone) are no synonyms;
#: the memory learns which of those its segmenter confuses (association.confusion_share).
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("sofa", "couch", "settee"),
    ("tv", "television", "television set", "tv set"),
    ("refrigerator", "fridge"),
    ("bookshelf", "bookcase"),
    ("trash can", "garbage can", "trash bin", "garbage bin", "wastebasket", "waste bin", "dustbin"),
    ("phone", "telephone"),
    ("cellphone", "cell phone", "mobile phone", "smartphone", "smart phone"),
    ("laptop", "notebook computer"),
    ("glasses", "eyeglasses", "spectacles"),
    ("backpack", "rucksack", "knapsack"),
    ("handbag", "purse"),
    ("nightstand", "night table", "bedside table"),
)

#: Closed compounds naming a kind of what their last part names (a bookshelf is a shelf, an armchair a chair): whole
#: words already make "shelf" agree with "wall shelf", but cannot see it in "bookshelf" (seed 388: a "bookshelf"
#: inside the shelf became an object of its own and a false removal). Listed, not guessed from the spelling: a
#: carpet is no pet, a cupboard no board.
KIND_OF: dict[str, str] = {
    "bookshelf": "shelf", "armchair": "chair", "wheelchair": "chair", "highchair": "chair",
    "cellphone": "phone", "teacup": "cup", "wineglass": "glass", "handbag": "bag", "houseplant": "plant",
    "football": "ball", "basketball": "ball", "nightstand": "table", "tablecloth": "cloth", "flowerpot": "pot",
}

_SYNONYM_OF: dict[tuple[str, ...], tuple[str, ...]] = {
    words(name): words(group[0]) for group in SYNONYMS for name in group}
_LONGEST_SYNONYM = max(len(k) for k in _SYNONYM_OF)


@functools.lru_cache(maxsize=16384)
def kind_forms(text: str) -> tuple[tuple[str, ...], ...]:
    """The label's words with each synonym replaced by its group's first name (SYNONYMS), and, when it holds a
    closed compound of KIND_OF, the same words with the compound's head instead: "grey couch" -> (grey sofa);
    "bookcase" -> (bookshelf), (shelf)."""
    w, out, i = words(text), [], 0
    while i < len(w):
        for n in range(min(_LONGEST_SYNONYM, len(w) - i), 0, -1):
            name = _SYNONYM_OF.get(w[i:i + n])
            if name is not None:
                out.extend(name)
                i += n
                break
        else:
            out.append(w[i])
            i += 1
    canonical = tuple(out)
    headed = tuple(KIND_OF.get(x, x) for x in canonical)
    return (canonical,) if headed == canonical else (canonical, headed)


def _contains(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    n = len(inner)
    return n > 0 and any(outer[i:i + n] == inner for i in range(len(outer) - n + 1))


@functools.lru_cache(maxsize=65536)
def labels_agree(a: str, b: str) -> bool:
    """Two labels name the same kind when one's words appear, in order, in the other's, once synonyms are named
    alike and closed compounds may stand for their head (kind_forms): "couch" and "sofa", "shelf" and "bookcase"
    agree; "book" and "bookshelf", "cup" and "mug" do not.

    Cached (a pure function of two strings): fusion asks it of every sighting against every candidate, every pair
    of a frame's labels and every object in view, 1.3 thousand times a frame on bench_fuser_batch.py, where it
    was the most called function of the fuser's own CPU (docs/RESULTS.md, issue 15)."""
    if label_matches(a, b) or label_matches(b, a):
        return True
    return any(_contains(x, y) or _contains(y, x) for x in kind_forms(a) for y in kind_forms(b))


def canonical_label(mass: dict[str, float]) -> str:
    """The heaviest label; ties broken alphabetically so the result does not depend on arrival order."""
    if not mass:
        return "unknown"
    return min(mass.items(), key=lambda kv: (-round(kv[1], 9), kv[0]))[0]


def label_share(mass: dict[str, float], label: str) -> float:
    """The share of a label mass under labels that agree with ``label`` (whole words); 0 for no mass."""
    total = sum(mass.values())
    return sum(m for lbl, m in mass.items() if labels_agree(lbl, label)) / total if total > 0 else 0.0
