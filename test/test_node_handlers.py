"""The service handlers on a writer + reader pair, without DDS (nodes/services.py)."""

from __future__ import annotations

import os

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "115")

import pytest  # noqa: E402
from node_helpers import story_frames  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from geometry_msgs.msg import Point  # noqa: E402

from tempomem_ros import srv  # noqa: E402
from tempomem_ros.nodes import conversions as conv  # noqa: E402


# ------------------------------------------------------------------------------------- handlers without DDS
@pytest.fixture
def core_pair(tmp_path):
    """Writer + read-only reader on a store fed the story through the message conversions."""
    from tempomem_ros.core import Memory

    path = str(tmp_path / "m.db")
    writer = Memory.open(path, embedding_dim=32)
    reader = Memory.open(path, embedding_dim=32, readonly=True)
    for group in story_frames():
        for msg in group:
            observations, view, stamp = conv.observation_array(msg)
            writer.add(observations, view, stamp=stamp)
            writer.commit()
    yield reader, writer
    reader.close()
    writer.close()


def test_query_now_comes_from_time_source(core_pair):
    from tempomem_ros.nodes.services import ServiceHandlers

    reader, writer = core_pair
    question = srv.Query.Request(question="what changed in the last 7 seconds")
    by_stamp = ServiceHandlers(reader, writer).query(question, srv.Query.Response())
    by_clock = ServiceHandlers(reader, writer, now=lambda: 26.0).query(question, srv.Query.Response())
    assert [e.kind for e in by_stamp.events] == ["moved"]  # latest stamp 30: since 23
    assert [e.kind for e in by_clock.events] == ["removed"]  # clock 26: since 19, until 26


def test_reader_sees_what_the_writer_commits(core_pair):
    reader, writer = core_pair
    # the third: the mug's sightings at B, first a tentative object of their own, joined into the mug
    assert [(o.id, o.label, o.state) for o in reader.objects()] == [(1, "mug", "present"), (2, "table", "present"),
                                                                    (3, "mug", "forgotten")]
    writer.define_region("hall", (-1, -1, -1), (1, 3, 2))
    assert [r.label for r in reader.regions()] == ["hall"]


def test_any_exception_becomes_an_error_response():
    from tempomem_ros.nodes.services import ServiceHandlers

    class Broken:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise RuntimeError("boom")

            return fail

    h = ServiceHandlers(Broken(), Broken())
    assert (
        h.query(srv.Query.Request(question="where is the mug"), srv.Query.Response()).error
        == "internal error: RuntimeError: boom"
    )
    forget = h.forget(srv.Forget.Request(object_id=3), srv.Forget.Response())
    assert (forget.success, forget.message) == (False, "internal error: RuntimeError: boom")
    spatial = h.spatial_query(
        srv.SpatialQuery.Request(center=Point(), radius=1.0), srv.SpatialQuery.Response()
    )
    assert spatial.error.startswith("internal error")


@pytest.mark.parametrize("field, value, message", [
    ("placements_k", -1, "placements_k must be in 1..1000 (0 = default 20), got -1"),
    ("placements_k", 1001, "placements_k must be in 1..1000 (0 = default 20), got 1001"),
    ("k", -2, "k must be in 1..1000 (0 = default 20), got -2"),
])
def test_a_refused_history_request_answers_the_error_and_nothing_else(core_pair, field, value, message):
    """History fills found, the object and the sightings before it reads placements_k: a refused placements_k
    answered them beside the error (the review of stop 35). A refusal is the error alone, as an empty response."""
    from tempomem_ros.nodes.services import ServiceHandlers

    reader, writer = core_pair
    request = srv.History.Request(object_id=1, **{field: value})
    got = ServiceHandlers(reader, writer).history(request, srv.History.Response())
    assert got == srv.History.Response(error=message)
    assert (got.found, got.object.id, list(got.observations), list(got.placements)) == (False, 0, [], [])
    assert (got.total_observations, got.total_placements) == (0, 0)
    ok = ServiceHandlers(reader, writer).history(srv.History.Request(object_id=1), srv.History.Response())
    assert (ok.error, ok.found, ok.object.id, ok.total_placements) == ("", True, 1, 2)
