"""Runs every ```python block of score-py/README.md, in order, in one namespace, from the
repository root: the quick start cannot rot. (```py blocks need a cluster and are not run: the
Spark example; tests/test_spark.py runs the same calls on a local Spark.)"""

from __future__ import annotations

import os
import re
from pathlib import Path

from conftest import REPO

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run_as_written() -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)
    assert len(blocks) >= 3, "the README lost its Python examples"
    namespace: dict = {"__name__": "__readme__"}
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        for i, block in enumerate(blocks):
            exec(compile(block, f"README.md python block {i + 1}", "exec"), namespace)
    finally:
        os.chdir(cwd)
