"""bench/bench_fleet_services.py --quick runs end to end: the memory node on a fleet's PostgreSQL store (the node
fusing, then a fuser process beside it) and on SQLite, every service of nodes/services.py asked and answered.

Why in CI: it is the only figure of the services on PostgreSQL (issue 15), and a change to either bench it imports
from (bench_fleet.py, bench_services.py) or to a service's request would break it unseen. Timings are the machine's:
only what cannot depend on it is checked: every service is in the bench's list and in every run's table, asked the
same number of times (round and round), every call answered, no query refused, and every frame the node received
accounted for exactly once (staged, dropped only as overwritten, or still waiting).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("rclpy")

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "bench")
sys.path.insert(0, BENCH)

import bench_services  # noqa: E402

from tempomem_ros.nodes.services import MUTATING  # noqa: E402
from tempomem_ros.nodes.services import SERVICES as NODE_SERVICES  # noqa: E402

ROW = re.compile(r"^  (\S+(?: 2m)?)\s+(\d+)\s+(\d+\.\d)\s+(\d+\.\d)\s+(\d+\.\d)\s+(\d+)\s+(\d+)$")


def test_the_bench_asks_every_service_of_the_node():
    assert {name.split()[0] for name in bench_services.SERVICES} == {name for name, _, _ in NODE_SERVICES}


@pytest.mark.slow
def test_quick_fleet_services_answer_every_call(tmp_path):
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST", PYTHONUNBUFFERED="1")
    env.setdefault("ROS_DOMAIN_ID", "115")
    env.pop("TEMPOMEM_BENCH_OBJECTS", None)
    run = subprocess.run([sys.executable, os.path.join(BENCH, "bench_fleet_services.py"), "--quick",
                          "--fuser", "node", "process", "--store", str(tmp_path / "fleet.db")],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = run.stdout
    titles = [line for line in out.splitlines() if re.match(r"^(PostgreSQL|SQLite), ", line)]
    assert titles == [
        "PostgreSQL, 4 robots x 10 Hz x 20 observations, 200 objects (the node fuses)",
        "PostgreSQL, 4 robots x 10 Hz x 20 observations, 200 objects (the node stages, a fuser process fuses)",
        "SQLite, 1 robot x 10 Hz x 20 observations, 200 objects (the node fuses)",
    ]
    blocks = re.split(r"^(?:PostgreSQL|SQLite), .*$", out, flags=re.M)[1:]
    for title, block in zip(titles, blocks):
        rows = {m.group(1): (int(m.group(2)), int(m.group(6)), int(m.group(7)))
                for m in map(ROW.match, block.splitlines()) if m}
        assert list(rows) == list(bench_services.SERVICES), title
        calls = {n for n, _, _ in rows.values()}
        assert len(calls) == 1 and calls.pop() >= 1, (title, rows)  # every service asked as often as the others
        assert [unanswered for _, _, unanswered in rows.values()] == [0] * len(rows), (title, rows)
        # a query is never refused; a forget or define_region may be, when the fusion lock stays busy past its 5 s
        # (it fuses every robot's staged frames first): the load's, not the bench's
        assert [rows[name][1] for name in rows if name.split()[0] not in MUTATING] == [0] * 10, (title, rows)
        node = re.search(r"^  node: (.*)$", block, re.M).group(1)
        # frames the node's inbox replaced while its writer was busy are counted (dropped.overwritten; the load's, not
        # the bench's); nothing is dropped for any other reason, and every frame the node received is accounted for
        # exactly once: staged, dropped, or still waiting in its inbox or retry queue (a frame lost uncounted breaks
        # the equality; "staged + dropped <= streamed" could not see one)
        figure = {k: int(v) for k, v in re.findall(r"\b(received|staged_frames|dropped|dropped\.overwritten|"
                                                     r"ingest_waiting|retry_queue) (\d+)", node)}
        assert figure["dropped"] == figure.get("dropped.overwritten", 0), (title, node)
        assert figure["received"] == figure["staged_frames"] + figure["dropped"] + figure["ingest_waiting"] \
            + figure["retry_queue"], (title, node)
        streamed = int(re.search(r"frames streamed to the node: (\d+)", block).group(1))
        assert figure["received"] == streamed, (title, node, streamed)  # reliable, and the callback never waits
    assert "robots 1-3: " in blocks[0] and "robots 1-3: " in blocks[1] and "robots 1-" not in blocks[2]
    assert "fused-visible (robots 1-3, staged -> the fuser's COMMIT)" in blocks[1]
    assert "fused-visible" not in blocks[0] and "fused-visible" not in blocks[2]
    assert "store_pending_frames" in blocks[1] and "store_pending_frames" not in blocks[0]
