"""Issue 13, thirty-seventh round (stop 55, i13-w36: heldout36's two wrong answers, measured once at main 0862ecc),
mended as classes on sentences of our own.

- a count asked for as a thing to give or show ("give me a count of the umbrellas in the house", "get me a tally of
  the mugs", "show me the number of chairs"): with a word the count form does not take (heldout36's J045, "A
  mosaicist: give me a count of the umbrellas in the house.", the role read as "... of a mosaicist") the request form
  of semantic search took it as a description, and both readers searched for things that look like "a count of the
  umbrellas in the house of a mosaicist". A description that opens with a count of things is no description
  (understand._A_COUNT): the slot reading counts them, or the question is refused. Descriptions that only hold a count
  word ("something to count coins with", "something to keep a tally on", "a pen to jot down a number") stay searches.
- a question asking WHO did something (who moved / took / left / broke X, "tell me who", "which person", "by whom",
  "was it my son who ...") asks what the memory never records; any reading of it answers another question (J176, "Who
  shifted my glasses this morning? Tell me who it was.", was read by the similarity reader as whether the glasses
  moved; "has the mug moved today? who moved it?" by the rules). Refused whole by both readers (understand.ASKS_WHO).
  "did anyone move my glasses" (whether it moved) and the speaker's own "who" ("A monk who counts everything: ...",
  "need to know who to ask") read as before.
None of the sentences below is a line of a question set; each reading is exact, each refusal has its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, call, refusal, understood
from test_answering_similar import StubEncoder

from tempomem_ros.core.answering import Names, Refusal, Understanding, similar, understand
from tempomem_ros.core.answering.understand import ASKS_WHO_REFUSAL

NAMES = Names(["mug", "keys", "lamp", "sofa", "table", "shelf", "chair", "plant", "remote", "phone", "wallet",
               "laptop", "glasses", "umbrella", "book", "charger", "headphones", "pen"],
              ["kitchen", "living room", "hall", "bedroom"])
H = 3600.0


# ------------------------------------------------------------------ a count asked for as a thing to give
@pytest.mark.parametrize("question, label", [
    ("A mosaicist: give me a count of the umbrellas in the house.", "umbrella"),
    ("Baker here: give me a count of the mugs in the house.", "mug"),
    ("A tiler: give me a count of the chairs in the house, please", "chair"),
    ("A ferryman: get me a tally of the books in the house.", "book"),
    ("A glazier: give me a count of the blorps in the house.", "blorp"),   # an unknown thing: its count, said unknown
])
def test_a_count_with_a_word_the_count_form_does_not_take_is_counted_not_searched(question, label):
    assert call(question, NAMES) == ("count_objects", {"label": label})


@pytest.mark.parametrize("question, label", [  # must stay as now
    ("give me a count of the umbrellas", "umbrella"),
    ("give me a count of the umbrellas in the house.", "umbrella"),
    ("give me a tally of the mugs", "mug"),
    ("a count of the lamps please", "lamp"),
    ("A baker: give me the number of mugs in the house.", "mug"),
])
def test_counts_asked_for_in_the_usual_forms_stay_counted(question, label):
    assert call(question, NAMES) == ("count_objects", {"label": label})


@pytest.mark.parametrize("question", [  # a count word inside a description: still a search
    "I need something to count coins with",
    "give me something to keep a tally on",
    "find me a pen to jot down a number",
])
def test_a_description_that_holds_a_count_word_stays_a_search(question):
    assert understood(question, NAMES).operator == "semantic"


def test_other_counts_asked_for_as_a_thing_to_give_keep_their_operator():
    u = understood("give me a count of the times the mug moved", NAMES)
    assert (u.operator, u.args) == ("count_moves", {"label": "mug"})
    u = understood("give me a count of the sightings of the mug", NAMES)
    assert (u.operator, u.args) == ("count_sightings", {"label": "mug"})


# ------------------------------------------------------------------ who did something: refused
WHO = [
    "Who shifted my glasses this morning? Tell me who it was.",
    "Has the mug moved today? Who moved it?",
    "has my glasses moved this morning? tell me who it was",
    "the glasses were moved this morning, tell me who shifted them",
    "Who moved the glasses this morning? I want a name.",
    "Which of the kids took the remote? Tell me who did it.",
    "the mug: who moved it?",
    "the remote, who had it last?",
    "who took the keys from the table yesterday",
    "who left the umbrella in the hall?",
    "who broke the lamp",
    "which person moved the lamp today",
    "which family member took the charger",
    "which of us moved the mug yesterday",
    "by whom was the mug moved",
    "was it my son who moved the lamp?",
    "any idea who moved the plant?",
    "do you know who took my headphones",
    "I want to know who moved the lamp since ten",
    "Someone moved my glasses. Who was it?",
]


@pytest.mark.parametrize("question", WHO)
def test_a_question_asking_who_is_refused_by_the_rules(question):
    assert refusal(question, NAMES).reason


@pytest.mark.parametrize("question", [
    "Has the mug moved today? Who moved it?",               # the rules read the first question, dropping the second
    "has my glasses moved this morning? tell me who it was",
])
def test_a_reading_of_a_question_that_also_asks_who_says_why_it_is_refused(question):
    assert refusal(question, NAMES).reason == ASKS_WHO_REFUSAL


class EverythingMoved(StubEncoder):
    """The similarity reader's worst case: every question text is nearest to whether the thing moved (0.95)."""

    def encode(self, texts):
        out = super().encode(texts)
        for i, t in enumerate(texts):
            if t not in self.sentence_key:
                out[i, :] = 0.0
                out[i, self.axis[("did_move", ())]] = 1.0
        return out


@pytest.mark.parametrize("question", WHO)
def test_a_question_asking_who_is_refused_by_the_similarity_reader(question):
    got = understand(question, NOW, NAMES, similar.SimilarityReader(EverythingMoved()))
    assert isinstance(got, Refusal), (question, got)


def test_the_stub_reader_does_read_a_question_of_whether_it_moved():
    # the guard above is what refuses: the same reader reads a question the rules refuse that asks no "who"
    got = understand("the glasses, shifted at all this morning, or not", NOW, NAMES,
                     similar.SimilarityReader(EverythingMoved()))
    assert isinstance(got, Understanding) and got.operator == "did_move" and got.args["label"] == "glasses"


@pytest.mark.parametrize("question, op, args", [  # must stay as now
    ("did anyone move my glasses this morning?", "did_move", {"label": "glasses", "since": TODAY + 5 * H,
                                                               "until": TODAY + 12 * H}),
    ("has somebody moved the mug since ten?", "did_move", {"label": "mug", "since": TODAY + 10 * H, "until": NOW}),
    ("A monk who counts everything: how many times have you seen the book?", "count_sightings", {"label": "book"}),
    ("number of plants in the flat?? need to know who to ask to water them", "count_objects", {"label": "plant"}),
    ("where is the wholemeal bread", "current", {"label": "wholemeal bread"}),
])
def test_anyone_and_the_speakers_own_who_read_as_before(question, op, args):
    assert call(question, NAMES) == (op, args)
