"""Plurals and emphasis fillers in questions (issue 13, second round).

The first held-out half of bench/questions/questions.txt found one wrong route and one refusal: "how many
unicorns are there" was answered about 'unicorns' (an unknown thing must be reported in the singular) and
"has the table moved at all" was refused ("at all" fell into the slot). The same classes, looked for in the
rules: irregular plurals of labels the vocabulary holds ("knives" never met "knife", "shelves" never met
"shelf", "mice" never met "mouse"), -es / -ies plurals of unknown things, and other polarity or hedging words
("ever", "at any point", "possibly"). Known limits, kept on purpose: a plural ending in -is or -us ("taxis",
"menus") is reported as it is, and "-ies" always reads as "-y" unless the word is listed ("cookies").
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, understood
from core_helpers import box_obs

from tempomem_ros.core import Memory
from tempomem_ros.core.answering import Names, Refusal, Understanding, understand
from tempomem_ros.core.answering.normalise import normalise
from tempomem_ros.core.answering.plurals import singular, singular_phrase, stem
from tempomem_ros.core.answering.slots import resolve

NAMES = Names(["mug", "keys", "table", "desk", "knife", "shelf", "bookshelf", "mouse", "glasses", "box", "bench",
               "battery", "scissors", "chopsticks", "tape"], ["kitchen"])


def u(question: str) -> Understanding:
    return understood(question, NAMES)


# ---------------------------------------------------------------------------------------------- plurals.py
@pytest.mark.parametrize("word, want", [
    ("unicorns", "unicorn"), ("giraffes", "giraffe"), ("boxes", "box"), ("dishes", "dish"), ("benches", "bench"),
    ("batteries", "battery"), ("quizzes", "quiz"), ("sizes", "size"), ("knives", "knife"), ("shelves", "shelf"),
    ("bookshelves", "bookshelf"), ("penknives", "penknife"), ("mice", "mouse"), ("people", "person"),
    ("children", "child"), ("tomatoes", "tomato"), ("shoes", "shoe"), ("stoves", "stove"), ("buses", "bus"),
    ("cookies", "cookie"), ("headaches", "headache"), ("keys", "key"),
    # not plurals, or plural in form but one thing: unchanged
    ("sunglasses", "sunglasses"), ("glasses", "glasses"), ("scissors", "scissors"), ("headphones", "headphones"),
    ("glass", "glass"), ("cactus", "cactus"), ("iris", "iris"), ("lens", "lens"), ("news", "news"), ("mug", "mug"),
    ("bus", "bus"), ("as", "as"),
])
def test_singular(word, want):
    assert singular(word) == want


def test_singular_phrase_changes_only_the_head():
    assert singular_phrase(("car", "keys")) == ("car", "key")
    assert singular_phrase(("glasses", "cases")) == ("glasses", "case")
    assert singular_phrase(()) == ()


@pytest.mark.parametrize("a, b", [("knives", "knife"), ("shelves", "shelf"), ("mice", "mouse"), ("keys", "key"),
                                  ("glasses", "glass"), ("scissors", "scissor"), ("cookies", "cookie"),
                                  ("batteries", "battery"), ("sizes", "size"), ("buses", "bus")])
def test_singular_and_plural_meet_on_one_stem(a, b):
    assert stem(a) == stem(b)


@pytest.mark.parametrize("a, b", [("tape", "tap"), ("clothes", "cloth"), ("plane", "plan"), ("pan", "pane"),
                                  ("glass", "grass"), ("bus", "bu")])
def test_different_words_keep_different_stems(a, b):
    assert stem(a) != stem(b)


@pytest.mark.parametrize("slot, label", [
    ("the knives", "knife"), ("the shelves", "shelf"), ("the bookshelves", "bookshelf"), ("the mice", "mouse"),
    ("the boxes", "box"), ("the benches", "bench"), ("the batteries", "battery"), ("my key", "keys"),
    ("the chopstick", "chopsticks"), ("the tape", "tape"),
])
def test_plural_and_irregular_slots_find_the_known_label(slot, label):
    thing = resolve(slot, NAMES, regions=True)
    assert (thing.label, thing.known, thing.ignored) == (label, True, ())


@pytest.mark.parametrize("slot, label", [
    ("the unicorns", "unicorn"), ("my sunglasses", "sunglasses"), ("the dishes", "dish"), ("the toasters", "toaster"),
    ("the car alarms", "car alarm"), ("the geese", "goose"), ("a hammer", "hammer"),
])
def test_unknown_things_are_named_in_the_singular(slot, label):
    thing = resolve(slot, NAMES, regions=True)
    assert (thing.label, thing.known) == (label, False)


# ---------------------------------------------------------------------------------------- through the router
@pytest.mark.parametrize("question, operator, args, unknown", [
    ("how many unicorns are there", "count_objects", {"label": "unicorn"}, "label"),
    ("how many knives do we have", "count_objects", {"label": "knife"}, ""),
    ("how many shelves are there", "count_objects", {"label": "shelf"}, ""),
    ("count the mice", "count_objects", {"label": "mouse"}, ""),
    ("where are my sunglasses", "current", {"label": "sunglasses"}, "label"),
    # eleventh round: a head in "-os" is the plural of one in "-o" or a singular ("thermos"): made singular only when
    # the question says it is plural (plurals.uncertain, said_plural), kept as typed otherwise
    ("what is on the pianos", "relational", {"relation": "on", "anchor": "pianos"}, "anchor"),
    ("what is on these pianos", "relational", {"relation": "on", "anchor": "piano"}, "anchor"),
    ("is the mug on the benches", "is_related", {"label": "mug", "relation": "on", "anchor": "bench"}, ""),
])
def test_plurals_route_with_the_singular(question, operator, args, unknown):
    got = u(question)
    assert (got.operator, got.args, got.unknown, got.ignored) == (operator, args, unknown, ())


@pytest.mark.parametrize("question, args", [
    ("has the table moved at all", {"label": "table"}),
    ("did the desk ever move", {"label": "desk"}),
    ("has the table been moved at all", {"label": "table"}),
    ("did the desk move at all today", {"label": "desk", "since": TODAY, "until": NOW}),
    ("has the mug by any chance moved in the last hour", {"label": "mug", "since": NOW - 3600, "until": NOW}),
    ("has the mug already moved today", {"label": "mug", "since": TODAY, "until": NOW}),
])
def test_emphasis_fillers_of_move_checks(question, args):
    got = u(question)
    assert (got.operator, got.args, got.ignored) == ("did_move", args, ())
    assert "all" not in got.words and "ever" not in got.words


@pytest.mark.parametrize("question, operator, args", [
    ("did you see my keys at any point today", "was_seen", {"label": "keys", "since": TODAY, "until": NOW}),
    ("did anything change at all in the last 10 minutes", "changes", {"since": NOW - 600, "until": NOW}),
    ("where could my keys possibly be", "where_to_look", {"label": "keys"}),
    ("is the mug really on the table", "is_related", {"label": "mug", "relation": "on", "anchor": "table"}),
    ("what has changed ever since 9", "changes", {"since": TODAY + 9 * 3600, "until": NOW}),
])
def test_emphasis_fillers_elsewhere(question, operator, args):
    got = u(question)
    assert (got.operator, got.args, got.ignored) == (operator, args, ())


@pytest.mark.parametrize("raw, clean", [
    ("what changed yesterday evening", "what changed yesterday evening"),  # "even" is a word, not a part of one
    ("whatever", "whatever"), ("where is the mug however", "where is the mug however"),
    ("has the lamp moved at all", "has the lamp moved"), ("did the desk ever move", "did the desk move"),
])
def test_fillers_are_whole_words(raw, clean):
    assert normalise(raw) == clean


def test_a_filler_does_not_make_a_refused_question_answerable():
    for q in ("who moved the chair at all", "will the mug ever move", "at all", "ever"):
        assert isinstance(understand(q, NOW, NAMES), Refusal), q


# -------------------------------------------------------------------------------------------- through Memory
def test_memory_answers_a_plural_unknown_in_the_singular(tmp_path):
    with Memory.open(str(tmp_path / "m.db"), embedding_dim=4, clock=lambda: 0.0,
                     config={"identity": {"confirm_observations": 1, "appear_hold_s": 0.0}}) as m:
        m.add([box_obs("knife", (1.0, 0.0, 0.8), stamp=10.0)], stamp=10.0)
        m.commit()
        unicorns = m.ask("how many unicorns are there", now=20.0)
        assert (unicorns.understood, unicorns.found, unicorns.text) == (True, False, "I don't know any unicorn.")
        assert unicorns.arguments["label"] == "unicorn" and "unicorns" not in unicorns.text
        knives = m.ask("how many knives are there", now=20.0)
        assert (knives.understood, knives.count, knives.arguments["label"]) == (True, 1, "knife")
        assert "don't know" not in knives.text
