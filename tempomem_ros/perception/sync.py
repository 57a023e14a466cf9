"""Match messages of several streams by stamp (the fallback when message_filters is unavailable).

Why our own: message_filters is not installable from any registry here, and the node needs only
"deliver the depth, mask and pose (and maybe colour) of one instant together". Stamps are integer
nanoseconds so that equal stamps compare equal exactly.

Rule: when a message arrives, each other stream is searched for the message whose stamp is nearest to
it; if every stream has one within ``slop``, the set is delivered and every buffered message at or
before the matched ones is discarded (an older frame can no longer be completed in order). Buffers are
bounded (``queue_size`` per stream, oldest evicted first), so a stream that stops publishing cannot
grow memory. Discarded and evicted messages are counted, for diagnostics.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from tempomem_ros.perception.errors import ConfigError


class StampSynchronizer:
    """Bounded, stamp-keyed matcher of one message per stream."""

    def __init__(self, streams: Sequence[str], slop_ns: int, queue_size: int = 10) -> None:
        streams = tuple(streams)
        if len(streams) < 1 or len(set(streams)) != len(streams):
            raise ConfigError(f"streams must be distinct names, got {streams!r}")
        if isinstance(slop_ns, bool) or not isinstance(slop_ns, int) or slop_ns < 0:
            raise ConfigError(f"slop_ns must be a non-negative integer, got {slop_ns!r}")
        if isinstance(queue_size, bool) or not isinstance(queue_size, int) or queue_size < 1:
            raise ConfigError(f"queue_size must be a positive integer, got {queue_size!r}")
        self.streams = streams
        self.slop_ns = slop_ns
        self.queue_size = queue_size
        self._queues: dict[str, deque[tuple[int, Any]]] = {s: deque() for s in streams}
        self.discarded = 0  # messages that never became part of a delivered set

    def add(self, stream: str, stamp_ns: int, message: Any) -> dict[str, Any] | None:
        """Buffer one message; return {stream: message} when it completes a set, else None."""
        if stream not in self._queues:
            raise ConfigError(f"unknown stream {stream!r}; expected one of {self.streams}")
        queue = self._queues[stream]
        if len(queue) >= self.queue_size:
            queue.popleft()
            self.discarded += 1
        queue.append((int(stamp_ns), message))
        matched: dict[str, tuple[int, Any]] = {stream: (int(stamp_ns), message)}
        for other in self.streams:
            if other == stream:
                continue
            best = None
            for entry in self._queues[other]:
                gap = abs(entry[0] - stamp_ns)
                if gap <= self.slop_ns and (best is None or gap < abs(best[0] - stamp_ns)):
                    best = entry
            if best is None:
                return None
            matched[other] = best
        for name, (stamp, item) in matched.items():
            kept = deque()
            for entry in self._queues[name]:
                if entry[0] > stamp:
                    kept.append(entry)
                elif entry[1] is not item:
                    self.discarded += 1
            self._queues[name] = kept
        return {name: item for name, (_, item) in matched.items()}

    def pending(self) -> dict[str, int]:
        """Buffered message count per stream."""
        return {name: len(queue) for name, queue in self._queues.items()}
