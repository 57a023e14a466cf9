"""bench/bench_long_run.py --quick runs end to end (about 45 s here) and prints its figures and last line.

Why in CI: the long-run bench is how the store's cost against robot time is seen at all; a change that breaks it
would go unnoticed until someone reruns it. Figures are machine-dependent: only their presence, their format and
what cannot depend on the machine are checked (keep-all keeps every observation, thinning keeps fewer and counts
the rest, the two memories answer the same counts).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_long_run", os.path.join(HERE, "..", "bench", "bench_long_run.py"))
bench = importlib.util.module_from_spec(spec)
sys.modules["bench_long_run"] = bench
spec.loader.exec_module(bench)

LAST = re.compile(r"^long run: \d+\.\d+ MB per robot-hour \(features on\), \d+\.\d+ MB \(off\); commit p95 day1 "
                  r"\d+\.\d ms day2 \d+\.\d ms; query p95 day1 \d+\.\d ms day2 \d+\.\d ms; worst p95 day2/day1 "
                  r"x\d+\.\d\d \(thin/(on|off) (commit|[a-z_]+([@#](1|k\d+))?)\), "
                  r"CPU x\d+\.\d\d \(thin/(on|off) (commit|[a-z_]+([@#](1|k\d+))?)\)$")


@pytest.mark.slow
def test_quick_long_run_prints_every_figure_and_the_last_line(tmp_path, capsys):
    assert bench.main(["--quick", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert LAST.match(out[-1]), out[-1]
    assert out[-2].startswith("long run (keep-all): ")
    text = "\n".join(out)
    for heading in ("store (MB at the end of day", "one robot-hour at 10 Hz", "commit latency ms",
                    "service latency ms", "open the last store", "semantic recall@10"):
        assert heading in text
    for service in bench.SERVICES:
        assert re.search(rf"thin/on\s+{service}\s+day 1:", text), service
    # the paired phase: commit and every service, both sides, on both clocks; the numbers of calls are exact
    for name in ("thin/on", "keep-all/off"):
        for service in ("commit", *bench.SERVICES, *bench.SAME_QUESTION):
            assert re.search(rf"^  {re.escape(name)}\s+{service}\s+day 1: .* day 2: .* x\d+\.\d{{3}} x\d+\.\d{{3}}$",
                             text, re.M), (name, service)
    report = json.loads((tmp_path / "report.json").read_text())
    paired = report["paired"]
    assert set(paired) == {"thin/on", "thin/off", "keep-all/on", "keep-all/off"}
    for per in paired.values():
        for side in ("first", "last"):
            assert set(per[side]) == {"commit", *bench.SERVICES, *bench.SAME_QUESTION}
            # --quick: 2 rounds of 5 calls; 1 round of the probe's 30 frames, a commit every 5
            assert {per[side][s]["wall"]["n"] for s in (*bench.SERVICES, *bench.SAME_QUESTION)} == {2 * 5}
            assert per[side]["commit"]["wall"]["n"] == per[side]["commit"]["cpu"]["n"] == 30 // 5
    runs = report["runs"]
    assert set(runs) == {"thin/on", "thin/off", "keep-all/on", "keep-all/off"}
    for name, run in runs.items():
        last = run["days"][-1]
        if name.startswith("keep-all"):
            assert last["observations"] == report["observations"] and last["thinned_sightings"] == 0
        else:
            assert last["observations"] < report["observations"]
            assert last["observations"] + last["thinned_sightings"] + last["thinned_rejecteds"] == \
                report["observations"]
    # day 1 began with the mapping tour (34 looks of 30 frames: 16 corners, 18 pieces of furniture), then the 4
    # looks of each day; the answers' size is told
    assert "day 1 starts with a mapping tour of 34 looks" in text
    assert report["frames"] == 34 * 30 + 4 * 30 + 4 * 30
    named = re.search(r"objects the 27 item labels name in the stores of day 1, 2 \(the house holds (\d+) under "
                      r"those labels\): thin/on (\d+) / (\d+);", text)
    assert named and int(named.group(1)) == report["labels_truth"] > 0
    assert report["objects_named"]["thin/on day1"] == int(named.group(2)) > 0
    # the stores were removed (no --keep)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("long_run_")]


@pytest.mark.slow
def test_no_patrol_measured_without_continuous_minutes(tmp_path, capsys):
    """--continuous-min 0 used to end in a ZeroDivisionError (the robot-hour of no seconds)."""
    # --quick's size, spelled out: --quick sets --continuous-min itself
    assert bench.main(["--days", "2", "--looks-per-day", "4", "--dim", "32", "--calls", "5", "--warmup-s", "6",
                       "--probe-s", "3", "--continuous-min", "0", "--retention", "thin", "--features", "off",
                       "--no-tour", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert "  thin/off       not measured (--continuous-min 0)" in out
    assert out[-1].startswith("long run: - MB per robot-hour (features on), - MB (off); commit p95 day1 "), out[-1]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["runs"]["thin/off"]["continuous"]["mb_per_robot_hour"] is None


@pytest.mark.slow
def test_the_store_report_says_why_frames_are_kept_and_what_labels_name(tmp_path, capsys):
    """bench/long_run_store.py on the quick run's kept stores: every kept frame of the window is accounted for."""
    spec2 = importlib.util.spec_from_file_location("long_run_store",
                                                   os.path.join(HERE, "..", "bench", "long_run_store.py"))
    report = importlib.util.module_from_spec(spec2)
    spec2.loader.exec_module(report)
    assert bench.main(["--quick", "--retention", "thin", "--features", "off", "--keep", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    store = str(tmp_path / "thin-off.db")
    assert report.main([store, "--window-s", "100000"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    total = int(re.match(rf"^{re.escape(store)}: (\d+) frames kept", out[0]).group(1))
    rows = [re.match(r"^\s+(\d+) \(\s*[\d.]+ %\)\s+(.+)$", line) for line in out[1:-1]]
    assert all(rows) and total > 0 and sum(int(r.group(1)) for r in rows) == total
    assert {r.group(2) for r in rows} <= {"held back", "kept sighting", "miss", "nothing (pending)",
                                          *(" + ".join(sorted(c)) for c in (("held back", "kept sighting"),
                                                                            ("held back", "miss"),
                                                                            ("kept sighting", "miss"),
                                                                            ("held back", "kept sighting", "miss")))}
    assert out[-1].startswith("  events in the window: ")
    assert report.main([store + ".day1", store, "--labels"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and all(re.search(r": the \d+ labels name \d+ objects; most: ", line) for line in lines)
    # what the bench's requests get back, per store; and the paired phase rerun alone on the kept day-1 / day-2 stores
    assert report.main([store + ".day1", store + ".day2", "--answers", "--calls", "5"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    said = re.compile(r": 5 requests a service, summed: current .*objects \d+.*; was_seen ")
    assert len(lines) == 2 and all(said.search(line) for line in lines)
    spec3 = importlib.util.spec_from_file_location("long_run_paired",
                                                   os.path.join(HERE, "..", "bench", "long_run_paired.py"))
    paired = importlib.util.module_from_spec(spec3)
    spec3.loader.exec_module(paired)
    assert paired.main([store + ".day1", store + ".day2", "--days", "2", "--looks-per-day", "4", "--calls", "3",
                        "--rounds", "1", "--commit-rounds", "1", "--probe-s", "1"]) == 0
    out = capsys.readouterr().out
    for service in ("commit", *bench.SERVICES, *bench.SAME_QUESTION):
        line = rf"^  {re.escape(service)}\s+first: .* last: .* x\d+\.\d{{3}} x\d+\.\d{{3}}$"
        assert re.search(line, out, re.M), service
    # the questions about day 1 alone: both stores tell day 1's changes, nearly the same (in this 2-day run 438 in
    # the day-1 store, 444 in the day-2 store: events stamped in day 1 and written on day 2)
    said = re.search(r"^  changes@1\s+first: .*\n\s+the answers say: rows (\d+) -> (\d+)$", out, re.M)
    assert said and int(said.group(1)) > 0 and int(said.group(2)) > 0
