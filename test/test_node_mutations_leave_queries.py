"""The memory node answers queries while its mutations wait for the writer (issue 15).

Why: on a fleet's store a forget or define_region first fuses every robot's staged frames, which behind a backlog
holds the writer for seconds; with mutations in a reentrant group, waiting mutations took every executor thread and
the queries, which read through their own connection and need no lock, went unanswered (bench_fleet_services: 30 s
and more). Here each forget blocks until released (the stand-in for that wait), more of them are asked than the
node has threads, and a query must still be answered; after the release every forget is answered, in turn."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("rclpy")

from node_helpers import Harness, wait_for  # noqa: E402

from tempomem_ros import srv  # noqa: E402
from tempomem_ros.nodes.memory_node import EXECUTOR_THREADS  # noqa: E402


def test_waiting_mutations_leave_a_thread_for_the_queries(tmp_path):
    h = Harness(str(tmp_path / "m.db"))
    release, started, lock = threading.Event(), [], threading.Lock()
    original = h.node.writer.get

    def blocked_get(object_id):
        with lock:
            started.append(object_id)
        release.wait(30.0)
        return original(object_id)

    h.node.writer.get = blocked_get
    try:
        client = h.tester.create_client(srv.Forget, "/tempomem/forget")
        assert client.wait_for_service(timeout_sec=10.0)
        futures = [client.call_async(srv.Forget.Request(object_id=k, reason="test"))
                   for k in range(1, EXECUTOR_THREADS + 2)]
        assert wait_for(lambda: len(started) >= 1)
        answer = h.call("query", srv.Query, question="what is on the table?")
        assert answer.understood
        assert started == [1]  # one mutation at a time holds a thread; the others wait in their group
        assert not any(f.done() for f in futures)
        release.set()
        assert wait_for(lambda: all(f.done() for f in futures))
        assert started == list(range(1, EXECUTOR_THREADS + 2))
        assert [f.result().success for f in futures] == [False] * (EXECUTOR_THREADS + 1)  # unknown ids: refused
    finally:
        release.set()
        h.close()
