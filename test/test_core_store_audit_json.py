"""An audit row's detail is written by one kept encoder (store/base._SORTED_JSON): the text json.dumps(detail,
sort_keys=True) gives, for every kind of detail fusion and the other services write, and after other details
(the encoder keeps no state between rows).

Round 11 (docs/RESULTS.md section 7): the detail through json's C encoder built once (store/base.sorted_json) and
the id lists written directly (json_ids): Store.audit encodes three JSON texts for every merge (20 a frame), and
json.dumps built its encoder anew each call. Compared with json.dumps on random details and id lists, the odd values
included (NaN, infinities, -0.0, unicode, nested lists and dicts, bools, ints of any size), and the errors json
raises."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from tempomem_ros.core.store import base
from tempomem_ros.core.store.base import json_ids, sorted_json

_DETAILS = ({}, {"score": 0.912345, "reason": "score"}, {"score": None, "reason": "identity"},
            {"reason": "created"}, {"b": 1, "a": [3, 2, 1], "c": {"z": 1.0, "y": -0.0}},
            {"score": math.nan}, {"score": math.inf, "label": "tasse \u00e0 caf\u00e9"}, {"ids": [5, 4], "n": True},
            {"from": "mug", "to": "cup", "mass": 1e-17})


def test_kept_encoder_writes_what_json_dumps_writes():
    for _ in range(2):
        for detail in _DETAILS:
            assert base._SORTED_JSON.encode(detail) == json.dumps(detail, sort_keys=True)
            assert sorted_json(detail) == json.dumps(detail, sort_keys=True)


def test_audit_row_detail_is_sorted_json():
    class _Store:
        _audit_rows: list = []

        @staticmethod
        def _clock():
            return 12.5

    store = _Store()
    base.Store.audit(store, 3.0, "merge", [7, 5, 7], [11], {"score": 0.5, "reason": "score"}, "robot_a")
    base.Store.audit(store, 4.0, "create", [9], [12], None, "robot_b")
    assert store._audit_rows == [
        (3.0, 12.5, "merge", "[5, 7]", "[11]", '{"reason": "score", "score": 0.5}', "robot_a"),
        (4.0, 12.5, "create", "[9]", "[12]", "{}", "robot_b")]

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
