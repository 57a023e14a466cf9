"""How times, positions and durations read in answers and interpretations (one format everywhere).

Why UTC with the date: a robot's log, a replayed bag and a user in another time zone must read the same
answer the same way; the memory has no notion of the user's local time.
"""

from __future__ import annotations

import datetime as dt


def fmt_time(t: float | None) -> str:
    if t is None:
        return "unknown time"
    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def fmt_pos(p) -> str:
    return f"({p[0]:.2f}, {p[1]:.2f}, {p[2]:.2f})"


def fmt_duration(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def article(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"
