"""The question set of issue 13 (bench/questions/questions.txt) as a regression guard: the halves follow the
split rule, the development half stays fully right, and the held-out half does not fall below what it scored
when it was measured once (187 right, 1 refused, 1 wrong; docs/RESULTS.md)."""

from __future__ import annotations

import importlib.util
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("question_eval", os.path.join(HERE, "..", "bench", "question_eval.py"))
qe = importlib.util.module_from_spec(spec)
sys.modules["question_eval"] = qe  # its dataclasses look their module up there
spec.loader.exec_module(qe)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    rows = qe.load()
    qe.check_split(rows)
    m = qe.build_memory(str(tmp_path_factory.mktemp("qs") / "q.db"))
    try:
        yield {half: qe.summary(qe.evaluate([r for r in rows if r.half == half], m)) for half in qe.HALVES}
    finally:
        m.close()


def test_development_half_is_all_right(results):
    assert (results["dev"]["n"], results["dev"]["right"], results["dev"]["wrong"]) == (198, 198, 0)


def test_held_out_half_does_not_regress(results):
    held = results["held_out"]
    assert held["n"] == 189 and held["right"] >= 187 and held["wrong"] <= 1
