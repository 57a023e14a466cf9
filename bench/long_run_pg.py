"""A long run's kept stores on PostgreSQL: the same answers as on SQLite, and how the one-row-an-object reads plan.

    .venv/bin/python bench/long_run_pg.py out/lr/thin-off.db.day1 out/lr/thin-off.db.day30

Each store is copied (core/store/transfer.migrate) into a schema of a throwaway cluster (tools/pg_sandbox.py: unix
socket only, removed at the end) and ANALYZEd. Then, for every item label, current / previous / as_of (20 h before
the store's newest stamp) / is_present / did_move are asked of the SQLite file and of its PostgreSQL copy and their
repr() compared; and the set form of one placement an object (a join on a correlated ``LIMIT 1``, the form
PlacementRows.one_of_each uses on SQLite) is run under EXPLAIN ANALYZE for the store's first 11 shown objects, as
the planner chooses and with hash joins off. Why: PostgreSQL plans it as a hash over every placement, which grows
with the store; so on PostgreSQL one_of_each pipelines the one-object statement instead (store/base.pipelines).
"""

from __future__ import annotations

import argparse
import sqlite3
from urllib.parse import quote

from tempomem_ros.core import Memory
from tempomem_ros.core.store import transfer
from tempomem_ros.semantics.text_encoder import HashingTextEncoder
from tempomem_ros.tools.household import ITEMS
from tempomem_ros.tools.pg_sandbox import PgSandbox

SET_FORM = ("SELECT p.id FROM objects o JOIN placements p ON p.id = (SELECT q.id FROM placements q "
            "WHERE q.object_id = o.id AND q.current = 1 ORDER BY q.t_from, q.id LIMIT 1) WHERE o.id IN ({marks})")
ASKED = {"current": lambda m, lbl, t: m.temporal("current", label=lbl),
         "previous": lambda m, lbl, t: m.temporal("previous", label=lbl),
         "as_of": lambda m, lbl, t: m.temporal("as_of", label=lbl, t=t),
         "is_present": lambda m, lbl, t: m.is_present(label=lbl),
         "did_move": lambda m, lbl, t: m.did_move(label=lbl)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stores", nargs="+", help="SQLite stores (bench_long_run.py --keep: NAME.db.dayN)")
    args = ap.parse_args(argv)
    labels = sorted({item[0] for item in ITEMS})
    sandbox = PgSandbox.start()
    try:
        sandbox.create_database("long_run")
        sandbox.psql("CREATE EXTENSION postgis", "long_run")
        for n, path in enumerate(args.stores):
            con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            dim = int(dict(con.execute("SELECT key, value FROM meta").fetchall())["embedding_dim"])
            con.close()
            schema = f"s{n}"
            sandbox.psql(f"CREATE SCHEMA {schema}", "long_run")
            url = sandbox.url("long_run") + "?options=" + quote(f"-csearch_path={schema},public", safe="")
            transfer.migrate(path, url)
            sandbox.psql(f"ANALYZE {schema}.placements; ANALYZE {schema}.objects; ANALYZE {schema}.relations",
                         "long_run")
            stores = [Memory.open(p, embedding_dim=dim, readonly=True, label_encoder=HashingTextEncoder())
                      for p in (path, url)]
            t = stores[0].latest_stamp() - 20 * 3600.0
            asked = different = 0
            for lbl in labels:
                for fn in ASKED.values():
                    asked += 1
                    different += repr(fn(stores[0], lbl, t)) != repr(fn(stores[1], lbl, t))
            print(f"{path}: {asked} answers, {different} different between SQLite and PostgreSQL")
            conn = stores[1]._conn
            ids = [int(r[0]) for r in conn.execute(
                "SELECT id FROM objects WHERE state IN ('present', 'missing') ORDER BY id LIMIT 11").fetchall()]
            sql = SET_FORM.format(marks=",".join("?" for _ in ids))
            for setting in (None, "SET enable_hashjoin = off"):
                if setting:
                    conn.execute(setting)
                print(f"  EXPLAIN ANALYZE, set form for {len(ids)} objects ({setting or 'as planned'}):")
                for (line,) in conn.execute("EXPLAIN ANALYZE " + sql, ids).fetchall():
                    if "Scan" in line or "Join" in line or "Loop" in line or "Execution" in line:
                        print(f"    {line}")
            conn.execute("RESET enable_hashjoin")
            for m in stores:
                m.close()
    finally:
        sandbox.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
