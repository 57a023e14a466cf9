"""The twenty-second round's mechanisms (issue 13, stop 42), each with what it must read and what must stay as it was.

heldout23 (measured once after the twenty-first round, a development set from here) answered two questions wrongly,
the rules and the similarity reader alike: an unknown two-word name read as its first word ("chess set" as a
"chess"), and a count of the things kept on record read as a count of sightings. None of the sentences below is a
line of a question set.
"""

from __future__ import annotations

import pytest
from answering_helpers import reading

from tempomem_ros.core.answering import Names

NAMES = Names(["mug", "keys", "table", "coffee table", "desk", "lamp", "phone", "wallet", "book", "laptop", "plant",
               "water bottle"],
              ["kitchen", "hall", "bedroom"])


def read(question: str) -> tuple:
    return reading(question, NAMES)


# --------------------------------------------------------------------------- an unknown name keeps its head
@pytest.mark.parametrize("question, operator, label", [
    ("tea set: when did the robot last catch it?", "last_seen", "tea set"),  # read as a "tea" before
    ("when did your cameras last catch the train set", "last_seen", "train set"),
    ("how often did your cameras catch the drum set?", "count_sightings", "drum set"),
    ("when did you last clock the alarm clock?", "last_seen", "alarm clock"),  # "clock" a word of seeing
    ("when did your cameras last catch the music stand", "last_seen", "music stand"),
])
def test_an_unknown_two_word_name_is_unknown_whole(question, operator, label):
    assert read(question) == (operator, {"label": label}, "label")


@pytest.mark.parametrize("question, operator, label", [
    ("coffee table: when did the robot last catch it?", "last_seen", "coffee table"),  # a known two-word name
    ("when did your cameras last catch the water bottle", "last_seen", "water bottle"),
    ("when did your cameras last catch the sketchpad", "last_seen", "sketchpad"),  # an unknown one-word name
])
def test_a_known_name_and_a_one_word_unknown_read_as_before(question, operator, label):
    op, args, unknown = read(question)
    assert (op, args) == (operator, {"label": label})
    assert unknown == ("label" if label == "sketchpad" else "")


def test_a_head_word_after_a_known_name_stays_the_clause_s():
    # "stand" / "set" after a known thing is its verb: never an unknown "lamp stand" (the known thing is asked)
    assert read("where does the lamp stand?") == ("current", {"label": "lamp"}, "")


# --------------------------------------------------------------------------- a count of things on record
@pytest.mark.parametrize("question, label", [
    ("Number of laptops you have registered?", "laptop"),  # a count of sightings before
    ("number of mugs you've got logged", "mug"),
    ("total of the plants logged in your system?", "plant"),
])
def test_a_count_of_things_kept_on_record_is_the_inventory(question, label):
    assert read(question) == ("count_objects", {"label": label}, "")


@pytest.mark.parametrize("question, label", [
    ("how many times was the laptop registered?", "laptop"),  # times: a count of sightings
    ("how often has the plant been logged?", "plant"),
    ("number of sightings of the mug logged?", "mug"),
])
def test_a_count_of_events_stays_a_count_of_sightings(question, label):
    op, args, unknown = read(question)
    assert (op, args, unknown) == ("count_sightings", {"label": label}, "")
