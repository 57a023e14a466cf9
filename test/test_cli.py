"""The ``tempomem`` command on a small store built with the core: outputs, files and exit codes."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re

import pytest
from core_helpers import IMMEDIATE, box_obs, view
from PIL import Image

from tempomem_ros.core import Memory, Observation
from tempomem_ros.tools import cli
from tempomem_ros.tools.render_map import nice_length

A, B = (2.0, 0.0, 0.8), (0.0, 2.0, 0.8)


def mug(at, stamp) -> Observation:
    return box_obs("mug", at, stamp=stamp)


def table(stamp) -> Observation:
    return Observation("table", 0.9, (2.0, 0.0, 0.375), (1.5, -0.5, 0.0), (2.5, 0.5, 0.75), stamp)


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> str:
    """Mug on a table at A (t=10..12), gone (t=20..22), then at B (t=30)."""
    path = str(tmp_path_factory.mktemp("cli") / "memory.db")
    with Memory.open(path, embedding_dim=8, config=IMMEDIATE) as m:
        for i in range(3):
            m.add([mug(A, 10 + i), table(10 + i)], view(10 + i, A, 2.1))
            m.commit()
        for i in range(3):
            m.add([table(20 + i)], view(20 + i, A, 3.0))
            m.commit()
        m.add([mug(B, 30)], view(30, B, 2.1))
        m.commit()
    return path


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def rows(text: str) -> list[list[str]]:
    return [re.split(r"\s{2,}", line.strip()) for line in text.strip().splitlines()]


def digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_objects(store):
    code, out, err = run(["objects", store])
    assert (code, err) == (0, "")
    assert rows(out) == [
        ["id", "label", "state", "conf", "center", "first_seen", "last_seen", "obs", "moves", "region"],
        ["1", "mug", "present", "0.98", "(0.00, 2.00, 0.80)", "10.000", "30.000", "4", "1", "-"],
        ["2", "table", "present", "0.99", "(2.00, 0.00, 0.38)", "10.000", "22.000", "6", "0", "-"],
    ]


def test_objects_state_filter(store):
    code, out, _ = run(["objects", store, "--state", "missing"])
    assert code == 0 and len(rows(out)) == 1  # header only


def test_placements(store):
    code, out, _ = run(["placements", store, "1"])
    lines = rows(out)
    assert code == 0 and lines[0] == ["object #1 mug (present): 2 placements, newest first: 1-2"]
    assert lines[2] == ["1", "10.000", "12.000", "20.000", "no", "(2.00, 0.00, 0.80)", "-", "removed"]
    assert lines[3][1:6] == ["30.000", "30.000", "-", "yes", "(0.00, 2.00, 0.80)"]
    assert len(lines) == 4   # the default page (20) holds both: no "older" line


def test_placements_page_from_the_newest_with_the_total_and_the_next_offset(store):
    """tempomem placements: the History service's page of placements (placements_k / placements_offset)."""
    code, out, _ = run(["placements", store, "1", "--k", "1"])
    assert code == 0 and rows(out)[0] == ["object #1 mug (present): 2 placements, newest first: 1-1"]
    assert [r[:5] for r in rows(out)[2:]] == [["3", "30.000", "30.000", "-", "yes"], ["older: --offset 1"]]
    code, out, _ = run(["placements", store, "1", "--k", "1", "--offset", "1"])
    assert code == 0 and rows(out)[0] == ["object #1 mug (present): 2 placements, newest first: 2-2"]
    assert [r[:5] for r in rows(out)[2:]] == [["1", "10.000", "12.000", "20.000", "no"]]   # the last page
    code, out, _ = run(["placements", store, "1", "--offset", "2"])
    assert code == 0 and rows(out)[0] == ["object #1 mug (present): 2 placements, newest first: none"]
    assert len(rows(out)) == 2   # the header line and the table's header only


def test_history_pages_from_the_newest_with_the_total_and_the_next_offset(store):
    """tempomem history: the History service's page (the newest --k after the --offset newest, in stamp order)."""
    code, out, _ = run(["history", store, "1"])
    assert code == 0 and rows(out)[0] == ["object #1 mug (present): 4 observations kept, newest first: 1-4"]
    assert rows(out)[1:] == [["id", "stamp", "verdict", "label", "center"],
                             ["1", "10.000", "created", "mug", "(2.00, 0.00, 0.80)"],
                             ["3", "11.000", "merged", "mug", "(2.00, 0.00, 0.80)"],
                             ["5", "12.000", "merged", "mug", "(2.00, 0.00, 0.80)"],
                             ["10", "30.000", "merged", "mug", "(0.00, 2.00, 0.80)"]]
    code, out, _ = run(["history", store, "1", "--k", "2"])
    assert code == 0 and [r[0] for r in rows(out)[2:]] == ["5", "10", "older: --offset 2"]
    assert rows(out)[0] == ["object #1 mug (present): 4 observations kept, newest first: 1-2"]
    code, out, _ = run(["history", store, "1", "--k", "2", "--offset", "2"])
    assert code == 0 and [r[0] for r in rows(out)[2:]] == ["1", "3"]   # the last page: no "older" line
    assert rows(out)[0] == ["object #1 mug (present): 4 observations kept, newest first: 3-4"]
    code, out, _ = run(["history", store, "1", "--offset", "9"])
    assert code == 0 and rows(out) == [["object #1 mug (present): 4 observations kept, newest first: none"],
                                       ["id", "stamp", "verdict", "label", "center"]]


def test_events_and_since(store):
    code, out, _ = run(["events", store])
    assert code == 0
    assert [(r[2], r[3]) for r in rows(out)[1:]] == [
        ("appeared", "1"),
        ("appeared", "2"),
        ("removed", "1"),
        ("moved", "1"),
    ]
    code, out, _ = run(["events", store, "--since", "25"])
    assert [r[2] for r in rows(out)[1:]] == ["moved"]


def test_audit(store):
    code, out, _ = run(["audit", store])
    actions = [r[3] for r in rows(out)[1:]]
    assert code == 0 and actions[:2] == ["create", "create"] and actions[-2:] == ["remove", "move"]


def test_ask(store):
    code, out, _ = run(["ask", store, "where was the mug before?"])
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("Before, the mug was at (2.00, 0.00, 0.80)")
    assert "operation: previous" in lines
    code, out, _ = run(["ask", store, "how many times did the mug move"])
    assert "count: 1" in out.splitlines()
    code, out, _ = run(["ask", store, "what changed in the last 15 seconds", "--now", "30"])
    assert code == 0 and out.splitlines()[0].startswith("2 change(s): mug removed")


def test_ask_not_understood_is_not_an_error(store):
    code, out, _ = run(["ask", store, "sing me a song"])
    assert code == 0 and "did not understand" in out and "operation" not in out
    code, out, _ = run(["ask", store, "who moved the mug"])
    assert code == 0 and any(line.startswith("try: ") and "mug" in line for line in out.splitlines())


def test_ask_says_what_it_understood(store):
    code, out, _ = run(["ask", store, "where was the mug half an hour ago", "--now", "1830"])
    lines = out.splitlines()
    assert code == 0 and "understood as: place of mug at 1970-01-01 00:00:30 UTC" in lines
    assert 'arguments: {"label": "mug", "t": 30.0}' in lines
    code, out, _ = run(["ask", store, "did the mug move?"])
    assert "verdict: yes" in out.splitlines() and "understood as: whether mug moved" in out.splitlines()


def test_mcp_over_stdio_lists_tools_and_answers_with_citations(store):
    """`tempomem mcp STORE` as a subprocess, driven by the MCP SDK's stdio client."""
    import sys

    anyio = pytest.importorskip("anyio")
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "tempomem_ros.tools.cli", "mcp", store])

    async def session():
        async with Client(params) as client:
            tools = await client.list_tools()
            answer = await client.call_tool("previous", {"label": "mug"})
            return tools, answer

    tools, answer = anyio.run(session)
    assert "where_to_look" in [t.name for t in tools.tools] and "ask" in [t.name for t in tools.tools]
    out = answer.structured_content
    assert out["ok"] is True and out["placements"][0]["center"] == pytest.approx([2.0, 0.0, 0.8])
    assert out["cite"]["object_ids"] == [1] and out["cite"]["observation_ids"]


def test_render_png(store, tmp_path):
    png = tmp_path / "map.png"
    code, out, _ = run(["render", store, str(png)])
    assert code == 0 and out.strip() == (
        f"wrote {png}: 2 object(s) (0 missing), 1 move arrow(s), scale bar 0.5 m"
    )
    assert png.stat().st_size > 1000
    with Image.open(png) as im:
        assert im.format == "PNG" and im.width >= 400 and im.height >= 300
        assert len(im.getcolors(1 << 20)) > 3  # more than background and grid


def test_render_as_of(store, tmp_path):
    png = tmp_path / "map11.png"
    code, out, _ = run(["render", store, str(png), "--time", "11"])
    assert code == 0 and "2 object(s) (0 missing), 0 move arrow(s)" in out and png.stat().st_size > 0
    code, out, _ = run(["render", store, str(tmp_path / "early.png"), "--time", "1"])
    assert code == 0 and "0 object(s)" in out and (tmp_path / "early.png").stat().st_size > 0


def test_export_json(store, tmp_path):
    path = tmp_path / "out.json"
    code, out, _ = run(["export", store, str(path)])
    assert code == 0 and out.strip() == f"wrote {path}: 2 objects, 3 placements, 4 events, 0 relations"
    data = json.loads(path.read_text())
    assert sorted(data) == ["events", "objects", "placements", "regions", "relations", "store"]
    assert [o["label"] for o in data["objects"]] == ["mug", "table"]
    assert [e["kind"] for e in data["events"]] == ["appeared", "appeared", "removed", "moved"]
    assert data["events"][3]["before"]["center"] == [2.0, 0.0, 0.8]
    assert data["store"]["embedding_dim"] == 8


def test_read_only_commands_leave_the_store_unchanged(store, tmp_path):
    before = digest(store)
    for argv in (
        ["objects", store],
        ["events", store],
        ["audit", store],
        ["ask", store, "where is the mug"],
        ["ask", store, "where should I look for the mug"],
        ["render", store, str(tmp_path / "x.png")],
        ["export", store, str(tmp_path / "x.json")],
    ):
        assert run(argv)[0] == 0
    assert digest(store) == before


@pytest.mark.parametrize(
    "argv, message",
    [
        (["objects", "/nonexistent/memory.db"], "store '/nonexistent/memory.db' does not exist"),
        (["placements", "STORE", "99"], "unknown object id 99"),
        (["placements", "STORE", "1", "--k", "0"], "--k must be >= 1"),
        (["placements", "STORE", "1", "--offset", "-1"], "--k must be at least 1 and --offset at least 0"),
    ],
)
def test_errors_exit_2(store, argv, message):
    code, out, err = run([store if a == "STORE" else a for a in argv])
    assert (code, out) == (2, "")
    assert err.strip() == f"tempomem: error: {message}"


def test_bad_arguments_exit_2(store, capsys):
    assert cli.main(["placements", store, "abc"]) == 2
    assert "object id must be an integer" in capsys.readouterr().err
    assert cli.main([]) == 2
    assert cli.main(["--help"]) == 0


@pytest.mark.parametrize("flag, value", [("--poll", "0"), ("--poll", "-1"), ("--poll", "nan"), ("--poll-max", "0"),
                                         ("--poll", "soon")])
def test_fuse_refuses_a_wait_that_is_not_positive(store, capsys, flag, value):
    """Review of stop 34: --poll 0 never backed off (a busy loop of COUNT queries), --poll -1 died in time.sleep."""
    assert cli.main(["fuse", store, flag, value, "--until-empty"]) == 2
    assert "a wait must be" in capsys.readouterr().err


def test_not_a_store(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    code, _, err = run(["objects", str(junk)])
    assert code == 2 and "is not a tempomem store" in err


def test_forget_then_again(tmp_path, store):
    copy = tmp_path / "copy.db"
    copy.write_bytes(open(store, "rb").read())
    code, out, _ = run(["forget", str(copy), "2", "--reason", "sold"])
    assert (code, out.strip()) == (0, "forgot object #2 (table): sold")
    code, _, err = run(["forget", str(copy), "2"])
    assert code == 2 and "already forgotten" in err
    code, out, _ = run(["objects", str(copy), "--state", "forgotten"])
    assert [r[:3] for r in rows(out)[1:]] == [["2", "table", "forgotten"]]


def test_nice_length():
    assert [nice_length(x) for x in (0.7, 1.0, 3.0, 7.0, 0.03)] == [0.5, 1.0, 2.0, 5.0, 0.02]


def test_tables_lists_every_table_with_rows_and_columns(store):
    code, out, err = run(["tables", store])
    assert (code, err) == (0, "")
    by_name = {r[0]: r[1:] for r in rows(out)}
    assert by_name["objects"] == ["2 rows", "42 columns"]
    assert by_name["placements"] == ["3 rows", "18 columns"]  # the mug's two places and the table's one
    assert by_name["objects_rtree"] == ["2 rows", "7 columns [RTREE]"]
    assert by_name["frames"] == ["7 rows", "20 columns"] and by_name["observations"] == ["10 rows", "27 columns"]
    assert not any(name.startswith("sqlite_") for name in by_name)
    assert list(by_name)[:4] == ["meta", "frames", "observations", "objects"]  # the schema's order


def test_tables_refuses_what_it_cannot_read(tmp_path):
    code, out, err = run(["tables", str(tmp_path / "absent.db")])
    assert (code, out) == (2, "") and "does not exist" in err
    code, out, err = run(["tables", "postgresql:///tempomem"])
    assert (code, out) == (2, "") and "psql" in err


def test_fuse_fuses_what_the_robots_staged_in_one_batch_and_stops_when_nothing_is_staged(tmp_path):
    """`tempomem fuse STORE --until-empty`: the fleet's fuser (docs/FLEET.md) fuses every staged frame of both robots
    in one batch, in stamp order, and stops; a second run finds nothing staged."""
    from core_helpers import box_obs

    path = str(tmp_path / "m.db")
    with Memory.open(path, embedding_dim=4) as a:
        a.add([box_obs("mug", (1.0, 0.0, 0.8), stamp=2.0)], source="robot_a")
        a.add([box_obs("cup", (0.0, 1.0, 0.8), stamp=1.0)], source="robot_b")
        assert a.pending() == 2
        assert run(["fuse", path, "--until-empty"]) == (0, f"fused 2 frame(s) in 1 batch(es) into {path}\n", "")
        assert a.pending() == 0
        assert [(h.label, h.source) for h in a.observations()] == [("mug", "robot_a"), ("cup", "robot_b")]
        assert {o.verdict for o in a.observations()} == {"created"}
    assert run(["fuse", path, "--until-empty"]) == (0, f"fused 0 frame(s) in 0 batch(es) into {path}\n", "")


def test_fuse_bounds_its_batches_by_default_as_the_memory_node_does(tmp_path, monkeypatch, capsys):
    """Stop 44: `tempomem fuse` fused every staged frame in one batch by default (192-631 frames a batch behind a
    backlog, the fusion lock held past other writers' 5 s timeout). Its default is now FLEET_FUSE_BATCH (50), the
    memory node's commit_max_frames default (config/tempomem.yaml); --max-frames N changes it, 0 is every staged
    frame in one batch, a negative bound is refused."""
    import yaml
    from core_helpers import box_obs

    from tempomem_ros.tools import cli

    config = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "config", "tempomem.yaml")
    with open(config) as f:
        node = yaml.safe_load(f)["memory_node"]["ros__parameters"]
    assert cli.FLEET_FUSE_BATCH == node["commit_max_frames"] == 50
    assert cli.build_parser().parse_args(["fuse", "m.db"]).max_frames == 50
    path = str(tmp_path / "m.db")
    with Memory.open(path, embedding_dim=4) as robot:
        stamps = iter(range(1, 100))

        def stage(n):
            for _ in range(n):
                robot.add([box_obs("mug", (1.0, 0.0, 0.8), stamp=float(next(stamps)))], source="robot_a")

        monkeypatch.setattr(cli, "FLEET_FUSE_BATCH", 2)
        stage(5)
        assert run(["fuse", path, "--until-empty"]) == (0, f"fused 5 frame(s) in 3 batch(es) into {path}\n", "")
        stage(5)
        assert run(["fuse", path, "--until-empty", "--max-frames", "0"]) == (
            0, f"fused 5 frame(s) in 1 batch(es) into {path}\n", "")
        stage(5)
        assert run(["fuse", path, "--until-empty", "--max-frames", "4"]) == (
            0, f"fused 5 frame(s) in 2 batch(es) into {path}\n", "")
        for bad in ("-1", "two"):
            assert cli.main(["fuse", path, "--max-frames", bad, "--until-empty"]) == 2
            assert "argument --max-frames: frames per batch must be" in capsys.readouterr().err
        assert robot.pending() == 0


def test_fuse_waits_and_tries_again_when_another_writer_holds_the_fusion_lock(tmp_path, monkeypatch):
    """Review of session 33: a lock timeout (another writer's forget or commit held the fusion lock past it) left the
    fuser process dead and the fleet unfused; it now waits and tries again, and says how often it waited."""
    from core_helpers import box_obs

    from tempomem_ros.core.errors import StoreLockedError
    from tempomem_ros.tools import cli

    path = str(tmp_path / "m.db")
    with Memory.open(path, embedding_dim=4) as a:
        a.add([box_obs("mug", (1.0, 0.0, 0.8), stamp=1.0)], source="robot_a")
        commit, failures = Memory.commit, [StoreLockedError("the store is locked by another writer")]

        def locked_once(self, max_frames=None):
            if failures:
                raise failures.pop()
            return commit(self, max_frames)

        monkeypatch.setattr(Memory, "commit", locked_once)
        monkeypatch.setattr(cli, "LOCKED_BACKOFF_S", 0.0)
        assert run(["fuse", path, "--until-empty"]) == (
            0, f"fused 1 frame(s) in 1 batch(es) into {path}, 1 wait(s) for the fusion lock\n", "")
        assert a.pending() == 0


def test_fuse_backs_off_while_idle_and_looks_again_at_once_after_a_batch(tmp_path, monkeypatch):
    """Review of session 33: `--poll 0.005` asked the server ~200 COUNTs a second while nothing was staged. Idle, the
    fuser's wait doubles from --poll up to --poll-max; a batch fused sets it back to --poll."""
    from core_helpers import box_obs

    from tempomem_ros.tools import cli

    assert [w for w, _ in zip(cli.idle_waits(0.005, 0.1), range(7))] == [0.005, 0.01, 0.02, 0.04, 0.08, 0.1, 0.1]
    path = str(tmp_path / "m.db")
    with Memory.open(path, embedding_dim=4) as robot:
        robot.add([box_obs("mug", (1.0, 0.0, 0.8), stamp=1.0)], source="robot_a")
        slept = []

        def sleep(s):  # the fuser's waits: a frame is staged at its third empty look, Ctrl-C at its sixth
            slept.append(s)
            if len(slept) == 3:
                robot.add([box_obs("cup", (0.0, 1.0, 0.8), stamp=2.0)], source="robot_b")
            if len(slept) == 6:
                raise KeyboardInterrupt

        monkeypatch.setattr(cli.time, "sleep", sleep)
        code, out, _ = run(["fuse", path, "--poll", "0.01", "--poll-max", "0.03"])
        assert (code, out) == (0, f"fused 2 frame(s) in 2 batch(es) into {path}\n")
        assert slept == [0.01, 0.02, 0.03, 0.01, 0.02, 0.03]
        assert robot.pending() == 0
