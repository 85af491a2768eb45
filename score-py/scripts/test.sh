#!/usr/bin/env bash
# Builds platform_score into the repository's .venv (created when missing) and runs its tests.
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
# maturin develop builds the extension (debug profile is enough for the tests) into .venv;
# it honours CARGO_TARGET_DIR when set and uses the workspace's target/ otherwise.
VIRTUAL_ENV="$ROOT/.venv" PATH="$ROOT/.venv/bin:$PATH" \
  .venv/bin/maturin develop --quiet --locked -m score-py/Cargo.toml ${MATURIN_ARGS:-}
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
