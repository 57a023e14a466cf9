"""An audit row's detail is written by one kept encoder (store/base._SORTED_JSON): the text json.dumps(detail,
sort_keys=True) gives, for every kind of detail fusion and the other services write, and after other details
(the encoder keeps no state between rows)."""

from __future__ import annotations

import json
import math

from tempomem_ros.core.store import base

_DETAILS = ({}, {"score": 0.912345, "reason": "score"}, {"score": None, "reason": "identity"},
            {"reason": "created"}, {"b": 1, "a": [3, 2, 1], "c": {"z": 1.0, "y": -0.0}},
            {"score": math.nan}, {"score": math.inf, "label": "tasse \u00e0 caf\u00e9"}, {"ids": [5, 4], "n": True},
            {"from": "mug", "to": "cup", "mass": 1e-17})


def test_kept_encoder_writes_what_json_dumps_writes():
    for _ in range(2):
        for detail in _DETAILS:
            assert base._SORTED_JSON.encode(detail) == json.dumps(detail, sort_keys=True)


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
