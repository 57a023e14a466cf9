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


@functools.lru_cache(maxsize=65536)
def labels_agree(a: str, b: str) -> bool:
    """Two labels name the same kind when one's words appear, in order, in the other's.

    Cached (a pure function of two strings): fusion asks it of every sighting against every candidate, every pair
    of a frame's labels and every object in view, 1.3 thousand times a frame on bench_fuser_batch.py, where it
    was the most called function of the fuser's own CPU (docs/RESULTS.md, issue 15)."""
    return label_matches(a, b) or label_matches(b, a)


def canonical_label(mass: dict[str, float]) -> str:
    """The heaviest label; ties broken alphabetically so the result does not depend on arrival order."""
    if not mass:
        return "unknown"
    return min(mass.items(), key=lambda kv: (-round(kv[1], 9), kv[0]))[0]


def label_share(mass: dict[str, float], label: str) -> float:
    """The share of a label mass under labels that agree with ``label`` (whole words); 0 for no mass."""
    total = sum(mass.values())
    return sum(m for lbl, m in mass.items() if labels_agree(lbl, label)) / total if total > 0 else 0.0
