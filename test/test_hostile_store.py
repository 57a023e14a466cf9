"""Storage failures told as they are (issue 12): disk full, locks, I/O errors, damaged files, read-only media.

A full disk is SQLite's max_page_count set to the file's current size (SQLite reports it exactly as a full
disk: SQLITE_FULL, "database or disk is full"). Every entry point must raise the StoreError subclass with
the real cause, nothing committed may be lost, and staged frames must be fused once space comes back.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from core_helpers import box_obs, distance_from_eye, view

from tempomem_ros.core import (
    Memory,
    SchemaError,
    StoreAccessError,
    StoreClosedError,
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreIOError,
    StoreLockedError,
    TempoMemError,
)
from tempomem_ros.core.errors import store_error
from tempomem_ros.core.store import recovery
from tempomem_ros.core.store.schema import sqlite3
from tempomem_ros.tools import cli

A = (2.0, 0.0, 0.8)


def build(path, frames=3):
    with Memory.open(str(path), embedding_dim=4, clock=lambda: 1000.0) as m:
        for i in range(frames):
            m.add([box_obs("mug", A, stamp=10 + i), box_obs("book", (2.3, 0.3, 0.8), stamp=10 + i)],
                  view(10 + i, A, distance_from_eye(A) + 0.04))
        m.commit()


def fill_disk(m) -> None:
    """No page beyond the current file size: the next write that needs a new page fails as on a full disk."""
    pages = m._conn.execute("PRAGMA page_count").fetchone()[0]
    m._conn.execute(f"PRAGMA max_page_count={pages}")


def free_disk(m) -> None:
    m._conn.execute("PRAGMA max_page_count=4294967294")


def many_new_objects(m, stamp):
    m.add([box_obs(f"thing{j}", (0.5 * j, 5.0 + 0.001 * stamp, 0.5), stamp=stamp) for j in range(60)])


# ------------------------------------------------------------------------------------------------ disk full
def test_disk_full_is_told_by_every_entry_point_and_nothing_is_lost(tmp_path):
    path = tmp_path / "m.db"
    build(path)
    m = Memory.open(str(path), embedding_dim=4, clock=lambda: 1000.0)
    for i in range(20):
        many_new_objects(m, 20 + i)  # staged before the disk fills: 20 frames to fuse
    objects_before = [(o.id, o.label, o.center) for o in m.objects()]
    fill_disk(m)
    calls = {
        "commit": m.commit,
        "forget": lambda: m.forget(1, "x"),
        "define_region": lambda: m.define_region("kitchen", (0, 0, 0), (1, 1, 1)),
        "update": lambda: m.update(1, label="cup"),
        "decay": lambda: m.decay(50.0, half_life_s=10.0, min_confidence=0.5),
        "consolidate": m.consolidate,
    }
    for name, call in calls.items():
        with pytest.raises(StoreFullError) as info:
            call()
        message = str(info.value)
        assert message.startswith(f"{name} failed: the disk is full (database or disk is full)"), message
        assert "cannot rollback" not in message and "no transaction is active" not in message
        assert info.value.state == "full" and info.value.transient
    with pytest.raises(StoreFullError, match="add failed: the disk is full"):
        for i in range(200):
            many_new_objects(m, 100 + i)
    # reads still work, and nothing committed changed
    assert [(o.id, o.label, o.center) for o in m.objects()] == objects_before
    staged = m.pending()
    assert staged >= 20
    with pytest.raises(StoreFullError, match="close failed: the disk is full .*staged frames stay in the file"):
        m.close()
    with pytest.raises(StoreClosedError, match="memory is closed"):
        m.objects()
    m.close()  # closed once and for all: a second close is a no-op
    with Memory.open(str(path), embedding_dim=4, clock=lambda: 1000.0) as m:  # space came back
        assert m.pending() == staged
        assert [(o.id, o.label, o.center) for o in m.objects()] == objects_before
        m.commit()
        assert m.pending() == 0 and len(m.objects()) == len(objects_before) + 60


def test_a_full_disk_during_commit_leaves_the_graph_as_it_was_and_resumes(tmp_path):
    path = tmp_path / "m.db"
    build(path)
    with Memory.open(str(path), embedding_dim=4, clock=lambda: 1000.0) as m:
        before = [(o.id, o.center, o.bbox_min, o.bbox_max, o.n_observations) for o in m.objects()]
        for i in range(10):
            many_new_objects(m, 30 + i)
        fill_disk(m)
        with pytest.raises(StoreFullError, match="commit failed: the disk is full"):
            m.commit()
        assert [(o.id, o.center, o.bbox_min, o.bbox_max, o.n_observations) for o in m.objects()] == before
        assert m.pending() == 10
        free_disk(m)
        stats = m.commit()
        assert (stats.observations_committed, stats.created, m.pending()) == (600, 60, 0)


# ---------------------------------------------------------------------------------------------------- locks
def test_a_lock_held_by_another_writer_is_a_locked_error_and_heals(tmp_path):
    path = tmp_path / "m.db"
    build(path)
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with Memory.open(str(path), embedding_dim=4, clock=lambda: 1000.0) as m:
        m._conn.execute("PRAGMA busy_timeout=50")
        with pytest.raises(StoreLockedError, match="add failed: the store is locked by another writer "
                                                   r"\(database is locked\)") as info:
            m.add([box_obs("mug", A, stamp=20)])
        assert info.value.transient and info.value.state == "locked"
        assert m.pending() == 0
        other.execute("ROLLBACK")
        m.add([box_obs("mug", A, stamp=20)])
        assert m.pending() == 1
    other.close()


# ------------------------------------------------------------------------------------------ classification
class FakeSqliteError(sqlite3.OperationalError):
    def __init__(self, message, code):
        super().__init__(message)
        self.sqlite_errorcode = code


@pytest.mark.parametrize("code,message,cls,state", [
    (13, "database or disk is full", StoreFullError, "full"),
    (5, "database is locked", StoreLockedError, "locked"),
    (6, "database table is locked", StoreLockedError, "locked"),
    (10 | (2 << 8), "disk I/O error", StoreIOError, "io_error"),      # SQLITE_IOERR_SHORT_READ
    (10 | (4 << 8), "disk I/O error", StoreIOError, "io_error"),      # SQLITE_IOERR_WRITE
    (11, "database disk image is malformed", StoreCorruptError, "corrupt"),
    (26, "file is not a database", StoreCorruptError, "corrupt"),
    (8, "attempt to write a readonly database", StoreAccessError, "access"),
    (14, "unable to open database file", StoreAccessError, "access"),
    (1, "no such table: objects", StoreError, "error"),
])
def test_every_sqlite_failure_maps_to_its_error(code, message, cls, state):
    err = store_error("commit", FakeSqliteError(message, code))
    assert type(err) is cls and err.state == state
    assert str(err).startswith("commit failed: ") and f"({message})" in str(err)
    assert ("tempomem recover" in str(err)) == (cls is StoreCorruptError)
    assert isinstance(err, TempoMemError)


def test_messages_classify_without_error_codes():
    assert type(store_error("add", sqlite3.OperationalError("disk I/O error"))) is StoreIOError
    assert type(store_error("add", sqlite3.OperationalError("database or disk is full"))) is StoreFullError


def test_an_io_error_while_reading_reaches_the_caller_as_itself(tmp_path, monkeypatch):
    path = tmp_path / "m.db"
    build(path)
    with Memory.open(str(path), embedding_dim=4, readonly=True) as ro:
        class FailingConnection:
            def __init__(self, conn):
                self._conn = conn

            def execute(self, *args):
                raise FakeSqliteError("disk I/O error", 10 | (1 << 8))  # SQLITE_IOERR_READ

            def __getattr__(self, name):
                return getattr(self._conn, name)

        real = ro._conn
        ro._conn = FailingConnection(real)
        with pytest.raises(StoreIOError, match=r"objects failed: disk I/O error \(disk I/O error\)"):
            ro.objects()
        ro._conn = real
        assert len(ro.objects()) == 2


# --------------------------------------------------------------------------------------------- damaged files
def table_leaf_pages(path, table: str) -> list[int]:
    """The leaf pages of one table's b-tree, walked from its root (SQLite's file format: a page's header at byte 0,
    byte 100 on page 1; 0x05 an interior table page whose cells begin with their child's page number, the rightmost
    child at bytes 8-11; 0x0d a leaf). Why: the middle page of the file was damaged before, and which table owns it
    moves with every schema change (version 14's placements_start index put an objects page there, which a read-only
    open reads to load the present boxes): a page of the sightings, which no open reads, keeps this test's story."""
    con = sqlite3.connect(str(path))
    size = con.execute("PRAGMA page_size").fetchone()[0]
    (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone()
    con.close()
    data = open(path, "rb").read()
    leaves, todo = [], [root]
    while todo:
        page = todo.pop(0)
        base = (page - 1) * size
        head = base + (100 if page == 1 else 0)
        kind, cells = data[head], int.from_bytes(data[head + 3:head + 5], "big")
        if kind == 0x0D:
            leaves.append(page)
            continue
        assert kind == 0x05, f"page {page} of {table} is no table b-tree page ({kind:#x})"
        for i in range(cells):
            at = base + int.from_bytes(data[head + 12 + 2 * i:head + 14 + 2 * i], "big")
            todo.append(int.from_bytes(data[at:at + 4], "big"))
        todo.append(int.from_bytes(data[head + 8:head + 12], "big"))
    return leaves


def zero_a_page(path, page: int | None = None) -> int:
    if page is None:
        leaves = table_leaf_pages(path, "observations")
        page = leaves[len(leaves) // 2]
    con = sqlite3.connect(str(path))
    size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = bytearray(open(path, "rb").read())
    data[(page - 1) * size: page * size] = bytes(size)
    open(path, "wb").write(data)
    return page


def digest(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


@pytest.fixture
def damaged(tmp_path):
    path = tmp_path / "m.db"
    with Memory.open(str(path), embedding_dim=4, clock=lambda: 1000.0) as m:
        for i in range(120):
            m.add([box_obs(f"thing{j}", (0.3 * j, 0.3 * (i % 20), 0.5), stamp=1 + i) for j in range(8)])
            if i % 30 == 29:
                m.commit()
    zero_a_page(path)
    return path


def test_a_damaged_store_is_refused_read_write_and_never_written(damaged):
    before = digest(damaged)
    with pytest.raises(StoreCorruptError, match="damaged .*tempomem recover STORE NEW_STORE"):
        Memory.open(str(damaged), embedding_dim=4)
    assert digest(damaged) == before
    with Memory.open(str(damaged), readonly=True) as ro:  # inspecting it read-only is allowed
        assert ro.embedding_dim == 4
    with pytest.raises(StoreCorruptError):
        Memory.open(str(damaged), readonly=True, check="quick")
    assert digest(damaged) == before


def test_tempomem_check_and_recover_salvage_a_damaged_store(damaged, tmp_path):
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["check", str(damaged)], out=out, err=err) == 1
    assert "damaged" in out.getvalue() and f"tempomem recover {damaged} NEW_STORE" in out.getvalue()
    new = tmp_path / "new.db"
    out = io.StringIO()
    code = cli.main(["recover", str(damaged), str(new)], out=out, err=err)
    text = out.getvalue()
    assert code in (0, 1) and "integrity of the new store: ok" in text, text
    assert cli.main(["check", str(new)], out=io.StringIO(), err=err) == 0
    assert cli.main(["recover", str(damaged), str(new)], out=io.StringIO(), err=(e := io.StringIO())) == 2
    assert "exists: recovery writes a new store and never overwrites a file" in e.getvalue()
    with Memory.open(str(new), embedding_dim=4) as m:  # read-write, quick check passes
        objects = m.objects()
        assert objects and all(m.placements(o.id) for o in objects)  # every object kept its history
        assert m.ask("where is the thing3").understood
        (row,) = [a for a in m.audit() if a.action == "recover"]
        assert row.detail["source"] == str(damaged)
        before_max = max(o.id for o in objects)
        m.add([box_obs("newcomer", (9, 9, 0.5), stamp=500)])
        m.commit()
        assert max(o.id for o in m.objects()) > before_max  # ids continue past the source's ids


def test_recovery_of_an_intact_store_is_complete(tmp_path):
    path = tmp_path / "m.db"
    build(path, frames=4)
    report = recovery.recover(str(path), str(tmp_path / "copy.db"))
    assert report.complete and report.integrity == "ok"
    with Memory.open(str(path), readonly=True) as a, Memory.open(str(tmp_path / "copy.db"), readonly=True) as b:
        assert [(o.id, o.label, o.center, o.state) for o in a.objects()] == \
               [(o.id, o.label, o.center, o.state) for o in b.objects()]
        assert [e.kind for e in a.changes()] == [e.kind for e in b.changes()]
        assert a.ask("where is the mug").text == b.ask("where is the mug").text


def test_not_a_database_is_a_corrupt_error(tmp_path):
    path = tmp_path / "m.db"
    path.write_bytes(b"this is not a database" * 400)
    with pytest.raises(StoreCorruptError, match="not a SQLite database"):
        Memory.open(str(path), embedding_dim=4)
    assert path.read_bytes() == b"this is not a database" * 400


# ------------------------------------------------------------------------------------------------- metadata
@pytest.mark.parametrize("sql,match", [
    ("UPDATE meta SET value='two' WHERE key='schema_version'", "'schema_version' is 'two', not a positive integer"),
    ("UPDATE meta SET value='abc' WHERE key='embedding_dim'", "'embedding_dim' is 'abc', not a positive integer"),
    ("DELETE FROM meta WHERE key='embedding_dim'", "lacks 'embedding_dim'"),
    ("DELETE FROM meta WHERE key='schema_version'", "lacks 'schema_version'"),
    ("DROP TABLE objects", "lacks table\\(s\\) objects"),
    ("DROP TABLE placements", "lacks table\\(s\\) placements"),
])
def test_damaged_metadata_is_a_schema_error_naming_it(tmp_path, sql, match):
    path = tmp_path / "m.db"
    build(path)
    con = sqlite3.connect(str(path))
    con.execute(sql)
    con.commit()
    con.close()
    for readonly in (False, True):
        with pytest.raises(SchemaError, match=match):
            Memory.open(str(path), readonly=readonly)
        with pytest.raises(SchemaError, match=match):
            Memory.open(str(path), embedding_dim=4, readonly=readonly)


def test_a_foreign_sqlite_file_is_not_taken_over(tmp_path):
    path = tmp_path / "other.db"
    con = sqlite3.connect(str(path))
    con.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    con.commit()
    con.close()
    with pytest.raises(SchemaError, match="not a tempomem store"):
        Memory.open(str(path), embedding_dim=4)
    con = sqlite3.connect(str(path))
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["photos"]
    con.close()


# ------------------------------------------------------------------------------------------ read-only media
PROBE = textwrap.dedent("""
    import sys
    from tempomem_ros.core import Memory, TempoMemError
    try:
        with Memory.open(sys.argv[1], readonly=True) as m:
            print("OPEN", m.immutable, len(m.objects()), m.ask("where is the mug").text[:22])
    except TempoMemError as exc:
        print("ERROR", type(exc).__name__, exc)
""")


def on_read_only_mount(directory, store_name) -> str:
    """Runs PROBE on ``directory`` bind-mounted read-only in a private mount namespace (needs root or
    user namespaces; the mount vanishes with the process)."""
    mnt = directory.parent / (directory.name + "_ro")
    mnt.mkdir()
    script = directory.parent / "probe.py"
    script.write_text(PROBE)
    cmd = (f"mount --bind {directory} {mnt} && mount -o remount,bind,ro {mnt} && touch {mnt}/x 2>/dev/null "
           f"&& echo WRITABLE; {sys.executable} {script} {mnt}/{store_name}")
    for prefix in (["unshare", "-m"], ["unshare", "-r", "-m"]):
        if shutil.which(prefix[0]) is None:
            break
        res = subprocess.run([*prefix, "sh", "-c", cmd], capture_output=True, text=True, timeout=120)
        if res.returncode == 0 and ("OPEN" in res.stdout or "ERROR" in res.stdout):
            assert "WRITABLE" not in res.stdout
            return res.stdout.strip()
    pytest.skip("cannot bind-mount read-only here (needs root or unprivileged user namespaces)")


def test_a_cleanly_closed_store_opens_read_only_from_read_only_media(tmp_path):
    media = tmp_path / "media"
    media.mkdir()
    build(media / "m.db")
    assert sorted(os.listdir(media)) == ["m.db"]  # a clean close leaves no -wal / -shm
    assert on_read_only_mount(media, "m.db") == "OPEN True 2 The mug is at (2.00, 0"


def test_a_store_with_its_wal_files_opens_read_only_from_read_only_media(tmp_path):
    """A copy taken while a writer had it open: -wal and -shm are there and SQLite reads them."""
    media = tmp_path / "media"
    media.mkdir()
    build(tmp_path / "live.db")
    writer = Memory.open(str(tmp_path / "live.db"), embedding_dim=4, clock=lambda: 1000.0)
    writer.add([box_obs("cup", (5, 5, 0.5), stamp=30)])
    writer.commit()  # committed into the -wal, not yet checkpointed into the main file
    for suffix in ("", "-wal", "-shm"):
        shutil.copy(str(tmp_path / "live.db") + suffix, str(media / "m.db") + suffix)
    writer.close()
    assert on_read_only_mount(media, "m.db") == "OPEN False 3 The mug is at (2.00, 0"


def test_wal_content_without_its_shm_on_read_only_media_is_refused_not_ignored(tmp_path):
    media = tmp_path / "media"
    media.mkdir()
    build(tmp_path / "live.db")
    writer = Memory.open(str(tmp_path / "live.db"), embedding_dim=4, clock=lambda: 1000.0)
    writer.add([box_obs("cup", (5, 5, 0.5), stamp=30)])
    writer.commit()
    for suffix in ("", "-wal"):
        shutil.copy(str(tmp_path / "live.db") + suffix, str(media / "m.db") + suffix)
    writer.close()
    out = on_read_only_mount(media, "m.db")
    assert out.startswith("ERROR StoreAccessError") and "-wal file holds commits" in out, out
