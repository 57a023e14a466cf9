"""``tempomem``: inspect a memory store from a shell.

Why a CLI on the store file rather than on the services: a store is often examined when no node runs
(after a field test, from a bug report); SQLite WAL lets the CLI read it even while the node writes.
Every command opens the store read-only except ``forget`` (and ``recover``, which only writes the new
store). Output is plain aligned text (greppable, diffable); errors print one line on stderr and exit with
status 2. ``check`` exits 1 when the store is damaged, ``recover`` exits 1 when rows could not be read.

    tempomem objects STORE [--state present]     tempomem placements STORE ID
    tempomem events STORE [--since T]            tempomem audit STORE
    tempomem ask STORE "where is the mug" [--now T]
    tempomem render STORE out.png [--time T]     tempomem export STORE out.json
    tempomem forget STORE ID [--reason TEXT]     tempomem mcp STORE   (MCP server on stdio, read-only)
    tempomem check STORE [--full]                tempomem recover STORE NEW_STORE
    tempomem migrate STORE NEW_STORE             tempomem merge STORE_A STORE_B --into NEW_STORE
    tempomem grant-reader STORE ROLE             (PostgreSQL: a role that may read the memory, never write)

A STORE is a SQLite file or a PostgreSQL address (postgresql://..., service=NAME: docs/FLEET.md; credentials
from libpq's environment, pgpass or service file, never from the command line's output). ``migrate`` and
``merge`` write only the new store (core/store/transfer.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from collections.abc import Sequence

from tempomem_ros.core.errors import StoreLockedError, TempoMemError
from tempomem_ros.core.memory import FLEET_FUSE_BATCH, Memory
from tempomem_ros.core.postgres.address import display, is_postgres
from tempomem_ros.core.store import recovery, transfer

EXIT_OK, EXIT_DAMAGED, EXIT_ERROR = 0, 1, 2


class CliError(Exception):
    """A problem the user can fix (missing store, unknown id); printed without a traceback."""


# -------------------------------------------------------------------------------------------------- helpers
def open_store(path: str, *, write: bool = False) -> Memory:
    postgres = is_postgres(path)
    if not postgres and not os.path.isfile(path):
        raise CliError(f"store '{path}' does not exist")
    try:
        return Memory.open(path, readonly=not write)  # the store records its embedding dimension
    except TempoMemError as exc:
        shown = display(path) if postgres else path
        raise CliError(f"'{shown}' is not a tempomem store ({exc})") from None


def fmt_t(t: float | None) -> str:
    return "-" if t is None else f"{t:.3f}"


def fmt_xyz(p) -> str:
    return "-" if p is None else f"({p[0]:.2f}, {p[1]:.2f}, {p[2]:.2f})"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Left-aligned columns separated by two spaces; numbers are already formatted by the caller."""
    cells = [list(map(str, headers))] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells)


def object_rows(objects) -> list[list[object]]:
    return [
        [
            o.id,
            o.label,
            o.state,
            f"{o.confidence:.2f}",
            fmt_xyz(o.center),
            fmt_t(o.first_seen),
            fmt_t(o.last_seen),
            o.n_observations,
            o.n_moves,
            o.region_label or "-",
        ]
        for o in objects
    ]


OBJECT_HEADERS = (
    "id",
    "label",
    "state",
    "conf",
    "center",
    "first_seen",
    "last_seen",
    "obs",
    "moves",
    "region",
)


def parse_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"object id must be an integer, got '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"object id must be >= 1, got {value}")
    return value


def parse_wait(text: str) -> float:
    """A wait in seconds, finite and > 0. Why: `tempomem fuse --poll 0` never backed off (0 doubled is 0: a busy
    loop of COUNT queries) and --poll -1 died in time.sleep (review of stop 34)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a wait must be a number of seconds, got '{text}'") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"a wait must be finite and > 0 seconds, got {text}")
    return value


def parse_max_frames(text: str) -> int | None:
    """``fuse --max-frames``: frames a batch fuses at most; 0 = every staged frame (None), as the memory node's
    ``commit_max_frames`` 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"frames per batch must be a whole number, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"frames per batch must be >= 0 (0: every staged frame), got {text}")
    return value or None


# ------------------------------------------------------------------------------------------------- commands
def cmd_objects(args, out) -> int:
    with open_store(args.store) as m:
        objects = m.objects(args.state)
    print(table(OBJECT_HEADERS, object_rows(objects)), file=out)
    return EXIT_OK


def cmd_placements(args, out) -> int:
    """One page of where an object has been, as the History service answers it (placements_k, placements_offset):
    the newest --k after the --offset newest, printed oldest first, with the total and the command for the next
    (older) page. Every move, removal and reappearance adds a placement for good, so a month-old object's list grows
    with its age; the default page of 20 is the whole list of an object that has stood in at most 20 places."""
    if args.k < 1 or args.offset < 0:
        raise CliError("--k must be at least 1 and --offset at least 0")
    with open_store(args.store) as m:
        obj = m.get(args.id)
        places = m.placements(args.id, k=args.k, offset=args.offset)
        total = m.placement_count(args.id)
    shown = f"{args.offset + 1}-{args.offset + len(places)}" if places else "none"
    print(f"object #{obj.id} {obj.label} ({obj.state}): {total} placements, newest first: {shown}", file=out)
    print(
        table(
            ("id", "t_from", "t_last", "t_to", "current", "center", "region", "closed"),
            [
                [
                    p.id,
                    fmt_t(p.t_from),
                    fmt_t(p.t_last),
                    fmt_t(p.t_to),
                    "yes" if p.current else "no",
                    fmt_xyz(p.center),
                    p.region_label or "-",
                    p.closed_reason or "-",
                ]
                for p in places
            ],
        ),
        file=out,
    )
    if args.offset + len(places) < total:
        print(f"older: --offset {args.offset + len(places)}", file=out)
    return EXIT_OK


def cmd_history(args, out) -> int:
    """One page of an object's kept observations, as the History service answers it: the newest --k after the
    --offset newest, printed in stamp order, with the total and the command for the next (older) page."""
    if args.k < 1 or args.offset < 0:
        raise CliError("--k must be at least 1 and --offset at least 0")
    with open_store(args.store) as m:
        obj = m.get(args.id)
        page = m.history(args.id, k=args.k, offset=args.offset)
        total = m.history_count(args.id)
    shown = f"{args.offset + 1}-{args.offset + len(page)}" if page else "none"
    print(f"object #{obj.id} {obj.label} ({obj.state}): {total} observations kept, newest first: {shown}", file=out)
    print(table(("id", "stamp", "verdict", "label", "center"),
                [[o.id, fmt_t(o.stamp), o.verdict, o.label, fmt_xyz(o.center)] for o in page]), file=out)
    if args.offset + len(page) < total:
        print(f"older: --offset {args.offset + len(page)}", file=out)
    return EXIT_OK


def cmd_events(args, out) -> int:
    with open_store(args.store) as m:
        events = m.changes(args.since, args.until)
    print(
        table(
            ("id", "stamp", "kind", "object", "label", "before", "after"),
            [
                [
                    e.id,
                    fmt_t(e.stamp),
                    e.kind,
                    e.object_id,
                    e.label,
                    fmt_xyz(e.before and e.before.center),
                    fmt_xyz(e.after and e.after.center),
                ]
                for e in events
            ],
        ),
        file=out,
    )
    return EXIT_OK


def cmd_audit(args, out) -> int:
    with open_store(args.store) as m:
        rows = m.audit()
    print(
        table(
            ("id", "wall_time", "stamp", "action", "objects", "detail"),
            [
                [
                    a.id,
                    fmt_t(a.wall_time),
                    fmt_t(a.stamp),
                    a.action,
                    ",".join(map(str, a.object_ids)) or "-",
                    json.dumps(a.detail, sort_keys=True),
                ]
                for a in rows
            ],
        ),
        file=out,
    )
    return EXIT_OK


def cmd_ask(args, out) -> int:
    with open_store(args.store) as m:
        answer = m.ask(args.question, now=args.now, k=args.k)
    print(answer.text, file=out)
    if not answer.understood:
        for s in answer.suggestions:
            print(f"try: {s}", file=out)
        return EXIT_OK
    print(f"understood as: {answer.understood_as}", file=out)
    print(f"operation: {answer.operator}", file=out)
    shown = {k: v for k, v in answer.arguments.items() if v is not None}
    print("arguments: " + json.dumps(shown, sort_keys=True, default=str), file=out)
    if answer.verdict is not None:
        print(f"verdict: {'yes' if answer.verdict else 'no'}", file=out)
    if answer.objects:
        print(table(OBJECT_HEADERS, object_rows(answer.objects)), file=out)
    if answer.placements:
        print("placements:", file=out)
        print(
            table(
                ("id", "object", "t_from", "t_to", "center"),
                [
                    [p.id, p.object_id, fmt_t(p.t_from), fmt_t(p.t_to), fmt_xyz(p.center)]
                    for p in answer.placements
                ],
            ),
            file=out,
        )
    if answer.scores and answer.operator == "where_to_look":
        print("scores: " + ", ".join(f"{x:.3f}" for x in answer.scores), file=out)
    if answer.count is not None:
        print(f"count: {answer.count}", file=out)
    if answer.evidence:
        print("evidence: " + ",".join(map(str, answer.evidence)), file=out)
    return EXIT_OK


def cmd_mcp(args, out) -> int:
    """Serve the agent tools over stdio until the client closes the stream (stdout carries the protocol)."""
    import anyio

    from tempomem_ros.tools.mcp_server import serve_stdio

    open_store(args.store).close()  # a clear error for a missing or foreign file, before stdio is taken
    anyio.run(serve_stdio, args.store)
    return EXIT_OK


def cmd_render(args, out) -> int:
    from tempomem_ros.tools.render_map import render

    with open_store(args.store) as m:
        drawn = render(m, args.out, time=args.time, size=args.size)
    print(
        f"wrote {args.out}: {drawn.objects} object(s) ({drawn.missing} missing), "
        f"{drawn.arrows} move arrow(s), scale bar {drawn.scale_bar_m:g} m",
        file=out,
    )
    return EXIT_OK


def export_data(m: Memory) -> dict:
    """Everything a reviewer needs to reconstruct what the memory believes, as plain JSON types."""
    objects = m.objects()
    return {
        "store": {
            "path": m.path,
            "embedding_dim": m.embedding_dim,
            "feature_model": m.feature_model,
            "latest_stamp": m.latest_stamp(),
        },
        "objects": [dataclasses.asdict(o) for o in objects],
        "placements": [dataclasses.asdict(p) for o in objects for p in m.placements(o.id)],
        "events": [dataclasses.asdict(e) for e in m.changes()],
        "relations": [dataclasses.asdict(r) for r in m.relations()],
        "regions": [dataclasses.asdict(r) for r in m.regions()],
    }


def cmd_export(args, out) -> int:
    with open_store(args.store) as m:
        data = export_data(m)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
    print(
        f"wrote {args.out}: {len(data['objects'])} objects, {len(data['placements'])} placements, "
        f"{len(data['events'])} events, {len(data['relations'])} relations",
        file=out,
    )
    return EXIT_OK


def cmd_forget(args, out) -> int:
    with open_store(args.store, write=True) as m:
        obj = m.get(args.id)
        done = m.forget(args.id, args.reason)
    if not done:
        raise CliError(f"object #{obj.id} ({obj.label}) was already forgotten")
    print(f"forgot object #{obj.id} ({obj.label}): {args.reason}", file=out)
    return EXIT_OK


def cmd_check(args, out) -> int:
    if not os.path.isfile(args.store):
        raise CliError(f"store '{args.store}' does not exist")
    problems = recovery.check(args.store, full=args.full)
    if problems == ["ok"]:
        print(f"{args.store}: ok ({'integrity_check' if args.full else 'quick_check'})", file=out)
        return EXIT_OK
    print(f"{args.store}: damaged", file=out)
    for line in problems:
        print(f"  {line}", file=out)
    print(f"salvage it with: tempomem recover {args.store} NEW_STORE", file=out)
    return EXIT_DAMAGED


def cmd_recover(args, out) -> int:
    report = recovery.recover(args.store, args.out, embedding_dim=args.embedding_dim)
    print("\n".join(report.lines()), file=out)
    if not report.complete:
        print("some rows could not be read or had to be left out (listed above and in the new store's audit)",
              file=out)
        return EXIT_DAMAGED
    return EXIT_OK


def cmd_tables(args, out) -> int:
    """Every table of a SQLite store: rows and columns (sqlite-utils reads the schema)."""
    if is_postgres(args.store):
        raise CliError("tables reads SQLite files; for a PostgreSQL store use psql's \\dt+")
    if not os.path.isfile(args.store):
        raise CliError(f"store '{args.store}' does not exist")
    from tempomem_ros.core.store.schema import connect
    from tempomem_ros.core.store import describe_tables

    from tempomem_ros.core.store.vectors import load_extension

    conn = connect(args.store, readonly=True)
    try:
        load_extension(conn)  # the vector index is a vec0 table (counted as '?' where the extension is absent)
        tables = describe_tables(conn)
    finally:
        conn.close()
    width = max(len(t.name) for t in tables)
    for t in tables:
        rows = "?" if t.rows is None else str(t.rows)
        kind = "" if t.kind == "table" else f" [{t.kind}]"
        print(f"{t.name.ljust(width)}  {rows:>9} rows  {len(t.columns):>3} columns{kind}", file=out)
    return EXIT_OK


def _counts(rows: dict) -> str:
    return ", ".join(f"{n} {table}" for table, n in rows.items() if n)


def cmd_migrate(args, out) -> int:
    rows = transfer.migrate(args.store, args.out)
    print(f"migrated {_shown(args.store)} into {_shown(args.out)}: {_counts(rows) or 'an empty memory'} "
          "(every id kept)", file=out)
    return EXIT_OK


LOCKED_BACKOFF_S = 0.5  # the fuser's wait after a lock timeout before it tries again


def idle_waits(first: float, most: float):
    """The fuser's waits between looks while nothing is staged: ``first``, then doubled each time, at most
    ``most`` (cmd_fuse)."""
    wait = first
    while True:
        yield wait
        wait = min(most, wait * 2)


def cmd_fuse(args, out) -> int:
    """A fleet's fuser (docs/FLEET.md, "Staging beside fusion"): the robots only stage, this fuses the frames staged
    so far in batches of at most ``--max-frames`` (FLEET_FUSE_BATCH, 50, as the memory node's ``commit_max_frames``;
    0: every staged frame in one), each one transaction, and looks again every ``--poll`` seconds; ``--until-empty``
    stops when nothing is staged.

    Why bounded by default: a batch holds the fusion lock for as long as it takes, and behind a backlog an unbounded
    one held it past every other writer's 5 s lock timeout (stop 44, bench_fleet_services: batches of 192-631 frames,
    a node's forget and define_region refused in both trees); batches of 50 leave the lock free between them, and the
    oldest frames become visible first.

    Idle, it backs off (idle_waits): each look that finds nothing doubles the wait, up to ``--poll-max``; a batch
    fused sets it back to ``--poll``. Why: a look is a COUNT query, and ``--poll 0.005`` asked ~200 a second of
    an idle server for ever; backed off to 0.1 s it asks ~10, and a frame staged after a pause waits at most
    ``--poll-max`` more to be fused."""
    batches = frames = waits = 0
    idle = idle_waits(args.poll, max(args.poll, args.poll_max))
    with open_store(args.store, write=True) as m:
        try:
            while True:
                if m.pending():
                    idle = idle_waits(args.poll, max(args.poll, args.poll_max))
                    try:
                        stats = m.commit(args.max_frames)
                    except StoreLockedError:
                        # another writer held the fusion lock past the timeout (a robot's forget, or its own
                        # commit): the frames stay staged; wait and try again rather than leave the fleet unfused
                        waits += 1
                        time.sleep(max(args.poll, LOCKED_BACKOFF_S))
                        continue
                    batches += 1
                    frames += len(stats.frame_ids)
                elif args.until_empty:
                    break
                else:
                    time.sleep(next(idle))
        except KeyboardInterrupt:
            pass
    waited = f", {waits} wait(s) for the fusion lock" if waits else ""
    print(f"fused {frames} frame(s) in {batches} batch(es) into {_shown(args.store)}{waited}", file=out)
    return EXIT_OK


def cmd_merge(args, out) -> int:
    report = transfer.merge(args.store, args.second, args.into)
    for shown, rows in report["rows"].items():
        print(f"copied {shown}: {_counts(rows) or 'an empty memory'}", file=out)
    offsets = report["offsets"]
    if offsets.get("objects"):
        print(f"ids of {_shown(args.second)} shifted by: objects +{offsets['objects']}, observations "
              f"+{offsets['observations']}, events +{offsets['events']} (all: the merge_store audit row)", file=out)
    for kept, gone in report["joined"]:
        print(f"joined object #{gone} into #{kept} (one object seen by both)", file=out)
    print(f"merged into {_shown(args.into)}: {len(report['joined'])} object(s) joined", file=out)
    return EXIT_OK


def cmd_grant_reader(args, out) -> int:
    if not is_postgres(args.store):
        raise CliError("grant-reader needs a PostgreSQL store (a SQLite file is protected by file permissions)")
    from tempomem_ros.core.postgres.roles import grant_reader

    try:
        tables = grant_reader(args.store, args.role)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    print(f"role {args.role} may read {len(tables)} tables of {_shown(args.store)}, and write none", file=out)
    return EXIT_OK


def _shown(address: str) -> str:
    return display(address) if is_postgres(address) else address


# --------------------------------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tempomem", description="Inspect a tempomem memory store (SQLite or "
                                "PostgreSQL).")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, func, help_text: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.add_argument("store", help="the store: a SQLite file (.db) or a PostgreSQL address")
        sp.set_defaults(func=func)
        return sp

    sp = add("objects", cmd_objects, "list objects")
    sp.add_argument("--state", choices=("present", "missing", "forgotten"), help="only objects in this state")
    sp = add("placements", cmd_placements, "where one object has been, a page from the newest, oldest first (as "
             "the History service's placements)")
    sp.add_argument("id", type=parse_id, help="object id")
    sp.add_argument("--k", type=int, default=20, help="page size (default 20, the service's placements_k)")
    sp.add_argument("--offset", type=int, default=0, help="skip this many newest placements (the pages read)")
    sp = add("history", cmd_history, "one object's kept observations, a page from the newest (as the History "
             "service)")
    sp.add_argument("id", type=parse_id, help="object id")
    sp.add_argument("--k", type=int, default=20, help="page size (default 20, the service's)")
    sp.add_argument("--offset", type=int, default=0, help="skip this many newest observations (the pages read)")
    sp = add("events", cmd_events, "change events in stamp order")
    sp.add_argument("--since", type=float, default=None, help="only events with stamp >= T (seconds)")
    sp.add_argument("--until", type=float, default=None, help="only events with stamp <= T (seconds)")
    add("audit", cmd_audit, "the append-only audit of mutations")
    sp = add("ask", cmd_ask, "ask a question in English")
    sp.add_argument("question")
    sp.add_argument(
        "--now", type=float, default=None, help="'now' for relative times (default: latest stamp)"
    )
    sp.add_argument("--k", type=int, default=10, help="maximum number of objects (default 10)")
    sp = add("render", cmd_render, "top-down PNG map")
    sp.add_argument("out", help="output .png")
    sp.add_argument("--time", type=float, default=None, help="the scene as of this time (seconds)")
    sp.add_argument("--size", type=int, default=900, help="longer side of the drawing area, pixels")
    sp = add("export", cmd_export, "objects, placements, events, relations and regions as JSON")
    sp.add_argument("out", help="output .json")
    add("mcp", cmd_mcp, "serve the agent tools as a Model Context Protocol server on stdio (read-only)")
    sp = add("forget", cmd_forget, "forget an object (tombstoned; opens the store for writing)")
    sp.add_argument("id", type=parse_id, help="object id")
    sp.add_argument("--reason", default="forgotten from the command line")
    add("tables", cmd_tables, "every table of a SQLite store with its rows and columns")
    sp = add("check", cmd_check, "check the store file for damage (exit 1 when damaged)")
    sp.add_argument("--full", action="store_true", help="integrity_check (also every index; slower)")
    sp = add("recover", cmd_recover, "salvage every readable row of a damaged store into a new store")
    sp.add_argument("out", help="the new store (must not exist)")
    sp.add_argument("--embedding-dim", type=int, default=None,
                    help="feature dimension, when the damaged store's metadata cannot be read")
    sp = add("migrate", cmd_migrate, "copy a memory into a new, empty store (e.g. a robot's SQLite file into "
             "PostgreSQL), every id, placement and event kept")
    sp.add_argument("out", help="the new store: a SQLite file or a PostgreSQL address (must hold no memory)")
    sp = add("merge", cmd_merge, "merge two robots' memories into a new store: the second's ids shifted, objects "
             "seen by both joined by the twin arbiter, every join recorded")
    sp.add_argument("second", help="the second store")
    sp.add_argument("--into", required=True, help="the new store (must hold no memory)")
    sp = add("fuse", cmd_fuse, "a fleet's fuser: fuse every frame the robots staged, batch after batch (the robots "
             "only stage)")
    sp.add_argument("--poll", type=parse_wait, default=0.005, help="seconds between looks when nothing is staged "
                    "(the first wait; doubled at each empty look, up to --poll-max)")
    sp.add_argument("--poll-max", type=parse_wait, default=0.1,
                    help="longest wait between looks while idle (default 0.1 s)")
    sp.add_argument("--until-empty", action="store_true", help="stop when nothing is staged")
    sp.add_argument("--max-frames", type=parse_max_frames, default=FLEET_FUSE_BATCH,
                    help=f"frames fused per batch at most (oldest first; default {FLEET_FUSE_BATCH}, as the memory "
                         "node's commit_max_frames; 0: every staged frame in one batch)")
    sp = add("grant-reader", cmd_grant_reader, "let a PostgreSQL role read the memory (the query side's role)")
    sp.add_argument("role", help="an existing role (its password in pgpass or the service file)")
    return p


def main(argv: list[str] | None = None, out=None, err=None) -> int:
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # argparse already printed usage + the reason
        return int(exc.code or 0) and EXIT_ERROR
    if getattr(args, "k", 1) is not None and getattr(args, "k", 1) < 1:
        print("tempomem: error: --k must be >= 1", file=err)
        return EXIT_ERROR
    try:
        return args.func(args, out)
    except (CliError, TempoMemError) as exc:
        print(f"tempomem: error: {exc}", file=err)
        return EXIT_ERROR
    except OSError as exc:
        print(f"tempomem: error: {exc}", file=err)
        return EXIT_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
