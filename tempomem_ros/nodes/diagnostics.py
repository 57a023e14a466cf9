"""Diagnostics: one DiagnosticArray builder for both nodes, and for each node the level, message and values it
reports (the memory node's counters live here too)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

OK, WARN, ERROR = DiagnosticStatus.OK, DiagnosticStatus.WARN, DiagnosticStatus.ERROR


def status_array(name: str, hardware_id: str, level, message: str, values: dict, stamp) -> DiagnosticArray:
    """A DiagnosticArray of one status; every value is sent as text, in the order given."""
    status = DiagnosticStatus(name=name, hardware_id=hardware_id, level=level, message=message)
    status.values = [KeyValue(key=k, value=str(v)) for k, v in values.items()]
    array = DiagnosticArray(status=[status])
    array.header.stamp = stamp
    return array


@dataclass
class NodeCounters:
    """What the diagnostics report. The counts are updated through ``count``, ``drop`` and ``refuse``, under one lock.

    Why a lock: the subscription's callback, the node's staging thread (nodes/frame_ingest.py), the commit timer's
    flush of the retry queue and the query services' threads update them at once, and a read-modify-write is not
    atomic under the GIL (two threads dropping 200,000 frames each counted 358,962): a lost ``handled`` hangs every
    wait on it (tools/evaluation/pipeline.py, test/node_helpers.py), a lost drop hides a loss."""

    received: int = 0
    handled: int = 0  # received and either staged or dropped
    staged_frames: int = 0
    staged_observations: int = 0
    dropped: dict = field(default_factory=dict)  # reason -> count
    commits: int = 0
    commit_errors: int = 0
    last_commit_ms: float = 0.0
    graphs_published: int = 0
    last_publish_ms: float = 0.0
    events_published: int = 0
    last_error: str = ""
    quarantined: int = 0   # frames the memory quarantined (stamp jump) ...
    released: int = 0      # ... and later released (confirmed) ...
    refused: int = 0       # ... or refused (not confirmed)
    refused_requests: dict = field(default_factory=dict)  # service -> count
    retried: int = 0       # frames staged from the retry queue
    store_pending: int | None = None  # a node that does not fuse: the store's staged frames at its last tick
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def count(self, **increments: int) -> None:
        """Add to counts by name (``count(handled=1)``), all at once."""
        with self._lock:
            for name, n in increments.items():
                setattr(self, name, getattr(self, name) + n)

    def drop(self, reason: str, error: str | None = None) -> None:
        """One message dropped for ``reason``; ``error`` becomes last_error."""
        with self._lock:
            self.dropped[reason] = self.dropped.get(reason, 0) + 1
            if error is not None:
                self.last_error = error

    def refuse(self, service: str) -> None:
        """One request to ``service`` refused."""
        with self._lock:
            self.refused_requests[service] = self.refused_requests.get(service, 0) + 1

    def by_reason(self) -> tuple[dict, dict]:
        """Copies of (dropped, refused_requests), read under the lock (a dict iterated while a new reason is added
        raises)."""
        with self._lock:
            return dict(self.dropped), dict(self.refused_requests)


def memory_status(c: NodeCounters, health, new_commit_errors: int, unfused: int = 0) -> tuple:
    """The memory node's level and message: ERROR while the store refuses writes or when commits failed since
    the last report, WARN while staged frames wait unfused (``unfused``: a node that does not fuse saw no fewer
    staged frames than at its last report) or once messages were dropped, else OK.

    Why the unfused warning: a node with fuse_staged false answers from what the fleet's fuser fused; with the
    fuser down or behind, its answers stand still while its frames pile up, and it said "ok" (review of stop 34)."""
    dropped = sum(c.by_reason()[0].values())
    if health.state != "ok":
        return ERROR, f"store {health.state}: {health.error}"[:300]
    if new_commit_errors:
        return ERROR, f"{new_commit_errors} commit error(s)"
    if unfused:
        return WARN, (f"{unfused} staged frame(s) wait to be fused, no fewer than at the last report: is the "
                      "fleet's fuser (tempomem fuse, or a node with fuse_staged true) running?")
    if dropped:
        return WARN, f"{dropped} message(s) dropped"
    return OK, "ok"


def unfused(pending: int | None, before: int | None) -> int:
    """The staged frames to warn of: those a node that does not fuse sees waiting now, when it saw no fewer at its
    last report (a fuser keeping up brings the count down between reports; one down or behind does not)."""
    return pending if pending and before is not None and pending >= before else 0


def memory_values(c: NodeCounters, health, retry_queue: int, publishers: int, waiting: int | None = None) -> dict:
    """The memory node's /diagnostics values, in the order they are reported (dropped and refused by reason last)."""
    dropped, refused = c.by_reason()
    values = {
        "received": c.received,
        "staged_frames": c.staged_frames,
        "staged_observations": c.staged_observations,
        "dropped": sum(dropped.values()),
        "commits": c.commits,
        "commit_errors": c.commit_errors,
        "last_commit_ms": f"{c.last_commit_ms:.2f}",
        "graphs_published": c.graphs_published,
        "last_publish_ms": f"{c.last_publish_ms:.2f}",
        "events_published": c.events_published,
        "last_error": c.last_error,
        "store_state": health.state,
        "store_error": health.error,
        "retry_queue": retry_queue,
        "retried": c.retried,
        "quarantined": c.quarantined,
        "quarantine_released": c.released,
        "quarantine_refused": c.refused,
        "observation_publishers": publishers,
        "refused_requests": sum(refused.values()),
    }
    if waiting is not None:  # received, waiting in the node's inbox to be staged (nodes/frame_ingest.py)
        values["ingest_waiting"] = waiting
    if c.store_pending is not None:
        values["store_pending_frames"] = c.store_pending
    values.update({f"dropped.{k}": v for k, v in sorted(dropped.items())})
    values.update({f"refused_requests.{k}": v for k, v in sorted(refused.items())})
    return values


def perception_status(new_drops: int, new_synced: int, new_published: int, drops: dict,
                      camera_info_received: bool) -> tuple:
    """The perception node's level and message: WARN when frames were dropped since the last report (or no
    camera_info came yet), else OK with what was published since."""
    if new_drops:
        reasons = ", ".join(f"{k}={v}" for k, v in drops.items() if v)
        return WARN, f"dropped {new_drops} of {new_synced} frames since the last report ({reasons})"
    if not camera_info_received:
        return WARN, "no camera_info received yet"
    return OK, f"published {new_published} frames since the last report"


def perception_values(counters: dict, drops: dict, instance_drops: dict, feature_errors: int, sync_discarded: int,
                      last_processing_ms: float, camera_info_received: bool) -> dict:
    """The perception node's /diagnostics values: its counters, then frame drops and instance drops by reason."""
    values = {**counters}
    values.update({f"drop_{k}": v for k, v in drops.items()})
    values.update({f"instances_dropped_{k}": v for k, v in instance_drops.items()})
    values["feature_extractor_errors"] = feature_errors
    values["sync_discarded"] = sync_discarded
    values["last_processing_ms"] = round(last_processing_ms, 3)
    values["camera_info_received"] = camera_info_received
    return values
