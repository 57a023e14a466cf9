"""A miss counts only where the perception could have reported the object (absence.hidden_near_edge,
absence.edge_pose_deg / edge_place_m; reported_views.reported_near's ``need``, absence.reported_view_sightings).

Why: h460 seeds 465 and 467 (default): of 5 false removals, 3 were misses counted while the object stood 92-100 %
hidden just behind an occluder's edge (its stored box and the pose a few pixels off, the 8 x 8-block depth beside the
edge reading the wall behind the occluder), and 1 was keys at 4.7-4.9 m vouched for by a single lucky 23 px
sighting from near that camera."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from core_helpers import box_obs, look_at, render_view

from tempomem_ros.core.absence import hidden_near_edge, visible_fractions
from tempomem_ros.core import Memory
from tempomem_ros.core.config import AbsenceConfig, MemoryConfig
from tempomem_ros.core.types import CameraView

EYE = (0.0, 0.0, 1.0)
MUG = (3.0, 0.0, 1.0)                       # the stored box: centred here, 8 x 8 x 10 cm
HALF = (0.04, 0.04, 0.05)
LO, HI = np.subtract(MUG, HALF), np.add(MUG, HALF)
# A board 1 m in front of the mug whose edge, seen from EYE, passes 2.5 cm beside the stored box's centre, just
# outside its samples (y -0.02, 0, 0.02): the mug really stands 6.5 cm to that side (y 0.025 ... 0.105), wholly
# behind the board; the stored box is 10.8 px off at this camera's 500 px focal length (5.5 px at the scenes' 256).
BOARD = ((1.9, 2.0 * 0.025 / 3.0, 0.0), (2.0, 1.0, 2.0))
# Nothing near: the same board 0.5 m further to the side.
FAR_BOARD = ((1.9, 0.5, 0.0), (2.0, 1.5, 2.0))
# The rule is off by default (stop 49: on, it cost 21 questions over 7 development sets, docs/MEMORY.md): these
# tests switch it on at its measured reach.
ON = dataclasses.replace(AbsenceConfig(), edge_pose_deg=0.8, edge_place_m=0.02)
ON_CONFIG = {"absence": {"edge_pose_deg": 0.8, "edge_place_m": 0.02}}


def fractions(view, cfg=ON, lo=LO[None], hi=HI[None]):
    return float(visible_fractions(view, lo, hi, cfg, detectable=np.ones(1, bool))[0])


@pytest.mark.parametrize("eye_z, seen", [(1.4, 4 / 9), (1.2, 4 / 9), (1.0, 6 / 9)])
def test_behind_an_occluders_edge_with_the_box_a_few_pixels_off_no_sample_is_seen_empty(eye_z, seen):
    # The pipeline's depth (each 8 x 8 block's nearest pixel) with the board's edge 1.5 cm outside the stored box
    # (2.5 px): without the rule every sample is seen through. With it, from above the mug (the scenes' camera is
    # at 1.4 m), the 5 samples within the expected error (10.3 px at 3 m) of the board's blocks are hidden: 4 of 9
    # seen, under min_visible_fraction. The price of reading a block's surface at its lowest possible height (a
    # table top's nearest pixel is its block's bottom row): from the mug's own height its lower samples' rays meet
    # the board under the mug's bottom + tolerance, and their blocks may be what it stands on: 6 of 9 seen.
    board = ((1.9, 2.0 * 0.055 / 3.0, 0.0), (2.0, 1.0, 2.0))
    view = scene_view((0.0, 0.0, eye_z), MUG, [board], 640, 480, 500.0)
    off = dataclasses.replace(AbsenceConfig(), edge_pose_deg=0.0, edge_place_m=0.0)
    assert fractions(view, off) == 1.0          # without the rule: "seen, nothing there" at every sample
    assert fractions(view) == seen


def test_in_open_view_with_nothing_near_every_sample_is_seen_empty():
    for boxes in ([], [FAR_BOARD]):
        view = render_view(0.0, EYE, MUG, boxes)
        assert fractions(view) == 1.0


def test_reach_scales_with_range_and_a_support_below_is_no_occluder():
    view = render_view(0.0, EYE, MUG, [BOARD])
    u = np.array([[view.width / 2.0]])
    v = np.array([[view.height / 2.0]])
    near = hidden_near_edge(view, u, v, np.array([[3.0]]), np.array([[2.96]]), np.array([0.95]),
                            np.ones((1, 1), bool), ON)
    # the board's edge is 4.2 px from the image centre's ray: within reach (10.3 px at 3 m)
    assert near.tolist() == [[True]]
    # the same nearer surface at or under the object's bottom (what it stands on) hides nothing
    under = hidden_near_edge(view, u, v, np.array([[3.0]]), np.array([[2.96]]), np.array([2.5]),
                             np.ones((1, 1), bool), ON)
    assert under.tolist() == [[False]]
    # 2 px right of the centre the board's last block (u 304-312) lies 10 px away: within reach at 3 m (10.3 px),
    # beyond it at 6 m (8.6 px) and with the rule off
    right = u + 2.0
    at = [hidden_near_edge(view, right, v, np.array([[z]]), np.array([[2.96]]), np.array([0.95]),
                           np.ones((1, 1), bool), cfg).tolist()
          for z, cfg in ((3.0, ON), (6.0, ON),
                         (3.0, dataclasses.replace(AbsenceConfig(), edge_pose_deg=0.0, edge_place_m=0.0)))]
    assert at == [[[True]], [[False]], [[False]]]


def cup_on_a_table(mem, occluder) -> list[tuple[str, str]]:
    """A cup on a table seen three times from above, then looked at for two looks (its place behind ``occluder``'s
    edge or in open view, the cup gone either way), then a frame looking elsewhere ends the removal's hold."""
    eye = (0.0, 0.0, 1.6)
    table = ((2.5, -0.6, 0.0), (3.5, 0.6, 0.95))
    lo, hi = np.subtract(MUG, HALF), np.add(MUG, HALF)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("cup", MUG, HALF, stamp=t)], render_view(t, eye, MUG, [table, (lo, hi)]))
    for t in (600.0, 600.5, 601.0, 601.5, 700.0, 700.5, 701.0, 701.5):
        mem.add([], render_view(t, eye, MUG, [table] + occluder))
    mem.add([], render_view(900.0, eye, (-3.0, 0.0, 1.0), []))
    mem.commit()
    return sorted((e.kind, e.label) for e in mem.changes())


@pytest.fixture
def mem(store):
    with Memory.open(store("m"), embedding_dim=4, config=ON_CONFIG) as m:
        yield m


def test_a_small_object_taken_from_a_table_in_plain_view_is_still_removed(mem):
    # the table top, nearer than the cup's front just below its pixels, stands under its bottom: no occluder
    assert cup_on_a_table(mem, []) == [("appeared", "cup"), ("removed", "cup")]
    assert [(o.label, o.state) for o in mem.objects()] == [("cup", "missing")]


# seen from 1.6 m high, the board's edge passes as close to the cup's samples
EDGE_BOARD = ((1.9, 0.025 * 1.95 / 3.0, 0.0), (1.95, 1.0, 2.0))


def test_a_cup_just_behind_a_boards_edge_counts_no_miss(mem):
    assert cup_on_a_table(mem, [EDGE_BOARD]) == [("appeared", "cup")]
    assert [(o.label, o.state) for o in mem.objects()] == [("cup", "present")]


def test_without_the_rule_the_cup_behind_the_edge_is_removed(store):
    with Memory.open(store("m"), embedding_dim=4, config={"absence": {"edge_pose_deg": 0.0, "edge_place_m": 0.0}}) as m:
        assert cup_on_a_table(m, [EDGE_BOARD]) == [("appeared", "cup"), ("removed", "cup")]


def test_defaults():
    cfg = MemoryConfig().absence
    assert (cfg.edge_pose_deg, cfg.edge_place_m, cfg.reported_view_sightings) == (0.0, 0.0, 2)


def scene_view(eye, target, boxes, w=320, h=240, f=256.0, wall=8.0):
    """A camera (by default the scenes': 320 x 240 px, 256 px focal length) with the pipeline's coarse depth: the
    MINIMUM of each 8 x 8 block of a full-resolution ray cast (perception/view.py), not one ray per block as
    render_view casts."""
    pose = look_at(eye, target)
    u, v = np.meshgrid(np.arange(w) + 0.5, np.arange(h) + 0.5)
    rays = np.stack([(u - w / 2) / f, (v - h / 2) / f, np.ones_like(u)], axis=-1) @ pose[:3, :3].T
    depth = np.full((h, w), wall)
    origin = pose[:3, 3]
    for lo, hi in boxes:
        with np.errstate(divide="ignore", invalid="ignore"):
            t1, t2 = (np.asarray(lo, float) - origin) / rays, (np.asarray(hi, float) - origin) / rays
        t_in, t_out = np.nanmax(np.minimum(t1, t2), axis=-1), np.nanmin(np.maximum(t1, t2), axis=-1)
        depth = np.where((t_in > 0) & (t_out >= t_in), np.minimum(depth, t_in), depth)
    coarse = depth.reshape(h // 8, 8, w // 8, 8).min(axis=(1, 3))
    return CameraView(pose, f, f, w / 2, h / 2, w, h, 9.0, coarse.astype(np.float32), 0.0)


@pytest.mark.parametrize("distance", [2.75, 3.0, 3.25, 3.5, 3.75])
def test_a_table_top_read_at_its_blocks_nearest_row_is_no_occluder(distance):
    # A 20 cm bottle's place on a table (top 0.75 m) seen from 1.4 m high, the bottle gone: only the table lies in
    # front of it. A block's depth is its nearest pixel, the table's at the block's bottom row; read at the probe's
    # pixel (up to 7 px above that row) the table top rose 6-9 cm here, over the 5 cm tolerance, and hid the lower
    # samples (0.56 seen: never a miss). Its lowest height over the block is the table's.
    bottle = np.array([distance, 0.1, 0.85])
    half = np.array([0.04, 0.04, 0.1])
    table = ((distance - 0.5, -0.6, 0.0), (distance + 0.5, 0.6, 0.75))
    view = scene_view((0.0, 0.0, 1.4), bottle, [table])
    lo, hi = (bottle - half)[None], (bottle + half)[None]
    off = dataclasses.replace(AbsenceConfig(), edge_pose_deg=0.0, edge_place_m=0.0)
    seen = [fractions(view, cfg, lo, hi) for cfg in (off, ON)]
    assert seen == [1.0, 1.0]


def test_an_occluder_beside_the_bottle_still_hides_it_with_block_minimum_depth():
    # the same place at 3 m with a board 0.8 m nearer whose edge passes 1 px beside the stored box: within reach
    bottle = np.array([3.0, -0.04 - 3.0 / 256.0, 0.85])
    half = np.array([0.04, 0.04, 0.1])
    table = ((2.5, -0.6, 0.0), (3.5, 0.6, 0.75))
    board = ((2.15, 0.0, 0.0), (2.2, 1.5, 1.3))
    view = scene_view((0.0, 0.0, 1.4), bottle, [table, board])
    lo, hi = (bottle - half)[None], (bottle + half)[None]
    off = dataclasses.replace(AbsenceConfig(), edge_pose_deg=0.0, edge_place_m=0.0)
    seen = [fractions(view, cfg, lo, hi) for cfg in (off, ON)]
    # without the rule 5 of 9 (the table's front blocks hide the lower ones), with it none
    assert seen == [5 / 9, 0.0]
