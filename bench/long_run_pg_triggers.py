"""What the row triggers cost a commit on PostgreSQL: a long run's store copied into a throwaway cluster, the probe's
frames committed into it, and the server's own count and time of each trigger function (pg_stat_user_functions).

    .venv/bin/python bench/long_run_pg_triggers.py out/lr/thin-off.db.day30

Why: on SQLite a trigger's cost is counted in VM steps (long_run_commit_steps.py --drop-triggers), which
PostgreSQL has no equivalent of; there the server times its trigger functions itself when ``track_functions``
is 'all' (calls, total time, self time: without the functions it calls), so the figure is the triggers' own,
not a difference of two timed commits under this machine's load. The store is copied
(core/store/transfer.migrate) into a schema of a cluster of tools/pg_sandbox.py (unix socket only, removed at the
end); the probe is long_run_commit_steps.py's (the household's patrol from the start of day ``--days``,
``--probe-s`` of it, committed every bench_long_run.COMMIT_EVERY frames). The SQLite store is never written.
"""

from __future__ import annotations

import importlib.util
import os
import time
from urllib.parse import quote

import numpy as np

from tempomem_ros.core import Memory
from tempomem_ros.core.store import transfer
from tempomem_ros.tools.pg_sandbox import PgSandbox

spec = importlib.util.spec_from_file_location(
    "long_run_commit_steps", os.path.join(os.path.dirname(os.path.abspath(__file__)), "long_run_commit_steps.py"))
steps = importlib.util.module_from_spec(spec)
spec.loader.exec_module(steps)
bench = steps.bench

STATS = ("SELECT funcname, calls, round(total_time::numeric, 3), round(self_time::numeric, 3) "
         "FROM pg_stat_user_functions WHERE schemaname = 's' ORDER BY funcname")


def main(argv=None) -> int:
    args = steps.probe_parser(__doc__).parse_args(argv)
    dim, probe = steps.probe_frames(args)
    sandbox = PgSandbox.start()
    try:
        sandbox.create_database("long_run")
        sandbox.psql("CREATE EXTENSION postgis", "long_run")
        sandbox.psql("CREATE SCHEMA s", "long_run")
        url = sandbox.url("long_run") + "?options=" + quote("-csearch_path=s,public", safe="")
        t0 = time.perf_counter()
        transfer.migrate(args.store, url)
        copied = time.perf_counter() - t0
        sandbox.psql("ANALYZE s.placements; ANALYZE s.objects; ANALYZE s.events; ANALYZE s.observations", "long_run")
        sandbox.psql("ALTER DATABASE long_run SET track_functions = 'all'", "long_run")
        sandbox.psql("SELECT pg_stat_reset()", "long_run")
        memory = Memory.open(url, embedding_dim=dim, config={"retention": {"mode": args.retention}})
        wall = []
        for k, frame in enumerate(probe, 1):
            memory.add(bench.without_features(frame.observations), frame.view)
            if k % bench.COMMIT_EVERY == 0 or k == len(probe):
                w0 = time.perf_counter()
                memory.commit()
                wall.append((time.perf_counter() - w0) * 1e3)
        memory.close()
        time.sleep(1.5)  # the closed session's function counts reach the shared statistics
        stats = sandbox.psql(STATS, "long_run")
    finally:
        sandbox.stop()
    commits = len(wall)
    print(f"{args.store} copied in {copied:.1f} s; {commits} commits of {args.probe_s:g} s of frames, wall p50 "
          f"{np.percentile(wall, 50):.2f} ms, p95 {np.percentile(wall, 95):.2f} ms, sum {sum(wall):.1f} ms "
          f"(load {os.getloadavg()[0]:.1f})")
    print("trigger function | calls | total ms | self ms | self ms a commit")
    for line in str(stats).strip().splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 4 and parts[1].isdigit():
            print(f"{parts[0]} | {parts[1]} | {parts[2]} | {parts[3]} | {float(parts[3]) / commits:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
