#!/usr/bin/env bash
# Builds the platform_score wheel and sdist, installs the wheel into the repository's .venv
# (created when missing) and runs the tests against it.
# Used by `make test-py` (score-py/test.mk); works on a fresh machine with Python 3.9+ and Rust.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# pyspark is large (some 400 MB): pip installs it once into the venv, later runs find it there.
.venv/bin/python -m pip install -q --disable-pip-version-check \
  "maturin>=1.16,<2" pytest hypothesis mypy pandas pyarrow polars duckdb tqdm "dask[dataframe]" pyspark
# Spark needs a Java runtime: Debian's when the machine has none.
if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
  "${apt_get[@]}" update -q
  DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -q --no-install-recommends openjdk-17-jre-headless
fi
# read_document's tests read printed receipts with the real Poppler and Tesseract.
bash score-ocr/scripts/install-tools.sh
# The package as users get it: the abi3 wheel in release mode and the sdist, into
# target/py-dist (maturin honours CARGO_TARGET_DIR and uses the workspace's target/ otherwise).
# The tests run against that wheel installed in .venv (not an editable install);
# tests/test_package.py installs it again into a fresh venv and checks the sdist.
DIST="$ROOT/target/py-dist"
rm -rf "$DIST"
.venv/bin/maturin build --quiet --release --locked -m score-py/Cargo.toml -o "$DIST"
.venv/bin/maturin sdist -m score-py/Cargo.toml -o "$DIST"
.venv/bin/python -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$DIST"/platform_score-*.whl
export PLATFORM_SCORE_DIST="$DIST"
if [ "${1:-}" = "--build-only" ]; then
  exit 0
fi
# pytest exits 5 when it collects nothing: that must fail too, and it does under `set -e`.
# The count check below also fails a run that collected suspiciously few tests.
set +e
# (run from score-py/ so that hypothesis' and mypy's caches stay in ignored folders there)
(cd score-py && ../.venv/bin/python -m pytest -q -p no:cacheprovider tests "$@") | tee /tmp/score-py-pytest.$$
status=${PIPESTATUS[0]}
set -e
passed=$(grep -Eo '[0-9]+ passed' /tmp/score-py-pytest.$$ | tail -1 | cut -d' ' -f1 || true)
rm -f /tmp/score-py-pytest.$$
if [ "$status" -ne 0 ]; then
  echo "score-py: pytest failed (exit $status)" >&2
  exit "$status"
fi
if [ "${passed:-0}" -lt 100 ] && [ "$#" -eq 0 ]; then
  echo "score-py: only ${passed:-0} tests passed; expected the full suite (>= 100)" >&2
  exit 1
fi
