# mypy: disable-error-code="import-untyped"
"""The command line: `platform-score score INPUT [-o OUTPUT]` scores a CSV, Parquet or JSON
lines file (or standard input) batch by batch into the same formats (or standard output), with
the fixed schema of ``score_frame``; `platform-score schema` prints that schema. Installed as
the console script ``platform-score`` and as ``python -m platform_score``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, BinaryIO, Iterator, List, Optional, Sequence

from . import _core
from ._frame import arrow_schema, output_schema, score_frame

FORMATS = ("csv", "parquet", "jsonl")
_SUFFIXES = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}
# Rows per scored batch: large enough for every core, small enough for steady progress.
BATCH_ROWS = 1 << 17


class CommandError(Exception):
    """A usage or input error: printed as `platform-score: <message>` (in Spanish, like
    score-core's messages), exit status 2."""


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "schema":
            return _schema(args)
        return _score(args)
    except CommandError as err:
        print(f"platform-score: {err}", file=sys.stderr)
        return 2
    except _core.ScoreError as err:
        print(f"platform-score: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader of standard output went away (`| head`): not an error of ours.
        sys.stderr.close()
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="platform-score",
        description=f"Buyer pre-qualification score (model {_core.MODEL_VERSION}) of a table of profiles.",
    )
    parser.add_argument("--version", action="version", version=f"platform-score {_core.__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser(
        "score",
        help="score every row of a CSV, Parquet or JSON lines file",
        description="Scores every row of INPUT (one profile per row, profile fields as columns) and writes "
        "the report columns, in the fixed order of `platform-score schema`.",
    )
    score.add_argument("input", metavar="INPUT", help="CSV, Parquet or JSON lines file; - for standard input")
    score.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    score.add_argument("--from", dest="from_format", choices=FORMATS, help="input format (default: from the name)")
    score.add_argument("--to", dest="to_format", choices=FORMATS,
                       help="output format (default: from the name, else the input's; CSV on a terminal)")
    _table_options(score)
    score.add_argument("--extra", choices=("error", "ignore"), default="error",
                       help="other columns: fail every row with UNKNOWN_FIELD (default) or ignore them")
    score.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="progress bar on standard error (default: when it is a terminal and the work is long)")
    score.add_argument("--batch-rows", type=int, default=BATCH_ROWS, metavar="N",
                       help=f"rows scored at a time (default {BATCH_ROWS}; each batch is scored on every core)")
    schema = commands.add_parser("schema", help="print the output columns of `score`",
                                 description="Prints the columns `score` writes, in order, with their types.")
    _table_options(schema)
    schema.add_argument("--json", action="store_true", help="as a JSON list of {name, type, categories}")
    return parser


def _table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--keep", action="append", default=[], metavar="COLUMN",
                        help="carry this input column through to the output (repeatable, or comma-separated)")
    parser.add_argument("--errors", choices=("raise", "return"), default="raise",
                        help="a bad row stops the command (default), or is kept with error_code, "
                        "error_field and error_message")


def _keep(args: argparse.Namespace) -> List[str]:
    return [name for value in args.keep for name in value.split(",") if name]


_TYPES = {"i64": "int64", "f64": "float64", "cat": "string", "str": "string", "kept": "as in the input"}


def _schema(args: argparse.Namespace) -> int:
    columns = output_schema(_keep(args), errors=args.errors)
    if args.json:
        rows = [{"name": n, "type": _TYPES[k], "categories": c} for n, k, c in columns]
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    width = max(len(name) for name, _, _ in columns)
    for name, kind, categories in columns:
        values = f"  ({', '.join(categories)})" if categories and len(categories) <= 12 else ""
        print(f"{name:<{width}}  {_TYPES[kind]}{values}")
    return 0


def _format(path: str, given: Optional[str], default: Optional[str], role: str) -> str:
    """The format named by the option, else by the file name's suffix, else `default`."""
    if given:
        return given
    suffix = os.path.splitext(path)[1].lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    if default:
        return default
    option = "--from" if role == "input" else "--to"
    raise CommandError(f"no se sabe el formato de {path!r}: indíquelo con {option} (csv, parquet o jsonl).")


def _score(args: argparse.Namespace) -> int:
    try:
        import pyarrow as pa
    except ImportError as err:
        raise CommandError("el comando necesita pyarrow: pip install 'platform-score[cli]'") from err
    keep = _keep(args)
    in_format = _format(args.input, args.from_format, None, "input")
    out_format = _format(args.output, args.to_format, "csv" if args.output == "-" and sys.stdout.isatty() else in_format, "output")
    source, total, unit = _open_input(args.input, in_format)
    if args.batch_rows < 1:
        raise CommandError("--batch-rows debe ser al menos 1.")
    batches = _read(source, in_format, args.batch_rows)
    try:
        first = next(batches)
    except StopIteration:
        first = None
    in_schema = first.schema if first is not None else pa.schema([])
    try:
        # score-core's check of --keep and --extra against the input's columns.
        _core._plan(in_schema.names, keep, args.extra, args.errors == "return")
    except ValueError as err:
        raise CommandError(str(err)) from None
    schema = arrow_schema([in_schema.field(k) for k in keep], errors=args.errors,
                          dictionary=out_format == "parquet")
    progress = _progress(args.progress, total, unit)
    done = 0
    with _Writer(args.output, out_format, schema) as writer:
        for batch in _chain(first, batches):
            try:
                table = score_frame(batch, keep=keep, extra=args.extra, errors=args.errors)
            except _core.ScoreError as err:
                raise _at_row(err, done) from None
            writer.write(table.cast(schema))
            done += batch.num_rows
            progress.update(batch.num_rows if unit == "filas" else source.tell() - progress.n)
    progress.close()
    return 0


def _chain(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    if first is not None:
        yield first
    yield from rest


def _at_row(err: Any, offset: int) -> Any:
    """The ScoreError of a batch, with the row counted from the start of the input."""
    row = (err.index or 0) + offset
    out = _core.ScoreError(f"rows[{row}]: {err.code}: {str(err).split(': ', 2)[-1]}")
    out.code, out.field, out.index, out.errors = err.code, err.field, row, err.errors
    return out


def _open_input(path: str, fmt: str) -> Any:
    """The input as a binary file, its size (bytes) or row count when known, and the unit."""
    if path == "-":
        return sys.stdin.buffer, None, "filas"
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            file = pq.ParquetFile(path)
            return file, file.metadata.num_rows, "filas"
        return open(path, "rb"), os.path.getsize(path), "bytes"
    except OSError as err:
        raise CommandError(f"no se puede leer {path!r}: {err.strerror or err}") from err


def _read(source: Any, fmt: str, rows: int) -> Iterator[Any]:
    """The input's record batches."""
    import pyarrow as pa

    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            if not isinstance(source, pq.ParquetFile):
                source = pq.ParquetFile(pa.BufferReader(source.read()))
            yield from source.iter_batches(batch_size=rows)
        elif fmt == "csv":
            import pyarrow.csv as csv

            # An empty cell is a field left out (CSV has no null): an optional text such as
            # `institucion` left empty is absent, not the unknown fund "".
            reader = csv.open_csv(source, read_options=csv.ReadOptions(block_size=16 << 20),
                                  convert_options=csv.ConvertOptions(strings_can_be_null=True))
            yield from _rebatch(reader, rows)
        else:
            import pyarrow.json as pj

            table = pj.read_json(source, read_options=pj.ReadOptions(block_size=16 << 20))
            yield from table.to_batches(max_chunksize=rows)
    except (pa.ArrowInvalid, OSError) as err:
        raise CommandError(f"la entrada no se puede leer como {fmt}: {err}") from err


def _rebatch(reader: Any, rows: int) -> Iterator[Any]:
    """A CSV reader's batches (their size follows the block size), at most `rows` rows each."""
    for batch in reader:
        for start in range(0, batch.num_rows, rows):
            yield batch.slice(start, rows)


def _progress(wanted: Optional[bool], total: Optional[int], unit: str) -> Any:
    from ._progress import bar

    # None: shown on a terminal only, and only once the work has taken a second.
    return bar(total=total, unit=unit if unit == "filas" else "B", disable=None if wanted is None else not wanted,
               delay=0 if wanted else 1.0, file=sys.stderr)


class _Writer:
    """Writes tables of one schema to a file or standard output, batch by batch. A file is
    written under a temporary name and renamed at the end, so that a failed run leaves none."""

    def __init__(self, path: str, fmt: str, schema: Any) -> None:
        self.path, self.fmt, self.schema = path, fmt, schema
        self.temp = None if path == "-" else f"{path}.part-{os.getpid()}"
        self.sink: BinaryIO
        self.writer: Any = None

    def __enter__(self) -> "_Writer":
        try:
            self.sink = sys.stdout.buffer if self.temp is None else open(self.temp, "wb")
        except OSError as err:
            raise CommandError(f"no se puede escribir {self.path!r}: {err.strerror or err}") from err
        if self.fmt == "parquet":
            import pyarrow.parquet as pq

            self.writer = pq.ParquetWriter(self.sink, self.schema)
        elif self.fmt == "csv":
            import pyarrow.csv as csv

            self.writer = csv.CSVWriter(self.sink, self.schema)
        return self

    def write(self, table: Any) -> None:
        if self.fmt == "jsonl":
            for row in table.to_pylist():
                self.sink.write(json.dumps(row, ensure_ascii=False, default=str).encode() + b"\n")
        else:
            self.writer.write_table(table)

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        if self.writer is not None and (kind is None or self.fmt != "parquet"):
            self.writer.close()
        self.sink.flush()
        if self.temp is None:
            return
        self.sink.close()
        if kind is None:
            os.replace(self.temp, self.path)
        else:
            os.unlink(self.temp)
