"""Several writers, one truth: two robots' writer processes on one store (docs/FLEET.md, "Several writers").

Why separate processes: the rule under test is the store's (one write lock per memory, a writer that finds
another's commit drops its caches), and only separate connections in separate processes race the way two
memory nodes do. Both writers open the store before either writes, so each starts with caches the other's
commits make stale. Run on both backends: SQLite's file lock must give the same answers as PostgreSQL's
advisory lock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, view

from tempomem_ros.core import Memory

WRITER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fleet_writer.py")
A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
DA = distance_from_eye(A)
DB = distance_from_eye(B)


class Robots:
    """One writer process per robot, each with its Memory open on the store; ``run({robot: plan})`` sends
    every robot its plan at once and returns each one's result."""

    def __init__(self, address: str, *sources: str):
        self.procs = {}
        for source in sources:
            self.procs[source] = subprocess.Popen([sys.executable, WRITER, address, source], stdin=subprocess.PIPE,
                                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for source in sources:
            self._expect(source, "ready")

    def _line(self, source: str) -> str:
        p = self.procs[source]
        line = p.stdout.readline()
        if not line:
            p.wait(timeout=30)
            raise AssertionError(f"{source} exited {p.returncode}: {p.stderr.read()[-3000:]}")
        return line.strip()

    def _expect(self, source: str, what: str) -> None:
        line = self._line(source)
        assert line == what, line

    def send(self, source: str, plan) -> None:
        self.procs[source].stdin.write(json.dumps(plan) + "\n")
        self.procs[source].stdin.flush()

    def kill(self, source: str) -> None:
        """SIGKILL: the process dies wherever it is, its open transaction with it (the crash test)."""
        p = self.procs.pop(source)
        p.kill()
        p.wait(timeout=30)

    def run(self, plans: dict) -> dict:
        for source, plan in plans.items():  # both start writing within a millisecond or so
            self.procs[source].stdin.write(json.dumps(plan) + "\n")
            self.procs[source].stdin.flush()
        return {source: json.loads(self._line(source)) for source in plans}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for source, p in self.procs.items():
            p.stdin.close()
        for p in self.procs.values():
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if exc[0] is None:
            for source, p in self.procs.items():
                assert p.returncode == 0, f"{source} failed: {p.stderr.read()[-3000:]}"


def create(address: str) -> None:
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE):
        pass


def test_two_robots_seeing_the_same_objects_in_the_same_seconds_make_one_object_each(store):
    """20 frames each, the same 5 objects at the same stamps, committed after every frame by both at once."""
    address = store()
    create(address)
    places = {"mug": (1.0, 0.0, 0.8), "cup": (1.0, 0.5, 0.8), "bowl": (1.5, -0.5, 0.8), "book": (2.0, 1.0, 0.8),
              "plate": (1.2, 1.2, 0.8)}

    def plan(offset: float) -> list:
        return [{"obs": [[label, [c[0] + offset, c[1], c[2]], 1.0 + 0.1 * i] for label, c in places.items()]}
                for i in range(20)]

    with Robots(address, "robot_a", "robot_b") as robots:
        results = robots.run({"robot_a": plan(0.0), "robot_b": plan(0.01)})
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        m.commit()
        objects = m.objects()
        assert sorted(o.label for o in objects) == sorted(places)  # no cross-robot duplicate
        assert all(o.state == "present" for o in objects)
        observations = m.observations()
        assert len(observations) == 200
        assert {o.verdict for o in observations} == {"created", "merged"}  # no update lost, nothing pending
        assert sum(o.verdict == "created" for o in observations) == 5
        for o in objects:  # every sighting of both robots landed on its object
            sources = [h.source for h in m.history(o.id)]
            assert sources.count("robot_a") == 20 and sources.count("robot_b") == 20
        by_id = [o.source for o in observations]
        switches = sum(a != b for a, b in zip(by_id, by_id[1:]))
        if store.postgres:  # the advisory lock queues waiters; SQLite's busy handler polls, so one may run ahead
            assert switches >= 4, f"the writers did not interleave ({switches} switches): no race was tested"
        staged = sorted(results["robot_a"]["ids"] + results["robot_b"]["ids"])
        assert staged == [o.id for o in observations]
        assert sum(results["robot_a"]["fused"]) + sum(results["robot_b"]["fused"]) == 200  # each fused once
        assert [e.kind for e in m.changes()] == ["appeared"] * 5
    # each writer's own count of objects (kept up to date by the writer) saw the other's creations
    assert results["robot_a"]["objects_after"] == results["robot_b"]["objects_after"] == 5


def test_a_mug_robot_b_finds_elsewhere_after_it_saw_the_old_place_empty_is_one_move(store):
    """Robot A sees the mug at A; robot B (whose writer opened before A wrote) sees A empty, then the mug at B."""
    address = store()
    create(address)
    plan_a = [{"obs": [["mug", list(A), 10.0 + i]], "view": [10.0 + i, list(A), DA + 0.04]} for i in range(3)]
    plan_b = [{"obs": [], "view": [20.0 + i, list(A), DA + 1.0]} for i in range(3)]
    plan_b.append({"obs": [["mug", list(B), 30.0]], "view": [30.0, list(B), DB + 0.04]})
    with Robots(address, "robot_a", "robot_b") as robots:
        assert len(robots.run({"robot_a": plan_a})["robot_a"]["ids"]) == 3
        robots.run({"robot_b": plan_b})
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        assert [(o.label, o.state, o.n_moves) for o in m.objects()] == [("mug", "present", 1)]
        (mug,) = m.objects()
        assert [e.kind for e in m.changes(since=0)] == ["appeared", "removed", "moved"]
        assert [h.source for h in m.history(mug.id)] == ["robot_a"] * 3 + ["robot_b"]
        hist = m.temporal("history", label="mug")
        assert [p.center for p in hist.placements] == [pytest.approx(A), pytest.approx(B)]


def test_a_mug_robot_b_sees_elsewhere_without_evidence_the_old_place_is_empty_is_a_second_mug(store):
    """Being the only mug is no evidence of a move: A's place counts as empty only from a view of it."""
    address = store()
    create(address)
    plan_a = [{"obs": [["mug", list(A), 10.0 + i]], "view": [10.0 + i, list(A), DA + 0.04]} for i in range(3)]
    plan_b = [{"obs": [["mug", list(B), 30.0 + i]], "view": [30.0 + i, list(B), DB + 0.04]} for i in range(3)]
    with Robots(address, "robot_a", "robot_b") as robots:
        robots.run({"robot_a": plan_a, "robot_b": plan_b})
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        m.commit()
        mugs = sorted((o.center, o.n_moves, o.state) for o in m.objects())
        assert mugs == [(pytest.approx(B), 0, "present"), (pytest.approx(A), 0, "present")]
        assert [e.kind for e in m.changes(since=0)] == ["appeared", "appeared"]


def test_a_mug_moved_there_and_back_by_evidence_of_two_robots_is_one_identity_with_two_moves(store):
    """Robot B sees the mug at A; robot A sees A empty and the mug at B; robot B sees B empty and the mug back
    at A. Each robot's writer fuses against what the other committed meanwhile (its caches of the store are
    dropped when another writer committed: Memory._begin); the spatial index finds the mug where it is."""
    address = store()
    create(address)
    at = [{"obs": [["mug", list(A), t]], "view": [t, list(A), DA + 0.04]} for t in (10.0, 11.0, 12.0)]
    move = [{"obs": [], "view": [20.0 + i, list(A), DA + 1.0]} for i in range(3)]
    move.append({"obs": [["mug", list(B), 30.0]], "view": [30.0, list(B), DB + 0.04]})
    empty_b = [{"obs": [], "view": [40.0 + i, list(B), DB + 1.0]} for i in range(3)]
    back = [{"obs": [["mug", list(A), 50.0 + i]], "view": [50.0 + i, list(A), DA + 0.04]} for i in range(3)]
    with Robots(address, "robot_a", "robot_b") as robots:
        robots.run({"robot_b": at})
        robots.run({"robot_a": move})
        robots.run({"robot_b": empty_b + back})
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        assert [(o.label, o.state, o.n_moves) for o in m.objects()] == [("mug", "present", 2)]
        (mug,) = m.objects()
        assert m.spatial(A, 0.2)[0].object.id == mug.id  # the index finds it where it is
        assert [e.kind for e in m.changes(since=0)] == ["appeared", "removed", "moved", "removed", "moved"]
        assert [h.source for h in m.history(mug.id)] == ["robot_b"] * 3 + ["robot_a"] + ["robot_b"] * 3


def test_a_writer_that_cannot_get_the_lock_fails_cleanly_and_writes_on_later(store, monkeypatch):
    """PostgreSQL: another writer holding the memory's fusion lock longer than the lock timeout makes commit() fail
    with StoreLockedError (transient: the node keeps the frame and retries) while add() still stages beside it (its
    own lock: docs/FLEET.md, "Staging beside fusion"); another stager holding the staging lock makes add() fail
    alike. The same Memory writes once the lock is free (no aborted transaction left behind). SQLite's equivalent:
    test_hostile_store.py."""
    if not store.postgres:
        pytest.skip("SQLite's busy timeout is tested in test_hostile_store.py")  # the PostgreSQL locks only
    import psycopg

    from tempomem_ros.core.errors import StoreLockedError
    from tempomem_ros.core.postgres import connection

    from core_helpers import box_obs

    monkeypatch.setattr(connection, "LOCK_TIMEOUT_MS", 300)
    address = store()
    create(address)
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        holder = psycopg.connect(address)
        try:  # a fusion that takes long: staging goes on, fusing waits and gives up
            holder.execute("SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))",
                           (connection.WRITE_LOCK_KEY,))
            (first,) = m.add([box_obs("mug", A, stamp=1.0)])
            with pytest.raises(StoreLockedError, match="lock"):
                m.commit()
        finally:
            holder.rollback()
        assert m.pending() == 1 and m.observation(first).verdict == "pending"
        try:  # another robot staging: this one's add() waits and gives up
            holder.execute("SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))",
                           (connection.STAGE_LOCK_KEY,))
            with pytest.raises(StoreLockedError, match="lock"):
                m.add([box_obs("cup", B, stamp=2.0)])
        finally:
            holder.rollback()
            holder.close()
        assert [o.id for o in m.observations()] == [first]
        (oid,) = m.add([box_obs("mug", A, stamp=3.0)])
        stats = m.commit()
        assert stats.observations_committed == 2 and len(stats.frame_ids) == 2
        assert m.observation(first).verdict == "created" and m.observation(oid).verdict == "merged"


def test_frames_another_writer_fused_while_this_one_waited_for_the_lock_are_not_fused_again(store):
    """Writer B decides to commit while writer A's frame (a view of the mug's place, empty) is pending, and A's
    commit fuses it before B has the lock (the interleaving made certain: A commits just before B's transaction
    begins, after B's check that a frame is staged, which is made here by not checking again: Store.fusing's
    only_if). B must read the pending frames under the lock: one look at the empty place is one miss, not two."""
    from contextlib import contextmanager

    address = store()
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as a, \
            Memory.open(address, embedding_dim=4, config=IMMEDIATE) as b:
        for i in range(3):
            a.add([box_obs("mug", A, stamp=10.0 + i)], view(10.0 + i, A, DA + 0.04))
            a.commit()
        a.add([], view(20.0, A, DA + 1.0))
        begin = b._store.fusing
        fused_by_a = []

        @contextmanager
        def a_commits_first(reads, only_if=None):
            assert only_if is not None and b._pending_count() == 1  # B would commit: a frame is staged
            fused_by_a.append(a.commit())
            with begin(reads) as read:
                yield read

        b._store.fusing = a_commits_first
        stats = b.commit()
        b._store.fusing = begin
        assert [(s.views, s.misses) for s in fused_by_a] == [(1, 1)]
        assert (stats.views, stats.misses, stats.observations_committed) == (0, 0, 0)
        (mug,) = a.objects()
        frames = store.raw(address, "SELECT id FROM frames ORDER BY id")
        assert store.raw(address, "SELECT object_id, frame_id, stamp FROM misses") == [(mug.id, frames[-1][0], 20.0)]
        assert store.raw(address, "SELECT misses FROM objects") == [(1,)]


def test_a_commit_in_the_instant_after_this_writers_commit_still_drops_its_caches(store):
    """Writer B commits (a cup appears) right after writer A's COMMIT, before A goes on (the interleaving made
    certain: A's connection runs B's commit when it has sent its COMMIT). A must still find B's commit at its
    next transaction and drop what it keeps of the store between transactions (WriterCaches): here its count of
    objects, which otherwise stays 1; its R*Tree entries, label mass and relation boxes would go stale alike."""
    address = store()
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as a, \
            Memory.open(address, embedding_dim=4, config=IMMEDIATE) as b:
        a.add([box_obs("mug", A, stamp=1.0)])
        assert a.commit().objects_after == 1
        a.add([box_obs("mug", A, stamp=2.0)])
        real = a._store.conn

        class BCommitsAfterACommits:
            fired = False

            def __getattr__(self, name):
                return getattr(real, name)

            def execute(self, sql, *args):
                cursor = real.execute(sql, *args)
                if sql == "COMMIT" and not self.fired:
                    self.fired = True
                    b.add([box_obs("cup", B, stamp=2.5)])
                    assert b.commit().objects_after == 2
                return cursor

        a._store.conn = proxy = BCommitsAfterACommits()
        try:
            assert a.commit().objects_after == 1  # B's cup came after this commit
        finally:
            a._store.conn = real
        assert proxy.fired
        a.add([box_obs("mug", A, stamp=3.0)])
        assert a.commit().objects_after == 2
        assert sorted(o.label for o in a.objects()) == ["cup", "mug"]


def test_two_robots_committing_at_once_fuse_every_view_once(store):
    """15 frames each, a sighting and a camera view per frame, each robot committing after every frame while the
    other does: every frame (its sightings and its view) is fused by exactly one commit of one robot. A commit
    that read the pending frames before it had the lock fused the other's frames a second time whenever that
    one's commit took them meanwhile (their views counted twice; the sightings were no longer pending)."""
    address = store()
    create(address)
    plan_a = [{"obs": [["mug", list(A), 10.0 + 0.1 * i]], "view": [10.0 + 0.1 * i, list(A), DA + 0.04]}
              for i in range(15)]
    plan_b = [{"obs": [["book", list(B), 10.05 + 0.1 * i]], "view": [10.05 + 0.1 * i, list(B), DB + 0.04]}
              for i in range(15)]
    with Robots(address, "robot_a", "robot_b") as robots:
        results = robots.run({"robot_a": plan_a, "robot_b": plan_b})
    assert sum(results["robot_a"]["views"]) + sum(results["robot_b"]["views"]) == 30
    assert sum(results["robot_a"]["fused"]) + sum(results["robot_b"]["fused"]) == 30
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        assert m.pending() == 0
        assert sorted((o.label, o.state) for o in m.objects()) == [("book", "present"), ("mug", "present")]
        assert {o.verdict for o in m.observations()} == {"created", "merged"}
    assert store.raw(address, "SELECT COUNT(*) FROM misses") == [(0,)]
    assert store.raw(address, "SELECT COUNT(*) FROM frames WHERE status = 'fused'") == [(30,)]


# ---------------------------------------------------------------- staging beside fusion: robots stage, one fuser fuses
def fusion_order(address: str, store) -> dict:
    """Frame id -> (stamp, source, id): the order a batch is fused in (RetentionRows.pending_frames)."""
    rows = store.raw(address, "SELECT id, stamp, source FROM frames")
    return {fid: (stamp, source, fid) for fid, stamp, source in rows}


def test_two_robots_staging_while_one_fuser_fuses_make_one_object_each_and_fuse_every_frame_once(store):
    """Robots A and B only stage (20 frames each, the same 5 objects at the same stamps, a camera view each) while a
    third process, the fuser, fuses whatever is staged, batch after batch, at the same time: every frame is fused by
    exactly one batch, each batch in (stamp, source, id) order, and the 5 objects are 5 (no cross-robot duplicate),
    with all 200 sightings fused once (no lost update)."""
    address = store()
    create(address)
    places = {"mug": (1.0, 0.0, 0.8), "cup": (1.0, 0.5, 0.8), "bowl": (1.5, -0.5, 0.8), "book": (2.0, 1.0, 0.8),
              "plate": (1.2, 1.2, 0.8)}

    def plan(offset: float) -> list:
        return [{"obs": [[label, [c[0] + offset, c[1], c[2]], 1.0 + 0.1 * i] for label, c in places.items()],
                 "view": [1.0 + 0.1 * i, list(places["mug"]), DA], "commit": False, "pause": 0.01}
                for i in range(20)]

    with Robots(address, "robot_a", "robot_b", "fuser") as robots:
        results = robots.run({"fuser": {"fuse": 40}, "robot_a": plan(0.0), "robot_b": plan(0.01)})
    batches = results["fuser"]["batches"]
    fused = [fid for b in batches for fid in b["frames"]]
    order = fusion_order(address, store)
    assert sorted(fused) == sorted(order) and len(order) == 40  # every frame fused, none twice
    for b in batches:  # each batch in (stamp, source, id) order, whichever robot staged first
        assert b["frames"] == sorted(b["frames"], key=order.__getitem__)
    assert sum(b["fused"] for b in batches) == 200 and sum(b["views"] for b in batches) == 40
    if store.postgres:  # staged and fused at once: the fuser found frames of both robots more than once
        assert len(batches) >= 2, batches
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        assert m.pending() == 0
        objects = m.objects()
        assert sorted(o.label for o in objects) == sorted(places)  # no cross-robot duplicate
        assert all(o.state == "present" for o in objects)
        observations = m.observations()
        assert len(observations) == 200 and sum(o.verdict == "created" for o in observations) == 5
        assert {o.verdict for o in observations} == {"created", "merged"}
        for o in objects:
            sources = [h.source for h in m.history(o.id)]
            assert sources.count("robot_a") == 20 and sources.count("robot_b") == 20
        assert [e.kind for e in m.changes()] == ["appeared"] * 5
    staged = sorted(results["robot_a"]["ids"] + results["robot_b"]["ids"])
    assert staged == [o.id for o in observations]


def test_a_frame_staged_while_a_commit_fuses_is_left_to_the_next_and_does_not_move_its_now(store):
    """PostgreSQL: robot A stages a frame (stamp 9) while the fuser's commit is fusing frames of stamps 1 and 2 (the
    interleaving made certain: A stages from inside the commit's first fuse_frame): A's add() does not wait for the
    fusion (its own lock), the commit fuses exactly the two frames it read, and its "now" stays 2.0 throughout; the
    next commit fuses the third."""
    if not store.postgres:
        pytest.skip("SQLite: one file lock, so a robot's add() waits for the commit (one robot per file)")
    address = store()
    with Memory.open(address, embedding_dim=4, config={**IMMEDIATE, "source": "robot_a"}) as a, \
            Memory.open(address, embedding_dim=4, config={**IMMEDIATE, "source": "fuser"}) as fuser:
        a.add([box_obs("mug", A, stamp=1.0)])
        a.add([box_obs("cup", B, stamp=2.0)])
        real, seen = fuser._fusion.fuse_frame, []

        def fuse_frame(frame, *args):
            if not seen:
                seen.append(a.stage([box_obs("book", (1.0, 1.0, 0.8), stamp=9.0)]).frame_id)
            seen.append(fuser._stamp_clock())
            return real(frame, *args)

        fuser._fusion.fuse_frame = fuse_frame
        stats = fuser.commit()
        fuser._fusion.fuse_frame = real
        third = seen[0]
        assert seen[1:] == [2.0, 2.0]
        assert stats.observations_committed == 2 and third not in stats.frame_ids and len(stats.frame_ids) == 2
        assert a.pending() == 1 and a.latest_stamp() == 9.0
        assert fuser.commit().frame_ids == (third,)
        assert sorted(o.label for o in fuser.objects()) == ["book", "cup", "mug"]


def test_a_fuser_killed_in_the_middle_of_a_batch_leaves_every_frame_staged_and_the_next_fuses_them_once(store):
    """The fuser process is killed (SIGKILL) after fusing 3 of a batch's 6 frames inside its open transaction: nothing
    of the batch is fused (every frame and sighting still pending, no object, miss, event or fusion audit row), and
    the next commit fuses all 6 once, to exactly what one commit of the same frames makes in a store never crashed."""
    address, reference = store(), store("reference")
    create(address)
    frames = [{"obs": [["mug", list(A), 10.0 + i]], "view": [10.0 + i, list(A), DA + 0.04], "commit": False}
              for i in range(3)]
    frames += [{"obs": [["cup", list(B), 13.0 + i]], "view": [13.0 + i, list(B), DB + 0.04], "commit": False}
               for i in range(3)]
    frames.append({"obs": [], "view": [16.0, list(A), DA + 1.0], "commit": False})  # the mug's place, empty
    def fused(addr: str, stage: list = ()) -> tuple:
        """One commit of what is staged (after staging ``stage`` as robot_a would), and what it made."""
        with Memory.open(addr, embedding_dim=4, config={**IMMEDIATE, "source": "fuser"}) as m:
            for f in stage:
                m.add([box_obs(label, c, stamp=t) for label, c, t in f["obs"]], view(*f["view"]), source="robot_a")
            stats = m.commit()
            return (len(stats.frame_ids), stats.observations_committed, stats.views, stats.misses,
                    [(o.id, o.label, o.state, o.center, o.n_observations) for o in m.objects()],
                    [(o.id, o.verdict, o.object_id) for o in m.observations()],
                    [(e.kind, e.object_id, e.stamp) for e in m.changes(since=0)])

    # checked while the robot is still open: its close() would fuse what is staged ("fuse before persist")
    with Robots(address, "robot_a", "fuser") as robots:
        robots.run({"robot_a": frames})
        robots.send("fuser", {"fuse": 7, "stop_after": 3})
        assert robots._line("fuser") == "mid-batch"
        robots.kill("fuser")
        assert store.raw(address, "SELECT status, COUNT(*) FROM frames GROUP BY status") == [("pending", 7)]
        assert store.raw(address, "SELECT verdict, COUNT(*) FROM observations GROUP BY verdict") == [("pending", 6)]
        for table in ("objects", "placements", "misses", "events", "audit"):
            assert store.raw(address, f"SELECT COUNT(*) FROM {table}") == [(0,)], table
        after_crash = fused(address)
    assert after_crash == fused(reference, frames)
    assert after_crash[:4] == (7, 6, 7, 1)
    assert store.raw(address, "SELECT status, COUNT(*) FROM frames GROUP BY status") == [("fused", 7)]


def test_a_commit_fuses_by_stamp_then_source_and_at_most_max_frames_of_them(store):
    """The fusion order is stamp, then source, then staging order: robot_a's frame of stamp 1 is fused before robot_b's
    of the same stamp staged earlier. commit(max_frames=2) fuses the first two in that order and leaves the third
    staged (a fuser's bounded batch); the next commit fuses it."""
    from tempomem_ros.core.errors import InvalidInputError

    address = store()
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        mug = m.stage([box_obs("mug", A, stamp=3.0)], source="robot_b").frame_id
        cup = m.stage([box_obs("cup", B, stamp=1.0)], source="robot_b").frame_id
        book = m.stage([box_obs("book", (1.0, 1.0, 0.8), stamp=1.0)], source="robot_a").frame_id
        with pytest.raises(InvalidInputError, match="max_frames"):
            m.commit(max_frames=0)
        stats = m.commit(max_frames=2)
        assert stats.frame_ids == (book, cup) and stats.observations_committed == 2
        assert m.pending() == 1 and sorted(o.label for o in m.objects()) == ["book", "cup"]
        assert [o.verdict for o in m.observations()] == ["pending", "created", "created"]
        assert m.commit().frame_ids == (mug,)
        assert [(o.label, o.id) for o in m.objects()] == [("book", 1), ("cup", 2), ("mug", 3)]


def test_staging_a_frame_waits_for_the_server_twice(store):
    """PostgreSQL: a staging reads "now" and the quarantined frames, and takes the ids of its frame and its sightings,
    in its lock's round trip (Store.staging); its rows are then sent with the COMMIT: 2 waits, 4 before (the frame's
    id and the sightings' ids were each waited for), 6 before that."""
    if not store.postgres:
        pytest.skip("a round trip is PostgreSQL's")
    address = store()
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", A, stamp=1.0)], view(1.0, A, DA))
        traffic = m._conn.traffic
        traffic.reset()
        m.add([box_obs("mug", A, stamp=2.0), box_obs("cup", B, stamp=2.0)], view(2.0, A, DA))
        assert traffic.round_trips == 2
        assert sorted(" ".join(sql.split()[:3]) for sql in traffic.waited_by_sql) == [
            "(end of pipeline)", "BEGIN; SET LOCAL"]
        assert traffic.sent_by_sql["(reserve ids)"] == 2
        # its COMMIT does not wait for the WAL flush; the flush is waited for after it, in the same round trip
        assert traffic.sent_by_sql["(flush)"] == 1
        assert m.latest_stamp() == 2.0 and m.pending() == 2


def test_staged_ids_are_the_ones_each_insert_took(store):
    """The ids a staging reserves (PostgreSQL) are those the rows took one insert each, and SQLite's: frames 1, 2, 3,
    4 and their sightings in order, an empty frame taking none; a quarantined frame and a refused one alike; the
    counters end at the last id, so the next row (the fusion's audit, a later frame) takes the next one."""
    address = store()
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        got = [m.stage([box_obs("mug", A, stamp=1.0), box_obs("cup", B, stamp=1.0)], view(1.0, A, DA)),
               m.stage([], stamp=1.5),
               m.stage([box_obs("mug", A, stamp=1e6)], view(1e6, A, DA)),  # jumps far ahead: quarantined
               m.stage([box_obs("mug", A, stamp=2.0), box_obs("cup", B, stamp=2.0), box_obs("pen", A, stamp=2.0)],
                       view(2.0, A, DA))]  # on the old timeline: the jumped frame is refused
        assert [(r.frame_id, r.observation_ids, r.status, r.refused) for r in got] == [
            (1, (1, 2), "pending", ()), (2, (), "pending", ()), (3, (3,), "quarantined", ()),
            (4, (4, 5, 6), "pending", (3,))]
        assert [(o.id, o.label, o.verdict) for o in m.observations()] == [
            (1, "mug", "pending"), (2, "cup", "pending"), (3, "mug", "rejected"), (4, "mug", "pending"),
            (5, "cup", "pending"), (6, "pen", "pending")]
        if store.postgres:
            assert m._conn.execute("SELECT tbl, last FROM tempomem_ids WHERE tbl IN ('frames', 'observations') "
                                   "ORDER BY tbl").fetchall() == [("frames", 4), ("observations", 6)]
        assert m.commit().frame_ids == (1, 2, 4)
        assert m.stage([box_obs("cup", B, stamp=3.0)], view(3.0, B, DB)).observation_ids == (7,)


def test_reserving_ids_takes_id_tables_and_counts_only(store):
    """begin_staging reserves n >= 1 ids of a table with a counter; anything else is refused before it is sent."""
    if not store.postgres:
        pytest.skip("the id counters are PostgreSQL's")
    with Memory.open(store(), embedding_dim=4, config=IMMEDIATE) as m:
        for bad in ((("frames", 0),), (("frames", True),), (("meta", 1),), (("frames; DROP", 1),), (("frames", 1.0),)):
            with pytest.raises(ValueError, match="reserves n >= 1 ids"):
                m._conn.begin_staging((), bad)
            assert not m._conn.in_transaction
        m.add([box_obs("mug", A, stamp=1.0)], view(1.0, A, DA))
        assert [o.id for o in m.observations()] == [1]


def test_closing_a_fleet_store_fuses_its_backlog_in_bounded_batches(store, monkeypatch):
    """Review of session 33: close() (and forget or a region definition) fuses what is staged first. On PostgreSQL the
    robots stage beside fusion, so the whole fleet's backlog in one transaction held the fusion lock past every other
    writer's timeout; it goes in commits of memory.FLEET_FUSE_BATCH frames there. SQLite fuses in one commit, as
    before."""
    from tempomem_ros.core import memory as memory_module

    monkeypatch.setattr(memory_module, "FLEET_FUSE_BATCH", 2)
    asked: list = []
    commit_locked = Memory._commit_locked

    def recorded(self, max_frames=None):
        asked.append(max_frames)
        return commit_locked(self, max_frames)

    monkeypatch.setattr(Memory, "_commit_locked", recorded)
    address = store()
    m = Memory.open(address, embedding_dim=4, config=IMMEDIATE)
    for k in range(5):
        m.stage([box_obs("mug", (1.0 + k, 0.0, 0.8), stamp=float(k))], source="robot_a")
    m.close()
    assert asked == ([2, 2, 2] if store.postgres else [None])
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as again:
        assert again.pending() == 0 and len(again.objects()) == 5


def test_a_forget_fuses_the_frames_staged_when_it_began_while_its_robot_stages_beside_it(store, monkeypatch):
    """PostgreSQL: the memory node stages its robot's frames through a connection of its own (nodes/memory_store.py
    open_stager), beside its writer's commits. A forget with only its own robot's frames staged fuses them first
    (Memory._fuse_staged, as on SQLite); "until none is staged" never ended while frames arrived as fast as it fused
    them (here 2 a commit of 2). It now fuses as many as were staged when it began (3, in two commits, the second
    taking one staged meanwhile), is stamped at the fused graph's newest stamp, and leaves the frames staged since,
    later, to the next commit."""
    if not store.postgres:
        pytest.skip("SQLite: one file lock, so no frame is staged while the forget's commit holds it")
    from tempomem_ros.core import memory as memory_module

    monkeypatch.setattr(memory_module, "FLEET_FUSE_BATCH", 2)
    address = store()
    config = {**IMMEDIATE, "source": "robot_a"}
    with Memory.open(address, embedding_dim=4, config=config) as writer, \
            Memory.open(address, embedding_dim=4, config=config) as stager:
        stager.add([box_obs("mug", A, stamp=1.0)])
        writer.commit()
        (mug,) = [o.id for o in writer.objects()]
        for k in range(3):
            stager.add([box_obs("cup", B, stamp=2.0 + k)])
        real, commits = writer._commit_locked, []

        def commit_while_the_robot_stages(max_frames=None, through=None):
            commits.append(max_frames)
            assert len(commits) <= 10, "the forget's fusing never ended"
            for half in (0.0, 0.5):  # as many arrive as a commit fuses
                stager.add([box_obs("book", (1.0, 1.0, 0.8), stamp=10.0 + len(commits) + half)])
            return real(max_frames, through)

        writer._commit_locked = commit_while_the_robot_stages
        assert writer.forget(mug, "sold") is True
        writer._commit_locked = real
        assert commits == [2, 2]  # cups 2, 3 | cup 4 and the book of 11.0, staged during the first commit
        assert writer.pending() == 3  # the books of 11.5, 12.0 and 12.5
        (tomb,) = writer.tombstones()
        assert (tomb["object_id"], tomb["stamp"]) == (mug, 11.0)  # after every frame fused, before those left staged
        assert len(writer.commit().frame_ids) == 3
        assert sorted((o.label, o.state) for o in writer.objects()) == [
            ("book", "present"), ("cup", "present"), ("mug", "forgotten")]


def test_a_commit_reads_what_it_fuses_in_its_locks_round_trip(store):
    """PostgreSQL: a commit's check that a frame is staged, its fusion lock, the pending frames, the newest fused
    stamp and the frames' sightings are one round trip (Store.fusing), and the removals due, the held events and the
    first frame's label pairs one more (FusionRows.read_batch_ahead): none of them is waited for alone, but the held
    events where the frame held one (then read again where used, as before). With nothing
    staged no lock is taken and nothing is written (the check is in the lock's statement): the write epoch stays."""
    if not store.postgres:
        pytest.skip("a round trip is PostgreSQL's")
    address = store()
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", A, stamp=1.0)], view(1.0, A, DA))
        m.commit()
        m.add([box_obs("mug", A, stamp=2.0), box_obs("cup", B, stamp=2.0)], view(2.0, A, DA))
        traffic = m._conn.traffic
        holds = store.raw(address, "SELECT COUNT(*) FROM held_events")[0][0]
        traffic.reset()
        stats = m.commit()
        assert stats.frame_ids and stats.observations_committed == 2
        waited = [" ".join(sql.split()[:4]) for sql in traffic.waited_by_sql]
        assert traffic.waited_by_sql["BEGIN; lock; reads"] == 1
        assert [w for w in waited if w.startswith(("SELECT COUNT(*) FROM frames", "SELECT f.*, d.depth",
                                                   "SELECT MAX(stamp) FROM", "SELECT id, stamp, label,",
                                                   "SELECT DISTINCT x.label,"))] == []
        # the cup's appearance is held by this frame (a hold written clears held_none): the held events are read
        # again where settling uses them (and publish it), as before, once
        assert store.raw(address, "SELECT kind, status FROM held_events ORDER BY id")[holds:] == [
            ("appeared", "published")]
        assert [n for sql, n in traffic.waited_by_sql.items() if sql.startswith("SELECT h.*, o.state")] == [1]
        assert sum(n for sql, n in traffic.waited_by_sql.items()
                   if sql.startswith("SELECT id, removal_due") and "SELECT h.*" in sql) == 1
        epoch = store.raw(address, "SELECT value FROM meta WHERE key = 'write_epoch'")
        traffic.reset()
        assert m.commit().frame_ids == ()
        assert traffic.round_trips == 2  # the lock's statement, which took none, then ROLLBACK
        assert store.raw(address, "SELECT value FROM meta WHERE key = 'write_epoch'") == epoch
        assert [o.label for o in m.objects()] == ["mug", "cup"]


def test_a_commit_with_nothing_staged_waits_twice_on_the_wire(store, monkeypatch):
    """PostgreSQL: with nothing staged the lock's statement takes no lock, and the ROLLBACK goes in the pipeline's one
    sync: two waits on the wire, as counted (_rollback() synced the empty pipeline first, then sent ROLLBACK: three).
    Counted at psycopg's Sync and the connection's simple queries, each one wait."""
    if not store.postgres:
        pytest.skip("a round trip is PostgreSQL's")
    from psycopg import _pipeline_base

    from tempomem_ros.core.postgres.connection import PgConnection

    waits = []
    sync, raw = _pipeline_base.BasePipeline._enqueue_sync, PgConnection._raw
    monkeypatch.setattr(_pipeline_base.BasePipeline, "_enqueue_sync", lambda p: waits.append("sync") or sync(p))
    monkeypatch.setattr(PgConnection, "_raw", lambda c, *a, **k: waits.append("raw") or raw(c, *a, **k))
    with Memory.open(store(), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", A, stamp=1.0)], view(1.0, A, DA))
        m.commit()
        waits.clear()
        m._conn.traffic.reset()
        assert m.commit().frame_ids == ()
        assert waits == ["sync", "sync"] and m._conn.traffic.round_trips == 2
        assert not m._conn.in_transaction
        m.add([box_obs("cup", B, stamp=2.0)], view(2.0, B, DA))
        assert m.commit().observations_committed == 1


@pytest.mark.parametrize("read_limit, max_frames", [(1, None), (None, 1)])
def test_frames_the_lock_round_trip_read_no_sightings_of_fuse_as_those_it_did(store, monkeypatch, read_limit,
                                                                             max_frames):
    """PostgreSQL: FusionRows.pending_sightings_read is a statement of its own after the frames' read, so a frame staged
    between the two may make them select other frames. Made certain here by selecting other frames: only the first
    (read_limit 1: the other two fused frames read their own sightings) or every frame where the commit fuses one
    (the sightings of frames it does not fuse are left unused, and the next commit reads its own). The same graph."""
    if not store.postgres:
        pytest.skip("the sightings are read in the lock's round trip on PostgreSQL only")
    from tempomem_ros.core.store.fusion_rows import FusionRows

    def run(name: str) -> list[str]:
        with Memory.open(store(name), embedding_dim=4, config=IMMEDIATE, clock=lambda: 7.0) as m:
            for i, (label, at) in enumerate((("mug", A), ("cup", B), ("mug", A))):
                m.add([box_obs(label, at, stamp=1.0 + i)], view(1.0 + i, at, distance_from_eye(at) + 0.04))
            while m.pending():
                m.commit(max_frames=max_frames)
            return [repr(x) for x in (*m.objects(), *m.observations(), *m.events())]

    alone = []
    one = FusionRows.pending_sightings
    monkeypatch.setattr(FusionRows, "pending_sightings", lambda self, f: alone.append(int(f)) or one(self, f))
    want = run("want")
    assert alone == []
    own = FusionRows.pending_sightings_read.__func__
    monkeypatch.setattr(FusionRows, "pending_sightings_read",
                        classmethod(lambda cls, limit=None, through=None: own(cls, read_limit, through)))
    assert run("got") == want
    assert alone == ([2, 3] if read_limit == 1 else [])  # frames 2 and 3 read their own; one at a time: none
