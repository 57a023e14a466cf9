"""Observation messages into the store: convert, stage at once, and hold frames while the store refuses writes.

Why stage at once: a frame that reached the node is written before the next commit, so nothing that arrived
is lost if the process dies (the memory fuses it later, in one transaction).
Why a bounded retry queue (issue 12): when the store refuses writes for a reason that heals (disk full,
locked, I/O error) frames wait in RAM (``store_retry_frames``) and are staged in arrival order once a write
succeeds again; beyond that many they are dropped, counted under ``dropped.store_<state>``. A message the
memory's plausibility gates refuse is dropped and counted under the gate's reason; the node keeps running.
Why an inbox and a staging thread (``start``): the subscription's callback staged the frame itself, so while the
writer was held (a commit of a fleet's backlog, a mutation) it waited, and the subscription's KEEP_LAST queue
replaced the oldest frames unseen and uncounted (bench_fleet_services: the node's own robot had 385 of 603 frames
staged, no drop counted). The callback now only appends to the node's own inbox of ``observation_queue_depth``
frames, in arrival order, and one thread stages from it; a frame the inbox replaces before it was staged is counted
under ``dropped.overwritten`` (/diagnostics). Without the thread (before ``start``, after ``stop``) a frame is staged
in the callback, as before.
"""

from __future__ import annotations

import collections
import threading

from tempomem_ros.core.errors import ImplausibleInputError, InvalidInputError, StoreError, TempoMemError
from tempomem_ros.msg import ObservationArray
from tempomem_ros.nodes import conversions as conv


class StoreHealth:
    """Whether the store accepts writes: ok | full | locked | io_error | corrupt | access | error, and why not."""

    def __init__(self, logger, counters):
        self._logger = logger
        self._counters = counters
        self.state = "ok"
        self.error = ""

    def failed(self, exc: StoreError) -> None:
        if self.state != exc.state:
            self._logger.error(f"store {exc.state}: {exc}")
        self.state, self.error = exc.state, str(exc)
        self._counters.last_error = str(exc)

    def ok(self) -> None:
        if self.state != "ok":
            self._logger.info(f"store accepts writes again (was {self.state})")
            self.state, self.error = "ok", ""


class FrameIngest:
    """Stages each ObservationArray into ``writer()`` in arrival order (ingestion runs in one mutually
    exclusive callback group, so the same stream gives the same ids)."""

    def __init__(self, writer, counters, health: StoreHealth, logger, *, param, world_frame: str):
        self._writer = writer  # () -> the writing Memory, or None once the store is closed
        self._counters = counters
        self._health = health
        self._logger = logger
        self._param = param  # observation_durability, store_retry_frames: read when used
        self._world_frame = world_frame
        self.retry: collections.deque = collections.deque()
        self._retry_lock = threading.Lock()
        self._inbox: collections.deque = collections.deque()
        self._inbox_cv = threading.Condition()
        self._worker: threading.Thread | None = None
        self._stopping = False

    def on_message(self, msg: ObservationArray) -> None:
        self._counters.count(received=1)  # NodeCounters: every count under its lock (this thread and the worker's)
        with self._inbox_cv:
            if self._worker is not None:
                if len(self._inbox) >= max(1, int(self._param("observation_queue_depth"))):
                    self._inbox.popleft()  # replaced before it was staged: counted, never silent
                    self._counters.count(handled=1)
                    self._drop("overwritten", "the node's observation queue was full (observation_queue_depth) "
                                              "while the store was busy; the oldest frame waiting was replaced")
                self._inbox.append(msg)
                self._inbox_cv.notify()
                return
        self._handle(msg)

    def _handle(self, msg: ObservationArray) -> None:
        try:
            self._ingest(msg)
        finally:
            self._counters.count(handled=1)

    def start(self) -> None:
        """Stage from the inbox on a thread of its own (at activate)."""
        with self._inbox_cv:
            if self._worker is not None:
                return
            self._stopping = False
            self._worker = threading.Thread(target=self._run, name="tempomem_ingest", daemon=True)
            self._worker.start()

    def stop(self) -> None:
        """Stop the staging thread after the frame it is staging, then stage what waits in the inbox here (at
        deactivate and close: what arrived is staged before the last commit)."""
        with self._inbox_cv:
            worker, self._stopping = self._worker, True
            self._inbox_cv.notify_all()
        if worker is not None:
            worker.join()
        with self._inbox_cv:
            self._worker = None
            waiting = list(self._inbox)
            self._inbox.clear()
        for msg in waiting:
            self._handle(msg)

    def waiting(self) -> int:
        """Frames received and not yet staged (the inbox)."""
        return len(self._inbox)

    def _run(self) -> None:
        while True:
            with self._inbox_cv:
                while not self._inbox and not self._stopping:
                    self._inbox_cv.wait()
                if self._stopping:
                    return
                msg = self._inbox.popleft()
            try:
                self._handle(msg)
            except Exception as exc:  # noqa: BLE001 - _ingest catches what it expects; the thread must live on
                self._drop("error", f"{type(exc).__name__}: {exc}")

    def _ingest(self, msg: ObservationArray) -> None:
        frame = msg.header.frame_id
        if frame and frame != self._world_frame:
            self._drop("frame", f"frame '{frame}' is not the world frame '{self._world_frame}'")
            return
        try:
            item = conv.observation_array(msg)
        except ImplausibleInputError as exc:
            self._drop(exc.reason, str(exc))
            return
        except InvalidInputError as exc:
            self._drop("invalid", str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - a bad message must never stop the subscription
            self._drop("error", f"{type(exc).__name__}: {exc}")
            return
        with self._retry_lock:
            if self.retry:  # earlier frames wait for the store: keep the arrival order
                self._queue_for_retry(item)
                self._flush_locked()
            elif not self._stage(item):
                self._queue_for_retry(item)

    def _stage(self, item) -> bool:
        """Stage one converted frame; False when the store refused it for a reason that heals (retry later)."""
        observations, view, stamp = item
        writer = self._writer()
        if writer is None:
            self._drop("store", "the store is closed")
            return True
        try:
            if self._param("observation_durability") == "transient_local" and \
                    writer.frame_staged(stamp, len(observations)):
                self._drop("duplicate", f"frame stamped {stamp:.9f} is already in the store")
                return True
            result = writer.stage(observations, view, stamp=stamp)
        except ImplausibleInputError as exc:
            self._drop(exc.reason, str(exc))
            return True
        except InvalidInputError as exc:
            self._drop("invalid", str(exc))
            return True
        except StoreError as exc:
            self._health.failed(exc)
            if exc.transient and int(self._param("store_retry_frames")) > 0:
                return False
            self._drop(f"store_{exc.state}", str(exc))
            return True
        except TempoMemError as exc:
            self._drop("store", str(exc))
            return True
        except Exception as exc:  # noqa: BLE001
            self._drop("error", f"{type(exc).__name__}: {exc}")
            return True
        self._health.ok()
        self._counters.count(staged_frames=1, staged_observations=len(observations),
                             quarantined=int(result.status == "quarantined"), released=len(result.released),
                             refused=len(result.refused))
        if result.status == "quarantined":
            self._logger.warning(
                f"frame stamped {stamp:.3f} is more than gates.max_stamp_jump_s ahead of the memory's newest "
                "stamp: quarantined until the following frames confirm the new time", throttle_duration_sec=5.0)
        return True

    def _queue_for_retry(self, item) -> None:
        if len(self.retry) >= int(self._param("store_retry_frames")):
            self._drop(f"store_{self._health.state}",
                       f"retry queue full ({len(self.retry)} frames): {self._health.error}")
            return
        self.retry.append(item)

    def flush(self) -> None:
        """Stage queued frames in arrival order until the store refuses one again."""
        with self._retry_lock:
            self._flush_locked()

    def close(self) -> None:
        """At close of the store: stage what waits; frames the store still refuses are reported lost and let go."""
        self.stop()
        self.flush()
        if self.retry:
            self._logger.error(f"{len(self.retry)} received frame(s) were never stored: the store still refuses "
                               f"writes ({self._health.error})")
            self.retry.clear()

    def _flush_locked(self) -> None:
        while self.retry:
            if not self._stage(self.retry[0]):
                return
            self.retry.popleft()
            self._counters.count(retried=1)

    def _drop(self, reason: str, detail: str) -> None:
        self._counters.drop(reason, f"dropped ({reason}): {detail}")
        self._logger.warning(f"observation message dropped ({reason}): {detail}", throttle_duration_sec=2.0)
