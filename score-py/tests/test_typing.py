"""The stubs against the compiled module (mypy stubtest) and against typed code (mypy)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
pytest.importorskip("mypy")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    cache = ["--cache-dir", "/dev/null"] if args[0] == "mypy" else []
    return subprocess.run([sys.executable, "-m", *args, *cache], capture_output=True, text=True, cwd=HERE, timeout=600)


@pytest.mark.parametrize("module", ["platform_score._core", "platform_score"])
def test_stubs_match_the_compiled_module(module: str) -> None:
    result = run("mypy.stubtest", module)
    assert result.returncode == 0, result.stdout + result.stderr


def test_typed_example_passes_mypy_strict() -> None:
    result = run("mypy", "--strict", "--no-incremental", "typing_example.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_catches_typed_mistakes() -> None:
    result = run("mypy", "--strict", "--no-incremental", "typing_errors.py")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = (HERE / "typing_errors.py").read_text().splitlines()
    expected = {i + 1 for i, line in enumerate(lines) if line.endswith("# E")}
    reported = {int(line.split(":")[1]) for line in result.stdout.splitlines() if ": error:" in line}
    assert reported == expected, result.stdout
