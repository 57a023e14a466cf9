"""The audit row's JSON texts (store/base.py sorted_json, json_ids) are json's own, written faster.

Why: Store.audit encodes three JSON texts for every merge (20 a frame); json.dumps built its encoder anew each call
(docs/RESULTS.md section 7, round 11). The texts are compared with json.dumps on random details and id lists, the
odd values included (NaN, infinities, -0.0, unicode, nested lists and dicts, bools, ints of any size)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from tempomem_ros.core.store.base import json_ids, sorted_json

ODD = [float("nan"), float("inf"), -float("inf"), -0.0, 0.0, 5e-324, 1e308, 0.1 + 0.2, True, False, None, "",
       "caf\u00e9 \"q\" \\ \n", "\U0001f37a", 2 ** 70, -3, [1, 2.5, "z", None], {"k": 1.0, "a": [True]}, (1, 2)]


def _value(rng: random.Random):
    if rng.random() < 0.5:
        return rng.choice(ODD)
    return rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30)


def test_sorted_json_is_json_dumps_with_sorted_keys():
    rng = random.Random(11)
    for _ in range(20000):
        detail = {rng.choice(["score", "reason", "why", "key", "a", "Z", "\u00e9"]): _value(rng)
                  for _ in range(rng.randint(0, 5))}
        assert sorted_json(detail) == json.dumps(detail, sort_keys=True)
    # the merge's own detail, and int keys (json writes them as text, sorted as ints)
    assert sorted_json({"score": 0.912345, "reason": "score"}) == '{"reason": "score", "score": 0.912345}'
    assert sorted_json({2: "b", 10: "a"}) == json.dumps({2: "b", 10: "a"}, sort_keys=True) == '{"2": "b", "10": "a"}'


def test_sorted_json_refuses_what_json_refuses():
    with pytest.raises(TypeError):
        sorted_json({"x": object()})
    with pytest.raises(TypeError):
        sorted_json({"x": np.int64(3)})
    with pytest.raises(TypeError):
        sorted_json({1: "a", "b": 2})  # keys of two kinds cannot be sorted


def test_json_ids_is_json_dumps_of_the_list():
    rng = random.Random(15)
    for _ in range(20000):
        ids = [rng.randint(-2 ** 70, 2 ** 70) for _ in range(rng.randint(0, 6))]
        assert json_ids(ids) == json.dumps(ids)
        assert json_ids(sorted(set(ids))) == json.dumps(sorted(set(ids)))
    assert json_ids([]) == "[]" and json_ids([7]) == "[7]" and json_ids([1, 22]) == "[1, 22]"
    assert json_ids([True, 2]) == "[true, 2]"  # a bool is not an id: json's text
    assert json_ids([1.5]) == "[1.5]"
    with pytest.raises(TypeError):
        json_ids([np.int64(3)])  # as json.dumps
