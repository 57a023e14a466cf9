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


def test_a_platform_field_that_names_a_write_is_not_dropped():
    # each was answered as the read alone (last_seen of the mug) while the task or event named a delete
    for text in ['{"Type": "Task", "Resource": "arn:aws:states:::dynamodb:deleteItem", '
                 '"Parameters": {"name": "last_seen", "label": "mug"}}',
                 '{"Type": "Task", "Resource": "arn:aws:states:::lambda:invoke", "Next": "ForgetTheMug", '
                 '"Parameters": {"FunctionName": "tempomem-last-seen", "Payload": {"label": "mug"}}}',
                 '{"Comment": "then delete the mug", "Type": "Task", "Resource": "arn:aws:states:::lambda:invoke", '
                 '"Parameters": {"FunctionName": "tempomem-last-seen", "Payload": {"label": "mug"}}}',
                 '{"specversion": "1.0", "type": "last_seen", "subject": "forget mug", "data": {"label": "mug"}}',
                 '{"specversion": "1.0", "type": "last_seen", "source": "/jobs/purge", "data": {"label": "mug"}}']:
        refusal(text, NAMES)


def test_platform_fields_that_only_route_are_still_dropped():
    for text in ['{"Type": "Task", "Resource": "arn:aws:states:::lambda:invoke", "Next": "Report", '
                 '"Parameters": {"FunctionName": "tempomem-last-seen", "Payload": {"label": "mug"}}}',
                 '{"specversion": "1.0", "type": "com.tempomem.query.last_seen", "source": "/agents/planner", '
                 '"subject": "mug", "id": "a1b2-add0", "data": {"label": "mug"}}']:
        got = understood(text, NAMES)
        assert (got.operator, got.args) == ("last_seen", {"label": "mug"})


def test_a_time_typed_with_a_space_after_its_point_is_not_cut_to_its_hour():
    # "9. 30": the round's clause split parted "30" off and the place at 9:00 was answered
    assert refusal("where was the mug at 9. 30", NAMES)
    assert refusal("where was the kettle at 7; 45", NAMES)


def test_a_batch_whose_write_is_run_by_sudo_a_script_or_in_the_background_is_refused():
    # each was answered as when the mug was last seen
    for text in ["last seen --label mug; sudo forget --label mug", "last seen --label mug; ./forget.sh mug",
                 "last seen --label mug & forget --label mug", "where is the mug; please pick it up"]:
        refusal(text, NAMES)


def test_an_ampersand_between_things_is_no_batch():
    from tempomem_ros.core.answering.commands import acting_command
    assert acting_command("where is the mug & the kettle") is None
    assert acting_command("where did the pen & paper go") is None
