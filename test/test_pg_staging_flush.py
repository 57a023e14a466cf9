"""PostgreSQL: a staging's WAL flush is waited for outside the stagers' serial section (postgres/connection.py
begin_staging, STAGE_FLUSH; docs/FLEET.md, "Staging beside fusion").

Why a standby that never answers: it makes the flush wait last as long as the test wants, deterministically. With
``synchronous_standby_names`` naming a standby that does not exist, every synchronous commit waits (wait event
SyncRep) until the setting is reset; a commit with synchronous_commit off does not wait. A lock held through that
wait is a lock held through a staging's flush. What the tests hold: while one robot's staging waits for its flush,
the staging lock and the id counters' rows are free, a second robot's staging reaches its own flush wait (the two
flushes overlap), and neither add() has returned (acknowledged only once durable); then both return, with the ids
one after the other and nothing else written. Own cluster: the setting is the whole server's.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, view

from tempomem_ros.core import Memory
from tempomem_ros.core.postgres.connection import STAGE_LOCK_KEY

A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)


@pytest.fixture
def cluster():
    from tempomem_ros.tools.pg_sandbox import PgSandbox

    try:
        sandbox = PgSandbox.start(extra_conf={"synchronous_commit": "on"})  # the tests' clusters have it off
    except Exception as exc:  # noqa: BLE001 - the reason must reach the test report
        pytest.fail(f"the PostgreSQL test cluster could not start: {exc}", pytrace=False)
    try:
        sandbox.create_database("staging")
        sandbox.psql("CREATE EXTENSION postgis", "staging")
        yield sandbox
    finally:
        sandbox.stop()


def _set_standby(admin, names: str | None) -> None:
    if names is None:
        admin.execute("ALTER SYSTEM RESET synchronous_standby_names")
    else:
        admin.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{names}'")
    admin.execute("SELECT pg_reload_conf()")


def _waiting(admin) -> list[tuple[str, str]]:
    """(wait event, query) of the other backends of the staging database that wait for a lock or a standby."""
    return sorted(admin.execute(
        "SELECT wait_event, query FROM pg_stat_activity WHERE datname = 'staging' AND pid <> pg_backend_pid() "
        "AND wait_event IN ('SyncRep', 'advisory', 'transactionid')").fetchall())


def _until(check, timeout_s: float = 10.0):
    end = time.monotonic() + timeout_s
    while True:
        got = check()
        if got or time.monotonic() > end:
            return got
        time.sleep(0.02)


def test_two_stagings_wait_for_their_flushes_at_once_and_return_only_after(cluster):
    url = cluster.url("staging")
    robots = [Memory.open(url, embedding_dim=4, config=IMMEDIATE) for _ in range(2)]
    admin = psycopg.connect(url, autocommit=True)
    results: dict[str, object] = {}

    def stage(m, source, center, stamp):
        try:
            results[source] = m.stage([box_obs("mug", center, stamp=stamp), box_obs("cup", center, stamp=stamp)],
                                      view(stamp, center, distance_from_eye(center)), source=source)
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            results[source] = exc

    threads = []
    try:
        _set_standby(admin, "nobody")
        _until(lambda: admin.execute("SHOW synchronous_standby_names").fetchone()[0] == "nobody")
        threads.append(threading.Thread(target=stage, args=(robots[0], "robot_a", A, 1.0)))
        threads[0].start()
        first = _until(lambda: [w for w in _waiting(admin) if w[0] == "SyncRep"])
        assert [w[0] for w in first] == ["SyncRep"] and "COMMIT" not in first[0][1].upper()
        # robot_a's staging is committed but not yet known durable: add() has not returned, and it holds no lock
        assert threads[0].is_alive() and not results
        assert admin.execute("SELECT pg_try_advisory_lock(%s, hashtext('public'))", (STAGE_LOCK_KEY,)).fetchone()[0]
        admin.execute("SELECT pg_advisory_unlock(%s, hashtext('public'))", (STAGE_LOCK_KEY,))
        with admin.transaction():
            assert admin.execute("SELECT tbl, last FROM tempomem_ids WHERE tbl IN ('frames', 'observations') "
                                 "ORDER BY tbl FOR UPDATE NOWAIT").fetchall() == [("frames", 1), ("observations", 2)]
            admin.execute("ROLLBACK")  # nothing written: leaves at once, no commit to wait for
        threads.append(threading.Thread(target=stage, args=(robots[1], "robot_b", B, 1.1)))
        threads[1].start()
        both = _until(lambda: [w for w in _waiting(admin) if w[0] == "SyncRep"][1:] and _waiting(admin))
        assert [w[0] for w in both] == ["SyncRep", "SyncRep"]  # the two flushes wait at once
        assert all(t.is_alive() for t in threads) and not results
    finally:
        _set_standby(admin, None)
        for t in threads:
            t.join(timeout=20)
    try:
        assert not any(t.is_alive() for t in threads)
        assert [(r.frame_id, r.observation_ids, r.status) for r in (results["robot_a"], results["robot_b"])] == [
            (1, (1, 2), "pending"), (2, (3, 4), "pending")]
        assert robots[0].pending() == 2 and robots[0].latest_stamp() == 1.1
        assert [(o.id, o.source, o.verdict) for o in robots[0].observations()] == [
            (1, "robot_a", "pending"), (2, "robot_a", "pending"), (3, "robot_b", "pending"),
            (4, "robot_b", "pending")]
        assert admin.execute("SELECT tbl, last FROM tempomem_ids WHERE tbl IN ('frames', 'observations', 'audit') "
                             "ORDER BY tbl").fetchall() == [("audit", 0), ("frames", 2), ("observations", 4)]
    finally:
        for m in robots:
            m.close(fuse=False)
        admin.close()
