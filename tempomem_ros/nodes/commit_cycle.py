"""The memory node's commit cycle: stage what waits, fuse what is staged, then publish what changed.

Why a steady timer that skips, never queues: a long commit (or the publishing after it) occupies one executor
thread in a callback group of its own, never the services'; a tick that finds the previous one still running
returns at once. Why a failed commit is not fatal (issue 12): a storage failure updates the store's state
(/diagnostics reports ERROR while it lasts) and the commit is retried on every tick; any other failure is
counted and logged, throttled, and the timer stays alive.
Why one lock for all of it: deactivation, cleanup and ``close_store`` wait (``paused``) for a commit that is
still running before they fuse the rest and close the store.
Why a node may not fuse (``fuses`` False, parameter ``fuse_staged``): on a fleet's PostgreSQL store the robots stage
beside one fuser (docs/FLEET.md); every node's timer fusing too meant every robot took the fusion lock in turn. A
node that does not fuse only stages what waits, and publishes what the fuser fused once the store's audit moved.
Why a bounded commit (``max_frames``, parameter ``commit_max_frames``): a fusing node's tick fused every staged frame
of every robot in one transaction, so a backlog (the fuser fell behind, or was down) was one commit of hundreds of
frames holding the writer (28.4 s in bench_fleet_services), with the node's own ingest and mutations waiting on it.
A tick now fuses at most that many frames a commit, and further commits only while the tick's period lasts
(``budget_s``): each commit holds the writer for a bounded time, and a backlog is worked off over the ticks, oldest
frames first (Memory.commit's order).
Why a drain (``drain``, deactivation): what arrived before deactivation is fused and announced before the node goes
inactive, so deactivation ignores the tick's time and commits, still in bounded commits, until the frames staged
when it began are fused (a backlog over ``max_frames`` stayed staged and unannounced when it stopped at the first
tick's deadline). It stops there, counted: on a fleet's store other robots keep staging, and no drain waits on them.
"""

from __future__ import annotations

import contextlib
import threading
import time

from tempomem_ros.core.errors import StoreError


class CommitCycle:
    """Runs one commit + publish at a time, for the store the node holds now."""

    def __init__(self, parts, counters, health, logger, *, context_ok, fuses: bool = True, max_frames: int = 0,
                 budget_s: float = 0.0):
        self._fuses = bool(fuses)  # False: this node only stages; another (the fleet's fuser) fuses
        self._max_frames = int(max_frames) or None  # frames a commit fuses at most; 0 / None: every staged frame
        self._budget_s = float(budget_s)  # further bounded commits in one tick while this much time has not passed
        self._parts = parts  # () -> (writer, scene, ingest) of the open store; writer None once it is closed
        self._counters = counters
        self._health = health
        self._logger = logger
        self._context_ok = context_ok  # () -> False once rclpy shuts down (Ctrl-C, SIGTERM)
        self._running = threading.RLock()  # re-entered by close_store inside the node's _release

    def on_timer(self) -> None:
        if not self._running.acquire(blocking=False):
            return  # the previous tick is still committing/publishing: skip, never queue
        try:
            self.commit_and_publish(force=False)
        except Exception as exc:  # noqa: BLE001 - keep the timer alive whatever happens
            if not self._context_ok():
                return  # shutting down (Ctrl-C, SIGTERM): publishing failed, close_store fuses the rest
            self._counters.count(commit_errors=1)
            self._counters.last_error = f"commit: {exc}"
            if isinstance(exc, StoreError):
                self._health.failed(exc)  # logged once per change of state; retried on every tick
            else:
                self._logger.error(f"commit failed: {exc}", throttle_duration_sec=2.0)
        finally:
            self._running.release()

    def commit_and_publish(self, force: bool, drain: bool = False) -> None:
        """Stage what waits, fuse, publish. ``drain``: fuse every frame staged now, past the tick's time (deactivation:
        the module's docstring says why)."""
        writer, scene, ingest = self._parts()
        if writer is None:
            return
        ingest.flush()
        if not self._fuses:
            self._counters.store_pending = writer.pending()  # every robot's staged frames (diagnostics)
            if scene is not None:
                scene.follow_store()  # dirty once another writer changed the store
                scene.after_commit(force)
            return
        staged = writer.pending()
        if staged > 0:
            deadline = time.monotonic() + self._budget_s
            fused = 0
            while True:
                stats = writer.commit(max_frames=self._max_frames)
                self._health.ok()
                self._counters.count(commits=1)
                self._counters.last_commit_ms = stats.elapsed_ms
                fused += len(stats.frame_ids)
                if stats.changed and scene is not None:
                    scene.dirty = True
                if self._max_frames is None or len(stats.frame_ids) < self._max_frames:
                    break  # every staged frame fused (as of the commit's read)
                if (fused >= staged) if drain else (time.monotonic() >= deadline):
                    break  # a drain: as many fused as were staged when it began; a tick: its time is spent
        if scene is not None:
            scene.after_commit(force)

    @contextlib.contextmanager
    def paused(self):
        """Hold the commit lock, waiting up to 60 s for a commit that is running; yields whether it is held
        (after that wait, shutdown goes on without it rather than hang)."""
        held = self._running.acquire(timeout=60.0)
        try:
            yield held
        finally:
            if held:
                self._running.release()
