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
"""

from __future__ import annotations

import contextlib
import threading

from tempomem_ros.core.errors import StoreError


class CommitCycle:
    """Runs one commit + publish at a time, for the store the node holds now."""

    def __init__(self, parts, counters, health, logger, *, context_ok, fuses: bool = True):
        self._fuses = bool(fuses)  # False: this node only stages; another (the fleet's fuser) fuses
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
            self._counters.commit_errors += 1
            self._counters.last_error = f"commit: {exc}"
            if isinstance(exc, StoreError):
                self._health.failed(exc)  # logged once per change of state; retried on every tick
            else:
                self._logger.error(f"commit failed: {exc}", throttle_duration_sec=2.0)
        finally:
            self._running.release()

    def commit_and_publish(self, force: bool) -> None:
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
        if writer.pending() > 0:
            stats = writer.commit()
            self._health.ok()
            self._counters.commits += 1
            self._counters.last_commit_ms = stats.elapsed_ms
            if stats.changed and scene is not None:
                scene.dirty = True
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
