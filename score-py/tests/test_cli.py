"""The command: `platform-score score` over CSV, Parquet and JSON lines files and standard
input/output gives score_frame's table; `platform-score schema` prints the published schema;
the console script and `python -m platform_score` are the same command. Also the progress bar
of score_many(..., progress=True)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

import platform_score
from conftest import load_cases

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pcsv = pytest.importorskip("pyarrow.csv")

# Flat files hold plain values: the fixtures' profiles without a nested co-borrower.
PROFILES = [
    c["input"]
    for c in load_cases()
    if "expected" in c and isinstance(c.get("input"), dict) and "coacreditado" not in c["input"]
]
KEYS = [k for k in platform_score.PROFILE_FIELDS if any(k in p for p in PROFILES)]
SCRIPT = Path(sys.executable).parent / "platform-score"


def table(n: int, bad: List[int] = ()) -> Any:  # type: ignore[assignment]
    rows = [dict(PROFILES[i % len(PROFILES)]) for i in range(n)]
    for i in bad:
        rows[i]["estado"] = "Atlantis"
    data: Dict[str, List[Any]] = {"cliente_id": [f"C-{i:05}" for i in range(n)]}
    data.update({k: [r.get(k) for r in rows] for k in KEYS})
    return pa.table(data)


def run(*args: str, stdin: bytes = b"", module: bool = False) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "platform_score"] if module else [str(SCRIPT)]
    return subprocess.run(command + list(args), input=stdin, capture_output=True, timeout=300)


def expected(source: Any, **options: Any) -> List[Dict[str, Any]]:
    out = platform_score.score_frame(source, keep=["cliente_id"], **options)
    return out.cast(platform_score.arrow_schema([source.schema.field("cliente_id")], dictionary=False,
                                                 errors=options.get("errors", "raise"))).to_pylist()


def test_parquet_to_parquet_equals_score_frame(tmp_path: Path) -> None:
    source = table(2000)
    pq.write_table(source, tmp_path / "in.parquet")
    result = run("score", str(tmp_path / "in.parquet"), "-o", str(tmp_path / "out.parquet"), "--keep",
                 "cliente_id", "--batch-rows", "700")
    assert result.returncode == 0, result.stderr.decode()
    out = pq.read_table(tmp_path / "out.parquet")
    assert out.schema == platform_score.arrow_schema([source.schema.field("cliente_id")])
    got = out.cast(platform_score.arrow_schema([source.schema.field("cliente_id")], dictionary=False)).to_pylist()
    assert got == expected(source)


def test_csv_file_to_csv_with_errors_returned(tmp_path: Path) -> None:
    source = table(500, bad=[3, 499])
    pcsv.write_csv(source, tmp_path / "in.csv")
    result = run("score", str(tmp_path / "in.csv"), "-o", str(tmp_path / "out.csv"), "--keep=cliente_id",
                 "--errors", "return", "--batch-rows", "128")
    assert result.returncode == 0, result.stderr.decode()
    out = pcsv.read_csv(tmp_path / "out.csv", convert_options=pcsv.ConvertOptions(
        strings_can_be_null=True,
        column_types=platform_score.arrow_schema([pa.field("cliente_id", pa.string())], errors="return",
                                                 dictionary=False)))
    header = (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.replace('"', "").split(",") == [c[0] for c in platform_score.output_schema("cliente_id",
                                                                                          errors="return")]
    rows = out.to_pylist()
    assert [i for i, r in enumerate(rows) if r["error_code"]] == [3, 499]
    assert rows[3]["error_field"] == "estado" and "Atlantis" in rows[3]["error_message"]
    empty_is_absent = pcsv.ConvertOptions(strings_can_be_null=True)
    assert rows == expected(pcsv.read_csv(tmp_path / "in.csv", convert_options=empty_is_absent), errors="return")


def test_json_lines_from_stdin_to_stdout_with_python_m(tmp_path: Path) -> None:
    lines = "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in PROFILES).encode()
    result = run("score", "-", "--from", "jsonl", stdin=lines, module=True)
    assert result.returncode == 0, result.stderr.decode()
    rows = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(rows) == len(PROFILES)
    for row, profile in zip(rows, PROFILES):
        report = platform_score.score(profile)
        assert (row["score"], row["nivel"], row["valor_realista"]) == (
            report["score"], report["nivel"], report["capacidad_compra_estimada"]["valor_realista"])


def test_a_bad_row_stops_with_its_row_in_the_whole_input(tmp_path: Path) -> None:
    pq.write_table(table(1000, bad=[777]), tmp_path / "in.parquet")
    out = tmp_path / "out.parquet"
    result = run("score", str(tmp_path / "in.parquet"), "-o", str(out), "--keep", "cliente_id",
                 "--batch-rows", "300")
    assert result.returncode == 1
    assert "rows[777]: UNKNOWN_STATE" in result.stderr.decode()
    assert not out.exists() and list(tmp_path.iterdir()) == [tmp_path / "in.parquet"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "missing.parquet"], "no se puede leer 'missing.parquet'"),
        (["score", "in.txt"], "no se sabe el formato de 'in.txt'"),
        (["score", "-", "--from", "csv", "--keep", "id"], 'keep nombra la columna "id", que la tabla no tiene'),
        (["score", "-", "--from", "csv", "--batch-rows", "0"], "--batch-rows debe ser al menos 1"),
    ],
)
def test_usage_errors_exit_2_with_a_message(args: List[str], message: str) -> None:
    result = run(*args, stdin=b"estado,ingreso_mensual\nCMX,30000\n")
    assert result.returncode == 2
    assert message in result.stderr.decode()


def test_unknown_columns_and_extra_ignore() -> None:
    text = b"cliente_id,estado,ingreso_mensual,tipo_ingreso,antiguedad_meses\n7,CMX,30000,asalariado,36\n"
    failed = run("score", "-", "--from", "csv", "--to", "jsonl", stdin=text)
    assert failed.returncode == 1 and "UNKNOWN_FIELD" in failed.stderr.decode()
    ignored = run("score", "-", "--from", "csv", "--to", "jsonl", "--extra", "ignore", stdin=text)
    assert ignored.returncode == 0, ignored.stderr.decode()
    assert json.loads(ignored.stdout)["score"] == platform_score.score(
        {"estado": "CMX", "ingreso_mensual": 30000, "tipo_ingreso": "asalariado", "antiguedad_meses": 36})["score"]


def test_schema_prints_the_published_columns() -> None:
    result = run("schema", "--keep", "cliente_id", "--errors", "return", "--json")
    assert result.returncode == 0, result.stderr.decode()
    columns = json.loads(result.stdout)
    schema = platform_score.output_schema(["cliente_id"], errors="return")
    assert [c["name"] for c in columns] == [c[0] for c in schema]
    assert columns[1] == {"name": "score", "type": "int64", "categories": None}
    text = run("schema", module=True).stdout.decode().splitlines()
    assert [line.split()[0] for line in text] == [c[0] for c in platform_score.output_schema()]


def test_version_and_progress_bar(tmp_path: Path) -> None:
    assert run("--version").stdout.decode().strip() == f"platform-score {platform_score.__version__}"
    pq.write_table(table(3000), tmp_path / "in.parquet")
    result = run("score", str(tmp_path / "in.parquet"), "-o", str(tmp_path / "out.parquet"), "--keep",
                 "cliente_id", "--progress", "--batch-rows", "1000")
    assert result.returncode == 0
    assert "3.00k/3.00k" in result.stderr.decode()
    quiet = run("score", str(tmp_path / "in.parquet"), "-o", str(tmp_path / "out2.parquet"), "--keep", "cliente_id")
    assert quiet.returncode == 0 and quiet.stderr == b""


def test_score_many_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    profiles = PROFILES * 400
    reports = platform_score.score_many(profiles, progress=True, errors="return")
    assert reports == platform_score.score_many(profiles, errors="return")
    err = capsys.readouterr().err
    assert f"100%" in err and f"{len(profiles) / 1000:.1f}k/{len(profiles) / 1000:.1f}k" in err
    platform_score.score_many(iter(PROFILES), progress=True, lazy=True)
    assert re.search(rf"platform-score: {len(PROFILES)}(\.0)?perfiles", capsys.readouterr().err)


def test_progress_bar_closes_when_a_batch_raises(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(platform_score.ScoreError):
        platform_score.score_many([PROFILES[0], {"estado": "Atlantis"}], progress=True)
    assert "platform-score" in capsys.readouterr().err
