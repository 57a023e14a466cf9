"""The per-look label rule (fusion.label_look_cap) across a restart: what each look gave a label over the cap and the
current visit's tallies are stored (label_mass.excess, label_looks; schema version 16), so that a close and reopen at
any frame, with or without a manual consolidate() beside it, gives the same shown labels, graph and answers as the
same stream without it (the architecture rule: same input stream + same config => same graph, same ids, same
answers; docs/MEMORY.md, "The shown label")."""
from __future__ import annotations

import copy

import pytest
from core_helpers import IMMEDIATE, box_obs, view

from tempomem_ros.core import Memory
from tempomem_ros.core.store.schema import SCHEMA_VERSION

AT = (2.0, 1.0, 0.5)
BESIDE = (3.5, 1.0, 0.5)
GAP = 600.0


def _cfg() -> dict:
    cfg = copy.deepcopy(IMMEDIATE)
    cfg["fusion"] = {"label_look_cap": 5.0}
    cfg["retention"] = {"mode": "keep-all"}
    return cfg


def _frames():
    """490's backpack: "backpack" in three visits, then a fourth visit read "backpack" twice and "suitcase" in every
    frame after (60); a pillow beside it read "cushion" through its first visit (40), then "pillow" in three visits
    of 12 (497's pillow). Each frame is committed on its own."""
    frames = [(0.1 * i, "backpack" if i < 12 else None, "cushion") for i in range(40)]
    for k in (1, 2):
        frames += [(k * GAP + 0.1 * i, "backpack", "pillow") for i in range(12)]
    frames += [(3 * GAP + 0.1 * i, "backpack" if i < 2 else "suitcase", "pillow") for i in range(62)]
    return frames


def _feed(mem, frame) -> None:
    t, a, b = frame
    obs = [box_obs(b, BESIDE, stamp=t, conf=0.8)]
    if a is not None:
        obs.insert(0, box_obs(a, AT, stamp=t, conf=0.8))
    mem.add(obs, view(t, AT, 2.5, eye=(0.0, 0.0, 1.0)))
    mem.commit()


def _state(mem) -> dict:
    objs = sorted(mem.objects(), key=lambda o: o.id)
    answers = {q: (lambda a: (a.text, [(o.id, o.label) for o in a.objects]))(mem.ask(q))
               for q in ("where is the backpack", "where is the suitcase", "where is the pillow")}
    history = mem._conn.execute("SELECT object_id, stamp, old_label, new_label FROM label_history "
                                "ORDER BY id").fetchall()
    events = mem._conn.execute("SELECT kind, object_id, label, previous_label, stamp FROM events "
                               "ORDER BY id").fetchall()
    return {"objects": [(o.id, o.label, o.state) for o in objs], "answers": answers,
            "shown_mass": {o.id: mem._fusion.shown_label_mass(o.id) for o in objs},
            "history": [tuple(r) for r in history], "events": [tuple(r) for r in events]}


def _run(store, name: str, at: int | None = None, *, restart: bool = True, consolidate: bool = False) -> dict:
    """The stream into a fresh store; at frame ``at`` a manual consolidate() and/or a close and reopen."""
    def reopen():
        return Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=_cfg())

    mem = reopen()
    try:
        for i, frame in enumerate(_frames()):
            if i == at:
                if consolidate:
                    mem.consolidate()
                if restart:
                    mem.close()
                    mem = reopen()
            _feed(mem, frame)
        return _state(mem)
    finally:
        mem.close()


def test_the_stream_decides_the_labels_by_looks(store):
    state = _run(store, "plain")
    assert [lbl for _, lbl, _ in state["objects"]] == ["backpack", "pillow"]


@pytest.mark.parametrize("at", [20, 60, 90, 110])
def test_a_restart_at_any_frame_gives_the_labels_graph_and_answers_of_no_restart(store, at):
    # 20: inside the pillow's "cushion" look; 60: between visits; 90 and 110: inside the backpack's "suitcase" look
    assert _run(store, f"r{at}", at) == _run(store, "plain")


@pytest.mark.parametrize("at", [20, 100])
def test_a_consolidate_then_restart_gives_what_the_consolidate_alone_gives(store, at):
    alone = _run(store, f"c{at}", at, restart=False, consolidate=True)
    assert _run(store, f"cr{at}", at, consolidate=True) == alone
    assert [lbl for _, lbl, _ in alone["objects"]] == ["backpack", "pillow"]


def _two_cups_then_mugs():
    """Two cups 3 cm apart seen in the same frames through one look (fusion keeps them apart: one object takes one
    sighting a frame; consolidate() joins them), each read "cup" 30 times; then three visits of the thing read
    "mug" (10 sightings each)."""
    frames = [[box_obs("cup", AT, stamp=0.1 * i, conf=0.8),
               box_obs("cup", (AT[0] + 0.03, AT[1], AT[2]), stamp=0.1 * i, conf=0.8)] for i in range(30)]
    for k in (1, 2, 3):
        frames += [[box_obs("mug", AT, stamp=k * GAP + 0.1 * i, conf=0.8)] for i in range(10)]
    return frames


def _consolidated(store, name: str, restart: bool) -> tuple[dict, dict]:
    def reopen():
        return Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=_cfg())

    mem = reopen()
    try:
        for i, frame in enumerate(_two_cups_then_mugs()):
            if i == 30:
                assert [a for a, _ in mem.consolidate()] == [1]
                shown = mem._fusion.shown_label_mass(1)
                if restart:
                    mem.close()
                    mem = reopen()
                assert mem._fusion.shown_label_mass(1) == pytest.approx(shown)
            t = frame[0].stamp
            mem.add(frame, view(t, AT, 2.5, eye=(0.0, 0.0, 1.0)))
            mem.commit()
        return shown, _state(mem)
    finally:
        mem.close()


def test_a_manual_consolidate_moves_what_the_twins_looks_gave_over_the_cap_to_the_kept_object(store):
    # each cup's look gave "cup" 24.0, 5.0 of it counted: the kept cup shows 10.0 of its 48.0 (two looks' caps, as a
    # twin joined by fusion), not 29.0 (the joined twin's excess counted back); a restart after it shows the same
    shown, alone = _consolidated(store, "c", restart=False)
    assert shown == pytest.approx({"cup": 10.0})
    assert _consolidated(store, "cr", restart=True) == (shown, alone)


LOOK_ROWS = "SELECT object_id, visit_start, sector, label, mass, last FROM label_looks ORDER BY 1, 2, 3, 4"
EXCESS_ROWS = "SELECT object_id, label, mass, excess FROM label_mass ORDER BY object_id, label"


def _rows(mem, sql: str) -> list[tuple]:
    """Read through the memory's own connection (a second SQLite library's connection may see an older snapshot
    while the memory is open)."""
    return [tuple(r) for r in mem._conn.execute(sql).fetchall()]


def _stored(mem) -> tuple:
    return _rows(mem, LOOK_ROWS), _rows(mem, EXCESS_ROWS)


def test_the_state_is_stored_with_the_fusion_and_a_rolled_back_commit_leaves_none_of_it(store, monkeypatch):
    # the backpack's fourth visit fused in a commit that fails at its end: neither its tally rows nor its excess
    # stay (the store's transaction) nor does fusion keep them in memory (kept_on_rollback); the commit made again
    # writes what one commit that never failed writes
    frames = _frames()

    def stage(mem):
        for t, a, b in frames[64:]:
            mem.add([box_obs(a, AT, stamp=t, conf=0.8), box_obs(b, BESIDE, stamp=t, conf=0.8)],
                    view(t, AT, 2.5, eye=(0.0, 0.0, 1.0)))

    with Memory.open(store("rb"), embedding_dim=4, clock=lambda: 1e6, config=_cfg()) as mem:
        for frame in frames[:64]:
            _feed(mem, frame)
        before = _stored(mem)
        looks, excess = before
        # every visit's rows are kept (a record of what each look gave); the newest visit's are read back on open
        assert {(r[0], r[1]) for r in looks} == {(o, k * GAP) for o in (1, 2) for k in range(3)}
        assert {(r[0], r[1]): r[3] for r in excess}[(2, "cushion")] == pytest.approx(40 * 0.8 - 5.0)
        in_memory = (copy.deepcopy(mem._fusion._label_looks), copy.deepcopy(mem._fusion._label_excess))

        def fail():
            raise RuntimeError("disk full")

        stage(mem)
        with monkeypatch.context() as patch:
            patch.setattr(mem._retention, "compact_settled", fail)
            with pytest.raises(RuntimeError, match="disk full"):
                mem.commit()
        assert _stored(mem) == before
        assert (mem._fusion._label_looks, mem._fusion._label_excess) == in_memory
        assert mem.pending() == 62
        mem.commit()
        after = _state(mem), _stored(mem)
        assert {(r[0], r[1]) for r in after[1][0]} == {(o, k * GAP) for o in (1, 2) for k in range(4)}
    with Memory.open(store("once"), embedding_dim=4, clock=lambda: 1e6, config=_cfg()) as mem:
        for frame in frames[:64]:
            _feed(mem, frame)
        stage(mem)
        mem.commit()
        assert after == (_state(mem), _stored(mem))


def _make_version_15(store, address: str) -> None:
    """What schema version 15 wrote: no label_mass.excess, no label_looks."""
    store.raw(address, "DROP TABLE label_looks")
    store.raw(address, "ALTER TABLE label_mass DROP COLUMN excess")
    store.raw(address, "UPDATE meta SET value = '15' WHERE key = 'schema_version'")


def test_a_version_15_store_is_migrated_and_its_writer_stores_the_state_from_then_on(store):
    frames = _frames()
    address = store("v15")
    with Memory.open(address, embedding_dim=4, clock=lambda: 1e6, config=_cfg()) as mem:
        for frame in frames[:64]:
            _feed(mem, frame)
        want = _rows(mem, "SELECT object_id, label, mass FROM label_mass ORDER BY object_id, label")
        objects = [(o.id, o.label) for o in mem.objects()]
    _make_version_15(store, address)
    if not store.postgres:  # SQLite reads an older store as it is (PostgreSQL refuses: needs migration)
        with Memory.open(address, embedding_dim=4, readonly=True) as ro:
            assert [(o.id, o.label) for o in ro.objects()] == objects
        assert store.raw(address, "SELECT value FROM meta WHERE key = 'schema_version'") == [("15",)]
    with Memory.open(address, embedding_dim=4, clock=lambda: 1e6, config=_cfg()) as mem:  # the writer migrates
        assert _rows(mem, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
        assert _rows(mem, EXCESS_ROWS) == [r + (0.0,) for r in want]  # no excess known before it
        assert _rows(mem, LOOK_ROWS) == []
        assert mem._fusion._label_excess == {} and mem._fusion._label_looks == {}
        for frame in frames[64:]:
            _feed(mem, frame)
        assert [lbl for _, lbl, _ in _state(mem)["objects"]] == ["backpack", "pillow"]
    assert {r[0] for r in store.raw(address, LOOK_ROWS)} == {1, 2}
    assert any(r[3] > 0 for r in store.raw(address, EXCESS_ROWS))


def test_the_state_rides_in_the_commits_round_trips(store, monkeypatch):
    # PostgreSQL: the tally and excess writes are pipelined in the commit's set-based writes, and the open reads
    # them back outside any commit: each commit waits as often as with the writes switched off
    if not store.postgres:
        pytest.skip("round trips are PostgreSQL's")
    from tempomem_ros.core.store.graph_writes import GraphWrites

    def waits(name: str) -> list[int]:
        out = []
        with Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=_cfg()) as mem:
            traffic = mem._conn.traffic
            for t, a, b in _frames():
                mem.add([box_obs(b, BESIDE, stamp=t, conf=0.8)] + ([box_obs(a, AT, stamp=t, conf=0.8)] if a else []),
                        view(t, AT, 2.5, eye=(0.0, 0.0, 1.0)))
                traffic.reset()
                mem.commit()
                out.append(traffic.round_trips)
        return out

    stored = waits("stored")
    add_mass = GraphWrites.add_mass
    monkeypatch.setattr(GraphWrites, "set_look_mass", lambda self, *args: None)
    monkeypatch.setattr(GraphWrites, "add_excess", lambda self, *args: None)
    monkeypatch.setattr(GraphWrites, "add_mass", lambda self, oid, label, mass, excess=0.0: add_mass(
        self, oid, label, mass))
    assert stored == waits("unstored")


def test_two_writers_taking_turns_decide_as_one(store):
    # a second writer (another robot's fuser, a CLI) commits every other frame: each reads the per-look state again
    # after the other's commit (WriterCaches.label_looks), so the labels and the counted mass are one writer's
    name = "two"
    a = Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=_cfg())
    b = Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=_cfg())
    try:
        for i, frame in enumerate(_frames()):
            _feed(a if i % 2 else b, frame)
        state = _state(a)
    finally:
        b.close()
        a.close()
    one = _run(store, "one")
    assert (state["objects"], state["shown_mass"], state["history"]) == \
        (one["objects"], one["shown_mass"], one["history"])


@pytest.mark.parametrize("how", ["migrate", "recover"])
def test_a_copied_store_carries_the_state(store, tmp_path, how):
    # `tempomem migrate` (into this test's backend) and `tempomem recover` (SQLite) copy label_looks and the excess:
    # the copy, fed the rest of the stream, decides as the store it was copied from
    from tempomem_ros.core.store import recovery, transfer

    if how == "recover" and store.postgres:
        pytest.skip("recover reads a SQLite file")
    frames = _frames()
    src = str(tmp_path / "src.db")
    with Memory.open(src, embedding_dim=4, clock=lambda: 1e6, config=_cfg()) as mem:
        for frame in frames[:90]:
            _feed(mem, frame)
    if how == "migrate":
        dst = store("copy")
        transfer.migrate(src, dst)
    else:
        dst = str(tmp_path / "copy.db")
        recovery.recover(src, dst)
    states = []
    for address in (src, dst):
        with Memory.open(address, embedding_dim=4, clock=lambda: 1e6, config=_cfg()) as mem:
            for frame in frames[90:]:
                _feed(mem, frame)
            states.append(_state(mem)["shown_mass"])
    assert states[0] == states[1] == _run(store, "plain")["shown_mass"]


COUNT_ROWS = "SELECT object_id, sector, label, visits, mass, first_start, last FROM label_look_counts ORDER BY 1, 2, 3"


def _folded(looks: list[tuple]) -> tuple[list[tuple], list[tuple]]:
    """(the rows of each object's newest visit, the older visits' rows as label_look_counts counts them)."""
    newest = {}
    for oid, start, *_ in looks:
        newest[oid] = max(newest.get(oid, start), start)
    counts: dict = {}
    for oid, start, sector, label, mass, last in looks:
        if start < newest[oid]:
            c = counts.setdefault((oid, sector, label), [0, 0.0, start, last])
            c[0] += 1
            c[1] += mass
            c[2], c[3] = min(c[2], start), max(c[3], last)
    return ([r for r in looks if r[1] == newest[r[0]]],
            [(*k, v[0], pytest.approx(v[1]), v[2], v[3]) for k, v in sorted(counts.items())])


def _run_thinned_at(store, name: str, at: int, restart: bool) -> tuple[dict, list, list]:
    """The stream into a keep-all store whose older visits are folded once, at frame ``at`` (retention's
    _thin_looks in a write transaction, the horizon past every stamp), then closed and reopened or not."""
    from tempomem_ros.core.retention import ThinReport

    def reopen():
        return Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=_cfg())

    mem = reopen()
    try:
        folded = None
        for i, frame in enumerate(_frames()):
            if i == at:
                looks = _rows(mem, LOOK_ROWS)
                report = ThinReport()
                with mem._store.transaction():
                    mem._retention._thin_looks(float("inf"), report)
                folded = (looks, _rows(mem, LOOK_ROWS), _rows(mem, COUNT_ROWS), report)
                if restart:
                    mem.close()
                    mem = reopen()
            _feed(mem, frame)
        return _state(mem), folded, _rows(mem, LOOK_ROWS)
    finally:
        mem.close()


@pytest.mark.parametrize("restart", [False, True])
@pytest.mark.parametrize("at", [20, 60, 90, 110])
def test_a_store_whose_older_visits_are_folded_at_any_frame_decides_the_rest_as_the_unfolded_one(store, at, restart):
    # retention folds the visits older than an object's newest into label_look_counts (schema version 17): the rest
    # of the stream gives the labels, mass, label history, events and answers of the store that kept every visit,
    # with or without a restart right after the fold; what was folded is counted exactly
    state, (before, after, counts, report), _ = _run_thinned_at(store, f"f{at}{restart}", at, restart)
    assert state == _run(store, "plain")
    newest, want = _folded(before)
    assert after == newest and counts == want
    assert report.looks_folded == len(before) - len(newest)
    assert report.visits_folded == len({(r[0], r[1]) for r in before} - {(r[0], r[1]) for r in newest})
    if at >= 60:  # the pillow's first visit and the backpack's are behind it
        assert report.looks_folded > 0 and {r[0] for r in counts} == {1, 2}


def _run_thin(store, name: str, at: int | None) -> tuple[dict, list, list, list]:
    """The stream into a store under retention thin (a pass at every commit, nothing younger than 0.5 s kept
    from it), closed and reopened at frame ``at``."""
    cfg = _cfg()
    cfg["retention"] = {"mode": "thin", "settle_s": 0.5, "compact_every_s": 0.0}

    def reopen():
        return Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=cfg)

    mem = reopen()
    try:
        for i, frame in enumerate(_frames()):
            if i == at:
                mem.close()
                mem = reopen()
            _feed(mem, frame)
        thins = [a.detail["label_looks"] for a in mem.audit() if "label_looks" in a.detail]
        return _state(mem), _rows(mem, LOOK_ROWS), _rows(mem, COUNT_ROWS), thins
    finally:
        mem.close()


@pytest.mark.parametrize("at", [None, 20, 60, 90, 110])
def test_retention_keeps_the_newest_visits_and_counts_the_older_ones(store, at):
    # under retention thin every pass folds the settled older visits: label_looks holds each object's newest visit
    # (what a restart reads back), label_look_counts the others, exactly as keep-all's rows count them, and the
    # labels, label history and shown mass are keep-all's (restart or not); each fold is in the pass's audit row
    state, looks, counts, thins = _run_thin(store, f"t{at}", at)
    plain = _run(store, "plain")
    assert (state["objects"], state["shown_mass"], state["history"], state["events"]) == \
        (plain["objects"], plain["shown_mass"], plain["history"], plain["events"])
    newest, want = _folded(_run_all_looks(store, f"a{at}"))
    assert looks == newest and counts == want
    assert sum(t["rows_folded"] for t in thins) == sum(c[3] for c in counts) > 0
    assert sum(t["visits_folded"] for t in thins) == 6  # the older visits of both objects: 3 + 3


def _run_all_looks(store, name: str) -> list[tuple]:
    mem = Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=_cfg())
    try:
        for frame in _frames():
            _feed(mem, frame)
        return _rows(mem, LOOK_ROWS)
    finally:
        mem.close()


def test_add_excess_adds_every_label_at_once(store):
    # GraphWrites.add_excess (a joined twin's excess) writes all its labels in one statement: each label's excess
    # added to the row there, a label with no row yet gets one with no mass, every other row and object untouched
    with Memory.open(store("excess"), embedding_dim=4, clock=lambda: 1e6, config=_cfg()) as mem:
        for frame in _frames()[:3]:
            _feed(mem, frame)
        rows = "SELECT object_id, label, mass, excess FROM label_mass ORDER BY object_id, label"
        before = [tuple(r) for r in mem._conn.execute(rows).fetchall()]
        oid, label = before[0][0], before[0][1]
        with mem._store.transaction():
            mem._graph.add_excess(oid, {label: 0.25, "zz-new": 0.5, "aa-new": 1.0})
            mem._graph.add_excess(oid, {})
        after = [tuple(r) for r in mem._conn.execute(rows).fetchall()]
    expected = sorted([(o, lbl, m, e + (0.25 if (o, lbl) == (oid, label) else 0.0)) for o, lbl, m, e in before]
                      + [(oid, "zz-new", 0.0, 0.5), (oid, "aa-new", 0.0, 1.0)])
    assert after == expected
