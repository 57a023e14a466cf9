"""Issue 13, forty-first round (stop 57, w38: heldout38 read as a development set after its one measurement at 104ded3,
rules 115 right / 81 refused / 4 wrong, the similarity reader 116 / 78 / 6), its wrong routes mended by class, on
sentences of our own.

- **a mistyped word that picks the operator is read, never dropped** (L060 "when was the wallet frst seen" answered as
  its last sighting, L080 "... at all tday" as its place now, L101 "charger in its usul place?" as whether it is in a
  "usul place", L031 "howmany times has the bowl been moevd" read by similarity as how long it stayed):
  understand._time_slips reads, besides the words of time, "first", "usual", "usually", "moved" and "times" one slip
  away, a typed word of four letters only as a letter left out of a longer word, a word with a mark or a capital
  inside (code) only as a word of time, and two question words run together ("howmany") as the two;
- **"did you spot the X" asks whether X was seen** (L080): "spot" is a place in "which spot", a verb of seeing after
  "you" (slotfirst.CUES "you spot");
- **"where it's meant / supposed to be" is no talk** (L099 "Nyckelharpa player: is the book where it's meant to be?"
  read by the slot reading as the book's place now, "meant" left out): "meant" and "supposed" join the slot reading's
  BLOCKERS, so the question after who speaks is read, is_present;
- **"is it missing?" asks of one thing** (L091 "my locket for the regimental dinner - is it missing?" read by
  similarity as what is missing): a match of the similarity reader with no thing, anchor or point for a question that
  asks yes / no of "it" or "they" is left refused (similar._ASKS_OF_IT).
`python bench/question_eval.py --set heldout38`, 104ded3 -> w38: rules 115 / 81 / 4 -> 121 / 79 / 0 (L031, L060, L080,
L088 "did the phone get muved yesterdy", L099, L101 right); `--set all`: heldout31 130 -> 131 (E037 "how many separate
times did you spot the book?"), every other verdict identical, 0 wrong. The text the similarity reader is given is
identical on every set of "all" but for heldout31's E037 (now read by the rules) and heldout37's K101 ("ushal" now
read as "usual" before it); the new refusal of a reading of everything drops no match the reader takes on "all".
Left as they were (refused or read as before, not mended here): a slip of four letters that is no letter left out
("when was the mug frts seen" is still read as its last sighting, 'frts' ignored), a word of three ("lst").
None of the sentences below is a line of a question set; each reading is exact, each refusal has its reason.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, refusal, understood

from tempomem_ros.core.answering import Names, similar

NAMES = Names(["mug", "keys", "lamp", "sofa", "table", "shelf", "chair", "plant", "remote", "phone", "wallet",
               "laptop", "glasses", "umbrella", "book", "charger", "headphones", "pen"],
              ["kitchen", "living room", "hall", "bedroom"])
H = 3600.0
DAY = 24 * H


# ------------------------------------------------------------------ a mistyped word that picks the operator
@pytest.mark.parametrize("question, operator, args, said", [
    ("when was the umbrella frst seen?", "first_seen", {"label": "umbrella"}, "(reading 'frst' as 'first')"),
    ("howmany times has the chair been moevd", "count_moves", {"label": "chair"},
     "(reading 'howmany' as 'how many', 'moevd' as 'moved')"),
    ("did you spot the pen at all tday", "was_seen", {"label": "pen", "since": TODAY, "until": NOW},
     "(reading 'tday' as 'today')"),
    ("is the lamp in its usul place?", "is_present", {"label": "lamp"}, "(reading 'usul' as 'usual')"),
])
def test_a_mistyped_word_that_picks_the_operator_is_read(question, operator, args, said):
    u = understood(question, NAMES)
    assert (u.operator, u.args) == (operator, args)
    assert u.words.endswith(said)


def test_did_you_spot_asks_whether_it_was_seen():
    u = understood("did you spot the remote yesterday, the batteries are in it", NAMES)
    assert (u.operator, u.args) == ("was_seen", {"label": "remote", "since": TODAY - DAY, "until": TODAY})


def test_where_it_is_meant_to_be_asks_whether_it_is_in_its_place():
    u = understood("Tuba player: is the lamp where it is meant to be?", NAMES)
    assert (u.operator, u.args) == ("is_present", {"label": "lamp"})
    assert u.words.endswith("(ignoring 'tuba player', who is asking)")


@pytest.mark.parametrize("question", [  # must stay refused
    # code: a word with a capital inside is read only as a word of time ("MoveL" is no "moved")
    "did the chair get MoveL",
    # "spot" after "you" is a verb of seeing, and no form asks where a thing was seen
    "where did you spot the mug",
])
def test_what_stays_refused(question):
    refusal(question, NAMES)


# ------------------------------------------------------------------ "is it ...?" is never a question of everything
class _Match:
    def __init__(self, operator, args):
        self.operator, self.args, self.ignored = operator, args, ()
        self.sentence, self.similarity = "what is missing", 0.9


def _reader(operator, args):
    reader = object.__new__(similar.SimilarityReader)
    reader.match_clauses = lambda question, now, names: _Match(operator, args)
    reader._taken = lambda m: True
    return reader


def test_a_yes_no_question_of_it_is_never_read_as_one_of_everything():
    assert _reader("missing", {}).read("my brooch for the gala - is it missing?", NOW, NAMES) is None
    assert _reader("missing", {}).read("my spare keys, are they missing?", NOW, NAMES) is None
    assert _reader("missing", {}).read("what is missing?", NOW, NAMES)[:2] == ("missing", {})
    assert _reader("is_missing", {"label": "mug"}).read("the mug - is it missing?", NOW, NAMES)[:2] == (
        "is_missing", {"label": "mug"})
