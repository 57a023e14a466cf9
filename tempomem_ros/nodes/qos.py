"""QoS profiles shared by the tempomem nodes.

Why sensor topics default to RELIABLE (not the usual ROS "sensor data" best effort): measured on this
project's machines (docs: ENVIRONMENT.md), best-effort dropped 102 of 105 640x480 frames at 20 Hz
between two processes, because a large image is many DDS fragments and losing any one drops the frame.
The memory needs every frame it can get (each is presence or absence evidence), and a slow consumer
is handled by the small KEEP_LAST depth instead. Reliability stays a parameter because a RELIABLE
subscription does not match a BEST_EFFORT publisher: a driver that publishes best effort (many camera
drivers do) needs ``qos_reliability: best_effort`` on our side, or no message arrives at all.

Why a latched profile: the memory's scene graph and regions are state, not a stream; TRANSIENT_LOCAL
lets a late subscriber (RViz started after the memory) receive the latest one.
"""

from __future__ import annotations

from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

RELIABILITIES = ("reliable", "best_effort")


def reliability_policy(name: str) -> ReliabilityPolicy:
    """'reliable' | 'best_effort' -> ReliabilityPolicy; anything else is a clear ValueError."""
    if name == "reliable":
        return ReliabilityPolicy.RELIABLE
    if name == "best_effort":
        return ReliabilityPolicy.BEST_EFFORT
    raise ValueError(f"QoS reliability must be one of {RELIABILITIES}, got {name!r}")


def _keep_last(depth: int, reliability: str, durability: DurabilityPolicy) -> QoSProfile:
    """KEEP_LAST ``depth``, the reliability named, the durability given: the profiles below share it so that the
    depth rule and its message stand once. The depth is checked before the reliability, as it always was (a call
    with both wrong names the depth)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"QoS depth must be a positive integer, got {depth!r}")
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=depth, reliability=reliability_policy(reliability),
                      durability=durability)


def sensor_qos(reliability: str = "reliable", depth: int = 10) -> QoSProfile:
    """Profile for camera streams: KEEP_LAST ``depth``, VOLATILE, reliability as configured."""
    return _keep_last(depth, reliability, DurabilityPolicy.VOLATILE)


def latched_qos(depth: int = 1) -> QoSProfile:
    """Profile for state topics: RELIABLE + TRANSIENT_LOCAL, KEEP_LAST ``depth`` (late joiners get it)."""
    return _keep_last(depth, "reliable", DurabilityPolicy.TRANSIENT_LOCAL)


def events_qos(depth: int = 100) -> QoSProfile:
    """Profile for the memory's change events: RELIABLE, KEEP_LAST ``depth``, the rmw's default durability."""
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=depth, reliability=ReliabilityPolicy.RELIABLE)


def reliable_qos(depth: int = 10) -> QoSProfile:
    """Profile for result streams that must not lose messages (observations, change events)."""
    return sensor_qos("reliable", depth)


def output_qos(durability: str = "transient_local", depth: int = 50) -> QoSProfile:
    """Profile for the observation stream: RELIABLE, KEEP_LAST ``depth``, durability as configured.

    Why transient local by default: a restarted or late-discovered memory_node receives the frames it
    missed, up to ``depth`` of them (it deduplicates frames it already has); a volatile subscriber still
    matches a transient-local publisher (the reverse does not match).
    """
    if durability not in ("transient_local", "volatile"):
        raise ValueError(f"durability must be transient_local or volatile, got {durability!r}")
    kept = DurabilityPolicy.TRANSIENT_LOCAL if durability == "transient_local" else DurabilityPolicy.VOLATILE
    return _keep_last(depth, "reliable", kept)
