"""scene_as_of paged by key (``after``: the previous page's last object and placement ids) gives the pages of the
offset, on SQLite and PostgreSQL, over placements whose ids and start times disagree in order, overlapping ones
(an object holding two placements at t, cut by a page's edge), forgotten and tentative objects.

Why keyset paging: an offset is walked row by row; on PostgreSQL a page at offset 9,900 of the fleet's 10,000-object
store merge-joined every earlier row (19-27 ms; bench_fleet's scene_as_of p95 35-52 ms when the fuser fell behind).
"""

from __future__ import annotations

import random

import pytest
from core_helpers import IMMEDIATE, span_obs
from test_core_scene_order import _reference, _store

from tempomem_ros.core import Memory
from tempomem_ros.core.errors import InvalidInputError
from tempomem_ros.core.store import transfer


def _pages_by_key(m: Memory, t: float, k: int) -> list[list[int]]:
    pages, after = [], None
    while True:
        page = m.scene_as_of(t, k=k, after=after) if after is not None else m.scene_as_of(t, k=k)
        if not page:
            return pages
        pages.append([p.id for _, p in page])
        after = (page[-1][1].object_id, page[-1][1].id)


def test_pages_by_key_are_the_pages_by_offset_on_both_backends(tmp_path, store):
    checked = cut = 0
    for seed in range(3):
        rng = random.Random(seed)
        path = str(tmp_path / f"s{seed}.db")
        _store(path, rng)
        address = path
        if store.postgres:
            address = store(f"s{seed}")
            transfer.migrate(path, address)
        with Memory.open(address, embedding_dim=4, readonly=True) as m:
            for _ in range(25):
                t = rng.uniform(0.0, 120.0)
                k = rng.randint(1, 5)
                whole = _reference(path, t, None, 0)
                by_key = _pages_by_key(m, t, k)
                by_offset = [[p.id for _, p in m.scene_as_of(t, k=k, offset=o)] for o in range(0, len(whole), k)]
                assert by_key == by_offset, (seed, t, k)
                assert [i for page in by_key for i in page] == whole
                checked += len(by_key)
                owners = {p.id: p.object_id for _, p in m.scene_as_of(t)}
                cut += sum(owners[a[-1]] == owners[b[0]] for a, b in zip(by_key, by_key[1:]))
    assert checked > 100 and cut > 0  # some page edges fell inside one object's placements


def test_a_key_is_validated(store):
    address = store()
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        for bad in ((1,), "12", (1, -1), (True, 2), 5):
            with pytest.raises(InvalidInputError, match="after"):
                m.scene_as_of(1.0, k=2, after=bad)
        with pytest.raises(InvalidInputError, match="not both"):
            m.scene_as_of(1.0, k=2, offset=3, after=(1, 1))
        with pytest.raises(InvalidInputError, match="center and radius"):
            m.scene_as_of(1.0, center=(0.0, 0.0, 0.0), radius=1.0, k=2, after=(1, 1))
        assert m.scene_as_of(1.0, k=2, after=(0, 0)) == []  # nothing stored
        # three mugs 0.5 m apart in one frame: objects and placements 1, 2, 3
        m.add([span_obs("mug", (1.0 + 0.5 * i, 0.0, 0.8), (1.1 + 0.5 * i, 0.1, 0.9), stamp=0.5) for i in range(3)])
        m.commit()
        # (0, 0) lies before every key: the first page; then the pages after it, to nothing after the last
        assert [(p.object_id, p.id) for _, p in m.scene_as_of(1.0, k=2, after=(0, 0))] == [(1, 1), (2, 2)]
        assert [(p.object_id, p.id) for _, p in m.scene_as_of(1.0, k=2, after=(2, 2))] == [(3, 3)]
        assert m.scene_as_of(1.0, k=2, after=(3, 3)) == []


def test_the_keyset_statement_seeks_the_object_id_on_sqlite(tmp_path):
    path = str(tmp_path / "s.db")
    _store(path, random.Random(7))
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        statements: list = []
        m._conn.set_trace_callback(statements.append)
        try:
            m.scene_as_of(50.0, k=3, after=(3, 0))
        finally:
            m._conn.set_trace_callback(None)
        scene = [s for s in statements if "CROSS JOIN placements" in s]
        assert len(scene) == 1 and "OFFSET" not in scene[0]
        plan = str([r[-1] for r in m._conn.execute("EXPLAIN QUERY PLAN " + scene[0])])
        assert "INTEGER PRIMARY KEY (rowid>?)" in plan, plan
