"""The package as users get it (built by scripts/test.sh into $PLATFORM_SCORE_DIST): the
release abi3 wheel installed, not edited in place; its metadata (one version, license,
changelog, a README without relative links, the console script); the wheel installed into a
fresh venv works from nothing; the sdist carries what a build from source needs."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path
from typing import List

import pytest

import platform_score
from conftest import REPO

DIST = os.environ.get("PLATFORM_SCORE_DIST")
pytestmark = pytest.mark.skipif(not DIST, reason="run by score-py/scripts/test.sh, which builds the wheel and sdist")


def one(pattern: str) -> Path:
    found = sorted(Path(DIST or ".").glob(pattern))
    assert len(found) == 1, found
    return found[0]


def workspace_version() -> str:
    with open(REPO / "Cargo.toml", "rb") as f:
        return str(tomllib.load(f)["workspace"]["package"]["version"])


def test_the_tests_run_against_the_installed_wheel() -> None:
    module = Path(platform_score.__file__).resolve()
    assert "site-packages" in module.parts, module
    files = importlib.metadata.files("platform-score") or []
    assert not any(str(f).endswith(".pth") for f in files), "an editable install, not the wheel"
    assert platform_score.__version__ == importlib.metadata.version("platform-score") == workspace_version()


def test_the_wheel_is_abi3_with_license_and_console_script() -> None:
    wheel = one("platform_score-*.whl")
    assert re.fullmatch(rf"platform_score-{re.escape(workspace_version())}-cp39-abi3-\w+\.whl", wheel.name)
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = z.read(info).decode()
        entry_points = z.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    assert "platform_score/py.typed" in names and "platform_score/_core.pyi" in names
    assert "License-Expression: MIT" in metadata and "Requires-Dist: tqdm" in metadata
    assert "Description-Content-Type: text/markdown" in metadata
    assert "platform-score=platform_score._cli:main" in entry_points.replace(" ", "")


def test_the_readme_renders_on_an_index_without_relative_links() -> None:
    readme = (REPO / "score-py" / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", readme)
    assert links and all(re.match(r"https?://", link) for link in links), links


def test_the_sdist_carries_the_sources_a_build_needs() -> None:
    sdist = one("platform_score-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [n.split("/", 1)[1] for n in tar.getnames() if "/" in n]
    for needed in ["Cargo.lock", "Cargo.toml", "pyproject.toml", "README.md", "LICENSE", "PKG-INFO",
                   "score-py/CHANGELOG.md", "score-py/LICENSE", "score-py/src/lib.rs", "score-core/src/lib.rs",
                   "score-core/src/batch/table.rs", "score-docs/src/lib.rs", "python/platform_score/_frame.py"]:
        assert any(n == needed or n.endswith("/" + needed) for n in names), needed


def test_the_wheel_installs_and_works_in_a_fresh_venv(tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.create(env, with_pip=True, clear=True)
    python = env / "bin" / "python"

    def run(*args: str, stdin: bytes = b"") -> str:
        done = subprocess.run(list(args), input=stdin, capture_output=True, timeout=600, cwd=tmp_path)
        assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
        return done.stdout.decode()

    wheel = one("platform_score-*.whl")
    run(str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", f"{wheel}[cli]")
    installed: List[str] = run(str(python), "-m", "pip", "list", "--format=freeze").split()
    assert f"platform-score=={workspace_version()}" in installed
    profile = {"estado": "CMX", "ingreso_mensual": 30000, "tipo_ingreso": "asalariado",
               "antiguedad_meses": 36, "ahorro": 100000, "edad": 35}
    # The fresh venv's wheel gives the report this suite's build gives.
    expected = platform_score.score(profile)
    out = run(str(python), "-c", f"import platform_score as p; print(p.score({profile!r})['score'], p.__file__)")
    score, where = out.split()
    assert score == str(expected["score"]) and str(env) in where
    csv = b"cliente_id,estado,ingreso_mensual,tipo_ingreso,antiguedad_meses,ahorro,edad\n7,CMX,30000,asalariado,36,100000,35\n"
    lines = run(str(env / "bin" / "platform-score"), "score", "-", "--from", "csv", "--to", "csv", "--keep",
                "cliente_id", stdin=csv).splitlines()
    assert lines[0].startswith('"cliente_id","score","nivel"') and lines[1].startswith(f'7,{expected["score"]},"{expected["nivel"]}"'), lines
    assert run(str(python), "-m", "platform_score", "--version").strip() == f"platform-score {workspace_version()}"
