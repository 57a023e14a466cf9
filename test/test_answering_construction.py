"""Wrong routes made impossible by construction (issue 13, fourth round), each rule with what it must and must
not do.

The third held-out set's one wrong route ("Report all object movements during the past hour." -> the history of an
unknown "report all object") and every wrong route of the second set came from one shape: a slot that accepted
plain words which were a piece of the question, and the first form in table order winning. The rules: an unknown
thing must be a noun phrase (slots.is_noun_phrase); the words a known label leaves over may not be verbs,
quantifiers, pronouns, adverbs in -ly or words that place a thing in time; an operator fires only with every
required argument; two readings of one question are refused, naming both.
"""

from __future__ import annotations

import importlib

import pytest
from answering_helpers import NOW, TODAY, understood, refusal

from tempomem_ros.core.answering import Names, Refusal, Understanding
from tempomem_ros.core.answering.operators import BY_NAME, Form, OperatorSpec
from tempomem_ros.core.answering.slots import is_noun_phrase, resolve

understand_mod = importlib.import_module("tempomem_ros.core.answering.understand")

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "remote", "backpack", "phone"], ["kitchen"])


def u(question: str) -> Understanding:
    return understood(question, NAMES)


def refused(question: str) -> Refusal:
    return refusal(question, NAMES)


# ------------------------------------------------------------------------------ an unknown thing is a noun phrase
@pytest.mark.parametrize("ws", [("pill", "box"), ("walking", "stick"), ("trolley",), ("tape", "measure"),
                                ("grandma", "pill", "box")])
def test_noun_phrases_name_unknown_things(ws):
    assert is_noun_phrase(ws)


@pytest.mark.parametrize("ws", [("report", "all", "object"), ("list", "box"), ("box", "currently"), ("every", "box"),
                                ("it",), ("find", "drill"), ("you", "drill"), ()])
def test_pieces_of_a_question_are_not_noun_phrases(ws):
    assert not is_noun_phrase(ws)


def test_unknown_slot_with_a_verb_resolves_to_nothing():
    assert resolve("report all object", NAMES) is None
    assert resolve("the crate", NAMES).label == "crate" and not resolve("the crate", NAMES).known


def test_the_third_sets_wrong_route_is_now_the_change_log():
    got = u("Report all object movements during the past hour.")
    assert (got.operator, got.args["kinds"], got.unknown) == ("changes", ["moved"], "")
    assert abs(got.args["since"] - (NOW - 3600)) < 1 and "label" not in got.args


@pytest.mark.parametrize("q", ["report all object history", "list every box location", "where is it currently"])
def test_a_question_piece_in_a_thing_slot_is_refused(q):
    assert "don't know" not in refused(q).reason


# ---------------------------------------------------------------------- words a known label leaves over
def test_an_adverb_beside_a_known_label_is_not_ignored():
    """'initially' made 'the remote initially' a slot of the last-seen form: a second, wrong reading."""
    got = u("when was the remote initially observed")
    assert got.operator == "first_seen" and got.ignored == ()
    assert resolve("the remote initially", NAMES) is None


def test_a_time_word_beside_a_known_label_is_not_ignored():
    assert u("backpack previous position").operator == "previous"
    assert resolve("backpack previous", NAMES) is None
    assert resolve("backpack current", NAMES) is None
    assert resolve("my old phone", NAMES).ignored == ("old",)  # an ordinary modifier is still shown as ignored


# ------------------------------------------------------------------------------- required arguments, rivals
def test_an_operator_fires_only_with_its_required_arguments():
    assert not understand_mod._complete(BY_NAME["spatial"], {"radius": 1.0})
    assert understand_mod._complete(BY_NAME["spatial"], {"radius": 1.0, "anchor": "mug"})
    assert understand_mod._complete(BY_NAME["spatial"], {"radius": 1.0, "center": [0.0, 0.0, 0.0]})
    assert not understand_mod._complete(BY_NAME["current"], {"label": ""})
    assert understand_mod._complete(BY_NAME["missing"], {})


@pytest.fixture
def rival_table(monkeypatch):
    """Two operators whose forms both take 'where is X': the table's order must not decide between them."""
    spare = OperatorSpec("previous", "test", BY_NAME["previous"].params, (Form(r"where {be} {x}"),), (), "prev {label}")
    monkeypatch.setattr(understand_mod, "TABLE", (*understand_mod.TABLE[:-1], spare, understand_mod.TABLE[-1]))
    understand_mod._compiled.cache_clear()
    yield
    understand_mod._compiled.cache_clear()


def test_two_readings_are_refused_naming_both(rival_table):
    out = refused("where is the mug")
    assert out.reason.startswith("the question reads as more than one question")
    assert "(current place of mug; previous place of mug)" in out.reason


def test_without_rivals_the_same_question_is_answered():
    understand_mod._compiled.cache_clear()
    assert u("where is the mug").operator == "current"


def test_the_semantic_fallback_is_no_rival():
    """'find my keys' also reads as a search for 'my keys'; the search is taken only when nothing else reads."""
    got = u("find my keys")
    assert (got.operator, got.args) == ("current", {"label": "keys"})
    assert u("find something to drink from").operator == "semantic"


def test_gone_missing_without_a_span_is_what_is_missing_now():
    assert u("what has gone missing").operator == "missing"
    assert u("what went missing").operator == "missing"
    got = u("what has gone missing today")
    assert (got.operator, got.args["kinds"], got.args["since"]) == ("changes", ["removed"], TODAY)
