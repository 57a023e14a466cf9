"""Review of the seventeenth round (rv-r17): what the round's new readers answered wrong or too slowly.

None of the sentences below is a line of a question set.
"""

from __future__ import annotations

import time

from answering_helpers import refusal, understood

from tempomem_ros.core.answering import Names

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "phone", "plant", "box", "chair", "wallet", "sofa",
               "umbrella", "kettle"], ["kitchen", "hall", "bedroom"])


def test_a_nix_set_that_never_closes_is_refused_at_once():
    # '[^;...]+\s*' parted a binding's trailing spaces two ways: each binding doubled the time (24 of them: ~10 s)
    text = "{ " + "a = b; " * 24 + "c = d"
    start = time.perf_counter()
    refusal(text, NAMES)
    assert time.perf_counter() - start < 1.0


def test_a_nix_set_still_reads():
    got = understood('{ tool = "last_seen" ;  label =  mug ; }', NAMES)
    assert (got.operator, got.args) == ("last_seen", {"label": "mug"})
