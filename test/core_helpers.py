"""Builders shared by the core tests: observations of boxes, and camera views that look at a place.

Why a tiny renderer: absence evidence depends on what a view's depth says at an object's pixels, so the
tests need views whose depth is exactly "the place is empty (a wall behind it)" or "something nearer
hides it", computed from the same pinhole model the memory uses.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

import numpy as np

from tempomem_ros.core import CameraView, Memory, Observation
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.relations_store import RelationKeeper
from tempomem_ros.core.store import Store
from tempomem_ros.core.store.graph_writes import GraphWrites, WriteState
from tempomem_ros.core.store.schema import open_connection, sqlite3

W, H, F = 640, 480, 500.0
DEPTH_SCALE = 8  # coarse depth is W/8 x H/8


def look_at(eye, target) -> np.ndarray:
    """World-from-camera pose of an optical frame (x right, y down, z forward) looking at target."""
    eye = np.asarray(eye, float)
    z = np.asarray(target, float) - eye
    z /= np.linalg.norm(z)
    x = np.cross(z, np.array([0.0, 0.0, 1.0]))
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    pose = np.eye(4)
    pose[:3, 0], pose[:3, 1], pose[:3, 2], pose[:3, 3] = x, y, z, eye
    return pose


def view(stamp: float, target, depth: float, eye=(0.0, 0.0, 1.0), max_range: float = 6.0) -> CameraView:
    """A camera at eye looking at target whose whole coarse depth image reads ``depth`` metres."""
    d = np.full((H // DEPTH_SCALE, W // DEPTH_SCALE), depth, np.float32)
    return CameraView(look_at(eye, target), F, F, W / 2, H / 2, W, H, max_range, d, stamp)


def render_view(stamp: float, eye, target, boxes, wall: float = 8.0, max_range: float = 6.0) -> CameraView:
    """A camera at eye looking at target whose coarse depth shows the given (lo, hi) boxes in front of a wall
    ``wall`` metres away (z-depth of each pixel centre's ray where it enters the nearest box)."""
    pose = look_at(eye, target)
    h, w = H // DEPTH_SCALE, W // DEPTH_SCALE
    u, v = np.meshgrid((np.arange(w) + 0.5) * DEPTH_SCALE, (np.arange(h) + 0.5) * DEPTH_SCALE)
    rays = np.stack([(u - W / 2) / F, (v - H / 2) / F, np.ones_like(u)], axis=-1) @ pose[:3, :3].T
    depth = np.full((h, w), wall, np.float64)
    origin = pose[:3, 3]
    for lo, hi in boxes:
        with np.errstate(divide="ignore", invalid="ignore"):
            t1, t2 = (np.asarray(lo, float) - origin) / rays, (np.asarray(hi, float) - origin) / rays
        t_in = np.nanmax(np.minimum(t1, t2), axis=-1)
        t_out = np.nanmin(np.maximum(t1, t2), axis=-1)
        hit = (t_in > 0) & (t_out >= t_in)
        depth = np.where(hit, np.minimum(depth, t_in), depth)
    return CameraView(pose, F, F, W / 2, H / 2, W, H, max_range, depth.astype(np.float32), stamp)


def looked(mem: Memory, stamps, boxes, target, eye=(0.0, 0.0, 1.0)) -> None:
    """One look: a frame at each stamp from ``eye`` towards ``target`` that reports nothing, its depth showing only
    the given (lo, hi) boxes (render_view); then a commit. The partial-look tests (test_core_partial_looks*.py)."""
    for t in stamps:
        mem.add([], render_view(t, eye, target, boxes))
    mem.commit()


def miss_fractions(mem: Memory) -> list[float]:
    """The visible fraction of every miss counted, in stamp order (to 2 places)."""
    return [round(r[0], 2) for r in mem._conn.execute("SELECT visible_fraction FROM misses ORDER BY stamp")]


def removals(mem: Memory) -> list[tuple[str, float]]:
    """(kind, stamp to 0.1 s) of every "removed" and "reappeared" event, in order."""
    return [(e.kind, round(e.stamp, 1)) for e in mem.changes() if e.kind in ("removed", "reappeared")]


def box_obs(label, center, half=(0.04, 0.04, 0.05), stamp=0.0, conf=0.9, feature=None) -> Observation:
    c = np.asarray(center, float)
    h = np.asarray(half, float)
    return Observation(label, conf, tuple(c), tuple(c - h), tuple(c + h), float(stamp),
                       None if feature is None else np.asarray(feature, np.float32))


def span_obs(label, bmin, bmax, stamp=0.0, conf=0.9, feature=None) -> Observation:
    bmin = np.asarray(bmin, float)
    bmax = np.asarray(bmax, float)
    return Observation(label, conf, tuple((bmin + bmax) / 2), tuple(bmin), tuple(bmax), float(stamp),
                       None if feature is None else np.asarray(feature, np.float32))


def unit(v) -> np.ndarray:
    v = np.asarray(v, np.float32)
    return v / np.linalg.norm(v)


def distance_from_eye(point, eye=(0.0, 0.0, 1.0)) -> float:
    return float(np.linalg.norm(np.asarray(point, float) - np.asarray(eye, float)))


def look_again(mem: Memory, sighting, target, depth: float) -> None:
    """A look 2.5 minutes after a thing was seen at ``target`` (``depth`` from the eye): every frame reports
    ``sighting(t)`` (or nothing); then a commit. test_core_neighbour_held and test_core_held_in_misses."""
    for t in (287.0, 287.25, 287.5, 287.75, 288.0, 288.25, 288.5, 289.0, 290.5):
        mem.add(sighting(t), view(t, target, depth))
    mem.commit()


def side_by_side(mem: Memory, label: str, at, beside, half, depth: float) -> None:
    """Two things of one kind side by side (``half`` each), seen together for 8 s by a camera on ``at`` (``depth``
    from the eye); then a commit. test_core_neighbour_held and test_core_held_in_misses."""
    for t in (0.0, 0.5, 1.0, 1.5, 2.0, 4.0, 6.0, 8.0):
        mem.add([box_obs(label, at, half, stamp=t), box_obs(label, beside, half, stamp=t)], view(t, at, depth))
    mem.commit()


# The memory as it decided before holds existed: an object is shown from its first sighting, "appeared" and
# "removed" are published at once, and no appearance waits for a look-alike's old place to be seen. Tests of
# other mechanisms (relations, queries, storage) use it so that one sighting is one object; the holds
# themselves are tested with the defaults (test_core_holds.py).
IMMEDIATE = {"identity": {"confirm_observations": 1, "appear_hold_s": 0.0, "reconcile_window_s": 0.0,
                          "mover_window_s": 0.0},
             "absence": {"removal_hold_s": 0.0}}


def memory_with_identity(store, **identity) -> Memory:
    """A memory under IMMEDIATE with these identity settings (a rule switched on or off), in ``store("m")``."""
    cfg = copy.deepcopy(IMMEDIATE)
    cfg["identity"].update(identity)
    return Memory.open(store("m"), embedding_dim=4, config=cfg)


@dataclass(frozen=True)
class Between:
    """Two things of one label side by side, a box between them, and the eye's view of all three, its depth 5 cm
    behind them: the scene of the chimera tests (an object fused from views of the two, left between them)."""

    label: str
    left: tuple
    middle: tuple
    right: tuple
    at: tuple

    def camera(self, stamp: float) -> CameraView:
        return view(stamp, self.at, distance_from_eye(self.at) + 0.05)

    def three_in_one_frame(self, mem: Memory, middle_label: str) -> None:
        """Three frames reporting the two things and the one between (objects 1, 2, 3, each pair seen together)."""
        for i in range(3):
            t = 0.5 * i
            mem.add([span_obs(self.label, *self.left, stamp=t), span_obs(middle_label, *self.middle, stamp=t),
                     span_obs(self.label, *self.right, stamp=t)], self.camera(t))
            mem.commit()
        assert [(o.id, o.label, o.state) for o in mem.objects()] == \
            [(1, self.label, "present"), (2, middle_label, "present"), (3, self.label, "present")]

    def both_seen(self, mem: Memory, start: float = 300.0, frames: int = 8) -> None:
        """``frames`` frames, 0.5 s apart from ``start``, reporting the two things alone (the middle's place seen)."""
        for i in range(frames):
            t = start + 0.5 * i
            mem.add([span_obs(self.label, *self.left, stamp=t), span_obs(self.label, *self.right, stamp=t)],
                    self.camera(t))
            mem.commit()


def live(mem: Memory) -> list[tuple[int, str, str]]:
    """(id, label, state) of every object not forgotten."""
    return [(o.id, o.label, o.state) for o in mem.objects() if o.state != "forgotten"]


def twin_joins(mem: Memory) -> list[dict]:
    """The detail of every join of two objects as one (audit action merge_twin), in order."""
    return [json.loads(r[0]) for r in mem._conn.execute("SELECT detail FROM audit WHERE action = 'merge_twin'")]


def make_version5(path: str) -> None:
    """Turn a SQLite store into what schema version 5 wrote (before sources: no source columns or indexes,
    no world frame in meta), as an old store on disk would be."""
    import sqlite3

    con = sqlite3.connect(path)
    for index in ("frames_source", "observations_source"):
        con.execute(f"DROP INDEX IF EXISTS {index}")  # version 15 has none
    for table in ("frames", "observations", "audit"):
        con.execute(f"ALTER TABLE {table} DROP COLUMN source")
    con.execute("DELETE FROM meta WHERE key='world_frame'")
    con.execute("UPDATE meta SET value='5' WHERE key='schema_version'")
    con.commit()
    con.close()


def dump_tables(path: str) -> dict:
    """Every table of a store file, every row, in the stored order: two stores compare equal only if each service
    wrote exactly the same rows (a service on a bare store against the facade)."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {n: conn.execute(f"SELECT * FROM {n}").fetchall() for n in names}
    finally:
        conn.close()


class BareWriteSide:
    """The write side's shared parts on a bare connection to a store file, without the Memory facade, under IMMEDIATE:
    the store, the relation keeper, the WriteState and GraphWrites (the service tests build a service on them).
    ``now``: the memory's stamp clock; ``wall``: the wall clock of every write."""

    def __init__(self, path: str, *, now: float, wall: float):
        self.conn, _ = open_connection(path, False)
        self.conn.row_factory = sqlite3.Row
        self.config = MemoryConfig.from_dict(IMMEDIATE)
        self.store = Store(self.conn, clock=lambda: wall)
        self.relations = RelationKeeper(self.store, self.config.relations)
        self.state = WriteState()
        self.graph = GraphWrites(self.store, self.relations, self.config.relations, self.state, now=lambda: now,
                                 wall_clock=lambda: wall)

    def rows(self, sql: str, *args) -> list[tuple]:
        return [tuple(r) for r in self.conn.execute(sql, args)]

    def close(self) -> None:
        self.conn.close()


def kinds(m: Memory) -> list[tuple[str, int]]:
    """The memory's events as (kind, object id), in order."""
    return [(e.kind, e.object_id) for e in m.changes()]


def mug_removed(mem: Memory, at) -> None:
    """Object 1, a mug at `at` (confirmed: three sightings over 1 s), its place seen empty 600 s later: removed.
    The place is seen 4 cm behind the mug while it stands there and 1 m behind it (the wall) once it is gone."""
    seen, empty = distance_from_eye(at) + 0.04, distance_from_eye(at) + 1.0
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", at, stamp=t)], view(t, at, seen))
    for t in (600.0, 600.5, 601.0, 602.5):
        mem.add([], view(t, at, empty))
    mem.commit()
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "missing")]


def cup_read_mug_moved(mem: Memory, labels_at_a, a, b) -> None:
    """The story the naming tests tell (test_core_temporal, test_core_event_names): one sighting per label of
    ``labels_at_a`` at ``a`` (it stays "cup": the relabel margin), a's place seen empty three times, then a "cup" and
    eight "mug" sightings at ``b``."""
    da, db = distance_from_eye(a), distance_from_eye(b)
    for i, label in enumerate(labels_at_a):
        mem.add([box_obs(label, a, stamp=10 + i, conf=0.6)], view(10 + i, a, da + 0.04))
        mem.commit()
    assert mem.get(1).label == "cup"
    for i in range(3):
        mem.add([], view(20 + i, a, da + 1.0))
        mem.commit()
    mem.add([box_obs("cup", b, stamp=30, conf=0.6)], view(30, b, db + 0.04))
    mem.commit()
    for i in range(8):
        mem.add([box_obs("mug", b, stamp=31 + i, conf=0.9)], view(31 + i, b, db + 0.04))
        mem.commit()
