"""Open-vocabulary label lookup: rank a fixed label vocabulary against a free-text request.

Why rank labels rather than objects: a user asks for "something to drink from", the memory holds
objects labelled "mug" and "bottle". Embedding the request and every known label in one space and
ranking by cosine turns the request into the labels worth searching for, with no hand-written synonym
table. ``evaluate_vocabulary`` measures how often that works on a fixed set of requests.

Label template: labels are embedded through ``template``, ``"a photo of a {label}"`` by default. On the
project's vocabulary set (test/data/vocabulary.json, 95 labels, 50 requests) with the sentence encoder,
bench/vocab_eval.py measured recall@5 1.00 / mean precision@5 0.324 with that template against
0.94 / 0.336 for the bare ``"{label}"``: wrapping a one-word label in a short sentence puts it closer to
how requests are phrased, and recall (is something useful in the top 5) is what the user feels. CLIP's
text tower is trained on captions, so the same template suits it too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tempomem_ros.core.errors import InvalidInputError
from tempomem_ros.semantics.protocol import TextEncoder

BARE_LABEL_TEMPLATE = "{label}"
PHOTO_LABEL_TEMPLATE = "a photo of a {label}"
DEFAULT_LABEL_TEMPLATE = PHOTO_LABEL_TEMPLATE


def apply_template(template: str, label: str) -> str:
    if "{label}" not in template:
        raise InvalidInputError(f"label template must contain '{{label}}', got {template!r}")
    return template.replace("{label}", label)


class LabelIndex:
    """A label vocabulary embedded once, ranked against queries by cosine similarity.

    Ties are broken alphabetically so that a ranking never depends on insertion order.
    """

    def __init__(self, labels: Sequence[str], encoder: TextEncoder, template: str = DEFAULT_LABEL_TEMPLATE):
        if isinstance(labels, str):
            raise InvalidInputError("labels must be a sequence of strings, not a single string")
        labels = tuple(labels)
        if not labels:
            raise InvalidInputError("a label index needs at least one label")
        if len(set(labels)) != len(labels):
            dup = sorted({x for x in labels if labels.count(x) > 1})
            raise InvalidInputError(f"duplicate labels in the vocabulary: {dup}")
        self.labels = labels
        self.encoder = encoder
        self.template = template
        self._matrix = encoder.encode([apply_template(template, lab) for lab in labels])

    def scores(self, query: str) -> np.ndarray:
        """Cosine of ``query`` with every label, in the order of ``labels``."""
        q = self.encoder.encode([query])[0]
        return self._matrix @ q

    def rank(self, query: str, k: int | None = None) -> list[tuple[str, float]]:
        """The ``k`` best labels (all when None) with their cosine, best first."""
        return self.rank_many([query], k)[0]

    def rank_many(self, queries: Sequence[str], k: int | None = None) -> list[list[tuple[str, float]]]:
        """``rank`` for several queries with one encoder call (a model's per-call overhead dominates)."""
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise InvalidInputError(f"k must be a positive integer or None, got {k!r}")
        all_scores = self.encoder.encode(queries) @ self._matrix.T
        out = []
        for s in all_scores:
            # Rounded before comparing so float noise cannot reorder near-ties; ties go alphabetical.
            order = sorted(range(len(self.labels)), key=lambda i: (-round(float(s[i]), 6), self.labels[i]))
            out.append([(self.labels[i], float(s[i])) for i in order[:k]])
        return out


@dataclass(frozen=True)
class VocabularyCase:
    query: str
    expected: frozenset[str]


@dataclass(frozen=True)
class VocabularySet:
    labels: tuple[str, ...]
    cases: tuple[VocabularyCase, ...]


def load_vocabulary_set(path: str | Path) -> VocabularySet:
    """Read ``{"labels": [...], "cases": [{"query": ..., "expected": [...]}, ...]}`` and validate it.

    Every expected label must be in the vocabulary: an expected label the ranker can never return would
    make the figure meaningless.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"cannot read vocabulary set {path}: {exc}") from exc
    if not isinstance(data, dict) or "labels" not in data or "cases" not in data:
        raise InvalidInputError(f"{path}: expected an object with 'labels' and 'cases'")
    labels = tuple(data["labels"])
    if len(set(labels)) != len(labels):
        raise InvalidInputError(f"{path}: duplicate labels")
    known = set(labels)
    cases = []
    for i, case in enumerate(data["cases"]):
        expected = frozenset(case.get("expected", ()))
        if not case.get("query") or not expected:
            raise InvalidInputError(f"{path}: case {i} needs a query and at least one expected label")
        unknown = sorted(expected - known)
        if unknown:
            raise InvalidInputError(f"{path}: case {i} ({case['query']!r}) expects unknown labels {unknown}")
        cases.append(VocabularyCase(case["query"], expected))
    queries = [c.query for c in cases]
    if len(set(queries)) != len(queries):
        raise InvalidInputError(f"{path}: duplicate queries")
    return VocabularySet(labels, tuple(cases))


@dataclass(frozen=True)
class CaseResult:
    query: str
    expected: frozenset[str]
    top: tuple[str, ...]
    hit: bool  # at least one expected label in top
    precision: float  # fraction of top that is expected


@dataclass(frozen=True)
class VocabularyEval:
    template: str
    k: int
    recall_at_k: float  # fraction of cases with a hit in the top k
    mean_precision_at_k: float
    cases: tuple[CaseResult, ...]


def evaluate_vocabulary(
    vocab: VocabularySet, encoder: TextEncoder, template: str = DEFAULT_LABEL_TEMPLATE, k: int = 5
) -> VocabularyEval:
    """Rank the whole vocabulary for every case; report recall@k and mean precision@k."""
    if not vocab.cases:
        raise InvalidInputError("a vocabulary set with no cases cannot be evaluated")
    index = LabelIndex(vocab.labels, encoder, template)
    rankings = index.rank_many([case.query for case in vocab.cases], k)
    results = []
    for case, ranked in zip(vocab.cases, rankings, strict=True):
        top = tuple(label for label, _ in ranked)
        n_good = sum(label in case.expected for label in top)
        results.append(CaseResult(case.query, case.expected, top, n_good > 0, n_good / k))
    recall = sum(r.hit for r in results) / len(results)
    precision = sum(r.precision for r in results) / len(results)
    return VocabularyEval(template, k, recall, precision, tuple(results))
