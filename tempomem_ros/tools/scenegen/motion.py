"""Camera motion in time: walking, turning on the spot, sweeping, holding still; sampled at the camera rate.

Why time-based: a robot's camera moves at a bounded speed whatever its frame rate, so the frame rate
(5-15 Hz, drawn per scene) must change how many frames see a place, not how fast the camera moves. The
old planner spread a fixed number of frames over the path, i.e. it teleported 0.4 m and 7.5 deg between
frames at 3 Hz. Here a path is a list of segments with durations: walking at ``walk_speed`` (0.5 m/s),
turning on the spot at most ``MAX_TURN_DEG_S`` (45 deg/s), sweeping at the visit's turn rate with a slow
nod of the head; frames are taken every 1/fps seconds along it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MAX_TURN_DEG_S = 45.0        # turning on the spot (and the fastest sweep)
BASE_PITCH = -0.33           # rad: the camera looks about 19 deg down while walking and sweeping
NOD_AMPLITUDE = 0.13         # rad: while sweeping the head nods by +-7.5 deg ...
NOD_PERIOD_S = 3.2           # ... with this period, so that low and high surfaces are both seen


def wrap(angle: float) -> float:
    """The angle in (-pi, pi]."""
    a = math.fmod(angle + math.pi, 2 * math.pi)
    if a <= 0:
        a += 2 * math.pi
    return a - math.pi


@dataclass(frozen=True)
class Turn:
    """Turning on the spot from yaw0 by ``arc`` (signed, radians) in ``seconds``; ``nod`` adds the head nod."""

    xy: tuple[float, float]
    z: float
    yaw0: float
    arc: float
    seconds: float
    pitch0: float = BASE_PITCH
    pitch1: float = BASE_PITCH
    nod: bool = False

    @property
    def duration(self) -> float:
        return self.seconds

    def at(self, tau: float):
        d = self.duration
        f = 0.0 if d <= 0 else min(1.0, max(0.0, tau / d))
        pitch = self.pitch0 + (self.pitch1 - self.pitch0) * f
        if self.nod and d > 0:
            pitch += NOD_AMPLITUDE * math.sin(2 * math.pi * tau / NOD_PERIOD_S) * math.sin(math.pi * f)
        return (self.xy[0], self.xy[1], self.z), self.yaw0 + self.arc * f, pitch


@dataclass(frozen=True)
class Walk:
    """Walking straight from a to b at ``speed`` m/s, looking where it goes (or at ``yaw`` if given)."""

    a: tuple[float, float]
    b: tuple[float, float]
    z: float
    speed: float
    yaw: float | None = None
    pitch: float = BASE_PITCH

    @property
    def duration(self) -> float:
        return math.hypot(self.b[0] - self.a[0], self.b[1] - self.a[1]) / self.speed

    @property
    def heading(self) -> float:
        if self.yaw is not None:
            return self.yaw
        return math.atan2(self.b[1] - self.a[1], self.b[0] - self.a[0])

    def at(self, tau: float):
        d = self.duration
        f = 0.0 if d <= 0 else min(1.0, max(0.0, tau / d))
        x = self.a[0] + (self.b[0] - self.a[0]) * f
        y = self.a[1] + (self.b[1] - self.a[1]) * f
        return (x, y, self.z), self.heading, self.pitch


@dataclass(frozen=True)
class Hold:
    """Standing still, looking at yaw/pitch, with a slight sway of the head (as a hand-held or mast camera)."""

    xy: tuple[float, float]
    z: float
    yaw: float
    pitch: float
    seconds: float
    sway: float = math.radians(1.5)

    @property
    def duration(self) -> float:
        return self.seconds

    def at(self, tau: float):
        s = self.sway * math.sin(2 * math.pi * tau / 1.7)
        return (self.xy[0], self.xy[1], self.z), self.yaw + s, self.pitch + 0.5 * s


def turn_to(xy, z, yaw_from: float, yaw_to: float, pitch_from: float = BASE_PITCH,
            pitch_to: float = BASE_PITCH) -> Turn | None:
    """The shortest turn on the spot (at MAX_TURN_DEG_S) from one heading to another; None if already there."""
    arc = wrap(yaw_to - yaw_from)
    seconds = max(abs(arc), abs(pitch_to - pitch_from)) / math.radians(MAX_TURN_DEG_S)
    if seconds < 1e-6:
        return None
    return Turn(tuple(xy), z, yaw_from, arc, seconds, pitch_from, pitch_to)


def sweep(xy, z, yaw0: float, arc: float, rate_deg_s: float, nod: bool = True) -> Turn:
    """A slow turn that looks around (with the head nod), ``arc`` radians at ``rate_deg_s``."""
    return Turn(tuple(xy), z, yaw0, arc, abs(arc) / math.radians(rate_deg_s), BASE_PITCH, BASE_PITCH, nod)


def end_state(segment):
    pos, yaw, pitch = segment.at(segment.duration)
    return pos, yaw, pitch


def duration(segments) -> float:
    return float(sum(s.duration for s in segments))


def sample(segments, fps: float) -> list[tuple[float, tuple[float, float, float], float, float]]:
    """(t, position, yaw, pitch) every 1/fps seconds from t = 0 to the end of the path (inclusive)."""
    ends = np.cumsum([s.duration for s in segments])
    total = float(ends[-1]) if len(ends) else 0.0
    out = []
    n = int(math.floor(total * fps + 1e-9))
    for k in range(n + 1):
        t = k / fps
        i = min(int(np.searchsorted(ends, t, side="right")), len(segments) - 1)
        start = float(ends[i] - segments[i].duration)
        pos, yaw, pitch = segments[i].at(t - start)
        out.append((t, (round(float(pos[0]), 4), round(float(pos[1]), 4), round(float(pos[2]), 4)),
                    float(yaw), float(pitch)))
    return out
