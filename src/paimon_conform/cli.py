"""`paimon-conform`: inspect, validate, encode, query and hash Paimon binary layouts.

Exit codes: 0 valid, 1 findings, 2 unusable input or usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import tempfile
from collections import Counter
from itertools import islice
from pathlib import Path
from typing import Any

from paimon_conform import __version__
from paimon_conform.core import budget, cases, json_text, known_bugs
from paimon_conform.core.errors import LayoutError, PaimonConformError, UsageError, checking
from paimon_conform.core.findings import SEVERITIES, unreadable
from paimon_conform.core.java_releases import NEWEST, RELEASES, judge, release, version_key
from paimon_conform.core.report import RENDERERS, FileResult, exit_code
from paimon_conform.core.types import DataType, parse_type
from paimon_conform.golden import EVIDENCE_KINDS, check_corpus, default_root
from paimon_conform.layouts.base import PARSE_BYTES, Layout, parse_fits
from paimon_conform.layouts.registry import LAYOUTS, detect, get
from paimon_conform.sample import SAMPLE_TYPES, write_sample
from paimon_conform.testee.suite import OPS

KINDS_HELP = ", ".join(sorted(LAYOUTS))


def _read(path: str) -> bytes:
    """A file's bytes; `hex:<hex digits>` for raw bytes such as a manifest's _EMBEDDED_FILE_INDEX; `-` for stdin."""
    if path.startswith("hex:"):
        try:
            data = bytes.fromhex(path[4:])
        except ValueError:
            raise UsageError("hex: must be followed by an even number of hex digits") from None
    elif path == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            budget.reserve(PARSE_BYTES * Path(path).stat().st_size, f"parsing {path}")  # before reading it
            data = Path(path).read_bytes()
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            raise UsageError(f"{path!r}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    parse_fits(data, "hex: bytes" if path.startswith("hex:") else path)
    return data


def _layout_for(data: bytes, kind: str | None, path: str) -> Layout:
    if kind:
        return get(kind)
    layout = detect(data)
    if layout is None:
        raise UsageError(f"{path}: the bytes do not say which layout this is; pass --kind ({KINDS_HELP})")
    return layout


def split_types(text: str) -> list[str]:
    """Comma-separated items, keeping the commas inside DECIMAL(10,2)."""
    return re.split(r",(?![^()]*\))", text)


def _json_types(text: str) -> dict[str, Any]:
    """`--types` given as schema-file JSON (a list of {name, type} fields, or {name: type}): atomic types
    parsed, the rest (ARRAY, MAP, ROW, VARIANT, BLOB, ...) kept as JSON for the layouts that read them."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--types is not JSON: {exc}") from None
    if isinstance(doc, list) and all(isinstance(f, dict) and isinstance(f.get("name"), str) for f in doc):
        doc = {f["name"]: f.get("type") for f in doc}
    if not isinstance(doc, dict):
        raise UsageError("--types as JSON is a list of {name, type} fields or an object {name: type}")
    out: dict[str, Any] = {}
    for name, raw in doc.items():
        try:
            out[name] = parse_type(raw) if isinstance(raw, str) else raw
        except UsageError:
            out[name] = raw
    return out


def parse_types(types: str | None, single: str | None) -> DataType | dict[str, Any] | None:
    """`--types a=INT,b=DECIMAL(10,2)` (or schema-file JSON) as a dict, or `--type INT` as one DataType."""
    if single:
        return parse_type(single)
    if types is None:
        return None
    if not types.strip():
        return {}  # no columns at all: a BinaryRow of arity 0
    if types.lstrip()[:1] in ("[", "{"):
        return _json_types(types)
    out = {}
    for item in split_types(types):
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--types takes column=TYPE pairs separated by commas, not {item!r}")
        out[name.strip()] = parse_type(text)
    return out


def types_of(args: argparse.Namespace) -> DataType | dict[str, DataType] | None:
    """Column types from --types / --type, else from the --data file's columns."""
    types = parse_types(args.types, args.type)
    if types is None and args.data:
        from paimon_conform.formats import paimon_columns

        types = {name: t for name, (t, _) in paimon_columns.columns(args.data)[1].items()}
    return types


def cmd_inspect(args: argparse.Namespace) -> int:
    """Print a file's case (--json) or its structure."""
    data = _read(args.file)
    layout = _layout_for(data, args.kind, args.file)
    types = types_of(args)
    try:
        if args.json:
            sys.stdout.write(cases.dumps(layout.inspect(data, types)))
        else:
            print(f"{args.file}: {layout.kind} ({layout.title})")
            print(layout.describe(data, types))
    except LayoutError as err:
        print(f"{args.file}: {err}", file=sys.stderr)
        return 1
    return 0


def validate_file(
    path: str,
    kind: str | None,
    types: Any = None,
    data_file: str | None = None,
    column: str | None = None,
    java_version: str = NEWEST,
) -> FileResult:
    """Validate one file into a FileResult (unusable input recorded, not raised), judged for one Java release."""
    shown = shown_name(path)
    try:
        data = _read(path)
        layout = _layout_for(data, kind, shown)
        found = layout.validate(data, types)
        if data_file and not unreadable(found):
            found += against_data(layout, data, data_file, column, types)
    except UsageError as exc:
        return FileResult(shown, kind or "", unusable=str(exc))
    findings = sorted(known_bugs.name(judge(found, java_version)), key=lambda f: SEVERITIES.index(f.severity))
    for f in findings:
        f.file = shown
    return FileResult(shown, layout.kind, findings)


def shown_name(path: str) -> str:
    """How a FILE argument is named in reports: `hex:` input by its first bytes and length, not every digit."""
    if path.startswith("hex:") and len(path) > 68:
        return f"{path[:68]}… ({(len(path) - 4) // 2} bytes)"
    return path


def against_data(layout: Layout, data: bytes, data_file: str, column: str | None, types: Any) -> list:
    """Findings of an index against the values of a data file (`--data`)."""
    from paimon_conform.formats import paimon_columns
    from paimon_conform.layouts.file_index import entry as file_index
    from paimon_conform.layouts.file_index.against_data import check_payload

    if layout.kind == "file-index":
        return file_index.check_against_data(data, data_file, types)
    if layout.kind not in file_index.KNOWN_INDEXES:
        raise UsageError(
            f"--data applies to file-index, bloom-filter, bitmap, range-bitmap and bsi files, not {layout.kind}"
        )
    if not column:
        raise UsageError("--data with a lone payload needs --column NAME")
    _, columns = paimon_columns.columns(data_file)
    if column not in columns:
        raise UsageError(f"{data_file} has no column {column!r} of a type the kit reads")
    t, values = columns[column]
    return check_payload(layout.kind, data, types if isinstance(types, DataType) else t, values, "")


def check_output(out: str | None) -> None:
    """Refuse (UsageError) an output path whose directory does not exist, before any work is done."""
    if out and out != "-" and not Path(out).resolve().parent.is_dir():
        raise UsageError(f"-o {out}: the directory {Path(out).parent} does not exist (it is not created)")


def write_output(out: str, data: str | bytes) -> None:
    """Write a report or encoded bytes to `out`; UsageError when the file cannot be written."""
    check_output(out)
    try:
        if isinstance(data, bytes):
            Path(out).write_bytes(data)
        else:
            Path(out).write_text(data)
    except OSError as exc:
        raise UsageError(f"-o {out}: cannot write: {exc.strerror or exc}") from None


def _emit(results: list[FileResult], fmt: str, level: str, out: str | None) -> None:
    text = RENDERERS[fmt](results, level)
    if out:
        write_output(out, text)
        if fmt != "text":
            sys.stdout.write(RENDERERS["text"](results, level))
    else:
        sys.stdout.write(text)


def cmd_validate(args: argparse.Namespace) -> int:
    """Validate files and report findings."""
    types = parse_types(args.types, args.type)
    target = release(args.java_version)
    check_output(args.output)
    results = []
    workers = _spark_workers(args.spark) if args.spark else None
    for p in args.files:
        if not p.startswith("hex:") and os.path.isdir(p):  # False for any name the OS refuses (too long, NUL)
            from paimon_conform.table.validate.table import stderr_progress, validate_table

            progress = stderr_progress if args.progress else None
            results += validate_table(p, progress=progress, java_version=target, workers=workers)
        else:
            with checking(p if not p.startswith("hex:") else "hex:…"):
                results.append(validate_file(p, args.kind, types, args.data, args.column, target))
    if args.expect_failures:
        from paimon_conform import expectations

        results = expectations.apply(results, expectations.load(args.expect_failures), args.expect_failures)
    _emit(results, args.report, args.level, args.output)
    return exit_code(results, args.level)


def _spark_workers(master: str):
    """--spark: table directories have their data and index files checked in Spark tasks of a session on
    `master`."""
    try:
        from paimon_conform.spark import source, validate
    except ImportError as exc:
        raise UsageError(f"--spark needs PySpark (pip install 'paimon-conform[spark]'): {exc}") from None
    try:
        spark = source.session("paimon-conform validate", master)
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except Exception as exc:  # noqa: BLE001 - the JVM, the master URL, the cluster: the environment, not a kit bug
        raise UsageError(f"--spark {master}: Spark did not start: {str(exc).splitlines()[0][:300]}") from None
    return validate.spark_workers(spark)


def cmd_encode(args: argparse.Namespace) -> int:
    """Write the bytes a JSON case describes."""
    check_output(args.output)
    try:
        case = json_text.loads_json(Path(args.input).read_bytes(), f"{args.input}", cases.MAX_DEPTH)
    except (OSError, ValueError) as exc:  # JSONDecodeError, UnicodeDecodeError
        raise UsageError(f"{args.input}: cannot read a JSON case: {exc}") from None
    kind = args.kind or (case.get("kind") if isinstance(case, dict) else None)
    if not kind:
        raise UsageError("the case names no kind; pass --kind")
    layout = get(kind)
    if isinstance(case, dict) and case.get("kind") not in (None, layout.kind):
        raise UsageError(f"--kind {layout.kind} but the case is a {case.get('kind')} case")
    if isinstance(case, dict) and "must_reject" in case:
        raise UsageError("a must-reject sidecar describes an error, not content; nothing to encode")
    data = layout.encode(cases.check(case, layout.kind))
    write_output(args.output, data)
    print(f"{args.output}: {len(data)} bytes ({layout.kind})")
    return 0


def _query_columns(args: argparse.Namespace, data: bytes) -> dict:
    """The index readers a query runs on: a container's typed columns, or one lone payload."""
    from paimon_conform.layouts.file_index import entry as file_index
    from paimon_conform.layouts.file_index import query

    types = types_of(args)
    kind = args.kind or ("file-index" if file_index.detect(data) else None)
    if kind == "file-index":
        if isinstance(types, DataType):
            raise UsageError("a container's columns are typed with --types col=TYPE (or --data)")
        return query.open_container(data, types or {})
    from paimon_conform.layouts import global_index_query

    if kind not in (*file_index.KNOWN_INDEXES, *global_index_query.KINDS):
        raise UsageError(
            "query reads a file-index container, a lone payload with --kind range-bitmap|bitmap|bsi|bloom-filter, "
            "or a global index with --kind btree-global-index|bitmap-global-index"
        )
    if not args.column:
        raise UsageError(f"a lone {kind} file needs --column NAME (the name the predicate uses)")
    t = types if isinstance(types, DataType) else (types or {}).get(args.column)
    if t is None:
        raise UsageError(f"a {kind} file is typed by its column: pass --type")
    return query.open_lone(kind, data, args.column, t)


def cmd_query(args: argparse.Namespace) -> int:
    """Evaluate a predicate (and top-k) against an index; print the matching rows."""
    from paimon_conform.layouts.file_index import query

    if args.predicate:
        if not args.column:
            raise UsageError("--predicate needs --column")
        where = f"`{args.column}` {args.predicate}"
    else:
        where = args.where
    tree = query.parse_predicate(where) if where else None
    data = _read(args.file)
    try:
        columns = _query_columns(args, data)
        result = query.evaluate(tree, columns) if tree else query.REMAIN
        if args.limit is not None:
            order = args.order_by or args.column
            if not order:
                raise UsageError("--limit needs --order-by COLUMN")
            nulls = args.nulls or ("last" if args.desc else "first")
            result = query.top_k(
                result, columns, order, args.limit, args.desc, f"nulls_{nulls}", strict=not args.keep_ties
            )
    except LayoutError as err:
        print(f"{args.file}: {err}", file=sys.stderr)
        return 2
    if not isinstance(result, str):  # a row set: streamed, never one list or string of every row
        write_rows(result, args.json)
    elif args.json:
        print(json.dumps(query.describe(result)))
    elif result == query.REMAIN:
        print("remain: the index cannot rule any row out")
    else:
        print("skip: no row matches; readers skip this file")
    return 0


ROWS_PER_WRITE = 1 << 16


def write_rows(rows: Any, as_json: bool) -> None:
    """Print a query's row set (JSON as json.dumps writes query.describe's answer), a chunk of rows at a time."""
    if not as_json and not rows:
        print("0 rows: readers skip this file")
        return
    out = sys.stdout
    sep = ", " if as_json else " "
    out.write(f'{{"result": "rows", "count": {len(rows)}, "rows": [' if as_json else f"{len(rows)} row(s): ")
    it = iter(rows)
    first = True
    while chunk := list(islice(it, ROWS_PER_WRITE)):
        out.write(("" if first else sep) + sep.join(map(str, chunk)))
        first = False
    out.write("]}\n" if as_json else "\n")


def cmd_hash(args: argparse.Namespace) -> int:
    """Print a key's BinaryRow bytes, hashCode and bucket for each bucket count."""
    from paimon_conform.layouts.binary_row import bucketing

    types = [parse_type(x) for x in split_types(args.types)] if args.types.strip() else []
    try:
        values = json_text.loads_json(args.values, "--values", cases.MAX_DEPTH)
    except ValueError as exc:
        raise UsageError(f"--values must be a JSON array: {exc}") from None
    if not isinstance(values, list) or len(values) != len(types):
        raise UsageError(f"--values must be a JSON array of {len(types)} value(s), one per type")
    row, h, buckets = bucketing.key_buckets(types, values, args.buckets or [], args.bucket_function)
    if args.json:
        print(json.dumps({"row_hex": row.hex(), "hash": h, "buckets": buckets}))
    else:
        print(f"row   {row.hex()}")
        print(f"hash  {h}")
        for n, b in buckets.items():
            print(f"bucket ({args.bucket_function}, {n} buckets)  {b}")
    return 0


def cmd_corpus(args: argparse.Namespace) -> int:
    """Check the golden corpus and print a summary."""
    root = Path(args.golden) if args.golden else default_root()
    if root is None:
        raise UsageError("no golden corpus found; pass --golden DIR")
    if not root.is_dir():
        raise UsageError(f"{root}: not a directory (--golden names the corpus's golden/ folder)")
    listed = None
    if (root / "MANIFEST.json").is_file() and (root / "golden").is_dir():  # an extracted corpus release
        listed = _release_cases(root / "MANIFEST.json")
        root = root / "golden"
    results, tally = check_corpus(root, args.jobs)
    if not results:
        raise UsageError(f"{root}: no golden case here (a case is a .bin with its .json sidecar, or a table)")
    if listed is not None and listed != len(results):
        raise UsageError(f"{root}: {len(results)} case(s) here, but the release's MANIFEST.json lists {listed}")
    if args.report != "text" or args.output:
        _emit(results, args.report, "should", args.output)
    else:
        for r in results:
            if r.failed("should"):
                sys.stdout.write(RENDERERS["text"]([r], "should"))
    print(f"golden corpus {root} (files by layout and what their expected content rests on):")
    by_layout, by_evidence, writers = Counter(), Counter(), Counter()
    for (layout, evidence, writer), n in tally.items():
        by_layout[layout, evidence] += n
        by_evidence[evidence] += n
        writers[writer] += n
    for (layout, evidence), n in sorted(by_layout.items()):
        print(f"  {layout:<22} {evidence:<14} {n:>4} file(s)")
    print("  evidence: " + ", ".join(f"{k} {by_evidence[k]}" for k in (*EVIDENCE_KINDS, "unstated") if by_evidence[k]))
    print("  written by: " + ", ".join(f"{w} {n}" for w, n in sorted(writers.items(), key=_writer_order)))
    bad = sum(r.failed("should") for r in results)
    print(f"  {len(results)} golden file(s), {len(results) - bad} as expected, {bad} not")
    return exit_code(results, "should")


def _release_cases(path: Path) -> int:
    """How many cases a corpus release's MANIFEST.json lists."""
    try:
        doc = json_text.load_file(path, str(path))
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: not a corpus release manifest ({exc})") from None
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(cases, list):
        raise UsageError(f"{path}: not a corpus release manifest (no list of cases)")
    return len(cases)


def _writer_order(item: tuple[str, int]) -> tuple:
    """Java releases first, oldest first; then the rest by name."""
    name = item[0]
    if name.startswith("Java ") and name[5:6].isdigit():
        return (0, version_key(name[5:]), name)
    return (1, [], name)


def cmd_testee(args: argparse.Namespace) -> int:
    """Run another implementation over the golden cases through the testee protocol."""
    from paimon_conform.testee import failures, generated, runner, suite
    from paimon_conform.testee.process import TesteeFault
    from paimon_conform.testee.report import RENDERERS as TESTEE_RENDERERS
    from paimon_conform.testee.report import summary

    command = args.command_line[1:] if args.command_line[:1] == ["--"] else args.command_line
    if not command:
        raise UsageError("name the testee's command after --, e.g. paimon-conform testee -- ./my-testee")
    root = Path(args.golden) if args.golden else default_root()
    if root is None or not root.is_dir():
        raise UsageError("no golden corpus found; pass --golden DIR")
    ops = tuple(o.strip() for o in args.ops.split(",") if o.strip())
    if not ops or set(ops) - set(suite.OPS):
        raise UsageError(f"--ops takes {', '.join(suite.OPS)}")
    if args.timeout <= 0:
        raise UsageError("--timeout takes a positive number of seconds")
    check_output(args.output)
    cases = suite.golden_cases(root, ops, args.kind) + generated.cases_for(ops, args.kind)
    new_list = args.fix and args.failure_list and not Path(args.failure_list).exists()
    listed = failures.load(Path(args.failure_list)) if args.failure_list and not new_list else {}
    try:
        reader = shlex.split(args.reader) if args.reader else None
        run = runner.run(command, cases, listed, args.timeout, reader=reader)
    except TesteeFault as fault:
        raise UsageError(f"the testee did not start as protocol 1 says: {fault}") from None
    text = TESTEE_RENDERERS[args.report](run)
    if args.output:
        write_output(args.output, text)
        print(summary(run))
    else:
        sys.stdout.write(text)
    if args.fix:
        if not args.failure_list:
            raise UsageError("--fix rewrites the list --failure-list names")
        Path(args.failure_list).write_text(failures.render(runner.fixed_list(run, listed)), encoding="utf-8")
        return 0
    return 1 if run.failed() else 0


def cmd_matrix(args: argparse.Namespace) -> int:
    """Write tables with every testee, validate them, read each with every testee: the HTML and JSON matrix."""
    from paimon_conform.testee import failures, matrix, matrix_page

    listing = (
        Path(args.testees) if args.testees else Path(__file__).resolve().parents[2] / "tools/testees/reference.json"
    )
    if not listing.is_file():
        raise UsageError(f"no testee list at {listing}; pass --testees FILE")
    testees = matrix.load_testees(listing)
    if args.only:
        testees = [t for t in testees if t[0] in args.only]
    if args.timeout <= 0:
        raise UsageError("--timeout takes a positive number of seconds")
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    listed = failures.load(Path(args.failure_list)) if args.failure_list else {}
    with tempfile.TemporaryDirectory(prefix="paimon-conform-matrix-") as tmp:
        work = Path(args.keep_tables) if args.keep_tables else Path(tmp)
        m = matrix.build(
            testees, work, args.kind, listed, args.timeout, lambda s: print(f"matrix: {s}", file=sys.stderr)
        )
    (out / "matrix.json").write_text(json.dumps(m.to_json(), indent=2) + "\n", encoding="utf-8")
    (out / "matrix.html").write_text(matrix_page.render_html(m), encoding="utf-8")
    sys.stdout.write(matrix_page.render_markdown(m))
    bad = m.unexpected()
    for c in bad:
        print(f"{c.id}: {'passes but is listed' if c.ok else 'FAILED ' + c.detail[:300]}")
    print(f"matrix: {len(m.checks)} check(s), {len(bad)} unexpected; {out / 'matrix.html'}, {out / 'matrix.json'}")
    return 1 if bad else 0


def cmd_main(args: argparse.Namespace) -> int:
    """The main job: build a sample, run the Spark pipeline, validate both, then check the golden corpus."""
    with tempfile.TemporaryDirectory(prefix="paimon-conform-sample-") as tmp:
        target = Path(args.sample_dir) if args.sample_dir else Path(tmp)
        files = write_sample(target / "files")
        types = {name: parse_type(text) for name, text in SAMPLE_TYPES.items()}
        results = [validate_file(str(p), kind, types) for p, kind in files]
        print(f"sample files written by the reference encoder under {target / 'files'}:")
        sys.stdout.write(RENDERERS["text"](results, "should"))
        from paimon_conform.table.validate.table import validate_table
        from paimon_conform.table.write.reference_table import write_table

        table = write_table(target / "table")
        table_results = validate_table(table.root)
        print(f"sample table written by the reference table writer under {table.root} ({len(table.rows)} rows):")
        sys.stdout.write(RENDERERS["text"](table_results, "should"))
        sample_code = exit_code(results + table_results, "should")
        if not args.no_spark:
            try:
                from paimon_conform.spark.pipeline import main_job
            except ImportError as exc:  # a plain install: the spark extra brings PySpark and pandas
                missing = exc.name or exc
                print(f"Spark pipeline left out: {missing} is not installed (pip install 'paimon-conform[spark]')")
            else:
                print(f"local warehouse: {target / 'warehouse'}")
                if not main_job(target / "warehouse"):
                    sample_code = max(sample_code, 1)
    corpus_code = 0
    if args.golden or default_root() is not None:
        # one process: this one has a Spark JVM and its gateway threads, which a forked worker must not copy
        corpus_code = cmd_corpus(argparse.Namespace(golden=args.golden, report="text", output=None, jobs=1))
    else:
        print("golden corpus left out: none found (run from a checkout, or pass --golden DIR)")
    code = max(sample_code, corpus_code)
    print("paimon-conform: OK" if code == 0 else f"paimon-conform: FAILED (exit {code})")
    return code


def add_type_options(p: argparse.ArgumentParser) -> None:
    """--types / --type: column types for layouts whose keys are typed."""
    p.add_argument(
        "--types",
        help="column types of a file-index container or a row file, e.g. 'c_int=INT,name=STRING', or schema-file "
        'JSON for nested types: \'[{"name": "a", "type": {"type": "ARRAY", "element": "INT"}}]\'',
    )
    p.add_argument("--type", help="column type of a lone payload (bloom-filter, bitmap, range-bitmap, bsi), e.g. INT")


def add_budget_option(p: argparse.ArgumentParser, top: bool = False) -> None:
    """--max-memory: the resource budget (budget.py) for everything read from the input."""
    p.add_argument(
        "--max-memory",
        metavar="SIZE",
        default=None if top else argparse.SUPPRESS,  # a subcommand's value overrides the top-level one
        help=f"memory budget for what one input claims, e.g. 512M or 4G (default "
        f"{budget.DEFAULT_MAX_MEMORY >> 30}G): an input that needs more is refused, never read into an OOM",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the CLI."""
    p = argparse.ArgumentParser(prog="paimon-conform", description=__doc__.splitlines()[0])
    p.add_argument("--version", action="version", version=f"paimon-conform {__version__}")
    add_budget_option(p, top=True)
    p.add_argument("--golden", help="golden corpus root (default: the checkout's golden/)")
    p.add_argument("--sample-dir", help="where the main job writes its sample (default: a temporary directory)")
    p.add_argument("--no-spark", action="store_true", help="main job: leave out the Spark pipeline")
    sub = p.add_subparsers(dest="command")

    i = sub.add_parser("inspect", help="show a file's structure, or its JSON case with --json")
    i.add_argument("file")
    i.add_argument("--kind", help=f"layout ({KINDS_HELP}); detected from the bytes when they allow it")
    i.add_argument("--json", action="store_true", help="print the case (the golden sidecar form)")
    add_type_options(i)
    i.add_argument("--data", help="take column types from this data file (Parquet or ORC)")
    i.set_defaults(func=cmd_inspect)

    v = sub.add_parser("validate", help="check files, or whole table directories, and report findings")
    v.add_argument("files", nargs="+", help="files, or table directories (checked as whole tables)")
    v.add_argument("--progress", action="store_true", help="print progress of table checks on stderr")
    v.add_argument(
        "--spark",
        nargs="?",
        const="local[2]",
        metavar="MASTER",
        help="check the data files of table directories in Spark tasks (a session on MASTER, default local[2]; "
        "executors must see the table at the same path); the findings equal a run without it",
    )
    v.add_argument("--kind", help=f"layout ({KINDS_HELP}); detected from the bytes when they allow it")
    v.add_argument("--report", choices=sorted(RENDERERS), default="text")
    v.add_argument("-o", "--output", help="write the report here (a text summary still goes to stdout)")
    v.add_argument(
        "--level",
        choices=["must", "should"],
        default="should",
        help="'must' ignores should-findings when deciding the exit code",
    )
    v.add_argument(
        "--java-version",
        metavar="V",
        default=NEWEST,
        help=f"judge against this Java Paimon release ({', '.join(RELEASES)}; default {NEWEST}): a must-finding "
        "about other releases only is reported at the severity it has for V",
    )
    v.add_argument(
        "--expect-failures",
        metavar="FILE",
        help="JSON list of known findings: they do not fail the run, and a listed one that no longer occurs does",
    )
    add_type_options(v)
    v.add_argument("--data", help="also check the index against this data file (Parquet or ORC)")
    v.add_argument("--column", help="with --data and a lone payload: the column it indexes")
    v.set_defaults(func=cmd_validate)

    e = sub.add_parser("encode", help="write the bytes a JSON case describes")
    e.add_argument("input")
    e.add_argument("--kind", help="layout of the case (default: the case's own kind)")
    e.add_argument("-o", "--output", required=True)
    e.set_defaults(func=cmd_encode)

    q = sub.add_parser("query", help="evaluate a predicate against an index and print the matching rows")
    q.add_argument("file", help="a file-index container (.index file, or hex: bytes), or a lone payload with --kind")
    q.add_argument("--where", help="predicate, e.g. \"a > 60 AND (b IN ('x', 'y') OR c IS NULL)\"")
    q.add_argument("--column", help="the column of --predicate, and the name of a lone payload's column")
    q.add_argument("--predicate", help="predicate on --column without its name, e.g. '> 60' or 'BETWEEN 1 AND 5'")
    q.add_argument(
        "--kind",
        help="layout of a lone file (range-bitmap, bitmap, bsi, bloom-filter, btree-global-index, bitmap-global-index)",
    )
    add_type_options(q)
    q.add_argument("--data", help="take column types from this data file (Parquet or ORC)")
    q.add_argument("--order-by", help="top-k: sort column (answered by its range-bitmap index)")
    q.add_argument("--desc", action="store_true", help="top-k: largest first (default: smallest first)")
    q.add_argument("--limit", type=int, help="top-k: number of rows")
    q.add_argument(
        "--nulls", choices=["first", "last"], help="top-k: null placement (default: first ascending, last descending)"
    )
    q.add_argument(
        "--keep-ties",
        action="store_true",
        help="top-k: keep every row tied with the k-th (Java does with more than one sort key)",
    )
    q.add_argument(
        "--json", action="store_true", help='print {"result": "rows", "count", "rows"} or {"result": "remain" | "skip"}'
    )
    q.set_defaults(func=cmd_query)

    h = sub.add_parser("hash", help="a key's BinaryRow bytes, hashCode and buckets")
    h.add_argument("--types", required=True, help="the key's field types in order, e.g. 'INT,STRING'")
    h.add_argument("--values", required=True, help="the key as a JSON array in the logical form, e.g. '[5, \"abc\"]'")
    h.add_argument("--buckets", type=int, action="append", help="a bucket count (repeatable)")
    h.add_argument("--bucket-function", choices=["default", "mod", "hive"], default="default")
    h.add_argument("--json", action="store_true", help='print {"row_hex", "hash", "buckets": {count: bucket}}')
    h.set_defaults(func=cmd_hash)

    c = sub.add_parser("corpus", help="check every golden file against its sidecar")
    # also after the command (a corpus release extracted elsewhere); the global option stays
    c.add_argument("--golden", default=argparse.SUPPRESS, help="golden corpus root (default: the checkout's golden/)")
    c.add_argument("--report", choices=sorted(RENDERERS), default="text")
    c.add_argument("-o", "--output")
    c.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="check in N processes (default: one per core); the report is the same",
    )
    c.set_defaults(func=cmd_corpus)
    t = sub.add_parser(
        "testee",
        help="run another implementation over the golden cases (testee protocol 1: JSON lines on stdin/stdout)",
    )
    t.add_argument("command_line", nargs=argparse.REMAINDER, metavar="-- COMMAND ARGS", help="the testee to start")
    t.add_argument("--ops", default=",".join(OPS), help=f"operations to run (default {','.join(OPS)})")
    t.add_argument("--kind", action="append", help=f"only this layout ({KINDS_HELP}); repeatable")
    t.add_argument("--failure-list", help="known failures (<case id>  # reason per line), protobuf's semantics")
    t.add_argument("--fix", action="store_true", help="rewrite --failure-list with the failures of this run")
    t.add_argument("--timeout", type=float, default=30.0, help="seconds per case (default 30)")
    t.add_argument("--reader", help="a second testee's command line (one string) that reads every table written")
    t.add_argument("--report", choices=["text", "json", "junit"], default="text")
    t.add_argument("-o", "--output")
    t.set_defaults(func=cmd_testee)
    mx = sub.add_parser(
        "matrix", help="write tables with every testee, validate them, read them with every testee (HTML + JSON)"
    )
    mx.add_argument("--testees", help="the testee list (JSON); default tools/testees/reference.json of the checkout")
    mx.add_argument("--only", action="append", help="only this testee of the list; repeatable")
    mx.add_argument("--kind", action="append", help="only this table kind; repeatable")
    mx.add_argument("--failure-list", help="checks known to fail (<check id>  # reason per line)")
    mx.add_argument("--timeout", type=float, default=300.0, help="seconds per exchange (default 300)")
    mx.add_argument("--keep-tables", help="write the tables here (kept) instead of a temporary folder")
    mx.add_argument("-o", "--output", default="paimon-conform-matrix", help="folder for matrix.html and matrix.json")
    mx.set_defaults(func=cmd_matrix)
    for command in (i, v, e, q, h, c, t):
        add_budget_option(command)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `paimon-conform` console script."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    func = getattr(args, "func", cmd_main)
    try:
        limit = budget.parse_size(args.max_memory) if args.max_memory else budget.DEFAULT_MAX_MEMORY
        with budget.limited(limit), checking(_subject(args)):
            return func(args)
    except BrokenPipeError:  # output piped into `head` and closed early
        sys.stderr.close()
        return 0
    except PaimonConformError as exc:
        print(f"paimon-conform: {exc}", file=sys.stderr)
        return 2


def _subject(args: argparse.Namespace) -> str:
    """What a command works on, for the message of an internal error outside any narrower check."""
    for name in ("file", "files", "index", "input", "table"):
        value = getattr(args, name, None)
        if value:
            return ", ".join(value) if isinstance(value, list) else str(value)
    return f"paimon-conform {getattr(args, 'command', '') or ''}".strip()


if __name__ == "__main__":
    sys.exit(main())
